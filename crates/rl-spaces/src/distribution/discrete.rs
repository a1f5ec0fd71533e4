//! [`DiscreteDistribution`]: finitely many values with weights, normalised on construction.

use rand::{Rng, RngExt};

use super::Distribution;
use crate::SpaceError;

/// A distribution over finitely many values, each with a probability (scikit-decide's
/// `DiscreteDistribution`).
///
/// Weights are normalised on construction, so they need not sum to one; the normalised
/// pairs can be read back. Values with weight zero are kept (and never drawn). Values are not
/// merged: a value listed twice has two entries, and
/// [`probability_of`](Self::probability_of) adds them up.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{DiscreteDistribution, Distribution};
///
/// let d = DiscreteDistribution::new(vec![("left", 1.0), ("right", 3.0)])?;
/// assert_eq!(d.probability_of(&"right"), 0.75);
/// let side = d.sample(&mut rand_pcg::Pcg64::seed_from_u64(0));
/// assert!(side == "left" || side == "right");
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DiscreteDistribution<T> {
    values: Vec<T>,
    probabilities: Vec<f64>,
    /// Running sums of the weights as given (not normalised), so sampling needs no division.
    cumulative: Vec<f64>,
}

impl<T> DiscreteDistribution<T> {
    /// The distribution giving each value with probability proportional to its weight.
    ///
    /// Errors if there is no value, a weight is negative, NaN or infinite, or all weights are
    /// zero.
    pub fn new(pairs: impl IntoIterator<Item = (T, f64)>) -> Result<Self, SpaceError> {
        let (values, weights): (Vec<T>, Vec<f64>) = pairs.into_iter().unzip();
        if values.is_empty() {
            return Err(SpaceError::InvalidDistribution {
                reason: "no values".to_owned(),
            });
        }
        if let Some((i, w)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !w.is_finite() || **w < 0.0)
        {
            return Err(SpaceError::InvalidDistribution {
                reason: format!("weight {i} is {w}; weights must be finite and non-negative"),
            });
        }
        let mut cumulative = Vec::with_capacity(weights.len());
        let mut total = 0.0;
        for w in &weights {
            total += w;
            cumulative.push(total);
        }
        if total == 0.0 {
            return Err(SpaceError::InvalidDistribution {
                reason: "all weights are zero".to_owned(),
            });
        }
        if !total.is_finite() {
            return Err(SpaceError::InvalidDistribution {
                reason: "the weights sum to infinity".to_owned(),
            });
        }
        let probabilities = weights.iter().map(|w| w / total).collect();
        Ok(DiscreteDistribution {
            values,
            probabilities,
            cumulative,
        })
    }

    /// The values and their normalised probabilities, in the order given.
    pub fn pairs(&self) -> impl Iterator<Item = (&T, f64)> {
        self.values.iter().zip(self.probabilities.iter().copied())
    }

    /// The values, in the order given.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The normalised probabilities, in the order given (they sum to one up to rounding).
    pub fn probabilities(&self) -> &[f64] {
        &self.probabilities
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Always false: a distribution has at least one value.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The total probability of `value` (the sum over every entry equal to it).
    pub fn probability_of(&self, value: &T) -> f64
    where
        T: PartialEq,
    {
        self.pairs()
            .filter(|(v, _)| *v == value)
            .map(|(_, p)| p)
            .sum()
    }

    /// The index of the entry drawn by the generator.
    pub fn sample_index<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let target = rng.random::<f64>() * total;
        // The first entry whose running sum exceeds the target; entries of weight zero have the
        // same running sum as the entry before them, so they are never chosen.
        let i = self.cumulative.partition_point(|c| *c <= target);
        // Rounding can put the target at the very top; take the last entry of positive weight.
        i.min(self.last_positive())
    }

    fn last_positive(&self) -> usize {
        self.probabilities
            .iter()
            .rposition(|p| *p > 0.0)
            .unwrap_or(0)
    }
}

impl<T: Clone> Distribution<T> for DiscreteDistribution<T> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> T {
        self.values[self.sample_index(rng)].clone()
    }
}

impl<T: Clone> rand::distr::Distribution<T> for DiscreteDistribution<T> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> T {
        self.values[self.sample_index(rng)].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    #[test]
    fn weights_are_validated() {
        assert!(DiscreteDistribution::<i32>::new(vec![]).is_err());
        assert!(DiscreteDistribution::new(vec![(1, -0.5), (2, 1.0)]).is_err());
        assert!(DiscreteDistribution::new(vec![(1, f64::NAN)]).is_err());
        assert!(DiscreteDistribution::new(vec![(1, f64::INFINITY)]).is_err());
        assert!(DiscreteDistribution::new(vec![(1, 0.0), (2, 0.0)]).is_err());
        assert!(DiscreteDistribution::new(vec![(1, f64::MAX), (2, f64::MAX)]).is_err());
    }

    #[test]
    fn weights_are_normalised_and_readable() {
        let d = DiscreteDistribution::new(vec![('a', 2.0), ('b', 0.0), ('a', 6.0)]).unwrap();
        assert_eq!(d.probabilities(), &[0.25, 0.0, 0.75]);
        assert_eq!(d.probability_of(&'a'), 1.0);
        assert_eq!(d.probability_of(&'b'), 0.0);
    }

    #[test]
    fn zero_weights_are_never_drawn() {
        let d = DiscreteDistribution::new(vec![(0, 0.0), (1, 1.0), (2, 0.0), (3, 1.0), (4, 0.0)])
            .unwrap();
        let mut rng = Pcg64::seed_from_u64(9);
        for _ in 0..10_000 {
            let x = d.sample(&mut rng);
            assert!(x == 1 || x == 3, "{x}");
        }
    }
}
