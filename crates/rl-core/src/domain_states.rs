//! [`DomainStates`]: the batch of states of one typed domain, stepped by the domain's
//! structure-of-arrays kernel ([`ByKernel`]) or state by state by its step with its infos
//! ([`ByStep`], [`SteppedStates`]: the batched vector path of every domain without a kernel of
//! its own); the bookkeeping around either (resets, state access, action masks) is written once.

use std::any::Any;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use rand::SeedableRng;
use rl_spaces::{FlatScalar, FlattenSpace, RowLayout};

use crate::batch::{PartStates, Parts, RunParts, check_parts};
use crate::{
    BatchStates, BatchStep, ConstraintSet, CoreError, Domain, Info, KernelScratch, Memory, Mode,
    NumpyGenerator, SplitStates, check_batch_lengths,
};

/// The states of a batch of episodes of the typed domain `D`, in one `Vec`, with the domain
/// that steps them as `S` says: [`ByKernel`], the domain's [`BatchStep`] kernel (the default:
/// what rl-wrappers' `VectorEnvironment::from_kernel` steps), or [`ByStep`], each state by the
/// domain's step with its infos ([`SteppedStates`]).
///
/// Episode `i` is restarted with [`Domain::initial_state_into`] and its observation written
/// into its row; an index out of range is an error ([`reset_at`](BatchStates::reset_at)) or
/// not applicable, never a silent success.
pub struct DomainStates<D: Domain, S = ByKernel> {
    domain: Arc<D>,
    states: Vec<D::State>,
    stepping: S,
}

/// The states of a batch of episodes of any [`Domain`], each stepped in place with
/// [`Domain::step_in_place`] (by default [`Domain::step`]) and its observation written
/// flattened straight into its row of the caller's buffer with
/// [`Domain::observe_flat_into`] (by default [`Domain::observe`], then flattened), restarted
/// with [`Domain::initial_state_into`], and its info
/// ([`TransitionOutcome::info`](crate::TransitionOutcome::info)) written into the caller's
/// slot: the [`BatchStates`] that a registration without a kernel of its own gives a vector
/// built by id
/// ([`RegisteredDomain::batch_states`](crate::registry::RegisteredDomain::batch_states)), so
/// that registering a domain is all it takes to be batched. [`BatchStep`] is written only for
/// structure-of-arrays kernels ([`BlockStep`](crate::BlockStep)).
///
/// Each episode draws from its own generator exactly what a
/// [`Simulator`](crate::Simulator) of the domain draws, so a vector of these states gives,
/// bit for bit, what copies of `Simulator::new(domain, seed + i)` give, infos included. The
/// episodes marked discarded in [`step_with_infos`](BatchStates::step_with_infos) (those a
/// vector resets instead) are not stepped at all, as a simulator whose episode ended is not.
/// Stepping allocates nothing when the domain's `step_in_place` and `observe_flat_into`
/// allocate nothing (by default: a state and an observation of plain values; a domain whose
/// state or observation owns memory overrides them, as MiniGrid does) and its info holds at
/// most one inline entry ([`Info::insert_static`]).
///
/// ```
/// use std::sync::Arc;
/// use rand::SeedableRng;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_core::{BatchStates, Environment, Info, Mode, NumpyGenerator, Simulator, SteppedStates};
///
/// let corridor = Corridor::new(4, 0.2)?;
/// let mut batch = SteppedStates::new(Arc::new(corridor.clone()), 2);
/// let mut rngs = vec![NumpyGenerator::seed_from_u64(7), NumpyGenerator::seed_from_u64(8)];
/// let mut observations = [0.0f32; 8]; // Discrete(4) flattens one-hot: rows of 4
/// for (i, rng) in rngs.iter_mut().enumerate() {
///     batch.reset_at(i, Mode::Training, rng, &mut observations[i * 4..(i + 1) * 4])?;
/// }
/// let (mut rewards, mut terminated, mut infos) = ([0.0; 2], [false; 2], [Info::new(), Info::new()]);
/// batch.step_with_infos(
///     &[RIGHT, RIGHT], &[false, false], Mode::Training, &mut rngs,
///     &mut rewards, &mut terminated, &mut observations, &mut infos,
/// ).map_err(|(_, error)| error)?;
/// // The same as a simulator seeded alike.
/// let mut simulator = Simulator::new(corridor, 8);
/// simulator.reset(Mode::Training)?;
/// let outcome = simulator.step(&RIGHT)?;
/// assert_eq!(observations[4 + outcome.observation as usize], 1.0);
/// assert_eq!(rewards[1].to_bits(), outcome.reward().to_bits());
/// # Ok::<(), rl_core::CoreError>(())
/// ```
pub type SteppedStates<D> = DomainStates<D, ByStep<D>>;

