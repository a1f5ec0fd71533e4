//! Pendulum: Gymnasium 1.4.0's `Pendulum-v1`, as the domain [`Pendulum`] and its exact,
//! pure step function [`pendulum_step`], including Gymnasium's float32 torque terms.
//!
//! [`Pendulum`] is documented in the crate's domain template. This page adds how the step
//! function reproduces Gymnasium's arithmetic bit for bit.
//!
//! # Precision
//!
//! The state is float64, but the action is a float32 array, and NumPy 2's promotion rules
//! (NEP 50) keep the terms that involve only the torque and Python floats in float32:
//!
//! ```text
//! u        = clip(a, -2.0, 2.0)                        float32
//! an       = ((theta + pi) % (2 pi)) - pi               NumPy's remainder (the sign of the divisor)
//! u2       = float32(powf(u, 2.0)) * 0.001f32           float32, C powf
//! costs    = (pow(an, 2) + 0.1 * pow(thetadot, 2)) + u2 float64, C pow, u2 widened
//! torque   = 3.0f32 * u                                 float32
//! newthdot = thetadot + (3 g / (2 l) * sin(theta) + torque) * dt
//! newthdot = clip(newthdot, -8, 8); newtheta = theta + newthdot * dt
//! ```
//!
//! `x**2` is C `pow` (float64) or `powf` (float32), which is not always the rounded `x * x`;
//! this module calls the C library's functions through [`f64::powf`] and [`f32::powf`] with
//! the exponent hidden from the optimiser ([`std::hint::black_box`]), which would otherwise
//! rewrite the call into `x * x`. Sines and cosines are the standard library's, like the
//! rest of the crate (see [`crate::cartpole`]).
//!
//! # Exactness
//!
//! Against all 31 Pendulum reference traces (`g` = 10 and 9.81, 6,200 steps, checked from
//! the recorded states and along the rollouts) this implementation gives 0 mismatches.
//! Squaring the torque with `u * u` instead of `powf` leaves 12 mismatching values, and
//! squaring the float64 terms with `x * x` instead of `pow` leaves 10.
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/classic_control/pendulum.py`; the operation order is
//! written out in `testdata/reference/README.md`.

use std::f64::consts::PI;

use rand::Rng;
use rl_core::numpy_random::uniform;
use rl_core::{DeterministicTransitions, Domain, Mode, Render, TransitionOutcome, Value};
use rl_spaces::ArrayBox;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::parameter_checks;
use crate::svg::{Svg, number};
use crate::trig;

/// The largest absolute angular velocity (Gymnasium's `max_speed`, 8).
pub const MAX_SPEED: f64 = 8.0;
/// The largest absolute torque (Gymnasium's `max_torque`, 2.0).
pub const MAX_TORQUE: f32 = 2.0;
/// The time step in seconds (Gymnasium's `dt`, 0.05).
pub const TIME_STEP: f64 = 0.05;
/// The mass of the pendulum (Gymnasium's `m`, 1.0).
pub const MASS: f64 = 1.0;
/// The length of the pendulum (Gymnasium's `l`, 1.0).
pub const LENGTH: f64 = 1.0;

/// The parameters of Pendulum; [`Default`] gives Gymnasium 1.4.0's `Pendulum-v1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PendulumParams {
    /// Gravitational acceleration (10.0; Gymnasium's `g`, a `make` argument).
    pub g: f64,
    /// The time limit of an episode, in steps (200).
    pub max_episode_steps: u64,
}

impl Default for PendulumParams {
    fn default() -> Self {
        PendulumParams {
            g: 10.0,
            max_episode_steps: 200,
        }
    }
}

impl PendulumParams {
    /// Checks that `g` is finite and the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::magnitude("g", self.g)?;
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }
}

/// The internal state of Pendulum, in float64 like Gymnasium's `env.unwrapped.state`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct PendulumState {
    /// The angle from upright in radians, counter-clockwise; not wrapped, as in Gymnasium.
    pub theta: f64,
    /// The angular velocity, in `[-8, 8]`.
    pub theta_dot: f64,
}

