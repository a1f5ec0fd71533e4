//! The test domain's batch kernel agrees with its `Domain::step`, and steps only as many
//! states as every slice covers, as the `BatchStep` contract requires.

use crate::common;

use rand::SeedableRng;
use rl_core::BatchStep;
use rl_core::NumpyGenerator;
use rl_core::{CheckConfig, Domain, Mode, check_domain};

use common::Drift;

#[test]
fn the_test_domain_passes_the_conformance_checker() {
    let report = check_domain(&Drift::new(30, 0.05), &CheckConfig::default());
    assert!(report.is_ok(), "{report}");
}

#[test]
fn the_kernel_agrees_with_the_domain_step_by_step() {
    let drift = Drift::new(1000, 0.05);
    let len = 16;
    let mut setup = NumpyGenerator::seed_from_u64(3);
    let states: Vec<_> = (0..len)
        .map(|_| drift.initial_state(Mode::Training, &mut setup))
        .collect();
    let mut kernel_states = states.clone();
    let mut scalar_states = states.clone();
    let mut kernel_rngs: Vec<NumpyGenerator> =
        (0..len as u64).map(NumpyGenerator::seed_from_u64).collect();
    let mut scalar_rngs = kernel_rngs.clone();
    for round in 0..50 {
        let actions: Vec<i64> = (0..len).map(|i| ((i + round) % 3) as i64).collect();
        let mode = if round % 7 == 0 {
            Mode::EVALUATION
        } else {
            Mode::Training
        };
        let mut rewards = vec![0.0; len];
        let mut terminated = vec![false; len];
        let mut observations = vec![0.0f32; 2 * len];
        drift.step_batch(
            &mut kernel_states,
            &actions,
            mode,
            &mut kernel_rngs,
            &mut rewards,
            &mut terminated,
            &mut observations,
        );
        for i in 0..len {
            let outcome = drift.step(&scalar_states[i], &actions[i], mode, &mut scalar_rngs[i]);
            scalar_states[i] = outcome.next_state;
            assert_eq!(kernel_states[i], outcome.next_state);
            assert_eq!(rewards[i].to_bits(), outcome.value.reward().to_bits());
            assert_eq!(terminated[i], outcome.terminated);
            assert_eq!(
                observations[2 * i..2 * i + 2],
                drift.observe(&outcome.next_state)
            );
        }
    }
    assert_eq!(kernel_rngs, scalar_rngs);
}

#[test]
fn slices_of_different_lengths_step_only_the_shortest_run() {
    let drift = Drift::new(1000, 0.05);
    let mut states = vec![[0.0, 0.0]; 5];
    let mut rngs: Vec<NumpyGenerator> = (0..5).map(NumpyGenerator::seed_from_u64).collect();
    let mut rewards = vec![7.0; 5];
    let mut terminated = vec![false; 5];
    let mut observations = vec![0.0f32; 10];
    // Three actions for five states: the last two are left alone.
    drift.step_batch(
        &mut states,
        &[2, 2, 2],
        Mode::Training,
        &mut rngs,
        &mut rewards,
        &mut terminated,
        &mut observations,
    );
    assert!(states[..3].iter().all(|s| s[1] != 0.0));
    assert_eq!(states[3..], [[0.0, 0.0]; 2]);
    assert_eq!(rewards[3..], [7.0; 2]);
}
