//! The generation toolkit: minigrid's random helpers (`_rand_int`, `_rand_elem`, `_rand_bool`,
//! `_rand_color`, `_rand_pos`, `_rand_subset`), `place_obj`'s rejection loop, `put_obj` and
//! `place_agent`, drawing from numpy's generator exactly as minigrid does.

use rand::Rng;
use rl_core::numpy_random::integers;

use crate::grid::{Grid, Position};
use crate::object::{Cell, Color};
use crate::state::{Direction, Task};

/// Why a placement failed where minigrid raises (or would loop forever).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlacementFailed {
    /// `place_obj` drew more than `max_tries` positions (minigrid's `RecursionError`).
    TooManyTries,
    /// No cell of the rectangle can take the object: minigrid would draw forever.
    NoRoom,
}

/// The agent's position before it is placed (minigrid's `(-1, -1)`).
pub(crate) const NOWHERE: Position = Position::new(-1, -1);

/// A grid being generated with the generator it draws from: what minigrid's `_gen_grid`
/// works on (`self.grid`, `self.agent_pos`, `self.agent_dir`, `self.mission`).
pub(crate) struct Builder<'r, R: Rng + ?Sized> {
    pub(crate) grid: Grid,
    pub(crate) agent: Position,
    pub(crate) direction: Direction,
    /// Whether the direction was drawn (minigrid's `agent_dir = self._rand_int(0, 4)`, a NumPy
    /// integer) rather than set (`agent_dir = 0`, a Python int): [`MiniGridState::direction_is_drawn`](crate::MiniGridState::direction_is_drawn).
    pub(crate) direction_drawn: bool,
    pub(crate) mission: u16,
    pub(crate) task: Task,
    pub(crate) obstacles: Vec<Position>,
    rng: &'r mut R,
    /// The placement draws this layout may still make ([`DRAW_BUDGET`] for a new builder;
    /// BabyAI's rejection sampling carries what is left from attempt to attempt).
    pub(crate) draws_left: u64,
}

/// The most placement draws (`place_obj`'s positions) one reset makes before its generation
/// gives up, where minigrid would draw forever or for hours: parameters no layout satisfies
/// (a BabyAI level with `room_size=3` or `4`, whose rooms leave no free cell for the agent
/// and its objects, drew for minutes; found by the Python fuzz target). With this budget the
/// recorded traces (`seeded_minigrid.json`, `seeded_babyai.json`) and a longer BabyAI
/// recording of 102,934 steps replay unchanged: no layout they hold came near it.
pub(crate) const DRAW_BUDGET: u64 = 1_000_000;

impl<'r, R: Rng + ?Sized> Builder<'r, R> {
    /// An empty `width` by `height` grid, the agent nowhere, facing right, built in the
    /// memory of `grid`'s cells and of `obstacles` (cleared): [`new`](Self::new) without
    /// allocating when they are large enough.
    pub(crate) fn reusing(
        width: usize,
        height: usize,
        mut grid: Grid,
        mut obstacles: Vec<Position>,
        rng: &'r mut R,
    ) -> Self {
        grid.clear_to(width, height);
        obstacles.clear();
        Builder {
            grid,
            agent: NOWHERE,
            direction: Direction::Right,
            direction_drawn: false,
            mission: 0,
            task: Task::default(),
            obstacles,
            rng,
            draws_left: DRAW_BUDGET,
        }
    }

    /// The generator.
    pub(crate) fn rng(&mut self) -> &mut R {
        self.rng
    }

    /// minigrid's `_rand_int(low, high)`: numpy's `integers(low, high)`. An empty range (where
    /// numpy raises) gives `low` and draws nothing; validated parameters never ask for one.
    pub(crate) fn rand_int(&mut self, low: i64, high: i64) -> i64 {
        integers(self.rng, low, high).unwrap_or(low)
    }

    /// [`rand_int`](Self::rand_int) for grid coordinates.
    pub(crate) fn rand_coordinate(&mut self, low: i32, high: i32) -> i32 {
        self.rand_int(i64::from(low), i64::from(high)) as i32
    }

    /// minigrid's `_rand_elem` of a list of `len` items: the index drawn.
    pub(crate) fn rand_elem(&mut self, len: usize) -> usize {
        self.rand_int(0, len as i64) as usize
    }

    /// minigrid's `_rand_bool`: `integers(0, 2) == 0`.
    pub(crate) fn rand_bool(&mut self) -> bool {
        self.rand_int(0, 2) == 0
    }

    /// minigrid's `_rand_color`: an element of `COLOR_NAMES` (sorted by name).
    pub(crate) fn rand_color(&mut self) -> Color {
        Color::NAMES_ORDER[self.rand_elem(Color::NAMES_ORDER.len())]
    }

    /// minigrid's `_rand_pos(x_low, x_high, y_low, y_high)`.
    pub(crate) fn rand_pos(
        &mut self,
        x_low: i32,
        x_high: i32,
        y_low: i32,
        y_high: i32,
    ) -> Position {
        let x = self.rand_coordinate(x_low, x_high);
        let y = self.rand_coordinate(y_low, y_high);
        Position::new(x, y)
    }

    /// minigrid's `_rand_subset(items, count)`: draws an index among the items left, removes
    /// it, `count` times. The items are reordered in place: the first `count` are the subset.
    pub(crate) fn rand_subset<T>(&mut self, items: &mut Vec<T>, count: usize) {
        let mut chosen = Vec::with_capacity(count);
        while chosen.len() < count && !items.is_empty() {
            let index = self.rand_elem(items.len());
            chosen.push(items.remove(index));
        }
        chosen.append(items);
        *items = chosen;
    }

