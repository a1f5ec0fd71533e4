//! GridWorld's frame (RLPy's `showDomain` as an image): one square per cell coloured by its
//! kind (empty white, blocked black, start pale yellow, goal green, pit red, the colours of
//! the SVG picture), thin grey lines between cells, and the agent as a blue disc.

use rl_core::{Frame, RenderFrame};

use super::canvas::{self, Rgb, YAxis};
use crate::gridworld::{CellKind, GridCell, GridWorld};

/// The side of a cell in GridWorld's natural frame size, in pixels.
pub const GRID_CELL_PIXELS: u32 = 48;

/// The smallest cell side, in pixels, on which the grid worlds' frames draw lines between
/// cells: on smaller cells (maps of hundreds of cells a side) the lines would cover the map.
pub const MIN_CELL_PIXELS_FOR_LINES: u32 = 4;

/// Whether a grid of `rows` by `cols` cells drawn over all of `frame` has cells of at least
/// [`MIN_CELL_PIXELS_FOR_LINES`] pixels a side.
pub(crate) fn cells_wide_enough_for_lines(frame: &Frame, rows: usize, cols: usize) -> bool {
    let fits = |pixels: u32, count: usize| {
        (pixels as usize) >= count.saturating_mul(MIN_CELL_PIXELS_FOR_LINES as usize)
    };
    fits(frame.width(), cols) && fits(frame.height(), rows)
}

/// The largest side of a GridWorld frame, in pixels: RLPy draws its grid in one fixed-size
/// figure whatever the map, so a map of more than 21 cells a side gets cells smaller than
/// [`GRID_CELL_PIXELS`] rather than a larger frame (at most 3 MiB of RGB for the largest map,
/// 1024 by 1024 cells).
pub const GRID_MAX_FRAME_SIDE: u32 = 1024;

/// The colour of an empty cell.
pub const EMPTY: Rgb = [255, 255, 255];
/// The colour of a blocked cell.
pub const BLOCKED: Rgb = [0, 0, 0];
/// The colour of the start cell.
pub const START: Rgb = [255, 243, 176];
/// The colour of a goal cell.
pub const GOAL: Rgb = [44, 160, 44];
/// The colour of a pit cell.
pub const PIT: Rgb = [214, 39, 40];
/// The colour of the lines between cells.
pub const GRID_LINE: Rgb = [85, 85, 85];
/// The colour of the agent.
pub const AGENT: Rgb = [31, 119, 180];

/// The colour of a cell of `kind`.
pub fn cell_colour(kind: CellKind) -> Rgb {
    match kind {
        CellKind::Empty => EMPTY,
        CellKind::Blocked => BLOCKED,
        CellKind::Start => START,
        CellKind::Goal => GOAL,
        CellKind::Pit => PIT,
    }
}

/// The centre of `cell` in a `width` by `height` frame of `domain`, in pixels from the
/// top-left corner (for tests and overlays).
pub fn cell_centre(domain: &GridWorld, cell: GridCell, width: u32, height: u32) -> (f64, f64) {
    let cell_width = f64::from(width) / domain.map().cols() as f64;
    let cell_height = f64::from(height) / domain.map().rows() as f64;
    (
        (cell.col as f64 + 0.5) * cell_width,
        (cell.row as f64 + 0.5) * cell_height,
    )
}

impl RenderFrame for GridWorld {
    /// [`GRID_CELL_PIXELS`] per cell: 240 by 192 for the 4 by 5 map, at most
    /// [`GRID_MAX_FRAME_SIDE`] a side (a larger map gets smaller cells).
    fn frame_size(&self) -> (u32, u32) {
        let side = |count: usize| {
            u32::try_from(count)
                .unwrap_or(u32::MAX)
                .saturating_mul(GRID_CELL_PIXELS)
                .clamp(1, GRID_MAX_FRAME_SIDE)
        };
        (side(self.map().cols()), side(self.map().rows()))
    }

    /// The map (each cell coloured by its kind, with lines between cells while cells are at
    /// least [`MIN_CELL_PIXELS_FOR_LINES`] pixels a side) and the agent.
    fn draw_frame(&self, state: &GridCell, frame: &mut Frame) {
        let map = self.map();
        let (rows, cols) = (map.rows() as f64, map.cols() as f64);
        let lines_show = cells_wide_enough_for_lines(frame, map.rows(), map.cols());
        canvas::draw(frame, cols, rows, YAxis::Down, |painter| {
            painter.clear(EMPTY);
            // Cells of the background's colour are already drawn (most of a large map).
            for (index, kind) in map.cells().iter().enumerate() {
                let colour = cell_colour(*kind);
                if colour != EMPTY {
                    let (row, col) = ((index / map.cols()) as f64, (index % map.cols()) as f64);
                    painter.rectangle(col, row, col + 1.0, row + 1.0, colour);
                }
            }
            // Lines between cells only while cells are wider than a line: on a map with
            // cells of a few pixels, they would paint it grey.
            if lines_show {
                for row in 0..=map.rows() {
                    painter.polyline(&[(0.0, row as f64), (cols, row as f64)], GRID_LINE);
                }
                for col in 0..=map.cols() {
                    painter.polyline(&[(col as f64, 0.0), (col as f64, rows)], GRID_LINE);
                }
            }
            if map.contains(*state) {
                let (x, y) = (state.col as f64 + 0.5, state.row as f64 + 0.5);
                painter.disc(x, y, 0.3, AGENT);
            }
        });
    }
}
