//! [`VectorEnvironment`]: many environments stepped in lockstep, with results in
//! structure-of-arrays buffers, optionally on several threads.

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::{Arc, MutexGuard};
use std::time::Instant;

use ndarray::Array2;
use rl_core::{Environment, Info, Mode};
use rl_spaces::{FlattenSpace, Space};

use crate::VectorError;
use crate::vector::balance::Balancer;
use crate::vector::batch::{Batch, Command, Failure, execute};
use crate::vector::outputs::{Outputs, RawOutputs, SharedSlice};
use crate::vector::pool::{Job, WorkerPool};
use crate::vector::{Autoreset, BatchStep, EnvironmentBatch, KernelBatch, VectorOptions};

/// A vector environment of copies of `E` with observations of `T` (see
/// [`VectorEnvironment::from_environments`]).
pub type EnvironmentVector<E, T> = VectorEnvironment<EnvironmentBatch<E, T>>;

/// A vector environment of the domain `D`'s kernel with observations of `T` (see
/// [`VectorEnvironment::from_kernel`]).
pub type KernelVector<D, T> = VectorEnvironment<KernelBatch<D, T>>;

/// A share of the batch that any of the threads may step: its environments (or kernel
/// columns) and generators, and the failure of its last call.
struct Share<B: Batch> {
    batch: B,
    failure: Option<Failure>,
    /// When the share finished the last timed call, in nanoseconds after the call started.
    finished: u64,
}

/// A call on every share: the command, where the actions and the result buffers are, and,
/// if the call is timed (to balance the shares), when it started.
struct Request<B: Batch> {
    command: Command,
    actions: SharedSlice<B::Action>,
    outputs: RawOutputs<B::Scalar>,
    started: Option<Instant>,
}

impl<B: Batch> Clone for Request<B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: Batch> Copy for Request<B> {}

impl<B: Batch> Request<B> {
    /// Runs the request on `batch`, reading its environments' actions and writing their
    /// results in place.
    ///
    /// # Safety
    ///
    /// The contracts of [`RawOutputs::rows`] and [`SharedSlice::get`] for this range: the
    /// vector environment's buffers and the actions stay alive and untouched by anyone else
    /// until the call is over (`VectorEnvironment::run` returns only after every share is
    /// done), and no other share covers these environments (the shares' ranges are disjoint,
    /// and each share runs once per request).
    #[allow(unsafe_code)]
    unsafe fn execute(&self, batch: &mut B) -> Result<(), Failure> {
        let range = batch.first()..batch.first() + batch.len();
        // SAFETY: the caller's contract, passed on.
        let (actions, rows) =
            unsafe { (self.actions.get(range.clone()), self.outputs.rows(range)) };
        execute(batch, self.command, actions, rows)
    }
}

impl<B: Batch> Job for Share<B> {
    type Request = Request<B>;

    #[allow(unsafe_code)]
    unsafe fn run(&mut self, request: &Request<B>) -> bool {
        // SAFETY: the request is valid while this runs (this function's contract, kept by
        // `VectorEnvironment::run`), and the pool runs each share once per request, so no
        // other share covers these rows.
        self.failure = unsafe { request.execute(&mut self.batch) }.err();
        if let Some(started) = request.started {
            self.finished = nanoseconds_since(started);
        }
        self.failure.is_some()
    }
}

/// The nanoseconds elapsed since `instant` (at least 1, so that 0 can mean "not measured").
fn nanoseconds_since(instant: Instant) -> u64 {
    u64::try_from(instant.elapsed().as_nanos())
        .unwrap_or(u64::MAX)
        .max(1)
}

/// Moves the boundaries between the shares (`main`, then the pool's, in order) after a timed
/// call in which `main` finished `main_finished` nanoseconds after the start: records every
/// share's finishing time, plans the moves, and makes them between neighbours. Runs between
/// calls, when no worker holds a share.
fn rebalance<B: Batch>(
    main: &mut B,
    pool: &WorkerPool<Share<B>>,
    balancer: &mut Balancer,
    main_finished: u64,
) {
    balancer.record(0, main_finished, main.len());
    for (k, share) in pool.jobs().enumerate() {
        balancer.record(k + 1, share.finished, share.batch.len());
    }
    if balancer.plan() {
        let (moves, refused) = balancer.moves_and_refusals();
        shift_boundaries(main, pool, moves, refused);
    }
}

