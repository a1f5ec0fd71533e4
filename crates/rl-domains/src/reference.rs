//! Reference trace files: their schema, loading, and replay against this crate's dynamics.
//!
//! The files of `testdata/reference/` record Gymnasium 1.4.0 and RLPy 1.3.6 behaviour
//! (their `README.md` gives the schema). [`load_reference_file`] reads one, resolves
//! its domain, variant, `make_kwargs` and `unwrapped_overrides` into this crate's
//! parameters, and [`replay`] checks every recorded step or table entry against the
//! domain functions, returning every difference as a [`Mismatch`].
//!
//! Gymnasium traces are checked twice: **per step** (from each recorded `state`) and as a
//! **rollout** (from `initial_state` through `actions`, feeding this crate's own states
//! forward). States compare bit for bit (`f64::to_bits`), observations as float32 bit
//! for bit, rewards bit for bit. GridWorld table probabilities compare within
//! [`PROBABILITY_TOLERANCE`], as the reference README prescribes.
//!
//! Reading is lenient about keys it does not use, so that files from newer generators
//! still load; what the replay needs must be present and well formed.
//!
//! ```
//! use rl_domains::cartpole::{cartpole_step, CartPoleParams, CartPoleState};
//! use rl_domains::reference::{parse_reference, replay};
//!
//! // A one-step CartPole trace, written with this crate's own result.
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
//! let report = replay(&parse_reference(&text, "example")?);
//! assert!(report.is_match());
//! assert_eq!(report.steps_checked, 1);
//! # Ok::<(), rl_domains::ReferenceError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::acrobot::{AcrobotDynamics, AcrobotParams, AcrobotState, acrobot_step, action_torque};
use crate::cartpole::{CartPoleParams, CartPoleState, Integrator, cartpole_step};
use crate::error::{Error, ReferenceError};
use crate::gridworld::{
    self, ActionSet, CellKind, GridAction, GridCell, GridMap, GridWorldParams, expected_step,
    possible_actions, step_distribution, step_with_action,
};
use crate::mountain_car::{MountainCarParams, MountainCarState, mountain_car_step};
use crate::mountain_car_continuous::{
    MountainCarContinuousParams, MountainCarContinuousState, StatePrecision,
    mountain_car_continuous_step,
};
use crate::pendulum::{PendulumParams, PendulumState, pendulum_step};

/// The reference schema version this module reads.
pub const SCHEMA_VERSION: u64 = 1;

/// The tolerance for GridWorld table probabilities, as the reference README prescribes.
pub const PROBABILITY_TOLERANCE: f64 = 1e-12;

/// The keys every reference file shares, kept as read; keys this module does not know are ignored.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Envelope {
    /// The schema version (1).
    pub schema_version: u64,
    /// `CartPole`, `MountainCar`, `MountainCarContinuous` or `GridWorld`.
    pub domain: String,
    /// The Gymnasium id, absent for GridWorld.
    #[serde(default)]
    pub env_id: Option<String>,
    /// The variant: `euler`, `semi-implicit`, `sutton_barto_reward`, `default`,
    /// `deterministic` or `transition_table`.
    pub variant: String,
    /// Keyword arguments given to `gym.make`.
    #[serde(default)]
    pub make_kwargs: Map<String, Value>,
    /// Attributes set on `env.unwrapped` after `gym.make`.
    #[serde(default)]
    pub unwrapped_overrides: Map<String, Value>,
    /// Library versions, platform, seeds and the time limit (`max_episode_steps`).
    #[serde(default)]
    pub generator: Map<String, Value>,
    /// Constants read from the reference implementation.
    #[serde(default)]
    pub constants: Map<String, Value>,
    /// `public` or `holdout`, when the file belongs to a split.
    #[serde(default)]
    pub split: Option<String>,
}

/// One step of a Gymnasium trace; `S` is the state array, `A` the action and `O` the
/// observation array (the state's shape unless the domain observes something else).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GymnasiumStep<S, A, O = S> {
    /// The 0-based step index since reset.
    pub t: usize,
    /// The internal state before the step.
    pub state: S,
    /// The array type of `state` (MountainCarContinuous only).
    #[serde(default)]
    pub state_dtype: Option<StatePrecision>,
    /// The action.
    pub action: A,
    /// The internal state after the step.
    pub next_state: S,
    /// The returned observation (float32 values stored as float64).
    pub obs: O,
    /// The reward.
    pub reward: f64,
    /// Whether the step terminated the episode.
    pub terminated: bool,
    /// Whether the time limit truncated the episode at this step.
    pub truncated: bool,
}

/// A Gymnasium trace: an episode from a recorded initial state; `S`, `A` and `O` as in
/// [`GymnasiumStep`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GymnasiumTrace<S, A, O = S> {
    /// The trace's identifier.
    pub id: String,
    /// The kind of situation the trace covers.
    #[serde(default)]
    pub category: Option<String>,
    /// What the trace does.
    #[serde(default)]
    pub description: Option<String>,
    /// How the actions were chosen (information only).
    #[serde(default)]
    pub policy: Option<String>,
    /// The state written to `env.unwrapped.state` after reset.
    pub initial_state: S,
    /// The array type of `initial_state` (float64 unless stated).
    #[serde(default)]
    pub initial_state_dtype: Option<StatePrecision>,
    /// The observation of the initial state.
    #[serde(default)]
    pub initial_obs: Option<O>,
    /// The whole action sequence.
    pub actions: Vec<A>,
    /// The number of steps.
    #[serde(default)]
    pub length: Option<usize>,
    /// How the trace ends: `terminated`, `truncated`, `both` or `cutoff`.
    #[serde(default)]
    pub end: Option<String>,
    /// The recorded transitions.
    pub steps: Vec<GymnasiumStep<S, A, O>>,
}

/// A CartPole trace: states `[x, x_dot, theta, theta_dot]`, actions 0 or 1.
pub type CartPoleTrace = GymnasiumTrace<[f64; 4], i64>;
/// A MountainCar trace: states `[position, velocity]`, actions 0, 1 or 2.
pub type MountainCarTrace = GymnasiumTrace<[f64; 2], i64>;
/// A MountainCarContinuous trace: states `[position, velocity]`, actions `[a]` (float32 values).
pub type MountainCarContinuousTrace = GymnasiumTrace<[f64; 2], [f64; 1]>;
/// An Acrobot trace: states `[theta1, theta2, dtheta1, dtheta2]`, actions 0, 1 or 2,
/// observations `[cos theta1, sin theta1, cos theta2, sin theta2, dtheta1, dtheta2]`.
pub type AcrobotTrace = GymnasiumTrace<[f64; 4], i64, [f64; 6]>;
/// A Pendulum trace: states `[theta, theta_dot]`, actions `[a]` (float32 values),
/// observations `[cos theta, sin theta, theta_dot]`.
pub type PendulumTrace = GymnasiumTrace<[f64; 2], [f64; 1], [f64; 3]>;

