//! minigrid's environments, one file per environment class: its parameters (a variant of
//! [`EnvParams`]), its grid generation in minigrid's order of draws, and the crate's `Class`
//! trait implemented for it (missions, extra rules of its `step`, sizes, documentation: all a
//! class defines, in one place).
//!
//! Each module documents its environments in the domain documentation template (description
//! and mission, the actions the task needs, rewards, starting state, episode end, parameters,
//! reference), adding to what [`MiniGrid`](crate::MiniGrid) documents for all of them (the
//! actions, the observations, the success reward, the time limit). The registration of each
//! id carries both texts ([`rl_core::registry::Documentation`]) for the environment
//! catalogue.

pub mod crossing;
pub mod dist_shift;
pub mod door_key;
pub mod dynamic_obstacles;
pub mod empty;
pub mod fetch;
pub mod four_rooms;
pub mod go_to;
pub mod key_corridor;
pub mod lava_gap;
pub mod locked_room;
pub mod memory;
pub mod multi_room;
pub mod obstructed_maze;
pub mod playground;
pub mod put_near;
pub mod red_blue_doors;
pub mod unlock;

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::generation::{Builder, PlacementFailed};
use crate::grid::Position;
use crate::object::{Cell, ObjectKind};
use crate::room_grid::room_grid_size;
use crate::state::Direction;

pub use crate::grid::MAX_SIDE;

use self::crossing::CrossingParams;
use self::dist_shift::DistShiftParams;
use self::door_key::DoorKeyParams;
use self::dynamic_obstacles::DynamicObstaclesParams;
use self::empty::EmptyParams;
use self::fetch::FetchParams;
use self::four_rooms::FourRoomsParams;
use self::go_to::{GoToDoorParams, GoToObjectParams};
use self::key_corridor::KeyCorridorParams;
use self::lava_gap::LavaGapParams;
use self::locked_room::LockedRoomParams;
use self::memory::MemoryParams;
use self::multi_room::MultiRoomParams;
use self::obstructed_maze::{ObstructedMaze1Params, ObstructedMazeFullParams};
use self::put_near::PutNearParams;
use self::red_blue_doors::RedBlueDoorsParams;
use self::unlock::UnlockTask;

/// What a generation step gives: `Err` where minigrid raises (or would draw forever).
pub(crate) type Generated = Result<(), PlacementFailed>;

/// What the obstacles of LavaGap and the crossing environments are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Obstacle {
    /// Lava (ends the episode without reward).
    Lava,
    /// Walls.
    Wall,
}

impl Obstacle {
    /// The obstacle's cell.
    pub fn cell(self) -> Cell {
        match self {
            Obstacle::Lava => Cell::LAVA,
            Obstacle::Wall => Cell::WALL,
        }
    }
}

/// The environment a [`MiniGrid`](crate::MiniGrid) domain runs, with its parameters: one
/// variant per minigrid environment class, each with the class's keyword arguments (in
/// snake case) and their defaults. In JSON, `{"door_key": {"size": 5}}`, or `"unlock"` for the
/// environments without parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EnvParams {
    /// `EmptyEnv`.
    Empty(EmptyParams),
    /// `DoorKeyEnv`.
    DoorKey(DoorKeyParams),
    /// `FourRoomsEnv`.
    FourRooms(FourRoomsParams),
    /// `MultiRoomEnv`.
    MultiRoom(MultiRoomParams),
    /// `LavaGapEnv`.
    LavaGap(LavaGapParams),
    /// `CrossingEnv` (LavaCrossing and SimpleCrossing).
    Crossing(CrossingParams),
    /// `DistShiftEnv`.
    DistShift(DistShiftParams),
    /// `UnlockEnv`.
    Unlock,
    /// `UnlockPickupEnv`.
    UnlockPickup,
    /// `BlockedUnlockPickupEnv`.
    BlockedUnlockPickup,
    /// `KeyCorridorEnv`.
    KeyCorridor(KeyCorridorParams),
    /// `LockedRoomEnv`.
    LockedRoom(LockedRoomParams),
    /// `DynamicObstaclesEnv`.
    DynamicObstacles(DynamicObstaclesParams),
    /// `MemoryEnv`.
    Memory(MemoryParams),
    /// `FetchEnv`.
    Fetch(FetchParams),
    /// `GoToDoorEnv`.
    GoToDoor(GoToDoorParams),
    /// `GoToObjectEnv`.
    GoToObject(GoToObjectParams),
    /// `PutNearEnv`.
    PutNear(PutNearParams),
    /// `RedBlueDoorEnv`.
    RedBlueDoors(RedBlueDoorsParams),
    /// `PlaygroundEnv`.
    Playground,
    /// `ObstructedMaze_1Dlhb` (the `1D*` ids).
    ObstructedMaze1(ObstructedMaze1Params),
    /// `ObstructedMaze_Full` and `ObstructedMaze_Full_V1` (the other ids).
    ObstructedMazeFull(ObstructedMazeFullParams),
}

