//! The conformance checker (Gymnasium's `check_env`, dm_env's test mixin): runs an environment
//! or a domain through the contract of this crate and reports what holds and what does not.
//!
//! A domain author checks a domain in one line:
//!
//! ```
//! use rl_core::corridor::Corridor;
//! use rl_core::{check_domain, CheckConfig};
//!
//! let report = check_domain(&Corridor::new(5, 0.1)?, &CheckConfig::default());
//! assert!(report.is_ok(), "{report}");
//! # Ok::<(), rl_core::CoreError>(())
//! ```
//!
//! [`check_transitions`] adds the checks of enumerable transitions, [`check_constraints`]
//! those of declared constraints and [`check_batch_step`] those of a structure-of-arrays
//! kernel. Every check function returns a [`CheckReport`] that separates
//! hard failures from advisories, and never panics: a panic inside the environment is caught
//! and reported as a failure.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::NumpyGenerator;
use rand::SeedableRng;
use rl_spaces::{FlattenSpace, Space, TrySampleSpace};

use crate::error::ResetReason;
use crate::{
    BatchStep, ConstrainedDomain, CoreError, Domain, EnumerableTransitions, Environment, Info,
    InvalidExamples, Mode, Simulator,
};

/// How thoroughly to check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckConfig {
    /// The seed of the environment under test; actions are drawn from generators derived
    /// from it.
    pub seed: u64,
    /// The number of episodes to run.
    pub episodes: usize,
    /// The most steps per episode (an episode still running then is cut, with an advisory).
    pub max_steps: usize,
    /// Whether trajectories must differ across seeds (`Some(true)`: a stochastic environment),
    /// must not (`Some(false)`: a deterministic one), or either (`None`: an advisory when they
    /// agree).
    pub expect_stochastic: Option<bool>,
    /// The number of sampled steps per (state, action) pair when comparing enumerated
    /// transition probabilities with frequencies.
    pub frequency_samples: usize,
    /// The number of (state, action) pairs whose transitions are checked.
    pub transition_pairs: usize,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            seed: 0,
            episodes: 5,
            max_steps: 1_000,
            expect_stochastic: None,
            frequency_samples: 4_000,
            transition_pairs: 24,
        }
    }
}

/// Whether a finding fails the check or only deserves a look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The contract is broken.
    Failure,
    /// Worth a look, but possibly intended (for example identical trajectories across seeds
    /// for a deterministic environment).
    Advisory,
}

/// One thing the checker found.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The check that found it.
    pub check: &'static str,
    /// Failure or advisory.
    pub severity: Severity,
    /// What was found, with the values involved (the first occurrence).
    pub message: String,
    /// How many times the same check found something (the report keeps the first message).
    pub occurrences: usize,
}

/// What a check run found: the checks that passed, failures, and advisories.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CheckReport {
    /// What was checked (a type name).
    pub subject: String,
    /// The checks that passed.
    pub passed: Vec<&'static str>,
    /// The failures and advisories, in the order found.
    pub findings: Vec<Finding>,
}

impl CheckReport {
    fn new(subject: impl Into<String>) -> Self {
        CheckReport {
            subject: subject.into(),
            ..CheckReport::default()
        }
    }

    /// Whether no check failed (advisories allowed).
    pub fn is_ok(&self) -> bool {
        self.failures().next().is_none()
    }

    /// The failures.
    pub fn failures(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Failure)
    }

    /// The advisories.
    pub fn advisories(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Advisory)
    }

    /// Adds the passed checks and findings of another report.
    pub fn merge(&mut self, other: CheckReport) {
        self.passed.extend(other.passed);
        for finding in other.findings {
            let occurrences = finding.occurrences;
            self.record(finding.check, finding.severity, finding.message);
            if let Some(merged) = self
                .findings
                .iter_mut()
                .find(|f| f.check == finding.check && f.severity == finding.severity)
            {
                merged.occurrences += occurrences - 1;
            }
        }
    }

    fn fail(&mut self, check: &'static str, message: impl Into<String>) {
        self.record(check, Severity::Failure, message.into());
    }

    fn advise(&mut self, check: &'static str, message: impl Into<String>) {
        self.record(check, Severity::Advisory, message.into());
    }

    /// Adds a finding, or counts it as another occurrence of an earlier one of the same check
    /// and severity (so a broken step seen a thousand times is one line).
    fn record(&mut self, check: &'static str, severity: Severity, message: String) {
        match self
            .findings
            .iter_mut()
            .find(|f| f.check == check && f.severity == severity)
        {
            Some(finding) => finding.occurrences += 1,
            None => self.findings.push(Finding {
                check,
                severity,
                message,
                occurrences: 1,
            }),
        }
    }

    /// Records `check` as passed unless a finding of it was recorded.
    fn conclude(&mut self, check: &'static str) {
        if !self.findings.iter().any(|f| f.check == check) {
            self.passed.push(check);
        }
    }

    /// Runs `body`, turning a panic into a failure of `check`.
    fn guard(&mut self, check: &'static str, body: impl FnOnce(&mut CheckReport)) {
        let mut inner = CheckReport::new(self.subject.clone());
        let result = catch_unwind(AssertUnwindSafe(|| body(&mut inner)));
        self.merge(inner);
        if let Err(payload) = result {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            self.fail(check, format!("panicked: {message}"));
        }
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let failures = self.failures().count();
        let advisories = self.advisories().count();
        writeln!(
            f,
            "conformance of {}: {} passed, {failures} failed, {advisories} advisories",
            self.subject,
            self.passed.len()
        )?;
        for finding in &self.findings {
            let tag = match finding.severity {
                Severity::Failure => "FAIL",
                Severity::Advisory => "note",
            };
            write!(f, "  {tag}  {}: {}", finding.check, finding.message)?;
            if finding.occurrences > 1 {
                write!(f, " (and {} more)", finding.occurrences - 1)?;
            }
            writeln!(f)?;
        }
        for check in &self.passed {
            writeln!(f, "  ok    {check}")?;
        }
        Ok(())
    }
}

