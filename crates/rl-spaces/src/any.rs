//! The dynamic space [`AnySpace`], its element type [`AnyElement`], and the [`DynamicSpace`]
//! trait that converts typed spaces into them.
//!
//! Composites ([`TupleSpace`], [`DictSpace`]) hold `AnySpace` children, and every `AnySpace`
//! can be written to and read from JSON (see [`definition`](crate::definition)).

use std::collections::BTreeMap;
use std::fmt;

use ndarray::ArrayD;
use rand::Rng;
use serde_json::Value;

use crate::scalar::{BoxScalar, DType};
use crate::space::{
    FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space, TrySampleSpace,
    rows_from_json, rows_to_json,
};
use crate::{
    ArrayBox, BoxSpace, DictSpace, Discrete, EmptySpace, FiniteSet, GraphInstance, GraphSpace,
    MultiBinary, MultiDiscrete, OneOfSpace, SequenceSpace, SpaceError, Text, TupleSpace,
};

/// Calls `$body` with `$inner` bound to the typed value inside any variant of a dtype enum.
macro_rules! each_dtype {
    ($enum:ident, $value:expr, $inner:ident => $body:expr) => {
        match $value {
            $enum::F32($inner) => $body,
            $enum::F64($inner) => $body,
            $enum::I8($inner) => $body,
            $enum::I16($inner) => $body,
            $enum::I32($inner) => $body,
            $enum::I64($inner) => $body,
            $enum::U8($inner) => $body,
            $enum::U16($inner) => $body,
            $enum::U32($inner) => $body,
            $enum::U64($inner) => $body,
        }
    };
}

/// An array of any of the Box element types.
///
/// Cloning into an existing array of the same element type ([`Clone::clone_from`]) reuses its
/// buffer, so copying actions between preallocated buffers allocates nothing.
#[derive(Debug, PartialEq)]
#[allow(missing_docs)] // One variant per dtype, named after it.
pub enum AnyArray {
    F32(ArrayD<f32>),
    F64(ArrayD<f64>),
    I8(ArrayD<i8>),
    I16(ArrayD<i16>),
    I32(ArrayD<i32>),
    I64(ArrayD<i64>),
    U8(ArrayD<u8>),
    U16(ArrayD<u16>),
    U32(ArrayD<u32>),
    U64(ArrayD<u64>),
}

/// Clones an [`AnyArray`], or clones one into another of the same variant in place.
macro_rules! any_array_clone {
    ($($variant:ident),*) => {
        impl Clone for AnyArray {
            fn clone(&self) -> Self {
                match self {
                    $(AnyArray::$variant(a) => AnyArray::$variant(a.clone()),)*
                }
            }

            fn clone_from(&mut self, source: &Self) {
                match (self, source) {
                    $((AnyArray::$variant(a), AnyArray::$variant(b)) => a.clone_from(b),)*
                    (this, source) => *this = source.clone(),
                }
            }
        }
    };
}

any_array_clone!(F32, F64, I8, I16, I32, I64, U8, U16, U32, U64);

impl AnyArray {
    /// The element type.
    pub fn dtype(&self) -> DType {
        fn dtype_of<T: BoxScalar>(_: &ArrayD<T>) -> DType {
            T::DTYPE
        }
        each_dtype!(AnyArray, self, a => dtype_of(a))
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        each_dtype!(AnyArray, self, a => a.shape())
    }

    /// The entries in row-major order, converted to `f64` (exact for floats and for integers
    /// up to 2^53).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        each_dtype!(AnyArray, self, a => a.iter().map(|v| BoxScalar::to_f64(*v)).collect())
    }

    /// Borrows the array if its element type is `T`.
    pub fn as_array<T: BoxScalar>(&self) -> Option<&ArrayD<T>> {
        T::unwrap_array(self)
    }
}

impl<T: BoxScalar> From<ArrayD<T>> for AnyArray {
    fn from(array: ArrayD<T>) -> Self {
        T::wrap_array(array)
    }
}

/// A Box space of any element type.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)] // One variant per dtype, named after it.
pub enum AnyBox {
    F32(BoxSpace<f32>),
    F64(BoxSpace<f64>),
    I8(BoxSpace<i8>),
    I16(BoxSpace<i16>),
    I32(BoxSpace<i32>),
    I64(BoxSpace<i64>),
    U8(BoxSpace<u8>),
    U16(BoxSpace<u16>),
    U32(BoxSpace<u32>),
    U64(BoxSpace<u64>),
}

impl AnyBox {
    /// The element type.
    pub fn dtype(&self) -> DType {
        each_dtype!(AnyBox, self, b => b.dtype())
    }

    /// The shape of every element.
    pub fn shape(&self) -> &[usize] {
        each_dtype!(AnyBox, self, b => b.shape())
    }

    /// The lower bounds converted to `f64`, in row-major order.
    pub fn low_f64(&self) -> Vec<f64> {
        each_dtype!(AnyBox, self, b => b.low().iter().map(|v| BoxScalar::to_f64(*v)).collect())
    }

    /// The upper bounds converted to `f64`, in row-major order.
    pub fn high_f64(&self) -> Vec<f64> {
        each_dtype!(AnyBox, self, b => b.high().iter().map(|v| BoxScalar::to_f64(*v)).collect())
    }

    /// Borrows the Box if its element type is `T`.
    pub fn as_box<T: BoxScalar>(&self) -> Option<&BoxSpace<T>> {
        fn cast<T: BoxScalar, U: BoxScalar>(b: &BoxSpace<U>) -> Option<&BoxSpace<T>> {
            (b as &dyn std::any::Any).downcast_ref::<BoxSpace<T>>()
        }
        each_dtype!(AnyBox, self, b => cast::<T, _>(b))
    }

    fn contains(&self, x: &AnyArray) -> bool {
        each_dtype!(AnyBox, self, b => x.as_array().is_some_and(|a| b.contains(a)))
    }

    fn typed<'a, T: BoxScalar>(
        b: &BoxSpace<T>,
        x: &'a AnyArray,
    ) -> Result<&'a ArrayD<T>, SpaceError> {
        x.as_array::<T>()
            .ok_or_else(|| SpaceError::not_in_space(x, b))
    }
}

impl fmt::Display for AnyBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each_dtype!(AnyBox, self, b => fmt::Display::fmt(b, f))
    }
}

impl<T: BoxScalar> From<BoxSpace<T>> for AnyBox {
    fn from(space: BoxSpace<T>) -> Self {
        T::wrap_box(space)
    }
}

