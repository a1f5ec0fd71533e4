//! `TimeLimit`: truncation with Gymnasium's semantics, the tie with termination, and episodes
//! that stay over until the next reset.

use crate::common;

use std::num::NonZeroU64;

use rl_core::corridor::{LEFT, RIGHT};
use rl_core::{CoreError, Environment, Mode, ResetReason, Simulator};
use rl_wrappers::stateful::TimeLimit;

use common::corridor;

fn limit(steps: u64) -> NonZeroU64 {
    NonZeroU64::new(steps).expect("non-zero")
}

#[test]
fn the_step_reaching_the_limit_is_truncated_and_ends_the_episode() {
    let mut env = TimeLimit::new(Simulator::new(corridor(10, 0.0), 0), limit(3));
    assert_eq!(
        env.step(&RIGHT),
        Err(CoreError::NeedsReset(ResetReason::NotStarted))
    );
    env.reset(Mode::Training).expect("reset");
    for elapsed in 1..=2 {
        let outcome = env.step(&RIGHT).expect("step");
        assert!(!outcome.truncated && !outcome.terminated);
        assert_eq!(env.elapsed_steps(), elapsed);
    }
    let last = env.step(&RIGHT).expect("step");
    assert!(last.truncated && !last.terminated);
    assert!(
        last.should_bootstrap(),
        "a truncated state still has a future"
    );
    assert_eq!(
        env.step(&RIGHT),
        Err(CoreError::NeedsReset(ResetReason::EpisodeEnded))
    );
    env.reset(Mode::Training).expect("reset");
    assert_eq!(env.elapsed_steps(), 0);
    assert!(!env.step(&RIGHT).expect("a new episode").truncated);
}

#[test]
fn termination_on_the_last_allowed_step_reports_both_and_termination_wins() {
    // Two steps right reach the goal of a 3-cell corridor, exactly at the limit of 2.
    let mut env = TimeLimit::new(Simulator::new(corridor(3, 0.0), 0), limit(2));
    env.reset(Mode::Training).expect("reset");
    env.step(&RIGHT).expect("step");
    let tie = env.step(&RIGHT).expect("step");
    assert!(tie.terminated, "the goal is reached");
    assert!(tie.truncated, "the limit is reached on the same step");
    assert!(
        !tie.should_bootstrap(),
        "termination wins: the state reached is terminal"
    );
    assert!(tie.is_done());
}

#[test]
fn invalid_actions_do_not_count_as_steps() {
    let mut env = TimeLimit::new(Simulator::new(corridor(10, 0.0), 0), limit(2));
    env.reset(Mode::Training).expect("reset");
    assert!(matches!(env.step(&7), Err(CoreError::InvalidAction { .. })));
    assert_eq!(env.elapsed_steps(), 0);
    env.step(&LEFT).expect("step");
    assert!(env.step(&LEFT).expect("step").truncated);
}

#[test]
fn the_inner_episode_cap_is_kept() {
    // Corridor's own cap is 100 steps; a longer limit does not hide it.
    let mut env = TimeLimit::new(Simulator::new(corridor(10, 0.0), 0), limit(500));
    env.reset(Mode::Training).expect("reset");
    let steps = std::iter::repeat_with(|| env.step(&LEFT).expect("step"))
        .take_while(|o| !o.is_done())
        .count();
    assert_eq!(steps, 99, "the 100th step ends the episode");
    assert!(env.step(&LEFT).is_err());
}

#[test]
fn a_new_limit_applies_to_the_running_episode() {
    let mut env = TimeLimit::new(Simulator::new(corridor(10, 0.0), 0), limit(10));
    env.reset(Mode::Training).expect("reset");
    env.step(&LEFT).expect("step");
    env.set_max_steps(limit(2));
    assert_eq!(env.max_steps(), limit(2));
    assert!(env.step(&LEFT).expect("step").truncated);
}
