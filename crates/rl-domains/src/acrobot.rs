//! Acrobot: Gymnasium 1.4.0's `Acrobot-v1`, as the domain [`Acrobot`] and its exact, pure
//! step function [`acrobot_step`].
//!
//! [`Acrobot`] is documented in the crate's domain template. This page adds how the step
//! function reproduces Gymnasium bit for bit.
//!
//! # Exactness
//!
//! [`acrobot_step`] integrates the equations of motion with Gymnasium's fourth-order
//! Runge-Kutta step, performing its float64 operations in its order (products and sums left
//! to right, as Python evaluates them). Two details decide the last bits:
//!
//! * Gymnasium squares float64 variables with `x**2`, which NumPy evaluates with C
//!   `pow(x, 2.0)`, and that is not always the rounded `x * x` (the reference README
//!   counts 18 of 14,047 recorded steps that differ). Using `x * x` here leaves 15,626
//!   mismatching values in `acrobot_v1.json` and 1,679 in `acrobot_v1_nips.json`, as the
//!   rollouts those steps start derail. This
//!   module calls the C library's `pow` through [`f64::powf`] with an exponent hidden from
//!   the optimiser ([`std::hint::black_box`]), because LLVM rewrites `powf(x, 2.0)` with a
//!   constant exponent into `x * x`.
//! * Sines and cosines are the standard library's, like the rest of the crate (see
//!   [`crate::cartpole`]).
//!
//! With both, all 33 Acrobot reference traces (book and NIPS dynamics, 12,437 steps, checked
//! from the recorded states and along the rollouts) replay with 0 mismatches.
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/classic_control/acrobot.py`; the operation order is
//! written out in `testdata/reference/README.md`.

use std::f64::consts::PI;

use rand::Rng;
use rl_core::numpy_random::uniform;
use rl_core::{Domain, Mode, Render, TransitionOutcome, Value};
use rl_spaces::{ArrayBox, Discrete};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::parameter_checks;
use crate::svg::{Svg, number};
use crate::trig;

pub use crate::mountain_car_continuous::StatePrecision;

/// The time step of one environment step in seconds (Gymnasium's `dt`, 0.2).
pub const TIME_STEP: f64 = 0.2;
/// The length of the first link (Gymnasium's `LINK_LENGTH_1`, 1.0).
pub const LINK_LENGTH_1: f64 = 1.0;
/// The length of the second link (Gymnasium's `LINK_LENGTH_2`, 1.0).
pub const LINK_LENGTH_2: f64 = 1.0;
/// The mass of the first link (Gymnasium's `LINK_MASS_1`, 1.0).
pub const LINK_MASS_1: f64 = 1.0;
/// The mass of the second link (Gymnasium's `LINK_MASS_2`, 1.0).
pub const LINK_MASS_2: f64 = 1.0;
/// The position of the first link's centre of mass (Gymnasium's `LINK_COM_POS_1`, 0.5).
pub const LINK_COM_POS_1: f64 = 0.5;
/// The position of the second link's centre of mass (Gymnasium's `LINK_COM_POS_2`, 0.5).
pub const LINK_COM_POS_2: f64 = 0.5;
/// The moment of inertia of both links (Gymnasium's `LINK_MOI`, 1.0).
pub const LINK_MOI: f64 = 1.0;
/// The largest absolute angular velocity of the first joint (`4 * pi`).
pub const MAX_VEL_1: f64 = 4.0 * PI;
/// The largest absolute angular velocity of the second joint (`9 * pi`).
pub const MAX_VEL_2: f64 = 9.0 * PI;
/// Gravitational acceleration, a literal (9.8) in Gymnasium's `_dsdt`.
pub const GRAVITY: f64 = 9.8;

/// Gymnasium's action 0: torque -1 on the joint between the links.
pub const TORQUE_NEGATIVE: i64 = 0;
/// Gymnasium's action 1: no torque.
pub const TORQUE_NONE: i64 = 1;
/// Gymnasium's action 2: torque +1.
pub const TORQUE_POSITIVE: i64 = 2;

/// Which equations of motion [`acrobot_step`] integrates (Gymnasium's `book_or_nips`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum AcrobotDynamics {
    /// The equations of Sutton and Barto's book, with the `-m2 l1 lc2 dtheta1² sin(theta2)`
    /// term (Gymnasium's default, `"book"`).
    #[default]
    #[serde(rename = "book")]
    Book,
    /// The equations of the NIPS paper, without that term (`"nips"`).
    #[serde(rename = "nips")]
    Nips,
}

/// The parameters of Acrobot; [`Default`] gives Gymnasium 1.4.0's `Acrobot-v1`.
///
/// The physical constants are Gymnasium's class attributes, kept as this module's
/// constants ([`LINK_LENGTH_1`], ...).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AcrobotParams {
    /// The equations of motion ([`AcrobotDynamics::Book`]).
    pub dynamics: AcrobotDynamics,
    /// The half-width of the uniform noise added to every torque (0.0: no noise, as
    /// Gymnasium's `torque_noise_max`).
    pub torque_noise_max: f64,
    /// The time limit of an episode, in steps (500).
    pub max_episode_steps: u64,
}

impl Default for AcrobotParams {
    fn default() -> Self {
        AcrobotParams {
            dynamics: AcrobotDynamics::Book,
            torque_noise_max: 0.0,
            max_episode_steps: 500,
        }
    }
}

impl AcrobotParams {
    /// Checks that the torque noise is finite, not negative and at most 10^6 (larger noise
    /// overflows the dynamics into NaN) and that the time limit is
    /// at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::magnitude("torque_noise_max", self.torque_noise_max)?;
        if self.torque_noise_max < 0.0 {
            return Err(Error::InvalidParameter {
                parameter: "torque_noise_max",
                reason: format!("must not be negative, got {}", self.torque_noise_max),
            });
        }
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }
}

/// The internal state of Acrobot, in float64 like Gymnasium's `env.unwrapped.state` after a
/// step; right after a reset Gymnasium holds it in a float32 array, whose observation takes
/// NumPy's float32 sines and cosines ([`precision`](Self::precision)).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct AcrobotState {
    /// The angle of the first link from hanging straight down, in radians, in `[-pi, pi]`.
    pub theta1: f64,
    /// The angle of the second link relative to the first, in radians, in `[-pi, pi]`.
    pub theta2: f64,
    /// The angular velocity of the first joint, in `[-4 pi, 4 pi]`.
    pub dtheta1: f64,
    /// The angular velocity of the second joint, in `[-9 pi, 9 pi]`.
    pub dtheta2: f64,
    /// The array type that holds the state: [`StatePrecision::Float32`] as a reset leaves it
    /// (its values are float32 values, and its observation's sines and cosines are NumPy's
    /// float32 ones), [`StatePrecision::Float64`] after a step (the default, also in JSON).
    #[serde(default)]
    pub precision: StatePrecision,
}

impl AcrobotState {
    /// Builds a state from `[theta1, theta2, dtheta1, dtheta2]`.
    #[inline]
    pub fn from_array(values: [f64; 4]) -> Self {
        let [theta1, theta2, dtheta1, dtheta2] = values;
        AcrobotState {
            theta1,
            theta2,
            dtheta1,
            dtheta2,
            precision: StatePrecision::Float64,
        }
    }

    /// Builds a state as a reset leaves it, from `[theta1, theta2, dtheta1, dtheta2]` in
    /// float32.
    #[inline]
    pub fn from_float32(values: [f32; 4]) -> Self {
        AcrobotState {
            precision: StatePrecision::Float32,
            ..AcrobotState::from_array(values.map(f64::from))
        }
    }

    /// The state as `[theta1, theta2, dtheta1, dtheta2]`.
    #[inline]
    pub fn to_array(&self) -> [f64; 4] {
        [self.theta1, self.theta2, self.dtheta1, self.dtheta2]
    }

    /// The observation Gymnasium returns for this state:
    /// `[cos theta1, sin theta1, cos theta2, sin theta2, dtheta1, dtheta2]`, computed in
    /// float64 and rounded to float32, or, for a float32 state (right after a reset), with
    /// NumPy's float32 sine and cosine of the angles rounded to float32.
    #[inline]
    pub fn to_observation(&self) -> [f32; 6] {
        let (cos1, sin1, cos2, sin2) = match self.precision {
            StatePrecision::Float64 => (
                trig::cos(self.theta1) as f32,
                trig::sin(self.theta1) as f32,
                trig::cos(self.theta2) as f32,
                trig::sin(self.theta2) as f32,
            ),
            StatePrecision::Float32 => {
                let (theta1, theta2) = (self.theta1 as f32, self.theta2 as f32);
                (
                    trig::numpy_cos_f32(theta1),
                    trig::numpy_sin_f32(theta1),
                    trig::numpy_cos_f32(theta2),
                    trig::numpy_sin_f32(theta2),
                )
            }
        };
        [
            cos1,
            sin1,
            cos2,
            sin2,
            self.dtheta1 as f32,
            self.dtheta2 as f32,
        ]
    }

    /// The height of the tip of the second link above the pivot, in link lengths of 1:
    /// `-cos(theta1) - cos(theta1 + theta2)`, in Gymnasium's operation order.
    #[inline]
    pub fn tip_height(&self) -> f64 {
        -trig::cos(self.theta1) - trig::cos(self.theta2 + self.theta1)
    }

    /// Whether the tip is above the goal line: [`tip_height`](Self::tip_height) `> 1`.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.tip_height() > 1.0
    }
}

/// `x**2` as NumPy evaluates it on a float64: C `pow(x, 2.0)`. The exponent is hidden from
/// the optimiser, which would otherwise replace the call with `x * x` (see the module's
/// "Exactness" section).
#[inline(always)]
fn python_square(x: f64) -> f64 {
    x.powf(std::hint::black_box(2.0))
}

/// The torque of Gymnasium's actions 0, 1 and 2: -1, 0 and +1; any other action is 0.
#[inline]
pub fn action_torque(action: i64) -> f64 {
    match action {
        TORQUE_NEGATIVE => -1.0,
        TORQUE_POSITIVE => 1.0,
        _ => 0.0,
    }
}

/// The time derivative of `[theta1, theta2, dtheta1, dtheta2]` under `torque`: Gymnasium's
/// `_dsdt`, operation by operation.
#[inline(always)]
fn derivatives(dynamics: AcrobotDynamics, state: [f64; 4], torque: f64) -> [f64; 4] {
    let m1 = LINK_MASS_1;
    let m2 = LINK_MASS_2;
    let l1 = LINK_LENGTH_1;
    let lc1 = LINK_COM_POS_1;
    let lc2 = LINK_COM_POS_2;
    let i1 = LINK_MOI;
    let i2 = LINK_MOI;
    let g = GRAVITY;
    let [theta1, theta2, dtheta1, dtheta2] = state;
    // Python's `**` on Python floats is C `pow` too, and exact for these constants.
    let lc1_squared = lc1 * lc1;
    let lc2_squared = lc2 * lc2;
    let l1_squared = l1 * l1;
    let cos_theta2 = trig::cos(theta2);
    let sin_theta2 = trig::sin(theta2);
    let d1 =
        m1 * lc1_squared + m2 * (l1_squared + lc2_squared + 2.0 * l1 * lc2 * cos_theta2) + i1 + i2;
    let d2 = m2 * (lc2_squared + l1 * lc2 * cos_theta2) + i2;
    let phi2 = m2 * lc2 * g * trig::cos(theta1 + theta2 - PI / 2.0);
    let phi1 = -m2 * l1 * lc2 * python_square(dtheta2) * sin_theta2
        - 2.0 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin_theta2
        + (m1 * lc1 + m2 * l1) * g * trig::cos(theta1 - PI / 2.0)
        + phi2;
    let denominator = m2 * lc2_squared + i2 - python_square(d2) / d1;
    let ddtheta2 = match dynamics {
        AcrobotDynamics::Nips => (torque + d2 / d1 * phi1 - phi2) / denominator,
        AcrobotDynamics::Book => {
            (torque + d2 / d1 * phi1 - m2 * l1 * lc2 * python_square(dtheta1) * sin_theta2 - phi2)
                / denominator
        }
    };
    let ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    [dtheta1, dtheta2, ddtheta1, ddtheta2]
}

/// `base + scale * slope`, element by element, as NumPy evaluates `y0 + dt2 * k1`.
#[inline(always)]
fn advance(base: [f64; 4], scale: f64, slope: [f64; 4]) -> [f64; 4] {
    [
        base[0] + scale * slope[0],
        base[1] + scale * slope[1],
        base[2] + scale * slope[2],
        base[3] + scale * slope[3],
    ]
}

/// Gymnasium's `wrap(x, -pi, pi)`: subtracts or adds `2 pi` until `x` lies in `[-pi, pi]`.
///
/// Gymnasium loops, which never ends for an infinite `x` or one so large that subtracting
/// `2 pi` leaves it unchanged (beyond about 2^55), and takes long for a merely huge one; beyond
/// 64 turns (never reached from a state of the declared ranges, whose angles move by at most
/// 2.7 turns in a step) this takes the exact remainder instead, and an infinite or NaN angle
/// becomes NaN. The loops are bounded too, so the function never hangs or panics.
#[inline]
pub fn wrap_angle(mut x: f64) -> f64 {
    /// More than the turns any angle within 64 turns needs.
    const MAX_TURNS: u32 = 80;
    let (low, high) = (-PI, PI);
    let turn = high - low;
    if !x.is_finite() {
        return f64::NAN;
    }
    if x.abs() > 64.0 * turn {
        // `rem_euclid` is exact (an IEEE remainder), so the result lies in `[low, high]`;
        // a floored quotient times the turn would lose the angle to rounding (fuzzing found
        // an angle of about 10^36 left at about 10^20, where the loops below never moved it).
        x = (x - low).rem_euclid(turn) + low;
    }
    for _ in 0..MAX_TURNS {
        if x <= high {
            break;
        }
        x -= turn;
    }
    for _ in 0..MAX_TURNS {
        if x >= low {
            break;
        }
        x += turn;
    }
    debug_assert!(
        (low..=high).contains(&x),
        "wrapped angle {x} outside [-pi, pi]"
    );
    x
}

/// Gymnasium's `bound(x, low, high)`: `min(max(x, low), high)` with Python's `min` and
/// `max`, which return their first argument when a comparison with NaN is false.
#[inline(always)]
fn python_bound(x: f64, low: f64, high: f64) -> f64 {
    let at_least_low = if low > x { low } else { x };
    if high < at_least_low {
        high
    } else {
        at_least_low
    }
}

/// Advances Acrobot by one time step under `torque` (-1, 0 or 1 for Gymnasium's actions,
/// plus the torque noise when there is some), exactly as Gymnasium 1.4.0's
/// `AcrobotEnv.step`: one fourth-order Runge-Kutta step over [`TIME_STEP`], the angles
/// wrapped into `[-pi, pi]`, the velocities bounded; the reward is 0 when the tip rose above
/// the goal line (which terminates), else -1.
///
/// The function never panics or hangs: non-finite states give non-finite next states.
///
/// ```
/// use rl_domains::acrobot::{acrobot_step, AcrobotDynamics, AcrobotState};
///
/// let step = acrobot_step(AcrobotDynamics::Book, &AcrobotState::default(), 1.0);
/// // From rest hanging down, a positive torque swings the second link positively.
/// assert!(step.next_state.dtheta2 > 0.0);
/// assert_eq!(step.value.reward(), -1.0);
/// assert!(!step.terminated);
/// ```
#[inline]
pub fn acrobot_step(
    dynamics: AcrobotDynamics,
    state: &AcrobotState,
    torque: f64,
) -> TransitionOutcome<AcrobotState> {
    let start = state.to_array();
    // Gymnasium's `rk4(derivs, y0, [0, dt])`: one step with dt = t[1] - t[0].
    let dt = TIME_STEP - 0.0;
    let half_dt = dt / 2.0;
    let k1 = derivatives(dynamics, start, torque);
    let k2 = derivatives(dynamics, advance(start, half_dt, k1), torque);
    let k3 = derivatives(dynamics, advance(start, half_dt, k2), torque);
    let k4 = derivatives(dynamics, advance(start, dt, k3), torque);
    let sixth = dt / 6.0;
    let mut next = [0.0; 4];
    for (index, slot) in next.iter_mut().enumerate() {
        let slope = ((k1[index] + 2.0 * k2[index]) + 2.0 * k3[index]) + k4[index];
        *slot = start[index] + sixth * slope;
    }
    let next_state = AcrobotState {
        theta1: wrap_angle(next[0]),
        theta2: wrap_angle(next[1]),
        dtheta1: python_bound(next[2], -MAX_VEL_1, MAX_VEL_1),
        dtheta2: python_bound(next[3], -MAX_VEL_2, MAX_VEL_2),
        precision: StatePrecision::Float64,
    };
    let terminated = next_state.is_terminal();
    let reward = if terminated { 0.0 } else { -1.0 };
    TransitionOutcome::new(next_state, Value::from_reward(reward), terminated)
}

