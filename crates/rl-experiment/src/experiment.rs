//! One run of an RLPy-style experiment: learn for a step budget, evaluating the policy at evenly
//! spaced checks on a separate environment with exploration off.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg64;
use rl_core::{BoxedEnvironment, Environment, Mode, StepOutcome};
use rl_spaces::{AnyElement, FiniteSpace};
use serde::{Deserialize, Serialize};
use serde_json::Value as JsonValue;

use crate::ExperimentError;
use crate::agent::{Agent, AgentContext, EnvironmentState, Experience, build_agent};
use crate::episode::{ConstraintViolations, ViolationTally};
use crate::seeds::RunSeeds;

/// What an experiment is: the domain, the agent, the budget, the checks, the runs and the seed.
/// Two experiments with equal configurations give equal results (timings aside).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentConfig {
    /// The domain's registry id, such as `"GridWorld-4x5"`.
    pub domain: String,
    /// JSON parameters overriding the domain's defaults.
    #[serde(default)]
    pub domain_params: Option<JsonValue>,
    /// The agent's name, such as `"q-learning"`.
    pub agent: String,
    /// JSON parameters overriding the agent's defaults.
    #[serde(default)]
    pub agent_params: Option<JsonValue>,
    /// The learning budget in steps (RLPy's `max_steps`).
    pub max_steps: u64,
    /// The number of evenly spaced policy checks after step 0 (RLPy's `num_policy_checks`).
    pub num_policy_checks: u64,
    /// The evaluation episodes per check (RLPy's `checks_per_policy`).
    pub checks_per_policy: u64,
    /// The number of independent runs.
    pub runs: u64,
    /// The master seed; see [`seeds`](crate::seeds) for how each run's seeds derive from it.
    pub seed: u64,
    /// The most steps of an evaluation episode, for environments without an episode cap.
    #[serde(default = "default_evaluation_step_limit")]
    pub evaluation_step_limit: u64,
    /// When set, the domain's continuous (float Box) actions are discretised into this many
    /// evenly spaced values per dimension, for learning and evaluation alike, so that agents
    /// of finite actions control it ([`catalog::make_for_experiment`] builds such an
    /// environment; `rl run` sets it by default, see [`catalog::default_action_bins`]).
    /// Absent from `experiment.json` when not set.
    ///
    /// [`catalog::make_for_experiment`]: crate::catalog::make_for_experiment
    /// [`catalog::default_action_bins`]: crate::catalog::default_action_bins
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_bins: Option<u32>,
}

/// The largest step budget per run, [`ExperimentConfig::max_steps`]: 10¹², days of computing
/// at ten million steps a second.
pub const MAX_STEPS_LIMIT: u64 = 1_000_000_000_000;
/// The most policy checks per run, [`ExperimentConfig::num_policy_checks`] (each is a row
/// of the summary and a point of the learning curve).
pub const POLICY_CHECKS_LIMIT: u64 = 10_000;
/// The most evaluation episodes per check, [`ExperimentConfig::checks_per_policy`].
pub const CHECKS_PER_POLICY_LIMIT: u64 = 1_000_000;
/// The most runs of one experiment, [`ExperimentConfig::runs`] (each writes two files).
pub const RUNS_LIMIT: u64 = 10_000;

fn default_evaluation_step_limit() -> u64 {
    10_000
}

impl ExperimentConfig {
    /// A configuration with RLPy-like defaults for the counts: 10 checks of 10 episodes, 1 run,
    /// seed 1.
    pub fn new(domain: impl Into<String>, agent: impl Into<String>, max_steps: u64) -> Self {
        ExperimentConfig {
            domain: domain.into(),
            domain_params: None,
            agent: agent.into(),
            agent_params: None,
            max_steps,
            num_policy_checks: 10,
            checks_per_policy: 10,
            runs: 1,
            seed: 1,
            evaluation_step_limit: default_evaluation_step_limit(),
            action_bins: None,
        }
    }

