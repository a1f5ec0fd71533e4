//! The vector wrappers over a vector built by id (`make_vector`, whose spaces are
//! `AnySpace`s and whose actions are `AnyElement`s) give, bit for bit, what the same wrappers
//! give over a typed vector of the same domain: observation and reward normalisation, history
//! stacking and episode statistics over action clipping, rescaling and discretising.

use std::num::NonZeroUsize;

use ndarray::Array2;
use rl_core::rand::{Rng, RngExt};
use rl_core::registry::Registration;
use rl_core::{Domain, Mode, Simulator, TransitionOutcome, Value};
use rl_spaces::{AnyElement, ArrayBox, DynamicSpace};
use rl_wrappers::stateful::Padding;
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, VectorClipAction, VectorDiscretizeAction, VectorEnv,
    VectorEpisodeStatistics, VectorHistoryStack, VectorNormalizeObservation, VectorNormalizeReward,
    VectorOptions, VectorRescaleAction, make_vector,
};

use crate::common::NoParams;

/// A point in the plane pushed by a two-number action in `[-1, 2] x [0, 0.5]` plus noise,
/// ending beyond radius 3 (termination) or at 25 steps (truncation).
#[derive(Debug, Clone)]
struct Push {
    actions: ArrayBox<f32, 2>,
    observations: ArrayBox<f64, 2>,
}

impl Push {
    fn new() -> Result<Self, rl_spaces::SpaceError> {
        Ok(Push {
            actions: ArrayBox::new([-1.0, 0.0], [2.0, 0.5])?,
            observations: ArrayBox::new([-5.0; 2], [5.0; 2])?,
        })
    }
}

impl Domain for Push {
    type State = [f64; 2];
    type Observation = [f64; 2];
    type Action = [f32; 2];
    type ObservationSpace = ArrayBox<f64, 2>;
    type ActionSpace = ArrayBox<f32, 2>;

    fn observation_space(&self) -> &ArrayBox<f64, 2> {
        &self.observations
    }

