//! Pictures of GridWorld (RLPy's `showDomain` and `showLearning`): the map with the agent,
//! and a value per cell with the greedy action as an arrow, as text and as SVG.

use rl_core::Render;

use super::domain::GridWorld;
use super::map::{CellKind, GridCell};
use super::model::GridAction;
use crate::error::Error;
use crate::svg::{Svg, number};

/// The side of a cell in the SVG pictures, in pixels.
const CELL: f64 = 48.0;
/// The margin around the grid in the SVG pictures, in pixels.
const MARGIN: f64 = 8.0;

/// The class, fill colour and label of a cell kind in the pictures.
fn style(kind: CellKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        CellKind::Empty => ("empty", "#ffffff", ""),
        CellKind::Blocked => ("blocked", "#000000", ""),
        CellKind::Start => ("start", "#fff3b0", "S"),
        CellKind::Goal => ("goal", "#2ca02c", "G"),
        CellKind::Pit => ("pit", "#d62728", "P"),
    }
}

/// The character of a cell kind in the text pictures.
fn symbol(kind: CellKind) -> char {
    match kind {
        CellKind::Empty => '.',
        CellKind::Blocked => '#',
        CellKind::Start => 'S',
        CellKind::Goal => 'G',
        CellKind::Pit => 'P',
    }
}

impl GridWorld {
    fn picture(&self, title: &str) -> Svg {
        let width = 2.0 * MARGIN + CELL * self.map().cols() as f64;
        let height = 2.0 * MARGIN + CELL * self.map().rows() as f64;
        Svg::new(width, height, title)
    }

    fn cell_origin(cell: GridCell) -> (f64, f64) {
        (
            MARGIN + CELL * cell.col as f64,
            MARGIN + CELL * cell.row as f64,
        )
    }

    /// Writes one `rect` per cell (class `cell` and the kind, with `data-row` and
    /// `data-col`), filled with `fill(cell, kind)` or the kind's colour.
    fn draw_cells(&self, svg: &mut Svg, fill: impl Fn(GridCell, CellKind) -> Option<String>) {
        svg.open_group("cells");
        for (index, kind) in self.map().cells().iter().enumerate() {
            let cell = GridCell::new(index / self.map().cols(), index % self.map().cols());
            let (class, colour, _) = style(*kind);
            let (x, y) = GridWorld::cell_origin(cell);
            svg.element(
                "rect",
                &format!("cell {class}"),
                &[
                    ("x", number(x)),
                    ("y", number(y)),
                    ("width", number(CELL)),
                    ("height", number(CELL)),
                    ("data-row", cell.row.to_string()),
                    ("data-col", cell.col.to_string()),
                    (
                        "fill",
                        fill(cell, *kind).unwrap_or_else(|| colour.to_owned()),
                    ),
                    ("stroke", "#555555".to_owned()),
                ],
            );
        }
        svg.close_group();
    }

    /// Writes the letters of the start (`S`), goals (`G`) and pits (`P`) at the top left of
    /// their cells.
    fn draw_labels(&self, svg: &mut Svg) {
        svg.open_group("labels");
        for (index, kind) in self.map().cells().iter().enumerate() {
            let (class, _, label) = style(*kind);
            if label.is_empty() {
                continue;
            }
            let cell = GridCell::new(index / self.map().cols(), index % self.map().cols());
            let (x, y) = GridWorld::cell_origin(cell);
            svg.text(
                &format!("label {class}"),
                &[
                    ("x", number(x + 4.0)),
                    ("y", number(y + 14.0)),
                    ("font-size", "12".to_owned()),
                ],
                label,
            );
        }
        svg.close_group();
    }

    /// Checks that a per-cell argument has one entry per cell.
    fn check_length(&self, parameter: &'static str, length: usize) -> Result<(), Error> {
        let expected = self.map().cell_count();
        if length == expected {
            Ok(())
        } else {
            Err(Error::InvalidParameter {
                parameter,
                reason: format!(
                    "needs one entry per cell ({} rows by {} columns = {expected}), got {length}",
                    self.map().rows(),
                    self.map().cols()
                ),
            })
        }
    }

