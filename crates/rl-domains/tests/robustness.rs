//! Bad input never panics (proptest): non-finite and out-of-range actions are typed errors
//! (finite continuous actions beyond the bounds are clipped, as Gymnasium clips them)
//! through the simulator and through the registry's boxed environments, malformed map text
//! is a typed error naming its place (the reference files' robustness is tested in
//! rl-reference).

use proptest::prelude::*;
use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_domains::Error;
use rl_domains::acrobot::{Acrobot, AcrobotParams};
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::gridworld::{GridMap, GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};
use rl_domains::pendulum::{Pendulum, PendulumParams};
use rl_domains::registry;
use rl_spaces::{AnyElement, Space};

/// Floats with the edge cases in abundance: NaN, infinities, the bounds and their neighbours.
fn any_action_value() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(1.0),
        Just(-1.0),
        Just(f32::from_bits(1.0f32.to_bits() + 1)),
        Just(f32::from_bits((-1.0f32).to_bits() + 1)),
        Just(f32::MAX),
        Just(f32::MIN_POSITIVE),
        -2.0f32..2.0,
        any::<f32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn continuous_actions_outside_the_box_are_clipped_and_non_finite_ones_rejected(values in prop::collection::vec(any_action_value(), 1..40)) {
        // Gymnasium clips MountainCarContinuous's force, but a clipped force is a Python float
        // (float64 arithmetic) where an action inside the bounds stays float32, and the reward
        // uses the action as given: stepping beyond the bounds is not stepping with the bound.
        // `seeded_classic.json` replays Gymnasium's own steps with such actions bit for bit
        // (rl-reference); here the typed and boxed environments agree and stay in the space.
        let domain = MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
        let mut env = Simulator::new(domain, 0);
        let mut boxed = registry::make("MountainCarContinuous-v0", None).expect("registered");
        env.reset(Mode::Training).expect("reset");
        boxed.reset(Mode::Training).expect("reset");
        for value in values {
            let typed = env.step(&[value]);
            let dynamic = boxed.step(&AnyElement::from(ndarray::arr1(&[value]).into_dyn()));
            if !value.is_finite() {
                prop_assert!(matches!(typed, Err(CoreError::InvalidAction { .. })), "{value}: {typed:?}");
                prop_assert!(matches!(dynamic, Err(CoreError::InvalidAction { .. })), "{value}: {dynamic:?}");
                continue;
            }
            let (typed, dynamic) = (typed.expect("a finite action"), dynamic.expect("a finite action"));
            prop_assert!(typed.reward().is_finite());
            prop_assert_eq!(typed.reward().to_bits(), dynamic.reward().to_bits());
            prop_assert!(env.observation_space().contains(&typed.observation), "{:?}", typed.observation);
            if typed.is_done() {
                env.reset(Mode::Training).expect("reset");
                boxed.reset(Mode::Training).expect("reset");
            }
        }
        // Wrong shapes and element types are rejected.
        for wrong in [
            AnyElement::Int(0),
            AnyElement::from(ndarray::arr1(&[0.5f64]).into_dyn()),
            AnyElement::from(ndarray::arr1(&[0.5f32, 0.5]).into_dyn()),
            AnyElement::Tuple(Vec::new()),
        ] {
            let result = boxed.step(&wrong);
            prop_assert!(matches!(result, Err(CoreError::InvalidAction { .. })), "{wrong:?}: {result:?}");
        }
    }

    #[test]
    fn pendulum_torques_outside_the_box_are_clipped_and_non_finite_ones_rejected(values in prop::collection::vec(any_action_value(), 1..40)) {
        let domain = Pendulum::new(PendulumParams::default()).expect("valid");
        let mut env = Simulator::new(domain.clone(), 0);
        let mut clipped = Simulator::new(domain, 0);
        let mut boxed = registry::make("Pendulum-v1", None).expect("registered");
        env.reset(Mode::Training).expect("reset");
        clipped.reset(Mode::Training).expect("reset");
        boxed.reset(Mode::Training).expect("reset");
        for value in values.into_iter().map(|value| value * 2.0) {
            let typed = env.step(&[value]);
            let dynamic = boxed.step(&AnyElement::from(ndarray::arr1(&[value]).into_dyn()));
            if !value.is_finite() {
                prop_assert!(matches!(typed, Err(CoreError::InvalidAction { .. })), "{value}: {typed:?}");
                prop_assert!(matches!(dynamic, Err(CoreError::InvalidAction { .. })), "{value}: {dynamic:?}");
                continue;
            }
            // Gymnasium clips the torque before it enters the dynamics and the cost.
            let reference = clipped.step(&[value.clamp(-2.0, 2.0)]).expect("an action of the space");
            let (typed, dynamic) = (typed.expect("a finite action"), dynamic.expect("a finite action"));
            prop_assert!(typed.reward().is_finite() && typed.reward() <= 0.0);
            prop_assert_eq!(typed.reward().to_bits(), dynamic.reward().to_bits());
            prop_assert_eq!(typed.reward().to_bits(), reference.reward().to_bits());
            prop_assert_eq!(typed.observation.map(f32::to_bits), reference.observation.map(f32::to_bits));
            if typed.is_done() {
                env.reset(Mode::Training).expect("reset");
                clipped.reset(Mode::Training).expect("reset");
                boxed.reset(Mode::Training).expect("reset");
            }
        }
    }

    #[test]
    fn discrete_actions_outside_the_space_are_rejected(
        actions in prop::collection::vec(prop_oneof![3 => 0i64..4, 1 => any::<i64>()], 1..60),
        seed in any::<u64>(),
    ) {
        let mut cartpole = Simulator::new(CartPole::new(CartPoleParams::default()).expect("valid"), seed);
        let mut mountain_car = Simulator::new(MountainCar::new(MountainCarParams::default()).expect("valid"), seed);
        let mut acrobot = Simulator::new(Acrobot::new(AcrobotParams::default()).expect("valid"), seed);
        let mut gridworld = Simulator::new(GridWorld::builtin("4x12-CliffWorld", GridWorldParams::default()).expect("valid"), seed);
        let mut boxed: Vec<(i64, rl_core::BoxedEnvironment)> = ["CartPole-v1", "MountainCar-v0", "GridWorld-4x12-CliffWorld"]
            .into_iter()
            .zip([2, 3, 4])
            .map(|(id, n)| (n, registry::make(id, None).expect("registered")))
            .collect();
        cartpole.reset(Mode::Training).expect("reset");
        mountain_car.reset(Mode::Training).expect("reset");
        acrobot.reset(Mode::Training).expect("reset");
        gridworld.reset(Mode::Training).expect("reset");
        for (_, env) in &mut boxed {
            env.reset(Mode::Training).expect("reset");
        }
        for action in actions {
            for (n, result) in [
                (2, cartpole.step(&action).map(|o| o.is_done())),
                (3, mountain_car.step(&action).map(|o| o.is_done())),
                (3, acrobot.step(&action).map(|o| o.is_done())),
                (4, gridworld.step(&action).map(|o| o.is_done())),
            ] {
                if (0..n).contains(&action) {
                    prop_assert!(result.is_ok(), "{action} in Discrete({n}): {result:?}");
                } else {
                    prop_assert!(matches!(result, Err(CoreError::InvalidAction { .. })), "{action}: {result:?}");
                }
            }
            for (n, env) in &mut boxed {
                let result = env.step(&AnyElement::Int(action));
                if (0..*n).contains(&action) {
                    if result.expect("a valid action").is_done() {
                        env.reset(Mode::Training).expect("reset");
                    }
                } else {
                    prop_assert!(matches!(result, Err(CoreError::InvalidAction { .. })), "{action}: {result:?}");
                }
            }
            for env in [&mut cartpole as &mut dyn ResetIfDone, &mut mountain_car, &mut acrobot, &mut gridworld] {
                env.reset_if_done();
            }
        }
    }

    #[test]
    fn map_text_parses_or_names_the_place_of_the_error(
        lines in prop::collection::vec(
            prop::collection::vec(
                prop_oneof![
                    6 => prop_oneof![Just("0"), Just("1"), Just("2"), Just("3"), Just("4")],
                    1 => prop_oneof![Just("5"), Just("9"), Just("-1"), Just("x"), Just("1.5"), Just("99999999999999999999"), Just("é")],
                ],
                0..6,
            ),
            0..6,
        ),
        separators in prop::collection::vec(prop_oneof![Just(" "), Just("\t"), Just("  ")], 6),
        line_end in prop_oneof![Just("\n"), Just("\r\n")],
        final_newline in any::<bool>(),
    ) {
        let mut text = lines
            .iter()
            .enumerate()
            .map(|(index, tokens)| tokens.join(separators[index % separators.len()]))
            .collect::<Vec<_>>()
            .join(line_end);
        if final_newline {
            text.push_str(line_end);
        }
        match GridMap::parse(&text) {
            Ok(map) => {
                prop_assert_eq!(map.cell_count(), map.rows() * map.cols());
                prop_assert_eq!(map.kind(map.start()), Some(rl_domains::gridworld::CellKind::Start));
                prop_assert_eq!(GridMap::parse(&map.to_string()).expect("round trip"), map.clone());
                // A domain on any valid map steps without a panic.
                let mut env = Simulator::new(GridWorld::new(map, GridWorldParams::default()).expect("valid"), 0);
                env.reset(Mode::Training).expect("reset");
                for action in 0..4 {
                    if env.step(&action).expect("a step").is_done() {
                        env.reset(Mode::Training).expect("reset");
                    }
                }
            }
            Err(Error::InvalidMapToken { line, column, .. })
            | Err(Error::UnknownCellCode { line, column, .. })
            | Err(Error::AgentCellInMap { line, column }) => {
                prop_assert!(line >= 1 && line <= lines.len().max(1));
                prop_assert!(column >= 1);
            }
            Err(Error::RaggedMapRow { line, expected, found }) => {
                prop_assert!(line >= 2 && expected != found);
            }
            Err(Error::MissingStartCell) | Err(Error::EmptyMap) => {}
            Err(other) => prop_assert!(false, "unexpected error {other:?}"),
        }
    }

    #[test]
    fn arbitrary_text_is_never_a_panic(text in any::<String>()) {
        let _ = GridMap::parse(&text);
    }
}

