//! The MuJoCo ids in rl-core's registration table, registered through the same public call a
//! user makes ([`Registration::register`]).
//!
//! | id | task | defaults |
//! |---|---|---|
//! | `Hopper-v5` | [`Hopper`] | [`HopperParams::default`](crate::tasks::hopper::HopperParams) |
//! | `HalfCheetah-v5` | [`HalfCheetah`] | [`HalfCheetahParams::default`](crate::tasks::half_cheetah::HalfCheetahParams) |
//! | `InvertedPendulum-v5` | [`InvertedPendulum`] | [`InvertedPendulumParams::default`](crate::tasks::inverted_pendulum::InvertedPendulumParams) |
//!
//! The ids are registered whether or not MuJoCo is installed: building one without the library
//! fails with [`CoreError::InvalidDomain`] saying how to get it.

use rl_core::CoreError;
use rl_core::registry::Registration;
use serde_json::json;

use crate::tasks::half_cheetah::HalfCheetah;
use crate::tasks::hopper::Hopper;
use crate::tasks::inverted_pendulum::InvertedPendulum;

/// The id of Hopper.
pub const HOPPER_ID: &str = "Hopper-v5";
/// The id of HalfCheetah.
pub const HALF_CHEETAH_ID: &str = "HalfCheetah-v5";
/// The id of InvertedPendulum.
pub const INVERTED_PENDULUM_ID: &str = "InvertedPendulum-v5";

/// Every MuJoCo id, in registration order.
pub const IDS: [&str; 3] = [HOPPER_ID, HALF_CHEETAH_ID, INVERTED_PENDULUM_ID];

/// Registers every MuJoCo id in rl-core's table. Only the first call registers; later calls
/// do nothing, so every entry point may call it.
///
/// ```
/// rl_mujoco::register();
/// assert!(rl_core::registry::contains("Hopper-v5"));
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

fn register_all() -> Vec<Result<(), CoreError>> {
    let settings = json!({"learning_threshold": null});
    vec![
        Registration::new(
            HOPPER_ID,
            "Gymnasium 1.4.0 Hopper-v5 (MuJoCo): a one-legged robot hops forward",
            Hopper::domain,
        )
        .with_settings(settings.clone())
        .register(),
        Registration::new(
            HALF_CHEETAH_ID,
            "Gymnasium 1.4.0 HalfCheetah-v5 (MuJoCo): a planar cat runs forward",
            HalfCheetah::domain,
        )
        .with_settings(settings.clone())
        .register(),
        Registration::new(
            INVERTED_PENDULUM_ID,
            "Gymnasium 1.4.0 InvertedPendulum-v5 (MuJoCo): a cart balances a pole",
            InvertedPendulum::domain,
        )
        .with_settings(settings)
        .register(),
    ]
}
