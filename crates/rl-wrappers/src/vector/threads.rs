//! [`Threads`]: the scheduling of a vector environment's calls over its threads: one even,
//! contiguous share of the environments per thread ([`shares`]), one batch each, fixed for the
//! vector's life; the calling thread steps its own share and each worker thread, started
//! once, steps the next; every thread writes its rows of the vector environment's buffers in
//! place (and copies them into the caller's [`Mirror`], if the call has one). A share whose
//! worker has not claimed it by the time the calling thread is done with its own (a worker
//! descheduled or parked, or its core busy with other work) is stepped by the calling thread
//! instead.
//!
//! This module holds the only `unsafe` code of the workspace's libraries (ARCHITECTURE.md,
//! "Unsafe code"; docs/PERFORMANCE.md, "The vector runtime", says what it buys). Safe Rust
//! cannot lend disjoint rows of one buffer to threads that outlive the call, nor hand a call
//! to a thread without a lock or a boxed message; this module does both through addresses,
//! under the protocol written on [`Link`].

#![allow(unsafe_code)]

use std::any::Any;
use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::{self, JoinHandle};

use ndarray::Array2;
use rl_core::Info;

use crate::VectorError;
use crate::vector::batch::{Batch, Command, Failure, execute};
use crate::vector::outputs::{Columns, Form, MapColumns, Mirror, Outputs, Owned, Rows, Slices};

/// How many times a waiting thread checks before it parks (a worker waiting for the next
/// call) or yields its processor (the calling thread waiting for a worker). A call usually
/// follows the last one within microseconds when stepping in a loop, and waking a parked
/// thread costs tens of microseconds; a worker left idle longer parks and uses no processor
/// time.
const SPINS_BEFORE_PARKING: u32 = 1 << 14;

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
/// call writes the rows of its own share.
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

/// The addresses of a [`Mirror`]'s buffers, into which each thread of a call copies the
/// rows of its own share once they are stepped.
struct RawMirror<T> {
    dim: usize,
    len: usize,
    observations: *mut T,
    rewards: *mut f64,
    terminated: *mut u8,
    truncated: *mut u8,
}

impl<T> Clone for RawMirror<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for RawMirror<T> {}

impl<T> RawMirror<T> {
    /// The addresses of `mirror`'s buffers, for `len` environments with rows of `dim`.
    /// Every later access to them until the end of the call goes through these addresses.
    fn new(mirror: Mirror<'_, T>, len: usize, dim: usize) -> Self {
        // Checked before the call (`Mirror::check`); `part` relies on it for its slices.
        assert!(
            mirror.observations.len() == len * dim
                && mirror.rewards.len() == len
                && mirror.terminated.len() == len
                && mirror.truncated.len() == len,
            "the mirror's lengths are checked before the call"
        );
        RawMirror {
            dim,
            len,
            observations: mirror.observations.as_mut_ptr(),
            rewards: mirror.rewards.as_mut_ptr(),
            terminated: mirror.terminated.as_mut_ptr(),
            truncated: mirror.truncated.as_mut_ptr(),
        }
    }

    /// The mirror's part for the environments in `range`.
    ///
    /// # Safety
    ///
    /// The buffers `new` took the addresses of are alive and not otherwise accessed for `'a`,
    /// and no other part of an overlapping range is alive during `'a`.
    unsafe fn part<'a>(&self, range: Range<usize>) -> Mirror<'a, T> {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "mirror rows {range:?} of {} environments",
            self.len
        );
        let count = range.end - range.start;
        // SAFETY: each buffer holds `len` entries (`len × dim` for observations), `range` lies
        // within them (asserted), and the caller promises exclusive access for `'a`.
        unsafe {
            Mirror {
                observations: slice_at(self.observations, range.start * self.dim, count * self.dim),
                rewards: slice_at(self.rewards, range.start, count),
                terminated: slice_at(self.terminated, range.start, count),
                truncated: slice_at(self.truncated, range.start, count),
            }
        }
    }
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

