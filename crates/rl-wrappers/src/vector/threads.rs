//! [`Threads`]: the scheduling of a vector environment: one contiguous share of the
//! environments per thread, made of chunks ([`layout`](crate::vector::balance::layout)); the
//! calling thread steps its chunks in place, each other share is handed to a worker thread
//! started once, which steps it in its chunks' own buffers, and is copied back into the
//! vector environment's buffers when the worker hands it back. A share its worker has not
//! taken yet when the calling thread is done with its own (a worker descheduled or parked) is
//! stepped by the calling thread instead. After each step the [`Balancer`] may move the chunk
//! at a boundary between two shares to the share that finishes first. Safe Rust only: a share
//! moves to its worker and back by value, through mutexes, and nothing is shared while it is
//! stepped.

use std::any::Any;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::VectorError;
use crate::vector::balance::{Balancer, Measurement, Move};
use crate::vector::batch::{Batch, Command, Failure, execute};
use crate::vector::outputs::Outputs;

/// How many times a waiting thread checks before it parks (a worker waiting for the next
/// call) or yields its processor (the calling thread waiting for a worker). A call usually
/// follows the last one within microseconds when stepping in a loop, and waking a parked
/// thread costs tens of microseconds; a worker left idle longer parks and uses no processor
/// time.
const SPINS_BEFORE_PARKING: u32 = 1 << 14;

/// Locks `mutex`, ignoring poisoning: a share's panic is caught and passed on to the caller
/// with the share, so a poisoned lock holds nothing half-updated that is used afterwards.
fn lock<X>(mutex: &Mutex<X>) -> MutexGuard<'_, X> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A contiguous run of environments, the unit the balancer moves between threads: its batch
/// and its own result buffers (written while a worker steps it, copied into the vector
/// environment's rows afterwards; the calling thread steps its chunks in those rows in place).
struct Chunk<B: Batch> {
    batch: B,
    outputs: Outputs<B::Scalar>,
}

impl<B: Batch> Chunk<B> {
    /// The global indices of its environments.
    fn range(&self) -> std::ops::Range<usize> {
        self.batch.first()..self.batch.first() + self.batch.len()
    }
}

/// A share of the environments stepped by a worker: its chunks, the actions of the current
/// call (a copy of the caller's, by global index), and what the call gave.
struct Share<B: Batch> {
    chunks: VecDeque<Chunk<B>>,
    actions: Vec<B::Action>,
    command: Command,
    failure: Option<Failure>,
    panic: Option<Box<dyn Any + Send>>,
    /// When the worker finished the call (`None` when the calling thread stepped it).
    finished: Option<Instant>,
}

impl<B: Batch> Share<B> {
    /// Runs the share's command on each of its chunks, keeping the failure of the lowest index
    /// or the panic.
    fn run(&mut self) {
        let Share {
            chunks,
            actions,
            command,
            ..
        } = self;
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut failure = None;
            for chunk in chunks.iter_mut() {
                let given = actions.get(chunk.range()).unwrap_or_default();
                let result = execute(&mut chunk.batch, *command, given, chunk.outputs.all_rows());
                failure = failure.or(result.err());
            }
            failure
        }));
        match result {
            Ok(failure) => self.failure = failure,
            Err(panic) => self.panic = Some(panic),
        }
    }

    /// The number of environments.
    fn len(&self) -> usize {
        self.chunks.iter().map(|chunk| chunk.batch.len()).sum()
    }
}

/// What a worker and the calling thread share: the slot a share waits in to be stepped
/// (`todo`), the slot it comes back through (`done`), a flag for each saying it is full (read
/// without locking while waiting), and whether the worker must stop.
struct Slot<B: Batch> {
    todo: Mutex<Option<Box<Share<B>>>>,
    has_todo: AtomicBool,
    done: Mutex<Option<Box<Share<B>>>>,
    has_done: AtomicBool,
    stop: AtomicBool,
}

impl<B: Batch> Slot<B> {
    /// Takes the share waiting to be stepped, if it is still there.
    fn take_todo(&self) -> Option<Box<Share<B>>> {
        let mut todo = lock(&self.todo);
        self.has_todo.store(false, Ordering::Release);
        todo.take()
    }

