//! Hand-written loops of the exact CartPole-v1, MountainCar-v0, Acrobot-v1 and Pendulum-v1
//! dynamics, written without the library, as the floor the library's stepping is compared
//! with.
//!
//! Each loop does the same job as the library path it stands next to, and nothing more: the
//! same float64 (and, for Pendulum's torque, float32) operations in Gymnasium's order (so the
//! same bits, which the tests of this module check against the library), the same float32
//! observations, the step count and the time limit, and resets that draw from a
//! `NumpyGenerator` exactly as the domains' `initial_state` does. They skip what a hand-written
//! loop would skip: validating actions, checking that an episode is running, and the generic
//! plumbing.
//!
//! - [`RawCartPole`] and [`RawMountainCar`]: one environment at a time (next to
//!   `Simulator`).
//! - [`RawCartPoleBatch`], [`RawMountainCarBatch`], [`RawAcrobotBatch`] and
//!   [`RawPendulumBatch`]: a batch in structure-of-arrays columns (one per state variable)
//!   with Gymnasium's next-step autoreset, seeded like a vector environment (next to
//!   the vectors they mirror), stepped through [`RawBatch`].

use std::f64::consts::PI;
use std::hint::black_box;

use rand::{RngExt, SeedableRng};
use rl_core::NumpyGenerator;

/// CartPole-v1's gravity.
const GRAVITY: f64 = 9.8;
/// CartPole-v1's cart mass.
const MASSCART: f64 = 1.0;
/// CartPole-v1's pole mass.
const MASSPOLE: f64 = 0.1;
/// `masspole + masscart`, summed in Gymnasium's order (constant evaluation is IEEE 754
/// arithmetic, so this is the bits the library computes at run time).
const TOTAL_MASS: f64 = MASSPOLE + MASSCART;
/// Half the pole's length.
const LENGTH: f64 = 0.5;
/// `masspole * length`.
const POLEMASS_LENGTH: f64 = MASSPOLE * LENGTH;
/// The force of a push.
const FORCE_MAG: f64 = 10.0;
/// The time step.
const TAU: f64 = 0.02;
/// 12 degrees in radians, computed as Gymnasium does.
const THETA_THRESHOLD: f64 = 12.0 * 2.0 * PI / 360.0;
/// The cart position beyond which an episode terminates.
const X_THRESHOLD: f64 = 2.4;
/// CartPole-v1's time limit.
const CARTPOLE_LIMIT: u32 = 500;

/// MountainCar-v0's left end of the track.
const MIN_POSITION: f64 = -1.2;
/// MountainCar-v0's right end of the track.
const MAX_POSITION: f64 = 0.6;
/// MountainCar-v0's speed limit.
const MAX_SPEED: f64 = 0.07;
/// The position of the flag.
const GOAL_POSITION: f64 = 0.5;
/// The engine's acceleration.
const FORCE: f64 = 0.001;
/// Gravity along the track.
const CAR_GRAVITY: f64 = 0.0025;
/// MountainCar-v0's time limit.
const MOUNTAIN_CAR_LIMIT: u32 = 200;
/// Lower end of the reset range of the position.
const CAR_RESET_LOW: f64 = -0.6;
/// Upper end of the reset range of the position.
const CAR_RESET_HIGH: f64 = -0.4;

/// Acrobot-v1's mass of the first link (`LINK_MASS_1`).
const LINK_MASS_1: f64 = 1.0;
/// The mass of the second link (`LINK_MASS_2`).
const LINK_MASS_2: f64 = 1.0;
/// The length of the first link (`LINK_LENGTH_1`).
const LINK_LENGTH_1: f64 = 1.0;
/// The position of the first link's centre of mass (`LINK_COM_POS_1`).
const LINK_COM_POS_1: f64 = 0.5;
/// The position of the second link's centre of mass (`LINK_COM_POS_2`).
const LINK_COM_POS_2: f64 = 0.5;
/// The moment of inertia of both links (`LINK_MOI`).
const LINK_MOI: f64 = 1.0;
/// The gravity of `_dsdt`.
const ACROBOT_GRAVITY: f64 = 9.8;
/// Acrobot-v1's time step (`dt`).
const ACROBOT_TIME_STEP: f64 = 0.2;
/// The bound of the first joint's angular velocity (`4 pi`).
const MAX_VEL_1: f64 = 4.0 * PI;
/// The bound of the second joint's angular velocity (`9 pi`).
const MAX_VEL_2: f64 = 9.0 * PI;
/// Acrobot-v1's time limit.
const ACROBOT_LIMIT: u32 = 500;
/// The half-width of Acrobot-v1's reset range (`uniform(-0.1, 0.1, size=4)`).
const ACROBOT_RESET_HIGH: f64 = 0.1;

/// Pendulum-v1's gravity (`g`, a `make` argument whose default is 10).
const PENDULUM_GRAVITY: f64 = 10.0;
/// The pendulum's mass (`m`).
const PENDULUM_MASS: f64 = 1.0;
/// The pendulum's length (`l`).
const PENDULUM_LENGTH: f64 = 1.0;
/// Pendulum-v1's time step (`dt`).
const PENDULUM_TIME_STEP: f64 = 0.05;
/// The bound of the angular velocity (`max_speed`).
const PENDULUM_MAX_SPEED: f64 = 8.0;
/// The bound of the torque (`max_torque`), a float32 as the action is.
const MAX_TORQUE: f32 = 2.0;
/// Pendulum-v1's time limit.
const PENDULUM_LIMIT: u32 = 200;

