//! [`Batch`]: the storage every vector environment steps (the episodes of a vector with their
//! generators, step counts and autoreset bookkeeping), the [`BatchPart`]s it lends its threads
//! (one range of episodes each) and the [`Command`]s they run.

use std::any::Any;
use std::fmt;
use std::num::NonZeroU64;
use std::ops::Range;

use rand::SeedableRng;
use rl_core::{CoreError, Mode, NumpyGenerator, PartStates, Seed, SplitStates};
use rl_spaces::{FiniteSpace, FlatScalar};

use crate::vector::Autoreset;
use crate::vector::outputs::Rows;

/// An environment of the batch failed: its global index and the error.
pub(crate) type Failure = (usize, CoreError);

/// The episodes of a vector environment: any [`SplitStates`] ([`DomainStates`], a domain's
/// [`BatchStep`](rl_core::BatchStep) kernel or its step state by state; [`BoxedBatchStates`]
/// for a domain built by id; [`EnvironmentStates`](crate::vector::EnvironmentStates), copies of
/// an environment), with a `NumpyGenerator` and a step count per episode. The one storage of
/// every vector ([`VectorEnvironment`](crate::vector::VectorEnvironment), and each environment
/// of an [`AsyncVector`](crate::vector::AsyncVector)), however built: its steps and resets run
/// on [`BatchPart`]s, the whole batch as one part, or one part per range of episodes that a
/// thread steps ([`with_parts`](Batch::with_parts)).
///
/// It does what a [`Simulator`](rl_core::Simulator) does for each episode, for the whole batch
/// at once: environment `i`'s generator is `NumpyGenerator::seed_from_u64(seed + i)`,
/// resets draw [`Domain::initial_state`](rl_core::Domain::initial_state) from it, and an
/// episode is truncated when its step count reaches
/// [`Domain::episode_cap`](rl_core::Domain::episode_cap) (or its own time limit says so). So a
/// batch gives, bit for bit, what copies of `Simulator::new(domain, seed + i)` give, the
/// steps' infos included (in `infos`, and in `final_infos` with same-step autoreset), where
/// the states report them, and the resets' infos
/// ([`Domain::reset_info`](rl_core::Domain::reset_info)) in `infos` as Gymnasium's
/// `SyncVectorEnv` reports them: every environment's after a reset of the vector, an
/// autoreset environment's in the step's `infos` (next-step autoreset: in place of a step's
/// info; same-step: beside the ended step's info in `final_infos`).
///
/// [`DomainStates`]: rl_core::DomainStates
/// [`BoxedBatchStates`]: rl_core::BoxedBatchStates
pub(crate) struct Batch<S: SplitStates<T>, T: FlatScalar> {
    states: S,
    generators: Vec<NumpyGenerator>,
    /// The generators of the episodes in `pending`, saved before a step (same order).
    saved_generators: Vec<NumpyGenerator>,
    steps: Vec<u64>,
    /// At least the largest of `steps` (an upper bound, made exact whenever it reaches the
    /// episode cap), so that a step can tell without looking at every count that no episode
    /// reaches the cap.
    longest: u64,
    /// Whether each episode ended (and waits for its reset): the `i` with `ended[i]` set
    /// before a step are the episodes that next-step autoreset resets on it.
    ended: Vec<bool>,
    /// In its first `pending_count` entries, the indices of the episodes that ended and are
    /// reset on the next step (next-step autoreset), in increasing order: exactly the `i`
    /// with `ended[i]` after each call. Of the batch's length, so that filling it never
    /// allocates.
    pending: Vec<usize>,
    pending_count: usize,
    /// Whether `pending` may be wrong (a call that did not finish: a panic), so that the next
    /// call lists the ended episodes again.
    pending_stale: bool,
    /// The lists each part of a call fills (in its own range: the episodes ending on a step,
    /// then those still ended), of the batch's length.
    ending: Vec<usize>,
    /// How many entries each part of the last call left in its range of `ending`.
    kept: Vec<usize>,
    episode_cap: Option<NonZeroU64>,
    /// The global index (in the vector environment) of the first episode.
    first: usize,
    /// For a finite action space of at most 64 actions, how to compute an episode's mask as
    /// bits ([`mask_bits`]), set by the first [`action_mask`](Batch::action_mask)
    /// call: from then on, each same-step autoreset keeps the mask of the state the episode
    /// ended in (`final_masks`), before the reset replaces that state. A batch whose masks
    /// nobody reads pays nothing.
    mask_bits: std::sync::OnceLock<MaskBits<S, T>>,
    /// Per episode, bit `k` set where action `k` of `mask_actions` was applicable in the
    /// state its episode last ended in (same-step autoreset).
    final_masks: Vec<u64>,
    marker: std::marker::PhantomData<fn() -> T>,
}

