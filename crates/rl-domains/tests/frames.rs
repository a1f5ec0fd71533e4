//! RGB frames: pixel colours at known positions (the cart, the pole, the goal flag, the car,
//! the agent's cell, goals and pits, Acrobot's links, joints and goal line, Pendulum's rod,
//! axle and torque arrow), frames that differ when the state differs and agree for
//! equal states, any frame size, and every registered id drawing through the registry.

use rl_core::{Environment, Frame, FrameEnvironment, Mode, RenderFrame};
use rl_domains::acrobot::{Acrobot, AcrobotParams, AcrobotState};
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
use rl_domains::frames::{acrobot, cartpole, gridworld, mountain_car, pendulum};
use rl_domains::gridworld::{CellKind, GridCell, GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams, MountainCarState};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousParams, MountainCarContinuousState,
};
use rl_domains::pendulum::{Pendulum, PendulumParams, PendulumState};
use rl_spaces::{AnyElement, TrySampleSpace};

fn pixel_at(frame: &Frame, (x, y): (f64, f64)) -> [u8; 3] {
    frame
        .pixel(x.floor() as u32, y.floor() as u32)
        .unwrap_or_else(|| panic!("({x}, {y}) is outside the frame"))
}

fn cartpole() -> CartPole {
    CartPole::new(CartPoleParams::default()).expect("the defaults are valid")
}

#[test]
fn cartpole_frame_shows_cart_pole_axle_and_track() {
    let domain = cartpole();
    let state = CartPoleState::from_array([0.8, 0.0, 0.15, 0.0]);
    let frame = domain.frame(&state);
    assert_eq!((frame.width(), frame.height()), (600, 400));
    assert_eq!(frame.as_array().shape(), &[400, 600, 3]);
    assert_eq!(frame.pixels().len(), 600 * 400 * 3);

    // The cart: 0.8 * 125 + 300 = 400 pixels from the left, its middle 100 from the bottom
    // (pixel centres, as pygame counts them).
    let (cart_x, cart_y) = cartpole::cart_centre(&domain, &state, 600, 400);
    assert_eq!((cart_x, cart_y), (400.5, 299.5));
    assert_eq!(pixel_at(&frame, (cart_x, cart_y + 10.0)), cartpole::CART);
    assert_eq!(
        pixel_at(&frame, (cart_x - 20.0, cart_y + 10.0)),
        cartpole::CART
    );
    // Left and right of the cart, below the track: background.
    assert_eq!(
        pixel_at(&frame, (cart_x - 40.0, cart_y + 10.0)),
        cartpole::BACKGROUND
    );
    assert_eq!(
        pixel_at(&frame, (cart_x + 40.0, cart_y + 10.0)),
        cartpole::BACKGROUND
    );
    // The axle, 7.5 pixels above the cart's middle.
    assert_eq!(pixel_at(&frame, (cart_x, cart_y - 7.5)), cartpole::AXLE);
    // The pole leans right by 0.15 rad: 80 pixels along it from the axle.
    let along = 80.0;
    let pole = (
        cart_x + along * 0.15f64.sin(),
        292.5 - along * 0.15f64.cos(),
    );
    assert_eq!(pixel_at(&frame, pole), cartpole::POLE);
    // Mirrored to the left it is background.
    let mirrored = (cart_x - along * 0.15f64.sin(), pole.1);
    assert_eq!(pixel_at(&frame, mirrored), cartpole::BACKGROUND);
    // The track runs the whole width, 100 pixels above the bottom; the corners are white.
    assert_eq!(pixel_at(&frame, (10.0, cart_y)), cartpole::CART);
    assert_eq!(pixel_at(&frame, (590.0, cart_y)), cartpole::CART);
    assert_eq!(pixel_at(&frame, (10.0, 10.0)), cartpole::BACKGROUND);
    assert_eq!(pixel_at(&frame, (590.0, 390.0)), cartpole::BACKGROUND);
}

