//! The vector environment: autoreset modes, input checks before stepping, the seed rule,
//! the kernel path agreeing with copies, and threads agreeing with one thread, bit for bit.

use crate::common;

use std::num::NonZeroUsize;

use rand::{RngExt, SeedableRng};
use rl_core::NumpyGenerator;
use rl_core::corridor::Corridor;
use rl_core::corridor::{LEFT, RIGHT};
use rl_core::{Environment, Mode, RandomState, Seed, Simulator};
use rl_spaces::FlatScalar;
use rl_wrappers::VectorError;
use rl_wrappers::stateful::EpisodeStatistics;
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, KernelVector, VectorEnvironment, VectorOptions,
};

use common::{Drift, corridor};

fn count(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).expect("non-zero")
}

fn options(autoreset: Autoreset, threads: usize) -> VectorOptions {
    VectorOptions::new()
        .with_autoreset(autoreset)
        .with_threads(count(threads))
}

const AUTORESETS: [Autoreset; 3] = [
    Autoreset::NextStep,
    Autoreset::SameStep,
    Autoreset::Disabled,
];

/// Everything a vector environment shows after a call, as bits.
#[derive(Debug, Clone, PartialEq)]
struct Snapshot {
    observations: Vec<u64>,
    rewards: Vec<u64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    final_mask: Vec<bool>,
    final_observations: Vec<u64>,
}

fn snapshot<S: rl_core::SplitStates<T>, T: FlatScalar>(
    vector: &VectorEnvironment<S, T>,
) -> Snapshot {
    let bits = |x: &T| x.to_f64().to_bits();
    let dim = vector.flat_dim();
    let final_observations = vector
        .final_mask()
        .iter()
        .enumerate()
        .filter(|(_, kept)| **kept)
        .flat_map(|(i, _)| {
            vector
                .final_observations()
                .row(i)
                .iter()
                .map(bits)
                .collect::<Vec<_>>()
        })
        .collect();
    let snapshot = Snapshot {
        observations: vector.observations().iter().map(bits).collect(),
        rewards: vector.rewards().iter().map(|r| r.to_bits()).collect(),
        terminated: vector.terminated().to_vec(),
        truncated: vector.truncated().to_vec(),
        final_mask: vector.final_mask().to_vec(),
        final_observations,
    };
    assert_eq!(snapshot.observations.len(), vector.len() * dim);
    snapshot
}

/// Resets, then takes `steps` steps with random actions in `0..actions` drawn from
/// `action_seed` (resetting ended environments first when autoreset is disabled), and records
/// every call.
fn trajectory<S: rl_core::SplitStates<T, Action = i64>, T: FlatScalar>(
    vector: &mut VectorEnvironment<S, T>,
    steps: usize,
    actions: i64,
    action_seed: u64,
    mode: Mode,
) -> Vec<Snapshot> {
    let mut rng = NumpyGenerator::seed_from_u64(action_seed);
    vector.reset(mode).expect("reset");
    let mut record = vec![snapshot(vector)];
    for _ in 0..steps {
        if vector.options().autoreset() == Autoreset::Disabled
            && vector
                .terminated()
                .iter()
                .zip(vector.truncated())
                .any(|(t, u)| *t || *u)
        {
            vector.reset_ended().expect("reset the ended");
            record.push(snapshot(vector));
        }
        let chosen: Vec<i64> = (0..vector.len())
            .map(|_| rng.random_range(0..actions))
            .collect();
        vector.step(&chosen).expect("valid step");
        record.push(snapshot(vector));
    }
    record
}

fn drift_copies(
    n: usize,
    seed: u64,
    options: VectorOptions,
) -> EnvironmentVector<Simulator<Drift>, f32> {
    let drift = Drift::new(25, 0.05);
    EnvironmentVector::from_environments(count(n), seed, options, |_| {
        Simulator::new(drift.clone(), 0)
    })
    .expect("valid")
}

fn drift_kernel(n: usize, seed: u64, options: VectorOptions) -> KernelVector<Drift, f32> {
    KernelVector::from_kernel(Drift::new(25, 0.05), count(n), seed, options).expect("valid")
}

