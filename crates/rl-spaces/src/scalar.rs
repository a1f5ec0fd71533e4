//! Element types of Box spaces: [`DType`] and the sealed [`BoxScalar`] trait.

use std::fmt;

use ndarray::ArrayD;
use rand::{Rng, RngExt};
use serde_json::Value;

use crate::BoxSpace;
use crate::any::{AnyArray, AnyBox};
use crate::json::{float_from_json, float_to_json};
use crate::sampling::float_between;
use crate::space::FlatScalar;

/// The element type of a Box space, named as NumPy names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum DType {
    /// 32-bit float (`float32`).
    F32,
    /// 64-bit float (`float64`).
    F64,
    /// 8-bit signed integer (`int8`).
    I8,
    /// 16-bit signed integer (`int16`).
    I16,
    /// 32-bit signed integer (`int32`).
    I32,
    /// 64-bit signed integer (`int64`).
    I64,
    /// 8-bit unsigned integer (`uint8`).
    U8,
    /// 16-bit unsigned integer (`uint16`).
    U16,
    /// 32-bit unsigned integer (`uint32`).
    U32,
    /// 64-bit unsigned integer (`uint64`).
    U64,
}

impl DType {
    /// Every dtype, in declaration order.
    pub const ALL: [DType; 10] = [
        DType::F32,
        DType::F64,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
    ];

    /// NumPy's name for the dtype, such as `"float32"`.
    pub fn name(self) -> &'static str {
        match self {
            DType::F32 => "float32",
            DType::F64 => "float64",
            DType::I8 => "int8",
            DType::I16 => "int16",
            DType::I32 => "int32",
            DType::I64 => "int64",
            DType::U8 => "uint8",
            DType::U16 => "uint16",
            DType::U32 => "uint32",
            DType::U64 => "uint64",
        }
    }

    /// The dtype with NumPy's name `name`, if any.
    pub fn from_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Whether the dtype is a float type.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F64)
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod sealed {
    /// Prevents implementations of [`BoxScalar`](super::BoxScalar) outside this crate.
    pub trait Sealed {}
}

/// A number type a Box space can hold: `f32`, `f64`, or a signed or unsigned integer type.
///
/// This trait is sealed: the dynamic [`AnySpace`](crate::AnySpace) has one variant per type.
pub trait BoxScalar:
    Copy + PartialEq + PartialOrd + fmt::Debug + fmt::Display + Send + Sync + 'static + sealed::Sealed
{
    /// The dtype of this type.
    const DTYPE: DType;
    /// The lowest value: `-inf` for floats, `MIN` for integers.
    const LOWEST: Self;
    /// The highest value: `+inf` for floats, `MAX` for integers.
    const HIGHEST: Self;

    /// Whether the value is NaN (always false for integers).
    fn is_nan(self) -> bool;

    /// Converts to `f64` (exact for floats and for integers up to 2^53).
    fn to_f64(self) -> f64;

    /// Converts from `f64`: floats round to nearest; integers must be integral and in range.
    fn from_f64(x: f64) -> Option<Self>;

    /// Converts from `f64` as numpy's `astype` does for values in range: floats round to
    /// nearest, integers truncate toward zero (saturating at the type's limits, NaN to 0).
    fn from_f64_rounded(x: f64) -> Self;

    /// Draws a value in `[low, high]` with Gymnasium's rule: for floats, uniform where both
    /// bounds are finite, shifted exponential where one is, standard normal where neither is;
    /// for integers, an exact uniform integer in `[low, high]` (never a float rounded down).
    fn sample_between<R: Rng + ?Sized>(low: Self, high: Self, rng: &mut R) -> Self;

    /// The number of values in `[low, high]`: `None` for floats.
    fn count_between(low: Self, high: Self) -> Option<u128>;

    /// The value `low + offset` (integers only; `None` for floats or on overflow).
    fn offset_from(low: Self, offset: u128) -> Option<Self>;

    /// The distance `x - low` (integers only; `None` for floats or if `x < low`).
    fn distance_from(low: Self, x: Self) -> Option<u128>;

    /// Writes the value as JSON (non-finite floats as strings, see [`JsonSpace`](crate::JsonSpace)).
    fn to_json(self) -> Value;

    /// Reads a value from JSON. Integers must be JSON integers in range; floats may be any
    /// JSON number or one of the non-finite spellings.
    fn from_json(value: &Value) -> Option<Self>;

    /// Converts to a flat-vector number: floats round to nearest; integers must be represented
    /// exactly (`None` for, say, a `u64` above 2^53 flattened into `f64`).
    fn to_flat<F: FlatScalar>(self) -> Option<F> {
        let flat = F::from_f64(self.to_f64());
        if Self::DTYPE.is_float() || Self::from_f64(flat.to_f64()) == Some(self) {
            Some(flat)
        } else {
            None
        }
    }

    /// Wraps an array of this type as a dynamic array.
    fn wrap_array(array: ArrayD<Self>) -> AnyArray;

    /// Borrows the array of this type inside a dynamic array, if it has this dtype.
    fn unwrap_array(array: &AnyArray) -> Option<&ArrayD<Self>>;

    /// Wraps a Box space of this type as a dynamic Box space.
    fn wrap_box(space: BoxSpace<Self>) -> AnyBox;
}

