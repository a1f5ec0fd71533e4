//! numpy's random generator and sampling algorithms, bit for bit: the generator every
//! environment and seeded space of the workspace draws from, so that the same seed gives
//! Gymnasium's numbers.
//!
//! - [`SeedSequence`] and [`NumpyGenerator`]: `Generator(PCG64(SeedSequence(seed)))`, which is
//!   what Gymnasium's `reset(seed=seed)` and `space.seed(seed)` make.
//! - The functions of this module are numpy's algorithms over any [`rand::Rng`]
//!   ([`random`], [`uniform`], [`integers`], [`choice`], [`choice_weighted`], [`shuffle`],
//!   [`interval`], [`bounded_u64`], [`standard_normal`], [`standard_exponential`]): with a
//!   [`NumpyGenerator`] they draw what numpy draws, in the same calls; with another generator
//!   they are ordinary, correct samplers. [`int8_bits`] is `integers(0, 2, size=n,
//!   dtype=int8)` (MultiBinary), [`geometric`] numpy's geometric draw.
//! - The normal and exponential draws are numpy's 256-layer ziggurats. Their tables are
//!   computed by `ziggurat_tables.py` (next to this module; it documents how, and the two facts
//!   of numpy's normal tables that are fitted rather than derived) into `ziggurat_tables.rs`.
//!
//! `testdata/reference/numpy_generator.json` records numpy 2.4.6's results for the uniform,
//! integer, choice and shuffle functions from 14 seeds (up to `2^64 - 1`), and
//! `tests/fixtures/numpy_ziggurat.json` its normal, exponential and geometric draws (10^5 per
//! seed and distribution); the crate's tests `numpy_generator` and `numpy_ziggurat` replay
//! them, and the Python package's tests compare against numpy itself.
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
#[rustfmt::skip]
mod ziggurat_tables;

pub use draws::{
    bounded_u64, choice, choice_weighted, geometric, int8_bits, integers, interval, random,
    shuffle, standard_exponential, standard_normal, uniform,
};
pub use generator::NumpyGenerator;
pub use seed_sequence::SeedSequence;
