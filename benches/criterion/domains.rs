//! Criterion benchmarks of each domain's `Domain::step` (CartPole, MountainCar,
//! MountainCarContinuous, GridWorld) and of GridWorld's enumerated transitions and RLPy's
//! expected steps. Throughput is in steps (or state-action pairs) per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rl_benches::workloads::{cartpole, continuous_actions, discrete_actions, mountain_car};
use rl_core::NumpyGenerator;
use rl_core::{Domain, EnumerableTransitions, Mode};
use rl_domains::gridworld::{GridAction, GridCell, GridWorld, GridWorldParams};
use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};

/// Steps per timed iteration.
const STEPS: usize = 1000;

/// Steps `domain` from `state` once per action, starting over from an initial state when an
/// episode terminates; returns the sum of the rewards.
fn roll<D: Domain>(
    domain: &D,
    state: &mut D::State,
    actions: &[D::Action],
    rng: &mut NumpyGenerator,
) -> f64 {
    let mut total = 0.0;
    for action in actions {
        let outcome = domain.step(state, action, Mode::Training, rng);
        total += outcome.value.reward();
        *state = if outcome.terminated {
            domain.initial_state(Mode::Training, rng)
        } else {
            outcome.next_state
        };
    }
    total
}

/// Benchmarks `roll` for one domain under `name`.
fn bench_domain<D: Domain>(c: &mut Criterion, name: &str, domain: &D, actions: &[D::Action]) {
    let mut group = c.benchmark_group("domain_step");
    group.throughput(Throughput::Elements(actions.len() as u64));
    let mut rng = NumpyGenerator::seed_from_u64(1);
    let mut state = domain.initial_state(Mode::Training, &mut rng);
    group.bench_function(name, |b| {
        b.iter(|| roll(domain, &mut state, black_box(actions), &mut rng))
    });
    group.finish();
}

fn domain_steps(c: &mut Criterion) {
    if let Ok(domain) = cartpole() {
        bench_domain(c, "CartPole-v1", &domain, &discrete_actions(2, STEPS));
    }
    if let Ok(domain) = mountain_car() {
        bench_domain(c, "MountainCar-v0", &domain, &discrete_actions(3, STEPS));
    }
    if let Ok(domain) = MountainCarContinuous::new(MountainCarContinuousParams::default()) {
        bench_domain(
            c,
            "MountainCarContinuous-v0",
            &domain,
            &continuous_actions(STEPS),
        );
    }
    if let Ok(domain) = GridWorld::builtin("11x11-Rooms", GridWorldParams::default()) {
        bench_domain(
            c,
            "GridWorld-11x11-Rooms",
            &domain,
            &discrete_actions(4, STEPS),
        );
    }
}

/// Every free cell of `domain`'s map with every action.
fn pairs(domain: &GridWorld) -> Vec<(GridCell, GridAction)> {
    let map = domain.map();
    let cells =
        (0..map.rows()).flat_map(|row| (0..map.cols()).map(move |col| GridCell { row, col }));
    let free: Vec<GridCell> = cells
        .filter(|cell| {
            domain.state_index(*cell).is_some() && !domain.possible_actions(*cell).is_empty()
        })
        .collect();
    free.iter()
        .flat_map(|cell| {
            (0..4)
                .filter_map(GridAction::from_index)
                .map(move |action| (*cell, action))
        })
        .collect()
}

fn gridworld_models(c: &mut Criterion) {
    let Ok(domain) = GridWorld::builtin("11x11-Rooms", GridWorldParams::default()) else {
        return;
    };
    let pairs = pairs(&domain);
    let mut group = c.benchmark_group("gridworld_11x11_rooms");
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function("transitions", |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|(cell, action)| {
                    domain
                        .transitions(cell, &(action.index() as i64), Mode::Training)
                        .len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("expected_step", |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|(cell, action)| domain.expected_step(*cell, *action, Mode::Training).len())
                .sum::<usize>()
        })
    });
    group.bench_function("step_distribution", |b| {
        b.iter(|| {
            pairs
                .iter()
                .map(|(cell, action)| {
                    domain
                        .step_distribution(*cell, *action, Mode::Training)
                        .len()
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, domain_steps, gridworld_models);
criterion_main!(benches);