/// What one call asks of every share.
struct Call<B: Batch> {
    command: Command,
    actions: SharedSlice<B::Action>,
    /// The seeds of a [`Command::Seed`], one per environment.
    seeds: SharedSlice<Option<u64>>,
    /// The selection of a [`Command::Reset`] of `Resets::Selected`, one entry per
    /// environment.
    selected: SharedSlice<bool>,
    outputs: RawOutputs<B::Scalar>,
    /// Where each share's results are also copied, if the caller gave a [`Mirror`].
    mirror: Option<RawMirror<B::Scalar>>,
}

impl<B: Batch> Clone for Call<B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: Batch> Copy for Call<B> {}

/// A share of the environments that a worker steps: its batch, and what the last call gave.
struct Share<B: Batch> {
    batch: B,
    failure: Option<Failure>,
    panic: Option<Box<dyn Any + Send>>,
}

impl<B: Batch> Share<B> {
    /// Runs `call` on the batch, keeping its failure or its panic.
    ///
    /// # Safety
    ///
    /// As for [`run_batch`], for this share's batch.
    unsafe fn run(&mut self, call: &Call<B>) {
        let batch = &mut self.batch;
        // SAFETY: as the caller promises.
        let result = catch_unwind(AssertUnwindSafe(|| unsafe { run_batch(batch, call) }));
        match result {
            Ok(failure) => self.failure = failure,
            Err(panic) => self.panic = Some(panic),
        }
    }
}

/// Runs `call` on `batch` in its own rows of the outputs (and of the mirror, if the call has
/// one); returns its failure.
///
/// # Safety
///
/// `call`'s actions, seeds, selection, outputs and mirror are alive, the first three
/// unwritten and `batch`'s rows of the outputs and of the mirror accessed by nothing else,
/// until this returns.
unsafe fn run_batch<B: Batch>(batch: &mut B, call: &Call<B>) -> Option<Failure> {
    let range = batch.first()..batch.first() + batch.len();
    // SAFETY: the batch's rows and entries are its own, as the caller promises.
    let (actions, seeds, selected, rows) = unsafe {
        (
            call.actions.get(range.clone()),
            call.seeds.get(range.clone()),
            call.selected.get(range.clone()),
            call.outputs.rows(range.clone()),
        )
    };
    let result = execute(batch, call.command, actions, seeds, selected, rows);
    if let Some(mirror) = &call.mirror {
        // SAFETY: as above, and the rows written by `execute` are no longer borrowed.
        let (rows, part) = unsafe { (call.outputs.rows(range.clone()), mirror.part(range)) };
        rows.mirror_into(part);
    }
    result.err()
}

/// What the calling thread and one worker share.
///
/// # The protocol
///
/// Calls are numbered from 1. For call `n` the calling thread writes `call`, then stores `n`
/// in `number` (release). Whoever steps the share for call `n` first claims it by moving
/// `claimed` from `n - 1` to `n` (a compare-and-swap: the worker when it sees `n`, or the
/// calling thread once its own share is done), then reads `call`, steps `share`, and stores
/// `n` in `done` (release). So:
///
/// - `call` is written only while `done` equals `claimed` (no call outstanding) and read only
///   by the one thread that claimed the current call, before it stores `done`;
/// - `share` is accessed only by that thread until it stores `done`, and by the calling thread
///   while no call is outstanding (it read `done == claimed == number`, acquire);
/// - the rows each thread writes (of the outputs, and of the mirror if the call has one) are
///   those of its own share, disjoint from every other share's, and [`Threads::run`] neither
///   returns nor unwinds until every share's `done` has reached the call's number, so the
///   buffers and actions outlive every access.
struct Link<B: Batch> {
    /// Written by the calling thread, read by the worker while it waits.
    request: Padded<Request<B>>,
    /// Written by whoever steps the share, read by the calling thread when it collects.
    reply: Padded<Reply>,
    share: UnsafeCell<Share<B>>,
}

