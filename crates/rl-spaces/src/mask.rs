//! The checks Gymnasium and numpy make of sampling probabilities, and numpy's sums.

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

/// numpy's `np.sum` of a one-dimensional contiguous `float64` array: pairwise summation in
/// blocks of eight (`pairwise_sum` in numpy's `loops_utils.h`), which rounds differently from a
/// plain left-to-right sum.
pub(crate) fn numpy_sum(values: &[f64]) -> f64 {
    let n = values.len();
    if n < 8 {
        values.iter().fold(-0.0, |sum, v| sum + v)
    } else if n <= 128 {
        let mut partial = [0.0f64; 8];
        partial.copy_from_slice(&values[..8]);
        let whole = n - n % 8;
        for block in values[8..whole].chunks_exact(8) {
            for (sum, v) in partial.iter_mut().zip(block) {
                *sum += v;
            }
        }
        let mut sum = ((partial[0] + partial[1]) + (partial[2] + partial[3]))
            + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
        for v in &values[whole..] {
            sum += v;
        }
        sum
    } else {
        let mut half = n / 2;
        half -= half % 8;
        numpy_sum(&values[..half]) + numpy_sum(&values[half..])
    }
}

/// Gymnasium's `np.isclose(np.sum(p), 1)` (relative tolerance 1e-5, absolute 1e-8), which is
/// all its `MultiDiscrete` sampler asks of probabilities before normalising them.
pub(crate) fn check_sum_close_to_one(p: &[f64]) -> Result<f64, String> {
    let sum = numpy_sum(p);
    if (sum - 1.0).abs() <= 1e-8 + 1e-5 {
        Ok(sum)
    } else {
        Err(format!("the probabilities sum to {sum}, not 1"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_sum_is_pairwise() {
        let values: Vec<f64> = (0..300).map(|i| 1.0 / f64::from(i + 1)).collect();
        let plain: f64 = values.iter().sum();
        // Both are close to the harmonic number, but rounded differently.
        assert!((numpy_sum(&values) - plain).abs() < 1e-12);
        assert_ne!(numpy_sum(&values), plain);
        assert_eq!(numpy_sum(&[0.1, 0.2, 0.3]), 0.1 + 0.2 + 0.3);
    }

    #[test]
    fn probabilities_are_checked() {
        assert!(check_probabilities(&[0.5, 0.5]).is_ok());
        assert!(check_probabilities(&[0.5, 0.6]).is_err());
        assert!(check_probabilities(&[1.5, -0.5]).is_err());
        assert!(check_probabilities(&[f64::NAN, 1.0]).is_err());
        assert!(check_sum_close_to_one(&[0.5, 0.500001]).is_ok());
        assert!(check_sum_close_to_one(&[0.5, 0.6]).is_err());
    }
}
