//! BabyAI: minigrid 3.2.0's `BabyAI-*` levels (`minigrid/envs/babyai/`), exact to minigrid
//! seed for seed, as one pure [`Domain`], [`BabyAi`].
//!
//! A level ([`Level`], one of minigrid's `RoomGridLevel` classes with its keyword arguments)
//! generates a room grid and an instruction ([`Instr`], BabyAI's language: go to, open, pick
//! up, put next to, and their sequences) in minigrid's order of draws, rejection sampling
//! included; the mission is the instruction's `surface()`, and each step the instruction's
//! verifier says whether the episode succeeded (reward `1 - 0.9 * step_count / max_steps`),
//! failed (reward 0) or goes on. The time limit is the level's own or minigrid's
//! `num_navs_needed * room_size² * num_rows * num_cols`, fixed per episode
//! ([`BabyAiState::max_steps`]).
//!
//! [`bot::BabyAiBot`] is minigrid's `BabyAIBot`, the expert that plans through these levels:
//! from the same state and history it gives minigrid's bot's action.
//!
//! ```
//! use rl_core::{Domain, Mode};
//! use rl_core::numpy_random::NumpyGenerator;
//! use rand::SeedableRng;
//! use rl_object_grid::babyai::BabyAi;
//!
//! let domain = BabyAi::for_id("BabyAI-GoToRedBallGrey-v0")?;
//! let mut rng = NumpyGenerator::seed_from_u64(1);
//! let state = domain.initial_state(Mode::Training, &mut rng);
//! assert_eq!(&*domain.observe(&state).mission, "go to the red ball");
//! assert_eq!(state.max_steps(), 64);
//! # Ok::<(), rl_object_grid::Error>(())
//! ```

pub mod bot;
pub mod ids;
pub mod instr;
pub mod levels;
mod observation;
mod registry;

use std::sync::Arc;

use rand::Rng;
use rl_core::{Domain, Mode, TransitionOutcome, Value};
use rl_spaces::{Discrete, FlatScalar, RowLayout, SpaceError};
use serde::{Deserialize, Serialize};

use self::instr::{Event, Instr, Status, Step, UNTRACKED};
use self::levels::{Ctx, Level};
pub use self::observation::BabyAiObservationSpace;
pub(crate) use self::registry::register_all;
use crate::Error;
use crate::generation::Builder;
use crate::grid::{Grid, MAX_SIDE, Position};
use crate::object::{Cell, DoorState, ObjectKind};
use crate::observation::MiniGridObservation;
use crate::room_grid::room_grid_size;
use crate::state::{MiniGridState, Task};
use crate::view::{MAX_VIEW_SIZE, write_image};
use crate::{DROP, FORWARD, LEFT, PICKUP, RIGHT, TOGGLE};

/// How many attempts generation makes before giving up (minigrid retries forever; no
/// registered level comes near: their attempts are rejected a few times at most).
const MAX_ATTEMPTS: usize = 100_000;

/// The parameters of a [`BabyAi`] domain: the level with its own keyword arguments, the room
/// grid (`room_size`, `num_rows`, `num_cols`, the keyword arguments every level class passes
/// on to `RoomGridLevel`), the view and the time limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BabyAiParams {
    /// The level.
    pub level: Level,
    /// The side of each room, walls included (at least 3; PutNext at least 4).
    pub room_size: usize,
    /// The number of rows of rooms (at least 1).
    pub num_rows: usize,
    /// The number of columns of rooms (at least 1).
    pub num_cols: usize,
    /// The side of the agent's view (7; odd, 3 to 63).
    pub agent_view_size: usize,
    /// A fixed time limit (`null`: the level's, fixed by its class or minigrid's
    /// `num_navs_needed` formula per episode); at least 1.
    pub max_steps: Option<u64>,
}

impl BabyAiParams {
    /// The parameters of a registered BabyAI id (see [`ids`]), or an [`Error::UnknownId`].
    pub fn for_id(id: &str) -> Result<BabyAiParams, Error> {
        ids::params_for(id).ok_or_else(|| Error::UnknownId { id: id.to_owned() })
    }