macro_rules! float_scalar {
    ($t:ty, $dtype:ident) => {
        impl sealed::Sealed for $t {}
        impl BoxScalar for $t {
            const DTYPE: DType = DType::$dtype;
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;

            #[inline]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline]
            fn to_f64(self) -> f64 {
                f64::from(self)
            }
            #[inline]
            fn from_f64_rounded(x: f64) -> Self {
                x as $t
            }

            fn from_f64(x: f64) -> Option<Self> {
                Some(x as $t)
            }
            fn sample_between<R: Rng + ?Sized>(low: Self, high: Self, rng: &mut R) -> Self {
                let x = float_between(f64::from(low), f64::from(high), rng) as $t;
                // Rounding to a narrower type cannot leave [low, high], but clamp for certainty.
                x.clamp(low, high)
            }
            fn count_between(_low: Self, _high: Self) -> Option<u128> {
                None
            }
            fn offset_from(_low: Self, _offset: u128) -> Option<Self> {
                None
            }
            fn distance_from(_low: Self, _x: Self) -> Option<u128> {
                None
            }
            fn to_json(self) -> Value {
                float_to_json(f64::from(self))
            }
            fn from_json(value: &Value) -> Option<Self> {
                float_from_json(value).map(|x| x as $t)
            }
            fn wrap_array(array: ArrayD<Self>) -> AnyArray {
                AnyArray::$dtype(array)
            }
            fn unwrap_array(array: &AnyArray) -> Option<&ArrayD<Self>> {
                match array {
                    AnyArray::$dtype(a) => Some(a),
                    _ => None,
                }
            }
            fn wrap_box(space: BoxSpace<Self>) -> AnyBox {
                AnyBox::$dtype(space)
            }
        }
    };
}