    /// Takes the share stepped by the worker, if it is back.
    fn take_done(&self) -> Option<Box<Share<B>>> {
        let mut done = lock(&self.done);
        self.has_done.store(false, Ordering::Release);
        done.take()
    }
}

/// A worker thread and its share (held here between calls).
struct Worker<B: Batch> {
    slot: Arc<Slot<B>>,
    thread: Option<JoinHandle<()>>,
    /// The share, between calls (`None` while it waits in the slot or the worker holds it).
    share: Option<Box<Share<B>>>,
}

/// The loop of a worker thread: waits for a share in the slot, steps it and hands it back;
/// until told to stop.
fn work<B: Batch>(slot: &Slot<B>) {
    loop {
        let mut spins = 0;
        while !slot.has_todo.load(Ordering::Acquire) {
            if slot.stop.load(Ordering::Acquire) {
                return;
            }
            if spins < SPINS_BEFORE_PARKING {
                spins += 1;
                std::hint::spin_loop();
            } else {
                // The caller unparks after filling the slot, so a share put there after the
                // check above makes this return at once.
                thread::park();
            }
        }
        // The calling thread may have taken the share first (then there is nothing to do).
        if let Some(mut share) = slot.take_todo() {
            share.run();
            share.finished = Some(Instant::now());
            *lock(&slot.done) = Some(share);
            slot.has_done.store(true, Ordering::Release);
        }
    }
}

/// The threads of a vector environment and their shares: the calling thread's chunks (the
/// first environments), stepped in place in the vector environment's buffers, one worker per
/// other thread with the next share each, and the balancer of their boundaries.
pub(crate) struct Threads<B: Batch> {
    main: VecDeque<Chunk<B>>,
    workers: Vec<Worker<B>>,
    balancer: Balancer,
    /// One measurement per thread, refilled on each step (kept to allocate nothing).
    measurements: Vec<Measurement>,
}

/// Chunks of `batches`, each with its own result buffers.
fn chunks<B: Batch>(batches: Vec<B>, dim: usize, keep_final: bool) -> VecDeque<Chunk<B>>
where
    B::Scalar: rl_spaces::FlatScalar,
{
    batches
        .into_iter()
        .map(|batch| {
            let outputs = Outputs::new(batch.len(), dim, keep_final);
            Chunk { batch, outputs }
        })
        .collect()
}

impl<B> Threads<B>
where
    B: Batch + Send + 'static,
    B::Action: Send + 'static,
    B::Scalar: Send + 'static,
{
    /// Puts the first thread's batches (chunks, in order) on the calling thread and starts a
    /// worker for each other thread's; `dim` is the observations' length and `keep_final`
    /// whether the final observations are kept (same-step autoreset).
    pub(crate) fn new(
        mut threads: Vec<Vec<B>>,
        dim: usize,
        keep_final: bool,
    ) -> Result<Self, VectorError> {
        let total: usize = threads.iter().flatten().count();
        if threads.is_empty() || threads.iter().any(Vec::is_empty) {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        }
        let others = threads.split_off(1);
        let Some(main) = threads.pop() else {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        };
        let mut main = chunks(main, dim, keep_final);
        // Room for every chunk, so that moving chunks never allocates.
        main.reserve(total);
        let mut workers = Vec::with_capacity(others.len());
        for batches in others {
            let mut chunks = chunks(batches, dim, keep_final);
            chunks.reserve(total);
            let slot = Arc::new(Slot {
                todo: Mutex::new(None),
                has_todo: AtomicBool::new(false),
                done: Mutex::new(None),
                has_done: AtomicBool::new(false),
                stop: AtomicBool::new(false),
            });
            let theirs = Arc::clone(&slot);
            let thread = thread::Builder::new()
                .name(format!("rl-vector-{}", workers.len() + 1))
                .spawn(move || work(&theirs))
                .map_err(|e| VectorError::ThreadSpawn {
                    reason: e.to_string(),
                })?;
            workers.push(Worker {
                slot,
                thread: Some(thread),
                share: Some(Box::new(Share {
                    chunks,
                    actions: Vec::new(),
                    command: Command::Seed(0),
                    failure: None,
                    panic: None,
                    finished: None,
                })),
            });
        }
        let shares = workers.len() + 1;
        Ok(Threads {
            main,
            workers,
            balancer: Balancer::new(shares),
            measurements: Vec::with_capacity(shares),
        })
    }
}

