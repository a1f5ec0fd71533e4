//! [`MultiDiscrete`]: arrays of integers, each entry its own `Discrete` (Gymnasium's `MultiDiscrete`).

use std::fmt;

use ndarray::{ArrayD, IxDyn, Zip};
use rand::{Rng, RngExt};
use serde_json::Value;

use crate::SpaceError;
use crate::box_space::format_shape;
use crate::discrete::one_hot_position;
use crate::json::{array_from_json, array_to_json};
use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};

/// Arrays of integers where entry `i` lies in `start[i]..start[i] + nvec[i]` (Gymnasium's
/// `MultiDiscrete(nvec, start)`).
///
/// The shape is that of `nvec`. Flattening concatenates one one-hot block per entry, in
/// row-major order.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{MultiDiscrete, SampleSpace, Space};
///
/// let space = MultiDiscrete::from_vec(vec![3, 2, 4])?;
/// let mut rng = rand_pcg::Pcg64::seed_from_u64(0);
/// let x = space.sample(&mut rng);
/// assert!(space.contains(&x));
/// // Masked sampling: a mask per entry; a mask that allows nothing gives `None`.
/// let none = space.sample_masked(&[vec![true; 3], vec![false; 2], vec![true; 4]], &mut rng)?;
/// assert_eq!(none, None);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiDiscrete {
    nvec: ArrayD<i64>,
    start: ArrayD<i64>,
}

impl MultiDiscrete {
    /// Entries in `0..nvec[i]`, with the shape of `nvec`.
    pub fn new(nvec: ArrayD<i64>) -> Result<Self, SpaceError> {
        let start = ArrayD::zeros(nvec.raw_dim());
        MultiDiscrete::with_start(nvec, start)
    }

    /// A one-dimensional space with entries in `0..nvec[i]`.
    pub fn from_vec(nvec: Vec<i64>) -> Result<Self, SpaceError> {
        let len = nvec.len();
        let nvec = ArrayD::from_shape_vec(IxDyn(&[len]), nvec)
            .map_err(|e| SpaceError::invalid("MultiDiscrete", e.to_string()))?;
        MultiDiscrete::new(nvec)
    }

    /// Entries in `start[i]..start[i] + nvec[i]`.
    ///
    /// Errors if `nvec` is empty, an `nvec` entry is below 1, the shapes differ, an upper
    /// end overflows `i64`, or the number of entries or the sum of `nvec` (the length of the
    /// flat one-hot vector) is above [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN).
    pub fn with_start(nvec: ArrayD<i64>, start: ArrayD<i64>) -> Result<Self, SpaceError> {
        if nvec.is_empty() {
            return Err(SpaceError::invalid("MultiDiscrete", "nvec is empty"));
        }
        crate::limits::check_shape("MultiDiscrete", nvec.shape())?;
        if nvec.shape() != start.shape() {
            return Err(SpaceError::invalid(
                "MultiDiscrete",
                format!(
                    "nvec has shape {:?} but start has shape {:?}",
                    nvec.shape(),
                    start.shape()
                ),
            ));
        }
        for (i, (n, s)) in nvec.iter().zip(start.iter()).enumerate() {
            if *n < 1 {
                return Err(SpaceError::invalid(
                    "MultiDiscrete",
                    format!("nvec[{i}] = {n}; every entry must be at least 1"),
                ));
            }
            if i128::from(*s) + i128::from(*n) - 1 > i128::from(i64::MAX) {
                return Err(SpaceError::invalid(
                    "MultiDiscrete",
                    format!("start[{i}] + nvec[{i}] - 1 does not fit in i64"),
                ));
            }
        }
        // Every entry is at least 1 here, so the sum of `nvec` is the flat (one-hot) length.
        let one_hot: u128 = nvec.iter().map(|n| *n as u128).sum();
        crate::limits::check_size(
            "MultiDiscrete",
            "one-hot entries (the sum of nvec)",
            one_hot,
        )?;
        Ok(MultiDiscrete { nvec, start })
    }

    /// The number of values of each entry.
    pub fn nvec(&self) -> &ArrayD<i64> {
        &self.nvec
    }

    /// The smallest value of each entry.
    pub fn start(&self) -> &ArrayD<i64> {
        &self.start
    }

    /// The shape of every element.
    pub fn shape(&self) -> &[usize] {
        self.nvec.shape()
    }