    /// Checks the counts against their limits, before anything is allocated or written: a
    /// budget from 1 to [`MAX_STEPS_LIMIT`], from 1 to [`POLICY_CHECKS_LIMIT`] checks and no
    /// more than the budget, from 1 to [`CHECKS_PER_POLICY_LIMIT`] evaluation episodes per
    /// check, from 1 to [`RUNS_LIMIT`] runs, and an evaluation step limit from 1 to
    /// [`MAX_STEPS_LIMIT`].
    pub fn validate(&self) -> Result<(), ExperimentError> {
        let within = |field: &'static str, value: u64, limit: u64, what: &str| {
            if (1..=limit).contains(&value) {
                Ok(())
            } else {
                Err(ExperimentError::invalid(
                    field,
                    format!("{value} {what}; give a whole number from 1 to {limit}"),
                ))
            }
        };
        within("max_steps", self.max_steps, MAX_STEPS_LIMIT, "steps")?;
        within(
            "checks",
            self.num_policy_checks,
            POLICY_CHECKS_LIMIT,
            "policy checks",
        )?;
        if self.num_policy_checks > self.max_steps {
            return Err(ExperimentError::invalid(
                "checks",
                format!(
                    "{} policy checks for {} steps; give at most one check per step",
                    self.num_policy_checks, self.max_steps
                ),
            ));
        }
        within(
            "checks_per_policy",
            self.checks_per_policy,
            CHECKS_PER_POLICY_LIMIT,
            "evaluation episodes per check",
        )?;
        within("runs", self.runs, RUNS_LIMIT, "runs")?;
        within(
            "evaluation_step_limit",
            self.evaluation_step_limit,
            MAX_STEPS_LIMIT,
            "evaluation steps",
        )
    }

    /// The learning step after which check `k` (1-based) is made: `k * max_steps /
    /// num_policy_checks`, computed without overflow.
    pub fn check_step(&self, k: u64) -> u64 {
        (u128::from(k) * u128::from(self.max_steps) / u128::from(self.num_policy_checks.max(1)))
            as u64
    }

    /// The learning steps after which the policy is checked (step 0 excluded):
    /// [`check_step(k)`](Self::check_step) for `k = 1..=num_policy_checks`, at most
    /// [`POLICY_CHECKS_LIMIT`] of them (call [`validate`](Self::validate) first).
    pub fn check_steps(&self) -> Vec<u64> {
        (1..=self.num_policy_checks.min(POLICY_CHECKS_LIMIT))
            .map(|k| self.check_step(k))
            .collect()
    }
}

/// The evaluation at one policy check, with RLPy's keys plus `truncated` and `return_std`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckRecord {
    /// Learning steps taken before the check.
    pub learning_steps: u64,
    /// The mean return of the evaluation episodes.
    #[serde(rename = "return")]
    pub episode_return: f64,
    /// The standard deviation of those returns (population).
    pub return_std: f64,
    /// The mean discounted return.
    pub discounted_return: f64,
    /// The mean episode length.
    pub steps: f64,
    /// The fraction of evaluation episodes that terminated.
    pub terminated: f64,
    /// The fraction of evaluation episodes that were truncated.
    pub truncated: f64,
    /// Learning episodes started before the check.
    pub learning_episode: u64,
    /// Seconds spent learning before the check (evaluation excluded).
    pub learning_time: f64,
}

/// One learning episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingEpisode {
    /// The sum of rewards.
    #[serde(rename = "return")]
    pub episode_return: f64,
    /// The number of steps.
    pub length: u64,
    /// Whether it terminated.
    pub terminated: bool,
    /// Whether it was truncated.
    pub truncated: bool,
    /// Constraint violations reported (the sum over steps of the number of constraints each
    /// violated).
    pub constraint_violations: u64,
    /// The violations by constraint (name, count, first step), in the order of the domain's
    /// constraints, one entry per constraint violated at least once (absent from the run file
    /// when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<ConstraintViolations>,
}

/// The per-state greedy values and actions a tabular agent learned (for pictures).
pub type StateValues = Vec<(f64, Option<usize>)>;

/// Everything one run produced; written to `run-NNN.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunResult {
    /// `"rl-experiment/run"`.
    pub format: String,
    /// The format version, 1.
    pub version: u64,
    /// The experiment's configuration.
    pub config: ExperimentConfig,
    /// The run's number.
    pub run: u64,
    /// The seeds the run used.
    pub seeds: RunSeeds,
    /// One record per check, the first at step 0.
    pub checks: Vec<CheckRecord>,
    /// The learning episodes, in order (an episode still running at the end of the budget is
    /// not included).
    pub episodes: Vec<TrainingEpisode>,
    /// What a tabular agent learned: per observation index, the greedy value and action.
    #[serde(default)]
    pub state_values: Option<StateValues>,
}

/// The `format` of a run file.
pub const RUN_FORMAT: &str = "rl-experiment/run";

