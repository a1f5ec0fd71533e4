//! BabyAI's levels (minigrid 3.2.0's `envs/babyai/{goto,open,pickup,putnext,unlock,other,
//! synth}.py` and `core/levelgen.py`): each level's `gen_mission`, drawing as minigrid draws,
//! and `RoomGridLevel`'s rejection sampling around it (`validate_instrs`; a rejected or
//! failed attempt starts again from a new room grid on the continued stream).

use rand::Rng;
use rl_core::numpy_random::uniform;
use serde::{Deserialize, Serialize};

use super::instr::{Instr, Loc, ObjDesc, Pose, Seq};
use crate::generation::{Builder, PlacementFailed};
use crate::grid::Position;
use crate::object::{Cell, Color, DoorState, ObjectKind};
use crate::room_grid::Rooms;

/// How `OpenDoor` describes the door to open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SelectBy {
    /// By its colour.
    Color,
    /// By its location relative to the agent.
    Loc,
}

/// An action kind of `LevelGen`'s grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// `GoToInstr`.
    Goto,
    /// `PickupInstr`.
    Pickup,
    /// `OpenInstr`.
    Open,
    /// `PutNextInstr`.
    Putnext,
}

/// An instruction kind of `LevelGen`'s grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InstrKind {
    /// One action.
    Action,
    /// Two actions joined by "and".
    And,
    /// Two actions or "and"s in sequence ("then", "after you").
    Seq,
}

/// The parameters of `LevelGen` (the Synth, Boss and sequence levels).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelGenParams {
    /// The number of distractor objects.
    pub num_dists: usize,
    /// The probability of a locked room.
    pub locked_room_prob: f64,
    /// Whether descriptions may use locations.
    pub locations: bool,
    /// Whether objects may block the way (otherwise every object must be reachable).
    pub unblocking: bool,
    /// Whether the described objects may all lie in the locked room.
    pub implicit_unlock: bool,
    /// The action kinds drawn from, in order.
    pub action_kinds: Vec<ActionKind>,
    /// The instruction kinds drawn from, in order.
    pub instr_kinds: Vec<InstrKind>,
}

impl Default for LevelGenParams {
    fn default() -> Self {
        LevelGenParams {
            num_dists: 18,
            locked_room_prob: 0.5,
            locations: true,
            unblocking: true,
            implicit_unlock: true,
            action_kinds: vec![
                ActionKind::Goto,
                ActionKind::Pickup,
                ActionKind::Open,
                ActionKind::Putnext,
            ],
            instr_kinds: vec![InstrKind::Action, InstrKind::And, InstrKind::Seq],
        }
    }
}

