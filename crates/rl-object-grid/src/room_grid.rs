//! minigrid's `RoomGrid`: a grid of square rooms sharing walls, with its helpers
//! (`add_object`, `add_door`, `remove_wall`, `place_agent`, `connect_all`,
//! `add_distractors`), drawing as minigrid draws.

use rand::Rng;

use crate::generation::{Builder, PlacementFailed};
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState, ObjectKind};
use crate::state::Direction;

/// What a room has on one of its four walls (right, down, left, up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opening {
    /// Nothing yet (minigrid's `None`).
    None,
    /// A door of this colour.
    Door(Color),
    /// The wall was removed (minigrid's `True`).
    Removed,
}

/// One room: its walls' rectangle, doors, neighbours and objects.
#[derive(Debug, Clone)]
struct Room {
    top: Position,
    size: i32,
    openings: [Opening; 4],
    door_positions: [Option<Position>; 4],
    neighbors: [Option<usize>; 4],
    locked: bool,
    objects: Vec<(ObjectKind, Color)>,
}

/// The rooms of a `RoomGrid` (`num_cols` by `num_rows` rooms of `room_size` cells, walls
/// included), with the door positions drawn when the grid was made.
#[derive(Debug, Clone)]
pub(crate) struct Rooms {
    room_size: i32,
    num_rows: i32,
    num_cols: i32,
    rooms: Vec<Room>,
}

/// The grid size of a room grid: `((room_size - 1) * num_cols + 1, (room_size - 1) * num_rows
/// + 1)`.
pub(crate) fn room_grid_size(room_size: usize, num_rows: usize, num_cols: usize) -> (usize, usize) {
    (
        (room_size - 1) * num_cols + 1,
        (room_size - 1) * num_rows + 1,
    )
}

/// How many placements `RoomGrid.place_agent` tries before giving up (see
/// [`Rooms::place_agent`]).
const PLACE_AGENT_ATTEMPTS: usize = 100_000;

/// minigrid's `reject_next_to`: a position less than 2 steps (Manhattan) from the agent.
fn next_to(agent: Position, position: Position) -> bool {
    (agent.x - position.x).abs() + (agent.y - position.y).abs() < 2
}

impl Rooms {
    /// minigrid's `RoomGrid._gen_grid`: the rooms' walls, each door position drawn (right then
    /// down, room by room, row by row), and the agent in the middle room's centre, facing
    /// right.
    pub(crate) fn generate<R: Rng + ?Sized>(
        builder: &mut Builder<'_, R>,
        room_size: usize,
        num_rows: usize,
        num_cols: usize,
    ) -> Rooms {
        let (room_size, num_rows, num_cols) = (room_size as i32, num_rows as i32, num_cols as i32);
        let mut rooms = Vec::with_capacity((num_rows * num_cols) as usize);
        for j in 0..num_rows {
            for i in 0..num_cols {
                let top = Position::new(i * (room_size - 1), j * (room_size - 1));
                builder.grid.wall_rect(top.x, top.y, room_size, room_size);
                rooms.push(Room {
                    top,
                    size: room_size,
                    openings: [Opening::None; 4],
                    door_positions: [None; 4],
                    neighbors: [None; 4],
                    locked: false,
                    objects: Vec::new(),
                });
            }
        }
        let index = |i: i32, j: i32| (j * num_cols + i) as usize;
        for j in 0..num_rows {
            for i in 0..num_cols {
                let here = index(i, j);
                let top = rooms[here].top;
                let (x_low, y_low) = (top.x + 1, top.y + 1);
                let (x_max, y_max) = (top.x + room_size - 1, top.y + room_size - 1);
                if i < num_cols - 1 {
                    rooms[here].neighbors[0] = Some(index(i + 1, j));
                    let y = builder.rand_coordinate(y_low, y_max);
                    rooms[here].door_positions[0] = Some(Position::new(x_max, y));
                }
                if j < num_rows - 1 {
                    rooms[here].neighbors[1] = Some(index(i, j + 1));
                    let x = builder.rand_coordinate(x_low, x_max);
                    rooms[here].door_positions[1] = Some(Position::new(x, y_max));
                }
                if i > 0 {
                    let left = index(i - 1, j);
                    rooms[here].neighbors[2] = Some(left);
                    rooms[here].door_positions[2] = rooms[left].door_positions[0];
                }
                if j > 0 {
                    let above = index(i, j - 1);
                    rooms[here].neighbors[3] = Some(above);
                    rooms[here].door_positions[3] = rooms[above].door_positions[1];
                }
            }
        }
        builder.set_agent(
            Position::new(
                (num_cols / 2) * (room_size - 1) + room_size / 2,
                (num_rows / 2) * (room_size - 1) + room_size / 2,
            ),
            Direction::Right,
        );
        Rooms {
            room_size,
            num_rows,
            num_cols,
            rooms,
        }
    }