/// One step of a GridWorld deterministic trace.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GridWorldTraceStep {
    /// The 0-based step index.
    pub t: usize,
    /// The cell `[row, col]` before the step.
    pub state: [usize; 2],
    /// The action index.
    pub action: i64,
    /// The possible actions of `state`, ascending.
    pub possible_actions: Vec<i64>,
    /// The cell after the step.
    pub next_state: [usize; 2],
    /// Whether the agent changed cell.
    pub moved: bool,
    /// The reward.
    pub reward: f64,
    /// Whether `next_state` is terminal.
    pub terminal: bool,
    /// The possible actions of `next_state`, ascending.
    pub possible_actions_next: Vec<i64>,
}

/// A GridWorld trace without noise.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GridWorldTrace {
    /// The trace's identifier.
    pub id: String,
    /// The map's file name, a key of the file's `maps`.
    pub map: String,
    /// The kind of situation the trace covers.
    #[serde(default)]
    pub category: Option<String>,
    /// What the trace does.
    #[serde(default)]
    pub description: Option<String>,
    /// How the actions were chosen (information only).
    #[serde(default)]
    pub policy: Option<String>,
    /// The start cell.
    pub initial_state: [usize; 2],
    /// The action indices.
    pub actions: Vec<i64>,
    /// The number of steps.
    #[serde(default)]
    pub length: Option<usize>,
    /// How the trace ends: `terminal`, `actions_exhausted` or `episode_cap`.
    #[serde(default)]
    pub end: Option<String>,
    /// The sum of `0.9^t * r_t`.
    #[serde(default)]
    pub return_discounted: Option<f64>,
    /// The recorded transitions.
    pub steps: Vec<GridWorldTraceStep>,
}

/// A map as a reference file records it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RecordedMap {
    /// The number of rows.
    #[serde(default)]
    pub rows: Option<usize>,
    /// The number of columns.
    #[serde(default)]
    pub cols: Option<usize>,
    /// The start cell.
    #[serde(default)]
    pub start: Option<[usize; 2]>,
    /// The grid as rows of cell codes.
    pub grid: Vec<Vec<i64>>,
    /// The number of cells.
    #[serde(default)]
    pub states_num: Option<usize>,
}

/// One outcome of RLPy's `expectedStep` as recorded.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RecordedExpectedOutcome {
    /// The probability.
    pub p: f64,
    /// The cell after the step.
    pub next_state: [usize; 2],
    /// The reward.
    pub reward: f64,
    /// Whether `next_state` is terminal.
    pub terminal: bool,
    /// The possible actions of `next_state`.
    pub possible_actions_next: Vec<i64>,
    /// The action that leads to this outcome.
    pub via_action: i64,
}

/// One outcome of the exact step distribution as recorded.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RecordedOutcome {
    /// The probability.
    pub p: f64,
    /// The cell after the step.
    pub next_state: [usize; 2],
    /// The reward.
    pub reward: f64,
    /// Whether `next_state` is terminal.
    pub terminal: bool,
}

/// The recorded transitions of one table entry at one noise level.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RecordedNoiseLevel {
    /// RLPy's `expectedStep(s, a)`.
    pub expected_step: Vec<RecordedExpectedOutcome>,
    /// The sum of the `expected_step` probabilities.
    pub expected_step_p_sum: f64,
    /// The exact distribution of `step(a)`, merged by next state.
    pub step_distribution: Vec<RecordedOutcome>,
}

/// One entry of a GridWorld transition table: a state and an action.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GridWorldTableEntry {
    /// The entry's identifier.
    pub id: String,
    /// The cell.
    pub state: [usize; 2],
    /// The action index.
    pub action: i64,
    /// The possible actions of `state`.
    pub possible_actions: Vec<i64>,
    /// Whether `action` is possible.
    pub intended_action_possible: bool,
    /// The transitions per noise level, keyed by the noise written as text (`"0.1"`).
    pub by_noise: BTreeMap<String, RecordedNoiseLevel>,
}

/// The domain-specific content of a reference file, with the parameters it was built with.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ReferenceContent {
    /// CartPole traces.
    CartPole {
        /// The parameters, including the file's time limit.
        params: CartPoleParams,
        /// The traces.
        traces: Vec<CartPoleTrace>,
    },
    /// MountainCar traces.
    MountainCar {
        /// The parameters, including the file's time limit.
        params: MountainCarParams,
        /// The traces.
        traces: Vec<MountainCarTrace>,
    },
    /// MountainCarContinuous traces.
    MountainCarContinuous {
        /// The parameters, including the file's time limit.
        params: MountainCarContinuousParams,
        /// The traces.
        traces: Vec<MountainCarContinuousTrace>,
    },
    /// Acrobot traces.
    Acrobot {
        /// The parameters, including the file's time limit.
        params: AcrobotParams,
        /// The traces.
        traces: Vec<AcrobotTrace>,
    },
    /// Pendulum traces.
    Pendulum {
        /// The parameters, including the file's time limit.
        params: PendulumParams,
        /// The traces.
        traces: Vec<PendulumTrace>,
    },
    /// GridWorld traces without noise.
    GridWorldTraces {
        /// The parameters (noise 0).
        params: GridWorldParams,
        /// The maps the traces use, by file name, as recorded in the file.
        maps: BTreeMap<String, RecordedMap>,
        /// The traces.
        traces: Vec<GridWorldTrace>,
    },
    /// A GridWorld transition table.
    GridWorldTable {
        /// The map's file name.
        map_name: String,
        /// The map as recorded in the file.
        map: RecordedMap,
        /// The noise levels of the table.
        noise_levels: Vec<f64>,
        /// The entries.
        entries: Vec<GridWorldTableEntry>,
    },
}

/// A loaded reference file.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceFile {
    /// A name for reports: the file name, or the name given to [`parse_reference`].
    pub name: String,
    /// The shared keys.
    pub envelope: Envelope,
    /// The domain-specific content.
    pub content: ReferenceContent,
}

impl ReferenceFile {
    /// The number of recorded steps (traces) or entries (tables) in the file.
    pub fn step_count(&self) -> usize {
        match &self.content {
            ReferenceContent::CartPole { traces, .. } => {
                traces.iter().map(|trace| trace.steps.len()).sum()
            }
            ReferenceContent::MountainCar { traces, .. } => {
                traces.iter().map(|trace| trace.steps.len()).sum()
            }
            ReferenceContent::MountainCarContinuous { traces, .. } => {
                traces.iter().map(|trace| trace.steps.len()).sum()
            }
            ReferenceContent::Acrobot { traces, .. } => {
                traces.iter().map(|trace| trace.steps.len()).sum()
            }
            ReferenceContent::Pendulum { traces, .. } => {
                traces.iter().map(|trace| trace.steps.len()).sum()
            }
            ReferenceContent::GridWorldTraces { traces, .. } => {
                traces.iter().map(|trace| trace.steps.len()).sum()
            }
            ReferenceContent::GridWorldTable { entries, .. } => entries.len(),
        }
    }
}

/// Reads and resolves a reference file (see [`parse_reference`]).
pub fn load_reference_file(path: impl AsRef<Path>) -> Result<ReferenceFile, ReferenceError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| ReferenceError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse_reference(&text, &name).map_err(|error| match error {
        ReferenceError::Json { path: None, source } => ReferenceError::Json {
            path: Some(path.to_path_buf()),
            source,
        },
        other => other,
    })
}

