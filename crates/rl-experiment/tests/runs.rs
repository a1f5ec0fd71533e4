//! Many runs on disk: resuming after an interruption gives the same results as an
//! uninterrupted experiment, thread counts do not change results, and files are complete.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rl_core::corridor::Corridor;
use rl_core::{BoxedEnvironment, DynamicEnvironment, Simulator};
use rl_experiment::results::run_path;
use rl_experiment::{ExperimentConfig, ExperimentError, RunResult, Silent, run_experiment};

fn corridor() -> Result<BoxedEnvironment, ExperimentError> {
    Ok(DynamicEnvironment::new(Simulator::new(Corridor::new(6, 0.2)?, 0)).boxed())
}

fn config() -> ExperimentConfig {
    ExperimentConfig {
        num_policy_checks: 4,
        checks_per_policy: 4,
        runs: 4,
        seed: 11,
        ..ExperimentConfig::new("corridor", "sarsa", 3_000)
    }
}

fn fresh_directory(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("rl-experiment-runs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn threads(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).expect("positive")
}

fn comparable(results: &[RunResult]) -> Vec<RunResult> {
    results.iter().map(RunResult::without_timings).collect()
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let one = fresh_directory("one-thread");
    let two = fresh_directory("two-threads");
    let a = run_experiment(&config(), &one, &corridor, threads(1), &|| false, &Silent)
        .expect("experiment");
    let b = run_experiment(&config(), &two, &corridor, threads(2), &|| false, &Silent)
        .expect("experiment");
    assert_eq!(comparable(&a.results), comparable(&b.results));
    assert_eq!(a.summary, b.summary);
    assert_eq!(
        file_names(&one),
        [
            "experiment.json",
            "learning_curve.svg",
            "run-000.json",
            "run-000.log",
            "run-001.json",
            "run-001.log",
            "run-002.json",
            "run-002.log",
            "run-003.json",
            "run-003.log",
            "summary.csv"
        ]
    );
    let csv = std::fs::read_to_string(one.join("summary.csv")).expect("summary");
    assert_eq!(
        csv.lines().count(),
        1 + 5,
        "a header and one line per check:\n{csv}"
    );
    std::fs::remove_dir_all(&one).expect("cleanup");
    std::fs::remove_dir_all(&two).expect("cleanup");
}

#[test]
fn an_interrupted_experiment_resumes_to_the_same_results() {
    let uninterrupted = fresh_directory("uninterrupted");
    let expected = run_experiment(
        &config(),
        &uninterrupted,
        &corridor,
        threads(1),
        &|| false,
        &Silent,
    )
    .expect("experiment");

    let dir = fresh_directory("interrupted");
    // Stop as soon as two runs are on disk (the third run is then cut mid-way).
    let stop = || run_path(&dir, 1).exists();
    let error = run_experiment(&config(), &dir, &corridor, threads(1), &stop, &Silent).unwrap_err();
    assert_eq!(error, ExperimentError::Interrupted);
    assert!(run_path(&dir, 0).exists() && run_path(&dir, 1).exists());
    assert!(
        !run_path(&dir, 2).exists(),
        "an interrupted run leaves no file"
    );
    assert!(!dir.join("summary.csv").exists());
    assert!(
        file_names(&dir).iter().all(|n| !n.contains(".tmp")),
        "{:?}",
        file_names(&dir)
    );

    let calls = AtomicUsize::new(0);
    let counting = || {
        calls.fetch_add(1, Ordering::SeqCst);
        corridor()
    };
    let resumed =
        run_experiment(&config(), &dir, &counting, threads(2), &|| false, &Silent).expect("resume");
    assert_eq!(resumed.resumed, [0, 1]);
    // One probe, then two environments per remaining run.
    assert_eq!(calls.load(Ordering::SeqCst), 1 + 2 * 2);
    assert_eq!(comparable(&resumed.results), comparable(&expected.results));
    assert_eq!(resumed.summary, expected.summary);

    // A further rerun does nothing but rewrite the summary.
    let again =
        run_experiment(&config(), &dir, &corridor, threads(1), &|| false, &Silent).expect("rerun");
    assert_eq!(again.resumed, [0, 1, 2, 3]);
    std::fs::remove_dir_all(&uninterrupted).expect("cleanup");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn bad_configurations_write_nothing() {
    let dir = fresh_directory("bad");
    let cases = [
        ExperimentConfig {
            max_steps: 0,
            ..config()
        },
        ExperimentConfig {
            agent: "dqn".to_owned(),
            ..config()
        },
        ExperimentConfig {
            agent: "linear-q".to_owned(),
            ..config()
        },
        ExperimentConfig {
            agent_params: Some(serde_json::json!({"learning_rate": "fast"})),
            ..config()
        },
    ];
    for bad in cases {
        let error =
            run_experiment(&bad, &dir, &corridor, threads(1), &|| false, &Silent).unwrap_err();
        assert!(!error.to_string().is_empty());
        assert!(!dir.exists(), "{error} created {}", dir.display());
    }
}

#[test]
fn a_directory_holding_another_experiment_is_refused() {
    let dir = fresh_directory("other");
    run_experiment(&config(), &dir, &corridor, threads(1), &|| false, &Silent).expect("experiment");
    let other = ExperimentConfig {
        seed: 12,
        ..config()
    };
    let error =
        run_experiment(&other, &dir, &corridor, threads(1), &|| false, &Silent).unwrap_err();
    assert!(
        matches!(error, ExperimentError::ConfigMismatch { .. }),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_corrupt_run_file_is_an_error_not_a_silent_redo() {
    let dir = fresh_directory("corrupt");
    run_experiment(&config(), &dir, &corridor, threads(1), &|| false, &Silent).expect("experiment");
    std::fs::write(run_path(&dir, 2), b"{\"format\": \"rl-experiment/run\", ").expect("write");
    let error =
        run_experiment(&config(), &dir, &corridor, threads(1), &|| false, &Silent).unwrap_err();
    assert!(
        matches!(error, ExperimentError::CorruptResults { .. }),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
