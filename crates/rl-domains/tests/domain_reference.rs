//! Reference conformance through the domain types, in addition to the kernel replay of
//! `tests/reference.rs`: every recorded step from its recorded state through `Domain::step`
//! and `Domain::observe`, every trace as a rollout through the `Simulator` (reset to the
//! recorded initial state, then the recorded actions, with the simulator's own episode cap),
//! and GridWorld's applicable actions, transitions, `expectedStep` and sampled frequencies.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand_pcg::Pcg64;
use rl_core::{CoreError, Domain, EnumerableTransitions, Environment, Mode, Simulator};
use rl_domains::cartpole::{CartPole, CartPoleState};
use rl_domains::gridworld::{
    ExpectedStepVariant, GridAction, GridCell, GridWorld, GridWorldParams,
};
use rl_domains::mountain_car::{MountainCar, MountainCarState};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousState, StatePrecision,
};
use rl_domains::reference::{
    GridWorldTableEntry, GymnasiumTrace, PROBABILITY_TOLERANCE, RecordedMap, ReferenceContent,
    grid_map_from_recorded, load_reference_file,
};
use rl_spaces::Space;

fn reference_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference")
        .join(name)
}

fn load(name: &str) -> ReferenceContent {
    load_reference_file(reference_file(name))
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .content
}

/// Differences found, with the number of steps checked.
#[derive(Default)]
struct Findings {
    steps: usize,
    rollout_steps: usize,
    mismatches: Vec<String>,
}

impl Findings {
    fn check<T: PartialEq + std::fmt::Debug>(&mut self, place: &str, expected: T, actual: T) {
        if expected != actual {
            self.mismatches
                .push(format!("{place}: expected {expected:?}, got {actual:?}"));
        }
    }

    fn bits(&mut self, place: &str, expected: f64, actual: f64) {
        self.check(place, expected.to_bits(), actual.to_bits());
    }

    /// A recorded float32 value (stored as float64) against a float32, bit for bit.
    fn bits32(&mut self, place: &str, expected: f64, actual: f32) {
        self.check(place, (expected as f32).to_bits(), actual.to_bits());
        self.check(place, expected.to_bits(), f64::from(actual).to_bits());
    }

    /// Float64 arrays, component by component.
    fn array_bits(&mut self, place: &str, expected: &[f64], actual: &[f64]) {
        self.check(&format!("{place} length"), expected.len(), actual.len());
        for (component, (expected, actual)) in expected.iter().zip(actual).enumerate() {
            self.bits(&format!("{place}[{component}]"), *expected, *actual);
        }
    }

    /// Recorded float32 arrays against float32 arrays, component by component.
    fn array_bits32(&mut self, place: &str, expected: &[f64], actual: &[f32]) {
        self.check(&format!("{place} length"), expected.len(), actual.len());
        for (component, (expected, actual)) in expected.iter().zip(actual).enumerate() {
            self.bits32(&format!("{place}[{component}]"), *expected, *actual);
        }
    }

    fn assert_clean(&self, name: &str) {
        let shown: Vec<&String> = self.mismatches.iter().take(12).collect();
        assert!(
            self.mismatches.is_empty(),
            "{name}: {} mismatches, first ones:\n{shown:#?}",
            self.mismatches.len()
        );
    }
}

/// How a Gymnasium domain's state, observation and action relate to a trace's arrays.
struct Conversions<D: Domain, const N: usize, A> {
    state: fn(&[f64; N], StatePrecision) -> D::State,
    array: fn(&D::State) -> [f64; N],
    action: fn(&A) -> D::Action,
}

