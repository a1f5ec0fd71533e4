//! [`KernelBatch`]: the states of a batch in structure-of-arrays columns, stepped all at once
//! by a domain's [`BatchStep`] kernel.

use std::fmt;
use std::num::NonZeroU64;
use std::ops::Range;
use std::sync::Arc;

use rand::SeedableRng;
use rand_pcg::Pcg64;
use rl_core::{CoreError, Mode};
use rl_spaces::{FlatScalar, FlattenSpace};

use crate::derive_seed;
use crate::vector::batch::{Failure, sealed};
use crate::vector::outputs::{Rows, set};
use crate::vector::{Autoreset, BatchStep, ColumnChunk, StateColumns};

/// The states of a batch of episodes of a [`BatchStep`] domain, in its structure-of-arrays
/// columns, with a `Pcg64` and a step count per episode (the storage of
/// [`VectorEnvironment::from_kernel`](crate::vector::VectorEnvironment::from_kernel)).
///
/// It does what a [`Simulator`](rl_core::Simulator) does for each episode, for the whole batch
/// at once: environment `i`'s generator is `Pcg64::seed_from_u64(derive_seed(seed, i))`,
/// resets draw [`Domain::initial_state`](rl_core::Domain::initial_state) from it, and an episode is truncated when its step
/// count reaches [`Domain::episode_cap`](rl_core::Domain::episode_cap). So a kernel batch gives, bit for bit, what copies of
/// `Simulator::new(domain, derive_seed(seed, i))` give.
pub struct KernelBatch<D: BatchStep, T> {
    domain: Arc<D>,
    /// Storage for the states of the environments `base..base + capacity`: the batch's own
    /// (its window) and those next to them that it may take over from the neighbouring
    /// batches (see [`shift`](sealed::Sealed::shift)). Every per-episode vector below has
    /// this length too and is indexed the same way.
    columns: D::Columns,
    generators: Vec<Pcg64>,
    /// The generators of the episodes in `pending`, saved before a step (same order).
    saved_generators: Vec<Pcg64>,
    steps: Vec<u64>,
    /// At least the largest of the window's `steps` (an upper bound, made exact whenever it
    /// reaches the episode cap), so that a step can tell without looking at every count that
    /// no episode reaches the cap.
    longest: u64,
    ended: Vec<bool>,
    /// In its first `pending_count` entries, the indices (within the window) of the episodes
    /// that ended on the last step and are reset on the next one (next-step autoreset), in
    /// increasing order: exactly the `i` with `ended[window.start + i]` after a step. It has
    /// the storage's length, so that filling it never allocates.
    pending: Vec<usize>,
    /// The number of pending episodes.
    pending_count: usize,
    /// The list the current step fills (the storage's length too), swapped with `pending` at
    /// its end.
    ending: Vec<usize>,
    episode_cap: Option<NonZeroU64>,
    /// The global index (in the vector environment) of storage entry 0.
    base: usize,
    /// The storage entries of this batch's episodes: episode `base + window.start + i` of the
    /// vector environment is entry `window.start + i`.
    window: Range<usize>,
    marker: std::marker::PhantomData<fn() -> T>,
}

impl<D: BatchStep, T> KernelBatch<D, T> {
    /// The episodes `own` (global indices) of a vector environment of `domain`, with storage
    /// for the episodes `room` (which contains `own`), so that the batch can take over
    /// episodes of its neighbours up to the edges of `room`. The columns start filled with a
    /// placeholder state (drawn from a generator of its own), replaced by the first reset.
    pub(crate) fn new(domain: Arc<D>, room: Range<usize>, own: Range<usize>) -> Self {
        let placeholder = domain.initial_state(Mode::Training, &mut Pcg64::seed_from_u64(0));
        let generator = Pcg64::seed_from_u64(0);
        let capacity = room.len();
        let start = own.start.saturating_sub(room.start).min(capacity);
        let end = own.end.saturating_sub(room.start).clamp(start, capacity);
        KernelBatch {
            columns: D::Columns::filled(capacity, &placeholder),
            episode_cap: domain.episode_cap().and_then(NonZeroU64::new),
            domain,
            generators: vec![generator.clone(); capacity],
            saved_generators: vec![generator; capacity],
            steps: vec![0; capacity],
            longest: 0,
            ended: vec![false; capacity],
            pending: vec![0; capacity],
            pending_count: 0,
            ending: vec![0; capacity],
            base: room.start,
            window: start..end,
            marker: std::marker::PhantomData,
        }
    }

    /// The domain.
    pub(crate) fn domain(&self) -> &D {
        &self.domain
    }

    /// The global index of the batch's first episode.
    fn first(&self) -> usize {
        self.base + self.window.start
    }

    /// Lists the window's ended episodes as the pending ones (after the window changed).
    fn relist_pending(&mut self) {
        let ended = self.ended.get(self.window.clone()).unwrap_or_default();
        self.pending_count = list_ended(ended, &mut self.pending);
    }