impl PendulumState {
    /// The observation Gymnasium returns for this state: `[cos theta, sin theta, theta_dot]`
    /// computed in float64 and rounded to float32.
    #[inline]
    pub fn to_observation(&self) -> [f32; 3] {
        [
            trig::cos(self.theta) as f32,
            trig::sin(self.theta) as f32,
            self.theta_dot as f32,
        ]
    }
}

/// Gymnasium's `angle_normalize`: `((x + pi) % (2 pi)) - pi` with NumPy's float remainder,
/// whose result takes the sign of the divisor.
#[inline]
pub fn angle_normalize(x: f64) -> f64 {
    numpy_remainder(x + PI, 2.0 * PI) - PI
}

/// NumPy's `remainder` of two float64 values (`npy_divmod`): C `fmod`, then the divisor
/// added when the signs differ; a zero result is a zero with the divisor's sign.
#[inline(always)]
fn numpy_remainder(dividend: f64, divisor: f64) -> f64 {
    let remainder = dividend % divisor;
    if divisor == 0.0 {
        remainder
    } else if remainder != 0.0 {
        if (divisor < 0.0) != (remainder < 0.0) {
            remainder + divisor
        } else {
            remainder
        }
    } else {
        0.0f64.copysign(divisor)
    }
}

/// `x**2` on a float64, as NumPy evaluates it: C `pow(x, 2.0)`, the exponent hidden from
/// the optimiser.
#[inline(always)]
fn python_square(x: f64) -> f64 {
    x.powf(std::hint::black_box(2.0))
}

/// `x**2` on a float32, as NumPy evaluates it: C `powf(x, 2.0f)`.
#[inline(always)]
fn python_square_f32(x: f32) -> f32 {
    x.powf(std::hint::black_box(2.0))
}

/// Clips like NumPy's `clip` on a scalar; NaN passes through.
#[inline(always)]
fn clip<T: PartialOrd>(value: T, low: T, high: T) -> T {
    if value < low {
        low
    } else if value > high {
        high
    } else {
        value
    }
}

/// Advances Pendulum by one time step with the torque `action` (a float32, clipped to
/// `[-2, 2]`), exactly as Gymnasium 1.4.0's `PendulumEnv.step` under NumPy 2 (see the
/// module's "Precision" section). Pendulum never terminates.
///
/// The function never panics: non-finite states or actions give non-finite results.
///
/// ```
/// use rl_domains::pendulum::{pendulum_step, PendulumParams, PendulumState};
///
/// let upright = PendulumState { theta: 0.0, theta_dot: 0.0 };
/// let step = pendulum_step(&PendulumParams::default(), &upright, 0.0);
/// // Balanced upright without torque: nothing moves and nothing costs.
/// assert_eq!(step.next_state, upright);
/// assert_eq!(step.value.reward(), 0.0);
/// ```
#[inline]
pub fn pendulum_step(
    params: &PendulumParams,
    state: &PendulumState,
    action: f32,
) -> TransitionOutcome<PendulumState> {
    let PendulumState { theta, theta_dot } = *state;
    let u = clip(action, -MAX_TORQUE, MAX_TORQUE);
    let torque_cost = python_square_f32(u) * 0.001f32;
    let costs = python_square(angle_normalize(theta))
        + 0.1 * python_square(theta_dot)
        + f64::from(torque_cost);
    // `3.0 / (m * l**2)` is a Python float, which meets the float32 `u` as a float32.
    let torque = (3.0 / (MASS * (LENGTH * LENGTH))) as f32 * u;
    let gravity_term = 3.0 * params.g / (2.0 * LENGTH) * trig::sin(theta);
    let new_theta_dot = theta_dot + (gravity_term + f64::from(torque)) * TIME_STEP;
    let new_theta_dot = clip(new_theta_dot, -MAX_SPEED, MAX_SPEED);
    let new_theta = theta + new_theta_dot * TIME_STEP;
    let next_state = PendulumState {
        theta: new_theta,
        theta_dot: new_theta_dot,
    };
    TransitionOutcome::new(next_state, Value::from_reward(-costs), false)
}

