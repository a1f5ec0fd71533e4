//! [`OneHot`]: an element of a finite space as the one-hot vector of its index.

use rl_core::CoreError;
use rl_spaces::{AnyBox, BoxSpace, FiniteSpace, FlatScalar, SpaceError};

use crate::numeric::{DEFAULT_NAME, NumericLayout, check_length, check_one_hot_length};
use crate::representation::Representation;

/// The one-hot vector of an element's index in a finite space (a Discrete space, a finite set,
/// an integer Box, ...): 1 at [`FiniteSpace::index_of`], 0 elsewhere, as one `int64` array
/// in `[0, 1]` named [`DEFAULT_NAME`].
///
/// For a Discrete space this is also what [`Identity`](crate::Identity) gives; for other
/// finite spaces (a MultiDiscrete, whose flat vector concatenates one block per entry) it
/// numbers the joint elements instead.
///
/// ```
/// use rl_spaces::{Discrete, MultiDiscrete};
/// use rl_wrappers::{OneHot, Representation};
///
/// let one_hot = OneHot::new(Discrete::with_start(3, -1)?)?;
/// let mut out = [0.0f32; 3];
/// one_hot.write(&0, &mut out)?;
/// assert_eq!(out, [0.0, 1.0, 0.0]);
/// assert!(one_hot.write(&5, &mut out).is_err());
///
/// // Joint elements of a MultiDiscrete([2, 3]) are numbered 0..6.
/// let joint = OneHot::new(MultiDiscrete::from_vec(vec![2, 3])?)?;
/// assert_eq!(joint.layout().flat_dim(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OneHot<S> {
    space: S,
    layout: NumericLayout,
}

impl<S: FiniteSpace> OneHot<S> {
    /// The one-hot representation of `space`'s elements. Errors if the space is too large to
    /// count or has more than [`MAX_ONE_HOT`](crate::MAX_ONE_HOT) elements.
    pub fn new(space: S) -> Result<Self, CoreError> {
        let count = space.cardinality().ok_or_else(|| {
            CoreError::invalid_parameter(
                "space",
                format!("{space} has too many elements to number; a one-hot vector needs a count"),
            )
        })?;
        check_one_hot_length(count)?;
        let layout = NumericLayout::single(DEFAULT_NAME, unit_box(count)?)?;
        Ok(OneHot { space, layout })
    }

    /// The same representation with its array named `name`.
    pub fn with_name(self, name: impl Into<String>) -> Result<Self, CoreError> {
        let layout = NumericLayout::single(name, unit_box(self.layout.flat_dim())?)?;
        Ok(OneHot {
            space: self.space,
            layout,
        })
    }

    /// The space represented.
    pub fn space(&self) -> &S {
        &self.space
    }
}

fn unit_box(count: usize) -> Result<AnyBox, CoreError> {
    Ok(AnyBox::from(BoxSpace::uniform(&[count], 0i64, 1)?))
}

impl<S: FiniteSpace> Representation<S::Element> for OneHot<S> {
    fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    fn write<T: FlatScalar>(&self, input: &S::Element, out: &mut [T]) -> Result<(), CoreError> {
        check_length(&self.layout, out.len())?;
        let index = self
            .space
            .index_of(input)
            .filter(|index| *index < out.len())
            .ok_or_else(|| SpaceError::NotInSpace {
                element: format!("{input:?}"),
                space: self.space.to_string(),
            })?;
        out.fill(T::ZERO);
        if let Some(hot) = out.get_mut(index) {
            *hot = T::ONE;
        }
        Ok(())
    }
}
