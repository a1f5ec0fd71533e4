//! The one error type of this crate, [`SpaceError`].

use std::fmt;

/// Everything that can go wrong when building a space, checking or converting an element,
/// reading JSON, or building a distribution.
///
/// Nothing in this crate panics on bad input: each fallible operation returns this error,
/// and its message says what was wrong and where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SpaceError {
    /// A constructor was given parameters that do not describe a valid space
    /// (for example `n = 0`, `low > high`, a NaN bound, mismatched shapes or a duplicate key).
    #[error("invalid {space} space: {reason}")]
    InvalidSpace {
        /// The kind of space being built, such as `"Discrete"` or `"Box"`.
        space: &'static str,
        /// What was wrong with the parameters.
        reason: String,
    },
    /// An element does not belong to the space it was used with.
    #[error("{element} is not an element of {space}")]
    NotInSpace {
        /// The element, printed with `Debug`.
        element: String,
        /// The space, printed with `Display`.
        space: String,
    },
    /// A buffer, mask or list had the wrong length.
    #[error("{what} has length {found}, expected {expected}")]
    LengthMismatch {
        /// What had the wrong length, such as `"flat buffer"` or `"mask"`.
        what: &'static str,
        /// The length that was required.
        expected: usize,
        /// The length that was given.
        found: usize,
    },
    /// A flat vector does not describe an element of the space
    /// (for example a one-hot block with two ones, or a fractional value for an integer Box).
    #[error("invalid flat vector: {reason}")]
    InvalidFlat {
        /// What was wrong with the flat vector.
        reason: String,
    },
    /// A JSON document does not have the expected structure.
    #[error("invalid JSON at {path}: {reason}")]
    InvalidJson {
        /// Where in the document the problem is, as a JSON path such as `$.space.low[2]`.
        path: String,
        /// What was wrong at that place.
        reason: String,
    },
    /// A space definition document has a format name or version this build does not read.
    #[error("unsupported space definition format {found} (this build reads {supported})")]
    UnsupportedFormat {
        /// The format and version found in the document.
        found: String,
        /// The format and version this build reads.
        supported: String,
    },
    /// A distribution was built from invalid weights (negative, NaN, infinite or all zero)
    /// or from no values at all.
    #[error("invalid distribution: {reason}")]
    InvalidDistribution {
        /// What was wrong with the weights.
        reason: String,
    },
    /// A space would exceed one of this crate's documented size limits (see
    /// [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN)); nothing proportional to the size was allocated.
    #[error(
        "{space} space too large: {size} {what}, more than the limit of {limit} ({limit_name})"
    )]
    TooLarge {
        /// The kind of space being built, such as `"MultiBinary"`.
        space: &'static str,
        /// What was counted, such as `"entries"` or `"n"`.
        what: &'static str,
        /// The size that was asked for (saturating at `u128::MAX`).
        size: u128,
        /// The limit it exceeds.
        limit: usize,
        /// The name of the limit's constant, such as `"rl_spaces::MAX_FLAT_LEN"`.
        limit_name: &'static str,
    },
    /// A mask or probability given to a sampler does not fit the space (wrong shape or
    /// length, a value other than those allowed, probabilities that are negative or do not sum
    /// to 1).
    #[error("invalid mask for {space}: {reason}")]
    InvalidMask {
        /// The space, printed with `Display`.
        space: String,
        /// What was wrong with the mask.
        reason: String,
    },
    /// An operation needs an element but the space has none (for example sampling an
    /// [`EmptySpace`](crate::EmptySpace)).
    #[error("the space is empty: it has no element to give")]
    EmptySpace,
}

impl SpaceError {
    /// Builds an [`SpaceError::InvalidSpace`] error.
    pub(crate) fn invalid(space: &'static str, reason: impl Into<String>) -> Self {
        SpaceError::InvalidSpace {
            space,
            reason: reason.into(),
        }
    }

    /// Builds an [`SpaceError::NotInSpace`] error from an element and a space.
    pub(crate) fn not_in_space(element: &impl fmt::Debug, space: &impl fmt::Display) -> Self {
        SpaceError::NotInSpace {
            element: format!("{element:?}"),
            space: space.to_string(),
        }
    }

    /// Builds an [`SpaceError::InvalidJson`] error at the root of the document.
    pub(crate) fn json(reason: impl Into<String>) -> Self {
        SpaceError::InvalidJson {
            path: "$".to_owned(),
            reason: reason.into(),
        }
    }

    /// Builds an [`SpaceError::InvalidFlat`] error.
    pub(crate) fn flat(reason: impl Into<String>) -> Self {
        SpaceError::InvalidFlat {
            reason: reason.into(),
        }
    }

    /// Moves a JSON error one level down: the path of an [`SpaceError::InvalidJson`] error found
    /// inside a child value is prefixed with the child's place in its parent.
    ///
    /// `segment` is either an index (`[3]`) or a key (`.name`). Other errors are returned as
    /// they are.
    pub(crate) fn within(self, segment: &str) -> Self {
        match self {
            SpaceError::InvalidJson { path, reason } => {
                let rest = path.strip_prefix('$').unwrap_or(&path);
                SpaceError::InvalidJson {
                    path: format!("${segment}{rest}"),
                    reason,
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_paths_compose_from_the_inside_out() {
        let error = SpaceError::json("expected a number")
            .within("[2]")
            .within(".low");
        assert_eq!(
            error.to_string(),
            "invalid JSON at $.low[2]: expected a number"
        );
    }

    #[test]
    fn other_errors_ignore_paths() {
        let error = SpaceError::EmptySpace.within(".x");
        assert_eq!(error, SpaceError::EmptySpace);
    }
}
