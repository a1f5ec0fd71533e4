//! BabyAI's instruction language (minigrid 3.2.0's `envs/babyai/core/verifier.py`): object
//! descriptions ([`ObjDesc`]) and instructions ([`Instr`]: go to, open, pick up, put next to,
//! and their sequences `before`, `after` and `and`), with minigrid's `surface()` (the mission
//! text) and `verify(action)` (success, failure or neither, step by step).
//!
//! minigrid tracks the objects an instruction names by Python identity. Here each object found
//! when the episode starts gets an identity (the index of the cell it started in), and every
//! description keeps, for each of its objects, where it lies now (or that it is carried or
//! gone) and minigrid's `cur_pos`, updated by the three events that move objects: a pickup,
//! a drop and a box opened (which takes the box away). Descriptions keep their `obj_poss`
//! as minigrid keeps it: found at the start and refreshed only on a `drop` action.

use serde::{Deserialize, Serialize};

use crate::grid::{Grid, Position};
use crate::object::{Cell, Color, DoorState, ObjectKind};
use crate::state::Direction;

/// The identity of a carried object that no description tracks.
pub(crate) const UNTRACKED: u32 = u32::MAX;

/// A location relative to the agent's starting position and direction (minigrid's
/// `LOC_NAMES`, in its order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loc {
    /// On the agent's left.
    Left,
    /// On the agent's right.
    Right,
    /// In front of the agent.
    Front,
    /// Behind the agent.
    Behind,
}

impl Loc {
    /// minigrid's `LOC_NAMES`.
    pub const ALL: [Loc; 4] = [Loc::Left, Loc::Right, Loc::Front, Loc::Behind];
}

/// What a verification step says (minigrid's `"continue"`, `"success"`, `"failure"`; the
/// sequences' initial `False` behaves as `"continue"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not done yet.
    #[default]
    Continue,
    /// Done.
    Success,
    /// Failed.
    Failure,
}

/// One object a description matched when the episode started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Tracked {
    /// Its identity: the index (`y * width + x`) of the cell it started in.
    pub(crate) id: u32,
    /// Where it lies in the grid now (`None`: carried, or gone in a box's opening).
    pub(crate) at: Option<Position>,
    /// minigrid's `cur_pos` (`(-1, -1)` once picked up).
    pub(crate) cur_pos: Position,
}

/// The geometry the location words need: the agent's pose and the room it stands in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pose {
    pub(crate) agent: Position,
    pub(crate) direction: Direction,
    /// The agent's room: top-left corner and side (walls included).
    pub(crate) room_top: Position,
    pub(crate) room_size: i32,
}

/// A description of a set of objects (minigrid's `ObjDesc`): a kind (`None`: any object), a
/// colour and a location, with the objects it matched and their positions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjDesc {
    /// The kind (`None`: "object", any non-empty cell).
    pub kind: Option<ObjectKind>,
    /// The colour.
    pub color: Option<Color>,
    /// The location relative to the agent's start.
    pub loc: Option<Loc>,
    pub(crate) objects: Vec<Tracked>,
    pub(crate) positions: Vec<Position>,
}

impl ObjDesc {
    /// A description matching nothing yet.
    pub(crate) fn new(kind: Option<ObjectKind>, color: Option<Color>, loc: Option<Loc>) -> Self {
        ObjDesc {
            kind,
            color,
            loc,
            objects: Vec::new(),
            positions: Vec::new(),
        }
    }

