//! Steps per second of Gymnasium's MuJoCo v5 ids in Rust, beside the physics limit: a bare
//! loop of the library calls the environments make (`ctrl` set, `mj_step` `frame_skip` times,
//! `mj_rnePostConstraint`; the reset, `mj_resetData`, noise and `mj_forward`, where the
//! environment's episode ends, so that both loops simulate the same episodes) and the same ids
//! stepped through rl-core's `Simulator` (observations, rewards, infos, time limit). Actions
//! are drawn once from the action space (a table of 1024, cycled), so neither loop spends
//! anything on drawing.
//!
//! ```text
//! RL_MUJOCO_LIBRARY=target/rl-python-venv/lib/python3.11/site-packages/mujoco/libmujoco.so.4.0.0 \
//!     cargo run --release -p rl-benches --bin mujoco_steps [-- SECONDS]
//! ```
//!
//! One thread, one environment; docs/PERFORMANCE.md, "MuJoCo", holds the rows.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ndarray::ArrayD;
use rand::SeedableRng;
use rl_core::{Domain, Environment, Mode, NumpyGenerator, Simulator};
use rl_mujoco::tasks::ant::Ant;
use rl_mujoco::tasks::half_cheetah::HalfCheetah;
use rl_mujoco::tasks::hopper::Hopper;
use rl_mujoco::tasks::humanoid::Humanoid;
use rl_mujoco::{Data, MujocoDomain, Task};
use rl_spaces::SampleSpace;

/// Steps per second of `step` run for `duration` (after a tenth of it as warm-up).
fn rate(duration: Duration, mut step: impl FnMut()) -> f64 {
    let warm_up = Instant::now();
    while warm_up.elapsed() < duration / 10 {
        step();
    }
    let start = Instant::now();
    let mut steps = 0u64;
    while start.elapsed() < duration {
        for _ in 0..100 {
            step();
        }
        steps += 100;
    }
    steps as f64 / start.elapsed().as_secs_f64()
}

fn measure<T: Task>(id: &str, domain: MujocoDomain<T>, duration: Duration) {
    let mut rng = NumpyGenerator::seed_from_u64(0);
    let actions: Vec<ArrayD<f32>> = (0..1024)
        .map(|_| domain.action_space().sample(&mut rng))
        .collect();
    // The bare loop of the library calls.
    let setup = domain.setup();
    let mut data = Data::new(Arc::clone(setup.model())).expect("data");
    let mut reset_rng = NumpyGenerator::seed_from_u64(0);
    domain.initial_state_into(&mut data, Mode::Training, &mut reset_rng);
    let (mut index, mut episode_steps) = (0usize, 0u64);
    let cap = domain.episode_cap().unwrap_or(u64::MAX);
    let bare = rate(duration, || {
        let action = actions[index % actions.len()]
            .as_slice()
            .expect("contiguous");
        setup.simulate(&mut data, action);
        index += 1;
        episode_steps += 1;
        if episode_steps == cap || domain.is_terminal(&data) {
            domain.initial_state_into(&mut data, Mode::Training, &mut reset_rng);
            episode_steps = 0;
        }
    });
    // The environment.
    let mut env = Simulator::new(domain.clone(), 0);
    env.reset(Mode::Training).expect("reset");
    let mut index = 0usize;
    let environment = rate(duration, || {
        let outcome = env.step(&actions[index % actions.len()]).expect("step");
        index += 1;
        if outcome.is_done() {
            env.reset(Mode::Training).expect("reset");
        }
    });
    println!(
        "{id:<16} bare loop {bare:>9.0} steps/s   Simulator {environment:>9.0} steps/s   ({:.0}% of the bare loop)",
        100.0 * environment / bare
    );
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(3.0);
    let duration = Duration::from_secs_f64(seconds);
    let library = match rl_mujoco::library::library() {
        Ok(library) => library,
        Err(error) => {
            eprintln!("mujoco_steps: {error}");
            std::process::exit(1);
        }
    };
    println!(
        "MuJoCo {} at {}",
        library.version_text(),
        library.path().display()
    );
    measure(
        "Hopper-v5",
        Hopper::domain(Default::default()).expect("Hopper"),
        duration,
    );
    measure(
        "HalfCheetah-v5",
        HalfCheetah::domain(Default::default()).expect("HalfCheetah"),
        duration,
    );
    measure(
        "Ant-v5",
        Ant::domain(Default::default()).expect("Ant"),
        duration,
    );
    measure(
        "Humanoid-v5",
        Humanoid::domain(Default::default()).expect("Humanoid"),
        duration,
    );
}
