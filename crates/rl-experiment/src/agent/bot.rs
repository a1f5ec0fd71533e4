//! [`BabyAiBotAgent`], the agent `bot`: minigrid 3.2.0's BabyAI bot
//! ([`rl_object_grid::babyai::bot::BabyAiBot`]) as an agent of the experiment harness, planning
//! from the environment's state.

use rand::Rng;
use rl_object_grid::babyai::bot::BabyAiBot;
use rl_object_grid::babyai::{BabyAi, BabyAiState};
use rl_spaces::AnyElement;
use serde::{Deserialize, Serialize};

use super::{Agent, AgentContext, EnvironmentState, Experience};
use crate::ExperimentError;

/// What the bot does when minigrid's bot would raise (or loop forever) in an episode
/// ([`BotError`](rl_object_grid::babyai::bot::BotError)): a few levels' episodes, KeyInBox's
/// all (see [`rl_object_grid::babyai::bot`] for the rates).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BotOnError {
    /// Gives up the episode: from then on the bot takes `done` (6), which changes nothing in
    /// a BabyAI level, until the level's time limit ends the episode, a failure (return 0), as
    /// minigrid's bot fails it. The default, so that a success rate counts these episodes as
    /// failures, as the rates recorded for minigrid's bot do.
    #[default]
    GiveUp,
    /// Fails the run with [`ExperimentError::AgentFailed`], which gives the bot's message and
    /// where it happened.
    Fail,
}

/// The bot's parameters (`--agent-params '{"on_error": "fail"}'`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BotParams {
    /// What to do where minigrid's bot raises: `"give-up"` (the default) or `"fail"`.
    pub on_error: BotOnError,
}

/// The bot of one stream of episodes (learning or evaluation): minigrid's bot for the current
/// episode, the action it last suggested (the action taken since) and whether it gave up.
#[derive(Debug, Default)]
struct Episode {
    bot: Option<BabyAiBot>,
    taken: Option<i64>,
    gave_up: bool,
}

/// The agent `bot`: minigrid 3.2.0's `BabyAIBot`, the expert that solves BabyAI's levels, on
/// the environment's state ([`Agent::reads_state`]).
///
/// At the first step of every episode it makes minigrid's bot for the episode's state
/// ([`BabyAiBot::new`]), then at each step it returns [`BabyAiBot::replan`]'s action for the
/// current state, told the action it returned before: minigrid's `bot.replan(action_taken)`
/// loop, action for action. Learning and evaluation episodes each have their own bot (the
/// harness interleaves them). It draws nothing from the generator and learns nothing, so a
/// run's returns depend only on the environments' seeds, and every policy check measures the
/// same expert.
///
/// Only environments of the `BabyAI-*` ids, built by id (their domain a
/// [`BabyAi`], their state a [`BabyAiState`]), can run it; building it for anything else fails
/// with [`ExperimentError::IncompatibleAgent`] naming the id. Where minigrid's bot raises
/// (KeyInBox, the PutNext*Carrying levels, a few episodes of other levels), the episode is
/// given up or the run fails, as [`BotParams::on_error`] says.
///
/// Outside the harness, build it with [`make_agent_for`](super::make_agent_for) and call
/// [`act_on_state`](Agent::act_on_state) with [`EnvironmentState::of`] the environment at each
/// step: `examples/babyai_demonstrations.rs` does so to write demonstrations (observations and actions,
/// one JSON line per step).
///
/// ```
/// use rl_experiment::{catalog, run_once, ExperimentConfig};
///
/// let config = ExperimentConfig {
///     num_policy_checks: 1,
///     checks_per_policy: 5,
///     ..ExperimentConfig::new("BabyAI-GoToRedBallGrey-v0", "bot", 1)
/// };
/// let result = run_once(&config, 0, &|| catalog::make_for_experiment(&config), &mut [], &|| false, &|_| {})?;
/// assert!(result.checks.iter().all(|check| check.terminated == 1.0), "the bot reaches the ball");
/// assert!(result.checks.iter().all(|check| check.episode_return > 0.0));
///
/// let error = catalog::make("CartPole-v1", None).and_then(|env| {
///     rl_experiment::agent::make_agent_for("bot", None, &env, "CartPole-v1").map(|_| ())
/// });
/// assert!(error.unwrap_err().to_string().contains("not CartPole-v1"));
/// # Ok::<(), rl_experiment::ExperimentError>(())
/// ```
#[derive(Debug)]
pub struct BabyAiBotAgent {
    params: BotParams,
    /// The id of the environment's domain, for messages.
    id: String,
    learning: Episode,
    evaluation: Episode,
}

