//! CartPole: Gymnasium 1.4.0's `CartPole-v1`, as the domain [`CartPole`] and its exact,
//! pure step function [`cartpole_step`].
//!
//! [`CartPole`] is documented in the crate's domain template (description, spaces, rewards,
//! starting state, episode end, parameters, reference, differences). This page adds how the
//! step function reproduces Gymnasium bit for bit.
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
//! The batch kernel is a block step ([`BlockStep`] for [`CartPole`]: the sines and cosines of
//! a block of 64 states first, then the rest of the step on local arrays), which rl-core's
//! scaffold compiles for AVX-512, AVX2 and the default target and picks the widest the processor
//! has at run time: vector instructions round each lane as the scalar instructions do, and Rust
//! never fuses a multiplication and an addition, so every version gives the bits of
//! [`cartpole_step`] (a unit test runs each version the processor has against `Domain::step`,
//! [`rl_core::check_block_kernel`]; rl-reference's tests replay every reference step through
//! the dispatched kernel). The AVX-512 version steps a 1024-environment vector about 1.25 times
//! as fast as the default target's (docs/PERFORMANCE.md).
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/classic_control/cartpole.py`; the operation order is
//! written out in `testdata/reference/README.md`.

use rand::Rng;
use rl_core::numpy_random::uniform;
use rl_core::{
    BLOCK, BlockStep, DeterministicTransitions, Domain, LaneResults, Mode, Render,
    TransitionOutcome, Value,
};
use rl_spaces::{ArrayBox, Discrete};
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::parameter_checks;
use crate::svg::{Svg, number};
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
    /// thresholds lie in `[1e-6, 1e6]` and gravity in `[-1e6, 1e6]` (so that the state stays
    /// finite: between two non-terminal states a velocity is at most twice the threshold over
    /// the time step, and every term of the dynamics is then far below `f64::MAX`), the reset
    /// range is ordered and lies inside the observation
    /// bounds of every variable (so that every initial observation lies in the observation
    /// space), and the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        parameter_checks::magnitude("gravity", self.gravity)?;
        let (_, largest) = parameter_checks::PHYSICAL_RANGE;
        parameter_checks::within(
            "gravity",
            self.gravity,
            -largest,
            largest,
            "a physical constant of normal size",
        )?;
        parameter_checks::physical("masscart", self.masscart)?;
        parameter_checks::physical("masspole", self.masspole)?;
        parameter_checks::physical("length", self.length)?;
        parameter_checks::physical("force_mag", self.force_mag)?;
        parameter_checks::physical("tau", self.tau)?;
        parameter_checks::physical("theta_threshold_radians", self.theta_threshold_radians)?;
        parameter_checks::physical("x_threshold", self.x_threshold)?;
        parameter_checks::ordered_range(
            "reset_low",
            self.reset_low,
            "reset_high",
            self.reset_high,
        )?;
        let reach = 2.0 * self.x_threshold.min(self.theta_threshold_radians);
        parameter_checks::within(
            "reset_low",
            self.reset_low,
            -reach,
            reach,
            "twice the smaller of the thresholds `x_threshold` and `theta_threshold_radians`",
        )?;
        parameter_checks::within(
            "reset_high",
            self.reset_high,
            -reach,
            reach,
            "twice the smaller of the thresholds `x_threshold` and `theta_threshold_radians`",
        )?;
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }

    /// Whether these parameters move the cart and pole as Gymnasium's `CartPole-v1` does, so
    /// that its declared observation bounds hold: gravity, masses, length, force, time step
    /// and both thresholds at their defaults, and the reset range inside the default
    /// `[-0.05, 0.05]`. The integrator, the reward and the time limit may differ.
    pub fn has_gymnasium_dynamics(&self) -> bool {
        let gymnasium = CartPoleParams::default();
        self.gravity == gymnasium.gravity
            && self.masscart == gymnasium.masscart
            && self.masspole == gymnasium.masspole
            && self.length == gymnasium.length
            && self.force_mag == gymnasium.force_mag
            && self.tau == gymnasium.tau
            && self.theta_threshold_radians == gymnasium.theta_threshold_radians
            && self.x_threshold == gymnasium.x_threshold
            && gymnasium.reset_low <= self.reset_low
            && self.reset_high <= gymnasium.reset_high
    }

    /// The total mass `masspole + masscart`, summed in Gymnasium's order.
    #[inline]
    pub fn total_mass(&self) -> f64 {
        self.masspole + self.masscart
    }

    /// The product `masspole * length`, as Gymnasium's `polemass_length`.
    #[inline]
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
    #[inline]
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
    #[inline]
    pub fn to_array(&self) -> [f64; 4] {
        [self.x, self.x_dot, self.theta, self.theta_dot]
    }

    /// The observation Gymnasium returns for this state: each variable rounded to float32.
    #[inline]
    pub fn to_observation(&self) -> [f32; 4] {
        [
            self.x as f32,
            self.x_dot as f32,
            self.theta as f32,
            self.theta_dot as f32,
        ]
    }

    /// Whether this state lies outside the termination thresholds of `params`.
    #[inline]
    pub fn is_terminal(&self, params: &CartPoleParams) -> bool {
        self.x < -params.x_threshold
            || self.x > params.x_threshold
            || self.theta < -params.theta_threshold_radians
            || self.theta > params.theta_threshold_radians
    }
}

/// Advances CartPole by one time step, exactly as Gymnasium 1.4.0's `CartPoleEnv.step`: the
/// state reached, the reward and whether the state reached is terminal.
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
/// assert_eq!(step.value.reward(), 1.0);
/// assert!(!step.terminated);
/// ```
#[inline]
pub fn cartpole_step(
    params: &CartPoleParams,
    state: &CartPoleState,
    push_right: bool,
) -> TransitionOutcome<CartPoleState> {
    let costheta = trig::cos(state.theta);
    let sintheta = trig::sin(state.theta);
    let semi_implicit = params.integrator == Integrator::SemiImplicitEuler;
    let next_state = dynamics(params, state, push_right, sintheta, costheta, semi_implicit);
    let terminated = next_state.is_terminal(params);
    TransitionOutcome::new(
        next_state,
        Value::from_reward(reward(params, terminated)),
        terminated,
    )
}

