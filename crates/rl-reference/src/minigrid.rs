//! minigrid 3.2.0's seeded traces (`seeded_minigrid` files, `testdata/reference/README.md`):
//! each trace replayed from its seeds through rl-object-grid's `MiniGrid` in a `Simulator`,
//! comparing the full grid after each reset and every observation (image, direction,
//! mission), reward (bit for bit), flag, the agent's position and direction and the carried
//! object.

use std::fmt::Write as _;

use rl_core::{Environment, Mode, Simulator};
use rl_object_grid::{MiniGrid, MiniGridObservation, MiniGridState};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::replay::{Checker, MismatchLocation, ReplayMode};

/// An observation as the traces record it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MiniGridRecordedObservation {
    /// The egocentric image's bytes (`view x view x 3`, numpy's C order) as lower-case hex.
    pub image: String,
    /// The agent's direction, 0 to 3.
    pub direction: i64,
    /// The mission.
    pub mission: String,
}

/// One recorded step.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MiniGridRecordedStep {
    /// The observation after the step.
    pub obs: MiniGridRecordedObservation,
    /// The reward.
    pub reward: f64,
    /// Whether the episode terminated.
    pub terminated: bool,
    /// Whether it was truncated.
    pub truncated: bool,
    /// The agent's position `[x, y]` after the step.
    pub agent_pos: [i64; 2],
    /// The agent's direction after the step.
    pub agent_dir: i64,
    /// The carried object's `encode()`, or `None`.
    pub carrying: Option<[i64; 3]>,
}

/// One reset and the steps after it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MiniGridSegment {
    /// `reset(seed=s)`, or `None` for `reset()` (the generator's stream goes on).
    pub reset_seed: Option<u64>,
    /// The full grid's `encode()` right after the reset, as hex.
    pub grid: String,
    /// `[width, height]`.
    pub grid_size: [usize; 2],
    /// The agent's position after the reset.
    pub agent_pos: [i64; 2],
    /// The agent's direction after the reset.
    pub agent_dir: i64,
    /// The reset's observation.
    pub initial_obs: MiniGridRecordedObservation,
    /// The actions, one per step.
    pub actions: Vec<i64>,
    /// The recorded steps.
    pub steps: Vec<MiniGridRecordedStep>,
}

/// A seeded trace of one minigrid id.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MiniGridTrace {
    /// The trace's identifier.
    pub id: String,
    /// minigrid's id, which is also rl-object-grid's.
    pub env_id: String,
    /// `gym.make`'s keyword arguments (every trace of the file has none).
    #[serde(default)]
    pub make_kwargs: Map<String, Value>,
    /// The environment's episode limit.
    pub max_steps: u64,
    /// The segments in order, on one environment.
    pub segments: Vec<MiniGridSegment>,
}

/// Bytes as lower-case hex, as the traces write them.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// The agent's position as the traces write it.
fn position(state: &MiniGridState) -> [i64; 2] {
    let position = state.agent_position();
    [position.x as i64, position.y as i64]
}

/// Compares an observation with the recorded one.
fn check_observation(
    checker: &mut Checker,
    location: &MismatchLocation,
    field: &str,
    recorded: &MiniGridRecordedObservation,
    ours: &MiniGridObservation,
) {
    checker.equal(
        location,
        &format!("{field}.image"),
        recorded.image.clone(),
        hex(&ours.image),
    );
    checker.equal(
        location,
        &format!("{field}.direction"),
        recorded.direction,
        i64::from(ours.direction),
    );
    checker.equal(
        location,
        &format!("{field}.mission"),
        recorded.mission.as_str(),
        &*ours.mission,
    );
}

/// Replays one trace: a mismatch for an id this crate does not know, keyword arguments it does
/// not take, or any value that differs.
pub(crate) fn replay_minigrid_trace(checker: &mut Checker, trace: &MiniGridTrace) {
    let trace_location = MismatchLocation::Trace {
        trace: trace.id.clone(),
    };
    if !trace.make_kwargs.is_empty() {
        checker.fail(
            &trace_location,
            "make_kwargs",
            Value::Object(trace.make_kwargs.clone()).to_string(),
            "replayed with the id's defaults only".into(),
        );
        return;
    }
    let domain = match MiniGrid::for_id(&trace.env_id) {
        Ok(domain) => domain,
        Err(error) => {
            checker.fail(
                &trace_location,
                "env_id",
                trace.env_id.clone(),
                error.to_string(),
            );
            return;
        }
    };
    checker.equal(
        &trace_location,
        "max_steps",
        trace.max_steps,
        domain.max_steps(),
    );
    let (width, height) = domain.grid_size();
    let mut env = Simulator::new(domain, 0);
    let mut t = 0;
    for (index, segment) in trace.segments.iter().enumerate() {
        let segment_name = format!("{}, segment {index}", trace.id);
        let location = MismatchLocation::Trace {
            trace: segment_name.clone(),
        };
        if let Some(seed) = segment.reset_seed {
            env.seed(seed);
        }
        let observation = match env.reset(Mode::Training) {
            Ok(observation) => observation,
            Err(error) => {
                checker.fail(
                    &location,
                    "reset",
                    "an observation".into(),
                    error.to_string(),
                );
                return;
            }
        };
        let Some(state) = env.state() else {
            checker.fail(&location, "state", "a state".into(), "none".into());
            return;
        };
        checker.equal(
            &location,
            "grid",
            segment.grid.clone(),
            hex(&state.grid().encode()),
        );
        checker.equal(&location, "grid_size", segment.grid_size, [width, height]);
        checker.equal(&location, "agent_pos", segment.agent_pos, position(state));
        checker.equal(
            &location,
            "agent_dir",
            segment.agent_dir,
            state.direction().index() as i64,
        );
        check_observation(
            checker,
            &location,
            "initial_obs",
            &segment.initial_obs,
            &observation,
        );
        if segment.actions.len() != segment.steps.len() {
            checker.fail(
                &location,
                "steps",
                format!("one step per action ({} actions)", segment.actions.len()),
                format!("{} steps", segment.steps.len()),
            );
            return;
        }
        for (action, recorded) in segment.actions.iter().zip(&segment.steps) {
            let location = MismatchLocation::Step {
                trace: segment_name.clone(),
                t,
                mode: ReplayMode::SeededSimulator,
            };
            t += 1;
            checker.count_step();
            let outcome = match env.step(action) {
                Ok(outcome) => outcome,
                Err(error) => {
                    checker.fail(&location, "step", "an outcome".into(), error.to_string());
                    return;
                }
            };
            check_observation(
                checker,
                &location,
                "obs",
                &recorded.obs,
                &outcome.observation,
            );
            checker.reward_and_flags(
                &location,
                (recorded.reward, recorded.terminated, recorded.truncated),
                &outcome,
            );
            let Some(state) = env.state() else {
                checker.fail(&location, "state", "a state".into(), "none".into());
                return;
            };
            checker.equal(&location, "agent_pos", recorded.agent_pos, position(state));
            checker.equal(
                &location,
                "agent_dir",
                recorded.agent_dir,
                state.direction().index() as i64,
            );
            let carrying = state.carrying().map(|cell| cell.encode().map(i64::from));
            checker.equal(&location, "carrying", recorded.carrying, carrying);
        }
    }
}
