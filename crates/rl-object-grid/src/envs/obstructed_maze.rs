//! ObstructedMaze (`MiniGrid-ObstructedMaze-*`, v0 and v1): rooms behind locked doors,
//! their keys hidden in boxes, the doors blocked by balls; pick up the blue ball.
//!
#![doc = include_str!("obstructed_maze.md")]

use rand::Rng;
use rl_core::registry::Documentation;
use serde::{Deserialize, Serialize};

use super::{Check, Generated};
use crate::generation::Builder;
use crate::grid::Position;
use crate::object::{Cell, Color, ObjectKind};
use crate::room_grid::Rooms;
use crate::state::Direction;

/// The mission of ObstructedMaze.
pub const MISSION: &str = "pick up the blue ball";

/// The side of each room (6).
pub const ROOM_SIZE: usize = 6;

/// The colour of the ball to find (`COLOR_NAMES[0]`).
const BALL_TO_FIND: Color = Color::NAMES_ORDER[0];
/// The colour of the balls blocking doors (`COLOR_NAMES[1]`).
const BLOCKING_BALL: Color = Color::NAMES_ORDER[1];
/// The colour of the boxes holding keys (`COLOR_NAMES[2]`).
const KEY_BOX: Color = Color::NAMES_ORDER[2];

/// The parameters of minigrid's `ObstructedMaze_1Dlhb` (two rooms);
/// [`Default`] is `MiniGrid-ObstructedMaze-1Dlhb-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ObstructedMaze1Params {
    /// Whether the key is hidden in a box (true).
    pub key_in_box: bool,
    /// Whether a ball blocks the door (true).
    pub blocked: bool,
}

impl Default for ObstructedMaze1Params {
    fn default() -> Self {
        ObstructedMaze1Params {
            key_in_box: true,
            blocked: true,
        }
    }
}

/// The parameters of minigrid's `ObstructedMaze_Full` (`version` 0) and
/// `ObstructedMaze_Full_V1` (`version` 1), three by three rooms; [`Default`] is
/// `MiniGrid-ObstructedMaze-Full-v0`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ObstructedMazeFullParams {
    /// The agent's room `[column, row]` (`[1, 1]`, the middle).
    pub agent_room: [i32; 2],
    /// Whether keys are hidden in boxes (true).
    pub key_in_box: bool,
    /// Whether balls block the locked doors (true).
    pub blocked: bool,
    /// How many quarters of the maze are used (4; 1 to 4).
    pub num_quarters: usize,
    /// The number of rooms an episode's time limit allows for (25): `max_steps` is
    /// `4 * num_rooms_visited * 36`.
    pub num_rooms_visited: usize,
    /// 0 for minigrid's `ObstructedMaze_Full` (the `-v0` ids), 1 for `ObstructedMaze_Full_V1`
    /// (the `-v1` ids, which place the keys after both doors of a side room).
    pub version: u8,
}

impl Default for ObstructedMazeFullParams {
    fn default() -> Self {
        ObstructedMazeFullParams {
            agent_room: [1, 1],
            key_in_box: true,
            blocked: true,
            num_quarters: 4,
            num_rooms_visited: 25,
            version: 0,
        }
    }
}

/// minigrid's `ObstructedMazeEnv._gen_grid`: the rooms, then the door colours, a random
/// order of all six colours (`_rand_subset(COLOR_NAMES, 6)`).
fn generate_rooms<R: Rng + ?Sized>(
    b: &mut Builder<'_, R>,
    rows: usize,
    columns: usize,
) -> (Rooms, Vec<Color>) {
    let rooms = Rooms::generate(b, ROOM_SIZE, rows, columns);
    let mut colors = Color::NAMES_ORDER.to_vec();
    b.rand_subset(&mut colors, Color::NAMES_ORDER.len());
    (rooms, colors)
}

/// A ball blocking the door at `door` of wall `door_index`, on the room's side.
fn block<R: Rng + ?Sized>(b: &mut Builder<'_, R>, door: Position, door_index: usize) {
    let (dx, dy) = Direction::from_index(door_index as u8).vector();
    b.put(door.offset(-dx, -dy), Cell::ball(BLOCKING_BALL));
}

/// The key of `color`, in a box when `key_in_box`, placed in room `(i, j)`.
fn add_key<R: Rng + ?Sized>(
    rooms: &mut Rooms,
    b: &mut Builder<'_, R>,
    i: i32,
    j: i32,
    color: Color,
    key_in_box: bool,
) -> Generated {
    let key = Cell::key(color);
    let object = if key_in_box {
        Cell::boxed(KEY_BOX, Some(key))
    } else {
        key
    };
    rooms.place_in_room(b, i, j, object)?;
    Ok(())
}

/// minigrid's `ObstructedMazeEnv.add_door`: the door, then a blocking ball, then (locked)
/// its key in the room.
#[allow(clippy::too_many_arguments)]
fn add_door<R: Rng + ?Sized>(
    rooms: &mut Rooms,
    b: &mut Builder<'_, R>,
    i: i32,
    j: i32,
    door_index: usize,
    color: Color,
    locked: bool,
    key_in_box: bool,
    blocked: bool,
) -> Generated {
    let (door, position) = rooms.add_door(b, i, j, Some(door_index), Some(color), Some(locked));
    if blocked {
        block(b, position, door_index);
    }
    if locked {
        add_key(rooms, b, i, j, door.color(), key_in_box)?;
    }
    Ok(())
}