#[test]
fn the_kernel_path_and_the_copies_path_agree_bit_for_bit() {
    for autoreset in AUTORESETS {
        for mode in [Mode::Training, Mode::EVALUATION] {
            let copies = trajectory(
                &mut drift_copies(13, 5, options(autoreset, 1)),
                200,
                3,
                9,
                mode,
            );
            let kernel = trajectory(
                &mut drift_kernel(13, 5, options(autoreset, 1)),
                200,
                3,
                9,
                mode,
            );
            assert_eq!(copies, kernel, "{autoreset:?} in {mode}");
            let ended = copies
                .iter()
                .filter(|s| s.terminated.iter().any(|t| *t))
                .count();
            let truncated = copies
                .iter()
                .filter(|s| s.truncated.iter().any(|t| *t))
                .count();
            assert!(
                ended > 5 && truncated > 5,
                "the run must cross both kinds of episode end"
            );
        }
    }
}

#[test]
fn one_and_two_threads_give_bit_identical_trajectories() {
    for autoreset in AUTORESETS {
        let one = trajectory(
            &mut drift_copies(64, 11, options(autoreset, 1)),
            150,
            3,
            4,
            Mode::Training,
        );
        let two = trajectory(
            &mut drift_copies(64, 11, options(autoreset, 2)),
            150,
            3,
            4,
            Mode::Training,
        );
        assert_eq!(one, two, "copies, {autoreset:?}");
        let one = trajectory(
            &mut drift_kernel(64, 11, options(autoreset, 1)),
            150,
            3,
            4,
            Mode::Training,
        );
        let two = trajectory(
            &mut drift_kernel(64, 11, options(autoreset, 2)),
            150,
            3,
            4,
            Mode::Training,
        );
        assert_eq!(one, two, "kernel, {autoreset:?}");
    }
}

#[test]
fn any_number_of_threads_gives_the_same_results() {
    let reference = trajectory(
        &mut drift_kernel(10, 2, options(Autoreset::SameStep, 1)),
        80,
        3,
        1,
        Mode::Training,
    );
    for threads in [3, 4, 7, 10] {
        let kernel = trajectory(
            &mut drift_kernel(10, 2, options(Autoreset::SameStep, threads)),
            80,
            3,
            1,
            Mode::Training,
        );
        let copies = trajectory(
            &mut drift_copies(10, 2, options(Autoreset::SameStep, threads)),
            80,
            3,
            1,
            Mode::Training,
        );
        assert_eq!(kernel, reference, "kernel with {threads} threads");
        assert_eq!(copies, reference, "copies with {threads} threads");
    }
}

#[test]
fn environment_i_is_seeded_with_the_seed_plus_i() {
    let seed = 1234;
    let drift = Drift::new(25, 0.05);
    let mut vector = drift_copies(5, seed, VectorOptions::new());
    let mut singles: Vec<Simulator<Drift>> = (0..5)
        .map(|i| Simulator::new(drift.clone(), seed + i))
        .collect();
    vector.reset(Mode::Training).expect("reset");
    for (i, single) in singles.iter_mut().enumerate() {
        let first = single.reset(Mode::Training).expect("reset");
        assert_eq!(vector.observations().row(i).to_vec(), first.to_vec());
    }
    // Step both the same way, resetting the singles as next-step autoreset does.
    let mut pending = [false; 5];
    for round in 0..100 {
        let actions: Vec<i64> = (0..5).map(|i| ((round + i) % 3) as i64).collect();
        vector.step(&actions).expect("step");
        for (i, single) in singles.iter_mut().enumerate() {
            if pending[i] {
                let first = single.reset(Mode::Training).expect("reset");
                assert_eq!(vector.observations().row(i).to_vec(), first.to_vec());
                assert_eq!(vector.rewards()[i], 0.0);
                pending[i] = false;
                continue;
            }
            let outcome = single.step(&actions[i]).expect("step");
            assert_eq!(
                vector.observations().row(i).to_vec(),
                outcome.observation.to_vec()
            );
            assert_eq!(vector.rewards()[i].to_bits(), outcome.reward().to_bits());
            assert_eq!(vector.terminated()[i], outcome.terminated);
            assert_eq!(vector.truncated()[i], outcome.truncated);
            pending[i] = outcome.is_done();
        }
    }
}

