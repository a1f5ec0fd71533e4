//! The rl-core conformance checker over every registered id with its defaults: the typed
//! domain through `check_domain` (and `check_transitions` for GridWorld), and the boxed
//! environment `make` returns through `check_environment`.

use rl_core::{CheckConfig, CheckReport, check_domain, check_environment, check_transitions};
use rl_domains::registry::{self, RegisteredDomain};

/// Fails with the whole report unless no check failed (advisories are allowed).
fn assert_passes(id: &str, what: &str, report: &CheckReport) {
    assert!(report.is_ok(), "{id} ({what}):\n{report}");
    assert!(
        !report.passed.is_empty(),
        "{id} ({what}): nothing was checked"
    );
}

#[test]
fn every_registered_id_passes_the_checker() {
    let config = CheckConfig::default();
    let ids = registry::ids();
    assert_eq!(ids.len(), 5 + 14, "{ids:?}");
    for id in &ids {
        let domain = registry::domain(id, None).unwrap_or_else(|error| panic!("{id}: {error}"));
        let typed = match &domain {
            RegisteredDomain::CartPole(domain) => check_domain(domain, &config),
            RegisteredDomain::MountainCar(domain) => check_domain(domain, &config),
            RegisteredDomain::MountainCarContinuous(domain) => check_domain(domain, &config),
            RegisteredDomain::Acrobot(domain) => check_domain(domain, &config),
            RegisteredDomain::Pendulum(domain) => check_domain(domain, &config),
            RegisteredDomain::GridWorld(domain) => {
                let mut report = check_domain(domain, &config);
                let transitions = check_transitions(domain, &config);
                assert_passes(id, "transitions", &transitions);
                report.merge(transitions);
                report
            }
            other => panic!("{id}: a domain this test does not know: {other:?}"),
        };
        assert_passes(id, "typed domain", &typed);

        let boxed = check_environment(
            || registry::make(id, None).unwrap_or_else(|error| panic!("{id}: {error}")),
            &config,
        );
        assert_passes(id, "boxed environment", &boxed);
        let advisories: Vec<_> = typed
            .advisories()
            .chain(boxed.advisories())
            .map(|finding| format!("{}: {}", finding.check, finding.message))
            .collect();
        println!("{id}: passed; advisories: {advisories:?}");
    }
}

#[test]
fn gridworld_transitions_pass_with_strong_noise_and_every_pair_of_a_small_map() {
    // More (state, action) pairs than the default, at a noise where every outcome is likely.
    let config = CheckConfig {
        transition_pairs: 200,
        ..CheckConfig::default()
    };
    for id in [
        "GridWorld-2x3",
        "GridWorld-3x5-Wall",
        "GridWorld-4x12-CliffWorld",
    ] {
        for params in [
            serde_json::json!({"noise": 0.3}),
            serde_json::json!({"noise": 1.0}),
            serde_json::json!({"noise": 0.0}),
        ] {
            let domain = registry::gridworld_from_id(id, Some(&params))
                .unwrap_or_else(|error| panic!("{id}: {error}"));
            assert_passes(
                id,
                &params.to_string(),
                &check_transitions(&domain, &config),
            );
            assert_passes(id, &params.to_string(), &check_domain(&domain, &config));
        }
    }
}
