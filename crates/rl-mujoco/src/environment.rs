//! [`MujocoDomain`]: one MuJoCo environment as an rl-core [`Domain`], generic over its
//! [`Task`] (Hopper's rewards and observations, HalfCheetah's, ...). What every task shares
//! lives in [`Setup`], Gymnasium's `MujocoEnv`: the compiled model, `frame_skip`, `dt`, the
//! initial configuration, and the step (`ctrl` set, `mj_step` `frame_skip` times, then
//! `mj_rnePostConstraint`).
//!
//! The state is the simulation's [`Data`] (`mjData`): stepped in place by
//! [`Domain::step_in_place`], copied by `mj_copyData` where a copy is asked for.

use std::fmt;
use std::sync::Arc;

use ndarray::{ArrayD, IxDyn};
use rand::Rng;
use rl_core::registry::PythonType;
use rl_core::{Domain, Info, Mode, TransitionOutcome, Value};
use rl_spaces::numpy_random::{standard_normal, uniform};
use rl_spaces::{BoxSpace, FlatScalar, FlattenSpace, RowLayout, SpaceError};

use crate::assets::ModelSource;
use crate::error::MujocoError;
use crate::library::library;
use crate::simulation::{Data, Model};

/// What every MuJoCo environment shares (Gymnasium's `MujocoEnv`).
#[derive(Debug)]
pub struct Setup {
    xml_file: String,
    model: Arc<Model>,
    frame_skip: u32,
    dt: f64,
    init_qpos: Vec<f64>,
    init_qvel: Vec<f64>,
}

impl Setup {
    /// Loads the model of `xml_file` (see [`ModelSource`]) from the process's MuJoCo library.
    pub fn new(xml_file: &str, frame_skip: u32) -> Result<Setup, MujocoError> {
        if frame_skip == 0 {
            return Err(MujocoError::Parameter {
                name: "frame_skip",
                reason: "must be at least 1".into(),
            });
        }
        let source =
            ModelSource::from_xml_file(xml_file).map_err(|reason| MujocoError::Parameter {
                name: "xml_file",
                reason,
            })?;
        let library = library()?;
        let model = match source {
            ModelSource::Asset(name, text) => Model::from_xml_text(library, name, text)?,
            ModelSource::Path(path) => Model::from_xml_path(library, &path)?,
        };
        let model = Arc::new(model);
        // Gymnasium's `init_qpos`/`init_qvel`: a fresh mjData's (qpos0, zeros).
        let data = Data::new(Arc::clone(&model))?;
        let dt = model.timestep() * f64::from(frame_skip);
        Ok(Setup {
            xml_file: xml_file.to_owned(),
            init_qpos: data.qpos().to_vec(),
            init_qvel: data.qvel().to_vec(),
            model,
            frame_skip,
            dt,
        })
    }

    /// The `xml_file` parameter the model was loaded from (see [`ModelSource`]).
    pub fn xml_file(&self) -> &str {
        &self.xml_file
    }

    /// The compiled model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// MuJoCo steps per environment step.
    pub fn frame_skip(&self) -> u32 {
        self.frame_skip
    }

