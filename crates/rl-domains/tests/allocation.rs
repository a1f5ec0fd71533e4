//! Stepping any domain of this crate through the `Simulator` allocates nothing: states,
//! observations and actions are plain values (a counting global allocator proves it).

use std::sync::Arc;

use counting_allocator::thread_allocations as allocations;
use rand::SeedableRng;
use rl_core::NumpyGenerator;
use rl_core::{BatchStates, BatchStep, Domain, Environment, Mode, Simulator, SteppedStates};
use rl_domains::acrobot::{Acrobot, AcrobotParams};
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
use rl_domains::gridworld::{GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};
use rl_domains::pendulum::{Pendulum, PendulumParams};

/// A small deterministic action source that allocates nothing.
struct Actions(u64);

impl Actions {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Steps `env` `steps` times with actions from `action`, resetting at episode ends, and
/// returns the allocations made meanwhile and the number of episodes that ended.
fn allocations_while_stepping<D: Domain>(
    env: &mut Simulator<D>,
    steps: usize,
    mut action: impl FnMut(&mut Actions) -> D::Action,
) -> (usize, usize) {
    let mut actions = Actions(7);
    env.reset(Mode::Training).expect("reset");
    let before = allocations();
    let mut ended = 0usize;
    for _ in 0..steps {
        let chosen = action(&mut actions);
        match env.step(&chosen) {
            Ok(outcome) if outcome.is_done() => {
                ended += 1;
                env.reset(Mode::Training).expect("reset");
            }
            Ok(_) => {}
            Err(error) => panic!("step failed: {error}"),
        }
    }
    (allocations() - before, ended)
}

#[test]
fn cartpole_steps_allocate_nothing() {
    let mut env = Simulator::new(CartPole::new(CartPoleParams::default()).expect("valid"), 1);
    let (allocated, ended) =
        allocations_while_stepping(&mut env, 20_000, |actions| (actions.next() % 2) as i64);
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn mountain_car_steps_allocate_nothing() {
    let mut env = Simulator::new(
        MountainCar::new(MountainCarParams::default()).expect("valid"),
        2,
    );
    let (allocated, ended) =
        allocations_while_stepping(&mut env, 20_000, |actions| (actions.next() % 3) as i64);
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn mountain_car_continuous_steps_allocate_nothing() {
    let mut env = Simulator::new(
        MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid"),
        3,
    );
    let (allocated, ended) = allocations_while_stepping(&mut env, 20_000, |actions| {
        [(actions.next() % 2001) as f32 / 1000.0 - 1.0]
    });
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn acrobot_steps_allocate_nothing() {
    // With torque noise, so that the noise draws are covered too.
    let params = AcrobotParams {
        torque_noise_max: 0.2,
        ..AcrobotParams::default()
    };
    let mut env = Simulator::new(Acrobot::new(params).expect("valid"), 5);
    let (allocated, ended) =
        allocations_while_stepping(&mut env, 5_000, |actions| (actions.next() % 3) as i64);
    assert!(ended > 5, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn pendulum_steps_allocate_nothing() {
    let mut env = Simulator::new(Pendulum::new(PendulumParams::default()).expect("valid"), 6);
    let (allocated, ended) = allocations_while_stepping(&mut env, 5_000, |actions| {
        [(actions.next() % 4001) as f32 / 1000.0 - 2.0]
    });
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

/// Steps a batch of `count` states of `domain` stepped state by state (`SteppedStates`, what a
/// vector of a domain without a kernel steps) 100 times with the actions `action` gives each
/// index, and returns the allocations made meanwhile.
fn batch_allocations<D>(domain: D, count: usize, action: impl Fn(usize) -> D::Action) -> usize
where
    D: Domain + Send + Sync,
    D::State: Send + 'static,
    D::Action: Send + Sync,
    D::ObservationSpace: rl_spaces::FlattenSpace,
{
    let width = rl_spaces::FlattenSpace::flat_dim(domain.observation_space());
    let mut batch = SteppedStates::new(Arc::new(domain), count);
    let mut rngs: Vec<NumpyGenerator> = (0..count as u64)
        .map(NumpyGenerator::seed_from_u64)
        .collect();
    let actions: Vec<D::Action> = (0..count).map(action).collect();
    let (mut rewards, mut terminated) = (vec![0.0; count], vec![false; count]);
    let mut observations = vec![0.0f32; count * width];
    for (i, rng) in rngs.iter_mut().enumerate() {
        let row = &mut observations[i * width..(i + 1) * width];
        batch.reset_at(i, Mode::Training, rng, row).expect("reset");
    }
    let before = allocations();
    for _ in 0..100 {
        batch
            .step(
                &actions,
                Mode::Training,
                &mut rngs,
                &mut rewards,
                &mut terminated,
                &mut observations,
            )
            .expect("a batch step");
    }
    assert!(rewards.iter().all(|reward| reward.is_finite()));
    allocations() - before
}

#[test]
fn batches_stepped_state_by_state_allocate_nothing() {
    let acrobot = Acrobot::new(AcrobotParams {
        torque_noise_max: 0.2,
        ..AcrobotParams::default()
    })
    .expect("valid");
    assert_eq!(batch_allocations(acrobot, 64, |i| (i % 3) as i64), 0);
    let pendulum = Pendulum::new(PendulumParams::default()).expect("valid");
    assert_eq!(
        batch_allocations(pendulum, 64, |i| [i as f32 / 16.0 - 2.0]),
        0
    );
    let continuous =
        MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
    assert_eq!(
        batch_allocations(continuous, 64, |i| [i as f32 / 32.0 - 1.0]),
        0
    );
}

#[test]
fn block_kernels_allocate_nothing() {
    let cartpole = CartPole::new(CartPoleParams::default()).expect("valid");
    // Blocks, a partial block, and a batch small enough to be stepped state by state.
    for count in [200, 5] {
        let mut states = vec![CartPoleState::default(); count];
        let actions: Vec<i64> = (0..count).map(|i| (i % 2) as i64).collect();
        let (mut rewards, mut terminated) = (vec![0.0; count], vec![false; count]);
        let mut observations = vec![0.0f32; count * 4];
        let before = allocations();
        for _ in 0..100 {
            cartpole.step_batch(
                &mut states,
                &actions,
                Mode::Training,
                &mut [],
                &mut rewards,
                &mut terminated,
                &mut observations,
            );
        }
        assert_eq!(allocations() - before, 0, "{count} states");
    }
}

#[test]
fn gridworld_steps_allocate_nothing() {
    let domain = GridWorld::builtin("4x5", GridWorldParams::default()).expect("valid");
    let mut env = Simulator::new(domain, 4);
    let (allocated, ended) =
        allocations_while_stepping(&mut env, 20_000, |actions| (actions.next() % 4) as i64);
    assert!(ended > 10, "the loop must cross episode ends too");
    assert_eq!(allocated, 0);
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(16);
    std::hint::black_box(&v);
    assert!(allocations() > before, "the allocator must see allocations");
}

/// The allocations made by drawing `state` ten times into a frame of `size`, after a first
/// drawing (which makes the thread's pixmap of that size).
fn allocations_per_ten_frames<D: rl_core::RenderFrame>(
    domain: &D,
    state: &D::State,
    (width, height): (u32, u32),
) -> usize {
    let mut frame = rl_core::Frame::new(width, height).expect("a valid size");
    domain.draw_frame(state, &mut frame);
    let before = allocations();
    for _ in 0..10 {
        domain.draw_frame(state, &mut frame);
    }
    allocations() - before
}

#[test]
fn toy_text_frames_allocate_only_for_their_discs() {
    use rl_domains::toy_text::blackjack::{Blackjack, BlackjackParams};
    use rl_domains::toy_text::cliff_walking::{CliffWalking, CliffWalkingParams};
    use rl_domains::toy_text::frozen_lake::{FrozenLake, FrozenLakeParams};
    use rl_domains::toy_text::taxi::{Taxi, TaxiParams};
    let mut rng = NumpyGenerator::seed_from_u64(3);
    // Blackjack is rectangles and glyph dots only: nothing allocated.
    let blackjack = Blackjack::new(BlackjackParams::default()).expect("valid");
    let hand = blackjack.initial_state(Mode::Training, &mut rng);
    assert_eq!(allocations_per_ten_frames(&blackjack, &hand, (600, 400)), 0);
    // The grid pictures fill their cells, lines, walls and letters as rectangles (nothing
    // allocated); tiny-skia builds a path for each disc (the agent; the taxi's two wheels and
    // its passenger), a few allocations each (measured: 11 a frame with one disc, 33 with four).
    let lake = FrozenLake::new(FrozenLakeParams::default()).expect("valid");
    assert!(allocations_per_ten_frames(&lake, &3, (256, 256)) <= 10 * 12);
    let cliff = CliffWalking::new(CliffWalkingParams::default()).expect("valid");
    assert!(allocations_per_ten_frames(&cliff, &36, (768, 256)) <= 10 * 12);
    let taxi = Taxi::new(TaxiParams::default()).expect("valid");
    let state = taxi.initial_state(Mode::Training, &mut rng);
    assert!(allocations_per_ten_frames(&taxi, &state, (320, 320)) <= 10 * 4 * 12);
}
