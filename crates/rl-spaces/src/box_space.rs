//! [`BoxSpace`]: arrays of any shape with per-entry bounds (Gymnasium's `Box`).

use std::fmt;

use ndarray::{ArrayD, IxDyn, Zip};
use rand::Rng;
use serde_json::Value;

use crate::SpaceError;
use crate::json::{array_from_json, array_to_json};
use crate::scalar::{BoxScalar, DType};
use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};

/// Arrays of a fixed shape whose entries lie between per-entry bounds `low[i] <= x[i] <= high[i]`
/// (Gymnasium's `Box`).
///
/// The element type `T` is `f32`, `f64` or an integer type. Float bounds may be infinite.
/// Sampling follows Gymnasium: each entry is uniform where both bounds are finite, a shifted
/// exponential where one is, standard normal where neither is; integer entries are exact uniform
/// integers in `[low, high]`.
///
/// For a small fixed-size vector that must not allocate per element, see
/// [`ArrayBox`](crate::ArrayBox), which converts to and from `BoxSpace`.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{BoxSpace, SampleSpace, Space};
///
/// // A 2-vector: the first entry in [-1, 1], the second bounded below only.
/// let space = BoxSpace::from_vecs(vec![-1.0f32, 0.0], vec![1.0, f32::INFINITY])?;
/// let mut rng = rand_pcg::Pcg64::seed_from_u64(42);
/// let x = space.sample(&mut rng);
/// assert!(space.contains(&x));
/// assert_eq!(space.to_string(), "Box([-1.0, 0.0], [1.0, inf], (2,), float32)");
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BoxSpace<T: BoxScalar> {
    low: ArrayD<T>,
    high: ArrayD<T>,
}

impl<T: BoxScalar> BoxSpace<T> {
    /// A Box with the given bounds, which must have the same shape.
    ///
    /// Errors on mismatched shapes, more than [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) entries,
    /// NaN bounds, `low > high`, a lower bound of `+inf` or an upper bound of `-inf`.
    pub fn new(low: ArrayD<T>, high: ArrayD<T>) -> Result<Self, SpaceError> {
        crate::limits::check_shape("Box", low.shape())?;
        if low.shape() != high.shape() {
            return Err(SpaceError::invalid(
                "Box",
                format!(
                    "low has shape {:?} but high has shape {:?}",
                    low.shape(),
                    high.shape()
                ),
            ));
        }
        for (i, (l, h)) in low.iter().zip(high.iter()).enumerate() {
            if l.is_nan() || h.is_nan() {
                return Err(SpaceError::invalid("Box", format!("bound {i} is NaN")));
            }
            if l > h {
                return Err(SpaceError::invalid(
                    "Box",
                    format!("low[{i}] = {l:?} is greater than high[{i}] = {h:?}"),
                ));
            }
            if T::DTYPE.is_float() && (*l == T::HIGHEST || *h == T::LOWEST) {
                return Err(SpaceError::invalid(
                    "Box",
                    format!("bounds [{l:?}, {h:?}] at {i} contain no number"),
                ));
            }
        }
        Ok(BoxSpace { low, high })
    }

    /// Builds a Box from bounds that have already been validated (same shape, ordered, no NaN).
    pub(crate) fn from_validated(low: ArrayD<T>, high: ArrayD<T>) -> Self {
        BoxSpace { low, high }
    }

    /// A one-dimensional Box with the given bounds.
    pub fn from_vecs(low: Vec<T>, high: Vec<T>) -> Result<Self, SpaceError> {
        let low_shape = IxDyn(&[low.len()]);
        let high_shape = IxDyn(&[high.len()]);
        let low = ArrayD::from_shape_vec(low_shape, low)
            .map_err(|e| SpaceError::invalid("Box", e.to_string()))?;
        let high = ArrayD::from_shape_vec(high_shape, high)
            .map_err(|e| SpaceError::invalid("Box", e.to_string()))?;
        BoxSpace::new(low, high)
    }

