//! [`DynamicEnvironment`]: any environment driven through the dynamic [`AnySpace`] /
//! [`AnyElement`] types, so code can run it without knowing its concrete types.

use rl_spaces::{AnyElement, AnySpace, DynamicSpace};

use crate::{CoreError, Environment, Mode, RandomState, StepOutcome};

/// An environment whose observations and actions are [`AnyElement`]s and whose spaces are
/// [`AnySpace`]s, behind a box: what a registry returns and a command line runs.
pub type BoxedEnvironment = Box<
    dyn Environment<
            Observation = AnyElement,
            Action = AnyElement,
            ObservationSpace = AnySpace,
            ActionSpace = AnySpace,
        > + Send,
>;

/// Wraps an environment with typed spaces so that it speaks [`AnyElement`]: observations are
/// converted after each step, actions are converted (and checked) before it.
///
/// The conversions allocate for array elements; use the typed environment on hot paths.
///
/// ```
/// use rl_core::{DynamicEnvironment, Environment, Mode, Simulator};
/// use rl_core::corridor::Corridor;
/// use rl_spaces::AnyElement;
///
/// let mut env = DynamicEnvironment::new(Simulator::new(Corridor::new(4, 0.0)?, 0));
/// assert_eq!(env.reset(Mode::Training)?, AnyElement::Int(0));
/// let actions = env.action_space().to_definition();  // the action space as JSON
/// assert_eq!(actions["type"], "Discrete");
/// let outcome = env.step(&AnyElement::Int(1))?;
/// assert_eq!(outcome.observation, AnyElement::Int(1));
/// assert!(env.step(&AnyElement::Int(7)).is_err());
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct DynamicEnvironment<E> {
    inner: E,
    observation_space: AnySpace,
    action_space: AnySpace,
}

impl<E> DynamicEnvironment<E>
where
    E: Environment,
    E::ObservationSpace: DynamicSpace,
    E::ActionSpace: DynamicSpace,
{
    /// Wraps `inner`.
    pub fn new(inner: E) -> Self {
        let observation_space = inner.observation_space().to_any_space();
        let action_space = inner.action_space().to_any_space();
        DynamicEnvironment {
            inner,
            observation_space,
            action_space,
        }
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

    /// Boxes the environment as a [`BoxedEnvironment`].
    pub fn boxed(self) -> BoxedEnvironment
    where
        E: Send + 'static,
    {
        Box::new(self)
    }
}

impl<E> Environment for DynamicEnvironment<E>
where
    E: Environment,
    E::ObservationSpace: DynamicSpace,
    E::ActionSpace: DynamicSpace,
{
    type Observation = AnyElement;
    type Action = AnyElement;
    type ObservationSpace = AnySpace;
    type ActionSpace = AnySpace;

    fn observation_space(&self) -> &AnySpace {
        &self.observation_space
    }

    fn action_space(&self) -> &AnySpace {
        &self.action_space
    }

    fn reset(&mut self, mode: Mode) -> Result<AnyElement, CoreError> {
        let observation = self.inner.reset(mode)?;
        Ok(self.inner.observation_space().element_to_any(&observation))
    }

    fn step(&mut self, action: &AnyElement) -> Result<StepOutcome<AnyElement>, CoreError> {
        // An action outside the space's bounds reaches the inner environment, which refuses it
        // unless its domain accepts it (`Domain::accepts_action`).
        let typed = self
            .inner
            .action_space()
            .element_from_any_ignoring_bounds(action)
            .filter(|typed| self.inner.accepts_action(typed))
            .ok_or_else(|| CoreError::InvalidAction {
                // Shown as the user wrote it (`[NaN]`), not as its Rust structure.
                action: action.to_string(),
                space: self.action_space.to_string(),
            })?;
        let outcome = self.inner.step(&typed)?;
        let space = self.inner.observation_space();
        Ok(outcome.map_observation(|o| space.element_to_any(&o)))
    }

    fn seed(&mut self, seed: u64) {
        self.inner.seed(seed);
    }

    fn reset_info(&self) -> crate::Info {
        self.inner.reset_info()
    }

    fn mode(&self) -> Mode {
        self.inner.mode()
    }

    fn discount(&self) -> f64 {
        self.inner.discount()
    }

    fn accepts_action(&self, action: &AnyElement) -> bool {
        self.inner
            .action_space()
            .element_from_any_ignoring_bounds(action)
            .is_some_and(|typed| self.inner.accepts_action(&typed))
    }

    fn is_applicable(&self, action: &AnyElement) -> bool {
        self.inner
            .action_space()
            .element_from_any(action)
            .is_ok_and(|a| self.inner.is_applicable(&a))
    }

    fn random_state(&self) -> Result<RandomState, CoreError> {
        self.inner.random_state()
    }

    fn set_random_state(&mut self, state: RandomState) -> Result<(), CoreError> {
        self.inner.set_random_state(state)
    }

    fn close(&mut self) {
        self.inner.close();
    }

    fn constraint_name(&self, index: usize) -> Option<&str> {
        self.inner.constraint_name(index)
    }

    fn state_any(&self) -> Option<&dyn std::any::Any> {
        self.inner.state_any()
    }

    fn domain_any(&self) -> Option<&dyn std::any::Any> {
        self.inner.domain_any()
    }
}
