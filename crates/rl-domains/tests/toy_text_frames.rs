//! The toy-text frames: pixel checks of what each picture must show (FrozenLake's start, holes,
//! goal and agent; CliffWalking's cliff; Taxi's walls, stands, destination, passenger and
//! taxi; Blackjack's cards, whose ranks are read back from the pixels with the font), and
//! frames that change with the state.

use rl_core::{Frame, RenderFrame};
use rl_domains::frames::font::{GLYPH_HEIGHT, GLYPH_WIDTH, dot, glyph};
use rl_domains::frames::toy_text::{
    self as pictures, AGENT, CARD_BACK, CARD_SIZE, GOAL, GROUND, HAZARD, PASSENGER, RANK_DOT,
    START, TAXI_BODY, TAXI_STAND_COLOURS, TOY_CELL_PIXELS, WALL, card_corner, rank_corner,
    stand_tint, taxi_wall_right_of,
};
use rl_domains::toy_text::blackjack::{
    Blackjack, BlackjackHand, BlackjackParams, BlackjackState, CardSuit, FaceCard,
};
use rl_domains::toy_text::cliff_walking::{CliffWalking, CliffWalkingParams};
use rl_domains::toy_text::frozen_lake::{FrozenLake, FrozenLakeParams};
use rl_domains::toy_text::taxi::{IN_TAXI, Taxi, TaxiComponents, TaxiParams, TaxiState};

/// The pixel at the point `(x, y)` of the frame, in pixels.
fn pixel_at(frame: &Frame, (x, y): (f64, f64)) -> [u8; 3] {
    frame
        .pixel(x.floor() as u32, y.floor() as u32)
        .unwrap_or_else(|| panic!("({x}, {y}) is outside the frame"))
}

/// The pixel at the point `(col + dx, row + dy)` of a grid frame, in cells.
fn cell_pixel(frame: &Frame, (row, col): (usize, usize), (dx, dy): (f64, f64)) -> [u8; 3] {
    let side = f64::from(TOY_CELL_PIXELS);
    pixel_at(frame, ((col as f64 + dx) * side, (row as f64 + dy) * side))
}

#[test]
fn frozen_lake_shows_start_holes_goal_and_agent() {
    let lake = FrozenLake::new(FrozenLakeParams::default()).expect("defaults");
    // SFFF / FHFH / FFFH / HFFG, the agent on cell 6.
    let frame = lake.frame(&6);
    assert_eq!((frame.width(), frame.height()), (256, 256));
    assert_eq!(cell_pixel(&frame, (0, 0), (0.5, 0.5)), START);
    assert_eq!(cell_pixel(&frame, (1, 1), (0.5, 0.5)), HAZARD);
    assert_eq!(cell_pixel(&frame, (3, 3), (0.5, 0.5)), GOAL);
    assert_eq!(cell_pixel(&frame, (0, 1), (0.5, 0.5)), GROUND);
    assert_eq!(cell_pixel(&frame, (1, 2), (0.5, 0.5)), AGENT);
    // The agent moves to the goal: the picture changes there and at its old cell.
    let there = lake.frame(&15);
    assert_eq!(cell_pixel(&there, (3, 3), (0.5, 0.5)), AGENT);
    assert_eq!(cell_pixel(&there, (1, 2), (0.5, 0.5)), GROUND);
    assert_eq!(cell_pixel(&there, (3, 3), (0.1, 0.1)), GOAL);
}

#[test]
fn cliff_walking_shows_the_cliff_start_goal_and_agent() {
    let cliff = CliffWalking::new(CliffWalkingParams::default()).expect("defaults");
    let frame = cliff.frame(&36);
    assert_eq!((frame.width(), frame.height()), (768, 256));
    // The agent on the start (row 3, column 0), the cliff from column 1 to 10, the goal.
    assert_eq!(cell_pixel(&frame, (3, 0), (0.5, 0.5)), AGENT);
    assert_eq!(cell_pixel(&frame, (3, 0), (0.1, 0.1)), START);
    for col in 1..11 {
        assert_eq!(cell_pixel(&frame, (3, col), (0.5, 0.5)), HAZARD, "{col}");
    }
    assert_eq!(cell_pixel(&frame, (3, 11), (0.5, 0.5)), GOAL);
    assert_eq!(cell_pixel(&frame, (2, 5), (0.5, 0.5)), GROUND);
    assert_ne!(cliff.frame(&24), frame);
}

