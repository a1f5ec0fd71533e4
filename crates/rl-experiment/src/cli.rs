//! The `rl` command line: `list`, `run`, `render`, `check` and `replay`.
//!
//! Every failure is one line on standard error (`rl: error: ...`) and a non-zero exit status:
//! 2 for arguments the parser rejects, 1 for everything else (unknown ids, malformed JSON,
//! a zero budget, an unwritable output directory, mismatches in a replay). Inputs are checked
//! before any file is written.

use std::io::Write;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use serde_json::Value as JsonValue;

use crate::agent::AGENTS;
use crate::catalog;
use rl_core::Environment;

use crate::{ExperimentConfig, ExperimentError, TerminalProgress, run_experiment};

/// Reinforcement-learning environments and experiments.
#[derive(Debug, Parser)]
#[command(name = "rl", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the domains and the agents, one line each.
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
        /// The SVG file to write (the GIF file with --episode).
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
    /// The learning budget in steps per run; by default the domain's.
    #[arg(long)]
    max_steps: Option<u64>,
    /// Policy checks after step 0, evenly spaced over the budget.
    #[arg(long, default_value_t = 10)]
    checks: u64,
    /// Evaluation episodes per policy check.
    #[arg(long, default_value_t = 10)]
    checks_per_policy: u64,
    /// Independent runs (seeds).
    #[arg(long, default_value_t = 8)]
    runs: u64,
    /// The master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The output directory (re-running the same command there resumes).
    #[arg(long, default_value = "results")]
    out: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<NonZeroUsize>,
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
            let text = error.render().to_string();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid arguments");
            let _ = writeln!(err, "rl: {}", first.trim_start_matches("error: ").trim());
            return ExitCode::from(2);
        }
    };
    match execute(cli.command, out) {
        Ok(code) => code,
        Err(error) => {
            let _ = out.flush();
            let _ = writeln!(err, "rl: error: {error}");
            ExitCode::from(1)
        }
    }
}

fn execute(command: Command, out: &mut dyn Write) -> Result<ExitCode, ExperimentError> {
    let io = |e: std::io::Error| ExperimentError::Io {
        path: PathBuf::from("<stdout>"),
        message: e.to_string(),
    };
    match command {
        Command::List => {
            writeln!(out, "domains:").map_err(io)?;
            for (id, description) in catalog::domains() {
                writeln!(out, "  {id:<28} {description}").map_err(io)?;
            }
            writeln!(out, "agents:").map_err(io)?;
            for (name, description) in AGENTS {
                writeln!(out, "  {name:<28} {description}").map_err(io)?;
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
            let params = parse_object("--params", params.as_deref())?;
            if video.wanted() {
                let line = crate::video::render_episode(&domain, params, seed, &video, &path)?;
                writeln!(out, "{line}").map_err(io)?;
                return Ok(ExitCode::SUCCESS);
            }
            let svg = catalog::render_svg(&domain, params.as_ref(), seed)?;
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| ExperimentError::io(parent, &e))?;
            }
            crate::results::write_atomically(&path, svg.as_bytes())?;
            writeln!(out, "wrote {}", path.display()).map_err(io)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            domain,
            params,
            seed,
        } => {
            let params = parse_object("--params", params.as_deref())?;
            let report = catalog::check(&domain, params.as_ref(), seed)?;
            write!(out, "{report}").map_err(io)?;
            Ok(if report.is_ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Replay { files } => {
            let (text, all_match) = catalog::replay(&files);
            write!(out, "{text}").map_err(io)?;
            Ok(if all_match {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}

fn run(args: RunArgs, out: &mut dyn Write) -> Result<(), ExperimentError> {
    let io = |e: std::io::Error| ExperimentError::Io {
        path: PathBuf::from("<stdout>"),
        message: e.to_string(),
    };
    let domain_params = parse_object("--params", args.params.as_deref())?;
    let agent = args
        .agent
        .unwrap_or_else(|| catalog::default_agent(&args.domain));
    let agent_params = match parse_object("--agent-params", args.agent_params.as_deref())? {
        Some(params) => Some(params),
        None => catalog::default_agent_params(&args.domain, &agent),
    };
    let config = ExperimentConfig {
        domain: args.domain.clone(),
        domain_params: domain_params.clone(),
        agent,
        agent_params,
        max_steps: args
            .max_steps
            .unwrap_or_else(|| catalog::default_max_steps(&args.domain)),
        num_policy_checks: args.checks,
        checks_per_policy: args.checks_per_policy,
        runs: args.runs,
        seed: args.seed,
        evaluation_step_limit: 10_000,
    };
    config.validate()?;
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .unwrap_or(NonZeroUsize::MIN);
    let make_env = || catalog::make(&config.domain, config.domain_params.as_ref());
    // Check the domain and the agent before saying anything, so that bad input gives one line.
    let probe = make_env()?;
    crate::agent::make_agent(
        &config.agent,
        config.agent_params.as_ref(),
        probe.observation_space(),
        probe.action_space(),
        probe.discount(),
    )?;
    drop(probe);
    crate::results::prepare_directory(&args.out, &config)?;
    writeln!(
        out,
        "{} on {}: {} runs of {} steps, {} checks of {} episodes, seed {} (results in {})",
        config.agent,
        config.domain,
        config.runs,
        config.max_steps,
        config.num_policy_checks,
        config.checks_per_policy,
        config.seed,
        args.out.display()
    )
    .map_err(io)?;
    let progress = TerminalProgress::new(config.runs);
    let outcome = run_experiment(&config, &args.out, &make_env, threads, &|| false, &progress)?;
    writeln!(
        out,
        "{:>10}  evaluation return (mean ± std over runs)",
        "steps"
    )
    .map_err(io)?;
    for row in &outcome.summary {
        writeln!(
            out,
            "{:>10}  {:.4} ± {:.4}",
            row.learning_steps, row.return_mean, row.return_std
        )
        .map_err(io)?;
    }
    let mut written = vec![
        args.out.join("summary.csv"),
        args.out.join("learning_curve.svg"),
    ];
    if let Some(analysis) = catalog::analyse(&config, &outcome.results)? {
        let path = args.out.join("value_function.svg");
        crate::results::write_atomically(&path, analysis.value_picture.as_bytes())?;
        written.push(path);
        writeln!(
            out,
            "greedy policy equals value iteration's in {} of {} runs ({} states checked per run)",
            analysis.optimal_runs, config.runs, analysis.states_checked
        )
        .map_err(io)?;
    }
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    writeln!(
        out,
        "wrote {} (and one JSON file and log per run)",
        names.join(", ")
    )
    .map_err(io)?;
    Ok(())
}
