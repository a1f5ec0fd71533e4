//! Agents: domain-agnostic learners and planners that choose actions from observations
//! (RLPy's agents), built by name with JSON parameters.
//!
//! | name | agent | observations | actions |
//! |---|---|---|---|
//! | `random` | uniform over the applicable actions | any | any samplable space |
//! | `q-learning` | tabular Q-learning, ε-greedy | finite, or without floats (keyed by observation) | `Discrete` |
//! | `sarsa` | tabular SARSA, ε-greedy | finite, or without floats (keyed by observation) | `Discrete` |
//! | `linear-q` | Q-learning on tile-coded features | bounded vectors | `Discrete` |
//! | `linear-sarsa` | SARSA on tile-coded features | bounded vectors | `Discrete` |
//! | `bot` | minigrid 3.2.0's BabyAI bot, planning from the environment's state | `BabyAI-*` ids only | `Discrete(7)` |
//!
//! The `bot` ([`BabyAiBotAgent`]) is an expert, not a learner: it reads the environment's state
//! ([`Agent::reads_state`], [`Agent::act_on_state`]) and gives, step for step, the actions of
//! minigrid's `BabyAIBot` ([`rl_object_grid::babyai::bot`]); `rl run --domain BabyAI-GoToLocal-v0
//! --agent bot` measures its success rate like any agent's.
//!
//! Your own agent implements [`Agent`] and is registered by name with [`register_agent`]; from
//! then on the experiment harness and the `rl` command line of your binary (`--agent NAME`)
//! run it exactly as a built-in: policy checks, seeds, resume, results JSON, summary CSV and
//! plots (`examples/custom_agent.rs` does it end to end).
//!
//! [`value_iteration`] plans exactly on domains with enumerable transitions and gives the
//! optimal values and policy the learners are checked against; [`optimal_return_within`]
//! gives the best expected return within an episode cap (finite-horizon value iteration),
//! the yardstick of the learning table's relative criteria.

mod bot;
mod linear;
mod random;
mod registry;
mod tabular;
mod tile_coding;
mod value_iteration;

pub use bot::{BabyAiBotAgent, BotOnError, BotParams};
pub use linear::{LinearTd, LinearTdParams};
pub use random::RandomAgent;
pub use registry::{AgentContext, AgentFactory, agents, register_agent};
pub use tabular::{MAX_SEEN_OBSERVATIONS, TabularTd, TabularTdParams, TdTarget};
pub use tile_coding::TileCoder;
pub use value_iteration::{
    HORIZON_LIMIT, ValueIterationResult, optimal_return_within, value_iteration,
};

use std::any::Any;

use rand::{Rng, RngExt};
use rl_core::{BoxedEnvironment, Environment};
use rl_spaces::{AnyElement, AnySpace, Discrete};
use serde::de::DeserializeOwned;
use serde_json::Value as JsonValue;

use crate::ExperimentError;

/// One step of experience, given to [`Agent::learn`].
#[derive(Debug, Clone, Copy)]
pub struct Experience<'a> {
    /// The observation the action was chosen on.
    pub observation: &'a AnyElement,
    /// The action taken.
    pub action: &'a AnyElement,
    /// The reward received.
    pub reward: f64,
    /// The observation reached.
    pub next_observation: &'a AnyElement,
    /// The applicable actions in the state reached (`None`: all).
    pub next_mask: Option<&'a [bool]>,
    /// The action the agent chose for the state reached (for on-policy learners). `None` when
    /// the state reached is terminal.
    pub next_action: Option<&'a AnyElement>,
    /// Whether the state reached is terminal: its future value is zero.
    pub terminated: bool,
    /// Whether the episode was cut by a time limit: the state reached still has a future, so
    /// learners bootstrap from it (unless `terminated` is also true).
    pub truncated: bool,
}

