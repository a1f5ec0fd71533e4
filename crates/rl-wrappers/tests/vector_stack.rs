//! Vector wrappers below the episode statistics, in a stack chosen at run time (a boxed
//! `dyn VectorEnv`, as `rl_wrappers::vector::stack` builds one for the Python package): every
//! step reaches the vector at the bottom once, the results are those of one thread on any
//! number of threads, bit for bit, statistics included; the masks and states of the vector at
//! the bottom reach the top.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::Array2;
use rl_core::{Info, Mode, Simulator};
use rl_spaces::{ArrayBox, Discrete, FiniteSpace};
use rl_wrappers::VectorError;
use rl_wrappers::stateful::Padding;
use rl_wrappers::vector::{
    Autoreset, DynVector, EnvironmentVector, KernelVector, StackedVector, VectorClipAction,
    VectorEnv, VectorEpisodeStatistics, VectorHistoryStack, VectorNormalizeObservation,
    VectorNormalizeReward, VectorOptions,
};

use crate::common::{Drift, Push, assert_same_rows};

/// Passes every call to the vector it wraps, counting the steps that reach it (a shared
/// counter, read while the wrapper is boxed inside a stack).
struct Counted<V> {
    inner: V,
    steps: Arc<AtomicUsize>,
}

/// The counter of a [`Counted`]'s steps.
#[derive(Clone, Default)]
struct Counts(Arc<AtomicUsize>);

impl Counts {
    fn wrap<V>(&self, inner: V) -> Counted<V> {
        Counted {
            inner,
            steps: Arc::clone(&self.0),
        }
    }

