//! The replay engine: every recorded step or table entry checked against `rl-domains`,
//! through the step functions (per step and as a rollout) and through the domain types and
//! the [`Simulator`](rl_core::Simulator), every difference reported as a [`Mismatch`].

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use rl_core::{Domain, StepOutcome};
use rl_domains::acrobot::{Acrobot, AcrobotState, acrobot_step, action_torque};
use rl_domains::cartpole::{CartPole, CartPoleState, cartpole_step};
use rl_domains::gridworld::{
    self, ActionSet, CellKind, GridAction, GridCell, GridMap, GridWorldParams, expected_step,
    possible_actions, step_distribution, step_with_action,
};
use rl_domains::mountain_car::{MountainCar, MountainCarState, mountain_car_step};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousState, StatePrecision, mountain_car_continuous_step,
};
use rl_domains::pendulum::{Pendulum, PendulumState, pendulum_step};

use crate::domain_paths::{
    Conversions, check_gridworld_table_domain, check_gridworld_trace_domain, check_gymnasium_domain,
};

use crate::error::ReferenceError;
use crate::schema::{
    GridWorldTableEntry, GridWorldTrace, GridWorldTraceStep, GymnasiumStep, GymnasiumTrace,
    PROBABILITY_TOLERANCE, RecordedMap, RecordedNoiseLevel, ReferenceContent, ReferenceFile,
    grid_map_from_recorded, load_reference_file,
};
use crate::seeded;

/// How a trace step was reached in the replay: the replay path (see the
/// [crate documentation](crate)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReplayMode {
    /// The domain's step function, from the recorded `state`.
    PerStep,
    /// The domain's step function, from its own previous state, starting at `initial_state`.
    Rollout,
    /// `Domain::step` and `Domain::observe`, from the recorded `state`.
    DomainPerStep,
    /// The `Simulator`, reset to `initial_state` (GridWorld: reset), then stepped with the
    /// recorded actions.
    SimulatorRollout,
    /// numpy's generator ([`NumpyGenerator`](rl_core::NumpyGenerator)), call by call.
    Generator,
    /// The environment made by id (a `Simulator`), seeded and reset as the trace's segments
    /// say, then stepped with the recorded actions.
    SeededSimulator,
    /// A seeded space ([`SeededSampler`](rl_spaces::SeededSampler)), draw by draw.
    SeededSpace,
    /// The vector made by id (`rl_wrappers::vector::make_vector`) on this many threads.
    Vector {
        /// The number of threads.
        threads: usize,
    },
}

impl fmt::Display for ReplayMode {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            ReplayMode::PerStep => "per step",
            ReplayMode::Rollout => "rollout",
            ReplayMode::DomainPerStep => "domain, per step",
            ReplayMode::SimulatorRollout => "simulator rollout",
            ReplayMode::Generator => "numpy generator",
            ReplayMode::SeededSimulator => "seeded simulator by id",
            ReplayMode::SeededSpace => "seeded space",
            ReplayMode::Vector { threads: 1 } => "vector by id, 1 thread",
            ReplayMode::Vector { threads } => {
                return write!(formatter, "vector by id, {threads} threads");
            }
        })
    }
}

/// Where a mismatch was found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MismatchLocation {
    /// The file as a whole (for example a recorded map).
    File,
    /// A trace as a whole (its length, end, initial observation or return).
    Trace {
        /// The trace's identifier.
        trace: String,
    },
    /// One step of a trace.
    Step {
        /// The trace's identifier.
        trace: String,
        /// The step index.
        t: usize,
        /// How the step was reached.
        mode: ReplayMode,
    },
    /// A transition table entry, at one noise level when `noise` is set.
    TableEntry {
        /// The entry's identifier.
        entry: String,
        /// The noise level as written in the file.
        noise: Option<String>,
    },
}

impl fmt::Display for MismatchLocation {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MismatchLocation::File => formatter.write_str("file"),
            MismatchLocation::Trace { trace } => write!(formatter, "trace {trace}"),
            MismatchLocation::Step { trace, t, mode } => {
                write!(formatter, "trace {trace}, step {t} ({mode})")
            }
            MismatchLocation::TableEntry { entry, noise: None } => {
                write!(formatter, "entry {entry}")
            }
            MismatchLocation::TableEntry {
                entry,
                noise: Some(noise),
            } => write!(formatter, "entry {entry}, noise {noise}"),
        }
    }
}

