//! CartPole: the exact dynamics of Gymnasium 1.4.0's `CartPole-v1`, as a pure step function.
//!
//! # Description
//!
//! A pole is attached by an unactuated joint to a cart that moves along a frictionless
//! track. The pole starts upright and the goal is to keep it balanced by pushing the
//! cart left or right (Barto, Sutton and Anderson, 1983).
//!
//! # Action space
//!
//! | action | meaning |
//! |---|---|
//! | `push_right = false` (Gymnasium action 0) | push the cart to the left with `force_mag` |
//! | `push_right = true` (Gymnasium action 1) | push the cart to the right with `force_mag` |
//!
//! # Observation space
//!
//! The observation is the state rounded to float32 ([`CartPoleState::to_observation`]).
//!
//! | index | observation | min | max |
//! |---|---|---|---|
//! | 0 | cart position `x` | -4.8 | 4.8 |
//! | 1 | cart velocity `x_dot` | -inf | inf |
//! | 2 | pole angle `theta` (radians) | about -0.418 (-24°) | about 0.418 (24°) |
//! | 3 | pole angular velocity `theta_dot` | -inf | inf |
//!
//! The observation bounds are twice the termination thresholds; the episode terminates
//! well inside them.
//!
//! # Rewards
//!
//! +1 for every step, including the terminating one. With `sutton_barto_reward` the
//! reward is 0 for every step and -1 on the terminating step. (Gymnasium gives 0, or -1
//! with `sutton_barto_reward`, for steps taken after termination; this crate's episode
//! adapter forbids such steps, so [`cartpole_step`] does not model them.)
//!
//! # Starting state
//!
//! Gymnasium draws each of the four state variables independently and uniformly from
//! `[reset_low, reset_high)` (default `[-0.05, 0.05)`), as NumPy's
//! `uniform(low, high) = low + (high - low) * u` with `u` uniform in `[0, 1)`. A reset
//! does not depend on the previous state.
//!
//! # Episode end
//!
//! * Termination: the cart position leaves `[-x_threshold, x_threshold]` or the pole
//!   angle leaves `[-theta_threshold_radians, theta_threshold_radians]` (strict
//!   comparisons: a value exactly on the threshold does not terminate).
//! * Truncation: the episode reaches `max_episode_steps` steps (500). Truncation is the
//!   episode adapter's business, not this step function's.
//!
//! # Parameters
//!
//! See [`CartPoleParams`]; the defaults are those of `CartPole-v1`.
//!
//! # Exactness
//!
//! [`cartpole_step`] performs the same float64 operations in the same order as
//! Gymnasium's `CartPoleEnv.step`, so it reproduces Gymnasium's states bit for bit.
//! The only operations that IEEE 754 does not pin down are `sin` and `cos`, and the
//! whole crate uses the standard library's `f64::sin` and `f64::cos` for them.
//!
//! The choice was measured on all reference files (every recorded step checked both
//! from its recorded state and along the whole rollout). The references were produced
//! with NumPy on Linux, whose `sin`/`cos` gave the same bits as glibc's.
//!
//! | implementation | CartPole (37 traces, 3,818 steps) | MountainCar (21 traces, 2,750 steps) | MountainCarContinuous (14 traces, 5,712 steps) |
//! |---|---|---|---|
//! | standard library (glibc on Linux) | 0 mismatches | 0 mismatches | 0 mismatches |
//! | `libm` crate 0.2.16 (musl's algorithms) | 0 mismatches | 17 steps whose velocity is 1 or 2 ulp off (333 mismatching values with the rollouts they derail) | 0 mismatches |
//!
//! `libm` would give the same result on every platform, but its `cos` differs from
//! glibc's in the last bit for 67 of the 2,750 MountainCar arguments (and 137 of the
//! 5,712 MountainCarContinuous ones, 1 `cos` and 2 `sin` arguments of CartPole), and for
//! 17 MountainCar steps that difference survives into the state. The standard library
//! reproduces every reference step, so it was chosen. The price: on a platform whose C
//! library rounds `sin`/`cos` differently from glibc (macOS, Windows), a result may
//! differ from Gymnasium-on-Linux in the last bit.
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/classic_control/cartpole.py`; the operation order is
//! written out in `testdata/reference/README.md`.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::parameter_checks;
use crate::trig;

/// How [`cartpole_step`] integrates the equations of motion over one time step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Integrator {
    /// Explicit Euler: positions advance with the old velocities (Gymnasium's default, `"euler"`).
    #[default]
    #[serde(rename = "euler")]
    Euler,
    /// Semi-implicit Euler: velocities advance first and positions use the new velocities
    /// (Gymnasium's `kinematics_integrator` set to anything other than `"euler"`).
    #[serde(rename = "semi-implicit")]
    SemiImplicitEuler,
}

/// The parameters of CartPole; [`Default`] gives Gymnasium 1.4.0's `CartPole-v1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CartPoleParams {
    /// Gravitational acceleration in m/s² (9.8).
    pub gravity: f64,
    /// Mass of the cart in kg (1.0).
    pub masscart: f64,
    /// Mass of the pole in kg (0.1).
    pub masspole: f64,
    /// Half the pole's length in m (0.5); Gymnasium calls it `length`.
    pub length: f64,
    /// Magnitude of the force applied to the cart in N (10.0).
    pub force_mag: f64,
    /// Seconds between state updates (0.02).
    pub tau: f64,
    /// The integration scheme ([`Integrator::Euler`]).
    pub integrator: Integrator,
    /// Whether to use the Sutton and Barto reward: 0 per step and -1 on termination (false).
    pub sutton_barto_reward: bool,
    /// The pole angle, in radians, beyond which the episode terminates (`12 * 2 * pi / 360`).
    pub theta_threshold_radians: f64,
    /// The cart position beyond which the episode terminates (2.4).
    pub x_threshold: f64,
    /// Lower bound of the uniform reset distribution of every state variable (-0.05).
    pub reset_low: f64,
    /// Upper bound of the uniform reset distribution of every state variable (0.05).
    pub reset_high: f64,
    /// The time limit of an episode, in steps (500).
    pub max_episode_steps: u64,
}

