//! Mode-dependent behaviour: [`ByMode`], a value for each [`Mode`], and [`ModeSwitch`], a
//! wrapper that sets the inner environment's parameters by mode at each reset.

use std::fmt;

use rl_core::{CoreError, Environment, Mode, StepOutcome};

use crate::forward::{
    forward_actions, forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};

/// A value for each [`Mode`]: one for training, one for every evaluation mode, and optional
/// ones for particular evaluation modes (deer's modes: validation and test may differ).
///
/// ```
/// use rl_core::Mode;
/// use rl_wrappers::stateful::ByMode;
///
/// let noise = ByMode::new(0.1, 0.0).with_evaluation(2, 0.05);
/// assert_eq!(*noise.get(Mode::Training), 0.1);
/// assert_eq!(*noise.get(Mode::Evaluation(0)), 0.0);
/// assert_eq!(*noise.get(Mode::Evaluation(2)), 0.05);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ByMode<P> {
    training: P,
    evaluation: P,
    particular: Vec<(u32, P)>,
}

impl<P> ByMode<P> {
    /// `training` in training episodes, `evaluation` in every evaluation mode.
    pub fn new(training: P, evaluation: P) -> Self {
        ByMode {
            training,
            evaluation,
            particular: Vec::new(),
        }
    }

    /// The same value in every mode.
    pub fn same(value: P) -> Self
    where
        P: Clone,
    {
        ByMode::new(value.clone(), value)
    }

    /// The same values, with `value` in the evaluation mode `index` (replacing an earlier one).
    pub fn with_evaluation(mut self, index: u32, value: P) -> Self {
        self.particular.retain(|(i, _)| *i != index);
        self.particular.push((index, value));
        self
    }

    /// The value for `mode`.
    pub fn get(&self, mode: Mode) -> &P {
        match mode {
            Mode::Training => &self.training,
            Mode::Evaluation(k) => self
                .particular
                .iter()
                .find(|(i, _)| *i == k)
                .map_or(&self.evaluation, |(_, p)| p),
        }
    }

    /// Every value (training, every evaluation mode, then the particular ones).
    pub fn values(&self) -> impl Iterator<Item = &P> {
        [&self.training, &self.evaluation]
            .into_iter()
            .chain(self.particular.iter().map(|(_, p)| p))
    }
}

/// Sets parameters of the inner environment by mode (deer's modes): at every reset, `apply`
/// is called with the inner environment and the parameters of the reset's mode, then the
/// inner environment is reset. The parameters hold until the next reset, so one episode never
/// mixes the behaviour of two modes.
///
/// Typical uses: no exploration noise, shorter time limits, or other dynamics when
/// evaluating.
///
/// ```
/// use std::num::NonZeroU64;
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, LEFT};
/// use rl_wrappers::stateful::{ByMode, ModeSwitch, TimeLimit};
///
/// let limits = ByMode::new(NonZeroU64::new(50).expect("non-zero"), NonZeroU64::MIN);
/// let env = TimeLimit::new(Simulator::new(Corridor::new(5, 0.0)?, 0), NonZeroU64::MIN);
/// let mut env = ModeSwitch::new(env, limits, |env: &mut TimeLimit<_>, limit: &NonZeroU64| {
///     env.set_max_steps(*limit)
/// });
/// env.reset(Mode::EVALUATION)?;
/// assert!(env.step(&LEFT)?.truncated, "evaluation episodes last one step");
/// env.reset(Mode::Training)?;
/// assert!(!env.step(&LEFT)?.truncated);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct ModeSwitch<E, P, F> {
    inner: E,
    parameters: ByMode<P>,
    apply: F,
    mode: Mode,
}

impl<E, P, F> ModeSwitch<E, P, F>
where
    E: Environment,
    F: FnMut(&mut E, &P),
{
    /// Applies `parameters` to `inner` with `apply` at every reset, by mode.
    pub fn new(inner: E, parameters: ByMode<P>, apply: F) -> Self {
        ModeSwitch {
            inner,
            parameters,
            apply,
            mode: Mode::Training,
        }
    }

    /// The parameters of every mode.
    pub fn parameters(&self) -> &ByMode<P> {
        &self.parameters
    }

    /// The parameters in force: those of the last reset's mode.
    pub fn current(&self) -> &P {
        self.parameters.get(self.mode)
    }

    inner_accessors!(E);
}

impl<E: fmt::Debug, P: fmt::Debug, F> fmt::Debug for ModeSwitch<E, P, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModeSwitch")
            .field("inner", &self.inner)
            .field("parameters", &self.parameters)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl<E, P, F> Environment for ModeSwitch<E, P, F>
where
    E: Environment,
    F: FnMut(&mut E, &P),
{
    forward_observations!(E);
    forward_actions!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        (self.apply)(&mut self.inner, self.parameters.get(mode));
        self.mode = mode;
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        self.inner.step(action)
    }
}
