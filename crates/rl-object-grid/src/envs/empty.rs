//! Empty (`MiniGrid-Empty-*`): a walled room with the goal in the bottom-right corner.
//!
#![doc = include_str!("empty.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated, start_direction, start_position};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::Cell;

/// The mission of Empty.
pub const MISSION: &str = "get to the green goal square";

/// The parameters of minigrid's `EmptyEnv`; [`Default`] is its defaults (`MiniGrid-Empty-8x8-v0`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmptyParams {
    /// The side of the square grid, walls included (8; at least 4).
    pub size: usize,
    /// The agent's start `[x, y]` (`[1, 1]`); `null` places it at random, with a random
    /// direction (the `Random` ids).
    pub agent_start_pos: Option<[i32; 2]>,
    /// The agent's start direction when `agent_start_pos` is given (0: right).
    pub agent_start_dir: u8,
}

impl Default for EmptyParams {
    fn default() -> Self {
        EmptyParams {
            size: 8,
            agent_start_pos: Some([1, 1]),
            agent_start_dir: 0,
        }
    }
}

impl super::Class for EmptyParams {
    fn name(&self) -> &'static str {
        "empty"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 4);
        check.start(
            "agent_start_pos",
            self.agent_start_pos,
            self.size,
            self.size,
        );
        check.direction("agent_start_dir", self.agent_start_dir);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        4 * super::square(self.size)
    }

    fn see_through_walls(&self) -> bool {
        true
    }

    fn refuses_see_through_walls(&self) -> bool {
        true
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.wall_rect(0, 0, width, height);
        b.put(Position::new(width - 2, height - 2), Cell::GOAL);
        match self.agent_start_pos {
            Some(start) => {
                b.set_agent(start_position(start), start_direction(self.agent_start_dir))
            }
            None => {
                b.place_agent(None, None, true, None)?;
            }
        }
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-Empty",
            &[include_str!("empty.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "reach the goal in an empty room"
    }
}
