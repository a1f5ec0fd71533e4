//! GridWorld maps: cell kinds, cells, and the grid parsed from RLPy's map text format.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// What a grid cell holds, with RLPy's integer codes.
///
/// RLPy also defines code 5 (`AGENT`) for drawing the agent; it is never part of a map,
/// and [`GridMap::parse`] rejects it with [`Error::AgentCellInMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// An open cell (code 0).
    Empty,
    /// A wall the agent cannot enter (code 1).
    Blocked,
    /// An open cell where episodes start (code 2).
    Start,
    /// A terminal cell with reward +1 (code 3).
    Goal,
    /// A terminal cell with reward -1 (code 4).
    Pit,
}

impl CellKind {
    /// Every cell kind, in code order.
    pub const ALL: [CellKind; 5] = [
        CellKind::Empty,
        CellKind::Blocked,
        CellKind::Start,
        CellKind::Goal,
        CellKind::Pit,
    ];

    /// The RLPy code of this kind (0 to 4).
    pub fn code(self) -> u8 {
        match self {
            CellKind::Empty => 0,
            CellKind::Blocked => 1,
            CellKind::Start => 2,
            CellKind::Goal => 3,
            CellKind::Pit => 4,
        }
    }

    /// The kind with RLPy code `code`, or `None` for any other number (including the
    /// display-only agent code 5).
    pub fn from_code(code: u8) -> Option<CellKind> {
        CellKind::ALL.get(usize::from(code)).copied()
    }

    /// Whether entering a cell of this kind ends the episode (goal and pit).
    pub fn is_terminal(self) -> bool {
        matches!(self, CellKind::Goal | CellKind::Pit)
    }
}

/// A cell of the grid: RLPy's state `[row, col]`, with row 0 the first line of the map file.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct GridCell {
    /// The row, counted from the top.
    pub row: usize,
    /// The column, counted from the left.
    pub col: usize,
}

impl GridCell {
    /// The cell at `row`, `col`.
    pub fn new(row: usize, col: usize) -> Self {
        GridCell { row, col }
    }
}

impl fmt::Display for GridCell {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "[{}, {}]", self.row, self.col)
    }
}

/// The most cells a map may have: 2^20 = 1 048 576 (for example 1024 by 1024).
///
/// A map is outside input (a file, a registry parameter), and the domain keeps tables
/// proportional to its cell count, so [`GridMap::parse`] stops at the first cell over the limit
/// and [`GridMap::from_cells`] checks `rows * cols`, both with [`Error::MapTooLarge`].
pub const MAX_MAP_CELLS: usize = 1 << 20;

/// A rectangular GridWorld map with at least one start cell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GridMap {
    rows: usize,
    cols: usize,
    cells: Vec<CellKind>,
    start: GridCell,
}

/// The maps shipped with RLPy 1.3.6, as (name, text) pairs in name order.
const BUILTIN_MAPS: [(&str, &str); 14] = [
    ("10x10-12ftml", include_str!("../../maps/10x10-12ftml.txt")),
    ("10x7-ACC2011", include_str!("../../maps/10x7-ACC2011.txt")),
    ("11x11-Easy", include_str!("../../maps/11x11-Easy.txt")),
    ("11x11-Rooms", include_str!("../../maps/11x11-Rooms.txt")),
    (
        "11x11-TwoRooms",
        include_str!("../../maps/11x11-TwoRooms.txt"),
    ),
    ("1x2", include_str!("../../maps/1x2.txt")),
    ("1x3", include_str!("../../maps/1x3.txt")),
    ("2x3", include_str!("../../maps/2x3.txt")),
    ("3x3", include_str!("../../maps/3x3.txt")),
    ("3x4", include_str!("../../maps/3x4.txt")),
    ("3x5-Wall", include_str!("../../maps/3x5-Wall.txt")),
    (
        "4x12-CliffWorld",
        include_str!("../../maps/4x12-CliffWorld.txt"),
    ),
    ("4x5", include_str!("../../maps/4x5.txt")),
    ("6x9-Wall", include_str!("../../maps/6x9-Wall.txt")),
];

