//! [`OuterEnvironment`]: an environment whose typed observations (and, optionally, states)
//! are turned into numeric data by representations (gym-gridverse's `OuterEnv`).

use std::fmt;
use std::sync::Arc;

use rl_core::{CoreError, Domain, Environment, Mode, Simulator, StepOutcome};
use rl_spaces::FlatScalar;

use crate::forward::{forward_actions, forward_lifecycle, forward_randomness};
use crate::numeric::{
    BufferPool, NumericForm, NumericLayout, NumericObservation, NumericSpace, NumericView,
};
use crate::representation::{Flatten, Identity, Representation};

/// An environment that lets others see its current state, for a state representation.
///
/// [`Simulator`] implements it; wrappers do not forward it, so put an
/// [`OuterEnvironment`] with a state representation directly over the simulator.
pub trait ExposeState {
    /// The state.
    type State;

    /// The current state (`None` before the first reset).
    fn current_state(&self) -> Option<&Self::State>;
}

impl<D: Domain> ExposeState for Simulator<D> {
    type State = D::State;

    fn current_state(&self) -> Option<&D::State> {
        self.state()
    }
}

/// Writes the representation of an environment's state; returns whether there was a state.
type StateWriter<E, T> = Box<dyn Fn(&E, &mut [T]) -> Result<bool, CoreError> + Send + Sync>;

/// A state representation with its buffer.
struct StateSlot<E, T> {
    layout: NumericLayout,
    write: StateWriter<E, T>,
    buffer: Vec<T>,
    present: bool,
}

/// An environment whose observations are numeric data: the observations of `inner`, turned
/// into named arrays and a flat vector of `T` (`f32` or `f64`) by a [`Representation`]
/// (gym-gridverse's `OuterEnv`).
///
/// - **Observations** are [`NumericObservation`]s in a [`NumericSpace`]: a dict of arrays by
///   name with the Box space of each, and [`as_slice`](NumericObservation::as_slice), the flat
///   vector for a neural network.
/// - **State.** With [`with_state_representation`](Self::with_state_representation), the
///   inner environment's state (see [`ExposeState`]) is represented too, after every reset
///   and step, and read with [`state`](Self::state) (for a critic that sees the full state).
/// - **No allocation per step.** Observations are written into one of a few shared buffers
///   that no caller still holds. A loop that keeps at most three observations alive across a
///   step never allocates; keeping more only costs an allocation for each.
/// - The action, rewards, flags and info are the inner environment's, unchanged.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_spaces::Discrete;
/// use rl_wrappers::{OneHot, OuterEnvironment};
///
/// let simulator = Simulator::new(Corridor::new(4, 0.0)?, 7);
/// let mut env = OuterEnvironment::<_, _, f32>::new(simulator, OneHot::new(Discrete::new(4)?)?)
///     // The state of a corridor is its cell: show it to a critic as a one-hot vector too.
///     .with_state_representation(OneHot::new(Discrete::new(4)?)?.with_name("cell")?);
/// env.reset(Mode::Training)?;
/// let outcome = env.step(&RIGHT)?;
/// assert_eq!(outcome.observation.as_slice(), &[0.0, 1.0, 0.0, 0.0]);
/// let state = env.state().expect("a state representation after a step");
/// assert_eq!(state.get("cell").map(|a| a.iter().copied().collect()), Some(vec![0.0, 1.0, 0.0, 0.0]));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub struct OuterEnvironment<E, R, T> {
    inner: E,
    representation: R,
    observation_space: NumericSpace<T>,
    pool: BufferPool<T>,
    state: Option<StateSlot<E, T>>,
}

