//! [`Info`]: the string-keyed map of extra facts about a step, and [`InfoValue`], one fact.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::mem::ManuallyDrop;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value as JsonValue;

/// Extra facts about a step or a reset, keyed by name (scikit-decide's `StrDict`, Gymnasium's
/// `info`).
///
/// Values are [`InfoValue`]s: booleans, integers, floats and lists of floats are kept as they
/// are (no JSON is built on a step that reports numbers), anything else as JSON.
///
/// An empty `Info` is free: creating, moving and dropping it never allocates, so domains that
/// report nothing pay nothing on the step path. One entry with a `'static` key and a boolean or
/// number, set with [`insert_static`](Self::insert_static), is kept inline. Other entries go into a list
/// sorted by key, whose memory is taken from the spares that dropped infos gave back (one
/// pool for every thread) and given back when the info is dropped: a domain
/// that reports several facts per step (MuJoCo's reward terms and positions) allocates nothing
/// once a few infos were dropped. A `'static` key (a string literal) is kept as a
/// reference, a key made at run time (a `String`) as it is; values with heap data (strings,
/// arrays) allocate their own memory.
///
/// ```
/// use rl_core::{Info, InfoValue};
///
/// let mut info = Info::new();
/// assert!(info.is_empty());
/// info.insert("moved", true);
/// assert_eq!(info.get("moved"), Some(&InfoValue::Bool(true)));
/// info.insert_static("prob", 0.25); // inline
/// assert_eq!(info.iter().map(|(key, _)| key).collect::<Vec<_>>(), ["moved", "prob"]);
/// ```
#[derive(Clone, Default)]
pub struct Info {
    /// One entry with a static key and a scalar value (a boolean or a number, never a list
    /// or JSON), kept inline; its key is never also in `entries`. The value is a
    /// `ManuallyDrop` because it never owns memory (only scalars go here): dropping an info
    /// then costs nothing for it, where a field with drop glue makes every drop of every
    /// step's info a call into it (9% of a single CartPole step, measured with perf).
    inline: Option<(&'static str, ManuallyDrop<InfoValue>)>,
    /// The other entries (`'static` keys borrowed, others owned), sorted by key without
    /// repeats; `None` while there are none. Without entries this is one null pointer, so that
    /// moving an info through a step and dropping it cost next to nothing. The box and its
    /// list come from the spares ([`spare`]) and go back to them on drop.
    #[allow(clippy::box_collection)]
    entries: Option<Box<Entries>>,
}

/// The entries of an info besides the inline one, sorted by key.
type Entries = Vec<(Cow<'static, str>, InfoValue)>;

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
fn is_scalar(value: &InfoValue) -> bool {
    matches!(
        value,
        InfoValue::Bool(_) | InfoValue::Int(_) | InfoValue::Float(_)
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
        value: impl Into<InfoValue>,
    ) -> Option<InfoValue> {
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
        value: impl Into<InfoValue>,
    ) -> Option<InfoValue> {
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
    fn insert_static_slow(&mut self, key: &'static str, value: InfoValue) -> Option<InfoValue> {
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
    fn take_inline(&mut self, key: &str) -> Option<InfoValue> {
        if self.inline.as_ref().is_some_and(|(held, _)| *held == key) {
            self.inline
                .take()
                .map(|(_, value)| ManuallyDrop::into_inner(value))
        } else {
            None
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&InfoValue> {
        match &self.inline {
            Some((held, value)) if *held == key => Some(&**value),
            _ => {
                let entries = self.entries.as_ref()?;
                position(entries, key).ok().map(|at| &entries[at].1)
            }
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<InfoValue> {
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
    pub fn iter(&self) -> impl Iterator<Item = (&str, &InfoValue)> {
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
                        .map(|(key, value)| (Cow::Owned(key), InfoValue::from(value)))
                        .collect(),
                )
            }),
        })
    }
}

/// One value of an [`Info`]: a boolean, an integer, a float or a list of floats as it is,
/// anything else (null, text, other arrays, objects, integers beyond `i64`) as JSON.
///
/// Made with `From` from Rust's numbers and booleans, float slices and vectors, strings and JSON
/// values; a JSON boolean, number or array of floats that fits one of the typed kinds becomes
/// that kind, so that a value is the same whichever way it was made. Equal values compare equal
/// whichever variant holds them; a float equals only a float (as JSON's `1` and `1.0` differ,
/// and Python's `int` and `float` columns), and not-a-number equals not-a-number (a trajectory
/// replayed is equal to itself).
///
/// ```
/// use rl_core::InfoValue;
/// use serde_json::json;
///
/// assert_eq!(InfoValue::from(0.25), InfoValue::Float(0.25));
/// assert_eq!(InfoValue::from(json!(3)), InfoValue::Int(3));
/// assert_eq!(InfoValue::from("left").to_json(), json!("left"));
/// assert_ne!(InfoValue::from(1), InfoValue::from(1.0));
/// assert_eq!(InfoValue::from(&[0.5, 1.5][..]).as_floats().as_deref(), Some(&[0.5, 1.5][..]));
/// ```
#[derive(Clone, Debug)]
pub enum InfoValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float (kept as it is, not-a-number and infinities included; JSON writes those as
    /// `null`).
    Float(f64),
    /// A list of floats (as [`Float`](Self::Float) each): up to [`InfoFloats::INLINE`] kept in the
    /// value itself, no allocation.
    Floats(InfoFloats),
    /// Anything else, as JSON.
    Json(JsonValue),
}

/// The floats of an [`InfoValue::Floats`]: up to [`INLINE`](Self::INLINE) of them kept in
/// place, more on the heap. Read as a slice (`Deref<Target = [f64]>`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InfoFloats(smallvec::SmallVec<[f64; InfoFloats::INLINE]>);

impl InfoFloats {
    /// How many floats a list keeps without allocating (MuJoCo's humanoids report two tendon
    /// lengths; a position in space is three).
    pub const INLINE: usize = 3;
}

impl std::ops::Deref for InfoFloats {
    type Target = [f64];

    fn deref(&self) -> &[f64] {
        &self.0
    }
}

impl From<&[f64]> for InfoFloats {
    #[inline]
    fn from(values: &[f64]) -> Self {
        InfoFloats(smallvec::SmallVec::from_slice(values))
    }
}

impl InfoValue {
    /// The value as JSON (a float that is not finite as `null`, as `serde_json` makes it).
    pub fn to_json(&self) -> JsonValue {
        match self {
            InfoValue::Bool(flag) => JsonValue::Bool(*flag),
            InfoValue::Int(integer) => JsonValue::from(*integer),
            InfoValue::Float(float) => JsonValue::from(*float),
            InfoValue::Floats(floats) => floats.iter().copied().map(JsonValue::from).collect(),
            InfoValue::Json(value) => value.clone(),
        }
    }

    /// The value as a list of floats, if it is one (a JSON array of floats too, which is
    /// then converted: an allocation).
    pub fn as_floats(&self) -> Option<Cow<'_, [f64]>> {
        match self.normal() {
            Cow::Borrowed(InfoValue::Floats(floats)) => Some(Cow::Borrowed(&**floats)),
            Cow::Owned(InfoValue::Floats(floats)) => Some(Cow::Owned(floats.to_vec())),
            _ => None,
        }
    }

    /// The value as a float: a float, an integer (rounded to the nearest float) or a JSON
    /// number; `None` otherwise.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            InfoValue::Float(float) => Some(*float),
            InfoValue::Int(integer) => Some(*integer as f64),
            InfoValue::Json(value) => value.as_f64(),
            InfoValue::Bool(_) | InfoValue::Floats(_) => None,
        }
    }

    /// The value as an integer, if it is one (a JSON integer within `i64` too).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            InfoValue::Int(integer) => Some(*integer),
            InfoValue::Json(value) => value.as_i64(),
            _ => None,
        }
    }

    /// The value as a boolean, if it is one (a JSON boolean too).
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            InfoValue::Bool(flag) => Some(*flag),
            InfoValue::Json(value) => value.as_bool(),
            _ => None,
        }
    }

    /// The same value with a JSON boolean, number or array of floats that fits one of the
    /// other kinds in that kind (what every `From` gives).
    fn normal(&self) -> Cow<'_, InfoValue> {
        match self {
            InfoValue::Json(value) => match scalar_of(value) {
                Some(scalar) => Cow::Owned(scalar),
                None => Cow::Borrowed(self),
            },
            _ => Cow::Borrowed(self),
        }
    }
}