impl<S: SplitStates<T>, T: FlatScalar> Batch<S, T> {
    /// The episodes of `states` (global indices from `first` on) of a vector environment.
    pub(crate) fn new(states: S, first: usize) -> Self {
        let len = states.len();
        let generator = NumpyGenerator::seed_from_u64(0);
        Batch {
            episode_cap: states.episode_cap().and_then(NonZeroU64::new),
            states,
            generators: vec![generator.clone(); len],
            saved_generators: vec![generator; len],
            steps: vec![0; len],
            longest: 0,
            ended: vec![false; len],
            pending: vec![0; len],
            pending_count: 0,
            pending_stale: false,
            ending: vec![0; len],
            // A part holds one episode at least: never more parts than episodes.
            kept: vec![0; len.min(rl_core::MAX_PARTS)],
            first,
            mask_bits: std::sync::OnceLock::new(),
            final_masks: vec![0; len],
            marker: std::marker::PhantomData,
        }
    }
}

impl<S: SplitStates<T>, T: FlatScalar> Batch<S, T> {
    /// The states.
    pub(crate) fn states(&self) -> &S {
        &self.states
    }
}

/// The bytes a batch keeps per episode beyond its states (see
/// [`BatchStates::episode_bytes`]): two generators, the step count, the `ended` flag and two
/// index lists.
pub(crate) const BOOKKEEPING_BYTES: usize = 2 * std::mem::size_of::<NumpyGenerator>()
    + std::mem::size_of::<u64>()
    + std::mem::size_of::<bool>()
    + 2 * std::mem::size_of::<usize>();

/// A part of a batch's states, as [`SplitStates::with_parts`] lends it.
pub(crate) type PartOf<'a, S, T> = PartStates<
    'a,
    T,
    <S as rl_core::BatchStates<T>>::Action,
    <S as rl_core::BatchStates<T>>::ActionSpace,
>;

/// How an episode's action mask is computed as bits ([`mask_bits`]), for the states of a part.
type MaskBits<S, T> = for<'a, 'b> fn(&'a PartOf<'b, S, T>, usize) -> u64;

/// Resets episode `i` of a part: a new initial state from its generator, its observation in
/// row `i`, its step count 0 and its `ended` flag false. The caller then writes its reset
/// info ([`put_reset_info`]). (A function of the columns rather than a method, so that the
/// step can call it while it reads `pending`.)
fn reset_at<S: SplitStates<T>, T: FlatScalar>(
    states: &mut PartOf<'_, S, T>,
    generators: &mut [NumpyGenerator],
    steps: &mut [u64],
    ended: &mut [bool],
    i: usize,
    mode: Mode,
    rows: &mut Rows<'_, T>,
) -> Result<(), CoreError> {
    states.reset_at(i, mode, &mut generators[i], rows.observation(i))?;
    steps[i] = 0;
    ended[i] = false;
    Ok(())
}

/// Writes the info of episode `i`'s reset (just done) into its info slot, as Gymnasium's
/// vectors report a reset's info (at a reset of the vector, and in the step's `info` for an
/// autoreset: next-step, or same-step beside the final info), where the batch reports infos
/// (`reports_infos`, asked once per call); empty otherwise.
fn put_reset_info<S: SplitStates<T>, T: FlatScalar>(
    states: &PartOf<'_, S, T>,
    reports_infos: bool,
    i: usize,
    rows: &mut Rows<'_, T>,
) {
    if reports_infos {
        rows.put_info(i, states.reset_info(i));
    }
}