/// Moves boundary `k` (between share `k` and share `k + 1`, share 0 being `main`) by
/// `moves[k]` environments ([`Batch::shift`](crate::vector::batch::sealed::Sealed::shift)'s
/// sign), for every non-zero entry; calls `refused(k)` for each boundary that could not move.
/// Runs between calls, when no worker holds a share.
fn shift_boundaries<B: Batch>(
    main: &mut B,
    pool: &WorkerPool<Share<B>>,
    moves: &[isize],
    mut refused: impl FnMut(usize),
) {
    // The share on the left of the next boundary, once it is a worker's (locked).
    let mut held: Option<MutexGuard<'_, Share<B>>> = None;
    for (boundary, mut share) in pool.jobs().enumerate() {
        let count = moves.get(boundary).copied().unwrap_or(0);
        if count != 0 {
            let left = match held.as_mut() {
                Some(previous) => &mut previous.batch,
                None => &mut *main,
            };
            if !left.shift(&mut share.batch, count) {
                refused(boundary);
            }
        }
        held = Some(share);
    }
}

/// Waits for the workers when the calling thread's own share panics, before the panic leaves
/// [`VectorEnvironment::run`]: the workers may still be writing into the buffers, which the
/// caller could read or free once the panic is caught.
struct FinishOnUnwind<'a, J: Job>(&'a WorkerPool<J>);

impl<J: Job> Drop for FinishOnUnwind<'_, J> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.finish();
        }
    }
}

/// `N` environments stepped in lockstep (Gymnasium's vector environments), with the results
/// in structure-of-arrays buffers it owns: observations as an `N × flat dimension`
/// [`Array2`], rewards, termination and truncation flags and infos as slices, read by
/// reference after each call.
///
/// # Two ways to build one
///
/// - [`from_environments`](Self::from_environments): `N` copies of any [`Environment`] made by
///   a factory, each stepped through its own `step` and its observation flattened into its
///   row.
/// - [`from_kernel`](Self::from_kernel): a [`BatchStep`] domain whose kernel steps the whole
///   batch at once in structure-of-arrays columns. It gives, bit for bit, what copies of
///   `Simulator::new(domain, seed_i)` give.
///
/// # Seeds
///
/// One `u64` seeds everything: environment `i` is seeded with
/// [`derive_seed(seed, i)`](crate::derive_seed), the `(i + 1)`-th output of SplitMix64
/// started at `seed`. [`seed`](Self::seed) reseeds all of them by the same rule; resets never
/// reseed.
///
/// # Autoreset
///
/// An environment whose episode ended is reset as the [`Autoreset`] mode says: on the next
/// step (the default), at once with its final observation kept apart, or never (an error
/// until [`reset_ended`](Self::reset_ended)). Resets use the mode of the last
/// [`reset`](Self::reset).
///
/// # Errors before stepping
///
/// [`step`](Self::step) checks every action (and, with autoreset disabled, that no episode
/// has ended) before any environment steps; an error names the environment's index, the
/// action and the space.
///
/// # Threads
///
/// With [`VectorOptions::with_threads`], the batch is split into contiguous shares, each
/// stored apart (its environments or kernel columns and generators), and worker threads are
/// started at construction (`threads - 1` of them, joined on drop). The calling thread steps
/// the first share; the others are taken in turn by whichever thread is free, the calling
/// thread included once its own share is done, so a worker that has not started yet (a
/// descheduled one) never holds a step up.
///
/// - A kernel vector ([`from_kernel`](Self::from_kernel)) has one share per thread, even at
///   first, and moves their boundaries while it runs: on every fourth step it measures when
///   each share finishes, and moves environments (eight or more at a time, each with its
///   state, generator and step count) from a share that finishes later to its neighbour, so
///   that the threads finish together even when one core runs slower than the other (a
///   host that slows a virtual CPU for a while, a core shared with another process). A
///   boundary moves at most a quarter of the smallest even share away from where it started
///   (so not at all with shares under 32 environments).
/// - Copies of an environment ([`from_environments`](Self::from_environments)) keep fixed
///   shares: an even share for the calling thread, the rest in two shares per worker, so a
///   worker that runs slower leaves its second share to the calling thread.
///
/// Every thread reads its environments' actions from the slice
/// given to [`step`](Self::step) and writes their results straight into their rows of the
/// buffers: nothing is copied before or after. A call hands work over with atomics and one
/// uncontended lock per thread (the request's), and allocates nothing: an idle worker spins for a few tens of microseconds, then parks until
/// the next call unparks it. A panic inside an environment on any thread reaches the caller
/// after every thread is done with the buffers. Every environment's results depend only on
/// its own seed and actions, so they are bit-identical with any number of threads, whichever
/// thread steps a share.
///
/// (Handing disjoint rows of one buffer to persistent threads is the one place the
/// workspace uses `unsafe`; the argument is on the crate-private `RawOutputs::rows`.)
///
/// # No allocation per step
///
/// After the first reset, stepping allocates nothing when the environments' steps allocate
/// nothing (plain observations and actions, empty infos).
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::Simulator;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_core::Mode;
/// use rl_wrappers::vector::{EnvironmentVector, VectorOptions};
///
/// let corridor = Corridor::new(3, 0.0)?;
/// let count = NonZeroUsize::new(4).expect("non-zero");
/// let mut vector = EnvironmentVector::<_, f32>::from_environments(count, 7, VectorOptions::new(), |_| {
///     Simulator::new(corridor.clone(), 0)
/// })?;
/// vector.reset(Mode::Training)?;
/// // Observations are flattened: a corridor of 3 cells gives one-hot rows of length 3.
/// assert_eq!(vector.observations().shape(), &[4, 3]);
/// vector.step(&[RIGHT; 4])?;
/// vector.step(&[RIGHT; 4])?;
/// assert_eq!(vector.terminated(), &[true; 4]);
/// assert_eq!(vector.rewards(), &[-1.0; 4]);
/// // The next step resets them (next-step autoreset): reward 0, both flags false.
/// vector.step(&[RIGHT; 4])?;
/// assert_eq!(vector.terminated(), &[false; 4]);
/// assert_eq!(vector.observations().row(0).to_vec(), [1.0f32, 0.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct VectorEnvironment<B: Batch> {
    main: B,
    pool: Option<WorkerPool<Share<B>>>,
    /// For a kernel vector on several threads, the state of the shares' boundaries.
    balancer: Option<Balancer>,
    /// The number of steps made (every [`TIMING_PERIOD`]-th one is timed, with a balancer).
    steps: u64,
    outputs: Outputs<B::Scalar>,
    options: VectorOptions,
    mode: Mode,
    started: bool,
    len: usize,
}