#[test]
fn frames_are_a_function_of_the_state() {
    let domain = cartpole();
    let state = CartPoleState::from_array([0.1, 0.2, -0.05, 0.3]);
    let first = domain.frame(&state);
    let again = domain.frame(&state);
    assert_eq!(first, again);
    // Drawing into a dirty frame of the same size gives the same bytes.
    let mut dirty = Frame::new(600, 400).expect("a valid size");
    dirty.pixels_mut().fill(77);
    domain.draw_frame(&state, &mut dirty);
    assert_eq!(dirty, first);
    // Velocities are not drawn; positions and angles are.
    let moved = CartPoleState::from_array([0.3, 0.2, -0.05, 0.3]);
    assert_ne!(domain.frame(&moved), first);
    let tilted = CartPoleState::from_array([0.1, 0.2, 0.05, 0.3]);
    assert_ne!(domain.frame(&tilted), first);
    let faster = CartPoleState::from_array([0.1, 1.2, -0.05, -0.3]);
    assert_eq!(domain.frame(&faster), first);
}

#[test]
fn frames_draw_at_any_size() {
    let domain = cartpole();
    let state = CartPoleState::from_array([-1.0, 0.0, 0.0, 0.0]);
    for (width, height) in [(84, 84), (1, 1), (1200, 800), (64, 200)] {
        let mut frame = Frame::new(width, height).expect("a valid size");
        domain.draw_frame(&state, &mut frame);
        assert_eq!(
            frame.as_array().shape(),
            &[height as usize, width as usize, 3]
        );
        if width >= 64 {
            let (x, y) = cartpole::cart_centre(&domain, &state, width, height);
            let below = y + 5.0 * f64::from(height) / 400.0;
            assert_eq!(
                pixel_at(&frame, (x, below)),
                cartpole::CART,
                "{width}x{height}"
            );
        }
    }
}

#[test]
fn mountain_car_frame_shows_the_flag_and_the_car() {
    let domain = MountainCar::new(MountainCarParams::default()).expect("the defaults are valid");
    let state = MountainCarState {
        position: -0.5,
        velocity: 0.0,
    };
    let frame = domain.frame(&state);
    assert_eq!((frame.width(), frame.height()), (600, 400));
    // Inside the flag, a few pixels left of its tip.
    let (tip_x, tip_y) = mountain_car::flag_tip(-1.2, 0.6, 0.5, 600, 400);
    assert_eq!(pixel_at(&frame, (tip_x - 8.0, tip_y)), mountain_car::FLAG);
    // Right of the tip and above the flag: background.
    assert_eq!(
        pixel_at(&frame, (tip_x + 6.0, tip_y)),
        mountain_car::BACKGROUND
    );
    assert_eq!(
        pixel_at(&frame, (tip_x - 8.0, tip_y - 12.0)),
        mountain_car::BACKGROUND
    );
    // The car's middle is black.
    let car = mountain_car::car_centre(-1.2, 0.6, -0.5, 600, 400);
    assert_eq!(pixel_at(&frame, car), mountain_car::CAR);
    // The car moves with the position; the flag stays.
    let right = domain.frame(&MountainCarState {
        position: 0.2,
        velocity: 0.0,
    });
    assert_ne!(right, frame);
    assert_eq!(pixel_at(&right, car), mountain_car::BACKGROUND);
    assert_eq!(pixel_at(&right, (tip_x - 8.0, tip_y)), mountain_car::FLAG);
    let car = mountain_car::car_centre(-1.2, 0.6, 0.2, 600, 400);
    assert_eq!(pixel_at(&right, car), mountain_car::CAR);
}

#[test]
fn mountain_car_continuous_frame_puts_the_flag_at_its_goal() {
    let domain = MountainCarContinuous::new(MountainCarContinuousParams::default())
        .expect("the defaults are valid");
    let state = MountainCarContinuousState::float64(-0.5, 0.0);
    let frame = domain.frame(&state);
    let (tip_x, tip_y) = mountain_car::flag_tip(-1.2, 0.6, 0.45, 600, 400);
    assert_eq!(pixel_at(&frame, (tip_x - 8.0, tip_y)), mountain_car::FLAG);
    let car = mountain_car::car_centre(-1.2, 0.6, -0.5, 600, 400);
    assert_eq!(pixel_at(&frame, car), mountain_car::CAR);
}

