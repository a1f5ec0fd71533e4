//! The seeded kinds of reference file (`testdata/reference/README.md`, "Seeded data"): numpy's
//! generator call sequences (`numpy_generator`), single environments from `reset(seed=s)`
//! onwards (`seeded_single`) and vectors (`seeded_vector`), with no state written by hand.
//!
//! Each is replayed by id, through the public entry points a user calls: the generator through
//! [`NumpyGenerator`] and [`numpy_random`](rl_core::numpy_random); a single environment through
//! [`registry::make`] (a [`Simulator`](rl_core::Simulator)), seeded
//! and reset as Gymnasium's `reset(seed=...)` and `reset()`; a vector through
//! [`make_vector`] on one, two and three threads.

use std::num::NonZeroUsize;

use rand::{Rng, SeedableRng};
use rl_core::numpy_random::{choice, choice_weighted, integers, random, shuffle, uniform};
use rl_core::{Environment, Mode, NumpyGenerator, registry};
use rl_spaces::{AnyElement, AnySpace, FlattenSpace, JsonSpace};
use rl_wrappers::vector::{Autoreset, VectorOptions, make_vector};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::replay::{Checker, MismatchLocation, ReplayMode};

/// One seed's recorded calls of numpy's generator (`numpy_generator` files).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NumpyGeneratorCase {
    /// The case's identifier.
    pub id: String,
    /// The seed given to `np.random.default_rng`.
    pub seed: u64,
    /// PCG64's `state` and `inc` right after seeding, as decimal strings.
    pub initial_state: Map<String, Value>,
    /// The calls in order.
    pub calls: Vec<NumpyGeneratorCall>,
}

/// One recorded call: the method's name, its arguments and what numpy returned.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NumpyGeneratorCall {
    /// `random`, `uniform`, `integers`, `choice`, `shuffle` or `random_raw`.
    pub method: String,
    /// The keyword arguments.
    pub args: Map<String, Value>,
    /// numpy's result.
    pub result: Value,
}

/// An observation as a seeded file writes it, read as its flat values: a number (a `Discrete`
/// observation) or a list, nested or not, of numbers (a Box, a tuple of integers).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Value")]
pub struct Flat(pub Vec<f64>);

impl TryFrom<Value> for Flat {
    type Error = String;

    fn try_from(value: Value) -> Result<Self, String> {
        fn push(value: &Value, out: &mut Vec<f64>) -> Result<(), String> {
            match value {
                Value::Number(number) => {
                    out.push(number.as_f64().ok_or("a number beyond float64")?);
                    Ok(())
                }
                Value::Array(items) => items.iter().try_for_each(|item| push(item, out)),
                other => Err(format!(
                    "expected a number or a list of numbers, found {other}"
                )),
            }
        }
        let mut out = Vec::new();
        push(&value, &mut out)?;
        Ok(Flat(out))
    }
}

/// One segment of a seeded single-environment trace: a reset and the steps after it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SeededSegment {
    /// `reset(seed=s)`, or `None` for `reset()`, which continues the generator's stream.
    pub reset_seed: Option<u64>,
    /// The observation `reset` returned, flat.
    pub initial_obs: Flat,
    /// The actions, as JSON (an integer, or `[a]` for a continuous action).
    pub actions: Vec<Value>,
    /// What each action gave.
    pub steps: Vec<SeededStep>,
}

/// One recorded step of a seeded single-environment trace.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SeededStep {
    /// The observation, flat.
    pub obs: Flat,
    /// The reward.
    pub reward: f64,
    /// Whether the episode terminated.
    pub terminated: bool,
    /// Whether the time limit truncated it.
    pub truncated: bool,
    /// Taxi's `info["action_mask"]`: 1 for each action that changes the state, 0 elsewhere.
    #[serde(default)]
    pub action_mask: Option<Vec<i64>>,
    /// Every other recorded entry: an info entry of the step (the toy text's `prob`), compared
    /// with the environment's `info[key]` (numbers bit for bit, arrays and objects entry by
    /// entry), so that a domain's recorded infos need no field of their own here.
    #[serde(flatten)]
    pub infos: Map<String, Value>,
}

