//! RGB frames: pixel colours at known positions (the cart, the pole, the goal flag, the car,
//! the agent's cell, goals and pits), frames that differ when the state differs and agree for
//! equal states, any frame size, and every registered id drawing through the registry.

use rl_core::{Environment, Frame, FrameEnvironment, Mode, RenderFrame};
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
use rl_domains::frames::{cartpole, gridworld, mountain_car};
use rl_domains::gridworld::{CellKind, GridCell, GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams, MountainCarState};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousParams, MountainCarContinuousState,
};
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
        let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(5);
        for _ in 0..20 {
            let action = env
                .action_space()
                .try_sample(&mut rng)
                .unwrap_or(AnyElement::Int(0));
            let outcome = env.step(&action).expect("a step");
            env.render_frame(&mut frame).expect("a frame");
            changed |= frame != initial;
            if outcome.is_done() {
                break;
            }
        }
        if !id.starts_with("GridWorld-") {
            assert!(changed, "{id}: twenty steps change the picture");
        }
    }
}