/// With a balancer, one step in this many is timed (the timing costs two or three clock
/// readings and a look at every share, a fraction of a percent of a step at this period).
const TIMING_PERIOD: u64 = 4;

/// The shares of a kernel vector of `len` environments on `threads` threads, and the room
/// each may grow into: even shares, one per thread, each with storage for up to `margin`
/// environments of each neighbour, where `margin` is a quarter of the smallest share rounded
/// down to whole blocks of 8 environments (the balancer moves whole blocks), so that no
/// share falls below half its even size. Shares under 32 environments get no room: a step of
/// so few is over before a move could pay for itself.
fn balanced_shares(len: usize, threads: usize) -> Vec<(Range<usize>, Range<usize>)> {
    let threads = threads.clamp(1, len.max(1));
    let bounds: Vec<usize> = (0..=threads).map(|k| k * len / threads).collect();
    let smallest = bounds.windows(2).map(|w| w[1] - w[0]).min().unwrap_or(0);
    let margin = smallest / 4 / 8 * 8;
    bounds
        .windows(2)
        .map(|w| {
            let (start, end) = (w[0], w[1]);
            let room = start.saturating_sub(margin)..(end + margin).min(len);
            (room, start..end)
        })
        .collect()
}

/// The contiguous parts of a batch of `len` environments stepped by `threads` threads: with
/// one thread, one part; with more, an even share for the calling thread alone, then the rest
/// in two parts per worker, which the threads take in turn (so that a worker running slower
/// leaves its second part to a faster thread). Finer parts of decreasing size balanced no
/// better on the measured machine and cost more hand-overs (docs/PERFORMANCE.md).
fn shares(len: usize, threads: usize) -> Vec<Range<usize>> {
    if threads <= 1 {
        return std::iter::once(0..len).collect();
    }
    let first = (len / threads).clamp(1, len);
    let rest = len - first;
    let parts = (2 * (threads - 1)).min(rest);
    std::iter::once(0..first)
        .chain((0..parts).map(|k| first + k * rest / parts..first + (k + 1) * rest / parts))
        .collect()
}

/// Checks that the buffers of `len` environments with observations of `dim` entries can be
/// allocated: a few 8-byte words per entry and per environment must fit in `isize::MAX` bytes.
fn check_size(len: usize, dim: usize) -> Result<(), VectorError> {
    let bytes = dim
        .checked_add(8)
        .and_then(|words| words.checked_mul(len))
        .and_then(|words| words.checked_mul(16));
    match bytes {
        Some(bytes) if bytes <= isize::MAX as usize => Ok(()),
        _ => Err(VectorError::invalid_parameter(
            "count",
            format!("{len} environments with observations of {dim} entries are too many"),
        )),
    }
}

