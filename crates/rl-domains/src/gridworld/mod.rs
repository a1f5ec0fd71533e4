//! GridWorld: RLPy 1.3.6's grid navigation domain, as the domain [`GridWorld`], its
//! observation space [`GridCellSpace`], its maps ([`GridMap`]) and pure functions for its
//! transitions.
//!
//! [`GridWorld`] is documented in the crate's domain template. This page adds the pure
//! functions the domain is built on.
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
//! The two draws are `random()` numbers from the environment's generator, numpy's
//! `Generator(PCG64(...))` as for every domain (`rl_core::NumpyGenerator`), not RLPy's own
//! `numpy.random.RandomState` (a Mersenne Twister): the transitions and their probabilities
//! are RLPy's, a given seed's noise is not.
//!
//! # Reference
//!
//! RLPy 1.3.6, `rlpy/Domains/GridWorld.py`; the semantics are written out in
//! `testdata/reference/README.md`.

mod domain;
mod image;
mod map;
mod model;
mod render;
mod space;

pub use domain::GridWorld;
#[cfg(feature = "grid-image")]
pub use image::GridImage;
pub use image::{GRID_IMAGE_CHANNELS, write_grid_image};
pub use map::{CellKind, GridCell, GridMap, MAX_MAP_CELLS};
pub use model::{
    ActionSet, ActionSetIter, ExpectedOutcome, GOAL_REWARD, GridAction, GridStep, Outcome,
    OutcomeList, PIT_REWARD, STEP_REWARD, expected_step, expected_step_corrected, noisy_action,
    noisy_step, possible_actions, step_distribution, step_with_action,
};
pub use space::GridCellSpace;

use rl_core::Mode;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::parameter_checks;

/// RLPy's default noise: the probability that an action is replaced by a random one.
pub const DEFAULT_NOISE: f64 = 0.1;
/// RLPy's discount factor for GridWorld.
pub const DISCOUNT_FACTOR: f64 = 0.9;
/// RLPy's episode cap for GridWorld, in steps.
pub const EPISODE_CAP: u64 = 1000;

/// Which distribution [`GridWorld::expected_step`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ExpectedStepVariant {
    /// RLPy's `expectedStep`, quirk included (`"rlpy"`, the default): when the intended
    /// action is not possible, the `1 - noise` of staying in place is missing and the
    /// probabilities sum to `noise` ([`expected_step`]).
    #[default]
    #[serde(rename = "rlpy")]
    Rlpy,
    /// The corrected distribution (`"corrected"`): staying in place gets its `1 - noise`
    /// and the probabilities sum to 1 ([`expected_step_corrected`]).
    #[serde(rename = "corrected")]
    Corrected,
}

/// The parameters of GridWorld apart from the map; [`Default`] gives RLPy 1.3.6's values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GridWorldParams {
    /// The probability that an action is replaced by a uniformly chosen possible action (0.1).
    pub noise: f64,
    /// The noise of evaluation episodes ([`Mode::Evaluation`]), or `None` for the same
    /// noise as in training (`None`, as in RLPy, whose domain has one noise).
    pub evaluation_noise: Option<f64>,
    /// The discount factor (0.9).
    pub discount_factor: f64,
    /// The time limit of an episode, in steps (1000).
    pub episode_cap: u64,
    /// Which distribution [`GridWorld::expected_step`] gives: RLPy's, quirk included
    /// ([`ExpectedStepVariant::Rlpy`]), or the corrected one.
    pub expected_step: ExpectedStepVariant,
}

impl Default for GridWorldParams {
    fn default() -> Self {
        GridWorldParams {
            noise: DEFAULT_NOISE,
            evaluation_noise: None,
            discount_factor: DISCOUNT_FACTOR,
            episode_cap: EPISODE_CAP,
            expected_step: ExpectedStepVariant::Rlpy,
        }
    }
}

impl GridWorldParams {
    /// Checks that the noises and the discount factor lie in `[0, 1]` and the episode cap
    /// is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::unit_interval("noise", self.noise)?;
        if let Some(noise) = self.evaluation_noise {
            parameter_checks::unit_interval("evaluation_noise", noise)?;
        }
        parameter_checks::unit_interval("discount_factor", self.discount_factor)?;
        parameter_checks::nonzero_steps("episode_cap", self.episode_cap)
    }

    /// The noise of an episode in `mode`.
    pub fn noise_in(&self, mode: Mode) -> f64 {
        match mode {
            Mode::Training => self.noise,
            Mode::Evaluation(_) => self.evaluation_noise.unwrap_or(self.noise),
        }
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
        let evaluation = GridWorldParams {
            evaluation_noise: Some(-0.1),
            ..params
        };
        assert!(evaluation.validate().is_err());
    }

    #[test]
    fn evaluation_noise_defaults_to_the_training_noise() {
        let params = GridWorldParams::default();
        assert_eq!(params.noise_in(Mode::EVALUATION), 0.1);
        let quiet = GridWorldParams {
            evaluation_noise: Some(0.0),
            ..params
        };
        assert_eq!(quiet.noise_in(Mode::Training), 0.1);
        assert_eq!(quiet.noise_in(Mode::Evaluation(3)), 0.0);
    }

    #[test]
    fn params_read_from_json_field_by_field() {
        let params: GridWorldParams =
            serde_json::from_str(r#"{"noise": 0.3, "expected_step": "corrected"}"#)
                .expect("valid parameters");
        assert_eq!(params.noise, 0.3);
        assert_eq!(params.expected_step, ExpectedStepVariant::Corrected);
        assert_eq!(params.episode_cap, 1000);
        let error =
            serde_json::from_str::<GridWorldParams>(r#"{"nois": 0.3}"#).expect_err("unknown field");
        assert!(error.to_string().contains("nois"));
    }
}