/// The action mask of episode `i` of `states` as bits, bit `k` set where the `k`-th action of
/// the finite action space (at most 64) is applicable.
fn mask_bits<S, T>(states: &PartOf<'_, S, T>, i: usize) -> u64
where
    S: SplitStates<T>,
    S::ActionSpace: FiniteSpace,
    T: FlatScalar,
{
    let space = states.action_space();
    (0..64)
        .map_while(|k| space.element_at(k).map(|action| (k, action)))
        .filter(|(_, action)| states.is_applicable(i, action))
        .fold(0, |bits, (k, _)| bits | 1 << k)
}

impl<S: SplitStates<T>, T: FlatScalar> fmt::Debug for Batch<S, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Batch")
            .field("first", &self.first)
            .field("len", &self.steps.len())
            .field("steps", &self.steps)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl<S, T> Batch<S, T>
where
    S: SplitStates<T>,
    T: FlatScalar,
{
    /// The number of episodes.
    pub(crate) fn len(&self) -> usize {
        self.steps.len()
    }

    /// The global index (in the vector environment) of the first episode.
    pub(crate) fn first(&self) -> usize {
        self.first
    }

    /// The action space every episode shares.
    pub(crate) fn action_space(&self) -> &S::ActionSpace {
        self.states.action_space()
    }

    /// Whether the episodes step with `action` rather than refusing it: the actions of the
    /// action space, and any more the domain accepts (`Domain::accepts_action`).
    pub(crate) fn accepts_action(&self, action: &S::Action) -> bool {
        self.states.accepts_action(action)
    }

    /// Writes the action mask of episode `i` into `row`, one entry per action of the finite
    /// action space.
    pub(crate) fn action_mask(&self, i: usize, row: &mut [bool]) -> Result<(), CoreError>
    where
        S::ActionSpace: FiniteSpace,
    {
        // The states answer "not applicable" for an index out of range: the callers' indices
        // are the batch's own, and another is a bug.
        assert!(i < self.steps.len(), "episode {i} of {}", self.steps.len());
        // From the first mask asked for on, same-step autoresets keep the masks of ended
        // episodes, however this one is computed.
        let space = self.states.action_space();
        if space.cardinality().is_some_and(|actions| actions <= 64) {
            self.mask_bits.get_or_init(|| mask_bits::<S, T>);
        }
        // The whole mask in one pass where the batch writes it (Taxi's), else action by action.
        if self.states.action_mask_into(i, row) {
            return Ok(());
        }
        for (index, allowed) in row.iter_mut().enumerate() {
            *allowed = space
                .element_at(index)
                .is_some_and(|action| self.states.is_applicable(i, &action));
        }
        Ok(())
    }

    /// The mask kept at the last same-step autoreset of episode `i`: kept once masks were
    /// asked for ([`action_mask`](Self::action_mask)) with at most 64 actions.
    pub(crate) fn final_action_mask(&self, i: usize, row: &mut [bool]) -> Result<(), CoreError>
    where
        S::ActionSpace: FiniteSpace,
    {
        if self.mask_bits.get().is_none() {
            return Err(CoreError::Unsupported {
                operation: "final action masks (ask for action masks first, with at most 64 actions)",
            });
        }
        let bits = self.final_masks[i];
        for (k, allowed) in row.iter_mut().enumerate() {
            *allowed = k < 64 && bits >> k & 1 == 1;
        }
        Ok(())
    }

    /// Whether the episodes may report infos: false where the states know they are always
    /// empty (a structure-of-arrays kernel's).
    pub(crate) fn reports_infos(&self) -> bool {
        self.states.reports_infos()
    }

    /// Episode `i`'s current state, where the states hand it out.
    pub(crate) fn state_any(&self, i: usize) -> Option<&dyn Any> {
        self.states.state_any(i)
    }

    /// Whether every episode can take its entry of `seeds` (a [`Command::CheckSeeds`], run
    /// before a [`Command::Seed`] so that a seed one episode refuses reseeds none), changing
    /// nothing.
    pub(crate) fn check_seeds(&mut self, seeds: &[Option<Seed>]) -> Result<(), Failure> {
        assert_eq!(seeds.len(), self.generators.len(), "one seed entry each");
        for (i, seed) in seeds.iter().enumerate() {
            if let Some(seed) = seed {
                self.states
                    .check_seed_at(i, seed)
                    .map_err(|error| (self.first + i, error))?;
            }
        }
        Ok(())
    }

    /// Sets each seeded episode's generator, and seeds the episode itself where it draws from
    /// a generator of its own ([`BatchStates::seed_at`](rl_core::BatchStates::seed_at)).
    pub(crate) fn seed(&mut self, seeds: &[Option<Seed>]) -> Result<(), Failure> {
        assert_eq!(seeds.len(), self.generators.len(), "one seed entry each");
        for (i, (generator, seed)) in self.generators.iter_mut().zip(seeds).enumerate() {
            if let Some(seed) = seed {
                *generator = seed.generator();
                self.states
                    .seed_at(i, seed)
                    .map_err(|error| (self.first + i, error))?;
            }
        }
        Ok(())
    }

    /// Runs `command` on the whole batch, on this thread, with `actions` for a step, `seeds`
    /// for a seeding and `selected` for a reset of selected environments (the batch's
    /// entries of each).
    pub(crate) fn execute(
        &mut self,
        command: Command,
        actions: &[S::Action],
        seeds: &[Option<Seed>],
        selected: &[bool],
        rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        match command {
            Command::CheckSeeds => self.check_seeds(seeds),
            Command::Seed => self.seed(seeds),
            Command::Reset { .. } | Command::Step { .. } => {
                let whole = 0..self.len();
                self.with_parts(std::slice::from_ref(&whole), |lent| {
                    let [states] = lent.states else {
                        unreachable!("one range, one part")
                    };
                    let mut part = BatchPart::new(&mut **states, lent.columns, lent.shared, 0);
                    let result = part.execute(command, actions, selected, rows);
                    lent.kept[0] = part.kept();
                    (result, Some(part.longest()))
                })
            }
        }
    }

    /// Lends the batch for one call in the parts `ranges` names (contiguous, in order,
    /// covering every episode, at most [`MAX_PARTS`](rl_core::MAX_PARTS)): `run` gets the
    /// parts of the states ([`SplitStates::with_parts`]), the whole columns and what every
    /// part shares ([`Lent`]), makes the [`BatchPart`] of each range ([`BatchPart::new`]: one
    /// thread each, on the thread that steps it), writes each part's [`BatchPart::kept`] in
    /// `Lent::kept`, and returns its result with the largest of the parts' step counts
    /// ([`BatchPart::longest`]), or `None` when the parts did not all finish (a panic, or
    /// nothing run). Seeds stay with the whole batch.
    pub(crate) fn with_parts<R>(
        &mut self,
        ranges: &[Range<usize>],
        run: impl FnOnce(Lent<'_, '_, '_, S, T>) -> (R, Option<u64>),
    ) -> R {
        if self.pending_stale {
            self.pending_count = list_ended(&self.ended, &mut self.pending);
            self.pending_stale = false;
        }
        let Batch {
            states,
            generators,
            saved_generators,
            steps,
            longest,
            ended,
            pending,
            pending_count,
            pending_stale,
            ending,
            kept,
            episode_cap,
            first,
            mask_bits,
            final_masks,
            marker: _,
        } = self;
        // Stale until the parts' lists are gathered below: a panic in `run` leaves it so.
        *pending_stale = true;
        let shared = Shared {
            first: *first,
            longest: *longest,
            episode_cap: *episode_cap,
            mask_bits: mask_bits.get().copied(),
        };
        let mut run = Some(run);
        let mut result = None;
        states.with_parts(ranges, &mut |states| {
            let columns = PartColumns {
                generators: &mut generators[..],
                saved_generators: &mut saved_generators[..],
                steps: &mut steps[..],
                ended: &mut ended[..],
                pending: &pending[..*pending_count],
                ending: &mut ending[..],
                final_masks: &mut final_masks[..],
            };
            let run = run.take().expect("with_parts calls its closure once");
            result = Some(run(Lent {
                states,
                columns,
                kept: &mut kept[..ranges.len()],
                shared,
            }));
        });
        let (result, new_longest) = result.expect("with_parts calls its closure");
        match new_longest {
            Some(new_longest) => {
                *longest = new_longest;
                // The episodes still ended, each part's in its range of `ending`, in order.
                let mut count = 0;
                for (range, kept) in ranges.iter().zip(kept.iter()) {
                    for i in &ending[range.start..range.start + kept] {
                        pending[count] = range.start + i;
                        count += 1;
                    }
                }
                *pending_count = count;
                *pending_stale = false;
            }
            // A bound that holds whatever the parts did.
            None => *longest = u64::MAX,
        }
        result
    }
}

/// What [`Batch::with_parts`] lends for one call.
pub(crate) struct Lent<'a, 'b, 'c, S: SplitStates<T>, T: FlatScalar> {
    /// The parts of the states, one per range, in order.
    pub(crate) states: &'a mut [&'b mut PartOf<'c, S, T>],
    /// The whole columns, to be cut by range ([`PartColumns`]).
    pub(crate) columns: PartColumns<'a>,
    /// Where each part's [`BatchPart::kept`] goes, in order.
    pub(crate) kept: &'a mut [usize],
    /// What every part shares.
    pub(crate) shared: Shared<S, T>,
}

/// What every part of a call shares ([`BatchPart::new`]).
pub(crate) struct Shared<S: SplitStates<T>, T: FlatScalar> {
    /// The global index (in the vector environment) of the batch's first episode.
    first: usize,
    /// At least the largest step count of the batch.
    longest: u64,
    episode_cap: Option<NonZeroU64>,
    mask_bits: Option<MaskBits<S, T>>,
}

impl<S: SplitStates<T>, T: FlatScalar> Clone for Shared<S, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: SplitStates<T>, T: FlatScalar> Copy for Shared<S, T> {}

/// A batch's columns, of one entry per episode: the whole batch's, or one part's.
pub(crate) struct PartColumns<'a> {
    pub(crate) generators: &'a mut [NumpyGenerator],
    /// The generators of the episodes in `pending`, saved before a step (same order).
    pub(crate) saved_generators: &'a mut [NumpyGenerator],
    pub(crate) steps: &'a mut [u64],
    pub(crate) ended: &'a mut [bool],
    /// The indices (in the batch) of the episodes reset on a next-step autoreset, in order:
    /// the whole batch's list, or the part's.
    pub(crate) pending: &'a [usize],
    pub(crate) ending: &'a mut [usize],
    pub(crate) final_masks: &'a mut [u64],
}

