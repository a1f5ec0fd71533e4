//! [`MultiBinary`]: arrays of zeros and ones (Gymnasium's `MultiBinary`).

use std::fmt;

use ndarray::{ArrayD, IxDyn};
use rand::{Rng, RngExt};
use serde_json::Value;

use crate::SpaceError;
use crate::box_space::format_shape;
use crate::json::{array_from_json, array_to_json};
use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};

/// Arrays of a fixed shape whose entries are 0 or 1 (Gymnasium's `MultiBinary`; elements are
/// `i8` like Gymnasium's `int8`).
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{MultiBinary, SampleSpace, Space};
///
/// let space = MultiBinary::new(&[2, 3])?;
/// let mut rng = rand_pcg::Pcg64::seed_from_u64(0);
/// let x = space.sample(&mut rng);
/// assert!(space.contains(&x));
/// assert_eq!(space.to_string(), "MultiBinary((2, 3))");
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiBinary {
    shape: Vec<usize>,
    len: usize,
}

impl MultiBinary {
    /// Arrays of the given shape. Errors if the shape is empty, has a zero dimension, or has
    /// more than [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) entries.
    pub fn new(shape: &[usize]) -> Result<Self, SpaceError> {
        if shape.is_empty() || shape.contains(&0) {
            return Err(SpaceError::invalid(
                "MultiBinary",
                format!("shape {shape:?} has no entries; every dimension must be at least 1"),
            ));
        }
        let len = crate::limits::check_shape("MultiBinary", shape)?;
        Ok(MultiBinary {
            shape: shape.to_vec(),
            len,
        })
    }

    /// The shape of every element.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of entries of every element.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a MultiBinary space has at least one entry.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl fmt::Display for MultiBinary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape.as_slice() {
            [n] => write!(f, "MultiBinary({n})"),
            shape => write!(f, "MultiBinary({})", format_shape(shape)),
        }
    }
}

impl Space for MultiBinary {
    type Element = ArrayD<i8>;

    fn contains(&self, x: &ArrayD<i8>) -> bool {
        x.shape() == self.shape.as_slice() && x.iter().all(|v| *v == 0 || *v == 1)
    }
}

impl SampleSpace for MultiBinary {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> ArrayD<i8> {
        ArrayD::from_shape_simple_fn(IxDyn(&self.shape), || i8::from(rng.random::<bool>()))
    }
}

impl FiniteSpace for MultiBinary {
    fn cardinality(&self) -> Option<usize> {
        u32::try_from(self.len)
            .ok()
            .and_then(|bits| 1usize.checked_shl(bits))
            .filter(|_| self.len < usize::BITS as usize)
    }

    /// Elements are numbered as binary numbers, the first entry being the most significant bit.
    fn element_at(&self, index: usize) -> Option<ArrayD<i8>> {
        if index >= self.cardinality()? {
            return None;
        }
        let values = (0..self.len)
            .map(|i| ((index >> (self.len - 1 - i)) & 1) as i8)
            .collect();
        ArrayD::from_shape_vec(IxDyn(&self.shape), values).ok()
    }

    fn index_of(&self, x: &ArrayD<i8>) -> Option<usize> {
        self.cardinality()?;
        if !self.contains(x) {
            return None;
        }
        Some(x.iter().fold(0usize, |a, v| (a << 1) | (*v as usize)))
    }
}

impl FlattenSpace for MultiBinary {
    fn flat_dim(&self) -> usize {
        self.len
    }

    fn flatten_into<F: FlatScalar>(&self, x: &ArrayD<i8>, out: &mut [F]) -> Result<(), SpaceError> {
        if x.shape() != self.shape.as_slice() {
            return Err(SpaceError::not_in_space(x, self));
        }
        if out.len() != self.len {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.len,
                found: out.len(),
            });
        }
        for (o, v) in out.iter_mut().zip(x.iter()) {
            *o = F::from_f64(f64::from(*v));
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<ArrayD<i8>, SpaceError> {
        if flat.len() != self.len {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.len,
                found: flat.len(),
            });
        }
        let values = flat
            .iter()
            .enumerate()
            .map(|(i, v)| match v.to_f64() {
                0.0 => Ok(0),
                1.0 => Ok(1),
                other => Err(SpaceError::flat(format!(
                    "entry {i} = {other} is neither 0 nor 1"
                ))),
            })
            .collect::<Result<Vec<i8>, _>>()?;
        ArrayD::from_shape_vec(IxDyn(&self.shape), values)
            .map_err(|e| SpaceError::flat(e.to_string()))
    }
}

impl JsonSpace for MultiBinary {
    fn element_to_json(&self, x: &ArrayD<i8>) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        Ok(array_to_json(x, |v| Value::from(*v)))
    }

    fn element_from_json(&self, value: &Value) -> Result<ArrayD<i8>, SpaceError> {
        let x = array_from_json(value, &self.shape, "0 or 1", |v| match v.as_i64() {
            Some(0) => Some(0),
            Some(1) => Some(1),
            _ => None,
        })?;
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructor_validates() {
        assert!(MultiBinary::new(&[]).is_err());
        assert!(MultiBinary::new(&[3, 0]).is_err());
        assert!(MultiBinary::new(&[usize::MAX, 2]).is_err());
    }

    #[test]
    fn enumeration_counts_in_binary() {
        let space = MultiBinary::new(&[3]).unwrap();
        assert_eq!(space.cardinality(), Some(8));
        let five = space.element_at(5).unwrap();
        assert_eq!(five.as_slice().unwrap(), &[1, 0, 1]);
        assert_eq!(space.index_of(&five), Some(5));
        assert_eq!(space.element_at(8), None);
        assert_eq!(MultiBinary::new(&[64]).unwrap().cardinality(), None);
    }

    #[test]
    fn values_other_than_zero_and_one_are_rejected() {
        let space = MultiBinary::new(&[2]).unwrap();
        assert!(!space.contains(&ArrayD::from_elem(IxDyn(&[2]), 2)));
        assert!(space.unflatten(&[0.5f32, 1.0]).is_err());
        assert!(space.element_from_json(&serde_json::json!([0, 2])).is_err());
    }
}
