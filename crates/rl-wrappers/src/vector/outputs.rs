//! [`Outputs`]: the structure-of-arrays buffers of a batch's results, [`Rows`], a mutable
//! view of a run of them, and [`RawOutputs`], the buffers' addresses through which the threads
//! of one call each write their own rows.

use std::ops::Range;

use ndarray::Array2;
use rl_core::Info;
use rl_spaces::FlatScalar;

/// The results of the last call, one entry (or one row) per environment.
#[derive(Debug)]
pub(crate) struct Outputs<T> {
    pub(crate) observations: Array2<T>,
    pub(crate) rewards: Vec<f64>,
    pub(crate) terminated: Vec<bool>,
    pub(crate) truncated: Vec<bool>,
    pub(crate) infos: Vec<Info>,
    /// `len × dim` with same-step autoreset, `0 × dim` otherwise.
    pub(crate) final_observations: Array2<T>,
    pub(crate) final_mask: Vec<bool>,
    pub(crate) final_infos: Vec<Info>,
}

/// Mutable views of the results of a run of environments, indexed from 0.
pub struct Rows<'a, T> {
    dim: usize,
    pub(crate) observations: &'a mut [T],
    pub(crate) rewards: &'a mut [f64],
    pub(crate) terminated: &'a mut [bool],
    pub(crate) truncated: &'a mut [bool],
    pub(crate) infos: &'a mut [Info],
    pub(crate) final_observations: &'a mut [T],
    pub(crate) final_mask: &'a mut [bool],
    pub(crate) final_infos: &'a mut [Info],
}

/// The entries of a standard-layout array as one slice (every array here is built in standard
/// layout and never reshaped, so the fallback is never taken).
fn entries<T>(array: &mut Array2<T>) -> &mut [T] {
    array.as_slice_mut().unwrap_or(&mut [])
}

/// The run `range` of `slice` (empty if out of range, which the callers' ranges never are).
fn part<X>(slice: &mut [X], range: Range<usize>) -> &mut [X] {
    slice.get_mut(range).unwrap_or(&mut [])
}

impl<T: FlatScalar> Outputs<T> {
    /// Buffers for `len` environments with observations of `dim` entries, with the final
    /// observation buffer only if `keep_final`.
    pub(crate) fn new(len: usize, dim: usize, keep_final: bool) -> Self {
        Outputs {
            observations: Array2::from_elem((len, dim), T::ZERO),
            rewards: vec![0.0; len],
            terminated: vec![false; len],
            truncated: vec![false; len],
            infos: vec![Info::new(); len],
            final_observations: Array2::from_elem((if keep_final { len } else { 0 }, dim), T::ZERO),
            final_mask: vec![false; len],
            final_infos: vec![Info::new(); len],
        }
    }

    fn dim(&self) -> usize {
        self.observations.ncols()
    }

    /// The views of the environments in `range`.
    pub(crate) fn rows(&mut self, range: Range<usize>) -> Rows<'_, T> {
        let dim = self.dim();
        let entries_range = range.start * dim..range.end * dim;
        let final_range = if self.final_observations.nrows() == 0 {
            0..0
        } else {
            entries_range.clone()
        };
        Rows {
            dim,
            observations: part(entries(&mut self.observations), entries_range),
            rewards: part(&mut self.rewards, range.clone()),
            terminated: part(&mut self.terminated, range.clone()),
            truncated: part(&mut self.truncated, range.clone()),
            infos: part(&mut self.infos, range.clone()),
            final_observations: part(entries(&mut self.final_observations), final_range),
            final_mask: part(&mut self.final_mask, range.clone()),
            final_infos: part(&mut self.final_infos, range),
        }
    }

    /// The views of every environment.
    pub(crate) fn all_rows(&mut self) -> Rows<'_, T> {
        let len = self.rewards.len();
        self.rows(0..len)
    }

    /// The addresses of the buffers, for [`RawOutputs::rows`]. Taking them borrows `self`
    /// mutably, so no reference into the buffers made before is used after.
    pub(crate) fn raw(&mut self) -> RawOutputs<T> {
        let dim = self.dim();
        // Every buffer holds `len` entries (or rows) by construction; the addresses cover only
        // as many environments as all of them hold, so that `RawOutputs::rows` can never reach
        // past one of them even if that were not so.
        let observations = entries(&mut self.observations);
        let observation_rows = observations.len().checked_div(dim).unwrap_or(usize::MAX);
        let len = [
            self.rewards.len(),
            self.terminated.len(),
            self.truncated.len(),
            self.infos.len(),
            self.final_mask.len(),
            self.final_infos.len(),
            observation_rows,
        ]
        .into_iter()
        .min()
        .unwrap_or(0);
        let observations = observations.as_mut_ptr();
        let finals = entries(&mut self.final_observations);
        let keep_final = len > 0 && finals.len() >= len * dim;
        RawOutputs {
            len,
            dim,
            observations,
            rewards: self.rewards.as_mut_ptr(),
            terminated: self.terminated.as_mut_ptr(),
            truncated: self.truncated.as_mut_ptr(),
            infos: self.infos.as_mut_ptr(),
            final_observations: keep_final.then_some(finals.as_mut_ptr()),
            final_mask: self.final_mask.as_mut_ptr(),
            final_infos: self.final_infos.as_mut_ptr(),
        }
    }
}

