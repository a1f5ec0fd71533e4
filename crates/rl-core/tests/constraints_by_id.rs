//! Constraints of environments built by id: a registration that declares them
//! (`Registration::with_constraints`) gives environments, registered environments and batches
//! of states that evaluate them as the typed `Simulator::with_constraints` does, named, and
//! listed in the step's info under `"violations"`.

use rand::SeedableRng;
use rl_core::corridor::{Corridor, LEFT, RIGHT};
use rl_core::registry::{self, Registration};
use rl_core::{
    BatchStates, CheckConfig, CoreError, Environment, Info, Mode, NumpyGenerator, Simulator,
    VIOLATIONS_INFO_KEY, Violations,
};
use rl_spaces::AnyElement;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct NoParams {}

fn corridor(_: NoParams) -> Result<Corridor, CoreError> {
    Corridor::new(5, 0.3)
}

fn register() {
    let _ = Registration::new("Corridor-constrained-v0", "constrained", corridor)
        .with_constraints()
        .register();
    let _ = Registration::new("Corridor-unconstrained-v0", "not declared", corridor).register();
}

/// The action of step `t`: mostly right, left every third step.
fn action(t: usize) -> i64 {
    if t % 3 == 2 { LEFT } else { RIGHT }
}

/// The info entry a step with `violations` of the corridor's one constraint has.
fn expected_info(violations: Violations) -> Option<rl_core::InfoValue> {
    (!violations.is_empty()).then(|| json!(["moves toward the goal"]).into())
}

#[test]
fn environments_by_id_report_the_typed_simulators_violations() {
    register();
    let domain = registry::build("Corridor-constrained-v0", None).expect("builds");
    assert_eq!(domain.constraint_names(), ["moves toward the goal"]);
    let mut typed = Simulator::with_constraints(corridor(NoParams {}).unwrap(), 11).unwrap();
    let mut by_id = registry::make("Corridor-constrained-v0", None).expect("makes");
    by_id.seed(11);
    let mut registered = domain.registered_environment(11);
    assert_eq!(by_id.constraint_name(0), Some("moves toward the goal"));
    assert_eq!(registered.constraint_name(0), Some("moves toward the goal"));
    assert_eq!(by_id.constraint_name(1), None);
    let mut seen = 0;
    for t in 0..400 {
        if t == 0 || !typed.is_running() {
            typed.reset(Mode::Training).unwrap();
            by_id.reset(Mode::Training).unwrap();
            registered.reset(Mode::Training).unwrap();
        }
        let expected = typed.step(&action(t)).unwrap();
        for outcome in [
            by_id.step(&AnyElement::Int(action(t))).unwrap(),
            registered.step(&AnyElement::Int(action(t))).unwrap(),
        ] {
            assert_eq!(outcome.violations, expected.violations, "step {t}");
            assert_eq!(outcome.observation, AnyElement::Int(expected.observation));
            assert_eq!(
                outcome.info.get(VIOLATIONS_INFO_KEY).cloned(),
                expected_info(expected.violations),
                "step {t}"
            );
        }
        seen += expected.violations.len();
    }
    assert!(seen > 50, "only {seen} violations in 400 steps");
}

#[test]
fn the_checker_by_id_checks_the_declared_constraints() {
    register();
    let constrained = registry::build("Corridor-constrained-v0", None).expect("builds");
    let report = constrained.check(&CheckConfig::default());
    assert!(report.is_ok(), "{report}");
    assert!(
        report
            .to_string()
            .contains("declared constraints evaluate on every step"),
        "{report}"
    );
    let plain = registry::build("Corridor-unconstrained-v0", None).expect("builds");
    let report = plain.check(&CheckConfig::default()).to_string();
    assert!(!report.contains("declared constraints"), "{report}");
}

#[test]
fn an_id_without_declared_constraints_reports_none() {
    register();
    let domain = registry::build("Corridor-unconstrained-v0", None).expect("builds");
    assert!(domain.constraint_names().is_empty());
    let mut env = domain.environment(0);
    env.reset(Mode::Training).unwrap();
    let outcome = env.step(&AnyElement::Int(LEFT)).unwrap();
    assert!(outcome.violations.is_empty());
    assert_eq!(env.constraint_name(0), None);
    assert!(outcome.info.get(VIOLATIONS_INFO_KEY).is_none());
}

