//! MountainCarContinuous: Gymnasium 1.4.0's `MountainCarContinuous-v0`, as the domain
//! [`MountainCarContinuous`] and its exact, pure step function
//! [`mountain_car_continuous_step`], including Gymnasium's mixed float32/float64 arithmetic.
//!
//! [`MountainCarContinuous`] is documented in the crate's domain template. This page adds
//! how the step function reproduces Gymnasium's arithmetic bit for bit.
//!
//! # Precision
//!
//! Gymnasium stores the state as a float64 array after `reset()` and as a float32 array
//! after every `step()`, and NumPy 2's promotion rules (NEP 50) then mix float32 and
//! float64 arithmetic: a Python float meeting a float32 is rounded to float32 first, a
//! float64 array element meeting a float32 promotes to float64. [`MountainCarContinuousState`]
//! records which array type holds the state in [`StatePrecision`], and
//! [`mountain_car_continuous_step`] follows the same promotions, operation by operation:
//!
//! ```text
//! force = min(max(a, min_action), max_action)   float32 `a`, unless clipped: then the float64 bound
//! fp    = force * power                         float32 multiply when force is float32
//! p3    = 3 * position                          float32 when the state is float32
//! g     = 0.0025 * cos(p3)                      float64
//! d     = fp - g                                float32 (g rounded first) when fp is float32
//! v     = v + d                                 float32 add when the state is float32
//! clip v to [-max_speed, max_speed], p = p + v, clip p to [min_position, max_position]
//! if p == min_position and v < 0: v = 0
//! ```
//!
//! A bound assigned by a clip is a float64 Python number until the state is stored as
//! float32 at the end of the step, and the comparisons that follow use it as float64;
//! this module tracks that too. A plain float64 implementation rounding only at the end
//! differs from the reference in 22% of steps.
//!
//! # Exactness
//!
//! Against all 14 reference traces (5,712 steps, checked from the recorded states and
//! along the rollouts) this implementation gives 0 mismatches. It uses the standard
//! library's `f64::cos`, like the rest of the crate (see [`crate::cartpole`]); the
//! `libm` crate's cosine would also give 0 mismatches here, because float32 rounding
//! absorbs its last-bit differences.
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/classic_control/continuous_mountain_car.py`; the
//! operation order is written out in `testdata/reference/README.md`.

use rand::Rng;
use rl_core::numpy_random::uniform;
use rl_core::{DeterministicTransitions, Domain, Mode, Render, TransitionOutcome, Value};
use rl_spaces::ArrayBox;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::mountain_car::{
    Valley, check_valley, render_valley_svg, render_valley_text, valley_observation_space,
};
use crate::parameter_checks;
use crate::trig;

/// The reward for reaching the goal, a literal in Gymnasium's source.
pub const GOAL_REWARD: f64 = 100.0;

/// The gravity coefficient, a literal (`0.0025`) in Gymnasium's `step`.
pub const GRAVITY: f64 = 0.0025;

/// The parameters of MountainCarContinuous; [`Default`] gives Gymnasium 1.4.0's
/// `MountainCarContinuous-v0`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MountainCarContinuousParams {
    /// Smallest engine force (-1.0); smaller actions are clipped to it.
    pub min_action: f64,
    /// Largest engine force (1.0); larger actions are clipped to it.
    pub max_action: f64,
    /// Left end of the track (-1.2); the car stops there.
    pub min_position: f64,
    /// Right end of the track (0.6).
    pub max_position: f64,
    /// Largest absolute velocity (0.07).
    pub max_speed: f64,
    /// Position of the flag (0.45).
    pub goal_position: f64,
    /// Smallest velocity that counts as reaching the goal (0.0).
    pub goal_velocity: f64,
    /// Acceleration per unit of force (0.0015).
    pub power: f64,
    /// Lower bound of the uniform reset distribution of the position (-0.6).
    pub reset_low: f64,
    /// Upper bound of the uniform reset distribution of the position (-0.4).
    pub reset_high: f64,
    /// The time limit of an episode, in steps (999).
    pub max_episode_steps: u64,
}

impl Default for MountainCarContinuousParams {
    fn default() -> Self {
        MountainCarContinuousParams {
            min_action: -1.0,
            max_action: 1.0,
            min_position: -1.2,
            max_position: 0.6,
            max_speed: 0.07,
            goal_position: 0.45,
            goal_velocity: 0.0,
            power: 0.0015,
            reset_low: -0.6,
            reset_high: -0.4,
            max_episode_steps: 999,
        }
    }
}

impl MountainCarContinuousParams {
    /// Checks that every quantity is finite, the action, track and reset ranges are
    /// ordered, the reset range lies on the track, the speed limit is positive, the power is of
    /// normal size and the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::ordered_range(
            "min_action",
            self.min_action,
            "max_action",
            self.max_action,
        )?;
        check_valley(
            [self.min_position, self.max_position],
            self.max_speed,
            [self.goal_position, self.goal_velocity],
            [self.reset_low, self.reset_high],
        )?;
        parameter_checks::magnitude("power", self.power)?;
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }
}

/// Which NumPy array type holds a state whose arithmetic depends on it
/// (MountainCarContinuous's, and Acrobot's, whose reset observation takes float32 sines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum StatePrecision {
    /// A float64 array: MountainCarContinuous's state right after `reset()`, Acrobot's after
    /// any `step()`.
    #[default]
    #[serde(rename = "float64")]
    Float64,
    /// A float32 array: MountainCarContinuous's state after any `step()`, Acrobot's right
    /// after `reset()`.
    #[serde(rename = "float32")]
    Float32,
}

/// The internal state of MountainCarContinuous together with the precision it is stored in.
///
/// With [`StatePrecision::Float32`] the step function first rounds both values to float32,
/// so a state built by hand need not hold float32-exact values; states produced by
/// [`mountain_car_continuous_step`] always do.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MountainCarContinuousState {
    /// Position of the car along the track.
    pub position: f64,
    /// Velocity of the car.
    pub velocity: f64,
    /// The array type that holds the state.
    pub precision: StatePrecision,
}

impl MountainCarContinuousState {
    /// A state as `reset()` leaves it: float64 values.
    pub fn float64(position: f64, velocity: f64) -> Self {
        MountainCarContinuousState {
            position,
            velocity,
            precision: StatePrecision::Float64,
        }
    }

    /// A state as `step()` leaves it: float32 values.
    pub fn float32(position: f32, velocity: f32) -> Self {
        MountainCarContinuousState {
            position: f64::from(position),
            velocity: f64::from(velocity),
            precision: StatePrecision::Float32,
        }
    }

    /// The observation Gymnasium returns for this state: both variables rounded to float32.
    #[inline]
    pub fn to_observation(&self) -> [f32; 2] {
        [self.position as f32, self.velocity as f32]
    }
}

/// A scalar inside a float32-state step: a NumPy float32, or a Python float (float64)
/// that a clip assigned. Comparisons with a Python float constant follow NEP 50: against
/// a float32 the constant is rounded to float32, against a Python float both stay float64.
#[derive(Debug, Clone, Copy)]
enum Scalar {
    Float32(f32),
    Python(f64),
}

impl Scalar {
    fn to_f32(self) -> f32 {
        match self {
            Scalar::Float32(value) => value,
            Scalar::Python(value) => value as f32,
        }
    }

    fn greater_than(self, constant: f64) -> bool {
        match self {
            Scalar::Float32(value) => value > constant as f32,
            Scalar::Python(value) => value > constant,
        }
    }

    fn less_than(self, constant: f64) -> bool {
        match self {
            Scalar::Float32(value) => value < constant as f32,
            Scalar::Python(value) => value < constant,
        }
    }

    fn at_least(self, constant: f64) -> bool {
        match self {
            Scalar::Float32(value) => value >= constant as f32,
            Scalar::Python(value) => value >= constant,
        }
    }

    fn equals(self, constant: f64) -> bool {
        match self {
            Scalar::Float32(value) => value == constant as f32,
            Scalar::Python(value) => value == constant,
        }
    }
}

/// Advances MountainCarContinuous by one time step, exactly as Gymnasium 1.4.0's
/// `Continuous_MountainCarEnv.step` under NumPy 2: the state reached (always
/// [`StatePrecision::Float32`]), the reward and whether the car reached the goal.
///
/// `action` is the float32 engine force. Out-of-range actions are clipped for the
/// dynamics but penalised unclipped. The function never panics: a non-finite action
/// gives a non-finite reward and, for NaN, a NaN state (the episode adapter rejects such
/// actions before stepping).
///
/// ```
/// use rl_domains::mountain_car_continuous::{
///     mountain_car_continuous_step, MountainCarContinuousParams, MountainCarContinuousState,
///     StatePrecision,
/// };
///
/// let params = MountainCarContinuousParams::default();
/// let state = MountainCarContinuousState::float64(-0.5, 0.0);
/// let step = mountain_car_continuous_step(&params, &state, 2.0);
/// assert_eq!(step.next_state.precision, StatePrecision::Float32);
/// assert!(step.next_state.velocity > 0.0);
/// // The penalty uses the unclipped action: -0.1 * 2².
/// assert_eq!(step.value.reward(), -0.4);
/// ```
#[inline]
pub fn mountain_car_continuous_step(
    params: &MountainCarContinuousParams,
    state: &MountainCarContinuousState,
    action: f32,
) -> TransitionOutcome<MountainCarContinuousState> {
    // `force = min(max(action, min_action), max_action)` with Python's max and min, which
    // keep the first argument unless the second compares greater (smaller); the result is
    // the float32 action or a float64 bound.
    let force = if (params.min_action as f32) > action {
        Scalar::Python(params.min_action)
    } else {
        Scalar::Float32(action)
    };
    let force = match force {
        Scalar::Float32(value) if (params.max_action as f32) < value => {
            Scalar::Python(params.max_action)
        }
        Scalar::Python(value) if params.max_action < value => Scalar::Python(params.max_action),
        other => other,
    };
    let force_times_power = match force {
        Scalar::Float32(value) => Scalar::Float32(value * params.power as f32),
        Scalar::Python(value) => Scalar::Python(value * params.power),
    };

    let (next_position, next_velocity, terminated) = match state.precision {
        StatePrecision::Float64 => step_float64(params, state, force_times_power),
        StatePrecision::Float32 => step_float32(params, state, force_times_power),
    };

    let action = f64::from(action);
    let base = if terminated { GOAL_REWARD } else { 0.0 };
    let reward = base - action * action * 0.1;
    TransitionOutcome::new(
        MountainCarContinuousState::float32(next_position, next_velocity),
        Value::from_reward(reward),
        terminated,
    )
}

