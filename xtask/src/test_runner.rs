//! The test step: builds the workspace's test binaries, runs them two at a time, then the doc tests.
//!
//! `cargo test` runs its test binaries one after another, and many of them (the allocation
//! counters without the test harness, a suite waiting on one shared computation, a suite's last
//! long test) keep one core busy at most: on our 2-core CI machine the binaries took 164 s of
//! processor time in 104 s (README, "Set up"). This step asks cargo to build them
//! (`cargo test ARGS --no-run`), runs them itself as cargo would (each in its package's
//! directory, with cargo's package variables), as many at once as the machine has cores (two at
//! most: each binary's tests already run on several threads), keeps each binary's output and
//! prints it whole in cargo's order, then runs the doc tests (`cargo test ARGS --doc`). Unlike
//! `cargo test`, a failing binary does not stop the others: every failure is listed at the end
//! with the command that runs that binary alone.

use std::collections::VecDeque;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;

use serde_json::Value;

use crate::steps::{Failure, cargo, could_not_start, describe, run_command};

/// The most test binaries run at once (fewer on a machine with fewer cores).
const MOST_AT_ONCE: usize = 2;

/// One test binary that cargo built, and what cargo gives it when it runs it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TestBinary {
    /// The package's name.
    package: String,
    /// The package's version.
    version: String,
    /// The target's name.
    target: String,
    /// The target's kind: `lib`, `bin`, `test`, `bench` or `example`.
    kind: String,
    /// The target's source file.
    source: PathBuf,
    /// The package's manifest.
    manifest: PathBuf,
    /// The executable.
    executable: PathBuf,
}

impl TestBinary {
    /// The package's directory, where cargo runs the binary.
    fn directory(&self) -> &Path {
        self.manifest.parent().unwrap_or(Path::new("."))
    }

    /// Where the target stands in cargo's order within its package.
    fn kind_rank(&self) -> u8 {
        match self.kind.as_str() {
            "lib" => 0,
            "bin" => 1,
            "test" => 2,
            "bench" => 3,
            _ => 4,
        }
    }

    /// The cargo arguments that select this binary alone (after `cargo test -p PACKAGE`).
    fn selection(&self) -> Vec<String> {
        match self.kind.as_str() {
            "lib" => vec!["--lib".to_owned()],
            kind => vec![format!("--{kind}"), self.target.clone()],
        }
    }

    /// The command that builds and runs this binary alone.
    fn rerun_command(&self, arguments: &[&str]) -> String {
        let features: Vec<&str> = arguments
            .iter()
            .copied()
            .filter(|argument| *argument != "--workspace")
            .collect();
        let mut words = vec!["cargo", "test", "-p", &self.package];
        let selection = self.selection();
        words.extend(selection.iter().map(String::as_str));
        words.extend(features);
        words.join(" ")
    }

    /// The line that heads the binary's output, as cargo's "Running" line.
    fn heading(&self, root: &Path) -> String {
        let relative = |path: &Path| {
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        };
        let source = relative(&self.source);
        let source = if self.kind == "lib" || self.kind == "bin" {
            format!("unittests {source}")
        } else {
            source
        };
        format!("     Running {source} ({})", relative(&self.executable))
    }
}

/// The test binaries of cargo's `--message-format=json` output, in the order cargo runs them
/// (by package, then libraries, binaries, integration tests, and by name).
pub(crate) fn test_binaries(messages: &str) -> Result<Vec<TestBinary>, String> {
    let mut binaries = Vec::new();
    for line in messages.lines().filter(|line| line.starts_with('{')) {
        let message: Value = serde_json::from_str(line)
            .map_err(|error| format!("cargo printed a line that is not JSON ({error}): {line}"))?;
        if message["reason"] != "compiler-artifact" || message["profile"]["test"] != true {
            continue;
        }
        let Some(executable) = message["executable"].as_str() else {
            continue;
        };
        let text = |value: &Value, what: &str| {
            value
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("a compiler-artifact message has no {what}: {line}"))
        };
        let package_id = text(&message["package_id"], "package_id")?;
        let (package, version) = package_name_and_version(&package_id)
            .ok_or_else(|| format!("cannot read the package id {package_id}"))?;
        let target = &message["target"];
        binaries.push(TestBinary {
            package,
            version,
            target: text(&target["name"], "target name")?,
            kind: text(&target["kind"][0], "target kind")?,
            source: PathBuf::from(text(&target["src_path"], "target src_path")?),
            manifest: PathBuf::from(text(&message["manifest_path"], "manifest_path")?),
            executable: PathBuf::from(executable),
        });
    }
    binaries.sort_by(|a, b| {
        (&a.package, a.kind_rank(), &a.target).cmp(&(&b.package, b.kind_rank(), &b.target))
    });
    binaries.dedup();
    Ok(binaries)
}