impl<T> Rows<'_, T> {
    /// The observation row of environment `i`.
    pub(crate) fn observation(&mut self, i: usize) -> &mut [T] {
        let dim = self.dim;
        part(self.observations, i * dim..(i + 1) * dim)
    }

    /// Copies the observation row of environment `i` into its final observation row.
    pub(crate) fn keep_final_observation(&mut self, i: usize)
    where
        T: Copy,
    {
        let dim = self.dim;
        let source = self.observations.get(i * dim..(i + 1) * dim).unwrap_or(&[]);
        copy(
            part(self.final_observations, i * dim..(i + 1) * dim),
            source,
        );
    }

    /// Sets the info of environment `i` (skipping the write when both are empty).
    pub(crate) fn put_info(&mut self, i: usize, info: Info) {
        put(self.infos, i, info);
    }

    /// Sets the final info of environment `i` (skipping the write when both are empty).
    pub(crate) fn put_final_info(&mut self, i: usize, info: Info) {
        put(self.final_infos, i, info);
    }

    /// Records a reset of environment `i` (its observation row already written): reward 0,
    /// both flags false, no info, no final observation.
    pub(crate) fn mark_reset(&mut self, i: usize) {
        set(self.rewards, i, 0.0);
        set(self.terminated, i, false);
        set(self.truncated, i, false);
        set(self.final_mask, i, false);
        if let Some(info) = self.infos.get_mut(i) {
            if !info.is_empty() {
                *info = Info::new();
            }
        }
    }
}

/// Copies `source` into `target` entry by entry (as far as both go).
fn copy<X: Copy>(target: &mut [X], source: &[X]) {
    for (t, s) in target.iter_mut().zip(source) {
        *t = *s;
    }
}

/// Sets `infos[i]` to `info`, skipping the write (and the drop of the old one) when both
/// are empty.
fn put(infos: &mut [Info], i: usize, info: Info) {
    if let Some(slot) = infos.get_mut(i) {
        if !(info.is_empty() && slot.is_empty()) {
            *slot = info;
        }
    }
}

/// Sets `slice[i]` if it exists.
pub(crate) fn set<X>(slice: &mut [X], i: usize, value: X) {
    if let Some(entry) = slice.get_mut(i) {
        *entry = value;
    }
}

/// The addresses of the buffers of an [`Outputs`] (from [`Outputs::raw`]), through which the
/// threads stepping one call write the results of their environments straight into the
/// vector environment's buffers, each into its own rows, with no copy afterwards.
///
/// The crate's `unsafe` rests on this type and [`SharedSlice`] (the worker pool's `unsafe fn`s
/// only pass their contracts on): safe Rust cannot lend disjoint rows of one buffer to threads
/// that outlive the call, as these persistent workers do. The soundness argument is spelled
/// out on [`rows`](Self::rows), whose caller keeps it.
pub(crate) struct RawOutputs<T> {
    len: usize,
    dim: usize,
    observations: *mut T,
    rewards: *mut f64,
    terminated: *mut bool,
    truncated: *mut bool,
    infos: *mut Info,
    /// `None` without same-step autoreset (the final observations have no rows).
    final_observations: Option<*mut T>,
    final_mask: *mut bool,
    final_infos: *mut Info,
}

impl<T> Clone for RawOutputs<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for RawOutputs<T> {}

