//! The objects of a grid world and their compact cell codes: [`ObjectKind`], [`Color`],
//! [`DoorState`] and [`Cell`], with minigrid's encodings (`OBJECT_TO_IDX`, `COLOR_TO_IDX`,
//! `STATE_TO_IDX`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kind of an object, numbered as minigrid's `OBJECT_TO_IDX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum ObjectKind {
    /// A cell outside the agent's sight (observations only).
    Unseen = 0,
    /// An empty cell.
    Empty = 1,
    /// A wall: blocks moves and sight.
    Wall = 2,
    /// A coloured floor tile the agent walks over.
    Floor = 3,
    /// A door, open, closed or locked.
    Door = 4,
    /// A key, which unlocks the door of its colour.
    Key = 5,
    /// A ball.
    Ball = 6,
    /// A box, which may hold another object.
    Box = 7,
    /// The goal: moving onto it ends the episode with a reward.
    Goal = 8,
    /// Lava: moving onto it ends the episode without reward.
    Lava = 9,
    /// The agent (the fully observed encoding only).
    Agent = 10,
}

impl ObjectKind {
    /// Every kind, in index order.
    pub const ALL: [ObjectKind; 11] = [
        ObjectKind::Unseen,
        ObjectKind::Empty,
        ObjectKind::Wall,
        ObjectKind::Floor,
        ObjectKind::Door,
        ObjectKind::Key,
        ObjectKind::Ball,
        ObjectKind::Box,
        ObjectKind::Goal,
        ObjectKind::Lava,
        ObjectKind::Agent,
    ];

    /// minigrid's `OBJECT_TO_IDX` of the kind.
    #[inline]
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The kind of an `OBJECT_TO_IDX` index, or `None`.
    pub fn from_index(index: u8) -> Option<ObjectKind> {
        ObjectKind::ALL.get(usize::from(index)).copied()
    }

    /// minigrid's name of the kind (`"wall"`, `"key"`, ...), as missions spell it.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Unseen => "unseen",
            ObjectKind::Empty => "empty",
            ObjectKind::Wall => "wall",
            ObjectKind::Floor => "floor",
            ObjectKind::Door => "door",
            ObjectKind::Key => "key",
            ObjectKind::Ball => "ball",
            ObjectKind::Box => "box",
            ObjectKind::Goal => "goal",
            ObjectKind::Lava => "lava",
            ObjectKind::Agent => "agent",
        }
    }
}

/// The colour of an object, numbered as minigrid's `COLOR_TO_IDX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Color {
    /// Red (0).
    Red = 0,
    /// Green (1).
    Green = 1,
    /// Blue (2).
    Blue = 2,
    /// Purple (3).
    Purple = 3,
    /// Yellow (4).
    Yellow = 4,
    /// Grey (5).
    Grey = 5,
}

impl Color {
    /// Every colour, in `COLOR_TO_IDX` order.
    pub const ALL: [Color; 6] = [
        Color::Red,
        Color::Green,
        Color::Blue,
        Color::Purple,
        Color::Yellow,
        Color::Grey,
    ];

    /// minigrid's `COLOR_NAMES`: the colours sorted by name, the list its random draws pick
    /// from (`_rand_color`, `_rand_elem(COLOR_NAMES)`).
    pub const NAMES_ORDER: [Color; 6] = [
        Color::Blue,
        Color::Green,
        Color::Grey,
        Color::Purple,
        Color::Red,
        Color::Yellow,
    ];

    /// minigrid's `COLOR_TO_IDX` of the colour.
    #[inline]
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The colour of a `COLOR_TO_IDX` index, or `None`.
    pub fn from_index(index: u8) -> Option<Color> {
        Color::ALL.get(usize::from(index)).copied()
    }