#[test]
fn reseeding_starts_over() {
    let mut vector = drift_kernel(6, 1, VectorOptions::new());
    let first = trajectory(&mut vector, 40, 3, 0, Mode::Training);
    let second = trajectory(&mut vector, 40, 3, 0, Mode::Training);
    assert_ne!(first, second, "a reset does not reseed");
    vector.seed(1).expect("seed");
    assert_eq!(trajectory(&mut vector, 40, 3, 0, Mode::Training), first);
}

/// Issue 41: seeds of any size, as numpy's `SeedSequence` takes them (Gymnasium's
/// `reset(seed=2**64 + 5)`): environment `i` draws numpy's generator of `seed + i`, across
/// 2^64 too, on the kernel path and the copies path alike, on one thread or two.
#[test]
fn seeds_of_any_size_give_environment_i_numpys_generator_of_seed_plus_i() {
    let drift = Drift::new(25, 0.05);
    let seeds = [
        // Environments 0 and 1 below 2^64, 2 to 4 above.
        Seed::from(u64::MAX - 1),
        // 2**64 + 5 and 10**30.
        Seed::from_words(&[5, 0, 1]),
        Seed::from_words(&[0x4000_0000, 0x4674_EDEA, 0x9F2C_9CD0, 0xC]),
    ];
    for seed in &seeds {
        for threads in [1, 2] {
            let mut copies = drift_copies(5, 0, options(Autoreset::NextStep, threads));
            let mut kernel = drift_kernel(5, 0, options(Autoreset::NextStep, threads));
            copies
                .seed_from(seed)
                .expect("copies of a simulator take any seed");
            kernel.seed_from(seed).expect("a kernel takes any seed");
            let from_copies = trajectory(&mut copies, 60, 3, 9, Mode::Training);
            let from_kernel = trajectory(&mut kernel, 60, 3, 9, Mode::Training);
            assert_eq!(from_copies, from_kernel, "{seed}, {threads} threads");
            // Each environment starts as a single one whose generator is numpy's of seed + i.
            copies.seed_from(seed).expect("seed");
            copies.reset(Mode::Training).expect("reset");
            for i in 0..5u64 {
                let mut single = Simulator::new(drift.clone(), 0);
                single
                    .set_random_state(RandomState::new(seed.plus(i).generator()))
                    .expect("a simulator takes a generator");
                let first = single.reset(Mode::Training).expect("reset");
                assert_eq!(
                    copies.observations().row(i as usize).to_vec(),
                    first.to_vec(),
                    "{seed} + {i}"
                );
            }
            // A u64 seed is the same seed.
            if let Some(small) = seed.to_u64() {
                let mut by_u64 = drift_kernel(5, 0, options(Autoreset::NextStep, threads));
                by_u64.seed(small).expect("seed");
                assert_eq!(
                    trajectory(&mut by_u64, 60, 3, 9, Mode::Training),
                    from_kernel
                );
            }
        }
    }
}

/// Copies of an environment that cannot set its generator (`Fused` keeps the trait's
/// `set_random_state`, which refuses) cannot take a seed of 2^64 or more: an error naming the
/// environment, and no environment reseeded, not even those given seeds below 2^64.
#[test]
fn a_large_seed_an_environment_cannot_take_is_refused_with_nothing_reseeded() {
    let fused = |_| Fused {
        inner: Simulator::new(corridor(5, 0.2), 0),
        steps: 0,
        fuse: usize::MAX,
    };
    for threads in [1, 2] {
        let make = || {
            EnvironmentVector::<_, f32>::from_environments(
                count(4),
                3,
                options(Autoreset::NextStep, threads),
                fused,
            )
            .expect("a vector")
        };
        let mut vector = make();
        let large = Seed::from_words(&[5, 0, 1]);
        let refused = vector
            .seed_each(&[
                Some(Seed::from(1)),
                None,
                Some(large.clone()),
                Some(Seed::from(2)),
            ])
            .expect_err("the environment cannot take a large seed");
        match &refused {
            VectorError::Environment { index, .. } => assert_eq!(*index, 2),
            other => panic!("not an environment's error: {other}"),
        }
        let message = refused.to_string();
        assert!(
            message.contains("18446744073709551621") && message.contains("set_random_state"),
            "{message}"
        );
        assert!(vector.seed_from(&large).is_err());
        // Nothing was reseeded: the vector goes on as one that was never asked.
        let mut untouched = make();
        assert_eq!(
            trajectory(&mut vector, 60, 2, 4, Mode::Training),
            trajectory(&mut untouched, 60, 2, 4, Mode::Training)
        );
        // Seeds below 2^64 still go to Environment::seed.
        vector
            .seed(u64::MAX - 3)
            .expect("the largest seeds below 2^64");
        assert!(
            vector.seed(u64::MAX - 2).is_err(),
            "u64::MAX - 2 + 3 is 2^64"
        );
        assert!(
            EnvironmentVector::<_, f32>::from_environments(
                count(4),
                u64::MAX,
                options(Autoreset::NextStep, threads),
                fused,
            )
            .is_err()
        );
    }
}