impl Default for EnvParams {
    fn default() -> Self {
        EnvParams::Empty(EmptyParams::default())
    }
}

/// The extra rules an environment's `step` adds to `MiniGridEnv.step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rules {
    /// None: the goal and lava end the episode.
    Plain,
    /// `UnlockEnv`: toggling the door at `task.first` open ends the episode with reward.
    Unlock,
    /// Picking up the marked object ends the episode with reward.
    PickUpMarked,
    /// `DynamicObstaclesEnv`: obstacles move first; moving forward into anything but the
    /// goal ends the episode with reward -1.
    DynamicObstacles,
    /// `MemoryEnv`: pickup is toggle; reaching `task.first` wins, `task.second` loses.
    Memory,
    /// `FetchEnv`: carrying anything ends the episode, with reward if it is `task.object`.
    Fetch,
    /// `GoToDoorEnv`, `GoToObjectEnv`: toggle ends the episode; done ends it, with reward
    /// next to `task.first`.
    GoTo,
    /// `PutNearEnv`.
    PutNear,
    /// `RedBlueDoorEnv`: opening the blue door ends the episode, with reward if the red one
    /// was open; opening the red one after the blue ends it without.
    RedBlueDoors,
}

/// One of minigrid's environment classes: everything the domain, its registration and the
/// catalogue need of it, in one `impl` beside the class's generator. The four methods with a
/// default give `MiniGridEnv`'s own defaults (no seeing through walls, the keyword left to the
/// user, the 7 actions, no extra rules), which a minigrid class also inherits unless it says
/// otherwise; the others have none, so that a new class says them; [`EnvParams`] hands each
/// call to its variant's class (`with_class!`).
pub(crate) trait Class {
    /// The class's name as JSON writes its variant (`door_key`), for messages.
    fn name(&self) -> &'static str;
    /// Checks the parameters, recording the first problem.
    fn check_parameters(&self, check: &mut Check);
    /// The grid's width and height (valid parameters).
    fn grid_size(&self) -> (usize, usize);
    /// minigrid's default `max_steps` (valid parameters).
    fn default_max_steps(&self) -> u64;
    /// Whether the agent sees through walls (no visibility propagation), as the class fixes it.
    fn see_through_walls(&self) -> bool {
        false
    }
    /// Whether the class passes `see_through_walls` to `MiniGridEnv` itself, so that its
    /// constructor refuses the keyword.
    fn refuses_see_through_walls(&self) -> bool {
        false
    }
    /// The number of actions.
    fn action_count(&self) -> usize {
        7
    }
    /// Every mission the class can give, in the order of the state's mission index.
    fn missions(&self) -> Vec<String>;
    /// The extra rules of the class's `step`.
    fn rules(&self) -> Rules {
        Rules::Plain
    }
    /// minigrid's `_gen_grid` of the class, on `builder`.
    fn generate_grid<R: Rng + ?Sized>(&self, builder: &mut Builder<'_, R>) -> Generated;
    /// The documentation its ids' registrations carry: their family (the catalogue page,
    /// `MiniGrid-DoorKey`), the class's text in the domain template (its Markdown file), then
    /// [`MINIGRID_DOCUMENTATION`].
    fn documentation(&self) -> Documentation;
    /// What the agent has to do, in a few words (the ids' descriptions).
    fn task(&self) -> &'static str;
}

/// What every MiniGrid environment shares: the text [`MiniGrid`](crate::MiniGrid)'s rustdoc
/// includes, which every class's documentation ends with.
pub(crate) const MINIGRID_DOCUMENTATION: &str = include_str!("../minigrid.md");

/// The side of a square grid, squared, as minigrid's `max_steps` defaults use it.
pub(crate) fn square(side: usize) -> u64 {
    (side * side) as u64
}

/// Runs `$body` with `$class` bound to the [`Class`] of `$env`'s variant: the one `match` on
/// the variants, which a new class joins with one arm.
macro_rules! with_class {
    ($env:expr, $class:ident => $body:expr) => {
        match $env {
            EnvParams::Empty($class) => $body,
            EnvParams::DoorKey($class) => $body,
            EnvParams::FourRooms($class) => $body,
            EnvParams::MultiRoom($class) => $body,
            EnvParams::LavaGap($class) => $body,
            EnvParams::Crossing($class) => $body,
            EnvParams::DistShift($class) => $body,
            EnvParams::Unlock => {
                let $class = &UnlockTask::Unlock;
                $body
            }
            EnvParams::UnlockPickup => {
                let $class = &UnlockTask::UnlockPickup;
                $body
            }
            EnvParams::BlockedUnlockPickup => {
                let $class = &UnlockTask::BlockedUnlockPickup;
                $body
            }
            EnvParams::KeyCorridor($class) => $body,
            EnvParams::LockedRoom($class) => $body,
            EnvParams::DynamicObstacles($class) => $body,
            EnvParams::Memory($class) => $body,
            EnvParams::Fetch($class) => $body,
            EnvParams::GoToDoor($class) => $body,
            EnvParams::GoToObject($class) => $body,
            EnvParams::PutNear($class) => $body,
            EnvParams::RedBlueDoors($class) => $body,
            EnvParams::Playground => {
                let $class = &playground::Playground;
                $body
            }
            EnvParams::ObstructedMaze1($class) => $body,
            EnvParams::ObstructedMazeFull($class) => $body,
        }
    };
}

impl EnvParams {
    /// The name of the environment class (the variant, as JSON names it), for messages.
    pub fn class(&self) -> &'static str {
        with_class!(self, class => class.name())
    }

