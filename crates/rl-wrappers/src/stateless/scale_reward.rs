//! [`ScaleReward`]: rewards multiplied by a constant factor.

use rl_core::{CoreError, Environment, Mode, StepOutcome, Value};

use crate::forward::{
    forward_actions, forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};

/// Multiplies every reward by a finite `factor` (Gymnasium's `TransformReward(env, lambda r:
/// factor * r)`).
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::stateless::ScaleReward;
///
/// let mut env = ScaleReward::new(Simulator::new(Corridor::new(4, 0.0)?, 0), 0.5)?;
/// env.reset(Mode::Training)?;
/// assert_eq!(env.step(&RIGHT)?.reward(), -0.5);
/// assert!(ScaleReward::new(Simulator::new(Corridor::new(4, 0.0)?, 0), f64::NAN).is_err());
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ScaleReward<E> {
    inner: E,
    factor: f64,
}

impl<E: Environment> ScaleReward<E> {
    /// Multiplies the rewards of `inner` by `factor`. Errors unless `factor` is finite.
    pub fn new(inner: E, factor: f64) -> Result<Self, CoreError> {
        if !factor.is_finite() {
            return Err(CoreError::invalid_parameter(
                "factor",
                format!("{factor} is not a finite number"),
            ));
        }
        Ok(ScaleReward { inner, factor })
    }

    /// The factor.
    pub fn factor(&self) -> f64 {
        self.factor
    }

    inner_accessors!(E);
}

impl<E: Environment> Environment for ScaleReward<E> {
    forward_observations!(E);
    forward_actions!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        let mut outcome = self.inner.step(action)?;
        outcome.value = Value::from_reward(self.factor * outcome.reward());
        Ok(outcome)
    }
}
