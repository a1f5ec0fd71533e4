//! Exactness against minigrid 3.2.0: every trace of `testdata/reference/seeded_minigrid.json`
//! replayed from its seeds through the `Simulator`, comparing the grid after each reset and
//! every observation, reward (bit for bit), flag, position, direction and carried object.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use rl_core::{Environment, Mode, Simulator};
use rl_object_grid::{MiniGrid, MiniGridObservation, MiniGridState, ids};
use serde_json::Value;

/// The recorded traces.
fn traces() -> Value {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/reference/seeded_minigrid.json");
    let text = std::fs::read_to_string(&path).expect("the reference file");
    serde_json::from_str(&text).expect("valid JSON")
}

/// Bytes as lower-case hex, as the traces write them.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// The mismatches found, with the first few described.
#[derive(Default)]
struct Mismatches {
    count: usize,
    first: Vec<String>,
}

impl Mismatches {
    /// Records a mismatch of `field` unless `ours == theirs`.
    fn check(&mut self, place: &str, field: &str, ours: &Value, theirs: &Value) {
        if ours != theirs {
            self.count += 1;
            if self.first.len() < 40 {
                self.first
                    .push(format!("{place}: {field}: ours {ours}, minigrid {theirs}"));
            }
        }
    }
}

/// The agent's position as the traces write it.
fn position(state: &MiniGridState) -> Value {
    let position = state.agent_position();
    serde_json::json!([position.x, position.y])
}

/// Compares an observation with the trace's.
fn check_observation(
    mismatches: &mut Mismatches,
    place: &str,
    ours: &MiniGridObservation,
    theirs: &Value,
) {
    mismatches.check(
        place,
        "image",
        &Value::from(hex(&ours.image)),
        &theirs["image"],
    );
    mismatches.check(
        place,
        "direction",
        &Value::from(ours.direction),
        &theirs["direction"],
    );
    mismatches.check(
        place,
        "mission",
        &Value::from(&*ours.mission),
        &theirs["mission"],
    );
}

#[test]
fn every_seeded_minigrid_trace_replays_exactly() {
    let traces = traces();
    let mut mismatches = Mismatches::default();
    let mut replayed = BTreeSet::new();
    let mut steps = 0usize;
    let traces = traces["traces"].as_array().expect("traces");
    for trace in traces {
        let id = trace["env_id"].as_str().expect("an id");
        assert_eq!(trace["make_kwargs"], serde_json::json!({}), "{id}: kwargs");
        let domain = MiniGrid::for_id(id).unwrap_or_else(|error| panic!("{id}: {error}"));
        mismatches.check(
            id,
            "max_steps",
            &Value::from(domain.max_steps()),
            &trace["max_steps"],
        );
        let mut env = Simulator::new(domain.clone(), 0);
        for (index, segment) in trace["segments"]
            .as_array()
            .expect("segments")
            .iter()
            .enumerate()
        {
            let place = format!("{} segment {index}", trace["id"].as_str().unwrap_or(id));
            if let Some(seed) = segment["reset_seed"].as_u64() {
                env.seed(seed);
            }
            let observation = env.reset(Mode::Training).expect("reset");
            let state = env.state().expect("a state").clone();
            let (width, height) = domain.grid_size();
            mismatches.check(
                &place,
                "grid",
                &Value::from(hex(&state.grid().encode())),
                &segment["grid"],
            );
            mismatches.check(
                &place,
                "grid_size",
                &serde_json::json!([width, height]),
                &segment["grid_size"],
            );
            mismatches.check(
                &place,
                "agent_pos",
                &position(&state),
                &segment["agent_pos"],
            );
            mismatches.check(
                &place,
                "agent_dir",
                &Value::from(state.direction().index()),
                &segment["agent_dir"],
            );
            check_observation(
                &mut mismatches,
                &place,
                &observation,
                &segment["initial_obs"],
            );
            let actions = segment["actions"].as_array().expect("actions");
            let recorded = segment["steps"].as_array().expect("steps");
            assert_eq!(
                actions.len(),
                recorded.len(),
                "{place}: one step per action"
            );
            for (step, (action, expected)) in actions.iter().zip(recorded).enumerate() {
                let place = format!("{place} step {step}");
                let action = action.as_i64().expect("an integer action");
                let outcome = match env.step(&action) {
                    Ok(outcome) => outcome,
                    Err(error) => {
                        mismatches.check(
                            &place,
                            "step",
                            &Value::from(error.to_string()),
                            &Value::Null,
                        );
                        break;
                    }
                };
                steps += 1;
                check_observation(
                    &mut mismatches,
                    &place,
                    &outcome.observation,
                    &expected["obs"],
                );
                let reward = expected["reward"].as_f64().expect("a reward");
                mismatches.check(
                    &place,
                    "reward bits",
                    &Value::from(outcome.reward().to_bits()),
                    &Value::from(reward.to_bits()),
                );
                mismatches.check(
                    &place,
                    "terminated",
                    &Value::from(outcome.terminated),
                    &expected["terminated"],
                );
                mismatches.check(
                    &place,
                    "truncated",
                    &Value::from(outcome.truncated),
                    &expected["truncated"],
                );
                let state = env.state().expect("a state");
                mismatches.check(
                    &place,
                    "agent_pos",
                    &position(state),
                    &expected["agent_pos"],
                );
                mismatches.check(
                    &place,
                    "agent_dir",
                    &Value::from(state.direction().index()),
                    &expected["agent_dir"],
                );
                let carrying = state
                    .carrying()
                    .map_or(Value::Null, |cell| serde_json::json!(cell.encode()));
                mismatches.check(&place, "carrying", &carrying, &expected["carrying"]);
            }
        }
        replayed.insert(id.to_owned());
    }
    eprintln!(
        "replayed {} ids, {} traces, {steps} steps: {} mismatches",
        replayed.len(),
        traces.len(),
        mismatches.count
    );
    assert_eq!(
        mismatches.count,
        0,
        "{} mismatches over {steps} steps; the first:\n{}",
        mismatches.count,
        mismatches.first.join("\n")
    );
    // Every id of the file was replayed, and each is one this crate implements.
    let in_file: BTreeSet<String> = traces
        .iter()
        .map(|trace| trace["env_id"].as_str().expect("an id").to_owned())
        .collect();
    assert_eq!(replayed, in_file);
    let implemented: BTreeSet<String> = ids::IDS.iter().map(|id| (*id).to_owned()).collect();
    assert!(
        replayed.is_subset(&implemented),
        "replayed ids not implemented: {:?}",
        replayed.difference(&implemented).collect::<Vec<_>>()
    );
    assert_eq!(in_file.len(), 40, "the file's 40 ids");
    assert!(steps > 5000, "only {steps} steps replayed");
}
