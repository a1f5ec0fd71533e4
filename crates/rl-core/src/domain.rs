//! [`Domain`]: the pure model of a task (spaces, initial states, transitions, observations).

use std::fmt;

use rand::Rng;
use rl_spaces::{FlatScalar, FlattenSpace, RowLayout, Space, SpaceError};

use crate::{Mode, TransitionOutcome};

/// The pure model of a task: its spaces, how episodes start, how states change, what the agent
/// observes (scikit-decide's domain, Gymnasium's functional environment, RLPy's `Domain`).
///
/// A domain is an immutable description: every method takes `&self` and randomness is passed
/// in, so a domain is trivially testable, clonable, shareable between threads and usable by
/// planners that explore many states. To run episodes, wrap it in a
/// [`Simulator`](crate::Simulator), which owns the state, the random generator, the step count
/// and the episode cap, and validates every action.
///
/// A domain may change its dynamics or rewards by [`Mode`] (say, no noise when evaluating);
/// most ignore it.
///
/// See the guide [Writing your own domain](https://github.com/rl-rs/rl/blob/main/docs/custom-domain.md)
/// for a domain written from scratch.
pub trait Domain {
    /// The full state of the task.
    type State: Clone + fmt::Debug;
    /// What the agent observes of a state.
    type Observation: Clone + fmt::Debug + PartialEq;
    /// What the agent does.
    type Action: Clone + fmt::Debug + PartialEq;
    /// The space every observation belongs to.
    type ObservationSpace: Space<Element = Self::Observation>;
    /// The space of valid actions. The simulator rejects actions outside it.
    type ActionSpace: Space<Element = Self::Action>;

    /// The observation space.
    fn observation_space(&self) -> &Self::ObservationSpace;

    /// The action space.
    fn action_space(&self) -> &Self::ActionSpace;

    /// Draws the first state of an episode.
    fn initial_state<R: Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> Self::State;

    /// The transition from `state` under `action`, which the caller guarantees is an element of
    /// the action space. Must not panic for any such action.
    fn step<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        action: &Self::Action,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<Self::State>;

    /// What the agent observes in `state`.
    fn observe(&self, state: &Self::State) -> Self::Observation;

    /// Replaces `state` by the first state of an episode drawn from `rng`, reusing what
    /// `state` owns (a grid's cells) where the domain can: the same state, and the same draws,
    /// as [`initial_state`](Self::initial_state).
    ///
    /// The default assigns `initial_state(mode, rng)`. A domain whose state owns heap memory
    /// overrides it so that a vector restarting an episode allocates nothing; the conformance
    /// checker ([`check_domain`](crate::check_domain)) compares the two. Vectors
    /// ([`SteppedStates`](crate::SteppedStates), [`DomainStates`](crate::DomainStates)) call
    /// it on every reset.
    fn initial_state_into<R: Rng + ?Sized>(
        &self,
        state: &mut Self::State,
        mode: Mode,
        rng: &mut R,
    ) {
        *state = self.initial_state(mode, rng);
    }

