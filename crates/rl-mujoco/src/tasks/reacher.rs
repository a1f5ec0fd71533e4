//! Reacher-v5: Gymnasium 1.4.0's `ReacherEnv` (`reacher_v5.py`), a two-joint arm reaching a
//! target.
//!
//! Reward `reward_dist + reward_ctrl`: `reward_dist = -norm(fingertip - target) *
//! reward_dist_weight` (NumPy's `norm`, `sqrt(dot(x, x))`), `reward_ctrl =
//! -sum(action^2) * reward_control_weight` in float32; never terminates. Observation:
//! `cos` and `sin` of the two joint angles (the C library's, as NumPy's float64 ones),
//! `qpos[2:]` (the target), `qvel[:2]`, then `(fingertip - target)[:2]`. Reset: `qpos` plus
//! `uniform(-0.1, 0.1)`, the target drawn `uniform(-0.2, 0.2, 2)` until its norm is below
//! 0.2, `qvel` plus `uniform(-0.005, 0.005)` with the target's velocity zero. Infos:
//! `reward_dist`, `reward_ctrl`. The time limit is 50 steps.

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

/// Reacher-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReacherParams {
    /// The model file (`"reacher.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (2).
    pub frame_skip: u32,
    /// The weight of the distance term (1).
    pub reward_dist_weight: f64,
    /// The weight of the control term (1).
    pub reward_control_weight: f64,
    /// The time limit in steps (50).
    pub max_episode_steps: u64,
}

impl Default for ReacherParams {
    fn default() -> Self {
        ReacherParams {
            xml_file: "reacher.xml".into(),
            frame_skip: 2,
            reward_dist_weight: 1.0,
            reward_control_weight: 1.0,
            max_episode_steps: 50,
        }
    }
}

/// Reacher-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct Reacher {
    params: ReacherParams,
    fingertip: usize,
    target: usize,
}

/// Reacher-v5 as a domain.
pub type ReacherDomain = MujocoDomain<Reacher>;

impl Reacher {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: ReacherParams) -> Result<ReacherDomain, MujocoError> {
        finite("reward_dist_weight", params.reward_dist_weight)?;
        finite("reward_control_weight", params.reward_control_weight)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        let sizes = setup.model().sizes();
        if sizes.nq < 4 || sizes.nv < 2 {
            return Err(MujocoError::Parameter {
                name: "xml_file",
                reason: "Reacher needs a model with at least 4 positions and 2 velocities".into(),
            });
        }
        let fingertip = body(setup.model(), "fingertip")?;
        let target = body(setup.model(), "target")?;
        let steps = params.max_episode_steps;
        MujocoDomain::new(
            Reacher {
                params,
                fingertip,
                target,
            },
            setup,
            steps,
        )
    }

    /// The parameters.
    pub fn params(&self) -> &ReacherParams {
        &self.params
    }

    /// `get_body_com("fingertip") - get_body_com("target")`.
    fn difference(&self, data: &Data) -> [f64; 3] {
        let xpos = data.xpos();
        let (a, b) = (3 * self.fingertip, 3 * self.target);
        [
            xpos[a] - xpos[b],
            xpos[a + 1] - xpos[b + 1],
            xpos[a + 2] - xpos[b + 2],
        ]
    }
}

impl Task for Reacher {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("reward_dist", PythonType::Float64),
        ("reward_ctrl", PythonType::Float32),
    ];

    fn observation_size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        4 + (sizes.nq - 2) + 2 + 2
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut Data, rng: &mut R) {
        for (position, &initial) in data.qpos_mut().iter_mut().zip(setup.init_qpos()) {
            *position = uniform(rng, -0.1, 0.1) + initial;
        }
        let goal = loop {
            let goal = [uniform(rng, -0.2, 0.2), uniform(rng, -0.2, 0.2)];
            if norm(&goal) < 0.2 {
                break goal;
            }
        };
        let qpos = data.qpos_mut();
        let nq = qpos.len();
        qpos[nq - 2..].copy_from_slice(&goal);
        for (velocity, &initial) in data.qvel_mut().iter_mut().zip(setup.init_qvel()) {
            *velocity = initial + uniform(rng, -0.005, 0.005);
        }
        let qvel = data.qvel_mut();
        let nv = qvel.len();
        qvel[nv - 2..].fill(0.0);
        setup.set_state(data);
    }

    fn observe(&self, _setup: &Setup, data: &Data, out: &mut [f64]) {
        let (qpos, qvel) = (data.qpos(), data.qvel());
        out[0] = qpos[0].cos();
        out[1] = qpos[1].cos();
        out[2] = qpos[0].sin();
        out[3] = qpos[1].sin();
        let rest = &mut out[4..];
        let (targets, rest) = rest.split_at_mut(qpos.len() - 2);
        targets.copy_from_slice(&qpos[2..]);
        rest[..2].copy_from_slice(&qvel[..2]);
        let difference = self.difference(data);
        rest[2..4].copy_from_slice(&difference[..2]);
    }

    fn step(&self, setup: &Setup, data: &mut Data, action: &[f32]) -> (f64, bool, Info) {
        let p = &self.params;
        setup.simulate(data, action);
        let reward_dist = -norm(&self.difference(data)) * p.reward_dist_weight;
        let reward_ctrl = -sum_of_squares_f32(action) * p.reward_control_weight as f32;
        let reward = reward_dist + f64::from(reward_ctrl);
        let info = info(&[
            ("reward_dist", reward_dist),
            ("reward_ctrl", f64::from(reward_ctrl)),
        ]);
        (reward, false, info)
    }

    fn is_terminal(&self, _setup: &Setup, _data: &Data) -> bool {
        false
    }
}