/// The result of one step of a raw loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawStep<const N: usize> {
    /// The observation of the state reached, in float32.
    pub observation: [f32; N],
    /// The reward.
    pub reward: f64,
    /// Whether the state reached is terminal.
    pub terminated: bool,
    /// Whether the time limit was reached.
    pub truncated: bool,
}

/// A hand-written environment: one episode at a time, discrete actions, float32
/// observations of `N` entries.
pub trait RawEnvironment<const N: usize> {
    /// Starts an episode and returns its first observation.
    fn reset(&mut self) -> [f32; N];

    /// Steps with `action`.
    fn step(&mut self, action: i64) -> RawStep<N>;
}

/// A CartPole-v1 initial state drawn as `CartPole::initial_state` draws it.
#[inline]
fn cartpole_initial(rng: &mut NumpyGenerator) -> Pole {
    let (low, high) = (-0.05, 0.05);
    let mut draw = || low + (high - low) * rng.random::<f64>();
    let x = draw();
    let x_dot = draw();
    let theta = draw();
    let theta_dot = draw();
    Pole::from_array([x, x_dot, theta, theta_dot])
}

/// A CartPole-v1 state. The positions are stored next to each other, and so are the
/// velocities: the compiler then pairs the two position updates (which do not wait for the
/// accelerations) in one vector instruction, rather than a position with a velocity, which
/// would make the next step's sine and cosine wait for this step's divisions.
#[derive(Debug, Clone, Copy, Default)]
struct Pole {
    x: f64,
    theta: f64,
    x_dot: f64,
    theta_dot: f64,
}

impl Pole {
    /// The state of `[x, x_dot, theta, theta_dot]`.
    #[inline(always)]
    fn from_array([x, x_dot, theta, theta_dot]: [f64; 4]) -> Self {
        Pole {
            x,
            x_dot,
            theta,
            theta_dot,
        }
    }

    /// The float32 observation.
    #[inline(always)]
    fn observation(&self) -> [f32; 4] {
        [
            self.x as f32,
            self.x_dot as f32,
            self.theta as f32,
            self.theta_dot as f32,
        ]
    }
}

/// One exact CartPole-v1 step (explicit Euler), in Gymnasium's operation order.
#[inline(always)]
fn cartpole_dynamics(state: Pole, push_right: bool) -> (Pole, bool) {
    let Pole {
        x,
        x_dot,
        theta,
        theta_dot,
    } = state;
    let force = if push_right { FORCE_MAG } else { -FORCE_MAG };
    let (sintheta, costheta) = theta.sin_cos();
    let temp = (force + POLEMASS_LENGTH * (theta_dot * theta_dot) * sintheta) / TOTAL_MASS;
    let thetaacc = (GRAVITY * sintheta - costheta * temp)
        / (LENGTH * (4.0 / 3.0 - MASSPOLE * (costheta * costheta) / TOTAL_MASS));
    let xacc = temp - POLEMASS_LENGTH * thetaacc * costheta / TOTAL_MASS;
    let next = Pole {
        x: x + TAU * x_dot,
        x_dot: x_dot + TAU * xacc,
        theta: theta + TAU * theta_dot,
        theta_dot: theta_dot + TAU * thetaacc,
    };
    let terminated = next.x < -X_THRESHOLD
        || next.x > X_THRESHOLD
        || next.theta < -THETA_THRESHOLD
        || next.theta > THETA_THRESHOLD;
    (next, terminated)
}

/// A MountainCar-v0 initial position drawn as `MountainCar::initial_state` draws it.
#[inline]
fn mountain_car_initial(rng: &mut NumpyGenerator) -> f64 {
    CAR_RESET_LOW + (CAR_RESET_HIGH - CAR_RESET_LOW) * rng.random::<f64>()
}

/// Clips like NumPy's scalar `clip` (float64 or float32).
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

/// One exact MountainCar-v0 step, in Gymnasium's operation order.
#[inline(always)]
fn mountain_car_dynamics(position: f64, velocity: f64, action: i64) -> (f64, f64, bool) {
    let mut velocity =
        velocity + (action as f64 - 1.0) * FORCE + (3.0 * position).cos() * (-CAR_GRAVITY);
    velocity = clip(velocity, -MAX_SPEED, MAX_SPEED);
    let position = clip(position + velocity, MIN_POSITION, MAX_POSITION);
    if position == MIN_POSITION && velocity < 0.0 {
        velocity = 0.0;
    }
    let terminated = position >= GOAL_POSITION && velocity >= 0.0;
    (position, velocity, terminated)
}

/// numpy's `uniform(low, high)`: `low + (high - low) * random()`, with `random()` the 53 high
/// bits of one draw (which is what `rand` makes of a `u64` too).
#[inline]
fn numpy_uniform(rng: &mut NumpyGenerator, low: f64, high: f64) -> f64 {
    low + (high - low) * rng.random::<f64>()
}

/// An Acrobot-v1 initial state `[theta1, theta2, dtheta1, dtheta2]`: Gymnasium's
/// `uniform(-0.1, 0.1, size=4)`, each value rounded to float32 as `reset` leaves them.
#[inline]
fn acrobot_initial(rng: &mut NumpyGenerator) -> [f64; 4] {
    std::array::from_fn(|_| {
        f64::from(numpy_uniform(rng, -ACROBOT_RESET_HIGH, ACROBOT_RESET_HIGH) as f32)
    })
}

