//! [`VectorEnvironment`]: many environments stepped in lockstep, with results in
//! structure-of-arrays buffers, optionally on several threads.

use std::fmt;
use std::num::NonZeroUsize;
use std::sync::Arc;

use ndarray::Array2;
use rl_core::{
    Domain, DomainStates, Environment, Info, Mode, Seed, SplitStates, SplitStepping, SteppedStates,
};
use rl_spaces::{FiniteSpace, FlatScalar, FlattenSpace, RowLayout, Space};

use crate::VectorError;
use crate::vector::batch::{BOOKKEEPING_BYTES, Batch, Command, Resets};
use crate::vector::outputs::Outputs;
use crate::vector::threads::{Threads, chunks};
use crate::vector::{Autoreset, EnvironmentStates, VectorOptions};

/// A vector environment of copies of `E` with observations of `T` (see
/// [`VectorEnvironment::from_environments`]).
pub type EnvironmentVector<E, T> = VectorEnvironment<EnvironmentStates<E>, T>;

/// A vector environment of the domain `D`'s kernel with observations of `T` (see
/// [`VectorEnvironment::from_kernel`]).
pub type KernelVector<D, T> = VectorEnvironment<DomainStates<D>, T>;

/// A vector environment of any domain `D`, each state stepped by the domain's step with its
/// infos, with observations of `T` (see [`VectorEnvironment::from_kernel`]): the typed vector
/// of a domain without a structure-of-arrays kernel (Acrobot, Pendulum,
/// MountainCarContinuous, ...), its actions read as they are.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::Mode;
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::vector::{SteppedVector, VectorOptions};
///
/// let count = NonZeroUsize::new(3).expect("non-zero");
/// let corridor = Corridor::new(3, 0.0)?;
/// let mut vector = SteppedVector::<_, f32>::from_kernel(corridor, count, 0, VectorOptions::new())?;
/// vector.reset(Mode::Training)?;
/// vector.step(&[RIGHT; 3])?;
/// assert_eq!(vector.observations().row(0).to_vec(), [0.0f32, 1.0, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type SteppedVector<D, T> = VectorEnvironment<SteppedStates<D>, T>;

