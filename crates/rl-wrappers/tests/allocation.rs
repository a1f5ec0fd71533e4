//! Stepping allocates nothing after warm-up: history stacking, a tall stack of wrappers, and
//! vector environments of 1024 environments on one thread (a counting global allocator
//! proves it; `allocation_threads.rs` covers several threads).

use counting_allocator::thread_allocations as allocations;

use crate::common;

use std::num::{NonZeroU64, NonZeroUsize};

use rl_core::{Environment, Mode, Simulator};
use rl_wrappers::stateful::{
    ByMode, EpisodeStatistics, History, HistoryStack, NormalizeObservation, NormalizeReward,
    Padding, StickyAction, TimeLimit,
};
use rl_wrappers::stateless::{ClipReward, OneHotAction, ScaleReward};
use rl_wrappers::vector::{Autoreset, EnvironmentVector, KernelVector, VectorOptions};
use rl_wrappers::{OuterEnvironment, ScaleRange, Scaled};

use common::{Drift, corridor};

/// Steps `env` with actions taken in turn from `actions` for a warm-up and then `steps` steps, resetting
/// at episode ends, keeping the previous and the current observation alive as a learner
/// does; returns the number of allocations after the warm-up and the episodes seen.
fn allocations_while_stepping<E: Environment>(
    env: &mut E,
    steps: usize,
    actions: &[E::Action],
) -> (usize, usize) {
    let mut observation = env.reset(Mode::Training).expect("reset");
    let mut episodes = 0;
    let mut before = allocations();
    for i in 0..steps + 500 {
        if i == 500 {
            before = allocations();
        }
        let outcome = env
            .step(&actions[(i / 7) % actions.len()])
            .expect("valid step");
        let previous = std::mem::replace(&mut observation, outcome.observation);
        std::hint::black_box((&previous, &observation));
        if outcome.terminated || outcome.truncated {
            episodes += 1;
            observation = env.reset(Mode::Training).expect("reset");
        }
    }
    (allocations() - before, episodes)
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(16);
    std::hint::black_box(&v);
    assert!(allocations() > before, "the allocator must see allocations");
}

