//! Replays every reference file of `testdata/reference/` along every path and checks that
//! corrupted copies are caught on each.

use std::path::{Path, PathBuf};

use rl_reference::{
    CheckedItems, MismatchLocation, ReferenceError, ReplayMode, load_reference_file,
    parse_reference, replay, replay_file, replay_files_report,
};
use serde_json::Value;

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/reference")
}

/// The reference files that hold one domain's traces or tables (every JSON file but the space
/// cases and the seeded files, which `tests/seeded.rs` replays).
fn reference_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(reference_dir())
        .expect("the reference directory exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .filter(|path| {
            path.file_name().is_some_and(|name| {
                name != "gymnasium_spaces.json"
                    && !name.to_string_lossy().starts_with("seeded_")
                    && name != "numpy_generator.json"
                    // Gymnasium's toy-text tables: rl-domains' toy_text tests compare them.
                    && name != "toy_text_tables.json"
                    // MuJoCo traces: rl-mujoco's traces test replays them (with libmujoco).
                    && !name.to_string_lossy().starts_with("mujoco_")
            })
        })
        .collect();
    files.sort();
    files
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a readable reference file");
    serde_json::from_str(&text).expect("valid JSON")
}

/// Counts steps and entries straight from the JSON, independently of the crate's types.
fn independent_step_count(json: &Value) -> usize {
    let steps: usize = json["traces"]
        .as_array()
        .map(|traces| {
            traces
                .iter()
                .map(|trace| trace["steps"].as_array().map_or(0, Vec::len))
                .sum()
        })
        .unwrap_or(0);
    let entries = json["entries"].as_array().map_or(0, Vec::len);
    steps + entries
}

