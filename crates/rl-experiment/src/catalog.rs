//! The domains the command line knows (the `rl-domains` registry) and the experiment defaults
//! chosen for each: the usual agent, the step budget, agent parameters, and the extra analysis
//! of GridWorld results against value iteration.

use rand::SeedableRng;
use rl_core::{
    BoxedEnvironment, CheckConfig, CheckReport, Domain, Mode, Render, check_domain,
    check_transitions,
};
use rl_domains::gridworld::{GridAction, GridWorld};
use rl_domains::registry::{self, RegisteredDomain};
use serde_json::{Value as JsonValue, json};

use crate::agent::value_iteration;
use crate::{ExperimentConfig, ExperimentError, RunResult};

/// The domain of `rl run` without `--domain`.
pub const DEFAULT_DOMAIN: &str = "GridWorld-4x5";

/// Every domain id with its one-line description.
pub fn domains() -> Vec<(String, String)> {
    registry::list()
        .into_iter()
        .map(|e| (e.id, e.description))
        .collect()
}

/// Builds the environment of `id` with JSON parameters.
pub fn make(id: &str, params: Option<&JsonValue>) -> Result<BoxedEnvironment, ExperimentError> {
    registry::make(id, params).map_err(|e| ExperimentError::Domain(e.to_string()))
}

fn typed(id: &str, params: Option<&JsonValue>) -> Result<RegisteredDomain, ExperimentError> {
    registry::domain(id, params).map_err(|e| ExperimentError::Domain(e.to_string()))
}

/// The agent `rl run` uses on `id` without `--agent`: tabular Q-learning on GridWorld, linear
/// SARSA on tile coding on CartPole and MountainCar, random actions elsewhere (our learners
/// need discrete actions).
pub fn default_agent(id: &str) -> &'static str {
    if id.starts_with(registry::GRIDWORLD_PREFIX) {
        "q-learning"
    } else if id == registry::CARTPOLE_ID || id == registry::MOUNTAIN_CAR_ID {
        "linear-sarsa"
    } else {
        "random"
    }
}

/// The step budget per run of `rl run` on `id` without `--max-steps`.
pub fn default_max_steps(id: &str) -> u64 {
    if id.starts_with(registry::GRIDWORLD_PREFIX) {
        20_000
    } else if id == registry::MOUNTAIN_CAR_ID {
        60_000
    } else {
        100_000
    }
}

/// Agent parameters `rl run` adds when none are given: CartPole's velocities are unbounded in
/// its observation space, so the tile coder gets Sutton and Barto's usual ranges.
pub fn default_agent_params(id: &str, agent: &str) -> Option<JsonValue> {
    (id == registry::CARTPOLE_ID && agent.starts_with("linear-"))
        .then(|| json!({"bounds": [[-2.4, 2.4], [-3.0, 3.0], [-0.21, 0.21], [-3.5, 3.5]]}))
}

fn initial_svg<D: Domain + Render>(domain: &D, seed: u64) -> String {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    domain.render_svg(&domain.initial_state(Mode::Training, &mut rng))
}

/// The SVG picture of `id`'s initial state drawn with `seed`.
pub fn render_svg(
    id: &str,
    params: Option<&JsonValue>,
    seed: u64,
) -> Result<String, ExperimentError> {
    Ok(match typed(id, params)? {
        RegisteredDomain::CartPole(d) => initial_svg(&d, seed),
        RegisteredDomain::MountainCar(d) => initial_svg(&d, seed),
        RegisteredDomain::MountainCarContinuous(d) => initial_svg(&d, seed),
        RegisteredDomain::Acrobot(d) => initial_svg(&d, seed),
        RegisteredDomain::Pendulum(d) => initial_svg(&d, seed),
        RegisteredDomain::GridWorld(d) => initial_svg(&d, seed),
        _ => return Err(ExperimentError::Domain(format!("{id} cannot be drawn"))),
    })
}

/// The conformance checker's report on `id` (with the transition checks for GridWorld).
pub fn check(
    id: &str,
    params: Option<&JsonValue>,
    seed: u64,
) -> Result<CheckReport, ExperimentError> {
    let config = CheckConfig {
        seed,
        ..CheckConfig::default()
    };
    Ok(match typed(id, params)? {
        RegisteredDomain::CartPole(d) => check_domain(&d, &config),
        RegisteredDomain::MountainCar(d) => check_domain(&d, &config),
        RegisteredDomain::MountainCarContinuous(d) => check_domain(&d, &config),
        RegisteredDomain::Acrobot(d) => check_domain(&d, &config),
        RegisteredDomain::Pendulum(d) => check_domain(&d, &config),
        RegisteredDomain::GridWorld(d) => {
            let mut report = check_domain(&d, &config);
            report.merge(check_transitions(&d, &config));
            report
        }
        _ => return Err(ExperimentError::Domain(format!("{id} cannot be checked"))),
    })
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
    let RegisteredDomain::GridWorld(world) = typed(&config.domain, config.domain_params.as_ref())?
    else {
        return Ok(None);
    };
    let Some(first) = results.first().and_then(|r| r.state_values.as_ref()) else {
        return Ok(None);
    };
    let optimal = gridworld_optimal_actions(&world)?;
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