/// `N` environments stepped in lockstep (Gymnasium's vector environments), with the results
/// in structure-of-arrays buffers it owns: observations as an `N × flat dimension`
/// [`Array2`], rewards, termination and truncation flags and infos as slices, read by
/// reference after each call. `S` is what it steps, the states of its episodes (any
/// [`SplitStates`]: a domain's, or copies of an environment), and `T` the observations'
/// numeric type.
///
/// # Two ways to build one
///
/// - [`from_environments`](Self::from_environments): `N` copies of any [`Environment`] made by
///   a factory, each stepped through its own `step` and its observation flattened into its
///   row.
/// - [`from_kernel`](Self::from_kernel): a [`BatchStep`](rl_core::BatchStep) domain whose
///   kernel steps the whole batch at once ([`KernelVector`]), or any domain's states stepped
///   one by one by its step ([`SteppedVector`]).
///   Either gives, bit for bit, what copies of `Simulator::new(domain, seed_i)` give.
///
/// A vector built by id ([`make_vector`](crate::vector::make_vector)) is of the second kind
/// for every id: its registration's kernel, or any domain's states in one `Vec` stepped by
/// its `step` ([`SteppedStates`](rl_core::SteppedStates), with its infos).
///
/// # Seeds
///
/// One seed seeds everything: environment `i` is seeded with `seed + i`, as Gymnasium's
/// `SyncVectorEnv` and EnvPool seed theirs (so environment `i` of a vector draws what a single
/// environment seeded with `seed + i` draws: numpy's generator of that seed). Seeds are
/// [`Seed`]s, non-negative integers of any size as numpy's `SeedSequence` takes them
/// (`From<u64>`), so `seed + i` never overflows: past 2^64 it is numpy's generator of the
/// larger integer, as Gymnasium's. [`seed`](Self::seed) (a `u64`) and
/// [`seed_from`](Self::seed_from) (a [`Seed`]) reseed all of them by the same rule and
/// [`seed_each`](Self::seed_each) with a seed of each environment's own (Gymnasium's
/// `reset(seed=[...])`); resets never reseed: after an episode's end, an environment continues
/// its own generator's stream, in every autoreset mode and on any number of threads.
///
/// A structure-of-arrays vector ([`from_kernel`](Self::from_kernel), every vector built by id)
/// takes any seed. Copies of an [`Environment`] ([`from_environments`](Self::from_environments))
/// take a seed below 2^64 through [`Environment::seed`], and one of 2^64 or more through
/// [`Environment::set_random_state`] (numpy's generator of the seed): an environment that
/// cannot save and restore its generator refuses such a seed with an error naming it, and then
/// no environment is reseeded.
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
/// With [`VectorOptions::with_threads`], the environments are cut into small contiguous chunks
/// (eight per thread), fixed for the vector's life, and worker threads are started at
/// construction (`threads - 1` of them, joined on drop). Each thread steps the chunks of its own
/// share first, then takes those left in the others' shares, so a thread whose core is busy
/// with other work leaves its chunks to whichever thread is free; every thread writes its
/// chunks' rows of the buffers in place. An idle worker spins for a few tens of microseconds,
/// then parks until the next call unparks it. A panic inside an environment on
/// any thread reaches the caller after every thread is done, and the vector then refuses to
/// step ([`VectorError::Interrupted`]) until it is reset. Every environment's results
/// depend only on its own seed and actions, so they are bit-identical with any number of
/// threads.
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
pub struct VectorEnvironment<S: SplitStates<T>, T: FlatScalar> {
    threads: Threads<S, T>,
    outputs: Outputs<T>,
    options: VectorOptions,
    mode: Mode,
    started: bool,
    /// Set while a call runs: still set afterwards only if a panic unwound through it.
    interrupted: bool,
    len: usize,
}

/// The largest number of environments a vector holds: 2^24 (16,777,216). A larger count is an
/// error before anything is allocated (so is a count whose buffers cannot be allocated).
pub const MAX_ENVS: usize = 1 << 24;

/// Refuses options whose observation layout is not flat (the storages of copies and of typed
/// kernels write flat rows).
fn check_flat_layout(options: &VectorOptions) -> Result<(), VectorError> {
    if options.layout() == RowLayout::Flat {
        Ok(())
    } else {
        Err(VectorError::invalid_parameter(
            "options",
            format!(
                "the {:?} layout is for vectors built by id (make_vector); copies of an \
                 environment and typed kernels write flat rows",
                options.layout()
            ),
        ))
    }
}

/// Checks that `len` environments with observations of `dim` entries, each taking about
/// `env_bytes` bytes of its own besides the output buffers, can be allocated, before anything
/// is: `len` is at most [`MAX_ENVS`], and the bytes of the output buffers (a few 8-byte words
/// per entry and per environment, and an info and a final info per environment) and of the
/// environments can be reserved, a fallible
/// allocation that is released at once (so an impossible size is an error, not an abort on
/// the first small allocation that fails after the large ones succeeded).
pub(crate) fn check_size(len: usize, dim: usize, env_bytes: usize) -> Result<(), VectorError> {
    if len > MAX_ENVS {
        return Err(VectorError::invalid_parameter(
            "count",
            format!("{len} environments are more than the maximum of a vector, {MAX_ENVS}"),
        ));
    }
    let bytes = dim
        .checked_add(8)
        .and_then(|words| words.checked_mul(16))
        .and_then(|per_env| per_env.checked_add(2 * std::mem::size_of::<Info>()))
        .and_then(|per_env| per_env.checked_add(env_bytes))
        .and_then(|per_env| per_env.checked_mul(len))
        .filter(|bytes| *bytes <= isize::MAX as usize);
    let reserved = bytes.is_some_and(|bytes| Vec::<u8>::new().try_reserve_exact(bytes).is_ok());
    if !reserved {
        return Err(VectorError::invalid_parameter(
            "count",
            format!(
                "{len} environments with observations of {dim} entries are too many: they \
                 cannot be allocated"
            ),
        ));
    }
    Ok(())
}