    fn action_space(&self) -> &ArrayBox<f32, 2> {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> [f64; 2] {
        [rng.random::<f64>() - 0.5, rng.random::<f64>() - 0.5]
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &[f64; 2],
        action: &[f32; 2],
        _: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<[f64; 2]> {
        let next = [
            state[0] + 0.4 * f64::from(action[0]) + 0.2 * (rng.random::<f64>() - 0.5),
            state[1] - 0.7 * f64::from(action[1]) + 0.3 * (rng.random::<f64>() - 0.45),
        ];
        let radius = next[0].hypot(next[1]);
        TransitionOutcome::new(next, Value::from_reward(-radius + 0.1), radius > 3.0)
    }

    fn observe(&self, state: &[f64; 2]) -> [f64; 2] {
        [state[0].clamp(-5.0, 5.0), state[1].clamp(-5.0, 5.0)]
    }

    fn is_terminal(&self, state: &[f64; 2]) -> bool {
        state[0].hypot(state[1]) > 3.0
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(25)
    }
}

const ID: &str = "Push-wrapped-by-id-v0";
const COUNT: usize = 5;
const SEED: u64 = 31;

fn register() {
    let _ =
        Registration::new(ID, "a point pushed in the plane", |_: NoParams| Push::new()).register();
}

fn options(autoreset: Autoreset) -> VectorOptions {
    VectorOptions::new()
        .with_autoreset(autoreset)
        .with_threads(NonZeroUsize::new(2).expect("non-zero"))
}

fn typed(autoreset: Autoreset) -> EnvironmentVector<Simulator<Push>, f32> {
    let count = NonZeroUsize::new(COUNT).expect("non-zero");
    EnvironmentVector::from_environments(count, SEED, options(autoreset), |_| {
        Simulator::new(Push::new().expect("valid"), 0)
    })
    .expect("typed vector")
}

fn by_id(autoreset: Autoreset) -> rl_wrappers::vector::RegisteredVector {
    register();
    let count = NonZeroUsize::new(COUNT).expect("non-zero");
    make_vector::<AnyElement, f32>(ID, None, count, SEED, options(autoreset)).expect("vector by id")
}

/// Everything a wrapped vector shows after a call, as bits.
#[derive(Debug, PartialEq)]
struct Snapshot {
    observations: Vec<u32>,
    rewards: Vec<u64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    final_observations: Vec<u32>,
    final_mask: Vec<bool>,
    ended: Vec<bool>,
    returns: Vec<u64>,
    lengths: Vec<u64>,
}

fn snapshot<V: VectorEnv<Scalar = f32>>(env: &VectorEpisodeStatistics<V>) -> Snapshot {
    let bits = |a: &Array2<f32>| a.iter().map(|x| x.to_bits()).collect();
    let bits64 = |a: &[f64]| a.iter().map(|x| x.to_bits()).collect();
    Snapshot {
        observations: bits(env.observations()),
        rewards: bits64(env.rewards()),
        terminated: env.terminated().to_vec(),
        truncated: env.truncated().to_vec(),
        final_observations: bits(env.final_observations()),
        final_mask: env.final_mask().to_vec(),
        ended: env.episode_ended().to_vec(),
        returns: bits64(env.episode_returns()),
        lengths: env.episode_lengths().to_vec(),
    }
}

/// The stack of state-holding wrappers over `inner`: history of 3, observation and reward
/// normalisation, episode statistics.
fn stack<V: VectorEnv<Scalar = f32>>(
    inner: V,
) -> VectorEpisodeStatistics<VectorNormalizeReward<VectorNormalizeObservation<VectorHistoryStack<V>>>>
{
    let history = VectorHistoryStack::new(
        inner,
        NonZeroUsize::new(3).expect("non-zero"),
        Padding::Zeros,
    )
    .expect("a history stack");
    let normalized = VectorNormalizeObservation::new(history).expect("normalise observations");
    VectorEpisodeStatistics::new(VectorNormalizeReward::new(normalized, 0.9).expect("rewards"))
}

/// Steps `typed` and `by_id` side by side with the same actions (`action(step, index)` as a
/// typed action, and as the `AnyElement` the vector by id takes), comparing every snapshot;
/// returns how many episodes ended.
fn compare<T, I, A>(
    mut typed: VectorEpisodeStatistics<T>,
    mut by_id: VectorEpisodeStatistics<I>,
    action: impl Fn(usize, usize) -> A,
    to_any: impl Fn(&A) -> I::Action,
    context: &str,
) -> usize
where
    T: VectorEnv<Scalar = f32, Action = A>,
    I: VectorEnv<Scalar = f32>,
{
    typed.reset(Mode::Training).expect("reset");
    by_id.reset(Mode::Training).expect("reset");
    assert_eq!(snapshot(&typed), snapshot(&by_id), "{context}: reset");
    let mut ended = 0;
    for step in 0..120 {
        let actions: Vec<A> = (0..COUNT).map(|i| action(step, i)).collect();
        let any: Vec<I::Action> = actions.iter().map(&to_any).collect();
        typed.step(&actions).expect("typed step");
        by_id.step(&any).expect("step by id");
        assert_eq!(snapshot(&typed), snapshot(&by_id), "{context}: step {step}");
        ended += typed.episode_ended().iter().filter(|e| **e).count();
    }
    assert_eq!(typed.episode_count(), by_id.episode_count());
    ended
}

/// A push of numbers beyond the Box at times (clipped), as typed and as any.
fn push(step: usize, index: usize) -> [f32; 2] {
    let phase = (step * 7 + index * 3) % 11;
    [phase as f32 * 0.35 - 1.4, (phase % 4) as f32 * 0.25 - 0.1]
}

fn any_push(action: &[f32; 2]) -> AnyElement {
    Push::new()
        .expect("valid")
        .action_space()
        .element_to_any(action)
}

#[test]
fn clipping_and_the_stateful_wrappers_over_a_vector_by_id_are_the_typed_ones() {
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let typed = stack(VectorClipAction::new(typed(autoreset)).expect("clip"));
        let by_id = stack(VectorClipAction::new(by_id(autoreset)).expect("clip by id"));
        let ended = compare(
            typed,
            by_id,
            push,
            any_push,
            &format!("clip, {autoreset:?}"),
        );
        assert!(ended > 10, "{autoreset:?}: only {ended} episodes ended");
    }
}

#[test]
fn rescaling_over_a_vector_by_id_is_the_typed_one() {
    // Actions in [-1, 1] mapped onto [-1, 2] x [0, 0.5].
    let unit = |step: usize, index: usize| {
        let phase = ((step * 5 + index * 2) % 9) as f32;
        [phase / 4.0 - 1.0, 1.0 - phase / 4.0]
    };
    let typed =
        stack(VectorRescaleAction::new(typed(Autoreset::NextStep), -1.0, 1.0).expect("rescale"));
    let by_id =
        stack(VectorRescaleAction::new(by_id(Autoreset::NextStep), -1.0, 1.0).expect("rescale"));
    let ended = compare(typed, by_id, unit, any_push, "rescale");
    assert!(ended > 10, "only {ended} episodes ended");
}

#[test]
fn discretising_over_a_vector_by_id_is_the_typed_one() {
    let typed = VectorDiscretizeAction::new(typed(Autoreset::SameStep), 3).expect("discretise");
    let by_id = VectorDiscretizeAction::new(by_id(Autoreset::SameStep), 3).expect("discretise");
    assert_eq!(typed.table().len(), 9);
    let tables: Vec<AnyElement> = typed.table().iter().map(any_push).collect();
    assert_eq!(by_id.table(), tables.as_slice());
    let index = |step: usize, index: usize| ((step * 4 + index * 5) % 9) as i64;
    let ended = compare(
        stack(typed),
        stack(by_id),
        index,
        |a: &i64| *a,
        "discretise",
    );
    assert!(ended > 10, "only {ended} episodes ended");
}

#[test]
fn action_wrappers_refuse_a_vector_by_id_without_float_box_actions() {
    let _ = Registration::new("Corridor-not-a-box-v0", "a corridor", |_: NoParams| {
        rl_core::corridor::Corridor::new(4, 0.0)
    })
    .register();
    let count = NonZeroUsize::new(2).expect("non-zero");
    let vector = || {
        make_vector::<AnyElement, f32>(
            "Corridor-not-a-box-v0",
            None,
            count,
            0,
            VectorOptions::new(),
        )
        .expect("by id")
    };
    for error in [
        VectorClipAction::new(vector()).err().map(|e| e.to_string()),
        VectorRescaleAction::new(vector(), -1.0, 1.0)
            .err()
            .map(|e| e.to_string()),
        VectorDiscretizeAction::new(vector(), 3)
            .err()
            .map(|e| e.to_string()),
    ] {
        let error = error.expect("refused");
        assert!(
            error.contains("Discrete(2) is not a Box of f32 or f64"),
            "{error}"
        );
    }
    // A rescaled action of the wrong kind is refused naming the environment, not stepped.
    let mut rescaled =
        VectorRescaleAction::new(by_id(Autoreset::NextStep), -1.0, 1.0).expect("rescale");
    rescaled.reset(Mode::Training).expect("reset");
    let mut actions = vec![any_push(&[0.0, 0.0]); COUNT];
    actions[3] = AnyElement::Int(1);
    let error = rescaled
        .step(&actions)
        .expect_err("an integer is no push")
        .to_string();
    assert!(error.contains('3'), "{error}");
}