/// The environment's state as an agent that reads it sees it before choosing an action
/// ([`Agent::act_on_state`]): the typed domain and the current state, to downcast (what
/// [`Environment::domain_any`] and
/// [`state_any`](rl_core::Environment::state_any) give), and the step of the episode.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct EnvironmentState<'a> {
    /// The environment's domain (for an id of `rl-object-grid`'s BabyAI levels, a
    /// [`BabyAi`](rl_object_grid::babyai::BabyAi)).
    pub domain: &'a dyn Any,
    /// The environment's current state (for a BabyAI level, a
    /// [`BabyAiState`](rl_object_grid::babyai::BabyAiState)).
    pub state: &'a dyn Any,
    /// The steps taken in the current episode: 0 right after its reset, so that an agent
    /// knows an episode starts.
    pub episode_step: u64,
}

impl<'a> EnvironmentState<'a> {
    /// The state of `env` after `episode_step` steps of its episode, or `None` when the
    /// environment does not give its domain and state (see
    /// [`Environment::state_any`]).
    pub fn of<E: Environment + ?Sized>(env: &'a E, episode_step: u64) -> Option<Self> {
        Some(EnvironmentState {
            domain: env.domain_any()?,
            state: env.state_any()?,
            episode_step,
        })
    }
}

/// A learner or fixed policy that acts on [`AnyElement`] observations, so that it works with
/// any environment whose spaces it supports (RLPy's `Agent`).
///
/// # Implementing an agent
///
/// The experiment harness ([`run_once`](crate::run_once)) drives an agent like this, for a
/// step budget:
///
/// 1. at the start of a learning episode it calls [`act`](Self::act) with `explore = true` on
///    the first observation;
/// 2. it steps the environment with that action, then calls `act` on the observation reached
///    (unless it is terminal) to choose the next action, and only then [`learn`](Self::learn)
///    with the whole transition, that next action included (RLPy's order, which on-policy
///    learners need);
/// 3. at each policy check it plays whole evaluation episodes on a separate environment,
///    calling only `act`, with `explore = false`: the agent then acts greedily and must not
///    learn or change its estimates;
/// 4. after the budget it reads [`state_values`](Self::state_values) once for the value
///    picture and the comparison with value iteration.
///
/// An agent whose [`reads_state`](Self::reads_state) is true (an expert that plans from the
/// environment's state, such as the BabyAI [`bot`](BabyAiBotAgent)) is called through
/// [`act_on_state`](Self::act_on_state) instead of `act`, with the environment's domain and
/// current state; the harness fails the run with [`ExperimentError::IncompatibleAgent`] when
/// the environment does not give them. Other agents never see the state and pay nothing for
/// it.
///
/// What each method must do:
///
/// - [`name`](Self::name) returns the name the agent is registered under.
/// - [`act`](Self::act) returns an element of the action space; when `mask` is given (finite
///   action spaces) it must be one whose mask entry is true. An action outside the space is
///   reported by the environment as an error that ends the run.
/// - [`learn`](Self::learn) updates the agent from one transition. `terminated` means the
///   state reached has no future (bootstrap from 0); `truncated` alone means the episode was
///   cut by a time limit and the state reached still has a future.
/// - Errors are returned, never panicked: they end the run with a message naming the run.
///
/// # Determinism and seeds
///
/// Results must depend only on the experiment's configuration: draw every random number from
/// the generator handed to `act` (the harness seeds one for learning and one for evaluation
/// per run, see [`seeds`](crate::seeds)) or from [`AgentContext::seed`] at construction, and
/// never from a global or thread-local generator, the clock, or the order of a hash map. Then
/// runs are reproducible, independent of the number of threads, and a resumed experiment
/// equals an uninterrupted one.
///
/// ```
/// use rand::Rng;
/// use rl_experiment::agent::{Agent, AgentContext, Experience, register_agent};
/// use rl_experiment::ExperimentError;
/// use rl_spaces::{AnyElement, FiniteSpace};
///
/// /// Always the last applicable action (on a corridor: always right).
/// struct LastAction(i64);
///
/// impl Agent for LastAction {
///     fn name(&self) -> &'static str {
///         "last-action"
///     }
///     fn act(&mut self, _: &AnyElement, mask: Option<&[bool]>, _: bool, _: &mut dyn Rng)
///         -> Result<AnyElement, ExperimentError> {
///         let last = mask.and_then(|m| m.iter().rposition(|allowed| *allowed)).map_or(self.0, |i| i as i64);
///         Ok(AnyElement::Int(last))
///     }
///     fn learn(&mut self, _: &Experience<'_>) -> Result<(), ExperimentError> {
///         Ok(())
///     }
/// }
///
/// register_agent("last-action", "always the last applicable action", |context: &AgentContext<'_>| {
///     let actions = context.action_space.cardinality().unwrap_or(1) as i64;
///     Ok(Box::new(LastAction(actions - 1)))
/// })?;
///
/// // From here on it runs through the harness like a built-in.
/// use rl_core::corridor::Corridor;
/// use rl_core::{DynamicEnvironment, Simulator};
/// use rl_experiment::{run_once, ExperimentConfig};
/// let config = ExperimentConfig { num_policy_checks: 2, ..ExperimentConfig::new("corridor", "last-action", 100) };
/// let make_env = || Ok(DynamicEnvironment::new(Simulator::new(Corridor::new(4, 0.0)?, 0)).boxed());
/// let result = run_once(&config, 0, &make_env, &mut [], &|| false, &|_| {})?;
/// assert_eq!(result.checks[0].steps, 3.0, "three steps right reach the end");
/// # Ok::<(), ExperimentError>(())
/// ```
pub trait Agent: Send {
    /// The agent's name, as given to [`make_agent`] or [`register_agent`].
    fn name(&self) -> &'static str;