#[test]
fn acrobot_frame_shows_links_joints_and_goal_line() {
    let domain = Acrobot::new(AcrobotParams::default()).expect("the defaults are valid");
    // Hanging straight down.
    let down = AcrobotState::from_array([0.0, 0.0, 0.0, 0.0]);
    let frame = domain.frame(&down);
    assert_eq!((frame.width(), frame.height()), (500, 500));
    assert_eq!(frame.as_array().shape(), &[500, 500, 3]);
    // The pivot in the middle (pixel centres, as pygame counts them), the elbow 500 / 4.4
    // pixels below it.
    let pivot = acrobot::chain_point(&down, 0.0, 500, 500);
    assert_eq!(pivot, (250.5, 249.5));
    let elbow = acrobot::chain_point(&down, 1.0, 500, 500);
    assert!((elbow.0 - 250.5).abs() < 1e-9 && (elbow.1 - (249.5 + 500.0 / 4.4)).abs() < 1e-9);
    assert_eq!(pixel_at(&frame, pivot), acrobot::JOINT);
    assert_eq!(pixel_at(&frame, elbow), acrobot::JOINT);
    // Both links, half way along each, and beside them the background.
    for distance in [0.5, 1.5, 1.9] {
        let (x, y) = acrobot::chain_point(&down, distance, 500, 500);
        assert_eq!(pixel_at(&frame, (x, y)), acrobot::LINK, "{distance}");
        assert_eq!(pixel_at(&frame, (x - 8.0, y)), acrobot::LINK, "{distance}");
        assert_eq!(
            pixel_at(&frame, (x - 20.0, y)),
            acrobot::BACKGROUND,
            "{distance}"
        );
        assert_eq!(
            pixel_at(&frame, (x + 20.0, y)),
            acrobot::BACKGROUND,
            "{distance}"
        );
    }
    // The goal line at height 1, 500 / 4.4 pixels above the pivot, across the whole width;
    // a few rows above and below it, the background.
    let row = acrobot::goal_line_row(500);
    assert!((row - (249.5 - 500.0 / 4.4)).abs() < 1.0, "{row}");
    for x in [2.0, 100.0, 250.0, 498.0] {
        assert_eq!(pixel_at(&frame, (x, row)), acrobot::GOAL_LINE, "{x}");
        assert_eq!(pixel_at(&frame, (x, row - 3.0)), acrobot::BACKGROUND, "{x}");
        assert_eq!(pixel_at(&frame, (x, row + 3.0)), acrobot::BACKGROUND, "{x}");
    }
    assert_eq!(pixel_at(&frame, (10.0, 490.0)), acrobot::BACKGROUND);

    // The first link turned a quarter turn counter-clockwise points right, the second link
    // turned a further quarter turn points straight up from the elbow.
    let quarter = std::f64::consts::FRAC_PI_2;
    let bent = AcrobotState::from_array([quarter, quarter, 0.0, 0.0]);
    let bent_frame = domain.frame(&bent);
    assert_ne!(bent_frame, frame);
    let right = acrobot::chain_point(&bent, 0.5, 500, 500);
    assert!((right.0 - (250.5 + 250.0 / 4.4)).abs() < 1e-9 && (right.1 - 249.5).abs() < 1e-9);
    assert_eq!(pixel_at(&bent_frame, right), acrobot::LINK);
    assert_eq!(pixel_at(&frame, right), acrobot::BACKGROUND);
    let hanging = acrobot::chain_point(&down, 0.5, 500, 500);
    assert_eq!(pixel_at(&bent_frame, hanging), acrobot::BACKGROUND);
    let rising = acrobot::chain_point(&bent, 1.5, 500, 500);
    assert!((rising.0 - (250.5 + 500.0 / 4.4)).abs() < 1e-9 && rising.1 < right.1 - 50.0);
    assert_eq!(pixel_at(&bent_frame, rising), acrobot::LINK);
    let bent_elbow = acrobot::chain_point(&bent, 1.0, 500, 500);
    assert_eq!(pixel_at(&bent_frame, bent_elbow), acrobot::JOINT);
    // Straight up, the tip is above the goal line, and the chain is drawn over the line.
    let upright = AcrobotState::from_array([std::f64::consts::PI, 0.0, 0.0, 0.0]);
    let upright_frame = domain.frame(&upright);
    let high = acrobot::chain_point(&upright, 1.9, 500, 500);
    assert!(
        high.1 < row - 5.0,
        "the tip at {high:?} is above the goal line"
    );
    assert_eq!(pixel_at(&upright_frame, high), acrobot::LINK);
    // The elbow, one link above the pivot, sits on the goal line, over it.
    assert_eq!(pixel_at(&upright_frame, (250.5, row)), acrobot::JOINT);
    assert_eq!(pixel_at(&upright_frame, (100.0, row)), acrobot::GOAL_LINE);
}