/// The reward of a step that reaches a terminal state or not.
#[inline(always)]
fn reward(params: &CartPoleParams, terminated: bool) -> f64 {
    match (params.sutton_barto_reward, terminated) {
        (false, _) => 1.0,
        (true, false) => 0.0,
        (true, true) => -1.0,
    }
}

/// The state after one step from `state`, given `sin(theta)` and `cos(theta)`: Gymnasium's
/// expressions, evaluated left to right (explicit Euler, or semi-implicit Euler if
/// `semi_implicit`). The one definition of the dynamics, which the batch kernel also uses.
#[inline(always)]
fn dynamics(
    params: &CartPoleParams,
    state: &CartPoleState,
    push_right: bool,
    sintheta: f64,
    costheta: f64,
    semi_implicit: bool,
) -> CartPoleState {
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
    let temp = (force + polemass_length * (theta_dot * theta_dot) * sintheta) / total_mass;
    let thetaacc = (params.gravity * sintheta - costheta * temp)
        / (params.length * (4.0 / 3.0 - params.masspole * (costheta * costheta) / total_mass));
    let xacc = temp - polemass_length * thetaacc * costheta / total_mass;
    if semi_implicit {
        x_dot += params.tau * xacc;
        x += params.tau * x_dot;
        theta_dot += params.tau * thetaacc;
        theta += params.tau * theta_dot;
    } else {
        x += params.tau * x_dot;
        x_dot += params.tau * xacc;
        theta += params.tau * theta_dot;
        theta_dot += params.tau * thetaacc;
    }
    CartPoleState {
        x,
        x_dot,
        theta,
        theta_dot,
    }
}

/// Gymnasium's action 0: push the cart to the left.
pub const PUSH_LEFT: i64 = 0;
/// Gymnasium's action 1: push the cart to the right.
pub const PUSH_RIGHT: i64 = 1;

