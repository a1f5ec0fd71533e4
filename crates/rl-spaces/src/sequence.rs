//! [`SequenceSpace`]: sequences of any length of elements of one feature space (Gymnasium's
//! `Sequence`).

use std::fmt;

use rand::Rng;
use serde_json::Value;

use crate::json::describe;
use crate::space::{
    FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space, rows_from_json, rows_to_json,
};
use crate::{AnyElement, AnySpace, SpaceError};

/// Finite sequences of elements of a feature space (Gymnasium's `Sequence(space, stack=...)`).
///
/// - **Elements** are lists of feature elements (`Vec<AnyElement>`), whatever `stack` says:
///   `stack` only changes how Gymnasium hands them over (one stacked array instead of a tuple),
///   which the Python package follows, and the layout of a batch of stacked sequences of Tuples
///   or Dicts in `to_jsonable` (column-wise, as Gymnasium's stacked feature space writes it).
/// - **Element JSON** is Gymnasium's: the feature space's `to_jsonable` of the items (a list of
///   their JSON for a Box, Discrete, MultiDiscrete, MultiBinary or Text feature; column-wise for
///   a Tuple or Dict feature).
/// - **Sampling** draws the length from numpy's `geometric(0.25)` (as Gymnasium does,
///   [`crate::numpy_random::geometric`]) and then each item.
/// - **Flattening** is refused, as Gymnasium's `flatdim` refuses a Sequence: the length
///   varies. [`is_flattenable`](FlattenSpace::is_flattenable) is false.
/// - **Sizes**: an element has at most [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) items, checked
///   before any is drawn or read.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{AnyElement, Discrete, NumpyGenerator, SampleSpace, SequenceSpace, Space};
///
/// let path = SequenceSpace::new(Discrete::new(4)?.into(), false)?;
/// assert!(path.contains(&vec![AnyElement::Int(3), AnyElement::Int(0)]));
/// assert!(!path.contains(&vec![AnyElement::Int(4)]));
/// let sample = path.sample(&mut NumpyGenerator::seed_from_u64(1));
/// assert!(path.contains(&sample));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceSpace {
    feature: Box<AnySpace>,
    stack: bool,
}

/// The deepest nesting of Sequence spaces (a Sequence whose items hold Sequences, directly
/// or inside a Tuple, Dict or OneOf): 6. Gymnasium draws each sampled length from a geometric
/// distribution of mean 4, so a sample of Sequences nested `d` deep has `4^d` items on average
/// (4096 at the limit): deeper nesting would make one sample exhaust memory (50 levels: about
/// 10^30 items). Every constructor, and so every definition read from JSON, checks it.
pub const MAX_SEQUENCE_NESTING: usize = 6;

/// How deeply Sequences nest inside `space` (0 when it holds none).
fn sequence_depth(space: &AnySpace) -> usize {
    match space {
        AnySpace::Sequence(sequence) => 1 + sequence_depth(sequence.feature_space()),
        AnySpace::Tuple(tuple) => tuple.spaces().iter().map(sequence_depth).max().unwrap_or(0),
        AnySpace::Dict(dict) => dict
            .spaces()
            .values()
            .map(sequence_depth)
            .max()
            .unwrap_or(0),
        AnySpace::OneOf(one_of) => one_of
            .spaces()
            .iter()
            .map(sequence_depth)
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

impl SequenceSpace {
    /// Sequences of elements of `feature`; `stack` as Gymnasium's. Errors if the feature space
    /// is empty.
    pub fn new(feature: AnySpace, stack: bool) -> Result<Self, SpaceError> {
        if feature.is_empty() {
            return Err(SpaceError::invalid(
                "Sequence",
                "the feature space is empty, so only the empty sequence would be an element",
            ));
        }
        let depth = sequence_depth(&feature) + 1;
        if depth > MAX_SEQUENCE_NESTING {
            return Err(SpaceError::invalid(
                "Sequence",
                format!(
                    "Sequences nested {depth} deep (through any Tuple, Dict or OneOf between \
                     them); at most {MAX_SEQUENCE_NESTING} are allowed, because a sample's \
                     expected size grows fourfold with each level (Gymnasium draws each length \
                     from a geometric distribution of mean 4)"
                ),
            ));
        }
        Ok(SequenceSpace {
            feature: Box::new(feature),
            stack,
        })
    }

    /// The space of every item.
    pub fn feature_space(&self) -> &AnySpace {
        &self.feature
    }

    /// Whether Gymnasium stacks the items into one array.
    pub fn stack(&self) -> bool {
        self.stack
    }

    /// Errors unless `length` items are within [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN).
    pub(crate) fn check_length(&self, length: u128) -> Result<usize, SpaceError> {
        crate::limits::check_size("Sequence", "items", length)
    }
}

impl fmt::Display for SequenceSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Sequence({}, stack={})",
            self.feature,
            python_bool(self.stack)
        )
    }
}

