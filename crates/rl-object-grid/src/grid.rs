//! [`Grid`]: a rectangle of [`Cell`]s stored flat, row by row (minigrid's `Grid`), with its
//! wall-drawing helpers and its encoding (`Grid.encode()`).

use serde::{Deserialize, Serialize};

use crate::object::Cell;

/// A position on the grid: column `x` (0 at the left) and row `y` (0 at the top), minigrid's
/// `(i, j)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Position {
    /// The column.
    pub x: i32,
    /// The row.
    pub y: i32,
}

impl Position {
    /// The position `(x, y)`.
    #[inline]
    pub const fn new(x: i32, y: i32) -> Position {
        Position { x, y }
    }

    /// The position moved by `(dx, dy)`.
    #[inline]
    pub const fn offset(self, dx: i32, dy: i32) -> Position {
        Position {
            x: self.x + dx,
            y: self.y + dy,
        }
    }
}

/// The largest width or height of a grid (256 cells): larger sizes are refused before
/// anything is allocated.
pub const MAX_SIDE: usize = 256;

/// A `width` by `height` rectangle of cells, stored row by row (`cells[y * width + x]`, as
/// minigrid stores its `grid` list). Read from JSON, the cell count must match the sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GridFields")]
pub struct Grid {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
}

/// The fields of a [`Grid`] as read, before their check.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFields {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
}

impl TryFrom<GridFields> for Grid {
    type Error = String;

    fn try_from(fields: GridFields) -> Result<Grid, String> {
        let (width, height, count) = (fields.width, fields.height, fields.cells.len());
        Grid::from_cells(width, height, fields.cells).ok_or_else(|| {
            format!("a grid of {width} by {height} (each side 1 to {MAX_SIDE}) with {count} cells")
        })
    }
}

impl Grid {
    /// An empty grid. The caller checks the sides (at most [`MAX_SIDE`]).
    pub(crate) fn new(width: usize, height: usize) -> Grid {
        Grid {
            width,
            height,
            cells: vec![Cell::EMPTY; width * height],
        }
    }

    /// Makes the grid an empty `width` by `height` grid in the memory of its cells (no
    /// allocation when it holds enough). The caller checks the sides.
    pub(crate) fn clear_to(&mut self, width: usize, height: usize) {
        self.cells.clear();
        self.cells.resize(width * height, Cell::EMPTY);
        self.width = width;
        self.height = height;
    }

    /// A grid of the given cells, row by row; `None` unless there are `width * height` of
    /// them and both sides are between 1 and [`MAX_SIDE`].
    pub fn from_cells(width: usize, height: usize, cells: Vec<Cell>) -> Option<Grid> {
        let sides_ok = (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height);
        (sides_ok && cells.len() == width * height).then_some(Grid {
            width,
            height,
            cells,
        })
    }

    /// The number of columns.
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of rows.
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The cells, row by row.
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Whether `position` lies on the grid.
    #[inline]
    pub fn contains(&self, position: Position) -> bool {
        position.x >= 0
            && position.y >= 0
            && (position.x as usize) < self.width
            && (position.y as usize) < self.height
    }

    /// The cell at `position`; a wall outside the grid (minigrid's `slice` fills the outside
    /// with walls, and every grid it generates is walled in).
    #[inline]
    pub fn get(&self, position: Position) -> Cell {
        if self.contains(position) {
            self.cells[position.y as usize * self.width + position.x as usize]
        } else {
            Cell::WALL
        }
    }

    /// Puts `cell` at `position` (nothing happens outside the grid).
    #[inline]
    pub fn set(&mut self, position: Position, cell: Cell) {
        if self.contains(position) {
            self.cells[position.y as usize * self.width + position.x as usize] = cell;
        }
    }

    /// minigrid's `horz_wall(x, y, length)` with `obstacle` cells; `None` runs to the edge.
    pub(crate) fn horizontal_wall(&mut self, x: i32, y: i32, length: Option<i32>, obstacle: Cell) {
        let length = length.unwrap_or(self.width as i32 - x);
        for i in 0..length {
            self.set(Position::new(x + i, y), obstacle);
        }
    }

    /// minigrid's `vert_wall(x, y, length)` with `obstacle` cells; `None` runs to the edge.
    pub(crate) fn vertical_wall(&mut self, x: i32, y: i32, length: Option<i32>, obstacle: Cell) {
        let length = length.unwrap_or(self.height as i32 - y);
        for j in 0..length {
            self.set(Position::new(x, y + j), obstacle);
        }
    }

    /// minigrid's `wall_rect(x, y, w, h)`: the walls around a rectangle.
    pub(crate) fn wall_rect(&mut self, x: i32, y: i32, w: i32, h: i32) {
        self.horizontal_wall(x, y, Some(w), Cell::WALL);
        self.horizontal_wall(x, y + h - 1, Some(w), Cell::WALL);
        self.vertical_wall(x, y, Some(h), Cell::WALL);
        self.vertical_wall(x + w - 1, y, Some(h), Cell::WALL);
    }

    /// minigrid's `grid.encode()`: `width x height x 3` bytes in numpy's C order (column `x`
    /// first: byte `(x * height + y) * 3 + channel`), written into `out`.
    ///
    /// # Panics
    ///
    /// If `out` does not hold exactly `width * height * 3` bytes.
    pub fn encode_into(&self, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            self.width * self.height * 3,
            "a grid encoding needs width * height * 3 bytes"
        );
        for x in 0..self.width {
            for y in 0..self.height {
                let at = (x * self.height + y) * 3;
                out[at..at + 3].copy_from_slice(&self.cells[y * self.width + x].encode());
            }
        }
    }

    /// minigrid's `grid.encode()` as a new vector (see [`encode_into`](Self::encode_into)).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![0; self.width * self.height * 3];
        self.encode_into(&mut out);
        out
    }
}
