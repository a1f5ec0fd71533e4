//! The domain types beyond the reference traces: initial-state draws, modes, the metadata
//! RLPy agents read, deterministic transitions, GridWorld's expected-step switch, and
//! parameter validation.

use rand::{RngExt, SeedableRng};
use rl_core::NumpyGenerator;
use rl_core::{DeterministicTransitions, Domain, EnumerableTransitions, Mode};
use rl_domains::Error;
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
use rl_domains::gridworld::{
    ExpectedStepVariant, GridAction, GridCell, GridMap, GridWorld, GridWorldParams, STEP_REWARD,
};
use rl_domains::mountain_car::{MountainCar, MountainCarParams, MountainCarState};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousParams, MountainCarContinuousState, StatePrecision,
};
use rl_domains::pendulum::{Pendulum, PendulumParams, PendulumState};
use rl_spaces::{SampleSpace, Space};

#[test]
fn cartpole_resets_draw_numpy_uniforms_in_state_order() {
    for (low, high) in [(-0.05, 0.05), (-0.2, 0.1)] {
        let params = CartPoleParams {
            reset_low: low,
            reset_high: high,
            ..CartPoleParams::default()
        };
        let domain = CartPole::new(params).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(3);
        let mut replay = NumpyGenerator::seed_from_u64(3);
        for _ in 0..100 {
            let state = domain.initial_state(Mode::Training, &mut rng);
            let expected: [f64; 4] =
                std::array::from_fn(|_| low + (high - low) * replay.random::<f64>());
            assert_eq!(
                state.to_array().map(f64::to_bits),
                expected.map(f64::to_bits)
            );
            assert!(state.to_array().iter().all(|v| (low..high).contains(v)));
            assert!(domain.observation_space().contains(&domain.observe(&state)));
        }
    }
}

#[test]
fn mountain_car_resets_draw_the_position_and_rest() {
    let domain = MountainCar::new(MountainCarParams::default()).expect("valid");
    let mut rng = NumpyGenerator::seed_from_u64(4);
    let mut replay = NumpyGenerator::seed_from_u64(4);
    for _ in 0..100 {
        let state = domain.initial_state(Mode::Training, &mut rng);
        let position = -0.6 + (-0.4 - -0.6) * replay.random::<f64>();
        assert_eq!(state.position.to_bits(), position.to_bits());
        assert_eq!(state.velocity.to_bits(), 0.0f64.to_bits());
    }
    let rlpy = MountainCar::new(MountainCarParams::rlpy_style()).expect("valid");
    let state = rlpy.initial_state(Mode::Training, &mut rng);
    assert_eq!((state.position, state.velocity), (-0.5, 0.0));
    // RLPy's goal reward: 0 on the step that reaches the goal, -1 otherwise.
    let near = MountainCarState {
        position: 0.49,
        velocity: 0.05,
    };
    assert_eq!(
        rlpy.step(&near, &2, Mode::Training, &mut rng)
            .value
            .reward(),
        0.0
    );
    assert_eq!(
        domain
            .step(&near, &2, Mode::Training, &mut rng)
            .value
            .reward(),
        -1.0
    );

    let continuous =
        MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
    let state = continuous.initial_state(Mode::Training, &mut rng);
    assert_eq!(state.precision, StatePrecision::Float64);
    assert!((-0.6..-0.4).contains(&state.position) && state.velocity == 0.0);
}

#[test]
fn deterministic_transitions_equal_steps() {
    let mut rng = NumpyGenerator::seed_from_u64(5);
    let cartpole = CartPole::new(CartPoleParams::default()).expect("valid");
    let car = MountainCar::new(MountainCarParams::default()).expect("valid");
    let continuous =
        MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
    let pendulum = Pendulum::new(PendulumParams::default()).expect("valid");
    // `next` hands the step a generator that panics when drawn from: each of these steps
    // draws nothing, and gives with `next` what it gives with a generator.
    for _ in 0..200 {
        let state = CartPoleState::from_array(std::array::from_fn(|_| rng.random_range(-0.3..0.3)));
        let action = rng.random_range(0..2);
        assert_eq!(
            cartpole.next(&state, &action, Mode::Training),
            cartpole.step(&state, &action, Mode::Training, &mut rng)
        );
        let state = MountainCarState {
            position: rng.random_range(-1.2..0.6),
            velocity: rng.random_range(-0.07..0.07),
        };
        let action = rng.random_range(0..3);
        assert_eq!(
            car.next(&state, &action, Mode::Training),
            car.step(&state, &action, Mode::Training, &mut rng)
        );
        let state = MountainCarContinuousState::float32(
            rng.random_range(-1.2..0.6),
            rng.random_range(-0.07..0.07),
        );
        let action = continuous.action_space().sample(&mut rng);
        assert_eq!(
            continuous.next(&state, &action, Mode::Training),
            continuous.step(&state, &action, Mode::Training, &mut rng)
        );
        let state = PendulumState {
            theta: rng.random_range(-4.0..4.0),
            theta_dot: rng.random_range(-8.0..8.0),
        };
        let action = pendulum.action_space().sample(&mut rng);
        assert_eq!(
            pendulum.next(&state, &action, Mode::Training),
            pendulum.step(&state, &action, Mode::Training, &mut rng)
        );
    }
}

