//! [`Threads`]: the scheduling of a vector environment's calls over its threads. The
//! environments are one [`Batch`], lent for each call on several threads in small contiguous
//! chunks ([`chunks`], fixed for the vector's life; [`Batch::with_parts`]), and the chunks
//! into one home range per thread; for each call every thread steps the chunks
//! of its own range, then takes those left in the others' ranges, so a thread whose core is
//! busy with other work (or that is not awake yet) leaves its chunks to whichever thread is
//! free, and a call waits at most for the chunks already started. Every thread writes the rows
//! of the chunks it steps in the vector environment's buffers in place. The calling thread
//! alone steps the whole batch in one part.
//! Idle workers spin briefly, then park. On a busy machine a worker that loses its processor
//! in the middle of a chunk holds the call up for a scheduler time slice, so the steps are
//! timed now and then with and without the workers, and run the faster way ([`Pace`]): two
//! threads never step much slower than one.
//!
//! This module holds the only `unsafe` code of the workspace's libraries (ARCHITECTURE.md,
//! "Unsafe code"; docs/PERFORMANCE.md, "The vector runtime", says what it buys). Safe Rust
//! cannot lend disjoint rows of one buffer (or the parts of a batch) to threads that outlive
//! the call, nor hand a call to a thread without a lock or a boxed message; this module does
//! both through addresses, under the protocol written on [`Shared`].

#![allow(unsafe_code)]

use std::any::Any;
use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use ndarray::Array2;
use rl_core::{Info, MAX_PARTS, NumpyGenerator, Seed, SplitStates};
use rl_spaces::FlatScalar;

use crate::VectorError;
use crate::vector::batch::Shared as PartShared;
use crate::vector::batch::{Batch, BatchPart, Command, Failure, PartColumns, PartOf};
use crate::vector::outputs::{Columns, Form, MapColumns, Outputs, Owned, Rows, Slices};

/// A value alone on its cache lines (128 bytes covers adjacent-line prefetching), so that what
/// one thread writes never shares a line with what another writes: each line written on one
/// side and read on the other costs a transfer between cores per call.
#[repr(align(128))]
struct Padded<T>(T);

/// The addresses of the vector environment's result buffers (null for a table of no rows: the
/// final observations, when they are not kept).
enum Addresses {}

impl Form for Addresses {
    type Column<X: 'static> = *mut X;
    type Table<X: 'static> = *mut X;
}

impl<T: 'static> Clone for Columns<Addresses, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: 'static> Copy for Columns<Addresses, T> {}

/// Takes the addresses of the owned buffers ([`RawOutputs::new`]).
struct TakeAddresses;

impl<'a> MapColumns<'a, Owned, Addresses> for TakeAddresses {
    fn column<X: 'static>(&mut self, column: &'a mut Vec<X>) -> *mut X {
        column.as_mut_ptr()
    }

    fn table<X: 'static>(&mut self, table: &'a mut Array2<X>, _dim: usize) -> *mut X {
        assert!(
            table.is_standard_layout(),
            "result buffers are built in standard layout and never reshaped"
        );
        if table.nrows() == 0 {
            std::ptr::null_mut()
        } else {
            table.as_mut_ptr()
        }
    }
}

/// The slices of the environments in `range` at the addresses of a [`RawOutputs`], made only
/// by [`RawOutputs::rows`] (`new` is unsafe), whose caller promises exclusive access to those
/// rows for `'r`.
struct AtAddresses<'r> {
    range: Range<usize>,
    rows: PhantomData<&'r mut ()>,
}

impl AtAddresses<'_> {
    /// The slices of `range`.
    ///
    /// # Safety
    ///
    /// `range` lies within the buffers whose addresses the slices are taken at, which are
    /// alive and not otherwise accessed for `'r`, and no other slice of an overlapping range of
    /// them is alive during `'r`.
    unsafe fn new(range: Range<usize>) -> Self {
        AtAddresses {
            range,
            rows: PhantomData,
        }
    }
}

impl<'a, 'r> MapColumns<'a, Addresses, Slices<'r>> for AtAddresses<'r> {
    fn column<X: 'static>(&mut self, column: &'a mut *mut X) -> &'r mut [X] {
        // SAFETY: `new`'s caller promises what `slice_at` needs, for each column of one entry
        // per environment.
        unsafe { slice_at(*column, self.range.start, self.range.len()) }
    }

    fn table<X: 'static>(&mut self, table: &'a mut *mut X, dim: usize) -> &'r mut [X] {
        if table.is_null() {
            return &mut [];
        }
        // SAFETY: as for `column`, for a table of `dim` entries per environment.
        unsafe { slice_at(*table, self.range.start * dim, self.range.len() * dim) }
    }
}

/// The addresses of the vector environment's result buffers, through which each thread of a
/// call writes the rows of the chunks it steps.
struct RawOutputs<T: 'static> {
    len: usize,
    columns: Columns<Addresses, T>,
}

impl<T: 'static> Clone for RawOutputs<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: 'static> Copy for RawOutputs<T> {}

impl<T: 'static> RawOutputs<T> {
    /// The addresses of `outputs`' buffers. Every later access to them until the end of the
    /// call goes through these addresses (the calling thread's own rows included).
    fn new(outputs: &mut Outputs<T>) -> Self {
        RawOutputs {
            len: outputs.rewards.len(),
            columns: outputs.map(TakeAddresses),
        }
    }

    /// The rows of the environments in `range`.
    ///
    /// # Safety
    ///
    /// The buffers `new` took the addresses of are alive and not otherwise accessed for `'a`,
    /// and no other `Rows` of an overlapping range is alive during `'a`.
    unsafe fn rows<'a>(&self, range: Range<usize>) -> Rows<'a, T> {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "rows {range:?} of {} environments",
            self.len
        );
        let mut columns = self.columns;
        // SAFETY: each buffer holds `len` entries (`len × dim` for a table), `range` lies within
        // them (asserted), and the caller promises exclusive access for `'a`.
        columns.map(unsafe { AtAddresses::new(range) })
    }
}

/// The `len` entries of a buffer from `start` on.
///
/// # Safety
///
/// `base` points to a live buffer of at least `start + len` entries, to which the caller has
/// exclusive access for `'a`.
unsafe fn slice_at<'a, X>(base: *mut X, start: usize, len: usize) -> &'a mut [X] {
    // SAFETY: as the caller promises.
    unsafe { std::slice::from_raw_parts_mut(base.add(start), len) }
}