fn corridors(
    n: usize,
    length: u32,
    autoreset: Autoreset,
) -> EnvironmentVector<Simulator<Corridor>, f32> {
    let corridor = corridor(length, 0.0);
    EnvironmentVector::from_environments(count(n), 0, options(autoreset, 1), |_| {
        Simulator::new(corridor.clone(), 0)
    })
    .expect("valid")
}

#[test]
fn next_step_autoreset_resets_on_the_following_step_and_ignores_its_action() {
    let mut vector = corridors(2, 2, Autoreset::NextStep);
    vector.reset(Mode::Training).expect("reset");
    vector.step(&[RIGHT, LEFT]).expect("step");
    assert_eq!(vector.terminated(), &[true, false]);
    assert_eq!(
        vector.observations().row(0).to_vec(),
        [0.0, 1.0],
        "the final observation"
    );
    vector.step(&[RIGHT, RIGHT]).expect("step");
    // Environment 0 was reset: its action was ignored, reward 0, both flags false.
    assert_eq!(vector.observations().row(0).to_vec(), [1.0, 0.0]);
    assert_eq!(vector.rewards(), &[0.0, -1.0]);
    assert_eq!(vector.terminated(), &[false, true]);
    assert_eq!(vector.truncated(), &[false, false]);
    assert_eq!(vector.final_mask(), &[false, false]);
    assert_eq!(vector.final_observations().nrows(), 0);
}

#[test]
fn same_step_autoreset_keeps_the_final_observation_and_info() {
    let corridor = corridor(2, 0.0);
    let mut vector = EnvironmentVector::<_, f64>::from_environments(
        count(2),
        0,
        options(Autoreset::SameStep, 1),
        |_| EpisodeStatistics::new(Simulator::new(corridor.clone(), 0)).with_info(true),
    )
    .expect("valid");
    vector.reset(Mode::Training).expect("reset");
    vector.step(&[RIGHT, LEFT]).expect("step");
    assert_eq!(vector.terminated(), &[true, false]);
    assert_eq!(vector.rewards(), &[-1.0, -1.0]);
    assert_eq!(vector.final_mask(), &[true, false]);
    assert_eq!(vector.final_observations().row(0).to_vec(), [0.0, 1.0]);
    assert_eq!(
        vector.observations().row(0).to_vec(),
        [1.0, 0.0],
        "already reset"
    );
    let episode = vector.final_infos()[0]
        .get("episode")
        .expect("the final info");
    assert_eq!(episode.to_json()["length"], 1);
    assert!(vector.infos()[0].is_empty());
    // The reset environment steps normally on the next call.
    vector.step(&[LEFT, RIGHT]).expect("step");
    assert_eq!(vector.rewards(), &[-1.0, -1.0]);
    assert_eq!(vector.final_mask(), &[false, true]);
}