    /// Chooses an action. `mask` (one entry per action of a finite action space) says which
    /// actions are applicable; `explore` is false when evaluating, when the agent acts
    /// greedily. `rng` is the only source of randomness the agent may use while acting.
    fn act(
        &mut self,
        observation: &AnyElement,
        mask: Option<&[bool]>,
        explore: bool,
        rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError>;

    /// Learns from one step (no-op for agents that do not learn).
    fn learn(&mut self, experience: &Experience<'_>) -> Result<(), ExperimentError>;

    /// Whether the agent chooses its actions from the environment's state: then the harness
    /// calls [`act_on_state`](Self::act_on_state), not [`act`](Self::act). Asked once per run;
    /// false by default.
    fn reads_state(&self) -> bool {
        false
    }

    /// Chooses an action as [`act`](Self::act) does, also seeing the environment's domain and
    /// current state (called instead of `act` when [`reads_state`](Self::reads_state) is
    /// true). By default it ignores the state and calls `act`.
    fn act_on_state(
        &mut self,
        observation: &AnyElement,
        state: EnvironmentState<'_>,
        mask: Option<&[bool]>,
        explore: bool,
        rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        let _ = state;
        self.act(observation, mask, explore, rng)
    }

    /// For tabular agents: per observation index (the observation's number in its finite
    /// space), the greedy value `max_a Q(s, a)` and the greedy action's index (`None` when not
    /// applicable). Agents that return values get the value picture and the comparison with
    /// value iteration on domains that have them.
    fn state_values(&self) -> Option<Vec<(f64, Option<usize>)>> {
        None
    }
}

/// Builds the agent named `name` (a built-in or a [registered](register_agent) one) for an
/// environment with these spaces and discount, with JSON parameters overriding the agent's
/// defaults (unknown fields are errors).
pub fn make_agent(
    name: &str,
    params: Option<&JsonValue>,
    observation_space: &AnySpace,
    action_space: &AnySpace,
    discount: f64,
) -> Result<Box<dyn Agent>, ExperimentError> {
    build_agent(
        name,
        &AgentContext::new(observation_space, action_space, discount, params),
    )
}

/// Builds the agent named `name` (a built-in or a [registered](register_agent) one) for `env`,
/// an environment of the domain id `id`: its spaces, its discount and, for agents that read
/// the state (the BabyAI [`bot`](BabyAiBotAgent)), its domain, so that such an agent refuses
/// an environment it cannot play at once, naming `id`.
pub fn make_agent_for(
    name: &str,
    params: Option<&JsonValue>,
    env: &BoxedEnvironment,
    id: &str,
) -> Result<Box<dyn Agent>, ExperimentError> {
    build_agent(
        name,
        &AgentContext::new(
            env.observation_space(),
            env.action_space(),
            env.discount(),
            params,
        )
        .with_domain(id, env.domain_any()),
    )
}

/// Builds the agent named `name` (a built-in or a [registered](register_agent) one) in
/// `context`.
pub fn build_agent(
    name: &str,
    context: &AgentContext<'_>,
) -> Result<Box<dyn Agent>, ExperimentError> {
    match registry::registered(name) {
        Some(factory) => factory(context),
        None => Err(ExperimentError::UnknownAgent {
            name: name.to_owned(),
            known: agents().into_iter().map(|(name, _)| name).collect(),
        }),
    }
}

/// The built-in agents, registered in the table every agent is in ([`register_agent`]) before
/// anything reads it: each name written once (its agent's constant), with its description
/// and how it is built.
pub(crate) fn builtin_agents() -> Vec<(&'static str, &'static str, Box<AgentFactory>)> {
    fn td(target: TdTarget, linear: bool) -> Box<AgentFactory> {
        Box::new(move |context: &AgentContext<'_>| {
            let name = if linear {
                target.linear_name()
            } else {
                target.tabular_name()
            };
            let (observation_space, action_space) =
                (context.observation_space, context.action_space);
            Ok(if linear {
                let params: LinearTdParams = parse_params(name, context.params)?;
                Box::new(LinearTd::new(
                    target,
                    params,
                    observation_space,
                    action_space,
                    context.discount,
                )?) as Box<dyn Agent>
            } else {
                let params: TabularTdParams = parse_params(name, context.params)?;
                Box::new(TabularTd::new(
                    target,
                    params,
                    observation_space,
                    action_space,
                    context.discount,
                )?)
            })
        })
    }
    vec![
        (
            RandomAgent::NAME,
            "uniform random actions among the applicable ones",
            Box::new(|context: &AgentContext<'_>| {
                no_params(RandomAgent::NAME, context.params)?;
                Ok(Box::new(RandomAgent::new(context.action_space.clone())) as Box<dyn Agent>)
            }),
        ),
        (
            TdTarget::QLearning.tabular_name(),
            "tabular Q-learning with epsilon-greedy exploration (finite or integer observations)",
            td(TdTarget::QLearning, false),
        ),
        (
            TdTarget::Sarsa.tabular_name(),
            "tabular SARSA with epsilon-greedy exploration (finite or integer observations)",
            td(TdTarget::Sarsa, false),
        ),
        (
            TdTarget::QLearning.linear_name(),
            "Q-learning on tile-coded features (bounded continuous observations)",
            td(TdTarget::QLearning, true),
        ),
        (
            TdTarget::Sarsa.linear_name(),
            "SARSA on tile-coded features (bounded continuous observations)",
            td(TdTarget::Sarsa, true),
        ),
        (
            BabyAiBotAgent::NAME,
            "minigrid's BabyAI bot, an expert planning from the state (BabyAI-* ids only; does not learn)",
            Box::new(|context: &AgentContext<'_>| {
                let params: BotParams = parse_params(BabyAiBotAgent::NAME, context.params)?;
                Ok(Box::new(BabyAiBotAgent::new(context, params)?) as Box<dyn Agent>)
            }),
        ),
    ]
}

