//! Distributions in rand's idiom: immutable values sampled with a generator passed in.
//!
//! [`Distribution`] is this crate's trait; each distribution also implements
//! [`rand::distr::Distribution`], so it works with `rng.sample(&d)` and `sample_iter`.

mod discrete;
mod implicit;
mod single_value;

pub use discrete::DiscreteDistribution;
pub use implicit::ImplicitDistribution;
pub use single_value::SingleValueDistribution;

use rand::Rng;

/// A probability distribution over values of type `T` (scikit-decide's `Distribution`).
///
/// Sampling is a pure function of the distribution and the generator's state.
pub trait Distribution<T> {
    /// Draws a value.
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> T;
}