/// How a [`DomainStates`] steps: [`ByKernel`] or [`ByStep`] (sealed: these two are the only
/// ones).
pub trait Stepping<D: Domain>: Send + sealed::Sealed {
    /// Whether [`step`](Self::step) writes the steps' infos of `domain`
    /// ([`BatchStates::reports_infos`]).
    fn reports_infos(&self, domain: &D) -> bool;

    /// The layout of the observation rows.
    fn layout(&self) -> RowLayout;

    /// Takes note that episode `i` was just reset into `state`.
    fn reset(&mut self, i: usize, state: &D::State);

    /// Steps `states` with `actions` and their generators and writes the results (rewards,
    /// termination flags and observation rows, [`Outputs`]) at their indices, as
    /// [`BatchStates::step_with_infos`] does; with `discarded` and `infos` absent, every state
    /// is stepped and no info written.
    ///
    /// # Panics
    ///
    /// When a slice's length is not the batch's (a bug of the caller), with the lengths.
    #[allow(clippy::too_many_arguments)]
    fn step<T: FlatScalar>(
        &mut self,
        domain: &D,
        states: &mut [D::State],
        actions: &[D::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        outputs: Outputs<'_, T>,
        discarded: Option<&[bool]>,
        infos: Option<&mut [Info]>,
    ) -> Result<(), (usize, CoreError)>
    where
        D::ObservationSpace: FlattenSpace;
}

/// The slices a batch step writes, one entry (or row) per state: the rewards, the termination
/// flags and the observation rows.
pub type Outputs<'a, T> = (&'a mut [f64], &'a mut [bool], &'a mut [T]);

/// A [`Stepping`] that lends each part of its batch a stepping of its own
/// ([`SplitStates::with_parts`]): [`ByKernel`] (a scratch space for each part) and [`ByStep`]
/// (each part's constraint memories). Sealed.
pub trait SplitStepping<D: Domain>: Stepping<D> {
    /// The stepping of one part.
    type Part<'a>: Stepping<D>
    where
        Self: 'a;

    /// The steppings of the parts `ranges` of a batch of `domain` (checked by the caller:
    /// contiguous, in order, at most [`MAX_PARTS`](crate::MAX_PARTS)), pushed in order onto
    /// `out`. Allocates only the first time it is asked for more parts than before.
    fn parts<'a>(
        &'a mut self,
        domain: &D,
        ranges: &[Range<usize>],
        out: &mut Parts<Self::Part<'a>>,
    );
}

mod sealed {
    /// Keeps [`Stepping`](super::Stepping) to the ways this module implements.
    pub trait Sealed {}
    impl Sealed for super::ByKernel {}
    impl<D: crate::Domain> Sealed for super::ByStep<D> {}
    impl Sealed for super::KernelPart<'_> {}
    impl<D: crate::Domain> Sealed for super::StepPart<'_, D> {}
}

/// Stepping by the domain's structure-of-arrays kernel ([`BatchStep::step_batch_with`]), which
/// steps every state (a discarded one too: its contract allows any state), then writes their
/// infos where the kernel writes them ([`BatchStep::write_infos`]; a kernel that writes none
/// pays nothing for them). It keeps the kernel's scratch space between steps, one for each
/// part the batch is cut into ([`SplitStates::with_parts`]).
#[derive(Debug, Clone, Default)]
pub struct ByKernel {
    scratches: Vec<KernelScratch>,
}

