//! [`BatchStep`]: the capability through which a domain steps a whole batch of states at once,
//! on plain slices of states, actions, generators and results, and [`BatchStates`]: a batch of
//! states with the domain that steps them, typed ([`DomainStates`](crate::DomainStates)) or
//! built by id ([`BoxedBatchStates`]).

use std::any::Any;
use std::fmt;
use std::ops::Range;

use smallvec::SmallVec;

use crate::NumpyGenerator;
use rl_spaces::{
    AnyElement, AnySpace, Discrete, DynamicSpace, FlatScalar, RowLayout, Space, SpaceError,
};

use crate::registry::{RegisteredDomain, RowScalar};

use crate::{CoreError, Domain, Info, Mode};

/// Checks the lengths of a [`BatchStep::step_batch`] call: `states`, `actions`, `rewards` and
/// `terminated` of one length `n`, generators (`generators`, if the kernel takes them) too, and
/// `observations` of `n * observation_size` entries.
///
/// # Panics
///
/// When a length differs, with all of them in the message: a kernel called with slices of
/// different lengths is a bug of its caller.
#[track_caller]
#[inline]
pub fn check_batch_lengths(
    states: usize,
    actions: usize,
    generators: Option<usize>,
    rewards: usize,
    terminated: usize,
    observations: usize,
    observation_size: usize,
) {
    let same = actions == states
        && generators.is_none_or(|generators| generators == states)
        && rewards == states
        && terminated == states
        && Some(observations) == states.checked_mul(observation_size);
    assert!(
        same,
        "a batch step needs slices of one length: {states} states, {actions} actions, \
         {generators:?} generators, {rewards} rewards, {terminated} flags and {observations} \
         observation entries (rows of {observation_size})"
    );
}
/// A domain that can step a batch of states at once. A vector environment built on such a
/// domain (rl-wrappers' `VectorEnvironment::from_kernel`) calls
/// [`step_batch`](Self::step_batch) on the whole batch (or on each part a thread steps)
/// instead of stepping the states one by one.
///
/// The kernel must give, for every index, exactly what [`Domain::step`] and
/// [`Domain::observe`] followed by flattening would give: the same next state, reward bits,
/// termination flag and observation, drawing the same numbers from the index's generator.
/// Vector environments test this.
///
/// The caller may pass any state the domain produced, a terminal one included (with
/// next-step autoreset, the states of episodes that ended on the previous step are stepped
/// with the others and their results discarded), so the kernel must not panic on any of them.
///
/// # Example
///
/// A walk on a line whose position moves by the action plus noise, ending beyond ±1; its
/// kernel agrees with its `step` bit for bit:
///
/// ```
/// use rand::{Rng, RngExt, SeedableRng};
/// use rl_core::NumpyGenerator;
/// use rl_core::{BatchStep, Domain, Mode, TransitionOutcome, Value};
/// use rl_spaces::{ArrayBox, Discrete, FlatScalar};
///
/// #[derive(Debug, Clone)]
/// struct Walk { actions: Discrete, observations: ArrayBox<f64, 1> }
///
/// impl Walk {
///     /// The one transition both paths share, so that they agree bit for bit.
///     fn next<R: Rng + ?Sized>(position: f64, action: i64, rng: &mut R) -> (f64, f64, bool) {
///         let next = position + 0.1 * (action as f64 - 1.0) + 0.01 * rng.random::<f64>();
///         (next, -next.abs(), next.abs() > 1.0)
///     }
/// }
///
/// impl Domain for Walk {
///     type State = f64;
///     type Observation = [f64; 1];
///     type Action = i64;
///     type ObservationSpace = ArrayBox<f64, 1>;
///     type ActionSpace = Discrete;
///     fn observation_space(&self) -> &ArrayBox<f64, 1> { &self.observations }
///     fn action_space(&self) -> &Discrete { &self.actions }
///     fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> f64 {
///         rng.random::<f64>() - 0.5
///     }
///     fn step<R: Rng + ?Sized>(&self, s: &f64, a: &i64, _: Mode, rng: &mut R) -> TransitionOutcome<f64> {
///         let (next, reward, terminated) = Walk::next(*s, *a, rng);
///         TransitionOutcome::new(next, Value::from_reward(reward), terminated)
///     }
///     fn observe(&self, s: &f64) -> [f64; 1] { [*s] }
///     fn is_terminal(&self, s: &f64) -> bool { s.abs() > 1.0 }
/// }
///
/// impl BatchStep for Walk {
///     fn step_batch<T: FlatScalar>(
///         &self,
///         states: &mut [f64],
///         actions: &[i64],
///         _mode: Mode,
///         rngs: &mut [NumpyGenerator],
///         rewards: &mut [f64],
///         terminated: &mut [bool],
///         observations: &mut [T],
///     ) {
///         let outputs = rewards.iter_mut().zip(terminated.iter_mut()).zip(observations.iter_mut());
///         let inputs = states.iter_mut().zip(actions).zip(rngs.iter_mut());
///         for (((position, action), rng), ((reward, done), observation)) in inputs.zip(outputs) {
///             let (next, r, t) = Walk::next(*position, *action, rng);
///             *position = next;
///             (*reward, *done, *observation) = (r, t, T::from_f64(next));
///         }
///     }
/// }
///
/// let walk = Walk { actions: Discrete::new(3)?, observations: ArrayBox::new([-2.0], [2.0])? };
/// let mut states = [0.0, 0.5, -0.5];
/// let mut rngs: Vec<NumpyGenerator> = (0..3).map(NumpyGenerator::seed_from_u64).collect();
/// let (mut rewards, mut terminated, mut observations) = ([0.0; 3], [false; 3], [0.0f32; 3]);
/// let before = (states, rngs.clone());
/// walk.step_batch(&mut states, &[2, 0, 1], Mode::Training, &mut rngs, &mut rewards, &mut terminated, &mut observations);
/// // The same as stepping each state with its own generator.
/// let (old_states, mut old_rngs) = before;
/// for (i, action) in [2, 0, 1].iter().enumerate() {
///     let outcome = walk.step(&old_states[i], action, Mode::Training, &mut old_rngs[i]);
///     assert_eq!(outcome.next_state.to_bits(), states[i].to_bits());
///     assert_eq!(outcome.value.reward().to_bits(), rewards[i].to_bits());
///     assert_eq!(outcome.terminated, terminated[i]);
///     assert_eq!(observations[i], states[i] as f32);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait BatchStep: Domain + Sync {
    /// Steps every state of `states` with the action of the same index, drawing randomness
    /// (if any) from the generator of the same index, and writes each result at that index:
    /// the reward, whether the state reached is terminal, and the flattened observation of
    /// the state reached (`observations` holds one row of the observation space's flat
    /// dimension per state). The states are replaced by the states reached.
    ///
    /// The caller passes slices of one length (in rows, for `observations`) and actions that
    /// are elements of the action space. Slices of different lengths are a bug of the caller:
    /// the kernel panics with the lengths (checked once per call, [`check_batch_lengths`])
    /// rather than stepping some states and not others.
    #[allow(clippy::too_many_arguments)]
    fn step_batch<T: FlatScalar>(
        &self,
        states: &mut [Self::State],
        actions: &[Self::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    );

    /// [`step_batch`](Self::step_batch) by a caller that steps batches of this domain again
    /// and again (a vector's share of environments) and keeps `scratch` for the kernel between
    /// its calls. The results are [`step_batch`](Self::step_batch)'s, bit for bit. A block
    /// kernel ([`BlockStep`](crate::BlockStep)) keeps its lanes there, made once instead of at
    /// every call (a vector cut into shares for its threads made them once per share at
    /// every step). The default ignores `scratch`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn step_batch_with<T: FlatScalar>(
        &self,
        scratch: &mut KernelScratch,
        states: &mut [Self::State],
        actions: &[Self::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) {
        let _ = scratch;
        self.step_batch(
            states,
            actions,
            mode,
            rngs,
            rewards,
            terminated,
            observations,
        );
    }

    /// Makes `scratch` ready for [`step_batch_with`](Self::step_batch_with), so that a caller
    /// that prepares its scratch spaces beforehand (a vector's parts, as it is built) allocates
    /// nothing in a later step. The default does nothing; a block kernel
    /// ([`BlockStep`](crate::BlockStep)) makes its lanes.
    #[inline]
    fn prepare_scratch(&self, scratch: &mut KernelScratch) {
        let _ = scratch;
    }

    /// Whether [`write_infos`](Self::write_infos) writes the infos the domain's step reports,
    /// which vectors that step this kernel then pass on; `false` by default: the domain's step
    /// reports no infos, and vectors spend nothing on them. [`check_batch_step`](crate::check_batch_step)
    /// fails a kernel whose domain reports infos that it does not write.
    #[inline]
    fn writes_infos(&self) -> bool {
        false
    }

    /// Writes the info of each state just stepped by [`step_batch`](Self::step_batch) into
    /// `infos` (one slot per state, replaced): the info [`Domain::step`] reports for the
    /// transition into `states[i]` (the states reached) by `actions[i]`. Called only where
    /// [`writes_infos`](Self::writes_infos) is true, with every state the kernel stepped: a
    /// vector also steps the episodes waiting for their reset, whose infos their resets then
    /// replace. The default writes nothing.
    #[inline]
    fn write_infos(&self, states: &[Self::State], actions: &[Self::Action], infos: &mut [Info]) {
        let _ = (states, actions, infos);
    }
}