impl RunResult {
    /// The same result with every timing zeroed, for comparing runs (timings are the only
    /// fields that differ between identical runs).
    pub fn without_timings(&self) -> RunResult {
        let mut copy = self.clone();
        for check in &mut copy.checks {
            check.learning_time = 0.0;
        }
        copy
    }
}

/// deer-style hooks called during a run (all provided as no-ops). A controller observes; it does
/// not change the run.
pub trait Controller {
    /// The run starts.
    fn on_start(&mut self, run: u64, seeds: &RunSeeds) {
        let _ = (run, seeds);
    }
    /// The agent chose `action` before learning step `step` (0-based).
    fn on_action_chosen(&mut self, step: u64, action: &AnyElement) {
        let _ = (step, action);
    }
    /// The environment took learning step `step` (0-based).
    fn on_action_taken(&mut self, step: u64, outcome: &StepOutcome<AnyElement>) {
        let _ = (step, outcome);
    }
    /// A learning episode ended.
    fn on_episode_end(&mut self, episode: u64, record: &TrainingEpisode) {
        let _ = (episode, record);
    }
    /// A policy check ended.
    fn on_check_end(&mut self, record: &CheckRecord) {
        let _ = record;
    }
    /// The run ended.
    fn on_end(&mut self, result: &RunResult) {
        let _ = result;
    }
}

/// A controller that keeps a human-readable log of the run (start, episodes, checks, end).
#[derive(Debug, Default, Clone)]
pub struct LogController {
    lines: Vec<String>,
}

impl LogController {
    /// An empty log.
    pub fn new() -> Self {
        LogController::default()
    }

    /// The log text, one line per event.
    pub fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        text.push('\n');
        text
    }
}

impl Controller for LogController {
    fn on_start(&mut self, run: u64, seeds: &RunSeeds) {
        self.lines.push(format!(
            "run {run} starts: environment seed {}, evaluation seed {}, agent seed {}",
            seeds.environment, seeds.evaluation, seeds.agent
        ));
    }

    fn on_episode_end(&mut self, episode: u64, record: &TrainingEpisode) {
        let end = match (record.terminated, record.truncated) {
            (true, true) => "terminated and truncated",
            (true, false) => "terminated",
            (false, true) => "truncated",
            (false, false) => "ended",
        };
        self.lines.push(format!(
            "episode {episode}: return {:.6}, {} steps, {end}",
            record.episode_return, record.length
        ));
    }

    fn on_check_end(&mut self, record: &CheckRecord) {
        self.lines.push(format!(
            "check at {} steps: return {:.6} ± {:.6}, {:.1} steps, {:.0}% terminated, {} learning episodes",
            record.learning_steps,
            record.episode_return,
            record.return_std,
            record.steps,
            100.0 * record.terminated,
            record.learning_episode
        ));
    }

    fn on_end(&mut self, result: &RunResult) {
        self.lines.push(format!(
            "run {} ends after {} learning episodes",
            result.run,
            result.episodes.len()
        ));
    }
}

/// The stream of a run's seed that seeds the agent's construction ([`AgentContext::seed`]);
/// streams 0 to 3 are listed in [`seeds`](crate::seeds).
const AGENT_CONSTRUCTION_STREAM: u64 = 4;

/// The applicable-action mask of a finite action space, if the space is small enough.
fn mask_buffer(env: &BoxedEnvironment) -> Option<Vec<bool>> {
    env.action_space()
        .cardinality()
        .filter(|n| *n <= 1 << 16)
        .map(|n| vec![true; n])
}

/// The agent's action on `observation`, through [`Agent::act_on_state`] with `env`'s state
/// after `episode_step` steps of its episode when `reads_state` (the agent's
/// [`Agent::reads_state`]), else through [`Agent::act`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn choose_action<E: Environment + ?Sized>(
    agent: &mut dyn Agent,
    reads_state: bool,
    env: &E,
    episode_step: u64,
    observation: &AnyElement,
    mask: Option<&[bool]>,
    explore: bool,
    rng: &mut dyn rand::Rng,
) -> Result<AnyElement, ExperimentError> {
    if !reads_state {
        return agent.act(observation, mask, explore, rng);
    }
    let state = EnvironmentState::of(env, episode_step).ok_or_else(|| {
        ExperimentError::IncompatibleAgent {
            agent: agent.name(),
            reason: "it chooses its actions from the environment's state, which this \
                     environment does not give (an environment built by id gives it)"
                .to_owned(),
        }
    })?;
    agent.act_on_state(observation, state, mask, explore, rng)
}

