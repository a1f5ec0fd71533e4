//! Ant-v5: Gymnasium 1.4.0's `AntEnv` (`ant_v5.py`), a four-legged robot walking forward.
//!
//! Reward `x_velocity * forward_reward_weight + healthy_reward - (ctrl_cost + contact_cost)`:
//! the velocity of `main_body`'s frame; the control cost in float32; the contact cost
//! `contact_cost_weight * sum(clip(cfrc_ext, contact_force_range)^2)` over every body, a
//! pairwise float64 sum. Terminated when unhealthy (a non-finite `qpos`/`qvel`, or the height
//! `qpos[2]` outside the closed `healthy_z_range`) if `terminate_when_unhealthy`. Observation:
//! `qpos` without x and y (unless `exclude_current_positions_from_observation` is false),
//! `qvel`, then the clipped `cfrc_ext` of every body but the world (if
//! `include_cfrc_ext_in_observation`). Reset: `qpos` plus `uniform` noise, `qvel` plus
//! `reset_noise_scale * standard_normal`. Infos: `x_position`, `y_position`,
//! `distance_from_origin`, `x_velocity`, `y_velocity`, `reward_forward`, `reward_ctrl`,
//! `reward_contact`, `reward_survive`.

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::{clip, norm, pairwise_sum, sum_of_squares_f32};
use crate::params::{finite, ordered, range};
use crate::tasks::locomotion::{BodyRef, write_positions_velocities};
use crate::tasks::{bool_times, info};
use rl_core::registry::PythonType;

/// Ant-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AntParams {
    /// The model file (`"ant.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (5).
    pub frame_skip: u32,
    /// The weight of the forward velocity (1).
    pub forward_reward_weight: f64,
    /// The weight of the control cost (0.5).
    pub ctrl_cost_weight: f64,
    /// The weight of the contact cost (5e-4).
    pub contact_cost_weight: f64,
    /// The reward of each healthy step (1.0).
    pub healthy_reward: f64,
    /// The body whose frame's velocity is rewarded, by index or name (1, the torso).
    pub main_body: BodyRef,
    /// Whether an unhealthy state ends the episode (true).
    pub terminate_when_unhealthy: bool,
    /// The closed range of the height (`[0.2, 1.0]`).
    #[serde(deserialize_with = "range")]
    pub healthy_z_range: [f64; 2],
    /// The range the contact forces are clipped to (`[-1, 1]`).
    #[serde(deserialize_with = "range")]
    pub contact_force_range: [f64; 2],
    /// The scale of the reset noise (0.1).
    pub reset_noise_scale: f64,
    /// Whether the observation leaves out the x and y positions (true).
    pub exclude_current_positions_from_observation: bool,
    /// Whether the observation holds the clipped contact forces (true).
    pub include_cfrc_ext_in_observation: bool,
    /// The time limit in steps (1000).
    pub max_episode_steps: u64,
}

impl Default for AntParams {
    fn default() -> Self {
        AntParams {
            xml_file: "ant.xml".into(),
            frame_skip: 5,
            forward_reward_weight: 1.0,
            ctrl_cost_weight: 0.5,
            contact_cost_weight: 5e-4,
            healthy_reward: 1.0,
            main_body: BodyRef::Index(1),
            terminate_when_unhealthy: true,
            healthy_z_range: [0.2, 1.0],
            contact_force_range: [-1.0, 1.0],
            reset_noise_scale: 0.1,
            exclude_current_positions_from_observation: true,
            include_cfrc_ext_in_observation: true,
            max_episode_steps: 1000,
        }
    }
}

/// Ant-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct Ant {
    params: AntParams,
    main_body: usize,
}

/// Ant-v5 as a domain.
pub type AntDomain = MujocoDomain<Ant>;

