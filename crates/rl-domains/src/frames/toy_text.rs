//! The toy-text environments' frames: pictures of our own drawing, not Gymnasium's sprites
//! (which its `rgb_array` draws with pygame from image files). The grid worlds (FrozenLake,
//! CliffWalking, Taxi) are one square per cell coloured by its kind, with thin grey lines
//! between cells and the agent as a disc, [`TOY_CELL_PIXELS`] per cell (Gymnasium's own cell
//! size for FrozenLake and CliffWalking is 64 pixels too). Taxi adds its walls, its four
//! coloured stands lettered R, G, Y and B, the destination framed in its stand's colour, the
//! passenger and a taxi. Blackjack is a green table with the dealer's cards above the
//! player's, each card showing its rank (A, 2 to 10, and J, Q or K for the dealer's face-up
//! card when Gymnasium dealt a face card) in the bitmap font of [`font`](super::font), the
//! dealer's second card face down until the player sticks, and each hand's sum.

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
/// in `colour(index)`, the lines between cells (while cells are at least
/// [`MIN_CELL_PIXELS_FOR_LINES`](super::gridworld::MIN_CELL_PIXELS_FOR_LINES) pixels a side), then `marks` (each a cell index and a colour:
/// a disc in that cell, the agent last so that it shows on top).
pub(crate) fn draw_grid(
    frame: &mut Frame,
    rows: usize,
    cols: usize,
    colour: impl Fn(usize) -> Rgb,
    marks: &[(usize, Rgb, f64)],
) {
    let (height, width) = (rows.max(1) as f64, cols.max(1) as f64);
    let lines_show = super::gridworld::cells_wide_enough_for_lines(frame, rows, cols);
    canvas::draw(frame, width, height, YAxis::Down, |painter| {
        painter.clear(GROUND);
        // Cells of the background's colour are already drawn (most of a large map).
        for index in 0..rows * cols {
            let cell = colour(index);
            if cell != GROUND {
                let (row, col) = ((index / cols) as f64, (index % cols) as f64);
                painter.rectangle(col, row, col + 1.0, row + 1.0, cell);
            }
        }
        if lines_show {
            for row in 0..=rows {
                painter.hairline((0.0, row as f64), (width, row as f64), GRID_LINE);
            }
            for col in 0..=cols {
                painter.hairline((col as f64, 0.0), (col as f64, height), GRID_LINE);
            }
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
/// The colour of a card's back (the dealer's face-down card).
pub const CARD_BACK: Rgb = [40, 70, 160];
/// The colour of the ranks on the cards.
pub const INK: Rgb = [20, 20, 20];
/// The colour of the labels on the table.
pub const LABEL: Rgb = [240, 240, 240];
/// The width and height of a card, in pixels of [`BLACKJACK_FRAME`].
pub const CARD_SIZE: (f64, f64) = (64.0, 96.0);
/// The side of a dot of a card's large rank, in pixels of [`BLACKJACK_FRAME`] (the rank is
/// 5 dots wide and 7 high, [`font`](super::font)).
pub const RANK_DOT: f64 = 5.0;
/// The most cards drawn in a row (a hand holds at most 11; more than 8 never fit in 21).
const CARDS_PER_ROW: usize = 8;

/// The top-left corner of card `slot` of the dealer's row (`row` 0) or the player's (1), in
/// pixels of [`BLACKJACK_FRAME`].
pub fn card_corner(row: usize, slot: usize) -> (f64, f64) {
    (20.0 + 72.0 * slot as f64, 60.0 + 190.0 * row as f64)
}

/// The top-left corner of the large rank of a card whose corner is `corner` and whose rank
/// has `characters` characters (centred on the card), in pixels of [`BLACKJACK_FRAME`].
pub fn rank_corner(corner: (f64, f64), characters: usize) -> (f64, f64) {
    let width = super::font::text_width(characters, RANK_DOT);
    let height = super::font::GLYPH_HEIGHT as f64 * RANK_DOT;
    (
        corner.0 + (CARD_SIZE.0 - width) / 2.0,
        corner.1 + (CARD_SIZE.1 - height) / 2.0,
    )
}

/// The rank written on a card of value `value` (1 to 10): `A` for an ace, else the number,
/// or the face's letter when `face` says which face card a 10 is.
pub fn card_rank(value: u8, face: Option<crate::toy_text::blackjack::FaceCard>) -> &'static str {
    use crate::toy_text::blackjack::FaceCard;
    const NUMBERS: [&str; 11] = ["?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
    match (value, face) {
        (10, Some(FaceCard::Jack)) => "J",
        (10, Some(FaceCard::Queen)) => "Q",
        (10, Some(FaceCard::King)) => "K",
        _ => NUMBERS.get(usize::from(value)).copied().unwrap_or("?"),
    }
}

/// Draws a Blackjack table over the whole of `frame` (see [`RenderFrame`] for Blackjack).
///
/// [`RenderFrame`]: rl_core::RenderFrame
pub(crate) fn draw_blackjack(
    frame: &mut Frame,
    state: &crate::toy_text::blackjack::BlackjackState,
) {
    use super::font::{decimal, draw_text, text_width};
    let (width, height) = BLACKJACK_FRAME;
    canvas::draw(
        frame,
        f64::from(width),
        f64::from(height),
        YAxis::Down,
        |painter| {
            painter.clear(TABLE);
            let hands = [
                (&state.dealer, DEALER_CARD, "DEALER"),
                (&state.player, CARD, "PLAYER"),
            ];
            for (row, (hand, colour, label)) in hands.into_iter().enumerate() {
                let (left, top) = card_corner(row, 0);
                // The label and the sum the player can see: the dealer's face-up card until the
                // player sticks, then the dealer's whole hand.
                let shown = if row == 0 && !state.stuck {
                    i64::from(hand.first())
                } else {
                    hand.value()
                };
                let mut digits = [0; 20];
                let sum = decimal(shown.unsigned_abs(), &mut digits);
                draw_text(painter, (left, top - 40.0), 4.0, label, LABEL);
                let after_label = left + text_width(label.len() + 1, 4.0) + 4.0;
                draw_text(painter, (after_label, top - 40.0), 4.0, sum, LABEL);
                for (slot, value) in hand.cards().iter().take(CARDS_PER_ROW).enumerate() {
                    let corner = card_corner(row, slot);
                    let (x, y) = corner;
                    if row == 0 && slot == 1 && !state.stuck {
                        // The face-down card: a back with a lighter inner frame.
                        painter.rectangle(x, y, x + CARD_SIZE.0, y + CARD_SIZE.1, CARD_BACK);
                        painter.rectangle(x + 6.0, y + 6.0, x + CARD_SIZE.0 - 6.0, y + 10.0, LABEL);
                        painter.rectangle(
                            x + 6.0,
                            y + CARD_SIZE.1 - 10.0,
                            x + CARD_SIZE.0 - 6.0,
                            y + CARD_SIZE.1 - 6.0,
                            LABEL,
                        );
                        continue;
                    }
                    painter.rectangle(x, y, x + CARD_SIZE.0, y + CARD_SIZE.1, colour);
                    let face = if row == 0 && slot == 0 {
                        state.dealer_top_card_face
                    } else {
                        None
                    };
                    let rank = card_rank(*value, face);
                    draw_text(painter, (x + 4.0, y + 4.0), 2.0, rank, INK);
                    draw_text(
                        painter,
                        rank_corner(corner, rank.len()),
                        RANK_DOT,
                        rank,
                        INK,
                    );
                }
            }
        },
    );
}

/// The largest side of FrozenLake's frame, in pixels: Gymnasium's window is
/// `min(64 * ncol, 512)` by `min(64 * nrow, 512)` whatever the map, so a larger map gets smaller
/// cells, not a larger frame.
pub const FROZEN_LAKE_MAX_SIDE: u32 = 512;

impl rl_core::RenderFrame for crate::toy_text::frozen_lake::FrozenLake {
    /// [`TOY_CELL_PIXELS`] per cell up to Gymnasium's bound of [`FROZEN_LAKE_MAX_SIDE`] a side:
    /// 256 by 256 for the 4 by 4 map, 512 by 512 for 8 by 8 and for every larger map.
    fn frame_size(&self) -> (u32, u32) {
        let (width, height) = grid_size(self.rows(), self.cols());
        (
            width.min(FROZEN_LAKE_MAX_SIDE),
            height.min(FROZEN_LAKE_MAX_SIDE),
        )
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

/// The colours of Taxi's four stands R, G, Y and B, in Gymnasium's order
/// ([`TAXI_LOCATIONS`](crate::toy_text::taxi::TAXI_LOCATIONS)).
pub const TAXI_STAND_COLOURS: [Rgb; 4] =
    [[220, 50, 50], [40, 160, 60], [225, 190, 30], [50, 90, 210]];
/// The letters of Taxi's four stands.
pub const TAXI_STAND_LETTERS: [&str; 4] = ["R", "G", "Y", "B"];
/// The colour of Taxi's walls and outer border.
pub const WALL: Rgb = [30, 30, 30];
/// The colour of the taxi.
pub const TAXI_BODY: Rgb = [250, 180, 0];
/// The colour of the passenger.
pub const PASSENGER: Rgb = [150, 40, 160];
/// The thickness of Taxi's walls, in cells.
pub const WALL_THICKNESS: f64 = 0.1;
/// The thickness of the frame around the destination, in cells.
pub const DESTINATION_FRAME: f64 = 0.1;

/// The pale tint of a stand's cell: its colour mixed with white, one part in three.
pub fn stand_tint(colour: Rgb) -> Rgb {
    colour.map(|channel| ((u16::from(channel) + 2 * 255) / 3) as u8)
}

/// Whether Gymnasium's Taxi map has a wall between cell `(row, col)` and the cell on its
/// right (the map's `|` between them).
pub fn taxi_wall_right_of(row: usize, col: usize) -> bool {
    use crate::toy_text::taxi::TAXI_MAP;
    TAXI_MAP
        .get(row + 1)
        .and_then(|line| line.as_bytes().get(2 * col + 2))
        == Some(&b'|')
        && col + 1 < crate::toy_text::taxi::TAXI_GRID_SIZE
}

impl rl_core::RenderFrame for crate::toy_text::taxi::Taxi {
    /// [`TOY_CELL_PIXELS`] per cell: 320 by 320.
    fn frame_size(&self) -> (u32, u32) {
        grid_size(5, 5)
    }

    /// The 5 by 5 road with Gymnasium's walls (thick dark lines, and the border), the four
    /// stands tinted in their colours ([`TAXI_STAND_COLOURS`]) and lettered in their top-left
    /// corner, the destination framed in its stand's full colour, the passenger (a purple
    /// figure) at their stand, and the taxi (an amber car with dark wheels) carrying the
    /// passenger in its window once picked up.
    fn draw_frame(&self, state: &crate::toy_text::taxi::TaxiState, frame: &mut Frame) {
        use crate::toy_text::taxi::{IN_TAXI, TAXI_GRID_SIZE as SIDE, TAXI_LOCATIONS};
        let parts = state.components();
        let size = SIDE as f64;
        canvas::draw(frame, size, size, YAxis::Down, |painter| {
            painter.clear(GROUND);
            for (stand, &(row, col)) in TAXI_LOCATIONS.iter().enumerate() {
                let (x, y) = (col as f64, row as f64);
                painter.rectangle(
                    x,
                    y,
                    x + 1.0,
                    y + 1.0,
                    stand_tint(TAXI_STAND_COLOURS[stand]),
                );
            }
            for line in 0..=SIDE {
                let at = line as f64;
                painter.hairline((0.0, at), (size, at), GRID_LINE);
                painter.hairline((at, 0.0), (at, size), GRID_LINE);
            }
            if let Some(&(row, col)) = TAXI_LOCATIONS.get(parts.destination) {
                let (x, y, t) = (col as f64, row as f64, DESTINATION_FRAME);
                let colour = TAXI_STAND_COLOURS[parts.destination];
                painter.rectangle(x, y, x + 1.0, y + t, colour);
                painter.rectangle(x, y + 1.0 - t, x + 1.0, y + 1.0, colour);
                painter.rectangle(x, y, x + t, y + 1.0, colour);
                painter.rectangle(x + 1.0 - t, y, x + 1.0, y + 1.0, colour);
            }
            for (stand, &(row, col)) in TAXI_LOCATIONS.iter().enumerate() {
                let corner = (col as f64 + 0.16, row as f64 + 0.16);
                super::font::draw_text(painter, corner, 0.05, TAXI_STAND_LETTERS[stand], WALL);
            }
            // The walls: the border, then the map's `|` between cells.
            let half = WALL_THICKNESS / 2.0;
            painter.rectangle(0.0, 0.0, size, half, WALL);
            painter.rectangle(0.0, size - half, size, size, WALL);
            painter.rectangle(0.0, 0.0, half, size, WALL);
            painter.rectangle(size - half, 0.0, size, size, WALL);
            for row in 0..SIDE {
                for col in 0..SIDE {
                    if taxi_wall_right_of(row, col) {
                        let x = col as f64 + 1.0;
                        painter.rectangle(x - half, row as f64, x + half, row as f64 + 1.0, WALL);
                    }
                }
            }
            // The taxi: a body, a roof with its window, two wheels.
            let (x, y) = (parts.taxi_col as f64, parts.taxi_row as f64);
            painter.rectangle(x + 0.15, y + 0.45, x + 0.85, y + 0.75, TAXI_BODY);
            painter.rectangle(x + 0.3, y + 0.25, x + 0.7, y + 0.45, TAXI_BODY);
            painter.rectangle(x + 0.36, y + 0.3, x + 0.64, y + 0.45, GROUND);
            painter.disc(x + 0.3, y + 0.78, 0.08, WALL);
            painter.disc(x + 0.7, y + 0.78, 0.08, WALL);
            if parts.passenger == IN_TAXI {
                painter.disc(x + 0.5, y + 0.38, 0.06, PASSENGER);
            } else if let Some(&(row, col)) = TAXI_LOCATIONS.get(parts.passenger) {
                // The passenger stands in the lower-right part of their stand, clear of the
                // taxi's body when it comes to fetch them.
                let (x, y) = (col as f64, row as f64);
                painter.disc(x + 0.78, y + 0.3, 0.08, PASSENGER);
                painter.rectangle(x + 0.72, y + 0.38, x + 0.84, y + 0.6, PASSENGER);
            }
        });
    }
}

impl rl_core::RenderFrame for crate::toy_text::blackjack::Blackjack {
    /// [`BLACKJACK_FRAME`]: 600 by 400.
    fn frame_size(&self) -> (u32, u32) {
        BLACKJACK_FRAME
    }

    /// The dealer's cards above the player's, [`CARD_SIZE`] each at [`card_corner`], their
    /// ranks readable ([`card_rank`], in the corner and large in the middle), the dealer's
    /// second card face down ([`CARD_BACK`]) until the player sticks, and above each row
    /// its label and the sum the player sees (the dealer's face-up card's value until the
    /// player sticks, Gymnasium's observation, then the dealer's hand).
    fn draw_frame(&self, state: &crate::toy_text::blackjack::BlackjackState, frame: &mut Frame) {
        draw_blackjack(frame, state);
    }
}
