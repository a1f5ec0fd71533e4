//! The model and the episode: the [`Domain`] and [`Environment`] traits, the [`Simulator`]
//! that runs a domain's episodes, values, outcomes, modes, constraints, and a conformance
//! checker that domain authors run on their own domains.
//!
//! | item | role |
//! |---|---|
//! | [`Domain`] | the pure model: spaces, initial states, transitions, observations, terminal test, discount |
//! | [`Simulator`] | the stateful adapter: state, seeded generator, step count, episode cap, action checks |
//! | [`Environment`] | the stateful interface: `reset(mode)`, `step(&action)`, `seed(u64)` |
//! | [`StepOutcome`], [`TransitionOutcome`] | what a step gives back; termination and truncation kept apart |
//! | [`Value`], [`Info`], [`Mode`] | reward/cost, extra facts, training or evaluation |
//! | [`EnumerableTransitions`], [`DeterministicTransitions`], [`ConstrainedDomain`], [`Render`], [`RenderFrame`], [`BatchStep`] | optional capabilities |
//! | [`DomainStates`], [`SteppedStates`], [`BlockStep`] | batches of states: any domain's step state by state, or a structure-of-arrays kernel written as its block step |
//! | [`Frame`], [`FrameEnvironment`] | RGB frames (Gymnasium's `rgb_array`) and environments that draw them |
//! | [`check_domain`], [`check_environment`], [`check_transitions`], [`check_constraints`] | the conformance checker |
//! | [`DynamicEnvironment`], [`BoxedEnvironment`] | any environment behind dynamic spaces |
//! | [`registry`] | the table of ids: register a domain, then build it by id with JSON parameters |
//! | [`NumpyGenerator`], [`numpy_random`] | numpy's generator and algorithms, which every simulator draws from: a seed gives Gymnasium's trajectory |
//! | [`derive_seed`] | the rule deriving many seeds from one for the experiment harness's own streams |
//!
//! The guide [Writing your own domain](https://github.com/rl-rs/rl/blob/main/docs/custom-domain.md)
//! walks through writing a domain from scratch.
//!
//! # Quick start
//!
//! ```
//! use rl_core::corridor::{Corridor, RIGHT};
//! use rl_core::{check_domain, CheckConfig, Environment, Mode, Simulator};
//!
//! // A domain is a pure model; the simulator runs its episodes from one seed.
//! let domain = Corridor::new(4, 0.0)?;
//! let mut env = Simulator::new(domain.clone(), 42);
//! let mut observation = env.reset(Mode::Training)?;
//! let mut episode_return = 0.0;
//! loop {
//!     let outcome = env.step(&RIGHT)?;
//!     episode_return += outcome.reward();
//!     observation = outcome.observation;
//!     if outcome.is_done() {
//!         assert!(outcome.terminated);
//!         break;
//!     }
//! }
//! assert_eq!((observation, episode_return), (3, -3.0));
//!
//! // Stepping a finished episode is an error, never a silent reset.
//! assert!(env.step(&RIGHT).is_err());
//!
//! // Domain authors check their domain in one line.
//! assert!(check_domain(&domain, &CheckConfig::default()).is_ok());
//! # Ok::<(), rl_core::CoreError>(())
//! ```
//!
//! # Termination and truncation
//!
//! Termination (the task ended) and truncation (a time limit cut the episode) are separate
//! flags. When both happen on one step, both are reported and termination wins: see
//! [`StepOutcome`] and [`StepOutcome::should_bootstrap`].

mod batch;
mod capabilities;
mod checker;
mod constraint;
pub mod corridor;
mod documentation;
mod domain;
mod domain_states;
mod dynamic;
mod environment;
mod episode;
mod error;
mod frame;
mod info;
mod invalid;
mod kernel;
mod mode;
mod outcome;
mod parameter_names;
pub mod registry;
mod run_settings;
mod seeding;
mod simulator;
mod value;

/// The rand crate this crate's traits are written against: a domain author names
/// `rl_core::rand::Rng` and never has to match rand's version by hand.
pub use rand;
/// numpy's generator and algorithms (rl-spaces' `numpy_random`):
/// the generator every [`Simulator`] and vector draws from, so that a seed gives the
/// reference's trajectory.
pub use rl_spaces::numpy_random;
pub use rl_spaces::{NumpyGenerator, SeedSequence};

pub use batch::{
    BatchStates, BatchStep, BoxedBatchStates, ErasedAction, KernelScratch, LentParts, MAX_PARTS,
    PartStates, Parts, RunParts, SplitStates, check_batch_lengths, check_parts,
};
pub use capabilities::{
    ConstrainedDomain, DeterministicTransitions, EnumerableTransitions, Render,
};
pub use checker::{
    CheckConfig, CheckReport, Finding, Severity, check_batch_step, check_constraints, check_domain,
    check_environment, check_transitions,
};
pub use constraint::{
    BoundConstraint, BoxedConstraint, Constraint, ConstraintSet, ImplicitConstraint, Inequality,
    Memory, VIOLATIONS_INFO_KEY, Violations,
};
pub use domain::Domain;
pub use domain_states::{
    ByKernel, ByStep, DomainStates, KernelPart, Outputs, SplitStepping, StepPart, SteppedStates,
    Stepping,
};
pub use dynamic::{BoxedEnvironment, DynamicEnvironment};
pub use environment::{Environment, RandomState};
pub use error::{CoreError, ResetReason};
pub use frame::{BoxedFrameEnvironment, Frame, FrameEnvironment, MAX_FRAME_SIDE, RenderFrame};
pub use info::{Info, InfoFloats, InfoValue};
pub use invalid::InvalidExamples;
pub use kernel::{BLOCK, BlockStep, LaneResults, check_block_kernel};
pub use mode::Mode;
pub use outcome::{StepOutcome, Transition, TransitionOutcome};
pub use seeding::{Seed, derive_seed};
pub use simulator::Simulator;
pub use value::Value;