    /// minigrid's `find_matching_objs(env)` (with locations): every cell matching the
    /// description, column by column.
    pub(crate) fn find_matching(&mut self, grid: &Grid, pose: Pose) {
        self.objects.clear();
        self.positions.clear();
        let width = grid.width() as i32;
        for x in 0..width {
            for y in 0..grid.height() as i32 {
                let position = Position::new(x, y);
                let cell = grid.get(position);
                if cell.is_empty() {
                    continue;
                }
                if self.kind.is_some_and(|kind| cell.kind() != kind) {
                    continue;
                }
                if self.color.is_some_and(|color| cell.color() != color) {
                    continue;
                }
                if let Some(loc) = self.loc {
                    let top = pose.room_top;
                    let inside = x >= top.x
                        && y >= top.y
                        && x < top.x + pose.room_size
                        && y < top.y + pose.room_size;
                    if !inside {
                        continue;
                    }
                    let v = (x - pose.agent.x, y - pose.agent.y);
                    let d1 = pose.direction.vector();
                    let d2 = (-d1.1, d1.0);
                    let dot = |a: (i32, i32), b: (i32, i32)| a.0 * b.0 + a.1 * b.1;
                    let matches = match loc {
                        Loc::Left => dot(v, d2) < 0,
                        Loc::Right => dot(v, d2) > 0,
                        Loc::Front => dot(v, d1) > 0,
                        Loc::Behind => dot(v, d1) < 0,
                    };
                    if !matches {
                        continue;
                    }
                }
                self.objects.push(Tracked {
                    id: (y * width + x) as u32,
                    at: Some(position),
                    cur_pos: position,
                });
                self.positions.push(position);
            }
        }
    }

    /// The number of objects matched.
    pub(crate) fn count(&self) -> usize {
        self.objects.len()
    }

    /// The identities of the objects matched.
    pub(crate) fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.objects.iter().map(|object| object.id)
    }

    /// minigrid's `surface(env)` (after `find_matching_objs`): "the" or "a", the colour, the
    /// kind ("object" for any) and the location.
    pub(crate) fn surface(&self, out: &mut String) {
        out.push_str(if self.objects.len() > 1 { "a " } else { "the " });
        if let Some(color) = self.color {
            out.push_str(color.name());
            out.push(' ');
        }
        out.push_str(self.kind.map_or("object", ObjectKind::name));
        match self.loc {
            None => {}
            Some(Loc::Front) => out.push_str(" in front of you"),
            Some(Loc::Behind) => out.push_str(" behind you"),
            Some(Loc::Left) => out.push_str(" on your left"),
            Some(Loc::Right) => out.push_str(" on your right"),
        }
    }

    /// minigrid's `update_objs_poss` (`find_matching_objs(use_location=False)`): the
    /// positions of the tracked objects still in the grid.
    fn refresh_positions(&mut self) {
        self.positions.clear();
        self.positions
            .extend(self.objects.iter().filter_map(|object| object.at));
    }

    /// The identity of the tracked object lying at `position`, if any.
    fn id_at(&self, position: Position) -> Option<u32> {
        self.objects
            .iter()
            .find(|object| object.at == Some(position))
            .map(|object| object.id)
    }

    /// An object event: `Picked(p)` takes the object at `p` into the agent's hands, `Dropped(id,
    /// p)` puts the object `id` down at `p`, `Removed(p)` takes the box at `p` away.
    fn apply(&mut self, event: Event) {
        for object in &mut self.objects {
            match event {
                Event::Picked(position) if object.at == Some(position) => {
                    object.at = None;
                    object.cur_pos = Position::new(-1, -1);
                }
                Event::Dropped(id, position) if object.id == id && object.at.is_none() => {
                    object.at = Some(position);
                    object.cur_pos = position;
                }
                Event::Removed(position) if object.at == Some(position) => object.at = None,
                _ => {}
            }
        }
    }
}

/// Something that moved an object.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    Picked(Position),
    Dropped(u32, Position),
    Removed(Position),
}

/// What a verification step looks at, after the action's effect.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step {
    pub(crate) action: i64,
    pub(crate) front: Position,
    pub(crate) front_cell: Cell,
    /// The identity of the carried object (`None`: nothing carried).
    pub(crate) carrying: Option<u32>,
}

/// minigrid's `pos_next_to`: one step apart horizontally or vertically.
fn next_to(a: Position, b: Position) -> bool {
    (a.x - b.x).abs() + (a.y - b.y).abs() == 1
}

