//! LockedRoom (`MiniGrid-LockedRoom-v0`): six rooms off a hallway; the goal is in the locked
//! one, whose key lies in another room.
//!
#![doc = include_str!("locked_room.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState};

/// The parameters of minigrid's `LockedRoomEnv`; [`Default`] is `MiniGrid-LockedRoom-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LockedRoomParams {
    /// The side of the square grid (19; at least 13).
    pub size: usize,
}

impl Default for LockedRoomParams {
    fn default() -> Self {
        LockedRoomParams { size: 19 }
    }
}

/// One of the six side rooms: its corner, sides, door and colour.
#[derive(Debug, Clone, Copy)]
struct SideRoom {
    top: Position,
    size: (i32, i32),
    door: Position,
}

impl SideRoom {
    /// minigrid's `LockedRoom.rand_pos`: a position inside the walls.
    fn rand_pos<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Position {
        let (top, (w, h)) = (self.top, self.size);
        b.rand_pos(top.x + 1, top.x + w - 1, top.y + 1, top.y + h - 1)
    }
}

impl super::Class for LockedRoomParams {
    fn name(&self) -> &'static str {
        "locked_room"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 13);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        10 * self.size as u64
    }

    fn missions(&self) -> Vec<String> {
        let colors = crate::object::Color::ALL;
        colors
            .iter()
            .flat_map(|locked| {
                colors.iter().map(move |key_room| {
                    format!(
                        "get the {locked} key from the {key_room} room, unlock the {locked} \
                         door and go to the goal"
                    )
                })
            })
            .collect()
    }

    /// Generates the grid; the mission index is `locked colour * 6 + key room colour`.
    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        for i in 0..width {
            b.put(Position::new(i, 0), Cell::WALL);
            b.put(Position::new(i, height - 1), Cell::WALL);
        }
        for j in 0..height {
            b.put(Position::new(0, j), Cell::WALL);
            b.put(Position::new(width - 1, j), Cell::WALL);
        }
        let (left_wall, right_wall) = (width / 2 - 2, width / 2 + 2);
        for j in 0..height {
            b.put(Position::new(left_wall, j), Cell::WALL);
            b.put(Position::new(right_wall, j), Cell::WALL);
        }
        let mut rooms = Vec::with_capacity(6);
        for n in 0..3 {
            let j = n * (height / 3);
            for i in 0..left_wall {
                b.put(Position::new(i, j), Cell::WALL);
            }
            for i in right_wall..width {
                b.put(Position::new(i, j), Cell::WALL);
            }
            let size = (left_wall + 1, height / 3 + 1);
            rooms.push(SideRoom {
                top: Position::new(0, j),
                size,
                door: Position::new(left_wall, j + 3),
            });
            rooms.push(SideRoom {
                top: Position::new(right_wall, j),
                size,
                door: Position::new(right_wall, j + 3),
            });
        }
        let locked = b.rand_elem(rooms.len());
        let goal = rooms[locked].rand_pos(b);
        b.put(goal, Cell::GOAL);
        let mut colors = Color::NAMES_ORDER.to_vec();
        let mut room_colors = [Color::Red; 6];
        for (index, room) in rooms.iter().enumerate() {
            let color = colors.remove(b.rand_elem(colors.len()));
            room_colors[index] = color;
            let state = if index == locked {
                DoorState::Locked
            } else {
                DoorState::Closed
            };
            b.put(room.door, Cell::door(color, state));
        }
        let key_room = loop {
            let room = b.rand_elem(rooms.len());
            if room != locked {
                break room;
            }
        };
        let key = rooms[key_room].rand_pos(b);
        b.put(key, Cell::key(room_colors[locked]));
        b.place_agent(
            Some(Position::new(left_wall, 0)),
            Some((right_wall - left_wall, height)),
            true,
            None,
        )?;
        b.mission =
            u16::from(room_colors[locked].index()) * 6 + u16::from(room_colors[key_room].index());
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-LockedRoom",
            &[
                include_str!("locked_room.md"),
                super::MINIGRID_DOCUMENTATION,
            ],
        )
    }

    fn task(&self) -> &'static str {
        "fetch the key from one room to open another with the goal"
    }
}
