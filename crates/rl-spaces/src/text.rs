//! [`Text`]: strings of a bounded length over a character set (Gymnasium's `Text`).

use std::fmt;

use rand::Rng;
use serde_json::Value;

use crate::SpaceError;
use crate::json::describe;
use crate::numpy_random::{choice_weighted, integers};
use crate::space::{FlatScalar, FlattenSpace, JsonSpace, SampleSpace, Space};

/// Gymnasium's default character set (`gymnasium.spaces.text.alphanumeric`) in the order
/// Gymnasium uses it: Gymnasium sorts a set of characters, so digits come first, then upper and
/// lower case letters.
pub const ALPHANUMERIC: &str = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The strings of `min_length` to `max_length` characters (both included, counted in Unicode
/// scalar values as Python counts `len`) drawn from a character set (Gymnasium's
/// `Text(max_length, min_length=..., charset=...)`).
///
/// The character set is ordered: the order numbers the characters for sampling, masks and
/// flattening, as Gymnasium's `character_list` does. Gymnasium sorts a `set` given as charset
/// and keeps the order of a `str`; here the charset is always a string, in the order given.
///
/// - **Elements** are `String`s; element JSON is the string itself (Gymnasium's `to_jsonable`).
/// - **Sampling** follows Gymnasium draw for draw (see [`Text::sample_masked`]): the length is
///   `integers(min_length, max_length + 1)`, then each character is numpy's `choice` over the
///   character list with uniform probabilities (one `random()` per character).
/// - **Flattening** gives Gymnasium's `flatten` of a Text: `max_length` numbers, the index of
///   each character in the charset, padded with the charset's length (Gymnasium's
///   `flatten_space` of a Text is `Box(0, len(charset), (max_length,), int32)`).
///
/// ```
/// use rand::SeedableRng;
/// use rl_spaces::{FlattenSpace, NumpyGenerator, SampleSpace, Space, Text};
///
/// let mission = Text::new(1, 8, "abc ")?;
/// let mut rng = NumpyGenerator::seed_from_u64(3);
/// let sample = mission.sample(&mut rng);
/// assert!(mission.contains(&sample));
/// assert!(!mission.contains(&"abcd".to_owned()));
///
/// // Flattened: indices in the charset, padded with its length (4).
/// assert_eq!(mission.flatten::<f64>(&"cab".to_owned())?, [2.0, 0.0, 1.0, 4.0, 4.0, 4.0, 4.0, 4.0]);
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    min_length: usize,
    max_length: usize,
    charset: Vec<char>,
    /// The charset's characters with their index, sorted by character (for membership).
    sorted: Vec<(char, u32)>,
    /// The index of each ASCII character in the charset ([`NOT_IN_CHARSET`] for those not in
    /// it): the lookup of [`character_index`](Text::character_index) for the characters of
    /// most charsets (a BabyAI vector looks up every character of 1024 missions each step).
    ascii: [u32; 128],
}

/// The entry of [`Text`]'s ASCII table for a character outside the charset.
const NOT_IN_CHARSET: u32 = u32::MAX;