/// Evaluates the agent greedily on `checks_per_policy` episodes of the evaluation environment.
#[allow(clippy::too_many_arguments)]
fn evaluate(
    config: &ExperimentConfig,
    env: &mut BoxedEnvironment,
    agent: &mut dyn Agent,
    rng: &mut Pcg64,
    learning_steps: u64,
    learning_episode: u64,
    learning_time: Duration,
) -> Result<CheckRecord, ExperimentError> {
    let discount = env.discount();
    let mut mask = mask_buffer(env);
    let reads_state = agent.reads_state();
    let episodes = config.checks_per_policy as usize;
    let (mut returns, mut discounted, mut lengths) = (Vec::with_capacity(episodes), 0.0, 0.0);
    let (mut terminated, mut truncated) = (0u64, 0u64);
    for _ in 0..episodes {
        let mut observation = env.reset(Mode::EVALUATION)?;
        let (mut total, mut weighted, mut weight, mut length) = (0.0, 0.0, 1.0, 0u64);
        loop {
            if length >= config.evaluation_step_limit {
                truncated += 1;
                break;
            }
            if let Some(mask) = mask.as_mut() {
                env.action_mask(mask)?;
            }
            let action = choose_action(
                agent,
                reads_state,
                env,
                length,
                &observation,
                mask.as_deref(),
                false,
                rng,
            )?;
            let outcome = env.step(&action)?;
            total += outcome.reward();
            weighted += weight * outcome.reward();
            weight *= discount;
            length += 1;
            if outcome.is_done() {
                terminated += u64::from(outcome.terminated);
                truncated += u64::from(outcome.truncated);
                break;
            }
            observation = outcome.observation;
        }
        returns.push(total);
        discounted += weighted;
        lengths += length as f64;
    }
    let n = episodes as f64;
    let mean = returns.iter().sum::<f64>() / n;
    let variance = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / n;
    Ok(CheckRecord {
        learning_steps,
        episode_return: mean,
        return_std: variance.sqrt(),
        discounted_return: discounted / n,
        steps: lengths / n,
        terminated: terminated as f64 / n,
        truncated: truncated as f64 / n,
        learning_episode,
        learning_time: learning_time.as_secs_f64(),
    })
}

/// The learning state between steps: the current observation, the action chosen for it and the
/// applicable actions.
struct Ongoing {
    observation: AnyElement,
    action: AnyElement,
    episode_return: f64,
    length: u64,
    violations: ViolationTally,
}

/// Runs run `run` of the experiment: builds a learning and an evaluation environment with
/// `make_env`, the agent, and learns for `max_steps` steps, checking the policy at step 0 and
/// at each of [`ExperimentConfig::check_steps`]. `on_steps` is told of learning progress;
/// when `should_stop` returns true the run stops between steps with
/// [`ExperimentError::Interrupted`].
pub fn run_once(
    config: &ExperimentConfig,
    run: u64,
    make_env: &dyn Fn() -> Result<BoxedEnvironment, ExperimentError>,
    controllers: &mut [&mut dyn Controller],
    should_stop: &dyn Fn() -> bool,
    on_steps: &dyn Fn(u64),
) -> Result<RunResult, ExperimentError> {
    run_once_with_agent(config, run, make_env, controllers, should_stop, on_steps)
        .map(|(result, _)| result)
}

