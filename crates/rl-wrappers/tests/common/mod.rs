//! Test domains shared by the integration tests: [`Drift`], a noisy walk with inertia whose
//! structure-of-arrays kernel ([`BatchStep`]) must agree bit for bit with its `Domain::step`;
//! and [`assert_same_rows`], which compares two vectors' results bit for bit.
#![allow(dead_code)] // Each test binary uses a part of this module.

use rand::{Rng, RngExt};
use rl_core::NumpyGenerator;
use rl_core::corridor::Corridor;
use rl_core::{BatchStep, Domain, Info, Mode, TransitionOutcome, Value};
use rl_spaces::{ArrayBox, Discrete, FlatScalar};
use serde::Deserialize;

/// A corridor of `length` cells with slip probability `slip`.
pub(crate) fn corridor(length: u32, slip: f64) -> Corridor {
    Corridor::new(length, slip).expect("valid corridor")
}

/// The parameters of a test registration that takes none.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct NoParams {}

/// A [`Corridor`] with the changes a test asks for; every other `Domain` method is the
/// corridor's.
#[derive(Debug, Clone)]
pub(crate) struct CorridorWith {
    /// The corridor.
    pub(crate) corridor: Corridor,
    /// Each step reports the cell reached as `info["cell"]`.
    pub(crate) reports_cell: bool,
    /// Action masks are written in one pass ([`Domain::action_mask_into`]), as Taxi writes
    /// its own.
    pub(crate) one_pass_masks: bool,
    /// The episode cap, when not the corridor's.
    pub(crate) cap: Option<u64>,
    /// Each reset reports its first cell as `info["start"]` ([`Domain::reset_info`]).
    pub(crate) reports_start: bool,
    /// A step with this action panics (a bug in a domain).
    pub(crate) panics_on: Option<i64>,
}

impl CorridorWith {
    /// The corridor unchanged, to change with the fields.
    pub(crate) fn plain(corridor: Corridor) -> CorridorWith {
        CorridorWith {
            corridor,
            reports_cell: false,
            one_pass_masks: false,
            cap: None,
            reports_start: false,
            panics_on: None,
        }
    }
}

impl Domain for CorridorWith {
    type State = i64;
    type Observation = i64;
    type Action = i64;
    type ObservationSpace = Discrete;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &Discrete {
        self.corridor.observation_space()
    }

    fn action_space(&self) -> &Discrete {
        self.corridor.action_space()
    }

    fn initial_state<R: Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> i64 {
        self.corridor.initial_state(mode, rng)
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &i64,
        action: &i64,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<i64> {
        assert_ne!(Some(*action), self.panics_on, "a fragile corridor");
        let mut outcome = self.corridor.step(state, action, mode, rng);
        if self.reports_cell {
            outcome.info.insert("cell", outcome.next_state);
        }
        outcome
    }

    fn observe(&self, state: &i64) -> i64 {
        self.corridor.observe(state)
    }

    fn is_terminal(&self, state: &i64) -> bool {
        self.corridor.is_terminal(state)
    }

    fn reset_info(&self, state: &i64) -> rl_core::Info {
        let mut info = rl_core::Info::new();
        if self.reports_start {
            info.insert("start", *state);
        }
        info
    }

    fn discount(&self) -> f64 {
        self.corridor.discount()
    }

    fn episode_cap(&self) -> Option<u64> {
        self.cap.or(self.corridor.episode_cap())
    }

    fn is_applicable(&self, state: &i64, action: &i64) -> bool {
        self.corridor.is_applicable(state, action)
    }

    fn action_mask_into(&self, state: &i64, mask: &mut [bool]) -> bool {
        if !self.one_pass_masks {
            return self.corridor.action_mask_into(state, mask);
        }
        for (action, allowed) in (0..).zip(mask.iter_mut()) {
            *allowed = self.corridor.is_applicable(state, &action);
        }
        true
    }

    fn state_count(&self) -> Option<usize> {
        self.corridor.state_count()
    }
}

/// A point with a velocity on a line. Each step pushes it by `0.05 · (action − 1)` plus noise
/// drawn from the generator (no noise when evaluating, but the draw is made anyway); the
/// episode terminates when the position leaves `[-1, 1]` and is truncated after `cap` steps.
/// The reward is minus the squared position. Episodes start at a random position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Drift {
    cap: u64,
    noise: f64,
    actions: Discrete,
    observations: ArrayBox<f32, 2>,
    /// Each step reports the velocity reached as `info["velocity"]`, which the kernel writes
    /// too ([`BatchStep::write_infos`]).
    reports_velocity: bool,
}

