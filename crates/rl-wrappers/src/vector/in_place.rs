//! The one `unsafe` of the vector runtime, kept because the two-thread speed needs it (see
//! docs/PERFORMANCE.md): [`RawOutputs`], the addresses of a vector environment's buffers,
//! through which the threads of one call each write their own rows in place, and
//! [`SharedSlice`], through which they read their actions where the caller has them, so that
//! nothing is copied before or after a multi-threaded step.

use std::ops::Range;

use rl_core::Info;

use crate::vector::outputs::{Outputs, Rows, entries};

/// The addresses of `outputs`' buffers, for [`RawOutputs::rows`]. Taking them borrows
/// `outputs` mutably, so no reference into the buffers made before is used after.
pub(crate) fn raw<T>(outputs: &mut Outputs<T>) -> RawOutputs<T> {
    let dim = outputs.observations.ncols();
    // Every buffer holds `len` entries (or rows) by construction; the addresses cover only
    // as many environments as all of them hold, so that `RawOutputs::rows` can never reach
    // past one of them even if that were not so.
    let observations = entries(&mut outputs.observations);
    let observation_rows = observations.len().checked_div(dim).unwrap_or(usize::MAX);
    let len = [
        outputs.rewards.len(),
        outputs.terminated.len(),
        outputs.truncated.len(),
        outputs.infos.len(),
        outputs.final_mask.len(),
        outputs.final_infos.len(),
        observation_rows,
    ]
    .into_iter()
    .min()
    .unwrap_or(0);
    let observations = observations.as_mut_ptr();
    let finals = entries(&mut outputs.final_observations);
    let keep_final = len > 0 && finals.len() >= len * dim;
    RawOutputs {
        len,
        dim,
        observations,
        rewards: outputs.rewards.as_mut_ptr(),
        terminated: outputs.terminated.as_mut_ptr(),
        truncated: outputs.truncated.as_mut_ptr(),
        infos: outputs.infos.as_mut_ptr(),
        final_observations: keep_final.then_some(finals.as_mut_ptr()),
        final_mask: outputs.final_mask.as_mut_ptr(),
        final_infos: outputs.final_infos.as_mut_ptr(),
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
    /// Addresses of no buffer: every range is out of bounds (a placeholder between calls).
    pub(crate) fn empty() -> Self {
        RawOutputs {
            len: 0,
            dim: 0,
            observations: std::ptr::null_mut(),
            rewards: std::ptr::null_mut(),
            terminated: std::ptr::null_mut(),
            truncated: std::ptr::null_mut(),
            infos: std::ptr::null_mut(),
            final_observations: None,
            final_mask: std::ptr::null_mut(),
            final_infos: std::ptr::null_mut(),
        }
    }

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
