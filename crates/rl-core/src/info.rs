//! [`Info`]: the string-keyed map of extra facts about a step.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
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
#[derive(Clone, Default)]
pub struct Info {
    /// The entries; `None` while there are none. An empty info is one null pointer, so that
    /// moving it through a step and dropping it cost next to nothing (a map, even empty, is
    /// three words whose drop is a function call). The box is what makes it one word, at the
    /// price of one more allocation for an info that has entries.
    #[allow(clippy::box_collection)]
    entries: Option<Box<BTreeMap<String, JsonValue>>>,
}

impl Info {
    /// The empty map (no allocation).
    #[inline]
    pub const fn new() -> Self {
        Info { entries: None }
    }

    /// Sets `key` to `value`, returning the previous value.
    pub fn insert(
        &mut self,
        key: impl Into<String>,
        value: impl Into<JsonValue>,
    ) -> Option<JsonValue> {
        self.entries
            .get_or_insert_with(Box::default)
            .insert(key.into(), value.into())
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        self.entries.as_ref()?.get(key)
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<JsonValue> {
        self.entries.as_mut()?.remove(key)
    }

    /// Whether there is no entry.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries
            .as_ref()
            .is_none_or(|entries| entries.is_empty())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.as_ref().map_or(0, |entries| entries.len())
    }

    /// The entries, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &JsonValue)> {
        self.entries
            .iter()
            .flat_map(|entries| entries.iter())
            .map(|(k, v)| (k.as_str(), v))
    }

    /// Moves every entry of `other` into `self` (entries of `other` win).
    pub fn extend(&mut self, other: Info) {
        let Some(theirs) = other.entries else {
            return;
        };
        match self.entries.as_mut() {
            Some(mine) => mine.extend(*theirs),
            None => self.entries = Some(theirs),
        }
    }
}

impl PartialEq for Info {
    /// Two infos are equal when they hold the same entries.
    fn eq(&self, other: &Info) -> bool {
        self.iter().eq(other.iter())
    }
}

impl fmt::Debug for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Info")
            .field("entries", &DebugEntries(self))
            .finish()
    }
}

/// The entries of an info, printed as a map.
struct DebugEntries<'a>(&'a Info);

impl fmt::Debug for DebugEntries<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.0.iter()).finish()
    }
}

impl Serialize for Info {
    /// A JSON object of the entries (`{}` when empty).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Info {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let entries = BTreeMap::<String, JsonValue>::deserialize(deserializer)?;
        Ok(Info {
            entries: (!entries.is_empty()).then(|| Box::new(entries)),
        })
    }
}
