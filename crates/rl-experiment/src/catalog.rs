//! The domains the command line knows (every id of `rl-core`'s registration table, the
//! built-ins of `rl-domains` registered first) and the experiment defaults chosen for each:
//! the usual agent, the step budget, agent parameters, and the extra analysis of GridWorld
//! results against value iteration.
//!
//! # Settings read from a registration
//!
//! A registration may carry settings ([`Registration::with_settings`]); `rl run` reads these
//! keys when the user gives no flag:
//!
//! | key | meaning | without it |
//! |---|---|---|
//! | `agent` | the agent's name | `q-learning` for finite observations and actions, `linear-sarsa` for bounded Box observations and finite actions, `random` otherwise |
//! | `max_steps` | the step budget per run | 100 000 |
//! | `agent_params` | an object from agent-name prefixes (`"linear-"`) to the agent parameters used when the agent's name starts with that prefix | none |
//!
//! [`Registration::with_settings`]: rl_core::registry::Registration::with_settings

use rl_core::registry::RegisteredDomain;
use rl_core::{BoxedEnvironment, CheckConfig, CheckReport, registry::PictureFormat};
use rl_domains::gridworld::{GridAction, GridWorld};
use rl_domains::registry;
use rl_spaces::AnySpace;
use serde_json::Value as JsonValue;

use crate::agent::value_iteration;
use crate::{ExperimentConfig, ExperimentError, RunResult};

/// The domain of `rl run` without `--domain`.
pub const DEFAULT_DOMAIN: &str = "GridWorld-4x5";

/// The step budget of an id whose registration suggests none.
pub const FALLBACK_MAX_STEPS: u64 = 100_000;

/// Every domain id with its one-line description.
pub fn domains() -> Vec<(String, String)> {
    registry::list()
        .into_iter()
        .map(|e| (e.id, e.description))
        .collect()
}

fn domain_error(error: rl_core::CoreError) -> ExperimentError {
    ExperimentError::Domain(error.to_string())
}

/// Builds the environment of `id` with JSON parameters.
pub fn make(id: &str, params: Option<&JsonValue>) -> Result<BoxedEnvironment, ExperimentError> {
    registry::make(id, params).map_err(domain_error)
}

fn typed(
    id: &str,
    params: Option<&JsonValue>,
) -> Result<Box<dyn RegisteredDomain>, ExperimentError> {
    registry::build(id, params).map_err(domain_error)
}

/// The settings the registration of `id` suggests (see the [module documentation](self)).
fn setting(id: &str, key: &str) -> Option<JsonValue> {
    registry::list()
        .into_iter()
        .find(|entry| entry.id == id)
        .and_then(|entry| entry.settings)
        .and_then(|settings| settings.get(key).cloned())
}

/// The agent `rl run` uses on `id` without `--agent`: the registration's `agent` setting,
/// else one chosen from the spaces (see the [module documentation](self)).
pub fn default_agent(id: &str) -> String {
    if let Some(JsonValue::String(agent)) = setting(id, "agent") {
        return agent;
    }
    let Ok(env) = registry::make(id, None) else {
        return "random".to_owned();
    };
    let finite_actions = matches!(env.action_space(), AnySpace::Discrete(_));
    match env.observation_space() {
        AnySpace::Discrete(_) | AnySpace::MultiDiscrete(_) if finite_actions => "q-learning",
        AnySpace::Box(space)
            if finite_actions
                && space
                    .low_f64()
                    .iter()
                    .chain(&space.high_f64())
                    .all(|b| b.is_finite()) =>
        {
            "linear-sarsa"
        }
        _ => "random",
    }
    .to_owned()
}

/// The step budget per run of `rl run` on `id` without `--max-steps`: the registration's
/// `max_steps` setting, else [`FALLBACK_MAX_STEPS`].
pub fn default_max_steps(id: &str) -> u64 {
    setting(id, "max_steps")
        .and_then(|steps| steps.as_u64())
        .unwrap_or(FALLBACK_MAX_STEPS)
}

/// Agent parameters `rl run` adds when none are given: the registration's `agent_params`
/// entry whose key `agent` starts with (CartPole's velocities are unbounded in its
/// observation space, so its tile coder gets Sutton and Barto's usual ranges).
pub fn default_agent_params(id: &str, agent: &str) -> Option<JsonValue> {
    let JsonValue::Object(by_prefix) = setting(id, "agent_params")? else {
        return None;
    };
    by_prefix
        .into_iter()
        .find(|(prefix, _)| agent.starts_with(prefix.as_str()))
        .map(|(_, params)| params)
}

