//! The episode adapter's contract: seeding, validation, episode ends, truncation, the tie of
//! termination and truncation, modes, random state, constraints, action masks.

use std::num::NonZeroU64;

use rl_core::corridor::{Corridor, LEFT, RIGHT};
use rl_core::{
    BoxedEnvironment, CoreError, DynamicEnvironment, Environment, Mode, ResetReason, Simulator,
};
use rl_spaces::AnyElement;

fn corridor(length: u32, slip: f64) -> Corridor {
    Corridor::new(length, slip).expect("valid corridor")
}

/// Runs `steps` steps (resetting when an episode ends) and returns observations and rewards.
fn trajectory(env: &mut Simulator<Corridor>, actions: &[i64]) -> Vec<(i64, f64, bool, bool)> {
    let mut out = Vec::new();
    env.reset(Mode::Training).expect("reset");
    for action in actions {
        let outcome = env.step(action).expect("valid step");
        out.push((
            outcome.observation,
            outcome.reward(),
            outcome.terminated,
            outcome.truncated,
        ));
        if outcome.is_done() {
            env.reset(Mode::Training).expect("reset");
        }
    }
    out
}

fn actions() -> Vec<i64> {
    (0..300)
        .map(|i| if i % 3 == 0 { LEFT } else { RIGHT })
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_trajectory() {
    let a = trajectory(&mut Simulator::new(corridor(6, 0.3), 5), &actions());
    let b = trajectory(&mut Simulator::new(corridor(6, 0.3), 5), &actions());
    let c = trajectory(&mut Simulator::new(corridor(6, 0.3), 6), &actions());
    assert_eq!(a, b);
    assert_ne!(a, c, "a different seed should slip differently");
}

#[test]
fn reset_never_reseeds_and_seed_does() {
    let mut env = Simulator::new(corridor(6, 0.5), 1);
    let first = trajectory(&mut env, &actions());
    let second = trajectory(&mut env, &actions());
    assert_ne!(
        first, second,
        "a plain reset must continue the generator, not restart it"
    );
    env.seed(1);
    assert_eq!(
        trajectory(&mut env, &actions()),
        first,
        "seed(1) restarts the generator"
    );
}

#[test]
fn stepping_before_reset_and_after_the_end_are_errors() {
    let mut env = Simulator::new(corridor(2, 0.0), 0);
    assert_eq!(
        env.step(&RIGHT),
        Err(CoreError::NeedsReset(ResetReason::NotStarted))
    );
    env.reset(Mode::Training).unwrap();
    let outcome = env.step(&RIGHT).unwrap();
    assert!(outcome.terminated && !outcome.truncated);
    assert!(!env.is_running());
    let error = env.step(&RIGHT).unwrap_err();
    assert_eq!(error, CoreError::NeedsReset(ResetReason::EpisodeEnded));
    assert_eq!(
        error.to_string(),
        "step called after the episode ended (terminated or truncated): call reset first"
    );
    env.reset(Mode::Training).unwrap();
    assert!(env.step(&RIGHT).is_ok());
}

#[test]
fn invalid_actions_name_the_action_and_the_space_and_change_nothing() {
    let mut env = Simulator::new(corridor(5, 0.5), 3);
    let mut reference = Simulator::new(corridor(5, 0.5), 3);
    env.reset(Mode::Training).unwrap();
    reference.reset(Mode::Training).unwrap();
    let error = env.step(&7).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid action 7: not an element of the action space Discrete(2)"
    );
    assert!(env.step(&-1).is_err());
    assert_eq!(env.steps(), 0);
    for _ in 0..20 {
        let a = env.step(&RIGHT);
        let b = reference.step(&RIGHT);
        assert_eq!(
            a, b,
            "an invalid action must not touch the state or the generator"
        );
        if a.is_ok_and(|o| o.is_done()) {
            break;
        }
    }
}

#[test]
fn the_episode_cap_truncates_on_the_capped_step() {
    // Walking left from 0 never reaches the goal.
    let mut env = Simulator::new(corridor(5, 0.0), 0).with_episode_cap(NonZeroU64::new(3));
    env.reset(Mode::Training).unwrap();
    assert!(!env.step(&LEFT).unwrap().truncated);
    assert!(!env.step(&LEFT).unwrap().truncated);
    let third = env.step(&LEFT).unwrap();
    assert!(third.truncated && !third.terminated && third.should_bootstrap());
    assert_eq!(
        env.step(&LEFT),
        Err(CoreError::NeedsReset(ResetReason::EpisodeEnded))
    );
    // The domain's own cap applies by default.
    assert_eq!(
        Simulator::new(corridor(5, 0.0), 0).episode_cap(),
        NonZeroU64::new(100)
    );
}

