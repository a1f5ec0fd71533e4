//! [`Flatten`]: the flat vector of a value as one array (Gymnasium's `FlattenObservation`).

use rl_core::CoreError;
use rl_spaces::FlatScalar;

use crate::numeric::{DEFAULT_NAME, NumericForm, NumericLayout, check_length};
use crate::representation::Representation;

/// One flat array holding the element's flat vector (Gymnasium's `flatten`), whose bounds are
/// the space's [`flat_box`](NumericForm::flat_box) (Gymnasium's `flatten_space`).
///
/// ```
/// use rl_core::{Environment, Mode};
/// use rl_spaces::{ArrayBox, Space};
/// use rl_wrappers::{Flatten, Representation};
///
/// let space = ArrayBox::new([-1.0f32, 0.0], [1.0, 5.0])?;
/// let flatten = Flatten::new(space)?.with_name("features")?;
/// let mut out = [0.0f64; 2];
/// flatten.write(&[0.5f32, 4.0], &mut out)?;
/// assert_eq!(out, [0.5, 4.0]);
/// assert_eq!(flatten.layout().components()[0].name(), "features");
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Flatten<S> {
    space: S,
    layout: NumericLayout,
}

impl<S: NumericForm> Flatten<S> {
    /// The flat representation of `space`'s elements, as one array named
    /// [`DEFAULT_NAME`].
    pub fn new(space: S) -> Result<Self, CoreError> {
        let layout = NumericLayout::single(DEFAULT_NAME, space.flat_box()?)?;
        check_length(&layout, space.flat_dim())?;
        Ok(Flatten { space, layout })
    }

    /// The same representation with its array named `name`.
    pub fn with_name(self, name: impl Into<String>) -> Result<Self, CoreError> {
        let space = self.layout.components().first().map(|c| c.space().clone());
        let layout = match space {
            Some(space) => NumericLayout::single(name, space)?,
            None => self.layout,
        };
        Ok(Flatten {
            space: self.space,
            layout,
        })
    }

    /// The space represented.
    pub fn space(&self) -> &S {
        &self.space
    }
}

impl<S: NumericForm> Representation<S::Element> for Flatten<S> {
    fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    fn write<T: FlatScalar>(&self, input: &S::Element, out: &mut [T]) -> Result<(), CoreError> {
        Ok(self.space.flatten_into(input, out)?)
    }
}
