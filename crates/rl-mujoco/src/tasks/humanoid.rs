//! Humanoid-v5: Gymnasium 1.4.0's `HumanoidEnv` (`humanoid_v5.py`), a 3D biped walking
//! forward, and the observation it shares with HumanoidStandup.
//!
//! Reward `forward_reward_weight * x_velocity + healthy_reward - (ctrl_cost + contact_cost)`:
//! the velocity of the centre of mass (`mass_center`: NumPy's `einsum` of the bodies' masses
//! and `xipos`, accumulated body by body, over their pairwise sum); the control cost
//! `ctrl_cost_weight * sum(ctrl^2)` in float64 (of `data.ctrl`, not the float32 action); the
//! contact cost `contact_cost_weight * sum(cfrc_ext^2)` clipped to `contact_cost_range`.
//! Terminated when the height `qpos[2]` leaves the open `healthy_z_range` if
//! `terminate_when_unhealthy`. Observation: `qpos` without x and y (unless
//! `exclude_current_positions_from_observation` is false), `qvel`, then, each if included,
//! `cinert`, `cvel` and `cfrc_ext` of every body but the world and `qfrc_actuator` without the
//! free joint's 6. Reset: `qpos` and `qvel` plus `uniform` noise. Infos: `x_position`,
//! `y_position`, `tendon_length`, `tendon_velocity` (lists), `distance_from_origin`,
//! `x_velocity`, `y_velocity`, `reward_survive`, `reward_forward`, `reward_ctrl`,
//! `reward_contact`.

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::{
    NumpyOperation, accumulation, clip, multiply_add, norm, pairwise_sum, sum_of_squares_f64,
};
use crate::params::{finite, ordered, range};
use crate::simulation::Data;
use crate::tasks::locomotion::write_positions_velocities;
use crate::tasks::{bool_times, in_open_range};
use rl_core::registry::PythonType;

/// Which parts the humanoids' observations hold (their `include_*_in_observation` and
/// `exclude_current_positions_from_observation` arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HumanoidParts {
    pub(crate) exclude_current_positions: bool,
    pub(crate) cinert: bool,
    pub(crate) cvel: bool,
    pub(crate) qfrc_actuator: bool,
    pub(crate) cfrc_ext: bool,
}

impl HumanoidParts {
    fn skipped(&self) -> usize {
        2 * usize::from(self.exclude_current_positions)
    }

    /// The observation's length.
    pub(crate) fn size(&self, setup: &Setup) -> usize {
        let sizes = setup.model().sizes();
        let bodies = sizes.nbody.saturating_sub(1);
        sizes.nq + sizes.nv - self.skipped()
            + 10 * bodies * usize::from(self.cinert)
            + 6 * bodies * usize::from(self.cvel)
            + sizes.nv.saturating_sub(6) * usize::from(self.qfrc_actuator)
            + 6 * bodies * usize::from(self.cfrc_ext)
    }

    /// Writes the observation.
    pub(crate) fn observe(&self, data: &Data, out: &mut [f64]) {
        let mut rest = write_positions_velocities(data.qpos(), self.skipped(), data.qvel(), out);
        let parts: [(bool, &[f64]); 4] = [
            (self.cinert, data.cinert().get(10..).unwrap_or(&[])),
            (self.cvel, data.cvel().get(6..).unwrap_or(&[])),
            (
                self.qfrc_actuator,
                data.qfrc_actuator().get(6..).unwrap_or(&[]),
            ),
            (self.cfrc_ext, data.cfrc_ext().get(6..).unwrap_or(&[])),
        ];
        for (included, values) in parts {
            if included {
                let (head, tail) = rest.split_at_mut(values.len());
                head.copy_from_slice(values);
                rest = tail;
            }
        }
    }
}

/// The tendons' lengths and velocities as info lists (two floats each: kept in the info's
/// values, no allocation).
pub(crate) fn insert_tendons(info: &mut Info, data: &Data) {
    info.insert("tendon_length", data.ten_length());
    info.insert("tendon_velocity", data.ten_velocity());
}

