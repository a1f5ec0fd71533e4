//! [`EpisodeStatistics`]: the return, length and wall time of recent episodes (Gymnasium's
//! `RecordEpisodeStatistics`).

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use rl_core::{CoreError, Environment, Mode, StepOutcome};

use crate::forward::{
    forward_actions, forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};

/// Records the return (sum of rewards), length (steps) and wall time of every episode, and
/// keeps those of the last [`DEFAULT_CAPACITY`](Self::DEFAULT_CAPACITY) (100) episodes
/// (Gymnasium's `RecordEpisodeStatistics`).
///
/// - An episode is recorded on the step that ends it (terminated or truncated); an episode cut
///   by a reset is not.
/// - **Wall time** is measured from the reset to the last step with [`Instant`]. It is the only
///   clock this crate reads, and nothing else depends on it: observations, rewards, flags and
///   info stay deterministic.
/// - With [`with_info`](Self::with_info), the last step of an episode carries
///   `info["episode"] = {"return": ..., "length": ...}` (Gymnasium's `"r"` and `"l"`; the time
///   is left out to keep info deterministic). Writing it allocates, once per episode.
/// - Nothing is allocated per step: the records are ring buffers allocated at construction.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, RIGHT};
/// use rl_wrappers::stateful::EpisodeStatistics;
///
/// let mut env = EpisodeStatistics::new(Simulator::new(Corridor::new(3, 0.0)?, 0)).with_info(true);
/// env.reset(Mode::Training)?;
/// env.step(&RIGHT)?;
/// let last = env.step(&RIGHT)?;
/// assert!(last.terminated);
/// assert_eq!(last.info.get("episode").map(rl_core::InfoValue::to_json), Some(serde_json::json!({"return": -2.0, "length": 2})));
/// assert_eq!(env.returns().collect::<Vec<_>>(), [-2.0]);
/// assert_eq!(env.lengths().collect::<Vec<_>>(), [2]);
/// assert_eq!(env.wall_times().count(), 1);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct EpisodeStatistics<E> {
    inner: E,
    capacity: NonZeroUsize,
    returns: VecDeque<f64>,
    lengths: VecDeque<u64>,
    wall_times: VecDeque<Duration>,
    episode_return: f64,
    episode_length: u64,
    episode_start: Option<Instant>,
    episodes: u64,
    report_in_info: bool,
}

impl<E: Environment> EpisodeStatistics<E> {
    /// How many episodes are kept by default (Gymnasium's `buffer_length`).
    pub const DEFAULT_CAPACITY: NonZeroUsize = NonZeroUsize::new(100).expect("100 is not zero");

    /// How many episodes' records are allocated at construction, at most.
    pub const PREALLOCATED: usize = 4096;

    /// Records the episodes of `inner`, keeping the last 100.
    pub fn new(inner: E) -> Self {
        EpisodeStatistics::with_capacity(inner, Self::DEFAULT_CAPACITY)
    }

    /// Records the episodes of `inner`, keeping the last `capacity`.
    ///
    /// Room for up to [`PREALLOCATED`](Self::PREALLOCATED) episodes is allocated now; a
    /// larger capacity grows the records until they are full, then nothing more is
    /// allocated.
    pub fn with_capacity(inner: E, capacity: NonZeroUsize) -> Self {
        let room = capacity.get().min(Self::PREALLOCATED);
        EpisodeStatistics {
            inner,
            capacity,
            returns: VecDeque::with_capacity(room),
            lengths: VecDeque::with_capacity(room),
            wall_times: VecDeque::with_capacity(room),
            episode_return: 0.0,
            episode_length: 0,
            episode_start: None,
            episodes: 0,
            report_in_info: false,
        }
    }

    /// The same wrapper, writing `info["episode"]` at the end of each episode if `report`.
    pub fn with_info(mut self, report: bool) -> Self {
        self.report_in_info = report;
        self
    }

    /// How many episodes are kept.
    pub fn capacity(&self) -> NonZeroUsize {
        self.capacity
    }

    /// The returns of the kept episodes, oldest first.
    pub fn returns(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        self.returns.iter().copied()
    }

    /// The lengths of the kept episodes, oldest first.
    pub fn lengths(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        self.lengths.iter().copied()
    }

    /// The wall times of the kept episodes, oldest first.
    pub fn wall_times(&self) -> impl ExactSizeIterator<Item = Duration> + '_ {
        self.wall_times.iter().copied()
    }

    /// The mean return of the kept episodes (`None` before the first one ends).
    pub fn mean_return(&self) -> Option<f64> {
        (!self.returns.is_empty())
            .then(|| self.returns.iter().sum::<f64>() / self.returns.len() as f64)
    }

    /// The number of episodes recorded since construction (not only the kept ones).
    pub fn episode_count(&self) -> u64 {
        self.episodes
    }

    /// The return of the running episode so far.
    pub fn current_return(&self) -> f64 {
        self.episode_return
    }

    /// The number of steps of the running episode so far.
    pub fn current_length(&self) -> u64 {
        self.episode_length
    }

    inner_accessors!(E);

    fn record(&mut self) {
        if self.returns.len() == self.capacity.get() {
            self.returns.pop_front();
            self.lengths.pop_front();
            self.wall_times.pop_front();
        }
        let wall_time = self.episode_start.map(|s| s.elapsed()).unwrap_or_default();
        self.returns.push_back(self.episode_return);
        self.lengths.push_back(self.episode_length);
        self.wall_times.push_back(wall_time);
        self.episodes += 1;
    }
}

impl<E: Environment> Environment for EpisodeStatistics<E> {
    forward_observations!(E);
    forward_actions!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        let observation = self.inner.reset(mode)?;
        self.episode_return = 0.0;
        self.episode_length = 0;
        self.episode_start = Some(Instant::now());
        Ok(observation)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        let mut outcome = self.inner.step(action)?;
        self.episode_return += outcome.reward();
        self.episode_length += 1;
        if outcome.is_done() {
            self.record();
            if self.report_in_info {
                outcome.info.insert(
                    "episode",
                    serde_json::json!({
                        "return": self.episode_return,
                        "length": self.episode_length,
                    }),
                );
            }
        }
        Ok(outcome)
    }
}