#[test]
fn acrobot_frames_are_a_function_of_the_angles() {
    let domain = Acrobot::new(AcrobotParams::default()).expect("the defaults are valid");
    let state = AcrobotState::from_array([0.3, -0.7, 1.0, -2.0]);
    let first = domain.frame(&state);
    assert_eq!(domain.frame(&state), first);
    let mut dirty = Frame::new(500, 500).expect("a valid size");
    dirty.pixels_mut().fill(77);
    domain.draw_frame(&state, &mut dirty);
    assert_eq!(dirty, first);
    // Velocities are not drawn; either angle is.
    let faster = AcrobotState::from_array([0.3, -0.7, -3.0, 5.0]);
    assert_eq!(domain.frame(&faster), first);
    let swung = AcrobotState::from_array([0.5, -0.7, 1.0, -2.0]);
    assert_ne!(domain.frame(&swung), first);
    let bent = AcrobotState::from_array([0.3, -0.4, 1.0, -2.0]);
    assert_ne!(domain.frame(&bent), first);
    // Any size: a small frame still shows the first link.
    let mut small = Frame::new(84, 84).expect("a valid size");
    let down = AcrobotState::default();
    domain.draw_frame(&down, &mut small);
    let (x, y) = acrobot::chain_point(&down, 0.6, 84, 84);
    assert_eq!(pixel_at(&small, (x, y)), acrobot::LINK);
}

#[test]
fn pendulum_frame_shows_rod_and_axle() {
    let domain = Pendulum::new(PendulumParams::default()).expect("the defaults are valid");
    // Upright.
    let upright = PendulumState {
        theta: 0.0,
        theta_dot: 0.0,
    };
    let frame = domain.frame(&upright);
    assert_eq!((frame.width(), frame.height()), (500, 500));
    assert_eq!(frame.as_array().shape(), &[500, 500, 3]);
    let pivot = pendulum::rod_point(&upright, 0.0, 500, 500);
    assert_eq!(pivot, (250.5, 249.5));
    assert_eq!(pixel_at(&frame, pivot), pendulum::AXLE);
    // The rod's end is 500 / 4.4 pixels above the pivot.
    let end = pendulum::rod_point(&upright, 1.0, 500, 500);
    assert!((end.0 - 250.5).abs() < 1e-9 && (end.1 - (249.5 - 500.0 / 4.4)).abs() < 1e-9);
    assert_eq!(pixel_at(&frame, end), pendulum::ROD);
    for distance in [0.3, 0.5, 0.9] {
        let (x, y) = pendulum::rod_point(&upright, distance, 500, 500);
        assert_eq!(pixel_at(&frame, (x, y)), pendulum::ROD, "{distance}");
        assert_eq!(pixel_at(&frame, (x + 8.0, y)), pendulum::ROD, "{distance}");
        assert_eq!(
            pixel_at(&frame, (x + 20.0, y)),
            pendulum::BACKGROUND,
            "{distance}"
        );
        // Below the pivot, where the rod points when hanging down: the background.
        let below = (x, 2.0 * pivot.1 - y);
        assert_eq!(pixel_at(&frame, below), pendulum::BACKGROUND, "{distance}");
    }
    assert_eq!(pixel_at(&frame, (10.0, 10.0)), pendulum::BACKGROUND);
    assert_eq!(pixel_at(&frame, (490.0, 490.0)), pendulum::BACKGROUND);

    // A quarter turn counter-clockwise points the rod left.
    let left = PendulumState {
        theta: std::f64::consts::FRAC_PI_2,
        theta_dot: 0.0,
    };
    let left_frame = domain.frame(&left);
    assert_ne!(left_frame, frame);
    let (x, y) = pendulum::rod_point(&left, 0.5, 500, 500);
    assert!((x - (250.5 - 250.0 / 4.4)).abs() < 1e-9 && (y - 249.5).abs() < 1e-9);
    assert_eq!(pixel_at(&left_frame, (x, y)), pendulum::ROD);
    assert_eq!(pixel_at(&frame, (x, y)), pendulum::BACKGROUND);
    assert_eq!(
        pixel_at(&left_frame, (2.0 * pivot.0 - x, y)),
        pendulum::BACKGROUND
    );
    let up = pendulum::rod_point(&upright, 0.5, 500, 500);
    assert_eq!(pixel_at(&left_frame, up), pendulum::BACKGROUND);
}