    /// Draws each entry uniformly among the values its mask allows. `masks` holds one mask per
    /// entry in row-major order, mask `i` of length `nvec[i]`.
    ///
    /// Returns `Ok(None)` when some mask allows nothing, and an error when a length is wrong.
    pub fn sample_masked<M: AsRef<[bool]>, R: Rng + ?Sized>(
        &self,
        masks: &[M],
        rng: &mut R,
    ) -> Result<Option<ArrayD<i64>>, SpaceError> {
        if masks.len() != self.nvec.len() {
            return Err(SpaceError::LengthMismatch {
                what: "list of masks",
                expected: self.nvec.len(),
                found: masks.len(),
            });
        }
        for (mask, n) in masks.iter().zip(self.nvec.iter()) {
            let mask = mask.as_ref();
            if mask.len() as u64 != *n as u64 {
                return Err(SpaceError::LengthMismatch {
                    what: "mask",
                    expected: usize::try_from(*n).unwrap_or(usize::MAX),
                    found: mask.len(),
                });
            }
            if !mask.iter().any(|m| *m) {
                return Ok(None);
            }
        }
        let mut values = Vec::with_capacity(masks.len());
        for (mask, s) in masks.iter().zip(self.start.iter()) {
            let mask = mask.as_ref();
            let allowed = mask.iter().filter(|m| **m).count();
            let pick = rng.random_range(0..allowed);
            let offset = mask
                .iter()
                .enumerate()
                .filter(|(_, m)| **m)
                .nth(pick)
                .map_or(0, |(i, _)| i as i64);
            values.push(s + offset);
        }
        Ok(ArrayD::from_shape_vec(self.nvec.raw_dim(), values).ok())
    }

    fn check_shape(&self, x: &ArrayD<i64>) -> Result<(), SpaceError> {
        if x.shape() != self.shape() {
            return Err(SpaceError::not_in_space(x, self));
        }
        Ok(())
    }
}

impl fmt::Display for MultiDiscrete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nvec: Vec<i64> = self.nvec.iter().copied().collect();
        write!(f, "MultiDiscrete({nvec:?}")?;
        if self.nvec.ndim() != 1 {
            write!(f, ", shape={}", format_shape(self.shape()))?;
        }
        if self.start.iter().any(|s| *s != 0) {
            let start: Vec<i64> = self.start.iter().copied().collect();
            write!(f, ", start={start:?}")?;
        }
        write!(f, ")")
    }
}

impl Space for MultiDiscrete {
    type Element = ArrayD<i64>;

    fn contains(&self, x: &ArrayD<i64>) -> bool {
        x.shape() == self.shape()
            && Zip::from(x)
                .and(&self.nvec)
                .and(&self.start)
                .all(|v, n, s| *v >= *s && i128::from(*v) - i128::from(*s) < i128::from(*n))
    }
}

impl SampleSpace for MultiDiscrete {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> ArrayD<i64> {
        let mut out = self.start.clone();
        Zip::from(&mut out)
            .and(&self.nvec)
            .for_each(|x, n| *x += rng.random_range(0..*n));
        out
    }
}

impl FiniteSpace for MultiDiscrete {
    fn cardinality(&self) -> Option<usize> {
        self.nvec
            .iter()
            .try_fold(1usize, |a, n| a.checked_mul(usize::try_from(*n).ok()?))
    }

    /// Elements are numbered in row-major order of their entries, the last entry varying
    /// fastest.
    fn element_at(&self, index: usize) -> Option<ArrayD<i64>> {
        if index >= self.cardinality()? {
            return None;
        }
        let mut rest = index;
        let nvec: Vec<i64> = self.nvec.iter().copied().collect();
        let start: Vec<i64> = self.start.iter().copied().collect();
        let mut values = vec![0i64; nvec.len()];
        for i in (0..nvec.len()).rev() {
            let n = usize::try_from(nvec[i]).ok()?;
            values[i] = start[i] + (rest % n) as i64;
            rest /= n;
        }
        ArrayD::from_shape_vec(self.nvec.raw_dim(), values).ok()
    }

    fn index_of(&self, x: &ArrayD<i64>) -> Option<usize> {
        if !self.contains(x) {
            return None;
        }
        let mut index = 0usize;
        for ((v, n), s) in x.iter().zip(self.nvec.iter()).zip(self.start.iter()) {
            index = index
                .checked_mul(usize::try_from(*n).ok()?)?
                .checked_add(usize::try_from(v - s).ok()?)?;
        }
        Some(index)
    }
}

