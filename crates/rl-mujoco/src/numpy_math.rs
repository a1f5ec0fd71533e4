//! NumPy's arithmetic where the rewards need it bit for bit: `np.sum`'s pairwise summation
//! (float32 and float64), `np.square`, `np.clip` on scalars, `np.linalg.norm` and `np.einsum` with NumPy's
//! way of accumulating sums of products on the machine ([`NumpyOperation`]).

use std::sync::atomic::{AtomicU8, Ordering};

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

/// How a sum of products `x0*y0 + x1*y1 + ...` is accumulated from 0, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accumulation {
    /// Each product added with one rounding (a fused multiply-add): `fma(x1, y1, fma(x0, y0,
    /// 0))`.
    Fused,
    /// Each product rounded, then added: `(x0*y0 + x1*y1) + ...`.
    Separate,
}

/// The two NumPy operations of Gymnasium's MuJoCo tasks whose last digit depends on the
/// machine, because NumPy's code for them adds each product with one rounding on some
/// processors and with two on others; about one result in six differs in its last digit.
///
/// - [`NumpyOperation::Dot`]: `x.dot(x)` of float64 vectors, behind `np.linalg.norm` (Ant's,
///   Humanoid's and Swimmer's `distance_from_origin`, Pusher's and Reacher's rewards and the
///   rejection tests of their resets). OpenBLAS's kernel for the processor decides: its
///   kernels for x86-64 with AVX2 and FMA (Haswell on) fuse; its AArch64 kernel picked under
///   qemu-aarch64 (NumPy 2.4.6) does not.
/// - [`NumpyOperation::Einsum`]: `np.einsum("b,bj->j", body_mass, xipos)`, Humanoid's centre
///   of mass (its `x_velocity`, `y_velocity` and forward reward). NumPy's own code, compiled for
///   the processor family's baseline: fused on AArch64, separate on x86-64.
///
/// Both found with the Python package's `tests/test_mujoco_norms.py`, which checks NumPy's
/// results against both ways, computed exactly, on 300 random cases of each operation (every
/// case where the ways differ must agree with one way), natively and under qemu-aarch64
/// (`RL_AARCH64_TESTS=test_mujoco_norms.py bash crates/rl-python/wheel-aarch64.sh`).
///
/// The defaults ([`accumulation`] before any [`set_accumulation`]) are those, for the
/// processor this runs on (anything but x86-64 and AArch64: separate). The Python package asks
/// NumPy itself when it makes its first MuJoCo environment or vector
/// (`rlrs.mujoco.match_numpys_arithmetic`), so that from Python the
/// MuJoCo ids equal Gymnasium's in the same process whatever NumPy's build and BLAS.
///
/// ```
/// use rl_mujoco::{Accumulation, NumpyOperation, accumulation, set_accumulation};
/// let default = accumulation(NumpyOperation::Dot);
/// set_accumulation(NumpyOperation::Dot, Accumulation::Separate);
/// assert_eq!(accumulation(NumpyOperation::Dot), Accumulation::Separate);
/// set_accumulation(NumpyOperation::Dot, default);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumpyOperation {
    /// `x.dot(y)` of float64 vectors (OpenBLAS's `ddot`), behind `np.linalg.norm`.
    Dot,
    /// `np.einsum("b,bj->j", ...)` of float64 arrays.
    Einsum,
}

/// The ways set by [`set_accumulation`], one per [`NumpyOperation`]: 0 when none is set, 1
/// fused, 2 separate.
static ACCUMULATIONS: [AtomicU8; 2] = [AtomicU8::new(0), AtomicU8::new(0)];

/// Sets how the MuJoCo tasks accumulate the sums of products of `operation`, for every
/// environment of the process from its next step on (set it before making environments: a
/// change in the middle of an episode changes its trajectory). See [`NumpyOperation`].
pub fn set_accumulation(operation: NumpyOperation, way: Accumulation) {
    let code = match way {
        Accumulation::Fused => 1,
        Accumulation::Separate => 2,
    };
    ACCUMULATIONS[operation as usize].store(code, Ordering::Relaxed);
}

/// How the MuJoCo tasks accumulate the sums of products of `operation`: the way set last by
/// [`set_accumulation`], else the processor's default ([`NumpyOperation`]).
pub fn accumulation(operation: NumpyOperation) -> Accumulation {
    match ACCUMULATIONS[operation as usize].load(Ordering::Relaxed) {
        1 => Accumulation::Fused,
        2 => Accumulation::Separate,
        _ => default_accumulation(operation),
    }
}

/// The processor's default way for `operation` ([`NumpyOperation`]).
fn default_accumulation(operation: NumpyOperation) -> Accumulation {
    let fused = match operation {
        NumpyOperation::Dot => {
            #[cfg(target_arch = "x86_64")]
            {
                std::arch::is_x86_feature_detected!("fma")
                    && std::arch::is_x86_feature_detected!("avx2")
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                false
            }
        }
        NumpyOperation::Einsum => cfg!(target_arch = "aarch64"),
    };
    if fused {
        Accumulation::Fused
    } else {
        Accumulation::Separate
    }
}

/// `sum + x * y`, with one rounding or two as `way` says.
#[inline]
pub(crate) fn multiply_add(x: f64, y: f64, sum: f64, way: Accumulation) -> f64 {
    match way {
        Accumulation::Fused => x.mul_add(y, sum),
        Accumulation::Separate => sum + x * y,
    }
}

/// `np.linalg.norm(x)` (or `ord=2`) of a short float64 vector (2 or 3 entries):
/// `sqrt(dot(x, x))`, the dot product accumulated from 0 in order, the way NumPy's accumulates
/// on this machine ([`NumpyOperation::Dot`]).
pub(crate) fn norm(values: &[f64]) -> f64 {
    norm_with(values, accumulation(NumpyOperation::Dot))
}

/// [`norm`] with the dot product accumulated `way`.
fn norm_with(values: &[f64], way: Accumulation) -> f64 {
    values
        .iter()
        .fold(0.0, |sum, &value| multiply_add(value, value, sum, way))
        .sqrt()
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
    fn norms_accumulate_fused_or_separately_as_asked() {
        // 0.6 and 0.7: one rounding less changes the last digit of the norm.
        let values = [0.6f64, 0.7];
        let separate = (0.6f64 * 0.6 + 0.7 * 0.7).sqrt();
        let fused = 0.7f64.mul_add(0.7, 0.6f64.mul_add(0.6, 0.0)).sqrt();
        assert_ne!(
            separate.to_bits(),
            fused.to_bits(),
            "the example tells the ways apart"
        );
        assert_eq!(
            norm_with(&values, Accumulation::Separate).to_bits(),
            separate.to_bits()
        );
        assert_eq!(
            norm_with(&values, Accumulation::Fused).to_bits(),
            fused.to_bits()
        );
        let three = [0.6f64, 0.7, 0.5];
        let separate = ((0.6f64 * 0.6 + 0.7 * 0.7) + 0.5 * 0.5).sqrt();
        let fused = 0.5f64.mul_add(0.5, 0.7f64.mul_add(0.7, 0.6 * 0.6)).sqrt();
        assert_ne!(
            separate.to_bits(),
            fused.to_bits(),
            "the example tells the ways apart"
        );
        assert_eq!(
            norm_with(&three, Accumulation::Fused).to_bits(),
            fused.to_bits()
        );
        assert_eq!(
            norm_with(&three, Accumulation::Separate).to_bits(),
            separate.to_bits()
        );
    }

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