/// One difference between a reference file and this crate.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Where it was found.
    pub location: MismatchLocation,
    /// The field that differs, for example `next_state[2]` or `obs[0]`.
    pub field: String,
    /// The recorded value (floats with their bit patterns).
    pub expected: String,
    /// This crate's value.
    pub actual: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{}: {}: expected {}, got {}",
            self.location, self.field, self.expected, self.actual
        )
    }
}

/// What a replay counts: the steps of traces or the entries of a transition table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckedItems {
    /// Recorded trace steps.
    Steps,
    /// Transition table entries.
    Entries,
    /// Samples of seeded spaces.
    Draws,
}

impl CheckedItems {
    /// The plural noun for reports: `steps` or `entries`.
    pub fn noun(self) -> &'static str {
        match self {
            CheckedItems::Steps => "steps",
            CheckedItems::Entries => "entries",
            CheckedItems::Draws => "draws",
        }
    }
}

/// The outcome of [`replay`].
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// The file's name.
    pub name: String,
    /// Whether [`steps_checked`](Self::steps_checked) counts trace steps or table entries.
    pub items: CheckedItems,
    /// The number of recorded steps (traces) or entries (tables) checked; each trace step
    /// counts once although it is checked both per step and in the rollout.
    pub steps_checked: usize,
    /// The number of individual values compared.
    pub values_compared: usize,
    /// Every difference found.
    pub mismatches: Vec<Mismatch>,
}

impl ReplayReport {
    /// Whether the replay found no difference.
    pub fn is_match(&self) -> bool {
        self.mismatches.is_empty()
    }

    /// The report's one-line summary: `NAME: N steps checked, M mismatches` (or
    /// `N entries checked` for a transition table).
    pub fn summary(&self) -> String {
        format!(
            "{}: {} {} checked, {} mismatches",
            self.name,
            self.steps_checked,
            self.items.noun(),
            self.mismatches.len()
        )
    }
}

/// Reads a reference file and replays it ([`load_reference_file`], then [`replay`]): what
/// the `replay` example and a command line run per file.
///
/// Fails with a typed error when the file cannot be read, is not of the schema, or names a
/// domain, variant or override this crate does not know; differences are not errors but
/// the report's mismatches.
pub fn replay_file(path: impl AsRef<Path>) -> Result<ReplayReport, ReferenceError> {
    load_reference_file(path).map(|file| replay(&file))
}

/// Replays every file and describes the results as text: per file the line of
/// [`ReplayReport::summary`] (or `FILE: error: ...` when the file cannot be read, parsed or
/// resolved), then up to `shown` mismatches, each on its own indented line. A JSON file of
/// another kind (such as `gymnasium_spaces.json`, [`ReferenceError::NotATrace`]) is skipped
/// with the line `skipped FILE: not a transition trace` and does not count as a failure.
/// Returns the text and whether every file replayed without a mismatch. The replay example
/// and `rl replay` print this.
pub fn replay_files_report<P: AsRef<Path>>(files: &[P], shown: usize) -> (String, bool) {
    let mut text = String::new();
    let mut all_match = true;
    for file in files {
        match replay_file(file) {
            Ok(report) => {
                text.push_str(&report.summary());
                text.push('\n');
                for mismatch in report.mismatches.iter().take(shown) {
                    text.push_str(&format!("  {mismatch}\n"));
                }
                if report.mismatches.len() > shown {
                    text.push_str(&format!(
                        "  ... and {} more\n",
                        report.mismatches.len() - shown
                    ));
                }
                all_match &= report.is_match();
            }
            Err(ReferenceError::NotATrace { file }) => {
                text.push_str(&format!("skipped {file}: not a transition trace\n"));
            }
            Err(error) => {
                text.push_str(&format!("{}: error: {error}\n", file.as_ref().display()));
                all_match = false;
            }
        }
    }
    (text, all_match)
}

/// Collects comparisons and mismatches during a replay.
pub(crate) struct Checker {
    steps_checked: usize,
    values_compared: usize,
    mismatches: Vec<Mismatch>,
}

impl Checker {
    /// Counts one recorded step (or call) as checked.
    pub(crate) fn count_step(&mut self) {
        self.steps_checked += 1;
    }

    /// Counts one comparison, and records a mismatch when the values differ.
    pub(crate) fn record(
        &mut self,
        equal: bool,
        location: &MismatchLocation,
        field: &str,
        expected: String,
        actual: String,
    ) {
        self.values_compared += 1;
        if !equal {
            self.mismatches.push(Mismatch {
                location: location.clone(),
                field: field.to_owned(),
                expected,
                actual,
            });
        }
    }