    /// The parameters of a registered id with the fields of `overrides` (a JSON object of
    /// [`BabyAiParams`]' fields, the level's own nested under its name, as in
    /// `{"level": {"go_to_local": {"num_dists": 3}}}`) read over them; errors name the JSON
    /// path.
    pub fn for_id_with(id: &str, overrides: &serde_json::Value) -> Result<BabyAiParams, Error> {
        let defaults = BabyAiParams::for_id(id)?;
        if overrides.is_null() {
            return Ok(defaults);
        }
        let invalid = |path: String, reason: String| Error::InvalidJson {
            id: id.to_owned(),
            path,
            reason,
        };
        if !overrides.is_object() {
            return Err(invalid(
                String::new(),
                format!("expected an object of parameter fields, found {overrides}"),
            ));
        }
        let mut merged = serde_json::to_value(&defaults)
            .map_err(|error| invalid(String::new(), error.to_string()))?;
        let overrides = flat_into_level(&merged, overrides);
        crate::domain::merge(&mut merged, &overrides);
        serde_path_to_error::deserialize(merged).map_err(|error| {
            let path = error.path().to_string();
            let reason = error.into_inner().to_string();
            invalid(if path == "." { String::new() } else { path }, reason)
        })
    }

    /// Checks every parameter: the first problem found, naming it.
    pub fn validate(&self) -> Result<(), Error> {
        let fail = |parameter: &str, reason: String| {
            Err(Error::InvalidParameter {
                parameter: parameter.to_owned(),
                reason,
            })
        };
        let size = self.agent_view_size;
        if size < 3 || size % 2 == 0 || size > MAX_VIEW_SIZE {
            return fail(
                "agent_view_size",
                format!("must be odd and between 3 and {MAX_VIEW_SIZE}, got {size}"),
            );
        }
        if self.max_steps == Some(0) {
            return fail("max_steps", "must be at least 1, got 0".to_owned());
        }
        if self.room_size < 3 || self.room_size > MAX_SIDE {
            return fail(
                "room_size",
                format!("must be between 3 and {MAX_SIDE}, got {}", self.room_size),
            );
        }
        for (name, value) in [("num_rows", self.num_rows), ("num_cols", self.num_cols)] {
            if value == 0 || value > MAX_SIDE {
                return fail(
                    name,
                    format!("must be between 1 and {MAX_SIDE}, got {value}"),
                );
            }
        }
        let (width, height) = room_grid_size(self.room_size, self.num_rows, self.num_cols);
        if width > MAX_SIDE || height > MAX_SIDE {
            return fail(
                "room_size",
                format!("makes a grid of {width} by {height}, beyond {MAX_SIDE} a side"),
            );
        }
        self.validate_level()
    }

