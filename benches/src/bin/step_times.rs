//! Times every step of the 1024-environment CartPole-v1 (or MountainCar-v0) vector
//! environment and prints, per
//! window of consecutive steps, the median step time: a time series that shows when the
//! machine runs the step slower (see docs/performance-journal.md, "Two threads: the machine's slow
//! spells").
//!
//! ```text
//! cargo run --release -p rl-benches --bin step_times -- [--domain cartpole|mountain_car] [--threads N] [--steps N] [--envs N] [--window N]
//! ```
//!
//! Prints one line of summary (steps per second, mean and percentiles of the step time in
//! nanoseconds) and one line of the windows' medians in microseconds. Run it pinned with
//! `taskset -c 0` or `taskset -c 1` to watch one core, or two copies at once to watch both.

use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::Instant;

use rl_benches::workloads::{cartpole, discrete_rows, kernel_vector, mountain_car};
use rl_core::SplitStates;
use rl_spaces::FlatScalar;
use rl_wrappers::vector::VectorEnvironment;

/// The command line's options.
struct Options {
    /// Whether to step MountainCar-v0 rather than CartPole-v1.
    mountain_car: bool,
    threads: NonZeroUsize,
    steps: NonZeroUsize,
    envs: NonZeroUsize,
    window: NonZeroUsize,
}

/// Reads the command line.
fn parse(arguments: impl Iterator<Item = String>) -> Result<Options, String> {
    let count = |text: Option<String>, flag: &str| {
        let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
        text.parse::<NonZeroUsize>()
            .map_err(|_| format!("{flag}: {text:?} is not a positive whole number"))
    };
    let mut options = Options {
        mountain_car: false,
        threads: NonZeroUsize::MIN,
        steps: NonZeroUsize::new(60_000).unwrap_or(NonZeroUsize::MIN),
        envs: NonZeroUsize::new(1024).unwrap_or(NonZeroUsize::MIN),
        window: NonZeroUsize::new(2000).unwrap_or(NonZeroUsize::MIN),
    };
    let mut arguments = arguments.peekable();
    while let Some(flag) = arguments.next() {
        match flag.as_str() {
            "--domain" => {
                options.mountain_car = match arguments.next().as_deref() {
                    Some("cartpole") => false,
                    Some("mountain_car") => true,
                    other => {
                        return Err(format!(
                            "--domain: {other:?} is neither cartpole nor mountain_car"
                        ));
                    }
                }
            }
            "--threads" => options.threads = count(arguments.next(), &flag)?,
            "--steps" => options.steps = count(arguments.next(), &flag)?,
            "--envs" => options.envs = count(arguments.next(), &flag)?,
            "--window" => options.window = count(arguments.next(), &flag)?,
            "--help" | "-h" => {
                return Err(
                    "usage: step_times [--domain cartpole|mountain_car] [--threads N] [--steps N] [--envs N] [--window N]"
                        .to_owned(),
                );
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}

/// The value at quantile `q` of sorted `values` (0 if empty).
fn quantile(sorted: &[u64], q: f64) -> u64 {
    let index = ((sorted.len().saturating_sub(1)) as f64 * q) as usize;
    sorted.get(index).copied().unwrap_or(0)
}

/// Steps the chosen domain's vector environment and prints the summary and the windows.
fn run(options: &Options) -> Result<(), Box<dyn std::error::Error>> {
    let (envs, threads) = (options.envs.get(), options.threads.get());
    if options.mountain_car {
        let vector = kernel_vector(mountain_car()?, envs, threads)?;
        time_steps(vector, 3, options)
    } else {
        let vector = kernel_vector(cartpole()?, envs, threads)?;
        time_steps(vector, 2, options)
    }
}

/// Steps `vector` with random actions out of `actions` and prints the summary and the windows.
fn time_steps<S: SplitStates<T, Action = i64>, T: FlatScalar>(
    mut vector: VectorEnvironment<S, T>,
    actions: i64,
    options: &Options,
) -> Result<(), Box<dyn std::error::Error>> {
    let envs = options.envs.get();
    let mut actions = discrete_rows(actions, envs);
    // Warm-up: caches, branch predictors, and the worker threads spinning.
    for _ in 0..5_000 {
        vector.step(actions.next_row())?;
    }
    let steps = options.steps.get();
    let mut times = Vec::with_capacity(steps);
    let start = Instant::now();
    let mut last = start;
    for _ in 0..steps {
        vector.step(actions.next_row())?;
        let now = Instant::now();
        times.push(u64::try_from((now - last).as_nanos()).unwrap_or(u64::MAX));
        last = now;
    }
    let seconds = start.elapsed().as_secs_f64();
    let windows: Vec<String> = times
        .chunks(options.window.get())
        .map(|window| {
            let mut sorted = window.to_vec();
            sorted.sort_unstable();
            format!("{:.1}", quantile(&sorted, 0.5) as f64 / 1e3)
        })
        .collect();
    let mean = times.iter().sum::<u64>() as f64 / steps as f64;
    times.sort_unstable();
    println!(
        "{} envs, {} thread(s): {:.1} M steps/s; step time mean {:.0} ns, p10 {}, p50 {}, p90 {}, p99 {}, max {}",
        envs,
        options.threads,
        (steps * envs) as f64 / seconds / 1e6,
        mean,
        quantile(&times, 0.1),
        quantile(&times, 0.5),
        quantile(&times, 0.9),
        quantile(&times, 0.99),
        quantile(&times, 1.0),
    );
    println!(
        "median step time (µs) per window of {} steps: {}",
        options.window,
        windows.join(" ")
    );
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
            eprintln!("step_times: {error}");
            ExitCode::FAILURE
        }
    }
}