/// The episodes of one range of a [`Batch`], lent for one call ([`Batch::with_parts`]): their
/// states and their entries of the batch's columns, indexed from the range's start, made on
/// the thread that steps them (so that a worker reads nothing the calling thread wrote for the
/// call but the call itself and the states' part). It runs the call's command
/// ([`execute`](Self::execute)).
pub(crate) struct BatchPart<'a, 'b, S: SplitStates<T>, T: FlatScalar> {
    states: &'a mut PartOf<'b, S, T>,
    generators: &'a mut [NumpyGenerator],
    /// The generators of the episodes in `pending`, saved before a step (same order).
    saved_generators: &'a mut [NumpyGenerator],
    steps: &'a mut [u64],
    ended: &'a mut [bool],
    /// The indices (in the batch) of this part's episodes that a next-step autoreset resets.
    pending: &'a [usize],
    ending: &'a mut [usize],
    final_masks: &'a mut [u64],
    /// The index in the batch of the first episode.
    start: usize,
    /// The global index (in the vector environment) of the first episode.
    first: usize,
    /// How many episodes are still ended after the call, listed at the start of `ending`.
    kept: usize,
    /// Whether the states report infos and have time limits of their own, asked once.
    reports_infos: bool,
    time_limits: bool,
    /// At least the largest of `steps`: the batch's bound before the call, this part's after.
    longest: u64,
    episode_cap: Option<NonZeroU64>,
    mask_bits: Option<MaskBits<S, T>>,
}

