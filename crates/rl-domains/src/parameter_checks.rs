//! Small checks shared by the parameter structs' `validate` methods.

use crate::error::Error;

/// Fails unless `value` is finite.
pub(crate) fn finite(parameter: &'static str, value: f64) -> Result<(), Error> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            parameter,
            reason: format!("must be finite, got {value}"),
        })
    }
}

/// Fails unless `value` is finite and strictly positive.
pub(crate) fn positive(parameter: &'static str, value: f64) -> Result<(), Error> {
    finite(parameter, value)?;
    if value > 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            parameter,
            reason: format!("must be greater than 0, got {value}"),
        })
    }
}

/// The smallest and largest magnitudes [`physical`] accepts.
pub(crate) const PHYSICAL_RANGE: (f64, f64) = (1e-6, 1e6);

/// Fails unless `value` is finite, positive and within [`PHYSICAL_RANGE`]: a physical
/// constant (a mass, a length, a time step) of a normal size, so that the dynamics stay finite
/// (a length of `1e-310` divides by a subnormal and gives NaN).
pub(crate) fn physical(parameter: &'static str, value: f64) -> Result<(), Error> {
    positive(parameter, value)?;
    let (low, high) = PHYSICAL_RANGE;
    within(
        parameter,
        value,
        low,
        high,
        "a physical constant of normal size",
    )
}

/// Fails unless `value` is finite and its magnitude at most [`PHYSICAL_RANGE`]'s upper end: a
/// signed physical quantity (gravity, a force, a noise amplitude) whose products in the
/// dynamics cannot overflow into infinities that meet as NaN (Acrobot's torque noise of
/// 3e131 gave NaN observations).
pub(crate) fn magnitude(parameter: &'static str, value: f64) -> Result<(), Error> {
    finite(parameter, value)?;
    let high = PHYSICAL_RANGE.1;
    within(
        parameter,
        value,
        -high,
        high,
        "a physical quantity of normal size",
    )
}

/// Fails unless `value` is greater than 0.
pub(crate) fn nonzero_steps(parameter: &'static str, value: u64) -> Result<(), Error> {
    if value > 0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            parameter,
            reason: "must be at least 1".to_owned(),
        })
    }
}

/// Fails unless both bounds are finite and `low <= high`.
pub(crate) fn ordered_range(
    low_name: &'static str,
    low: f64,
    high_name: &'static str,
    high: f64,
) -> Result<(), Error> {
    finite(low_name, low)?;
    finite(high_name, high)?;
    if low <= high {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            parameter: low_name,
            reason: format!("must not exceed `{high_name}` ({high}), got {low}"),
        })
    }
}

/// Fails unless `value` lies in the closed interval [0, 1].
pub(crate) fn unit_interval(parameter: &'static str, value: f64) -> Result<(), Error> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            parameter,
            reason: format!("must lie in [0, 1], got {value}"),
        })
    }
}

/// Fails unless `low <= value <= high`; `bounds` says in words what the bounds are.
pub(crate) fn within(
    parameter: &'static str,
    value: f64,
    low: f64,
    high: f64,
    bounds: &str,
) -> Result<(), Error> {
    if low <= value && value <= high {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            parameter,
            reason: format!("must lie in [{low}, {high}] ({bounds}), got {value}"),
        })
    }
}
