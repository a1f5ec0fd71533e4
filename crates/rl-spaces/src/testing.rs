//! The conformance harness for spaces (feature `testing`): [`check_space`],
//! [`check_finite_space`], and proptest strategies over spaces and JSON.
//!
//! Authors of their own spaces run the same checks the built-in spaces pass:
//!
//! ```
//! use rl_spaces::testing::check_space;
//! use rl_spaces::Discrete;
//!
//! let report = check_space(&Discrete::with_start(5, -2)?, 42);
//! assert!(report.is_ok(), "{report}");
//! # Ok::<(), rl_spaces::SpaceError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde_json::Value;

use crate::space::{FiniteSpace, FlattenSpace, JsonSpace, TrySampleSpace};
use crate::{
    AnySpace, BoxSpace, DictSpace, Discrete, FiniteSet, GraphSpace, MultiBinary, MultiDiscrete,
    OneOfSpace, SequenceSpace, Text, TupleSpace,
};

/// How many samples [`check_space`] draws.
pub const SAMPLES_CHECKED: usize = 64;

/// The largest space [`check_finite_space`] enumerates in full.
pub const MAX_ENUMERATED: usize = 100_000;

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// What was checked, such as `"samples are contained"`.
    pub name: &'static str,
    /// `None` if the check passed, otherwise what went wrong (the first failure found).
    pub failure: Option<String>,
}

/// The outcome of a conformance run: every check, passed or failed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpaceReport {
    /// The space, as displayed.
    pub space: String,
    /// The checks, in the order they ran.
    pub checks: Vec<Check>,
}

impl SpaceReport {
    fn new(space: &impl fmt::Display) -> Self {
        SpaceReport {
            space: space.to_string(),
            checks: Vec::new(),
        }
    }

    fn record(&mut self, name: &'static str, result: Result<(), String>) {
        self.checks.push(Check {
            name,
            failure: result.err(),
        });
    }

    /// Whether every check passed.
    pub fn is_ok(&self) -> bool {
        self.checks.iter().all(|c| c.failure.is_none())
    }

    /// The checks that failed.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.failure.is_some())
    }
}

impl fmt::Display for SpaceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "conformance of {}:", self.space)?;
        for check in &self.checks {
            match &check.failure {
                None => writeln!(f, "  ok    {}", check.name)?,
                Some(why) => writeln!(f, "  FAIL  {}: {why}", check.name)?,
            }
        }
        Ok(())
    }
}

/// Runs the space checks with generators seeded from `seed`:
///
/// - the same seed gives the same samples;
/// - every sample is contained in the space (an empty space must give no sample);
/// - every sample round-trips through element JSON, and the batch through Gymnasium's
///   `to_jsonable` layout;
/// - every sample flattens to [`flat_dim`](FlattenSpace::flat_dim) values (in `f64`) and
///   unflattens back to itself; or, for a space that is not
///   [flattenable](FlattenSpace::is_flattenable), flattening every sample is refused.
///
/// It never panics; a failing check is reported with the first element that failed.
pub fn check_space<S>(space: &S, seed: u64) -> SpaceReport
where
    S: TrySampleSpace + FlattenSpace + JsonSpace,
{
    let mut report = SpaceReport::new(space);
    let draw = |seed: u64| {
        let mut rng = Pcg64::seed_from_u64(seed);
        (0..SAMPLES_CHECKED)
            .map_while(|_| space.try_sample(&mut rng))
            .collect::<Vec<_>>()
    };
    let samples = draw(seed);
    report.record(
        "the same seed gives the same samples",
        if draw(seed) == samples {
            Ok(())
        } else {
            Err(format!("two generators seeded with {seed} disagree"))
        },
    );
    report.record(
        "samples are contained",
        match samples.iter().find(|x| !space.contains(x)) {
            None => Ok(()),
            Some(x) => Err(format!("{x:?} was sampled but is not contained")),
        },
    );
    if samples.is_empty() {
        // An empty space has nothing more to check.
        return report;
    }
    report.record(
        "element JSON round-trips",
        samples.iter().try_for_each(|x| {
            let json = space
                .element_to_json(x)
                .map_err(|e| format!("writing {x:?}: {e}"))?;
            let back = space
                .element_from_json(&json)
                .map_err(|e| format!("reading {json}: {e}"))?;
            if &back == x {
                Ok(())
            } else {
                Err(format!("{x:?} came back as {back:?}"))
            }
        }),
    );
    report.record(
        "batch JSON round-trips",
        space
            .batch_to_jsonable(&samples)
            .map_err(|e| format!("writing the batch: {e}"))
            .and_then(|json| {
                space
                    .batch_from_jsonable(&json)
                    .map_err(|e| format!("reading {json}: {e}"))
            })
            .and_then(|back| {
                if back == samples {
                    Ok(())
                } else {
                    Err("the batch came back different".to_owned())
                }
            }),
    );
    if !space.is_flattenable() {
        report.record(
            "flattening is refused",
            samples
                .iter()
                .try_for_each(|x| match space.flatten::<f64>(x) {
                    Err(_) => Ok(()),
                    Ok(flat) => Err(format!(
                        "{x:?} flattened to {flat:?} but the space says it is not flattenable"
                    )),
                }),
        );
        return report;
    }
    report.record(
        "flatten and unflatten round-trip",
        samples.iter().try_for_each(|x| {
            let flat: Vec<f64> = space
                .flatten(x)
                .map_err(|e| format!("flattening {x:?}: {e}"))?;
            if flat.len() != space.flat_dim() {
                return Err(format!(
                    "{x:?} flattened to {} values, flat_dim is {}",
                    flat.len(),
                    space.flat_dim()
                ));
            }
            let back = space
                .unflatten(&flat)
                .map_err(|e| format!("unflattening {flat:?}: {e}"))?;
            if &back == x {
                Ok(())
            } else {
                Err(format!("{x:?} came back as {back:?}"))
            }
        }),
    );
    report
}