/// The calling thread's side of a [`Link`].
struct Request<B: Batch> {
    /// The number of the last call.
    number: AtomicU64,
    /// Set once, when the threads are dropped.
    stop: AtomicBool,
    /// Tests only: while set, the worker sees calls but does not claim them, as a worker the
    /// system has descheduled, so that the calling thread's takeover is tested every time
    /// rather than when the scheduler happens to delay the worker.
    #[cfg(test)]
    held: AtomicBool,
    call: UnsafeCell<Option<Call<B>>>,
}

/// The stepping side of a [`Link`].
struct Reply {
    /// The number of the last call claimed.
    claimed: AtomicU64,
    /// The number of the last call done.
    done: AtomicU64,
    /// Tests only: how many calls the worker stepped itself (the others were stepped by the
    /// calling thread).
    #[cfg(test)]
    stepped_by_worker: AtomicU64,
    /// Set by the worker once its thread runs: the thread's start-up (the runtime's naming of
    /// it allocates) is over before the vector is handed out, so a thread the system starts
    /// late cannot allocate in the middle of a step.
    started: AtomicBool,
}

/// The infos a worker writes in place are dropped and replaced on its thread.
const _: fn() = || {
    fn send<X: Send>() {}
    send::<Info>();
};

// SAFETY: a `Link` crosses to its worker thread, which steps the share (`B: Send`), reads the
// actions (`B::Action: Sync`) and writes rows of the outputs (`B::Scalar: Send`; the infos are
// `Info`, which is `Send`) under the protocol above, which orders every access to the
// `UnsafeCell`s and to the addresses in `call`.
unsafe impl<B> Send for Link<B>
where
    B: Batch + Send,
    B::Action: Sync,
    B::Scalar: Send,
{
}

// SAFETY: as for `Send`: the protocol above lets one thread at a time access the cells.
unsafe impl<B> Sync for Link<B>
where
    B: Batch + Send,
    B::Action: Sync,
    B::Scalar: Send,
{
}

