//! The loops that the benchmarks and the `throughput` binary time: random actions drawn in
//! advance, episodes of any [`Environment`] through its public API, and the environments
//! they run, built the same way everywhere.

use std::hint::black_box;
use std::num::NonZeroUsize;

use rand::{RngExt, SeedableRng};
use rl_core::NumpyGenerator;
use rl_core::{CoreError, Domain, Environment, Mode, Simulator, SplitStates};
use rl_domains::acrobot::{Acrobot, AcrobotParams};
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_domains::pendulum::{MAX_TORQUE, Pendulum, PendulumParams};
use rl_spaces::{AnyElement, DynamicSpace, FlatScalar};
use rl_wrappers::VectorError;
use rl_wrappers::vector::{
    KernelVector, RegisteredVector, SteppedVector, VectorEnv, VectorEnvironment,
    VectorEpisodeStatistics, VectorOptions, make_vector,
};

#[cfg(doc)]
use crate::raw::{
    RawAcrobotBatch, RawCartPole, RawCartPoleBatch, RawMountainCar, RawMountainCarBatch,
    RawPendulumBatch,
};
use crate::raw::{RawBatch, RawEnvironment};

/// The seed of every environment the workloads build.
pub const ENVIRONMENT_SEED: u64 = 42;

/// The seed of the pre-drawn actions.
pub const ACTION_SEED: u64 = 7;

/// `len` actions of `Discrete(n)` drawn uniformly in advance, so that drawing them is not
/// part of what is timed (the Python side draws its actions in advance too).
pub fn discrete_actions(n: i64, len: usize) -> Vec<i64> {
    let mut rng = NumpyGenerator::seed_from_u64(ACTION_SEED);
    (0..len).map(|_| rng.random_range(0..n)).collect()
}

/// `len` actions of MountainCarContinuous, uniform in `[-1, 1]`, drawn in advance.
pub fn continuous_actions(len: usize) -> Vec<[f32; 1]> {
    let mut rng = NumpyGenerator::seed_from_u64(ACTION_SEED);
    (0..len)
        .map(|_| [rng.random_range(-1.0f32..=1.0)])
        .collect()
}

/// `len` torques of Pendulum, uniform in `[-2, 2]` (its whole action space), drawn in
/// advance.
pub fn torque_actions(len: usize) -> Vec<[f32; 1]> {
    let mut rng = NumpyGenerator::seed_from_u64(ACTION_SEED);
    (0..len)
        .map(|_| [rng.random_range(-MAX_TORQUE..=MAX_TORQUE)])
        .collect()
}

/// Gymnasium's `CartPole-v1`.
pub fn cartpole() -> Result<CartPole, rl_domains::Error> {
    CartPole::new(CartPoleParams::default())
}

/// Gymnasium's `MountainCar-v0`.
pub fn mountain_car() -> Result<MountainCar, rl_domains::Error> {
    MountainCar::new(MountainCarParams::default())
}

/// Gymnasium's `Acrobot-v1` (the `book` dynamics, no torque noise).
pub fn acrobot() -> Result<Acrobot, rl_domains::Error> {
    Acrobot::new(AcrobotParams::default())
}

/// Gymnasium's `Pendulum-v1` (`g` = 10).
pub fn pendulum() -> Result<Pendulum, rl_domains::Error> {
    Pendulum::new(PendulumParams::default())
}

/// A simulator of `CartPole-v1` seeded with [`ENVIRONMENT_SEED`], reset.
pub fn cartpole_simulator() -> Result<Simulator<CartPole>, rl_domains::Error> {
    Ok(reset(Simulator::new(cartpole()?, ENVIRONMENT_SEED)))
}

/// A simulator of `MountainCar-v0` seeded with [`ENVIRONMENT_SEED`], reset.
pub fn mountain_car_simulator() -> Result<Simulator<MountainCar>, rl_domains::Error> {
    Ok(reset(Simulator::new(mountain_car()?, ENVIRONMENT_SEED)))
}

/// A simulator of `Acrobot-v1` seeded with [`ENVIRONMENT_SEED`], reset.
pub fn acrobot_simulator() -> Result<Simulator<Acrobot>, rl_domains::Error> {
    Ok(reset(Simulator::new(acrobot()?, ENVIRONMENT_SEED)))
}

/// A simulator of `Pendulum-v1` seeded with [`ENVIRONMENT_SEED`], reset.
pub fn pendulum_simulator() -> Result<Simulator<Pendulum>, rl_domains::Error> {
    Ok(reset(Simulator::new(pendulum()?, ENVIRONMENT_SEED)))
}