/// The time derivative of `[theta1, theta2, dtheta1, dtheta2]` under `torque`: Gymnasium's
/// `_dsdt` with the book's equations, products and sums left to right as Python evaluates
/// them. `two` is 2.0 hidden from the optimiser, so that `x**2` stays C `pow(x, 2.0)` (LLVM
/// would make it `x * x`, which is not always the same float).
#[inline(always)]
fn acrobot_derivatives(state: [f64; 4], torque: f64, two: f64) -> [f64; 4] {
    let (m1, m2, l1, lc1, lc2) = (
        LINK_MASS_1,
        LINK_MASS_2,
        LINK_LENGTH_1,
        LINK_COM_POS_1,
        LINK_COM_POS_2,
    );
    let (i1, i2, g) = (LINK_MOI, LINK_MOI, ACROBOT_GRAVITY);
    let [theta1, theta2, dtheta1, dtheta2] = state;
    let (sin_theta2, cos_theta2) = (theta2.sin(), theta2.cos());
    // `lc1**2` and friends are Python floats squared: exact for these constants.
    let d1 = m1 * (lc1 * lc1) + m2 * (l1 * l1 + lc2 * lc2 + 2.0 * l1 * lc2 * cos_theta2) + i1 + i2;
    let d2 = m2 * (lc2 * lc2 + l1 * lc2 * cos_theta2) + i2;
    let phi2 = m2 * lc2 * g * (theta1 + theta2 - PI / 2.0).cos();
    let phi1 = -m2 * l1 * lc2 * dtheta2.powf(two) * sin_theta2
        - 2.0 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin_theta2
        + (m1 * lc1 + m2 * l1) * g * (theta1 - PI / 2.0).cos()
        + phi2;
    let ddtheta2 =
        (torque + d2 / d1 * phi1 - m2 * l1 * lc2 * dtheta1.powf(two) * sin_theta2 - phi2)
            / (m2 * (lc2 * lc2) + i2 - d2.powf(two) / d1);
    let ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
    [dtheta1, dtheta2, ddtheta1, ddtheta2]
}

/// Gymnasium's `wrap(x, -pi, pi)`: `2 pi` subtracted or added until `x` lies in `[-pi, pi]`
/// (the loops end for any finite `x`, and at once for NaN; the states of a batch are finite).
#[inline(always)]
fn wrap_angle(mut x: f64) -> f64 {
    let turn = PI - -PI;
    while x > PI {
        x -= turn;
    }
    while x < -PI {
        x += turn;
    }
    x
}

/// Gymnasium's `bound(x, low, high)`: `min(max(x, low), high)` with Python's `min` and `max`.
#[inline(always)]
fn python_bound(x: f64, low: f64, high: f64) -> f64 {
    let at_least_low = if low > x { low } else { x };
    if high < at_least_low {
        high
    } else {
        at_least_low
    }
}

/// One exact Acrobot-v1 step under `torque` (Gymnasium's `rk4` over `[0, dt]`, then the wrap
/// and the bounds), and whether the state reached is terminal.
#[inline(always)]
fn acrobot_dynamics(start: [f64; 4], torque: f64, two: f64) -> ([f64; 4], bool) {
    let dt = ACROBOT_TIME_STEP - 0.0;
    let half = dt / 2.0;
    let advance = |scale: f64, slope: [f64; 4]| -> [f64; 4] {
        std::array::from_fn(|index| start[index] + scale * slope[index])
    };
    let k1 = acrobot_derivatives(start, torque, two);
    let k2 = acrobot_derivatives(advance(half, k1), torque, two);
    let k3 = acrobot_derivatives(advance(half, k2), torque, two);
    let k4 = acrobot_derivatives(advance(dt, k3), torque, two);
    let sixth = dt / 6.0;
    let next: [f64; 4] = std::array::from_fn(|index| {
        start[index] + sixth * (k1[index] + 2.0 * k2[index] + 2.0 * k3[index] + k4[index])
    });
    let theta1 = wrap_angle(next[0]);
    let theta2 = wrap_angle(next[1]);
    let dtheta1 = python_bound(next[2], -MAX_VEL_1, MAX_VEL_1);
    let dtheta2 = python_bound(next[3], -MAX_VEL_2, MAX_VEL_2);
    let terminated = -theta1.cos() - (theta2 + theta1).cos() > 1.0;
    ([theta1, theta2, dtheta1, dtheta2], terminated)
}

/// Acrobot's observation of a state as a reset leaves it (float32 values), whose sines and
/// cosines Gymnasium takes with NumPy's float32 functions: the library's own
/// (`AcrobotState::to_observation` of a float32 state), resets being rare.
fn acrobot_reset_observation(state: [f64; 4]) -> [f32; 6] {
    rl_domains::acrobot::AcrobotState::from_float32(state.map(|value| value as f32))
        .to_observation()
}

/// Acrobot's float32 observation `[cos theta1, sin theta1, cos theta2, sin theta2, dtheta1,
/// dtheta2]` after a step, computed in float64 and rounded.
#[inline(always)]
fn acrobot_observation([theta1, theta2, dtheta1, dtheta2]: [f64; 4]) -> [f32; 6] {
    [
        theta1.cos() as f32,
        theta1.sin() as f32,
        theta2.cos() as f32,
        theta2.sin() as f32,
        dtheta1 as f32,
        dtheta2 as f32,
    ]
}

/// A Pendulum-v1 initial state `(theta, theta_dot)`: Gymnasium's
/// `uniform(low=[-pi, -1], high=[pi, 1])`, element by element.
#[inline]
fn pendulum_initial(rng: &mut NumpyGenerator) -> (f64, f64) {
    let theta = numpy_uniform(rng, -PI, PI);
    let theta_dot = numpy_uniform(rng, -1.0, 1.0);
    (theta, theta_dot)
}