/// The address and length of a slice of the caller's (actions or seeds), read by every thread
/// of a call.
struct SharedSlice<A> {
    start: *const A,
    len: usize,
}

impl<A> Clone for SharedSlice<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for SharedSlice<A> {}

impl<A> SharedSlice<A> {
    fn new(slice: &[A]) -> Self {
        SharedSlice {
            start: slice.as_ptr(),
            len: slice.len(),
        }
    }

    /// The entries in `range`, or none if the slice is empty (a call without actions or
    /// seeds).
    ///
    /// # Safety
    ///
    /// The slice `new` took is alive and not written for `'a`.
    unsafe fn get<'a>(&self, range: Range<usize>) -> &'a [A] {
        if self.len == 0 {
            return &[];
        }
        assert!(
            range.start <= range.end && range.end <= self.len,
            "entries {range:?} of {}",
            self.len
        );
        // SAFETY: `range` lies within the slice (asserted), which the caller keeps alive and
        // unwritten for `'a`.
        unsafe { std::slice::from_raw_parts(self.start.add(range.start), range.end - range.start) }
    }
}

/// The addresses of a batch's columns ([`PartColumns`]), from which each thread of a call
/// takes the entries of the chunks it steps.
struct RawColumns {
    len: usize,
    generators: *mut NumpyGenerator,
    saved_generators: *mut NumpyGenerator,
    steps: *mut u64,
    ended: *mut bool,
    pending: *const usize,
    pending_count: usize,
    ending: *mut usize,
    final_masks: *mut u64,
}

impl Clone for RawColumns {
    fn clone(&self) -> Self {
        *self
    }
}

impl Copy for RawColumns {}

impl RawColumns {
    /// The addresses of `columns` (the whole batch's). Every later access to them until the
    /// end of the call goes through these addresses.
    fn new(columns: PartColumns<'_>) -> Self {
        RawColumns {
            len: columns.steps.len(),
            generators: columns.generators.as_mut_ptr(),
            saved_generators: columns.saved_generators.as_mut_ptr(),
            steps: columns.steps.as_mut_ptr(),
            ended: columns.ended.as_mut_ptr(),
            pending: columns.pending.as_ptr(),
            pending_count: columns.pending.len(),
            ending: columns.ending.as_mut_ptr(),
            final_masks: columns.final_masks.as_mut_ptr(),
        }
    }

    /// The entries of the episodes in `range`.
    ///
    /// # Safety
    ///
    /// The columns `new` took the addresses of are alive and not otherwise accessed for `'a`,
    /// and no other `PartColumns` of an overlapping range is alive during `'a`.
    unsafe fn columns<'a>(&self, range: Range<usize>) -> PartColumns<'a> {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "episodes {range:?} of {}",
            self.len
        );
        let (start, len) = (range.start, range.len());
        // SAFETY: each column holds `self.len` entries, `range` lies within them (asserted),
        // and the caller promises exclusive access for `'a`; the pending list (its first
        // `pending_count` entries) is read by every part and written by none during the call.
        unsafe {
            PartColumns {
                generators: slice_at(self.generators, start, len),
                saved_generators: slice_at(self.saved_generators, start, len),
                steps: slice_at(self.steps, start, len),
                ended: slice_at(self.ended, start, len),
                pending: std::slice::from_raw_parts(self.pending, self.pending_count),
                ending: slice_at(self.ending, start, len),
                final_masks: slice_at(self.final_masks, start, len),
            }
        }
    }
}

/// What one call asks of every chunk.
struct Call<S: SplitStates<T>, T: FlatScalar> {
    command: Command,
    actions: SharedSlice<S::Action>,
    /// The selection of a [`Command::Reset`] of `Resets::Selected`, one entry per
    /// environment.
    selected: SharedSlice<bool>,
    outputs: RawOutputs<T>,
    /// The address of the parts of the batch's states, one `&mut PartOf<S, T>` per chunk, in
    /// order, on the calling thread's stack for the call (untyped: their lifetimes are the
    /// call's).
    states: *mut (),
    columns: RawColumns,
    /// What every part shares.
    shared: PartShared<S, T>,
}

impl<S: SplitStates<T>, T: FlatScalar> Clone for Call<S, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: SplitStates<T>, T: FlatScalar> Copy for Call<S, T> {}

/// What a chunk's part gave in the last call: its step counts' bound, its still-ended
/// episodes ([`BatchPart::kept`]), its failure, its panic.
struct ChunkResult {
    longest: u64,
    kept: usize,
    failure: Option<Failure>,
    panic: Option<Box<dyn Any + Send>>,
}

/// Runs `call` on chunk `index` (episodes `range`), in its own rows of the outputs, keeping
/// what it gave in `result`.
///
/// # Safety
///
/// `call`'s actions, selection, outputs, states' parts and columns are alive, the first two
/// unwritten, and chunk `index`'s part, entries of the columns and rows of the outputs
/// accessed by nothing else, until this returns.
unsafe fn run_part<S: SplitStates<T>, T: FlatScalar>(
    call: &Call<S, T>,
    index: usize,
    range: Range<usize>,
    result: &mut ChunkResult,
) {
    let states = call.states.cast::<&mut PartOf<'_, S, T>>();
    // SAFETY: the states' parts are `&mut PartOf<S, T>`s, one per chunk (`Threads::run`),
    // alive, and part `index` is this thread's alone, as the caller promises; so are the
    // chunk's entries, rows and the call's slices.
    let (states, columns, actions, selected, rows) = unsafe {
        (
            &mut **states.add(index),
            call.columns.columns(range.clone()),
            call.actions.get(range.clone()),
            call.selected.get(range.clone()),
            call.outputs.rows(range.clone()),
        )
    };
    let command = call.command;
    let stepped = catch_unwind(AssertUnwindSafe(|| {
        let mut part = BatchPart::new(states, columns, call.shared, range.start);
        let failure = part.execute(command, actions, selected, rows).err();
        (part.longest(), part.kept(), failure)
    }));
    match stepped {
        Ok((longest, kept, failure)) => {
            result.longest = longest;
            result.kept = kept;
            result.failure = failure;
        }
        Err(panic) => {
            // The part's episodes may be anywhere: the batch's bound on their step counts
            // stays an upper bound only if it is not lowered.
            result.longest = u64::MAX;
            result.panic = Some(panic);
        }
    }
}

