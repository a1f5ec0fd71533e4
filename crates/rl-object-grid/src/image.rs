//! What the observation's `image` holds ([`ImageKind`]): minigrid's partial view encoding, or
//! what one of minigrid's observation wrappers puts there instead (`FullyObsWrapper`,
//! `OneHotPartialObsWrapper`, `RGBImgPartialObsWrapper`, `RGBImgObsWrapper`), written by the
//! domain straight into a buffer or a vector's row, and minigrid's `get_frame` at any tile
//! size.

use serde::{Deserialize, Serialize};

use crate::MiniGrid;
use crate::frames::{TileKey, draw_tiles};
use crate::grid::Position;
use crate::object::Cell;
use crate::state::{Direction, MiniGridState};
use crate::view::{
    MAX_VIEW_SIZE, ONE_HOT_BITS, VisibleCells, view_grid, write_image, write_one_hot,
};

/// The largest tile size of the RGB images (minigrid takes any; 128 pixels a cell already
/// makes a 7 by 7 view 896 pixels a side).
pub const MAX_TILE_SIZE: usize = 128;

/// The most bytes one observation's image may take (16 MiB): a larger grid times tile size is
/// refused before anything is allocated (a vector holds one per environment).
pub const MAX_IMAGE_BYTES: usize = 16 << 20;

/// What the observation's `image` holds: the environment's own partial view (minigrid's
/// observation), or what a minigrid observation wrapper replaces it with. The `direction`
/// and the `mission` stay as they are, as they do under the wrappers.
///
/// In JSON, the parameter `image` is `"partial"` (the default), `"full"`, `"one_hot"`,
/// `"rgb_partial"` or `"rgb_full"`; the RGB images' tile size is the parameter
/// `image_tile_size` (8, the wrappers' default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageKind {
    /// minigrid's observation: the partial view's encoding, `(view, view, 3)`.
    #[default]
    Partial,
    /// `FullyObsWrapper`: the whole grid's encoding with the agent as `(10, 0, direction)`,
    /// `(width, height, 3)`.
    Full,
    /// `OneHotPartialObsWrapper`: the partial view with each cell's kind, colour and state
    /// one-hot, `(view, view, 20)`.
    OneHot,
    /// `RGBImgPartialObsWrapper(tile_size)`: the partial view drawn by the tile renderer from
    /// the agent's point of view (`get_frame(agent_pov=True)`), `(view * tile, view * tile,
    /// 3)`.
    RgbPartial,
    /// `RGBImgObsWrapper(tile_size)`: the whole grid drawn by the tile renderer with the seen
    /// cells highlighted as the environment's `highlight` says (`get_frame(highlight)`),
    /// `(height * tile, width * tile, 3)`.
    RgbFull,
}

impl ImageKind {
    /// The shape of the image for a grid of `width` by `height`, a view of `view` and tiles of
    /// `tile` pixels.
    pub fn shape(self, width: usize, height: usize, view: usize, tile: usize) -> [usize; 3] {
        match self {
            ImageKind::Partial => [view, view, 3],
            ImageKind::Full => [width, height, 3],
            ImageKind::OneHot => [view, view, ONE_HOT_BITS],
            ImageKind::RgbPartial => [view * tile, view * tile, 3],
            ImageKind::RgbFull => [height * tile, width * tile, 3],
        }
    }

    /// Whether the image is drawn by the tile renderer.
    pub fn is_rgb(self) -> bool {
        matches!(self, ImageKind::RgbPartial | ImageKind::RgbFull)
    }
}

impl MiniGrid {
    /// The kind of image the observations hold.
    pub fn image_kind(&self) -> ImageKind {
        self.params().image
    }

    /// The shape of the observation's image.
    pub fn image_shape(&self) -> [usize; 3] {
        let (width, height) = self.grid_size();
        self.image_kind().shape(
            width,
            height,
            self.view_size(),
            self.params().image_tile_size,
        )
    }

    /// Writes the observation's image of `state` (as [`image_kind`](Self::image_kind) says)
    /// into `out`, each byte as `from_byte` converts it, allocating nothing (after the first
    /// RGB image of a tile size on a thread, whose tiles it draws once).
    ///
    /// The caller passes `out` of exactly the image's length.
    pub(crate) fn write_observation_image<T: Copy>(
        &self,
        state: &MiniGridState,
        out: &mut [T],
        from_byte: impl Fn(u8) -> T + Copy,
    ) {
        let size = self.view_size();
        let see_through_walls = self.see_through_walls();
        match self.image_kind() {
            ImageKind::Partial => write_image(
                &state.grid,
                state.agent,
                state.direction,
                state.carrying,
                size,
                see_through_walls,
                out,
                from_byte,
            ),
            ImageKind::OneHot => write_one_hot(
                &state.grid,
                state.agent,
                state.direction,
                state.carrying,
                size,
                see_through_walls,
                out,
                from_byte,
            ),
            ImageKind::Full => {
                let full = &mut out[..state.grid.width() * state.grid.height() * 3];
                write_full_with(&state.grid, state.agent, state.direction, full, from_byte);
            }
            ImageKind::RgbPartial => {
                self.write_pov_frame(state, self.params().image_tile_size, out, from_byte)
            }
            ImageKind::RgbFull => self.write_full_frame(
                state,
                self.params().image_tile_size,
                self.params().highlight,
                out,
                from_byte,
            ),
        }
    }

