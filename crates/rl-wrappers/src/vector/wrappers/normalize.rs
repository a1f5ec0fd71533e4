//! [`VectorNormalizeObservation`] (one running mean and variance over every environment's
//! observations) and [`VectorNormalizeReward`] (rewards scaled by the running variance of
//! each environment's discounted return), Gymnasium's vector `NormalizeObservation` and
//! `NormalizeReward`.

use ndarray::Array2;
use rl_core::{CoreError, Mode};
use rl_spaces::FlatScalar;

use crate::arithmetic::{self, discounted_return, normalised, reward_scale};
use crate::error::VectorError;
use crate::stateful::RunningMeanVariance;
use crate::vector::wrappers::{VectorEnv, forward_vector, vector_accessors};

/// Gymnasium's default epsilon of both normalisers.
const EPSILON: f64 = 1e-8;

fn statistics_error(source: CoreError) -> VectorError {
    VectorError::InvalidParameter {
        name: "statistics",
        reason: source.to_string(),
    }
}

fn check_epsilon(epsilon: f64) -> Result<f64, VectorError> {
    arithmetic::check_epsilon(epsilon).map_err(|reason| VectorError::InvalidParameter {
        name: "epsilon",
        reason,
    })
}

/// Normalises observations with one running mean and variance over the whole batch: on every
/// reset and step in training mode, the batch's mean and variance per entry are merged into
/// the running statistics (Gymnasium's `update_from_moments`, batch count = number of
/// environments), then every row is written as `(x - mean) / sqrt(variance + epsilon)`. The
/// final observations of [`Autoreset::SameStep`](crate::vector::Autoreset::SameStep) are
/// normalised with the same statistics. In evaluation mode the statistics are frozen.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_core::{Mode, Simulator};
/// use rl_wrappers::vector::{EnvironmentVector, VectorEnv, VectorNormalizeObservation, VectorOptions};
///
/// let count = NonZeroUsize::new(8).expect("non-zero");
/// let vector = EnvironmentVector::<_, f32>::from_environments(count, 3, VectorOptions::new(), |_| {
///     Simulator::new(Corridor::new(4, 0.5).expect("valid"), 0)
/// })?;
/// let mut env = VectorNormalizeObservation::new(vector)?;
/// env.reset(Mode::Training)?;
/// for _ in 0..20 {
///     env.step(&[RIGHT; 8])?;
/// }
/// assert_eq!(env.statistics().count().round(), 1e-4_f64.round() + 8.0 * 21.0);
/// assert!(env.observations().iter().all(|x| x.is_finite()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct VectorNormalizeObservation<V: VectorEnv> {
    inner: V,
    statistics: RunningMeanVariance,
    epsilon: f64,
    observations: Array2<V::Scalar>,
    final_observations: Array2<V::Scalar>,
    batch_mean: Vec<f64>,
    batch_variance: Vec<f64>,
}

impl<V: VectorEnv> VectorNormalizeObservation<V> {
    /// Normalises the observations of `inner` with epsilon 1e-8.
    pub fn new(inner: V) -> Result<Self, VectorError> {
        let dim = inner.flat_dim();
        let shape = (inner.len(), dim);
        Ok(VectorNormalizeObservation {
            statistics: RunningMeanVariance::new(dim).map_err(statistics_error)?,
            epsilon: EPSILON,
            observations: Array2::from_elem(shape, V::Scalar::from_f64(0.0)),
            final_observations: Array2::from_elem(shape, V::Scalar::from_f64(0.0)),
            batch_mean: vec![0.0; dim],
            batch_variance: vec![0.0; dim],
            inner,
        })
    }

    /// The same wrapper with another epsilon (positive).
    pub fn with_epsilon(mut self, epsilon: f64) -> Result<Self, VectorError> {
        self.epsilon = check_epsilon(epsilon)?;
        Ok(self)
    }

    /// The running statistics.
    pub fn statistics(&self) -> &RunningMeanVariance {
        &self.statistics
    }

