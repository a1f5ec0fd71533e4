//! The `rl` command line: `list`, `run`, `plot`, `render`, `check`, `replay`, and for sweeps
//! `sweep`, `status` and `summarize` ([`sweep`](crate::sweep)).
//!
//! Every failure is one line on standard error (`rl: error: ...`; an unknown id's line, which
//! suggests the closest registered id, is followed by the registered ids, one per line by
//! prefix) and a non-zero exit status: 2 for arguments the parser rejects (a missing argument
//! is named; a count out of its range gives the range), 1 for everything else (unknown ids,
//! malformed JSON, an output path that is a file, an `--out` file whose extension is not the
//! format written, a results directory of another experiment, mismatches in a replay), 130 for
//! an interruption by Ctrl-C (which says how many runs were saved: rerunning the same command
//! resumes). Inputs are checked before any file is written or anything proportional to a typed
//! number is allocated; the limits are [`MAX_STEPS_LIMIT`], [`POLICY_CHECKS_LIMIT`],
//! [`CHECKS_PER_POLICY_LIMIT`] and [`RUNS_LIMIT`] (and, for `rl plot`,
//! [`PLOT_DIRECTORIES_LIMIT`](crate::plot::PLOT_DIRECTORIES_LIMIT)). Output cut short by a
//! closed pipe (`rl list | head -1`) ends quietly with status 0.

use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use clap::{Args, Parser, Subcommand};
use serde_json::Value as JsonValue;

use crate::agent;
use crate::catalog;

use crate::{
    CHECKS_PER_POLICY_LIMIT, ExperimentConfig, ExperimentError, MAX_STEPS_LIMIT,
    POLICY_CHECKS_LIMIT, RUNS_LIMIT, TerminalProgress,
};

/// What `rl --help` opens with.
const ABOUT: &str = "rl: list the reinforcement-learning domains and agents, run resumable \
experiments (results, a summary CSV and learning curves on disk), and draw, check and replay \
domains.";

