//! Reading and checking the environments' parameters: ranges whose bounds may be infinite
//! (`"inf"`, `"-inf"` in JSON, which has no infinities) and finite weights.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::error::MujocoError;

/// A float from JSON: a number, or `"inf"`, `"+inf"`, `"-inf"`, `"Infinity"`, `"-Infinity"`.
fn float<E: serde::de::Error>(value: &Value) -> Result<f64, E> {
    match value {
        Value::Number(number) => number
            .as_f64()
            .ok_or_else(|| E::custom(format!("{number} is not a float"))),
        Value::String(text) => match text.as_str() {
            "inf" | "+inf" | "Infinity" | "+Infinity" => Ok(f64::INFINITY),
            "-inf" | "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(E::custom(format!(
                "{text:?} is not a number (infinite bounds are \"inf\" and \"-inf\")"
            ))),
        },
        other => Err(E::custom(format!("{other} is not a number"))),
    }
}

/// Deserializes a `[low, high]` range whose bounds may be `"inf"`/`"-inf"`.
pub(crate) fn range<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[f64; 2], D::Error> {
    let values = Vec::<Value>::deserialize(deserializer)?;
    match values.as_slice() {
        [low, high] => Ok([float(low)?, float(high)?]),
        _ => Err(serde::de::Error::custom(format!(
            "a range is two numbers [low, high], not {} values",
            values.len()
        ))),
    }
}

/// The largest magnitude of a weight or a noise scale, as of the classic domains' physical
/// quantities: Gymnasium takes any float, but far beyond this the simulation overflows
/// (`reset_noise_scale=1.5e58` gave InvertedDoublePendulum-v5 NaN observations at its reset,
/// found by the Python fuzz target), while up to 10^12 MuJoCo's own recovery from unstable
/// states kept every observation finite.
pub(crate) const MAX_MAGNITUDE: f64 = 1e6;

/// Checks that `value` is finite and at most [`MAX_MAGNITUDE`] in magnitude.
pub(crate) fn finite(name: &'static str, value: f64) -> Result<(), MujocoError> {
    if value.is_finite() && value.abs() <= MAX_MAGNITUDE {
        Ok(())
    } else {
        Err(MujocoError::Parameter {
            name,
            reason: format!(
                "must be finite and at most {MAX_MAGNITUDE:e} in magnitude, got {value}"
            ),
        })
    }
}

/// Checks that a range is not NaN and has `low <= high`.
pub(crate) fn ordered(name: &'static str, range: [f64; 2]) -> Result<(), MujocoError> {
    if range[0] <= range[1] {
        Ok(())
    } else {
        Err(MujocoError::Parameter {
            name,
            reason: format!("[{}, {}] is not a range low <= high", range[0], range[1]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Holder {
        #[serde(deserialize_with = "range")]
        range: [f64; 2],
    }

    #[test]
    fn ranges_read_infinite_bounds_and_refuse_the_rest() {
        let holder: Holder = serde_json::from_str(r#"{"range": [0.7, "inf"]}"#).expect("valid");
        assert_eq!(holder.range, [0.7, f64::INFINITY]);
        let holder: Holder = serde_json::from_str(r#"{"range": ["-inf", 2]}"#).expect("valid");
        assert_eq!(holder.range, [f64::NEG_INFINITY, 2.0]);
        assert!(serde_json::from_str::<Holder>(r#"{"range": [1]}"#).is_err());
        assert!(serde_json::from_str::<Holder>(r#"{"range": ["big", 1]}"#).is_err());
        assert!(ordered("range", [2.0, 1.0]).is_err());
        assert!(ordered("range", [f64::NAN, 1.0]).is_err());
        assert!(finite("weight", f64::NAN).is_err());
    }
}
