//! numpy's generator, bit for bit: every call recorded in
//! `testdata/reference/numpy_generator.json` (numpy 2.4.6, 14 seeds up to `2^64 - 1`) replayed
//! in order on one [`NumpyGenerator`] per seed, with PCG64's state after seeding compared too.

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rl_spaces::NumpyGenerator;
use rl_spaces::numpy_random::{choice, choice_weighted, integers, random, shuffle, uniform};
use serde_json::Value;

fn reference() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference/numpy_generator.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).expect("the reference file is valid JSON")
}

fn float(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("{value} is not a number"))
}

fn integer(value: &Value) -> i64 {
    value
        .as_i64()
        .unwrap_or_else(|| panic!("{value} is not an i64"))
}

/// One recorded call on `rng`, returning what it gave as JSON, in the file's form.
fn call(rng: &mut NumpyGenerator, method: &str, args: &Value) -> Value {
    match method {
        "random" => random(rng).into(),
        "random_raw" => rng.next_u64().into(),
        "uniform" => match (&args["low"], &args["high"]) {
            (Value::Array(low), Value::Array(high)) => low
                .iter()
                .zip(high)
                .map(|(low, high)| Value::from(uniform(rng, float(low), float(high))))
                .collect(),
            (low, high) => uniform(rng, float(low), float(high)).into(),
        },
        "integers" => integers(rng, integer(&args["low"]), integer(&args["high"]))
            .expect("a non-empty range")
            .into(),
        "choice" => {
            let n = integer(&args["a"]) as usize;
            match args.get("p") {
                None => choice(rng, n).expect("a non-empty population").into(),
                Some(p) => {
                    let p: Vec<f64> = p.as_array().expect("p").iter().map(float).collect();
                    assert_eq!(p.len(), n);
                    let size = integer(&args["size"]);
                    (0..size)
                        .map(|_| Value::from(choice_weighted(rng, &p).expect("valid p")))
                        .collect()
                }
            }
        }
        "shuffle" => {
            let mut items: Vec<i64> = (0..integer(&args["n"])).collect();
            shuffle(rng, &mut items);
            items.into()
        }
        other => panic!("the file calls an unknown method {other}"),
    }
}

#[test]
fn every_recorded_call_gives_numpys_result() {
    let reference = reference();
    assert_eq!(reference["kind"], "numpy_generator");
    let cases = reference["cases"].as_array().expect("cases");
    assert!(cases.len() >= 14, "{} cases", cases.len());
    let mut calls = 0;
    for case in cases {
        let id = case["id"].as_str().expect("id");
        let seed = case["seed"].as_u64().expect("a u64 seed");
        let mut rng = NumpyGenerator::seed_from_u64(seed);
        let expected_state: u128 = case["initial_state"]["state"]
            .as_str()
            .and_then(|text| text.parse().ok())
            .expect("state");
        let expected_inc: u128 = case["initial_state"]["inc"]
            .as_str()
            .and_then(|text| text.parse().ok())
            .expect("inc");
        assert_eq!(rng.state(), expected_state, "{id}: state after seeding");
        assert_eq!(rng.inc(), expected_inc, "{id}: inc after seeding");
        assert_eq!(
            NumpyGenerator::from_seed_u128(u128::from(seed)),
            rng,
            "{id}"
        );
        for (index, recorded) in case["calls"].as_array().expect("calls").iter().enumerate() {
            let method = recorded["method"].as_str().expect("method");
            let got = call(&mut rng, method, &recorded["args"]);
            assert_eq!(
                got, recorded["result"],
                "{id}, call {index}: {method}({})",
                recorded["args"]
            );
            calls += 1;
        }
    }
    assert!(calls > 500, "only {calls} calls replayed");
}

#[test]
fn seeds_beyond_64_bits_follow_numpys_words() {
    // numpy: SeedSequence(2**64 + 5) hashes the words [5, 0, 1].
    let big = NumpyGenerator::from_seed_words(&[5, 0, 1]);
    assert_eq!(big, NumpyGenerator::from_seed_u128((1u128 << 64) + 5));
    assert_ne!(big, NumpyGenerator::seed_from_u64(5));
}
