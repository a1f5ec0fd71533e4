//! Vector environments of rl-domains' batch kernels (CartPole, MountainCar and the
//! fast-precision CartPole, and every kernel id built by id with `make_vector`, and with
//! integer actions with `make_vector::<i64, f32>`), and vectors by id of domains without a
//! kernel, stepped state by state with their infos (MountainCarContinuous, Acrobot, Pendulum,
//! GridWorld, FrozenLake and Taxi, whose `prob` info is inline, and MiniGrid's DoorKey,
//! FourRooms and Dynamic-Obstacles, whose states own their grids: stepped, observed and
//! restarted in place),
//! allocate nothing per step after warm-up, on one and two threads, with next-step and
//! same-step autoreset; nor does the Python package's path for MiniGrid's pictures: the stack
//! over a vector by id with `u8` rows (`image="rgb_partial"`, Empty-5x5 crossing episode ends
//! and DoorKey-8x8, the benchmark's id), each step mirrored into buffers made beforehand. The
//! counter is global (it must see the worker thread), so this test runs without the test
//! harness, alone in its process. (It lives in rl-benches, which depends on both rl-domains and rl-wrappers,
//! so that rl-domains needs no rl-wrappers, not even for its tests.)

use counting_allocator::process_allocations as allocations;
use rl_spaces::AnyElement;

use std::num::NonZeroUsize;

use rl_core::{BatchStep, Mode};
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::cartpole_fast::FastCartPole;
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_spaces::RowLayout;
use rl_wrappers::vector::{
    Autoreset, KernelVector, Mirror, VectorEnv, VectorOptions, make_vector, stack,
};

/// Resets `vector`, steps it for a warm-up, then 300 steps with the rows of actions in turn;
/// returns the allocations of the 300 and the number of episode ends seen.
fn measure<V: VectorEnv>(vector: &mut V, rows: &[Vec<V::Action>]) -> (usize, usize) {
    vector.reset(Mode::Training).expect("reset");
    for i in 0..50 {
        vector.step(&rows[i % rows.len()]).expect("step");
    }
    let before = allocations();
    let mut ended = 0;
    for i in 0..300 {
        vector.step(&rows[i % rows.len()]).expect("step");
        ended += vector
            .terminated()
            .iter()
            .zip(vector.truncated())
            .filter(|(t, u)| **t || **u)
            .count();
    }
    (allocations() - before, ended)
}

/// Steps a kernel vector environment of `domain` for a warm-up, then 300 steps with actions
/// from `action`; returns the allocations of the 300 and the number of episode ends seen.
fn allocations_per_run<D>(
    domain: D,
    envs: usize,
    options: VectorOptions,
    action: impl Fn(usize) -> D::Action,
) -> (usize, usize)
where
    D: BatchStep + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ObservationSpace: rl_spaces::FlattenSpace,
{
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let mut vector = KernelVector::<_, f32>::from_kernel(domain, count, 3, options).expect("valid");
    let rows: Vec<Vec<D::Action>> = (0..7)
        .map(|k| (0..envs).map(|i| action(i * 7 + k)).collect())
        .collect();
    measure(&mut vector, &rows)
}

/// As [`allocations_per_run`], for the vector that `make_vector` builds from `id` (its
/// kernel, or its domain's step state by state: actions are `AnyElement`s, converted into the
/// domain's actions in a buffer kept between steps), with actions drawn from the id's action
/// space.
fn allocations_by_id(id: &str, envs: usize, options: VectorOptions) -> (usize, usize) {
    use rand::SeedableRng;
    use rl_spaces::TrySampleSpace;
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let mut vector = make_vector::<AnyElement, f32>(id, None, count, 3, options).expect("valid");
    let mut rng = rl_core::NumpyGenerator::seed_from_u64(5);
    let rows: Vec<Vec<rl_spaces::AnyElement>> = (0..7)
        .map(|_| {
            (0..envs)
                .map(|_| {
                    vector
                        .action_space()
                        .try_sample(&mut rng)
                        .expect("not empty")
                })
                .collect()
        })
        .collect();
    measure(&mut vector, &rows)
}

/// As [`allocations_by_id`], for the vector with integer actions that
/// `make_vector::<i64, f32>` builds from `id` (a `Discrete` action space), with the actions
/// `i % n` of a space of `n` actions.
fn allocations_by_id_with_integers(
    id: &str,
    envs: usize,
    options: VectorOptions,
) -> (usize, usize) {
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let mut vector = make_vector::<i64, f32>(id, None, count, 3, options).expect("valid");
    let n = vector.action_space().n() as i64;
    let rows: Vec<Vec<i64>> = (0..7)
        .map(|row| (0..envs).map(|i| (i as i64 + row) % n).collect())
        .collect();
    measure(&mut vector, &rows)
}

