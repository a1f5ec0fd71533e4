//! The replay paths through the domain types: each catches what it alone can see (the
//! simulator's time limit and action checks, the domain's applicable actions, enumerable
//! transitions and sampled frequencies), and every path runs on every Gymnasium file.

use std::path::{Path, PathBuf};

use rl_reference::{MismatchLocation, ReferenceContent, ReplayMode, parse_reference, replay};
use serde_json::Value;

fn reference_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference")
        .join(name)
}

fn read_json(name: &str) -> Value {
    let text = std::fs::read_to_string(reference_file(name)).expect("a reference file");
    serde_json::from_str(&text).expect("valid JSON")
}

/// The mismatches of `name` after `corrupt` changed it, as (location, field) pairs.
fn mismatches_after(
    name: &str,
    corrupt: impl FnOnce(&mut Value),
) -> Vec<(MismatchLocation, String)> {
    let mut json = read_json(name);
    corrupt(&mut json);
    let text = serde_json::to_string(&json).expect("serializable");
    let file = parse_reference(&text, name).expect("the corrupted file still loads");
    replay(&file)
        .mismatches
        .into_iter()
        .map(|mismatch| (mismatch.location, mismatch.field))
        .collect()
}

fn in_mode(mismatches: &[(MismatchLocation, String)], wanted: ReplayMode, field: &str) -> bool {
    mismatches.iter().any(|(location, found)| {
        found == field && matches!(location, MismatchLocation::Step { mode, .. } if *mode == wanted)
    })
}

#[test]
fn every_gymnasium_path_checks_every_observation() {
    // One float32 bit of one observation is wrong: all four paths see it, for each domain.
    for (name, component) in [
        ("cartpole_v1_semi_implicit.json", 2),
        ("mountaincar_v0.json", 1),
        ("acrobot_v1_nips.json", 4),
        ("pendulum_v1_g9_81.json", 0),
    ] {
        let mismatches = mismatches_after(name, |json| {
            let value = &mut json["traces"][1]["steps"][6]["obs"][component];
            let bits = (value.as_f64().expect("a number") as f32).to_bits();
            *value = Value::from(f64::from(f32::from_bits(bits ^ 1)));
        });
        let field = format!("obs[{component}]");
        for mode in [
            ReplayMode::PerStep,
            ReplayMode::Rollout,
            ReplayMode::DomainPerStep,
            ReplayMode::SimulatorRollout,
        ] {
            assert!(
                in_mode(&mismatches, mode, &field),
                "{name}, {mode}: {mismatches:?}"
            );
        }
        assert_eq!(mismatches.len(), 4, "{name}: {mismatches:?}");
    }
}

#[test]
fn the_simulator_applies_the_time_limit_of_the_file() {
    // A shorter time limit changes the domain the simulator runs: it truncates early, which
    // only the `truncated` flags show.
    let mismatches = mismatches_after("pendulum_v1.json", |json| {
        json["generator"]["max_episode_steps"] = Value::from(50);
    });
    assert!(in_mode(
        &mismatches,
        ReplayMode::SimulatorRollout,
        "truncated"
    ));
    assert!(in_mode(&mismatches, ReplayMode::PerStep, "truncated"));
    assert!(
        mismatches
            .iter()
            .all(|(_, field)| field == "truncated" || field == "step"),
        "{mismatches:?}"
    );
}

#[test]
fn continuous_traces_cover_actions_inside_and_outside_the_box() {
    // The simulator must reject the actions outside the box (a mismatch otherwise), and the
    // rollout then goes on through `Domain::step`; both kinds of trace exist.
    let text = std::fs::read_to_string(reference_file("mountaincar_continuous_v0.json"))
        .expect("a reference file");
    let file = parse_reference(&text, "mountaincar_continuous_v0.json").expect("a file");
    let ReferenceContent::MountainCarContinuous { traces, .. } = &file.content else {
        panic!("not a MountainCarContinuous file");
    };
    let outside = traces
        .iter()
        .filter(|trace| trace.actions.iter().any(|[a]| !(-1.0..=1.0).contains(a)))
        .count();
    assert!(outside > 0 && outside < traces.len());
    assert!(replay(&file).is_match());
}

#[test]
fn gridworld_domain_paths_check_masks_transitions_and_frequencies() {
    let mismatches = mismatches_after("gridworld_deterministic.json", |json| {
        json["traces"][0]["steps"][1]["possible_actions_next"] = Value::from(vec![0]);
        json["traces"][0]["steps"][2]["possible_actions"] = Value::from(vec![1]);
    });
    assert!(in_mode(
        &mismatches,
        ReplayMode::DomainPerStep,
        "possible_actions_next"
    ));
    assert!(in_mode(
        &mismatches,
        ReplayMode::SimulatorRollout,
        "action mask"
    ));

    let mismatches = mismatches_after("gridworld_table_3x5-Wall.json", |json| {
        let outcomes = &mut json["entries"][2]["by_noise"]["0.3"]["step_distribution"];
        let p = outcomes[0]["p"].as_f64().expect("a probability");
        outcomes[0]["p"] = Value::from(p * 0.5);
    });
    let domain_fields: Vec<&str> = mismatches
        .iter()
        .filter(|(location, _)| {
            matches!(location, MismatchLocation::TableEntry { noise: Some(noise), .. } if noise == "0.3 (domain)")
        })
        .map(|(_, field)| field.as_str())
        .collect();
    assert!(
        domain_fields.iter().any(|field| field.starts_with("p(")),
        "{domain_fields:?}"
    );
    assert!(
        domain_fields
            .iter()
            .any(|field| field.starts_with("corrected p(")),
        "{domain_fields:?}"
    );
    assert!(
        domain_fields
            .iter()
            .any(|field| field.starts_with("frequency of")),
        "{domain_fields:?}"
    );
}