    /// The environment's time step, `opt.timestep * frame_skip` (Gymnasium's `dt`).
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The initial positions (Gymnasium's `init_qpos`).
    pub fn init_qpos(&self) -> &[f64] {
        &self.init_qpos
    }

    /// The initial velocities (Gymnasium's `init_qvel`).
    pub fn init_qvel(&self) -> &[f64] {
        &self.init_qvel
    }

    /// `do_simulation`: the action as the controls (float32 widened), `mj_step`
    /// `frame_skip` times, then `mj_rnePostConstraint`.
    pub fn simulate(&self, data: &mut Data, action: &[f32]) {
        for (control, &value) in data.ctrl_mut().iter_mut().zip(action) {
            *control = f64::from(value);
        }
        data.step(self.frame_skip);
        data.rne_post_constraint();
    }

    /// The usual reset noise: `qpos = init_qpos + uniform(-scale, scale, nq)`, then `qvel`
    /// likewise (Hopper, Walker2d, InvertedPendulum, ...), then [`Setup::set_state`].
    pub fn reset_uniform<R: Rng + ?Sized>(&self, data: &mut Data, scale: f64, rng: &mut R) {
        for (position, &initial) in data.qpos_mut().iter_mut().zip(&self.init_qpos) {
            *position = initial + uniform(rng, -scale, scale);
        }
        for (velocity, &initial) in data.qvel_mut().iter_mut().zip(&self.init_qvel) {
            *velocity = initial + uniform(rng, -scale, scale);
        }
        self.set_state(data);
    }

    /// The reset noise of HalfCheetah, Ant and InvertedDoublePendulum: `qpos` as in
    /// [`reset_uniform`](Self::reset_uniform), `qvel = init_qvel + scale *
    /// standard_normal(nv)`.
    pub fn reset_uniform_normal<R: Rng + ?Sized>(&self, data: &mut Data, scale: f64, rng: &mut R) {
        for (position, &initial) in data.qpos_mut().iter_mut().zip(&self.init_qpos) {
            *position = initial + uniform(rng, -scale, scale);
        }
        for (velocity, &initial) in data.qvel_mut().iter_mut().zip(&self.init_qvel) {
            *velocity = initial + scale * standard_normal(rng);
        }
        self.set_state(data);
    }

    /// `set_state` after `qpos` and `qvel` were written: `mj_forward`.
    pub fn set_state(&self, data: &mut Data) {
        data.forward();
    }
}

/// What one environment adds to [`Setup`]: its reset noise, observation, reward, termination
/// and infos, as its Gymnasium v5 class computes them.
pub trait Task: Clone + fmt::Debug + Send + Sync + 'static {
    /// The Python types of the entries of Gymnasium's infos (step and reset) by key, which
    /// the registration hands the Python package (rl-core's
    /// [`RunSettings::info_types`](rl_core::registry::RunSettings::info_types)): NumPy
    /// `float64` scalars mostly, the control cost a `float32` where Gymnasium computes it
    /// from the float32 action, arrays for the tendons. None by default.
    const INFO_TYPES: &'static [(&'static str, PythonType)] = &[];

    /// The Python type of Gymnasium's reward
    /// ([`RunSettings::reward_type`](rl_core::registry::RunSettings::reward_type)): a NumPy
    /// `float64` by default.
    const REWARD_TYPE: PythonType = PythonType::Float64;

    /// The length of the observation.
    fn observation_size(&self, setup: &Setup) -> usize;

    /// Draws the initial state into `data`, just reset by `mj_resetData` (`reset_model`).
    fn reset<R: Rng + ?Sized>(&self, setup: &Setup, data: &mut Data, rng: &mut R);

    /// Writes the observation of `data` into `out` (`observation_size` entries).
    fn observe(&self, setup: &Setup, data: &Data, out: &mut [f64]);

    /// Steps `data` under `action` (`nu` float32 values): the reward, whether the state
    /// reached is terminal, and the step's info.
    fn step(&self, setup: &Setup, data: &mut Data, action: &[f32]) -> (f64, bool, Info);

    /// Whether `data` is terminal (what `step` reports for the state it reaches).
    fn is_terminal(&self, setup: &Setup, data: &Data) -> bool;

    /// The info of a reset to `data` (Gymnasium's `_get_reset_info`; empty by default, as
    /// `MujocoEnv`'s).
    fn reset_info(&self, setup: &Setup, data: &Data) -> Info {
        let _ = (setup, data);
        Info::new()
    }
}