/// The parts of a file read in the first pass; keys not listed here are ignored.
#[derive(Deserialize)]
struct RawFile {
    #[serde(flatten)]
    envelope: Envelope,
    #[serde(default)]
    traces: Option<Value>,
    #[serde(default)]
    entries: Option<Value>,
    #[serde(default)]
    noise: Option<f64>,
    #[serde(default)]
    maps: Option<BTreeMap<String, RecordedMap>>,
    #[serde(default)]
    map: Option<String>,
    #[serde(default)]
    grid: Option<Vec<Vec<i64>>>,
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    cols: Option<usize>,
    #[serde(default)]
    start: Option<[usize; 2]>,
    #[serde(default)]
    noise_levels: Option<Vec<f64>>,
}

/// Parses the JSON text of a reference file and resolves its domain, variant,
/// `make_kwargs`, `unwrapped_overrides` and time limit into parameters.
///
/// Fails with a typed error naming what it cannot handle: an unknown domain or variant,
/// an override that does not map onto the parameters, a missing section.
pub fn parse_reference(text: &str, name: &str) -> Result<ReferenceFile, ReferenceError> {
    let raw: RawFile = serde_json::from_str(text).map_err(json_error)?;
    let envelope = raw.envelope.clone();
    if envelope.schema_version != SCHEMA_VERSION {
        return Err(ReferenceError::UnsupportedSchemaVersion {
            version: envelope.schema_version,
        });
    }
    let content = match envelope.domain.as_str() {
        "CartPole" => ReferenceContent::CartPole {
            params: cartpole_params(&envelope)?,
            traces: typed_section(raw.traces, "traces")?,
        },
        "MountainCar" => ReferenceContent::MountainCar {
            params: mountain_car_params(&envelope)?,
            traces: typed_section(raw.traces, "traces")?,
        },
        "MountainCarContinuous" => ReferenceContent::MountainCarContinuous {
            params: mountain_car_continuous_params(&envelope)?,
            traces: typed_section(raw.traces, "traces")?,
        },
        "Acrobot" => ReferenceContent::Acrobot {
            params: acrobot_params(&envelope)?,
            traces: typed_section(raw.traces, "traces")?,
        },
        "Pendulum" => ReferenceContent::Pendulum {
            params: pendulum_params(&envelope)?,
            traces: typed_section(raw.traces, "traces")?,
        },
        "GridWorld" => gridworld_content(&envelope, raw)?,
        _ => {
            return Err(ReferenceError::UnknownDomain {
                domain: envelope.domain,
            });
        }
    };
    Ok(ReferenceFile {
        name: name.to_owned(),
        envelope,
        content,
    })
}

fn json_error(source: serde_json::Error) -> ReferenceError {
    ReferenceError::Json { path: None, source }
}

/// Deserializes a required section (`traces` or `entries`) into its typed form.
fn typed_section<T: serde::de::DeserializeOwned>(
    section: Option<Value>,
    name: &str,
) -> Result<T, ReferenceError> {
    let value = section.ok_or_else(|| ReferenceError::MissingField {
        field: format!("the `{name}` list"),
    })?;
    serde_json::from_value(value).map_err(json_error)
}

fn unknown_variant(envelope: &Envelope) -> ReferenceError {
    ReferenceError::UnknownVariant {
        domain: envelope.domain.clone(),
        variant: envelope.variant.clone(),
    }
}

fn unsupported(section: &'static str, key: &str, value: &Value) -> ReferenceError {
    ReferenceError::UnsupportedOverride {
        section,
        key: key.to_owned(),
        value: value.to_string(),
    }
}

fn number(section: &'static str, key: &str, value: &Value) -> Result<f64, ReferenceError> {
    value
        .as_f64()
        .ok_or_else(|| unsupported(section, key, value))
}

fn step_limit(section: &'static str, key: &str, value: &Value) -> Result<u64, ReferenceError> {
    value
        .as_u64()
        .ok_or_else(|| unsupported(section, key, value))
}

/// The time limit: the generator's `max_episode_steps` (the TimeLimit actually used),
/// otherwise the one from `make_kwargs` (already applied), otherwise the default.
fn resolve_time_limit(envelope: &Envelope, current: u64) -> Result<u64, ReferenceError> {
    match envelope.generator.get("max_episode_steps") {
        None | Some(Value::Null) => Ok(current),
        Some(value) => step_limit("generator", "max_episode_steps", value),
    }
}

fn finish_params<P>(
    params: P,
    validate: impl Fn(&P) -> Result<(), Error>,
) -> Result<P, ReferenceError> {
    validate(&params).map_err(ReferenceError::InvalidParameters)?;
    Ok(params)
}

