//! [`NormalizeObservation`]: numeric observations normalised by their running mean and
//! variance (Gymnasium's `NormalizeObservation`), frozen while evaluating.

use std::fmt;
use std::sync::Arc;

use rl_core::{CoreError, Environment, Mode, StepOutcome};
use rl_spaces::FlatScalar;

use crate::arithmetic::{self, normalised};
use crate::forward::{
    forward_actions, forward_lifecycle, inner_accessors, randomness_beside_statistics,
};
use crate::numeric::{BufferPool, NumericLayout, NumericObservation, NumericSpace, real_box};
use crate::stateful::RunningMeanVariance;

/// Numeric observations with every entry normalised as `(x - mean) / sqrt(variance + ε)` by a
/// [`RunningMeanVariance`] of the observations seen (Gymnasium 1.x's `NormalizeObservation`,
/// ε = 10⁻⁸).
///
/// - Every observation of a **training** episode, the first one included, updates the
///   statistics before it is normalised, as in Gymnasium.
/// - In an **evaluation** episode ([`Mode::Evaluation`]) the statistics are frozen: they
///   normalise but are not updated, so evaluation never changes what training learned.
/// - The space keeps the inner components' names and shapes, unbounded, as `float64`.
/// - The computation is done in `f64` and rounded to `T` at the end.
/// - Saving the random state is unsupported: the statistics are not part of it (checkpoint
///   them with [`statistics`](Self::statistics) and [`set_statistics`](Self::set_statistics)).
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::OuterEnvironment;
/// use rl_wrappers::stateful::NormalizeObservation;
///
/// let outer = OuterEnvironment::<_, _, f64>::identity(Simulator::new(Corridor::new(4, 0.0)?, 0))?;
/// let mut env = NormalizeObservation::new(outer)?;
/// env.reset(Mode::Training)?;
/// env.step(&RIGHT)?;
/// assert_eq!(env.statistics().count(), 1e-4 + 1.0 + 1.0, "the reset and the step");
///
/// // Evaluation leaves the statistics alone.
/// let frozen = env.statistics().clone();
/// env.reset(Mode::EVALUATION)?;
/// env.step(&RIGHT)?;
/// assert_eq!(env.statistics(), &frozen);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct NormalizeObservation<E, T> {
    inner: E,
    statistics: RunningMeanVariance,
    epsilon: f64,
    mode: Mode,
    observation_space: NumericSpace<T>,
    pool: BufferPool<T>,
}

impl<E, T> NormalizeObservation<E, T>
where
    E: Environment<Observation = NumericObservation<T>, ObservationSpace = NumericSpace<T>>,
    T: FlatScalar,
{
    /// The ε added to the variance (Gymnasium's default).
    pub const DEFAULT_EPSILON: f64 = 1e-8;

    /// Normalises the observations of `inner`, starting from fresh statistics.
    pub fn new(inner: E) -> Result<Self, CoreError> {
        let inner_layout = inner.observation_space().layout();
        let components = inner_layout
            .components()
            .iter()
            .map(|c| {
                Ok((
                    c.name().to_owned(),
                    real_box(c.shape(), f64::NEG_INFINITY, f64::INFINITY)?,
                ))
            })
            .collect::<Result<Vec<_>, CoreError>>()?;
        let layout = Arc::new(NumericLayout::new(components)?);
        Ok(NormalizeObservation {
            statistics: RunningMeanVariance::new(layout.flat_dim())?,
            inner,
            epsilon: Self::DEFAULT_EPSILON,
            mode: Mode::Training,
            observation_space: NumericSpace::from_shared(Arc::clone(&layout)),
            pool: BufferPool::new(layout),
        })
    }

    /// The same wrapper with another ε. Errors unless `epsilon` is finite and positive.
    pub fn with_epsilon(mut self, epsilon: f64) -> Result<Self, CoreError> {
        self.epsilon = check_epsilon(epsilon)?;
        Ok(self)
    }

    /// The ε added to the variance.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// The running statistics of the observations.
    pub fn statistics(&self) -> &RunningMeanVariance {
        &self.statistics
    }

    /// Replaces the statistics (say, with those of a training environment, to evaluate with
    /// them). Errors if their dimension is not the observations' flat dimension.
    pub fn set_statistics(&mut self, statistics: RunningMeanVariance) -> Result<(), CoreError> {
        if statistics.dimension() != self.statistics.dimension() {
            return Err(CoreError::invalid_parameter(
                "statistics",
                format!(
                    "of dimension {}, but observations have {} entries",
                    statistics.dimension(),
                    self.statistics.dimension()
                ),
            ));
        }
        self.statistics = statistics;
        Ok(())
    }

    inner_accessors!(E);

    fn normalize(
        &mut self,
        observation: &NumericObservation<T>,
    ) -> Result<NumericObservation<T>, CoreError> {
        let data = observation.as_slice();
        if self.mode.is_training() {
            self.statistics.update(data)?;
        }
        let statistics = &self.statistics;
        let epsilon = self.epsilon;
        self.pool.fill(|out| {
            let moments = statistics.mean().iter().zip(statistics.variance());
            for ((o, x), (mean, variance)) in out.iter_mut().zip(data).zip(moments) {
                *o = T::from_f64(normalised(x.to_f64(), *mean, *variance, epsilon));
            }
            Ok(())
        })
    }
}

/// Checks that ε is finite and positive.
pub(crate) fn check_epsilon(epsilon: f64) -> Result<f64, CoreError> {
    arithmetic::check_epsilon(epsilon)
        .map_err(|reason| CoreError::invalid_parameter("epsilon", reason))
}

impl<E: fmt::Debug, T> fmt::Debug for NormalizeObservation<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NormalizeObservation")
            .field("inner", &self.inner)
            .field("statistics", &self.statistics)
            .field("epsilon", &self.epsilon)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl<E, T> Environment for NormalizeObservation<E, T>
where
    E: Environment<Observation = NumericObservation<T>, ObservationSpace = NumericSpace<T>>,
    T: FlatScalar,
{
    type Observation = NumericObservation<T>;
    type ObservationSpace = NumericSpace<T>;

    forward_actions!(E);
    forward_lifecycle!();
    randomness_beside_statistics!();

    fn observation_space(&self) -> &NumericSpace<T> {
        &self.observation_space
    }

    fn reset(&mut self, mode: Mode) -> Result<NumericObservation<T>, CoreError> {
        let observation = self.inner.reset(mode)?;
        self.mode = mode;
        self.normalize(&observation)
    }

    fn step(
        &mut self,
        action: &E::Action,
    ) -> Result<StepOutcome<NumericObservation<T>>, CoreError> {
        let outcome = self.inner.step(action)?;
        let observation = self.normalize(&outcome.observation)?;
        Ok(outcome.map_observation(|_| observation))
    }
}
