//! A domain registered without a kernel steps by id in a batch of its states
//! (`rl_core::SteppedStates`) exactly as copies of its environment step: here a walk whose
//! continuous action is clipped as Gymnasium clips Pendulum's (`Domain::accepts_action`
//! takes any finite value beyond the Box), whose noise draws from each environment's
//! generator, and whose moves are not all applicable everywhere (`Domain::is_applicable`).

use std::num::NonZeroUsize;

use ndarray::Array2;
use rand::{Rng, RngExt};
use rl_core::registry::{self, Registration};
use rl_core::{Domain, Mode, TransitionOutcome, Value};
use rl_spaces::{AnyElement, ArrayBox, Discrete, DynamicSpace};
use rl_wrappers::vector::{Autoreset, EnvironmentVector, VectorOptions, make_vector};

use crate::common::{CorridorWith, NoParams};

/// A position on `[-2, 2]` moved by the clipped action plus noise, ending beyond ±2.
#[derive(Debug, Clone)]
struct ClippedWalk {
    actions: ArrayBox<f32, 1>,
    observations: ArrayBox<f64, 1>,
}

impl Domain for ClippedWalk {
    type State = f64;
    type Observation = [f64; 1];
    type Action = [f32; 1];
    type ObservationSpace = ArrayBox<f64, 1>;
    type ActionSpace = ArrayBox<f32, 1>;

    fn observation_space(&self) -> &ArrayBox<f64, 1> {
        &self.observations
    }

    fn action_space(&self) -> &ArrayBox<f32, 1> {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> f64 {
        rng.random::<f64>() - 0.5
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &f64,
        action: &[f32; 1],
        _: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<f64> {
        let push = f64::from(action[0].clamp(-1.0, 1.0));
        let next = state + 0.5 * push + 0.1 * (rng.random::<f64>() - 0.5);
        TransitionOutcome::new(next, Value::from_reward(-next.abs()), next.abs() > 2.0)
    }

    fn observe(&self, state: &f64) -> [f64; 1] {
        [*state]
    }

    fn is_terminal(&self, state: &f64) -> bool {
        state.abs() > 2.0
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(9)
    }

    fn accepts_action(&self, action: &[f32; 1]) -> bool {
        action[0].is_finite()
    }

    fn is_applicable(&self, state: &f64, action: &[f32; 1]) -> bool {
        // No push further out from beyond 1.
        !(state.abs() > 1.0 && state.signum() == f64::from(action[0]).signum())
    }
}

const ID: &str = "ClippedWalk-stepped-v0";

fn register() {
    let _ = Registration::new(ID, "a walk whose push is clipped", |_: NoParams| {
        Ok::<_, rl_spaces::SpaceError>(ClippedWalk {
            actions: ArrayBox::new([-1.0], [1.0])?,
            observations: ArrayBox::new([-3.0], [3.0])?,
        })
    })
    .register();
}

/// A push as the `AnyElement` a vector by id takes (any value, within the Box or not).
fn push_of(value: f32) -> AnyElement {
    let space = ArrayBox::<f32, 1>::new([-1.0], [1.0]).expect("a Box");
    space.element_to_any(&[value])
}

#[test]
fn actions_beyond_the_box_are_clipped_by_id_as_the_copies_clip_them() {
    register();
    let built = registry::build(ID, None).expect("registered");
    let count = NonZeroUsize::new(4).expect("non-zero");
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new()
            .with_autoreset(autoreset)
            .with_threads(NonZeroUsize::new(2).expect("non-zero"));
        let mut by_id =
            make_vector::<AnyElement, f32>(ID, None, count, 17, options).expect("by id");
        assert!(by_id.reports_infos(), "no kernel: the domain's step serves");
        let mut copies = EnvironmentVector::<_, f32>::from_environments(count, 17, options, |_| {
            built.environment(0)
        })
        .expect("copies");
        by_id.reset(Mode::Training).expect("reset");
        copies.reset(Mode::Training).expect("reset");
        let mut ends = 0;
        for step in 0..60 {
            // Pushes of 1.5 to 3.5 one way or the other, beyond the Box's ±1 (clipped to ±1,
            // so that episodes reach ±2 before the cap), but environment 3's of ±0.5.
            let actions: Vec<AnyElement> = (0..4)
                .map(|i| {
                    let sign = if (i + step / 10) % 2 == 0 { 1.0 } else { -1.0 };
                    let size = if i == 3 {
                        0.5
                    } else {
                        1.5 + (step % 5) as f32 * 0.5
                    };
                    push_of(sign * size)
                })
                .collect();
            by_id.step(&actions).expect("clipped, not refused");
            copies.step(&actions).expect("clipped, not refused");
            let bits = |a: &Array2<f32>| a.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let context = format!("{autoreset:?}, step {step}");
            assert_eq!(
                bits(by_id.observations()),
                bits(copies.observations()),
                "{context}"
            );
            let rewards = |r: &[f64]| r.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                rewards(by_id.rewards()),
                rewards(copies.rewards()),
                "{context}"
            );
            assert_eq!(by_id.terminated(), copies.terminated(), "{context}");
            assert_eq!(by_id.truncated(), copies.truncated(), "{context}");
            assert_eq!(by_id.final_mask(), copies.final_mask(), "{context}");
            ends += by_id.terminated().iter().filter(|t| **t).count();
        }
        assert!(
            ends > 0,
            "{autoreset:?}: episodes ended on the walk's bounds"
        );
        // A non-finite push is refused by both, naming the environment.
        let mut actions = vec![push_of(0.0); 4];
        actions[2] = push_of(f32::NAN);
        let error = by_id
            .step(&actions)
            .expect_err("NaN is no push")
            .to_string();
        assert!(error.contains('2'), "{error}");
        assert!(copies.step(&actions).is_err());
    }
}

