//! The checks Gymnasium and numpy make of sampling probabilities.

/// Kahan's compensated sum, as numpy's `choice` adds its probabilities before checking them.
fn kahan_sum(values: &[f64]) -> f64 {
    let mut sum = 0.0;
    let mut compensation = 0.0;
    for v in values {
        let y = v - compensation;
        let t = sum + y;
        compensation = (t - sum) - y;
        sum = t;
    }
    sum
}

/// Checks probabilities as Gymnasium's `Discrete` and `Text` samplers and numpy's `choice`
/// do: every entry between 0 and 1 (NaN refused), and the sum within numpy's tolerance of 1
/// (`sqrt(machine epsilon)`, about 1.5e-8, on a compensated sum; Gymnasium's own `isclose` is
/// looser and numpy then refuses what it lets through).
pub(crate) fn check_probabilities(p: &[f64]) -> Result<(), String> {
    check_probability_entries(p)?;
    let sum = kahan_sum(p);
    if (sum - 1.0).abs() > f64::EPSILON.sqrt() {
        return Err(format!("the probabilities sum to {sum}, not 1"));
    }
    Ok(())
}

/// Checks that every entry is a probability (between 0 and 1; NaN refused).
pub(crate) fn check_probability_entries(p: &[f64]) -> Result<(), String> {
    match p
        .iter()
        .enumerate()
        .find(|(_, v)| !(**v >= 0.0 && **v <= 1.0))
    {
        Some((i, v)) => Err(format!(
            "probability {i} is {v}; probabilities must be between 0 and 1"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_are_checked() {
        assert!(check_probabilities(&[0.5, 0.5]).is_ok());
        assert!(check_probabilities(&[0.5, 0.6]).is_err());
        assert!(check_probabilities(&[1.5, -0.5]).is_err());
        assert!(check_probabilities(&[f64::NAN, 1.0]).is_err());
    }
}
