//! Every vector wrapper, stacked on a vector of 256 environments stepped by two threads,
//! allocates nothing per step after warm-up. The counter is global (it must see the worker
//! thread), so this test runs without the test harness, alone in its process.

use counting_allocator::process_allocations as allocations;

use std::num::NonZeroUsize;

use rl_core::corridor::Corridor;
use rl_core::{Mode, Simulator};
use rl_wrappers::stateful::Padding;
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, VectorEnv, VectorEpisodeStatistics, VectorHistoryStack,
    VectorNormalizeObservation, VectorNormalizeReward, VectorOptions,
};

/// Steps `env` for a warm-up, then 300 steps; returns the allocations of the 300.
fn allocations_per_run<V: VectorEnv<Action = i64>>(env: &mut V) -> usize {
    let len = env.len();
    let actions: Vec<Vec<i64>> = (0..3)
        .map(|k| (0..len).map(|i| i64::from((i + k) % 3 != 0)).collect())
        .collect();
    env.reset(Mode::Training).expect("reset");
    for i in 0..50 {
        env.step(&actions[i % 3]).expect("step");
    }
    let before = allocations();
    let mut ended = 0;
    for i in 0..300 {
        env.step(&actions[i % 3]).expect("step");
        ended += env.terminated().iter().filter(|t| **t).count();
    }
    let allocated = allocations() - before;
    assert!(ended > 100, "the loop must cross episode ends");
    allocated
}

fn main() {
    let count = NonZeroUsize::new(256).expect("non-zero");
    let two = NonZeroUsize::new(2).expect("non-zero");
    let mut failures = Vec::new();
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new()
            .with_autoreset(autoreset)
            .with_threads(two);
        let vector = || {
            EnvironmentVector::<_, f32>::from_environments(count, 1, options, |_| {
                Simulator::new(Corridor::new(6, 0.2).expect("valid"), 0)
            })
            .expect("valid")
        };
        let stacked = VectorHistoryStack::new(
            VectorNormalizeReward::new(
                VectorNormalizeObservation::new(vector()).expect("valid"),
                0.99,
            )
            .expect("valid"),
            NonZeroUsize::new(4).expect("non-zero"),
            Padding::RepeatFirst,
        );
        let mut all = VectorEpisodeStatistics::new(stacked);
        let allocated = allocations_per_run(&mut all);
        if allocated != 0 {
            failures.push(format!(
                "{autoreset:?}: {allocated} allocations in 300 steps"
            ));
        }
        assert!(all.episode_count() > 100, "the window filled and rolled");
    }
    if failures.is_empty() {
        println!("vector wrappers allocate nothing per step: ok");
    } else {
        eprintln!("{}", failures.join("\n"));
        std::process::exit(1);
    }
}