/// Space a [`BatchStep`] kernel keeps between the calls of one caller
/// ([`BatchStep::step_batch_with`]): empty until the kernel's first call puts its own there
/// (one allocation), then reused. A clone is empty: the space holds nothing the results depend
/// on.
///
/// ```
/// use rl_core::KernelScratch;
///
/// let mut scratch = KernelScratch::default();
/// *scratch.get_or_default::<u32>() += 1;
/// assert_eq!(*scratch.get_or_default::<u32>(), 1); // kept
/// assert_eq!(*scratch.clone().get_or_default::<u32>(), 0); // a clone is empty
/// assert_eq!(*scratch.get_or_default::<u64>(), 0); // another type replaces it
/// assert_eq!(*scratch.get_or_default::<u32>(), 0);
/// ```
#[derive(Default)]
pub struct KernelScratch(Option<Box<dyn Any + Send>>);

impl KernelScratch {
    /// The scratch of type `X`, made with `X::default()` if it holds none (first use, or a
    /// scratch of another type).
    pub fn get_or_default<X: Default + Send + 'static>(&mut self) -> &mut X {
        if !self.0.as_ref().is_some_and(|kept| kept.is::<X>()) {
            self.0 = Some(Box::new(X::default()));
        }
        self.0
            .as_mut()
            .and_then(|kept| kept.downcast_mut::<X>())
            .expect("a scratch of type X was just put in")
    }
}

impl Clone for KernelScratch {
    fn clone(&self) -> Self {
        KernelScratch::default()
    }
}

impl fmt::Debug for KernelScratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KernelScratch")
            .field("kept", &self.0.is_some())
            .finish()
    }
}

/// The states of a batch of episodes of one domain, with the domain that steps them: what a
/// vector environment keeps of its environments (one storage, lent to its threads in parts:
/// [`SplitStates`]), so that the bookkeeping around the stepping (generators, step counts,
/// autoreset) is written once for every domain. A typed
/// domain's batch is a [`DomainStates`](crate::DomainStates), stepped by the domain's
/// structure-of-arrays kernel ([`BatchStep`]) or by its [`Domain::step`] state by state with its
/// infos ([`SteppedStates`](crate::SteppedStates)); domains built by id get one or the other,
/// behind a box
/// ([`RegisteredDomain::batch_states`](crate::registry::RegisteredDomain::batch_states)).
///
/// `T` is the observations' numeric type. Every method works at the index it is given; an
/// index out of range is an error ([`reset_at`](Self::reset_at)) or not applicable
/// ([`is_applicable`](Self::is_applicable)), never a silent success.
pub trait BatchStates<T: FlatScalar>: Send {
    /// The action of one episode.
    type Action: Clone + fmt::Debug + Send + Sync;
    /// The action space every episode shares.
    type ActionSpace: Space<Element = Self::Action>;