    /// Checks the parameters: the first problem found, naming the parameter.
    pub fn validate(&self) -> Result<(), Error> {
        let mut check = Check::new(self.class());
        with_class!(self, class => class.check_parameters(&mut check));
        check.finish()
    }

    /// The grid's width and height (valid parameters).
    pub fn grid_size(&self) -> (usize, usize) {
        with_class!(self, class => class.grid_size())
    }

    /// minigrid's default `max_steps` of the environment (valid parameters).
    pub fn default_max_steps(&self) -> u64 {
        with_class!(self, class => class.default_max_steps())
    }

    /// Whether the agent sees through walls (no visibility propagation), as each minigrid
    /// class fixes it.
    pub fn see_through_walls(&self) -> bool {
        with_class!(self, class => class.see_through_walls())
    }

    /// Whether minigrid's class passes `see_through_walls` to `MiniGridEnv` itself (so that
    /// its constructor refuses the keyword).
    pub(crate) fn refuses_see_through_walls(&self) -> bool {
        with_class!(self, class => class.refuses_see_through_walls())
    }

    /// The number of actions: 3 for Dynamic-Obstacles (left, right, forward), 7 otherwise.
    pub fn action_count(&self) -> usize {
        with_class!(self, class => class.action_count())
    }

    /// Every mission the environment can give, in the order of the state's mission index.
    pub fn missions(&self) -> Vec<String> {
        with_class!(self, class => class.missions())
    }

    /// The extra rules of the environment's `step`.
    pub(crate) fn rules(&self) -> Rules {
        with_class!(self, class => class.rules())
    }

    /// minigrid's `_gen_grid` of the environment, on `builder`.
    pub(crate) fn generate<R: Rng + ?Sized>(&self, builder: &mut Builder<'_, R>) -> Generated {
        with_class!(self, class => class.generate_grid(builder))
    }

    /// The documentation of the environment's family, which its ids' registrations carry.
    pub(crate) fn documentation(&self) -> Documentation {
        with_class!(self, class => class.documentation())
    }

    /// What the agent has to do, in a few words.
    pub(crate) fn task(&self) -> &'static str {
        with_class!(self, class => class.task())
    }
}

/// The agent's start position given as `[x, y]`.
pub(crate) fn start_position(start: [i32; 2]) -> Position {
    Position::new(start[0], start[1])
}

/// The agent's start direction given as an index.
pub(crate) fn start_direction(direction: u8) -> Direction {
    Direction::from_index(direction)
}

/// Collects the first parameter problem found.
pub(crate) struct Check {
    class: &'static str,
    error: Option<Error>,
}

