//! [`VectorEpisodeStatistics`]: the return, length and wall time of every episode that ends,
//! per environment of a vector, and a window of the last episodes (Gymnasium's vector
//! `RecordEpisodeStatistics`).

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::time::Instant;

use rl_core::Mode;

use crate::error::VectorError;
use crate::vector::Autoreset;
use crate::vector::batch::for_each_set;
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
    /// The steps taken since this wrapper was made (the clock of [`Start::step`]).
    steps: u64,
    /// When this wrapper was made: the origin of [`Start::time`] and of each step's clock
    /// reading.
    origin: Instant,
    /// Per environment, when its running episode started.
    starts: Vec<Start>,
    ended: Vec<bool>,
    returns: Vec<f64>,
    lengths: Vec<u64>,
    times: Vec<f64>,
    /// The environments whose episode ended on the last step, in increasing order: the
    /// entries set in `ended`, `returns`, `lengths` and `times`, to clear on the next step (a
    /// few per step, where clearing every entry would write all four slices), and the
    /// environments that step restarts with next-step autoreset, or `reset_ended` restarts.
    marked: Vec<usize>,
    /// The step's scratch: the environments marked by the step before (swapped with
    /// `marked`). Both have the vector's length as capacity, so pushing never allocates.
    marked_before: Vec<usize>,
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
        VectorEpisodeStatistics {
            inner,
            running_returns: vec![0.0; len],
            steps: 0,
            origin: Instant::now(),
            starts: vec![Start::default(); len],
            ended: vec![false; len],
            returns: vec![0.0; len],
            lengths: vec![0; len],
            times: vec![0.0; len],
            marked: Vec::with_capacity(len),
            marked_before: Vec::with_capacity(len),
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

    /// Starts a new episode for every environment (`all`) or for those whose episode ended
    /// on the last step, and clears the entries of those episodes.
    fn restart(&mut self, all: bool) {
        let now = self.origin.elapsed().as_secs_f64();
        if all {
            self.running_returns.fill(0.0);
            self.starts.fill(Start {
                step: self.steps,
                time: now,
            });
        } else {
            for &index in &self.marked {
                self.running_returns[index] = 0.0;
                self.starts[index] = Start {
                    step: self.steps,
                    time: now,
                };
            }
        }
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
        self.restart(true);
        Ok(())
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        self.inner.reset_ended()?;
        self.restart(false);
        Ok(())
    }

    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        self.inner.reset_selected(selected)?;
        // A selected environment starts an episode now. If its last episode ended on the last
        // step, that episode's entries are cleared now and the next step does not restart it
        // again (the inner vector dropped its pending reset).
        let now = self.origin.elapsed().as_secs_f64();
        for (index, _) in selected
            .iter()
            .enumerate()
            .filter(|(_, selected)| **selected)
        {
            self.running_returns[index] = 0.0;
            self.starts[index] = Start {
                step: self.steps,
                time: now,
            };
            self.ended[index] = false;
            self.returns[index] = 0.0;
            self.lengths[index] = 0;
            self.times[index] = 0.0;
        }
        self.marked.retain(|&index| !selected[index]);
        Ok(())
    }

    fn step(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        self.inner.step(actions)?;
        self.record();
        Ok(())
    }
}

impl<V: VectorEnv> VectorEpisodeStatistics<V> {
    /// Records the episodes of the inner vector's last step.
    fn record(&mut self) {
        let next_step = self.inner.autoreset() == Autoreset::NextStep;
        let now = self.origin.elapsed().as_secs_f64();
        self.steps += 1;
        let VectorEpisodeStatistics {
            inner,
            running_returns,
            steps,
            origin: _,
            starts,
            ended,
            returns,
            lengths,
            times,
            marked,
            marked_before,
            window,
            return_window,
            length_window,
            episodes,
        } = self;
        let steps = *steps;
        // The episodes that ended on the step before: their entries are cleared, and with
        // next-step autoreset this step reset their environments.
        std::mem::swap(marked, marked_before);
        marked.clear();
        // First every environment's reward into its return (a loop without a branch, in vector
        // instructions). An environment this step reset belongs to no episode: its return is
        // set back to the 0.0 it was before the step's reward, and its episode starts after
        // this step.
        for (total, reward) in running_returns.iter_mut().zip(inner.rewards()) {
            *total += *reward;
        }
        for &index in marked_before.iter() {
            ended[index] = false;
            returns[index] = 0.0;
            lengths[index] = 0;
            times[index] = 0.0;
            if next_step {
                running_returns[index] = 0.0;
                starts[index] = Start {
                    step: steps,
                    time: now,
                };
            }
        }
        // Then the few environments whose episode ended on this step, found eight at a time.
        for_each_set(inner.terminated(), inner.truncated(), |index| {
            let (total, start) = (&mut running_returns[index], &mut starts[index]);
            let length = steps - start.step;
            ended[index] = true;
            marked.push(index);
            returns[index] = *total;
            lengths[index] = length;
            times[index] = now - start.time;
            if return_window.len() == *window {
                return_window.pop_front();
                length_window.pop_front();
            }
            return_window.push_back(*total);
            length_window.push_back(length);
            *episodes += 1;
            *total = 0.0;
            *start = Start {
                step: steps,
                time: now,
            };
        });
    }
}

/// When an environment's running episode started: the step count and the clock.
#[derive(Debug, Clone, Copy, Default)]
struct Start {
    /// The wrapper's step count: the episode's length is the count now minus this, with no
    /// per-environment count to keep on every step.
    step: u64,
    /// Seconds since the wrapper's origin: the episode's time is one subtraction (as
    /// Gymnasium's difference of `perf_counter` readings).
    time: f64,
}