/// The step from a float64 state: every operation is float64 (a float32 `d` is widened).
fn step_float64(
    params: &MountainCarContinuousParams,
    state: &MountainCarContinuousState,
    force_times_power: Scalar,
) -> (f32, f32, bool) {
    let mut position = state.position;
    let mut velocity = state.velocity;
    let gravity_term = GRAVITY * trig::cos(3.0 * position);
    let velocity_change = match force_times_power {
        Scalar::Float32(value) => f64::from(value - gravity_term as f32),
        Scalar::Python(value) => value - gravity_term,
    };
    velocity += velocity_change;
    if velocity > params.max_speed {
        velocity = params.max_speed;
    }
    if velocity < -params.max_speed {
        velocity = -params.max_speed;
    }
    position += velocity;
    if position > params.max_position {
        position = params.max_position;
    }
    if position < params.min_position {
        position = params.min_position;
    }
    if position == params.min_position && velocity < 0.0 {
        velocity = 0.0;
    }
    let terminated = position >= params.goal_position && velocity >= params.goal_velocity;
    (position as f32, velocity as f32, terminated)
}

/// The step from a float32 state: float32 arithmetic, with Python floats rounded to
/// float32 when they meet a float32 and kept as float64 once a clip assigns them.
fn step_float32(
    params: &MountainCarContinuousParams,
    state: &MountainCarContinuousState,
    force_times_power: Scalar,
) -> (f32, f32, bool) {
    let position = state.position as f32;
    let velocity = state.velocity as f32;
    let gravity_term = GRAVITY * trig::cos(f64::from(3.0f32 * position));
    let velocity_change = match force_times_power {
        Scalar::Float32(value) => value - gravity_term as f32,
        Scalar::Python(value) => (value - gravity_term) as f32,
    };
    let mut velocity = Scalar::Float32(velocity + velocity_change);
    if velocity.greater_than(params.max_speed) {
        velocity = Scalar::Python(params.max_speed);
    }
    if velocity.less_than(-params.max_speed) {
        velocity = Scalar::Python(-params.max_speed);
    }
    let mut position = Scalar::Float32(position + velocity.to_f32());
    if position.greater_than(params.max_position) {
        position = Scalar::Python(params.max_position);
    }
    if position.less_than(params.min_position) {
        position = Scalar::Python(params.min_position);
    }
    if position.equals(params.min_position) && velocity.less_than(0.0) {
        velocity = Scalar::Python(0.0);
    }
    let terminated =
        position.at_least(params.goal_position) && velocity.at_least(params.goal_velocity);
    (position.to_f32(), velocity.to_f32(), terminated)
}