#[test]
fn every_reference_file_replays_without_mismatch() {
    let files = reference_files();
    assert_eq!(
        files.len(),
        13,
        "expected the 13 trace and table files, found {files:?}"
    );
    for path in files {
        let file = load_reference_file(&path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let report = replay(&file);
        let expected_steps = independent_step_count(&read_json(&path));
        assert!(expected_steps > 0, "{}: no steps", path.display());
        assert_eq!(report.steps_checked, expected_steps, "{}", path.display());
        assert!(
            report.values_compared > expected_steps,
            "{}",
            path.display()
        );
        let shown: Vec<String> = report
            .mismatches
            .iter()
            .take(10)
            .map(ToString::to_string)
            .collect();
        assert!(
            report.mismatches.is_empty(),
            "{}: {} mismatches, first ones:\n{}",
            path.display(),
            report.mismatches.len(),
            shown.join("\n")
        );
        println!(
            "{}: {} steps or entries, {} values compared, 0 mismatches",
            report.name, report.steps_checked, report.values_compared
        );
    }
}

/// Replays `json`, after `corrupt` changed it, and returns the mismatches' locations and fields.
fn replay_corrupted(
    file_name: &str,
    corrupt: impl FnOnce(&mut Value),
) -> Vec<(MismatchLocation, String)> {
    let mut json = read_json(&reference_dir().join(file_name));
    corrupt(&mut json);
    let path = std::env::temp_dir().join(format!(
        "rl-reference-corrupted-{}-{file_name}",
        std::process::id()
    ));
    std::fs::write(
        &path,
        serde_json::to_string(&json).expect("serializable JSON"),
    )
    .expect("a writable temporary directory");
    let loaded = load_reference_file(&path);
    std::fs::remove_file(&path).expect("the temporary file can be removed");
    let report = replay(&loaded.expect("the corrupted file still loads"));
    report
        .mismatches
        .into_iter()
        .map(|mismatch| (mismatch.location, mismatch.field))
        .collect()
}

/// The four paths every Gymnasium trace step goes through.
const EVERY_PATH: [ReplayMode; 4] = [
    ReplayMode::PerStep,
    ReplayMode::Rollout,
    ReplayMode::DomainPerStep,
    ReplayMode::SimulatorRollout,
];

#[test]
fn flipped_reward_is_detected_on_every_path() {
    for (file, trace, reward) in [
        ("cartpole_v1_euler.json", "cp-euler-001", -1.0),
        ("acrobot_v1.json", "acro-001", 0.0),
        ("pendulum_v1.json", "pend-001", 1.0),
    ] {
        let mismatches = replay_corrupted(file, |json| {
            json["traces"][0]["steps"][3]["reward"] = Value::from(reward);
        });
        assert_eq!(mismatches.len(), 4, "{file}: {mismatches:?}");
        for mode in EVERY_PATH {
            assert!(
                mismatches.contains(&(
                    MismatchLocation::Step {
                        trace: trace.to_owned(),
                        t: 3,
                        mode,
                    },
                    "reward".to_owned()
                )),
                "{file}, {mode}: {mismatches:?}"
            );
        }
    }
}

#[test]
fn one_ulp_state_change_is_detected() {
    let mismatches = replay_corrupted("mountaincar_v0.json", |json| {
        let value = json["traces"][1]["steps"][10]["next_state"][0]
            .as_f64()
            .expect("a number");
        json["traces"][1]["steps"][10]["next_state"][0] =
            Value::from(f64::from_bits(value.to_bits() + 1));
    });
    assert!(
        mismatches
            .iter()
            .any(|(location, field)| field == "next_state[0]"
                && matches!(
                    location,
                    MismatchLocation::Step {
                        t: 10,
                        mode: ReplayMode::PerStep,
                        ..
                    }
                ))
    );
}

#[test]
fn float32_change_in_continuous_trace_is_detected() {
    let mismatches = replay_corrupted("mountaincar_continuous_v0.json", |json| {
        let value = json["traces"][0]["steps"][5]["obs"][1]
            .as_f64()
            .expect("a number") as f32;
        json["traces"][0]["steps"][5]["obs"][1] =
            Value::from(f64::from(f32::from_bits(value.to_bits() + 1)));
    });
    assert_eq!(mismatches.len(), 4, "{mismatches:?}");
    assert!(mismatches.iter().all(|(_, field)| field == "obs[1]"));
}

#[test]
fn gridworld_corruptions_are_detected() {
    let mismatches = replay_corrupted("gridworld_deterministic.json", |json| {
        json["traces"][2]["steps"][0]["terminal"] = Value::Bool(true);
        json["traces"][2]["return_discounted"] = Value::from(0.5);
    });
    assert!(mismatches.iter().any(|(_, field)| field == "terminal"));
    assert!(
        mismatches
            .iter()
            .any(|(_, field)| field == "return_discounted")
    );

    let mismatches = replay_corrupted("gridworld_table_4x5.json", |json| {
        json["entries"][0]["by_noise"]["0.1"]["expected_step"][0]["p"] = Value::from(0.0501);
        json["entries"][1]["by_noise"]["0.3"]["step_distribution"][0]["p"] = Value::from(0.5);
    });
    assert!(mismatches.iter().any(|(location, field)| field == "expected_step[0].p"
        && matches!(location, MismatchLocation::TableEntry { noise: Some(noise), .. } if noise == "0.1")));
    assert!(
        mismatches
            .iter()
            .any(|(_, field)| field.starts_with("step_distribution[") && field.ends_with(".p"))
    );
}

#[test]
fn truncated_flag_and_time_limit_are_checked() {
    let mismatches = replay_corrupted("cartpole_v1_sutton_barto.json", |json| {
        json["generator"]["max_episode_steps"] = Value::from(10);
    });
    assert!(mismatches.iter().any(|(_, field)| field == "truncated"));
}

#[test]
fn unknown_envelope_keys_are_tolerated() {
    let mismatches = replay_corrupted("gridworld_table_2x3.json", |json| {
        json["a_future_key"] = Value::from("ignored");
        json["entries"][0]["another_future_key"] = Value::from(1);
    });
    assert!(mismatches.is_empty(), "{mismatches:?}");
}

fn minimal_file(domain: &str, variant: &str, extra: &str) -> String {
    format!(
        r#"{{"schema_version": 1, "domain": "{domain}", "variant": "{variant}", "traces": []{extra}}}"#
    )
}

#[test]
fn unknown_domain_variant_and_override_are_typed_errors() {
    let error = parse_reference(&minimal_file("Hopper", "default", ""), "test");
    assert!(matches!(error, Err(ReferenceError::UnknownDomain { domain }) if domain == "Hopper"));

    let error = parse_reference(&minimal_file("CartPole", "rk4", ""), "test");
    assert!(
        matches!(error, Err(ReferenceError::UnknownVariant { variant, .. }) if variant == "rk4")
    );

    let error = parse_reference(
        &minimal_file(
            "CartPole",
            "euler",
            r#", "unwrapped_overrides": {"masspole": 0.2}"#,
        ),
        "test",
    );
    assert!(
        matches!(error, Err(ReferenceError::UnsupportedOverride { key, .. }) if key == "masspole")
    );

    let error = parse_reference(
        &minimal_file(
            "MountainCar",
            "default",
            r#", "make_kwargs": {"goal_velocity": 0.01}"#,
        ),
        "test",
    );
    assert!(error.is_ok());

    let error = parse_reference(
        r#"{"schema_version": 2, "domain": "CartPole", "variant": "euler"}"#,
        "test",
    );
    assert!(matches!(
        error,
        Err(ReferenceError::UnsupportedSchemaVersion { version: 2 })
    ));

    let error = parse_reference(
        r#"{"schema_version": 1, "domain": "CartPole", "variant": "euler"}"#,
        "test",
    );
    assert!(matches!(error, Err(ReferenceError::MissingField { .. })));

    let error = load_reference_file(reference_dir().join("no_such_file.json"));
    assert!(matches!(error, Err(ReferenceError::Io { .. })));
}

#[test]
fn overrides_change_the_replayed_dynamics() {
    // Setting the integrator back to Euler on the semi-implicit file must break the replay.
    let mismatches = replay_corrupted("cartpole_v1_semi_implicit.json", |json| {
        json["unwrapped_overrides"]["kinematics_integrator"] = Value::from("euler");
    });
    assert!(!mismatches.is_empty());
}

#[test]
fn replay_file_summarises_steps_or_entries() {
    let report = replay_file(reference_dir().join("gridworld_table_2x3.json")).expect("a table");
    assert_eq!(report.items, CheckedItems::Entries);
    assert_eq!(
        report.summary(),
        "gridworld_table_2x3.json: 11 entries checked, 0 mismatches"
    );
    let report =
        replay_file(reference_dir().join("cartpole_v1_sutton_barto.json")).expect("traces");
    assert_eq!(report.items, CheckedItems::Steps);
    assert_eq!(
        report.summary(),
        format!(
            "cartpole_v1_sutton_barto.json: {} steps checked, 0 mismatches",
            report.steps_checked
        )
    );
    assert!(matches!(
        replay_file(reference_dir().join("gymnasium_spaces.json")),
        Err(ReferenceError::NotATrace { file }) if file == "gymnasium_spaces.json"
    ));
}

#[test]
fn the_files_report_skips_files_of_another_kind_with_one_line() {
    let files = [
        reference_dir().join("gymnasium_spaces.json"),
        reference_dir().join("gridworld_table_2x3.json"),
    ];
    let (text, all_match) = replay_files_report(&files, 10);
    assert!(all_match, "{text}");
    assert_eq!(
        text,
        "skipped gymnasium_spaces.json: not a transition trace\n\
         gridworld_table_2x3.json: 11 entries checked, 0 mismatches\n"
    );
    let (text, all_match) = replay_files_report(&[reference_dir().join("no_such_file.json")], 10);
    assert!(!all_match);
    assert!(
        text.contains("no_such_file.json: error: cannot read"),
        "{text}"
    );
}

#[test]
fn bad_values_are_errors_naming_the_file_and_the_json_path() {
    let mut json = read_json(&reference_dir().join("pendulum_v1.json"));
    json["traces"][2]["steps"][17]["obs"][1] = Value::from("not a number");
    let text = serde_json::to_string(&json).expect("serializable");
    let error = parse_reference(&text, "pendulum_v1.json").expect_err("a bad value");
    match &error {
        ReferenceError::Json {
            file, json_path, ..
        } => {
            assert_eq!(file, "pendulum_v1.json");
            assert_eq!(json_path, "traces[2].steps[17].obs[1]");
        }
        other => panic!("not a JSON error: {other:?}"),
    }
    let message = error.to_string();
    assert!(
        message.contains("pendulum_v1.json") && message.contains("traces[2].steps[17].obs[1]"),
        "{message}"
    );

    let mut json = read_json(&reference_dir().join("gridworld_deterministic.json"));
    json["schema_version"] = Value::from("one");
    let text = serde_json::to_string(&json).expect("serializable");
    let message = parse_reference(&text, "gridworld_deterministic.json")
        .expect_err("a bad version")
        .to_string();
    assert!(message.contains("schema_version"), "{message}");

    let message = parse_reference("{\"schema_version\": 1, \"domain\": ", "cut.json")
        .expect_err("cut JSON")
        .to_string();
    assert!(
        message.contains("cut.json") && message.contains("line 1"),
        "{message}"
    );
}
