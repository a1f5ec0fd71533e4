//! The MuJoCo ids in rl-core's registration table, registered through the same public call a
//! user makes ([`Registration::register`]).
//!
//! | id | task | time limit |
//! |---|---|---|
//! | `Ant-v5` | [`Ant`] | 1000 |
//! | `HalfCheetah-v5` | [`HalfCheetah`] | 1000 |
//! | `Hopper-v5` | [`Hopper`] | 1000 |
//! | `Humanoid-v5` | [`Humanoid`] | 1000 |
//! | `HumanoidStandup-v5` | [`HumanoidStandup`] | 1000 |
//! | `InvertedDoublePendulum-v5` | [`InvertedDoublePendulum`] | 1000 |
//! | `InvertedPendulum-v5` | [`InvertedPendulum`] | 1000 |
//! | `Pusher-v5` | [`Pusher`] | 100 |
//! | `Reacher-v5` | [`Reacher`] | 50 |
//! | `Swimmer-v5` | [`Swimmer`] | 1000 |
//! | `Walker2d-v5` | [`Walker2d`] | 1000 |
//!
//! Each id's parameters are its task's `...Params` (Gymnasium's keyword arguments with their
//! defaults, rendering aside, and `max_episode_steps`). The ids are registered whether or not
//! MuJoCo is installed: building one without the library fails with
//! [`CoreError::InvalidDomain`] saying how to get it.

use std::any::Any;

use rl_core::CoreError;
use rl_core::registry::{Documentation, Registration};
use serde_json::{Value, json};

use crate::tasks::ant::Ant;
use crate::tasks::half_cheetah::HalfCheetah;
use crate::tasks::hopper::Hopper;
use crate::tasks::humanoid::Humanoid;
use crate::tasks::humanoid_standup::HumanoidStandup;
use crate::tasks::inverted_double_pendulum::InvertedDoublePendulum;
use crate::tasks::inverted_pendulum::InvertedPendulum;
use crate::tasks::pusher::Pusher;
use crate::tasks::reacher::Reacher;
use crate::tasks::swimmer::Swimmer;
use crate::tasks::walker2d::Walker2d;
use crate::{MujocoDomain, Setup, Task};

/// Every MuJoCo id, in registration order (Gymnasium's names).
pub const IDS: [&str; 11] = [
    "Ant-v5",
    "HalfCheetah-v5",
    "Hopper-v5",
    "Humanoid-v5",
    "HumanoidStandup-v5",
    "InvertedDoublePendulum-v5",
    "InvertedPendulum-v5",
    "Pusher-v5",
    "Reacher-v5",
    "Swimmer-v5",
    "Walker2d-v5",
];

/// The [`Setup`] (model, `xml_file`, `frame_skip`, `dt`) of the MuJoCo domain behind
/// `domain`, the typed domain rl-core hands out for an id
/// ([`RegisteredDomain::as_any`](rl_core::registry::RegisteredDomain::as_any)), or `None` when
/// it is not one of this crate's domains.
///
/// ```
/// rl_mujoco::register();
/// if let Ok(domain) = rl_core::registry::build("Hopper-v5", None) {
///     let setup = rl_mujoco::registry::setup_of(domain.as_any()).expect("a MuJoCo domain");
///     assert_eq!((setup.xml_file(), setup.frame_skip()), ("hopper.xml", 4));
/// }
/// ```
pub fn setup_of(domain: &dyn Any) -> Option<&Setup> {
    macro_rules! try_tasks {
        ($($task:ty),*) => {
            $(
                if let Some(domain) = domain.downcast_ref::<MujocoDomain<$task>>() {
                    return Some(domain.setup());
                }
            )*
        };
    }
    try_tasks!(
        Ant,
        HalfCheetah,
        Hopper,
        Humanoid,
        HumanoidStandup,
        InvertedDoublePendulum,
        InvertedPendulum,
        Pusher,
        Reacher,
        Swimmer,
        Walker2d
    );
    None
}

/// The documentation the ids' registrations carry (one family, `MuJoCo`, in the environment
/// catalogue: `docs/catalogue/MuJoCo.md`), in the template of every family's.
pub const DOCUMENTATION: Documentation = Documentation::new("MuJoCo", &[include_str!("mujoco.md")]);

/// Registers every MuJoCo id in rl-core's table. Only the first call registers; later calls
/// do nothing, so every entry point may call it.
///
/// ```
/// rl_mujoco::register();
/// assert!(rl_core::registry::contains("Hopper-v5"));
/// assert!(rl_mujoco::registry::IDS.iter().all(|id| rl_core::registry::contains(id)));
/// ```
pub fn register() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        for result in register_all() {
            // Only a user who registered one of our ids first can make this fail; their entry
            // then stays.
            debug_assert!(result.is_ok(), "MuJoCo registration failed: {result:?}");
            let _ = result;
        }
    });
}

/// The settings of `T`'s id: no learning claim for `rl run` (its default agent, `random`
/// where no other is named, learns nothing), and the Python types of Gymnasium's infos and reward ([`Task::INFO_TYPES`],
/// [`Task::REWARD_TYPE`]), which the Python package gives its entries.
fn settings<T: Task>() -> Value {
    let info_types: serde_json::Map<String, Value> = T::INFO_TYPES
        .iter()
        .map(|(key, kind)| ((*key).to_owned(), json!(kind)))
        .collect();
    json!({
        "learning_threshold": null,
        "info_types": info_types,
        "reward_type": T::REWARD_TYPE,
    })
}

