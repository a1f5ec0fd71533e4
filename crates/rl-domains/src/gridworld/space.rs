//! [`GridCellSpace`]: the observation space of GridWorld, the cells `[row, col]` of a grid,
//! numbered by RLPy's state index `row * cols + col`.

use std::fmt;

use ndarray::ArrayD;
use rand::{Rng, RngExt};
use rl_spaces::{
    AnyArray, AnyElement, AnySpace, DynamicSpace, FiniteSpace, FlatScalar, FlattenSpace, JsonSpace,
    MultiDiscrete, SampleSpace, Space, SpaceError,
};
use serde_json::Value;

use super::map::GridCell;

/// The cells of a `rows` by `cols` grid, blocked cells included (RLPy's `states_num`).
///
/// It is the same set as Gymnasium's `MultiDiscrete([rows, cols])`, with plain
/// [`GridCell`] elements that never allocate:
///
/// | capability | behaviour |
/// |---|---|
/// | [`FiniteSpace`] | cell `[row, col]` has index `row * cols + col`, RLPy's state index |
/// | [`SampleSpace`] | a uniform cell: the row, then the column, drawn as `MultiDiscrete` draws them |
/// | [`FlattenSpace`] | a one-hot block of `rows` for the row, then one of `cols` for the column |
/// | [`JsonSpace`] | `[row, col]` |
/// | [`DynamicSpace`] | `AnySpace::MultiDiscrete([rows, cols])`, elements `i64` arrays `[row, col]` |
///
/// Every capability agrees with the `MultiDiscrete` it converts to: the same index, the
/// same flat vector, the same JSON and the same samples from the same generator.
///
/// ```
/// use rl_domains::gridworld::{GridCell, GridCellSpace};
/// use rl_spaces::{DynamicSpace, FiniteSpace, FlattenSpace, Space};
///
/// let space = GridCellSpace::new(4, 5)?;
/// let cell = GridCell::new(2, 3);
/// assert!(space.contains(&cell));
/// assert_eq!(space.index_of(&cell), Some(13));
/// assert_eq!(space.element_at(13), Some(cell));
/// let flat: Vec<f32> = space.flatten(&cell)?;
/// assert_eq!(flat, [0., 0., 1., 0., 0., 0., 0., 1., 0.]);
/// let any = space.to_any_space();
/// assert_eq!(any.index_of(&space.element_to_any(&cell)), Some(13));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridCellSpace {
    rows: usize,
    cols: usize,
    multi_discrete: MultiDiscrete,
}

impl GridCellSpace {
    /// The cells of a `rows` by `cols` grid; both must be at least 1 and the number of
    /// cells must fit in `usize` and `i64`.
    pub fn new(rows: usize, cols: usize) -> Result<GridCellSpace, SpaceError> {
        let invalid = |reason: String| SpaceError::InvalidSpace {
            space: "GridCellSpace",
            reason,
        };
        if rows == 0 || cols == 0 {
            return Err(invalid(format!(
                "a grid needs at least one row and one column, got {rows} by {cols}"
            )));
        }
        let countable = rows
            .checked_mul(cols)
            .is_some_and(|count| i64::try_from(count).is_ok());
        if !countable {
            return Err(invalid(format!(
                "{rows} by {cols} cells cannot be numbered"
            )));
        }
        let multi_discrete = MultiDiscrete::from_vec(vec![to_i64(rows), to_i64(cols)])?;
        Ok(GridCellSpace {
            rows,
            cols,
            multi_discrete,
        })
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The same set as Gymnasium's `MultiDiscrete([rows, cols])`.
    pub fn multi_discrete(&self) -> &MultiDiscrete {
        &self.multi_discrete
    }

    fn not_in_space(&self, cell: &impl fmt::Debug) -> SpaceError {
        SpaceError::NotInSpace {
            element: format!("{cell:?}"),
            space: self.to_string(),
        }
    }

    fn cell_from_array(&self, array: &ArrayD<i64>) -> Option<GridCell> {
        match array.as_slice()? {
            [row, col] => {
                let cell = GridCell::new(usize::try_from(*row).ok()?, usize::try_from(*col).ok()?);
                self.contains(&cell).then_some(cell)
            }
            _ => None,
        }
    }
}

/// Converts a count or coordinate that the constructor checked to fit in `i64`.
fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// The position of the single one in a one-hot block, or `None` unless every other entry is zero.
fn one_hot_position<F: FlatScalar>(block: &[F]) -> Option<usize> {
    let mut position = None;
    for (index, value) in block.iter().enumerate() {
        if *value == F::ONE && position.is_none() {
            position = Some(index);
        } else if *value != F::ZERO {
            return None;
        }
    }
    position
}

impl fmt::Display for GridCellSpace {
    /// `GridCells(rows, cols)`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "GridCells({}, {})", self.rows, self.cols)
    }
}

