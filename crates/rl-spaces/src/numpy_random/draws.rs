//! numpy's sampling algorithms (`numpy/random/src/distributions/distributions.c` and
//! `_generator.pyx`), written over any [`rand::Rng`]: with a [`NumpyGenerator`](super::NumpyGenerator)
//! they return what numpy's `Generator` returns, draw for draw.

use rand::Rng;

/// numpy's `random()`: a float64 in `[0, 1)` from the 53 high bits of one `u64`,
/// `(next_u64 >> 11) * 2^-53`.
#[inline]
pub fn random<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// numpy's `uniform(low, high)`: `low + (high - low) * random()`, the difference computed
/// first in float64. An array `uniform(low=[...], high=[...])` is this, element by element in
/// order.
#[inline]
pub fn uniform<R: Rng + ?Sized>(rng: &mut R, low: f64, high: f64) -> f64 {
    let range = high - low;
    low + range * random(rng)
}

/// numpy's bounded integer in `0..=max`, as `integers` draws it: nothing drawn for `max == 0`;
/// up to `2^32 - 1`, Lemire's multiply-and-reject on 32-bit draws (one plain 32-bit draw for
/// `max == 2^32 - 1`); beyond, Lemire's method on 64-bit draws (one plain draw for
/// `u64::MAX`).
pub fn bounded_u64<R: Rng + ?Sized>(rng: &mut R, max: u64) -> u64 {
    if max == 0 {
        0
    } else if max <= u64::from(u32::MAX) {
        if max == u64::from(u32::MAX) {
            u64::from(rng.next_u32())
        } else {
            u64::from(lemire_u32(rng, max as u32))
        }
    } else if max == u64::MAX {
        rng.next_u64()
    } else {
        lemire_u64(rng, max)
    }
}

/// Lemire's method on 32-bit draws for a value in `0..=max` (`max < 2^32 - 1`), as numpy's
/// `buffered_bounded_lemire_uint32`.
fn lemire_u32<R: Rng + ?Sized>(rng: &mut R, max: u32) -> u32 {
    let exclusive = max + 1;
    let mut product = u64::from(rng.next_u32()) * u64::from(exclusive);
    let mut leftover = product as u32;
    if leftover < exclusive {
        let threshold = (u32::MAX - max) % exclusive;
        while leftover < threshold {
            product = u64::from(rng.next_u32()) * u64::from(exclusive);
            leftover = product as u32;
        }
    }
    (product >> 32) as u32
}

/// Lemire's method on 64-bit draws for a value in `0..=max` (`max < u64::MAX`), as numpy's
/// `bounded_lemire_uint64`.
fn lemire_u64<R: Rng + ?Sized>(rng: &mut R, max: u64) -> u64 {
    let exclusive = max + 1;
    let mut product = u128::from(rng.next_u64()) * u128::from(exclusive);
    let mut leftover = product as u64;
    if leftover < exclusive {
        let threshold = (u64::MAX - max) % exclusive;
        while leftover < threshold {
            product = u128::from(rng.next_u64()) * u128::from(exclusive);
            leftover = product as u64;
        }
    }
    (product >> 64) as u64
}

/// numpy's `integers(low, high)` (int64, `high` excluded): `low + bounded_u64(high - low - 1)`.
/// `None` when `high <= low`, where numpy raises `ValueError`; nothing is drawn then.
///
/// ```
/// use rl_spaces::NumpyGenerator;
/// use rl_spaces::numpy_random::integers;
/// use rand::SeedableRng;
///
/// let mut rng = NumpyGenerator::seed_from_u64(0);
/// let roll = integers(&mut rng, 1, 7).expect("a non-empty range");
/// assert!((1..7).contains(&roll));
/// assert_eq!(integers(&mut rng, 3, 3), None);
/// ```
pub fn integers<R: Rng + ?Sized>(rng: &mut R, low: i64, high: i64) -> Option<i64> {
    if high <= low {
        return None;
    }
    // high - low - 1 fits in u64 for any two i64.
    let max = (i128::from(high) - i128::from(low) - 1) as u64;
    Some(low.wrapping_add(bounded_u64(rng, max) as i64))
}

/// numpy's `choice(n)` for a population of `n` (no probabilities): `integers(0, n)`. `None`
/// when `n` is 0.
pub fn choice<R: Rng + ?Sized>(rng: &mut R, n: usize) -> Option<usize> {
    let high = i64::try_from(n).ok()?;
    integers(rng, 0, high).map(|index| index as usize)
}