/// One exact Pendulum-v1 step under the float32 torque `action`: the next `(theta,
/// theta_dot)` and the reward. The torque terms stay float32 as NumPy 2 computes them;
/// `two` and `two_f32` are 2.0 hidden from the optimiser, so that `x**2` stays C `pow` and
/// `powf`.
#[inline(always)]
fn pendulum_dynamics(
    theta: f64,
    theta_dot: f64,
    action: f32,
    two: f64,
    two_f32: f32,
) -> (f64, f64, f64) {
    let u = clip(action, -MAX_TORQUE, MAX_TORQUE);
    // The sine first (the order changes no bits): the costs' `pow` calls, which do not need
    // it, then run between it and the sine and cosine of the next observation, which wait for
    // it (measured: about 7% more steps per second than in Gymnasium's order).
    let sin_theta = theta.sin();
    // `angle_normalize(theta)`: `((theta + pi) % (2 pi)) - pi` with NumPy's remainder, which
    // takes the divisor's sign (a zero remainder is +0).
    let turn = 2.0 * PI;
    let remainder = (theta + PI) % turn;
    let remainder = if remainder < 0.0 {
        remainder + turn
    } else if remainder == 0.0 {
        0.0
    } else {
        remainder
    };
    let normalized = remainder - PI;
    let costs =
        normalized.powf(two) + 0.1 * theta_dot.powf(two) + f64::from(u.powf(two_f32) * 0.001f32);
    let torque = (3.0 / (PENDULUM_MASS * (PENDULUM_LENGTH * PENDULUM_LENGTH))) as f32 * u;
    let gravity = 3.0 * PENDULUM_GRAVITY / (2.0 * PENDULUM_LENGTH);
    let new_theta_dot = theta_dot + (gravity * sin_theta + f64::from(torque)) * PENDULUM_TIME_STEP;
    let new_theta_dot = clip(new_theta_dot, -PENDULUM_MAX_SPEED, PENDULUM_MAX_SPEED);
    let new_theta = theta + new_theta_dot * PENDULUM_TIME_STEP;
    (new_theta, new_theta_dot, -costs)
}

/// Pendulum's float32 observation `[cos theta, sin theta, theta_dot]`, computed in float64
/// and rounded.
#[inline(always)]
fn pendulum_observation(theta: f64, theta_dot: f64) -> [f32; 3] {
    [theta.cos() as f32, theta.sin() as f32, theta_dot as f32]
}

/// One CartPole-v1 environment stepped by hand: the state, the step count and a `NumpyGenerator`
/// seeded like `Simulator::new(domain, seed)`.
#[derive(Debug, Clone)]
pub struct RawCartPole {
    state: Pole,
    steps: u32,
    rng: NumpyGenerator,
}

impl RawCartPole {
    /// An environment whose generator is `NumpyGenerator::seed_from_u64(seed)`; reset it before
    /// stepping.
    pub fn new(seed: u64) -> Self {
        RawCartPole {
            state: Pole::default(),
            steps: 0,
            rng: NumpyGenerator::seed_from_u64(seed),
        }
    }
}

impl RawEnvironment<4> for RawCartPole {
    #[inline]
    fn reset(&mut self) -> [f32; 4] {
        self.state = cartpole_initial(&mut self.rng);
        self.steps = 0;
        self.state.observation()
    }

    /// Steps with `action` (1 pushes right, anything else left).
    #[inline]
    fn step(&mut self, action: i64) -> RawStep<4> {
        let (state, terminated) = cartpole_dynamics(self.state, action == 1);
        self.state = state;
        self.steps += 1;
        RawStep {
            observation: state.observation(),
            reward: 1.0,
            terminated,
            truncated: self.steps >= CARTPOLE_LIMIT,
        }
    }
}

/// One MountainCar-v0 environment stepped by hand, seeded like `Simulator::new(domain, seed)`.
#[derive(Debug, Clone)]
pub struct RawMountainCar {
    position: f64,
    velocity: f64,
    steps: u32,
    rng: NumpyGenerator,
}

impl RawMountainCar {
    /// An environment whose generator is `NumpyGenerator::seed_from_u64(seed)`; reset it before
    /// stepping.
    pub fn new(seed: u64) -> Self {
        RawMountainCar {
            position: 0.0,
            velocity: 0.0,
            steps: 0,
            rng: NumpyGenerator::seed_from_u64(seed),
        }
    }
}

impl RawEnvironment<2> for RawMountainCar {
    #[inline]
    fn reset(&mut self) -> [f32; 2] {
        self.position = mountain_car_initial(&mut self.rng);
        self.velocity = 0.0;
        self.steps = 0;
        [self.position as f32, 0.0]
    }

    /// Steps with `action` (0 left, 2 right, anything else no acceleration).
    #[inline]
    fn step(&mut self, action: i64) -> RawStep<2> {
        let action = if action == 0 || action == 2 {
            action
        } else {
            1
        };
        let (position, velocity, terminated) =
            mountain_car_dynamics(self.position, self.velocity, action);
        self.position = position;
        self.velocity = velocity;
        self.steps += 1;
        RawStep {
            observation: [position as f32, velocity as f32],
            reward: -1.0,
            terminated,
            truncated: self.steps >= MOUNTAIN_CAR_LIMIT,
        }
    }
}

/// The result buffers of a raw batch, laid out as a vector environment's.
#[derive(Debug, Clone)]
pub struct RawOutputs<const N: usize> {
    /// One float32 observation row of `N` entries per environment.
    pub observations: Vec<f32>,
    /// The rewards of the last step.
    pub rewards: Vec<f64>,
    /// The termination flags of the last step.
    pub terminated: Vec<bool>,
    /// The truncation flags of the last step.
    pub truncated: Vec<bool>,
}

impl<const N: usize> RawOutputs<N> {
    fn new(len: usize) -> Self {
        RawOutputs {
            observations: vec![0.0; len * N],
            rewards: vec![0.0; len],
            terminated: vec![false; len],
            truncated: vec![false; len],
        }
    }
}