#[test]
fn batches_by_id_list_the_violations_in_their_infos() {
    register();
    let domain = registry::build("Corridor-constrained-v0", None).expect("builds");
    let count = 3;
    let mut batch = domain
        .discrete_batch_states(count)
        .expect("Discrete actions");
    let mut typed: Vec<_> = (0..count)
        .map(|i| Simulator::with_constraints(corridor(NoParams {}).unwrap(), 5 + i as u64).unwrap())
        .collect();
    let mut rngs: Vec<_> = (0..count)
        .map(|i| NumpyGenerator::seed_from_u64(5 + i as u64))
        .collect();
    let mut observations = vec![0.0f32; count * 5];
    let (mut rewards, mut terminated) = (vec![0.0; count], vec![false; count]);
    let mut infos = vec![Info::new(); count];
    let mut seen = 0;
    for t in 0..200 {
        for i in 0..count {
            if t == 0 || !typed[i].is_running() {
                typed[i].reset(Mode::Training).unwrap();
                let row = &mut observations[i * 5..(i + 1) * 5];
                batch
                    .reset_at(i, Mode::Training, &mut rngs[i], row)
                    .unwrap();
            }
        }
        let actions: Vec<i64> = (0..count).map(|i| action(t + i)).collect();
        batch
            .step_with_infos(
                &actions,
                &vec![false; count],
                Mode::Training,
                &mut rngs,
                &mut rewards,
                &mut terminated,
                &mut observations,
                &mut infos,
            )
            .map_err(|(_, error)| error)
            .unwrap();
        for i in 0..count {
            let expected = typed[i].step(&actions[i]).unwrap();
            assert_eq!(
                infos[i].get(VIOLATIONS_INFO_KEY).cloned(),
                expected_info(expected.violations),
                "step {t}, episode {i}"
            );
            assert_eq!(terminated[i], expected.terminated);
            seen += expected.violations.len();
        }
    }
    assert!(seen > 50, "only {seen} violations");
}

/// A batch by id stepped in parts (`SplitStates::with_parts`: the erased actions converted by
/// each part, the constraints' memories split) gives what the same batch stepped whole gives,
/// bit for bit, infos included; the parts change from step to step, as a vector's do between
/// the calling thread alone and every thread.
#[test]
fn a_batch_stepped_in_parts_steps_as_the_whole() {
    use rl_core::SplitStates;
    register();
    let domain = registry::build("Corridor-constrained-v0", None).expect("builds");
    let count = 5;
    let mut whole = domain.batch_states(count);
    let mut parted = domain.batch_states(count);
    let seeded = |seed: u64| -> Vec<NumpyGenerator> {
        (0..count)
            .map(|i| NumpyGenerator::seed_from_u64(seed + i as u64))
            .collect()
    };
    let (mut whole_rngs, mut parted_rngs) = (seeded(9), seeded(9));
    // The whole batch as one part, then two parts, then four.
    let all = 0..count;
    let cuts: [&[std::ops::Range<usize>]; 3] = [
        std::slice::from_ref(&all),
        &[0..2, 2..5],
        &[0..1, 1..2, 2..4, 4..5],
    ];
    let (mut whole_rows, mut parted_rows) = (vec![0.0f32; count * 5], vec![0.0f32; count * 5]);
    let (mut whole_rewards, mut parted_rewards) = (vec![0.0; count], vec![0.0; count]);
    let (mut whole_ended, mut parted_ended) = (vec![true; count], vec![true; count]);
    let (mut whole_infos, mut parted_infos) = (vec![Info::new(); count], vec![Info::new(); count]);
    let (mut ends, mut violations) = (0, 0);
    for t in 0..120 {
        let ranges = cuts[t % cuts.len()];
        for i in 0..count {
            if whole_ended[i] {
                let row = &mut whole_rows[i * 5..(i + 1) * 5];
                whole
                    .reset_at(i, Mode::Training, &mut whole_rngs[i], row)
                    .unwrap();
            }
        }
        // The parts reset their own ended episodes, at indices from their range's start.
        parted.with_parts(ranges, &mut |parts| {
            for (part, range) in parts.iter_mut().zip(ranges) {
                for i in range.clone().filter(|i| parted_ended[*i]) {
                    let row = &mut parted_rows[i * 5..(i + 1) * 5];
                    let local = i - range.start;
                    part.reset_at(local, Mode::Training, &mut parted_rngs[i], row)
                        .unwrap();
                }
            }
        });
        let actions: Vec<AnyElement> = (0..count).map(|i| AnyElement::Int(action(t + i))).collect();
        let discarded = vec![false; count];
        whole
            .step_with_infos(
                &actions,
                &discarded,
                Mode::Training,
                &mut whole_rngs,
                &mut whole_rewards,
                &mut whole_ended,
                &mut whole_rows,
                &mut whole_infos,
            )
            .map_err(|(_, error)| error)
            .unwrap();
        parted.with_parts(ranges, &mut |parts| {
            for (part, range) in parts.iter_mut().zip(ranges) {
                let r = range.clone();
                let rows = range.start * 5..range.end * 5;
                part.step_with_infos(
                    &actions[r.clone()],
                    &discarded[r.clone()],
                    Mode::Training,
                    &mut parted_rngs[r.clone()],
                    &mut parted_rewards[r.clone()],
                    &mut parted_ended[r.clone()],
                    &mut parted_rows[rows],
                    &mut parted_infos[r],
                )
                .map_err(|(_, error)| error)
                .unwrap();
            }
        });
        let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&parted_rewards), bits(&whole_rewards), "step {t}");
        assert_eq!(parted_ended, whole_ended, "step {t}");
        assert_eq!(parted_rows, whole_rows, "step {t}");
        assert_eq!(parted_infos, whole_infos, "step {t}");
        ends += whole_ended.iter().filter(|ended| **ended).count();
        let violated = whole_infos
            .iter()
            .filter(|info| info.get(VIOLATIONS_INFO_KEY).is_some());
        violations += violated.count();
    }
    assert!(ends > 20, "only {ends} episode ends");
    assert!(violations > 20, "only {violations} steps with violations");
}
