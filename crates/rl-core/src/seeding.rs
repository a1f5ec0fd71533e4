//! [`derive_seed`]: the rule for turning one seed into many (SplitMix64) where no reference
//! prescribes one: the experiment harness's run seeds and streams, a sticky-action wrapper's
//! generator.
//!
//! Environments follow Gymnasium's rules instead: a seed makes numpy's generator
//! ([`NumpyGenerator`](crate::NumpyGenerator)`::seed_from_u64(seed)`), and environment `i` of
//! a vector is seeded with `seed + i`.

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

#[cfg(test)]
mod tests {
    use super::*;

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
