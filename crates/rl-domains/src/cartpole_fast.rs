//! [`FastCartPole`]: an opt-in, fast-precision CartPole whose step runs in float32 with
//! polynomial sine and cosine, so that a batch of states is stepped entirely in vector
//! instructions. **It is not bit-exact with Gymnasium**: use [`CartPole`] for anything that
//! must reproduce Gymnasium's numbers.
//!
//! # Why
//!
//! The exact step spends most of its time in the C library's float64 `sin` and `cos`, one
//! call per state, which no compiler vectorises (see `docs/PERFORMANCE.md`). This variant
//! trades the last digits for speed: float32 state and arithmetic, the reciprocal of the total
//! mass instead of divisions by it, and a branch-free sine and cosine ([`sin_cos`], accurate to
//! a few units in the last place of float32 for moderate angles). Episodes still follow
//! CartPole's physics closely (the tests bound the drift from [`cartpole_step`] over short
//! horizons), so it suits training where Gymnasium's exact bits are not needed.
//!
//! On x86-64, the batch kernel picks at run time the widest vector instructions the processor
//! has (AVX-512, AVX2, or the default target's SSE2). The results do not depend on the choice:
//! every operation is an IEEE float32 operation, rounded the same way in every lane and done
//! in the same order, and Rust never fuses a multiplication with an addition on its own (the
//! tests compare the instruction sets bit for bit). So a seed gives the same trajectory on
//! every x86-64 machine.
//!
//! # Differences from [`CartPole`]
//!
//! * The state is float32 ([`FastCartPoleState`]); the observation is the state itself.
//! * Every step differs from Gymnasium's in the last bits, and trajectories diverge further
//!   with time, as any change of rounding does in a chaotic system. Reference traces do not
//!   replay through it.
//! * The parameters are [`CartPoleParams`] (validated the same way); the Sutton and Barto
//!   reward and both integrators are supported.
//!
//! Its [`Domain::step`] and its batch kernel (a block step, [`BlockStep`], whose blocks are
//! one loop of the step's float32 operations) compute the same operations, so they agree with
//! each other bit for bit, as every kernel must.
//!
//! [`cartpole_step`]: crate::cartpole::cartpole_step

use rand::Rng;
use rl_core::{
    BLOCK, BlockStep, DeterministicTransitions, Domain, LaneResults, Mode, Render,
    TransitionOutcome, Value,
};
use rl_spaces::{ArrayBox, Discrete};
use serde::{Deserialize, Serialize};

use crate::cartpole::{CartPole, CartPoleParams, CartPoleState, Integrator, PUSH_RIGHT, PoleLanes};
use crate::error::Error;

/// The state of [`FastCartPole`], in float32.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct FastCartPoleState {
    /// Cart position.
    pub x: f32,
    /// Cart velocity.
    pub x_dot: f32,
    /// Pole angle in radians, 0 is upright.
    pub theta: f32,
    /// Pole angular velocity.
    pub theta_dot: f32,
}

impl FastCartPoleState {
    /// Builds a state from `[x, x_dot, theta, theta_dot]`.
    #[inline]
    pub fn from_array(values: [f32; 4]) -> Self {
        let [x, x_dot, theta, theta_dot] = values;
        FastCartPoleState {
            x,
            x_dot,
            theta,
            theta_dot,
        }
    }

    /// The state as `[x, x_dot, theta, theta_dot]`, which is also its observation.
    #[inline]
    pub fn to_array(&self) -> [f32; 4] {
        [self.x, self.x_dot, self.theta, self.theta_dot]
    }

    /// The same state in [`CartPole`]'s float64 (each value converted exactly), which is how
    /// it is drawn.
    pub fn to_exact(&self) -> CartPoleState {
        CartPoleState {
            x: f64::from(self.x),
            x_dot: f64::from(self.x_dot),
            theta: f64::from(self.theta),
            theta_dot: f64::from(self.theta_dot),
        }
    }
}

