//! Fetch (`MiniGrid-Fetch-*`): pick up the key or ball the mission names among others.
//!
#![doc = include_str!("fetch.md")]

use rand::Rng;
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

impl FetchParams {
    pub(crate) fn check(&self, check: &mut Check) {
        check.side("size", self.size, 4);
        check.objects("num_objs", self.num_objs, self.size, self.size);
    }

    /// Generates the grid; the object to fetch is `task.object` and the mission index
    /// `syntax * 12 + colour * 2 + (0 key, 1 ball)`.
    pub(crate) fn generate<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
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
}