/// Whether a recorded JSON value and an actual one agree: numbers bit for bit as float64
/// (integers exactly), arrays and objects entry by entry, anything else by equality.
fn json_matches(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Number(expected), Value::Number(actual)) => {
            match (expected.as_i64(), actual.as_i64()) {
                (Some(expected), Some(actual)) => expected == actual,
                _ => match (expected.as_f64(), actual.as_f64()) {
                    (Some(expected), Some(actual)) => expected.to_bits() == actual.to_bits(),
                    _ => false,
                },
            }
        }
        (Value::Array(expected), Value::Array(actual)) => {
            expected.len() == actual.len()
                && expected.iter().zip(actual).all(|(e, a)| json_matches(e, a))
        }
        (Value::Object(expected), Value::Object(actual)) => {
            expected.len() == actual.len()
                && expected
                    .iter()
                    .all(|(key, e)| actual.get(key).is_some_and(|a| json_matches(e, a)))
        }
        _ => expected == actual,
    }
}

/// A seeded single-environment trace (`seeded_single` files).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SeededSingleTrace {
    /// The trace's identifier.
    pub id: String,
    /// The Gymnasium id, which is also the registry's.
    pub env_id: String,
    /// `gym.make`'s keyword arguments, read as the id's JSON parameters.
    #[serde(default)]
    pub make_kwargs: Map<String, Value>,
    /// The segments in order, on one environment.
    pub segments: Vec<SeededSegment>,
}

/// One recorded step of a seeded vector trace.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SeededVectorStep {
    /// Each environment's observation, flat.
    pub obs: Vec<Flat>,
    /// Each environment's reward.
    pub rewards: Vec<f64>,
    /// Each environment's termination flag.
    pub terminated: Vec<bool>,
    /// Each environment's truncation flag.
    pub truncated: Vec<bool>,
    /// Same-step autoreset: which environments' episodes ended on this step.
    #[serde(default)]
    pub final_obs_mask: Option<Vec<bool>>,
    /// Same-step autoreset: the observation that ended each episode (`None` elsewhere).
    #[serde(default)]
    pub final_obs: Option<Vec<Option<Flat>>>,
}

/// A seeded vector trace (`seeded_vector` files): `gym.make_vec(env_id, num_envs)`,
/// `reset(seed=seed)`, then the actions.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SeededVectorTrace {
    /// The trace's identifier.
    pub id: String,
    /// The Gymnasium id, which is also the registry's.
    pub env_id: String,
    /// `gym.make_vec`'s keyword arguments for the environments.
    #[serde(default)]
    pub make_kwargs: Map<String, Value>,
    /// The number of environments.
    pub num_envs: usize,
    /// `NextStep` or `SameStep`.
    pub autoreset_mode: String,
    /// The seed of the first reset: environment `i` gets `seed + i`.
    pub seed: u64,
    /// The observations of the first reset.
    pub initial_obs: Vec<Flat>,
    /// One action per environment per step.
    pub actions: Vec<Vec<Value>>,
    /// What each step gave.
    pub steps: Vec<SeededVectorStep>,
}

/// The flat values of an observation, as the seeded files write them: an integer as itself, an
/// array's entries in C order, a tuple's parts in order.
fn flat_values(element: &AnyElement, out: &mut Vec<f64>) {
    match element {
        AnyElement::Int(value) => out.push(*value as f64),
        AnyElement::Array(array) => out.extend(array.to_f64_vec()),
        AnyElement::Tuple(parts) => parts.iter().for_each(|part| flat_values(part, out)),
        AnyElement::Dict(entries) => entries.values().for_each(|part| flat_values(part, out)),
        // No seeded file records another kind of observation.
        _ => out.push(f64::NAN),
    }
}

/// The observation a vector's flat row stands for in `space`, as flat values: the row itself
/// for a Box, the integer of a Discrete's one-hot row, the parts of a Tuple.
fn row_values(space: &AnySpace, row: ndarray::ArrayView1<'_, f32>) -> Vec<f64> {
    let flat: Vec<f64> = row.iter().map(|&x| f64::from(x)).collect();
    match space.unflatten::<f64>(&flat) {
        Ok(element) => {
            let mut values = Vec::new();
            flat_values(&element, &mut values);
            values
        }
        Err(_) => flat,
    }
}

