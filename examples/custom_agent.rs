//! An agent written outside the library, registered under a name, then run by the experiment
//! harness and the `rl` command line exactly as a built-in agent: policy checks, seeds, resume,
//! results JSON, summary CSV and plots. Run it with
//! `cargo run -p rl-examples --example custom_agent` (about ten seconds in a debug build,
//! most of it spent flushing result files to disk).
//!
//! The agent is tabular Expected SARSA with ε-greedy exploration: it bootstraps from the
//! expected value of the next action under its own ε-greedy policy.

use std::num::NonZeroUsize;
use std::process::ExitCode;

use rl_core::rand::{Rng, RngExt};
use rl_experiment::agent::{Agent, AgentContext, Experience, register_agent};
use rl_experiment::{ExperimentConfig, ExperimentError, Silent, run_experiment};
use rl_spaces::{AnyElement, AnySpace, FiniteSpace};
use serde::Deserialize;

/// The name the example registers.
pub const AGENT_NAME: &str = "expected-sarsa";

/// The parameters of [`ExpectedSarsa`], read from `--agent-params` over the defaults.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExpectedSarsaParams {
    /// The step size, in (0, 1].
    pub learning_rate: f64,
    /// The exploration rate, in [0, 1].
    pub epsilon: f64,
}

impl Default for ExpectedSarsaParams {
    fn default() -> Self {
        ExpectedSarsaParams {
            learning_rate: 0.2,
            epsilon: 0.1,
        }
    }
}

/// Tabular Expected SARSA over a finite observation space and a `Discrete` action space.
#[derive(Debug, Clone)]
pub struct ExpectedSarsa {
    params: ExpectedSarsaParams,
    observation_space: AnySpace,
    actions: usize,
    first_action: i64,
    discount: f64,
    /// One value per (observation index, action index), row-major.
    values: Vec<f64>,
}

impl ExpectedSarsa {
    /// An agent for the spaces of `context`, with its JSON parameters.
    pub fn new(context: &AgentContext<'_>) -> Result<ExpectedSarsa, ExperimentError> {
        let params: ExpectedSarsaParams = match context.params {
            None => ExpectedSarsaParams::default(),
            Some(value) => serde_json::from_value(value.clone()).map_err(|error| {
                ExperimentError::invalid("agent parameters", format!("for {AGENT_NAME}: {error}"))
            })?,
        };
        let valid = params.learning_rate > 0.0
            && params.learning_rate <= 1.0
            && (0.0..=1.0).contains(&params.epsilon);
        if !valid {
            return Err(ExperimentError::invalid(
                "agent parameters",
                format!("for {AGENT_NAME}: learning_rate in (0, 1] and epsilon in [0, 1]"),
            ));
        }
        let AnySpace::Discrete(actions) = context.action_space else {
            return Err(ExperimentError::IncompatibleAgent {
                agent: AGENT_NAME,
                reason: format!("it needs Discrete actions, not {}", context.action_space),
            });
        };
        let states = context
            .observation_space
            .cardinality()
            .filter(|n| *n <= 1_000_000)
            .ok_or_else(|| ExperimentError::IncompatibleAgent {
                agent: AGENT_NAME,
                reason: format!(
                    "it needs a finite observation space of at most a million elements, not {}",
                    context.observation_space
                ),
            })?;
        let count = usize::try_from(actions.n()).unwrap_or(usize::MAX);
        Ok(ExpectedSarsa {
            params,
            observation_space: context.observation_space.clone(),
            actions: count,
            first_action: actions.start(),
            discount: context.discount,
            values: vec![0.0; states.saturating_mul(count)],
        })
    }

    fn state(&self, observation: &AnyElement) -> Result<usize, ExperimentError> {
        self.observation_space.index_of(observation).ok_or_else(|| {
            ExperimentError::invalid(
                "observation",
                format!("{observation:?} is not in {}", self.observation_space),
            )
        })
    }

    fn row(&self, state: usize) -> &[f64] {
        &self.values[state * self.actions..(state + 1) * self.actions]
    }

    /// The allowed actions of largest value.
    fn best_actions(&self, state: usize, mask: Option<&[bool]>) -> Vec<usize> {
        let allowed = |a: usize| mask.is_none_or(|m| m.get(a).copied().unwrap_or(false));
        let row = self.row(state);
        let best = (0..self.actions)
            .filter(|a| allowed(*a))
            .map(|a| row[a])
            .fold(f64::NEG_INFINITY, f64::max);
        (0..self.actions)
            .filter(|a| allowed(*a) && row[*a] == best)
            .collect()
    }