/// The names of the built-in maps, in the same order as [`BUILTIN_MAPS`].
const BUILTIN_NAMES: [&str; 14] = [
    "10x10-12ftml",
    "10x7-ACC2011",
    "11x11-Easy",
    "11x11-Rooms",
    "11x11-TwoRooms",
    "1x2",
    "1x3",
    "2x3",
    "3x3",
    "3x4",
    "3x5-Wall",
    "4x12-CliffWorld",
    "4x5",
    "6x9-Wall",
];

impl GridMap {
    /// Parses RLPy's map format: whitespace-separated integer cell codes, one row per line.
    ///
    /// Like NumPy's `loadtxt`, which RLPy uses, the parser accepts CRLF line ends, blanks
    /// at line ends, blank lines (which are skipped) and a missing final newline; a single
    /// line is a one-row grid. Errors name the 1-based line and character column, and show
    /// invisible characters in a token escaped (a byte-order mark reads `\u{feff}`). A map of
    /// more than [`MAX_MAP_CELLS`] cells is refused as soon as the parser counts one cell too
    /// many.
    ///
    /// ```
    /// use rl_domains::gridworld::{CellKind, GridCell, GridMap};
    ///
    /// let map = GridMap::parse("0 0 3\r\n2 1 4 \r\n")?;
    /// assert_eq!((map.rows(), map.cols()), (2, 3));
    /// assert_eq!(map.start(), GridCell::new(1, 0));
    /// assert_eq!(map.kind(GridCell::new(0, 2)), Some(CellKind::Goal));
    /// # Ok::<(), rl_domains::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<GridMap, Error> {
        let mut cells = Vec::new();
        let mut cols = 0;
        let mut rows = 0;
        for (line_index, line) in text.split('\n').enumerate() {
            let line_number = line_index + 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            let row_start = cells.len();
            for (column, token) in tokens_with_columns(line) {
                if cells.len() == MAX_MAP_CELLS {
                    return Err(Error::MapTooLarge {
                        cells: MAX_MAP_CELLS + 1,
                        limit: MAX_MAP_CELLS,
                    });
                }
                cells.push(parse_cell(token, line_number, column)?);
            }
            let found = cells.len() - row_start;
            if found == 0 {
                continue;
            }
            if rows == 0 {
                cols = found;
            } else if found != cols {
                return Err(Error::RaggedMapRow {
                    line: line_number,
                    expected: cols,
                    found,
                });
            }
            rows += 1;
        }
        GridMap::from_cells(rows, cols, cells)
    }

    /// Reads and parses a map file (see [`GridMap::parse`]).
    pub fn from_path(path: impl AsRef<Path>) -> Result<GridMap, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        GridMap::parse(&text)
    }

    /// One of the 14 maps shipped with RLPy 1.3.6, by name with or without `.txt`
    /// (for example `"4x5"` or `"4x5.txt"`); see [`GridMap::builtin_names`].
    ///
    /// The map files are RLPy's, unchanged, under RLPy's BSD license (`maps/LICENSE-rlpy`).
    pub fn builtin(name: &str) -> Result<GridMap, Error> {
        let stem = name.strip_suffix(".txt").unwrap_or(name);
        let (_, text) = BUILTIN_MAPS
            .iter()
            .find(|(builtin_name, _)| *builtin_name == stem)
            .ok_or_else(|| Error::UnknownBuiltinMap {
                name: name.to_owned(),
            })?;
        GridMap::parse(text)
    }

    /// The names of the built-in maps, without `.txt`, in name order.
    pub fn builtin_names() -> &'static [&'static str] {
        &BUILTIN_NAMES
    }

    /// Builds a map from row-major cells; `cells.len()` must equal `rows * cols`.
    ///
    /// Fails with [`Error::EmptyMap`] for a map without cells, with
    /// [`Error::MissingStartCell`] without a start cell, and with
    /// [`Error::InvalidParameter`] when the cell count does not match the shape, and with
    /// [`Error::MapTooLarge`] when `rows * cols` is above [`MAX_MAP_CELLS`].
    pub fn from_cells(rows: usize, cols: usize, cells: Vec<CellKind>) -> Result<GridMap, Error> {
        if rows == 0 || cols == 0 || cells.is_empty() {
            return Err(Error::EmptyMap);
        }
        let count = rows.saturating_mul(cols);
        if count > MAX_MAP_CELLS {
            return Err(Error::MapTooLarge {
                cells: count,
                limit: MAX_MAP_CELLS,
            });
        }
        if rows.checked_mul(cols) != Some(cells.len()) {
            return Err(Error::InvalidParameter {
                parameter: "cells",
                reason: format!(
                    "a {rows} by {cols} map needs {} cells, got {}",
                    rows.saturating_mul(cols),
                    cells.len()
                ),
            });
        }
        let start_index = cells
            .iter()
            .position(|kind| *kind == CellKind::Start)
            .ok_or(Error::MissingStartCell)?;
        let start = GridCell::new(start_index / cols, start_index % cols);
        Ok(GridMap {
            rows,
            cols,
            cells,
            start,
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

    /// The number of cells, RLPy's `states_num` (`rows * cols`, blocked cells included).
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The start cell: the first start cell in row-major order.
    pub fn start(&self) -> GridCell {
        self.start
    }

    /// The kind of `cell`, or `None` when it lies outside the grid.
    pub fn kind(&self, cell: GridCell) -> Option<CellKind> {
        if cell.row < self.rows && cell.col < self.cols {
            self.cells.get(cell.row * self.cols + cell.col).copied()
        } else {
            None
        }
    }

    /// Whether `cell` lies inside the grid.
    pub fn contains(&self, cell: GridCell) -> bool {
        cell.row < self.rows && cell.col < self.cols
    }

    /// All cells in row-major order.
    pub fn cells(&self) -> &[CellKind] {
        &self.cells
    }

    /// The grid as rows of RLPy codes, as the reference files record it.
    pub fn to_codes(&self) -> Vec<Vec<u8>> {
        self.cells
            .chunks(self.cols)
            .map(|row| row.iter().map(|kind| kind.code()).collect())
            .collect()
    }
}

impl FromStr for GridMap {
    type Err = Error;

    fn from_str(text: &str) -> Result<GridMap, Error> {
        GridMap::parse(text)
    }
}

/// Writes the map in RLPy's format: codes separated by single spaces, one row per line.
impl fmt::Display for GridMap {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.cols) {
            let mut separator = "";
            for kind in row {
                write!(formatter, "{separator}{}", kind.code())?;
                separator = " ";
            }
            writeln!(formatter)?;
        }
        Ok(())
    }
}