/// A cursor's word: the chunks `front..back` of a thread's home range not claimed yet.
fn pack(front: usize, back: usize) -> u64 {
    ((front as u64) << 32) | back as u64
}

/// The chunks `front..back` of a cursor's word.
fn unpack(word: u64) -> (usize, usize) {
    ((word >> 32) as usize, (word & u64::from(u32::MAX)) as usize)
}

/// Claims the first (`front`) or the last chunk a cursor has left, if any.
fn claim(cursor: &AtomicU64, front: bool) -> Option<usize> {
    let mut word = cursor.load(Ordering::Acquire);
    loop {
        let (first, end) = unpack(word);
        if first >= end {
            return None;
        }
        let (next, chunk) = if front {
            (pack(first + 1, end), first)
        } else {
            (pack(first, end - 1), end - 1)
        };
        match cursor.compare_exchange_weak(word, next, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return Some(chunk),
            Err(now) => word = now,
        }
    }
}

/// What the calling thread and the workers share.
///
/// # The protocol
///
/// The environments are cut into chunks ([`chunks`]) and the chunks into one contiguous home
/// range per thread. For each call the calling thread lends the batch ([`Batch::with_parts`]:
/// the parts of its states, one per chunk, on its stack until the call returns, and its
/// columns), writes `call` with their addresses, sets
/// `done` to 0, stores each thread's home range in its `cursors` entry (release), then the
/// call's number in `number` (release), and wakes the workers. Every thread then claims the
/// chunks of its own home range from the front, one at a time, by a compare-and-swap on its
/// cursor, then those left in the others' ranges from the back (so a thread whose core is
/// busy, or that is not awake yet, leaves its chunks to whichever thread is free); it steps
/// each chunk it claimed, and once no cursor has a chunk left it adds how many it stepped to
/// `done` (release). The calling thread returns once `done` counts every chunk (acquire). So:
///
/// - every cursor is empty and `done` counts every chunk between calls, so `call` and `done`
///   are written while no thread reads them: a thread reads `call` only after claiming a
///   chunk (whose compare-and-swap, acquire, reads the calling thread's release store of the
///   cursor or a later claim of the same call), before it adds that chunk to `done`;
/// - a chunk's part of the states, its entries of the columns and its result are accessed
///   only by the thread that claimed it, from the claim until that thread adds it to `done`,
///   and its result by the calling thread after `done` counts every chunk; the chunks are
///   disjoint ranges of the batch, which nothing else accesses while it is lent (the thread
///   makes the chunk's [`BatchPart`] itself, so that it reads nothing the calling thread wrote
///   for the call but the call and the states' part);
/// - the rows of the outputs each thread writes are those of the chunks it claimed, disjoint
///   from every other chunk's, and [`Threads::run`] returns (or passes on a panic, which each
///   part catches) only once `done` counts every chunk, so the parts, buffers and actions
///   outlive every access.
///
/// A call that the calling thread runs alone ([`Pace`], seeds, a vector of one thread)
/// publishes nothing: it runs on the whole batch, while no other thread accesses anything.
/// Which thread steps a chunk changes nothing in its results: each environment's results
/// depend only on its own seed and actions.
struct Shared<S: SplitStates<T>, T: FlatScalar> {
    /// Each thread's chunks not claimed yet in this call ([`pack`]), one cache line each, so
    /// that a thread claiming its own chunks writes no line the others read (but when one of
    /// them runs out of its own).
    cursors: Vec<Padded<AtomicU64>>,
    /// The home ranges of the threads (the calling thread's first).
    homes: Vec<Range<usize>>,
    /// The chunks' ranges of environments, in order ([`chunks`]).
    ranges: Vec<Range<usize>>,
    /// What each chunk's part gave in the last call, alone on its cache lines, written by the
    /// thread that stepped it.
    results: Vec<Padded<UnsafeCell<ChunkResult>>>,
    /// Written by the calling thread only.
    request: Padded<Request<S, T>>,
    /// How many chunks of the call are done.
    done: Padded<AtomicUsize>,
    /// Tests only: while set, the workers see calls but claim nothing, as workers the system
    /// has descheduled, so that the calling thread's stepping of their chunks is tested every
    /// time rather than when the scheduler happens to delay them.
    #[cfg(test)]
    held: AtomicBool,
    /// Tests only: how many chunks the workers stepped.
    #[cfg(test)]
    stepped_by_workers: AtomicU64,
}

/// The calling thread's side of [`Shared`].
struct Request<S: SplitStates<T>, T: FlatScalar> {
    /// The number of the last call.
    number: AtomicU64,
    /// Set once, when the threads are dropped.
    stop: AtomicBool,
    call: UnsafeCell<Option<Call<S, T>>>,
}

// SAFETY: `Shared` crosses to the worker threads, which step parts (whose states are `Send`:
// `PartStates`), read the actions (`S::Action: Sync`) and write rows of the outputs (`T:
// Send`; the infos are `Info`, which is `Send`) under the protocol above, which orders every
// access to the `UnsafeCell` and to the addresses in `call`.
unsafe impl<S, T> Send for Shared<S, T>
where
    S: SplitStates<T>,
    T: FlatScalar,
    S::Action: Sync,
    T: Send,
{
}

// SAFETY: as for `Send`: the protocol above lets one thread at a time access each cell.
unsafe impl<S, T> Sync for Shared<S, T>
where
    S: SplitStates<T>,
    T: FlatScalar,
    S::Action: Sync,
    T: Send,
{
}

/// The infos a worker writes in place are dropped and replaced on its thread.
const _: fn() = || {
    fn send<X: Send>() {}
    send::<Info>();
};