/// An instruction (minigrid's `Instr` classes) with its verifier's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Instr {
    /// `GoToInstr`: face an object of the description.
    GoTo {
        /// The object.
        desc: ObjDesc,
    },
    /// `OpenInstr`: open a door of the description.
    Open {
        /// The door.
        desc: ObjDesc,
        /// Whether toggling any other door fails.
        strict: bool,
    },
    /// `PickupInstr`: pick up an object of the description.
    Pickup {
        /// The object.
        desc: ObjDesc,
        /// Whether picking up anything else fails.
        strict: bool,
        /// minigrid's `preCarrying` (the identity carried at the last verification).
        pre_carrying: Option<u32>,
    },
    /// `PutNextInstr`: put an object of `moved` next to one of `fixed`.
    PutNext {
        /// The object to move.
        moved: ObjDesc,
        /// The object to put it next to.
        fixed: ObjDesc,
        /// Whether picking up anything while carrying fails.
        strict: bool,
        /// minigrid's `preCarrying`.
        pre_carrying: Option<u32>,
    },
    /// `BeforeInstr`: `a`, then `b` (`strict`: doing `b` first fails).
    Before(Box<Seq>),
    /// `AfterInstr`: `a` after `b`.
    After(Box<Seq>),
    /// `AndInstr`: both, in any order.
    And(Box<Seq>),
}

/// The two parts of a sequence and how far each went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seq {
    /// The first instruction.
    pub a: Instr,
    /// The second instruction.
    pub b: Instr,
    /// Whether doing them out of order fails.
    pub strict: bool,
    /// minigrid's `a_done`.
    pub a_done: Status,
    /// minigrid's `b_done`.
    pub b_done: Status,
}

impl Seq {
    /// A sequence of `a` and `b`, neither done.
    pub(crate) fn new(a: Instr, b: Instr) -> Box<Seq> {
        Box::new(Seq {
            a,
            b,
            strict: false,
            a_done: Status::Continue,
            b_done: Status::Continue,
        })
    }
}

impl Instr {
    /// `GoToInstr(desc)`.
    pub(crate) fn go_to(desc: ObjDesc) -> Instr {
        Instr::GoTo { desc }
    }

    /// `OpenInstr(desc, strict)`.
    pub(crate) fn open(desc: ObjDesc, strict: bool) -> Instr {
        Instr::Open { desc, strict }
    }

    /// `PickupInstr(desc, strict)`.
    pub(crate) fn pickup(desc: ObjDesc, strict: bool) -> Instr {
        Instr::Pickup {
            desc,
            strict,
            pre_carrying: None,
        }
    }

    /// `PutNextInstr(moved, fixed)`.
    pub(crate) fn put_next(moved: ObjDesc, fixed: ObjDesc) -> Instr {
        Instr::PutNext {
            moved,
            fixed,
            strict: false,
            pre_carrying: None,
        }
    }

    /// Calls `f` on every description, depth first, `a` before `b`, `moved` before `fixed`.
    pub(crate) fn for_each_desc(&mut self, f: &mut impl FnMut(&mut ObjDesc)) {
        match self {
            Instr::GoTo { desc } | Instr::Open { desc, .. } | Instr::Pickup { desc, .. } => f(desc),
            Instr::PutNext { moved, fixed, .. } => {
                f(moved);
                f(fixed);
            }
            Instr::Before(seq) | Instr::After(seq) | Instr::And(seq) => {
                seq.a.for_each_desc(f);
                seq.b.for_each_desc(f);
            }
        }
    }

    /// Calls `f` on every description (read only), in [`Instr::for_each_desc`]'s order.
    pub(crate) fn visit_descs<'a>(&'a self, f: &mut impl FnMut(&'a ObjDesc)) {
        match self {
            Instr::GoTo { desc } | Instr::Open { desc, .. } | Instr::Pickup { desc, .. } => f(desc),
            Instr::PutNext { moved, fixed, .. } => {
                f(moved);
                f(fixed);
            }
            Instr::Before(seq) | Instr::After(seq) | Instr::And(seq) => {
                seq.a.visit_descs(f);
                seq.b.visit_descs(f);
            }
        }
    }

