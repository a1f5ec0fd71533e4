//! [`Batch`]: the storage every vector environment steps (the episodes of a vector, or of one
//! thread's share of them, with their generators, step counts and autoreset bookkeeping),
//! and the [`Command`]s it runs.

use std::fmt;
use std::num::NonZeroU64;

use rand::SeedableRng;
use rl_core::{BatchStates, CoreError, Mode, NumpyGenerator, Seed};
use rl_spaces::{FiniteSpace, FlatScalar};

use crate::vector::Autoreset;
use crate::vector::outputs::Rows;

/// An environment of the batch failed: its global index and the error.
pub(crate) type Failure = (usize, CoreError);

/// The episodes of a vector environment, or of one thread's share of them: any
/// [`BatchStates`] ([`DomainStates`], a domain's [`BatchStep`](rl_core::BatchStep) kernel or
/// its step state by state; [`BoxedBatchStates`] for a domain built by id;
/// [`EnvironmentStates`](crate::vector::EnvironmentStates), copies of an environment), with a
/// `NumpyGenerator` and a step count per episode. The one storage of every vector
/// ([`VectorEnvironment`](crate::vector::VectorEnvironment) and
/// [`AsyncVector`](crate::vector::AsyncVector), however built).
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
pub(crate) struct Batch<S, T> {
    states: S,
    generators: Vec<NumpyGenerator>,
    /// The generators of the episodes in `pending`, saved before a step (same order).
    saved_generators: Vec<NumpyGenerator>,
    steps: Vec<u64>,
    /// At least the largest of `steps` (an upper bound, made exact whenever it reaches the
    /// episode cap), so that a step can tell without looking at every count that no episode
    /// reaches the cap.
    longest: u64,
    ended: Vec<bool>,
    /// In its first `pending_count` entries, the indices of the episodes that ended on the
    /// last step and are reset on the next one (next-step autoreset), in increasing order:
    /// exactly the `i` with `ended[i]` after a step. It has the batch's length, so that filling
    /// it never allocates.
    pending: Vec<usize>,
    /// The number of pending episodes.
    pending_count: usize,
    /// The list the current step fills (the batch's length too), swapped with `pending` at its
    /// end.
    ending: Vec<usize>,
    episode_cap: Option<NonZeroU64>,
    /// The global index (in the vector environment) of the first episode.
    first: usize,
    /// For a finite action space of at most 64 actions, how to compute an episode's mask as
    /// bits ([`mask_bits`]), set by the first [`action_mask`](Batch::action_mask)
    /// call: from then on, each same-step autoreset keeps the mask of the state the episode
    /// ended in (`final_masks`), before the reset replaces that state. A batch whose masks
    /// nobody reads pays nothing.
    mask_bits: std::sync::OnceLock<fn(&S, usize) -> u64>,
    /// Per episode, bit `k` set where action `k` of `mask_actions` was applicable in the
    /// state its episode last ended in (same-step autoreset).
    final_masks: Vec<u64>,
    marker: std::marker::PhantomData<fn() -> T>,
}

impl<S: BatchStates<T>, T: FlatScalar> Batch<S, T> {
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
            ending: vec![0; len],
            first,
            mask_bits: std::sync::OnceLock::new(),
            final_masks: vec![0; len],
            marker: std::marker::PhantomData,
        }
    }
}