impl<S: SplitStates<T>, T: FlatScalar> Shared<S, T> {
    /// Claims and steps chunks, this thread's own (`home`) first, until no cursor has one
    /// left; then adds them to `done`.
    fn work(&self, home: usize) {
        let threads = self.cursors.len();
        let mut stepped = 0;
        let mut call = None;
        for k in 0..threads {
            let thread = (home + k) % threads;
            while let Some(index) = claim(&self.cursors[thread].0, k == 0) {
                // SAFETY: a chunk of the current call was claimed, so the call was written
                // before its cursor (acquire) and stays until the chunk is added to `done`.
                let call = call.get_or_insert_with(|| unsafe { *self.request.0.call.get() });
                if let Some(call) = call {
                    let result = self.results[index].0.get();
                    // SAFETY: the claim gives this thread the chunk's part, entries, rows and
                    // result until it is added to `done` (see `Shared`).
                    unsafe { run_part(call, index, self.ranges[index].clone(), &mut *result) };
                }
                stepped += 1;
            }
        }
        if stepped == 0 {
            return;
        }
        #[cfg(test)]
        if home != 0 {
            self.stepped_by_workers
                .fetch_add(stepped as u64, Ordering::Relaxed);
        }
        self.done.0.fetch_add(stepped, Ordering::Release);
    }

    /// Whether every chunk of the call is done (acquire: their writes are visible).
    fn all_done(&self) -> bool {
        self.done.0.load(Ordering::Acquire) == self.ranges.len()
    }
}

/// How many times a waiting thread checks before it parks (a worker waiting for the next call)
/// or yields its processor (the calling thread waiting for a chunk a worker claimed). A call
/// usually follows the last one within microseconds when stepping in a loop, and waking a
/// parked thread costs tens of microseconds; a worker left idle longer parks and uses no
/// processor time.
const SPINS_BEFORE_PARKING: u32 = 1 << 14;

/// How many chunks each thread's home range holds when there are several threads: enough
/// that a thread slowed by other work leaves most of its range to the others, few because
/// every chunk is a call of its own over a range of the batch (docs/PERFORMANCE.md, "Where
/// the chunks' cost is"). The calling thread alone steps the whole batch in one call.
const CHUNKS_PER_THREAD: usize = 4;

/// The stack of a worker thread: Rust's default for spawned threads, set explicitly so that
/// the vector's size check reserves what the threads will take.
pub(crate) const WORKER_STACK: usize = 2 << 20;

/// Spawns the worker thread `name` (with [`WORKER_STACK`]) running `body`, and returns once
/// it runs. The runtime's start of a thread allocates (a copy of its name), and a thread the
/// system starts late under load would make that allocation in the middle of a later step
/// (found by the allocation tests, `tests/allocation_threads.rs`, with both cores busy):
/// waiting here keeps it in the vector's construction.
pub(crate) fn spawn_running(
    name: String,
    body: impl FnOnce() + Send + 'static,
) -> Result<JoinHandle<()>, VectorError> {
    let running = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&running);
    let thread = thread::Builder::new()
        .name(name.clone())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            flag.store(true, Ordering::Release);
            drop(flag);
            body();
        })
        .map_err(|e| VectorError::ThreadSpawn {
            reason: e.to_string(),
        })?;
    while !running.load(Ordering::Acquire) {
        if thread.is_finished() {
            return Err(VectorError::ThreadSpawn {
                reason: format!("the thread {name} ended before it started"),
            });
        }
        thread::yield_now();
    }
    Ok(thread)
}

/// The loop of worker thread `home`: waits for a call, steps chunks, until told to stop.
fn work<S: SplitStates<T>, T: FlatScalar>(shared: &Shared<S, T>, home: usize) {
    let request = &shared.request.0;
    let mut seen = 0;
    loop {
        let mut spins = 0;
        loop {
            let number = request.number.load(Ordering::Acquire);
            if number != seen {
                seen = number;
                break;
            }
            if request.stop.load(Ordering::Acquire) {
                return;
            }
            if spins < SPINS_BEFORE_PARKING {
                spins += 1;
                std::hint::spin_loop();
            } else {
                // The calling thread unparks every worker after each call it publishes, so a
                // call published after the check above makes this return at once.
                thread::park();
            }
        }
        #[cfg(test)]
        while shared.held.load(Ordering::Acquire) && !request.stop.load(Ordering::Acquire) {
            thread::yield_now();
        }
        shared.work(home);
    }
}

/// The contiguous chunks of `len` environments on `threads` threads, in order: one with one
/// thread; else one per environment for `costly` steps
/// ([`BatchStates::costly_steps`](rl_core::BatchStates::costly_steps): a thread done early then
/// takes one environment from another's range, not a chunk), else [`CHUNKS_PER_THREAD`] per
/// thread; never more chunks than environments nor than a batch has parts
/// ([`MAX_PARTS`](rl_core::MAX_PARTS)); as even as they can be.
///
/// A chunk's start needs no rounding to the kernels' blocks: a kernel cuts its own slice into
/// blocks from the slice's start, into local arrays, and every environment's results are its
/// own, so a chunk of any length steps as fast, but for its last partial block, and gives the
/// same bits.
pub(crate) fn chunks(len: usize, threads: usize, costly: bool) -> Vec<Range<usize>> {
    let count = if threads <= 1 {
        1
    } else if costly {
        len.clamp(1, MAX_PARTS)
    } else {
        threads
            .saturating_mul(CHUNKS_PER_THREAD)
            .min(len.max(1))
            .min(MAX_PARTS)
    };
    (0..count)
        .map(|k| k * len / count..(k + 1) * len / count)
        .collect()
}

/// The threads of a vector environment: its batch, its chunks, and the worker threads that
/// step them with the calling thread.
pub(crate) struct Threads<S: SplitStates<T>, T: FlatScalar> {
    batch: Batch<S, T>,
    shared: Arc<Shared<S, T>>,
    workers: Vec<JoinHandle<()>>,
    /// The number of the last call.
    number: u64,
    /// Whether the workers take part in the next step ([`Pace`]).
    pace: Pace,
}