    /// Compares float64 values bit for bit.
    pub(crate) fn bits(
        &mut self,
        location: &MismatchLocation,
        field: &str,
        expected: f64,
        actual: f64,
    ) {
        self.record(
            expected.to_bits() == actual.to_bits(),
            location,
            field,
            float_text(expected),
            float_text(actual),
        );
    }

    /// Compares a recorded float32 value (stored as float64) with a float32 bit for bit.
    pub(crate) fn bits32(
        &mut self,
        location: &MismatchLocation,
        field: &str,
        expected: f64,
        actual: f32,
    ) {
        self.bits(location, field, expected, f64::from(actual));
    }

    /// Compares probabilities within [`PROBABILITY_TOLERANCE`].
    pub(crate) fn close(
        &mut self,
        location: &MismatchLocation,
        field: &str,
        expected: f64,
        actual: f64,
    ) {
        self.record(
            (expected - actual).abs() <= PROBABILITY_TOLERANCE,
            location,
            field,
            float_text(expected),
            float_text(actual),
        );
    }

    /// Compares a step's reward (bit for bit) and its `terminated` and `truncated` flags with
    /// the recorded ones.
    pub(crate) fn reward_and_flags<O>(
        &mut self,
        location: &MismatchLocation,
        (reward, terminated, truncated): (f64, bool, bool),
        outcome: &StepOutcome<O>,
    ) {
        self.bits(location, "reward", reward, outcome.reward());
        self.equal(location, "terminated", terminated, outcome.terminated);
        self.equal(location, "truncated", truncated, outcome.truncated);
    }

    pub(crate) fn equal<T: PartialEq + fmt::Debug>(
        &mut self,
        location: &MismatchLocation,
        field: &str,
        expected: T,
        actual: T,
    ) {
        self.record(
            expected == actual,
            location,
            field,
            format!("{expected:?}"),
            format!("{actual:?}"),
        );
    }

    pub(crate) fn fail(
        &mut self,
        location: &MismatchLocation,
        field: &str,
        expected: String,
        actual: String,
    ) {
        self.record(false, location, field, expected, actual);
    }
}

fn float_text(value: f64) -> String {
    format!("{value:?} (bits {:#018x})", value.to_bits())
}