impl FlattenSpace for MultiDiscrete {
    fn flat_dim(&self) -> usize {
        self.nvec
            .iter()
            .map(|n| usize::try_from(*n).unwrap_or(usize::MAX))
            .fold(0usize, usize::saturating_add)
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        x: &ArrayD<i64>,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.check_shape(x)?;
        if out.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: out.len(),
            });
        }
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        out.fill(F::ZERO);
        let mut offset = 0usize;
        for ((v, n), s) in x.iter().zip(self.nvec.iter()).zip(self.start.iter()) {
            // In range: `contains` checked s <= v < s + n.
            out[offset + (v - s) as usize] = F::ONE;
            offset += *n as usize;
        }
        Ok(())
    }

    fn batched_dim(&self) -> usize {
        self.nvec.len()
    }

    fn batched_into<F: FlatScalar>(
        &self,
        x: &ArrayD<i64>,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.check_shape(x)?;
        if out.len() != self.nvec.len() {
            return Err(SpaceError::LengthMismatch {
                what: "batched row",
                expected: self.nvec.len(),
                found: out.len(),
            });
        }
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        for (entry, (v, s)) in out.iter_mut().zip(x.iter().zip(self.start.iter())) {
            // In range: `contains` checked s <= v < s + n, n at most MAX_FLAT_LEN.
            *entry = F::from_f64((v - s) as f64);
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<ArrayD<i64>, SpaceError> {
        if flat.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: flat.len(),
            });
        }
        let mut values = Vec::with_capacity(self.nvec.len());
        let mut offset = 0usize;
        for (n, s) in self.nvec.iter().zip(self.start.iter()) {
            let n = *n as usize;
            let position = one_hot_position(&flat[offset..offset + n])?;
            values.push(s + position as i64);
            offset += n;
        }
        ArrayD::from_shape_vec(self.nvec.raw_dim(), values)
            .map_err(|e| SpaceError::flat(e.to_string()))
    }
}

impl JsonSpace for MultiDiscrete {
    fn element_to_json(&self, x: &ArrayD<i64>) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        Ok(array_to_json(x, |v| Value::from(*v)))
    }

    fn element_from_json(&self, value: &Value) -> Result<ArrayD<i64>, SpaceError> {
        let x = array_from_json(value, self.shape(), "an integer", Value::as_i64)?;
        if !self.contains(&x) {
            return Err(SpaceError::not_in_space(&x, self));
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructor_validates() {
        assert!(MultiDiscrete::from_vec(vec![]).is_err());
        assert!(MultiDiscrete::from_vec(vec![2, 0]).is_err());
        let nvec = ArrayD::from_elem(IxDyn(&[2]), 2);
        let start = ArrayD::from_elem(IxDyn(&[3]), 0);
        assert!(MultiDiscrete::with_start(nvec, start).is_err());
    }

    #[test]
    fn flatten_matches_gymnasium_for_a_2d_nvec() {
        // Gymnasium: MultiDiscrete([[2, 3], [4, 2]]), element [[0, 2], [3, 0]].
        let nvec = ArrayD::from_shape_vec(IxDyn(&[2, 2]), vec![2, 3, 4, 2]).unwrap();
        let space = MultiDiscrete::new(nvec).unwrap();
        let x = ArrayD::from_shape_vec(IxDyn(&[2, 2]), vec![0, 2, 3, 0]).unwrap();
        let flat: Vec<f64> = space.flatten(&x).unwrap();
        assert_eq!(flat, vec![1., 0., 0., 0., 1., 0., 0., 0., 1., 1., 0.]);
        assert_eq!(space.unflatten(&flat).unwrap(), x);
    }

    #[test]
    fn enumeration_is_a_bijection() {
        let nvec = ArrayD::from_shape_vec(IxDyn(&[2]), vec![2, 3]).unwrap();
        let start = ArrayD::from_shape_vec(IxDyn(&[2]), vec![-1, 5]).unwrap();
        let space = MultiDiscrete::with_start(nvec, start).unwrap();
        assert_eq!(space.cardinality(), Some(6));
        let all: Vec<ArrayD<i64>> = space.elements().collect();
        assert_eq!(all.len(), 6);
        for (i, x) in all.iter().enumerate() {
            assert!(space.contains(x));
            assert_eq!(space.index_of(x), Some(i));
        }
        assert_eq!(all[0].as_slice().unwrap(), &[-1, 5]);
        assert_eq!(all[5].as_slice().unwrap(), &[0, 7]);
    }
}
