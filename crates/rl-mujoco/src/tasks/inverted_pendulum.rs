//! InvertedPendulum-v5: Gymnasium 1.4.0's `InvertedPendulumEnv`
//! (`inverted_pendulum_v5.py`), a cart balancing a pole.
//!
//! Reward 1 while the pole stands (`|qpos[1]| <= 0.2` and the observation finite), 0 on the
//! step it falls, which terminates. Observation: `qpos` then `qvel`. Reset: both plus
//! `uniform(-reset_noise_scale, reset_noise_scale)` noise. Info: `reward_survive` (the reward).

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::params::finite;
use rl_core::registry::PythonType;

/// InvertedPendulum-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InvertedPendulumParams {
    /// The model file (`"inverted_pendulum.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (2).
    pub frame_skip: u32,
    /// The scale of the reset noise (0.01).
    pub reset_noise_scale: f64,
    /// The time limit in steps (1000).
    pub max_episode_steps: u64,
}

impl Default for InvertedPendulumParams {
    fn default() -> Self {
        InvertedPendulumParams {
            xml_file: "inverted_pendulum.xml".into(),
            frame_skip: 2,
            reset_noise_scale: 0.01,
            max_episode_steps: 1000,
        }
    }
}

/// InvertedPendulum-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct InvertedPendulum {
    params: InvertedPendulumParams,
}

/// InvertedPendulum-v5 as a domain.
pub type InvertedPendulumDomain = MujocoDomain<InvertedPendulum>;

impl InvertedPendulum {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: InvertedPendulumParams) -> Result<InvertedPendulumDomain, MujocoError> {
        finite("reset_noise_scale", params.reset_noise_scale)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        if setup.model().sizes().nq < 2 {
            return Err(MujocoError::Parameter {
                name: "xml_file",
                reason: "InvertedPendulum needs a model with at least 2 positions".into(),
            });
        }
        let steps = params.max_episode_steps;
        MujocoDomain::new(InvertedPendulum { params }, setup, steps)
    }

    /// The parameters.
    pub fn params(&self) -> &InvertedPendulumParams {
        &self.params
    }
}

/// Gymnasium's test: `not isfinite(observation).all() or abs(observation[1]) > 0.2`.
fn fallen(data: &crate::Data) -> bool {
    let finite = data.qpos().iter().chain(data.qvel()).all(|x| x.is_finite());
    !finite || data.qpos()[1].abs() > 0.2
}

impl Task for InvertedPendulum {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] =
        &[("reward_survive", PythonType::Int)];
    /// Gymnasium's reward is the Python int `int(not terminated)`.
    const REWARD_TYPE: PythonType = PythonType::Int;

    fn observation_size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        sizes.nq + sizes.nv
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut crate::Data, rng: &mut R) {
        setup.reset_uniform(data, self.params.reset_noise_scale, rng);
    }

    fn observe(&self, _setup: &Setup, data: &crate::Data, out: &mut [f64]) {
        let (head, tail) = out.split_at_mut(data.qpos().len());
        head.copy_from_slice(data.qpos());
        tail.copy_from_slice(data.qvel());
    }

    fn step(&self, setup: &Setup, data: &mut crate::Data, action: &[f32]) -> (f64, bool, Info) {
        setup.simulate(data, action);
        let terminated = fallen(data);
        // Gymnasium's reward is the Python int `int(not terminated)`.
        let reward = i64::from(!terminated);
        let mut info = Info::new();
        info.insert_static("reward_survive", reward);
        (reward as f64, terminated, info)
    }

    fn is_terminal(&self, _setup: &Setup, data: &crate::Data) -> bool {
        fallen(data)
    }
}