/// A recorded trajectory: per step the observation, the reward's bits and the flags.
#[derive(Debug, PartialEq)]
struct Trajectory<O> {
    resets: Vec<O>,
    steps: Vec<(O, u64, bool, bool)>,
}

const OBSERVATIONS: &str = "observations are in the observation space";
const REWARDS: &str = "rewards are finite";
const BEFORE_RESET: &str = "step before the first reset is an error";
const AFTER_END: &str = "step after the episode ended is an error";
const INVALID_ACTIONS: &str = "actions outside the action space are errors that change nothing";
const DETERMINISM: &str = "the same seed gives bit-identical trajectories";
const SEEDS_DIFFER: &str = "different seeds give different trajectories";
const RANDOM_STATE: &str = "saving and restoring the random state replays the episode";
const DISCOUNT: &str = "the discount factor is in [0, 1]";
const EPISODES_END: &str = "episodes end";
const MODES: &str = "reset takes a mode and keeps it";

/// Runs an environment through the contract of [`Environment`], with fresh environments from
/// `make` (each seeded by the checker):
///
/// - observations (after reset and after every step) are in the observation space, rewards
///   are finite, the discount is in `[0, 1]`;
/// - stepping before the first reset and after the end of an episode are
///   [`CoreError::NeedsReset`] errors;
/// - actions outside the action space ([`InvalidExamples`]) that the environment does not
///   accept ([`Environment::accepts_action`]) are [`CoreError::InvalidAction`] errors, and
///   change neither the state nor the random generator;
/// - the same seed and actions give bit-identical trajectories; different seeds differ (see
///   [`CheckConfig::expect_stochastic`]);
/// - saving and restoring the random state replays an episode;
/// - reset keeps the mode it is given.
pub fn check_environment<E, F>(mut make: F, config: &CheckConfig) -> CheckReport
where
    F: FnMut() -> E,
    E: Environment,
    E::ActionSpace: TrySampleSpace + InvalidExamples,
{
    let mut report = CheckReport::new(std::any::type_name::<E>());
    report.guard(DISCOUNT, |report| {
        let env = make();
        let discount = env.discount();
        if !(0.0..=1.0).contains(&discount) {
            report.fail(DISCOUNT, format!("discount() is {discount}"));
        }
    });
    report.conclude(DISCOUNT);

    report.guard(BEFORE_RESET, |report| {
        let mut env = make();
        env.seed(config.seed);
        let mut action_rng = NumpyGenerator::seed_from_u64(config.seed ^ 0x5eed_a11c);
        match env.action_space().try_sample(&mut action_rng) {
            None => report.fail(BEFORE_RESET, "the action space is empty: no action to try"),
            Some(action) => match env.step(&action) {
                Err(CoreError::NeedsReset(ResetReason::NotStarted)) => {}
                Err(other) => report.fail(
                    BEFORE_RESET,
                    format!("gave the error {other:?}, expected NeedsReset(NotStarted)"),
                ),
                Ok(_) => report.fail(
                    BEFORE_RESET,
                    format!("step({action:?}) before any reset succeeded"),
                ),
            },
        }
    });
    report.conclude(BEFORE_RESET);

    // Run A tries invalid actions before every step; run B does not. Both use the same seed
    // and the same valid actions, so they must agree exactly.
    let mut run_a = None;
    report.guard(DETERMINISM, |report| {
        run_a = Some(run(&mut make, config, config.seed, true, report));
    });
    let mut run_b = None;
    report.guard(DETERMINISM, |report| {
        run_b = Some(run(&mut make, config, config.seed, false, report));
    });
    if let (Some(a), Some(b)) = (&run_a, &run_b) {
        if a != b {
            report.fail(
                DETERMINISM,
                format!(
                    "two environments seeded with {} gave different trajectories{}",
                    config.seed,
                    first_difference(a, b)
                ),
            );
        }
    }
    for check in [
        OBSERVATIONS,
        REWARDS,
        AFTER_END,
        INVALID_ACTIONS,
        EPISODES_END,
        DETERMINISM,
    ] {
        report.conclude(check);
    }

    report.guard(SEEDS_DIFFER, |report| {
        let other = run(&mut make, config, config.seed.wrapping_add(1), false, &mut CheckReport::default());
        let same = run_b.as_ref() == Some(&other);
        match (config.expect_stochastic, same) {
            (Some(true), true) => report.fail(SEEDS_DIFFER, "seeds differing by one gave identical trajectories"),
            (Some(false), false) => report.fail(SEEDS_DIFFER, "a deterministic environment gave different trajectories for different seeds"),
            (None, true) => report.advise(
                SEEDS_DIFFER,
                "seeds differing by one gave identical trajectories: fine for a deterministic environment, a bug if it should be random",
            ),
            _ => {}
        }
    });
    report.conclude(SEEDS_DIFFER);

    report.guard(RANDOM_STATE, |report| {
        check_random_state(&mut make, config, report)
    });
    report.conclude(RANDOM_STATE);

    report.guard(MODES, |report| {
        let mut env = make();
        env.seed(config.seed);
        for mode in [Mode::EVALUATION, Mode::Training] {
            if let Err(e) = env.reset(mode) {
                report.fail(MODES, format!("reset({mode}) failed: {e}"));
            } else if env.mode() != mode {
                report.fail(
                    MODES,
                    format!("after reset({mode}), mode() is {}", env.mode()),
                );
            }
        }
    });
    report.conclude(MODES);
    report
}

