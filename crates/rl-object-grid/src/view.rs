//! The observations: minigrid's egocentric partial view (`gen_obs_grid` and
//! `Grid.encode(vis_mask)`) written straight into a byte buffer, and the fully observed
//! encoding (minigrid's `FullyObsWrapper`).

use crate::grid::{Grid, Position};
use crate::object::{Cell, Color, ObjectKind};
use crate::state::Direction;

/// The largest `agent_view_size` (63): the visibility mask of a view row fits in 64 bits.
pub const MAX_VIEW_SIZE: usize = 63;

/// The encoding of a cell the agent cannot see (`OBJECT_TO_IDX["unseen"]`, 0, 0).
const UNSEEN: [u8; 3] = [0, 0, 0];

/// The world position shown at view cell `(column, row)` of a `size` by `size` view: the agent
/// sits at the middle of the bottom row, facing up (minigrid's `slice` and `rotate_left`
/// `agent_dir + 1` times).
#[inline]
fn world_position(
    agent: Position,
    direction: Direction,
    size: i32,
    column: i32,
    row: i32,
) -> Position {
    let (fx, fy) = direction.vector();
    let (rx, ry) = (-fy, fx);
    let forward = size - 1 - row;
    let right = column - size / 2;
    Position::new(
        agent.x + fx * forward + rx * right,
        agent.y + fy * forward + ry * right,
    )
}

/// The view row by row, from the agent's row (the bottom, `size - 1`) up: calls
/// `visit(row, cells, visible)` with the row's cells from the left (`size` of them, walls
/// outside the grid, the agent's own cell as the grid holds it) and which of them the agent
/// sees (bit `column`). Visibility is minigrid's `Grid.process_vis` (every cell when the agent
/// sees through walls): the agent's cell is seen; along a row, a seen cell that can be seen
/// behind shows its neighbours on the left and right, and the cells above it and above those
/// neighbours. A row's visibility depends only on the rows below it, so each row is read from
/// the grid once and is final when visited. Allocates nothing.
#[inline]
fn for_each_view_row(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    size: usize,
    see_through_walls: bool,
    mut visit: impl FnMut(usize, &[Cell], u64),
) {
    let n = size as i32;
    let (fx, fy) = direction.vector();
    let (rx, ry) = (-fy, fx);
    let mut cells = [Cell::EMPTY; MAX_VIEW_SIZE];
    let cells = &mut cells[..size];
    // The cells seen in the current row, as the rows below have propagated them.
    let mut seen: u64 = 1 << (size / 2);
    for row in (0..size).rev() {
        let forward = n - 1 - row as i32;
        let mut position = Position::new(
            agent.x + fx * forward - rx * (n / 2),
            agent.y + fy * forward - ry * (n / 2),
        );
        let mut see_behind: u64 = 0;
        for (column, cell) in cells.iter_mut().enumerate() {
            *cell = grid.get(position);
            see_behind |= u64::from(cell.see_behind()) << column;
            position = position.offset(rx, ry);
        }
        if see_through_walls {
            visit(row, cells, u64::MAX);
            continue;
        }
        let mut above: u64 = 0;
        for column in 0..size - 1 {
            if seen & see_behind & (1 << column) != 0 {
                seen |= 1 << (column + 1);
                above |= 0b11 << column;
            }
        }
        for column in (1..size).rev() {
            if seen & see_behind & (1 << column) != 0 {
                seen |= 1 << (column - 1);
                above |= 0b11 << (column - 1);
            }
        }
        visit(row, cells, seen);
        seen = above;
    }
}

/// Writes minigrid's `image` observation: `size x size x 3` bytes in numpy's C order (view
/// column first: byte `(column * size + row) * 3 + channel`), the agent at the middle of the
/// bottom row facing up, cells it cannot see `(0, 0, 0)` (unless `see_through_walls`), the
/// carried object (or an empty cell) at the agent's own cell. Allocates nothing.
///
/// The caller passes a valid view size (odd, 3 to [`MAX_VIEW_SIZE`]) and `size * size * 3`
/// entries; each byte is written as `from_byte` converts it (the byte itself into an image,
/// its number into a vector's flat row).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn write_image<T: Copy>(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    carrying: Cell,
    size: usize,
    see_through_walls: bool,
    out: &mut [T],
    from_byte: impl Fn(u8) -> T,
) {
    let out = &mut out[..size * size * 3];
    for_each_encoded(
        grid,
        agent,
        direction,
        carrying,
        size,
        see_through_walls,
        |column, row, bytes| {
            let at = (column * size + row) * 3;
            for (slot, byte) in out[at..at + 3].iter_mut().zip(bytes) {
                *slot = from_byte(byte);
            }
        },
    );
}

/// The number of entries of a one-hot cell (minigrid's `OneHotPartialObsWrapper`): 11
/// kinds, 6 colours and 3 states.
pub(crate) const ONE_HOT_BITS: usize = 11 + 6 + 3;

/// Writes minigrid's `OneHotPartialObsWrapper` image: the partial view's encoding (see
/// [`write_image`]) with each cell's kind, colour and state one-hot (`size x size x 20`
/// entries, view column first), each entry as `from_byte` converts 0 or 1. Allocates nothing.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_one_hot<T: Copy>(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    carrying: Cell,
    size: usize,
    see_through_walls: bool,
    out: &mut [T],
    from_byte: impl Fn(u8) -> T,
) {
    let out = &mut out[..size * size * ONE_HOT_BITS];
    let (zero, one) = (from_byte(0), from_byte(1));
    out.fill(zero);
    for_each_encoded(
        grid,
        agent,
        direction,
        carrying,
        size,
        see_through_walls,
        |column, row, [kind, color, state]| {
            let at = (column * size + row) * ONE_HOT_BITS;
            // minigrid writes out[i, j, index] = 1 for each index; an index past the cell's
            // entries (no cell encodes one) is left out rather than written elsewhere.
            for index in [
                usize::from(kind),
                11 + usize::from(color),
                17 + usize::from(state),
            ] {
                if index < ONE_HOT_BITS {
                    out[at + index] = one;
                }
            }
        },
    );
}

