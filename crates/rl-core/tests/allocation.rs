//! The simulator allocates nothing per step when the domain's state, observation and action are
//! plain values, with and without declared constraints (a counting global allocator proves it).

use counting_allocator::thread_allocations as allocations;

use rl_core::corridor::{Corridor, LEFT, RIGHT};
use rl_core::{Environment, Mode, Simulator};

/// Steps `env` `steps` times with alternating-ish actions, resetting at episode ends, and
/// returns the number of allocations made meanwhile.
fn allocations_while_stepping(env: &mut Simulator<Corridor>, steps: usize) -> usize {
    env.reset(Mode::Training).expect("reset");
    let before = allocations();
    let mut done_episodes = 0usize;
    for i in 0..steps {
        let action = if i % 4 == 0 { LEFT } else { RIGHT };
        match env.step(&action) {
            Ok(outcome) if outcome.is_done() => {
                done_episodes += 1;
                env.reset(Mode::Training).expect("reset");
            }
            Ok(_) => {}
            Err(e) => panic!("step failed: {e}"),
        }
    }
    let after = allocations();
    assert!(done_episodes > 10, "the loop must cross episode ends too");
    after - before
}

#[test]
fn stepping_allocates_nothing() {
    let mut env = Simulator::new(Corridor::new(6, 0.2).expect("valid"), 1);
    assert_eq!(allocations_while_stepping(&mut env, 20_000), 0);
}

#[test]
fn stepping_with_constraints_allocates_nothing() {
    let mut env =
        Simulator::with_constraints(Corridor::new(6, 0.2).expect("valid"), 1).expect("constraints");
    assert_eq!(allocations_while_stepping(&mut env, 20_000), 0);
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(16);
    std::hint::black_box(&v);
    assert!(allocations() > before, "the allocator must see allocations");
}
