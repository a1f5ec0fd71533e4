//! Two threads against one for MuJoCo vectors stepped from Rust, in alternation: what the
//! vector gives without Python (any other registered id too, named in IDS: the built-in ids are
//! registered beside MuJoCo's, and only a MuJoCo id needs the library). For each id, a vector
//! of ENVS environments by id (`make_vector::<AnyElement, f32>`) on one thread and one on two
//! threads are made and reset,
//! then stepped in turn for SECONDS each, ROUNDS times (so that this machine's drifting speed
//! meets both alike), with actions drawn once from the action space (a table of 64 rows,
//! cycled). A third contender in each round is the two cores' ceiling without a shared vector:
//! two one-thread vectors of half the environments each, stepped at once on two threads of
//! this process, their rates summed. Prints each one's median rate and the median and range of
//! the per-round ratios: two threads over one, and the two-thread vector over the pair;
//! `benches/compare/mujoco_bench.py --interleaved` measures the same vectors from Python.
//!
//! ```text
//! RL_MUJOCO_LIBRARY=target/rl-python-venv/lib/python3.11/site-packages/mujoco/libmujoco.so.4.0.0 \
//!     cargo run --release -p rl-benches --bin mujoco_vectors [-- ROUNDS [SECONDS [ENVS [IDS]]]]
//! ```
//!
//! (defaults: 8 rounds of 0.4 s, 64 environments (at least 2: the pair has half each),
//! Hopper-v5,HalfCheetah-v5,Ant-v5,Humanoid-v5;
//! each vector first runs 3 s, past the first timings of its threads' shares.)
//!
//! `mujoco_vectors --two-threads SECONDS [IDS [ENVS]]` steps only the two-thread vector of ENVS
//! environments (64 by default) of each id, for SECONDS after the same 3 s, and prints its
//! rate: a run for a profiler, which
//! then sees that vector's threads alone (for instance the share of samples in which the
//! threads wait for each other: `perf record -F 2000` on it, then `perf report --sort
//! comm,sym`, the calling thread's `Threads::run` and the worker's wait loop, which `perf`
//! names `__rust_begin_short_backtrace`, with the kernel's samples).

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rl_benches::timing::median;
use rl_core::{Mode, NumpyGenerator};
use rl_spaces::{AnyElement, TrySampleSpace};
use rl_wrappers::vector::{RegisteredVector, VectorOptions, make_vector};

/// Environment steps per second of `vector` stepped for `duration` with the rows of `actions`
/// in turn (`next` is the row to start from, advanced as rows are used).
fn rate(
    vector: &mut RegisteredVector<AnyElement, f32>,
    actions: &[Vec<AnyElement>],
    next: &mut usize,
    duration: Duration,
) -> f64 {
    let start = Instant::now();
    let mut steps = 0_u64;
    while start.elapsed() < duration {
        vector
            .step(&actions[*next % actions.len()])
            .expect("a step");
        *next += 1;
        steps += actions[0].len() as u64;
    }
    steps as f64 / start.elapsed().as_secs_f64()
}