    /// The level's own checks: the rooms its `gen_mission` addresses exist, counts fit.
    fn validate_level(&self) -> Result<(), Error> {
        let fail = |parameter: &str, reason: String| {
            Err(Error::InvalidParameter {
                parameter: format!("level.{parameter}"),
                reason,
            })
        };
        let (rows, cols) = (self.num_rows, self.num_cols);
        let needs = |min_cols: usize, min_rows: usize| -> Result<(), Error> {
            if cols < min_cols || rows < min_rows {
                return Err(Error::InvalidParameter {
                    parameter: if cols < min_cols {
                        "num_cols"
                    } else {
                        "num_rows"
                    }
                    .to_owned(),
                    reason: format!(
                        "the level needs at least {min_cols} columns and {min_rows} rows of \
                         rooms, got {cols} by {rows}"
                    ),
                });
            }
            Ok(())
        };
        let inside = (self.room_size - 2) * (self.room_size - 2);
        let per_room = |count: usize, name: &str| -> Result<(), Error> {
            if count.saturating_add(1) >= inside {
                return Err(Error::InvalidParameter {
                    parameter: format!("level.{name}"),
                    reason: format!(
                        "{count} objects do not fit a room of {inside} free cells with the agent \
                         (room_size {})",
                        self.room_size
                    ),
                });
            }
            Ok(())
        };
        let total = inside * rows * cols;
        match &self.level {
            Level::GoToRedBallGrey { num_dists }
            | Level::GoToRedBall { num_dists }
            | Level::GoToRedBlueBall { num_dists } => {
                per_room(num_dists.saturating_add(1), "num_dists")
            }
            Level::GoToLocal { num_dists } => per_room(*num_dists, "num_dists"),
            Level::GoTo { num_dists, .. } => {
                if *num_dists == 0 {
                    return fail("go_to.num_dists", "must be at least 1, got 0".to_owned());
                }
                per_room(num_dists / (rows * cols), "num_dists")?;
                if num_dists.saturating_add(1) >= total {
                    return fail(
                        "go_to.num_dists",
                        format!(
                            "{num_dists} objects do not fit {rows} by {cols} rooms (num_rows by \
                             num_cols) of {inside} free cells each (room_size {}) with the agent",
                            self.room_size
                        ),
                    );
                }
                Ok(())
            }
            Level::GoToObj | Level::OneRoom | Level::PutNextLocal { .. } => Ok(()),
            Level::GoToImpUnlock
            | Level::Unlock
            | Level::GoToDoor
            | Level::GoToObjDoor
            | Level::OpenDoor { .. }
            | Level::OpenTwoDoors { .. }
            | Level::OpenDoorsOrder { .. }
            | Level::UnlockLocal { .. }
            | Level::KeyInBox
            | Level::ActionObjDoor
            | Level::FindObj
            | Level::PickupAbove => {
                needs(3, 3)?;
                if let Level::OpenDoorsOrder { num_doors, .. } = self.level {
                    if !(2..=4).contains(&num_doors) {
                        return fail(
                            "open_doors_order.num_doors",
                            format!("must be between 2 and 4, got {num_doors}"),
                        );
                    }
                }
                Ok(())
            }
            Level::KeyCorridor { obj_type } => {
                needs(3, 1)?;
                if !matches!(
                    obj_type,
                    ObjectKind::Key | ObjectKind::Ball | ObjectKind::Box
                ) {
                    return fail(
                        "key_corridor.obj_type",
                        format!(
                            "must be \"key\", \"ball\" or \"box\", got \"{}\"",
                            obj_type.name()
                        ),
                    );
                }
                Ok(())
            }
            Level::OpenRedDoor => needs(2, 1),
            Level::PutNext { objs_per_room, .. } | Level::MoveTwoAcross { objs_per_room } => {
                needs(2, 1)?;
                if self.room_size < 4 {
                    return fail(
                        "room_size",
                        format!("must be at least 4, got {}", self.room_size),
                    );
                }
                if *objs_per_room < 2 && matches!(self.level, Level::MoveTwoAcross { .. }) {
                    return fail(
                        "move_two_across.objs_per_room",
                        "must be at least 2".to_owned(),
                    );
                }
                if *objs_per_room == 0 || *objs_per_room > 9 {
                    return fail(
                        "objs_per_room",
                        format!("must be between 1 and 9, got {objs_per_room}"),
                    );
                }
                per_room(*objs_per_room, "objs_per_room")
            }
            Level::UnlockPickup { .. } | Level::BlockedUnlockPickup => needs(2, 1),
            Level::UnlockToUnlock => needs(3, 1),
            Level::Open | Level::Pickup | Level::UnblockPickup | Level::PickupDist { .. } => Ok(()),
            Level::LevelGen(params) => {
                if params.action_kinds.is_empty() || params.instr_kinds.is_empty() {
                    return fail(
                        "level_gen",
                        "action_kinds and instr_kinds must not be empty".to_owned(),
                    );
                }
                if !(0.0..=1.0).contains(&params.locked_room_prob) {
                    return fail(
                        "level_gen.locked_room_prob",
                        format!("must be between 0 and 1, got {}", params.locked_room_prob),
                    );
                }
                if params.locked_room_prob > 0.0 && rows * cols < 2 {
                    return fail(
                        "level_gen.locked_room_prob",
                        "a locked room needs at least two rooms".to_owned(),
                    );
                }
                if params.num_dists.saturating_add(1) >= total {
                    return fail(
                        "level_gen.num_dists",
                        format!(
                            "{} objects do not fit {rows} by {cols} rooms (num_rows by num_cols) \
                             of {inside} free cells each (room_size {}) with the agent",
                            params.num_dists, self.room_size
                        ),
                    );
                }
                Ok(())
            }
        }
    }
}

