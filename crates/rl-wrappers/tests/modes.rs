//! Modes: values chosen by mode, parameters switched at reset and held for the episode, and
//! sticky actions (on when training, off when evaluating).

use crate::common;

use std::num::NonZeroU64;

use rl_core::corridor::{LEFT, RIGHT};
use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_wrappers::stateful::{ByMode, ModeSwitch, StickyAction, TimeLimit};

use common::corridor;

#[test]
fn parameters_switch_at_reset_and_hold_until_the_next() {
    let limits = ByMode::new(
        NonZeroU64::new(30).expect("non-zero"),
        NonZeroU64::new(2).expect("non-zero"),
    )
    .with_evaluation(1, NonZeroU64::new(3).expect("non-zero"));
    let mut applied = Vec::new();
    let inner = TimeLimit::new(Simulator::new(corridor(50, 0.0), 0), NonZeroU64::MIN);
    let mut env = ModeSwitch::new(
        inner,
        limits,
        |env: &mut TimeLimit<_>, limit: &NonZeroU64| {
            env.set_max_steps(*limit);
        },
    );
    let episode_length = |env: &mut ModeSwitch<_, _, _>, mode: Mode| {
        env.reset(mode).expect("reset");
        (1..)
            .find(|_| env.step(&LEFT).expect("step").is_done())
            .unwrap_or(0)
    };
    for (mode, expected) in [
        (Mode::Training, 30),
        (Mode::Evaluation(0), 2),
        (Mode::Evaluation(1), 3),
        (Mode::Training, 30),
    ] {
        assert_eq!(episode_length(&mut env, mode), expected, "{mode}");
        assert_eq!(env.current().get(), expected);
        applied.push(env.mode());
    }
    assert_eq!(
        applied,
        [
            Mode::Training,
            Mode::Evaluation(0),
            Mode::Evaluation(1),
            Mode::Training
        ]
    );
    assert_eq!(
        *env.parameters().get(Mode::Evaluation(7)),
        NonZeroU64::new(2).expect("non-zero")
    );
}

#[test]
fn by_mode_replaces_particular_values() {
    let values = ByMode::same(1).with_evaluation(3, 2).with_evaluation(3, 4);
    assert_eq!(*values.get(Mode::Evaluation(3)), 4);
    assert_eq!(*values.get(Mode::Evaluation(2)), 1);
    assert_eq!(values.values().count(), 3);
}

fn trajectory(
    env: &mut StickyAction<Simulator<rl_core::corridor::Corridor>>,
    mode: Mode,
) -> Vec<i64> {
    env.reset(mode).expect("reset");
    (0..60)
        .map(|i| {
            let action = if i % 2 == 0 { LEFT } else { RIGHT };
            match env.step(&action) {
                Ok(outcome) if outcome.is_done() => {
                    env.reset(mode).expect("reset");
                    -1
                }
                Ok(outcome) => outcome.observation,
                Err(e) => panic!("step failed: {e}"),
            }
        })
        .collect()
}

#[test]
fn sticky_actions_repeat_by_mode_and_reproduce_with_the_seed() {
    let make = |seed| {
        StickyAction::new(
            Simulator::new(corridor(40, 0.0), 0),
            ByMode::new(0.5, 0.0),
            seed,
        )
        .expect("probabilities")
    };
    let mut env = make(3);
    let sticky = trajectory(&mut env, Mode::Training);
    let evaluation = trajectory(&mut env, Mode::EVALUATION);
    // Alternating left and right from cell 0 stays within cells 0 and 1 unless actions stick.
    assert!(
        evaluation.iter().all(|cell| (0..=1).contains(cell)),
        "{evaluation:?}"
    );
    assert!(sticky.iter().any(|cell| *cell > 1), "{sticky:?}");
    assert_eq!(
        trajectory(&mut make(3), Mode::Training),
        sticky,
        "same seed, same trajectory"
    );
    assert_ne!(trajectory(&mut make(4), Mode::Training), sticky);
    env.seed(3);
    assert_eq!(
        trajectory(&mut env, Mode::Training),
        sticky,
        "seed restarts both generators"
    );
}

#[test]
fn sticky_actions_still_check_the_given_action() {
    let mut env = StickyAction::new(Simulator::new(corridor(5, 0.0), 0), ByMode::same(1.0), 0)
        .expect("probabilities");
    env.reset(Mode::Training).expect("reset");
    env.step(&RIGHT).expect("step");
    assert_eq!(env.previous_action(), Some(&RIGHT));
    assert!(matches!(env.step(&9), Err(CoreError::InvalidAction { .. })));
    assert!(
        env.random_state().is_err(),
        "two generators do not fit one random state"
    );
    env.reset(Mode::Training).expect("reset");
    assert_eq!(env.previous_action(), None);
    assert!(
        StickyAction::new(
            Simulator::new(corridor(5, 0.0), 0),
            ByMode::new(1.5, 0.0),
            0
        )
        .is_err()
    );
}