    /// Steps `state` in place under `action` (an action the domain
    /// [accepts](Self::accepts_action)): the transition of [`step`](Self::step), with the
    /// state reached written over `state` and the outcome's `next_state` left empty (`()`).
    /// The same state, reward, flags, info and draws as `step`.
    ///
    /// The default calls `step` and moves the state reached into `state`. A domain whose
    /// state owns heap memory (a grid) overrides it to change the state where it lies, so that
    /// stepping allocates nothing; the conformance checker
    /// ([`check_domain`](crate::check_domain)) compares the two. The
    /// [`Simulator`](crate::Simulator) and the vectors of states
    /// ([`SteppedStates`](crate::SteppedStates)) step through it.
    #[inline]
    fn step_in_place<R: Rng + ?Sized>(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<()> {
        let TransitionOutcome {
            next_state,
            value,
            terminated,
            info,
        } = self.step(state, action, mode, rng);
        *state = next_state;
        TransitionOutcome {
            next_state: (),
            value,
            terminated,
            info,
        }
    }

    /// Writes the observation of `state`, flattened as its space flattens it
    /// ([`FlattenSpace::flatten_into`]), into `out` (the space's
    /// [`flat_dim`](FlattenSpace::flat_dim) entries): a vector's row.
    ///
    /// The default observes `state` ([`observe`](Self::observe)) and flattens the
    /// observation. A domain whose observation owns heap memory (an image) overrides it to
    /// write the row straight from the state, so that a vector's step allocates nothing; it
    /// must write exactly what the default writes.
    fn observe_flat_into<F: FlatScalar>(
        &self,
        state: &Self::State,
        out: &mut [F],
    ) -> Result<(), SpaceError>
    where
        Self::ObservationSpace: FlattenSpace,
    {
        self.observation_space()
            .flatten_into(&self.observe(state), out)
    }

    /// Writes the observation of `state` into `out` in `layout` (the space's
    /// [`row_dim`](FlattenSpace::row_dim) entries): [`observe_flat_into`](Self::observe_flat_into)
    /// for [`RowLayout::Flat`]; for [`RowLayout::Batched`] (one entry per `Discrete`, what
    /// vectors hand to the Python package), by default the observation written by
    /// [`FlattenSpace::batched_into`]. A domain that overrides `observe_flat_into` overrides
    /// this too, so that a batched row allocates nothing either; it must write exactly what the
    /// default writes.
    fn observe_row_into<F: FlatScalar>(
        &self,
        state: &Self::State,
        layout: RowLayout,
        out: &mut [F],
    ) -> Result<(), SpaceError>
    where
        Self::ObservationSpace: FlattenSpace,
    {
        match layout {
            RowLayout::Flat => self.observe_flat_into(state, out),
            RowLayout::Batched => self
                .observation_space()
                .batched_into(&self.observe(state), out),
        }
    }

    /// The info a reset that starts an episode in `state` reports (Gymnasium's MuJoCo
    /// environments' `_get_reset_info`: the x position, ...). Empty by default; read by
    /// [`Environment::reset_info`](crate::Environment::reset_info) of a
    /// [`Simulator`](crate::Simulator) (the Python package's `reset`, vectors of copies) and by
    /// vectors by id.
    fn reset_info(&self, state: &Self::State) -> crate::Info {
        let _ = state;
        crate::Info::new()
    }

    /// Whether `state` is terminal. `step` reports `terminated` exactly when the state it
    /// reaches is terminal (the conformance checker verifies this).
    fn is_terminal(&self, state: &Self::State) -> bool;

    /// The discount factor for returns, in `[0, 1]` (default 1).
    fn discount(&self) -> f64 {
        1.0
    }

    /// The number of steps after which an episode is truncated, if the domain has one (RLPy's
    /// `episodeCap`, Gymnasium's `max_episode_steps`). The simulator uses it unless told
    /// otherwise.
    fn episode_cap(&self) -> Option<u64> {
        None
    }

    /// Whether a step takes long and its time varies from step to step: a physics engine's
    /// (MuJoCo's, tens of microseconds to milliseconds, with contacts and early ends). A vector
    /// on several threads then hands its threads one environment at a time, so that a thread
    /// done early takes a single environment from the other's share rather than a chunk of them
    /// while the other waits. False by default: for a step of a few nanoseconds each chunk's
    /// bookkeeping counts, and a few chunks per thread are faster. Results are the same either
    /// way (each environment steps alone).
    fn costly_steps(&self) -> bool {
        false
    }

    /// Whether the domain's episodes have time limits of their own, drawn with each episode
    /// (BabyAI's `max_steps` follows the episode's instruction), which
    /// [`time_limit_reached`](Self::time_limit_reached) tells and
    /// [`episode_cap`](Self::episode_cap), one number for every episode, cannot. By default
    /// none, so that vectors skip asking.
    fn has_episode_time_limits(&self) -> bool {
        false
    }

    /// Whether `state` has reached its episode's own time limit (see
    /// [`has_episode_time_limits`](Self::has_episode_time_limits)): the simulator and vectors
    /// truncate the episode there, as at the episode cap. By default never.
    fn time_limit_reached(&self, state: &Self::State) -> bool {
        let _ = state;
        false
    }

    /// Whether the simulator and vectors pass `action` to [`step`](Self::step): by default
    /// exactly the actions of the action space, and anything else is
    /// [`CoreError::InvalidAction`](crate::CoreError::InvalidAction). A domain whose reference
    /// accepts more widens it: Gymnasium's Pendulum and MountainCarContinuous clip any torque or
    /// force into their bounds, so a policy's unclipped output steps them as in Gymnasium. It
    /// only ever widens the action space (every action of the space stays accepted); the space
    /// stays what agents sample from and what the action mask enumerates.
    fn accepts_action(&self, action: &Self::Action) -> bool {
        self.action_space().contains(action)
    }

    /// Whether `state`, given from outside (an episode started in a state read from JSON,
    /// [`RegisteredEnvironment::reset_to_state`](crate::registry::RegisteredEnvironment::reset_to_state)),
    /// is one of the domain's states, or what is wrong with it. By default every value of the
    /// state type is; callers also refuse a state whose observation lies outside the
    /// observation space. A domain whose states have more structure says so here (a
    /// GridWorld cell in a wall).
    fn check_state(&self, state: &Self::State) -> Result<(), String> {
        let _ = state;
        Ok(())
    }

    /// The steps of its episode that `state` records as already taken (minigrid's
    /// `step_count`, which its reward reads): an episode started from the state
    /// ([`Simulator::reset_to`](crate::Simulator::reset_to)) counts its episode cap from there,
    /// so that it truncates where the reference's would. By default 0: states that do not
    /// record their step count start a fresh count.
    fn steps_taken(&self, state: &Self::State) -> u64 {
        let _ = state;
        0
    }

    /// Whether `action` is applicable in `state` (RLPy's `possibleActions`). By default every
    /// action of the action space is. Applicability is advice for agents (an action mask); the
    /// simulator only rejects actions outside the action space.
    fn is_applicable(&self, state: &Self::State, action: &Self::Action) -> bool {
        let _ = (state, action);
        true
    }

    /// Writes the action mask of `state` into `mask` in one pass, entry `j` whether the action
    /// of index `j` of a finite, `Discrete` action space is applicable
    /// ([`is_applicable`](Self::is_applicable)), and returns true; or returns false, writing
    /// nothing, when the domain does not (the default), so that callers ask `is_applicable`
    /// action by action. A domain whose mask is cheaper whole than action by action (Taxi's)
    /// overrides it; it must agree with `is_applicable`, and a `mask` of another length than
    /// the number of actions is left alone (false).
    fn action_mask_into(&self, state: &Self::State, mask: &mut [bool]) -> bool {
        let _ = (state, mask);
        false
    }

    /// The lower and upper limit of each state variable, for domains whose state is a vector
    /// (RLPy's `statespace_limits`).
    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        None
    }

    /// The indices of the continuous state variables (RLPy's `continuous_dims`).
    fn continuous_dimensions(&self) -> Vec<usize> {
        Vec::new()
    }

    /// The heap bytes one state owns (a grid's cells, a list of objects), beyond
    /// `size_of::<State>()`: what a vector of many states checks it can allocate before it
    /// allocates anything, so that a size the memory cannot hold is an error, not an abort
    /// (by default 0: a state of plain values). An estimate from above is right; it need not
    /// be exact.
    fn state_heap_bytes(&self) -> usize {
        0
    }

    /// The number of states of a finite domain (RLPy's `states_num`).
    fn state_count(&self) -> Option<usize> {
        None
    }

    /// Draws `count` independent transitions from `state` (RLPy's `sampleStep`).
    fn sample_steps<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        action: &Self::Action,
        count: usize,
        mode: Mode,
        rng: &mut R,
    ) -> Vec<TransitionOutcome<Self::State>> {
        (0..count)
            .map(|_| self.step(state, action, mode, rng))
            .collect()
    }
}
