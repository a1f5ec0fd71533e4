//! Continuous actions for agents of finite actions: a [`BoxedEnvironment`] whose actions are a
//! float Box, exposed through [`DiscretizeAction`] as `Discrete(bins^N)` evenly spaced actions.

use rl_core::{
    BoxedEnvironment, BoxedFrameEnvironment, CoreError, DynamicEnvironment, Environment, Frame,
    FrameEnvironment, Mode, StepOutcome,
};
use rl_spaces::{AnyBox, AnyElement, AnySpace, BoxScalar, BoxSpace, DynamicSpace, Space};
use rl_wrappers::stateless::{DiscretizeAction, FloatBox};

use crate::ExperimentError;

/// Whether `space` is a Box of `f32` or `f64` with finite bounds: the action spaces that
/// [`discretize`] accepts.
pub(crate) fn is_bounded_float_box(space: &AnySpace) -> bool {
    match space {
        AnySpace::Box(AnyBox::F32(space)) => space.is_bounded(),
        AnySpace::Box(AnyBox::F64(space)) => space.is_bounded(),
        _ => false,
    }
}

/// `env` with its float Box actions replaced by `bins` evenly spaced values per dimension
/// (see [`DiscretizeAction`]: index `i` takes value `i mod bins` of the first dimension,
/// `(i / bins) mod bins` of the second, and so on). Fails for any other action space, an
/// unbounded Box, fewer than 2 bins, or too many actions in all.
pub(crate) fn discretize(
    env: BoxedEnvironment,
    bins: u32,
) -> Result<BoxedEnvironment, ExperimentError> {
    match env.action_space().clone() {
        AnySpace::Box(AnyBox::F32(space)) => {
            let typed = DiscretizeAction::new(BoxActions { inner: env, space }, bins)?;
            Ok(DynamicEnvironment::new(typed).boxed())
        }
        AnySpace::Box(AnyBox::F64(space)) => {
            let typed = DiscretizeAction::new(BoxActions { inner: env, space }, bins)?;
            Ok(DynamicEnvironment::new(typed).boxed())
        }
        other => Err(not_a_float_box(&other)),
    }
}

/// [`discretize`] for an environment with frames, keeping its frames (the state drawn is the
/// inner environment's): what `rl render --episode --run` records a discretised run with.
pub(crate) fn discretize_frames(
    env: BoxedFrameEnvironment,
    bins: u32,
) -> Result<BoxedFrameEnvironment, ExperimentError> {
    match env.action_space().clone() {
        AnySpace::Box(AnyBox::F32(space)) => {
            let typed = DiscretizeAction::new(BoxActions { inner: env, space }, bins)?;
            Ok(Box::new(DynamicEnvironment::new(typed)))
        }
        AnySpace::Box(AnyBox::F64(space)) => {
            let typed = DiscretizeAction::new(BoxActions { inner: env, space }, bins)?;
            Ok(Box::new(DynamicEnvironment::new(typed)))
        }
        other => Err(not_a_float_box(&other)),
    }
}

/// The error of an action space that cannot be discretised.
fn not_a_float_box(space: &AnySpace) -> ExperimentError {
    ExperimentError::invalid(
        "action_bins",
        format!("only a float Box action space can be discretised, not {space}"),
    )
}

/// A dynamic environment (boxed, with or without frames) whose actions are a float Box, seen
/// with that Box's typed elements so that [`DiscretizeAction`] can wrap it.
struct BoxActions<E, T: BoxScalar> {
    inner: E,
    space: BoxSpace<T>,
}

impl<E, T: BoxScalar> Environment for BoxActions<E, T>
where
    E: Environment<
            Observation = AnyElement,
            Action = AnyElement,
            ObservationSpace = AnySpace,
            ActionSpace = AnySpace,
        >,
    BoxSpace<T>: FloatBox + DynamicSpace,
    <BoxSpace<T> as Space>::Element: Clone + std::fmt::Debug + PartialEq,
{
    type Observation = AnyElement;
    type Action = <BoxSpace<T> as Space>::Element;
    type ObservationSpace = AnySpace;
    type ActionSpace = BoxSpace<T>;

    fn observation_space(&self) -> &AnySpace {
        self.inner.observation_space()
    }

    fn action_space(&self) -> &BoxSpace<T> {
        &self.space
    }

    fn reset(&mut self, mode: Mode) -> Result<AnyElement, CoreError> {
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &Self::Action) -> Result<StepOutcome<AnyElement>, CoreError> {
        self.inner.step(&self.space.element_to_any(action))
    }

    fn seed(&mut self, seed: u64) {
        self.inner.seed(seed);
    }

    fn mode(&self) -> Mode {
        self.inner.mode()
    }

    fn reset_info(&self) -> rl_core::Info {
        self.inner.reset_info()
    }

    fn discount(&self) -> f64 {
        self.inner.discount()
    }

    fn constraint_name(&self, index: usize) -> Option<&str> {
        self.inner.constraint_name(index)
    }

    fn is_applicable(&self, action: &Self::Action) -> bool {
        self.inner.is_applicable(&self.space.element_to_any(action))
    }

    fn random_state(&self) -> Result<rl_core::RandomState, CoreError> {
        self.inner.random_state()
    }

    fn set_random_state(&mut self, state: rl_core::RandomState) -> Result<(), CoreError> {
        self.inner.set_random_state(state)
    }

    fn close(&mut self) {
        self.inner.close();
    }
}

impl<E, T: BoxScalar> FrameEnvironment for BoxActions<E, T>
where
    E: FrameEnvironment<
            Observation = AnyElement,
            Action = AnyElement,
            ObservationSpace = AnySpace,
            ActionSpace = AnySpace,
        >,
    BoxSpace<T>: FloatBox + DynamicSpace,
    <BoxSpace<T> as Space>::Element: Clone + std::fmt::Debug + PartialEq,
{
    fn frame_size(&self) -> (u32, u32) {
        self.inner.frame_size()
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        self.inner.render_frame(frame)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pendulum_torques_become_five_evenly_spaced_actions() {
        let env = crate::catalog::make("Pendulum-v1", None).unwrap();
        assert!(is_bounded_float_box(env.action_space()));
        let mut env = discretize(env, 5).unwrap();
        assert_eq!(env.action_space().to_string(), "Discrete(5)");
        env.seed(3);
        env.reset(Mode::Training).unwrap();
        assert!(env.step(&AnyElement::Int(4)).is_ok());
        assert!(env.step(&AnyElement::Int(5)).is_err());
    }

    #[test]
    fn finite_actions_are_not_discretised() {
        let env = crate::catalog::make("CartPole-v1", None).unwrap();
        assert!(!is_bounded_float_box(env.action_space()));
        let error = discretize(env, 5).err().map(|e| e.to_string());
        assert!(
            error
                .as_deref()
                .is_some_and(|e| e.contains("only a float Box")),
            "{error:?}"
        );
    }
}
