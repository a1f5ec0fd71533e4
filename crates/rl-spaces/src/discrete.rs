//! [`Discrete`]: the integers `start, start + 1, ..., start + n - 1`.

use std::fmt;

use rand::{Rng, RngExt};
use serde_json::Value;

use crate::SpaceError;
use crate::json::describe;
use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};

/// The `n` integers `start, start + 1, ..., start + n - 1` (Gymnasium's `Discrete(n, start)`).
///
/// Elements are `i64`. Flattening gives a one-hot vector of length `n` (position `x - start`).
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{Discrete, SampleSpace, Space};
///
/// let actions = Discrete::new(4)?;
/// let mut rng = rand_pcg::Pcg64::seed_from_u64(0);
/// let a = actions.sample(&mut rng);
/// assert!(actions.contains(&a));
///
/// // Masked sampling: only actions 1 and 3 are allowed.
/// let masked = actions.sample_masked(&[false, true, false, true], &mut rng)?;
/// assert!(matches!(masked, Some(1) | Some(3)));
/// // No allowed action gives `None`, never a silent default.
/// assert_eq!(actions.sample_masked(&[false; 4], &mut rng)?, None);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Discrete {
    n: u64,
    start: i64,
}

impl Discrete {
    /// The integers `0..n`. Errors if `n` is zero or above `i64::MAX + 1`.
    ///
    /// Any `n` is sampled, checked and written to JSON as Gymnasium does, so Gymnasium's
    /// `Discrete(2**40)` has its counterpart; above [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN)
    /// values, though, a Discrete is too large to flatten (its one-hot vector would have `n`
    /// entries: [`is_flattenable`](FlattenSpace::is_flattenable) is false and flattening is an
    /// error) or to enumerate ([`cardinality`](FiniteSpace::cardinality) is `None`), so
    /// nothing ever allocates in proportion to `n`.
    pub fn new(n: u64) -> Result<Self, SpaceError> {
        Discrete::with_start(n, 0)
    }

    /// The integers `start..start + n`. Errors if `n` is zero or above `i64::MAX` (Gymnasium
    /// holds `n` as an int64), or if `start + n - 1` overflows `i64`. Above [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) values it neither flattens nor
    /// enumerates ([`new`](Self::new)).
    pub fn with_start(n: u64, start: i64) -> Result<Self, SpaceError> {
        if n == 0 {
            return Err(SpaceError::invalid("Discrete", "n must be at least 1"));
        }
        if n > i64::MAX as u64 {
            // Gymnasium stores n as an int64 (`np.int64(n)` overflows above it).
            return Err(SpaceError::invalid(
                "Discrete",
                format!("n = {n} does not fit in i64, as Gymnasium stores it"),
            ));
        }
        let last = i128::from(start) + i128::from(n) - 1;
        if last > i128::from(i64::MAX) {
            return Err(SpaceError::invalid(
                "Discrete",
                format!("start + n - 1 = {last} does not fit in i64"),
            ));
        }
        Ok(Discrete { n, start })
    }

    /// The number of elements.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The smallest element.
    pub fn start(&self) -> i64 {
        self.start
    }

    /// The position of `x` counted from `start`, if `x` is an element.
    #[inline]
    pub fn offset_of(&self, x: i64) -> Option<u64> {
        // `x - start` modulo 2^64 is the exact offset when `x >= start`; when `x < start` it
        // is at least `2^63 - start`, which the constructor's `start + n - 1 <= i64::MAX`
        // makes at least `n`. So one wrapping subtraction and one comparison decide
        // membership, without branches (a batch of actions is checked in vector
        // instructions).
        let offset = x.wrapping_sub(self.start) as u64;
        (offset < self.n).then_some(offset)
    }

    /// The element at position `offset` counted from `start`, if `offset < n`.
    #[inline]
    pub fn element_at_offset(&self, offset: u64) -> Option<i64> {
        (offset < self.n).then(|| {
            // Cannot overflow: the constructor checked start + n - 1 <= i64::MAX.
            (i128::from(self.start) + i128::from(offset)) as i64
        })
    }

    /// Draws uniformly among the elements whose mask entry is `true` (Gymnasium's
    /// `sample(mask=...)`).
    ///
    /// Returns `Ok(None)` when the mask allows no element, and an error when the mask's length
    /// is not `n`.
    pub fn sample_masked<R: Rng + ?Sized>(
        &self,
        mask: &[bool],
        rng: &mut R,
    ) -> Result<Option<i64>, SpaceError> {
        self.check_len("mask", mask.len())?;
        let allowed = mask.iter().filter(|m| **m).count();
        if allowed == 0 {
            return Ok(None);
        }
        let pick = rng.random_range(0..allowed);
        let offset = mask
            .iter()
            .enumerate()
            .filter(|(_, m)| **m)
            .nth(pick)
            .map(|(i, _)| i as u64);
        Ok(offset.and_then(|o| self.element_at_offset(o)))
    }