impl Check {
    fn new(class: &'static str) -> Check {
        Check { class, error: None }
    }

    /// Records a problem with `parameter` (the first one wins).
    pub(crate) fn fail(&mut self, parameter: &str, reason: String) {
        if self.error.is_none() {
            self.error = Some(Error::InvalidParameter {
                parameter: format!("{}.{parameter}", self.class),
                reason,
            });
        }
    }

    /// A grid side between `min` and [`MAX_SIDE`].
    pub(crate) fn side(&mut self, parameter: &str, value: usize, min: usize) {
        if !(min..=MAX_SIDE).contains(&value) {
            self.fail(
                parameter,
                format!("must be between {min} and {MAX_SIDE} (a grid side), got {value}"),
            );
        }
    }

    /// At least `min`.
    pub(crate) fn at_least(&mut self, parameter: &str, value: usize, min: usize) {
        if value < min {
            self.fail(parameter, format!("must be at least {min}, got {value}"));
        }
    }

    /// At most `max`.
    pub(crate) fn at_most(&mut self, parameter: &str, value: usize, max: usize) {
        if value > max {
            self.fail(parameter, format!("must be at most {max}, got {value}"));
        }
    }

    /// An odd number.
    pub(crate) fn odd(&mut self, parameter: &str, value: usize) {
        if value % 2 == 0 {
            self.fail(parameter, format!("must be odd, got {value}"));
        }
    }

    /// A start position strictly inside the walls of a `width` by `height` grid.
    pub(crate) fn start(
        &mut self,
        parameter: &str,
        start: Option<[i32; 2]>,
        width: usize,
        height: usize,
    ) {
        if let Some([x, y]) = start {
            let inside =
                x >= 1 && y >= 1 && x as u64 + 1 < width as u64 && y as u64 + 1 < height as u64;
            if !inside {
                self.fail(
                    parameter,
                    format!(
                        "must lie inside the walls of the {width} by {height} grid \
                         (1 to {} and 1 to {}), got [{x}, {y}]",
                        width.saturating_sub(2),
                        height.saturating_sub(2)
                    ),
                );
            }
        }
    }

    /// A direction index, 0 to 3.
    pub(crate) fn direction(&mut self, parameter: &str, direction: u8) {
        if direction > 3 {
            self.fail(
                parameter,
                format!("must be a direction 0 to 3 (right, down, left, up), got {direction}"),
            );
        }
    }

    /// `count` objects and the agent fit inside the walls of a `width` by `height` room.
    pub(crate) fn objects(&mut self, parameter: &str, count: usize, width: usize, height: usize) {
        let inside = width
            .saturating_sub(2)
            .saturating_mul(height.saturating_sub(2));
        if count == 0 || count >= inside {
            self.fail(
                parameter,
                format!(
                    "must be between 1 and {} (the cells inside the walls, one left for the \
                     agent), got {count}",
                    inside.saturating_sub(1)
                ),
            );
        }
    }

    /// A room grid whose size stays within [`MAX_SIDE`]: a grid too wide names the room size,
    /// one too tall (and not too wide) the number of rows.
    pub(crate) fn room_grid(
        &mut self,
        (size_parameter, room_size): (&str, usize),
        (rows_parameter, rows): (&str, usize),
        columns: usize,
    ) {
        if room_size < 3 || rows == 0 {
            return;
        }
        let (width, height) = room_grid_size(room_size.min(MAX_SIDE), rows.min(MAX_SIDE), columns);
        if width > MAX_SIDE || height > MAX_SIDE {
            let parameter = if width > MAX_SIDE {
                size_parameter
            } else {
                rows_parameter
            };
            self.fail(
                parameter,
                format!(
                    "makes a grid of {width} by {height} ({size_parameter} {room_size}, \
                     {rows_parameter} {rows}), beyond the limit of {MAX_SIDE} a side"
                ),
            );
        }
    }

    /// An object the agent can pick up (a key, ball or box).
    pub(crate) fn pickable(&mut self, parameter: &str, kind: ObjectKind) {
        if !matches!(kind, ObjectKind::Key | ObjectKind::Ball | ObjectKind::Box) {
            self.fail(
                parameter,
                format!(
                    "must be \"key\", \"ball\" or \"box\", got \"{}\"",
                    kind.name()
                ),
            );
        }
    }

    fn finish(self) -> Result<(), Error> {
        self.error.map_or(Ok(()), Err)
    }
}
