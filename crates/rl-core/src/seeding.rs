//! [`derive_seed`]: the rule for turning one seed into many (SplitMix64) where no reference
//! prescribes one: the experiment harness's run seeds and streams, a sticky-action wrapper's
//! generator. [`Seed`]: a non-negative integer of any size, as numpy's `SeedSequence` takes
//! it (Gymnasium's `reset(seed=10**30)`), for vectors' `seed + i`.
//!
//! Environments follow Gymnasium's rules instead: a seed makes numpy's generator
//! ([`NumpyGenerator`](crate::NumpyGenerator)`::seed_from_u64(seed)`), and environment `i` of
//! a vector is seeded with `seed + i`.

use std::fmt;

use rand::SeedableRng;

use crate::NumpyGenerator;

/// The increment of SplitMix64's state (the golden ratio times 2^64, made odd).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Steele, Lea and Flood, 2014), a bijection of `u64`.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of stream `index` derived from `seed`: the `(index + 1)`-th output of a SplitMix64
/// generator whose state starts at `seed`, that is
/// `mix(seed + (index + 1) × 0x9E3779B97F4A7C15)` with wrapping arithmetic, where `mix` is
/// SplitMix64's output function.
///
/// It serves where no reference prescribes a rule: a wrapper with a generator of its own
/// (rl-wrappers' `StickyAction`) seeds it with `derive_seed(seed, 0)`; an experiment gives run
/// `r` the seed `derive_seed(master_seed, r)` and derives the run's streams from that seed in
/// turn (rl-experiment's `RunSeeds`). Vectors seed environment `i` with `seed + i`, as
/// Gymnasium's `SyncVectorEnv` and EnvPool do, not with this rule.
///
/// SplitMix64 is the generator recommended to seed others from one number (it seeds xoshiro
/// and Java's `SplittableRandom`); its outputs for consecutive indices are well mixed, so
/// generators seeded from them draw unrelated sequences.
///
/// ```
/// use rl_core::derive_seed;
///
/// // The first outputs of SplitMix64 started at 0 (the reference implementation's values).
/// assert_eq!(derive_seed(0, 0), 0xE220_A839_7B1D_CDAF);
/// assert_eq!(derive_seed(0, 1), 0x6E78_9E6A_A1B9_65F4);
/// ```
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    mix(seed.wrapping_add(index.wrapping_add(1).wrapping_mul(GOLDEN_GAMMA)))
}

/// A seed: a non-negative integer of any size, as numpy's `SeedSequence` (and so Gymnasium's
/// `reset(seed=...)`) takes it. Below 2^64 it is a `u64` (`From<u64>`,
/// the common case, allocating nothing); above, its 32-bit words.
///
/// Its [`generator`](Self::generator) is numpy's `np.random.default_rng(seed)`:
/// [`NumpyGenerator::seed_from_u64`] below 2^64, [`NumpyGenerator::from_seed_words`] above.
/// [`plus`](Self::plus) is the seed of environment `i` of a vector (`seed + i`, Gymnasium's
/// rule), which never overflows.
///
/// ```
/// use rl_core::Seed;
///
/// let big = Seed::from_words(&[5, 0, 1]); // 2**64 + 5
/// assert_eq!(big.to_u64(), None);
/// assert_eq!(big.to_string(), "18446744073709551621");
/// assert_eq!(Seed::from(u64::MAX).plus(6), big);
/// assert_eq!(Seed::from_words(&[7, 0, 0]), Seed::from(7)); // leading zero words change nothing
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Seed(Repr);

/// A [`Seed`]'s value: a `u64`, or (only for integers of 2^64 or more) its significant 32-bit
/// words, least significant first, so that equal integers are equal seeds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(u64),
    Large(Box<[u32]>),
}

impl Seed {
    /// The integer whose 32-bit words, least significant first, are `words` (no words is 0;
    /// zero words at the end change nothing), as numpy reads a Python integer.
    pub fn from_words(words: &[u32]) -> Seed {
        let significant = words
            .iter()
            .rposition(|&w| w != 0)
            .map_or(0, |last| last + 1);
        let words = &words[..significant];
        if words.len() <= 2 {
            let low = words.first().copied().unwrap_or(0);
            let high = words.get(1).copied().unwrap_or(0);
            Seed(Repr::Small(u64::from(low) | (u64::from(high) << 32)))
        } else {
            Seed(Repr::Large(words.into()))
        }
    }

    /// The seed as a `u64`, when it is below 2^64.
    pub fn to_u64(&self) -> Option<u64> {
        match &self.0 {
            Repr::Small(seed) => Some(*seed),
            Repr::Large(_) => None,
        }
    }

    /// Its 32-bit words, least significant first, as many as it needs (`[0]` for 0): what
    /// numpy's `SeedSequence` reads from the integer.
    pub fn words(&self) -> Vec<u32> {
        match &self.0 {
            Repr::Small(seed) if *seed >> 32 == 0 => vec![*seed as u32],
            Repr::Small(seed) => vec![*seed as u32, (*seed >> 32) as u32],
            Repr::Large(words) => words.to_vec(),
        }
    }

