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

/// NumPy 2.x's float32 sine (`np.sin` of a `float32` array or scalar) on a CPU with fused
/// multiply-add (x86-64-v3 and later, Arm with NEON-VFPv4: every CPU NumPy's wheels dispatch
/// its SIMD code to): Cody-Waite reduction by `pi/2` in three fused steps, then a degree-9
/// odd polynomial or a degree-8 even one by quadrant, all in float32 with fused operations;
/// beyond `|x| = 117435.992`, the C library's `sinf`, as NumPy falls back to it. Bit for bit
/// NumPy 2.4.6's result (checked on 3.9 million inputs from 0.1 to 1e9 in magnitude, NaN and
/// the infinities included); Gymnasium's Acrobot observes its float32 reset state with it.
#[inline]
pub(crate) fn numpy_sin_f32(x: f32) -> f32 {
    numpy_sin_cos_f32(x, false)
}

/// NumPy 2.x's float32 cosine (`np.cos` of a `float32` array or scalar), as
/// [`numpy_sin_f32`]; the C library's `cosf` beyond `|x| = 71476.0625`.
#[inline]
pub(crate) fn numpy_cos_f32(x: f32) -> f32 {
    numpy_sin_cos_f32(x, true)
}

/// The float32 sine or cosine of NumPy's SIMD loop (`loops_trigonometric.dispatch.cpp`).
fn numpy_sin_cos_f32(x: f32, cosine: bool) -> f32 {
    // The constants, as NumPy writes them in hexadecimal.
    const TWO_OVER_PI: u32 = 0x3f22_f983; // 0x1.45f306p-1
    const PIO2_HIGH: u32 = 0x3fc9_0fd8; // 0x1.921fb0p+0
    const PIO2_MEDIUM: u32 = 0x34a8_885a; // 0x1.5110b4p-22
    const PIO2_LOW: u32 = 0x27c2_34c4; // 0x1.846988p-48
    const ROUND_MAGIC: u32 = 0x4b40_0000; // 0x1.8p+23
    const COS_8: u32 = 0x37cc_730b; // 0x1.98e616p-16
    const COS_6: u32 = 0x3ab6_036e; // -(-0x1.6c06dcp-10)
    const COS_4: u32 = 0x3d2a_aa9e; // 0x1.55553cp-5
    const SIN_9: u32 = 0x363e_9dde; // 0x1.7d3bbcp-19
    const SIN_7: u32 = 0x3950_35dd; // -(-0x1.a06bbap-13)
    const SIN_5: u32 = 0x3c08_88cd; // 0x1.11119ap-7
    const SIN_3: u32 = 0x3e2a_aaab; // -(-0x1.555556p-3)
    let c = f32::from_bits;
    if x.is_nan() {
        return f32::NAN;
    }
    // NumPy's bounds of Cody-Waite's reduction: 71476.0625f and 117435.992f.
    let reducible = c(if cosine { 0x478b_9a08 } else { 0x47e5_5dff });
    if x.abs() > reducible {
        return if cosine { x.cos() } else { x.sin() };
    }
    // The quadrant, rounded to nearest with the magic number (NumPy's compiler fuses the
    // product into the addition).
    let magic = c(ROUND_MAGIC);
    let quadrant = x.mul_add(c(TWO_OVER_PI), magic) - magic;
    let reduced = quadrant.mul_add(-c(PIO2_HIGH), x);
    let reduced = quadrant.mul_add(-c(PIO2_MEDIUM), reduced);
    let reduced = quadrant.mul_add(-c(PIO2_LOW), reduced);
    let square = reduced * reduced;
    let cos = c(COS_8).mul_add(square, -c(COS_6));
    let cos = cos.mul_add(square, c(COS_4));
    let cos = cos.mul_add(square, -0.5);
    let cos = cos.mul_add(square, 1.0);
    let sin = c(SIN_9).mul_add(square, -c(SIN_7));
    let sin = sin.mul_add(square, c(SIN_5));
    let sin = sin.mul_add(square, -c(SIN_3));
    let sin = sin.mul_add(square, 0.0);
    let sin = sin.mul_add(reduced, reduced);
    // |quadrant| <= 2^16 here: the conversion is exact.
    let index = quadrant as i32 + i32::from(cosine);
    let value = if index & 1 == 0 { sin } else { cos };
    if index & 2 == 2 { 0.0 - value } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values NumPy 2.4.6 gives (`np.cos(np.float32(x))`, `np.sin(...)`, bit patterns) where
    /// the float64 function rounded to float32 differs, in Acrobot's reset range and beyond.
    #[test]
    fn float32_sine_and_cosine_are_numpys() {
        for (x, cos, sin) in NUMPY_CASES {
            let x = f32::from_bits(*x);
            assert_eq!(numpy_cos_f32(x).to_bits(), *cos, "cos({x:e})");
            assert_eq!(numpy_sin_f32(x).to_bits(), *sin, "sin({x:e})");
        }
        assert!(numpy_cos_f32(f32::NAN).is_nan() && numpy_sin_f32(f32::INFINITY).is_nan());
    }

    /// NumPy 2.4.6's results: `(x, cos x, sin x)` as float32 bit patterns, generated with
    /// `np.cos`/`np.sin` of `np.float32` inputs (see the test above).
    const NUMPY_CASES: &[(u32, u32, u32)] = &[
        (0x3d2eb165, 0x3f7fc468, 0x3d2ea3d6),
        (0xbdaa6d6c, 0x3f7f1d37, 0xbdaa3b15),
        (0xbdc7678d, 0x3f7ec99b, 0xbdc716ef),
        (0x3dc4dca1, 0x3f7ed176, 0x3dc48f0e),
        (0xbdcb1e4b, 0x3f7ebdf1, 0xbdcac917),
        (0x3da88c2d, 0x3f7f222f, 0x3da85b7c),
        (0xbd803912, 0x3f7f7f99, 0xbd8023a1),
        (0xbd945b06, 0x3f7f5420, 0xbd9439d1),
        (0xbd8d8d89, 0x3f7f6386, 0xbd8d70b0),
        (0x3dc22593, 0x3f7ed9bf, 0x3dc1db2a),
        (0xbdc3e19e, 0x3f7ed477, 0xbdc39532),
        (0xbdaebe7a, 0x3f7f1196, 0xbdae8837),
        (0xc0179bcb, 0xbf374d3d, 0xbf32b533),
        (0x4028e6fd, 0xbf605ab4, 0x3ef695fa),
        (0x401d7b57, 0xbf46e843, 0x3f212872),
        (0xbfa6126a, 0x3e8a3932, 0xbf767e9c),
        (0xbfe9e0ee, 0xbe81d55e, 0xbf77a1e7),
        (0x3fcfca9b, 0xbd573ea8, 0x3f7fa573),
        (0x44182a91, 0x3f31a4df, 0xbf385536),
        (0xc3336d06, 0xbf700784, 0x3eb2029d),
        (0xc30e8724, 0xbece3ba7, 0x3f6a5059),
        (0x441800ee, 0x3dedbe46, 0xbf7e44ed),
        (0xc712b799, 0x3e90c7ed, 0x3f758d3a),
        (0xc787e9bc, 0x3ebd96e9, 0xbf6dcd66),
        (0xc7031e56, 0x3c3072db, 0xbf7ffc33),
        (0xc530b595, 0x3f7f161b, 0x3dacdf87),
        (0x4c9390da, 0x3e82983c, 0x3f778847),
        (0xcb34a7b8, 0xbf608cd7, 0x3ef5df2b),
        (0x00000000, 0x3f800000, 0x00000000),
        (0x80000000, 0x3f800000, 0x80000000),
        (0x3dcccccd, 0x3f7eb898, 0x3dcc7577),
        (0xbdcccccd, 0x3f7eb898, 0xbdcc7577),
        (0x3f490fdb, 0x3f3504f3, 0x3f3504f3),
    ];
}
