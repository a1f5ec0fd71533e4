//! Dynamic-Obstacles (`MiniGrid-Dynamic-Obstacles-*`): balls that move at random every step;
//! walking into one ends the episode with reward -1.
//!
#![doc = include_str!("dynamic_obstacles.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated, start_direction, start_position};
use crate::generation::{Builder, PlacementFailed};
use crate::grid::Position;
use crate::object::{Cell, Color};

/// The mission of Dynamic-Obstacles.
pub const MISSION: &str = "get to the green goal square";

/// The parameters of minigrid's `DynamicObstaclesEnv`; [`Default`] is
/// `MiniGrid-Dynamic-Obstacles-8x8-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DynamicObstaclesParams {
    /// The side of the square grid (8; at least 4).
    pub size: usize,
    /// The agent's start `[x, y]` (`[1, 1]`; `null`: at random with a random direction).
    pub agent_start_pos: Option<[i32; 2]>,
    /// The agent's start direction (0: right).
    pub agent_start_dir: u8,
    /// The number of obstacles (4); above `size / 2 + 1` minigrid uses `size / 2`.
    pub n_obstacles: usize,
}

impl Default for DynamicObstaclesParams {
    fn default() -> Self {
        DynamicObstaclesParams {
            size: 8,
            agent_start_pos: Some([1, 1]),
            agent_start_dir: 0,
            n_obstacles: 4,
        }
    }
}

impl DynamicObstaclesParams {
    /// minigrid's obstacle count: `n_obstacles` if at most `size / 2 + 1`, else `size / 2`
    /// (both divisions in floating point, then truncated).
    pub(crate) fn obstacle_count(&self) -> usize {
        if self.n_obstacles as f64 <= self.size as f64 / 2.0 + 1.0 {
            self.n_obstacles
        } else {
            self.size / 2
        }
    }
}

/// The obstacles' moves before the agent's (minigrid's `step`): each, in order, moves to an
/// empty cell of the 3 by 3 square around it drawn by `place_obj` (100 tries), or stays when
/// every try fails.
pub(crate) fn move_obstacles<R: Rng + ?Sized>(
    grid: &mut crate::grid::Grid,
    agent: Position,
    obstacles: &mut [Position],
    rng: &mut R,
) {
    for obstacle in obstacles.iter_mut() {
        let old = *obstacle;
        let cell = grid.get(old);
        let placed = crate::generation::place_object(
            grid,
            agent,
            rng,
            Some(cell),
            Some(old.offset(-1, -1)),
            Some((3, 3)),
            |_| false,
            Some(100),
        );
        match placed {
            Ok(position) => {
                grid.set(old, Cell::EMPTY);
                *obstacle = position;
            }
            Err(PlacementFailed::TooManyTries | PlacementFailed::NoRoom) => {}
        }
    }
}

impl super::Class for DynamicObstaclesParams {
    fn name(&self) -> &'static str {
        "dynamic_obstacles"
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

    fn action_count(&self) -> usize {
        3
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn rules(&self) -> super::Rules {
        super::Rules::DynamicObstacles
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
        for _ in 0..self.obstacle_count() {
            let position = b.place_obj(
                Some(Cell::ball(Color::Blue)),
                None,
                None,
                |_| false,
                Some(100),
            )?;
            b.obstacles.push(position);
        }
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-DynamicObstacles",
            &[
                include_str!("dynamic_obstacles.md"),
                super::MINIGRID_DOCUMENTATION,
            ],
        )
    }

    fn task(&self) -> &'static str {
        "reach the goal without touching moving balls"
    }
}