impl Default for CartPoleParams {
    fn default() -> Self {
        CartPoleParams {
            gravity: 9.8,
            masscart: 1.0,
            masspole: 0.1,
            length: 0.5,
            force_mag: 10.0,
            tau: 0.02,
            integrator: Integrator::Euler,
            sutton_barto_reward: false,
            theta_threshold_radians: 12.0 * 2.0 * std::f64::consts::PI / 360.0,
            x_threshold: 2.4,
            reset_low: -0.05,
            reset_high: 0.05,
            max_episode_steps: 500,
        }
    }
}

impl CartPoleParams {
    /// Checks that every quantity is finite, masses, length, force, time step and
    /// thresholds are positive, the reset range is ordered and the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::finite("gravity", self.gravity)?;
        parameter_checks::positive("masscart", self.masscart)?;
        parameter_checks::positive("masspole", self.masspole)?;
        parameter_checks::positive("length", self.length)?;
        parameter_checks::positive("force_mag", self.force_mag)?;
        parameter_checks::positive("tau", self.tau)?;
        parameter_checks::positive("theta_threshold_radians", self.theta_threshold_radians)?;
        parameter_checks::positive("x_threshold", self.x_threshold)?;
        parameter_checks::ordered_range(
            "reset_low",
            self.reset_low,
            "reset_high",
            self.reset_high,
        )?;
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }

    /// The total mass `masspole + masscart`, summed in Gymnasium's order.
    pub fn total_mass(&self) -> f64 {
        self.masspole + self.masscart
    }

    /// The product `masspole * length`, as Gymnasium's `polemass_length`.
    pub fn polemass_length(&self) -> f64 {
        self.masspole * self.length
    }
}

/// The internal state of CartPole, in float64 like Gymnasium's `env.unwrapped.state`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct CartPoleState {
    /// Cart position.
    pub x: f64,
    /// Cart velocity.
    pub x_dot: f64,
    /// Pole angle in radians, 0 is upright.
    pub theta: f64,
    /// Pole angular velocity.
    pub theta_dot: f64,
}

impl CartPoleState {
    /// Builds a state from `[x, x_dot, theta, theta_dot]`.
    pub fn from_array(values: [f64; 4]) -> Self {
        let [x, x_dot, theta, theta_dot] = values;
        CartPoleState {
            x,
            x_dot,
            theta,
            theta_dot,
        }
    }

    /// The state as `[x, x_dot, theta, theta_dot]`.
    pub fn to_array(&self) -> [f64; 4] {
        [self.x, self.x_dot, self.theta, self.theta_dot]
    }

