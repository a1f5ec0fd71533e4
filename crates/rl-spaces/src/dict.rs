//! [`DictSpace`]: spaces keyed by name; elements are maps from the same names.

use std::collections::BTreeMap;
use std::fmt;

use rand::Rng;
use serde_json::{Map, Value};

use crate::composite;
use crate::json::describe;
use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};
use crate::tuple::transpose;
use crate::{AnyElement, AnySpace, SpaceError};

/// Named spaces (Gymnasium's `Dict`); elements map each name to an element of its space.
///
/// **Key order.** Keys are kept sorted by their Unicode code points (Rust's `String` order,
/// which is also Python's `sorted`, so it matches Gymnasium's order when a plain `dict` is
/// passed). This one order is used everywhere: sampling draws the children in key order,
/// flattening concatenates them in key order, enumeration varies the last key fastest, and
/// JSON objects are written in key order.
///
/// ```
/// use rl_spaces::{BoxSpace, DictSpace, Discrete, FlattenSpace};
///
/// let space = DictSpace::new([
///     ("velocity", BoxSpace::uniform(&[1], -1.0f32, 1.0)?.into()),
///     ("position", Discrete::new(4)?.into()),
/// ])?;
/// let keys: Vec<&str> = space.keys().collect();
/// assert_eq!(keys, ["position", "velocity"]);
/// assert_eq!(space.flat_dim(), 5);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DictSpace {
    spaces: BTreeMap<String, AnySpace>,
}

impl DictSpace {
    /// The named spaces. Errors if there is no key, a key appears twice, or a child is an empty
    /// space.
    pub fn new<K: Into<String>>(
        entries: impl IntoIterator<Item = (K, AnySpace)>,
    ) -> Result<Self, SpaceError> {
        let mut spaces = BTreeMap::new();
        for (key, space) in entries {
            let key = key.into();
            if spaces.contains_key(&key) {
                return Err(SpaceError::invalid(
                    "Dict",
                    format!("duplicate key {key:?}"),
                ));
            }
            spaces.insert(key, space);
        }
        composite::check_children("Dict", spaces.iter().map(|(k, s)| (format!("{k:?}"), s)))?;
        Ok(DictSpace { spaces })
    }

    /// The named spaces, in key order.
    pub fn spaces(&self) -> &BTreeMap<String, AnySpace> {
        &self.spaces
    }

    /// The keys, in key order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.spaces.keys().map(String::as_str)
    }

    /// The space named `key`.
    pub fn get(&self, key: &str) -> Option<&AnySpace> {
        self.spaces.get(key)
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        self.spaces.len()
    }

    /// Always false: a dict has at least one key.
    pub fn is_empty(&self) -> bool {
        false
    }

    fn children(&self) -> Vec<&AnySpace> {
        self.spaces.values().collect()
    }

    /// The values of `x` in key order, if `x` has exactly the keys of the space.
    fn values_of<'a>(&self, x: &'a BTreeMap<String, AnyElement>) -> Option<Vec<&'a AnyElement>> {
        (x.len() == self.spaces.len() && x.keys().zip(self.spaces.keys()).all(|(a, b)| a == b))
            .then(|| x.values().collect())
    }

    fn with_keys(&self, values: Vec<AnyElement>) -> BTreeMap<String, AnyElement> {
        self.spaces.keys().cloned().zip(values).collect()
    }
}

impl fmt::Display for DictSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Dict(")?;
        for (i, (k, s)) in self.spaces.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{k:?}: {s}")?;
        }
        write!(f, ")")
    }
}

impl Space for DictSpace {
    type Element = BTreeMap<String, AnyElement>;

    fn contains(&self, x: &BTreeMap<String, AnyElement>) -> bool {
        self.values_of(x)
            .is_some_and(|values| composite::contains(&self.children(), &values))
    }
}

impl SampleSpace for DictSpace {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> BTreeMap<String, AnyElement> {
        self.spaces
            .iter()
            .map(|(k, s)| (k.clone(), s.sample_child(rng)))
            .collect()
    }
}

impl FiniteSpace for DictSpace {
    fn cardinality(&self) -> Option<usize> {
        composite::cardinality(&self.children())
    }

    fn element_at(&self, index: usize) -> Option<BTreeMap<String, AnyElement>> {
        composite::element_at(&self.children(), index).map(|v| self.with_keys(v))
    }