/// The longest time between two timings (unless [`STAY_PER_TIMING`] timings take longer).
const LONGEST_STAY: Duration = Duration::from_secs(4);
/// How long each block of a timing runs one way before switching to the other (and at least
/// [`MIN_STEPS`] counted steps).
const BLOCK: Duration = Duration::from_millis(2);
/// How long (and at least [`WINDOW_STEPS`] steps) each window of a stay with the workers lasts:
/// a window whose steps took longer than the last timing found the calling thread alone
/// takes ends the stay. A window's time per step is its own, not the stay's since it began,
/// so that a load that comes in the middle of a long stay is seen within a window; a window of
/// four blocks holds a worker's lost time slice of a millisecond or two without ending the
/// stay while the workers are still faster.
const WINDOW: Duration = Duration::from_millis(8);
/// The fewest steps of a window ([`WINDOW`]): with steps of milliseconds, a worker's lost time
/// slice (or any one slow step) is then a small share of the window.
const WINDOW_STEPS: u32 = 16;
/// The fewest counted steps a block of a timing is judged on. With steps of milliseconds
/// (MuJoCo's), a block of [`BLOCK`] was one counted step, so that one step slowed by something
/// else on the machine (a worker descheduled once) could decide a timing.
const MIN_STEPS: u32 = 4;
/// How many times the last timing's own duration (of time inside the steps) the steps first run
/// the way found faster before the two ways are timed again; each timing that finds the same
/// way faster doubles the stay, up to [`LONGEST_STAY`], so that on a steady machine the timings
/// cost little. A timing runs half its blocks the slower way: with two threads at 0.55 times
/// one thread's time per step, a timing loses about a fifth of its own duration, so stays of 16
/// timings lose at most about 1.3% of the time to the timings (stays of 3 timings lost 5.5%).
/// That bound is what counts for steps of milliseconds (MuJoCo's), whose timings last a large
/// share of a second.
const STAY_PER_TIMING: u32 = 16;
/// How much faster than the calling thread alone the workers must be found to take part: a
/// margin for the noise of a short timing on a busy machine (on an idle one, two threads take
/// about 0.6 to 0.7 times the calling thread's time alone, which steps the whole batch in one
/// call).
const FASTER: f64 = 0.85;
/// How many blocks a timing has, half of them each way.
const BLOCKS: u32 = 16;

/// Whether the workers take part in the steps, so that the threads never step slower than the
/// calling thread alone. With the machine's cores busy (other processes, or the caller's own
/// threads), a worker loses its processor for a scheduler time slice now and then, and when it
/// does in the middle of a chunk the call waits for it; then the calling thread alone is
/// faster. So the steps are timed both ways now and then, in alternating blocks of [`BLOCK`]
/// (so that both ways meet the same load), and the faster way, by the mean time per step, runs
/// until the next timing ([`STAY_PER_TIMING`]), or, with the workers, until the steps of a
/// [`WINDOW`] take longer than the timing found the calling thread alone takes. Only the time
/// inside the steps counts; resets and seeds run the current way, untimed. The results are the
/// same either way: each chunk steps its own environments.
#[derive(Debug)]
struct Pace {
    /// Whether the steps run on the calling thread alone.
    solo: bool,
    /// The blocks left in the current timing (0: running the faster way).
    blocks: u32,
    /// The way the last timing found faster, and how long it runs before the next timing.
    faster_solo: bool,
    stay: Duration,
    /// Whether the last step switched to another block or spell.
    switched: bool,
    /// The mean time per step alone, in seconds, that the last timing found.
    alone: f64,
    /// The time spent in the steps of the current block or stay, and their number.
    spent: Duration,
    steps: u32,
    /// The time and steps of the current window of a stay with the workers ([`WINDOW`]).
    window: (Duration, u32),
    /// The time and steps of the current timing, on every thread and alone (index: `solo`).
    timed: [(Duration, u32); 2],
}

impl Pace {
    /// Starts with a timing.
    fn new() -> Self {
        Pace {
            solo: true,
            blocks: BLOCKS,
            faster_solo: false,
            stay: Duration::ZERO,
            switched: true,
            alone: 0.0,
            spent: Duration::ZERO,
            steps: 0,
            window: (Duration::ZERO, 0),
            timed: [(Duration::ZERO, 0); 2],
        }
    }

    /// Counts a step that took `elapsed`; at the end of a block or a stay, chooses the next.
    fn record(&mut self, elapsed: Duration) {
        if self.switched {
            // The first step of a block pays for the switch (a parked worker woken), which
            // the long spell after the timing pays once: not counted.
            self.switched = false;
            return;
        }
        self.spent += elapsed;
        self.steps += 1;
        // A stay with the workers ends with the first window whose steps took longer than the
        // last timing found the calling thread alone (the load changed, or the timing was
        // unlucky): a wrong choice costs a window, and the workers never run much slower than
        // the calling thread alone for longer.
        let mut losing = false;
        if !self.solo && self.blocks == 0 {
            self.window.0 += elapsed;
            self.window.1 += 1;
            if self.window.0 >= WINDOW && self.window.1 >= WINDOW_STEPS {
                losing = self.window.0.as_secs_f64() > self.alone * f64::from(self.window.1);
                self.window = (Duration::ZERO, 0);
            }
        }
        let over = if self.blocks > 0 {
            self.spent >= BLOCK && self.steps >= MIN_STEPS
        } else {
            self.spent >= self.stay
        };
        if !over && !losing {
            return;
        }
        if self.blocks > 0 {
            let (time, steps) = &mut self.timed[usize::from(self.solo)];
            *time += self.spent;
            *steps += self.steps;
            self.blocks -= 1;
            let mean = |(time, steps): (Duration, u32)| time.as_secs_f64() / f64::from(steps);
            let [parallel, solo] = self.timed;
            // Ended early when the workers clearly lose (the usual case on a busy machine),
            // which keeps the cost of a timing there small.
            let clear = parallel.1 > 0 && solo.1 > 0 && mean(parallel) > 2.0 * mean(solo);
            if self.blocks == 0 || clear {
                self.solo = clear || mean(parallel) > FASTER * mean(solo);
                let first = STAY_PER_TIMING * (parallel.0 + solo.0);
                self.stay = if self.solo == self.faster_solo {
                    (2 * self.stay).clamp(first, LONGEST_STAY.max(first))
                } else {
                    first
                };
                self.faster_solo = self.solo;
                self.alone = mean(solo);
                self.blocks = 0;
                self.timed = [(Duration::ZERO, 0); 2];
            } else {
                self.solo = !self.solo;
            }
        } else {
            // A timing starts alone, so that the workers' first block can be judged at once.
            self.blocks = BLOCKS;
            self.solo = true;
        }
        self.spent = Duration::ZERO;
        self.steps = 0;
        self.window = (Duration::ZERO, 0);
        self.switched = true;
    }
}