#[test]
fn masks_by_id_are_the_copies_masks() {
    register();
    // A finite action space is needed for masks: the same walk with pushes -1, 0 and 1.
    #[derive(Debug, Clone)]
    struct Stepped(ClippedWalk, Discrete);
    impl Domain for Stepped {
        type State = f64;
        type Observation = [f64; 1];
        type Action = i64;
        type ObservationSpace = ArrayBox<f64, 1>;
        type ActionSpace = Discrete;
        fn observation_space(&self) -> &ArrayBox<f64, 1> {
            self.0.observation_space()
        }
        fn action_space(&self) -> &Discrete {
            &self.1
        }
        fn initial_state<R: Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> f64 {
            self.0.initial_state(mode, rng)
        }
        fn step<R: Rng + ?Sized>(
            &self,
            state: &f64,
            action: &i64,
            mode: Mode,
            rng: &mut R,
        ) -> TransitionOutcome<f64> {
            self.0.step(state, &[*action as f32 - 1.0], mode, rng)
        }
        fn observe(&self, state: &f64) -> [f64; 1] {
            [*state]
        }
        fn is_terminal(&self, state: &f64) -> bool {
            self.0.is_terminal(state)
        }
        fn episode_cap(&self) -> Option<u64> {
            self.0.episode_cap()
        }
        fn is_applicable(&self, state: &f64, action: &i64) -> bool {
            *action == 1 || self.0.is_applicable(state, &[*action as f32 - 1.0])
        }
    }
    let id = "SteppedWalk-masks-v0";
    let _ = Registration::new(id, "a walk of three pushes", |_: NoParams| {
        Ok::<_, rl_spaces::SpaceError>(Stepped(
            ClippedWalk {
                actions: ArrayBox::new([-1.0], [1.0])?,
                observations: ArrayBox::new([-3.0], [3.0])?,
            },
            Discrete::new(3)?,
        ))
    })
    .register();
    let built = registry::build(id, None).expect("registered");
    let count = NonZeroUsize::new(5).expect("non-zero");
    let options = VectorOptions::new();
    let mut by_id = make_vector::<AnyElement, f32>(id, None, count, 3, options).expect("by id");
    let mut copies =
        EnvironmentVector::<_, f32>::from_environments(count, 3, options, |_| built.environment(0))
            .expect("copies");
    by_id.reset(Mode::Training).expect("reset");
    copies.reset(Mode::Training).expect("reset");
    let mut refused = 0;
    for step in 0..80 {
        let (mut a, mut b) = (
            Array2::from_elem((5, 3), false),
            Array2::from_elem((5, 3), true),
        );
        by_id.action_masks(&mut a).expect("masks by id");
        copies.action_masks(&mut b).expect("masks of the copies");
        assert_eq!(a, b, "step {step}");
        refused += a.iter().filter(|allowed| !**allowed).count();
        let actions: Vec<AnyElement> = (0..5)
            .map(|i| AnyElement::Int(((step + i) % 3) as i64))
            .collect();
        by_id.step(&actions).expect("a step");
        copies.step(&actions).expect("a step");
        assert_eq!(by_id.observations(), copies.observations(), "step {step}");
    }
    assert!(refused > 0, "some pushes were not applicable");
}