/// An element of an [`AnySpace`].
///
/// | space | element |
/// |---|---|
/// | `Discrete` | `Int` |
/// | `Box` | `Array` of the Box's dtype |
/// | `MultiDiscrete` | `Array(AnyArray::I64(..))` |
/// | `MultiBinary` | `Array(AnyArray::I8(..))` |
/// | `Tuple` | `Tuple`, one element per child |
/// | `Dict` | `Dict`, one element per key |
/// | `FiniteSet` | `Value`, the JSON value listed in the set |
/// | `Text` | `Text`, the string |
/// | `Sequence` | `Sequence`, one element per item |
/// | `Graph` | `Graph`, a [`GraphInstance`] |
/// | `OneOf` | `OneOf`, the index of the space and its element |
///
/// Cloning into an existing element of the same shape ([`Clone::clone_from`]) reuses its
/// buffers, so copying actions between preallocated buffers allocates nothing.
///
/// An array is boxed: an `ArrayD` with its dynamic shape and strides takes 120 bytes, which
/// every element (an integer action among them) would otherwise take, so that a vector's
/// batch of integer actions read for its check would be 15 times their 8 bytes.
#[derive(Debug, PartialEq)]
pub enum AnyElement {
    /// An element of a Discrete space.
    Int(i64),
    /// An element of a Box, MultiDiscrete or MultiBinary space.
    Array(Box<AnyArray>),
    /// An element of a Tuple space.
    Tuple(Vec<AnyElement>),
    /// An element of a Dict space.
    Dict(BTreeMap<String, AnyElement>),
    /// An element of a finite set of JSON values.
    Value(Value),
    /// An element of a Text space.
    Text(String),
    /// An element of a Sequence space: its items.
    Sequence(Vec<AnyElement>),
    /// An element of a Graph space.
    Graph(Box<GraphInstance>),
    /// An element of a OneOf space: the index of the space and an element of it.
    OneOf(usize, Box<AnyElement>),
}

impl Clone for AnyElement {
    fn clone(&self) -> Self {
        match self {
            AnyElement::Int(x) => AnyElement::Int(*x),
            AnyElement::Array(a) => AnyElement::Array(a.clone()),
            AnyElement::Tuple(t) => AnyElement::Tuple(t.clone()),
            AnyElement::Dict(d) => AnyElement::Dict(d.clone()),
            AnyElement::Value(v) => AnyElement::Value(v.clone()),
            AnyElement::Text(t) => AnyElement::Text(t.clone()),
            AnyElement::Sequence(items) => AnyElement::Sequence(items.clone()),
            AnyElement::Graph(g) => AnyElement::Graph(g.clone()),
            AnyElement::OneOf(i, x) => AnyElement::OneOf(*i, x.clone()),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (AnyElement::Int(a), AnyElement::Int(b)) => *a = *b,
            (AnyElement::Array(a), AnyElement::Array(b)) => a.clone_from(b),
            (AnyElement::Tuple(a), AnyElement::Tuple(b)) => a.clone_from(b),
            (AnyElement::Dict(a), AnyElement::Dict(b)) => a.clone_from(b),
            (AnyElement::Value(a), AnyElement::Value(b)) => a.clone_from(b),
            (AnyElement::Text(a), AnyElement::Text(b)) => a.clone_from(b),
            (AnyElement::Sequence(a), AnyElement::Sequence(b)) => a.clone_from(b),
            (this, source) => *this = source.clone(),
        }
    }
}

impl AnyElement {
    /// The integer, if this is an `Int`.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            AnyElement::Int(x) => Some(*x),
            _ => None,
        }
    }

    /// The array, if this is an `Array`.
    pub fn as_array(&self) -> Option<&AnyArray> {
        match self {
            AnyElement::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The children, if this is a `Tuple`.
    pub fn as_tuple(&self) -> Option<&[AnyElement]> {
        match self {
            AnyElement::Tuple(t) => Some(t),
            _ => None,
        }
    }

    /// The string, if this is a `Text`.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            AnyElement::Text(t) => Some(t),
            _ => None,
        }
    }

    /// The entries, if this is a `Dict`.
    pub fn as_dict(&self) -> Option<&BTreeMap<String, AnyElement>> {
        match self {
            AnyElement::Dict(d) => Some(d),
            _ => None,
        }
    }
}

/// Writes an array as nested lists, the way a user writes it: `[[1, 2], [3, 4]]`; floats
/// keep a decimal point and NaN and infinities read `NaN`, `inf` and `-inf`.
impl fmt::Display for AnyArray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn write_nested<T: fmt::Debug>(
            f: &mut fmt::Formatter<'_>,
            shape: &[usize],
            values: &mut impl Iterator<Item = T>,
        ) -> fmt::Result {
            match shape.split_first() {
                None => match values.next() {
                    Some(v) => write!(f, "{v:?}"),
                    None => Ok(()),
                },
                Some((len, rest)) => {
                    write!(f, "[")?;
                    for i in 0..*len {
                        if i > 0 {
                            write!(f, ", ")?;
                        }
                        write_nested(f, rest, values)?;
                    }
                    write!(f, "]")
                }
            }
        }
        each_dtype!(AnyArray, self, a => write_nested(f, a.shape(), &mut a.iter()))
    }
}

/// Writes an element the way a user writes it, not as its Rust structure: an integer as
/// `3`, an array as nested lists (`[NaN, 0.5]`), a tuple as `(3, [0.5])`, a dict as
/// `{"position": [0.5], "speed": 1}`, a JSON value as its JSON text, a string quoted.
///
/// ```
/// use ndarray::{ArrayD, IxDyn};
/// use rl_spaces::AnyElement;
///
/// let action = AnyElement::from(ArrayD::from_elem(IxDyn(&[1]), f32::NAN));
/// assert_eq!(action.to_string(), "[NaN]");
/// let pair = AnyElement::Tuple(vec![AnyElement::Int(2), action]);
/// assert_eq!(pair.to_string(), "(2, [NaN])");
/// ```
impl fmt::Display for AnyElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyElement::Int(x) => write!(f, "{x}"),
            AnyElement::Array(a) => write!(f, "{a}"),
            AnyElement::Tuple(items) => {
                write!(f, "(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{item}")?;
                }
                write!(f, ")")
            }
            AnyElement::Dict(entries) => {
                write!(f, "{{")?;
                for (i, (key, item)) in entries.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{key:?}: {item}")?;
                }
                write!(f, "}}")
            }
            AnyElement::Value(v) => write!(f, "{v}"),
            AnyElement::Text(t) => write!(f, "{t:?}"),
            AnyElement::Sequence(items) => {
                write!(f, "[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{item}")?;
                }
                write!(f, "]")
            }
            AnyElement::Graph(g) => {
                write!(f, "Graph(nodes={}", g.nodes)?;
                if let (Some(edges), Some(links)) = (&g.edges, &g.edge_links) {
                    write!(f, ", edges={edges}, edge_links={links:?}")?;
                }
                write!(f, ")")
            }
            AnyElement::OneOf(i, x) => write!(f, "({i}, {x})"),
        }
    }
}

