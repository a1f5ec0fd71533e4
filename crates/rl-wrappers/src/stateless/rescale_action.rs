//! [`RescaleAction`]: actions in `[-1, 1]` mapped linearly to the Box bounds.

use rl_core::{CoreError, Environment, Mode, StepOutcome};

use crate::arithmetic::rescaled;
use crate::forward::{
    forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};
use crate::stateless::FloatBox;
use crate::stateless::float_box::map_action;

/// Takes actions in `[-1, 1]` (a Box of the inner shape) and maps each entry linearly to the
/// inner Box's bounds: `-1` to `low`, `1` to `high` (Gymnasium's `RescaleAction(env, -1, 1)`),
/// so that a policy with a `tanh` output drives any bounded Box.
///
/// The map `low + (a + 1) / 2 · (high - low)` (the vector version's arithmetic,
/// [`VectorRescaleAction`](crate::vector::VectorRescaleAction)) is computed in `f64`, rounded to the Box's type
/// and clipped to `[low, high]`, so rounding never leaves the bounds. (Gymnasium computes the
/// same line as `(a - intercept) / gradient` in the Box's type; results can differ in the last
/// bit.) Actions outside `[-1, 1]` are errors, like any action outside the action space.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// # use rl_core::{Domain, Mode as M, TransitionOutcome, Value};
/// # use rl_spaces::ArrayBox;
/// # #[derive(Clone, Debug)]
/// # struct Push { actions: ArrayBox<f64, 2> }
/// # impl Domain for Push {
/// #     type State = [f64; 2]; type Observation = [f64; 2]; type Action = [f64; 2];
/// #     type ObservationSpace = ArrayBox<f64, 2>; type ActionSpace = ArrayBox<f64, 2>;
/// #     fn observation_space(&self) -> &ArrayBox<f64, 2> { &self.actions }
/// #     fn action_space(&self) -> &ArrayBox<f64, 2> { &self.actions }
/// #     fn initial_state<R: rand::Rng + ?Sized>(&self, _: M, _: &mut R) -> [f64; 2] { [0.0; 2] }
/// #     fn step<R: rand::Rng + ?Sized>(&self, _: &[f64; 2], a: &[f64; 2], _: M, _: &mut R) -> TransitionOutcome<[f64; 2]> {
/// #         TransitionOutcome::new(*a, Value::ZERO, false)
/// #     }
/// #     fn observe(&self, s: &[f64; 2]) -> [f64; 2] { *s }
/// #     fn is_terminal(&self, _: &[f64; 2]) -> bool { false }
/// # }
/// use rl_wrappers::stateless::RescaleAction;
///
/// // `Push` moves to the action; its actions lie in [0, 10] × [-4, 0].
/// let push = Push { actions: ArrayBox::new([0.0, -4.0], [10.0, 0.0])? };
/// let mut env = RescaleAction::new(Simulator::new(push, 0))?;
/// env.reset(Mode::Training)?;
/// assert_eq!(env.step(&[-1.0, 1.0])?.observation, [0.0, 0.0]);
/// assert_eq!(env.step(&[0.5, 0.0])?.observation, [7.5, -2.0]);
/// assert!(env.step(&[1.5, 0.0]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct RescaleAction<E: Environment> {
    inner: E,
    action_space: E::ActionSpace,
    rescaled: E::Action,
}

impl<E> RescaleAction<E>
where
    E: Environment,
    E::ActionSpace: FloatBox,
{
    /// Rescales actions in `[-1, 1]` to the action space of `inner`. Errors if a bound of
    /// that space is infinite.
    pub fn new(inner: E) -> Result<Self, CoreError> {
        inner.action_space().ensure_float_box()?;
        if !inner.action_space().is_bounded() {
            return Err(CoreError::invalid_parameter(
                "action_space",
                format!(
                    "{} is unbounded; only a bounded Box can be rescaled",
                    inner.action_space()
                ),
            ));
        }
        let action_space = inner.action_space().with_bounds(-1.0, 1.0)?;
        let rescaled = inner.action_space().scratch();
        Ok(RescaleAction {
            inner,
            action_space,
            rescaled,
        })
    }

    inner_accessors!(E);
}

/// The map of [`map_action`]'s that rescales: `[-1, 1]` linearly onto the inner bounds.
fn from_unit(value: f64, low: f64, high: f64) -> f64 {
    rescaled(value, (-1.0, 1.0), (low, high))
}

impl<E> Environment for RescaleAction<E>
where
    E: Environment,
    E::ActionSpace: FloatBox,
{
    type Action = E::Action;
    type ActionSpace = E::ActionSpace;

    forward_observations!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn action_space(&self) -> &E::ActionSpace {
        &self.action_space
    }

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        let inner_space = self.inner.action_space();
        map_action(
            &self.action_space,
            inner_space,
            action,
            &mut self.rescaled,
            from_unit,
        )?;
        self.inner.step(&self.rescaled)
    }

    fn is_applicable(&self, action: &E::Action) -> bool {
        let mut rescaled = self.rescaled.clone();
        let inner_space = self.inner.action_space();
        map_action(
            &self.action_space,
            inner_space,
            action,
            &mut rescaled,
            from_unit,
        )
        .is_ok()
            && self.inner.is_applicable(&rescaled)
    }
}
