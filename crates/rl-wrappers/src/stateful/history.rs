//! [`History`]: a ring buffer of the last observations of one component, stacked oldest first
//! with padding at the start of an episode ([`Padding`]).

use std::num::NonZeroUsize;

use rl_core::CoreError;
use rl_spaces::{FlatScalar, SpaceError};

/// What fills a history at the start of an episode, before there are enough observations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Padding {
    /// Every missing frame is a copy of the episode's first observation (Gymnasium's
    /// `FrameStackObservation` with `padding_type="reset"`).
    #[default]
    RepeatFirst,
    /// Every missing frame is zeros (deer's histories start from zeros).
    Zeros,
}

/// The last `length` frames of one observation component, each of a fixed `shape`, in a ring
/// buffer (deer's `inputDimensions` entry: a history length and a shape).
///
/// [`write_stacked`](Self::write_stacked) writes them oldest first, **newest last**, as an
/// array of shape `(length, shape...)`. Pushing overwrites the oldest frame in place, so
/// nothing is allocated after construction.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_wrappers::stateful::{History, Padding};
///
/// let length = NonZeroUsize::new(3).expect("non-zero");
/// let mut history = History::<f32>::new(length, &[2], Padding::Zeros)?;
/// history.reset(&[1.0, 1.5])?;
/// history.push(&[2.0, 2.5])?;
/// let mut stacked = [0.0; 6];
/// history.write_stacked(&mut stacked)?;
/// assert_eq!(stacked, [0.0, 0.0, 1.0, 1.5, 2.0, 2.5]);
/// assert_eq!(history.frame(0), Some(&[2.0, 2.5][..]));
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct History<T> {
    length: NonZeroUsize,
    shape: Vec<usize>,
    frame_len: usize,
    padding: Padding,
    frames: Vec<T>,
    oldest: usize,
    started: bool,
}

impl<T: FlatScalar> History<T> {
    /// A history of `length` frames of shape `shape`. Errors if the stacked array would have
    /// more entries than `usize` can count.
    pub fn new(length: NonZeroUsize, shape: &[usize], padding: Padding) -> Result<Self, CoreError> {
        let frame_len = shape
            .iter()
            .try_fold(1usize, |a, b| a.checked_mul(*b))
            .ok_or_else(|| {
                CoreError::invalid_parameter("shape", format!("{shape:?} is too large"))
            })?;
        let total = frame_len
            .checked_mul(length.get())
            .filter(|total| total.saturating_mul(size_of::<T>()) <= isize::MAX as usize)
            .ok_or_else(|| {
                CoreError::invalid_parameter(
                    "length",
                    format!("{length} frames of {shape:?} are too many"),
                )
            })?;
        Ok(History {
            length,
            shape: shape.to_vec(),
            frame_len,
            padding,
            frames: vec![T::ZERO; total],
            oldest: 0,
            started: false,
        })
    }

    /// The number of frames kept.
    pub fn length(&self) -> NonZeroUsize {
        self.length
    }

    /// The shape of one frame.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The shape of the stacked frames: `(length, shape...)`.
    pub fn stacked_shape(&self) -> Vec<usize> {
        std::iter::once(self.length.get())
            .chain(self.shape.iter().copied())
            .collect()
    }

    /// The number of entries of one frame.
    pub fn frame_len(&self) -> usize {
        self.frame_len
    }

    /// The number of entries of the stacked frames.
    pub fn stacked_len(&self) -> usize {
        self.frames.len()
    }

    /// What fills the history at the start of an episode.
    pub fn padding(&self) -> Padding {
        self.padding
    }

    /// Whether a first frame has been given since construction or [`clear`](Self::clear).
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// Starts a new episode whose first frame is `first`: the newest frame is `first` and every
    /// older one is padding. Errors if `first` does not have [`frame_len`](Self::frame_len)
    /// entries.
    pub fn reset(&mut self, first: &[T]) -> Result<(), CoreError> {
        self.check_frame(first)?;
        match self.padding {
            Padding::Zeros => self.frames.fill(T::ZERO),
            Padding::RepeatFirst => {
                for slot in self.frames.chunks_exact_mut(self.frame_len.max(1)) {
                    slot.copy_from_slice(first);
                }
            }
        }
        self.oldest = 0;
        let newest = self.slot_range(self.length.get() - 1);
        if let Some(slot) = self.frames.get_mut(newest) {
            slot.copy_from_slice(first);
        }
        self.started = true;
        Ok(())
    }

    /// Adds `frame` as the newest frame, forgetting the oldest. Before the first
    /// [`reset`](Self::reset) it acts as a reset. Errors if `frame` does not have
    /// [`frame_len`](Self::frame_len) entries.
    pub fn push(&mut self, frame: &[T]) -> Result<(), CoreError> {
        if !self.started {
            return self.reset(frame);
        }
        self.check_frame(frame)?;
        let oldest = self.slot_range(self.oldest);
        if let Some(slot) = self.frames.get_mut(oldest) {
            slot.copy_from_slice(frame);
        }
        self.oldest = (self.oldest + 1) % self.length.get();
        Ok(())
    }

