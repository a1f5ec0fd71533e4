//! [`ClipReward`]: rewards clipped to an interval.

use rl_core::{CoreError, Environment, Mode, StepOutcome, Value};

use crate::forward::{
    forward_actions, forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};

/// Clips every reward to `[min, max]` (Gymnasium's `ClipReward`). Either bound may be
/// infinite, to clip on one side only.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::stateless::ClipReward;
///
/// let mut env = ClipReward::new(Simulator::new(Corridor::new(4, 0.0)?, 0), -0.25, f64::INFINITY)?;
/// env.reset(Mode::Training)?;
/// assert_eq!(env.step(&RIGHT)?.reward(), -0.25);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ClipReward<E> {
    inner: E,
    min: f64,
    max: f64,
}

impl<E: Environment> ClipReward<E> {
    /// Clips the rewards of `inner` to `[min, max]`. Errors if a bound is NaN or
    /// `min > max`.
    pub fn new(inner: E, min: f64, max: f64) -> Result<Self, CoreError> {
        if min.is_nan() || max.is_nan() || min > max {
            return Err(CoreError::invalid_parameter(
                "bounds",
                format!("[{min}, {max}] is not an interval"),
            ));
        }
        Ok(ClipReward { inner, min, max })
    }

    /// The lowest reward given.
    pub fn min(&self) -> f64 {
        self.min
    }

    /// The highest reward given.
    pub fn max(&self) -> f64 {
        self.max
    }

    inner_accessors!(E);
}

impl<E: Environment> Environment for ClipReward<E> {
    forward_observations!(E);
    forward_actions!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        let mut outcome = self.inner.step(action)?;
        outcome.value = Value::from_reward(outcome.reward().clamp(self.min, self.max));
        Ok(outcome)
    }
}