/// Reads an agent's parameters: defaults overridden by the given JSON object.
fn parse_params<P: DeserializeOwned + Default>(
    agent: &str,
    params: Option<&JsonValue>,
) -> Result<P, ExperimentError> {
    match params {
        None => Ok(P::default()),
        Some(value) => serde_json::from_value(value.clone())
            .map_err(|e| ExperimentError::invalid("agent parameters", format!("for {agent}: {e}"))),
    }
}

fn no_params(agent: &str, params: Option<&JsonValue>) -> Result<(), ExperimentError> {
    match params {
        Some(JsonValue::Object(map)) if !map.is_empty() => Err(ExperimentError::invalid(
            "agent parameters",
            format!("{agent} takes no parameters"),
        )),
        Some(JsonValue::Object(_)) | Some(JsonValue::Null) | None => Ok(()),
        Some(_) => Err(ExperimentError::invalid(
            "agent parameters",
            "expected a JSON object",
        )),
    }
}

/// The Discrete action space an agent needs, or an error naming the agent.
fn discrete_actions(
    agent: &'static str,
    action_space: &AnySpace,
) -> Result<Discrete, ExperimentError> {
    match action_space {
        AnySpace::Discrete(d) if d.n() <= 1 << 16 => Ok(*d),
        other => Err(ExperimentError::IncompatibleAgent {
            agent,
            reason: format!(
                "it needs a Discrete action space (of at most 65536 actions), not {other}"
            ),
        }),
    }
}

