//! Agreement with Gymnasium 1.4.0: element JSON, `to_jsonable` batches and `flatten`, recorded
//! in `testdata/reference/gymnasium_spaces.json`.

use std::path::PathBuf;

use rl_spaces::{AnySpace, FlattenSpace, JsonSpace};
use serde_json::{Value, json};

fn reference() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference/gymnasium_spaces.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).expect("the reference file is valid JSON")
}

/// Flattens nested lists into one list, row-major.
fn flatten_nested(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| flatten_nested(v, out)),
        other => out.push(other.clone()),
    }
}

fn nested_shape(value: &Value) -> Vec<usize> {
    match value {
        Value::Array(items) => {
            let mut shape = vec![items.len()];
            if let Some(first) = items.first() {
                shape.extend(nested_shape(first));
            }
            shape
        }
        _ => vec![],
    }
}

/// Translates the file's neutral space description into our definition format.
fn definition(description: &Value) -> Value {
    let kind = description["type"].as_str().expect("type");
    match kind {
        "Discrete" => {
            json!({"type": "Discrete", "n": description["n"], "start": description["start"]})
        }
        "Box" => {
            let dtype = description["dtype"].as_str().expect("dtype");
            let is_float = dtype.starts_with("float");
            let bound = |key: &str, flags: &str, infinity: &str| -> Vec<Value> {
                description[key]
                    .as_array()
                    .expect("bounds")
                    .iter()
                    .zip(description[flags].as_array().expect("flags"))
                    .map(|(v, inf)| {
                        if inf.as_bool() == Some(true) {
                            json!(infinity)
                        } else if is_float {
                            v.clone()
                        } else {
                            json!(v.as_f64().expect("number") as i64)
                        }
                    })
                    .collect()
            };
            json!({
                "type": "Box",
                "dtype": dtype,
                "shape": description["shape"],
                "low": bound("low", "low_inf", "-inf"),
                "high": bound("high", "high_inf", "inf"),
            })
        }
        "MultiDiscrete" => {
            let (mut nvec, mut start) = (vec![], vec![]);
            flatten_nested(&description["nvec"], &mut nvec);
            flatten_nested(&description["start"], &mut start);
            json!({"type": "MultiDiscrete", "shape": nested_shape(&description["nvec"]), "nvec": nvec, "start": start})
        }
        "MultiBinary" => json!({"type": "MultiBinary", "shape": description["shape"]}),
        "Tuple" => json!({
            "type": "Tuple",
            "spaces": description["spaces"].as_array().expect("spaces").iter().map(definition).collect::<Vec<_>>(),
        }),
        "Dict" => {
            let spaces: serde_json::Map<String, Value> = description["spaces"]
                .as_object()
                .expect("spaces")
                .iter()
                .map(|(k, v)| (k.clone(), definition(v)))
                .collect();
            json!({"type": "Dict", "spaces": spaces})
        }
        other => panic!("unknown space type {other} in the reference file"),
    }
}

/// Checks that Dict key order agrees with Gymnasium's, recursively.
fn assert_key_order(description: &Value, space: &AnySpace, case: &str) {
    match (description["type"].as_str(), space) {
        (Some("Dict"), AnySpace::Dict(dict)) => {
            let gymnasium: Vec<&str> = description["keys_in_gymnasium_order"]
                .as_array()
                .expect("key order")
                .iter()
                .map(|k| k.as_str().expect("key"))
                .collect();
            assert_eq!(
                dict.keys().collect::<Vec<_>>(),
                gymnasium,
                "{case}: key order"
            );
            for (key, child) in dict.spaces() {
                assert_key_order(&description["spaces"][key], child, case);
            }
        }
        (Some("Tuple"), AnySpace::Tuple(tuple)) => {
            for (i, child) in tuple.spaces().iter().enumerate() {
                assert_key_order(&description["spaces"][i], child, case);
            }
        }
        _ => {}
    }
}

#[test]
fn elements_batches_and_flattening_agree_with_gymnasium() {
    let reference = reference();
    let cases = reference["cases"].as_array().expect("cases");
    assert!(
        cases.len() >= 12,
        "the reference file holds {} cases",
        cases.len()
    );
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let space = AnySpace::from_definition(&definition(&case["space"]))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_key_order(&case["space"], &space, name);

        let batch = case["batch"].as_array().expect("batch");
        let elements: Vec<_> = batch
            .iter()
            .map(|x| {
                space
                    .element_from_json(x)
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
            })
            .collect();
        for (x, json) in elements.iter().zip(batch) {
            assert_eq!(
                &space.element_to_json(x).unwrap(),
                json,
                "{name}: element JSON"
            );
        }

        let jsonable = space.batch_to_jsonable(&elements).unwrap();
        assert_eq!(jsonable, case["to_jsonable"], "{name}: to_jsonable");
        assert_eq!(
            space.batch_from_jsonable(&case["to_jsonable"]).unwrap(),
            elements,
            "{name}: from_jsonable"
        );

        assert_eq!(
            Some(space.flat_dim() as u64),
            case["flatdim"].as_u64(),
            "{name}: flatdim"
        );
        for (x, expected) in elements
            .iter()
            .zip(case["flatten"].as_array().expect("flatten"))
        {
            let flat: Vec<f64> = space.flatten(x).unwrap();
            let expected: Vec<f64> = expected
                .as_array()
                .expect("flat list")
                .iter()
                .map(|v| v.as_f64().expect("number"))
                .collect();
            assert_eq!(flat, expected, "{name}: flatten");
        }
    }
}