    /// Replaces the running statistics (to restore a checkpoint); they must have the
    /// observations' dimension.
    pub fn set_statistics(&mut self, statistics: RunningMeanVariance) -> Result<(), VectorError> {
        if statistics.dimension() != self.inner.flat_dim() {
            return Err(VectorError::InvalidParameter {
                name: "statistics",
                reason: format!(
                    "of dimension {}, the observations have {}",
                    statistics.dimension(),
                    self.inner.flat_dim()
                ),
            });
        }
        self.statistics = statistics;
        Ok(())
    }

    vector_accessors!();

    /// Merges the inner observations into the statistics (in training mode) and writes the
    /// normalised buffers.
    fn normalise(&mut self) -> Result<(), VectorError> {
        let rows = self.inner.observations();
        if self.inner.mode().is_training() {
            let count = rows.nrows() as f64;
            self.batch_mean.fill(0.0);
            self.batch_variance.fill(0.0);
            for row in rows.rows() {
                for (mean, x) in self.batch_mean.iter_mut().zip(row) {
                    *mean += x.to_f64();
                }
            }
            for mean in &mut self.batch_mean {
                *mean /= count;
            }
            for row in rows.rows() {
                for ((variance, mean), x) in self
                    .batch_variance
                    .iter_mut()
                    .zip(&self.batch_mean)
                    .zip(row)
                {
                    let deviation = x.to_f64() - mean;
                    *variance += deviation * deviation;
                }
            }
            for variance in &mut self.batch_variance {
                *variance /= count;
            }
            self.statistics
                .update_from_moments(&self.batch_mean, &self.batch_variance, count)
                .map_err(statistics_error)?;
        }
        let (mean, variance, epsilon) = (
            self.statistics.mean(),
            self.statistics.variance(),
            self.epsilon,
        );
        let scale = |source: &Array2<V::Scalar>, target: &mut Array2<V::Scalar>| {
            for (source_row, mut target_row) in source.rows().into_iter().zip(target.rows_mut()) {
                for (((x, y), m), v) in source_row
                    .iter()
                    .zip(target_row.iter_mut())
                    .zip(mean)
                    .zip(variance)
                {
                    *y = V::Scalar::from_f64(normalised(x.to_f64(), *m, *v, epsilon));
                }
            }
        };
        scale(self.inner.observations(), &mut self.observations);
        scale(
            self.inner.final_observations(),
            &mut self.final_observations,
        );
        Ok(())
    }
}

impl<V: VectorEnv> VectorEnv for VectorNormalizeObservation<V> {
    type Scalar = V::Scalar;

    forward_vector!(actions);
    forward_vector!(lifecycle);
    forward_vector!(rewards);

    fn flat_dim(&self) -> usize {
        self.inner.flat_dim()
    }

    fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        self.inner.reset(mode)?;
        self.normalise()
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        self.inner.reset_ended()?;
        self.normalise()
    }

    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        self.inner.reset_selected(selected)?;
        self.normalise()
    }

    fn step(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        self.inner.step(actions)?;
        self.normalise()
    }

    fn observations(&self) -> &Array2<V::Scalar> {
        &self.observations
    }

    fn final_observations(&self) -> &Array2<V::Scalar> {
        &self.final_observations
    }

    fn final_mask(&self) -> &[bool] {
        self.inner.final_mask()
    }
}

/// Scales each environment's rewards by the running standard deviation of the discounted
/// returns, Gymnasium's vector `NormalizeReward` operation for operation: per environment,
/// `return = return × gamma × (1 − terminated) + reward`; in training mode the batch of
/// returns is merged into one running variance; the reward given is
/// `reward / sqrt(variance + epsilon)`. In evaluation mode the statistics are frozen.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_core::{Mode, Simulator};
/// use rl_wrappers::vector::{EnvironmentVector, VectorEnv, VectorNormalizeReward, VectorOptions};
///
/// let count = NonZeroUsize::new(4).expect("non-zero");
/// let vector = EnvironmentVector::<_, f32>::from_environments(count, 3, VectorOptions::new(), |_| {
///     Simulator::new(Corridor::new(6, 0.3).expect("valid"), 0)
/// })?;
/// let mut env = VectorNormalizeReward::new(vector, 0.99)?;
/// env.reset(Mode::Training)?;
/// env.step(&[RIGHT; 4])?;
/// // Every reward is -1, scaled by the running deviation of the returns.
/// let scale = (env.statistics().variance()[0] + 1e-8).sqrt();
/// assert!(env.rewards().iter().all(|r| *r == -1.0 / scale));
/// env.step(&[RIGHT; 4])?;
/// assert!(env.rewards().iter().all(|r| r.is_finite() && *r < 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct VectorNormalizeReward<V> {
    inner: V,
    gamma: f64,
    epsilon: f64,
    statistics: RunningMeanVariance,
    returns: Vec<f64>,
    rewards: Vec<f64>,
}