    fn index(&self, i: i32, j: i32) -> usize {
        (j * self.num_cols + i) as usize
    }

    /// minigrid's `place_in_room(i, j, obj)`: `place_obj` in the room's rectangle, away from
    /// the agent (`reject_next_to`), at most 1000 tries.
    pub(crate) fn place_in_room<R: Rng + ?Sized>(
        &mut self,
        builder: &mut Builder<'_, R>,
        i: i32,
        j: i32,
        cell: Cell,
    ) -> Result<Position, PlacementFailed> {
        let room = self.index(i, j);
        let (top, size) = (self.rooms[room].top, self.rooms[room].size);
        let agent = builder.agent;
        let position = builder.place_obj(
            Some(cell),
            Some(top),
            Some((size, size)),
            |position| next_to(agent, position),
            Some(1000),
        )?;
        self.rooms[room].objects.push((cell.kind(), cell.color()));
        Ok(position)
    }

    /// minigrid's `add_object(i, j, kind, color)`: a key, ball or box in room `(i, j)`, its
    /// kind (`None`: drawn among key, ball, box) and colour (`None`: `_rand_color`) drawn in
    /// that order.
    pub(crate) fn add_object<R: Rng + ?Sized>(
        &mut self,
        builder: &mut Builder<'_, R>,
        i: i32,
        j: i32,
        kind: Option<ObjectKind>,
        color: Option<Color>,
    ) -> Result<(Cell, Position), PlacementFailed> {
        let kind = kind.unwrap_or_else(|| {
            [ObjectKind::Key, ObjectKind::Ball, ObjectKind::Box][builder.rand_elem(3)]
        });
        let color = color.unwrap_or_else(|| builder.rand_color());
        let cell = Cell::object(kind, color);
        let position = self.place_in_room(builder, i, j, cell)?;
        Ok((cell, position))
    }

    /// minigrid's `add_door(i, j, door_idx, color, locked)`: a door on wall `door_idx` of room
    /// `(i, j)` (`None`: drawn until a wall with a neighbour and no door), its colour and
    /// whether it is locked drawn when not given, in that order. Sets the room's `locked`.
    pub(crate) fn add_door<R: Rng + ?Sized>(
        &mut self,
        builder: &mut Builder<'_, R>,
        i: i32,
        j: i32,
        door_index: Option<usize>,
        color: Option<Color>,
        locked: Option<bool>,
    ) -> (Cell, Position) {
        let room = self.index(i, j);
        let door_index = match door_index {
            Some(index) => index,
            None => loop {
                let index = builder.rand_int(0, 4) as usize;
                if self.rooms[room].neighbors[index].is_some()
                    && self.rooms[room].openings[index] == Opening::None
                {
                    break index;
                }
            },
        };
        let color = color.unwrap_or_else(|| builder.rand_color());
        let locked = locked.unwrap_or_else(|| builder.rand_bool());
        self.rooms[room].locked = locked;
        let state = if locked {
            DoorState::Locked
        } else {
            DoorState::Closed
        };
        let door = Cell::door(color, state);
        let position = self.rooms[room].door_positions[door_index].unwrap_or(Position::new(-1, -1));
        builder.grid.set(position, door);
        self.rooms[room].openings[door_index] = Opening::Door(color);
        if let Some(neighbor) = self.rooms[room].neighbors[door_index] {
            self.rooms[neighbor].openings[(door_index + 2) % 4] = Opening::Door(color);
        }
        (door, position)
    }