/// Checks the thread count against the number of environments, and that the stacks of the
/// worker threads ([`WORKER_STACK`] each) can be reserved: a fallible reservation released at
/// once, so that thousands of threads in a small address space are an error, not an abort on
/// a small allocation once the stacks have taken the space (found by the Python fuzz target:
/// 4096 threads under a 4 GiB limit).
fn check_threads(len: usize, options: &VectorOptions) -> Result<usize, VectorError> {
    let threads = options.threads().get();
    if threads > len {
        return Err(VectorError::invalid_parameter(
            "threads",
            format!("{threads} threads for {len} environments: each thread needs one"),
        ));
    }
    let stacks = (threads - 1).checked_mul(crate::vector::threads::WORKER_STACK);
    if stacks.is_none_or(|bytes| Vec::<u8>::new().try_reserve_exact(bytes).is_err()) {
        return Err(VectorError::invalid_parameter(
            "threads",
            format!(
                "{threads} threads are too many: the stacks of their workers cannot be reserved"
            ),
        ));
    }
    Ok(threads)
}

impl<E, T> VectorEnvironment<EnvironmentStates<E>, T>
where
    E: Environment + Send + 'static,
    E::Action: Send + Sync + 'static,
    E::ActionSpace: Clone + PartialEq + Send + 'static,
    E::ObservationSpace: FlattenSpace,
    T: rl_spaces::FlatScalar,
{
    /// `count` environments made by `factory(i)` for `i` in `0..count`, environment `i`
    /// seeded with `seed + i` (see "Seeds" above: an error if `seed + i` reaches 2^64 and the
    /// environments cannot take such a seed).
    ///
    /// Errors if `count` is more than [`MAX_ENVS`] or its buffers cannot be allocated (before
    /// any environment is made), if the environments do not all have the same action space and
    /// observation dimension, if there are more threads than environments, or if a thread
    /// cannot start.
    pub fn from_environments(
        count: NonZeroUsize,
        seed: u64,
        options: VectorOptions,
        mut factory: impl FnMut(usize) -> E,
    ) -> Result<Self, VectorError> {
        let len = count.get();
        // The checks that need no environment, before any is made.
        check_threads(len, &options)?;
        check_flat_layout(&options)?;
        let env_bytes = std::mem::size_of::<E>() + BOOKKEEPING_BYTES;
        check_size(len, 0, env_bytes)?;
        let environments: Vec<E> = (0..len).map(&mut factory).collect();
        let Some(first) = environments.first() else {
            return Err(VectorError::invalid_parameter("count", "no environment"));
        };
        let action_space = first.action_space().clone();
        let dim = first.observation_space().flat_dim();
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
        VectorEnvironment::from_batch(count, dim, env_bytes, false, seed, options, |_| {
            let states = EnvironmentStates::new(environments, action_space);
            Ok(Batch::new(states, 0))
        })
    }
}

