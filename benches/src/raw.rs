//! Hand-written loops of the exact CartPole-v1 and MountainCar-v0 dynamics, written without
//! the library, as the floor the library's stepping is compared with.
//!
//! Each loop does the same job as the library path it stands next to, and nothing more: the
//! same float64 operations in Gymnasium's order (so the same bits, which the tests of this
//! module check against the library), the same float32 observations, the step count and the
//! time limit, and resets that draw from a `NumpyGenerator` exactly as the domains' `initial_state`
//! does. They skip what a hand-written loop would skip: validating actions, checking that an
//! episode is running, and the generic plumbing.
//!
//! - [`RawCartPole`] and [`RawMountainCar`]: one environment at a time (next to
//!   `Simulator`).
//! - [`RawCartPoleBatch`] and [`RawMountainCarBatch`]: a batch in structure-of-arrays columns
//!   with Gymnasium's next-step autoreset, seeded like a vector environment (next to
//!   `VectorEnvironment::from_kernel`).

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
const THETA_THRESHOLD: f64 = 12.0 * 2.0 * std::f64::consts::PI / 360.0;
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

/// Clips like NumPy's scalar `clip`.
#[inline(always)]
fn clip(value: f64, low: f64, high: f64) -> f64 {
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

/// A batch of CartPole-v1 environments stepped by hand in structure-of-arrays columns, with
/// next-step autoreset: what `VectorEnvironment::from_kernel` of CartPole computes, bit for
/// bit.
#[derive(Debug, Clone)]
pub struct RawCartPoleBatch {
    columns: [Vec<f64>; 4],
    episodes: Episodes,
    /// The results of the last call.
    pub outputs: RawOutputs<4>,
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

    /// Steps every environment with the action of the same index (one per environment),
    /// resetting those whose episode ended on the last call instead.
    pub fn step(&mut self, actions: &[i64]) {
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
    pub outputs: RawOutputs<2>,
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

    /// Steps every environment with the action of the same index (one per environment),
    /// resetting those whose episode ended on the last call instead.
    pub fn step(&mut self, actions: &[i64]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workloads::{
        ENVIRONMENT_SEED, cartpole, discrete_actions, discrete_rows, kernel_vector, mountain_car,
    };
    use rl_core::BatchStep;
    use rl_core::{Domain, Environment, Mode, Simulator};

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

    /// Steps a kernel vector environment (on 1 and 2 threads) and a raw batch side by side
    /// for `rounds` steps and checks every result bit for bit.
    fn check_batch<D: BatchStep<Action = i64> + Clone + Send + Sync + 'static, const N: usize>(
        domain: D,
        n: i64,
        mut raw_batch: impl FnMut() -> (Box<dyn FnMut(&[i64])>, Box<dyn Fn() -> RawOutputs<N>>),
    ) where
        D::State: Send + 'static,
        D::ObservationSpace: rl_spaces::FlattenSpace,
    {
        let envs = 64;
        for threads in [1, 2] {
            let mut vector = kernel_vector(domain.clone(), envs, threads).expect("vector");
            let (mut step, outputs) = raw_batch();
            let mut rows = discrete_rows(n, envs);
            for round in 0..1_500 {
                let actions = rows.next_row().to_vec();
                vector.step(&actions).expect("step");
                step(&actions);
                let raw = outputs();
                let observations: Vec<u32> =
                    vector.observations().iter().map(|v| v.to_bits()).collect();
                let expected: Vec<u32> = raw.observations.iter().map(|v| v.to_bits()).collect();
                assert_eq!(observations, expected, "round {round}, {threads} threads");
                let rewards: Vec<u64> = vector.rewards().iter().map(|v| v.to_bits()).collect();
                let expected: Vec<u64> = raw.rewards.iter().map(|v| v.to_bits()).collect();
                assert_eq!(rewards, expected, "round {round}");
                assert_eq!(vector.terminated(), raw.terminated.as_slice());
                assert_eq!(vector.truncated(), raw.truncated.as_slice());
            }
        }
    }

    #[test]
    fn raw_cartpole_batch_equals_the_vector_environment_bit_for_bit() {
        check_batch::<_, 4>(cartpole().expect("valid"), 2, || {
            let batch = std::rc::Rc::new(std::cell::RefCell::new(RawCartPoleBatch::new(
                64,
                ENVIRONMENT_SEED,
            )));
            let stepper = std::rc::Rc::clone(&batch);
            (
                Box::new(move |actions: &[i64]| stepper.borrow_mut().step(actions)),
                Box::new(move || batch.borrow().outputs.clone()),
            )
        });
    }

    #[test]
    fn raw_mountain_car_batch_equals_the_vector_environment_bit_for_bit() {
        check_batch::<_, 2>(mountain_car().expect("valid"), 3, || {
            let batch = std::rc::Rc::new(std::cell::RefCell::new(RawMountainCarBatch::new(
                64,
                ENVIRONMENT_SEED,
            )));
            let stepper = std::rc::Rc::clone(&batch);
            (
                Box::new(move |actions: &[i64]| stepper.borrow_mut().step(actions)),
                Box::new(move || batch.borrow().outputs.clone()),
            )
        });
    }
}