    /// The action space.
    fn action_space(&self) -> &Self::ActionSpace;

    /// The domain's episode cap ([`Domain::episode_cap`]).
    fn episode_cap(&self) -> Option<u64>;

    /// Whether the episodes have time limits of their own
    /// ([`Domain::has_episode_time_limits`]); false by default.
    fn has_episode_time_limits(&self) -> bool {
        false
    }

    /// Whether episode `i`'s state has reached its own time limit
    /// ([`Domain::time_limit_reached`]); false by default and for an index out of range.
    fn time_limit_reached(&self, i: usize) -> bool {
        let _ = i;
        false
    }

    /// The number of episodes.
    fn len(&self) -> usize;

    /// Whether there is no episode.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Replaces the state of episode `i` by an initial state drawn from `rng` in `mode`
    /// ([`Domain::initial_state`]) and writes its flattened observation into `observation`.
    ///
    /// Fails when `i` is not an episode of the batch ([`CoreError::InvalidParameter`] naming
    /// `i`) or the observation does not flatten into `observation`.
    fn reset_at(
        &mut self,
        i: usize,
        mode: Mode,
        rng: &mut NumpyGenerator,
        observation: &mut [T],
    ) -> Result<(), CoreError>;

    /// Seeds episode `i` with `seed`, for a batch whose episodes draw from generators of
    /// their own (copies of an environment, each seeded through
    /// [`Environment::seed`](crate::Environment::seed)) rather than from the generators the
    /// caller passes to [`reset_at`](Self::reset_at) and [`step`](Self::step), which the
    /// caller seeds itself. Nothing to do by default. An error for an episode that cannot take
    /// `seed`; [`check_seed_at`](Self::check_seed_at) tells beforehand.
    fn seed_at(&mut self, i: usize, seed: &crate::Seed) -> Result<(), CoreError> {
        let _ = (i, seed);
        Ok(())
    }

    /// Whether episode `i` can take `seed` ([`seed_at`](Self::seed_at)), changing nothing:
    /// a caller that seeds several episodes asks each first, so that a seed one refuses
    /// reseeds none. Every episode takes every seed by default.
    fn check_seed_at(&mut self, i: usize, seed: &crate::Seed) -> Result<(), CoreError> {
        let _ = (i, seed);
        Ok(())
    }

    /// The info of the reset that started episode `i`'s current episode
    /// ([`Domain::reset_info`] of its state: Gymnasium's MuJoCo environments' x position,
    /// ...), which a vector reports beside the reset's observation; empty by default (a batch
    /// that hands out no states) and for an index out of range. Read right after
    /// [`reset_at`](Self::reset_at), before the episode steps.
    fn reset_info(&self, i: usize) -> Info {
        let _ = i;
        Info::new()
    }

    /// Steps every episode with the action of the same index, as
    /// [`BatchStep::step_batch`] does (same slices, same contract).
    ///
    /// Fails, naming the index, when an action cannot be read as the domain's action (an
    /// erased batch converts each action first); nothing has stepped then.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        actions: &[Self::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) -> Result<(), (usize, CoreError)>;

    /// [`step`](Self::step), also writing each episode's info
    /// ([`TransitionOutcome::info`](crate::TransitionOutcome::info)) at its index of `infos`,
    /// and free to leave alone the episodes marked in `discarded` (those whose results the
    /// caller throws away: with next-step autoreset, the episodes that ended on the previous
    /// step, which it resets instead); what a vector environment calls.
    ///
    /// `discarded` and `infos` have the length of the other slices. By default this is `step`,
    /// which writes no info and steps every state (a structure-of-arrays kernel, whose
    /// contract allows any state, [`BatchStep`]): a batch without infos pays nothing for them.
    /// An info is written only where it or the one it replaces has entries, so that a domain
    /// whose infos are empty writes nothing.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn step_with_infos(
        &mut self,
        actions: &[Self::Action],
        discarded: &[bool],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
        infos: &mut [Info],
    ) -> Result<(), (usize, CoreError)> {
        let _ = (discarded, infos);
        self.step(actions, mode, rngs, rewards, terminated, observations)
    }

    /// Whether [`step_with_infos`](Self::step_with_infos) may write infos: false by default
    /// (a kernel's infos are always empty), so that a consumer skips looking at them.
    fn reports_infos(&self) -> bool {
        false
    }

    /// Whether a step of an episode takes long and varies ([`Domain::costly_steps`]): a
    /// vector on several threads then cuts its batches one episode each. False by default.
    fn costly_steps(&self) -> bool {
        false
    }

    /// The bytes each episode takes in this batch: its state with the heap bytes it owns
    /// ([`Domain::state_heap_bytes`]) and, in a batch built by id, its action. A vector environment adds its own
    /// bookkeeping and checks the total can be allocated before building the batch.
    fn episode_bytes(&self) -> usize;

    /// Whether `action` is applicable in episode `i`'s current state
    /// ([`Domain::is_applicable`]); false for an index out of range or an action the domain
    /// cannot read.
    fn is_applicable(&self, i: usize, action: &Self::Action) -> bool;

    /// Episode `i`'s current state, for a consumer that knows the domain's state type (a
    /// registered domain draws it: [`RegisteredDomain::draw_state`](crate::registry::RegisteredDomain::draw_state));
    /// `None` for an index out of range, or a batch that does not hand its states out.
    fn state_any(&self, i: usize) -> Option<&dyn Any> {
        let _ = i;
        None
    }

    /// Writes episode `i`'s action mask into `mask` in one pass
    /// ([`Domain::action_mask_into`], for a `Discrete` action space) and returns true, or
    /// returns false, writing nothing, when the domain does not (the default; the caller then
    /// asks [`is_applicable`](Self::is_applicable) action by action) or `i` is out of range.
    fn action_mask_into(&self, i: usize, mask: &mut [bool]) -> bool {
        let _ = (i, mask);
        false
    }

    /// Whether [`step`](Self::step) takes `action` ([`Domain::accepts_action`]): by default
    /// the actions of the action space.
    fn accepts_action(&self, action: &Self::Action) -> bool {
        self.action_space().contains(action)
    }
}

