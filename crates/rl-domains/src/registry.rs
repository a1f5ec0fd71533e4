//! The registry: every domain of this crate under a Gymnasium-style id, built from JSON
//! parameters that override the defaults field by field, as an environment that code can
//! drive without knowing its type.
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
//! ([`RegistryError::InvalidParams`]), and values the domain rejects are
//! [`RegistryError::InvalidDomain`]. `None` and JSON `null` mean the defaults.
//!
//! # Environments
//!
//! [`make`] returns a [`BoxedEnvironment`]: a [`Simulator`] of the domain behind
//! [`DynamicEnvironment`], whose observations and actions are [`AnyElement`]s
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
//! transitions, say), use [`domain`] or [`gridworld_from_id`].
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

use rl_core::{BoxedEnvironment, Domain, DynamicEnvironment, Simulator};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::acrobot::{Acrobot, AcrobotParams};
use crate::cartpole::{CartPole, CartPoleParams};
use crate::error::{Error, RegistryError};
use crate::gridworld::{CellKind, GridMap, GridWorld, GridWorldParams};
use crate::mountain_car::{MountainCar, MountainCarParams};
use crate::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};
use crate::pendulum::{Pendulum, PendulumParams};

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
/// The prefix of the GridWorld ids, followed by a built-in map's name.
pub const GRIDWORLD_PREFIX: &str = "GridWorld-";

/// One registered id with a one-line description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryEntry {
    /// The id, for example `CartPole-v1` or `GridWorld-4x5`.
    pub id: String,
    /// What the id builds, in one line.
    pub description: String,
}

/// A domain built by the registry, typed: match on it to use a domain's own capabilities.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
// Built once per environment, never in a loop: boxing GridWorld would only add indirection.
#[allow(clippy::large_enum_variant)]
pub enum RegisteredDomain {
    /// `CartPole-v1`.
    CartPole(CartPole),
    /// `MountainCar-v0`.
    MountainCar(MountainCar),
    /// `MountainCarContinuous-v0`.
    MountainCarContinuous(MountainCarContinuous),
    /// `Acrobot-v1`.
    Acrobot(Acrobot),
    /// `Pendulum-v1`.
    Pendulum(Pendulum),
    /// `GridWorld-<map>`.
    GridWorld(GridWorld),
}

impl RegisteredDomain {
    /// The domain as an environment of [`AnyElement`](rl_spaces::AnyElement)s: a
    /// [`Simulator`] (seeded with 0) behind [`DynamicEnvironment`].
    pub fn into_environment(self) -> BoxedEnvironment {
        match self {
            RegisteredDomain::CartPole(domain) => boxed(domain),
            RegisteredDomain::MountainCar(domain) => boxed(domain),
            RegisteredDomain::MountainCarContinuous(domain) => boxed(domain),
            RegisteredDomain::Acrobot(domain) => boxed(domain),
            RegisteredDomain::Pendulum(domain) => boxed(domain),
            RegisteredDomain::GridWorld(domain) => boxed(domain),
        }
    }

    /// The domain's discount factor.
    pub fn discount(&self) -> f64 {
        match self {
            RegisteredDomain::CartPole(domain) => domain.discount(),
            RegisteredDomain::MountainCar(domain) => domain.discount(),
            RegisteredDomain::MountainCarContinuous(domain) => domain.discount(),
            RegisteredDomain::Acrobot(domain) => domain.discount(),
            RegisteredDomain::Pendulum(domain) => domain.discount(),
            RegisteredDomain::GridWorld(domain) => domain.discount(),
        }
    }

    /// The domain's episode cap.
    pub fn episode_cap(&self) -> Option<u64> {
        match self {
            RegisteredDomain::CartPole(domain) => domain.episode_cap(),
            RegisteredDomain::MountainCar(domain) => domain.episode_cap(),
            RegisteredDomain::MountainCarContinuous(domain) => domain.episode_cap(),
            RegisteredDomain::Acrobot(domain) => domain.episode_cap(),
            RegisteredDomain::Pendulum(domain) => domain.episode_cap(),
            RegisteredDomain::GridWorld(domain) => domain.episode_cap(),
        }
    }
}

fn boxed<D>(domain: D) -> BoxedEnvironment
where
    D: Domain + Send + 'static,
    D::State: Send,
    D::ObservationSpace: rl_spaces::DynamicSpace,
    D::ActionSpace: rl_spaces::DynamicSpace,
{
    DynamicEnvironment::new(Simulator::new(domain, 0)).boxed()
}

