//! The BabyAI bot: minigrid 3.2.0's `BabyAIBot` (`minigrid/utils/baby_ai_bot.py`), the expert
//! that plans through BabyAI's levels, as [`BabyAiBot`]: from the same state and history it
//! suggests the action minigrid's bot suggests.
//!
//! The bot keeps a stack of subgoals (close, open, drop, pick up, go next to, explore), made
//! from the instruction when it is created and replanned at every step; it finds its way with
//! breadth-first searches over the cells it has seen (minigrid's neighbour order, which
//! prefers going straight on, and its tie-breaking), moves objects out of its way, fetches keys
//! for locked doors and explores what it has not seen. Everything minigrid's bot does is done
//! in the same order, its quirks included (a description's `obj_poss` refreshed only on a
//! `drop` and read beside its objects index by index, a door it should open but finds open
//! closed first, the "move away" rule when standing on the target). Where minigrid's bot raises
//! an exception, [`BabyAiBot::replan`] returns the matching [`BotError`]; where it would loop
//! forever (a plan that keeps replacing itself without suggesting an action, as in some
//! episodes of UnlockToUnlock, GoToImpUnlock and Unlock), the replan stops after [`MAX_REPLANS`] subgoal replans with
//! [`BotError::PlanningLoop`] instead of hanging.
//!
//! How often it succeeds alone (the episode ends with a positive reward), over seeds 0 to 199
//! of every id (`cargo run --release -p rlrs-object-grid --example babyai_bot -- 200`): every
//! episode of 85 of the 96 ids, 93.8% of all 19 200. The others fail as minigrid's bot does
//! (its docstring names KeyInBox and the PutNext*Carrying levels; the failing levels' seeds
//! were stepped beside minigrid's bot, which fails the same episodes the same way): KeyInBox
//! 0% (its key lies in a box: no key to fetch, an assertion), PutNextS5N2Carrying,
//! PutNextS6N3Carrying and PutNextS7N4Carrying 0% ("nothing left to explore", an assertion),
//! OpenDoorsOrderN2Debug 35% and OpenDoorsOrderN4Debug 29% (exploring, it opens doors out of
//! the instruction's order, which these strict levels fail), UnlockToUnlock 54.5%,
//! GoToImpUnlock 95% and Unlock 98% (replans forever: [`BotError::PlanningLoop`]),
//! SynthS5R2 98% (two time limits, two assertions), PickupDistDebug 98.5% (a pickup of another
//! object, which the strict level fails).
//!
//! ```
//! use rand::SeedableRng;
//! use rl_core::numpy_random::NumpyGenerator;
//! use rl_core::{Domain, Mode};
//! use rl_object_grid::babyai::BabyAi;
//! use rl_object_grid::babyai::bot::BabyAiBot;
//!
//! let domain = BabyAi::for_id("BabyAI-GoToLocal-v0")?;
//! let mut rng = NumpyGenerator::seed_from_u64(3);
//! let mut state = domain.initial_state(Mode::Training, &mut rng);
//! let mut bot = BabyAiBot::new(&domain, &state);
//! let mut taken = None;
//! let mut reward = 0.0;
//! for _ in 0..state.max_steps() {
//!     let action = bot.replan(&state, taken).expect("the bot solves GoToLocal");
//!     let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
//!     reward = outcome.value.reward();
//!     taken = Some(action);
//!     if outcome.terminated {
//!         break;
//!     }
//! }
//! assert!(reward > 0.0);
//! # Ok::<(), rl_object_grid::Error>(())
//! ```

use std::fmt;

use crate::babyai::instr::{Instr, UNTRACKED};
use crate::babyai::{BabyAi, BabyAiState};
use crate::grid::{Grid, Position};
use crate::object::{Cell, Color, DoorState, ObjectKind};
use crate::state::Direction;
use crate::view::for_each_visible;
use crate::{DONE, DROP, FORWARD, LEFT, PICKUP, RIGHT, TOGGLE};

/// The most subgoal replans one [`BabyAiBot::replan`] makes before giving up with
/// [`BotError::PlanningLoop`]. A replan that ends takes a handful; each replan that reached
/// this bound in the recorded traces (`tests/babyai_bot.rs`) is one where minigrid's bot never
/// returned (the recording script's alarm stopped it), and the bot's actions and errors there
/// are minigrid's.
pub const MAX_REPLANS: usize = 10_000;

/// Why [`BabyAiBot::replan`] gave no action: minigrid's bot raises an exception there, or
/// would loop forever. After an error the bot gives the same error again (make a new bot),
/// but for [`BotError::WrongEpisode`], which changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BotError {
    /// One of minigrid's bot's assertions fails (its `AssertionError`); the message says which
    /// (for example "nothing left to explore", or a key the plan needs that no cell holds, as
    /// in KeyInBox, whose key lies in a box).
    Assertion(&'static str),
    /// A box was opened (minigrid's `DisappearedBoxError`: the bot assumes it cannot solve the
    /// mission once a box has disappeared).
    DisappearedBox,
    /// minigrid's bot reads something it has not set yet (its `AttributeError`): an
    /// `action_taken` at the first replan that needs the state before it.
    MissingMemory(&'static str),
    /// minigrid's bot was told to go next to nowhere (its `TypeError`): no cell to drop an
    /// object on was found when the plan needed one.
    NoPosition,
    /// minigrid's bot would replan forever in this call (see [`MAX_REPLANS`]).
    PlanningLoop,
    /// The state does not belong to the bot's episode: its grid has another size.
    WrongEpisode {
        /// The bot's grid size.
        expected: (usize, usize),
        /// The state's grid size.
        found: (usize, usize),
    },
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Assertion(what) => write!(f, "the bot's assertion failed: {what}"),
            BotError::DisappearedBox => {
                f.write_str("a box was opened: the bot is not sure it can help now")
            }
            BotError::MissingMemory(what) => write!(
                f,
                "the bot has no {what} yet: pass action_taken=None to the first replan"
            ),
            BotError::NoPosition => f.write_str(
                "the bot planned to go next to no position (it found no cell to drop an object on)",
            ),
            BotError::PlanningLoop => write!(
                f,
                "the bot replanned {MAX_REPLANS} subgoals without suggesting an action \
                 (minigrid's bot loops forever here)"
            ),
            BotError::WrongEpisode { expected, found } => write!(
                f,
                "the state's grid is {} by {}, the bot's episode's is {} by {}",
                found.0, found.1, expected.0, expected.1
            ),
        }
    }
}

