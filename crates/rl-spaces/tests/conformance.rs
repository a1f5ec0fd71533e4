//! The conformance harness run over every example space, over generated spaces, and over a
//! deliberately broken space that must fail it.

use std::fmt;

use proptest::prelude::*;
use rand::{Rng, RngExt};
use rl_spaces::testing::{
    EXAMPLE_SPACE_COUNT, MAX_ENUMERATED, any_space, check_finite_space, check_space, example_spaces,
};
use rl_spaces::{
    ArrayBox, BoxSpace, Discrete, FiniteSet, FiniteSpace, FlatScalar, FlattenSpace, JsonSpace,
    MultiBinary, MultiDiscrete, SampleSpace, Space, SpaceError,
};

#[test]
fn the_example_list_is_complete() {
    assert_eq!(example_spaces().len(), EXAMPLE_SPACE_COUNT);
}

#[test]
fn every_example_space_passes_the_space_checks() {
    for (name, space) in example_spaces() {
        let report = check_space(&space, 7);
        assert!(report.is_ok(), "{name}: {report}");
        let expected_checks = if space.is_empty() { 2 } else { 5 };
        // A space that is not flattenable has its refusal checked instead of the round trip.
        assert_eq!(report.checks.len(), expected_checks, "{name}: {report}");
    }
}

#[test]
fn every_small_finite_example_enumerates_exactly_its_elements() {
    let mut enumerated = 0;
    for (name, space) in example_spaces() {
        match space.cardinality() {
            Some(n) if n <= MAX_ENUMERATED => {
                let report = check_finite_space(&space, 11);
                assert!(report.is_ok(), "{name}: {report}");
                enumerated += 1;
            }
            _ => {}
        }
    }
    // Discrete (3), integer Boxes (5), MultiDiscrete (2), MultiBinary, FiniteSet, Tuples (2 of 3),
    // the empty space: the finite part of the list really is checked.
    assert!(
        enumerated >= 14,
        "only {enumerated} finite spaces were enumerated"
    );
}

#[test]
fn typed_spaces_pass_the_checks() {
    let reports = [
        check_space(&Discrete::with_start(7, 3).unwrap(), 1),
        check_space(
            &ArrayBox::new([-1.0f32, 0.0], [1.0, f32::INFINITY]).unwrap(),
            1,
        ),
        check_space(&BoxSpace::uniform(&[2, 3], -5i32, 5).unwrap(), 1),
        check_space(&MultiDiscrete::from_vec(vec![2, 5]).unwrap(), 1),
        check_space(&MultiBinary::new(&[5]).unwrap(), 1),
        check_space(
            &FiniteSet::new(vec!["up".to_owned(), "down".to_owned()]).unwrap(),
            1,
        ),
    ];
    for report in reports {
        assert!(report.is_ok(), "{report}");
    }
    let report = check_finite_space(&FiniteSet::new(vec![1u8, 4, 9]).unwrap(), 1);
    assert!(report.is_ok(), "{report}");
}

/// A space whose sampler is off by one: it sometimes draws `n`, which it does not contain.
#[derive(Debug, Clone, PartialEq)]
struct OffByOne {
    n: i64,
}

impl fmt::Display for OffByOne {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OffByOne({})", self.n)
    }
}

impl Space for OffByOne {
    type Element = i64;
    fn contains(&self, x: &i64) -> bool {
        (0..self.n).contains(x)
    }
}

impl SampleSpace for OffByOne {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i64 {
        rng.random_range(0..=self.n)
    }
}

impl FlattenSpace for OffByOne {
    fn flat_dim(&self) -> usize {
        1
    }
    fn flatten_into<F: FlatScalar>(&self, x: &i64, out: &mut [F]) -> Result<(), SpaceError> {
        out[0] = F::from_f64(*x as f64);
        Ok(())
    }
    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<i64, SpaceError> {
        // Deliberately wrong: always gives zero.
        let _ = flat;
        Ok(0)
    }
}

impl JsonSpace for OffByOne {
    fn element_to_json(&self, x: &i64) -> Result<serde_json::Value, SpaceError> {
        Ok((*x).into())
    }
    fn element_from_json(&self, value: &serde_json::Value) -> Result<i64, SpaceError> {
        value.as_i64().ok_or(SpaceError::EmptySpace)
    }
}

#[test]
fn a_broken_space_fails_with_a_readable_report() {
    let report = check_space(&OffByOne { n: 2 }, 3);
    assert!(!report.is_ok());
    let failed: Vec<&str> = report.failures().map(|c| c.name).collect();
    assert_eq!(
        failed,
        ["samples are contained", "flatten and unflatten round-trip"]
    );
    let text = report.to_string();
    assert!(
        text.contains("FAIL  samples are contained: 2 was sampled but is not contained"),
        "{text}"
    );
    assert!(
        text.contains("ok    the same seed gives the same samples"),
        "{text}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_spaces_pass_the_checks(space in any_space(), seed in any::<u64>()) {
        let report = check_space(&space, seed);
        prop_assert!(report.is_ok(), "{}", report);
        if space.cardinality().is_some_and(|n| n <= 2_000) {
            let report = check_finite_space(&space, seed);
            prop_assert!(report.is_ok(), "{}", report);
        }
    }
}