fn taxi_state(taxi_row: usize, taxi_col: usize, passenger: usize, destination: usize) -> TaxiState {
    let parts = TaxiComponents {
        taxi_row,
        taxi_col,
        passenger,
        destination,
    };
    TaxiState::new(parts.encode().expect("in range"), false).expect("a state")
}

#[test]
fn taxi_shows_its_walls_where_gymnasium_s_map_has_them() {
    // Gymnasium's map: walls right of (0, 1), (1, 1), (3, 0), (3, 2), (4, 0), (4, 2).
    let walls: Vec<(usize, usize)> = (0..5)
        .flat_map(|row| (0..5).map(move |col| (row, col)))
        .filter(|&(row, col)| taxi_wall_right_of(row, col))
        .collect();
    assert_eq!(walls, [(0, 1), (1, 1), (3, 0), (3, 2), (4, 0), (4, 2)]);
    let taxi = Taxi::new(TaxiParams::default()).expect("defaults");
    // The taxi on (2, 2), out of the way.
    let frame = taxi.frame(&taxi_state(2, 2, 0, 1));
    assert_eq!((frame.width(), frame.height()), (320, 320));
    for row in 0..5 {
        for col in 0..4 {
            // On the border between (row, col) and (row, col + 1), halfway down the cell.
            let border = cell_pixel(&frame, (row, col), (1.0, 0.5));
            if taxi_wall_right_of(row, col) {
                assert_eq!(border, WALL, "a wall right of ({row}, {col})");
                // Thick: two pixels to either side too.
                assert_eq!(
                    cell_pixel(&frame, (row, col), (1.0 - 2.0 / 64.0, 0.5)),
                    WALL
                );
                assert_eq!(
                    cell_pixel(&frame, (row, col), (1.0 + 2.0 / 64.0, 0.5)),
                    WALL
                );
            } else {
                assert_ne!(
                    cell_pixel(&frame, (row, col), (1.0 - 2.0 / 64.0, 0.5)),
                    WALL,
                    "no wall right of ({row}, {col})"
                );
            }
        }
    }
    // The border: top, bottom, left and right edges.
    assert_eq!(pixel_at(&frame, (160.0, 1.0)), WALL);
    assert_eq!(pixel_at(&frame, (160.0, 318.5)), WALL);
    assert_eq!(pixel_at(&frame, (1.0, 160.0)), WALL);
    assert_eq!(pixel_at(&frame, (318.5, 160.0)), WALL);
}

