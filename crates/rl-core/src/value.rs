//! [`Value`]: a reward, or equivalently a cost.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// The value of a transition, readable as a reward or as a cost (`cost = -reward`), as in
/// scikit-decide: a planner minimising costs and a learner maximising rewards read the same
/// number their own way.
///
/// ```
/// use rl_core::Value;
///
/// let v = Value::from_cost(2.5);
/// assert_eq!(v.reward(), -2.5);
/// assert_eq!(Value::from_reward(1.0) + v, Value::from_reward(-1.5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Value {
    reward: f64,
}

impl Value {
    /// The value zero.
    pub const ZERO: Value = Value { reward: 0.0 };

    /// A value given as a reward.
    #[inline]
    pub const fn from_reward(reward: f64) -> Self {
        Value { reward }
    }

    /// A value given as a cost (the reward is its negation).
    #[inline]
    pub fn from_cost(cost: f64) -> Self {
        Value { reward: -cost }
    }

    /// The value as a reward.
    #[inline]
    pub const fn reward(self) -> f64 {
        self.reward
    }

    /// The value as a cost (the negated reward).
    #[inline]
    pub fn cost(self) -> f64 {
        -self.reward
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "reward {}", self.reward)
    }
}

impl Add for Value {
    type Output = Value;
    fn add(self, other: Value) -> Value {
        Value::from_reward(self.reward + other.reward)
    }
}

impl AddAssign for Value {
    fn add_assign(&mut self, other: Value) {
        self.reward += other.reward;
    }
}

impl Sum for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        iter.fold(Value::ZERO, Add::add)
    }
}

impl From<f64> for Value {
    /// Reads a plain number as a reward.
    fn from(reward: f64) -> Self {
        Value::from_reward(reward)
    }
}
