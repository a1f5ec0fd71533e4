//! Hopper-v5: Gymnasium 1.4.0's `HopperEnv` (`hopper_v5.py`), a one-legged robot hopping
//! forward.
//!
//! Reward `forward_reward_weight * x_velocity + healthy_reward - ctrl_cost_weight *
//! sum(action^2)`, the control cost in float32 as NumPy 2 computes it (the action is float32,
//! the weight a Python float); terminated when unhealthy (a state entry outside
//! `healthy_state_range`, the height outside `healthy_z_range` or the angle outside
//! `healthy_angle_range`) if `terminate_when_unhealthy`. Observation: `qpos` without the x
//! position (unless `exclude_current_positions_from_observation` is false), then `qvel`
//! clipped to `[-10, 10]`. Reset: `qpos` and `qvel` plus `uniform(-reset_noise_scale,
//! reset_noise_scale)` noise. Infos: `x_position`, `z_distance_from_origin`, `x_velocity`,
//! `reward_forward`, `reward_ctrl`, `reward_survive`.

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::{clip, sum_of_squares_f32};
use crate::params::{finite, ordered, range};
use crate::tasks::{bool_times, in_open_range, info};
use rl_core::registry::PythonType;

/// Hopper-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HopperParams {
    /// The model file (`"hopper.xml"`; see [`ModelSource`](crate::ModelSource)).
    pub xml_file: String,
    /// MuJoCo steps per environment step (4).
    pub frame_skip: u32,
    /// The weight of the forward velocity (1.0).
    pub forward_reward_weight: f64,
    /// The weight of the control cost (1e-3).
    pub ctrl_cost_weight: f64,
    /// The reward of each healthy step (1.0).
    pub healthy_reward: f64,
    /// Whether an unhealthy state ends the episode (true).
    pub terminate_when_unhealthy: bool,
    /// The open range of the state entries from the angle on (`[-100, 100]`).
    #[serde(deserialize_with = "range")]
    pub healthy_state_range: [f64; 2],
    /// The open range of the height (`[0.7, inf]`).
    #[serde(deserialize_with = "range")]
    pub healthy_z_range: [f64; 2],
    /// The open range of the angle (`[-0.2, 0.2]`).
    #[serde(deserialize_with = "range")]
    pub healthy_angle_range: [f64; 2],
    /// The scale of the reset noise (5e-3).
    pub reset_noise_scale: f64,
    /// Whether the observation leaves out the x position (true).
    pub exclude_current_positions_from_observation: bool,
    /// The time limit in steps (1000, Gymnasium's registration).
    pub max_episode_steps: u64,
}

impl Default for HopperParams {
    fn default() -> Self {
        HopperParams {
            xml_file: "hopper.xml".into(),
            frame_skip: 4,
            forward_reward_weight: 1.0,
            ctrl_cost_weight: 1e-3,
            healthy_reward: 1.0,
            terminate_when_unhealthy: true,
            healthy_state_range: [-100.0, 100.0],
            healthy_z_range: [0.7, f64::INFINITY],
            healthy_angle_range: [-0.2, 0.2],
            reset_noise_scale: 5e-3,
            exclude_current_positions_from_observation: true,
            max_episode_steps: 1000,
        }
    }
}

/// Hopper-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct Hopper {
    params: HopperParams,
}

/// Hopper-v5 as a domain.
pub type HopperDomain = MujocoDomain<Hopper>;

impl Hopper {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: HopperParams) -> Result<HopperDomain, MujocoError> {
        for (name, value) in [
            ("forward_reward_weight", params.forward_reward_weight),
            ("ctrl_cost_weight", params.ctrl_cost_weight),
            ("healthy_reward", params.healthy_reward),
            ("reset_noise_scale", params.reset_noise_scale),
        ] {
            finite(name, value)?;
        }
        ordered("healthy_state_range", params.healthy_state_range)?;
        ordered("healthy_z_range", params.healthy_z_range)?;
        ordered("healthy_angle_range", params.healthy_angle_range)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        let steps = params.max_episode_steps;
        MujocoDomain::new(Hopper { params }, setup, steps)
    }

    /// The parameters.
    pub fn params(&self) -> &HopperParams {
        &self.params
    }

    fn is_healthy(&self, data: &crate::Data) -> bool {
        let (qpos, qvel) = (data.qpos(), data.qvel());
        let p = &self.params;
        let [min_state, max_state] = p.healthy_state_range;
        let healthy_state = qpos[2..]
            .iter()
            .chain(qvel)
            .all(|&value| min_state < value && value < max_state);
        healthy_state
            && in_open_range(qpos[1], p.healthy_z_range)
            && in_open_range(qpos[2], p.healthy_angle_range)
    }
}

impl Task for Hopper {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("x_position", PythonType::Float64),
        ("z_distance_from_origin", PythonType::Float64),
        ("x_velocity", PythonType::Float64),
        ("reward_forward", PythonType::Float64),
        ("reward_ctrl", PythonType::Float32),
        ("reward_survive", PythonType::Float),
    ];

    fn observation_size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        sizes.nq + sizes.nv - usize::from(self.params.exclude_current_positions_from_observation)
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut crate::Data, rng: &mut R) {
        setup.reset_uniform(data, self.params.reset_noise_scale, rng);
    }

    fn observe(&self, _setup: &Setup, data: &crate::Data, out: &mut [f64]) {
        let skip = usize::from(self.params.exclude_current_positions_from_observation);
        let positions = &data.qpos()[skip..];
        let (head, tail) = out.split_at_mut(positions.len());
        head.copy_from_slice(positions);
        for (slot, &velocity) in tail.iter_mut().zip(data.qvel()) {
            *slot = clip(velocity, -10.0, 10.0);
        }
    }

    fn step(&self, setup: &Setup, data: &mut crate::Data, action: &[f32]) -> (f64, bool, Info) {
        let p = &self.params;
        let x_before = data.qpos()[0];
        setup.simulate(data, action);
        let x_after = data.qpos()[0];
        let x_velocity = (x_after - x_before) / setup.dt();
        let forward_reward = p.forward_reward_weight * x_velocity;
        let healthy = self.is_healthy(data);
        let healthy_reward = bool_times(healthy, p.healthy_reward);
        let rewards = forward_reward + healthy_reward;
        let ctrl_cost = p.ctrl_cost_weight as f32 * sum_of_squares_f32(action);
        let reward = rewards - f64::from(ctrl_cost);
        let terminated = !healthy && p.terminate_when_unhealthy;
        let info = info(&[
            ("x_position", x_after),
            (
                "z_distance_from_origin",
                data.qpos()[1] - setup.init_qpos()[1],
            ),
            ("x_velocity", x_velocity),
            ("reward_forward", forward_reward),
            ("reward_ctrl", f64::from(-ctrl_cost)),
            ("reward_survive", healthy_reward),
        ]);
        (reward, terminated, info)
    }

    fn is_terminal(&self, _setup: &Setup, data: &crate::Data) -> bool {
        !self.is_healthy(data) && self.params.terminate_when_unhealthy
    }

    fn reset_info(&self, setup: &Setup, data: &crate::Data) -> Info {
        info(&[
            ("x_position", data.qpos()[0]),
            (
                "z_distance_from_origin",
                data.qpos()[1] - setup.init_qpos()[1],
            ),
        ])
    }
}
