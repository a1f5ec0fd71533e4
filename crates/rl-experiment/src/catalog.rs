//! The domains the command line knows (every id of `rl-core`'s registration table, the
//! built-ins of `rl-domains` and `rl-object-grid` registered first, [`builtins`](crate::builtins)) and the experiment defaults chosen for each:
//! the usual agent, the step budget, agent parameters, and the extra analysis of GridWorld
//! results against value iteration.
//!
//! # Settings read from a registration
//!
//! A registration may carry settings ([`Registration::with_settings`], typed as
//! [`RunSettings`]: registering fails on an unknown key or a
//! mistyped value, naming it); `rl run` reads these keys when the user gives no flag:
//!
//! | key | meaning | without it |
//! |---|---|---|
//! | `agent` | the agent's name | `q-learning` for finite observations and actions, `linear-sarsa` for bounded Box observations and finite actions, `random` otherwise |
//! | `max_steps` | the step budget per run | 100 000 |
//! | `checks_per_policy` | the evaluation episodes per policy check (more where returns are noisy: FrozenLake's 0 or 1, Blackjack's -1, 0 or 1) | 10 |
//! | `agent_params` | an object from agent-name prefixes (`"linear-"`) to the agent parameters used when the agent's name starts with that prefix | none |
//! | `discretize_bins` | for a bounded float Box action space that the agent cannot take, the evenly spaced values per action dimension it is discretised into ([`default_action_bins`]) | 5 |
//! | `learning_threshold` | not read by `rl run`: what its default run must reach, checked by the learning table ([`criterion`](crate::criterion): a number, a fraction of the optimum, or `null`) | (required of every registration) |
//! | `success` | how a greedy evaluation episode succeeds, for the summary's note on the last check: `"terminated"` (it reaches a goal, as in MountainCar) or `"truncated"` (it lasts until the time limit, as in CartPole) | no note |
//!
//! # Continuous actions
//!
//! The built-in learners need finite actions. When the domain's actions are a bounded float
//! Box (MountainCarContinuous, Pendulum, or a user's domain) and the agent cannot take them,
//! `rl run` discretises them ([`default_action_bins`]): the experiment's
//! [`action_bins`](ExperimentConfig::action_bins) is set, `experiment.json` records it, the
//! first line printed says so, and [`make_for_experiment`] wraps the learning and the
//! evaluation environments alike in
//! [`DiscretizeAction`](rl_wrappers::stateless::DiscretizeAction). An agent that takes the
//! continuous actions (`random`, or one of your own) gets them as they are.
//!
//! [`Registration::with_settings`]: rl_core::registry::Registration::with_settings

use crate::builtins as registry;
use rl_core::registry::{RegisteredDomain, RunSettings, Success};
use rl_core::{
    BoxedEnvironment, CheckConfig, CheckReport, Domain, EnumerableTransitions, Mode,
    registry::PictureFormat,
};
use rl_domains::gridworld::{CellKind, GridAction, GridCell, GridWorld};
use rl_spaces::AnySpace;
use serde_json::Value as JsonValue;

use crate::agent::{ValueIterationResult, value_iteration};
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

/// Every domain id with its one-line description, grouped by family as the environment
/// catalogue groups them ([`RegistryEntry::family`](rl_core::registry::RegistryEntry::family):
/// the family its documentation names, or the id's prefix): the families in the order of their
/// first id, each with its ids in registration order.
pub fn domains_by_family() -> Vec<(String, Vec<(String, String)>)> {
    let mut families: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for entry in registry::list() {
        let family = entry.family().to_owned();
        let row = (entry.id, entry.description);
        match families.iter_mut().find(|(name, _)| *name == family) {
            Some((_, ids)) => ids.push(row),
            None => families.push((family, vec![row])),
        }
    }
    families
}

fn domain_error(error: rl_core::CoreError) -> ExperimentError {
    ExperimentError::Domain(error.to_string())
}

/// Builds the environment of `id` with JSON parameters.
pub fn make(id: &str, params: Option<&JsonValue>) -> Result<BoxedEnvironment, ExperimentError> {
    registry::make(id, params).map_err(domain_error)
}

/// The number of values per action dimension of a discretised float Box action space when
/// the registration gives no `discretize_bins` setting.
pub const FALLBACK_ACTION_BINS: u32 = 5;

