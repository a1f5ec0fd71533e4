//! NumPy's arithmetic where the rewards need it bit for bit: `np.sum`'s pairwise summation
//! (float32 and float64), `np.square`, `np.clip` on scalars.

/// A float type NumPy sums pairwise (`f32` or `f64`).
pub(crate) trait Summable: Copy + std::ops::Add<Output = Self> + Default {}
impl Summable for f32 {}
impl Summable for f64 {}

/// `np.sum` of a contiguous 1-D array: NumPy's pairwise summation (`pairwise_sum` in
/// `loops_utils.h`), in the array's own type. Below 8 entries a plain loop from 0; up to 128,
/// eight running sums combined as `((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))` and the
/// rest added in order; beyond, the halves (cut at a multiple of 8) summed recursively.
pub(crate) fn pairwise_sum<T: Summable>(values: &[T]) -> T {
    let n = values.len();
    if n < 8 {
        let mut sum = T::default();
        for &value in values {
            sum = sum + value;
        }
        sum
    } else if n <= 128 {
        let mut r = [T::default(); 8];
        r.copy_from_slice(&values[..8]);
        let whole = n - n % 8;
        let mut i = 8;
        while i < whole {
            for (j, running) in r.iter_mut().enumerate() {
                *running = *running + values[i + j];
            }
            i += 8;
        }
        let mut sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &value in &values[whole..] {
            sum = sum + value;
        }
        sum
    } else {
        let mut half = n / 2;
        half -= half % 8;
        pairwise_sum(&values[..half]) + pairwise_sum(&values[half..])
    }
}

/// `np.sum(np.square(action))` of a float32 action, in float32, without allocating for
/// actions of up to 128 entries (longer ones are summed through a vector).
pub(crate) fn sum_of_squares_f32(action: &[f32]) -> f32 {
    let mut squares = [0f32; 128];
    if action.len() <= squares.len() {
        for (square, &value) in squares.iter_mut().zip(action) {
            *square = value * value;
        }
        pairwise_sum(&squares[..action.len()])
    } else {
        let squares: Vec<f32> = action.iter().map(|&value| value * value).collect();
        pairwise_sum(&squares)
    }
}

/// `np.clip(x, low, high)` on a float64 scalar: NaN passes through.
#[inline]
pub(crate) fn clip(value: f64, low: f64, high: f64) -> f64 {
    if value < low {
        low
    } else if value > high {
        high
    } else {
        value
    }
}

/// Whether NumPy's `dot` (OpenBLAS's `ddot`, behind `np.linalg.norm`) fuses its multiply-adds
/// on this processor: its x86-64 kernels for processors with AVX2 and FMA (Haswell on) and
/// its AArch64 kernels do; older x86-64 kernels multiply and add separately.
fn blas_fuses() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(target_arch = "aarch64")]
    {
        true
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// `np.linalg.norm(x)` (or `ord=2`) of a short float64 vector (2 or 3 entries):
/// `sqrt(dot(x, x))`, the dot product accumulated from 0 in order, fused where OpenBLAS's
/// kernel fuses ([`blas_fuses`]).
pub(crate) fn norm(values: &[f64]) -> f64 {
    let fused = blas_fuses();
    let mut sum = 0.0f64;
    for &value in values {
        sum = if fused {
            value.mul_add(value, sum)
        } else {
            sum + value * value
        };
    }
    sum.sqrt()
}

/// `x**2` on a float64 as NumPy computes it: C `pow(x, 2.0)`, the exponent hidden from the
/// optimiser (which would rewrite it as `x * x`).
#[inline]
pub(crate) fn python_square(value: f64) -> f64 {
    value.powf(std::hint::black_box(2.0))
}

/// `np.sum(np.square(values))` of float64 values (pairwise), without allocating for up to
/// 512 entries.
pub(crate) fn sum_of_squares_f64(values: &[f64]) -> f64 {
    let mut squares = [0f64; 512];
    if values.len() <= squares.len() {
        for (square, &value) in squares.iter_mut().zip(values) {
            *square = value * value;
        }
        pairwise_sum(&squares[..values.len()])
    } else {
        let squares: Vec<f64> = values.iter().map(|&value| value * value).collect();
        pairwise_sum(&squares)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_sums_are_plain_and_long_ones_pairwise() {
        assert_eq!(pairwise_sum::<f64>(&[]), 0.0);
        assert_eq!(pairwise_sum(&[1.0f64, 2.0, 3.0]), 6.0);
        // A plain loop loses every 1 added to 1e16; NumPy's eight running sums keep them
        // (values from `np.sum` and Python's `sum` in NumPy 2.4.6).
        let mut values = vec![1.0f64; 16];
        values[0] = 1e16;
        assert_eq!(values.iter().sum::<f64>(), 1e16);
        assert_eq!(pairwise_sum(&values), 1.0000000000000014e16);
        assert_eq!(sum_of_squares_f32(&[3.0, 4.0]), 25.0);
        assert_eq!(clip(11.0, -10.0, 10.0), 10.0);
        assert!(clip(f64::NAN, -10.0, 10.0).is_nan());
    }
}