impl<B: Batch> Link<B> {
    /// Claims call `number` (whose predecessor is done); true if this thread is the one to
    /// step it.
    fn claim(&self, number: u64) -> bool {
        self.reply
            .0
            .claimed
            .compare_exchange(number - 1, number, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    }

    /// Steps the share for call `number`, which this thread claimed, and reports it done.
    ///
    /// # Safety
    ///
    /// This thread claimed call `number` and it is not done yet.
    unsafe fn step_claimed(&self, number: u64) {
        // SAFETY: the calling thread wrote the call before publishing `number`, which this
        // thread loaded (acquire) before claiming it, and writes it again only once this call
        // is done; the claim gives this thread the share and its rows until then.
        unsafe {
            if let Some(call) = *self.request.0.call.get() {
                (*self.share.get()).run(&call);
            }
        }
        self.reply.0.done.store(number, Ordering::Release);
    }
}

/// The stack of a worker thread: Rust's default for spawned threads, set explicitly so that
/// the vector's size check reserves what the threads will take.
pub(crate) const WORKER_STACK: usize = 2 << 20;

/// The loop of a worker thread: waits for a call, claims and steps its share, until told to
/// stop.
fn work<B: Batch>(link: &Link<B>) {
    link.reply.0.started.store(true, Ordering::Release);
    let request = &link.request.0;
    let mut seen = 0;
    loop {
        let mut spins = 0;
        let number = loop {
            let number = request.number.load(Ordering::Acquire);
            if number != seen {
                break number;
            }
            if request.stop.load(Ordering::Acquire) {
                return;
            }
            if spins < SPINS_BEFORE_PARKING {
                spins += 1;
                std::hint::spin_loop();
            } else {
                // The calling thread unparks after each call it publishes, so a call
                // published after the check above makes this return at once.
                thread::park();
            }
        };
        seen = number;
        #[cfg(test)]
        while request.held.load(Ordering::Acquire) && !request.stop.load(Ordering::Acquire) {
            thread::yield_now();
        }
        // The calling thread may have claimed it first (then it steps the share itself).
        if link.claim(number) {
            // Counted before the call is reported done, so that the calling thread sees it.
            #[cfg(test)]
            link.reply
                .0
                .stepped_by_worker
                .fetch_add(1, Ordering::Relaxed);
            // SAFETY: claimed just now, and only this thread reports it done.
            unsafe { link.step_claimed(number) };
        }
    }
}

/// A worker thread and its link.
struct Worker<B: Batch> {
    link: Arc<Link<B>>,
    thread: Option<JoinHandle<()>>,
}

impl<B: Batch> Worker<B> {
    /// Waits until the worker's share is done with call `number`: steps it here if the worker
    /// has not claimed it (and `step`, otherwise only claims it), or waits for the worker.
    /// Returns false if the worker's thread ended without finishing the call (a bug: a worker
    /// catches its share's panics and ends only when told to stop), which must not hang the
    /// caller; a thread that ended accesses nothing any more.
    fn collect(&self, number: u64, step: bool) -> bool {
        let link = &*self.link;
        // Read first, so that the usual case (the worker claimed it) writes no line the
        // worker writes next.
        if link.reply.0.claimed.load(Ordering::Relaxed) != number && link.claim(number) {
            if step {
                // SAFETY: claimed just now.
                unsafe { link.step_claimed(number) };
            } else {
                link.reply.0.done.store(number, Ordering::Release);
            }
            return true;
        }
        let mut spins = 0u32;
        while link.reply.0.done.load(Ordering::Acquire) != number {
            if spins < SPINS_BEFORE_PARKING {
                spins += 1;
                std::hint::spin_loop();
            } else {
                if self.thread.as_ref().is_none_or(JoinHandle::is_finished) {
                    return false;
                }
                thread::yield_now();
            }
        }
        true
    }
}

/// The even, contiguous shares of `len` environments on `threads` threads, in order: thread
/// `k` steps environments `k * len / threads` up to `(k + 1) * len / threads` (one share with
/// one thread; never more shares than environments).
///
/// A share's start needs no rounding to the kernels' blocks: a kernel cuts its own slice into
/// blocks from the slice's start, into local arrays, and every environment's results are its
/// own, so a share of any length steps as fast, but for its last partial block, and gives the
/// same bits.
pub(crate) fn shares(len: usize, threads: usize) -> Vec<Range<usize>> {
    let threads = threads.clamp(1, len.max(1));
    (0..threads)
        .map(|k| k * len / threads..(k + 1) * len / threads)
        .collect()
}

/// The threads of a vector environment and their shares: the calling thread's batch (the
/// first environments), and one worker per other thread with the next share each.
pub(crate) struct Threads<B: Batch> {
    main: B,
    workers: Vec<Worker<B>>,
    /// The number of the last call.
    number: u64,
}

impl<B> Threads<B>
where
    B: Batch + Send + 'static,
    B::Action: Sync,
    B::Scalar: Send,
{
    /// Puts the first share's batch on the calling thread and starts a worker for each
    /// other share's, in order.
    pub(crate) fn new(batches: Vec<B>) -> Result<Self, VectorError> {
        let mut batches = batches.into_iter();
        let Some(main) = batches.next() else {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        };
        let mut workers = Vec::with_capacity(batches.len());
        for batch in batches {
            // On a failure, the workers already started are stopped and joined as `workers`
            // drops them (`Worker`'s `Drop`): none is left parked.
            workers.push(Worker::spawn(batch, workers.len() + 1)?);
        }
        Ok(Threads {
            main,
            workers,
            number: 0,
        })
    }
}

impl<B: Batch> Threads<B> {
    /// The share of a worker, while no call is outstanding.
    fn share(&self, worker: &Worker<B>) -> &Share<B> {
        // SAFETY: `run` takes `&mut self` and returns (or unwinds) only once every share is
        // done, so while `self` is borrowed no thread accesses a share.
        unsafe { &*worker.link.share.get() }
    }

