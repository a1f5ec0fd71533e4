//! [`RunSettings`]: what a registration suggests to the layers above `rl-core` (the `rl`
//! command line's defaults, the learning table's claim, the Python package's infos), typed
//! and checked when the registration enters the table, so that a misspelled key is an error
//! naming it rather than a setting silently ignored.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// The settings of a registration ([`Registration::with_settings`]), each optional. `rl-core`
/// checks them and never acts on them; their readers are named on each field.
///
/// An unknown key, or a value of the wrong type, makes
/// [`Registration::register`](crate::registry::Registration::register) fail with the key's
/// name:
///
/// ```
/// use rl_core::corridor::Corridor;
/// use rl_core::registry::{Registration, RunSettings};
///
/// #[derive(Default, serde::Deserialize)]
/// struct NoParams {}
///
/// let error = Registration::new("Corridor-settings-doc-v0", "a corridor", |_: NoParams| Corridor::new(3, 0.0))
///     .with_settings(serde_json::json!({"agnet": "q-learning"}))
///     .register()
///     .unwrap_err();
/// assert!(error.to_string().contains("unknown field `agnet`"), "{error}");
///
/// let settings = RunSettings::from_json(&serde_json::json!({"agent": "sarsa", "max_steps": 500}))?;
/// assert_eq!(settings.agent.as_deref(), Some("sarsa"));
/// assert_eq!(settings.max_steps, Some(500));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
///
/// [`Registration::with_settings`]: crate::registry::Registration::with_settings
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct RunSettings {
    /// The agent `rl run` uses without `--agent` (`rl-experiment`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// Agent parameters `rl run` adds when none are given, by agent-name prefix (`"linear-"`
    /// to the parameters of every agent whose name starts with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_params: Option<Map<String, Value>>,
    /// The step budget per run of `rl run` without `--max-steps`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    /// The evaluation episodes per policy check of `rl run` without `--checks-per-policy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks_per_policy: Option<u64>,
    /// For a bounded float Box action space a learner cannot take, the values per action
    /// dimension `rl run` discretises it into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discretize_bins: Option<u32>,
    /// How a greedy evaluation episode succeeds, for `rl run`'s note on the last check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<Success>,
    /// What the id's default `rl run` must reach, checked by `rl-experiment`'s learning table:
    /// `Some(null)` makes no claim, `Some(x)` a mean evaluation return, `Some({"fraction_of_optimum":
    /// f})` a fraction of the optimum computed from the transition model; `None` when the key
    /// is absent (the built-in registrations all have it). `rl-experiment`'s `criterion` reads
    /// and checks the value.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub learning_threshold: Option<Value>,
    /// The Python types of the domain's info entries by key, where its reference's are not
    /// what the entries' JSON values become in Python (a `float`, an `int`, a `list`):
    /// Gymnasium's MuJoCo environments report NumPy scalars and arrays. The Python package
    /// converts each entry to its type, in a single environment's infos and in a vector's
    /// (whose arrays take the entries' dtypes, as `SyncVectorEnv`'s do).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub info_types: Option<BTreeMap<String, PythonType>>,
    /// The Python type of the reward of a step, where the reference's is not a Python `float`
    /// (Gymnasium's MuJoCo environments return NumPy `float64` rewards, InvertedPendulum an
    /// `int`), applied by the Python package's single environment (a vector's rewards are a
    /// `float64` array whatever they are).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward_type: Option<PythonType>,
    /// Whether Gymnasium's infos hold the action mask (`info["action_mask"]`, Taxi's), added
    /// by the Python package.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub info_action_mask: bool,
    /// The frames per second at which the id's episodes are shown (its reference's
    /// `metadata["render_fps"]`: 50 for CartPole, 4 for the toy text, 10 for MiniGrid):
    /// `rl render`'s GIFs and the Python package's `"human"` window; 50 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_fps: Option<u32>,
    /// The keyword arguments the reference registers the id with (minigrid's `{"size": 8}`
    /// for MiniGrid-DoorKey-8x8-v0), which the id's parameters take as they are: the Python
    /// package registers its Gymnasium id with them, so that its spec's `kwargs` are the
    /// reference's. Absent for ids whose reference Gymnasium itself registers (the package
    /// reads those from Gymnasium's registry) and for ids without a reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gymnasium_kwargs: Option<Map<String, Value>>,
}

/// The Python type of a value the reference environment returns where it is not what the
/// value's JSON becomes in Python (a reward, [`RunSettings::reward_type`]; an info entry,
/// [`RunSettings::info_types`]), named as in the settings' JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum PythonType {
    /// A NumPy `float64` scalar (`"float64"`).
    #[serde(rename = "float64")]
    Float64,
    /// A NumPy `float32` scalar (`"float32"`): the entry's value is a float32 widened exactly.
    #[serde(rename = "float32")]
    Float32,
    /// A Python `float` (`"float"`).
    #[serde(rename = "float")]
    Float,
    /// A Python `int` (`"int"`): the entry's value is a whole number.
    #[serde(rename = "int")]
    Int,
    /// A NumPy `float64` array (`"float64[]"`), from a list of numbers.
    #[serde(rename = "float64[]")]
    Float64Array,
}

/// How an evaluation episode succeeds ([`RunSettings::success`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Success {
    /// It reaches a goal (MountainCar).
    Terminated,
    /// It lasts until the time limit (CartPole).
    Truncated,
}

/// A value that is present, `null` included (`Some(Value::Null)`), where an absent key stays
/// `None` (the field's `default`).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl RunSettings {
    /// Reads settings from a JSON object. Fails with
    /// [`CoreError::InvalidParameter`](crate::CoreError::InvalidParameter) naming an unknown
    /// key or a value of the wrong type.
    pub fn from_json(settings: &Value) -> Result<Self, crate::CoreError> {
        RunSettings::deserialize(settings)
            .map_err(|error| crate::CoreError::invalid_parameter("settings", error.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_key_reads_and_unknown_ones_are_named() {
        let settings = RunSettings::from_json(&json!({
            "agent": "linear-sarsa", "agent_params": {"linear-": {"tiles": 8}}, "max_steps": 9,
            "checks_per_policy": 125, "discretize_bins": 5, "success": "terminated",
            "learning_threshold": null, "info_action_mask": true,
            "info_types": {"x": "float64", "y": "float32", "z": "float", "n": "int", "t": "float64[]"},
            "reward_type": "float64",
        }))
        .expect("valid");
        assert_eq!(settings.success, Some(Success::Terminated));
        assert_eq!(settings.learning_threshold, Some(Value::Null));
        assert!(settings.info_action_mask);
        let types = settings.info_types.expect("info types");
        assert_eq!(types["t"], PythonType::Float64Array);
        assert_eq!(types["n"], PythonType::Int);
        assert_eq!(settings.reward_type, Some(PythonType::Float64));
        let error = RunSettings::from_json(&json!({"info_types": {"x": "double"}})).unwrap_err();
        assert!(error.to_string().contains("double"), "{error}");
        assert_eq!(
            RunSettings::from_json(&json!({}))
                .expect("empty")
                .learning_threshold,
            None
        );
        let error = RunSettings::from_json(&json!({"max_step": 9})).unwrap_err();
        assert!(
            error.to_string().contains("unknown field `max_step`"),
            "{error}"
        );
        let error = RunSettings::from_json(&json!({"max_steps": "many"})).unwrap_err();
        assert!(error.to_string().contains("invalid type"), "{error}");
        assert!(RunSettings::from_json(&json!({"success": "won"})).is_err());
        assert!(RunSettings::from_json(&json!(3)).is_err());
    }
}