/// A mask or probability vector over a Text's charset, with the length to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum CharsetWeights<'a> {
    /// Uniform over the charset.
    Uniform,
    /// A 0/1 mask of the allowed characters (Gymnasium's `int8` mask).
    Mask(&'a [i8]),
    /// A probability for each character (Gymnasium's `float64` probability).
    Probability(&'a [f64]),
}

impl Text {
    /// The strings of `min_length..=max_length` characters of `charset`, in its order.
    ///
    /// Errors if `min_length > max_length`, if `max_length` exceeds
    /// [`MAX_FLAT_LEN`](crate::MAX_FLAT_LEN) (the length of the flat vector), or if the charset
    /// is empty or holds a character twice (Gymnasium drops repeated characters silently; here
    /// they are refused, since the order would be ambiguous).
    pub fn new(min_length: usize, max_length: usize, charset: &str) -> Result<Self, SpaceError> {
        if min_length > max_length {
            return Err(SpaceError::invalid(
                "Text",
                format!(
                    "min_length ({min_length}) must be less than or equal to max_length ({max_length})"
                ),
            ));
        }
        crate::limits::check_size("Text", "characters of max_length", max_length as u128)?;
        // The length in bytes bounds the number of characters: checked before collecting.
        crate::limits::check_size("Text", "bytes of charset", charset.len() as u128)?;
        if charset.is_empty() {
            return Err(SpaceError::invalid("Text", "the charset is empty"));
        }
        let chars: Vec<char> = charset.chars().collect();
        let mut sorted: Vec<(char, u32)> = chars
            .iter()
            .enumerate()
            .map(|(i, c)| (*c, i as u32))
            .collect();
        sorted.sort_unstable();
        if let Some(pair) = sorted.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            return Err(SpaceError::invalid(
                "Text",
                format!(
                    "the charset holds {:?} twice (at {} and {})",
                    pair[0].0,
                    pair[0].1.min(pair[1].1),
                    pair[0].1.max(pair[1].1)
                ),
            ));
        }
        let mut ascii = [NOT_IN_CHARSET; 128];
        for &(c, index) in &sorted {
            if c.is_ascii() {
                ascii[c as usize] = index;
            }
        }
        Ok(Text {
            min_length,
            max_length,
            charset: chars,
            sorted,
            ascii,
        })
    }

    /// Gymnasium's `Text(max_length)`: 1 to `max_length` characters of [`ALPHANUMERIC`].
    pub fn with_max_length(max_length: usize) -> Result<Self, SpaceError> {
        Text::new(1.min(max_length), max_length, ALPHANUMERIC)
    }

    /// The fewest characters of an element.
    pub fn min_length(&self) -> usize {
        self.min_length
    }

    /// The most characters of an element.
    pub fn max_length(&self) -> usize {
        self.max_length
    }

    /// The characters, in the order that numbers them (Gymnasium's `character_list`).
    pub fn charset(&self) -> &[char] {
        &self.charset
    }

    /// The charset as a string, in its order.
    pub fn charset_string(&self) -> String {
        self.charset.iter().collect()
    }

    /// The index of `c` in the charset (Gymnasium's `character_index`), if it is in it.
    pub fn character_index(&self, c: char) -> Option<usize> {
        if c.is_ascii() {
            let index = self.ascii[c as usize];
            return (index != NOT_IN_CHARSET).then_some(index as usize);
        }
        self.sorted
            .binary_search_by_key(&c, |(ch, _)| *ch)
            .ok()
            .map(|i| self.sorted[i].1 as usize)
    }

    /// Draws a string as Gymnasium's `Text.sample(mask=(length, charset_mask))` does: `length`
    /// (if given, between `min_length` and `max_length`) or else
    /// `integers(min_length, max_length + 1)`, then one `choice` per character with the
    /// charset mask's allowed characters equally likely (a mask of 0s and 1s, one per
    /// character of the charset; `None` for all allowed).
    ///
    /// An all-zero mask gives the empty string (after the length is drawn) when `min_length`
    /// is 0, and an error otherwise, as in Gymnasium.
    pub fn sample_masked<R: Rng + ?Sized>(
        &self,
        length: Option<usize>,
        charset_mask: Option<&[i8]>,
        rng: &mut R,
    ) -> Result<String, SpaceError> {
        self.sample_with(
            length,
            charset_mask.map_or(CharsetWeights::Uniform, CharsetWeights::Mask),
            rng,
        )
    }

    /// Draws a string as Gymnasium's `Text.sample(probability=(length, charset_probability))`
    /// does: like [`sample_masked`](Self::sample_masked), with each character drawn with its
    /// probability (non-negative, at most 1, summing to 1 within numpy's tolerance).
    pub fn sample_probability<R: Rng + ?Sized>(
        &self,
        length: Option<usize>,
        charset_probability: Option<&[f64]>,
        rng: &mut R,
    ) -> Result<String, SpaceError> {
        self.sample_with(
            length,
            charset_probability.map_or(CharsetWeights::Uniform, CharsetWeights::Probability),
            rng,
        )
    }

    /// Checks a length and charset weights as Gymnasium's `Text.sample` does, drawing nothing.
    pub(crate) fn check_weights(
        &self,
        length: Option<usize>,
        weights: CharsetWeights<'_>,
    ) -> Result<(), SpaceError> {
        if let Some(length) = length
            && !(self.min_length..=self.max_length).contains(&length)
        {
            return Err(self.mask_error(format!(
                "the length {length} is not between min_length {} and max_length {}",
                self.min_length, self.max_length
            )));
        }
        match weights {
            CharsetWeights::Uniform => {}
            CharsetWeights::Mask(mask) => {
                self.check_mask_len("charset mask", mask.len())?;
                if let Some((i, v)) = mask.iter().enumerate().find(|(_, v)| !matches!(**v, 0 | 1)) {
                    return Err(self.mask_error(format!(
                        "charset mask entry {i} is {v}; entries must be 0 or 1"
                    )));
                }
                if length.is_none_or(|n| n > 0)
                    && self.min_length > 0
                    && mask.iter().all(|v| *v == 0)
                {
                    return Err(self.mask_error(format!(
                        "the charset mask allows no character but min_length is {}",
                        self.min_length
                    )));
                }
            }
            CharsetWeights::Probability(p) => {
                self.check_mask_len("charset probability", p.len())?;
                crate::mask::check_probabilities(p)
                    .map_err(|reason| self.mask_error(format!("charset probability: {reason}")))?;
            }
        }
        Ok(())
    }

    /// The one sampler behind the others: validates, then draws as Gymnasium does.
    pub(crate) fn sample_with<R: Rng + ?Sized>(
        &self,
        length: Option<usize>,
        weights: CharsetWeights<'_>,
        rng: &mut R,
    ) -> Result<String, SpaceError> {
        self.check_weights(length, weights)?;
        // The probabilities Gymnasium hands to numpy's `choice`: a mask divided by its sum.
        let probabilities: Option<Vec<f64>> = match weights {
            CharsetWeights::Uniform => None,
            CharsetWeights::Mask(mask) => {
                let allowed = mask.iter().filter(|v| **v == 1).count();
                Some(if allowed == 0 {
                    vec![0.0; mask.len()]
                } else {
                    mask.iter()
                        .map(|v| f64::from(*v) / allowed as f64)
                        .collect()
                })
            }
            CharsetWeights::Probability(p) => Some(p.to_vec()),
        };
        let length = match length {
            Some(length) => length,
            // Cannot fail: min_length <= max_length < 2^24.
            None => integers(rng, self.min_length as i64, self.max_length as i64 + 1)
                .unwrap_or(self.min_length as i64) as usize,
        };
        let n = self.charset.len();
        match &probabilities {
            Some(p) if p.iter().all(|v| *v == 0.0) => {
                if self.min_length == 0 {
                    Ok(String::new())
                } else {
                    Err(self.mask_error(format!(
                        "the charset mask allows no character but min_length is {}",
                        self.min_length
                    )))
                }
            }
            _ => {
                let uniform;
                let p = match &probabilities {
                    Some(p) => p.as_slice(),
                    None => {
                        uniform = vec![1.0 / n as f64; n];
                        uniform.as_slice()
                    }
                };
                let mut out = String::with_capacity(length);
                for _ in 0..length {
                    // The probabilities were checked above, so a choice is always made.
                    let i = choice_weighted(rng, p).unwrap_or(0);
                    out.push(self.charset[i]);
                }
                Ok(out)
            }
        }
    }

    fn check_mask_len(&self, what: &str, found: usize) -> Result<(), SpaceError> {
        if found != self.charset.len() {
            return Err(self.mask_error(format!(
                "{what} has length {found}, expected {} (one entry per character)",
                self.charset.len()
            )));
        }
        Ok(())
    }

    fn mask_error(&self, reason: String) -> SpaceError {
        SpaceError::InvalidMask {
            space: self.to_string(),
            reason,
        }
    }
}