/// The SVG picture of `id`'s initial state drawn with `seed`.
pub fn render_svg(
    id: &str,
    params: Option<&JsonValue>,
    seed: u64,
) -> Result<String, ExperimentError> {
    typed(id, params)?
        .picture(seed, PictureFormat::Svg)
        .ok_or_else(|| ExperimentError::Domain(format!("{id} has no pictures")))
}

/// The conformance checker's report on `id` (with the transition checks where the
/// registration declared enumerable transitions, as for GridWorld).
pub fn check(
    id: &str,
    params: Option<&JsonValue>,
    seed: u64,
) -> Result<CheckReport, ExperimentError> {
    let config = CheckConfig {
        seed,
        ..CheckConfig::default()
    };
    Ok(typed(id, params)?.check(&config))
}

/// Replays reference files: the text to print and whether everything matched.
pub fn replay(files: &[std::path::PathBuf]) -> (String, bool) {
    rl_reference::replay_files_report(files, 10)
}

/// What `rl run` adds for GridWorld: the learned values and greedy policy as a picture, and
/// how many runs learned an optimal policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The SVG of run 0's greedy values with the greedy action as an arrow in each cell.
    pub value_picture: String,
    /// The number of runs whose greedy action is optimal (by value iteration) in every state
    /// checked.
    pub optimal_runs: u64,
    /// The number of states checked per run: every open, non-terminal cell.
    pub states_checked: usize,
}

/// The optimal actions of every GridWorld cell (empty for terminal and blocked cells).
pub fn gridworld_optimal_actions(world: &GridWorld) -> Result<Vec<Vec<usize>>, ExperimentError> {
    let cells: Vec<_> = (0..world.map().cell_count())
        .filter_map(|i| world.cell_of_index(i))
        .collect();
    let result = value_iteration(
        world,
        &cells,
        |c| world.state_index(*c),
        &[0, 1, 2, 3],
        1e-12,
        100_000,
    )?;
    Ok(cells
        .iter()
        .zip(result.optimal_actions)
        .map(|(cell, actions)| {
            if world
                .map()
                .kind(*cell)
                .is_some_and(|k| k.is_terminal() || k == rl_domains::gridworld::CellKind::Blocked)
            {
                Vec::new()
            } else {
                actions
            }
        })
        .collect())
}

/// Whether a run's greedy actions are optimal in every state that has optimal actions.
pub fn is_optimal(state_values: &[(f64, Option<usize>)], optimal: &[Vec<usize>]) -> bool {
    state_values.len() == optimal.len()
        && state_values
            .iter()
            .zip(optimal)
            .all(|((_, greedy), best)| best.is_empty() || greedy.is_some_and(|g| best.contains(&g)))
}

/// The GridWorld analysis of finished runs (`None` for other domains or non-tabular agents).
pub fn analyse(
    config: &ExperimentConfig,
    results: &[RunResult],
) -> Result<Option<Analysis>, ExperimentError> {
    let domain = typed(&config.domain, config.domain_params.as_ref())?;
    let Some(world) = domain.as_any().downcast_ref::<GridWorld>() else {
        return Ok(None);
    };
    let Some(first) = results.first().and_then(|r| r.state_values.as_ref()) else {
        return Ok(None);
    };
    let optimal = gridworld_optimal_actions(world)?;
    let optimal_runs = results
        .iter()
        .filter(|r| {
            r.state_values
                .as_ref()
                .is_some_and(|v| is_optimal(v, &optimal))
        })
        .count() as u64;
    let values: Vec<f64> = first.iter().map(|(v, _)| *v).collect();
    let arrows: Vec<Option<GridAction>> = first
        .iter()
        .zip(&optimal)
        .map(|((_, greedy), best)| {
            if best.is_empty() {
                None
            } else {
                greedy.and_then(GridAction::from_index)
            }
        })
        .collect();
    let value_picture = world
        .render_values_svg(&values, &arrows)
        .map_err(|e| ExperimentError::Domain(e.to_string()))?;
    Ok(Some(Analysis {
        value_picture,
        optimal_runs,
        states_checked: optimal.iter().filter(|a| !a.is_empty()).count(),
    }))
}
