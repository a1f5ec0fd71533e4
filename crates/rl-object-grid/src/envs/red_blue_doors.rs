//! RedBlueDoors (`MiniGrid-RedBlueDoors-*`): open the red door, then the blue one.
//!
#![doc = include_str!("red_blue_doors.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState};

/// The mission of RedBlueDoors.
pub const MISSION: &str = "open the red door then the blue door";

/// The parameters of minigrid's `RedBlueDoorEnv`; [`Default`] is
/// `MiniGrid-RedBlueDoors-8x8-v0` (a grid of `2 * size` by `size`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedBlueDoorsParams {
    /// The side of the inner room and the grid's height (8; at least 4).
    pub size: usize,
}

impl Default for RedBlueDoorsParams {
    fn default() -> Self {
        RedBlueDoorsParams { size: 8 }
    }
}

impl super::Class for RedBlueDoorsParams {
    fn name(&self) -> &'static str {
        "red_blue_doors"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 4);
        check.at_most("size", self.size, super::MAX_SIDE / 2);
    }

    fn grid_size(&self) -> (usize, usize) {
        (2 * self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        20 * super::square(self.size)
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn rules(&self) -> super::Rules {
        super::Rules::RedBlueDoors
    }

    /// Generates the grid; the red door is `task.first`, the blue door `task.second`.
    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let size = self.size as i32;
        b.grid.wall_rect(0, 0, 2 * size, size);
        b.grid.wall_rect(size / 2, 0, size, size);
        b.place_agent(
            Some(Position::new(size / 2, 0)),
            Some((size, size)),
            true,
            None,
        )?;
        let red = Position::new(size / 2, b.rand_coordinate(1, size - 1));
        b.put(red, Cell::door(Color::Red, DoorState::Closed));
        let blue = Position::new(size / 2 + size - 1, b.rand_coordinate(1, size - 1));
        b.put(blue, Cell::door(Color::Blue, DoorState::Closed));
        b.task.first = red;
        b.task.second = blue;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-RedBlueDoors",
            &[
                include_str!("red_blue_doors.md"),
                super::MINIGRID_DOCUMENTATION,
            ],
        )
    }

    fn task(&self) -> &'static str {
        "open the red door, then the blue one"
    }
}
