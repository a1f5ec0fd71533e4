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
    // A second entry, or one that holds heap data, joins the map: an allocation.
    let before = allocations();
    let mut info = rl_core::Info::new();
    info.insert_static("prob", 1.0);
    info.insert_static("action_mask", serde_json::json!([1, 0]));
    assert!(allocations() > before);
}

#[test]
fn static_keys_in_the_map_are_not_copied() {
    // MuJoCo's infos: several float entries under string literals. The map's own memory is
    // allocated (its box and its node), never a copy of a key: the count does not grow with
    // the number of entries (it was one `String` per key).
    let keys = [
        "x_position",
        "x_velocity",
        "z_distance_from_origin",
        "reward_forward",
        "reward_ctrl",
        "reward_survive",
        "reward_contact",
        "y_position",
        "y_velocity",
    ];
    let count = |entries: usize| {
        let before = allocations();
        let mut info = rl_core::Info::new();
        for (i, key) in keys.iter().take(entries).enumerate() {
            info.insert(*key, i as f64);
        }
        std::hint::black_box(&info);
        assert_eq!(info.len(), entries);
        allocations() - before
    };
    let two = count(2);
    assert!(two > 0, "a map of two entries has memory of its own");
    assert_eq!(
        count(keys.len()),
        two,
        "more static keys, no more allocations"
    );
    // A key made at run time is kept as it is: one allocation more (the `String` itself).
    let before = allocations();
    let mut info = rl_core::Info::new();
    info.insert(String::from("made"), 1.0);
    info.insert("literal", 2.0);
    std::hint::black_box(&info);
    assert_eq!(allocations() - before, two + 1);
    let keys: Vec<&str> = info.iter().map(|(key, _)| key).collect();
    assert_eq!(
        keys,
        ["literal", "made"],
        "key order, wherever the key lives"
    );
}
