//! [`TupleSpace`]: a fixed sequence of spaces; elements are sequences of their elements.

use std::fmt;

use rand::Rng;
use serde_json::Value;

use crate::composite;
use crate::json::describe;
use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};
use crate::{AnyElement, AnySpace, SpaceError};

/// The Cartesian product of a sequence of spaces (Gymnasium's `Tuple`).
///
/// Elements are `Vec<AnyElement>`, one per child. Sampling draws the children in order from
/// one generator; flattening concatenates the children's flat vectors; enumeration numbers
/// elements with the last child varying fastest. A batch is written to JSON column-wise, as
/// Gymnasium's `to_jsonable` does: a list holding each child's batch.
///
/// ```
/// use rl_spaces::{AnyElement, Discrete, FlattenSpace, MultiBinary, Space, TupleSpace};
///
/// let space = TupleSpace::new(vec![Discrete::new(3)?.into(), MultiBinary::new(&[2])?.into()])?;
/// let x = vec![AnyElement::Int(1), ndarray::arr1(&[0i8, 1]).into_dyn().into()];
/// assert!(space.contains(&x));
/// assert_eq!(space.flatten::<f32>(&x)?, vec![0.0, 1.0, 0.0, 0.0, 1.0]);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TupleSpace {
    spaces: Vec<AnySpace>,
}

impl TupleSpace {
    /// The product of `spaces`, in this order. Errors if there is no child or a child is an
    /// empty space.
    pub fn new(spaces: Vec<AnySpace>) -> Result<Self, SpaceError> {
        composite::check_children(
            "Tuple",
            spaces.iter().enumerate().map(|(i, s)| (i.to_string(), s)),
        )?;
        Ok(TupleSpace { spaces })
    }

    /// The child spaces.
    pub fn spaces(&self) -> &[AnySpace] {
        &self.spaces
    }

    /// The number of children.
    pub fn len(&self) -> usize {
        self.spaces.len()
    }

    /// Always false: a tuple has at least one child.
    pub fn is_empty(&self) -> bool {
        false
    }

    fn children(&self) -> Vec<&AnySpace> {
        self.spaces.iter().collect()
    }
}

impl fmt::Display for TupleSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tuple(")?;
        for (i, s) in self.spaces.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{s}")?;
        }
        write!(f, ")")
    }
}

impl Space for TupleSpace {
    type Element = Vec<AnyElement>;

    fn contains(&self, x: &Vec<AnyElement>) -> bool {
        composite::contains(&self.children(), &x.iter().collect::<Vec<_>>())
    }
}

impl SampleSpace for TupleSpace {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<AnyElement> {
        self.spaces.iter().map(|s| s.sample_child(rng)).collect()
    }
}

impl FiniteSpace for TupleSpace {
    fn cardinality(&self) -> Option<usize> {
        composite::cardinality(&self.children())
    }

    fn element_at(&self, index: usize) -> Option<Vec<AnyElement>> {
        composite::element_at(&self.children(), index)
    }

    fn index_of(&self, x: &Vec<AnyElement>) -> Option<usize> {
        composite::index_of(&self.children(), &x.iter().collect::<Vec<_>>())
    }
}

impl FlattenSpace for TupleSpace {
    fn is_flattenable(&self) -> bool {
        self.spaces.iter().all(|s| s.is_flattenable())
    }

    fn flat_dim(&self) -> usize {
        composite::flat_dim(&self.children())
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        x: &Vec<AnyElement>,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        composite::flatten_into(&self.children(), &x.iter().collect::<Vec<_>>(), out)
    }

    fn batched_dim(&self) -> usize {
        composite::batched_dim(&self.children())
    }

    fn batched_into<F: FlatScalar>(
        &self,
        x: &Vec<AnyElement>,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        composite::batched_into(&self.children(), &x.iter().collect::<Vec<_>>(), out)
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<Vec<AnyElement>, SpaceError> {
        composite::unflatten(&self.children(), flat)
    }
}

impl JsonSpace for TupleSpace {
    fn element_to_json(&self, x: &Vec<AnyElement>) -> Result<Value, SpaceError> {
        if x.len() != self.spaces.len() {
            return Err(SpaceError::not_in_space(x, self));
        }
        self.spaces
            .iter()
            .zip(x)
            .map(|(s, v)| s.element_to_json(v))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array)
    }

    fn element_from_json(&self, value: &Value) -> Result<Vec<AnyElement>, SpaceError> {
        let items = value
            .as_array()
            .filter(|items| items.len() == self.spaces.len())
            .ok_or_else(|| {
                SpaceError::json(format!(
                    "expected a list of {} elements, found {}",
                    self.spaces.len(),
                    describe(value)
                ))
            })?;
        self.spaces
            .iter()
            .zip(items)
            .enumerate()
            .map(|(i, (s, v))| {
                s.element_from_json(v)
                    .map_err(|e| e.within(&format!("[{i}]")))
            })
            .collect()
    }

    /// Column-wise, as Gymnasium: `[batch of child 0, batch of child 1, ...]`.
    fn batch_to_jsonable(&self, batch: &[Vec<AnyElement>]) -> Result<Value, SpaceError> {
        if let Some(bad) = batch.iter().find(|x| x.len() != self.spaces.len()) {
            return Err(SpaceError::not_in_space(bad, self));
        }
        self.spaces
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let column: Vec<AnyElement> = batch.iter().map(|x| x[i].clone()).collect();
                s.batch_to_jsonable(&column)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array)
    }

    fn batch_from_jsonable(&self, value: &Value) -> Result<Vec<Vec<AnyElement>>, SpaceError> {
        let columns = value
            .as_array()
            .filter(|c| c.len() == self.spaces.len())
            .ok_or_else(|| {
                SpaceError::json(format!(
                    "expected a list of {} columns, found {}",
                    self.spaces.len(),
                    describe(value)
                ))
            })?;
        let columns = self
            .spaces
            .iter()
            .zip(columns)
            .enumerate()
            .map(|(i, (s, c))| {
                s.batch_from_jsonable(c)
                    .map_err(|e| e.within(&format!("[{i}]")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        transpose(columns, |i| format!("[{i}]"))
    }
}

/// Turns one batch per child into one row per element; every batch must have the same length.
pub(crate) fn transpose(
    columns: Vec<Vec<AnyElement>>,
    name: impl Fn(usize) -> String,
) -> Result<Vec<Vec<AnyElement>>, SpaceError> {
    let rows = columns.first().map_or(0, Vec::len);
    if let Some((i, c)) = columns.iter().enumerate().find(|(_, c)| c.len() != rows) {
        return Err(SpaceError::json(format!(
            "column {} holds {} elements but the first column holds {rows}",
            name(i),
            c.len()
        )));
    }
    let mut out: Vec<Vec<AnyElement>> = (0..rows)
        .map(|_| Vec::with_capacity(columns.len()))
        .collect();
    for column in columns {
        for (row, x) in out.iter_mut().zip(column) {
            row.push(x);
        }
    }
    Ok(out)
}