/// The index of the action chosen among the allowed ones: uniformly at random with
/// probability `epsilon` (when exploring), else greedily by `values`, ties broken uniformly.
fn epsilon_greedy(
    values: &[f64],
    mask: Option<&[bool]>,
    epsilon: f64,
    explore: bool,
    rng: &mut dyn Rng,
) -> Option<usize> {
    let allowed = |i: usize| mask.is_none_or(|m| m.get(i).copied().unwrap_or(false));
    let count = (0..values.len()).filter(|i| allowed(*i)).count();
    if count == 0 {
        return None;
    }
    if explore && epsilon > 0.0 && rng.random::<f64>() < epsilon {
        let pick = rng.random_range(0..count);
        return (0..values.len()).filter(|i| allowed(*i)).nth(pick);
    }
    greedy(values, mask, rng)
}

/// The allowed action of largest value, ties broken uniformly at random.
fn greedy(values: &[f64], mask: Option<&[bool]>, rng: &mut dyn Rng) -> Option<usize> {
    let allowed = |i: usize| mask.is_none_or(|m| m.get(i).copied().unwrap_or(false));
    let best = (0..values.len())
        .filter(|i| allowed(*i))
        .map(|i| values[i])
        .fold(f64::NEG_INFINITY, f64::max);
    let ties = (0..values.len())
        .filter(|i| allowed(*i) && values[*i] == best)
        .count();
    if ties == 0 {
        return None;
    }
    let pick = if ties == 1 {
        0
    } else {
        rng.random_range(0..ties)
    };
    (0..values.len())
        .filter(|i| allowed(*i) && values[*i] == best)
        .nth(pick)
}

/// The largest value among the allowed actions (0 if none is allowed).
fn max_allowed(values: &[f64], mask: Option<&[bool]>) -> f64 {
    let best = values
        .iter()
        .enumerate()
        .filter(|(i, _)| mask.is_none_or(|m| m.get(*i).copied().unwrap_or(false)))
        .map(|(_, v)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    if best == f64::NEG_INFINITY { 0.0 } else { best }
}

/// The index of a Discrete action element.
fn action_index(actions: &Discrete, action: &AnyElement) -> Result<usize, ExperimentError> {
    action
        .as_int()
        .and_then(|a| actions.offset_of(a))
        .map(|o| o as usize)
        .ok_or_else(|| {
            ExperimentError::Environment(rl_core::CoreError::invalid_action(action, actions))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn greedy_breaks_ties_among_allowed_actions_only() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(0);
        let values = [1.0, 3.0, 3.0, 3.0];
        let mask = [true, true, false, true];
        let mut seen = [0usize; 4];
        for _ in 0..400 {
            seen[greedy(&values, Some(&mask), &mut rng).unwrap()] += 1;
        }
        assert_eq!(seen[0] + seen[2], 0);
        assert!(seen[1] > 100 && seen[3] > 100, "{seen:?}");
        assert_eq!(greedy(&values, Some(&[false; 4]), &mut rng), None);
        assert_eq!(
            max_allowed(&values, Some(&[true, false, false, false])),
            1.0
        );
    }

    #[test]
    fn unknown_agents_list_the_known_ones() {
        let space = AnySpace::from(Discrete::new(2).unwrap());
        let error = make_agent("dqn", None, &space, &space, 1.0).err().unwrap();
        assert_eq!(
            error.to_string(),
            "unknown agent \"dqn\"; known agents: random, q-learning, sarsa, linear-q, linear-sarsa, bot"
        );
        assert!(
            make_agent(
                "random",
                Some(&serde_json::json!({"x": 1})),
                &space,
                &space,
                1.0
            )
            .is_err()
        );
    }
}