    /// Draws an element with probability proportional to `weights[x - start]` (Gymnasium's
    /// `sample(probability=...)`; the weights need not sum to one).
    ///
    /// Returns `Ok(None)` when every weight is zero, and an error when the length is not `n`
    /// or a weight is negative, NaN or infinite.
    pub fn sample_weighted<R: Rng + ?Sized>(
        &self,
        weights: &[f64],
        rng: &mut R,
    ) -> Result<Option<i64>, SpaceError> {
        self.check_len("weights", weights.len())?;
        if let Some((i, w)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !w.is_finite() || **w < 0.0)
        {
            return Err(SpaceError::InvalidDistribution {
                reason: format!("weight {i} is {w}; weights must be finite and non-negative"),
            });
        }
        let total: f64 = weights.iter().sum();
        if total == 0.0 {
            return Ok(None);
        }
        if !total.is_finite() {
            return Err(SpaceError::InvalidDistribution {
                reason: "the weights sum to infinity".to_owned(),
            });
        }
        let target = rng.random::<f64>() * total;
        let mut cumulative = 0.0;
        let mut chosen = None;
        for (i, w) in weights.iter().enumerate() {
            if *w > 0.0 {
                chosen = Some(i);
                cumulative += w;
                if target < cumulative {
                    break;
                }
            }
        }
        Ok(chosen.and_then(|i| self.element_at_offset(i as u64)))
    }

    /// Whether it has at most [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) values: few enough to
    /// flatten into a one-hot vector and to enumerate.
    fn is_small(&self) -> bool {
        self.n <= crate::MAX_FLAT_LEN as u64
    }

    /// The error of flattening a Discrete of more than `MAX_FLAT_LEN` values.
    fn too_large_to_flatten(&self) -> SpaceError {
        SpaceError::flat(format!(
            "{self} cannot be flattened: its one-hot vector would have {} entries, more than \
             rl_spaces::MAX_FLAT_LEN = {}",
            self.n,
            crate::MAX_FLAT_LEN
        ))
    }