impl<B: Batch> Threads<B> {
    /// The calling thread's first batch (the first environments; all of them with one
    /// thread).
    pub(crate) fn main(&self) -> &B {
        // `new` refuses an empty thread and the balancer never empties one.
        debug_assert!(!self.main.is_empty(), "the calling thread keeps a chunk");
        &self.main[0].batch
    }

    /// Every batch, in the order of the environments. A worker's batches are missing only
    /// after a panic left them with its worker (see [`run`](Self::run)).
    pub(crate) fn batches(&self) -> impl Iterator<Item = &B> + '_ {
        let workers = self
            .workers
            .iter()
            .filter_map(|worker| worker.share.as_ref());
        self.main
            .iter()
            .chain(workers.flat_map(|share| share.chunks.iter()))
            .map(|chunk| &chunk.batch)
    }

    /// How many environments each thread's share holds now, in order.
    pub(crate) fn share_sizes(&self) -> Vec<usize> {
        let main = self.main.iter().map(|chunk| chunk.batch.len()).sum();
        let workers = self.workers.iter();
        std::iter::once(main)
            .chain(workers.map(|worker| worker.share.as_ref().map_or(0, |share| share.len())))
            .collect()
    }

    /// Runs `command` on every share: hands each worker its share with its actions, runs the
    /// calling thread's chunks in place in `outputs`, then waits for each worker and copies
    /// its results into `outputs`; after a step, lets the balancer move chunks. Returns the
    /// failure of the lowest index, if any; passes on the panic of a share, after every worker
    /// is done.
    pub(crate) fn run(
        &mut self,
        command: Command,
        actions: &[B::Action],
        outputs: &mut Outputs<B::Scalar>,
    ) -> Option<Failure> {
        if self.workers.is_empty() && self.main.len() == 1 {
            let chunk = &mut self.main[0];
            return execute(&mut chunk.batch, command, actions, outputs.all_rows()).err();
        }
        let start = Instant::now();
        for worker in &mut self.workers {
            let Some(mut share) = worker.share.take() else {
                continue;
            };
            if !actions.is_empty() {
                if share.actions.len() == actions.len() {
                    // In place, element by element, only the share's own (actions that own
                    // buffers, arrays, reuse them).
                    let first = share.chunks.front().map_or(0, |chunk| chunk.batch.first());
                    let range = first..first + share.len();
                    if let (Some(target), Some(given)) =
                        (share.actions.get_mut(range.clone()), actions.get(range))
                    {
                        target.clone_from_slice(given);
                    }
                } else {
                    // The first step: a copy of every action, so that a share keeps its
                    // buffers whichever chunks it holds later.
                    share.actions.clear();
                    share.actions.extend_from_slice(actions);
                }
            }
            share.command = command;
            share.finished = None;
            {
                let mut todo = lock(&worker.slot.todo);
                *todo = Some(share);
                worker.slot.has_todo.store(true, Ordering::Release);
            }
            if let Some(thread) = &worker.thread {
                thread.thread().unpark();
            }
        }
        // Takes the shares back even if the calling thread's own chunks panic.
        let guard = TakeBack(&mut self.workers);
        let mut failure = None;
        for chunk in self.main.iter_mut() {
            let range = chunk.range();
            let given = actions.get(range.clone()).unwrap_or_default();
            let result = execute(&mut chunk.batch, command, given, outputs.rows(range));
            failure = failure.or(result.err());
        }
        let main_finished = start.elapsed();
        let mut panic = None;
        let mut measured = matches!(command, Command::Step { .. });
        self.measurements.clear();
        self.measurements
            .push(measurement(&self.main, main_finished));
        for worker in guard.0.iter_mut() {
            let Some(mut share) = worker.take_back(true) else {
                continue;
            };
            for chunk in &share.chunks {
                outputs.copy_from(chunk.batch.first(), &chunk.outputs, chunk.batch.has_infos());
            }
            if let Some(share_failure) = share.failure.take() {
                failure = failure.or(Some(share_failure));
            }
            panic = panic.or(share.panic.take());
            match share.finished {
                Some(finished) => self.measurements.push(measurement(
                    &share.chunks,
                    finished.saturating_duration_since(start),
                )),
                None => measured = false,
            }
            worker.share = Some(share);
        }
        drop(guard);
        if let Some(panic) = panic {
            resume_unwind(panic);
        }
        if measured && failure.is_none() && self.measurements.len() == self.workers.len() + 1 {
            self.balance(outputs);
        }
        failure
    }

    /// Applies the balancer's moves to the shares (all of them back from their workers).
    fn balance(&mut self, outputs: &Outputs<B::Scalar>) {
        let moves = self.balancer.plan(&self.measurements);
        for (boundary, planned) in moves.iter().enumerate() {
            // Boundary `j` lies between thread `j` (the calling thread for 0) and worker `j`.
            let (left, right) = if boundary == 0 {
                let Some(share) = self
                    .workers
                    .first_mut()
                    .and_then(|w| w.share.as_deref_mut())
                else {
                    continue;
                };
                (&mut self.main, &mut share.chunks)
            } else {
                let (before, after) = self.workers.split_at_mut(boundary);
                let (Some(left), Some(right)) = (before.last_mut(), after.first_mut()) else {
                    continue;
                };
                let (Some(left), Some(right)) =
                    (left.share.as_deref_mut(), right.share.as_deref_mut())
                else {
                    continue;
                };
                (&mut left.chunks, &mut right.chunks)
            };
            match planned {
                Move::Stay => {}
                Move::Right if left.len() > 1 => {
                    if let Some(mut chunk) = left.pop_back() {
                        if boundary == 0 {
                            // Its own buffers take the rows the calling thread wrote in place.
                            outputs.copy_into(chunk.batch.first(), &mut chunk.outputs);
                        }
                        right.push_front(chunk);
                    }
                }
                Move::Left if right.len() > 1 => {
                    if let Some(chunk) = right.pop_front() {
                        left.push_back(chunk);
                    }
                }
                Move::Right | Move::Left => {}
            }
        }
    }
}