/// Runs the enumeration checks on a finite space of at most [`MAX_ENUMERATED`] elements:
/// the listed elements are exactly `cardinality` many, distinct, contained, numbered
/// consistently by `index_of` and `element_at`, and every sample is one of them.
pub fn check_finite_space<S>(space: &S, seed: u64) -> SpaceReport
where
    S: TrySampleSpace + FiniteSpace,
{
    let mut report = SpaceReport::new(space);
    let Some(count) = space.cardinality() else {
        report.record(
            "the space is enumerable",
            Err("cardinality() is None".to_owned()),
        );
        return report;
    };
    if count > MAX_ENUMERATED {
        report.record(
            "the space is small enough to enumerate",
            Err(format!(
                "{count} elements; at most {MAX_ENUMERATED} are listed"
            )),
        );
        return report;
    }
    report.record(
        "elements are numbered consistently",
        (0..count).try_for_each(|i| {
            let x = space
                .element_at(i)
                .ok_or_else(|| format!("element_at({i}) is None below the cardinality {count}"))?;
            if !space.contains(&x) {
                return Err(format!("element {i} = {x:?} is not contained"));
            }
            match space.index_of(&x) {
                Some(j) if j == i => Ok(()),
                other => Err(format!("element {i} = {x:?} has index_of {other:?}")),
            }
        }),
    );
    report.record("iteration lists every element once", {
        let listed = space.elements().count();
        if listed == count && space.element_at(count).is_none() {
            Ok(())
        } else {
            Err(format!("listed {listed} elements, cardinality is {count}"))
        }
    });
    let mut rng = Pcg64::seed_from_u64(seed);
    report.record(
        "samples are enumerated",
        (0..SAMPLES_CHECKED)
            .map_while(|_| space.try_sample(&mut rng))
            .try_for_each(|x| match space.index_of(&x) {
                Some(i) if i < count => Ok(()),
                other => Err(format!("sample {x:?} has index_of {other:?}")),
            }),
    );
    report
}

/// A float bound for generated Boxes: usually finite, sometimes infinite.
fn float_bounds() -> impl Strategy<Value = (f64, f64)> {
    prop_oneof![
        4 => (-100.0..100.0f64, 0.0..50.0f64).prop_map(|(low, width)| (low, low + width)),
        1 => (-100.0..100.0f64).prop_map(|low| (low, f64::INFINITY)),
        1 => (-100.0..100.0f64).prop_map(|high| (f64::NEG_INFINITY, high)),
        1 => Just((f64::NEG_INFINITY, f64::INFINITY)),
    ]
}

/// A shape of one or two dimensions with small sizes.
fn small_shape() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..4, 1..3)
}