#[test]
fn metadata_follows_rlpy() {
    let cartpole = CartPole::new(CartPoleParams::default()).expect("valid");
    assert_eq!(cartpole.episode_cap(), Some(500));
    assert_eq!(cartpole.discount(), 1.0);
    assert_eq!(cartpole.continuous_dimensions(), [0, 1, 2, 3]);
    let limits = cartpole.state_space_limits().expect("limits");
    assert_eq!(limits[0], [-4.8f32 as f64, 4.8f32 as f64]);
    assert_eq!(limits[1], [f64::NEG_INFINITY, f64::INFINITY]);
    assert_eq!(cartpole.state_count(), None);

    let car = MountainCar::new(MountainCarParams::default()).expect("valid");
    assert_eq!(car.episode_cap(), Some(200));
    assert_eq!(
        car.state_space_limits(),
        Some(vec![[-1.2, 0.6], [-0.07, 0.07]])
    );
    let continuous =
        MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
    assert_eq!(continuous.episode_cap(), Some(999));

    let gridworld = GridWorld::builtin("4x5", GridWorldParams::default()).expect("valid");
    assert_eq!(gridworld.episode_cap(), Some(1000));
    assert_eq!(gridworld.discount(), 0.9);
    assert_eq!(gridworld.state_count(), Some(20));
    assert_eq!(
        gridworld.state_space_limits(),
        Some(vec![[0.0, 3.0], [0.0, 4.0]])
    );
    assert!(gridworld.continuous_dimensions().is_empty());
    assert_eq!(gridworld.state_index(GridCell::new(3, 0)), Some(15));
    assert_eq!(gridworld.cell_of_index(15), Some(GridCell::new(3, 0)));
    assert_eq!(gridworld.state_index(GridCell::new(4, 0)), None);
    assert_eq!(gridworld.cell_of_index(20), None);
    // The start [3, 0]: up is possible, down and left leave the grid, right enters a pit.
    let start = gridworld.map().start();
    let applicable: Vec<i64> = (0..4)
        .filter(|a| gridworld.is_applicable(&start, a))
        .collect();
    assert_eq!(applicable, [0, 3]);
    assert!(!gridworld.is_applicable(&start, &4));
    assert!(gridworld.is_terminal(&GridCell::new(3, 1)));
    assert!(!gridworld.is_terminal(&start));
}

#[test]
fn gridworld_noise_follows_the_mode() {
    let params = GridWorldParams {
        noise: 0.5,
        evaluation_noise: Some(0.0),
        ..GridWorldParams::default()
    };
    let map = GridMap::parse("0 0 0\n0 0 0\n2 0 3\n").expect("a map");
    let domain = GridWorld::new(map, params).expect("valid");
    let cell = GridCell::new(1, 1);
    let mut rng = NumpyGenerator::seed_from_u64(6);
    let up = i64::from(GridAction::Up);
    let intended = GridCell::new(0, 1);
    let evaluation = (0..500)
        .filter(|_| {
            domain
                .step(&cell, &up, Mode::EVALUATION, &mut rng)
                .next_state
                == intended
        })
        .count();
    assert_eq!(evaluation, 500);
    let training = (0..4000)
        .filter(|_| domain.step(&cell, &up, Mode::Training, &mut rng).next_state == intended)
        .count();
    // 0.5 + 0.5 / 4 of the steps go up.
    assert!(
        (training as f64 / 4000.0 - 0.625).abs() < 0.04,
        "{training}"
    );
    assert_eq!(domain.transitions(&cell, &up, Mode::EVALUATION).len(), 1);
    assert_eq!(domain.transitions(&cell, &up, Mode::Training).len(), 4);
}