    /// The number of descriptions in the instruction.
    pub(crate) fn desc_count(&self) -> usize {
        let mut count = 0;
        self.visit_descs(&mut |_| count += 1);
        count
    }

    /// The description number `index` in [`Instr::for_each_desc`]'s order.
    pub(crate) fn desc_at(&self, index: usize) -> Option<&ObjDesc> {
        let mut seen = 0;
        let mut found = None;
        self.visit_descs(&mut |desc| {
            if seen == index {
                found = Some(desc);
            }
            seen += 1;
        });
        found
    }

    /// The identity of the tracked object lying at `position` (any description's), if any,
    /// without changing anything.
    pub(crate) fn tracked_at(&self, position: Position) -> Option<u32> {
        let mut found = None;
        self.visit_descs(&mut |desc| {
            if found.is_none() {
                found = desc.id_at(position);
            }
        });
        found
    }

    /// minigrid's `reset_verifier(env)`: every description matched again (with locations),
    /// the carried-object memories and the sequences' progress cleared.
    pub(crate) fn reset_verifier(&mut self, grid: &Grid, pose: Pose) {
        match self {
            Instr::GoTo { desc } | Instr::Open { desc, .. } => desc.find_matching(grid, pose),
            Instr::Pickup {
                desc, pre_carrying, ..
            } => {
                *pre_carrying = None;
                desc.find_matching(grid, pose);
            }
            Instr::PutNext {
                moved,
                fixed,
                pre_carrying,
                ..
            } => {
                *pre_carrying = None;
                moved.find_matching(grid, pose);
                fixed.find_matching(grid, pose);
            }
            Instr::Before(seq) | Instr::After(seq) | Instr::And(seq) => {
                seq.a.reset_verifier(grid, pose);
                seq.b.reset_verifier(grid, pose);
                seq.a_done = Status::Continue;
                seq.b_done = Status::Continue;
            }
        }
    }

    /// minigrid's `surface(env)`, appended to `out` (descriptions already matched).
    pub(crate) fn surface(&self, out: &mut String) {
        match self {
            Instr::GoTo { desc } => {
                out.push_str("go to ");
                desc.surface(out);
            }
            Instr::Open { desc, .. } => {
                out.push_str("open ");
                desc.surface(out);
            }
            Instr::Pickup { desc, .. } => {
                out.push_str("pick up ");
                desc.surface(out);
            }
            Instr::PutNext { moved, fixed, .. } => {
                out.push_str("put ");
                moved.surface(out);
                out.push_str(" next to ");
                fixed.surface(out);
            }
            Instr::Before(seq) => {
                seq.a.surface(out);
                out.push_str(", then ");
                seq.b.surface(out);
            }
            Instr::After(seq) => {
                seq.a.surface(out);
                out.push_str(" after you ");
                seq.b.surface(out);
            }
            Instr::And(seq) => {
                seq.a.surface(out);
                out.push_str(" and ");
                seq.b.surface(out);
            }
        }
    }

    /// minigrid's `num_navs_needed`: 2 for put next, 1 for the other actions, the sum for a
    /// sequence.
    pub(crate) fn num_navs(&self) -> u64 {
        match self {
            Instr::PutNext { .. } => 2,
            Instr::GoTo { .. } | Instr::Open { .. } | Instr::Pickup { .. } => 1,
            Instr::Before(seq) | Instr::After(seq) | Instr::And(seq) => {
                seq.a.num_navs() + seq.b.num_navs()
            }
        }
    }

    /// The identity of the tracked object at `position` (any description's), if any.
    pub(crate) fn id_at(&mut self, position: Position) -> Option<u32> {
        let mut found = None;
        self.for_each_desc(&mut |desc| {
            if found.is_none() {
                found = desc.id_at(position);
            }
        });
        found
    }

    /// Applies an object event to every description.
    pub(crate) fn apply(&mut self, event: Event) {
        self.for_each_desc(&mut |desc| desc.apply(event));
    }