impl std::error::Error for BotError {}

/// What a subgoal does (minigrid's subgoal classes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Close,
    Open,
    Drop,
    Pickup,
    GoNextTo,
    Explore,
}

/// Why a subgoal was made (minigrid's `reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reason {
    None,
    Unlock,
    KeepKey,
    PutNext,
    Explore,
    Open,
}

/// A description a subgoal refers to: one of the instruction's (live: the environment keeps
/// its objects and positions) or one the bot made for a key (fixed when made).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DescRef {
    Instr(usize),
    Key(usize),
}

/// What a go-next-to subgoal goes to (minigrid's `datum`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// Nothing (the other subgoals).
    None,
    /// A position; `None` where minigrid's datum is `None` (no drop position found).
    Position(Option<Position>),
    /// A door (an object whose `cur_pos` is its position).
    Door(Position),
    /// The closest object of a description.
    Desc(DescRef),
}

/// One subgoal of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Subgoal {
    kind: Kind,
    target: Target,
    reason: Reason,
}

impl Subgoal {
    const CLOSE: Subgoal = Subgoal::plain(Kind::Close);
    const DROP: Subgoal = Subgoal::plain(Kind::Drop);
    const PICKUP: Subgoal = Subgoal::plain(Kind::Pickup);
    const EXPLORE: Subgoal = Subgoal::plain(Kind::Explore);

    const fn plain(kind: Kind) -> Subgoal {
        Subgoal {
            kind,
            target: Target::None,
            reason: Reason::None,
        }
    }

    const fn open(reason: Reason) -> Subgoal {
        Subgoal {
            kind: Kind::Open,
            target: Target::None,
            reason,
        }
    }

    const fn go(target: Target, reason: Reason) -> Subgoal {
        Subgoal {
            kind: Kind::GoNextTo,
            target,
            reason,
        }
    }

    const fn go_to(position: Option<Position>) -> Subgoal {
        Subgoal::go(Target::Position(position), Reason::None)
    }

    /// minigrid's `is_exploratory`.
    fn is_exploratory(self) -> bool {
        self.kind == Kind::Explore
            || (self.kind == Kind::GoNextTo && self.reason == Reason::Explore)
    }
}

/// The identity of an object (minigrid compares objects by Python identity): an object the
/// instruction tracks (the environment's identity), or another key the bot follows itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Identity {
    Tracked(u32),
    Untracked(u32),
}

/// A key description the bot made (`ObjDesc("key", color)` found when made): its keys and
/// their positions then, never refreshed (minigrid's bot never refreshes them).
#[derive(Debug, Clone)]
struct KeyDesc {
    keys: Vec<(Identity, Position)>,
}

/// What the bot remembers of the state at its last replan (minigrid's `prev_agent_pos`,
/// `prev_carrying` and `prev_fwd_cell`, with the forward position).
#[derive(Debug, Clone, Copy)]
struct Memory {
    agent: Position,
    carrying: Option<u32>,
    front: Position,
    front_cell: Cell,
}

/// The state a replan reads (minigrid's `update_agent_attributes`, the same for every
/// subgoal).
struct Now<'a> {
    grid: &'a Grid,
    instr: &'a Instr,
    agent: Position,
    direction: Direction,
    dir: (i32, i32),
    right: (i32, i32),
    front: Position,
    front_cell: Cell,
    carrying: Option<Cell>,
    carrying_id: Option<u32>,
}

impl<'a> Now<'a> {
    fn of(state: &'a BabyAiState) -> Now<'a> {
        let world = &state.world;
        let dir = world.direction.vector();
        let front = world.agent.offset(dir.0, dir.1);
        Now {
            grid: &world.grid,
            instr: &state.instr,
            agent: world.agent,
            direction: world.direction,
            dir,
            right: (-dir.1, dir.0),
            front,
            front_cell: world.grid.get(front),
            carrying: world.carrying(),
            carrying_id: state.carrying_id,
        }
    }
}

/// What a search accepts (the bot's `accept_fn`s).
#[derive(Debug, Clone, Copy)]
enum Accept {
    /// The position itself.
    At(Position),
    /// A cell not seen yet.
    Unseen,
    /// A closed door that is not locked.
    ClosedUnlockedDoor,
    /// A door that is not open.
    ClosedDoor,
    /// `_find_drop_pos`'s `match_unblock`: a seen empty cell where an object blocks nothing.
    DropUnblocking(Option<Position>),
    /// `_find_drop_pos`'s `match_empty`: a seen empty cell.
    DropEmpty(Option<Position>),
}

/// No previous cell (a search's start).
const ROOT: u32 = u32::MAX - 1;
/// Not visited.
const UNVISITED: u32 = u32::MAX;

/// One breadth-first search's memory: each visited cell's previous cell, the cells in the
/// order they were visited (minigrid's `previous_pos` dict) and the queue.
#[derive(Debug, Clone, Default)]
struct Search {
    previous: Vec<u32>,
    order: Vec<u32>,
    queue: Vec<(Position, (i32, i32), u32)>,
}

impl Search {
    /// A search over `cells` cells whose buffers never grow: each cell is visited once and
    /// queues at most four neighbours, after at most one start state per cell.
    fn with_capacity(cells: usize) -> Search {
        Search {
            previous: vec![UNVISITED; cells],
            order: Vec::with_capacity(cells),
            queue: Vec::with_capacity(5 * cells + 1),
        }
    }

