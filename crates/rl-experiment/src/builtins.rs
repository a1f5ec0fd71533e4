//! Every built-in id, whichever crate registers it: `rl-domains`' (Gymnasium's classic
//! control and toy text, RLPy's GridWorld), `rl-object-grid`'s (minigrid's `MiniGrid-*` and
//! `BabyAI-*` ids) and `rl-mujoco`'s (Gymnasium's MuJoCo v5 ids). The command line, the
//! experiments and the videos read rl-core's table through these functions, which register
//! them all first.
//!
//! The MuJoCo ids are listed everywhere, but building one needs the MuJoCo library, found at
//! run time (`rl_mujoco::library`): without it, making one is an error that says how to get
//! it (`pip install mujoco`). They draw no frames from Rust (the Python package draws them).
//!
//! ```
//! let ids = rl_experiment::builtins::ids();
//! assert!(ids.iter().any(|id| id == "CartPole-v1"));
//! assert!(ids.iter().any(|id| id == "MiniGrid-DoorKey-8x8-v0"));
//! assert!(ids.iter().any(|id| id == "Hopper-v5"));
//! ```

use rl_core::registry::{self as table, RegisteredDomain, RegistryEntry};
use rl_core::{BoxedEnvironment, CoreError};
use serde_json::Value;

/// Registers every built-in id (`rl_domains::register_builtins`, `rl_object_grid::register`
/// and `rl_mujoco::register`). Only the first call registers; later calls do nothing.
pub fn register_builtins() {
    rl_domains::register_builtins();
    rl_object_grid::register();
    rl_mujoco::register();
}

/// Every registered id (built-ins registered first) with its one-line description, in
/// registration order.
pub fn list() -> Vec<RegistryEntry> {
    register_builtins();
    table::list()
}

/// Every registered id (built-ins registered first), in the order of [`list`].
pub fn ids() -> Vec<String> {
    register_builtins();
    table::ids()
}

/// The domain registered under `id` (built-ins registered first), with `params` over its
/// defaults.
pub fn build(id: &str, params: Option<&Value>) -> Result<Box<dyn RegisteredDomain>, CoreError> {
    register_builtins();
    table::build(id, params)
}

/// The environment registered under `id` (built-ins registered first), with `params` over
/// its defaults, seeded with 0.
pub fn make(id: &str, params: Option<&Value>) -> Result<BoxedEnvironment, CoreError> {
    register_builtins();
    table::make(id, params)
}
