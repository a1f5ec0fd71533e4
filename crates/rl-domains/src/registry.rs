//! The built-in ids: every domain of this crate registered under a Gymnasium-style id in
//! `rl-core`'s table ([`rl_core::registry`]), through the same public call a user makes
//! ([`Registration::register`]), and helpers that register them before building by id.
//!
//! # Ids
//!
//! | id | domain | defaults |
//! |---|---|---|
//! | `CartPole-v1` | [`CartPole`] | [`CartPoleParams::default`] |
//! | `MountainCar-v0` | [`MountainCar`] | [`MountainCarParams::default`] |
//! | `MountainCarContinuous-v0` | [`MountainCarContinuous`] | [`MountainCarContinuousParams::default`] |
//! | `Acrobot-v1` | [`Acrobot`] | [`AcrobotParams::default`] |
//! | `Pendulum-v1` | [`Pendulum`] | [`PendulumParams::default`] |
//! | `GridWorld-<map>` | [`GridWorld`] on the built-in map `<map>` | [`GridWorldParams::default`] |
//!
//! `<map>` is the file name of one of RLPy's 14 maps without `.txt`, as
//! [`GridMap::builtin_names`] lists them: `GridWorld-4x5`, `GridWorld-10x10-12ftml`,
//! `GridWorld-11x11-Rooms`, ... [`list`] gives every id with a one-line description.
//!
//! # Parameters
//!
//! The parameters are a JSON object of the fields of the domain's `Params` struct; fields
//! left out keep their defaults, an unknown field is an error that names it
//! ([`CoreError::InvalidParameters`], with the JSON path of the bad value), and values the
//! domain rejects are [`CoreError::InvalidDomain`]. `None` and JSON `null` mean the defaults.
//!
//! # Environments
//!
//! [`make`] returns a [`BoxedEnvironment`]: a [`Simulator`](rl_core::Simulator) of the domain
//! behind [`DynamicEnvironment`](rl_core::DynamicEnvironment), whose observations and actions
//! are [`AnyElement`]s
//! (`rl_spaces::AnyElement`):
//!
//! | domain | observation | action |
//! |---|---|---|
//! | CartPole | `f32` array of 4 | `Int` in `Discrete(2)` |
//! | MountainCar | `f32` array of 2 | `Int` in `Discrete(3)` |
//! | MountainCarContinuous | `f32` array of 2 | `f32` array of 1 in `Box(-1, 1)` |
//! | Acrobot | `f32` array of 6 | `Int` in `Discrete(3)` |
//! | Pendulum | `f32` array of 3 | `f32` array of 1 in `Box(-2, 2)` |
//! | GridWorld | `i64` array `[row, col]` in `MultiDiscrete([rows, cols])`, whose index is the state index `row * cols + col` | `Int` in `Discrete(4)` |
//!
//! Its generator is seeded with 0; call [`Environment::seed`](rl_core::Environment::seed)
//! before the first reset. For the typed domain (to plan with [`GridWorld`]'s enumerable
//! transitions, say), downcast [`build`]'s result or use [`gridworld_from_id`].
//!
//! Each built-in also carries the settings `rl run` uses by default (agent, step budget,
//! agent parameters) in [`RegistryEntry::settings`](rl_core::registry::RegistryEntry), and
//! `learning_threshold`, the final mean evaluation return `rl run --domain ID` with those
//! defaults must reach (rl-experiment's learning table reads it from here): a number, or for
//! FrozenLake, CliffWalking and Taxi `{"fraction_of_optimum": 0.9}`, 90% of the optimum that
//! value iteration computes from the transition model (`rl_experiment::criterion`); and
//! `checks_per_policy` where evaluation returns are noisy (FrozenLake, CliffWalkingSlippery and
//! Taxi 125, Blackjack 1250: 8 runs then make 1000 and 10 000 evaluation episodes at the last
//! check). Taxi also carries `info_action_mask` (each info holds the action mask, as
//! Gymnasium's); the toy text's reset info (`{"prob": 1}`) is its domains'
//! [`Domain::reset_info`](rl_core::Domain::reset_info).
//!
//! [`AnyElement`]: rl_spaces::AnyElement
//!
//! ```
//! use rl_core::{Environment, Mode};
//! use rl_spaces::{AnyElement, FiniteSpace};
//!
//! let mut env = rl_domains::registry::make("GridWorld-4x5", Some(&serde_json::json!({"noise": 0.0})))?;
//! env.seed(42);
//! let first = env.reset(Mode::Training)?;
//! let state_index = env.observation_space().index_of(&first);
//! assert_eq!(state_index, Some(15)); // the start cell [3, 0] of the 4 by 5 grid
//! let outcome = env.step(&AnyElement::Int(0))?; // up
//! assert_eq!(env.observation_space().index_of(&outcome.observation), Some(10));
//!
//! let error = rl_domains::registry::make("CartPole-v0", None).err().map(|e| e.to_string());
//! assert!(error.is_some_and(|message| message.contains("CartPole-v1")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rl_core::registry::{self as table, RegisteredDomain, Registration, RegistryEntry};
use rl_core::{BoxedEnvironment, CoreError};
use serde_json::{Value, json};