fn cartpole_params(envelope: &Envelope) -> Result<CartPoleParams, ReferenceError> {
    let mut params = CartPoleParams::default();
    match envelope.variant.as_str() {
        "euler" => {}
        "semi-implicit" => params.integrator = Integrator::SemiImplicitEuler,
        "sutton_barto_reward" => params.sutton_barto_reward = true,
        _ => return Err(unknown_variant(envelope)),
    }
    for (key, value) in &envelope.make_kwargs {
        const SECTION: &str = "make_kwargs";
        match key.as_str() {
            "sutton_barto_reward" => {
                params.sutton_barto_reward = value
                    .as_bool()
                    .ok_or_else(|| unsupported(SECTION, key, value))?;
            }
            "max_episode_steps" => params.max_episode_steps = step_limit(SECTION, key, value)?,
            "render_mode" => {}
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    for (key, value) in &envelope.unwrapped_overrides {
        const SECTION: &str = "unwrapped_overrides";
        match key.as_str() {
            // Gymnasium selects semi-implicit Euler for any value other than "euler".
            "kinematics_integrator" => {
                let name = value
                    .as_str()
                    .ok_or_else(|| unsupported(SECTION, key, value))?;
                params.integrator = if name == "euler" {
                    Integrator::Euler
                } else {
                    Integrator::SemiImplicitEuler
                };
            }
            "gravity" => params.gravity = number(SECTION, key, value)?,
            "force_mag" => params.force_mag = number(SECTION, key, value)?,
            "tau" => params.tau = number(SECTION, key, value)?,
            "theta_threshold_radians" => {
                params.theta_threshold_radians = number(SECTION, key, value)?;
            }
            "x_threshold" => params.x_threshold = number(SECTION, key, value)?,
            // Masses and length also enter `total_mass` and `polemass_length`, which
            // Gymnasium computes once in its constructor, so overriding them afterwards
            // cannot be expressed with these parameters.
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    params.max_episode_steps = resolve_time_limit(envelope, params.max_episode_steps)?;
    finish_params(params, CartPoleParams::validate)
}

fn mountain_car_params(envelope: &Envelope) -> Result<MountainCarParams, ReferenceError> {
    let mut params = MountainCarParams::default();
    if envelope.variant != "default" {
        return Err(unknown_variant(envelope));
    }
    for (key, value) in &envelope.make_kwargs {
        const SECTION: &str = "make_kwargs";
        match key.as_str() {
            "goal_velocity" => params.goal_velocity = number(SECTION, key, value)?,
            "max_episode_steps" => params.max_episode_steps = step_limit(SECTION, key, value)?,
            "render_mode" => {}
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    for (key, value) in &envelope.unwrapped_overrides {
        const SECTION: &str = "unwrapped_overrides";
        let field = match key.as_str() {
            "min_position" => &mut params.min_position,
            "max_position" => &mut params.max_position,
            "max_speed" => &mut params.max_speed,
            "goal_position" => &mut params.goal_position,
            "goal_velocity" => &mut params.goal_velocity,
            "force" => &mut params.force,
            "gravity" => &mut params.gravity,
            _ => return Err(unsupported(SECTION, key, value)),
        };
        *field = number(SECTION, key, value)?;
    }
    params.max_episode_steps = resolve_time_limit(envelope, params.max_episode_steps)?;
    finish_params(params, MountainCarParams::validate)
}

fn mountain_car_continuous_params(
    envelope: &Envelope,
) -> Result<MountainCarContinuousParams, ReferenceError> {
    let mut params = MountainCarContinuousParams::default();
    if envelope.variant != "default" {
        return Err(unknown_variant(envelope));
    }
    for (key, value) in &envelope.make_kwargs {
        const SECTION: &str = "make_kwargs";
        match key.as_str() {
            "goal_velocity" => params.goal_velocity = number(SECTION, key, value)?,
            "max_episode_steps" => params.max_episode_steps = step_limit(SECTION, key, value)?,
            "render_mode" => {}
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    for (key, value) in &envelope.unwrapped_overrides {
        const SECTION: &str = "unwrapped_overrides";
        let field = match key.as_str() {
            "min_action" => &mut params.min_action,
            "max_action" => &mut params.max_action,
            "min_position" => &mut params.min_position,
            "max_position" => &mut params.max_position,
            "max_speed" => &mut params.max_speed,
            "goal_position" => &mut params.goal_position,
            "goal_velocity" => &mut params.goal_velocity,
            "power" => &mut params.power,
            _ => return Err(unsupported(SECTION, key, value)),
        };
        *field = number(SECTION, key, value)?;
    }
    params.max_episode_steps = resolve_time_limit(envelope, params.max_episode_steps)?;
    finish_params(params, MountainCarContinuousParams::validate)
}

fn acrobot_params(envelope: &Envelope) -> Result<AcrobotParams, ReferenceError> {
    let mut params = AcrobotParams::default();
    match envelope.variant.as_str() {
        "book" | "default" => {}
        "nips" => params.dynamics = AcrobotDynamics::Nips,
        _ => return Err(unknown_variant(envelope)),
    }
    for (key, value) in &envelope.make_kwargs {
        const SECTION: &str = "make_kwargs";
        match key.as_str() {
            "max_episode_steps" => params.max_episode_steps = step_limit(SECTION, key, value)?,
            "render_mode" => {}
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    for (key, value) in &envelope.unwrapped_overrides {
        const SECTION: &str = "unwrapped_overrides";
        match key.as_str() {
            "book_or_nips" => {
                params.dynamics = match value.as_str() {
                    Some("book") => AcrobotDynamics::Book,
                    Some("nips") => AcrobotDynamics::Nips,
                    _ => return Err(unsupported(SECTION, key, value)),
                };
            }
            "torque_noise_max" => params.torque_noise_max = number(SECTION, key, value)?,
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    params.max_episode_steps = resolve_time_limit(envelope, params.max_episode_steps)?;
    finish_params(params, AcrobotParams::validate)
}

fn pendulum_params(envelope: &Envelope) -> Result<PendulumParams, ReferenceError> {
    let mut params = PendulumParams::default();
    for (key, value) in &envelope.make_kwargs {
        const SECTION: &str = "make_kwargs";
        match key.as_str() {
            "g" => params.g = number(SECTION, key, value)?,
            "max_episode_steps" => params.max_episode_steps = step_limit(SECTION, key, value)?,
            "render_mode" => {}
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    for (key, value) in &envelope.unwrapped_overrides {
        const SECTION: &str = "unwrapped_overrides";
        match key.as_str() {
            "g" => params.g = number(SECTION, key, value)?,
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    // The variant names the gravity it was recorded with (`g=9.81`), or is `default`
    // (g = 10); it must agree with the gravity the file's arguments give.
    let variant_gravity = match envelope.variant.as_str() {
        "default" => Some(PendulumParams::default().g),
        other => other
            .strip_prefix("g=")
            .and_then(|text| text.parse::<f64>().ok()),
    };
    if variant_gravity != Some(params.g) {
        return Err(unknown_variant(envelope));
    }
    params.max_episode_steps = resolve_time_limit(envelope, params.max_episode_steps)?;
    finish_params(params, PendulumParams::validate)
}

fn gridworld_content(
    envelope: &Envelope,
    raw: RawFile,
) -> Result<ReferenceContent, ReferenceError> {
    for (section, overrides) in [
        ("make_kwargs", &envelope.make_kwargs),
        ("unwrapped_overrides", &envelope.unwrapped_overrides),
    ] {
        if let Some((key, value)) = overrides.iter().next() {
            return Err(unsupported(section, key, value));
        }
    }
    match envelope.variant.as_str() {
        "deterministic" => {
            let noise = raw.noise.unwrap_or(0.0);
            if noise != 0.0 {
                return Err(ReferenceError::UnsupportedOverride {
                    section: "noise",
                    key: "noise".to_owned(),
                    value: noise.to_string(),
                });
            }
            let params = finish_params(
                GridWorldParams {
                    noise,
                    ..GridWorldParams::default()
                },
                GridWorldParams::validate,
            )?;
            let traces: Vec<GridWorldTrace> = typed_section(raw.traces, "traces")?;
            let mut maps = raw.maps.unwrap_or_default();
            // A trace whose map the file does not record uses the built-in map of that name.
            for trace in &traces {
                if !maps.contains_key(&trace.map) {
                    let map =
                        GridMap::builtin(&trace.map).map_err(|source| ReferenceError::Map {
                            name: trace.map.clone(),
                            source,
                        })?;
                    maps.insert(trace.map.clone(), recorded_from_map(&map));
                }
            }
            for (name, recorded) in &maps {
                grid_map_from_recorded(name, recorded)?;
            }
            Ok(ReferenceContent::GridWorldTraces {
                params,
                maps,
                traces,
            })
        }
        "transition_table" => {
            let map_name = raw.map.ok_or_else(|| ReferenceError::MissingField {
                field: "the `map` name of the transition table".to_owned(),
            })?;
            let map = match raw.grid {
                Some(grid) => RecordedMap {
                    rows: raw.rows,
                    cols: raw.cols,
                    start: raw.start,
                    grid,
                    states_num: None,
                },
                None => {
                    let map =
                        GridMap::builtin(&map_name).map_err(|source| ReferenceError::Map {
                            name: map_name.clone(),
                            source,
                        })?;
                    recorded_from_map(&map)
                }
            };
            grid_map_from_recorded(&map_name, &map)?;
            let noise_levels = raw
                .noise_levels
                .ok_or_else(|| ReferenceError::MissingField {
                    field: "the `noise_levels` of the transition table".to_owned(),
                })?;
            Ok(ReferenceContent::GridWorldTable {
                map_name,
                map,
                noise_levels,
                entries: typed_section(raw.entries, "entries")?,
            })
        }
        _ => Err(unknown_variant(envelope)),
    }
}

fn recorded_from_map(map: &GridMap) -> RecordedMap {
    RecordedMap {
        rows: Some(map.rows()),
        cols: Some(map.cols()),
        start: Some([map.start().row, map.start().col]),
        grid: map
            .to_codes()
            .into_iter()
            .map(|row| row.into_iter().map(i64::from).collect())
            .collect(),
        states_num: Some(map.cell_count()),
    }
}

/// Builds the grid map of a recorded grid, with the parser's checks.
pub fn grid_map_from_recorded(
    name: &str,
    recorded: &RecordedMap,
) -> Result<GridMap, ReferenceError> {
    let text: String = recorded
        .grid
        .iter()
        .map(|row| {
            let mut line = row.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
            line.push('\n');
            line
        })
        .collect();
    GridMap::parse(&text).map_err(|source| ReferenceError::Map {
        name: name.to_owned(),
        source,
    })
}

/// How a Gymnasium trace step was reached in the replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReplayMode {
    /// Stepped from the recorded `state`.
    PerStep,
    /// Stepped from this crate's own previous state, starting at `initial_state`.
    Rollout,
}

impl fmt::Display for ReplayMode {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            ReplayMode::PerStep => "per step",
            ReplayMode::Rollout => "rollout",
        })
    }
}

/// Where a mismatch was found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MismatchLocation {
    /// The file as a whole (for example a recorded map).
    File,
    /// A trace as a whole (its length, end, initial observation or return).
    Trace {
        /// The trace's identifier.
        trace: String,
    },
    /// One step of a trace.
    Step {
        /// The trace's identifier.
        trace: String,
        /// The step index.
        t: usize,
        /// How the step was reached.
        mode: ReplayMode,
    },
    /// A transition table entry, at one noise level when `noise` is set.
    TableEntry {
        /// The entry's identifier.
        entry: String,
        /// The noise level as written in the file.
        noise: Option<String>,
    },
}

impl fmt::Display for MismatchLocation {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MismatchLocation::File => formatter.write_str("file"),
            MismatchLocation::Trace { trace } => write!(formatter, "trace {trace}"),
            MismatchLocation::Step { trace, t, mode } => {
                write!(formatter, "trace {trace}, step {t} ({mode})")
            }
            MismatchLocation::TableEntry { entry, noise: None } => {
                write!(formatter, "entry {entry}")
            }
            MismatchLocation::TableEntry {
                entry,
                noise: Some(noise),
            } => write!(formatter, "entry {entry}, noise {noise}"),
        }
    }
}

/// One difference between a reference file and this crate.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Where it was found.
    pub location: MismatchLocation,
    /// The field that differs, for example `next_state[2]` or `obs[0]`.
    pub field: String,
    /// The recorded value (floats with their bit patterns).
    pub expected: String,
    /// This crate's value.
    pub actual: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{}: {}: expected {}, got {}",
            self.location, self.field, self.expected, self.actual
        )
    }
}

/// What a replay counts: the steps of traces or the entries of a transition table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckedItems {
    /// Recorded trace steps.
    Steps,
    /// Transition table entries.
    Entries,
}

impl CheckedItems {
    /// The plural noun for reports: `steps` or `entries`.
    pub fn noun(self) -> &'static str {
        match self {
            CheckedItems::Steps => "steps",
            CheckedItems::Entries => "entries",
        }
    }
}

/// The outcome of [`replay`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// The file's name.
    pub name: String,
    /// Whether [`steps_checked`](Self::steps_checked) counts trace steps or table entries.
    pub items: CheckedItems,
    /// The number of recorded steps (traces) or entries (tables) checked; each trace step
    /// counts once although it is checked both per step and in the rollout.
    pub steps_checked: usize,
    /// The number of individual values compared.
    pub values_compared: usize,
    /// Every difference found.
    pub mismatches: Vec<Mismatch>,
}

impl ReplayReport {
    /// Whether the replay found no difference.
    pub fn is_match(&self) -> bool {
        self.mismatches.is_empty()
    }

    /// The report's one-line summary: `NAME: N steps checked, M mismatches` (or
    /// `N entries checked` for a transition table).
    pub fn summary(&self) -> String {
        format!(
            "{}: {} {} checked, {} mismatches",
            self.name,
            self.steps_checked,
            self.items.noun(),
            self.mismatches.len()
        )
    }
}

/// Reads a reference file and replays it ([`load_reference_file`], then [`replay`]): what
/// the `replay` example and a command line run per file.
///
/// Fails with a typed error when the file cannot be read, is not of the schema, or names a
/// domain, variant or override this crate does not know; differences are not errors but
/// the report's mismatches.
pub fn replay_file(path: impl AsRef<Path>) -> Result<ReplayReport, ReferenceError> {
    load_reference_file(path).map(|file| replay(&file))
}

/// Replays every file and describes the results as text: per file the line of
/// [`ReplayReport::summary`] (or `FILE: error: ...` when the file cannot be read, parsed or
/// resolved), then up to `shown` mismatches, each on its own indented line. Returns the text
/// and whether every file replayed without a mismatch. The replay example and `rl replay`
/// print this.
pub fn replay_files_report<P: AsRef<Path>>(files: &[P], shown: usize) -> (String, bool) {
    let mut text = String::new();
    let mut all_match = true;
    for file in files {
        match replay_file(file) {
            Ok(report) => {
                text.push_str(&report.summary());
                text.push('\n');
                for mismatch in report.mismatches.iter().take(shown) {
                    text.push_str(&format!("  {mismatch}\n"));
                }
                if report.mismatches.len() > shown {
                    text.push_str(&format!(
                        "  ... and {} more\n",
                        report.mismatches.len() - shown
                    ));
                }
                all_match &= report.is_match();
            }
            Err(error) => {
                text.push_str(&format!("{}: error: {error}\n", file.as_ref().display()));
                all_match = false;
            }
        }
    }
    (text, all_match)
}

/// Collects comparisons and mismatches during a replay.
struct Checker {
    steps_checked: usize,
    values_compared: usize,
    mismatches: Vec<Mismatch>,
}

impl Checker {
    fn record(
        &mut self,
        equal: bool,
        location: &MismatchLocation,
        field: &str,
        expected: String,
        actual: String,
    ) {
        self.values_compared += 1;
        if !equal {
            self.mismatches.push(Mismatch {
                location: location.clone(),
                field: field.to_owned(),
                expected,
                actual,
            });
        }
    }

    /// Compares float64 values bit for bit.
    fn bits(&mut self, location: &MismatchLocation, field: &str, expected: f64, actual: f64) {
        self.record(
            expected.to_bits() == actual.to_bits(),
            location,
            field,
            float_text(expected),
            float_text(actual),
        );
    }

    /// Compares a recorded float32 value (stored as float64) with a float32 bit for bit.
    fn bits32(&mut self, location: &MismatchLocation, field: &str, expected: f64, actual: f32) {
        self.bits(location, field, expected, f64::from(actual));
    }

    /// Compares probabilities within [`PROBABILITY_TOLERANCE`].
    fn close(&mut self, location: &MismatchLocation, field: &str, expected: f64, actual: f64) {
        self.record(
            (expected - actual).abs() <= PROBABILITY_TOLERANCE,
            location,
            field,
            float_text(expected),
            float_text(actual),
        );
    }

    fn equal<T: PartialEq + fmt::Debug>(
        &mut self,
        location: &MismatchLocation,
        field: &str,
        expected: T,
        actual: T,
    ) {
        self.record(
            expected == actual,
            location,
            field,
            format!("{expected:?}"),
            format!("{actual:?}"),
        );
    }

    fn fail(&mut self, location: &MismatchLocation, field: &str, expected: String, actual: String) {
        self.record(false, location, field, expected, actual);
    }
}

fn float_text(value: f64) -> String {
    format!("{value:?} (bits {:#018x})", value.to_bits())
}

/// Replays a loaded reference file against this crate's dynamics.
pub fn replay(file: &ReferenceFile) -> ReplayReport {
    let mut checker = Checker {
        steps_checked: 0,
        values_compared: 0,
        mismatches: Vec::new(),
    };
    match &file.content {
        ReferenceContent::CartPole { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state| state.map(|value| value as f32),
                    |state, action, _| {
                        let push_right = match action {
                            0 => false,
                            1 => true,
                            _ => return None,
                        };
                        let step =
                            cartpole_step(params, &CartPoleState::from_array(*state), push_right);
                        Some(GymnasiumOutcome {
                            next_state: step.next_state.to_array(),
                            observation: step.next_state.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.reward,
                            terminated: step.terminated,
                        })
                    },
                );
            }
        }
        ReferenceContent::MountainCar { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state| state.map(|value| value as f32),
                    |state, action, _| {
                        let action = u8::try_from(*action).ok().filter(|action| *action <= 2)?;
                        let [position, velocity] = *state;
                        let step = mountain_car_step(
                            params,
                            &MountainCarState { position, velocity },
                            action,
                        );
                        let next = step.next_state;
                        Some(GymnasiumOutcome {
                            next_state: [next.position, next.velocity],
                            observation: next.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.reward,
                            terminated: step.terminated,
                        })
                    },
                );
            }
        }
        ReferenceContent::MountainCarContinuous { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state| state.map(|value| value as f32),
                    |state, action, precision| {
                        let [value] = *action;
                        let action = value as f32;
                        if f64::from(action).to_bits() != value.to_bits() && !value.is_nan() {
                            return None;
                        }
                        let [position, velocity] = *state;
                        let state = MountainCarContinuousState {
                            position,
                            velocity,
                            precision,
                        };
                        let step = mountain_car_continuous_step(params, &state, action);
                        let next = step.next_state;
                        Some(GymnasiumOutcome {
                            next_state: [next.position, next.velocity],
                            observation: next.to_observation(),
                            precision: next.precision,
                            reward: step.reward,
                            terminated: step.terminated,
                        })
                    },
                );
            }
        }
        ReferenceContent::Acrobot { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state| AcrobotState::from_array(*state).to_observation(),
                    |state, action, _| {
                        if !(0..=2).contains(action) {
                            return None;
                        }
                        let step = acrobot_step(
                            params.dynamics,
                            &AcrobotState::from_array(*state),
                            action_torque(*action),
                        );
                        Some(GymnasiumOutcome {
                            next_state: step.next_state.to_array(),
                            observation: step.next_state.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.reward,
                            terminated: step.terminated,
                        })
                    },
                );
            }
        }
        ReferenceContent::Pendulum { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |[theta, theta_dot]| {
                        PendulumState {
                            theta: *theta,
                            theta_dot: *theta_dot,
                        }
                        .to_observation()
                    },
                    |state, action, _| {
                        let [value] = *action;
                        let action = value as f32;
                        if f64::from(action).to_bits() != value.to_bits() && !value.is_nan() {
                            return None;
                        }
                        let [theta, theta_dot] = *state;
                        let step =
                            pendulum_step(params, &PendulumState { theta, theta_dot }, action);
                        let next = step.next_state;
                        Some(GymnasiumOutcome {
                            next_state: [next.theta, next.theta_dot],
                            observation: next.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.reward,
                            terminated: false,
                        })
                    },
                );
            }
        }
        ReferenceContent::GridWorldTraces {
            params,
            maps,
            traces,
        } => {
            replay_gridworld_traces(&mut checker, params, maps, traces);
        }
        ReferenceContent::GridWorldTable {
            map_name,
            map,
            noise_levels,
            entries,
        } => replay_gridworld_table(&mut checker, map_name, map, noise_levels, entries),
    }
    let items = match &file.content {
        ReferenceContent::GridWorldTable { .. } => CheckedItems::Entries,
        _ => CheckedItems::Steps,
    };
    ReplayReport {
        name: file.name.clone(),
        items,
        steps_checked: checker.steps_checked,
        values_compared: checker.values_compared,
        mismatches: checker.mismatches,
    }
}

