//! [`WorkerPool`]: threads started once that, on request, run a set of jobs together with
//! the calling thread: each thread takes the next job not yet taken until none is left, so a
//! thread that runs slower (descheduled, or on a busier core) simply runs fewer jobs. Handed
//! over without allocation (atomics, then spinning, then parking).

use std::any::Any;
use std::ops::Deref;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle, Thread, ThreadId};

/// Work done on request by whichever thread takes it: it owns its data, and its results do
/// not depend on the thread.
pub(crate) trait Job {
    /// What a request says to every job (the same for all of them, copied to each thread).
    type Request: Copy + Send;

    /// Does the requested work. Returns whether the caller must look at this job after the
    /// request (it failed), so that the caller looks at no job otherwise.
    ///
    /// # Safety
    ///
    /// Whatever `request` points to is valid for this job while it runs, as the caller of
    /// [`WorkerPool::start`] promised for the request.
    #[allow(unsafe_code)]
    unsafe fn run(&mut self, request: &Self::Request) -> bool;
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

/// A value alone on its cache lines (128 bytes covers adjacent-line prefetching), so that a
/// counter one thread writes never shares a line with data another thread is using: each
/// shared line costs a transfer between cores when the other side touches it.
#[repr(align(128))]
struct Padded<T>(T);

impl<T> Deref for Padded<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// Spins until `ready()` holds or the spinning budget is spent; returns whether it holds.
fn spin_until(ready: impl Fn() -> bool) -> bool {
    for _ in 0..SPINS_BEFORE_PARKING {
        if ready() {
            return true;
        }
        std::hint::spin_loop();
    }
    ready()
}

/// Parks the current thread until `ready()` holds, announcing it in `sleeping` so that the
/// thread making `ready()` true knows to unpark it. Both sides use sequentially consistent
/// operations (flag store then condition load here; condition store then flag load there),
/// so that at least one of them sees the other: no wake-up is lost.
fn park_until(sleeping: &AtomicBool, ready: impl Fn() -> bool) {
    sleeping.store(true, Ordering::SeqCst);
    while !ready() {
        thread::park();
    }
    sleeping.store(false, Ordering::SeqCst);
}

/// A job with the panic its last run left, if any.
struct JobSlot<J> {
    job: Mutex<J>,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// What the calling thread and the workers share.
///
/// Requests are numbered from 1. The jobs of request `r` are the tickets
/// `(r - 1) * jobs .. r * jobs`: a thread takes a job by moving `ticket` one step within that
/// range (compare and swap), so each job runs exactly once per request, on one thread.
struct Shared<J: Job> {
    /// The number of requests made (written by the caller).
    requested: Padded<AtomicU64>,
    /// The next ticket to take (written by every thread taking a job).
    ticket: Padded<AtomicU64>,
    /// The number of jobs run since the pool started (written by every thread that ran one).
    completed: Padded<AtomicU64>,
    /// The number of workers parked or about to park (written by the workers).
    workers_sleeping: Padded<AtomicU64>,
    /// Whether the caller is parked or about to park, waiting for the jobs.
    caller_sleeping: Padded<AtomicBool>,
    /// The thread that made the last request, to wake when it parks waiting for the jobs (set
    /// by `start` when the calling thread changes, before `caller_sleeping` can be).
    caller: Mutex<Option<Thread>>,
    /// The last request (written by `start` before `requested`), on lines of its own: the
    /// caller writes it on every request, and nothing the waiting workers read in their loop
    /// may share its lines.
    request: Padded<Mutex<Option<J::Request>>>,
    /// Whether a job of the last request asked to be looked at, or panicked.
    flagged: Padded<AtomicBool>,
    jobs: Vec<Padded<JobSlot<J>>>,
    /// The number of workers that have started running (their thread's own set-up, which
    /// allocates, is then done).
    started: AtomicU64,
    /// Set once, when the pool is dropped. The waiting workers read it in their loop, so it
    /// has lines of its own, which nobody writes until then.
    shutdown: Padded<AtomicBool>,
}

impl<J: Job> Shared<J> {
    /// The number of jobs per request.
    fn len(&self) -> u64 {
        self.jobs.len() as u64
    }