/// Steps per second of the pair of one-thread vectors `pair`, each stepped on its own thread
/// for `duration` at once, summed.
fn pair_rate(
    pair: &mut [RegisteredVector<AnyElement, f32>],
    actions: &[Vec<AnyElement>],
    duration: Duration,
) -> f64 {
    std::thread::scope(|scope| {
        let handles: Vec<_> = pair
            .iter_mut()
            .map(|vector| {
                scope.spawn(move || {
                    let mut next = 0;
                    rate(vector, actions, &mut next, duration)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a stepping thread"))
            .sum()
    })
}

/// The ids measured when none are named.
const DEFAULT_IDS: &str = "Hopper-v5,HalfCheetah-v5,Ant-v5,Humanoid-v5";

/// Registers the built-in ids and the MuJoCo ids (a MuJoCo id made without the library is an
/// exit saying how to get it, [`make`]).
fn register() {
    rl_domains::register_builtins();
    rl_mujoco::register();
}

/// A reset vector of `count` environments of `id` on `threads` threads, seeded with `seed`,
/// or an exit saying why none could be made.
fn make(
    id: &str,
    count: NonZeroUsize,
    threads: usize,
    seed: u64,
) -> RegisteredVector<AnyElement, f32> {
    let options = VectorOptions::new()
        .with_threads(NonZeroUsize::new(threads).expect("threads are not zero"));
    let mut vector =
        make_vector::<AnyElement, f32>(id, None, count, seed, options).unwrap_or_else(|error| {
            eprintln!("mujoco_vectors: {id}: {error}");
            std::process::exit(1);
        });
    vector.reset(Mode::Training).expect("a reset");
    vector
}

/// 64 rows of `vector`'s actions, drawn from its action space with seed 0.
fn actions_of(vector: &RegisteredVector<AnyElement, f32>) -> Vec<Vec<AnyElement>> {
    let mut rng = NumpyGenerator::seed_from_u64(0);
    (0..64)
        .map(|_| {
            (0..vector.len())
                .map(|_| {
                    vector
                        .action_space()
                        .try_sample(&mut rng)
                        .expect("an action")
                })
                .collect()
        })
        .collect()
}

/// `--two-threads SECONDS [IDS [ENVS]]`: each id's two-thread vector alone (see the header).
fn two_threads_only(arguments: &[String]) {
    let seconds = arguments
        .first()
        .and_then(|text| text.parse::<f64>().ok())
        .filter(|value| value.is_finite() && *value > 0.0 && *value <= 1e6)
        .unwrap_or_else(|| {
            eprintln!("mujoco_vectors: --two-threads needs a positive number of SECONDS");
            std::process::exit(2);
        });
    let ids = arguments.get(1).map_or(DEFAULT_IDS, String::as_str);
    let count = match arguments.get(2) {
        None => NonZeroUsize::new(64).expect("not zero"),
        Some(text) => text
            .parse::<NonZeroUsize>()
            .ok()
            .filter(|count| count.get() >= 2 && count.get() <= 1_000_000)
            .unwrap_or_else(|| {
                eprintln!(
                    "mujoco_vectors: --two-threads ENVS must be a whole number from 2 to 1000000"
                );
                std::process::exit(2);
            }),
    };
    register();
    for id in ids.split(',') {
        let mut vector = make(id, count, 2, 0);
        let actions = actions_of(&vector);
        let mut next = 0;
        rate(&mut vector, &actions, &mut next, Duration::from_secs(3));
        let steps = rate(
            &mut vector,
            &actions,
            &mut next,
            Duration::from_secs_f64(seconds),
        );
        println!("{id:<15} 2 threads {steps:>7.0}/s");
    }
}

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if arguments
        .first()
        .is_some_and(|first| first == "--two-threads")
    {
        two_threads_only(&arguments[1..]);
        return;
    }
    let number = |index: usize, default: f64| {
        arguments
            .get(index)
            .map_or(Ok(default), |text| text.parse::<f64>())
            .ok()
            .filter(|value| value.is_finite() && *value > 0.0)
            .unwrap_or_else(|| {
                eprintln!(
                    "mujoco_vectors: argument {} must be a positive number",
                    index + 1
                );
                std::process::exit(2);
            })
    };
    let whole = |index: usize, default: f64, least: usize, name: &str| {
        let value = number(index, default);
        if value.fract() != 0.0 || value < least as f64 || value > 1e6 {
            eprintln!("mujoco_vectors: {name} must be a whole number from {least} to 1000000");
            std::process::exit(2);
        }
        value as usize
    };
    let rounds = whole(0, 8.0, 1, "ROUNDS");
    let duration = Duration::from_secs_f64(number(1, 0.4));
    // At least 2, so that the pair has half each.
    let envs = NonZeroUsize::new(whole(2, 64.0, 2, "ENVS")).expect("at least 2");
    let ids = arguments.get(3).map_or(DEFAULT_IDS, String::as_str);
    register();
    println!(
        "{rounds} rounds of {:.2} s per vector, {envs} environments",
        duration.as_secs_f64()
    );
    for id in ids.split(',') {
        let mut vectors = vec![make(id, envs, 1, 0), make(id, envs, 2, 0)];
        let half = NonZeroUsize::new(envs.get() / 2).expect("ENVS is at least 2");
        let mut pair = vec![make(id, half, 1, 0), make(id, half, 1, half.get() as u64)];
        let actions = actions_of(&vectors[0]);
        let half_actions: Vec<Vec<AnyElement>> = actions
            .iter()
            .map(|row| row[..half.get()].to_vec())
            .collect();
        let mut next = 0;
        for vector in &mut vectors {
            rate(vector, &actions, &mut next, Duration::from_secs(3));
        }
        pair_rate(&mut pair, &half_actions, Duration::from_secs(3));
        let (mut one, mut two, mut both) = (Vec::new(), Vec::new(), Vec::new());
        let (mut over_one, mut over_pair) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let a = rate(&mut vectors[0], &actions, &mut next, duration);
            let b = rate(&mut vectors[1], &actions, &mut next, duration);
            let c = pair_rate(&mut pair, &half_actions, duration);
            one.push(a);
            two.push(b);
            both.push(c);
            over_one.push(b / a);
            over_pair.push(b / c);
        }
        let range = |values: &[f64]| {
            values
                .iter()
                .fold((f64::INFINITY, 0.0_f64), |(low, high), value| {
                    (low.min(*value), high.max(*value))
                })
        };
        let ((low, high), (pair_low, pair_high)) = (range(&over_one), range(&over_pair));
        println!(
            "{id:<15} 1 thread {:>7.0}/s  2 threads {:>7.0}/s  pair {:>7.0}/s  \
             2/1 {:.2}x ({low:.2}-{high:.2})  2/pair {:.2}x ({pair_low:.2}-{pair_high:.2})",
            median(&one),
            median(&two),
            median(&both),
            median(&over_one),
            median(&over_pair)
        );
    }
}
