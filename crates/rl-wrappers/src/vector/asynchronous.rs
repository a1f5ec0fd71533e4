//! [`AsyncVector`]: EnvPool's asynchronous mode. `num_envs` environments, each stepped on its
//! own by whichever worker thread is free: [`send`](AsyncVector::send) hands actions for some
//! environments to the workers and returns at once, [`recv`](AsyncVector::recv) waits until
//! `batch_size` of them have finished and returns their results in the order they finished.
//!
//! The mechanism is the plainest one that allocates nothing per step: a fixed pool of worker
//! threads, a work queue and a completion queue (each a `VecDeque` of environment indices with
//! room for every environment, behind a `Mutex` with a `Condvar`), and one `Mutex` per
//! environment around its state, its one-row results and its next action. An environment is
//! in at most one queue at a time (the caller refuses to send it again before its result is
//! received), so its lock is never contended but for the hand-over. No `unsafe` code.

use std::any::Any;
use std::collections::VecDeque;
use std::fmt;
use std::num::NonZeroUsize;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use ndarray::{Array2, ArrayView2, s};
use rl_core::{Domain, DomainStates, Info, Mode, Seed, SplitStates, SplitStepping, SteppedStates};
use rl_spaces::{FlatScalar, FlattenSpace, Space};

use crate::VectorError;
use crate::vector::batch::{BOOKKEEPING_BYTES, Batch, Command, Failure, Resets};
use crate::vector::environment::check_size;
use crate::vector::outputs::Outputs;
use crate::vector::threads::{WORKER_STACK, spawn_running};
use crate::vector::{Autoreset, VectorOptions};

/// An asynchronous vector of the domain `D`'s states stepped one at a time by its
/// structure-of-arrays kernel ([`BatchStep`](rl_core::BatchStep)), with observations of `T`
/// (see [`AsyncVector::from_kernel`]).
pub type AsyncKernelVector<D, T> = AsyncVector<DomainStates<D>, T>;

/// An asynchronous vector of any domain `D`, each state stepped by the domain's step with its
/// infos, with observations of `T` (see [`AsyncVector::from_kernel`]).
pub type AsyncSteppedVector<D, T> = AsyncVector<SteppedStates<D>, T>;

/// One environment: its batch of one state, its results, its next action and what its last
/// job ended with. Behind its own `Mutex`, locked by the caller while it is idle and by one
/// worker while it runs.
struct Slot<S: SplitStates<T>, T: FlatScalar> {
    batch: Batch<S, T>,
    /// The results of its last job, one row.
    outputs: Outputs<T>,
    /// The action of its next step (`None` before the first).
    action: Option<S::Action>,
    /// What its next job runs: a reset or a step.
    command: Command,
    /// The failure of its last job, if any.
    failure: Option<Failure>,
    /// The panic of its last job, if any.
    panic: Option<Box<dyn Any + Send>>,
    /// The steps of its episode so far (0 after a reset, autoresets included): EnvPool's
    /// `elapsed_step`, counted here for every job, received or not.
    elapsed: u64,
    /// Whether its last step ended its episode (its next step is an autoreset).
    ended: bool,
}

impl<S: SplitStates<T>, T: FlatScalar> Slot<S, T> {
    /// Runs the slot's command on its batch, keeping its failure or its panic, and counts
    /// the episode's steps.
    fn run(&mut self) {
        let Slot {
            batch,
            outputs,
            action,
            command,
            failure,
            panic,
            elapsed,
            ended,
        } = self;
        let result = catch_unwind(AssertUnwindSafe(|| {
            batch.execute(*command, action.as_slice(), &[], &[], outputs.all_rows())
        }));
        match result {
            Ok(result) => *failure = result.err(),
            Err(payload) => *panic = Some(payload),
        }
        if failure.is_none() && panic.is_none() {
            // A reset, or a step after the episode's end (next-step autoreset), starts an
            // episode.
            let restarted = *ended || matches!(command, Command::Reset { .. });
            *elapsed = if restarted { 0 } else { *elapsed + 1 };
            *ended = outputs.terminated[0] || outputs.truncated[0];
        }
    }
}

/// The work queue: the environments sent and not yet taken by a worker.
struct Work {
    queue: VecDeque<usize>,
    /// Set when the vector is dropped: the workers end.
    stop: bool,
}

/// The completion queue: the environments whose job is done and whose result is not yet
/// received, in the order they finished.
struct Finished {
    queue: VecDeque<usize>,
    /// How many finished environments the waiting caller needs (`usize::MAX` when it is not
    /// waiting): a worker wakes it only once they are there.
    wanted: usize,
}