impl Ant {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: AntParams) -> Result<AntDomain, MujocoError> {
        for (name, value) in [
            ("forward_reward_weight", params.forward_reward_weight),
            ("ctrl_cost_weight", params.ctrl_cost_weight),
            ("contact_cost_weight", params.contact_cost_weight),
            ("healthy_reward", params.healthy_reward),
            ("reset_noise_scale", params.reset_noise_scale),
        ] {
            finite(name, value)?;
        }
        ordered("healthy_z_range", params.healthy_z_range)?;
        ordered("contact_force_range", params.contact_force_range)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        if setup.model().sizes().nq < 3 {
            return Err(MujocoError::Parameter {
                name: "xml_file",
                reason: "Ant needs a model with at least 3 positions".into(),
            });
        }
        let main_body = params.main_body.resolve(setup.model(), "main_body")?;
        let steps = params.max_episode_steps;
        MujocoDomain::new(Ant { params, main_body }, setup, steps)
    }

    /// The parameters.
    pub fn params(&self) -> &AntParams {
        &self.params
    }

    fn skipped(&self) -> usize {
        2 * usize::from(self.params.exclude_current_positions_from_observation)
    }

    fn is_healthy(&self, data: &crate::Data) -> bool {
        let finite = data.qpos().iter().chain(data.qvel()).all(|x| x.is_finite());
        let [min_z, max_z] = self.params.healthy_z_range;
        let z = data.qpos()[2];
        finite && min_z <= z && z <= max_z
    }

    fn clipped_force(&self, value: f64) -> f64 {
        let [low, high] = self.params.contact_force_range;
        clip(value, low, high)
    }

    fn main_xy(&self, data: &crate::Data) -> [f64; 2] {
        let xpos = &data.xpos()[3 * self.main_body..];
        [xpos[0], xpos[1]]
    }
}

impl Task for Ant {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("x_position", PythonType::Float64),
        ("y_position", PythonType::Float64),
        ("distance_from_origin", PythonType::Float64),
        ("x_velocity", PythonType::Float64),
        ("y_velocity", PythonType::Float64),
        ("reward_forward", PythonType::Float64),
        ("reward_ctrl", PythonType::Float32),
        ("reward_contact", PythonType::Float64),
        ("reward_survive", PythonType::Float64),
    ];

    fn observation_size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        let forces = 6 * sizes.nbody.saturating_sub(1);
        sizes.nq + sizes.nv - self.skipped()
            + forces * usize::from(self.params.include_cfrc_ext_in_observation)
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut crate::Data, rng: &mut R) {
        setup.reset_uniform_normal(data, self.params.reset_noise_scale, rng);
    }

    fn observe(&self, _setup: &Setup, data: &crate::Data, out: &mut [f64]) {
        let rest = write_positions_velocities(data.qpos(), self.skipped(), data.qvel(), out);
        if self.params.include_cfrc_ext_in_observation {
            for (slot, &force) in rest.iter_mut().zip(&data.cfrc_ext()[6..]) {
                *slot = self.clipped_force(force);
            }
        }
    }

    fn step(&self, setup: &Setup, data: &mut crate::Data, action: &[f32]) -> (f64, bool, Info) {
        let p = &self.params;
        let before = self.main_xy(data);
        setup.simulate(data, action);
        let after = self.main_xy(data);
        let x_velocity = (after[0] - before[0]) / setup.dt();
        let y_velocity = (after[1] - before[1]) / setup.dt();
        let forward_reward = x_velocity * p.forward_reward_weight;
        let healthy = self.is_healthy(data);
        let healthy_reward = bool_times(healthy, p.healthy_reward);
        let rewards = forward_reward + healthy_reward;
        let ctrl_cost = p.ctrl_cost_weight as f32 * sum_of_squares_f32(action);
        let contact_cost = p.contact_cost_weight * self.contact_square_sum(data);
        let costs = f64::from(ctrl_cost) + contact_cost;
        let reward = rewards - costs;
        let terminated = !healthy && p.terminate_when_unhealthy;
        let qpos = data.qpos();
        let info = info(&[
            ("x_position", qpos[0]),
            ("y_position", qpos[1]),
            ("distance_from_origin", norm(&qpos[..2])),
            ("x_velocity", x_velocity),
            ("y_velocity", y_velocity),
            ("reward_forward", forward_reward),
            ("reward_ctrl", f64::from(-ctrl_cost)),
            ("reward_contact", -contact_cost),
            ("reward_survive", healthy_reward),
        ]);
        (reward, terminated, info)
    }

    fn is_terminal(&self, _setup: &Setup, data: &crate::Data) -> bool {
        !self.is_healthy(data) && self.params.terminate_when_unhealthy
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

impl Ant {
    /// `np.sum(np.square(clip(cfrc_ext)))`, pairwise, without allocating for up to 512
    /// entries.
    fn contact_square_sum(&self, data: &crate::Data) -> f64 {
        let forces = data.cfrc_ext();
        let mut squares = [0f64; 512];
        if forces.len() <= squares.len() {
            for (square, &force) in squares.iter_mut().zip(forces) {
                let clipped = self.clipped_force(force);
                *square = clipped * clipped;
            }
            pairwise_sum(&squares[..forces.len()])
        } else {
            let squares: Vec<f64> = forces
                .iter()
                .map(|&force| {
                    let clipped = self.clipped_force(force);
                    clipped * clipped
                })
                .collect();
            pairwise_sum(&squares)
        }
    }
}