impl<T: FlatScalar, S: BatchStates<T> + ?Sized> BatchStates<T> for Box<S> {
    type Action = S::Action;
    type ActionSpace = S::ActionSpace;

    fn action_space(&self) -> &Self::ActionSpace {
        (**self).action_space()
    }

    fn episode_cap(&self) -> Option<u64> {
        (**self).episode_cap()
    }

    fn has_episode_time_limits(&self) -> bool {
        (**self).has_episode_time_limits()
    }

    fn time_limit_reached(&self, i: usize) -> bool {
        (**self).time_limit_reached(i)
    }

    fn len(&self) -> usize {
        (**self).len()
    }

    fn reset_at(
        &mut self,
        i: usize,
        mode: Mode,
        rng: &mut NumpyGenerator,
        observation: &mut [T],
    ) -> Result<(), CoreError> {
        (**self).reset_at(i, mode, rng, observation)
    }

    fn reset_info(&self, i: usize) -> Info {
        (**self).reset_info(i)
    }

    fn seed_at(&mut self, i: usize, seed: &crate::Seed) -> Result<(), CoreError> {
        (**self).seed_at(i, seed)
    }

    fn check_seed_at(&mut self, i: usize, seed: &crate::Seed) -> Result<(), CoreError> {
        (**self).check_seed_at(i, seed)
    }

    fn step(
        &mut self,
        actions: &[Self::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) -> Result<(), (usize, CoreError)> {
        (**self).step(actions, mode, rngs, rewards, terminated, observations)
    }

    #[inline]
    fn step_with_infos(
        &mut self,
        actions: &[Self::Action],
        discarded: &[bool],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
        infos: &mut [Info],
    ) -> Result<(), (usize, CoreError)> {
        (**self).step_with_infos(
            actions,
            discarded,
            mode,
            rngs,
            rewards,
            terminated,
            observations,
            infos,
        )
    }

    fn reports_infos(&self) -> bool {
        (**self).reports_infos()
    }

    fn costly_steps(&self) -> bool {
        (**self).costly_steps()
    }

    fn episode_bytes(&self) -> usize {
        (**self).episode_bytes()
    }

    fn is_applicable(&self, i: usize, action: &Self::Action) -> bool {
        (**self).is_applicable(i, action)
    }

    fn state_any(&self, i: usize) -> Option<&dyn Any> {
        (**self).state_any(i)
    }

    fn action_mask_into(&self, i: usize, mask: &mut [bool]) -> bool {
        (**self).action_mask_into(i, mask)
    }

    fn accepts_action(&self, action: &Self::Action) -> bool {
        (**self).accepts_action(action)
    }
}

/// The most parts [`SplitStates::with_parts`] cuts a batch into.
pub const MAX_PARTS: usize = 64;

/// The parts of one [`SplitStates::with_parts`] call, or their pieces: on the stack, at most
/// [`MAX_PARTS`].
pub type Parts<X> = SmallVec<[X; MAX_PARTS]>;

/// A part of a batch ([`SplitStates::with_parts`]): the episodes of one range of it, a batch
/// of their own (indexed from the range's start), with the whole's actions.
pub type PartStates<'a, T, A, S> = dyn BatchStates<T, Action = A, ActionSpace = S> + Send + 'a;

/// The parts [`SplitStates::with_parts`] lends, in order.
pub type LentParts<'a, 'b, T, A, S> = [&'a mut PartStates<'b, T, A, S>];

/// What [`SplitStates::with_parts`] calls with the parts it lends.
pub type RunParts<'r, T, A, S> = dyn FnMut(&mut LentParts<'_, '_, T, A, S>) + 'r;

/// A batch that can be cut into parts stepped at once, one per thread, without moving its
/// states: what a vector environment keeps, one storage for all its environments, lending a
/// range of them to each thread for each call.
///
/// ```
/// use std::sync::Arc;
/// use rand::SeedableRng;
/// use rl_core::corridor::{Corridor, LEFT, RIGHT};
/// use rl_core::{BatchStates, Mode, NumpyGenerator, SplitStates, SteppedStates};
///
/// let mut batch = SteppedStates::new(Arc::new(Corridor::new(4, 0.2)?), 3);
/// let mut rngs: Vec<NumpyGenerator> = (0..3).map(NumpyGenerator::seed_from_u64).collect();
/// let mut rows = [0.0f32; 12];
/// for (i, rng) in rngs.iter_mut().enumerate() {
///     batch.reset_at(i, Mode::Training, rng, &mut rows[i * 4..(i + 1) * 4])?;
/// }
/// // The second part holds episodes 1 and 2, as its 0 and 1.
/// batch.with_parts(&[0..1, 1..3], &mut |parts| {
///     assert_eq!((parts.len(), parts[0].len(), parts[1].len()), (2, 1, 2));
///     let (mut rewards, mut ended) = ([0.0; 2], [false; 2]);
///     parts[1]
///         .step(&[RIGHT, LEFT], Mode::Training, &mut rngs[1..], &mut rewards, &mut ended, &mut rows[4..])
///         .expect("corridor steps");
/// });
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub trait SplitStates<T: FlatScalar>: BatchStates<T> {
    /// Cuts the batch into the parts `ranges` names and calls `run` with them, in order: each
    /// a batch of the episodes of its range, indexed from the range's start, which steps,
    /// resets and reports them exactly as the whole batch would (bit for bit, from the same
    /// generators), so that several threads can step the parts at once. Seeding stays with
    /// the whole batch.
    ///
    /// Allocates only the first time it is asked for more parts than before (each part's
    /// scratch space and action buffer is kept).
    ///
    /// # Panics
    ///
    /// When `ranges` are not contiguous, in order and not empty from 0 to the batch's length,
    /// or more than [`MAX_PARTS`] (a bug of the caller), with the ranges.
    fn with_parts(
        &mut self,
        ranges: &[Range<usize>],
        run: &mut RunParts<'_, T, Self::Action, Self::ActionSpace>,
    );
}

impl<T: FlatScalar, S: SplitStates<T> + ?Sized> SplitStates<T> for Box<S> {
    fn with_parts(
        &mut self,
        ranges: &[Range<usize>],
        run: &mut RunParts<'_, T, Self::Action, Self::ActionSpace>,
    ) {
        (**self).with_parts(ranges, run);
    }
}

/// Checks the ranges of a [`SplitStates::with_parts`] call on a batch of `len` episodes.
///
/// # Panics
///
/// As [`SplitStates::with_parts`] says.
#[track_caller]
pub fn check_parts(ranges: &[Range<usize>], len: usize) {
    let mut end = 0;
    let contiguous = ranges.iter().all(|range| {
        let follows = range.start == end && range.start < range.end;
        end = range.end;
        follows
    });
    assert!(
        contiguous && end == len && ranges.len() <= MAX_PARTS,
        "the parts of a batch of {len} are contiguous ranges from 0 to {len}, none empty, at \
         most {MAX_PARTS}: {ranges:?}"
    );
}

/// The action type of a batch built by id: [`AnyElement`] (any action space, an
/// [`AnySpace`]) or `i64` (a [`Discrete`] action space, read without the `AnyElement`
/// round trip; rl-wrappers' `make_vector::<i64, f32>`). Sealed: these two are the only ones.
pub trait ErasedAction:
    Clone + fmt::Debug + fmt::Display + Send + Sync + 'static + sealed::Sealed
{
    /// The action space of this representation: [`AnySpace`] or [`Discrete`].
    type Space: Space<Element = Self> + Clone + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// The domain's action space in this representation, or `None` when it has none (an
    /// action space other than [`Discrete`], for `i64`).
    fn space(any: AnySpace) -> Option<Self::Space>;

    /// The action as an element of the typed action space `space`, or an error when it is not
    /// one.
    fn to_typed<S: DynamicSpace>(&self, space: &S) -> Result<S::Element, SpaceError>;

    /// [`to_typed`](Self::to_typed) into `out`, an element of `space` already (the last
    /// step's action), reusing its memory where it can
    /// ([`DynamicSpace::element_from_any_into`]): a vector's Box actions converted at every
    /// step allocate nothing. An error, leaving `out` as it was, when the action is not one.
    fn to_typed_into<S: DynamicSpace>(
        &self,
        space: &S,
        out: &mut S::Element,
    ) -> Result<(), SpaceError>;

    /// This action in `space`'s element type without checking a Box's bounds
    /// ([`DynamicSpace::element_from_any_ignoring_bounds`]), for a domain that accepts actions
    /// beyond them.
    fn to_typed_ignoring_bounds<S: DynamicSpace>(&self, space: &S) -> Option<S::Element>;

    /// `actions` as the elements of the typed action space `space` without a conversion,
    /// where they are the same values (`i64` actions of a [`Discrete`] typed space:
    /// [`DynamicSpace::ints_as_elements`]), unchecked; `None` otherwise.
    fn as_typed<'a, S: DynamicSpace>(actions: &'a [Self], space: &S) -> Option<&'a [S::Element]>;

