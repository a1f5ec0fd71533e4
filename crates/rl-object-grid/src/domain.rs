//! [`MiniGrid`]: minigrid's environments as one pure [`Domain`], with its parameters
//! ([`MiniGridParams`]), observation ([`MiniGridObservation`]) and observation space.

use std::sync::Arc;

use rand::Rng;
use rl_core::{Domain, Mode, TransitionOutcome, Value};
use rl_spaces::{Discrete, FlatScalar, RowLayout, Space, SpaceError};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::envs::dynamic_obstacles::move_obstacles;
use crate::envs::{EnvParams, Rules};
use crate::generation::Builder;
use crate::grid::Grid;
use crate::image::ImageKind;
use crate::object::{Cell, DoorState, ObjectKind};
use crate::observation::{MiniGridObservation, MiniGridObservationSpace};
use crate::state::MiniGridState;
use crate::view::{MAX_VIEW_SIZE, write_full};

/// minigrid's action 0: turn left.
pub const LEFT: i64 = 0;
/// minigrid's action 1: turn right.
pub const RIGHT: i64 = 1;
/// minigrid's action 2: move forward.
pub const FORWARD: i64 = 2;
/// minigrid's action 3: pick up the object in front.
pub const PICKUP: i64 = 3;
/// minigrid's action 4: drop the carried object in front.
pub const DROP: i64 = 4;
/// minigrid's action 5: toggle (open, close, unlock, open a box) the object in front.
pub const TOGGLE: i64 = 5;
/// minigrid's action 6: done (ends GoToDoor and GoToObject episodes; nothing elsewhere).
pub const DONE: i64 = 6;

/// How many times generation is retried, continuing the generator's stream, where minigrid's
/// `reset` raises (`place_obj`'s `max_tries` or `connect_all`'s `max_itrs` exceeded): as a
/// caller catching the exception and calling `reset()` again would.
const GENERATION_RETRIES: usize = 1000;

/// The parameters of a [`MiniGrid`] domain: the environment and its own parameters, the view
/// size, the time limit, whether the agent sees through walls, what the observation's image
/// holds and how frames are drawn. [`Default`] is `MiniGrid-Empty-8x8-v0`;
/// [`for_id`](Self::for_id) gives any registered id's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MiniGridParams {
    /// The environment and its parameters.
    pub env: EnvParams,
    /// The side of the agent's square view (7; odd, 3 to 63).
    pub agent_view_size: usize,
    /// The episode's time limit in steps (`null`: the environment's own formula, minigrid's
    /// `max_steps=None`). 0 is accepted, as minigrid accepts it: minigrid truncates when
    /// `step_count >= max_steps`, so the episode ends at its first step.
    pub max_steps: Option<u64>,
    /// Whether the agent sees through walls (`null`: the environment's own choice). minigrid's
    /// environments that set it themselves (Empty, DistShift, Dynamic-Obstacles, Fetch,
    /// GoToDoor, GoToObject, PutNear, LavaGap, the crossings, Memory) refuse it, as their
    /// constructors do.
    pub see_through_walls: Option<bool>,
    /// What the observation's `image` holds ([`ImageKind`]: minigrid's partial view, or what
    /// one of its observation wrappers puts there).
    pub image: ImageKind,
    /// The tile size of the RGB images (8, the wrappers' default; 1 to
    /// [`MAX_TILE_SIZE`](crate::image::MAX_TILE_SIZE)).
    pub image_tile_size: usize,
    /// minigrid's `highlight`: whether frames (and the `rgb_full` image) lighten the cells the
    /// agent sees (`true`).
    pub highlight: bool,
    /// minigrid's `tile_size`: the pixels a cell of the frames (32).
    pub tile_size: usize,
    /// minigrid's `agent_pov`: whether frames show the agent's view rather than the whole grid
    /// (`false`).
    pub agent_pov: bool,
}

impl Default for MiniGridParams {
    fn default() -> Self {
        MiniGridParams {
            env: EnvParams::default(),
            agent_view_size: 7,
            max_steps: None,
            see_through_walls: None,
            image: ImageKind::Partial,
            image_tile_size: 8,
            highlight: true,
            tile_size: crate::TILE_PIXELS as usize,
            agent_pov: false,
        }
    }
}