impl From<i64> for AnyElement {
    fn from(x: i64) -> Self {
        AnyElement::Int(x)
    }
}

impl<T: BoxScalar> From<ArrayD<T>> for AnyElement {
    fn from(array: ArrayD<T>) -> Self {
        AnyElement::from(T::wrap_array(array))
    }
}

impl From<AnyArray> for AnyElement {
    fn from(array: AnyArray) -> Self {
        AnyElement::Array(Box::new(array))
    }
}

/// Any space this crate defines, behind one type: what composites hold and what JSON
/// definitions describe.
///
/// [`ImplicitSpace`](crate::ImplicitSpace) is the one space that cannot be an `AnySpace`: a
/// closure can be neither compared nor written to JSON.
///
/// ```
/// use rl_spaces::{AnySpace, BoxSpace, Discrete, TupleSpace};
///
/// let space = AnySpace::from(TupleSpace::new(vec![
///     Discrete::new(3)?.into(),
///     BoxSpace::uniform(&[2], -1.0f32, 1.0)?.into(),
/// ])?);
/// let json = space.to_definition_string();
/// assert_eq!(AnySpace::from_definition_str(&json)?, space);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum AnySpace {
    /// A [`Discrete`] space.
    Discrete(Discrete),
    /// A [`BoxSpace`] of any dtype.
    Box(AnyBox),
    /// A [`MultiDiscrete`] space.
    MultiDiscrete(MultiDiscrete),
    /// A [`MultiBinary`] space.
    MultiBinary(MultiBinary),
    /// A [`TupleSpace`].
    Tuple(TupleSpace),
    /// A [`DictSpace`].
    Dict(DictSpace),
    /// A [`FiniteSet`] of JSON values.
    FiniteSet(FiniteSet<Value>),
    /// The [`EmptySpace`].
    Empty(EmptySpace),
    /// A [`Text`] space.
    Text(Text),
    /// A [`SequenceSpace`].
    Sequence(SequenceSpace),
    /// A [`GraphSpace`].
    Graph(GraphSpace),
    /// A [`OneOfSpace`].
    OneOf(OneOfSpace),
}

impl AnySpace {
    /// The name of the kind of space, as used in definitions: `"Discrete"`, `"Box"`, ...
    pub fn kind(&self) -> &'static str {
        match self {
            AnySpace::Discrete(_) => "Discrete",
            AnySpace::Box(_) => "Box",
            AnySpace::MultiDiscrete(_) => "MultiDiscrete",
            AnySpace::MultiBinary(_) => "MultiBinary",
            AnySpace::Tuple(_) => "Tuple",
            AnySpace::Dict(_) => "Dict",
            AnySpace::FiniteSet(_) => "FiniteSet",
            AnySpace::Empty(_) => "Empty",
            AnySpace::Text(_) => "Text",
            AnySpace::Sequence(_) => "Sequence",
            AnySpace::Graph(_) => "Graph",
            AnySpace::OneOf(_) => "OneOf",
        }
    }

    /// Whether the space has no element (only [`EmptySpace`] has none: composites reject empty
    /// children and finite sets reject empty lists).
    pub fn is_empty(&self) -> bool {
        matches!(self, AnySpace::Empty(_))
    }

    /// Draws an element of a space known to be non-empty (a child of a composite).
    pub(crate) fn sample_child<R: Rng + ?Sized>(&self, rng: &mut R) -> AnyElement {
        // Composites reject empty children at construction, so `try_sample` always gives an
        // element here; the fallback keeps the function total without a panic.
        self.try_sample(rng)
            .unwrap_or(AnyElement::Tuple(Vec::new()))
    }
}

impl fmt::Display for AnySpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnySpace::Discrete(s) => fmt::Display::fmt(s, f),
            AnySpace::Box(s) => fmt::Display::fmt(s, f),
            AnySpace::MultiDiscrete(s) => fmt::Display::fmt(s, f),
            AnySpace::MultiBinary(s) => fmt::Display::fmt(s, f),
            AnySpace::Tuple(s) => fmt::Display::fmt(s, f),
            AnySpace::Dict(s) => fmt::Display::fmt(s, f),
            AnySpace::FiniteSet(s) => fmt::Display::fmt(s, f),
            AnySpace::Empty(s) => fmt::Display::fmt(s, f),
            AnySpace::Text(s) => fmt::Display::fmt(s, f),
            AnySpace::Sequence(s) => fmt::Display::fmt(s, f),
            AnySpace::Graph(s) => fmt::Display::fmt(s, f),
            AnySpace::OneOf(s) => fmt::Display::fmt(s, f),
        }
    }
}

impl From<Discrete> for AnySpace {
    fn from(space: Discrete) -> Self {
        AnySpace::Discrete(space)
    }
}

impl<T: BoxScalar> From<BoxSpace<T>> for AnySpace {
    fn from(space: BoxSpace<T>) -> Self {
        AnySpace::Box(T::wrap_box(space))
    }
}

impl<T: BoxScalar, const N: usize> From<ArrayBox<T, N>> for AnySpace {
    fn from(space: ArrayBox<T, N>) -> Self {
        AnySpace::from(space.to_box())
    }
}

impl From<AnyBox> for AnySpace {
    fn from(space: AnyBox) -> Self {
        AnySpace::Box(space)
    }
}

impl From<MultiDiscrete> for AnySpace {
    fn from(space: MultiDiscrete) -> Self {
        AnySpace::MultiDiscrete(space)
    }
}

impl From<MultiBinary> for AnySpace {
    fn from(space: MultiBinary) -> Self {
        AnySpace::MultiBinary(space)
    }
}

impl From<TupleSpace> for AnySpace {
    fn from(space: TupleSpace) -> Self {
        AnySpace::Tuple(space)
    }
}

impl From<DictSpace> for AnySpace {
    fn from(space: DictSpace) -> Self {
        AnySpace::Dict(space)
    }
}

