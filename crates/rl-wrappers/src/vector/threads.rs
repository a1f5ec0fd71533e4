//! [`Threads`]: the scheduling of a vector environment: one static share of the environments
//! per thread, the calling thread's stepped in place, each of the others handed to a worker
//! thread started once, which steps it in its own buffers, and copied back into the vector
//! environment's buffers when the worker hands it back. A share its worker has not taken yet
//! when the calling thread is done with its own (a worker descheduled or parked) is stepped
//! by the calling thread instead. Safe Rust only: a share moves to its worker and back by
//! value, through mutexes, and nothing is shared while it is stepped.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};

use crate::VectorError;
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

/// A share of the environments stepped by a worker: its batch, its own result buffers, its
/// actions of the current call (copied in), and what the call gave.
struct Share<B: Batch> {
    batch: B,
    outputs: Outputs<B::Scalar>,
    actions: Vec<B::Action>,
    command: Command,
    failure: Option<Failure>,
    panic: Option<Box<dyn Any + Send>>,
}

impl<B: Batch> Share<B> {
    /// Runs the share's command on its batch, keeping its failure or panic.
    fn run(&mut self) {
        let Share {
            batch,
            outputs,
            actions,
            command,
            ..
        } = self;
        match catch_unwind(AssertUnwindSafe(|| {
            execute(batch, *command, actions, outputs.all_rows())
        })) {
            Ok(result) => self.failure = result.err(),
            Err(panic) => self.panic = Some(panic),
        }
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
    /// The global index of the share's first environment.
    first: usize,
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
            *lock(&slot.done) = Some(share);
            slot.has_done.store(true, Ordering::Release);
        }
    }
}

/// The threads of a vector environment and their shares: the calling thread's batch (the
/// first environments), stepped in place in the vector environment's buffers, and one worker
/// per other thread with the next share each.
pub(crate) struct Threads<B: Batch> {
    main: B,
    workers: Vec<Worker<B>>,
}

impl<B> Threads<B>
where
    B: Batch + Send + 'static,
    B::Action: Send + 'static,
    B::Scalar: Send + 'static,
{
    /// Puts the first batch on the calling thread and starts a worker for each other one;
    /// `dim` is the observations' length and `keep_final` whether the final observations are
    /// kept (same-step autoreset).
    pub(crate) fn new(
        mut batches: Vec<B>,
        dim: usize,
        keep_final: bool,
    ) -> Result<Self, VectorError> {
        if batches.is_empty() {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        }
        let others = batches.split_off(1);
        let Some(main) = batches.pop() else {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        };
        let mut workers = Vec::with_capacity(others.len());
        for batch in others {
            let len = batch.len();
            let first = batch.first();
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
                    batch,
                    outputs: Outputs::new(len, dim, keep_final),
                    actions: Vec::with_capacity(len),
                    command: Command::Seed(0),
                    failure: None,
                    panic: None,
                })),
                first,
            });
        }
        Ok(Threads { main, workers })
    }
}

impl<B: Batch> Threads<B> {
    /// The calling thread's batch (the first environments; all of them with one thread).
    pub(crate) fn main(&self) -> &B {
        &self.main
    }

    /// Every batch, in the order of the environments. A worker's batch is missing only after
    /// a panic left it with its worker (see [`run`](Self::run)).
    pub(crate) fn batches(&self) -> impl Iterator<Item = &B> + '_ {
        std::iter::once(&self.main).chain(
            self.workers
                .iter()
                .filter_map(|worker| worker.share.as_ref().map(|share| &share.batch)),
        )
    }

    /// Runs `command` on every share: hands each worker its share with its actions, runs the
    /// first share on this thread in place in `outputs`, then waits for each worker and copies
    /// its results into `outputs`. Returns the failure of the lowest index, if any; passes on
    /// the panic of a share, after every worker is done.
    pub(crate) fn run(
        &mut self,
        command: Command,
        actions: &[B::Action],
        outputs: &mut Outputs<B::Scalar>,
    ) -> Option<Failure> {
        if self.workers.is_empty() {
            return execute(&mut self.main, command, actions, outputs.all_rows()).err();
        }
        let main_len = self.main.len();
        for worker in &mut self.workers {
            let Some(mut share) = worker.share.take() else {
                continue;
            };
            let range = worker.first..worker.first + share.batch.len();
            let given = actions.get(range).unwrap_or_default();
            if share.actions.len() == given.len() {
                // In place, element by element: actions that own buffers (arrays) reuse them.
                share.actions.clone_from_slice(given);
            } else {
                share.actions.clear();
                share.actions.extend_from_slice(given);
            }
            share.command = command;
            {
                let mut todo = lock(&worker.slot.todo);
                *todo = Some(share);
                worker.slot.has_todo.store(true, Ordering::Release);
            }
            if let Some(thread) = &worker.thread {
                thread.thread().unpark();
            }
        }
        // Takes the shares back even if the calling thread's own share panics.
        let guard = TakeBack(&mut self.workers);
        let main_actions = actions.get(..main_len).unwrap_or_default();
        let mut failure = execute(
            &mut self.main,
            command,
            main_actions,
            outputs.rows(0..main_len),
        )
        .err();
        let mut panic = None;
        for worker in guard.0.iter_mut() {
            let Some(mut share) = worker.take_back(true) else {
                continue;
            };
            outputs.copy_from(worker.first, &share.outputs, share.batch.has_infos());
            if let Some(share_failure) = share.failure.take() {
                failure = failure.or(Some(share_failure));
            }
            panic = panic.or(share.panic.take());
            worker.share = Some(share);
        }
        drop(guard);
        if let Some(panic) = panic {
            resume_unwind(panic);
        }
        failure
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
