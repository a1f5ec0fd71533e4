//! MultiRoom (`MiniGrid-MultiRoom-*`): a chain of rooms joined by closed doors, the goal in
//! the last one.
//!
#![doc = include_str!("multi_room.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState};

/// The mission of MultiRoom.
pub const MISSION: &str = "traverse the rooms to get to the goal";

/// The parameters of minigrid's `MultiRoomEnv` (its `minNumRooms`, `maxNumRooms`,
/// `maxRoomSize`); [`Default`] is `MiniGrid-MultiRoom-N6-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MultiRoomParams {
    /// The fewest rooms (6; at least 1).
    pub min_num_rooms: usize,
    /// The most rooms (6; at least `min_num_rooms`).
    pub max_num_rooms: usize,
    /// The largest side of a room, walls included (10; at least 4).
    pub max_room_size: usize,
    /// The grid's width (25).
    pub width: usize,
    /// The grid's height (25).
    pub height: usize,
}

impl Default for MultiRoomParams {
    fn default() -> Self {
        MultiRoomParams {
            min_num_rooms: 6,
            max_num_rooms: 6,
            max_room_size: 10,
            width: 25,
            height: 25,
        }
    }
}

/// The most attempts at a chain of rooms before generation settles for the longest found
/// (minigrid draws chains forever; with validated parameters a chain of the drawn length is
/// found within a few attempts).
const MAX_ROOM_ATTEMPTS: u32 = 100_000;

/// One placed room: its top-left corner and sides, walls included.
#[derive(Debug, Clone, Copy)]
struct Room {
    top: Position,
    size: (i32, i32),
    entry_door: Position,
}

impl MultiRoomParams {
    /// minigrid's `_placeRoom`: a room of drawn size entered through `entry_door` on wall
    /// `entry_wall`, then up to 8 tries at the next room through a drawn exit wall.
    fn place_room<R: Rng + ?Sized>(
        &self,
        b: &mut Builder<'_, R>,
        rooms_left: usize,
        rooms: &mut Vec<Room>,
        entry_wall: usize,
        entry_door: Position,
    ) -> bool {
        let (min_size, max_size) = (4, self.max_room_size as i64);
        let size_x = b.rand_int(min_size, max_size + 1) as i32;
        let size_y = b.rand_int(min_size, max_size + 1) as i32;
        let (top_x, top_y) = if rooms.is_empty() {
            (entry_door.x, entry_door.y)
        } else {
            match entry_wall {
                0 => {
                    let y = entry_door.y;
                    (
                        entry_door.x - size_x + 1,
                        b.rand_coordinate(y - size_y + 2, y),
                    )
                }
                1 => {
                    let x = entry_door.x;
                    (
                        b.rand_coordinate(x - size_x + 2, x),
                        entry_door.y - size_y + 1,
                    )
                }
                2 => {
                    let y = entry_door.y;
                    (entry_door.x, b.rand_coordinate(y - size_y + 2, y))
                }
                _ => {
                    let x = entry_door.x;
                    (b.rand_coordinate(x - size_x + 2, x), entry_door.y)
                }
            }
        };
        if top_x < 0 || top_y < 0 {
            return false;
        }
        if top_x + size_x > self.width as i32 || top_y + size_y >= self.height as i32 {
            return false;
        }
        let overlaps = rooms[..rooms.len().saturating_sub(1)].iter().any(|room| {
            let non_overlap = top_x + size_x < room.top.x
                || room.top.x + room.size.0 <= top_x
                || top_y + size_y < room.top.y
                || room.top.y + room.size.1 <= top_y;
            !non_overlap
        });
        if overlaps {
            return false;
        }
        rooms.push(Room {
            top: Position::new(top_x, top_y),
            size: (size_x, size_y),
            entry_door,
        });
        if rooms_left == 1 {
            return true;
        }
        for _ in 0..8 {
            let walls: Vec<usize> = (0..4).filter(|&wall| wall != entry_wall).collect();
            let exit_wall = walls[b.rand_elem(walls.len())];
            let next_entry_wall = (exit_wall + 2) % 4;
            let exit_door = match exit_wall {
                0 => Position::new(top_x + size_x - 1, top_y + b.rand_coordinate(1, size_y - 1)),
                1 => Position::new(top_x + b.rand_coordinate(1, size_x - 1), top_y + size_y - 1),
                2 => Position::new(top_x, top_y + b.rand_coordinate(1, size_y - 1)),
                _ => Position::new(top_x + b.rand_coordinate(1, size_x - 1), top_y),
            };
            if self.place_room(b, rooms_left - 1, rooms, next_entry_wall, exit_door) {
                break;
            }
        }
        true
    }
}