    fn clear(&mut self, cells: usize) {
        if self.previous.len() != cells {
            self.previous.clear();
            self.previous.resize(cells, UNVISITED);
        } else {
            for &cell in &self.order {
                self.previous[cell as usize] = UNVISITED;
            }
        }
        self.order.clear();
        self.queue.clear();
    }
}

/// The cells seen and the grid's size, read by the searches' acceptance tests.
struct Seen<'a> {
    mask: &'a [bool],
    width: usize,
}

impl Seen<'_> {
    fn get(&self, position: Position) -> bool {
        self.index(position).is_some_and(|index| self.mask[index])
    }

    fn index(&self, position: Position) -> Option<usize> {
        let height = self.mask.len() / self.width.max(1);
        (position.x >= 0
            && position.y >= 0
            && (position.x as usize) < self.width
            && (position.y as usize) < height)
            .then(|| position.y as usize * self.width + position.x as usize)
    }
}

fn is_door(cell: Cell) -> bool {
    cell.kind() == ObjectKind::Door
}

fn is_open_door(cell: Cell) -> bool {
    cell.door_state() == Some(DoorState::Open)
}

fn is_locked(cell: Cell) -> bool {
    cell.door_state() == Some(DoorState::Locked)
}

fn manhattan(a: Position, b: Position) -> i32 {
    (a.x - b.x).abs() + (a.y - b.y).abs()
}

impl Accept {
    /// Whether the search stops at `position` holding `cell`.
    fn accepts(self, position: Position, cell: Cell, seen: &Seen<'_>, now: &Now<'_>) -> bool {
        match self {
            Accept::At(target) => position == target,
            Accept::Unseen => !seen.get(position),
            Accept::ClosedUnlockedDoor => cell.door_state() == Some(DoorState::Closed),
            Accept::ClosedDoor => is_door(cell) && !is_open_door(cell),
            Accept::DropEmpty(except) => {
                position != now.agent
                    && Some(position) != except
                    && seen.get(position)
                    && cell.is_empty()
            }
            Accept::DropUnblocking(except) => {
                if position == now.agent || Some(position) == except {
                    return false;
                }
                if !seen.get(position) || !cell.is_empty() {
                    return false;
                }
                // The eight neighbours, clockwise from the top left: 0 for an empty cell (an
                // open door, the agent's), 1 for a wall, 2 for the rest (objects, unseen
                // cells, the cell excepted, which may soon hold an object).
                let mut class = [0u8; 8];
                for (slot, (dx, dy)) in class.iter_mut().zip([
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                ]) {
                    let neighbour = position.offset(dx, dy);
                    let cell = now.grid.get(neighbour);
                    let visible = seen.get(neighbour);
                    *slot = if visible && cell.kind() == ObjectKind::Wall {
                        1
                    } else if visible
                        && (cell.is_empty() || is_open_door(cell) || neighbour == now.agent)
                        && Some(neighbour) != except
                    {
                        0
                    } else {
                        2
                    };
                }
                let changes = (0..8)
                    .filter(|&i| (class[(i + 1) % 8] != 0) != (class[i] != 0))
                    .count();
                for i in 0..8 {
                    if class[i] == 2 && class[(i + 7) % 8] != 0 && class[(i + 1) % 8] != 0 {
                        return false;
                    }
                }
                changes <= 2
            }
        }
    }
}

/// minigrid 3.2.0's `BabyAIBot` for one episode of a BabyAI level: [`BabyAiBot::replan`]
/// gives the action minigrid's bot gives from the same state and history.
///
/// Make it right after the reset (the plan comes from the episode's instruction) and call
/// [`BabyAiBot::replan`] once per step with the state and the action taken since the last
/// call, as minigrid's `replan(action_taken)`: `None` at the first call, and afterwards
/// either the action taken or `None` for "the action suggested was taken". Another action
/// than the one suggested makes the bot plan to undo it (turn back, put back, close again),
/// as minigrid's does. The bot follows the keys it fetches that the instruction does not name
/// through the pickups and drops it sees between calls, so call it after every step, as
/// minigrid's bot expects.
///
/// A replan allocates nothing once its buffers have grown to the grid's size, except when it
/// plans to fetch a key (a small list of the keys of that colour).
#[derive(Debug, Clone)]
pub struct BabyAiBot {
    width: usize,
    height: usize,
    view_size: usize,
    seen: Vec<bool>,
    stack: Vec<Subgoal>,
    key_descs: Vec<KeyDesc>,
    memory: Option<Memory>,
    front_door_was_open: Option<bool>,
    /// Untracked keys named by key descriptions: their token and where they lie (`None`:
    /// carried).
    untracked: Vec<(u32, Option<Position>)>,
    /// The token of the untracked key carried, if one is.
    carried_token: Option<u32>,
    bfs_count: u64,
    bfs_steps: u64,
    failed: Option<BotError>,
    first: Search,
    second: Search,
    path: Vec<Position>,
    positions: Vec<Position>,
}

impl BabyAiBot {
    /// A bot for the episode that `state` (just reset) starts, in `domain`: its plan made from
    /// the instruction (minigrid's `BabyAIBot(env)`), nothing seen yet.
    pub fn new(domain: &BabyAi, state: &BabyAiState) -> BabyAiBot {
        let grid = &state.world.grid;
        let (width, height) = (grid.width(), grid.height());
        let mut bot = BabyAiBot {
            width,
            height,
            view_size: domain.view_size(),
            seen: vec![false; width * height],
            // Plans hold a dozen subgoals at most in practice.
            stack: Vec::with_capacity(64),
            key_descs: Vec::new(),
            memory: None,
            front_door_was_open: None,
            untracked: Vec::new(),
            carried_token: None,
            bfs_count: 0,
            bfs_steps: 0,
            failed: None,
            first: Search::with_capacity(width * height),
            second: Search::with_capacity(width * height),
            path: Vec::with_capacity(2 * width * height),
            positions: Vec::with_capacity(width * height),
        };
        bot.process_instr(&state.instr, 0);
        bot
    }

    /// The cells the agent has seen so far (minigrid's `vis_mask`), row by row (`y * width +
    /// x`).
    pub fn seen(&self) -> &[bool] {
        &self.seen
    }