/// Humanoid-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HumanoidParams {
    /// The model file (`"humanoid.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (5).
    pub frame_skip: u32,
    /// The weight of the forward velocity (1.25).
    pub forward_reward_weight: f64,
    /// The weight of the control cost (0.1).
    pub ctrl_cost_weight: f64,
    /// The weight of the contact cost (5e-7).
    pub contact_cost_weight: f64,
    /// The range the contact cost is clipped to (`[-inf, 10]`).
    #[serde(deserialize_with = "range")]
    pub contact_cost_range: [f64; 2],
    /// The reward of each healthy step (5.0).
    pub healthy_reward: f64,
    /// Whether an unhealthy state ends the episode (true).
    pub terminate_when_unhealthy: bool,
    /// The open range of the height (`[1.0, 2.0]`).
    #[serde(deserialize_with = "range")]
    pub healthy_z_range: [f64; 2],
    /// The scale of the reset noise (1e-2).
    pub reset_noise_scale: f64,
    /// Whether the observation leaves out the x and y positions (true).
    pub exclude_current_positions_from_observation: bool,
    /// Whether the observation holds `cinert` (true).
    pub include_cinert_in_observation: bool,
    /// Whether the observation holds `cvel` (true).
    pub include_cvel_in_observation: bool,
    /// Whether the observation holds `qfrc_actuator` (true).
    pub include_qfrc_actuator_in_observation: bool,
    /// Whether the observation holds `cfrc_ext` (true).
    pub include_cfrc_ext_in_observation: bool,
    /// The time limit in steps (1000).
    pub max_episode_steps: u64,
}

impl Default for HumanoidParams {
    fn default() -> Self {
        HumanoidParams {
            xml_file: "humanoid.xml".into(),
            frame_skip: 5,
            forward_reward_weight: 1.25,
            ctrl_cost_weight: 0.1,
            contact_cost_weight: 5e-7,
            contact_cost_range: [f64::NEG_INFINITY, 10.0],
            healthy_reward: 5.0,
            terminate_when_unhealthy: true,
            healthy_z_range: [1.0, 2.0],
            reset_noise_scale: 1e-2,
            exclude_current_positions_from_observation: true,
            include_cinert_in_observation: true,
            include_cvel_in_observation: true,
            include_qfrc_actuator_in_observation: true,
            include_cfrc_ext_in_observation: true,
            max_episode_steps: 1000,
        }
    }
}

/// Humanoid-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct Humanoid {
    params: HumanoidParams,
    parts: HumanoidParts,
    /// `body_mass.sum()`, pairwise.
    total_mass: f64,
}

/// Humanoid-v5 as a domain.
pub type HumanoidDomain = MujocoDomain<Humanoid>;

/// Checks that a humanoid model has the free joint and the bodies the observation reads.
pub(crate) fn check_humanoid_model(setup: &Setup) -> Result<(), MujocoError> {
    let sizes = setup.model().sizes();
    if sizes.nq < 3 || sizes.nv < 6 {
        return Err(MujocoError::Parameter {
            name: "xml_file",
            reason:
                "a humanoid needs a model with a free joint (at least 3 positions, 6 velocities)"
                    .into(),
        });
    }
    Ok(())
}

impl Humanoid {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: HumanoidParams) -> Result<HumanoidDomain, MujocoError> {
        for (name, value) in [
            ("forward_reward_weight", params.forward_reward_weight),
            ("ctrl_cost_weight", params.ctrl_cost_weight),
            ("contact_cost_weight", params.contact_cost_weight),
            ("healthy_reward", params.healthy_reward),
            ("reset_noise_scale", params.reset_noise_scale),
        ] {
            finite(name, value)?;
        }
        ordered("contact_cost_range", params.contact_cost_range)?;
        ordered("healthy_z_range", params.healthy_z_range)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        check_humanoid_model(&setup)?;
        let parts = HumanoidParts {
            exclude_current_positions: params.exclude_current_positions_from_observation,
            cinert: params.include_cinert_in_observation,
            cvel: params.include_cvel_in_observation,
            qfrc_actuator: params.include_qfrc_actuator_in_observation,
            cfrc_ext: params.include_cfrc_ext_in_observation,
        };
        let total_mass = pairwise_sum(setup.model().body_mass());
        let steps = params.max_episode_steps;
        MujocoDomain::new(
            Humanoid {
                params,
                parts,
                total_mass,
            },
            setup,
            steps,
        )
    }

    /// The parameters.
    pub fn params(&self) -> &HumanoidParams {
        &self.params
    }

    /// Gymnasium's `mass_center`: `einsum("b,bj->j", body_mass, xipos) / body_mass.sum()`,
    /// its x and y.
    fn mass_center(&self, data: &Data) -> [f64; 2] {
        let masses = data.model().body_mass();
        let xipos = data.xipos();
        // np.einsum("b,bj->j", body_mass, xipos): bodies in order, fused on processors whose
        // NumPy fuses (NumpyOperation::Einsum).
        let way = accumulation(NumpyOperation::Einsum);
        let mut sums = [0.0f64; 2];
        for (body, &mass) in masses.iter().enumerate() {
            for (axis, sum) in sums.iter_mut().enumerate() {
                *sum = multiply_add(mass, xipos[3 * body + axis], *sum, way);
            }
        }
        [sums[0] / self.total_mass, sums[1] / self.total_mass]
    }

    fn is_healthy(&self, data: &Data) -> bool {
        in_open_range(data.qpos()[2], self.params.healthy_z_range)
    }
}

