//! Bad input never panics (proptest): non-finite and out-of-range actions are typed errors
//! through the simulator and through the registry's boxed environments, malformed map text
//! is a typed error naming its place, and malformed reference files are typed errors or
//! replay without a panic.

use std::path::Path;

use proptest::prelude::*;
use rl_core::{CoreError, Environment, Mode, Simulator};
use rl_domains::Error;
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::gridworld::{GridMap, GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};
use rl_domains::reference::{parse_reference, replay};
use rl_domains::registry;
use rl_spaces::AnyElement;
use serde_json::Value;

/// Floats with the edge cases in abundance: NaN, infinities, the bounds and their neighbours.
fn any_action_value() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(1.0),
        Just(-1.0),
        Just(f32::from_bits(1.0f32.to_bits() + 1)),
        Just(f32::from_bits((-1.0f32).to_bits() + 1)),
        Just(f32::MAX),
        Just(f32::MIN_POSITIVE),
        -2.0f32..2.0,
        any::<f32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn continuous_actions_outside_the_box_are_rejected(values in prop::collection::vec(any_action_value(), 1..40)) {
        let domain = MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
        let mut env = Simulator::new(domain, 0);
        let mut boxed = registry::make("MountainCarContinuous-v0", None).expect("registered");
        env.reset(Mode::Training).expect("reset");
        boxed.reset(Mode::Training).expect("reset");
        for value in values {
            let inside = (-1.0..=1.0).contains(&value);
            let typed = env.step(&[value]);
            let dynamic = boxed.step(&AnyElement::from(ndarray::arr1(&[value]).into_dyn()));
            if inside {
                let (typed, dynamic) = (typed.expect("a valid action"), dynamic.expect("a valid action"));
                prop_assert!(typed.reward().is_finite());
                prop_assert_eq!(typed.reward().to_bits(), dynamic.reward().to_bits());
                if typed.is_done() {
                    env.reset(Mode::Training).expect("reset");
                    boxed.reset(Mode::Training).expect("reset");
                }
            } else {
                prop_assert!(matches!(typed, Err(CoreError::InvalidAction { .. })), "{value}: {typed:?}");
                prop_assert!(matches!(dynamic, Err(CoreError::InvalidAction { .. })), "{value}: {dynamic:?}");
            }
        }
        // Wrong shapes and element types are rejected too.
        for wrong in [
            AnyElement::Int(0),
            AnyElement::from(ndarray::arr1(&[0.5f64]).into_dyn()),
            AnyElement::from(ndarray::arr1(&[0.5f32, 0.5]).into_dyn()),
            AnyElement::Tuple(Vec::new()),
        ] {
            let result = boxed.step(&wrong);
            prop_assert!(matches!(result, Err(CoreError::InvalidAction { .. })), "{wrong:?}: {result:?}");
        }
    }

    #[test]
    fn discrete_actions_outside_the_space_are_rejected(
        actions in prop::collection::vec(prop_oneof![3 => 0i64..4, 1 => any::<i64>()], 1..60),
        seed in any::<u64>(),
    ) {
        let mut cartpole = Simulator::new(CartPole::new(CartPoleParams::default()).expect("valid"), seed);
        let mut mountain_car = Simulator::new(MountainCar::new(MountainCarParams::default()).expect("valid"), seed);
        let mut gridworld = Simulator::new(GridWorld::builtin("4x12-CliffWorld", GridWorldParams::default()).expect("valid"), seed);
        let mut boxed: Vec<(i64, rl_core::BoxedEnvironment)> = ["CartPole-v1", "MountainCar-v0", "GridWorld-4x12-CliffWorld"]
            .into_iter()
            .zip([2, 3, 4])
            .map(|(id, n)| (n, registry::make(id, None).expect("registered")))
            .collect();
        cartpole.reset(Mode::Training).expect("reset");
        mountain_car.reset(Mode::Training).expect("reset");
        gridworld.reset(Mode::Training).expect("reset");
        for (_, env) in &mut boxed {
            env.reset(Mode::Training).expect("reset");
        }
        for action in actions {
            for (n, result) in [
                (2, cartpole.step(&action).map(|o| o.is_done())),
                (3, mountain_car.step(&action).map(|o| o.is_done())),
                (4, gridworld.step(&action).map(|o| o.is_done())),
            ] {
                if (0..n).contains(&action) {
                    prop_assert!(result.is_ok(), "{action} in Discrete({n}): {result:?}");
                } else {
                    prop_assert!(matches!(result, Err(CoreError::InvalidAction { .. })), "{action}: {result:?}");
                }
            }
            for (n, env) in &mut boxed {
                let result = env.step(&AnyElement::Int(action));
                if (0..*n).contains(&action) {
                    if result.expect("a valid action").is_done() {
                        env.reset(Mode::Training).expect("reset");
                    }
                } else {
                    prop_assert!(matches!(result, Err(CoreError::InvalidAction { .. })), "{action}: {result:?}");
                }
            }
            for env in [&mut cartpole as &mut dyn ResetIfDone, &mut mountain_car, &mut gridworld] {
                env.reset_if_done();
            }
        }
    }

    #[test]
    fn map_text_parses_or_names_the_place_of_the_error(
        lines in prop::collection::vec(
            prop::collection::vec(
                prop_oneof![
                    6 => prop_oneof![Just("0"), Just("1"), Just("2"), Just("3"), Just("4")],
                    1 => prop_oneof![Just("5"), Just("9"), Just("-1"), Just("x"), Just("1.5"), Just("99999999999999999999"), Just("é")],
                ],
                0..6,
            ),
            0..6,
        ),
        separators in prop::collection::vec(prop_oneof![Just(" "), Just("\t"), Just("  ")], 6),
        line_end in prop_oneof![Just("\n"), Just("\r\n")],
        final_newline in any::<bool>(),
    ) {
        let mut text = lines
            .iter()
            .enumerate()
            .map(|(index, tokens)| tokens.join(separators[index % separators.len()]))
            .collect::<Vec<_>>()
            .join(line_end);
        if final_newline {
            text.push_str(line_end);
        }
        match GridMap::parse(&text) {
            Ok(map) => {
                prop_assert_eq!(map.cell_count(), map.rows() * map.cols());
                prop_assert_eq!(map.kind(map.start()), Some(rl_domains::gridworld::CellKind::Start));
                prop_assert_eq!(GridMap::parse(&map.to_string()).expect("round trip"), map.clone());
                // A domain on any valid map steps without a panic.
                let mut env = Simulator::new(GridWorld::new(map, GridWorldParams::default()).expect("valid"), 0);
                env.reset(Mode::Training).expect("reset");
                for action in 0..4 {
                    if env.step(&action).expect("a step").is_done() {
                        env.reset(Mode::Training).expect("reset");
                    }
                }
            }
            Err(Error::InvalidMapToken { line, column, .. })
            | Err(Error::UnknownCellCode { line, column, .. })
            | Err(Error::AgentCellInMap { line, column }) => {
                prop_assert!(line >= 1 && line <= lines.len().max(1));
                prop_assert!(column >= 1);
            }
            Err(Error::RaggedMapRow { line, expected, found }) => {
                prop_assert!(line >= 2 && expected != found);
            }
            Err(Error::MissingStartCell) | Err(Error::EmptyMap) => {}
            Err(other) => prop_assert!(false, "unexpected error {other:?}"),
        }
    }

    #[test]
    fn arbitrary_text_is_never_a_panic(text in any::<String>()) {
        let _ = GridMap::parse(&text);
        prop_assert!(parse_reference(&text, "arbitrary").is_err());
    }
}

/// Resets a simulator whose episode ended, so that the next step is valid again.
trait ResetIfDone {
    fn reset_if_done(&mut self);
}

impl<D: rl_core::Domain> ResetIfDone for Simulator<D> {
    fn reset_if_done(&mut self) {
        if !self.is_running() {
            self.reset(Mode::Training).expect("reset");
        }
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
        file in 0usize..5,
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
