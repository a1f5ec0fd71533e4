//! Measures the steps per second of the configurations that `benches/compare/run.sh` compares
//! with Gymnasium and EnvPool (and the frames per second of CartPole's 600 by 400 RGB frame,
//! `cartpole/frame/600x400`, compared with Gymnasium's `rgb_array`), and prints one JSON line
//! per configuration.
//!
//! ```text
//! cargo run --release -p rl-benches --bin throughput -- [--runs N] [--run-seconds S] [--warm-up-seconds S] [--only SUBSTRING]...
//! ```
//!
//! `--only` keeps the configurations whose name contains the text; repeated, those that
//! contain any of the texts.
//!
//! Each configuration is warmed up, then timed in repeated runs taken in turns (one run of
//! every configuration per round, so that a slow spell of the machine falls on all alike); a
//! line holds every run's rate and their median (steps per second). The numbers depend on the machine and its load:
//! compare them only with numbers measured in the same session.

use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Duration;

use rl_benches::raw::{
    RawAcrobotBatch, RawCartPole, RawCartPoleBatch, RawEnvironment, RawMountainCar,
    RawMountainCarBatch, RawPendulumBatch,
};
use rl_benches::timing::{Rates, Timing, measure_interleaved};
use rl_benches::workloads::{
    ENVIRONMENT_SEED, acrobot, acrobot_simulator, by_id_vector, cartpole, cartpole_simulator,
    discrete_actions, discrete_rows, kernel_vector, mountain_car, mountain_car_simulator, pendulum,
    pendulum_simulator, run_by_id_vector, run_episodes, run_raw, run_raw_batch, run_vector,
    stepped_vector, torque_actions, torque_rows,
};
use rl_core::{Frame, RenderFrame};
use rl_domains::cartpole::{CartPoleParams, CartPoleState};
use rl_domains::cartpole_fast::FastCartPole;

/// The number of single-environment steps per timed call.
const SINGLE_CHUNK: usize = 4096;

/// The number of batch steps per timed call.
const BATCH_ROUNDS: usize = 16;

/// The number of environments of the batch configurations.
const BATCH_ENVS: usize = 1024;

/// What one configuration measures.
struct Configuration {
    /// A stable identifier, shared with the Python side where it measures the same thing.
    name: &'static str,
    /// The Gymnasium id of the environment.
    env: &'static str,
    envs: usize,
    threads: usize,
}

/// Prints one measurement as a JSON line.
fn report(configuration: &Configuration, rates: &Rates) {
    let runs: Vec<String> = rates.runs.iter().map(|rate| format!("{rate:.1}")).collect();
    println!(
        "{{\"side\": \"rl\", \"name\": \"{}\", \"env\": \"{}\", \"envs\": {}, \"threads\": {}, \"median\": {:.1}, \"runs\": [{}]}}",
        configuration.name,
        configuration.env,
        configuration.envs,
        configuration.threads,
        rates.median(),
        runs.join(", ")
    );
}

/// The command line's options.
struct Options {
    timing: Timing,
    /// The texts of `--only` (none: every configuration).
    only: Vec<String>,
}

/// Reads the command line.
fn parse(arguments: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        timing: Timing::default(),
        only: Vec::new(),
    };
    let mut arguments = arguments.peekable();
    while let Some(flag) = arguments.next() {
        let mut value = || {
            arguments
                .next()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let seconds = |text: String| {
            text.parse::<f64>()
                .ok()
                .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("{text:?} is not a number of seconds"))
        };
        match flag.as_str() {
            "--runs" => {
                let text = value()?;
                options.timing.runs = text
                    .parse()
                    .ok()
                    .filter(|runs| *runs > 0)
                    .ok_or_else(|| format!("{text:?} is not a positive number of runs"))?;
            }
            "--run-seconds" => options.timing.run_time = seconds(value()?)?,
            "--warm-up-seconds" => options.timing.warm_up = seconds(value()?)?,
            "--only" => options.only.push(value()?),
            "--help" | "-h" => {
                return Err("usage: throughput [--runs N] [--run-seconds S] [--warm-up-seconds S] [--only SUBSTRING]... (repeated --only: names containing any)".to_owned());
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}

/// A configuration and the call that steps it: a chunk of steps, returning how many.
struct Workload<'a> {
    configuration: Configuration,
    chunk: Box<dyn FnMut() -> u64 + 'a>,
}

/// The first error a workload met (stepping the built-in environments never fails, but a
/// failure must not go unnoticed).
type Failure = Rc<RefCell<Option<String>>>;

/// Wraps a fallible chunk: an error is recorded in `failure` and counts as one step.
fn recording<'a, E: std::fmt::Display>(
    failure: &Failure,
    mut chunk: impl FnMut() -> Result<u64, E> + 'a,
) -> Box<dyn FnMut() -> u64 + 'a> {
    let failure = Rc::clone(failure);
    Box::new(move || match chunk() {
        Ok(steps) => steps,
        Err(error) => {
            failure.borrow_mut().get_or_insert(error.to_string());
            1
        }
    })
}