/// The package name and version of a cargo package id: `path+file:///w/crates/rl-core#rlrs-core@0.1.0`
/// (the name is the directory's when it is left out: `path+file:///w/xtask#0.1.0`), or the older
/// `rlrs-core 0.1.0 (path+file:///w/crates/rl-core)`.
fn package_name_and_version(id: &str) -> Option<(String, String)> {
    if let Some((name, rest)) = id.split_once(' ') {
        let version = rest.split(' ').next()?;
        return Some((name.to_owned(), version.to_owned()));
    }
    let (url, fragment) = id.rsplit_once('#')?;
    match fragment.split_once('@') {
        Some((name, version)) => Some((name.to_owned(), version.to_owned())),
        None => {
            let name = url.trim_end_matches('/').rsplit('/').next()?;
            Some((name.to_owned(), fragment.to_owned()))
        }
    }
}

/// The test step: `cargo test ARGUMENTS --no-run`, the binaries two at a time, then
/// `cargo test ARGUMENTS --doc`.
pub(crate) fn run_tests(root: &Path, arguments: &[&str]) -> Result<(), Failure> {
    let mut build = Command::new(cargo());
    build
        .arg("test")
        .args(arguments)
        .args(["--no-run", "--message-format=json-render-diagnostics"])
        .current_dir(root)
        .stdout(Stdio::piped());
    println!("    $ {}", describe(&build));
    let built = build
        .output()
        .map_err(|error| could_not_start(&build, &error))?;
    if !built.status.success() {
        eprintln!(
            "xtask ci: '{}' exited with {}",
            describe(&build),
            built.status
        );
        return Err(Failure::ProblemsFound);
    }
    let binaries = test_binaries(&String::from_utf8_lossy(&built.stdout)).map_err(|error| {
        Failure::CouldNotRun(format!(
            "{error}; xtask/src/test_runner.rs no longer understands cargo's messages and needs fixing"
        ))
    })?;
    let at_once = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, MOST_AT_ONCE);
    println!(
        "    running {} test binaries, {at_once} at a time, each one's output whole in cargo's order",
        binaries.len()
    );
    let outcomes = run_binaries(root, &binaries, at_once, true)?;
    let failed: Vec<&TestBinary> = binaries
        .iter()
        .zip(&outcomes)
        .filter(|(_, output)| !output.status.success())
        .map(|(binary, _)| binary)
        .collect();

    let mut doc = Command::new(cargo());
    doc.arg("test")
        .args(arguments)
        .arg("--doc")
        .current_dir(root);
    let doc_result = run_command(&mut doc);

    if !failed.is_empty() {
        eprintln!("xtask ci: {} test binaries failed:", failed.len());
        for binary in &failed {
            eprintln!(
                "    {} ({}); alone: {}",
                binary
                    .heading(root)
                    .trim_start()
                    .trim_start_matches("Running "),
                binary.package,
                binary.rerun_command(arguments)
            );
        }
        return Err(Failure::ProblemsFound);
    }
    doc_result
}