impl Space for GridCellSpace {
    type Element = GridCell;

    #[inline]
    fn contains(&self, cell: &GridCell) -> bool {
        cell.row < self.rows && cell.col < self.cols
    }
}

impl SampleSpace for GridCellSpace {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> GridCell {
        // The same draws, in the same order and type, as `MultiDiscrete::sample`.
        let row = rng.random_range(0..to_i64(self.rows));
        let col = rng.random_range(0..to_i64(self.cols));
        GridCell::new(
            usize::try_from(row).unwrap_or(0),
            usize::try_from(col).unwrap_or(0),
        )
    }
}

impl FiniteSpace for GridCellSpace {
    fn cardinality(&self) -> Option<usize> {
        Some(self.rows * self.cols)
    }

    fn element_at(&self, index: usize) -> Option<GridCell> {
        (index < self.rows * self.cols).then(|| GridCell::new(index / self.cols, index % self.cols))
    }

    fn index_of(&self, cell: &GridCell) -> Option<usize> {
        self.contains(cell).then(|| cell.row * self.cols + cell.col)
    }
}

impl FlattenSpace for GridCellSpace {
    fn flat_dim(&self) -> usize {
        self.rows + self.cols
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        cell: &GridCell,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        if out.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: out.len(),
            });
        }
        if !self.contains(cell) {
            return Err(self.not_in_space(cell));
        }
        out.fill(F::ZERO);
        out[cell.row] = F::ONE;
        out[self.rows + cell.col] = F::ONE;
        Ok(())
    }

    /// The row and the column, as its dynamic `MultiDiscrete([rows, cols])` batches them.
    fn batched_dim(&self) -> usize {
        2
    }

    fn batched_into<F: FlatScalar>(
        &self,
        cell: &GridCell,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        if !self.contains(cell) {
            return Err(self.not_in_space(cell));
        }
        match out {
            [row, col] => {
                *row = F::from_f64(cell.row as f64);
                *col = F::from_f64(cell.col as f64);
                Ok(())
            }
            _ => Err(SpaceError::LengthMismatch {
                what: "batched row",
                expected: 2,
                found: out.len(),
            }),
        }
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<GridCell, SpaceError> {
        if flat.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: flat.len(),
            });
        }
        let (rows, cols) = flat.split_at(self.rows);
        match (one_hot_position(rows), one_hot_position(cols)) {
            (Some(row), Some(col)) => Ok(GridCell::new(row, col)),
            _ => Err(SpaceError::InvalidFlat {
                reason: "a grid cell is a one-hot block for the row and one for the column, \
                         each with a single 1 and zeros elsewhere"
                    .to_owned(),
            }),
        }
    }
}

impl JsonSpace for GridCellSpace {
    fn element_to_json(&self, cell: &GridCell) -> Result<Value, SpaceError> {
        if !self.contains(cell) {
            return Err(self.not_in_space(cell));
        }
        Ok(Value::Array(vec![
            Value::from(to_i64(cell.row)),
            Value::from(to_i64(cell.col)),
        ]))
    }

    fn element_from_json(&self, value: &Value) -> Result<GridCell, SpaceError> {
        let array = self.multi_discrete.element_from_json(value)?;
        self.cell_from_array(&array)
            .ok_or_else(|| self.not_in_space(&array))
    }
}

impl DynamicSpace for GridCellSpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::MultiDiscrete(self.multi_discrete.clone())
    }

    fn element_to_any(&self, cell: &GridCell) -> AnyElement {
        let array = ndarray::arr1(&[to_i64(cell.row), to_i64(cell.col)]).into_dyn();
        AnyElement::from(array)
    }

    fn element_from_any(&self, element: &AnyElement) -> Result<GridCell, SpaceError> {
        element
            .as_array()
            .and_then(AnyArray::as_array::<i64>)
            .filter(|array| array.shape() == [2])
            .and_then(|array| self.cell_from_array(array))
            .ok_or_else(|| self.not_in_space(element))
    }
}
