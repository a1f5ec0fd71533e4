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

#[test]
fn one_static_scalar_info_entry_allocates_nothing() {
    // The toy-text environments report `prob` with every step (issue 28): one inline entry.
    let before = allocations();
    for i in 0..1000 {
        let mut info = rl_core::Info::new();
        info.insert_static("prob", f64::from(i) / 3.0);
        std::hint::black_box(&info);
        let moved = info;
        assert_eq!(moved.len(), 1);
    }
    assert_eq!(allocations() - before, 0);
    // Infos of several entries reuse the lists of dropped ones, from a pool every thread
    // shares: checked alone in its process, in rl-benches' `tests/allocation_vector.rs`.
}