impl<S, T> Threads<S, T>
where
    S: SplitStates<T> + 'static,
    T: FlatScalar,
{
    /// Takes the batch and the chunks of its environments ([`chunks`]), and starts
    /// `threads - 1` workers (at most one thread per chunk).
    pub(crate) fn new(
        batch: Batch<S, T>,
        chunks: Vec<Range<usize>>,
        threads: usize,
    ) -> Result<Self, VectorError> {
        if batch.len() == 0 || chunks.is_empty() {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        }
        rl_core::check_parts(&chunks, batch.len());
        let count = chunks.len();
        let threads = threads.clamp(1, count);
        let homes: Vec<Range<usize>> = (0..threads)
            .map(|k| k * count / threads..(k + 1) * count / threads)
            .collect();
        let shared = Arc::new(Shared {
            cursors: (0..threads).map(|_| Padded(AtomicU64::new(0))).collect(),
            homes,
            results: (0..count)
                .map(|_| {
                    Padded(UnsafeCell::new(ChunkResult {
                        longest: 0,
                        kept: 0,
                        failure: None,
                        panic: None,
                    }))
                })
                .collect(),
            ranges: chunks,
            request: Padded(Request {
                number: AtomicU64::new(0),
                stop: AtomicBool::new(false),
                call: UnsafeCell::new(None),
            }),
            done: Padded(AtomicUsize::new(0)),
            #[cfg(test)]
            held: AtomicBool::new(false),
            #[cfg(test)]
            stepped_by_workers: AtomicU64::new(0),
        });
        let mut pool = Threads {
            batch,
            shared,
            workers: Vec::with_capacity(threads - 1),
            number: 0,
            pace: Pace::new(),
        };
        for home in 1..threads {
            let theirs = Arc::clone(&pool.shared);
            // On a failure, the workers already started are stopped and joined as `pool`
            // drops: none is left parked.
            let thread = spawn_running(format!("rl-vector-{home}"), move || {
                work(&theirs, home);
            })?;
            pool.workers.push(thread);
        }
        if !pool.workers.is_empty() {
            // Each part's scratch space and action buffer is made now, not in a later call.
            let ranges = &pool.shared.ranges;
            pool.batch.with_parts(ranges, |_| ((), None));
        }
        Ok(pool)
    }
}

impl<S: SplitStates<T>, T: FlatScalar> Threads<S, T> {
    /// The batch of every environment.
    pub(crate) fn main(&self) -> &Batch<S, T> {
        &self.batch
    }

    /// The number of chunks of a call on several threads.
    pub(crate) fn chunk_count(&self) -> usize {
        self.shared.ranges.len()
    }

    /// Runs `command` on the batch: seeds on the calling thread, resets and steps on every
    /// chunk, each thread writing the rows of the chunks it claims in `outputs` in place (see
    /// [`Shared`]), or on the calling thread alone in one part ([`Pace`]). Returns the failure
    /// of the lowest index, if any; passes on the panic of the lowest chunk that panicked,
    /// after every chunk is done.
    pub(crate) fn run(
        &mut self,
        command: Command,
        actions: &[S::Action],
        seeds: &[Option<Seed>],
        selected: &[bool],
        outputs: &mut Outputs<T>,
    ) -> Option<Failure> {
        let seeding = matches!(command, Command::Seed | Command::CheckSeeds);
        if self.workers.is_empty() || seeding {
            let rows = outputs.all_rows();
            return self
                .batch
                .execute(command, actions, seeds, selected, rows)
                .err();
        }
        let timed = matches!(command, Command::Step { .. });
        let start = timed.then(Instant::now);
        let failure = if self.pace.solo {
            let rows = outputs.all_rows();
            self.batch
                .execute(command, actions, seeds, selected, rows)
                .err()
        } else {
            self.run_on_every_thread(command, actions, selected, outputs)
        };
        if let Some(start) = start {
            self.pace.record(start.elapsed());
        }
        failure
    }

    /// Runs a reset or a step on every chunk, on every thread (see [`Shared`]).
    fn run_on_every_thread(
        &mut self,
        command: Command,
        actions: &[S::Action],
        selected: &[bool],
        outputs: &mut Outputs<T>,
    ) -> Option<Failure> {
        let Threads {
            batch,
            shared,
            workers,
            number,
            ..
        } = self;
        let shared = &**shared;
        let outputs = RawOutputs::new(outputs);
        let (failure, panic) = batch.with_parts(&shared.ranges, |lent| {
            let call = Call {
                command,
                actions: SharedSlice::new(actions),
                selected: SharedSlice::new(selected),
                outputs,
                states: lent.states.as_mut_ptr().cast::<()>(),
                columns: RawColumns::new(lent.columns),
                shared: lent.shared,
            };
            *number += 1;
            // SAFETY: every chunk of the last call is done and every cursor empty, so no
            // thread reads the call now (see `Shared`).
            unsafe { *shared.request.0.call.get() = Some(call) };
            shared.done.0.store(0, Ordering::Relaxed);
            for (cursor, home) in shared.cursors.iter().zip(&shared.homes) {
                cursor
                    .0
                    .store(pack(home.start, home.end), Ordering::Release);
            }
            shared.request.0.number.store(*number, Ordering::Release);
            for worker in workers.iter() {
                worker.thread().unpark();
            }
            shared.work(0);
            wait(shared, workers);
            let mut failure = None;
            let mut panic = None;
            let mut longest = 0;
            for (result, kept) in shared.results.iter().zip(lent.kept.iter_mut()) {
                // SAFETY: every chunk is done with this call (`wait`), and no call is
                // outstanding until the next `run`.
                let result = unsafe { &mut *result.0.get() };
                failure = failure.or(result.failure.take());
                panic = panic.or(result.panic.take());
                longest = longest.max(result.longest);
                *kept = result.kept;
            }
            // After a panic the parts' lists are not all written.
            let longest = panic.is_none().then_some(longest);
            ((failure, panic), longest)
        });
        if let Some(panic) = panic {
            resume_unwind(panic);
        }
        failure
    }
}