/// What the caller and the workers share.
struct Shared<S: SplitStates<T>, T: FlatScalar> {
    slots: Box<[Mutex<Slot<S, T>>]>,
    work: Mutex<Work>,
    work_ready: Condvar,
    finished: Mutex<Finished>,
    finished_ready: Condvar,
}

impl<S: SplitStates<T>, T: FlatScalar> Shared<S, T> {
    /// Waits until `wanted` environments are on the completion queue and returns it locked,
    /// with whether they are there: `false` if one of `workers` ended first (a bug: the jobs
    /// it held never finish).
    fn wait_finished(
        &self,
        wanted: usize,
        workers: &[JoinHandle<()>],
    ) -> (MutexGuard<'_, Finished>, bool) {
        let mut finished = lock(&self.finished);
        finished.wanted = wanted;
        let mut all = true;
        while finished.queue.len() < wanted {
            let (guard, timeout) = self
                .finished_ready
                .wait_timeout(finished, LIVENESS_CHECK)
                .unwrap_or_else(PoisonError::into_inner);
            finished = guard;
            if timeout.timed_out() && workers.iter().any(JoinHandle::is_finished) {
                all = false;
                break;
            }
        }
        finished.wanted = usize::MAX;
        (finished, all)
    }
}

/// Locks `mutex`, whether or not a thread panicked while holding it (every job's panic is
/// caught inside its slot, so a poisoned lock holds consistent data).
fn lock<X>(mutex: &Mutex<X>) -> MutexGuard<'_, X> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A worker: takes environments off the work queue, runs their jobs and puts them on the
/// completion queue, until the vector is dropped.
fn work<S: SplitStates<T>, T: FlatScalar>(shared: &Shared<S, T>) {
    loop {
        let id = {
            let mut work = lock(&shared.work);
            loop {
                if work.stop {
                    return;
                }
                if let Some(id) = work.queue.pop_front() {
                    break id;
                }
                work = shared
                    .work_ready
                    .wait(work)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        lock(&shared.slots[id]).run();
        let mut finished = lock(&shared.finished);
        finished.queue.push_back(id);
        if finished.queue.len() >= finished.wanted {
            shared.finished_ready.notify_one();
        }
    }
}

/// How long a waiting caller sleeps before it checks that the workers are alive (a worker
/// catches every job's panic, so this is a guard against a bug, not a pace).
const LIVENESS_CHECK: Duration = Duration::from_millis(200);

/// `num_envs` environments stepped asynchronously, EnvPool's asynchronous mode: each
/// environment is stepped on its own by whichever of the worker threads is free, so that an
/// environment whose step is slow (MuJoCo's contacts, an episode's end) holds up no other.
/// `S` is the states of one environment's episodes (any [`SplitStates`]) and `T` the
/// observations' numeric type.
///
/// - [`send(actions, env_ids)`](Self::send) hands one action each to the environments
///   `env_ids` and returns at once;
/// - [`recv`](Self::recv) waits until `batch_size` environments have finished and puts their
///   results ([`observations`](Self::observations), [`rewards`](Self::rewards),
///   [`terminated`](Self::terminated), [`truncated`](Self::truncated),
///   [`infos`](Self::infos)) in the rows of the vector's result buffers, in the order they
///   finished, with their indices in [`env_ids`](Self::env_ids) and the steps of their
///   episodes in [`elapsed_steps`](Self::elapsed_steps). With `batch_size` equal to the number
///   of environments (EnvPool's synchronous mode), `recv` returns every environment in flight,
///   in the order sent ([`send`](Self::send) with `0..num_envs` gives the synchronous vector's
///   rows; a send of some environments, their rows only);
/// - [`async_reset`](Self::async_reset) resets every environment: their first observations
///   are the next results to receive; [`send_reset`](Self::send_reset) resets some of them
///   (EnvPool's `reset(env_id)`), leaving the others as they are.
///
/// # Equal to the synchronous vector
///
/// Environment `i` is seeded with `seed + i` and autoresets on the step after its episode
/// ended (Gymnasium's and EnvPool's next-step autoreset: that step returns the first
/// observation of the next episode, reward 0, both flags false), so that its results depend on
/// its own seed and actions only: bit for bit what the same environment of a
/// [`VectorEnvironment`](crate::vector::VectorEnvironment) gives with the same seed and actions,
/// whatever the order the workers finish in, and whichever of its resets were sent on their
/// own. Only [`Autoreset::NextStep`] is offered: it is EnvPool's only mode (EnvPool 1.2.5
/// has no same-step autoreset nor a disabled one), and a same-step autoreset would need a
/// final-observation buffer per environment that no EnvPool caller reads.
///
/// # Errors, never a hang
///
/// [`send`](Self::send) refuses, before anything is sent, a different number of actions and
/// ids, an id out of range, an environment sent twice before its result was received, an
/// action outside the action space, and an environment not reset yet;
/// [`send_reset`](Self::send_reset) refuses ids out of range and environments in flight;
/// [`recv`](Self::recv) refuses to wait for more results than the environments in flight could
/// give. A failure of an
/// environment is an error of the `recv` that receives it; a panic inside one is passed on by
/// that `recv`, after which the vector refuses to step until [`async_reset`](Self::async_reset).
///
/// # No allocation per step
///
/// Sending and receiving allocate nothing when the environments' steps allocate nothing
/// (plain actions such as `i64`, empty infos): the queues and buffers are made at
/// construction. Dropping the vector stops and joins its workers (a job already running ends
/// first; the queued ones are dropped).
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::Mode;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::vector::{AsyncSteppedVector, VectorOptions};
///
/// let count = NonZeroUsize::new(4).expect("non-zero");
/// let batch_size = NonZeroUsize::new(2).expect("non-zero");
/// let options = VectorOptions::new().with_threads(NonZeroUsize::new(2).expect("non-zero"));
/// let corridor = Corridor::new(3, 0.0)?;
/// let mut vector = AsyncSteppedVector::<_, f32>::from_kernel(corridor, count, 7, options, batch_size)?;
/// vector.async_reset(Mode::Training)?;
/// vector.recv()?; // two first observations
/// let first = vector.env_ids().to_vec();
/// vector.send(&[RIGHT, RIGHT], &first)?;
/// vector.recv()?; // two more: the other two first observations, or the two steps
/// assert_eq!(vector.env_ids().len(), 2);
/// assert_eq!(vector.observations().shape(), &[2, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct AsyncVector<S: SplitStates<T>, T: FlatScalar> {
    shared: Arc<Shared<S, T>>,
    workers: Vec<JoinHandle<()>>,
    action_space: S::ActionSpace,
    len: usize,
    batch_size: usize,
    mode: Mode,
    /// Per environment, whether it was reset since the vector was built.
    started: Vec<bool>,
    /// Set when a received job panicked: the vector refuses to step until a reset.
    interrupted: bool,
    /// Per environment, whether it was sent and its result not received yet.
    pending: Vec<bool>,
    /// The number of environments with `pending` set.
    in_flight: usize,
    /// Per environment, the number of its last send among all sends (the order of the rows
    /// when `batch_size` is every environment).
    sent_at: Vec<u64>,
    sends: u64,
    /// The results of the last `recv`, one row per environment received (the first
    /// `env_ids.len()` rows of each buffer, which has `batch_size`).
    observations: Array2<T>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    infos: Vec<Info>,
    elapsed_steps: Vec<u64>,
    env_ids: Vec<usize>,
}

impl<D, S, T> AsyncVector<DomainStates<D, S>, T>
where
    D: Domain + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ActionSpace: Clone,
    D::ObservationSpace: FlattenSpace,
    S: SplitStepping<D> + Default + Send + 'static,
    T: FlatScalar,
{
    /// `count` episodes of `domain`, each stepped on its own by its step
    /// ([`SteppedStates`](rl_core::SteppedStates)) or its kernel, environment `i` seeded with
    /// `seed + i`, on `options.threads()` worker threads, `batch_size` results per
    /// [`recv`](Self::recv).
    ///
    /// Errors if `count` is more than [`MAX_ENVS`](crate::vector::MAX_ENVS) or cannot be
    /// allocated, if `batch_size` or the thread count is more than `count`, if the options ask
    /// for an autoreset mode other than [`Autoreset::NextStep`] or a layout other than flat,
    /// or if a thread cannot start.
    pub fn from_kernel(
        domain: D,
        count: NonZeroUsize,
        seed: u64,
        options: VectorOptions,
        batch_size: NonZeroUsize,
    ) -> Result<Self, VectorError> {
        if options.layout() != rl_spaces::RowLayout::Flat {
            return Err(VectorError::invalid_parameter(
                "options",
                "a typed kernel writes flat rows; other layouts are for vectors built by id",
            ));
        }
        let dim = domain.observation_space().flat_dim();
        let env_bytes =
            std::mem::size_of::<D::State>() + domain.state_heap_bytes() + BOOKKEEPING_BYTES;
        check_size(count.get(), dim, env_bytes)?;
        let domain = Arc::new(domain);
        let batches = (0..count.get())
            .map(|i| Batch::new(DomainStates::new(Arc::clone(&domain), 1), i))
            .collect();
        AsyncVector::from_batches(batches, dim, seed, options, batch_size)
    }
}

impl<S, T> AsyncVector<S, T>
where
    S: SplitStates<T> + 'static,
    S::Action: 'static,
    S::ActionSpace: Clone,
    T: FlatScalar,
{
    /// The vector of `batches`, one environment each (environment `i` the batch whose `first`
    /// is `i`), with observation rows of `dim`, seeded with `seed + i`; starts the workers.
    pub(crate) fn from_batches(
        batches: Vec<Batch<S, T>>,
        dim: usize,
        seed: u64,
        options: VectorOptions,
        batch_size: NonZeroUsize,
    ) -> Result<Self, VectorError> {
        let len = batches.len();
        let Some(action_space) = batches.first().map(|batch| batch.action_space().clone()) else {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        };
        if options.autoreset() != Autoreset::NextStep {
            return Err(VectorError::invalid_parameter(
                "options",
                format!(
                    "the asynchronous vector autoresets on the next step only, EnvPool's only \
                     mode, not {:?}: a VectorEnvironment offers the others",
                    options.autoreset()
                ),
            ));
        }
        let batch_size = batch_size.get();
        if batch_size > len {
            return Err(VectorError::invalid_parameter(
                "batch_size",
                format!("{batch_size} is more than the {len} environments"),
            ));
        }
        let threads = options.threads().get();
        if threads > len {
            return Err(VectorError::invalid_parameter(
                "threads",
                format!("{threads} worker threads for {len} environments: each needs one"),
            ));
        }
        if threads
            .checked_mul(WORKER_STACK)
            .is_none_or(|bytes| Vec::<u8>::new().try_reserve_exact(bytes).is_err())
        {
            return Err(VectorError::invalid_parameter(
                "threads",
                format!(
                    "{threads} threads are too many: the stacks of their workers cannot be reserved"
                ),
            ));
        }
        let slots = batches
            .into_iter()
            .enumerate()
            .map(|(i, mut batch)| {
                debug_assert_eq!((batch.first(), batch.len()), (i, 1));
                let seed = Seed::from(seed).plus(i as u64);
                batch
                    .seed(std::slice::from_ref(&Some(seed)))
                    .map_err(|(index, source)| VectorError::Environment { index, source })?;
                Ok(Mutex::new(Slot {
                    batch,
                    outputs: Outputs::new(1, dim, false),
                    action: None,
                    command: Command::Reset {
                        mode: Mode::Training,
                        which: Resets::All,
                    },
                    failure: None,
                    panic: None,
                    elapsed: 0,
                    ended: false,
                }))
            })
            .collect::<Result<Box<[_]>, VectorError>>()?;
        let shared = Arc::new(Shared {
            slots,
            work: Mutex::new(Work {
                queue: VecDeque::with_capacity(len),
                stop: false,
            }),
            work_ready: Condvar::new(),
            finished: Mutex::new(Finished {
                queue: VecDeque::with_capacity(len),
                wanted: usize::MAX,
            }),
            finished_ready: Condvar::new(),
        });
        let mut vector = AsyncVector {
            shared,
            workers: Vec::with_capacity(threads),
            action_space,
            len,
            batch_size,
            mode: Mode::Training,
            started: vec![false; len],
            interrupted: false,
            pending: vec![false; len],
            in_flight: 0,
            sent_at: vec![0; len],
            sends: 0,
            observations: Array2::from_elem((batch_size, dim), T::ZERO),
            rewards: vec![0.0; batch_size],
            terminated: vec![false; batch_size],
            truncated: vec![false; batch_size],
            infos: vec![Info::new(); batch_size],
            elapsed_steps: vec![0; batch_size],
            env_ids: Vec::with_capacity(batch_size),
        };
        for index in 0..threads {
            let shared = Arc::clone(&vector.shared);
            let worker = spawn_running(format!("rl-async-{index}"), move || work(&shared))?;
            // On an error above, dropping `vector` stops and joins the workers started.
            vector.workers.push(worker);
        }
        Ok(vector)
    }
}

impl<S: SplitStates<T>, T: FlatScalar> AsyncVector<S, T> {
    /// Resets every environment in `mode` (held by later autoresets until the next
    /// `async_reset`): their first observations are the next results to receive, `batch_size`
    /// per [`recv`](Self::recv). Results of earlier sends not received yet are discarded
    /// (after the jobs already running end).
    pub fn async_reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        self.drain();
        for slot in self.shared.slots.iter() {
            lock(slot).command = Command::Reset {
                mode,
                which: Resets::All,
            };
        }
        self.mode = mode;
        self.started.fill(true);
        self.interrupted = false;
        self.pending.fill(true);
        for (i, sent_at) in self.sent_at.iter_mut().enumerate() {
            *sent_at = self.sends + i as u64;
        }
        self.sends += self.len as u64;
        self.in_flight = self.len;
        self.enqueue(0..self.len);
        Ok(())
    }

    /// Reseeds environment `i` with `seed + i`, as [`VectorEnvironment::seed`] does: later
    /// draws come from the new generators, and nothing is reset. Results not received yet are
    /// discarded (after the jobs already running end): reset next.
    ///
    /// [`VectorEnvironment::seed`]: crate::vector::VectorEnvironment::seed
    pub fn seed(&mut self, seed: u64) -> Result<(), VectorError> {
        self.seed_from(&Seed::from(seed))
    }

    /// [`seed`](Self::seed) with a [`Seed`] of any size (Gymnasium's `reset(seed=10**30)`):
    /// environment `i` gets `seed + i`. An error, with nothing reseeded (but the results not
    /// received discarded), where an environment cannot take its seed.
    pub fn seed_from(&mut self, seed: &Seed) -> Result<(), VectorError> {
        self.drain();
        for check in [true, false] {
            for (i, slot) in self.shared.slots.iter().enumerate() {
                let seeds = [Some(seed.plus(i as u64))];
                let mut slot = lock(slot);
                if check {
                    slot.batch.check_seeds(&seeds)
                } else {
                    slot.batch.seed(&seeds)
                }
                .map_err(|(index, source)| VectorError::Environment { index, source })?;
            }
        }
        Ok(())
    }

    /// Steps environment `env_ids[k]` with `actions[k]`, for every `k`, on the workers, and
    /// returns at once; [`recv`](Self::recv) receives the results. The action of each is
    /// cloned into the environment's own slot (an `i64` is copied; an action holding an array
    /// allocates: [`send_with`](Self::send_with) writes actions in place).
    ///
    /// Errors, with nothing sent, if the counts differ ([`VectorError::ActionCount`]), as
    /// [`send_with`](Self::send_with) does otherwise.
    pub fn send(&mut self, actions: &[S::Action], env_ids: &[usize]) -> Result<(), VectorError> {
        if actions.len() != env_ids.len() {
            return Err(VectorError::ActionCount {
                expected: env_ids.len(),
                found: actions.len(),
            });
        }
        self.send_with(env_ids, |k, slot| {
            match slot {
                Some(action) => action.clone_from(&actions[k]),
                None => *slot = Some(actions[k].clone()),
            }
            Ok(())
        })
    }

    /// [`send`](Self::send) with each action written by `write(k, slot)` into the slot of
    /// environment `env_ids[k]`, which holds that environment's last action (`None` before its
    /// first step), so that an action holding an array can be overwritten in place. The
    /// action written must be `Some` and in the action space.
    ///
    /// Errors, with nothing sent, after a panic ([`VectorError::Interrupted`]), for an
    /// environment never reset (by [`async_reset`](Self::async_reset) or
    /// [`send_reset`](Self::send_reset): [`VectorError::NotStarted`]; EnvPool resets it
    /// instead), for an id out of range ([`VectorError::EnvIdOutOfRange`]), for an
    /// environment whose last result was not received yet or that is named twice
    /// ([`VectorError::AlreadySent`]), for an action outside the action space
    /// ([`VectorError::InvalidAction`], naming the environment) or left `None`, and with
    /// `write`'s own error.
    pub fn send_with(
        &mut self,
        env_ids: &[usize],
        mut write: impl FnMut(usize, &mut Option<S::Action>) -> Result<(), VectorError>,
    ) -> Result<(), VectorError> {
        if self.interrupted {
            return Err(VectorError::Interrupted);
        }
        if env_ids
            .iter()
            .any(|&id| self.started.get(id).is_some_and(|started| !started))
        {
            return Err(VectorError::NotStarted);
        }
        self.mark_pending(env_ids)?;
        let step = Command::Step {
            mode: self.mode,
            autoreset: Autoreset::NextStep,
        };
        for (k, &id) in env_ids.iter().enumerate() {
            let mut slot = lock(&self.shared.slots[id]);
            let written = write(k, &mut slot.action).and_then(|()| match &slot.action {
                Some(action)
                    if self.action_space.contains(action) || slot.batch.accepts_action(action) =>
                {
                    Ok(())
                }
                other => Err(VectorError::InvalidAction {
                    index: id,
                    action: other.as_ref().map_or_else(
                        || "(none written)".to_owned(),
                        |action| format!("{action:?}"),
                    ),
                    space: self.action_space.to_string(),
                }),
            });
            if let Err(error) = written {
                drop(slot);
                for &id in env_ids {
                    self.pending[id] = false;
                }
                return Err(error);
            }
            slot.command = step;
        }
        self.dispatch(env_ids);
        Ok(())
    }

    /// Resets the environments `env_ids` on the workers, in the mode of the last
    /// [`async_reset`](Self::async_reset) (training before the first), and returns at once:
    /// their first observations are results to [`recv`](Self::recv), as EnvPool's
    /// `reset(env_id)` sends them. The other environments are left as they are, in flight or
    /// not; an environment reset this way may be [`send`](Self::send) once its first
    /// observation is received, even before the first `async_reset`.
    ///
    /// Errors, with nothing sent, after a panic ([`VectorError::Interrupted`]: reset every
    /// environment with `async_reset`), for an id out of range
    /// ([`VectorError::EnvIdOutOfRange`]), and for an environment whose last result was not
    /// received yet or that is named twice ([`VectorError::AlreadySent`]: EnvPool leaves
    /// resetting an environment in flight undefined).
    pub fn send_reset(&mut self, env_ids: &[usize]) -> Result<(), VectorError> {
        if self.interrupted {
            return Err(VectorError::Interrupted);
        }
        self.mark_pending(env_ids)?;
        let reset = Command::Reset {
            mode: self.mode,
            which: Resets::All,
        };
        for &id in env_ids {
            lock(&self.shared.slots[id]).command = reset;
            self.started[id] = true;
        }
        self.dispatch(env_ids);
        Ok(())
    }

    /// [`send_reset`](Self::send_reset), then [`recv`](Self::recv): EnvPool's
    /// `reset(env_id)`. With `batch_size` equal to the number of environments and nothing
    /// else in flight, the results are the first observations of `env_ids`, in that order;
    /// otherwise they are the first `batch_size` results to finish, whichever environments
    /// they are (EnvPool's, which leaves the asynchronous case undefined).
    ///
    /// Errors as `send_reset` does, and, with nothing sent, if the `recv` would wait for
    /// more results than the environments in flight could give
    /// ([`VectorError::NotEnoughInFlight`]).
    pub fn reset(&mut self, env_ids: &[usize]) -> Result<(), VectorError> {
        self.check_receivable(env_ids.len())?;
        self.send_reset(env_ids)?;
        self.recv()
    }

    /// Records the environments `env_ids`, just marked pending with their commands written,
    /// as sent (in this order) and puts them on the work queue.
    fn dispatch(&mut self, env_ids: &[usize]) {
        for &id in env_ids {
            self.sent_at[id] = self.sends;
            self.sends += 1;
        }
        self.in_flight += env_ids.len();
        self.enqueue(env_ids.iter().copied());
    }

    /// Marks the environments `env_ids` pending, or, with none marked, the error of the first
    /// one out of range or pending already (or named twice).
    fn mark_pending(&mut self, env_ids: &[usize]) -> Result<(), VectorError> {
        for (k, &id) in env_ids.iter().enumerate() {
            let error = if id >= self.len {
                Some(VectorError::EnvIdOutOfRange {
                    env_id: id,
                    len: self.len,
                })
            } else if self.pending[id] {
                Some(VectorError::AlreadySent { env_id: id })
            } else {
                None
            };
            if let Some(error) = error {
                for &marked in &env_ids[..k] {
                    self.pending[marked] = false;
                }
                return Err(error);
            }
            self.pending[id] = true;
        }
        Ok(())
    }

    /// Puts the environments `ids` on the work queue and wakes the workers.
    fn enqueue(&self, ids: impl ExactSizeIterator<Item = usize>) {
        let count = ids.len();
        lock(&self.shared.work).queue.extend(ids);
        match count {
            0 => {}
            1 => self.shared.work_ready.notify_one(),
            _ => self.shared.work_ready.notify_all(),
        }
    }

    /// The number of results the next [`recv`](Self::recv) returns with `extra` more
    /// environments in flight, or the error [`VectorError::NotEnoughInFlight`] if it would
    /// wait for more than they could give: `batch_size`, or with `batch_size` equal to the
    /// number of environments (EnvPool's synchronous mode), every environment in flight.
    fn check_receivable(&self, extra: usize) -> Result<usize, VectorError> {
        let in_flight = self.in_flight + extra;
        let wanted = if self.batch_size == self.len {
            in_flight.min(self.batch_size)
        } else {
            self.batch_size
        };
        if wanted == 0 || in_flight < wanted {
            return Err(VectorError::NotEnoughInFlight {
                batch_size: self.batch_size,
                in_flight,
            });
        }
        Ok(wanted)
    }

    /// Waits until `batch_size` environments have finished and puts their results in the
    /// first rows of the result buffers (row `k` for environment
    /// [`env_ids()[k]`](Self::env_ids)), in the order they finished. With `batch_size` equal
    /// to the number of environments (EnvPool's synchronous mode) it waits for every
    /// environment in flight instead, however few, and the rows come in the order the
    /// environments were sent (or reset). The environments received may be sent again.
    ///
    /// Errors, at once, if fewer environments are in flight than it waits for, or none
    /// ([`VectorError::NotEnoughInFlight`]: waiting would never end); if an environment
    /// received failed ([`VectorError::Environment`]; the others' results are in their rows);
    /// if a worker thread ended ([`VectorError::Interrupted`], a bug). A panic inside a
    /// received environment is passed on once every row is written.
    pub fn recv(&mut self) -> Result<(), VectorError> {
        let wanted = self.check_receivable(0)?;
        let shared = &*self.shared;
        {
            let (mut finished, all) = shared.wait_finished(wanted, &self.workers);
            if !all {
                self.interrupted = true;
                return Err(VectorError::Interrupted);
            }
            self.env_ids.clear();
            self.env_ids.extend(finished.queue.drain(..wanted));
        }
        if self.batch_size == self.len {
            let sent_at = &self.sent_at;
            self.env_ids.sort_unstable_by_key(|&id| sent_at[id]);
        }
        self.in_flight -= wanted;
        let mut failure = None;
        let mut panic = None;
        for (row, &id) in self.env_ids.iter().enumerate() {
            self.pending[id] = false;
            let mut slot = lock(&shared.slots[id]);
            let outputs = &mut slot.outputs;
            if let (Some(from), Some(to)) = (
                outputs.observations.as_slice(),
                self.observations.row_mut(row).into_slice(),
            ) {
                to.copy_from_slice(from);
            }
            self.rewards[row] = outputs.rewards[0];
            self.terminated[row] = outputs.terminated[0];
            self.truncated[row] = outputs.truncated[0];
            // Moved, not cloned: the slot's next job writes its own info.
            self.infos[row] = std::mem::take(&mut outputs.infos[0]);
            self.elapsed_steps[row] = slot.elapsed;
            failure = failure.or(slot.failure.take());
            panic = panic.or(slot.panic.take());
        }
        if let Some(payload) = panic {
            self.interrupted = true;
            resume_unwind(payload);
        }
        match failure {
            Some((index, source)) => Err(VectorError::Environment { index, source }),
            None => Ok(()),
        }
    }

    /// [`send`](Self::send), then [`recv`](Self::recv): EnvPool's `step(action, env_id)`.
    ///
    /// Errors as they do; if the `recv` would wait for more results than the environments in
    /// flight could give ([`VectorError::NotEnoughInFlight`]), before anything is sent.
    pub fn step(&mut self, actions: &[S::Action], env_ids: &[usize]) -> Result<(), VectorError> {
        self.check_receivable(env_ids.len())?;
        self.send(actions, env_ids)?;
        self.recv()
    }

    /// Waits for every job in flight to end and discards the results not received.
    fn drain(&mut self) {
        if self.in_flight == 0 {
            return;
        }
        let shared = &*self.shared;
        {
            let (mut finished, all) = shared.wait_finished(self.in_flight, &self.workers);
            if !all {
                // A dead worker (a bug): the jobs it held never finish. Take the work queue
                // back; what stays in flight is lost with it.
                lock(&shared.work).queue.clear();
            }
            finished.queue.clear();
        }
        for (id, pending) in self.pending.iter_mut().enumerate() {
            if *pending {
                let mut slot = lock(&shared.slots[id]);
                slot.failure = None;
                slot.panic = None;
                *pending = false;
            }
        }
        self.in_flight = 0;
    }

    /// The number of environments.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: there is at least one environment.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of results each [`recv`](Self::recv) waits for and returns.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// The number of environments sent (or reset) whose result was not received yet.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// The length of each environment's flat observation (the observation rows' length).
    pub fn flat_dim(&self) -> usize {
        self.observations.ncols()
    }

    /// The action space every environment shares.
    pub fn action_space(&self) -> &S::ActionSpace {
        &self.action_space
    }

    /// The mode of the last [`async_reset`](Self::async_reset).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The environments of the last [`recv`](Self::recv), one per row of the results (empty
    /// before the first).
    pub fn env_ids(&self) -> &[usize] {
        &self.env_ids
    }

    /// The observations of the last [`recv`](Self::recv), one row per environment received
    /// (`batch_size` rows, fewer after a partial synchronous `recv`; none before the first).
    pub fn observations(&self) -> ArrayView2<'_, T> {
        self.observations.slice(s![..self.env_ids.len(), ..])
    }

    /// The rewards of the last [`recv`](Self::recv) (0 for a reset, autoresets included).
    pub fn rewards(&self) -> &[f64] {
        &self.rewards[..self.env_ids.len()]
    }

    /// Whether each received environment's episode terminated on its step.
    pub fn terminated(&self) -> &[bool] {
        &self.terminated[..self.env_ids.len()]
    }

    /// Whether each received environment's episode was truncated on its step. Both flags may
    /// be `true`; termination then wins.
    pub fn truncated(&self) -> &[bool] {
        &self.truncated[..self.env_ids.len()]
    }

    /// The info each received environment reported on its step or reset (empty for a domain
    /// that reports none).
    pub fn infos(&self) -> &[Info] {
        &self.infos[..self.env_ids.len()]
    }

    /// The steps each received environment's episode has taken (EnvPool's `elapsed_step`):
    /// 0 for a reset's first observation, autoresets included, `n` on the `n`-th step, the
    /// one that ends the episode included.
    pub fn elapsed_steps(&self) -> &[u64] {
        &self.elapsed_steps[..self.env_ids.len()]
    }
}

