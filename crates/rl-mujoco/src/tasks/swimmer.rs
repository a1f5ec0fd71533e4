//! Swimmer-v5: Gymnasium 1.4.0's `SwimmerEnv` (`swimmer_v5.py`), a three-link swimmer in a
//! viscous fluid.
//!
//! Reward `forward_reward_weight * x_velocity - ctrl_cost_weight * sum(action^2)` (the
//! control cost in float32); never terminates. Observation: `qpos` without the x and y
//! positions (unless `exclude_current_positions_from_observation` is false), then `qvel`.
//! Reset: both plus `uniform(-reset_noise_scale, reset_noise_scale)` noise. Infos:
//! `x_position`, `y_position`, `distance_from_origin`, `x_velocity`, `y_velocity`,
//! `reward_forward`, `reward_ctrl`.

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::{norm, sum_of_squares_f32};
use crate::params::finite;
use crate::tasks::info;
use crate::tasks::locomotion::write_positions_velocities;
use rl_core::registry::PythonType;

/// Swimmer-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SwimmerParams {
    /// The model file (`"swimmer.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (4).
    pub frame_skip: u32,
    /// The weight of the forward velocity (1.0).
    pub forward_reward_weight: f64,
    /// The weight of the control cost (1e-4).
    pub ctrl_cost_weight: f64,
    /// The scale of the reset noise (0.1).
    pub reset_noise_scale: f64,
    /// Whether the observation leaves out the x and y positions (true).
    pub exclude_current_positions_from_observation: bool,
    /// The time limit in steps (1000).
    pub max_episode_steps: u64,
}

impl Default for SwimmerParams {
    fn default() -> Self {
        SwimmerParams {
            xml_file: "swimmer.xml".into(),
            frame_skip: 4,
            forward_reward_weight: 1.0,
            ctrl_cost_weight: 1e-4,
            reset_noise_scale: 0.1,
            exclude_current_positions_from_observation: true,
            max_episode_steps: 1000,
        }
    }
}

/// Swimmer-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct Swimmer {
    params: SwimmerParams,
}

/// Swimmer-v5 as a domain.
pub type SwimmerDomain = MujocoDomain<Swimmer>;

impl Swimmer {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: SwimmerParams) -> Result<SwimmerDomain, MujocoError> {
        finite("forward_reward_weight", params.forward_reward_weight)?;
        finite("ctrl_cost_weight", params.ctrl_cost_weight)?;
        finite("reset_noise_scale", params.reset_noise_scale)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        if setup.model().sizes().nq < 2 {
            return Err(MujocoError::Parameter {
                name: "xml_file",
                reason: "Swimmer needs a model with at least 2 positions".into(),
            });
        }
        let steps = params.max_episode_steps;
        MujocoDomain::new(Swimmer { params }, setup, steps)
    }

    /// The parameters.
    pub fn params(&self) -> &SwimmerParams {
        &self.params
    }

    fn skipped(&self) -> usize {
        2 * usize::from(self.params.exclude_current_positions_from_observation)
    }
}

impl Task for Swimmer {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("x_position", PythonType::Float64),
        ("y_position", PythonType::Float64),
        ("distance_from_origin", PythonType::Float64),
        ("x_velocity", PythonType::Float64),
        ("y_velocity", PythonType::Float64),
        ("reward_forward", PythonType::Float64),
        ("reward_ctrl", PythonType::Float32),
    ];

    fn observation_size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        sizes.nq + sizes.nv - self.skipped()
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut crate::Data, rng: &mut R) {
        setup.reset_uniform(data, self.params.reset_noise_scale, rng);
    }

    fn observe(&self, _setup: &Setup, data: &crate::Data, out: &mut [f64]) {
        write_positions_velocities(data.qpos(), self.skipped(), data.qvel(), out);
    }

    fn step(&self, setup: &Setup, data: &mut crate::Data, action: &[f32]) -> (f64, bool, Info) {
        let p = &self.params;
        let before = [data.qpos()[0], data.qpos()[1]];
        setup.simulate(data, action);
        let after = [data.qpos()[0], data.qpos()[1]];
        let x_velocity = (after[0] - before[0]) / setup.dt();
        let y_velocity = (after[1] - before[1]) / setup.dt();
        let forward_reward = p.forward_reward_weight * x_velocity;
        let ctrl_cost = p.ctrl_cost_weight as f32 * sum_of_squares_f32(action);
        let reward = forward_reward - f64::from(ctrl_cost);
        let info = info(&[
            ("x_position", after[0]),
            ("y_position", after[1]),
            ("distance_from_origin", norm(&after)),
            ("x_velocity", x_velocity),
            ("y_velocity", y_velocity),
            ("reward_forward", forward_reward),
            ("reward_ctrl", f64::from(-ctrl_cost)),
        ]);
        (reward, false, info)
    }

    fn is_terminal(&self, _setup: &Setup, _data: &crate::Data) -> bool {
        false
    }

    fn reset_info(&self, _setup: &Setup, data: &crate::Data) -> Info {
        let qpos = data.qpos();
        info(&[
            ("x_position", qpos[0]),
            ("y_position", qpos[1]),
            ("distance_from_origin", norm(&qpos[..2])),
        ])
    }
}