    /// `actions` as [`AnyElement`]s: `actions` itself for `AnyElement`, otherwise converted
    /// into `scratch`, whose buffers are reused from call to call (for an environment stepped
    /// through the object-safe [`Environment`](crate::Environment) interface).
    fn as_any_elements<'a>(
        actions: &'a [Self],
        scratch: &'a mut Vec<AnyElement>,
    ) -> &'a [AnyElement];

    /// The states of `len` episodes of `domain` with actions of this type and observation
    /// rows of `T` written in `layout`, or `None` when the domain's action space has no form
    /// in this type (an action space other than [`Discrete`], for `i64`): what
    /// [`batch_states_as`](crate::registry::batch_states_as) builds.
    fn batch_states<T: RowScalar>(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<Self, T>>;
}

mod sealed {
    /// Keeps [`ErasedAction`](super::ErasedAction) to the two types this crate implements it
    /// for.
    pub trait Sealed {}
    impl Sealed for rl_spaces::AnyElement {}
    impl Sealed for i64 {}
}

impl ErasedAction for AnyElement {
    type Space = AnySpace;

    fn space(any: AnySpace) -> Option<AnySpace> {
        Some(any)
    }

    #[inline]
    fn to_typed<S: DynamicSpace>(&self, space: &S) -> Result<S::Element, SpaceError> {
        space.element_from_any(self)
    }

    #[inline]
    fn to_typed_into<S: DynamicSpace>(
        &self,
        space: &S,
        out: &mut S::Element,
    ) -> Result<(), SpaceError> {
        space.element_from_any_into(self, out)
    }

    fn to_typed_ignoring_bounds<S: DynamicSpace>(&self, space: &S) -> Option<S::Element> {
        space.element_from_any_ignoring_bounds(self)
    }

    fn as_typed<'a, S: DynamicSpace>(_: &'a [Self], _: &S) -> Option<&'a [S::Element]> {
        None
    }

    fn as_any_elements<'a>(actions: &'a [Self], _: &'a mut Vec<AnyElement>) -> &'a [AnyElement] {
        actions
    }

    fn batch_states<T: RowScalar>(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<Self, T>> {
        Some(T::any_batch_states(domain, len, layout))
    }
}

impl ErasedAction for i64 {
    type Space = Discrete;

    fn space(any: AnySpace) -> Option<Discrete> {
        match any {
            AnySpace::Discrete(space) => Some(space),
            _ => None,
        }
    }

    #[inline]
    fn to_typed<S: DynamicSpace>(&self, space: &S) -> Result<S::Element, SpaceError> {
        space.element_from_int(*self)
    }

