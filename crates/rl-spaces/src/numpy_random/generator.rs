//! [`NumpyGenerator`]: numpy's `Generator(PCG64(SeedSequence(seed)))` as a `rand` generator.

use std::convert::Infallible;
use std::fmt;

use rand::{SeedableRng, TryRng};
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use super::SeedSequence;

/// numpy's default generator, `numpy.random.Generator(PCG64(SeedSequence(seed)))`, bit for bit:
/// the generator Gymnasium's `reset(seed=...)` and `space.seed(...)` make.
///
/// - **Seeding**: [`SeedSequence`] hashes the seed into four `u64`, which seed PCG64's 128-bit
///   LCG (the same LCG and output function as `rand_pcg::Pcg64`, which this type wraps).
///   [`seed_from_u64`](SeedableRng::seed_from_u64) and [`from_seed_u128`](Self::from_seed_u128)
///   follow numpy's rule, so `NumpyGenerator::seed_from_u64(42)` draws what
///   `np.random.default_rng(42)` draws; [`from_seed`](SeedableRng::from_seed) takes the four
///   words directly (numpy's `generate_state(4, np.uint64)`, little-endian bytes).
/// - **32-bit draws are buffered** as in numpy's PCG64: [`next_u32`](rand::Rng::next_u32) with
///   the buffer empty draws a `u64`, returns its low half and keeps the high half for the next
///   `next_u32`; [`next_u64`](rand::Rng::next_u64) never touches the buffer. The buffer is part
///   of the state: it is compared, cloned, saved and restored with it.
/// - **numpy's algorithms** on top of it (`random`, `uniform`, `integers`, `choice`, `shuffle`)
///   are the functions of [`numpy_random`](crate::numpy_random), generic over any
///   [`rand::Rng`]; given this generator they return numpy's numbers.
///
/// ```
/// use rl_spaces::NumpyGenerator;
/// use rl_spaces::numpy_random::{integers, uniform};
/// use rand::SeedableRng;
///
/// // np.random.default_rng(0): random() == 0.6369616873214543 first.
/// let mut rng = NumpyGenerator::seed_from_u64(0);
/// assert_eq!(uniform(&mut rng, 0.0, 1.0), 0.6369616873214543);
/// assert_eq!(integers(&mut rng, 0, 10), Some(5));
/// ```
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumpyGenerator {
    /// PCG64's LCG and output function.
    pcg: Pcg64,
    /// The high half of the last `u64` drawn for a 32-bit draw, while it waits to be used
    /// (numpy's `has_uint32` and `uinteger`).
    buffered: Option<u32>,
}

impl NumpyGenerator {
    /// The generator of numpy's `Generator(PCG64(seed_sequence))`.
    pub fn from_seed_sequence(seed_sequence: &SeedSequence) -> Self {
        NumpyGenerator::from_words(seed_sequence.generate_state_u64x4())
    }

    /// numpy's `Generator(PCG64(SeedSequence(seed)))` for a seed of up to 128 bits.
    pub fn from_seed_u128(seed: u128) -> Self {
        NumpyGenerator::from_seed_sequence(&SeedSequence::from_u128(seed))
    }

    /// numpy's `Generator(PCG64(SeedSequence(seed)))` for the non-negative integer whose 32-bit
    /// words, least significant first, are `words` (a Python integer of any size).
    pub fn from_seed_words(words: &[u32]) -> Self {
        NumpyGenerator::from_seed_sequence(&SeedSequence::from_words(words))
    }

    /// PCG64 seeded as numpy's `pcg64_set_seed` does from four words: the initial state
    /// `w0 << 64 | w1` and the sequence `w2 << 64 | w3`.
    fn from_words(words: [u64; 4]) -> Self {
        let initial_state = (u128::from(words[0]) << 64) | u128::from(words[1]);
        let sequence = (u128::from(words[2]) << 64) | u128::from(words[3]);
        NumpyGenerator {
            pcg: Pcg64::new(initial_state, sequence),
            buffered: None,
        }
    }