/// `2 / pi` in float32.
const FRAC_2_PI: f32 = std::f32::consts::FRAC_2_PI;
/// `pi / 2` in three parts (Cody and Waite, as Cephes' `sinf`): the first two have so few
/// significant bits that their products with a quarter-turn count are exact.
const PI_2_PARTS: [f32; 3] = [1.570_312_5, 4.837_513e-4, 7.549_79e-8];
/// The largest quarter-turn count the reduction handles (2^22); angles beyond it (millions
/// of radians) are taken as 0.
const MAX_QUARTERS: f32 = 4_194_304.0;
/// 1.5 * 2^23: adding it to a float below 2^22 in magnitude rounds it to an integer.
const ROUNDING: f32 = 12_582_912.0;

/// The sine and cosine of `x`, in float32, without branches or library calls (so that a loop
/// over many angles compiles to vector instructions).
///
/// `x` is reduced to `r` in `[-pi/4, pi/4]` with `x = r + k pi/2`, then Taylor polynomials of
/// degree 9 (sine) and 8 (cosine) give `sin r` and `cos r`, combined by the quarter-turn `k`.
/// For `|x|` up to a few hundred radians the error is a few units in the last place of
/// float32; it grows with `|x|` as the reduction loses digits, and an `|x|` beyond about
/// 6.5 million is taken as 0. A non-finite `x` gives NaN.
///
/// ```
/// use rl_domains::cartpole_fast::sin_cos;
///
/// let (sine, cosine) = sin_cos(0.2);
/// assert!((sine - 0.2f32.sin()).abs() < 1e-6);
/// assert!((cosine - 0.2f32.cos()).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn sin_cos(x: f32) -> (f32, f32) {
    // The nearest quarter-turn count k, rounded by adding and subtracting 1.5 * 2^23 (exact
    // for |k| < 2^22); k mod 4 is then in the low bits of the sum. No conversion to an
    // integer type, which would not vectorise. An angle too large to reduce is taken as 0.
    let scaled = x * FRAC_2_PI;
    let in_range = scaled.abs() < MAX_QUARTERS;
    let (x_in, scaled) = if in_range { (x, scaled) } else { (0.0, 0.0) };
    let shifted = scaled + ROUNDING;
    let quarters = shifted.to_bits();
    let k = shifted - ROUNDING;
    let [high, middle, low] = PI_2_PARTS;
    let r = ((x_in - k * high) - k * middle) - k * low;
    let r2 = r * r;
    let sine = r + r
        * r2
        * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362_880.0))));
    let cosine =
        1.0 + r2 * (-0.5 + r2 * (1.0 / 24.0 + r2 * (-1.0 / 720.0 + r2 * (1.0 / 40_320.0))));
    // sin(r + k pi/2) and cos(r + k pi/2) by the quarter turn k mod 4.
    let swap = quarters & 1 != 0;
    let (s, c) = if swap { (cosine, sine) } else { (sine, cosine) };
    let sine_sign = if quarters & 2 != 0 { -1.0 } else { 1.0 };
    let cosine_sign = if (quarters + 1) & 2 != 0 { -1.0 } else { 1.0 };
    let nan = if x.is_finite() { 1.0 } else { f32::NAN };
    (s * sine_sign * nan, c * cosine_sign * nan)
}

/// The parameters of the fast step, in float32 (computed once from [`CartPoleParams`]).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Constants {
    force_mag: f32,
    gravity: f32,
    length: f32,
    masspole: f32,
    inverse_total_mass: f32,
    polemass_length: f32,
    tau: f32,
    x_threshold: f32,
    theta_threshold: f32,
    alive_reward: f32,
    terminal_reward: f32,
    semi_implicit: bool,
}

impl Constants {
    fn new(params: &CartPoleParams) -> Self {
        let (alive_reward, terminal_reward) = if params.sutton_barto_reward {
            (0.0, -1.0)
        } else {
            (1.0, 1.0)
        };
        Constants {
            force_mag: params.force_mag as f32,
            gravity: params.gravity as f32,
            length: params.length as f32,
            masspole: params.masspole as f32,
            inverse_total_mass: (1.0 / params.total_mass()) as f32,
            polemass_length: params.polemass_length() as f32,
            tau: params.tau as f32,
            x_threshold: params.x_threshold as f32,
            theta_threshold: params.theta_threshold_radians as f32,
            alive_reward,
            terminal_reward,
            semi_implicit: params.integrator == Integrator::SemiImplicitEuler,
        }
    }

