//! [`SingleValueDistribution`]: the distribution that always gives one value.

use rand::Rng;

use super::Distribution;

/// The distribution that always gives the same value (scikit-decide's
/// `SingleValueDistribution`), for deterministic outcomes.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{Distribution, SingleValueDistribution};
///
/// let d = SingleValueDistribution::new("goal");
/// assert_eq!(d.sample(&mut rand_pcg::Pcg64::seed_from_u64(0)), "goal");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SingleValueDistribution<T> {
    value: T,
}

impl<T> SingleValueDistribution<T> {
    /// The distribution of `value`.
    pub fn new(value: T) -> Self {
        SingleValueDistribution { value }
    }

    /// The value.
    pub fn value(&self) -> &T {
        &self.value
    }
}

impl<T: Clone> Distribution<T> for SingleValueDistribution<T> {
    fn sample<R: Rng + ?Sized>(&self, _rng: &mut R) -> T {
        self.value.clone()
    }
}

impl<T: Clone> rand::distr::Distribution<T> for SingleValueDistribution<T> {
    fn sample<R: Rng + ?Sized>(&self, _rng: &mut R) -> T {
        self.value.clone()
    }
}
