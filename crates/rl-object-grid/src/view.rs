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

/// minigrid's `Grid.process_vis` over the view: which view cells the agent sees, as one
/// bit mask per view row (bit `column`).
fn visibility(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    size: usize,
    mask: &mut [u64; MAX_VIEW_SIZE],
) {
    let n = size as i32;
    let see_behind = |column: i32, row: i32| {
        grid.get(world_position(agent, direction, n, column, row))
            .see_behind()
    };
    mask[..size].fill(0);
    mask[size - 1] |= 1 << (size / 2);
    for row in (0..n).rev() {
        let r = row as usize;
        for column in 0..n - 1 {
            if mask[r] & (1 << column) == 0 || !see_behind(column, row) {
                continue;
            }
            mask[r] |= 1 << (column + 1);
            if row > 0 {
                mask[r - 1] |= (1 << (column + 1)) | (1 << column);
            }
        }
        for column in (1..n).rev() {
            if mask[r] & (1 << column) == 0 || !see_behind(column, row) {
                continue;
            }
            mask[r] |= 1 << (column - 1);
            if row > 0 {
                mask[r - 1] |= (1 << (column - 1)) | (1 << column);
            }
        }
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
    let mut mask = [u64::MAX; MAX_VIEW_SIZE];
    if !see_through_walls {
        visibility(grid, agent, direction, size, &mut mask);
    }
    let n = size as i32;
    for column in 0..n {
        for row in 0..n {
            let at = (column as usize * size + row as usize) * 3;
            let bytes = if column == n / 2 && row == n - 1 {
                carrying.encode()
            } else if mask[row as usize] & (1 << column) != 0 {
                grid.get(world_position(agent, direction, n, column, row))
                    .encode()
            } else {
                UNSEEN
            };
            for (slot, byte) in out[at..at + 3].iter_mut().zip(bytes) {
                *slot = from_byte(byte);
            }
        }
    }
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
/// the view when the agent sees through walls).
pub(crate) fn for_each_visible(
    grid: &Grid,
    agent: Position,
    direction: Direction,
    size: usize,
    see_through_walls: bool,
    mut visit: impl FnMut(Position),
) {
    let mut mask = [u64::MAX; MAX_VIEW_SIZE];
    if !see_through_walls {
        visibility(grid, agent, direction, size, &mut mask);
    }
    let n = size as i32;
    for row in 0..n {
        for column in 0..n {
            if mask[row as usize] & (1 << column) != 0 {
                let position = world_position(agent, direction, n, column, row);
                if grid.contains(position) {
                    visit(position);
                }
            }
        }
    }
}
