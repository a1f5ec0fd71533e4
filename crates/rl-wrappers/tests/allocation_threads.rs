//! A vector environment of 1024 environments stepped by two threads allocates nothing per
//! step after warm-up, on either construction path, and neither does every vector wrapper
//! stacked on one, nor a step under episode statistics (the Python package's), over the
//! vector itself or over a boxed stack of wrappers (`DynVector`), nor the stack of a vector
//! by id with `f64` rows stepped state by state (the MuJoCo ids' path; resets included), nor
//! the asynchronous vector of that id (its sends and receives, on two workers). The
//! counter is global (it
//! must see the worker thread), so this test runs without the test harness, alone in its
//! process.

use counting_allocator::process_allocations as allocations;

mod common;

use std::num::NonZeroUsize;

use rl_core::corridor::Corridor;
use rl_core::registry::Registration;
use rl_core::{Mode, Simulator};
use rl_wrappers::stateful::Padding;
use rl_wrappers::vector::{
    Autoreset, DynVector, EnvironmentVector, KernelVector, VectorEnv, VectorEpisodeStatistics,
    VectorHistoryStack, VectorNormalizeObservation, VectorNormalizeReward, VectorOptions,
    make_async_vector, make_vector, stack,
};

use common::{Drift, NoParams};

/// Steps `vector` (whose actions are `0..choices`) for a warm-up, then 300 steps; returns the
/// allocations of the 300.
fn allocations_per_run<V: VectorEnv<Action = i64>>(vector: &mut V, choices: usize) -> usize {
    let len = vector.len();
    let actions: Vec<Vec<i64>> = (0..3)
        .map(|k| (0..len).map(|i| ((i + k) % 3 % choices) as i64).collect())
        .collect();
    vector.reset(Mode::Training).expect("reset");
    for i in 0..50 {
        vector.step(&actions[i % 3]).expect("step");
    }
    let before = allocations();
    let mut ended = 0;
    for i in 0..300 {
        vector.step(&actions[i % 3]).expect("step");
        ended += vector.terminated().iter().filter(|t| **t).count();
    }
    let allocated = allocations() - before;
    assert!(ended > 100, "the loop must cross episode ends");
    allocated
}

/// Receives and sends again 64 environments by id stepped asynchronously on two workers, 32
/// per `recv`, for a warm-up, then 600 times; returns the allocations of the 600.
fn async_allocations_per_run(id: &str) -> usize {
    let options = VectorOptions::new().with_threads(NonZeroUsize::new(2).expect("non-zero"));
    let count = NonZeroUsize::new(64).expect("non-zero");
    let batch = NonZeroUsize::new(32).expect("non-zero");
    let mut vector =
        make_async_vector::<i64, f64>(id, None, count, 1, options, batch).expect("by id");
    vector.async_reset(Mode::Training).expect("reset");
    let mut ids = Vec::with_capacity(32);
    let mut actions = Vec::with_capacity(32);
    let (mut before, mut ended) = (0, 0);
    for i in 0..650 {
        if i == 50 {
            before = allocations();
        }
        vector.recv().expect("recv");
        ended += vector.terminated().iter().filter(|t| **t).count();
        ids.clear();
        ids.extend_from_slice(vector.env_ids());
        actions.clear();
        actions.extend(ids.iter().map(|id| (id + i) as i64 % 3));
        vector.send(&actions, &ids).expect("send");
    }
    let allocated = allocations() - before;
    assert!(ended > 100, "the loop must cross episode ends");
    allocated
}

fn main() {
    // The drift by id, without its kernel: stepped state by state, as the MuJoCo ids are.
    let id = "Drift-allocation-f64-v0";
    Registration::new(id, "a drift stepped state by state", |_: NoParams| {
        Ok::<_, std::convert::Infallible>(Drift::new(30, 0.05))
    })
    .register()
    .expect("a new id");
    let count = NonZeroUsize::new(1024).expect("non-zero");
    let two = NonZeroUsize::new(2).expect("non-zero");
    let mut failures = Vec::new();
    // Disabled autoreset is left out: it needs explicit resets, which this loop does not do.
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new()
            .with_autoreset(autoreset)
            .with_threads(two);
        let drift = Drift::new(30, 0.05);
        let mut copies = EnvironmentVector::<_, f32>::from_environments(count, 1, options, |_| {
            Simulator::new(drift.clone(), 0)
        })
        .expect("valid");
        let mut kernel =
            KernelVector::<_, f32>::from_kernel(drift.clone(), count, 1, options).expect("valid");
        // Every vector wrapper, stacked on copies of a corridor (which ends often).
        let corridors = EnvironmentVector::<_, f32>::from_environments(count, 1, options, |_| {
            Simulator::new(Corridor::new(6, 0.2).expect("valid"), 0)
        })
        .expect("valid");
        let normalised = VectorNormalizeReward::new(
            VectorNormalizeObservation::new(corridors).expect("valid"),
            0.99,
        )
        .expect("valid");
        let four = NonZeroUsize::new(4).expect("non-zero");
        let mut wrapped = VectorEpisodeStatistics::new(
            VectorHistoryStack::new(normalised, four, Padding::RepeatFirst)
                .expect("a history stack"),
        );
        let mut counted = VectorEpisodeStatistics::new(
            KernelVector::<_, f32>::from_kernel(drift.clone(), count, 1, options).expect("valid"),
        );
        // The Python package's stack with a wrapper below the statistics, behind the trait.
        let below: DynVector<i64> = Box::new(
            VectorNormalizeReward::new(
                KernelVector::<_, f32>::from_kernel(drift.clone(), count, 1, options)
                    .expect("valid"),
                0.99,
            )
            .expect("valid"),
        );
        let mut stacked = VectorEpisodeStatistics::new(below);
        // The Python package's stack over a vector by id with `f64` rows.
        let mut wide = stack(make_vector::<i64, f64>(id, None, count, 1, options).expect("by id"))
            .expect("stacked");
        for (path, allocated) in [
            (
                "kernel under statistics",
                allocations_per_run(&mut counted, 3),
            ),
            ("boxed stack", allocations_per_run(&mut stacked, 3)),
            ("f64 rows by id", allocations_per_run(&mut wide, 3)),
            ("copies", allocations_per_run(&mut copies, 3)),
            ("kernel", allocations_per_run(&mut kernel, 3)),
            ("wrapped copies", allocations_per_run(&mut wrapped, 2)),
        ] {
            println!("{path}, {autoreset:?}, 2 threads: {allocated} allocations in 300 steps");
            if allocated != 0 {
                failures.push(format!(
                    "{path} with {autoreset:?} allocated {allocated} times"
                ));
            }
        }
    }
    let allocated = async_allocations_per_run(id);
    println!("asynchronous f64 rows by id, 2 workers: {allocated} allocations in 600 receives");
    if allocated != 0 {
        failures.push(format!(
            "the asynchronous vector allocated {allocated} times"
        ));
    }
    if !failures.is_empty() {
        eprintln!("stepping with two threads allocated: {failures:?}");
        std::process::exit(1);
    }
    println!("test result: ok. two-thread stepping allocates nothing per step");
}
