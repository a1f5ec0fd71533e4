//! Threads of a vector environment writing straight into its buffers: infos land in the right
//! rows on any number of threads (and stale ones are cleared), and a panic inside an
//! environment, on the calling thread's share or on a worker's, reaches the caller only after
//! every thread is done, leaving a vector environment that can still be used and dropped; a
//! kernel vector and a vector of copies give one thread's rows on any number of threads; a
//! domain with costly steps is cut one environment per chunk on several threads, with the same
//! results.

use std::num::NonZeroUsize;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::Rng;
use rl_core::{Domain, Info, Mode, Simulator, TransitionOutcome, Value};
use rl_spaces::{ArrayBox, Discrete};
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, KernelVector, SteppedVector, VectorEnv, VectorEpisodeStatistics,
    VectorOptions,
};

use crate::common::{Drift, assert_same_rows};

/// Counts its steps; action 2 panics; the info of a step names the count when it is odd;
/// an episode terminates after 3 steps. Its steps are costly ([`Domain::costly_steps`], as
/// MuJoCo's domains declare) when `costly` is set.
#[derive(Debug, Clone)]
struct Counter {
    observations: ArrayBox<f32, 1>,
    actions: Discrete,
    costly: bool,
}

const PANIC: i64 = 2;

impl Counter {
    fn new() -> Self {
        Counter {
            observations: ArrayBox::new([0.0], [10.0]).expect("valid bounds"),
            actions: Discrete::new(3).expect("valid"),
            costly: false,
        }
    }

    fn costly() -> Self {
        Counter {
            costly: true,
            ..Counter::new()
        }
    }
}

impl Domain for Counter {
    type State = u32;
    type Observation = [f32; 1];
    type Action = i64;
    type ObservationSpace = ArrayBox<f32, 1>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f32, 1> {
        &self.observations
    }

    fn action_space(&self) -> &Discrete {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, _rng: &mut R) -> u32 {
        0
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &u32,
        action: &i64,
        _mode: Mode,
        _rng: &mut R,
    ) -> TransitionOutcome<u32> {
        assert_ne!(*action, PANIC, "an environment failing on purpose");
        let next = state + 1;
        let mut outcome =
            TransitionOutcome::new(next, Value::from_reward(f64::from(next)), next >= 3);
        if next % 2 == 1 {
            let mut info = Info::new();
            info.insert("count", next);
            info.insert("action", *action);
            outcome.info = info;
        }
        outcome
    }

    fn observe(&self, state: &u32) -> [f32; 1] {
        [*state as f32]
    }

    fn is_terminal(&self, state: &u32) -> bool {
        *state >= 3
    }

    fn costly_steps(&self) -> bool {
        self.costly
    }
}

fn counters(
    len: usize,
    threads: usize,
    autoreset: Autoreset,
) -> EnvironmentVector<Simulator<Counter>, f32> {
    let options = VectorOptions::new()
        .with_autoreset(autoreset)
        .with_threads(NonZeroUsize::new(threads).expect("non-zero"));
    let count = NonZeroUsize::new(len).expect("non-zero");
    let mut vector = EnvironmentVector::from_environments(count, 5, options, |_| {
        Simulator::new(Counter::new(), 0)
    })
    .expect("valid");
    vector.reset(Mode::Training).expect("reset");
    vector
}

/// Everything a call shows, infos included.
type Shown = (
    Vec<f32>,
    Vec<f64>,
    Vec<bool>,
    Vec<Info>,
    Vec<bool>,
    Vec<Info>,
);

fn shown(vector: &EnvironmentVector<Simulator<Counter>, f32>) -> Shown {
    (
        vector.observations().iter().copied().collect(),
        vector.rewards().to_vec(),
        vector.terminated().to_vec(),
        vector.infos().to_vec(),
        vector.final_mask().to_vec(),
        vector.final_infos().to_vec(),
    )
}

#[test]
fn infos_land_in_their_rows_on_any_number_of_threads() {
    let len = 37;
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let mut reference = counters(len, 1, autoreset);
        let mut others: Vec<_> = [2, 3, 5]
            .into_iter()
            .map(|threads| counters(len, threads, autoreset))
            .collect();
        let (mut seen_info, mut seen_final_info) = (false, false);
        for step in 0..12usize {
            // Environments start steps at different times, so infos appear and disappear in
            // different rows on every call.
            let actions: Vec<i64> = (0..len).map(|i| ((i + step) % 2) as i64).collect();
            reference.step(&actions).expect("step");
            seen_info |= reference.infos().iter().any(|info| !info.is_empty());
            seen_final_info |= reference.final_infos().iter().any(|info| !info.is_empty());
            for (k, vector) in others.iter_mut().enumerate() {
                vector.step(&actions).expect("step");
                assert_eq!(
                    shown(vector),
                    shown(&reference),
                    "{autoreset:?}, step {step}, vector {k}"
                );
            }
        }
        assert!(seen_info, "the run shows infos at all");
        assert_eq!(
            seen_final_info,
            autoreset == Autoreset::SameStep,
            "final infos are written with same-step autoreset only"
        );
    }
}

#[test]
fn a_panic_on_any_share_reaches_the_caller_after_every_thread_is_done() {
    let len = 64;
    // Index 0 is on the calling thread's share, the last index on a worker's.
    for culprit in [0, len - 1] {
        let mut vector = counters(len, 2, Autoreset::NextStep);
        let mut actions = vec![0i64; len];
        actions[culprit] = PANIC;
        let caught = catch_unwind(AssertUnwindSafe(|| vector.step(&actions)));
        assert!(
            caught.is_err(),
            "the panic of environment {culprit} reaches the caller"
        );
        // The vector environment is still whole: it resets, steps and drops normally.
        vector.reset(Mode::Training).expect("reset after the panic");
        vector.step(&vec![1i64; len]).expect("step after the panic");
        assert!(vector.observations().iter().all(|x| *x == 1.0));
        assert_eq!(vector.rewards(), vec![1.0; len].as_slice());
        drop(vector);
    }
}