use crate::acrobot::{Acrobot, AcrobotParams};
use crate::cartpole::{CartPole, CartPoleParams};
use crate::cartpole_fast::FastCartPole;
use crate::gridworld::{CellKind, GridMap, GridWorld, GridWorldParams};
use crate::mountain_car::{MountainCar, MountainCarParams};
use crate::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};
use crate::pendulum::{Pendulum, PendulumParams};
use crate::toy_text::blackjack::{Blackjack, BlackjackParams};
use crate::toy_text::cliff_walking::{
    CliffWalking, CliffWalkingParams, CliffWalkingSlipperyParams,
};
use crate::toy_text::frozen_lake::{FrozenLake, FrozenLake8x8Params, FrozenLakeParams};
use crate::toy_text::taxi::{Taxi, TaxiParams};

/// The documentation of each family: the file its domain type's rustdoc includes, which its
/// registrations carry for the environment catalogue.
mod docs {
    use rl_core::registry::Documentation;

    pub(super) const CARTPOLE: Documentation =
        Documentation::new("CartPole", &[include_str!("cartpole.md")]);
    pub(super) const MOUNTAIN_CAR: Documentation =
        Documentation::new("MountainCar", &[include_str!("mountain_car.md")]);
    pub(super) const MOUNTAIN_CAR_CONTINUOUS: Documentation = Documentation::new(
        "MountainCarContinuous",
        &[include_str!("mountain_car_continuous.md")],
    );
    pub(super) const ACROBOT: Documentation =
        Documentation::new("Acrobot", &[include_str!("acrobot.md")]);
    pub(super) const PENDULUM: Documentation =
        Documentation::new("Pendulum", &[include_str!("pendulum.md")]);
    pub(super) const FAST_CARTPOLE: Documentation =
        Documentation::new("FastCartPole", &[include_str!("cartpole_fast.md")]);
    pub(super) const FROZEN_LAKE: Documentation =
        Documentation::new("FrozenLake", &[include_str!("toy_text/frozen_lake.md")]);
    pub(super) const CLIFF_WALKING: Documentation =
        Documentation::new("CliffWalking", &[include_str!("toy_text/cliff_walking.md")]);
    pub(super) const TAXI: Documentation =
        Documentation::new("Taxi", &[include_str!("toy_text/taxi.md")]);
    pub(super) const BLACKJACK: Documentation =
        Documentation::new("Blackjack", &[include_str!("toy_text/blackjack.md")]);
    pub(super) const GRIDWORLD: Documentation =
        Documentation::new("GridWorld", &[include_str!("gridworld/gridworld.md")]);
}