/// The command line (`rl --help`).
#[derive(Debug, Parser)]
#[command(name = "rl", version, about = ABOUT, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the domains, one line each under their family, and the agents, one line each.
    List,
    /// Run an experiment: learn for a step budget, checking the greedy policy at evenly spaced
    /// points, over several seeded runs in parallel; results, a summary CSV and plots go to --out.
    Run(RunArgs),
    /// Draw a domain's initial state as an SVG picture, or record an episode as an animated
    /// GIF (--episode).
    Render {
        /// The domain id (see `rl list`).
        #[arg(long, default_value = catalog::DEFAULT_DOMAIN)]
        domain: String,
        /// JSON object overriding the domain's parameters.
        #[arg(long)]
        params: Option<String>,
        /// The seed of the initial state.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The SVG file to write (the GIF file with --episode): its name must end in .svg (.gif);
        /// an existing file there is replaced, but a link, named pipe, device or directory is
        /// refused.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        video: crate::video::EpisodeArgs,
    },
    /// Run the conformance checker on a domain and print its report.
    Check {
        /// The domain id (see `rl list`).
        #[arg(long, default_value = catalog::DEFAULT_DOMAIN)]
        domain: String,
        /// JSON object overriding the domain's parameters.
        #[arg(long)]
        params: Option<String>,
        /// The checker's seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Replay reference trace files against our domains and report mismatches.
    Replay {
        /// Reference files (the schema of testdata/reference/README.md).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Overlay the learning curves of result directories written by `rl run` in one SVG plot.
    ///
    /// Each directory's summary.csv gives one line (the mean evaluation return per check) with
    /// its band (± the standard deviation over runs), in a colour of its own, on shared axes.
    /// The legend names each directory as given, with the agent, domain and number of runs from
    /// its experiment.json when it has one. At most 16 directories; a path that is not such a
    /// directory, or a summary.csv that does not parse, is an error (naming the directory, or
    /// the file and line) and nothing is written.
    Plot(crate::plot::PlotArgs),
    /// Run a sweep file (domains x agents x parameter grids x seeds), or one shard of it, into
    /// a results directory shared by every shard.
    ///
    /// The runs are numbered in a documented order; shard K of N (--shard K/N, or Slurm's
    /// SLURM_ARRAY_TASK_ID, or a Kubernetes JOB_COMPLETION_INDEX with --shard-count) runs
    /// those whose number is K modulo N, skipping finished ones, so that a killed shard rerun
    /// resumes. Each setting's directory holds what `rl run` writes; the shard that finishes
    /// the sweep writes the summaries, an overlay of settings per domain and settings.csv.
    /// See docs/sweeps.md.
    Sweep(crate::sweep::SweepArgs),
    /// Show the finished, running and missing runs of each setting of a sweep directory.
    Status(crate::sweep::StatusArgs),
    /// Write a sweep directory's summaries and plots once all its runs are finished, or say
    /// which runs are missing.
    Summarize(crate::sweep::SummarizeArgs),
}

#[derive(Debug, Args)]
struct RunArgs {
    /// The domain id (see `rl list`).
    #[arg(long, default_value = catalog::DEFAULT_DOMAIN)]
    domain: String,
    /// JSON object overriding the domain's parameters.
    #[arg(long)]
    params: Option<String>,
    /// The agent (see `rl list`); by default the domain's usual learner.
    #[arg(long)]
    agent: Option<String>,
    /// JSON object overriding the agent's parameters.
    #[arg(long)]
    agent_params: Option<String>,
    /// The learning budget in steps per run (1 to 10^12); by default the domain's.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_max_steps)]
    max_steps: Option<u64>,
    /// Policy checks after step 0, evenly spaced over the budget (1 to 10000).
    #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = parse_checks)]
    checks: u64,
    /// Evaluation episodes per policy check (1 to 1000000); by default the domain's, else 10.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_checks_per_policy)]
    checks_per_policy: Option<u64>,
    /// Independent runs (seeds), 1 to 10000.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = parse_runs)]
    runs: u64,
    /// The master seed (0 to 2^64 - 1).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// The output directory (re-running the same command there resumes).
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// Worker threads, 1 to 4096 (default: all cores).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_threads)]
    threads: Option<NonZeroUsize>,
}

/// Reads a count from 1 to `limit`, with a message that gives the range.
fn parse_count(text: &str, limit: u64) -> Result<u64, String> {
    let range = format!("give a whole number from 1 to {limit}");
    match text.trim().parse::<i128>() {
        Ok(value) if (1..=i128::from(limit)).contains(&value) => Ok(value as u64),
        Ok(value) if value < 1 => Err(format!("{value} is less than 1: {range}")),
        Ok(_) => Err(format!("too large: {range}")),
        Err(_) if text.trim().chars().all(|c| c.is_ascii_digit()) && !text.trim().is_empty() => {
            Err(format!("too large: {range}"))
        }
        Err(_) => Err(format!("not a whole number: {range}")),
    }
}

fn parse_max_steps(text: &str) -> Result<u64, String> {
    parse_count(text, MAX_STEPS_LIMIT)
}

fn parse_checks(text: &str) -> Result<u64, String> {
    parse_count(text, POLICY_CHECKS_LIMIT)
}

fn parse_checks_per_policy(text: &str) -> Result<u64, String> {
    parse_count(text, CHECKS_PER_POLICY_LIMIT)
}

fn parse_runs(text: &str) -> Result<u64, String> {
    parse_count(text, RUNS_LIMIT)
}

/// The most worker threads `--threads` accepts.
const THREADS_LIMIT: u64 = 4096;

pub(crate) fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    parse_count(text, THREADS_LIMIT).and_then(|threads| {
        usize::try_from(threads)
            .ok()
            .and_then(NonZeroUsize::new)
            .ok_or_else(|| format!("{threads} threads are not possible here"))
    })
}

/// Set by the Ctrl-C handler of [`main_with_args`]: the experiment stops at the next step.
static INTERRUPTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);

/// Whether a Ctrl-C ends the process at once: always, but while `rl run` or `rl sweep` runs an
/// experiment that no Ctrl-C has asked to stop yet.
static EXIT_ON_INTERRUPT: LazyLock<Arc<AtomicBool>> =
    LazyLock::new(|| Arc::new(AtomicBool::new(true)));