    /// A picture of a value per cell with the greedy action as an arrow (RLPy's
    /// `showLearning`), as SVG.
    ///
    /// `values` and `greedy_actions` hold one entry per cell, indexed by the state index
    /// `row * cols + col` ([`GridWorld::state_index`]). Each open cell is filled from red
    /// (the most negative value) through white (0) to green (the most positive), shows its
    /// value (class `value`) and, when its greedy action is `Some`, an arrow pointing that
    /// way (a `polygon` of class `arrow` and the action's name). Blocked cells are black and
    /// never get a value or an arrow; the start, goals and pits are labelled `S`, `G`, `P`.
    /// Non-finite values are drawn grey.
    ///
    /// Fails with [`Error::InvalidParameter`] when a slice does not have one entry per cell.
    ///
    /// ```
    /// use rl_domains::gridworld::{GridAction, GridWorld, GridWorldParams};
    ///
    /// let domain = GridWorld::builtin("2x3", GridWorldParams::default())?;
    /// let values = [0.5, 0.7, 0.9, 0.3, 0.0, 0.0];
    /// let greedy = [Some(GridAction::Right), Some(GridAction::Right), Some(GridAction::Down),
    ///               Some(GridAction::Up), None, None];
    /// let svg = domain.render_values_svg(&values, &greedy)?;
    /// assert_eq!(svg.matches(r#"class="arrow "#).count(), 4);
    /// # Ok::<(), rl_domains::Error>(())
    /// ```
    pub fn render_values_svg(
        &self,
        values: &[f64],
        greedy_actions: &[Option<GridAction>],
    ) -> Result<String, Error> {
        self.check_length("values", values.len())?;
        self.check_length("greedy_actions", greedy_actions.len())?;
        let open = |index: usize| {
            self.map()
                .cells()
                .get(index)
                .is_some_and(|kind| *kind != CellKind::Blocked)
        };
        let scale = values
            .iter()
            .enumerate()
            .filter(|(index, value)| open(*index) && value.is_finite())
            .map(|(_, value)| value.abs())
            .fold(0.0, f64::max);
        let scale = if scale > 0.0 { scale } else { 1.0 };
        let cols = self.map().cols();

        let title = format!(
            "GridWorld {}x{} values and greedy actions",
            self.map().rows(),
            cols
        );
        let mut svg = self.picture(&title);
        self.draw_cells(&mut svg, |cell, kind| {
            let value = values.get(cell.row * cols + cell.col).copied()?;
            match kind {
                CellKind::Blocked => None,
                _ => Some(value_colour(value, scale)),
            }
        });
        // Goals and pits keep a frame in their colour, so that they stay visible.
        svg.open_group("terminals");
        for (index, kind) in self.map().cells().iter().enumerate() {
            if !kind.is_terminal() {
                continue;
            }
            let (class, colour, _) = style(*kind);
            let (x, y) = GridWorld::cell_origin(GridCell::new(index / cols, index % cols));
            svg.element(
                "rect",
                &format!("frame {class}"),
                &[
                    ("x", number(x + 2.0)),
                    ("y", number(y + 2.0)),
                    ("width", number(CELL - 4.0)),
                    ("height", number(CELL - 4.0)),
                    ("fill", "none".to_owned()),
                    ("stroke", colour.to_owned()),
                    ("stroke-width", "4".to_owned()),
                ],
            );
        }
        svg.close_group();
        self.draw_labels(&mut svg);
        svg.open_group("values");
        for (index, value) in values.iter().enumerate() {
            if !open(index) {
                continue;
            }
            let (x, y) = GridWorld::cell_origin(GridCell::new(index / cols, index % cols));
            svg.text(
                "value",
                &[
                    ("x", number(x + CELL / 2.0)),
                    ("y", number(y + CELL - 6.0)),
                    ("font-size", "10".to_owned()),
                    ("text-anchor", "middle".to_owned()),
                ],
                &format!("{value:.2}"),
            );
        }
        svg.close_group();
        svg.open_group("arrows");
        for (index, action) in greedy_actions.iter().enumerate() {
            let Some(action) = action else { continue };
            if !open(index) {
                continue;
            }
            let (x, y) = GridWorld::cell_origin(GridCell::new(index / cols, index % cols));
            svg.element(
                "polygon",
                &format!("arrow {}", action.name()),
                &[
                    (
                        "points",
                        arrow_points(x + CELL / 2.0, y + CELL / 2.0 - 4.0, *action),
                    ),
                    ("fill", "#1f3b73".to_owned()),
                ],
            );
        }
        svg.close_group();
        Ok(svg.finish())
    }