    fn read(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

impl<V: VectorEnv> VectorEnv for Counted<V> {
    type Action = V::Action;
    type ActionSpace = V::ActionSpace;
    type Scalar = V::Scalar;

    fn len(&self) -> usize {
        self.inner.len()
    }

    fn action_space(&self) -> &V::ActionSpace {
        self.inner.action_space()
    }

    fn flat_dim(&self) -> usize {
        self.inner.flat_dim()
    }

    fn autoreset(&self) -> Autoreset {
        self.inner.autoreset()
    }

    fn mode(&self) -> Mode {
        self.inner.mode()
    }

    fn reset(&mut self, mode: Mode) -> Result<(), VectorError> {
        self.inner.reset(mode)
    }

    fn reset_ended(&mut self) -> Result<(), VectorError> {
        self.inner.reset_ended()
    }

    fn reset_selected(&mut self, selected: &[bool]) -> Result<(), VectorError> {
        self.inner.reset_selected(selected)
    }

    fn seed_from(&mut self, seed: &rl_core::Seed) -> Result<(), VectorError> {
        self.inner.seed_from(seed)
    }

    fn seed_each(&mut self, seeds: &[Option<rl_core::Seed>]) -> Result<(), VectorError> {
        self.inner.seed_each(seeds)
    }

    fn step(&mut self, actions: &[V::Action]) -> Result<(), VectorError> {
        self.steps.fetch_add(1, Ordering::Relaxed);
        self.inner.step(actions)
    }

    fn observations(&self) -> &Array2<V::Scalar> {
        self.inner.observations()
    }

    fn rewards(&self) -> &[f64] {
        self.inner.rewards()
    }

    fn terminated(&self) -> &[bool] {
        self.inner.terminated()
    }

    fn truncated(&self) -> &[bool] {
        self.inner.truncated()
    }

    fn final_observations(&self) -> &Array2<V::Scalar> {
        self.inner.final_observations()
    }

    fn final_mask(&self) -> &[bool] {
        self.inner.final_mask()
    }

    fn infos(&self) -> &[Info] {
        self.inner.infos()
    }

    fn final_infos(&self) -> &[Info] {
        self.inner.final_infos()
    }

    fn reports_infos(&self) -> bool {
        self.inner.reports_infos()
    }

    fn state_any(&self, i: usize) -> Option<&dyn std::any::Any> {
        self.inner.state_any(i)
    }

    fn action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        V::ActionSpace: FiniteSpace,
    {
        self.inner.action_masks(masks)
    }

    fn final_action_masks(&self, masks: &mut Array2<bool>) -> Result<(), VectorError>
    where
        V::ActionSpace: FiniteSpace,
    {
        self.inner.final_action_masks(masks)
    }
}

/// Asserts that two stacks hold the same results of their last step, bit for bit, the
/// episodes recorded included.
fn assert_same_results<V: VectorEnv<Scalar = f32>, W: VectorEnv<Scalar = f32>>(
    one: &VectorEpisodeStatistics<V>,
    other: &VectorEpisodeStatistics<W>,
    context: &str,
) {
    assert_same_rows(one, other, context);
    assert_eq!(other.ended_indices(), one.ended_indices(), "{context}");
    let bits64 = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits64(other.episode_returns()),
        bits64(one.episode_returns()),
        "{context}"
    );
    assert_eq!(other.episode_lengths(), one.episode_lengths(), "{context}");
}

/// Which wrapper goes below the statistics in [`drift_stack`].
#[derive(Debug, Clone, Copy)]
enum Below {
    /// None: the statistics over the counted vector.
    Nothing,
    /// Reward normalisation: its own rewards.
    NormalizeReward,
    /// Observation normalisation: its own observations.
    NormalizeObservation,
    /// History stacking, over reward normalisation.
    HistoryOverRewards,
}

/// A kernel vector of drifts, counted, under `below`, boxed, under episode statistics (the
/// shape of `rl_wrappers::vector::stack`'s result).
fn drift_stack(below: Below, options: VectorOptions, counts: &Counts) -> StackedVector<i64> {
    let count = NonZeroUsize::new(97).expect("non-zero");
    let vector =
        KernelVector::<_, f32>::from_kernel(Drift::new(7, 0.2), count, 11, options).expect("valid");
    let counted = counts.wrap(vector);
    let boxed: DynVector<i64> = match below {
        Below::Nothing => Box::new(counted),
        Below::NormalizeReward => {
            Box::new(VectorNormalizeReward::new(counted, 0.9).expect("valid"))
        }
        Below::NormalizeObservation => {
            Box::new(VectorNormalizeObservation::new(counted).expect("valid"))
        }
        Below::HistoryOverRewards => Box::new(
            VectorHistoryStack::new(
                VectorNormalizeReward::new(counted, 0.9).expect("valid"),
                NonZeroUsize::new(3).expect("non-zero"),
                Padding::RepeatFirst,
            )
            .expect("valid"),
        ),
    };
    VectorEpisodeStatistics::new(boxed)
}

#[test]
fn a_wrapper_below_the_statistics_gives_the_results_of_one_thread_on_two() {
    for below in [
        Below::Nothing,
        Below::NormalizeReward,
        Below::NormalizeObservation,
        Below::HistoryOverRewards,
    ] {
        for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
            let options = |threads: usize| {
                VectorOptions::new()
                    .with_autoreset(autoreset)
                    .with_threads(NonZeroUsize::new(threads).expect("non-zero"))
            };
            let (one_counts, two_counts) = (Counts::default(), Counts::default());
            let mut one = drift_stack(below, options(1), &one_counts);
            let mut two = drift_stack(below, options(2), &two_counts);
            one.reset(Mode::Training).expect("reset");
            two.reset(Mode::Training).expect("reset");
            let len = one.len();
            let mut ended = 0;
            let steps = 30;
            for step in 0..steps {
                let actions: Vec<i64> = (0..len).map(|i| ((i * 7 + step) % 3) as i64).collect();
                one.step(&actions).expect("step");
                two.step(&actions).expect("step");
                let context = format!("{below:?}, {autoreset:?}, step {step}");
                assert_same_results(&one, &two, &context);
                ended += two.ended_indices().len();
            }
            let context = format!("{below:?}, {autoreset:?}");
            assert!(ended > 0, "{context}: no episode ended");
            // Every step reached the vector at the bottom once, through every wrapper.
            assert_eq!(one_counts.read(), steps, "{context}");
            assert_eq!(two_counts.read(), steps, "{context}");
        }
    }
}

/// A stack of copies of [`Push`] (Box actions) with clipped actions, boxed, under statistics.
type PushStack = VectorEpisodeStatistics<
    Box<dyn VectorEnv<Action = [f32; 2], ActionSpace = ArrayBox<f32, 2>, Scalar = f32>>,