/// Checks the thread count against the number of environments.
fn check_threads(len: usize, options: &VectorOptions) -> Result<usize, VectorError> {
    let threads = options.threads().get();
    if threads > len {
        return Err(VectorError::invalid_parameter(
            "threads",
            format!("{threads} threads for {len} environments: each thread needs one"),
        ));
    }
    Ok(threads)
}

impl<E, T> VectorEnvironment<EnvironmentBatch<E, T>>
where
    E: Environment + Send + 'static,
    E::Action: Send + Sync + 'static,
    E::ActionSpace: Clone + PartialEq + Send + 'static,
    E::ObservationSpace: FlattenSpace,
    T: rl_spaces::FlatScalar,
{
    /// `count` environments made by `factory(i)` for `i` in `0..count`, environment `i`
    /// seeded with [`derive_seed(seed, i)`](crate::derive_seed).
    ///
    /// Errors if the environments do not all have the same action space and observation
    /// dimension, if there are more threads than environments, or if a thread cannot start.
    pub fn from_environments(
        count: NonZeroUsize,
        seed: u64,
        options: VectorOptions,
        mut factory: impl FnMut(usize) -> E,
    ) -> Result<Self, VectorError> {
        let len = count.get();
        let threads = check_threads(len, &options)?;
        check_size(len, 0)?;
        let mut environments: Vec<E> = (0..len).map(&mut factory).collect();
        let Some(first) = environments.first() else {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        };
        let action_space = first.action_space().clone();
        let dim = first.observation_space().flat_dim();
        check_size(len, dim)?;
        for (index, env) in environments.iter().enumerate() {
            if *env.action_space() != action_space {
                return Err(VectorError::invalid_parameter(
                    "factory",
                    format!(
                        "environment {index} has the action space {}, environment 0 has {action_space}",
                        env.action_space()
                    ),
                ));
            }
            let other = env.observation_space().flat_dim();
            if other != dim {
                return Err(VectorError::invalid_parameter(
                    "factory",
                    format!(
                        "environment {index} has observations of {other} entries, environment 0 of {dim}"
                    ),
                ));
            }
        }
        let mut batches = Vec::with_capacity(threads);
        for range in shares(len, threads).into_iter().rev() {
            let share = environments.split_off(range.start);
            batches.push(EnvironmentBatch::new(
                share,
                range.start,
                action_space.clone(),
            ));
        }
        batches.reverse();
        VectorEnvironment::assemble(batches, len, dim, seed, options, false)
    }
}

impl<D, T> VectorEnvironment<KernelBatch<D, T>>
where
    D: BatchStep + Send + Sync + 'static,
    D::Action: Send + Sync + 'static,
    D::ObservationSpace: FlattenSpace,
    T: rl_spaces::FlatScalar,
{
    /// `count` episodes of `domain` stepped by its structure-of-arrays kernel. The vector
    /// environment owns the columns, a `Pcg64` per episode
    /// (`Pcg64::seed_from_u64(derive_seed(seed, i))`), the step counts and the episode cap
    /// ([`Domain::episode_cap`](rl_core::Domain::episode_cap)).
    ///
    /// Errors if there are more threads than episodes or a thread cannot start.
    pub fn from_kernel(
        domain: D,
        count: NonZeroUsize,
        seed: u64,
        options: VectorOptions,
    ) -> Result<Self, VectorError> {
        let len = count.get();
        let threads = check_threads(len, &options)?;
        let dim = domain.observation_space().flat_dim();
        check_size(len, dim)?;
        let domain = Arc::new(domain);
        let shares = balanced_shares(len, threads);
        // Without room to move into, there is nothing to balance (and nothing to time).
        let balance = shares.iter().any(|(room, own)| room != own);
        let batches = shares
            .into_iter()
            .map(|(room, own)| KernelBatch::new(Arc::clone(&domain), room, own))
            .collect();
        VectorEnvironment::assemble(batches, len, dim, seed, options, balance)
    }
}

impl<B> VectorEnvironment<B>
where
    B: Batch + Send + 'static,
    B::Action: Send + Sync + 'static,
{
    /// Puts the first share on the calling thread and the others on worker threads, and
    /// seeds everything. With `balance`, the boundaries between the shares move with the
    /// threads' speeds.
    fn assemble(
        batches: Vec<B>,
        len: usize,
        dim: usize,
        seed: u64,
        options: VectorOptions,
        balance: bool,
    ) -> Result<Self, VectorError> {
        let keep_final = options.autoreset() == Autoreset::SameStep;
        let mut batches = batches.into_iter();
        let main = batches
            .next()
            .ok_or_else(|| VectorError::invalid_parameter("count", "no environment"))?;
        let shares: Vec<Share<B>> = batches
            .map(|batch| Share {
                batch,
                failure: None,
                finished: 0,
            })
            .collect();
        let share_count = shares.len() + 1;
        let workers = options.threads().get() - 1;
        let pool = if shares.is_empty() || workers == 0 {
            None
        } else {
            Some(
                WorkerPool::new(shares, workers).map_err(|e| VectorError::ThreadSpawn {
                    reason: e.to_string(),
                })?,
            )
        };
        let mut vector = VectorEnvironment {
            main,
            balancer: (balance && pool.is_some()).then(|| Balancer::new(share_count)),
            steps: 0,
            pool,
            outputs: Outputs::new(len, dim, keep_final),
            options,
            mode: Mode::Training,
            started: false,
            len,
        };
        vector.run(Command::Seed(seed), &[], false)?;
        Ok(vector)
    }
}