/// The id of CartPole.
pub const CARTPOLE_ID: &str = "CartPole-v1";
/// The id of MountainCar.
pub const MOUNTAIN_CAR_ID: &str = "MountainCar-v0";
/// The id of MountainCarContinuous.
pub const MOUNTAIN_CAR_CONTINUOUS_ID: &str = "MountainCarContinuous-v0";
/// The id of Acrobot.
pub const ACROBOT_ID: &str = "Acrobot-v1";
/// The id of Pendulum.
pub const PENDULUM_ID: &str = "Pendulum-v1";
/// The id of [`FastCartPole`]: CartPole in float32 with polynomial sine and cosine, close to
/// `CartPole-v1` but **not** bit-exact with Gymnasium.
pub const FAST_CARTPOLE_ID: &str = "FastCartPole-v1";
/// The id of FrozenLake on its 4 by 4 map.
pub const FROZEN_LAKE_ID: &str = "FrozenLake-v1";
/// The id of FrozenLake on its 8 by 8 map.
pub const FROZEN_LAKE_8X8_ID: &str = "FrozenLake8x8-v1";
/// The id of CliffWalking.
pub const CLIFF_WALKING_ID: &str = "CliffWalking-v1";
/// The id of CliffWalking with slippery moves.
pub const CLIFF_WALKING_SLIPPERY_ID: &str = "CliffWalkingSlippery-v1";
/// The id of Taxi.
pub const TAXI_ID: &str = "Taxi-v4";
/// The id of Blackjack.
pub const BLACKJACK_ID: &str = "Blackjack-v1";
/// The prefix of the GridWorld ids, followed by a built-in map's name.
pub const GRIDWORLD_PREFIX: &str = "GridWorld-";

/// Registers every built-in id in `rl-core`'s table (the five Gymnasium domains, the fast
/// float32 CartPole ([`FAST_CARTPOLE_ID`]), then one
/// GridWorld per built-in map in name order). Only the first call registers; later calls do
/// nothing, so every entry point may call it.
///
/// ```
/// rl_domains::register_builtins();
/// assert!(rl_core::registry::contains("CartPole-v1"));
/// assert!(rl_core::registry::contains("GridWorld-4x5"));
/// ```
pub fn register_builtins() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        for result in register_all() {
            // Only a user who registered one of our ids first can make this fail; their entry
            // then stays, and building that id builds theirs.
            debug_assert!(result.is_ok(), "built-in registration failed: {result:?}");
            let _ = result;
        }
    });
}

/// The `rl run` defaults of CartPole and of its fast variant.
fn cartpole_settings() -> Value {
    json!({
        "agent": "linear-sarsa",
        "render_fps": 50,
        // 100 000 steps reached 475 (the threshold of rl-experiment's learning table) for
        // only 3 of 6 master seeds once the environments drew from numpy's generator; with
        // 200 000, master seeds 1 to 8 end between 494 and 500 (mean over 8 runs).
        "max_steps": 200_000,
        "learning_threshold": 475.0,
        "success": "truncated",
        // The velocities are unbounded in the observation space, so the tile coder gets
        // Sutton and Barto's usual ranges.
        "agent_params": {
            "linear-": {"bounds": [[-2.4, 2.4], [-3.0, 3.0], [-0.21, 0.21], [-3.5, 3.5]]}
        }
    })
}

