//! Mechanics shared by the composite spaces [`TupleSpace`](crate::TupleSpace) and
//! [`DictSpace`](crate::DictSpace): both are a sequence of child spaces in a fixed order.

use crate::space::{FiniteSpace, FlatScalar, FlattenSpace, Space};
use crate::{AnyElement, AnySpace, SpaceError};

/// Rejects composites without children, empty children, and a total flat length above
/// [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN).
///
/// A composite with an empty child would itself be empty, which only
/// [`EmptySpace`](crate::EmptySpace) may be. A composite without children has one element but
/// could not write a batch column-wise without losing its length (Gymnasium loses it too).
pub(crate) fn check_children<'a>(
    kind: &'static str,
    children: impl ExactSizeIterator<Item = (String, &'a AnySpace)>,
) -> Result<(), SpaceError> {
    if children.len() == 0 {
        return Err(SpaceError::invalid(
            kind,
            format!("a {kind} needs at least one child space"),
        ));
    }
    let mut flat_len = 0u128;
    for (name, child) in children {
        if child.is_empty() {
            return Err(SpaceError::invalid(
                kind,
                format!("child {name} is an empty space, so the {kind} would have no element"),
            ));
        }
        flat_len += child.flat_dim() as u128;
    }
    crate::limits::check_size(kind, "flat entries (summed over its children)", flat_len)?;
    Ok(())
}

/// Whether each element belongs to its child space (the counts must agree).
pub(crate) fn contains(children: &[&AnySpace], elements: &[&AnyElement]) -> bool {
    children.len() == elements.len() && children.iter().zip(elements).all(|(s, x)| s.contains(x))
}

/// The product of the children's cardinalities.
pub(crate) fn cardinality(children: &[&AnySpace]) -> Option<usize> {
    children
        .iter()
        .try_fold(1usize, |a, s| a.checked_mul(s.cardinality()?))
}

/// The element numbered `index`, the last child varying fastest.
pub(crate) fn element_at(children: &[&AnySpace], index: usize) -> Option<Vec<AnyElement>> {
    if index >= cardinality(children)? {
        return None;
    }
    let mut rest = index;
    let mut elements = Vec::with_capacity(children.len());
    for child in children.iter().rev() {
        let n = child.cardinality()?;
        elements.push(child.element_at(rest % n)?);
        rest /= n;
    }
    elements.reverse();
    Some(elements)
}

/// The number of an element, the last child varying fastest.
pub(crate) fn index_of(children: &[&AnySpace], elements: &[&AnyElement]) -> Option<usize> {
    if children.len() != elements.len() {
        return None;
    }
    children
        .iter()
        .zip(elements)
        .try_fold(0usize, |index, (s, x)| {
            index
                .checked_mul(s.cardinality()?)?
                .checked_add(s.index_of(x)?)
        })
}

/// The sum of the children's flat dimensions.
pub(crate) fn flat_dim(children: &[&AnySpace]) -> usize {
    children
        .iter()
        .map(|s| s.flat_dim())
        .fold(0, usize::saturating_add)
}

/// Writes each child's flat vector after the previous one.
pub(crate) fn flatten_into<F: FlatScalar>(
    children: &[&AnySpace],
    elements: &[&AnyElement],
    out: &mut [F],
) -> Result<(), SpaceError> {
    if children.len() != elements.len() {
        return Err(SpaceError::LengthMismatch {
            what: "composite element",
            expected: children.len(),
            found: elements.len(),
        });
    }
    let expected = flat_dim(children);
    if out.len() != expected {
        return Err(SpaceError::LengthMismatch {
            what: "flat buffer",
            expected,
            found: out.len(),
        });
    }
    let mut offset = 0;
    for (child, x) in children.iter().zip(elements) {
        let dim = child.flat_dim();
        child.flatten_into(x, &mut out[offset..offset + dim])?;
        offset += dim;
    }
    Ok(())
}

/// The sum of the children's batched dimensions.
pub(crate) fn batched_dim(children: &[&AnySpace]) -> usize {
    children
        .iter()
        .map(|s| s.batched_dim())
        .fold(0, usize::saturating_add)
}

/// Writes each child's batched row after the previous one.
pub(crate) fn batched_into<F: FlatScalar>(
    children: &[&AnySpace],
    elements: &[&AnyElement],
    out: &mut [F],
) -> Result<(), SpaceError> {
    if children.len() != elements.len() {
        return Err(SpaceError::LengthMismatch {
            what: "composite element",
            expected: children.len(),
            found: elements.len(),
        });
    }
    let expected = batched_dim(children);
    if out.len() != expected {
        return Err(SpaceError::LengthMismatch {
            what: "batched row",
            expected,
            found: out.len(),
        });
    }
    let mut offset = 0;
    for (child, x) in children.iter().zip(elements) {
        let dim = child.batched_dim();
        child.batched_into(x, &mut out[offset..offset + dim])?;
        offset += dim;
    }
    Ok(())
}

/// Reads each child's element from its part of the flat vector.
pub(crate) fn unflatten<F: FlatScalar>(
    children: &[&AnySpace],
    flat: &[F],
) -> Result<Vec<AnyElement>, SpaceError> {
    let expected = flat_dim(children);
    if flat.len() != expected {
        return Err(SpaceError::LengthMismatch {
            what: "flat buffer",
            expected,
            found: flat.len(),
        });
    }
    let mut offset = 0;
    children
        .iter()
        .map(|child| {
            let dim = child.flat_dim();
            let x = child.unflatten(&flat[offset..offset + dim]);
            offset += dim;
            x
        })
        .collect()
}
