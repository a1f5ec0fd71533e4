//! [`NormalizeReward`]: rewards divided by the running standard deviation of a discounted
//! return (Gymnasium 1.x's `NormalizeReward`), frozen while evaluating.

use rl_core::{CoreError, Environment, Mode, StepOutcome, Value};

use crate::arithmetic::{self, discounted_return, reward_scale};
use crate::forward::{
    forward_actions, forward_lifecycle, forward_observations, inner_accessors,
    randomness_beside_statistics,
};
use crate::stateful::RunningMeanVariance;
use crate::stateful::normalize_observation::check_epsilon;

/// Rewards scaled to a roughly constant variance of the discounted return (Gymnasium 1.x's
/// `NormalizeReward`, same operations in the same order):
///
/// ```text
/// G ← G · γ · (1 − terminated) + r
/// statistics.update(G)                      (training episodes only)
/// r' = r / sqrt(statistics.variance + ε)
/// ```
///
/// - As in Gymnasium, `G` is cleared only by termination, not by truncation or reset (its
///   comment calls this a backward-compatibility choice); `G` carries over into the next
///   episode after a truncation.
/// - In an **evaluation** episode the statistics are frozen (`G` still accumulates), so
///   evaluation never changes the scale training uses.
/// - The reward is not centred (see openai/baselines#538).
/// - Saving the random state is unsupported: the statistics and `G` are not part of it.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::stateful::NormalizeReward;
///
/// let mut env = NormalizeReward::new(Simulator::new(Corridor::new(10, 0.0)?, 0), 0.99)?;
/// env.reset(Mode::Training)?;
/// let rewards: Vec<f64> = (0..5).map(|_| env.step(&RIGHT).map(|o| o.reward())).collect::<Result<_, _>>()?;
/// // Corridor's reward is always -1; normalised, it shrinks as the return's spread grows.
/// assert!(rewards.iter().all(|r| *r < 0.0));
/// assert!(rewards[4].abs() < rewards[1].abs());
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct NormalizeReward<E> {
    inner: E,
    gamma: f64,
    epsilon: f64,
    discounted_return: f64,
    statistics: RunningMeanVariance,
    mode: Mode,
}

impl<E: Environment> NormalizeReward<E> {
    /// The ε added to the variance (Gymnasium's default).
    pub const DEFAULT_EPSILON: f64 = 1e-8;

    /// Normalises the rewards of `inner` with discount `gamma` for the running return. Errors
    /// unless `gamma` is in `[0, 1]`.
    pub fn new(inner: E, gamma: f64) -> Result<Self, CoreError> {
        let gamma = arithmetic::check_gamma(gamma)
            .map_err(|reason| CoreError::invalid_parameter("gamma", reason))?;
        Ok(NormalizeReward {
            inner,
            gamma,
            epsilon: Self::DEFAULT_EPSILON,
            discounted_return: 0.0,
            statistics: RunningMeanVariance::new(1)?,
            mode: Mode::Training,
        })
    }

    /// The same wrapper with another ε. Errors unless `epsilon` is finite and positive.
    pub fn with_epsilon(mut self, epsilon: f64) -> Result<Self, CoreError> {
        self.epsilon = check_epsilon(epsilon)?;
        Ok(self)
    }

    /// The discount of the running return.
    pub fn gamma(&self) -> f64 {
        self.gamma
    }

    /// The ε added to the variance.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// The running discounted return `G`.
    pub fn discounted_return(&self) -> f64 {
        self.discounted_return
    }

    /// The running statistics of `G` (dimension 1).
    pub fn statistics(&self) -> &RunningMeanVariance {
        &self.statistics
    }

    /// Replaces the statistics. Errors unless their dimension is 1.
    pub fn set_statistics(&mut self, statistics: RunningMeanVariance) -> Result<(), CoreError> {
        if statistics.dimension() != 1 {
            return Err(CoreError::invalid_parameter(
                "statistics",
                format!(
                    "of dimension {}; the return is one number",
                    statistics.dimension()
                ),
            ));
        }
        self.statistics = statistics;
        Ok(())
    }

    inner_accessors!(E);
}

impl<E: Environment> Environment for NormalizeReward<E> {
    forward_observations!(E);
    forward_actions!(E);
    forward_lifecycle!();
    randomness_beside_statistics!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        let observation = self.inner.reset(mode)?;
        self.mode = mode;
        Ok(observation)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        let mut outcome = self.inner.step(action)?;
        let reward = outcome.reward();
        self.discounted_return = discounted_return(
            self.discounted_return,
            self.gamma,
            outcome.terminated,
            reward,
        );
        if self.mode.is_training() {
            self.statistics.update(&[self.discounted_return])?;
        }
        let variance = self.statistics.variance().first().copied().unwrap_or(1.0);
        outcome.value = Value::from_reward(reward / reward_scale(variance, self.epsilon));
        Ok(outcome)
    }
}
