//! [`WorkerPool`]: threads started once that run a job each on request, handed over without
//! allocation (atomics, then spinning, then parking).

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle, Thread};

/// Work a worker thread does on request: it owns its data, so no borrow crosses threads.
pub(crate) trait Job: Send + 'static {
    /// Does the requested work.
    fn run(&mut self);
}

/// How many times a waiting thread checks before parking. A request usually follows the last
/// one within microseconds when stepping in a loop, and spinning this long (tens of
/// microseconds) avoids the cost of waking a parked thread; a thread left idle longer parks
/// and uses no processor time.
const SPINS_BEFORE_PARKING: u32 = 1 << 14;

/// Locks `mutex`, ignoring poisoning: every job catches its own panics, so data behind a
/// poisoned lock is only ever half-updated by a job whose panic is passed on to the caller.
fn lock<X>(mutex: &Mutex<X>) -> MutexGuard<'_, X> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits until `ready()` holds: spins first, then parks (woken by `Thread::unpark`).
fn wait_until(ready: impl Fn() -> bool) {
    for _ in 0..SPINS_BEFORE_PARKING {
        if ready() {
            return;
        }
        std::hint::spin_loop();
    }
    while !ready() {
        thread::park();
    }
}

/// What the calling thread and one worker share.
struct Slot<J> {
    job: Mutex<J>,
    /// The number of requests made (by the caller).
    requested: AtomicU64,
    /// The number of requests done (by the worker).
    completed: AtomicU64,
    shutdown: AtomicBool,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

struct Worker<J> {
    slot: Arc<Slot<J>>,
    thread: Option<JoinHandle<()>>,
}

/// Threads started at construction, one per job, each running its job whenever
/// [`start`](Self::start) requests it; [`wait`](Self::wait) returns when all are done.
/// Dropping the pool stops and joins the threads.
///
/// A request costs two atomic operations and an unpark per worker; nothing is allocated.
pub(crate) struct WorkerPool<J> {
    workers: Vec<Worker<J>>,
    /// The thread waiting for the jobs, woken by each worker when it is done.
    waiter: Arc<Mutex<Option<Thread>>>,
}

impl<J: Job> WorkerPool<J> {
    /// Starts one thread per job.
    pub(crate) fn new(jobs: Vec<J>) -> std::io::Result<Self> {
        let waiter = Arc::new(Mutex::new(None));
        let mut pool = WorkerPool {
            workers: Vec::with_capacity(jobs.len()),
            waiter,
        };
        for (i, job) in jobs.into_iter().enumerate() {
            let slot = Arc::new(Slot {
                job: Mutex::new(job),
                requested: AtomicU64::new(0),
                completed: AtomicU64::new(0),
                shutdown: AtomicBool::new(false),
                panic: Mutex::new(None),
            });
            let (worker_slot, waiter) = (Arc::clone(&slot), Arc::clone(&pool.waiter));
            // On failure, the pool built so far is dropped, which stops its threads.
            let thread = thread::Builder::new()
                .name(format!("rl-vector-worker-{}", i + 1))
                .spawn(move || work(&worker_slot, &waiter))?;
            pool.workers.push(Worker {
                slot,
                thread: Some(thread),
            });
        }
        Ok(pool)
    }
}

/// A worker's loop: wait for a request, run the job, report, until shut down.
fn work<J: Job>(slot: &Slot<J>, waiter: &Mutex<Option<Thread>>) {
    let mut done = 0;
    loop {
        wait_until(|| {
            slot.requested.load(Ordering::Acquire) != done || slot.shutdown.load(Ordering::Acquire)
        });
        if slot.shutdown.load(Ordering::Acquire) {
            return;
        }
        let request = slot.requested.load(Ordering::Acquire);
        let outcome = catch_unwind(AssertUnwindSafe(|| lock(&slot.job).run()));
        if let Err(payload) = outcome {
            *lock(&slot.panic) = Some(payload);
        }
        done = request;
        slot.completed.store(request, Ordering::Release);
        if let Some(thread) = lock(waiter).as_ref() {
            thread.unpark();
        }
    }
}

impl<J> WorkerPool<J> {
    /// The jobs, locked one after another (for handing out inputs and collecting outputs while
    /// the workers are idle).
    pub(crate) fn jobs(&self) -> impl Iterator<Item = MutexGuard<'_, J>> {
        self.workers.iter().map(|w| lock(&w.slot.job))
    }

    /// Requests every worker to run its job once.
    pub(crate) fn start(&self) {
        *lock(&self.waiter) = Some(thread::current());
        for worker in &self.workers {
            worker.slot.requested.fetch_add(1, Ordering::AcqRel);
            if let Some(thread) = &worker.thread {
                thread.thread().unpark();
            }
        }
    }

    /// Waits until every worker has run the job requested by [`start`](Self::start). A panic
    /// in a job is resumed here, on the calling thread.
    pub(crate) fn wait(&self) {
        for worker in &self.workers {
            let slot = &worker.slot;
            wait_until(|| {
                slot.completed.load(Ordering::Acquire) == slot.requested.load(Ordering::Acquire)
            });
        }
        for worker in &self.workers {
            if let Some(payload) = lock(&worker.slot.panic).take() {
                resume_unwind(payload);
            }
        }
    }
}

impl<J> Drop for WorkerPool<J> {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.slot.shutdown.store(true, Ordering::Release);
            if let Some(thread) = &worker.thread {
                thread.thread().unpark();
            }
        }
        for worker in &mut self.workers {
            if let Some(thread) = worker.thread.take() {
                // A worker only ends by returning (jobs' panics are caught), so joining
                // cannot fail in a way worth reporting from a destructor.
                let _ = thread.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Count {
        runs: u64,
        panic_on: Option<u64>,
    }

    impl Job for Count {
        fn run(&mut self) {
            self.runs += 1;
            if Some(self.runs) == self.panic_on {
                panic!("job failure on purpose");
            }
        }
    }

    #[test]
    fn every_request_runs_every_job_once() {
        let jobs = (0..3)
            .map(|_| Count {
                runs: 0,
                panic_on: None,
            })
            .collect();
        let pool = WorkerPool::new(jobs).expect("threads start");
        for _ in 0..100 {
            pool.start();
            pool.wait();
        }
        assert!(pool.jobs().all(|job| job.runs == 100));
    }

    #[test]
    fn a_panic_in_a_job_reaches_the_caller_and_the_pool_goes_on() {
        let pool = WorkerPool::new(vec![Count {
            runs: 0,
            panic_on: Some(2),
        }])
        .expect("threads start");
        pool.start();
        pool.wait();
        pool.start();
        let caught = catch_unwind(AssertUnwindSafe(|| pool.wait()));
        assert!(caught.is_err(), "the job's panic is resumed by wait");
        pool.start();
        pool.wait();
        assert_eq!(pool.jobs().map(|job| job.runs).sum::<u64>(), 3);
    }
}
