//! The space traits: membership, sampling, enumeration, flattening and JSON for elements.
//!
//! Every space implements [`Space`]. The other traits are capabilities a space has or lacks:
//! a predicate-defined [`ImplicitSpace`](crate::ImplicitSpace) can test membership but cannot
//! sample; a float [`BoxSpace`](crate::BoxSpace) can sample but cannot enumerate its elements.
//! Code asks only for the capabilities it needs.

use std::fmt;

use rand::Rng;
use serde_json::Value;

use crate::SpaceError;
use crate::json::describe;

/// A set of elements, with a membership test.
///
/// The `Display` form names the space the way Gymnasium prints it (for example `Discrete(5)`
/// or `Box(-1.0, 2.0, (3,), float32)`); error messages use it.
pub trait Space: fmt::Debug + fmt::Display {
    /// The type of the elements of the space.
    type Element: Clone + fmt::Debug + PartialEq;

    /// Returns whether `x` belongs to the space.
    ///
    /// Never panics: an element of the wrong shape or with NaN values simply does not belong.
    fn contains(&self, x: &Self::Element) -> bool;

    /// The index of the first of `xs` that does not belong to the space, or `None` if all do:
    /// what a vector environment asks of a batch of actions before it steps.
    ///
    /// Always the same as `xs.iter().position(|x| !self.contains(x))`; a space may override it
    /// with a faster batch test ([`Discrete`](crate::Discrete) checks a whole batch in vector
    /// instructions).
    ///
    /// ```
    /// use rl_spaces::{Discrete, Space};
    ///
    /// let space = Discrete::new(2)?;
    /// assert_eq!(space.first_outside(&[0, 1, 1, 0]), None);
    /// assert_eq!(space.first_outside(&[0, 1, 2, -1]), Some(2));
    /// # Ok::<(), rl_spaces::SpaceError>(())
    /// ```
    fn first_outside(&self, xs: &[Self::Element]) -> Option<usize> {
        xs.iter().position(|x| !self.contains(x))
    }
}

/// A space that can draw a random element, and always has one to draw.
///
/// Sampling is a pure function of the space and the random number generator: the same
/// generator state gives the same element, on every platform.
pub trait SampleSpace: Space {
    /// Draws an element of the space.
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::Element;
}

/// A space that can draw a random element if it has any.
///
/// Every [`SampleSpace`] is a `TrySampleSpace` that never returns `None`; the dynamic
/// [`AnySpace`](crate::AnySpace) and [`EmptySpace`](crate::EmptySpace) implement it directly
/// because they may be empty.
pub trait TrySampleSpace: Space {
    /// Draws an element of the space, or returns `None` when the space is empty.
    fn try_sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Element>;
}

impl<S: SampleSpace> TrySampleSpace for S {
    fn try_sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Element> {
        Some(self.sample(rng))
    }
}

/// A space whose elements can be counted and listed (scikit-decide's `EnumerableSpace`).
///
/// Elements are numbered `0..cardinality` in a fixed, documented order; [`index_of`] and
/// [`element_at`] are inverse to each other.
///
/// [`index_of`]: FiniteSpace::index_of
/// [`element_at`]: FiniteSpace::element_at
pub trait FiniteSpace: Space {
    /// The number of elements, or `None` if the space is infinite or has more elements than
    /// `usize` can count.
    fn cardinality(&self) -> Option<usize>;

    /// The element numbered `index`, or `None` if `index` is out of range or the space is not
    /// enumerable.
    fn element_at(&self, index: usize) -> Option<Self::Element>;

    /// The number of `x`, or `None` if `x` is not an element of the space or the space is not
    /// enumerable.
    fn index_of(&self, x: &Self::Element) -> Option<usize>;

    /// Iterates over all elements in index order (empty if the space is not enumerable).
    fn elements(&self) -> Elements<'_, Self>
    where
        Self: Sized,
    {
        Elements {
            space: self,
            next: 0,
            end: self.cardinality().unwrap_or(0),
        }
    }
}

/// Iterator over the elements of a [`FiniteSpace`], in index order.
#[derive(Debug)]
pub struct Elements<'a, S> {
    space: &'a S,
    next: usize,
    end: usize,
}

impl<S: FiniteSpace> Iterator for Elements<'_, S> {
    type Item = S::Element;

    fn next(&mut self) -> Option<S::Element> {
        if self.next >= self.end {
            return None;
        }
        let element = self.space.element_at(self.next);
        self.next += 1;
        element
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }
}