impl ByKernel {
    /// Keeps at least `count` scratch spaces, each made for `domain`'s kernel
    /// ([`BatchStep::prepare_scratch`]) as it is added.
    fn keep_scratches<D: BatchStep>(&mut self, domain: &D, count: usize) {
        while self.scratches.len() < count {
            let mut scratch = KernelScratch::default();
            domain.prepare_scratch(&mut scratch);
            self.scratches.push(scratch);
        }
    }
}

/// The stepping of one part of a [`ByKernel`] batch: the part's scratch space.
#[derive(Debug)]
pub struct KernelPart<'a>(&'a mut KernelScratch);

/// Steps `states` by `domain`'s kernel with `scratch`, then writes their infos where the
/// kernel writes them.
#[allow(clippy::too_many_arguments)]
#[inline]
fn step_kernel<D: BatchStep, T: FlatScalar>(
    domain: &D,
    scratch: &mut KernelScratch,
    states: &mut [D::State],
    actions: &[D::Action],
    mode: Mode,
    rngs: &mut [NumpyGenerator],
    (rewards, terminated, observations): Outputs<'_, T>,
    infos: Option<&mut [Info]>,
) {
    domain.step_batch_with(
        scratch,
        states,
        actions,
        mode,
        rngs,
        rewards,
        terminated,
        observations,
    );
    if let Some(infos) = infos
        && domain.writes_infos()
    {
        assert_eq!(infos.len(), states.len(), "one info per state");
        domain.write_infos(states, actions, infos);
    }
}

impl<D: BatchStep> Stepping<D> for ByKernel {
    #[inline]
    fn reports_infos(&self, domain: &D) -> bool {
        domain.writes_infos()
    }

    fn layout(&self) -> RowLayout {
        RowLayout::Flat
    }

    fn reset(&mut self, _: usize, _: &D::State) {}

    #[inline]
    fn step<T: FlatScalar>(
        &mut self,
        domain: &D,
        states: &mut [D::State],
        actions: &[D::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        outputs: Outputs<'_, T>,
        _: Option<&[bool]>,
        infos: Option<&mut [Info]>,
    ) -> Result<(), (usize, CoreError)> {
        self.keep_scratches(domain, 1);
        let scratch = &mut self.scratches[0];
        step_kernel(domain, scratch, states, actions, mode, rngs, outputs, infos);
        Ok(())
    }
}

impl<D: BatchStep> SplitStepping<D> for ByKernel {
    type Part<'a>
        = KernelPart<'a>
    where
        Self: 'a;

    fn parts<'a>(
        &'a mut self,
        domain: &D,
        ranges: &[Range<usize>],
        out: &mut Parts<KernelPart<'a>>,
    ) {
        self.keep_scratches(domain, ranges.len());
        out.extend(self.scratches.iter_mut().take(ranges.len()).map(KernelPart));
    }
}

impl<D: BatchStep> Stepping<D> for KernelPart<'_> {
    #[inline]
    fn reports_infos(&self, domain: &D) -> bool {
        domain.writes_infos()
    }

    fn layout(&self) -> RowLayout {
        RowLayout::Flat
    }

    fn reset(&mut self, _: usize, _: &D::State) {}

    #[inline]
    fn step<T: FlatScalar>(
        &mut self,
        domain: &D,
        states: &mut [D::State],
        actions: &[D::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        outputs: Outputs<'_, T>,
        _: Option<&[bool]>,
        infos: Option<&mut [Info]>,
    ) -> Result<(), (usize, CoreError)> {
        step_kernel(domain, self.0, states, actions, mode, rngs, outputs, infos);
        Ok(())
    }
}

/// Stepping each state by [`Domain::step_in_place`], with its info, its observation in the
/// chosen layout and, where the batch has them, its declared constraints checked
/// ([`SteppedStates`]).
pub struct ByStep<D: Domain> {
    layout: RowLayout,
    constraints: Option<Constrained<D>>,
}