/// As [`allocations_by_id_with_integers`], for the Python package's path for MiniGrid's
/// pictures: the stack over the vector with `u8` rows in the batched layout that
/// `make_vector::<i64, u8>` builds from `id` with `params`, each step mirrored into buffers
/// made before the steps (the NumPy buffer's part).
fn mirrored_u8_allocations(
    id: &str,
    params: &serde_json::Value,
    envs: usize,
    options: VectorOptions,
) -> (usize, usize) {
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let options = options.with_layout(RowLayout::Batched);
    let mut vector =
        stack(make_vector::<i64, u8>(id, Some(params), count, 3, options).expect("a u8 vector"))
            .expect("stacked");
    let n = vector.action_space().n() as i64;
    let rows: Vec<Vec<i64>> = (0..7)
        .map(|row| (0..envs).map(|i| (i as i64 + row) % n).collect())
        .collect();
    let mut observations = vec![0u8; envs * vector.flat_dim()];
    let mut rewards = vec![0.0; envs];
    let (mut terminated, mut truncated) = (vec![0u8; envs], vec![0u8; envs]);
    vector.reset(Mode::Training).expect("reset");
    let (mut before, mut ended) = (0, 0);
    for i in 0..350 {
        if i == 50 {
            before = allocations();
        }
        let mirror = Mirror {
            observations: &mut observations,
            rewards: &mut rewards,
            terminated: &mut terminated,
            truncated: &mut truncated,
        };
        vector
            .step_mirrored(&rows[i % rows.len()], mirror)
            .expect("step");
        if i >= 50 {
            ended += vector.ended_indices().len();
        }
    }
    (allocations() - before, ended)
}

/// The number of environments of the larger vectors.
const MANY: usize = 128;

fn main() {
    rl_domains::register_builtins();
    rl_object_grid::register();
    let mut failures = Vec::new();
    let mut check = |name: &str, (allocated, ended): (usize, usize)| {
        println!("{name}: {allocated} allocations in 300 steps, {ended} episode ends");
        if allocated != 0 {
            failures.push(format!("{name} allocated {allocated} times"));
        }
    };
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        // 128 environments on two threads are cut into the same kind of chunks as 1024 (several
        // environments each, more chunks than threads) and cross hundreds of episode ends in
        // the 300 steps; 1024 took this debug-built test 2.5 minutes of CI's time. One thread
        // steps its one chunk on the calling thread whatever the count, so one environment
        // covers that path (128 on one thread took another 9 s of CI's time).
        for (envs, threads) in [(1, 1), (MANY, 2)] {
            let threads_count = NonZeroUsize::new(threads).expect("non-zero");
            let options = VectorOptions::new()
                .with_autoreset(autoreset)
                .with_threads(threads_count);
            let label =
                |domain: &str| format!("{domain}, {envs} envs, {threads} threads, {autoreset:?}");
            let cartpole = CartPole::new(CartPoleParams::default()).expect("valid");
            check(
                &label("CartPole"),
                allocations_per_run(cartpole, envs, options, |i| (i % 2) as i64),
            );
            let fast = FastCartPole::new(CartPoleParams::default()).expect("valid");
            check(
                &label("FastCartPole"),
                allocations_per_run(fast, envs, options, |i| (i % 2) as i64),
            );
            let car = MountainCar::new(MountainCarParams::default()).expect("valid");
            check(
                &label("MountainCar"),
                allocations_per_run(car, envs, options, |i| (i % 3) as i64),
            );
            // The kernel ids (CartPole, MountainCar), then ids without a kernel (their
            // domain's step serves, with FrozenLake's and Taxi's `prob` info).
            for id in [
                "CartPole-v1",
                "MountainCar-v0",
                "MountainCarContinuous-v0",
                "Acrobot-v1",
                "Pendulum-v1",
                "GridWorld-4x5",
                "FrozenLake-v1",
                "Taxi-v4",
                "MiniGrid-DoorKey-8x8-v0",
                "MiniGrid-FourRooms-v0",
                "MiniGrid-Dynamic-Obstacles-8x8-v0",
            ] {
                check(
                    &label(&format!("{id} by id")),
                    allocations_by_id(id, envs, options),
                );
            }
            for id in [
                "CartPole-v1",
                "MountainCar-v0",
                "Acrobot-v1",
                "GridWorld-4x5",
                "FrozenLake-v1",
                "Taxi-v4",
                "MiniGrid-DoorKey-8x8-v0",
                "MiniGrid-FourRooms-v0",
                "MiniGrid-Dynamic-Obstacles-8x8-v0",
            ] {
                check(
                    &label(&format!("{id} by id, integer actions")),
                    allocations_by_id_with_integers(id, envs, options),
                );
            }
            // Pictures in u8 rows, mirrored; fewer environments (the test profile draws
            // slowly), Empty-5x5's episodes truncated at 100 steps.
            let pictures = serde_json::json!({"image": "rgb_partial"});
            let envs = envs.min(16);
            let label =
                |domain: &str| format!("{domain}, {envs} envs, {threads} threads, {autoreset:?}");
            let (allocated, ended) =
                mirrored_u8_allocations("MiniGrid-Empty-5x5-v0", &pictures, envs, options);
            assert!(ended >= envs, "the loop crosses episode ends ({ended})");
            check(
                &label("MiniGrid-Empty-5x5-v0 rgb_partial, u8 rows mirrored"),
                (allocated, ended),
            );
            check(
                &label("MiniGrid-DoorKey-8x8-v0 rgb_partial, u8 rows mirrored"),
                mirrored_u8_allocations("MiniGrid-DoorKey-8x8-v0", &pictures, envs, options),
            );
        }
    }
    if !failures.is_empty() {
        eprintln!("stepping a vector environment allocated: {failures:?}");
        std::process::exit(1);
    }
    println!(
        "test result: ok. vector stepping of every batch kernel, and by id of domains without \
         one, allocates nothing per step"
    );
}