impl<E, R, T> OuterEnvironment<E, R, T>
where
    E: Environment,
    R: Representation<E::Observation>,
    T: FlatScalar,
{
    /// Represents the observations of `inner` with `representation`.
    pub fn new(inner: E, representation: R) -> Self {
        let layout = Arc::new(representation.layout().clone());
        OuterEnvironment {
            inner,
            representation,
            observation_space: NumericSpace::from_shared(Arc::clone(&layout)),
            pool: BufferPool::new(layout),
            state: None,
        }
    }

    /// The same environment that also represents the inner environment's state with
    /// `representation` after every reset and step (see [`state`](Self::state)).
    pub fn with_state_representation<S>(mut self, representation: S) -> Self
    where
        E: ExposeState,
        S: Representation<<E as ExposeState>::State> + Send + Sync + 'static,
    {
        let layout = representation.layout().clone();
        let buffer = vec![T::ZERO; layout.flat_dim()];
        let write: StateWriter<E, T> =
            Box::new(move |env: &E, out: &mut [T]| match env.current_state() {
                Some(state) => representation.write(state, out).map(|()| true),
                None => Ok(false),
            });
        self.state = Some(StateSlot {
            layout,
            write,
            buffer,
            present: false,
        });
        self
    }

    /// The observation representation.
    pub fn representation(&self) -> &R {
        &self.representation
    }

    /// The layout of the state representation, if there is one.
    pub fn state_layout(&self) -> Option<&NumericLayout> {
        self.state.as_ref().map(|slot| &slot.layout)
    }

    /// The numeric data of the current state, if there is a state representation and an
    /// episode has started.
    pub fn state(&self) -> Option<NumericView<'_, T>> {
        let slot = self.state.as_ref().filter(|slot| slot.present)?;
        NumericView::new(&slot.layout, &slot.buffer).ok()
    }

    /// The wrapped environment.
    pub fn inner(&self) -> &E {
        &self.inner
    }

    /// The wrapped environment, mutably.
    pub fn inner_mut(&mut self) -> &mut E {
        &mut self.inner
    }

    /// Unwraps the environment.
    pub fn into_inner(self) -> E {
        self.inner
    }

    fn represent(
        &mut self,
        observation: &E::Observation,
    ) -> Result<NumericObservation<T>, CoreError> {
        let representation = &self.representation;
        self.pool.fill(|out| representation.write(observation, out))
    }

    fn represent_state(&mut self) -> Result<(), CoreError> {
        if let Some(slot) = self.state.as_mut() {
            slot.present = (slot.write)(&self.inner, &mut slot.buffer)?;
        }
        Ok(())
    }
}

impl<E, T> OuterEnvironment<E, Identity<E::ObservationSpace>, T>
where
    E: Environment,
    E::ObservationSpace: NumericForm + Clone,
    T: FlatScalar,
{
    /// Represents `inner`'s observations as they are ([`Identity`]): a Box keeps its shape, a
    /// Dict gives one array per key. Over numeric observations this casts them to `T`.
    pub fn identity(inner: E) -> Result<Self, CoreError> {
        let representation = Identity::new(inner.observation_space().clone())?;
        Ok(OuterEnvironment::new(inner, representation))
    }
}

impl<E, T> OuterEnvironment<E, Flatten<E::ObservationSpace>, T>
where
    E: Environment,
    E::ObservationSpace: NumericForm + Clone,
    T: FlatScalar,
{
    /// Represents `inner`'s observations as one flat vector ([`Flatten`], Gymnasium's
    /// `FlattenObservation`).
    pub fn flatten(inner: E) -> Result<Self, CoreError> {
        let representation = Flatten::new(inner.observation_space().clone())?;
        Ok(OuterEnvironment::new(inner, representation))
    }
}

impl<E, R, T> fmt::Debug for OuterEnvironment<E, R, T>
where
    E: fmt::Debug,
    R: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OuterEnvironment")
            .field("inner", &self.inner)
            .field("representation", &self.representation)
            .field(
                "state_layout",
                &self.state.as_ref().map(|slot| &slot.layout),
            )
            .finish_non_exhaustive()
    }
}

impl<E, R, T> Environment for OuterEnvironment<E, R, T>
where
    E: Environment,
    R: Representation<E::Observation>,
    T: FlatScalar,
{
    type Observation = NumericObservation<T>;
    type ObservationSpace = NumericSpace<T>;

    fn observation_space(&self) -> &NumericSpace<T> {
        &self.observation_space
    }

    forward_actions!(E);

    fn reset(&mut self, mode: Mode) -> Result<NumericObservation<T>, CoreError> {
        let observation = self.inner.reset(mode)?;
        self.represent_state()?;
        self.represent(&observation)
    }

    fn step(
        &mut self,
        action: &E::Action,
    ) -> Result<StepOutcome<NumericObservation<T>>, CoreError> {
        let outcome = self.inner.step(action)?;
        self.represent_state()?;
        let observation = self.represent(&outcome.observation)?;
        Ok(outcome.map_observation(|_| observation))
    }

    forward_lifecycle!();
    forward_randomness!();
}