    #[inline]
    fn to_typed_into<S: DynamicSpace>(
        &self,
        space: &S,
        out: &mut S::Element,
    ) -> Result<(), SpaceError> {
        *out = space.element_from_int(*self)?;
        Ok(())
    }

    fn to_typed_ignoring_bounds<S: DynamicSpace>(&self, space: &S) -> Option<S::Element> {
        // An integer action has no bounds to ignore: a Discrete space holds it or not.
        space.element_from_int(*self).ok()
    }

    #[inline]
    fn as_typed<'a, S: DynamicSpace>(actions: &'a [Self], space: &S) -> Option<&'a [S::Element]> {
        space.ints_as_elements(actions)
    }

    fn as_any_elements<'a>(
        actions: &'a [Self],
        scratch: &'a mut Vec<AnyElement>,
    ) -> &'a [AnyElement] {
        scratch.truncate(actions.len());
        for (slot, action) in scratch.iter_mut().zip(actions) {
            match slot {
                AnyElement::Int(value) => *value = *action,
                other => *other = AnyElement::Int(*action),
            }
        }
        let filled = scratch.len();
        scratch.extend(
            actions[filled..]
                .iter()
                .map(|action| AnyElement::Int(*action)),
        );
        scratch
    }

    fn batch_states<T: RowScalar>(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<Self, T>> {
        T::discrete_batch_states(domain, len, layout)
    }
}

/// The states of a batch of episodes of a domain built by id, behind a box: actions are
/// [`ErasedAction`]s (by default [`AnyElement`]s of an [`AnySpace`]) and observation rows
/// of `T` (by default `f32`; `f64` for an observation space with a float64 Box, `u8` for
/// observations whose every row entry is a byte), as rl-wrappers' `make_vector::<A, T>` steps
/// them ([`batch_states_as`](crate::registry::batch_states_as) builds them).
pub type BoxedBatchStates<A = AnyElement, T = f32> =
    Box<dyn SplitStates<T, Action = A, ActionSpace = <A as ErasedAction>::Space> + Send>;

/// A typed batch ([`DomainStates`] or [`SteppedStates`](crate::SteppedStates)) with rows of
/// `T` that reads [`ErasedAction`]s: each step converts the actions into a buffer of the
/// domain's actions kept between steps (no allocation for plain actions), then steps the
/// typed batch; integer actions of a typed `Discrete` space, which are the domain's own, go to
/// the typed batch as they are once one batch test finds them all in the space.
pub(crate) struct AnyDomainStates<S: BatchStates<T>, A: ErasedAction, T: FlatScalar> {
    typed: S,
    action_space: A::Space,
    actions: Vec<S::Action>,
    /// One action buffer for each part ([`SplitStates::with_parts`]).
    part_actions: Vec<Vec<S::Action>>,
    /// Whether the typed action space is `Discrete` (its masks then index the same actions).
    discrete_actions: bool,
    /// The rows' type.
    rows: std::marker::PhantomData<fn() -> T>,
}

impl<S, A, T> AnyDomainStates<S, A, T>
where
    S: BatchStates<T>,
    S::ActionSpace: DynamicSpace,
    A: ErasedAction,
    T: FlatScalar,
{
    /// `typed` reading actions of type `A`, or `None` when its action space has no form in
    /// `A` ([`ErasedAction::space`]).
    pub(crate) fn new(typed: S) -> Option<Self> {
        let action_space = A::space(typed.action_space().to_any_space())?;
        Some(Self::with_space(typed, action_space))
    }

    /// `typed` reading actions of type `A` in `action_space`, its action space's form in `A`.
    fn with_space(typed: S, action_space: A::Space) -> Self {
        let len = typed.len();
        let discrete_actions = matches!(typed.action_space().to_any_space(), AnySpace::Discrete(_));
        AnyDomainStates {
            typed,
            action_space,
            actions: Vec::with_capacity(len),
            part_actions: Vec::new(),
            discrete_actions,
            rows: std::marker::PhantomData,
        }
    }
}

/// Converts `action`, the `index`-th of a step, typed in `space`: into `slot` where there is
/// one, reusing its memory ([`ErasedAction::to_typed_into`]: no allocation for a Box's arrays
/// either), returning `None`; else returns it. Fails naming it when it does not convert (an
/// action beyond a Box's bounds converts only where `accepts` takes it).
#[inline]
fn convert_one<A: ErasedAction, S: DynamicSpace>(
    (space, accepts, erased_space): (&S, &impl Fn(&S::Element) -> bool, &A::Space),
    index: usize,
    action: &A,
    mut slot: Option<&mut S::Element>,
) -> Result<Option<S::Element>, (usize, CoreError)> {
    // An action of the space (the usual case) is read as before; one beyond a Box's bounds
    // only if the domain accepts it.
    match slot.as_deref_mut() {
        Some(slot) => {
            if action.to_typed_into(space, slot).is_ok() {
                return Ok(None);
            }
        }
        None => {
            if let Ok(typed) = action.to_typed(space) {
                return Ok(Some(typed));
            }
        }
    }
    let accepted = action
        .to_typed_ignoring_bounds(space)
        .filter(|typed| accepts(typed));
    match (accepted, slot) {
        (Some(typed), Some(slot)) => {
            *slot = typed;
            Ok(None)
        }
        (Some(typed), None) => Ok(Some(typed)),
        (None, _) => Err((
            index,
            CoreError::InvalidAction {
                action: action.to_string(),
                space: erased_space.to_string(),
            },
        )),
    }
}

/// `actions` as the typed actions of `space` with no conversion and no buffer, where they are
/// the same values ([`ErasedAction::as_typed`]: integer actions of a `Discrete` space) and
/// every one lies in the space (one batch test, [`Space::first_outside`]); `None` otherwise,
/// for the conversion that names the first action outside or lets the domain accept it.
#[inline]
fn unconverted<'a, A: ErasedAction, S: DynamicSpace>(
    space: &S,
    actions: &'a [A],
) -> Option<&'a [S::Element]> {
    A::as_typed(actions, space).filter(|typed| space.first_outside(typed).is_none())
}