    fn check_len(&self, what: &'static str, found: usize) -> Result<(), SpaceError> {
        if u64::try_from(found).ok() != Some(self.n) {
            return Err(SpaceError::LengthMismatch {
                what,
                expected: usize::try_from(self.n).unwrap_or(usize::MAX),
                found,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Discrete {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == 0 {
            write!(f, "Discrete({})", self.n)
        } else {
            write!(f, "Discrete({}, start={})", self.n, self.start)
        }
    }
}

impl Space for Discrete {
    type Element = i64;

    #[inline]
    fn contains(&self, x: &i64) -> bool {
        self.offset_of(*x).is_some()
    }

    fn first_outside(&self, xs: &[i64]) -> Option<usize> {
        // An element's offset `x - start` (modulo 2^64) is in range when it is below `n`. With
        // `n <= 2^63`, that holds exactly when neither the offset nor `(n - 1) - offset`
        // (modulo 2^64) has its top bit set: an offset of at least 2^63 sets the first, and an
        // offset from `n` to 2^63 - 1 makes the second wrap around to at least 2^63. OR-ing
        // both over the batch takes only subtractions and ORs, which the compiler turns into
        // vector instructions on every x86-64 (SSE2 has no 64-bit comparison), so a valid
        // batch is checked faster than with one comparison per element; only a batch with an
        // element outside looks for it.
        if self.n <= 1 << 63 {
            let (start, last) = (self.start, self.n - 1);
            let bits = xs.iter().fold(0u64, |bits, x| {
                let offset = x.wrapping_sub(start) as u64;
                bits | offset | last.wrapping_sub(offset)
            });
            if bits >> 63 == 0 {
                return None;
            }
        }
        xs.iter().position(|x| !self.contains(x))
    }
}

impl SampleSpace for Discrete {
    #[inline]
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        let offset = rng.random_range(0..self.n);
        (i128::from(self.start) + i128::from(offset)) as i64
    }
}

impl FiniteSpace for Discrete {
    /// `n`, or `None` above [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) values (too many to
    /// enumerate: a consumer would allocate per element).
    fn cardinality(&self) -> Option<usize> {
        self.is_small()
            .then(|| usize::try_from(self.n).ok())
            .flatten()
    }

    fn element_at(&self, index: usize) -> Option<i64> {
        self.element_at_offset(u64::try_from(index).ok()?)
    }

    fn index_of(&self, x: &i64) -> Option<usize> {
        self.offset_of(*x).and_then(|o| usize::try_from(o).ok())
    }
}

impl FlattenSpace for Discrete {
    /// False above [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) values.
    fn is_flattenable(&self) -> bool {
        self.is_small()
    }

    /// `n` (the one-hot vector's length), or 0 when it is not flattenable.
    fn flat_dim(&self) -> usize {
        if self.is_small() {
            usize::try_from(self.n).unwrap_or(0)
        } else {
            0
        }
    }

    fn flatten_into<F: FlatScalar>(&self, x: &i64, out: &mut [F]) -> Result<(), SpaceError> {
        if !self.is_small() {
            return Err(self.too_large_to_flatten());
        }
        self.check_len("flat buffer", out.len())?;
        let offset = self
            .index_of(x)
            .ok_or_else(|| SpaceError::not_in_space(x, self))?;
        out.fill(F::ZERO);
        out[offset] = F::ONE;
        Ok(())
    }

    fn batched_dim(&self) -> usize {
        1
    }

    fn batched_into<F: FlatScalar>(&self, x: &i64, out: &mut [F]) -> Result<(), SpaceError> {
        let offset = self
            .index_of(x)
            .ok_or_else(|| SpaceError::not_in_space(x, self))?;
        match out {
            // The index is below n, at most MAX_FLAT_LEN (2^24): exact in f32.
            [entry] => *entry = F::from_f64(offset as f64),
            _ => {
                return Err(SpaceError::LengthMismatch {
                    what: "batched row",
                    expected: 1,
                    found: out.len(),
                });
            }
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<i64, SpaceError> {
        if !self.is_small() {
            return Err(self.too_large_to_flatten());
        }
        self.check_len("flat buffer", flat.len())?;
        one_hot_position(flat).and_then(|i| {
            self.element_at(i)
                .ok_or_else(|| SpaceError::flat("one-hot position out of range"))
        })
    }
}

/// The position of the single one in a one-hot block; an error unless every other entry is zero.
pub(crate) fn one_hot_position<F: FlatScalar>(block: &[F]) -> Result<usize, SpaceError> {
    let mut position = None;
    for (i, v) in block.iter().enumerate() {
        if *v == F::ONE && position.is_none() {
            position = Some(i);
        } else if *v != F::ZERO {
            return Err(SpaceError::flat(format!(
                "a one-hot block must hold a single 1 and zeros elsewhere, found {v:?} at position {i}"
            )));
        }
    }
    position.ok_or_else(|| SpaceError::flat("a one-hot block holds no 1"))
}

impl JsonSpace for Discrete {
    fn element_to_json(&self, x: &i64) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        Ok(Value::from(*x))
    }

    fn element_from_json(&self, value: &Value) -> Result<i64, SpaceError> {
        let x = value.as_i64().ok_or_else(|| {
            SpaceError::json(format!("expected an integer, found {}", describe(value)))
        })?;
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

    /// Spaces at the edges of what the constructor accepts (`n` of 1 and of the limit
    /// `MAX_FLAT_LEN`, starts at both ends of `i64`).
    fn extreme_spaces() -> Vec<Discrete> {
        let max = crate::MAX_FLAT_LEN as u64;
        vec![
            Discrete::new(1).unwrap(),
            Discrete::new(2).unwrap(),
            Discrete::new(3).unwrap(),
            Discrete::with_start(5, -2).unwrap(),
            Discrete::with_start(1, i64::MAX).unwrap(),
            Discrete::with_start(1, i64::MIN).unwrap(),
            Discrete::with_start(max, i64::MIN).unwrap(),
            Discrete::with_start(max, 0).unwrap(),
            Discrete::with_start(max, -(max as i64) / 2).unwrap(),
            Discrete::with_start(max, i64::MAX - (max as i64 - 1)).unwrap(),
            Discrete::with_start(10, i64::MAX - 9).unwrap(),
        ]
    }

    /// Values around 0 and at both ends of `i64`.
    fn extreme_values() -> [i64; 12] {
        [
            i64::MIN,
            i64::MIN + 1,
            -3,
            -2,
            -1,
            0,
            1,
            2,
            3,
            4,
            i64::MAX - 1,
            i64::MAX,
        ]
    }

    #[test]
    fn constructor_validates() {
        assert!(Discrete::new(0).is_err());
        assert!(Discrete::with_start(2, i64::MAX).is_err());
        assert!(Discrete::with_start(1, i64::MAX).is_ok());
        assert!(Discrete::new(crate::MAX_FLAT_LEN as u64).is_ok());
        assert_eq!(
            Discrete::with_start(4, -3).unwrap().to_string(),
            "Discrete(4, start=-3)"
        );
    }

    #[test]
    fn offsets_agree_with_exact_arithmetic_at_the_extremes() {
        let exact = |space: &Discrete, x: i64| {
            let offset = i128::from(x) - i128::from(space.start());
            u64::try_from(offset).ok().filter(|o| *o < space.n())
        };
        let (spaces, values) = (extreme_spaces(), extreme_values());
        for space in &spaces {
            for value in values
                .iter()
                .copied()
                .chain([space.start(), space.start().wrapping_sub(1)])
            {
                assert_eq!(
                    space.offset_of(value),
                    exact(space, value),
                    "{space:?} {value}"
                );
            }
        }
    }

    #[test]
    fn batch_membership_agrees_with_one_element_at_a_time() {
        let (spaces, values) = (extreme_spaces(), extreme_values());
        for space in &spaces {
            let inside = space.start();
            let edges = [
                space.start().wrapping_sub(1),
                space.start().wrapping_add(space.n() as i64),
            ];
            for value in values.iter().copied().chain(edges) {
                // The value alone, and at the end of a batch of elements of the space.
                let batch = [inside, inside, value];
                let expected = |xs: &[i64]| xs.iter().position(|x| !space.contains(x));
                assert_eq!(
                    space.first_outside(&batch),
                    expected(&batch),
                    "{space:?} {value}"
                );
                assert_eq!(
                    space.first_outside(&[value]),
                    expected(&[value]),
                    "{space:?} {value}"
                );
            }
            assert_eq!(space.first_outside(&[]), None);
        }
    }

    #[test]
    fn membership_respects_start() {
        let space = Discrete::with_start(3, 10).unwrap();
        assert!(!space.contains(&9));
        assert!(space.contains(&10));
        assert!(space.contains(&12));
        assert!(!space.contains(&13));
    }

    #[test]
    fn masked_sampling_only_draws_allowed_elements() {
        let space = Discrete::with_start(5, -2).unwrap();
        let mut rng = Pcg64::seed_from_u64(3);
        let mask = [false, true, false, false, true];
        for _ in 0..200 {
            let x = space.sample_masked(&mask, &mut rng).unwrap();
            assert!(matches!(x, Some(-1) | Some(2)), "{x:?}");
        }
        assert_eq!(space.sample_masked(&[false; 5], &mut rng).unwrap(), None);
        assert!(matches!(
            space.sample_masked(&[true; 3], &mut rng),
            Err(SpaceError::LengthMismatch {
                expected: 5,
                found: 3,
                ..
            })
        ));
    }

    #[test]
    fn weighted_sampling_never_draws_zero_weights() {
        let space = Discrete::new(4).unwrap();
        let mut rng = Pcg64::seed_from_u64(5);
        let mut counts = [0usize; 4];
        for _ in 0..4000 {
            let x = space
                .sample_weighted(&[0.0, 3.0, 0.0, 1.0], &mut rng)
                .unwrap()
                .unwrap();
            counts[x as usize] += 1;
        }
        assert_eq!(counts[0] + counts[2], 0);
        assert!(counts[1] > 2 * counts[3], "{counts:?}");
        assert_eq!(space.sample_weighted(&[0.0; 4], &mut rng).unwrap(), None);
        assert!(
            space
                .sample_weighted(&[1.0, -1.0, 0.0, 0.0], &mut rng)
                .is_err()
        );
        assert!(
            space
                .sample_weighted(&[1.0, f64::NAN, 0.0, 0.0], &mut rng)
                .is_err()
        );
    }

    #[test]
    fn flatten_is_one_hot_relative_to_start() {
        let space = Discrete::with_start(4, -3).unwrap();
        let flat: Vec<f64> = space.flatten(&-2).unwrap();
        assert_eq!(flat, vec![0.0, 1.0, 0.0, 0.0]);
        assert_eq!(space.unflatten(&flat).unwrap(), -2);
        assert!(space.unflatten(&[1.0, 1.0, 0.0, 0.0]).is_err());
        assert!(space.unflatten(&[0.0f32; 4]).is_err());
        assert!(space.flatten::<f64>(&5).is_err());
    }
}