impl<'a, 'b, S: SplitStates<T>, T: FlatScalar> BatchPart<'a, 'b, S, T> {
    /// The part of the episodes from `start` on (within the batch) with `states`, their part
    /// of the states, and `columns`, their entries of the batch's columns.
    pub(crate) fn new(
        states: &'a mut PartOf<'b, S, T>,
        columns: PartColumns<'a>,
        shared: Shared<S, T>,
        start: usize,
    ) -> Self {
        let PartColumns {
            generators,
            saved_generators,
            steps,
            ended,
            pending,
            ending,
            final_masks,
        } = columns;
        let (lo, hi) = (
            pending.partition_point(|&i| i < start),
            pending.partition_point(|&i| i < start + steps.len()),
        );
        BatchPart {
            reports_infos: states.reports_infos(),
            time_limits: states.has_episode_time_limits(),
            states,
            generators,
            saved_generators,
            steps,
            ended,
            pending: &pending[lo..hi],
            ending,
            final_masks,
            start,
            first: shared.first + start,
            kept: 0,
            longest: shared.longest,
            episode_cap: shared.episode_cap,
            mask_bits: shared.mask_bits,
        }
    }

    /// At least the largest step count of the part's episodes (after the call).
    pub(crate) fn longest(&self) -> u64 {
        self.longest
    }