/// Every registered id with a one-line description: the five Gymnasium domains, then one
/// GridWorld per built-in map in name order.
pub fn list() -> Vec<RegistryEntry> {
    let mut entries = vec![
        RegistryEntry {
            id: CARTPOLE_ID.to_owned(),
            description: "Gymnasium 1.4.0 CartPole-v1: push a cart left or right to balance \
                          a pole (Discrete(2) actions, 4 float32 observations, 500 steps)"
                .to_owned(),
        },
        RegistryEntry {
            id: MOUNTAIN_CAR_ID.to_owned(),
            description: "Gymnasium 1.4.0 MountainCar-v0: rock an underpowered car up a hill \
                          (Discrete(3) actions, 2 float32 observations, 200 steps)"
                .to_owned(),
        },
        RegistryEntry {
            id: MOUNTAIN_CAR_CONTINUOUS_ID.to_owned(),
            description: "Gymnasium 1.4.0 MountainCarContinuous-v0: the same hill with a \
                          continuous force in [-1, 1] and an energy penalty (999 steps)"
                .to_owned(),
        },
        RegistryEntry {
            id: ACROBOT_ID.to_owned(),
            description: "Gymnasium 1.4.0 Acrobot-v1: swing a two-link chain's tip above a line \
                          (Discrete(3) torques, 6 float32 observations, 500 steps)"
                .to_owned(),
        },
        RegistryEntry {
            id: PENDULUM_ID.to_owned(),
            description: "Gymnasium 1.4.0 Pendulum-v1: swing a pendulum up and hold it upright \
                          (a torque in [-2, 2], 3 float32 observations, 200 steps)"
                .to_owned(),
        },
    ];
    for name in GridMap::builtin_names() {
        let description = match GridMap::builtin(name) {
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
        };
        entries.push(RegistryEntry {
            id: format!("{GRIDWORLD_PREFIX}{name}"),
            description,
        });
    }
    entries
}

/// Every registered id, in the order of [`list`].
pub fn ids() -> Vec<String> {
    list().into_iter().map(|entry| entry.id).collect()
}

/// The typed domain registered under `id`, with `params` overriding its defaults (see the
/// [module documentation](self)).
pub fn domain(id: &str, params: Option<&Value>) -> Result<RegisteredDomain, RegistryError> {
    let invalid = |source: Error| RegistryError::InvalidDomain {
        id: id.to_owned(),
        source,
    };
    match id {
        CARTPOLE_ID => CartPole::new(parse_params::<CartPoleParams>(id, params)?)
            .map(RegisteredDomain::CartPole)
            .map_err(invalid),
        MOUNTAIN_CAR_ID => MountainCar::new(parse_params::<MountainCarParams>(id, params)?)
            .map(RegisteredDomain::MountainCar)
            .map_err(invalid),
        MOUNTAIN_CAR_CONTINUOUS_ID => {
            MountainCarContinuous::new(parse_params::<MountainCarContinuousParams>(id, params)?)
                .map(RegisteredDomain::MountainCarContinuous)
                .map_err(invalid)
        }
        ACROBOT_ID => Acrobot::new(parse_params::<AcrobotParams>(id, params)?)
            .map(RegisteredDomain::Acrobot)
            .map_err(invalid),
        PENDULUM_ID => Pendulum::new(parse_params::<PendulumParams>(id, params)?)
            .map(RegisteredDomain::Pendulum)
            .map_err(invalid),
        _ => gridworld_from_id(id, params).map(RegisteredDomain::GridWorld),
    }
}

/// The environment registered under `id`, with `params` overriding its defaults, as a
/// [`BoxedEnvironment`] seeded with 0 (see the [module documentation](self)).
///
/// Fails with [`RegistryError::UnknownId`], listing every known id, for an unknown id.
pub fn make(id: &str, params: Option<&Value>) -> Result<BoxedEnvironment, RegistryError> {
    domain(id, params).map(RegisteredDomain::into_environment)
}

/// The [`GridWorld`] registered under `id` (`GridWorld-<map>`), with `params` overriding
/// [`GridWorldParams::default`]; for planners that need its enumerable transitions.
pub fn gridworld_from_id(id: &str, params: Option<&Value>) -> Result<GridWorld, RegistryError> {
    let map_name = id
        .strip_prefix(GRIDWORLD_PREFIX)
        .filter(|name| GridMap::builtin_names().contains(name))
        .ok_or_else(|| RegistryError::UnknownId {
            id: id.to_owned(),
            known: ids(),
        })?;
    let params = parse_params::<GridWorldParams>(id, params)?;
    GridWorld::builtin(map_name, params).map_err(|source| RegistryError::InvalidDomain {
        id: id.to_owned(),
        source,
    })
}

/// Reads parameters from a JSON object over the defaults; `None` and `null` give the
/// defaults. Anything but an object is an error (serde would read a list positionally).
fn parse_params<P: DeserializeOwned + Default>(
    id: &str,
    params: Option<&Value>,
) -> Result<P, RegistryError> {
    let invalid = |source| RegistryError::InvalidParams {
        id: id.to_owned(),
        source,
    };
    match params {
        None | Some(Value::Null) => Ok(P::default()),
        Some(value @ Value::Object(_)) => P::deserialize(value).map_err(invalid),
        Some(other) => Err(invalid(serde::de::Error::custom(format!(
            "invalid type: expected an object of parameter fields, found {other}"
        )))),
    }
}