impl From<FiniteSet<Value>> for AnySpace {
    fn from(space: FiniteSet<Value>) -> Self {
        AnySpace::FiniteSet(space)
    }
}

impl From<SequenceSpace> for AnySpace {
    fn from(space: SequenceSpace) -> Self {
        AnySpace::Sequence(space)
    }
}

impl From<GraphSpace> for AnySpace {
    fn from(space: GraphSpace) -> Self {
        AnySpace::Graph(space)
    }
}

impl From<OneOfSpace> for AnySpace {
    fn from(space: OneOfSpace) -> Self {
        AnySpace::OneOf(space)
    }
}

impl From<Text> for AnySpace {
    fn from(space: Text) -> Self {
        AnySpace::Text(space)
    }
}

impl From<EmptySpace> for AnySpace {
    fn from(space: EmptySpace) -> Self {
        AnySpace::Empty(space)
    }
}

impl Space for AnySpace {
    type Element = AnyElement;

    fn contains(&self, x: &AnyElement) -> bool {
        match (self, x) {
            (AnySpace::Discrete(s), AnyElement::Int(v)) => s.contains(v),
            (AnySpace::Box(s), AnyElement::Array(a)) => s.contains(a),
            (AnySpace::MultiDiscrete(s), AnyElement::Array(array))
                if let AnyArray::I64(a) = &**array =>
            {
                s.contains(a)
            }
            (AnySpace::MultiBinary(s), AnyElement::Array(array))
                if let AnyArray::I8(a) = &**array =>
            {
                s.contains(a)
            }
            (AnySpace::Tuple(s), AnyElement::Tuple(t)) => s.contains(t),
            (AnySpace::Dict(s), AnyElement::Dict(d)) => s.contains(d),
            (AnySpace::FiniteSet(s), AnyElement::Value(v)) => s.contains(v),
            (AnySpace::Text(s), AnyElement::Text(t)) => s.contains(t),
            (AnySpace::Sequence(s), AnyElement::Sequence(items)) => s.contains(items),
            (AnySpace::Graph(s), AnyElement::Graph(g)) => s.contains(g),
            (AnySpace::OneOf(s), AnyElement::OneOf(i, x)) => s.contains(&(*i, (**x).clone())),
            _ => false,
        }
    }

    fn first_outside(&self, xs: &[AnyElement]) -> Option<usize> {
        // The space's variant is matched once for the whole batch, not once per element, and
        // a batch of integers is checked without a branch per element (a valid batch, the
        // usual case, is one pass); only a batch with an element outside looks for it.
        match self {
            AnySpace::Discrete(s) => {
                let outside = xs.iter().fold(false, |outside, x| {
                    outside
                        | match x {
                            AnyElement::Int(v) => !s.contains(v),
                            _ => true,
                        }
                });
                if !outside {
                    return None;
                }
                xs.iter().position(|x| !self.contains(x))
            }
            AnySpace::Box(b) => each_dtype!(AnyBox, b, s => s.first_outside_of(xs.iter().map(
                |x| match x {
                    AnyElement::Array(a) => a.as_array(),
                    _ => None,
                }
            ))),
            _ => xs.iter().position(|x| !self.contains(x)),
        }
    }
}

impl TrySampleSpace for AnySpace {
    fn try_sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<AnyElement> {
        Some(match self {
            AnySpace::Discrete(s) => AnyElement::Int(s.sample(rng)),
            AnySpace::Box(s) => {
                AnyElement::from(each_dtype!(AnyBox, s, b => AnyArray::from(b.sample(rng))))
            }
            AnySpace::MultiDiscrete(s) => s.sample(rng).into(),
            AnySpace::MultiBinary(s) => s.sample(rng).into(),
            AnySpace::Tuple(s) => AnyElement::Tuple(s.sample(rng)),
            AnySpace::Dict(s) => AnyElement::Dict(s.sample(rng)),
            AnySpace::FiniteSet(s) => AnyElement::Value(s.sample(rng)),
            AnySpace::Text(s) => AnyElement::Text(s.sample(rng)),
            AnySpace::Sequence(s) => AnyElement::Sequence(s.sample(rng)),
            AnySpace::Graph(s) => AnyElement::Graph(Box::new(s.sample(rng))),
            AnySpace::OneOf(s) => {
                let (i, x) = s.sample(rng);
                AnyElement::OneOf(i, Box::new(x))
            }
            AnySpace::Empty(_) => return None,
        })
    }
}

/// Unwraps the element variant matching a space variant, or reports that it does not belong.
fn mismatch(x: &AnyElement, space: &AnySpace) -> SpaceError {
    SpaceError::not_in_space(x, space)
}

impl FiniteSpace for AnySpace {
    fn cardinality(&self) -> Option<usize> {
        match self {
            AnySpace::Discrete(s) => s.cardinality(),
            AnySpace::Box(s) => each_dtype!(AnyBox, s, b => b.cardinality()),
            AnySpace::MultiDiscrete(s) => s.cardinality(),
            AnySpace::MultiBinary(s) => s.cardinality(),
            AnySpace::Tuple(s) => s.cardinality(),
            AnySpace::Dict(s) => s.cardinality(),
            AnySpace::FiniteSet(s) => s.cardinality(),
            AnySpace::Empty(s) => s.cardinality(),
            // Text is finite but not enumerated (its elements are not numbered); the others
            // are infinite.
            AnySpace::Text(_) | AnySpace::Sequence(_) | AnySpace::Graph(_) | AnySpace::OneOf(_) => {
                None
            }
        }
    }

    fn element_at(&self, index: usize) -> Option<AnyElement> {
        match self {
            AnySpace::Discrete(s) => s.element_at(index).map(AnyElement::Int),
            AnySpace::Box(s) => {
                each_dtype!(AnyBox, s, b => b.element_at(index).map(AnyElement::from))
            }
            AnySpace::MultiDiscrete(s) => s.element_at(index).map(AnyElement::from),
            AnySpace::MultiBinary(s) => s.element_at(index).map(AnyElement::from),
            AnySpace::Tuple(s) => s.element_at(index).map(AnyElement::Tuple),
            AnySpace::Dict(s) => s.element_at(index).map(AnyElement::Dict),
            AnySpace::FiniteSet(s) => s.element_at(index).map(AnyElement::Value),
            AnySpace::Empty(_)
            | AnySpace::Text(_)
            | AnySpace::Sequence(_)
            | AnySpace::Graph(_)
            | AnySpace::OneOf(_) => None,
        }
    }