/// [`BabyAiParams`]' fields, in the JSON of the parameters.
const TOP_LEVEL_FIELDS: [&str; 6] = [
    "level",
    "room_size",
    "num_rows",
    "num_cols",
    "agent_view_size",
    "max_steps",
];

/// `overrides` with the level's own parameters given flat, as minigrid's classes take them
/// (`{"num_dists": 3}` for GoToLocal), moved under the level (`{"level": {"go_to_local":
/// {"num_dists": 3}}}`); `defaults` is the id's parameters as JSON. A flat key the level does
/// not have stays where it is, and deserializing then refuses it by name.
fn flat_into_level(
    defaults: &serde_json::Value,
    overrides: &serde_json::Value,
) -> serde_json::Value {
    let (serde_json::Value::Object(entries), Some(serde_json::Value::Object(level))) =
        (overrides, defaults.get("level"))
    else {
        return overrides.clone();
    };
    let Some((variant, serde_json::Value::Object(fields))) = level.iter().next() else {
        return overrides.clone();
    };
    let mut moved = serde_json::Map::new();
    let mut kept = serde_json::Map::new();
    for (key, value) in entries {
        if !TOP_LEVEL_FIELDS.contains(&key.as_str()) && fields.contains_key(key) {
            moved.insert(key.clone(), value.clone());
        } else {
            kept.insert(key.clone(), value.clone());
        }
    }
    if moved.is_empty() {
        return overrides.clone();
    }
    let mut flat = serde_json::json!({ "level": { variant.clone(): moved } });
    // Fields also given nested, under the same level, win over the flat ones.
    crate::domain::merge(&mut flat, &serde_json::Value::Object(kept));
    flat
}

/// The state of a BabyAI episode: the grid world (grid, agent, carried object, step count),
/// the instruction with its verifier's progress, the mission text, the episode's time limit,
/// the identity of the carried object and, for PutNext's `start_carrying`, the object still
/// to be taken into the agent's hands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BabyAiState {
    pub(crate) world: MiniGridState,
    pub(crate) instr: Instr,
    #[serde(with = "shared_str")]
    pub(crate) mission: Arc<str>,
    pub(crate) max_steps: u64,
    pub(crate) carrying_id: Option<u32>,
    pub(crate) pending_carry: Option<Position>,
}

/// An `Arc<str>` as a JSON string.
mod shared_str {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(value: &Arc<str>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<str>, D::Error> {
        Ok(Arc::from(String::deserialize(d)?))
    }
}

impl BabyAiState {
    /// The grid world (grid, agent, carried object, step count) as a MiniGrid state.
    pub fn world(&self) -> &MiniGridState {
        &self.world
    }

    /// The instruction, with its verifier's progress.
    pub fn instr(&self) -> &Instr {
        &self.instr
    }

    /// The mission (the instruction's surface).
    pub fn mission(&self) -> &Arc<str> {
        &self.mission
    }

    /// The episode's time limit (minigrid's `max_steps` after `reset`).
    pub fn max_steps(&self) -> u64 {
        self.max_steps
    }

    /// The cell of the object the agent takes into its hands before its first step
    /// (PutNext's `start_carrying`, which minigrid applies after `reset` computed the first
    /// observation), until that step.
    pub fn pending_carry(&self) -> Option<Position> {
        self.pending_carry
    }

    /// PutNext's `start_carrying`: the pending object taken into the agent's hands, as
    /// minigrid's `reset` does after computing the first observation (nothing when none is
    /// pending).
    pub(crate) fn take_pending_carry(&mut self) {
        if let Some(position) = self.pending_carry.take() {
            let world = &mut self.world;
            world.carrying = world.grid.get(position);
            world.grid.set(position, Cell::EMPTY);
            self.carrying_id = Some(self.instr.id_at(position).unwrap_or(UNTRACKED));
            self.instr.apply(Event::Removed(position));
        }
    }