impl<D: Domain> Default for ByStep<D> {
    /// Flat rows, no constraints.
    fn default() -> Self {
        ByStep {
            layout: RowLayout::Flat,
            constraints: None,
        }
    }
}

impl<D: Domain> Clone for ByStep<D> {
    fn clone(&self) -> Self {
        ByStep {
            layout: self.layout,
            constraints: self.constraints.clone(),
        }
    }
}

impl<D: Domain> fmt::Debug for ByStep<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ByStep")
            .field("layout", &self.layout)
            .field("constrained", &self.constraints.is_some())
            .finish()
    }
}

/// Declared constraints with each episode's memory of its states.
struct Constrained<D: Domain> {
    set: ConstraintSet<D::State, D::Action>,
    memories: Vec<Memory<D::State>>,
}

impl<D: Domain> Clone for Constrained<D> {
    fn clone(&self) -> Self {
        Constrained {
            set: self.set.clone(),
            memories: self.memories.clone(),
        }
    }
}

/// Puts `info` into `slot`, skipping the write (and the drop of the old one) when both are
/// empty, as a vector's copies of an environment write their infos.
#[inline]
fn put(slot: &mut Info, info: Info) {
    if !(info.is_empty() && slot.is_empty()) {
        *slot = info;
    }
}

/// The stepping of one part of a [`ByStep`] batch: the layout, and the constraints with the
/// part's memories.
pub struct StepPart<'a, D: Domain> {
    layout: RowLayout,
    constraints: Option<Constraints<'a, D>>,
}

/// A batch's constraints with the memories of some of its episodes.
type Constraints<'a, D> = (
    &'a ConstraintSet<<D as Domain>::State, <D as Domain>::Action>,
    &'a mut [Memory<<D as Domain>::State>],
);

impl<D: Domain> fmt::Debug for StepPart<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StepPart")
            .field("layout", &self.layout)
            .field("constrained", &self.constraints.is_some())
            .finish()
    }
}

impl<D: Domain> ByStep<D> {
    /// The whole batch as one part.
    fn whole(&mut self) -> StepPart<'_, D> {
        StepPart {
            layout: self.layout,
            constraints: self
                .constraints
                .as_mut()
                .map(|constrained| (&constrained.set, &mut constrained.memories[..])),
        }
    }
}

/// Steps each state of `states` by `domain`'s step in place, as [`Stepping::step`] says.
#[allow(clippy::too_many_arguments)]
fn step_each<D: Domain, T: FlatScalar>(
    domain: &D,
    layout: RowLayout,
    mut constraints: Option<Constraints<'_, D>>,
    states: &mut [D::State],
    actions: &[D::Action],
    mode: Mode,
    rngs: &mut [NumpyGenerator],
    (rewards, terminated, observations): Outputs<'_, T>,
    discarded: Option<&[bool]>,
    mut infos: Option<&mut [Info]>,
) -> Result<(), (usize, CoreError)>
where
    D::ObservationSpace: FlattenSpace,
{
    let dim = domain.observation_space().row_dim(layout);
    let len = states.len();
    check_batch_lengths(
        len,
        actions.len(),
        Some(rngs.len()),
        rewards.len(),
        terminated.len(),
        observations.len(),
        dim,
    );
    let (discarded_len, infos_len) = (
        discarded.map_or(len, <[bool]>::len),
        infos.as_ref().map_or(len, |infos| infos.len()),
    );
    assert!(
        discarded_len == len && infos_len == len,
        "a batch step needs slices of one length: {len} states, {discarded_len} discarded \
             flags and {infos_len} infos"
    );
    for (i, (state, action)) in states.iter_mut().zip(actions).enumerate() {
        if discarded.is_some_and(|discarded| discarded[i]) {
            continue;
        }
        // The last info goes first: its memory returns to `Info`'s pool before the step
        // takes some for the new one, so that stepping needs no more lists than the
        // environments hold, however the threads interleave.
        if let Some(infos) = infos.as_deref_mut()
            && !infos[i].is_empty()
        {
            infos[i] = Info::new();
        }
        let outcome = domain.step_in_place(state, action, mode, &mut rngs[i]);
        if let Some(infos) = infos.as_deref_mut() {
            put(&mut infos[i], outcome.info);
        }
        if let Some((set, memories)) = constraints.as_mut() {
            let violations = set.check(&mut memories[i], action, state);
            if let Some(infos) = infos.as_deref_mut() {
                set.write_info(violations, &mut infos[i]);
            }
        }
        rewards[i] = outcome.value.reward();
        terminated[i] = outcome.terminated;
        let row = &mut observations[i * dim..(i + 1) * dim];
        domain
            .observe_row_into(state, layout, row)
            .map_err(|error| (i, error.into()))?;
    }
    Ok(())
}

