//! Pure, exact dynamics of classic reinforcement-learning domains, and a replay checker
//! for reference traces.
//!
//! Each domain is a set of allocation-free functions on plain `Copy` structs: a
//! parameter struct (with `Default` giving the reference values and a `validate`
//! method), a state, and a step function that reproduces the reference implementation
//! bit for bit.
//!
//! | module | domain | reference |
//! |---|---|---|
//! | [`cartpole`] | CartPole (Euler, semi-implicit Euler, Sutton and Barto reward) | Gymnasium 1.4.0 `CartPole-v1` |
//! | [`mountain_car`] | MountainCar | Gymnasium 1.4.0 `MountainCar-v0` |
//! | [`mountain_car_continuous`] | MountainCarContinuous, with its float32 arithmetic | Gymnasium 1.4.0 `MountainCarContinuous-v0` |
//! | [`gridworld`] | GridWorld with RLPy's maps | RLPy 1.3.6 `GridWorld` |
//!
//! The [`reference`](mod@reference) module reads the reference trace files of
//! `testdata/reference/` and replays them against these functions.
//!
//! # Quick start
//!
//! ```
//! use rl_domains::cartpole::{cartpole_step, CartPoleParams, CartPoleState};
//!
//! let params = CartPoleParams::default();
//! let mut state = CartPoleState::from_array([0.01, 0.0, -0.02, 0.0]);
//! let mut steps = 0;
//! loop {
//!     let step = cartpole_step(&params, &state, state.theta > 0.0);
//!     state = step.next_state;
//!     steps += 1;
//!     if step.terminated || steps == params.max_episode_steps {
//!         break;
//!     }
//! }
//! assert!(steps > 0);
//! ```

pub mod cartpole;
mod error;
pub mod gridworld;
pub mod mountain_car;
pub mod mountain_car_continuous;
mod parameter_checks;
pub mod reference;
mod trig;

pub use error::{Error, ReferenceError};
