//! [`Info`]: the string-keyed map of extra facts about a step.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::mem::ManuallyDrop;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value as JsonValue;

/// Extra facts about a step or a reset, keyed by name (scikit-decide's `StrDict`, Gymnasium's
/// `info`).
///
/// An empty `Info` is free: creating, moving and dropping it never allocates, so domains that
/// report nothing pay nothing on the step path. One entry with a `'static` key and a value
/// without heap data (a number, a boolean, null), set with
/// [`insert_static`](Self::insert_static), is kept inline. Other entries go into a list
/// sorted by key, whose memory is taken from the spares that dropped infos gave back (one
/// pool for every thread) and given back when the info is dropped: a domain
/// that reports several facts per step (MuJoCo's reward terms and positions) allocates nothing
/// once a few infos were dropped. A `'static` key (a string literal) is kept as a
/// reference, a key made at run time (a `String`) as it is; values with heap data (strings,
/// arrays) allocate their own memory.
///
/// ```
/// use rl_core::Info;
///
/// let mut info = Info::new();
/// assert!(info.is_empty());
/// info.insert("moved", true);
/// assert_eq!(info.get("moved"), Some(&serde_json::json!(true)));
/// info.insert_static("prob", 0.25); // inline
/// assert_eq!(info.iter().map(|(key, _)| key).collect::<Vec<_>>(), ["moved", "prob"]);
/// ```
#[derive(Clone, Default)]
pub struct Info {
    /// One entry with a static key and a scalar value (no heap data), kept inline; its key is
    /// never also in `entries`. The value is a `ManuallyDrop` because it never owns memory
    /// (only scalars go here): dropping an info then costs nothing for it, where a `JsonValue`
    /// field makes every drop of every step's info a call into its drop glue (9% of a
    /// single CartPole step, measured with perf).
    inline: Option<(&'static str, ManuallyDrop<JsonValue>)>,
    /// The other entries (`'static` keys borrowed, others owned), sorted by key without
    /// repeats; `None` while there are none. Without entries this is one null pointer, so that
    /// moving an info through a step and dropping it cost next to nothing. The box and its
    /// list come from the spares ([`spare`]) and go back to them on drop.
    #[allow(clippy::box_collection)]
    entries: Option<Box<Entries>>,
}

/// The entries of an info besides the inline one, sorted by key.
type Entries = Vec<(Cow<'static, str>, JsonValue)>;

/// The lists of entries dropped infos gave back, kept for the next infos that need one: a
/// step that reports several facts allocates nothing once there are spares. One pool for
/// every thread (a lock, taken only by infos with entries besides the inline one): a vector's
/// episodes move between threads, so a thread may drop more infos than it makes and another
/// make more than it drops, and spares kept per thread would strand lists on the first while
/// the second allocates.
mod spare {
    use std::sync::{Mutex, PoisonError};

    use super::Entries;

    /// The most lists the pool keeps (about 450 KB at the room of a new list): a stepping
    /// vector needs about one spare per thread, since each new info replaces an old one; the
    /// rest are what dropped vectors and their infos leave.
    const KEPT: usize = 1024;

    /// A list keeps its memory only up to this many entries: a rare large info does not pin
    /// its memory.
    const LARGEST: usize = 64;

    /// The room of a new list, in entries (MuJoCo's infos have up to 8 besides arrays'): most
    /// infos never grow their list.
    const ROOM: usize = 8;

    /// The spares, boxes included: an info holds its list in a box, which is reused too.
    #[allow(clippy::vec_box)]
    static POOL: Mutex<Vec<Box<Entries>>> = Mutex::new(Vec::new());

    /// An empty list: a spare, or a new one.
    pub(super) fn take() -> Box<Entries> {
        POOL.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_else(|| Box::new(Vec::with_capacity(ROOM)))
    }

    /// Clears `entries` and keeps it for the next [`take`], unless the pool is full or the
    /// list is large (then it is freed).
    pub(super) fn give_back(mut entries: Box<Entries>) {
        entries.clear();
        if entries.capacity() > LARGEST {
            return;
        }
        let mut pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
        if pool.len() < KEPT {
            // Room for every list it keeps, at the first: no allocation after.
            if pool.capacity() == 0 {
                pool.reserve_exact(KEPT);
            }
            pool.push(entries);
        }
    }
}

impl Drop for Info {
    #[inline]
    fn drop(&mut self) {
        if let Some(entries) = self.entries.take() {
            spare::give_back(entries);
        }
    }
}

/// Where `key` is in `entries`, or where it would go.
fn position(entries: &Entries, key: &str) -> Result<usize, usize> {
    entries.binary_search_by(|(held, _)| held.as_ref().cmp(key))
}

/// Whether `value` holds no heap data (so that it may live inline).
#[inline]
fn is_scalar(value: &JsonValue) -> bool {
    matches!(
        value,
        JsonValue::Null | JsonValue::Bool(_) | JsonValue::Number(_)
    )
}

impl Info {
    /// The empty map (no allocation).
    #[inline]
    pub const fn new() -> Self {
        Info {
            inline: None,
            entries: None,
        }
    }

    /// Sets `key` to `value`, returning the previous value. A `'static` key (a string
    /// literal) is kept as a reference, so that only the map's own memory is allocated,
    /// nothing per key; a `String` key is kept as it is. A key borrowed for less than
    /// `'static` (a `&str` into a local `String`) is passed as a `String`: `key.to_owned()`.
    pub fn insert(
        &mut self,
        key: impl Into<Cow<'static, str>>,
        value: impl Into<JsonValue>,
    ) -> Option<JsonValue> {
        let key = key.into();
        let previous = self.take_inline(&key);
        let entries = self.entries.get_or_insert_with(spare::take);
        let replaced = match position(entries, &key) {
            Ok(at) => Some(std::mem::replace(&mut entries[at].1, value.into())),
            Err(at) => {
                entries.insert(at, (key, value.into()));
                None
            }
        };
        previous.or(replaced)
    }

    /// Sets `key` to `value` as [`insert`](Self::insert) does, without allocating when `value`
    /// holds no heap data (a number, a boolean, null) and the inline place is free or holds
    /// `key` already: the step path of a domain that reports one such fact stays
    /// allocation-free. Otherwise the entry joins the others (as `insert`).
    #[inline]
    pub fn insert_static(
        &mut self,
        key: &'static str,
        value: impl Into<JsonValue>,
    ) -> Option<JsonValue> {
        let value = value.into();
        // The usual case, a scalar into an empty info (a step's one fact), without the
        // searches below: inlined into the domain's step, where the info was just made.
        if self.inline.is_none() && self.entries.is_none() && is_scalar(&value) {
            self.inline = Some((key, ManuallyDrop::new(value)));
            return None;
        }
        self.insert_static_slow(key, value)
    }

    /// [`insert_static`](Self::insert_static) into an info that has entries, or of a value
    /// that holds heap data.
    fn insert_static_slow(&mut self, key: &'static str, value: JsonValue) -> Option<JsonValue> {
        let in_map = self
            .entries
            .as_ref()
            .is_some_and(|entries| position(entries, key).is_ok());
        let inline_free = self.inline.as_ref().is_none_or(|(held, _)| *held == key);
        if is_scalar(&value) && inline_free && !in_map {
            return self
                .inline
                .replace((key, ManuallyDrop::new(value)))
                .map(|(_, old)| ManuallyDrop::into_inner(old));
        }
        self.insert(key, value)
    }

    /// Takes the inline entry out if its key is `key`.
    fn take_inline(&mut self, key: &str) -> Option<JsonValue> {
        if self.inline.as_ref().is_some_and(|(held, _)| *held == key) {
            self.inline
                .take()
                .map(|(_, value)| ManuallyDrop::into_inner(value))
        } else {
            None
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        match &self.inline {
            Some((held, value)) if *held == key => Some(&**value),
            _ => {
                let entries = self.entries.as_ref()?;
                position(entries, key).ok().map(|at| &entries[at].1)
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<JsonValue> {
        self.take_inline(key).or_else(|| {
            let entries = self.entries.as_mut()?;
            let at = position(entries, key).ok()?;
            Some(entries.remove(at).1)
        })
    }

    /// Whether there is no entry.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.inline.is_none()
            && self
                .entries
                .as_ref()
                .is_none_or(|entries| entries.is_empty())
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        usize::from(self.inline.is_some())
            + self.entries.as_ref().map_or(0, |entries| entries.len())
    }

    /// The entries, in key order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (&str, &JsonValue)> {
        let mut inline = self.inline.as_ref().map(|(key, value)| (*key, &**value));
        // Without other entries (the usual case: none, or one inline) there is nothing to
        // merge the inline entry with.
        let mut others = self.entries.as_ref().map(|entries| {
            entries
                .iter()
                .map(|(key, value)| (key.as_ref(), value))
                .peekable()
        });
        std::iter::from_fn(move || {
            let Some(others) = others.as_mut() else {
                return inline.take();
            };
            match (inline, others.peek()) {
                (Some(entry), Some((key, _))) if entry.0 < *key => inline.take(),
                (Some(_), None) => inline.take(),
                _ => others.next(),
            }
        })
    }

    /// Moves every entry of `other` into `self` (entries of `other` win).
    pub fn extend(&mut self, mut other: Info) {
        if let Some((key, value)) = other.inline.take() {
            self.insert_static(key, ManuallyDrop::into_inner(value));
        }
        let Some(mut theirs) = other.entries.take() else {
            return;
        };
        if self.entries.as_ref().is_none_or(|mine| mine.is_empty()) {
            for (key, _) in theirs.iter() {
                self.take_inline(key);
            }
            if let Some(mine) = self.entries.replace(theirs) {
                spare::give_back(mine);
            }
            return;
        }
        for (key, value) in theirs.drain(..) {
            self.insert(key, value);
        }
        spare::give_back(theirs);
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
        // A map of JSON reads in key order, without repeats: the list's order.
        let entries = BTreeMap::<String, JsonValue>::deserialize(deserializer)?;
        Ok(Info {
            inline: None,
            entries: (!entries.is_empty()).then(|| {
                Box::new(
                    entries
                        .into_iter()
                        .map(|(key, value)| (Cow::Owned(key), value))
                        .collect(),
                )
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inline_and_mapped_entries_behave_as_one_map() {
        let mut info = Info::new();
        assert_eq!(info.insert_static("prob", 0.5), None);
        info.insert("alpha", 1);
        info.insert("zeta", true);
        assert_eq!(info.len(), 3);
        // Key order across both places.
        let keys: Vec<&str> = info.iter().map(|(key, _)| key).collect();
        assert_eq!(keys, ["alpha", "prob", "zeta"]);
        assert_eq!(
            serde_json::to_value(&info).expect("json"),
            json!({"alpha": 1, "prob": 0.5, "zeta": true})
        );
        // Replacing keeps one entry per key, wherever it lives.
        assert_eq!(info.insert_static("prob", 0.25), Some(json!(0.5)));
        assert_eq!(info.insert("prob", "text"), Some(json!(0.25)));
        assert_eq!(info.get("prob"), Some(&json!("text")));
        assert_eq!(info.len(), 3);
        // A key already in the map stays there.
        assert_eq!(info.insert_static("alpha", 2), Some(json!(1)));
        assert_eq!(info.remove("alpha"), Some(json!(2)));
        assert_eq!(info.get("alpha"), None);
        // Equality and round trips ignore where entries live.
        let mut inline = Info::new();
        inline.insert_static("prob", 0.5);
        let mut mapped = Info::new();
        mapped.insert("prob", 0.5);
        assert_eq!(inline, mapped);
        let back: Info = serde_json::from_value(json!({"prob": 0.5})).expect("json");
        assert_eq!(back, inline);
        // Extending: the other's entries win, inline or not.
        let mut mine = Info::new();
        mine.insert_static("prob", 1.0);
        let mut theirs = Info::new();
        theirs.insert("prob", 2.0);
        mine.extend(theirs);
        assert_eq!(mine.get("prob"), Some(&json!(2.0)));
        assert_eq!(mine.len(), 1);
        assert!(!mine.is_empty() && Info::new().is_empty());
    }
}
