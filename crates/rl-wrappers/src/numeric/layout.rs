//! [`NumericLayout`]: named numeric arrays laid one after another in a flat vector, each
//! described by a Box space (a [`Component`]).

use std::fmt;
use std::ops::Range;

use rl_core::CoreError;
use rl_spaces::{AnyBox, AnySpace, BoxScalar, BoxSpace, DType, DictSpace, FlatScalar, SpaceError};

/// One named array of a [`NumericLayout`]: its name, the Box space its values lie in (shape,
/// dtype and bounds), and the place of its entries in the flat vector.
///
/// The dtype says which values the array takes (an integer type for one-hot blocks and integer
/// boxes, a float type for real values); the numbers themselves are stored in the flat
/// vector's type (`f32` or `f64`) whatever the dtype.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    name: String,
    space: AnyBox,
    offset: usize,
    len: usize,
}

impl Component {
    /// The name of the array.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The Box space the array's values lie in.
    pub fn space(&self) -> &AnyBox {
        &self.space
    }

    /// The shape of the array.
    pub fn shape(&self) -> &[usize] {
        self.space.shape()
    }

    /// The dtype of the array's values.
    pub fn dtype(&self) -> DType {
        self.space.dtype()
    }

    /// The number of entries (the product of the shape).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The positions of the array's entries in the flat vector, in row-major order.
    pub fn range(&self) -> Range<usize> {
        self.offset..self.offset + self.len
    }
}

/// Named numeric arrays and the Box space of each, laid one after another in a flat vector
/// (gym-gridverse's representation spaces).
///
/// The components are kept in the order of their names (byte order, as a `BTreeMap` orders
/// them, which is also the key order of [`DictSpace`]); each occupies a contiguous run of the
/// flat vector in row-major order. So the flat vector of a layout is Gymnasium's `flatten` of
/// the matching Dict of Boxes.
///
/// ```
/// use rl_spaces::{AnyBox, BoxSpace};
/// use rl_wrappers::NumericLayout;
///
/// let layout = NumericLayout::new([
///     ("velocity", AnyBox::from(BoxSpace::uniform(&[2], -1.0f32, 1.0)?)),
///     ("grid", AnyBox::from(BoxSpace::uniform(&[2, 3, 3], 0u8, 1)?)),
/// ])?;
/// // Names are sorted: "grid" comes first.
/// assert_eq!(layout.components()[0].name(), "grid");
/// assert_eq!(layout.component("velocity").map(|c| c.range()), Some(18..20));
/// assert_eq!(layout.flat_dim(), 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct NumericLayout {
    components: Vec<Component>,
    low: Vec<f64>,
    high: Vec<f64>,
}

impl NumericLayout {
    /// A layout of the given named Box spaces. Errors if two components have the same name or
    /// the total length overflows `usize`.
    pub fn new<K: Into<String>>(
        components: impl IntoIterator<Item = (K, AnyBox)>,
    ) -> Result<Self, CoreError> {
        let mut named: Vec<(String, AnyBox)> =
            components.into_iter().map(|(k, s)| (k.into(), s)).collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        let duplicate = named.windows(2).find_map(|pair| match pair {
            [(first, _), (second, _)] if first == second => Some(first.clone()),
            _ => None,
        });
        if let Some(name) = duplicate {
            return Err(CoreError::invalid_parameter(
                "components",
                format!("the name {name:?} is used twice"),
            ));
        }
        let mut offset = 0usize;
        let mut laid = Vec::with_capacity(named.len());
        let mut low = Vec::new();
        let mut high = Vec::new();
        for (name, space) in named {
            let len = space
                .shape()
                .iter()
                .try_fold(1usize, |a, b| a.checked_mul(*b))
                .ok_or_else(|| too_long(&name))?;
            low.extend(space.low_f64());
            high.extend(space.high_f64());
            laid.push(Component {
                name,
                space,
                offset,
                len,
            });
            offset = offset
                .checked_add(len)
                .ok_or_else(|| CoreError::invalid_parameter("components", "too many entries"))?;
        }
        Ok(NumericLayout {
            components: laid,
            low,
            high,
        })
    }

    /// A layout of one component.
    pub fn single(name: impl Into<String>, space: AnyBox) -> Result<Self, CoreError> {
        NumericLayout::new([(name.into(), space)])
    }

    /// A layout of one unbounded `float64` vector of length `len` (what normalised data lies
    /// in).
    pub fn unbounded(name: impl Into<String>, len: usize) -> Result<Self, CoreError> {
        NumericLayout::single(name, real_box(&[len], f64::NEG_INFINITY, f64::INFINITY)?)
    }

    /// The components, in name order.
    pub fn components(&self) -> &[Component] {
        &self.components
    }

    /// The component named `name`.
    pub fn component(&self, name: &str) -> Option<&Component> {
        self.components
            .binary_search_by(|c| c.name.as_str().cmp(name))
            .ok()
            .and_then(|i| self.components.get(i))
    }

    /// The length of the flat vector: the sum of the components' lengths.
    pub fn flat_dim(&self) -> usize {
        self.low.len()
    }

    /// The lower bound of every entry of the flat vector.
    pub fn flat_low(&self) -> &[f64] {
        &self.low
    }

    /// The upper bound of every entry of the flat vector.
    pub fn flat_high(&self) -> &[f64] {
        &self.high
    }

