//! A domain's infos reach a vector built by id and the wrappers over it (issue 32): a domain
//! registered here reports one info entry per step, and `make_vector` under
//! `VectorEpisodeStatistics` returns it per environment, final infos included in same-step
//! autoreset, with no code of its own anywhere but the domain.

use std::num::NonZeroUsize;

use rl_core::Mode;
use rl_core::corridor::Corridor;
use rl_core::registry::Registration;
use rl_spaces::AnyElement;
use rl_wrappers::vector::{
    Autoreset, VectorEnv, VectorEpisodeStatistics, VectorOptions, make_vector,
};

use crate::common::{CorridorWith, NoParams};

#[test]
fn a_domains_infos_reach_a_vector_built_by_id() {
    let _ = Registration::new(
        "Corridor-infos-v0",
        "a corridor reporting its cell",
        |_: NoParams| {
            Corridor::new(4, 0.3).map(|corridor| CorridorWith {
                reports_cell: true,
                cap: Some(6),
                ..CorridorWith::plain(corridor)
            })
        },
    )
    .register();
    let count = NonZeroUsize::new(3).expect("non-zero");
    let options = VectorOptions::new().with_autoreset(Autoreset::SameStep);
    let vector = make_vector::<AnyElement, f32>("Corridor-infos-v0", None, count, 5, options)
        .expect("registered");
    let mut vector = VectorEpisodeStatistics::new(vector);
    vector.reset(Mode::Training).expect("reset");
    let (mut reported, mut finals) = (0, 0);
    for t in 0..40 {
        let actions = vec![AnyElement::Int(1); 3];
        vector.step(&actions).expect("a step");
        for i in 0..3 {
            if vector.final_mask()[i] {
                // The step that ended the episode reported its cell among the final infos;
                // the reset observation's environment has no step info of its own.
                let cell = vector.final_infos()[i]
                    .get("cell")
                    .expect("the final step's info");
                assert!(cell.as_i64().is_some(), "step {t}: {cell}");
                finals += 1;
                continue;
            }
            // The observation is the cell one-hot: the info names the same cell.
            let row = vector.observations().row(i);
            let cell = row.iter().position(|value| *value == 1.0).expect("one-hot");
            let info = &vector.infos()[i];
            assert_eq!(
                info.get("cell"),
                Some(&rl_core::InfoValue::from(cell)),
                "step {t}, environment {i}"
            );
            reported += 1;
        }
    }
    assert!(
        reported > 40 && finals > 0,
        "{reported} infos, {finals} final infos"
    );
}

/// A kernel that writes its domain's infos (`BatchStep::write_infos`): its vector reports the
/// infos the vector stepping the domain state by state reports, with both autoresets, final
/// infos included, and the kernel check passes; the same walk without infos reports none.
#[test]
fn a_kernels_infos_reach_its_vector() {
    use crate::common::Drift;
    use rl_wrappers::vector::{KernelVector, SteppedVector};

    let drift = Drift::new(12, 0.2).reporting_velocity();
    let report = rl_core::check_batch_step(&drift, &rl_core::CheckConfig::default());
    assert!(report.is_ok(), "{report}");
    let count = NonZeroUsize::new(5).expect("non-zero");
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new().with_autoreset(autoreset);
        let mut kernel =
            KernelVector::<_, f32>::from_kernel(drift.clone(), count, 3, options).expect("valid");
        let mut stepped =
            SteppedVector::<_, f32>::from_kernel(drift.clone(), count, 3, options).expect("valid");
        assert!(kernel.reports_infos() && stepped.reports_infos());
        kernel.reset(Mode::Training).expect("reset");
        stepped.reset(Mode::Training).expect("reset");
        let (mut reported, mut finals) = (0, 0);
        for t in 0..60 {
            let actions: Vec<i64> = (0..5).map(|i| (t + i) % 3).collect();
            kernel.step(&actions).expect("a step");
            stepped.step(&actions).expect("a step");
            assert_eq!(kernel.infos(), stepped.infos(), "{autoreset:?} step {t}");
            assert_eq!(
                kernel.final_infos(),
                stepped.final_infos(),
                "{autoreset:?} step {t}"
            );
            assert_eq!(kernel.observations(), stepped.observations());
            reported += kernel
                .infos()
                .iter()
                .filter(|info| info.get("velocity").is_some())
                .count();
            finals += kernel
                .final_infos()
                .iter()
                .filter(|info| !info.is_empty())
                .count();
        }
        assert!(reported > 200, "{autoreset:?}: {reported} infos");
        if autoreset == Autoreset::SameStep {
            assert!(finals > 0, "some episode ended");
        }
    }
    let quiet =
        KernelVector::<_, f32>::from_kernel(Drift::new(12, 0.2), count, 3, VectorOptions::new())
            .expect("valid");
    assert!(!quiet.reports_infos());
}