/// What a Gymnasium step function produced, in the trace's terms.
struct GymnasiumOutcome<const N: usize, const M: usize = N> {
    next_state: [f64; N],
    observation: [f32; M],
    precision: StatePrecision,
    reward: f64,
    terminated: bool,
}

/// Replays one Gymnasium trace per step and as a rollout. `observe` gives the observation
/// of a state (checked against the initial observation); `step` returns `None` for an
/// action the domain cannot take, which is reported as a mismatch.
fn replay_gymnasium<const N: usize, const M: usize, A: fmt::Debug>(
    checker: &mut Checker,
    trace: &GymnasiumTrace<[f64; N], A, [f64; M]>,
    max_episode_steps: u64,
    observe: impl Fn(&[f64; N]) -> [f32; M],
    step: impl Fn(&[f64; N], &A, StatePrecision) -> Option<GymnasiumOutcome<N, M>>,
) {
    let trace_location = MismatchLocation::Trace {
        trace: trace.id.clone(),
    };
    check_trace_shape(
        checker,
        &trace_location,
        trace.length,
        trace.actions.len(),
        trace.steps.len(),
    );
    if let Some(initial_obs) = &trace.initial_obs {
        let observation = observe(&trace.initial_state);
        for (index, (expected, value)) in initial_obs.iter().zip(&observation).enumerate() {
            checker.bits32(
                &trace_location,
                &format!("initial_obs[{index}]"),
                *expected,
                *value,
            );
        }
    }
    let initial_precision = trace.initial_state_dtype.unwrap_or(StatePrecision::Float64);

    // Per step: from each recorded state.
    for (index, recorded) in trace.steps.iter().enumerate() {
        checker.steps_checked += 1;
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::PerStep,
        };
        checker.equal(&location, "t", index, recorded.t);
        if let Some(action) = trace.actions.get(index) {
            checker.equal(
                &location,
                "action",
                format!("{action:?}"),
                format!("{:?}", recorded.action),
            );
        }
        // Without a recorded dtype, the state is as reset left it at step 0 and float32
        // afterwards (only MountainCarContinuous distinguishes the two).
        let precision = recorded.state_dtype.unwrap_or(if index == 0 {
            initial_precision
        } else {
            StatePrecision::Float32
        });
        match step(&recorded.state, &recorded.action, precision) {
            Some(outcome) => check_gymnasium_step(
                checker,
                &location,
                recorded,
                &outcome,
                max_episode_steps,
                index,
            ),
            None => checker.fail(
                &location,
                "action",
                format!("{:?}", recorded.action),
                "not a valid action".to_owned(),
            ),
        }
    }

    // Rollout: from the initial state, feeding this crate's states forward.
    let mut state = trace.initial_state;
    let mut precision = initial_precision;
    for (index, (action, recorded)) in trace.actions.iter().zip(&trace.steps).enumerate() {
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::Rollout,
        };
        for (component, (expected, actual)) in recorded.state.iter().zip(&state).enumerate() {
            checker.bits(
                &location,
                &format!("state[{component}]"),
                *expected,
                *actual,
            );
        }
        if let Some(expected) = recorded.state_dtype {
            checker.equal(&location, "state_dtype", expected, precision);
        }
        match step(&state, action, precision) {
            Some(outcome) => {
                check_gymnasium_step(
                    checker,
                    &location,
                    recorded,
                    &outcome,
                    max_episode_steps,
                    index,
                );
                state = outcome.next_state;
                precision = outcome.precision;
            }
            None => {
                checker.fail(
                    &location,
                    "action",
                    format!("{action:?}"),
                    "not a valid action".to_owned(),
                );
                break;
            }
        }
    }

    if let (Some(end), Some(last)) = (&trace.end, trace.steps.last()) {
        let expected = match end.as_str() {
            "terminated" => Some((true, false)),
            "truncated" => Some((false, true)),
            "both" => Some((true, true)),
            "cutoff" => Some((false, false)),
            _ => None,
        };
        match expected {
            Some(flags) => checker.equal(
                &trace_location,
                &format!("end `{end}` (terminated, truncated) of the last step"),
                flags,
                (last.terminated, last.truncated),
            ),
            None => checker.fail(
                &trace_location,
                "end",
                end.clone(),
                "a known end".to_owned(),
            ),
        }
    }
}