/// Installs the Ctrl-C handler once per process. While an experiment runs, the first Ctrl-C
/// asks it to stop at its next step (finished runs are on disk; the runs in flight are redone
/// on resume, since saving a learner mid-run would need every agent to serialise its state)
/// and a second one ends the process at once; at any other time Ctrl-C ends the process at
/// once. Both ways the status is 130.
///
/// signal-hook's flags, in this order (its actions run in the order they were registered): the
/// shutdown reads [`EXIT_ON_INTERRUPT`] before the other two set it and [`INTERRUPTED`], which
/// arms the shutdown for a second Ctrl-C (signal-hook's own recipe for it; the workspace's
/// Cargo.toml says why signal-hook rather than ctrlc).
fn install_interrupt_handler() {
    use signal_hook::{consts::SIGINT, flag};
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&EXIT_ON_INTERRUPT)).is_ok()
            && flag::register(SIGINT, Arc::clone(&INTERRUPTED)).is_ok()
            && flag::register(SIGINT, Arc::clone(&EXIT_ON_INTERRUPT)).is_ok()
    });
}

/// Why a command failed: an experiment error, or standard output that cannot be written.
#[derive(Debug)]
pub(crate) enum Failure {
    Experiment(ExperimentError),
    Output(std::io::Error),
    /// Ctrl-C stopped `rl run`: how many runs are saved, of how many, and where.
    Interrupted {
        saved: u64,
        runs: u64,
        directory: PathBuf,
    },
}

impl From<ExperimentError> for Failure {
    fn from(error: ExperimentError) -> Self {
        Failure::Experiment(error)
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Self {
        Failure::Output(error)
    }
}

/// The format of a file that `--out` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputFormat {
    /// An SVG picture (`rl render`, `rl plot`).
    Svg,
    /// An animated GIF (`rl render --episode`).
    Gif,
}

impl OutputFormat {
    /// The file extension, without the dot.
    fn extension(self) -> &'static str {
        match self {
            OutputFormat::Svg => "svg",
            OutputFormat::Gif => "gif",
        }
    }

    /// The format as a message names it.
    fn description(self) -> &'static str {
        match self {
            OutputFormat::Svg => "an SVG picture",
            OutputFormat::Gif => "an animated GIF",
        }
    }
}

/// Checks an `--out` file before anything is computed or written: its extension must be
/// `format`'s (ignoring case; a name without one is refused too), because `command` (as the
/// message names it, such as "`rl plot`") writes `format` whatever the name says, and what is
/// there must be nothing or a regular file ([`check_replaceable`](crate::results::check_replaceable):
/// a symbolic link, named pipe, device or directory is refused, never replaced). `advice` ends
/// the extension message (", or add --episode ..."). Every command that writes a file named by
/// `--out` calls this; the writer checks the target once more just before it replaces it.
pub(crate) fn check_out_file(
    path: &std::path::Path,
    format: OutputFormat,
    command: &str,
    advice: &str,
) -> Result<(), ExperimentError> {
    let wanted = format.extension();
    match path.extension() {
        Some(extension) if extension.eq_ignore_ascii_case(wanted) => {}
        Some(extension) => {
            return Err(ExperimentError::invalid(
                "--out",
                format!(
                    "{} ends in .{}, but {command} writes {}: name a .{wanted} file{advice}",
                    path.display(),
                    extension.to_string_lossy(),
                    format.description(),
                ),
            ));
        }
        None => {
            return Err(ExperimentError::invalid(
                "--out",
                format!(
                    "{} has no extension, but {command} writes {}: name a .{wanted} file{advice}",
                    path.display(),
                    format.description(),
                ),
            ));
        }
    }
    crate::results::check_replaceable(path).map_err(|error| ExperimentError::io(path, &error))
}

/// Parses a `--params`-style JSON object.
fn parse_object(
    flag: &'static str,
    text: Option<&str>,
) -> Result<Option<JsonValue>, ExperimentError> {
    let Some(text) = text else { return Ok(None) };
    let value: JsonValue =
        rl_spaces::parse_strict(text).map_err(|e| ExperimentError::invalid(flag, e.to_string()))?;
    if !value.is_object() {
        return Err(ExperimentError::invalid(
            flag,
            "expected a JSON object such as '{\"noise\": 0.2}'",
        ));
    }
    Ok(Some(value))
}

