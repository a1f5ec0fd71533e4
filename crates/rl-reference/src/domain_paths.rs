//! The replay paths through the domain types: every recorded step from its recorded state
//! through `Domain::step` and `Domain::observe`, every trace as a rollout through the
//! `Simulator` (reset to the recorded initial state, then the recorded actions, with the
//! simulator's own time limit), and GridWorld's applicable actions, enumerable transitions,
//! `expectedStep` and sampled frequencies.

use std::fmt;

use rand::SeedableRng;
use rl_core::NumpyGenerator;
use rl_core::{CoreError, Domain, EnumerableTransitions, Environment, Mode, Simulator};
use rl_domains::gridworld::{
    ExpectedStepVariant, GridAction, GridCell, GridMap, GridWorld, GridWorldParams,
};
use rl_domains::mountain_car_continuous::StatePrecision;
use rl_spaces::Space;

use crate::replay::{Checker, MismatchLocation, ReplayMode};
use crate::schema::{GridWorldTableEntry, GridWorldTrace, GymnasiumTrace};

/// How a Gymnasium domain's state, observation and action relate to a trace's arrays.
pub(crate) struct Conversions<D: Domain, const N: usize, A> {
    /// The domain state of a recorded state array in the precision it was recorded in.
    pub(crate) state: fn(&[f64; N], StatePrecision) -> D::State,
    /// The state array of a domain state.
    pub(crate) array: fn(&D::State) -> [f64; N],
    /// The domain action of a recorded action.
    pub(crate) action: fn(&A) -> D::Action,
}

/// Checks every step of `trace` from its recorded state through the domain
/// ([`ReplayMode::DomainPerStep`]), then the trace as a rollout through the simulator
/// ([`ReplayMode::SimulatorRollout`]). When the domain does not accept an action
/// ([`Domain::accepts_action`]), the simulator must reject it; the rollout then goes on through
/// `Domain::step`, as Gymnasium takes any action.
pub(crate) fn check_gymnasium_domain<D, const N: usize, const M: usize, A>(
    checker: &mut Checker,
    domain: &D,
    trace: &GymnasiumTrace<[f64; N], A, [f64; M]>,
    convert: &Conversions<D, N, A>,
) where
    D: Domain<Observation = [f32; M]> + Clone,
    D::State: Copy,
    D::Action: fmt::Debug,
{
    let mut rng = NumpyGenerator::seed_from_u64(0);
    let cap = domain.episode_cap().unwrap_or(u64::MAX);
    let initial_precision = trace.initial_state_dtype.unwrap_or(StatePrecision::Float64);
    for (index, recorded) in trace.steps.iter().enumerate() {
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::DomainPerStep,
        };
        let precision = recorded.state_dtype.unwrap_or(if index == 0 {
            initial_precision
        } else {
            StatePrecision::Float32
        });
        let state = (convert.state)(&recorded.state, precision);
        let action = (convert.action)(&recorded.action);
        let outcome = domain.step(&state, &action, Mode::Training, &mut rng);
        let next = (convert.array)(&outcome.next_state);
        for (component, (expected, actual)) in recorded.next_state.iter().zip(&next).enumerate() {
            checker.bits(
                &location,
                &format!("next_state[{component}]"),
                *expected,
                *actual,
            );
        }
        let observation = domain.observe(&outcome.next_state);
        for (component, (expected, actual)) in recorded.obs.iter().zip(&observation).enumerate() {
            checker.bits32(&location, &format!("obs[{component}]"), *expected, *actual);
        }
        checker.bits(&location, "reward", recorded.reward, outcome.value.reward());
        checker.equal(
            &location,
            "terminated",
            recorded.terminated,
            outcome.terminated,
        );
        checker.equal(
            &location,
            "is_terminal(next_state)",
            recorded.terminated,
            domain.is_terminal(&outcome.next_state),
        );
    }

    let trace_location = MismatchLocation::Trace {
        trace: trace.id.clone(),
    };
    let initial = (convert.state)(&trace.initial_state, initial_precision);
    let actions: Vec<D::Action> = trace.actions.iter().map(convert.action).collect();
    // The first action the simulator refuses: outside the action space and not accepted by the
    // domain (Pendulum and MountainCarContinuous accept any finite action, as Gymnasium clips).
    let first_outside = actions
        .iter()
        .position(|action| !domain.accepts_action(action));
    let mut env = Simulator::new(domain.clone(), 0);
    let observation = env.reset_to(initial, Mode::Training);
    if let Some(initial_obs) = &trace.initial_obs {
        for (component, (expected, actual)) in initial_obs.iter().zip(&observation).enumerate() {
            checker.bits32(
                &trace_location,
                &format!("simulator initial_obs[{component}]"),
                *expected,
                *actual,
            );
        }
    }
    let mut state = initial;
    for (index, (action, recorded)) in actions.iter().zip(&trace.steps).enumerate() {
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::SimulatorRollout,
        };
        let (observation, reward, terminated, truncated) = match first_outside {
            None => match env.step(action) {
                Ok(outcome) => {
                    if let Some(current) = env.state() {
                        state = *current;
                    }
                    (
                        outcome.observation,
                        outcome.reward(),
                        outcome.terminated,
                        outcome.truncated,
                    )
                }
                Err(error) => {
                    checker.fail(&location, "step", "a step".to_owned(), error.to_string());
                    break;
                }
            },
            Some(outside) => {
                if index == outside {
                    let rejected = env.step(action);
                    checker.equal(
                        &location,
                        &format!("the simulator rejects {action:?}"),
                        true,
                        matches!(rejected, Err(CoreError::InvalidAction { .. })),
                    );
                }
                let outcome = domain.step(&state, action, Mode::Training, &mut rng);
                state = outcome.next_state;
                (
                    domain.observe(&state),
                    outcome.value.reward(),
                    outcome.terminated,
                    (index as u64).saturating_add(1) >= cap,
                )
            }
        };
        let next = (convert.array)(&state);
        for (component, (expected, actual)) in recorded.next_state.iter().zip(&next).enumerate() {
            checker.bits(
                &location,
                &format!("next_state[{component}]"),
                *expected,
                *actual,
            );
        }
        for (component, (expected, actual)) in recorded.obs.iter().zip(&observation).enumerate() {
            checker.bits32(&location, &format!("obs[{component}]"), *expected, *actual);
        }
        checker.bits(&location, "reward", recorded.reward, reward);
        checker.equal(&location, "terminated", recorded.terminated, terminated);
        checker.equal(&location, "truncated", recorded.truncated, truncated);
    }
    // A trace that ended leaves the simulator refusing another step.
    let ended = trace
        .steps
        .last()
        .is_some_and(|step| step.terminated || step.truncated);
    if ended && first_outside.is_none() && actions.len() == trace.steps.len() {
        if let Some(action) = actions.first() {
            checker.equal(
                &trace_location,
                "the simulator refuses a step after the end",
                true,
                matches!(env.step(action), Err(CoreError::NeedsReset(_))),
            );
        }
    }
}

