//! The `rl` binary end to end: listing, the default run learning GridWorld 4x5 to value
//! iteration's policy, rendering, checking, replaying, and every bad input giving one line on
//! standard error (an unknown id's line followed by the registered ids), a non-zero exit
//! status and no files; a second `rl run` on a directory in use refuses at once.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn rl(args: &[&str], directory: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rl"))
        .args(args)
        .current_dir(directory)
        .output()
        .expect("the rl binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn reference(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference")
        .join(file)
        .display()
        .to_string()
}

#[test]
fn list_names_every_domain_and_agent() {
    let dir = scratch("list");
    let output = rl(&["list"], &dir);
    assert!(output.status.success());
    let stdout = text(&output.stdout);
    for name in [
        "CartPole-v1",
        "MountainCar-v0",
        "MountainCarContinuous-v0",
        "GridWorld-4x5",
        "GridWorld-11x11-Rooms",
        "q-learning",
        "linear-sarsa",
        "random",
    ] {
        assert!(stdout.contains(name), "{name} missing from:\n{stdout}");
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn the_default_run_learns_the_policy_value_iteration_finds() {
    let dir = scratch("default-run");
    let output = rl(&["run"], &dir);
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    assert!(
        stdout.starts_with("q-learning on GridWorld-4x5: 8 runs of 20000 steps"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "greedy policy from the start follows value iteration's in 8 of 8 runs (cells on each run's greedy path checked"
        ),
        "{stdout}"
    );
    let results = dir.join("results");
    for file in [
        "experiment.json",
        "summary.csv",
        "learning_curve.svg",
        "value_function.svg",
        "run-000.json",
        "run-007.log",
    ] {
        assert!(results.join(file).is_file(), "{file} missing");
    }

    // The pictures never show a negative zero.
    for picture in ["value_function.svg", "learning_curve.svg"] {
        let svg = std::fs::read_to_string(results.join(picture)).expect("a picture");
        assert!(
            !svg.contains(">-0.00<") && !svg.contains(">-0<"),
            "{picture}: {svg}"
        );
    }

    // Independently of the command's own report: every run's greedy action is optimal.
    let world = rl_domains::registry::gridworld_from_id("GridWorld-4x5", None).expect("GridWorld");
    let optimal =
        rl_experiment::catalog::gridworld_optimal_actions(&world).expect("value iteration");
    for run in 0..8 {
        let result: rl_experiment::RunResult = serde_json::from_str(
            &std::fs::read_to_string(rl_experiment::results::run_path(&results, run))
                .expect("run file"),
        )
        .expect("run JSON");
        let values = result.state_values.expect("tabular values");
        assert!(
            rl_experiment::catalog::is_optimal(&values, &optimal),
            "run {run} is not optimal"
        );
    }

    // Running the same command again resumes: nothing is redone.
    let again = rl(&["run"], &dir);
    assert!(again.status.success());
    assert!(
        text(&again.stderr).contains("resuming: 8 of 8 runs already finished"),
        "{}",
        text(&again.stderr)
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn render_check_and_replay_work() {
    let dir = scratch("tools");
    let render = rl(
        &[
            "render",
            "--domain",
            "CartPole-v1",
            "--out",
            "pictures/cartpole.svg",
        ],
        &dir,
    );
    assert!(render.status.success(), "{}", text(&render.stderr));
    let svg = std::fs::read_to_string(dir.join("pictures/cartpole.svg")).expect("svg");
    assert!(svg.starts_with("<svg") && svg.contains("cart"), "{svg}");

    let check = rl(&["check", "--domain", "GridWorld-4x5"], &dir);
    assert!(check.status.success(), "{}", text(&check.stdout));
    assert!(
        text(&check.stdout).contains("0 failed"),
        "{}",
        text(&check.stdout)
    );

    let replay = rl(
        &[
            "replay",
            &reference("mountaincar_v0.json"),
            &reference("gridworld_table_4x5.json"),
            &reference("gymnasium_spaces.json"),
            &reference("pendulum_v1_g9_81.json"),
        ],
        &dir,
    );
    assert!(replay.status.success(), "{}", text(&replay.stdout));
    let stdout = text(&replay.stdout);
    // A JSON file of another kind is skipped with one line, not a failure.
    assert!(
        stdout.contains("skipped gymnasium_spaces.json: not a transition trace\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("pendulum_v1_g9_81.json: 1200 steps checked, 0 mismatches"),
        "{stdout}"
    );
    assert!(
        stdout.contains("mountaincar_v0.json: 2750 steps checked, 0 mismatches"),
        "{stdout}"
    );
    assert!(stdout.contains("entries checked, 0 mismatches"), "{stdout}");

    let corrupted = dir.join("corrupted.json");
    let original = std::fs::read_to_string(reference("mountaincar_v0.json")).expect("reference");
    std::fs::write(
        &corrupted,
        original.replacen("\"reward\":-1.0", "\"reward\":-2.0", 1),
    )
    .expect("write");
    let replay = rl(&["replay", &corrupted.display().to_string()], &dir);
    assert_eq!(replay.status.code(), Some(1));
    assert!(
        text(&replay.stdout).contains("reward"),
        "{}",
        text(&replay.stdout)
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn bad_input_gives_one_line_a_failure_status_and_no_files() {
    let dir = scratch("bad-input");
    std::fs::write(dir.join("a-file"), b"not a directory").expect("write");
    // An unknown id's message goes on to list the registered ids, one per line
    // (`command_line.rs` tests it): its first line alone must say what was wrong.
    let cases: [&[&str]; 9] = [
        &["run", "--domain", "CartPole-v0"],
        &["run", "--params", "{\"noise\": "],
        &["run", "--params", "[1, 2]"],
        &["run", "--agent-params", "{\"epsilon\": 2}"],
        &["run", "--agent", "dqn"],
        &["run", "--max-steps", "0"],
        &["run", "--out", "a-file/results"],
        &["run", "--max-steps", "many"],
        &["render", "--domain", "Nope-v0", "--out", "x.svg"],
    ];
    for args in cases {
        let output = rl(args, &dir);
        let stderr = text(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        let unknown_id = stderr.starts_with("rl: error: unknown id `");
        assert_eq!(unknown_id, args.contains(&"--domain"), "{args:?}: {stderr}");
        if unknown_id {
            assert!(
                stderr
                    .lines()
                    .skip(1)
                    .all(|line| line.starts_with("  ") || line == "registered ids, by prefix:"),
                "{args:?} printed:\n{stderr}"
            );
        } else {
            assert_eq!(stderr.lines().count(), 1, "{args:?} printed:\n{stderr}");
        }
        assert!(stderr.starts_with("rl: "), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(
            text(&output.stdout).is_empty(),
            "{args:?} printed to stdout: {}",
            text(&output.stdout)
        );
    }
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .expect("directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["a-file"], "bad input must not create files");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_closed_pipe_ends_the_listing_quietly() {
    let dir = scratch("pipe");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rl"))
        .arg("list")
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the rl binary runs");
    // Closing the reading end at once is `rl list | head -0`: every write fails with a broken
    // pipe (or, if the listing fitted in the pipe first, none does); either way rl says nothing
    // and succeeds.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("rl ends");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[cfg(unix)]
#[test]
fn ctrl_c_says_how_many_runs_were_saved_and_that_rerunning_resumes() {
    let dir = scratch("interrupt");
    let args = [
        "run",
        "--max-steps",
        "20000",
        "--runs",
        "500",
        "--threads",
        "1",
        "--out",
        "results",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_rl"))
        .args(args)
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the rl binary runs");
    // Wait for the first finished run (the poll's bound only keeps a broken build from
    // hanging the test suite; nothing is asserted about time).
    let first = dir.join("results/run-000.json");
    for _ in 0..6000 {
        if first.is_file() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(first.is_file(), "no run finished");
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let output = child.wait_with_output().expect("rl ends");
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let saved = std::fs::read_dir(dir.join("results"))
        .expect("results")
        .filter(|e| {
            let name = e.as_ref().expect("entry").file_name();
            let name = name.to_string_lossy();
            name.starts_with("run-") && name.ends_with(".json")
        })
        .count();
    assert!((1..500).contains(&saved), "{saved} runs saved");
    let last = stderr.lines().last().expect("a message");
    assert_eq!(
        last,
        format!(
            "rl: error: interrupted: {saved} of 500 runs saved in results; run the same command again to resume"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Regression test (issue 17, found by rl-fuzz `cli` input 77128): `--checks-per-policy
/// 19844674407` reserved 158 GB for the evaluation returns and aborted; counts above their
/// limits are now refused before anything is allocated.
#[test]
fn huge_counts_are_refused_before_allocating() {
    use rl_experiment::{
        CHECKS_PER_POLICY_LIMIT, ExperimentConfig, POLICY_CHECKS_LIMIT, RUNS_LIMIT,
    };
    let config = ExperimentConfig {
        checks_per_policy: 19_844_674_407,
        ..ExperimentConfig::new("MountainCarContinuous-v0", "random", 240)
    };
    let error = config.validate().unwrap_err().to_string();
    assert!(error.contains("checks_per_policy"), "{error}");
    assert!(
        error.contains(&format!("from 1 to {CHECKS_PER_POLICY_LIMIT}")),
        "{error}"
    );
    for config in [
        ExperimentConfig {
            num_policy_checks: POLICY_CHECKS_LIMIT + 1,
            ..ExperimentConfig::new("GridWorld-4x5", "random", 1_000_000)
        },
        ExperimentConfig {
            runs: u64::MAX,
            ..ExperimentConfig::new("GridWorld-4x5", "random", 100)
        },
    ] {
        assert!(config.validate().is_err(), "{config:?}");
    }
    let at_limit = ExperimentConfig {
        checks_per_policy: CHECKS_PER_POLICY_LIMIT,
        runs: RUNS_LIMIT,
        ..ExperimentConfig::new("GridWorld-4x5", "random", 100)
    };
    assert!(at_limit.validate().is_ok());
}

/// Sends `signal` (`STOP`, `CONT`) to process `pid` with kill(1).
#[cfg(unix)]
fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{signal} {pid}");
}

/// Every run file of `directory`, by name, without the timings (which differ between runs).
fn runs_without_timings(directory: &Path) -> Vec<(String, rl_experiment::RunResult)> {
    let mut runs: Vec<_> = std::fs::read_dir(directory)
        .expect("results")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .filter(|path| path.file_name().is_some_and(|n| n != "experiment.json"))
        .map(|path| {
            let result = rl_experiment::results::read_run_file(&path).expect("a run file");
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            (name, result.without_timings())
        })
        .collect();
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    runs
}

/// Issue 33, item 7: two `rl run` on one `--out`. The second used to delete the first one's
/// in-flight temporary files at start-up, so the first died at its rename. Now the second
/// refuses at once while the first holds the directory. To make that deterministic, the first
/// is stopped (SIGSTOP) once its lock file exists: it then holds the lock until it is
/// continued. Should it have finished in the instant before the signal (its lock gone), the
/// second must instead resume a finished directory; either way every run is present once and
/// equal to a single process's.
#[cfg(unix)]
#[test]
fn a_second_run_on_a_directory_in_use_refuses_at_once() {
    let dir = scratch("two-runs");
    let args = |out: &'static str| {
        [
            "run",
            "--max-steps",
            "20000",
            "--runs",
            "4",
            "--threads",
            "2",
            "--out",
            out,
        ]
    };
    let alone = rl(&args("alone"), &dir);
    assert!(alone.status.success(), "{}", text(&alone.stderr));

    let first = Command::new(env!("CARGO_BIN_EXE_rl"))
        .args(args("shared"))
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the rl binary runs");
    // Wait for the first run's lock (the poll's bound only keeps a broken build from hanging
    // the test suite; nothing is asserted about time).
    let lock = dir.join("shared").join(rl_experiment::lock::LOCK_FILE);
    for _ in 0..6000 {
        if lock.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = first.id();
    signal(pid, "STOP");
    let holding = lock.exists();
    let second = rl(&args("shared"), &dir);
    signal(pid, "CONT");
    let first = first.wait_with_output().expect("the first run ends");
    assert!(first.status.success(), "{}", text(&first.stderr));

    let stderr = text(&second.stderr);
    println!(
        "the second run found the directory {}",
        if holding { "in use" } else { "finished" }
    );
    if holding {
        assert_eq!(second.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!(
                "rl: error: shared: an experiment is already running in this directory \
                 (process {pid} on host "
            )) && stderr.ends_with("); wait for it to finish, or choose another --out\n"),
            "{stderr}"
        );
        assert!(second.stdout.is_empty(), "{}", text(&second.stdout));
    } else {
        assert!(second.status.success(), "{stderr}");
    }
    assert_eq!(
        runs_without_timings(&dir.join("shared")),
        runs_without_timings(&dir.join("alone"))
    );
    let mut left: Vec<String> = std::fs::read_dir(dir.join("shared"))
        .expect("results")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    left.sort();
    assert!(
        left.is_empty(),
        "no temporary or lock file is left: {left:?}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Makes a named pipe at `path` with `mkfifo`, or says why not (then the caller skips).
#[cfg(unix)]
fn make_fifo(path: &Path) -> bool {
    match Command::new("mkfifo").arg(path).status() {
        Ok(status) => {
            assert!(status.success(), "mkfifo {} failed", path.display());
            true
        }
        Err(error) => {
            println!("skipped the named-pipe cases: mkfifo cannot run ({error})");
            false
        }
    }
}

/// Issue 40 item 1: every command that writes a file named by `--out` (`rl render`, `rl
/// render --episode`, `rl plot`) refuses a target that is not a regular file (a named pipe, a
/// symbolic link, a directory) and a name without the format's extension, exits non-zero, and
/// leaves the target as it was; a regular file is replaced.
#[cfg(unix)]
#[test]
fn out_files_never_replace_what_is_not_a_regular_file() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("out-targets");
    // A results directory for `rl plot`.
    let results = rl(
        &[
            "run",
            "--max-steps",
            "200",
            "--runs",
            "1",
            "--out",
            "results",
        ],
        &dir,
    );
    assert!(results.status.success(), "{}", text(&results.stderr));
    let commands: [(&str, Vec<&str>); 3] = [
        ("svg", vec!["render", "--domain", "GridWorld-4x5"]),
        (
            "gif",
            vec![
                "render",
                "--domain",
                "CartPole-v1",
                "--episode",
                "--max-steps",
                "3",
            ],
        ),
        ("svg", vec!["plot", "results"]),
    ];
    for (extension, command) in &commands {
        let run = |out: &str| {
            let mut args = command.clone();
            args.extend(["--out", out]);
            rl(&args, &dir)
        };
        let label = command.join(" ");
        // A regular file is replaced.
        let regular = format!("regular.{extension}");
        std::fs::write(dir.join(&regular), b"old").unwrap();
        let output = run(&regular);
        assert!(output.status.success(), "{label}: {}", text(&output.stderr));
        assert_ne!(
            std::fs::read(dir.join(&regular)).unwrap(),
            b"old",
            "{label}"
        );
        // A name without an extension is refused.
        let output = run("picture");
        assert!(
            !output.status.success(),
            "{label} wrote a file without an extension"
        );
        let stderr = text(&output.stderr);
        assert!(stderr.contains("has no extension"), "{label}: {stderr}");
        assert!(!dir.join("picture").exists(), "{label}");
        // A symbolic link is refused, and neither it nor its target changes.
        let target = dir.join(format!("target.{extension}"));
        std::fs::write(&target, b"keep").unwrap();
        let link = format!("link.{extension}");
        let _ = std::fs::remove_file(dir.join(&link));
        std::os::unix::fs::symlink(&target, dir.join(&link)).unwrap();
        let output = run(&link);
        assert!(!output.status.success(), "{label} wrote through a link");
        let stderr = text(&output.stderr);
        assert!(stderr.contains("symbolic link"), "{label}: {stderr}");
        assert!(
            std::fs::symlink_metadata(dir.join(&link))
                .unwrap()
                .file_type()
                .is_symlink(),
            "{label} replaced the link"
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"keep", "{label}");
        // A directory is refused.
        let directory = format!("folder.{extension}");
        std::fs::create_dir_all(dir.join(&directory)).unwrap();
        let output = run(&directory);
        assert!(!output.status.success(), "{label} replaced a directory");
        assert!(text(&output.stderr).contains("a directory"), "{label}");
        assert!(dir.join(&directory).is_dir(), "{label}");
        // A named pipe is refused (never opened, so nothing blocks) and stays a pipe.
        let pipe = dir.join(format!("pipe.{extension}"));
        let _ = std::fs::remove_file(&pipe);
        if make_fifo(&pipe) {
            let output = run(pipe.to_str().unwrap());
            assert!(!output.status.success(), "{label} replaced a named pipe");
            let stderr = text(&output.stderr);
            assert!(stderr.contains("named pipe"), "{label}: {stderr}");
            let file_type = std::fs::symlink_metadata(&pipe).unwrap().file_type();
            assert!(
                file_type.is_fifo(),
                "{label}: the pipe is now {file_type:?}"
            );
        }
        // No temporary file is left behind.
        let leftovers: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains(".tmp-"))
            .collect();
        assert!(leftovers.is_empty(), "{label} left {leftovers:?}");
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Issue 40 item 6: `rl replay` reads only regular files of at most
/// `REFERENCE_FILE_SIZE_LIMIT` bytes: a directory, a named pipe (never opened, so nothing
/// blocks) and a larger file (sparse, so the test writes nothing) are each refused on their own
/// line, with a failure status.
#[cfg(unix)]
#[test]
fn replay_refuses_special_and_oversized_files() {
    let dir = scratch("replay-files");
    let large = dir.join("large.json");
    let file = std::fs::File::create(&large).unwrap();
    file.set_len(rl_reference::REFERENCE_FILE_SIZE_LIMIT + 1)
        .unwrap();
    drop(file);
    std::fs::create_dir(dir.join("folder.json")).unwrap();
    let mut cases = vec![
        (
            "large.json",
            "bytes; a reference file has at most".to_owned(),
        ),
        ("folder.json", "not a regular file".to_owned()),
    ];
    if make_fifo(&dir.join("pipe.json")) {
        cases.push(("pipe.json", "not a regular file".to_owned()));
    }
    for (name, expected) in &cases {
        let output = rl(&["replay", name], &dir);
        assert!(!output.status.success(), "{name} replayed");
        let stdout = text(&output.stdout);
        assert!(
            stdout.contains(name) && stdout.contains(expected.as_str()),
            "{name}: {stdout}"
        );
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_mistyped_flag_or_command_gets_clap_s_suggestion_on_its_one_line() {
    let dir = scratch("did-you-mean");
    for (args, suggestion) in [
        (
            &["run", "--domian", "CartPole-v1"][..],
            "did you mean '--domain'?",
        ),
        (&["rendr"][..], "did you mean 'render'?"),
        (
            &[
                "render",
                "--domain",
                "CartPole-v1",
                "--episode",
                "--sed",
                "1",
            ][..],
            "did you mean '--seed'?",
        ),
    ] {
        let output = rl(args, &dir);
        let stderr = text(&output.stderr);
        assert!(!output.status.success(), "{args:?} succeeded");
        assert_eq!(stderr.lines().count(), 1, "{args:?} printed:\n{stderr}");
        assert!(stderr.contains(suggestion), "{args:?} printed: {stderr}");
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn another_id_in_the_default_results_directory_is_told_how_to_keep_apart() {
    let dir = scratch("shared-default");
    let small = |domain: &'static str| {
        [
            "run",
            "--domain",
            domain,
            "--max-steps",
            "20",
            "--checks",
            "1",
            "--checks-per-policy",
            "1",
            "--runs",
            "1",
            "--threads",
            "1",
        ]
    };
    let first = rl(&small("GridWorld-1x3"), &dir);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let second = rl(&small("GridWorld-1x2"), &dir);
    let stderr = text(&second.stderr);
    assert!(!second.status.success());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("domain was \"GridWorld-1x3\", now \"GridWorld-1x2\"")
            && stderr.contains("--out results/GridWorld-1x2 keeps this one apart"),
        "{stderr}"
    );
    // Following the advice works.
    let mut apart = small("GridWorld-1x2").to_vec();
    apart.extend(["--out", "results/GridWorld-1x2"]);
    let third = rl(&apart, &dir);
    assert!(third.status.success(), "{}", text(&third.stderr));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