/// `env` after its first reset.
pub fn reset<E: Environment>(mut env: E) -> E {
    // The built-in domains' resets cannot fail; a failure would show as a failed step later.
    let _ = env.reset(Mode::Training);
    env
}

/// Steps `env` once per action, resetting whenever an episode ends, as a training loop
/// does; returns the sum of the rewards. Observations are moved into [`black_box`], as a
/// training loop moves them into its buffers, so that producing them is part of the work.
#[inline]
pub fn run_episodes<E: Environment>(env: &mut E, actions: &[E::Action]) -> Result<f64, CoreError> {
    let mut total = 0.0;
    for action in actions {
        let outcome = env.step(action)?;
        total += outcome.reward();
        let done = outcome.is_done();
        black_box(outcome.observation);
        if done {
            black_box(env.reset(Mode::Training)?);
        }
    }
    Ok(total)
}

/// [`run_episodes`] for a hand-written loop ([`RawCartPole`], [`RawMountainCar`]).
#[inline]
pub fn run_raw<const N: usize>(env: &mut impl RawEnvironment<N>, actions: &[i64]) -> f64 {
    let mut total = 0.0;
    for action in actions {
        let step = env.step(*action);
        total += step.reward;
        black_box(step.observation);
        if step.terminated || step.truncated {
            black_box(env.reset());
        }
    }
    total
}

/// Actions for a batch, drawn in advance: `rows` rows of one action per environment, handed
/// out in turn.
#[derive(Debug, Clone)]
pub struct ActionRows<A> {
    actions: Vec<A>,
    width: usize,
    next: usize,
}

impl<A> ActionRows<A> {
    /// Rows of `width` actions made from `actions` (its length is a multiple of `width`).
    pub fn new(actions: Vec<A>, width: usize) -> Self {
        ActionRows {
            actions,
            width: width.max(1),
            next: 0,
        }
    }

    /// The next row of actions.
    #[inline]
    pub fn next_row(&mut self) -> &[A] {
        let start = self.next;
        self.next += self.width;
        if self.next + self.width > self.actions.len() {
            self.next = 0;
        }
        self.actions.get(start..start + self.width).unwrap_or(&[])
    }
}

/// Discrete actions for `width` environments: 64 rows drawn in advance.
pub fn discrete_rows(n: i64, width: usize) -> ActionRows<i64> {
    ActionRows::new(discrete_actions(n, width * 64), width)
}

/// Pendulum torques for `width` environments: 64 rows drawn in advance.
pub fn torque_rows(width: usize) -> ActionRows<[f32; 1]> {
    ActionRows::new(torque_actions(width * 64), width)
}

/// [`torque_rows`] as the actions of a vector built by id ([`AnyElement`]s).
pub fn torque_elements(width: usize) -> Result<ActionRows<AnyElement>, rl_domains::Error> {
    let space = *pendulum()?.action_space();
    let actions = torque_actions(width * 64);
    let elements = actions.iter().map(|torque| space.element_to_any(torque));
    Ok(ActionRows::new(elements.collect(), width))
}

/// A vector environment of `domain`'s kernel with float32 observations, `envs` environments
/// on `threads` threads, seeded with [`ENVIRONMENT_SEED`] and reset.
pub fn kernel_vector<D>(
    domain: D,
    envs: usize,
    threads: usize,
) -> Result<KernelVector<D, f32>, VectorError>
where
    D: rl_core::BatchStep + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ObservationSpace: rl_spaces::FlattenSpace,
{
    let count = NonZeroUsize::new(envs).unwrap_or(NonZeroUsize::MIN);
    let threads = NonZeroUsize::new(threads).unwrap_or(NonZeroUsize::MIN);
    let options = VectorOptions::new().with_threads(threads);
    let mut vector = VectorEnvironment::from_kernel(domain, count, ENVIRONMENT_SEED, options)?;
    vector.reset(Mode::Training)?;
    Ok(vector)
}

/// The typed vector of a domain without a kernel ([`SteppedVector`]: each state stepped by the
/// domain's step, its actions read as they are) with float32 observations, `envs`
/// environments on `threads` threads, seeded with [`ENVIRONMENT_SEED`] and reset.
pub fn stepped_vector<D>(
    domain: D,
    envs: usize,
    threads: usize,
) -> Result<SteppedVector<D, f32>, VectorError>
where
    D: rl_core::Domain + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ObservationSpace: rl_spaces::FlattenSpace,
{
    let (count, options) = id_vector_options(envs, threads);
    let mut vector = SteppedVector::from_kernel(domain, count, ENVIRONMENT_SEED, options)?;
    vector.reset(Mode::Training)?;
    Ok(vector)
}