#[test]
fn pendulum_frames_are_a_function_of_the_angle() {
    let domain = Pendulum::new(PendulumParams::default()).expect("the defaults are valid");
    let state = PendulumState {
        theta: 2.0,
        theta_dot: 1.0,
    };
    let first = domain.frame(&state);
    assert_eq!(domain.frame(&state), first);
    let mut dirty = Frame::new(500, 500).expect("a valid size");
    dirty.pixels_mut().fill(77);
    domain.draw_frame(&state, &mut dirty);
    assert_eq!(dirty, first);
    let faster = PendulumState {
        theta: 2.0,
        theta_dot: -6.0,
    };
    assert_eq!(domain.frame(&faster), first);
    let turned = PendulumState {
        theta: 2.2,
        theta_dot: 1.0,
    };
    assert_ne!(domain.frame(&turned), first);
    // The angle is not wrapped in the state; the picture is the same a full turn later.
    let around = PendulumState {
        theta: 2.0 + 2.0 * std::f64::consts::PI,
        theta_dot: 1.0,
    };
    let around_frame = domain.frame(&around);
    let differing = around_frame
        .pixels()
        .iter()
        .zip(first.pixels())
        .filter(|(a, b)| a.abs_diff(**b) > 2)
        .count();
    assert!(differing < 50, "{differing} bytes differ a full turn later");
}

#[test]
fn pendulum_built_by_id_draws_the_last_torque_and_steps_exactly_as_its_simulator() {
    use rl_core::Simulator;
    use rl_spaces::DynamicSpace;

    let registered = rl_domains::registry::build("Pendulum-v1", None).expect("a built-in id");
    let mut env = registered.frame_environment(4).expect("frames by id");
    // The plain simulator of the same domain and seed: the same states, frames without arrow.
    let typed = Pendulum::new(PendulumParams::default()).expect("the defaults are valid");
    let mut simulator = Simulator::new(typed.clone(), 4);
    let space = *rl_core::Domain::action_space(&typed);
    let mut frame = Frame::new(500, 500).expect("a valid size");
    let mut plain = Frame::new(500, 500).expect("a valid size");

    let first = env.reset(Mode::Training).expect("reset");
    let typed_first = simulator.reset(Mode::Training).expect("reset");
    assert_eq!(first, registered_observation(&typed, &typed_first));
    env.render_frame(&mut frame).expect("a frame after reset");
    simulator
        .render_frame(&mut plain)
        .expect("a frame after reset");
    assert_eq!(
        frame, plain,
        "no arrow before the first step, as Gymnasium's last_u = None"
    );

    for torque in [2.0f32, -2.0, 0.0, 3.0, 0.75, -1.25] {
        let outcome = env.step(&space.element_to_any(&[torque])).expect("a step");
        let typed_outcome = simulator.step(&[torque]).expect("a step");
        // The torque is drawn, and nothing else changes: the same observation, reward, flags.
        assert_eq!(
            outcome.observation,
            registered_observation(&typed, &typed_outcome.observation)
        );
        assert_eq!(outcome.reward().to_bits(), typed_outcome.reward().to_bits());
        assert_eq!(
            (outcome.terminated, outcome.truncated),
            (typed_outcome.terminated, typed_outcome.truncated)
        );
        env.render_frame(&mut frame).expect("a frame");
        simulator.render_frame(&mut plain).expect("a frame");
        let state = simulator.state().expect("a running episode");
        let mut expected = Frame::new(500, 500).expect("a valid size");
        pendulum::draw_frame_with_torque(state, f64::from(torque), &mut expected);
        assert_eq!(frame, expected, "torque {torque}");
        match (
            pendulum::arrow_top(f64::from(torque), 500, 500),
            pendulum::arrow_head_centre(f64::from(torque), 500, 500),
        ) {
            (Some(top), Some(head)) => {
                assert_ne!(frame, plain, "torque {torque} draws an arrow");
                assert_eq!(pixel_at(&frame, top), pendulum::ARROW, "torque {torque}");
                assert_eq!(pixel_at(&frame, head), pendulum::ARROW, "torque {torque}");
                assert_ne!(pixel_at(&plain, top), pendulum::ARROW, "torque {torque}");
            }
            _ => {
                assert_eq!(torque, 0.0);
                assert_eq!(frame, plain, "a zero torque draws no arrow");
            }
        }
    }
    // A rejected action (NaN; a finite torque beyond the bounds is clipped, as Gymnasium
    // clips it) leaves the last torque (here -1.25) as it was.
    assert!(env.step(&space.element_to_any(&[f32::NAN])).is_err());
    env.render_frame(&mut frame).expect("a frame");
    let top = pendulum::arrow_top(-1.25, 500, 500).expect("an arrow");
    assert_eq!(pixel_at(&frame, top), pendulum::ARROW);
    // A new episode forgets it.
    env.reset(Mode::Training).expect("reset");
    simulator.reset(Mode::Training).expect("reset");
    env.render_frame(&mut frame).expect("a frame");
    simulator.render_frame(&mut plain).expect("a frame");
    assert_eq!(frame, plain);
}