/// [`run_once`], also giving back the agent as it is at the end of the run (after its last
/// learning step and the last policy check).
///
/// Runs are deterministic (see [`seeds`](crate::seeds)): running run `run` of the same
/// configuration again, with the same code and the same agents, gives the same results
/// (timings aside) and an agent that acts the same, bit for bit. This is how
/// `rl render --episode --run FILE` replays a saved run's trained agent
/// ([`record_saved_run`](crate::video::record_saved_run)), instead of saving every agent's
/// parameters in a format of its own.
pub fn run_once_with_agent(
    config: &ExperimentConfig,
    run: u64,
    make_env: &dyn Fn() -> Result<BoxedEnvironment, ExperimentError>,
    controllers: &mut [&mut dyn Controller],
    should_stop: &dyn Fn() -> bool,
    on_steps: &dyn Fn(u64),
) -> Result<(RunResult, Box<dyn Agent>), ExperimentError> {
    config.validate()?;
    let seeds = RunSeeds::new(config.seed, run);
    let mut env = make_env()?;
    env.seed(seeds.environment);
    let mut eval_env = make_env()?;
    eval_env.seed(seeds.evaluation);
    let mut agent = build_agent(
        &config.agent,
        &AgentContext::new(
            env.observation_space(),
            env.action_space(),
            env.discount(),
            config.agent_params.as_ref(),
        )
        .with_seed(rl_core::derive_seed(seeds.run, AGENT_CONSTRUCTION_STREAM))
        .with_domain(&config.domain, env.domain_any()),
    )?;
    let reads_state = agent.reads_state();
    let mut rng = Pcg64::seed_from_u64(seeds.agent);
    let mut eval_rng = Pcg64::seed_from_u64(seeds.evaluation_agent);
    let mut mask = mask_buffer(&env);
    let mut next_mask = mask.clone();
    for c in controllers.iter_mut() {
        c.on_start(run, &seeds);
    }

    let mut checks = Vec::with_capacity(config.num_policy_checks as usize + 1);
    let mut episodes = Vec::new();
    let mut learning_time = Duration::ZERO;
    let first = evaluate(
        config,
        &mut eval_env,
        agent.as_mut(),
        &mut eval_rng,
        0,
        0,
        learning_time,
    )?;
    for c in controllers.iter_mut() {
        c.on_check_end(&first);
    }
    checks.push(first);

    let mut next_check = 1u64;
    let mut ongoing: Option<Ongoing> = None;
    let mut started_episodes = 0u64;
    let mut total = 0u64;
    let mut reported = 0u64;
    let mut clock = Instant::now();
    while total < config.max_steps {
        if should_stop() {
            return Err(ExperimentError::Interrupted);
        }
        let current = match ongoing.take() {
            Some(current) => current,
            None => {
                let observation = env.reset(Mode::Training)?;
                started_episodes += 1;
                if let Some(mask) = mask.as_mut() {
                    env.action_mask(mask)?;
                }
                let action = choose_action(
                    agent.as_mut(),
                    reads_state,
                    &env,
                    0,
                    &observation,
                    mask.as_deref(),
                    true,
                    &mut rng,
                )?;
                Ongoing {
                    observation,
                    action,
                    episode_return: 0.0,
                    length: 0,
                    violations: ViolationTally::default(),
                }
            }
        };
        for c in controllers.iter_mut() {
            c.on_action_chosen(total, &current.action);
        }
        let outcome = env.step(&current.action)?;
        for c in controllers.iter_mut() {
            c.on_action_taken(total, &outcome);
        }
        total += 1;
        let done = outcome.is_done();
        if let Some(next_mask) = next_mask.as_mut() {
            if !done {
                env.action_mask(next_mask)?;
            } else {
                next_mask.fill(true);
            }
        }
        // The next action is chosen before learning (RLPy's order) so that SARSA can use it;
        // a truncated but non-terminal state still gets one to bootstrap from.
        let next_action = if outcome.terminated {
            None
        } else {
            Some(choose_action(
                agent.as_mut(),
                reads_state,
                &env,
                current.length + 1,
                &outcome.observation,
                next_mask.as_deref(),
                true,
                &mut rng,
            )?)
        };
        agent.learn(&Experience {
            observation: &current.observation,
            action: &current.action,
            reward: outcome.reward(),
            next_observation: &outcome.observation,
            next_mask: next_mask.as_deref(),
            next_action: next_action.as_ref(),
            terminated: outcome.terminated,
            truncated: outcome.truncated,
        })?;
        let episode_return = current.episode_return + outcome.reward();
        let length = current.length + 1;
        let mut violations = current.violations;
        violations.record(&env, outcome.violations, length);
        match (done, next_action) {
            (false, Some(action)) => {
                ongoing = Some(Ongoing {
                    observation: outcome.observation,
                    action,
                    episode_return,
                    length,
                    violations,
                });
                std::mem::swap(&mut mask, &mut next_mask);
            }
            _ => {
                let record = TrainingEpisode {
                    episode_return,
                    length,
                    terminated: outcome.terminated,
                    truncated: outcome.truncated,
                    constraint_violations: violations.total(),
                    violations: violations.into_violations(),
                };
                for c in controllers.iter_mut() {
                    c.on_episode_end(episodes.len() as u64, &record);
                }
                episodes.push(record);
            }
        }
        if next_check <= config.num_policy_checks && config.check_step(next_check) == total {
            learning_time += clock.elapsed();
            let record = evaluate(
                config,
                &mut eval_env,
                agent.as_mut(),
                &mut eval_rng,
                total,
                started_episodes,
                learning_time,
            )?;
            for c in controllers.iter_mut() {
                c.on_check_end(&record);
            }
            checks.push(record);
            next_check += 1;
            on_steps(total - reported);
            reported = total;
            clock = Instant::now();
        }
    }
    let result = RunResult {
        format: RUN_FORMAT.to_owned(),
        version: 1,
        config: config.clone(),
        run,
        seeds,
        checks,
        episodes,
        state_values: agent.state_values(),
    };
    for c in controllers.iter_mut() {
        c.on_end(&result);
    }
    Ok((result, agent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rl_core::corridor::Corridor;
    use rl_core::{DynamicEnvironment, Simulator};

    fn corridor_env() -> Result<BoxedEnvironment, ExperimentError> {
        Ok(DynamicEnvironment::new(Simulator::new(Corridor::new(6, 0.1)?, 0)).boxed())
    }

    fn config() -> ExperimentConfig {
        ExperimentConfig {
            num_policy_checks: 4,
            checks_per_policy: 3,
            ..ExperimentConfig::new("corridor", "q-learning", 2_000)
        }
    }

    #[test]
    fn checks_are_evenly_spaced_after_step_zero() {
        let c = ExperimentConfig {
            num_policy_checks: 3,
            ..ExperimentConfig::new("d", "a", 10)
        };
        assert_eq!(c.check_steps(), [3, 6, 10]);
        let result = run_once(&config(), 0, &corridor_env, &mut [], &|| false, &|_| {}).unwrap();
        let steps: Vec<u64> = result.checks.iter().map(|c| c.learning_steps).collect();
        assert_eq!(steps, [0, 500, 1000, 1500, 2000]);
    }

    #[test]
    fn a_run_is_reproducible_and_learns_the_corridor() {
        let a = run_once(&config(), 3, &corridor_env, &mut [], &|| false, &|_| {}).unwrap();
        let b = run_once(&config(), 3, &corridor_env, &mut [], &|| false, &|_| {}).unwrap();
        assert_eq!(a.without_timings(), b.without_timings());
        let last = a.checks.last().unwrap();
        assert_eq!(last.terminated, 1.0, "{last:?}");
        let values = a.state_values.as_ref().unwrap();
        for (cell, (_, greedy)) in values.iter().enumerate().take(5) {
            assert_eq!(
                *greedy,
                Some(1),
                "the greedy action in cell {cell} is right: {values:?}"
            );
        }
        let c = run_once(&config(), 4, &corridor_env, &mut [], &|| false, &|_| {}).unwrap();
        assert_ne!(a.episodes, c.episodes, "another run id gives other seeds");
    }

    #[test]
    fn controllers_see_every_step_and_check() {
        #[derive(Default)]
        struct Counter {
            chosen: u64,
            taken: u64,
            episodes: u64,
            checks: u64,
            ended: bool,
        }
        impl Controller for Counter {
            fn on_action_chosen(&mut self, _: u64, _: &AnyElement) {
                self.chosen += 1;
            }
            fn on_action_taken(&mut self, _: u64, _: &StepOutcome<AnyElement>) {
                self.taken += 1;
            }
            fn on_episode_end(&mut self, _: u64, _: &TrainingEpisode) {
                self.episodes += 1;
            }
            fn on_check_end(&mut self, _: &CheckRecord) {
                self.checks += 1;
            }
            fn on_end(&mut self, _: &RunResult) {
                self.ended = true;
            }
        }
        let mut counter = Counter::default();
        let mut log = LogController::new();
        let result = run_once(
            &config(),
            0,
            &corridor_env,
            &mut [&mut counter, &mut log],
            &|| false,
            &|_| {},
        )
        .unwrap();
        assert_eq!(
            (counter.chosen, counter.taken, counter.checks),
            (2000, 2000, 5)
        );
        assert_eq!(counter.episodes, result.episodes.len() as u64);
        assert!(counter.ended);
        assert!(log.text().starts_with("run 0 starts"), "{}", log.text());
    }

    #[test]
    fn a_stop_request_interrupts() {
        assert_eq!(
            run_once(&config(), 0, &corridor_env, &mut [], &|| true, &|_| {}),
            Err(ExperimentError::Interrupted)
        );
    }

    #[test]
    fn bad_counts_are_rejected() {
        for bad in [
            ExperimentConfig {
                max_steps: 0,
                ..config()
            },
            ExperimentConfig {
                num_policy_checks: 0,
                ..config()
            },
            ExperimentConfig {
                num_policy_checks: 3000,
                ..config()
            },
            ExperimentConfig {
                checks_per_policy: 0,
                ..config()
            },
            ExperimentConfig {
                runs: 0,
                ..config()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }
}