/// Runs `config.episodes` episodes of a fresh environment seeded with `seed`, with actions from
/// a generator derived from the checker's seed, checking each step.
fn run<E, F>(
    make: &mut F,
    config: &CheckConfig,
    seed: u64,
    try_invalid: bool,
    report: &mut CheckReport,
) -> Trajectory<E::Observation>
where
    F: FnMut() -> E,
    E: Environment,
    E::ActionSpace: TrySampleSpace + InvalidExamples,
{
    let mut env = make();
    env.seed(seed);
    let mut action_rng = NumpyGenerator::seed_from_u64(config.seed ^ 0xac71_0a5e);
    // Actions outside the space that the environment accepts (a torque beyond its bounds,
    // which Gymnasium's Pendulum clips: `Environment::accepts_action`) are not invalid.
    let invalid: Vec<E::Action> = env
        .action_space()
        .invalid_examples()
        .into_iter()
        .filter(|action| !env.accepts_action(action))
        .collect();
    if try_invalid && invalid.is_empty() {
        report.advise(
            INVALID_ACTIONS,
            "the action space gave no invalid example to try",
        );
    }
    let mut trajectory = Trajectory {
        resets: Vec::new(),
        steps: Vec::new(),
    };
    for episode in 0..config.episodes {
        let observation = match env.reset(Mode::Training) {
            Ok(o) => o,
            Err(e) => {
                report.fail(OBSERVATIONS, format!("reset failed: {e}"));
                return trajectory;
            }
        };
        if !env.observation_space().contains(&observation) {
            report.fail(
                OBSERVATIONS,
                format!(
                    "reset of episode {episode} gave {observation:?}, not in {}",
                    env.observation_space()
                ),
            );
        }
        trajectory.resets.push(observation);
        let mut ended = false;
        for t in 0..config.max_steps {
            if try_invalid {
                for action in &invalid {
                    match env.step(action) {
                        Err(CoreError::InvalidAction { .. }) => {}
                        Err(other) => report.fail(
                            INVALID_ACTIONS,
                            format!("step({action:?}) gave {other:?}, expected InvalidAction"),
                        ),
                        Ok(_) => report.fail(
                            INVALID_ACTIONS,
                            format!(
                                "step({action:?}) succeeded although the action is outside {}",
                                env.action_space()
                            ),
                        ),
                    }
                }
            }
            let Some(action) = env.action_space().try_sample(&mut action_rng) else {
                report.fail(EPISODES_END, "the action space is empty");
                return trajectory;
            };
            let outcome = match env.step(&action) {
                Ok(o) => o,
                Err(e) => {
                    report.fail(
                        OBSERVATIONS,
                        format!("step {t} of episode {episode} with {action:?} failed: {e}"),
                    );
                    return trajectory;
                }
            };
            if !env.observation_space().contains(&outcome.observation) {
                report.fail(
                    OBSERVATIONS,
                    format!(
                        "step {t} of episode {episode} gave {:?}, not in {}",
                        outcome.observation,
                        env.observation_space()
                    ),
                );
            }
            if !outcome.reward().is_finite() {
                report.fail(
                    REWARDS,
                    format!(
                        "step {t} of episode {episode} gave reward {}",
                        outcome.reward()
                    ),
                );
            }
            let done = outcome.is_done();
            trajectory.steps.push((
                outcome.observation,
                outcome.value.reward().to_bits(),
                outcome.terminated,
                outcome.truncated,
            ));
            if done {
                ended = true;
                match env.step(&action) {
                    Err(CoreError::NeedsReset(ResetReason::EpisodeEnded)) => {}
                    Err(other) => report.fail(
                        AFTER_END,
                        format!("gave {other:?}, expected NeedsReset(EpisodeEnded)"),
                    ),
                    Ok(_) => report.fail(
                        AFTER_END,
                        format!("step after the end of episode {episode} succeeded"),
                    ),
                }
                break;
            }
        }
        if !ended {
            report.advise(
                EPISODES_END,
                format!(
                    "episode {episode} was still running after {} steps",
                    config.max_steps
                ),
            );
        }
    }
    trajectory
}