impl<S: SplitStates<T>, T: FlatScalar> Drop for AsyncVector<S, T> {
    /// Asks the workers to stop, wakes them and joins them: a job already running ends first,
    /// the queued ones are dropped, and no worker outlives the vector.
    fn drop(&mut self) {
        lock(&self.shared.work).stop = true;
        self.shared.work_ready.notify_all();
        for worker in self.workers.drain(..) {
            // A worker catches its jobs' panics, so joining fails only if the thread itself
            // died, which leaves nothing to clean up.
            let _ = worker.join();
        }
    }
}

impl<S: SplitStates<T>, T: FlatScalar> fmt::Debug for AsyncVector<S, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AsyncVector")
            .field("len", &self.len)
            .field("batch_size", &self.batch_size)
            .field("threads", &self.workers.len())
            .field("in_flight", &self.in_flight)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rl_core::corridor::{Corridor, RIGHT};

    /// Dropping the vector with work queued and running stops and joins every worker: their
    /// handles on the shared state are gone once the drop returns.
    #[test]
    fn dropping_the_vector_stops_and_joins_its_workers() {
        let corridor = Corridor::new(4, 0.3).expect("valid");
        let count = NonZeroUsize::new(32).expect("non-zero");
        let options = VectorOptions::new().with_threads(NonZeroUsize::new(3).expect("non-zero"));
        let batch_size = NonZeroUsize::new(8).expect("non-zero");
        let mut vector =
            AsyncSteppedVector::<_, f32>::from_kernel(corridor, count, 0, options, batch_size)
                .expect("valid");
        vector.async_reset(Mode::Training).expect("reset");
        vector.recv().expect("eight resets");
        let ids = vector.env_ids().to_vec();
        vector.send(&[RIGHT; 8], &ids).expect("send");
        let shared = Arc::clone(&vector.shared);
        assert_eq!(
            Arc::strong_count(&shared),
            5,
            "the vector, 3 workers, this test"
        );
        drop(vector);
        assert_eq!(Arc::strong_count(&shared), 1, "the workers ended");
    }
}
