//! Warm-up, repeated timed runs and their median, for the `throughput` binary (criterion does
//! its own for the benchmarks).

use std::time::{Duration, Instant};

/// How long to warm up and how to repeat the timed runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timing {
    /// Time spent running the workload before any timed run.
    pub warm_up: Duration,
    /// The number of timed runs.
    pub runs: usize,
    /// The least duration of one timed run.
    pub run_time: Duration,
}

impl Default for Timing {
    /// 0.5 s of warm-up, then 7 runs of at least 0.5 s each.
    fn default() -> Self {
        Timing {
            warm_up: Duration::from_millis(500),
            runs: 7,
            run_time: Duration::from_millis(500),
        }
    }
}

/// The rates of the timed runs of one workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Rates {
    /// Steps per second of each run, in run order.
    pub runs: Vec<f64>,
}

impl Rates {
    /// The median of the runs (the mean of the middle two for an even count; 0 if none).
    pub fn median(&self) -> f64 {
        median(&self.runs)
    }
}

/// The median of `values` (the mean of the middle two for an even count; 0 if empty).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    match sorted.len() {
        0 => 0.0,
        len if len % 2 == 1 => sorted[middle],
        _ => (sorted[middle - 1] + sorted[middle]) / 2.0,
    }
}

/// Times `chunk`, a call that does some steps and returns how many: warms up for
/// `timing.warm_up`, then makes `timing.runs` runs, each calling `chunk` until at least
/// `timing.run_time` has passed, and returns each run's steps per second.
pub fn measure(timing: &Timing, mut chunk: impl FnMut() -> u64) -> Rates {
    warm_up(timing, &mut chunk);
    let runs = (0..timing.runs)
        .map(|_| timed_run(timing, &mut chunk))
        .collect();
    Rates { runs }
}

/// Times several workloads in turns, so that a slow spell of the machine (other processes,
/// frequency changes) falls on all of them alike: warms each up, then makes `timing.runs`
/// rounds, each timing one run of every workload in order. Returns the rates of each
/// workload, in the order given.
pub fn measure_interleaved(timing: &Timing, chunks: &mut [&mut dyn FnMut() -> u64]) -> Vec<Rates> {
    for chunk in chunks.iter_mut() {
        warm_up(timing, chunk);
    }
    let mut rates: Vec<Rates> = chunks.iter().map(|_| Rates { runs: Vec::new() }).collect();
    for _ in 0..timing.runs {
        for (chunk, rates) in chunks.iter_mut().zip(&mut rates) {
            rates.runs.push(timed_run(timing, chunk));
        }
    }
    rates
}

/// Calls `chunk` for `timing.warm_up`.
fn warm_up(timing: &Timing, chunk: &mut dyn FnMut() -> u64) {
    let start = Instant::now();
    while start.elapsed() < timing.warm_up {
        chunk();
    }
}

/// Calls `chunk` until `timing.run_time` has passed and returns the steps per second.
fn timed_run(timing: &Timing, chunk: &mut dyn FnMut() -> u64) -> f64 {
    let start = Instant::now();
    let mut steps = 0u64;
    loop {
        steps += chunk();
        let elapsed = start.elapsed();
        if elapsed >= timing.run_time {
            return steps as f64 / elapsed.as_secs_f64();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn measure_makes_the_requested_runs() {
        let timing = Timing {
            warm_up: Duration::ZERO,
            runs: 3,
            run_time: Duration::from_millis(1),
        };
        let rates = measure(&timing, || 10);
        assert_eq!(rates.runs.len(), 3);
        assert!(rates.runs.iter().all(|rate| *rate > 0.0));
        let (mut a, mut b) = (|| 1, || 2);
        let both = measure_interleaved(&timing, &mut [&mut a, &mut b]);
        assert_eq!(both.len(), 2);
        assert!(both.iter().all(|rates| rates.runs.len() == 3));
    }
}
