//! The arithmetic a wrapper and its vector version share, written once so that a single
//! environment and a vector of them give the same numbers bit for bit: normalising an
//! observation entry, updating a discounted return and scaling a reward by it, mapping an
//! action between bounds, and checking the parameters these take.

/// `(x - mean) / sqrt(variance + epsilon)`: an observation entry normalised by running
/// moments (Gymnasium's `NormalizeObservation`).
#[inline]
pub(crate) fn normalised(x: f64, mean: f64, variance: f64, epsilon: f64) -> f64 {
    (x - mean) / (variance + epsilon).sqrt()
}

/// The discounted return after a step: `previous · gamma · (0 if terminated else 1) + reward`
/// (Gymnasium's `NormalizeReward`, whose return restarts when an episode terminates).
#[inline]
pub(crate) fn discounted_return(previous: f64, gamma: f64, terminated: bool, reward: f64) -> f64 {
    let continuing = if terminated { 0.0 } else { 1.0 };
    previous * gamma * continuing + reward
}

/// What a reward is divided by: `sqrt(variance + epsilon)`, the variance being that of the
/// discounted returns.
#[inline]
pub(crate) fn reward_scale(variance: f64, epsilon: f64) -> f64 {
    (variance + epsilon).sqrt()
}

/// `value` in `[low, high]` mapped linearly onto `[to_low, to_high]`:
/// `to_low + (value - low) / (high - low) · (to_high - to_low)` (Gymnasium's `RescaleAction`).
#[inline]
pub(crate) fn rescaled(value: f64, (low, high): (f64, f64), (to_low, to_high): (f64, f64)) -> f64 {
    to_low + (value - low) / (high - low) * (to_high - to_low)
}

/// `epsilon` if it is finite and positive, else the reason it is not.
pub(crate) fn check_epsilon(epsilon: f64) -> Result<f64, String> {
    if epsilon.is_finite() && epsilon > 0.0 {
        Ok(epsilon)
    } else {
        Err(format!("{epsilon} is not a finite positive number"))
    }
}

/// `gamma` if it is a discount in `[0, 1]`, else the reason it is not.
pub(crate) fn check_gamma(gamma: f64) -> Result<f64, String> {
    if (0.0..=1.0).contains(&gamma) {
        Ok(gamma)
    } else {
        Err(format!("{gamma} is not a discount in [0, 1]"))
    }
}

/// `[low, high]` if it is a finite interval with `low < high`, else the reason it is not.
pub(crate) fn check_interval(low: f64, high: f64) -> Result<(f64, f64), String> {
    if low.is_finite() && high.is_finite() && low < high {
        Ok((low, high))
    } else {
        Err(format!(
            "[{low}, {high}] is not a finite interval with low < high"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_interval_maps_as_the_single_wrappers_formula_did() {
        // RescaleAction's former `low + (high - low) · (a + 1) / 2`, bit for bit.
        for a in [-1.0, -0.75, -0.1, 0.0, 0.3, 0.999, 1.0] {
            for (low, high) in [(0.0, 10.0), (-4.0, 0.0), (-2.0, 2.0), (-0.3, 7.7)] {
                let former: f64 = low + (high - low) * ((a + 1.0) / 2.0);
                assert_eq!(
                    rescaled(a, (-1.0, 1.0), (low, high)).to_bits(),
                    former.to_bits()
                );
            }
        }
    }

    #[test]
    fn parameters_are_checked() {
        assert!(check_epsilon(1e-8).is_ok());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(check_epsilon(bad).is_err());
        }
        assert!(check_gamma(0.0).is_ok() && check_gamma(1.0).is_ok());
        assert!(check_gamma(1.5).is_err() && check_gamma(f64::NAN).is_err());
        assert!(check_interval(-1.0, 1.0).is_ok());
        assert!(check_interval(1.0, 1.0).is_err() && check_interval(0.0, f64::INFINITY).is_err());
        assert_eq!(discounted_return(2.0, 0.5, false, 1.0), 2.0);
        assert_eq!(discounted_return(2.0, 0.5, true, 1.0), 1.0);
        assert_eq!(normalised(3.0, 1.0, 4.0 - 1e-8, 1e-8), 1.0);
        assert_eq!(reward_scale(4.0, 0.0), 2.0);
    }
}
