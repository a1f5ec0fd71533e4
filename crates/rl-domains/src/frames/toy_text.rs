//! The toy-text environments' frames: schematic pictures, not Gymnasium's sprites (which its
//! `rgb_array` draws with pygame from image files). The grid worlds (FrozenLake, CliffWalking,
//! Taxi) are one square per cell coloured by its kind, with thin grey lines between cells and
//! the agent as a disc, [`TOY_CELL_PIXELS`] per cell (Gymnasium's own cell size for
//! FrozenLake and CliffWalking is 64 pixels too); Blackjack is a green table with one card per
//! card in each hand, the dealer's (cream) row above the player's (white).

use rl_core::Frame;

use super::canvas::{self, Rgb, YAxis};

/// The side of a cell of a toy-text grid's natural frame, in pixels.
pub const TOY_CELL_PIXELS: u32 = 64;

/// The colour of open ground (FrozenLake's frozen cells, CliffWalking's path, Taxi's road).
pub const GROUND: Rgb = [204, 229, 255];
/// The colour of a start cell.
pub const START: Rgb = [255, 243, 176];
/// The colour of a goal cell.
pub const GOAL: Rgb = [44, 160, 44];
/// The colour of a hole or of the cliff.
pub const HAZARD: Rgb = [40, 40, 60];
/// The colour of the lines between cells.
pub const GRID_LINE: Rgb = [85, 85, 85];
/// The colour of the agent (the taxi, the player).
pub const AGENT: Rgb = [214, 39, 40];
/// The colour of Blackjack's table.
pub const TABLE: Rgb = [30, 110, 60];
/// The colour of a player's card.
pub const CARD: Rgb = [250, 250, 250];
/// The colour of a dealer's card.
pub const DEALER_CARD: Rgb = [250, 226, 160];

/// The natural size of a grid of `rows` by `cols` cells: [`TOY_CELL_PIXELS`] per cell, at
/// most the largest frame side.
pub(crate) fn grid_size(rows: usize, cols: usize) -> (u32, u32) {
    let side = |count: usize| {
        u32::try_from(count)
            .unwrap_or(u32::MAX)
            .saturating_mul(TOY_CELL_PIXELS)
            .clamp(1, rl_core::MAX_FRAME_SIDE)
    };
    (side(cols), side(rows))
}

/// Draws a grid of `rows` by `cols` cells over the whole of `frame`: cell `index` (row-major)
/// in `colour(index)`, the lines between cells, then `marks` (each a cell index and a colour:
/// a disc in that cell, the agent last so that it shows on top).
pub(crate) fn draw_grid(
    frame: &mut Frame,
    rows: usize,
    cols: usize,
    colour: impl Fn(usize) -> Rgb,
    marks: &[(usize, Rgb, f64)],
) {
    let (height, width) = (rows.max(1) as f64, cols.max(1) as f64);
    canvas::draw(frame, width, height, YAxis::Down, |painter| {
        painter.clear(GROUND);
        for index in 0..rows * cols {
            let (row, col) = ((index / cols) as f64, (index % cols) as f64);
            painter.rectangle(col, row, col + 1.0, row + 1.0, colour(index));
        }
        for row in 0..=rows {
            painter.polyline(&[(0.0, row as f64), (width, row as f64)], GRID_LINE);
        }
        for col in 0..=cols {
            painter.polyline(&[(col as f64, 0.0), (col as f64, height)], GRID_LINE);
        }
        for &(index, mark, radius) in marks {
            if index < rows * cols {
                let (row, col) = ((index / cols) as f64, (index % cols) as f64);
                painter.disc(col + 0.5, row + 0.5, radius, mark);
            }
        }
    });
}

/// Blackjack's natural frame size: room for 8 cards in a row.
pub const BLACKJACK_FRAME: (u32, u32) = (600, 400);

/// Draws a Blackjack table over the whole of `frame`: `dealer` cards in the upper row and
/// `player` cards in the lower one (at most 8 shown per row), each card a rectangle (the
/// dealer's cream, the player's white) whose height grows with its value (1 to 10, an ace
/// being 1).
pub(crate) fn draw_blackjack(frame: &mut Frame, dealer: &[u8], player: &[u8]) {
    canvas::draw(frame, 8.0, 2.0, YAxis::Down, |painter| {
        painter.clear(TABLE);
        for (row, (cards, colour)) in [(dealer, DEALER_CARD), (player, CARD)]
            .into_iter()
            .enumerate()
        {
            for (slot, value) in cards.iter().take(8).enumerate() {
                let left = slot as f64 + 0.1;
                let bottom = row as f64 + 0.9;
                let height = 0.2 + 0.6 * f64::from((*value).clamp(1, 10)) / 10.0;
                painter.rectangle(left, bottom - height, left + 0.8, bottom, colour);
            }
        }
    });
}