fn check_trace_shape(
    checker: &mut Checker,
    location: &MismatchLocation,
    length: Option<usize>,
    actions: usize,
    steps: usize,
) {
    if let Some(length) = length {
        checker.equal(location, "length (number of steps)", length, steps);
    }
    checker.equal(location, "number of actions", steps, actions);
}

fn check_gymnasium_step<const N: usize, const M: usize, A>(
    checker: &mut Checker,
    location: &MismatchLocation,
    recorded: &GymnasiumStep<[f64; N], A, [f64; M]>,
    outcome: &GymnasiumOutcome<N, M>,
    max_episode_steps: u64,
    index: usize,
) {
    for (component, (expected, actual)) in recorded
        .next_state
        .iter()
        .zip(&outcome.next_state)
        .enumerate()
    {
        checker.bits(
            location,
            &format!("next_state[{component}]"),
            *expected,
            *actual,
        );
    }
    for (component, (expected, actual)) in recorded.obs.iter().zip(&outcome.observation).enumerate()
    {
        checker.bits32(location, &format!("obs[{component}]"), *expected, *actual);
    }
    checker.bits(location, "reward", recorded.reward, outcome.reward);
    checker.equal(
        location,
        "terminated",
        recorded.terminated,
        outcome.terminated,
    );
    let truncated = (index as u64).saturating_add(1) >= max_episode_steps;
    checker.equal(location, "truncated", recorded.truncated, truncated);
}

