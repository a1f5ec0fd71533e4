//! Constraints through the runner and the command line: a domain registered with its
//! constraints (`Registration::with_constraints`) run by `rl run` gets each learning episode's
//! violations by constraint (name, count, first step) in its run files, and a summary of them
//! on standard output, and `rl check` checks them; the runner's `run_episode` records the same
//! for any environment.

use rand::SeedableRng;
use rl_core::corridor::Corridor;
use rl_core::registry::{self, Registration};
use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_experiment::results::{read_run_file, violation_summary};
use rl_experiment::{Policy, run_episode};
use rl_spaces::AnyElement;
use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct NoParams {}

pub(crate) const ID: &str = "Corridor-constrained-rl-run-v0";
const NAME: &str = "moves toward the goal";

fn corridor(_: NoParams) -> Result<Corridor, CoreError> {
    Corridor::new(6, 0.2)
}

/// Registers the id in this test binary's table, where the tests over every registered id see
/// it too: so it declares what they ask of every id (frames, and a `learning_threshold`
/// setting, `null`: no learning claim).
fn register() {
    let _ = Registration::new(ID, "a constrained slippery corridor", corridor)
        .with_constraints()
        .with_frames()
        .with_settings(serde_json::json!({"learning_threshold": null}))
        .register();
}

#[test]
fn rl_run_records_and_summarises_the_violations_by_constraint() {
    register();
    let dir = std::env::temp_dir().join(format!("rl-constraints-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = [
        "rl",
        "run",
        "--domain",
        ID,
        "--agent",
        "random",
        "--max-steps",
        "600",
        "--checks",
        "2",
        "--checks-per-policy",
        "2",
        "--runs",
        "2",
        "--threads",
        "1",
        "--out",
        dir.to_str().expect("a UTF-8 path"),
    ];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rl_experiment::cli::run_with_args(args, &mut out, &mut err);
    let (out, err) = (String::from_utf8_lossy(&out), String::from_utf8_lossy(&err));
    assert_eq!(code, std::process::ExitCode::SUCCESS, "{out}\n{err}");
    let mut results = Vec::new();
    let (mut episodes, mut violating, mut steps) = (0u64, 0u64, 0u64);
    for run in 0..2 {
        let path = rl_experiment::results::run_path(&dir, run);
        let result = read_run_file(&path).expect("written and readable");
        for episode in &result.episodes {
            episodes += 1;
            let total: u64 = episode.violations.iter().map(|v| v.count).sum();
            assert_eq!(total, episode.constraint_violations);
            for violation in &episode.violations {
                assert_eq!(violation.name, NAME);
                assert!(violation.count >= 1 && violation.count <= episode.length);
                assert!(violation.first_step >= 1 && violation.first_step <= episode.length);
                violating += 1;
                steps += violation.count;
            }
        }
        results.push(result);
    }
    assert!(
        violating > 5,
        "only {violating} of {episodes} episodes violated"
    );
    let summary = violation_summary(&results);
    assert_eq!(summary.len(), 1);
    assert_eq!(
        (
            summary[0].episodes,
            summary[0].of_episodes,
            summary[0].count
        ),
        (violating, episodes, steps)
    );
    let line =
        format!("  {NAME}: {steps} steps in {violating} of {episodes} episodes, first at step");
    assert!(
        out.contains("constraint violations in learning episodes"),
        "{out}"
    );
    assert!(out.contains(&line), "{line:?} not in\n{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_episode_records_what_the_typed_simulator_reports() {
    register();
    // The same episode, by id and on the typed simulator, stepping by hand alongside.
    let mut by_id = registry::make(ID, None).expect("registered");
    by_id.seed(4);
    let mut policy = |_: &AnyElement, rng: &mut dyn rand::Rng| {
        AnyElement::Int(i64::from(rng.next_u32() % 3 != 0))
    };
    let mut rng = rand_pcg::Pcg64::seed_from_u64(8);
    let record =
        run_episode(&mut by_id, &mut policy, Mode::Training, None, &mut rng).expect("runs");

    let mut typed = Simulator::with_constraints(corridor(NoParams {}).unwrap(), 4).unwrap();
    typed.reset(Mode::Training).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(8);
    let (mut count, mut first, mut step) = (0u64, None, 0u64);
    loop {
        let action = match policy.act(&AnyElement::Int(0), &mut rng).unwrap() {
            AnyElement::Int(a) => a,
            other => panic!("not a corridor action: {other}"),
        };
        let outcome = typed.step(&action).unwrap();
        step += 1;
        if outcome.violations.contains(0) {
            count += 1;
            first.get_or_insert(step);
        }
        if outcome.is_done() {
            break;
        }
    }
    assert_eq!(record.length, step);
    assert!(count > 0, "the episode violated the constraint");
    assert_eq!(record.violations.len(), 1);
    assert_eq!(record.violations[0].name, NAME);
    assert_eq!(record.violations[0].count, count);
    assert_eq!(Some(record.violations[0].first_step), first);
}

#[test]
fn rl_check_checks_the_declared_constraints() {
    register();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code =
        rl_experiment::cli::run_with_args(["rl", "check", "--domain", ID], &mut out, &mut err);
    let (out, err) = (String::from_utf8_lossy(&out), String::from_utf8_lossy(&err));
    assert_eq!(code, std::process::ExitCode::SUCCESS, "{out}\n{err}");
    assert!(
        out.contains("declared constraints evaluate on every step"),
        "{out}"
    );
}
