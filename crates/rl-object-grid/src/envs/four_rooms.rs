//! FourRooms (`MiniGrid-FourRooms-v0`): four rooms joined by gaps, the agent and the goal
//! placed at random.
//!
#![doc = include_str!("four_rooms.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated, start_position};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::Cell;

/// The mission of FourRooms.
pub const MISSION: &str = "reach the goal";

/// The side of FourRooms' grid (19).
pub const SIZE: usize = 19;

/// The parameters of minigrid's `FourRoomsEnv`; [`Default`] is its defaults
/// (`MiniGrid-FourRooms-v0`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FourRoomsParams {
    /// The agent's start `[x, y]` (`null`: at random); its direction is drawn either way.
    pub agent_pos: Option<[i32; 2]>,
    /// The goal's position (`null`: at random).
    pub goal_pos: Option<[i32; 2]>,
}

impl super::Class for FourRoomsParams {
    fn name(&self) -> &'static str {
        "four_rooms"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.start("agent_pos", self.agent_pos, SIZE, SIZE);
        check.start("goal_pos", self.goal_pos, SIZE, SIZE);
    }

    fn grid_size(&self) -> (usize, usize) {
        (SIZE, SIZE)
    }

    fn default_max_steps(&self) -> u64 {
        100
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (SIZE as i32, SIZE as i32);
        b.grid.horizontal_wall(0, 0, None, Cell::WALL);
        b.grid.horizontal_wall(0, height - 1, None, Cell::WALL);
        b.grid.vertical_wall(0, 0, None, Cell::WALL);
        b.grid.vertical_wall(width - 1, 0, None, Cell::WALL);
        let (room_w, room_h) = (width / 2, height / 2);
        for j in 0..2 {
            for i in 0..2 {
                let (x_left, y_top) = (i * room_w, j * room_h);
                let (x_right, y_bottom) = (x_left + room_w, y_top + room_h);
                if i + 1 < 2 {
                    b.grid
                        .vertical_wall(x_right, y_top, Some(room_h), Cell::WALL);
                    let y = b.rand_coordinate(y_top + 1, y_bottom);
                    b.put(Position::new(x_right, y), Cell::EMPTY);
                }
                if j + 1 < 2 {
                    b.grid
                        .horizontal_wall(x_left, y_bottom, Some(room_w), Cell::WALL);
                    let x = b.rand_coordinate(x_left + 1, x_right);
                    b.put(Position::new(x, y_bottom), Cell::EMPTY);
                }
            }
        }
        match self.agent_pos {
            Some(start) => {
                let start = start_position(start);
                b.put(start, Cell::EMPTY);
                b.agent = start;
                b.draw_direction();
            }
            None => {
                b.place_agent(None, None, true, None)?;
            }
        }
        match self.goal_pos {
            Some(goal) => b.put(start_position(goal), Cell::GOAL),
            None => {
                b.place_obj(Some(Cell::GOAL), None, None, |_| false, None)?;
            }
        }
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-FourRooms",
            &[include_str!("four_rooms.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "reach the goal across four rooms"
    }
}
