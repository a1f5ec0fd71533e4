//! A vector built by id from a registration with constraints evaluates them as its
//! environments built by id do (and so as the typed `Simulator::with_constraints` does): each
//! step that violates some lists their names in its info under `"violations"`, and with
//! `Autoreset::SameStep` in the final info of the step that ended an episode.

use std::num::NonZeroUsize;

use rl_core::corridor::{Corridor, LEFT, RIGHT};
use rl_core::registry::{self, Registration};
use rl_core::{CoreError, Mode, VIOLATIONS_INFO_KEY};
use rl_spaces::AnyElement;
use rl_wrappers::vector::{Autoreset, EnvironmentVector, VectorOptions, make_vector};
use serde_json::json;

use crate::common::NoParams;

const ID: &str = "Corridor-constrained-vector-v0";

fn register() {
    let _ = Registration::new(
        ID,
        "a constrained corridor",
        |_: NoParams| -> Result<Corridor, CoreError> { Corridor::new(6, 0.1) },
    )
    .with_constraints()
    .register();
}

/// Environment 0 walks into the left wall until its episode is truncated (at 100 steps, on a
/// violating step); the others walk mostly right.
fn action(step: usize, index: usize) -> i64 {
    if index == 0 || (step + index) % 4 == 3 {
        LEFT
    } else {
        RIGHT
    }
}

#[test]
fn vectors_by_id_list_each_steps_violations_in_its_info() {
    register();
    let built = registry::build(ID, None).expect("registered");
    let count = NonZeroUsize::new(4).expect("non-zero");
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new()
            .with_autoreset(autoreset)
            .with_threads(NonZeroUsize::new(2).expect("non-zero"));
        let mut by_id = make_vector::<AnyElement, f32>(ID, None, count, 9, options).expect("by id");
        let mut discrete = make_vector::<i64, f32>(ID, None, count, 9, options).expect("by id");
        let mut copies = EnvironmentVector::<_, f32>::from_environments(count, 9, options, |_| {
            built.environment(0)
        })
        .expect("copies");
        assert!(by_id.reports_infos());
        by_id.reset(Mode::Training).expect("reset");
        discrete.reset(Mode::Training).expect("reset");
        copies.reset(Mode::Training).expect("reset");
        let (mut violations, mut final_violations) = (0, 0);
        for step in 0..150 {
            let actions: Vec<i64> = (0..4).map(|i| action(step, i)).collect();
            let any: Vec<AnyElement> = actions.iter().map(|a| AnyElement::Int(*a)).collect();
            by_id.step(&any).expect("step");
            discrete.step(&actions).expect("step");
            copies.step(&any).expect("step");
            let context = format!("{autoreset:?}, step {step}");
            assert_eq!(by_id.infos(), copies.infos(), "{context}");
            assert_eq!(discrete.infos(), copies.infos(), "{context}");
            assert_eq!(by_id.final_infos(), copies.final_infos(), "{context}");
            assert_eq!(by_id.observations(), copies.observations(), "{context}");
            for info in by_id.infos() {
                if let Some(names) = info.get(VIOLATIONS_INFO_KEY) {
                    assert_eq!(names, &json!(["moves toward the goal"]), "{context}");
                    violations += 1;
                }
            }
            for (info, ended) in by_id.final_infos().iter().zip(by_id.final_mask()) {
                if *ended && info.get(VIOLATIONS_INFO_KEY).is_some() {
                    final_violations += 1;
                }
            }
        }
        assert!(
            violations > 30,
            "{autoreset:?}: only {violations} violating steps"
        );
        if autoreset == Autoreset::SameStep {
            assert!(
                final_violations > 0,
                "environment 0's truncated step violated"
            );
        }
    }
}