/// The whitespace-separated tokens of `line` with their 1-based character columns.
fn tokens_with_columns(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut column = 1;
    std::iter::from_fn(move || {
        let trimmed = rest.trim_start();
        column += rest[..rest.len() - trimmed.len()].chars().count();
        if trimmed.is_empty() {
            return None;
        }
        let token_length = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let (token, after) = trimmed.split_at(token_length);
        let token_column = column;
        column += token.chars().count();
        rest = after;
        Some((token_column, token))
    })
}

/// Parses one token into a cell kind, with typed errors naming its position.
fn parse_cell(token: &str, line: usize, column: usize) -> Result<CellKind, Error> {
    let code: i64 = token.parse().map_err(|_| Error::InvalidMapToken {
        line,
        column,
        token: token.to_owned(),
    })?;
    if code == 5 {
        return Err(Error::AgentCellInMap { line, column });
    }
    u8::try_from(code)
        .ok()
        .and_then(CellKind::from_code)
        .ok_or(Error::UnknownCellCode { line, column, code })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for kind in CellKind::ALL {
            assert_eq!(CellKind::from_code(kind.code()), Some(kind));
        }
        assert_eq!(CellKind::from_code(5), None);
    }

    #[test]
    fn tokens_report_character_columns() {
        let tokens: Vec<_> = tokens_with_columns("  0 12\t3 ").collect();
        assert_eq!(tokens, vec![(3, "0"), (5, "12"), (8, "3")]);
    }

    #[test]
    fn display_round_trips() {
        let map = GridMap::parse("0 0 3\n2 1 4").expect("valid map");
        assert_eq!(map.to_string(), "0 0 3\n2 1 4\n");
        assert_eq!(GridMap::parse(&map.to_string()).expect("valid map"), map);
    }

    #[test]
    fn from_cells_checks_the_shape() {
        let result = GridMap::from_cells(2, 2, vec![CellKind::Start]);
        assert!(matches!(result, Err(Error::InvalidParameter { .. })));
    }
}
