//! GoToDoor and GoToObject (`MiniGrid-GoToDoor-*`, `MiniGrid-GoToObject-*`): stand next to
//! the door or object the mission names and say done.
//!
//! # GoToDoor
//!
#![doc = include_str!("go_to_door.md")]
//!
//! # GoToObject
//!
#![doc = include_str!("go_to_object.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::{Builder, PlacementFailed};
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState, ObjectKind};

/// The parameters of minigrid's `GoToDoorEnv`; [`Default`] is `MiniGrid-GoToDoor-5x5-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoToDoorParams {
    /// The side of the square grid (5; at least 5); the walled room inside is drawn.
    pub size: usize,
}

impl Default for GoToDoorParams {
    fn default() -> Self {
        GoToDoorParams { size: 5 }
    }
}

/// The parameters of minigrid's `GoToObjectEnv` (its `numObjs`); [`Default`] is
/// `MiniGrid-GoToObject-6x6-N2-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoToObjectParams {
    /// The side of the square grid (6; at least 4).
    pub size: usize,
    /// The number of distinct objects (2; at least 1, at most 18 and room for them).
    pub num_objs: usize,
}

impl Default for GoToObjectParams {
    fn default() -> Self {
        GoToObjectParams {
            size: 6,
            num_objs: 2,
        }
    }
}

/// The kinds GoToObject and PutNear draw, in minigrid's order.
pub(crate) const KINDS: [ObjectKind; 3] = [ObjectKind::Key, ObjectKind::Ball, ObjectKind::Box];

/// The index of a kind among [`KINDS`].
pub(crate) fn kind_index(kind: ObjectKind) -> usize {
    KINDS.iter().position(|&k| k == kind).unwrap_or(0)
}

/// Where [`place_distinct_objects`] may put an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spacing {
    /// Any empty cell (GoToObject).
    Any,
    /// No cell next to an object placed before, diagonals included (PutNear).
    ApartFromTheOthers,
}

/// minigrid's object loop of GoToObject and PutNear: until there are `count` objects, draws a
/// kind ([`KINDS`]) and a colour (`COLOR_NAMES`), draws again when that object is already
/// placed, and otherwise places it anywhere in the grid (`place_obj`) as `spacing` allows.
/// Returns the objects and their positions, in placement order.
pub(crate) fn place_distinct_objects<R: Rng + ?Sized>(
    b: &mut Builder<'_, R>,
    count: usize,
    spacing: Spacing,
) -> Result<(Vec<Cell>, Vec<Position>), PlacementFailed> {
    let mut objects: Vec<Cell> = Vec::with_capacity(count);
    let mut positions: Vec<Position> = Vec::with_capacity(count);
    while objects.len() < count {
        let kind = KINDS[b.rand_elem(3)];
        let color = Color::NAMES_ORDER[b.rand_elem(6)];
        let object = Cell::object(kind, color);
        if objects.contains(&object) {
            continue;
        }
        let next_to_another = |p: Position| {
            positions
                .iter()
                .any(|q| (p.x - q.x).abs() <= 1 && (p.y - q.y).abs() <= 1)
        };
        let reject = |p: Position| spacing == Spacing::ApartFromTheOthers && next_to_another(p);
        let position = b.place_obj(Some(object), None, None, reject, None)?;
        objects.push(object);
        positions.push(position);
    }
    Ok((objects, positions))
}

impl super::Class for GoToDoorParams {
    fn name(&self) -> &'static str {
        "go_to_door"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 5);
    }

    fn grid_size(&self) -> (usize, usize) {
        (self.size, self.size)
    }

    fn default_max_steps(&self) -> u64 {
        4 * super::square(self.size)
    }

    fn see_through_walls(&self) -> bool {
        true
    }

    fn refuses_see_through_walls(&self) -> bool {
        true
    }

    fn missions(&self) -> Vec<String> {
        crate::object::Color::ALL
            .iter()
            .map(|color| format!("go to the {color} door"))
            .collect()
    }

    fn rules(&self) -> super::Rules {
        super::Rules::GoTo
    }

    /// Generates the grid; the target door is `task.first`, the mission index its colour.
    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let width = b.rand_coordinate(5, self.size as i32 + 1);
        let height = b.rand_coordinate(5, self.size as i32 + 1);
        b.grid.wall_rect(0, 0, width, height);
        let mut doors = [Position::default(); 4];
        doors[0] = Position::new(b.rand_coordinate(2, width - 2), 0);
        doors[1] = Position::new(b.rand_coordinate(2, width - 2), height - 1);
        doors[2] = Position::new(0, b.rand_coordinate(2, height - 2));
        doors[3] = Position::new(width - 1, b.rand_coordinate(2, height - 2));
        let mut colors: Vec<Color> = Vec::with_capacity(4);
        while colors.len() < doors.len() {
            let color = Color::NAMES_ORDER[b.rand_elem(6)];
            if !colors.contains(&color) {
                colors.push(color);
            }
        }
        for (&door, &color) in doors.iter().zip(&colors) {
            b.put(door, Cell::door(color, DoorState::Closed));
        }
        b.place_agent(None, Some((width, height)), true, None)?;
        let target = b.rand_elem(doors.len());
        b.task.first = doors[target];
        b.mission = colors[target].index().into();
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-GoToDoor",
            &[include_str!("go_to_door.md"), super::MINIGRID_DOCUMENTATION],
        )
    }

    fn task(&self) -> &'static str {
        "stand next to the door the mission names and say done"
    }
}

impl super::Class for GoToObjectParams {
    fn name(&self) -> &'static str {
        "go_to_object"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.side("size", self.size, 4);
        check.objects("num_objs", self.num_objs, self.size, self.size);
        check.at_most("num_objs", self.num_objs, 18);
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
        crate::object::Color::ALL
            .iter()
            .flat_map(|color| {
                KINDS
                    .iter()
                    .map(move |kind| format!("go to the {color} {}", kind.name()))
            })
            .collect()
    }

    fn rules(&self) -> super::Rules {
        super::Rules::GoTo
    }

    /// Generates the grid; the target's position is `task.first`, the mission index
    /// `colour * 3 + kind` (key, ball, box).
    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (width, height) = (self.size as i32, self.size as i32);
        b.grid.wall_rect(0, 0, width, height);
        let (objects, positions) = place_distinct_objects(b, self.num_objs, Spacing::Any)?;
        b.place_agent(None, None, true, None)?;
        let target = b.rand_elem(objects.len());
        b.task.first = positions[target];
        b.task.object = objects[target];
        b.mission = (usize::from(objects[target].color().index()) * 3
            + kind_index(objects[target].kind())) as u16;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        Documentation::new(
            "MiniGrid-GoToObject",
            &[
                include_str!("go_to_object.md"),
                super::MINIGRID_DOCUMENTATION,
            ],
        )
    }

    fn task(&self) -> &'static str {
        "stand next to the object the mission names and say done"
    }
}