    fn index_of(&self, x: &AnyElement) -> Option<usize> {
        match (self, x) {
            (AnySpace::Discrete(s), AnyElement::Int(v)) => s.index_of(v),
            (AnySpace::Box(s), AnyElement::Array(a)) => {
                each_dtype!(AnyBox, s, b => a.as_array().and_then(|a| b.index_of(a)))
            }
            (AnySpace::MultiDiscrete(s), AnyElement::Array(array))
                if let AnyArray::I64(a) = &**array =>
            {
                s.index_of(a)
            }
            (AnySpace::MultiBinary(s), AnyElement::Array(array))
                if let AnyArray::I8(a) = &**array =>
            {
                s.index_of(a)
            }
            (AnySpace::Tuple(s), AnyElement::Tuple(t)) => s.index_of(t),
            (AnySpace::Dict(s), AnyElement::Dict(d)) => s.index_of(d),
            (AnySpace::FiniteSet(s), AnyElement::Value(v)) => s.index_of(v),
            _ => None,
        }
    }
}

impl AnySpace {
    /// Whether the space's batched rows ([`RowLayout::Batched`](crate::RowLayout)) are its flat
    /// rows: true unless a `Discrete` or `MultiDiscrete` leaf lies in it (directly or in Tuples
    /// and Dicts), so that a kernel writing flat rows writes batched ones too.
    pub fn batched_is_flat(&self) -> bool {
        match self {
            AnySpace::Discrete(_) | AnySpace::MultiDiscrete(_) => false,
            AnySpace::Tuple(tuple) => tuple.spaces().iter().all(AnySpace::batched_is_flat),
            AnySpace::Dict(dict) => dict.spaces().values().all(AnySpace::batched_is_flat),
            _ => true,
        }
    }
}

impl FlattenSpace for AnySpace {
    fn is_flattenable(&self) -> bool {
        match self {
            AnySpace::Sequence(_) | AnySpace::Graph(_) => false,
            AnySpace::Discrete(s) => s.is_flattenable(),
            AnySpace::Tuple(s) => s.is_flattenable(),
            AnySpace::Dict(s) => s.is_flattenable(),
            AnySpace::OneOf(s) => s.is_flattenable(),
            _ => true,
        }
    }

    fn flat_dim(&self) -> usize {
        match self {
            AnySpace::Discrete(s) => s.flat_dim(),
            AnySpace::Box(s) => each_dtype!(AnyBox, s, b => b.flat_dim()),
            AnySpace::MultiDiscrete(s) => s.flat_dim(),
            AnySpace::MultiBinary(s) => s.flat_dim(),
            AnySpace::Tuple(s) => s.flat_dim(),
            AnySpace::Dict(s) => s.flat_dim(),
            AnySpace::FiniteSet(s) => s.flat_dim(),
            AnySpace::Empty(s) => s.flat_dim(),
            AnySpace::Text(s) => s.flat_dim(),
            AnySpace::Sequence(s) => s.flat_dim(),
            AnySpace::Graph(s) => s.flat_dim(),
            AnySpace::OneOf(s) => s.flat_dim(),
        }
    }

    fn flatten_into<F: FlatScalar>(&self, x: &AnyElement, out: &mut [F]) -> Result<(), SpaceError> {
        match (self, x) {
            (AnySpace::Discrete(s), AnyElement::Int(v)) => s.flatten_into(v, out),
            (AnySpace::Box(s), AnyElement::Array(a)) => {
                each_dtype!(AnyBox, s, b => b.flatten_into(AnyBox::typed(b, a)?, out))
            }
            (AnySpace::MultiDiscrete(s), AnyElement::Array(array))
                if let AnyArray::I64(a) = &**array =>
            {
                s.flatten_into(a, out)
            }
            (AnySpace::MultiBinary(s), AnyElement::Array(array))
                if let AnyArray::I8(a) = &**array =>
            {
                s.flatten_into(a, out)
            }
            (AnySpace::Tuple(s), AnyElement::Tuple(t)) => s.flatten_into(t, out),
            (AnySpace::Dict(s), AnyElement::Dict(d)) => s.flatten_into(d, out),
            (AnySpace::FiniteSet(s), AnyElement::Value(v)) => s.flatten_into(v, out),
            (AnySpace::Text(s), AnyElement::Text(t)) => s.flatten_into(t, out),
            (AnySpace::Sequence(s), AnyElement::Sequence(items)) => s.flatten_into(items, out),
            (AnySpace::Graph(s), AnyElement::Graph(g)) => s.flatten_into(g, out),
            (AnySpace::OneOf(s), AnyElement::OneOf(i, x)) => {
                s.flatten_into(&(*i, (**x).clone()), out)
            }
            _ => Err(mismatch(x, self)),
        }
    }

    fn batched_dim(&self) -> usize {
        match self {
            AnySpace::Discrete(s) => s.batched_dim(),
            AnySpace::MultiDiscrete(s) => s.batched_dim(),
            AnySpace::Tuple(s) => s.batched_dim(),
            AnySpace::Dict(s) => s.batched_dim(),
            other => other.flat_dim(),
        }
    }