impl super::Class for MultiRoomParams {
    fn name(&self) -> &'static str {
        "multi_room"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.at_least("min_num_rooms", self.min_num_rooms, 1);
        if self.max_num_rooms < self.min_num_rooms {
            check.fail(
                "max_num_rooms",
                format!(
                    "must be at least min_num_rooms ({}), got {}",
                    self.min_num_rooms, self.max_num_rooms
                ),
            );
        }
        check.at_most("max_num_rooms", self.max_num_rooms, 64);
        check.at_least("max_room_size", self.max_room_size, 4);
        // A room wider than any grid can never be placed: minigrid would draw sizes forever.
        check.at_most("max_room_size", self.max_room_size, super::MAX_SIDE);
        check.side("width", self.width, 5);
        check.side("height", self.height, 5);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    fn default_max_steps(&self) -> u64 {
        self.max_num_rooms as u64 * 20
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let width = self.width as i32;
        let count = b.rand_int(self.min_num_rooms as i64, self.max_num_rooms as i64 + 1) as usize;
        let mut rooms: Vec<Room> = Vec::new();
        let mut attempts = 0u32;
        while rooms.len() < count {
            // minigrid tries forever; rooms that cannot fit end the search (see `MAX_ROOM_ATTEMPTS`).
            attempts += 1;
            if attempts > MAX_ROOM_ATTEMPTS {
                if rooms.is_empty() {
                    return Err(crate::generation::PlacementFailed::NoRoom);
                }
                break;
            }
            let mut candidate = Vec::new();
            // minigrid draws both coordinates of the first door below `width - 2`.
            let x = b.rand_coordinate(0, width - 2);
            let y = b.rand_coordinate(0, width - 2);
            self.place_room(b, count, &mut candidate, 2, Position::new(x, y));
            if candidate.len() > rooms.len() {
                rooms = candidate;
            }
        }
        let mut previous_color: Option<Color> = None;
        for (index, room) in rooms.iter().enumerate() {
            let (top, (size_x, size_y)) = (room.top, room.size);
            for i in 0..size_x {
                b.put(Position::new(top.x + i, top.y), Cell::WALL);
                b.put(Position::new(top.x + i, top.y + size_y - 1), Cell::WALL);
            }
            for j in 0..size_y {
                b.put(Position::new(top.x, top.y + j), Cell::WALL);
                b.put(Position::new(top.x + size_x - 1, top.y + j), Cell::WALL);
            }
            if index > 0 {
                let colors: Vec<Color> = Color::NAMES_ORDER
                    .iter()
                    .copied()
                    .filter(|&color| Some(color) != previous_color)
                    .collect();
                let color = colors[b.rand_elem(colors.len())];
                b.put(room.entry_door, Cell::door(color, DoorState::Closed));
                previous_color = Some(color);
            }
        }
        let first = rooms[0];
        b.place_agent(Some(first.top), Some(first.size), true, None)?;
        let last = rooms[rooms.len() - 1];
        b.place_obj(
            Some(Cell::GOAL),
            Some(last.top),
            Some(last.size),
            |_| false,
            None,
        )?;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-MultiRoom",
            &[include_str!("multi_room.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "open the doors of a chain of rooms to the goal"
    }
}