/// Replays a loaded reference file against this crate's dynamics.
pub fn replay(file: &ReferenceFile) -> ReplayReport {
    let mut checker = Checker {
        steps_checked: 0,
        values_compared: 0,
        mismatches: Vec::new(),
    };
    match &file.content {
        ReferenceContent::CartPole { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state, _| state.map(|value| value as f32),
                    |state, action, _| {
                        let push_right = match action {
                            0 => false,
                            1 => true,
                            _ => return None,
                        };
                        let step =
                            cartpole_step(params, &CartPoleState::from_array(*state), push_right);
                        Some(GymnasiumOutcome {
                            next_state: step.next_state.to_array(),
                            observation: step.next_state.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.value.reward(),
                            terminated: step.terminated,
                        })
                    },
                );
            }
            let conversions: Conversions<CartPole, 4, i64> = Conversions {
                state: |array, _| CartPoleState::from_array(*array),
                array: CartPoleState::to_array,
                action: |action| *action,
            };
            replay_domain(&mut checker, CartPole::new(*params), traces, &conversions);
        }
        ReferenceContent::MountainCar { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state, _| state.map(|value| value as f32),
                    |state, action, _| {
                        let action = u8::try_from(*action).ok().filter(|action| *action <= 2)?;
                        let [position, velocity] = *state;
                        let step = mountain_car_step(
                            params,
                            &MountainCarState { position, velocity },
                            action,
                        );
                        let next = step.next_state;
                        Some(GymnasiumOutcome {
                            next_state: [next.position, next.velocity],
                            observation: next.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.value.reward(),
                            terminated: step.terminated,
                        })
                    },
                );
            }
            let conversions: Conversions<MountainCar, 2, i64> = Conversions {
                state: |[position, velocity], _| MountainCarState {
                    position: *position,
                    velocity: *velocity,
                },
                array: |state| [state.position, state.velocity],
                action: |action| *action,
            };
            replay_domain(
                &mut checker,
                MountainCar::new(*params),
                traces,
                &conversions,
            );
        }
        ReferenceContent::MountainCarContinuous { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state, _| state.map(|value| value as f32),
                    |state, action, precision| {
                        let [value] = *action;
                        let action = value as f32;
                        if f64::from(action).to_bits() != value.to_bits() && !value.is_nan() {
                            return None;
                        }
                        let [position, velocity] = *state;
                        let state = MountainCarContinuousState {
                            position,
                            velocity,
                            precision,
                        };
                        let step = mountain_car_continuous_step(params, &state, action);
                        let next = step.next_state;
                        Some(GymnasiumOutcome {
                            next_state: [next.position, next.velocity],
                            observation: next.to_observation(),
                            precision: next.precision,
                            reward: step.value.reward(),
                            terminated: step.terminated,
                        })
                    },
                );
            }
            let conversions: Conversions<MountainCarContinuous, 2, [f64; 1]> = Conversions {
                state: |[position, velocity], precision| MountainCarContinuousState {
                    position: *position,
                    velocity: *velocity,
                    precision,
                },
                array: |state| [state.position, state.velocity],
                action: |[value]| [*value as f32],
            };
            replay_domain(
                &mut checker,
                MountainCarContinuous::new(*params),
                traces,
                &conversions,
            );
        }
        ReferenceContent::Acrobot { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |state, precision| {
                        AcrobotState {
                            precision,
                            ..AcrobotState::from_array(*state)
                        }
                        .to_observation()
                    },
                    |state, action, _| {
                        if !(0..=2).contains(action) {
                            return None;
                        }
                        let step = acrobot_step(
                            params.dynamics,
                            &AcrobotState::from_array(*state),
                            action_torque(*action),
                        );
                        Some(GymnasiumOutcome {
                            next_state: step.next_state.to_array(),
                            observation: step.next_state.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.value.reward(),
                            terminated: step.terminated,
                        })
                    },
                );
            }
            let conversions: Conversions<Acrobot, 4, i64> = Conversions {
                state: |array, precision| AcrobotState {
                    precision,
                    ..AcrobotState::from_array(*array)
                },
                array: AcrobotState::to_array,
                action: |action| *action,
            };
            replay_domain(&mut checker, Acrobot::new(*params), traces, &conversions);
        }
        ReferenceContent::Pendulum { params, traces } => {
            for trace in traces {
                replay_gymnasium(
                    &mut checker,
                    trace,
                    params.max_episode_steps,
                    |[theta, theta_dot], _| {
                        PendulumState {
                            theta: *theta,
                            theta_dot: *theta_dot,
                        }
                        .to_observation()
                    },
                    |state, action, _| {
                        let [value] = *action;
                        let action = value as f32;
                        if f64::from(action).to_bits() != value.to_bits() && !value.is_nan() {
                            return None;
                        }
                        let [theta, theta_dot] = *state;
                        let step =
                            pendulum_step(params, &PendulumState { theta, theta_dot }, action);
                        let next = step.next_state;
                        Some(GymnasiumOutcome {
                            next_state: [next.theta, next.theta_dot],
                            observation: next.to_observation(),
                            precision: StatePrecision::Float64,
                            reward: step.value.reward(),
                            terminated: false,
                        })
                    },
                );
            }
            let conversions: Conversions<Pendulum, 2, [f64; 1]> = Conversions {
                state: |[theta, theta_dot], _| PendulumState {
                    theta: *theta,
                    theta_dot: *theta_dot,
                },
                array: |state| [state.theta, state.theta_dot],
                action: |[value]| [*value as f32],
            };
            replay_domain(&mut checker, Pendulum::new(*params), traces, &conversions);
        }
        ReferenceContent::GridWorldTraces {
            params,
            maps,
            traces,
        } => {
            replay_gridworld_traces(&mut checker, params, maps, traces);
        }
        ReferenceContent::GridWorldTable {
            map_name,
            map,
            noise_levels,
            entries,
        } => {
            replay_gridworld_table(&mut checker, map_name, map, noise_levels, entries);
            // Loading already checked that the recorded map parses.
            if let Ok(map) = grid_map_from_recorded(map_name, map) {
                check_gridworld_table_domain(&mut checker, &map, noise_levels, entries);
            }
        }
        ReferenceContent::NumpyGenerator { cases } => {
            for case in cases {
                seeded::replay_numpy_case(&mut checker, case);
            }
        }
        ReferenceContent::SeededSingle { traces } => {
            rl_domains::register_builtins();
            for trace in traces {
                seeded::replay_seeded_single(&mut checker, trace);
            }
        }
        ReferenceContent::SeededVector { traces } => {
            rl_domains::register_builtins();
            for trace in traces {
                seeded::replay_seeded_vector(&mut checker, trace);
            }
        }
        ReferenceContent::SeededMiniGrid { traces } => {
            for trace in traces {
                crate::minigrid::replay_minigrid_trace(&mut checker, trace);
            }
        }
        ReferenceContent::SeededSpaceSamples { cases } => {
            for case in cases {
                crate::space_samples::replay_space_case(&mut checker, case);
            }
        }
    }
    let items = match &file.content {
        ReferenceContent::GridWorldTable { .. } => CheckedItems::Entries,
        ReferenceContent::SeededSpaceSamples { .. } => CheckedItems::Draws,
        _ => CheckedItems::Steps,
    };
    ReplayReport {
        name: file.name.clone(),
        items,
        steps_checked: checker.steps_checked,
        values_compared: checker.values_compared,
        mismatches: checker.mismatches,
    }
}