macro_rules! int_scalar {
    ($t:ty, $dtype:ident) => {
        impl sealed::Sealed for $t {}
        impl BoxScalar for $t {
            const DTYPE: DType = DType::$dtype;
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;

            #[inline]
            fn is_nan(self) -> bool {
                false
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64_rounded(x: f64) -> Self {
                x as $t
            }

            fn from_f64(x: f64) -> Option<Self> {
                // `as` saturates; the round trip rejects fractions and out-of-range values
                // (2^63 as f64 saturates to i64::MAX, whose f64 is 2^63 again, so compare in i128).
                if x.fract() != 0.0 || !x.is_finite() {
                    return None;
                }
                let candidate = x as i128;
                <$t>::try_from(candidate).ok().filter(|v| *v as f64 == x)
            }
            fn sample_between<R: Rng + ?Sized>(low: Self, high: Self, rng: &mut R) -> Self {
                rng.random_range(low..=high)
            }
            fn count_between(low: Self, high: Self) -> Option<u128> {
                let span = i128::from(high) - i128::from(low);
                u128::try_from(span).ok().map(|s| s + 1)
            }
            fn offset_from(low: Self, offset: u128) -> Option<Self> {
                let offset = i128::try_from(offset).ok()?;
                <$t>::try_from(i128::from(low).checked_add(offset)?).ok()
            }
            fn distance_from(low: Self, x: Self) -> Option<u128> {
                u128::try_from(i128::from(x) - i128::from(low)).ok()
            }
            fn to_json(self) -> Value {
                Value::from(self)
            }
            fn from_json(value: &Value) -> Option<Self> {
                if let Some(v) = value.as_i64() {
                    <$t>::try_from(v).ok()
                } else {
                    value.as_u64().and_then(|v| <$t>::try_from(v).ok())
                }
            }
            fn wrap_array(array: ArrayD<Self>) -> AnyArray {
                AnyArray::$dtype(array)
            }
            fn unwrap_array(array: &AnyArray) -> Option<&ArrayD<Self>> {
                match array {
                    AnyArray::$dtype(a) => Some(a),
                    _ => None,
                }
            }
            fn wrap_box(space: BoxSpace<Self>) -> AnyBox {
                AnyBox::$dtype(space)
            }
        }
    };
}

float_scalar!(f32, F32);
float_scalar!(f64, F64);
int_scalar!(i8, I8);
int_scalar!(i16, I16);
int_scalar!(i32, I32);
int_scalar!(i64, I64);
int_scalar!(u8, U8);
int_scalar!(u16, U16);
int_scalar!(u32, U32);
int_scalar!(u64, U64);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dtype_names_round_trip() {
        for dtype in DType::ALL {
            assert_eq!(DType::from_name(dtype.name()), Some(dtype));
        }
        assert_eq!(DType::from_name("float16"), None);
    }

    #[test]
    fn integer_conversion_from_f64_is_exact() {
        assert_eq!(<i64 as BoxScalar>::from_f64(3.0), Some(3));
        assert_eq!(<i64 as BoxScalar>::from_f64(3.5), None);
        assert_eq!(<u8 as BoxScalar>::from_f64(256.0), None);
        assert_eq!(<u8 as BoxScalar>::from_f64(-1.0), None);
        assert_eq!(<i64 as BoxScalar>::from_f64(2f64.powi(63)), None);
        assert_eq!(<i64 as BoxScalar>::from_f64(f64::NAN), None);
        assert_eq!(<u64 as BoxScalar>::from_f64(f64::INFINITY), None);
    }

    #[test]
    fn integer_counts_and_offsets() {
        assert_eq!(i8::count_between(i8::MIN, i8::MAX), Some(256));
        assert_eq!(u64::count_between(0, u64::MAX), Some(1u128 << 64));
        assert_eq!(i8::offset_from(-3, 5), Some(2));
        assert_eq!(i8::offset_from(100, 100), None);
        assert_eq!(i8::distance_from(-3, 2), Some(5));
        assert_eq!(i8::distance_from(3, 2), None);
        assert_eq!(f32::count_between(0.0, 1.0), None);
    }

    #[test]
    fn json_reading_is_strict_for_integers() {
        assert_eq!(u8::from_json(&json!(255)), Some(255));
        assert_eq!(u8::from_json(&json!(256)), None);
        assert_eq!(i64::from_json(&json!(2.0)), None);
        assert_eq!(u64::from_json(&json!(u64::MAX)), Some(u64::MAX));
        assert_eq!(f32::from_json(&json!("-inf")), Some(f32::NEG_INFINITY));
    }
}