    /// A Box of the given shape with the same bounds for every entry.
    ///
    /// Errors as [`BoxSpace::new`] does; the shape is checked against
    /// [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) before the bounds are allocated.
    pub fn uniform(shape: &[usize], low: T, high: T) -> Result<Self, SpaceError> {
        crate::limits::check_shape("Box", shape)?;
        BoxSpace::new(
            ArrayD::from_elem(IxDyn(shape), low),
            ArrayD::from_elem(IxDyn(shape), high),
        )
    }

    /// The lower bounds.
    pub fn low(&self) -> &ArrayD<T> {
        &self.low
    }

    /// The upper bounds.
    pub fn high(&self) -> &ArrayD<T> {
        &self.high
    }

    /// The shape of every element.
    pub fn shape(&self) -> &[usize] {
        self.low.shape()
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }

    /// Whether every bound is finite (for integer types, always true).
    pub fn is_bounded(&self) -> bool {
        !T::DTYPE.is_float()
            || self
                .low
                .iter()
                .zip(self.high.iter())
                .all(|(l, h)| *l != T::LOWEST && *h != T::HIGHEST)
    }

    /// Whether the entries of `x` lie within the bounds; `x` is a row-major slice of the right
    /// length. This is the membership test of [`ArrayBox`](crate::ArrayBox) and of callers that
    /// hold elements in plain slices.
    #[inline]
    pub fn contains_slice(&self, x: &[T]) -> bool {
        x.len() == self.low.len()
            && x.iter()
                .zip(self.low.iter().zip(self.high.iter()))
                .all(|(v, (l, h))| !v.is_nan() && l <= v && v <= h)
    }

    fn check_shape(&self, x: &ArrayD<T>) -> Result<(), SpaceError> {
        if x.shape() != self.shape() {
            return Err(SpaceError::InvalidFlat {
                reason: format!(
                    "element has shape {:?}, the space has shape {:?}",
                    x.shape(),
                    self.shape()
                ),
            });
        }
        Ok(())
    }

    /// The number of elements of an integer Box (`None` for floats or if it overflows `usize`),
    /// and the per-entry counts in row-major order.
    fn counts(&self) -> Option<Vec<u128>> {
        self.low
            .iter()
            .zip(self.high.iter())
            .map(|(l, h)| T::count_between(*l, *h))
            .collect()
    }
}

/// The error for an integer entry that a flat vector's float type cannot hold exactly.
pub(crate) fn inexact<T: BoxScalar>(index: usize, value: &T) -> SpaceError {
    SpaceError::flat(format!(
        "entry {index} = {value} cannot be represented exactly in the flat vector's float type"
    ))
}

/// Formats a list of bounds as Gymnasium does: a single value when all entries agree.
pub(crate) fn format_bounds<T: fmt::Debug + PartialEq>(values: &[T]) -> String {
    match values.split_first() {
        Some((first, rest)) if rest.iter().all(|v| v == first) => format!("{first:?}"),
        _ => format!("{values:?}"),
    }
}

/// Formats a shape as a Python tuple: `(3,)`, `(2, 3)`, `()`.
pub(crate) fn format_shape(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl<T: BoxScalar> fmt::Display for BoxSpace<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let low: Vec<T> = self.low.iter().copied().collect();
        let high: Vec<T> = self.high.iter().copied().collect();
        write!(
            f,
            "Box({}, {}, {}, {})",
            format_bounds(&low),
            format_bounds(&high),
            format_shape(self.shape()),
            T::DTYPE
        )
    }
}

/// Whether `v` lies within `[l, h]` (never a NaN).
#[inline]
fn inside<T: BoxScalar>(v: &T, l: &T, h: &T) -> bool {
    !v.is_nan() && l <= v && v <= h
}