/// The measurement of a share of `chunks` that finished `finished` after the step began.
fn measurement<B: Batch>(chunks: &VecDeque<Chunk<B>>, finished: Duration) -> Measurement {
    let size = |chunk: &Chunk<B>| chunk.batch.len();
    let movable = chunks.len() > 1;
    Measurement {
        finished,
        size: chunks.iter().map(size).sum(),
        first_chunk: chunks.front().filter(|_| movable).map(size),
        last_chunk: chunks.back().filter(|_| movable).map(size),
    }
}

impl<B: Batch> Worker<B> {
    /// Takes the worker's share back (`None` if it is not out): the stepped share once the
    /// worker hands it back, or, if the worker has not taken it yet, the share itself, which
    /// is then stepped here if `step` says so.
    fn take_back(&mut self, step: bool) -> Option<Box<Share<B>>> {
        if self.share.is_some() {
            return None;
        }
        let mut spins = 0u32;
        loop {
            if self.slot.has_done.load(Ordering::Acquire) {
                if let Some(share) = self.slot.take_done() {
                    return Some(share);
                }
            }
            if self.slot.has_todo.load(Ordering::Acquire) {
                if let Some(mut share) = self.slot.take_todo() {
                    if step {
                        share.run();
                    }
                    return Some(share);
                }
            }
            if spins < SPINS_BEFORE_PARKING {
                spins += 1;
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
    }
}

/// Takes every worker's share back when dropped, so that a panic of the calling thread's
/// share leaves no share with its worker.
struct TakeBack<'a, B: Batch>(&'a mut Vec<Worker<B>>);

impl<B: Batch> Drop for TakeBack<'_, B> {
    fn drop(&mut self) {
        for worker in self.0.iter_mut() {
            // Not stepped here: this runs while the calling thread's share panics.
            if let Some(share) = worker.take_back(false) {
                worker.share = Some(share);
            }
        }
    }
}

impl<B: Batch> Drop for Threads<B> {
    fn drop(&mut self) {
        for worker in &mut self.workers {
            worker.slot.stop.store(true, Ordering::Release);
            if let Some(thread) = worker.thread.take() {
                thread.thread().unpark();
                // A worker catches its share's panics, so joining fails only if the thread
                // itself died, which leaves nothing to clean up.
                let _ = thread.join();
            }
        }
    }
}