impl fmt::Display for Text {
    /// Gymnasium's `repr`: `Text(1, 8, charset=abc)`, the characters sorted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Text({}, {}, charset=", self.min_length, self.max_length)?;
        for (c, _) in &self.sorted {
            write!(f, "{c}")?;
        }
        write!(f, ")")
    }
}

impl Space for Text {
    type Element = String;

    fn contains(&self, x: &String) -> bool {
        let mut count = 0usize;
        for c in x.chars() {
            count += 1;
            if count > self.max_length || self.character_index(c).is_none() {
                return false;
            }
        }
        count >= self.min_length
    }
}

impl SampleSpace for Text {
    /// Gymnasium's `Text.sample()` with the generator passed in.
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> String {
        // Uniform sampling validates nothing, so it cannot fail.
        self.sample_with(None, CharsetWeights::Uniform, rng)
            .unwrap_or_default()
    }
}

impl FlattenSpace for Text {
    fn flat_dim(&self) -> usize {
        self.max_length
    }

    fn flatten_into<F: FlatScalar>(&self, x: &String, out: &mut [F]) -> Result<(), SpaceError> {
        if out.len() != self.max_length {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.max_length,
                found: out.len(),
            });
        }
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        let padding = F::from_f64(self.charset.len() as f64);
        out.fill(padding);
        for (slot, c) in out.iter_mut().zip(x.chars()) {
            // Every character is in the charset (checked above).
            *slot = F::from_f64(self.character_index(c).unwrap_or(0) as f64);
        }
        Ok(())
    }

    /// Reads the characters back from their indices. Stricter than Gymnasium's `unflatten`
    /// (which skips every padding value wherever it is): the padding must follow the
    /// characters, each value must be an integer from 0 to the charset's length, and the
    /// string must have at least `min_length` characters.
    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<String, SpaceError> {
        if flat.len() != self.max_length {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.max_length,
                found: flat.len(),
            });
        }
        let n = self.charset.len();
        let mut out = String::new();
        let mut padded = false;
        for (i, v) in flat.iter().enumerate() {
            let v = v.to_f64();
            if !(v >= 0.0 && v <= n as f64 && v.fract() == 0.0) {
                return Err(SpaceError::flat(format!(
                    "entry {i} of a flat Text is {v}, not a character index from 0 to {n}"
                )));
            }
            let index = v as usize;
            if index == n {
                padded = true;
            } else if padded {
                return Err(SpaceError::flat(format!(
                    "entry {i} of a flat Text is a character after the padding"
                )));
            } else {
                out.push(self.charset[index]);
            }
        }
        if !self.contains(&out) {
            return Err(SpaceError::flat(format!(
                "the flat vector gives {out:?}, which is not an element of {self}"
            )));
        }
        Ok(out)
    }
}