impl<D, S, T> VectorEnvironment<DomainStates<D, S>, T>
where
    D: Domain + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ObservationSpace: FlattenSpace,
    S: SplitStepping<D> + Default + 'static,
    T: rl_spaces::FlatScalar,
{
    /// `count` episodes of `domain` stepped by its structure-of-arrays kernel
    /// ([`KernelVector`]) or state by state by its step ([`SteppedVector`]). The vector
    /// environment owns the columns, a `NumpyGenerator` per episode
    /// (`NumpyGenerator::seed_from_u64(seed + i)`), the step counts and the episode cap
    /// ([`Domain::episode_cap`](rl_core::Domain::episode_cap)).
    ///
    /// Errors if `count` is more than [`MAX_ENVS`] or its buffers cannot be allocated (before
    /// anything is), if there are more threads than episodes or if a thread cannot start.
    pub fn from_kernel(
        domain: D,
        count: NonZeroUsize,
        seed: u64,
        options: VectorOptions,
    ) -> Result<Self, VectorError> {
        check_flat_layout(&options)?;
        let dim = domain.observation_space().flat_dim();
        let domain = Arc::new(domain);
        let env_bytes =
            std::mem::size_of::<D::State>() + domain.state_heap_bytes() + BOOKKEEPING_BYTES;
        let costly = domain.costly_steps();
        VectorEnvironment::from_batch(count, dim, env_bytes, costly, seed, options, |len| {
            Ok(Batch::new(DomainStates::new(domain, len), 0))
        })
    }
}

impl<S, T> VectorEnvironment<S, T>
where
    S: SplitStates<T> + 'static,
    S::Action: 'static,
    T: FlatScalar,
{
    /// `count` environments with observations of `dim` entries, each about `env_bytes` bytes
    /// besides the output buffers ([`check_size`]), in the one batch that `build(count)`
    /// builds, stepped in chunks on several threads ([`chunks`], one environment each if
    /// their steps are `costly`), seeded with `seed`.
    pub(crate) fn from_batch(
        count: NonZeroUsize,
        dim: usize,
        env_bytes: usize,
        costly: bool,
        seed: u64,
        options: VectorOptions,
        build: impl FnOnce(usize) -> Result<Batch<S, T>, VectorError>,
    ) -> Result<Self, VectorError> {
        let len = count.get();
        let threads = check_threads(len, &options)?;
        check_size(len, dim, env_bytes)?;
        let batch = build(len)?;
        let keep_final = options.autoreset() == Autoreset::SameStep;
        let mut vector = VectorEnvironment {
            threads: Threads::new(batch, chunks(len, threads, costly), threads)?,
            outputs: Outputs::new(len, dim, keep_final),
            options,
            mode: Mode::Training,
            started: false,
            interrupted: false,
            len,
        };
        vector.seed(seed)?;
        Ok(vector)
    }
}

impl<S: SplitStates<T>, T: FlatScalar> VectorEnvironment<S, T> {
    /// Runs `command` on every share, with `actions` for a step and `selected` for a reset of
    /// selected environments (empty otherwise). Reports the failure of the lowest index, if
    /// any.
    fn run(
        &mut self,
        command: Command,
        actions: &[S::Action],
        selected: &[bool],
    ) -> Result<(), VectorError> {
        // Cleared when the call returns: a panic unwinding through it leaves the flag, and
        // the vector refuses to step until a reset (`check_step`).
        self.interrupted = true;
        let failure = self
            .threads
            .run(command, actions, &[], selected, &mut self.outputs);
        self.interrupted = false;
        match failure {
            Some((index, source)) => Err(VectorError::Environment { index, source }),
            None => Ok(()),
        }
    }

