//! Measures how many steps per second the `rl-domains` domains take: through the
//! `Simulator` one environment at a time, and (for CartPole) through the batch kernel.
//!
//! ```text
//! cargo run --release --example domain_throughput
//! ```
//!
//! The numbers depend on the machine; they are for comparing changes, not for assertions.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rl_core::NumpyGenerator;
use rl_core::{BatchStep, Domain, Environment, Mode, Simulator};
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::gridworld::{GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};

/// The number of steps each measurement takes.
const STEPS: usize = 5_000_000;

/// Steps `env` `STEPS` times with actions from `action`, resetting at episode ends, and
/// prints the rate.
fn measure<D: Domain>(
    name: &str,
    mut env: Simulator<D>,
    mut action: impl FnMut(&mut NumpyGenerator) -> D::Action,
) {
    let mut rng = NumpyGenerator::seed_from_u64(1);
    let mut episodes = 0usize;
    let mut total = 0.0;
    let _ = env.reset(Mode::Training);
    let start = Instant::now();
    for _ in 0..STEPS {
        let chosen = action(&mut rng);
        match env.step(&chosen) {
            Ok(outcome) => {
                total += outcome.reward();
                if outcome.is_done() {
                    episodes += 1;
                    let _ = env.reset(Mode::Training);
                }
            }
            Err(error) => {
                println!("{name}: {error}");
                return;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{name:<38} {:>8.1} million steps/s ({episodes} episodes, total reward {total:.0})",
        STEPS as f64 / seconds / 1e6
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    measure(
        "CartPole-v1 (Simulator)",
        Simulator::new(CartPole::new(CartPoleParams::default())?, 0),
        |rng| rng.random_range(0..2),
    );
    measure(
        "MountainCar-v0 (Simulator)",
        Simulator::new(MountainCar::new(MountainCarParams::default())?, 0),
        |rng| rng.random_range(0..3),
    );
    measure(
        "MountainCarContinuous-v0 (Simulator)",
        Simulator::new(
            MountainCarContinuous::new(MountainCarContinuousParams::default())?,
            0,
        ),
        |rng| [rng.random_range(-1.0f32..=1.0)],
    );
    measure(
        "GridWorld-11x11-Rooms (Simulator)",
        Simulator::new(
            GridWorld::builtin("11x11-Rooms", GridWorldParams::default())?,
            0,
        ),
        |rng| rng.random_range(0..4),
    );

    // The batch kernel: 1024 CartPoles stepped together, states reset when they end.
    let domain = CartPole::new(CartPoleParams::default())?;
    let width = 1024;
    let mut rng = NumpyGenerator::seed_from_u64(2);
    let initial = domain.initial_state(Mode::Training, &mut rng);
    let mut states = vec![initial; width];
    let mut rngs: Vec<NumpyGenerator> = (0..width as u64)
        .map(NumpyGenerator::seed_from_u64)
        .collect();
    let mut rewards = vec![0.0; width];
    let mut terminated = vec![false; width];
    let mut observations = vec![0.0f32; width * 4];
    let actions: Vec<i64> = (0..width).map(|index| (index % 2) as i64).collect();
    let rounds = STEPS / width;
    let start = Instant::now();
    for _ in 0..rounds {
        domain.step_batch(
            &mut states,
            &actions,
            Mode::Training,
            &mut rngs,
            &mut rewards,
            &mut terminated,
            &mut observations,
        );
        for (state, done) in states.iter_mut().zip(&terminated) {
            if *done {
                *state = initial;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{:<38} {:>8.1} million steps/s",
        "CartPole-v1 (batch kernel, 1024)",
        (rounds * width) as f64 / seconds / 1e6
    );
    Ok(())
}
