//! [`Environment`]: the stateful episode interface (reset, step, seed), and [`RandomState`].

use std::any::Any;
use std::fmt;

use crate::NumpyGenerator;
use rl_spaces::{FiniteSpace, FlattenSpace, Space};
use serde::{Deserialize, Serialize};

use crate::{CoreError, Mode, StepOutcome};

/// A saved state of an environment's random generator (RLPy's `saveRandomState` /
/// `loadRandomState`). It serializes with serde, so it can be written to disk with a
/// checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RandomState {
    generator: NumpyGenerator,
}

impl RandomState {
    /// Wraps a generator's state.
    pub fn new(generator: NumpyGenerator) -> Self {
        RandomState { generator }
    }

    /// The generator, in the state it was saved in.
    pub fn generator(&self) -> &NumpyGenerator {
        &self.generator
    }

    /// Unwraps the generator.
    pub fn into_generator(self) -> NumpyGenerator {
        self.generator
    }
}

/// A stateful episode: reset it, step it with actions, read observations and rewards
/// (Gymnasium's `Env`, deer's `Environment`, RLPy's episode loop).
///
/// # Contract
///
/// - [`reset`](Self::reset) starts an episode in a [`Mode`] and returns the first
///   observation. It never reseeds: only [`seed`](Self::seed) does.
/// - [`step`](Self::step) returns an error for an action outside the action space
///   ([`CoreError::InvalidAction`]) and for a step before the first reset or after the episode
///   ended ([`CoreError::NeedsReset`]); it never resets silently.
/// - The same seed and the same actions give the same observations, rewards and flags, bit for
///   bit.
///
/// The usual implementation is [`Simulator`](crate::Simulator), the adapter from a
/// [`Domain`](crate::Domain). A black-box simulator may implement this trait directly.
///
/// The provided methods `action_count`, `has_continuous_actions` and `observation_dimension`
/// are AiDotNet's conveniences.
pub trait Environment {
    /// What the agent observes.
    type Observation: Clone + fmt::Debug + PartialEq;
    /// What the agent does.
    type Action: Clone + fmt::Debug + PartialEq;
    /// The space of observations.
    type ObservationSpace: Space<Element = Self::Observation>;
    /// The space of valid actions.
    type ActionSpace: Space<Element = Self::Action>;

    /// The observation space.
    fn observation_space(&self) -> &Self::ObservationSpace;

    /// The action space.
    fn action_space(&self) -> &Self::ActionSpace;

    /// Starts an episode in `mode` and returns its first observation.
    fn reset(&mut self, mode: Mode) -> Result<Self::Observation, CoreError>;

    /// Takes one step of the running episode.
    fn step(&mut self, action: &Self::Action) -> Result<StepOutcome<Self::Observation>, CoreError>;

    /// Reseeds the random generator: the next episodes depend only on `seed` and the actions.
    fn seed(&mut self, seed: u64);

    /// The info of the reset that started the current episode, what Gymnasium's `reset`
    /// returns beside the observation ([`Domain::reset_info`](crate::Domain::reset_info) of a
    /// [`Simulator`](crate::Simulator)'s first state: Gymnasium's MuJoCo environments'
    /// positions); empty by default and before the first reset. Read right after a reset,
    /// before the first step. Wrappers pass their inner environment's on; vectors of copies
    /// (rl-wrappers' `EnvironmentVector`) report it as `SyncVectorEnv` reports reset infos.
    fn reset_info(&self) -> crate::Info {
        crate::Info::new()
    }

    /// The mode of the current (or last) episode.
    fn mode(&self) -> Mode;

    /// The discount factor of returns (default 1).
    fn discount(&self) -> f64 {
        1.0
    }

    /// Whether [`step`](Self::step) takes `action` rather than refusing it with
    /// [`CoreError::InvalidAction`]: by default the actions of the action space;
    /// [`Simulator`](crate::Simulator) asks its domain
    /// ([`Domain::accepts_action`](crate::Domain::accepts_action)), which may accept more.
    fn accepts_action(&self, action: &Self::Action) -> bool {
        self.action_space().contains(action)
    }

    /// Whether `action` is applicable in the current state (an action mask for agents; by
    /// default every action is). Stepping with an inapplicable action of the action space is
    /// allowed; its effect is the domain's business.
    fn is_applicable(&self, action: &Self::Action) -> bool {
        let _ = action;
        true
    }