/// A buffer of typed actions that each step of an erased batch converts its actions into,
/// kept between steps: an [`AnyDomainStates`]'s `Vec`, or a part's ([`PartActions`]).
trait ActionBuffer<X> {
    /// Converts `actions` into the buffer, typed in `space`, or fails naming the first that
    /// does not convert ([`convert_one`]).
    fn fill<A: ErasedAction, S: DynamicSpace<Element = X>>(
        &mut self,
        space: &S,
        accepts: impl Fn(&X) -> bool,
        erased_space: &A::Space,
        actions: &[A],
    ) -> Result<(), (usize, CoreError)>;

    /// The actions converted last.
    fn actions(&self) -> &[X];

    /// `actions` typed in `space`: the actions themselves where they need no conversion
    /// ([`unconverted`]), else converted into the buffer ([`fill`](Self::fill)).
    fn typed<'x, A: ErasedAction, S: DynamicSpace<Element = X>>(
        &'x mut self,
        space: &S,
        accepts: impl Fn(&X) -> bool,
        erased_space: &A::Space,
        actions: &'x [A],
    ) -> Result<&'x [X], (usize, CoreError)> {
        if let Some(typed) = unconverted::<A, S>(space, actions) {
            return Ok(typed);
        }
        self.fill::<A, S>(space, accepts, erased_space, actions)?;
        Ok(self.actions())
    }
}

impl<X> ActionBuffer<X> for Vec<X> {
    /// Overwrites the last step's actions in place and pushes the rest: no allocation once the
    /// buffer has held as many.
    fn fill<A: ErasedAction, S: DynamicSpace<Element = X>>(
        &mut self,
        space: &S,
        accepts: impl Fn(&X) -> bool,
        erased_space: &A::Space,
        actions: &[A],
    ) -> Result<(), (usize, CoreError)> {
        self.truncate(actions.len());
        let context = (space, &accepts, erased_space);
        for (index, action) in actions.iter().enumerate() {
            if let Some(typed) = convert_one(context, index, action, self.get_mut(index))? {
                self.push(typed);
            }
        }
        Ok(())
    }

    fn actions(&self) -> &[X] {
        self
    }
}

/// The action buffer of a part of an [`AnyDomainStates`]: its range of the whole batch's
/// buffer once that holds an action per episode (after the batch's first step as a whole,
/// which a vector's first step is: no conversion then allocates), else a buffer of its own.
enum PartActions<'a, X> {
    Whole(&'a mut [X]),
    Own(&'a mut Vec<X>),
}

impl<X> ActionBuffer<X> for PartActions<'_, X> {
    fn fill<A: ErasedAction, S: DynamicSpace<Element = X>>(
        &mut self,
        space: &S,
        accepts: impl Fn(&X) -> bool,
        erased_space: &A::Space,
        actions: &[A],
    ) -> Result<(), (usize, CoreError)> {
        match self {
            PartActions::Own(buffer) => buffer.fill(space, accepts, erased_space, actions),
            PartActions::Whole(slots) => {
                assert_eq!(
                    actions.len(),
                    slots.len(),
                    "a batch step needs one action per episode"
                );
                let context = (space, &accepts, erased_space);
                for (index, (action, slot)) in actions.iter().zip(slots.iter_mut()).enumerate() {
                    convert_one(context, index, action, Some(slot))?;
                }
                Ok(())
            }
        }
    }

    fn actions(&self) -> &[X] {
        match self {
            PartActions::Whole(slots) => slots,
            PartActions::Own(buffer) => buffer,
        }
    }
}

impl<S, T> AnyDomainStates<S, AnyElement, T>
where
    S: BatchStates<T>,
    S::ActionSpace: DynamicSpace,
    T: FlatScalar,
{
    /// `typed` reading [`AnyElement`] actions (which every action space has a form in).
    pub(crate) fn any(typed: S) -> Self {
        let action_space = typed.action_space().to_any_space();
        Self::with_space(typed, action_space)
    }
}

/// A part of an [`AnyDomainStates`] ([`SplitStates::with_parts`]): a part of the typed batch,
/// with the erased action space and an action buffer of its own.
struct AnyPart<'a, 'b, T, A: ErasedAction, TA, TS> {
    typed: &'a mut PartStates<'b, T, TA, TS>,
    action_space: &'a A::Space,
    actions: PartActions<'a, TA>,
    /// Whether the typed action space is `Discrete`.
    discrete_actions: bool,
}

