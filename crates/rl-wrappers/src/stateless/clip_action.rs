//! [`ClipAction`]: any real action accepted and clipped to the Box bounds.

use rl_core::{CoreError, Environment, Mode, StepOutcome};

use crate::forward::{
    forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};
use crate::stateless::FloatBox;
use crate::stateless::float_box::map_action;

/// Accepts any action of the right shape without NaN and clips each entry to the inner Box's
/// bounds (Gymnasium 1.x's `ClipAction`, whose action space is the unbounded Box of the same
/// shape).
///
/// The clipped action is written into a buffer the wrapper keeps, so stepping allocates
/// nothing.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::Corridor;
/// # use rl_core::{Domain, Mode as M, TransitionOutcome, Value};
/// # use rl_spaces::{ArrayBox, Discrete};
/// # #[derive(Clone, Debug)]
/// # struct Push { actions: ArrayBox<f32, 1>, observations: ArrayBox<f32, 1> }
/// # impl Domain for Push {
/// #     type State = f32; type Observation = [f32; 1]; type Action = [f32; 1];
/// #     type ObservationSpace = ArrayBox<f32, 1>; type ActionSpace = ArrayBox<f32, 1>;
/// #     fn observation_space(&self) -> &ArrayBox<f32, 1> { &self.observations }
/// #     fn action_space(&self) -> &ArrayBox<f32, 1> { &self.actions }
/// #     fn initial_state<R: rand::Rng + ?Sized>(&self, _: M, _: &mut R) -> f32 { 0.0 }
/// #     fn step<R: rand::Rng + ?Sized>(&self, _: &f32, a: &[f32; 1], _: M, _: &mut R) -> TransitionOutcome<f32> {
/// #         TransitionOutcome::new(a[0], Value::ZERO, false)
/// #     }
/// #     fn observe(&self, s: &f32) -> [f32; 1] { [*s] }
/// #     fn is_terminal(&self, _: &f32) -> bool { false }
/// # }
/// use rl_wrappers::stateless::ClipAction;
///
/// // `Push` moves to the action's value; its actions lie in [-2, 2].
/// let push = Push { actions: ArrayBox::new([-2.0], [2.0])?, observations: ArrayBox::new([-2.0], [2.0])? };
/// let mut env = ClipAction::new(Simulator::new(push, 0))?;
/// env.reset(Mode::Training)?;
/// assert_eq!(env.step(&[5.0])?.observation, [2.0]);
/// assert!(env.step(&[f32::NAN]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ClipAction<E: Environment> {
    inner: E,
    action_space: E::ActionSpace,
    clipped: E::Action,
}

impl<E> ClipAction<E>
where
    E: Environment,
    E::ActionSpace: FloatBox,
{
    /// Clips the actions of `inner` to its action space.
    pub fn new(inner: E) -> Result<Self, CoreError> {
        let action_space = inner
            .action_space()
            .with_bounds(f64::NEG_INFINITY, f64::INFINITY)?;
        let clipped = inner.action_space().scratch();
        Ok(ClipAction {
            inner,
            action_space,
            clipped,
        })
    }

    inner_accessors!(E);
}

/// The map of [`map_action`]'s that clips: each number as it is (`map_into` clips it to the
/// inner bounds).
fn unchanged(value: f64, _low: f64, _high: f64) -> f64 {
    value
}

impl<E> Environment for ClipAction<E>
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
            &mut self.clipped,
            unchanged,
        )?;
        self.inner.step(&self.clipped)
    }

    fn is_applicable(&self, action: &E::Action) -> bool {
        let mut clipped = self.clipped.clone();
        let inner_space = self.inner.action_space();
        map_action(
            &self.action_space,
            inner_space,
            action,
            &mut clipped,
            unchanged,
        )
        .is_ok()
            && self.inner.is_applicable(&clipped)
    }
}