/// The state of a [`Drift`]: position and velocity.
pub(crate) type DriftState = [f64; 2];

impl Drift {
    pub(crate) fn new(cap: u64, noise: f64) -> Self {
        Drift {
            cap,
            noise,
            actions: Discrete::new(3).expect("valid"),
            observations: ArrayBox::new([-3.0, -2.0], [3.0, 2.0]).expect("valid"),
            reports_velocity: false,
        }
    }

    /// The same walk, each step reporting the velocity reached as `info["velocity"]`.
    pub(crate) fn reporting_velocity(self) -> Self {
        Drift {
            reports_velocity: true,
            ..self
        }
    }

    /// The one transition both the domain and the kernel use.
    fn transition<R: Rng + ?Sized>(
        &self,
        state: DriftState,
        action: i64,
        mode: Mode,
        rng: &mut R,
    ) -> (DriftState, f64, bool) {
        let draw = rng.random::<f64>() - 0.5;
        let noise = if mode.is_training() {
            draw * self.noise
        } else {
            0.0
        };
        let velocity = 0.9 * state[1] + 0.05 * (action as f64 - 1.0) + noise;
        let position = state[0] + velocity;
        (
            [position, velocity],
            -(position * position),
            position.abs() > 1.0,
        )
    }
}

impl Domain for Drift {
    type State = DriftState;
    type Observation = [f32; 2];
    type Action = i64;
    type ObservationSpace = ArrayBox<f32, 2>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f32, 2> {
        &self.observations
    }

    fn action_space(&self) -> &Discrete {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> DriftState {
        [rng.random::<f64>() - 0.5, 0.0]
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &DriftState,
        action: &i64,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<DriftState> {
        let (next, reward, terminated) = self.transition(*state, *action, mode, rng);
        let mut outcome = TransitionOutcome::new(next, Value::from_reward(reward), terminated);
        if self.reports_velocity {
            outcome.info.insert_static("velocity", next[1]);
        }
        outcome
    }

    fn observe(&self, state: &DriftState) -> [f32; 2] {
        [state[0] as f32, state[1] as f32]
    }

    fn is_terminal(&self, state: &DriftState) -> bool {
        state[0].abs() > 1.0
    }

    /// Pushing further out is not applicable beyond ±0.5 (an action mask that changes with the
    /// state); coasting (1) always is.
    fn is_applicable(&self, state: &DriftState, action: &i64) -> bool {
        !(*action == 0 && state[0] < -0.5 || *action == 2 && state[0] > 0.5)
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.cap)
    }
}

impl BatchStep for Drift {
    fn step_batch<T: FlatScalar>(
        &self,
        states: &mut [DriftState],
        actions: &[i64],
        mode: Mode,
        rngs: &mut [NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) {
        let inputs = states.iter_mut().zip(actions).zip(rngs.iter_mut());
        let outputs = rewards
            .iter_mut()
            .zip(terminated.iter_mut())
            .zip(observations.chunks_exact_mut(2));
        for (((state, action), rng), ((reward, done), row)) in inputs.zip(outputs) {
            let (next, r, t) = self.transition(*state, *action, mode, rng);
            *state = next;
            (*reward, *done) = (r, t);
            for (o, v) in row.iter_mut().zip(self.observe(&next)) {
                *o = T::from_f64(f64::from(v));
            }
        }
    }

    fn writes_infos(&self) -> bool {
        self.reports_velocity
    }

    fn write_infos(&self, states: &[DriftState], _: &[i64], infos: &mut [Info]) {
        for (state, info) in states.iter().zip(infos) {
            *info = Info::new();
            info.insert_static("velocity", state[1]);
        }
    }
}

/// A domain whose state is the last action, a point of the Box `[0, 10] × [-4, 0]` of `f32`
/// (so that action transforms can be read off the observation). Never ends by itself.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Push {
    actions: ArrayBox<f32, 2>,
}

impl Push {
    pub(crate) fn new() -> Self {
        Push {
            actions: ArrayBox::new([0.0, -4.0], [10.0, 0.0]).expect("valid"),
        }
    }
}

impl Domain for Push {
    type State = [f32; 2];
    type Observation = [f32; 2];
    type Action = [f32; 2];
    type ObservationSpace = ArrayBox<f32, 2>;
    type ActionSpace = ArrayBox<f32, 2>;

