//! Normalisation: observations by their running mean and variance, rewards by the variance of
//! a discounted return, both as Gymnasium computes them, and both frozen while evaluating.

use crate::common;

use std::num::NonZeroU64;

use rl_core::corridor::RIGHT;
use rl_core::{Environment, Mode, Simulator};
use rl_spaces::Space;
use rl_wrappers::OuterEnvironment;
use rl_wrappers::stateful::{
    NormalizeObservation, NormalizeReward, RunningMeanVariance, TimeLimit,
};

use common::{Drift, corridor};

fn drift_outer(
    seed: u64,
) -> OuterEnvironment<Simulator<Drift>, rl_wrappers::Identity<rl_spaces::ArrayBox<f32, 2>>, f64> {
    OuterEnvironment::identity(Simulator::new(Drift::new(40, 0.1), seed)).expect("numeric")
}

#[test]
fn observations_are_normalized_as_gymnasium_does() {
    let mut twin = drift_outer(6);
    let mut env = NormalizeObservation::new(drift_outer(6)).expect("numeric");
    let mut statistics = RunningMeanVariance::new(2).expect("small");
    let normalize = |statistics: &RunningMeanVariance, x: &[f64]| -> Vec<f64> {
        x.iter()
            .zip(statistics.mean().iter().zip(statistics.variance()))
            .map(|(x, (m, v))| (x - m) / (v + 1e-8).sqrt())
            .collect()
    };
    let raw = twin.reset(Mode::Training).expect("reset");
    statistics.update(raw.as_slice()).expect("dimension 2");
    assert_eq!(
        env.reset(Mode::Training).expect("reset").as_slice(),
        normalize(&statistics, raw.as_slice())
    );
    for i in 0..300 {
        let action = (i % 3) as i64;
        let raw = twin.step(&action).expect("step");
        let outcome = env.step(&action).expect("step");
        statistics
            .update(raw.observation.as_slice())
            .expect("dimension 2");
        let expected = normalize(&statistics, raw.observation.as_slice());
        assert_eq!(outcome.observation.as_slice(), expected, "step {i}");
        assert!(env.observation_space().contains(&outcome.observation));
        if raw.is_done() {
            let raw = twin.reset(Mode::Training).expect("reset");
            statistics.update(raw.as_slice()).expect("dimension 2");
            assert_eq!(
                env.reset(Mode::Training).expect("reset").as_slice(),
                normalize(&statistics, raw.as_slice())
            );
        }
    }
    assert_eq!(env.statistics(), &statistics);
    assert_eq!(env.epsilon(), 1e-8);
}

#[test]
fn observation_statistics_are_frozen_while_evaluating() {
    let mut env = NormalizeObservation::new(drift_outer(2)).expect("numeric");
    env.reset(Mode::Training).expect("reset");
    for _ in 0..5 {
        env.step(&1).expect("step");
    }
    let learned = env.statistics().clone();
    let first = env.reset(Mode::EVALUATION).expect("reset");
    for _ in 0..5 {
        env.step(&1).expect("step");
    }
    assert_eq!(
        env.statistics(),
        &learned,
        "evaluation never updates the statistics"
    );
    // The evaluation observation was normalised with the learned statistics.
    let raw = env.inner().observation_space().layout().flat_dim();
    assert_eq!(first.as_slice().len(), raw);
    env.reset(Mode::Training).expect("reset");
    assert_ne!(env.statistics(), &learned, "training updates them again");
}

#[test]
fn statistics_can_be_handed_over_and_are_checked() {
    let mut trained = NormalizeObservation::new(drift_outer(1)).expect("numeric");
    trained.reset(Mode::Training).expect("reset");
    trained.step(&1).expect("step");
    let mut evaluator = NormalizeObservation::new(drift_outer(1))
        .expect("numeric")
        .with_epsilon(1e-6)
        .expect("positive");
    evaluator
        .set_statistics(trained.statistics().clone())
        .expect("same dimension");
    assert_eq!(evaluator.statistics(), trained.statistics());
    assert!(
        evaluator
            .set_statistics(RunningMeanVariance::new(3).expect("small"))
            .is_err()
    );
    assert!(
        NormalizeObservation::new(drift_outer(1))
            .expect("numeric")
            .with_epsilon(0.0)
            .is_err()
    );
}

