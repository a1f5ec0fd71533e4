//! The rl-core conformance checker over every registered id with its defaults: the typed
//! domain through `check_domain` (and `check_transitions` for GridWorld), and the boxed
//! environment `make` returns through `check_environment`.

use rl_core::{CheckConfig, CheckReport, check_domain, check_environment, check_transitions};
use rl_domains::registry;

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
    assert!(ids.iter().any(|id| id == "Taxi-v4"), "{ids:?}");
    let mut kernels = 0;
    for id in &ids {
        let domain = registry::build(id, None).unwrap_or_else(|error| panic!("{id}: {error}"));
        let typed = domain.check(&config);
        if id.starts_with(registry::GRIDWORLD_PREFIX) {
            // The registration declares enumerable transitions: the report by id includes them.
            let world = registry::gridworld_from_id(id, None).expect("a GridWorld");
            let transitions = check_transitions(&world, &config);
            assert_passes(id, "transitions", &transitions);
            for check in &transitions.passed {
                assert!(
                    typed.passed.contains(check),
                    "{id}: {check:?} not run by id"
                );
            }
            let direct = check_domain(&world, &config);
            assert_eq!(
                typed.passed.len(),
                direct.passed.len() + transitions.passed.len()
            );
        }
        assert_passes(id, "typed domain", &typed);
        // An id whose registration declares a kernel (vectors by id report no infos then) has
        // it checked against the domain's step; the others have none to check.
        let kernel = !domain.batch_states(1).reports_infos();
        kernels += usize::from(kernel);
        assert_eq!(
            typed
                .passed
                .contains(&"the batch kernel steps as the domain's step"),
            kernel,
            "{id}: the kernel check ran for a registration without a kernel, or not for one with"
        );

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
    assert!(
        kernels >= 3,
        "CartPole, MountainCar and their fast modes have kernels: {kernels}"
    );
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
