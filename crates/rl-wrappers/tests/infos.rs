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
