//! Criterion benchmarks of the `Simulator` adapter stepping through the public `Environment`
//! API (action validation included), next to a hand-written loop of the same exact dynamics
//! in the same group: the ratio of the two is the adapter's overhead. Throughput is in steps
//! per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rl_benches::raw::{RawCartPole, RawEnvironment, RawMountainCar};
use rl_benches::workloads::{
    ENVIRONMENT_SEED, cartpole_simulator, discrete_actions, mountain_car_simulator, run_episodes,
    run_raw,
};

/// Steps per timed iteration.
const STEPS: usize = 4096;

fn cartpole(c: &mut Criterion) {
    let actions = discrete_actions(2, STEPS);
    let mut group = c.benchmark_group("single_cartpole");
    group.throughput(Throughput::Elements(STEPS as u64));
    if let Ok(mut simulator) = cartpole_simulator() {
        group.bench_function("simulator", |b| {
            b.iter(|| run_episodes(&mut simulator, black_box(&actions)))
        });
    }
    let mut raw = RawCartPole::new(ENVIRONMENT_SEED);
    raw.reset();
    group.bench_function("raw_loop", |b| {
        b.iter(|| run_raw(&mut raw, black_box(&actions)))
    });
    group.finish();
}

fn mountain_car(c: &mut Criterion) {
    let actions = discrete_actions(3, STEPS);
    let mut group = c.benchmark_group("single_mountain_car");
    group.throughput(Throughput::Elements(STEPS as u64));
    if let Ok(mut simulator) = mountain_car_simulator() {
        group.bench_function("simulator", |b| {
            b.iter(|| run_episodes(&mut simulator, black_box(&actions)))
        });
    }
    let mut raw = RawMountainCar::new(ENVIRONMENT_SEED);
    raw.reset();
    group.bench_function("raw_loop", |b| {
        b.iter(|| run_raw(&mut raw, black_box(&actions)))
    });
    group.finish();
}

criterion_group!(benches, cartpole, mountain_car);
criterion_main!(benches);