/// The action a recorded JSON action stands for in `space`, kept even when it lies outside the
/// space (a continuous action beyond the bounds, which Gymnasium's Pendulum and
/// MountainCarContinuous clip, and so do ours: `Domain::accepts_action`).
fn recorded_action(space: &AnySpace, value: &Value) -> Option<AnyElement> {
    if let Ok(action) = space.element_from_json(value) {
        return Some(action);
    }
    let values: Vec<f32> = value
        .as_array()?
        .iter()
        .map(|entry| entry.as_f64().map(|x| x as f32))
        .collect::<Option<_>>()?;
    let len = values.len();
    ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[len]), values)
        .ok()
        .map(AnyElement::from)
}

/// Compares a flat observation bit for bit, entry by entry.
fn check_observation(
    checker: &mut Checker,
    location: &MismatchLocation,
    field: &str,
    expected: &[f64],
    actual: &[f64],
) {
    checker.equal(
        location,
        &format!("{field} length"),
        expected.len(),
        actual.len(),
    );
    for (index, (expected, actual)) in expected.iter().zip(actual).enumerate() {
        checker.bits(location, &format!("{field}[{index}]"), *expected, *actual);
    }
}

/// Replays every call of one generator case.
pub(crate) fn replay_numpy_case(checker: &mut Checker, case: &NumpyGeneratorCase) {
    let location = MismatchLocation::Trace {
        trace: case.id.clone(),
    };
    let mut rng = NumpyGenerator::seed_from_u64(case.seed);
    for (field, actual) in [("state", rng.state()), ("inc", rng.inc())] {
        let expected = case.initial_state.get(field).and_then(Value::as_str);
        checker.equal(
            &location,
            &format!("initial_state.{field}"),
            expected.map(str::to_owned),
            Some(actual.to_string()),
        );
    }
    for (index, call) in case.calls.iter().enumerate() {
        let location = MismatchLocation::Step {
            trace: case.id.clone(),
            t: index,
            mode: ReplayMode::Generator,
        };
        match numpy_call(&mut rng, &call.method, &call.args) {
            Some(result) => checker.equal(&location, &call.method, &call.result, &result),
            None => checker.fail(
                &location,
                &call.method,
                format!("{} with {:?}", call.result, call.args),
                "a call this crate cannot make".to_owned(),
            ),
        }
        checker.count_step();
    }
}

/// The most values one recorded call may ask for (`size`, `shuffle`'s `n`): a count read from
/// the file sizes an allocation, so a larger one is a call this replay does not make (a
/// `size` of 2^40 aborted on allocation; found by rl-fuzz's `trace` target). The recorded
/// calls ask for a few dozen.
const MAX_CALL_VALUES: i64 = 1 << 20;

/// One recorded call on `rng`, its result in the file's JSON form; `None` for a method or
/// arguments this replay does not know.
fn numpy_call(rng: &mut NumpyGenerator, method: &str, args: &Map<String, Value>) -> Option<Value> {
    let float = |key: &str| args.get(key).and_then(Value::as_f64);
    let integer = |key: &str| args.get(key).and_then(Value::as_i64);
    // A count of values to make: at most MAX_CALL_VALUES.
    let count = |key: &str| integer(key).filter(|count| *count <= MAX_CALL_VALUES);
    Some(match method {
        "random" => random(rng).into(),
        "random_raw" => rng.next_u64().into(),
        "uniform" => match (args.get("low")?, args.get("high")?) {
            (Value::Array(low), Value::Array(high)) => low
                .iter()
                .zip(high)
                .map(|(low, high)| Some(uniform(rng, low.as_f64()?, high.as_f64()?).into()))
                .collect::<Option<Vec<Value>>>()?
                .into(),
            _ => uniform(rng, float("low")?, float("high")?).into(),
        },
        "integers" => integers(rng, integer("low")?, integer("high")?)?.into(),
        "choice" => {
            let n = usize::try_from(integer("a")?).ok()?;
            match args.get("p") {
                None => choice(rng, n)?.into(),
                Some(p) => {
                    let p: Vec<f64> = p
                        .as_array()?
                        .iter()
                        .map(Value::as_f64)
                        .collect::<Option<_>>()?;
                    if p.len() != n {
                        return None;
                    }
                    (0..count("size")?)
                        .map(|_| choice_weighted(rng, &p).map(Value::from))
                        .collect::<Option<Vec<Value>>>()?
                        .into()
                }
            }
        }
        "shuffle" => {
            let mut items: Vec<i64> = (0..count("n")?).collect();
            shuffle(rng, &mut items);
            items.into()
        }
        _ => return None,
    })
}