/// Strategy for the non-composite spaces this crate defines, with small parameters.
pub fn leaf_space() -> impl Strategy<Value = AnySpace> {
    prop_oneof![
        (1u64..12, -5i64..5).prop_filter_map("valid Discrete", |(n, start)| {
            Discrete::with_start(n, start).ok().map(AnySpace::from)
        }),
        (small_shape(), float_bounds()).prop_filter_map("valid f32 Box", |(shape, (low, high))| {
            BoxSpace::uniform(&shape, low as f32, high as f32)
                .ok()
                .map(AnySpace::from)
        }),
        (small_shape(), float_bounds()).prop_filter_map("valid f64 Box", |(shape, (low, high))| {
            BoxSpace::uniform(&shape, low, high)
                .ok()
                .map(AnySpace::from)
        }),
        (small_shape(), -50i64..50, 0i64..20).prop_filter_map(
            "valid i64 Box",
            |(shape, low, width)| {
                BoxSpace::uniform(&shape, low, low + width)
                    .ok()
                    .map(AnySpace::from)
            }
        ),
        (small_shape(), 0u8..200, 0u8..55).prop_filter_map(
            "valid u8 Box",
            |(shape, low, width)| {
                BoxSpace::uniform(&shape, low, low + width)
                    .ok()
                    .map(AnySpace::from)
            }
        ),
        prop::collection::vec(1i64..5, 1..4).prop_filter_map("valid MultiDiscrete", |nvec| {
            MultiDiscrete::from_vec(nvec).ok().map(AnySpace::from)
        }),
        small_shape().prop_filter_map("valid MultiBinary", |shape| {
            MultiBinary::new(&shape).ok().map(AnySpace::from)
        }),
        prop::collection::btree_set(-20i64..20, 1..5).prop_filter_map("valid FiniteSet", |set| {
            FiniteSet::new(set.into_iter().map(Value::from).collect())
                .ok()
                .map(AnySpace::from)
        }),
        (
            0usize..4,
            0usize..6,
            prop::collection::btree_set(any::<char>(), 1..8)
        )
            .prop_filter_map("valid Text", |(min_length, extra, charset)| {
                let charset: String = charset.into_iter().collect();
                Text::new(min_length, min_length + extra, &charset)
                    .ok()
                    .map(AnySpace::from)
            }),
    ]
}

/// Strategy for Graph spaces: a Box or Discrete node space, and an edge space or none.
pub fn graph_space() -> impl Strategy<Value = AnySpace> {
    let feature = || {
        prop_oneof![
            (1u64..5).prop_filter_map("valid Discrete", |n| Discrete::new(n)
                .ok()
                .map(AnySpace::from)),
            (prop::collection::vec(1usize..3, 0..2), float_bounds()).prop_filter_map(
                "valid f32 Box",
                |(shape, (low, high))| BoxSpace::uniform(&shape, low as f32, high as f32)
                    .ok()
                    .map(AnySpace::from)
            ),
        ]
    };
    (feature(), prop::option::of(feature())).prop_filter_map("valid Graph", |(node, edge)| {
        GraphSpace::new(node, edge).ok().map(AnySpace::from)
    })
}

/// Strategy for any space this crate defines (except the empty one): leaves and graphs, and
/// Tuples, Dicts, Sequences and OneOfs of them nested up to two levels.
pub fn any_space() -> impl Strategy<Value = AnySpace> {
    prop_oneof![4 => leaf_space(), 1 => graph_space()].prop_recursive(2, 12, 3, |inner| {
        prop_oneof![
            (inner.clone(), any::<bool>()).prop_filter_map("valid Sequence", |(feature, stack)| {
                SequenceSpace::new(feature, stack).ok().map(AnySpace::from)
            }),
            prop::collection::vec(inner.clone(), 1..4).prop_filter_map("valid OneOf", |spaces| {
                OneOfSpace::new(spaces).ok().map(AnySpace::from)
            }),
            prop::collection::vec(inner.clone(), 1..4).prop_filter_map("valid Tuple", |spaces| {
                TupleSpace::new(spaces).ok().map(AnySpace::from)
            }),
            prop::collection::btree_map("[a-z]{1,6}", inner, 1..4).prop_filter_map(
                "valid Dict",
                |spaces: BTreeMap<String, AnySpace>| DictSpace::new(spaces)
                    .ok()
                    .map(AnySpace::from)
            ),
        ]
    })
}

