//! [`FiniteSet`]: an explicit list of arbitrary elements.

use std::fmt;

use rand::{Rng, RngExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::SpaceError;
use crate::discrete::one_hot_position;
use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};

/// A finite list of distinct elements of any type (scikit-decide's `ListSpace` and
/// `EnumSpace`): the elements are numbered in list order, sampled uniformly, and flattened as
/// a one-hot vector over that order.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{FiniteSet, FiniteSpace, SampleSpace, Space};
///
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// enum Move { Stay, Jump }
///
/// let moves = FiniteSet::new(vec![Move::Stay, Move::Jump])?;
/// assert_eq!(moves.index_of(&Move::Jump), Some(1));
/// let m = moves.sample(&mut rand_pcg::Pcg64::seed_from_u64(3));
/// assert!(moves.contains(&m));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FiniteSet<T> {
    elements: Vec<T>,
}

impl<T: Clone + fmt::Debug + PartialEq> FiniteSet<T> {
    /// The set of the listed elements, in this order. Errors if the list is empty, holds the
    /// same element twice, or has more than [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) elements.
    ///
    /// The duplicate check compares every pair (the elements need only `PartialEq`), so it
    /// takes time quadratic in the length.
    pub fn new(elements: Vec<T>) -> Result<Self, SpaceError> {
        if elements.is_empty() {
            return Err(SpaceError::invalid(
                "FiniteSet",
                "the list of elements is empty (use EmptySpace for the empty set)",
            ));
        }
        crate::limits::check_size("FiniteSet", "elements", elements.len() as u128)?;
        for (i, x) in elements.iter().enumerate() {
            if let Some(j) = elements[..i].iter().position(|y| y == x) {
                return Err(SpaceError::invalid(
                    "FiniteSet",
                    format!("elements {j} and {i} are both {x:?}"),
                ));
            }
        }
        Ok(FiniteSet { elements })
    }

    /// Builds the set from elements the caller has already checked: non-empty, distinct and
    /// at most [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) of them.
    pub(crate) fn from_distinct(elements: Vec<T>) -> Self {
        FiniteSet { elements }
    }

    /// The elements, in order.
    pub fn as_slice(&self) -> &[T] {
        &self.elements
    }

    /// The number of elements (at least one).
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Always false: a finite set has at least one element.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl<T: fmt::Debug> fmt::Display for FiniteSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FiniteSet({:?})", self.elements)
    }
}

impl<T: Clone + fmt::Debug + PartialEq> Space for FiniteSet<T> {
    type Element = T;

    fn contains(&self, x: &T) -> bool {
        self.elements.contains(x)
    }
}

impl<T: Clone + fmt::Debug + PartialEq> SampleSpace for FiniteSet<T> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> T {
        let i = rng.random_range(0..self.elements.len());
        self.elements[i].clone()
    }
}

impl<T: Clone + fmt::Debug + PartialEq> FiniteSpace for FiniteSet<T> {
    fn cardinality(&self) -> Option<usize> {
        Some(self.elements.len())
    }

    fn element_at(&self, index: usize) -> Option<T> {
        self.elements.get(index).cloned()
    }

    fn index_of(&self, x: &T) -> Option<usize> {
        self.elements.iter().position(|y| y == x)
    }
}

impl<T: Clone + fmt::Debug + PartialEq> FlattenSpace for FiniteSet<T> {
    fn flat_dim(&self) -> usize {
        self.elements.len()
    }

    fn flatten_into<F: FlatScalar>(&self, x: &T, out: &mut [F]) -> Result<(), SpaceError> {
        if out.len() != self.elements.len() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.elements.len(),
                found: out.len(),
            });
        }
        let i = self
            .index_of(x)
            .ok_or_else(|| SpaceError::not_in_space(x, self))?;
        out.fill(F::ZERO);
        out[i] = F::ONE;
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<T, SpaceError> {
        if flat.len() != self.elements.len() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.elements.len(),
                found: flat.len(),
            });
        }
        let i = one_hot_position(flat)?;
        self.element_at(i)
            .ok_or_else(|| SpaceError::flat("one-hot position out of range"))
    }
}

impl<T> JsonSpace for FiniteSet<T>
where
    T: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned,
{
    fn element_to_json(&self, x: &T) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        serde_json::to_value(x).map_err(|e| SpaceError::json(e.to_string()))
    }

    fn element_from_json(&self, value: &Value) -> Result<T, SpaceError> {
        let x: T =
            serde_json::from_value(value.clone()).map_err(|e| SpaceError::json(e.to_string()))?;
        if !self.contains(&x) {
            return Err(SpaceError::not_in_space(&x, self));
        }
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructor_rejects_empty_and_duplicate_lists() {
        assert!(FiniteSet::<i32>::new(vec![]).is_err());
        let error = FiniteSet::new(vec!["a", "b", "a"]).unwrap_err();
        assert!(error.to_string().contains("elements 0 and 2"), "{error}");
    }

    #[test]
    fn json_values_are_elements() {
        let set = FiniteSet::new(vec![Value::from("left"), Value::from(3)]).unwrap();
        assert_eq!(
            set.element_from_json(&Value::from(3)).unwrap(),
            Value::from(3)
        );
        assert!(set.element_from_json(&Value::from("up")).is_err());
        let flat: Vec<f32> = set.flatten(&Value::from("left")).unwrap();
        assert_eq!(flat, vec![1.0, 0.0]);
    }
}
