//! Running episodes: [`run_episode`] and [`run_episodes`] with any [`Policy`], giving an
//! [`EpisodeRecord`] per episode.

use std::time::Instant;

use rand::Rng;
use rl_core::{Environment, Mode};
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
    /// The number of constraint violations reported by the environment.
    pub constraint_violations: u64,
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
    };
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
        record.constraint_violations += outcome.violations.len() as u64;
        if outcome.is_done() {
            record.terminated = outcome.terminated;
            record.truncated = outcome.truncated;
            break;
        }
        observation = outcome.observation;
    }
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