/// With same-step autoreset, a vector by id keeps the action mask of the state each episode
/// ended in (`final_action_masks`), which the autoreset replaced: what Gymnasium's Taxi
/// reports in `final_info["action_mask"]`. On the corridor, left is not applicable in the
/// start cell 0, where the autoreset puts the episode, but is in the goal cell 4 it ended in.
#[test]
fn same_step_vectors_keep_the_action_masks_of_final_states() {
    use rl_core::corridor::{Corridor, LEFT, RIGHT};
    let id = "Corridor-final-masks-v0";
    let _ = Registration::new(id, "a corridor of 5 cells without slip", |_: NoParams| {
        Corridor::new(5, 0.0)
    })
    .register();
    let count = NonZeroUsize::new(3).expect("non-zero");
    let options = VectorOptions::new().with_autoreset(Autoreset::SameStep);
    let mut vector = make_vector::<AnyElement, f32>(id, None, count, 1, options).expect("by id");
    vector.reset(Mode::Training).expect("reset");
    let mut finals = Array2::from_elem((3, 2), false);
    vector
        .step(&[
            AnyElement::Int(RIGHT),
            AnyElement::Int(RIGHT),
            AnyElement::Int(LEFT),
        ])
        .expect("a step");
    let mut current = Array2::from_elem((3, 2), false);
    vector.action_masks(&mut current).expect("masks");
    assert_eq!(current.row(0).to_vec(), [true, true], "cell 1");
    assert_eq!(
        current.row(2).to_vec(),
        [false, true],
        "cell 0, where left is refused"
    );
    // Environments 0 and 1 walk right to the goal (three more steps), 2 stays behind.
    for _ in 0..3 {
        vector
            .step(&[
                AnyElement::Int(RIGHT),
                AnyElement::Int(RIGHT),
                AnyElement::Int(RIGHT),
            ])
            .expect("a step");
    }
    assert_eq!(vector.final_mask(), [true, true, false]);
    vector.action_masks(&mut current).expect("masks");
    assert_eq!(current.row(0).to_vec(), [false, true], "reset to cell 0");
    finals.fill(false);
    vector.final_action_masks(&mut finals).expect("final masks");
    assert_eq!(
        finals.row(0).to_vec(),
        [true, true],
        "ended in the goal cell 4"
    );
    assert_eq!(finals.row(1).to_vec(), [true, true]);
    assert_eq!(
        finals.row(2).to_vec(),
        [false, false],
        "not ended: left alone"
    );
    let mut wrong = Array2::from_elem((3, 3), false);
    assert!(vector.final_action_masks(&mut wrong).is_err());

    // A vector whose masks nobody asked for keeps none (it computes them only for a consumer
    // of masks): an error that says so.
    let mut unasked = make_vector::<AnyElement, f32>(id, None, count, 1, options).expect("by id");
    unasked.reset(Mode::Training).expect("reset");
    for _ in 0..4 {
        unasked
            .step(&[
                AnyElement::Int(RIGHT),
                AnyElement::Int(RIGHT),
                AnyElement::Int(RIGHT),
            ])
            .expect("a step");
    }
    assert_eq!(unasked.final_mask(), [true, true, true]);
    let error = unasked
        .final_action_masks(&mut finals)
        .expect_err("not kept");
    assert!(
        error.to_string().contains("ask for action masks first"),
        "{error}"
    );

    // Copies of environments keep them as well (the same storage), once masks were asked for.
    let built = registry::build(id, None).expect("registered");
    let mut copies =
        EnvironmentVector::<_, f32>::from_environments(count, 1, options, |_| built.environment(0))
            .expect("copies");
    copies.reset(Mode::Training).expect("reset");
    let right = vec![AnyElement::Int(RIGHT); 3];
    for _ in 0..4 {
        copies.step(&right).expect("a step");
    }
    // Asked for after the first episodes ended: the next ends keep their masks.
    copies.action_masks(&mut current).expect("masks");
    copies.step(&right).expect("a step");
    assert_eq!(copies.final_mask(), [false, false, false]);
    for _ in 0..3 {
        copies.step(&right).expect("a step");
    }
    assert_eq!(copies.final_mask(), [true, true, true]);
    finals.fill(false);
    copies.final_action_masks(&mut finals).expect("final masks");
    for row in finals.rows() {
        assert_eq!(row.to_vec(), [true, true], "ended in the goal cell 4");
    }
}