/// Replays `traces` through the domain built from the file's parameters (see
/// [`check_gymnasium_domain`]); a domain that cannot be built is a mismatch of the file.
fn replay_domain<D, const N: usize, const M: usize, A>(
    checker: &mut Checker,
    domain: Result<D, rl_domains::Error>,
    traces: &[GymnasiumTrace<[f64; N], A, [f64; M]>],
    conversions: &Conversions<D, N, A>,
) where
    D: Domain<Observation = [f32; M]> + Clone,
    D::State: Copy,
    D::Action: fmt::Debug,
{
    match domain {
        Ok(domain) => {
            for trace in traces {
                check_gymnasium_domain(checker, &domain, trace, conversions);
            }
        }
        Err(error) => checker.fail(
            &MismatchLocation::File,
            "domain",
            "a domain built from the file's parameters".to_owned(),
            error.to_string(),
        ),
    }
}

/// What a Gymnasium step function produced, in the trace's terms.
struct GymnasiumOutcome<const N: usize, const M: usize = N> {
    next_state: [f64; N],
    observation: [f32; M],
    precision: StatePrecision,
    reward: f64,
    terminated: bool,
}

/// Replays one Gymnasium trace per step and as a rollout. `observe` gives the observation
/// of a state held in the given precision (checked against the initial observation); `step`
/// returns `None` for an action the domain cannot take, which is reported as a mismatch.
fn replay_gymnasium<const N: usize, const M: usize, A: fmt::Debug>(
    checker: &mut Checker,
    trace: &GymnasiumTrace<[f64; N], A, [f64; M]>,
    max_episode_steps: u64,
    observe: impl Fn(&[f64; N], StatePrecision) -> [f32; M],
    step: impl Fn(&[f64; N], &A, StatePrecision) -> Option<GymnasiumOutcome<N, M>>,
) {
    let trace_location = MismatchLocation::Trace {
        trace: trace.id.clone(),
    };
    check_trace_shape(
        checker,
        &trace_location,
        trace.length,
        trace.actions.len(),
        trace.steps.len(),
    );
    let initial_precision = trace.initial_state_dtype.unwrap_or(StatePrecision::Float64);
    if let Some(initial_obs) = &trace.initial_obs {
        let observation = observe(&trace.initial_state, initial_precision);
        for (index, (expected, value)) in initial_obs.iter().zip(&observation).enumerate() {
            checker.bits32(
                &trace_location,
                &format!("initial_obs[{index}]"),
                *expected,
                *value,
            );
        }
    }

    // Per step: from each recorded state.
    for (index, recorded) in trace.steps.iter().enumerate() {
        checker.steps_checked += 1;
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::PerStep,
        };
        checker.equal(&location, "t", index, recorded.t);
        if let Some(action) = trace.actions.get(index) {
            checker.equal(
                &location,
                "action",
                format!("{action:?}"),
                format!("{:?}", recorded.action),
            );
        }
        // Without a recorded dtype, the state is as reset left it at step 0 and float32
        // afterwards (only MountainCarContinuous distinguishes the two).
        let precision = recorded.state_dtype.unwrap_or(if index == 0 {
            initial_precision
        } else {
            StatePrecision::Float32
        });
        match step(&recorded.state, &recorded.action, precision) {
            Some(outcome) => check_gymnasium_step(
                checker,
                &location,
                recorded,
                &outcome,
                max_episode_steps,
                index,
            ),
            None => checker.fail(
                &location,
                "action",
                format!("{:?}", recorded.action),
                "not a valid action".to_owned(),
            ),
        }
    }

    // Rollout: from the initial state, feeding this crate's states forward.
    let mut state = trace.initial_state;
    let mut precision = initial_precision;
    for (index, (action, recorded)) in trace.actions.iter().zip(&trace.steps).enumerate() {
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::Rollout,
        };
        for (component, (expected, actual)) in recorded.state.iter().zip(&state).enumerate() {
            checker.bits(
                &location,
                &format!("state[{component}]"),
                *expected,
                *actual,
            );
        }
        if let Some(expected) = recorded.state_dtype {
            checker.equal(&location, "state_dtype", expected, precision);
        }
        match step(&state, action, precision) {
            Some(outcome) => {
                check_gymnasium_step(
                    checker,
                    &location,
                    recorded,
                    &outcome,
                    max_episode_steps,
                    index,
                );
                state = outcome.next_state;
                precision = outcome.precision;
            }
            None => {
                checker.fail(
                    &location,
                    "action",
                    format!("{action:?}"),
                    "not a valid action".to_owned(),
                );
                break;
            }
        }
    }

    if let (Some(end), Some(last)) = (&trace.end, trace.steps.last()) {
        let expected = match end.as_str() {
            "terminated" => Some((true, false)),
            "truncated" => Some((false, true)),
            "both" => Some((true, true)),
            "cutoff" => Some((false, false)),
            _ => None,
        };
        match expected {
            Some(flags) => checker.equal(
                &trace_location,
                &format!("end `{end}` (terminated, truncated) of the last step"),
                flags,
                (last.terminated, last.truncated),
            ),
            None => checker.fail(
                &trace_location,
                "end",
                end.clone(),
                "a known end".to_owned(),
            ),
        }
    }
}