    /// A text picture of a value per cell with the greedy action as an arrow: one line per
    /// row, each cell as the arrow (`^`, `v`, `<`, `>`, or a blank for `None`) and the value
    /// with three decimals; blocked cells are `#`. The arguments are those of
    /// [`GridWorld::render_values_svg`].
    pub fn render_values_text(
        &self,
        values: &[f64],
        greedy_actions: &[Option<GridAction>],
    ) -> Result<String, Error> {
        self.check_length("values", values.len())?;
        self.check_length("greedy_actions", greedy_actions.len())?;
        let mut text = String::new();
        for row in 0..self.map().rows() {
            let cells: Vec<String> = (0..self.map().cols())
                .map(|col| {
                    let index = row * self.map().cols() + col;
                    match self.map().cells().get(index) {
                        Some(CellKind::Blocked) | None => format!("{:>8}", "#"),
                        Some(_) => {
                            let arrow = greedy_actions
                                .get(index)
                                .copied()
                                .flatten()
                                .map_or(' ', GridAction::arrow);
                            let value = values.get(index).copied().unwrap_or(f64::NAN);
                            format!("{arrow}{value:>+7.3}")
                        }
                    }
                })
                .collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        Ok(text)
    }
}

/// A triangle centred on (`x`, `y`) pointing the way `action` moves.
fn arrow_points(x: f64, y: f64, action: GridAction) -> String {
    const LENGTH: f64 = 14.0;
    const HALF_WIDTH: f64 = 7.0;
    let (dx, dy) = match action {
        GridAction::Up => (0.0, -1.0),
        GridAction::Down => (0.0, 1.0),
        GridAction::Left => (-1.0, 0.0),
        GridAction::Right => (1.0, 0.0),
    };
    let tip = (x + dx * LENGTH / 2.0, y + dy * LENGTH / 2.0);
    let back = (x - dx * LENGTH / 2.0, y - dy * LENGTH / 2.0);
    let side = (-dy * HALF_WIDTH, dx * HALF_WIDTH);
    format!(
        "{},{} {},{} {},{}",
        number(tip.0),
        number(tip.1),
        number(back.0 + side.0),
        number(back.1 + side.1),
        number(back.0 - side.0),
        number(back.1 - side.1)
    )
}

/// The fill of a cell with `value`: red for negative, white for 0, green for positive, at
/// an intensity of `|value| / scale`; grey for a non-finite value.
fn value_colour(value: f64, scale: f64) -> String {
    if !value.is_finite() {
        return "#bbbbbb".to_owned();
    }
    let strength = (value.abs() / scale).clamp(0.0, 1.0);
    let fade = |full: f64| (255.0 - (255.0 - full) * strength).round() as u8;
    let (red, green, blue) = if value >= 0.0 {
        (fade(44.0), fade(160.0), fade(44.0))
    } else {
        (fade(214.0), fade(39.0), fade(40.0))
    };
    format!("#{red:02x}{green:02x}{blue:02x}")
}

impl Render for GridWorld {
    /// One line per row of the map: `.` empty, `#` blocked, `S` start, `G` goal, `P` pit,
    /// and `A` for the agent, separated by blanks.
    fn render_text(&self, state: &GridCell) -> String {
        let mut text = String::new();
        for row in 0..self.map().rows() {
            let line: Vec<String> = (0..self.map().cols())
                .map(|col| {
                    let cell = GridCell::new(row, col);
                    if cell == *state {
                        "A".to_owned()
                    } else {
                        self.map().kind(cell).map_or('?', symbol).to_string()
                    }
                })
                .collect();
            text.push_str(&line.join(" "));
            text.push('\n');
        }
        text
    }

    /// RLPy's `showDomain`: one square per cell (class `cell` and the kind: `empty`,
    /// `blocked`, `start`, `goal` or `pit`; with `data-row` and `data-col`), the letters of
    /// the start, goals and pits, and the agent as a blue circle (class `agent`, with
    /// `data-row` and `data-col`) unless `state` lies outside the grid.
    fn render_svg(&self, state: &GridCell) -> String {
        let title = format!("GridWorld {}x{}", self.map().rows(), self.map().cols());
        let mut svg = self.picture(&title);
        self.draw_cells(&mut svg, |_, _| None);
        self.draw_labels(&mut svg);
        if self.map().contains(*state) {
            let (x, y) = GridWorld::cell_origin(*state);
            svg.element(
                "circle",
                "agent",
                &[
                    ("cx", number(x + CELL / 2.0)),
                    ("cy", number(y + CELL / 2.0)),
                    ("r", number(CELL / 3.0)),
                    ("data-row", state.row.to_string()),
                    ("data-col", state.col.to_string()),
                    ("fill", "#1f77b4".to_owned()),
                ],
            );
        }
        svg.finish()
    }
}
