//! LavaGap (`MiniGrid-LavaGapS*`): a column of lava (or wall) with one gap between the agent
//! and the goal.
//!
#![doc = include_str!("lava_gap.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated, Obstacle};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::Cell;
use crate::state::Direction;

/// The mission of LavaGap with lava.
pub const MISSION_LAVA: &str = "avoid the lava and get to the green goal square";
/// The mission of LavaGap with walls.
pub const MISSION_WALL: &str = "find the opening and get to the green goal square";

/// The mission of LavaGap and the crossing environments, by what their obstacles are.
pub(crate) fn obstacle_mission(obstacle: Obstacle) -> &'static str {
    match obstacle {
        Obstacle::Lava => MISSION_LAVA,
        Obstacle::Wall => MISSION_WALL,
    }
}

/// The parameters of minigrid's `LavaGapEnv`; [`Default`] is `MiniGrid-LavaGapS7-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LavaGapParams {
    /// The side of the square grid (7; at least 5).
    pub size: usize,
    /// What the column is made of (lava).
    pub obstacle_type: Obstacle,
}

impl Default for LavaGapParams {
    fn default() -> Self {
        LavaGapParams {
            size: 7,
            obstacle_type: Obstacle::Lava,
        }
    }
}

impl super::Class for LavaGapParams {
    fn name(&self) -> &'static str {
        "lava_gap"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 5);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        4 * super::square(self.size)
    }

    fn refuses_see_through_walls(&self) -> bool {
        true
    }

    fn missions(&self) -> Vec<String> {
        vec![obstacle_mission(self.obstacle_type).to_owned()]
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.wall_rect(0, 0, width, height);
        b.set_agent(Position::new(1, 1), Direction::Right);
        b.put(Position::new(width - 2, height - 2), Cell::GOAL);
        let gap_x = b.rand_coordinate(2, width - 2);
        let gap_y = b.rand_coordinate(1, height - 1);
        b.grid
            .vertical_wall(gap_x, 1, Some(height - 2), self.obstacle_type.cell());
        b.put(Position::new(gap_x, gap_y), Cell::EMPTY);
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-LavaGap",
            &[include_str!("lava_gap.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "cross a lava strip through its gap to the goal"
    }
}