#[test]
fn disabled_autoreset_refuses_ended_environments_until_they_are_reset() {
    let mut vector = corridors(3, 2, Autoreset::Disabled);
    vector.reset(Mode::Training).expect("reset");
    vector.step(&[LEFT, RIGHT, LEFT]).expect("step");
    let before = snapshot(&vector);
    assert_eq!(
        vector.step(&[LEFT; 3]),
        Err(VectorError::EpisodeEnded { index: 1 })
    );
    assert_eq!(snapshot(&vector), before, "nothing stepped");
    vector.reset_ended().expect("reset the ended");
    assert_eq!(vector.observations().row(1).to_vec(), [1.0, 0.0]);
    assert_eq!(vector.terminated(), &[false; 3]);
    assert_eq!(
        vector.observations().row(0).to_vec(),
        [1.0, 0.0],
        "others keep their results"
    );
    vector.step(&[RIGHT; 3]).expect("all running again");
    assert_eq!(vector.terminated(), &[true; 3]);
}

#[test]
fn invalid_input_is_refused_before_anything_steps() {
    let mut vector = corridors(4, 5, Autoreset::NextStep);
    assert_eq!(vector.step(&[RIGHT; 4]), Err(VectorError::NotStarted));
    assert_eq!(vector.reset_ended(), Err(VectorError::NotStarted));
    vector.reset(Mode::Training).expect("reset");
    vector.step(&[RIGHT; 4]).expect("step");
    let before = snapshot(&vector);
    assert_eq!(
        vector.step(&[RIGHT; 3]),
        Err(VectorError::ActionCount {
            expected: 4,
            found: 3
        })
    );
    let error = vector
        .step(&[RIGHT, LEFT, 5, RIGHT])
        .expect_err("5 is no action");
    assert_eq!(
        error,
        VectorError::InvalidAction {
            index: 2,
            action: "5".to_owned(),
            space: "Discrete(2)".to_owned()
        }
    );
    assert!(error.to_string().contains("environment 2"), "{error}");
    assert_eq!(snapshot(&vector), before, "nothing stepped");
    // The environments continue where they were.
    vector.step(&[RIGHT; 4]).expect("step");
    assert_eq!(
        vector.observations().row(0).to_vec(),
        [0.0, 0.0, 1.0, 0.0, 0.0]
    );
}

#[test]
fn construction_is_validated() {
    let corridor3 = corridor(3, 0.0);
    let too_many = EnvironmentVector::<_, f32>::from_environments(
        count(2),
        0,
        options(Autoreset::NextStep, 3),
        |_| Simulator::new(corridor3.clone(), 0),
    );
    assert!(matches!(
        too_many,
        Err(VectorError::InvalidParameter {
            name: "threads",
            ..
        })
    ));
    let mismatched =
        EnvironmentVector::<_, f32>::from_environments(count(3), 0, VectorOptions::new(), |i| {
            Simulator::new(corridor(3 + i as u32, 0.0), 0)
        });
    let error = mismatched.expect_err("observations of different lengths");
    assert!(error.to_string().contains("environment 1"), "{error}");
    let huge = NonZeroUsize::new(usize::MAX / 2).expect("non-zero");
    let too_large =
        KernelVector::<_, f32>::from_kernel(Drift::new(5, 0.0), huge, 0, VectorOptions::new());
    assert!(matches!(
        too_large,
        Err(VectorError::InvalidParameter { name: "count", .. })
    ));
    let kernel = KernelVector::<_, f64>::from_kernel(
        Drift::new(5, 0.0),
        count(1),
        0,
        options(Autoreset::NextStep, 2),
    );
    assert!(kernel.is_err());
}

/// Issue 33: `2^40` environments aborted the process ("memory allocation failed"): the size
/// check only caught arithmetic overflow. Counts beyond `MAX_ENVS` and counts whose buffers
/// cannot be allocated are errors naming the count, before anything is allocated, on both
/// construction paths.
#[test]
fn counts_that_cannot_be_allocated_are_errors_not_aborts() {
    for len in [1usize << 40, rl_wrappers::vector::MAX_ENVS + 1] {
        let huge = NonZeroUsize::new(len).expect("non-zero");
        let kernel =
            KernelVector::<_, f32>::from_kernel(Drift::new(5, 0.0), huge, 0, VectorOptions::new());
        let Err(error) = kernel else {
            panic!("{len} environments were accepted");
        };
        assert!(matches!(
            error,
            VectorError::InvalidParameter { name: "count", .. }
        ));
        assert!(error.to_string().contains(&len.to_string()), "{error}");
        let mut built = 0;
        let copies =
            EnvironmentVector::<_, f32>::from_environments(huge, 0, VectorOptions::new(), |_| {
                built += 1;
                Simulator::new(corridor(3, 0.0), 0)
            });
        assert!(matches!(
            copies,
            Err(VectorError::InvalidParameter { name: "count", .. })
        ));
        assert_eq!(built, 0, "no environment is built for a refused count");
    }
}

