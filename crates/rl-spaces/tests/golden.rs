//! Value stability: a fixed seed gives the pinned samples of every example space.
//!
//! The samples live in `tests/golden/samples.json`. A change to sampling order or to a
//! sampling algorithm changes them and fails this test; if the change is intended, refresh the
//! file with `RL_SPACES_BLESS=1 cargo test -p rlrs-spaces --test suite golden` and say
//! why in the commit (like rand's value-stability tests, users' seeded experiments change).

use std::path::PathBuf;

use rand::SeedableRng;
use rl_spaces::testing::example_spaces;
use rl_spaces::{Discrete, DiscreteDistribution, Distribution, JsonSpace, TrySampleSpace};
use serde_json::{Map, Value, json};

const SEED: u64 = 20_261_122;
const SAMPLES: usize = 4;

fn current_samples() -> Value {
    let mut all = Map::new();
    for (name, space) in example_spaces() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
        let samples: Vec<Value> = (0..SAMPLES)
            .map_while(|_| space.try_sample(&mut rng))
            .map(|x| space.element_to_json(&x).expect("samples are elements"))
            .collect();
        all.insert(name.to_owned(), Value::Array(samples));
    }
    let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
    let discrete = Discrete::with_start(6, -1).expect("valid space");
    let masked: Vec<Value> = (0..SAMPLES)
        .map(|_| {
            json!(
                discrete
                    .sample_masked(&[true, false, true, true, false, true], &mut rng)
                    .ok()
                    .flatten()
            )
        })
        .collect();
    all.insert("discrete_masked".to_owned(), Value::Array(masked));
    let weighted: Vec<Value> = (0..SAMPLES)
        .map(|_| {
            json!(
                discrete
                    .sample_weighted(&[0.5, 0.0, 1.0, 2.0, 0.0, 0.25], &mut rng)
                    .ok()
                    .flatten()
            )
        })
        .collect();
    all.insert("discrete_weighted".to_owned(), Value::Array(weighted));
    let distribution =
        DiscreteDistribution::new(vec![("a", 1.0), ("b", 2.0), ("c", 0.0), ("d", 4.0)])
            .expect("valid distribution");
    let drawn: Vec<Value> = (0..SAMPLES)
        .map(|_| json!(distribution.sample(&mut rng)))
        .collect();
    all.insert("discrete_distribution".to_owned(), Value::Array(drawn));
    Value::Object(all)
}

#[test]
fn samples_match_the_pinned_values() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/samples.json");
    let current = current_samples();
    if std::env::var_os("RL_SPACES_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&current).expect("JSON") + "\n";
        std::fs::write(&path, text).expect("writing the golden file");
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "reading {}: {e}; create it with RL_SPACES_BLESS=1",
            path.display()
        )
    });
    let pinned: Value = serde_json::from_str(&text).expect("the golden file is JSON");
    let (Value::Object(pinned), Value::Object(current)) = (&pinned, &current) else {
        panic!("the golden file must hold an object");
    };
    assert_eq!(
        pinned.keys().collect::<Vec<_>>(),
        current.keys().collect::<Vec<_>>(),
        "the list of pinned spaces changed"
    );
    for (name, samples) in current {
        assert_eq!(&pinned[name], samples, "samples of {name} changed");
    }
}
