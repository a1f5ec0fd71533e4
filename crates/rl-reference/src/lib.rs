//! Reference trace files and their replay: the recorded behaviour of Gymnasium 1.4.0's
//! CartPole-v1, MountainCar-v0, MountainCarContinuous-v0, Acrobot-v1 and Pendulum-v1 and of
//! RLPy 1.3.6's GridWorld, checked bit for bit against `rl-domains`.
//!
//! The files of the workspace's `testdata/reference/` (their `README.md` gives the schema)
//! record traces (an initial state, the actions, and every step's state, observation,
//! reward and flags) and GridWorld transition tables. [`load_reference_file`] reads one and
//! resolves its domain, variant, `make_kwargs` and `unwrapped_overrides` into the domain's
//! parameters ([`schema`]); [`replay()`] checks every recorded step or table entry, returning
//! every difference as a [`Mismatch`] ([`mod@replay`]). This is the one replay engine: the
//! tests, `rl replay` and the `replay` example all call it.
//!
//! Gymnasium traces are checked along four paths, each reported as a [`ReplayMode`]:
//!
//! | path | what steps | from |
//! |---|---|---|
//! | [`ReplayMode::PerStep`] | the domain's pure step function | each recorded `state` |
//! | [`ReplayMode::Rollout`] | the pure step function | `initial_state`, feeding its own states forward |
//! | [`ReplayMode::DomainPerStep`] | [`Domain::step`](rl_core::Domain::step) and [`Domain::observe`](rl_core::Domain::observe) | each recorded `state` |
//! | [`ReplayMode::SimulatorRollout`] | the [`Simulator`](rl_core::Simulator): `reset_to`, then the actions, with its own time limit | `initial_state` |
//!
//! States compare bit for bit (`f64::to_bits`), observations as float32 bit for bit,
//! rewards bit for bit, flags exactly. GridWorld traces are checked through RLPy's
//! functions, the domain and the simulator; GridWorld tables through RLPy's functions, the
//! domain's enumerable transitions and sampled steps, probabilities within
//! [`PROBABILITY_TOLERANCE`] as the reference README prescribes.
//!
//! # Quick start
//!
//! ```
//! use rl_domains::cartpole::{cartpole_step, CartPoleParams, CartPoleState};
//! use rl_reference::{parse_reference, replay, ReferenceError};
//!
//! // A one-step CartPole trace, written with the domain's own result.
//! let state = [0.01, 0.02, -0.03, 0.04];
//! let step = cartpole_step(&CartPoleParams::default(), &CartPoleState::from_array(state), true);
//! let next = step.next_state.to_array();
//! let obs = step.next_state.to_observation().map(f64::from);
//! let text = format!(
//!     r#"{{"schema_version": 1, "domain": "CartPole", "variant": "euler",
//!         "generator": {{"max_episode_steps": 500}},
//!         "traces": [{{"id": "example", "initial_state": {state:?}, "actions": [1],
//!           "steps": [{{"t": 0, "state": {state:?}, "action": 1, "next_state": {next:?},
//!                       "obs": {obs:?}, "reward": 1.0, "terminated": false, "truncated": false}}]}}]}}"#
//! );
//! let report = replay(&parse_reference(&text, "example.json")?);
//! assert!(report.is_match(), "{report:?}");
//! assert_eq!(report.steps_checked, 1);
//!
//! // A bad value is an error naming the file and the JSON path of the value.
//! let broken = text.replace(r#""reward": 1.0"#, r#""reward": "one""#);
//! let error = parse_reference(&broken, "example.json").unwrap_err().to_string();
//! assert!(error.contains("example.json") && error.contains("traces[0].steps[0].reward"), "{error}");
//!
//! // JSON of another kind is recognised as such.
//! let other = parse_reference(r#"{"schema_version": 1, "cases": []}"#, "spaces.json");
//! assert!(matches!(other, Err(ReferenceError::NotATrace { .. })));
//! # Ok::<(), ReferenceError>(())
//! ```

mod domain_paths;
mod error;
pub mod minigrid;
pub mod replay;
pub mod schema;
pub mod seeded;
pub mod space_samples;

pub use error::ReferenceError;
pub use replay::{
    CheckedItems, Mismatch, MismatchLocation, ReplayMode, ReplayReport, replay, replay_file,
    replay_files_report,
};
pub use schema::{
    PROBABILITY_TOLERANCE, REFERENCE_FILE_SIZE_LIMIT, ReferenceContent, ReferenceFile,
    SCHEMA_VERSION, load_reference_file, parse_reference,
};
