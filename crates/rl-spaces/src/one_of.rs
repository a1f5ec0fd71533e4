//! [`OneOfSpace`]: an element of exactly one of several spaces, with its index (Gymnasium's
//! `OneOf`).

use std::fmt;

use rand::Rng;
use serde_json::Value;

use crate::json::describe;
use crate::space::{FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};
use crate::{AnyElement, AnySpace, SpaceError};

/// The elements of any one of several spaces, each tagged with the index of its space
/// (Gymnasium's `OneOf(spaces)`; its elements are `(index, element)`).
///
/// - **Sampling** draws the index with `integers(0, len)`, then an element of that space.
/// - **Element JSON** is Gymnasium's: `[index, element JSON]`.
/// - **Flattening** is Gymnasium's: `1 + max(flat_dim)` numbers, the index first, then the
///   chosen space's flat vector, padded with its own first value (Gymnasium pads with
///   `flat_sample[0]`; zeros for a space whose flat vector is empty). A OneOf is flattenable
///   when all its spaces are.
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{AnyElement, BoxSpace, Discrete, NumpyGenerator, OneOfSpace, SampleSpace, Space};
///
/// let command = OneOfSpace::new(vec![
///     Discrete::new(3)?.into(),
///     BoxSpace::uniform(&[2], -1.0f32, 1.0)?.into(),
/// ])?;
/// assert!(command.contains(&(0, AnyElement::Int(2))));
/// assert!(!command.contains(&(1, AnyElement::Int(2))));
/// let (index, value) = command.sample(&mut NumpyGenerator::seed_from_u64(0));
/// assert!(command.spaces()[index].contains(&value));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OneOfSpace {
    spaces: Vec<AnySpace>,
}

impl OneOfSpace {
    /// One of these spaces. Errors if there is none, if one is empty, or if the flat vector
    /// would exceed [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN).
    pub fn new(spaces: Vec<AnySpace>) -> Result<Self, SpaceError> {
        if spaces.is_empty() {
            return Err(SpaceError::invalid(
                "OneOf",
                "a OneOf needs at least one space",
            ));
        }
        if let Some(i) = spaces.iter().position(AnySpace::is_empty) {
            return Err(SpaceError::invalid(
                "OneOf",
                format!("space {i} is empty, so it has no element to choose"),
            ));
        }
        let widest = spaces
            .iter()
            .map(|s| s.flat_dim() as u128)
            .max()
            .unwrap_or(0);
        crate::limits::check_size("OneOf", "flat entries (1 + the widest space's)", widest + 1)?;
        Ok(OneOfSpace { spaces })
    }

    /// The spaces, in the order their indices number them.
    pub fn spaces(&self) -> &[AnySpace] {
        &self.spaces
    }

    /// The number of spaces.
    pub fn len(&self) -> usize {
        self.spaces.len()
    }

    /// Always false: a OneOf has at least one space.
    pub fn is_empty(&self) -> bool {
        false
    }

    fn widest(&self) -> usize {
        self.spaces.iter().map(|s| s.flat_dim()).max().unwrap_or(0)
    }
}

impl fmt::Display for OneOfSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OneOf(")?;
        for (i, s) in self.spaces.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{s}")?;
        }
        write!(f, ")")
    }
}

impl Space for OneOfSpace {
    type Element = (usize, AnyElement);

    fn contains(&self, (index, x): &(usize, AnyElement)) -> bool {
        self.spaces.get(*index).is_some_and(|s| s.contains(x))
    }
}

impl SampleSpace for OneOfSpace {
    /// The index with `integers(0, len)`, then an element of that space, from `rng`.
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> (usize, AnyElement) {
        let index = crate::numpy_random::choice(rng, self.spaces.len()).unwrap_or(0);
        (index, self.spaces[index].sample_child(rng))
    }
}

impl FlattenSpace for OneOfSpace {
    fn is_flattenable(&self) -> bool {
        self.spaces.iter().all(FlattenSpace::is_flattenable)
    }

    fn flat_dim(&self) -> usize {
        if self.is_flattenable() {
            1 + self.widest()
        } else {
            0
        }
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        (index, x): &(usize, AnyElement),
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        if !self.is_flattenable() {
            return Err(crate::sequence::not_flattenable(self));
        }
        if out.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: out.len(),
            });
        }
        let space = self
            .spaces
            .get(*index)
            .ok_or_else(|| SpaceError::not_in_space(&(index, x), self))?;
        let dim = space.flat_dim();
        out[0] = F::from_f64(*index as f64);
        space.flatten_into(x, &mut out[1..1 + dim])?;
        let padding = if dim > 0 { out[1] } else { F::ZERO };
        out[1 + dim..].fill(padding);
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<(usize, AnyElement), SpaceError> {
        if !self.is_flattenable() {
            return Err(crate::sequence::not_flattenable(self));
        }
        if flat.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: flat.len(),
            });
        }
        let index = flat[0].to_f64();
        if !(index >= 0.0 && index < self.spaces.len() as f64 && index.fract() == 0.0) {
            return Err(SpaceError::flat(format!(
                "the first entry of a flat OneOf is {index}, not the index of one of its {} spaces",
                self.spaces.len()
            )));
        }
        let index = index as usize;
        let space = &self.spaces[index];
        let dim = space.flat_dim();
        let x = space.unflatten(&flat[1..1 + dim])?;
        let padding = if dim > 0 { flat[1] } else { F::ZERO };
        if let Some(i) = flat[1 + dim..].iter().position(|v| *v != padding) {
            return Err(SpaceError::flat(format!(
                "entry {} of a flat OneOf is padding but differs from the padding value",
                1 + dim + i
            )));
        }
        Ok((index, x))
    }
}

impl JsonSpace for OneOfSpace {
    fn element_to_json(&self, (index, x): &(usize, AnyElement)) -> Result<Value, SpaceError> {
        let space = self
            .spaces
            .get(*index)
            .ok_or_else(|| SpaceError::not_in_space(&(index, x), self))?;
        Ok(Value::Array(vec![
            Value::from(*index),
            space.element_to_json(x)?,
        ]))
    }

    fn element_from_json(&self, value: &Value) -> Result<(usize, AnyElement), SpaceError> {
        let (index, item) = match value.as_array().map(Vec::as_slice) {
            Some([index, item]) => (index, item),
            _ => {
                return Err(SpaceError::json(format!(
                    "expected [index, element], found {}",
                    describe(value)
                )));
            }
        };
        let index = index
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < self.spaces.len())
            .ok_or_else(|| {
                SpaceError::json(format!(
                    "expected the index of one of {} spaces, found {}",
                    self.spaces.len(),
                    describe(index)
                ))
                .within("[0]")
            })?;
        let x = self.spaces[index]
            .element_from_json(item)
            .map_err(|e| e.within("[1]"))?;
        Ok((index, x))
    }
}