    /// Writes the frames oldest first, newest last, into `out` (of
    /// [`stacked_len`](Self::stacked_len) entries). Before the first frame, every entry is
    /// zero.
    pub fn write_stacked(&self, out: &mut [T]) -> Result<(), CoreError> {
        if out.len() != self.frames.len() {
            return Err(length_error("stacked buffer", self.frames.len(), out.len()));
        }
        let split = (self.oldest * self.frame_len).min(self.frames.len());
        let (newer, older) = self.frames.split_at(split);
        let (first, second) = out.split_at_mut(older.len());
        first.copy_from_slice(older);
        second.copy_from_slice(newer);
        Ok(())
    }

    /// The frame `age` steps old: 0 is the newest, `length - 1` the oldest (padding included).
    pub fn frame(&self, age: usize) -> Option<&[T]> {
        let length = self.length.get();
        if age >= length {
            return None;
        }
        let slot = (self.oldest + length - 1 - age) % length;
        self.frames.get(self.slot_range(slot))
    }

    /// Forgets every frame: the history is zeros until the next reset.
    pub fn clear(&mut self) {
        self.frames.fill(T::ZERO);
        self.oldest = 0;
        self.started = false;
    }

    fn slot_range(&self, slot: usize) -> std::ops::Range<usize> {
        slot * self.frame_len..(slot + 1) * self.frame_len
    }

    fn check_frame(&self, frame: &[T]) -> Result<(), CoreError> {
        if frame.len() == self.frame_len {
            Ok(())
        } else {
            Err(length_error("history frame", self.frame_len, frame.len()))
        }
    }
}

fn length_error(what: &'static str, expected: usize, found: usize) -> CoreError {
    CoreError::Space(SpaceError::LengthMismatch {
        what,
        expected,
        found,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history(length: usize, padding: Padding) -> History<f64> {
        History::new(NonZeroUsize::new(length).expect("non-zero"), &[1], padding).expect("valid")
    }

    fn stacked(history: &History<f64>) -> Vec<f64> {
        let mut out = vec![f64::NAN; history.stacked_len()];
        history.write_stacked(&mut out).expect("right length");
        out
    }

    #[test]
    fn newest_is_last_and_the_oldest_is_forgotten() {
        let mut h = history(3, Padding::RepeatFirst);
        h.reset(&[1.0]).expect("reset");
        assert_eq!(stacked(&h), [1.0, 1.0, 1.0]);
        for x in 2..=5 {
            h.push(&[f64::from(x)]).expect("push");
        }
        assert_eq!(stacked(&h), [3.0, 4.0, 5.0]);
        assert_eq!(h.frame(0), Some(&[5.0][..]));
        assert_eq!(h.frame(2), Some(&[3.0][..]));
        assert_eq!(h.frame(3), None);
    }

    #[test]
    fn zero_padding_fills_the_start() {
        let mut h = history(3, Padding::Zeros);
        h.reset(&[7.0]).expect("reset");
        h.push(&[8.0]).expect("push");
        assert_eq!(stacked(&h), [0.0, 7.0, 8.0]);
        // A new episode forgets the last one.
        h.reset(&[9.0]).expect("reset");
        assert_eq!(stacked(&h), [0.0, 0.0, 9.0]);
    }

    #[test]
    fn a_history_of_one_is_the_last_frame() {
        let mut h = history(1, Padding::Zeros);
        h.push(&[1.0]).expect("a first push resets");
        h.push(&[2.0]).expect("push");
        assert_eq!(stacked(&h), [2.0]);
    }

    #[test]
    fn wrong_lengths_are_errors() {
        let mut h = history(2, Padding::Zeros);
        assert!(h.reset(&[1.0, 2.0]).is_err());
        assert!(h.push(&[]).is_err());
        assert!(h.write_stacked(&mut [0.0; 3]).is_err());
        assert!(!h.is_started());
        assert_eq!(stacked(&h), [0.0, 0.0]);
    }

    #[test]
    fn multi_dimensional_frames_stack_along_a_new_first_axis() {
        let mut h =
            History::<f32>::new(NonZeroUsize::MIN.saturating_add(1), &[2, 2], Padding::Zeros)
                .expect("valid");
        assert_eq!(h.stacked_shape(), [2, 2, 2]);
        h.reset(&[1.0, 2.0, 3.0, 4.0]).expect("reset");
        let mut out = [0.0; 8];
        h.write_stacked(&mut out).expect("write");
        assert_eq!(out, [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]);
        h.clear();
        assert!(!h.is_started());
    }

    #[test]
    fn overflowing_shapes_are_refused() {
        let huge = NonZeroUsize::new(usize::MAX).expect("non-zero");
        assert!(History::<f32>::new(huge, &[2], Padding::Zeros).is_err());
        assert!(History::<f32>::new(NonZeroUsize::MIN, &[usize::MAX, 2], Padding::Zeros).is_err());
    }
}