    /// The layout as a Dict of Box spaces (for a JSON definition). Errors if there is no
    /// component, since a Dict needs at least one key.
    pub fn to_any_space(&self) -> Result<AnySpace, CoreError> {
        let dict = DictSpace::new(
            self.components
                .iter()
                .map(|c| (c.name.clone(), AnySpace::Box(c.space.clone()))),
        )?;
        Ok(AnySpace::Dict(dict))
    }

    /// Whether `data` is a flat vector of this layout: the right length, every entry within
    /// its bounds (after rounding the bounds to `T`) and, in integer components, a whole
    /// number.
    pub fn contains_flat<T: FlatScalar>(&self, data: &[T]) -> bool {
        data.len() == self.flat_dim()
            && self.components.iter().all(|component| {
                let integral = !component.dtype().is_float();
                let range = component.range();
                let values = data.get(range.clone()).unwrap_or(&[]);
                let low = self.low.get(range.clone()).unwrap_or(&[]);
                let high = self.high.get(range).unwrap_or(&[]);
                values.len() == component.len
                    && values.iter().zip(low.iter().zip(high)).all(|(v, (l, h))| {
                        let v = v.to_f64();
                        let (l, h) = (T::from_f64(*l).to_f64(), T::from_f64(*h).to_f64());
                        !v.is_nan() && l <= v && v <= h && (!integral || v.fract() == 0.0)
                    })
            })
    }
}

impl fmt::Display for NumericLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, c) in self.components.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{:?}: {}", c.name, c.space)?;
        }
        write!(f, "}}")
    }
}

fn too_long(name: &str) -> CoreError {
    CoreError::invalid_parameter(
        "components",
        format!("the component {name:?} has more entries than usize can count"),
    )
}

/// A `float64` Box of the given shape with the same bounds everywhere.
pub(crate) fn real_box(shape: &[usize], low: f64, high: f64) -> Result<AnyBox, CoreError> {
    Ok(AnyBox::from(BoxSpace::uniform(shape, low, high)?))
}

/// A change applied to a Box space whatever its dtype (see [`map_box`]).
pub(crate) trait BoxMap {
    /// Applies the change to a Box of element type `U`.
    fn apply<U: BoxScalar>(&self, space: &BoxSpace<U>) -> Result<BoxSpace<U>, SpaceError>;
}

/// Applies `change` to the typed Box inside `space`, keeping its dtype.
pub(crate) fn map_box(space: &AnyBox, change: &impl BoxMap) -> Result<AnyBox, SpaceError> {
    Ok(match space {
        AnyBox::F32(s) => AnyBox::F32(change.apply(s)?),
        AnyBox::F64(s) => AnyBox::F64(change.apply(s)?),
        AnyBox::I8(s) => AnyBox::I8(change.apply(s)?),
        AnyBox::I16(s) => AnyBox::I16(change.apply(s)?),
        AnyBox::I32(s) => AnyBox::I32(change.apply(s)?),
        AnyBox::I64(s) => AnyBox::I64(change.apply(s)?),
        AnyBox::U8(s) => AnyBox::U8(change.apply(s)?),
        AnyBox::U16(s) => AnyBox::U16(change.apply(s)?),
        AnyBox::U32(s) => AnyBox::U32(change.apply(s)?),
        AnyBox::U64(s) => AnyBox::U64(change.apply(s)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(shape: &[usize]) -> AnyBox {
        AnyBox::from(BoxSpace::uniform(shape, 0.0f32, 1.0).expect("valid"))
    }

    #[test]
    fn duplicate_names_are_rejected() {
        let error = NumericLayout::new([("a", unit(&[1])), ("a", unit(&[2]))]).unwrap_err();
        assert!(error.to_string().contains("\"a\" is used twice"), "{error}");
    }

    #[test]
    fn components_are_sorted_and_contiguous() {
        let layout = NumericLayout::new([("b", unit(&[2])), ("a", unit(&[3, 1]))]).expect("valid");
        let names: Vec<&str> = layout.components().iter().map(Component::name).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(layout.components()[0].range(), 0..3);
        assert_eq!(layout.components()[1].range(), 3..5);
        assert_eq!(layout.flat_dim(), 5);
        assert!(layout.component("c").is_none());
        assert_eq!(
            layout.to_string(),
            "{\"a\": Box(0.0, 1.0, (3, 1), float32), \"b\": Box(0.0, 1.0, (2,), float32)}"
        );
    }

    #[test]
    fn membership_checks_bounds_and_integers() {
        let layout = NumericLayout::new([
            ("real", unit(&[1])),
            (
                "count",
                AnyBox::from(BoxSpace::uniform(&[1], 0i64, 5).expect("valid")),
            ),
        ])
        .expect("valid");
        assert!(layout.contains_flat(&[3.0f32, 0.5]));
        assert!(
            !layout.contains_flat(&[3.5f32, 0.5]),
            "a fraction in an integer component"
        );
        assert!(!layout.contains_flat(&[3.0f32, 1.5]), "out of bounds");
        assert!(!layout.contains_flat(&[3.0f32, f32::NAN]));
        assert!(!layout.contains_flat(&[3.0f32]));
    }

    #[test]
    fn bounds_are_rounded_to_the_storage_type() {
        // 0.1 is not a float32; its float32 rounding lies above it but must still count as in.
        let layout = NumericLayout::single(
            "x",
            AnyBox::from(BoxSpace::uniform(&[1], 0.0f64, 0.1).expect("valid")),
        )
        .expect("valid");
        assert!(layout.contains_flat(&[0.1f32]));
        assert!(layout.contains_flat(&[0.1f64]));
        assert!(!layout.contains_flat(&[0.100_000_1f64]));
    }
}
