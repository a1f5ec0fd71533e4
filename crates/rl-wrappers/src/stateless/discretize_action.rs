//! [`DiscretizeAction`]: a continuous Box action space exposed as evenly spaced actions, one
//! `Discrete` index.

use rl_core::{CoreError, Environment, Mode, StepOutcome};
use rl_spaces::{Discrete, Space};

use crate::forward::{
    forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};
use crate::stateless::FloatBox;
use crate::vector::discrete_table;

/// Exposes a continuous float Box action space as `bins` evenly spaced values per entry,
/// combined into one `Discrete(bins^N)` index (Gymnasium's `DiscretizeAction` in its
/// `Discrete` form): value `k` of an entry with bounds `[low, high]` is
/// `low + k × (high − low) / (bins − 1)` (computed in `f64`, rounded to the element type), and
/// index `i` takes value `i mod bins` for the first entry, `(i / bins) mod bins` for the
/// second, and so on. With an odd number of bins the middle value is the centre of the Box.
///
/// This lets agents of finite actions (tabular, tile coding) control continuous-action
/// domains such as MountainCarContinuous and Pendulum; the vector form is
/// [`VectorDiscretizeAction`](crate::vector::VectorDiscretizeAction). At most
/// [`MAX_DISCRETE_ACTIONS`](crate::vector::MAX_DISCRETE_ACTIONS) actions.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// # use rl_core::{Domain, TransitionOutcome, Value};
/// # use rl_core::rand::Rng;
/// # use rl_spaces::ArrayBox;
/// # #[derive(Clone, Debug)]
/// # struct Push { actions: ArrayBox<f32, 1>, observations: ArrayBox<f32, 1> }
/// # impl Domain for Push {
/// #     type State = f32; type Observation = [f32; 1]; type Action = [f32; 1];
/// #     type ObservationSpace = ArrayBox<f32, 1>; type ActionSpace = ArrayBox<f32, 1>;
/// #     fn observation_space(&self) -> &ArrayBox<f32, 1> { &self.observations }
/// #     fn action_space(&self) -> &ArrayBox<f32, 1> { &self.actions }
/// #     fn initial_state<R: Rng + ?Sized>(&self, _: Mode, _: &mut R) -> f32 { 0.0 }
/// #     fn step<R: Rng + ?Sized>(&self, _: &f32, a: &[f32; 1], _: Mode, _: &mut R) -> TransitionOutcome<f32> {
/// #         TransitionOutcome::new(a[0], Value::ZERO, false)
/// #     }
/// #     fn observe(&self, s: &f32) -> [f32; 1] { [*s] }
/// #     fn is_terminal(&self, _: &f32) -> bool { false }
/// # }
/// use rl_wrappers::stateless::DiscretizeAction;
///
/// // `Push` moves to the action's value; its actions lie in [-2, 2].
/// let push = Push { actions: ArrayBox::new([-2.0], [2.0])?, observations: ArrayBox::new([-2.0], [2.0])? };
/// let mut env = DiscretizeAction::new(Simulator::new(push, 0), 5)?;
/// assert_eq!(env.action_space().to_string(), "Discrete(5)");
/// env.reset(Mode::Training)?;
/// assert_eq!(env.step(&3)?.observation, [1.0]); // -2, -1, 0, 1, 2
/// assert!(env.step(&5).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct DiscretizeAction<E: Environment> {
    inner: E,
    space: Discrete,
    table: Vec<E::Action>,
}

impl<E> DiscretizeAction<E>
where
    E: Environment,
    E::ActionSpace: FloatBox,
{
    /// `bins` (at least 2) values per entry of `inner`'s actions. Errors for fewer than 2
    /// bins, an unbounded action space, or too many actions in all.
    pub fn new(inner: E, bins: u32) -> Result<Self, CoreError> {
        let table = discrete_table(inner.action_space(), bins)?;
        let space = Discrete::new(table.len() as u64)?;
        Ok(DiscretizeAction {
            inner,
            space,
            table,
        })
    }

    /// The continuous action of each index.
    pub fn table(&self) -> &[E::Action] {
        &self.table
    }

    inner_accessors!(E);

    fn continuous(&self, action: &i64) -> Result<&E::Action, CoreError> {
        usize::try_from(*action)
            .ok()
            .and_then(|index| self.table.get(index))
            .ok_or_else(|| CoreError::invalid_action(action, &self.space))
    }
}

impl<E> Environment for DiscretizeAction<E>
where
    E: Environment,
    E::ActionSpace: FloatBox,
{
    type Action = i64;
    type ActionSpace = Discrete;

    forward_observations!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn action_space(&self) -> &Discrete {
        &self.space
    }

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &i64) -> Result<StepOutcome<E::Observation>, CoreError> {
        let continuous = usize::try_from(*action)
            .ok()
            .and_then(|index| self.table.get(index))
            .ok_or_else(|| CoreError::invalid_action(action, &self.space))?;
        self.inner.step(continuous)
    }

    fn is_applicable(&self, action: &i64) -> bool {
        self.space.contains(action)
            && self
                .continuous(action)
                .is_ok_and(|continuous| self.inner.is_applicable(continuous))
    }
}
