//! The CI steps, in order: what each one runs and what to do when it fails.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::{layering, tidy};

/// What a step does.
#[derive(Debug)]
pub(crate) enum Action {
    /// Check that every Rust file opens with a `//!` line.
    Tidy,
    /// Check the layer order of the `rl-*` crates in `cargo metadata`.
    Layering,
    /// Run cargo with `arguments`; each of `environment` is appended to the variable's current value.
    Cargo {
        /// The arguments after `cargo`.
        arguments: &'static [&'static str],
        /// Environment variables and the flags to add to them.
        environment: &'static [(&'static str, &'static str)],
    },
}

/// One step of `cargo xtask ci`.
#[derive(Debug)]
pub(crate) struct Step {
    /// The name used in headers, messages and `cargo xtask NAME`.
    pub(crate) name: &'static str,
    /// One line for `cargo xtask help`.
    pub(crate) summary: &'static str,
    /// What the step does.
    pub(crate) action: Action,
    /// What to do when the step fails, printed after "failed: ".
    pub(crate) remedy: &'static str,
}

/// Every step of `cargo xtask ci`, in the order they run: cheap checks first.
pub(crate) static STEPS: [Step; 8] = [
    Step {
        name: "tidy",
        summary: "every .rs file starts with a `//!` line saying what it holds",
        action: Action::Tidy,
        remedy: "add a first line beginning with '//!' that says what each listed file holds",
    },
    Step {
        name: "layering",
        summary: "rl-spaces < rl-core < rl-wrappers < rl-domains < rl-experiment: each depends only on lower layers",
        action: Action::Layering,
        remedy: "fix each listed problem: remove the dependency, or move the code it needs down \
                 a layer; the order is rl-spaces < rl-core < rl-wrappers < rl-domains < \
                 rl-experiment (see ARCHITECTURE.md)",
    },
    Step {
        name: "fmt",
        summary: "cargo fmt --all -- --check",
        action: Action::Cargo {
            arguments: &["fmt", "--all", "--", "--check"],
            environment: &[],
        },
        remedy: "run 'cargo fmt --all' to format the code",
    },
    Step {
        name: "clippy",
        summary: "cargo clippy --workspace --all-targets --all-features -- -D warnings",
        action: Action::Cargo {
            arguments: &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--all-features",
                "--",
                "-D",
                "warnings",
            ],
            environment: &[],
        },
        remedy: "run 'cargo clippy --workspace --all-targets --all-features -- -D warnings' \
                 and fix the warnings",
    },
    Step {
        name: "test",
        summary: "cargo test --workspace --all-features (unit, integration and doc tests)",
        action: Action::Cargo {
            arguments: &["test", "--workspace", "--all-features"],
            environment: &[],
        },
        remedy: "run 'cargo test --workspace --all-features' and fix the failing tests",
    },
    Step {
        name: "doc",
        summary: "RUSTDOCFLAGS=\"-D warnings\" cargo doc --workspace --no-deps --all-features",
        action: Action::Cargo {
            arguments: &["doc", "--workspace", "--no-deps", "--all-features"],
            environment: &[("RUSTDOCFLAGS", "-D warnings")],
        },
        remedy: "run 'RUSTDOCFLAGS=\"-D warnings\" cargo doc --workspace --no-deps --all-features' \
                 and fix the documentation warnings",
    },
    Step {
        name: "bench",
        summary: "cargo bench --workspace --no-run (benchmarks compile)",
        action: Action::Cargo {
            arguments: &["bench", "--workspace", "--no-run"],
            environment: &[],
        },
        remedy: "run 'cargo bench --workspace --no-run' and fix the compile errors in the benchmarks",
    },
    Step {
        name: "examples",
        summary: "cargo build --workspace --examples",
        action: Action::Cargo {
            arguments: &["build", "--workspace", "--examples"],
            environment: &[],
        },
        remedy: "run 'cargo build --workspace --examples' and fix the compile errors in the examples",
    },
];

/// The step called `name`, if there is one.
pub(crate) fn find(name: &str) -> Option<&'static Step> {
    STEPS.iter().find(|step| step.name == name)
}

/// The cargo to run: `$CARGO`, which cargo sets for `cargo xtask`, or else `cargo` on the path.
fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"))
}

/// `flags` added after the current value of the environment variable `name`, if it has one.
fn appended_flags(name: &str, flags: &str) -> OsString {
    match std::env::var_os(name) {
        Some(mut value) if !value.is_empty() => {
            value.push(" ");
            value.push(flags);
            value
        }
        _ => OsString::from(flags),
    }
}

/// Why a step did not pass.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The step ran and found problems, already printed; the step's remedy says what to do.
    ProblemsFound,
    /// The step could not do its work at all; the text says why and what to fix first.
    CouldNotRun(String),
}

/// Runs `step` with `root` as the working directory.
///
/// Child processes inherit stdin, stdout and stderr. A step that finds problems prints them
/// (the offending files, the violations, or cargo's own output) before it returns.
pub(crate) fn run(step: &Step, root: &Path) -> Result<(), Failure> {
    match &step.action {
        Action::Tidy => run_tidy(root),
        Action::Layering => run_layering(root),
        Action::Cargo {
            arguments,
            environment,
        } => {
            let mut command = Command::new(cargo());
            command.args(*arguments).current_dir(root);
            for (name, flags) in *environment {
                command.env(name, appended_flags(name, flags));
            }
            run_command(&mut command)
        }
    }
}

