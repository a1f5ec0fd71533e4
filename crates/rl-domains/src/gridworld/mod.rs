//! GridWorld: RLPy 1.3.6's grid navigation domain, as pure functions over a [`GridMap`].
//!
//! # Description
//!
//! An agent moves between the cells of a rectangular grid read from a map file, from the
//! start cell towards a goal, avoiding walls and pits. With probability `noise` its
//! action is replaced by a uniformly chosen possible action.
//!
//! # Action space
//!
//! | action | index | move |
//! |---|---|---|
//! | [`GridAction::Up`] | 0 | one row up |
//! | [`GridAction::Down`] | 1 | one row down |
//! | [`GridAction::Left`] | 2 | one column left |
//! | [`GridAction::Right`] | 3 | one column right |
//!
//! [`possible_actions`] gives RLPy's `possibleActions`: the moves that stay inside the
//! grid and do not enter a blocked cell. Any action may be taken; an impossible one
//! leaves the agent in place.
//!
//! # Observation space
//!
//! The state is the cell `[row, col]` ([`GridCell`]), `0 <= row < rows`,
//! `0 <= col < cols`, and the agent observes it fully.
//!
//! # Rewards
//!
//! [`STEP_REWARD`] (-0.001) per step, replaced by [`GOAL_REWARD`] (+1) when the step
//! ends in a goal cell and by [`PIT_REWARD`] (-1) when it ends in a pit.
//!
//! # Starting state
//!
//! Always the map's start cell: the first start cell (code 2) in row-major order.
//!
//! # Episode end
//!
//! * Termination: the agent enters a goal or a pit.
//! * Truncation: the episode reaches [`EPISODE_CAP`] (1000) steps. RLPy's constructor
//!   accepts an `episodeCap` argument but ignores it and always uses 1000; the
//!   reference-compatible default here is 1000 too, and [`GridWorldParams::episode_cap`]
//!   can change it.
//!
//! # Parameters
//!
//! [`GridWorldParams`]: noise (0.1), discount factor (0.9) and episode cap (1000); the
//! map is a [`GridMap`], parsed from text or one of the 14 maps shipped with RLPy
//! ([`GridMap::builtin`]).
//!
//! # Noise
//!
//! RLPy's `step(a)` draws `u` uniform in `[0, 1)`; when `u < noise`, it replaces `a` by a
//! uniform choice among the possible actions of the current cell. [`noisy_step`] takes
//! those two random decisions as arguments, [`step_distribution`] gives the exact
//! distribution of the result, [`expected_step`] reproduces RLPy's `expectedStep`
//! (whose probabilities sum to `noise` when the intended action is impossible) and
//! [`expected_step_corrected`] is its fixed counterpart.
//!
//! # Reference
//!
//! RLPy 1.3.6, `rlpy/Domains/GridWorld.py`; the semantics are written out in
//! `testdata/reference/README.md`.

mod map;
mod model;

pub use map::{CellKind, GridCell, GridMap};
pub use model::{
    ActionSet, ActionSetIter, ExpectedOutcome, GOAL_REWARD, GridAction, GridStep, Outcome,
    OutcomeList, PIT_REWARD, STEP_REWARD, expected_step, expected_step_corrected, noisy_action,
    noisy_step, possible_actions, step_distribution, step_with_action,
};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::parameter_checks;

/// RLPy's default noise: the probability that an action is replaced by a random one.
pub const DEFAULT_NOISE: f64 = 0.1;
/// RLPy's discount factor for GridWorld.
pub const DISCOUNT_FACTOR: f64 = 0.9;
/// RLPy's episode cap for GridWorld, in steps.
pub const EPISODE_CAP: u64 = 1000;

/// The parameters of GridWorld apart from the map; [`Default`] gives RLPy 1.3.6's values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GridWorldParams {
    /// The probability that an action is replaced by a uniformly chosen possible action (0.1).
    pub noise: f64,
    /// The discount factor (0.9).
    pub discount_factor: f64,
    /// The time limit of an episode, in steps (1000).
    pub episode_cap: u64,
}

impl Default for GridWorldParams {
    fn default() -> Self {
        GridWorldParams {
            noise: DEFAULT_NOISE,
            discount_factor: DISCOUNT_FACTOR,
            episode_cap: EPISODE_CAP,
        }
    }
}

impl GridWorldParams {
    /// Checks that the noise and the discount factor lie in `[0, 1]` and the episode cap is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::unit_interval("noise", self.noise)?;
        parameter_checks::unit_interval("discount_factor", self.discount_factor)?;
        parameter_checks::nonzero_steps("episode_cap", self.episode_cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_rlpy_values_and_valid() {
        let params = GridWorldParams::default();
        assert_eq!(params.noise, 0.1);
        assert_eq!(params.discount_factor, 0.9);
        assert_eq!(params.episode_cap, 1000);
        assert!(params.validate().is_ok());
        let noisy = GridWorldParams {
            noise: 1.5,
            ..params
        };
        assert!(noisy.validate().is_err());
    }
}