/// Runs the `rl` command line on `args` (the program name first), writing to the process's
/// standard output and error, and returns the exit status: what `bin/rl.rs` calls. A binary
/// of your own that registers its domains first (see `docs/custom-domain.md`) and then calls
/// this is the `rl` command line with those domains.
pub fn main_with_args<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    install_interrupt_handler();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr();
    run_with_args(args, &mut out, &mut err)
}

/// [`main_with_args`] writing to `out` and `err` instead of the process's standard output
/// and error (help and version text go to `out`, one-line errors to `err`; the progress bar of
/// `rl run` still draws on the terminal when standard error is one).
pub fn run_with_args<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = write!(out, "{}", error.render());
                return if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            let _ = writeln!(err, "rl: error: {}", parse_error_line(&error));
            return ExitCode::from(2);
        }
    };
    match execute(cli.command, out)
        .and_then(|code| out.flush().map(|()| code).map_err(Failure::from))
    {
        Ok(code) => code,
        Err(Failure::Output(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => {
            // The reader went away (`rl list | head -1`): nothing is wrong.
            ExitCode::SUCCESS
        }
        Err(Failure::Output(error)) => {
            let _ = writeln!(err, "rl: error: cannot write to standard output: {error}");
            ExitCode::from(1)
        }
        Err(Failure::Interrupted {
            saved,
            runs,
            directory,
        }) => {
            let _ = out.flush();
            let _ = writeln!(
                err,
                "rl: error: interrupted: {saved} of {runs} runs saved in {}; run the same command again to resume",
                directory.display()
            );
            ExitCode::from(130)
        }
        Err(Failure::Experiment(error)) => {
            let _ = out.flush();
            let _ = writeln!(err, "rl: error: {error}");
            ExitCode::from(1)
        }
    }
}

/// A configuration mismatch in the default output directory, `results`, that comes from
/// another id, with the way out: every id shares that default, `--out results/<id>` keeps them
/// apart. Any other error as it is.
fn shared_default_hint(error: ExperimentError, out: &Path, domain: &str) -> ExperimentError {
    match error {
        ExperimentError::ConfigMismatch {
            directory,
            differences,
        } if out == Path::new("results") && differences.starts_with("domain was") => {
            ExperimentError::ConfigMismatch {
                directory,
                differences: format!(
                    "{differences}; the default --out, results, is shared by every id: \
                     --out results/{domain} keeps this one apart"
                ),
            }
        }
        other => other,
    }
}

/// The parser's error as one line: its first line, with the arguments it lists (a missing
/// argument's name) joined to it, and clap's suggestion for a mistyped flag, subcommand or
/// value (`--domian`: did you mean `--domain`?).
fn parse_error_line(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let mut lines = text.lines().skip_while(|line| line.trim().is_empty());
    let mut line = lines
        .next()
        .unwrap_or("invalid arguments")
        .trim()
        .trim_start_matches("error:")
        .trim()
        .to_owned();
    let listed: Vec<&str> = lines
        .take_while(|next| next.starts_with("  ") && !next.trim().is_empty())
        .map(str::trim)
        .collect();
    if !listed.is_empty() {
        line.push(' ');
        line.push_str(&listed.join(", "));
    }
    use clap::error::{ContextKind, ContextValue};
    for kind in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ] {
        let suggested = match error.get(kind) {
            Some(ContextValue::String(one)) => vec![one.clone()],
            Some(ContextValue::Strings(many)) => many.clone(),
            _ => continue,
        };
        if !suggested.is_empty() {
            let names: Vec<String> = suggested.iter().map(|name| format!("'{name}'")).collect();
            line.push_str(&format!("; did you mean {}?", names.join(" or ")));
        }
    }
    line
}

