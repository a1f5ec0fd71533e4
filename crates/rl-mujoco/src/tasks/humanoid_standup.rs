//! HumanoidStandup-v5: Gymnasium 1.4.0's `HumanoidStandupEnv` (`humanoidstandup_v5.py`), a
//! humanoid lying down that learns to stand up.
//!
//! Reward `uph_cost - quad_ctrl_cost - quad_impact_cost + 1`: `uph_cost = (qpos[2] - 0) /
//! opt.timestep`; `quad_ctrl_cost = ctrl_cost_weight * sum(ctrl^2)` (float64, of
//! `data.ctrl`); `quad_impact_cost = impact_cost_weight * sum(cfrc_ext^2)` clipped to
//! `impact_cost_range`. Never terminates. Observation: Humanoid's
//! ([`humanoid`](super::humanoid)). Reset: `qpos` and `qvel` plus `uniform` noise. Infos:
//! `x_position`, `y_position`, `z_distance_from_origin`, `tendon_length`, `tendon_velocity`,
//! `reward_linup`, `reward_quadctrl`, `reward_impact`. `uph_cost_weight` is accepted and, as
//! in Gymnasium, unused.

use rand::Rng;
use rl_core::Info;
use serde::Deserialize;

use crate::environment::{MujocoDomain, Setup, Task};
use crate::error::MujocoError;
use crate::numpy_math::{clip, sum_of_squares_f64};
use crate::params::{finite, ordered, range};
use crate::simulation::Data;
use crate::tasks::humanoid::{HumanoidParts, check_humanoid_model, insert_tendons};
use rl_core::registry::PythonType;

/// HumanoidStandup-v5's keyword arguments (Gymnasium's defaults) and time limit.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HumanoidStandupParams {
    /// The model file (`"humanoidstandup.xml"`).
    pub xml_file: String,
    /// MuJoCo steps per environment step (5).
    pub frame_skip: u32,
    /// Unused, as in Gymnasium (1).
    pub uph_cost_weight: f64,
    /// The weight of the control cost (0.1).
    pub ctrl_cost_weight: f64,
    /// The weight of the impact cost (0.5e-6).
    pub impact_cost_weight: f64,
    /// The range the impact cost is clipped to (`[-inf, 10]`).
    #[serde(deserialize_with = "range")]
    pub impact_cost_range: [f64; 2],
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

impl Default for HumanoidStandupParams {
    fn default() -> Self {
        HumanoidStandupParams {
            xml_file: "humanoidstandup.xml".into(),
            frame_skip: 5,
            uph_cost_weight: 1.0,
            ctrl_cost_weight: 0.1,
            impact_cost_weight: 0.5e-6,
            impact_cost_range: [f64::NEG_INFINITY, 10.0],
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

/// HumanoidStandup-v5's task (see the [module](self)).
#[derive(Debug, Clone)]
pub struct HumanoidStandup {
    params: HumanoidStandupParams,
    parts: HumanoidParts,
}

/// HumanoidStandup-v5 as a domain.
pub type HumanoidStandupDomain = MujocoDomain<HumanoidStandup>;

impl HumanoidStandup {
    /// The domain with `params`, on the process's MuJoCo library.
    pub fn domain(params: HumanoidStandupParams) -> Result<HumanoidStandupDomain, MujocoError> {
        for (name, value) in [
            ("uph_cost_weight", params.uph_cost_weight),
            ("ctrl_cost_weight", params.ctrl_cost_weight),
            ("impact_cost_weight", params.impact_cost_weight),
            ("reset_noise_scale", params.reset_noise_scale),
        ] {
            finite(name, value)?;
        }
        ordered("impact_cost_range", params.impact_cost_range)?;
        let setup = Setup::new(&params.xml_file, params.frame_skip)?;
        check_humanoid_model(&setup)?;
        let parts = HumanoidParts {
            exclude_current_positions: params.exclude_current_positions_from_observation,
            cinert: params.include_cinert_in_observation,
            cvel: params.include_cvel_in_observation,
            qfrc_actuator: params.include_qfrc_actuator_in_observation,
            cfrc_ext: params.include_cfrc_ext_in_observation,
        };
        let steps = params.max_episode_steps;
        MujocoDomain::new(HumanoidStandup { params, parts }, setup, steps)
    }

    /// The parameters.
    pub fn params(&self) -> &HumanoidStandupParams {
        &self.params
    }
}

impl Task for HumanoidStandup {
    /// Gymnasium's types, as its class computes the entries.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[
        ("x_position", PythonType::Float64),
        ("y_position", PythonType::Float64),
        ("z_distance_from_origin", PythonType::Float64),
        ("tendon_length", PythonType::Float64Array),
        ("tendon_velocity", PythonType::Float64Array),
        ("reward_linup", PythonType::Float64),
        ("reward_quadctrl", PythonType::Float64),
        ("reward_impact", PythonType::Float64),
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
        setup.simulate(data, action);
        let position_after = data.qpos()[2];
        let uph_cost = (position_after - 0.0) / setup.model().timestep();
        let quad_ctrl_cost = p.ctrl_cost_weight * sum_of_squares_f64(data.ctrl());
        let [min_cost, max_cost] = p.impact_cost_range;
        let quad_impact_cost = clip(
            p.impact_cost_weight * sum_of_squares_f64(data.cfrc_ext()),
            min_cost,
            max_cost,
        );
        let reward = uph_cost - quad_ctrl_cost - quad_impact_cost + 1.0;
        let qpos = data.qpos();
        let mut info = Info::new();
        info.insert("x_position", qpos[0]);
        info.insert("y_position", qpos[1]);
        info.insert("z_distance_from_origin", qpos[2] - setup.init_qpos()[2]);
        insert_tendons(&mut info, data);
        info.insert("reward_linup", uph_cost);
        info.insert("reward_quadctrl", -quad_ctrl_cost);
        info.insert("reward_impact", -quad_impact_cost);
        (reward, false, info)
    }

    fn is_terminal(&self, _setup: &Setup, _data: &Data) -> bool {
        false
    }

    fn reset_info(&self, setup: &Setup, data: &Data) -> Info {
        let qpos = data.qpos();
        let mut info = Info::new();
        info.insert("x_position", qpos[0]);
        info.insert("y_position", qpos[1]);
        info.insert("z_distance_from_origin", qpos[2] - setup.init_qpos()[2]);
        insert_tendons(&mut info, data);
        info
    }
}