/// One MuJoCo environment: a [`Task`] on its [`Setup`], with Gymnasium's spaces (a float64
/// observation Box unbounded, a float32 action Box of the actuators' control ranges) and
/// time limit.
#[derive(Clone)]
pub struct MujocoDomain<T: Task> {
    task: T,
    setup: Arc<Setup>,
    observation_space: BoxSpace<f64>,
    action_space: BoxSpace<f32>,
    max_episode_steps: u64,
}

impl<T: Task> fmt::Debug for MujocoDomain<T> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("MujocoDomain")
            .field("task", &self.task)
            .field("model", self.setup.model())
            .field("max_episode_steps", &self.max_episode_steps)
            .finish_non_exhaustive()
    }
}

/// The largest observation written through the stack (longer ones go through a vector).
const STACK_OBSERVATION: usize = 512;

impl<T: Task> MujocoDomain<T> {
    /// The environment of `task` on `setup`, truncated after `max_episode_steps`.
    pub fn new(task: T, setup: Setup, max_episode_steps: u64) -> Result<Self, MujocoError> {
        if max_episode_steps == 0 {
            return Err(MujocoError::Parameter {
                name: "max_episode_steps",
                reason: "must be at least 1".into(),
            });
        }
        let size = task.observation_size(&setup);
        let observation_space = BoxSpace::new(
            ArrayD::from_elem(IxDyn(&[size]), f64::NEG_INFINITY),
            ArrayD::from_elem(IxDyn(&[size]), f64::INFINITY),
        )?;
        // Gymnasium's `_set_action_space`: the control ranges as float32.
        let ranges = setup.model().actuator_ctrlrange();
        let nu = setup.model().sizes().nu;
        let low: Vec<f32> = ranges.chunks(2).map(|pair| pair[0] as f32).collect();
        let high: Vec<f32> = ranges.chunks(2).map(|pair| pair[1] as f32).collect();
        let action_space = BoxSpace::new(
            ArrayD::from_shape_vec(IxDyn(&[nu]), low).map_err(|error| MujocoError::Parameter {
                name: "xml_file",
                reason: error.to_string(),
            })?,
            ArrayD::from_shape_vec(IxDyn(&[nu]), high).map_err(|error| MujocoError::Parameter {
                name: "xml_file",
                reason: error.to_string(),
            })?,
        )?;
        Ok(MujocoDomain {
            task,
            setup: Arc::new(setup),
            observation_space,
            action_space,
            max_episode_steps,
        })
    }

    /// The task.
    pub fn task(&self) -> &T {
        &self.task
    }

