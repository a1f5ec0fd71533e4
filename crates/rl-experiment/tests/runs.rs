//! Many runs on disk: resuming after an interruption gives the same results as an
//! uninterrupted experiment, thread counts do not change results, files are complete, a
//! directory in use by another experiment is refused at once, and a named pipe in place of a
//! results file is an error, not a wait.

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

/// Issue 33, item 7: a second experiment on a directory that another one is using refuses at
/// once (the other holds the directory's lock), writes nothing, and runs once the lock is free.
#[test]
fn an_experiment_on_a_directory_in_use_is_refused_at_once() {
    let dir = fresh_directory("in-use");
    let held = rl_experiment::lock::RunLock::acquire(&dir).expect("the lock");
    let error =
        run_experiment(&config(), &dir, &corridor, threads(1), &|| false, &Silent).unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, ExperimentError::AlreadyRunning { .. })
            && message.contains("already running")
            && message.contains(&format!("process {}", std::process::id()))
            && message.contains("wait for it to finish, or choose another --out"),
        "{message}"
    );
    assert_eq!(
        file_names(&dir),
        [rl_experiment::lock::LOCK_FILE],
        "nothing but the holder's lock"
    );
    drop(held);
    let outcome = run_experiment(&config(), &dir, &corridor, threads(2), &|| false, &Silent)
        .expect("the experiment, once the directory is free");
    assert_eq!(outcome.results.len(), 4);
    assert!(
        !file_names(&dir).contains(&rl_experiment::lock::LOCK_FILE.to_owned()),
        "the lock is removed at the end: {:?}",
        file_names(&dir)
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// Issue 33, item 9: a named pipe in place of a run file (or of `experiment.json`) made the
/// experiment wait forever for a writer; it is refused at once, naming the path.
#[cfg(unix)]
#[test]
fn a_named_pipe_in_place_of_a_results_file_is_refused_at_once() {
    for name in ["run-001.json", "experiment.json"] {
        let dir = fresh_directory(&format!("pipe-{name}"));
        std::fs::create_dir_all(&dir).expect("directory");
        let pipe = dir.join(name);
        match std::process::Command::new("mkfifo").arg(&pipe).status() {
            Ok(status) => assert!(status.success(), "mkfifo failed"),
            Err(error) => {
                println!("skipped: mkfifo cannot run ({error})");
                return;
            }
        }
        let (sender, receiver) = std::sync::mpsc::channel();
        let directory = dir.clone();
        std::thread::spawn(move || {
            let outcome = run_experiment(
                &config(),
                &directory,
                &corridor,
                threads(1),
                &|| false,
                &Silent,
            );
            let _ = sender.send(outcome.map(|_| ()));
        });
        // A timeout is the bug: the experiment blocked opening the pipe.
        let outcome = receiver
            .recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("the experiment blocked on the named pipe {name}"));
        let message = outcome.expect_err("a named pipe is refused").to_string();
        assert_eq!(
            message,
            format!(
                "{}: not a regular file but a named pipe (FIFO); a results file must be a regular file",
                pipe.display()
            )
        );
        assert!(
            !file_names(&dir).contains(&rl_experiment::lock::LOCK_FILE.to_owned()),
            "the lock is removed on error"
        );
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
