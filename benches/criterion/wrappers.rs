//! Criterion benchmarks of wrapper overheads on CartPole-v1: the bare `Simulator`, a
//! `TimeLimit` over it, an `OuterEnvironment` (numeric float32 observations) over it, and a
//! `HistoryStack` of four observations over that, all stepped through the public
//! `Environment` API in one group. Throughput is in steps per second.

use std::hint::black_box;
use std::num::{NonZeroU64, NonZeroUsize};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rl_benches::workloads::{cartpole_simulator, discrete_actions, reset, run_episodes};
use rl_core::Environment;
use rl_wrappers::OuterEnvironment;
use rl_wrappers::stateful::{HistoryStack, Padding, TimeLimit};

/// Steps per timed iteration.
const STEPS: usize = 4096;

/// Benchmarks `env` under `name` in `group`.
fn bench<E: Environment<Action = i64>>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    mut env: E,
    actions: &[i64],
) {
    group.bench_function(name, |b| {
        b.iter(|| run_episodes(&mut env, black_box(actions)))
    });
}

fn wrappers(c: &mut Criterion) {
    let actions = discrete_actions(2, STEPS);
    let mut group = c.benchmark_group("wrappers_cartpole");
    group.throughput(Throughput::Elements(STEPS as u64));
    let (Ok(simulator), Some(limit), Some(four)) = (
        cartpole_simulator(),
        NonZeroU64::new(500),
        NonZeroUsize::new(4),
    ) else {
        return;
    };
    bench(&mut group, "simulator", simulator.clone(), &actions);
    bench(
        &mut group,
        "time_limit",
        reset(TimeLimit::new(simulator.clone(), limit)),
        &actions,
    );
    if let Ok(outer) = OuterEnvironment::<_, _, f32>::identity(simulator.clone()) {
        bench(&mut group, "outer_identity_f32", reset(outer), &actions);
    }
    if let Ok(stack) = OuterEnvironment::<_, _, f32>::identity(simulator)
        .and_then(|outer| HistoryStack::uniform(outer, four, Padding::Zeros))
    {
        bench(&mut group, "outer_history_stack_4", reset(stack), &actions);
    }
    group.finish();
}

criterion_group!(benches, wrappers);
criterion_main!(benches);