    /// The shared setup (model, `frame_skip`, `dt`).
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The JSON form of `state` (what pickles and `state()` carry; `None` for a model with
    /// plugins): `{"mujoco": VERSION, "model": NAME, "bytes": HEX}`, `HEX` the state's bytes
    /// ([`Data::to_bytes`]: its time and main buffer, every array of numbers of the state)
    /// in hexadecimal. Read back by [`state_from_json`](Self::state_from_json), it steps,
    /// observes and draws as `state`, bit for bit, with the same MuJoCo version and model.
    pub fn state_to_json(&self, state: &Data) -> Option<serde_json::Value> {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let bytes = state.to_bytes()?;
        let mut text = String::with_capacity(2 * bytes.len());
        for byte in bytes {
            text.push(char::from(DIGITS[usize::from(byte >> 4)]));
            text.push(char::from(DIGITS[usize::from(byte & 15)]));
        }
        Some(serde_json::json!({
            "mujoco": state.model().library().version_text(),
            "model": self.setup.xml_file(),
            "bytes": text,
        }))
    }

    /// A state of this environment's model from the JSON of
    /// [`state_to_json`](Self::state_to_json), or why `value` is not one (another MuJoCo
    /// version, bytes of another length, not hexadecimal).
    pub fn state_from_json(&self, value: &serde_json::Value) -> Result<Data, String> {
        let model = self.setup.model();
        let version = model.library().version_text();
        match value.get("mujoco").and_then(serde_json::Value::as_str) {
            Some(given) if given == version => {}
            Some(given) => {
                return Err(format!(
                    "a state of MuJoCo {given}; this environment runs MuJoCo {version}, whose \
                     states are laid out otherwise"
                ));
            }
            None => {
                return Err(
                    "not a MuJoCo state: no `mujoco` version (a state is {\"mujoco\", \
                     \"model\", \"bytes\"})"
                        .into(),
                );
            }
        }
        let text = value
            .get("bytes")
            .and_then(serde_json::Value::as_str)
            .ok_or("`bytes` is not a string of hexadecimal digits")?;
        let mut data = Data::new(Arc::clone(model)).map_err(|error| error.to_string())?;
        let expected = data.bytes_len();
        if text.len() != 2 * expected {
            return Err(format!(
                "`bytes` holds {} hexadecimal digits; a state of {} is {} ({expected} bytes)",
                text.len(),
                self.setup.xml_file(),
                2 * expected
            ));
        }
        let digit = |character: u8| match character {
            b'0'..=b'9' => Some(character - b'0'),
            b'a'..=b'f' => Some(character - b'a' + 10),
            b'A'..=b'F' => Some(character - b'A' + 10),
            _ => None,
        };
        let bytes = text
            .as_bytes()
            .chunks_exact(2)
            .enumerate()
            .map(|(index, pair)| match (digit(pair[0]), digit(pair[1])) {
                (Some(high), Some(low)) => Ok((high << 4) | low),
                _ => Err(format!(
                    "`bytes` is not hexadecimal at character {}",
                    2 * index
                )),
            })
            .collect::<Result<Vec<u8>, String>>()?;
        data.set_bytes(&bytes).map_err(|error| error.to_string())?;
        Ok(data)
    }

    /// Calls `write` with the observation of `state` as a slice, without allocating for
    /// observations of up to 512 entries.
    fn with_observation<O>(&self, state: &Data, write: impl FnOnce(&[f64]) -> O) -> O {
        let size = self.observation_space.shape()[0];
        if size <= STACK_OBSERVATION {
            let mut buffer = [0.0; STACK_OBSERVATION];
            self.task.observe(&self.setup, state, &mut buffer[..size]);
            write(&buffer[..size])
        } else {
            let mut buffer = vec![0.0; size];
            self.task.observe(&self.setup, state, &mut buffer);
            write(&buffer)
        }
    }
}

impl<T: Task> Domain for MujocoDomain<T> {
    type State = Data;
    type Observation = ArrayD<f64>;
    type Action = ArrayD<f32>;
    type ObservationSpace = BoxSpace<f64>;
    type ActionSpace = BoxSpace<f32>;

    fn observation_space(&self) -> &BoxSpace<f64> {
        &self.observation_space
    }

    fn action_space(&self) -> &BoxSpace<f32> {
        &self.action_space
    }

    /// True: a step is `frame_skip` calls of `mj_step` (tens of microseconds to
    /// milliseconds), longer with contacts, and an early end adds a reset, so a vector on
    /// several threads hands out one environment at a time. Measured from Rust, 64
    /// environments on 2 threads (docs/PERFORMANCE.md, "MuJoCo: one environment per chunk"):
    /// the share of the threads' time spent waiting for each other fell from 2.7-6.9% with
    /// four chunks per thread to 1.1-1.9%.
    fn costly_steps(&self) -> bool {
        true
    }

    /// The bytes of one `mjData` (its arena, buffer and struct), which MuJoCo allocates
    /// outside the Rust state: vectors reserve them for every environment before building
    /// any, so that too many environments are an error rather than MuJoCo's exit.
    ///
    /// A quarter more than the state itself: the allocator's own memory around MuJoCo's large
    /// blocks (glibc's per-thread arenas, fragmentation) counts against an address-space limit
    /// too, and the exact size let 257 Hopper states pass the check and fail one at a time
    /// in a fuzz child that had run threads (found by the Python fuzz target).
    fn state_heap_bytes(&self) -> usize {
        let bytes = self.setup.model().sizes().data_bytes;
        bytes.saturating_add(bytes / 4)
    }

