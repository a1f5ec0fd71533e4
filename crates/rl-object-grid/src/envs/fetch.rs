//! Fetch (`MiniGrid-Fetch-*`): pick up the key or ball the mission names among others.
//!
#![doc = include_str!("fetch.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::object::{Cell, Color, ObjectKind};

/// The five phrasings of Fetch's mission, in minigrid's order.
pub const SYNTAX: [&str; 5] = [
    "get a",
    "go get a",
    "fetch a",
    "go fetch a",
    "you must fetch a",
];

/// The parameters of minigrid's `FetchEnv` (its `numObjs`); [`Default`] is
/// `MiniGrid-Fetch-8x8-N3-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FetchParams {
    /// The side of the square grid (8; at least 4).
    pub size: usize,
    /// The number of objects (3; at least 1, and room for them and the agent).
    pub num_objs: usize,
}

impl Default for FetchParams {
    fn default() -> Self {
        FetchParams {
            size: 8,
            num_objs: 3,
        }
    }
}

impl super::Class for FetchParams {
    fn name(&self) -> &'static str {
        "fetch"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 4);
        check.objects("num_objs", self.num_objs, self.size, self.size);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        5 * super::square(self.size)
    }

    fn see_through_walls(&self) -> bool {
        true
    }

    fn refuses_see_through_walls(&self) -> bool {
        true
    }

    fn missions(&self) -> Vec<String> {
        SYNTAX
            .iter()
            .flat_map(|syntax| {
                crate::object::Color::ALL.iter().flat_map(move |color| {
                    ["key", "ball"]
                        .iter()
                        .map(move |kind| format!("{syntax} {color} {kind}"))
                })
            })
            .collect()
    }

    fn rules(&self) -> super::Rules {
        super::Rules::Fetch
    }

    /// Generates the grid; the object to fetch is `task.object` and the mission index
    /// `syntax * 12 + colour * 2 + (0 key, 1 ball)`.
    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.wall_rect(0, 0, width, height);
        let mut objects = Vec::with_capacity(self.num_objs);
        while objects.len() < self.num_objs {
            let kind = [ObjectKind::Key, ObjectKind::Ball][b.rand_elem(2)];
            let color = Color::NAMES_ORDER[b.rand_elem(6)];
            let object = Cell::object(kind, color);
            b.place_obj(Some(object), None, None, |_| false, None)?;
            objects.push(object);
        }
        b.place_agent(None, None, true, None)?;
        let target = objects[b.rand_elem(objects.len())];
        let syntax = b.rand_elem(SYNTAX.len());
        b.task.object = target;
        b.mission = (syntax * 12
            + usize::from(target.color().index()) * 2
            + usize::from(target.kind() == ObjectKind::Ball)) as u16;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-Fetch",
            &[include_str!("fetch.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "pick up the object the mission names"
    }
}
