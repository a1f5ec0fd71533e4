//! Gymnasium 1.4.0's MuJoCo v5 environments, seed for seed equal to Gymnasium's, on the MuJoCo
//! library found at run time.
//!
//! | id | task |
//! |---|---|
//! | `Ant-v5` | [`tasks::ant`] |
//! | `HalfCheetah-v5` | [`tasks::half_cheetah`] |
//! | `Hopper-v5` | [`tasks::hopper`] |
//! | `Humanoid-v5` | [`tasks::humanoid`] |
//! | `HumanoidStandup-v5` | [`tasks::humanoid_standup`] |
//! | `InvertedDoublePendulum-v5` | [`tasks::inverted_double_pendulum`] |
//! | `InvertedPendulum-v5` | [`tasks::inverted_pendulum`] |
//! | `Pusher-v5` | [`tasks::pusher`] |
//! | `Reacher-v5` | [`tasks::reacher`] |
//! | `Swimmer-v5` | [`tasks::swimmer`] |
//! | `Walker2d-v5` | [`tasks::walker2d`] |
//!
//! # The library
//!
//! Nothing is linked at build time: `libmujoco` is opened when the first MuJoCo environment
//! is made ([`library::library`]), from the file named by `RL_MUJOCO_LIBRARY`, else from the
//! Python `mujoco` package (`pip install mujoco`; the `mujoco-core` wheel ships the library
//! alone) of the interpreter named by `RL_MUJOCO_PYTHON`, else of `python3` or `python` on
//! `PATH`. Its version must be one whose struct layout this crate carries (MuJoCo 3.17.0,
//! 4.0.0, 4.0.1: `src/layout_table.rs`, generated from each version's headers by
//! `scripts/mujoco_layout.py`); anything else is refused with the list. Without a library,
//! the ids are still registered and making one is an error that says how to install it.
//!
//! # The models
//!
//! Gymnasium's MJCF files are carried in this crate (`assets/`, MIT, with Gymnasium's
//! licence) and compiled by the loaded library. `xml_file` works as in Gymnasium: the name of
//! one of those files, or a path starting with `.`, `/` or `~` to a model of your own
//! ([`ModelSource`]).
//!
//! # Exactness
//!
//! The step is Gymnasium's `MujocoEnv` (controls set, `mj_step` `frame_skip` times,
//! `mj_rnePostConstraint`), the reset noise comes from rl-core's NumPy generator in
//! Gymnasium's order, and the rewards use NumPy's arithmetic (float32 control costs,
//! pairwise sums, `np.linalg.norm` and `np.einsum` as NumPy computes them on the machine, their
//! products added with one rounding or two as its BLAS kernel or its own build for the
//! processor does, [`NumpyOperation`]; the Python package asks NumPy itself): with the same
//! library, the
//! trajectories are Gymnasium's bit for bit (`tests/traces.rs`: all 11 ids, 3 seeds of 300
//! steps each, against Gymnasium 1.4.0 with mujoco 4.0.0; 4.0.1 gives the same bits).
//!
//! # Limits
//!
//! Frames are drawn by the Python package only: `rlrs` gives these ids Gymnasium's render modes
//! (`"rgb_array"`, `"depth_array"`, `"rgbd_tuple"`, `"human"`) by copying the state into a
//! `mujoco.MjData` of the Python bindings ([`Data::copy_into_raw`], `mj_copyData` of the same
//! library) and drawing it with Gymnasium's own `MujocoRenderer`, so its frames are Gymnasium's
//! pixel for pixel (it needs OpenGL: `MUJOCO_GL=egl` or `osmesa`). From Rust, these ids draw no
//! frames (their registrations declare none: `rl` and rl-experiment show no pictures of them).
//! The infos are JSON numbers (a
//! float32 `reward_ctrl` widens exactly to float64) and lists (the humanoids' tendons); each
//! registration names Gymnasium's Python types for them and for the reward ([`Task::INFO_TYPES`],
//! [`Task::REWARD_TYPE`]: NumPy `float64` and `float32` scalars, `float64` arrays, the odd
//! Python `float` or `int`, those of the default keyword arguments), which the Python package
//! gives them, single and vector. The reset infos ([`Task::reset_info`]) reach the Python package's
//! single environment and vectors (rl-wrappers' vectors by id report them as Gymnasium's
//! `SyncVectorEnv` does, autoresets included). Vectors by id carry float64 observation rows
//! for these ids (rl-wrappers' `make_vector::<AnyElement, f64>`, which the Python `RustVectorEnv` chooses for
//! a float64 Box: `needs_f64_rows`), so their observations are Gymnasium's bit for bit, as a
//! single environment's are (`tests/batch.rs`); `make_vector`'s `f32` rows round them.
//!
//! ```
//! use rl_core::{Environment, Mode};
//!
//! rl_mujoco::register();
//! match rl_core::registry::make("Hopper-v5", None) {
//!     Ok(mut env) => {
//!         env.seed(0);
//!         env.reset(Mode::Training)?;
//!     }
//!     // Without MuJoCo: the error says how to get it.
//!     Err(error) => assert!(error.to_string().contains("pip install mujoco"), "{error}"),
//! }
//! # Ok::<(), rl_core::CoreError>(())
//! ```

mod assets;
mod environment;
mod error;
mod layout;
mod layout_table;
pub mod library;
mod numpy_math;
mod params;
pub mod registry;
mod simulation;
pub mod tasks;

pub use assets::{ModelSource, asset, asset_names};
pub use environment::{MujocoDomain, Setup, Task};
pub use error::MujocoError;
pub use numpy_math::{Accumulation, NumpyOperation, accumulation, set_accumulation};
pub use registry::register;
pub use simulation::{Data, Model, Sizes};