fn register_all() -> Vec<Result<(), CoreError>> {
    let mut results = vec![
        Registration::new(
            CARTPOLE_ID,
            "Gymnasium 1.4.0 CartPole-v1: push a cart left or right to balance a pole \
             (Discrete(2) actions, 4 float32 observations, 500 steps)",
            |params: CartPoleParams| CartPole::new(params),
        )
        .with_kernel()
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::CARTPOLE)
        .with_settings(cartpole_settings())
        .register(),
        Registration::new(
            MOUNTAIN_CAR_ID,
            "Gymnasium 1.4.0 MountainCar-v0: rock an underpowered car up a hill \
             (Discrete(3) actions, 2 float32 observations, 200 steps)",
            |params: MountainCarParams| MountainCar::new(params),
        )
        .with_kernel()
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::MOUNTAIN_CAR)
        .with_settings(
            json!({"render_fps": 30, "agent": "linear-sarsa", "max_steps": 60_000, "learning_threshold": -130.0, "success": "terminated"}),
        )
        .register(),
        Registration::new(
            MOUNTAIN_CAR_CONTINUOUS_ID,
            "Gymnasium 1.4.0 MountainCarContinuous-v0: the same hill with a continuous force \
             in [-1, 1] and an energy penalty (999 steps)",
            |params: MountainCarContinuousParams| MountainCarContinuous::new(params),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::MOUNTAIN_CAR_CONTINUOUS)
        // The tile-coding agents control the force discretised into 5 values (see
        // `rl_experiment::catalog`); finer tiles than the default 8 keep every run reaching
        // the hilltop rather than settling on pushing nothing (measured: 8 tiles leave one run
        // of 8 at the bottom after 100 000 steps and more after 200 000).
        .with_settings(json!({
            "render_fps": 30,
            "agent": "linear-sarsa",
            "max_steps": 200_000,
            "learning_threshold": 0.0,
            "discretize_bins": 5,
            "success": "terminated",
            "agent_params": {"linear-": {"tiles": 10}}
        }))
        .register(),
        Registration::new(
            ACROBOT_ID,
            "Gymnasium 1.4.0 Acrobot-v1: swing a two-link chain's tip above a line \
             (Discrete(3) torques, 6 float32 observations, 500 steps)",
            |params: AcrobotParams| Acrobot::new(params),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::ACROBOT)
        // Fewer, wider tiles and 16 tilings generalise over the six observations; the greedy
        // policy explores enough with all values starting at 0 (optimistic, as every reward
        // is -1 or 0).
        .with_settings(json!({
            "render_fps": 15,
            "agent": "linear-sarsa",
            "max_steps": 100_000,
            "learning_threshold": -150.0,
            "success": "terminated",
            "agent_params": {"linear-": {"tiles": 4, "tilings": 16, "epsilon": 0.0}}
        }))
        .register(),
        Registration::new(
            PENDULUM_ID,
            "Gymnasium 1.4.0 Pendulum-v1: swing a pendulum up and hold it upright \
             (a torque in [-2, 2], 3 float32 observations, 200 steps)",
            |params: PendulumParams| Pendulum::new(params),
        )
        .with_render()
        .with_state()
        // Its environments with frames draw Gymnasium's arrow of the last torque
        // (`RenderFrame::draw_frame_after`).
        .with_frames()
        .with_documentation(docs::PENDULUM)
        // The torque is discretised into 5 values; the episodes never terminate (only the
        // time limit ends them), so learning discounts by 0.99 to keep the values bounded.
        .with_settings(json!({
            "render_fps": 30,
            "agent": "linear-sarsa",
            "max_steps": 100_000,
            "learning_threshold": -400.0,
            "discretize_bins": 5,
            "agent_params": {"linear-": {"discount": 0.99}}
        }))
        .register(),
        Registration::new(
            FAST_CARTPOLE_ID,
            "CartPole-v1 in float32 with polynomial sine and cosine, for fast training: close to \
             Gymnasium's but NOT bit-exact (Discrete(2) actions, 4 float32 observations, 500 steps)",
            |params: CartPoleParams| FastCartPole::new(params),
        )
        .with_kernel()
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::FAST_CARTPOLE)
        .with_settings(cartpole_settings())
        .register(),
        Registration::new(
            FROZEN_LAKE_ID,
            "Gymnasium 1.4.0 FrozenLake-v1: cross a frozen lake to the goal without falling into \
             a hole, slipping sideways 2 times in 3 (Discrete(4) actions, 16 cells, 100 steps)",
            |params: FrozenLakeParams| FrozenLake::new(params),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::FROZEN_LAKE)
        .with_transitions()
        // Undiscounted, with its reward only at the goal: Q-learning's greedy policy heads
        // there with a discount below 1 (measured: 0.74 with 0.99 against 0.53 with 1), but
        // with 0.99 it takes risks to be fast that cost it within the 100 steps (0.698 over
        // 1000 evaluation episodes, against the optimum 0.744). With 0.995, optimistic initial
        // values (1, the goal's reward: every pair is tried) and a smaller step size (0.05,
        // steadier values on slippery ice) the greedy policy gets 0.761 (rl-experiment's
        // learning table asks 90% of the optimum; the 125 evaluation episodes per check of 8
        // runs make 1000 at the last check, enough to tell 0.67 from 0.74).
        .with_settings(json!({
            "render_fps": 4,
            "agent": "q-learning",
            "max_steps": 100_000,
            "learning_threshold": {"fraction_of_optimum": 0.9},
            "checks_per_policy": 125,
            "agent_params": {
                "q-learning": {"discount": 0.995, "learning_rate": 0.05, "initial_value": 1.0},
                "sarsa": {"discount": 0.995, "learning_rate": 0.05, "initial_value": 1.0}
            }
        }))
        .register(),
        Registration::new(
            FROZEN_LAKE_8X8_ID,
            "Gymnasium 1.4.0 FrozenLake8x8-v1: FrozenLake on its 8 by 8 map (64 cells, 200 steps)",
            |params: FrozenLake8x8Params| FrozenLake::new(params.into()),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::FROZEN_LAKE)
        .with_transitions()
        // As FrozenLake-v1's, with a discount nearer 1 for the longer way (0.99 learns a
        // policy that the 200 steps cut less often but that falls more: 0.787 after 400 000
        // steps, against the optimum 0.913) and twice the budget: 0.875.
        .with_settings(json!({
            "render_fps": 4,
            "agent": "q-learning",
            "max_steps": 800_000,
            "learning_threshold": {"fraction_of_optimum": 0.9},
            "checks_per_policy": 125,
            "agent_params": {
                "q-learning": {"discount": 0.998, "learning_rate": 0.05, "initial_value": 1.0},
                "sarsa": {"discount": 0.998, "learning_rate": 0.05, "initial_value": 1.0}
            }
        }))
        .register(),
        Registration::new(
            CLIFF_WALKING_ID,
            "Gymnasium 1.4.0 CliffWalking-v1: walk along a cliff to the goal, -1 per step and \
             -100 for a fall back to the start (Discrete(4) actions, 48 cells)",
            |params: CliffWalkingParams| CliffWalking::new(params),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::CLIFF_WALKING)
        .with_transitions()
        .with_settings(json!({
            "render_fps": 4,
            "agent": "q-learning",
            "max_steps": 20_000,
            "learning_threshold": {"fraction_of_optimum": 0.9},
            "success": "terminated"
        }))
        .register(),
        Registration::new(
            CLIFF_WALKING_SLIPPERY_ID,
            "Gymnasium 1.4.0 CliffWalkingSlippery-v1: CliffWalking where a move slips sideways \
             2 times in 3",
            |params: CliffWalkingSlipperyParams| CliffWalking::new(params.into()),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::CLIFF_WALKING)
        .with_transitions()
        // A smaller step size than the default 0.1 steadies the values on slippery moves
        // (measured, mean over 1000 evaluation episodes against the optimum -64.7: -70.4
        // with 0.1 after 200 000 steps, -67.0 with 0.05 after 400 000).
        .with_settings(json!({
            "render_fps": 4,
            "agent": "q-learning",
            "max_steps": 400_000,
            "learning_threshold": {"fraction_of_optimum": 0.9},
            "checks_per_policy": 125,
            "success": "terminated",
            "agent_params": {"q-learning": {"learning_rate": 0.05}, "sarsa": {"learning_rate": 0.05}}
        }))
        .register(),
        Registration::new(
            TAXI_ID,
            "Gymnasium 1.4.0 Taxi-v4: drive a taxi to pick a passenger up and drop them at \
             their destination (Discrete(6) actions, 500 states, 200 steps)",
            |params: TaxiParams| Taxi::new(params),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::TAXI)
        .with_transitions()
        .with_settings(json!({
            "render_fps": 4,
            "agent": "q-learning",
            "max_steps": 100_000,
            "learning_threshold": {"fraction_of_optimum": 0.9},
            "checks_per_policy": 125,
            "success": "terminated",
            "info_action_mask": true
        }))
        .register(),
        Registration::new(
            BLACKJACK_ID,
            "Gymnasium 1.4.0 Blackjack-v1: hit or stick against a dealer who draws to 17 \
             (Discrete(2) actions, Tuple(Discrete(32), Discrete(11), Discrete(2)) observations)",
            |params: BlackjackParams| Blackjack::new(params),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::BLACKJACK)
        // Issue 28's criterion: at least -0.10 over 10^4 evaluation episodes (a random policy
        // gets about -0.4), so 1250 episodes per check of 8 runs (measured: -0.065).
        .with_settings(json!({
            "render_fps": 4,
            "agent": "q-learning",
            "max_steps": 200_000,
            "learning_threshold": -0.1,
            "checks_per_policy": 1250
        }))
        .register(),
    ];
    for name in GridMap::builtin_names() {
        let registration = Registration::new(
            format!("{GRIDWORLD_PREFIX}{name}"),
            gridworld_description(name),
            move |params: GridWorldParams| GridWorld::builtin(name, params),
        )
        .with_render()
        .with_state()
        .with_frames()
        .with_documentation(docs::GRIDWORLD)
        .with_transitions()
        .with_settings(json!({
            "agent": "q-learning",
            "max_steps": gridworld_budget(name),
            "learning_threshold": 0.5
        }));
        results.push(registration.register());
    }
    results
}