fn cell(state: [usize; 2]) -> GridCell {
    GridCell::new(state[0], state[1])
}

fn applicable(domain: &GridWorld, state: GridCell) -> Vec<i64> {
    (0..4)
        .filter(|action| domain.is_applicable(&state, action))
        .collect()
}

/// Checks a GridWorld trace without noise through the domain from every recorded state
/// ([`ReplayMode::DomainPerStep`]) and through the simulator from its reset
/// ([`ReplayMode::SimulatorRollout`]).
pub(crate) fn check_gridworld_trace_domain(
    checker: &mut Checker,
    params: &GridWorldParams,
    map: &GridMap,
    trace: &GridWorldTrace,
) {
    let trace_location = MismatchLocation::Trace {
        trace: trace.id.clone(),
    };
    let domain = match GridWorld::new(map.clone(), *params) {
        Ok(domain) => domain,
        Err(error) => {
            checker.fail(
                &trace_location,
                "domain",
                "a GridWorld".to_owned(),
                error.to_string(),
            );
            return;
        }
    };
    let mut rng = NumpyGenerator::seed_from_u64(0);
    for recorded in &trace.steps {
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::DomainPerStep,
        };
        let state = cell(recorded.state);
        if !domain.observation_space().contains(&state)
            || !domain.action_space().contains(&recorded.action)
        {
            // Outside the domain's spaces `Domain::step` has no contract; the path through
            // RLPy's functions reports the bad state or action.
            continue;
        }
        checker.equal(
            &location,
            "possible_actions",
            recorded.possible_actions.clone(),
            applicable(&domain, state),
        );
        let outcome = domain.step(&state, &recorded.action, Mode::Training, &mut rng);
        checker.equal(
            &location,
            "next_state",
            cell(recorded.next_state),
            outcome.next_state,
        );
        checker.bits(&location, "reward", recorded.reward, outcome.value.reward());
        checker.equal(&location, "terminal", recorded.terminal, outcome.terminated);
        checker.equal(
            &location,
            "possible_actions_next",
            recorded.possible_actions_next.clone(),
            applicable(&domain, outcome.next_state),
        );
    }

    let cap = domain.episode_cap().unwrap_or(u64::MAX);
    let mut env = Simulator::new(domain, 0);
    match env.reset(Mode::Training) {
        Ok(start) => checker.equal(
            &trace_location,
            "simulator reset",
            cell(trace.initial_state),
            start,
        ),
        Err(error) => {
            checker.fail(
                &trace_location,
                "simulator reset",
                "a reset".to_owned(),
                error.to_string(),
            );
            return;
        }
    }
    for (index, (action, recorded)) in trace.actions.iter().zip(&trace.steps).enumerate() {
        let location = MismatchLocation::Step {
            trace: trace.id.clone(),
            t: recorded.t,
            mode: ReplayMode::SimulatorRollout,
        };
        let mask: Vec<i64> = (0..4).filter(|action| env.is_applicable(action)).collect();
        checker.equal(
            &location,
            "action mask",
            recorded.possible_actions.clone(),
            mask,
        );
        match env.step(action) {
            Ok(outcome) => {
                checker.equal(
                    &location,
                    "next_state",
                    cell(recorded.next_state),
                    outcome.observation,
                );
                checker.bits(&location, "reward", recorded.reward, outcome.reward());
                checker.equal(&location, "terminal", recorded.terminal, outcome.terminated);
                let at_cap = (index as u64).saturating_add(1) == cap;
                checker.equal(&location, "truncated", at_cap, outcome.truncated);
            }
            Err(error) => {
                checker.fail(&location, "step", "a step".to_owned(), error.to_string());
                break;
            }
        }
    }
}