    /// The grid's width and height.
    pub fn grid_size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// How many breadth-first searches the bot has made (minigrid's `bfs_counter`).
    pub fn bfs_count(&self) -> u64 {
        self.bfs_count
    }

    /// How many cells those searches visited in all (minigrid's `bfs_step_counter`).
    pub fn bfs_steps(&self) -> u64 {
        self.bfs_steps
    }

    /// The number of subgoals in the plan.
    pub fn plan_len(&self) -> usize {
        self.stack.len()
    }

    /// The plan, bottom first, one line per subgoal (for debugging; not minigrid's `repr`).
    pub fn plan(&self) -> Vec<String> {
        self.stack
            .iter()
            .map(|subgoal| format!("{subgoal:?}"))
            .collect()
    }

    /// minigrid's `replan(action_taken)`: takes in what the agent sees in `state`, adjusts the
    /// plan to `action_taken` (the action taken since the last call; `None` at the first
    /// call) and returns the suggested action (`done`, 6, once the plan is empty).
    ///
    /// # Errors
    ///
    /// Where minigrid's bot raises, or would loop forever: see [`BotError`]. After an error
    /// every call returns it again (but after [`BotError::WrongEpisode`], which changes
    /// nothing).
    pub fn replan(
        &mut self,
        state: &BabyAiState,
        action_taken: Option<i64>,
    ) -> Result<i64, BotError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let size = (state.world.grid.width(), state.world.grid.height());
        if size != (self.width, self.height) {
            return Err(BotError::WrongEpisode {
                expected: (self.width, self.height),
                found: size,
            });
        }
        // PutNext's `start_carrying` is in minigrid's state from the reset on.
        let settled;
        let state = if state.pending_carry.is_some() {
            let mut copy = state.clone();
            copy.take_pending_carry();
            settled = copy;
            &settled
        } else {
            state
        };
        let result = self.replan_now(&Now::of(state), action_taken);
        if let Err(error) = &result {
            self.failed = Some(error.clone());
        }
        result
    }

    fn replan_now(&mut self, now: &Now<'_>, action_taken: Option<i64>) -> Result<i64, BotError> {
        self.process_obs(now);
        self.follow_untracked(now);
        if action_taken == Some(TOGGLE) {
            let memory = self
                .memory
                .ok_or(BotError::MissingMemory("previous forward cell"))?;
            if memory.front_cell.kind() == ObjectKind::Box {
                return Err(BotError::DisappearedBox);
            }
        }
        if let Some(&top) = self.stack.last() {
            self.replan_after_action(now, top, action_taken)?;
        }
        while self.stack.last().is_some_and(|top| top.is_exploratory()) {
            self.stack.pop();
        }
        let mut suggested = None;
        let mut replans = 0;
        while let Some(&top) = self.stack.last() {
            replans += 1;
            if replans > MAX_REPLANS {
                return Err(BotError::PlanningLoop);
            }
            suggested = self.replan_before_action(now, top)?;
            if suggested.is_some() {
                break;
            }
        }
        let action = match suggested {
            Some(action) if !self.stack.is_empty() => action,
            _ => DONE,
        };
        self.memory = Some(Memory {
            agent: now.agent,
            carrying: now.carrying_id,
            front: now.front,
            front_cell: now.front_cell,
        });
        if is_door(now.front_cell) {
            self.front_door_was_open = Some(is_open_door(now.front_cell));
        }
        Ok(action)
    }

    /// minigrid's `_process_instr`: the subgoals of an instruction whose descriptions are
    /// numbered from `first`.
    fn process_instr(&mut self, instr: &Instr, first: usize) {
        let desc = |offset: usize| Target::Desc(DescRef::Instr(first + offset));
        match instr {
            Instr::GoTo { .. } => self.stack.push(Subgoal::go(desc(0), Reason::None)),
            Instr::Open { .. } => {
                self.stack.push(Subgoal::open(Reason::None));
                self.stack.push(Subgoal::go(desc(0), Reason::Open));
            }
            Instr::Pickup { .. } => {
                self.stack.push(Subgoal::DROP);
                self.stack.push(Subgoal::PICKUP);
                self.stack.push(Subgoal::go(desc(0), Reason::None));
            }
            Instr::PutNext { .. } => {
                self.stack.push(Subgoal::DROP);
                self.stack.push(Subgoal::go(desc(1), Reason::PutNext));
                self.stack.push(Subgoal::PICKUP);
                self.stack.push(Subgoal::go(desc(0), Reason::None));
            }
            Instr::Before(seq) | Instr::And(seq) => {
                self.process_instr(&seq.b, first + seq.a.desc_count());
                self.process_instr(&seq.a, first);
            }
            Instr::After(seq) => {
                self.process_instr(&seq.a, first);
                self.process_instr(&seq.b, first + seq.a.desc_count());
            }
        }
    }

    /// minigrid's `_process_obs`: marks what the agent sees now.
    fn process_obs(&mut self, now: &Now<'_>) {
        let (width, seen) = (self.width, &mut self.seen);
        for_each_visible(
            now.grid,
            now.agent,
            now.direction,
            self.view_size,
            false,
            |position| seen[position.y as usize * width + position.x as usize] = true,
        );
    }

    /// Follows the untracked keys of the bot's key descriptions through the pickup or drop
    /// since the last replan (both happen at the cell in front, which they do not move).
    fn follow_untracked(&mut self, now: &Now<'_>) {
        let Some(memory) = self.memory else { return };
        match (memory.carrying, now.carrying_id) {
            (None, Some(id)) => {
                self.carried_token = None;
                if id == UNTRACKED {
                    if let Some(entry) = self
                        .untracked
                        .iter_mut()
                        .find(|entry| entry.1 == Some(memory.front))
                    {
                        entry.1 = None;
                        self.carried_token = Some(entry.0);
                    }
                }
            }
            (Some(_), None) => {
                if let Some(token) = self.carried_token.take() {
                    if let Some(entry) = self.untracked.iter_mut().find(|entry| entry.0 == token) {
                        entry.1 = Some(memory.front);
                    }
                }
            }
            _ => {}
        }
    }

    /// The identity of the carried object, as the descriptions' objects are compared with it.
    fn carried_identity(&self, now: &Now<'_>) -> Option<Identity> {
        match now.carrying_id {
            None => None,
            Some(UNTRACKED) => self.carried_token.map(Identity::Untracked),
            Some(id) => Some(Identity::Tracked(id)),
        }
    }

    /// minigrid's `ObjDesc("key", color).find_matching_objs(env)`: a new key description.
    fn new_key_desc(&mut self, now: &Now<'_>, color: Color) -> DescRef {
        let mut keys = Vec::new();
        let grid = now.grid;
        for x in 0..grid.width() as i32 {
            for y in 0..grid.height() as i32 {
                let position = Position::new(x, y);
                let cell = grid.get(position);
                if cell.kind() != ObjectKind::Key || cell.color() != color {
                    continue;
                }
                let identity = match now.instr.tracked_at(position) {
                    Some(id) => Identity::Tracked(id),
                    None => {
                        let token = match self
                            .untracked
                            .iter()
                            .find(|entry| entry.1 == Some(position))
                        {
                            Some(entry) => entry.0,
                            None => {
                                let token = self.untracked.len() as u32;
                                self.untracked.push((token, Some(position)));
                                token
                            }
                        };
                        Identity::Untracked(token)
                    }
                };
                keys.push((identity, position));
            }
        }
        self.key_descs.push(KeyDesc { keys });
        DescRef::Key(self.key_descs.len() - 1)
    }

    /// A subgoal's `replan_after_action`.
    fn replan_after_action(
        &mut self,
        now: &Now<'_>,
        top: Subgoal,
        action: Option<i64>,
    ) -> Result<(), BotError> {
        let moved = matches!(action, Some(FORWARD | LEFT | RIGHT));
        match top.kind {
            Kind::Close => {
                if action.is_none() || action == Some(TOGGLE) {
                    self.stack.pop();
                } else if moved {
                    self.plan_undo_action(now, action)?;
                }
            }
            Kind::Open => {
                if action.is_none() || action == Some(TOGGLE) {
                    self.stack.pop();
                    if top.reason == Reason::Unlock {
                        let drop_key = self.find_drop_pos(now, None);
                        self.stack.push(Subgoal::DROP);
                        self.stack.push(Subgoal::go_to(drop_key));
                    }
                } else {
                    self.plan_undo_action(now, action)?;
                }
            }
            Kind::Drop => {
                if action.is_none() || action == Some(DROP) {
                    self.stack.pop();
                } else if moved {
                    self.plan_undo_action(now, action)?;
                }
            }
            Kind::Pickup => {
                if action.is_none() || action == Some(PICKUP) {
                    self.stack.pop();
                } else if matches!(action, Some(LEFT | RIGHT)) {
                    self.plan_undo_action(now, action)?;
                }
            }
            Kind::GoNextTo => {
                if matches!(action, Some(PICKUP | DROP | TOGGLE)) {
                    self.plan_undo_action(now, action)?;
                }
            }
            Kind::Explore => {}
        }
        Ok(())
    }

    /// minigrid's `_plan_undo_action`: plans to undo an action other than the one planned.
    fn plan_undo_action(&mut self, now: &Now<'_>, action: Option<i64>) -> Result<(), BotError> {
        let remembered = self.memory;
        let memory = |what| remembered.ok_or(BotError::MissingMemory(what));
        let (rx, ry) = now.right;
        match action {
            // A step forward that moved the agent: go next to where it stands now (minigrid's
            // bot does, which makes it step away again).
            Some(FORWARD) if memory("previous agent position")?.agent != now.agent => {
                self.stack.push(Subgoal::go_to(Some(now.agent)));
            }
            Some(FORWARD) => {}
            Some(LEFT) => self
                .stack
                .push(Subgoal::go_to(Some(now.agent.offset(rx, ry)))),
            Some(RIGHT) => self
                .stack
                .push(Subgoal::go_to(Some(now.agent.offset(-rx, -ry)))),
            Some(DROP) if memory("previous carried object")?.carrying != now.carrying_id => {
                if !matches!(
                    now.front_cell.kind(),
                    ObjectKind::Key | ObjectKind::Box | ObjectKind::Ball
                ) {
                    return Err(BotError::Assertion(
                        "the object just dropped is in front of the agent",
                    ));
                }
                self.stack.push(Subgoal::PICKUP);
            }
            Some(DROP) => {}
            Some(PICKUP) if memory("previous carried object")?.carrying != now.carrying_id => {
                self.stack.push(Subgoal::DROP);
            }
            Some(TOGGLE) if is_door(now.front_cell) => {
                let was_open = self.front_door_was_open.ok_or(BotError::MissingMemory(
                    "previous state of the door in front",
                ))?;
                if was_open != is_open_door(now.front_cell) {
                    self.stack.push(if is_open_door(now.front_cell) {
                        Subgoal::CLOSE
                    } else {
                        Subgoal::open(Reason::None)
                    });
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A subgoal's `replan_before_action`: the suggested action, or `None` once the plan
    /// changed.
    fn replan_before_action(
        &mut self,
        now: &Now<'_>,
        top: Subgoal,
    ) -> Result<Option<i64>, BotError> {
        match top.kind {
            Kind::Close => {
                if now.front_cell.is_empty() {
                    return Err(BotError::Assertion("Forward cell is empty"));
                }
                if !is_door(now.front_cell) {
                    return Err(BotError::Assertion("Forward cell has to be a door"));
                }
                if !is_open_door(now.front_cell) {
                    return Err(BotError::Assertion("Forward door must be open"));
                }
                Ok(Some(TOGGLE))
            }
            Kind::Open => self.replan_open(now, top),
            Kind::Drop => {
                if now.carrying.is_none() {
                    return Err(BotError::Assertion("the agent carries something to drop"));
                }
                if !now.front_cell.is_empty() {
                    return Err(BotError::Assertion("the cell to drop on is empty"));
                }
                Ok(Some(DROP))
            }
            Kind::Pickup => {
                if now.carrying.is_some() {
                    return Err(BotError::Assertion(
                        "the agent carries nothing before a pickup",
                    ));
                }
                Ok(Some(PICKUP))
            }
            Kind::GoNextTo => self.replan_go_next_to(now, top),
            Kind::Explore => self.replan_explore(now),
        }
    }

    /// Whether the agent carries the key of `door`'s colour.
    fn has_key_for(now: &Now<'_>, door: Cell) -> bool {
        now.carrying.is_some_and(|carried| {
            carried.kind() == ObjectKind::Key && carried.color() == door.color()
        })
    }

    /// `OpenSubgoal.replan_before_action`.
    fn replan_open(&mut self, now: &Now<'_>, top: Subgoal) -> Result<Option<i64>, BotError> {
        let door = now.front_cell;
        if door.is_empty() {
            return Err(BotError::Assertion("Forward cell is empty"));
        }
        if !is_door(door) {
            return Err(BotError::Assertion("Forward cell has to be a door"));
        }
        if is_locked(door) && !Self::has_key_for(now, door) {
            // Fetch the key, then come back to the door.
            let key = Target::Desc(self.new_key_desc(now, door.color()));
            self.stack.pop();
            if now.carrying.is_some() {
                let drop_here = self.find_drop_pos(now, None);
                self.stack.push(Subgoal::PICKUP);
                self.stack.push(Subgoal::go_to(drop_here));
                self.stack.push(Subgoal::open(Reason::None));
                self.stack.push(Subgoal::go_to(Some(now.front)));
                self.stack.push(Subgoal::PICKUP);
                self.stack.push(Subgoal::go(key, Reason::None));
                self.stack.push(Subgoal::DROP);
                self.stack.push(Subgoal::go_to(drop_here));
            } else {
                self.stack.push(Subgoal::open(Reason::None));
                self.stack.push(Subgoal::go_to(Some(now.front)));
                self.stack.push(Subgoal::PICKUP);
                self.stack.push(Subgoal::go(key, Reason::None));
            }
            return Ok(None);
        }
        if is_open_door(door) {
            self.stack.push(Subgoal::CLOSE);
            return Ok(None);
        }
        if is_locked(door) && top.reason == Reason::None {
            self.stack.pop();
            self.stack.push(Subgoal::open(Reason::Unlock));
            return Ok(None);
        }
        Ok(Some(TOGGLE))
    }

    /// `ExploreSubgoal.replan_before_action`.
    fn replan_explore(&mut self, now: &Now<'_>) -> Result<Option<i64>, BotError> {
        if let (Some(unseen), _) = self.shortest_path(now, Accept::Unseen, true) {
            self.stack
                .push(Subgoal::go(Target::Position(Some(unseen)), Reason::Explore));
            return Ok(None);
        }
        let door = match self.shortest_path(now, Accept::ClosedUnlockedDoor, true).0 {
            Some(door) => Some(door),
            None => self.shortest_path(now, Accept::ClosedDoor, true).0,
        };
        let Some(door_position) = door else {
            return Err(BotError::Assertion("0nothing left to explore"));
        };
        let door = now.grid.get(door_position);
        let reason = if is_locked(door) && Self::has_key_for(now, door) {
            Reason::KeepKey
        } else {
            Reason::None
        };
        self.stack.pop();
        self.stack.push(Subgoal::open(reason));
        self.stack
            .push(Subgoal::go(Target::Door(door_position), Reason::Open));
        Ok(None)
    }

    /// `GoNextToSubgoal.replan_before_action`.
    fn replan_go_next_to(&mut self, now: &Now<'_>, top: Subgoal) -> Result<Option<i64>, BotError> {
        // The target position, and the target's door (position and cell) when it is a door.
        let (door, target) = match top.target {
            Target::Desc(desc) => {
                match self.find_obj_pos(now, desc, top.reason == Reason::PutNext)? {
                    Some(found) => found,
                    None => {
                        self.stack.push(Subgoal::EXPLORE);
                        return Ok(None);
                    }
                }
            }
            Target::Door(position) => (Some(position), position),
            Target::Position(Some(position)) => (None, position),
            Target::Position(None) | Target::None => return Err(BotError::NoPosition),
        };
        if top.reason == Reason::Open {
            if let Some(door_position) = door {
                let cell = now.grid.get(door_position);
                // A locked door and empty hands: fetch its key first (carrying something,
                // the bot goes on to the door with it).
                if is_locked(cell) && now.carrying.is_none() {
                    let key = Target::Desc(self.new_key_desc(now, cell.color()));
                    self.stack.pop();
                    self.stack
                        .push(Subgoal::go(Target::Door(door_position), Reason::Open));
                    self.stack.push(Subgoal::PICKUP);
                    self.stack.push(Subgoal::go(key, Reason::None));
                    return Ok(None);
                }
            }
        }
        let (rx, ry) = now.right;
        let put_next = top.reason == Reason::PutNext;
        // Standing on the cell to go next to: move away from it.
        if manhattan(target, now.agent) == if put_next { 1 } else { 0 } {
            let steppable = |cell: Cell| cell.is_empty() || is_open_door(cell);
            if steppable(now.front_cell) {
                return Ok(Some(FORWARD));
            }
            if steppable(now.grid.get(now.agent.offset(rx, ry))) {
                return Ok(Some(RIGHT));
            }
            if steppable(now.grid.get(now.agent.offset(-rx, -ry))) {
                return Ok(Some(LEFT));
            }
            return Ok(Some(LEFT));
        }
        if put_next {
            if manhattan(target, now.front) == 1 {
                if now.front_cell.is_empty() {
                    self.stack.pop();
                    return Ok(None);
                }
                if is_open_door(now.front_cell) {
                    // No dropping in a doorway: move the object two cells further on.
                    let beyond = now.front.offset(2 * now.dir.0, 2 * now.dir.1);
                    self.stack.push(Subgoal::go_to(Some(beyond)));
                    return Ok(None);
                }
            }
        } else if target == now.front {
            self.stack.pop();
            return Ok(None);
        }
        self.shortest_path(now, Accept::At(target), false);
        if self.path.is_empty() {
            self.shortest_path(now, Accept::At(target), true);
        }
        let Some(&next) = self.path.first() else {
            self.stack.push(Subgoal::EXPLORE);
            return Ok(None);
        };
        if next == now.front {
            let cell = now.front_cell;
            if cell.is_empty() {
                return Ok(Some(FORWARD));
            }
            if is_door(cell) {
                if is_locked(cell) {
                    return Err(BotError::Assertion("the door on the way is not locked"));
                }
                if !is_open_door(cell) {
                    self.stack.push(Subgoal::open(Reason::None));
                    return Ok(None);
                }
                return Ok(Some(FORWARD));
            }
            // An object blocks the way: move it aside.
            if now.carrying.is_some() {
                let drop_here = self.find_drop_pos(now, None);
                let drop_blocker = self.find_drop_pos(now, drop_here);
                self.stack.push(Subgoal::PICKUP);
                self.stack.push(Subgoal::go_to(drop_here));
                self.stack.push(Subgoal::DROP);
                self.stack.push(Subgoal::go_to(drop_blocker));
                self.stack.push(Subgoal::PICKUP);
                self.stack.push(Subgoal::go_to(Some(now.front)));
                self.stack.push(Subgoal::DROP);
                self.stack.push(Subgoal::go_to(drop_here));
            } else {
                let drop_blocker = self.find_drop_pos(now, None);
                self.stack.push(Subgoal::DROP);
                self.stack.push(Subgoal::go_to(drop_blocker));
                self.stack.push(Subgoal::PICKUP);
            }
            return Ok(None);
        }
        let step = (next.x - now.agent.x, next.y - now.agent.y);
        if step == (rx, ry) {
            return Ok(Some(RIGHT));
        }
        if step == (-rx, -ry) {
            return Ok(Some(LEFT));
        }
        // The next cell is behind: turn towards the side whose nearest wall or door is
        // further.
        let right = self.closest_wall_or_door(now, (rx, ry));
        let left = self.closest_wall_or_door(now, (-rx, -ry));
        Ok(Some(if left > right { LEFT } else { RIGHT }))
    }

    /// minigrid's `_find_obj_pos`: the closest seen object of a description (its door, when
    /// it is a door, and its position as the description holds it), `None` when no object
    /// of it has been seen.
    #[allow(clippy::type_complexity)]
    fn find_obj_pos(
        &mut self,
        now: &Now<'_>,
        desc: DescRef,
        adjacent: bool,
    ) -> Result<Option<(Option<Position>, Position)>, BotError> {
        // The description's objects (identity, whether a wall, where it lies now) and its
        // positions (`obj_poss`, read index by index beside the objects, as minigrid does).
        let mut positions = std::mem::take(&mut self.positions);
        positions.clear();
        let count = match desc {
            DescRef::Instr(index) => {
                let Some(desc) = now.instr.desc_at(index) else {
                    self.positions = positions;
                    return Err(BotError::Assertion("the instruction has the description"));
                };
                // minigrid's obj_poss are in the grid's column order (found, then refreshed
                // on each drop, column by column).
                positions.extend_from_slice(&desc.positions);
                positions.sort_unstable_by_key(|position| (position.x, position.y));
                desc.objects.len()
            }
            DescRef::Key(index) => {
                let keys = &self.key_descs[index].keys;
                positions.extend(keys.iter().map(|&(_, position)| position));
                keys.len()
            }
        };
        if count == 0 {
            self.positions = positions;
            return Err(BotError::Assertion(
                "the description matches an object (len(obj_desc.obj_set) > 0)",
            ));
        }
        let result = self.closest_of(now, desc, adjacent, count, &positions);
        self.positions = positions;
        result
    }

    /// `_find_obj_pos`'s loop over the `count` objects of `desc` beside `positions`.
    fn closest_of(
        &mut self,
        now: &Now<'_>,
        desc: DescRef,
        adjacent: bool,
        count: usize,
        positions: &[Position],
    ) -> Result<Option<(Option<Position>, Position)>, BotError> {
        let carried = self.carried_identity(now);
        let mut best_distance = 999;
        let mut best = None;
        for i in 0..count {
            let (identity, door) = match desc {
                DescRef::Instr(index) => {
                    let Some(object) = now
                        .instr
                        .desc_at(index)
                        .and_then(|desc| desc.objects.get(i))
                    else {
                        continue;
                    };
                    // Walls never move: an object that started on a wall is one (a
                    // description of any object matches walls too).
                    if now
                        .grid
                        .get(position_of(object.id, now.grid.width()))
                        .kind()
                        == ObjectKind::Wall
                    {
                        continue;
                    }
                    let door = object.at.filter(|&at| is_door(now.grid.get(at)));
                    (Identity::Tracked(object.id), door)
                }
                DescRef::Key(index) => (self.key_descs[index].keys[i].0, None),
            };
            if Some(identity) == carried {
                continue;
            }
            // minigrid's IndexError, caught: fewer positions than objects.
            let Some(&position) = positions.get(i) else {
                continue;
            };
            let seen = Seen {
                mask: &self.seen,
                width: self.width,
            };
            if !seen.get(position) {
                continue;
            }
            let (found, with_blockers) = self.shortest_path(now, Accept::At(position), true);
            if found.is_none() {
                return Err(BotError::Assertion(
                    "the bot finds a path to an object it has seen",
                ));
            }
            let mut distance = self.path.len() as i64;
            if with_blockers {
                distance += if now.carrying.is_some() { 7 } else { 4 };
            }
            if distance == 0 {
                distance = if adjacent { 3 } else { 2 };
            }
            if adjacent && distance == 1 {
                distance = 3;
            }
            if distance < best_distance {
                best_distance = distance;
                best = Some((door, position));
            }
        }
        Ok(best)
    }

    /// minigrid's `_closest_wall_or_door_given_dir` from the agent: the distance to the
    /// first wall or door in `direction`, or to the last cell in view.
    fn closest_wall_or_door(&self, now: &Now<'_>, direction: (i32, i32)) -> i32 {
        let mut distance = 1;
        loop {
            let position = now
                .agent
                .offset(distance * direction.0, distance * direction.1);
            if !self.in_view(now, position) {
                return distance - 1;
            }
            let cell = now.grid.get(position);
            if is_door(cell) || cell.kind() == ObjectKind::Wall {
                return distance;
            }
            distance += 1;
        }
    }

    /// minigrid's `in_view`: whether `position` lies in the agent's view square.
    fn in_view(&self, now: &Now<'_>, position: Position) -> bool {
        let size = self.view_size as i32;
        let half = size / 2;
        let (dx, dy) = now.dir;
        let (rx, ry) = now.right;
        let top_x = now.agent.x + dx * (size - 1) - rx * half;
        let top_y = now.agent.y + dy * (size - 1) - ry * half;
        let (lx, ly) = (position.x - top_x, position.y - top_y);
        let vx = rx * lx + ry * ly;
        let vy = -(dx * lx + dy * ly);
        (0..size).contains(&vx) && (0..size).contains(&vy)
    }

    /// minigrid's `_find_drop_pos(except_pos)`: a seen empty cell to drop an object on,
    /// blocking nothing if it can.
    fn find_drop_pos(&mut self, now: &Now<'_>, except: Option<Position>) -> Option<Position> {
        self.shortest_path(now, Accept::DropUnblocking(except), false)
            .0
            .or_else(|| self.shortest_path(now, Accept::DropEmpty(except), false).0)
            .or_else(|| {
                self.shortest_path(now, Accept::DropUnblocking(except), true)
                    .0
            })
            .or_else(|| self.shortest_path(now, Accept::DropEmpty(except), true).0)
    }

    /// minigrid's `_shortest_path(accept_fn, try_with_blockers)`: the cell found (if any) and
    /// whether blockers were searched through; the path (without the agent's cell) left in
    /// `self.path`, empty when none was found.
    fn shortest_path(
        &mut self,
        now: &Now<'_>,
        accept: Accept,
        try_with_blockers: bool,
    ) -> (Option<Position>, bool) {
        let cells = self.width * self.height;
        let seen = Seen {
            mask: &self.seen,
            width: self.width,
        };
        self.path.clear();
        self.first.clear(cells);
        self.first.queue.push((now.agent, now.dir, ROOT));
        self.bfs_count += 1;
        let mut finish = breadth_first_search(
            &mut self.first,
            &seen,
            now,
            accept,
            false,
            &mut self.bfs_steps,
        );
        let mut with_blockers = false;
        if let Some(found) = finish {
            trace_back(&self.first, self.width, found, &mut self.path);
        } else if try_with_blockers {
            with_blockers = true;
            self.second.clear(cells);
            for &cell in &self.first.order {
                let position = position_of(cell, self.width);
                self.second.queue.push((position, (1, 0), ROOT));
            }
            self.bfs_count += 1;
            finish = breadth_first_search(
                &mut self.second,
                &seen,
                now,
                accept,
                true,
                &mut self.bfs_steps,
            );
            if let Some(found) = finish {
                // The path through blockers to a cell the first search reached, then the
                // first search's path from there.
                trace_back(&self.second, self.width, found, &mut self.path);
                let joint = *self.path.last().expect("a path holds its end");
                let length = self.path.len();
                trace_back(&self.first, self.width, joint, &mut self.path);
                self.path.remove(length);
            }
        }
        if !self.path.is_empty() {
            self.path.reverse();
            self.path.remove(0);
        }
        (finish, with_blockers)
    }
}

/// The position of cell index `cell`.
fn position_of(cell: u32, width: usize) -> Position {
    let width = (width as u32).max(1);
    Position::new((cell % width) as i32, (cell / width) as i32)
}

/// Appends the cells from `end` back to its search's start, `end` first.
fn trace_back(search: &Search, width: usize, end: Position, path: &mut Vec<Position>) {
    let mut cell = end.y as u32 * width as u32 + end.x as u32;
    loop {
        path.push(position_of(cell, width));
        let previous = search.previous[cell as usize];
        if previous == ROOT {
            break;
        }
        cell = previous;
    }
}

/// minigrid's `_breadth_first_search` from the states already in `search`'s queue: visits
/// cells in queue order (each once), accepts or expands them (only seen cells; not walls or
/// closed doors; objects only when `ignore_blockers`), queueing the neighbours straight ahead
/// first. Returns the accepted cell. Neighbours outside the grid (beyond its walls, where no
/// BabyAI search goes) are not queued.
fn breadth_first_search(
    search: &mut Search,
    seen: &Seen<'_>,
    now: &Now<'_>,
    accept: Accept,
    ignore_blockers: bool,
    steps: &mut u64,
) -> Option<Position> {
    let mut head = 0;
    while head < search.queue.len() {
        let (position, (di, dj), previous) = search.queue[head];
        head += 1;
        let Some(cell_index) = seen.index(position) else {
            continue;
        };
        if search.previous[cell_index] != UNVISITED {
            continue;
        }
        *steps += 1;
        let cell = now.grid.get(position);
        search.previous[cell_index] = previous;
        search.order.push(cell_index as u32);
        if accept.accepts(position, cell, seen, now) {
            return Some(position);
        }
        if !seen.mask[cell_index] {
            continue;
        }
        if !cell.is_empty() {
            if cell.kind() == ObjectKind::Wall {
                continue;
            } else if is_door(cell) {
                if !is_open_door(cell) {
                    continue;
                }
            } else if !ignore_blockers {
                continue;
            }
        }
        for (k, l) in [(di, dj), (dj, di), (-dj, -di), (-di, -dj)] {
            let next = position.offset(k, l);
            if seen.index(next).is_some() {
                search.queue.push((next, (k, l), cell_index as u32));
            }
        }
    }
    None
}