    /// Runs a [`Command::Seed`] with one seed per environment, after a
    /// [`Command::CheckSeeds`] where some seed is 2^64 or more (the seeds an environment may
    /// refuse), so that a refused seed reseeds no environment.
    fn run_seed(&mut self, seeds: &[Option<Seed>]) -> Result<(), VectorError> {
        let large = seeds
            .iter()
            .any(|seed| seed.as_ref().is_some_and(|seed| seed.to_u64().is_none()));
        let commands: &[Command] = if large {
            &[Command::CheckSeeds, Command::Seed]
        } else {
            &[Command::Seed]
        };
        for command in commands {
            if let Some((index, source)) =
                self.threads
                    .run(*command, &[], seeds, &[], &mut self.outputs)
            {
                return Err(VectorError::Environment { index, source });
            }
        }
        Ok(())
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
                which: Resets::All,
            },
            &[],
            &[],
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
        if self.interrupted {
            return Err(VectorError::Interrupted);
        }
        self.run(
            Command::Reset {
                mode: self.mode,
                which: Resets::Ended,
            },
            &[],
            &[],
        )
    }

    /// Resets the environments whose entry of `selected` is `true`, in the mode of the last
    /// [`reset`](Self::reset) (Gymnasium's `reset(options={"reset_mask": selected})`); the
    /// others keep their state, results and pending autoreset. A selected environment's
    /// first observation is in [`observations`](Self::observations), its reward 0 and flags
    /// false, and a pending [`Autoreset::NextStep`] reset of it is dropped (it has just been
    /// reset). Its generator goes on: reseed first ([`seed_each`](Self::seed_each)) for
    /// Gymnasium's `reset(seed=..., options={"reset_mask": ...})`.
    ///
    /// Errors, with nothing reset, unless `selected` has one entry per environment and at
    /// least one `true` (Gymnasium refuses an empty mask too), or before the first `reset`.
    pub fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        if !self.started {
            return Err(VectorError::NotStarted);
        }
        if self.interrupted {
            return Err(VectorError::Interrupted);
        }
        if selected.len() != self.len {
            return Err(VectorError::invalid_parameter(
                "reset_mask",
                format!(
                    "has {} entries; the vector has {} environments",
                    selected.len(),
                    self.len
                ),
            ));
        }
        if !selected.contains(&true) {
            return Err(VectorError::invalid_parameter(
                "reset_mask",
                "selects no environment (at least one entry must be true)",
            ));
        }
        let command = Command::Reset {
            mode: self.mode,
            which: Resets::Selected,
        };
        self.run(command, &[], selected)
    }

    /// Steps every environment with the action of the same index.
    ///
    /// Errors, before anything steps, if there is not one action per environment, an action
    /// is not in the action space, or (with [`Autoreset::Disabled`]) an environment's episode
    /// ended; and, after stepping, if an environment failed (see
    /// [`VectorError::Environment`]).
    pub fn step(&mut self, actions: &[S::Action]) -> Result<(), VectorError> {
        self.check_step(actions)?;
        self.run(self.step_command(), actions, &[])
    }

    /// The command of a step.
    fn step_command(&self) -> Command {
        Command::Step {
            mode: self.mode,
            autoreset: self.options.autoreset(),
        }
    }

    /// The checks of [`step`](Self::step) before anything steps.
    fn check_step(&self, actions: &[S::Action]) -> Result<(), VectorError> {
        if !self.started {
            return Err(VectorError::NotStarted);
        }
        if self.interrupted {
            return Err(VectorError::Interrupted);
        }
        if actions.len() != self.len {
            return Err(VectorError::ActionCount {
                expected: self.len,
                found: actions.len(),
            });
        }
        let main = self.threads.main();
        let space = main.action_space();
        // One batch test (for discrete actions, in vector instructions), on the calling thread
        // before any thread steps; an action outside the space is refused unless the
        // environments accept it (a continuous action beyond its bounds, which Gymnasium's
        // Pendulum clips: `Domain::accepts_action`). Every environment of a vector comes from
        // one registration or factory and accepts the same actions.
        let rejected = space.first_outside(actions).and_then(|first| {
            actions[first..]
                .iter()
                .position(|action| !main.accepts_action(action))
                .map(|offset| first + offset)
        });
        if let Some(index) = rejected {
            return Err(VectorError::InvalidAction {
                index,
                action: format!("{:?}", actions[index]),
                space: space.to_string(),
            });
        }
        if self.options.autoreset() == Autoreset::Disabled {
            let mut ended = self.outputs.terminated.iter().zip(&self.outputs.truncated);
            if let Some(index) = ended.position(|(t, u)| *t || *u) {
                return Err(VectorError::EpisodeEnded { index });
            }
        }
        Ok(())
    }

    /// Reseeds environment `i` with `seed + i`, for every `i`, as [`Environment::seed`] does
    /// (Gymnasium's `reset(seed=seed)` on a vector): later draws (running episodes included)
    /// come from the new generators, and nothing is reset. `seed + i` may pass 2^64 (see
    /// "Seeds" above: an error, with nothing reseeded, where the environments cannot take
    /// such a seed).
    pub fn seed(&mut self, seed: u64) -> Result<(), VectorError> {
        self.seed_from(&Seed::from(seed))
    }

    /// [`seed`](Self::seed) with a [`Seed`] of any size (Gymnasium's `reset(seed=10**30)`):
    /// environment `i` gets `seed + i`.
    pub fn seed_from(&mut self, seed: &Seed) -> Result<(), VectorError> {
        let seeds = consecutive_seeds(seed, self.len);
        self.run_seed(&seeds)
    }

    /// Reseeds environment `i` with `seeds[i]` where it is `Some`, leaving the others' generators
    /// as they are (Gymnasium's `reset(seed=[s0, None, s2, ...])`; a `u64` seed is
    /// `Seed::from(s)`). An error, with nothing reseeded, unless there is one entry per
    /// environment, or where an environment cannot take its seed (see "Seeds" above).
    pub fn seed_each(&mut self, seeds: &[Option<Seed>]) -> Result<(), VectorError> {
        if seeds.len() != self.len {
            return Err(VectorError::invalid_parameter(
                "seeds",
                format!(
                    "has {} entries; the vector has {} environments",
                    seeds.len(),
                    self.len
                ),
            ));
        }
        self.run_seed(seeds)
    }

    /// The number of environments.
    pub fn len(&self) -> usize {
        self.len
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
    pub fn action_space(&self) -> &S::ActionSpace {
        self.threads.main().action_space()
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
    pub fn observations(&self) -> &Array2<T> {
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

    /// The info of each environment's last step (empty for an environment reset by it or
    /// since; always empty for a structure-of-arrays kernel, which reports none).
    pub fn infos(&self) -> &[Info] {
        &self.outputs.infos
    }

    /// With [`Autoreset::SameStep`], the final observations of the episodes that ended on the
    /// last step (rows marked in [`final_mask`](Self::final_mask); other rows are stale).
    /// Without it, an array of no rows.
    pub fn final_observations(&self) -> &Array2<T> {
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

    /// Whether the environments may report infos ([`infos`](Self::infos) and
    /// [`final_infos`](Self::final_infos) not all empty): false for a structure-of-arrays
    /// kernel, whose infos are always empty (a consumer skips looking at them), true otherwise.
    pub fn reports_infos(&self) -> bool {
        self.threads.main().reports_infos()
    }

    /// Environment `i`'s current state, for a consumer that knows its type (the registered
    /// domain of a vector built by id draws it:
    /// [`RegisteredDomain::draw_state`](rl_core::registry::RegisteredDomain::draw_state));
    /// `None` for an index out of range, or copies of an environment (which do not hand their
    /// states out). Before the first reset it is a placeholder state.
    pub fn state_any(&self, i: usize) -> Option<&dyn std::any::Any> {
        self.threads.main().state_any(i)
    }
}

/// The seeds `seed, seed + 1, ..., seed + len - 1` of a vector's environments.
pub(crate) fn consecutive_seeds(seed: &Seed, len: usize) -> Vec<Option<Seed>> {
    (0..len as u64).map(|i| Some(seed.plus(i))).collect()
}

/// Checks that `masks` has `len` rows and one column per action of a finite action space of
/// `cardinality` actions.
fn check_mask_shape(
    masks: &Array2<bool>,
    len: usize,
    cardinality: Option<usize>,
) -> Result<(), VectorError> {
    match cardinality {
        Some(actions) if masks.dim() == (len, actions) => Ok(()),
        Some(actions) => Err(VectorError::invalid_parameter(
            "masks",
            format!(
                "has shape {:?}; the vector needs {len} rows of {actions} actions",
                masks.shape()
            ),
        )),
        None => Err(VectorError::invalid_parameter(
            "masks",
            "the action space has too many actions to mask",
        )),
    }
}

impl<D, S, T> VectorEnvironment<DomainStates<D, S>, T>
where
    D: Domain + Send + Sync,
    D::State: Send + 'static,
    D::Action: Send + Sync,
    D::ObservationSpace: FlattenSpace,
    S: SplitStepping<D>,
    T: rl_spaces::FlatScalar,
{
    /// The domain.
    pub fn domain(&self) -> &D {
        self.threads.main().states().domain()
    }
}

impl<S: SplitStates<T>, T: FlatScalar> VectorEnvironment<S, T>
where
    S::ActionSpace: FiniteSpace,
{
    /// Writes the action mask of every environment into row `i` of `masks` (one row per
    /// environment, one column per action of the finite action space, in the space's order):
    /// for copies, each environment's
    /// [`Environment::action_mask`](rl_core::Environment::action_mask) (RLPy's
    /// `possibleActions`); for a kernel, whether
    /// [`Domain::is_applicable`](rl_core::Domain::is_applicable) holds in each episode's
    /// current state, which is what the copies would give. Allocates nothing for actions
    /// that are plain values.
    ///
    /// Errors if `masks` does not have that shape, naming both shapes.
    pub fn action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError> {
        self.write_masks(masks, false)
    }

    /// With [`Autoreset::SameStep`], writes into row `i` of `masks` the action mask of the
    /// state environment `i`'s episode ended in on the last step, for the rows marked in
    /// [`final_mask`](Self::final_mask) (the others are left alone): what
    /// [`action_masks`](Self::action_masks) gave for that state, which the autoreset has
    /// since replaced. Gymnasium's Taxi reports it in `final_info["action_mask"]`.
    ///
    /// A vector of a kernel or built by id keeps these masks once
    /// [`action_masks`](Self::action_masks) has been called (the masks of ended episodes are
    /// then computed at each autoreset, before the reset), for action spaces of at most 64
    /// actions; otherwise, and for copies of environments, it fails with
    /// [`VectorError::Environment`] wrapping `CoreError::Unsupported`. Errors as
    /// `action_masks` does on a shape mismatch.
    pub fn final_action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError> {
        self.write_masks(masks, true)
    }

    /// Writes each environment's row of `masks` with its batch's action mask, or, with
    /// `finals`, the rows marked in [`final_mask`](Self::final_mask) with the final masks.
    fn write_masks(&self, masks: &mut Array2<bool>, finals: bool) -> Result<(), VectorError> {
        check_mask_shape(masks, self.len, self.action_space().cardinality())?;
        let batch = self.threads.main();
        // The shape is checked: one row per environment.
        for (i, mut row) in masks.rows_mut().into_iter().enumerate() {
            if finals && !self.outputs.final_mask[i] {
                continue;
            }
            let row = row.as_slice_mut().ok_or_else(|| {
                VectorError::invalid_parameter("masks", "rows are not contiguous")
            })?;
            let written = if finals {
                batch.final_action_mask(i, row)
            } else {
                batch.action_mask(i, row)
            };
            written.map_err(|source| VectorError::Environment { index: i, source })?;
        }
        Ok(())
    }
}

impl<S: SplitStates<T>, T: FlatScalar> fmt::Debug for VectorEnvironment<S, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VectorEnvironment")
            .field("len", &self.len)
            .field("options", &self.options)
            .field("mode", &self.mode)
            .field("started", &self.started)
            .field("chunks", &self.threads.chunk_count())
            .finish_non_exhaustive()
    }
}
