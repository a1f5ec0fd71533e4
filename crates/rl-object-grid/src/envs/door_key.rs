//! DoorKey (`MiniGrid-DoorKey-*`): a key on the agent's side of a wall opens the locked door
//! to the goal.
//!
#![doc = include_str!("door_key.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState};

/// The mission of DoorKey.
pub const MISSION: &str = "use the key to open the door and then get to the goal";

/// The parameters of minigrid's `DoorKeyEnv`; [`Default`] is its defaults
/// (`MiniGrid-DoorKey-8x8-v0`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DoorKeyParams {
    /// The side of the square grid, walls included (8; at least 5).
    pub size: usize,
}

impl Default for DoorKeyParams {
    fn default() -> Self {
        DoorKeyParams { size: 8 }
    }
}

impl super::Class for DoorKeyParams {
    fn name(&self) -> &'static str {
        "door_key"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 5);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        10 * super::square(self.size)
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.wall_rect(0, 0, width, height);
        b.put(Position::new(width - 2, height - 2), Cell::GOAL);
        let split = b.rand_coordinate(2, width - 2);
        b.grid.vertical_wall(split, 0, None, Cell::WALL);
        b.place_agent(None, Some((split, height)), true, None)?;
        let door = b.rand_coordinate(1, height - 2);
        b.put(
            Position::new(split, door),
            Cell::door(Color::Yellow, DoorState::Locked),
        );
        b.place_obj(
            Some(Cell::key(Color::Yellow)),
            Some(Position::new(0, 0)),
            Some((split, height)),
            |_| false,
            None,
        )?;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-DoorKey",
            &[include_str!("door_key.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "pick up the key, unlock the door and reach the goal"
    }
}