/// A BabyAI level (one of minigrid's `RoomGridLevel` classes) with its own keyword arguments;
/// the room geometry is [`BabyAiParams`](super::BabyAiParams)'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Level {
    /// `GoToRedBallGrey`: go to the red ball among grey distractors.
    GoToRedBallGrey {
        /// The number of distractors.
        num_dists: usize,
    },
    /// `GoToRedBall` (and `GoToRedBallNoDists`): go to the red ball.
    GoToRedBall {
        /// The number of distractors.
        num_dists: usize,
    },
    /// `GoToObj`: go to the only object.
    GoToObj,
    /// `GoToLocal`: go to an object in the room.
    GoToLocal {
        /// The number of distractors.
        num_dists: usize,
    },
    /// `GoTo`: go to an object anywhere in the maze.
    GoTo {
        /// The number of distractors.
        num_dists: usize,
        /// Whether every door starts open.
        doors_open: bool,
    },
    /// `GoToImpUnlock`: go to an object in a locked room.
    GoToImpUnlock,
    /// `GoToRedBlueBall`: go to the red or the blue ball.
    GoToRedBlueBall {
        /// The number of distractors.
        num_dists: usize,
    },
    /// `GoToDoor`: go to a door of the room.
    GoToDoor,
    /// `GoToObjDoor`: go to an object or a door of the room.
    GoToObjDoor,
    /// `Open`: open a door anywhere in the maze.
    Open,
    /// `OpenRedDoor`: open the red door.
    OpenRedDoor,
    /// `OpenDoor`: open a door described by colour or location.
    OpenDoor {
        /// Whether opening another door fails.
        debug: bool,
        /// How the door is described (`None`: drawn).
        select_by: Option<SelectBy>,
    },
    /// `OpenTwoDoors`: open one door, then another.
    OpenTwoDoors {
        /// The first door's colour (`None`: drawn).
        first_color: Option<Color>,
        /// The second door's colour (`None`: drawn).
        second_color: Option<Color>,
        /// Whether opening another door first fails.
        strict: bool,
    },
    /// `OpenDoorsOrder`: open doors in a given order.
    OpenDoorsOrder {
        /// The number of doors (2 to 4).
        num_doors: usize,
        /// Whether opening another door fails.
        debug: bool,
    },
    /// `Pickup`: pick up an object anywhere in the maze.
    Pickup,
    /// `UnblockPickup`: pick up an object, some of them blocked.
    UnblockPickup,
    /// `PickupDist`: pick up an object described by kind, colour or both.
    PickupDist {
        /// Whether picking up another object fails.
        debug: bool,
    },
    /// `PickupAbove`: pick up the object in the room above.
    PickupAbove,
    /// `PutNextLocal`: put an object next to another in one room.
    PutNextLocal {
        /// The number of objects.
        num_objs: usize,
    },
    /// `PutNext`: put an object next to one in the other room.
    PutNext {
        /// The number of objects in each room (at most 9).
        objs_per_room: usize,
        /// Whether the agent starts carrying the object to move.
        start_carrying: bool,
    },
    /// `Unlock`: open a locked door whose key lies in another room.
    Unlock,
    /// `UnlockLocal`: open the locked door of the room.
    UnlockLocal {
        /// Whether three distractors are added.
        distractors: bool,
    },
    /// `KeyInBox`: open the locked door; its key is in a box.
    KeyInBox,
    /// `UnlockPickup`: pick up the box behind a locked door.
    UnlockPickup {
        /// Whether four distractors are added.
        distractors: bool,
    },
    /// `BlockedUnlockPickup`: as UnlockPickup, a ball blocking the door.
    BlockedUnlockPickup,
    /// `UnlockToUnlock`: unlock a door to find the key of another.
    UnlockToUnlock,
    /// `ActionObjDoor`: go to, pick up or open an object or door.
    ActionObjDoor,
    /// `FindObjS5`: pick up an object somewhere in the maze.
    FindObj,
    /// `KeyCorridor`: pick up the object behind a locked door.
    KeyCorridor {
        /// The object's kind.
        obj_type: ObjectKind,
    },
    /// `OneRoomS8`: pick up the ball.
    OneRoom,
    /// `MoveTwoAcross`: two put-next tasks across two rooms.
    MoveTwoAcross {
        /// The number of objects in each room (at most 9).
        objs_per_room: usize,
    },
    /// `LevelGen` (Synth, SynthLoc, SynthSeq, GoToSeq, PickupLoc, MiniBossLevel, BossLevel,
    /// BossLevelNoUnlock): a random instruction of the grammar.
    LevelGen(LevelGenParams),
}

impl Level {
    /// The episode's time limit the level's class fixes for a room side `room_size`
    /// (`None`: minigrid's `num_navs_needed * room_size² * rows * columns`).
    pub(crate) fn fixed_max_steps(&self, room_size: usize) -> Option<u64> {
        let square = (room_size * room_size) as u64;
        match self {
            Level::OpenTwoDoors { .. } | Level::OpenDoorsOrder { .. } | Level::FindObj => {
                Some(20 * square)
            }
            Level::PickupAbove | Level::PutNext { .. } => Some(8 * square),
            Level::BlockedUnlockPickup | Level::MoveTwoAcross { .. } => Some(16 * square),
            Level::UnlockToUnlock | Level::KeyCorridor { .. } => Some(30 * square),
            _ => None,
        }
    }

    /// The longest mission the level can give, in characters (a bound: a description is at
    /// most 31 characters, "the purple door in front of you").
    pub(crate) fn max_mission_len(&self) -> usize {
        const DESC: usize = 31;
        let action = |verb: usize| verb + DESC;
        let put_next = 4 + DESC + 9 + DESC;
        match self {
            Level::PutNext { .. } | Level::PutNextLocal { .. } => put_next,
            Level::MoveTwoAcross { .. } => 2 * put_next + 7,
            Level::OpenTwoDoors { .. } | Level::OpenDoorsOrder { .. } => 2 * action(5) + 11,
            Level::LevelGen(_) => {
                let one = put_next;
                let and = 2 * one + 5;
                2 * and + 11
            }
            _ => action(8),
        }
    }
}

/// Why an attempt at a mission was dropped: minigrid's `RecursionError` (a placement or
/// `connect_all` out of tries, `rand_obj` without a match) or `RejectSampling`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rejected {
    /// A placement failed.
    Placement(PlacementFailed),
    /// The level rejected the sample.
    Sampling,
}

impl From<PlacementFailed> for Rejected {
    fn from(failed: PlacementFailed) -> Self {
        Rejected::Placement(failed)
    }
}

type Attempt<T> = Result<T, Rejected>;

/// The rooms being generated, with the generator's builder.
pub(crate) struct Ctx<'a, 'r, R: Rng + ?Sized> {
    pub(crate) b: &'a mut Builder<'r, R>,
    pub(crate) rooms: Rooms,
    /// `LevelGen`'s locked room.
    locked_room: Option<(i32, i32)>,
    /// The object the agent starts carrying (PutNext's `start_carrying`), by position.
    pub(crate) start_carrying: Option<Position>,
}