    fn batched_into<F: FlatScalar>(&self, x: &AnyElement, out: &mut [F]) -> Result<(), SpaceError> {
        match (self, x) {
            (AnySpace::Discrete(s), AnyElement::Int(v)) => s.batched_into(v, out),
            (AnySpace::MultiDiscrete(s), AnyElement::Array(array))
                if let AnyArray::I64(a) = &**array =>
            {
                s.batched_into(a, out)
            }
            (AnySpace::Tuple(s), AnyElement::Tuple(t)) => s.batched_into(t, out),
            (AnySpace::Dict(s), AnyElement::Dict(d)) => s.batched_into(d, out),
            _ => self.flatten_into(x, out),
        }
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<AnyElement, SpaceError> {
        Ok(match self {
            AnySpace::Discrete(s) => AnyElement::Int(s.unflatten(flat)?),
            AnySpace::Box(s) => each_dtype!(AnyBox, s, b => b.unflatten(flat)?.into()),
            AnySpace::MultiDiscrete(s) => s.unflatten(flat)?.into(),
            AnySpace::MultiBinary(s) => s.unflatten(flat)?.into(),
            AnySpace::Tuple(s) => AnyElement::Tuple(s.unflatten(flat)?),
            AnySpace::Dict(s) => AnyElement::Dict(s.unflatten(flat)?),
            AnySpace::FiniteSet(s) => AnyElement::Value(s.unflatten(flat)?),
            AnySpace::Empty(s) => s.unflatten(flat)?,
            AnySpace::Text(s) => AnyElement::Text(s.unflatten(flat)?),
            AnySpace::Sequence(s) => AnyElement::Sequence(s.unflatten(flat)?),
            AnySpace::Graph(s) => AnyElement::Graph(Box::new(s.unflatten(flat)?)),
            AnySpace::OneOf(s) => {
                let (i, x) = s.unflatten(flat)?;
                AnyElement::OneOf(i, Box::new(x))
            }
        })
    }
}

impl JsonSpace for AnySpace {
    fn element_to_json(&self, x: &AnyElement) -> Result<Value, SpaceError> {
        match (self, x) {
            (AnySpace::Discrete(s), AnyElement::Int(v)) => s.element_to_json(v),
            (AnySpace::Box(s), AnyElement::Array(a)) => {
                each_dtype!(AnyBox, s, b => b.element_to_json(AnyBox::typed(b, a)?))
            }
            (AnySpace::MultiDiscrete(s), AnyElement::Array(array))
                if let AnyArray::I64(a) = &**array =>
            {
                s.element_to_json(a)
            }
            (AnySpace::MultiBinary(s), AnyElement::Array(array))
                if let AnyArray::I8(a) = &**array =>
            {
                s.element_to_json(a)
            }
            (AnySpace::Tuple(s), AnyElement::Tuple(t)) => s.element_to_json(t),
            (AnySpace::Dict(s), AnyElement::Dict(d)) => s.element_to_json(d),
            (AnySpace::FiniteSet(s), AnyElement::Value(v)) => s.element_to_json(v),
            (AnySpace::Text(s), AnyElement::Text(t)) => s.element_to_json(t),
            (AnySpace::Sequence(s), AnyElement::Sequence(items)) => s.element_to_json(items),
            (AnySpace::Graph(s), AnyElement::Graph(g)) => s.element_to_json(g),
            (AnySpace::OneOf(s), AnyElement::OneOf(i, x)) => {
                s.element_to_json(&(*i, (**x).clone()))
            }
            _ => Err(mismatch(x, self)),
        }
    }

    fn element_from_json(&self, value: &Value) -> Result<AnyElement, SpaceError> {
        Ok(match self {
            AnySpace::Discrete(s) => AnyElement::Int(s.element_from_json(value)?),
            AnySpace::Box(s) => each_dtype!(AnyBox, s, b => b.element_from_json(value)?.into()),
            AnySpace::MultiDiscrete(s) => s.element_from_json(value)?.into(),
            AnySpace::MultiBinary(s) => s.element_from_json(value)?.into(),
            AnySpace::Tuple(s) => AnyElement::Tuple(s.element_from_json(value)?),
            AnySpace::Dict(s) => AnyElement::Dict(s.element_from_json(value)?),
            AnySpace::FiniteSet(s) => AnyElement::Value(s.element_from_json(value)?),
            AnySpace::Empty(s) => s.element_from_json(value)?,
            AnySpace::Text(s) => AnyElement::Text(s.element_from_json(value)?),
            AnySpace::Sequence(s) => AnyElement::Sequence(s.element_from_json(value)?),
            AnySpace::Graph(s) => AnyElement::Graph(Box::new(s.element_from_json(value)?)),
            AnySpace::OneOf(s) => {
                let (i, x) = s.element_from_json(value)?;
                AnyElement::OneOf(i, Box::new(x))
            }
        })
    }