    /// minigrid's `remove_wall(i, j, wall_idx)`: the wall between room `(i, j)` and its
    /// neighbour, corners kept, becomes empty.
    pub(crate) fn remove_wall<R: Rng + ?Sized>(
        &mut self,
        builder: &mut Builder<'_, R>,
        i: i32,
        j: i32,
        wall_index: usize,
    ) {
        let room = self.index(i, j);
        let (top, size) = (self.rooms[room].top, self.rooms[room].size);
        for k in 1..size - 1 {
            let position = match wall_index {
                0 => Position::new(top.x + size - 1, top.y + k),
                1 => Position::new(top.x + k, top.y + size - 1),
                2 => Position::new(top.x, top.y + k),
                _ => Position::new(top.x + k, top.y),
            };
            builder.grid.set(position, Cell::EMPTY);
        }
        self.rooms[room].openings[wall_index] = Opening::Removed;
        if let Some(neighbor) = self.rooms[room].neighbors[wall_index] {
            self.rooms[neighbor].openings[(wall_index + 2) % 4] = Opening::Removed;
        }
    }

    /// minigrid's `RoomGrid.place_agent(i, j)`: the room drawn when not given (column, then
    /// row), then `place_agent` in it (1000 tries) until the cell in front is empty or a wall
    /// (at most [`PLACE_AGENT_ATTEMPTS`] times, where minigrid would loop forever).
    pub(crate) fn place_agent<R: Rng + ?Sized>(
        &self,
        builder: &mut Builder<'_, R>,
        i: Option<i32>,
        j: Option<i32>,
    ) -> Result<Position, PlacementFailed> {
        let i = i.unwrap_or_else(|| builder.rand_int(0, i64::from(self.num_cols)) as i32);
        let j = j.unwrap_or_else(|| builder.rand_int(0, i64::from(self.num_rows)) as i32);
        let room = &self.rooms[self.index(i, j)];
        // minigrid loops forever where every free cell faces an object whatever the
        // direction; this gives up (the attempt fails) after as many placements as a
        // valid layout never needs.
        for _ in 0..PLACE_AGENT_ATTEMPTS {
            builder.place_agent(
                Some(room.top),
                Some((room.size, room.size)),
                true,
                Some(1000),
            )?;
            let (dx, dy) = builder.direction.vector();
            let front = builder.grid.get(builder.agent.offset(dx, dy));
            if front.is_empty() || front.kind() == ObjectKind::Wall {
                return Ok(builder.agent);
            }
        }
        Err(PlacementFailed::TooManyTries)
    }

    /// The rooms reachable from `start` through doors and removed walls.
    fn reachable(&self, start: usize) -> Vec<bool> {
        let mut reach = vec![false; self.rooms.len()];
        let mut stack = vec![start];
        while let Some(room) = stack.pop() {
            if reach[room] {
                continue;
            }
            reach[room] = true;
            for k in 0..4 {
                if self.rooms[room].openings[k] != Opening::None {
                    if let Some(neighbor) = self.rooms[room].neighbors[k] {
                        stack.push(neighbor);
                    }
                }
            }
        }
        reach
    }

    /// minigrid's `connect_all(door_colors=COLOR_NAMES, max_itrs=5000)`: unlocked doors added
    /// at random (room column, row, wall, then colour) until every room is reachable from the
    /// agent's.
    pub(crate) fn connect_all<R: Rng + ?Sized>(
        &mut self,
        builder: &mut Builder<'_, R>,
    ) -> Result<(), PlacementFailed> {
        self.connect_all_with(builder, &Color::NAMES_ORDER)
    }