    /// minigrid's name of the colour.
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Green => "green",
            Color::Blue => "blue",
            Color::Purple => "purple",
            Color::Yellow => "yellow",
            Color::Grey => "grey",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The state of a door, numbered as minigrid's `STATE_TO_IDX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum DoorState {
    /// Open (0): the agent walks and sees through it.
    Open = 0,
    /// Closed (1): toggling opens it.
    Closed = 1,
    /// Locked (2): toggling while carrying the key of its colour opens it.
    Locked = 2,
}

/// One cell of the grid, four bytes: the first three are minigrid's encoding of the object
/// (`WorldObj.encode()`: kind, colour, state), the fourth holds what the encoding does not
/// show: the contents of a box (its kind and colour) and a mark set on the mission's object
/// (minigrid compares that object by identity, `self.carrying == self.obj`).
///
/// An empty cell is [`Cell::EMPTY`] (minigrid's `None`, encoded `(1, 0, 0)`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell([u8; 4]);

/// The bit of the fourth byte that marks the mission's object.
const MARK: u8 = 0x80;
/// The bits of the fourth byte that hold a box's contents (`kind * 8 + colour`, 0 for none).
const CONTENTS: u8 = 0x7f;

impl Cell {
    /// An empty cell.
    pub const EMPTY: Cell = Cell([ObjectKind::Empty as u8, 0, 0, 0]);
    /// A grey wall (minigrid's `Wall()`).
    pub const WALL: Cell = Cell([ObjectKind::Wall as u8, Color::Grey as u8, 0, 0]);
    /// The green goal (minigrid's `Goal()`).
    pub const GOAL: Cell = Cell([ObjectKind::Goal as u8, Color::Green as u8, 0, 0]);
    /// Lava (minigrid's `Lava()`, red).
    pub const LAVA: Cell = Cell([ObjectKind::Lava as u8, Color::Red as u8, 0, 0]);

    /// An object of `kind` and `color` with state 0 and no contents.
    #[inline]
    pub const fn new(kind: ObjectKind, color: Color) -> Cell {
        Cell([kind as u8, color as u8, 0, 0])
    }

    /// A door of `color` in `state`.
    #[inline]
    pub const fn door(color: Color, state: DoorState) -> Cell {
        Cell([ObjectKind::Door as u8, color as u8, state as u8, 0])
    }

    /// A key of `color`.
    #[inline]
    pub const fn key(color: Color) -> Cell {
        Cell::new(ObjectKind::Key, color)
    }

    /// A ball of `color`.
    #[inline]
    pub const fn ball(color: Color) -> Cell {
        Cell::new(ObjectKind::Ball, color)
    }

    /// A box of `color` holding `contents` (its kind and colour; a box's contents have no
    /// state and no contents of their own).
    #[inline]
    pub fn boxed(color: Color, contents: Option<Cell>) -> Cell {
        let inner = contents.map_or(0, |c| c.0[0] * 8 + c.0[1]);
        Cell([ObjectKind::Box as u8, color as u8, 0, inner & CONTENTS])
    }

    /// The object of `kind` (a key, ball or box, the kinds rooms hold) and `color`.
    #[inline]
    pub const fn object(kind: ObjectKind, color: Color) -> Cell {
        Cell::new(kind, color)
    }

    /// The cell read from its four bytes, or `None` if they are not a cell this crate makes.
    pub fn from_bytes(bytes: [u8; 4]) -> Option<Cell> {
        let kind = ObjectKind::from_index(bytes[0])?;
        Color::from_index(bytes[1])?;
        let state_ok = match kind {
            ObjectKind::Door => bytes[2] <= 2,
            ObjectKind::Unseen | ObjectKind::Agent => false,
            _ => bytes[2] == 0,
        };
        let contents = bytes[3] & CONTENTS;
        let contents_ok = contents == 0
            || (kind == ObjectKind::Box
                && ObjectKind::from_index(contents / 8).is_some_and(|inner| {
                    !matches!(
                        inner,
                        ObjectKind::Unseen | ObjectKind::Empty | ObjectKind::Agent
                    )
                })
                && Color::from_index(contents % 8).is_some());
        let empty_ok = kind != ObjectKind::Empty || bytes == Cell::EMPTY.0;
        (state_ok && contents_ok && empty_ok).then_some(Cell(bytes))
    }