    fn batch_to_jsonable(&self, batch: &[AnyElement]) -> Result<Value, SpaceError> {
        match self {
            AnySpace::Tuple(s) => {
                let rows = batch
                    .iter()
                    .map(|x| {
                        x.as_tuple()
                            .map(<[AnyElement]>::to_vec)
                            .ok_or_else(|| mismatch(x, self))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                s.batch_to_jsonable(&rows)
            }
            AnySpace::Dict(s) => {
                let rows = batch
                    .iter()
                    .map(|x| x.as_dict().cloned().ok_or_else(|| mismatch(x, self)))
                    .collect::<Result<Vec<_>, _>>()?;
                s.batch_to_jsonable(&rows)
            }
            AnySpace::Sequence(s) => {
                let rows = batch
                    .iter()
                    .map(|x| match x {
                        AnyElement::Sequence(items) => Ok(items.clone()),
                        other => Err(mismatch(other, self)),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                s.batch_to_jsonable(&rows)
            }
            _ => rows_to_json(self, batch),
        }
    }

    fn batch_from_jsonable(&self, value: &Value) -> Result<Vec<AnyElement>, SpaceError> {
        match self {
            AnySpace::Tuple(s) => Ok(s
                .batch_from_jsonable(value)?
                .into_iter()
                .map(AnyElement::Tuple)
                .collect()),
            AnySpace::Dict(s) => Ok(s
                .batch_from_jsonable(value)?
                .into_iter()
                .map(AnyElement::Dict)
                .collect()),
            AnySpace::Sequence(s) => Ok(s
                .batch_from_jsonable(value)?
                .into_iter()
                .map(AnyElement::Sequence)
                .collect()),
            _ => rows_from_json(self, value, "elements"),
        }
    }
}

/// A space that can describe itself as an [`AnySpace`] and convert its elements to and from
/// [`AnyElement`].
///
/// This is how typed spaces meet dynamic code: a JSON definition of any environment's spaces,
/// a command line that prints them, a runner that drives an environment without knowing its
/// types.
pub trait DynamicSpace: Space {
    /// The same set as an [`AnySpace`].
    fn to_any_space(&self) -> AnySpace;

    /// Converts an element to the matching [`AnyElement`] (no check that it belongs).
    fn element_to_any(&self, x: &Self::Element) -> AnyElement;

    /// Converts an [`AnyElement`] back, checking that it is an element of the space.
    fn element_from_any(&self, x: &AnyElement) -> Result<Self::Element, SpaceError>;

    /// Converts an [`AnyElement`] of the space's kind, dtype and shape back without checking
    /// the bounds of a Box: a continuous action beyond its bounds, which a domain may accept
    /// (Gymnasium's Pendulum clips its torque; see rl-core's `Domain::accepts_action`). By
    /// default the same as [`element_from_any`](Self::element_from_any); `None` for anything
    /// it refuses.
    fn element_from_any_ignoring_bounds(&self, x: &AnyElement) -> Option<Self::Element> {
        self.element_from_any(x).ok()
    }

    /// [`element_from_any`](Self::element_from_any) into `out`, an element of the space
    /// already (the last step's action, say): a Box's array of the space's shape is
    /// overwritten in place, so that converting again allocates nothing; by default `out` is
    /// replaced. An error, leaving `out` as it was, for what `element_from_any` refuses.
    ///
    /// ```
    /// use ndarray::ArrayD;
    /// use rl_spaces::{AnyElement, BoxSpace, DynamicSpace};
    ///
    /// let space = BoxSpace::<f32>::new(ArrayD::from_elem(vec![2], -1.0), ArrayD::from_elem(vec![2], 1.0))?;
    /// let mut action = ArrayD::zeros(vec![2]);
    /// let any = AnyElement::from(ArrayD::from_shape_vec(vec![2], vec![0.5f32, -0.25])?);
    /// space.element_from_any_into(&any, &mut action)?;
    /// assert_eq!(action.as_slice(), Some(&[0.5f32, -0.25][..]));
    /// let beyond = AnyElement::from(ArrayD::from_shape_vec(vec![2], vec![2.0f32, 0.0])?);
    /// assert!(space.element_from_any_into(&beyond, &mut action).is_err());
    /// assert_eq!(action.as_slice(), Some(&[0.5f32, -0.25][..])); // left as it was
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn element_from_any_into(
        &self,
        x: &AnyElement,
        out: &mut Self::Element,
    ) -> Result<(), SpaceError> {
        *out = self.element_from_any(x)?;
        Ok(())
    }

    /// Converts an integer (an [`AnyElement::Int`]) to an element, checking that it is one:
    /// [`element_from_any`](Self::element_from_any) of `AnyElement::Int(x)`, which
    /// [`Discrete`] does without building the `AnyElement` (the integer actions of a vector
    /// built by id).
    #[inline]
    fn element_from_int(&self, x: i64) -> Result<Self::Element, SpaceError> {
        self.element_from_any(&AnyElement::Int(x))
    }

    /// Integers as the space's elements without a conversion, where the space's elements are
    /// integers ([`Discrete`]: `xs` itself); `None` for every other space (by default). Not a
    /// check: an integer outside the space is returned as it is ([`Space::first_outside`]
    /// finds it).
    ///
    /// ```
    /// use rl_spaces::{Discrete, DynamicSpace, Space};
    ///
    /// let space = Discrete::new(3)?;
    /// let actions = [0, 2, 1];
    /// assert_eq!(space.ints_as_elements(&actions), Some(&actions[..]));
    /// assert_eq!(space.first_outside(&[0, 3]), Some(1));
    /// # Ok::<(), rl_spaces::SpaceError>(())
    /// ```
    #[inline]
    fn ints_as_elements<'a>(&self, xs: &'a [i64]) -> Option<&'a [Self::Element]> {
        let _ = xs;
        None
    }
}

/// Checks membership after a conversion, naming the element and the space on failure.
fn checked<S: Space>(
    space: &S,
    x: Option<S::Element>,
    original: &AnyElement,
) -> Result<S::Element, SpaceError> {
    match x {
        Some(x) if space.contains(&x) => Ok(x),
        _ => Err(SpaceError::not_in_space(original, space)),
    }
}

impl DynamicSpace for AnySpace {
    fn to_any_space(&self) -> AnySpace {
        self.clone()
    }

    fn element_to_any(&self, x: &AnyElement) -> AnyElement {
        x.clone()
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<AnyElement, SpaceError> {
        checked(self, Some(x.clone()), x)
    }
}

impl DynamicSpace for Discrete {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Discrete(*self)
    }

    fn element_to_any(&self, x: &i64) -> AnyElement {
        AnyElement::Int(*x)
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<i64, SpaceError> {
        checked(self, x.as_int(), x)
    }

    /// Any integer: the range is the Discrete's bounds (minigrid's Dynamic-Obstacles takes an
    /// action beyond its three as "turn left", which its domain accepts).
    fn element_from_any_ignoring_bounds(&self, x: &AnyElement) -> Option<i64> {
        x.as_int()
    }

    #[inline]
    fn element_from_int(&self, x: i64) -> Result<i64, SpaceError> {
        if self.contains(&x) {
            Ok(x)
        } else {
            Err(SpaceError::not_in_space(&AnyElement::Int(x), self))
        }
    }

    #[inline]
    fn ints_as_elements<'a>(&self, xs: &'a [i64]) -> Option<&'a [i64]> {
        Some(xs)
    }
}

impl<T: BoxScalar> DynamicSpace for BoxSpace<T> {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::from(self.clone())
    }