fn check_trace_shape(
    checker: &mut Checker,
    location: &MismatchLocation,
    length: Option<usize>,
    actions: usize,
    steps: usize,
) {
    if let Some(length) = length {
        checker.equal(location, "length (number of steps)", length, steps);
    }
    checker.equal(location, "number of actions", steps, actions);
}

fn check_gymnasium_step<const N: usize, const M: usize, A>(
    checker: &mut Checker,
    location: &MismatchLocation,
    recorded: &GymnasiumStep<[f64; N], A, [f64; M]>,
    outcome: &GymnasiumOutcome<N, M>,
    max_episode_steps: u64,
    index: usize,
) {
    for (component, (expected, actual)) in recorded
        .next_state
        .iter()
        .zip(&outcome.next_state)
        .enumerate()
    {
        checker.bits(
            location,
            &format!("next_state[{component}]"),
            *expected,
            *actual,
        );
    }
    for (component, (expected, actual)) in recorded.obs.iter().zip(&outcome.observation).enumerate()
    {
        checker.bits32(location, &format!("obs[{component}]"), *expected, *actual);
    }
    checker.bits(location, "reward", recorded.reward, outcome.reward);
    checker.equal(
        location,
        "terminated",
        recorded.terminated,
        outcome.terminated,
    );
    let truncated = (index as u64).saturating_add(1) >= max_episode_steps;
    checker.equal(location, "truncated", recorded.truncated, truncated);
}

fn cell_of(state: [usize; 2]) -> GridCell {
    GridCell::new(state[0], state[1])
}

fn action_indices(set: ActionSet) -> Vec<i64> {
    set.iter().map(|action| action.index() as i64).collect()
}

fn grid_action(index: i64) -> Option<GridAction> {
    usize::try_from(index).ok().and_then(GridAction::from_index)
}

fn check_recorded_map(
    checker: &mut Checker,
    location: &MismatchLocation,
    name: &str,
    recorded: &RecordedMap,
    map: &GridMap,
) {
    if let Some(rows) = recorded.rows {
        checker.equal(location, &format!("maps[{name}].rows"), rows, map.rows());
    }
    if let Some(cols) = recorded.cols {
        checker.equal(location, &format!("maps[{name}].cols"), cols, map.cols());
    }
    if let Some(start) = recorded.start {
        checker.equal(
            location,
            &format!("maps[{name}].start"),
            cell_of(start),
            map.start(),
        );
    }
    if let Some(states_num) = recorded.states_num {
        checker.equal(
            location,
            &format!("maps[{name}].states_num"),
            states_num,
            map.cell_count(),
        );
    }
}

