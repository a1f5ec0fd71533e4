//! The versioned JSON format for space definitions, and a strict JSON reader.
//!
//! A definition document looks like this (keys are written in sorted order):
//!
//! ```json
//! {
//!   "format": "rl-spaces/space",
//!   "space": {
//!     "dtype": "float32",
//!     "high": [1.0, "inf"],
//!     "low": [-1.0, 0.0],
//!     "shape": [2],
//!     "type": "Box"
//!   },
//!   "version": 1
//! }
//! ```
//!
//! | `type` | fields |
//! |---|---|
//! | `Discrete` | `n` (≥ 1), `start` (optional, default 0) |
//! | `Box` | `dtype` (NumPy name), `shape`, `low`, `high`: a flat row-major list or one value for every entry; infinite float bounds are the strings `"inf"` and `"-inf"` |
//! | `MultiDiscrete` | `nvec` and `start` (optional) as flat row-major lists or one value; `shape` (optional, default `[len(nvec)]`) |
//! | `MultiBinary` | `shape` |
//! | `Tuple` | `spaces`: a list of definitions |
//! | `Dict` | `spaces`: an object of definitions |
//! | `FiniteSet` | `elements`: a list of distinct JSON values |
//! | `Text` | `max_length`, `min_length` (optional, default 1), `charset` (optional, default [`ALPHANUMERIC`](crate::ALPHANUMERIC)): a string of distinct characters in the order that numbers them |
//! | `Sequence` | `feature_space`: a definition; `stack` (optional, default false) |
//! | `Graph` | `node_space`: a Box or Discrete definition; `edge_space`: one, or `null` for none |
//! | `OneOf` | `spaces`: a list of definitions |
//! | `Empty` | no field |
//!
//! Reading is strict: unknown fields, duplicate keys, wrong types, mismatched lengths and
//! invalid parameters are errors that give the JSON path. Definitions are always written in
//! the explicit form (flat lists, every optional field present), so writing then reading gives
//! back an equal space.

use std::collections::BTreeMap;
use std::fmt;

use ndarray::{ArrayD, IxDyn};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::json::{StrictObject, describe};
use crate::scalar::{BoxScalar, DType};
use crate::{
    AnyBox, AnySpace, BoxSpace, DictSpace, Discrete, EmptySpace, FiniteSet, GraphSpace,
    MultiBinary, MultiDiscrete, OneOfSpace, SequenceSpace, SpaceError, Text, TupleSpace,
};

/// The `format` field of a definition document.
pub const FORMAT_NAME: &str = "rl-spaces/space";

/// The `version` field this build writes and reads.
pub const FORMAT_VERSION: u64 = 1;

/// The most entries a bound given as one value may be broadcast to (16 777 216), so that a
/// small malicious document cannot ask for an enormous allocation.
pub const MAX_BROADCAST_ENTRIES: usize = 1 << 24;

