//! The `rl` binary end to end: listing, the default run learning GridWorld 4x5 to value
//! iteration's policy, rendering, checking, replaying, and every bad input giving one line on
//! standard error, a non-zero exit status and no files.

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
            "greedy policy equals value iteration's in 8 of 8 runs (13 states checked per run)"
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
        ],
        &dir,
    );
    assert!(replay.status.success(), "{}", text(&replay.stdout));
    let stdout = text(&replay.stdout);
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
        assert_eq!(stderr.lines().count(), 1, "{args:?} printed:\n{stderr}");
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

/// Regression test (issue 17, found by rl-fuzz `cli` input 77128): `--checks-per-policy
/// 19844674407` reserved 158 GB for the evaluation returns and aborted; counts above
/// `MAX_COUNT` are now refused before anything is allocated.
#[test]
fn huge_counts_are_refused_before_allocating() {
    use rl_experiment::{ExperimentConfig, MAX_COUNT};
    let config = ExperimentConfig {
        checks_per_policy: 19_844_674_407,
        ..ExperimentConfig::new("MountainCarContinuous-v0", "random", 240)
    };
    let error = config.validate().unwrap_err().to_string();
    assert!(error.contains("checks_per_policy"), "{error}");
    assert!(error.contains("more than the limit of 1048576"), "{error}");
    for config in [
        ExperimentConfig {
            num_policy_checks: MAX_COUNT + 1,
            ..ExperimentConfig::new("GridWorld-4x5", "random", u64::MAX)
        },
        ExperimentConfig {
            runs: u64::MAX,
            ..ExperimentConfig::new("GridWorld-4x5", "random", 100)
        },
    ] {
        assert!(config.validate().is_err(), "{config:?}");
    }
    let at_limit = ExperimentConfig {
        checks_per_policy: MAX_COUNT,
        runs: MAX_COUNT,
        ..ExperimentConfig::new("GridWorld-4x5", "random", 100)
    };
    assert!(at_limit.validate().is_ok());
}
