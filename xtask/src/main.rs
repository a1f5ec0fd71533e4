//! `cargo xtask`: the workspace's own automation, in plain Rust with serde_json its one dependency.
//!
//! `cargo xtask ci` runs every check that CI runs, in order, and stops at the first failure;
//! `cargo xtask NAME` or `cargo xtask ci --step NAME` runs one step; `cargo xtask help` lists
//! the steps. Every cargo command goes through `$CARGO`, which cargo sets for its subcommands.

// xtask documents its private items too, as the style guide asks of every item.
#![warn(clippy::missing_docs_in_private_items)]

mod layering;
mod package_names;
mod steps;
mod test_runner;
mod tidy;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use steps::{Failure, STEPS, Step};

/// What the command line asks for.
#[derive(Debug)]
enum Request {
    /// Print the usage and the list of steps.
    Help,
    /// Run these steps in this order, stopping at the first failure.
    Run(Vec<&'static Step>),
}

/// The exit code for a command line xtask does not understand.
const USAGE_ERROR: u8 = 2;

/// Parses the arguments after `cargo xtask`; an error says what is wrong with them.
fn parse_arguments(arguments: &[String]) -> Result<Request, String> {
    let Some((command, rest)) = arguments.split_first() else {
        return Err("no command given".to_owned());
    };
    match command.as_str() {
        "help" | "--help" | "-h" => {
            if let Some(extra) = rest.first() {
                return Err(format!("unexpected argument '{extra}' after '{command}'"));
            }
            Ok(Request::Help)
        }
        "ci" => parse_ci_arguments(rest),
        name => {
            let step = steps::find(name).ok_or_else(|| format!("unknown command '{name}'"))?;
            if let Some(extra) = rest.first() {
                return Err(format!("unexpected argument '{extra}' after '{name}'"));
            }
            Ok(Request::Run(vec![step]))
        }
    }
}

/// Parses the arguments after `cargo xtask ci`: none for every step, or `--step NAME` (also
/// written `--step=NAME`) once or more for the named steps.
fn parse_ci_arguments(arguments: &[String]) -> Result<Request, String> {
    if arguments.is_empty() {
        return Ok(Request::Run(STEPS.iter().collect()));
    }
    let mut selected = Vec::new();
    let mut remaining = arguments.iter();
    while let Some(argument) = remaining.next() {
        let name = if argument == "--step" {
            remaining
                .next()
                .ok_or("'--step' needs a step name, such as '--step clippy'")?
        } else if let Some(name) = argument.strip_prefix("--step=") {
            name
        } else {
            return Err(format!("unexpected argument '{argument}' after 'ci'"));
        };
        let step = steps::find(name).ok_or_else(|| format!("unknown step '{name}'"))?;
        selected.push(step);
    }
    Ok(Request::Run(selected))
}

/// The usage text, with one line per step.
fn help() -> String {
    let mut text = String::from(
        "cargo xtask: the workspace's own automation\n\
         \n\
         Usage:\n\
         \x20 cargo xtask ci                run every step below in order, stopping at the first failure\n\
         \x20 cargo xtask ci --step NAME    run the named step (repeat to run several)\n\
         \x20 cargo xtask NAME              run the named step\n\
         \x20 cargo xtask help              print this message\n\
         \n\
         Steps, in the order 'cargo xtask ci' runs them:\n",
    );
    let width = STEPS.iter().map(|step| step.name.len()).max().unwrap_or(0);
    for step in &STEPS {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "  {:width$}  {}", step.name, step.summary);
    }
    text
}

/// The workspace root: the parent of this crate's directory.
///
/// `cargo run` sets `CARGO_MANIFEST_DIR` when it starts xtask, and that value is preferred to
/// the one compiled in: cargo does not rebuild xtask when the checkout moves but its target
/// directory stays, and the compiled-in path would then name the old checkout.
fn workspace_root() -> PathBuf {
    let manifest_directory = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest_directory
        .parent()
        .map_or_else(|| manifest_directory.clone(), Path::to_path_buf)
}

/// A duration for people: tenths of a second under a minute, else minutes and whole seconds.
fn duration_text(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 59.95 {
        format!("{seconds:.1} s")
    } else {
        let whole = duration.as_secs() + u64::from(duration.subsec_millis() >= 500);
        format!("{} min {} s", whole / 60, whole % 60)
    }
}