/// The number of steps sampled per table entry and noise level.
const SAMPLES: usize = 4000;

/// Checks the entries of a GridWorld transition table through the domain at every noise
/// level: applicable actions, the enumerable transitions, RLPy's `expectedStep` and its
/// corrected variant, and the frequencies of [`SAMPLES`] sampled steps (each within five
/// standard deviations of its probability, with a fixed seed per entry and level).
pub(crate) fn check_gridworld_table_domain(
    checker: &mut Checker,
    map: &GridMap,
    noise_levels: &[f64],
    entries: &[GridWorldTableEntry],
) {
    let mut domains = Vec::new();
    for noise in noise_levels {
        let rlpy = GridWorldParams {
            noise: *noise,
            ..GridWorldParams::default()
        };
        let corrected = GridWorldParams {
            expected_step: ExpectedStepVariant::Corrected,
            ..rlpy
        };
        match (
            GridWorld::new(map.clone(), rlpy),
            GridWorld::new(map.clone(), corrected),
        ) {
            (Ok(rlpy), Ok(corrected)) => domains.push((*noise, rlpy, corrected)),
            (Err(error), _) | (_, Err(error)) => {
                checker.fail(
                    &MismatchLocation::File,
                    &format!("domain with noise {noise}"),
                    "a GridWorld".to_owned(),
                    error.to_string(),
                );
                return;
            }
        }
    }
    for (entry_index, entry) in entries.iter().enumerate() {
        let state = cell(entry.state);
        let Some(action) = GridAction::from_i64(entry.action) else {
            // The path through RLPy's functions reports the bad action.
            continue;
        };
        if !domains
            .first()
            .is_some_and(|(_, domain, _)| domain.observation_space().contains(&state))
        {
            // The path through RLPy's functions reports the bad cell.
            continue;
        }
        for (noise_text, recorded) in &entry.by_noise {
            let location = MismatchLocation::TableEntry {
                entry: entry.id.clone(),
                noise: Some(format!("{noise_text} (domain)")),
            };
            let Some((noise, domain, corrected)) = noise_text
                .parse::<f64>()
                .ok()
                .and_then(|noise| domains.iter().find(|(level, ..)| *level == noise))
            else {
                // The RLPy path reports a level missing from `noise_levels`.
                continue;
            };
            checker.equal(
                &location,
                "possible_actions",
                entry.possible_actions.clone(),
                applicable(domain, state),
            );

            // The exact distribution: the enumerable transitions, matched by next cell.
            let transitions = domain.transitions(&state, &entry.action, Mode::Training);
            checker.equal(
                &location,
                "number of outcomes",
                recorded.step_distribution.len(),
                transitions.len(),
            );
            for outcome in &recorded.step_distribution {
                let next = cell(outcome.next_state);
                match transitions.iter().find(|ours| ours.next_state == next) {
                    Some(ours) => {
                        checker.close(
                            &location,
                            &format!("p({next})"),
                            outcome.p,
                            ours.probability,
                        );
                        checker.bits(
                            &location,
                            &format!("reward({next})"),
                            outcome.reward,
                            ours.value.reward(),
                        );
                        checker.equal(
                            &location,
                            &format!("terminal({next})"),
                            outcome.terminal,
                            ours.terminated,
                        );
                    }
                    None => checker.fail(
                        &location,
                        &format!("outcome {next}"),
                        "listed".to_owned(),
                        "missing".to_owned(),
                    ),
                }
            }

            // RLPy's expectedStep through the domain, in order, and the corrected variant.
            let expected = domain.expected_step(state, action, Mode::Training);
            checker.equal(
                &location,
                "expected_step length",
                recorded.expected_step.len(),
                expected.len(),
            );
            for (recorded, ours) in recorded.expected_step.iter().zip(expected.iter()) {
                checker.close(&location, "expected_step p", recorded.p, ours.probability);
                checker.equal(
                    &location,
                    "expected_step next_state",
                    cell(recorded.next_state),
                    ours.next_cell,
                );
                checker.equal(
                    &location,
                    "expected_step via_action",
                    recorded.via_action,
                    i64::from(ours.via_action),
                );
            }
            let fixed = corrected.expected_step(state, action, Mode::Training);
            let fixed_sum: f64 = fixed.iter().map(|outcome| outcome.probability).sum();
            checker.close(&location, "corrected expected_step sum", 1.0, fixed_sum);
            for outcome in &recorded.step_distribution {
                let next = cell(outcome.next_state);
                let p: f64 = fixed
                    .iter()
                    .filter(|ours| ours.next_cell == next)
                    .map(|ours| ours.probability)
                    .sum();
                checker.close(&location, &format!("corrected p({next})"), outcome.p, p);
            }

            // Sampled steps: only listed outcomes, at their probabilities.
            let seed = 0x5eed ^ (entry_index as u64) ^ noise.to_bits();
            let mut rng = NumpyGenerator::seed_from_u64(seed);
            let mut counts = vec![0usize; recorded.step_distribution.len()];
            for _ in 0..SAMPLES {
                let outcome = domain.step(&state, &entry.action, Mode::Training, &mut rng);
                match recorded
                    .step_distribution
                    .iter()
                    .position(|listed| cell(listed.next_state) == outcome.next_state)
                {
                    Some(position) => {
                        counts[position] += 1;
                        let listed = &recorded.step_distribution[position];
                        if listed.reward.to_bits() != outcome.value.reward().to_bits()
                            || listed.terminal != outcome.terminated
                        {
                            checker.fail(
                                &location,
                                "sampled outcome",
                                format!("reward {}, terminal {}", listed.reward, listed.terminal),
                                format!(
                                    "reward {}, terminal {}",
                                    outcome.value.reward(),
                                    outcome.terminated
                                ),
                            );
                        }
                    }
                    None => checker.fail(
                        &location,
                        "sampled next_state",
                        "a listed outcome".to_owned(),
                        outcome.next_state.to_string(),
                    ),
                }
            }
            for (listed, count) in recorded.step_distribution.iter().zip(&counts) {
                let frequency = *count as f64 / SAMPLES as f64;
                let tolerance = 5.0 * (listed.p * (1.0 - listed.p) / SAMPLES as f64).sqrt() + 1e-12;
                checker.equal(
                    &location,
                    &format!(
                        "frequency of {} in {SAMPLES} samples ({frequency}) within {tolerance} of p = {}",
                        cell(listed.next_state),
                        listed.p
                    ),
                    true,
                    (frequency - listed.p).abs() <= tolerance,
                );
            }
        }
    }
}
