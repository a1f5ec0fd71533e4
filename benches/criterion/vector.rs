//! Criterion benchmarks of `VectorEnvironment::from_kernel` of CartPole-v1 and MountainCar-v0
//! at 1, 64 and 1024 environments on 1 and 2 threads, next to a hand-written
//! structure-of-arrays loop of the same exact dynamics (with the same autoreset) in the same
//! group, and the copies path (`from_environments` of simulators) for comparison; and the
//! 1024-environment vectors by id of Acrobot-v1 and Pendulum-v1 (their domains' steps state by
//! state, the batched path of every domain without a block kernel) on one thread next to
//! their hand-written loops.
//! Throughput is in environment steps per second.

use std::hint::black_box;
use std::num::NonZeroUsize;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rl_benches::raw::{
    RawAcrobotBatch, RawBatch, RawCartPoleBatch, RawMountainCarBatch, RawPendulumBatch,
};
use rl_benches::workloads::{
    ActionRows, ENVIRONMENT_SEED, cartpole, discrete_id_vector, discrete_rows, id_vector,
    kernel_vector, mountain_car, run_raw_batch, run_vector, torque_elements, torque_rows,
};
use rl_core::{Mode, Simulator, SplitStates};
use rl_domains::cartpole::CartPoleParams;
use rl_domains::cartpole_fast::FastCartPole;
use rl_spaces::{Discrete, FlatScalar};
use rl_wrappers::vector::{
    BatchStep, EnvironmentVector, VectorEnv, VectorEnvironment, VectorEpisodeStatistics,
    VectorOptions,
};

/// The numbers of environments measured.
const ENVS: [usize; 3] = [1, 64, 1024];

/// Batch steps per timed iteration for `envs` environments (about 4096 environment steps).
fn rounds(envs: usize) -> usize {
    (4096 / envs).max(1)
}

/// Benchmarks one domain's kernel vector environments, copies and raw loop.
fn bench_domain<D>(
    c: &mut Criterion,
    group_name: &str,
    domain: &D,
    n: i64,
    mut raw: impl FnMut(usize) -> Box<dyn FnMut(usize)>,
) where
    D: BatchStep<Action = i64, ActionSpace = Discrete> + Clone + Send + Sync + 'static,
    D::ObservationSpace: rl_spaces::FlattenSpace,
    D::State: Send + 'static,
{
    let mut group = c.benchmark_group(group_name);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for envs in ENVS {
        let rounds = rounds(envs);
        group.throughput(Throughput::Elements((envs * rounds) as u64));
        for threads in [1, 2].into_iter().filter(|threads| *threads <= envs) {
            let Ok(mut vector) = kernel_vector(domain.clone(), envs, threads) else {
                continue;
            };
            let mut rows = discrete_rows(n, envs);
            group.bench_with_input(
                BenchmarkId::new(format!("kernel_{threads}_threads"), envs),
                &rounds,
                |b, rounds| b.iter(|| run_vector(&mut vector, &mut rows, *rounds)),
            );
        }
        if envs > 1 {
            let count = NonZeroUsize::new(envs).unwrap_or(NonZeroUsize::MIN);
            let copies = EnvironmentVector::<_, f32>::from_environments(
                count,
                ENVIRONMENT_SEED,
                VectorOptions::new(),
                |_| Simulator::new(domain.clone(), 0),
            );
            if let Ok(mut copies) = copies {
                if copies.reset(Mode::Training).is_ok() {
                    let mut rows = discrete_rows(n, envs);
                    group.bench_with_input(
                        BenchmarkId::new("copies_1_thread", envs),
                        &rounds,
                        |b, rounds| b.iter(|| run_vector(&mut copies, &mut rows, *rounds)),
                    );
                }
            }
        }
        let mut step = raw(envs);
        group.bench_with_input(
            BenchmarkId::new("raw_soa_1_thread", envs),
            &rounds,
            |b, rounds| b.iter(|| step(black_box(*rounds))),
        );
    }
    group.finish();
}

fn vector(c: &mut Criterion) {
    if let Ok(domain) = cartpole() {
        bench_domain(c, "vector_cartpole", &domain, 2, |envs| {
            let mut batch = RawCartPoleBatch::new(envs, ENVIRONMENT_SEED);
            let mut rows = discrete_rows(2, envs);
            Box::new(move |rounds| {
                black_box(run_raw_batch(&mut batch, &mut rows, rounds));
            })
        });
    }
    fast(c);
    if let Ok(domain) = mountain_car() {
        bench_domain(c, "vector_mountain_car", &domain, 3, |envs| {
            let mut batch = RawMountainCarBatch::new(envs, ENVIRONMENT_SEED);
            let mut rows = discrete_rows(3, envs);
            Box::new(move |rounds| {
                black_box(run_raw_batch(&mut batch, &mut rows, rounds));
            })
        });
    }
}

