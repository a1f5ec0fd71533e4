//! Stepping any domain of this crate through the `Simulator` allocates nothing: states,
//! observations and actions are plain values (a counting global allocator proves it).

#[path = "support/counting_allocator.rs"]
mod counting_allocator;
use counting_allocator::thread_allocations as allocations;

use rl_core::{Domain, Environment, Mode, Simulator};
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::gridworld::{GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};

/// A small deterministic action source that allocates nothing.
struct Actions(u64);

impl Actions {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Steps `env` `steps` times with actions from `action`, resetting at episode ends, and
/// returns the allocations made meanwhile and the number of episodes that ended.
fn allocations_while_stepping<D: Domain>(
    env: &mut Simulator<D>,
    steps: usize,
    mut action: impl FnMut(&mut Actions) -> D::Action,
) -> (usize, usize) {
    let mut actions = Actions(7);
    env.reset(Mode::Training).expect("reset");
    let before = allocations();
    let mut ended = 0usize;
    for _ in 0..steps {
        let chosen = action(&mut actions);
        match env.step(&chosen) {
            Ok(outcome) if outcome.is_done() => {
                ended += 1;
                env.reset(Mode::Training).expect("reset");
            }
            Ok(_) => {}
            Err(error) => panic!("step failed: {error}"),
        }
    }
    (allocations() - before, ended)
}

#[test]
fn cartpole_steps_allocate_nothing() {
    let mut env = Simulator::new(CartPole::new(CartPoleParams::default()).expect("valid"), 1);
    let (allocated, ended) =
        allocations_while_stepping(&mut env, 20_000, |actions| (actions.next() % 2) as i64);
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn mountain_car_steps_allocate_nothing() {
    let mut env = Simulator::new(
        MountainCar::new(MountainCarParams::default()).expect("valid"),
        2,
    );
    let (allocated, ended) =
        allocations_while_stepping(&mut env, 20_000, |actions| (actions.next() % 3) as i64);
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn mountain_car_continuous_steps_allocate_nothing() {
    let mut env = Simulator::new(
        MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid"),
        3,
    );
    let (allocated, ended) = allocations_while_stepping(&mut env, 20_000, |actions| {
        [(actions.next() % 2001) as f32 / 1000.0 - 1.0]
    });
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn gridworld_steps_allocate_nothing() {
    let domain = GridWorld::builtin("4x5", GridWorldParams::default()).expect("valid");
    let mut env = Simulator::new(domain, 4);
    let (allocated, ended) =
        allocations_while_stepping(&mut env, 20_000, |actions| (actions.next() % 4) as i64);
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(16);
    std::hint::black_box(&v);
    assert!(allocations() > before, "the allocator must see allocations");
}