/// Saves the random state, runs an episode, restores the state and runs it again.
fn check_random_state<E, F>(make: &mut F, config: &CheckConfig, report: &mut CheckReport)
where
    F: FnMut() -> E,
    E: Environment,
    E::ActionSpace: TrySampleSpace,
{
    let mut env = make();
    env.seed(config.seed);
    let saved = match env.random_state() {
        Ok(s) => s,
        Err(CoreError::Unsupported { .. }) => {
            report.advise(RANDOM_STATE, "the environment cannot save its random state");
            return;
        }
        Err(e) => {
            report.fail(RANDOM_STATE, format!("random_state() failed: {e}"));
            return;
        }
    };
    let episode = |env: &mut E| -> Vec<(E::Observation, u64)> {
        let mut action_rng = NumpyGenerator::seed_from_u64(config.seed ^ 0x7e57);
        let mut out = Vec::new();
        if let Ok(first) = env.reset(Mode::Training) {
            out.push((first, 0));
        }
        for _ in 0..config.max_steps {
            let Some(action) = env.action_space().try_sample(&mut action_rng) else {
                break;
            };
            match env.step(&action) {
                Ok(o) => {
                    let done = o.is_done();
                    out.push((o.observation, o.value.reward().to_bits()));
                    if done {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
        out
    };
    let first = episode(&mut env);
    if let Err(e) = env.set_random_state(saved) {
        report.fail(RANDOM_STATE, format!("set_random_state failed: {e}"));
        return;
    }
    let again = episode(&mut env);
    if first != again {
        report.fail(
            RANDOM_STATE,
            "the episode after restoring the random state differs from the first",
        );
    }
}

/// Describes where two trajectories first differ.
fn first_difference<O: fmt::Debug + PartialEq>(a: &Trajectory<O>, b: &Trajectory<O>) -> String {
    if let Some(i) = a.resets.iter().zip(&b.resets).position(|(x, y)| x != y) {
        return format!(": reset {i} gave {:?} and {:?}", a.resets[i], b.resets[i]);
    }
    match a.steps.iter().zip(&b.steps).position(|(x, y)| x != y) {
        Some(i) => format!(": step {i} gave {:?} and {:?}", a.steps[i], b.steps[i]),
        None => format!(": {} and {} steps", a.steps.len(), b.steps.len()),
    }
}

const TERMINAL_FLAG: &str = "step reports terminated exactly when the state reached is terminal";
const EPISODE_CAP: &str = "the episode cap is positive";
const INITIAL_OBSERVATION: &str = "initial states are observed inside the observation space";
const IN_PLACE: &str = "step_in_place and initial_state_into agree with step and initial_state";

/// How a state made in place (with the generator after it) differs from the one `step` or
/// `initial_state` made, if it does: by its debug form, its observation or the generator's
/// state (the draws).
fn in_place_difference<D: Domain>(
    domain: &D,
    (expected, expected_rng): (&D::State, &NumpyGenerator),
    (found, found_rng): (&D::State, &NumpyGenerator),
) -> Option<String> {
    if format!("{expected:?}") != format!("{found:?}") {
        return Some(format!("expected the state {expected:?}, found {found:?}"));
    }
    if domain.observe(expected) != domain.observe(found) {
        return Some(format!("the states {expected:?} are observed differently"));
    }
    (expected_rng != found_rng).then(|| "the generator drew differently".to_owned())
}

/// Runs a domain through [`check_environment`] (with a [`Simulator`]) and adds the checks of the
/// model itself: initial states are observed inside the observation space, `step` reports
/// `terminated` exactly when [`Domain::is_terminal`] holds for the state reached,
/// [`Domain::step_in_place`] and [`Domain::initial_state_into`] give what `step` and
/// `initial_state` give (state by its debug form, observation, reward bits, flag, info and
/// draws), and the episode cap (if any) is positive.
pub fn check_domain<D>(domain: &D, config: &CheckConfig) -> CheckReport
where
    D: Domain + Clone,
    D::ActionSpace: TrySampleSpace + InvalidExamples,
{
    let mut report = check_environment(|| Simulator::new(domain.clone(), 0), config);
    report.subject = std::any::type_name::<D>().to_owned();
    report.guard(TERMINAL_FLAG, |report| {
        let mut rng = NumpyGenerator::seed_from_u64(config.seed);
        let mut previous: Option<D::State> = None;
        for _ in 0..config.episodes {
            let drawn_from = rng.clone();
            let mut state = domain.initial_state(Mode::Training, &mut rng);
            if let Some(mut reused) = previous.take() {
                let mut reused_rng = drawn_from;
                domain.initial_state_into(&mut reused, Mode::Training, &mut reused_rng);
                if let Some(difference) = in_place_difference(domain, (&state, &rng), (&reused, &reused_rng)) {
                    report.fail(IN_PLACE, format!("initial_state_into over the last episode's state: {difference}"));
                    return;
                }
            }
            let observation = domain.observe(&state);
            if !domain.observation_space().contains(&observation) {
                report.fail(INITIAL_OBSERVATION, format!("initial state {state:?} is observed as {observation:?}"));
            }
            for _ in 0..config.max_steps {
                let Some(action) = domain.action_space().try_sample(&mut rng) else { return };
                let (mut in_place, mut in_place_rng) = (state.clone(), rng.clone());
                let outcome = domain.step(&state, &action, Mode::Training, &mut rng);
                let stepped = domain.step_in_place(&mut in_place, &action, Mode::Training, &mut in_place_rng);
                let flags = (outcome.value.reward().to_bits(), outcome.terminated, &outcome.info);
                let in_place_flags = (stepped.value.reward().to_bits(), stepped.terminated, &stepped.info);
                let difference = if flags == in_place_flags {
                    in_place_difference(domain, (&outcome.next_state, &rng), (&in_place, &in_place_rng))
                } else {
                    Some(format!("step gives (reward bits, terminated, info) {flags:?}, step_in_place {in_place_flags:?}"))
                };
                if let Some(difference) = difference {
                    report.fail(IN_PLACE, format!("from {state:?} with {action:?}: {difference}"));
                    return;
                }
                if outcome.terminated != domain.is_terminal(&outcome.next_state) {
                    report.fail(
                        TERMINAL_FLAG,
                        format!(
                            "from {state:?} with {action:?}: terminated = {}, is_terminal({:?}) = {}",
                            outcome.terminated,
                            outcome.next_state,
                            !outcome.terminated
                        ),
                    );
                    return;
                }
                state = outcome.next_state;
                if outcome.terminated {
                    break;
                }
            }
            previous = Some(state);
        }
    });
    report.conclude(INITIAL_OBSERVATION);
    report.conclude(TERMINAL_FLAG);
    report.conclude(IN_PLACE);
    if domain.episode_cap() == Some(0) {
        report.fail(EPISODE_CAP, "episode_cap() is Some(0); use None for no cap");
    }
    report.conclude(EPISODE_CAP);
    report
}

const PROBABILITIES: &str = "enumerated probabilities are in [0, 1] and sum to one";
const LISTED: &str = "enumerated outcomes agree with step (flags and frequencies)";

/// Checks a domain's [`EnumerableTransitions`] on (state, action) pairs visited by random
/// episodes: probabilities are in `[0, 1]` and sum to one (within 1e-9); each outcome's
/// `terminated` agrees with [`Domain::is_terminal`]; and sampled steps reach only listed
/// outcomes, with frequencies within five standard deviations of the listed probabilities.
pub fn check_transitions<D>(domain: &D, config: &CheckConfig) -> CheckReport
where
    D: EnumerableTransitions,
    D::State: PartialEq,
    D::ActionSpace: TrySampleSpace,
{
    let mut report = CheckReport::new(std::any::type_name::<D>());
    report.guard(PROBABILITIES, |report| {
        let mut rng = NumpyGenerator::seed_from_u64(config.seed);
        let mut pairs = Vec::new();
        'episodes: for _ in 0..config.episodes.max(1) {
            let mut state = domain.initial_state(Mode::Training, &mut rng);
            for _ in 0..config.max_steps {
                let Some(action) = domain.action_space().try_sample(&mut rng) else {
                    break 'episodes;
                };
                pairs.push((state.clone(), action.clone()));
                if pairs.len() >= config.transition_pairs {
                    break 'episodes;
                }
                let outcome = domain.step(&state, &action, Mode::Training, &mut rng);
                if outcome.terminated {
                    break;
                }
                state = outcome.next_state;
            }
        }
        for (state, action) in &pairs {
            check_pair(domain, state, action, config, &mut rng, report);
        }
    });
    report.conclude(PROBABILITIES);
    report.conclude(LISTED);
    report
}

fn check_pair<D, R>(
    domain: &D,
    state: &D::State,
    action: &D::Action,
    config: &CheckConfig,
    rng: &mut R,
    report: &mut CheckReport,
) where
    D: EnumerableTransitions,
    D::State: PartialEq,
    R: rand::Rng,
{
    let transitions = domain.transitions(state, action, Mode::Training);
    let sum: f64 = transitions.iter().map(|t| t.probability).sum();
    if let Some(t) = transitions
        .iter()
        .find(|t| !(0.0..=1.0).contains(&t.probability))
    {
        report.fail(
            PROBABILITIES,
            format!(
                "from {state:?} with {action:?}: probability {} of {:?}",
                t.probability, t.next_state
            ),
        );
        return;
    }
    if (sum - 1.0).abs() > 1e-9 {
        report.fail(
            PROBABILITIES,
            format!("from {state:?} with {action:?}: probabilities sum to {sum}"),
        );
        return;
    }
    if let Some(t) = transitions
        .iter()
        .find(|t| t.terminated != domain.is_terminal(&t.next_state))
    {
        report.fail(
            LISTED,
            format!(
                "from {state:?} with {action:?}: outcome {:?} has terminated = {}",
                t.next_state, t.terminated
            ),
        );
        return;
    }
    // Group listed outcomes that are indistinguishable when sampled.
    let mut groups: Vec<(usize, f64, usize)> = Vec::new(); // (representative, probability, count)
    for (i, t) in transitions.iter().enumerate() {
        match groups
            .iter_mut()
            .find(|(r, _, _)| same_outcome(&transitions[*r], t))
        {
            Some(group) => group.1 += t.probability,
            None => groups.push((i, t.probability, 0)),
        }
    }
    let n = config.frequency_samples.max(1);
    for _ in 0..n {
        let outcome = domain.step(state, action, Mode::Training, rng);
        let found = groups.iter_mut().find(|(r, _, _)| {
            let t = &transitions[*r];
            t.next_state == outcome.next_state
                && t.terminated == outcome.terminated
                && t.value.reward().to_bits() == outcome.value.reward().to_bits()
        });
        match found {
            Some(group) => group.2 += 1,
            None => {
                report.fail(LISTED, format!("from {state:?} with {action:?}: step reached {:?} (reward {}), which is not listed", outcome.next_state, outcome.value.reward()));
                return;
            }
        }
    }
    for (r, p, count) in &groups {
        let frequency = *count as f64 / n as f64;
        let tolerance = 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-12;
        if (frequency - p).abs() > tolerance {
            report.fail(
                LISTED,
                format!(
                    "from {state:?} with {action:?}: outcome {:?} has probability {p} but frequency {frequency} in {n} samples",
                    transitions[*r].next_state
                ),
            );
        }
    }
}

fn same_outcome<S: PartialEq>(a: &crate::Transition<S>, b: &crate::Transition<S>) -> bool {
    a.next_state == b.next_state
        && a.terminated == b.terminated
        && a.value.reward().to_bits() == b.value.reward().to_bits()
}

const KERNEL: &str = "the batch kernel steps as the domain's step";

/// The states of a batch in [`check_batch_step`].
const KERNEL_BATCH: usize = 8;

/// Checks a structure-of-arrays kernel ([`BatchStep`]) against the domain's own step: a batch
/// of states, each with its own generator, stepped by [`BatchStep::step_batch`] with random
/// actions for `config.episodes` times `config.max_steps` steps (a state that ends is replaced
/// by a new initial state, on both sides), must give, bit for bit, the rewards, termination
/// flags and flattened observations (`f64` rows) that [`Domain::step`] gives state by state
/// with generators seeded alike, and leave each generator where the step leaves its own (the
/// same numbers drawn), and the infos the step reports: those the kernel writes
/// ([`BatchStep::write_infos`]) must equal them. A kernel that writes no infos
/// ([`BatchStep::writes_infos`] false) beside a step or a reset
/// ([`Domain::reset_info`]) that reports some fails, since a vector built by id would drop
/// them. The registry's checker runs it for every registration that
/// declares a kernel.
///
/// A walk whose kernel gives what its step gives passes; the same walk with a kernel that
/// forgets the step's noise fails, naming the first difference:
///
/// ```
/// # use rand::{Rng, RngExt};
/// # use rl_core::{BatchStep, Domain, Mode, NumpyGenerator, TransitionOutcome, Value};
/// # use rl_spaces::{ArrayBox, Discrete, FlatScalar};
/// use rl_core::{check_batch_step, CheckConfig};
///
/// # #[derive(Debug, Clone)]
/// # struct Walk { actions: Discrete, observations: ArrayBox<f64, 1>, noisy_kernel: bool }
/// # impl Domain for Walk {
/// #     type State = f64;
/// #     type Observation = [f64; 1];
/// #     type Action = i64;
/// #     type ObservationSpace = ArrayBox<f64, 1>;
/// #     type ActionSpace = Discrete;
/// #     fn observation_space(&self) -> &ArrayBox<f64, 1> { &self.observations }
/// #     fn action_space(&self) -> &Discrete { &self.actions }
/// #     fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> f64 { rng.random::<f64>() - 0.5 }
/// #     fn step<R: Rng + ?Sized>(&self, s: &f64, a: &i64, _: Mode, rng: &mut R) -> TransitionOutcome<f64> {
/// #         let next = s + 0.1 * (*a as f64 - 1.0) + 0.01 * rng.random::<f64>();
/// #         TransitionOutcome::new(next, Value::from_reward(-next.abs()), next.abs() > 1.0)
/// #     }
/// #     fn observe(&self, s: &f64) -> [f64; 1] { [*s] }
/// #     fn is_terminal(&self, s: &f64) -> bool { s.abs() > 1.0 }
/// # }
/// # impl BatchStep for Walk {
/// #     fn step_batch<T: FlatScalar>(&self, states: &mut [f64], actions: &[i64], _: Mode,
/// #         rngs: &mut [NumpyGenerator], rewards: &mut [f64], terminated: &mut [bool], observations: &mut [T]) {
/// #         for i in 0..states.len() {
/// #             let noise = if self.noisy_kernel { 0.01 * rngs[i].random::<f64>() } else { 0.0 };
/// #             states[i] = states[i] + 0.1 * (actions[i] as f64 - 1.0) + noise;
/// #             (rewards[i], terminated[i]) = (-states[i].abs(), states[i].abs() > 1.0);
/// #             observations[i] = T::from_f64(states[i]);
/// #         }
/// #     }
/// # }
/// let (actions, observations) = (Discrete::new(3)?, ArrayBox::new([-2.0], [2.0])?);
/// let walk = Walk { actions, observations, noisy_kernel: true };
/// assert!(check_batch_step(&walk, &CheckConfig::default()).is_ok());
/// let forgetful = Walk { noisy_kernel: false, ..walk };
/// let report = check_batch_step(&forgetful, &CheckConfig::default());
/// assert!(!report.is_ok());
/// assert!(report.to_string().contains("against the step's"), "{report}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_batch_step<D>(domain: &D, config: &CheckConfig) -> CheckReport
where
    D: BatchStep,
    D::ActionSpace: TrySampleSpace,
    D::ObservationSpace: FlattenSpace,
{
    let mut report = CheckReport::new(std::any::type_name::<D>());
    report.guard(KERNEL, |report| {
        let dim = domain.observation_space().flat_dim();
        let fresh = |i: usize, episode: u64| {
            let mut rng = NumpyGenerator::seed_from_u64(config.seed ^ (episode << 16) ^ i as u64);
            let state = domain.initial_state(Mode::Training, &mut rng);
            (state, rng)
        };
        let (mut states, mut rngs): (Vec<D::State>, Vec<NumpyGenerator>) =
            (0..KERNEL_BATCH).map(|i| fresh(i, 0)).unzip();
        // A vector stepping a kernel passes its domain's reset infos on only where the kernel
        // writes infos (`writes_infos`: the vector then looks at infos at all).
        if !domain.writes_infos()
            && let Some(info) = states
                .iter()
                .map(|state| domain.reset_info(state))
                .find(|info| !info.is_empty())
        {
            let keys: Vec<&str> = info.iter().map(|(key, _)| key).collect();
            report.fail(
                KERNEL,
                format!(
                    "the domain's resets report infos ({}), which vectors stepping its kernel \
                     drop while its writes_infos is false (return true from \
                     BatchStep::writes_infos, writing the step's infos in write_infos)",
                    keys.join(", ")
                ),
            );
            return;
        }
        // The step's own generators, which must draw what the kernel's draw.
        let mut step_rngs = rngs.clone();
        let mut action_rng = NumpyGenerator::seed_from_u64(config.seed ^ 0xb47c);
        let (mut rewards, mut terminated) = ([0.0; KERNEL_BATCH], [false; KERNEL_BATCH]);
        let mut observations = vec![0.0f64; KERNEL_BATCH * dim];
        let mut infos = vec![Info::new(); KERNEL_BATCH];
        let mut expected = vec![0.0f64; dim];
        let mut restarts = 0u64;
        let steps = config.episodes.saturating_mul(config.max_steps);
        if steps == 0 {
            report.advise(KERNEL, "no step to compare: episodes or max_steps is 0");
            return;
        }
        for step in 0..steps {
            let mut actions = Vec::with_capacity(KERNEL_BATCH);
            for _ in 0..KERNEL_BATCH {
                let Some(action) = domain.action_space().try_sample(&mut action_rng) else {
                    report.advise(
                        KERNEL,
                        "the action space has no element to sample: the kernel was not run",
                    );
                    return;
                };
                actions.push(action);
            }
            // The domain's step, state by state, with generators of their own.
            let outcomes: Vec<_> = states
                .iter()
                .zip(&actions)
                .zip(&mut step_rngs)
                .map(|((state, action), rng)| domain.step(state, action, Mode::Training, rng))
                .collect();
            if !domain.writes_infos()
                && let Some(outcome) = outcomes.iter().find(|outcome| !outcome.info.is_empty())
            {
                let keys: Vec<&str> = outcome.info.iter().map(|(key, _)| key).collect();
                report.fail(
                    KERNEL,
                    format!(
                        "the domain's step reports infos ({}), which its kernel does not write: \
                         vectors built by id would drop them (write them in \
                         BatchStep::write_infos, returning true from writes_infos, or register \
                         the domain without with_kernel to step it state by state)",
                        keys.join(", ")
                    ),
                );
                return;
            }
            domain.step_batch(
                &mut states,
                &actions,
                Mode::Training,
                &mut rngs,
                &mut rewards,
                &mut terminated,
                &mut observations,
            );
            if domain.writes_infos() {
                domain.write_infos(&states, &actions, &mut infos);
            }
            for (i, outcome) in outcomes.iter().enumerate() {
                let mut differences = Vec::new();
                if domain.writes_infos() && infos[i] != outcome.info {
                    differences.push(format!(
                        "info {:?} against the step's {:?}",
                        infos[i], outcome.info
                    ));
                }
                if outcome.value.reward().to_bits() != rewards[i].to_bits() {
                    differences.push(format!(
                        "reward {} against the step's {}",
                        rewards[i],
                        outcome.value.reward()
                    ));
                }
                if outcome.terminated != terminated[i] {
                    differences.push(format!(
                        "terminated {} against the step's {}",
                        terminated[i], outcome.terminated
                    ));
                }
                let row = &observations[i * dim..(i + 1) * dim];
                match domain.observe_flat_into(&outcome.next_state, &mut expected) {
                    Ok(())
                        if row
                            .iter()
                            .zip(&expected)
                            .all(|(a, b)| a.to_bits() == b.to_bits()) => {}
                    Ok(()) => differences.push(format!(
                        "observation {row:?} against the step's {expected:?}"
                    )),
                    Err(e) => differences.push(format!("the step's observation: {e}")),
                }
                if rngs[i] != step_rngs[i] {
                    // The next steps would differ: a vector's episodes would leave the step's.
                    differences
                        .push("its generator drew other numbers than the step's drew".to_owned());
                }
                if !differences.is_empty() {
                    report.fail(
                        KERNEL,
                        format!(
                            "step {step}, state {i} of the batch: {}",
                            differences.join("; ")
                        ),
                    );
                    return;
                }
                if terminated[i] {
                    restarts += 1;
                    (states[i], rngs[i]) = fresh(i, restarts);
                    step_rngs[i] = rngs[i].clone();
                }
            }
        }
    });
    if !report.failures().any(|f| f.check == KERNEL)
        && report.advisories().all(|f| f.check != KERNEL)
    {
        report.passed.push(KERNEL);
    }
    report
}

const CONSTRAINTS: &str = "declared constraints evaluate on every step";

/// Runs random episodes with the domain's declared constraints evaluated on every step,
/// checking that the simulator accepts them and that violations only name declared
/// constraints; the number of violations seen is reported as an advisory.
pub fn check_constraints<D>(domain: &D, config: &CheckConfig) -> CheckReport
where
    D: ConstrainedDomain + Clone,
    D::ActionSpace: TrySampleSpace,
{
    let mut report = CheckReport::new(std::any::type_name::<D>());
    report.guard(CONSTRAINTS, |report| {
        let mut env = match Simulator::with_constraints(domain.clone(), config.seed) {
            Ok(env) => env,
            Err(e) => {
                report.fail(CONSTRAINTS, e.to_string());
                return;
            }
        };
        let declared = env.constraint_names().len();
        if declared == 0 {
            report.advise(CONSTRAINTS, "the domain declares no constraint");
        }
        let mut action_rng = NumpyGenerator::seed_from_u64(config.seed ^ 0xc0de);
        let (mut steps, mut violations) = (0usize, 0usize);
        for _ in 0..config.episodes {
            if env.reset(Mode::Training).is_err() {
                report.fail(CONSTRAINTS, "reset failed");
                return;
            }
            for _ in 0..config.max_steps {
                let Some(action) = env.action_space().try_sample(&mut action_rng) else {
                    return;
                };
                match env.step(&action) {
                    Ok(outcome) => {
                        steps += 1;
                        violations += outcome.violations.len();
                        if let Some(i) = outcome.violations.iter().find(|i| *i >= declared) {
                            report.fail(
                                CONSTRAINTS,
                                format!(
                                    "violation of constraint {i}, but only {declared} are declared"
                                ),
                            );
                        }
                        if outcome.is_done() {
                            break;
                        }
                    }
                    Err(e) => {
                        report.fail(CONSTRAINTS, format!("step failed: {e}"));
                        return;
                    }
                }
            }
        }
        if declared > 0 {
            report.advise(
                CONSTRAINTS,
                format!(
                    "{declared} constraints evaluated on {steps} steps: {violations} violations"
                ),
            );
        }
    });
    if !report.failures().any(|f| f.check == CONSTRAINTS) {
        report.passed.push(CONSTRAINTS);
    }
    report
}