/// Pendulum: Gymnasium 1.4.0's `Pendulum-v1` as a [`Domain`].
///
#[doc = include_str!("pendulum.md")]
///
/// ```
/// use rl_core::{CoreError, Environment, Mode, Simulator};
/// use rl_domains::pendulum::{Pendulum, PendulumParams};
///
/// let mut env = Simulator::new(Pendulum::new(PendulumParams::default())?, 5);
/// let [cos, sin, _] = env.reset(Mode::Training)?;
/// assert!((cos * cos + sin * sin - 1.0).abs() < 1e-6);
/// let outcome = env.step(&[1.5])?;
/// assert!(outcome.reward() <= 0.0 && !outcome.terminated);
/// // A torque beyond the bounds is clipped, as in Gymnasium; NaN and infinities are errors.
/// let mut clipped = Simulator::new(Pendulum::new(PendulumParams::default())?, 5);
/// clipped.reset(Mode::Training)?;
/// clipped.step(&[1.5])?;
/// assert_eq!(env.step(&[2.5])?, clipped.step(&[2.0])?);
/// assert!(matches!(env.step(&[f32::NAN]), Err(CoreError::InvalidAction { .. })));
/// assert!(matches!(env.step(&[f32::INFINITY]), Err(CoreError::InvalidAction { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Pendulum {
    params: PendulumParams,
    observation_space: ArrayBox<f32, 3>,
    action_space: ArrayBox<f32, 1>,
}