/// Builds the environment an experiment learns and is evaluated on: [`make`] of its domain
/// and parameters, with the actions discretised into
/// [`action_bins`](ExperimentConfig::action_bins) values per dimension when that is set (see
/// the [module documentation](self#continuous-actions)).
pub fn make_for_experiment(config: &ExperimentConfig) -> Result<BoxedEnvironment, ExperimentError> {
    let env = make(&config.domain, config.domain_params.as_ref())?;
    match config.action_bins {
        Some(bins) => crate::continuous_actions::discretize(env, bins),
        None => Ok(env),
    }
}

/// The action discretisation `rl run` uses by default: when `id`'s actions (with `params`)
/// are a bounded float Box that `agent` (with `agent_params`) cannot take, the registration's
/// `discretize_bins` setting (else [`FALLBACK_ACTION_BINS`]) values per dimension; otherwise
/// `None`, the actions as they are.
pub fn default_action_bins(
    id: &str,
    params: Option<&JsonValue>,
    agent: &str,
    agent_params: Option<&JsonValue>,
) -> Option<u32> {
    let env = make(id, params).ok()?;
    if !crate::continuous_actions::is_bounded_float_box(env.action_space()) {
        return None;
    }
    let rejected = matches!(
        crate::agent::make_agent(
            agent,
            agent_params,
            env.observation_space(),
            env.action_space(),
            env.discount(),
        ),
        Err(ExperimentError::IncompatibleAgent { .. })
    );
    rejected.then(|| settings(id).discretize_bins.unwrap_or(FALLBACK_ACTION_BINS))
}

/// The note the summary of `rl run` ends with on a domain whose registration gives a
/// `success` setting (see the [module documentation](self)): how often the greedy policy
/// succeeded at the last check, averaged over `results`, and, when in some runs it never
/// succeeded, how many and that the budget may be too small.
pub fn success_note(config: &ExperimentConfig, results: &[RunResult]) -> Option<String> {
    let (succeeded, what): (fn(&crate::CheckRecord) -> f64, &str) =
        match settings(&config.domain).success? {
            Success::Terminated => (|check| check.terminated, "reaches the goal"),
            Success::Truncated => (|check| 1.0 - check.terminated, "lasts until the time limit"),
        };
    let last: Vec<f64> = results
        .iter()
        .filter_map(|result| result.checks.last().map(succeeded))
        .collect();
    if last.is_empty() {
        return None;
    }
    let mean = last.iter().sum::<f64>() / last.len() as f64;
    let mut note = format!(
        "at the last check the greedy policy {what} in {}% of evaluation episodes (mean over runs)",
        // Rounded down, so that anything short of every episode never shows as 100%.
        (100.0 * mean).floor()
    );
    let never = last.iter().filter(|fraction| **fraction == 0.0).count();
    if never > 0 {
        note.push_str(&format!(
            "; in {never} of {} runs it never does: the budget of {} steps may be too small (--max-steps)",
            last.len(),
            config.max_steps
        ));
    }
    Some(note)
}

fn typed(
    id: &str,
    params: Option<&JsonValue>,
) -> Result<Box<dyn RegisteredDomain>, ExperimentError> {
    registry::build(id, params).map_err(domain_error)
}

/// The settings the registration of `id` suggests (see the [module documentation](self)),
/// typed; the defaults for an unknown id.
fn settings(id: &str) -> RunSettings {
    registry::list()
        .into_iter()
        .find(|entry| entry.id == id)
        .map(|entry| entry.run_settings())
        .unwrap_or_default()
}

