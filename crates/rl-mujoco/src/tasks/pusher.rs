//! Pusher-v5: Gymnasium 1.4.0's `PusherEnv` (`pusher_v5.py`), a seven-joint arm pushing a
//! cylinder to a goal.
//!
//! Reward `reward_dist + reward_ctrl + reward_near`: `reward_near = -norm(object -
//! tips_arm) * reward_near_weight`, `reward_dist = -norm(object - goal) *
//! reward_dist_weight`, `reward_ctrl = -sum(action^2) * reward_control_weight` in float32;
//! never terminates. Observation: `qpos[:7]`, `qvel[:7]`, then the positions of `tips_arm`,
//! `object` and `goal`. Reset: the initial `qpos` with the cylinder drawn `[uniform(-0.3, 0),
//! uniform(-0.2, 0.2)]` until it is farther than 0.17 from the goal at the origin, `qvel` plus
//! `uniform(-0.005, 0.005)` with the last 4 zero. Infos: `reward_dist`, `reward_ctrl`,
//! `reward_near`. The time limit is 100 steps.

use rand::Rng;
use rl_core::Info;
use rl_spaces::numpy_random::uniform;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::{norm, sum_of_squares_f32};
use crate::params::finite;
use crate::simulation::Data;
use crate::tasks::info;
use crate::tasks::locomotion::body;
use rl_core::registry::PythonType;

/// Pusher-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PusherParams {
    /// The model file (`"pusher_v5.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (5).
    pub frame_skip: u32,
    /// The weight of the arm-to-object term (0.5).
    pub reward_near_weight: f64,
    /// The weight of the object-to-goal term (1).
    pub reward_dist_weight: f64,
    /// The weight of the control term (0.1).
    pub reward_control_weight: f64,
    /// The time limit in steps (100).
    pub max_episode_steps: u64,
}

impl Default for PusherParams {
    fn default() -> Self {
        PusherParams {
            xml_file: "pusher_v5.xml".into(),
            frame_skip: 5,
            reward_near_weight: 0.5,
            reward_dist_weight: 1.0,
            reward_control_weight: 0.1,
            max_episode_steps: 100,
        }
    }
}

/// Pusher-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct Pusher {
    params: PusherParams,
    tips_arm: usize,
    object: usize,
    goal: usize,
}

/// Pusher-v5 as a domain.
pub type PusherDomain = MujocoDomain<Pusher>;

impl Pusher {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: PusherParams) -> Result<PusherDomain, MujocoError> {
        finite("reward_near_weight", params.reward_near_weight)?;
        finite("reward_dist_weight", params.reward_dist_weight)?;
        finite("reward_control_weight", params.reward_control_weight)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        let sizes = setup.model().sizes();
        if sizes.nq < 7 || sizes.nv < 7 {
            return Err(MujocoError::Parameter {
                name: "xml_file",
                reason: "Pusher needs a model with at least 7 positions and 7 velocities".into(),
            });
        }
        let tips_arm = body(setup.model(), "tips_arm")?;
        let object = body(setup.model(), "object")?;
        let goal = body(setup.model(), "goal")?;
        let steps = params.max_episode_steps;
        MujocoDomain::new(
            Pusher {
                params,
                tips_arm,
                object,
                goal,
            },
            setup,
            steps,
        )
    }

    /// The parameters.
    pub fn params(&self) -> &PusherParams {
        &self.params
    }

    fn difference(data: &Data, a: usize, b: usize) -> [f64; 3] {
        let xpos = data.xpos();
        let (a, b) = (3 * a, 3 * b);
        [
            xpos[a] - xpos[b],
            xpos[a + 1] - xpos[b + 1],
            xpos[a + 2] - xpos[b + 2],
        ]
    }
}

impl Task for Pusher {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("reward_dist", PythonType::Float64),
        ("reward_ctrl", PythonType::Float32),
        ("reward_near", PythonType::Float64),
    ];

    fn observation_size(&self, _setup: &Setup) -> usize {
        23
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut Data, rng: &mut R) {
        let cylinder = loop {
            let cylinder = [uniform(rng, -0.3, 0.0), uniform(rng, -0.2, 0.2)];
            if norm(&cylinder) > 0.17 {
                break cylinder;
            }
        };
        let qpos = data.qpos_mut();
        qpos.copy_from_slice(setup.init_qpos());
        let nq = qpos.len();
        qpos[nq - 4..nq - 2].copy_from_slice(&cylinder);
        qpos[nq - 2..].fill(0.0);
        for (velocity, &initial) in data.qvel_mut().iter_mut().zip(setup.init_qvel()) {
            *velocity = initial + uniform(rng, -0.005, 0.005);
        }
        let qvel = data.qvel_mut();
        let nv = qvel.len();
        qvel[nv - 4..].fill(0.0);
        setup.set_state(data);
    }

    fn observe(&self, _setup: &Setup, data: &Data, out: &mut [f64]) {
        out[..7].copy_from_slice(&data.qpos()[..7]);
        out[7..14].copy_from_slice(&data.qvel()[..7]);
        let xpos = data.xpos();
        for (index, body) in [self.tips_arm, self.object, self.goal]
            .into_iter()
            .enumerate()
        {
            out[14 + 3 * index..17 + 3 * index].copy_from_slice(&xpos[3 * body..3 * body + 3]);
        }
    }

    fn step(&self, setup: &Setup, data: &mut Data, action: &[f32]) -> (f64, bool, Info) {
        let p = &self.params;
        setup.simulate(data, action);
        let near = Self::difference(data, self.object, self.tips_arm);
        let dist = Self::difference(data, self.object, self.goal);
        let reward_near = -norm(&near) * p.reward_near_weight;
        let reward_dist = -norm(&dist) * p.reward_dist_weight;
        let reward_ctrl = -sum_of_squares_f32(action) * p.reward_control_weight as f32;
        let reward = reward_dist + f64::from(reward_ctrl) + reward_near;
        let info = info(&[
            ("reward_dist", reward_dist),
            ("reward_ctrl", f64::from(reward_ctrl)),
            ("reward_near", reward_near),
        ]);
        (reward, false, info)
    }

    fn is_terminal(&self, _setup: &Setup, _data: &Data) -> bool {
        false
    }
}
