//! PutNear (`MiniGrid-PutNear-*`): pick up the object the mission names and drop it next to
//! another.
//!
#![doc = include_str!("put_near.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::go_to::{Spacing, kind_index, place_distinct_objects};
use super::{Check, Generated};
use crate::generation::Builder;
use crate::object::Cell;

/// The parameters of minigrid's `PutNearEnv` (its `numObjs`); [`Default`] is
/// `MiniGrid-PutNear-6x6-N2-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PutNearParams {
    /// The side of the square grid (6; at least 5).
    pub size: usize,
    /// The number of distinct objects (2; at least 2, at most 18 and room for them).
    pub num_objs: usize,
}

impl Default for PutNearParams {
    fn default() -> Self {
        PutNearParams {
            size: 6,
            num_objs: 2,
        }
    }
}

impl super::Class for PutNearParams {
    fn name(&self) -> &'static str {
        "put_near"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 5);
        check.at_least("num_objs", self.num_objs, 2);
        check.at_most("num_objs", self.num_objs, 18);
        // Objects keep a cell between each other: at most one per 2 by 2 block of the room.
        let inside = self.size.saturating_sub(2);
        check.at_most(
            "num_objs",
            self.num_objs,
            inside.div_ceil(2).saturating_mul(inside.div_ceil(2)),
        );
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        5 * self.size as u64
    }

    fn see_through_walls(&self) -> bool {
        true
    }

    fn refuses_see_through_walls(&self) -> bool {
        true
    }

    fn missions(&self) -> Vec<String> {
        let objects: Vec<(crate::object::Color, crate::object::ObjectKind)> =
            crate::object::Color::ALL
                .iter()
                .flat_map(|&color| super::go_to::KINDS.iter().map(move |&kind| (color, kind)))
                .collect();
        objects
            .iter()
            .flat_map(|&(move_color, move_kind)| {
                objects.iter().map(move |&(color, kind)| {
                    format!(
                        "put the {move_color} {} near the {color} {}",
                        move_kind.name(),
                        kind.name()
                    )
                })
            })
            .collect()
    }

    fn rules(&self) -> super::Rules {
        super::Rules::PutNear
    }

    /// Generates the grid; the object to move is `task.object`, the target's position
    /// `task.first`, the mission index `((move colour * 3 + kind) * 6 + target colour) * 3 +
    /// target kind`.
    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.wall_rect(0, 0, width, height);
        let (objects, positions) =
            place_distinct_objects(b, self.num_objs, Spacing::ApartFromTheOthers)?;
        b.place_agent(None, None, true, None)?;
        let moved = b.rand_elem(objects.len());
        let target = loop {
            let index = b.rand_elem(objects.len());
            if index != moved {
                break index;
            }
        };
        b.task.object = objects[moved];
        b.task.first = positions[target];
        let code = |cell: Cell| usize::from(cell.color().index()) * 3 + kind_index(cell.kind());
        b.mission = (code(objects[moved]) * 18 + code(objects[target])) as u16;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-PutNear",
            &[include_str!("put_near.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "put the named object next to another"
    }
}
