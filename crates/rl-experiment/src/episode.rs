//! Running episodes: [`run_episode`] and [`run_episodes`] with any [`Policy`], giving an
//! [`EpisodeRecord`] per episode, with its violations of declared constraints by constraint
//! ([`ConstraintViolations`]).

use std::time::Instant;

use rand::Rng;
use rl_core::{Environment, Mode, Violations};
use serde::{Deserialize, Serialize};

use crate::ExperimentError;

/// What happened in one episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpisodeRecord {
    /// The sum of the rewards.
    #[serde(rename = "return")]
    pub episode_return: f64,
    /// The sum of `discount^t * reward_t`, with the environment's discount.
    pub discounted_return: f64,
    /// The number of steps.
    pub length: u64,
    /// Whether the episode ended by termination.
    pub terminated: bool,
    /// Whether the episode ended by truncation (a time limit), possibly together with
    /// termination.
    pub truncated: bool,
    /// Seconds of wall time the episode took (the only field that differs between identical
    /// runs).
    pub wall_time: f64,
    /// The number of constraint violations reported by the environment (the sum over steps
    /// of the number of constraints each step violated).
    pub constraint_violations: u64,
    /// The violations by constraint, in the order of the domain's constraints: one entry per
    /// constraint violated at least once in the episode (none for an environment without
    /// declared constraints; absent from JSON when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<ConstraintViolations>,
}

/// How often one declared constraint was violated in an episode, and when first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstraintViolations {
    /// The constraint's name ([`Environment::constraint_name`]; `constraint N` for an
    /// environment that names none).
    pub name: String,
    /// The number of the episode's steps that violated it.
    pub count: u64,
    /// The first step of the episode that violated it, counted from 1.
    pub first_step: u64,
}

/// The violations of an episode being run, by constraint: allocates only when a constraint is
/// violated for the first time in the episode.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ViolationTally {
    /// The constraints violated so far, with their index, in index order.
    entries: Vec<(usize, ConstraintViolations)>,
    /// The sum of the violations of every step.
    total: u64,
}

impl ViolationTally {
    /// Records the violations of step `step` (counted from 1) of `env`'s episode.
    pub(crate) fn record<E: Environment + ?Sized>(
        &mut self,
        env: &E,
        violations: Violations,
        step: u64,
    ) {
        if violations.is_empty() {
            return;
        }
        self.total += violations.len() as u64;
        for index in violations.iter() {
            match self.entries.binary_search_by_key(&index, |(i, _)| *i) {
                Ok(at) => self.entries[at].1.count += 1,
                Err(at) => {
                    let name = env
                        .constraint_name(index)
                        .map_or_else(|| format!("constraint {index}"), str::to_owned);
                    let entry = ConstraintViolations {
                        name,
                        count: 1,
                        first_step: step,
                    };
                    self.entries.insert(at, (index, entry));
                }
            }
        }
    }

    /// The sum over steps of the number of constraints each violated.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// The violations by constraint, in index order.
    pub(crate) fn into_violations(self) -> Vec<ConstraintViolations> {
        self.entries.into_iter().map(|(_, entry)| entry).collect()
    }
}

/// Chooses actions from observations.
///
/// Closures `FnMut(&O, &mut dyn Rng) -> A` are policies.
pub trait Policy<O, A> {
    /// The action to take after observing `observation`.
    fn act(&mut self, observation: &O, rng: &mut dyn Rng) -> Result<A, ExperimentError>;
}

impl<O, A, F> Policy<O, A> for F
where
    F: FnMut(&O, &mut dyn Rng) -> A,
{
    fn act(&mut self, observation: &O, rng: &mut dyn Rng) -> Result<A, ExperimentError> {
        Ok(self(observation, rng))
    }
}