>;

fn push_stack(threads: usize, counts: &Counts) -> PushStack {
    let count = NonZeroUsize::new(9).expect("non-zero");
    let options = VectorOptions::new().with_threads(NonZeroUsize::new(threads).expect("non-zero"));
    let vector = EnvironmentVector::<_, f32>::from_environments(count, 3, options, |_| {
        Simulator::new(Push::new(), 0)
    })
    .expect("valid");
    let clipped = VectorClipAction::new(counts.wrap(vector)).expect("a float Box");
    VectorEpisodeStatistics::new(Box::new(clipped))
}

#[test]
fn an_action_transform_below_the_statistics_gives_the_results_of_one_thread_on_three() {
    let (one_counts, three_counts) = (Counts::default(), Counts::default());
    let mut one = push_stack(1, &one_counts);
    let mut three = push_stack(3, &three_counts);
    one.reset(Mode::Training).expect("reset");
    three.reset(Mode::Training).expect("reset");
    let steps = 25;
    for step in 0..steps {
        // Some actions outside the bounds, which the wrapper clips.
        let actions: Vec<[f32; 2]> = (0..9)
            .map(|i| [(i + step) as f32 * 1.5 - 3.0, -(((i * step) % 7) as f32)])
            .collect();
        one.step(&actions).expect("step");
        three.step(&actions).expect("step");
        assert_same_results(&one, &three, &format!("step {step}"));
    }
    assert!(
        one.episode_count() > 0,
        "the episode cap ends some episodes"
    );
    assert_eq!(one_counts.read(), steps);
    assert_eq!(three_counts.read(), steps);
}

#[test]
fn the_masks_and_states_of_the_bottom_vector_reach_the_top_of_a_stack_that_keeps_the_actions() {
    let counts = Counts::default();
    let options = VectorOptions::new().with_autoreset(Autoreset::SameStep);
    let mut stacked = drift_stack(Below::NormalizeReward, options, &counts);
    let mut bottom = KernelVector::<_, f32>::from_kernel(
        Drift::new(7, 0.2),
        NonZeroUsize::new(97).expect("non-zero"),
        11,
        options,
    )
    .expect("valid");
    stacked.reset(Mode::Training).expect("reset");
    bottom.reset(Mode::Training).expect("reset");
    let mut from_stack = Array2::from_elem((97, 3), false);
    let mut from_bottom = from_stack.clone();
    for step in 0..20 {
        let actions: Vec<i64> = (0..97).map(|i| ((i + step) % 3) as i64).collect();
        stacked.action_masks(&mut from_stack).expect("masks");
        bottom.action_masks(&mut from_bottom).expect("masks");
        assert_eq!(from_stack, from_bottom, "step {step}");
        stacked.step(&actions).expect("step");
        bottom.step(&actions).expect("step");
        stacked
            .final_action_masks(&mut from_stack)
            .expect("final masks");
        bottom
            .final_action_masks(&mut from_bottom)
            .expect("final masks");
        assert_eq!(from_stack, from_bottom, "step {step}");
    }
    // A kernel reports no infos, and hands no states out to a consumer of another type.
    assert!(!stacked.reports_infos());
    assert_eq!(
        stacked.state_any(0).is_some(),
        bottom.state_any(0).is_some()
    );
    assert!(stacked.state_any(97).is_none(), "an index out of range");
    // A wrapper that changes the actions refuses masks rather than give the inner ones.
    let discretized = rl_wrappers::vector::VectorDiscretizeAction::new(
        EnvironmentVector::<_, f32>::from_environments(
            NonZeroUsize::new(2).expect("non-zero"),
            0,
            VectorOptions::new(),
            |_| Simulator::new(Push::new(), 0),
        )
        .expect("valid"),
        3,
    )
    .expect("a bounded Box");
    let mut masks = Array2::from_elem((2, 9), false);
    assert!(matches!(
        discretized.action_masks(&mut masks),
        Err(VectorError::Unsupported { .. })
    ));
    let _: &Discrete = discretized.action_space();
}