impl Task for Humanoid {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("x_position", PythonType::Float64),
        ("y_position", PythonType::Float64),
        ("tendon_length", PythonType::Float64Array),
        ("tendon_velocity", PythonType::Float64Array),
        ("distance_from_origin", PythonType::Float64),
        ("x_velocity", PythonType::Float64),
        ("y_velocity", PythonType::Float64),
        ("reward_survive", PythonType::Float64),
        ("reward_forward", PythonType::Float64),
        ("reward_ctrl", PythonType::Float64),
        ("reward_contact", PythonType::Float64),
    ];

    fn observation_size(&self, setup: &Setup) -> usize {
        self.parts.size(setup)
    }

    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut Data, rng: &mut R) {
        setup.reset_uniform(data, self.params.reset_noise_scale, rng);
    }

    fn observe(&self, _setup: &Setup, data: &Data, out: &mut [f64]) {
        self.parts.observe(data, out);
    }

    fn step(&self, setup: &Setup, data: &mut Data, action: &[f32]) -> (f64, bool, Info) {
        let p = &self.params;
        let before = self.mass_center(data);
        setup.simulate(data, action);
        let after = self.mass_center(data);
        let x_velocity = (after[0] - before[0]) / setup.dt();
        let y_velocity = (after[1] - before[1]) / setup.dt();
        let forward_reward = p.forward_reward_weight * x_velocity;
        let healthy = self.is_healthy(data);
        let healthy_reward = bool_times(healthy, p.healthy_reward);
        let rewards = forward_reward + healthy_reward;
        let ctrl_cost = p.ctrl_cost_weight * sum_of_squares_f64(data.ctrl());
        let [min_cost, max_cost] = p.contact_cost_range;
        let contact_cost = clip(
            p.contact_cost_weight * sum_of_squares_f64(data.cfrc_ext()),
            min_cost,
            max_cost,
        );
        let costs = ctrl_cost + contact_cost;
        let reward = rewards - costs;
        let terminated = !healthy && p.terminate_when_unhealthy;
        let qpos = data.qpos();
        let mut info = Info::new();
        info.insert("x_position", qpos[0]);
        info.insert("y_position", qpos[1]);
        insert_tendons(&mut info, data);
        info.insert("distance_from_origin", norm(&data.qpos()[..2]));
        info.insert("x_velocity", x_velocity);
        info.insert("y_velocity", y_velocity);
        info.insert("reward_survive", healthy_reward);
        info.insert("reward_forward", forward_reward);
        info.insert("reward_ctrl", -ctrl_cost);
        info.insert("reward_contact", -contact_cost);
        (reward, terminated, info)
    }

    fn is_terminal(&self, _setup: &Setup, data: &Data) -> bool {
        !self.is_healthy(data) && self.params.terminate_when_unhealthy
    }

    fn reset_info(&self, _setup: &Setup, data: &Data) -> Info {
        let qpos = data.qpos();
        let mut info = Info::new();
        info.insert("x_position", qpos[0]);
        info.insert("y_position", qpos[1]);
        insert_tendons(&mut info, data);
        info.insert("distance_from_origin", norm(&qpos[..2]));
        info
    }
}