/// Steps `vector` `rounds` times with rows of `actions`; returns the sum of the rewards.
#[inline]
pub fn run_vector<S: SplitStates<T>, T: FlatScalar>(
    vector: &mut VectorEnvironment<S, T>,
    actions: &mut ActionRows<S::Action>,
    rounds: usize,
) -> Result<f64, VectorError> {
    let mut total = 0.0;
    for _ in 0..rounds {
        vector.step(actions.next_row())?;
        total += vector.rewards().first().copied().unwrap_or(0.0);
        black_box(vector.observations());
    }
    Ok(total)
}

/// The vector of `id` with integer actions ([`make_vector::<i64, f32>`](make_vector): the id's kernel, or its
/// domain's step state by state), `envs` environments on `threads` threads, seeded with
/// [`ENVIRONMENT_SEED`] and reset.
pub fn discrete_id_vector(
    id: &str,
    envs: usize,
    threads: usize,
) -> Result<RegisteredVector<i64>, VectorError> {
    let (count, options) = id_vector_options(envs, threads);
    let mut vector = make_vector::<i64, f32>(id, None, count, ENVIRONMENT_SEED, options)?;
    vector.reset(Mode::Training)?;
    Ok(vector)
}

/// The vector of `id` with [`AnyElement`] actions ([`make_vector`]), as
/// [`discrete_id_vector`] builds it.
pub fn id_vector(id: &str, envs: usize, threads: usize) -> Result<RegisteredVector, VectorError> {
    let (count, options) = id_vector_options(envs, threads);
    let mut vector = make_vector::<AnyElement, f32>(id, None, count, ENVIRONMENT_SEED, options)?;
    vector.reset(Mode::Training)?;
    Ok(vector)
}

/// The built-in ids registered, and the size and options of a vector by id of `envs`
/// environments on `threads` threads.
fn id_vector_options(envs: usize, threads: usize) -> (NonZeroUsize, VectorOptions) {
    rl_domains::register_builtins();
    let count = NonZeroUsize::new(envs).unwrap_or(NonZeroUsize::MIN);
    let threads = NonZeroUsize::new(threads).unwrap_or(NonZeroUsize::MIN);
    (count, VectorOptions::new().with_threads(threads))
}

/// The vector the Python package steps for `id` (a `Discrete` action space):
/// [`discrete_id_vector`] under [`VectorEpisodeStatistics`], reset.
pub fn by_id_vector(
    id: &str,
    envs: usize,
    threads: usize,
) -> Result<VectorEpisodeStatistics<RegisteredVector<i64>>, VectorError> {
    let (count, options) = id_vector_options(envs, threads);
    let vector = make_vector::<i64, f32>(id, None, count, ENVIRONMENT_SEED, options)?;
    let mut vector = VectorEpisodeStatistics::new(vector);
    vector.reset(Mode::Training)?;
    Ok(vector)
}

/// Steps a vector of integer actions `rounds` times with rows of `actions`, each copied first
/// into the one buffer `buffer`, as the Python package copies a NumPy array of actions into
/// its buffer; returns the sum of the rewards.
#[inline]
pub fn run_by_id_vector<V: VectorEnv<Action = i64>>(
    vector: &mut V,
    actions: &mut ActionRows<i64>,
    buffer: &mut Vec<i64>,
    rounds: usize,
) -> Result<f64, VectorError> {
    let mut total = 0.0;
    for _ in 0..rounds {
        let row = actions.next_row();
        buffer.clear();
        buffer.extend_from_slice(row);
        vector.step(buffer)?;
        total += vector.rewards().first().copied().unwrap_or(0.0);
        black_box(vector.observations());
    }
    Ok(total)
}

/// Steps a hand-written batch ([`RawCartPoleBatch`], [`RawMountainCarBatch`],
/// [`RawAcrobotBatch`], [`RawPendulumBatch`]) `rounds` times with rows of `actions`, as
/// [`run_vector`] steps a vector environment; returns the sum of the first rewards.
#[inline]
pub fn run_raw_batch<const N: usize, B: RawBatch<N>>(
    batch: &mut B,
    actions: &mut ActionRows<B::Action>,
    rounds: usize,
) -> f64 {
    let mut total = 0.0;
    for _ in 0..rounds {
        batch.step(actions.next_row());
        let outputs = batch.outputs();
        total += outputs.rewards.first().copied().unwrap_or(0.0);
        black_box(&outputs.observations);
    }
    total
}