/// Gymnasium 1.x's NormalizeReward, step by step, on the rewards and flags given.
struct GymnasiumNormalizeReward {
    gamma: f64,
    discounted: f64,
    statistics: RunningMeanVariance,
}

impl GymnasiumNormalizeReward {
    fn step(&mut self, reward: f64, terminated: bool, update: bool) -> f64 {
        self.discounted =
            self.discounted * self.gamma * (1.0 - f64::from(u8::from(terminated))) + reward;
        if update {
            self.statistics
                .update(&[self.discounted])
                .expect("dimension 1");
        }
        reward / (self.statistics.variance()[0] + 1e-8).sqrt()
    }
}

#[test]
fn rewards_are_normalized_as_gymnasium_does() {
    let limit = NonZeroU64::new(7).expect("non-zero");
    let mut twin = TimeLimit::new(Simulator::new(Drift::new(1000, 0.1), 3), limit);
    let mut env = NormalizeReward::new(
        TimeLimit::new(Simulator::new(Drift::new(1000, 0.1), 3), limit),
        0.9,
    )
    .expect("discount");
    let mut reference = GymnasiumNormalizeReward {
        gamma: 0.9,
        discounted: 0.0,
        statistics: RunningMeanVariance::new(1).expect("small"),
    };
    twin.reset(Mode::Training).expect("reset");
    env.reset(Mode::Training).expect("reset");
    let mut truncations = 0;
    for i in 0..400 {
        let action = ((i / 5) % 3) as i64;
        let raw = twin.step(&action).expect("step");
        let outcome = env.step(&action).expect("step");
        let expected = reference.step(raw.reward(), raw.terminated, true);
        assert_eq!(outcome.reward().to_bits(), expected.to_bits(), "step {i}");
        assert_eq!(
            env.discounted_return().to_bits(),
            reference.discounted.to_bits()
        );
        if raw.is_done() {
            truncations += usize::from(raw.truncated && !raw.terminated);
            twin.reset(Mode::Training).expect("reset");
            env.reset(Mode::Training).expect("reset");
        }
    }
    assert!(
        truncations > 10,
        "truncations must not clear the return, as in Gymnasium"
    );
    assert_eq!(env.statistics(), &reference.statistics);
}

#[test]
fn termination_clears_the_return_and_evaluation_freezes_the_statistics() {
    let mut env = NormalizeReward::new(Simulator::new(corridor(3, 0.0), 0), 0.5).expect("discount");
    env.reset(Mode::Training).expect("reset");
    env.step(&RIGHT).expect("step");
    assert_eq!(env.discounted_return(), -1.0);
    // The terminal step clears the return before adding its own reward (Gymnasium's
    // `G * gamma * (1 - terminated) + r`) ...
    env.step(&RIGHT).expect("the goal");
    assert_eq!(env.discounted_return(), -1.0);
    // ... which the next episode then discounts, as in Gymnasium.
    env.reset(Mode::EVALUATION).expect("reset");
    let frozen = env.statistics().clone();
    env.step(&RIGHT).expect("step");
    assert_eq!(env.discounted_return(), -1.5);
    assert_eq!(
        env.statistics(),
        &frozen,
        "evaluation never updates the statistics"
    );
    assert!(NormalizeReward::new(Simulator::new(corridor(3, 0.0), 0), 1.5).is_err());
    assert!(
        env.set_statistics(RunningMeanVariance::new(2).expect("small"))
            .is_err()
    );
}