/// Replays a seeded single-environment trace through the registry's environment of its id.
pub(crate) fn replay_seeded_single(checker: &mut Checker, trace: &SeededSingleTrace) {
    let trace_location = MismatchLocation::Trace {
        trace: trace.id.clone(),
    };
    let params = Value::Object(trace.make_kwargs.clone());
    let mut env = match registry::make(&trace.env_id, Some(&params)) {
        Ok(env) => env,
        Err(error) => {
            checker.fail(
                &trace_location,
                "environment",
                format!("{} with {params}", trace.env_id),
                error.to_string(),
            );
            return;
        }
    };
    let action_space = env.action_space().clone();
    let mut t = 0;
    for (segment_index, segment) in trace.segments.iter().enumerate() {
        if let Some(seed) = segment.reset_seed {
            env.seed(seed);
        }
        let segment_location = MismatchLocation::Trace {
            trace: format!("{}, segment {segment_index}", trace.id),
        };
        match env.reset(Mode::Training) {
            Ok(observation) => {
                let mut actual = Vec::new();
                flat_values(&observation, &mut actual);
                check_observation(
                    checker,
                    &segment_location,
                    "initial_obs",
                    &segment.initial_obs.0,
                    &actual,
                );
            }
            Err(error) => {
                checker.fail(
                    &segment_location,
                    "reset",
                    "an observation".into(),
                    error.to_string(),
                );
                return;
            }
        }
        for (action, recorded) in segment.actions.iter().zip(&segment.steps) {
            let location = MismatchLocation::Step {
                trace: format!("{}, segment {segment_index}", trace.id),
                t,
                mode: ReplayMode::SeededSimulator,
            };
            t += 1;
            checker.count_step();
            let Some(action) = recorded_action(&action_space, action) else {
                checker.fail(&location, "action", action.to_string(), "unreadable".into());
                return;
            };
            match env.step(&action) {
                Ok(outcome) => {
                    let mut actual = Vec::new();
                    flat_values(&outcome.observation, &mut actual);
                    check_observation(checker, &location, "obs", &recorded.obs.0, &actual);
                    checker.reward_and_flags(
                        &location,
                        (recorded.reward, recorded.terminated, recorded.truncated),
                        &outcome,
                    );
                    for (key, expected) in &recorded.infos {
                        let field = format!("info[{key:?}]");
                        match outcome.info.get(key) {
                            Some(actual) => checker.record(
                                json_matches(expected, &actual.to_json()),
                                &location,
                                &field,
                                expected.to_string(),
                                actual.to_string(),
                            ),
                            None => checker.fail(
                                &location,
                                &field,
                                expected.to_string(),
                                "no such entry".into(),
                            ),
                        }
                    }
                    if let Some(mask) = &recorded.action_mask {
                        let actual: Vec<i64> = (0..mask.len())
                            .map(|index| {
                                let action = AnyElement::Int(index as i64);
                                i64::from(env.is_applicable(&action))
                            })
                            .collect();
                        checker.equal(&location, "action_mask", mask.clone(), actual);
                    }
                }
                Err(error) => {
                    checker.fail(&location, "step", "a step".into(), error.to_string());
                    return;
                }
            }
        }
    }
}