    /// The calling thread's batch (the first environments; all of them with one thread).
    pub(crate) fn main(&self) -> &B {
        &self.main
    }

    /// Every batch, in the order of the environments.
    pub(crate) fn batches(&self) -> impl Iterator<Item = &B> + '_ {
        let workers = self.workers.iter().map(|worker| &self.share(worker).batch);
        std::iter::once(&self.main).chain(workers)
    }

    /// Runs `command` on every share, each thread writing its rows of `outputs` in place:
    /// hands the call to each worker, runs the calling thread's batch, then waits for each
    /// worker (stepping a share its worker has not claimed). Returns the failure of the
    /// lowest index, if any; passes on the panic of a share, after every share is done.
    pub(crate) fn run(
        &mut self,
        command: Command,
        actions: &[B::Action],
        seeds: &[Option<u64>],
        selected: &[bool],
        outputs: &mut Outputs<B::Scalar>,
        mirror: Option<Mirror<'_, B::Scalar>>,
    ) -> Option<Failure> {
        if self.workers.is_empty() {
            let main = &mut self.main;
            let result = execute(main, command, actions, seeds, selected, outputs.all_rows());
            if let Some(mirror) = mirror {
                outputs.all_rows().mirror_into(mirror);
            }
            return result.err();
        }
        self.number += 1;
        let number = self.number;
        let call = Call {
            command,
            actions: SharedSlice::new(actions),
            seeds: SharedSlice::new(seeds),
            selected: SharedSlice::new(selected),
            outputs: RawOutputs::new(outputs),
            mirror: mirror.map(|mirror| {
                RawMirror::new(mirror, outputs.rewards.len(), outputs.observations.ncols())
            }),
        };
        for worker in &self.workers {
            let request = &worker.link.request.0;
            // SAFETY: every share is done with the last call (`run` waits for them all), so
            // no thread reads the call now (see `Link`).
            unsafe { *request.call.get() = Some(call) };
            request.number.store(number, Ordering::Release);
            if let Some(thread) = &worker.thread {
                thread.thread().unpark();
            }
        }
        // Waits for every share, without stepping more, if the calling thread's own batch
        // panics: the buffers must outlive every access.
        let guard = Collect {
            workers: &self.workers,
            number,
        };
        // SAFETY: the calling thread's batch's rows are its own; `call`'s buffers outlive this
        // call, since `guard` waits for every share before they can be used again or freed.
        let mut failure = unsafe { run_batch(&mut self.main, &call) };
        std::mem::forget(guard);
        let mut panic = None;
        let mut ended = false;
        for worker in &self.workers {
            if !worker.collect(number, true) {
                ended = true;
                continue;
            }
            // SAFETY: the share is done with this call (`collect` read `done`, acquire), and
            // no call is outstanding until the next `run`.
            let share = unsafe { &mut *worker.link.share.get() };
            failure = failure.or(share.failure.take());
            panic = panic.or(share.panic.take());
        }
        assert!(
            !ended,
            "a vector environment's worker thread ended during a call"
        );
        if let Some(panic) = panic {
            resume_unwind(panic);
        }
        failure
    }
}

/// Waits for every worker's share of call `number` when dropped, claiming (without stepping)
/// those not claimed yet: what the calling thread does when its own batch panics, so that no
/// thread writes the buffers after the panic leaves [`Threads::run`].
struct Collect<'a, B: Batch> {
    workers: &'a [Worker<B>],
    number: u64,
}