impl AnySpace {
    /// The definition of the space, without the document envelope (the form nested inside
    /// Tuple and Dict definitions).
    pub fn to_definition(&self) -> Value {
        let mut object = Map::new();
        object.insert("type".to_owned(), Value::from(self.kind()));
        match self {
            AnySpace::Discrete(s) => {
                object.insert("n".to_owned(), Value::from(s.n()));
                object.insert("start".to_owned(), Value::from(s.start()));
            }
            AnySpace::Box(b) => write_box(b, &mut object),
            AnySpace::MultiDiscrete(s) => {
                object.insert("shape".to_owned(), Value::from(s.shape().to_vec()));
                object.insert(
                    "nvec".to_owned(),
                    Value::from(s.nvec().iter().copied().collect::<Vec<_>>()),
                );
                object.insert(
                    "start".to_owned(),
                    Value::from(s.start().iter().copied().collect::<Vec<_>>()),
                );
            }
            AnySpace::MultiBinary(s) => {
                object.insert("shape".to_owned(), Value::from(s.shape().to_vec()));
            }
            AnySpace::Tuple(s) => {
                let spaces = s.spaces().iter().map(AnySpace::to_definition).collect();
                object.insert("spaces".to_owned(), Value::Array(spaces));
            }
            AnySpace::Dict(s) => {
                let spaces = s
                    .spaces()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_definition()))
                    .collect();
                object.insert("spaces".to_owned(), Value::Object(spaces));
            }
            AnySpace::FiniteSet(s) => {
                object.insert("elements".to_owned(), Value::Array(s.as_slice().to_vec()));
            }
            AnySpace::Empty(_) => {}
            AnySpace::Text(s) => {
                object.insert("min_length".to_owned(), Value::from(s.min_length()));
                object.insert("max_length".to_owned(), Value::from(s.max_length()));
                object.insert("charset".to_owned(), Value::from(s.charset_string()));
            }
            AnySpace::Sequence(s) => {
                object.insert(
                    "feature_space".to_owned(),
                    s.feature_space().to_definition(),
                );
                object.insert("stack".to_owned(), Value::from(s.stack()));
            }
            AnySpace::Graph(s) => {
                object.insert("node_space".to_owned(), s.node_space().to_definition());
                object.insert(
                    "edge_space".to_owned(),
                    s.edge_space().map_or(Value::Null, AnySpace::to_definition),
                );
            }
            AnySpace::OneOf(s) => {
                let spaces = s.spaces().iter().map(AnySpace::to_definition).collect();
                object.insert("spaces".to_owned(), Value::Array(spaces));
            }
        }
        Value::Object(object)
    }

    /// Reads a definition without the document envelope.
    pub fn from_definition(value: &Value) -> Result<AnySpace, SpaceError> {
        let kind = value
            .as_object()
            .and_then(|o| o.get("type"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                SpaceError::json(format!(
                    "expected a space definition object with a string field `type`, found {}",
                    describe(value)
                ))
            })?;
        match kind {
            "Discrete" => read_discrete(value),
            "Box" => read_box(value),
            "MultiDiscrete" => read_multi_discrete(value),
            "MultiBinary" => read_multi_binary(value),
            "Tuple" => read_tuple(value),
            "Dict" => read_dict(value),
            "FiniteSet" => read_finite_set(value),
            "Text" => read_text(value),
            "Sequence" => read_sequence(value),
            "Graph" => read_graph(value),
            "OneOf" => read_one_of(value),
            "Empty" => {
                StrictObject::new(value, "Empty", &["type"])?;
                Ok(AnySpace::Empty(EmptySpace::new()))
            }
            other => Err(SpaceError::json(format!(
                "unknown space type {other:?} (expected one of: Discrete, Box, MultiDiscrete, \
                 MultiBinary, Tuple, Dict, FiniteSet, Text, Sequence, Graph, OneOf, Empty)"
            ))
            .within(".type")),
        }
    }

    /// The definition document: `{"format": "rl-spaces/space", "version": 1, "space": ...}`.
    pub fn to_definition_document(&self) -> Value {
        let mut object = Map::new();
        object.insert("format".to_owned(), Value::from(FORMAT_NAME));
        object.insert("version".to_owned(), Value::from(FORMAT_VERSION));
        object.insert("space".to_owned(), self.to_definition());
        Value::Object(object)
    }

    /// Reads a definition document, checking its format name and version.
    pub fn from_definition_document(value: &Value) -> Result<AnySpace, SpaceError> {
        let object = StrictObject::new(
            value,
            "space definition document",
            &["format", "version", "space"],
        )?;
        let format = object.required("format")?;
        let version = object.required("version")?;
        if format.as_str() != Some(FORMAT_NAME) || version.as_u64() != Some(FORMAT_VERSION) {
            return Err(SpaceError::UnsupportedFormat {
                found: format!("{format} version {version}"),
                supported: format!("{FORMAT_NAME:?} version {FORMAT_VERSION}"),
            });
        }
        AnySpace::from_definition(object.required("space")?).map_err(|e| e.within(".space"))
    }

    /// The definition document as pretty-printed JSON text.
    pub fn to_definition_string(&self) -> String {
        // Serializing a `Value` to a string cannot fail.
        serde_json::to_string_pretty(&self.to_definition_document()).unwrap_or_default()
    }

    /// Reads a definition document from JSON text (strictly: duplicate keys are errors).
    pub fn from_definition_str(text: &str) -> Result<AnySpace, SpaceError> {
        AnySpace::from_definition_document(&parse_strict(text)?)
    }
}

