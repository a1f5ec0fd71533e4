//! Every registered domain learns by default: `rl run --domain ID --out DIR` with no other
//! option (the registration's agent, budget, evaluation episodes and parameters, 8 runs,
//! master seed 1) ends with a mean evaluation return over runs of at least its criterion, read
//! from its registration's `learning_threshold` setting
//! ([`rl_experiment::criterion::criterion`]): a fixed number, or for the tabular toy-text ids
//! (FrozenLake, Taxi, CliffWalking) 90% of the optimum computed by finite-horizon value
//! iteration on the domain's transition model (from the start distribution, within the episode
//! cap, undiscounted as the evaluation sums rewards; for a negative optimum, 10% of its
//! magnitude below it: CliffWalking's -13 gives -14.3). `null` there: no claim for the default
//! agent, as for most MiniGrid ids; no row.
//!
//! The whole table takes a few minutes with optimisations on two cores (MiniGrid-DoorKey-5x5's
//! 8 runs of 300 000 steps about 27 seconds of it) but many more in a debug build, which is
//! how `cargo test` and `cargo xtask ci` build (MiniGrid-Empty-5x5 alone takes 10 seconds
//! there). So a debug build checks only the ids of [`CHEAP`] (three small GridWorld maps,
//! about 10 seconds; the default run on GridWorld-4x5 is checked in `cli.rs` too) and an
//! optimised build checks every registered id; run the full table with
//!
//! ```text
//! cargo test --release -p rlrs-experiment --test suite learning
//! ```
//!
//! and one row (or every id containing a word) with `RL_LEARNING_IDS=Taxi-v4,FrozenLake`.

use std::path::PathBuf;
use std::process::ExitCode;

use rl_experiment::criterion::{Criterion, criterion};

use crate::rl;

/// One id of the table: its criterion, and whether a debug build checks it.
struct Row {
    id: String,
    criterion: Criterion,
    cheap: bool,
}

/// The ids checked in debug builds too (small GridWorld maps, about 10 seconds in all); an
/// optimised build checks every registered id. CliffWalking, whose criterion relative to its
/// optimum is computed as the toy-text ones are, took 25 s of CI's time here: its criterion is
/// checked by `criterion.rs`' unit tests, its learning by the optimised table.
const CHEAP: [&str; 3] = ["GridWorld-1x2", "GridWorld-2x3", "GridWorld-3x5-Wall"];

/// Every registered id with its learning criterion (its registration's `learning_threshold`
/// setting, issue 16's thresholds and issue 28's fractions of the optimum), read from the
/// registry: a new id needs no row here. A registration must say `learning_threshold`; `null`
/// says that the default agent makes no learning claim there (most MiniGrid ids, beyond a
/// tabular agent), and the id has no row.
fn criteria() -> Vec<Row> {
    rl_experiment::builtins::list()
        .into_iter()
        .filter_map(|entry| {
            let criterion =
                criterion(&entry.id).unwrap_or_else(|error| panic!("{}: {error}", entry.id))?;
            let cheap = CHEAP.contains(&entry.id.as_str());
            Some(Row {
                id: entry.id,
                criterion,
                cheap,
            })
        })
        .collect()
}

/// Whether the row is among those `RL_LEARNING_IDS` names (comma-separated parts of ids;
/// every row without the variable).
fn selected(id: &str) -> bool {
    match std::env::var("RL_LEARNING_IDS") {
        Ok(list) => list.split(',').any(|part| id.contains(part.trim())),
        Err(_) => true,
    }
}

