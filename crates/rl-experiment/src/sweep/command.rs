//! The `rl sweep`, `rl status` and `rl summarize` commands: their arguments and what they
//! print.

use std::io::Write;
use std::num::NonZeroUsize;
use std::path::PathBuf;

use crate::cli::{Failure, parse_threads};
use crate::sweep::file::SweepFile;
use crate::sweep::runner::run_sweep;
use crate::sweep::shard::{Shard, resolve_shard};
use crate::sweep::status::{SweepSummary, summarize_sweep, sweep_status};
use crate::{ExperimentError, TerminalProgress};

/// Reads `--shard K/N`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse::<Shard>().map_err(|e| match e {
        ExperimentError::InvalidConfig { reason, .. } => reason,
        other => other.to_string(),
    })
}

/// The arguments of `rl sweep` (its help text is in the command line's `Sweep` variant).
#[derive(Debug, clap::Args)]
pub(crate) struct SweepArgs {
    /// The sweep file (JSON; see docs/sweeps.md).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The results directory, the same for every shard (on a shared file system).
    #[arg(long)]
    out: PathBuf,
    /// Run only shard K of N (K from 0 to N-1): the runs whose place in the run list is K
    /// modulo N. Without it (and without --shard-index/--shard-count), the shard comes from
    /// SLURM_ARRAY_TASK_ID (with SLURM_ARRAY_TASK_COUNT) or JOB_COMPLETION_INDEX (with
    /// --shard-count), else the whole sweep runs.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// This shard's index K (0 to N-1), with --shard-count (or a count from Slurm).
    #[arg(long, value_name = "K")]
    shard_index: Option<u64>,
    /// The number of shards N, with --shard-index or an index from the scheduler
    /// (JOB_COMPLETION_INDEX of a Kubernetes Indexed Job).
    #[arg(long, value_name = "N")]
    shard_count: Option<u64>,
    /// Worker threads, 1 to 4096 (default: all cores).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_threads)]
    threads: Option<NonZeroUsize>,
    /// Check the sweep file and list its settings (and how many runs this shard owns); run
    /// nothing and write nothing.
    #[arg(long)]
    list: bool,
}

impl SweepArgs {
    /// Runs `rl sweep`: checks the file, resolves the shard, runs its runs, and summarises
    /// when the sweep is complete. `should_stop` is the Ctrl-C flag.
    pub(crate) fn execute(
        &self,
        out: &mut dyn Write,
        should_stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<(), Failure> {
        let file = self.file.display().to_string();
        let plan = SweepFile::read(&self.file)?.expand(&file)?;
        let (shard, source) =
            resolve_shard(self.shard, self.shard_index, self.shard_count, &|name| {
                std::env::var(name).ok()
            })?;
        let owned = plan.runs().filter(|run| shard.owns(run.index)).count() as u64;
        let shard_text = match shard.count() {
            1 => "one shard runs it all".to_owned(),
            _ => format!("shard {shard} ({source}) owns {owned} of them"),
        };
        writeln!(
            out,
            "sweep {file}: {} settings x {} runs = {} runs; {shard_text} (results in {})",
            plan.settings.len(),
            plan.runs,
            plan.run_count(),
            self.out.display()
        )?;
        if self.list {
            for setting in &plan.settings {
                writeln!(out, "  {}  ({})", setting.name, setting.origin)?;
            }
            return Ok(());
        }
        out.flush()?;
        let threads = self
            .threads
            .or_else(|| std::thread::available_parallelism().ok())
            .unwrap_or(NonZeroUsize::MIN);
        let progress = TerminalProgress::new(owned);
        let outcome = match run_sweep(&plan, &self.out, shard, threads, should_stop, &progress) {
            Err(ExperimentError::Interrupted) => {
                return Err(Failure::Interrupted {
                    saved: progress.finished_runs(),
                    runs: owned,
                    directory: self.out.clone(),
                });
            }
            other => other?,
        };
        writeln!(
            out,
            "shard {shard}: ran {} runs, {} already finished",
            outcome.ran.len(),
            outcome.already_finished
        )?;
        if !outcome.claimed_elsewhere.is_empty() {
            let listed: Vec<String> = outcome
                .claimed_elsewhere
                .iter()
                .take(5)
                .map(|(run, claim)| {
                    format!(
                        "{} run {} by {claim}",
                        plan.settings[run.setting].name, run.run
                    )
                })
                .collect();
            writeln!(
                out,
                "{} of its runs were claimed by other processes and left alone ({}{}); those processes are running them; if they end without finishing, rerun this shard (it takes over claims whose process is gone on this machine; remove the run-NNN.claim files of processes on other machines first)",
                outcome.claimed_elsewhere.len(),
                listed.join("; "),
                if outcome.claimed_elsewhere.len() > listed.len() {
                    "; ..."
                } else {
                    ""
                }
            )?;
        }
        if let Some(summary) = &outcome.summary {
            print_summary(out, summary)?;
        } else {
            let status = sweep_status(&self.out)?;
            writeln!(
                out,
                "{} of {} runs of the sweep are not finished yet (other shards' share); the last shard to finish writes the summaries, or run `rl summarize {}` (`rl status {}` lists them)",
                status.total() - status.finished(),
                status.total(),
                self.out.display(),
                self.out.display()
            )?;
        }
        Ok(())
    }
}

/// Prints the last check of every setting and the files written.
fn print_summary(out: &mut dyn Write, summary: &SweepSummary) -> Result<(), Failure> {
    let width = summary
        .settings
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0);
    writeln!(
        out,
        "{:<width$}  final evaluation return (mean ± std over runs)",
        "setting"
    )?;
    for setting in &summary.settings {
        if let Some(last) = setting.rows.last() {
            writeln!(
                out,
                "{:<width$}  {} ± {}",
                setting.name,
                crate::progress::fixed(last.return_mean, 4),
                crate::progress::fixed(last.return_std, 4)
            )?;
        }
    }
    let shared: Vec<String> = summary
        .written
        .iter()
        .filter(|path| {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            !matches!(
                name.as_deref(),
                Some("summary.csv" | "learning_curve.svg" | "value_function.svg")
            )
        })
        .map(|path| path.display().to_string())
        .collect();
    writeln!(
        out,
        "wrote {} (and each setting's summary.csv and learning_curve.svg, and on GridWorld value_function.svg)",
        shared.join(", ")
    )?;
    Ok(())
}

/// The arguments of `rl status`.
#[derive(Debug, clap::Args)]
pub(crate) struct StatusArgs {
    /// A results directory written by `rl sweep`.
    #[arg(value_name = "DIR")]
    directory: PathBuf,
}

impl StatusArgs {
    /// Prints the finished, running and missing runs of each setting.
    pub(crate) fn execute(&self, out: &mut dyn Write) -> Result<(), Failure> {
        let status = sweep_status(&self.directory)?;
        write!(out, "{}", status.report())?;
        Ok(())
    }
}

/// The arguments of `rl summarize`.
#[derive(Debug, clap::Args)]
pub(crate) struct SummarizeArgs {
    /// A results directory written by `rl sweep`.
    #[arg(value_name = "DIR")]
    directory: PathBuf,
}

impl SummarizeArgs {
    /// Writes the summaries and plots, or says which runs are missing.
    pub(crate) fn execute(&self, out: &mut dyn Write) -> Result<(), Failure> {
        let summary = summarize_sweep(&self.directory)?;
        print_summary(out, &summary)
    }
}
