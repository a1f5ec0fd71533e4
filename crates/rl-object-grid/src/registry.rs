//! minigrid's ids in rl-core's registration table ([`rl_core::registry`]): [`register`] enters
//! every id of [`IDS`] through the same public call a user makes
//! ([`Registration::register`]), from one table of ids (`ids.rs`).
//!
//! # Parameters
//!
//! The JSON parameters given by id are read over the id's own defaults
//! ([`MiniGridParams::for_id_with`]): `{"agent_view_size": 5}`, `{"max_steps": 100}`,
//! `{"see_through_walls": true}`, the environment's own flat as minigrid's constructors take
//! them (`{"size": 6}`, MultiRoom's `{"minNumRooms": 2}`) or nested under its class,
//! `{"env": {"door_key": {"size": 6}}}`, and what the observation's image holds
//! (`{"image": "rgb_partial", "image_tile_size": 8}`: minigrid's observation wrappers written
//! by the domain, [`ImageKind`](crate::ImageKind)). A value that does not read is an error
//! naming its JSON path; a value the environment cannot work with names the parameter.
//!
//! # What each id declares
//!
//! The state as JSON (`with_state`), the text picture of minigrid's `pprint_grid`
//! (`with_render`, with an SVG of the same tiles), RGB frames of the tile renderer
//! (`with_frames`, [`MiniGrid::frame_size`](rl_core::RenderFrame::frame_size): 32 pixels a
//! tile, minigrid's `render_mode="rgb_array"`), and settings for `rl run`: the `q-learning`
//! agent, which keys its table by the observation (image, direction and mission), a step
//! budget and, for the ids it learns with them, a `learning_threshold` (see
//! [`LEARNED`]); the other ids carry `"learning_threshold": null` (no learning claim for the
//! default agent).
//!
//! ```
//! use rl_core::{Environment, Mode};
//! use rl_spaces::Space;
//!
//! rl_object_grid::register();
//! let mut env = rl_core::registry::make("MiniGrid-DoorKey-8x8-v0", None)?;
//! env.seed(1);
//! let observation = env.reset(Mode::Training)?;
//! assert_eq!(
//!     env.observation_space().to_string(),
//!     "Dict(\"direction\": Discrete(4), \"image\": Box(0, 255, (7, 7, 3), uint8), \
//!      \"mission\": Text(53, 53, charset= ,abcdefghijklmnopqrstuvwxyz))"
//! );
//! assert!(env.observation_space().contains(&observation));
//!
//! // Parameters are JSON read over the id's defaults; errors name the JSON path.
//! let small = rl_core::registry::make("MiniGrid-DoorKey-8x8-v0", Some(&serde_json::json!({"agent_view_size": 5})));
//! assert!(small.is_ok());
//! let error = rl_core::registry::make(
//!     "MiniGrid-DoorKey-8x8-v0",
//!     Some(&serde_json::json!({"env": {"door_key": {"size": "big"}}})),
//! );
//! assert!(error.err().is_some_and(|e| e.to_string().contains("env.door_key.size")));
//! # Ok::<(), rl_core::CoreError>(())
//! ```

use rl_core::registry::Registration;
use serde_json::{Value, json};

use crate::ids::IDS;
use crate::{MiniGrid, MiniGridParams};

/// The ids `rl run --domain ID` learns with its defaults (the `q-learning` agent keyed by the
/// observation), with the step budget and the final mean greedy return it reaches
/// (`learning_threshold`, checked by rl-experiment's learning test), MiniGrid's and BabyAI's.
///
/// BabyAI-GoToObjS4-v0 (go to the one object in a room of 2 by 2 free cells; the mission names
/// it): 8 runs of 50 000 steps with master seed 1 reach a mean greedy return of about 0.82 (a
/// step or two, then `done`: at most about 0.84), every evaluation episode a success, from
/// 0.13 for the untrained policy. The larger BabyAI rooms are beyond a table keyed by the
/// partial view: after 10^6 steps (`rl run --domain ID --max-steps 1000000`)
/// GoToRedBallNoDists-v0 (6 by 6 free cells) ends at 0.20 and GoToObj-v0 at 0.15, as many
/// positions look alike while the object is out of view and the greedy policy then loops.
pub const LEARNED: [(&str, u64, f64); 3] = [
    ("MiniGrid-Empty-5x5-v0", 20_000, 0.8),
    ("MiniGrid-DoorKey-5x5-v0", 300_000, 0.8),
    ("BabyAI-GoToObjS4-v0", 50_000, 0.8),
];

