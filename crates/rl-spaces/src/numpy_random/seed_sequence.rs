//! [`SeedSequence`]: numpy's `SeedSequence`, which hashes an integer seed of any size into the
//! words that seed a bit generator.

/// The constants of numpy's `SeedSequence` (`numpy/random/bit_generator.pyx`).
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const XSHIFT: u32 = 16;

/// The number of 32-bit words in the entropy pool (numpy's `DEFAULT_POOL_SIZE`).
const POOL_SIZE: usize = 4;

/// numpy's `hashmix`: mixes `value` with the running hash constant, which it advances.
fn hashmix(value: u32, hash_const: &mut u32) -> u32 {
    let mut value = value ^ *hash_const;
    *hash_const = hash_const.wrapping_mul(MULT_A);
    value = value.wrapping_mul(*hash_const);
    value ^ (value >> XSHIFT)
}

/// numpy's `mix`: combines two pool words.
fn mix(x: u32, y: u32) -> u32 {
    let result = MIX_MULT_L
        .wrapping_mul(x)
        .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
    result ^ (result >> XSHIFT)
}

/// numpy's `SeedSequence(entropy)` for a non-negative integer `entropy` and no spawn key: the
/// entropy's 32-bit words hashed into a pool of four words, from which
/// [`generate_state_u32`](Self::generate_state_u32) draws as many words as a bit generator needs.
///
/// The seed is given as its 32-bit words, least significant first
/// ([`from_words`](Self::from_words)), which covers Python integers of any size, or as a `u64`
/// or `u128`. numpy writes `0` as the one word `0`, and so does this type: the pools of `0`,
/// `0u64` and `0u128` are the same.
///
/// ```
/// use rl_spaces::SeedSequence;
///
/// // numpy: SeedSequence(0).generate_state(2, np.uint32) == [2968811710, 3677149159]
/// let words = SeedSequence::from_u64(0).generate_state_u32::<2>();
/// assert_eq!(words, [2_968_811_710, 3_677_149_159]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeedSequence {
    pool: [u32; POOL_SIZE],
}

impl SeedSequence {
    /// The sequence of the non-negative integer whose 32-bit words, least significant first,
    /// are `words`. Trailing zero words change nothing (`[7, 0]` is the integer 7, as is `[7]`);
    /// no words at all is the integer 0.
    pub fn from_words(words: &[u32]) -> Self {
        // numpy's `_coerce_to_uint32_array` writes an integer with as many words as it needs,
        // and 0 as one word.
        let significant = words
            .iter()
            .rposition(|&word| word != 0)
            .map_or(1, |last| last + 1);
        let zero = [0u32];
        let entropy = if words.is_empty() {
            &zero[..]
        } else {
            &words[..significant]
        };
        let mut hash_const = INIT_A;
        let mut pool = [0u32; POOL_SIZE];
        for (i, slot) in pool.iter_mut().enumerate() {
            *slot = hashmix(entropy.get(i).copied().unwrap_or(0), &mut hash_const);
        }
        for source in 0..POOL_SIZE {
            for destination in 0..POOL_SIZE {
                if source != destination {
                    pool[destination] =
                        mix(pool[destination], hashmix(pool[source], &mut hash_const));
                }
            }
        }
        for &word in entropy.iter().skip(POOL_SIZE) {
            for slot in &mut pool {
                *slot = mix(*slot, hashmix(word, &mut hash_const));
            }
        }
        SeedSequence { pool }
    }

    /// The sequence of `seed` (numpy's `SeedSequence(seed)`).
    pub fn from_u64(seed: u64) -> Self {
        SeedSequence::from_words(&[seed as u32, (seed >> 32) as u32])
    }

    /// The sequence of `seed` (numpy's `SeedSequence(seed)` for a seed of up to 128 bits).
    pub fn from_u128(seed: u128) -> Self {
        let words = [0, 1, 2, 3].map(|i| (seed >> (32 * i)) as u32);
        SeedSequence::from_words(&words)
    }

    /// The entropy pool: four words hashed from the seed.
    pub fn pool(&self) -> [u32; 4] {
        self.pool
    }

    /// numpy's `generate_state(N, np.uint32)`: `N` words drawn from the pool.
    pub fn generate_state_u32<const N: usize>(&self) -> [u32; N] {
        let mut hash_const = INIT_B;
        let mut state = [0u32; N];
        for (i, slot) in state.iter_mut().enumerate() {
            let mut value = self.pool[i % POOL_SIZE] ^ hash_const;
            hash_const = hash_const.wrapping_mul(MULT_B);
            value = value.wrapping_mul(hash_const);
            *slot = value ^ (value >> XSHIFT);
        }
        state
    }

    /// numpy's `generate_state(4, np.uint64)`: eight words drawn from the pool, paired
    /// little-endian into four `u64` (what PCG64 is seeded with).
    pub fn generate_state_u64x4(&self) -> [u64; 4] {
        let words = self.generate_state_u32::<8>();
        [0, 1, 2, 3].map(|i| u64::from(words[2 * i]) | (u64::from(words[2 * i + 1]) << 32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_one_zero_word_however_it_is_written() {
        let zero = SeedSequence::from_words(&[0]);
        assert_eq!(SeedSequence::from_words(&[]), zero);
        assert_eq!(SeedSequence::from_u64(0), zero);
        assert_eq!(SeedSequence::from_u128(0), zero);
        assert_eq!(
            SeedSequence::from_words(&[7, 0, 0]),
            SeedSequence::from_words(&[7])
        );
        assert_ne!(SeedSequence::from_words(&[7]), zero);
    }

    #[test]
    fn words_beyond_the_pool_change_it() {
        let four = SeedSequence::from_words(&[1, 2, 3, 4]);
        let five = SeedSequence::from_words(&[1, 2, 3, 4, 5]);
        assert_ne!(four, five);
        assert_eq!(
            SeedSequence::from_u128(u128::MAX),
            SeedSequence::from_words(&[u32::MAX; 4])
        );
    }
}
