//! Agents by name: the built-in agents and the ones a user registers with
//! [`register_agent`], in one process-wide table that [`make_agent`](super::make_agent), the
//! experiment harness ([`run_once`](crate::run_once), [`run_experiment`](crate::run_experiment))
//! and the `rl` command line (`--agent NAME`, `rl list`) all read.
//!
//! An experiment names its agent ([`ExperimentConfig::agent`](crate::ExperimentConfig::agent))
//! rather than holding a closure, because the name is what `experiment.json` and every run
//! file record and what resuming compares: a registered agent is therefore resumed, summarised
//! and plotted exactly as a built-in is.

use std::any::Any;
use std::fmt;
use std::sync::{Arc, LazyLock, PoisonError, RwLock};

use rl_spaces::AnySpace;
use serde_json::Value as JsonValue;

use super::{Agent, builtin_agents};
use crate::ExperimentError;

/// What an agent factory is given to build an agent for one run.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct AgentContext<'a> {
    /// The environment's observation space.
    pub observation_space: &'a AnySpace,
    /// The environment's action space.
    pub action_space: &'a AnySpace,
    /// The environment's discount factor.
    pub discount: f64,
    /// The agent's JSON parameters (`--agent-params`, [`ExperimentConfig::agent_params`]), or
    /// `None` for the agent's defaults. A factory should reject fields it does not know.
    ///
    /// [`ExperimentConfig::agent_params`]: crate::ExperimentConfig::agent_params
    pub params: Option<&'a JsonValue>,
    /// A seed for the agent's own initial randomness (random initial weights, for example),
    /// derived from the run's seed as stream 4 (`seeds::derive(run_seed, 4)`, see
    /// [`seeds`](crate::seeds)); 0 when the agent is built only to check that it fits the
    /// environment. Randomness while acting comes from the generator handed to
    /// [`Agent::act`].
    pub seed: u64,
    /// The registry id of the environment's domain, when known (for messages such as "the
    /// bot plays BabyAI levels only, not CartPole-v1").
    pub id: Option<&'a str>,
    /// The environment's typed domain, to downcast, when the environment gives it
    /// ([`Environment::domain_any`](rl_core::Environment::domain_any)): what an agent that
    /// reads the state ([`Agent::reads_state`](super::Agent::reads_state)) checks it can
    /// play.
    pub domain: Option<&'a dyn Any>,
}

impl<'a> AgentContext<'a> {
    /// A context for these spaces, discount and parameters, with seed 0, no id and no
    /// domain.
    pub fn new(
        observation_space: &'a AnySpace,
        action_space: &'a AnySpace,
        discount: f64,
        params: Option<&'a JsonValue>,
    ) -> Self {
        AgentContext {
            observation_space,
            action_space,
            discount,
            params,
            seed: 0,
            id: None,
            domain: None,
        }
    }

    /// The same context for an environment of the domain id `id` whose typed domain is
    /// `domain` (`None` when the environment does not give it).
    pub fn with_domain(mut self, id: &'a str, domain: Option<&'a dyn Any>) -> Self {
        self.id = Some(id);
        self.domain = domain;
        self
    }

    /// The same context with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

/// Builds an agent for one run (see [`register_agent`]).
pub type AgentFactory =
    dyn Fn(&AgentContext<'_>) -> Result<Box<dyn Agent>, ExperimentError> + Send + Sync;

/// One registered agent.
#[derive(Clone)]
struct Entry {
    name: Arc<str>,
    description: String,
    factory: Arc<AgentFactory>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Entry")
            .field("name", &self.name)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

/// Every agent, in registration order: the built-ins first ([`builtin_agents`], registered
/// when the table is first read), then the agents users register.
static TABLE: LazyLock<RwLock<Vec<Entry>>> = LazyLock::new(|| {
    let builtins = builtin_agents()
        .into_iter()
        .map(|(name, description, factory)| Entry {
            name: Arc::from(name),
            description: description.to_owned(),
            factory: Arc::from(factory),
        })
        .collect();
    RwLock::new(builtins)
});

/// Registers an agent under `name` with a one-line `description`, so that an experiment whose
/// [`agent`](crate::ExperimentConfig::agent) is `name` builds it with `factory` (once per run,
/// and once before the first run to check that it fits the environment).
///
/// Fails with [`ExperimentError::DuplicateAgent`] when the name is a built-in's or is already
/// registered, and with [`ExperimentError::InvalidConfig`] for an empty name or one with
/// whitespace.
///
/// ```
/// use rl_experiment::agent::{self, AgentContext, RandomAgent};
///
/// agent::register_agent("doc-random", "uniform random actions", |context: &AgentContext<'_>| {
///     Ok(Box::new(RandomAgent::new(context.action_space.clone())))
/// })?;
/// assert!(agent::agents().iter().any(|(name, _)| name == "doc-random"));
/// assert!(agent::register_agent("q-learning", "again", |_: &AgentContext<'_>| unreachable!()).is_err());
/// # Ok::<(), rl_experiment::ExperimentError>(())
/// ```
pub fn register_agent<F>(
    name: impl Into<String>,
    description: impl Into<String>,
    factory: F,
) -> Result<(), ExperimentError>
where
    F: Fn(&AgentContext<'_>) -> Result<Box<dyn Agent>, ExperimentError> + Send + Sync + 'static,
{
    let name = name.into();
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return Err(ExperimentError::invalid(
            "agent",
            format!(
                "{name:?} is not a registrable agent name: names are non-empty and have no whitespace"
            ),
        ));
    }
    let mut table = TABLE.write().unwrap_or_else(PoisonError::into_inner);
    if table.iter().any(|entry| *entry.name == *name) {
        return Err(ExperimentError::DuplicateAgent { name });
    }
    table.push(Entry {
        name: Arc::from(name.as_str()),
        description: description.into(),
        factory: Arc::new(factory),
    });
    Ok(())
}

/// Every agent name with its one-line description: the built-ins, then the registered agents
/// in registration order.
pub fn agents() -> Vec<(String, String)> {
    let table = TABLE.read().unwrap_or_else(PoisonError::into_inner);
    table
        .iter()
        .map(|entry| (entry.name.to_string(), entry.description.clone()))
        .collect()
}

/// The factory registered under `name`, cloned out of the table so that no lock is held
/// while it builds.
pub(super) fn registered(name: &str) -> Option<Arc<AgentFactory>> {
    let table = TABLE.read().unwrap_or_else(PoisonError::into_inner);
    table
        .iter()
        .find(|entry| &*entry.name == name)
        .map(|entry| Arc::clone(&entry.factory))
}