impl<B: Batch> VectorEnvironment<B> {
    /// Runs `command` on every share (the first on this thread, the others on whichever thread
    /// takes them), each reading its actions from `actions` and writing its results into its
    /// rows of the buffers. Reports the failure of the lowest index, if any. With `timed` (and
    /// a balancer), measures when each share finishes and moves the shares' boundaries.
    fn run(
        &mut self,
        command: Command,
        actions: &[B::Action],
        timed: bool,
    ) -> Result<(), VectorError> {
        let failure = match &mut self.pool {
            None => execute(&mut self.main, command, actions, self.outputs.all_rows()).err(),
            Some(pool) => {
                let started = (timed && self.balancer.is_some()).then(Instant::now);
                // From `start` until every share is done, the threads write into the buffers
                // through these addresses, and this function touches `self.outputs` through
                // no reference; it returns (or unwinds, see `FinishOnUnwind`) only after
                // every share is done. `actions` stays borrowed all along.
                let request = Request {
                    command,
                    actions: SharedSlice::new(actions),
                    outputs: self.outputs.raw(),
                    started,
                };
                // SAFETY: the addresses stay valid until `wait` or `finish` returns: the
                // buffers and `actions` are borrowed for this whole function, and the guard
                // calls `finish` if the calling thread's share panics.
                #[allow(unsafe_code)]
                unsafe {
                    pool.start(request);
                }
                let guard = FinishOnUnwind(pool);
                // SAFETY: the calling thread's share is environments `0..main.len()`, which no
                // worker share covers; see above for the buffers' lifetime.
                #[allow(unsafe_code)]
                let failure = unsafe { request.execute(&mut self.main) }.err();
                let finished = started.map(nanoseconds_since);
                let flagged = guard.0.wait();
                drop(guard);
                if flagged {
                    pool.jobs().fold(failure, |failure, mut share| {
                        failure.or(share.failure.take())
                    })
                } else {
                    if let (Some(finished), Some(balancer)) = (finished, &mut self.balancer) {
                        rebalance(&mut self.main, pool, balancer, finished);
                    }
                    failure
                }
            }
        };
        match failure {
            Some((index, source)) => Err(VectorError::Environment { index, source }),
            None => Ok(()),
        }
    }

