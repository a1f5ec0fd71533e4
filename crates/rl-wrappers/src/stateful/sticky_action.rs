//! [`StickyAction`]: with a probability set by mode, the previous action is repeated instead
//! of the one given (Gymnasium's `StickyAction`, Machado et al. 2018).

use rand::{RngExt, SeedableRng};
use rl_core::NumpyGenerator;
use rl_core::{CoreError, Environment, Mode, RandomState, StepOutcome};

use crate::derive_seed;
use crate::forward::{forward_actions, forward_lifecycle, forward_observations, inner_accessors};
use crate::stateful::ByMode;

/// Repeats the previous action instead of the given one with a probability chosen by mode
/// (Gymnasium's `StickyAction`): noise that makes a deterministic task stochastic, usually on
/// in training and off when evaluating.
///
/// - The first step of an episode always takes the given action. Later steps draw one uniform
///   number from the wrapper's own `NumpyGenerator`; below the probability, the previous action taken
///   is repeated.
/// - The given action is checked against the action space even when it is not taken.
/// - **Seeding.** [`seed(s)`](Environment::seed) seeds the inner environment with `s` and the
///   wrapper's generator with [`derive_seed(s, 0)`](crate::derive_seed). The random state of
///   two generators does not fit one [`RandomState`]: saving and restoring it is unsupported.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, LEFT, RIGHT};
/// use rl_wrappers::stateful::{ByMode, StickyAction};
///
/// // Always sticky in training, never when evaluating.
/// let sticky = ByMode::new(1.0, 0.0);
/// let mut env = StickyAction::new(Simulator::new(Corridor::new(9, 0.0)?, 0), sticky, 42)?;
/// env.reset(Mode::Training)?;
/// assert_eq!(env.step(&RIGHT)?.observation, 1);
/// assert_eq!(env.step(&LEFT)?.observation, 2, "RIGHT was repeated");
/// env.reset(Mode::EVALUATION)?;
/// env.step(&RIGHT)?;
/// assert_eq!(env.step(&LEFT)?.observation, 0);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct StickyAction<E: Environment> {
    inner: E,
    probability: ByMode<f64>,
    current: f64,
    rng: NumpyGenerator,
    /// The last action taken, kept across episodes so that its storage is reused.
    previous: Option<E::Action>,
    /// Whether `previous` was taken in the current episode.
    has_previous: bool,
}

impl<E: Environment> StickyAction<E> {
    /// Repeats actions of `inner` with `probability` by mode; the wrapper's generator is
    /// seeded with `derive_seed(seed, 0)`. Errors if a probability is not in `[0, 1]`.
    pub fn new(inner: E, probability: ByMode<f64>, seed: u64) -> Result<Self, CoreError> {
        if let Some(p) = probability.values().find(|p| !(0.0..=1.0).contains(*p)) {
            return Err(CoreError::invalid_parameter(
                "probability",
                format!("{p} is not a probability in [0, 1]"),
            ));
        }
        Ok(StickyAction {
            inner,
            current: *probability.get(Mode::Training),
            probability,
            rng: NumpyGenerator::seed_from_u64(derive_seed(seed, 0)),
            previous: None,
            has_previous: false,
        })
    }

    /// The probability of repeating, by mode.
    pub fn probability(&self) -> &ByMode<f64> {
        &self.probability
    }

    /// The action taken on the last step of the episode, if any.
    pub fn previous_action(&self) -> Option<&E::Action> {
        self.previous.as_ref().filter(|_| self.has_previous)
    }

    inner_accessors!(E);
}

impl<E: Environment> Environment for StickyAction<E> {
    forward_observations!(E);
    forward_actions!(E);
    forward_lifecycle!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        let observation = self.inner.reset(mode)?;
        self.current = *self.probability.get(mode);
        self.has_previous = false;
        Ok(observation)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        if !self.inner.accepts_action(action) {
            return Err(CoreError::invalid_action(action, self.inner.action_space()));
        }
        let repeat = self.has_previous && self.rng.random::<f64>() < self.current;
        match (&mut self.previous, repeat) {
            (Some(previous), true) => self.inner.step(previous),
            (previous, _) => {
                let outcome = self.inner.step(action)?;
                match previous {
                    Some(p) => p.clone_from(action),
                    None => *previous = Some(action.clone()),
                }
                self.has_previous = true;
                Ok(outcome)
            }
        }
    }

    fn seed(&mut self, seed: u64) {
        self.inner.seed(seed);
        self.rng = NumpyGenerator::seed_from_u64(derive_seed(seed, 0));
    }

    fn random_state(&self) -> Result<RandomState, CoreError> {
        Err(CoreError::Unsupported {
            operation: "random_state",
        })
    }

    fn set_random_state(&mut self, state: RandomState) -> Result<(), CoreError> {
        let _ = state;
        Err(CoreError::Unsupported {
            operation: "set_random_state",
        })
    }
}
