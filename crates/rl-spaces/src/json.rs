//! JSON helpers shared by the spaces: non-finite floats, nested arrays, strict objects.

use ndarray::{ArrayD, IxDyn};
use serde_json::{Map, Value};

use crate::SpaceError;

/// Writes a float as JSON: a number when finite, otherwise the string `"inf"`, `"-inf"` or
/// `"nan"` (serde_json would silently write `null`).
pub(crate) fn float_to_json(x: f64) -> Value {
    if x.is_nan() {
        Value::String("nan".to_owned())
    } else if x == f64::INFINITY {
        Value::String("inf".to_owned())
    } else if x == f64::NEG_INFINITY {
        Value::String("-inf".to_owned())
    } else {
        serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

/// Reads a float written by [`float_to_json`]. Also accepts Python's spellings
/// (`"Infinity"`, `"-Infinity"`, `"NaN"`) and `"+inf"`.
pub(crate) fn float_from_json(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.as_str() {
            "inf" | "+inf" | "Infinity" | "+Infinity" => Some(f64::INFINITY),
            "-inf" | "-Infinity" => Some(f64::NEG_INFINITY),
            "nan" | "NaN" => Some(f64::NAN),
            _ => None,
        },
        _ => None,
    }
}

/// Writes an array as nested JSON lists following its shape (a 0-dimensional array is written
/// as its one value).
pub(crate) fn array_to_json<T>(array: &ArrayD<T>, write: impl Fn(&T) -> Value) -> Value {
    fn nest(values: &mut impl Iterator<Item = Value>, shape: &[usize]) -> Value {
        match shape.split_first() {
            None => values.next().unwrap_or(Value::Null),
            Some((&len, rest)) => Value::Array((0..len).map(|_| nest(values, rest)).collect()),
        }
    }
    nest(&mut array.iter().map(write), array.shape())
}

/// Reads nested JSON lists of exactly the given shape into an array, converting each leaf with
/// `read` (which returns `None` for a leaf of the wrong kind, described by `expected`).
pub(crate) fn array_from_json<T>(
    value: &Value,
    shape: &[usize],
    expected: &str,
    read: impl Fn(&Value) -> Option<T>,
) -> Result<ArrayD<T>, SpaceError> {
    fn collect<T>(
        value: &Value,
        shape: &[usize],
        expected: &str,
        read: &impl Fn(&Value) -> Option<T>,
        out: &mut Vec<T>,
    ) -> Result<(), SpaceError> {
        match shape.split_first() {
            None => {
                let leaf = read(value).ok_or_else(|| {
                    SpaceError::json(format!("expected {expected}, found {}", describe(value)))
                })?;
                out.push(leaf);
                Ok(())
            }
            Some((&len, rest)) => {
                let items = value.as_array().ok_or_else(|| {
                    SpaceError::json(format!(
                        "expected a list of length {len}, found {}",
                        describe(value)
                    ))
                })?;
                if items.len() != len {
                    return Err(SpaceError::json(format!(
                        "expected a list of length {len}, found a list of length {}",
                        items.len()
                    )));
                }
                for (i, item) in items.iter().enumerate() {
                    collect(item, rest, expected, read, out)
                        .map_err(|e| e.within(&format!("[{i}]")))?;
                }
                Ok(())
            }
        }
    }
    let mut out = Vec::with_capacity(shape.iter().product());
    collect(value, shape, expected, &read, &mut out)?;
    ArrayD::from_shape_vec(IxDyn(shape), out)
        .map_err(|e| SpaceError::json(format!("array does not fit its shape: {e}")))
}

/// A short description of a JSON value's kind, for error messages.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(a) => format!("a list of length {}", a.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// A JSON object read strictly: every key must be known, and required keys must be present.
pub(crate) struct StrictObject<'a> {
    map: &'a Map<String, Value>,
}

impl<'a> StrictObject<'a> {
    /// Checks that `value` is an object whose keys are all in `allowed`; `what` names the
    /// object in errors.
    pub(crate) fn new(value: &'a Value, what: &str, allowed: &[&str]) -> Result<Self, SpaceError> {
        let map = value.as_object().ok_or_else(|| {
            SpaceError::json(format!("expected {what} object, found {}", describe(value)))
        })?;
        if let Some(unknown) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(SpaceError::json(format!(
                "unknown field `{unknown}` in {what} (expected one of: {})",
                allowed.join(", ")
            )));
        }
        Ok(StrictObject { map })
    }

    /// The value of a required key.
    pub(crate) fn required(&self, key: &str) -> Result<&'a Value, SpaceError> {
        self.map
            .get(key)
            .ok_or_else(|| SpaceError::json(format!("missing field `{key}`")))
    }

    /// The value of an optional key.
    pub(crate) fn optional(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn non_finite_floats_round_trip_as_strings() {
        for x in [f64::INFINITY, f64::NEG_INFINITY, 1.5, -0.0] {
            assert_eq!(
                float_from_json(&float_to_json(x)).map(f64::to_bits),
                Some(x.to_bits())
            );
        }
        assert!(float_from_json(&float_to_json(f64::NAN)).is_some_and(f64::is_nan));
        assert_eq!(float_from_json(&json!("Infinity")), Some(f64::INFINITY));
        assert_eq!(float_from_json(&json!("big")), None);
        assert_eq!(float_from_json(&json!(null)), None);
    }

    #[test]
    fn nested_arrays_round_trip() {
        let array = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![1, 2, 3, 4, 5, 6]).unwrap();
        let value = array_to_json(&array, |x| json!(x));
        assert_eq!(value, json!([[1, 2, 3], [4, 5, 6]]));
        let back = array_from_json(&value, &[2, 3], "an integer", Value::as_i64).unwrap();
        assert_eq!(back, array);
    }

    #[test]
    fn scalar_arrays_are_plain_values() {
        let array = ArrayD::from_elem(IxDyn(&[]), 7);
        assert_eq!(array_to_json(&array, |x| json!(x)), json!(7));
        let back = array_from_json(&json!(7), &[], "an integer", Value::as_i64).unwrap();
        assert_eq!(back, array);
    }

    #[test]
    fn ragged_arrays_name_the_place() {
        let error = array_from_json(&json!([[1, 2], [3]]), &[2, 2], "an integer", Value::as_i64)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid JSON at $[1]: expected a list of length 2, found a list of length 1"
        );
        let error = array_from_json(
            &json!([[1, 2], [3, "x"]]),
            &[2, 2],
            "an integer",
            Value::as_i64,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid JSON at $[1][1]: expected an integer, found the string \"x\""
        );
    }

    #[test]
    fn strict_objects_reject_unknown_fields() {
        let value = json!({"type": "Discrete", "n": 3, "colour": "red"});
        let error = StrictObject::new(&value, "Discrete", &["type", "n", "start"])
            .err()
            .unwrap();
        assert!(error.to_string().contains("unknown field `colour`"));
    }
}