    /// One fast step: the next state, the reward and whether it terminated.
    #[inline(always)]
    fn step(&self, state: FastCartPoleState, push_right: bool) -> (FastCartPoleState, f32, bool) {
        let FastCartPoleState {
            mut x,
            mut x_dot,
            mut theta,
            mut theta_dot,
        } = state;
        let force = if push_right {
            self.force_mag
        } else {
            -self.force_mag
        };
        let (sintheta, costheta) = sin_cos(theta);
        let temp = (force + self.polemass_length * theta_dot * theta_dot * sintheta)
            * self.inverse_total_mass;
        let thetaacc = (self.gravity * sintheta - costheta * temp)
            / (self.length
                * (4.0 / 3.0 - self.masspole * costheta * costheta * self.inverse_total_mass));
        let xacc = temp - self.polemass_length * thetaacc * costheta * self.inverse_total_mass;
        if self.semi_implicit {
            x_dot += self.tau * xacc;
            x += self.tau * x_dot;
            theta_dot += self.tau * thetaacc;
            theta += self.tau * theta_dot;
        } else {
            x += self.tau * x_dot;
            x_dot += self.tau * xacc;
            theta += self.tau * theta_dot;
            theta_dot += self.tau * thetaacc;
        }
        let terminated = (x < -self.x_threshold)
            | (x > self.x_threshold)
            | (theta < -self.theta_threshold)
            | (theta > self.theta_threshold);
        let reward = if terminated {
            self.terminal_reward
        } else {
            self.alive_reward
        };
        let next = FastCartPoleState {
            x,
            x_dot,
            theta,
            theta_dot,
        };
        (next, reward, terminated)
    }
}

/// CartPole in fast precision: [`CartPole`]'s physics, spaces, rewards, starting state and
/// episode ends, stepped in float32 with polynomial sine and cosine. **Not bit-exact with
/// Gymnasium** (see the [module](self) documentation for what differs and why it exists).
///
#[doc = include_str!("cartpole_fast.md")]
///
/// Stepped as a batch (rl-wrappers' `KernelVector::from_kernel` builds a vector environment
/// of it the same way):
///
/// ```
/// use rand::SeedableRng;
/// use rl_core::NumpyGenerator;
/// use rl_core::{BatchStep, Domain, Mode};
/// use rl_domains::cartpole::CartPoleParams;
/// use rl_domains::cartpole_fast::FastCartPole;
///
/// let domain = FastCartPole::new(CartPoleParams::default())?;
/// let mut rngs: Vec<NumpyGenerator> = (0..256).map(NumpyGenerator::seed_from_u64).collect();
/// let mut states: Vec<_> = rngs
///     .iter_mut()
///     .map(|rng| domain.initial_state(Mode::Training, rng))
///     .collect();
/// let (mut rewards, mut terminated) = (vec![0.0; 256], vec![false; 256]);
/// let mut observations = vec![0.0f32; 256 * 4];
/// domain.step_batch(
///     &mut states, &[1; 256], Mode::Training, &mut rngs,
///     &mut rewards, &mut terminated, &mut observations,
/// );
/// assert_eq!(rewards, [1.0; 256]);
/// assert!(terminated.iter().all(|t| !t));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FastCartPole {
    exact: CartPole,
    constants: Constants,
}

