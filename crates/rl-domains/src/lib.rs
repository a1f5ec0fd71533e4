//! Classic reinforcement-learning domains, exact to their references: Gymnasium 1.4.0's
//! CartPole, MountainCar, MountainCarContinuous, Acrobot and Pendulum bit for bit, its toy text
//! (FrozenLake, CliffWalking, Taxi, Blackjack) seed for seed, and RLPy 1.3.6's GridWorld with
//! its 14 maps; a registry of them and pictures of their states. The `rl-reference` crate
//! replays the reference traces against them.
//!
//! | domain | module | reference | capabilities |
//! |---|---|---|---|
//! | [`CartPole`] | [`cartpole`] | Gymnasium `CartPole-v1` (Euler, semi-implicit, Sutton and Barto reward) | [`Domain`](rl_core::Domain), [`DeterministicTransitions`](rl_core::DeterministicTransitions), [`Render`](rl_core::Render), [`RenderFrame`](rl_core::RenderFrame), [`BlockStep`](rl_core::BlockStep) (so [`BatchStep`](rl_core::BatchStep)) |
//! | [`FastCartPole`](cartpole_fast::FastCartPole) | [`cartpole_fast`] | none: an opt-in float32 approximation of `CartPole-v1`, **not bit-exact**, for speed | [`Domain`](rl_core::Domain), [`DeterministicTransitions`](rl_core::DeterministicTransitions), [`Render`](rl_core::Render), [`RenderFrame`](rl_core::RenderFrame), [`BlockStep`](rl_core::BlockStep) |
//! | [`MountainCar`] | [`mountain_car`] | Gymnasium `MountainCar-v0` | the same as CartPole |
//! | [`MountainCarContinuous`] | [`mountain_car_continuous`] | Gymnasium `MountainCarContinuous-v0`, float32 arithmetic included | [`Domain`](rl_core::Domain), [`DeterministicTransitions`](rl_core::DeterministicTransitions), [`Render`](rl_core::Render), [`RenderFrame`](rl_core::RenderFrame) |
//! | [`Acrobot`] | [`acrobot`] | Gymnasium `Acrobot-v1` (book and NIPS dynamics, RK4 with C `pow`) | [`Domain`](rl_core::Domain), [`Render`](rl_core::Render), [`RenderFrame`](rl_core::RenderFrame) |
//! | [`Pendulum`] | [`pendulum`] | Gymnasium `Pendulum-v1`, float32 torque terms included | the same as MountainCarContinuous |
//! | [`FrozenLake`](toy_text::frozen_lake::FrozenLake) | [`toy_text::frozen_lake`] | Gymnasium `FrozenLake-v1` and `FrozenLake8x8-v1` (`desc`, `map_name`, `is_slippery`, `success_rate`, `reward_schedule`, `generate_random_map`), seed for seed | [`Domain`](rl_core::Domain), [`EnumerableTransitions`](rl_core::EnumerableTransitions), [`Render`](rl_core::Render), [`RenderFrame`](rl_core::RenderFrame) |
//! | [`CliffWalking`](toy_text::cliff_walking::CliffWalking) | [`toy_text::cliff_walking`] | Gymnasium `CliffWalking-v1` and `CliffWalkingSlippery-v1` | the same |
//! | [`Taxi`](toy_text::taxi::Taxi) | [`toy_text::taxi`] | Gymnasium `Taxi-v4` (`is_rainy`, `fickle_passenger`), its action mask as `is_applicable` | the same |
//! | [`Blackjack`](toy_text::blackjack::Blackjack) | [`toy_text::blackjack`] | Gymnasium `Blackjack-v1` (`natural`, `sab`) | [`Domain`](rl_core::Domain), [`Render`](rl_core::Render), [`RenderFrame`](rl_core::RenderFrame) |
//! | [`GridWorld`] | [`gridworld`] | RLPy `GridWorld`, its maps and `expectedStep` | [`Domain`](rl_core::Domain), [`EnumerableTransitions`](rl_core::EnumerableTransitions), [`Render`](rl_core::Render), [`RenderFrame`](rl_core::RenderFrame), value pictures |
//!
//! Each domain is a pure model ([`rl_core::Domain`]) built from a validated `Params`
//! struct whose [`Default`] is the reference, with serde; the
//! [`Simulator`](rl_core::Simulator) runs its episodes. Every domain type is documented
//! in one template: description, action space, observation space, rewards, starting state,
//! episode end (termination and truncation), parameters, reference, and the differences
//! from the reference. Underneath, each module keeps the exact, allocation-free step
//! function on plain `Copy` states that reproduces the reference.
//!
//! Every domain draws RGB frames ([`RenderFrame`](rl_core::RenderFrame), Gymnasium's
//! `rgb_array`; the [`frames`] module), through its type and through its id.
//!
//! The [`registry`] registers every domain under its id in `rl-core`'s table, through which
//! any of them is built from an id and JSON parameters as an environment that code can drive
//! without knowing its type (the `rl-reference` crate replays the reference trace files of
//! `testdata/reference/` against these domains). Vectors step every domain's states in a
//! batch; CartPole, MountainCar and the fast CartPole add structure-of-arrays kernels
//! ([`BlockStep`](rl_core::BlockStep): rl-core's scaffold around each one's block step), which
//! step a whole slice of states bit-identically to stepping them one by one.
//!
//! The crate depends on `rl-spaces` and `rl-core` only; the `grid-image` feature (off by
//! default) adds `GridImage`, the grid image of [`write_grid_image`](gridworld::write_grid_image)
//! as a representation for
//! rl-wrappers' outer environments, and with it a dependency on `rl-wrappers`.
//!
//! # Quick start
//!
//! ```
//! use rl_core::{Environment, Mode, Render, Simulator};
//! use rl_domains::cartpole::{CartPole, CartPoleParams, PUSH_LEFT, PUSH_RIGHT};
//!
//! // A typed domain, run by the simulator from one seed.
//! let domain = CartPole::new(CartPoleParams::default())?;
//! let mut env = Simulator::new(domain.clone(), 2024);
//! let mut observation: [f32; 4] = env.reset(Mode::Training)?;
//! let mut episode_return = 0.0;
//! loop {
//!     // Push the cart towards the side the pole leans to.
//!     let action = if observation[2] > 0.0 { PUSH_RIGHT } else { PUSH_LEFT };
//!     let outcome = env.step(&action)?;
//!     episode_return += outcome.reward();
//!     observation = outcome.observation;
//!     if outcome.is_done() {
//!         break;
//!     }
//! }
//! assert!(episode_return > 20.0);
//! if let Some(state) = env.state() {
//!     assert!(domain.render_svg(state).starts_with("<svg"));
//! }
//!
//! // The same domain by id, behind dynamic spaces.
//! let mut env = rl_domains::registry::make("CartPole-v1", None)?;
//! env.seed(2024);
//! assert_eq!(env.reset(Mode::Training)?.as_array().map(|array| array.shape().to_vec()), Some(vec![4]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod acrobot;
pub mod cartpole;
pub mod cartpole_fast;
mod error;
pub mod frames;
pub mod gridworld;
pub mod mountain_car;
pub mod mountain_car_continuous;
mod parameter_checks;
pub mod pendulum;
pub mod registry;
pub mod svg;
pub mod toy_text;
mod trig;

pub use acrobot::Acrobot;
pub use cartpole::CartPole;
pub use error::Error;
pub use gridworld::GridWorld;
pub use mountain_car::MountainCar;
pub use mountain_car_continuous::MountainCarContinuous;
pub use pendulum::Pendulum;
pub use registry::register_builtins;
