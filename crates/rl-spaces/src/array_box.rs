//! [`ArrayBox`]: a one-dimensional Box whose elements are plain arrays `[T; N]`.

use std::fmt;

use ndarray::{ArrayD, IxDyn};
use rand::Rng;
use serde_json::Value;

use crate::box_space::{format_bounds, format_shape, inexact};
use crate::scalar::BoxScalar;
use crate::space::{FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};
use crate::{BoxSpace, SpaceError};

/// A Box of shape `(N,)` whose elements are plain `[T; N]` arrays.
///
/// It is the same set as the [`BoxSpace`] it converts to with [`to_box`](Self::to_box), with
/// the same sampling rule and JSON, but its elements are `Copy` values: checking or producing
/// one never allocates. Environments use it for small observations and actions (CartPole's
/// observation is an `ArrayBox<f32, 4>`).
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{ArrayBox, SampleSpace, Space};
///
/// let space = ArrayBox::new([-1.0f32, -2.0], [1.0, 2.0])?;
/// let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
/// let x: [f32; 2] = space.sample(&mut rng);
/// assert!(space.contains(&x));
/// assert!(!space.contains(&[0.0, f32::NAN]));
/// assert_eq!(space.to_box().shape(), &[2]);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArrayBox<T: BoxScalar, const N: usize> {
    low: [T; N],
    high: [T; N],
}

impl<T: BoxScalar, const N: usize> ArrayBox<T, N> {
    /// A Box with the given bounds; validated as [`BoxSpace::new`] validates.
    pub fn new(low: [T; N], high: [T; N]) -> Result<Self, SpaceError> {
        BoxSpace::from_vecs(low.to_vec(), high.to_vec())?;
        Ok(ArrayBox { low, high })
    }

    /// The lower bounds.
    pub fn low(&self) -> &[T; N] {
        &self.low
    }

    /// The upper bounds.
    pub fn high(&self) -> &[T; N] {
        &self.high
    }

    /// The same set as a [`BoxSpace`] of shape `(N,)`.
    pub fn to_box(&self) -> BoxSpace<T> {
        // The bounds were validated by `new`.
        BoxSpace::from_validated(Self::to_array(&self.low), Self::to_array(&self.high))
    }

    /// Converts an element to the [`BoxSpace`] element type.
    pub fn to_array(x: &[T; N]) -> ArrayD<T> {
        ArrayD::from_shape_fn(IxDyn(&[N]), |i| x[i[0]])
    }

    /// Converts a [`BoxSpace`] element of shape `(N,)` to a plain array, in any memory order
    /// (`None` for another shape).
    ///
    /// ```
    /// use ndarray::{ArrayD, IxDyn, s};
    /// use rl_spaces::ArrayBox;
    ///
    /// let contiguous = ArrayD::from_shape_vec(IxDyn(&[3]), vec![1.0f32, 2.0, 3.0])?;
    /// assert_eq!(ArrayBox::<f32, 3>::from_array(&contiguous), Some([1.0, 2.0, 3.0]));
    /// // Every second entry of six: an owned array whose entries are not side by side.
    /// let six = ArrayD::from_shape_vec(IxDyn(&[6]), vec![1.0f32, 0.0, 2.0, 0.0, 3.0, 0.0])?;
    /// let strided = six.slice_move(s![..;2]).into_dyn();
    /// assert!(strided.as_slice().is_none());
    /// assert_eq!(ArrayBox::<f32, 3>::from_array(&strided), Some([1.0, 2.0, 3.0]));
    /// assert_eq!(ArrayBox::<f32, 2>::from_array(&contiguous), None);
    /// # Ok::<(), ndarray::ShapeError>(())
    /// ```
    pub fn from_array(x: &ArrayD<T>) -> Option<[T; N]> {
        if x.shape() != [N] {
            return None;
        }
        let mut out = [T::LOWEST; N];
        // A contiguous array (the usual case) is copied as a slice, without ndarray's
        // iterator over dynamic dimensions (about 100 instructions for one entry).
        match x.as_slice() {
            Some(values) => out.copy_from_slice(values),
            None => {
                for (o, v) in out.iter_mut().zip(x.iter()) {
                    *o = *v;
                }
            }
        }
        Some(out)
    }
}

impl<T: BoxScalar, const N: usize> fmt::Display for ArrayBox<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Box({}, {}, {}, {})",
            format_bounds(&self.low),
            format_bounds(&self.high),
            format_shape(&[N]),
            T::DTYPE
        )
    }
}

impl<T: BoxScalar, const N: usize> Space for ArrayBox<T, N> {
    type Element = [T; N];

    #[inline]
    fn contains(&self, x: &[T; N]) -> bool {
        x.iter()
            .zip(self.low.iter().zip(self.high.iter()))
            .all(|(v, (l, h))| !v.is_nan() && l <= v && v <= h)
    }
}

impl<T: BoxScalar, const N: usize> SampleSpace for ArrayBox<T, N> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> [T; N] {
        let mut out = self.low;
        for (x, h) in out.iter_mut().zip(self.high.iter()) {
            *x = T::sample_between(*x, *h, rng);
        }
        out
    }
}

impl<T: BoxScalar, const N: usize> FlattenSpace for ArrayBox<T, N> {
    fn flat_dim(&self) -> usize {
        N
    }

    fn flatten_into<F: FlatScalar>(&self, x: &[T; N], out: &mut [F]) -> Result<(), SpaceError> {
        if out.len() != N {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: N,
                found: out.len(),
            });
        }
        for (i, (o, v)) in out.iter_mut().zip(x.iter()).enumerate() {
            *o = v.to_flat().ok_or_else(|| inexact(i, v))?;
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<[T; N], SpaceError> {
        if flat.len() != N {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: N,
                found: flat.len(),
            });
        }
        let mut out = self.low;
        for (i, (o, v)) in out.iter_mut().zip(flat.iter()).enumerate() {
            *o = T::from_f64(v.to_f64()).ok_or_else(|| {
                SpaceError::flat(format!("entry {i} = {v:?} is not a {}", T::DTYPE))
            })?;
        }
        if !self.contains(&out) {
            return Err(SpaceError::not_in_space(&out, self));
        }
        Ok(out)
    }
}

impl<T: BoxScalar, const N: usize> JsonSpace for ArrayBox<T, N> {
    fn element_to_json(&self, x: &[T; N]) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        Ok(Value::Array(x.iter().map(|v| v.to_json()).collect()))
    }

    fn element_from_json(&self, value: &Value) -> Result<[T; N], SpaceError> {
        let array = self.to_box().element_from_json(value)?;
        ArrayBox::<T, N>::from_array(&array).ok_or_else(|| SpaceError::not_in_space(&array, self))
    }
}