    /// The four bytes of the cell.
    #[inline]
    pub fn to_bytes(self) -> [u8; 4] {
        self.0
    }

    /// minigrid's `encode()` of the object (kind, colour, state); `(1, 0, 0)` when empty.
    #[inline]
    pub fn encode(self) -> [u8; 3] {
        [self.0[0], self.0[1], self.0[2]]
    }

    /// The kind of the object.
    #[inline]
    pub fn kind(self) -> ObjectKind {
        ObjectKind::from_index(self.0[0]).unwrap_or(ObjectKind::Empty)
    }

    /// The colour of the object (red for an empty cell, whose colour byte is 0).
    #[inline]
    pub fn color(self) -> Color {
        Color::from_index(self.0[1]).unwrap_or(Color::Red)
    }

    /// Whether the cell is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0[0] == ObjectKind::Empty as u8
    }

    /// Whether the cell holds a door of any state.
    #[inline]
    pub fn is_door(self) -> bool {
        self.0[0] == ObjectKind::Door as u8
    }

    /// The state of a door (`None` for other objects).
    #[inline]
    pub fn door_state(self) -> Option<DoorState> {
        if !self.is_door() {
            return None;
        }
        Some(match self.0[2] {
            0 => DoorState::Open,
            1 => DoorState::Closed,
            _ => DoorState::Locked,
        })
    }

    /// The door with its state replaced (the cell itself for other objects).
    #[inline]
    pub fn with_door_state(self, state: DoorState) -> Cell {
        if self.is_door() {
            Cell([self.0[0], self.0[1], state as u8, self.0[3]])
        } else {
            self
        }
    }

    /// The contents of a box (`None` for an empty box and for other objects).
    #[inline]
    pub fn contents(self) -> Option<Cell> {
        let inner = self.0[3] & CONTENTS;
        (self.0[0] == ObjectKind::Box as u8 && inner != 0).then_some(Cell([
            inner / 8,
            inner % 8,
            0,
            0,
        ]))
    }

    /// Whether the cell is marked as the mission's object.
    #[inline]
    pub fn is_marked(self) -> bool {
        self.0[3] & MARK != 0
    }

    /// The same object, marked as the mission's object.
    #[inline]
    pub fn marked(self) -> Cell {
        Cell([self.0[0], self.0[1], self.0[2], self.0[3] | MARK])
    }

    /// minigrid's `can_overlap`: the agent may stand on it (empty, floor, goal, lava, an
    /// open door).
    #[inline]
    pub fn can_overlap(self) -> bool {
        match self.0[0] {
            1 | 3 | 8 | 9 => true,
            4 => self.0[2] == DoorState::Open as u8,
            _ => false,
        }
    }

    /// minigrid's `can_pickup`: keys, balls and boxes.
    #[inline]
    pub fn can_pickup(self) -> bool {
        matches!(self.0[0], 5..=7)
    }

    /// minigrid's `see_behind` (an empty cell counts as see-through): everything but walls
    /// and doors that are not open.
    #[inline]
    pub fn see_behind(self) -> bool {
        match self.0[0] {
            2 => false,
            4 => self.0[2] == DoorState::Open as u8,
            _ => true,
        }
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("empty");
        }
        write!(f, "{} {}", self.color().name(), self.kind().name())?;
        if let Some(state) = self.door_state() {
            write!(f, " ({state:?})")?;
        }
        if let Some(inner) = self.contents() {
            write!(f, " holding {inner:?}")?;
        }
        if self.is_marked() {
            f.write_str(" (mission object)")?;
        }
        Ok(())
    }
}

impl Default for Cell {
    fn default() -> Self {
        Cell::EMPTY
    }
}