    /// How many of the part's episodes are still ended after the call (listed, in order, as
    /// indices from the part's start, at the start of its range of the batch's `ending`).
    pub(crate) fn kept(&self) -> usize {
        self.kept
    }

    /// Runs `command` (a reset or a step; seeds stay with the whole batch) with `actions` for
    /// a step and `selected` for a reset of selected environments (this part's entries).
    pub(crate) fn execute(
        &mut self,
        command: Command,
        actions: &[S::Action],
        selected: &[bool],
        rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        match command {
            Command::Reset { mode, which } => self.reset(mode, which, selected, rows),
            Command::Step { mode, autoreset } => self.step(actions, mode, autoreset, rows),
            Command::CheckSeeds | Command::Seed => {
                unreachable!("seeds are run on the whole batch (Batch::execute)")
            }
        }
    }

    /// Resets the episodes `which` names in `mode`, writing their first observations;
    /// `selected` holds this part's entries of the selection of [`Resets::Selected`] (empty
    /// otherwise). An episode left as it is keeps its results, its final-observation mask
    /// cleared.
    fn reset(
        &mut self,
        mode: Mode,
        which: Resets,
        selected: &[bool],
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let first = self.first;
        let mut failure = None;
        for i in 0..self.ended.len() {
            if which.skips(i, self.ended[i], selected) {
                rows.final_mask[i] = false;
                continue;
            }
            let reset = reset_at::<S, T>(
                self.states,
                self.generators,
                self.steps,
                self.ended,
                i,
                mode,
                &mut rows,
            );
            match reset {
                Ok(()) => {
                    rows.mark_reset(i);
                    put_reset_info::<S, T>(self.states, self.reports_infos, i, &mut rows);
                }
                Err(e) => failure = failure.or(Some((first + i, e))),
            }
        }
        // Every ended episode was reset (or failed to and stays ended, to be retried).
        self.kept = 0;
        for i in self.pending.iter().map(|&i| i - self.start) {
            if self.ended[i] {
                self.ending[self.kept] = i;
                self.kept += 1;
            }
        }
        failure.map_or(Ok(()), Err)
    }