fn scratch(id: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-learning-{id}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The final mean evaluation return of `rl run --domain ID` with no other option, and what
/// the command printed.
fn default_run(id: &str) -> (f64, String) {
    let dir = scratch(id);
    let out_flag = dir.display().to_string();
    let (status, printed, err) = rl(&["run", "--domain", id, "--out", &out_flag]);
    assert_eq!(status, ExitCode::SUCCESS, "{id}: {printed}{err}");
    let summary = std::fs::read_to_string(dir.join("summary.csv")).expect("summary.csv");
    let last = summary.lines().last().expect("a last check");
    let mean: f64 = last
        .split(',')
        .nth(3)
        .and_then(|field| field.parse().ok())
        .unwrap_or_else(|| panic!("{id}: no return_mean in {last:?}"));
    std::fs::remove_dir_all(&dir).expect("cleanup");
    (mean, printed)
}

#[test]
fn every_registered_id_has_a_threshold() {
    let table = criteria();
    let claimed = rl_experiment::builtins::list()
        .into_iter()
        .filter(|entry| {
            entry
                .settings
                .as_ref()
                .and_then(|settings| settings.get("learning_threshold"))
                .is_some_and(|threshold| !threshold.is_null())
        })
        .count();
    assert_eq!(table.len(), claimed);
    for id in ["MiniGrid-Empty-5x5-v0", "MiniGrid-DoorKey-5x5-v0"] {
        assert!(table.iter().any(|row| row.id == id), "{id} has a threshold");
    }
    // The tabular toy-text ids are measured against their optimum (issue 28), Blackjack
    // against the fixed -0.10.
    for id in [
        "FrozenLake-v1",
        "FrozenLake8x8-v1",
        "Taxi-v4",
        "CliffWalking-v1",
        "CliffWalkingSlippery-v1",
    ] {
        let row = table.iter().find(|row| row.id == id).expect(id);
        let (optimum, fraction) = row.criterion.relative.expect("relative to the optimum");
        assert_eq!(fraction, 0.9, "{id}");
        assert!(row.criterion.threshold < optimum, "{id}");
        assert_eq!(
            row.criterion.threshold,
            optimum - 0.1 * optimum.abs(),
            "{id}"
        );
    }
    let cliff = table
        .iter()
        .find(|row| row.id == "CliffWalking-v1")
        .expect("cliff");
    assert_eq!(cliff.criterion.relative, Some((-13.0, 0.9)));
    let blackjack = table
        .iter()
        .find(|row| row.id == "Blackjack-v1")
        .expect("blackjack");
    assert_eq!(blackjack.criterion.threshold, -0.1);
    assert_eq!(blackjack.criterion.relative, None);
    for id in CHEAP {
        assert!(
            table.iter().any(|row| row.id == id && row.cheap),
            "{id} is not registered"
        );
    }
}

#[test]
fn every_domain_learns_by_default() {
    let full = !cfg!(debug_assertions);
    let mut failures = Vec::new();
    for row in criteria()
        .iter()
        .filter(|row| (full || row.cheap) && selected(&row.id))
    {
        if rl_core::registry::describe(&row.id).is_ok_and(|entry| entry.family() == "MuJoCo") {
            if let Err(reason) = crate::mujoco_library() {
                println!("{}: not run, no MuJoCo library: {reason}", row.id);
                continue;
            }
        }
        let (mean, printed) = default_run(&row.id);
        let threshold = row.criterion.threshold;
        let against = match row.criterion.relative {
            Some((optimum, fraction)) => {
                format!("threshold {threshold:.4} ({fraction} of the optimum {optimum:.4})")
            }
            None => format!("threshold {threshold}"),
        };
        println!(
            "{}: final mean evaluation return {mean:.4}, {against}",
            row.id
        );
        if mean.is_nan() || mean < threshold {
            failures.push(format!(
                "{}: final mean evaluation return {mean} is below the {against}\n{printed}",
                row.id
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The options of a run made for its record, not its learning: one run, one policy check of
/// one episode.
const ONE_CHECK: [&str; 6] = ["--runs", "1", "--checks", "1", "--checks-per-policy", "1"];

#[test]
fn continuous_actions_are_discretised_and_the_record_says_so() {
    let id = "MountainCarContinuous-v0";
    let dir = scratch("record");
    let out = dir.display().to_string();
    let args = ["run", "--domain", id, "--max-steps", "2000", "--out", &out];
    let (status, printed, err) = rl(&[&args[..], &ONE_CHECK].concat());
    assert_eq!(status, ExitCode::SUCCESS, "{printed}{err}");
    assert!(
        printed.starts_with(
            "linear-sarsa on MountainCarContinuous-v0 (actions discretised into 5 per dimension): 1 runs of 2000 steps"
        ),
        "{printed}"
    );
    // Two thousand steps are too few to reach the hilltop greedily: the summary says so.
    assert!(
        printed.contains("the greedy policy reaches the goal in 0% of evaluation episodes")
            && printed.contains(
                "in 1 of 1 runs it never does: the budget of 2000 steps may be too small"
            ),
        "{printed}"
    );
    let record: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("experiment.json")).expect("experiment.json"),
    )
    .expect("JSON");
    assert_eq!(record["config"]["action_bins"], 5, "{record}");
    std::fs::remove_dir_all(&dir).expect("cleanup");

    // An agent that takes continuous actions gets them as they are.
    let dir = scratch("record-random");
    let out = dir.display().to_string();
    let args = [
        "run",
        "--domain",
        id,
        "--agent",
        "random",
        "--max-steps",
        "10",
        "--out",
        &out,
    ];
    let (status, printed, err) = rl(&[&args[..], &ONE_CHECK].concat());
    assert_eq!(status, ExitCode::SUCCESS, "{printed}{err}");
    assert!(
        printed.starts_with("random on MountainCarContinuous-v0: 1 runs"),
        "{printed}"
    );
    let record = std::fs::read_to_string(dir.join("experiment.json")).expect("experiment.json");
    assert!(!record.contains("action_bins"), "{record}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
