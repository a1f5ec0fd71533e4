//! [`EmptySpace`]: the space with no element.

use std::fmt;
use std::marker::PhantomData;

use rand::Rng;
use serde_json::Value;

use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, Space, TrySampleSpace};
use crate::{AnyElement, SpaceError};

/// The space with no element (scikit-decide's `EmptySpace`): it contains nothing, sampling gives
/// `None`, it has zero elements and a flat dimension of zero.
///
/// `T` is the element type it pretends to have, so that it can stand where a space of `T` is
/// expected; by default the dynamic [`AnyElement`].
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{EmptySpace, FiniteSpace, Space, TrySampleSpace};
///
/// let nothing: EmptySpace<i64> = EmptySpace::new();
/// assert!(!nothing.contains(&0));
/// assert_eq!(nothing.cardinality(), Some(0));
/// assert_eq!(nothing.try_sample(&mut rand_pcg::Pcg64::seed_from_u64(0)), None);
/// ```
pub struct EmptySpace<T = AnyElement> {
    element: PhantomData<fn() -> T>,
}

impl<T> EmptySpace<T> {
    /// The empty space.
    pub const fn new() -> Self {
        EmptySpace {
            element: PhantomData,
        }
    }
}

impl<T> Default for EmptySpace<T> {
    fn default() -> Self {
        EmptySpace::new()
    }
}

impl<T> Clone for EmptySpace<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for EmptySpace<T> {}

impl<T> PartialEq for EmptySpace<T> {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl<T> Eq for EmptySpace<T> {}

impl<T> fmt::Debug for EmptySpace<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EmptySpace")
    }
}

impl<T> fmt::Display for EmptySpace<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Empty()")
    }
}

impl<T: Clone + fmt::Debug + PartialEq> Space for EmptySpace<T> {
    type Element = T;

    fn contains(&self, _x: &T) -> bool {
        false
    }
}

impl<T: Clone + fmt::Debug + PartialEq> TrySampleSpace for EmptySpace<T> {
    fn try_sample<R: Rng + ?Sized>(&self, _rng: &mut R) -> Option<T> {
        None
    }
}

impl<T: Clone + fmt::Debug + PartialEq> FiniteSpace for EmptySpace<T> {
    fn cardinality(&self) -> Option<usize> {
        Some(0)
    }

    fn element_at(&self, _index: usize) -> Option<T> {
        None
    }

    fn index_of(&self, _x: &T) -> Option<usize> {
        None
    }
}

impl<T: Clone + fmt::Debug + PartialEq> FlattenSpace for EmptySpace<T> {
    fn flat_dim(&self) -> usize {
        0
    }

    fn flatten_into<F: FlatScalar>(&self, x: &T, _out: &mut [F]) -> Result<(), SpaceError> {
        Err(SpaceError::not_in_space(x, self))
    }

    fn unflatten<F: FlatScalar>(&self, _flat: &[F]) -> Result<T, SpaceError> {
        Err(SpaceError::EmptySpace)
    }
}

impl<T: Clone + fmt::Debug + PartialEq> JsonSpace for EmptySpace<T> {
    fn element_to_json(&self, x: &T) -> Result<Value, SpaceError> {
        Err(SpaceError::not_in_space(x, self))
    }

    fn element_from_json(&self, _value: &Value) -> Result<T, SpaceError> {
        Err(SpaceError::EmptySpace)
    }
}