/// The per-episode bookkeeping of a raw batch: step counts, whether each episode ended on the
/// last step (next-step autoreset), and one generator per environment.
#[derive(Debug, Clone)]
struct Episodes {
    steps: Vec<u32>,
    ended: Vec<bool>,
    rngs: Vec<NumpyGenerator>,
}

impl Episodes {
    /// Environment `i`'s generator is `NumpyGenerator::seed_from_u64(seed + i)`, as in a
    /// vector environment.
    fn new(len: usize, seed: u64) -> Self {
        Episodes {
            steps: vec![0; len],
            ended: vec![false; len],
            rngs: (0..len as u64)
                .map(|i| NumpyGenerator::seed_from_u64(seed + i))
                .collect(),
        }
    }
}

/// A hand-written batch of environments with next-step autoreset and float32 observations
/// of `N` entries per environment, laid out as a vector environment's.
pub trait RawBatch<const N: usize> {
    /// The action of one environment.
    type Action;

    /// Steps every environment with the action of the same index (one per environment),
    /// resetting those whose episode ended on the last call instead.
    fn step(&mut self, actions: &[Self::Action]);

    /// The results of the last call (after construction: the first observations).
    fn outputs(&self) -> &RawOutputs<N>;
}

/// A batch of CartPole-v1 environments stepped by hand in structure-of-arrays columns, with
/// next-step autoreset: what `VectorEnvironment::from_kernel` of CartPole computes, bit for
/// bit.
#[derive(Debug, Clone)]
pub struct RawCartPoleBatch {
    columns: [Vec<f64>; 4],
    episodes: Episodes,
    /// The results of the last call.
    outputs: RawOutputs<4>,
}

impl RawCartPoleBatch {
    /// `len` environments seeded from `seed`, all reset.
    pub fn new(len: usize, seed: u64) -> Self {
        let mut batch = RawCartPoleBatch {
            columns: std::array::from_fn(|_| vec![0.0; len]),
            episodes: Episodes::new(len, seed),
            outputs: RawOutputs::new(len),
        };
        for i in 0..len {
            batch.reset_one(i);
        }
        batch
    }

    /// Resets environment `i` (used once, at construction).
    fn reset_one(&mut self, i: usize) {
        let state = cartpole_initial(&mut self.episodes.rngs[i]);
        let values = [state.x, state.x_dot, state.theta, state.theta_dot];
        for (column, value) in self.columns.iter_mut().zip(values) {
            column[i] = value;
        }
        self.outputs.observations[i * 4..i * 4 + 4].copy_from_slice(&state.observation());
        self.episodes.steps[i] = 0;
        self.episodes.ended[i] = false;
    }
}

impl RawBatch<4> for RawCartPoleBatch {
    /// 1 pushes right, anything else left.
    type Action = i64;

    fn outputs(&self) -> &RawOutputs<4> {
        &self.outputs
    }

    fn step(&mut self, actions: &[i64]) {
        let [xs, x_dots, thetas, theta_dots] = &mut self.columns;
        let state = xs
            .iter_mut()
            .zip(x_dots.iter_mut())
            .zip(thetas.iter_mut())
            .zip(theta_dots.iter_mut());
        let episode = self
            .episodes
            .steps
            .iter_mut()
            .zip(self.episodes.ended.iter_mut())
            .zip(self.episodes.rngs.iter_mut());
        let outputs = self
            .outputs
            .observations
            .chunks_exact_mut(4)
            .zip(self.outputs.rewards.iter_mut())
            .zip(self.outputs.terminated.iter_mut())
            .zip(self.outputs.truncated.iter_mut());
        let all = state.zip(episode).zip(outputs).zip(actions);
        for (
            (
                ((((x, x_dot), theta), theta_dot), ((steps, ended), rng)),
                (((row, reward), done), cut),
            ),
            action,
        ) in all
        {
            let (next, terminated, truncated, step_reward) = if *ended {
                *steps = 0;
                (cartpole_initial(rng), false, false, 0.0)
            } else {
                let state = Pole::from_array([*x, *x_dot, *theta, *theta_dot]);
                let (next, terminated) = cartpole_dynamics(state, *action == 1);
                *steps += 1;
                (next, terminated, *steps >= CARTPOLE_LIMIT, 1.0)
            };
            (*x, *x_dot, *theta, *theta_dot) = (next.x, next.x_dot, next.theta, next.theta_dot);
            row.copy_from_slice(&next.observation());
            *reward = step_reward;
            *done = terminated;
            *cut = truncated;
            *ended = terminated || truncated;
        }
    }
}

/// A batch of MountainCar-v0 environments stepped by hand in structure-of-arrays columns, with
/// next-step autoreset: what `VectorEnvironment::from_kernel` of MountainCar computes, bit
/// for bit.
#[derive(Debug, Clone)]
pub struct RawMountainCarBatch {
    position: Vec<f64>,
    velocity: Vec<f64>,
    episodes: Episodes,
    /// The results of the last call.
    outputs: RawOutputs<2>,
}

impl RawMountainCarBatch {
    /// `len` environments seeded from `seed`, all reset.
    pub fn new(len: usize, seed: u64) -> Self {
        let mut batch = RawMountainCarBatch {
            position: vec![0.0; len],
            velocity: vec![0.0; len],
            episodes: Episodes::new(len, seed),
            outputs: RawOutputs::new(len),
        };
        for i in 0..len {
            batch.reset_one(i);
        }
        batch
    }