    /// Whether minigrid's `step_count >= max_steps` truncates the episode.
    pub fn is_truncated(&self) -> bool {
        self.world.step_count >= self.max_steps
    }
}

/// minigrid's BabyAI levels as a pure domain, exact to minigrid 3.2.0 seed for seed.
///
#[doc = include_str!("babyai.md")]
#[derive(Debug, Clone)]
pub struct BabyAi {
    params: BabyAiParams,
    width: usize,
    height: usize,
    fixed_max_steps: Option<u64>,
    actions: Discrete,
    observations: BabyAiObservationSpace,
    /// Draws the grid world (pictures and frames).
    pub(crate) painter: crate::MiniGrid,
}

impl BabyAi {
    /// The domain of `params`, after checking them.
    pub fn new(params: BabyAiParams) -> Result<BabyAi, Error> {
        params.validate()?;
        let (width, height) = room_grid_size(params.room_size, params.num_rows, params.num_cols);
        let invalid = |error: SpaceError| Error::InvalidParameter {
            parameter: "level".to_owned(),
            reason: error.to_string(),
        };
        let observations =
            BabyAiObservationSpace::new(params.agent_view_size, params.level.max_mission_len())
                .map_err(invalid)?;
        Ok(BabyAi {
            width,
            height,
            fixed_max_steps: params
                .max_steps
                .or_else(|| params.level.fixed_max_steps(params.room_size)),
            actions: Discrete::new(7).map_err(invalid)?,
            observations,
            painter: registry::painter(params.agent_view_size)?,
            params,
        })
    }

    /// The domain of a registered BabyAI id.
    pub fn for_id(id: &str) -> Result<BabyAi, Error> {
        BabyAi::new(BabyAiParams::for_id(id)?)
    }

    /// The parameters.
    pub fn params(&self) -> &BabyAiParams {
        &self.params
    }

