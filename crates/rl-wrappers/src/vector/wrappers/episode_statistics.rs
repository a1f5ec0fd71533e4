//! [`VectorEpisodeStatistics`]: the return, length and wall time of every episode that ends,
//! per environment of a vector, and a window of the last episodes (Gymnasium's vector
//! `RecordEpisodeStatistics`).

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::time::Instant;

use rl_core::Mode;

use crate::error::VectorError;
use crate::vector::Autoreset;
use crate::vector::wrappers::{VectorEnv, forward_vector, vector_accessors};

/// Records the episodes of every environment of a vector: after each step,
/// [`episode_ended`](Self::episode_ended) marks the environments whose episode ended on it,
/// with that episode's return ([`episode_returns`](Self::episode_returns), the sum of its
/// rewards), length ([`episode_lengths`](Self::episode_lengths), its steps) and wall time in
/// seconds ([`episode_times`](Self::episode_times)); the last `window` episodes of all
/// environments are kept in [`return_window`](Self::return_window) and
/// [`length_window`](Self::length_window) (100 by default, Gymnasium's `buffer_length`).
///
/// Where infos are a map (the Python package), an ended environment's entry is Gymnasium's
/// `{"episode": {"r": return, "l": length, "t": time}}` with `"_episode"` the mask.
///
/// Every [`Autoreset`] mode counts the same episodes: with [`Autoreset::NextStep`] the step
/// that resets an environment (reward 0, its action ignored) belongs to no episode; with
/// [`Autoreset::SameStep`] the ending step is the episode's last; with
/// [`Autoreset::Disabled`] the next episode starts at `reset_ended`. Returns and lengths
/// depend only on the inner vector's rewards and flags; times read the clock and change
/// nothing else. Nothing allocates per step.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::{Corridor, LEFT, RIGHT};
/// use rl_core::{Mode, Simulator};
/// use rl_wrappers::vector::{EnvironmentVector, VectorEnv, VectorEpisodeStatistics, VectorOptions};
///
/// let count = NonZeroUsize::new(2).expect("non-zero");
/// let vector = EnvironmentVector::<_, f32>::from_environments(count, 0, VectorOptions::new(), |_| {
///     Simulator::new(Corridor::new(3, 0.0).expect("valid"), 0)
/// })?;
/// let mut env = VectorEpisodeStatistics::new(vector);
/// env.reset(Mode::Training)?;
/// env.step(&[RIGHT, LEFT])?;
/// env.step(&[RIGHT, RIGHT])?; // environment 0 reaches the end
/// assert_eq!(env.episode_ended(), &[true, false]);
/// assert_eq!((env.episode_returns()[0], env.episode_lengths()[0]), (-2.0, 2));
/// assert_eq!(env.return_window().collect::<Vec<_>>(), [-2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct VectorEpisodeStatistics<V> {
    inner: V,
    running_returns: Vec<f64>,
    running_lengths: Vec<u64>,
    starts: Vec<Instant>,
    ended: Vec<bool>,
    returns: Vec<f64>,
    lengths: Vec<u64>,
    times: Vec<f64>,
    /// The indices set in `ended`, `returns`, `lengths` and `times`, to clear on the next
    /// step (a few per step, where clearing every entry would write all four slices).
    marked: Vec<usize>,
    /// The environments whose flags a step must look at (ended now or on the step before),
    /// refilled on each step (its capacity is the vector's length, so it never allocates).
    flagged: Vec<usize>,
    /// Per environment, 1 where any of its flags is set: the scratch of [`list_flagged`].
    any_flag: Vec<u8>,
    previously_ended: Vec<bool>,
    window: usize,
    return_window: VecDeque<f64>,
    length_window: VecDeque<u64>,
    episodes: u64,
}

impl<V: VectorEnv> VectorEpisodeStatistics<V> {
    /// Records the episodes of `inner`, keeping a window of the last 100.
    pub fn new(inner: V) -> Self {
        VectorEpisodeStatistics::with_window(
            inner,
            NonZeroUsize::new(100).unwrap_or(NonZeroUsize::MIN),
        )
    }

