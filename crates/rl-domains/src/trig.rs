//! The sine and cosine used by every domain, so that one choice holds crate-wide.
//!
//! Both are the standard library's, which call the platform's C math library; see the
//! "Exactness" section of [`crate::cartpole`] for why, with the measurements.

/// The sine of `x` in float64.
#[inline]
pub(crate) fn sin(x: f64) -> f64 {
    x.sin()
}

/// The cosine of `x` in float64.
#[inline]
pub(crate) fn cos(x: f64) -> f64 {
    x.cos()
}