    /// `self + offset`: the seed of environment `offset` of a vector seeded with `self`.
    pub fn plus(&self, offset: u64) -> Seed {
        if let Some(sum) = self.to_u64().and_then(|seed| seed.checked_add(offset)) {
            return Seed(Repr::Small(sum));
        }
        let mut words = self.words();
        words.resize(words.len().max(2) + 1, 0);
        let mut carry = offset;
        for word in &mut words {
            if carry == 0 {
                break;
            }
            let sum = u64::from(*word) + (carry & 0xFFFF_FFFF);
            *word = sum as u32;
            carry = (carry >> 32) + (sum >> 32);
        }
        Seed::from_words(&words)
    }

    /// numpy's generator of this seed (`np.random.default_rng(seed)`).
    pub fn generator(&self) -> NumpyGenerator {
        match &self.0 {
            Repr::Small(seed) => NumpyGenerator::seed_from_u64(*seed),
            Repr::Large(words) => NumpyGenerator::from_seed_words(words),
        }
    }
}

impl From<u64> for Seed {
    fn from(seed: u64) -> Seed {
        Seed(Repr::Small(seed))
    }
}

impl fmt::Display for Seed {
    /// The integer in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(seed) => write!(f, "{seed}"),
            Repr::Large(words) => {
                // Repeated division by 10^9 gives the decimal digits nine at a time, least
                // significant first.
                let mut words = words.to_vec();
                let mut chunks = Vec::new();
                while words.iter().any(|&w| w != 0) {
                    let mut remainder = 0u64;
                    for word in words.iter_mut().rev() {
                        let value = (remainder << 32) | u64::from(*word);
                        *word = (value / 1_000_000_000) as u32;
                        remainder = value % 1_000_000_000;
                    }
                    chunks.push(remainder);
                }
                let mut chunks = chunks.into_iter().rev();
                write!(f, "{}", chunks.next().unwrap_or(0))?;
                chunks.try_for_each(|chunk| write!(f, "{chunk:09}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_read_words_and_add_as_integers() {
        assert_eq!(Seed::from_words(&[]), Seed::from(0));
        assert_eq!(Seed::from(0).words(), vec![0]);
        assert_eq!(Seed::from(1 << 32).words(), vec![0, 1]);
        assert_eq!(Seed::from_words(&[3, 4]).to_u64(), Some((4 << 32) | 3));
        // 2**64 + 5 and 10**30 (0xC9F2C9CD04674EDEA40000000), as Python writes their words.
        let big = Seed::from_words(&[5, 0, 1]);
        assert_eq!(big.to_u64(), None);
        assert_eq!(big.words(), vec![5, 0, 1]);
        assert_eq!(big.to_string(), "18446744073709551621");
        let thirty = Seed::from_words(&[0x4000_0000, 0x4674_EDEA, 0x9F2C_9CD0, 0xC]);
        assert_eq!(thirty.to_string(), format!("1{}", "0".repeat(30)));
        assert_eq!(Seed::from(u64::MAX).to_string(), u64::MAX.to_string());
        // Carries across words, into a new word, and from a u64 into a large seed.
        assert_eq!(Seed::from(u64::MAX).plus(1), Seed::from_words(&[0, 0, 1]));
        assert_eq!(
            Seed::from(u64::MAX).plus(u64::MAX).words(),
            vec![u32::MAX - 1, u32::MAX, 1]
        );
        assert_eq!(
            Seed::from_words(&[u32::MAX, u32::MAX, u32::MAX])
                .plus(1)
                .words(),
            vec![0, 0, 0, 1]
        );
        assert_eq!(big.plus(3), Seed::from_words(&[8, 0, 1]));
        assert_eq!(Seed::from(7).plus(3), Seed::from(10));
    }

    #[test]
    fn a_seed_gives_numpys_generator_of_the_integer() {
        use rand::Rng;
        // Below 2^64 the u64 path, equal to the words path.
        let mut small = Seed::from_words(&[12, 34]).generator();
        let mut words = NumpyGenerator::from_seed_words(&[12, 34]);
        assert_eq!(small.next_u64(), words.next_u64());
        let mut large = Seed::from_words(&[5, 0, 1]).generator();
        let mut words = NumpyGenerator::from_seed_words(&[5, 0, 1]);
        assert_eq!(large.next_u64(), words.next_u64());
    }

    #[test]
    fn matches_the_reference_sequence() {
        // splitmix64.c by Sebastiano Vigna, state starting at 0 and at 1234567.
        let from_zero = [
            0xE220_A839_7B1D_CDAF,
            0x6E78_9E6A_A1B9_65F4,
            0x06C4_5D18_8009_454F,
            0xF88B_B8A8_724C_81EC,
        ];
        for (i, expected) in from_zero.into_iter().enumerate() {
            assert_eq!(derive_seed(0, i as u64), expected, "output {i}");
        }
        let from_1234567 = [
            6_457_827_717_110_365_317u64,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
        ];
        for (i, expected) in from_1234567.into_iter().enumerate() {
            assert_eq!(derive_seed(1_234_567, i as u64), expected, "output {i}");
        }
    }

    #[test]
    fn neighbouring_seeds_and_indices_differ() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..32 {
            for index in 0..32 {
                assert!(
                    seen.insert(derive_seed(seed, index)),
                    "collision at {seed}, {index}"
                );
            }
        }
    }
}