    /// minigrid's `update_objs_poss` (on every `drop` action).
    pub(crate) fn refresh_positions(&mut self) {
        self.for_each_desc(&mut ObjDesc::refresh_positions);
    }

    /// minigrid's `verify(action)` (without `BABYAI_DONE_ACTIONS`).
    pub(crate) fn verify(&mut self, step: Step) -> Status {
        match self {
            Instr::GoTo { desc } => {
                if desc.positions.contains(&step.front) {
                    Status::Success
                } else {
                    Status::Continue
                }
            }
            Instr::Open { desc, strict } => {
                if step.action != crate::TOGGLE {
                    return Status::Continue;
                }
                let front_door = desc.id_at(step.front).is_some()
                    && step.front_cell.door_state() == Some(DoorState::Open);
                if front_door {
                    return Status::Success;
                }
                if *strict && step.front_cell.kind() == ObjectKind::Door {
                    return Status::Failure;
                }
                Status::Continue
            }
            Instr::Pickup {
                desc,
                strict,
                pre_carrying,
            } => {
                let before = *pre_carrying;
                *pre_carrying = step.carrying;
                if step.action != crate::PICKUP {
                    return Status::Continue;
                }
                if before.is_none()
                    && step
                        .carrying
                        .is_some_and(|carried| desc.ids().any(|id| id == carried))
                {
                    return Status::Success;
                }
                if *strict && step.carrying.is_some() {
                    return Status::Failure;
                }
                Status::Continue
            }
            Instr::PutNext {
                moved,
                fixed,
                strict,
                pre_carrying,
            } => {
                let before = *pre_carrying;
                *pre_carrying = step.carrying;
                if *strict && step.action == crate::PICKUP && step.carrying.is_some() {
                    return Status::Failure;
                }
                if step.action != crate::DROP {
                    return Status::Continue;
                }
                for object in &moved.objects {
                    if before != Some(object.id) {
                        continue;
                    }
                    if fixed
                        .positions
                        .iter()
                        .any(|&position| next_to(object.cur_pos, position))
                    {
                        return Status::Success;
                    }
                }
                Status::Continue
            }
            Instr::Before(seq) => seq.verify_before(step),
            Instr::After(seq) => seq.verify_after(step),
            Instr::And(seq) => {
                if seq.a_done != Status::Success {
                    seq.a_done = seq.a.verify(step);
                }
                if seq.b_done != Status::Success {
                    seq.b_done = seq.b.verify(step);
                }
                if seq.a_done == Status::Success && seq.b_done == Status::Success {
                    Status::Success
                } else {
                    Status::Continue
                }
            }
        }
    }
}

impl Seq {
    /// `BeforeInstr.verify`.
    fn verify_before(&mut self, step: Step) -> Status {
        if self.a_done == Status::Success {
            self.b_done = self.b.verify(step);
            match self.b_done {
                Status::Failure => return Status::Failure,
                Status::Success => return Status::Success,
                Status::Continue => {}
            }
        } else {
            self.a_done = self.a.verify(step);
            match self.a_done {
                Status::Failure => return Status::Failure,
                Status::Success => return self.verify_before(step),
                Status::Continue => {}
            }
            if self.strict && self.b.verify(step) == Status::Success {
                return Status::Failure;
            }
        }
        Status::Continue
    }

    /// `AfterInstr.verify`.
    fn verify_after(&mut self, step: Step) -> Status {
        if self.b_done == Status::Success {
            self.a_done = self.a.verify(step);
            match self.a_done {
                Status::Success => return Status::Success,
                Status::Failure => return Status::Failure,
                Status::Continue => {}
            }
        } else {
            self.b_done = self.b.verify(step);
            match self.b_done {
                Status::Failure => return Status::Failure,
                Status::Success => return self.verify_after(step),
                Status::Continue => {}
            }
            if self.strict && self.a.verify(step) == Status::Success {
                return Status::Failure;
            }
        }
        Status::Continue
    }
}