    /// The grid's width and height.
    pub fn grid_size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The time limit when every episode has the same (fixed by the level's class or the
    /// parameters), `None` when it depends on the episode's instruction.
    pub fn fixed_max_steps(&self) -> Option<u64> {
        self.fixed_max_steps
    }

    /// The side of the agent's view.
    pub fn view_size(&self) -> usize {
        self.params.agent_view_size
    }

    /// Generates an initial state (minigrid's `reset` after seeding): attempts until the
    /// level's `gen_mission` and `validate_instrs` pass, as minigrid's `_gen_grid` loops.
    pub fn generate<R: Rng + ?Sized>(&self, rng: &mut R) -> BabyAiState {
        let p = &self.params;
        let unblocking = matches!(&p.level, Level::LevelGen(level_gen) if level_gen.unblocking);
        let mut grid = Grid::new(self.width, self.height);
        let mut draws_left = crate::generation::DRAW_BUDGET;
        for attempt in 1.. {
            let mut builder = Builder::reusing(self.width, self.height, grid, Vec::new(), rng);
            builder.draws_left = draws_left;
            let mut ctx = Ctx::new(&mut builder, p.room_size, p.num_rows, p.num_cols);
            let generated = ctx.gen_mission(&p.level).and_then(|mut instr| {
                ctx.validate(&mut instr, unblocking)?;
                Ok(instr)
            });
            let pose = ctx.pose();
            let start_carrying = ctx.start_carrying;
            drop(ctx);
            match generated {
                Ok(mut instr) => {
                    instr.reset_verifier(&builder.grid, pose);
                    let mut mission = String::new();
                    instr.surface(&mut mission);
                    let nav_time_maze =
                        (p.room_size * p.room_size * p.num_rows * p.num_cols) as u64;
                    let max_steps = self
                        .fixed_max_steps
                        .unwrap_or(instr.num_navs() * nav_time_maze);
                    return self.state(builder, instr, mission, max_steps, start_carrying);
                }
                // The draw budget spans the attempts: parameters no layout satisfies give up
                // in a bounded time (a room too small for the agent and its objects).
                Err(_) if attempt < MAX_ATTEMPTS && builder.draws_left > 0 => {
                    draws_left = builder.draws_left;
                    grid = builder.grid;
                }
                Err(_) => break,
            }
        }
        // Generation gave up (parameters no layout satisfies): an episode of the empty room
        // grid whose instruction names nothing, so that it runs to its time limit.
        let mut builder =
            Builder::reusing(self.width, self.height, Grid::new(0, 0), Vec::new(), rng);
        let _ = Ctx::new(&mut builder, p.room_size, p.num_rows, p.num_cols);
        let instr = Instr::go_to(instr::ObjDesc::new(Some(ObjectKind::Key), None, None));
        let max_steps = self
            .fixed_max_steps
            .unwrap_or((p.room_size * p.room_size) as u64);
        self.state(builder, instr, "go to the key".to_owned(), max_steps, None)
    }

    fn state<R: Rng + ?Sized>(
        &self,
        builder: Builder<'_, R>,
        instr: Instr,
        mission: String,
        max_steps: u64,
        pending_carry: Option<Position>,
    ) -> BabyAiState {
        let Builder {
            grid,
            agent,
            direction,
            direction_drawn,
            ..
        } = builder;
        BabyAiState {
            world: MiniGridState {
                grid,
                agent,
                direction,
                direction_drawn,
                carrying: Cell::EMPTY,
                step_count: 0,
                mission: 0,
                terminated: false,
                task: Task::default(),
                obstacles: Vec::new(),
            },
            instr,
            mission: Arc::from(mission),
            max_steps,
            carrying_id: None,
            pending_carry,
        }
    }

    /// Writes the image observation of `state` into `out` (`view * view * 3` bytes).
    ///
    /// # Panics
    ///
    /// If `out` does not hold exactly `view * view * 3` bytes.
    pub fn write_image(&self, state: &BabyAiState, out: &mut [u8]) {
        let view = self.view_size();
        assert_eq!(
            out.len(),
            view * view * 3,
            "an image needs view * view * 3 bytes"
        );
        let world = &state.world;
        write_image(
            &world.grid,
            world.agent,
            world.direction,
            world.carrying,
            view,
            false,
            out,
            |byte| byte,
        );
    }

    /// One step of `RoomGridLevel.step`: `MiniGridEnv.step`'s effect, the verifier's
    /// bookkeeping and its verdict. Returns the reward and whether the episode terminated.
    fn apply_action(&self, state: &mut BabyAiState, action: i64) -> (f64, bool) {
        state.take_pending_carry();
        let world = &mut state.world;
        world.step_count += 1;
        let front = world.front();
        let cell = world.grid.get(front);
        match action {
            LEFT => world.direction = world.direction.turned_left(),
            RIGHT => world.direction = world.direction.turned_right(),
            FORWARD if cell.can_overlap() => world.agent = front,
            PICKUP if cell.can_pickup() && world.carrying.is_empty() => {
                world.carrying = cell;
                world.grid.set(front, Cell::EMPTY);
                state.carrying_id = Some(state.instr.id_at(front).unwrap_or(UNTRACKED));
                state.instr.apply(Event::Picked(front));
            }
            DROP if cell.is_empty() && !world.carrying.is_empty() => {
                world.grid.set(front, world.carrying);
                world.carrying = Cell::EMPTY;
                if let Some(id) = state.carrying_id.take() {
                    state.instr.apply(Event::Dropped(id, front));
                }
            }
            TOGGLE => match cell.door_state() {
                Some(DoorState::Locked) => {
                    let key = world.carrying;
                    if key.kind() == ObjectKind::Key && key.color() == cell.color() {
                        world.grid.set(front, cell.with_door_state(DoorState::Open));
                    }
                }
                Some(DoorState::Open) => world
                    .grid
                    .set(front, cell.with_door_state(DoorState::Closed)),
                Some(DoorState::Closed) => {
                    world.grid.set(front, cell.with_door_state(DoorState::Open))
                }
                None => {
                    if cell.kind() == ObjectKind::Box {
                        world
                            .grid
                            .set(front, cell.contents().unwrap_or(Cell::EMPTY));
                        state.instr.apply(Event::Removed(front));
                    }
                }
            },
            _ => {}
        }
        if action == DROP {
            state.instr.refresh_positions();
        }
        let world = &state.world;
        let front = world.front();
        let status = state.instr.verify(Step {
            action,
            front,
            front_cell: world.grid.get(front),
            carrying: state.carrying_id,
        });
        let (reward, terminated) = match status {
            Status::Success => (
                1.0 - 0.9 * (world.step_count as f64 / state.max_steps as f64),
                true,
            ),
            Status::Failure => (0.0, true),
            Status::Continue => (0.0, false),
        };
        state.world.terminated = terminated;
        (reward, terminated)
    }
}

impl Domain for BabyAi {
    type State = BabyAiState;
    type Observation = MiniGridObservation;
    type Action = i64;
    type ObservationSpace = BabyAiObservationSpace;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &BabyAiObservationSpace {
        &self.observations
    }

