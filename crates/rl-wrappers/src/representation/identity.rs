//! [`Identity`]: the numeric data of a flattenable value as it is, keeping a Box's shape or a
//! Dict's keys.

use rl_core::CoreError;
use rl_spaces::FlatScalar;

use crate::numeric::{NumericForm, NumericLayout, check_length};
use crate::representation::Representation;

/// The identity representation of numeric observations: the flat vector of the element
/// (Gymnasium's `flatten`), laid out as the space's
/// [`natural_layout`](NumericForm::natural_layout): a Box keeps its shape and bounds, each
/// key of a Dict is its own array, anything else is one flat array named
/// [`DEFAULT_NAME`](crate::DEFAULT_NAME).
///
/// Over a [`NumericSpace`](crate::NumericSpace) it copies the layout and converts the numbers,
/// which casts numeric data between `f32` and `f64`
/// ([`CastObservation`](crate::stateless::CastObservation)).
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::Corridor;
/// use rl_wrappers::{Identity, OuterEnvironment};
///
/// let domain = Corridor::new(3, 0.0)?;
/// let space = *rl_core::Domain::observation_space(&domain);
/// let mut env = OuterEnvironment::<_, _, f64>::new(Simulator::new(domain, 0), Identity::new(space)?);
/// // A Discrete observation flattens to its one-hot vector.
/// assert_eq!(env.reset(Mode::Training)?.as_slice(), &[1.0, 0.0, 0.0]);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Identity<S> {
    space: S,
    layout: NumericLayout,
}

impl<S: NumericForm> Identity<S> {
    /// The identity representation of `space`'s elements.
    pub fn new(space: S) -> Result<Self, CoreError> {
        let layout = space.natural_layout()?;
        check_length(&layout, space.flat_dim())?;
        Ok(Identity { space, layout })
    }

    /// The space represented.
    pub fn space(&self) -> &S {
        &self.space
    }
}

impl<S: NumericForm> Representation<S::Element> for Identity<S> {
    fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    fn write<T: FlatScalar>(&self, input: &S::Element, out: &mut [T]) -> Result<(), CoreError> {
        Ok(self.space.flatten_into(input, out)?)
    }
}
