//! Wrappers over vectors: episode statistics equal those of single environments stepped
//! separately in every autoreset mode; every wrapper gives bit-identical results on 1 to 4
//! threads, on copies and on kernels; the action transforms map actions as documented.

use std::num::NonZeroUsize;

use rl_core::corridor::Corridor;
use rl_core::rand::{Rng, RngExt};
use rl_core::{Domain, Environment, Mode, Simulator, TransitionOutcome, Value};
use rl_spaces::ArrayBox;
use rl_wrappers::stateful::Padding;
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, VectorClipAction, VectorDiscretizeAction, VectorEnv,
    VectorEpisodeStatistics, VectorHistoryStack, VectorNormalizeObservation, VectorNormalizeReward,
    VectorOptions, VectorRescaleAction,
};

const COUNT: usize = 6;

fn count() -> NonZeroUsize {
    NonZeroUsize::new(COUNT).expect("non-zero")
}

fn options(autoreset: Autoreset, threads: usize) -> VectorOptions {
    VectorOptions::new()
        .with_autoreset(autoreset)
        .with_threads(NonZeroUsize::new(threads).expect("non-zero"))
}

fn corridor() -> Corridor {
    Corridor::new(5, 0.3).expect("valid")
}

/// The action of environment `index` at step `step`: mostly right, sometimes left.
fn action(index: usize, step: usize) -> i64 {
    i64::from((index * 7 + step * 3) % 5 != 0)
}

/// The episodes `(return, length)` environment `index` finishes in `steps` vector steps, by a
/// single simulator seeded as the vector seeds it and reset the way `autoreset` resets.
fn single_episodes(index: usize, seed: u64, steps: usize, autoreset: Autoreset) -> Vec<(f64, u64)> {
    let mut env = Simulator::new(corridor(), seed + index as u64);
    env.reset(Mode::Training).expect("reset");
    let (mut episodes, mut total, mut length, mut ended) = (Vec::new(), 0.0, 0, false);
    for step in 0..steps {
        if ended {
            env.reset(Mode::Training).expect("reset");
            ended = false;
            if autoreset != Autoreset::SameStep {
                // Next-step autoreset and reset_ended spend this vector step on the reset.
                continue;
            }
        }
        let outcome = env.step(&action(index, step)).expect("a step");
        total += outcome.reward();
        length += 1;
        if outcome.is_done() {
            episodes.push((total, length));
            (total, length, ended) = (0.0, 0, true);
        }
    }
    episodes
}

#[test]
fn episode_statistics_equal_single_environments_in_every_mode() {
    let (seed, steps) = (11, 200);
    // Disabled autoreset has its own test below: there the whole vector waits for reset_ended.
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        for threads in 1..=3 {
            let vector = EnvironmentVector::<_, f32>::from_environments(
                count(),
                seed,
                options(autoreset, threads),
                |_| Simulator::new(corridor(), 0),
            )
            .expect("valid");
            let mut env = VectorEpisodeStatistics::new(vector);
            env.reset(Mode::Training).expect("reset");
            let mut episodes = vec![Vec::new(); COUNT];
            for step in 0..steps {
                let actions: Vec<i64> = (0..COUNT).map(|i| action(i, step)).collect();
                env.step(&actions).expect("a step");
                for (index, ended) in env.episode_ended().iter().enumerate() {
                    if *ended {
                        episodes[index]
                            .push((env.episode_returns()[index], env.episode_lengths()[index]));
                    } else {
                        // Gymnasium's RecordEpisodeStatistics reports 0 where no episode ended.
                        assert_eq!(env.episode_returns()[index], 0.0);
                        assert_eq!(env.episode_lengths()[index], 0);
                        assert_eq!(env.episode_times()[index], 0.0);
                    }
                }
            }
            for (index, recorded) in episodes.iter().enumerate() {
                let expected = single_episodes(index, seed, steps, autoreset);
                assert!(expected.len() > 5, "the run must cross several episodes");
                assert_eq!(
                    recorded, &expected,
                    "{autoreset:?}, {threads} threads, environment {index}"
                );
            }
            let window: Vec<f64> = env.return_window().collect();
            let total: usize = episodes.iter().map(Vec::len).sum();
            assert_eq!(env.episode_count(), total as u64);
            assert_eq!(window.len(), total.min(100));
        }
    }
}