fn execute(command: Command, out: &mut dyn Write) -> Result<ExitCode, Failure> {
    match command {
        Command::List => {
            writeln!(out, "domains:")?;
            for (family, domains) in catalog::domains_by_family() {
                writeln!(out, "  {family}:")?;
                for (id, description) in domains {
                    writeln!(out, "    {id:<26} {description}")?;
                }
            }
            writeln!(out, "agents:")?;
            for (name, description) in agent::agents() {
                writeln!(out, "  {name:<28} {description}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Run(args) => run(args, out).map(|()| ExitCode::SUCCESS),
        Command::Render {
            domain,
            params,
            seed,
            out: path,
            video,
        } => {
            if video.wanted() {
                check_out_file(&path, OutputFormat::Gif, "`rl render --episode`", "")?;
            } else {
                check_out_file(
                    &path,
                    OutputFormat::Svg,
                    "`rl render` without --episode",
                    ", or add --episode to record an episode as an animated GIF",
                )?;
            }
            let params = parse_object("--params", params.as_deref())?;
            if video.wanted() {
                let line = crate::video::render_episode(&domain, params, seed, &video, &path)?;
                writeln!(out, "{line}")?;
                return Ok(ExitCode::SUCCESS);
            }
            let svg = catalog::render_svg(&domain, params.as_ref(), seed)?;
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                crate::results::create_dir_all_durably(parent)
                    .map_err(|e| ExperimentError::io(parent, &e))?;
            }
            crate::results::write_atomically(&path, svg.as_bytes())?;
            writeln!(out, "wrote {}", path.display())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            domain,
            params,
            seed,
        } => {
            let params = parse_object("--params", params.as_deref())?;
            let report = catalog::check(&domain, params.as_ref(), seed)?;
            write!(out, "{report}")?;
            Ok(if report.is_ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Replay { files } => {
            let (text, all_match) = catalog::replay(&files);
            write!(out, "{text}")?;
            Ok(if all_match {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Plot(args) => {
            let path = args.write()?;
            writeln!(out, "wrote {}", path.display())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Sweep(args) => {
            EXIT_ON_INTERRUPT.store(false, Ordering::SeqCst);
            let result = args.execute(out, &|| INTERRUPTED.load(Ordering::SeqCst));
            EXIT_ON_INTERRUPT.store(true, Ordering::SeqCst);
            result.map(|()| ExitCode::SUCCESS)
        }
        Command::Status(args) => args.execute(out).map(|()| ExitCode::SUCCESS),
        Command::Summarize(args) => args.execute(out).map(|()| ExitCode::SUCCESS),
    }
}

/// Adds a run's comparison with value iteration to its log, replacing the one an earlier
/// command wrote (so that resuming does not repeat it).
pub(crate) fn annotate_log(
    directory: &std::path::Path,
    comparison: &catalog::PolicyComparison,
) -> Result<(), ExperimentError> {
    let path = crate::results::log_path(directory, comparison.run);
    let old = crate::results::read_regular_file(&path).unwrap_or_default();
    let mut text: String = old
        .lines()
        .filter(|line| !line.starts_with(catalog::COMPARISON_PREFIX))
        .flat_map(|line| [line, "\n"])
        .collect();
    for line in comparison.log_lines() {
        text.push_str(&line);
        text.push('\n');
    }
    crate::results::write_atomically(&path, text.as_bytes())
}

fn run(args: RunArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let domain_params = parse_object("--params", args.params.as_deref())?;
    let agent = args
        .agent
        .unwrap_or_else(|| catalog::default_agent(&args.domain));
    let agent_params = match parse_object("--agent-params", args.agent_params.as_deref())? {
        Some(params) => Some(params),
        None => catalog::default_agent_params(&args.domain, &agent),
    };
    let action_bins = catalog::default_action_bins(
        &args.domain,
        domain_params.as_ref(),
        &agent,
        agent_params.as_ref(),
    );
    let config = ExperimentConfig {
        domain: args.domain.clone(),
        domain_params: domain_params.clone(),
        agent,
        agent_params,
        max_steps: args
            .max_steps
            .unwrap_or_else(|| catalog::default_max_steps(&args.domain)),
        num_policy_checks: args.checks,
        checks_per_policy: args
            .checks_per_policy
            .unwrap_or_else(|| catalog::default_checks_per_policy(&args.domain)),
        runs: args.runs,
        seed: args.seed,
        evaluation_step_limit: crate::criterion::DEFAULT_EVALUATION_STEP_LIMIT,
        action_bins,
    };
    config.validate()?;
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .unwrap_or(NonZeroUsize::MIN);
    let make_env = || catalog::make_for_experiment(&config);
    // Check the domain and the agent before saying anything, so that bad input gives one line.
    let probe = make_env()?;
    crate::agent::make_agent_for(
        &config.agent,
        config.agent_params.as_ref(),
        &probe,
        &config.domain,
    )?;
    drop(probe);
    // Held until this function returns, after the last file (the analysis below included) is
    // written: a second `rl run` on this directory meanwhile refuses at once.
    let lock = crate::lock::RunLock::acquire(&args.out)?;
    crate::results::prepare_directory(&args.out, &config)
        .map_err(|error| shared_default_hint(error, &args.out, &config.domain))?;
    writeln!(
        out,
        "{} on {}{}: {} runs of {} steps, {} checks of {} episodes, seed {} (results in {})",
        config.agent,
        config.domain,
        config.action_bins.map_or(String::new(), |bins| format!(
            " (actions discretised into {bins} per dimension)"
        )),
        config.runs,
        config.max_steps,
        config.num_policy_checks,
        config.checks_per_policy,
        config.seed,
        args.out.display()
    )?;
    out.flush()?;
    let progress = TerminalProgress::new(config.runs);
    let stop = || INTERRUPTED.load(Ordering::SeqCst);
    EXIT_ON_INTERRUPT.store(false, Ordering::SeqCst);
    let outcome =
        crate::runs::run_in_locked_directory(&config, &lock, &make_env, threads, &stop, &progress);
    EXIT_ON_INTERRUPT.store(true, Ordering::SeqCst);
    let outcome = match outcome {
        Err(ExperimentError::Interrupted) => {
            return Err(Failure::Interrupted {
                saved: progress.finished_runs(),
                runs: config.runs,
                directory: args.out,
            });
        }
        other => other?,
    };
    writeln!(
        out,
        "{:>10}  evaluation return (mean ± std over runs)",
        "steps"
    )?;
    for row in &outcome.summary {
        writeln!(
            out,
            "{:>10}  {} ± {}",
            row.learning_steps,
            crate::progress::fixed(row.return_mean, 4),
            crate::progress::fixed(row.return_std, 4)
        )?;
    }
    if let Some(note) = catalog::success_note(&config, &outcome.results) {
        writeln!(out, "{note}")?;
    }
    let violations = crate::results::violation_summary(&outcome.results);
    if !violations.is_empty() {
        writeln!(
            out,
            "constraint violations in learning episodes (all runs; each episode's in its run file):"
        )?;
        for row in &violations {
            writeln!(
                out,
                "  {}: {} steps in {} of {} episodes, first at step {} (earliest) and {} (mean)",
                row.name,
                row.count,
                row.episodes,
                row.of_episodes,
                row.earliest_first_step,
                crate::progress::fixed(row.mean_first_step, 1)
            )?;
        }
    }
    let mut written = vec![
        args.out.join("summary.csv"),
        args.out.join("learning_curve.svg"),
    ];
    if let Some(analysis) = catalog::analyse(&config, &outcome.results)? {
        let path = args.out.join("value_function.svg");
        crate::results::write_atomically(&path, analysis.value_picture.as_bytes())?;
        written.push(path);
        for comparison in &analysis.comparisons {
            annotate_log(&args.out, comparison)?;
        }
        let short = analysis
            .comparisons
            .iter()
            .filter(|c| !c.reaches_end)
            .count();
        write!(
            out,
            "greedy policy from the start follows value iteration's in {} of {} runs (cells on each run's greedy path checked; differences are in the run logs)",
            analysis.matching_runs,
            analysis.comparisons.len()
        )?;
        if short > 0 {
            write!(
                out,
                "; in {short} runs the greedy path does not reach the end: the budget may be too small (--max-steps)"
            )?;
        }
        writeln!(out)?;
    }
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    writeln!(
        out,
        "wrote {} (and one JSON file and log per run)",
        names.join(", ")
    )?;
    Ok(())
}