/// The step budget `rl run` uses on a built-in GridWorld map: 20 000 steps, enough for
/// Q-learning's greedy policy to reach the goal from the start on every map but two (measured
/// with `rl run`'s 8 runs of seed 1): the rooms of 11x11-Rooms, whose doors the agent finds
/// late, and the pits of 10x7-ACC2011, next to which its path stays risky, need 200 000.
fn gridworld_budget(name: &str) -> u64 {
    match name {
        "11x11-Rooms" | "10x7-ACC2011" => 200_000,
        _ => 20_000,
    }
}

fn gridworld_description(name: &str) -> String {
    match GridMap::builtin(name) {
        Ok(map) => {
            let count = |kind, noun: &str| {
                let count = map.cells().iter().filter(|cell| **cell == kind).count();
                let plural = if count == 1 { "" } else { "s" };
                format!("{count} {noun}{plural}")
            };
            format!(
                "RLPy 1.3.6 GridWorld on map {name}: {} by {} cells, {}, {} \
                 (Discrete(4) actions, noise 0.1, discount 0.9, 1000 steps)",
                map.rows(),
                map.cols(),
                count(CellKind::Goal, "goal"),
                count(CellKind::Pit, "pit")
            )
        }
        Err(error) => format!("RLPy 1.3.6 GridWorld on map {name} (unreadable: {error})"),
    }
}