/// minigrid 3.2.0's registered keyword arguments of every id of this crate (MiniGrid's and
/// BabyAI's): the `kwargs` of its `gymnasium.register` calls, written by
/// `scripts/minigrid_kwargs.py` from the live package.
const MINIGRID_KWARGS: &str = include_str!("minigrid_kwargs.json");

/// minigrid 3.2.0's registered keyword arguments of `id` (`{"size": 8}` for
/// MiniGrid-DoorKey-8x8-v0, `{"room_size": 5, "num_dists": 2}` for BabyAI-GoToLocalS5N2-v0,
/// `{}` for an id registered without any), `None` for an id this crate does not implement. The
/// registrations carry them as the setting `gymnasium_kwargs`, which the Python package gives
/// its specs (their `kwargs` are then minigrid's), and every id's parameters take them as they
/// are (BabyAI's level parameters flat, as minigrid's classes take them).
///
/// ```
/// let kwargs = rl_object_grid::registry::minigrid_kwargs("MiniGrid-DoorKey-8x8-v0");
/// assert_eq!(kwargs, Some(serde_json::json!({"size": 8})));
/// ```
pub fn minigrid_kwargs(id: &str) -> Option<Value> {
    static TABLE: std::sync::OnceLock<serde_json::Map<String, Value>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| match serde_json::from_str(MINIGRID_KWARGS) {
            Ok(Value::Object(table)) => table,
            // The file is generated and checked by the crate's tests: never reached.
            _ => serde_json::Map::new(),
        })
        .get(id)
        .cloned()
}

/// The step budget of `rl run` on the ids outside [`LEARNED`].
const DEFAULT_BUDGET: u64 = 100_000;

/// Registers every id of [`IDS`] and every BabyAI id
/// ([`babyai::ids::IDS`](crate::babyai::ids::IDS)) in rl-core's table. Only the first call
/// registers; later calls do nothing, so every entry point may call it.
///
/// ```
/// rl_object_grid::register();
/// assert!(rl_core::registry::contains("MiniGrid-FourRooms-v0"));
/// assert_eq!(rl_core::registry::id_prefix("MiniGrid-FourRooms-v0"), "MiniGrid");
/// ```
pub fn register() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        for id in IDS {
            let result = registration(id).map(Registration::register);
            // Only a user who registered one of these ids first can make this fail; their
            // entry then stays.
            debug_assert!(
                matches!(result, Some(Ok(()))),
                "registering {id} failed: {result:?}"
            );
        }
        crate::babyai::register_all();
    });
}

/// The registration of one id, or `None` for an id this crate does not know.
fn registration(id: &'static str) -> Option<Registration<MiniGrid>> {
    let domain = MiniGrid::for_id(id).ok()?;
    Some(
        Registration::new(id, description(id, &domain), move |overrides: Value| {
            MiniGridParams::for_id_with(id, &overrides).and_then(MiniGrid::new)
        })
        .with_state()
        .with_render()
        .with_frames()
        .with_documentation(domain.params().env.documentation())
        .with_settings(settings(id)),
    )
}

/// The `rl run` settings of an id.
fn settings(id: &str) -> Value {
    let learned = LEARNED.iter().find(|(learned, ..)| *learned == id);
    let (budget, threshold) = match learned {
        Some(&(_, budget, threshold)) => (budget, Some(threshold)),
        None => (DEFAULT_BUDGET, None),
    };
    json!({
        "agent": "q-learning",
        "max_steps": budget,
        "learning_threshold": threshold,
        "success": "terminated",
        "gymnasium_kwargs": minigrid_kwargs(id),
        // minigrid's metadata["render_fps"].
        "render_fps": 10,
        // minigrid's reward shrinks with the steps taken, but the step count is not observed,
        // and an undiscounted target values a long way to the goal as much as a short one: a
        // discount of 0.9 and a step size of 0.2 (measured on DoorKey-5x5 with 8 runs of
        // 300 000 steps: final mean greedy return 0.87, against 0.55 with 0.99 and 0.1 at
        // 100 000 steps and 0.83 with 0.9 and 0.1 at 300 000).
        "agent_params": {
            "q-learning": {"discount": 0.9, "learning_rate": 0.2},
            "sarsa": {"discount": 0.9, "learning_rate": 0.2}
        }
    })
}

/// The one-line description of an id: its task, grid, actions, view and time limit.
fn description(id: &str, domain: &MiniGrid) -> String {
    let (width, height) = domain.grid_size();
    let view = domain.view_size();
    format!(
        "minigrid 3.2.0 {id}: {} ({width}x{height} grid, Discrete({}) actions, {view}x{view} \
         view, {} steps)",
        domain.params().env.task(),
        rl_core::Domain::action_space(domain).n(),
        domain.max_steps()
    )
}