    /// Takes and runs the jobs of request number `number` (saying `request`) that nobody has
    /// taken, until none is left; reports each one done (waking the caller if it is parked).
    ///
    /// # Safety
    ///
    /// `request` is the request `number` was started with (or a later one, whose jobs this
    /// call cannot take), and `start`'s contract holds for it.
    #[allow(unsafe_code)]
    unsafe fn run_jobs(&self, number: u64, request: &J::Request) {
        let end = number * self.len();
        loop {
            let ticket = self.ticket.load(Ordering::Acquire);
            if ticket >= end {
                return;
            }
            if self
                .ticket
                .compare_exchange_weak(ticket, ticket + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_err()
            {
                continue;
            }
            let index = (ticket - (end - self.len())) as usize;
            if let Some(slot) = self.jobs.get(index) {
                // SAFETY: this job belongs to request `number`, which is not over until it
                // is reported done below, and `start`'s contract holds until then.
                let run = || unsafe { lock(&slot.job).run(request) };
                let outcome = catch_unwind(AssertUnwindSafe(run));
                let flag = match outcome {
                    Ok(flag) => flag,
                    Err(payload) => {
                        *lock(&slot.panic) = Some(payload);
                        true
                    }
                };
                if flag {
                    self.flagged.store(true, Ordering::SeqCst);
                }
            }
            self.completed.fetch_add(1, Ordering::SeqCst);
            if self.caller_sleeping.load(Ordering::SeqCst) {
                if let Some(caller) = lock(&self.caller).as_ref() {
                    caller.unpark();
                }
            }
        }
    }
}

/// Threads started at construction that, with the calling thread, run every job whenever
/// [`start`](Self::start) requests it; [`wait`](Self::wait) takes a share of the jobs itself
/// and returns when all are done. Dropping the pool stops and joins the threads.
///
/// A request costs one lock to store it and one atomic store to publish it (and an unpark
/// only for a parked worker), and one lock per worker to read it; each job costs
/// one compare-and-swap to take it and one atomic addition to report it; nothing is
/// allocated. Jobs are taken in order by whichever thread is free, so a slow or descheduled
/// worker never holds the caller up by more than the job it is running. Which thread runs a
/// job never changes its results, since each job owns its data.
pub(crate) struct WorkerPool<J: Job> {
    shared: Arc<Shared<J>>,
    threads: Vec<JoinHandle<()>>,
    /// The number of requests made so far.
    requests: u64,
    /// The last request (the calling thread's copy).
    last: Option<J::Request>,
    /// The thread recorded in the shared `caller`, so that `start` writes it only when another
    /// thread makes a request.
    caller: Option<ThreadId>,
}

impl<J: Job + Send + 'static> WorkerPool<J> {
    /// Starts `workers` threads for `jobs`.
    pub(crate) fn new(jobs: Vec<J>, workers: usize) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            requested: Padded(AtomicU64::new(0)),
            ticket: Padded(AtomicU64::new(0)),
            completed: Padded(AtomicU64::new(0)),
            workers_sleeping: Padded(AtomicU64::new(0)),
            caller_sleeping: Padded(AtomicBool::new(false)),
            caller: Mutex::new(None),
            request: Padded(Mutex::new(None)),
            flagged: Padded(AtomicBool::new(false)),
            jobs: jobs
                .into_iter()
                .map(|job| {
                    Padded(JobSlot {
                        job: Mutex::new(job),
                        panic: Mutex::new(None),
                    })
                })
                .collect(),
            started: AtomicU64::new(0),
            shutdown: Padded(AtomicBool::new(false)),
        });
        let mut pool = WorkerPool {
            shared,
            threads: Vec::with_capacity(workers),
            requests: 0,
            last: None,
            caller: None,
        };
        for i in 0..workers {
            let shared = Arc::clone(&pool.shared);
            // On failure, the pool built so far is dropped, which stops its threads.
            let thread = thread::Builder::new()
                .name(format!("rl-vector-worker-{}", i + 1))
                .spawn(move || work(&shared))?;
            pool.threads.push(thread);
        }
        // Wait until every worker runs, so that the set-up of their threads (which allocates)
        // is over before the first request, not in the middle of stepping.
        while pool.shared.started.load(Ordering::SeqCst) < workers as u64 {
            thread::yield_now();
        }
        Ok(pool)
    }
}

/// A worker's loop: wait for a request, take and run jobs until none is left, until shut
/// down.
fn work<J: Job>(shared: &Shared<J>) {
    shared.started.fetch_add(1, Ordering::SeqCst);
    let mut seen = 0;
    loop {
        let arrived = || {
            shared.requested.load(Ordering::SeqCst) != seen
                || shared.shutdown.load(Ordering::SeqCst)
        };
        if !spin_until(arrived) {
            // The count and the request are both sequentially consistent: `start` stores the
            // request then reads the count, this thread does the opposite, so no wake-up is
            // lost.
            shared.workers_sleeping.fetch_add(1, Ordering::SeqCst);
            while !arrived() {
                thread::park();
            }
            shared.workers_sleeping.fetch_sub(1, Ordering::SeqCst);
        }
        if shared.shutdown.load(Ordering::SeqCst) {
            return;
        }
        seen = shared.requested.load(Ordering::SeqCst);
        // The request stored before `requested` was (or, if the caller has moved on, a later
        // one, whose jobs `run_jobs(seen, ..)` cannot take: their tickets lie past `seen`'s).
        let request = *lock(&shared.request);
        if let Some(request) = request {
            // SAFETY: `request` was stored before request `seen` was published (or is a later
            // one, whose tickets lie past `seen`'s); the caller of `start` keeps it valid
            // until every job of its request is done.
            #[allow(unsafe_code)]
            unsafe {
                shared.run_jobs(seen, &request);
            }
        }
    }
}