#[test]
fn the_kernel_truncates_at_the_episode_cap() {
    let mut vector = KernelVector::<_, f64>::from_kernel(
        Drift::new(4, 0.0),
        count(2),
        0,
        options(Autoreset::Disabled, 1),
    )
    .expect("valid");
    vector.reset(Mode::EVALUATION).expect("reset");
    assert_eq!(vector.mode(), Mode::EVALUATION);
    for _ in 0..3 {
        vector.step(&[1, 1]).expect("step");
        assert_eq!(vector.truncated(), &[false, false]);
    }
    vector.step(&[1, 1]).expect("step");
    assert_eq!(vector.truncated(), &[true, true]);
    assert_eq!(vector.terminated(), &[false, false]);
    assert_eq!(rl_core::Domain::episode_cap(vector.domain()), Some(4));
}

/// A corridor whose environment panics on its `fuse`-th step (a bug in a user's environment).
struct Fused {
    inner: Simulator<Corridor>,
    steps: usize,
    fuse: usize,
}

impl Environment for Fused {
    type Observation = i64;
    type Action = i64;
    type ObservationSpace = rl_spaces::Discrete;
    type ActionSpace = rl_spaces::Discrete;

    fn observation_space(&self) -> &rl_spaces::Discrete {
        self.inner.observation_space()
    }

    fn action_space(&self) -> &rl_spaces::Discrete {
        self.inner.action_space()
    }

    fn reset(&mut self, mode: Mode) -> Result<i64, rl_core::CoreError> {
        self.inner.reset(mode)
    }

    fn step(&mut self, action: &i64) -> Result<rl_core::StepOutcome<i64>, rl_core::CoreError> {
        self.steps += 1;
        assert!(self.steps != self.fuse, "the environment's own bug");
        self.inner.step(action)
    }

    fn seed(&mut self, seed: u64) {
        self.inner.seed(seed);
    }

    fn mode(&self) -> Mode {
        self.inner.mode()
    }
}

/// Issue 33: after a panic in a step, the vector went on stepping with some shares stepped and
/// others not. It now refuses, saying why, until it is reset.
#[test]
fn a_vector_a_panic_interrupted_refuses_to_step_until_reset() {
    for threads in [1, 2] {
        let mut vector = EnvironmentVector::<_, f32>::from_environments(
            count(4),
            0,
            options(Autoreset::NextStep, threads),
            |i| Fused {
                inner: Simulator::new(corridor(5, 0.0), 0),
                steps: 0,
                fuse: if i == 3 { 2 } else { usize::MAX },
            },
        )
        .expect("a vector");
        vector.reset(Mode::Training).expect("reset");
        vector.step(&[RIGHT; 4]).expect("the first step");
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = vector.step(&[RIGHT; 4]);
        }));
        assert!(
            unwound.is_err(),
            "the environment's panic reaches the caller"
        );
        assert_eq!(vector.step(&[RIGHT; 4]), Err(VectorError::Interrupted));
        assert_eq!(vector.reset_ended(), Err(VectorError::Interrupted));
        assert!(
            VectorError::Interrupted
                .to_string()
                .contains("reset it before stepping"),
            "the message says what to do"
        );
        vector.reset(Mode::Training).expect("a reset clears it");
        vector.step(&[RIGHT; 4]).expect("steps again");
    }
}