impl<V: VectorEnv> VectorNormalizeReward<V> {
    /// Normalises the rewards of `inner` for discount `gamma` (in [0, 1]), epsilon 1e-8.
    pub fn new(inner: V, gamma: f64) -> Result<Self, VectorError> {
        let gamma =
            arithmetic::check_gamma(gamma).map_err(|reason| VectorError::InvalidParameter {
                name: "gamma",
                reason,
            })?;
        let len = inner.len();
        Ok(VectorNormalizeReward {
            inner,
            gamma,
            epsilon: EPSILON,
            statistics: RunningMeanVariance::new(1).map_err(statistics_error)?,
            returns: vec![0.0; len],
            rewards: vec![0.0; len],
        })
    }

    /// The same wrapper with another epsilon (positive).
    pub fn with_epsilon(mut self, epsilon: f64) -> Result<Self, VectorError> {
        self.epsilon = check_epsilon(epsilon)?;
        Ok(self)
    }

    /// The discount of the returns.
    pub fn gamma(&self) -> f64 {
        self.gamma
    }

    /// Each environment's discounted return so far.
    pub fn discounted_returns(&self) -> &[f64] {
        &self.returns
    }

    /// The running statistics of the returns (dimension 1).
    pub fn statistics(&self) -> &RunningMeanVariance {
        &self.statistics
    }

    vector_accessors!();
}

impl<V: VectorEnv> VectorEnv for VectorNormalizeReward<V> {
    forward_vector!(actions);
    forward_vector!(lifecycle);
    forward_vector!(observations);

    fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        self.inner.reset(mode)?;
        self.rewards.fill(0.0);
        Ok(())
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        self.inner.reset_ended()
    }

    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        self.inner.reset_selected(selected)?;
        // A selected environment starts an episode: no reward yet, no return so far.
        for ((reward, discounted), selected) in
            self.rewards.iter_mut().zip(&mut self.returns).zip(selected)
        {
            if *selected {
                *reward = 0.0;
                *discounted = 0.0;
            }
        }
        Ok(())
    }

    fn step(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        self.inner.step(actions)?;
        self.scale_rewards()
    }

    fn rewards(&self) -> &[f64] {
        &self.rewards
    }

    forward_vector!(flags);
}

impl<V: VectorEnv> VectorNormalizeReward<V> {
    /// Updates the discounted returns and their statistics with the inner vector's last step
    /// and writes the scaled rewards.
    fn scale_rewards(&mut self) -> Result<(), VectorError> {
        let count = self.returns.len() as f64;
        for ((discounted, reward), terminated) in self
            .returns
            .iter_mut()
            .zip(self.inner.rewards())
            .zip(self.inner.terminated())
        {
            *discounted = discounted_return(*discounted, self.gamma, *terminated, *reward);
        }
        if self.inner.mode().is_training() {
            let mean = self.returns.iter().sum::<f64>() / count;
            let variance = self
                .returns
                .iter()
                .map(|r| (r - mean) * (r - mean))
                .sum::<f64>()
                / count;
            self.statistics
                .update_from_moments(&[mean], &[variance], count)
                .map_err(statistics_error)?;
        }
        let scale = reward_scale(self.statistics.variance()[0], self.epsilon);
        for (normalised, reward) in self.rewards.iter_mut().zip(self.inner.rewards()) {
            *normalised = reward / scale;
        }
        Ok(())
    }
}