impl<T: BoxScalar> BoxSpace<T> {
    /// The index of the first of `xs` outside the space (`None` standing for an element of
    /// another type): [`Space::contains`] of each, with the bounds and the shape read once for
    /// the batch rather than once per element (a vector's check of its actions, one each).
    pub(crate) fn first_outside_of<'a>(
        &self,
        mut xs: impl Iterator<Item = Option<&'a ArrayD<T>>>,
    ) -> Option<usize>
    where
        T: 'a,
    {
        let (Some(low), Some(high)) = (self.low.as_slice(), self.high.as_slice()) else {
            return xs.position(|x| !x.is_some_and(|x| self.contains(x)));
        };
        let shape = self.shape();
        xs.position(|x| {
            let Some(x) = x else {
                return true;
            };
            // Compared number by number: a slice's `!=` is a call of `memcmp`, per element,
            // for a shape of one or two numbers.
            let same_shape =
                x.ndim() == shape.len() && x.shape().iter().zip(shape).all(|(a, b)| a == b);
            let within = || match x.as_slice() {
                Some(values) => values
                    .iter()
                    .zip(low)
                    .zip(high)
                    .all(|((v, l), h)| inside(v, l, h)),
                None => self.contains(x),
            };
            !(same_shape && within())
        })
    }
}

impl<T: BoxScalar> Space for BoxSpace<T> {
    type Element = ArrayD<T>;

    fn first_outside(&self, xs: &[ArrayD<T>]) -> Option<usize> {
        self.first_outside_of(xs.iter().map(Some))
    }

    fn contains(&self, x: &ArrayD<T>) -> bool {
        if x.shape() != self.shape() {
            return false;
        }
        // Contiguous arrays (the usual case: an action made by the caller or converted from
        // NumPy) are compared as slices: ndarray's `Zip` over dynamic dimensions cost about
        // 1,800 instructions for a one-entry action (callgrind, Pendulum-v1 by id), more
        // than the step itself.
        if let (Some(x), Some(low), Some(high)) =
            (x.as_slice(), self.low.as_slice(), self.high.as_slice())
        {
            return x
                .iter()
                .zip(low)
                .zip(high)
                .all(|((v, l), h)| inside(v, l, h));
        }
        Zip::from(x).and(&self.low).and(&self.high).all(inside)
    }
}

impl<T: BoxScalar> SampleSpace for BoxSpace<T> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> ArrayD<T> {
        let mut out = self.low.clone();
        Zip::from(&mut out)
            .and(&self.high)
            .for_each(|x, h| *x = T::sample_between(*x, *h, rng));
        out
    }
}

impl<T: BoxScalar> FiniteSpace for BoxSpace<T> {
    /// For integer Boxes, the product of the per-entry counts; `None` for float Boxes.
    fn cardinality(&self) -> Option<usize> {
        self.counts()?
            .into_iter()
            .try_fold(1u128, u128::checked_mul)
            .and_then(|n| usize::try_from(n).ok())
    }

    /// Elements are numbered in row-major order of their entries, the last entry varying
    /// fastest.
    fn element_at(&self, index: usize) -> Option<ArrayD<T>> {
        let counts = self.counts()?;
        let total = counts.iter().try_fold(1u128, |a, c| a.checked_mul(*c))?;
        let mut rest = u128::try_from(index).ok().filter(|i| *i < total)?;
        let mut values = vec![T::LOWEST; counts.len()];
        let lows: Vec<T> = self.low.iter().copied().collect();
        for i in (0..counts.len()).rev() {
            values[i] = T::offset_from(lows[i], rest % counts[i])?;
            rest /= counts[i];
        }
        ArrayD::from_shape_vec(IxDyn(self.shape()), values).ok()
    }

    fn index_of(&self, x: &ArrayD<T>) -> Option<usize> {
        if !self.contains(x) {
            return None;
        }
        let counts = self.counts()?;
        let mut index = 0u128;
        for ((v, l), c) in x.iter().zip(self.low.iter()).zip(counts) {
            index = index
                .checked_mul(c)?
                .checked_add(T::distance_from(*l, *v)?)?;
        }
        usize::try_from(index).ok()
    }
}

impl<T: BoxScalar> FlattenSpace for BoxSpace<T> {
    fn flat_dim(&self) -> usize {
        self.low.len()
    }

