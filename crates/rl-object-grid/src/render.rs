//! Pictures of a state ([`Render`]): minigrid's text picture (`pprint_grid`, what
//! `str(env.unwrapped)` prints and the `"ansi"` render mode of the Python package shows) and
//! a schematic SVG of the same cells.

use std::fmt::Write;

use rl_core::Render;

use crate::MiniGrid;
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState, ObjectKind};
use crate::state::{Direction, MiniGridState};

/// minigrid's two characters for the agent facing `direction`.
fn agent_text(direction: Direction) -> &'static str {
    match direction {
        Direction::Right => ">>",
        Direction::Down => "VV",
        Direction::Left => "<<",
        Direction::Up => "^^",
    }
}

/// minigrid's letter of an object kind (`OBJECT_TO_STR`).
fn kind_letter(kind: ObjectKind) -> char {
    match kind {
        ObjectKind::Wall => 'W',
        ObjectKind::Floor => 'F',
        ObjectKind::Door => 'D',
        ObjectKind::Key => 'K',
        ObjectKind::Ball => 'A',
        ObjectKind::Box => 'B',
        ObjectKind::Goal => 'G',
        ObjectKind::Lava => 'V',
        _ => ' ',
    }
}

/// The first letter of a colour's name, upper case.
fn colour_letter(color: Color) -> char {
    color
        .name()
        .chars()
        .next()
        .map_or(' ', |letter| letter.to_ascii_uppercase())
}

/// The two characters of a cell in minigrid's `pprint_grid`: two spaces for an empty cell,
/// `__` for an open door, `L` and the colour for a locked one, the object's letter and colour
/// otherwise.
fn cell_text(cell: Cell) -> [char; 2] {
    match cell.kind() {
        ObjectKind::Empty | ObjectKind::Unseen => [' ', ' '],
        ObjectKind::Door => match cell.door_state() {
            Some(DoorState::Open) => ['_', '_'],
            Some(DoorState::Locked) => ['L', colour_letter(cell.color())],
            _ => ['D', colour_letter(cell.color())],
        },
        kind => [kind_letter(kind), colour_letter(cell.color())],
    }
}

/// The RGB colour of a cell in the SVG picture.
fn cell_fill(cell: Cell) -> &'static str {
    match (cell.kind(), cell.color()) {
        (ObjectKind::Empty | ObjectKind::Unseen, _) => "#000000",
        (ObjectKind::Lava, _) => "#ff8000",
        (_, Color::Red) => "#ff0000",
        (_, Color::Green) => "#00ff00",
        (_, Color::Blue) => "#0000ff",
        (_, Color::Purple) => "#7027c3",
        (_, Color::Yellow) => "#ffff00",
        (_, Color::Grey) => "#646464",
    }
}

impl Render for MiniGrid {
    /// minigrid's `pprint_grid`: two characters a cell, rows top to bottom, the agent as two
    /// arrows (`>>`, `VV`, `<<`, `^^`), no newline after the last row.
    fn render_text(&self, state: &MiniGridState) -> String {
        let grid = state.grid();
        let mut text = String::with_capacity((grid.width() * 2 + 1) * grid.height());
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let position = Position::new(x as i32, y as i32);
                if position == state.agent_position() {
                    text.push_str(agent_text(state.direction()));
                } else {
                    text.extend(cell_text(grid.get(position)));
                }
            }
            if y + 1 < grid.height() {
                text.push('\n');
            }
        }
        text
    }

    /// Cells of 32 units: walls and floors filled with their colour, doors, keys, balls and
    /// boxes as smaller squares and discs of theirs (an open door a thin bar), the agent a red
    /// triangle pointing its way.
    fn render_svg(&self, state: &MiniGridState) -> String {
        let grid = state.grid();
        let (width, height) = (grid.width() * 32, grid.height() * 32);
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\">\n<rect width=\"{width}\" height=\"{height}\" \
             fill=\"#000000\"/>\n"
        );
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let cell = grid.get(Position::new(x as i32, y as i32));
                let (left, top) = (x * 32, y * 32);
                let fill = cell_fill(cell);
                let _ = match cell.kind() {
                    ObjectKind::Empty | ObjectKind::Unseen => Ok(()),
                    ObjectKind::Ball => writeln!(
                        svg,
                        "<circle cx=\"{}\" cy=\"{}\" r=\"10\" fill=\"{fill}\"/>",
                        left + 16,
                        top + 16
                    ),
                    ObjectKind::Key | ObjectKind::Box => writeln!(
                        svg,
                        "<rect x=\"{}\" y=\"{}\" width=\"16\" height=\"16\" fill=\"{fill}\"/>",
                        left + 8,
                        top + 8
                    ),
                    ObjectKind::Door if cell.door_state() == Some(DoorState::Open) => writeln!(
                        svg,
                        "<rect x=\"{}\" y=\"{top}\" width=\"4\" height=\"32\" fill=\"{fill}\"/>",
                        left + 28
                    ),
                    _ => writeln!(
                        svg,
                        "<rect x=\"{left}\" y=\"{top}\" width=\"32\" height=\"32\" \
                         fill=\"{fill}\" stroke=\"#646464\"/>"
                    ),
                };
            }
        }
        let (x, y) = (
            state.agent_position().x * 32 + 16,
            state.agent_position().y * 32 + 16,
        );
        let rotation = 90 * i32::from(state.direction().index());
        let _ = writeln!(
            svg,
            "<polygon points=\"{},{} {},{} {},{}\" fill=\"#ff0000\" \
             transform=\"rotate({rotation} {x} {y})\"/>",
            x - 12,
            y - 10,
            x + 12,
            y,
            x - 12,
            y + 10
        );
        svg.push_str("</svg>\n");
        svg
    }
}