#[test]
fn taxi_shows_stands_destination_passenger_and_taxi() {
    let taxi = Taxi::new(TaxiParams::default()).expect("defaults");
    // The taxi on (2, 2), the passenger waiting at R (0, 0), the destination B (4, 3).
    let waiting = taxi.frame(&taxi_state(2, 2, 0, 3));
    let stands = [(0, 0), (0, 4), (4, 0), (4, 3)];
    for (stand, &cell) in stands.iter().enumerate() {
        // Each stand tinted in its colour, lettered in dark in its top-left corner.
        assert_eq!(
            cell_pixel(&waiting, cell, (0.5, 0.85)),
            stand_tint(TAXI_STAND_COLOURS[stand]),
            "stand {stand}"
        );
        assert!(
            letter_dots(&waiting, cell) > 50,
            "the letter of stand {stand}"
        );
    }
    // No letter on the road.
    assert_eq!(letter_dots(&waiting, (1, 3)), 0);
    // The destination (B) framed in its full colour; the other stands not.
    assert_eq!(
        cell_pixel(&waiting, (4, 3), (0.5, 0.075)),
        TAXI_STAND_COLOURS[3]
    );
    assert_eq!(
        cell_pixel(&waiting, (0, 4), (0.5, 0.075)),
        stand_tint(TAXI_STAND_COLOURS[1])
    );
    // The passenger at R, the taxi at (2, 2).
    assert_eq!(cell_pixel(&waiting, (0, 0), (0.78, 0.5)), PASSENGER);
    assert_eq!(cell_pixel(&waiting, (2, 2), (0.5, 0.6)), TAXI_BODY);
    assert_eq!(cell_pixel(&waiting, (2, 2), (0.3, 0.78)), WALL, "a wheel");
    assert_eq!(
        cell_pixel(&waiting, (2, 2), (0.5, 0.38)),
        GROUND,
        "the window"
    );

    // Picked up: the passenger rides in the window, R's stand is empty; the destination
    // moved to G in another state frames G instead.
    let riding = taxi.frame(&taxi_state(2, 2, IN_TAXI, 3));
    assert_eq!(cell_pixel(&riding, (2, 2), (0.5, 0.38)), PASSENGER);
    assert_eq!(
        cell_pixel(&riding, (0, 0), (0.78, 0.5)),
        stand_tint(TAXI_STAND_COLOURS[0])
    );
    let to_green = taxi.frame(&taxi_state(2, 2, IN_TAXI, 1));
    assert_eq!(
        cell_pixel(&to_green, (0, 4), (0.5, 0.075)),
        TAXI_STAND_COLOURS[1]
    );
    assert_ne!(riding, to_green);
    // The taxi moves: the frame changes where it was and where it is.
    let moved = taxi.frame(&taxi_state(1, 2, IN_TAXI, 3));
    assert_eq!(cell_pixel(&moved, (1, 2), (0.5, 0.6)), TAXI_BODY);
    assert_eq!(cell_pixel(&moved, (2, 2), (0.5, 0.6)), GROUND);
}

/// The dark pixels where a stand's letter is written in cell `cell` (its top-left part: 5 by
/// 7 dots of a twentieth of a cell from 0.16 cells in).
fn letter_dots(frame: &Frame, cell: (usize, usize)) -> usize {
    let side = f64::from(TOY_CELL_PIXELS);
    let (left, top) = ((cell.1 as f64 + 0.16) * side, (cell.0 as f64 + 0.16) * side);
    (0..16)
        .flat_map(|dx| {
            (0..22).map(move |dy| (left + f64::from(dx) + 0.5, top + f64::from(dy) + 0.5))
        })
        .filter(|&point| pixel_at(frame, point) == WALL)
        .count()
}

/// The rank written large on card `slot` of row `row` of a Blackjack frame, read back from
/// its pixels: each character is the glyph whose dots are exactly the dark dots found.
fn read_rank(frame: &Frame, row: usize, slot: usize) -> String {
    let corner = card_corner(row, slot);
    let mut best = String::new();
    // Ranks have one or two characters; try both layouts and keep the one that reads.
    for characters in [2, 1] {
        let (left, top) = rank_corner(corner, characters);
        let mut text = String::new();
        for index in 0..characters {
            let x0 = left + (index * 6) as f64 * RANK_DOT;
            let ink = |column: usize, row: usize| {
                let centre = (
                    x0 + (column as f64 + 0.5) * RANK_DOT,
                    top + (row as f64 + 0.5) * RANK_DOT,
                );
                pixel_at(frame, centre) == pictures::INK
            };
            let read = "0123456789ABDEGJKLPQRY".chars().find(|&c| {
                let g = glyph(c).expect("a glyph");
                (0..GLYPH_HEIGHT)
                    .all(|r| (0..GLYPH_WIDTH).all(|col| dot(&g, col, r) == ink(col, r)))
            });
            match read {
                Some(c) => text.push(c),
                None => {
                    text.clear();
                    break;
                }
            }
        }
        if !text.is_empty() {
            best = text;
            break;
        }
    }
    best
}

