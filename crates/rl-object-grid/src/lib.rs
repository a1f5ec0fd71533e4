//! Grid worlds with objects (gym-gridverse's inner world), first incarnated as Farama's
//! MiniGrid: minigrid 3.2.0's environments, exact to it seed for seed.
//!
//! A [`MiniGrid`] is a pure [`Domain`](rl_core::Domain) built from [`MiniGridParams`] (one of
//! minigrid's environment classes, [`EnvParams`], with its keyword arguments, the view size
//! and the time limit; [`MiniGridParams::for_id`] gives every registered id's, listed in
//! [`ids::IDS`]). Its state ([`MiniGridState`]) is compact: the grid is a flat vector of
//! four-byte [`Cell`]s whose first three bytes are minigrid's object encoding. Generation
//! draws from numpy's generator in minigrid's order of calls, so that a seed gives minigrid's
//! grid, and every observation, reward and flag after it.
//!
//! The observation ([`MiniGridObservation`]) is minigrid's: the egocentric `image` (visibility
//! propagated unless the environment sees through walls, the carried object at the agent's
//! cell), the `direction` and the `mission` (shared with the domain's table of missions).
//! [`MiniGrid::write_image`] writes the image straight into a caller's buffer; the domain's
//! [`Domain::step_in_place`](rl_core::Domain::step_in_place) steps a state without
//! allocating, [`Domain::observe_flat_into`](rl_core::Domain::observe_flat_into) writes its
//! flat observation straight into a vector's row and
//! [`Domain::initial_state_into`](rl_core::Domain::initial_state_into) restarts an episode in
//! the state's own memory: a vector built by id steps without allocating.
//! [`MiniGrid::full_encoding`] is minigrid's `FullyObsWrapper` image; the parameter `image`
//! ([`ImageKind`]) puts what minigrid's observation wrappers give in the observation itself
//! (the fully observed encoding, one-hot, or RGB pictures of the agent's view or of the grid
//! at any tile size, pixel for pixel minigrid's), written straight into a vector's rows.
//!
//! [`register`] enters every id in rl-core's registration table ([`registry`]), so that
//! everything keyed by id works with them: `registry::make("MiniGrid-DoorKey-8x8-v0", ...)`,
//! the checker, the `rl` command line, vectors and Python's `gym.make("rlrs/...")`. By id the
//! observations are `Dict(direction, image, mission: Text)` ([`MiniGridObservationSpace`]),
//! the text picture is minigrid's `pprint_grid`, and the RGB frames are minigrid's tile
//! renderer's, pixel for pixel ([`TILE_PIXELS`] a cell).
//!
//! The crate depends on `rl-spaces` and `rl-core` only.
//!
//! # Quick start
//!
//! ```
//! use rl_core::{Environment, Mode, Simulator};
//! use rl_object_grid::{FORWARD, MiniGrid, RIGHT};
//!
//! // minigrid's `gym.make("MiniGrid-Empty-5x5-v0")`, seeded as `reset(seed=3)`.
//! let domain = MiniGrid::for_id("MiniGrid-Empty-5x5-v0")?;
//! let mut env = Simulator::new(domain, 3);
//! let observation = env.reset(Mode::Training)?;
//! assert_eq!(observation.image.len(), 7 * 7 * 3);
//! assert_eq!(&*observation.mission, "get to the green goal square");
//!
//! // The agent starts at (1, 1) facing right; the goal is at (3, 3).
//! let mut reward = 0.0;
//! for action in [FORWARD, FORWARD, RIGHT, FORWARD, FORWARD] {
//!     let outcome = env.step(&action)?;
//!     reward += outcome.reward();
//!     if outcome.is_done() {
//!         assert!(outcome.terminated);
//!         break;
//!     }
//! }
//! // minigrid's reward: 1 - 0.9 * (5 / 100).
//! assert_eq!(reward, 1.0 - 0.9 * (5.0 / 100.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod domain;
pub mod envs;
mod error;
mod frames;
mod generation;
pub mod grid;
pub mod ids;
pub mod image;
pub mod object;
mod observation;
pub mod registry;
mod render;
mod room_grid;
pub mod state;
mod view;

pub use domain::{DONE, DROP, FORWARD, LEFT, MiniGrid, MiniGridParams, PICKUP, RIGHT, TOGGLE};
pub use envs::EnvParams;
pub use error::Error;
pub use frames::TILE_PIXELS;
pub use grid::{Grid, Position};
pub use image::ImageKind;
pub use object::{Cell, Color, DoorState, ObjectKind};
pub use observation::{MISSION_CHARSET, MiniGridObservation, MiniGridObservationSpace};
pub use registry::register;
pub use state::{Direction, MiniGridState, Task};
pub use view::MAX_VIEW_SIZE;