impl<J: Job> WorkerPool<J> {
    /// The jobs, locked one after another (for handing out inputs and collecting outputs while
    /// no request is running).
    pub(crate) fn jobs(&self) -> impl Iterator<Item = MutexGuard<'_, J>> {
        self.shared.jobs.iter().map(|slot| lock(&slot.job))
    }

    /// Requests the jobs to run once with `request`; the workers start taking them at once.
    ///
    /// # Safety
    ///
    /// Whatever `request` points to must stay valid for the jobs (see [`Job::run`]) until
    /// [`wait`](Self::wait) or [`finish`](Self::finish) has returned, and one of them must be
    /// called before anything it points to is used otherwise, moved or freed, and before the
    /// next `start`.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn start(&mut self, request: J::Request) {
        // The thread to wake if it parks in `wait`: recorded here, where it costs a clone of a
        // shared handle, rather than on first parking, where getting it may allocate; and only
        // when the calling thread changes, so that a request writes no line the workers read
        // besides the request's and the count's.
        let current = thread::current();
        if self.caller != Some(current.id()) {
            self.caller = Some(current.id());
            *lock(&self.shared.caller) = Some(current);
        }
        *lock(&self.shared.request) = Some(request);
        self.last = Some(request);
        self.shared.flagged.store(false, Ordering::Relaxed);
        self.requests += 1;
        self.shared.requested.store(self.requests, Ordering::SeqCst);
        if self.shared.workers_sleeping.load(Ordering::SeqCst) > 0 {
            for thread in &self.threads {
                thread.thread().unpark();
            }
        }
    }

    /// Runs the jobs of the last request that no worker has taken yet, then waits until every
    /// one is done. A panic in a job is resumed here, on the calling thread. Returns whether
    /// a job asked to be looked at.
    pub(crate) fn wait(&self) -> bool {
        let shared = &*self.shared;
        if let Some(request) = &self.last {
            // SAFETY: `request` is the one the last request was started with, and `start`'s
            // contract holds until this function returns.
            #[allow(unsafe_code)]
            unsafe {
                shared.run_jobs(self.requests, request);
            }
        }
        self.finish();
        if !shared.flagged.load(Ordering::SeqCst) {
            return false;
        }
        for slot in &shared.jobs {
            if let Some(payload) = lock(&slot.panic).take() {
                resume_unwind(payload);
            }
        }
        true
    }

    /// Waits until every job of the last request is done, running none: what the calling
    /// thread does when it must not run more code that may panic (while unwinding).
    pub(crate) fn finish(&self) {
        let shared = &*self.shared;
        let target = self.requests * shared.len();
        let done = || shared.completed.load(Ordering::SeqCst) >= target;
        if !spin_until(done) {
            park_until(&shared.caller_sleeping, done);
        }
    }
}

impl<J: Job> Drop for WorkerPool<J> {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        for thread in &self.threads {
            thread.thread().unpark();
        }
        for thread in self.threads.drain(..) {
            // A worker only ends by returning (jobs' panics are caught), so joining cannot
            // fail in a way worth reporting from a destructor.
            let _ = thread.join();
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
        type Request = u64;

        #[allow(unsafe_code)]
        unsafe fn run(&mut self, request: &u64) -> bool {
            self.runs += request;
            if Some(self.runs) == self.panic_on {
                panic!("job failure on purpose");
            }
            false
        }
    }

    /// Starts a request of 1 (a plain number: nothing to keep valid).
    #[allow(unsafe_code)]
    fn start(pool: &mut WorkerPool<Count>) {
        // SAFETY: the request points to nothing.
        unsafe { pool.start(1) }
    }

    #[test]
    fn every_request_runs_every_job_once() {
        let jobs = (0..3)
            .map(|_| Count {
                runs: 0,
                panic_on: None,
            })
            .collect();
        let mut pool = WorkerPool::new(jobs, 2).expect("threads start");
        for _ in 0..100 {
            start(&mut pool);
            assert!(!pool.wait());
        }
        assert!(pool.jobs().all(|job| job.runs == 100));
    }

    #[test]
    fn a_panic_in_a_job_reaches_the_caller_and_the_pool_goes_on() {
        let mut pool = WorkerPool::new(
            vec![Count {
                runs: 0,
                panic_on: Some(2),
            }],
            1,
        )
        .expect("threads start");
        start(&mut pool);
        assert!(!pool.wait());
        start(&mut pool);
        let caught = catch_unwind(AssertUnwindSafe(|| pool.wait()));
        assert!(caught.is_err(), "the job's panic is resumed by wait");
        start(&mut pool);
        assert!(!pool.wait());
        assert_eq!(pool.jobs().map(|job| job.runs).sum::<u64>(), 3);
    }
}