#[test]
fn episode_statistics_with_disabled_autoreset_count_from_reset_ended() {
    let vector = EnvironmentVector::<_, f32>::from_environments(
        count(),
        5,
        options(Autoreset::Disabled, 2),
        |_| Simulator::new(Corridor::new(3, 0.0).expect("valid"), 0),
    )
    .expect("valid");
    let mut env =
        VectorEpisodeStatistics::with_window(vector, NonZeroUsize::new(4).expect("non-zero"));
    env.reset(Mode::Training).expect("reset");
    for round in 0..5 {
        env.step(&[1; COUNT]).expect("a step");
        env.step(&[1; COUNT]).expect("a step");
        assert_eq!(env.episode_ended(), &[true; COUNT], "round {round}");
        assert_eq!(env.episode_returns(), &[-2.0; COUNT]);
        assert_eq!(env.episode_lengths(), &[2; COUNT]);
        assert!(
            env.step(&[1; COUNT]).is_err(),
            "stepping an ended environment is an error"
        );
        env.reset_ended().expect("reset the ended ones");
    }
    assert_eq!(env.episode_count(), 5 * COUNT as u64);
    assert_eq!(env.length_window().collect::<Vec<_>>(), [2; 4]);
}

/// A domain with one continuous action in [-2, 2]: the position moves by the action plus
/// noise, the reward is minus the distance to 1, and the episode ends beyond ±3.
#[derive(Debug, Clone)]
struct Push {
    actions: ArrayBox<f32, 1>,
    observations: ArrayBox<f32, 2>,
}

impl Push {
    fn new() -> Self {
        Push {
            actions: ArrayBox::new([-2.0], [2.0]).expect("valid"),
            observations: ArrayBox::new([-4.0, -2.0], [4.0, 2.0]).expect("valid"),
        }
    }
}

impl Domain for Push {
    type State = (f32, f32);
    type Observation = [f32; 2];
    type Action = [f32; 1];
    type ObservationSpace = ArrayBox<f32, 2>;
    type ActionSpace = ArrayBox<f32, 1>;

    fn observation_space(&self) -> &ArrayBox<f32, 2> {
        &self.observations
    }