/// minigrid's `OBJ_TYPES`.
const OBJ_TYPES: [ObjectKind; 4] = [
    ObjectKind::Box,
    ObjectKind::Ball,
    ObjectKind::Key,
    ObjectKind::Door,
];
/// minigrid's `OBJ_TYPES_NOT_DOOR`.
const OBJ_TYPES_NOT_DOOR: [ObjectKind; 3] = [ObjectKind::Box, ObjectKind::Ball, ObjectKind::Key];

fn desc(kind: ObjectKind, color: Color) -> ObjDesc {
    ObjDesc::new(Some(kind), Some(color), None)
}

fn kind_only(kind: ObjectKind) -> ObjDesc {
    ObjDesc::new(Some(kind), None, None)
}

fn of(cell: Cell) -> ObjDesc {
    desc(cell.kind(), cell.color())
}

impl<'a, 'r, R: Rng + ?Sized> Ctx<'a, 'r, R> {
    /// A new room grid (minigrid's `RoomGrid._gen_grid`) on `b`.
    pub(crate) fn new(
        b: &'a mut Builder<'r, R>,
        room_size: usize,
        num_rows: usize,
        num_cols: usize,
    ) -> Self {
        let rooms = Rooms::generate(b, room_size, num_rows, num_cols);
        Ctx {
            b,
            rooms,
            locked_room: None,
            start_carrying: None,
        }
    }

    fn cols(&self) -> i32 {
        self.rooms.shape().0
    }

    fn rows(&self) -> i32 {
        self.rooms.shape().1
    }

    /// The agent's pose and room, for location words.
    pub(crate) fn pose(&self) -> Pose {
        let (i, j) = self.rooms.room_of(self.b.agent);
        let (room_top, room_size) = self.rooms.rect(i, j);
        Pose {
            agent: self.b.agent,
            direction: self.b.direction,
            room_top,
            room_size,
        }
    }

    fn place_agent(&mut self, i: Option<i32>, j: Option<i32>) -> Attempt<Position> {
        Ok(self.rooms.place_agent(self.b, i, j)?)
    }

    fn add_object(
        &mut self,
        i: i32,
        j: i32,
        kind: Option<ObjectKind>,
        color: Option<Color>,
    ) -> Attempt<(Cell, Position)> {
        Ok(self.rooms.add_object(self.b, i, j, kind, color)?)
    }

    fn add_door(
        &mut self,
        i: i32,
        j: i32,
        k: Option<usize>,
        color: Option<Color>,
        locked: Option<bool>,
    ) -> (Cell, Position) {
        self.rooms.add_door(self.b, i, j, k, color, locked)
    }

    fn distractors(
        &mut self,
        i: Option<i32>,
        j: Option<i32>,
        count: usize,
        all_unique: bool,
    ) -> Attempt<Vec<(Cell, Position)>> {
        Ok(self
            .rooms
            .add_distractors(self.b, i, j, count, all_unique)?)
    }

    fn connect_all(&mut self) -> Attempt<()> {
        Ok(self.rooms.connect_all(self.b)?)
    }

