//! Memory (`MiniGrid-MemoryS*`): see an object in the start room, walk down the hallway and
//! go to the matching one of two objects at its end.
//!
#![doc = include_str!("memory.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, Color};
use crate::state::Direction;

/// The mission of Memory.
pub const MISSION: &str = "go to the matching object at the end of the hallway";

/// The parameters of minigrid's `MemoryEnv`; [`Default`] is its defaults (size 8 is not odd,
/// so the default here is `MiniGrid-MemoryS7-v0`'s size 7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MemoryParams {
    /// The side of the square grid (7; odd, at least 7).
    pub size: usize,
    /// Whether the hallway's length is drawn (false: `size - 3`).
    pub random_length: bool,
}

impl Default for MemoryParams {
    fn default() -> Self {
        MemoryParams {
            size: 7,
            random_length: false,
        }
    }
}

impl super::Class for MemoryParams {
    fn name(&self) -> &'static str {
        "memory"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 7);
        check.odd("size", self.size);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        5 * super::square(self.size)
    }

    fn refuses_see_through_walls(&self) -> bool {
        true
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn rules(&self) -> super::Rules {
        super::Rules::Memory
    }

    /// Generates the grid; the success cell is `task.first`, the failure cell `task.second`.
    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.horizontal_wall(0, 0, None, Cell::WALL);
        b.grid.horizontal_wall(0, height - 1, None, Cell::WALL);
        b.grid.vertical_wall(0, 0, None, Cell::WALL);
        b.grid.vertical_wall(width - 1, 0, None, Cell::WALL);
        let (upper, lower) = (height / 2 - 2, height / 2 + 2);
        let hallway_end = if self.random_length {
            b.rand_coordinate(4, width - 2)
        } else {
            width - 3
        };
        for i in 1..5 {
            b.put(Position::new(i, upper), Cell::WALL);
            b.put(Position::new(i, lower), Cell::WALL);
        }
        b.put(Position::new(4, upper + 1), Cell::WALL);
        b.put(Position::new(4, lower - 1), Cell::WALL);
        for i in 5..hallway_end {
            b.put(Position::new(i, upper + 1), Cell::WALL);
            b.put(Position::new(i, lower - 1), Cell::WALL);
        }
        for j in 0..height {
            if j != height / 2 {
                b.put(Position::new(hallway_end, j), Cell::WALL);
            }
            b.put(Position::new(hallway_end + 2, j), Cell::WALL);
        }
        let x = b.rand_coordinate(1, hallway_end + 1);
        b.set_agent(Position::new(x, height / 2), Direction::Right);
        // Index 0 is a key, 1 a ball (`[Key, Ball]`).
        let object = |key: bool| {
            if key {
                Cell::key(Color::Green)
            } else {
                Cell::ball(Color::Green)
            }
        };
        let start_is_key = b.rand_elem(2) == 0;
        b.put(Position::new(1, height / 2 - 1), object(start_is_key));
        // `[[Ball, Key], [Key, Ball]]`: index 0 puts the ball above.
        let above_is_key = b.rand_elem(2) == 1;
        let above = Position::new(hallway_end + 1, height / 2 - 2);
        let below = Position::new(hallway_end + 1, height / 2 + 2);
        b.put(above, object(above_is_key));
        b.put(below, object(!above_is_key));
        let (success, failure) = if start_is_key == above_is_key {
            (above.offset(0, 1), below.offset(0, -1))
        } else {
            (below.offset(0, -1), above.offset(0, 1))
        };
        b.task.first = success;
        b.task.second = failure;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-Memory",
            &[include_str!("memory.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "remember the object seen and go to its match"
    }
}