/// The numeric types a flat vector can hold: `f32` and `f64`, and `u8` for rows whose every
/// entry is a byte (a `uint8` image, one-hot blocks, indices below 256).
///
/// Integer values convert exactly while they fit the mantissa (2^24 for `f32`, 2^53 for `f64`)
/// or, for `u8`, the byte; flattening an integer that does not fit is an error.
pub trait FlatScalar: Copy + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Converts from `f64`, rounding to nearest (for `u8`, saturating at 0 and 255, NaN to 0).
    fn from_f64(x: f64) -> Self;
    /// Converts to `f64` (exact).
    fn to_f64(self) -> f64;
    /// Converts from a byte (exact for every type): what an image writer calls per pixel
    /// entry, a plain copy for `u8`.
    #[inline]
    fn from_u8(byte: u8) -> Self {
        Self::from_f64(f64::from(byte))
    }
}

impl FlatScalar for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    #[inline]
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl FlatScalar for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    #[inline]
    fn from_f64(x: f64) -> Self {
        x
    }
    #[inline]
    fn to_f64(self) -> f64 {
        self
    }
}

impl FlatScalar for u8 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    #[inline]
    fn from_f64(x: f64) -> Self {
        // `as` saturates (NaN to 0) after rounding half to even.
        x.round_ties_even() as u8
    }
    #[inline]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    #[inline]
    fn from_u8(byte: u8) -> Self {
        byte
    }
}

/// How an element is laid out in a vector's row of numbers.
///
/// - `Flat`: Gymnasium's `flatten` (`gymnasium.spaces.flatten`), a `Discrete` value as a
///   one-hot block of `n` entries.
/// - `Batched`: the leaves of Gymnasium's batched layout (`batch_space`) one after the other,
///   a `Discrete` value as one entry (its index from the start) and a `MultiDiscrete` one entry
///   per component; Box, MultiBinary and Text entries as in `Flat`. A Taxi observation is one
///   number instead of 500, and [`Columns`](crate::Columns) describes the typed column of each
///   leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RowLayout {
    /// Gymnasium's `flatten` layout (one-hot blocks).
    #[default]
    Flat,
    /// One entry per integer leaf (see the type's documentation).
    Batched,
}

/// A space whose elements can be written as a flat vector of numbers and read back, in
/// Gymnasium's `flatten` layout.
///
/// Discrete values become one-hot blocks (relative to `start`), MultiDiscrete entries become
/// concatenated one-hot blocks in row-major order, Box and MultiBinary arrays are written in
/// row-major order, and Tuple and Dict concatenate their children in order.
pub trait FlattenSpace: Space {
    /// Whether the elements have a flat vector of a fixed length (Gymnasium's
    /// `is_np_flattenable`): true but for [`SequenceSpace`](crate::SequenceSpace) and
    /// [`GraphSpace`](crate::GraphSpace), whose elements vary in size, and the composites
    /// holding one. A space that is not flattenable has a [`flat_dim`](Self::flat_dim) of 0 and
    /// refuses to flatten, as Gymnasium's `flatdim` and `flatten_space` refuse it.
    fn is_flattenable(&self) -> bool {
        true
    }

    /// The length of the flat vector of every element.
    fn flat_dim(&self) -> usize;

    /// Writes `x` into `out`, which must have length [`flat_dim`](Self::flat_dim).
    ///
    /// Checks what it must to stay correct (the length of `out`, the shape of arrays, that
    /// one-hot indices are in range, that an integer is represented exactly: a `u64` above
    /// 2^53 cannot be flattened into `f64`, an `i32` above 2^24 not into `f32`) and returns an
    /// error otherwise. Floats round to nearest when flattened into a narrower type. It does not
    /// check the bounds of a Box, so that flattening stays cheap.
    fn flatten_into<F: FlatScalar>(
        &self,
        x: &Self::Element,
        out: &mut [F],
    ) -> Result<(), SpaceError>;

    /// Reads an element back from a flat vector of length [`flat_dim`](Self::flat_dim).
    ///
    /// The result is checked: a flat vector that does not describe an element of the space
    /// (a one-hot block without exactly one 1, a value outside a Box's bounds, a fractional
    /// value for an integer type) is an error.
    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<Self::Element, SpaceError>;

    /// The length of an element's row in the batched layout ([`RowLayout::Batched`]): by
    /// default [`flat_dim`](Self::flat_dim), the layouts being the same; one entry per
    /// `Discrete` and one per `MultiDiscrete` component instead of their one-hot blocks.
    fn batched_dim(&self) -> usize {
        self.flat_dim()
    }

