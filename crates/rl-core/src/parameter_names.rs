//! The field names of a registration's parameter type, read from its `Deserialize`
//! implementation: serde's derive hands a struct's field names to
//! [`Deserializer::deserialize_struct`], so a deserializer that records them and stops learns
//! the names without a value, a `Serialize` bound or a hand-kept list (what `rl list`'s users
//! and the catalogue pages show as an id's arguments).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

/// The field names of `P` in declaration order (serde's renames applied), or `None` when `P`
/// does not deserialize as a struct (a map, a JSON value, a struct with a flattened field).
pub(crate) fn parameter_names<P: for<'de> Deserialize<'de>>() -> Option<Vec<&'static str>> {
    let mut names = None;
    // The recorder always stops with an error, after noting the names it was given.
    let _ = P::deserialize(FieldNames { names: &mut names });
    names
}

/// A deserializer that records the field names of a struct and produces nothing.
struct FieldNames<'a> {
    /// Where the names go, when the type is a struct.
    names: &'a mut Option<Vec<&'static str>>,
}

/// The error that ends every deserialization by [`FieldNames`].
#[derive(Debug)]
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("field names recorded")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: fmt::Display>(_message: T) -> Self {
        Stop
    }
}

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Stop> {
        *self.names = Some(fields.to_vec());
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::parameter_names;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Debug, Default, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    #[allow(dead_code)]
    struct Params {
        length: u32,
        #[serde(rename = "slipProbability")]
        slip: f64,
        map: Option<String>,
    }

    #[derive(Debug, Default, Deserialize)]
    struct NoParams {}

    #[test]
    fn a_struct_gives_its_field_names_in_order_as_json_spells_them() {
        assert_eq!(
            parameter_names::<Params>(),
            Some(vec!["length", "slipProbability", "map"])
        );
        assert_eq!(parameter_names::<NoParams>(), Some(vec![]));
    }

    #[test]
    fn other_types_give_no_list() {
        assert_eq!(parameter_names::<BTreeMap<String, f64>>(), None);
        assert_eq!(parameter_names::<serde_json::Value>(), None);
        assert_eq!(parameter_names::<u32>(), None);
    }
}
