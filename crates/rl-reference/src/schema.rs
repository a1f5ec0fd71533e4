//! The reference files' schema and their loading: the typed content of every file kind
//! (Gymnasium traces, GridWorld traces and transition tables) and the resolution of a file's
//! domain, variant, `make_kwargs`, `unwrapped_overrides` and time limit into `rl-domains`
//! parameters.
//!
//! Reading is lenient about keys it does not use, so that files from newer generators still
//! load; what the replay needs must be present and well formed, and an error names the JSON
//! path of the bad value.

use std::collections::BTreeMap;
use std::path::Path;

use rl_domains::Error;
use rl_domains::acrobot::{AcrobotDynamics, AcrobotParams};
use rl_domains::cartpole::{CartPoleParams, Integrator};
use rl_domains::gridworld::{GridMap, GridWorldParams};
use rl_domains::mountain_car::MountainCarParams;
use rl_domains::mountain_car_continuous::{MountainCarContinuousParams, StatePrecision};
use rl_domains::pendulum::PendulumParams;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::ReferenceError;
use crate::seeded::{NumpyGeneratorCase, SeededSingleTrace, SeededVectorTrace};
use crate::space_samples::SpaceSampleCase;

/// The reference schema version this module reads.
pub const SCHEMA_VERSION: u64 = 1;

/// The tolerance for GridWorld table probabilities, as the reference README prescribes.
pub const PROBABILITY_TOLERANCE: f64 = 1e-12;

/// The keys every reference file shares, kept as read; keys this module does not know are ignored.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Envelope {
    /// The schema version (1).
    pub schema_version: u64,
    /// The kind of a seeded file (`numpy_generator`, `seeded_single`, `seeded_vector`); absent
    /// from the trace and table files of one domain.
    #[serde(default)]
    pub kind: Option<String>,
    /// `CartPole`, `MountainCar`, `MountainCarContinuous`, `Acrobot`, `Pendulum` or
    /// `GridWorld`; empty in a seeded file, whose traces name their ids.
    #[serde(default)]
    pub domain: String,
    /// The Gymnasium id, absent for GridWorld.
    #[serde(default)]
    pub env_id: Option<String>,
    /// The variant: `euler`, `semi-implicit`, `sutton_barto_reward`, `default`,
    /// `deterministic` or `transition_table`; empty in a seeded file.
    #[serde(default)]
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
    /// numpy's generator: each seed's calls and results (`numpy_generator`).
    NumpyGenerator {
        /// One case per seed.
        cases: Vec<NumpyGeneratorCase>,
    },
    /// Single environments from `reset(seed=s)` onwards (`seeded_single`).
    SeededSingle {
        /// The traces.
        traces: Vec<SeededSingleTrace>,
    },
    /// Vectors from `reset(seed=s)` onwards (`seeded_vector`).
    SeededVector {
        /// The traces.
        traces: Vec<SeededVectorTrace>,
    },
    /// minigrid's single environments from `reset(seed=s)` onwards (`seeded_minigrid`).
    SeededMiniGrid {
        /// The traces.
        traces: Vec<crate::minigrid::MiniGridTrace>,
    },
    /// Seeded spaces and their samples (`seeded_space_samples`).
    SeededSpaceSamples {
        /// One case per seeded space.
        cases: Vec<SpaceSampleCase>,
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
            ReferenceContent::NumpyGenerator { cases } => {
                cases.iter().map(|case| case.calls.len()).sum()
            }
            ReferenceContent::SeededSingle { traces } => traces
                .iter()
                .flat_map(|trace| &trace.segments)
                .map(|segment| segment.steps.len())
                .sum(),
            ReferenceContent::SeededVector { traces } => {
                traces.iter().map(|trace| trace.steps.len()).sum()
            }
            ReferenceContent::SeededMiniGrid { traces } => traces
                .iter()
                .flat_map(|trace| &trace.segments)
                .map(|segment| segment.steps.len())
                .sum(),
            ReferenceContent::SeededSpaceSamples { cases } => {
                cases.iter().map(|case| case.draws.len()).sum()
            }
        }
    }
}

/// The largest reference file [`load_reference_file`] reads, in bytes: 32 MiB, nine times
/// the largest file the project records (`acrobot_v1.json`, 3.7 MB). Parsing holds the file as
/// a JSON tree about 25 times its size, so the cap keeps `rl replay` under 1 GB whatever it is
/// given.
pub const REFERENCE_FILE_SIZE_LIMIT: u64 = 32 << 20;

