//! HalfCheetah-v5: Gymnasium 1.4.0's `HalfCheetahEnv` (`half_cheetah_v5.py`), a planar
//! two-legged cat running forward.
//!
//! Reward `forward_reward_weight * x_velocity - ctrl_cost_weight * sum(action^2)` (the
//! control cost in float32); never terminates. Observation: `qpos` without the x position
//! (unless `exclude_current_positions_from_observation` is false), then `qvel`. Reset: `qpos`
//! plus `uniform(-reset_noise_scale, reset_noise_scale)`, `qvel` plus `reset_noise_scale *
//! standard_normal`. Infos: `x_position`, `x_velocity`, `reward_forward`, `reward_ctrl`.

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::sum_of_squares_f32;
use crate::params::finite;
use crate::tasks::info;
use rl_core::registry::PythonType;

/// HalfCheetah-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HalfCheetahParams {
    /// The model file (`"half_cheetah.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (5).
    pub frame_skip: u32,
    /// The weight of the forward velocity (1.0).
    pub forward_reward_weight: f64,
    /// The weight of the control cost (0.1).
    pub ctrl_cost_weight: f64,
    /// The scale of the reset noise (0.1).
    pub reset_noise_scale: f64,
    /// Whether the observation leaves out the x position (true).
    pub exclude_current_positions_from_observation: bool,
    /// The time limit in steps (1000).
    pub max_episode_steps: u64,
}

impl Default for HalfCheetahParams {
    fn default() -> Self {
        HalfCheetahParams {
            xml_file: "half_cheetah.xml".into(),
            frame_skip: 5,
            forward_reward_weight: 1.0,
            ctrl_cost_weight: 0.1,
            reset_noise_scale: 0.1,
            exclude_current_positions_from_observation: true,
            max_episode_steps: 1000,
        }
    }
}

/// HalfCheetah-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct HalfCheetah {
    params: HalfCheetahParams,
}

/// HalfCheetah-v5 as a domain.
pub type HalfCheetahDomain = MujocoDomain<HalfCheetah>;

impl HalfCheetah {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: HalfCheetahParams) -> Result<HalfCheetahDomain, MujocoError> {
        finite("forward_reward_weight", params.forward_reward_weight)?;
        finite("ctrl_cost_weight", params.ctrl_cost_weight)?;
        finite("reset_noise_scale", params.reset_noise_scale)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        let steps = params.max_episode_steps;
        MujocoDomain::new(HalfCheetah { params }, setup, steps)
    }

    /// The parameters.
    pub fn params(&self) -> &HalfCheetahParams {
        &self.params
    }
}

impl Task for HalfCheetah {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("x_position", PythonType::Float64),
        ("x_velocity", PythonType::Float64),
        ("reward_forward", PythonType::Float64),
        ("reward_ctrl", PythonType::Float32),
    ];

    fn observation_size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        sizes.nq + sizes.nv - usize::from(self.params.exclude_current_positions_from_observation)
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut crate::Data, rng: &mut R) {
        setup.reset_uniform_normal(data, self.params.reset_noise_scale, rng);
    }

    fn observe(&self, _setup: &Setup, data: &crate::Data, out: &mut [f64]) {
        let skip = usize::from(self.params.exclude_current_positions_from_observation);
        let positions = &data.qpos()[skip..];
        let (head, tail) = out.split_at_mut(positions.len());
        head.copy_from_slice(positions);
        tail.copy_from_slice(data.qvel());
    }

    fn step(&self, setup: &Setup, data: &mut crate::Data, action: &[f32]) -> (f64, bool, Info) {
        let p = &self.params;
        let x_before = data.qpos()[0];
        setup.simulate(data, action);
        let x_after = data.qpos()[0];
        let x_velocity = (x_after - x_before) / setup.dt();
        let forward_reward = p.forward_reward_weight * x_velocity;
        let ctrl_cost = p.ctrl_cost_weight as f32 * sum_of_squares_f32(action);
        let reward = forward_reward - f64::from(ctrl_cost);
        let info = info(&[
            ("x_position", x_after),
            ("x_velocity", x_velocity),
            ("reward_forward", forward_reward),
            ("reward_ctrl", f64::from(-ctrl_cost)),
        ]);
        (reward, false, info)
    }

    fn is_terminal(&self, _setup: &Setup, _data: &crate::Data) -> bool {
        false
    }

    fn reset_info(&self, _setup: &Setup, data: &crate::Data) -> Info {
        info(&[("x_position", data.qpos()[0])])
    }
}