/// Waits until every chunk of the call is done: spins, then yields its processor between
/// checks (a worker that lost its processor in the middle of a chunk may get this one).
fn wait<S: SplitStates<T>, T: FlatScalar>(shared: &Shared<S, T>, workers: &[JoinHandle<()>]) {
    let mut spins = 0u32;
    while !shared.all_done() {
        if spins < SPINS_BEFORE_PARKING {
            spins += 1;
            std::hint::spin_loop();
        } else {
            // A worker catches its chunks' panics and ends only when told to stop; one
            // that ended in the middle of a call (a bug) must not hang the caller.
            assert!(
                !workers.iter().any(JoinHandle::is_finished),
                "a vector environment's worker thread ended during a call"
            );
            thread::yield_now();
        }
    }
}

impl<S: SplitStates<T>, T: FlatScalar> Drop for Threads<S, T> {
    /// Asks the workers to stop, wakes them and joins them: a worker never outlives its
    /// owner, whether the whole vector is dropped or a later worker failed to start.
    fn drop(&mut self) {
        self.shared.request.0.stop.store(true, Ordering::Release);
        for worker in self.workers.drain(..) {
            worker.thread().unpark();
            // A worker catches its chunks' panics, so joining fails only if the thread itself
            // died, which leaves nothing to clean up.
            let _ = worker.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::batch::Resets;
    use crate::vector::{Autoreset, EnvironmentStates};
    use rl_core::corridor::{Corridor, LEFT, RIGHT};
    use rl_core::{Environment, Mode, Simulator};

    type Copies = EnvironmentStates<Simulator<Corridor>>;

    /// The threads of corridors `0..len`, each seeded by its index, in
    /// `chunks(len, threads)`.
    fn corridors(len: usize, threads: usize) -> Threads<Copies, f32> {
        let corridor = Corridor::new(4, 0.3).expect("valid");
        let action_space = *Simulator::new(corridor.clone(), 0).action_space();
        let environments = (0..len)
            .map(|i| Simulator::new(corridor.clone(), i as u64))
            .collect();
        let batch = Batch::new(EnvironmentStates::new(environments, action_space), 0);
        Threads::new(batch, chunks(len, threads, false), threads).expect("threads")
    }

    /// Issue 33: when a later worker failed to start, the workers already started were left
    /// parked forever. Dropping the threads stops and joins every worker: their handles on
    /// the shared state are gone once the drop returns.
    #[test]
    fn dropped_threads_stop_and_join_their_workers() {
        let threads = corridors(6, 3);
        let shared = Arc::clone(&threads.shared);
        assert_eq!(
            Arc::strong_count(&shared),
            4,
            "the threads, two workers, this test"
        );
        drop(threads);
        assert_eq!(Arc::strong_count(&shared), 1, "the workers ended");
    }

    #[test]
    fn chunks_its_workers_do_not_claim_are_stepped_by_the_calling_thread() {
        let len = 6;
        let step = Command::Step {
            mode: Mode::Training,
            autoreset: Autoreset::NextStep,
        };
        let reset = Command::Reset {
            mode: Mode::Training,
            which: Resets::All,
        };
        let mut single = corridors(len, 1);
        let mut split = corridors(len, 2);
        assert_eq!(split.chunk_count(), len, "one chunk per environment here");
        // Every step on both threads, whatever the timings would find (this test is about the
        // claims; under Miri or on a busy machine they might choose the calling thread alone).
        split.pace = Pace {
            solo: false,
            blocks: 0,
            stay: Duration::MAX,
            alone: f64::INFINITY,
            ..Pace::new()
        };
        let mut expected = Outputs::<f32>::new(len, 4, false);
        let mut outputs = Outputs::<f32>::new(len, 4, false);
        let seeds = vec![Some(Seed::from(5)); len];
        for (threads, outputs) in [(&mut single, &mut expected), (&mut split, &mut outputs)] {
            assert!(
                threads
                    .run(Command::Seed, &[], &seeds, &[], outputs)
                    .is_none()
            );
            assert!(threads.run(reset, &[], &[], &[], outputs).is_none());
        }
        // The worker is held as a descheduled worker would be: it sees every call but claims
        // nothing, so the calling thread steps every chunk each time, and the results are the
        // single thread's.
        let shared = Arc::clone(&split.shared);
        let stepped_by_workers = || shared.stepped_by_workers.load(Ordering::Relaxed);
        // The seed and the reset may have been stepped by either thread.
        let before = stepped_by_workers();
        shared.held.store(true, Ordering::Release);
        for call in 0..40 {
            let actions: Vec<i64> = (0..len)
                .map(|i| if (i + call) % 3 == 0 { LEFT } else { RIGHT })
                .collect();
            assert!(
                single
                    .run(step, &actions, &[], &[], &mut expected)
                    .is_none()
            );
            assert!(split.run(step, &actions, &[], &[], &mut outputs).is_none());
            assert_eq!(
                stepped_by_workers(),
                before,
                "call {call}: the held worker stepped a chunk"
            );
            assert_eq!(outputs.observations, expected.observations, "call {call}");
            assert_eq!(outputs.rewards, expected.rewards, "call {call}");
            assert_eq!(outputs.terminated, expected.terminated, "call {call}");
            assert_eq!(outputs.truncated, expected.truncated, "call {call}");
        }
        shared.held.store(false, Ordering::Release);
        // Released, the worker claims chunks again: it steps one within the first calls it
        // runs alongside the calling thread (how many depends on the scheduler, hence the
        // generous bound), and the results stay the single thread's.
        let mut calls = 0;
        while stepped_by_workers() == before && calls < 1_000_000 {
            calls += 1;
            assert!(
                split
                    .run(step, &[RIGHT; 6], &[], &[], &mut outputs)
                    .is_none()
            );
            assert!(
                single
                    .run(step, &[RIGHT; 6], &[], &[], &mut expected)
                    .is_none()
            );
            assert_eq!(outputs.observations, expected.observations, "call {calls}");
        }
        assert!(
            stepped_by_workers() > before,
            "the released worker stepped no chunk in {calls} calls"
        );
    }

    #[test]
    fn the_chunks_are_even_contiguous_and_cover_every_environment_in_order() {
        assert_eq!(chunks(5, 1, false), vec![0..5]);
        assert_eq!(chunks(5, 1, true), vec![0..5]);
        assert_eq!(chunks(1024, 2, false).len(), 2 * CHUNKS_PER_THREAD);
        assert_eq!(chunks(3, 2, false), vec![0..1, 1..2, 2..3]);
        assert_eq!(chunks(3, 2, true), vec![0..1, 1..2, 2..3]);
        let cases = [
            (1, 1),
            (7, 4),
            (130, 3),
            (64, 2),
            (65, 2),
            (1000, 3),
            (3, 3),
        ];
        for ((len, threads), costly) in cases.into_iter().flat_map(|c| [(c, false), (c, true)]) {
            let list = chunks(len, threads, costly);
            let count = if threads == 1 {
                1
            } else if costly {
                len.min(MAX_PARTS)
            } else {
                (threads * CHUNKS_PER_THREAD).min(len)
            };
            assert_eq!(list.len(), count, "{len} on {threads}, costly {costly}");
            let mut next = 0;
            for chunk in &list {
                assert_eq!(chunk.start, next, "{len} on {threads}");
                let even = len / list.len();
                assert!(
                    (even..=even + 1).contains(&chunk.len()),
                    "{len} on {threads}: {chunk:?}"
                );
                next = chunk.end;
            }
            assert_eq!(next, len, "{len} on {threads}");
        }
    }

    /// Runs steps that take `solo` alone and `parallel` on every thread until the end of the
    /// next timing; returns whether it chose to step alone, and the time the timing counted.
    fn timing(pace: &mut Pace, solo: u64, parallel: u64) -> (bool, Duration) {
        let mut counted = Duration::ZERO;
        let mut step = |pace: &mut Pace| {
            let elapsed = Duration::from_micros(if pace.solo { solo } else { parallel });
            let timed = pace.blocks > 0 && !pace.switched;
            pace.record(elapsed);
            if timed {
                counted += elapsed;
            }
        };
        while pace.blocks == 0 {
            step(pace);
        }
        while pace.blocks > 0 {
            step(pace);
        }
        (pace.solo, counted)
    }

    #[test]
    // Safe arithmetic over millions of simulated steps (stays of up to 4 s of 10 µs steps):
    // more than 7 minutes under Miri, which checks this module's unsafe code, not this.
    #[cfg_attr(miri, ignore)]
    fn the_pace_keeps_the_faster_way_and_times_a_steady_one_less_often() {
        let mut pace = Pace::new();
        assert!(
            timing(&mut pace, 10, 30).0,
            "workers three times slower: alone"
        );
        let (solo, timed) = timing(&mut pace, 10, 6);
        assert!(!solo, "workers faster: with them");
        assert_eq!(
            pace.stay,
            STAY_PER_TIMING * timed,
            "the way changed: timed again soon"
        );
        let before = pace.stay;
        assert!(!timing(&mut pace, 10, 6).0);
        assert_eq!(
            pace.stay,
            2 * before,
            "the same way again: timed half as often"
        );
        let (solo, timed) = timing(&mut pace, 10, 9);
        assert!(solo, "workers barely faster (within the margin): alone");
        assert_eq!(pace.stay, STAY_PER_TIMING * timed);
        for _ in 0..8 {
            timing(&mut pace, 10, 9);
        }
        assert_eq!(
            pace.stay, LONGEST_STAY,
            "the stays double up to the longest"
        );
        // A stay with the workers whose steps turn slower than alone ends after a window,
        // even after a long good spell.
        assert!(!timing(&mut pace, 10, 6).0);
        for _ in 0..10_000 {
            pace.record(Duration::from_micros(6));
        }
        assert_eq!(pace.blocks, 0, "the workers still faster: the stay goes on");
        let mut slow = Duration::ZERO;
        while pace.blocks == 0 {
            pace.record(Duration::from_micros(11));
            slow += Duration::from_micros(11);
        }
        assert!(
            slow <= 2 * WINDOW,
            "{slow:?} of slower steps than alone before timing again"
        );
        // The first step of each block is not counted: a slow first step with the workers
        // (a parked worker woken) changes nothing.
        let mut pace = Pace::new();
        while pace.blocks > 0 {
            let micros = match (pace.solo, pace.switched) {
                (true, _) => 10,
                (false, true) => 100_000,
                (false, false) => 6,
            };
            pace.record(Duration::from_micros(micros));
        }
        assert!(!pace.solo, "the workers' first steps were counted");
    }

    /// Steps of milliseconds (MuJoCo's vectors): every block of a timing counts MIN_STEPS
    /// steps, and one slow step in a stay with the workers (a worker descheduled once) does
    /// not end it; steps slower than alone still do, within a window.
    #[test]
    fn the_pace_judges_slow_steps_on_several_of_them() {
        let time_with_workers = |pace: &mut Pace| {
            let mut steps = 0;
            while pace.blocks > 0 {
                pace.record(Duration::from_millis(if pace.solo { 4 } else { 2 }));
                steps += 1;
            }
            assert!(!pace.solo, "workers twice as fast: with them");
            steps
        };
        let mut pace = Pace::new();
        // The first step of each block is not counted.
        assert_eq!(time_with_workers(&mut pace), BLOCKS * (MIN_STEPS + 1));
        // The stay's first step is not counted either; its next is ten times slower.
        pace.record(Duration::from_millis(2));
        pace.record(Duration::from_millis(20));
        for _ in 0..100 {
            pace.record(Duration::from_millis(2));
        }
        assert_eq!(pace.blocks, 0, "one slow step ended the stay");
        assert!(!pace.solo);
        let mut pace = Pace::new();
        time_with_workers(&mut pace);
        let mut slow = 0;
        while pace.blocks == 0 {
            pace.record(Duration::from_millis(9));
            slow += 1;
        }
        assert!(
            slow <= WINDOW_STEPS + 1,
            "{slow} steps at twice the time alone before timing again"
        );
    }

    #[test]
    fn every_thread_claims_its_own_chunks_from_the_front_and_others_from_the_back() {
        let cursor = AtomicU64::new(pack(4, 8));
        assert_eq!(claim(&cursor, true), Some(4));
        assert_eq!(claim(&cursor, false), Some(7));
        assert_eq!(claim(&cursor, false), Some(6));
        assert_eq!(claim(&cursor, true), Some(5));
        assert_eq!(claim(&cursor, true), None);
        assert_eq!(claim(&cursor, false), None);
    }
}