/// The blue ball, marked, in room `(i, j)`.
fn add_ball<R: Rng + ?Sized>(
    rooms: &mut Rooms,
    b: &mut Builder<'_, R>,
    i: i32,
    j: i32,
) -> Generated {
    let (ball, position) = rooms.add_object(b, i, j, Some(ObjectKind::Ball), Some(BALL_TO_FIND))?;
    b.grid.set(position, ball.marked());
    b.task.object = ball;
    Ok(())
}

impl super::Class for ObstructedMaze1Params {
    fn name(&self) -> &'static str {
        "obstructed_maze1"
    }

    fn check_parameters(&self, check: &mut Check) {
        let _ = check;
    }

    fn grid_size(&self) -> (usize, usize) {
        crate::room_grid::room_grid_size(ROOM_SIZE, 1, 2)
    }

    fn default_max_steps(&self) -> u64 {
        4 * 2 * super::square(ROOM_SIZE)
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn rules(&self) -> super::Rules {
        super::Rules::PickUpMarked
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (mut rooms, colors) = generate_rooms(b, 1, 2);
        add_door(
            &mut rooms,
            b,
            0,
            0,
            0,
            colors[0],
            true,
            self.key_in_box,
            self.blocked,
        )?;
        add_ball(&mut rooms, b, 1, 0)?;
        rooms.place_agent(b, Some(0), Some(0))?;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        documentation()
    }

    fn task(&self) -> &'static str {
        TASK
    }
}

impl super::Class for ObstructedMazeFullParams {
    fn name(&self) -> &'static str {
        "obstructed_maze_full"
    }

    fn check_parameters(&self, check: &mut Check) {
        check.at_least("num_quarters", self.num_quarters, 1);
        check.at_most("num_quarters", self.num_quarters, 4);
        check.at_most("version", usize::from(self.version), 1);
        if self
            .agent_room
            .iter()
            .any(|&coordinate| !(0..=2).contains(&coordinate))
        {
            check.fail(
                "agent_room",
                format!(
                    "must be a room [column, row] of the 3 by 3 maze (each 0 to 2), got {:?}",
                    self.agent_room
                ),
            );
        }
    }

    fn grid_size(&self) -> (usize, usize) {
        crate::room_grid::room_grid_size(ROOM_SIZE, 3, 3)
    }

    fn default_max_steps(&self) -> u64 {
        // Python's integers do not overflow: a cap past u64 is no cap at all.
        (self.num_rooms_visited as u64).saturating_mul(4 * super::square(ROOM_SIZE))
    }

    fn missions(&self) -> Vec<String> {
        vec![MISSION.to_owned()]
    }

    fn rules(&self) -> super::Rules {
        super::Rules::PickUpMarked
    }

    fn generate_grid<R: Rng + ?Sized>(&self, b: &mut Builder<'_, R>) -> Generated {
        let (mut rooms, colors) = generate_rooms(b, 3, 3);
        let middle = (1, 1);
        let side_rooms = [(2, 1), (1, 2), (0, 1), (1, 0)];
        for (i, &(x, y)) in side_rooms.iter().take(self.num_quarters).enumerate() {
            add_door(
                &mut rooms, b, middle.0, middle.1, i, colors[i], false, false, false,
            )?;
            // minigrid's `k in [-1, 1]`: the wall `(i + k) % 4` and the colour
            // `door_colors[(i + k) % 6]`, Python's modulo (so `-1` is the last colour).
            for k in [-1i32, 1] {
                let door_index = (i as i32 + k).rem_euclid(4) as usize;
                let color = colors[(i as i32 + k).rem_euclid(colors.len() as i32) as usize];
                if self.version == 0 {
                    add_door(
                        &mut rooms,
                        b,
                        x,
                        y,
                        door_index,
                        color,
                        true,
                        self.key_in_box,
                        self.blocked,
                    )?;
                } else {
                    let (_, position) =
                        rooms.add_door(b, x, y, Some(door_index), Some(color), Some(true));
                    if self.blocked {
                        block(b, position, door_index);
                    }
                }
            }
            if self.version == 1 {
                for k in [-1i32, 1] {
                    let color = colors[(i as i32 + k).rem_euclid(colors.len() as i32) as usize];
                    add_key(&mut rooms, b, x, y, color, self.key_in_box)?;
                }
            }
        }
        let corners = [(2, 0), (2, 2), (0, 2), (0, 0)];
        let corner = corners[b.rand_elem(self.num_quarters)];
        add_ball(&mut rooms, b, corner.0, corner.1)?;
        rooms.place_agent(b, Some(self.agent_room[0]), Some(self.agent_room[1]))?;
        Ok(())
    }

    fn documentation(&self) -> Documentation {
        documentation()
    }

    fn task(&self) -> &'static str {
        TASK
    }
}

/// The documentation both classes' ids carry: one family, one page.
fn documentation() -> Documentation {
    Documentation::new(
        "MiniGrid-ObstructedMaze",
        &[
            include_str!("obstructed_maze.md"),
            super::MINIGRID_DOCUMENTATION,
        ],
    )
}

/// What the agent has to do in both classes.
const TASK: &str = "pick up the blue ball behind locked, hidden and blocked doors";