    /// minigrid's `put_obj(obj, i, j)`.
    pub(crate) fn put(&mut self, position: Position, cell: Cell) {
        self.grid.set(position, cell);
    }

    /// minigrid's `place_obj(obj, top, size, reject_fn, max_tries)` ([`place_object`]).
    pub(crate) fn place_obj(
        &mut self,
        cell: Option<Cell>,
        top: Option<Position>,
        size: Option<(i32, i32)>,
        reject: impl Fn(Position) -> bool,
        max_tries: Option<u32>,
    ) -> Result<Position, PlacementFailed> {
        if self.draws_left == 0 {
            return Err(PlacementFailed::TooManyTries);
        }
        // At most the draws left: `max_tries` counts from 0, and the loop gives up after
        // `max_tries + 1` draws.
        let budget = u32::try_from(self.draws_left - 1).unwrap_or(u32::MAX);
        let (result, draws) = place_object_counting(
            &mut self.grid,
            self.agent,
            self.rng,
            cell,
            (top, size),
            reject,
            (max_tries, budget),
        );
        self.draws_left = self.draws_left.saturating_sub(draws);
        // A search minigrid runs without a limit that ran out of the budget: the layout fails.
        result
    }

    /// minigrid's `place_agent(top, size, rand_dir, max_tries)`: the agent on an empty cell
    /// of the rectangle, then (with `random_direction`) a direction `integers(0, 4)`.
    pub(crate) fn place_agent(
        &mut self,
        top: Option<Position>,
        size: Option<(i32, i32)>,
        random_direction: bool,
        max_tries: Option<u32>,
    ) -> Result<Position, PlacementFailed> {
        self.agent = NOWHERE;
        let position = self.place_obj(None, top, size, |_| false, max_tries)?;
        self.agent = position;
        if random_direction {
            self.draw_direction();
        }
        Ok(position)
    }

    /// A direction `integers(0, 4)` for the agent (minigrid's `agent_dir =
    /// self._rand_int(0, 4)`).
    pub(crate) fn draw_direction(&mut self) {
        self.direction = Direction::from_index(self.rand_int(0, 4) as u8);
        self.direction_drawn = true;
    }

    /// The agent at `position` facing `direction` (no draw).
    pub(crate) fn set_agent(&mut self, position: Position, direction: Direction) {
        self.agent = position;
        self.direction = direction;
        self.direction_drawn = false;
    }
}

/// minigrid's `place_obj(obj, top, size, reject_fn, max_tries)` on `grid` with the agent at
/// `agent`: draws positions in the rectangle (clipped to the grid) until one is empty, not the
/// agent's and not rejected, and puts `cell` there (`None`: nothing, as when placing the
/// agent). Allocates nothing.
///
/// `max_tries: None` is minigrid's infinite default; there, a rectangle with no cell that
/// could take the object fails at once ([`PlacementFailed::NoRoom`]) where minigrid would
/// draw forever. With `Some(max)`, the loop gives up after `max + 1` draws, as minigrid's
/// `num_tries > max_tries` test does.
#[allow(clippy::too_many_arguments)]
pub(crate) fn place_object<R: Rng + ?Sized>(
    grid: &mut Grid,
    agent: Position,
    rng: &mut R,
    cell: Option<Cell>,
    top: Option<Position>,
    size: Option<(i32, i32)>,
    reject: impl Fn(Position) -> bool,
    max_tries: Option<u32>,
) -> Result<Position, PlacementFailed> {
    place_object_counting(
        grid,
        agent,
        rng,
        cell,
        (top, size),
        reject,
        (max_tries, u32::MAX),
    )
    .0
}

/// [`place_object`] giving up after `budget + 1` draws whatever `max_tries` says (`None`
/// still fails at once on a rectangle with no free cell), and the number of positions it drew.
fn place_object_counting<R: Rng + ?Sized>(
    grid: &mut Grid,
    agent: Position,
    rng: &mut R,
    cell: Option<Cell>,
    (top, size): (Option<Position>, Option<(i32, i32)>),
    reject: impl Fn(Position) -> bool,
    (max_tries, budget): (Option<u32>, u32),
) -> (Result<Position, PlacementFailed>, u64) {
    let top = top.map_or(Position::new(0, 0), |top| {
        Position::new(top.x.max(0), top.y.max(0))
    });
    let (width, height) = (grid.width() as i32, grid.height() as i32);
    let size = size.unwrap_or((width, height));
    let x_high = (top.x + size.0).min(width);
    let y_high = (top.y + size.1).min(height);
    let free = |position: Position| {
        grid.get(position).is_empty() && position != agent && !reject(position)
    };
    if max_tries.is_none()
        && !(top.y..y_high).any(|y| (top.x..x_high).any(|x| free(Position::new(x, y))))
    {
        return (Err(PlacementFailed::NoRoom), 0);
    }
    let mut tries: u32 = 0;
    let position = loop {
        if max_tries.is_some_and(|max| tries > max) || tries > budget {
            return (Err(PlacementFailed::TooManyTries), u64::from(tries));
        }
        tries = tries.saturating_add(1);
        let x = integers(rng, i64::from(top.x), i64::from(x_high)).unwrap_or(i64::from(top.x));
        let y = integers(rng, i64::from(top.y), i64::from(y_high)).unwrap_or(i64::from(top.y));
        let position = Position::new(x as i32, y as i32);
        if free(position) {
            break position;
        }
    };
    if let Some(cell) = cell {
        grid.set(position, cell);
    }
    (Ok(position), u64::from(tries))
}