/// The fields of [`MiniGridParams`] as JSON names them: any other key given by id is one of the
/// environment's own parameters, given flat as minigrid's constructors take them.
const COMMON_FIELDS: [&str; 9] = [
    "env",
    "agent_view_size",
    "max_steps",
    "see_through_walls",
    "image",
    "image_tile_size",
    "highlight",
    "tile_size",
    "agent_pov",
];

impl MiniGridParams {
    /// The parameters of environment `env` with minigrid's defaults for the rest.
    pub fn new(env: EnvParams) -> MiniGridParams {
        MiniGridParams {
            env,
            ..MiniGridParams::default()
        }
    }

    /// The parameters of a registered minigrid id (see [`ids`](crate::ids)), or an
    /// [`Error::UnknownId`].
    pub fn for_id(id: &str) -> Result<MiniGridParams, Error> {
        crate::ids::params_for(id).ok_or_else(|| Error::UnknownId { id: id.to_owned() })
    }

    /// The parameters of a registered id with the fields of `overrides` (a JSON object of
    /// [`MiniGridParams`]' fields, the environment's own nested as in the id's defaults, or
    /// given flat as minigrid's constructors take them: `{"size": 6}` for DoorKey,
    /// `{"minNumRooms": 2}` for MultiRoom) read over them; `null` gives the defaults. A value that does not read is an
    /// [`Error::InvalidJson`] naming its JSON path (`env.door_key.size`).
    ///
    /// ```
    /// use rl_object_grid::{EnvParams, MiniGridParams};
    /// use serde_json::json;
    ///
    /// let params = MiniGridParams::for_id_with(
    ///     "MiniGrid-DoorKey-8x8-v0",
    ///     &json!({"env": {"door_key": {"size": 6}}, "max_steps": 50}),
    /// )?;
    /// assert_eq!(params.max_steps, Some(50));
    /// assert!(matches!(params.env, EnvParams::DoorKey(ref door_key) if door_key.size == 6));
    ///
    /// // minigrid's own keyword arguments, flat.
    /// let flat = MiniGridParams::for_id_with("MiniGrid-DoorKey-8x8-v0", &json!({"size": 6}))?;
    /// assert_eq!(flat, MiniGridParams::for_id_with("MiniGrid-DoorKey-8x8-v0", &json!({"env": {"door_key": {"size": 6}}}))?);
    ///
    /// let error = MiniGridParams::for_id_with("MiniGrid-DoorKey-8x8-v0", &json!({"env": {"door_key": {"size": "six"}}}));
    /// assert!(error.unwrap_err().to_string().contains("env.door_key.size"));
    /// # Ok::<(), rl_object_grid::Error>(())
    /// ```
    pub fn for_id_with(id: &str, overrides: &serde_json::Value) -> Result<MiniGridParams, Error> {
        let defaults = MiniGridParams::for_id(id)?;
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
        let overrides = flat_into_env(id, &merged, overrides)?;
        check_class(id, &merged, &overrides)?;
        merge(&mut merged, &overrides);
        serde_path_to_error::deserialize(merged).map_err(|error| {
            let path = error.path().to_string();
            let reason = error.into_inner().to_string();
            invalid(if path == "." { String::new() } else { path }, reason)
        })
    }

    /// Checks every parameter: the first problem found, naming the parameter.
    pub fn validate(&self) -> Result<(), Error> {
        let size = self.agent_view_size;
        if size < 3 || size % 2 == 0 || size > MAX_VIEW_SIZE {
            return Err(Error::InvalidParameter {
                parameter: "agent_view_size".to_owned(),
                reason: format!("must be odd and between 3 and {MAX_VIEW_SIZE}, got {size}"),
            });
        }
        for (parameter, tile) in [
            ("image_tile_size", self.image_tile_size),
            ("tile_size", self.tile_size),
        ] {
            if !(1..=crate::image::MAX_TILE_SIZE).contains(&tile) {
                return Err(Error::InvalidParameter {
                    parameter: parameter.to_owned(),
                    reason: format!(
                        "must be between 1 and {}, got {tile}",
                        crate::image::MAX_TILE_SIZE
                    ),
                });
            }
        }
        if self.see_through_walls.is_some() && self.env.refuses_see_through_walls() {
            return Err(Error::InvalidParameter {
                parameter: "see_through_walls".to_owned(),
                reason: format!(
                    "the {} environment sets it itself (minigrid's constructor refuses it too)",
                    self.env.class()
                ),
            });
        }
        self.env.validate()
    }
}