impl Pendulum {
    /// The domain with `params`, after [`PendulumParams::validate`].
    pub fn new(params: PendulumParams) -> Result<Pendulum, Error> {
        params.validate()?;
        let high = [1.0, 1.0, MAX_SPEED as f32];
        Ok(Pendulum {
            params,
            observation_space: ArrayBox::new(high.map(|value| -value), high)?,
            action_space: ArrayBox::new([-MAX_TORQUE], [MAX_TORQUE])?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &PendulumParams {
        &self.params
    }
}

impl Domain for Pendulum {
    type State = PendulumState;
    type Observation = [f32; 3];
    type Action = [f32; 1];
    type ObservationSpace = ArrayBox<f32, 3>;
    type ActionSpace = ArrayBox<f32, 1>;

    fn observation_space(&self) -> &ArrayBox<f32, 3> {
        &self.observation_space
    }

    fn action_space(&self) -> &ArrayBox<f32, 1> {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> PendulumState {
        // Gymnasium: uniform(low=[-pi, -1], high=[pi, 1]), element by element.
        let theta = uniform(rng, -PI, PI);
        let theta_dot = uniform(rng, -1.0, 1.0);
        PendulumState { theta, theta_dot }
    }

    /// [`pendulum_step`]: any action, in the declared space or not, is clipped as
    /// Gymnasium does (the simulator only passes declared ones).
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &PendulumState,
        action: &[f32; 1],
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<PendulumState> {
        pendulum_step(&self.params, state, action[0])
    }

    #[inline]
    fn observe(&self, state: &PendulumState) -> [f32; 3] {
        state.to_observation()
    }

    /// Never: Pendulum has no terminal state.
    fn is_terminal(&self, _state: &PendulumState) -> bool {
        false
    }

    /// Any finite action: Gymnasium clips the torque into the action space's bounds, so an
    /// unclipped policy output steps as in Gymnasium. NaN and infinities, which Gymnasium would
    /// carry into the state or the reward, are refused.
    fn accepts_action(&self, action: &[f32; 1]) -> bool {
        action[0].is_finite()
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.params.max_episode_steps)
    }

    /// `[-pi, pi]` for the angle (which the state does not wrap: this is the range of its
    /// normalised value) and `[-8, 8]` for the velocity.
    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        Some(vec![[-PI, PI], [-MAX_SPEED, MAX_SPEED]])
    }

    fn continuous_dimensions(&self) -> Vec<usize> {
        vec![0, 1]
    }
}

impl DeterministicTransitions for Pendulum {}

/// The text picture's width and height, in characters.
const TEXT_WIDTH: usize = 21;
const TEXT_HEIGHT: usize = 11;
/// The extent of the pictures around the pivot, in pendulum lengths (Gymnasium's 2.2).
const PICTURE_BOUND: f64 = 2.2;

/// The end of the rod, with the pivot at the origin, x to the right and y up.
fn rod_end(state: &PendulumState) -> [f64; 2] {
    [
        -LENGTH * trig::sin(state.theta),
        LENGTH * trig::cos(state.theta),
    ]
}

/// The text cell of a point, `None` outside the picture or for a non-finite point.
fn text_cell(point: [f64; 2]) -> Option<(usize, usize)> {
    let half = PICTURE_BOUND / 2.0;
    let column = (point[0] + half) / (2.0 * half) * (TEXT_WIDTH - 1) as f64;
    let row = (half - point[1]) / (2.0 * half) * (TEXT_HEIGHT - 1) as f64;
    let (column, row) = (column.round(), row.round());
    let inside = (0.0..=(TEXT_WIDTH - 1) as f64).contains(&column)
        && (0.0..=(TEXT_HEIGHT - 1) as f64).contains(&row);
    inside.then_some((row as usize, column as usize))
}

impl Render for Pendulum {
    /// The rod on a grid of characters: the pivot (`O`), the rod (`.`) and the bob (`@`),
    /// upright being up, then the angle normalised into `[-pi, pi)` and the velocity.
    fn render_text(&self, state: &PendulumState) -> String {
        let mut grid = vec![[' '; TEXT_WIDTH]; TEXT_HEIGHT];
        let end = rod_end(state);
        for index in 1..10 {
            let fraction = f64::from(index) / 10.0;
            if let Some((row, column)) = text_cell([end[0] * fraction, end[1] * fraction]) {
                grid[row][column] = '.';
            }
        }
        for (point, mark) in [([0.0, 0.0], 'O'), (end, '@')] {
            if let Some((row, column)) = text_cell(point) {
                grid[row][column] = mark;
            }
        }
        let mut text = String::new();
        for row in grid {
            let line: String = row.iter().collect();
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text.push_str(&format!(
            "theta = {:+.4} rad (from upright), theta_dot = {:+.4}\n",
            angle_normalize(state.theta),
            state.theta_dot
        ));
        text
    }

    /// Gymnasium's picture: a 500 by 500 frame around the pivot, the rod (`rod`, rotated by
    /// the angle, upright being up), the bob at its end (`bob`) and the axle (`axle`), with
    /// the state as a caption.
    fn render_svg(&self, state: &PendulumState) -> String {
        const SIZE: f64 = 500.0;
        let scale = SIZE / (2.0 * PICTURE_BOUND);
        let screen =
            |point: [f64; 2]| (SIZE / 2.0 + point[0] * scale, SIZE / 2.0 - point[1] * scale);
        let mut svg = Svg::new(SIZE, SIZE, "Pendulum");
        let (x1, y1) = screen([0.0, 0.0]);
        let (x2, y2) = screen(rod_end(state));
        svg.element(
            "line",
            "rod",
            &[
                ("x1", number(x1)),
                ("y1", number(y1)),
                ("x2", number(x2)),
                ("y2", number(y2)),
                ("stroke", "#cc4c4c".to_owned()),
                ("stroke-width", number(0.2 * scale)),
                ("stroke-linecap", "round".to_owned()),
            ],
        );
        for (point, class, radius, fill) in [
            (rod_end(state), "bob", 0.1, "#cc4c4c"),
            ([0.0, 0.0], "axle", 0.05, "#000000"),
        ] {
            let (x, y) = screen(point);
            svg.element(
                "circle",
                class,
                &[
                    ("cx", number(x)),
                    ("cy", number(y)),
                    ("r", number(radius * scale)),
                    ("fill", fill.to_owned()),
                ],
            );
        }
        svg.text(
            "caption",
            &[("x", "10".to_owned()), ("y", "24".to_owned())],
            &format!(
                "theta = {:+.3} rad, theta_dot = {:+.3}",
                angle_normalize(state.theta),
                state.theta_dot
            ),
        );
        svg.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_gravity_is_rejected() {
        assert!(PendulumParams::default().validate().is_ok());
        let bad = PendulumParams {
            g: f64::NAN,
            ..PendulumParams::default()
        };
        let error = bad.validate().map_err(|error| error.to_string());
        assert!(error.is_err_and(|message| message.contains("`g`")));
        let bad = PendulumParams {
            max_episode_steps: 0,
            ..PendulumParams::default()
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn remainder_takes_the_sign_of_the_divisor() {
        assert_eq!(numpy_remainder(-1.0, 3.0), 2.0);
        assert_eq!(numpy_remainder(4.0, 3.0), 1.0);
        assert_eq!(numpy_remainder(-3.0, 3.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(numpy_remainder(1.0, -3.0), -2.0);
        assert!(numpy_remainder(f64::INFINITY, 3.0).is_nan());
        assert_eq!(angle_normalize(0.0), 0.0);
        assert_eq!(angle_normalize(PI), -PI);
        let normalised = angle_normalize(7.0);
        assert!((normalised - (7.0 - 2.0 * PI)).abs() < 1e-12);
    }

    #[test]
    fn torque_terms_are_float32() {
        let params = PendulumParams::default();
        let state = PendulumState {
            theta: 1.0,
            theta_dot: 0.5,
        };
        let action = 0.7f32;
        let step = pendulum_step(&params, &state, action);
        let torque = 3.0f32 * action;
        let theta_dot = 0.5 + (15.0 * trig::sin(1.0) + f64::from(torque)) * 0.05;
        assert_eq!(step.next_state.theta_dot.to_bits(), theta_dot.to_bits());
        assert_eq!(
            step.next_state.theta.to_bits(),
            (1.0 + theta_dot * 0.05).to_bits()
        );
        let costs = python_square(1.0)
            + 0.1 * python_square(0.5)
            + f64::from(python_square_f32(action) * 0.001f32);
        assert_eq!(step.value.reward().to_bits(), (-costs).to_bits());
        // The float32 cost differs from a float64 one.
        assert_ne!(
            f64::from(python_square_f32(action) * 0.001f32),
            0.001 * f64::from(action) * f64::from(action)
        );
    }

    #[test]
    fn actions_and_speed_are_clipped() {
        let params = PendulumParams::default();
        let state = PendulumState {
            theta: 0.0,
            theta_dot: 7.9,
        };
        let clipped = pendulum_step(&params, &state, 5.0);
        let at_bound = pendulum_step(&params, &state, 2.0);
        assert_eq!(clipped, at_bound);
        assert_eq!(clipped.next_state.theta_dot, 8.0);
        assert!(
            pendulum_step(&params, &state, f32::NAN)
                .value
                .reward()
                .is_nan()
        );
    }

    #[test]
    fn pictures_show_every_part() {
        let domain = Pendulum::new(PendulumParams::default()).expect("valid");
        let state = PendulumState {
            theta: 2.5,
            theta_dot: -1.0,
        };
        let text = domain.render_text(&state);
        assert!(text.contains('O') && text.contains('@'), "{text}");
        assert!(text.contains("theta = +2.5000"));
        let svg = domain.render_svg(&state);
        for class in ["rod", "bob", "axle", "caption"] {
            assert!(svg.contains(&format!("class=\"{class}\"")), "{class}");
        }
        let diverged = PendulumState {
            theta: f64::INFINITY,
            theta_dot: f64::NAN,
        };
        assert!(domain.render_svg(&diverged).ends_with("</svg>\n"));
        assert!(domain.render_text(&diverged).contains("NaN"));
    }
}
