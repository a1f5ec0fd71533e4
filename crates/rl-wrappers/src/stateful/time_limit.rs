//! [`TimeLimit`]: truncation after a number of steps, with Gymnasium's semantics.

use std::num::NonZeroU64;

use rl_core::{CoreError, Environment, Mode, ResetReason, StepOutcome};

use crate::forward::{
    forward_actions, forward_lifecycle, forward_observations, forward_randomness, inner_accessors,
};

/// Where a wrapper is in its episode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    NotStarted,
    Running,
    Ended,
}

impl Status {
    /// The error for a step when no episode is running, if there is one.
    fn check_running(self) -> Result<(), CoreError> {
        match self {
            Status::Running => Ok(()),
            Status::NotStarted => Err(CoreError::NeedsReset(ResetReason::NotStarted)),
            Status::Ended => Err(CoreError::NeedsReset(ResetReason::EpisodeEnded)),
        }
    }
}

/// Truncates episodes after `max_steps` steps (Gymnasium's `TimeLimit`).
///
/// - The step count includes the current step: the step on which `elapsed >= max_steps` is
///   truncated (`truncated = true`), so with a limit of 3 the third step is the last.
/// - **The tie.** When the inner environment terminates on that same step, both flags are
///   `true`, as Gymnasium reports them, and **termination wins**: the state reached is
///   terminal, so learners must not bootstrap from it
///   ([`StepOutcome::should_bootstrap`] is `false`).
/// - A truncation reported by the inner environment (its own episode cap) is kept.
/// - After the episode ended (either way), stepping is [`CoreError::NeedsReset`] until the
///   next reset, even if the inner environment could go on.
///
/// ```
/// use std::num::NonZeroU64;
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_core::corridor::{Corridor, LEFT};
/// use rl_wrappers::stateful::TimeLimit;
///
/// let limit = NonZeroU64::new(2).expect("non-zero");
/// let mut env = TimeLimit::new(Simulator::new(Corridor::new(5, 0.0)?, 0), limit);
/// env.reset(Mode::Training)?;
/// assert!(!env.step(&LEFT)?.truncated);
/// let last = env.step(&LEFT)?;
/// assert!(last.truncated && !last.terminated && last.should_bootstrap());
/// assert!(env.step(&LEFT).is_err(), "the episode is over");
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone)]
pub struct TimeLimit<E> {
    inner: E,
    max_steps: NonZeroU64,
    elapsed: u64,
    status: Status,
}

impl<E: Environment> TimeLimit<E> {
    /// Truncates the episodes of `inner` after `max_steps` steps.
    pub fn new(inner: E, max_steps: NonZeroU64) -> Self {
        TimeLimit {
            inner,
            max_steps,
            elapsed: 0,
            status: Status::NotStarted,
        }
    }

    /// The number of steps after which an episode is truncated.
    pub fn max_steps(&self) -> NonZeroU64 {
        self.max_steps
    }

    /// Changes the limit. The running episode is truncated as soon as its step count reaches
    /// the new limit.
    pub fn set_max_steps(&mut self, max_steps: NonZeroU64) {
        self.max_steps = max_steps;
    }

    /// The number of steps taken in the current episode.
    pub fn elapsed_steps(&self) -> u64 {
        self.elapsed
    }

    inner_accessors!(E);
}

impl<E: Environment> Environment for TimeLimit<E> {
    forward_observations!(E);
    forward_actions!(E);
    forward_lifecycle!();
    forward_randomness!();

    fn reset(&mut self, mode: Mode) -> Result<E::Observation, CoreError> {
        let observation = self.inner.reset(mode)?;
        self.elapsed = 0;
        self.status = Status::Running;
        Ok(observation)
    }

    fn step(&mut self, action: &E::Action) -> Result<StepOutcome<E::Observation>, CoreError> {
        self.status.check_running()?;
        let mut outcome = self.inner.step(action)?;
        self.elapsed += 1;
        if self.elapsed >= self.max_steps.get() {
            outcome.truncated = true;
        }
        if outcome.is_done() {
            self.status = Status::Ended;
        }
        Ok(outcome)
    }
}