fn cell_of(state: [usize; 2]) -> GridCell {
    GridCell::new(state[0], state[1])
}

fn action_indices(set: ActionSet) -> Vec<i64> {
    set.iter().map(|action| action.index() as i64).collect()
}

fn grid_action(index: i64) -> Option<GridAction> {
    usize::try_from(index).ok().and_then(GridAction::from_index)
}

fn check_recorded_map(
    checker: &mut Checker,
    location: &MismatchLocation,
    name: &str,
    recorded: &RecordedMap,
    map: &GridMap,
) {
    if let Some(rows) = recorded.rows {
        checker.equal(location, &format!("maps[{name}].rows"), rows, map.rows());
    }
    if let Some(cols) = recorded.cols {
        checker.equal(location, &format!("maps[{name}].cols"), cols, map.cols());
    }
    if let Some(start) = recorded.start {
        checker.equal(
            location,
            &format!("maps[{name}].start"),
            cell_of(start),
            map.start(),
        );
    }
    if let Some(states_num) = recorded.states_num {
        checker.equal(
            location,
            &format!("maps[{name}].states_num"),
            states_num,
            map.cell_count(),
        );
    }
}

fn replay_gridworld_traces(
    checker: &mut Checker,
    params: &GridWorldParams,
    maps: &BTreeMap<String, RecordedMap>,
    traces: &[GridWorldTrace],
) {
    let mut grid_maps = BTreeMap::new();
    for (name, recorded) in maps {
        // Loading already checked that every recorded map parses.
        if let Ok(map) = grid_map_from_recorded(name, recorded) {
            check_recorded_map(checker, &MismatchLocation::File, name, recorded, &map);
            grid_maps.insert(name.as_str(), map);
        }
    }
    for trace in traces {
        let trace_location = MismatchLocation::Trace {
            trace: trace.id.clone(),
        };
        let Some(map) = grid_maps.get(trace.map.as_str()) else {
            checker.fail(
                &trace_location,
                "map",
                trace.map.clone(),
                "no such map in the file".to_owned(),
            );
            continue;
        };
        check_trace_shape(
            checker,
            &trace_location,
            trace.length,
            trace.actions.len(),
            trace.steps.len(),
        );
        checker.equal(
            &trace_location,
            "initial_state",
            cell_of(trace.initial_state),
            map.start(),
        );

        for (index, recorded) in trace.steps.iter().enumerate() {
            checker.steps_checked += 1;
            let location = MismatchLocation::Step {
                trace: trace.id.clone(),
                t: recorded.t,
                mode: ReplayMode::PerStep,
            };
            checker.equal(&location, "t", index, recorded.t);
            if let Some(action) = trace.actions.get(index) {
                checker.equal(&location, "action", *action, recorded.action);
            }
            check_gridworld_step(checker, &location, map, cell_of(recorded.state), recorded);
        }

        let mut cell = cell_of(trace.initial_state);
        let mut discount = 1.0;
        let mut discounted_return = 0.0;
        let mut last_terminal = false;
        for (action, recorded) in trace.actions.iter().zip(&trace.steps) {
            let location = MismatchLocation::Step {
                trace: trace.id.clone(),
                t: recorded.t,
                mode: ReplayMode::Rollout,
            };
            checker.equal(&location, "state", cell_of(recorded.state), cell);
            let recorded_with_action = GridWorldTraceStep {
                action: *action,
                ..recorded.clone()
            };
            let Some(step) =
                check_gridworld_step(checker, &location, map, cell, &recorded_with_action)
            else {
                break;
            };
            // The reference accumulates the return with a running discount, in this order.
            discounted_return += discount * step.reward;
            discount *= params.discount_factor;
            cell = step.next_cell;
            last_terminal = step.terminal;
        }
        if let Some(expected) = trace.return_discounted {
            checker.bits(
                &trace_location,
                "return_discounted",
                expected,
                discounted_return,
            );
        }
        if let Some(end) = &trace.end {
            let cap = usize::try_from(params.episode_cap).unwrap_or(usize::MAX);
            let length = trace.steps.len();
            let consistent = match end.as_str() {
                "terminal" => Some(last_terminal),
                "actions_exhausted" => Some(!last_terminal && length < cap),
                "episode_cap" => Some(!last_terminal && length == cap),
                _ => None,
            };
            match consistent {
                Some(consistent) => checker.equal(
                    &trace_location,
                    &format!("end `{end}` holds"),
                    true,
                    consistent,
                ),
                None => checker.fail(
                    &trace_location,
                    "end",
                    end.clone(),
                    "a known end".to_owned(),
                ),
            }
        }
    }
}