/// Runs `selected` in order, printing a header before each step and its time after it, and
/// stops at the first failure with a message that says what to do. The last line gives the
/// total time and each step's (CI's time budget is in README.md).
fn run_steps(selected: &[&Step], root: &Path) -> ExitCode {
    let total = selected.len();
    let started = Instant::now();
    let mut times = Vec::with_capacity(total);
    for (index, step) in selected.iter().enumerate() {
        println!("==> [{}/{total}] {}", index + 1, step.name);
        let step_started = Instant::now();
        let result = steps::run(step, root);
        let took = step_started.elapsed();
        if let Err(failure) = result {
            let what_to_do = match failure {
                Failure::ProblemsFound => step.remedy.to_owned(),
                Failure::CouldNotRun(reason) => reason,
            };
            eprintln!(
                "xtask ci: step '{}' failed after {}: {what_to_do}",
                step.name,
                duration_text(took)
            );
            return ExitCode::FAILURE;
        }
        println!("    {} passed in {}", step.name, duration_text(took));
        times.push(format!("{} {}", step.name, duration_text(took)));
    }
    let noun = if total == 1 { "step" } else { "steps" };
    println!(
        "==> xtask ci: {total} {noun} passed in {} ({})",
        duration_text(started.elapsed()),
        times.join(", ")
    );
    ExitCode::SUCCESS
}

/// Parses the command line and does what it asks; the exit code is 0 on success, 1 when a step
/// fails and 2 when the command line is not understood.
fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|argument| argument.to_string_lossy().into_owned())
        .collect();
    match parse_arguments(&arguments) {
        Ok(Request::Help) => {
            print!("{}", help());
            ExitCode::SUCCESS
        }
        Ok(Request::Run(selected)) => run_steps(&selected, &workspace_root()),
        Err(message) => {
            eprintln!("xtask: {message}\n\n{}", help());
            ExitCode::from(USAGE_ERROR)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{Request, STEPS, duration_text, help, parse_arguments, workspace_root};

    #[test]
    fn durations_read_as_seconds_then_minutes() {
        assert_eq!(duration_text(Duration::from_millis(0)), "0.0 s");
        assert_eq!(duration_text(Duration::from_millis(4_290)), "4.3 s");
        assert_eq!(duration_text(Duration::from_millis(59_940)), "59.9 s");
        assert_eq!(duration_text(Duration::from_millis(59_960)), "1 min 0 s");
        assert_eq!(duration_text(Duration::from_millis(286_400)), "4 min 46 s");
        assert_eq!(duration_text(Duration::from_millis(286_500)), "4 min 47 s");
    }

    /// What a command line asks for, written as one string split on spaces: `None` for help, or
    /// the names of the steps to run, so that tests can spell the expected value.
    fn parse(command_line: &str) -> Result<Option<Vec<&'static str>>, String> {
        let arguments: Vec<String> = command_line.split_whitespace().map(str::to_owned).collect();
        parse_arguments(&arguments).map(|request| match request {
            Request::Help => None,
            Request::Run(selected) => Some(selected.iter().map(|step| step.name).collect()),
        })
    }

    #[test]
    fn ci_runs_every_step_in_order() {
        let all: Vec<&str> = STEPS.iter().map(|step| step.name).collect();
        assert_eq!(parse("ci"), Ok(Some(all)));
    }

    #[test]
    fn one_step_can_be_selected_three_ways() {
        for command_line in ["ci --step clippy", "ci --step=clippy", "clippy"] {
            assert_eq!(
                parse(command_line),
                Ok(Some(vec!["clippy"])),
                "{command_line}"
            );
        }
        assert_eq!(
            parse("ci --step tidy --step=layering"),
            Ok(Some(vec!["tidy", "layering"]))
        );
    }

    #[test]
    fn help_has_aliases() {
        for command_line in ["help", "--help", "-h"] {
            assert_eq!(parse(command_line), Ok(None), "{command_line}");
        }
    }

    #[test]
    fn bad_command_lines_are_errors() {
        assert_eq!(parse(""), Err("no command given".to_owned()));
        assert_eq!(parse("lint"), Err("unknown command 'lint'".to_owned()));
        assert_eq!(
            parse("ci --step lint"),
            Err("unknown step 'lint'".to_owned())
        );
        assert!(parse("ci --step").is_err());
        assert!(parse("ci --all").is_err());
        assert!(parse("tidy --fix").is_err());
        assert!(parse("help tidy").is_err());
    }

    #[test]
    fn help_lists_every_step() {
        let text = help();
        for step in &STEPS {
            assert!(text.contains(step.name), "{}", step.name);
            assert!(text.contains(step.summary), "{}", step.name);
        }
    }

    #[test]
    fn workspace_root_holds_the_workspace_manifest() {
        assert!(workspace_root().join("Cargo.toml").is_file());
        assert!(workspace_root().join("xtask").is_dir());
    }
}