/// Runs `binaries`, `at_once` at a time, the largest files first (the longest-running binaries
/// link the most code, and starting them first keeps the last one from running alone); if
/// `print` is set, prints each one's output, whole, in the order of `binaries` as soon as it and
/// those before it have finished. Returns each binary's output, in that order.
fn run_binaries(
    root: &Path,
    binaries: &[TestBinary],
    at_once: usize,
    print: bool,
) -> Result<Vec<Output>, Failure> {
    let size = |binary: &TestBinary| {
        std::fs::metadata(&binary.executable).map_or(0, |metadata| metadata.len())
    };
    let mut start_order: Vec<usize> = (0..binaries.len()).collect();
    start_order.sort_by_key(|&index| std::cmp::Reverse(size(&binaries[index])));
    let queue = Mutex::new(VecDeque::from(start_order));
    let finished: Mutex<Vec<Option<Result<Output, Failure>>>> =
        Mutex::new((0..binaries.len()).map(|_| None).collect());
    let printed = Mutex::new(0_usize);
    let print_ready = |finished: &[Option<Result<Output, Failure>>]| {
        let mut next = printed.lock().unwrap_or_else(|poison| poison.into_inner());
        while let Some(Some(outcome)) = finished.get(*next) {
            let binary = &binaries[*next];
            *next += 1;
            if !print {
                continue;
            }
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{}", binary.heading(root));
            if let Ok(output) = outcome {
                let _ = stdout.write_all(&output.stdout);
                let _ = stdout.flush();
                let mut stderr = std::io::stderr().lock();
                let _ = stderr.write_all(&output.stderr);
                let _ = stderr.flush();
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..at_once {
            scope.spawn(|| {
                loop {
                    let next = queue
                        .lock()
                        .unwrap_or_else(|poison| poison.into_inner())
                        .pop_front();
                    let Some(index) = next else { break };
                    let outcome = run_binary(&binaries[index]);
                    let mut finished = finished.lock().unwrap_or_else(|poison| poison.into_inner());
                    finished[index] = Some(outcome);
                    print_ready(&finished);
                }
            });
        }
    });
    finished
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner())
        .into_iter()
        .map(|outcome| outcome.expect("every binary ran"))
        .collect()
}

/// Runs one test binary as `cargo test` does: in its package's directory, with the package's
/// variables that cargo sets (`CARGO_MANIFEST_DIR`, `CARGO_PKG_NAME`, ...), output captured.
fn run_binary(binary: &TestBinary) -> Result<Output, Failure> {
    let mut command = Command::new(&binary.executable);
    command
        .current_dir(binary.directory())
        .env("CARGO", cargo())
        .env("CARGO_MANIFEST_DIR", binary.directory())
        .env("CARGO_MANIFEST_PATH", &binary.manifest)
        .env("CARGO_PKG_NAME", &binary.package)
        .env("CARGO_PKG_VERSION", &binary.version)
        .env("CARGO_CRATE_NAME", binary.target.replace('-', "_"))
        .stdin(Stdio::null());
    // Cargo puts the directory of the dependencies on the library path, for any dynamic library
    // a test loads from there.
    if let Some(deps) = binary.executable.parent() {
        let variable = library_path_variable();
        let mut paths = vec![deps.to_path_buf()];
        if let Some(current) = std::env::var_os(variable) {
            paths.extend(std::env::split_paths(&current));
        }
        if let Ok(joined) = std::env::join_paths(paths) {
            command.env(variable, joined);
        }
    }
    command
        .output()
        .map_err(|error| could_not_start(&command, &error))
}

/// The variable that lists where dynamic libraries are found on this platform.
fn library_path_variable() -> &'static str {
    if cfg!(windows) {
        "PATH"
    } else if cfg!(target_os = "macos") {
        "DYLD_FALLBACK_LIBRARY_PATH"
    } else {
        "LD_LIBRARY_PATH"
    }
}

#[cfg(test)]
mod tests {
    use super::{TestBinary, package_name_and_version, run_binaries, test_binaries};
    use std::path::{Path, PathBuf};

    /// A test binary that is the program `executable`, in package `package`.
    fn program(package: &str, executable: &str) -> TestBinary {
        TestBinary {
            package: package.to_owned(),
            version: "0.1.0".to_owned(),
            target: "suite".to_owned(),
            kind: "test".to_owned(),
            source: PathBuf::from("/tests/suite.rs"),
            manifest: PathBuf::from("/Cargo.toml"),
            executable: PathBuf::from(executable),
        }
    }