    /// Steps every episode with the action of the same index, resetting ended episodes as
    /// `autoreset` says.
    fn step(
        &mut self,
        actions: &[S::Action],
        mode: Mode,
        autoreset: Autoreset,
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let first = self.first;
        let generators = &mut *self.generators;
        let all_steps = &mut *self.steps;
        let all_ended = &mut *self.ended;
        // With next-step autoreset, the episodes that ended on the last call (still ended) are
        // reset now, not stepped. The kernel steps every state, so save their generators and
        // restore them afterwards: the discarded step must leave no trace in the random
        // sequence.
        let next_step = autoreset == Autoreset::NextStep;
        let start = self.start;
        let pending = if next_step { self.pending } else { &[] };
        for (saved, i) in self.saved_generators.iter_mut().zip(pending) {
            saved.clone_from(&generators[i - start]);
        }
        // The episodes still ended (the pending ones with next-step autoreset) are reset, not
        // stepped: a batch may leave them alone (`SteppedStates` does; a kernel steps them).
        if let Err((index, error)) = self.states.step_with_infos(
            actions,
            all_ended,
            mode,
            generators,
            rows.rewards,
            rows.terminated,
            rows.observations,
            rows.infos,
        ) {
            return Err((first + index, error));
        }
        // The bookkeeping of every stepped episode: step count, truncation, and which ones
        // ended (a pending episode's results are discarded, as it is reset below). The
        // common case, no episode at the cap, runs as plain additions and copies without a
        // branch or a 64-bit comparison (which SSE2 lacks), so that it compiles to vector
        // instructions; the counts are compared with the cap only when `longest` says one
        // may have reached it.
        let cap = self.episode_cap.map_or(u64::MAX, NonZeroU64::get);
        for steps in all_steps.iter_mut() {
            *steps += 1;
        }
        self.longest = self.longest.saturating_add(1);
        let flags = rows
            .terminated
            .iter()
            .zip(rows.truncated.iter_mut())
            .zip(rows.final_mask.iter_mut());
        for (ended, ((terminated, truncated), final_mask)) in all_ended.iter_mut().zip(flags) {
            *truncated = false;
            *final_mask = false;
            *ended = *terminated;
        }
        if self.longest >= cap {
            let mut longest = 0;
            let flags = rows.truncated.iter_mut().zip(all_ended.iter_mut());
            for (steps, (truncated, ended)) in all_steps.iter().zip(flags) {
                let cut = *steps >= cap;
                *truncated = cut;
                *ended |= cut;
                longest = longest.max(*steps);
            }
            self.longest = longest;
        }
        // Episodes with time limits of their own (BabyAI's) are truncated where their state says.
        if self.time_limits {
            let flags = rows.truncated.iter_mut().zip(all_ended.iter_mut());
            for (i, (truncated, ended)) in flags.enumerate() {
                if self.states.time_limit_reached(i) {
                    *truncated = true;
                    *ended = true;
                }
            }
        }
        // The episodes that ended on this step, in order. (A pending episode may be listed;
        // its reset below clears its flag.)
        let ending_count = list_ended(all_ended, self.ending);
        let mut failure = None;
        for (k, i) in pending.iter().map(|i| i - start).enumerate() {
            generators[i].clone_from(&self.saved_generators[k]);
            match reset_at::<S, T>(
                self.states,
                generators,
                all_steps,
                all_ended,
                i,
                mode,
                &mut rows,
            ) {
                Ok(()) => {
                    rows.mark_reset(i);
                    put_reset_info::<S, T>(self.states, self.reports_infos, i, &mut rows);
                }
                Err(e) => failure = failure.or(Some((first + i, e))),
            }
        }
        if autoreset == Autoreset::SameStep {
            for i in self.ending[..ending_count].iter().copied() {
                rows.keep_final_observation(i);
                rows.final_mask[i] = true;
                // The last step's info is the final info; the reset's info is the info.
                rows.move_info_to_final(i);
                if let Some(bits) = self.mask_bits {
                    self.final_masks[i] = bits(self.states, i);
                }
                match reset_at::<S, T>(
                    self.states,
                    generators,
                    all_steps,
                    all_ended,
                    i,
                    mode,
                    &mut rows,
                ) {
                    Ok(()) => {
                        put_reset_info::<S, T>(self.states, self.reports_infos, i, &mut rows);
                    }
                    Err(e) => failure = failure.or(Some((first + i, e))),
                }
            }
        }
        // Only the episodes still ended wait for a reset: with next-step autoreset those that
        // ended on this step, with same-step autoreset those whose reset failed.
        self.kept = keep_ended(self.ending, ending_count, all_ended);
        failure.map_or(Ok(()), Err)
    }
}

/// Writes the indices `i` with `ended[i]` set, in increasing order, at the start of `list`
/// (which has room for every index: the batch's length), and returns how many there are
/// ([`for_each_set`]).
fn list_ended(ended: &[bool], list: &mut [usize]) -> usize {
    assert!(
        list.len() >= ended.len(),
        "the list has room for every episode"
    );
    let mut count = 0;
    for_each_set(ended, ended, |i| {
        list[count] = i;
        count += 1;
    });
    count
}