impl<D> Stepping<D> for ByStep<D>
where
    D: Domain,
    D::State: Send,
    D::Action: Send,
{
    #[inline]
    fn reports_infos(&self, _: &D) -> bool {
        true
    }

    fn layout(&self) -> RowLayout {
        self.layout
    }

    fn reset(&mut self, i: usize, state: &D::State) {
        self.whole().reset(i, state);
    }

    fn step<T: FlatScalar>(
        &mut self,
        domain: &D,
        states: &mut [D::State],
        actions: &[D::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        outputs: Outputs<'_, T>,
        discarded: Option<&[bool]>,
        infos: Option<&mut [Info]>,
    ) -> Result<(), (usize, CoreError)>
    where
        D::ObservationSpace: FlattenSpace,
    {
        self.whole().step(
            domain, states, actions, mode, rngs, outputs, discarded, infos,
        )
    }
}

impl<D> SplitStepping<D> for ByStep<D>
where
    D: Domain,
    D::State: Send,
    D::Action: Send,
{
    type Part<'a>
        = StepPart<'a, D>
    where
        Self: 'a;

    fn parts<'a>(&'a mut self, _: &D, ranges: &[Range<usize>], out: &mut Parts<StepPart<'a, D>>) {
        let layout = self.layout;
        match self.constraints.as_mut() {
            None => out.extend(ranges.iter().map(|_| StepPart {
                layout,
                constraints: None,
            })),
            Some(Constrained { set, memories }) => {
                let mut rest = &mut memories[..];
                for range in ranges {
                    let (part, tail) = std::mem::take(&mut rest).split_at_mut(range.len());
                    rest = tail;
                    out.push(StepPart {
                        layout,
                        constraints: Some((&*set, part)),
                    });
                }
            }
        }
    }
}

