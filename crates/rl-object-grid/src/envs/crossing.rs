//! LavaCrossing and SimpleCrossing (`MiniGrid-LavaCrossingS*`, `MiniGrid-SimpleCrossingS*`):
//! rivers of lava (or walls) across the room, each with one crossing on the path to the goal.
//!
#![doc = include_str!("crossing.md")]

use rand::Rng;
use rl_core::numpy_random::{choice, shuffle};
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated, Obstacle};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::Cell;
use crate::state::Direction;

/// The parameters of minigrid's `CrossingEnv`; [`Default`] is `MiniGrid-LavaCrossingS9N1-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrossingParams {
    /// The side of the square grid (9; odd, at least 5).
    pub size: usize,
    /// The number of rivers (1; at most `size - 3`, the rivers there are room for).
    pub num_crossings: usize,
    /// What the rivers are made of (lava; walls for SimpleCrossing).
    pub obstacle_type: Obstacle,
}

impl Default for CrossingParams {
    fn default() -> Self {
        CrossingParams {
            size: 9,
            num_crossings: 1,
            obstacle_type: Obstacle::Lava,
        }
    }
}

/// A river: vertical (a column) or horizontal (a row), at its coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum River {
    Vertical(i32),
    Horizontal(i32),
}

impl super::Class for CrossingParams {
    fn name(&self) -> &'static str {
        "crossing"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 5);
        check.odd("size", self.size);
        check.at_least("num_crossings", self.num_crossings, 1);
        check.at_most(
            "num_crossings",
            self.num_crossings,
            self.size.saturating_sub(3),
        );
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
        vec![super::lava_gap::obstacle_mission(self.obstacle_type).to_owned()]
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.wall_rect(0, 0, width, height);
        b.set_agent(Position::new(1, 1), Direction::Right);
        b.put(Position::new(width - 2, height - 2), Cell::GOAL);
        let mut rivers: Vec<River> = (2..height - 2).step_by(2).map(River::Vertical).collect();
        rivers.extend((2..width - 2).step_by(2).map(River::Horizontal));
        shuffle(b.rng(), &mut rivers);
        rivers.truncate(self.num_crossings);
        let mut vertical: Vec<i32> = rivers
            .iter()
            .filter_map(|river| match river {
                River::Vertical(x) => Some(*x),
                River::Horizontal(_) => None,
            })
            .collect();
        let mut horizontal: Vec<i32> = rivers
            .iter()
            .filter_map(|river| match river {
                River::Horizontal(y) => Some(*y),
                River::Vertical(_) => None,
            })
            .collect();
        vertical.sort_unstable();
        horizontal.sort_unstable();
        let obstacle = self.obstacle_type.cell();
        for i in 1..width - 1 {
            for &j in &horizontal {
                b.put(Position::new(i, j), obstacle);
            }
        }
        for &i in &vertical {
            for j in 1..height - 1 {
                b.put(Position::new(i, j), obstacle);
            }
        }
        // The path crosses each vertical river moving right (`h`) and each horizontal one
        // moving down (`v`), in a shuffled order.
        let mut path: Vec<bool> = vec![true; vertical.len()];
        path.extend(std::iter::repeat_n(false, horizontal.len()));
        shuffle(b.rng(), &mut path);
        let mut limits_v = vec![0];
        limits_v.extend(&vertical);
        limits_v.push(height - 1);
        let mut limits_h = vec![0];
        limits_h.extend(&horizontal);
        limits_h.push(width - 1);
        let (mut room_i, mut room_j) = (0, 0);
        for moving_right in path {
            let position = if moving_right {
                let i = limits_v[room_i + 1];
                let (low, high) = (limits_h[room_j] + 1, limits_h[room_j + 1]);
                let j = low + choice(b.rng(), (high - low) as usize).unwrap_or(0) as i32;
                room_i += 1;
                Position::new(i, j)
            } else {
                let (low, high) = (limits_v[room_i] + 1, limits_v[room_i + 1]);
                let i = low + choice(b.rng(), (high - low) as usize).unwrap_or(0) as i32;
                let j = limits_h[room_j + 1];
                room_j += 1;
                Position::new(i, j)
            };
            b.put(position, Cell::EMPTY);
        }
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-Crossing",
            &[include_str!("crossing.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "find the openings of crossing obstacle rivers to the goal"
    }
}