/// Runs one episode of `env` in `mode` with `policy`, until the environment ends it or, if
/// `step_limit` is given, until that many steps (the episode is then recorded as truncated).
/// The violations of the environment's declared constraints
/// ([`StepOutcome::violations`](rl_core::StepOutcome::violations)) are recorded by constraint.
///
/// ```
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_core::{Mode, Simulator};
/// use rl_experiment::run_episode;
///
/// let mut env = Simulator::new(Corridor::new(5, 0.0)?, 0);
/// let mut always_right = |_: &i64, _: &mut dyn rand::Rng| RIGHT;
/// let mut rng = rand_pcg::Pcg64::new(0, 0);
/// let record = run_episode(&mut env, &mut always_right, Mode::Training, None, &mut rng)?;
/// assert_eq!((record.length, record.episode_return, record.terminated), (4, -4.0, true));
///
/// // With the corridor's constraint ("moves toward the goal") evaluated: walking left from
/// // cell 0 violates it on every step.
/// let mut env = Simulator::with_constraints(Corridor::new(5, 0.0)?, 0)?;
/// let mut always_left = |_: &i64, _: &mut dyn rand::Rng| rl_core::corridor::LEFT;
/// let record = run_episode(&mut env, &mut always_left, Mode::Training, Some(3), &mut rng)?;
/// assert_eq!(record.constraint_violations, 3);
/// assert_eq!(record.violations[0].name, "moves toward the goal");
/// assert_eq!((record.violations[0].count, record.violations[0].first_step), (3, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_episode<E, P, R>(
    env: &mut E,
    policy: &mut P,
    mode: Mode,
    step_limit: Option<u64>,
    rng: &mut R,
) -> Result<EpisodeRecord, ExperimentError>
where
    E: Environment,
    P: Policy<E::Observation, E::Action>,
    R: Rng,
{
    let start = Instant::now();
    let discount = env.discount();
    let mut observation = env.reset(mode)?;
    let mut record = EpisodeRecord {
        episode_return: 0.0,
        discounted_return: 0.0,
        length: 0,
        terminated: false,
        truncated: false,
        wall_time: 0.0,
        constraint_violations: 0,
        violations: Vec::new(),
    };
    let mut tally = ViolationTally::default();
    let mut weight = 1.0;
    loop {
        if step_limit.is_some_and(|limit| record.length >= limit) {
            record.truncated = true;
            break;
        }
        let action = policy.act(&observation, rng)?;
        let outcome = env.step(&action)?;
        record.episode_return += outcome.reward();
        record.discounted_return += weight * outcome.reward();
        weight *= discount;
        record.length += 1;
        tally.record(env, outcome.violations, record.length);
        if outcome.is_done() {
            record.terminated = outcome.terminated;
            record.truncated = outcome.truncated;
            break;
        }
        observation = outcome.observation;
    }
    record.constraint_violations = tally.total();
    record.violations = tally.into_violations();
    record.wall_time = start.elapsed().as_secs_f64();
    Ok(record)
}

/// Runs `count` episodes with [`run_episode`].
pub fn run_episodes<E, P, R>(
    env: &mut E,
    policy: &mut P,
    mode: Mode,
    count: usize,
    step_limit: Option<u64>,
    rng: &mut R,
) -> Result<Vec<EpisodeRecord>, ExperimentError>
where
    E: Environment,
    P: Policy<E::Observation, E::Action>,
    R: Rng,
{
    (0..count)
        .map(|_| run_episode(env, policy, mode, step_limit, rng))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rl_core::Simulator;
    use rl_core::corridor::{Corridor, LEFT, RIGHT};

    #[test]
    fn discounted_returns_use_the_environment_discount() {
        let mut env = Simulator::new(Corridor::new(3, 0.0).unwrap(), 0);
        let mut right = |_: &i64, _: &mut dyn Rng| RIGHT;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(0);
        let record = run_episode(&mut env, &mut right, Mode::Training, None, &mut rng).unwrap();
        assert_eq!(record.episode_return, -2.0);
        assert_eq!(record.discounted_return, -1.0 - 0.95);
    }

    #[test]
    fn the_episode_cap_and_the_step_limit_truncate() {
        let mut env = Simulator::new(Corridor::new(3, 0.0).unwrap(), 0);
        let mut left = |_: &i64, _: &mut dyn Rng| LEFT;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(0);
        let capped = run_episode(&mut env, &mut left, Mode::Training, None, &mut rng).unwrap();
        assert_eq!(
            (capped.length, capped.truncated, capped.terminated),
            (100, true, false)
        );
        let limited = run_episode(&mut env, &mut left, Mode::Training, Some(7), &mut rng).unwrap();
        assert_eq!((limited.length, limited.truncated), (7, true));
        let many = run_episodes(&mut env, &mut left, Mode::Training, 3, Some(2), &mut rng).unwrap();
        assert_eq!(many.len(), 3);
    }
}