/// Reads and resolves a reference file (see [`parse_reference`]). Only a regular file of at
/// most [`REFERENCE_FILE_SIZE_LIMIT`] bytes is read: a named pipe, device or directory, or a
/// larger file, is refused before it is opened (an error of kind
/// [`InvalidInput`](std::io::ErrorKind::InvalidInput) that says which), so that a pipe or
/// `/dev/zero` can never block the reader or exhaust its memory.
pub fn load_reference_file(path: impl AsRef<Path>) -> Result<ReferenceFile, ReferenceError> {
    let path = path.as_ref();
    let io_error = |source| ReferenceError::Io {
        path: path.to_path_buf(),
        source,
    };
    let refused = |reason: String| {
        io_error(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            reason,
        ))
    };
    let metadata = std::fs::metadata(path).map_err(io_error)?;
    if !metadata.is_file() {
        return Err(refused(
            "not a regular file; a reference file must be a regular file".to_owned(),
        ));
    }
    if metadata.len() > REFERENCE_FILE_SIZE_LIMIT {
        return Err(refused(format!(
            "{} bytes; a reference file has at most {REFERENCE_FILE_SIZE_LIMIT}",
            metadata.len()
        )));
    }
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(
            std::fs::File::open(path).map_err(io_error)?,
            REFERENCE_FILE_SIZE_LIMIT + 1,
        ),
        &mut text,
    )
    .map_err(io_error)?;
    if text.len() as u64 > REFERENCE_FILE_SIZE_LIMIT {
        return Err(refused(format!(
            "grew past {REFERENCE_FILE_SIZE_LIMIT} bytes while it was read; a reference file has at most that"
        )));
    }
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse_reference(&text, &name)
}

/// The parts of a file read in the first pass; keys not listed here are ignored.
#[derive(Deserialize)]
struct RawFile {
    #[serde(default)]
    traces: Option<Value>,
    #[serde(default)]
    cases: Option<Value>,
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
/// Fails with a typed error naming what it cannot handle: JSON that is not of the schema
/// (with `name` and the JSON path of the bad value), JSON of another kind
/// ([`ReferenceError::NotATrace`]), an unknown domain or variant, an override that does not
/// map onto the parameters, a missing section.
pub fn parse_reference(text: &str, name: &str) -> Result<ReferenceFile, ReferenceError> {
    let document: Value = serde_json::from_str(text).map_err(|source| ReferenceError::Json {
        file: name.to_owned(),
        json_path: ".".to_owned(),
        source,
    })?;
    let kind = document.get("kind").and_then(Value::as_str);
    let is_trace = match kind {
        Some(kind) => SEEDED_KINDS.contains(&kind),
        None => document.as_object().is_some_and(|object| {
            ["domain", "traces", "entries"]
                .iter()
                .any(|key| object.contains_key(*key))
        }),
    };
    if !is_trace {
        return Err(ReferenceError::NotATrace {
            file: name.to_owned(),
        });
    }
    // The envelope is read from the small keys alone (a flattened field would lose the JSON
    // path of its errors), the bulky sections afterwards.
    let small_keys: Map<String, Value> = document
        .as_object()
        .map(|object| {
            object
                .iter()
                .filter(|(key, _)| !["traces", "entries", "maps", "cases"].contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect()
        })
        .unwrap_or_default();
    let envelope: Envelope = typed_value(Value::Object(small_keys), name, "")?;
    let raw: RawFile = typed_value(document, name, "")?;
    if envelope.schema_version != SCHEMA_VERSION {
        return Err(ReferenceError::UnsupportedSchemaVersion {
            version: envelope.schema_version,
        });
    }
    let content = match envelope.kind.as_deref() {
        Some("numpy_generator") => ReferenceContent::NumpyGenerator {
            cases: typed_section(raw.cases, name, "cases")?,
        },
        Some("seeded_single") => ReferenceContent::SeededSingle {
            traces: typed_section(raw.traces, name, "traces")?,
        },
        Some("seeded_vector") => ReferenceContent::SeededVector {
            traces: typed_section(raw.traces, name, "traces")?,
        },
        Some("seeded_minigrid") => ReferenceContent::SeededMiniGrid {
            traces: typed_section(raw.traces, name, "traces")?,
        },
        Some("seeded_space_samples") => ReferenceContent::SeededSpaceSamples {
            cases: typed_section(raw.cases, name, "cases")?,
        },
        _ => domain_content(&envelope, raw, name)?,
    };
    Ok(ReferenceFile {
        name: name.to_owned(),
        envelope,
        content,
    })
}

/// The kinds of seeded file this crate replays (`testdata/reference/README.md`, "Seeded
/// data"); a file of another kind is not a trace ([`ReferenceError::NotATrace`]).
pub const SEEDED_KINDS: [&str; 5] = [
    "numpy_generator",
    "seeded_single",
    "seeded_vector",
    "seeded_minigrid",
    "seeded_space_samples",
];

/// The content of a trace or table file of one domain.
fn domain_content(
    envelope: &Envelope,
    raw: RawFile,
    name: &str,
) -> Result<ReferenceContent, ReferenceError> {
    Ok(match envelope.domain.as_str() {
        "CartPole" => ReferenceContent::CartPole {
            params: cartpole_params(envelope)?,
            traces: typed_section(raw.traces, name, "traces")?,
        },
        "MountainCar" => ReferenceContent::MountainCar {
            params: mountain_car_params(envelope)?,
            traces: typed_section(raw.traces, name, "traces")?,
        },
        "MountainCarContinuous" => ReferenceContent::MountainCarContinuous {
            params: mountain_car_continuous_params(envelope)?,
            traces: typed_section(raw.traces, name, "traces")?,
        },
        "Acrobot" => ReferenceContent::Acrobot {
            params: acrobot_params(envelope)?,
            traces: typed_section(raw.traces, name, "traces")?,
        },
        "Pendulum" => ReferenceContent::Pendulum {
            params: pendulum_params(envelope)?,
            traces: typed_section(raw.traces, name, "traces")?,
        },
        "GridWorld" => gridworld_content(envelope, raw, name)?,
        _ => {
            return Err(ReferenceError::UnknownDomain {
                domain: envelope.domain.clone(),
            });
        }
    })
}

/// Deserializes `value`, found at `prefix` in the file `file`, into its typed form; an error
/// names the JSON path of the bad value (`prefix` followed by the path inside `value`).
fn typed_value<T: DeserializeOwned>(
    value: Value,
    file: &str,
    prefix: &str,
) -> Result<T, ReferenceError> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let inner = error.path().to_string();
        let json_path = match (prefix, inner.as_str()) {
            ("", inner) => inner.to_owned(),
            (prefix, ".") => prefix.to_owned(),
            (prefix, inner) if inner.starts_with('[') => format!("{prefix}{inner}"),
            (prefix, inner) => format!("{prefix}.{inner}"),
        };
        ReferenceError::Json {
            file: file.to_owned(),
            json_path,
            source: error.into_inner(),
        }
    })
}

