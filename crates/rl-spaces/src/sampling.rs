//! The random draws behind Box sampling: uniform, exponential and normal, in `f64`.
//!
//! These are written here rather than taken from `rand_distr` so that the sequence a seed gives
//! is pinned by this crate alone (see the value-stability test) and follows Gymnasium's rule
//! for Box sampling exactly: uniform on bounded sides, shifted exponential on half-bounded
//! sides, standard normal on unbounded ones.

use rand::{Rng, RngExt};

/// A uniform draw in `[0, 1)` with 53 random bits.
#[inline]
pub(crate) fn unit_interval<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    rng.random::<f64>()
}

/// A draw from the standard exponential distribution (mean 1), by inversion: `-ln(1 - u)`.
///
/// Always finite and non-negative, since `1 - u` lies in `(0, 1]`.
#[inline]
pub(crate) fn standard_exponential<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    -(1.0 - unit_interval(rng)).ln()
}

/// A draw from the standard normal distribution, by the Box–Muller transform (one of the pair
/// is used, so each draw consumes exactly two uniforms).
#[inline]
pub(crate) fn standard_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let u1 = 1.0 - unit_interval(rng);
    let u2 = unit_interval(rng);
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Draws a float between `low` and `high` (either may be infinite, `low <= high`) with
/// Gymnasium's rule, clamped into `[low, high]` so that rounding never leaves the interval.
pub(crate) fn float_between<R: Rng + ?Sized>(low: f64, high: f64, rng: &mut R) -> f64 {
    let low_bounded = low > f64::NEG_INFINITY;
    let high_bounded = high < f64::INFINITY;
    let x = match (low_bounded, high_bounded) {
        (true, true) => {
            let u = unit_interval(rng);
            let span = high - low;
            if span.is_finite() {
                low + span * u
            } else {
                // The span overflows (for example from -f64::MAX to f64::MAX): interpolate.
                low * (1.0 - u) + high * u
            }
        }
        (true, false) => low + standard_exponential(rng),
        (false, true) => high - standard_exponential(rng),
        (false, false) => standard_normal(rng),
    };
    x.clamp(low, high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64;

    #[test]
    fn draws_stay_in_their_interval() {
        let mut rng = Pcg64::seed_from_u64(7);
        for (low, high) in [
            (-1.0, 2.0),
            (0.0, f64::INFINITY),
            (f64::NEG_INFINITY, 3.0),
            (f64::NEG_INFINITY, f64::INFINITY),
            (-f64::MAX, f64::MAX),
            (5.0, 5.0),
        ] {
            for _ in 0..1000 {
                let x = float_between(low, high, &mut rng);
                assert!(x >= low && x <= high, "{x} outside [{low}, {high}]");
            }
        }
    }

    #[test]
    fn exponential_and_normal_have_the_right_moments() {
        let mut rng = Pcg64::seed_from_u64(11);
        let n = 200_000;
        let exp_mean = (0..n).map(|_| standard_exponential(&mut rng)).sum::<f64>() / n as f64;
        assert!((exp_mean - 1.0).abs() < 0.01, "exponential mean {exp_mean}");
        let normals: Vec<f64> = (0..n).map(|_| standard_normal(&mut rng)).collect();
        let mean = normals.iter().sum::<f64>() / n as f64;
        let variance = normals.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01, "normal mean {mean}");
        assert!((variance - 1.0).abs() < 0.02, "normal variance {variance}");
    }
}