/// Calls `visit` with every index at which `a` or `b` (of the same length) is set, in
/// increasing order.
///
/// Few episodes end on a given step, so the flags are read eight at a time as the bytes of
/// one word (a `bool` is the byte 0 or 1): a run of eight with none set costs one test, and
/// the others one step per index visited (where one branch-free bit per flag, gathered 64 at a
/// time, took about five instructions per environment).
pub(crate) fn for_each_set(a: &[bool], b: &[bool], mut visit: impl FnMut(usize)) {
    assert_eq!(a.len(), b.len(), "one flag of each per environment");
    let word = |flags: &[bool]| {
        let flags: [bool; 8] = flags.try_into().expect("chunks of eight");
        u64::from_le_bytes(flags.map(u8::from))
    };
    let (mut runs, mut others) = (a.chunks_exact(8), b.chunks_exact(8));
    for (run, (x, y)) in runs.by_ref().zip(others.by_ref()).enumerate() {
        let mut set = word(x) | word(y);
        while set != 0 {
            visit(run * 8 + (set.trailing_zeros() / 8) as usize);
            // Clears the lowest set bit: the index just visited (one bit per byte).
            set &= set - 1;
        }
    }
    let start = a.len() - runs.remainder().len();
    for (k, (x, y)) in runs.remainder().iter().zip(others.remainder()).enumerate() {
        if *x || *y {
            visit(start + k);
        }
    }
}

/// Keeps, in order, the first `count` indices of `list` whose `ended` flag is set, and
/// returns how many there are.
fn keep_ended(list: &mut [usize], count: usize, ended: &[bool]) -> usize {
    let mut kept = 0;
    for read in 0..count {
        let i = list[read];
        if ended[i] {
            list[kept] = i;
            kept += 1;
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ended_episodes_are_listed_in_order() {
        // Patterns of ended flags (none, one, sparse, dense, all), at every length up to a few
        // runs of eight and a remainder.
        for len in 0..27 {
            for pattern in [
                0u64,
                1,
                0b1000_0001,
                0x0101_0101,
                0x5555_5555,
                u64::MAX,
                1 << 25,
            ] {
                let ended: Vec<bool> = (0..len).map(|i| (pattern >> i) & 1 == 1).collect();
                let expected: Vec<usize> = (0..len).filter(|i| ended[*i]).collect();
                let mut list = vec![usize::MAX; len];
                let count = list_ended(&ended, &mut list);
                assert_eq!(count, expected.len(), "{ended:?}");
                assert_eq!(list.get(..count), Some(expected.as_slice()), "{ended:?}");
            }
        }
    }

    #[test]
    fn every_index_with_a_flag_set_is_visited_once_in_order() {
        for len in [0usize, 1, 7, 8, 9, 16, 37, 63, 64, 65, 200] {
            let a: Vec<bool> = (0..len).map(|i| i % 5 == 0).collect();
            let b: Vec<bool> = (0..len).map(|i| i % 7 == 3 || i + 1 == len).collect();
            let mut visited = Vec::new();
            for_each_set(&a, &b, |index| visited.push(index));
            let expected: Vec<usize> = (0..len).filter(|&i| a[i] || b[i]).collect();
            assert_eq!(visited, expected, "{len} environments");
        }
    }
}

/// Which environments a [`Command::Reset`] resets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resets {
    /// Every environment.
    All,
    /// Those whose episode ended and were not reset since.
    Ended,
    /// Those whose entry of the call's selection is `true` (Gymnasium's `reset_mask`).
    Selected,
}

impl Resets {
    /// Whether environment `i` of a batch stays as it is: `ended` says whether its episode
    /// ended, `selected` is the batch's entries of the selection.
    pub(crate) fn skips(self, i: usize, ended: bool, selected: &[bool]) -> bool {
        match self {
            Resets::All => false,
            Resets::Ended => !ended,
            Resets::Selected => !selected[i],
        }
    }
}

/// A request to a batch (seeds run on the whole batch, resets and steps on each part).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Command {
    /// Check that every environment takes its entry of the call's seeds, changing nothing.
    CheckSeeds,
    /// Seed every environment with its entry of the call's seeds.
    Seed,
    /// Reset the environments `which` names (with the call's selection for
    /// [`Resets::Selected`]).
    Reset {
        mode: Mode,
        which: Resets,
    },
    Step {
        mode: Mode,
        autoreset: Autoreset,
    },
}
