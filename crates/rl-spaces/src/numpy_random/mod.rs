//! numpy's random generator and sampling algorithms, bit for bit: the generator every
//! environment and seeded space of the workspace draws from, so that the same seed gives
//! Gymnasium's numbers.
//!
//! - [`SeedSequence`] and [`NumpyGenerator`]: `Generator(PCG64(SeedSequence(seed)))`, which is
//!   what Gymnasium's `reset(seed=seed)` and `space.seed(seed)` make.
//! - The functions of this module are numpy's algorithms over any [`rand::Rng`]
//!   ([`random`], [`uniform`], [`integers`], [`choice`], [`choice_weighted`], [`shuffle`],
//!   [`interval`], [`bounded_u64`]): with a [`NumpyGenerator`] they draw what numpy draws, in
//!   the same calls; with another generator they are ordinary, correct samplers.
//!   [`int8_bits`] is `integers(0, 2, size=n, dtype=int8)` (MultiBinary), [`geometric`] numpy's
//!   geometric draw.
//! - One gap remains: numpy draws [`standard_exponential`] and [`standard_normal`] with a
//!   ziggurat whose tables this crate does not hold yet, so those two functions (and the
//!   geometric draws below `p = 1/3`, which use the exponential) are ordinary samplers, not
//!   numpy's draws.
//!
//! `testdata/reference/numpy_generator.json` records numpy 2.4.6's results for every function
//! here from 14 seeds (up to `2^64 - 1`); the crate's test `numpy_generator` replays it, and
//! the Python package's tests compare against numpy itself.
//!
//! ```
//! use rl_spaces::NumpyGenerator;
//! use rl_spaces::numpy_random::{choice_weighted, shuffle, uniform};
//! use rand::SeedableRng;
//!
//! // Gymnasium's CartPole-v1 after reset(seed=42): uniform(-0.05, 0.05, size=4).
//! let mut rng = NumpyGenerator::seed_from_u64(42);
//! let state: [f64; 4] = std::array::from_fn(|_| uniform(&mut rng, -0.05, 0.05));
//! assert!(state.iter().all(|x| (-0.05..0.05).contains(x)));
//!
//! let mut cards = [1, 2, 3, 4, 5];
//! shuffle(&mut rng, &mut cards);
//! let index = choice_weighted(&mut rng, &[0.2, 0.8]).expect("valid probabilities");
//! assert!(index < 2);
//! ```

mod draws;
mod generator;
mod seed_sequence;

pub use draws::{
    bounded_u64, choice, choice_weighted, geometric, int8_bits, integers, interval, random,
    shuffle, standard_exponential, standard_normal, uniform,
};
pub use generator::NumpyGenerator;
pub use seed_sequence::SeedSequence;