    /// Resets every environment in `mode` (held by later autoresets until the next `reset`).
    /// The first observations are in [`observations`](Self::observations); rewards are 0 and
    /// flags false.
    pub fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        self.mode = mode;
        self.started = true;
        self.run(
            Command::Reset {
                mode,
                only_ended: false,
            },
            &[],
            false,
        )
    }

    /// Resets the environments whose episode ended on the last step (and were not reset since),
    /// in the mode of the last [`reset`](Self::reset); the others keep their results. With
    /// [`Autoreset::Disabled`] this is how ended environments go on; with
    /// [`Autoreset::NextStep`] it resets them now instead of on the next step.
    pub fn reset_ended(&mut self) -> Result<(), VectorError> {
        if !self.started {
            return Err(VectorError::NotStarted);
        }
        self.run(
            Command::Reset {
                mode: self.mode,
                only_ended: true,
            },
            &[],
            false,
        )
    }

    /// Steps every environment with the action of the same index.
    ///
    /// Errors, before anything steps, if there is not one action per environment, an action
    /// is not in the action space, or (with [`Autoreset::Disabled`]) an environment's episode
    /// ended; and, after stepping, if an environment failed (see
    /// [`VectorError::Environment`]).
    pub fn step(&mut self, actions: &[B::Action]) -> Result<(), VectorError> {
        if !self.started {
            return Err(VectorError::NotStarted);
        }
        if actions.len() != self.len {
            return Err(VectorError::ActionCount {
                expected: self.len,
                found: actions.len(),
            });
        }
        let space = self.main.action_space();
        // One batch test (for discrete actions, in vector instructions), on the calling thread
        // before any thread steps.
        if let Some(index) = space.first_outside(actions) {
            let action = actions
                .get(index)
                .map(|a| format!("{a:?}"))
                .unwrap_or_default();
            return Err(VectorError::InvalidAction {
                index,
                action,
                space: space.to_string(),
            });
        }
        if self.options.autoreset() == Autoreset::Disabled {
            let mut ended = self.outputs.terminated.iter().zip(&self.outputs.truncated);
            if let Some(index) = ended.position(|(t, u)| *t || *u) {
                return Err(VectorError::EpisodeEnded { index });
            }
        }
        self.steps = self.steps.wrapping_add(1);
        self.run(
            Command::Step {
                mode: self.mode,
                autoreset: self.options.autoreset(),
            },
            actions,
            self.steps % TIMING_PERIOD == 0,
        )
    }

    /// Reseeds environment `i` with [`derive_seed(seed, i)`](crate::derive_seed), for every
    /// `i`, as [`Environment::seed`] does: later draws (running episodes included) come from
    /// the new generators, and nothing is reset.
    pub fn seed(&mut self, seed: u64) -> Result<(), VectorError> {
        self.run(Command::Seed(seed), &[], false)
    }

    /// The number of environments.
    pub fn len(&self) -> usize {
        self.len
    }

    /// How many environments each thread's share holds, in the order of the environments
    /// (the calling thread's first): one entry with one thread. A kernel vector's shares
    /// start even and follow the threads' speeds (see "Threads" above); copies of an
    /// environment keep theirs. For inspection (it allocates the list).
    pub fn share_sizes(&self) -> Vec<usize> {
        let mut sizes = vec![self.main.len()];
        if let Some(pool) = &self.pool {
            sizes.extend(pool.jobs().map(|share| share.batch.len()));
        }
        sizes
    }

    /// Always false: there is at least one environment.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The length of each environment's flat observation (the observation rows' length).
    pub fn flat_dim(&self) -> usize {
        self.outputs.observations.ncols()
    }

    /// The action space every environment shares.
    pub fn action_space(&self) -> &B::ActionSpace {
        self.main.action_space()
    }

    /// The options the vector environment was built with.
    pub fn options(&self) -> &VectorOptions {
        &self.options
    }

    /// The mode of the last [`reset`](Self::reset).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The observations after the last call, one row per environment (after a reset, the
    /// first observation of the new episode).
    pub fn observations(&self) -> &Array2<B::Scalar> {
        &self.outputs.observations
    }

    /// The rewards of the last step (0 for environments reset by it or since).
    pub fn rewards(&self) -> &[f64] {
        &self.outputs.rewards
    }

    /// Whether each environment's episode terminated on the last step.
    pub fn terminated(&self) -> &[bool] {
        &self.outputs.terminated
    }

    /// Whether each environment's episode was truncated on the last step. Both flags may be
    /// `true`; termination then wins ([`StepOutcome::should_bootstrap`](rl_core::StepOutcome::should_bootstrap)).
    pub fn truncated(&self) -> &[bool] {
        &self.outputs.truncated
    }

    /// The info of each environment's last step (always empty for a kernel).
    pub fn infos(&self) -> &[Info] {
        &self.outputs.infos
    }

    /// With [`Autoreset::SameStep`], the final observations of the episodes that ended on the
    /// last step (rows marked in [`final_mask`](Self::final_mask); other rows are stale).
    /// Without it, an array of no rows.
    pub fn final_observations(&self) -> &Array2<B::Scalar> {
        &self.outputs.final_observations
    }

    /// With [`Autoreset::SameStep`], which environments ended on the last step (and were
    /// reset by it); otherwise all false.
    pub fn final_mask(&self) -> &[bool] {
        &self.outputs.final_mask
    }

    /// With [`Autoreset::SameStep`], the info of the last step of the episodes marked in
    /// [`final_mask`](Self::final_mask).
    pub fn final_infos(&self) -> &[Info] {
        &self.outputs.final_infos
    }
}

impl<E, T> VectorEnvironment<EnvironmentBatch<E, T>>
where
    E: Environment,
    E::Action: Send + Sync,
    E::ObservationSpace: FlattenSpace,
    T: rl_spaces::FlatScalar,
{
    /// The environments on the calling thread's share (all of them with one thread), for
    /// inspection.
    pub fn local_environments(&self) -> &[E] {
        self.main.environments()
    }
}

impl<D, T> VectorEnvironment<KernelBatch<D, T>>
where
    D: BatchStep,
    D::Action: Send + Sync,
    D::ObservationSpace: FlattenSpace,
    T: rl_spaces::FlatScalar,
{
    /// The domain.
    pub fn domain(&self) -> &D {
        self.main.domain()
    }
}