/// The agent `rl run` uses on `id` without `--agent`: the registration's `agent` setting,
/// else one chosen from the spaces (see the [module documentation](self)).
pub fn default_agent(id: &str) -> String {
    if let Some(agent) = settings(id).agent {
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
    settings(id).max_steps.unwrap_or(FALLBACK_MAX_STEPS)
}

/// The evaluation episodes per policy check of `rl run` on `id` without
/// `--checks-per-policy`: the registration's `checks_per_policy` setting (when from 1 to
/// [`CHECKS_PER_POLICY_LIMIT`](crate::CHECKS_PER_POLICY_LIMIT)), else 10.
pub fn default_checks_per_policy(id: &str) -> u64 {
    settings(id)
        .checks_per_policy
        .filter(|episodes| (1..=crate::CHECKS_PER_POLICY_LIMIT).contains(episodes))
        .unwrap_or(10)
}

/// Agent parameters `rl run` adds when none are given: the registration's `agent_params`
/// entry whose key `agent` starts with (CartPole's velocities are unbounded in its
/// observation space, so its tile coder gets Sutton and Barto's usual ranges).
pub fn default_agent_params(id: &str, agent: &str) -> Option<JsonValue> {
    settings(id)
        .agent_params?
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
/// how each run's greedy policy compares with value iteration's.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The SVG of run 0's greedy values with the greedy action as an arrow in each cell.
    pub value_picture: String,
    /// The number of runs whose greedy policy [matches](PolicyComparison::matches) value
    /// iteration's from the start.
    pub matching_runs: u64,
    /// Every run's comparison, in run order.
    pub comparisons: Vec<PolicyComparison>,
}

/// The most a greedy action's optimal value `Q*(s, a)` may fall short of `V*(s)`, relative to
/// `1 + |V*(s)|`, for the action to count as optimal: actions tied up to this tolerance are
/// all optimal.
pub const VALUE_TOLERANCE: f64 = 1e-6;

/// A state where a run's greedy action is not optimal.
#[derive(Debug, Clone, PartialEq)]
pub struct StateDifference {
    /// The cell.
    pub cell: GridCell,
    /// The run's greedy action there (`None`: the agent has none).
    pub greedy: Option<usize>,
    /// Value iteration's optimal actions there.
    pub optimal: Vec<usize>,
    /// `V*(s) - Q*(s, greedy)`: what taking the greedy action there once costs.
    pub value_loss: f64,
}

/// How one run's greedy policy compares with value iteration's.
///
/// What matters is the path the greedy policy follows from the start (each step to the most
/// likely next cell): a run whose greedy action is optimal, up to [`VALUE_TOLERANCE`], on every
/// cell of that path and which reaches a terminal cell matches, however it acts in cells it
/// never reaches from the start (which it may never have visited) and whichever of tied
/// optimal actions it picked.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyComparison {
    /// The run.
    pub run: u64,
    /// The cells of the greedy path from the start, the start first; a terminal cell reached
    /// is the last.
    pub path: Vec<GridCell>,
    /// Whether the path ends in a terminal cell (rather than looping or stopping at a cell
    /// where the agent has no action).
    pub reaches_end: bool,
    /// The cells of the path where the greedy action is not optimal.
    pub path_differences: Vec<StateDifference>,
    /// The other open, non-terminal cells where the greedy action is not optimal.
    pub off_path_differences: Vec<StateDifference>,
}

impl PolicyComparison {
    /// Whether the greedy path from the start reaches the end taking only optimal actions.
    pub fn matches(&self) -> bool {
        self.reaches_end && self.path_differences.is_empty()
    }

