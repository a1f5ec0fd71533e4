//! The CI steps, in order: what each one runs and what to do when it fails.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::{layering, package_names, tidy};

/// What a step does.
#[derive(Debug)]
pub(crate) enum Action {
    /// Check that every Rust file opens with a `//!` line, that no library crate includes a
    /// file from outside its directory, that every integration-test file is compiled, and that
    /// no target with `test = false` holds unit tests.
    Tidy,
    /// Check the `rl-*` crates' dependencies against the layer table.
    Layering,
    /// Check the package names of the library crates, then run `cargo package` with `arguments`
    /// on every workspace crate that may be published.
    Package {
        /// The arguments after `cargo package` and before the `-p NAME` pairs.
        arguments: &'static [&'static str],
    },
    /// Build the binary `binary` with `cargo build --workspace --all-features` (the features
    /// of the whole workspace, so that the test step's build of every dependency is reused;
    /// `cargo run -p` would build them again with the package's own features), then run it
    /// from the target directory with `arguments`.
    Binary {
        /// The binary's name (`cargo build --bin NAME`).
        binary: &'static str,
        /// The arguments it is run with.
        arguments: &'static [&'static str],
    },
    /// Run `bash SCRIPT` (a script of the repository, path relative to the workspace root).
    Script {
        /// The script's path from the workspace root.
        path: &'static str,
    },
    /// Build the test binaries with `cargo test ARGUMENTS --no-run`, run them two at a time
    /// (`crate::test_runner`), then the doc tests with `cargo test ARGUMENTS --doc`.
    Tests {
        /// The arguments after `cargo test`.
        arguments: &'static [&'static str],
    },
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
///
/// Everything builds in the dev profile, so one build of each dependency serves every step but
/// clippy's and the docs'. The benchmarks are not built: clippy's `--all-targets` compiles
/// them to metadata, which finds every error a build would but a link error, and building the
/// six criterion binaries after the test step took 18 s of processor time (measured with
/// `cargo clean -p rl-benches` then `cargo build --workspace --all-features --benches`, which
/// builds them; `cargo bench -p rl-criterion` runs them), plus criterion's own build on a cold
/// CI. They live in the package rl-criterion (`benches/criterion`), which has no test target,
/// so that the test step does not compile criterion either (rl-benches' tests would: a package
/// with test targets gets all its dev-dependencies built).
pub(crate) static STEPS: [Step; 11] = [
    Step {
        name: "tidy",
        summary: "every .rs file starts with a `//!` line, no crate includes a file from outside \
                  it, every tests/*.rs file is compiled, no target with test = false holds unit \
                  tests",
        action: Action::Tidy,
        remedy: "fix each listed file: give it a first line beginning with '//!' that says what it \
                 holds; move an included file into its crate (or include it from the unpublished \
                 examples package); add 'mod NAME;' for a test file to its crate's tests/suite.rs; remove 'test = false' \
                 from a target whose files hold unit tests",
    },
    Step {
        name: "layering",
        summary: "rl-spaces < rl-core < rl-wrappers < rl-domains, rl-object-grid, rl-mujoco < \
                  rl-reference < rl-experiment < rl-python, the domain crates without rl-wrappers: \
                  each depends only on what its row of the layer table allows",
        action: Action::Layering,
        remedy: "fix each listed problem: remove the dependency, or move the code it needs down \
                 a layer; the order is rl-spaces < rl-core < rl-wrappers < rl-domains, \
                 rl-object-grid, rl-mujoco < rl-reference < rl-experiment < rl-python, and \
                 rl-domains, rl-object-grid and rl-mujoco depend on rl-spaces and rl-core only (the table is LAYERS in \
                 xtask/src/layering.rs; see ARCHITECTURE.md)",
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
        summary: "cargo clippy --workspace --all-targets --all-features -- -D warnings (every \
                  target, the benchmarks too)",
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
        name: "venv",
        summary: "bash crates/rl-python/venv.sh: the developers' virtualenv target/rl-python-venv \
                  with the pinned Python packages, before the tests, so that the Rust tests of \
                  the MuJoCo ids find the library of its mujoco package and run",
        action: Action::Script {
            path: "crates/rl-python/venv.sh",
        },
        remedy: "run 'bash crates/rl-python/venv.sh' and fix what it reports (it needs python3 \
                 3.10 or later with the venv module, and PyPI on the first run)",
    },
    Step {
        name: "test",
        summary: "cargo test --workspace --all-features (unit, integration and doc tests): the \
                  test binaries built with --no-run and run two at a time, each one's output \
                  whole in cargo's order, then the doc tests (--doc)",
        action: Action::Tests {
            arguments: &["--workspace", "--all-features"],
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
        name: "examples",
        summary: "cargo build --workspace --all-features --examples",
        action: Action::Cargo {
            arguments: &["build", "--workspace", "--all-features", "--examples"],
            environment: &[],
        },
        remedy: "run 'cargo build --workspace --all-features --examples' and fix the compile \
                 errors in the examples",
    },
    Step {
        name: "package",
        summary: "the package names follow the scheme crates/rl-NAME = package rlrs-NAME with \
                  library rl_NAME (ARCHITECTURE.md, \"Package names\"), then cargo package \
                  --no-verify --allow-dirty -p PACKAGE for every publishable crate, together",
        action: Action::Package {
            arguments: &["--no-verify", "--allow-dirty"],
        },
        remedy: "fix each listed name (ARCHITECTURE.md, \"Package names\"), or run 'cargo \
                 package --workspace --no-verify --allow-dirty' and fix what it reports: a \
                 published crate may need nothing from outside its directory",
    },
    Step {
        name: "fuzz",
        summary: "target/debug/rl-fuzz --target all --seconds 2 --jobs 2, built by cargo build \
                  --workspace --all-features --bin rl-fuzz (a short smoke run of every fuzz \
                  target, two targets at once)",
        action: Action::Binary {
            binary: "rl-fuzz",
            arguments: &["--target", "all", "--seconds", "2", "--jobs", "2"],
        },
        remedy: "run 'cargo run --quiet -p rl-fuzz -- --target all --seconds 2 --jobs 2': each finding \
                 prints its input and a reproduce command ('--seed S --index I'); fix the panic, \
                 abort or hang it shows and add the input as a regression test (docs/fuzzing.md)",
    },
    Step {
        name: "python",
        summary: "bash crates/rl-python/ci.sh (the abi3 wheel of rlrs for this machine and its \
                  sdist, built by wheel.sh in the dev profile from what the test step compiled; \
                  the package's tests run against the wheel installed into target/rl-python-venv \
                  with no cargo or rustc on PATH; then the API page check, a fuzz slice and the \
                  example domain package of examples/python-domain)",
        action: Action::Script {
            path: "crates/rl-python/ci.sh",
        },
        remedy: "run 'bash crates/rl-python/ci.sh' and fix the failing test (the wheels are in \
                 target/wheels/dev, the virtualenv is target/rl-python-venv; the first run needs \
                 PyPI)",
    },
];

/// The step called `name`, if there is one.
pub(crate) fn find(name: &str) -> Option<&'static Step> {
    STEPS.iter().find(|step| step.name == name)
}