/// Every configuration, built and reset, in report order.
fn workloads(failure: &Failure) -> Result<Vec<Workload<'static>>, Box<dyn std::error::Error>> {
    let mut workloads = Vec::new();
    let single = |name, env| Configuration {
        name,
        env,
        envs: 1,
        threads: 1,
    };
    let batch = |name, env, threads| Configuration {
        name,
        env,
        envs: BATCH_ENVS,
        threads,
    };
    let batch_steps = (BATCH_ROUNDS * BATCH_ENVS) as u64;

    // CartPole-v1, one environment at a time: the simulator and the hand-written loop.
    let actions = discrete_actions(2, SINGLE_CHUNK);
    let mut simulator = cartpole_simulator()?;
    let tape = actions.clone();
    workloads.push(Workload {
        configuration: single("cartpole/single/simulator", "CartPole-v1"),
        chunk: recording(failure, move || {
            run_episodes(&mut simulator, &tape).map(|_| SINGLE_CHUNK as u64)
        }),
    });
    let mut raw = RawCartPole::new(ENVIRONMENT_SEED);
    RawEnvironment::reset(&mut raw);
    workloads.push(Workload {
        configuration: single("cartpole/single/raw", "CartPole-v1"),
        chunk: Box::new(move || {
            run_raw(&mut raw, &actions);
            SINGLE_CHUNK as u64
        }),
    });

    // CartPole-v1, 1024 environments: the vector environment and the hand-written loop.
    for (threads, name) in [(1, "cartpole/vector/1024/1"), (2, "cartpole/vector/1024/2")] {
        let mut vector = kernel_vector(cartpole()?, BATCH_ENVS, threads)?;
        let mut rows = discrete_rows(2, BATCH_ENVS);
        workloads.push(Workload {
            configuration: batch(name, "CartPole-v1", threads),
            chunk: recording(failure, move || {
                run_vector(&mut vector, &mut rows, BATCH_ROUNDS).map(|_| batch_steps)
            }),
        });
    }
    // The vector the Python package steps: built by id (the kernel), episode statistics on.
    for (threads, name) in [(1, "cartpole/by_id/1024/1"), (2, "cartpole/by_id/1024/2")] {
        let mut vector = by_id_vector("CartPole-v1", BATCH_ENVS, threads)?;
        let (mut rows, mut buffer) = (discrete_rows(2, BATCH_ENVS), Vec::new());
        workloads.push(Workload {
            configuration: batch(name, "CartPole-v1", threads),
            chunk: recording(failure, move || {
                run_by_id_vector(&mut vector, &mut rows, &mut buffer, BATCH_ROUNDS)
                    .map(|_| batch_steps)
            }),
        });
    }
    // The opt-in fast precision mode (float32, not bit-exact), for the stretch target.
    let mut fast = kernel_vector(FastCartPole::new(CartPoleParams::default())?, BATCH_ENVS, 1)?;
    let mut rows = discrete_rows(2, BATCH_ENVS);
    workloads.push(Workload {
        configuration: batch("cartpole/fast/1024/1", "CartPole-v1", 1),
        chunk: recording(failure, move || {
            run_vector(&mut fast, &mut rows, BATCH_ROUNDS).map(|_| batch_steps)
        }),
    });
    let mut raw_batch = RawCartPoleBatch::new(BATCH_ENVS, ENVIRONMENT_SEED);
    let mut rows = discrete_rows(2, BATCH_ENVS);
    workloads.push(Workload {
        configuration: batch("cartpole/raw_soa/1024/1", "CartPole-v1", 1),
        chunk: Box::new(move || {
            run_raw_batch(&mut raw_batch, &mut rows, BATCH_ROUNDS);
            batch_steps
        }),
    });

    // MountainCar-v0, the same configurations.
    let actions = discrete_actions(3, SINGLE_CHUNK);
    let mut simulator = mountain_car_simulator()?;
    let tape = actions.clone();
    workloads.push(Workload {
        configuration: single("mountain_car/single/simulator", "MountainCar-v0"),
        chunk: recording(failure, move || {
            run_episodes(&mut simulator, &tape).map(|_| SINGLE_CHUNK as u64)
        }),
    });
    let mut raw = RawMountainCar::new(ENVIRONMENT_SEED);
    RawEnvironment::reset(&mut raw);
    workloads.push(Workload {
        configuration: single("mountain_car/single/raw", "MountainCar-v0"),
        chunk: Box::new(move || {
            run_raw(&mut raw, &actions);
            SINGLE_CHUNK as u64
        }),
    });
    for (threads, name) in [
        (1, "mountain_car/vector/1024/1"),
        (2, "mountain_car/vector/1024/2"),
    ] {
        let mut vector = kernel_vector(mountain_car()?, BATCH_ENVS, threads)?;
        let mut rows = discrete_rows(3, BATCH_ENVS);
        workloads.push(Workload {
            configuration: batch(name, "MountainCar-v0", threads),
            chunk: recording(failure, move || {
                run_vector(&mut vector, &mut rows, BATCH_ROUNDS).map(|_| batch_steps)
            }),
        });
    }
    for (threads, name) in [
        (1, "mountain_car/by_id/1024/1"),
        (2, "mountain_car/by_id/1024/2"),
    ] {
        let mut vector = by_id_vector("MountainCar-v0", BATCH_ENVS, threads)?;
        let (mut rows, mut buffer) = (discrete_rows(3, BATCH_ENVS), Vec::new());
        workloads.push(Workload {
            configuration: batch(name, "MountainCar-v0", threads),
            chunk: recording(failure, move || {
                run_by_id_vector(&mut vector, &mut rows, &mut buffer, BATCH_ROUNDS)
                    .map(|_| batch_steps)
            }),
        });
    }
    let mut raw_batch = RawMountainCarBatch::new(BATCH_ENVS, ENVIRONMENT_SEED);
    let mut rows = discrete_rows(3, BATCH_ENVS);
    workloads.push(Workload {
        configuration: batch("mountain_car/raw_soa/1024/1", "MountainCar-v0", 1),
        chunk: Box::new(move || {
            run_raw_batch(&mut raw_batch, &mut rows, BATCH_ROUNDS);
            batch_steps
        }),
    });

    // Acrobot-v1: the simulator, the typed vector environment (`SteppedVector`: Acrobot has no
    // block kernel, so its domain's step serves, state by state, as by id) and the
    // hand-written loop.
    let tape = discrete_actions(3, SINGLE_CHUNK);
    let mut simulator = acrobot_simulator()?;
    workloads.push(Workload {
        configuration: single("acrobot/single/simulator", "Acrobot-v1"),
        chunk: recording(failure, move || {
            run_episodes(&mut simulator, &tape).map(|_| SINGLE_CHUNK as u64)
        }),
    });
    for (threads, name) in [(1, "acrobot/vector/1024/1"), (2, "acrobot/vector/1024/2")] {
        let mut vector = stepped_vector(acrobot()?, BATCH_ENVS, threads)?;
        let mut rows = discrete_rows(3, BATCH_ENVS);
        workloads.push(Workload {
            configuration: batch(name, "Acrobot-v1", threads),
            chunk: recording(failure, move || {
                run_vector(&mut vector, &mut rows, BATCH_ROUNDS).map(|_| batch_steps)
            }),
        });
    }

    let mut raw_batch = RawAcrobotBatch::new(BATCH_ENVS, ENVIRONMENT_SEED);
    let mut rows = discrete_rows(3, BATCH_ENVS);
    workloads.push(Workload {
        configuration: batch("acrobot/raw_soa/1024/1", "Acrobot-v1", 1),
        chunk: Box::new(move || {
            run_raw_batch(&mut raw_batch, &mut rows, BATCH_ROUNDS);
            batch_steps
        }),
    });

    // Pendulum-v1, the same configurations, with torques uniform in [-2, 2].
    let tape = torque_actions(SINGLE_CHUNK);
    let mut simulator = pendulum_simulator()?;
    workloads.push(Workload {
        configuration: single("pendulum/single/simulator", "Pendulum-v1"),
        chunk: recording(failure, move || {
            run_episodes(&mut simulator, &tape).map(|_| SINGLE_CHUNK as u64)
        }),
    });
    for (threads, name) in [(1, "pendulum/vector/1024/1"), (2, "pendulum/vector/1024/2")] {
        let mut vector = stepped_vector(pendulum()?, BATCH_ENVS, threads)?;
        let mut rows = torque_rows(BATCH_ENVS);
        workloads.push(Workload {
            configuration: batch(name, "Pendulum-v1", threads),
            chunk: recording(failure, move || {
                run_vector(&mut vector, &mut rows, BATCH_ROUNDS).map(|_| batch_steps)
            }),
        });
    }

    let mut raw_batch = RawPendulumBatch::new(BATCH_ENVS, ENVIRONMENT_SEED);
    let mut rows = torque_rows(BATCH_ENVS);
    workloads.push(Workload {
        configuration: batch("pendulum/raw_soa/1024/1", "Pendulum-v1", 1),
        chunk: Box::new(move || {
            run_raw_batch(&mut raw_batch, &mut rows, BATCH_ROUNDS);
            batch_steps
        }),
    });

    // CartPole-v1's RGB frame at Gymnasium's 600 by 400 (issue 18), drawn into one reused
    // frame as `FrameEnvironment::render_frame` does, over the 16 states that
    // `benches/compare/frames_bench.py` gives Gymnasium's `rgb_array`: frames per second.
    let domain = cartpole()?;
    let states = frame_states();
    let mut frame = Frame::new(600, 400)?;
    workloads.push(Workload {
        configuration: single("cartpole/frame/600x400", "CartPole-v1"),
        chunk: Box::new(move || {
            for state in &states {
                domain.draw_frame(std::hint::black_box(state), &mut frame);
            }
            std::hint::black_box(frame.pixels());
            states.len() as u64
        }),
    });
    Ok(workloads)
}