    fn rand_elem<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.b.rand_elem(items.len())]
    }

    fn rand_int(&mut self, low: i32, high: i32) -> i32 {
        self.b.rand_int(i64::from(low), i64::from(high)) as i32
    }

    /// minigrid's `_rand_subset(items, count)`.
    fn rand_subset<T: Copy>(&mut self, items: &[T], count: usize) -> Vec<T> {
        let mut items = items.to_vec();
        self.b.rand_subset(&mut items, count);
        items.truncate(count);
        items
    }

    /// The door cells of every room, room column by room column (minigrid's loop over
    /// `room.doors`; a door between two rooms appears twice).
    fn all_doors(&self) -> Vec<Cell> {
        let mut doors = Vec::new();
        for i in 0..self.cols() {
            for j in 0..self.rows() {
                for position in self.rooms.doors(i, j).into_iter().flatten() {
                    doors.push(self.b.grid.get(position));
                }
            }
        }
        doors
    }

    /// minigrid's `open_all_doors`.
    fn open_all_doors(&mut self) {
        for i in 0..self.cols() {
            for j in 0..self.rows() {
                for position in self.rooms.doors(i, j).into_iter().flatten() {
                    let door = self.b.grid.get(position);
                    self.b
                        .grid
                        .set(position, door.with_door_state(DoorState::Open));
                }
            }
        }
    }

    /// minigrid's `check_objs_reachable`: whether every object (walls aside) is reachable
    /// from the agent through empty cells and doors.
    fn objs_reachable(&self) -> bool {
        let grid = &self.b.grid;
        let (width, height) = (grid.width() as i32, grid.height() as i32);
        let mut reached = vec![false; (width * height) as usize];
        let mut stack = vec![self.b.agent];
        while let Some(p) = stack.pop() {
            if p.x < 0 || p.x >= width || p.y < 0 || p.y >= height {
                continue;
            }
            let index = (p.y * width + p.x) as usize;
            if reached[index] {
                continue;
            }
            reached[index] = true;
            let cell = grid.get(p);
            if !cell.is_empty() && cell.kind() != ObjectKind::Door {
                continue;
            }
            stack.push(Position::new(p.x + 1, p.y));
            stack.push(Position::new(p.x - 1, p.y));
            stack.push(Position::new(p.x, p.y + 1));
            stack.push(Position::new(p.x, p.y - 1));
        }
        (0..width).all(|x| {
            (0..height).all(|y| {
                let cell = grid.get(Position::new(x, y));
                cell.is_empty()
                    || cell.kind() == ObjectKind::Wall
                    || reached[(y * width + x) as usize]
            })
        })
    }

    fn check_objs_reachable(&self) -> Attempt<()> {
        if self.objs_reachable() {
            Ok(())
        } else {
            Err(Rejected::Sampling)
        }
    }

    /// Places the agent in a random room other than `avoid`.
    fn place_agent_outside(&mut self, avoid: Option<(i32, i32)>) -> Attempt<()> {
        loop {
            self.place_agent(None, None)?;
            if Some(self.rooms.room_of(self.b.agent)) != avoid {
                return Ok(());
            }
        }
    }

    /// The key room loop of Unlock and GoToImpUnlock, as minigrid runs it: it draws a room
    /// and means to draw again when that is the locked room `(id, jd)`, but compares the
    /// drawn numpy integers with `is`, never true, so the key of `color` goes to the first
    /// room drawn, the locked one included.
    fn add_key_anywhere(&mut self, color: Color) -> Attempt<()> {
        let ik = self.rand_int(0, self.cols());
        let jk = self.rand_int(0, self.rows());
        self.add_object(ik, jk, Some(ObjectKind::Key), Some(color))?;
        Ok(())
    }

    /// The distractors of Unlock and GoToImpUnlock in every room: minigrid means to skip the
    /// locked room (`i is not id or j is not jd`) but compares a Python integer with numpy's
    /// by identity, always different.
    fn distractors_everywhere(&mut self, count: usize) -> Attempt<()> {
        for i in 0..self.cols() {
            for j in 0..self.rows() {
                self.distractors(Some(i), Some(j), count, false)?;
            }
        }
        Ok(())
    }

    /// minigrid's `gen_mission` of `level`.
    pub(crate) fn gen_mission(&mut self, level: &Level) -> Attempt<Instr> {
        match level {
            Level::GoToRedBallGrey { num_dists } | Level::GoToRedBall { num_dists } => {
                self.place_agent(None, None)?;
                let (ball, _) = self.add_object(0, 0, Some(ObjectKind::Ball), Some(Color::Red))?;
                let dists = self.distractors(None, None, *num_dists, false)?;
                if matches!(level, Level::GoToRedBallGrey { .. }) {
                    for (cell, position) in dists {
                        self.b
                            .grid
                            .set(position, Cell::object(cell.kind(), Color::Grey));
                    }
                }
                self.check_objs_reachable()?;
                Ok(Instr::go_to(of(ball)))
            }
            Level::GoToObj => {
                self.place_agent(None, None)?;
                let objs = self.distractors(None, None, 1, true)?;
                Ok(Instr::go_to(of(objs[0].0)))
            }
            Level::GoToLocal { num_dists } => {
                self.place_agent(None, None)?;
                let objs = self.distractors(None, None, *num_dists, false)?;
                self.check_objs_reachable()?;
                let (obj, _) = self.rand_elem(&objs);
                Ok(Instr::go_to(of(obj)))
            }
            Level::GoTo {
                num_dists,
                doors_open,
            } => {
                self.place_agent(None, None)?;
                self.connect_all()?;
                let objs = self.distractors(None, None, *num_dists, false)?;
                self.check_objs_reachable()?;
                let (obj, _) = self.rand_elem(&objs);
                if *doors_open {
                    self.open_all_doors();
                }
                Ok(Instr::go_to(of(obj)))
            }
            Level::GoToImpUnlock => {
                let id = self.rand_int(0, self.cols());
                let jd = self.rand_int(0, self.rows());
                let (door, _) = self.add_door(id, jd, None, None, Some(true));
                self.add_key_anywhere(door.color())?;
                self.connect_all()?;
                self.distractors_everywhere(2)?;
                self.place_agent_outside(Some((id, jd)))?;
                self.check_objs_reachable()?;
                let objs = self.distractors(Some(id), Some(jd), 1, false)?;
                Ok(Instr::go_to(of(objs[0].0)))
            }
            Level::GoToRedBlueBall { num_dists } => {
                self.place_agent(None, None)?;
                let dists = self.distractors(None, None, *num_dists, false)?;
                for (dist, _) in &dists {
                    if dist.kind() == ObjectKind::Ball
                        && matches!(dist.color(), Color::Blue | Color::Red)
                    {
                        return Err(Rejected::Sampling);
                    }
                }
                let color = self.rand_elem(&[Color::Red, Color::Blue]);
                let (ball, _) = self.add_object(0, 0, Some(ObjectKind::Ball), Some(color))?;
                self.check_objs_reachable()?;
                Ok(Instr::go_to(of(ball)))
            }
            Level::GoToDoor => {
                let mut doors = Vec::with_capacity(4);
                for _ in 0..4 {
                    doors.push(self.add_door(1, 1, None, None, None).0);
                }
                self.place_agent(Some(1), Some(1))?;
                let door = self.rand_elem(&doors);
                Ok(Instr::go_to(desc(ObjectKind::Door, door.color())))
            }
            Level::GoToObjDoor => {
                self.place_agent(Some(1), Some(1))?;
                let mut objs: Vec<Cell> = self
                    .distractors(Some(1), Some(1), 8, false)?
                    .into_iter()
                    .map(|(cell, _)| cell)
                    .collect();
                for _ in 0..4 {
                    objs.push(self.add_door(1, 1, None, None, None).0);
                }
                self.check_objs_reachable()?;
                let obj = self.rand_elem(&objs);
                Ok(Instr::go_to(of(obj)))
            }
            Level::Open => {
                self.place_agent(None, None)?;
                self.connect_all()?;
                self.distractors(None, None, 18, false)?;
                self.check_objs_reachable()?;
                let doors = self.all_doors();
                let door = self.rand_elem(&doors);
                Ok(Instr::open(of(door), false))
            }
            Level::OpenRedDoor => {
                self.add_door(0, 0, Some(0), Some(Color::Red), Some(false));
                self.place_agent(Some(0), Some(0))?;
                Ok(Instr::open(desc(ObjectKind::Door, Color::Red), false))
            }
            Level::OpenDoor { debug, select_by } => {
                let colors = self.rand_subset(&Color::NAMES_ORDER, 4);
                let mut doors = Vec::with_capacity(4);
                for (i, &color) in colors.iter().enumerate() {
                    doors.push(self.add_door(1, 1, Some(i), Some(color), Some(false)).0);
                }
                let select_by = match select_by {
                    Some(select_by) => *select_by,
                    None => self.rand_elem(&[SelectBy::Color, SelectBy::Loc]),
                };
                let object = match select_by {
                    SelectBy::Color => of(doors[0]),
                    SelectBy::Loc => {
                        let loc = self.rand_elem(&Loc::ALL);
                        ObjDesc::new(Some(ObjectKind::Door), None, Some(loc))
                    }
                };
                self.place_agent(Some(1), Some(1))?;
                Ok(Instr::open(object, *debug))
            }
            Level::OpenTwoDoors {
                first_color,
                second_color,
                strict,
            } => {
                let colors = self.rand_subset(&Color::NAMES_ORDER, 2);
                let first = first_color.unwrap_or(colors[0]);
                let second = second_color.unwrap_or(colors[1]);
                let (door1, _) = self.add_door(1, 1, Some(2), Some(first), Some(false));
                let (door2, _) = self.add_door(1, 1, Some(0), Some(second), Some(false));
                self.place_agent(Some(1), Some(1))?;
                Ok(Instr::Before(Seq::new(
                    Instr::open(of(door1), *strict),
                    Instr::open(of(door2), false),
                )))
            }
            Level::OpenDoorsOrder { num_doors, debug } => {
                let colors = self.rand_subset(&Color::NAMES_ORDER, *num_doors);
                let mut doors = Vec::with_capacity(*num_doors);
                for &color in &colors {
                    doors.push(self.add_door(1, 1, None, Some(color), Some(false)).0);
                }
                self.place_agent(Some(1), Some(1))?;
                let pair = self.rand_subset(&doors, 2);
                let (desc1, desc2) = (of(pair[0]), of(pair[1]));
                let mode = self.rand_int(0, 3);
                let debug = *debug;
                Ok(match mode {
                    0 => Instr::open(desc1, debug),
                    1 => Instr::Before(Seq::new(
                        Instr::open(desc1, debug),
                        Instr::open(desc2, debug),
                    )),
                    _ => Instr::After(Seq::new(
                        Instr::open(desc1, debug),
                        Instr::open(desc2, debug),
                    )),
                })
            }
            Level::Pickup => {
                self.place_agent(None, None)?;
                self.connect_all()?;
                let objs = self.distractors(None, None, 18, false)?;
                self.check_objs_reachable()?;
                let (obj, _) = self.rand_elem(&objs);
                Ok(Instr::pickup(of(obj), false))
            }
            Level::UnblockPickup => {
                self.place_agent(None, None)?;
                self.connect_all()?;
                let objs = self.distractors(None, None, 20, false)?;
                if self.objs_reachable() {
                    return Err(Rejected::Sampling);
                }
                let (obj, _) = self.rand_elem(&objs);
                Ok(Instr::pickup(of(obj), false))
            }
            Level::PickupDist { debug } => {
                let objs = self.distractors(None, None, 5, true)?;
                self.place_agent(Some(0), Some(0))?;
                let (obj, _) = self.rand_elem(&objs);
                let by = self.rand_int(0, 3);
                let description = match by {
                    0 => kind_only(obj.kind()),
                    1 => ObjDesc::new(None, Some(obj.color()), None),
                    _ => of(obj),
                };
                Ok(Instr::pickup(description, *debug))
            }
            Level::PickupAbove => {
                let (obj, _) = self.add_object(1, 0, None, None)?;
                self.add_door(1, 1, Some(3), None, Some(false));
                self.place_agent(Some(1), Some(1))?;
                self.connect_all()?;
                Ok(Instr::pickup(of(obj), false))
            }
            Level::PutNextLocal { num_objs } => {
                self.place_agent(None, None)?;
                let objs = self.distractors(None, None, *num_objs, true)?;
                self.check_objs_reachable()?;
                let pair = self.rand_subset(&objs, 2);
                Ok(Instr::put_next(of(pair[0].0), of(pair[1].0)))
            }
            Level::PutNext {
                objs_per_room,
                start_carrying,
            } => {
                self.place_agent(Some(0), Some(0))?;
                let left = self.distractors(Some(0), Some(0), *objs_per_room, true)?;
                let right = self.distractors(Some(1), Some(0), *objs_per_room, true)?;
                self.rooms.remove_wall(self.b, 0, 0, 0);
                let mut a = self.rand_elem(&left);
                let mut b = self.rand_elem(&right);
                if self.b.rand_bool() {
                    std::mem::swap(&mut a, &mut b);
                }
                if *start_carrying {
                    self.start_carrying = Some(a.1);
                }
                Ok(Instr::put_next(of(a.0), of(b.0)))
            }
            Level::Unlock => {
                let id = self.rand_int(0, self.cols());
                let jd = self.rand_int(0, self.rows());
                let (door, _) = self.add_door(id, jd, None, None, Some(true));
                self.add_key_anywhere(door.color())?;
                if self.b.rand_bool() {
                    let colors: Vec<Color> = Color::NAMES_ORDER
                        .into_iter()
                        .filter(|&color| color != door.color())
                        .collect();
                    self.rooms.connect_all_with(self.b, &colors)?;
                } else {
                    self.connect_all()?;
                }
                self.distractors_everywhere(3)?;
                self.place_agent_outside(Some((id, jd)))?;
                self.check_objs_reachable()?;
                Ok(Instr::open(of(door), false))
            }
            Level::UnlockLocal { distractors } => {
                let (door, _) = self.add_door(1, 1, None, None, Some(true));
                self.add_object(1, 1, Some(ObjectKind::Key), Some(door.color()))?;
                if *distractors {
                    self.distractors(Some(1), Some(1), 3, true)?;
                }
                self.place_agent(Some(1), Some(1))?;
                Ok(Instr::open(kind_only(ObjectKind::Door), false))
            }
            Level::KeyInBox => {
                let (door, _) = self.add_door(1, 1, None, None, Some(true));
                let color = self.b.rand_color();
                let boxed = Cell::boxed(color, Some(Cell::key(door.color())));
                self.rooms.place_in_room(self.b, 1, 1, boxed)?;
                self.place_agent(Some(1), Some(1))?;
                Ok(Instr::open(kind_only(ObjectKind::Door), false))
            }
            Level::UnlockPickup { distractors } => {
                let (obj, _) = self.add_object(1, 0, Some(ObjectKind::Box), None)?;
                let (door, _) = self.add_door(0, 0, Some(0), None, Some(true));
                self.add_object(0, 0, Some(ObjectKind::Key), Some(door.color()))?;
                if *distractors {
                    self.distractors(None, None, 4, true)?;
                }
                self.place_agent(Some(0), Some(0))?;
                Ok(Instr::pickup(of(obj), false))
            }
            Level::BlockedUnlockPickup => {
                self.add_object(1, 0, Some(ObjectKind::Box), None)?;
                let (door, position) = self.add_door(0, 0, Some(0), None, Some(true));
                let color = self.b.rand_color();
                self.b
                    .grid
                    .set(Position::new(position.x - 1, position.y), Cell::ball(color));
                self.add_object(0, 0, Some(ObjectKind::Key), Some(door.color()))?;
                self.place_agent(Some(0), Some(0))?;
                Ok(Instr::pickup(kind_only(ObjectKind::Box), false))
            }
            Level::UnlockToUnlock => {
                let colors = self.rand_subset(&Color::NAMES_ORDER, 2);
                self.add_door(0, 0, Some(0), Some(colors[0]), Some(true));
                self.add_object(2, 0, Some(ObjectKind::Key), Some(colors[0]))?;
                self.add_door(1, 0, Some(0), Some(colors[1]), Some(true));
                self.add_object(1, 0, Some(ObjectKind::Key), Some(colors[1]))?;
                self.add_object(0, 0, Some(ObjectKind::Ball), None)?;
                self.place_agent(Some(1), Some(0))?;
                Ok(Instr::pickup(kind_only(ObjectKind::Ball), false))
            }
            Level::ActionObjDoor => {
                let mut objs: Vec<Cell> = self
                    .distractors(Some(1), Some(1), 5, true)?
                    .into_iter()
                    .map(|(cell, _)| cell)
                    .collect();
                for _ in 0..4 {
                    objs.push(self.add_door(1, 1, None, None, Some(false)).0);
                }
                self.place_agent(Some(1), Some(1))?;
                let obj = self.rand_elem(&objs);
                let description = of(obj);
                let first = self.b.rand_bool();
                Ok(match (obj.kind() == ObjectKind::Door, first) {
                    (_, true) => Instr::go_to(description),
                    (true, false) => Instr::open(description, false),
                    (false, false) => Instr::pickup(description, false),
                })
            }
            Level::FindObj => {
                let i = self.rand_int(0, self.rows());
                let j = self.rand_int(0, self.cols());
                let (obj, _) = self.add_object(i, j, None, None)?;
                self.place_agent(Some(1), Some(1))?;
                self.connect_all()?;
                Ok(Instr::pickup(kind_only(obj.kind()), false))
            }
            Level::KeyCorridor { obj_type } => {
                let rows = self.rows();
                for j in 1..rows {
                    self.rooms.remove_wall(self.b, 1, j, 3);
                }
                let room = self.rand_int(0, rows);
                let (door, _) = self.add_door(2, room, Some(2), None, Some(true));
                let (obj, _) = self.add_object(2, room, Some(*obj_type), None)?;
                let key_room = self.rand_int(0, rows);
                self.add_object(0, key_room, Some(ObjectKind::Key), Some(door.color()))?;
                self.place_agent(Some(1), Some(rows / 2))?;
                self.connect_all()?;
                Ok(Instr::pickup(kind_only(obj.kind()), false))
            }
            Level::OneRoom => {
                self.add_object(0, 0, Some(ObjectKind::Ball), None)?;
                self.place_agent(None, None)?;
                Ok(Instr::pickup(kind_only(ObjectKind::Ball), false))
            }
            Level::MoveTwoAcross { objs_per_room } => {
                self.place_agent(Some(0), Some(0))?;
                let left = self.distractors(Some(0), Some(0), *objs_per_room, true)?;
                let right = self.distractors(Some(1), Some(0), *objs_per_room, true)?;
                self.rooms.remove_wall(self.b, 0, 0, 0);
                let left = self.rand_subset(&left, 2);
                let right = self.rand_subset(&right, 2);
                let (a, b, c, d) = (left[0].0, right[0].0, right[1].0, left[1].0);
                Ok(Instr::Before(Seq::new(
                    Instr::put_next(of(a), of(b)),
                    Instr::put_next(of(c), of(d)),
                )))
            }
            Level::LevelGen(params) => self.level_gen(params),
        }
    }

    /// `LevelGen.gen_mission`.
    fn level_gen(&mut self, params: &LevelGenParams) -> Attempt<Instr> {
        self.locked_room = None;
        if uniform(self.b.rng(), 0.0, 1.0) < params.locked_room_prob {
            self.add_locked_room()?;
        }
        self.connect_all()?;
        self.distractors(None, None, params.num_dists, false)?;
        let locked = self.locked_room;
        self.place_agent_outside(locked)?;
        if !params.unblocking {
            self.check_objs_reachable()?;
        }
        self.rand_instr(params, &params.instr_kinds)
    }

    /// `LevelGen.add_locked_room`.
    fn add_locked_room(&mut self) -> Attempt<()> {
        let door = loop {
            let i = self.rand_int(0, self.cols());
            let j = self.rand_int(0, self.rows());
            let k = self.rand_int(0, 4) as usize;
            self.locked_room = Some((i, j));
            if !self.rooms.has_neighbor(i, j, k) {
                continue;
            }
            break self.add_door(i, j, Some(k), None, Some(true)).0;
        };
        loop {
            let i = self.rand_int(0, self.cols());
            let j = self.rand_int(0, self.rows());
            if Some((i, j)) == self.locked_room {
                continue;
            }
            self.add_object(i, j, Some(ObjectKind::Key), Some(door.color()))?;
            return Ok(());
        }
    }

    /// `LevelGen.rand_obj(types)`.
    fn rand_obj(&mut self, params: &LevelGenParams, types: &[ObjectKind]) -> Attempt<ObjDesc> {
        let mut tries = 0;
        loop {
            if tries > 100 {
                return Err(Rejected::Placement(PlacementFailed::TooManyTries));
            }
            tries += 1;
            let color_index = self.b.rand_elem(Color::NAMES_ORDER.len() + 1);
            let color = color_index
                .checked_sub(1)
                .map(|index| Color::NAMES_ORDER[index]);
            let kind = self.rand_elem(types);
            let mut loc = None;
            if params.locations && self.b.rand_bool() {
                loc = Some(self.rand_elem(&Loc::ALL));
            }
            let mut description = ObjDesc::new(Some(kind), color, loc);
            let pose = self.pose();
            description.find_matching(&self.b.grid, pose);
            if description.count() == 0 {
                continue;
            }
            if !params.implicit_unlock {
                if let Some((i, j)) = self.locked_room {
                    let (top, size) = self.rooms.rect(i, j);
                    let inside = |p: Position| {
                        p.x >= top.x && p.y >= top.y && p.x < top.x + size && p.y < top.y + size
                    };
                    if description.positions.iter().all(|&p| inside(p)) {
                        continue;
                    }
                }
            }
            return Ok(description);
        }
    }

    /// `LevelGen.rand_instr(action_kinds, instr_kinds)`.
    fn rand_instr(&mut self, params: &LevelGenParams, kinds: &[InstrKind]) -> Attempt<Instr> {
        match self.rand_elem(kinds) {
            InstrKind::Action => {
                let action = self.rand_elem(&params.action_kinds);
                Ok(match action {
                    ActionKind::Goto => Instr::go_to(self.rand_obj(params, &OBJ_TYPES)?),
                    ActionKind::Pickup => {
                        Instr::pickup(self.rand_obj(params, &OBJ_TYPES_NOT_DOOR)?, false)
                    }
                    ActionKind::Open => {
                        Instr::open(self.rand_obj(params, &[ObjectKind::Door])?, false)
                    }
                    ActionKind::Putnext => {
                        let moved = self.rand_obj(params, &OBJ_TYPES_NOT_DOOR)?;
                        let fixed = self.rand_obj(params, &OBJ_TYPES)?;
                        Instr::put_next(moved, fixed)
                    }
                })
            }
            InstrKind::And => {
                let a = self.rand_instr(params, &[InstrKind::Action])?;
                let b = self.rand_instr(params, &[InstrKind::Action])?;
                Ok(Instr::And(Seq::new(a, b)))
            }
            InstrKind::Seq => {
                let a = self.rand_instr(params, &[InstrKind::Action, InstrKind::And])?;
                let b = self.rand_instr(params, &[InstrKind::Action, InstrKind::And])?;
                if self.b.rand_int(0, 2) == 0 {
                    Ok(Instr::Before(Seq::new(a, b)))
                } else {
                    Ok(Instr::After(Seq::new(a, b)))
                }
            }
        }
    }

    /// `RoomGridLevel.validate_instrs` (`unblocking`: `LevelGen`'s flag; `false` for the
    /// other levels, which have none).
    pub(crate) fn validate(&self, instr: &mut Instr, unblocking: bool) -> Attempt<()> {
        let locked_colors: Vec<Color> = if unblocking {
            let mut colors = Vec::new();
            for i in 0..self.cols() {
                for j in 0..self.rows() {
                    for position in self.rooms.doors(i, j).into_iter().flatten() {
                        let door = self.b.grid.get(position);
                        if door.door_state() == Some(DoorState::Locked) {
                            colors.push(door.color());
                        }
                    }
                }
            }
            colors
        } else {
            Vec::new()
        };
        self.validate_with(instr, unblocking, &locked_colors)
    }

    fn validate_with(
        &self,
        instr: &mut Instr,
        unblocking: bool,
        locked_colors: &[Color],
    ) -> Attempt<()> {
        if let Instr::PutNext { moved, fixed, .. } = instr {
            let pose = self.pose();
            moved.find_matching(&self.b.grid, pose);
            fixed.find_matching(&self.b.grid, pose);
            if moved.ids().any(|id| fixed.ids().any(|other| other == id)) {
                return Err(Rejected::Sampling);
            }
            let next = moved.objects.iter().any(|object| {
                fixed
                    .positions
                    .iter()
                    .any(|&p| (object.cur_pos.x - p.x).abs() + (object.cur_pos.y - p.y).abs() == 1)
            });
            if next {
                return Err(Rejected::Sampling);
            }
        }
        match instr {
            Instr::Before(seq) | Instr::After(seq) | Instr::And(seq) => {
                self.validate_with(&mut seq.a, unblocking, locked_colors)?;
                self.validate_with(&mut seq.b, unblocking, locked_colors)
            }
            _ => {
                if !unblocking {
                    return Ok(());
                }
                let mut rejected = false;
                instr.for_each_desc(&mut |d| {
                    if d.kind == Some(ObjectKind::Key)
                        && d.color.is_some_and(|color| locked_colors.contains(&color))
                    {
                        rejected = true;
                    }
                });
                if rejected {
                    Err(Rejected::Sampling)
                } else {
                    Ok(())
                }
            }
        }
    }
}