/// Refuses an `env` override that names another class than the id's (which serde would
/// report as "expected map with a single key"), naming the id's class and its parameters.
fn check_class(
    id: &str,
    defaults: &serde_json::Value,
    overrides: &serde_json::Value,
) -> Result<(), Error> {
    let (Some(serde_json::Value::Object(own)), Some(serde_json::Value::Object(given))) =
        (defaults.get("env"), overrides.get("env"))
    else {
        return Ok(());
    };
    let Some((class, fields)) = own.iter().next() else {
        return Ok(());
    };
    if let Some(other) = given.keys().find(|key| *key != class) {
        let names: Vec<&str> = fields
            .as_object()
            .map(|fields| fields.keys().map(String::as_str).collect())
            .unwrap_or_default();
        return Err(Error::InvalidJson {
            id: id.to_owned(),
            path: format!("env.{other}"),
            reason: format!(
                "{id} is of the class `{class}`, whose parameters are {} (given flat or under \
                 env.{class}); `{other}` is another class's",
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                }
            ),
        });
    }
    Ok(())
}

/// `overrides` with every key that is not a field of [`MiniGridParams`] moved into the
/// environment's own parameters (`{"size": 6}` becomes `{"env": {"door_key": {"size": 6}}}`
/// for DoorKey), as minigrid's constructors take them flat; `defaults` is the id's parameters
/// as JSON. A flat key for an environment without parameters is an error naming it.
fn flat_into_env(
    id: &str,
    defaults: &serde_json::Value,
    overrides: &serde_json::Value,
) -> Result<serde_json::Value, Error> {
    let serde_json::Value::Object(entries) = overrides else {
        return Ok(overrides.clone());
    };
    if entries
        .keys()
        .all(|key| COMMON_FIELDS.contains(&key.as_str()))
    {
        return Ok(overrides.clone());
    }
    let class = match defaults.get("env") {
        Some(serde_json::Value::Object(env)) => env.keys().next().cloned(),
        _ => None,
    };
    let mut common = serde_json::Map::new();
    let mut own = serde_json::Map::new();
    for (key, value) in entries {
        if COMMON_FIELDS.contains(&key.as_str()) {
            common.insert(key.clone(), value.clone());
        } else {
            own.insert(minigrid_name(key).to_owned(), value.clone());
        }
    }
    let Some(class) = class else {
        let names: Vec<&str> = own.keys().map(String::as_str).collect();
        return Err(Error::InvalidJson {
            id: id.to_owned(),
            path: names.first().copied().unwrap_or_default().to_owned(),
            reason: format!(
                "unknown parameter; {id} takes no parameters of its own, only {}",
                COMMON_FIELDS[1..].join(", ")
            ),
        });
    };
    let env = common.entry("env").or_insert_with(|| serde_json::json!({}));
    match env {
        serde_json::Value::Object(env) => {
            let nested = env.entry(class).or_insert_with(|| serde_json::json!({}));
            let serde_json::Value::Object(nested) = nested else {
                return Err(Error::InvalidJson {
                    id: id.to_owned(),
                    path: "env".to_owned(),
                    reason: "expected the environment's parameters as an object when some are \
                             also given flat"
                        .to_owned(),
                });
            };
            nested.extend(own);
        }
        _ => {
            return Err(Error::InvalidJson {
                id: id.to_owned(),
                path: "env".to_owned(),
                reason: "expected an object when the environment's parameters are also given flat"
                    .to_owned(),
            });
        }
    }
    Ok(serde_json::Value::Object(common))
}

/// The field name of an environment's parameter that minigrid's constructor spells in camel
/// case (`numObjs`, MultiRoom's `minNumRooms`, `maxNumRooms`, `maxRoomSize`); any other name
/// as it is.
fn minigrid_name(key: &str) -> &str {
    match key {
        "numObjs" => "num_objs",
        "minNumRooms" => "min_num_rooms",
        "maxNumRooms" => "max_num_rooms",
        "maxRoomSize" => "max_room_size",
        other => other,
    }
}