impl<B: Batch> Drop for Collect<'_, B> {
    fn drop(&mut self) {
        for worker in self.workers {
            // A worker whose thread ended accesses nothing any more: nothing to wait for.
            let _ = worker.collect(self.number, false);
        }
    }
}

impl<B> Worker<B>
where
    B: Batch + Send + 'static,
    B::Action: Send + Sync + 'static,
    B::Scalar: Send,
{
    /// Starts the worker thread number `index` over `batch`.
    fn spawn(batch: B, index: usize) -> Result<Self, VectorError> {
        let link = Arc::new(Link {
            request: Padded(Request {
                number: AtomicU64::new(0),
                stop: AtomicBool::new(false),
                #[cfg(test)]
                held: AtomicBool::new(false),
                call: UnsafeCell::new(None),
            }),
            reply: Padded(Reply {
                claimed: AtomicU64::new(0),
                done: AtomicU64::new(0),
                #[cfg(test)]
                stepped_by_worker: AtomicU64::new(0),
                started: AtomicBool::new(false),
            }),
            share: UnsafeCell::new(Share {
                batch,
                failure: None,
                panic: None,
            }),
        });
        let theirs = Arc::clone(&link);
        let thread = thread::Builder::new()
            .name(format!("rl-vector-{index}"))
            .stack_size(WORKER_STACK)
            .spawn(move || work(&theirs))
            .map_err(|e| VectorError::ThreadSpawn {
                reason: e.to_string(),
            })?;
        // Wait until the thread runs (found by the allocation test under load: a worker the
        // system started only during a later step allocated its name then).
        while !link.reply.0.started.load(Ordering::Acquire) {
            if thread.is_finished() {
                return Err(VectorError::ThreadSpawn {
                    reason: format!("the thread rl-vector-{index} ended before it started"),
                });
            }
            thread::yield_now();
        }
        Ok(Worker {
            link,
            thread: Some(thread),
        })
    }
}