/// A domain that writes its masks in one pass (Taxi) has its final masks kept too, once masks
/// were asked for: Gymnasium's Taxi reports them in same-step `final_info["action_mask"]`.
#[test]
fn same_step_vectors_keep_the_final_masks_of_one_pass_masks() {
    use rl_core::corridor::{Corridor, RIGHT};
    let id = "OnePassCorridor-final-masks-v0";
    let _ = Registration::new(id, "a corridor with one-pass masks", |_: NoParams| {
        Corridor::new(5, 0.0).map(|corridor| CorridorWith {
            one_pass_masks: true,
            ..CorridorWith::plain(corridor)
        })
    })
    .register();
    let count = NonZeroUsize::new(2).expect("non-zero");
    let options = VectorOptions::new().with_autoreset(Autoreset::SameStep);
    let mut vector = make_vector::<AnyElement, f32>(id, None, count, 1, options).expect("by id");
    vector.reset(Mode::Training).expect("reset");
    let mut masks = Array2::from_elem((2, 2), false);
    vector.action_masks(&mut masks).expect("masks");
    assert_eq!(masks.row(0).to_vec(), [false, true], "cell 0");
    for _ in 0..4 {
        vector
            .step(&[AnyElement::Int(RIGHT), AnyElement::Int(RIGHT)])
            .expect("a step");
    }
    assert_eq!(vector.final_mask(), [true, true]);
    vector.final_action_masks(&mut masks).expect("final masks");
    assert_eq!(
        masks.row(0).to_vec(),
        [true, true],
        "ended in the goal cell 4"
    );
    assert_eq!(masks.row(1).to_vec(), [true, true]);
}

/// Vectors of copies report each reset's info ([`Domain::reset_info`], through the
/// environments and the wrappers over them: [`rl_core::Environment::reset_info`]) as the
/// vector by id does, as `SyncVectorEnv` lays them out: in the infos after a reset, in the
/// step's infos for an autoreset (next-step: the step that resets; same-step: beside the
/// ended episode's final info).
#[test]
fn copies_report_reset_infos_as_the_vector_by_id() {
    use rl_core::Environment;
    use rl_core::corridor::Corridor;
    use rl_wrappers::stateful::TimeLimit;

    let id = "Corridor-reset-infos-v0";
    let _ = Registration::new(
        id,
        "a corridor reporting its start and cells",
        |_: NoParams| {
            Corridor::new(4, 0.3).map(|corridor| CorridorWith {
                reports_cell: true,
                reports_start: true,
                cap: Some(7),
                ..CorridorWith::plain(corridor)
            })
        },
    )
    .register();
    let built = registry::build(id, None).expect("registered");
    let count = NonZeroUsize::new(3).expect("non-zero");
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new().with_autoreset(autoreset);
        let mut by_id = make_vector::<AnyElement, f32>(id, None, count, 9, options).expect("by id");
        // Under a wrapper, which passes the reset info on.
        let limit = std::num::NonZeroU64::new(1000).expect("non-zero");
        let mut copies = EnvironmentVector::<_, f32>::from_environments(count, 9, options, |_| {
            TimeLimit::new(built.environment(0), limit)
        })
        .expect("copies");
        by_id.reset(Mode::Training).expect("reset");
        copies.reset(Mode::Training).expect("reset");
        let start = rl_core::InfoValue::Int(0);
        for i in 0..3 {
            assert_eq!(
                copies.infos()[i].get("start"),
                Some(&start),
                "{autoreset:?} reset"
            );
        }
        assert_eq!(copies.infos(), by_id.infos());
        let mut resets = 0;
        for step in 0..40 {
            let actions: Vec<AnyElement> = (0..3)
                .map(|i| AnyElement::Int(i64::from((step + i) % 4 != 0)))
                .collect();
            by_id.step(&actions).expect("a step");
            copies.step(&actions).expect("a step");
            let context = format!("{autoreset:?}, step {step}");
            assert_eq!(copies.observations(), by_id.observations(), "{context}");
            assert_eq!(copies.final_mask(), by_id.final_mask(), "{context}");
            assert_eq!(copies.infos(), by_id.infos(), "{context}");
            assert_eq!(copies.final_infos(), by_id.final_infos(), "{context}");
            resets += copies
                .infos()
                .iter()
                .filter(|info| info.get("start").is_some())
                .count();
        }
        assert!(resets >= 3, "{autoreset:?}: {resets} autoresets reported");
    }
    // The single environment gives its reset's info too, through the wrapper.
    let mut env = TimeLimit::new(
        built.environment(0),
        std::num::NonZeroU64::new(5).expect("non-zero"),
    );
    assert!(env.reset_info().is_empty(), "before the first reset");
    env.reset(Mode::Training).expect("reset");
    assert_eq!(
        env.reset_info().get("start"),
        Some(&rl_core::InfoValue::Int(0))
    );
}