/// The boolean, integer, float or list of floats a JSON value is, if it is one of them (a list
/// of floats allocates where longer than [`InfoFloats::INLINE`]).
fn scalar_of(value: &JsonValue) -> Option<InfoValue> {
    match value {
        JsonValue::Bool(flag) => Some(InfoValue::Bool(*flag)),
        JsonValue::Number(number) => {
            if let Some(integer) = number.as_i64() {
                Some(InfoValue::Int(integer))
            } else if number.is_f64() {
                number.as_f64().map(InfoValue::Float)
            } else {
                None
            }
        }
        JsonValue::Array(items)
            if !items.is_empty()
                && items
                    .iter()
                    .all(|item| item.as_number().is_some_and(serde_json::Number::is_f64)) =>
        {
            Some(InfoValue::Floats(InfoFloats(
                items.iter().filter_map(JsonValue::as_f64).collect(),
            )))
        }
        _ => None,
    }
}

/// Whether two floats are the same value (not-a-number equal to itself).
fn same_float(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

impl PartialEq for InfoValue {
    fn eq(&self, other: &InfoValue) -> bool {
        match (&*self.normal(), &*other.normal()) {
            (InfoValue::Bool(a), InfoValue::Bool(b)) => a == b,
            (InfoValue::Int(a), InfoValue::Int(b)) => a == b,
            (InfoValue::Float(a), InfoValue::Float(b)) => same_float(*a, *b),
            (InfoValue::Floats(a), InfoValue::Floats(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(a, b)| same_float(*a, *b))
            }
            (InfoValue::Json(a), InfoValue::Json(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq<JsonValue> for InfoValue {
    /// Whether this value equals `other` made into an `InfoValue`.
    fn eq(&self, other: &JsonValue) -> bool {
        match scalar_of(other) {
            Some(scalar) => *self == scalar,
            None => matches!(self, InfoValue::Json(value) if value == other),
        }
    }
}

impl fmt::Display for InfoValue {
    /// The value as JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfoValue::Json(value) => write!(f, "{value}"),
            other => write!(f, "{}", other.to_json()),
        }
    }
}

impl Serialize for InfoValue {
    /// As JSON: a float that is not finite as `null`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            InfoValue::Bool(flag) => serializer.serialize_bool(*flag),
            InfoValue::Int(integer) => serializer.serialize_i64(*integer),
            InfoValue::Float(float) if float.is_finite() => serializer.serialize_f64(*float),
            InfoValue::Float(_) => serializer.serialize_unit(),
            InfoValue::Floats(floats) => serializer.collect_seq(
                floats
                    .iter()
                    .map(|float| float.is_finite().then_some(*float)),
            ),
            InfoValue::Json(value) => value.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for InfoValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        JsonValue::deserialize(deserializer).map(InfoValue::from)
    }
}

impl From<JsonValue> for InfoValue {
    #[inline]
    fn from(value: JsonValue) -> Self {
        scalar_of(&value).unwrap_or(InfoValue::Json(value))
    }
}

impl From<InfoValue> for JsonValue {
    fn from(value: InfoValue) -> Self {
        match value {
            InfoValue::Json(value) => value,
            other => other.to_json(),
        }
    }
}

impl From<bool> for InfoValue {
    #[inline]
    fn from(flag: bool) -> Self {
        InfoValue::Bool(flag)
    }
}

impl From<f64> for InfoValue {
    #[inline]
    fn from(float: f64) -> Self {
        InfoValue::Float(float)
    }
}

impl From<f32> for InfoValue {
    #[inline]
    fn from(float: f32) -> Self {
        InfoValue::Float(f64::from(float))
    }
}

/// `From` for integer types that always fit an `i64`.
macro_rules! from_integer {
    ($($integer:ty),*) => {$(
        impl From<$integer> for InfoValue {
            #[inline]
            fn from(integer: $integer) -> Self {
                InfoValue::Int(i64::from(integer))
            }
        }
    )*};
}

from_integer!(i8, i16, i32, i64, u8, u16, u32);

/// `From` for integer types that may not fit an `i64` (then kept as a JSON number).
macro_rules! from_wide_integer {
    ($($integer:ty),*) => {$(
        impl From<$integer> for InfoValue {
            #[inline]
            fn from(integer: $integer) -> Self {
                match i64::try_from(integer) {
                    Ok(integer) => InfoValue::Int(integer),
                    Err(_) => InfoValue::Json(JsonValue::from(integer)),
                }
            }
        }
    )*};
}

from_wide_integer!(u64, usize, isize);

impl From<&str> for InfoValue {
    fn from(text: &str) -> Self {
        InfoValue::Json(JsonValue::from(text))
    }
}

impl From<String> for InfoValue {
    fn from(text: String) -> Self {
        InfoValue::Json(JsonValue::String(text))
    }
}

impl From<&[f64]> for InfoValue {
    /// A list of floats (no allocation for up to [`InfoFloats::INLINE`]).
    #[inline]
    fn from(floats: &[f64]) -> Self {
        InfoValue::Floats(InfoFloats::from(floats))
    }
}

impl From<Vec<f64>> for InfoValue {
    /// A list of floats.
    fn from(floats: Vec<f64>) -> Self {
        InfoValue::Floats(InfoFloats(smallvec::SmallVec::from_vec(floats)))
    }
}

impl From<Vec<&str>> for InfoValue {
    /// A JSON array of strings.
    fn from(items: Vec<&str>) -> Self {
        InfoValue::Json(JsonValue::from(items))
    }
}

impl From<Vec<String>> for InfoValue {
    /// A JSON array of strings.
    fn from(items: Vec<String>) -> Self {
        InfoValue::Json(JsonValue::from(items))
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
        assert_eq!(
            info.insert_static("prob", 0.25),
            Some(InfoValue::Float(0.5))
        );
        assert_eq!(info.insert("prob", "text"), Some(InfoValue::Float(0.25)));
        assert_eq!(info.get("prob"), Some(&InfoValue::from("text")));
        assert_eq!(info.len(), 3);
        // A key already in the map stays there.
        assert_eq!(info.insert_static("alpha", 2), Some(InfoValue::Int(1)));
        assert_eq!(info.remove("alpha"), Some(InfoValue::Int(2)));
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
        assert_eq!(mine.get("prob"), Some(&InfoValue::Float(2.0)));
        assert_eq!(mine.len(), 1);
        assert!(!mine.is_empty() && Info::new().is_empty());
    }

    #[test]
    fn values_are_one_kind_however_made() {
        // JSON booleans and numbers become the typed kinds, so equal values compare equal.
        assert_eq!(InfoValue::from(json!(true)), InfoValue::Bool(true));
        assert_eq!(InfoValue::from(json!(-3)), InfoValue::Int(-3));
        assert_eq!(InfoValue::from(json!(0.5)), InfoValue::Float(0.5));
        assert_eq!(InfoValue::Json(json!(7)), InfoValue::Int(7));
        assert_eq!(InfoValue::Int(7), json!(7));
        // The accessors read a value however it was made.
        assert_eq!(InfoValue::Json(json!(7)).as_i64(), Some(7));
        assert_eq!(InfoValue::Json(json!(true)).as_bool(), Some(true));
        assert_eq!(InfoValue::Int(7).as_f64(), Some(7.0));
        assert_eq!(InfoValue::Float(7.0).as_i64(), None);
        // An integer and a float differ (JSON's 1 and 1.0; NumPy's int64 and float64 columns).
        assert_ne!(InfoValue::Int(1), InfoValue::Float(1.0));
        assert_ne!(InfoValue::Float(1.0), json!(1));
        // Integers beyond i64 stay JSON numbers, equal to themselves.
        let huge = InfoValue::from(u64::MAX);
        assert_eq!(huge, InfoValue::Json(json!(u64::MAX)));
        assert_eq!(huge.as_i64(), None);
        // Not-a-number is kept (JSON writes it as null) and equals itself.
        let nan = InfoValue::from(f64::NAN);
        assert_eq!(nan, InfoValue::Float(f64::NAN));
        assert_eq!(nan.to_json(), json!(null));
        assert_eq!(serde_json::to_string(&nan).expect("json"), "null");
        // Lists of floats are typed, JSON's too; other arrays stay JSON.
        assert_eq!(
            InfoValue::from(json!([0.5, 1.5])),
            InfoValue::from(vec![0.5, 1.5])
        );
        assert_eq!(
            InfoValue::from(json!([0.5, 1.5])).as_floats().as_deref(),
            Some(&[0.5, 1.5][..])
        );
        assert!(matches!(InfoValue::from(json!([1, 2])), InfoValue::Json(_)));
        assert_ne!(
            InfoValue::from(json!([1, 2])),
            InfoValue::from(vec![1.0, 2.0])
        );
        let long: Vec<f64> = (0..9).map(f64::from).collect();
        assert_eq!(
            InfoValue::from(&long[..]).as_floats().as_deref(),
            Some(&long[..])
        );
        assert_eq!(
            serde_json::to_string(&InfoValue::from(&[0.5, f64::NAN][..])).expect("json"),
            "[0.5,null]"
        );
        // Text, arrays and objects are JSON; round trips through JSON keep every kind.
        let mut info = Info::new();
        info.insert("name", "hopper");
        info.insert("lengths", vec![0.5, 1.5]);
        info.insert("count", 3_usize);
        info.insert_static("done", false);
        let text = serde_json::to_string(&info).expect("json");
        assert_eq!(
            text,
            r#"{"count":3,"done":false,"lengths":[0.5,1.5],"name":"hopper"}"#
        );
        let back: Info = serde_json::from_str(&text).expect("json");
        assert_eq!(back, info);
        assert_eq!(back.get("count").and_then(InfoValue::as_i64), Some(3));
        assert_eq!(back.get("done").and_then(InfoValue::as_bool), Some(false));
        assert_eq!(
            back.get("lengths").map(ToString::to_string).as_deref(),
            Some("[0.5,1.5]")
        );
    }
}
