//! [`RandomAgent`]: uniform random actions.

use rand::{Rng, RngExt};
use rl_spaces::{AnyElement, AnySpace, FiniteSpace, TrySampleSpace};

use super::{Agent, Experience};
use crate::ExperimentError;

/// Draws actions uniformly: among the applicable ones for a finite action space with a mask,
/// otherwise from the action space's own sampler. It does not learn.
#[derive(Debug, Clone)]
pub struct RandomAgent {
    action_space: AnySpace,
}

impl RandomAgent {
    /// Its name, `random`, as registered and as [`Agent::name`] gives it.
    pub const NAME: &'static str = "random";

    /// A random agent for `action_space`.
    pub fn new(action_space: AnySpace) -> Self {
        RandomAgent { action_space }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn act(
        &mut self,
        _observation: &AnyElement,
        mask: Option<&[bool]>,
        _explore: bool,
        rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        if let Some(mask) = mask {
            let allowed = mask.iter().filter(|m| **m).count();
            if allowed > 0 {
                let pick = rng.random_range(0..allowed);
                let index = mask
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| **m)
                    .nth(pick)
                    .map(|(i, _)| i);
                if let Some(action) = index.and_then(|i| self.action_space.element_at(i)) {
                    return Ok(action);
                }
            }
        }
        let mut rng = rng;
        self.action_space
            .try_sample(&mut rng)
            .ok_or_else(|| ExperimentError::IncompatibleAgent {
                agent: Self::NAME,
                reason: "the action space is empty".to_owned(),
            })
    }

    fn learn(&mut self, _experience: &Experience<'_>) -> Result<(), ExperimentError> {
        Ok(())
    }
}
