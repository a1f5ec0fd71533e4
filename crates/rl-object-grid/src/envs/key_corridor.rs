//! KeyCorridor (`MiniGrid-KeyCorridorS*R*`): a corridor of rooms; the object to pick up lies
//! behind a locked door whose key is in another room.
//!
#![doc = include_str!("key_corridor.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::object::ObjectKind;
use crate::room_grid::Rooms;

/// The parameters of minigrid's `KeyCorridorEnv`; [`Default`] is its defaults (three rows of
/// rooms of side 6, a ball: `MiniGrid-KeyCorridorS6R3-v0`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KeyCorridorParams {
    /// The number of rows of rooms (3; at least 1).
    pub num_rows: usize,
    /// The kind of the object to pick up (ball; a key, ball or box).
    pub obj_type: ObjectKind,
    /// The side of each room, walls included (6; at least 3).
    pub room_size: usize,
}

impl Default for KeyCorridorParams {
    fn default() -> Self {
        KeyCorridorParams {
            num_rows: 3,
            obj_type: ObjectKind::Ball,
            room_size: 6,
        }
    }
}

impl super::Class for KeyCorridorParams {
    fn name(&self) -> &'static str {
        "key_corridor"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.at_least("num_rows", self.num_rows, 1);
        check.at_least("room_size", self.room_size, 3);
        check.room_grid(
            ("room_size", self.room_size),
            ("num_rows", self.num_rows),
            3,
        );
        check.pickable("obj_type", self.obj_type);
    }

    fn grid_size(&self) -> (usize, usize) {
        crate::room_grid::room_grid_size(self.room_size, self.num_rows, 3)
    }

    fn default_max_steps(&self) -> u64 {
        30 * super::square(self.room_size)
    }

    fn missions(&self) -> Vec<String> {
        crate::object::Color::ALL
            .iter()
            .map(|color| format!("pick up the {color} {}", self.obj_type.name()))
            .collect()
    }

    fn rules(&self) -> super::Rules {
        super::Rules::PickUpMarked
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let rows = self.num_rows as i32;
        let mut rooms = Rooms::generate(b, self.room_size, self.num_rows, 3);
        for j in 1..rows {
            rooms.remove_wall(b, 1, j, 3);
        }
        let room = b.rand_int(0, i64::from(rows)) as i32;
        let (door, _) = rooms.add_door(b, 2, room, Some(2), None, Some(true));
        let (object, position) = rooms.add_object(b, 2, room, Some(self.obj_type), None)?;
        b.grid.set(position, object.marked());
        let key_room = b.rand_int(0, i64::from(rows)) as i32;
        rooms.add_object(b, 0, key_room, Some(ObjectKind::Key), Some(door.color()))?;
        rooms.place_agent(b, Some(1), Some(rows / 2))?;
        rooms.connect_all(b)?;
        b.task.object = object;
        b.mission = object.color().index().into();
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-KeyCorridor",
            &[
                include_str!("key_corridor.md"),
                super::MINIGRID_DOCUMENTATION,
            ],
        )
    }

    fn task(&self) -> &'static str {
        "find the key, unlock the room and pick up the object"
    }
}