    /// Writes `x` into `out` (of length [`batched_dim`](Self::batched_dim)) in the batched
    /// layout ([`RowLayout::Batched`]): the flat layout, but each `Discrete` value as one entry
    /// holding its index from the space's start (`value - start`, below `n`, so exact in
    /// `f32`) and each `MultiDiscrete` component likewise. By default
    /// [`flatten_into`](Self::flatten_into). A space whose dynamic form
    /// ([`DynamicSpace::to_any_space`](crate::DynamicSpace::to_any_space)) holds a `Discrete`
    /// or `MultiDiscrete` must override both methods to agree with it, as the row's columns
    /// ([`Columns`](crate::Columns)) are read from that form.
    fn batched_into<F: FlatScalar>(
        &self,
        x: &Self::Element,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.flatten_into(x, out)
    }

    /// Writes `x` into `out` in `layout`: [`flatten_into`](Self::flatten_into) or
    /// [`batched_into`](Self::batched_into).
    #[inline]
    fn write_row<F: FlatScalar>(
        &self,
        layout: RowLayout,
        x: &Self::Element,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        match layout {
            RowLayout::Flat => self.flatten_into(x, out),
            RowLayout::Batched => self.batched_into(x, out),
        }
    }

    /// The length of an element's row in `layout`.
    fn row_dim(&self, layout: RowLayout) -> usize {
        match layout {
            RowLayout::Flat => self.flat_dim(),
            RowLayout::Batched => self.batched_dim(),
        }
    }

    /// Flattens `x` into a new vector.
    fn flatten<F: FlatScalar>(&self, x: &Self::Element) -> Result<Vec<F>, SpaceError> {
        let mut out = vec![F::ZERO; self.flat_dim()];
        self.flatten_into(x, &mut out)?;
        Ok(out)
    }
}

/// A space whose elements can be written to JSON and read back.
///
/// A single element is written as plain JSON: numbers, nested lists for arrays, lists for
/// tuples, objects for dicts. Non-finite floats are written as the strings `"inf"`, `"-inf"`
/// and `"nan"` (JSON has no number for them).
///
/// A batch is written in Gymnasium's `to_jsonable` layout: a list of elements, except that
/// Tuple and Dict are column-wise (a list, or an object, holding the batch of each child).
pub trait JsonSpace: Space {
    /// Writes one element as JSON. Errors if `x` is not an element of the space.
    fn element_to_json(&self, x: &Self::Element) -> Result<Value, SpaceError>;

    /// Reads one element from JSON. Errors (with the JSON path) if the value is malformed or
    /// not an element of the space.
    fn element_from_json(&self, value: &Value) -> Result<Self::Element, SpaceError>;

    /// Writes a batch of elements in Gymnasium's `to_jsonable` layout.
    fn batch_to_jsonable(&self, batch: &[Self::Element]) -> Result<Value, SpaceError> {
        rows_to_json(self, batch)
    }

    /// Reads a batch of elements written in Gymnasium's `to_jsonable` layout.
    fn batch_from_jsonable(&self, value: &Value) -> Result<Vec<Self::Element>, SpaceError> {
        rows_from_json(self, value, "elements")
    }
}

/// A batch written row-wise, a JSON list of its elements: the default `to_jsonable` layout,
/// which [`AnySpace`](crate::AnySpace) keeps for every space but Tuple, Dict and Sequence.
pub(crate) fn rows_to_json<S: JsonSpace + ?Sized>(
    space: &S,
    batch: &[S::Element],
) -> Result<Value, SpaceError> {
    batch
        .iter()
        .map(|x| space.element_to_json(x))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
}

/// A batch read from a JSON list of its elements ([`rows_to_json`]'s layout), each error
/// naming the index of the element at fault; `noun` names the elements in the error for a
/// value that is not a list (`elements`, `sequences`).
pub(crate) fn rows_from_json<S: JsonSpace + ?Sized>(
    space: &S,
    value: &Value,
    noun: &str,
) -> Result<Vec<S::Element>, SpaceError> {
    let items = value.as_array().ok_or_else(|| {
        SpaceError::json(format!(
            "expected a list of {noun}, found {}",
            describe(value)
        ))
    })?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            space
                .element_from_json(item)
                .map_err(|e| e.within(&format!("[{i}]")))
        })
        .collect()
}