impl Serialize for AnySpace {
    /// Serializes the definition without the envelope (see [`AnySpace::to_definition`]).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_definition().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for AnySpace {
    /// Deserializes a definition without the envelope (see [`AnySpace::from_definition`]).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = StrictValue::deserialize(deserializer)?.0;
        AnySpace::from_definition(&value).map_err(de::Error::custom)
    }
}

/// Parses JSON text like `serde_json::from_str`, but rejects objects that repeat a key
/// (serde_json would silently keep the last value).
pub fn parse_strict(text: &str) -> Result<Value, SpaceError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = StrictValue::deserialize(&mut deserializer)
        .and_then(|v| deserializer.end().map(|()| v))
        .map_err(|e| SpaceError::json(format!("not valid JSON: {e}")))?;
    Ok(value.0)
}

/// A JSON value deserialized with duplicate object keys rejected.
struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = StrictValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::from(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<StrictValue, E> {
        Ok(StrictValue(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, v: &str) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::String(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::Null))
    }

    fn visit_none<E>(self) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<StrictValue, D::Error> {
        StrictValue::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrictValue, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(StrictValue(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<StrictValue, A::Error> {
        let mut object = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let StrictValue(value) = access.next_value()?;
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate key {key:?}")));
            }
            object.insert(key, value);
        }
        Ok(StrictValue(Value::Object(object)))
    }
}

/// Turns a constructor's error into a JSON error at the current place.
fn constructor_error(error: SpaceError) -> SpaceError {
    match error {
        SpaceError::InvalidJson { .. } => error,
        other => SpaceError::json(other.to_string()),
    }
}

fn read_discrete(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "Discrete", &["type", "n", "start"])?;
    let n = object
        .required("n")?
        .as_u64()
        .ok_or_else(|| SpaceError::json("expected a positive integer").within(".n"))?;
    let start = match object.optional("start") {
        None => 0,
        Some(v) => v
            .as_i64()
            .ok_or_else(|| SpaceError::json("expected an integer").within(".start"))?,
    };
    Discrete::with_start(n, start)
        .map(AnySpace::Discrete)
        .map_err(constructor_error)
}

fn read_shape(value: &Value) -> Result<Vec<usize>, SpaceError> {
    let items = value.as_array().ok_or_else(|| {
        SpaceError::json(format!(
            "expected a list of sizes, found {}",
            describe(value)
        ))
    })?;
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_u64()
                .and_then(|d| usize::try_from(d).ok())
                .ok_or_else(|| {
                    SpaceError::json(format!("expected a size, found {}", describe(v)))
                        .within(&format!("[{i}]"))
                })
        })
        .collect()
}

/// Reads the `shape` of a `space` whose per-entry parameters are read next: a shape of too
/// many entries is refused here, at `.shape`, rather than blamed on the first parameter read
/// with it ([`read_entries`] checks again, for the shapes it is given otherwise).
fn read_sized_shape(value: &Value, space: &'static str) -> Result<Vec<usize>, SpaceError> {
    let shape = read_shape(value).map_err(|e| e.within(".shape"))?;
    crate::limits::check_shape(space, &shape).map_err(|e| constructor_error(e).within(".shape"))?;
    Ok(shape)
}