/// Runs `command` with inherited stdio; it passes when the command exits successfully.
fn run_command(command: &mut Command) -> Result<(), Failure> {
    println!("    $ {}", describe(command));
    match command.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => {
            eprintln!("xtask ci: '{}' exited with {status}", describe(command));
            Err(Failure::ProblemsFound)
        }
        Err(error) => Err(could_not_start(command, &error)),
    }
}

/// The failure of a command that did not start, such as a cargo that is not installed.
fn could_not_start(command: &Command, error: &std::io::Error) -> Failure {
    Failure::CouldNotRun(format!(
        "could not start '{}' ({error}); check that cargo is installed, or set $CARGO to it",
        describe(command)
    ))
}

/// A command line for messages: its environment changes, program name and arguments.
fn describe(command: &Command) -> String {
    let mut words: Vec<String> = command
        .get_envs()
        .filter_map(|(name, value)| {
            value.map(|value| format!("{}=\"{}\"", name.to_string_lossy(), value.to_string_lossy()))
        })
        .collect();
    // The program's file name is enough: `$CARGO` is usually a long path into a toolchain.
    let program = Path::new(command.get_program());
    let program = program.file_name().unwrap_or(program.as_os_str());
    words.push(program.to_string_lossy().into_owned());
    words.extend(
        command
            .get_args()
            .map(|argument| argument.to_string_lossy().into_owned()),
    );
    words.join(" ")
}

/// The tidy step: reports every Rust file that does not open with a `//!` line.
fn run_tidy(root: &Path) -> Result<(), Failure> {
    let report = tidy::check(root).map_err(|error| {
        Failure::CouldNotRun(format!(
            "could not read the sources under {}: {error}",
            root.display()
        ))
    })?;
    if report.missing_module_doc.is_empty() {
        println!(
            "    {} Rust files checked, each opens with a '//!' line",
            report.checked
        );
        return Ok(());
    }
    for file in &report.missing_module_doc {
        eprintln!(
            "xtask ci: {}: the first line does not begin with '//!'",
            file.display()
        );
    }
    eprintln!(
        "xtask ci: {} of {} Rust files lack a '//!' first line",
        report.missing_module_doc.len(),
        report.checked
    );
    Err(Failure::ProblemsFound)
}

/// The layering step: reads `cargo metadata` and reports every dependency that breaks the order.
fn run_layering(root: &Path) -> Result<(), Failure> {
    let mut command = Command::new(cargo());
    command
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    let output = command
        .output()
        .map_err(|error| could_not_start(&command, &error))?;
    if !output.status.success() {
        return Err(Failure::CouldNotRun(format!(
            "'{}' exited with {}; fix the workspace manifests so that it succeeds",
            describe(&command),
            output.status
        )));
    }
    let metadata = String::from_utf8(output.stdout).map_err(|_| {
        Failure::CouldNotRun("cargo metadata printed text that is not UTF-8".to_owned())
    })?;
    let violations = layering::check_metadata(&metadata).map_err(|error| {
        Failure::CouldNotRun(format!(
            "{error}; xtask/src/layering.rs no longer understands cargo metadata and needs fixing"
        ))
    })?;
    if violations.is_empty() {
        println!("    the rl-* crates respect the layer order");
        return Ok(());
    }
    for violation in &violations {
        eprintln!("xtask ci: {violation}");
    }
    Err(Failure::ProblemsFound)
}

#[cfg(test)]
mod tests {
    use super::{Action, STEPS, Step, find};

    /// The command line a developer types to reproduce a cargo step.
    fn typed_command(step: &Step) -> Option<String> {
        match step.action {
            Action::Cargo {
                arguments,
                environment,
            } => {
                let mut words: Vec<String> = environment
                    .iter()
                    .map(|(name, flags)| format!("{name}=\"{flags}\""))
                    .collect();
                words.push("cargo".to_owned());
                words.extend(arguments.iter().map(|argument| (*argument).to_owned()));
                Some(words.join(" "))
            }
            Action::Tidy | Action::Layering => None,
        }
    }

    #[test]
    fn step_names_are_unique_and_found() {
        for (index, step) in STEPS.iter().enumerate() {
            assert!(STEPS[..index].iter().all(|other| other.name != step.name));
            assert_eq!(find(step.name).map(|found| found.name), Some(step.name));
        }
        assert!(find("ci").is_none());
        assert!(find("help").is_none());
    }

    #[test]
    fn steps_run_in_the_documented_order() {
        let names: Vec<&str> = STEPS.iter().map(|step| step.name).collect();
        assert_eq!(
            names,
            [
                "tidy", "layering", "fmt", "clippy", "test", "doc", "bench", "examples"
            ]
        );
    }

    #[test]
    fn layering_help_and_remedy_spell_the_layer_order() {
        let order = crate::layering::LAYERS.join(" < ");
        let step = find("layering").expect("the layering step exists");
        assert!(step.summary.contains(&order), "{}", step.summary);
        assert!(step.remedy.contains(&order), "{}", step.remedy);
    }

    #[test]
    fn cargo_steps_name_their_command_in_help_and_remedy() {
        for step in &STEPS {
            let Some(command) = typed_command(step) else {
                continue;
            };
            assert!(
                step.summary.starts_with(&command),
                "summary of {}: {}",
                step.name,
                step.summary
            );
            // fmt is the one step whose fix is a different command from its check.
            if step.name != "fmt" {
                assert!(
                    step.remedy.contains(&format!("'{command}'")),
                    "remedy of {} should name '{command}'",
                    step.name
                );
            }
        }
    }
}