    /// Copies episode `global` (its state, generator, step count and `ended` flag) from
    /// `source`'s storage into this batch's (both must have room for it).
    fn copy_episode(&mut self, source: &Self, global: usize) {
        let (Some(from), Some(to)) = (
            global.checked_sub(source.base),
            global.checked_sub(self.base),
        ) else {
            return;
        };
        if from < source.columns.len() && to < self.columns.len() {
            self.columns.set(to, &source.columns.get(from));
        }
        if let (Some(target), Some(generator)) =
            (self.generators.get_mut(to), source.generators.get(from))
        {
            target.clone_from(generator);
        }
        set(
            &mut self.steps,
            to,
            source.steps.get(from).copied().unwrap_or(0),
        );
        set(
            &mut self.ended,
            to,
            source.ended.get(from).copied().unwrap_or(false),
        );
    }
}

/// The window `window` of `columns`, as a chunk to step.
fn window_chunk<C: StateColumns>(columns: &mut C, window: Range<usize>) -> C::Chunk<'_> {
    let (_, rest) = columns.as_chunk().split_at(window.start);
    let len = window.len().min(rest.len());
    rest.split_at(len).0
}

/// Resets episode `i` of a kernel batch's window, whose first episode is storage entry
/// `offset` of `columns` (the other slices are the window's own): a new initial state from its
/// generator, its observation in row `i`, its step count 0 and its `ended` flag false. (A
/// function of the parts rather than a method, so that the step can call it while it reads
/// `pending`.)
#[allow(clippy::too_many_arguments)]
fn reset_at<D, T>(
    domain: &D,
    generators: &mut [Pcg64],
    columns: &mut D::Columns,
    offset: usize,
    steps: &mut [u64],
    ended: &mut [bool],
    i: usize,
    mode: Mode,
    rows: &mut Rows<'_, T>,
) -> Result<(), CoreError>
where
    D: BatchStep,
    D::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    let Some(generator) = generators.get_mut(i) else {
        return Ok(());
    };
    let state = domain.initial_state(mode, generator);
    columns.set(offset + i, &state);
    let observation = domain.observe(&state);
    domain
        .observation_space()
        .flatten_into(&observation, rows.observation(i))?;
    set(steps, i, 0);
    set(ended, i, false);
    Ok(())
}

impl<D: BatchStep + fmt::Debug, T> fmt::Debug for KernelBatch<D, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KernelBatch")
            .field("domain", &self.domain)
            .field("first", &self.first())
            .field("len", &self.window.len())
            .field("steps", &self.steps.get(self.window.clone()))
            .field("ended", &self.ended.get(self.window.clone()))
            .finish_non_exhaustive()
    }
}

