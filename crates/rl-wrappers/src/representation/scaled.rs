//! [`Scaled`]: the entries of a bounded value mapped from their bounds to `[0, 1]` or
//! `[-1, 1]`.

use rl_core::CoreError;
use rl_spaces::FlatScalar;

use crate::numeric::{NumericForm, NumericLayout, check_length, real_box};
use crate::representation::Representation;

/// The interval a [`Scaled`] representation maps every entry to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScaleRange {
    /// `[0, 1]`: the lower bound maps to 0, the upper bound to 1.
    #[default]
    Unit,
    /// `[-1, 1]`: the lower bound maps to -1, the upper bound to 1.
    Symmetric,
}

impl ScaleRange {
    /// The lower and upper end of the interval.
    pub fn bounds(self) -> (f64, f64) {
        match self {
            ScaleRange::Unit => (0.0, 1.0),
            ScaleRange::Symmetric => (-1.0, 1.0),
        }
    }

    /// Maps `x` from `[low, high]` to the interval (`low == high` maps to its middle), clamped
    /// to the interval against rounding.
    fn map(self, x: f64, low: f64, high: f64) -> f64 {
        let (start, end) = self.bounds();
        if high <= low {
            return (start + end) / 2.0;
        }
        let unit = (x - low) / (high - low);
        let mapped = match self {
            ScaleRange::Unit => unit,
            ScaleRange::Symmetric => 2.0 * unit - 1.0,
        };
        mapped.clamp(start, end)
    }
}

/// A bounded space's elements with every entry mapped linearly from its bounds to `[0, 1]` or
/// `[-1, 1]` ([`ScaleRange`]), keeping the space's
/// [`natural_layout`](NumericForm::natural_layout) (a Box keeps its shape). The arrays are
/// declared `float64` in the interval.
///
/// The entries are written in the flat vector's type first and then mapped, in `f64`; the
/// result is clamped to the interval so that rounding never leaves it. An entry whose bounds
/// are equal maps to the middle of the interval.
///
/// ```
/// use rl_spaces::{ArrayBox, BoxSpace};
/// use rl_wrappers::{Representation, ScaleRange, Scaled};
///
/// let space = ArrayBox::new([-2.0f32, 0.0], [2.0, 10.0])?;
/// let scaled = Scaled::new(space, ScaleRange::Symmetric)?;
/// let mut out = [0.0f32; 2];
/// scaled.write(&[1.0, 10.0], &mut out)?;
/// assert_eq!(out, [0.5, 1.0]);
///
/// // An unbounded Box cannot be scaled.
/// let unbounded = BoxSpace::uniform(&[1], 0.0f64, f64::INFINITY)?;
/// assert!(Scaled::new(unbounded, ScaleRange::Unit).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Scaled<S> {
    space: S,
    range: ScaleRange,
    low: Vec<f64>,
    high: Vec<f64>,
    layout: NumericLayout,
}

impl<S: NumericForm> Scaled<S> {
    /// The representation of `space`'s elements scaled to `range`. Errors if a bound of the
    /// space's flat vector is infinite.
    pub fn new(space: S, range: ScaleRange) -> Result<Self, CoreError> {
        let flat = space.flat_box()?;
        let (low, high) = (flat.low_f64(), flat.high_f64());
        if let Some(entry) = low
            .iter()
            .zip(&high)
            .position(|(l, h)| !l.is_finite() || !h.is_finite())
        {
            return Err(CoreError::invalid_parameter(
                "space",
                format!(
                    "{space} is unbounded at flat entry {entry}; only a bounded space can be scaled"
                ),
            ));
        }
        let natural = space.natural_layout()?;
        let (start, end) = range.bounds();
        let components = natural
            .components()
            .iter()
            .map(|c| Ok((c.name().to_owned(), real_box(c.shape(), start, end)?)))
            .collect::<Result<Vec<_>, CoreError>>()?;
        let layout = NumericLayout::new(components)?;
        check_length(&layout, space.flat_dim())?;
        Ok(Scaled {
            space,
            range,
            low,
            high,
            layout,
        })
    }

    /// The space represented.
    pub fn space(&self) -> &S {
        &self.space
    }

    /// The interval entries are mapped to.
    pub fn range(&self) -> ScaleRange {
        self.range
    }
}

impl<S: NumericForm> Representation<S::Element> for Scaled<S> {
    fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    fn write<T: FlatScalar>(&self, input: &S::Element, out: &mut [T]) -> Result<(), CoreError> {
        self.space.flatten_into(input, out)?;
        for (x, (low, high)) in out.iter_mut().zip(self.low.iter().zip(&self.high)) {
            *x = T::from_f64(self.range.map(x.to_f64(), *low, *high));
        }
        Ok(())
    }
}