/// CartPole: Gymnasium 1.4.0's `CartPole-v1` as a [`Domain`].
///
#[doc = include_str!("cartpole.md")]
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_domains::cartpole::{CartPole, CartPoleParams, PUSH_RIGHT};
///
/// let mut env = Simulator::new(CartPole::new(CartPoleParams::default())?, 7);
/// let observation: [f32; 4] = env.reset(Mode::Training)?;
/// assert!(observation.iter().all(|value| value.abs() < 0.05));
/// let mut steps = 0;
/// loop {
///     let outcome = env.step(&PUSH_RIGHT)?;
///     steps += 1;
///     if outcome.is_done() {
///         assert!(outcome.terminated);
///         break;
///     }
/// }
/// assert!(steps < 50);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CartPole {
    params: CartPoleParams,
    observation_space: ArrayBox<f32, 4>,
    action_space: Discrete,
}

impl CartPole {
    /// The domain with `params`, after [`CartPoleParams::validate`].
    pub fn new(params: CartPoleParams) -> Result<CartPole, Error> {
        params.validate()?;
        let high = if params.has_gymnasium_dynamics() {
            [
                (2.0 * params.x_threshold) as f32,
                f32::INFINITY,
                (2.0 * params.theta_threshold_radians) as f32,
                f32::INFINITY,
            ]
        } else {
            // Other physics can overshoot any finite bound in one step (a time step of 0.37
            // moves the cart 2.8 times past Gymnasium's position bound), so the declared space
            // is widened rather than the parameters restricted; see "Observation space".
            [f32::INFINITY; 4]
        };
        Ok(CartPole {
            params,
            observation_space: ArrayBox::new(high.map(|bound| -bound), high)?,
            action_space: Discrete::new(2)?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &CartPoleParams {
        &self.params
    }
}

impl Domain for CartPole {
    type State = CartPoleState;
    type Observation = [f32; 4];
    type Action = i64;
    type ObservationSpace = ArrayBox<f32, 4>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f32, 4> {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    /// A state from outside has finite values and velocities of at most 10^6 in magnitude
    /// (a physical speed: a larger one, still a float32 number, overflows the next step into
    /// infinities, as the fuzz target found with `theta_dot = 1e38`).
    fn check_state(&self, state: &CartPoleState) -> Result<(), String> {
        let limit = crate::parameter_checks::PHYSICAL_RANGE.1;
        for (name, value) in [("x_dot", state.x_dot), ("theta_dot", state.theta_dot)] {
            if value.is_nan() || value.abs() > limit {
                return Err(format!(
                    "`{name}` must be finite and at most {limit} in magnitude, got {value}"
                ));
            }
        }
        Ok(())
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> CartPoleState {
        let (low, high) = (self.params.reset_low, self.params.reset_high);
        let mut draw = || uniform(rng, low, high);
        let x = draw();
        let x_dot = draw();
        let theta = draw();
        let theta_dot = draw();
        CartPoleState {
            x,
            x_dot,
            theta,
            theta_dot,
        }
    }

    /// [`cartpole_step`]; action 1 pushes right, any other value pushes left.
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &CartPoleState,
        action: &i64,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<CartPoleState> {
        cartpole_step(&self.params, state, *action == PUSH_RIGHT)
    }

    #[inline]
    fn observe(&self, state: &CartPoleState) -> [f32; 4] {
        state.to_observation()
    }

    fn is_terminal(&self, state: &CartPoleState) -> bool {
        state.is_terminal(&self.params)
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.params.max_episode_steps)
    }

    /// The observation bounds, as `f64`, in state order.
    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        let low = self.observation_space.low();
        let high = self.observation_space.high();
        Some(
            (0..4)
                .map(|index| [f64::from(low[index]), f64::from(high[index])])
                .collect(),
        )
    }

    fn continuous_dimensions(&self) -> Vec<usize> {
        vec![0, 1, 2, 3]
    }
}

impl DeterministicTransitions for CartPole {}

/// CartPole's kernel: a block of states in local arrays, their sines and cosines taken first
/// (library calls, which the processor overlaps when nothing else is in the way), then the rest
/// of the step in a loop without calls or aliasing that the compiler turns into vector
/// instructions, with the operations of [`cartpole_step`] in its order (the same
/// `dynamics`), so that every lane gives its bits.
impl BlockStep for CartPole {
    type Lanes = CartPoleLanes;

    #[inline(always)]
    fn load(&self, lanes: &mut CartPoleLanes, lane: usize, state: &CartPoleState, action: &i64) {
        lanes.pole.load(lane, state.to_array(), *action);
    }

    #[inline(always)]
    fn step_block(
        &self,
        lanes: &mut CartPoleLanes,
        len: usize,
        _: Mode,
        results: &mut LaneResults,
    ) {
        let len = len.min(BLOCK);
        let [_, _, thetas, _] = &lanes.pole.state;
        let angles = thetas
            .iter()
            .zip(lanes.sines.iter_mut())
            .zip(lanes.cosines.iter_mut());
        for ((theta, sine), cosine) in angles.take(len) {
            *cosine = trig::cos(*theta);
            *sine = trig::sin(*theta);
        }
        // A local copy, so that the compiler sees that no store of the loop changes it; and
        // the integrator chosen outside the loop, so that the loop has no branch.
        let params = self.params;
        match params.integrator {
            Integrator::Euler => lanes.step::<false>(&params, len, results),
            Integrator::SemiImplicitEuler => lanes.step::<true>(&params, len, results),
        }
    }

    #[inline(always)]
    fn store(&self, lanes: &CartPoleLanes, lane: usize) -> CartPoleState {
        CartPoleState::from_array(lanes.pole.get(lane))
    }
}

/// A block of cart-pole states in columns (`x`, `x_dot`, `theta`, `theta_dot`) and whether each
/// pushes right: the lanes CartPole's kernel (in float64) and the fast CartPole's (in float32)
/// share.
#[derive(Debug, Clone)]
pub(crate) struct PoleLanes<F> {
    pub(crate) state: [[F; BLOCK]; 4],
    pub(crate) push_right: [bool; BLOCK],
}

impl<F: Copy + Default> Default for PoleLanes<F> {
    fn default() -> Self {
        PoleLanes {
            state: [[F::default(); BLOCK]; 4],
            push_right: [false; BLOCK],
        }
    }
}

impl<F: Copy> PoleLanes<F> {
    /// Puts the state `values` and whether `action` pushes right into lane `lane`.
    #[inline(always)]
    pub(crate) fn load(&mut self, lane: usize, values: [F; 4], action: i64) {
        self.set(lane, values);
        self.push_right[lane] = action == PUSH_RIGHT;
    }

    /// The state values of lane `lane`.
    #[inline(always)]
    pub(crate) fn get(&self, lane: usize) -> [F; 4] {
        self.state.each_ref().map(|column| column[lane])
    }

    /// Sets the state values of lane `lane`.
    #[inline(always)]
    pub(crate) fn set(&mut self, lane: usize, values: [F; 4]) {
        for (column, value) in self.state.iter_mut().zip(values) {
            column[lane] = value;
        }
    }
}

/// The lanes of CartPole's kernel ([`BlockStep::Lanes`]): a block of states, their actions and
/// the sines and cosines of their angles.
#[derive(Debug, Clone)]
pub struct CartPoleLanes {
    pole: PoleLanes<f64>,
    sines: [f64; BLOCK],
    cosines: [f64; BLOCK],
}

impl Default for CartPoleLanes {
    fn default() -> Self {
        CartPoleLanes {
            pole: PoleLanes::default(),
            sines: [0.0; BLOCK],
            cosines: [0.0; BLOCK],
        }
    }
}

impl CartPoleLanes {
    /// Steps the first `len` lanes with the integrator fixed, their sines and cosines taken.
    #[inline(always)]
    fn step<const SEMI_IMPLICIT: bool>(
        &mut self,
        params: &CartPoleParams,
        len: usize,
        results: &mut LaneResults,
    ) {
        let (alive, terminal) = (reward(params, false), reward(params, true));
        // Each column indexed on its own: reading and writing a lane through arrays of the
        // four values (`PoleLanes::get` and `set`) keeps the loop from being vectorised (18%
        // fewer steps per second at 1024 environments).
        let [xs, x_dots, thetas, theta_dots] = &mut self.pole.state;
        for lane in 0..len.min(BLOCK) {
            let state = CartPoleState {
                x: xs[lane],
                x_dot: x_dots[lane],
                theta: thetas[lane],
                theta_dot: theta_dots[lane],
            };
            let (sine, cosine) = (self.sines[lane], self.cosines[lane]);
            let push_right = self.pole.push_right[lane];
            let next = dynamics(params, &state, push_right, sine, cosine, SEMI_IMPLICIT);
            xs[lane] = next.x;
            x_dots[lane] = next.x_dot;
            thetas[lane] = next.theta;
            theta_dots[lane] = next.theta_dot;
            // `is_terminal` without short-circuits, so that the loop has no branch.
            let terminated = (next.x < -params.x_threshold)
                | (next.x > params.x_threshold)
                | (next.theta < -params.theta_threshold_radians)
                | (next.theta > params.theta_threshold_radians);
            results.terminated[lane] = terminated;
            results.rewards[lane] = if terminated { terminal } else { alive };
        }
    }
}

/// The width of the text picture's track, in characters.
const TEXT_TRACK_WIDTH: usize = 41;

impl Render for CartPole {
    /// Two lines picturing the track between the position thresholds (`|`), the cart (`C`)
    /// and the pole's lean (`/`, `|` or `\` above the cart; `<` or `>` at an end when the
    /// cart is past a threshold), then the four state variables.
    fn render_text(&self, state: &CartPoleState) -> String {
        let threshold = self.params.x_threshold;
        let fraction = (state.x + threshold) / (2.0 * threshold);
        let last = TEXT_TRACK_WIDTH - 1;
        // The float-to-integer cast saturates, so NaN and far positions land at an end.
        let column = ((fraction * last as f64).round().max(0.0) as usize).min(last);
        let cart = if state.x < -threshold {
            '<'
        } else if state.x > threshold {
            '>'
        } else {
            'C'
        };
        let lean = if state.theta > self.params.theta_threshold_radians / 4.0 {
            '/'
        } else if state.theta < -self.params.theta_threshold_radians / 4.0 {
            '\\'
        } else {
            '|'
        };
        let mut pole_line = " ".repeat(TEXT_TRACK_WIDTH + 2);
        pole_line.replace_range(column + 1..column + 2, &lean.to_string());
        let track: String = (0..TEXT_TRACK_WIDTH)
            .map(|index| if index == column { cart } else { '-' })
            .collect();
        format!(
            "{}\n|{track}|\nx = {:+.4}, x_dot = {:+.4}, theta = {:+.4} rad, theta_dot = {:+.4}\n",
            pole_line.trim_end(),
            state.x,
            state.x_dot,
            state.theta,
            state.theta_dot
        )
    }

    /// Gymnasium's picture: a 600 by 400 frame showing `[-x_threshold, x_threshold]`, the
    /// track (`track`), the position thresholds (`threshold`), the cart (`cart`), the pole
    /// (`pole`, rotated by the angle) and its axle (`axle`), with the state as a caption.
    fn render_svg(&self, state: &CartPoleState) -> String {
        const WIDTH: f64 = 600.0;
        const HEIGHT: f64 = 400.0;
        const CART_WIDTH: f64 = 50.0;
        const CART_HEIGHT: f64 = 30.0;
        const POLE_WIDTH: f64 = 10.0;
        const TRACK_Y: f64 = HEIGHT - 100.0;
        let scale = WIDTH / (2.0 * self.params.x_threshold);
        let pole_length = scale * (2.0 * self.params.length);
        let cart_x = state.x * scale + WIDTH / 2.0;
        let axle_y = TRACK_Y - CART_HEIGHT / 4.0;

        let mut svg = Svg::new(WIDTH, HEIGHT, "CartPole");
        svg.element(
            "line",
            "track",
            &[
                ("x1", "0".to_owned()),
                ("y1", number(TRACK_Y)),
                ("x2", number(WIDTH)),
                ("y2", number(TRACK_Y)),
                ("stroke", "#000000".to_owned()),
            ],
        );
        for side in [-1.0, 1.0] {
            let x = side * self.params.x_threshold * scale + WIDTH / 2.0;
            svg.element(
                "line",
                "threshold",
                &[
                    ("x1", number(x)),
                    ("y1", number(TRACK_Y - 60.0)),
                    ("x2", number(x)),
                    ("y2", number(TRACK_Y + 20.0)),
                    ("stroke", "#d62728".to_owned()),
                    ("stroke-dasharray", "4 4".to_owned()),
                ],
            );
        }
        svg.element(
            "rect",
            "cart",
            &[
                ("x", number(cart_x - CART_WIDTH / 2.0)),
                ("y", number(TRACK_Y - CART_HEIGHT / 2.0)),
                ("width", number(CART_WIDTH)),
                ("height", number(CART_HEIGHT)),
                ("fill", "#000000".to_owned()),
            ],
        );
        svg.element(
            "rect",
            "pole",
            &[
                ("x", number(-POLE_WIDTH / 2.0)),
                ("y", number(-pole_length)),
                ("width", number(POLE_WIDTH)),
                ("height", number(pole_length)),
                ("fill", "#ca9865".to_owned()),
                (
                    "transform",
                    format!(
                        "translate({} {}) rotate({})",
                        number(cart_x),
                        number(axle_y),
                        number(state.theta.to_degrees())
                    ),
                ),
            ],
        );
        svg.element(
            "circle",
            "axle",
            &[
                ("cx", number(cart_x)),
                ("cy", number(axle_y)),
                ("r", number(POLE_WIDTH / 2.0)),
                ("fill", "#8184cb".to_owned()),
            ],
        );
        svg.text(
            "caption",
            &[("x", "10".to_owned()), ("y", "24".to_owned())],
            &format!(
                "x = {:+.4}, x_dot = {:+.4}, theta = {:+.4} rad, theta_dot = {:+.4}",
                state.x, state.x_dot, state.theta, state.theta_dot
            ),
        );
        svg.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rl_core::NumpyGenerator;

    #[test]
    fn every_instruction_set_of_the_kernel_gives_the_bits_of_domain_step() {
        for integrator in [Integrator::Euler, Integrator::SemiImplicitEuler] {
            let params = CartPoleParams {
                integrator,
                ..CartPoleParams::default()
            };
            let cartpole = CartPole::new(params).expect("valid");
            let mut rng = NumpyGenerator::seed_from_u64(5);
            // Several blocks and a partial one; starting states, fast spins, states past the
            // thresholds and non-finite ones.
            let states: Vec<CartPoleState> = (0..300)
                .map(|i| {
                    let mut state = cartpole.initial_state(Mode::Training, &mut rng);
                    state.theta_dot += f64::from(i % 17) * 0.7 - 5.0;
                    state.x += f64::from(i % 5) - 2.0;
                    if i % 41 == 0 {
                        state.theta = [f64::NAN, f64::INFINITY, 1.0e30][i as usize / 41 % 3];
                    }
                    state
                })
                .collect();
            let actions: Vec<i64> = (0..300).map(|i| i64::from(i % 3 != 0)).collect();
            assert_eq!(
                rl_core::check_block_kernel(&cartpole, &states, &actions),
                Ok(())
            );
        }
    }

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
        assert_eq!(step.value.reward(), 1.0);

        let sutton_barto = CartPoleParams {
            sutton_barto_reward: true,
            ..params
        };
        assert_eq!(
            cartpole_step(&sutton_barto, &beyond, true).value.reward(),
            -1.0
        );
        assert_eq!(
            cartpole_step(&sutton_barto, &on_threshold, true)
                .value
                .reward(),
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