impl FastCartPole {
    /// The fast domain with `params`, after [`CartPoleParams::validate`].
    pub fn new(params: CartPoleParams) -> Result<FastCartPole, Error> {
        let exact = CartPole::new(params)?;
        Ok(FastCartPole {
            constants: Constants::new(exact.params()),
            exact,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &CartPoleParams {
        self.exact.params()
    }

    /// The exact CartPole of the same parameters (what draws its states).
    pub fn exact(&self) -> &CartPole {
        &self.exact
    }
}

impl Render for FastCartPole {
    /// As [`CartPole`] draws the same state in float64.
    fn render_text(&self, state: &FastCartPoleState) -> String {
        self.exact.render_text(&state.to_exact())
    }

    /// As [`CartPole`] draws the same state in float64.
    fn render_svg(&self, state: &FastCartPoleState) -> String {
        self.exact.render_svg(&state.to_exact())
    }
}

impl Domain for FastCartPole {
    type State = FastCartPoleState;
    type Observation = [f32; 4];
    type Action = i64;
    type ObservationSpace = ArrayBox<f32, 4>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f32, 4> {
        self.exact.observation_space()
    }

    fn action_space(&self) -> &Discrete {
        self.exact.action_space()
    }

    /// As [`CartPole`]'s: finite velocities of at most 10^6 in magnitude.
    fn check_state(&self, state: &FastCartPoleState) -> Result<(), String> {
        self.exact.check_state(&crate::cartpole::CartPoleState {
            x: f64::from(state.x),
            x_dot: f64::from(state.x_dot),
            theta: f64::from(state.theta),
            theta_dot: f64::from(state.theta_dot),
        })
    }

    fn initial_state<R: Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> FastCartPoleState {
        let state = self.exact.initial_state(mode, rng).to_observation();
        let [x, x_dot, theta, theta_dot] = state;
        FastCartPoleState {
            x,
            x_dot,
            theta,
            theta_dot,
        }
    }

    /// The fast step; action 1 pushes right, any other value pushes left.
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &FastCartPoleState,
        action: &i64,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<FastCartPoleState> {
        let (next, reward, terminated) = self.constants.step(*state, *action == PUSH_RIGHT);
        TransitionOutcome::new(next, Value::from_reward(f64::from(reward)), terminated)
    }

    #[inline]
    fn observe(&self, state: &FastCartPoleState) -> [f32; 4] {
        state.to_array()
    }

    fn is_terminal(&self, state: &FastCartPoleState) -> bool {
        let c = &self.constants;
        state.x < -c.x_threshold
            || state.x > c.x_threshold
            || state.theta < -c.theta_threshold
            || state.theta > c.theta_threshold
    }

    fn episode_cap(&self) -> Option<u64> {
        self.exact.episode_cap()
    }

    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        self.exact.state_space_limits()
    }

    fn continuous_dimensions(&self) -> Vec<usize> {
        self.exact.continuous_dimensions()
    }
}

impl DeterministicTransitions for FastCartPole {}

/// The fast step on a block of float32 states in local arrays, in one loop without calls or
/// branches that the compiler turns into vector instructions (the sine and cosine are
/// [`sin_cos`]'s polynomials); the same operations as [`Domain::step`].
impl BlockStep for FastCartPole {
    type Lanes = FastCartPoleLanes;

    #[inline(always)]
    fn load(
        &self,
        lanes: &mut FastCartPoleLanes,
        lane: usize,
        state: &FastCartPoleState,
        action: &i64,
    ) {
        lanes.pole.load(lane, state.to_array(), *action);
    }

    #[inline(always)]
    fn step_block(
        &self,
        lanes: &mut FastCartPoleLanes,
        len: usize,
        _: Mode,
        results: &mut LaneResults,
    ) {
        // A local copy, so that the compiler sees that no store of the loop changes it.
        let constants = self.constants;
        // Each column indexed on its own: reading and writing a lane through arrays of the
        // four values (`PoleLanes::get` and `set`) keeps the loop from being vectorised.
        let [xs, x_dots, thetas, theta_dots] = &mut lanes.pole.state;
        for lane in 0..len.min(BLOCK) {
            let state = FastCartPoleState {
                x: xs[lane],
                x_dot: x_dots[lane],
                theta: thetas[lane],
                theta_dot: theta_dots[lane],
            };
            let (next, reward, terminated) = constants.step(state, lanes.pole.push_right[lane]);
            xs[lane] = next.x;
            x_dots[lane] = next.x_dot;
            thetas[lane] = next.theta;
            theta_dots[lane] = next.theta_dot;
            lanes.rewards[lane] = reward;
            results.terminated[lane] = terminated;
        }
        // The rewards widened apart: float64 stores in the loop above would halve its vectors.
        let rewards = results.rewards.iter_mut().zip(&lanes.rewards);
        for (slot, reward) in rewards.take(len) {
            *slot = f64::from(*reward);
        }
    }

    #[inline(always)]
    fn store(&self, lanes: &FastCartPoleLanes, lane: usize) -> FastCartPoleState {
        FastCartPoleState::from_array(lanes.pole.get(lane))
    }
}

/// The lanes of the fast CartPole's kernel ([`BlockStep::Lanes`]): a block of float32 states,
/// their actions and their float32 rewards.
#[derive(Debug, Clone)]
pub struct FastCartPoleLanes {
    pole: PoleLanes<f32>,
    rewards: [f32; BLOCK],
}

impl Default for FastCartPoleLanes {
    fn default() -> Self {
        FastCartPoleLanes {
            pole: PoleLanes::default(),
            rewards: [0.0; BLOCK],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cartpole::{CartPoleState, cartpole_step};
    use rand::SeedableRng;
    use rl_core::NumpyGenerator;

    #[test]
    fn sin_cos_is_accurate_and_never_panics() {
        let mut worst: f64 = 0.0;
        for i in -200_000..=200_000 {
            let x = i as f32 * 1e-4; // [-20, 20]
            let (sine, cosine) = sin_cos(x);
            let exact = f64::from(x);
            worst = worst
                .max((f64::from(sine) - exact.sin()).abs())
                .max((f64::from(cosine) - exact.cos()).abs());
        }
        assert!(worst < 1e-6, "worst error {worst}");
        for x in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let (sine, cosine) = sin_cos(x);
            assert!(sine.is_nan() && cosine.is_nan());
        }
        let (sine, cosine) = sin_cos(1e30);
        assert!(sine.is_finite() && cosine.is_finite());
    }

    #[test]
    fn every_instruction_set_gives_the_same_bits() {
        let fast = FastCartPole::new(CartPoleParams::default()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(11);
        // Several blocks and a partial one; ordinary states, fast spins, and angles that need
        // every branch of the sine's range reduction (large, huge, non-finite).
        let odd_angles = [3.0, -40.0, 1.0e5, -7.0e6, 1.0e30, f32::NAN, f32::INFINITY];
        let states: Vec<FastCartPoleState> = (0..300)
            .map(|i| {
                let mut state = fast.initial_state(Mode::Training, &mut rng);
                state.theta_dot += (i % 17) as f32 * 0.7 - 5.0;
                if i % 10 == 0 {
                    state.theta = odd_angles[(i / 10) % odd_angles.len()];
                }
                state
            })
            .collect();
        let actions: Vec<i64> = (0..300).map(|i| i64::from(i % 3 != 0)).collect();
        assert_eq!(
            rl_core::check_block_kernel(&fast, &states, &actions),
            Ok(())
        );
    }

    #[test]
    fn short_trajectories_stay_close_to_the_exact_ones() {
        let params = CartPoleParams::default();
        let fast = FastCartPole::new(params).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(3);
        for episode in 0..200 {
            let mut exact = CartPole::new(params)
                .expect("valid")
                .initial_state(Mode::Training, &mut rng);
            let [x, x_dot, theta, theta_dot] = exact.to_array().map(|value| value as f32);
            let mut state = FastCartPoleState {
                x,
                x_dot,
                theta,
                theta_dot,
            };
            exact = CartPoleState::from_array(state.to_array().map(f64::from));
            for step in 0..20 {
                let push_right = (episode + step) % 3 != 0;
                let action = i64::from(push_right);
                let outcome = fast.step(&state, &action, Mode::Training, &mut rng);
                let reference = cartpole_step(&params, &exact, push_right);
                for (a, b) in outcome
                    .next_state
                    .to_array()
                    .iter()
                    .zip(reference.next_state.to_array())
                {
                    assert!(
                        (f64::from(*a) - b).abs() < 1e-4,
                        "episode {episode} step {step}"
                    );
                }
                state = outcome.next_state;
                exact = reference.next_state;
                if reference.terminated {
                    break;
                }
            }
        }
    }
}