/// Reads the fields of `overrides` over `target`, object into object.
pub(crate) fn merge(target: &mut serde_json::Value, overrides: &serde_json::Value) {
    match (target, overrides) {
        (serde_json::Value::Object(target), serde_json::Value::Object(overrides)) => {
            for (key, value) in overrides {
                match target.get_mut(key) {
                    Some(existing) if existing.is_object() && value.is_object() => {
                        merge(existing, value)
                    }
                    _ => {
                        target.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (target, overrides) => *target = overrides.clone(),
    }
}

/// minigrid's environments as a pure domain: one of minigrid 3.2.0's environment classes
/// ([`EnvParams`]), exact to it seed for seed.
///
#[doc = include_str!("minigrid.md")]
#[derive(Debug, Clone)]
pub struct MiniGrid {
    params: MiniGridParams,
    width: usize,
    height: usize,
    max_steps: u64,
    see_through_walls: bool,
    rules: Rules,
    actions: Discrete,
    observations: MiniGridObservationSpace,
}

impl MiniGrid {
    /// The domain of `params`, after checking them.
    pub fn new(params: MiniGridParams) -> Result<MiniGrid, Error> {
        params.validate()?;
        let (width, height) = params.env.grid_size();
        let max_side = crate::grid::MAX_SIDE;
        if width > max_side || height > max_side || width == 0 || height == 0 {
            // Before any size is multiplied out (the image's shape, the step formula).
            return Err(Error::InvalidParameter {
                parameter: "size".to_owned(),
                reason: format!(
                    "the grid would be {width} by {height}; each side is 1 to {max_side}"
                ),
            });
        }
        let max_steps = params
            .max_steps
            .unwrap_or_else(|| params.env.default_max_steps());
        let missions: Arc<[Arc<str>]> = params.env.missions().into_iter().map(Arc::from).collect();
        let image_shape = params.image.shape(
            width,
            height,
            params.agent_view_size,
            params.image_tile_size,
        );
        let bytes = image_shape.iter().product::<usize>();
        if bytes > crate::image::MAX_IMAGE_BYTES {
            return Err(Error::InvalidParameter {
                parameter: "image_tile_size".to_owned(),
                reason: format!(
                    "the observation's images would take {bytes} bytes each, more than {}",
                    crate::image::MAX_IMAGE_BYTES
                ),
            });
        }
        let actions = Discrete::new(params.env.action_count() as u64).map_err(|error| {
            Error::InvalidParameter {
                parameter: "env".to_owned(),
                reason: error.to_string(),
            }
        })?;
        Ok(MiniGrid {
            width,
            height,
            max_steps,
            see_through_walls: params
                .see_through_walls
                .unwrap_or_else(|| params.env.see_through_walls()),
            rules: params.env.rules(),
            actions,
            observations: MiniGridObservationSpace::new(image_shape, missions).map_err(
                |error| Error::InvalidParameter {
                    parameter: "env".to_owned(),
                    reason: error.to_string(),
                },
            )?,
            params,
        })
    }

    /// The domain of a registered minigrid id (see [`ids`](crate::ids)).
    pub fn for_id(id: &str) -> Result<MiniGrid, Error> {
        MiniGrid::new(MiniGridParams::for_id(id)?)
    }

    /// The parameters.
    pub fn params(&self) -> &MiniGridParams {
        &self.params
    }

    /// The grid's width and height.
    pub fn grid_size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The episode's time limit (minigrid's `max_steps`).
    pub fn max_steps(&self) -> u64 {
        self.max_steps
    }

    /// The side of the agent's view.
    pub fn view_size(&self) -> usize {
        self.params.agent_view_size
    }

    /// The number of bytes of the observation's image (`view * view * 3` for minigrid's
    /// partial view; see [`image_shape`](Self::image_shape)).
    pub fn image_len(&self) -> usize {
        self.image_shape().iter().product()
    }

    /// Whether the agent sees through walls.
    pub fn see_through_walls(&self) -> bool {
        self.see_through_walls
    }

    /// Every mission the environment can give, indexed by
    /// [`MiniGridState::mission_index`].
    pub fn missions(&self) -> &[Arc<str>] {
        self.observations.missions()
    }

    /// The mission of `state`.
    pub fn mission(&self, state: &MiniGridState) -> &Arc<str> {
        let missions = self.missions();
        &missions[state.mission_index().min(missions.len() - 1)]
    }

    /// Writes the observation's image of `state` into `out` ([`image_len`](Self::image_len)
    /// bytes, numpy's C order; minigrid's partial view unless the parameter `image` says
    /// otherwise), allocating nothing: what a vector's kernel writes into its buffer.
    ///
    /// # Panics
    ///
    /// If `out` does not hold exactly [`image_len`](Self::image_len) bytes.
    pub fn write_image(&self, state: &MiniGridState, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            self.image_len(),
            "an image needs image_len() bytes"
        );
        self.write_observation_image(state, out, |byte| byte);
    }

    /// Writes the fully observed encoding of `state` into `out` (`width * height * 3` bytes,
    /// column first), minigrid's `FullyObsWrapper`: the grid's encoding with the agent as
    /// `(10, 0, direction)`.
    ///
    /// # Panics
    ///
    /// If `out` does not hold exactly `width * height * 3` bytes.
    pub fn write_full_encoding(&self, state: &MiniGridState, out: &mut [u8]) {
        write_full(&state.grid, state.agent, state.direction, out);
    }

    /// The fully observed encoding of `state` as a new vector (see
    /// [`write_full_encoding`](Self::write_full_encoding)).
    pub fn full_encoding(&self, state: &MiniGridState) -> Vec<u8> {
        let mut out = vec![0; state.grid.width() * state.grid.height() * 3];
        self.write_full_encoding(state, &mut out);
        out
    }

    /// The obstacles of a state given from outside: none but in Dynamic-Obstacles, where each
    /// stands inside the outer wall, on a cell that holds its blue ball, away from the agent
    /// and from every other obstacle (a ball in the wall would erase wall cells as it moves).
    fn check_obstacles(&self, state: &MiniGridState) -> Result<(), String> {
        if self.rules != Rules::DynamicObstacles {
            if let Some(obstacle) = state.obstacles.first() {
                return Err(format!(
                    "obstacles holds {obstacle:?}, but only Dynamic-Obstacles has moving obstacles"
                ));
            }
            return Ok(());
        }
        let (width, height) = (self.width as i32, self.height as i32);
        for (index, &obstacle) in state.obstacles.iter().enumerate() {
            let field = format!("obstacles[{index}] at {obstacle:?}");
            if obstacle.x < 1
                || obstacle.y < 1
                || obstacle.x >= width - 1
                || obstacle.y >= height - 1
            {
                return Err(format!("{field} is not inside the outer wall"));
            }
            let cell = state.grid.get(obstacle);
            if cell.kind() != ObjectKind::Ball {
                return Err(format!("{field} stands on {cell:?}, not on its ball"));
            }
            if obstacle == state.agent {
                return Err(format!("{field} is where the agent is"));
            }
            if state.obstacles[..index].contains(&obstacle) {
                return Err(format!("{field} repeats an earlier obstacle"));
            }
        }
        Ok(())
    }

    /// minigrid's `_reward()` at the state's step count: `1 - 0.9 * (step_count / max_steps)`.
    #[inline]
    fn success_reward(&self, state: &MiniGridState) -> f64 {
        1.0 - 0.9 * (state.step_count as f64 / self.max_steps as f64)
    }

    /// Generates an initial state from `rng` (minigrid's `reset` after seeding).
    pub fn generate<R: Rng + ?Sized>(&self, rng: &mut R) -> MiniGridState {
        let mut state = MiniGridState {
            grid: Grid::new(0, 0),
            agent: crate::generation::NOWHERE,
            direction: crate::state::Direction::Right,
            direction_drawn: false,
            carrying: Cell::EMPTY,
            step_count: 0,
            mission: 0,
            terminated: false,
            task: crate::state::Task::default(),
            obstacles: Vec::new(),
        };
        self.generate_into(&mut state, rng);
        state
    }

    /// Generates an initial state from `rng` into `state` (the state [`generate`](Self::generate)
    /// gives, with the same draws), reusing its grid's cells and its obstacles' list: a
    /// reset that allocates nothing for the environments whose generation needs no other
    /// room (Empty, DoorKey, FourRooms, Dynamic-Obstacles, LavaGap, DistShift, among
    /// others; those laid out as rooms, as KeyCorridor, or drawing subsets, as Crossing,
    /// allocate for those).
    pub fn generate_into<R: Rng + ?Sized>(&self, state: &mut MiniGridState, rng: &mut R) {
        let mut grid = std::mem::replace(&mut state.grid, Grid::new(0, 0));
        let mut obstacles = std::mem::take(&mut state.obstacles);
        let mut attempt = 0;
        loop {
            let mut builder = Builder::reusing(self.width, self.height, grid, obstacles, rng);
            let generated = self.params.env.generate(&mut builder);
            attempt += 1;
            let Builder {
                grid: built,
                agent,
                direction,
                direction_drawn,
                mission,
                task,
                obstacles: placed,
                ..
            } = builder;
            if generated.is_ok() || attempt >= GENERATION_RETRIES {
                *state = MiniGridState {
                    grid: built,
                    agent,
                    direction,
                    direction_drawn,
                    carrying: Cell::EMPTY,
                    step_count: 0,
                    mission,
                    terminated: false,
                    task,
                    obstacles: placed,
                };
                return;
            }
            (grid, obstacles) = (built, placed);
        }
    }

    /// Steps `state` in place with `action` (an action of the action space; anything else
    /// turns left, as Dynamic-Obstacles does with its actions beyond 3), drawing from `rng`
    /// where the environment does (Dynamic-Obstacles), and returns the reward and whether
    /// the episode terminated (what [`Domain::step_in_place`] returns as an outcome).
    /// Allocates nothing.
    fn apply_action<R: Rng + ?Sized>(
        &self,
        state: &mut MiniGridState,
        action: i64,
        rng: &mut R,
    ) -> (f64, bool) {
        let mut action = if (0..self.params.env.action_count() as i64).contains(&action) {
            action
        } else {
            LEFT
        };
        let mut not_clear = false;
        let carried_before = state.carrying;
        let doors_before = (self.door_open(state, 0), self.door_open(state, 1));
        match self.rules {
            Rules::DynamicObstacles => {
                let front = state.grid.get(state.front());
                not_clear = !front.is_empty() && front.kind() != ObjectKind::Goal;
                move_obstacles(&mut state.grid, state.agent, &mut state.obstacles, rng);
            }
            Rules::Memory if action == PICKUP => action = TOGGLE,
            _ => {}
        }
        let (mut reward, mut terminated) = self.base_step(state, action);
        match self.rules {
            Rules::Plain => {}
            Rules::Unlock => {
                if action == TOGGLE && self.door_open(state, 0) {
                    reward = self.success_reward(state);
                    terminated = true;
                }
            }
            Rules::PickUpMarked => {
                if action == PICKUP && state.carrying.is_marked() {
                    reward = self.success_reward(state);
                    terminated = true;
                }
            }
            Rules::DynamicObstacles => {
                if action == FORWARD && not_clear {
                    reward = -1.0;
                    terminated = true;
                }
            }
            Rules::Memory => {
                if state.agent == state.task.first {
                    reward = self.success_reward(state);
                    terminated = true;
                }
                if state.agent == state.task.second {
                    reward = 0.0;
                    terminated = true;
                }
            }
            Rules::Fetch => {
                if !state.carrying.is_empty() {
                    let target = state.task.object;
                    let wanted = state.carrying.kind() == target.kind()
                        && state.carrying.color() == target.color();
                    reward = if wanted {
                        self.success_reward(state)
                    } else {
                        0.0
                    };
                    terminated = true;
                }
            }
            Rules::GoTo => {
                if action == TOGGLE {
                    terminated = true;
                }
                if action == DONE {
                    let (agent, target) = (state.agent, state.task.first);
                    let next_to = (agent.x == target.x && (agent.y - target.y).abs() == 1)
                        || (agent.y == target.y && (agent.x - target.x).abs() == 1);
                    if next_to {
                        reward = self.success_reward(state);
                    }
                    terminated = true;
                }
            }
            Rules::PutNear => {
                let wanted = state.task.object;
                if action == PICKUP
                    && !state.carrying.is_empty()
                    && (state.carrying.kind() != wanted.kind()
                        || state.carrying.color() != wanted.color())
                {
                    terminated = true;
                }
                if action == DROP && !carried_before.is_empty() {
                    let front = state.front();
                    let target = state.task.first;
                    let dropped = state.carrying.is_empty();
                    if dropped && (front.x - target.x).abs() <= 1 && (front.y - target.y).abs() <= 1
                    {
                        reward = self.success_reward(state);
                    }
                    terminated = true;
                }
            }
            Rules::RedBlueDoors => {
                let (red_before, _) = doors_before;
                let (red_after, blue_after) = (self.door_open(state, 0), self.door_open(state, 1));
                let blue_before = doors_before.1;
                if blue_after {
                    reward = if red_before {
                        self.success_reward(state)
                    } else {
                        0.0
                    };
                    terminated = true;
                } else if red_after && blue_before {
                    reward = 0.0;
                    terminated = true;
                }
            }
        }
        state.terminated = terminated;
        (reward, terminated)
    }

    /// Whether the door at the task's first (`which == 0`) or second position is open.
    fn door_open(&self, state: &MiniGridState, which: usize) -> bool {
        let position = if which == 0 {
            state.task.first
        } else {
            state.task.second
        };
        state.grid.get(position).door_state() == Some(DoorState::Open)
    }

    /// minigrid's `MiniGridEnv.step`: the step count, then the action's effect.
    fn base_step(&self, state: &mut MiniGridState, action: i64) -> (f64, bool) {
        state.step_count += 1;
        let mut reward = 0.0;
        let mut terminated = false;
        let front = state.front();
        let cell = state.grid.get(front);
        match action {
            LEFT => state.direction = state.direction.turned_left(),
            RIGHT => state.direction = state.direction.turned_right(),
            FORWARD => {
                if cell.can_overlap() {
                    state.agent = front;
                }
                match cell.kind() {
                    ObjectKind::Goal => {
                        terminated = true;
                        reward = self.success_reward(state);
                    }
                    ObjectKind::Lava => terminated = true,
                    _ => {}
                }
            }
            PICKUP if cell.can_pickup() && state.carrying.is_empty() => {
                state.carrying = cell;
                state.grid.set(front, Cell::EMPTY);
            }
            DROP if cell.is_empty() && !state.carrying.is_empty() => {
                state.grid.set(front, state.carrying);
                state.carrying = Cell::EMPTY;
            }
            TOGGLE => toggle(&mut state.grid, front, cell, state.carrying),
            _ => {}
        }
        (reward, terminated)
    }
}

/// minigrid's `WorldObj.toggle` of the object `cell` at `position`: a door opens or closes
/// (a locked one opens with the key of its colour), a box turns into its contents.
fn toggle(grid: &mut Grid, position: crate::grid::Position, cell: Cell, carrying: Cell) {
    match cell.door_state() {
        Some(DoorState::Locked) => {
            if carrying.kind() == ObjectKind::Key && carrying.color() == cell.color() {
                grid.set(position, cell.with_door_state(DoorState::Open));
            }
        }
        Some(DoorState::Open) => grid.set(position, cell.with_door_state(DoorState::Closed)),
        Some(DoorState::Closed) => grid.set(position, cell.with_door_state(DoorState::Open)),
        None => {
            if cell.kind() == ObjectKind::Box {
                grid.set(position, cell.contents().unwrap_or(Cell::EMPTY));
            }
        }
    }
}

impl Domain for MiniGrid {
    type State = MiniGridState;
    type Observation = MiniGridObservation;
    type Action = i64;
    type ObservationSpace = MiniGridObservationSpace;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &MiniGridObservationSpace {
        &self.observations
    }

    fn action_space(&self) -> &Discrete {
        &self.actions
    }

    /// The grid's cells and, for Dynamic-Obstacles, room for an obstacle per cell (a bound
    /// from above).
    fn state_heap_bytes(&self) -> usize {
        let cells = self.width * self.height;
        cells
            * (std::mem::size_of::<crate::object::Cell>()
                + std::mem::size_of::<crate::grid::Position>())
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> MiniGridState {
        self.generate(rng)
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &MiniGridState,
        action: &i64,
        _mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<MiniGridState> {
        let mut next = state.clone();
        let (reward, terminated) = self.apply_action(&mut next, *action, rng);
        TransitionOutcome::new(next, Value::from_reward(reward), terminated)
    }

    /// Resets `state` with [`generate_into`](MiniGrid::generate_into), reusing its memory.
    fn initial_state_into<R: Rng + ?Sized>(
        &self,
        state: &mut MiniGridState,
        _mode: Mode,
        rng: &mut R,
    ) {
        self.generate_into(state, rng);
    }

    /// Steps the state where it lies, allocating nothing (`step` clones the grid).
    fn step_in_place<R: Rng + ?Sized>(
        &self,
        state: &mut MiniGridState,
        action: &i64,
        _mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<()> {
        let (reward, terminated) = self.apply_action(state, *action, rng);
        TransitionOutcome::new((), Value::from_reward(reward), terminated)
    }

    /// Writes the direction one-hot, the image (computed straight into the row) and the
    /// mission's character indices, allocating nothing: what flattening the observation
    /// gives.
    fn observe_flat_into<F: FlatScalar>(
        &self,
        state: &MiniGridState,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.observe_row_into(state, RowLayout::Flat, out)
    }

    /// Writes the direction (one-hot, or one entry in the batched layout), the image
    /// (computed straight into the row) and the mission's character indices, allocating
    /// nothing: what writing the observation in `layout` gives.
    fn observe_row_into<F: FlatScalar>(
        &self,
        state: &MiniGridState,
        layout: RowLayout,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        let mission = state.mission_index().min(self.missions().len() - 1);
        self.observations
            .write_row(layout, state.direction.index(), mission, out, |image| {
                self.write_observation_image(state, image, F::from_u8);
            })
    }

    fn observe(&self, state: &MiniGridState) -> MiniGridObservation {
        let mut image = vec![0; self.image_len()];
        self.write_image(state, &mut image);
        MiniGridObservation {
            image,
            direction: state.direction.index(),
            mission: Arc::clone(self.mission(state)),
        }
    }

    /// The action space, and for Dynamic-Obstacles any non-negative action: minigrid turns an
    /// action beyond its three into 0 (turn left) there, rather than refusing it.
    fn accepts_action(&self, action: &i64) -> bool {
        self.actions.contains(action) || (self.rules == Rules::DynamicObstacles && *action >= 0)
    }

    fn is_terminal(&self, state: &MiniGridState) -> bool {
        state.terminated
    }

    /// minigrid's `max_steps`, except that a `max_steps` of 0 (which minigrid accepts, and
    /// which ObstructedMaze's `num_rooms_visited=0` gives) is a cap of 1: minigrid truncates
    /// when `step_count >= max_steps`, so both end the episode at its first step.
    fn episode_cap(&self) -> Option<u64> {
        Some(self.max_steps.max(1))
    }

    /// The state's `step_count`: an episode restored from a state counts its time limit from
    /// there, as minigrid's would.
    fn steps_taken(&self, state: &MiniGridState) -> u64 {
        state.step_count
    }

    fn check_state(&self, state: &MiniGridState) -> Result<(), String> {
        if state.grid.width() != self.width || state.grid.height() != self.height {
            return Err(format!(
                "the grid is {} by {}, the domain's is {} by {}",
                state.grid.width(),
                state.grid.height(),
                self.width,
                self.height
            ));
        }
        if !state.grid.contains(state.agent) {
            return Err(format!(
                "the agent at {:?} is outside the grid",
                state.agent
            ));
        }
        if !state.grid.get(state.agent).can_overlap() {
            return Err(format!(
                "the agent at {:?} stands on an object it cannot overlap",
                state.agent
            ));
        }
        if state.mission_index() >= self.missions().len() {
            return Err(format!(
                "mission index {} out of range",
                state.mission_index()
            ));
        }
        let valid = |cell: Cell| Cell::from_bytes(cell.to_bytes()) == Some(cell);
        if let Some(index) = state.grid.cells().iter().position(|&cell| !valid(cell)) {
            return Err(format!(
                "cell {index} ({:?}) is not an object of this crate",
                state.grid.cells()[index].to_bytes()
            ));
        }
        if !valid(state.carrying) || !(state.carrying.is_empty() || state.carrying.can_pickup()) {
            return Err(format!(
                "the carried {:?} cannot be carried",
                state.carrying
            ));
        }
        if state.step_count >= self.max_steps.max(1) {
            return Err(format!(
                "step_count is {}, but an episode still running has taken fewer than max_steps \
                 ({}) steps",
                state.step_count, self.max_steps
            ));
        }
        if state.terminated {
            return Err(
                "terminated is true: an episode that has ended cannot be continued".to_owned(),
            );
        }
        for (field, position) in [
            ("task.first", state.task.first),
            ("task.second", state.task.second),
        ] {
            if !state.grid.contains(position) {
                return Err(format!("{field} at {position:?} is outside the grid"));
            }
        }
        if !valid(state.task.object) {
            return Err(format!(
                "task.object ({:?}) is not an object of this crate",
                state.task.object.to_bytes()
            ));
        }
        self.check_obstacles(state)
    }
}