/// Reads a per-entry parameter: one value for every entry, or a flat row-major list.
fn read_entries<T: Clone>(
    value: &Value,
    shape: &[usize],
    expected: &str,
    read: impl Fn(&Value) -> Option<T>,
) -> Result<ArrayD<T>, SpaceError> {
    // The entry count is checked against the crate's limit before anything is allocated.
    let len = crate::limits::check_shape("shape", shape).map_err(constructor_error)?;
    let values = match value.as_array() {
        Some(items) => {
            if items.len() != len {
                return Err(SpaceError::json(format!(
                    "expected {len} values (one per entry of shape {shape:?}), found {}",
                    items.len()
                )));
            }
            items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    read(v).ok_or_else(|| {
                        SpaceError::json(format!("expected {expected}, found {}", describe(v)))
                            .within(&format!("[{i}]"))
                    })
                })
                .collect::<Result<Vec<T>, _>>()?
        }
        None => {
            let one = read(value).ok_or_else(|| {
                SpaceError::json(format!(
                    "expected {expected} or a list of them, found {}",
                    describe(value)
                ))
            })?;
            if len > MAX_BROADCAST_ENTRIES {
                return Err(SpaceError::json(format!(
                    "one value for {len} entries: give a list, or at most {MAX_BROADCAST_ENTRIES} entries"
                )));
            }
            vec![one; len]
        }
    };
    ArrayD::from_shape_vec(IxDyn(shape), values).map_err(|e| SpaceError::json(e.to_string()))
}

fn write_box(space: &AnyBox, object: &mut Map<String, Value>) {
    fn write<T: BoxScalar>(b: &BoxSpace<T>, object: &mut Map<String, Value>) {
        object.insert("dtype".to_owned(), Value::from(T::DTYPE.name()));
        object.insert("shape".to_owned(), Value::from(b.shape().to_vec()));
        object.insert(
            "low".to_owned(),
            Value::Array(b.low().iter().map(|v| v.to_json()).collect()),
        );
        object.insert(
            "high".to_owned(),
            Value::Array(b.high().iter().map(|v| v.to_json()).collect()),
        );
    }
    match space {
        AnyBox::F32(b) => write(b, object),
        AnyBox::F64(b) => write(b, object),
        AnyBox::I8(b) => write(b, object),
        AnyBox::I16(b) => write(b, object),
        AnyBox::I32(b) => write(b, object),
        AnyBox::I64(b) => write(b, object),
        AnyBox::U8(b) => write(b, object),
        AnyBox::U16(b) => write(b, object),
        AnyBox::U32(b) => write(b, object),
        AnyBox::U64(b) => write(b, object),
    }
}

fn read_box(value: &Value) -> Result<AnySpace, SpaceError> {
    fn typed<T: BoxScalar>(
        object: &StrictObject<'_>,
        shape: &[usize],
    ) -> Result<AnySpace, SpaceError> {
        let expected = if T::DTYPE.is_float() {
            "a number, \"inf\" or \"-inf\""
        } else {
            "an integer in the dtype's range"
        };
        let low = read_entries(object.required("low")?, shape, expected, T::from_json)
            .map_err(|e| e.within(".low"))?;
        let high = read_entries(object.required("high")?, shape, expected, T::from_json)
            .map_err(|e| e.within(".high"))?;
        BoxSpace::new(low, high)
            .map(AnySpace::from)
            .map_err(constructor_error)
    }
    let object = StrictObject::new(value, "Box", &["type", "dtype", "shape", "low", "high"])?;
    let dtype_value = object.required("dtype")?;
    let dtype = dtype_value
        .as_str()
        .and_then(DType::from_name)
        .ok_or_else(|| {
            SpaceError::json(format!(
                "expected a dtype name ({}), found {}",
                DType::ALL.map(DType::name).join(", "),
                describe(dtype_value)
            ))
            .within(".dtype")
        })?;
    let shape = read_sized_shape(object.required("shape")?, "Box")?;
    match dtype {
        DType::F32 => typed::<f32>(&object, &shape),
        DType::F64 => typed::<f64>(&object, &shape),
        DType::I8 => typed::<i8>(&object, &shape),
        DType::I16 => typed::<i16>(&object, &shape),
        DType::I32 => typed::<i32>(&object, &shape),
        DType::I64 => typed::<i64>(&object, &shape),
        DType::U8 => typed::<u8>(&object, &shape),
        DType::U16 => typed::<u16>(&object, &shape),
        DType::U32 => typed::<u32>(&object, &shape),
        DType::U64 => typed::<u64>(&object, &shape),
    }
}