    fn action_space(&self) -> &Discrete {
        &self.actions
    }

    fn state_heap_bytes(&self) -> usize {
        self.width * self.height * std::mem::size_of::<Cell>()
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> BabyAiState {
        self.generate(rng)
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &BabyAiState,
        action: &i64,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<BabyAiState> {
        let mut next = state.clone();
        let (reward, terminated) = self.apply_action(&mut next, *action);
        TransitionOutcome::new(next, Value::from_reward(reward), terminated)
    }

    /// Steps the state where it lies, allocating nothing.
    fn step_in_place<R: Rng + ?Sized>(
        &self,
        state: &mut BabyAiState,
        action: &i64,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<()> {
        let (reward, terminated) = self.apply_action(state, *action);
        TransitionOutcome::new((), Value::from_reward(reward), terminated)
    }

    fn observe(&self, state: &BabyAiState) -> MiniGridObservation {
        let mut image = vec![0; self.view_size() * self.view_size() * 3];
        self.write_image(state, &mut image);
        MiniGridObservation {
            image,
            direction: state.world.direction.index(),
            mission: Arc::clone(&state.mission),
        }
    }

    fn observe_flat_into<F: FlatScalar>(
        &self,
        state: &BabyAiState,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.observe_row_into(state, RowLayout::Flat, out)
    }

    /// Writes the direction, the image (computed straight into the row) and the mission's
    /// character indices, allocating nothing.
    fn observe_row_into<F: FlatScalar>(
        &self,
        state: &BabyAiState,
        layout: RowLayout,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        let world = &state.world;
        self.observations.write_row(
            layout,
            world.direction.index(),
            &state.mission,
            out,
            |image| {
                write_image(
                    &world.grid,
                    world.agent,
                    world.direction,
                    world.carrying,
                    self.view_size(),
                    false,
                    image,
                    F::from_u8,
                );
            },
        )
    }

    fn is_terminal(&self, state: &BabyAiState) -> bool {
        state.world.terminated
    }

    /// The fixed time limit; levels whose limit depends on the instruction have none here
    /// (see [`BabyAiState::is_truncated`]).
    fn episode_cap(&self) -> Option<u64> {
        self.fixed_max_steps
    }

    /// Levels whose time limit follows the instruction have one per episode.
    fn has_episode_time_limits(&self) -> bool {
        self.fixed_max_steps.is_none()
    }

    /// minigrid's `step_count >= max_steps`, for the levels without a fixed limit.
    fn time_limit_reached(&self, state: &BabyAiState) -> bool {
        self.fixed_max_steps.is_none() && state.is_truncated()
    }

    fn check_state(&self, state: &BabyAiState) -> Result<(), String> {
        let world = &state.world;
        if world.grid.width() != self.width || world.grid.height() != self.height {
            return Err(format!(
                "the grid is {} by {}, the domain's is {} by {}",
                world.grid.width(),
                world.grid.height(),
                self.width,
                self.height
            ));
        }
        if !world.grid.contains(world.agent) || !world.grid.get(world.agent).can_overlap() {
            return Err(format!(
                "the agent at {:?} is not on a free cell",
                world.agent
            ));
        }
        if state.max_steps == 0 {
            return Err("max_steps is 0".to_owned());
        }
        if !(world.carrying.is_empty() || world.carrying.can_pickup()) {
            return Err(format!(
                "the carried {:?} cannot be carried",
                world.carrying
            ));
        }
        if let Some(position) = state.pending_carry {
            if !world.grid.get(position).can_pickup() || !world.carrying.is_empty() {
                return Err(format!(
                    "the object to start carrying at {position:?} is not one the empty-handed \
                     agent can carry"
                ));
            }
        }
        if state.mission.chars().count() > self.observations.max_mission_len() {
            return Err(format!("the mission {:?} is too long", state.mission));
        }
        Ok(())
    }
}