impl rl_core::RenderFrame for crate::toy_text::frozen_lake::FrozenLake {
    /// [`TOY_CELL_PIXELS`] per cell: 256 by 256 for the 4 by 4 map.
    fn frame_size(&self) -> (u32, u32) {
        grid_size(self.rows(), self.cols())
    }

    /// The map (start pale yellow, frozen light blue, holes dark, the goal green) and the
    /// agent.
    fn draw_frame(&self, state: &i64, frame: &mut Frame) {
        use crate::toy_text::frozen_lake::Tile;
        let colour = |index: usize| match self.tile(index as i64) {
            Some(Tile::Start) => START,
            Some(Tile::Hole) => HAZARD,
            Some(Tile::Goal) => GOAL,
            Some(Tile::Frozen) | None => GROUND,
        };
        // A state off the grid (never reached) draws no agent.
        let marks = [(usize::try_from(*state).unwrap_or(usize::MAX), AGENT, 0.3)];
        draw_grid(frame, self.rows(), self.cols(), colour, &marks);
    }
}

impl rl_core::RenderFrame for crate::toy_text::cliff_walking::CliffWalking {
    /// [`TOY_CELL_PIXELS`] per cell: 768 by 256.
    fn frame_size(&self) -> (u32, u32) {
        use crate::toy_text::cliff_walking::{COLS, ROWS};
        grid_size(ROWS, COLS)
    }

    /// The grid (the cliff dark, the start pale yellow, the goal green) and the agent.
    fn draw_frame(&self, state: &i64, frame: &mut Frame) {
        use crate::toy_text::cliff_walking::{COLS, GOAL_STATE, ROWS, START_STATE, is_cliff};
        let colour = |index: usize| {
            let (row, col) = (index / COLS, index % COLS);
            if is_cliff(row, col) {
                HAZARD
            } else if index as i64 == START_STATE {
                START
            } else if index as i64 == GOAL_STATE {
                GOAL
            } else {
                GROUND
            }
        };
        // A state off the grid (never reached) draws no agent.
        let marks = [(usize::try_from(*state).unwrap_or(usize::MAX), AGENT, 0.3)];
        draw_grid(frame, ROWS, COLS, colour, &marks);
    }
}

impl rl_core::RenderFrame for crate::toy_text::taxi::Taxi {
    /// [`TOY_CELL_PIXELS`] per cell: 320 by 320.
    fn frame_size(&self) -> (u32, u32) {
        grid_size(5, 5)
    }

    /// The 5 by 5 grid with the four locations (the destination green, the others pale
    /// yellow), the passenger as a small dark disc where they wait, and the taxi (red,
    /// larger when the passenger is in it). The walls of Gymnasium's map are not drawn.
    fn draw_frame(&self, state: &crate::toy_text::taxi::TaxiState, frame: &mut Frame) {
        use crate::toy_text::taxi::{IN_TAXI, TAXI_LOCATIONS};
        let parts = state.components();
        let cell = |(row, col): (usize, usize)| row * 5 + col;
        let destination = TAXI_LOCATIONS.get(parts.destination).copied().map(cell);
        let colour = |index: usize| {
            if Some(index) == destination {
                GOAL
            } else if TAXI_LOCATIONS.iter().any(|&place| cell(place) == index) {
                START
            } else {
                GROUND
            }
        };
        let taxi = cell((parts.taxi_row, parts.taxi_col));
        let waiting = TAXI_LOCATIONS
            .get(parts.passenger)
            .copied()
            .map_or(usize::MAX, cell);
        let carrying = parts.passenger == IN_TAXI;
        let marks = [
            (waiting, HAZARD, 0.18),
            (taxi, AGENT, if carrying { 0.4 } else { 0.3 }),
        ];
        draw_grid(frame, 5, 5, colour, &marks);
    }
}

impl rl_core::RenderFrame for crate::toy_text::blackjack::Blackjack {
    /// [`BLACKJACK_FRAME`]: 600 by 400.
    fn frame_size(&self) -> (u32, u32) {
        BLACKJACK_FRAME
    }

    /// The dealer's cards above the player's (the dealer's face-down card shown until the
    /// player sticks, as every card is: this picture is schematic).
    fn draw_frame(&self, state: &crate::toy_text::blackjack::BlackjackState, frame: &mut Frame) {
        draw_blackjack(frame, state.dealer.cards(), state.player.cards());
    }
}