fn replay_gridworld_traces(
    checker: &mut Checker,
    params: &GridWorldParams,
    maps: &BTreeMap<String, RecordedMap>,
    traces: &[GridWorldTrace],
) {
    let mut grid_maps = BTreeMap::new();
    for (name, recorded) in maps {
        // Loading already checked that every recorded map parses.
        if let Ok(map) = grid_map_from_recorded(name, recorded) {
            check_recorded_map(checker, &MismatchLocation::File, name, recorded, &map);
            grid_maps.insert(name.as_str(), map);
        }
    }
    for trace in traces {
        let trace_location = MismatchLocation::Trace {
            trace: trace.id.clone(),
        };
        let Some(map) = grid_maps.get(trace.map.as_str()) else {
            checker.fail(
                &trace_location,
                "map",
                trace.map.clone(),
                "no such map in the file".to_owned(),
            );
            continue;
        };
        check_trace_shape(
            checker,
            &trace_location,
            trace.length,
            trace.actions.len(),
            trace.steps.len(),
        );
        checker.equal(
            &trace_location,
            "initial_state",
            cell_of(trace.initial_state),
            map.start(),
        );

        for (index, recorded) in trace.steps.iter().enumerate() {
            checker.steps_checked += 1;
            let location = MismatchLocation::Step {
                trace: trace.id.clone(),
                t: recorded.t,
                mode: ReplayMode::PerStep,
            };
            checker.equal(&location, "t", index, recorded.t);
            if let Some(action) = trace.actions.get(index) {
                checker.equal(&location, "action", *action, recorded.action);
            }
            check_gridworld_step(checker, &location, map, cell_of(recorded.state), recorded);
        }
        check_gridworld_trace_domain(checker, params, map, trace);

        let mut cell = cell_of(trace.initial_state);
        let mut discount = 1.0;
        let mut discounted_return = 0.0;
        let mut last_terminal = false;
        for (action, recorded) in trace.actions.iter().zip(&trace.steps) {
            let location = MismatchLocation::Step {
                trace: trace.id.clone(),
                t: recorded.t,
                mode: ReplayMode::Rollout,
            };
            checker.equal(&location, "state", cell_of(recorded.state), cell);
            let recorded_with_action = GridWorldTraceStep {
                action: *action,
                ..recorded.clone()
            };
            let Some(step) =
                check_gridworld_step(checker, &location, map, cell, &recorded_with_action)
            else {
                break;
            };
            // The reference accumulates the return with a running discount, in this order.
            discounted_return += discount * step.reward;
            discount *= params.discount_factor;
            cell = step.next_cell;
            last_terminal = step.terminal;
        }
        if let Some(expected) = trace.return_discounted {
            checker.bits(
                &trace_location,
                "return_discounted",
                expected,
                discounted_return,
            );
        }
        if let Some(end) = &trace.end {
            let cap = usize::try_from(params.episode_cap).unwrap_or(usize::MAX);
            let length = trace.steps.len();
            let consistent = match end.as_str() {
                "terminal" => Some(last_terminal),
                "actions_exhausted" => Some(!last_terminal && length < cap),
                "episode_cap" => Some(!last_terminal && length == cap),
                _ => None,
            };
            match consistent {
                Some(consistent) => checker.equal(
                    &trace_location,
                    &format!("end `{end}` holds"),
                    true,
                    consistent,
                ),
                None => checker.fail(
                    &trace_location,
                    "end",
                    end.clone(),
                    "a known end".to_owned(),
                ),
            }
        }
    }
}

/// Checks one deterministic GridWorld step from `cell`; returns the step, or `None` when
/// the recorded action is not an action.
fn check_gridworld_step(
    checker: &mut Checker,
    location: &MismatchLocation,
    map: &GridMap,
    cell: GridCell,
    recorded: &GridWorldTraceStep,
) -> Option<gridworld::GridStep> {
    checker.equal(
        location,
        "possible_actions",
        recorded.possible_actions.clone(),
        action_indices(possible_actions(map, cell)),
    );
    let Some(action) = grid_action(recorded.action) else {
        checker.fail(
            location,
            "action",
            recorded.action.to_string(),
            "not an action (0 to 3)".to_owned(),
        );
        return None;
    };
    let step = step_with_action(map, cell, action);
    checker.equal(
        location,
        "next_state",
        cell_of(recorded.next_state),
        step.next_cell,
    );
    checker.equal(location, "moved", recorded.moved, step.next_cell != cell);
    checker.bits(location, "reward", recorded.reward, step.reward);
    checker.equal(location, "terminal", recorded.terminal, step.terminal);
    checker.equal(
        location,
        "possible_actions_next",
        recorded.possible_actions_next.clone(),
        action_indices(possible_actions(map, step.next_cell)),
    );
    Some(step)
}