/// Checks one deterministic GridWorld step from `cell`; returns the step, or `None` when
/// the recorded action is not an action.
fn check_gridworld_step(
    checker: &mut Checker,
    location: &MismatchLocation,
    map: &GridMap,
    cell: GridCell,
    recorded: &GridWorldTraceStep,
) -> Option<gridworld::GridStep> {
    checker.equal(
        location,
        "possible_actions",
        recorded.possible_actions.clone(),
        action_indices(possible_actions(map, cell)),
    );
    let Some(action) = grid_action(recorded.action) else {
        checker.fail(
            location,
            "action",
            recorded.action.to_string(),
            "not an action (0 to 3)".to_owned(),
        );
        return None;
    };
    let step = step_with_action(map, cell, action);
    checker.equal(
        location,
        "next_state",
        cell_of(recorded.next_state),
        step.next_cell,
    );
    checker.equal(location, "moved", recorded.moved, step.next_cell != cell);
    checker.bits(location, "reward", recorded.reward, step.reward);
    checker.equal(location, "terminal", recorded.terminal, step.terminal);
    checker.equal(
        location,
        "possible_actions_next",
        recorded.possible_actions_next.clone(),
        action_indices(possible_actions(map, step.next_cell)),
    );
    Some(step)
}

fn replay_gridworld_table(
    checker: &mut Checker,
    map_name: &str,
    recorded_map: &RecordedMap,
    noise_levels: &[f64],
    entries: &[GridWorldTableEntry],
) {
    let Ok(map) = grid_map_from_recorded(map_name, recorded_map) else {
        checker.fail(
            &MismatchLocation::File,
            "grid",
            map_name.to_owned(),
            "a valid map".to_owned(),
        );
        return;
    };
    check_recorded_map(
        checker,
        &MismatchLocation::File,
        map_name,
        recorded_map,
        &map,
    );

    // Entries may cover only part of the (open cell, action) pairs: a `public` split
    // leaves out its `holdout` entries. Each entry must be such a pair.
    for entry in entries {
        checker.steps_checked += 1;
        let entry_location = MismatchLocation::TableEntry {
            entry: entry.id.clone(),
            noise: None,
        };
        let cell = cell_of(entry.state);
        let kind = map.kind(cell);
        checker.equal(
            &entry_location,
            "state is an open, non-terminal cell",
            true,
            kind.is_some_and(|kind| !kind.is_terminal() && kind != CellKind::Blocked),
        );
        let possible = possible_actions(&map, cell);
        checker.equal(
            &entry_location,
            "possible_actions",
            entry.possible_actions.clone(),
            action_indices(possible),
        );
        let Some(action) = grid_action(entry.action) else {
            checker.fail(
                &entry_location,
                "action",
                entry.action.to_string(),
                "not an action (0 to 3)".to_owned(),
            );
            continue;
        };
        checker.equal(
            &entry_location,
            "intended_action_possible",
            entry.intended_action_possible,
            possible.contains(action),
        );

        let mut parsed_levels = Vec::new();
        for (noise_text, recorded) in &entry.by_noise {
            let location = MismatchLocation::TableEntry {
                entry: entry.id.clone(),
                noise: Some(noise_text.clone()),
            };
            let Ok(noise) = noise_text.parse::<f64>() else {
                checker.fail(
                    &location,
                    "by_noise key",
                    noise_text.clone(),
                    "a number".to_owned(),
                );
                continue;
            };
            parsed_levels.push(noise);
            check_noise_level(checker, &location, &map, cell, action, noise, recorded);
        }
        for level in noise_levels {
            checker.equal(
                &entry_location,
                &format!("by_noise has noise {level}"),
                true,
                parsed_levels.contains(level),
            );
        }
    }
}

fn check_noise_level(
    checker: &mut Checker,
    location: &MismatchLocation,
    map: &GridMap,
    cell: GridCell,
    action: GridAction,
    noise: f64,
    recorded: &RecordedNoiseLevel,
) {
    let expected = expected_step(map, cell, action, noise);
    checker.equal(
        location,
        "expected_step length",
        recorded.expected_step.len(),
        expected.len(),
    );
    for (index, (recorded, ours)) in recorded
        .expected_step
        .iter()
        .zip(expected.iter())
        .enumerate()
    {
        let field = |name: &str| format!("expected_step[{index}].{name}");
        checker.close(location, &field("p"), recorded.p, ours.probability);
        checker.equal(
            location,
            &field("next_state"),
            cell_of(recorded.next_state),
            ours.next_cell,
        );
        checker.bits(location, &field("reward"), recorded.reward, ours.reward);
        checker.equal(
            location,
            &field("terminal"),
            recorded.terminal,
            ours.terminal,
        );
        checker.equal(
            location,
            &field("possible_actions_next"),
            recorded.possible_actions_next.clone(),
            action_indices(ours.possible_actions_next),
        );
        checker.equal(
            location,
            &field("via_action"),
            recorded.via_action,
            ours.via_action.index() as i64,
        );
    }
    let sum: f64 = expected.iter().map(|outcome| outcome.probability).sum();
    checker.close(
        location,
        "expected_step_p_sum",
        recorded.expected_step_p_sum,
        sum,
    );

    // The distribution is a set of outcomes keyed by next cell: match them by cell.
    let distribution = step_distribution(map, cell, action, noise);
    checker.equal(
        location,
        "step_distribution length",
        recorded.step_distribution.len(),
        distribution.len(),
    );
    for recorded in &recorded.step_distribution {
        let next_cell = cell_of(recorded.next_state);
        let field = |name: &str| format!("step_distribution[{next_cell}].{name}");
        match distribution
            .iter()
            .find(|outcome| outcome.next_cell == next_cell)
        {
            Some(ours) => {
                checker.close(location, &field("p"), recorded.p, ours.probability);
                checker.bits(location, &field("reward"), recorded.reward, ours.reward);
                checker.equal(
                    location,
                    &field("terminal"),
                    recorded.terminal,
                    ours.terminal,
                );
            }
            None => checker.fail(
                location,
                &field("p"),
                float_text(recorded.p),
                "no such outcome".to_owned(),
            ),
        }
    }
}