/// Acrobot: Gymnasium 1.4.0's `Acrobot-v1` as a [`Domain`].
///
#[doc = include_str!("acrobot.md")]
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_domains::acrobot::{Acrobot, AcrobotParams, TORQUE_NONE};
///
/// let mut env = Simulator::new(Acrobot::new(AcrobotParams::default())?, 3);
/// let observation = env.reset(Mode::Training)?;
/// assert!(observation[0] > 0.99); // hanging almost straight down
/// // Without torque the links never swing up: the time limit truncates after 500 steps.
/// let mut steps = 1;
/// while !env.step(&TORQUE_NONE)?.is_done() {
///     steps += 1;
/// }
/// assert_eq!(steps, 500);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Acrobot {
    params: AcrobotParams,
    observation_space: ArrayBox<f32, 6>,
    action_space: Discrete,
}

impl Acrobot {
    /// The domain with `params`, after [`AcrobotParams::validate`].
    pub fn new(params: AcrobotParams) -> Result<Acrobot, Error> {
        params.validate()?;
        let high = [1.0, 1.0, 1.0, 1.0, MAX_VEL_1 as f32, MAX_VEL_2 as f32];
        Ok(Acrobot {
            params,
            observation_space: ArrayBox::new(high.map(|value| -value), high)?,
            action_space: Discrete::new(3)?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &AcrobotParams {
        &self.params
    }

    /// The torque of `action` plus, when `torque_noise_max` is positive, the noise drawn
    /// from `rng` as Gymnasium's `uniform(-torque_noise_max, torque_noise_max)`.
    #[inline]
    fn torque<R: Rng + ?Sized>(&self, action: i64, rng: &mut R) -> f64 {
        let torque = action_torque(action);
        let noise = self.params.torque_noise_max;
        if noise > 0.0 {
            torque + uniform(rng, -noise, noise)
        } else {
            torque
        }
    }
}

impl Domain for Acrobot {
    type State = AcrobotState;
    type Observation = [f32; 6];
    type Action = i64;
    type ObservationSpace = ArrayBox<f32, 6>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f32, 6> {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> AcrobotState {
        let mut draw = || uniform(rng, -0.1, 0.1) as f32;
        AcrobotState::from_float32([draw(), draw(), draw(), draw()])
    }

    /// [`acrobot_step`] with the action's torque plus, when `torque_noise_max` is
    /// positive, uniform noise drawn from `rng`; an action outside 0..=2 (which the
    /// simulator never passes) has no torque.
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &AcrobotState,
        action: &i64,
        _mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<AcrobotState> {
        acrobot_step(self.params.dynamics, state, self.torque(*action, rng))
    }

    #[inline]
    fn observe(&self, state: &AcrobotState) -> [f32; 6] {
        state.to_observation()
    }

    fn is_terminal(&self, state: &AcrobotState) -> bool {
        state.is_terminal()
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.params.max_episode_steps)
    }

    /// `[-pi, pi]` for both angles, `[-4 pi, 4 pi]` and `[-9 pi, 9 pi]` for the velocities.
    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        Some(vec![
            [-PI, PI],
            [-PI, PI],
            [-MAX_VEL_1, MAX_VEL_1],
            [-MAX_VEL_2, MAX_VEL_2],
        ])
    }

    fn continuous_dimensions(&self) -> Vec<usize> {
        vec![0, 1, 2, 3]
    }
}

/// The positions of the elbow and the tip, in link lengths, with the pivot at the origin,
/// x to the right and y up (Gymnasium's picture).
fn link_points(state: &AcrobotState) -> ([f64; 2], [f64; 2]) {
    let elbow = [
        LINK_LENGTH_1 * trig::sin(state.theta1),
        -LINK_LENGTH_1 * trig::cos(state.theta1),
    ];
    let angle = state.theta1 + state.theta2;
    let tip = [
        elbow[0] + LINK_LENGTH_2 * trig::sin(angle),
        elbow[1] - LINK_LENGTH_2 * trig::cos(angle),
    ];
    (elbow, tip)
}

/// The text picture's width and height, in characters.
const TEXT_WIDTH: usize = 23;
const TEXT_HEIGHT: usize = 11;
/// The extent of the pictures around the pivot, in link lengths (Gymnasium's bound, 2.2).
const PICTURE_BOUND: f64 = LINK_LENGTH_1 + LINK_LENGTH_2 + 0.2;

/// The text cell of a point, `None` outside the picture or for a non-finite point.
fn text_cell(point: [f64; 2]) -> Option<(usize, usize)> {
    let column = (point[0] + PICTURE_BOUND) / (2.0 * PICTURE_BOUND) * (TEXT_WIDTH - 1) as f64;
    let row = (PICTURE_BOUND - point[1]) / (2.0 * PICTURE_BOUND) * (TEXT_HEIGHT - 1) as f64;
    let (column, row) = (column.round(), row.round());
    let inside = (0.0..=(TEXT_WIDTH - 1) as f64).contains(&column)
        && (0.0..=(TEXT_HEIGHT - 1) as f64).contains(&row);
    inside.then_some((row as usize, column as usize))
}

impl Render for Acrobot {
    /// The links on a grid of characters: the goal line (`=`), the links (`.`), the pivot
    /// (`O`), the elbow (`o`) and the tip (`*`), then the four state variables and the
    /// tip's height.
    fn render_text(&self, state: &AcrobotState) -> String {
        let mut grid = vec![[' '; TEXT_WIDTH]; TEXT_HEIGHT];
        if let Some((row, _)) = text_cell([0.0, LINK_LENGTH_1]) {
            grid[row] = ['='; TEXT_WIDTH];
        }
        let (elbow, tip) = link_points(state);
        for (from, to) in [([0.0, 0.0], elbow), (elbow, tip)] {
            for index in 1..16 {
                let fraction = f64::from(index) / 16.0;
                let point = [
                    from[0] + (to[0] - from[0]) * fraction,
                    from[1] + (to[1] - from[1]) * fraction,
                ];
                if let Some((row, column)) = text_cell(point) {
                    grid[row][column] = '.';
                }
            }
        }
        for (point, mark) in [([0.0, 0.0], 'O'), (elbow, 'o'), (tip, '*')] {
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
            "theta1 = {:+.4} rad, theta2 = {:+.4} rad, dtheta1 = {:+.4}, dtheta2 = {:+.4}\n\
             tip height = {:+.4} (goal above +1)\n",
            state.theta1,
            state.theta2,
            state.dtheta1,
            state.dtheta2,
            state.tip_height()
        ));
        text
    }

    /// Gymnasium's picture: a 500 by 500 frame around the pivot, the goal line (`goal`),
    /// both links (`link`), the joints (`joint`, the pivot and the elbow) and the tip
    /// (`tip`), with the state as a caption.
    fn render_svg(&self, state: &AcrobotState) -> String {
        const SIZE: f64 = 500.0;
        let scale = SIZE / (2.0 * PICTURE_BOUND);
        let screen =
            |point: [f64; 2]| (SIZE / 2.0 + point[0] * scale, SIZE / 2.0 - point[1] * scale);
        let mut svg = Svg::new(SIZE, SIZE, "Acrobot");
        let (_, goal_y) = screen([0.0, LINK_LENGTH_1]);
        svg.element(
            "line",
            "goal",
            &[
                ("x1", number(0.0)),
                ("y1", number(goal_y)),
                ("x2", number(SIZE)),
                ("y2", number(goal_y)),
                ("stroke", "#000000".to_owned()),
            ],
        );
        let (elbow, tip) = link_points(state);
        for (from, to) in [([0.0, 0.0], elbow), (elbow, tip)] {
            let (x1, y1) = screen(from);
            let (x2, y2) = screen(to);
            svg.element(
                "line",
                "link",
                &[
                    ("x1", number(x1)),
                    ("y1", number(y1)),
                    ("x2", number(x2)),
                    ("y2", number(y2)),
                    ("stroke", "#0088cc".to_owned()),
                    ("stroke-width", number(0.2 * scale)),
                    ("stroke-linecap", "round".to_owned()),
                ],
            );
        }
        for (point, class, fill) in [
            ([0.0, 0.0], "joint", "#cccc00"),
            (elbow, "joint", "#cccc00"),
            (tip, "tip", "#d62728"),
        ] {
            let (x, y) = screen(point);
            svg.element(
                "circle",
                class,
                &[
                    ("cx", number(x)),
                    ("cy", number(y)),
                    ("r", number(0.1 * scale)),
                    ("fill", fill.to_owned()),
                ],
            );
        }
        svg.text(
            "caption",
            &[("x", "10".to_owned()), ("y", "24".to_owned())],
            &format!(
                "theta1 = {:+.3}, theta2 = {:+.3}, dtheta1 = {:+.3}, dtheta2 = {:+.3}",
                state.theta1, state.theta2, state.dtheta1, state.dtheta2
            ),
        );
        svg.finish()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use rl_core::NumpyGenerator;

    #[test]
    fn the_largest_accepted_noise_keeps_observations_finite() {
        // The fuzz target's finding: a torque noise of 3.06e131 was accepted and stepped to
        // NaN observations; 10^6, the largest accepted, stays finite.
        let acrobot = Acrobot::new(AcrobotParams {
            torque_noise_max: crate::parameter_checks::PHYSICAL_RANGE.1,
            ..AcrobotParams::default()
        })
        .expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(7);
        let mut state = acrobot.initial_state(Mode::Training, &mut rng);
        for step in 0..2000 {
            let outcome = acrobot.step(&state, &(step % 3), Mode::Training, &mut rng);
            state = outcome.next_state;
            let observation = acrobot.observe(&state);
            assert!(
                rl_spaces::Space::contains(acrobot.observation_space(), &observation),
                "step {step}: {observation:?}"
            );
            if outcome.terminated {
                state = acrobot.initial_state(Mode::Training, &mut rng);
            }
        }
    }

    #[test]
    fn defaults_are_valid_and_bad_noise_is_rejected() {
        assert!(AcrobotParams::default().validate().is_ok());
        for noise in [-0.1, f64::NAN, f64::INFINITY, 1.000_001e6, 3.06e131] {
            let bad = AcrobotParams {
                torque_noise_max: noise,
                ..AcrobotParams::default()
            };
            let error = bad.validate().map_err(|error| error.to_string());
            assert!(
                error
                    .as_ref()
                    .is_err_and(|message| message.contains("torque_noise_max")),
                "{noise}: {error:?}"
            );
        }
        let bad = AcrobotParams {
            max_episode_steps: 0,
            ..AcrobotParams::default()
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn python_square_is_c_pow_not_always_x_times_x() {
        // C `pow` and `x * x` agree on exact squares; the replay tests pin the others.
        assert_eq!(python_square(3.0), 9.0);
        assert_eq!(python_square(-0.5), 0.25);
        assert!(python_square(f64::NAN).is_nan());
    }

    #[test]
    fn wrap_follows_gymnasium_and_never_hangs() {
        assert_eq!(wrap_angle(0.5), 0.5);
        assert_eq!(wrap_angle(PI), PI);
        assert_eq!(wrap_angle(-PI), -PI);
        assert_eq!(wrap_angle(PI + 0.5), PI + 0.5 - 2.0 * PI);
        assert_eq!(wrap_angle(-PI - 0.5), -PI - 0.5 + 2.0 * PI);
        let huge = wrap_angle(1e300);
        assert!((-PI..=PI).contains(&huge), "{huge}");
        // Fuzzing (trace input 489561): an angular velocity of 2^62 set by a trace sent an
        // angle to about 10^36; a floored remainder left it near 10^20, where subtracting
        // 2 pi changes nothing and Gymnasium's loop never ends.
        for x in [
            1e16, 3e17, 1e20, 1e36, -1e36, 4.6e18, -7.3e25, 1.234e200, 4e2, -4e2,
        ] {
            let wrapped = wrap_angle(x);
            assert!((-PI..=PI).contains(&wrapped), "{x} wrapped to {wrapped}");
        }
        // Within 64 turns the result is Gymnasium's loop, step by step.
        let mut looped = 64.0 * 2.0 * PI - 0.1;
        while looped > PI {
            looped -= 2.0 * PI;
        }
        assert_eq!(
            wrap_angle(64.0 * 2.0 * PI - 0.1).to_bits(),
            looped.to_bits()
        );
        assert!(wrap_angle(f64::INFINITY).is_nan());
        assert!(wrap_angle(f64::NAN).is_nan());
    }

    #[test]
    fn bound_follows_python_min_and_max() {
        assert_eq!(python_bound(20.0, -MAX_VEL_1, MAX_VEL_1), MAX_VEL_1);
        assert_eq!(python_bound(-20.0, -MAX_VEL_1, MAX_VEL_1), -MAX_VEL_1);
        assert_eq!(python_bound(1.5, -MAX_VEL_1, MAX_VEL_1), 1.5);
        assert!(python_bound(f64::NAN, -MAX_VEL_1, MAX_VEL_1).is_nan());
    }

    #[test]
    fn nips_drops_the_book_term() {
        let state = AcrobotState::from_array([0.3, 0.7, 2.0, -1.0]);
        let book = acrobot_step(AcrobotDynamics::Book, &state, 1.0);
        let nips = acrobot_step(AcrobotDynamics::Nips, &state, 1.0);
        assert_ne!(book.next_state, nips.next_state);
        // Without velocity of the first joint the term vanishes in the first derivative.
        let resting = AcrobotState::default();
        assert_eq!(
            derivatives(AcrobotDynamics::Book, resting.to_array(), 1.0),
            derivatives(AcrobotDynamics::Nips, resting.to_array(), 1.0)
        );
    }

    #[test]
    fn reaching_up_terminates_with_reward_zero() {
        // Both links pointing up: the tip is 2 above the pivot.
        let state = AcrobotState::from_array([PI, 0.0, 0.0, 0.0]);
        assert!(state.is_terminal());
        let step = acrobot_step(AcrobotDynamics::Book, &state, 0.0);
        assert!(step.terminated);
        assert_eq!(step.value.reward(), 0.0);
    }

    #[test]
    fn torque_noise_is_drawn_only_when_configured() {
        let quiet = Acrobot::new(AcrobotParams::default()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(1);
        let before = rng.clone();
        assert_eq!(quiet.torque(TORQUE_POSITIVE, &mut rng), 1.0);
        assert_eq!(rng, before, "no draw without noise");
        let noisy = Acrobot::new(AcrobotParams {
            torque_noise_max: 0.5,
            ..AcrobotParams::default()
        })
        .expect("valid");
        let torque = noisy.torque(TORQUE_POSITIVE, &mut rng);
        assert!((0.5..1.5).contains(&torque) && torque != 1.0, "{torque}");
    }

    #[test]
    fn initial_states_are_float32_values_in_range() {
        let domain = Acrobot::new(AcrobotParams::default()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(7);
        for _ in 0..100 {
            for value in domain.initial_state(Mode::Training, &mut rng).to_array() {
                assert!((-0.1f32..=0.1f32).contains(&(value as f32)), "{value}");
                assert_eq!(f64::from(value as f32), value);
            }
        }
    }

    #[test]
    fn pictures_show_every_part() {
        let domain = Acrobot::new(AcrobotParams::default()).expect("valid");
        let state = AcrobotState::from_array([0.4, -0.8, 1.0, -2.0]);
        let text = domain.render_text(&state);
        for mark in ['=', 'O', 'o', '*'] {
            assert!(text.contains(mark), "{mark} in\n{text}");
        }
        assert!(text.contains("theta1 = +0.4000"));
        let svg = domain.render_svg(&state);
        for class in ["goal", "link", "joint", "tip", "caption"] {
            assert!(svg.contains(&format!("class=\"{class}\"")), "{class}");
        }
        let diverged = AcrobotState {
            theta1: f64::NAN,
            ..state
        };
        assert!(domain.render_svg(&diverged).ends_with("</svg>\n"));
        assert!(domain.render_text(&diverged).contains("NaN"));
    }
}
