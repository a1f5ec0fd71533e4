//! MountainCar: the exact dynamics of Gymnasium 1.4.0's `MountainCar-v0`, as a pure step function.
//!
//! # Description
//!
//! A car sits at the bottom of a sinusoidal valley and must reach the flag on the hill to
//! its right. Its engine is too weak to drive straight up, so it has to swing back and
//! forth to build momentum (Moore, 1990).
//!
//! # Action space
//!
//! | action | meaning |
//! |---|---|
//! | 0 | accelerate to the left |
//! | 1 | do not accelerate |
//! | 2 | accelerate to the right |
//!
//! # Observation space
//!
//! The observation is the state rounded to float32 ([`MountainCarState::to_observation`]).
//!
//! | index | observation | min | max |
//! |---|---|---|---|
//! | 0 | position | -1.2 | 0.6 |
//! | 1 | velocity | -0.07 | 0.07 |
//!
//! # Rewards
//!
//! -1 for every step.
//!
//! # Starting state
//!
//! Gymnasium draws the position uniformly from `[reset_low, reset_high)` (default
//! `[-0.6, -0.4)`) as `low + (high - low) * u`, and sets the velocity to 0.
//!
//! # Episode end
//!
//! * Termination: `position >= goal_position` and `velocity >= goal_velocity` after the step.
//! * Truncation: the episode reaches `max_episode_steps` steps (200); this is the episode
//!   adapter's business, not this step function's.
//!
//! (RLPy's MountainCar tests termination one step late; this module follows Gymnasium.)
//!
//! # Parameters
//!
//! See [`MountainCarParams`]; the defaults are those of `MountainCar-v0`.
//!
//! # Exactness
//!
//! [`mountain_car_step`] performs Gymnasium's float64 operations in Gymnasium's order and
//! reproduces its states bit for bit on all 21 MountainCar reference traces (2,750 steps,
//! checked from the recorded states and along the rollouts). Its cosine is the standard
//! library's `f64::cos`: the `libm` crate's cosine would leave 17 of those steps 1 or 2
//! ulp off in velocity (see [`crate::cartpole`] for the crate-wide choice).
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/classic_control/mountain_car.py`; the operation order
//! is written out in `testdata/reference/README.md`.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::parameter_checks;
use crate::trig;

/// The parameters of MountainCar; [`Default`] gives Gymnasium 1.4.0's `MountainCar-v0`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MountainCarParams {
    /// Left end of the track (-1.2); the car stops there.
    pub min_position: f64,
    /// Right end of the track (0.6).
    pub max_position: f64,
    /// Largest absolute velocity (0.07).
    pub max_speed: f64,
    /// Position of the flag (0.5).
    pub goal_position: f64,
    /// Smallest velocity that counts as reaching the goal (0.0).
    pub goal_velocity: f64,
    /// Acceleration of the engine per step (0.001).
    pub force: f64,
    /// Strength of gravity along the track (0.0025).
    pub gravity: f64,
    /// Lower bound of the uniform reset distribution of the position (-0.6).
    pub reset_low: f64,
    /// Upper bound of the uniform reset distribution of the position (-0.4).
    pub reset_high: f64,
    /// The time limit of an episode, in steps (200).
    pub max_episode_steps: u64,
}

impl Default for MountainCarParams {
    fn default() -> Self {
        MountainCarParams {
            min_position: -1.2,
            max_position: 0.6,
            max_speed: 0.07,
            goal_position: 0.5,
            goal_velocity: 0.0,
            force: 0.001,
            gravity: 0.0025,
            reset_low: -0.6,
            reset_high: -0.4,
            max_episode_steps: 200,
        }
    }
}

impl MountainCarParams {
    /// Checks that every quantity is finite, the track and reset ranges are ordered, the
    /// speed limit is positive and the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::ordered_range(
            "min_position",
            self.min_position,
            "max_position",
            self.max_position,
        )?;
        parameter_checks::positive("max_speed", self.max_speed)?;
        parameter_checks::finite("goal_position", self.goal_position)?;
        parameter_checks::finite("goal_velocity", self.goal_velocity)?;
        parameter_checks::finite("force", self.force)?;
        parameter_checks::finite("gravity", self.gravity)?;
        parameter_checks::ordered_range(
            "reset_low",
            self.reset_low,
            "reset_high",
            self.reset_high,
        )?;
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }
}

/// The internal state of MountainCar, in float64 like Gymnasium's `env.unwrapped.state`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct MountainCarState {
    /// Position of the car along the track.
    pub position: f64,
    /// Velocity of the car.
    pub velocity: f64,
}

impl MountainCarState {
    /// The observation Gymnasium returns for this state: both variables rounded to float32.
    pub fn to_observation(&self) -> [f32; 2] {
        [self.position as f32, self.velocity as f32]
    }
}

/// The result of one MountainCar step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MountainCarStep {
    /// The state after the step.
    pub next_state: MountainCarState,
    /// The reward of the step (always -1).
    pub reward: f64,
    /// Whether the car reached the goal.
    pub terminated: bool,
}

/// Clips `value` to `[low, high]` like NumPy's `clip` on a scalar; NaN passes through.
pub(crate) fn clip(value: f64, low: f64, high: f64) -> f64 {
    if value < low {
        low
    } else if value > high {
        high
    } else {
        value
    }
}

/// Advances MountainCar by one time step, exactly as Gymnasium 1.4.0's `MountainCarEnv.step`.
///
/// `action` is 0 (left), 1 (none) or 2 (right); the acceleration is
/// `(action - 1) * force`, so larger values would extrapolate. The function never panics.
///
/// ```
/// use rl_domains::mountain_car::{mountain_car_step, MountainCarParams, MountainCarState};
///
/// let params = MountainCarParams::default();
/// let state = MountainCarState { position: -0.5, velocity: 0.0 };
/// let step = mountain_car_step(&params, &state, 2);
/// assert!(step.next_state.velocity > 0.0);
/// assert_eq!(step.reward, -1.0);
/// assert!(!step.terminated);
/// ```
pub fn mountain_car_step(
    params: &MountainCarParams,
    state: &MountainCarState,
    action: u8,
) -> MountainCarStep {
    let MountainCarState {
        mut position,
        mut velocity,
    } = *state;
    velocity +=
        (f64::from(action) - 1.0) * params.force + trig::cos(3.0 * position) * (-params.gravity);
    velocity = clip(velocity, -params.max_speed, params.max_speed);
    position += velocity;
    position = clip(position, params.min_position, params.max_position);
    if position == params.min_position && velocity < 0.0 {
        velocity = 0.0;
    }
    let terminated = position >= params.goal_position && velocity >= params.goal_velocity;
    MountainCarStep {
        next_state: MountainCarState { position, velocity },
        reward: -1.0,
        terminated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        assert!(MountainCarParams::default().validate().is_ok());
        let bad = MountainCarParams {
            min_position: 1.0,
            ..MountainCarParams::default()
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn hand_computed_step() {
        let params = MountainCarParams::default();
        // At position -pi/6, 3 * position = -pi/2 and gravity contributes almost nothing.
        let state = MountainCarState {
            position: -0.5,
            velocity: 0.01,
        };
        let step = mountain_car_step(&params, &state, 0);
        let velocity = 0.01 + (-0.001 + trig::cos(-1.5) * -0.0025);
        assert_eq!(step.next_state.velocity.to_bits(), velocity.to_bits());
        assert_eq!(
            step.next_state.position.to_bits(),
            (-0.5 + velocity).to_bits()
        );
    }

    #[test]
    fn speed_is_clipped() {
        let params = MountainCarParams::default();
        let state = MountainCarState {
            position: -0.5,
            velocity: 0.0699,
        };
        let step = mountain_car_step(&params, &state, 2);
        assert_eq!(step.next_state.velocity, 0.07);
    }

    #[test]
    fn left_wall_stops_the_car() {
        let params = MountainCarParams::default();
        let state = MountainCarState {
            position: -1.19,
            velocity: -0.05,
        };
        let step = mountain_car_step(&params, &state, 0);
        assert_eq!(step.next_state.position, -1.2);
        assert_eq!(step.next_state.velocity.to_bits(), 0.0f64.to_bits());
    }

    #[test]
    fn goal_terminates_and_position_is_clipped() {
        let params = MountainCarParams::default();
        let state = MountainCarState {
            position: 0.58,
            velocity: 0.05,
        };
        let step = mountain_car_step(&params, &state, 2);
        assert_eq!(step.next_state.position, 0.6);
        assert!(step.terminated);
        assert_eq!(step.reward, -1.0);
    }

    #[test]
    fn observation_rounds_to_f32() {
        let state = MountainCarState {
            position: -0.55,
            velocity: 0.001,
        };
        assert_eq!(state.to_observation(), [-0.55f32, 0.001f32]);
    }
}