    /// The observation Gymnasium returns for this state: each variable rounded to float32.
    pub fn to_observation(&self) -> [f32; 4] {
        [
            self.x as f32,
            self.x_dot as f32,
            self.theta as f32,
            self.theta_dot as f32,
        ]
    }

    /// Whether this state lies outside the termination thresholds of `params`.
    pub fn is_terminal(&self, params: &CartPoleParams) -> bool {
        self.x < -params.x_threshold
            || self.x > params.x_threshold
            || self.theta < -params.theta_threshold_radians
            || self.theta > params.theta_threshold_radians
    }
}

/// The result of one CartPole step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CartPoleStep {
    /// The state after the step.
    pub next_state: CartPoleState,
    /// The reward of the step.
    pub reward: f64,
    /// Whether the next state lies outside the termination thresholds.
    pub terminated: bool,
}

/// Advances CartPole by one time step, exactly as Gymnasium 1.4.0's `CartPoleEnv.step`.
///
/// `push_right` is Gymnasium's action 1; `false` is action 0. The function never panics:
/// non-finite states propagate to non-finite next states.
///
/// ```
/// use rl_domains::cartpole::{cartpole_step, CartPoleParams, CartPoleState};
///
/// let params = CartPoleParams::default();
/// let step = cartpole_step(&params, &CartPoleState::default(), true);
/// // From rest, pushing right accelerates the cart to the right and the pole to the left.
/// assert_eq!(step.next_state.x, 0.0);
/// assert!(step.next_state.x_dot > 0.0);
/// assert!(step.next_state.theta_dot < 0.0);
/// assert_eq!(step.reward, 1.0);
/// assert!(!step.terminated);
/// ```
pub fn cartpole_step(
    params: &CartPoleParams,
    state: &CartPoleState,
    push_right: bool,
) -> CartPoleStep {
    let total_mass = params.total_mass();
    let polemass_length = params.polemass_length();
    let CartPoleState {
        mut x,
        mut x_dot,
        mut theta,
        mut theta_dot,
    } = *state;

    let force = if push_right {
        params.force_mag
    } else {
        -params.force_mag
    };
    let costheta = trig::cos(theta);
    let sintheta = trig::sin(theta);

    // The same expressions, evaluated left to right, as Gymnasium's source.
    let temp = (force + polemass_length * (theta_dot * theta_dot) * sintheta) / total_mass;
    let thetaacc = (params.gravity * sintheta - costheta * temp)
        / (params.length * (4.0 / 3.0 - params.masspole * (costheta * costheta) / total_mass));
    let xacc = temp - polemass_length * thetaacc * costheta / total_mass;

    match params.integrator {
        Integrator::Euler => {
            x += params.tau * x_dot;
            x_dot += params.tau * xacc;
            theta += params.tau * theta_dot;
            theta_dot += params.tau * thetaacc;
        }
        Integrator::SemiImplicitEuler => {
            x_dot += params.tau * xacc;
            x += params.tau * x_dot;
            theta_dot += params.tau * thetaacc;
            theta += params.tau * theta_dot;
        }
    }

    let next_state = CartPoleState {
        x,
        x_dot,
        theta,
        theta_dot,
    };
    let terminated = next_state.is_terminal(params);
    let reward = match (params.sutton_barto_reward, terminated) {
        (false, _) => 1.0,
        (true, false) => 0.0,
        (true, true) => -1.0,
    };
    CartPoleStep {
        next_state,
        reward,
        terminated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_gymnasium_constants() {
        let params = CartPoleParams::default();
        assert_eq!(params.theta_threshold_radians, 0.20943951023931953);
        assert_eq!(params.total_mass(), 1.1);
        assert_eq!(params.polemass_length(), 0.05);
        assert!(params.validate().is_ok());
    }

    #[test]
    fn hand_computed_step_from_rest() {
        // From the zero state, sin = 0 and cos = 1, so with force +10:
        // temp = 10 / 1.1, thetaacc = (0 - temp) / (0.5 * (4/3 - 0.1 / 1.1)),
        // xacc = temp - 0.05 * thetaacc / 1.1, and the Euler update moves only the velocities.
        let params = CartPoleParams::default();
        let step = cartpole_step(&params, &CartPoleState::default(), true);
        let temp: f64 = 10.0 / 1.1;
        let thetaacc = (9.8 * 0.0 - 1.0 * temp) / (0.5 * (4.0 / 3.0 - 0.1 * (1.0 * 1.0) / 1.1));
        let xacc = temp - 0.05 * thetaacc * 1.0 / 1.1;
        assert_eq!(step.next_state.x, 0.0);
        assert_eq!(step.next_state.theta, 0.0);
        assert_eq!(step.next_state.x_dot.to_bits(), (0.02 * xacc).to_bits());
        assert_eq!(
            step.next_state.theta_dot.to_bits(),
            (0.02 * thetaacc).to_bits()
        );
    }

    #[test]
    fn pushing_left_mirrors_pushing_right_from_rest() {
        let params = CartPoleParams::default();
        let right = cartpole_step(&params, &CartPoleState::default(), true);
        let left = cartpole_step(&params, &CartPoleState::default(), false);
        assert_eq!(left.next_state.x_dot, -right.next_state.x_dot);
        assert_eq!(left.next_state.theta_dot, -right.next_state.theta_dot);
    }

    #[test]
    fn semi_implicit_uses_the_new_velocities() {
        let params = CartPoleParams {
            integrator: Integrator::SemiImplicitEuler,
            ..CartPoleParams::default()
        };
        let step = cartpole_step(&params, &CartPoleState::default(), true);
        assert_eq!(step.next_state.x, 0.02 * step.next_state.x_dot);
        assert_eq!(step.next_state.theta, 0.02 * step.next_state.theta_dot);
    }

    #[test]
    fn thresholds_are_strict_and_rewards_follow_the_variant() {
        let params = CartPoleParams::default();
        // x_dot = 0 and x exactly on the threshold: the step keeps x, which does not terminate.
        let on_threshold = CartPoleState {
            x: 2.4,
            ..CartPoleState::default()
        };
        let step = cartpole_step(&params, &on_threshold, true);
        assert_eq!(step.next_state.x, 2.4);
        assert!(!step.terminated);

        let beyond = CartPoleState {
            x: 2.4,
            x_dot: 1.0,
            ..CartPoleState::default()
        };
        let step = cartpole_step(&params, &beyond, true);
        assert!(step.terminated);
        assert_eq!(step.reward, 1.0);

        let sutton_barto = CartPoleParams {
            sutton_barto_reward: true,
            ..params
        };
        assert_eq!(cartpole_step(&sutton_barto, &beyond, true).reward, -1.0);
        assert_eq!(
            cartpole_step(&sutton_barto, &on_threshold, true).reward,
            0.0
        );
    }

    #[test]
    fn observation_rounds_to_f32() {
        let state = CartPoleState::from_array([0.1, -0.2, 0.3, -0.4]);
        assert_eq!(state.to_observation(), [0.1f32, -0.2, 0.3, -0.4]);
        assert_eq!(state.to_array(), [0.1, -0.2, 0.3, -0.4]);
    }

    #[test]
    fn validate_rejects_bad_values() {
        let bad = [
            CartPoleParams {
                tau: 0.0,
                ..CartPoleParams::default()
            },
            CartPoleParams {
                gravity: f64::NAN,
                ..CartPoleParams::default()
            },
            CartPoleParams {
                reset_low: 0.1,
                ..CartPoleParams::default()
            },
            CartPoleParams {
                max_episode_steps: 0,
                ..CartPoleParams::default()
            },
        ];
        for params in bad {
            assert!(params.validate().is_err(), "{params:?}");
        }
    }

    #[test]
    fn params_serde_uses_defaults_and_rejects_unknown_fields() {
        let params: CartPoleParams =
            serde_json::from_str(r#"{"integrator": "semi-implicit"}"#).expect("valid parameters");
        assert_eq!(params.integrator, Integrator::SemiImplicitEuler);
        assert_eq!(params.gravity, 9.8);
        assert!(serde_json::from_str::<CartPoleParams>(r#"{"gravty": 1.0}"#).is_err());
        let text = serde_json::to_string(&CartPoleParams::default()).expect("serializable");
        assert!(text.contains("\"euler\""));
    }

    #[test]
    fn non_finite_state_does_not_panic() {
        let params = CartPoleParams::default();
        let state = CartPoleState::from_array([f64::NAN, f64::INFINITY, f64::NAN, 1.0]);
        let step = cartpole_step(&params, &state, false);
        assert!(step.next_state.x.is_nan());
    }
}