    /// Writes the applicability of every action of a finite action space into `mask`, in the
    /// space's index order. Errors if `mask` does not have one entry per action.
    fn action_mask(&self, mask: &mut [bool]) -> Result<(), CoreError>
    where
        Self::ActionSpace: FiniteSpace,
    {
        let count = self.action_space().cardinality();
        if count != Some(mask.len()) {
            return Err(CoreError::invalid_parameter(
                "mask",
                format!(
                    "has {} entries; the action space has {count:?} actions",
                    mask.len()
                ),
            ));
        }
        for (i, m) in mask.iter_mut().enumerate() {
            *m = self
                .action_space()
                .element_at(i)
                .is_some_and(|a| self.is_applicable(&a));
        }
        Ok(())
    }

    /// A copy of the random generator's state, to restore later.
    fn random_state(&self) -> Result<RandomState, CoreError> {
        Err(CoreError::Unsupported {
            operation: "random_state",
        })
    }

    /// Restores a random generator's state saved by [`random_state`](Self::random_state).
    fn set_random_state(&mut self, state: RandomState) -> Result<(), CoreError> {
        let _ = state;
        Err(CoreError::Unsupported {
            operation: "set_random_state",
        })
    }

    /// Releases resources (default: nothing to release).
    fn close(&mut self) {}

    /// The name of declared constraint `index`, the index [`StepOutcome::violations`] reports
    /// (default `None`: an environment that evaluates no constraints). A
    /// [`Simulator`](crate::Simulator) built with constraints, and what is built by id from a
    /// registration that declared them, name theirs; wrappers pass the question on.
    fn constraint_name(&self, index: usize) -> Option<&str> {
        let _ = index;
        None
    }

    /// The current state, to downcast to the domain's state type: what code that knows the
    /// domain reads beyond the observations (an expert agent that plans from the state, such
    /// as `rl-experiment`'s BabyAI bot; the Python package's MiniGrid attributes). `None` by
    /// default, before the first reset, and where the environment does not give its state;
    /// what is built by id gives it ([`DynamicEnvironment`](crate::DynamicEnvironment) and
    /// boxes pass the question on, other wrappers answer `None`).
    fn state_any(&self) -> Option<&dyn Any> {
        None
    }

    /// The typed domain, to downcast, where the environment gives it (as
    /// [`state_any`](Self::state_any)); `None` by default.
    fn domain_any(&self) -> Option<&dyn Any> {
        None
    }

    /// The number of actions of a finite action space (`None` if it is too large to count).
    fn action_count(&self) -> Option<usize>
    where
        Self::ActionSpace: FiniteSpace,
    {
        self.action_space().cardinality()
    }

    /// Whether the action space is continuous, meaning it has no finite count of actions.
    fn has_continuous_actions(&self) -> bool
    where
        Self::ActionSpace: FiniteSpace,
    {
        self.action_space().cardinality().is_none()
    }

    /// The length of an observation's flat vector.
    fn observation_dimension(&self) -> usize
    where
        Self::ObservationSpace: FlattenSpace,
    {
        self.observation_space().flat_dim()
    }
}

impl<E: Environment + ?Sized> Environment for Box<E> {
    type Observation = E::Observation;
    type Action = E::Action;
    type ObservationSpace = E::ObservationSpace;
    type ActionSpace = E::ActionSpace;

    fn observation_space(&self) -> &Self::ObservationSpace {
        (**self).observation_space()
    }
    fn action_space(&self) -> &Self::ActionSpace {
        (**self).action_space()
    }
    fn reset(&mut self, mode: Mode) -> Result<Self::Observation, CoreError> {
        (**self).reset(mode)
    }
    fn step(&mut self, action: &Self::Action) -> Result<StepOutcome<Self::Observation>, CoreError> {
        (**self).step(action)
    }
    fn seed(&mut self, seed: u64) {
        (**self).seed(seed);
    }
    fn reset_info(&self) -> crate::Info {
        (**self).reset_info()
    }
    fn mode(&self) -> Mode {
        (**self).mode()
    }
    fn discount(&self) -> f64 {
        (**self).discount()
    }
    fn accepts_action(&self, action: &Self::Action) -> bool {
        (**self).accepts_action(action)
    }

    fn is_applicable(&self, action: &Self::Action) -> bool {
        (**self).is_applicable(action)
    }
    fn random_state(&self) -> Result<RandomState, CoreError> {
        (**self).random_state()
    }
    fn set_random_state(&mut self, state: RandomState) -> Result<(), CoreError> {
        (**self).set_random_state(state)
    }
    fn close(&mut self) {
        (**self).close();
    }
    fn constraint_name(&self, index: usize) -> Option<&str> {
        (**self).constraint_name(index)
    }
    fn state_any(&self) -> Option<&dyn Any> {
        (**self).state_any()
    }
    fn domain_any(&self) -> Option<&dyn Any> {
        (**self).domain_any()
    }
}
