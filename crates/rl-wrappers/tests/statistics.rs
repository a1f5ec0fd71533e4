//! Episode statistics: return, length and wall time of the last episodes.

use crate::common;

use std::num::NonZeroUsize;

use rl_core::corridor::{LEFT, RIGHT};
use rl_core::{Environment, Mode, Simulator};
use rl_wrappers::stateful::EpisodeStatistics;

use common::corridor;

#[test]
fn the_last_hundred_episodes_are_kept() {
    let mut env = EpisodeStatistics::new(Simulator::new(corridor(3, 0.0), 0));
    assert_eq!(env.mean_return(), None);
    for episode in 0..150u64 {
        env.reset(Mode::Training).expect("reset");
        // Episode k takes k % 3 detours left before going right twice.
        for _ in 0..episode % 3 {
            env.step(&LEFT).expect("step");
        }
        env.step(&RIGHT).expect("step");
        let last = env.step(&RIGHT).expect("step");
        assert!(last.terminated);
        assert!(last.info.is_empty(), "info is written only when asked");
    }
    assert_eq!(env.episode_count(), 150);
    assert_eq!(env.capacity().get(), 100);
    let lengths: Vec<u64> = env.lengths().collect();
    assert_eq!(lengths.len(), 100);
    assert_eq!(lengths[0], 2 + 50 % 3, "the oldest kept is episode 50");
    assert_eq!(*lengths.last().expect("kept"), 2 + 149 % 3);
    assert!(
        env.returns()
            .zip(env.lengths())
            .all(|(r, l)| r == -(l as f64))
    );
    assert_eq!(env.wall_times().len(), 100);
}

#[test]
fn episodes_cut_by_a_reset_are_not_recorded() {
    let mut env =
        EpisodeStatistics::with_capacity(Simulator::new(corridor(10, 0.0), 0), NonZeroUsize::MIN)
            .with_info(true);
    env.reset(Mode::Training).expect("reset");
    env.step(&RIGHT).expect("step");
    assert_eq!((env.current_return(), env.current_length()), (-1.0, 1));
    env.reset(Mode::Training).expect("reset");
    assert_eq!(env.episode_count(), 0);
    assert_eq!(env.current_length(), 0);
    let last = (0..9)
        .map(|_| env.step(&RIGHT).expect("step"))
        .last()
        .expect("nine steps");
    assert_eq!(
        last.info.get("episode").map(rl_core::InfoValue::to_json),
        Some(serde_json::json!({"return": -9.0, "length": 9}))
    );
    assert_eq!(env.mean_return(), Some(-9.0));
}