// SAFETY: a `RawOutputs` is only addresses; what crosses threads through it is the rows of
// `T`, `f64`, `bool` and `Info` that each thread writes (`Info` is `Send`), handed out under
// the contract of `rows`. Sending or sharing the addresses themselves is harmless.
#[allow(unsafe_code)]
unsafe impl<T: Send> Send for RawOutputs<T> {}
// SAFETY: as above: `rows` takes `&self` but hands out only disjoint rows, by contract.
#[allow(unsafe_code)]
unsafe impl<T: Send> Sync for RawOutputs<T> {}

impl<T> RawOutputs<T> {
    /// The views of the environments in `range` (an empty view if `range` is out of bounds,
    /// which the callers' ranges never are).
    ///
    /// # Safety
    ///
    /// The caller guarantees that, for as long as the returned `Rows` lives:
    ///
    /// * the `Outputs` these addresses came from is alive and not moved, resized or accessed
    ///   through any reference (its buffers never change size after construction, and the
    ///   vector environment touches it only before handing out the addresses and after every
    ///   thread has finished with them, see `VectorEnvironment::run`);
    /// * no other `Rows` overlapping `range` exists, on any thread (every share of the batch
    ///   has its own range, the ranges are disjoint, and each share runs once per call).
    #[allow(unsafe_code)]
    pub(crate) unsafe fn rows<'a>(&self, range: Range<usize>) -> Rows<'a, T> {
        if range.start > range.end || range.end > self.len {
            return Rows {
                dim: self.dim,
                observations: &mut [],
                rewards: &mut [],
                terminated: &mut [],
                truncated: &mut [],
                infos: &mut [],
                final_observations: &mut [],
                final_mask: &mut [],
                final_infos: &mut [],
            };
        }
        let (start, len) = (range.start, range.end - range.start);
        let (entries_start, entries_len) = (start * self.dim, len * self.dim);
        // SAFETY: `range` lies within the `len` environments every buffer holds (checked
        // above; `Outputs::raw` takes `len` as the fewest any buffer holds, and the observation
        // buffers hold at least `len * dim` entries), so each pointer offset stays inside its
        // allocation, the entries are initialised, and by the contract above nothing else
        // accesses them while the slices live.
        unsafe {
            Rows {
                dim: self.dim,
                observations: slice_at(self.observations, entries_start, entries_len),
                rewards: slice_at(self.rewards, start, len),
                terminated: slice_at(self.terminated, start, len),
                truncated: slice_at(self.truncated, start, len),
                infos: slice_at(self.infos, start, len),
                final_observations: match self.final_observations {
                    Some(pointer) => slice_at(pointer, entries_start, entries_len),
                    None => &mut [],
                },
                final_mask: slice_at(self.final_mask, start, len),
                final_infos: slice_at(self.final_infos, start, len),
            }
        }
    }
}

/// The `len` entries of the buffer at `base` from `start` on.
///
/// # Safety
///
/// `start + len` entries from `base` are within one initialised allocation, and nothing else
/// accesses them while the slice lives.
#[allow(unsafe_code)]
unsafe fn slice_at<'a, X>(base: *mut X, start: usize, len: usize) -> &'a mut [X] {
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts_mut(base.add(start), len) }
}

/// The address and length of a slice read by several threads during one call (the actions of
/// a step), so that the workers read the caller's actions where they are instead of copies.
pub(crate) struct SharedSlice<A> {
    start: *const A,
    len: usize,
}

impl<A> Clone for SharedSlice<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for SharedSlice<A> {}

// SAFETY: only addresses; the threads read the `A`s through shared references, which `A: Sync`
// allows.
#[allow(unsafe_code)]
unsafe impl<A: Sync> Send for SharedSlice<A> {}
// SAFETY: as above.
#[allow(unsafe_code)]
unsafe impl<A: Sync> Sync for SharedSlice<A> {}

impl<A> SharedSlice<A> {
    /// The address of `slice`.
    pub(crate) fn new(slice: &[A]) -> Self {
        SharedSlice {
            start: slice.as_ptr(),
            len: slice.len(),
        }
    }

    /// The entries in `range` (empty if out of bounds).
    ///
    /// # Safety
    ///
    /// The slice this came from is alive and not mutated for as long as the returned slice
    /// lives (the actions are borrowed by `VectorEnvironment::step` until every thread has
    /// finished with them).
    #[allow(unsafe_code)]
    pub(crate) unsafe fn get<'a>(&self, range: Range<usize>) -> &'a [A] {
        if range.start > range.end || range.end > self.len {
            return &[];
        }
        // SAFETY: `range` is within the slice (checked above); the caller's contract.
        unsafe { std::slice::from_raw_parts(self.start.add(range.start), range.end - range.start) }
    }
}