/// Acrobot-v1's and Pendulum-v1's 1024-environment vectors by id on one thread, each next to
/// its hand-written structure-of-arrays loop (issue 26's bound: the loop at most 1.1 times
/// the vector's rate).
fn costly_dynamics(c: &mut Criterion) {
    let envs = 1024;
    if let Ok(vector) = discrete_id_vector("Acrobot-v1", envs, 1) {
        let raw = RawAcrobotBatch::new(envs, ENVIRONMENT_SEED);
        let rows = discrete_rows(3, envs);
        costly_group(c, "vector_acrobot", (vector, rows.clone()), (raw, rows));
    }
    if let (Ok(vector), Ok(rows)) = (id_vector("Pendulum-v1", envs, 1), torque_elements(envs)) {
        let raw = RawPendulumBatch::new(envs, ENVIRONMENT_SEED);
        costly_group(
            c,
            "vector_pendulum",
            (vector, rows),
            (raw, torque_rows(envs)),
        );
    }
}

/// One group of [`costly_dynamics`]: a vector by id and a raw loop, each with its actions.
fn costly_group<S: SplitStates<T>, T: FlatScalar, R: RawBatch<N>, const N: usize>(
    c: &mut Criterion,
    name: &str,
    (mut vector, mut rows): (VectorEnvironment<S, T>, ActionRows<S::Action>),
    (mut batch, mut raw_rows): (R, ActionRows<R::Action>),
) {
    let envs = vector.len();
    let rounds = rounds(envs);
    let mut group = c.benchmark_group(name);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements((envs * rounds) as u64));
    group.bench_function(BenchmarkId::new("by_id_1_thread", envs), |b| {
        b.iter(|| run_vector(&mut vector, &mut rows, rounds))
    });
    group.bench_function(BenchmarkId::new("raw_soa_1_thread", envs), |b| {
        b.iter(|| run_raw_batch(&mut batch, &mut raw_rows, rounds))
    });
    group.finish();
}

/// The opt-in fast precision CartPole (float32, not bit-exact) next to the exact kernel.
fn fast(c: &mut Criterion) {
    let (Ok(exact), Ok(fast)) = (cartpole(), FastCartPole::new(CartPoleParams::default())) else {
        return;
    };
    let mut group = c.benchmark_group("vector_cartpole_precision");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    let envs = 1024;
    let rounds = rounds(envs);
    group.throughput(Throughput::Elements((envs * rounds) as u64));
    if let Ok(mut vector) = kernel_vector(exact, envs, 1) {
        let mut rows = discrete_rows(2, envs);
        group.bench_function(BenchmarkId::new("exact_1_thread", envs), |b| {
            b.iter(|| run_vector(&mut vector, &mut rows, rounds))
        });
    }
    if let Ok(mut vector) = kernel_vector(fast, envs, 1) {
        let mut rows = discrete_rows(2, envs);
        group.bench_function(BenchmarkId::new("fast_f32_1_thread", envs), |b| {
            b.iter(|| run_vector(&mut vector, &mut rows, rounds))
        });
    }
    group.finish();
}

/// The overhead of [`VectorEpisodeStatistics`] over the 1024-environment CartPole-v1 kernel
/// vector on one thread (issue 15's bound: under 10%): the same steps, bare and wrapped.
fn episode_statistics(c: &mut Criterion) {
    let envs = 1024;
    let rounds = rounds(envs) * 16;
    let mut group = c.benchmark_group("episode_statistics_overhead");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements((envs * rounds) as u64));
    let Ok(domain) = cartpole() else {
        return;
    };
    let (Ok(mut bare), Ok(inner)) = (
        kernel_vector(domain.clone(), envs, 1),
        kernel_vector(domain, envs, 1),
    ) else {
        return;
    };
    let mut wrapped = VectorEpisodeStatistics::new(inner);
    let mut rows = discrete_rows(2, envs);
    group.bench_function("bare", |b| {
        b.iter(|| run_vector(&mut bare, &mut rows, rounds))
    });
    let mut rows = discrete_rows(2, envs);
    group.bench_function("with_statistics", |b| {
        b.iter(|| {
            for _ in 0..rounds {
                let _ = wrapped.step(rows.next_row());
                black_box(wrapped.episode_returns());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, vector, costly_dynamics, episode_statistics);
criterion_main!(benches);
