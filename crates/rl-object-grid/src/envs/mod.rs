//! minigrid's environments, one file per environment class: their parameters ([`EnvParams`],
//! one variant per class), grid generation in minigrid's order of draws, missions and the extra
//! rules of their `step`.
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
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::generation::{Builder, PlacementFailed};
use crate::grid::Position;
use crate::object::{Cell, Color, ObjectKind};
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
use self::go_to::{GoToDoorParams, GoToObjectParams, KINDS};
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

impl EnvParams {
    /// The name of the environment class (the variant, as JSON names it), for messages.
    pub fn class(&self) -> &'static str {
        match self {
            EnvParams::Empty(_) => "empty",
            EnvParams::DoorKey(_) => "door_key",
            EnvParams::FourRooms(_) => "four_rooms",
            EnvParams::MultiRoom(_) => "multi_room",
            EnvParams::LavaGap(_) => "lava_gap",
            EnvParams::Crossing(_) => "crossing",
            EnvParams::DistShift(_) => "dist_shift",
            EnvParams::Unlock => "unlock",
            EnvParams::UnlockPickup => "unlock_pickup",
            EnvParams::BlockedUnlockPickup => "blocked_unlock_pickup",
            EnvParams::KeyCorridor(_) => "key_corridor",
            EnvParams::LockedRoom(_) => "locked_room",
            EnvParams::DynamicObstacles(_) => "dynamic_obstacles",
            EnvParams::Memory(_) => "memory",
            EnvParams::Fetch(_) => "fetch",
            EnvParams::GoToDoor(_) => "go_to_door",
            EnvParams::GoToObject(_) => "go_to_object",
            EnvParams::PutNear(_) => "put_near",
            EnvParams::RedBlueDoors(_) => "red_blue_doors",
            EnvParams::Playground => "playground",
            EnvParams::ObstructedMaze1(_) => "obstructed_maze1",
            EnvParams::ObstructedMazeFull(_) => "obstructed_maze_full",
        }
    }

    /// Checks the parameters: the first problem found, naming the parameter.
    pub fn validate(&self) -> Result<(), Error> {
        let mut check = Check::new(self.class());
        match self {
            EnvParams::Empty(p) => p.check(&mut check),
            EnvParams::DoorKey(p) => p.check(&mut check),
            EnvParams::FourRooms(p) => p.check(&mut check),
            EnvParams::MultiRoom(p) => p.check(&mut check),
            EnvParams::LavaGap(p) => p.check(&mut check),
            EnvParams::Crossing(p) => p.check(&mut check),
            EnvParams::DistShift(p) => p.check(&mut check),
            EnvParams::KeyCorridor(p) => p.check(&mut check),
            EnvParams::LockedRoom(p) => p.check(&mut check),
            EnvParams::DynamicObstacles(p) => p.check(&mut check),
            EnvParams::Memory(p) => p.check(&mut check),
            EnvParams::Fetch(p) => p.check(&mut check),
            EnvParams::GoToDoor(p) => p.check(&mut check),
            EnvParams::GoToObject(p) => p.check(&mut check),
            EnvParams::PutNear(p) => p.check(&mut check),
            EnvParams::RedBlueDoors(p) => p.check(&mut check),
            EnvParams::ObstructedMazeFull(p) => p.check(&mut check),
            EnvParams::Unlock
            | EnvParams::UnlockPickup
            | EnvParams::BlockedUnlockPickup
            | EnvParams::Playground
            | EnvParams::ObstructedMaze1(_) => {}
        }
        check.finish()
    }

    /// The grid's width and height (valid parameters).
    pub fn grid_size(&self) -> (usize, usize) {
        match self {
            EnvParams::Empty(p) => (p.size, p.size),
            EnvParams::DoorKey(p) => (p.size, p.size),
            EnvParams::FourRooms(_) => (four_rooms::SIZE, four_rooms::SIZE),
            EnvParams::MultiRoom(p) => (p.width, p.height),
            EnvParams::LavaGap(p) => (p.size, p.size),
            EnvParams::Crossing(p) => (p.size, p.size),
            EnvParams::DistShift(p) => (p.width, p.height),
            EnvParams::Unlock | EnvParams::UnlockPickup | EnvParams::BlockedUnlockPickup => {
                room_grid_size(unlock::ROOM_SIZE, 1, 2)
            }
            EnvParams::KeyCorridor(p) => room_grid_size(p.room_size, p.num_rows, 3),
            EnvParams::LockedRoom(p) => (p.size, p.size),
            EnvParams::DynamicObstacles(p) => (p.size, p.size),
            EnvParams::Memory(p) => (p.size, p.size),
            EnvParams::Fetch(p) => (p.size, p.size),
            EnvParams::GoToDoor(p) => (p.size, p.size),
            EnvParams::GoToObject(p) => (p.size, p.size),
            EnvParams::PutNear(p) => (p.size, p.size),
            EnvParams::RedBlueDoors(p) => (2 * p.size, p.size),
            EnvParams::Playground => (playground::SIZE, playground::SIZE),
            EnvParams::ObstructedMaze1(_) => room_grid_size(obstructed_maze::ROOM_SIZE, 1, 2),
            EnvParams::ObstructedMazeFull(_) => room_grid_size(obstructed_maze::ROOM_SIZE, 3, 3),
        }
    }

    /// minigrid's default `max_steps` of the environment (valid parameters).
    pub fn default_max_steps(&self) -> u64 {
        let square = |side: usize| (side * side) as u64;
        match self {
            EnvParams::Empty(p) => 4 * square(p.size),
            EnvParams::DoorKey(p) => 10 * square(p.size),
            EnvParams::FourRooms(_) | EnvParams::Playground => 100,
            EnvParams::MultiRoom(p) => p.max_num_rooms as u64 * 20,
            EnvParams::LavaGap(p) => 4 * square(p.size),
            EnvParams::Crossing(p) => 4 * square(p.size),
            EnvParams::DistShift(p) => 4 * (p.width * p.height) as u64,
            EnvParams::Unlock | EnvParams::UnlockPickup => 8 * square(unlock::ROOM_SIZE),
            EnvParams::BlockedUnlockPickup => 16 * square(unlock::ROOM_SIZE),
            EnvParams::KeyCorridor(p) => 30 * square(p.room_size),
            EnvParams::LockedRoom(p) => 10 * p.size as u64,
            EnvParams::DynamicObstacles(p) => 4 * square(p.size),
            EnvParams::Memory(p) => 5 * square(p.size),
            EnvParams::Fetch(p) => 5 * square(p.size),
            EnvParams::GoToDoor(p) => 4 * square(p.size),
            EnvParams::GoToObject(p) => 5 * square(p.size),
            EnvParams::PutNear(p) => 5 * p.size as u64,
            EnvParams::RedBlueDoors(p) => 20 * square(p.size),
            EnvParams::ObstructedMaze1(_) => 4 * 2 * square(obstructed_maze::ROOM_SIZE),
            EnvParams::ObstructedMazeFull(p) => {
                // Python's integers do not overflow: a cap past u64 is no cap at all.
                (p.num_rooms_visited as u64).saturating_mul(4 * square(obstructed_maze::ROOM_SIZE))
            }
        }
    }

    /// Whether the agent sees through walls (no visibility propagation), as each minigrid
    /// class fixes it.
    pub fn see_through_walls(&self) -> bool {
        // Exhaustive, so that a new class must say.
        match self {
            EnvParams::Empty(_)
            | EnvParams::DistShift(_)
            | EnvParams::DynamicObstacles(_)
            | EnvParams::Fetch(_)
            | EnvParams::GoToDoor(_)
            | EnvParams::GoToObject(_)
            | EnvParams::PutNear(_) => true,
            EnvParams::DoorKey(_)
            | EnvParams::FourRooms(_)
            | EnvParams::MultiRoom(_)
            | EnvParams::LavaGap(_)
            | EnvParams::Crossing(_)
            | EnvParams::Unlock
            | EnvParams::UnlockPickup
            | EnvParams::BlockedUnlockPickup
            | EnvParams::KeyCorridor(_)
            | EnvParams::LockedRoom(_)
            | EnvParams::Memory(_)
            | EnvParams::RedBlueDoors(_)
            | EnvParams::Playground
            | EnvParams::ObstructedMaze1(_)
            | EnvParams::ObstructedMazeFull(_) => false,
        }
    }

    /// The number of actions: 3 for Dynamic-Obstacles (left, right, forward), 7 otherwise.
    pub fn action_count(&self) -> usize {
        // Exhaustive, so that a new class must say.
        match self {
            EnvParams::DynamicObstacles(_) => 3,
            EnvParams::Empty(_)
            | EnvParams::DoorKey(_)
            | EnvParams::FourRooms(_)
            | EnvParams::MultiRoom(_)
            | EnvParams::LavaGap(_)
            | EnvParams::Crossing(_)
            | EnvParams::DistShift(_)
            | EnvParams::Unlock
            | EnvParams::UnlockPickup
            | EnvParams::BlockedUnlockPickup
            | EnvParams::KeyCorridor(_)
            | EnvParams::LockedRoom(_)
            | EnvParams::Memory(_)
            | EnvParams::Fetch(_)
            | EnvParams::GoToDoor(_)
            | EnvParams::GoToObject(_)
            | EnvParams::PutNear(_)
            | EnvParams::RedBlueDoors(_)
            | EnvParams::Playground
            | EnvParams::ObstructedMaze1(_)
            | EnvParams::ObstructedMazeFull(_) => 7,
        }
    }

    /// Every mission the environment can give, in the order of the state's mission index.
    pub fn missions(&self) -> Vec<String> {
        let colors = Color::ALL;
        match self {
            EnvParams::Empty(_) | EnvParams::DistShift(_) | EnvParams::DynamicObstacles(_) => {
                vec![empty::MISSION.to_owned()]
            }
            EnvParams::DoorKey(_) => vec![door_key::MISSION.to_owned()],
            EnvParams::FourRooms(_) => vec![four_rooms::MISSION.to_owned()],
            EnvParams::MultiRoom(_) => vec![multi_room::MISSION.to_owned()],
            EnvParams::LavaGap(LavaGapParams { obstacle_type, .. })
            | EnvParams::Crossing(CrossingParams { obstacle_type, .. }) => {
                vec![
                    match obstacle_type {
                        Obstacle::Lava => lava_gap::MISSION_LAVA,
                        Obstacle::Wall => lava_gap::MISSION_WALL,
                    }
                    .to_owned(),
                ]
            }
            EnvParams::Unlock => vec![unlock::MISSION.to_owned()],
            EnvParams::UnlockPickup | EnvParams::BlockedUnlockPickup => colors
                .iter()
                .map(|color| format!("pick up the {color} box"))
                .collect(),
            EnvParams::KeyCorridor(p) => colors
                .iter()
                .map(|color| format!("pick up the {color} {}", p.obj_type.name()))
                .collect(),
            EnvParams::LockedRoom(_) => colors
                .iter()
                .flat_map(|locked| {
                    colors.iter().map(move |key_room| {
                        format!(
                            "get the {locked} key from the {key_room} room, unlock the {locked} \
                             door and go to the goal"
                        )
                    })
                })
                .collect(),
            EnvParams::Memory(_) => vec![memory::MISSION.to_owned()],
            EnvParams::Fetch(_) => fetch::SYNTAX
                .iter()
                .flat_map(|syntax| {
                    colors.iter().flat_map(move |color| {
                        ["key", "ball"]
                            .iter()
                            .map(move |kind| format!("{syntax} {color} {kind}"))
                    })
                })
                .collect(),
            EnvParams::GoToDoor(_) => colors
                .iter()
                .map(|color| format!("go to the {color} door"))
                .collect(),
            EnvParams::GoToObject(_) => colors
                .iter()
                .flat_map(|color| {
                    KINDS
                        .iter()
                        .map(move |kind| format!("go to the {color} {}", kind.name()))
                })
                .collect(),
            EnvParams::PutNear(_) => {
                let objects: Vec<(Color, ObjectKind)> = colors
                    .iter()
                    .flat_map(|&color| KINDS.iter().map(move |&kind| (color, kind)))
                    .collect();
                objects
                    .iter()
                    .flat_map(|&(move_color, move_kind)| {
                        objects.iter().map(move |&(color, kind)| {
                            format!(
                                "put the {move_color} {} near the {color} {}",
                                move_kind.name(),
                                kind.name()
                            )
                        })
                    })
                    .collect()
            }
            EnvParams::RedBlueDoors(_) => vec![red_blue_doors::MISSION.to_owned()],
            EnvParams::Playground => vec![String::new()],
            EnvParams::ObstructedMaze1(_) | EnvParams::ObstructedMazeFull(_) => {
                vec![obstructed_maze::MISSION.to_owned()]
            }
        }
    }

    /// The extra rules of the environment's `step`.
    pub(crate) fn rules(&self) -> Rules {
        match self {
            EnvParams::Unlock => Rules::Unlock,
            EnvParams::UnlockPickup
            | EnvParams::BlockedUnlockPickup
            | EnvParams::KeyCorridor(_)
            | EnvParams::ObstructedMaze1(_)
            | EnvParams::ObstructedMazeFull(_) => Rules::PickUpMarked,
            EnvParams::DynamicObstacles(_) => Rules::DynamicObstacles,
            EnvParams::Memory(_) => Rules::Memory,
            EnvParams::Fetch(_) => Rules::Fetch,
            EnvParams::GoToDoor(_) | EnvParams::GoToObject(_) => Rules::GoTo,
            EnvParams::PutNear(_) => Rules::PutNear,
            EnvParams::RedBlueDoors(_) => Rules::RedBlueDoors,
            EnvParams::Empty(_)
            | EnvParams::DoorKey(_)
            | EnvParams::FourRooms(_)
            | EnvParams::MultiRoom(_)
            | EnvParams::LavaGap(_)
            | EnvParams::Crossing(_)
            | EnvParams::DistShift(_)
            | EnvParams::LockedRoom(_)
            | EnvParams::Playground => Rules::Plain,
        }
    }

    /// minigrid's `_gen_grid` of the environment, on `builder`.
    pub(crate) fn generate<R: Rng + ?Sized>(&self, builder: &mut Builder<'_, R>) -> Generated {
        match self {
            EnvParams::Empty(p) => p.generate(builder),
            EnvParams::DoorKey(p) => p.generate(builder),
            EnvParams::FourRooms(p) => p.generate(builder),
            EnvParams::MultiRoom(p) => p.generate(builder),
            EnvParams::LavaGap(p) => p.generate(builder),
            EnvParams::Crossing(p) => p.generate(builder),
            EnvParams::DistShift(p) => p.generate(builder),
            EnvParams::Unlock => unlock::generate(UnlockTask::Unlock, builder),
            EnvParams::UnlockPickup => unlock::generate(UnlockTask::UnlockPickup, builder),
            EnvParams::BlockedUnlockPickup => {
                unlock::generate(UnlockTask::BlockedUnlockPickup, builder)
            }
            EnvParams::KeyCorridor(p) => p.generate(builder),
            EnvParams::LockedRoom(p) => p.generate(builder),
            EnvParams::DynamicObstacles(p) => p.generate(builder),
            EnvParams::Memory(p) => p.generate(builder),
            EnvParams::Fetch(p) => p.generate(builder),
            EnvParams::GoToDoor(p) => p.generate(builder),
            EnvParams::GoToObject(p) => p.generate(builder),
            EnvParams::PutNear(p) => p.generate(builder),
            EnvParams::RedBlueDoors(p) => p.generate(builder),
            EnvParams::Playground => playground::generate(builder),
            EnvParams::ObstructedMaze1(p) => p.generate(builder),
            EnvParams::ObstructedMazeFull(p) => p.generate(builder),
        }
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