/// `observation` as an environment built by id gives it.
fn registered_observation(domain: &Pendulum, observation: &[f32; 3]) -> AnyElement {
    use rl_core::Domain;
    use rl_spaces::DynamicSpace;
    domain.observation_space().element_to_any(observation)
}

#[test]
fn pendulum_torque_arrow_turns_with_the_torque_and_grows_with_it() {
    let domain = Pendulum::new(PendulumParams::default()).expect("the defaults are valid");
    // Hanging down, so the arrow's top (above the axle) is clear of the rod.
    let state = PendulumState {
        theta: std::f64::consts::PI,
        theta_dot: 0.0,
    };
    let plain = domain.frame(&state);
    // No torque, or a torque that is not a number: no arrow, the frame of the state.
    for torque in [0.0, f64::NAN, f64::INFINITY] {
        let mut frame = Frame::new(500, 500).expect("a valid size");
        pendulum::draw_frame_with_torque(&state, torque, &mut frame);
        assert_eq!(frame, plain, "{torque}");
        assert_eq!(pendulum::arrow_head_centre(torque, 500, 500), None);
        assert_eq!(pendulum::arrow_top(torque, 500, 500), None);
    }
    let draw = |torque: f64| {
        let mut frame = Frame::new(500, 500).expect("a valid size");
        pendulum::draw_frame_with_torque(&state, torque, &mut frame);
        frame
    };
    let positive = draw(2.0);
    let negative = draw(-2.0);
    assert_ne!(positive, plain);
    assert_ne!(negative, plain);
    assert_ne!(positive, negative);
    // The rod is still drawn under the arrow.
    let rod = pendulum::rod_point(&state, 0.6, 500, 500);
    assert_eq!(pixel_at(&positive, rod), pendulum::ROD);
    // Both arcs pass over the top; the heads point opposite ways, at mirrored places.
    let top = pendulum::arrow_top(2.0, 500, 500).expect("an arrow");
    assert_eq!(pendulum::arrow_top(-2.0, 500, 500), Some(top));
    assert_eq!(pixel_at(&positive, top), pendulum::ARROW);
    assert_eq!(pixel_at(&negative, top), pendulum::ARROW);
    assert_eq!(pixel_at(&plain, top), pendulum::BACKGROUND);
    let counter_clockwise = pendulum::arrow_head_centre(2.0, 500, 500).expect("an arrow");
    let clockwise = pendulum::arrow_head_centre(-2.0, 500, 500).expect("an arrow");
    // A positive torque turns counter-clockwise: its head ends the arc on the left.
    assert!(counter_clockwise.0 < 250.0 && clockwise.0 > 251.0);
    assert!((counter_clockwise.0 + clockwise.0 - 501.0).abs() < 1e-9);
    assert!((counter_clockwise.1 - clockwise.1).abs() < 1e-9);
    assert_eq!(pixel_at(&positive, counter_clockwise), pendulum::ARROW);
    assert_eq!(pixel_at(&positive, clockwise), pendulum::BACKGROUND);
    assert_eq!(pixel_at(&negative, clockwise), pendulum::ARROW);
    assert_eq!(pixel_at(&negative, counter_clockwise), pendulum::BACKGROUND);
    // Half the torque, half the arrow: its top is nearer the axle, the big one's is clear.
    let half = draw(1.0);
    let small_top = pendulum::arrow_top(1.0, 500, 500).expect("an arrow");
    let pivot = pendulum::rod_point(&state, 0.0, 500, 500);
    assert!(((pivot.1 - small_top.1) * 2.0 - (pivot.1 - top.1)).abs() < 1e-9);
    assert_eq!(pixel_at(&half, small_top), pendulum::ARROW);
    assert_eq!(pixel_at(&half, top), pendulum::BACKGROUND);
    // Torques past the limit are clipped to it, as Gymnasium's are.
    assert_eq!(draw(50.0), positive);
    assert_eq!(draw(-1e300), negative);
}

