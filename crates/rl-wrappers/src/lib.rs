//! Wrappers around environments: numeric representations (outer environments), history
//! stacking, modes, time limits, action encodings, normalisation, episode statistics, and
//! vectorised stepping.
//!
//! Every wrapper is a generic struct that owns the environment it wraps (`inner()`,
//! `inner_mut()`, `into_inner()`) and implements [`rl_core::Environment`] itself, so wrappers
//! compose by nesting. Nothing is forwarded by magic: a wrapper exposes what it adds, and the
//! inner environment is one call away.
//!
//! | module or item | what it holds |
//! |---|---|
//! | [`OuterEnvironment`], [`representation`] | typed observations (and states) turned into named numeric arrays and a flat vector, [`NumericObservation`] in a [`NumericSpace`] (gym-gridverse's outer environments) |
//! | [`stateless`] | transforms without memory: reward scaling and clipping, one-hot and continuous action encodings, flattening and casting observations |
//! | [`stateful`] | wrappers with memory: [`TimeLimit`](stateful::TimeLimit), [`HistoryStack`](stateful::HistoryStack) (deer's `inputDimensions`), normalisation, episode statistics, modes, sticky actions |
//! | [`vector`] | many environments in lockstep in structure-of-arrays buffers, from copies or from a domain's states (stepped by its step or its kernel), on one or more threads |
//! | [`derive_seed`] | rl-core's rule that turns one seed into many, re-exported (the sticky-action wrapper's own generator uses it; vectors seed environment `i` with `seed + i`) |
//!
//! # Quick start
//!
//! Stack the last 4 observations of an environment, through an outer environment, into one
//! flat `f32` vector for a neural network:
//!
//! ```
//! use std::num::{NonZeroU64, NonZeroUsize};
//! use rl_core::corridor::{Corridor, RIGHT};
//! use rl_core::{Environment, Mode, Simulator};
//! use rl_wrappers::OuterEnvironment;
//! use rl_wrappers::stateful::{EpisodeStatistics, HistoryStack, Padding, TimeLimit};
//!
//! // A corridor of 5 cells; its observation (the cell) becomes a one-hot vector of 5 numbers.
//! let simulator = Simulator::new(Corridor::new(5, 0.1)?, 42);
//! let outer = OuterEnvironment::<_, _, f32>::identity(simulator)?;
//! // The last 4 observations, newest last, padded with zeros at the start of an episode.
//! let four = NonZeroUsize::new(4).expect("non-zero");
//! let stacked = HistoryStack::uniform(outer, four, Padding::Zeros)?;
//! let limited = TimeLimit::new(stacked, NonZeroU64::new(50).expect("non-zero"));
//! let mut env = EpisodeStatistics::new(limited);
//!
//! let first = env.reset(Mode::Training)?;
//! let input: &[f32] = first.as_slice();
//! assert_eq!(input.len(), 4 * 5);
//! assert_eq!(input[15..], [1.0, 0.0, 0.0, 0.0, 0.0], "the first cell, newest last");
//! assert_eq!(first.get("observation").map(|a| a.shape().to_vec()), Some(vec![4, 5]));
//!
//! loop {
//!     let outcome = env.step(&RIGHT)?;
//!     assert!(env.observation_space().layout().contains_flat(outcome.observation.as_slice()));
//!     if outcome.is_done() {
//!         break;
//!     }
//! }
//! assert_eq!(env.episode_count(), 1);
//! # Ok::<(), rl_core::CoreError>(())
//! ```
//!
//! And step many copies at once, results in arrays:
//!
//! ```
//! use std::num::NonZeroUsize;
//! use rl_core::corridor::{Corridor, RIGHT};
//! use rl_core::{Mode, Simulator};
//! use rl_wrappers::vector::{Autoreset, EnvironmentVector, VectorOptions};
//!
//! let corridor = Corridor::new(5, 0.1)?;
//! let options = VectorOptions::new()
//!     .with_autoreset(Autoreset::SameStep)
//!     .with_threads(NonZeroUsize::new(2).expect("non-zero"));
//! let count = NonZeroUsize::new(64).expect("non-zero");
//! // Environment i is seeded with 7 + i, as Gymnasium's vectors seed theirs.
//! let mut vector = EnvironmentVector::<_, f32>::from_environments(count, 7, options, |_| {
//!     Simulator::new(corridor.clone(), 0)
//! })?;
//! vector.reset(Mode::Training)?;
//! for _ in 0..10 {
//!     vector.step(&[RIGHT; 64])?;
//! }
//! assert_eq!(vector.observations().shape(), &[64, 5]);
//! assert_eq!(vector.rewards().len(), 64);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Numeric data without allocation
//!
//! Numeric observations are shared, immutable buffers. A wrapper writes each new observation
//! into one of a few buffers it keeps that no caller holds any more, so a loop that keeps the
//! previous and the current observation allocates nothing per step (the counting-allocator
//! tests check the history stack, a tall stack of wrappers and vectors of 1024
//! environments on one and two threads).
//!
//! # Termination, truncation and their tie
//!
//! Truncation comes only from time limits ([`TimeLimit`](stateful::TimeLimit) or a domain's
//! episode cap). When a step both terminates and reaches the limit, both flags are `true`,
//! as in Gymnasium, and termination wins: learners must not bootstrap from that state
//! ([`StepOutcome::should_bootstrap`](rl_core::StepOutcome::should_bootstrap)).
//!
//! # Modes
//!
//! A reset takes a [`Mode`](rl_core::Mode), held until the next reset. Wrappers act on it:
//! normalisation statistics are frozen while evaluating, sticky actions and other parameters
//! are chosen by mode ([`ByMode`](stateful::ByMode), [`ModeSwitch`](stateful::ModeSwitch)).
//!
//! # Determinism
//!
//! The same seed and actions give the same results bit for bit, with any number of threads.
//! Randomness comes only from numpy's generators (`rl_core::NumpyGenerator`) seeded by the
//! documented rules: environment `i` of a vector with `seed + i`, a sticky-action wrapper with
//! [`derive_seed`]`(seed, 0)`. The one clock read is the wall time of
//! [`EpisodeStatistics`](stateful::EpisodeStatistics), which nothing else depends on.
//!
//! # Errors
//!
//! Wrappers are environments, so they report [`rl_core::CoreError`] (the error of the
//! [`Environment`](rl_core::Environment) trait): constructors with
//! [`CoreError::InvalidParameter`](rl_core::CoreError::InvalidParameter), steps with the
//! usual `InvalidAction` and `NeedsReset`. Vectors, which are not environments,
//! report [`VectorError`], which adds the index of the environment at fault. Nothing panics on
//! bad input.

mod arithmetic;
mod error;
mod forward;
mod numeric;
mod outer;
pub mod pictures;
pub mod representation;
pub mod stateful;
pub mod stateless;
pub mod vector;

pub use error::VectorError;
pub use numeric::{
    Component, DEFAULT_NAME, MAX_ONE_HOT, NumericForm, NumericLayout, NumericObservation,
    NumericSpace, NumericView,
};
pub use outer::{ExposeState, OuterEnvironment};
pub use representation::{Flatten, Identity, OneHot, Representation, ScaleRange, Scaled};
/// The workspace's seed-derivation rule, re-exported from rl-core where it is defined.
pub use rl_core::derive_seed;