#[test]
fn an_invalid_action_stops_the_whole_batch_before_any_thread_steps() {
    let len = 64;
    let mut vector = counters(len, 2, Autoreset::NextStep);
    vector.step(&vec![1i64; len]).expect("step");
    let before = shown(&vector);
    let mut actions = vec![1i64; len];
    actions[len - 1] = 7;
    let error = vector.step(&actions).expect_err("7 is not in Discrete(3)");
    assert!(error.to_string().contains("63"), "{error}");
    assert_eq!(shown(&vector), before, "nothing stepped");
}

#[test]
fn every_environment_is_visible_on_any_number_of_threads() {
    let len = 37;
    for threads in 1..=4 {
        let mut vector = counters(len, threads, Autoreset::NextStep);
        for _ in 0..2 {
            vector.step(&vec![1i64; len]).expect("step");
        }
        // Every step adds one to the counter, whatever the action, and each environment
        // writes its count into its own row only: every row shows two steps.
        assert_eq!(vector.observations().nrows(), len, "{threads} threads");
        for (i, row) in vector.observations().rows().into_iter().enumerate() {
            assert_eq!(row.to_vec(), [2.0], "environment {i}, {threads} threads");
        }
        assert_eq!(vector.rewards(), vec![2.0; len], "{threads} threads");
    }
}

#[test]
fn kernels_and_copies_give_the_rows_of_one_thread_on_any_number_of_threads() {
    let drift = Drift::new(6, 0.1);
    // Smaller under Miri (ARCHITECTURE.md, "Unsafe code"), which runs it about a thousand times
    // slower; episodes still end (the drift's cap is 6 steps).
    let (len, steps) = if cfg!(miri) { (24, 12) } else { (150, 40) };
    let count = NonZeroUsize::new(len).expect("non-zero");
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        let options = |threads: usize| {
            VectorOptions::new()
                .with_autoreset(autoreset)
                .with_threads(NonZeroUsize::new(threads).expect("non-zero"))
        };
        let mut one = KernelVector::<_, f32>::from_kernel(drift.clone(), count, 5, options(1))
            .expect("valid");
        for threads in [1, 2, 3] {
            let mut kernel = VectorEpisodeStatistics::new(
                KernelVector::<_, f32>::from_kernel(drift.clone(), count, 5, options(threads))
                    .expect("valid"),
            );
            let mut copies =
                EnvironmentVector::<_, f32>::from_environments(count, 5, options(threads), |_| {
                    Simulator::new(drift.clone(), 0)
                })
                .expect("valid");
            one.seed(5).expect("seed");
            one.reset(Mode::Training).expect("reset");
            kernel.reset(Mode::Training).expect("reset");
            copies.reset(Mode::Training).expect("reset");
            let mut ended = 0;
            for step in 0..steps {
                let actions: Vec<i64> = (0..len).map(|i| ((i * 5 + step) % 3) as i64).collect();
                one.step(&actions).expect("step");
                kernel.step(&actions).expect("step");
                copies.step(&actions).expect("step");
                let context = format!("{autoreset:?}, {threads} threads, step {step}");
                assert_same_rows(&one, &kernel, &context);
                assert_same_rows(&one, &copies, &context);
                ended += kernel.ended_indices().len();
            }
            assert!(
                ended > 0,
                "{autoreset:?}, {threads} threads: no episode ended"
            );
        }
    }
}

#[test]
fn costly_steps_are_cut_one_environment_per_chunk_with_the_same_results() {
    let count = NonZeroUsize::new(64).expect("non-zero");
    let options = |threads: usize| {
        VectorOptions::new().with_threads(NonZeroUsize::new(threads).expect("non-zero"))
    };
    let chunks = |debug: String| {
        let start = debug.find("chunks: ").expect("the chunks are shown") + "chunks: ".len();
        let digits: String = debug[start..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse::<usize>().expect("a number")
    };
    let mut vectors = Vec::new();
    for (threads, expected) in [(1, 1), (2, 64), (3, 64)] {
        let vector = SteppedVector::<Counter, f32>::from_kernel(
            Counter::costly(),
            count,
            5,
            options(threads),
        )
        .expect("valid");
        assert_eq!(
            chunks(format!("{vector:?}")),
            expected,
            "costly, {threads} threads"
        );
        vectors.push(vector);
    }
    // Cheap steps: a few chunks per thread.
    let cheap = SteppedVector::<Counter, f32>::from_kernel(Counter::new(), count, 5, options(2))
        .expect("valid");
    let cheap_chunks = chunks(format!("{cheap:?}"));
    assert!(
        (2..64).contains(&cheap_chunks),
        "cheap steps: {cheap_chunks} chunks"
    );
    for vector in &mut vectors {
        vector.reset(Mode::Training).expect("reset");
    }
    for step in 0..7 {
        let actions: Vec<i64> = (0..64).map(|i| ((i + step) % 2) as i64).collect();
        for vector in &mut vectors {
            vector.step(&actions).expect("a step");
        }
        let [one, rest @ ..] = &vectors[..] else {
            unreachable!("three vectors")
        };
        for other in rest {
            assert_eq!(one.observations(), other.observations(), "step {step}");
            assert_eq!(one.rewards(), other.rewards(), "step {step}");
            assert_eq!(one.terminated(), other.terminated(), "step {step}");
            assert_eq!(one.infos(), other.infos(), "step {step}");
        }
    }
}