/// Calls `visit(column, row, encoding)` with each cell of minigrid's `image` observation (see
/// [`write_image`]).
#[inline]
fn for_each_encoded(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    carrying: Cell,
    size: usize,
    see_through_walls: bool,
    mut visit: impl FnMut(usize, usize, [u8; 3]),
) {
    for_each_view_row(
        grid,
        agent,
        direction,
        size,
        see_through_walls,
        |row, cells, seen| {
            for (column, &cell) in cells.iter().enumerate() {
                let bytes = if row == size - 1 && column == size / 2 {
                    carrying.encode()
                } else if seen & (1 << column) != 0 {
                    cell.encode()
                } else {
                    UNSEEN
                };
                visit(column, row, bytes);
            }
        },
    );
}

/// Writes the fully observed encoding (minigrid's `FullyObsWrapper`): the grid's encoding
/// (`width x height x 3`, column first) with the agent's cell replaced by
/// `(OBJECT_TO_IDX["agent"], COLOR_TO_IDX["red"], agent_dir)`.
pub(crate) fn write_full(grid: &Grid, agent: Position, direction: Direction, out: &mut [u8]) {
    grid.encode_into(out);
    if grid.contains(agent) {
        let at = (agent.x as usize * grid.height() + agent.y as usize) * 3;
        out[at..at + 3].copy_from_slice(&[
            ObjectKind::Agent.index(),
            Color::Red.index(),
            direction.index(),
        ]);
    }
}

/// Calls `visit` with every grid position the agent sees (minigrid's `get_full_render`
/// highlight: the cells of the view its visibility mask keeps, inside the grid; every cell of
/// the view when the agent sees through walls), from the agent's row of the view up.
pub(crate) fn for_each_visible(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    size: usize,
    see_through_walls: bool,
    mut visit: impl FnMut(Position),
) {
    let n = size as i32;
    for_each_view_row(
        grid,
        agent,
        direction,
        size,
        see_through_walls,
        |row, _, seen| {
            for column in 0..size {
                if seen & (1 << column) != 0 {
                    let position = world_position(agent, direction, n, column as i32, row as i32);
                    if grid.contains(position) {
                        visit(position);
                    }
                }
            }
        },
    );
}

/// Writes minigrid's `gen_obs_grid(size)`: the view's cells row by row (`cells[row * size +
/// column]`, row 0 the farthest from the agent, walls outside the grid, the cells the agent
/// does not see emptied unless it sees through walls (minigrid's `process_vis`), the carried
/// object or an empty cell at the agent's own cell, the middle of the bottom row) and which of them the
/// agent sees (bit `column` of `seen[row]`: minigrid's `vis_mask[column, row]`). Allocates
/// nothing.
///
/// The caller passes a valid view size and at least `size * size` cells and `size` masks.
#[allow(clippy::too_many_arguments)]
pub(crate) fn view_grid(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    carrying: Cell,
    size: usize,
    see_through_walls: bool,
    cells: &mut [Cell],
    seen: &mut [u64],
) {
    let all = if size >= 64 {
        u64::MAX
    } else {
        (1 << size) - 1
    };
    for_each_view_row(
        grid,
        agent,
        direction,
        size,
        see_through_walls,
        |row, row_cells, visible| {
            let visible = visible & all;
            // minigrid's process_vis empties the cells the agent does not see.
            for (column, (slot, &cell)) in cells[row * size..(row + 1) * size]
                .iter_mut()
                .zip(row_cells)
                .enumerate()
            {
                *slot = if see_through_walls || visible & (1 << column) != 0 {
                    cell
                } else {
                    Cell::EMPTY
                };
            }
            seen[row] = visible;
        },
    );
    cells[(size - 1) * size + size / 2] = carrying;
}

/// Which grid positions the agent sees (minigrid's `get_full_render` highlight mask), looked
/// up position by position from the view's rows kept on the stack: no allocation.
pub(crate) struct VisibleCells {
    seen: [u64; MAX_VIEW_SIZE],
    agent: Position,
    direction: Direction,
    size: usize,
}

impl VisibleCells {
    /// The cells seen from `agent` facing `direction` with a view of `size` (every cell of the
    /// view when the agent sees through walls).
    pub(crate) fn new(
        grid: &Grid,
        agent: Position,
        direction: Direction,
        size: usize,
        see_through_walls: bool,
    ) -> VisibleCells {
        let mut seen = [0; MAX_VIEW_SIZE];
        for_each_view_row(
            grid,
            agent,
            direction,
            size,
            see_through_walls,
            |row, _, visible| seen[row] = visible,
        );
        VisibleCells {
            seen,
            agent,
            direction,
            size,
        }
    }

    /// Whether the agent sees `position` (a position inside the grid).
    #[inline]
    pub(crate) fn contains(&self, position: Position) -> bool {
        let (fx, fy) = self.direction.vector();
        let (rx, ry) = (-fy, fx);
        let (dx, dy) = (position.x - self.agent.x, position.y - self.agent.y);
        let n = self.size as i32;
        let row = n - 1 - (dx * fx + dy * fy);
        let column = dx * rx + dy * ry + n / 2;
        (0..n).contains(&row)
            && (0..n).contains(&column)
            && self.seen[row as usize] & (1 << column) != 0
    }
}