    /// Every binary runs, two at a time, in its package's directory with its variables, a
    /// failing one among them, and each outcome is returned in the binaries' order.
    #[cfg(unix)]
    #[test]
    fn binaries_run_two_at_a_time_and_each_outcome_is_kept_in_order() {
        let binaries = [
            program("passing", "/bin/true"),
            program("failing", "/bin/false"),
            program("directory", "/bin/pwd"),
            program("variables", "/usr/bin/env"),
        ];
        if binaries.iter().any(|binary| !binary.executable.exists()) {
            println!("skipped: this system has no /bin/true, /bin/false, /bin/pwd or /usr/bin/env");
            return;
        }
        let outcomes = run_binaries(Path::new("/"), &binaries, 2, false)
            .unwrap_or_else(|_| panic!("the programs start"));
        let passed: Vec<bool> = outcomes
            .iter()
            .map(|output| output.status.success())
            .collect();
        assert_eq!(passed, [true, false, true, true]);
        assert_eq!(String::from_utf8_lossy(&outcomes[2].stdout).trim(), "/");
        let variables = String::from_utf8_lossy(&outcomes[3].stdout);
        assert!(
            variables.contains("CARGO_PKG_NAME=variables\n"),
            "{variables}"
        );
        assert!(variables.contains("CARGO_MANIFEST_DIR=/\n"), "{variables}");
    }

    #[test]
    fn package_ids_of_both_formats_give_the_name_and_version() {
        assert_eq!(
            package_name_and_version("path+file:///w/crates/rl-core#rlrs-core@0.1.0"),
            Some(("rlrs-core".to_owned(), "0.1.0".to_owned()))
        );
        assert_eq!(
            package_name_and_version("path+file:///w/xtask#0.1.0"),
            Some(("xtask".to_owned(), "0.1.0".to_owned()))
        );
        assert_eq!(
            package_name_and_version("rlrs-core 0.1.0 (path+file:///w/crates/rl-core)"),
            Some(("rlrs-core".to_owned(), "0.1.0".to_owned()))
        );
        assert_eq!(package_name_and_version("nonsense"), None);
    }

    #[test]
    fn test_binaries_are_the_test_profile_executables_in_cargos_order() {
        let messages = r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/rl-core#rlrs-core@0.1.0","manifest_path":"/w/crates/rl-core/Cargo.toml","target":{"kind":["test"],"name":"suite","src_path":"/w/crates/rl-core/tests/suite.rs"},"profile":{"test":true},"executable":"/w/target/debug/deps/suite-1"}
   Compiling something
{"reason":"compiler-artifact","package_id":"path+file:///w/crates/rl-core#rlrs-core@0.1.0","manifest_path":"/w/crates/rl-core/Cargo.toml","target":{"kind":["lib"],"name":"rl_core","src_path":"/w/crates/rl-core/src/lib.rs"},"profile":{"test":true},"executable":"/w/target/debug/deps/rl_core-2"}
{"reason":"compiler-artifact","package_id":"path+file:///w/crates/rl-core#rlrs-core@0.1.0","manifest_path":"/w/crates/rl-core/Cargo.toml","target":{"kind":["lib"],"name":"rl_core","src_path":"/w/crates/rl-core/src/lib.rs"},"profile":{"test":false},"executable":null}
{"reason":"compiler-artifact","package_id":"path+file:///w/crates/rl-experiment#rlrs-experiment@0.1.0","manifest_path":"/w/crates/rl-experiment/Cargo.toml","target":{"kind":["bin"],"name":"rl","src_path":"/w/crates/rl-experiment/src/main.rs"},"profile":{"test":false},"executable":"/w/target/debug/rl"}
{"reason":"build-finished","success":true}"#;
        let binaries = test_binaries(messages).expect("valid messages");
        let names: Vec<(&str, &str)> = binaries
            .iter()
            .map(|binary| (binary.kind.as_str(), binary.target.as_str()))
            .collect();
        assert_eq!(names, [("lib", "rl_core"), ("test", "suite")]);
        let suite: &TestBinary = &binaries[1];
        assert_eq!(suite.package, "rlrs-core");
        assert_eq!(suite.directory(), PathBuf::from("/w/crates/rl-core"));
        assert_eq!(
            suite.rerun_command(&["--workspace", "--all-features"]),
            "cargo test -p rlrs-core --test suite --all-features"
        );
        assert_eq!(
            binaries[0].rerun_command(&["--workspace", "--all-features"]),
            "cargo test -p rlrs-core --lib --all-features"
        );
        assert!(test_binaries("{not json").is_err());
    }
}
