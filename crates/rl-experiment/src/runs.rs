//! Many runs of an experiment, in parallel, written to an output directory, resumable.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rl_core::BoxedEnvironment;

use crate::ExperimentError;
use crate::agent::make_agent_for;
use crate::experiment::{ExperimentConfig, LogController, RunResult, run_once};
use crate::lock::RunLock;
use crate::plot::{CurvePoint, learning_curve_svg};
use crate::results::{
    SummaryRow, prepare_directory, read_run, summarize, summary_csv, write_atomically, write_run,
};

/// Receives progress while an experiment runs (from several threads at once).
pub trait Progress: Sync {
    /// The experiment starts: `total_steps` learning steps are to be taken; `resumed` runs were
    /// already finished and are skipped.
    fn start(&self, total_steps: u64, resumed: u64) {
        let _ = (total_steps, resumed);
    }
    /// Some learning steps were taken.
    fn advance(&self, steps: u64) {
        let _ = steps;
    }
    /// A run finished and its file was written.
    fn run_finished(&self, result: &RunResult) {
        let _ = result;
    }
    /// All runs finished (or the experiment stopped).
    fn finish(&self) {}
}

/// Progress that reports nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Progress for Silent {}

/// What a finished experiment produced.
#[derive(Debug, Clone, PartialEq)]
pub struct ExperimentOutcome {
    /// The output directory.
    pub directory: PathBuf,
    /// Every run's result, in run order.
    pub results: Vec<RunResult>,
    /// The runs that were already finished and were read instead of run.
    pub resumed: Vec<u64>,
    /// The checks averaged over runs (also in `summary.csv`).
    pub summary: Vec<SummaryRow>,
}

/// Runs every run of `config` that `directory` does not already hold, on up to `threads`
/// threads, writing each run's results atomically as it finishes, then the summary CSV and the
/// learning curve. Re-running with the same configuration resumes: finished runs are read, not
/// redone. Runs are independent (see [`seeds`](crate::seeds)), so the results do not depend on
/// the number of threads.
///
/// Everything that can be checked is checked before the first file is written: the counts, the
/// environment (built once with `make_env`) and the agent's compatibility with it.
/// `should_stop` interrupts the experiment between steps; finished runs are kept.
///
/// The directory's lock ([`RunLock`]) is held from before anything is written in it until this
/// returns: while another experiment (another process, or another call in this one) holds it,
/// this fails at once with [`ExperimentError::AlreadyRunning`] and touches nothing.
pub fn run_experiment(
    config: &ExperimentConfig,
    directory: &Path,
    make_env: &(dyn Fn() -> Result<BoxedEnvironment, ExperimentError> + Sync),
    threads: NonZeroUsize,
    should_stop: &(dyn Fn() -> bool + Sync),
    progress: &dyn Progress,
) -> Result<ExperimentOutcome, ExperimentError> {
    config.validate()?;
    let probe = make_env()?;
    make_agent_for(
        &config.agent,
        config.agent_params.as_ref(),
        &probe,
        &config.domain,
    )?;
    drop(probe);
    let lock = RunLock::acquire(directory)?;
    prepare_directory(directory, config)?;
    run_in_locked_directory(config, &lock, make_env, threads, should_stop, progress)
}

/// The part of [`run_experiment`] after its checks: runs what `lock`'s directory (prepared
/// with [`prepare_directory`]) does not hold yet, and writes the summary and the curve.
pub(crate) fn run_in_locked_directory(
    config: &ExperimentConfig,
    lock: &RunLock,
    make_env: &(dyn Fn() -> Result<BoxedEnvironment, ExperimentError> + Sync),
    threads: NonZeroUsize,
    should_stop: &(dyn Fn() -> bool + Sync),
    progress: &dyn Progress,
) -> Result<ExperimentOutcome, ExperimentError> {
    let directory = lock.directory();

    let mut finished: Vec<RunResult> = Vec::new();
    let mut pending = Vec::new();
    for run in 0..config.runs {
        match read_run(directory, run, config)? {
            Some(result) => finished.push(result),
            None => pending.push(run),
        }
    }
    let resumed: Vec<u64> = finished.iter().map(|r| r.run).collect();
    progress.start(
        pending.len() as u64 * config.max_steps,
        resumed.len() as u64,
    );

    let next = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let first_error: Mutex<Option<ExperimentError>> = Mutex::new(None);
    let new_results: Mutex<Vec<RunResult>> = Mutex::new(Vec::new());
    let stop = || abort.load(Ordering::Relaxed) || should_stop();
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::SeqCst) as usize;
        let Some(&run) = pending.get(i) else { break };
        if stop() {
            break;
        }
        let mut log = LogController::new();
        let outcome = run_once(config, run, make_env, &mut [&mut log], &stop, &|steps| {
            progress.advance(steps)
        })
        .and_then(|result| write_run(directory, &result, &log.text()).map(|()| result));
        match outcome {
            Ok(result) => {
                progress.run_finished(&result);
                if let Ok(mut results) = new_results.lock() {
                    results.push(result);
                }
            }
            Err(error) => {
                abort.store(true, Ordering::Relaxed);
                if let Ok(mut slot) = first_error.lock() {
                    // An interruption caused by another run's failure is not the story to tell.
                    if slot.is_none() || slot.as_ref() == Some(&ExperimentError::Interrupted) {
                        *slot = Some(error);
                    }
                }
                break;
            }
        }
    };
    let workers = threads.get().min(pending.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(worker);
        }
        worker();
    });
    progress.finish();
    if let Some(error) = first_error.into_inner().ok().flatten() {
        return Err(error);
    }
    if should_stop()
        && finished.len() + new_results.lock().map(|r| r.len()).unwrap_or(0) < config.runs as usize
    {
        return Err(ExperimentError::Interrupted);
    }
    finished.extend(new_results.into_inner().unwrap_or_default());
    finished.sort_by_key(|r| r.run);

    let summary = summarize(&finished);
    write_atomically(
        &directory.join("summary.csv"),
        summary_csv(&summary).as_bytes(),
    )?;
    let points: Vec<CurvePoint> = summary
        .iter()
        .map(|r| CurvePoint {
            steps: r.learning_steps as f64,
            mean: r.return_mean,
            std: r.return_std,
        })
        .collect();
    let title = format!(
        "{} on {} ({} runs)",
        config.agent,
        config.domain,
        finished.len()
    );
    write_atomically(
        &directory.join("learning_curve.svg"),
        learning_curve_svg(&points, &title).as_bytes(),
    )?;
    Ok(ExperimentOutcome {
        directory: directory.to_path_buf(),
        results: finished,
        resumed,
        summary,
    })
}