    /// Resets environment `i` (used once, at construction).
    fn reset_one(&mut self, i: usize) {
        let position = mountain_car_initial(&mut self.episodes.rngs[i]);
        self.position[i] = position;
        self.velocity[i] = 0.0;
        self.outputs.observations[i * 2] = position as f32;
        self.outputs.observations[i * 2 + 1] = 0.0;
        self.episodes.steps[i] = 0;
        self.episodes.ended[i] = false;
    }
}

impl RawBatch<2> for RawMountainCarBatch {
    /// 0 accelerates left, 2 right, anything else not at all.
    type Action = i64;

    fn outputs(&self) -> &RawOutputs<2> {
        &self.outputs
    }

    fn step(&mut self, actions: &[i64]) {
        let state = self.position.iter_mut().zip(self.velocity.iter_mut());
        let episode = self
            .episodes
            .steps
            .iter_mut()
            .zip(self.episodes.ended.iter_mut())
            .zip(self.episodes.rngs.iter_mut());
        let outputs = self
            .outputs
            .observations
            .chunks_exact_mut(2)
            .zip(self.outputs.rewards.iter_mut())
            .zip(self.outputs.terminated.iter_mut())
            .zip(self.outputs.truncated.iter_mut());
        let all = state.zip(episode).zip(outputs).zip(actions);
        for (
            (((position, velocity), ((steps, ended), rng)), (((row, reward), done), cut)),
            action,
        ) in all
        {
            let (terminated, truncated, step_reward) = if *ended {
                *position = mountain_car_initial(rng);
                *velocity = 0.0;
                *steps = 0;
                (false, false, 0.0)
            } else {
                let action = if *action == 0 || *action == 2 {
                    *action
                } else {
                    1
                };
                let terminated;
                (*position, *velocity, terminated) =
                    mountain_car_dynamics(*position, *velocity, action);
                *steps += 1;
                (terminated, *steps >= MOUNTAIN_CAR_LIMIT, -1.0)
            };
            if let [first, second] = row {
                *first = *position as f32;
                *second = *velocity as f32;
            }
            *reward = step_reward;
            *done = terminated;
            *cut = truncated;
            *ended = terminated || truncated;
        }
    }
}

/// A batch of Acrobot-v1 environments (the book dynamics, no torque noise) stepped by hand in
/// structure-of-arrays columns, with next-step autoreset: what the vector of `Acrobot-v1` by id
/// (`make_vector::<i64, f32>`) computes, bit for bit.
#[derive(Debug, Clone)]
pub struct RawAcrobotBatch {
    theta1: Vec<f64>,
    theta2: Vec<f64>,
    dtheta1: Vec<f64>,
    dtheta2: Vec<f64>,
    episodes: Episodes,
    /// The results of the last call.
    outputs: RawOutputs<6>,
}

impl RawAcrobotBatch {
    /// `len` environments seeded from `seed`, all reset.
    pub fn new(len: usize, seed: u64) -> Self {
        let mut batch = RawAcrobotBatch {
            theta1: vec![0.0; len],
            theta2: vec![0.0; len],
            dtheta1: vec![0.0; len],
            dtheta2: vec![0.0; len],
            episodes: Episodes::new(len, seed),
            outputs: RawOutputs::new(len),
        };
        for i in 0..len {
            let state = acrobot_initial(&mut batch.episodes.rngs[i]);
            [
                batch.theta1[i],
                batch.theta2[i],
                batch.dtheta1[i],
                batch.dtheta2[i],
            ] = state;
            batch.outputs.observations[i * 6..i * 6 + 6]
                .copy_from_slice(&acrobot_reset_observation(state));
        }
        batch
    }
}

impl RawBatch<6> for RawAcrobotBatch {
    /// 0 applies torque -1, 2 torque +1, anything else none.
    type Action = i64;

    fn outputs(&self) -> &RawOutputs<6> {
        &self.outputs
    }

    fn step(&mut self, actions: &[i64]) {
        let two = black_box(2.0);
        let state = self
            .theta1
            .iter_mut()
            .zip(self.theta2.iter_mut())
            .zip(self.dtheta1.iter_mut())
            .zip(self.dtheta2.iter_mut());
        let episode = self
            .episodes
            .steps
            .iter_mut()
            .zip(self.episodes.ended.iter_mut())
            .zip(self.episodes.rngs.iter_mut());
        let outputs = self
            .outputs
            .observations
            .chunks_exact_mut(6)
            .zip(self.outputs.rewards.iter_mut())
            .zip(self.outputs.terminated.iter_mut())
            .zip(self.outputs.truncated.iter_mut());
        let all = state.zip(episode).zip(outputs).zip(actions);
        for (
            (
                ((((theta1, theta2), dtheta1), dtheta2), ((steps, ended), rng)),
                (((row, reward), done), cut),
            ),
            action,
        ) in all
        {
            let reset = *ended;
            let (next, terminated, truncated, step_reward) = if reset {
                *steps = 0;
                (acrobot_initial(rng), false, false, 0.0)
            } else {
                let torque = match *action {
                    0 => -1.0,
                    2 => 1.0,
                    _ => 0.0,
                };
                let start = [*theta1, *theta2, *dtheta1, *dtheta2];
                let (next, terminated) = acrobot_dynamics(start, torque, two);
                *steps += 1;
                let reward = if terminated { 0.0 } else { -1.0 };
                (next, terminated, *steps >= ACROBOT_LIMIT, reward)
            };
            [*theta1, *theta2, *dtheta1, *dtheta2] = next;
            row.copy_from_slice(&if reset {
                acrobot_reset_observation(next)
            } else {
                acrobot_observation(next)
            });
            *reward = step_reward;
            *done = terminated;
            *cut = truncated;
            *ended = terminated || truncated;
        }
    }
}