    /// The expected value of the next action under the ε-greedy policy.
    fn expected_value(&self, state: usize, mask: Option<&[bool]>) -> f64 {
        let allowed: Vec<usize> = (0..self.actions)
            .filter(|a| mask.is_none_or(|m| m.get(*a).copied().unwrap_or(false)))
            .collect();
        let best = self.best_actions(state, mask);
        if allowed.is_empty() || best.is_empty() {
            return 0.0;
        }
        let row = self.row(state);
        let epsilon = self.params.epsilon;
        let uniform = allowed.iter().map(|a| row[*a]).sum::<f64>() / allowed.len() as f64;
        let greedy = best.iter().map(|a| row[*a]).sum::<f64>() / best.len() as f64;
        epsilon * uniform + (1.0 - epsilon) * greedy
    }
}

impl Agent for ExpectedSarsa {
    fn name(&self) -> &'static str {
        AGENT_NAME
    }

    fn act(
        &mut self,
        observation: &AnyElement,
        mask: Option<&[bool]>,
        explore: bool,
        rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        let state = self.state(observation)?;
        // Every random number comes from `rng`, which the harness seeds per run: runs are
        // reproducible and independent of the number of threads.
        let choices = if explore && rng.random::<f64>() < self.params.epsilon {
            (0..self.actions)
                .filter(|a| mask.is_none_or(|m| m.get(*a).copied().unwrap_or(false)))
                .collect()
        } else {
            self.best_actions(state, mask)
        };
        if choices.is_empty() {
            return Err(ExperimentError::invalid(
                "action mask",
                "no action is applicable",
            ));
        }
        let pick = choices[rng.random_range(0..choices.len())];
        Ok(AnyElement::Int(self.first_action + pick as i64))
    }

    fn learn(&mut self, experience: &Experience<'_>) -> Result<(), ExperimentError> {
        let state = self.state(experience.observation)?;
        let action = experience
            .action
            .as_int()
            .and_then(|a| usize::try_from(a - self.first_action).ok())
            .filter(|a| *a < self.actions)
            .ok_or_else(|| {
                ExperimentError::invalid("action", format!("{:?}", experience.action))
            })?;
        let future = if experience.terminated {
            0.0
        } else {
            let next = self.state(experience.next_observation)?;
            self.expected_value(next, experience.next_mask)
        };
        let target = experience.reward + self.discount * future;
        let slot = &mut self.values[state * self.actions + action];
        *slot += self.params.learning_rate * (target - *slot);
        Ok(())
    }

    fn state_values(&self) -> Option<Vec<(f64, Option<usize>)>> {
        let states = self.values.len() / self.actions.max(1);
        Some(
            (0..states)
                .map(|state| {
                    let best = self.best_actions(state, None);
                    (
                        best.first().map_or(0.0, |a| self.row(state)[*a]),
                        best.first().copied(),
                    )
                })
                .collect(),
        )
    }
}

/// Registers [`ExpectedSarsa`] under [`AGENT_NAME`].
pub fn register() -> Result<(), ExperimentError> {
    register_agent(
        AGENT_NAME,
        "tabular Expected SARSA, epsilon-greedy (an example of a user's agent)",
        |context: &AgentContext<'_>| Ok(Box::new(ExpectedSarsa::new(context)?) as Box<dyn Agent>),
    )
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    rl_domains::register_builtins();
    register()?;

    // Through the library: 4 runs on GridWorld 4x5, results in a scratch directory.
    let directory = std::env::temp_dir().join(format!("custom-agent-{}", std::process::id()));
    let config = ExperimentConfig {
        runs: 4,
        ..ExperimentConfig::new("GridWorld-4x5", AGENT_NAME, 20_000)
    };
    let make_env = || rl_experiment::catalog::make("GridWorld-4x5", None);
    let threads = NonZeroUsize::new(2).ok_or("zero")?;
    let outcome = run_experiment(&config, &directory, &make_env, threads, &|| false, &Silent)?;
    let (first, last) = (
        outcome.summary.first().ok_or("no checks")?,
        outcome.summary.last().ok_or("no checks")?,
    );
    println!(
        "{AGENT_NAME} on GridWorld-4x5: evaluation return {:.3} before learning, {:.3} after {} steps",
        first.return_mean, last.return_mean, last.learning_steps
    );

    // Through the `rl` command line, as `--agent expected-sarsa`: the same directory resumes.
    let out = directory.to_string_lossy().into_owned();
    let code = rl_experiment::cli::main_with_args([
        "rl",
        "run",
        "--domain",
        "GridWorld-4x5",
        "--agent",
        AGENT_NAME,
        "--max-steps",
        "20000",
        "--runs",
        "4",
        "--out",
        &out,
    ]);
    std::fs::remove_dir_all(&directory)?;
    Ok(code)
}