impl<S, T> Batch<S, T> {
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

/// Resets episode `i` of a batch: a new initial state from its generator, its
/// observation in row `i`, its step count 0 and its `ended` flag false. The caller then
/// writes its reset info ([`put_reset_info`]). (A function of the parts rather than a method,
/// so that the step can call it while it reads `pending`.)
fn reset_at<S, T>(
    states: &mut S,
    generators: &mut [NumpyGenerator],
    steps: &mut [u64],
    ended: &mut [bool],
    i: usize,
    mode: Mode,
    rows: &mut Rows<'_, T>,
) -> Result<(), CoreError>
where
    S: BatchStates<T>,
    T: FlatScalar,
{
    states.reset_at(i, mode, &mut generators[i], rows.observation(i))?;
    steps[i] = 0;
    ended[i] = false;
    Ok(())
}

/// Writes the info of episode `i`'s reset (just done) into its info slot, as Gymnasium's
/// vectors report a reset's info (at a reset of the vector, and in the step's `info` for an
/// autoreset: next-step, or same-step beside the final info), where the batch reports infos;
/// empty otherwise.
fn put_reset_info<S, T>(states: &S, i: usize, rows: &mut Rows<'_, T>)
where
    S: BatchStates<T>,
    T: FlatScalar,
{
    if states.reports_infos() {
        rows.put_info(i, states.reset_info(i));
    }
}

/// The action mask of episode `i` of `states` as bits, bit `k` set where the `k`-th action of
/// the finite action space (at most 64) is applicable.
fn mask_bits<S, T>(states: &S, i: usize) -> u64
where
    S: BatchStates<T>,
    S::ActionSpace: FiniteSpace,
    T: FlatScalar,
{
    let space = states.action_space();
    (0..64)
        .map_while(|k| space.element_at(k).map(|action| (k, action)))
        .filter(|(_, action)| states.is_applicable(i, action))
        .fold(0, |bits, (k, _)| bits | 1 << k)
}

impl<S, T> fmt::Debug for Batch<S, T> {
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
    S: BatchStates<T>,
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

    /// Writes the action mask of episode `i` (local index) into `row`, one entry per action
    /// of the finite action space.
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

    /// Episode `i`'s current state (local index), where the states hand it out.
    pub(crate) fn state_any(&self, i: usize) -> Option<&dyn std::any::Any> {
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
    /// a generator of its own ([`BatchStates::seed_at`]).
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

    /// Resets the episodes `which` names in `mode`, writing their first observations;
    /// `selected` holds this batch's entries of the selection of [`Resets::Selected`] (empty
    /// otherwise). An episode left as it is keeps its results, its final-observation mask
    /// cleared.
    pub(crate) fn reset(
        &mut self,
        mode: Mode,
        which: Resets,
        selected: &[bool],
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let first = self.first;
        let generators = &mut self.generators;
        let steps = &mut self.steps;
        let ended = &mut self.ended;
        let mut failure = None;
        for i in 0..ended.len() {
            if which.skips(i, ended[i], selected) {
                rows.final_mask[i] = false;
                continue;
            }
            let reset = reset_at(
                &mut self.states,
                generators,
                steps,
                ended,
                i,
                mode,
                &mut rows,
            );
            match reset {
                Ok(()) => {
                    rows.mark_reset(i);
                    put_reset_info(&self.states, i, &mut rows);
                }
                Err(e) => failure = failure.or(Some((first + i, e))),
            }
        }
        // Every ended episode was reset (or failed to and stays ended, to be retried).
        self.pending_count = keep_ended(&mut self.pending, self.pending_count, ended);
        failure.map_or(Ok(()), Err)
    }

    /// Steps every episode with the action of the same index, resetting ended episodes as
    /// `autoreset` says.
    pub(crate) fn step(
        &mut self,
        actions: &[S::Action],
        mode: Mode,
        autoreset: Autoreset,
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let first = self.first;
        let generators = &mut self.generators[..];
        let all_steps = &mut self.steps[..];
        let all_ended = &mut self.ended[..];
        // With next-step autoreset, the episodes that ended on the last call (`pending`) are
        // reset now, not stepped. The kernel steps every state, so save their generators and
        // restore them afterwards: the discarded step must leave no trace in the random
        // sequence.
        let next_step = autoreset == Autoreset::NextStep;
        let pending = &self.pending[..self.pending_count];
        if next_step {
            for (saved, i) in self.saved_generators.iter_mut().zip(pending) {
                saved.clone_from(&generators[*i]);
            }
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
        if self.states.has_episode_time_limits() {
            let flags = rows.truncated.iter_mut().zip(all_ended.iter_mut());
            for (i, (truncated, ended)) in flags.enumerate() {
                if self.states.time_limit_reached(i) {
                    *truncated = true;
                    *ended = true;
                }
            }
        }
        // The episodes that ended on this step, in order. (A pending episode may be listed;
        // its reset below clears its flag, and the list is then cut to the episodes still
        // ended.)
        let ending_count = list_ended(all_ended, &mut self.ending);
        let mut failure = None;
        if next_step {
            for (k, i) in pending.iter().copied().enumerate() {
                generators[i].clone_from(&self.saved_generators[k]);
                match reset_at(
                    &mut self.states,
                    generators,
                    all_steps,
                    all_ended,
                    i,
                    mode,
                    &mut rows,
                ) {
                    Ok(()) => {
                        rows.mark_reset(i);
                        put_reset_info(&self.states, i, &mut rows);
                    }
                    Err(e) => failure = failure.or(Some((first + i, e))),
                }
            }
        }
        if autoreset == Autoreset::SameStep {
            let ending = &self.ending[..ending_count];
            for i in ending.iter().copied() {
                rows.keep_final_observation(i);
                rows.final_mask[i] = true;
                // The last step's info is the final info; the reset's info is the info.
                rows.move_info_to_final(i);
                if let Some(bits) = self.mask_bits.get() {
                    self.final_masks[i] = bits(&self.states, i);
                }
                match reset_at(
                    &mut self.states,
                    generators,
                    all_steps,
                    all_ended,
                    i,
                    mode,
                    &mut rows,
                ) {
                    Ok(()) => put_reset_info(&self.states, i, &mut rows),
                    Err(e) => failure = failure.or(Some((first + i, e))),
                }
            }
        }
        // Only the episodes still ended wait for a reset: with next-step autoreset those that
        // ended on this step, with same-step autoreset those whose reset failed.
        self.pending_count = keep_ended(&mut self.ending, ending_count, all_ended);
        std::mem::swap(&mut self.pending, &mut self.ending);
        failure.map_or(Ok(()), Err)
    }
}

/// Writes the indices `i` with `ended[i]` set, in increasing order, at the start of `list`
/// (which has room for every index: the batch's length), and returns how many there are.
///
/// Few episodes end on a given step, so the flags are read eight at a time as the bytes of
/// one word (a `bool` is the byte 0 or 1): a run of eight with none ended costs one test, and
/// the others cost one step per ended episode.
fn list_ended(ended: &[bool], list: &mut [usize]) -> usize {
    assert!(
        list.len() >= ended.len(),
        "the list has room for every episode"
    );
    let mut count = 0;
    let mut push = |i: usize| {
        list[count] = i;
        count += 1;
    };
    let mut runs = ended.chunks_exact(8);
    for (run, flags) in runs.by_ref().enumerate() {
        let flags: [bool; 8] = flags.try_into().expect("chunks of eight");
        let mut word = u64::from_le_bytes(flags.map(u8::from));
        while word != 0 {
            push(run * 8 + (word.trailing_zeros() / 8) as usize);
            // Clears the lowest set bit: the episode just listed.
            word &= word - 1;
        }
    }
    let remainder = runs.remainder();
    let start = ended.len() - remainder.len();
    for (k, set) in remainder.iter().enumerate() {
        if *set {
            push(start + k);
        }
    }
    count
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

/// A request to a batch (run on every thread's share).
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

/// Runs `command` on `batch`, with `actions` for a step, `seeds` for a seeding and `selected`
/// for a reset of selected environments (each the batch's entries).
pub(crate) fn execute<S: BatchStates<T>, T: FlatScalar>(
    batch: &mut Batch<S, T>,
    command: Command,
    actions: &[S::Action],
    seeds: &[Option<Seed>],
    selected: &[bool],
    rows: Rows<'_, T>,
) -> Result<(), Failure> {
    match command {
        Command::CheckSeeds => batch.check_seeds(seeds),
        Command::Seed => batch.seed(seeds),
        Command::Reset { mode, which } => batch.reset(mode, which, selected, rows),
        Command::Step { mode, autoreset } => batch.step(actions, mode, autoreset, rows),
    }
}