impl<D> Stepping<D> for StepPart<'_, D>
where
    D: Domain,
    D::State: Send,
    D::Action: Send,
{
    #[inline]
    fn reports_infos(&self, _: &D) -> bool {
        true
    }

    fn layout(&self) -> RowLayout {
        self.layout
    }

    fn reset(&mut self, i: usize, state: &D::State) {
        if let Some((_, memories)) = self.constraints.as_mut() {
            let memory = &mut memories[i];
            memory.clear();
            memory.push(state.clone());
        }
    }

    fn step<T: FlatScalar>(
        &mut self,
        domain: &D,
        states: &mut [D::State],
        actions: &[D::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        outputs: Outputs<'_, T>,
        discarded: Option<&[bool]>,
        infos: Option<&mut [Info]>,
    ) -> Result<(), (usize, CoreError)>
    where
        D::ObservationSpace: FlattenSpace,
    {
        let constraints = self
            .constraints
            .as_mut()
            .map(|(set, memories)| (*set, &mut **memories));
        step_each(
            domain,
            self.layout,
            constraints,
            states,
            actions,
            mode,
            rngs,
            outputs,
            discarded,
            infos,
        )
    }
}

impl<D: Domain, S: Default> DomainStates<D, S> {
    /// `len` states of `domain`, each a placeholder initial state (drawn in training mode from
    /// a generator seeded with 0) until its first reset.
    pub fn new(domain: Arc<D>, len: usize) -> Self {
        let placeholder =
            domain.initial_state(Mode::Training, &mut NumpyGenerator::seed_from_u64(0));
        DomainStates {
            states: vec![placeholder; len],
            domain,
            stepping: S::default(),
        }
    }
}

impl<D: Domain, S> DomainStates<D, S> {
    /// The domain.
    pub fn domain(&self) -> &D {
        &self.domain
    }

    /// The current state of every episode, in order.
    pub fn states(&self) -> &[D::State] {
        &self.states
    }
}

impl<D: Domain> SteppedStates<D> {
    /// The same states, their observations written in `layout`
    /// ([`Domain::observe_row_into`]) rather than flattened: rows of the observation space's
    /// [`row_dim`](FlattenSpace::row_dim) for `layout`.
    pub fn with_layout(mut self, layout: RowLayout) -> Self {
        self.stepping.layout = layout;
        self
    }

    /// The same states, each episode's steps also checked against `constraints` as a
    /// [`Simulator::with_constraint_set`](crate::Simulator::with_constraint_set) checks them;
    /// a step that violates some lists their names in its info under
    /// [`VIOLATIONS_INFO_KEY`](crate::VIOLATIONS_INFO_KEY) (what a vector built by id from a
    /// registration with constraints steps). The states' memories are kept from
    /// [`step`](BatchStates::step) too, whose infos are dropped. Checking allocates nothing
    /// once each memory is full (for plain-value states); a violating step's info entry, a
    /// list of names, is one allocation, on violating steps only.
    pub fn with_constraints(mut self, constraints: ConstraintSet<D::State, D::Action>) -> Self {
        let memories = self.states.iter().map(|_| constraints.memory()).collect();
        self.stepping.constraints = Some(Constrained {
            set: constraints,
            memories,
        });
        self
    }
}

impl<D: Domain + fmt::Debug, S: fmt::Debug> fmt::Debug for DomainStates<D, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DomainStates")
            .field("domain", &self.domain)
            .field("states", &self.states)
            .field("stepping", &self.stepping)
            .finish()
    }
}

impl<D: Domain, S: Clone> Clone for DomainStates<D, S> {
    fn clone(&self) -> Self {
        DomainStates {
            domain: Arc::clone(&self.domain),
            states: self.states.clone(),
            stepping: self.stepping.clone(),
        }
    }
}

/// A part of a [`DomainStates`] ([`SplitStates::with_parts`]): the domain, the states of the
/// part's episodes and their stepping; a batch of its own, indexed from the part's start.
struct StatesPart<'a, D: Domain, P> {
    domain: &'a D,
    states: &'a mut [D::State],
    stepping: P,
}