impl<B: Batch> fmt::Debug for VectorEnvironment<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VectorEnvironment")
            .field("len", &self.len)
            .field("options", &self.options)
            .field("mode", &self.mode)
            .field("started", &self.started)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    //! Moving the shares' boundaries between steps never changes a result: a kernel vector
    //! on several threads whose boundaries are moved at random gives, bit for bit, what one
    //! thread gives.

    use std::num::NonZeroUsize;

    use rand::{Rng, RngExt, SeedableRng};
    use rand_pcg::Pcg64;
    use rl_core::{Domain, Mode, TransitionOutcome, Value};
    use rl_spaces::{ArrayBox, Discrete, FlatScalar};

    use super::*;
    use crate::vector::{ColumnChunk, StateColumns};

    /// A noisy walk on a line that terminates beyond ±1 and is truncated after 12 steps.
    #[derive(Debug, Clone)]
    struct Walk {
        actions: Discrete,
        observations: ArrayBox<f64, 1>,
    }

    impl Walk {
        fn new() -> Self {
            Walk {
                actions: Discrete::new(3).expect("valid"),
                observations: ArrayBox::new([-3.0], [3.0]).expect("valid"),
            }
        }

        fn next<R: Rng + ?Sized>(position: f64, action: i64, rng: &mut R) -> (f64, f64, bool) {
            let next = position + 0.2 * (action as f64 - 1.0) + 0.1 * (rng.random::<f64>() - 0.5);
            (next, -next.abs(), next.abs() > 1.0)
        }
    }

    impl Domain for Walk {
        type State = f64;
        type Observation = [f64; 1];
        type Action = i64;
        type ObservationSpace = ArrayBox<f64, 1>;
        type ActionSpace = Discrete;

        fn observation_space(&self) -> &ArrayBox<f64, 1> {
            &self.observations
        }

        fn action_space(&self) -> &Discrete {
            &self.actions
        }

        fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> f64 {
            rng.random::<f64>() - 0.5
        }

        fn step<R: Rng + ?Sized>(
            &self,
            state: &f64,
            action: &i64,
            _: Mode,
            rng: &mut R,
        ) -> TransitionOutcome<f64> {
            let (next, reward, terminated) = Walk::next(*state, *action, rng);
            TransitionOutcome::new(next, Value::from_reward(reward), terminated)
        }

        fn observe(&self, state: &f64) -> [f64; 1] {
            [*state]
        }

        fn is_terminal(&self, state: &f64) -> bool {
            state.abs() > 1.0
        }

        fn episode_cap(&self) -> Option<u64> {
            Some(12)
        }
    }

    struct Positions(Vec<f64>);

    struct PositionChunk<'a>(&'a mut [f64]);

    impl ColumnChunk for PositionChunk<'_> {
        fn len(&self) -> usize {
            self.0.len()
        }

        fn split_at(self, mid: usize) -> (Self, Self) {
            let (a, b) = self.0.split_at_mut(mid.min(self.0.len()));
            (PositionChunk(a), PositionChunk(b))
        }
    }

    impl StateColumns for Positions {
        type State = f64;
        type Chunk<'a> = PositionChunk<'a>;

        fn filled(len: usize, initial: &f64) -> Self {
            Positions(vec![*initial; len])
        }

        fn len(&self) -> usize {
            self.0.len()
        }

        fn get(&self, index: usize) -> f64 {
            self.0.get(index).copied().unwrap_or_default()
        }

        fn set(&mut self, index: usize, state: &f64) {
            if let Some(s) = self.0.get_mut(index) {
                *s = *state;
            }
        }

        fn as_chunk(&mut self) -> PositionChunk<'_> {
            PositionChunk(&mut self.0)
        }
    }

    impl BatchStep for Walk {
        type Columns = Positions;

        fn step_batch<T: FlatScalar>(
            &self,
            states: PositionChunk<'_>,
            actions: &[i64],
            _mode: Mode,
            rngs: &mut [Pcg64],
            rewards: &mut [f64],
            terminated: &mut [bool],
            observations: &mut [T],
        ) {
            let outputs = rewards
                .iter_mut()
                .zip(terminated.iter_mut())
                .zip(observations.iter_mut());
            let inputs = states.0.iter_mut().zip(actions).zip(rngs.iter_mut());
            for (((position, action), rng), ((reward, done), observation)) in inputs.zip(outputs) {
                let (next, r, t) = Walk::next(*position, *action, rng);
                *position = next;
                (*reward, *done, *observation) = (r, t, T::from_f64(next));
            }
        }
    }

    impl<D, T> VectorEnvironment<KernelBatch<D, T>>
    where
        D: BatchStep,
        D::Action: Send + Sync,
        D::ObservationSpace: rl_spaces::FlattenSpace,
        T: rl_spaces::FlatScalar,
    {
        /// Moves boundary `boundary` (between share `boundary` and the next) by `count`
        /// environments, as the balancer would; returns whether it moved.
        fn shift_boundary(&mut self, boundary: usize, count: isize) -> bool {
            let Some(pool) = &self.pool else {
                return false;
            };
            let mut moves = vec![0; boundary + 1];
            moves[boundary] = count;
            let mut moved = true;
            shift_boundaries(&mut self.main, pool, &moves, |_| moved = false);
            moved && boundary < pool.jobs().count()
        }
    }

    /// Everything a step shows, with floats as bits.
    fn shown<T: FlatScalar>(vector: &KernelVector<Walk, T>) -> Vec<u64> {
        let floats = vector
            .observations()
            .iter()
            .chain(vector.final_observations().iter())
            .map(|x| x.to_f64().to_bits());
        let rewards = vector.rewards().iter().map(|r| r.to_bits());
        let flags = vector
            .terminated()
            .iter()
            .chain(vector.truncated())
            .chain(vector.final_mask())
            .map(|b| u64::from(*b));
        floats.chain(rewards).chain(flags).collect()
    }

    #[test]
    fn moving_the_boundaries_never_changes_a_result() {
        let mut rng = Pcg64::seed_from_u64(11);
        for autoreset in [
            Autoreset::NextStep,
            Autoreset::SameStep,
            Autoreset::Disabled,
        ] {
            for (len, threads) in [(75, 2), (64, 2), (130, 3), (160, 4)] {
                let count = NonZeroUsize::new(len).expect("non-zero");
                let build = |threads: usize| {
                    let options = VectorOptions::new()
                        .with_autoreset(autoreset)
                        .with_threads(NonZeroUsize::new(threads).expect("non-zero"));
                    KernelVector::<_, f32>::from_kernel(Walk::new(), count, 5, options)
                        .expect("valid")
                };
                let (mut one, mut many) = (build(1), build(threads));
                one.reset(Mode::Training).expect("resets");
                many.reset(Mode::Training).expect("resets");
                let mut moved = 0;
                let mut ends = 0;
                for step in 0..300 {
                    // Move a few boundaries by a few environments, either way (some moves
                    // are refused: no room, or a share would be left empty).
                    for _ in 0..rng.random_range(0..3) {
                        let boundary = rng.random_range(0..threads - 1);
                        let count = rng.random_range(-12i64..=12) as isize;
                        moved += usize::from(many.shift_boundary(boundary, count));
                    }
                    assert_eq!(many.share_sizes().iter().sum::<usize>(), len);
                    if step == 150 {
                        one.seed(9).expect("seeds");
                        many.seed(9).expect("seeds");
                    }
                    if autoreset == Autoreset::Disabled
                        && one.terminated().iter().chain(one.truncated()).any(|e| *e)
                    {
                        one.reset_ended().expect("resets");
                        many.reset_ended().expect("resets");
                    } else {
                        let actions: Vec<i64> = (0..len).map(|_| rng.random_range(0..3)).collect();
                        one.step(&actions).expect("steps");
                        many.step(&actions).expect("steps");
                        ends += one
                            .terminated()
                            .iter()
                            .chain(one.truncated())
                            .filter(|e| **e)
                            .count();
                    }
                    assert_eq!(
                        shown(&one),
                        shown(&many),
                        "{autoreset:?}, {len} on {threads}, step {step}"
                    );
                }
                // The test means something: boundaries moved, and episodes ended on both
                // sides of them.
                assert!(moved > 50, "{moved} moves");
                assert!(ends > len, "{ends} ends");
            }
        }
    }

    #[test]
    fn shares_start_even_with_room_for_a_quarter_of_the_smallest() {
        assert_eq!(
            balanced_shares(1024, 2),
            vec![(0..640, 0..512), (384..1024, 512..1024)]
        );
        // A quarter of 34 is 8: whole blocks.
        assert_eq!(
            balanced_shares(100, 3),
            vec![(0..41, 0..33), (25..74, 33..66), (58..100, 66..100)]
        );
        // Shares under 32 environments get no room.
        assert_eq!(
            balanced_shares(62, 2),
            vec![(0..31, 0..31), (31..62, 31..62)]
        );
        assert_eq!(
            balanced_shares(64, 2),
            vec![(0..40, 0..32), (24..64, 32..64)]
        );
        assert_eq!(balanced_shares(5, 1), vec![(0..5, 0..5)]);
    }
}