fn read_multi_discrete(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "MultiDiscrete", &["type", "shape", "nvec", "start"])?;
    let nvec_value = object.required("nvec")?;
    let shape = match object.optional("shape") {
        Some(shape) => read_sized_shape(shape, "MultiDiscrete")?,
        None => vec![nvec_value.as_array().map_or(1, Vec::len)],
    };
    let nvec = read_entries(nvec_value, &shape, "an integer", Value::as_i64)
        .map_err(|e| e.within(".nvec"))?;
    let start = match object.optional("start") {
        Some(start) => read_entries(start, &shape, "an integer", Value::as_i64)
            .map_err(|e| e.within(".start"))?,
        None => ArrayD::zeros(IxDyn(&shape)),
    };
    MultiDiscrete::with_start(nvec, start)
        .map(AnySpace::MultiDiscrete)
        .map_err(constructor_error)
}

fn read_multi_binary(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "MultiBinary", &["type", "shape"])?;
    let shape = read_sized_shape(object.required("shape")?, "MultiBinary")?;
    MultiBinary::new(&shape)
        .map(AnySpace::MultiBinary)
        .map_err(constructor_error)
}

/// The child spaces of a Tuple or OneOf: the list under `spaces`, each read as a definition
/// (errors at `.spaces` or `.spaces[i]`).
fn read_child_list(spaces_value: &Value) -> Result<Vec<AnySpace>, SpaceError> {
    let items = spaces_value.as_array().ok_or_else(|| {
        SpaceError::json(format!(
            "expected a list of definitions, found {}",
            describe(spaces_value)
        ))
        .within(".spaces")
    })?;
    items
        .iter()
        .enumerate()
        .map(|(i, v)| AnySpace::from_definition(v).map_err(|e| e.within(&format!(".spaces[{i}]"))))
        .collect()
}

fn read_tuple(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "Tuple", &["type", "spaces"])?;
    let spaces = read_child_list(object.required("spaces")?)?;
    TupleSpace::new(spaces)
        .map(AnySpace::Tuple)
        .map_err(constructor_error)
}

fn read_dict(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "Dict", &["type", "spaces"])?;
    let spaces_value = object.required("spaces")?;
    let entries = spaces_value.as_object().ok_or_else(|| {
        SpaceError::json(format!(
            "expected an object of definitions, found {}",
            describe(spaces_value)
        ))
        .within(".spaces")
    })?;
    let spaces = entries
        .iter()
        .map(|(k, v)| {
            AnySpace::from_definition(v)
                .map(|s| (k.clone(), s))
                .map_err(|e| e.within(&format!(".spaces.{k}")))
        })
        .collect::<Result<BTreeMap<_, _>, _>>()?;
    DictSpace::new(spaces)
        .map(AnySpace::Dict)
        .map_err(constructor_error)
}

fn read_sequence(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "Sequence", &["type", "feature_space", "stack"])?;
    let feature = AnySpace::from_definition(object.required("feature_space")?)
        .map_err(|e| e.within(".feature_space"))?;
    let stack = match object.optional("stack") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| {
            SpaceError::json(format!("expected true or false, found {}", describe(v)))
                .within(".stack")
        })?,
    };
    SequenceSpace::new(feature, stack)
        .map(AnySpace::Sequence)
        .map_err(constructor_error)
}

fn read_graph(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "Graph", &["type", "node_space", "edge_space"])?;
    let node = AnySpace::from_definition(object.required("node_space")?)
        .map_err(|e| e.within(".node_space"))?;
    let edge = match object.optional("edge_space") {
        None | Some(Value::Null) => None,
        Some(v) => Some(AnySpace::from_definition(v).map_err(|e| e.within(".edge_space"))?),
    };
    GraphSpace::new(node, edge)
        .map(AnySpace::Graph)
        .map_err(constructor_error)
}

