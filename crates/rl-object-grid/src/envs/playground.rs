//! Playground (`MiniGrid-Playground-v0`): nine rooms with coloured doors and twelve objects,
//! no task (the mission is empty).
//!
#![doc = include_str!("playground.md")]

use rand::Rng;
use rl_core::registry::Documentation;

use super::Generated;
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState};

/// The side of Playground's grid (19).
pub const SIZE: usize = 19;

/// `PlaygroundEnv`, which takes no parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Playground;

/// minigrid's `PlaygroundEnv._gen_grid`.
pub(crate) fn generate<R: Rng + ?Sized>(b: &mut Builder<'_, R>) -> Generated {
    let (width, height) = (SIZE as i32, SIZE as i32);
    b.grid.horizontal_wall(0, 0, None, Cell::WALL);
    b.grid.horizontal_wall(0, height - 1, None, Cell::WALL);
    b.grid.vertical_wall(0, 0, None, Cell::WALL);
    b.grid.vertical_wall(width - 1, 0, None, Cell::WALL);
    let (room_w, room_h) = (width / 3, height / 3);
    for j in 0..3 {
        for i in 0..3 {
            let (x_left, y_top) = (i * room_w, j * room_h);
            let (x_right, y_bottom) = (x_left + room_w, y_top + room_h);
            if i + 1 < 3 {
                b.grid
                    .vertical_wall(x_right, y_top, Some(room_h), Cell::WALL);
                let position = Position::new(x_right, b.rand_coordinate(y_top + 1, y_bottom - 1));
                let color = Color::NAMES_ORDER[b.rand_elem(6)];
                b.put(position, Cell::door(color, DoorState::Closed));
            }
            if j + 1 < 3 {
                b.grid
                    .horizontal_wall(x_left, y_bottom, Some(room_w), Cell::WALL);
                let position = Position::new(b.rand_coordinate(x_left + 1, x_right - 1), y_bottom);
                let color = Color::NAMES_ORDER[b.rand_elem(6)];
                b.put(position, Cell::door(color, DoorState::Closed));
            }
        }
    }
    b.place_agent(None, None, true, None)?;
    for _ in 0..12 {
        let kind = super::go_to::KINDS[b.rand_elem(3)];
        let color = Color::NAMES_ORDER[b.rand_elem(6)];
        b.place_obj(Some(Cell::object(kind, color)), None, None, |_| false, None)?;
    }
    Ok(())
}

impl super::Class for Playground {
    fn name(&self) -> &'static str {
        "playground"
    }

    fn check_parameters(&self, check: &mut super::Check) {
        let _ = check;
    }

    fn grid_size(&self) -> (usize, usize) {
        (SIZE, SIZE)
    }

    fn default_max_steps(&self) -> u64 {
        100
    }

    fn missions(&self) -> Vec<String> {
        vec![String::new()]
    }

    fn generate_grid<R: Rng + ?Sized>(&self, builder: &mut Builder<'_, R>) -> Generated {
        generate(builder)
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-Playground",
            &[include_str!("playground.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "a room of rooms with objects and no task"
    }
}
