//! LavaGap (`MiniGrid-LavaGapS*`): a column of lava (or wall) with one gap between the agent
//! and the goal.
//!
#![doc = include_str!("lava_gap.md")]

use rand::Rng;
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

impl LavaGapParams {
    pub(crate) fn check(&self, check: &mut Check) {
        check.side("size", self.size, 5);
    }

    pub(crate) fn generate<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
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
}
