//! numpy's ziggurat draws, bit for bit: `standard_normal`, `standard_exponential` and
//! `geometric` (below `p = 1/3`, by the exponential) from [`NumpyGenerator`], against
//! `tests/fixtures/numpy_ziggurat.json` (numpy 2.4.6; recorded by
//! `tests/fixtures/record_numpy_ziggurat.py`, whose docstring gives the command): per seed and
//! method the first 10^5 values, as their first 16 values, an FNV-1a hash of all of them and
//! PCG64's state after them (the number of words drawn, rejections included).

use std::hash::Hasher;
use std::path::PathBuf;

use fnv::FnvHasher;
use rl_spaces::NumpyGenerator;
use rl_spaces::numpy_random::{geometric, standard_exponential, standard_normal};
use serde_json::Value;

fn fixture() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/numpy_ziggurat.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).expect("the fixture is valid JSON")
}

fn decimal<T: std::str::FromStr>(value: &Value) -> T {
    value
        .as_str()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("{value} is not a decimal string of the expected type"))
}

/// One recorded case's draws: (the values as JSON, the little-endian bytes numpy hashed).
fn draw(rng: &mut NumpyGenerator, method: &str, args: &[Value]) -> (Value, [u8; 8]) {
    match method {
        "standard_normal" => {
            let x = standard_normal(rng);
            (x.into(), x.to_le_bytes())
        }
        "standard_exponential" => {
            let x = standard_exponential(rng);
            (x.into(), x.to_le_bytes())
        }
        "geometric" => {
            let p = args[0].as_f64().expect("p");
            let k = i64::try_from(geometric(rng, p)).expect("an int64 count");
            (k.into(), k.to_le_bytes())
        }
        other => panic!("the fixture calls an unknown method {other}"),
    }
}

#[test]
fn the_first_100000_draws_of_every_seed_are_numpys() {
    let fixture = fixture();
    let draws = fixture["draws"].as_u64().expect("draws");
    assert_eq!(draws, 100_000);
    let cases = fixture["cases"].as_array().expect("cases");
    assert!(cases.len() >= 24, "{} cases", cases.len());
    let mut beyond_tails = [0usize; 2];
    for case in cases {
        let seed: u128 = decimal(&case["seed"]);
        let method = case["method"].as_str().expect("method");
        let args = case["args"].as_array().expect("args");
        let id = format!("seed {seed}, {method}({args:?})");
        let mut rng = NumpyGenerator::from_seed_u128(seed);
        let first = case["first"].as_array().expect("first");
        let mut hasher = FnvHasher::default();
        for index in 0..draws as usize {
            let (value, bytes) = draw(&mut rng, method, args);
            if let Some(expected) = first.get(index) {
                assert_eq!(&value, expected, "{id}: draw {index}");
            }
            hasher.write(&bytes);
            // Draws from the base layers' tails (beyond numpy's r), which take the slow path.
            match method {
                "standard_normal" if value.as_f64().expect("float").abs() > 3.6542 => {
                    beyond_tails[0] += 1;
                }
                "standard_exponential" if value.as_f64().expect("float") > 7.6972 => {
                    beyond_tails[1] += 1;
                }
                _ => {}
            }
        }
        assert_eq!(
            hasher.finish(),
            decimal::<u64>(&case["fnv1a64"]),
            "{id}: the hash of the {draws} draws"
        );
        assert_eq!(
            rng.state(),
            decimal::<u128>(&case["state_after"]),
            "{id}: PCG64's state after the draws"
        );
    }
    // The tails are drawn (each about 3 to 5 in 10^4 draws): their code is exercised.
    assert!(
        beyond_tails.iter().all(|&count| count > 20),
        "{beyond_tails:?}"
    );
}
