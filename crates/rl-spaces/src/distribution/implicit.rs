//! [`ImplicitDistribution`]: a distribution given by a sampling closure.

use std::fmt;
use std::marker::PhantomData;

use rand::Rng;

use super::Distribution;

/// A distribution defined by a closure that draws from a generator (scikit-decide's
/// `ImplicitDistribution`).
///
/// The closure receives the generator as `&mut dyn Rng`, so it can be stored without a type
/// parameter for the generator.
///
/// ```
/// use rand::{RngExt, SeedableRng};
/// use rl_spaces::{Distribution, ImplicitDistribution};
///
/// let dice_sum = ImplicitDistribution::new(|rng: &mut dyn rand::Rng| {
///     rng.random_range(1..=6) + rng.random_range(1..=6)
/// });
/// let x: i32 = dice_sum.sample(&mut rand_pcg::Pcg64::seed_from_u64(1));
/// assert!((2..=12).contains(&x));
/// ```
pub struct ImplicitDistribution<T, F> {
    sampler: F,
    value: PhantomData<fn() -> T>,
}

impl<T, F: Fn(&mut dyn Rng) -> T> ImplicitDistribution<T, F> {
    /// The distribution of `sampler`'s results.
    pub fn new(sampler: F) -> Self {
        ImplicitDistribution {
            sampler,
            value: PhantomData,
        }
    }

    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> T {
        // `&mut R` is itself a sized generator, so it can be passed as a trait object even
        // when `R` is not sized.
        let mut rng = rng;
        (self.sampler)(&mut rng)
    }
}

impl<T, F: Clone> Clone for ImplicitDistribution<T, F> {
    fn clone(&self) -> Self {
        ImplicitDistribution {
            sampler: self.sampler.clone(),
            value: PhantomData,
        }
    }
}

impl<T, F> fmt::Debug for ImplicitDistribution<T, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImplicitDistribution")
            .finish_non_exhaustive()
    }
}

impl<T, F: Fn(&mut dyn Rng) -> T> Distribution<T> for ImplicitDistribution<T, F> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> T {
        self.draw(rng)
    }
}

impl<T, F: Fn(&mut dyn Rng) -> T> rand::distr::Distribution<T> for ImplicitDistribution<T, F> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> T {
        self.draw(rng)
    }
}