/// Implements [`BatchStates`] for [`AnyDomainStates`] and [`AnyPart`] with one body (their
/// fields differ only in owning or borrowing).
macro_rules! any_batch_states {
    ($ty:ty, $typed_action:ty, [$($generics:tt)*], [$($bounds:tt)*]) => {
        impl<$($generics)*> BatchStates<T> for $ty
        where
            $($bounds)*
        {
    type Action = A;
    type ActionSpace = A::Space;

    fn action_space(&self) -> &A::Space {
        &self.action_space
    }

    fn episode_cap(&self) -> Option<u64> {
        self.typed.episode_cap()
    }

    fn has_episode_time_limits(&self) -> bool {
        self.typed.has_episode_time_limits()
    }

    fn time_limit_reached(&self, i: usize) -> bool {
        self.typed.time_limit_reached(i)
    }

    fn len(&self) -> usize {
        self.typed.len()
    }

    fn reset_at(
        &mut self,
        i: usize,
        mode: Mode,
        rng: &mut NumpyGenerator,
        observation: &mut [T],
    ) -> Result<(), CoreError> {
        self.typed.reset_at(i, mode, rng, observation)
    }

    fn reset_info(&self, i: usize) -> Info {
        self.typed.reset_info(i)
    }

    fn seed_at(&mut self, i: usize, seed: &crate::Seed) -> Result<(), CoreError> {
        self.typed.seed_at(i, seed)
    }

    fn check_seed_at(&mut self, i: usize, seed: &crate::Seed) -> Result<(), CoreError> {
        self.typed.check_seed_at(i, seed)
    }

    fn step(
        &mut self,
        actions: &[A],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) -> Result<(), (usize, CoreError)> {
        let actions = self.actions.typed::<A, _>(
            self.typed.action_space(),
            |typed| self.typed.accepts_action(typed),
            &self.action_space,
            actions,
        )?;
        self.typed.step(actions, mode, rngs, rewards, terminated, observations)
    }

    fn step_with_infos(
        &mut self,
        actions: &[A],
        discarded: &[bool],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
        infos: &mut [Info],
    ) -> Result<(), (usize, CoreError)> {
        let actions = self.actions.typed::<A, _>(
            self.typed.action_space(),
            |typed| self.typed.accepts_action(typed),
            &self.action_space,
            actions,
        )?;
        self.typed.step_with_infos(
            actions,
            discarded,
            mode,
            rngs,
            rewards,
            terminated,
            observations,
            infos,
        )
    }

    fn reports_infos(&self) -> bool {
        self.typed.reports_infos()
    }

    fn costly_steps(&self) -> bool {
        self.typed.costly_steps()
    }

    fn episode_bytes(&self) -> usize {
        self.typed.episode_bytes() + std::mem::size_of::<$typed_action>()
    }

    fn accepts_action(&self, action: &A) -> bool {
        action
            .to_typed_ignoring_bounds(self.typed.action_space())
            .is_some_and(|typed| self.typed.accepts_action(&typed))
    }

    fn is_applicable(&self, i: usize, action: &A) -> bool {
        action
            .to_typed(self.typed.action_space())
            .is_ok_and(|typed| self.typed.is_applicable(i, &typed))
    }

    fn state_any(&self, i: usize) -> Option<&dyn Any> {
        self.typed.state_any(i)
    }

    /// The typed batch's mask where its action space is `Discrete` (the same actions in the
    /// same order in either form).
    fn action_mask_into(&self, i: usize, mask: &mut [bool]) -> bool {
        self.discrete_actions && self.typed.action_mask_into(i, mask)
    }
}
    };
}

any_batch_states!(
    AnyDomainStates<S, A, T>,
    S::Action,
    [S, A, T],
    [S: BatchStates<T>, S::ActionSpace: DynamicSpace, A: ErasedAction, T: FlatScalar,]
);
any_batch_states!(
    AnyPart<'_, '_, T, A, TA, TS>,
    TA,
    [T, A, TA, TS],
    [
        T: FlatScalar,
        A: ErasedAction,
        TA: Clone + fmt::Debug + Send + Sync,
        TS: DynamicSpace + Space<Element = TA>,
    ]
);

impl<S, A, T> SplitStates<T> for AnyDomainStates<S, A, T>
where
    S: SplitStates<T>,
    S::ActionSpace: DynamicSpace,
    A: ErasedAction,
    T: FlatScalar,
{
    fn with_parts(&mut self, ranges: &[Range<usize>], run: &mut RunParts<'_, T, A, A::Space>) {
        let len = self.typed.len();
        check_parts(ranges, len);
        // One part (the whole batch) converts into the whole buffer; several convert into
        // their ranges of it once it holds an action per episode, until then into buffers of
        // their own, made room for now, unless the actions go to the parts unconverted
        // (integers of a `Discrete` typed space, `unconverted`: the buffers stay empty but for
        // a step with an action outside the space).
        let single = ranges.len() == 1;
        let whole = !single && self.actions.len() == len;
        if !whole && !single {
            if self.part_actions.len() < ranges.len() {
                self.part_actions.resize_with(ranges.len(), Vec::new);
            }
            if A::as_typed(&[], self.typed.action_space()).is_none() {
                for (buffer, range) in self.part_actions.iter_mut().zip(ranges) {
                    buffer.reserve(range.len());
                }
            }
        }
        let action_space = &self.action_space;
        let discrete_actions = self.discrete_actions;
        let mut buffers: Parts<PartActions<'_, S::Action>> = Parts::new();
        if single {
            buffers.push(PartActions::Own(&mut self.actions));
        } else {
            let (mut rest, mut own) = (&mut self.actions[..], self.part_actions.iter_mut());
            for range in ranges {
                if whole {
                    let (slots, tail) = std::mem::take(&mut rest).split_at_mut(range.len());
                    rest = tail;
                    buffers.push(PartActions::Whole(slots));
                } else if let Some(buffer) = own.next() {
                    buffers.push(PartActions::Own(buffer));
                }
            }
        }
        let mut buffers = buffers.into_iter();
        self.typed.with_parts(ranges, &mut |typed| {
            let mut parts: Parts<AnyPart<'_, '_, T, A, S::Action, S::ActionSpace>> = typed
                .iter_mut()
                .zip(buffers.by_ref())
                .map(|(typed, actions)| AnyPart {
                    typed: &mut **typed,
                    action_space,
                    actions,
                    discrete_actions,
                })
                .collect();
            let mut lent: Parts<&mut PartStates<'_, T, A, A::Space>> = parts
                .iter_mut()
                .map(|part| part as &mut PartStates<'_, T, A, A::Space>)
                .collect();
            run(&mut lent);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_contiguous_non_empty_ranges_covering_the_batch() {
        let (all, short, late) = (0..5, 0..4, 1..5);
        check_parts(&[0..2, 2..5], 5);
        check_parts(std::slice::from_ref(&all), 5);
        check_parts(&[], 0);
        let too_many: Vec<Range<usize>> = (0..=MAX_PARTS).map(|i| i..i + 1).collect();
        let refused: [(&[Range<usize>], usize); 6] = [
            (&[0..2, 3..5], 5),
            (&[0..3, 2..5], 5),
            (&[0..2, 2..2, 2..5], 5),
            (std::slice::from_ref(&short), 5),
            (std::slice::from_ref(&late), 5),
            (&too_many, MAX_PARTS + 1),
        ];
        for (ranges, len) in refused {
            let result = std::panic::catch_unwind(|| check_parts(ranges, len));
            assert!(result.is_err(), "{ranges:?} of {len} accepted");
        }
    }
}
