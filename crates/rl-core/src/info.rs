//! [`Info`]: the string-keyed map of extra facts about a step.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as JsonValue;

/// Extra facts about a step or a reset, keyed by name (scikit-decide's `StrDict`, Gymnasium's
/// `info`).
///
/// An empty `Info` is free: creating, moving and dropping it never allocates, so domains that
/// report nothing pay nothing on the step path.
///
/// ```
/// use rl_core::Info;
///
/// let mut info = Info::new();
/// assert!(info.is_empty());
/// info.insert("moved", true);
/// assert_eq!(info.get("moved"), Some(&serde_json::json!(true)));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Info {
    entries: BTreeMap<String, JsonValue>,
}

impl Info {
    /// The empty map (no allocation).
    #[inline]
    pub const fn new() -> Self {
        Info {
            entries: BTreeMap::new(),
        }
    }

    /// Sets `key` to `value`, returning the previous value.
    pub fn insert(
        &mut self,
        key: impl Into<String>,
        value: impl Into<JsonValue>,
    ) -> Option<JsonValue> {
        self.entries.insert(key.into(), value.into())
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        self.entries.get(key)
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<JsonValue> {
        self.entries.remove(key)
    }

    /// Whether there is no entry.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &JsonValue)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Moves every entry of `other` into `self` (entries of `other` win).
    pub fn extend(&mut self, other: Info) {
        self.entries.extend(other.entries);
    }
}