/// The 16 CartPole states whose frames are timed: positions from -1 to 0.875, angles from
/// -0.1 to 0.0875 radians, as in `benches/criterion/frames.rs` and `frames_bench.py`.
fn frame_states() -> Vec<CartPoleState> {
    (0..16)
        .map(|index| {
            let step = f64::from(index) / 16.0;
            CartPoleState::from_array([2.0 * step - 1.0, 0.0, 0.2 * step - 0.1, 0.0])
        })
        .collect()
}

fn run(options: &Options) -> Result<(), Box<dyn std::error::Error>> {
    let failure: Failure = Rc::new(RefCell::new(None));
    let mut workloads: Vec<Workload<'_>> = workloads(&failure)?
        .into_iter()
        .filter(|workload| {
            let name = workload.configuration.name;
            options.only.is_empty() || options.only.iter().any(|only| name.contains(only.as_str()))
        })
        .collect();
    let mut chunks: Vec<&mut dyn FnMut() -> u64> = workloads
        .iter_mut()
        .map(|workload| &mut *workload.chunk as &mut dyn FnMut() -> u64)
        .collect();
    let rates = measure_interleaved(&options.timing, &mut chunks);
    if let Some(error) = failure.borrow_mut().take() {
        return Err(error.into());
    }
    for (workload, rates) in workloads.iter().zip(&rates) {
        report(&workload.configuration, rates);
    }
    Ok(())
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("throughput: {error}");
            ExitCode::FAILURE
        }
    }
}
