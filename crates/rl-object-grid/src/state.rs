//! [`MiniGridState`]: the full state of an episode (grid, agent, carried object, step count,
//! mission) and [`Direction`].

use serde::{Deserialize, Serialize};

use crate::grid::{Grid, Position};
use crate::object::Cell;

/// The direction the agent faces, numbered as minigrid's `agent_dir`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Direction {
    /// Facing right, positive x (0).
    Right = 0,
    /// Facing down, positive y (1).
    Down = 1,
    /// Facing left, negative x (2).
    Left = 2,
    /// Facing up, negative y (3).
    Up = 3,
}

impl Direction {
    /// The direction of minigrid's index `index % 4`.
    #[inline]
    pub fn from_index(index: u8) -> Direction {
        match index % 4 {
            0 => Direction::Right,
            1 => Direction::Down,
            2 => Direction::Left,
            _ => Direction::Up,
        }
    }

    /// minigrid's index of the direction (0 right, 1 down, 2 left, 3 up).
    #[inline]
    pub fn index(self) -> u8 {
        self as u8
    }

    /// minigrid's `DIR_TO_VEC`: the step forward, `(dx, dy)`.
    #[inline]
    pub fn vector(self) -> (i32, i32) {
        match self {
            Direction::Right => (1, 0),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Up => (0, -1),
        }
    }

    /// The direction after turning left (counter-clockwise).
    #[inline]
    pub fn turned_left(self) -> Direction {
        Direction::from_index(self.index() + 3)
    }

    /// The direction after turning right (clockwise).
    #[inline]
    pub fn turned_right(self) -> Direction {
        Direction::from_index(self.index() + 1)
    }
}

/// What an environment remembers about its task beyond the grid: the positions and the
/// object its rules test (a target door, the success and failure cells of Memory, the doors of
/// RedBlueDoors, the object to fetch). Each environment documents which fields it uses;
/// the others stay at their defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Task {
    /// The first position the rules test.
    pub first: Position,
    /// The second position the rules test.
    pub second: Position,
    /// The object the rules test (its kind and colour).
    pub object: Cell,
}

/// The state of a MiniGrid episode: the grid, the agent's position, direction and carried
/// object, the step count (the reward depends on it), the mission (an index into the
/// domain's missions), whether the episode ended, the task's positions and, for
/// Dynamic-Obstacles, the moving obstacles in minigrid's order.
///
/// Stepping in place ([`Domain::step_in_place`](rl_core::Domain::step_in_place)) allocates
/// nothing; `Domain::step` returns a new state and so clones the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MiniGridState {
    pub(crate) grid: Grid,
    pub(crate) agent: Position,
    pub(crate) direction: Direction,
    /// Whether the episode's direction was drawn ([`direction_is_drawn`](Self::direction_is_drawn)).
    #[serde(default)]
    pub(crate) direction_drawn: bool,
    pub(crate) carrying: Cell,
    pub(crate) step_count: u64,
    pub(crate) mission: u16,
    pub(crate) terminated: bool,
    pub(crate) task: Task,
    pub(crate) obstacles: Vec<Position>,
}

impl MiniGridState {
    /// The grid (without the agent).
    #[inline]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The agent's position (minigrid's `agent_pos`).
    #[inline]
    pub fn agent_position(&self) -> Position {
        self.agent
    }

    /// The direction the agent faces (minigrid's `agent_dir`).
    #[inline]
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// Whether the reset drew the agent's direction (minigrid's `agent_dir =
    /// self._rand_int(0, 4)`, in `place_agent` with `rand_dir` and in FourRooms with a given
    /// start) rather than setting it (`agent_dir = 0` or the environment's `agent_start_dir`).
    /// minigrid's `agent_dir` is then a NumPy `int64`, else a Python `int`, and turning keeps
    /// its type for the episode: the Python package gives the observation's `direction` and
    /// `agent_dir` the same type.
    #[inline]
    pub fn direction_is_drawn(&self) -> bool {
        self.direction_drawn
    }

    /// The object the agent carries, if any (minigrid's `carrying`).
    #[inline]
    pub fn carrying(&self) -> Option<Cell> {
        (!self.carrying.is_empty()).then_some(self.carrying)
    }

    /// The number of steps taken in the episode (minigrid's `step_count`).
    #[inline]
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    /// The index of the mission among the domain's
    /// [`missions`](crate::MiniGrid::missions).
    #[inline]
    pub fn mission_index(&self) -> usize {
        usize::from(self.mission)
    }

    /// Whether the episode has ended by the task's rules.
    #[inline]
    pub fn is_terminated(&self) -> bool {
        self.terminated
    }

    /// The task's positions and object.
    #[inline]
    pub fn task(&self) -> &Task {
        &self.task
    }

    /// The moving obstacles (Dynamic-Obstacles), in minigrid's order.
    #[inline]
    pub fn obstacles(&self) -> &[Position] {
        &self.obstacles
    }

    /// The cell in front of the agent (minigrid's `front_pos`).
    #[inline]
    pub fn front(&self) -> Position {
        let (dx, dy) = self.direction.vector();
        self.agent.offset(dx, dy)
    }
}