/// Every registered id (built-ins registered first) with its one-line description.
pub fn list() -> Vec<RegistryEntry> {
    register_builtins();
    table::list()
}

/// Every registered id (built-ins registered first), in the order of [`list`].
pub fn ids() -> Vec<String> {
    register_builtins();
    table::ids()
}

/// The domain registered under `id` (built-ins registered first), with `params` overriding
/// its defaults (see the [module documentation](self)).
pub fn build(id: &str, params: Option<&Value>) -> Result<Box<dyn RegisteredDomain>, CoreError> {
    register_builtins();
    table::build(id, params)
}

/// The environment registered under `id` (built-ins registered first), with `params`
/// overriding its defaults, as a [`BoxedEnvironment`] seeded with 0 (see the
/// [module documentation](self)).
///
/// Fails with [`CoreError::UnknownId`], listing every known id, for an unknown id.
pub fn make(id: &str, params: Option<&Value>) -> Result<BoxedEnvironment, CoreError> {
    register_builtins();
    table::make(id, params)
}

/// The [`GridWorld`] registered under `id` (`GridWorld-<map>`, or a user's id whose domain
/// is a `GridWorld`), with `params` overriding its defaults; for planners that need its
/// enumerable transitions. Fails with [`CoreError::UnknownId`] for an id that is not
/// registered or whose domain is not a GridWorld.
pub fn gridworld_from_id(id: &str, params: Option<&Value>) -> Result<GridWorld, CoreError> {
    let domain = build(id, params)?;
    domain
        .as_any()
        .downcast_ref::<GridWorld>()
        .cloned()
        .ok_or_else(|| CoreError::UnknownId {
            id: id.to_owned(),
            known: ids()
                .into_iter()
                .filter(|known| {
                    build(known, None)
                        .is_ok_and(|domain| domain.as_any().downcast_ref::<GridWorld>().is_some())
                })
                .collect(),
        })
}