    fn observation_space(&self) -> &ArrayBox<f32, 2> {
        &self.actions
    }

    fn action_space(&self) -> &ArrayBox<f32, 2> {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, _rng: &mut R) -> [f32; 2] {
        [0.0, 0.0]
    }

    fn step<R: Rng + ?Sized>(
        &self,
        _state: &[f32; 2],
        action: &[f32; 2],
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<[f32; 2]> {
        TransitionOutcome::new(*action, Value::from_reward(f64::from(action[0])), false)
    }

    fn observe(&self, state: &[f32; 2]) -> [f32; 2] {
        *state
    }

    fn is_terminal(&self, _state: &[f32; 2]) -> bool {
        false
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(20)
    }
}

/// [`Push`] with `BoxSpace<f64>` actions and observations of shape `(2,)` (array elements).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PushArray {
    actions: rl_spaces::BoxSpace<f64>,
}

impl PushArray {
    pub(crate) fn new() -> Self {
        PushArray {
            actions: rl_spaces::BoxSpace::from_vecs(vec![0.0, -4.0], vec![10.0, 0.0])
                .expect("valid"),
        }
    }
}

impl Domain for PushArray {
    type State = ndarray::ArrayD<f64>;
    type Observation = ndarray::ArrayD<f64>;
    type Action = ndarray::ArrayD<f64>;
    type ObservationSpace = rl_spaces::BoxSpace<f64>;
    type ActionSpace = rl_spaces::BoxSpace<f64>;

    fn observation_space(&self) -> &rl_spaces::BoxSpace<f64> {
        &self.actions
    }

    fn action_space(&self) -> &rl_spaces::BoxSpace<f64> {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, _rng: &mut R) -> ndarray::ArrayD<f64> {
        self.actions.low().clone()
    }

    fn step<R: Rng + ?Sized>(
        &self,
        _state: &ndarray::ArrayD<f64>,
        action: &ndarray::ArrayD<f64>,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<ndarray::ArrayD<f64>> {
        TransitionOutcome::new(action.clone(), Value::ZERO, false)
    }

    fn observe(&self, state: &ndarray::ArrayD<f64>) -> ndarray::ArrayD<f64> {
        state.clone()
    }

    fn is_terminal(&self, _state: &ndarray::ArrayD<f64>) -> bool {
        false
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(20)
    }
}

/// Asserts that two vectors hold the same results of their last step, bit for bit: the
/// observations, rewards, flags, the final mask and the final observations it marks.
pub(crate) fn assert_same_rows<V, W>(one: &V, other: &W, context: &str)
where
    V: rl_wrappers::vector::VectorEnv<Scalar = f32>,
    W: rl_wrappers::vector::VectorEnv<Scalar = f32>,
{
    let bits32 =
        |values: &ndarray::Array2<f32>| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let bits64 = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits32(other.observations()),
        bits32(one.observations()),
        "{context}"
    );
    assert_eq!(bits64(other.rewards()), bits64(one.rewards()), "{context}");
    assert_eq!(other.terminated(), one.terminated(), "{context}");
    assert_eq!(other.truncated(), one.truncated(), "{context}");
    assert_eq!(other.final_mask(), one.final_mask(), "{context}");
    // The final observations of the environments that ended (the other rows hold whatever an
    // earlier step left).
    for (i, ended) in one.final_mask().iter().enumerate() {
        if *ended {
            let row = |values: &ndarray::Array2<f32>| {
                values
                    .row(i)
                    .iter()
                    .map(|v| v.to_bits())
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                row(other.final_observations()),
                row(one.final_observations()),
                "{context}, environment {i}"
            );
        }
    }
}