    fn element_to_any(&self, x: &ArrayD<T>) -> AnyElement {
        AnyElement::from(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<ArrayD<T>, SpaceError> {
        checked(self, self.element_from_any_ignoring_bounds(x), x)
    }

    fn element_from_any_ignoring_bounds(&self, x: &AnyElement) -> Option<ArrayD<T>> {
        x.as_array()
            .and_then(AnyArray::as_array::<T>)
            .filter(|array| array.shape() == self.shape())
            .cloned()
    }

    /// Copies the entries into `out` where both arrays are contiguous and `out` has the
    /// space's shape (a vector's actions, converted at every step): no allocation.
    fn element_from_any_into(&self, x: &AnyElement, out: &mut ArrayD<T>) -> Result<(), SpaceError> {
        let array = x
            .as_array()
            .and_then(AnyArray::as_array::<T>)
            .filter(|array| self.contains(array))
            .ok_or_else(|| SpaceError::not_in_space(x, self))?;
        let same_shape = out.shape() == array.shape();
        match (array.as_slice(), out.as_slice_mut()) {
            (Some(from), Some(into)) if same_shape => into.copy_from_slice(from),
            _ => *out = array.clone(),
        }
        Ok(())
    }
}

impl<T: BoxScalar, const N: usize> DynamicSpace for ArrayBox<T, N> {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::from(self.to_box())
    }

    fn element_to_any(&self, x: &[T; N]) -> AnyElement {
        AnyElement::from(ArrayBox::<T, N>::to_array(x))
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<[T; N], SpaceError> {
        checked(self, self.element_from_any_ignoring_bounds(x), x)
    }

    fn element_from_any_ignoring_bounds(&self, x: &AnyElement) -> Option<[T; N]> {
        x.as_array()
            .and_then(AnyArray::as_array::<T>)
            .and_then(ArrayBox::<T, N>::from_array)
    }
}

impl DynamicSpace for MultiDiscrete {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::MultiDiscrete(self.clone())
    }

    fn element_to_any(&self, x: &ArrayD<i64>) -> AnyElement {
        AnyElement::from(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<ArrayD<i64>, SpaceError> {
        checked(
            self,
            x.as_array().and_then(AnyArray::as_array::<i64>).cloned(),
            x,
        )
    }
}

impl DynamicSpace for MultiBinary {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::MultiBinary(self.clone())
    }

    fn element_to_any(&self, x: &ArrayD<i8>) -> AnyElement {
        AnyElement::from(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<ArrayD<i8>, SpaceError> {
        checked(
            self,
            x.as_array().and_then(AnyArray::as_array::<i8>).cloned(),
            x,
        )
    }
}

impl DynamicSpace for TupleSpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Tuple(self.clone())
    }

    fn element_to_any(&self, x: &Vec<AnyElement>) -> AnyElement {
        AnyElement::Tuple(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<Vec<AnyElement>, SpaceError> {
        checked(self, x.as_tuple().map(<[AnyElement]>::to_vec), x)
    }
}

impl DynamicSpace for DictSpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Dict(self.clone())
    }

    fn element_to_any(&self, x: &BTreeMap<String, AnyElement>) -> AnyElement {
        AnyElement::Dict(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<BTreeMap<String, AnyElement>, SpaceError> {
        checked(self, x.as_dict().cloned(), x)
    }
}

impl DynamicSpace for FiniteSet<Value> {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::FiniteSet(self.clone())
    }

    fn element_to_any(&self, x: &Value) -> AnyElement {
        AnyElement::Value(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<Value, SpaceError> {
        let value = match x {
            AnyElement::Value(v) => Some(v.clone()),
            _ => None,
        };
        checked(self, value, x)
    }
}

impl DynamicSpace for Text {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Text(self.clone())
    }

    fn element_to_any(&self, x: &String) -> AnyElement {
        AnyElement::Text(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<String, SpaceError> {
        checked(self, x.as_text().map(str::to_owned), x)
    }
}

impl DynamicSpace for SequenceSpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Sequence(self.clone())
    }

    fn element_to_any(&self, x: &Vec<AnyElement>) -> AnyElement {
        AnyElement::Sequence(x.clone())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<Vec<AnyElement>, SpaceError> {
        let items = match x {
            AnyElement::Sequence(items) => Some(items.clone()),
            _ => None,
        };
        checked(self, items, x)
    }
}

impl DynamicSpace for GraphSpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Graph(self.clone())
    }

    fn element_to_any(&self, x: &GraphInstance) -> AnyElement {
        AnyElement::Graph(Box::new(x.clone()))
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<GraphInstance, SpaceError> {
        let graph = match x {
            AnyElement::Graph(g) => Some((**g).clone()),
            _ => None,
        };
        checked(self, graph, x)
    }
}

impl DynamicSpace for OneOfSpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::OneOf(self.clone())
    }

    fn element_to_any(&self, (index, x): &(usize, AnyElement)) -> AnyElement {
        AnyElement::OneOf(*index, Box::new(x.clone()))
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<(usize, AnyElement), SpaceError> {
        let pair = match x {
            AnyElement::OneOf(index, item) => Some((*index, (**item).clone())),
            _ => None,
        };
        checked(self, pair, x)
    }
}

impl DynamicSpace for EmptySpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Empty(*self)
    }

    fn element_to_any(&self, x: &AnyElement) -> AnyElement {
        x.clone()
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<AnyElement, SpaceError> {
        Err(SpaceError::not_in_space(x, self))
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_element_is_four_words_not_an_array_inline() {
        // A batch of integer actions as `AnyElement`s is read at every vector step (the
        // action check): an `AnyArray` held inline made each element 120 bytes.
        let words = std::mem::size_of::<super::AnyElement>() / std::mem::size_of::<usize>();
        assert!(words <= 4, "an AnyElement takes {words} words");
    }

    #[test]
    fn clone_from_gives_the_source_for_every_pair_of_shapes() {
        use ndarray::ArrayD;
        let elements = [
            AnyElement::Int(3),
            AnyElement::from(AnyArray::F32(ArrayD::from_elem(vec![2], 1.5))),
            AnyElement::from(AnyArray::F32(ArrayD::from_elem(vec![3, 1], -2.0))),
            AnyElement::from(AnyArray::I64(ArrayD::from_elem(vec![1], 7))),
            AnyElement::Tuple(vec![AnyElement::Int(1), AnyElement::Int(2)]),
            AnyElement::Value(serde_json::json!({"a": 1})),
        ];
        for target in &elements {
            for source in &elements {
                let mut copy = target.clone();
                copy.clone_from(source);
                assert_eq!(&copy, source, "{target:?} <- {source:?}");
            }
        }
    }

    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    #[test]
    fn elements_of_the_wrong_variant_are_not_contained() {
        let space = AnySpace::from(Discrete::new(3).unwrap());
        assert!(space.contains(&AnyElement::Int(2)));
        assert!(!space.contains(&AnyElement::Value(Value::from(2))));
        assert!(space.flatten::<f64>(&AnyElement::Tuple(vec![])).is_err());
        assert!(space.element_to_json(&AnyElement::Tuple(vec![])).is_err());
    }

    #[test]
    fn box_dtypes_must_agree() {
        let space = AnySpace::from(BoxSpace::uniform(&[1], 0.0f32, 1.0).unwrap());
        let f64_element = AnyElement::from(ArrayD::from_elem(ndarray::IxDyn(&[1]), 0.5f64));
        assert!(!space.contains(&f64_element));
        assert!(space.flatten::<f64>(&f64_element).is_err());
        let f32_element = AnyElement::from(ArrayD::from_elem(ndarray::IxDyn(&[1]), 0.5f32));
        assert!(space.contains(&f32_element));
    }

    #[test]
    fn the_empty_space_has_nothing_to_sample() {
        let mut rng = Pcg64::seed_from_u64(0);
        assert_eq!(AnySpace::from(EmptySpace::new()).try_sample(&mut rng), None);
    }

    #[test]
    fn typed_spaces_convert_both_ways() {
        let space = ArrayBox::new([-1.0f32, 0.0], [1.0, 2.0]).unwrap();
        let any = space.element_to_any(&[0.5, 1.5]);
        assert!(space.to_any_space().contains(&any));
        assert_eq!(space.element_from_any(&any).unwrap(), [0.5, 1.5]);
        let outside = space.element_to_any(&[0.5, 3.0]);
        assert!(space.element_from_any(&outside).is_err());
        let boxed = AnyBox::from(space.to_box());
        assert_eq!(boxed.as_box::<f32>(), Some(&space.to_box()));
        assert_eq!(boxed.as_box::<f64>(), None);
    }
}