    /// minigrid's `connect_all(door_colors=colors)`: [`connect_all`](Self::connect_all) with
    /// the door colours drawn from `colors`.
    pub(crate) fn connect_all_with<R: Rng + ?Sized>(
        &mut self,
        builder: &mut Builder<'_, R>,
        colors: &[Color],
    ) -> Result<(), PlacementFailed> {
        let agent = builder.agent;
        let start = self.index(
            agent.x / (self.room_size - 1),
            agent.y / (self.room_size - 1),
        );
        let mut iterations = 0;
        loop {
            if iterations > 5000 {
                return Err(PlacementFailed::TooManyTries);
            }
            iterations += 1;
            if self.reachable(start).iter().all(|&reached| reached) {
                return Ok(());
            }
            let i = builder.rand_int(0, i64::from(self.num_cols)) as i32;
            let j = builder.rand_int(0, i64::from(self.num_rows)) as i32;
            let k = builder.rand_int(0, 4) as usize;
            let room = self.index(i, j);
            if self.rooms[room].door_positions[k].is_none()
                || self.rooms[room].openings[k] != Opening::None
            {
                continue;
            }
            let Some(neighbor) = self.rooms[room].neighbors[k] else {
                continue;
            };
            if self.rooms[room].locked || self.rooms[neighbor].locked {
                continue;
            }
            let color = colors[builder.rand_elem(colors.len())];
            self.add_door(builder, i, j, Some(k), Some(color), Some(false));
        }
    }

    /// minigrid's `add_distractors(i, j, num_distractors, all_unique)`: objects of drawn
    /// colour then kind, in room `(i, j)` (or a drawn room), distinct from every object already
    /// in a room when `all_unique`; each with where it was placed.
    pub(crate) fn add_distractors<R: Rng + ?Sized>(
        &mut self,
        builder: &mut Builder<'_, R>,
        i: Option<i32>,
        j: Option<i32>,
        count: usize,
        all_unique: bool,
    ) -> Result<Vec<(Cell, Position)>, PlacementFailed> {
        let mut objects: Vec<(ObjectKind, Color)> = self
            .rooms
            .iter()
            .flat_map(|room| room.objects.iter().copied())
            .collect();
        let mut distractors = Vec::with_capacity(count);
        while distractors.len() < count {
            let color = builder.rand_color();
            let kind = [ObjectKind::Key, ObjectKind::Ball, ObjectKind::Box][builder.rand_elem(3)];
            if all_unique && objects.contains(&(kind, color)) {
                continue;
            }
            let room_i = i.unwrap_or_else(|| builder.rand_int(0, i64::from(self.num_cols)) as i32);
            let room_j = j.unwrap_or_else(|| builder.rand_int(0, i64::from(self.num_rows)) as i32);
            let placed = self.add_object(builder, room_i, room_j, Some(kind), Some(color))?;
            objects.push((kind, color));
            distractors.push(placed);
        }
        Ok(distractors)
    }

    /// The number of room columns and rows.
    pub(crate) fn shape(&self) -> (i32, i32) {
        (self.num_cols, self.num_rows)
    }

    /// minigrid's `room_from_pos(x, y)`: the column and row of the room holding `position`.
    pub(crate) fn room_of(&self, position: Position) -> (i32, i32) {
        (
            position.x / (self.room_size - 1),
            position.y / (self.room_size - 1),
        )
    }

    /// The top-left corner and side (walls included) of room `(i, j)`.
    pub(crate) fn rect(&self, i: i32, j: i32) -> (Position, i32) {
        let room = &self.rooms[self.index(i, j)];
        (room.top, room.size)
    }

    /// Whether room `(i, j)` has a neighbour on wall `k`.
    pub(crate) fn has_neighbor(&self, i: i32, j: i32, k: usize) -> bool {
        self.rooms[self.index(i, j)].neighbors[k].is_some()
    }

    /// The positions of the doors of room `(i, j)` (minigrid's `room.doors`, right, down,
    /// left, up; a removed wall or no door: `None`).
    pub(crate) fn doors(&self, i: i32, j: i32) -> [Option<Position>; 4] {
        let room = &self.rooms[self.index(i, j)];
        std::array::from_fn(|k| match room.openings[k] {
            Opening::Door(_) => room.door_positions[k],
            _ => None,
        })
    }
}