    /// Records the episodes of `inner`, keeping a window of the last `window`.
    pub fn with_window(inner: V, window: NonZeroUsize) -> Self {
        let len = inner.len();
        let now = Instant::now();
        VectorEpisodeStatistics {
            inner,
            running_returns: vec![0.0; len],
            running_lengths: vec![0; len],
            starts: vec![now; len],
            ended: vec![false; len],
            returns: vec![0.0; len],
            lengths: vec![0; len],
            times: vec![0.0; len],
            marked: Vec::with_capacity(len),
            flagged: Vec::with_capacity(len),
            any_flag: vec![0; len],
            previously_ended: vec![false; len],
            window: window.get(),
            return_window: VecDeque::with_capacity(window.get()),
            length_window: VecDeque::with_capacity(window.get()),
            episodes: 0,
        }
    }

    vector_accessors!();

    /// Which environments' episodes ended on the last step.
    pub fn episode_ended(&self) -> &[bool] {
        &self.ended
    }

    /// The indices of the environments whose episodes ended on the last step, in increasing
    /// order: the entries set in [`episode_ended`](Self::episode_ended) and the slices beside
    /// it (few, where those slices have an entry per environment).
    pub fn ended_indices(&self) -> &[usize] {
        &self.marked
    }

    /// The return of the episode each marked environment ended on the last step (0 elsewhere).
    pub fn episode_returns(&self) -> &[f64] {
        &self.returns
    }

    /// The length in steps of the episode each marked environment ended on the last step (0
    /// elsewhere).
    pub fn episode_lengths(&self) -> &[u64] {
        &self.lengths
    }

    /// The wall time in seconds of the episode each marked environment ended on the last step
    /// (0 elsewhere).
    pub fn episode_times(&self) -> &[f64] {
        &self.times
    }

    /// The returns of the last episodes (at most the window), oldest first.
    pub fn return_window(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        self.return_window.iter().copied()
    }

    /// The lengths of the last episodes (at most the window), oldest first.
    pub fn length_window(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        self.length_window.iter().copied()
    }

    /// The number of episodes that ended since this wrapper was made.
    pub fn episode_count(&self) -> u64 {
        self.episodes
    }

    /// Starts a new episode for every environment marked in `which` (every one if `None`).
    fn restart(&mut self, which: Option<&[bool]>) {
        let now = Instant::now();
        for index in 0..self.running_returns.len() {
            if which.is_none_or(|marked| marked[index]) {
                self.running_returns[index] = 0.0;
                self.running_lengths[index] = 0;
                self.starts[index] = now;
            }
        }
        self.clear_marked();
    }

    /// Clears the entries of the episodes that ended on the last step.
    fn clear_marked(&mut self) {
        for &index in &self.marked {
            self.ended[index] = false;
            self.returns[index] = 0.0;
            self.lengths[index] = 0;
            self.times[index] = 0.0;
        }
        self.marked.clear();
    }
}

impl<V: VectorEnv> VectorEnv for VectorEpisodeStatistics<V> {
    forward_vector!(actions);
    forward_vector!(lifecycle);
    forward_vector!(observations);
    forward_vector!(rewards);

    fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        self.inner.reset(mode)?;
        self.restart(None);
        self.previously_ended.fill(false);
        Ok(())
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        self.inner.reset_ended()?;
        let previously_ended = std::mem::take(&mut self.previously_ended);
        self.restart(Some(&previously_ended));
        self.previously_ended = previously_ended;
        self.previously_ended.fill(false);
        Ok(())
    }

    fn step(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        self.inner.step(actions)?;
        self.clear_marked();
        let next_step = self.inner.autoreset() == Autoreset::NextStep;
        let now = Instant::now();
        let VectorEpisodeStatistics {
            inner,
            running_returns,
            running_lengths,
            starts,
            ended,
            returns,
            lengths,
            times,
            marked,
            flagged,
            any_flag,
            previously_ended,
            window,
            return_window,
            length_window,
            episodes,
        } = self;
        // First every environment's running sums, without a branch (an environment reset by
        // this step, with next-step autoreset, belongs to no episode and adds nothing); then
        // the few environments whose episode ended or restarted, found eight flags at a time.
        // (A select rather than a branch, so that the loop needs no jump per environment.)
        let running = running_returns.iter_mut().zip(running_lengths.iter_mut());
        let steps = inner.rewards().iter().zip(previously_ended.iter());
        for ((total, length), (reward, previous)) in running.zip(steps) {
            let reset = next_step & *previous;
            let sum = *total + *reward;
            *total = if reset { *total } else { sum };
            *length += u64::from(!reset);
        }
        let (terminated, truncated) = (inner.terminated(), inner.truncated());
        list_flagged([terminated, truncated, previously_ended], any_flag, flagged);
        for &index in flagged.iter() {
            let ended_now = terminated.get(index).copied().unwrap_or(false)
                || truncated.get(index).copied().unwrap_or(false);
            let (Some(previous), Some(total), Some(length)) = (
                previously_ended.get_mut(index),
                running_returns.get_mut(index),
                running_lengths.get_mut(index),
            ) else {
                continue;
            };
            if next_step && *previous {
                // This step reset the environment: its next episode starts now.
                *previous = false;
                starts[index] = now;
                continue;
            }
            *previous = ended_now;
            if ended_now {
                ended[index] = true;
                marked.push(index);
                returns[index] = *total;
                lengths[index] = *length;
                times[index] = now.duration_since(starts[index]).as_secs_f64();
                if return_window.len() == *window {
                    return_window.pop_front();
                    length_window.pop_front();
                }
                return_window.push_back(*total);
                length_window.push_back(*length);
                *episodes += 1;
                (*total, *length) = (0.0, 0);
                starts[index] = now;
            }
        }
        Ok(())
    }
}

/// Replaces `list` with the indices `i` at which any of `flags` is set, in increasing order,
/// using `any` (one byte per index) as scratch.
///
/// Few environments end on a given step: the three flags are first combined into one byte per
/// environment (a loop of byte operations without a branch), and those bytes are then read
/// eight at a time as one word, so that a run of eight with none set costs one test. `list`'s capacity is at least the flags' length, so pushing never allocates.
fn list_flagged(flags: [&[bool]; 3], any: &mut [u8], list: &mut Vec<usize>) {
    list.clear();
    let [a, b, c] = flags;
    let len = any.len().min(a.len()).min(b.len()).min(c.len());
    let any = &mut any[..len];
    for (((slot, a), b), c) in any.iter_mut().zip(a).zip(b).zip(c) {
        *slot = u8::from(*a | *b | *c);
    }
    let mut runs = any.chunks_exact(8);
    for (run, bytes) in runs.by_ref().enumerate() {
        let Ok(bytes) = <[u8; 8]>::try_from(bytes) else {
            continue;
        };
        let mut set = u64::from_le_bytes(bytes);
        while set != 0 {
            list.push(run * 8 + (set.trailing_zeros() / 8) as usize);
            // Clears the lowest set bit (each byte is 0 or 1): the environment just listed.
            set &= set - 1;
        }
    }
    let start = len - runs.remainder().len();
    for (k, set) in runs.remainder().iter().enumerate() {
        if *set != 0 {
            list.push(start + k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::list_flagged;

    #[test]
    fn every_index_with_a_flag_set_is_listed_once_in_order() {
        for len in [0usize, 1, 7, 8, 9, 16, 37] {
            let a: Vec<bool> = (0..len).map(|i| i % 5 == 0).collect();
            let b: Vec<bool> = (0..len).map(|i| i % 7 == 3).collect();
            let c: Vec<bool> = (0..len).map(|i| i == len.saturating_sub(1)).collect();
            let mut any = vec![0; len];
            let mut list = Vec::with_capacity(len);
            list.push(99);
            list_flagged([&a, &b, &c], &mut any, &mut list);
            let expected: Vec<usize> = (0..len).filter(|&i| a[i] || b[i] || c[i]).collect();
            assert_eq!(list, expected, "{len} environments");
        }
    }
}