/// `True` or `False`, as Python prints a bool.
pub(crate) fn python_bool(value: bool) -> &'static str {
    if value { "True" } else { "False" }
}

impl Space for SequenceSpace {
    type Element = Vec<AnyElement>;

    fn contains(&self, x: &Vec<AnyElement>) -> bool {
        x.len() <= crate::MAX_FLAT_LEN && x.iter().all(|item| self.feature.contains(item))
    }
}

impl SampleSpace for SequenceSpace {
    /// A length from the geometric distribution of parameter 0.25 (at least 1), then the items,
    /// all from `rng`.
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<AnyElement> {
        let length = crate::numpy_random::geometric(rng, 0.25).min(crate::MAX_FLAT_LEN as u64);
        (0..length)
            .map(|_| self.feature.sample_child(rng))
            .collect()
    }
}

impl FlattenSpace for SequenceSpace {
    fn is_flattenable(&self) -> bool {
        false
    }

    fn flat_dim(&self) -> usize {
        0
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        _x: &Vec<AnyElement>,
        _out: &mut [F],
    ) -> Result<(), SpaceError> {
        Err(not_flattenable(self))
    }

    fn unflatten<F: FlatScalar>(&self, _flat: &[F]) -> Result<Vec<AnyElement>, SpaceError> {
        Err(not_flattenable(self))
    }
}

/// The error of flattening a space whose elements vary in size, worded as Gymnasium's.
pub(crate) fn not_flattenable(space: &impl fmt::Display) -> SpaceError {
    SpaceError::flat(format!(
        "{space} cannot be flattened to a fixed-length vector: its elements vary in size (as \
         Gymnasium's flatdim refuses Graph and Sequence)"
    ))
}

impl JsonSpace for SequenceSpace {
    fn element_to_json(&self, x: &Vec<AnyElement>) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        self.feature.batch_to_jsonable(x)
    }

    fn element_from_json(&self, value: &Value) -> Result<Vec<AnyElement>, SpaceError> {
        let items = self.feature.batch_from_jsonable(value)?;
        self.check_length(items.len() as u128)?;
        Ok(items)
    }

    fn batch_to_jsonable(&self, batch: &[Vec<AnyElement>]) -> Result<Value, SpaceError> {
        if self.stack && matches!(*self.feature, AnySpace::Tuple(_) | AnySpace::Dict(_)) {
            return stacked_composite_to_jsonable(&self.feature, batch);
        }
        rows_to_json(self, batch)
    }

    fn batch_from_jsonable(&self, value: &Value) -> Result<Vec<Vec<AnyElement>>, SpaceError> {
        if self.stack && matches!(*self.feature, AnySpace::Tuple(_) | AnySpace::Dict(_)) {
            return stacked_composite_from_jsonable(&self.feature, value);
        }
        rows_from_json(self, value, "sequences")
    }
}