/// MountainCarContinuous: Gymnasium 1.4.0's `MountainCarContinuous-v0` as a [`Domain`].
///
#[doc = include_str!("mountain_car_continuous.md")]
///
/// ```
/// use rl_core::{CoreError, Environment, Mode, Simulator};
/// use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};
///
/// let mut env = Simulator::new(MountainCarContinuous::new(MountainCarContinuousParams::default())?, 5);
/// env.reset(Mode::Training)?;
/// let outcome = env.step(&[0.5])?;
/// assert_eq!(outcome.reward(), -0.1 * 0.25);
/// // A force beyond the bounds is clipped, as in Gymnasium, and the unclipped action is
/// // penalised; NaN and infinities are errors.
/// assert_eq!(env.step(&[1.5])?.reward(), -0.1 * 2.25);
/// assert!(matches!(env.step(&[f32::NAN]), Err(CoreError::InvalidAction { .. })));
/// assert!(matches!(env.step(&[f32::INFINITY]), Err(CoreError::InvalidAction { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MountainCarContinuous {
    params: MountainCarContinuousParams,
    observation_space: ArrayBox<f32, 2>,
    action_space: ArrayBox<f32, 1>,
}

impl MountainCarContinuous {
    /// The domain with `params`, after [`MountainCarContinuousParams::validate`].
    pub fn new(params: MountainCarContinuousParams) -> Result<MountainCarContinuous, Error> {
        params.validate()?;
        Ok(MountainCarContinuous {
            params,
            observation_space: valley_observation_space(
                params.min_position,
                params.max_position,
                params.max_speed,
            )?,
            action_space: ArrayBox::new([params.min_action as f32], [params.max_action as f32])?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &MountainCarContinuousParams {
        &self.params
    }

    fn valley(&self) -> Valley {
        Valley {
            min_position: self.params.min_position,
            max_position: self.params.max_position,
            goal_position: self.params.goal_position,
        }
    }
}

impl Domain for MountainCarContinuous {
    type State = MountainCarContinuousState;
    type Observation = [f32; 2];
    type Action = [f32; 1];
    type ObservationSpace = ArrayBox<f32, 2>;
    type ActionSpace = ArrayBox<f32, 1>;

    fn observation_space(&self) -> &ArrayBox<f32, 2> {
        &self.observation_space
    }

    fn action_space(&self) -> &ArrayBox<f32, 1> {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(
        &self,
        _mode: Mode,
        rng: &mut R,
    ) -> MountainCarContinuousState {
        let (low, high) = (self.params.reset_low, self.params.reset_high);
        MountainCarContinuousState::float64(uniform(rng, low, high), 0.0)
    }

    /// [`mountain_car_continuous_step`]: any action, in the declared space or not, finite
    /// or not, is handled as Gymnasium would (the simulator only passes declared ones).
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &MountainCarContinuousState,
        action: &[f32; 1],
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<MountainCarContinuousState> {
        mountain_car_continuous_step(&self.params, state, action[0])
    }

    #[inline]
    fn observe(&self, state: &MountainCarContinuousState) -> [f32; 2] {
        state.to_observation()
    }

    /// Whether the state is at the goal, compared in the state's precision.
    fn is_terminal(&self, state: &MountainCarContinuousState) -> bool {
        match state.precision {
            StatePrecision::Float64 => {
                state.position >= self.params.goal_position
                    && state.velocity >= self.params.goal_velocity
            }
            StatePrecision::Float32 => {
                state.position as f32 >= self.params.goal_position as f32
                    && state.velocity as f32 >= self.params.goal_velocity as f32
            }
        }
    }

    /// Any finite action: Gymnasium clips the force into the action space's bounds, so an
    /// unclipped policy output steps as in Gymnasium. NaN and infinities, which Gymnasium would
    /// carry into the state or the reward, are refused.
    fn accepts_action(&self, action: &[f32; 1]) -> bool {
        action[0].is_finite()
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.params.max_episode_steps)
    }

    /// `[min_position, max_position]` and `[-max_speed, max_speed]`.
    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        Some(vec![
            [self.params.min_position, self.params.max_position],
            [-self.params.max_speed, self.params.max_speed],
        ])
    }

    fn continuous_dimensions(&self) -> Vec<usize> {
        vec![0, 1]
    }
}

impl DeterministicTransitions for MountainCarContinuous {}

impl Render for MountainCarContinuous {
    /// The track with the goal flag (`F`) and the car (`C`), then the position and velocity.
    fn render_text(&self, state: &MountainCarContinuousState) -> String {
        render_valley_text(&self.valley(), state.position, state.velocity)
    }

    /// Gymnasium's picture: the hill (`hill`), the flag at the goal (`flag-pole` and
    /// `flag`) and the car (`car`, tilted with the slope), with the state as a caption.
    fn render_svg(&self, state: &MountainCarContinuousState) -> String {
        render_valley_svg(
            "MountainCarContinuous",
            &self.valley(),
            state.position,
            state.velocity,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(MountainCarContinuousParams::default().validate().is_ok());
        let bad = MountainCarContinuousParams {
            max_speed: -1.0,
            ..MountainCarContinuousParams::default()
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn first_step_from_float64_state_is_float64_arithmetic() {
        let params = MountainCarContinuousParams::default();
        let state = MountainCarContinuousState::float64(-0.5, 0.0);
        let action = 0.5f32;
        let step = mountain_car_continuous_step(&params, &state, action);
        let force_times_power = 0.5f32 * 0.0015f32;
        let velocity_change = force_times_power - (0.0025 * trig::cos(-1.5)) as f32;
        let velocity = 0.0 + f64::from(velocity_change);
        let position = -0.5 + velocity;
        assert_eq!(step.next_state.velocity, f64::from(velocity as f32));
        assert_eq!(step.next_state.position, f64::from(position as f32));
        assert_eq!(step.value.reward(), 0.0 - 0.25 * 0.1);
        assert!(!step.terminated);
    }

    #[test]
    fn step_from_float32_state_is_float32_arithmetic() {
        let params = MountainCarContinuousParams::default();
        let state = MountainCarContinuousState::float32(-0.5, 0.01);
        let step = mountain_car_continuous_step(&params, &state, -2.0);
        // The force is clipped to the float64 bound -1.0, so d is float64 rounded to float32.
        let clipped_force: f64 = -1.0;
        let velocity_change =
            (clipped_force * 0.0015 - 0.0025 * trig::cos(f64::from(3.0f32 * -0.5f32))) as f32;
        let velocity = 0.01f32 + velocity_change;
        let position = -0.5f32 + velocity;
        assert_eq!(step.next_state.velocity, f64::from(velocity));
        assert_eq!(step.next_state.position, f64::from(position));
        assert_eq!(step.value.reward(), -0.4);
    }

    #[test]
    fn goal_is_compared_in_float32() {
        let params = MountainCarContinuousParams::default();
        // 0.45f32 lies slightly below 0.45, yet reaches the goal in a float32 comparison.
        let below = 0.45f32;
        assert!(f64::from(below) < 0.45);
        assert!(Scalar::Float32(below).at_least(params.goal_position));
        assert!(!Scalar::Python(f64::from(below)).at_least(params.goal_position));

        let state = MountainCarContinuousState::float32(0.44, 0.02);
        let step = mountain_car_continuous_step(&params, &state, 1.0);
        assert!(step.terminated);
        assert_eq!(step.value.reward(), 100.0 - 0.1);
    }

    #[test]
    fn left_wall_stops_the_car() {
        let params = MountainCarContinuousParams::default();
        let state = MountainCarContinuousState::float32(-1.19, -0.05);
        let step = mountain_car_continuous_step(&params, &state, -1.0);
        assert_eq!(step.next_state.position, f64::from(-1.2f32));
        assert_eq!(step.next_state.velocity.to_bits(), 0.0f64.to_bits());
    }

    #[test]
    fn speed_is_clipped_to_the_float32_bound() {
        let params = MountainCarContinuousParams::default();
        let state = MountainCarContinuousState::float32(-0.5, 0.0699);
        let step = mountain_car_continuous_step(&params, &state, 1.0);
        assert_eq!(step.next_state.velocity, f64::from(0.07f32));
    }

    #[test]
    fn non_finite_actions_do_not_panic() {
        let params = MountainCarContinuousParams::default();
        let state = MountainCarContinuousState::float32(-0.5, 0.0);
        let step = mountain_car_continuous_step(&params, &state, f32::NAN);
        assert!(step.value.reward().is_nan());
        let step = mountain_car_continuous_step(&params, &state, f32::INFINITY);
        assert_eq!(step.value.reward(), f64::NEG_INFINITY);
        let step = mountain_car_continuous_step(&params, &state, f32::NEG_INFINITY);
        assert!(step.next_state.velocity < 0.0);
    }
}