/// Checks every step of `traces` from its recorded state, then every trace as a rollout,
/// through the simulator when the trace's actions are all in the action space and through
/// `Domain::step` otherwise (checking that the simulator rejects the first action outside).
fn check_gymnasium<D, const N: usize, A>(
    findings: &mut Findings,
    domain: &D,
    traces: &[GymnasiumTrace<[f64; N], A>],
    convert: &Conversions<D, N, A>,
) where
    D: Domain<Observation = [f32; N]> + Clone,
    D::State: Copy,
{
    let mut rng = Pcg64::seed_from_u64(0);
    let cap = domain
        .episode_cap()
        .expect("Gymnasium domains have a time limit");
    for trace in traces {
        let initial_precision = trace.initial_state_dtype.unwrap_or(StatePrecision::Float64);
        for (index, step) in trace.steps.iter().enumerate() {
            findings.steps += 1;
            let place = format!("{} step {} (per step)", trace.id, step.t);
            let precision = step.state_dtype.unwrap_or(if index == 0 {
                initial_precision
            } else {
                StatePrecision::Float32
            });
            let state = (convert.state)(&step.state, precision);
            let action = (convert.action)(&step.action);
            let outcome = domain.step(&state, &action, Mode::Training, &mut rng);
            let next = (convert.array)(&outcome.next_state);
            findings.array_bits(&format!("{place} next_state"), &step.next_state, &next);
            let observation = domain.observe(&outcome.next_state);
            findings.array_bits32(&format!("{place} obs"), &step.obs, &observation);
            findings.bits(
                &format!("{place} reward"),
                step.reward,
                outcome.value.reward(),
            );
            findings.check(
                &format!("{place} terminated"),
                step.terminated,
                outcome.terminated,
            );
            findings.check(
                &format!("{place} is_terminal"),
                step.terminated,
                domain.is_terminal(&outcome.next_state),
            );
        }

        let initial = (convert.state)(&trace.initial_state, initial_precision);
        let actions: Vec<D::Action> = trace.actions.iter().map(convert.action).collect();
        let first_outside = actions
            .iter()
            .position(|action| !domain.action_space().contains(action));
        let mut env = Simulator::new(domain.clone(), 0);
        let observation = env.reset_to(initial, Mode::Training);
        if let Some(initial_obs) = &trace.initial_obs {
            findings.array_bits32(
                &format!("{} initial_obs", trace.id),
                initial_obs,
                &observation,
            );
        }
        let mut state = initial;
        for (index, (action, step)) in actions.iter().zip(&trace.steps).enumerate() {
            findings.rollout_steps += 1;
            let place = format!("{} step {} (rollout)", trace.id, step.t);
            let (observation, reward, terminated, truncated) = match first_outside {
                None => match env.step(action) {
                    Ok(outcome) => {
                        state = *env.state().expect("a running episode has a state");
                        (
                            outcome.observation,
                            outcome.reward(),
                            outcome.terminated,
                            outcome.truncated,
                        )
                    }
                    Err(error) => {
                        findings.check(&place, "a step".to_owned(), error.to_string());
                        break;
                    }
                },
                Some(outside) => {
                    if index == outside {
                        let rejected = env.step(action);
                        findings.check(
                            &format!("{place} rejects {action:?}"),
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
                        (index as u64 + 1) >= cap,
                    )
                }
            };
            let next = (convert.array)(&state);
            findings.array_bits(&format!("{place} next_state"), &step.next_state, &next);
            findings.array_bits32(&format!("{place} obs"), &step.obs, &observation);
            findings.bits(&format!("{place} reward"), step.reward, reward);
            findings.check(&format!("{place} terminated"), step.terminated, terminated);
            findings.check(&format!("{place} truncated"), step.truncated, truncated);
        }
        // A trace that ended leaves the simulator refusing another step.
        let ended = trace
            .steps
            .last()
            .is_some_and(|step| step.terminated || step.truncated);
        if ended && first_outside.is_none() {
            if let Some(action) = actions.first() {
                findings.check(
                    &format!("{} step after the end", trace.id),
                    true,
                    matches!(env.step(action), Err(CoreError::NeedsReset(_))),
                );
            }
        }
    }
}

fn cartpole_conversions() -> Conversions<CartPole, 4, i64> {
    Conversions {
        state: |array, _| CartPoleState::from_array(*array),
        array: CartPoleState::to_array,
        action: |action| *action,
    }
}

#[test]
fn cartpole_traces_replay_through_the_domain_and_the_simulator() {
    for name in [
        "cartpole_v1_euler.json",
        "cartpole_v1_semi_implicit.json",
        "cartpole_v1_sutton_barto.json",
    ] {
        let ReferenceContent::CartPole { params, traces } = load(name) else {
            panic!("{name} is not a CartPole file");
        };
        let domain = CartPole::new(params).expect("valid parameters");
        let mut findings = Findings::default();
        check_gymnasium(&mut findings, &domain, &traces, &cartpole_conversions());
        findings.assert_clean(name);
        assert!(findings.steps > 100 && findings.rollout_steps == findings.steps);
        println!("{name}: {} steps, 0 mismatches", findings.steps);
    }
}

#[test]
fn mountain_car_traces_replay_through_the_domain_and_the_simulator() {
    let name = "mountaincar_v0.json";
    let ReferenceContent::MountainCar { params, traces } = load(name) else {
        panic!("{name} is not a MountainCar file");
    };
    let domain = MountainCar::new(params).expect("valid parameters");
    let conversions: Conversions<MountainCar, 2, i64> = Conversions {
        state: |[position, velocity], _| MountainCarState {
            position: *position,
            velocity: *velocity,
        },
        array: |state| [state.position, state.velocity],
        action: |action| *action,
    };
    let mut findings = Findings::default();
    check_gymnasium(&mut findings, &domain, &traces, &conversions);
    findings.assert_clean(name);
    assert_eq!(findings.steps, 2750);
}

#[test]
fn mountain_car_continuous_traces_replay_through_the_domain_and_the_simulator() {
    let name = "mountaincar_continuous_v0.json";
    let ReferenceContent::MountainCarContinuous { params, traces } = load(name) else {
        panic!("{name} is not a MountainCarContinuous file");
    };
    let domain = MountainCarContinuous::new(params).expect("valid parameters");
    let conversions: Conversions<MountainCarContinuous, 2, [f64; 1]> = Conversions {
        state: |[position, velocity], precision| MountainCarContinuousState {
            position: *position,
            velocity: *velocity,
            precision,
        },
        array: |state| [state.position, state.velocity],
        action: |[value]| [*value as f32],
    };
    let mut findings = Findings::default();
    check_gymnasium(&mut findings, &domain, &traces, &conversions);
    findings.assert_clean(name);
    assert_eq!(findings.steps, 5712);
    // Both kinds of rollout ran: some traces act only inside [-1, 1], others outside.
    let outside = traces
        .iter()
        .filter(|trace| trace.actions.iter().any(|[a]| !(-1.0..=1.0).contains(a)))
        .count();
    assert!(outside > 0 && outside < traces.len());
}

fn cell(state: [usize; 2]) -> GridCell {
    GridCell::new(state[0], state[1])
}

fn applicable(domain: &GridWorld, state: GridCell) -> Vec<i64> {
    (0..4)
        .filter(|action| domain.is_applicable(&state, action))
        .collect()
}

#[test]
fn gridworld_traces_replay_through_the_domain_and_the_simulator() {
    let name = "gridworld_deterministic.json";
    let ReferenceContent::GridWorldTraces {
        params,
        maps,
        traces,
    } = load(name)
    else {
        panic!("{name} is not a GridWorld trace file");
    };
    assert_eq!(params.noise, 0.0);
    let mut findings = Findings::default();
    let mut rng = Pcg64::seed_from_u64(0);
    let mut capped = 0;
    for trace in &traces {
        let recorded: &RecordedMap = &maps[&trace.map];
        let map = grid_map_from_recorded(&trace.map, recorded).expect("a valid map");
        let domain = GridWorld::new(map, params).expect("valid parameters");
        for step in &trace.steps {
            findings.steps += 1;
            let place = format!("{} step {} (per step)", trace.id, step.t);
            let state = cell(step.state);
            findings.check(
                &format!("{place} possible_actions"),
                step.possible_actions.clone(),
                applicable(&domain, state),
            );
            let outcome = domain.step(&state, &step.action, Mode::Training, &mut rng);
            findings.check(
                &format!("{place} next_state"),
                cell(step.next_state),
                outcome.next_state,
            );
            findings.bits(
                &format!("{place} reward"),
                step.reward,
                outcome.value.reward(),
            );
            findings.check(
                &format!("{place} terminal"),
                step.terminal,
                outcome.terminated,
            );
            findings.check(
                &format!("{place} possible_actions_next"),
                step.possible_actions_next.clone(),
                applicable(&domain, outcome.next_state),
            );
        }

        let mut env = Simulator::new(domain.clone(), 0);
        findings.check(
            &format!("{} reset", trace.id),
            cell(trace.initial_state),
            env.reset(Mode::Training).expect("a reset"),
        );
        for (index, (action, step)) in trace.actions.iter().zip(&trace.steps).enumerate() {
            findings.rollout_steps += 1;
            let place = format!("{} step {} (rollout)", trace.id, step.t);
            let mask: Vec<i64> = (0..4).filter(|a| env.is_applicable(a)).collect();
            findings.check(
                &format!("{place} mask"),
                step.possible_actions.clone(),
                mask,
            );
            match env.step(action) {
                Ok(outcome) => {
                    findings.check(
                        &format!("{place} next_state"),
                        cell(step.next_state),
                        outcome.observation,
                    );
                    findings.bits(&format!("{place} reward"), step.reward, outcome.reward());
                    findings.check(
                        &format!("{place} terminal"),
                        step.terminal,
                        outcome.terminated,
                    );
                    let at_cap = index + 1 == 1000;
                    findings.check(&format!("{place} truncated"), at_cap, outcome.truncated);
                    if at_cap {
                        capped += 1;
                        findings.check(
                            &format!("{} end", trace.id),
                            Some("episode_cap"),
                            trace.end.as_deref(),
                        );
                    }
                }
                Err(error) => {
                    findings.check(&place, "a step".to_owned(), error.to_string());
                    break;
                }
            }
        }
    }
    findings.assert_clean(name);
    assert_eq!(capped, 1, "the episode-cap trace reaches the cap once");
    assert_eq!(findings.rollout_steps, findings.steps);
}

/// The recorded noise levels of an entry, keyed by the noise as a number.
fn levels(entry: &GridWorldTableEntry) -> Vec<(f64, &rl_domains::reference::RecordedNoiseLevel)> {
    entry
        .by_noise
        .iter()
        .map(|(text, level)| (text.parse::<f64>().expect("a noise level"), level))
        .collect()
}

#[test]
fn gridworld_tables_match_transitions_expected_steps_and_sampled_frequencies() {
    const SAMPLES: usize = 4000;
    for name in [
        "gridworld_table_2x3.json",
        "gridworld_table_3x5-Wall.json",
        "gridworld_table_4x5.json",
    ] {
        let ReferenceContent::GridWorldTable {
            map_name,
            map,
            noise_levels,
            entries,
        } = load(name)
        else {
            panic!("{name} is not a GridWorld table");
        };
        let map = grid_map_from_recorded(&map_name, &map).expect("a valid map");
        let mut domains: BTreeMap<u64, (GridWorld, GridWorld)> = BTreeMap::new();
        for noise in &noise_levels {
            let rlpy = GridWorldParams {
                noise: *noise,
                ..GridWorldParams::default()
            };
            let corrected = GridWorldParams {
                expected_step: ExpectedStepVariant::Corrected,
                ..rlpy
            };
            domains.insert(
                noise.to_bits(),
                (
                    GridWorld::new(map.clone(), rlpy).expect("valid"),
                    GridWorld::new(map.clone(), corrected).expect("valid"),
                ),
            );
        }
        let mut findings = Findings::default();
        let mut sampled = 0usize;
        for (entry_index, entry) in entries.iter().enumerate() {
            findings.steps += 1;
            let state = cell(entry.state);
            let action = GridAction::from_i64(entry.action).expect("an action");
            for (noise, recorded) in levels(entry) {
                let place = format!("{} noise {noise}", entry.id);
                let (domain, corrected) = &domains[&noise.to_bits()];
                findings.check(
                    &format!("{place} possible_actions"),
                    entry.possible_actions.clone(),
                    applicable(domain, state),
                );

                // The exact distribution: transitions, matched by next cell.
                let transitions = domain.transitions(&state, &entry.action, Mode::Training);
                findings.check(
                    &format!("{place} outcome count"),
                    recorded.step_distribution.len(),
                    transitions.len(),
                );
                for outcome in &recorded.step_distribution {
                    let next = cell(outcome.next_state);
                    match transitions.iter().find(|t| t.next_state == next) {
                        Some(ours) => {
                            findings.check(
                                &format!("{place} p({next})"),
                                true,
                                (ours.probability - outcome.p).abs() <= PROBABILITY_TOLERANCE,
                            );
                            findings.bits(
                                &format!("{place} reward({next})"),
                                outcome.reward,
                                ours.value.reward(),
                            );
                            findings.check(
                                &format!("{place} terminal({next})"),
                                outcome.terminal,
                                ours.terminated,
                            );
                        }
                        None => {
                            findings.check(&format!("{place} outcome {next}"), "listed", "missing")
                        }
                    }
                }

                // RLPy's expectedStep, in order, and its corrected counterpart.
                let expected = domain.expected_step(state, action, Mode::Training);
                findings.check(
                    &format!("{place} expected_step length"),
                    recorded.expected_step.len(),
                    expected.len(),
                );
                for (recorded, ours) in recorded.expected_step.iter().zip(expected.iter()) {
                    findings.check(
                        &format!("{place} expected_step p"),
                        true,
                        (recorded.p - ours.probability).abs() <= PROBABILITY_TOLERANCE,
                    );
                    findings.check(
                        &format!("{place} expected_step next"),
                        cell(recorded.next_state),
                        ours.next_cell,
                    );
                    findings.check(
                        &format!("{place} expected_step via"),
                        recorded.via_action,
                        i64::from(ours.via_action),
                    );
                }
                let sum: f64 = expected.iter().map(|outcome| outcome.probability).sum();
                findings.check(
                    &format!("{place} expected_step sum"),
                    true,
                    (sum - recorded.expected_step_p_sum).abs() <= PROBABILITY_TOLERANCE,
                );
                let fixed = corrected.expected_step(state, action, Mode::Training);
                let fixed_sum: f64 = fixed.iter().map(|outcome| outcome.probability).sum();
                findings.check(
                    &format!("{place} corrected sum"),
                    true,
                    (fixed_sum - 1.0).abs() <= PROBABILITY_TOLERANCE,
                );
                for outcome in &recorded.step_distribution {
                    let next = cell(outcome.next_state);
                    let p: f64 = fixed
                        .iter()
                        .filter(|o| o.next_cell == next)
                        .map(|o| o.probability)
                        .sum();
                    findings.check(
                        &format!("{place} corrected p({next})"),
                        true,
                        (p - outcome.p).abs() <= PROBABILITY_TOLERANCE,
                    );
                }

                // Sampled steps: only listed outcomes, at their probabilities.
                let mut rng = Pcg64::seed_from_u64(0x5eed ^ (entry_index as u64) ^ noise.to_bits());
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
                            findings.bits(
                                &format!("{place} sampled reward"),
                                listed.reward,
                                outcome.value.reward(),
                            );
                            findings.check(
                                &format!("{place} sampled terminal"),
                                listed.terminal,
                                outcome.terminated,
                            );
                        }
                        None => findings.check(
                            &format!("{place} sampled outcome"),
                            "listed".to_owned(),
                            format!("{}", outcome.next_state),
                        ),
                    }
                }
                for (listed, count) in recorded.step_distribution.iter().zip(&counts) {
                    let frequency = *count as f64 / SAMPLES as f64;
                    let tolerance =
                        5.0 * (listed.p * (1.0 - listed.p) / SAMPLES as f64).sqrt() + 1e-12;
                    findings.check(
                        &format!(
                            "{place} frequency of {} (p = {}, frequency {frequency})",
                            cell(listed.next_state),
                            listed.p
                        ),
                        true,
                        (frequency - listed.p).abs() <= tolerance,
                    );
                }
                sampled += SAMPLES;
            }
        }
        findings.assert_clean(name);
        assert!(sampled > 0);
        println!(
            "{name}: {} entries, {sampled} sampled steps, 0 mismatches",
            findings.steps
        );
    }
}