/// InvertedPendulum-v5's settings: [`settings`], and a default agent for `rl run` that
/// learns to balance (`linear-sarsa` over tile coding, the force discretised into 5 values):
/// the velocities are unbounded in the observation space, so the tile coder gets ranges that
/// hold while the pole stands (the rail's [-1, 1], the angle's [-0.2, 0.2] and a margin), and
/// a learning claim: `rl run --domain InvertedPendulum-v5` (8 runs of 100 000 steps, master
/// seed 1) goes from a mean evaluation return of 4.6 at step 0 to 522 (standard deviation 196
/// over the runs) at the last check, against the threshold of 400 steps balanced (of the 1000
/// of an episode balanced to the time limit), checked by rl-experiment's learning table
/// (`RL_LEARNING_IDS=InvertedPendulum cargo test --release -p rlrs-experiment --test suite
/// learning`, with the MuJoCo library).
fn inverted_pendulum_settings() -> Value {
    let mut settings = settings::<InvertedPendulum>();
    if let Value::Object(map) = &mut settings {
        map.insert("learning_threshold".into(), json!(400.0));
        map.insert("agent".into(), json!("linear-sarsa"));
        map.insert("max_steps".into(), json!(100_000));
        map.insert(
            "agent_params".into(),
            json!({"linear-": {"bounds": [[-1.0, 1.0], [-0.21, 0.21], [-3.0, 3.0], [-6.0, 6.0]]}}),
        );
    }
    settings
}

fn register_all() -> Vec<Result<(), CoreError>> {
    vec![
        Registration::new(
            "Ant-v5",
            "Gymnasium 1.4.0 Ant-v5 (MuJoCo): a four-legged robot walks forward",
            Ant::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<Ant>::state_to_json,
            MujocoDomain::<Ant>::state_from_json,
        )
        .with_settings(settings::<Ant>())
        .register(),
        Registration::new(
            "HalfCheetah-v5",
            "Gymnasium 1.4.0 HalfCheetah-v5 (MuJoCo): a planar cat runs forward",
            HalfCheetah::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<HalfCheetah>::state_to_json,
            MujocoDomain::<HalfCheetah>::state_from_json,
        )
        .with_settings(settings::<HalfCheetah>())
        .register(),
        Registration::new(
            "Hopper-v5",
            "Gymnasium 1.4.0 Hopper-v5 (MuJoCo): a one-legged robot hops forward",
            Hopper::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<Hopper>::state_to_json,
            MujocoDomain::<Hopper>::state_from_json,
        )
        .with_settings(settings::<Hopper>())
        .register(),
        Registration::new(
            "Humanoid-v5",
            "Gymnasium 1.4.0 Humanoid-v5 (MuJoCo): a 3D biped walks forward",
            Humanoid::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<Humanoid>::state_to_json,
            MujocoDomain::<Humanoid>::state_from_json,
        )
        .with_settings(settings::<Humanoid>())
        .register(),
        Registration::new(
            "HumanoidStandup-v5",
            "Gymnasium 1.4.0 HumanoidStandup-v5 (MuJoCo): a lying humanoid stands up",
            HumanoidStandup::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<HumanoidStandup>::state_to_json,
            MujocoDomain::<HumanoidStandup>::state_from_json,
        )
        .with_settings(settings::<HumanoidStandup>())
        .register(),
        Registration::new(
            "InvertedDoublePendulum-v5",
            "Gymnasium 1.4.0 InvertedDoublePendulum-v5 (MuJoCo): a cart balances two linked poles",
            InvertedDoublePendulum::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<InvertedDoublePendulum>::state_to_json,
            MujocoDomain::<InvertedDoublePendulum>::state_from_json,
        )
        .with_settings(settings::<InvertedDoublePendulum>())
        .register(),
        Registration::new(
            "InvertedPendulum-v5",
            "Gymnasium 1.4.0 InvertedPendulum-v5 (MuJoCo): a cart balances a pole",
            InvertedPendulum::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<InvertedPendulum>::state_to_json,
            MujocoDomain::<InvertedPendulum>::state_from_json,
        )
        .with_settings(inverted_pendulum_settings())
        .register(),
        Registration::new(
            "Pusher-v5",
            "Gymnasium 1.4.0 Pusher-v5 (MuJoCo): an arm pushes a cylinder to a goal",
            Pusher::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<Pusher>::state_to_json,
            MujocoDomain::<Pusher>::state_from_json,
        )
        .with_settings(settings::<Pusher>())
        .register(),
        Registration::new(
            "Reacher-v5",
            "Gymnasium 1.4.0 Reacher-v5 (MuJoCo): a two-joint arm reaches a target",
            Reacher::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<Reacher>::state_to_json,
            MujocoDomain::<Reacher>::state_from_json,
        )
        .with_settings(settings::<Reacher>())
        .register(),
        Registration::new(
            "Swimmer-v5",
            "Gymnasium 1.4.0 Swimmer-v5 (MuJoCo): a three-link swimmer moves forward",
            Swimmer::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<Swimmer>::state_to_json,
            MujocoDomain::<Swimmer>::state_from_json,
        )
        .with_settings(settings::<Swimmer>())
        .register(),
        Registration::new(
            "Walker2d-v5",
            "Gymnasium 1.4.0 Walker2d-v5 (MuJoCo): a planar biped walks forward",
            Walker2d::domain,
        )
        .with_documentation(DOCUMENTATION)
        .with_state_json(
            MujocoDomain::<Walker2d>::state_to_json,
            MujocoDomain::<Walker2d>::state_from_json,
        )
        .with_settings(settings::<Walker2d>())
        .register(),
    ]
}
