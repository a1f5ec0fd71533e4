//! InvertedDoublePendulum-v5: Gymnasium 1.4.0's `InvertedDoublePendulumEnv`
//! (`inverted_double_pendulum_v5.py`), a cart balancing two linked poles.
//!
//! With `(x, _, y)` the tip's site position: terminated when `y <= 1`; reward `alive_bonus -
//! dist_penalty - vel_penalty`, `alive_bonus = healthy_reward * int(not terminated)`,
//! `dist_penalty = 0.01 * x**2 + (y - 2)**2`, `vel_penalty = 1e-3 * v1**2 + 5e-3 * v2**2`
//! (`v1, v2 = qvel[1:3]`; `**` is C `pow`, as NumPy's). Observation: `qpos[0]`, `sin` and `cos`
//! of the angles, `qvel` clipped to `[-10, 10]`, then `qfrc_constraint[0]` clipped likewise.
//! Reset: `qpos` plus `uniform` noise, `qvel` plus `standard_normal * reset_noise_scale`.
//! Infos: `reward_survive`, `distance_penalty`, `velocity_penalty`.

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::{clip, python_square};
use crate::params::finite;
use crate::simulation::Data;
use crate::tasks::{bool_times, info};
use rl_core::registry::PythonType;

/// InvertedDoublePendulum-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InvertedDoublePendulumParams {
    /// The model file (`"inverted_double_pendulum.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (5).
    pub frame_skip: u32,
    /// The reward of each step the poles stand (10.0).
    pub healthy_reward: f64,
    /// The scale of the reset noise (0.1).
    pub reset_noise_scale: f64,
    /// The time limit in steps (1000).
    pub max_episode_steps: u64,
}

impl Default for InvertedDoublePendulumParams {
    fn default() -> Self {
        InvertedDoublePendulumParams {
            xml_file: "inverted_double_pendulum.xml".into(),
            frame_skip: 5,
            healthy_reward: 10.0,
            reset_noise_scale: 0.1,
            max_episode_steps: 1000,
        }
    }
}

/// InvertedDoublePendulum-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct InvertedDoublePendulum {
    params: InvertedDoublePendulumParams,
}

/// InvertedDoublePendulum-v5 as a domain.
pub type InvertedDoublePendulumDomain = MujocoDomain<InvertedDoublePendulum>;

impl InvertedDoublePendulum {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(
        params: InvertedDoublePendulumParams,
    ) -> Result<InvertedDoublePendulumDomain, MujocoError> {
        finite("healthy_reward", params.healthy_reward)?;
        finite("reset_noise_scale", params.reset_noise_scale)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        let sizes = setup.model().sizes();
        if sizes.nq < 1 || sizes.nv < 3 || sizes.nsite < 1 {
            return Err(MujocoError::Parameter {
                name: "xml_file",
                reason: "InvertedDoublePendulum needs a model with 3 velocities and a site".into(),
            });
        }
        let steps = params.max_episode_steps;
        MujocoDomain::new(InvertedDoublePendulum { params }, setup, steps)
    }

    /// The parameters.
    pub fn params(&self) -> &InvertedDoublePendulumParams {
        &self.params
    }
}

/// `y <= 1` for the first site's height.
fn fallen(data: &Data) -> bool {
    data.site_xpos()[2] <= 1.0
}

impl Task for InvertedDoublePendulum {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("reward_survive", PythonType::Float),
        ("distance_penalty", PythonType::Float64),
        ("velocity_penalty", PythonType::Float64),
    ];

    fn observation_size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        1 + 2 * (sizes.nq - 1) + sizes.nv + 1
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut Data, rng: &mut R) {
        setup.reset_uniform_normal(data, self.params.reset_noise_scale, rng);
    }

    fn observe(&self, _setup: &Setup, data: &Data, out: &mut [f64]) {
        let (qpos, qvel) = (data.qpos(), data.qvel());
        let angles = &qpos[1..];
        out[0] = qpos[0];
        let mut index = 1;
        for angle in angles {
            out[index] = angle.sin();
            index += 1;
        }
        for angle in angles {
            out[index] = angle.cos();
            index += 1;
        }
        for &velocity in qvel {
            out[index] = clip(velocity, -10.0, 10.0);
            index += 1;
        }
        out[index] = clip(data.qfrc_constraint()[0], -10.0, 10.0);
    }

    fn step(&self, setup: &Setup, data: &mut Data, action: &[f32]) -> (f64, bool, Info) {
        setup.simulate(data, action);
        let site = data.site_xpos();
        let (x, y) = (site[0], site[2]);
        let terminated = y <= 1.0;
        let qvel = data.qvel();
        let (v1, v2) = (qvel[1], qvel[2]);
        let dist_penalty = 0.01 * python_square(x) + python_square(y - 2.0);
        let vel_penalty = 1e-3 * python_square(v1) + 5e-3 * python_square(v2);
        let alive_bonus = bool_times(!terminated, self.params.healthy_reward);
        let reward = alive_bonus - dist_penalty - vel_penalty;
        let info = info(&[
            ("reward_survive", alive_bonus),
            ("distance_penalty", -dist_penalty),
            ("velocity_penalty", -vel_penalty),
        ]);
        (reward, terminated, info)
    }

    fn is_terminal(&self, _setup: &Setup, data: &Data) -> bool {
        fallen(data)
    }
}