    /// The lines this comparison adds to the run's log, each starting with
    /// [`COMPARISON_PREFIX`].
    pub fn log_lines(&self) -> Vec<String> {
        let path: Vec<String> = self.path.iter().map(ToString::to_string).collect();
        let mut lines = vec![format!(
            "{COMPARISON_PREFIX} the greedy path from the start {} ({} cells) {}",
            path.join(" -> "),
            self.path.len(),
            match (self.reaches_end, self.path_differences.is_empty()) {
                (true, true) => "takes an optimal action in every cell and reaches the end",
                (true, false) => "reaches the end but not optimally",
                (false, _) => "does not reach a terminal cell (a larger budget may help)",
            }
        )];
        let describe = |differences: &[StateDifference]| {
            differences
                .iter()
                .map(|d| {
                    let optimal: Vec<&str> = d.optimal.iter().map(|a| action_name(*a)).collect();
                    let cost = if d.value_loss.is_finite() {
                        format!("value lost {}", crate::progress::fixed(d.value_loss, 4))
                    } else {
                        "the greedy action is not applicable there".to_owned()
                    };
                    format!(
                        "{} (greedy {}, optimal {}, {cost})",
                        d.cell,
                        d.greedy.map_or("none", action_name),
                        optimal.join(" or "),
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.path_differences.is_empty() {
            lines.push(format!(
                "{COMPARISON_PREFIX} on the path, the greedy action is not optimal in {}",
                describe(&self.path_differences)
            ));
        }
        if !self.off_path_differences.is_empty() {
            lines.push(format!(
                "{COMPARISON_PREFIX} off the path (cells the greedy policy does not reach from the start, perhaps never visited), the greedy action is not optimal in {}",
                describe(&self.off_path_differences)
            ));
        }
        lines
    }
}

/// How the comparison lines of a run's log start.
pub const COMPARISON_PREFIX: &str = "compared with value iteration:";

fn action_name(index: usize) -> &'static str {
    GridAction::from_index(index).map_or("?", GridAction::name)
}

/// The optimal actions of every GridWorld cell (empty for terminal and blocked cells).
pub fn gridworld_optimal_actions(world: &GridWorld) -> Result<Vec<Vec<usize>>, ExperimentError> {
    Ok(gridworld_value_iteration(world)?.1)
}

/// Value iteration on every cell of `world`: the result, and the optimal actions with terminal
/// and blocked cells emptied.
fn gridworld_value_iteration(
    world: &GridWorld,
) -> Result<(ValueIterationResult, Vec<Vec<usize>>), ExperimentError> {
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
    let optimal = cells
        .iter()
        .zip(&result.optimal_actions)
        .map(|(cell, actions)| {
            if world
                .map()
                .kind(*cell)
                .is_some_and(|k| k.is_terminal() || k == CellKind::Blocked)
            {
                Vec::new()
            } else {
                actions.clone()
            }
        })
        .collect();
    Ok((result, optimal))
}

/// Whether a run's greedy actions are optimal in every state that has optimal actions.
pub fn is_optimal(state_values: &[(f64, Option<usize>)], optimal: &[Vec<usize>]) -> bool {
    state_values.len() == optimal.len()
        && state_values
            .iter()
            .zip(optimal)
            .all(|((_, greedy), best)| best.is_empty() || greedy.is_some_and(|g| best.contains(&g)))
}

/// Compares one run's greedy policy with value iteration's (see [`PolicyComparison`]).
fn compare(
    world: &GridWorld,
    planned: &ValueIterationResult,
    optimal: &[Vec<usize>],
    run: u64,
    state_values: &[(f64, Option<usize>)],
) -> PolicyComparison {
    let difference = |index: usize| -> Option<StateDifference> {
        if optimal.get(index).is_none_or(Vec::is_empty) {
            return None;
        }
        let cell = world.cell_of_index(index)?;
        let best = planned.values.get(index).copied().unwrap_or(0.0);
        let greedy = state_values.get(index).and_then(|(_, greedy)| *greedy);
        let achieved = greedy
            .and_then(|a| planned.action_values.get(index)?.get(a).copied())
            .unwrap_or(f64::NEG_INFINITY);
        let loss = best - achieved;
        (loss > VALUE_TOLERANCE * (1.0 + best.abs())).then(|| StateDifference {
            cell,
            greedy,
            optimal: optimal[index].clone(),
            value_loss: loss,
        })
    };
    let mut path = Vec::new();
    let mut path_differences = Vec::new();
    let mut reaches_end = false;
    let mut cell = world.map().start();
    let mut on_path = vec![false; optimal.len()];
    while let Some(index) = world.state_index(cell).filter(|i| *i < optimal.len()) {
        if on_path[index] {
            break;
        }
        on_path[index] = true;
        path.push(cell);
        if world.is_terminal(&cell) {
            reaches_end = true;
            break;
        }
        path_differences.extend(difference(index));
        let Some(action) = state_values.get(index).and_then(|(_, greedy)| *greedy) else {
            break;
        };
        let transitions = world.transitions(&cell, &(action as i64), Mode::Training);
        let Some(next) = transitions.iter().fold(
            None::<&rl_core::Transition<GridCell>>,
            |best, t| match best {
                Some(b) if b.probability >= t.probability => Some(b),
                _ => Some(t),
            },
        ) else {
            break;
        };
        cell = next.next_state;
    }
    let off_path_differences = (0..optimal.len())
        .filter(|i| !on_path[*i])
        .filter_map(difference)
        .collect();
    PolicyComparison {
        run,
        path,
        reaches_end,
        path_differences,
        off_path_differences,
    }
}

/// Shows a value as the picture prints it (two decimals), with values that would print as
/// `-0.00` made 0.
fn shown(value: f64) -> f64 {
    if (value * 100.0).round() == 0.0 {
        0.0
    } else {
        value
    }
}

/// The GridWorld analysis of finished runs (`None` for other domains or agents without state
/// values).
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
    let (planned, optimal) = gridworld_value_iteration(world)?;
    let comparisons: Vec<PolicyComparison> = results
        .iter()
        .filter_map(|r| {
            let values = r.state_values.as_ref()?;
            Some(compare(world, &planned, &optimal, r.run, values))
        })
        .collect();
    let matching_runs = comparisons.iter().filter(|c| c.matches()).count() as u64;
    let values: Vec<f64> = first.iter().map(|(v, _)| shown(*v)).collect();
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
        matching_runs,
        comparisons,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GridWorld 6x9-Wall without noise, where several ways to the goal are equally short.
    fn world() -> GridWorld {
        let params = serde_json::json!({"noise": 0.0});
        rl_domains::registry::gridworld_from_id("GridWorld-6x9-Wall", Some(&params))
            .expect("GridWorld")
    }

    /// State values whose greedy actions are value iteration's first optimal action.
    fn optimal_values(world: &GridWorld) -> Vec<(f64, Option<usize>)> {
        gridworld_optimal_actions(world)
            .expect("value iteration")
            .iter()
            .map(|best| (0.0, best.first().copied()))
            .collect()
    }

    #[test]
    fn ties_and_unreached_cells_do_not_count_but_the_path_does() {
        let world = world();
        let (planned, optimal) = gridworld_value_iteration(&world).expect("value iteration");
        let values = optimal_values(&world);
        let exact = compare(&world, &planned, &optimal, 0, &values);
        assert!(exact.matches(), "{:?}", exact.log_lines());
        assert!(exact.path.len() >= 2 && exact.path[0] == world.map().start());
        assert!(exact.off_path_differences.is_empty());

        // Another optimal action where value iteration has a tie still matches.
        let mut tied = values.clone();
        let tie = optimal
            .iter()
            .position(|best| best.len() > 1)
            .expect("an open grid without noise has ties");
        tied[tie].1 = Some(optimal[tie][1]);
        assert!(compare(&world, &planned, &optimal, 0, &tied).matches());

        // A wrong action in a cell off the path: still matches, and the log names the cell.
        let off = (0..optimal.len())
            .find(|i| {
                !optimal[*i].is_empty() && !exact.path.contains(&world.cell_of_index(*i).unwrap())
            })
            .expect("a cell off the path");
        let wrong = (0..4)
            .find(|a| !optimal[off].contains(a))
            .expect("a wrong action");
        let mut off_path = values.clone();
        off_path[off].1 = Some(wrong);
        let comparison = compare(&world, &planned, &optimal, 3, &off_path);
        assert!(comparison.matches());
        assert_eq!(comparison.off_path_differences.len(), 1);
        let cell = world.cell_of_index(off).unwrap().to_string();
        assert!(
            comparison
                .log_lines()
                .iter()
                .any(|l| l.contains("off the path") && l.contains(&cell)),
            "{:?}",
            comparison.log_lines()
        );

        // A wrong action at the start does not match, and the log says where.
        let start = world.state_index(world.map().start()).unwrap();
        let wrong = (0..4)
            .find(|a| !optimal[start].contains(a))
            .expect("a wrong action");
        let mut on_path = values;
        on_path[start].1 = Some(wrong);
        let comparison = compare(&world, &planned, &optimal, 1, &on_path);
        assert!(!comparison.matches());
        assert_eq!(comparison.path_differences[0].cell, world.map().start());
        assert!(comparison.path_differences[0].value_loss > 0.0);
        assert!(
            comparison
                .log_lines()
                .iter()
                .any(|l| l.contains("on the path") && l.contains(&world.map().start().to_string())),
            "{:?}",
            comparison.log_lines()
        );
    }

    #[test]
    fn continuous_actions_are_discretised_only_for_agents_that_cannot_take_them() {
        let bins = |id: &str, agent: &str| default_action_bins(id, None, agent, None);
        assert_eq!(bins("MountainCarContinuous-v0", "linear-sarsa"), Some(5));
        assert_eq!(bins("Pendulum-v1", "q-learning"), Some(5));
        assert_eq!(bins("MountainCarContinuous-v0", "random"), None);
        assert_eq!(bins("CartPole-v1", "linear-sarsa"), None);
        assert_eq!(bins("GridWorld-4x5", "q-learning"), None);
        assert_eq!(bins("no-such-id", "linear-sarsa"), None);

        let config = ExperimentConfig {
            action_bins: Some(3),
            ..ExperimentConfig::new("Pendulum-v1", "linear-sarsa", 10)
        };
        let env = make_for_experiment(&config).expect("a discretised Pendulum");
        assert_eq!(env.action_space().to_string(), "Discrete(3)");
        let cartpole = ExperimentConfig {
            action_bins: Some(3),
            ..ExperimentConfig::new("CartPole-v1", "linear-sarsa", 10)
        };
        assert!(make_for_experiment(&cartpole).is_err());
    }

    #[test]
    fn values_never_print_as_negative_zero() {
        assert_eq!(format!("{:.2}", shown(-0.004)), "0.00");
        assert_eq!(format!("{:.2}", shown(-0.006)), "-0.01");
        assert_eq!(format!("{:.2}", shown(0.5)), "0.50");
    }
}
