//! [`Columns`]: the typed columns of a batch of elements laid out in rows of the batched
//! layout ([`RowLayout::Batched`](crate::RowLayout::Batched)), one per leaf of the space, as Gymnasium's `batch_space`
//! batches them.

use crate::{AnySpace, DType, FlattenSpace, SpaceError};

/// One step of the path from a space to one of its leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnKey {
    /// The child of a Dict under this key.
    Key(String),
    /// The child of a Tuple at this index.
    Index(usize),
}

/// What the numbers of a column stand for.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnKind {
    /// Numbers of the column's dtype, each the row's entry plus the entry's `offsets` (a
    /// `Discrete` or `MultiDiscrete` value is its start plus the index the row holds; the
    /// offsets of other leaves are empty, meaning 0).
    Numbers {
        /// One offset per entry of an element, or none (all 0).
        offsets: Vec<i64>,
    },
    /// A Text: each entry the index of a character in `charset`, `charset.len()` past the end
    /// of the string (Gymnasium's flat layout of a Text).
    Text {
        /// The characters.
        charset: Vec<char>,
    },
}

/// The column of one leaf: where its entries lie in a row, its dtype (Gymnasium's batch
/// dtype: `int64` for Discrete and MultiDiscrete, `int8` for MultiBinary, the Box's own, `int32`
/// character indices for Text) and the shape of one element.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The path from the space to the leaf (empty for a space that is a leaf).
    pub path: Vec<ColumnKey>,
    /// The first entry of the leaf in a row.
    pub offset: usize,
    /// The number of entries of the leaf in a row.
    pub width: usize,
    /// The shape of one element of the leaf (`[]` for a Discrete).
    pub shape: Vec<usize>,
    /// The type of the column's numbers.
    pub dtype: DType,
    /// What the numbers stand for.
    pub kind: ColumnKind,
}

/// The columns of a space's batched rows ([`RowLayout::Batched`](crate::RowLayout::Batched)): the one description of a
/// vector's observations from which its consumers (the Python package's typed NumPy arrays)
/// lay out their buffers and read the rows, so that a Taxi observation is one `int64` and a
/// MiniGrid image stays `uint8`.
///
/// ```
/// use rl_spaces::{AnySpace, Columns, DType, Discrete, DictSpace, FlattenSpace, RowLayout};
///
/// let space = AnySpace::Dict(DictSpace::new([
///     ("a".to_string(), AnySpace::Discrete(Discrete::with_start(3, 1)?)),
///     ("b".to_string(), AnySpace::Discrete(Discrete::new(500)?)),
/// ])?);
/// let columns = Columns::of(&space)?;
/// assert_eq!(columns.width(), space.row_dim(RowLayout::Batched));
/// assert_eq!(columns.columns().len(), 2);
/// assert_eq!(columns.columns()[1].offset, 1);
/// assert_eq!(columns.columns()[0].dtype, DType::I64);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    columns: Vec<Column>,
    width: usize,
}

impl Columns {
    /// The columns of `space`'s batched rows, or an error for a space with no fixed-size row
    /// (Sequence, Graph), or whose batch is not an array per leaf (FiniteSet, OneOf).
    pub fn of(space: &AnySpace) -> Result<Columns, SpaceError> {
        let mut columns = Columns {
            columns: Vec::new(),
            width: 0,
        };
        columns.add(space, &mut Vec::new())?;
        Ok(columns)
    }

    /// Every column, in row order.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The length of a row: the sum of the columns' widths (the space's
    /// [`batched_dim`](FlattenSpace::batched_dim)).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Adds the leaves of `space`, at `path`, after the current ones.
    fn add(&mut self, space: &AnySpace, path: &mut Vec<ColumnKey>) -> Result<(), SpaceError> {
        let (dtype, shape, kind) = match space {
            AnySpace::Tuple(tuple) => {
                for (index, child) in tuple.spaces().iter().enumerate() {
                    path.push(ColumnKey::Index(index));
                    self.add(child, path)?;
                    path.pop();
                }
                return Ok(());
            }
            AnySpace::Dict(dict) => {
                for (key, child) in dict.spaces() {
                    path.push(ColumnKey::Key(key.clone()));
                    self.add(child, path)?;
                    path.pop();
                }
                return Ok(());
            }
            AnySpace::Empty(_) => return Ok(()),
            AnySpace::Discrete(discrete) => (
                DType::I64,
                Vec::new(),
                ColumnKind::Numbers {
                    offsets: vec![discrete.start()],
                },
            ),
            AnySpace::MultiDiscrete(multi) => (
                DType::I64,
                multi.shape().to_vec(),
                ColumnKind::Numbers {
                    offsets: multi.start().iter().copied().collect(),
                },
            ),
            AnySpace::MultiBinary(binary) => (
                DType::I8,
                binary.shape().to_vec(),
                ColumnKind::Numbers {
                    offsets: Vec::new(),
                },
            ),
            AnySpace::Box(boxed) => (
                boxed.dtype(),
                boxed.shape().to_vec(),
                ColumnKind::Numbers {
                    offsets: Vec::new(),
                },
            ),
            AnySpace::Text(text) => (
                DType::I32,
                vec![text.max_length()],
                ColumnKind::Text {
                    charset: text.charset().to_vec(),
                },
            ),
            other => {
                return Err(SpaceError::flat(format!(
                    "{other} has no column layout (only Discrete, MultiDiscrete, MultiBinary, \
                     Box and Text leaves in Tuples and Dicts have one)"
                )));
            }
        };
        let width = space.batched_dim();
        self.columns.push(Column {
            path: path.clone(),
            offset: self.width,
            width,
            shape,
            dtype,
            kind,
        });
        self.width = self.width.saturating_add(width);
        Ok(())
    }
}
