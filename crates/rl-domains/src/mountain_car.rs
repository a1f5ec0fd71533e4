//! MountainCar: Gymnasium 1.4.0's `MountainCar-v0`, as the domain [`MountainCar`] and its
//! exact, pure step function [`mountain_car_step`].
//!
//! [`MountainCar`] is documented in the crate's domain template. This page adds how the
//! step function reproduces Gymnasium bit for bit.
//!
//! # Exactness
//!
//! [`mountain_car_step`] performs Gymnasium's float64 operations in Gymnasium's order and
//! reproduces its states bit for bit on all 21 MountainCar reference traces (2,750 steps,
//! checked from the recorded states and along the rollouts). Its cosine is the standard
//! library's `f64::cos`: the `libm` crate's cosine would leave 17 of those steps 1 or 2
//! ulp off in velocity (see [`crate::cartpole`] for the crate-wide choice).
//!
//! The batch kernel is a block step ([`BlockStep`]: the cosines of a block of states first,
//! then the rest of the step), compiled for AVX-512, AVX2 and the default target and picked at
//! run time, as CartPole's (see [`crate::cartpole`], "Exactness"); every version gives
//! [`mountain_car_step`]'s bits (a unit test runs each version the processor has).
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/classic_control/mountain_car.py`; the operation order
//! is written out in `testdata/reference/README.md`.

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
    /// The reward of every step that does not reach the goal (-1.0).
    pub step_reward: f64,
    /// The reward of the step that reaches the goal (-1.0 in Gymnasium; RLPy gives 0).
    pub goal_reward: f64,
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
            step_reward: -1.0,
            goal_reward: -1.0,
            reset_low: -0.6,
            reset_high: -0.4,
            max_episode_steps: 200,
        }
    }
}

impl MountainCarParams {
    /// RLPy's MountainCar parameters on Gymnasium's dynamics: the episode starts at rest at
    /// position -0.5 (`reset_low = reset_high = -0.5`) and the step reaching the goal is
    /// rewarded 0 instead of -1; everything else is `MountainCar-v0`'s.
    ///
    /// This is RLPy-style, not RLPy-exact: RLPy tests termination one step late, adds
    /// optional acceleration noise (not modelled here) and uses its own episode cap and
    /// discount factor.
    pub fn rlpy_style() -> MountainCarParams {
        MountainCarParams {
            reset_low: -0.5,
            reset_high: -0.5,
            goal_reward: 0.0,
            ..MountainCarParams::default()
        }
    }

    /// Checks that every quantity is finite, the track and reset ranges are ordered, the
    /// reset range lies on the track, the speed limit is positive, force and gravity are of
    /// normal size and the time limit is at least 1.
    pub fn validate(&self) -> Result<(), Error> {
        check_valley(
            [self.min_position, self.max_position],
            self.max_speed,
            [self.goal_position, self.goal_velocity],
            [self.reset_low, self.reset_high],
        )?;
        parameter_checks::magnitude("force", self.force)?;
        parameter_checks::magnitude("gravity", self.gravity)?;
        parameter_checks::finite("step_reward", self.step_reward)?;
        parameter_checks::finite("goal_reward", self.goal_reward)?;
        parameter_checks::nonzero_steps("max_episode_steps", self.max_episode_steps)
    }
}

/// Checks the parameters both MountainCar variants share: the track `[min_position,
/// max_position]` ordered, the speed limit positive, the goal `[goal_position, goal_velocity]`
/// finite and the reset range `[reset_low, reset_high]` ordered and on the track.
pub(crate) fn check_valley(
    [min_position, max_position]: [f64; 2],
    max_speed: f64,
    [goal_position, goal_velocity]: [f64; 2],
    [reset_low, reset_high]: [f64; 2],
) -> Result<(), Error> {
    parameter_checks::ordered_range("min_position", min_position, "max_position", max_position)?;
    parameter_checks::positive("max_speed", max_speed)?;
    parameter_checks::finite("goal_position", goal_position)?;
    parameter_checks::finite("goal_velocity", goal_velocity)?;
    parameter_checks::ordered_range("reset_low", reset_low, "reset_high", reset_high)?;
    for (name, value) in [("reset_low", reset_low), ("reset_high", reset_high)] {
        parameter_checks::within(
            name,
            value,
            min_position,
            max_position,
            "the track, from `min_position` to `max_position`",
        )?;
    }
    Ok(())
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
    #[inline]
    pub fn to_observation(&self) -> [f32; 2] {
        [self.position as f32, self.velocity as f32]
    }
}

/// Clips `value` to `[low, high]` like NumPy's `clip` on a scalar; NaN passes through.
#[inline]
pub(crate) fn clip(value: f64, low: f64, high: f64) -> f64 {
    if value < low {
        low
    } else if value > high {
        high
    } else {
        value
    }
}

/// Advances MountainCar by one time step, exactly as Gymnasium 1.4.0's `MountainCarEnv.step`:
/// the state reached, the reward (`goal_reward` when it reaches the goal, else `step_reward`,
/// both -1 in Gymnasium) and whether the car reached the goal.
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
/// assert_eq!(step.value.reward(), -1.0);
/// assert!(!step.terminated);
/// ```
#[inline]
pub fn mountain_car_step(
    params: &MountainCarParams,
    state: &MountainCarState,
    action: u8,
) -> TransitionOutcome<MountainCarState> {
    let cosine = trig::cos(3.0 * state.position);
    let next_state = dynamics(params, state, f64::from(action) - 1.0, cosine);
    let terminated = reaches_goal(params, &next_state);
    TransitionOutcome::new(
        next_state,
        Value::from_reward(reward(params, terminated)),
        terminated,
    )
}

/// The reward of a step that reaches the goal or not.
#[inline(always)]
fn reward(params: &MountainCarParams, terminated: bool) -> f64 {
    if terminated {
        params.goal_reward
    } else {
        params.step_reward
    }
}

/// The action the step takes for `action`: 0, 1 or 2 as they are; any other value (which the
/// simulator never passes) as 1, no acceleration.
#[inline(always)]
fn known_action(action: i64) -> u8 {
    match action {
        0 => 0,
        2 => 2,
        _ => 1,
    }
}

/// The state after one step from `state` with the push `direction` (`action - 1`), given
/// `cos(3 * position)`: Gymnasium's operations in Gymnasium's order. The one definition of
/// the dynamics, which the batch kernel also uses.
#[inline(always)]
fn dynamics(
    params: &MountainCarParams,
    state: &MountainCarState,
    direction: f64,
    cosine: f64,
) -> MountainCarState {
    let MountainCarState {
        mut position,
        mut velocity,
    } = *state;
    velocity += direction * params.force + cosine * (-params.gravity);
    velocity = clip(velocity, -params.max_speed, params.max_speed);
    position += velocity;
    position = clip(position, params.min_position, params.max_position);
    if position == params.min_position && velocity < 0.0 {
        velocity = 0.0;
    }
    MountainCarState { position, velocity }
}

/// Whether `state` is at the goal (both comparisons evaluated, so that a loop over states
/// needs no branch).
#[inline(always)]
fn reaches_goal(params: &MountainCarParams, state: &MountainCarState) -> bool {
    (state.position >= params.goal_position) & (state.velocity >= params.goal_velocity)
}

/// Gymnasium's action 0: accelerate to the left.
pub const ACCELERATE_LEFT: i64 = 0;
/// Gymnasium's action 1: do not accelerate.
pub const NO_ACCELERATION: i64 = 1;
/// Gymnasium's action 2: accelerate to the right.
pub const ACCELERATE_RIGHT: i64 = 2;

/// MountainCar: Gymnasium 1.4.0's `MountainCar-v0` as a [`Domain`].
///
#[doc = include_str!("mountain_car.md")]
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_domains::mountain_car::{MountainCar, MountainCarParams, NO_ACCELERATION};
///
/// let mut env = Simulator::new(MountainCar::new(MountainCarParams::default())?, 3);
/// let [position, velocity] = env.reset(Mode::Training)?;
/// assert!((-0.6..-0.4).contains(&position) && velocity == 0.0);
/// // Idling never reaches the goal: the time limit truncates the episode after 200 steps.
/// let mut steps = 0;
/// while !env.step(&NO_ACCELERATION)?.is_done() {
///     steps += 1;
/// }
/// assert_eq!(steps + 1, 200);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MountainCar {
    params: MountainCarParams,
    observation_space: ArrayBox<f32, 2>,
    action_space: Discrete,
}