    /// A generator in the given state: PCG64's 128-bit `state` and `inc` (numpy's
    /// `bit_generator.state["state"]`, whose `inc` is always odd: an even `inc` is made odd by
    /// setting its lowest bit) and the buffered 32-bit half, if any (numpy's `has_uint32` and
    /// `uinteger`).
    pub fn from_state(state: u128, inc: u128, buffered: Option<u32>) -> Self {
        NumpyGenerator {
            pcg: Pcg64::from_state(state, inc >> 1),
            buffered,
        }
    }

    /// PCG64's 128-bit state (numpy's `bit_generator.state["state"]["state"]`).
    pub fn state(&self) -> u128 {
        self.pcg.state()
    }

    /// PCG64's increment, always odd (numpy's `bit_generator.state["state"]["inc"]`).
    pub fn inc(&self) -> u128 {
        (self.pcg.stream() << 1) | 1
    }

    /// The buffered high half of a `u64` waiting for the next 32-bit draw, if any.
    pub fn buffered_u32(&self) -> Option<u32> {
        self.buffered
    }
}

impl fmt::Debug for NumpyGenerator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NumpyGenerator")
            .field("state", &format_args!("{:#x}", self.state()))
            .field("inc", &format_args!("{:#x}", self.inc()))
            .field("buffered", &self.buffered)
            .finish()
    }
}

impl TryRng for NumpyGenerator {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        if let Some(high) = self.buffered.take() {
            return Ok(high);
        }
        let next = self.pcg.try_next_u64()?;
        self.buffered = Some((next >> 32) as u32);
        Ok(next as u32)
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.pcg.try_next_u64()
    }

    fn try_fill_bytes(&mut self, destination: &mut [u8]) -> Result<(), Infallible> {
        // numpy's `bytes(n)` is not used by any reference environment; bytes come from whole
        // `u64` draws, little-endian, as `rand_pcg::Pcg64` fills them.
        self.pcg.try_fill_bytes(destination)
    }
}

impl SeedableRng for NumpyGenerator {
    /// The four `u64` that seed PCG64 (numpy's `SeedSequence.generate_state(4, np.uint64)`),
    /// little-endian.
    type Seed = [u8; 32];

    /// PCG64 seeded with four little-endian `u64` words as numpy's `pcg64_set_seed` takes them,
    /// with no [`SeedSequence`] hashing.
    fn from_seed(seed: [u8; 32]) -> Self {
        let word = |i: usize| {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&seed[8 * i..8 * i + 8]);
            u64::from_le_bytes(bytes)
        };
        NumpyGenerator::from_words([word(0), word(1), word(2), word(3)])
    }

    /// numpy's `Generator(PCG64(SeedSequence(seed)))`: Gymnasium's `reset(seed=seed)` generator.
    fn seed_from_u64(seed: u64) -> Self {
        NumpyGenerator::from_seed_sequence(&SeedSequence::from_u64(seed))
    }
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;

    #[test]
    fn a_32_bit_draw_keeps_the_high_half_for_the_next_one() {
        let mut generator = NumpyGenerator::seed_from_u64(5);
        let mut reference = generator.clone();
        let whole = reference.next_u64();
        assert_eq!(generator.next_u32(), whole as u32);
        assert_eq!(generator.buffered_u32(), Some((whole >> 32) as u32));
        // A 64-bit draw leaves the buffer alone.
        assert_eq!(generator.next_u64(), reference.next_u64());
        assert_eq!(generator.next_u32(), (whole >> 32) as u32);
        assert_eq!(generator.buffered_u32(), None);
    }

    #[test]
    fn state_round_trips_through_its_parts_and_serde() {
        let mut generator = NumpyGenerator::seed_from_u64(11);
        generator.next_u32();
        let rebuilt = NumpyGenerator::from_state(
            generator.state(),
            generator.inc(),
            generator.buffered_u32(),
        );
        assert_eq!(rebuilt, generator);
        let json = serde_json::to_string(&generator).expect("serializes");
        let read: NumpyGenerator = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(read, generator);
    }

    #[test]
    fn from_seed_is_seeding_without_the_hash() {
        let words = SeedSequence::from_u64(3).generate_state_u64x4();
        let mut bytes = [0u8; 32];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        assert_eq!(
            NumpyGenerator::from_seed(bytes),
            NumpyGenerator::seed_from_u64(3)
        );
        assert_eq!(
            NumpyGenerator::seed_from_u64(3),
            NumpyGenerator::from_seed_u128(3)
        );
    }
}
