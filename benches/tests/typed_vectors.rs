//! The typed vectors of the domains without a structure-of-arrays kernel (issue 44, item 4):
//! a `SteppedVector` of Acrobot, Pendulum and MountainCarContinuous, on one and two threads,
//! gives bit for bit what copies of their simulators give (observations, rewards, flags and
//! infos), across autoresets, with the domain's own action type.

use std::num::NonZeroUsize;

use rand::SeedableRng;
use rl_core::{Domain, Mode, NumpyGenerator, Simulator};
use rl_domains::acrobot::{Acrobot, AcrobotParams};
use rl_domains::mountain_car_continuous::{MountainCarContinuous, MountainCarContinuousParams};
use rl_domains::pendulum::{Pendulum, PendulumParams};
use rl_spaces::{FlattenSpace, SampleSpace};
use rl_wrappers::vector::{EnvironmentVector, SteppedVector, VectorOptions};

const ENVS: usize = 12;
const STEPS: usize = 260;

/// Steps a `SteppedVector` of `domain` on `threads` threads and copies of its simulator side by
/// side with the same random actions, comparing everything each step shows; returns how many
/// episodes ended.
fn check<D>(domain: D, threads: usize) -> usize
where
    D: Domain + Clone + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ActionSpace: SampleSpace + Clone + PartialEq + Send + 'static,
    D::ObservationSpace: FlattenSpace,
{
    let count = NonZeroUsize::new(ENVS).expect("non-zero");
    let options = VectorOptions::new().with_threads(NonZeroUsize::new(threads).expect("non-zero"));
    let mut typed = SteppedVector::<D, f32>::from_kernel(domain.clone(), count, 11, options)
        .expect("a stepped vector");
    let mut copies =
        EnvironmentVector::<Simulator<D>, f32>::from_environments(count, 11, options, |_| {
            Simulator::new(domain.clone(), 0)
        })
        .expect("copies");
    typed.reset(Mode::Training).expect("reset");
    copies.reset(Mode::Training).expect("reset");
    assert_eq!(typed.observations(), copies.observations());
    let space = domain.action_space().clone();
    let mut rng = NumpyGenerator::seed_from_u64(5);
    let mut ended = 0;
    for step in 0..STEPS {
        let actions: Vec<D::Action> = (0..ENVS).map(|_| space.sample(&mut rng)).collect();
        typed.step(&actions).expect("step");
        copies.step(&actions).expect("step");
        assert_eq!(typed.observations(), copies.observations(), "step {step}");
        let bits = |rewards: &[f64]| rewards.iter().map(|r| r.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(typed.rewards()), bits(copies.rewards()), "step {step}");
        assert_eq!(typed.terminated(), copies.terminated(), "step {step}");
        assert_eq!(typed.truncated(), copies.truncated(), "step {step}");
        assert_eq!(typed.infos(), copies.infos(), "step {step}");
        ended += typed.truncated().iter().filter(|t| **t).count();
        ended += typed.terminated().iter().filter(|t| **t).count();
    }
    assert!(
        typed.reports_infos(),
        "a stepped vector reports its domain's infos"
    );
    ended
}

#[test]
fn a_typed_vector_of_acrobot_matches_copies_of_its_simulator() {
    let acrobot = Acrobot::new(AcrobotParams::default()).expect("valid");
    check(acrobot.clone(), 1);
    check(acrobot, 2);
}

#[test]
fn a_typed_vector_of_pendulum_matches_copies_of_its_simulator_across_truncations() {
    let pendulum = Pendulum::new(PendulumParams::default()).expect("valid");
    for threads in [1, 2] {
        assert_eq!(
            check(pendulum.clone(), threads),
            ENVS,
            "every episode is truncated at step 200 once"
        );
    }
}

#[test]
fn a_typed_vector_of_mountain_car_continuous_matches_copies_of_its_simulator() {
    let domain = MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
    check(domain.clone(), 1);
    check(domain, 2);
}
