//! [`FloatBox`]: the float Box action spaces ([`BoxSpace`] and [`ArrayBox`] of `f32` or `f64`)
//! that [`ClipAction`](crate::stateless::ClipAction) and
//! [`RescaleAction`](crate::stateless::RescaleAction) transform.

use ndarray::ArrayD;
use rl_core::CoreError;
use rl_spaces::{ArrayBox, BoxSpace, Space, SpaceError};

/// A Box of floats (`BoxSpace<f32>`, `BoxSpace<f64>`, `ArrayBox<f32, N>`, `ArrayBox<f64, N>`)
/// whose elements an action transform can write entry by entry without allocating.
pub trait FloatBox: Space + Clone {
    /// A Box of the same shape and type with the bounds `[low, high]` for every entry.
    fn with_bounds(&self, low: f64, high: f64) -> Result<Self, CoreError>;

    /// Whether every bound is finite.
    fn is_bounded(&self) -> bool;

    /// An element of the right shape to be overwritten (its values are the lower bounds).
    fn scratch(&self) -> Self::Element;

    /// Writes into `out` every entry of `action` mapped by `map(value, low, high)` (computed
    /// in `f64`, with this Box's bounds of the entry), rounded to the element type and clipped
    /// to the bounds. Errors if `action` or `out` does not have this Box's shape.
    fn map_into(
        &self,
        action: &Self::Element,
        out: &mut Self::Element,
        map: impl Fn(f64, f64, f64) -> f64,
    ) -> Result<(), CoreError>;
}

macro_rules! float_box {
    ($t:ty) => {
        impl FloatBox for BoxSpace<$t> {
            fn with_bounds(&self, low: f64, high: f64) -> Result<Self, CoreError> {
                Ok(BoxSpace::uniform(self.shape(), low as $t, high as $t)?)
            }

            fn is_bounded(&self) -> bool {
                BoxSpace::is_bounded(self)
            }

            fn scratch(&self) -> ArrayD<$t> {
                self.low().clone()
            }

            fn map_into(
                &self,
                action: &ArrayD<$t>,
                out: &mut ArrayD<$t>,
                map: impl Fn(f64, f64, f64) -> f64,
            ) -> Result<(), CoreError> {
                for shape in [action.shape(), out.shape()] {
                    if shape != self.shape() {
                        return Err(CoreError::Space(SpaceError::InvalidFlat {
                            reason: format!(
                                "an action of shape {shape:?} for a Box of shape {:?}",
                                self.shape()
                            ),
                        }));
                    }
                }
                let bounds = self.low().iter().zip(self.high().iter());
                for ((o, a), (low, high)) in out.iter_mut().zip(action.iter()).zip(bounds) {
                    let mapped = map(f64::from(*a), f64::from(*low), f64::from(*high)) as $t;
                    *o = mapped.max(*low).min(*high);
                }
                Ok(())
            }
        }

        impl<const N: usize> FloatBox for ArrayBox<$t, N> {
            fn with_bounds(&self, low: f64, high: f64) -> Result<Self, CoreError> {
                Ok(ArrayBox::new([low as $t; N], [high as $t; N])?)
            }

            fn is_bounded(&self) -> bool {
                self.low().iter().chain(self.high()).all(|v| v.is_finite())
            }

            fn scratch(&self) -> [$t; N] {
                *self.low()
            }

            fn map_into(
                &self,
                action: &[$t; N],
                out: &mut [$t; N],
                map: impl Fn(f64, f64, f64) -> f64,
            ) -> Result<(), CoreError> {
                let bounds = self.low().iter().zip(self.high());
                for ((o, a), (low, high)) in out.iter_mut().zip(action).zip(bounds) {
                    let mapped = map(f64::from(*a), f64::from(*low), f64::from(*high)) as $t;
                    *o = mapped.max(*low).min(*high);
                }
                Ok(())
            }
        }
    };
}

float_box!(f32);
float_box!(f64);
