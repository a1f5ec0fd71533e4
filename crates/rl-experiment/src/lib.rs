//! Experiments: the episode runner, agents, RLPy-style experiments with results on disk and
//! learning curves, and the `rl` command line.
//!
//! - Functions first: [`run_episode`] and [`run_episodes`] run any [`Environment`](rl_core::Environment)
//!   with any [`Policy`] and give [`EpisodeRecord`]s.
//! - [`agent`]: domain-agnostic agents (random, tabular Q-learning and SARSA, linear
//!   Q-learning and SARSA on tile coding) built by name with JSON parameters, and exact
//!   [`value_iteration`](agent::value_iteration), and the BabyAI levels' expert, minigrid's bot
//!   ([`agent::BabyAiBotAgent`], `--agent bot`), which plays from the environment's state
//!   ([`Agent::act_on_state`](agent::Agent::act_on_state)). Your own [`Agent`](agent::Agent), registered by
//!   name with [`register_agent`](agent::register_agent), runs through everything below exactly
//!   as a built-in does.
//! - [`run_once`] (or [`run_once_with_agent`], which also gives back the trained agent) runs
//!   one RLPy-style experiment run (a step budget, evenly spaced policy
//!   checks on a separate evaluation environment with exploration off, deer-style
//!   [`Controller`] hooks); [`run_experiment`] runs many in parallel into an output directory,
//!   atomically, durably and resumably ([`results`]), one experiment per directory at a time
//!   ([`lock`]), with a summary CSV and an SVG learning curve
//!   ([`plot`]); [`plot::overlay_directories`] (the `rl plot DIR... --out FILE.svg` command)
//!   overlays the curves of several result directories to compare agents or settings.
//! - [`sweep`]: grids of settings from one sweep file, run by one process or sharded over an
//!   array job's tasks (Slurm, Kubernetes), into one results tree identical to one process's.
//! - [`seeds`] documents how every random stream derives from one master seed.
//!
//! # Quick start
//!
//! ```
//! use rl_core::corridor::Corridor;
//! use rl_core::{DynamicEnvironment, Simulator};
//! use rl_experiment::{run_once, ExperimentConfig};
//!
//! // Q-learning on a slippery corridor: 3 000 steps, checked 5 times.
//! let config = ExperimentConfig { num_policy_checks: 5, ..ExperimentConfig::new("corridor", "q-learning", 3_000) };
//! let make_env = || Ok(DynamicEnvironment::new(Simulator::new(Corridor::new(6, 0.1)?, 0)).boxed());
//! let result = run_once(&config, 0, &make_env, &mut [], &|| false, &|_| {})?;
//! let (first, last) = (&result.checks[0], &result.checks[5]);
//! assert!(last.episode_return > first.episode_return, "the agent learned to walk right");
//! # Ok::<(), rl_experiment::ExperimentError>(())
//! ```

pub mod agent;
pub mod builtins;
pub mod catalog;
pub mod cli;
mod continuous_actions;
pub mod criterion;
mod episode;
mod error;
mod experiment;
pub mod lock;
pub mod plot;
mod progress;
pub mod results;
mod runs;
pub mod seeds;
pub mod sweep;
pub mod video;

pub use episode::{ConstraintViolations, EpisodeRecord, Policy, run_episode, run_episodes};
pub use error::ExperimentError;
pub use experiment::{
    CHECKS_PER_POLICY_LIMIT, CheckRecord, Controller, ExperimentConfig, LogController,
    MAX_STEPS_LIMIT, POLICY_CHECKS_LIMIT, RUN_FORMAT, RUNS_LIMIT, RunResult, StateValues,
    TrainingEpisode, run_once, run_once_with_agent,
};
pub use progress::TerminalProgress;
pub use runs::{ExperimentOutcome, Progress, Silent, run_experiment};