#[test]
fn every_gridworld_map_shows_agent_goals_and_pits() {
    for name in rl_domains::gridworld::GridMap::builtin_names() {
        let domain = GridWorld::builtin(name, GridWorldParams::default()).expect("a built-in map");
        let map = domain.map();
        let start = map.start();
        let frame = domain.frame(&start);
        let (width, height) = (frame.width(), frame.height());
        assert_eq!(
            (width, height),
            (48 * map.cols() as u32, 48 * map.rows() as u32),
            "{name}"
        );
        let centre = gridworld::cell_centre(&domain, start, width, height);
        assert_eq!(pixel_at(&frame, centre), gridworld::AGENT, "{name}: agent");
        // Near the start cell's corner, outside the agent's disc: the start colour.
        let corner = (centre.0 - 18.0, centre.1 - 18.0);
        assert_eq!(pixel_at(&frame, corner), gridworld::START, "{name}: start");
        for (index, kind) in map.cells().iter().enumerate() {
            let cell = GridCell::new(index / map.cols(), index % map.cols());
            if cell == start {
                continue;
            }
            let centre = gridworld::cell_centre(&domain, cell, width, height);
            let expected = gridworld::cell_colour(*kind);
            assert_eq!(
                pixel_at(&frame, centre),
                expected,
                "{name}: {cell:?} {kind:?}"
            );
        }
    }
}

#[test]
fn gridworld_agent_moves_between_cells() {
    let domain = GridWorld::builtin("4x5", GridWorldParams::default()).expect("a built-in map");
    let map = domain.map();
    let start = map.start();
    let goal = (0..map.cell_count())
        .map(|index| GridCell::new(index / map.cols(), index % map.cols()))
        .find(|cell| map.kind(*cell) == Some(CellKind::Goal))
        .expect("the 4x5 map has a goal");
    let at_start = domain.frame(&start);
    let at_goal = domain.frame(&goal);
    assert_ne!(at_start, at_goal);
    let (width, height) = (at_goal.width(), at_goal.height());
    let goal_centre = gridworld::cell_centre(&domain, goal, width, height);
    assert_eq!(pixel_at(&at_goal, goal_centre), gridworld::AGENT);
    assert_eq!(pixel_at(&at_start, goal_centre), gridworld::GOAL);
    let start_centre = gridworld::cell_centre(&domain, start, width, height);
    assert_eq!(pixel_at(&at_goal, start_centre), gridworld::START);
}