impl<D, T> sealed::Sealed for KernelBatch<D, T>
where
    D: BatchStep,
    D::Action: Send + Sync,
    D::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    type Action = D::Action;
    type ActionSpace = D::ActionSpace;
    type Scalar = T;

    fn len(&self) -> usize {
        self.window.len()
    }

    fn first(&self) -> usize {
        KernelBatch::first(self)
    }

    fn action_space(&self) -> &D::ActionSpace {
        self.domain.action_space()
    }

    fn seed(&mut self, seed: u64) {
        let first = self.first();
        let generators = self.generators.get_mut(self.window.clone());
        for (i, generator) in generators.unwrap_or_default().iter_mut().enumerate() {
            *generator = Pcg64::seed_from_u64(derive_seed(seed, (first + i) as u64));
        }
    }

    fn reset(
        &mut self,
        mode: Mode,
        only_ended: bool,
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let first = self.first();
        let window = self.window.clone();
        let offset = window.start;
        let generators = self.generators.get_mut(window.clone()).unwrap_or_default();
        let steps = self.steps.get_mut(window.clone()).unwrap_or_default();
        let ended = self.ended.get_mut(window).unwrap_or_default();
        let mut failure = None;
        for i in 0..ended.len() {
            if only_ended && !ended.get(i).copied().unwrap_or(false) {
                set(rows.final_mask, i, false);
                continue;
            }
            let reset = reset_at(
                &*self.domain,
                generators,
                &mut self.columns,
                offset,
                steps,
                ended,
                i,
                mode,
                &mut rows,
            );
            match reset {
                Ok(()) => rows.mark_reset(i),
                Err(e) => failure = failure.or(Some((first + i, e))),
            }
        }
        // Every ended episode was reset (or failed to and stays ended, to be retried).
        self.pending_count = keep_ended(&mut self.pending, self.pending_count, ended);
        failure.map_or(Ok(()), Err)
    }

    fn step(
        &mut self,
        actions: &[D::Action],
        mode: Mode,
        autoreset: Autoreset,
        mut rows: Rows<'_, T>,
    ) -> Result<(), Failure> {
        let first = self.first();
        let window = self.window.clone();
        let offset = window.start;
        let generators = self.generators.get_mut(window.clone()).unwrap_or_default();
        let all_steps = self.steps.get_mut(window.clone()).unwrap_or_default();
        let all_ended = self.ended.get_mut(window.clone()).unwrap_or_default();
        // With next-step autoreset, the episodes that ended on the last call (`pending`) are
        // reset now, not stepped. The kernel steps every state, so save their generators and
        // restore them afterwards: the discarded step must leave no trace in the random
        // sequence.
        let next_step = autoreset == Autoreset::NextStep;
        let pending = self.pending.get(..self.pending_count).unwrap_or_default();
        if next_step {
            for (saved, i) in self.saved_generators.iter_mut().zip(pending) {
                if let Some(generator) = generators.get(*i) {
                    saved.clone_from(generator);
                }
            }
        }
        self.domain.step_batch(
            window_chunk(&mut self.columns, window),
            actions,
            mode,
            generators,
            rows.rewards,
            rows.terminated,
            rows.observations,
        );
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
        // The episodes that ended on this step, in order. (A pending episode may be listed;
        // its reset below clears its flag, and the list is then cut to the episodes still
        // ended.)
        let ending_count = list_ended(all_ended, &mut self.ending);
        let mut failure = None;
        if next_step {
            for (k, i) in pending.iter().copied().enumerate() {
                if let (Some(generator), Some(saved)) =
                    (generators.get_mut(i), self.saved_generators.get(k))
                {
                    generator.clone_from(saved);
                }
                match reset_at(
                    &*self.domain,
                    generators,
                    &mut self.columns,
                    offset,
                    all_steps,
                    all_ended,
                    i,
                    mode,
                    &mut rows,
                ) {
                    Ok(()) => rows.mark_reset(i),
                    Err(e) => failure = failure.or(Some((first + i, e))),
                }
            }
        }
        if autoreset == Autoreset::SameStep {
            let ending = self.ending.get(..ending_count).unwrap_or_default();
            for i in ending.iter().copied() {
                rows.keep_final_observation(i);
                set(rows.final_mask, i, true);
                if let Err(e) = reset_at(
                    &*self.domain,
                    generators,
                    &mut self.columns,
                    offset,
                    all_steps,
                    all_ended,
                    i,
                    mode,
                    &mut rows,
                ) {
                    failure = failure.or(Some((first + i, e)));
                }
            }
        }
        // Only the episodes still ended wait for a reset: with next-step autoreset those that
        // ended on this step, with same-step autoreset those whose reset failed.
        self.pending_count = keep_ended(&mut self.ending, ending_count, all_ended);
        std::mem::swap(&mut self.pending, &mut self.ending);
        failure.map_or(Ok(()), Err)
    }

    fn shift(&mut self, next: &mut Self, count: isize) -> bool {
        let moved = count.unsigned_abs();
        let boundary = self.first() + self.len();
        // The two batches must be neighbours, each must keep an episode, and the receiving
        // one must have room for the episodes it takes.
        if moved == 0 || next.first() != boundary {
            return false;
        }
        if count > 0 {
            // The last `moved` episodes of this batch go to the front of `next`.
            if moved >= self.len() || next.window.start < moved {
                return false;
            }
            for global in boundary - moved..boundary {
                next.copy_episode(self, global);
            }
            self.window.end -= moved;
            next.window.start -= moved;
            next.longest = next.longest.max(self.longest);
        } else {
            // The first `moved` episodes of `next` go to the end of this batch.
            if moved >= next.len() || self.window.end + moved > self.columns.len() {
                return false;
            }
            for global in boundary..boundary + moved {
                self.copy_episode(next, global);
            }
            self.window.end += moved;
            next.window.start += moved;
            self.longest = self.longest.max(next.longest);
        }
        self.relist_pending();
        next.relist_pending();
        true
    }
}

/// Writes the indices `i` with `ended[i]` set, in increasing order, at the start of `list`
/// (as many as fit), and returns how many there are.
///
/// Few episodes end on a given step, so the flags are read eight at a time as the bytes of
/// one word (a `bool` is the byte 0 or 1): a run of eight with none ended costs one test, and
/// the others cost one step per ended episode.
fn list_ended(ended: &[bool], list: &mut [usize]) -> usize {
    let mut count = 0;
    let mut push = |i: usize| {
        if let Some(slot) = list.get_mut(count) {
            *slot = i;
        }
        count += 1;
    };
    let mut runs = ended.chunks_exact(8);
    for (run, flags) in runs.by_ref().enumerate() {
        let Ok(flags) = <&[bool; 8]>::try_from(flags) else {
            continue;
        };
        let mut word = u64::from_le_bytes(flags.map(u8::from));
        while word != 0 {
            push(run * 8 + (word.trailing_zeros() / 8) as usize);
            // Clears the lowest set bit: the episode just listed.
            word &= word - 1;
        }
    }
    let start = ended.len() - runs.remainder().len();
    for (k, set) in runs.remainder().iter().enumerate() {
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
    for read in 0..count.min(list.len()) {
        let i = list.get(read).copied().unwrap_or(usize::MAX);
        if ended.get(i).copied().unwrap_or(false) {
            if let Some(slot) = list.get_mut(kept) {
                *slot = i;
            }
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
    fn a_short_list_holds_the_first_ones_and_the_count_is_exact() {
        let ended = [true; 20];
        let mut list = [0; 5];
        assert_eq!(list_ended(&ended, &mut list), 20);
        assert_eq!(list, [0, 1, 2, 3, 4]);
    }
}
