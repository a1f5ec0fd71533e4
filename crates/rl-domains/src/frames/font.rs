//! A tiny bitmap font of our own for the frames' labels: 5 by 7 dots per glyph, the digits and
//! the few capital letters the pictures write (card ranks A, J, Q, K; Taxi's stands R, G, Y,
//! B; Blackjack's DEALER and PLAYER). Each dot is a filled square, drawn without
//! anti-aliasing, so that a glyph stays legible at any scale and costs no allocation.

use super::canvas::{Painter, Rgb};

/// The width of a glyph, in dots.
pub const GLYPH_WIDTH: usize = 5;
/// The height of a glyph, in dots.
pub const GLYPH_HEIGHT: usize = 7;
/// The advance from one glyph to the next, in dots (one blank column between glyphs).
pub const GLYPH_ADVANCE: usize = GLYPH_WIDTH + 1;

/// A glyph: one byte per row, top row first, the row's 5 dots in the low 5 bits (the
/// leftmost dot in bit 4).
pub type Glyph = [u8; GLYPH_HEIGHT];

/// The characters the font draws, with their glyphs.
const GLYPHS: [(char, Glyph); 22] = [
    ('0', [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E]),
    ('1', [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E]),
    ('2', [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F]),
    ('3', [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E]),
    ('4', [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02]),
    ('5', [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E]),
    ('6', [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E]),
    ('7', [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08]),
    ('8', [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E]),
    ('9', [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C]),
    ('A', [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11]),
    ('B', [0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E]),
    ('D', [0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C]),
    ('E', [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F]),
    ('G', [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F]),
    ('J', [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C]),
    ('K', [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11]),
    ('L', [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F]),
    ('P', [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10]),
    ('Q', [0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D]),
    ('R', [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11]),
    ('Y', [0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04]),
];

/// The glyph of `character`, or `None` for a character the font does not draw (a space
/// among them: it only advances).
pub fn glyph(character: char) -> Option<Glyph> {
    GLYPHS
        .iter()
        .find(|(drawn, _)| *drawn == character)
        .map(|(_, glyph)| *glyph)
}

/// Whether dot `(column, row)` of `glyph` is on (false outside the glyph).
pub fn dot(glyph: &Glyph, column: usize, row: usize) -> bool {
    column < GLYPH_WIDTH && row < GLYPH_HEIGHT && glyph[row] >> (GLYPH_WIDTH - 1 - column) & 1 == 1
}

/// The width of `text` drawn with dots of side `size`: [`GLYPH_ADVANCE`] dots per character
/// but the last, which takes [`GLYPH_WIDTH`].
pub fn text_width(characters: usize, size: f64) -> f64 {
    (characters * GLYPH_ADVANCE).saturating_sub(1) as f64 * size
}

/// Draws `text` with its top-left corner at `(left, top)` (design coordinates, y down),
/// each dot a square of side `size`. Characters without a glyph leave a blank.
pub(crate) fn draw_text(
    painter: &mut Painter<'_>,
    (left, top): (f64, f64),
    size: f64,
    text: &str,
    colour: Rgb,
) {
    for (index, character) in text.chars().enumerate() {
        let Some(glyph) = glyph(character) else {
            continue;
        };
        let x0 = left + (index * GLYPH_ADVANCE) as f64 * size;
        for row in 0..GLYPH_HEIGHT {
            for column in 0..GLYPH_WIDTH {
                if dot(&glyph, column, row) {
                    let x = x0 + column as f64 * size;
                    let y = top + row as f64 * size;
                    painter.rectangle(x, y, x + size, y + size, colour);
                }
            }
        }
    }
}

/// The decimal digits of `value` (at most 20 of them for a `u64`) written into `buffer`,
/// as text borrowed from it: a number to draw without allocating.
pub(crate) fn decimal(value: u64, buffer: &mut [u8; 20]) -> &str {
    let mut start = buffer.len();
    let mut rest = value;
    loop {
        start -= 1;
        buffer[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buffer[start..]).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_is_distinct_and_fits_its_five_columns() {
        for (index, (character, glyph)) in GLYPHS.iter().enumerate() {
            assert!(
                glyph.iter().all(|row| *row < 1 << GLYPH_WIDTH),
                "{character}"
            );
            assert!(glyph.iter().any(|row| *row != 0), "{character} is blank");
            for (other, other_glyph) in &GLYPHS[index + 1..] {
                assert_ne!(glyph, other_glyph, "{character} and {other}");
                assert_ne!(character, other);
            }
        }
        assert!(glyph(' ').is_none());
        assert!(dot(&glyph('1').expect("1"), 2, 0));
        assert!(!dot(&glyph('1').expect("1"), 0, 0));
    }

    #[test]
    fn numbers_are_written_without_allocating() {
        let mut buffer = [0; 20];
        assert_eq!(decimal(0, &mut buffer), "0");
        assert_eq!(decimal(21, &mut buffer), "21");
        assert_eq!(decimal(u64::MAX, &mut buffer), "18446744073709551615");
        assert_eq!(text_width(2, 1.0), 11.0);
    }
}
