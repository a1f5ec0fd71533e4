//! The resource limits every space obeys, checked when the space is built.
//!
//! A space's size decides how much memory its operations allocate: sampling a `MultiBinary`
//! allocates one byte per entry, flattening a `Discrete` allocates its one-hot vector. A space
//! definition read from JSON is outside input, so without a limit a document of a few bytes
//! (`{"type": "MultiBinary", "shape": [1000000000000]}`) could ask for a terabyte. Every
//! constructor therefore checks the limits below, with checked arithmetic and before
//! allocating anything proportional to the requested size, and returns
//! [`SpaceError::TooLarge`] naming the limit and the offending size.

use crate::SpaceError;

/// The most numbers a space may flatten to (Gymnasium's `flatdim`): 2^24 = 16 777 216.
///
/// Since every element has at most as many entries as its flat vector, this also bounds the
/// entries of every element. Per space kind, the checked size is:
///
/// | space | size checked against the limit |
/// |---|---|
/// | `Discrete` | none: above the limit it neither flattens nor enumerates ([`Discrete::new`](crate::Discrete::new)) |
/// | `Box` | the product of the shape's dimensions, each zero dimension counted as one |
/// | `MultiBinary` | the product of the shape's dimensions |
/// | `MultiDiscrete` | the number of entries, and the sum of `nvec` (its one-hot blocks) |
/// | `FiniteSet` | the number of elements |
/// | `Tuple`, `Dict` | the sum of the children's flat lengths |
///
/// A Box counts zero dimensions as one so that a shape like `[0, 2^62, 4]`, which has no
/// entry but which ndarray refuses to describe, is refused with an error too.
pub const MAX_FLAT_LEN: usize = 1 << 24;

/// The name of [`MAX_FLAT_LEN`] as error messages print it.
const MAX_FLAT_LEN_NAME: &str = "rl_spaces::MAX_FLAT_LEN";

/// Errors with [`SpaceError::TooLarge`] if `size` exceeds [`MAX_FLAT_LEN`]; otherwise returns
/// it as a `usize`.
pub(crate) fn check_size(
    space: &'static str,
    what: &'static str,
    size: u128,
) -> Result<usize, SpaceError> {
    match usize::try_from(size) {
        Ok(size) if size <= MAX_FLAT_LEN => Ok(size),
        _ => Err(SpaceError::TooLarge {
            space,
            what,
            size,
            limit: MAX_FLAT_LEN,
            limit_name: MAX_FLAT_LEN_NAME,
        }),
    }
}

/// The product of `dimensions`, saturating at `u128::MAX` (which exceeds every limit).
pub(crate) fn saturating_product(dimensions: impl IntoIterator<Item = u128>) -> u128 {
    dimensions
        .into_iter()
        .fold(1u128, |product, d| product.saturating_mul(d))
}

/// Errors if the shape has more entries than [`MAX_FLAT_LEN`], each zero dimension counted
/// as one; otherwise returns the true number of entries (zero if a dimension is zero).
pub(crate) fn check_shape(space: &'static str, shape: &[usize]) -> Result<usize, SpaceError> {
    let counted = saturating_product(shape.iter().map(|d| (*d).max(1) as u128));
    check_size(space, "entries", counted)?;
    // Cannot overflow: the product with zeros counted as one fits in MAX_FLAT_LEN.
    Ok(shape.iter().product())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_up_to_the_limit_pass() {
        assert_eq!(check_size("Discrete", "n", 1 << 24), Ok(1 << 24));
        assert_eq!(check_shape("Box", &[0, 1 << 24]), Ok(0));
        assert_eq!(check_shape("Box", &[4096, 4096]), Ok(1 << 24));
    }

    #[test]
    fn sizes_above_the_limit_name_it() {
        let error = check_shape("Box", &[1 << 62, 4]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Box space too large: 18446744073709551616 entries, more than the limit of \
             16777216 (rl_spaces::MAX_FLAT_LEN)"
        );
        assert!(check_shape("Box", &[0, 1 << 62, 4]).is_err());
        assert!(check_shape("Box", &[usize::MAX; 8]).is_err());
    }
}