impl<B: Batch> Drop for Worker<B> {
    /// Asks the thread to stop, wakes it and joins it: a worker never outlives its owner,
    /// whether the whole pool is dropped or a later worker failed to start.
    fn drop(&mut self) {
        self.link.request.0.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            // A worker catches its share's panics, so joining fails only if the thread itself
            // died, which leaves nothing to clean up.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vector::batch::Resets;
    use crate::vector::{Autoreset, EnvironmentBatch};
    use rl_core::corridor::{Corridor, LEFT, RIGHT};
    use rl_core::{Environment, Mode, Simulator};

    type Copies = EnvironmentBatch<Simulator<Corridor>, f32>;

    /// The batch of corridors `first..first + len`, each seeded by its index.
    fn corridors(first: usize, len: usize) -> Copies {
        let corridor = Corridor::new(4, 0.3).expect("valid");
        let environments = (first..first + len)
            .map(|i| Simulator::new(corridor.clone(), i as u64))
            .collect();
        let action_space = *Simulator::new(corridor, 0).action_space();
        EnvironmentBatch::new(environments, first, action_space)
    }

    /// Issue 33: when a later worker failed to start, the workers already started were left
    /// parked forever (only the whole pool stopped its threads). Each worker now stops and
    /// joins its own thread when dropped, which is what `Threads::new` relies on when a spawn
    /// fails: the thread's handle on the link is gone once the drop returns.
    #[test]
    fn a_dropped_worker_stops_and_joins_its_thread() {
        let worker = Worker::spawn(corridors(0, 2), 1).expect("a thread");
        let link = Arc::clone(&worker.link);
        assert_eq!(
            Arc::strong_count(&link),
            3,
            "the worker, its thread and this test"
        );
        drop(worker);
        assert_eq!(
            Arc::strong_count(&link),
            1,
            "the thread ended and released the link"
        );
    }

    #[test]
    fn a_share_its_worker_has_not_claimed_is_stepped_by_the_calling_thread() {
        let len = 6;
        let step = Command::Step {
            mode: Mode::Training,
            autoreset: Autoreset::NextStep,
        };
        let reset = Command::Reset {
            mode: Mode::Training,
            which: Resets::All,
        };
        let mut single = Threads::new(vec![corridors(0, len)]).expect("threads");
        let mut split = Threads::new(vec![corridors(0, 3), corridors(3, 3)]).expect("threads");
        let mut expected = Outputs::<f32>::new(len, 4, false);
        let mut outputs = Outputs::<f32>::new(len, 4, false);
        for (threads, outputs) in [(&mut single, &mut expected), (&mut split, &mut outputs)] {
            assert!(
                threads
                    .run(Command::Seed, &[], &[Some(5); 6][..len], &[], outputs, None)
                    .is_none()
            );
            assert!(threads.run(reset, &[], &[], &[], outputs, None).is_none());
        }
        // The worker is held as a descheduled worker would be: it sees every call but claims
        // none, so the calling thread steps the worker's share each time, and the results
        // are the single thread's.
        let link = Arc::clone(&split.workers[0].link);
        let stepped_by_worker = || link.reply.0.stepped_by_worker.load(Ordering::Relaxed);
        // The seed and the reset may have been stepped by either thread.
        let before = stepped_by_worker();
        link.request.0.held.store(true, Ordering::Release);
        for call in 0..40 {
            let actions: Vec<i64> = (0..len)
                .map(|i| if (i + call) % 3 == 0 { LEFT } else { RIGHT })
                .collect();
            assert!(
                single
                    .run(step, &actions, &[], &[], &mut expected, None)
                    .is_none()
            );
            assert!(
                split
                    .run(step, &actions, &[], &[], &mut outputs, None)
                    .is_none()
            );
            assert_eq!(
                stepped_by_worker(),
                before,
                "call {call}: the held worker's share was not stepped by the calling thread"
            );
            assert_eq!(outputs.observations, expected.observations, "call {call}");
            assert_eq!(outputs.rewards, expected.rewards, "call {call}");
            assert_eq!(outputs.terminated, expected.terminated, "call {call}");
            assert_eq!(outputs.truncated, expected.truncated, "call {call}");
        }
        link.request.0.held.store(false, Ordering::Release);
        // Released, the worker claims calls again: it steps one itself within the first calls
        // it runs alongside the calling thread (how many depends on the scheduler, hence the
        // generous bound), and the results stay the single thread's.
        let mut calls = 0;
        while stepped_by_worker() == before && calls < 1_000_000 {
            calls += 1;
            assert!(
                split
                    .run(step, &[RIGHT; 6], &[], &[], &mut outputs, None)
                    .is_none()
            );
            assert!(
                single
                    .run(step, &[RIGHT; 6], &[], &[], &mut expected, None)
                    .is_none()
            );
            assert_eq!(outputs.observations, expected.observations, "call {calls}");
        }
        assert!(
            stepped_by_worker() > before,
            "the released worker stepped no call in {calls}"
        );
    }

    #[test]
    fn the_shares_are_even_contiguous_and_cover_every_environment_in_order() {
        assert_eq!(shares(5, 1), vec![0..5]);
        assert_eq!(shares(1024, 2), vec![0..512, 512..1024]);
        assert_eq!(shares(7, 3), vec![0..2, 2..4, 4..7]);
        for (len, threads) in [(1, 1), (7, 4), (130, 3), (64, 2), (1000, 3), (3, 8)] {
            let list = shares(len, threads);
            assert_eq!(list.len(), threads.min(len), "{len} on {threads}");
            let mut next = 0;
            for share in &list {
                assert_eq!(share.start, next, "{len} on {threads}");
                let even = len / list.len();
                assert!(
                    (even..=even + 1).contains(&share.len()),
                    "{len} on {threads}: {share:?}"
                );
                next = share.end;
            }
            assert_eq!(next, len, "{len} on {threads}");
        }
    }
}
