//! DistShift (`MiniGrid-DistShift1-v0`, `MiniGrid-DistShift2-v0`): two strips of lava
//! between the agent and the goal, the second at a row that differs between the ids.
//!
#![doc = include_str!("dist_shift.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated, start_direction, start_position};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::Cell;

/// The mission of DistShift.
pub const MISSION: &str = "get to the green goal square";

/// The parameters of minigrid's `DistShiftEnv`; [`Default`] is `MiniGrid-DistShift1-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DistShiftParams {
    /// The grid's width (9; at least 7).
    pub width: usize,
    /// The grid's height (7; at least 4).
    pub height: usize,
    /// The agent's start `[x, y]` (`[1, 1]`; `null`: at random with a random direction).
    pub agent_start_pos: Option<[i32; 2]>,
    /// The agent's start direction (0: right).
    pub agent_start_dir: u8,
    /// The row of the second strip of lava (2; 5 for `DistShift2`), inside the walls.
    pub strip2_row: usize,
}

impl Default for DistShiftParams {
    fn default() -> Self {
        DistShiftParams {
            width: 9,
            height: 7,
            agent_start_pos: Some([1, 1]),
            agent_start_dir: 0,
            strip2_row: 2,
        }
    }
}

impl super::Class for DistShiftParams {
    fn name(&self) -> &'static str {
        "dist_shift"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("width", self.width, 7);
        check.side("height", self.height, 4);
        check.start(
            "agent_start_pos",
            self.agent_start_pos,
            self.width,
            self.height,
        );
        check.direction("agent_start_dir", self.agent_start_dir);
        check.at_least("strip2_row", self.strip2_row, 1);
        check.at_most("strip2_row", self.strip2_row, self.height.saturating_sub(2));
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    fn default_max_steps(&self) -> u64 {
        4 * (self.width * self.height) as u64
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
        let (width, height) = (self.width as i32, self.height as i32);
        b.grid.wall_rect(0, 0, width, height);
        b.put(Position::new(width - 2, 1), Cell::GOAL);
        for i in 0..width - 6 {
            b.put(Position::new(3 + i, 1), Cell::LAVA);
            b.put(Position::new(3 + i, self.strip2_row as i32), Cell::LAVA);
        }
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
            "MiniGrid-DistShift",
            &[include_str!("dist_shift.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "reach the goal past lava strips that move between variants"
    }
}