    fn action_space(&self) -> &ArrayBox<f32, 1> {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> (f32, f32) {
        (rng.random::<f32>() - 0.5, 0.0)
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &(f32, f32),
        action: &[f32; 1],
        _: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<(f32, f32)> {
        let position = state.0 + 0.5 * action[0] + 0.2 * (rng.random::<f32>() - 0.5);
        let next = (position, action[0]);
        TransitionOutcome::new(
            next,
            Value::from_reward(-f64::from((position - 1.0).abs())),
            self.is_terminal(&next),
        )
    }

    fn observe(&self, state: &(f32, f32)) -> [f32; 2] {
        [state.0.clamp(-4.0, 4.0), state.1]
    }

    fn is_terminal(&self, state: &(f32, f32)) -> bool {
        state.0.abs() > 3.0
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(25)
    }
}

/// Observations, rewards, terminated and truncated flags and final observations, as bits.
type Snapshot = (Vec<u64>, Vec<u64>, Vec<bool>, Vec<bool>, Vec<u64>);

/// Everything a vector exposes after a step, as bits, to compare runs exactly.
fn snapshot<V: VectorEnv>(env: &V) -> Snapshot {
    let bits = |rows: &ndarray::Array2<V::Scalar>| {
        rows.iter()
            .map(|x| rl_spaces::FlatScalar::to_f64(*x).to_bits())
            .collect::<Vec<_>>()
    };
    (
        bits(env.observations()),
        env.rewards().iter().map(|r| r.to_bits()).collect(),
        env.terminated().to_vec(),
        env.truncated().to_vec(),
        bits(env.final_observations()),
    )
}

type Snapshots = Vec<Snapshot>;

/// Steps `env` 120 times with actions from `action` and records every step.
fn run<V: VectorEnv>(mut env: V, action: impl Fn(usize, usize) -> V::Action) -> Snapshots {
    env.reset(Mode::Training).expect("reset");
    let mut snapshots = vec![snapshot(&env)];
    for step in 0..120 {
        let actions: Vec<V::Action> = (0..COUNT).map(|index| action(index, step)).collect();
        env.step(&actions).expect("a step");
        snapshots.push(snapshot(&env));
    }
    snapshots
}

fn continuous(index: usize, step: usize) -> [f32; 1] {
    [((index * 5 + step * 3) % 9) as f32 * 0.6 - 2.4]
}

#[test]
fn every_wrapper_is_deterministic_on_one_to_four_threads() {
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let vector = move |threads| {
            EnvironmentVector::<_, f32>::from_environments(
                count(),
                3,
                options(autoreset, threads),
                |_| Simulator::new(Push::new(), 0),
            )
            .expect("valid")
        };
        type Runner = Box<dyn Fn(usize) -> Snapshots>;
        let runs: Vec<(&str, Runner)> = vec![
            (
                "statistics",
                Box::new(move |t| run(VectorEpisodeStatistics::new(vector(t)), continuous_clipped)),
            ),
            (
                "observations",
                Box::new(move |t| {
                    run(
                        VectorNormalizeObservation::new(vector(t)).expect("valid"),
                        continuous_clipped,
                    )
                }),
            ),
            (
                "rewards",
                Box::new(move |t| {
                    run(
                        VectorNormalizeReward::new(vector(t), 0.99).expect("valid"),
                        continuous_clipped,
                    )
                }),
            ),
            (
                "clip",
                Box::new(move |t| {
                    run(VectorClipAction::new(vector(t)).expect("valid"), continuous)
                }),
            ),
            (
                "rescale",
                Box::new(move |t| {
                    run(
                        VectorRescaleAction::new(vector(t), -1.0, 1.0).expect("valid"),
                        |i, s| [continuous_clipped(i, s)[0] / 2.0],
                    )
                }),
            ),
            (
                "discretize",
                Box::new(move |t| {
                    run(
                        VectorDiscretizeAction::new(vector(t), 5).expect("valid"),
                        |i, s| ((i + s) % 5) as i64,
                    )
                }),
            ),
            (
                "history",
                Box::new(move |t| {
                    run(
                        VectorHistoryStack::new(
                            vector(t),
                            NonZeroUsize::new(3).expect("non-zero"),
                            Padding::RepeatFirst,
                        )
                        .expect("a history stack"),
                        continuous_clipped,
                    )
                }),
            ),
        ];
        for (name, runner) in &runs {
            let one = runner(1);
            for threads in 2..=4 {
                assert!(
                    one == runner(threads),
                    "{name}, {autoreset:?}: 1 and {threads} threads differ"
                );
            }
        }
    }
}

fn continuous_clipped(index: usize, step: usize) -> [f32; 1] {
    [continuous(index, step)[0].clamp(-2.0, 2.0)]
}

#[test]
fn action_transforms_map_actions_as_documented() {
    let vector = || {
        EnvironmentVector::<_, f32>::from_environments(
            count(),
            3,
            options(Autoreset::NextStep, 1),
            |_| Simulator::new(Push::new(), 0),
        )
        .expect("valid")
    };
    // The observation's second entry is the action the domain received.

    let mut clip = VectorClipAction::new(vector()).expect("valid");
    clip.reset(Mode::Training).expect("reset");
    clip.step(&[[9.0], [-9.0], [1.5], [0.0], [-2.0], [2.0]])
        .expect("any numbers");
    let column: Vec<f32> = clip.observations().column(1).to_vec();
    assert_eq!(column, [2.0, -2.0, 1.5, 0.0, -2.0, 2.0]);
    assert!(clip.step(&[[f32::NAN]; COUNT]).is_err(), "NaN is refused");

    let mut rescale = VectorRescaleAction::new(vector(), -1.0, 1.0).expect("valid");
    rescale.reset(Mode::Training).expect("reset");
    rescale
        .step(&[[-1.0], [1.0], [0.0], [0.5], [-0.5], [0.25]])
        .expect("in [-1, 1]");
    let column: Vec<f32> = rescale.observations().column(1).to_vec();
    assert_eq!(column, [-2.0, 2.0, 0.0, 1.0, -1.0, 0.5]);
    assert!(
        rescale.step(&[[1.5]; COUNT]).is_err(),
        "outside [-1, 1] is refused"
    );

    let mut discrete = VectorDiscretizeAction::new(vector(), 5).expect("valid");
    assert_eq!(discrete.action_space().to_string(), "Discrete(5)");
    assert_eq!(discrete.table(), &[[-2.0], [-1.0], [0.0], [1.0], [2.0]]);
    discrete.reset(Mode::Training).expect("reset");
    discrete.step(&[0, 1, 2, 3, 4, 2]).expect("indices");
    let column: Vec<f32> = discrete.observations().column(1).to_vec();
    assert_eq!(column, [-2.0, -1.0, 0.0, 1.0, 2.0, 0.0]);
    assert!(discrete.step(&[5; COUNT]).is_err());
    assert!(discrete.step(&[-1; COUNT]).is_err());
    assert!(
        VectorDiscretizeAction::new(vector(), 1).is_err(),
        "one bin cannot hold both bounds"
    );
}

#[test]
fn history_stacks_restart_at_every_episode_start() {
    let vector = EnvironmentVector::<_, f32>::from_environments(
        count(),
        9,
        options(Autoreset::SameStep, 2),
        |_| Simulator::new(Push::new(), 0),
    )
    .expect("valid");
    let three = NonZeroUsize::new(3).expect("non-zero");
    let mut env =
        VectorHistoryStack::new(vector, three, Padding::RepeatFirst).expect("a history stack");
    env.reset(Mode::Training).expect("reset");
    let dim = env.inner().flat_dim();
    assert_eq!(env.flat_dim(), 3 * dim);
    let mut restarts = 0;
    for step in 0..200 {
        let previous = env.observations().clone();
        let actions: Vec<[f32; 1]> = (0..COUNT).map(|i| continuous_clipped(i, step)).collect();
        env.step(&actions).expect("a step");
        for index in 0..COUNT {
            let row = env.observations().row(index).to_vec();
            let newest = env.inner().observations().row(index).to_vec();
            assert_eq!(&row[2 * dim..], &newest[..], "the newest frame is last");
            let done = env.terminated()[index] || env.truncated()[index];
            if done {
                // Same-step autoreset: the row is the new episode's first observation, repeated.
                restarts += 1;
                assert_eq!(&row[..dim], &newest[..]);
                assert_eq!(&row[dim..2 * dim], &newest[..]);
                let last = env.final_observations().row(index).to_vec();
                assert_eq!(
                    &last[..2 * dim],
                    &previous.row(index).to_vec()[dim..],
                    "the final row continues the episode"
                );
            } else {
                assert_eq!(
                    &row[..2 * dim],
                    &previous.row(index).to_vec()[dim..],
                    "frames shift by one"
                );
            }
        }
    }
    assert!(restarts > 10, "the run must cross episode ends");
}

#[test]
fn batched_action_masks_equal_each_environments_mask_on_both_paths() {
    use crate::common::{Drift, DriftState};
    use rl_wrappers::vector::KernelVector;

    let drift = Drift::new(40, 0.3);
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        for threads in 1..=3 {
            let options = options(autoreset, threads);
            let mut copies =
                EnvironmentVector::<_, f32>::from_environments(count(), 4, options, |_| {
                    Simulator::new(drift.clone(), 0)
                })
                .expect("valid");
            let mut kernel =
                KernelVector::<_, f32>::from_kernel(drift.clone(), count(), 4, options)
                    .expect("valid");
            copies.reset(Mode::Training).expect("reset");
            kernel.reset(Mode::Training).expect("reset");
            let mut from_copies = ndarray::Array2::from_elem((COUNT, 3), false);
            let mut from_kernel = from_copies.clone();
            let mut restricted = 0;
            for step in 0..150 {
                let actions: Vec<i64> = (0..COUNT).map(|i| ((i + step) % 3) as i64).collect();
                copies.step(&actions).expect("a step");
                kernel.step(&actions).expect("a step");
                copies.action_masks(&mut from_copies).expect("masks");
                kernel.action_masks(&mut from_kernel).expect("masks");
                // Each row is the domain's answer in that episode's state.
                for index in 0..COUNT {
                    let state = kernel
                        .state_any(index)
                        .and_then(|state| state.downcast_ref::<DriftState>())
                        .expect("a kernel's states are the domain's");
                    let single: Vec<bool> =
                        (0..3).map(|a| drift.is_applicable(state, &a)).collect();
                    assert_eq!(
                        from_kernel.row(index).to_vec(),
                        single,
                        "step {step}, environment {index}"
                    );
                }
                assert_eq!(
                    from_copies, from_kernel,
                    "{autoreset:?}, {threads} threads, step {step}"
                );
                restricted += from_copies.iter().filter(|allowed| !**allowed).count();
            }
            assert!(restricted > 0, "some states must restrict an action");
            let mut wrong = ndarray::Array2::from_elem((COUNT, 2), false);
            assert!(copies.action_masks(&mut wrong).is_err());
            assert!(kernel.action_masks(&mut wrong).is_err());
        }
    }
}