fn blackjack_state(player: &[u8], dealer: &[u8], stuck: bool) -> BlackjackState {
    BlackjackState {
        player: BlackjackHand::new(player).expect("a hand"),
        dealer: BlackjackHand::new(dealer).expect("a hand"),
        dealer_top_card_suit: CardSuit::Hearts,
        dealer_top_card_face: None,
        stuck,
    }
}

#[test]
fn blackjack_cards_show_readable_ranks() {
    let blackjack = Blackjack::new(BlackjackParams::default()).expect("defaults");
    let playing = blackjack_state(&[1, 10, 7], &[9, 4], false);
    let frame = blackjack.frame(&playing);
    assert_eq!((frame.width(), frame.height()), (600, 400));
    assert_eq!(read_rank(&frame, 1, 0), "A");
    assert_eq!(read_rank(&frame, 1, 1), "10");
    assert_eq!(read_rank(&frame, 1, 2), "7");
    assert_eq!(read_rank(&frame, 0, 0), "9");
    // The dealer's second card is face down until the player sticks.
    let (x, y) = card_corner(0, 1);
    let middle = (x + CARD_SIZE.0 / 2.0, y + CARD_SIZE.1 / 2.0);
    assert_eq!(pixel_at(&frame, middle), CARD_BACK);
    assert_eq!(read_rank(&frame, 0, 1), "");
    // No third card: the table shows.
    let (x, y) = card_corner(1, 3);
    assert_eq!(pixel_at(&frame, (x + 10.0, y + 10.0)), pictures::TABLE);

    // Once stuck, the dealer's cards are all face up, those drawn after included.
    let over = blackjack_state(&[1, 10, 7], &[9, 4, 2, 6], true);
    let frame = blackjack.frame(&over);
    let dealer: Vec<String> = (0..4).map(|slot| read_rank(&frame, 0, slot)).collect();
    assert_eq!(dealer, ["9", "4", "2", "6"]);

    // A face card the dealer shows is named.
    let mut king = blackjack_state(&[5, 6], &[10, 3], false);
    king.dealer_top_card_face = Some(FaceCard::King);
    let frame = blackjack.frame(&king);
    assert_eq!(read_rank(&frame, 0, 0), "K");
    assert_eq!(read_rank(&frame, 1, 0), "5");
    assert_eq!(read_rank(&frame, 1, 1), "6");
}

#[test]
fn blackjack_frames_change_with_the_cards_and_stay_the_same_for_the_same_state() {
    let blackjack = Blackjack::new(BlackjackParams::default()).expect("defaults");
    let first = blackjack.frame(&blackjack_state(&[2, 3], &[9, 4], false));
    let again = blackjack.frame(&blackjack_state(&[2, 3], &[9, 4], false));
    assert_eq!(first, again);
    let hit = blackjack.frame(&blackjack_state(&[2, 3, 8], &[9, 4], false));
    assert_ne!(first, hit);
    assert_eq!(read_rank(&hit, 1, 2), "8");
    // The sums above the rows change too: the player's 5 becomes 13.
    let label = |frame: &Frame| {
        let (x, y) = card_corner(1, 0);
        (0..200)
            .flat_map(|dx| (0..28).map(move |dy| (x + f64::from(dx), y - 40.0 + f64::from(dy))))
            .filter(|&point| pixel_at(frame, point) == pictures::LABEL)
            .count()
    };
    assert_ne!(label(&first), label(&hit));
    // Any size: the same picture scaled.
    let mut small = Frame::new(150, 100).expect("a size");
    blackjack.draw_frame(&blackjack_state(&[2, 3], &[9, 4], false), &mut small);
    assert!(small.pixels().chunks_exact(3).any(|p| p == pictures::CARD));
}