/// Strategy for arbitrary JSON values, biased toward the shapes space definitions and
/// elements have (objects with a `type` field, lists of numbers, the non-finite spellings).
pub fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e6..1e6f64).prop_map(Value::from),
        prop_oneof![
            Just("inf"),
            Just("-inf"),
            Just("nan"),
            Just("Discrete"),
            Just("Box"),
            Just("float32"),
            Just("uint8"),
            Just("Tuple"),
            Just("Dict"),
            Just("MultiDiscrete"),
            Just("MultiBinary"),
            Just("FiniteSet"),
            Just("Text"),
            Just("Sequence"),
            Just("Graph"),
            Just("OneOf"),
        ]
        .prop_map(Value::from),
        "[a-z]{0,5}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let keys = prop_oneof![
            Just("type".to_owned()),
            Just("n".to_owned()),
            Just("start".to_owned()),
            Just("shape".to_owned()),
            Just("low".to_owned()),
            Just("high".to_owned()),
            Just("dtype".to_owned()),
            Just("nvec".to_owned()),
            Just("spaces".to_owned()),
            Just("elements".to_owned()),
            Just("min_length".to_owned()),
            Just("max_length".to_owned()),
            Just("charset".to_owned()),
            Just("feature_space".to_owned()),
            Just("stack".to_owned()),
            Just("node_space".to_owned()),
            Just("edge_space".to_owned()),
            "[a-z]{1,4}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A named list covering every kind of space and its edge cases (start offsets, unbounded