/// A batch of Pendulum-v1 environments (`g` = 10) stepped by hand in structure-of-arrays
/// columns, with next-step autoreset: what the vector of `Pendulum-v1` by id (`make_vector`)
/// computes, bit for bit.
#[derive(Debug, Clone)]
pub struct RawPendulumBatch {
    theta: Vec<f64>,
    theta_dot: Vec<f64>,
    episodes: Episodes,
    /// The results of the last call.
    outputs: RawOutputs<3>,
}

impl RawPendulumBatch {
    /// `len` environments seeded from `seed`, all reset.
    pub fn new(len: usize, seed: u64) -> Self {
        let mut batch = RawPendulumBatch {
            theta: vec![0.0; len],
            theta_dot: vec![0.0; len],
            episodes: Episodes::new(len, seed),
            outputs: RawOutputs::new(len),
        };
        for i in 0..len {
            let (theta, theta_dot) = pendulum_initial(&mut batch.episodes.rngs[i]);
            (batch.theta[i], batch.theta_dot[i]) = (theta, theta_dot);
            batch.outputs.observations[i * 3..i * 3 + 3]
                .copy_from_slice(&pendulum_observation(theta, theta_dot));
        }
        batch
    }
}

impl RawBatch<3> for RawPendulumBatch {
    /// The torque, clipped to `[-2, 2]`.
    type Action = [f32; 1];

    fn outputs(&self) -> &RawOutputs<3> {
        &self.outputs
    }