/// Resets a simulator whose episode ended, so that the next step is valid again.
trait ResetIfDone {
    fn reset_if_done(&mut self);
}

impl<D: rl_core::Domain> ResetIfDone for Simulator<D> {
    fn reset_if_done(&mut self) {
        if !self.is_running() {
            self.reset(Mode::Training).expect("reset");
        }
    }
}

/// Fuzzing found a trace (input 489561 of the `trace` target) whose Acrobot state had an
/// angular velocity of 2^62: its step sent an angle to about 10^36 and wrapping it never
/// ended. Every step from such states now ends, with angles wrapped into [-pi, pi].
#[test]
fn acrobot_steps_from_huge_velocities_end() {
    use rand::SeedableRng;
    use rl_core::Domain;
    use rl_domains::acrobot::AcrobotState;
    let domain = Acrobot::new(AcrobotParams::default()).expect("valid");
    let mut rng = rl_core::NumpyGenerator::seed_from_u64(0);
    for velocity in [4_611_686_018_427_387_904.0, -1e30, 1e300, 3e17, f64::MAX] {
        for (index, state) in [
            [0.1, -0.2, 0.0, velocity],
            [0.1, -0.2, velocity, 0.0],
            [velocity, velocity, velocity, velocity],
        ]
        .into_iter()
        .enumerate()
        {
            let state = AcrobotState::from_array(state);
            for action in 0..3 {
                let next = domain
                    .step(&state, &action, Mode::Training, &mut rng)
                    .next_state;
                for angle in [next.theta1, next.theta2] {
                    assert!(
                        angle.is_nan()
                            || (-std::f64::consts::PI..=std::f64::consts::PI).contains(&angle),
                        "velocity {velocity}, state {index}, action {action}: angle {angle}"
                    );
                }
            }
        }
    }
}

/// Fuzz `step` input 476 (seed 1): MountainCarContinuous stepped with the force -547306.1.
/// Gymnasium accepts and clips such a finite action, so the environment must accept it (the
/// harness had flagged the acceptance itself, from before actions beyond the bounds were
/// clipped); what is owed is a finite reward and an observation inside the space.
#[test]
fn huge_finite_forces_are_accepted_and_clipped() {
    let mut env = registry::make("MountainCarContinuous-v0", None).expect("registered");
    env.reset(Mode::Training).expect("reset");
    let action = AnyElement::from(ndarray::arr1(&[-547_306.1f32]).into_dyn());
    assert!(env.accepts_action(&action));
    assert!(!env.action_space().contains(&action));
    let outcome = env
        .step(&action)
        .expect("a finite force is clipped, not refused");
    assert!(outcome.reward().is_finite());
    assert!(env.observation_space().contains(&outcome.observation));
    let nan = AnyElement::from(ndarray::arr1(&[f32::NAN]).into_dyn());
    assert!(!env.accepts_action(&nan));
    assert!(matches!(
        env.step(&nan),
        Err(CoreError::InvalidAction { .. })
    ));
}
