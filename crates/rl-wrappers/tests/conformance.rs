//! Every wrapper, over a small domain, passes rl-core's conformance checker (one table).

use crate::common;

use std::num::{NonZeroU64, NonZeroUsize};

use rl_core::{CheckConfig, CheckReport, Domain, DynamicEnvironment, Simulator, check_environment};
use rl_wrappers::stateful::{
    ByMode, EpisodeStatistics, HistoryStack, ModeSwitch, NormalizeObservation, NormalizeReward,
    Padding, StickyAction, TimeLimit,
};
use rl_wrappers::stateless::{
    ClipAction, ClipReward, FlattenObservation, OneHotAction, RescaleAction, ScaleReward,
};
use rl_wrappers::{OneHot, OuterEnvironment, ScaleRange, Scaled};

use common::{Drift, Push, PushArray, corridor};

fn drift() -> Simulator<Drift> {
    Simulator::new(Drift::new(60, 0.05), 0)
}

/// A check of one wrapper under a configuration.
type Check = Box<dyn Fn(&CheckConfig) -> CheckReport>;

fn checks() -> Vec<(&'static str, Check)> {
    let config_corridor = || Simulator::new(corridor(5, 0.2), 0);
    vec![
        (
            "outer identity",
            Box::new(move |c| {
                check_environment(
                    || OuterEnvironment::<_, _, f32>::identity(drift()).expect("numeric"),
                    c,
                )
            }),
        ),
        (
            "outer one-hot",
            Box::new(move |c| {
                check_environment(
                    || {
                        let space = *config_corridor().domain().observation_space();
                        OuterEnvironment::<_, _, f64>::new(
                            config_corridor(),
                            OneHot::new(space).expect("finite"),
                        )
                    },
                    c,
                )
            }),
        ),
        (
            "outer scaled",
            Box::new(|c| {
                check_environment(
                    || {
                        let space = *drift().domain().observation_space();
                        OuterEnvironment::<_, _, f32>::new(
                            drift(),
                            Scaled::new(space, ScaleRange::Symmetric).expect("bounded"),
                        )
                    },
                    c,
                )
            }),
        ),
        (
            "outer behind dynamic spaces",
            Box::new(|c| {
                check_environment(
                    || {
                        let outer = OuterEnvironment::<_, _, f32>::identity(drift());
                        DynamicEnvironment::new(outer.expect("numeric"))
                    },
                    c,
                )
            }),
        ),
        (
            "flatten",
            Box::new(|c| {
                check_environment(
                    || {
                        FlattenObservation::<_, f32>::flatten(Simulator::new(PushArray::new(), 0))
                            .expect("numeric")
                    },
                    c,
                )
            }),
        ),
        (
            "history stack",
            Box::new(|c| {
                check_environment(
                    || {
                        let outer =
                            OuterEnvironment::<_, _, f32>::identity(drift()).expect("numeric");
                        HistoryStack::uniform(
                            outer,
                            NonZeroUsize::new(3).expect("non-zero"),
                            Padding::Zeros,
                        )
                        .expect("valid")
                    },
                    c,
                )
            }),
        ),
        (
            "normalize observation",
            Box::new(|c| {
                check_environment(
                    || {
                        NormalizeObservation::new(
                            OuterEnvironment::<_, _, f64>::identity(drift()).expect("numeric"),
                        )
                        .expect("numeric")
                    },
                    c,
                )
            }),
        ),
        (
            "time limit",
            Box::new(|c| {
                check_environment(
                    || TimeLimit::new(drift(), NonZeroU64::new(7).expect("non-zero")),
                    c,
                )
            }),
        ),
        (
            "normalize reward",
            Box::new(|c| {
                check_environment(|| NormalizeReward::new(drift(), 0.99).expect("discount"), c)
            }),
        ),
        (
            "scale reward",
            Box::new(|c| check_environment(|| ScaleReward::new(drift(), 2.0).expect("finite"), c)),
        ),
        (
            "clip reward",
            Box::new(|c| {
                check_environment(|| ClipReward::new(drift(), -0.1, 0.0).expect("interval"), c)
            }),
        ),
        (
            "episode statistics",
            Box::new(|c| check_environment(|| EpisodeStatistics::new(drift()).with_info(true), c)),
        ),
        (
            "mode switch",
            Box::new(|c| {
                check_environment(
                    || {
                        let limits = ByMode::new(
                            NonZeroU64::new(9).expect("non-zero"),
                            NonZeroU64::new(4).expect("non-zero"),
                        );
                        ModeSwitch::new(
                            TimeLimit::new(drift(), NonZeroU64::MIN),
                            limits,
                            |env: &mut TimeLimit<_>, l: &NonZeroU64| env.set_max_steps(*l),
                        )
                    },
                    c,
                )
            }),
        ),
        (
            "sticky action",
            Box::new(|c| {
                check_environment(
                    || StickyAction::new(drift(), ByMode::new(0.3, 0.0), 1).expect("probabilities"),
                    c,
                )
            }),
        ),
        (
            "one-hot action",
            Box::new(|c| {
                check_environment(|| OneHotAction::<_, f32>::new(drift()).expect("finite"), c)
            }),
        ),
        (
            "clip action",
            Box::new(|c| {
                check_environment(
                    || ClipAction::new(Simulator::new(Push::new(), 0)).expect("a float box"),
                    c,
                )
            }),
        ),
        (
            "rescale action",
            Box::new(|c| {
                check_environment(
                    || RescaleAction::new(Simulator::new(PushArray::new(), 0)).expect("bounded"),
                    c,
                )
            }),
        ),
    ]
}

#[test]
fn every_wrapper_passes_the_conformance_checker() {
    let config = CheckConfig {
        episodes: 4,
        max_steps: 200,
        ..CheckConfig::default()
    };
    let mut failures = Vec::new();
    for (name, check) in checks() {
        let report = check(&config);
        if !report.is_ok() {
            failures.push(format!("{name}:\n{report}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