/// A batch of stacked sequences of a Tuple or Dict, as Gymnasium's stacked feature space writes
/// it: each child's column holds, per sequence, the child's batch of that sequence's items.
fn stacked_composite_to_jsonable(
    feature: &AnySpace,
    batch: &[Vec<AnyElement>],
) -> Result<Value, SpaceError> {
    let column = |pick: &dyn Fn(&AnyElement) -> Option<AnyElement>,
                  child: &AnySpace|
     -> Result<Value, SpaceError> {
        batch
            .iter()
            .map(|sequence| {
                let items = sequence
                    .iter()
                    .map(|item| pick(item).ok_or_else(|| SpaceError::not_in_space(item, feature)))
                    .collect::<Result<Vec<_>, _>>()?;
                child.batch_to_jsonable(&items)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array)
    };
    match feature {
        AnySpace::Tuple(tuple) => tuple
            .spaces()
            .iter()
            .enumerate()
            .map(|(i, child)| {
                column(
                    &|item| item.as_tuple().and_then(|t| t.get(i)).cloned(),
                    child,
                )
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        AnySpace::Dict(dict) => dict
            .spaces()
            .iter()
            .map(|(key, child)| {
                column(
                    &|item| item.as_dict().and_then(|d| d.get(key)).cloned(),
                    child,
                )
                .map(|v| (key.clone(), v))
            })
            .collect::<Result<serde_json::Map<_, _>, _>>()
            .map(Value::Object),
        other => Err(SpaceError::invalid(
            "Sequence",
            format!("{other} is not a composite feature space"),
        )),
    }
}

/// Reads what [`stacked_composite_to_jsonable`] writes.
fn stacked_composite_from_jsonable(
    feature: &AnySpace,
    value: &Value,
) -> Result<Vec<Vec<AnyElement>>, SpaceError> {
    // Each child's column: per sequence, the list of that child's items.
    let read_column =
        |child: &AnySpace, column: &Value| -> Result<Vec<Vec<AnyElement>>, SpaceError> {
            let sequences = column.as_array().ok_or_else(|| {
                SpaceError::json(format!(
                    "expected a list of sequences, found {}",
                    describe(column)
                ))
            })?;
            sequences
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    child
                        .batch_from_jsonable(s)
                        .map_err(|e| e.within(&format!("[{i}]")))
                })
                .collect()
        };
    let (names, columns): (Vec<Option<String>>, Vec<Vec<Vec<AnyElement>>>) = match (feature, value)
    {
        (AnySpace::Tuple(tuple), Value::Array(items)) if items.len() == tuple.len() => tuple
            .spaces()
            .iter()
            .zip(items)
            .enumerate()
            .map(|(i, (child, column))| {
                read_column(child, column)
                    .map(|c| (None, c))
                    .map_err(|e| e.within(&format!("[{i}]")))
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .unzip(),
        (AnySpace::Dict(dict), Value::Object(map)) if map.len() == dict.len() => dict
            .spaces()
            .iter()
            .map(|(key, child)| {
                let column = map
                    .get(key)
                    .ok_or_else(|| SpaceError::json(format!("missing key {key:?}")))?;
                read_column(child, column)
                    .map(|c| (Some(key.clone()), c))
                    .map_err(|e| e.within(&format!(".{key}")))
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .unzip(),
        _ => {
            return Err(SpaceError::json(format!(
                "expected the columns of {feature}, found {}",
                describe(value)
            )));
        }
    };
    let count = columns.first().map_or(0, Vec::len);
    if columns.iter().any(|c| c.len() != count) {
        return Err(SpaceError::json(
            "the columns hold different numbers of sequences",
        ));
    }
    (0..count)
        .map(|s| {
            let length = columns[0][s].len();
            if columns.iter().any(|c| c[s].len() != length) {
                return Err(SpaceError::json(format!(
                    "sequence {s} has columns of different lengths"
                )));
            }
            Ok((0..length)
                .map(|i| match names.first() {
                    Some(Some(_)) => AnyElement::Dict(
                        names
                            .iter()
                            .zip(&columns)
                            .map(|(name, c)| (name.clone().unwrap_or_default(), c[s][i].clone()))
                            .collect(),
                    ),
                    _ => AnyElement::Tuple(columns.iter().map(|c| c[s][i].clone()).collect()),
                })
                .collect())
        })
        .collect()
}