    /// A new `mjData`, then [`initial_state_into`](Domain::initial_state_into).
    ///
    /// # Panics
    /// When MuJoCo cannot allocate the data (out of memory, [`Data::new`]'s error); vectors
    /// check the memory of all their states first ([`Domain::state_heap_bytes`]).
    fn initial_state<R: Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> Data {
        let mut data = Data::new(Arc::clone(self.setup.model()))
            .unwrap_or_else(|error| panic!("making MuJoCo data: {error}"));
        self.initial_state_into(&mut data, mode, rng);
        data
    }

    /// Gymnasium's `reset`: `mj_resetData`, then the task's `reset_model`.
    fn initial_state_into<R: Rng + ?Sized>(&self, state: &mut Data, _mode: Mode, rng: &mut R) {
        state.reset();
        self.task.reset(&self.setup, state, rng);
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &Data,
        action: &ArrayD<f32>,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<Data> {
        let mut next_state = state.clone();
        let outcome = self.step_in_place(&mut next_state, action, mode, rng);
        TransitionOutcome {
            next_state,
            value: outcome.value,
            terminated: outcome.terminated,
            info: outcome.info,
        }
    }

    fn step_in_place<R: Rng + ?Sized>(
        &self,
        state: &mut Data,
        action: &ArrayD<f32>,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<()> {
        let (reward, terminated, info) = match action.as_slice() {
            Some(values) => self.task.step(&self.setup, state, values),
            None => {
                let values: Vec<f32> = action.iter().copied().collect();
                self.task.step(&self.setup, state, &values)
            }
        };
        TransitionOutcome {
            next_state: (),
            value: Value::from_reward(reward),
            terminated,
            info,
        }
    }

    fn observe(&self, state: &Data) -> ArrayD<f64> {
        self.with_observation(state, |values| {
            ArrayD::from_shape_vec(IxDyn(&[values.len()]), values.to_vec())
                .unwrap_or_else(|_| ArrayD::zeros(IxDyn(&[0])))
        })
    }

    fn observe_flat_into<F: FlatScalar>(
        &self,
        state: &Data,
        out: &mut [F],
    ) -> Result<(), SpaceError>
    where
        BoxSpace<f64>: FlattenSpace,
    {
        self.with_observation(state, |values| {
            if out.len() != values.len() {
                return Err(SpaceError::LengthMismatch {
                    what: "observation row",
                    expected: values.len(),
                    found: out.len(),
                });
            }
            for (slot, &value) in out.iter_mut().zip(values) {
                *slot = F::from_f64(value);
            }
            Ok(())
        })
    }

    fn observe_row_into<F: FlatScalar>(
        &self,
        state: &Data,
        _layout: RowLayout,
        out: &mut [F],
    ) -> Result<(), SpaceError>
    where
        BoxSpace<f64>: FlattenSpace,
    {
        // A Box's batched row is its flat row.
        self.observe_flat_into(state, out)
    }

    fn is_terminal(&self, state: &Data) -> bool {
        self.task.is_terminal(&self.setup, state)
    }

    fn reset_info(&self, state: &Data) -> Info {
        self.task.reset_info(&self.setup, state)
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.max_episode_steps)
    }

    /// Any finite float32 action of the right length: Gymnasium passes actions beyond the
    /// control ranges to MuJoCo, which clamps the controls (the control cost is the
    /// unclamped action's, as in Gymnasium).
    fn accepts_action(&self, action: &ArrayD<f32>) -> bool {
        action.shape() == self.action_space.shape() && action.iter().all(|value| value.is_finite())
    }

    fn continuous_dimensions(&self) -> Vec<usize> {
        (0..self.setup.model().sizes().nq + self.setup.model().sizes().nv).collect()
    }
}
