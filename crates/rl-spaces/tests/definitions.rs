//! The JSON definition format, pinned by fixture files: every example space is written to
//! `tests/fixtures/definitions/<name>.json` exactly, and read back equal.
//!
//! Refresh the fixtures (only for an intended format change, with a version bump) with
//! `RL_SPACES_BLESS=1 cargo test -p rlrs-spaces --all-features --test definitions`.

use std::path::PathBuf;

use rl_spaces::testing::example_spaces;
use rl_spaces::{AnySpace, SpaceError};

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/definitions")
}

#[test]
fn definitions_match_the_fixture_files() {
    let bless = std::env::var_os("RL_SPACES_BLESS").is_some();
    for (name, space) in example_spaces() {
        let path = fixture_dir().join(format!("{name}.json"));
        let written = space.to_definition_string() + "\n";
        if bless {
            std::fs::create_dir_all(fixture_dir()).expect("creating the fixture directory");
            std::fs::write(&path, &written).expect("writing a fixture");
            continue;
        }
        let pinned = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "reading {}: {e}; create it with RL_SPACES_BLESS=1",
                path.display()
            )
        });
        assert_eq!(
            written,
            pinned.replace("\r\n", "\n"),
            "the definition of {name} changed"
        );
        let read = AnySpace::from_definition_str(&pinned).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read, space, "{name} does not read back equal");
    }
}

#[test]
fn infinite_bounds_are_explicit_strings() {
    let pinned = std::fs::read_to_string(fixture_dir().join("box_f64_half_and_unbounded.json"))
        .expect("fixture");
    assert!(
        pinned.contains("\"-inf\"") && pinned.contains("\"inf\""),
        "{pinned}"
    );
    assert!(!pinned.contains("null"), "{pinned}");
}

#[test]
fn malformed_definitions_say_what_is_wrong() {
    let cases = [
        (
            r#"{"format": "rl-spaces/space", "version": 1}"#,
            "invalid JSON at $: missing field `space`",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "Discrete", "n": 3, "m": 1}}"#,
            "invalid JSON at $.space: unknown field `m` in Discrete (expected one of: type, n, start)",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "Box", "dtype": "float32", "shape": [2], "low": [0, null], "high": 1}}"#,
            "invalid JSON at $.space.low[1]: expected a number, \"inf\" or \"-inf\", found null",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "Box", "dtype": "float16", "shape": [2], "low": 0, "high": 1}}"#,
            "invalid JSON at $.space.dtype: expected a dtype name (float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64), found the string \"float16\"",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "Box", "dtype": "float64", "shape": [3], "low": [0, 0], "high": 1}}"#,
            "invalid JSON at $.space.low: expected 3 values (one per entry of shape [3]), found 2",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "MultiDiscrete", "nvec": []}}"#,
            "invalid JSON at $.space: invalid MultiDiscrete space: nvec is empty",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "Dict", "spaces": {}}}"#,
            "invalid JSON at $.space: invalid Dict space: a Dict needs at least one child space",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "Tuple", "spaces": [{"type": "Empty"}]}}"#,
            "invalid JSON at $.space: invalid Tuple space: child 0 is an empty space, so the Tuple would have no element",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": {"type": "Hexagon"}}"#,
            "invalid JSON at $.space.type: unknown space type \"Hexagon\" (expected one of: Discrete, Box, MultiDiscrete, MultiBinary, Tuple, Dict, FiniteSet, Text, Sequence, Graph, OneOf, Empty)",
        ),
        (
            r#"{"format": "rl-spaces/space", "version": 1, "space": "#,
            "invalid JSON at $: not valid JSON: EOF while parsing a value at line 1 column 53",
        ),
    ];
    for (text, expected) in cases {
        let error = AnySpace::from_definition_str(text).expect_err(text);
        assert_eq!(error.to_string(), expected);
    }
    let error = AnySpace::from_definition_str(
        r#"{"format": "gym", "version": 1, "space": {"type": "Empty"}}"#,
    )
    .unwrap_err();
    assert!(
        matches!(error, SpaceError::UnsupportedFormat { .. }),
        "{error}"
    );
}