impl MountainCar {
    /// The domain with `params`, after [`MountainCarParams::validate`].
    pub fn new(params: MountainCarParams) -> Result<MountainCar, Error> {
        params.validate()?;
        Ok(MountainCar {
            params,
            observation_space: valley_observation_space(
                params.min_position,
                params.max_position,
                params.max_speed,
            )?,
            action_space: Discrete::new(3)?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &MountainCarParams {
        &self.params
    }
}

/// Gymnasium's observation space of both MountainCar variants.
pub(crate) fn valley_observation_space(
    min_position: f64,
    max_position: f64,
    max_speed: f64,
) -> Result<ArrayBox<f32, 2>, Error> {
    Ok(ArrayBox::new(
        [min_position as f32, -max_speed as f32],
        [max_position as f32, max_speed as f32],
    )?)
}

impl Domain for MountainCar {
    type State = MountainCarState;
    type Observation = [f32; 2];
    type Action = i64;
    type ObservationSpace = ArrayBox<f32, 2>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f32, 2> {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> MountainCarState {
        let (low, high) = (self.params.reset_low, self.params.reset_high);
        MountainCarState {
            position: uniform(rng, low, high),
            velocity: 0.0,
        }
    }

    /// [`mountain_car_step`]; an action outside 0..=2 (which the simulator never passes) is
    /// treated as 1, no acceleration.
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &MountainCarState,
        action: &i64,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<MountainCarState> {
        mountain_car_step(&self.params, state, known_action(*action))
    }

    #[inline]
    fn observe(&self, state: &MountainCarState) -> [f32; 2] {
        state.to_observation()
    }

    fn is_terminal(&self, state: &MountainCarState) -> bool {
        state.position >= self.params.goal_position && state.velocity >= self.params.goal_velocity
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

impl DeterministicTransitions for MountainCar {}

/// MountainCar's kernel: a block of states in local arrays, the cosines of their positions
/// taken first (library calls), then the rest of the step in a loop the compiler turns into
/// vector instructions, with the operations of [`mountain_car_step`] in its order (the same
/// `dynamics`).
impl BlockStep for MountainCar {
    type Lanes = MountainCarLanes;

    #[inline(always)]
    fn load(
        &self,
        lanes: &mut MountainCarLanes,
        lane: usize,
        state: &MountainCarState,
        action: &i64,
    ) {
        lanes.positions[lane] = state.position;
        lanes.velocities[lane] = state.velocity;
        lanes.directions[lane] = f64::from(known_action(*action)) - 1.0;
    }

    #[inline(always)]
    fn step_block(
        &self,
        lanes: &mut MountainCarLanes,
        len: usize,
        _: Mode,
        results: &mut LaneResults,
    ) {
        let len = len.min(BLOCK);
        for (position, cosine) in lanes
            .positions
            .iter()
            .zip(lanes.cosines.iter_mut())
            .take(len)
        {
            *cosine = trig::cos(3.0 * *position);
        }
        // A local copy, so that the compiler sees that no store of the loop changes it.
        let params = self.params;
        for lane in 0..len {
            let state = MountainCarState {
                position: lanes.positions[lane],
                velocity: lanes.velocities[lane],
            };
            let next = dynamics(&params, &state, lanes.directions[lane], lanes.cosines[lane]);
            let terminated = reaches_goal(&params, &next);
            lanes.positions[lane] = next.position;
            lanes.velocities[lane] = next.velocity;
            results.terminated[lane] = terminated;
            results.rewards[lane] = reward(&params, terminated);
        }
    }

    #[inline(always)]
    fn store(&self, lanes: &MountainCarLanes, lane: usize) -> MountainCarState {
        MountainCarState {
            position: lanes.positions[lane],
            velocity: lanes.velocities[lane],
        }
    }
}

/// The lanes of MountainCar's kernel ([`BlockStep::Lanes`]): a block of states, their pushes
/// (`action - 1`) and the cosines `cos(3 * position)`.
#[derive(Debug, Clone)]
pub struct MountainCarLanes {
    positions: [f64; BLOCK],
    velocities: [f64; BLOCK],
    directions: [f64; BLOCK],
    cosines: [f64; BLOCK],
}

impl Default for MountainCarLanes {
    fn default() -> Self {
        MountainCarLanes {
            positions: [0.0; BLOCK],
            velocities: [0.0; BLOCK],
            directions: [0.0; BLOCK],
            cosines: [0.0; BLOCK],
        }
    }
}

impl Render for MountainCar {
    /// The track as a line from `min_position` to `max_position` with the goal flag (`F`)
    /// and the car (`C`), then the position and velocity.
    fn render_text(&self, state: &MountainCarState) -> String {
        render_valley_text(&self.valley(), state.position, state.velocity)
    }

    /// Gymnasium's picture: the hill `0.45 sin(3x) + 0.55` (`hill`), the flag at the goal
    /// (`flag-pole` and `flag`) and the car (`car`, tilted with the slope), with the state
    /// as a caption.
    fn render_svg(&self, state: &MountainCarState) -> String {
        render_valley_svg(
            "MountainCar",
            &self.valley(),
            state.position,
            state.velocity,
        )
    }
}

impl MountainCar {
    fn valley(&self) -> Valley {
        Valley {
            min_position: self.params.min_position,
            max_position: self.params.max_position,
            goal_position: self.params.goal_position,
        }
    }
}

/// The extent of the track and the goal, for the pictures of both MountainCar variants.
pub(crate) struct Valley {
    pub(crate) min_position: f64,
    pub(crate) max_position: f64,
    pub(crate) goal_position: f64,
}

/// The width of the text picture's track, in characters.
const TEXT_TRACK_WIDTH: usize = 41;

/// The column of `position` on a text track of [`TEXT_TRACK_WIDTH`] characters.
fn text_column(valley: &Valley, position: f64) -> usize {
    let fraction =
        (position - valley.min_position) / (valley.max_position - valley.min_position).max(1e-12);
    let last = TEXT_TRACK_WIDTH - 1;
    // The float-to-integer cast saturates, so NaN and far positions land at an end.
    ((fraction * last as f64).round().max(0.0) as usize).min(last)
}

/// The text picture of both MountainCar variants.
pub(crate) fn render_valley_text(valley: &Valley, position: f64, velocity: f64) -> String {
    let goal = text_column(valley, valley.goal_position);
    let car = text_column(valley, position);
    let track: String = (0..TEXT_TRACK_WIDTH)
        .map(|column| match column {
            c if c == car => 'C',
            c if c == goal => 'F',
            _ => '_',
        })
        .collect();
    format!("|{track}|\nposition = {position:+.4}, velocity = {velocity:+.5}\n")
}

/// The height of the hill at `position`, as Gymnasium draws it.
fn hill_height(position: f64) -> f64 {
    (3.0 * position).sin() * 0.45 + 0.55
}

/// The SVG picture of both MountainCar variants (Gymnasium's 600 by 400 frame).
pub(crate) fn render_valley_svg(
    title: &str,
    valley: &Valley,
    position: f64,
    velocity: f64,
) -> String {
    const WIDTH: f64 = 600.0;
    const HEIGHT: f64 = 400.0;
    const CAR_WIDTH: f64 = 40.0;
    const CAR_HEIGHT: f64 = 20.0;
    const CLEARANCE: f64 = 10.0;
    let scale = WIDTH / (valley.max_position - valley.min_position);
    let screen_x = |x: f64| (x - valley.min_position) * scale;
    let screen_y = |x: f64| HEIGHT - hill_height(x) * scale;

    let mut svg = Svg::new(WIDTH, HEIGHT, title);
    let points: Vec<String> = (0..=100)
        .map(|index| {
            let x = valley.min_position
                + (valley.max_position - valley.min_position) * f64::from(index) / 100.0;
            format!("{},{}", number(screen_x(x)), number(screen_y(x)))
        })
        .collect();
    svg.element(
        "polyline",
        "hill",
        &[
            ("points", points.join(" ")),
            ("fill", "none".to_owned()),
            ("stroke", "#000000".to_owned()),
            ("stroke-width", "2".to_owned()),
        ],
    );
    let flag_x = screen_x(valley.goal_position);
    let flag_bottom = screen_y(valley.goal_position);
    svg.element(
        "line",
        "flag-pole",
        &[
            ("x1", number(flag_x)),
            ("y1", number(flag_bottom)),
            ("x2", number(flag_x)),
            ("y2", number(flag_bottom - 50.0)),
            ("stroke", "#000000".to_owned()),
        ],
    );
    svg.element(
        "polygon",
        "flag",
        &[
            (
                "points",
                format!(
                    "{},{} {},{} {},{}",
                    number(flag_x),
                    number(flag_bottom - 50.0),
                    number(flag_x),
                    number(flag_bottom - 40.0),
                    number(flag_x + 25.0),
                    number(flag_bottom - 45.0)
                ),
            ),
            ("fill", "#cccc00".to_owned()),
        ],
    );
    // The slope of the drawn hill, in screen degrees (y grows downwards, so a rising hill
    // turns the car counter-clockwise).
    let slope_degrees = -(1.35 * (3.0 * position).cos()).atan().to_degrees();
    svg.element(
        "rect",
        "car",
        &[
            ("x", number(-CAR_WIDTH / 2.0)),
            ("y", number(-CAR_HEIGHT - CLEARANCE)),
            ("width", number(CAR_WIDTH)),
            ("height", number(CAR_HEIGHT)),
            ("fill", "#000000".to_owned()),
            (
                "transform",
                format!(
                    "translate({} {}) rotate({})",
                    number(screen_x(position)),
                    number(screen_y(position)),
                    number(slope_degrees)
                ),
            ),
        ],
    );
    svg.text(
        "caption",
        &[("x", "10".to_owned()), ("y", "24".to_owned())],
        &format!("position = {position:+.4}, velocity = {velocity:+.5}"),
    );
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rl_core::NumpyGenerator;

    #[test]
    fn every_instruction_set_of_the_kernel_gives_the_bits_of_domain_step() {
        let car = MountainCar::new(MountainCarParams::default()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(9);
        // Several blocks and a partial one; starting states, states at the walls and the goal,
        // fast ones that the speed limit clips, non-finite ones, and actions out of range.
        let states: Vec<MountainCarState> = (0..300)
            .map(|i| {
                let mut state = car.initial_state(Mode::Training, &mut rng);
                state.velocity = f64::from(i % 13) * 0.015 - 0.09;
                if i % 7 == 0 {
                    state.position = [-1.2, 0.6, 0.5, -1.3][i as usize / 7 % 4];
                }
                if i % 59 == 0 {
                    state.position = f64::NAN;
                }
                state
            })
            .collect();
        let actions: Vec<i64> = (0..300)
            .map(|i| i64::from(i % 4) - i64::from(i % 23 == 0))
            .collect();
        assert_eq!(rl_core::check_block_kernel(&car, &states, &actions), Ok(()));
    }

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
        assert_eq!(step.value.reward(), -1.0);
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