/// Steps a vector of `Drift` environments beside single environments seeded as the vector
/// seeds them, and every few steps resets a selection of them (some reseeded first, as
/// Gymnasium's `reset(seed=[...], options={"reset_mask": ...})`): the selected start over as a
/// single environment's reset does, the others keep their observations and go on, and a
/// pending next-step reset of a selected environment is dropped.
fn assert_selected_resets_match_single_environments<S: rl_core::SplitStates<f32, Action = i64>>(
    mut vector: VectorEnvironment<S, f32>,
    seed: u64,
) {
    let n = vector.len();
    let drift = Drift::new(25, 0.05);
    let mut singles: Vec<Simulator<Drift>> = (0..n)
        .map(|i| Simulator::new(drift.clone(), seed + i as u64))
        .collect();
    assert_eq!(
        vector.reset_selected(&vec![true; n]),
        Err(VectorError::NotStarted)
    );
    vector.reset(Mode::Training).expect("reset");
    for single in &mut singles {
        single.reset(Mode::Training).expect("reset");
    }
    let mut pending = vec![false; n];
    let (mut selected_resets, mut dropped_pending) = (0, 0);
    for round in 0..300usize {
        // Every seventh round, and on some rounds after episodes ended, so that some selected
        // environments have a pending next-step reset.
        let after_an_end = pending.contains(&true) && round % 2 == 0;
        if round % 7 == 3 || after_an_end {
            let selected: Vec<bool> = (0..n)
                .map(|i| (i + round) % 3 == 0 || (after_an_end && pending[i] && i % 2 == 0))
                .collect();
            let seeds: Vec<Option<rl_core::Seed>> = (0..n)
                .map(|i| (selected[i] && i % 2 == 0).then(|| (1000 + (round + i) as u64).into()))
                .collect();
            let before = vector.observations().clone();
            vector.seed_each(&seeds).expect("seed");
            vector
                .reset_selected(&selected)
                .expect("reset the selected");
            for (i, single) in singles.iter_mut().enumerate() {
                if !selected[i] {
                    assert_eq!(vector.observations().row(i), before.row(i), "env {i} kept");
                    continue;
                }
                if let Some(seed) = seeds[i].as_ref().and_then(rl_core::Seed::to_u64) {
                    single.seed(seed);
                }
                let first = single.reset(Mode::Training).expect("reset");
                assert_eq!(vector.observations().row(i).to_vec(), first.to_vec());
                assert_eq!(vector.rewards()[i], 0.0);
                assert!(!vector.terminated()[i] && !vector.truncated()[i]);
                dropped_pending += usize::from(pending[i]);
                pending[i] = false;
                selected_resets += 1;
            }
        }
        let actions: Vec<i64> = (0..n).map(|i| ((round + i) % 3) as i64).collect();
        vector.step(&actions).expect("step");
        for (i, single) in singles.iter_mut().enumerate() {
            if pending[i] {
                let first = single.reset(Mode::Training).expect("reset");
                assert_eq!(vector.observations().row(i).to_vec(), first.to_vec());
                pending[i] = false;
                continue;
            }
            let outcome = single.step(&actions[i]).expect("step");
            assert_eq!(
                vector.observations().row(i).to_vec(),
                outcome.observation.to_vec(),
                "env {i}, round {round}"
            );
            assert_eq!(vector.rewards()[i].to_bits(), outcome.reward().to_bits());
            assert_eq!(vector.terminated()[i], outcome.terminated);
            assert_eq!(vector.truncated()[i], outcome.truncated);
            pending[i] = outcome.is_done();
        }
    }
    // Enough selected resets, some of them of environments whose episode had just ended.
    assert!(selected_resets >= 90, "{selected_resets} selected resets");
    assert!(
        dropped_pending > 0,
        "no selected environment had a pending reset"
    );
    assert!(matches!(
        vector.reset_selected(&vec![false; n]),
        Err(VectorError::InvalidParameter { .. })
    ));
    assert!(matches!(
        vector.reset_selected(&[true]),
        Err(VectorError::InvalidParameter { .. })
    ));
}

#[test]
fn selected_resets_start_the_selected_environments_over_and_leave_the_others() {
    for threads in [1, 3] {
        let options = options(Autoreset::NextStep, threads);
        assert_selected_resets_match_single_environments(drift_copies(7, 1234, options), 1234);
        assert_selected_resets_match_single_environments(drift_kernel(7, 1234, options), 1234);
    }
}