fn read_one_of(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "OneOf", &["type", "spaces"])?;
    let spaces = read_child_list(object.required("spaces")?)?;
    OneOfSpace::new(spaces)
        .map(AnySpace::OneOf)
        .map_err(constructor_error)
}

fn read_text(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(
        value,
        "Text",
        &["type", "min_length", "max_length", "charset"],
    )?;
    let length = |key: &str| -> Result<Option<usize>, SpaceError> {
        object
            .optional(key)
            .map(|v| {
                v.as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        SpaceError::json(format!(
                            "expected a non-negative integer, found {}",
                            describe(v)
                        ))
                        .within(&format!(".{key}"))
                    })
            })
            .transpose()
    };
    let max_length = object.required("max_length")?;
    let max_length = length("max_length")?.ok_or_else(|| {
        SpaceError::json(format!(
            "expected a non-negative integer, found {}",
            describe(max_length)
        ))
        .within(".max_length")
    })?;
    let min_length = length("min_length")?.unwrap_or(1);
    let charset = match object.optional("charset") {
        None => crate::ALPHANUMERIC,
        Some(v) => v.as_str().ok_or_else(|| {
            SpaceError::json(format!("expected a string, found {}", describe(v))).within(".charset")
        })?,
    };
    Text::new(min_length, max_length, charset)
        .map(AnySpace::Text)
        .map_err(constructor_error)
}

fn read_finite_set(value: &Value) -> Result<AnySpace, SpaceError> {
    let object = StrictObject::new(value, "FiniteSet", &["type", "elements"])?;
    let elements_value = object.required("elements")?;
    let elements = elements_value.as_array().ok_or_else(|| {
        SpaceError::json(format!(
            "expected a list of values, found {}",
            describe(elements_value)
        ))
        .within(".elements")
    })?;
    if elements.is_empty() {
        return FiniteSet::new(Vec::new())
            .map(AnySpace::FiniteSet)
            .map_err(constructor_error);
    }
    crate::limits::check_size("FiniteSet", "elements", elements.len() as u128)
        .map_err(|e| constructor_error(e).within(".elements"))?;
    // JSON values have a canonical text (object keys are sorted), so duplicates are found in
    // linear time here rather than by `FiniteSet::new`'s comparison of every pair.
    let mut seen = std::collections::HashMap::with_capacity(elements.len());
    for (i, element) in elements.iter().enumerate() {
        if let Some(j) = seen.insert(canonical_text(element), i) {
            return Err(
                SpaceError::json(format!("elements {j} and {i} are both {element}"))
                    .within(".elements"),
            );
        }
    }
    Ok(AnySpace::FiniteSet(FiniteSet::from_distinct(
        elements.clone(),
    )))
}

