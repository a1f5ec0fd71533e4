//! What a step gives back: [`TransitionOutcome`] from a domain (the model),
//! [`StepOutcome`] from an environment (the episode), and [`Transition`], one entry of an
//! enumerated next-state distribution.
//!
//! [`StepOutcome`] documents termination, truncation, and the step where both happen.

use crate::{Info, Value, Violations};

/// The result of a domain's transition from one state (the pure model's step).
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionOutcome<S> {
    /// The state after the transition.
    pub next_state: S,
    /// The reward (or cost) of the transition.
    pub value: Value,
    /// Whether `next_state` is terminal (the task ended).
    pub terminated: bool,
    /// Extra facts about the transition (empty and free by default).
    pub info: Info,
}

impl<S> TransitionOutcome<S> {
    /// An outcome with an empty info.
    #[inline]
    pub fn new(next_state: S, value: Value, terminated: bool) -> Self {
        TransitionOutcome {
            next_state,
            value,
            terminated,
            info: Info::new(),
        }
    }
}

/// The result of an environment's step (the stateful interface).
///
/// # Termination, truncation, and the step where both happen
///
/// *Termination* means the task itself ended: the pole fell, the car reached the goal. The
/// state reached is terminal, and its future value is zero. *Truncation* means the episode was
/// cut short from outside, only ever by a time limit (an episode cap); the state reached is not
/// terminal and still has a future.
///
/// Both can happen on the same step: the pole falls on the last step the time limit allows.
/// Then both flags are `true` (as Gymnasium's `TimeLimit` reports them), and **termination
/// wins** for every consumer: the state reached is terminal, so a learner must not bootstrap
/// from it. [`StepOutcome::should_bootstrap`] gives the right answer in every case.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOutcome<O> {
    /// The observation of the state reached.
    pub observation: O,
    /// The reward (or cost) of the step.
    pub value: Value,
    /// Whether the task ended: the state reached is terminal.
    pub terminated: bool,
    /// Whether a time limit cut the episode short on this step. May be `true` together with
    /// `terminated`; termination then wins.
    pub truncated: bool,
    /// Extra facts about the step.
    pub info: Info,
    /// The declared constraints this step violated (empty when the domain declares none).
    pub violations: Violations,
}

impl<O> StepOutcome<O> {
    /// The reward of the step.
    #[inline]
    pub fn reward(&self) -> f64 {
        self.value.reward()
    }

    /// Whether the episode is over (terminated or truncated): the next call must be a reset.
    #[inline]
    pub fn is_done(&self) -> bool {
        self.terminated || self.truncated
    }

    /// Whether a value estimate of the state reached may be used as its future return: true
    /// unless the step terminated (including when it was also truncated).
    #[inline]
    pub fn should_bootstrap(&self) -> bool {
        !self.terminated
    }

    /// The same outcome with the observation transformed.
    pub fn map_observation<P>(self, f: impl FnOnce(O) -> P) -> StepOutcome<P> {
        StepOutcome {
            observation: f(self.observation),
            value: self.value,
            terminated: self.terminated,
            truncated: self.truncated,
            info: self.info,
            violations: self.violations,
        }
    }
}

/// One possible outcome of a transition with its probability: an entry of RLPy's
/// `expectedStep` (probability, reward, next state, terminal).
#[derive(Debug, Clone, PartialEq)]
pub struct Transition<S> {
    /// The probability of this outcome.
    pub probability: f64,
    /// The state reached.
    pub next_state: S,
    /// The reward (or cost) of the transition.
    pub value: Value,
    /// Whether the state reached is terminal.
    pub terminated: bool,
}
