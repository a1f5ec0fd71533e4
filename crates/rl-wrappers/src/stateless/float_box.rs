//! [`FloatBox`]: the float Box action spaces ([`BoxSpace`] and [`ArrayBox`] of `f32` or `f64`,
//! and an [`AnySpace`] holding one, the action space of what is built by id) that
//! [`ClipAction`](crate::stateless::ClipAction),
//! [`RescaleAction`](crate::stateless::RescaleAction), and the vector wrappers
//! [`VectorClipAction`](crate::vector::VectorClipAction),
//! [`VectorRescaleAction`](crate::vector::VectorRescaleAction) and
//! [`VectorDiscretizeAction`](crate::vector::VectorDiscretizeAction) transform.

use ndarray::ArrayD;
use rl_core::CoreError;
use rl_spaces::{AnyArray, AnyBox, AnyElement, AnySpace, ArrayBox, BoxSpace, Space, SpaceError};

/// A Box of floats (`BoxSpace<f32>`, `BoxSpace<f64>`, `ArrayBox<f32, N>`, `ArrayBox<f64, N>`)
/// whose elements an action transform can write entry by entry without allocating.
///
/// [`AnySpace`] is one when it holds a `Box` of `f32` or `f64` (the action space of an
/// environment or a vector built by id, `rl_wrappers::vector::make_vector`), its elements
/// [`AnyElement::Array`]s of that type: the wrappers then map each entry exactly as they map
/// the typed Box's, so their results are the same bit for bit. Any other `AnySpace` is refused
/// when a wrapper is built ([`ensure_float_box`](Self::ensure_float_box)).
pub trait FloatBox: Space + Clone {
    /// Errors, naming the space, when it is not a Box of floats (only an [`AnySpace`] can
    /// fail: the typed Boxes always are one).
    fn ensure_float_box(&self) -> Result<(), CoreError> {
        Ok(())
    }

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

/// The refusal of an [`AnySpace`] that is not a Box of floats.
/// The action a float-Box action wrapper ([`ClipAction`](crate::stateless::ClipAction),
/// [`RescaleAction`](crate::stateless::RescaleAction)) passes on: checks `action` against the
/// wrapper's own action space `space`, then writes into `out` each of its numbers mapped by
/// `map(value, low, high)` onto the bounds of `inner_space` (rounded and clipped to them,
/// [`FloatBox::map_into`]).
pub(crate) fn map_action<S: FloatBox>(
    space: &S,
    inner_space: &S,
    action: &S::Element,
    out: &mut S::Element,
    map: impl Fn(f64, f64, f64) -> f64,
) -> Result<(), CoreError> {
    if !space.contains(action) {
        return Err(CoreError::invalid_action(action, space));
    }
    inner_space.map_into(action, out, map)
}

fn not_a_float_box(space: &AnySpace) -> CoreError {
    CoreError::invalid_parameter(
        "action_space",
        format!(
            "{space} is not a Box of f32 or f64; only those actions are clipped, rescaled or discretised"
        ),
    )
}

/// The refusal of an element of the wrong kind for an [`AnySpace`] Box of floats.
fn not_an_element(space: &AnySpace, element: &AnyElement) -> CoreError {
    CoreError::Space(SpaceError::InvalidFlat {
        reason: format!("{element} is not an action of {space}"),
    })
}

impl FloatBox for AnySpace {
    fn ensure_float_box(&self) -> Result<(), CoreError> {
        match self {
            AnySpace::Box(AnyBox::F32(_) | AnyBox::F64(_)) => Ok(()),
            _ => Err(not_a_float_box(self)),
        }
    }

    fn with_bounds(&self, low: f64, high: f64) -> Result<Self, CoreError> {
        match self {
            AnySpace::Box(AnyBox::F32(b)) => {
                Ok(AnySpace::Box(AnyBox::F32(b.with_bounds(low, high)?)))
            }
            AnySpace::Box(AnyBox::F64(b)) => {
                Ok(AnySpace::Box(AnyBox::F64(b.with_bounds(low, high)?)))
            }
            _ => Err(not_a_float_box(self)),
        }
    }

    /// Whether every bound is finite (false for a space that is not a Box of floats).
    fn is_bounded(&self) -> bool {
        match self {
            AnySpace::Box(AnyBox::F32(b)) => FloatBox::is_bounded(b),
            AnySpace::Box(AnyBox::F64(b)) => FloatBox::is_bounded(b),
            _ => false,
        }
    }

    /// The lower bounds; for a space that is not a Box of floats (which no wrapper accepts),
    /// an empty `f64` array.
    fn scratch(&self) -> AnyElement {
        match self {
            AnySpace::Box(AnyBox::F32(b)) => AnyElement::from(b.scratch()),
            AnySpace::Box(AnyBox::F64(b)) => AnyElement::from(b.scratch()),
            _ => AnyElement::from(ArrayD::<f64>::zeros(vec![0])),
        }
    }

    fn map_into(
        &self,
        action: &AnyElement,
        out: &mut AnyElement,
        map: impl Fn(f64, f64, f64) -> f64,
    ) -> Result<(), CoreError> {
        if let (AnyElement::Array(from), AnyElement::Array(into)) = (action, &mut *out) {
            match (self, &**from, &mut **into) {
                (AnySpace::Box(AnyBox::F32(b)), AnyArray::F32(from), AnyArray::F32(into)) => {
                    return b.map_into(from, into, map);
                }
                (AnySpace::Box(AnyBox::F64(b)), AnyArray::F64(from), AnyArray::F64(into)) => {
                    return b.map_into(from, into, map);
                }
                _ => {}
            }
        }
        match self {
            AnySpace::Box(AnyBox::F32(_) | AnyBox::F64(_)) => Err(not_an_element(self, action)),
            _ => Err(not_a_float_box(self)),
        }
    }
}