/// One draw of numpy's `choice(len(p), p=p)`: one `random()` `u`, and the first index whose
/// normalised cumulative sum (`cumsum(p) / cumsum(p)[-1]`, summed left to right) is greater
/// than `u` (`searchsorted(u, side="right")`). `choice(n, size=k, p=p)` is `k` such draws.
///
/// `None`, with nothing drawn, when `p` is empty, holds a negative or non-finite entry, or sums
/// to zero (numpy raises `ValueError`). numpy also refuses probabilities whose sum is further
/// than `sqrt(eps)` from 1; this function normalises them instead, as numpy does once they are
/// accepted.
pub fn choice_weighted<R: Rng + ?Sized>(rng: &mut R, p: &[f64]) -> Option<usize> {
    if p.iter()
        .any(|&weight| !(weight >= 0.0 && weight.is_finite()))
    {
        return None;
    }
    let total: f64 = p.iter().fold(0.0, |sum, &weight| sum + weight);
    if !(total > 0.0 && total.is_finite()) {
        return None;
    }
    let u = random(rng);
    let mut cumulative = 0.0;
    for (index, &weight) in p.iter().enumerate() {
        cumulative += weight;
        if cumulative / total > u {
            return Some(index);
        }
    }
    // The last normalised entry is total / total == 1.0 > u: the loop always returns.
    Some(p.len() - 1)
}

/// numpy's `standard_exponential()` (mean 1), bit for bit: its 256-layer ziggurat on 64-bit
/// draws.
///
/// One `u64` per draw in 98.9% of cases: its bits 3 to 10 pick a layer `i`, its 53 high bits `u`
/// give `x = u * W[i]`, accepted when `u < K[i]` (the point lies under the layer above). Else,
/// in the base layer, a tail draw `r - ln(1 - random())` (`r` where the tail starts); in
/// another layer, `x` is kept when `F[i] + (F[i-1] - F[i]) * random()` lies below `exp(-x)`,
/// and otherwise the whole draw starts again. The tables come from the ziggurat's definition
/// (`ziggurat_tables.py`, next to this module) and equal numpy's entry for entry. `exp` and
/// `ln_1p` are the C library's, as numpy's are: the rare tail and wedge draws depend on them
/// to the last bit (glibc, where the tests compare with numpy).
///
/// ```
/// use rl_spaces::NumpyGenerator;
/// use rl_spaces::numpy_random::standard_exponential;
/// use rand::SeedableRng;
///
/// // np.random.default_rng(0).standard_exponential()
/// let mut rng = NumpyGenerator::seed_from_u64(0);
/// assert_eq!(standard_exponential(&mut rng), 0.6799319039689096);
/// ```
pub fn standard_exponential<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    use super::ziggurat_tables::{EXPONENTIAL_F, EXPONENTIAL_K, EXPONENTIAL_R, EXPONENTIAL_W};
    loop {
        let bits = rng.next_u64() >> 3;
        let layer = (bits & 0xff) as usize;
        let u = bits >> 8;
        // u < 2^53: exact as a float64.
        let x = u as f64 * EXPONENTIAL_W[layer];
        if u < EXPONENTIAL_K[layer] {
            return x;
        }
        if layer == 0 {
            return EXPONENTIAL_R - (-random(rng)).ln_1p();
        }
        let (top, bottom) = (EXPONENTIAL_F[layer - 1], EXPONENTIAL_F[layer]);
        if (top - bottom) * random(rng) + bottom < (-x).exp() {
            return x;
        }
    }
}

/// numpy's `standard_normal()`, bit for bit: its 256-layer ziggurat on 64-bit draws.
///
/// One `u64` per draw in 99.3% of cases: its low 8 bits pick a layer `i`, the next bit the
/// sign, the 52 bits above it `u`, `x = ±u * W[i]`, accepted when `u < K[i]`. Else, in the base
/// layer, the tail beyond `r`: pairs of `random()` give `a = -ln(1 - u1) / r` and
/// `b = -ln(1 - u2)` until `2b > a^2`, and the draw is `±(r + a)` (the sign from bit 8 of `u`);
/// in another layer, `x` is kept when `F[i] + (F[i-1] - F[i]) * random()` lies below
/// `exp(-x^2 / 2)`, and otherwise the whole draw starts again. The tables: see
/// [`standard_exponential`].
///
/// ```
/// use rl_spaces::NumpyGenerator;
/// use rl_spaces::numpy_random::standard_normal;
/// use rand::SeedableRng;
///
/// // np.random.default_rng(0).standard_normal()
/// let mut rng = NumpyGenerator::seed_from_u64(0);
/// assert_eq!(standard_normal(&mut rng), 0.1257302210933933);
/// ```
pub fn standard_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    use super::ziggurat_tables::{NORMAL_F, NORMAL_INV_R, NORMAL_K, NORMAL_R, NORMAL_W};
    loop {
        let bits = rng.next_u64();
        let layer = (bits & 0xff) as usize;
        let negative = (bits >> 8) & 1 == 1;
        let u = (bits >> 9) & ((1 << 52) - 1);
        let magnitude = u as f64 * NORMAL_W[layer];
        let x = if negative { -magnitude } else { magnitude };
        if u < NORMAL_K[layer] {
            return x;
        }
        if layer == 0 {
            loop {
                let a = -NORMAL_INV_R * (-random(rng)).ln_1p();
                let b = -(-random(rng)).ln_1p();
                if b + b > a * a {
                    let tail = NORMAL_R + a;
                    return if (u >> 8) & 1 == 1 { -tail } else { tail };
                }
            }
        }
        let (top, bottom) = (NORMAL_F[layer - 1], NORMAL_F[layer]);
        if (top - bottom) * random(rng) + bottom < (-0.5 * x * x).exp() {
            return x;
        }
    }
}

