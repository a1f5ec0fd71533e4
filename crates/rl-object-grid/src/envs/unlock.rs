//! Unlock, UnlockPickup and BlockedUnlockPickup (`MiniGrid-Unlock-v0`,
//! `MiniGrid-UnlockPickup-v0`, `MiniGrid-BlockedUnlockPickup-v0`): two rooms joined by a
//! locked door whose key lies in the agent's room; open the door, or fetch the box behind it
//! (with a ball blocking the door in the last).
//!
//! # Unlock
//!
#![doc = include_str!("unlock.md")]
//!
//! # UnlockPickup
//!
#![doc = include_str!("unlock_pickup.md")]
//!
//! # BlockedUnlockPickup
//!
#![doc = include_str!("blocked_unlock_pickup.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::Generated;
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, ObjectKind};
use crate::room_grid::Rooms;

/// The mission of Unlock.
pub const MISSION: &str = "open the door";

/// The side of each of the two rooms (6).
pub const ROOM_SIZE: usize = 6;

/// Which of the three environments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnlockTask {
    /// `UnlockEnv`: open the door.
    Unlock,
    /// `UnlockPickupEnv`: pick up the box behind the door.
    UnlockPickup,
    /// `BlockedUnlockPickupEnv`: the same with a ball in front of the door.
    BlockedUnlockPickup,
}

/// Generates one of the three: minigrid's `_gen_grid` of each. Unlock remembers the door in
/// `task.first`; the others mark the box.
pub(crate) fn generate<R: Rng + ?Sized>(task: UnlockTask, b: &mut Builder<'_, R>) -> Generated {
    let mut rooms = Rooms::generate(b, ROOM_SIZE, 1, 2);
    match task {
        UnlockTask::Unlock => {
            let (door, position) = rooms.add_door(b, 0, 0, Some(0), None, Some(true));
            rooms.add_object(b, 0, 0, Some(ObjectKind::Key), Some(door.color()))?;
            rooms.place_agent(b, Some(0), Some(0))?;
            b.task.first = position;
        }
        UnlockTask::UnlockPickup | UnlockTask::BlockedUnlockPickup => {
            let (object, object_position) =
                rooms.add_object(b, 1, 0, Some(ObjectKind::Box), None)?;
            b.grid.set(object_position, object.marked());
            let (door, position) = rooms.add_door(b, 0, 0, Some(0), None, Some(true));
            if task == UnlockTask::BlockedUnlockPickup {
                let color = b.rand_color();
                b.put(Position::new(position.x - 1, position.y), Cell::ball(color));
            }
            rooms.add_object(b, 0, 0, Some(ObjectKind::Key), Some(door.color()))?;
            rooms.place_agent(b, Some(0), Some(0))?;
            b.task.object = object;
            b.mission = object.color().index().into();
        }
    }
    Ok(())
}

impl super::Class for UnlockTask {
    fn name(&self) -> &'static str {
        match self {
            UnlockTask::Unlock => "unlock",
            UnlockTask::UnlockPickup => "unlock_pickup",
            UnlockTask::BlockedUnlockPickup => "blocked_unlock_pickup",
        }
    }

    fn check_parameters(&self, check: &mut super::Check) {
        let _ = check;
    }

    fn grid_size(&self) -> (usize, usize) {
        crate::room_grid::room_grid_size(ROOM_SIZE, 1, 2)
    }

    fn default_max_steps(&self) -> u64 {
        match self {
            UnlockTask::Unlock | UnlockTask::UnlockPickup => 8 * super::square(ROOM_SIZE),
            UnlockTask::BlockedUnlockPickup => 16 * super::square(ROOM_SIZE),
        }
    }

    fn missions(&self) -> Vec<String> {
        match self {
            UnlockTask::Unlock => vec![MISSION.to_owned()],
            UnlockTask::UnlockPickup | UnlockTask::BlockedUnlockPickup => crate::object::Color::ALL
                .iter()
                .map(|color| format!("pick up the {color} box"))
                .collect(),
        }
    }

    fn rules(&self) -> super::Rules {
        match self {
            UnlockTask::Unlock => super::Rules::Unlock,
            UnlockTask::UnlockPickup | UnlockTask::BlockedUnlockPickup => {
                super::Rules::PickUpMarked
            }
        }
    }

    fn generate_grid<R: Rng + ?Sized>(&self, builder: &mut Builder<'_, R>) -> Generated {
        generate(*self, builder)
    }

    fn documentation(&self) -> Documentation {
        match self {
            UnlockTask::Unlock => Documentation::new(
                "MiniGrid-Unlock",
                &[include_str!("unlock.md"), super::MINIGRID_DOCUMENTATION],
            ),
            UnlockTask::UnlockPickup => Documentation::new(
                "MiniGrid-UnlockPickup",
                &[
                    include_str!("unlock_pickup.md"),
                    super::MINIGRID_DOCUMENTATION,
                ],
            ),
            UnlockTask::BlockedUnlockPickup => Documentation::new(
                "MiniGrid-BlockedUnlockPickup",
                &[
                    include_str!("blocked_unlock_pickup.md"),
                    super::MINIGRID_DOCUMENTATION,
                ],
            ),
        }
    }

    fn task(&self) -> &'static str {
        match self {
            UnlockTask::Unlock => "open the locked door with its key",
            UnlockTask::UnlockPickup => "unlock the door and pick up the box behind it",
            UnlockTask::BlockedUnlockPickup => {
                "move the ball blocking the door, unlock it and pick up the box"
            }
        }
    }
}
