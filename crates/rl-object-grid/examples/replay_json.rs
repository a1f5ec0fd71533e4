//! Replays episodes given as JSON on standard input and prints what happened as JSON, for
//! comparing with live minigrid side by side (`scripts/minigrid_side_by_side.py`).
//!
//! Input: `{"id": ID, "params": {...} (optional overrides of the id's parameters), "segments":
//! [{"seed": SEED or null, "actions": [...]}, ...]}`. Output:
//! per segment the grid after the reset (hex of `grid.encode()`), the agent's position and
//! direction and the first observation, then per step the observation, reward, flags, the
//! agent's position, direction and carried object.

use std::fmt::Write as _;
use std::io::Read as _;

use rl_core::{Environment, Mode, Simulator};
use rl_object_grid::{MiniGrid, MiniGridObservation, MiniGridParams, MiniGridState};
use serde_json::{Value, json};

/// Bytes as lower-case hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// An observation as JSON.
fn observation(observation: &MiniGridObservation) -> Value {
    json!({
        "image": hex(&observation.image),
        "direction": observation.direction,
        "mission": &*observation.mission,
    })
}

/// The agent's position, direction and carried object as JSON.
fn agent(state: &MiniGridState) -> (Value, Value, Value) {
    let position = state.agent_position();
    let carrying = state
        .carrying()
        .map_or(Value::Null, |cell| json!(cell.encode()));
    (
        json!([position.x, position.y]),
        json!(state.direction().index()),
        carrying,
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let request: Value = serde_json::from_str(&input)?;
    let id = request["id"].as_str().ok_or("no id")?;
    let params = match request.get("params") {
        Some(overrides) => MiniGridParams::for_id_with(id, overrides)?,
        None => MiniGridParams::for_id(id)?,
    };
    let domain = MiniGrid::new(params)?;
    let mut env = Simulator::new(domain, 0);
    let mut segments = Vec::new();
    for segment in request["segments"].as_array().ok_or("no segments")? {
        if let Some(seed) = segment["seed"].as_u64() {
            env.seed(seed);
        }
        let first = env.reset(Mode::Training)?;
        let state = env.state().ok_or("no state")?;
        let (position, direction, _) = agent(state);
        let grid = hex(&state.grid().encode());
        let mut steps = Vec::new();
        for action in segment["actions"].as_array().ok_or("no actions")? {
            let action = action.as_i64().ok_or("an integer action")?;
            let outcome = env.step(&action)?;
            let (position, direction, carrying) = agent(env.state().ok_or("no state")?);
            steps.push(json!({
                "obs": observation(&outcome.observation),
                "reward": outcome.reward(),
                "terminated": outcome.terminated,
                "truncated": outcome.truncated,
                "agent_pos": position,
                "agent_dir": direction,
                "carrying": carrying,
            }));
            if outcome.is_done() {
                break;
            }
        }
        segments.push(json!({
            "grid": grid,
            "agent_pos": position,
            "agent_dir": direction,
            "initial_obs": observation(&first),
            "steps": steps,
        }));
    }
    println!("{}", json!({ "id": id, "segments": segments }));
    Ok(())
}