/// A history stack over episode statistics over a vector of corridors of 3 cells (two steps
/// right end an episode), with `autoreset`.
fn stacked_corridors(
    autoreset: Autoreset,
) -> VectorHistoryStack<VectorEpisodeStatistics<EnvironmentVector<Simulator<Corridor>, f32>>> {
    let vector =
        EnvironmentVector::<_, f32>::from_environments(count(), 5, options(autoreset, 2), |_| {
            Simulator::new(Corridor::new(3, 0.0).expect("valid"), 0)
        })
        .expect("valid");
    let two = NonZeroUsize::new(2).expect("non-zero");
    VectorHistoryStack::new(
        VectorEpisodeStatistics::new(vector),
        two,
        Padding::RepeatFirst,
    )
    .expect("a history stack")
}

#[test]
fn selected_resets_restart_the_selected_histories_and_episodes_only() {
    let mut env = stacked_corridors(Autoreset::NextStep);
    env.reset(Mode::Training).expect("reset");
    let first = env.observations().clone();
    env.step(&[1; COUNT]).expect("a step");
    let stepped = env.observations().clone();
    assert_ne!(stepped, first);
    let selected: Vec<bool> = (0..COUNT).map(|i| i % 2 == 0).collect();
    env.reset_selected(&selected).expect("reset the selected");
    for (index, selected) in selected.iter().enumerate() {
        let expected = if *selected { &first } else { &stepped };
        assert_eq!(
            env.observations().row(index),
            expected.row(index),
            "env {index}"
        );
    }
    // The others end their episode on the next step (two steps in all), the selected a step
    // later: their episodes count from the selected reset.
    env.step(&[1; COUNT]).expect("a step");
    let statistics = env.inner();
    let odd: Vec<bool> = (0..COUNT).map(|i| i % 2 == 1).collect();
    assert_eq!(statistics.episode_ended(), &odd[..]);
    env.step(&[1; COUNT])
        .expect("a step (the odd ones are reset)");
    let statistics = env.inner();
    assert_eq!(statistics.episode_ended(), &selected[..]);
    for (index, selected) in selected.iter().enumerate() {
        if *selected {
            assert_eq!(statistics.episode_lengths()[index], 2, "env {index}");
            assert_eq!(statistics.episode_returns()[index], -2.0);
        }
    }
    assert_eq!(statistics.episode_count(), COUNT as u64);
}

#[test]
fn resetting_the_ended_leaves_the_other_histories_as_they_are() {
    let mut env = stacked_corridors(Autoreset::Disabled);
    env.reset(Mode::Training).expect("reset");
    // Even environments step right twice (their episode ends), odd ones right and back left
    // (their last two frames differ).
    let actions: Vec<i64> = (0..COUNT).map(|i| i64::from(i % 2 == 0)).collect();
    env.step(&[1; COUNT]).expect("a step");
    env.step(&actions).expect("a step");
    let before = env.observations().clone();
    env.reset_ended().expect("reset the ended");
    env.reset(Mode::Training).expect("reset");
    let first = env.observations().clone();
    // Again, to compare the rows after reset_ended with a fresh start and with `before`.
    env.step(&[1; COUNT]).expect("a step");
    env.step(&actions).expect("a step");
    assert_eq!(env.observations(), &before);
    env.reset_ended().expect("reset the ended");
    for index in 0..COUNT {
        let expected = if index % 2 == 0 { &first } else { &before };
        assert_eq!(
            env.observations().row(index),
            expected.row(index),
            "env {index}"
        );
    }
}