    fn index_of(&self, x: &BTreeMap<String, AnyElement>) -> Option<usize> {
        composite::index_of(&self.children(), &self.values_of(x)?)
    }
}

impl FlattenSpace for DictSpace {
    fn is_flattenable(&self) -> bool {
        self.spaces.values().all(|s| s.is_flattenable())
    }

    fn flat_dim(&self) -> usize {
        composite::flat_dim(&self.children())
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        x: &BTreeMap<String, AnyElement>,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        let values = self
            .values_of(x)
            .ok_or_else(|| SpaceError::not_in_space(x, self))?;
        composite::flatten_into(&self.children(), &values, out)
    }

    fn batched_dim(&self) -> usize {
        composite::batched_dim(&self.children())
    }

    fn batched_into<F: FlatScalar>(
        &self,
        x: &BTreeMap<String, AnyElement>,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        let values = self
            .values_of(x)
            .ok_or_else(|| SpaceError::not_in_space(x, self))?;
        composite::batched_into(&self.children(), &values, out)
    }

    fn unflatten<F: FlatScalar>(
        &self,
        flat: &[F],
    ) -> Result<BTreeMap<String, AnyElement>, SpaceError> {
        composite::unflatten(&self.children(), flat).map(|v| self.with_keys(v))
    }
}

/// Reads a JSON object that must have exactly the keys of the space.
fn exact_object<'a>(
    space: &DictSpace,
    value: &'a Value,
) -> Result<&'a Map<String, Value>, SpaceError> {
    let object = value.as_object().ok_or_else(|| {
        SpaceError::json(format!("expected an object, found {}", describe(value)))
    })?;
    if let Some(missing) = space.keys().find(|k| !object.contains_key(*k)) {
        return Err(SpaceError::json(format!("missing key {missing:?}")));
    }
    if let Some(extra) = object.keys().find(|k| space.get(k).is_none()) {
        return Err(SpaceError::json(format!(
            "unknown key {extra:?} (expected {:?})",
            space.keys().collect::<Vec<_>>()
        )));
    }
    Ok(object)
}

impl JsonSpace for DictSpace {
    fn element_to_json(&self, x: &BTreeMap<String, AnyElement>) -> Result<Value, SpaceError> {
        let values = self
            .values_of(x)
            .ok_or_else(|| SpaceError::not_in_space(x, self))?;
        let mut object = Map::new();
        for ((key, space), v) in self.spaces.iter().zip(values) {
            object.insert(key.clone(), space.element_to_json(v)?);
        }
        Ok(Value::Object(object))
    }

    fn element_from_json(&self, value: &Value) -> Result<BTreeMap<String, AnyElement>, SpaceError> {
        let object = exact_object(self, value)?;
        self.spaces
            .iter()
            .map(|(key, space)| {
                let v = object.get(key).unwrap_or(&Value::Null);
                space
                    .element_from_json(v)
                    .map(|x| (key.clone(), x))
                    .map_err(|e| e.within(&format!(".{key}")))
            })
            .collect()
    }

    /// Column-wise, as Gymnasium: `{key: batch of that child, ...}`.
    fn batch_to_jsonable(
        &self,
        batch: &[BTreeMap<String, AnyElement>],
    ) -> Result<Value, SpaceError> {
        let rows = batch
            .iter()
            .map(|x| {
                self.values_of(x)
                    .ok_or_else(|| SpaceError::not_in_space(x, self))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut object = Map::new();
        for (i, (key, space)) in self.spaces.iter().enumerate() {
            let column: Vec<AnyElement> = rows.iter().map(|row| row[i].clone()).collect();
            object.insert(key.clone(), space.batch_to_jsonable(&column)?);
        }
        Ok(Value::Object(object))
    }

    fn batch_from_jsonable(
        &self,
        value: &Value,
    ) -> Result<Vec<BTreeMap<String, AnyElement>>, SpaceError> {
        let object = exact_object(self, value)?;
        let columns = self
            .spaces
            .iter()
            .map(|(key, space)| {
                let v = object.get(key).unwrap_or(&Value::Null);
                space
                    .batch_from_jsonable(v)
                    .map_err(|e| e.within(&format!(".{key}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let keys: Vec<&String> = self.spaces.keys().collect();
        let rows = transpose(columns, |i| format!("{:?}", keys[i]))?;
        Ok(rows.into_iter().map(|row| self.with_keys(row)).collect())
    }
}