    fn flatten_into<F: FlatScalar>(&self, x: &ArrayD<T>, out: &mut [F]) -> Result<(), SpaceError> {
        self.check_shape(x)?;
        if out.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: out.len(),
            });
        }
        for (i, (o, v)) in out.iter_mut().zip(x.iter()).enumerate() {
            *o = v.to_flat().ok_or_else(|| inexact(i, v))?;
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<ArrayD<T>, SpaceError> {
        if flat.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: flat.len(),
            });
        }
        let values = flat
            .iter()
            .enumerate()
            .map(|(i, v)| {
                T::from_f64(v.to_f64()).ok_or_else(|| {
                    SpaceError::flat(format!("entry {i} = {v:?} is not a {}", T::DTYPE))
                })
            })
            .collect::<Result<Vec<T>, _>>()?;
        let x = ArrayD::from_shape_vec(IxDyn(self.shape()), values)
            .map_err(|e| SpaceError::flat(e.to_string()))?;
        if !self.contains(&x) {
            return Err(SpaceError::not_in_space(&x, self));
        }
        Ok(x)
    }
}

impl<T: BoxScalar> JsonSpace for BoxSpace<T> {
    fn element_to_json(&self, x: &ArrayD<T>) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        Ok(array_to_json(x, |v| v.to_json()))
    }

    fn element_from_json(&self, value: &Value) -> Result<ArrayD<T>, SpaceError> {
        let expected = if T::DTYPE.is_float() {
            "a number"
        } else {
            "an integer in range"
        };
        let x = array_from_json(value, self.shape(), expected, T::from_json)?;
        if !self.contains(&x) {
            return Err(SpaceError::not_in_space(&x, self));
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;
    use serde_json::json;

    #[test]
    fn constructor_validates() {
        assert!(BoxSpace::from_vecs(vec![0.0f64], vec![1.0, 2.0]).is_err());
        assert!(BoxSpace::from_vecs(vec![f64::NAN], vec![1.0]).is_err());
        assert!(BoxSpace::from_vecs(vec![2.0f32], vec![1.0]).is_err());
        assert!(BoxSpace::from_vecs(vec![f32::INFINITY], vec![f32::INFINITY]).is_err());
        assert!(BoxSpace::from_vecs(vec![f32::NEG_INFINITY], vec![f32::NEG_INFINITY]).is_err());
        assert!(BoxSpace::from_vecs(vec![3i64], vec![2]).is_err());
        assert!(BoxSpace::from_vecs(vec![3i64], vec![3]).is_ok());
    }

    #[test]
    fn containment_reads_each_entry_against_its_own_bounds_in_any_memory_order() {
        // Bounds that differ along both axes, so that a mix-up of entries would show.
        let low = ndarray::arr2(&[[0.0f32, 10.0, 20.0], [30.0, 40.0, 50.0]]).into_dyn();
        let space = BoxSpace::new(low.clone(), low.mapv(|l| l + 1.0)).unwrap();
        let inside = low.mapv(|l| l + 0.5);
        assert!(inside.as_slice().is_some());
        assert!(space.contains(&inside));
        // The same values, held in column-major memory (not a standard-layout slice: the
        // entry-by-entry path): the same answers.
        let mut columns = ndarray::Array::zeros(ndarray::ShapeBuilder::f(ndarray::IxDyn(&[2, 3])));
        columns.assign(&inside);
        assert!(columns.as_slice().is_none());
        assert!(space.contains(&columns));
        for (index, bad) in [((0, 2), 19.0f32), ((1, 0), 31.5 + 1.0), ((1, 1), f32::NAN)] {
            let mut outside = inside.clone();
            outside[[index.0, index.1]] = bad;
            let mut outside_columns =
                ndarray::Array::zeros(ndarray::ShapeBuilder::f(ndarray::IxDyn(&[2, 3])));
            outside_columns.assign(&outside);
            assert!(!space.contains(&outside), "{outside}");
            assert!(!space.contains(&outside_columns), "{outside_columns}");
        }
        // Another shape is never contained.
        assert!(!space.contains(&ndarray::ArrayD::from_elem(vec![3, 2], 0.5f32)));
    }

    #[test]
    fn unbounded_sides_sample_and_stay_contained() {
        let space = BoxSpace::from_vecs(
            vec![f64::NEG_INFINITY, 0.0, f64::NEG_INFINITY, -1.0],
            vec![f64::INFINITY, f64::INFINITY, 0.0, 1.0],
        )
        .unwrap();
        assert!(!space.is_bounded());
        let mut rng = Pcg64::seed_from_u64(1);
        for _ in 0..500 {
            let x = space.sample(&mut rng);
            assert!(space.contains(&x), "{x}");
            assert!(x[1] >= 0.0 && x[2] <= 0.0);
        }
    }

    #[test]
    fn integer_boxes_draw_every_value_including_the_bounds() {
        let space = BoxSpace::uniform(&[1], -2i64, 2).unwrap();
        let mut rng = Pcg64::seed_from_u64(2);
        let mut seen = [false; 5];
        for _ in 0..500 {
            let x = space.sample(&mut rng);
            seen[(x[0] + 2) as usize] = true;
        }
        assert_eq!(seen, [true; 5]);
    }

    #[test]
    fn full_range_integer_boxes_sample() {
        let space = BoxSpace::uniform(&[3], u64::MIN, u64::MAX).unwrap();
        let mut rng = Pcg64::seed_from_u64(2);
        assert!(space.contains(&space.sample(&mut rng)));
        assert_eq!(space.cardinality(), None);
    }

    #[test]
    fn integer_boxes_enumerate_in_row_major_order() {
        let space = BoxSpace::from_vecs(vec![0u8, 5], vec![1, 7]).unwrap();
        assert_eq!(space.cardinality(), Some(6));
        let all: Vec<Vec<u8>> = space
            .elements()
            .map(|x| x.iter().copied().collect())
            .collect();
        assert_eq!(
            all,
            vec![
                vec![0, 5],
                vec![0, 6],
                vec![0, 7],
                vec![1, 5],
                vec![1, 6],
                vec![1, 7]
            ]
        );
        for (i, x) in space.elements().enumerate() {
            assert_eq!(space.index_of(&x), Some(i));
        }
    }

    #[test]
    fn nan_and_wrong_shapes_are_not_contained() {
        let space = BoxSpace::uniform(&[2], -1.0f32, 1.0).unwrap();
        assert!(!space.contains(&ArrayD::from_elem(IxDyn(&[2]), f32::NAN)));
        assert!(!space.contains(&ArrayD::from_elem(IxDyn(&[3]), 0.0)));
        assert!(!space.contains(&ArrayD::from_elem(IxDyn(&[2, 1]), 0.0)));
    }

    #[test]
    fn json_checks_shape_and_bounds() {
        let space = BoxSpace::uniform(&[2, 2], 0u8, 9).unwrap();
        let x = space.element_from_json(&json!([[1, 2], [3, 4]])).unwrap();
        assert_eq!(space.element_to_json(&x).unwrap(), json!([[1, 2], [3, 4]]));
        assert!(space.element_from_json(&json!([[1, 2], [3, 10]])).is_err());
        assert!(space.element_from_json(&json!([[1, 2], [3, 1.5]])).is_err());
        assert!(space.element_from_json(&json!([1, 2, 3, 4])).is_err());
    }

    #[test]
    fn infinite_elements_round_trip_through_json() {
        let space = BoxSpace::uniform(&[1], f64::NEG_INFINITY, f64::INFINITY).unwrap();
        let x = ArrayD::from_elem(IxDyn(&[1]), f64::INFINITY);
        let json = space.element_to_json(&x).unwrap();
        assert_eq!(json, json!(["inf"]));
        assert_eq!(space.element_from_json(&json).unwrap(), x);
    }

    #[test]
    fn unflatten_checks_type_and_bounds() {
        let space = BoxSpace::uniform(&[2], 0i32, 3).unwrap();
        assert!(space.unflatten(&[1.0f64, 2.0]).is_ok());
        assert!(space.unflatten(&[1.5f64, 2.0]).is_err());
        assert!(space.unflatten(&[1.0f64, 4.0]).is_err());
        assert!(space.unflatten(&[1.0f64]).is_err());
    }
}