    fn step(&mut self, actions: &[[f32; 1]]) {
        let (two, two_f32) = (black_box(2.0), black_box(2.0f32));
        let state = self.theta.iter_mut().zip(self.theta_dot.iter_mut());
        let episode = self
            .episodes
            .steps
            .iter_mut()
            .zip(self.episodes.ended.iter_mut())
            .zip(self.episodes.rngs.iter_mut());
        let outputs = self
            .outputs
            .observations
            .chunks_exact_mut(3)
            .zip(self.outputs.rewards.iter_mut())
            .zip(self.outputs.terminated.iter_mut())
            .zip(self.outputs.truncated.iter_mut());
        let all = state.zip(episode).zip(outputs).zip(actions);
        for (
            (((theta, theta_dot), ((steps, ended), rng)), (((row, reward), done), cut)),
            [action],
        ) in all
        {
            let (truncated, step_reward);
            if *ended {
                (*theta, *theta_dot) = pendulum_initial(rng);
                *steps = 0;
                (truncated, step_reward) = (false, 0.0);
            } else {
                let reward_of_step;
                (*theta, *theta_dot, reward_of_step) =
                    pendulum_dynamics(*theta, *theta_dot, *action, two, two_f32);
                *steps += 1;
                (truncated, step_reward) = (*steps >= PENDULUM_LIMIT, reward_of_step);
            }
            row.copy_from_slice(&pendulum_observation(*theta, *theta_dot));
            *reward = step_reward;
            *done = false;
            *cut = truncated;
            *ended = truncated;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workloads::{
        ActionRows, ENVIRONMENT_SEED, cartpole, discrete_actions, discrete_id_vector,
        discrete_rows, id_vector, kernel_vector, mountain_car, pendulum, torque_actions,
    };
    use rl_core::{Domain, Environment, Mode, Simulator};
    use rl_spaces::DynamicSpace;
    use rl_wrappers::vector::VectorEnvironment;

    /// Steps a simulator and a raw loop side by side and checks every result bit for bit.
    fn check_single<D, const N: usize>(
        mut simulator: Simulator<D>,
        raw: &mut impl RawEnvironment<N>,
        actions: &[i64],
    ) where
        D: Domain<Action = i64, Observation = [f32; N]>,
    {
        let first = simulator.reset(Mode::Training).expect("reset");
        assert_eq!(first.map(f32::to_bits), raw.reset().map(f32::to_bits));
        let mut episodes = 0;
        for (index, action) in actions.iter().enumerate() {
            let outcome = simulator.step(action).expect("step");
            let step = raw.step(*action);
            assert_eq!(
                outcome.observation.map(f32::to_bits),
                step.observation.map(f32::to_bits),
                "step {index}"
            );
            assert_eq!(outcome.reward().to_bits(), step.reward.to_bits());
            assert_eq!(
                (outcome.terminated, outcome.truncated),
                (step.terminated, step.truncated)
            );
            if outcome.is_done() {
                episodes += 1;
                let first = simulator.reset(Mode::Training).expect("reset");
                assert_eq!(first.map(f32::to_bits), raw.reset().map(f32::to_bits));
            }
        }
        assert!(episodes > 10, "the comparison crossed many episodes");
    }

    #[test]
    fn raw_cartpole_equals_the_simulator_bit_for_bit() {
        // Random actions end episodes fast; alternating ones reach the time limit.
        let mut actions = discrete_actions(2, 20_000);
        actions.extend((0..2_000).map(|i| i % 2));
        check_single(
            Simulator::new(cartpole().expect("valid"), ENVIRONMENT_SEED),
            &mut RawCartPole::new(ENVIRONMENT_SEED),
            &actions,
        );
    }

    #[test]
    fn raw_mountain_car_equals_the_simulator_bit_for_bit() {
        let actions = discrete_actions(3, 20_000);
        check_single(
            Simulator::new(mountain_car().expect("valid"), ENVIRONMENT_SEED),
            &mut RawMountainCar::new(ENVIRONMENT_SEED),
            &actions,
        );
    }

    /// The policy of pre-drawn `rows`, which ignores the observations.
    fn from_rows<A: Clone>(mut rows: ActionRows<A>) -> impl FnMut(&[f32]) -> Vec<A> {
        move |_| rows.next_row().to_vec()
    }

    /// Steps the vector environment `vector(envs, threads)` builds (on 1 and 2 threads) and
    /// the raw batch `raw` makes side by side for 1,500 rounds, with the actions that the
    /// policy made by `policy` picks from the current observations (each converted for the
    /// vector by `action_of`); checks every result bit for bit and returns the numbers of
    /// terminations and truncations (on one thread), so that a test can check that it crossed
    /// episodes.
    fn check_batch<V, B, P, const N: usize>(
        vector: impl Fn(usize, usize) -> VectorEnvironment<V, f32>,
        action_of: impl Fn(&B::Action) -> V::Action,
        policy: impl Fn(usize) -> P,
        raw: impl Fn(usize) -> B,
    ) -> (usize, usize)
    where
        V: rl_core::SplitStates<f32>,
        P: FnMut(&[f32]) -> Vec<B::Action>,
        B: RawBatch<N>,
    {
        /// The bits of float32 values, in order.
        fn bits<'a>(values: impl IntoIterator<Item = &'a f32>) -> Vec<u32> {
            values.into_iter().map(|value| value.to_bits()).collect()
        }
        let envs = 64;
        let mut ends = (0, 0);
        for threads in [1, 2] {
            let mut vector = vector(envs, threads);
            let mut batch = raw(envs);
            assert_eq!(
                bits(vector.observations()),
                bits(&batch.outputs().observations),
                "first observations, {threads} threads"
            );
            let mut policy = policy(envs);
            for round in 0..1_500 {
                let actions = policy(&batch.outputs().observations);
                let converted: Vec<V::Action> = actions.iter().map(&action_of).collect();
                vector.step(&converted).expect("step");
                batch.step(&actions);
                let raw = batch.outputs();
                assert_eq!(
                    bits(vector.observations()),
                    bits(&raw.observations),
                    "round {round}, {threads} threads"
                );
                let rewards: Vec<u64> = vector.rewards().iter().map(|v| v.to_bits()).collect();
                let expected: Vec<u64> = raw.rewards.iter().map(|v| v.to_bits()).collect();
                assert_eq!(rewards, expected, "round {round}, {threads} threads");
                assert_eq!(vector.terminated(), raw.terminated.as_slice());
                assert_eq!(vector.truncated(), raw.truncated.as_slice());
                if threads == 1 {
                    ends.0 += raw.terminated.iter().filter(|flag| **flag).count();
                    ends.1 += raw.truncated.iter().filter(|flag| **flag).count();
                }
            }
        }
        ends
    }

    #[test]
    fn raw_cartpole_batch_equals_the_vector_environment_bit_for_bit() {
        let (terminations, _) = check_batch(
            |envs, threads| {
                kernel_vector(cartpole().expect("valid"), envs, threads).expect("vector")
            },
            |action| *action,
            |envs| from_rows(discrete_rows(2, envs)),
            |envs| RawCartPoleBatch::new(envs, ENVIRONMENT_SEED),
        );
        assert!(terminations > 64, "{terminations} terminations");
    }

    #[test]
    fn raw_mountain_car_batch_equals_the_vector_environment_bit_for_bit() {
        let (_, truncations) = check_batch(
            |envs, threads| {
                kernel_vector(mountain_car().expect("valid"), envs, threads).expect("vector")
            },
            |action| *action,
            |envs| from_rows(discrete_rows(3, envs)),
            |envs| RawMountainCarBatch::new(envs, ENVIRONMENT_SEED),
        );
        assert!(truncations > 64, "{truncations} truncations");
    }

    #[test]
    fn raw_acrobot_batch_equals_the_vector_environment_bit_for_bit() {
        // Random torques rarely reach the goal: the even environments push the second joint
        // the way it swings, which does within about a hundred steps; the odd ones take
        // random torques, and their episodes reach the 500-step limit.
        let policy = |envs| {
            let mut rows = discrete_rows(3, envs);
            move |observations: &[f32]| {
                let random = rows.next_row();
                let rows = observations.chunks_exact(6).zip(random);
                let pick = |(index, (row, random)): (usize, (&[f32], &i64))| match (
                    index % 2,
                    row[5] > 0.0,
                ) {
                    (0, true) => 2,
                    (0, false) => 0,
                    _ => *random,
                };
                rows.enumerate().map(pick).collect()
            }
        };
        let (terminations, truncations) = check_batch(
            |envs, threads| discrete_id_vector("Acrobot-v1", envs, threads).expect("vector"),
            |action| *action,
            policy,
            |envs| RawAcrobotBatch::new(envs, ENVIRONMENT_SEED),
        );
        assert!(terminations > 64 * 4, "{terminations} terminations");
        assert!(truncations > 32, "{truncations} truncations");
    }

    #[test]
    fn raw_pendulum_batch_equals_the_vector_environment_bit_for_bit() {
        // Torques in [-3, 3], so that a third of them are clipped.
        let policy = |envs| {
            let actions = torque_actions(envs * 64);
            let actions = actions.into_iter().map(|[u]| [1.5 * u]).collect();
            from_rows(ActionRows::new(actions, envs))
        };
        let torques = *pendulum().expect("valid").action_space();
        let (terminations, truncations) = check_batch(
            |envs, threads| id_vector("Pendulum-v1", envs, threads).expect("vector"),
            |torque| torques.element_to_any(torque),
            policy,
            |envs| RawPendulumBatch::new(envs, ENVIRONMENT_SEED),
        );
        assert_eq!(terminations, 0, "Pendulum never terminates");
        // 1,500 rounds cross the 200-step limit 7 times in every environment.
        assert_eq!(truncations, 7 * 64);
    }
}