/// Deserializes a required section (`traces` or `entries`) of the file `file`.
fn typed_section<T: DeserializeOwned>(
    section: Option<Value>,
    file: &str,
    name: &str,
) -> Result<T, ReferenceError> {
    let value = section.ok_or_else(|| ReferenceError::MissingField {
        field: format!("the `{name}` list"),
    })?;
    typed_value(value, file, name)
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
    mountain_car_kwargs(
        envelope,
        &mut params.goal_velocity,
        &mut params.max_episode_steps,
    )?;
    number_overrides(
        envelope,
        &mut [
            ("min_position", &mut params.min_position),
            ("max_position", &mut params.max_position),
            ("max_speed", &mut params.max_speed),
            ("goal_position", &mut params.goal_position),
            ("goal_velocity", &mut params.goal_velocity),
            ("force", &mut params.force),
            ("gravity", &mut params.gravity),
        ],
    )?;
    params.max_episode_steps = resolve_time_limit(envelope, params.max_episode_steps)?;
    finish_params(params, MountainCarParams::validate)
}

fn mountain_car_continuous_params(
    envelope: &Envelope,
) -> Result<MountainCarContinuousParams, ReferenceError> {
    let mut params = MountainCarContinuousParams::default();
    mountain_car_kwargs(
        envelope,
        &mut params.goal_velocity,
        &mut params.max_episode_steps,
    )?;
    number_overrides(
        envelope,
        &mut [
            ("min_action", &mut params.min_action),
            ("max_action", &mut params.max_action),
            ("min_position", &mut params.min_position),
            ("max_position", &mut params.max_position),
            ("max_speed", &mut params.max_speed),
            ("goal_position", &mut params.goal_position),
            ("goal_velocity", &mut params.goal_velocity),
            ("power", &mut params.power),
        ],
    )?;
    params.max_episode_steps = resolve_time_limit(envelope, params.max_episode_steps)?;
    finish_params(params, MountainCarContinuousParams::validate)
}

/// The variant and `make_kwargs` of both MountainCar ids, which take the same arguments:
/// `goal_velocity` and `max_episode_steps` (`render_mode` is ignored); the variant is `default`.
fn mountain_car_kwargs(
    envelope: &Envelope,
    goal_velocity: &mut f64,
    max_episode_steps: &mut u64,
) -> Result<(), ReferenceError> {
    if envelope.variant != "default" {
        return Err(unknown_variant(envelope));
    }
    for (key, value) in &envelope.make_kwargs {
        const SECTION: &str = "make_kwargs";
        match key.as_str() {
            "goal_velocity" => *goal_velocity = number(SECTION, key, value)?,
            "max_episode_steps" => *max_episode_steps = step_limit(SECTION, key, value)?,
            "render_mode" => {}
            _ => return Err(unsupported(SECTION, key, value)),
        }
    }
    Ok(())
}

/// The `unwrapped_overrides` of a domain whose overridable attributes are all numbers: each
/// key names one of `fields` (by Gymnasium's attribute name) and sets it to its number.
fn number_overrides(
    envelope: &Envelope,
    fields: &mut [(&str, &mut f64)],
) -> Result<(), ReferenceError> {
    const SECTION: &str = "unwrapped_overrides";
    for (key, value) in &envelope.unwrapped_overrides {
        let Some((_, field)) = fields.iter_mut().find(|(name, _)| name == key) else {
            return Err(unsupported(SECTION, key, value));
        };
        **field = number(SECTION, key, value)?;
    }
    Ok(())
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
    number_overrides(envelope, &mut [("g", &mut params.g)])?;
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
    file: &str,
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
            let traces: Vec<GridWorldTrace> = typed_section(raw.traces, file, "traces")?;
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
                entries: typed_section(raw.entries, file, "entries")?,
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
