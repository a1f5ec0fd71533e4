//! The seeded reference files (`numpy_generator.json`, `seeded_classic.json`,
//! `seeded_toy_text.json`, `seeded_vector.json`, `seeded_minigrid.json`,
//! `seeded_space_samples.json`): numpy's generator call by call, and Gymnasium's (and
//! minigrid's) trajectories from `reset(seed=s)` onwards, replayed by id through the simulator
//! and through vectors on one to three threads, with no state written by hand (toy text: each
//! step's `prob`, as every recorded info entry, and Taxi's `action_mask` too).

use std::path::{Path, PathBuf};

use rl_reference::schema::ReferenceContent;
use rl_reference::{ReferenceFile, ReplayReport, load_reference_file, replay};

fn reference_file(name: &str) -> ReferenceFile {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference")
        .join(name);
    load_reference_file(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn assert_no_mismatch(report: &ReplayReport) {
    let shown: Vec<String> = report
        .mismatches
        .iter()
        .take(10)
        .map(ToString::to_string)
        .collect();
    assert!(
        report.is_match(),
        "{}\n{}",
        report.summary(),
        shown.join("\n")
    );
}

/// The ids of classic control, which the seeded files share with toy text.
const CLASSIC: [&str; 5] = [
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Acrobot-v1",
    "Pendulum-v1",
];

/// The toy-text ids (issue 28).
const TOY_TEXT: [&str; 6] = [
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Taxi-v4",
    "Blackjack-v1",
];

#[test]
fn every_numpy_generator_call_gives_numpys_result() {
    let file = reference_file("numpy_generator.json");
    let report = replay(&file);
    assert_no_mismatch(&report);
    assert_eq!(report.steps_checked, file.step_count());
    assert!(report.steps_checked > 500, "{}", report.summary());
}

/// Replays the seeded single-environment file `name`, whose traces must cover every id of
/// `ids`: no mismatch, every recorded step checked, and more than `least` of them.
fn assert_single_file_replays(name: &str, ids: &[&str], least: usize) {
    let file = reference_file(name);
    let ReferenceContent::SeededSingle { traces } = &file.content else {
        panic!("{name} is a seeded_single file");
    };
    let recorded: Vec<&str> = traces.iter().map(|trace| trace.env_id.as_str()).collect();
    for id in ids {
        assert!(recorded.contains(id), "no trace of {id}");
    }
    assert_replays(&file, least);
}

/// Replays the traces of `seeded_vector.json` of the ids `ids` (on one to three threads): no
/// mismatch, both autoreset modes, every recorded step checked, and more than `least`.
fn assert_vector_traces_replay(ids: &[&str], least: usize) {
    let mut file = reference_file("seeded_vector.json");
    let ReferenceContent::SeededVector { traces } = &mut file.content else {
        panic!("seeded_vector.json is a seeded_vector file");
    };
    traces.retain(|trace| ids.contains(&trace.env_id.as_str()));
    let modes: Vec<&str> = traces
        .iter()
        .map(|trace| trace.autoreset_mode.as_str())
        .collect();
    assert!(
        modes.contains(&"NextStep") && modes.contains(&"SameStep"),
        "{modes:?}"
    );
    assert_replays(&file, least);
}

/// Replays `file`: no mismatch, every recorded step checked, and more than `least`.
fn assert_replays(file: &ReferenceFile, least: usize) {
    let report = replay(file);
    println!("{}", report.summary());
    assert_no_mismatch(&report);
    assert_eq!(
        report.steps_checked,
        file.step_count(),
        "{}",
        report.summary()
    );
    assert!(report.steps_checked > least, "{}", report.summary());
}

#[test]
fn seeded_classic_control_gives_gymnasiums_trajectories() {
    assert_single_file_replays("seeded_classic.json", &CLASSIC, 1000);
}

#[test]
fn seeded_classic_control_vectors_give_gymnasiums_trajectories() {
    assert_vector_traces_replay(&CLASSIC, 1000);
}

#[test]
fn seeded_toy_text_gives_gymnasiums_trajectories() {
    assert_single_file_replays("seeded_toy_text.json", &TOY_TEXT, 1000);
}

#[test]
fn seeded_toy_text_vectors_give_gymnasiums_trajectories() {
    assert_vector_traces_replay(&TOY_TEXT, 500);
}

#[test]
fn seeded_space_samples_are_gymnasiums() {
    let file = reference_file("seeded_space_samples.json");
    let ReferenceContent::SeededSpaceSamples { cases } = &file.content else {
        panic!("seeded_space_samples.json is not read as seeded space samples");
    };
    assert_eq!(cases.len(), 20);
    assert_eq!(file.step_count(), 312);
    let report = replay(&file);
    // Every draw of every case (masks and probabilities of every kind, Text, Graph, OneOf,
    // Tuple, Dict, Sequence, nested composites, bounded, half-bounded, unbounded and integer
    // Boxes, a Discrete of 2^40 values) gives Gymnasium's sample exactly.
    assert_eq!(report.steps_checked, 312, "{}", report.summary());
    assert!(report.values_compared >= 312, "{}", report.summary());
    assert!(
        report.mismatches.is_empty(),
        "{}\n{}",
        report.summary(),
        report
            .mismatches
            .iter()
            .take(10)
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn seeded_minigrid_gives_minigrids_trajectories() {
    // minigrid 3.2.0's 40 seeded traces (the grid after each reset, every observation, reward
    // bit, flag, position, direction and carried object), replayed as `rl replay` replays them.
    let file = reference_file("seeded_minigrid.json");
    let ReferenceContent::SeededMiniGrid { traces } = &file.content else {
        panic!("seeded_minigrid.json is not read as minigrid traces");
    };
    assert_eq!(traces.len(), 40, "the file's 40 ids");
    let ids: std::collections::BTreeSet<&str> =
        traces.iter().map(|trace| trace.env_id.as_str()).collect();
    assert_eq!(ids.len(), 40);
    for id in &ids {
        assert!(
            rl_object_grid::ids::IDS.contains(id),
            "{id} is not implemented"
        );
    }
    let report = replay(&file);
    assert_no_mismatch(&report);
    assert_eq!(report.steps_checked, file.step_count());
    assert!(report.steps_checked > 5000, "{}", report.summary());
    // Each step compares at least its image, direction, mission, reward, both flags, position,
    // direction and carried object.
    assert!(
        report.values_compared >= 9 * report.steps_checked,
        "{}",
        report.summary()
    );
}

#[test]
fn a_changed_minigrid_trace_is_a_mismatch() {
    // The replay can fail: one reward's last bit and one image byte changed are two mismatches.
    let mut file = reference_file("seeded_minigrid.json");
    let ReferenceContent::SeededMiniGrid { traces } = &mut file.content else {
        panic!("seeded_minigrid.json is not read as minigrid traces");
    };
    let step = &mut traces[3].segments[0].steps[0];
    step.reward = f64::from_bits(step.reward.to_bits() ^ 1);
    let image = &mut step.obs.image;
    let first = if image.starts_with('0') { "1" } else { "0" };
    image.replace_range(0..1, first);
    let report = replay(&file);
    assert_eq!(report.mismatches.len(), 2, "{}", report.summary());
    let fields: Vec<&str> = report.mismatches.iter().map(|m| m.field.as_str()).collect();
    assert_eq!(fields, ["obs.image", "reward"]);
}

#[test]
fn a_changed_info_entry_or_an_unreported_one_is_a_mismatch() {
    // Every recorded entry beyond the observation, reward and flags is an info entry compared
    // with the environment's: one bit of a `prob` changed and an entry the domain does not
    // report are two mismatches.
    let mut file = reference_file("seeded_toy_text.json");
    let ReferenceContent::SeededSingle { traces } = &mut file.content else {
        panic!("seeded_toy_text.json is not read as single-environment traces");
    };
    traces.truncate(1);
    assert_eq!(traces[0].env_id, "FrozenLake-v1");
    let steps = &mut traces[0].segments[0].steps;
    let prob = steps[0].infos["prob"]
        .as_f64()
        .expect("FrozenLake records prob");
    steps[0].infos.insert(
        "prob".to_owned(),
        serde_json::json!(f64::from_bits(prob.to_bits() ^ 1)),
    );
    steps[1]
        .infos
        .insert("no_such_entry".to_owned(), serde_json::json!(1));
    let report = replay(&file);
    let fields: Vec<&str> = report.mismatches.iter().map(|m| m.field.as_str()).collect();
    assert_eq!(
        fields,
        [r#"info["prob"]"#, r#"info["no_such_entry"]"#],
        "{}",
        report.summary()
    );
}

/// A recorded call asking for 2^40 values (`shuffle`'s `n`, a weighted `choice`'s `size`)
/// is a mismatch, not an allocation of 8 TiB that aborts the process (found by rl-fuzz's
/// `trace` target).
#[test]
fn numpy_calls_asking_for_too_many_values_are_mismatches() {
    let text = r#"{"schema_version": 1, "kind": "numpy_generator", "generator": {}, "split": "public",
        "cases": [{"id": "huge", "seed": 0,
            "initial_state": {"state": "35399562948360463058890781895381311971",
                              "inc": "87136372517582989555478159403783844777"},
            "calls": [
                {"method": "shuffle", "args": {"n": 1099511627776}, "result": [0]},
                {"method": "choice", "args": {"a": 2, "p": [0.5, 0.5], "size": 1099511627776}, "result": [0]},
                {"method": "random", "args": {}, "result": 0.6369616873214543}
            ]}]}"#;
    let file = rl_reference::parse_reference(text, "huge.json").expect("a valid file");
    let report = replay(&file);
    assert_eq!(report.mismatches.len(), 2, "{}", report.summary());
    assert_eq!(report.steps_checked, 3);
}