impl BabyAiBotAgent {
    /// Its name, `bot`, as registered and as [`Agent::name`] gives it.
    pub const NAME: &'static str = "bot";

    /// The bot for the environment of `context`, which must be a BabyAI level's
    /// ([`AgentContext::domain`] a [`BabyAi`]).
    ///
    /// # Errors
    ///
    /// [`ExperimentError::IncompatibleAgent`] naming the id when the environment is not a
    /// BabyAI level's, or does not give its domain (built other than by id).
    pub fn new(context: &AgentContext<'_>, params: BotParams) -> Result<Self, ExperimentError> {
        let is_babyai = context
            .domain
            .is_some_and(|domain| domain.downcast_ref::<BabyAi>().is_some());
        if !is_babyai {
            let id = context.id.unwrap_or("this environment");
            let reason = if context.domain.is_none() && id.starts_with("BabyAI-") {
                format!(
                    "it plans from the state of BabyAI levels, and this environment of {id} does \
                     not give its state (build it by id, with rl_experiment::catalog::make)"
                )
            } else {
                format!("it plays BabyAI levels only (the BabyAI-* ids of `rl list`), not {id}")
            };
            return Err(ExperimentError::IncompatibleAgent {
                agent: Self::NAME,
                reason,
            });
        }
        Ok(BabyAiBotAgent {
            params,
            id: context.id.unwrap_or("a BabyAI level").to_owned(),
            learning: Episode::default(),
            evaluation: Episode::default(),
        })
    }
}

impl Agent for BabyAiBotAgent {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    /// Fails: the bot needs the environment's state ([`act_on_state`](Agent::act_on_state),
    /// which the harness calls).
    fn act(
        &mut self,
        _observation: &AnyElement,
        _mask: Option<&[bool]>,
        _explore: bool,
        _rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        Err(ExperimentError::IncompatibleAgent {
            agent: Self::NAME,
            reason: "it chooses its actions from the environment's state, which it was not \
                     given (call act_on_state, as the experiment harness does)"
                .to_owned(),
        })
    }

    fn learn(&mut self, _experience: &Experience<'_>) -> Result<(), ExperimentError> {
        Ok(())
    }

    fn reads_state(&self) -> bool {
        true
    }

    fn act_on_state(
        &mut self,
        _observation: &AnyElement,
        view: EnvironmentState<'_>,
        _mask: Option<&[bool]>,
        explore: bool,
        _rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        let not_babyai = || ExperimentError::IncompatibleAgent {
            agent: Self::NAME,
            reason: "the environment's state is not a BabyAI level's".to_owned(),
        };
        let domain = view
            .domain
            .downcast_ref::<BabyAi>()
            .ok_or_else(not_babyai)?;
        let state = view
            .state
            .downcast_ref::<BabyAiState>()
            .ok_or_else(not_babyai)?;
        let episode = if explore {
            &mut self.learning
        } else {
            &mut self.evaluation
        };
        if view.episode_step == 0 {
            *episode = Episode {
                bot: Some(BabyAiBot::new(domain, state)),
                taken: None,
                gave_up: false,
            };
        }
        if episode.gave_up {
            return Ok(AnyElement::Int(rl_object_grid::DONE));
        }
        let Some(bot) = episode.bot.as_mut() else {
            return Err(ExperimentError::AgentFailed {
                agent: Self::NAME,
                reason: format!(
                    "asked for step {} of an episode whose first step it did not see",
                    view.episode_step
                ),
            });
        };
        match bot.replan(state, episode.taken) {
            Ok(action) => {
                episode.taken = Some(action);
                Ok(AnyElement::Int(action))
            }
            Err(error) => match self.params.on_error {
                BotOnError::GiveUp => {
                    episode.gave_up = true;
                    Ok(AnyElement::Int(rl_object_grid::DONE))
                }
                BotOnError::Fail => Err(ExperimentError::AgentFailed {
                    agent: Self::NAME,
                    reason: format!(
                        "at step {} of {} episode of {}: {error}",
                        view.episode_step,
                        if explore {
                            "a learning"
                        } else {
                            "an evaluation"
                        },
                        self.id
                    ),
                }),
            },
        }
    }
}