#[test]
fn a_history_ring_buffer_allocates_nothing_after_construction() {
    let mut history = History::<f32>::new(
        NonZeroUsize::new(4).expect("non-zero"),
        &[3, 2],
        Padding::Zeros,
    )
    .expect("valid");
    let mut stacked = vec![0.0; history.stacked_len()];
    let frame = [1.0f32; 6];
    let before = allocations();
    for i in 0..10_000 {
        if i % 100 == 0 {
            history.reset(&frame).expect("right length");
        } else {
            history.push(&frame).expect("right length");
        }
        history.write_stacked(&mut stacked).expect("right length");
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn history_stacking_allocates_nothing_per_step() {
    let outer = OuterEnvironment::<_, _, f32>::identity(Simulator::new(Drift::new(50, 0.05), 3))
        .expect("numeric");
    let four = NonZeroUsize::new(4).expect("non-zero");
    for padding in [Padding::RepeatFirst, Padding::Zeros] {
        let mut env = HistoryStack::uniform(outer.clone_for_test(), four, padding).expect("valid");
        let (allocated, episodes) = allocations_while_stepping(&mut env, 20_000, &[0, 1, 2]);
        assert!(episodes > 10, "the loop must cross episode ends");
        assert_eq!(allocated, 0, "{padding:?}");
    }
}

/// Builds the same outer environment again (outer environments are not `Clone`).
trait CloneForTest {
    fn clone_for_test(&self) -> Self;
}

impl CloneForTest
    for OuterEnvironment<Simulator<Drift>, rl_wrappers::Identity<rl_spaces::ArrayBox<f32, 2>>, f32>
{
    fn clone_for_test(&self) -> Self {
        OuterEnvironment::identity(self.inner().clone()).expect("numeric")
    }
}

#[test]
fn a_tall_stack_of_wrappers_allocates_nothing_per_step() {
    let domain = Drift::new(1_000, 0.05);
    let space = *rl_core::Domain::observation_space(&domain);
    let outer = OuterEnvironment::<_, _, f32>::new(
        Simulator::new(domain, 5),
        Scaled::new(space, ScaleRange::Symmetric).expect("bounded"),
    );
    let stacked = HistoryStack::uniform(
        outer,
        NonZeroUsize::new(3).expect("non-zero"),
        Padding::RepeatFirst,
    )
    .expect("valid");
    let normalized = NormalizeObservation::new(stacked).expect("valid");
    let limited = TimeLimit::new(normalized, NonZeroU64::new(40).expect("non-zero"));
    let scaled = ScaleReward::new(limited, 0.5).expect("finite");
    let clipped = ClipReward::new(scaled, -1.0, 1.0).expect("interval");
    let rewards = NormalizeReward::new(clipped, 0.99).expect("discount");
    let one_hot = OneHotAction::<_, f32>::new(rewards).expect("finite actions");
    let sticky = StickyAction::new(one_hot, ByMode::new(0.25, 0.0), 9).expect("probabilities");
    let mut env = EpisodeStatistics::new(sticky);
    let actions = [
        vec![1.0f32, 0.0, 0.0],
        vec![0.0, 1.0, 0.0],
        vec![0.0, 0.0, 1.0],
    ];
    let (allocated, episodes) = allocations_while_stepping(&mut env, 20_000, &actions);
    assert!(episodes > 100, "the loop must cross episode ends");
    assert_eq!(allocated, 0);
}

/// Steps a vector environment for a warm-up and then `steps` steps; returns the allocations
/// after the warm-up.
fn vector_allocations<S, T>(
    vector: &mut rl_wrappers::vector::VectorEnvironment<S, T>,
    steps: usize,
) -> usize
where
    S: rl_core::SplitStates<T, Action = i64>,
    T: rl_spaces::FlatScalar,
{
    let len = vector.len();
    let actions: Vec<Vec<i64>> = (0..3)
        .map(|k| (0..len).map(|i| ((i + k) % 3) as i64).collect())
        .collect();
    vector.reset(Mode::Training).expect("reset");
    for i in 0..50 {
        vector.step(&actions[i % 3]).expect("step");
    }
    let before = allocations();
    let mut ended = 0;
    for i in 0..steps {
        vector.step(&actions[i % 3]).expect("step");
        ended += vector.terminated().iter().filter(|t| **t).count();
    }
    let allocated = allocations() - before;
    assert!(ended > 100, "the loop must cross episode ends");
    allocated
}

#[test]
fn a_vector_of_1024_copies_allocates_nothing_per_step() {
    let drift = Drift::new(30, 0.05);
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new().with_autoreset(autoreset);
        let mut vector = EnvironmentVector::<_, f32>::from_environments(
            NonZeroUsize::new(1024).expect("non-zero"),
            1,
            options,
            |_| Simulator::new(drift.clone(), 0),
        )
        .expect("valid");
        assert_eq!(vector_allocations(&mut vector, 300), 0, "{autoreset:?}");
    }
}

#[test]
fn a_vector_of_1024_kernel_episodes_allocates_nothing_per_step() {
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = VectorOptions::new().with_autoreset(autoreset);
        let mut vector = KernelVector::<_, f32>::from_kernel(
            Drift::new(30, 0.05),
            NonZeroUsize::new(1024).expect("non-zero"),
            1,
            options,
        )
        .expect("valid");
        assert_eq!(vector_allocations(&mut vector, 300), 0, "{autoreset:?}");
    }
}

#[test]
fn a_vector_of_wrapped_corridors_allocates_nothing_per_step() {
    let corridor = corridor(4, 0.2);
    let mut vector = EnvironmentVector::<_, f32>::from_environments(
        NonZeroUsize::new(1024).expect("non-zero"),
        1,
        VectorOptions::new(),
        |_| {
            let outer =
                OuterEnvironment::<_, _, f32>::identity(Simulator::new(corridor.clone(), 0))
                    .expect("numeric");
            HistoryStack::uniform(
                outer,
                NonZeroUsize::new(2).expect("non-zero"),
                Padding::Zeros,
            )
            .expect("valid")
        },
    )
    .expect("valid");
    let len = vector.len();
    let actions: Vec<i64> = (0..len).map(|i| (i % 2) as i64).collect();
    vector.reset(Mode::Training).expect("reset");
    for _ in 0..20 {
        vector.step(&actions).expect("step");
    }
    let before = allocations();
    for _ in 0..200 {
        vector.step(&actions).expect("step");
    }
    assert_eq!(allocations() - before, 0);
}