fn replay_gridworld_table(
    checker: &mut Checker,
    map_name: &str,
    recorded_map: &RecordedMap,
    noise_levels: &[f64],
    entries: &[GridWorldTableEntry],
) {
    let Ok(map) = grid_map_from_recorded(map_name, recorded_map) else {
        checker.fail(
            &MismatchLocation::File,
            "grid",
            map_name.to_owned(),
            "a valid map".to_owned(),
        );
        return;
    };
    check_recorded_map(
        checker,
        &MismatchLocation::File,
        map_name,
        recorded_map,
        &map,
    );

    // Entries may cover only part of the (open cell, action) pairs: a `public` split
    // leaves out its `holdout` entries. Each entry must be such a pair.
    for entry in entries {
        checker.steps_checked += 1;
        let entry_location = MismatchLocation::TableEntry {
            entry: entry.id.clone(),
            noise: None,
        };
        let cell = cell_of(entry.state);
        let kind = map.kind(cell);
        checker.equal(
            &entry_location,
            "state is an open, non-terminal cell",
            true,
            kind.is_some_and(|kind| !kind.is_terminal() && kind != CellKind::Blocked),
        );
        let possible = possible_actions(&map, cell);
        checker.equal(
            &entry_location,
            "possible_actions",
            entry.possible_actions.clone(),
            action_indices(possible),
        );
        let Some(action) = grid_action(entry.action) else {
            checker.fail(
                &entry_location,
                "action",
                entry.action.to_string(),
                "not an action (0 to 3)".to_owned(),
            );
            continue;
        };
        checker.equal(
            &entry_location,
            "intended_action_possible",
            entry.intended_action_possible,
            possible.contains(action),
        );

        let mut parsed_levels = Vec::new();
        for (noise_text, recorded) in &entry.by_noise {
            let location = MismatchLocation::TableEntry {
                entry: entry.id.clone(),
                noise: Some(noise_text.clone()),
            };
            let Ok(noise) = noise_text.parse::<f64>() else {
                checker.fail(
                    &location,
                    "by_noise key",
                    noise_text.clone(),
                    "a number".to_owned(),
                );
                continue;
            };
            parsed_levels.push(noise);
            check_noise_level(checker, &location, &map, cell, action, noise, recorded);
        }
        for level in noise_levels {
            checker.equal(
                &entry_location,
                &format!("by_noise has noise {level}"),
                true,
                parsed_levels.contains(level),
            );
        }
    }
}

fn check_noise_level(
    checker: &mut Checker,
    location: &MismatchLocation,
    map: &GridMap,
    cell: GridCell,
    action: GridAction,
    noise: f64,
    recorded: &RecordedNoiseLevel,
) {
    let expected = expected_step(map, cell, action, noise);
    checker.equal(
        location,
        "expected_step length",
        recorded.expected_step.len(),
        expected.len(),
    );
    for (index, (recorded, ours)) in recorded
        .expected_step
        .iter()
        .zip(expected.iter())
        .enumerate()
    {
        let field = |name: &str| format!("expected_step[{index}].{name}");
        checker.close(location, &field("p"), recorded.p, ours.probability);
        checker.equal(
            location,
            &field("next_state"),
            cell_of(recorded.next_state),
            ours.next_cell,
        );
        checker.bits(location, &field("reward"), recorded.reward, ours.reward);
        checker.equal(
            location,
            &field("terminal"),
            recorded.terminal,
            ours.terminal,
        );
        checker.equal(
            location,
            &field("possible_actions_next"),
            recorded.possible_actions_next.clone(),
            action_indices(ours.possible_actions_next),
        );
        checker.equal(
            location,
            &field("via_action"),
            recorded.via_action,
            ours.via_action.index() as i64,
        );
    }
    let sum: f64 = expected.iter().map(|outcome| outcome.probability).sum();
    checker.close(
        location,
        "expected_step_p_sum",
        recorded.expected_step_p_sum,
        sum,
    );

    // The distribution is a set of outcomes keyed by next cell: match them by cell.
    let distribution = step_distribution(map, cell, action, noise);
    checker.equal(
        location,
        "step_distribution length",
        recorded.step_distribution.len(),
        distribution.len(),
    );
    for recorded in &recorded.step_distribution {
        let next_cell = cell_of(recorded.next_state);
        let field = |name: &str| format!("step_distribution[{next_cell}].{name}");
        match distribution
            .iter()
            .find(|outcome| outcome.next_cell == next_cell)
        {
            Some(ours) => {
                checker.close(location, &field("p"), recorded.p, ours.probability);
                checker.bits(location, &field("reward"), recorded.reward, ours.reward);
                checker.equal(
                    location,
                    &field("terminal"),
                    recorded.terminal,
                    ours.terminal,
                );
            }
            None => checker.fail(
                location,
                &field("p"),
                float_text(recorded.p),
                "no such outcome".to_owned(),
            ),
        }
    }
}