/// Implements [`BatchStates`] for [`DomainStates`] and [`StatesPart`] with one body: the
/// fields are the same but for owning or borrowing (`Arc<D>` or `&D`, `Vec` or slice of
/// states), which the methods read alike.
macro_rules! domain_batch_states {
    ($ty:ty, $stepping:ident, [$($generics:tt)*]) => {
        impl<$($generics)*, T> BatchStates<T> for $ty
        where
            D: Domain + Send + Sync,
            D::State: Send + 'static,
            D::Action: Send + Sync,
            D::ObservationSpace: FlattenSpace,
            $stepping: Stepping<D>,
            T: FlatScalar,
        {
    type Action = D::Action;
    type ActionSpace = D::ActionSpace;

    fn action_space(&self) -> &D::ActionSpace {
        self.domain.action_space()
    }

    fn episode_cap(&self) -> Option<u64> {
        self.domain.episode_cap()
    }

    fn has_episode_time_limits(&self) -> bool {
        self.domain.has_episode_time_limits()
    }

    fn time_limit_reached(&self, i: usize) -> bool {
        self.states
            .get(i)
            .is_some_and(|state| self.domain.time_limit_reached(state))
    }

    fn len(&self) -> usize {
        self.states.len()
    }

    fn reset_at(
        &mut self,
        i: usize,
        mode: Mode,
        rng: &mut NumpyGenerator,
        observation: &mut [T],
    ) -> Result<(), CoreError> {
        let len = self.states.len();
        let Some(state) = self.states.get_mut(i) else {
            return Err(CoreError::invalid_parameter(
                "i",
                format!("episode {i} of a batch of {len}"),
            ));
        };
        self.domain.initial_state_into(state, mode, rng);
        self.domain
            .observe_row_into(state, self.stepping.layout(), observation)?;
        self.stepping.reset(i, state);
        Ok(())
    }

    fn reset_info(&self, i: usize) -> Info {
        self.states
            .get(i)
            .map_or_else(Info::new, |state| self.domain.reset_info(state))
    }

    /// Steps every state, writing no info.
    #[inline]
    fn step(
        &mut self,
        actions: &[D::Action],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) -> Result<(), (usize, CoreError)> {
        let outputs = (rewards, terminated, observations);
        self.stepping.step(
            &self.domain, &mut self.states, actions, mode, rngs, outputs, None, None,
        )
    }

    #[inline]
    fn step_with_infos(
        &mut self,
        actions: &[D::Action],
        discarded: &[bool],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
        infos: &mut [Info],
    ) -> Result<(), (usize, CoreError)> {
        let outputs = (rewards, terminated, observations);
        self.stepping.step(
            &self.domain,
            &mut self.states,
            actions,
            mode,
            rngs,
            outputs,
            Some(discarded),
            Some(infos),
        )
    }

    fn reports_infos(&self) -> bool {
        self.stepping.reports_infos(&self.domain)
    }

    fn costly_steps(&self) -> bool {
        self.domain.costly_steps()
    }

    fn episode_bytes(&self) -> usize {
        std::mem::size_of::<D::State>() + self.domain.state_heap_bytes()
    }

    fn is_applicable(&self, i: usize, action: &D::Action) -> bool {
        self.states
            .get(i)
            .is_some_and(|state| self.domain.is_applicable(state, action))
    }

    fn state_any(&self, i: usize) -> Option<&dyn Any> {
        self.states.get(i).map(|state| state as &dyn Any)
    }

    fn action_mask_into(&self, i: usize, mask: &mut [bool]) -> bool {
        self.states
            .get(i)
            .is_some_and(|state| self.domain.action_mask_into(state, mask))
    }

    fn accepts_action(&self, action: &D::Action) -> bool {
        self.domain.accepts_action(action)
    }
}
    };
}

domain_batch_states!(DomainStates<D, S>, S, [D, S]);
domain_batch_states!(StatesPart<'a, D, P>, P, ['a, D, P]);

impl<D, S, T> SplitStates<T> for DomainStates<D, S>
where
    D: Domain + Send + Sync,
    D::State: Send + 'static,
    D::Action: Send + Sync,
    D::ObservationSpace: FlattenSpace,
    S: SplitStepping<D>,
    T: FlatScalar,
{
    fn with_parts(
        &mut self,
        ranges: &[Range<usize>],
        run: &mut RunParts<'_, T, D::Action, D::ActionSpace>,
    ) {
        check_parts(ranges, self.states.len());
        let mut steppings = Parts::new();
        self.stepping.parts(&self.domain, ranges, &mut steppings);
        let domain = &*self.domain;
        let mut rest = &mut self.states[..];
        let mut parts: Parts<StatesPart<'_, D, S::Part<'_>>> = Parts::new();
        for (range, stepping) in ranges.iter().zip(steppings) {
            let (states, tail) = std::mem::take(&mut rest).split_at_mut(range.len());
            rest = tail;
            parts.push(StatesPart {
                domain,
                states,
                stepping,
            });
        }
        let mut lent: Parts<&mut PartStates<'_, T, D::Action, D::ActionSpace>> = parts
            .iter_mut()
            .map(|part| part as &mut PartStates<'_, T, D::Action, D::ActionSpace>)
            .collect();
        run(&mut lent);
    }
}