    /// minigrid's `get_full_render(highlight, tile_size)`: the whole grid drawn at `tile`
    /// pixels a cell (`height * tile` rows of `width * tile` pixels, 3 entries a pixel), the
    /// agent on its cell, the cells it sees lightened when `highlight`; each byte written as
    /// `from_byte` converts it. Allocates nothing after the tiles of the size are drawn.
    ///
    /// The caller passes `out` of exactly the frame's length and `tile >= 1`.
    pub fn write_full_frame<T: Copy>(
        &self,
        state: &MiniGridState,
        tile: usize,
        highlight: bool,
        out: &mut [T],
        from_byte: impl Fn(u8) -> T,
    ) {
        let grid = &state.grid;
        let visible = VisibleCells::new(
            grid,
            state.agent,
            state.direction,
            self.view_size(),
            self.see_through_walls(),
        );
        let key = |column: usize, row: usize| -> TileKey {
            let position = Position::new(column as i32, row as i32);
            (
                grid.get(position).encode(),
                (position == state.agent).then(|| state.direction.index()),
                highlight && visible.contains(position),
            )
        };
        draw_tiles(grid.width(), grid.height(), tile, tile, key, out, from_byte);
    }

    /// minigrid's `get_pov_render(tile_size)`: the agent's view (`gen_obs_grid()`) drawn at
    /// `tile` pixels a cell, the agent at the middle of the bottom row facing up over what it
    /// carries, the cells it sees lightened; each byte written as `from_byte` converts it.
    /// Allocates nothing after the tiles of the size are drawn.
    ///
    /// The caller passes `out` of exactly `(view * tile)^2 * 3` entries and `tile >= 1`.
    pub fn write_pov_frame<T: Copy>(
        &self,
        state: &MiniGridState,
        tile: usize,
        out: &mut [T],
        from_byte: impl Fn(u8) -> T,
    ) {
        let size = self.view_size();
        let mut cells = [Cell::EMPTY; MAX_VIEW_SIZE * MAX_VIEW_SIZE];
        let mut seen = [0_u64; MAX_VIEW_SIZE];
        view_grid(
            &state.grid,
            state.agent,
            state.direction,
            state.carrying,
            size,
            self.see_through_walls(),
            &mut cells,
            &mut seen,
        );
        let key = |column: usize, row: usize| -> TileKey {
            let agent_here = row == size - 1 && column == size / 2;
            (
                cells[row * size + column].encode(),
                agent_here.then_some(Direction::Up.index()),
                seen[row] & (1 << column) != 0,
            )
        };
        draw_tiles(size, size, tile, tile, key, out, from_byte);
    }

    /// minigrid's `gen_obs_grid(size)` of `state`: the view's cells row by row (`size * size`,
    /// row 0 the farthest, the carried object or an empty cell at the agent's cell) and which
    /// of them the agent sees (`mask[row * size + column]`, minigrid's `vis_mask[column,
    /// row]`). `size` is a view size (odd, 3 to [`MAX_VIEW_SIZE`]); another is `None`.
    pub fn view_grid(&self, state: &MiniGridState, size: usize) -> Option<(Vec<Cell>, Vec<bool>)> {
        if size < 3 || size % 2 == 0 || size > MAX_VIEW_SIZE {
            return None;
        }
        let mut cells = vec![Cell::EMPTY; size * size];
        let mut seen = [0_u64; MAX_VIEW_SIZE];
        view_grid(
            &state.grid,
            state.agent,
            state.direction,
            state.carrying,
            size,
            self.see_through_walls(),
            &mut cells,
            &mut seen,
        );
        let mask = (0..size * size)
            .map(|at| seen[at / size] & (1 << (at % size)) != 0)
            .collect();
        Some((cells, mask))
    }
}

/// minigrid's `FullyObsWrapper` image (the grid's encoding, column first, with the agent's
/// cell `(10, 0, direction)`) with each byte converted by `from_byte`.
fn write_full_with<T: Copy>(
    grid: &crate::grid::Grid,
    agent: Position,
    direction: Direction,
    out: &mut [T],
    from_byte: impl Fn(u8) -> T,
) {
    let height = grid.height();
    for x in 0..grid.width() {
        for y in 0..height {
            let position = Position::new(x as i32, y as i32);
            let bytes = if position == agent {
                [
                    crate::object::ObjectKind::Agent.index(),
                    crate::object::Color::Red.index(),
                    direction.index(),
                ]
            } else {
                grid.get(position).encode()
            };
            let at = (x * height + y) * 3;
            for (slot, byte) in out[at..at + 3].iter_mut().zip(bytes) {
                *slot = from_byte(byte);
            }
        }
    }
}
