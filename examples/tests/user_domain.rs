//! A user's domain, written outside the library crates (`examples/custom_domain.rs`),
//! registered at start-up, then used everywhere an id works: built by id with JSON parameters,
//! checked and drawn by id, stepped in a vector built from its id (bit for bit the vector of
//! typed simulators), and run by the `rl` command line (list, check, render, a resumable run
//! with results and plots).

#[allow(dead_code, unreachable_pub)]
#[path = "../custom_domain.rs"]
mod custom_domain;

use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::sync::Once;

use custom_domain::{CHAIN_ID, Chain, ChainParams};
use rl_core::registry::{self, PictureFormat};
use rl_core::{CheckConfig, CoreError, Environment, Mode, Simulator};
use rl_spaces::AnyElement;
use rl_wrappers::vector::{EnvironmentVector, VectorOptions, make_vector};
use serde_json::json;

/// Registers the built-ins and the chain once for the whole test binary.
fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        rl_domains::register_builtins();
        custom_domain::register().expect("Chain-v0 registers once");
    });
}

/// Runs the `rl` command line in-process: (exit status, standard output, standard error).
fn rl(args: &[&str]) -> (ExitCode, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut words = vec!["rl"];
    words.extend_from_slice(args);
    let code = rl_experiment::cli::run_with_args(words, &mut out, &mut err);
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("utf-8");
    (code, text(out), text(err))
}

#[test]
fn the_id_builds_with_json_parameters_and_reports_bad_ones() {
    setup();
    let mut env = registry::make(CHAIN_ID, Some(&json!({"length": 8, "slip": 0.0})))
        .expect("valid parameters");
    assert_eq!(env.observation_space().to_string(), "Discrete(8)");
    env.seed(5);
    assert_eq!(
        env.reset(Mode::Training).expect("reset"),
        AnyElement::Int(0)
    );
    let mut steps = 0;
    loop {
        let outcome = env.step(&AnyElement::Int(1)).expect("a step");
        steps += 1;
        if outcome.is_done() {
            assert!(outcome.terminated);
            break;
        }
    }
    assert_eq!(
        steps, 7,
        "without slip the walk right takes length - 1 steps"
    );

    match registry::make(CHAIN_ID, Some(&json!({"length": "eight"}))) {
        Err(CoreError::InvalidParameters { id, path, .. }) => {
            assert_eq!((id.as_str(), path.as_str()), (CHAIN_ID, "length"));
        }
        other => panic!("expected InvalidParameters, got {:?}", other.err()),
    }
    match registry::make(CHAIN_ID, Some(&json!({"slip": 1.5}))) {
        Err(CoreError::InvalidDomain { reason, .. }) => assert!(reason.contains("slip")),
        other => panic!("expected InvalidDomain, got {:?}", other.err()),
    }
    match custom_domain::register() {
        Err(CoreError::DuplicateId { id }) => assert_eq!(id, CHAIN_ID),
        other => panic!("registering twice must fail, got {other:?}"),
    }
    match registry::make("Chain-v9", None) {
        Err(error @ CoreError::UnknownId { .. }) => {
            let message = error.to_string();
            assert!(
                message.contains(CHAIN_ID) && message.contains("CartPole-v1"),
                "{message}"
            );
        }
        other => panic!("expected UnknownId, got {:?}", other.err()),
    }
}

#[test]
fn the_id_passes_the_checker_and_draws() {
    setup();
    let chain = registry::build(CHAIN_ID, Some(&json!({"length": 3}))).expect("builds");
    let report = chain.check(&CheckConfig::default());
    assert!(report.is_ok(), "{report}");
    assert!(report.passed.len() >= 10, "{report}");
    assert_eq!(
        chain.picture(0, PictureFormat::Text).as_deref(),
        Some("A..")
    );
    assert!(chain.as_any().downcast_ref::<Chain>().is_some());
}

#[test]
fn a_vector_built_from_the_id_steps_like_typed_simulators() {
    setup();
    let count = NonZeroUsize::new(6).expect("non-zero");
    for threads in [1, 2] {
        let options =
            VectorOptions::new().with_threads(NonZeroUsize::new(threads).expect("non-zero"));
        let mut by_id =
            make_vector::<AnyElement, f32>(CHAIN_ID, None, count, 21, options).expect("by id");
        let mut typed = EnvironmentVector::<_, f32>::from_environments(count, 21, options, |_| {
            Simulator::new(Chain::new(ChainParams::default()).expect("valid"), 0)
        })
        .expect("typed");
        by_id.reset(Mode::Training).expect("reset");
        typed.reset(Mode::Training).expect("reset");
        let mut ended = 0;
        for step in 0..60_i64 {
            let actions: Vec<i64> = (0..6).map(|i| (i + step) % 3 % 2).collect();
            let any: Vec<AnyElement> = actions.iter().map(|a| AnyElement::Int(*a)).collect();
            by_id.step(&any).expect("a step");
            typed.step(&actions).expect("a step");
            assert_eq!(by_id.observations(), typed.observations(), "step {step}");
            assert_eq!(by_id.rewards(), typed.rewards());
            assert_eq!(by_id.terminated(), typed.terminated());
            assert_eq!(by_id.truncated(), typed.truncated());
            ended += by_id.terminated().iter().filter(|t| **t).count();
        }
        assert!(
            ended > 0,
            "the comparison must cross episode ends (and autoresets)"
        );
    }
}

#[test]
fn the_command_line_lists_checks_draws_and_runs_the_id() {
    setup();
    let (code, out, _) = rl(&["list"]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        out.contains(CHAIN_ID) && out.contains("a chain walked to its end"),
        "{out}"
    );

    let (code, out, err) = rl(&["check", "--domain", CHAIN_ID]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(out.contains("0 failed"), "{out}");

    let dir = std::env::temp_dir().join(format!("rl-user-domain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let picture = dir.join("chain.svg");
    let picture_arg = picture.to_str().expect("utf-8 path");
    let (code, _, err) = rl(&["render", "--domain", CHAIN_ID, "--out", picture_arg]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(
        std::fs::read_to_string(&picture)
            .expect("written")
            .starts_with("<svg")
    );

    let results = dir.join("results");
    let results_arg = results.to_str().expect("utf-8 path");
    let run = [
        "run",
        "--domain",
        CHAIN_ID,
        "--runs",
        "2",
        "--out",
        results_arg,
    ];
    let (code, out, err) = rl(&run);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(
        out.contains("q-learning on Chain-v0"),
        "the registration's settings: {out}"
    );
    for file in [
        "summary.csv",
        "learning_curve.svg",
        "run-000.json",
        "run-001.json",
    ] {
        assert!(results.join(file).is_file(), "{file} missing after:\n{out}");
    }
    let modified = |path: &std::path::Path| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .expect("a modification time")
    };
    let first = std::fs::read_to_string(results.join("run-001.json")).expect("a run");
    let first_time = modified(&results.join("run-001.json"));
    // Removing one finished run and rerunning recomputes that run only, identically.
    std::fs::remove_file(results.join("run-000.json")).expect("remove a run");
    let (code, _, err) = rl(&run);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let again = std::fs::read_to_string(results.join("run-001.json")).expect("a run");
    assert_eq!(first, again, "a finished run is kept");
    assert_eq!(
        first_time,
        modified(&results.join("run-001.json")),
        "and not rewritten"
    );
    assert!(
        results.join("run-000.json").is_file(),
        "the missing run is run again"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