/// and half-bounded Boxes, every dtype, multi-dimensional shapes, nested composites, the empty
/// space). The conformance, value-stability and property tests all run over it.
pub fn example_spaces() -> Vec<(&'static str, AnySpace)> {
    fn build(
        entries: Vec<(&'static str, Result<AnySpace, crate::SpaceError>)>,
    ) -> Vec<(&'static str, AnySpace)> {
        // Every entry is a valid space; one that is not would be a bug in this list, and the
        // conformance test checks that none is dropped.
        entries
            .into_iter()
            .filter_map(|(name, space)| space.ok().map(|s| (name, s)))
            .collect()
    }
    build(vec![
        ("discrete_5", Discrete::new(5).map(AnySpace::from)),
        (
            "discrete_start_neg3",
            Discrete::with_start(4, -3).map(AnySpace::from),
        ),
        ("discrete_1", Discrete::new(1).map(AnySpace::from)),
        (
            "box_f32_bounded",
            BoxSpace::uniform(&[3], -1.0f32, 2.0).map(AnySpace::from),
        ),
        (
            "box_f64_half_and_unbounded",
            BoxSpace::from_vecs(
                vec![0.0, f64::NEG_INFINITY, f64::NEG_INFINITY, -2.0],
                vec![f64::INFINITY, 1.0, f64::INFINITY, 2.0],
            )
            .map(AnySpace::from),
        ),
        (
            "box_f32_2x2",
            BoxSpace::uniform(&[2, 2], 0.0f32, 1.0).map(AnySpace::from),
        ),
        (
            "box_i64",
            BoxSpace::uniform(&[4], -3i64, 3).map(AnySpace::from),
        ),
        (
            "box_u8_image",
            BoxSpace::uniform(&[2, 3], 0u8, 255).map(AnySpace::from),
        ),
        (
            "box_i8_full_range",
            BoxSpace::uniform(&[2], i8::MIN, i8::MAX).map(AnySpace::from),
        ),
        (
            "box_u64_exact_in_f64",
            BoxSpace::uniform(&[2], 0u64, 1 << 53).map(AnySpace::from),
        ),
        (
            "box_i16",
            BoxSpace::uniform(&[1], -300i16, 300).map(AnySpace::from),
        ),
        (
            "box_i32",
            BoxSpace::uniform(&[1], -7i32, 7).map(AnySpace::from),
        ),
        (
            "box_u16",
            BoxSpace::uniform(&[1], 0u16, 9).map(AnySpace::from),
        ),
        (
            "box_u32",
            BoxSpace::uniform(&[1], 10u32, 20).map(AnySpace::from),
        ),
        (
            "multidiscrete",
            MultiDiscrete::from_vec(vec![3, 2, 4]).map(AnySpace::from),
        ),
        (
            "multidiscrete_2d_with_start",
            ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[2, 2]), vec![2, 3, 4, 2])
                .map_err(|e| crate::SpaceError::invalid("MultiDiscrete", e.to_string()))
                .and_then(|nvec| {
                    MultiDiscrete::with_start(
                        nvec,
                        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[2, 2]), vec![-1, 0, 5, 0])
                            .map_err(|e| {
                                crate::SpaceError::invalid("MultiDiscrete", e.to_string())
                            })?,
                    )
                })
                .map(AnySpace::from),
        ),
        (
            "multibinary_2x3",
            MultiBinary::new(&[2, 3]).map(AnySpace::from),
        ),
        (
            "finite_set",
            FiniteSet::new(vec![
                Value::from("left"),
                Value::from(7),
                Value::from(vec![1, 2]),
            ])
            .map(AnySpace::from),
        ),
        (
            "tuple_discrete_box",
            (|| {
                TupleSpace::new(vec![
                    Discrete::new(3)?.into(),
                    BoxSpace::uniform(&[2], -1.0f32, 1.0)?.into(),
                ])
            })()
            .map(AnySpace::from),
        ),
        (
            "tuple_nested",
            (|| {
                TupleSpace::new(vec![
                    Discrete::new(2)?.into(),
                    TupleSpace::new(vec![
                        MultiBinary::new(&[2])?.into(),
                        Discrete::with_start(3, 1)?.into(),
                    ])?
                    .into(),
                ])
            })()
            .map(AnySpace::from),
        ),
        (
            "dict_nested",
            (|| {
                DictSpace::new([
                    (
                        "agent",
                        DictSpace::new([
                            ("dir", Discrete::new(4)?.into()),
                            ("pos", MultiDiscrete::from_vec(vec![5, 5])?.into()),
                        ])?
                        .into(),
                    ),
                    ("grid", BoxSpace::uniform(&[2, 2], 0i64, 3)?.into()),
                    (
                        "velocity",
                        BoxSpace::uniform(&[1], f32::NEG_INFINITY, f32::INFINITY)?.into(),
                    ),
                ])
            })()
            .map(AnySpace::from),
        ),
        ("empty", Ok(AnySpace::Empty(crate::EmptySpace::new()))),
        (
            "text_alphanumeric",
            Text::with_max_length(6).map(AnySpace::from),
        ),
        (
            "text_unicode_from_empty",
            Text::new(0, 4, "aé€ 𝄞").map(AnySpace::from),
        ),
        (
            "sequence_discrete",
            Discrete::new(4)
                .and_then(|d| SequenceSpace::new(d.into(), false))
                .map(AnySpace::from),
        ),
        (
            "sequence_box_stacked",
            BoxSpace::uniform(&[2], -1.0f32, 1.0)
                .and_then(|b| SequenceSpace::new(b.into(), true))
                .map(AnySpace::from),
        ),
        (
            "sequence_tuple_stacked",
            (|| {
                SequenceSpace::new(
                    TupleSpace::new(vec![
                        Discrete::new(3)?.into(),
                        Text::new(0, 2, "ab")?.into(),
                    ])?
                    .into(),
                    true,
                )
            })()
            .map(AnySpace::from),
        ),
        (
            "graph_box_nodes_discrete_edges",
            (|| {
                GraphSpace::new(
                    BoxSpace::uniform(&[2], -1.0f32, 1.0)?.into(),
                    Some(Discrete::new(3)?.into()),
                )
            })()
            .map(AnySpace::from),
        ),
        (
            "graph_discrete_nodes_no_edges",
            Discrete::new(4)
                .and_then(|d| GraphSpace::new(d.into(), None))
                .map(AnySpace::from),
        ),
        (
            "one_of",
            (|| {
                OneOfSpace::new(vec![
                    Discrete::new(3)?.into(),
                    BoxSpace::uniform(&[2], -1.0f32, 1.0)?.into(),
                    MultiBinary::new(&[2])?.into(),
                ])
            })()
            .map(AnySpace::from),
        ),
        (
            "dict_with_sequence",
            (|| {
                DictSpace::new([
                    ("mission", Text::with_max_length(4)?.into()),
                    (
                        "path",
                        SequenceSpace::new(MultiDiscrete::from_vec(vec![3, 3])?.into(), false)?
                            .into(),
                    ),
                ])
            })()
            .map(AnySpace::from),
        ),
    ])
}

/// The number of entries [`example_spaces`] is meant to hold (a test checks none was dropped).
pub const EXAMPLE_SPACE_COUNT: usize = 31;