impl JsonSpace for Text {
    fn element_to_json(&self, x: &String) -> Result<Value, SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::not_in_space(x, self));
        }
        Ok(Value::String(x.clone()))
    }

    fn element_from_json(&self, value: &Value) -> Result<String, SpaceError> {
        let text = value.as_str().ok_or_else(|| {
            SpaceError::json(format!("expected a string, found {}", describe(value)))
        })?;
        let text = text.to_owned();
        if !self.contains(&text) {
            return Err(SpaceError::not_in_space(&text, self));
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::NumpyGenerator;

    #[test]
    fn construction_is_validated() {
        assert!(Text::new(3, 2, "ab").is_err());
        assert!(Text::new(0, 2, "").is_err());
        let error = Text::new(0, 2, "aba").unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid Text space: the charset holds 'a' twice (at 0 and 2)"
        );
        assert!(matches!(
            Text::new(0, usize::MAX, "a"),
            Err(SpaceError::TooLarge { .. })
        ));
        assert_eq!(
            Text::with_max_length(5).unwrap().to_string(),
            format!("Text(1, 5, charset={ALPHANUMERIC})")
        );
        assert_eq!(
            Text::new(0, 1, "ba").unwrap().to_string(),
            "Text(0, 1, charset=ab)"
        );
    }

    #[test]
    fn membership_counts_characters_not_bytes() {
        let space = Text::new(1, 2, "éa").unwrap();
        assert!(space.contains(&"éé".to_owned()));
        assert!(!space.contains(&"ééé".to_owned()));
        assert!(!space.contains(&String::new()));
        assert!(!space.contains(&"b".to_owned()));
        assert_eq!(space.character_index('a'), Some(1));
    }

    #[test]
    fn character_indices_are_positions_in_the_charset_ascii_or_not() {
        let charset = "z é,a\u{7f}\u{0}日b";
        let space = Text::new(0, 3, charset).unwrap();
        for (position, c) in charset.chars().enumerate() {
            assert_eq!(space.character_index(c), Some(position), "{c:?}");
        }
        for c in ['c', 'A', '\u{1}', 'è', '月', '\u{10ffff}'] {
            assert_eq!(space.character_index(c), None, "{c:?}");
        }
    }

    #[test]
    fn masks_are_validated_and_obeyed() {
        let space = Text::new(0, 4, "abcd").unwrap();
        let mut rng = NumpyGenerator::seed_from_u64(1);
        for _ in 0..50 {
            let s = space
                .sample_masked(Some(3), Some(&[0, 1, 0, 1]), &mut rng)
                .unwrap();
            assert_eq!(s.chars().count(), 3);
            assert!(s.chars().all(|c| c == 'b' || c == 'd'), "{s}");
        }
        assert_eq!(
            space.sample_masked(None, Some(&[0; 4]), &mut rng).unwrap(),
            ""
        );
        let error = space.sample_masked(Some(5), None, &mut rng).unwrap_err();
        assert!(
            error.to_string().contains("the length 5 is not between"),
            "{error}"
        );
        let error = space
            .sample_masked(None, Some(&[0, 2, 0, 0]), &mut rng)
            .unwrap_err();
        assert!(error.to_string().contains("must be 0 or 1"), "{error}");
        let error = space
            .sample_probability(None, Some(&[0.5, 0.6, 0.0, 0.0]), &mut rng)
            .unwrap_err();
        assert!(error.to_string().contains("sum"), "{error}");
        let strict = Text::new(1, 4, "abcd").unwrap();
        assert!(strict.sample_masked(None, Some(&[0; 4]), &mut rng).is_err());
    }

    #[test]
    fn unflatten_is_strict() {
        let space = Text::new(1, 3, "ab").unwrap();
        assert_eq!(space.unflatten(&[1.0f64, 0.0, 2.0]).unwrap(), "ba");
        assert!(space.unflatten(&[2.0f64, 0.0, 2.0]).is_err());
        assert!(space.unflatten(&[2.0f64, 2.0, 2.0]).is_err());
        assert!(space.unflatten(&[0.5f64, 2.0, 2.0]).is_err());
        assert!(space.unflatten(&[3.0f64, 2.0, 2.0]).is_err());
    }
}