#[test]
fn gridworld_expected_step_switch_picks_rlpy_or_corrected() {
    // From [0, 0] of 2x3 (0 0 0 / 2 1 3) up is blocked by the edge.
    let cell = GridCell::new(0, 0);
    let rlpy = GridWorld::builtin("2x3", GridWorldParams::default()).expect("valid");
    let quirk = rlpy.expected_step(cell, GridAction::Up, Mode::Training);
    let sum: f64 = quirk.iter().map(|outcome| outcome.probability).sum();
    assert!((sum - 0.1).abs() < 1e-12, "RLPy's quirk sums to the noise");
    let corrected = GridWorld::builtin(
        "2x3",
        GridWorldParams {
            expected_step: ExpectedStepVariant::Corrected,
            ..GridWorldParams::default()
        },
    )
    .expect("valid");
    let fixed = corrected.expected_step(cell, GridAction::Up, Mode::Training);
    let sum: f64 = fixed.iter().map(|outcome| outcome.probability).sum();
    assert!((sum - 1.0).abs() < 1e-12);
    // The transitions are the exact distribution either way.
    for domain in [&rlpy, &corrected] {
        let transitions = domain.transitions(&cell, &i64::from(GridAction::Up), Mode::Training);
        let stay = transitions
            .iter()
            .find(|t| t.next_state == cell)
            .expect("staying");
        assert!((stay.probability - 0.9).abs() < 1e-12);
        assert_eq!(stay.value.reward(), STEP_REWARD);
    }
}

#[test]
fn gridworld_out_of_space_actions_stay_in_place() {
    let domain = GridWorld::builtin("2x3", GridWorldParams::default()).expect("valid");
    let mut rng = NumpyGenerator::seed_from_u64(8);
    let cell = GridCell::new(0, 1);
    for action in [-1, 4, i64::MAX] {
        let outcome = domain.step(&cell, &action, Mode::Training, &mut rng);
        assert_eq!(outcome.next_state, cell);
        let transitions = domain.transitions(&cell, &action, Mode::Training);
        assert_eq!(transitions.len(), 1);
        assert_eq!(transitions[0].probability, 1.0);
    }
}

#[test]
fn constructors_validate_parameters() {
    let bad_cartpole = [
        CartPoleParams {
            masspole: 0.0,
            ..CartPoleParams::default()
        },
        CartPoleParams {
            reset_low: -0.5,
            ..CartPoleParams::default()
        },
        CartPoleParams {
            x_threshold: f64::INFINITY,
            ..CartPoleParams::default()
        },
    ];
    for params in bad_cartpole {
        assert!(
            matches!(CartPole::new(params), Err(Error::InvalidParameter { .. })),
            "{params:?}"
        );
    }
    let bad_car = MountainCarParams {
        reset_low: -1.5,
        ..MountainCarParams::default()
    };
    assert!(matches!(
        MountainCar::new(bad_car),
        Err(Error::InvalidParameter {
            parameter: "reset_low",
            ..
        })
    ));
    let bad_car = MountainCarParams {
        goal_reward: f64::NAN,
        ..MountainCarParams::default()
    };
    assert!(MountainCar::new(bad_car).is_err());
    let bad_continuous = MountainCarContinuousParams {
        reset_high: 0.7,
        ..MountainCarContinuousParams::default()
    };
    assert!(MountainCarContinuous::new(bad_continuous).is_err());
    let bad_grid = GridWorldParams {
        discount_factor: 1.1,
        ..GridWorldParams::default()
    };
    assert!(GridWorld::builtin("4x5", bad_grid).is_err());
    assert!(matches!(
        GridWorld::builtin("5x5", GridWorldParams::default()),
        Err(Error::UnknownBuiltinMap { .. })
    ));
    // A threshold beyond the physical range is refused (issue 17: the state must stay
    // finite); a large one inside it leaves Gymnasium's dynamics, so the space is unbounded.
    let too_wide = CartPoleParams {
        x_threshold: 1e300,
        ..CartPoleParams::default()
    };
    assert!(CartPole::new(too_wide).is_err());
    let wide = CartPoleParams {
        x_threshold: 1e6,
        ..CartPoleParams::default()
    };
    let domain = CartPole::new(wide).expect("valid");
    assert_eq!(domain.observation_space().high()[0], f32::INFINITY);
}