#[test]
fn every_registered_id_draws_frames_by_id() {
    for id in rl_domains::registry::ids() {
        let domain = rl_domains::registry::build(&id, None).expect("a built-in id builds");
        let (width, height) = domain
            .frame_size()
            .unwrap_or_else(|| panic!("{id} has frames"));
        let mut first = Frame::new(width, height).expect("a valid size");
        domain.draw_frame(3, &mut first).expect("frames by id");
        let mut again = Frame::new(width, height).expect("a valid size");
        domain.draw_frame(3, &mut again).expect("frames by id");
        assert_eq!(first, again, "{id}: the same seed draws the same frame");
        let distinct = first
            .pixels()
            .chunks_exact(3)
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        assert!(distinct >= 3, "{id}: a frame of {distinct} colours");

        // An environment with frames: the frame follows its state.
        let mut env = domain.frame_environment(11).expect("frames by id");
        assert_eq!(env.frame_size(), (width, height));
        let mut frame = Frame::new(width, height).expect("a valid size");
        assert!(env.render_frame(&mut frame).is_err(), "{id}: before reset");
        env.reset(Mode::Training).expect("reset");
        env.render_frame(&mut frame).expect("after reset");
        let initial = frame.clone();
        let mut changed = false;
        let mut rng = <rl_core::NumpyGenerator as rand::SeedableRng>::seed_from_u64(5);
        // Until the picture changes (a frame in debug builds costs milliseconds).
        for _ in 0..20 {
            let action = env
                .action_space()
                .try_sample(&mut rng)
                .unwrap_or(AnyElement::Int(0));
            let outcome = env.step(&action).expect("a step");
            env.render_frame(&mut frame).expect("a frame");
            changed |= frame != initial;
            if changed || outcome.is_done() {
                break;
            }
        }
        if !id.starts_with("GridWorld-") {
            assert!(changed, "{id}: twenty steps change the picture");
        }
    }
}

/// Issue 40 item 5: the largest maps FrozenLake and GridWorld accept draw frames of bounded
/// size, as their references bound them (Gymnasium's FrozenLake window is at most 512 pixels a
/// side, whatever the map; RLPy draws GridWorld in one figure), and are drawn.
#[test]
fn the_largest_maps_draw_frames_of_bounded_size() {
    use rl_domains::frames::gridworld::GRID_MAX_FRAME_SIDE;
    use rl_domains::frames::toy_text::FROZEN_LAKE_MAX_SIDE;
    use rl_domains::gridworld::GridMap;
    use rl_domains::toy_text::frozen_lake::{FrozenLake, FrozenLakeParams, MAX_CELLS};

    let side = (MAX_CELLS as f64).sqrt() as usize;
    let mut square: Vec<String> = vec!["F".repeat(side); side];
    square[0].replace_range(0..1, "S");
    let mut long = "F".repeat(MAX_CELLS);
    long.replace_range(0..1, "S");
    for (name, desc, expected) in [
        ("the largest square map", square, (512, 512)),
        ("the longest row", vec![long], (512, 64)),
    ] {
        let lake = FrozenLake::new(FrozenLakeParams {
            desc: Some(desc),
            ..FrozenLakeParams::default()
        })
        .expect("a map of MAX_CELLS tiles is accepted");
        let (width, height) = lake.frame_size();
        assert_eq!((width, height), expected, "FrozenLake, {name}");
        assert!(width <= FROZEN_LAKE_MAX_SIDE && height <= FROZEN_LAKE_MAX_SIDE);
        let frame = lake.frame(&0);
        assert_eq!(
            (frame.width(), frame.height()),
            expected,
            "FrozenLake, {name}"
        );
        if height == 512 {
            // 2 pixels a cell: the agent shows (on the row of 65536, a cell is a fraction of a
            // pixel, as Gymnasium's `512 // 65536`-pixel cells are).
            assert_ne!(
                frame,
                lake.frame(&1),
                "FrozenLake, {name}: the frame shows the agent"
            );
        }
    }
    // Gymnasium's cell size for the built-in maps is kept: 64 pixels.
    let eight = FrozenLake::new(FrozenLakeParams::eight_by_eight()).unwrap();
    assert_eq!(eight.frame_size(), (512, 512));
    assert_eq!(
        FrozenLake::new(FrozenLakeParams::default())
            .unwrap()
            .frame_size(),
        (256, 256)
    );

    // GridWorld's largest map, 1024 by 1024 cells (MAX_MAP_CELLS), as text.
    let row = format!("{}\n", vec!["0"; 1024].join(" "));
    let mut first = vec!["0"; 1024];
    (first[0], first[1023]) = ("2", "3");
    let mut text = format!("{}\n", first.join(" "));
    text.push_str(&row.repeat(1023));
    let map = GridMap::parse(&text).expect("the largest map parses");
    let world = GridWorld::new(map, GridWorldParams::default()).expect("the largest map builds");
    assert_eq!(
        world.frame_size(),
        (GRID_MAX_FRAME_SIDE, GRID_MAX_FRAME_SIDE)
    );
    let start = GridCell::new(0, 0);
    let frame = world.frame(&start);
    assert_eq!((frame.width(), frame.height()), (1024, 1024));
}