/// numpy's `geometric(p)` (the number of trials up to the first success, at least 1) for
/// `0 < p <= 1`: for `p >= 1/3`, one `random()` and a search of the cumulative probabilities;
/// below, `ceil(-standard_exponential() / log1p(-p))`, capped at `i64::MAX`.
pub fn geometric<R: Rng + ?Sized>(rng: &mut R, p: f64) -> u64 {
    if p >= 1.0 / 3.0 {
        let u = random(rng);
        let q = 1.0 - p;
        let (mut sum, mut product, mut trials) = (p, p, 1u64);
        while u > sum && trials < i64::MAX as u64 {
            product *= q;
            sum += product;
            trials += 1;
        }
        trials
    } else {
        let z = (-standard_exponential(rng) / (-p).ln_1p()).ceil();
        if z >= 9.223_372_036_854_776e18 {
            i64::MAX as u64
        } else {
            z as u64
        }
    }
}

/// numpy's `integers(0, 2, size=n, dtype=int8)`: `n` bits from bytes of 32-bit draws (four
/// per draw, lowest byte first; a call starts with no byte left), each bit the top bit of its
/// byte (Lemire's method on 8 bits for a range of two, which never rejects).
pub fn int8_bits<R: Rng + ?Sized>(rng: &mut R, n: usize) -> Vec<i8> {
    let mut out = Vec::with_capacity(n);
    let (mut buffer, mut left) = (0u32, 0u32);
    for _ in 0..n {
        if left == 0 {
            buffer = rng.next_u32();
            left = 3;
        } else {
            buffer >>= 8;
            left -= 1;
        }
        out.push(((buffer as u8) >> 7) as i8);
    }
    out
}

/// numpy's `random_interval(max)`: a value in `0..=max` by masked rejection (the smallest
/// all-ones mask covering `max`; 32-bit draws while `max < 2^32`, 64-bit beyond), which
/// `shuffle` and `permutation` use instead of Lemire's method.
pub fn interval<R: Rng + ?Sized>(rng: &mut R, max: u64) -> u64 {
    if max == 0 {
        return 0;
    }
    let mask = u64::MAX >> max.leading_zeros();
    if max <= u64::from(u32::MAX) {
        loop {
            let value = u64::from(rng.next_u32()) & mask;
            if value <= max {
                return value;
            }
        }
    }
    loop {
        let value = rng.next_u64() & mask;
        if value <= max {
            return value;
        }
    }
}

/// numpy's `shuffle(x)` of a sequence (the first axis): for `i` from `len - 1` down to 1, swap
/// `x[i]` with `x[interval(i)]`.
pub fn shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = interval(rng, i as u64) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::NumpyGenerator;

    #[test]
    fn invalid_arguments_draw_nothing() {
        let mut rng = NumpyGenerator::seed_from_u64(1);
        let untouched = rng.clone();
        assert_eq!(integers(&mut rng, 5, 5), None);
        assert_eq!(integers(&mut rng, 5, -5), None);
        assert_eq!(choice(&mut rng, 0), None);
        for p in [
            &[][..],
            &[0.0, 0.0],
            &[0.5, -0.1],
            &[f64::NAN, 1.0],
            &[f64::INFINITY],
        ] {
            assert_eq!(choice_weighted(&mut rng, p), None, "{p:?}");
        }
        assert_eq!(rng, untouched);
    }

    #[test]
    fn a_one_value_range_draws_nothing() {
        let mut rng = NumpyGenerator::seed_from_u64(1);
        let untouched = rng.clone();
        assert_eq!(integers(&mut rng, -4, -3), Some(-4));
        assert_eq!(interval(&mut rng, 0), 0);
        assert_eq!(rng, untouched);
    }

    #[test]
    fn the_whole_i64_range_is_reachable() {
        let mut rng = NumpyGenerator::seed_from_u64(2);
        for _ in 0..100 {
            assert!(integers(&mut rng, i64::MIN, i64::MAX).is_some());
        }
        let mut values = [0u64; 8];
        for value in &mut values {
            *value = interval(&mut rng, u64::MAX - 1);
        }
        assert!(values.iter().any(|&value| value > u64::from(u32::MAX)));
    }

    #[test]
    fn weighted_choice_never_picks_a_zero_weight() {
        let mut rng = NumpyGenerator::seed_from_u64(3);
        for _ in 0..1000 {
            let index = choice_weighted(&mut rng, &[0.0, 0.25, 0.0, 0.75, 0.0]).expect("valid");
            assert!(index == 1 || index == 3, "{index}");
        }
    }
}