#[test]
fn termination_and_truncation_on_the_same_step_report_both_and_termination_wins() {
    // Two cells: the first step right reaches the goal, and the cap is one step.
    let mut env = Simulator::new(corridor(2, 0.0), 0).with_episode_cap(NonZeroU64::new(1));
    env.reset(Mode::Training).unwrap();
    let outcome = env.step(&RIGHT).unwrap();
    assert!(outcome.terminated, "the goal was reached");
    assert!(outcome.truncated, "the cap was reached on the same step");
    assert!(outcome.is_done());
    assert!(
        !outcome.should_bootstrap(),
        "termination wins: no bootstrapping from a terminal state"
    );
}

#[test]
fn reset_keeps_its_mode_until_the_next_reset() {
    let mut env = Simulator::new(corridor(4, 0.0), 0);
    assert_eq!(env.mode(), Mode::Training);
    env.reset(Mode::Evaluation(3)).unwrap();
    env.step(&RIGHT).unwrap();
    assert_eq!(env.mode(), Mode::Evaluation(3));
    env.reset(Mode::Training).unwrap();
    assert_eq!(env.mode(), Mode::Training);
}

#[test]
fn random_state_saves_and_restores_the_generator() {
    let mut env = Simulator::new(corridor(8, 0.5), 9);
    let saved = env.random_state().unwrap();
    let text = serde_json::to_string(&saved).unwrap();
    let first = trajectory(&mut env, &actions());
    env.set_random_state(serde_json::from_str(&text).unwrap())
        .unwrap();
    assert_eq!(trajectory(&mut env, &actions()), first);
}

#[test]
fn reset_to_starts_from_a_given_state() {
    let mut env = Simulator::new(corridor(5, 0.0), 0);
    assert_eq!(env.reset_to(3, Mode::Training), 3);
    let outcome = env.step(&RIGHT).unwrap();
    assert_eq!(outcome.observation, 4);
    assert!(outcome.terminated);
}

#[test]
fn applicable_actions_form_a_mask() {
    let mut env = Simulator::new(corridor(4, 0.0), 0);
    env.reset(Mode::Training).unwrap();
    let mut mask = [true; 2];
    env.action_mask(&mut mask).unwrap();
    assert_eq!(mask, [false, true], "left is not applicable in cell 0");
    env.step(&RIGHT).unwrap();
    env.action_mask(&mut mask).unwrap();
    assert_eq!(mask, [true, true]);
    assert!(env.action_mask(&mut [true; 3]).is_err());
    assert_eq!(env.action_count(), Some(2));
    assert!(!env.has_continuous_actions());
    assert_eq!(env.observation_dimension(), 4);
}

#[test]
fn constraints_report_their_violations() {
    let mut env = Simulator::with_constraints(corridor(5, 0.0), 0).unwrap();
    assert_eq!(env.constraint_names(), ["moves toward the goal"]);
    env.reset(Mode::Training).unwrap();
    let right = env.step(&RIGHT).unwrap();
    assert!(right.violations.is_empty());
    let left = env.step(&LEFT).unwrap();
    assert_eq!(left.violations.iter().collect::<Vec<_>>(), [0]);
    // Without `with_constraints` nothing is evaluated.
    let mut plain = Simulator::new(corridor(5, 0.0), 0);
    plain.reset(Mode::Training).unwrap();
    plain.step(&RIGHT).unwrap();
    assert!(plain.step(&LEFT).unwrap().violations.is_empty());
}

#[test]
fn dynamic_environments_run_behind_a_box() {
    let mut env: BoxedEnvironment =
        DynamicEnvironment::new(Simulator::new(corridor(3, 0.0), 0)).boxed();
    assert_eq!(env.reset(Mode::Training).unwrap(), AnyElement::Int(0));
    assert_eq!(
        env.step(&AnyElement::Int(RIGHT)).unwrap().observation,
        AnyElement::Int(1)
    );
    assert!(matches!(
        env.step(&AnyElement::Value(serde_json::json!("up"))),
        Err(CoreError::InvalidAction { .. })
    ));
    assert!(env.is_applicable(&AnyElement::Int(LEFT)));
    assert_eq!(env.discount(), 0.95);
}
