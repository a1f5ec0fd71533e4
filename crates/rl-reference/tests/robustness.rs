//! Malformed reference files are typed errors or replay without a panic (proptest), and
//! arbitrary text is an error.

use std::path::Path;

use proptest::prelude::*;
use rl_reference::{parse_reference, replay};
use serde_json::Value;

proptest! {
    #[test]
    fn arbitrary_text_is_an_error_not_a_panic(text in any::<String>()) {
        prop_assert!(parse_reference(&text, "arbitrary").is_err());
    }
}

/// Small copies of the reference files (the first traces and steps, without the keys that
/// describe whole traces), as JSON values, read once.
fn small_reference_files() -> &'static [Value] {
    static FILES: std::sync::OnceLock<Vec<Value>> = std::sync::OnceLock::new();
    FILES.get_or_init(read_small_reference_files)
}

fn read_small_reference_files() -> Vec<Value> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/reference");
    [
        "cartpole_v1_semi_implicit.json",
        "mountaincar_v0.json",
        "mountaincar_continuous_v0.json",
        "gridworld_deterministic.json",
        "gridworld_table_2x3.json",
        "acrobot_v1_nips.json",
        "pendulum_v1_g9_81.json",
    ]
    .iter()
    .map(|name| {
        let text = std::fs::read_to_string(directory.join(name)).expect("a reference file");
        let mut json: Value = serde_json::from_str(&text).expect("valid JSON");
        if let Some(traces) = json.get_mut("traces").and_then(Value::as_array_mut) {
            traces.truncate(2);
            for trace in traces {
                for list in ["steps", "actions"] {
                    if let Some(items) = trace.get_mut(list).and_then(Value::as_array_mut) {
                        items.truncate(8);
                    }
                }
                if let Some(trace) = trace.as_object_mut() {
                    for key in ["length", "end", "return_discounted"] {
                        trace.remove(key);
                    }
                }
            }
        }
        if let Some(entries) = json.get_mut("entries").and_then(Value::as_array_mut) {
            entries.truncate(4);
        }
        json
    })
    .collect()
}

/// Replaces (or, for `None`, removes) the value reached by following `path` (indices taken
/// modulo the number of children) in `json`; the path stops early at a leaf.
fn mutate(json: &mut Value, path: &[usize], replacement: Option<Value>) {
    let Some((choice, rest)) = path.split_first() else {
        if let Some(replacement) = replacement {
            *json = replacement;
        }
        return;
    };
    let last = rest.is_empty();
    match json {
        Value::Object(map) if !map.is_empty() => {
            let key = map
                .keys()
                .nth(choice % map.len())
                .cloned()
                .unwrap_or_default();
            if last && replacement.is_none() {
                map.remove(&key);
            } else if let Some(child) = map.get_mut(&key) {
                mutate(child, rest, replacement);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let index = choice % items.len();
            if last && replacement.is_none() {
                items.remove(index);
            } else {
                mutate(&mut items[index], rest, replacement);
            }
        }
        leaf => {
            if let Some(replacement) = replacement {
                *leaf = replacement;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn malformed_reference_files_are_typed_errors_or_replay_without_panic(
        file in 0usize..7,
        mutations in prop::collection::vec(
            (
                prop::collection::vec(any::<usize>(), 1..7),
                prop_oneof![
                    1 => Just(None),
                    4 => rl_spaces::testing::any_json().prop_map(Some),
                    2 => prop_oneof![
                        Just(Value::from(u64::MAX)),
                        Just(Value::from(-1)),
                        Just(Value::from(1e308)),
                        Just(Value::from(-0.0)),
                        Just(Value::from(7)),
                    ].prop_map(Some),
                ],
            ),
            1..4,
        ),
    ) {
        let files = small_reference_files();
        let mut json = files[file].clone();
        for (path, replacement) in mutations {
            mutate(&mut json, &path, replacement);
        }
        let text = serde_json::to_string(&json).expect("serializable");
        if let Ok(loaded) = parse_reference(&text, "mutated") {
            let report = replay(&loaded);
            prop_assert!(report.steps_checked <= 100);
            for mismatch in &report.mismatches {
                prop_assert!(!mismatch.field.is_empty());
            }
        }
    }
}

#[test]
fn unmutated_small_files_replay_cleanly() {
    // The mutation test starts from these copies: unmutated, they must match, so that a
    // mutation is what a mismatch comes from.
    for json in small_reference_files().iter() {
        let text = serde_json::to_string(&json).expect("serializable");
        let loaded = parse_reference(&text, "small").expect("a valid file");
        let report = replay(&loaded);
        assert!(report.steps_checked > 0);
        assert!(report.is_match(), "{:?}", report.mismatches.first());
    }
}