/// The cargo to run: `$CARGO`, which cargo sets for `cargo xtask`, or else `cargo` on the path.
pub(crate) fn cargo() -> OsString {
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
        Action::Package { arguments } => run_package(root, arguments),
        Action::Binary { binary, arguments } => run_binary(root, binary, arguments),
        Action::Tests { arguments } => crate::test_runner::run_tests(root, arguments),
        Action::Script { path } => {
            let mut command = Command::new("bash");
            command.arg(path).current_dir(root);
            run_command(&mut command)
        }
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
pub(crate) fn run_command(command: &mut Command) -> Result<(), Failure> {
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
pub(crate) fn could_not_start(command: &Command, error: &std::io::Error) -> Failure {
    Failure::CouldNotRun(format!(
        "could not start '{}' ({error}); check that cargo is installed, or set $CARGO to it",
        describe(command)
    ))
}

/// A command line for messages: its environment changes, program name and arguments.
pub(crate) fn describe(command: &Command) -> String {
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

/// The failure of a tidy walk that could not read the sources.
fn unreadable_sources(root: &Path, error: &std::io::Error) -> Failure {
    Failure::CouldNotRun(format!(
        "could not read the sources under {}: {error}",
        root.display()
    ))
}

/// The tidy step: reports every Rust file that does not open with a `//!` line, every include
/// that leaves its library crate, and every integration-test file that nothing compiles.
fn run_tidy(root: &Path) -> Result<(), Failure> {
    let report = tidy::check(root).map_err(|error| unreadable_sources(root, &error))?;
    let outside = tidy::check_includes(root).map_err(|error| unreadable_sources(root, &error))?;
    let metadata = workspace_metadata(root)?;
    let packages = test_targets(&metadata).map_err(|error| {
        Failure::CouldNotRun(format!(
            "{error}; xtask/src/steps.rs no longer understands cargo metadata and needs fixing"
        ))
    })?;
    let uncompiled = tidy::check_test_files(root, &packages)
        .map_err(|error| unreadable_sources(root, &error))?;
    let ignored = tidy::check_untested_targets(root, &packages)
        .map_err(|error| unreadable_sources(root, &error))?;
    // Outside a git checkout (a source archive) there is nothing tracked to check.
    let stray = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| tidy::stray_tracked_paths(&output.stdout))
        .unwrap_or_default();
    for path in &stray {
        eprintln!(
            "xtask ci: {path:?}: tracked outside the project's top-level entries (a stray file? \
             `git rm --cached` it, or add the entry to TOP_LEVEL in xtask/src/tidy.rs)"
        );
    }
    for file in &report.missing_module_doc {
        eprintln!(
            "xtask ci: {}: the first line does not begin with '//!'",
            file.display()
        );
    }
    for include in &outside {
        eprintln!("xtask ci: {include}");
    }
    for (file, target) in &ignored {
        eprintln!(
            "xtask ci: {}: holds unit tests, but its target {target} has test = false, so they \
             never run; remove `test = false` from the target in its Cargo.toml",
            file.display()
        );
    }
    for file in &uncompiled {
        eprintln!(
            "xtask ci: {}: no test target compiles this file; add 'mod {};' to the crate's \
             tests/suite.rs, or declare it as a [[test]] in the crate's Cargo.toml",
            file.display(),
            file.file_stem().unwrap_or_default().to_string_lossy()
        );
    }
    if report.missing_module_doc.is_empty()
        && outside.is_empty()
        && uncompiled.is_empty()
        && ignored.is_empty()
        && stray.is_empty()
    {
        println!(
            "    {} Rust files checked: each opens with a '//!' line, no crate includes a file \
             from outside it, every test file is compiled, no unit test is in a target with \
             test = false; no stray tracked file",
            report.checked
        );
        return Ok(());
    }
    eprintln!(
        "xtask ci: {} files without a '//!' first line, {} includes from outside a crate, {} \
         test files not compiled (of {} Rust files), {} files of unit tests that never run, {} \
         stray tracked paths",
        report.missing_module_doc.len(),
        outside.len(),
        uncompiled.len(),
        report.checked,
        ignored.len(),
        stray.len()
    );
    Err(Failure::ProblemsFound)
}

/// The output of `cargo metadata --format-version 1 --no-deps` in `root`: the workspace's own
/// packages, their dependencies and targets.
fn workspace_metadata(root: &Path) -> Result<String, Failure> {
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
    String::from_utf8(output.stdout).map_err(|_| {
        Failure::CouldNotRun("cargo metadata printed text that is not UTF-8".to_owned())
    })
}

/// The workspace's packages in `metadata`, as a JSON array, or an error that says what is missing.
fn metadata_packages(metadata: &str) -> Result<Vec<Value>, String> {
    let mut root: Value = serde_json::from_str(metadata)
        .map_err(|error| format!("cargo metadata output is not JSON: {error}"))?;
    match root.get_mut("packages").map(Value::take) {
        Some(Value::Array(packages)) => Ok(packages),
        _ => Err("cargo metadata output has no \"packages\" array".to_owned()),
    }
}

/// Every workspace package's directory and the source files of its test targets.
fn test_targets(metadata: &str) -> Result<Vec<tidy::TestTargets>, String> {
    let mut packages = Vec::new();
    for package in metadata_packages(metadata)? {
        let manifest = package
            .get("manifest_path")
            .and_then(Value::as_str)
            .ok_or("a package in cargo metadata output has no \"manifest_path\" string")?;
        let directory = Path::new(manifest)
            .parent()
            .ok_or_else(|| format!("manifest path {manifest} has no directory"))?;
        let targets = package
            .get("targets")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("package at {manifest} has no \"targets\" array"))?;
        let test_files = targets
            .iter()
            .filter(|target| {
                target
                    .get("kind")
                    .and_then(Value::as_array)
                    .is_some_and(|kinds| kinds.iter().any(|kind| kind == "test"))
            })
            .filter_map(|target| target.get("src_path").and_then(Value::as_str))
            .map(std::path::PathBuf::from)
            .collect();
        let untested = targets
            .iter()
            .filter(|target| target.get("test") == Some(&Value::Bool(false)))
            .filter_map(|target| {
                let name = target.get("name").and_then(Value::as_str)?;
                let source = target.get("src_path").and_then(Value::as_str)?;
                Some((name.to_owned(), std::path::PathBuf::from(source)))
            })
            .collect();
        packages.push(tidy::TestTargets {
            directory: directory.to_path_buf(),
            test_files,
            untested,
        });
    }
    Ok(packages)
}

/// The names of the workspace packages that may be published (`publish` not set to false), in
/// the workspace's order.
fn publishable_packages(metadata: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for package in metadata_packages(metadata)? {
        let name = package
            .get("name")
            .and_then(Value::as_str)
            .ok_or("a package in cargo metadata output has no \"name\" string")?;
        // `publish = false` appears as an empty list of registries; absent means crates.io.
        let publishable = match package.get("publish") {
            None | Some(Value::Null) => true,
            Some(Value::Array(registries)) => !registries.is_empty(),
            Some(other) => {
                return Err(format!("package {name} has an unknown \"publish\" {other}"));
            }
        };
        if publishable {
            names.push(name.to_owned());
        }
    }
    Ok(names)
}

/// The package step: `cargo package` of every publishable crate, in one command so that the
/// crates that depend on each other package together before any is on crates.io.
fn run_package(root: &Path, arguments: &[&str]) -> Result<(), Failure> {
    let metadata = workspace_metadata(root)?;
    let problems = package_names::check_metadata(&metadata).map_err(|error| {
        Failure::CouldNotRun(format!(
            "{error}; xtask/src/package_names.rs no longer understands cargo metadata and needs \
             fixing"
        ))
    })?;
    for problem in &problems {
        eprintln!("xtask ci: {problem}");
    }
    if !problems.is_empty() {
        return Err(Failure::ProblemsFound);
    }
    println!(
        "    every crate in {}/ is the package {}NAME with the library rl_NAME",
        package_names::LIBRARY_DIRECTORY,
        package_names::PACKAGE_PREFIX
    );
    let names = publishable_packages(&metadata).map_err(|error| {
        Failure::CouldNotRun(format!(
            "{error}; xtask/src/steps.rs no longer understands cargo metadata and needs fixing"
        ))
    })?;
    let mut command = Command::new(cargo());
    command.arg("package").args(arguments).current_dir(root);
    for name in &names {
        command.args(["-p", name]);
    }
    run_command(&mut command)
}

/// The target directory in `metadata` (`cargo metadata` output), where cargo puts what it
/// builds: `$CARGO_TARGET_DIR` or the workspace's `target/`.
fn target_directory(metadata: &str) -> Result<std::path::PathBuf, String> {
    let root: Value = serde_json::from_str(metadata)
        .map_err(|error| format!("cargo metadata output is not JSON: {error}"))?;
    root.get("target_directory")
        .and_then(Value::as_str)
        .map(std::path::PathBuf::from)
        .ok_or_else(|| "cargo metadata output has no \"target_directory\" string".to_owned())
}

/// A step that builds `binary` with the whole workspace's features (see [`Action::Binary`])
/// and runs it with `arguments`.
fn run_binary(root: &Path, binary: &str, arguments: &[&str]) -> Result<(), Failure> {
    let mut build = Command::new(cargo());
    build
        .args([
            "build",
            "--quiet",
            "--workspace",
            "--all-features",
            "--bin",
            binary,
        ])
        .current_dir(root);
    run_command(&mut build)?;
    let metadata = workspace_metadata(root)?;
    let directory = target_directory(&metadata).map_err(|error| {
        Failure::CouldNotRun(format!(
            "{error}; xtask/src/steps.rs no longer understands cargo metadata and needs fixing"
        ))
    })?;
    let mut command = Command::new(
        directory
            .join("debug")
            .join(format!("{binary}{}", std::env::consts::EXE_SUFFIX)),
    );
    command.args(arguments).current_dir(root);
    run_command(&mut command)
}

/// The layering step: reads `cargo metadata` and reports every dependency the table forbids.
fn run_layering(root: &Path) -> Result<(), Failure> {
    let metadata = workspace_metadata(root)?;
    let violations = layering::check_metadata(&metadata).map_err(|error| {
        Failure::CouldNotRun(format!(
            "{error}; xtask/src/layering.rs no longer understands cargo metadata and needs fixing"
        ))
    })?;
    if violations.is_empty() {
        println!(
            "    the rl-* crates keep the layer table: {}",
            layering::LAYER_ORDER
        );
        return Ok(());
    }
    for violation in &violations {
        eprintln!("xtask ci: {violation}");
    }
    Err(Failure::ProblemsFound)
}

#[cfg(test)]
mod tests {
    use super::{Action, STEPS, Step, find, publishable_packages, target_directory, test_targets};

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
            Action::Tests { arguments } => Some(format!("cargo test {}", arguments.join(" "))),
            Action::Tidy
            | Action::Layering
            | Action::Package { .. }
            | Action::Binary { .. }
            | Action::Script { .. } => None,
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
                "tidy", "layering", "fmt", "clippy", "venv", "test", "doc", "examples", "package",
                "fuzz", "python"
            ]
        );
    }

    #[test]
    fn packages_are_read_from_metadata() {
        let metadata = r#"{"packages": [
            {"name": "rl-core", "publish": null, "manifest_path": "/w/crates/rl-core/Cargo.toml",
             "targets": [{"kind": ["lib"], "src_path": "/w/crates/rl-core/src/lib.rs"},
                         {"kind": ["test"], "src_path": "/w/crates/rl-core/tests/suite.rs"},
                         {"kind": ["bin"], "name": "tool", "test": false,
                          "src_path": "/w/crates/rl-core/src/bin/tool.rs"}]},
            {"name": "rl-examples", "publish": [], "manifest_path": "/w/examples/Cargo.toml",
             "targets": []},
            {"name": "rl-private", "publish": ["internal"], "manifest_path": "/w/p/Cargo.toml",
             "targets": []}
        ]}"#;
        assert_eq!(
            publishable_packages(metadata),
            Ok(vec!["rl-core".to_owned(), "rl-private".to_owned()])
        );
        let targets = test_targets(metadata).expect("the metadata is valid");
        assert_eq!(targets.len(), 3);
        assert_eq!(
            targets[0].test_files,
            [std::path::PathBuf::from("/w/crates/rl-core/tests/suite.rs")]
        );
        assert!(targets[1].test_files.is_empty());
        // Only the target with `test = false` is listed as untested.
        assert_eq!(
            targets[0].untested,
            [(
                "tool".to_owned(),
                std::path::PathBuf::from("/w/crates/rl-core/src/bin/tool.rs")
            )]
        );
        assert!(targets[1].untested.is_empty());
        assert!(publishable_packages("{}").is_err());
        assert!(publishable_packages(r#"{"packages": [{"name": "a", "publish": true}]}"#).is_err());
    }

    #[test]
    fn the_target_directory_is_read_from_metadata() {
        assert_eq!(
            target_directory(r#"{"packages": [], "target_directory": "/w/target"}"#),
            Ok(std::path::PathBuf::from("/w/target"))
        );
        assert!(target_directory(r#"{"packages": []}"#).is_err());
        assert!(target_directory("not json").is_err());
    }

    #[test]
    fn layering_help_and_remedy_spell_the_layer_order() {
        let order = crate::layering::LAYER_ORDER;
        let step = find("layering").expect("the layering step exists");
        assert!(step.summary.contains(order), "{}", step.summary);
        assert!(step.remedy.contains(order), "{}", step.remedy);
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