/// A text that two JSON values share exactly when they are equal (`==`): the compact JSON text,
/// with a float zero written `0.0` whatever its sign, since `-0.0 == 0.0`.
fn canonical_text(value: &Value) -> String {
    fn write(value: &Value, out: &mut String) {
        match value {
            Value::Number(n) if n.as_f64() == Some(0.0) && n.is_f64() => out.push_str("0.0"),
            Value::Array(items) => {
                out.push('[');
                for item in items {
                    write(item, out);
                    out.push(',');
                }
                out.push(']');
            }
            Value::Object(map) => {
                out.push('{');
                for (key, item) in map {
                    out.push_str(&Value::from(key.as_str()).to_string());
                    out.push(':');
                    write(item, out);
                    out.push(',');
                }
                out.push('}');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(value, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: Value) -> Result<AnySpace, SpaceError> {
        AnySpace::from_definition(&value)
    }

    #[test]
    fn short_forms_are_accepted() {
        let space = read(
            json!({"type": "Box", "dtype": "float64", "shape": [2, 2], "low": "-inf", "high": 1}),
        )
        .unwrap();
        assert_eq!(
            space,
            BoxSpace::uniform(&[2, 2], f64::NEG_INFINITY, 1.0)
                .unwrap()
                .into()
        );
        let space = read(json!({"type": "MultiDiscrete", "nvec": [3, 2]})).unwrap();
        assert_eq!(space, MultiDiscrete::from_vec(vec![3, 2]).unwrap().into());
        let space = read(json!({"type": "Discrete", "n": 4})).unwrap();
        assert_eq!(space, Discrete::new(4).unwrap().into());
    }

    #[test]
    fn errors_give_the_path() {
        let error = read(json!({"type": "Tuple", "spaces": [{"type": "Discrete", "n": 2}, {"type": "Box", "dtype": "uint8", "shape": [2], "low": [0, 300], "high": 255}]})).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid JSON at $.spaces[1].low[1]: expected an integer in the dtype's range, found the number 300"
        );
        let error = read(json!({"type": "Dict", "spaces": {"a": {"type": "Discrete", "n": 0}}}))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid JSON at $.spaces.a: invalid Discrete space: n must be at least 1"
        );
        let error =
            read(json!({"type": "Box", "dtype": "float32", "shape": [1], "low": 1, "high": 0}))
                .unwrap_err();
        assert!(error.to_string().contains("greater than high"), "{error}");
        // Too many entries is the shape's fault, whatever the parameters (it named `low` and
        // `nvec` before).
        let error = read(json!({"type": "Tuple", "spaces": [{"type": "Box", "dtype": "float32", "shape": [65536, 65536], "low": 0, "high": 1}]})).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid JSON at $.spaces[0].shape: Box space too large: 4294967296 entries, more \
             than the limit of 16777216 (rl_spaces::MAX_FLAT_LEN)"
        );
        let error =
            read(json!({"type": "MultiDiscrete", "shape": [65536, 65536], "nvec": 2})).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid JSON at $.shape: MultiDiscrete space too large: 4294967296 entries, more \
             than the limit of 16777216 (rl_spaces::MAX_FLAT_LEN)"
        );
        let error = read(json!({"type": "MultiBinary", "shape": [65536, 65536]})).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid JSON at $.shape: MultiBinary space too large: 4294967296 entries, more \
             than the limit of 16777216 (rl_spaces::MAX_FLAT_LEN)"
        );
    }

    #[test]
    fn duplicate_keys_are_rejected() {
        let text = r#"{"format": "rl-spaces/space", "version": 1,
            "space": {"type": "Dict", "spaces": {"a": {"type": "Discrete", "n": 2}, "a": {"type": "Discrete", "n": 3}}}}"#;
        let error = AnySpace::from_definition_str(text).unwrap_err();
        assert!(error.to_string().contains("duplicate key \"a\""), "{error}");
    }

    #[test]
    fn versions_are_checked() {
        let document =
            json!({"format": "rl-spaces/space", "version": 2, "space": {"type": "Empty"}});
        assert!(matches!(
            AnySpace::from_definition_document(&document),
            Err(SpaceError::UnsupportedFormat { .. })
        ));
    }

    #[test]
    fn huge_broadcasts_are_refused_without_allocating() {
        let error = read(json!({"type": "Box", "dtype": "float32", "shape": [1_000_000, 1_000_000], "low": 0, "high": 1})).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("1000000000000 entries, more than the limit of 16777216"),
            "{error}"
        );
        let error = read(
            json!({"type": "Box", "dtype": "float32", "shape": [u64::MAX, 4], "low": 0, "high": 1}),
        )
        .unwrap_err();
        assert!(error.to_string().contains("more than the limit"), "{error}");
    }

    #[test]
    fn serde_uses_the_definition() {
        let space = AnySpace::from(Discrete::with_start(3, -1).unwrap());
        let text = serde_json::to_string(&space).unwrap();
        assert_eq!(text, r#"{"n":3,"start":-1,"type":"Discrete"}"#);
        let back: AnySpace = serde_json::from_str(&text).unwrap();
        assert_eq!(back, space);
    }
}