/// Replays a seeded vector trace through [`make_vector`] on one to three threads.
pub(crate) fn replay_seeded_vector(checker: &mut Checker, trace: &SeededVectorTrace) {
    let trace_location = MismatchLocation::Trace {
        trace: trace.id.clone(),
    };
    let autoreset = match trace.autoreset_mode.as_str() {
        "NextStep" => Autoreset::NextStep,
        "SameStep" => Autoreset::SameStep,
        other => {
            checker.fail(
                &trace_location,
                "autoreset_mode",
                other.to_owned(),
                "NextStep or SameStep".into(),
            );
            return;
        }
    };
    let Some(count) = NonZeroUsize::new(trace.num_envs) else {
        checker.fail(&trace_location, "num_envs", "0".into(), "at least 1".into());
        return;
    };
    let params = Value::Object(trace.make_kwargs.clone());
    // The observation space of one environment, to read a vector's flat rows back as the
    // observations Gymnasium batches (a Discrete observation's one-hot row is its integer).
    let observation_space = match registry::build(&trace.env_id, Some(&params)) {
        Ok(domain) => domain.environment(0).observation_space().clone(),
        Err(error) => {
            checker.fail(
                &trace_location,
                "environment",
                trace.env_id.clone(),
                error.to_string(),
            );
            return;
        }
    };
    for threads in 1..=3usize.min(trace.num_envs) {
        let options = VectorOptions::new()
            .with_autoreset(autoreset)
            .with_threads(NonZeroUsize::new(threads).unwrap_or(NonZeroUsize::MIN));
        let mut vector = match make_vector::<AnyElement, f32>(
            &trace.env_id,
            Some(&params),
            count,
            trace.seed,
            options,
        ) {
            Ok(vector) => vector,
            Err(error) => {
                checker.fail(
                    &trace_location,
                    "vector",
                    trace.env_id.clone(),
                    error.to_string(),
                );
                return;
            }
        };
        let mode = ReplayMode::Vector { threads };
        if let Err(error) = vector.reset(Mode::Training) {
            checker.fail(
                &trace_location,
                "reset",
                "observations".into(),
                error.to_string(),
            );
            return;
        }
        let initial = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: 0,
            mode,
        };
        for (i, expected) in trace.initial_obs.iter().enumerate() {
            let actual = row_values(&observation_space, vector.observations().row(i));
            check_observation(
                checker,
                &initial,
                &format!("initial_obs[{i}]"),
                &expected.0,
                &actual,
            );
        }
        let space = vector.action_space().clone();
        for (t, (actions, recorded)) in trace.actions.iter().zip(&trace.steps).enumerate() {
            let location = MismatchLocation::Step {
                trace: trace.id.clone(),
                t,
                mode,
            };
            if threads == 1 {
                checker.count_step();
            }
            let Some(actions) = actions
                .iter()
                .map(|action| recorded_action(&space, action))
                .collect::<Option<Vec<_>>>()
            else {
                checker.fail(
                    &location,
                    "actions",
                    format!("{actions:?}"),
                    "unreadable".into(),
                );
                return;
            };
            if let Err(error) = vector.step(&actions) {
                checker.fail(&location, "step", "a step".into(), error.to_string());
                return;
            }
            for i in 0..trace.num_envs {
                let actual = row_values(&observation_space, vector.observations().row(i));
                let expected = recorded
                    .obs
                    .get(i)
                    .map_or(&[][..], |flat| flat.0.as_slice());
                check_observation(checker, &location, &format!("obs[{i}]"), expected, &actual);
                if let (Some(&reward), Some(&actual)) =
                    (recorded.rewards.get(i), vector.rewards().get(i))
                {
                    checker.bits(&location, &format!("rewards[{i}]"), reward, actual);
                }
                checker.equal(
                    &location,
                    &format!("terminated[{i}]"),
                    recorded.terminated.get(i),
                    vector.terminated().get(i),
                );
                checker.equal(
                    &location,
                    &format!("truncated[{i}]"),
                    recorded.truncated.get(i),
                    vector.truncated().get(i),
                );
            }
            if autoreset == Autoreset::SameStep {
                let expected_mask = recorded
                    .final_obs_mask
                    .clone()
                    .unwrap_or_else(|| vec![false; trace.num_envs]);
                checker.equal(
                    &location,
                    "final_obs_mask",
                    expected_mask.as_slice(),
                    vector.final_mask(),
                );
                if let Some(final_obs) = &recorded.final_obs {
                    for (i, expected) in final_obs.iter().enumerate() {
                        if let Some(expected) = expected {
                            let actual =
                                row_values(&observation_space, vector.final_observations().row(i));
                            check_observation(
                                checker,
                                &location,
                                &format!("final_obs[{i}]"),
                                &expected.0,
                                &actual,
                            );
                        }
                    }
                }
            }
        }
    }
}
