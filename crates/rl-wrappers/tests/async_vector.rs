//! The asynchronous vector (`AsyncVector`, EnvPool's asynchronous mode): each environment's
//! trajectory is, bit for bit, what the same environment of the synchronous vector gives with
//! the same seed and actions, whatever order the workers finish in (by id, stepped state by
//! state with infos on steps and resets; and a typed kernel one state at a time), and whichever
//! environments are reset on their own (`send_reset`, against the synchronous vector's
//! `reset_selected`), with EnvPool's `elapsed_step` counted; with `batch_size` equal to the
//! number of environments, the rows come in the order sent, some environments only when some
//! were sent (EnvPool's synchronous mode); bad input is an error that changes nothing; dropping
//! the vector with work in flight returns.

use std::num::NonZeroUsize;

use rl_core::corridor::{Corridor, LEFT, RIGHT};
use rl_core::registry::Registration;
use rl_core::{Info, Mode, Seed};
use rl_wrappers::VectorError;
use rl_wrappers::vector::{
    AsyncKernelVector, AsyncSteppedVector, AsyncVector, Autoreset, KernelVector,
    RegisteredAsyncVector, VectorOptions, make_async_vector, make_vector,
};

use crate::common::{CorridorWith, Drift, NoParams};

/// One result of one environment: its observation row, reward, flags and info.
type Record = (Vec<f32>, f64, bool, bool, Info);

/// The action environment `env` takes on its step `t` (of `choices` actions): uneven, so that
/// environments' trajectories differ.
fn action(env: usize, t: usize, choices: i64) -> i64 {
    ((env * 7 + t * 3 + t * t / 5) as i64) % choices
}

fn non_zero(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).expect("non-zero")
}

/// Registers (once) a slippery corridor by id that reports its cell on every step and its
/// first cell on every reset, truncated after 7 steps.
fn corridor_id() -> &'static str {
    let id = "Corridor-async-v0";
    let _ = Registration::new(id, "a slippery corridor with infos", |_: NoParams| {
        Corridor::new(3, 0.3).map(|corridor| CorridorWith {
            reports_cell: true,
            reports_start: true,
            cap: Some(7),
            ..CorridorWith::plain(corridor)
        })
    })
    .register();
    id
}

/// Whether environment `env` is reset on its own (EnvPool's `reset(env_id)`) before its step
/// `t`: now and then, unevenly, mid-episode or not.
fn resets_before(env: usize, t: usize) -> bool {
    t > 0 && (env * 5 + t * 11) % 17 == 0
}

/// Never: no environment is reset on its own.
fn never(_: usize, _: usize) -> bool {
    false
}

/// Records the results of the environments `envs` of `vector` (row `i` for environment `i`)
/// in `records`.
macro_rules! record_rows {
    ($records:expr, $vector:expr, $envs:expr) => {
        for i in $envs {
            $records[i].push((
                $vector.observations().row(i).to_vec(),
                $vector.rewards()[i],
                $vector.terminated()[i],
                $vector.truncated()[i],
                $vector.infos()[i].clone(),
            ));
        }
    };
}

/// The per-environment trajectories of `sync` (already built, not reset) over `steps` steps
/// of every environment: the reset's results, then each step's, with the environments that
/// `resets(env, t)` names reset (`reset_selected`) before step `t`, their results recorded.
macro_rules! sync_trajectories {
    ($sync:expr, $steps:expr, $choices:expr, $resets:expr) => {{
        let sync = &mut $sync;
        let len = sync.len();
        let mut records: Vec<Vec<Record>> = vec![Vec::new(); len];
        sync.reset(Mode::Training).expect("reset");
        record_rows!(records, sync, 0..len);
        for t in 0..$steps {
            let selected: Vec<bool> = (0..len).map(|i| $resets(i, t)).collect();
            if selected.contains(&true) {
                sync.reset_selected(&selected).expect("a reset of some");
                record_rows!(records, sync, (0..len).filter(|&i| selected[i]));
            }
            let actions: Vec<i64> = (0..len).map(|i| action(i, t, $choices)).collect();
            sync.step(&actions).expect("a step");
            record_rows!(records, sync, 0..len);
        }
        records
    }};
}

/// What [`async_trajectories`] records, per environment: its results, the elapsed steps of
/// each, and whether each was a reset's.
struct AsyncRun {
    records: Vec<Vec<Record>>,
    elapsed: Vec<Vec<u64>>,
    was_reset: Vec<Vec<bool>>,
}

/// The per-environment trajectories of `vector` until every environment has `steps` results
/// after its reset, with the elapsed steps of each result: reset, then each environment
/// received is sent its next action at once (so that every environment stays in flight,
/// however unevenly the workers take them), the ids of each batch in reverse order and in two
/// sends; an environment that `resets(env, t)` names before its step `t` is reset on its own
/// (`send_reset`) first.
fn async_trajectories<S>(
    vector: &mut AsyncVector<S, f32>,
    steps: usize,
    choices: i64,
    resets: fn(usize, usize) -> bool,
) -> AsyncRun
where
    S: rl_core::SplitStates<f32, Action = i64>,
{
    let len = vector.len();
    let mut records: Vec<Vec<Record>> = vec![Vec::new(); len];
    let mut elapsed: Vec<Vec<u64>> = vec![Vec::new(); len];
    let mut was_reset: Vec<Vec<bool>> = vec![Vec::new(); len];
    let mut sent = vec![0usize; len];
    // Whether the environment's last operation sent was a reset (its first is).
    let mut reset_sent = vec![true; len];
    vector.async_reset(Mode::Training).expect("reset");
    while records.iter().any(|env| env.len() <= steps) {
        vector.recv().expect("recv");
        assert_eq!(vector.env_ids().len(), vector.batch_size());
        assert_eq!(vector.elapsed_steps().len(), vector.batch_size());
        let mut next = Vec::new();
        for (row, &env) in vector.env_ids().iter().enumerate() {
            records[env].push((
                vector.observations().row(row).to_vec(),
                vector.rewards()[row],
                vector.terminated()[row],
                vector.truncated()[row],
                vector.infos()[row].clone(),
            ));
            elapsed[env].push(vector.elapsed_steps()[row]);
            was_reset[env].push(reset_sent[env]);
            next.push(env);
        }
        next.reverse();
        let (resetting, stepping): (Vec<usize>, Vec<usize>) = next
            .into_iter()
            .partition(|&env| resets(env, sent[env]) && !reset_sent[env]);
        vector.send_reset(&resetting).expect("a reset of some");
        for &env in &resetting {
            reset_sent[env] = true;
        }
        let (first, second) = stepping.split_at(stepping.len() / 2);
        for part in [first, second] {
            let actions: Vec<i64> = part
                .iter()
                .map(|&env| action(env, sent[env], choices))
                .collect();
            vector.send(&actions, part).expect("send");
            for &env in part {
                sent[env] += 1;
                reset_sent[env] = false;
            }
        }
    }
    AsyncRun {
        records,
        elapsed,
        was_reset,
    }
}

/// Checks the elapsed steps of one environment's results (`records`, each with whether it
/// was a reset's, and `elapsed`): 0 on a reset or on the step after an episode's end (an
/// autoreset), else one more than the result before; 7 on a truncation (the id's cap), never
/// more.
fn assert_elapsed_steps(env: usize, records: &[Record], was_reset: &[bool], elapsed: &[u64]) {
    let mut expected = 0;
    for (k, (record, &found)) in records.iter().zip(elapsed).enumerate() {
        let restarted = k == 0 || was_reset[k] || records[k - 1].2 || records[k - 1].3;
        expected = if restarted { 0 } else { expected + 1 };
        assert_eq!(found, expected, "environment {env}, result {k}");
        assert!(found <= 7, "environment {env}, result {k}: past the cap");
        if record.3 {
            assert_eq!(
                found, 7,
                "environment {env}, result {k}: truncated at the cap"
            );
        }
    }
}

/// Checks that every environment's asynchronous trajectory agrees with its synchronous one
/// (`steps` steps or more each: the longer ones as far as the synchronous one goes).
fn assert_prefixes(asynchronous: &[Vec<Record>], synchronous: &[Vec<Record>], steps: usize) {
    for (env, (mine, theirs)) in asynchronous.iter().zip(synchronous).enumerate() {
        assert!(
            mine.len() > steps && theirs.len() > steps,
            "environment {env}: {} results, {} expected",
            mine.len(),
            theirs.len()
        );
        for (t, (a, s)) in mine.iter().zip(theirs).enumerate() {
            assert_eq!(
                a.0.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                s.0.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "environment {env}, result {t}: observation"
            );
            assert_eq!(
                a.1.to_bits(),
                s.1.to_bits(),
                "environment {env}, result {t}"
            );
            assert_eq!((a.2, a.3), (s.2, s.3), "environment {env}, result {t}");
            assert_eq!(a.4, s.4, "environment {env}, result {t}: info");
        }
    }
}

#[test]
fn each_environment_by_id_follows_the_synchronous_vectors_trajectory() {
    let id = corridor_id();
    let (count, steps) = (8, 60);
    let mut sync = make_vector::<i64, f32>(id, None, non_zero(count), 11, VectorOptions::new())
        .expect("registered");
    let synchronous = sync_trajectories!(sync, 4 * steps, 2, never);
    // The trajectories cross episode ends, by termination and by truncation.
    let flags = synchronous.iter().flatten();
    let (ended, cut) = (
        flags.clone().filter(|r| r.2).count(),
        flags.filter(|r| r.3).count(),
    );
    assert!(
        ended > 10 && cut > 5,
        "{ended} terminations, {cut} truncations"
    );
    for (threads, batch_size) in [(2, 4), (2, 3), (1, 4), (3, 8)] {
        let options = VectorOptions::new().with_threads(non_zero(threads));
        let mut vector: RegisteredAsyncVector<i64> = make_async_vector::<i64, f32>(
            id,
            None,
            non_zero(count),
            11,
            options,
            non_zero(batch_size),
        )
        .expect("registered");
        let asynchronous = async_trajectories(&mut vector, steps, 2, never);
        assert_prefixes(&asynchronous.records, &synchronous, steps);
    }
}

#[test]
fn environments_reset_on_their_own_follow_the_synchronous_vectors_selected_resets() {
    let id = corridor_id();
    let (count, steps) = (8, 60);
    let mut sync = make_vector::<i64, f32>(id, None, non_zero(count), 5, VectorOptions::new())
        .expect("registered");
    let synchronous = sync_trajectories!(sync, 4 * steps, 2, resets_before);
    let resets = (0..count)
        .flat_map(|env| (0..steps).filter(move |&t| resets_before(env, t)))
        .count();
    assert!(resets > 20, "{resets} resets of single environments");
    // Asynchronous (some in flight while others reset) and synchronous (batch_size 8).
    for (threads, batch_size) in [(2, 3), (1, 4), (2, 8)] {
        let options = VectorOptions::new().with_threads(non_zero(threads));
        let mut vector = make_async_vector::<i64, f32>(
            id,
            None,
            non_zero(count),
            5,
            options,
            non_zero(batch_size),
        )
        .expect("registered");
        let run = async_trajectories(&mut vector, steps, 2, resets_before);
        assert_prefixes(&run.records, &synchronous, steps);
        for env in 0..count {
            assert_elapsed_steps(
                env,
                &run.records[env],
                &run.was_reset[env],
                &run.elapsed[env],
            );
        }
        let truncations = run.records.iter().flatten().filter(|r| r.3).count();
        assert!(truncations > 5, "{truncations} truncations");
    }
}

#[test]
fn each_environment_of_a_kernel_follows_the_synchronous_vectors_trajectory() {
    let (count, steps) = (6, 80);
    let drift = Drift::new(25, 0.2);
    let mut sync = KernelVector::<_, f32>::from_kernel(
        drift.clone(),
        non_zero(count),
        3,
        VectorOptions::new(),
    )
    .expect("valid");
    let synchronous = sync_trajectories!(sync, 4 * steps, 3, never);
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector =
        AsyncKernelVector::<_, f32>::from_kernel(drift, non_zero(count), 3, options, non_zero(3))
            .expect("valid");
    let asynchronous = async_trajectories(&mut vector, steps, 3, never);
    assert_prefixes(&asynchronous.records, &synchronous, steps);
}

#[test]
fn with_every_environment_per_batch_the_rows_come_in_the_order_sent() {
    let id = corridor_id();
    let count = 4;
    let mut sync = make_vector::<i64, f32>(id, None, non_zero(count), 2, VectorOptions::new())
        .expect("registered");
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector =
        make_async_vector::<i64, f32>(id, None, non_zero(count), 2, options, non_zero(count))
            .expect("registered");
    sync.reset(Mode::Training).expect("reset");
    vector.async_reset(Mode::Training).expect("reset");
    vector.recv().expect("the resets");
    assert_eq!(vector.env_ids(), &[0, 1, 2, 3]);
    assert_eq!(vector.observations(), sync.observations());
    for t in 0..20 {
        let actions: Vec<i64> = (0..count).map(|i| action(i, t, 2)).collect();
        sync.step(&actions).expect("a step");
        // Sent in a scrambled order: the rows come in that order.
        let order = [3, 1, 0, 2];
        let scrambled: Vec<i64> = order.iter().map(|&i| actions[i]).collect();
        vector.step(&scrambled, &order).expect("a step");
        assert_eq!(vector.env_ids(), &order, "step {t}");
        for (row, &i) in order.iter().enumerate() {
            assert_eq!(vector.observations().row(row), sync.observations().row(i));
            assert_eq!(vector.rewards()[row], sync.rewards()[i]);
            assert_eq!(vector.terminated()[row], sync.terminated()[i]);
            assert_eq!(vector.truncated()[row], sync.truncated()[i]);
            assert_eq!(vector.infos()[row], sync.infos()[i]);
        }
    }
}

#[test]
fn bad_input_is_an_error_that_sends_nothing() {
    let id = corridor_id();
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector = make_async_vector::<i64, f32>(id, None, non_zero(4), 0, options, non_zero(2))
        .expect("registered");
    assert_eq!(vector.send(&[1], &[0]), Err(VectorError::NotStarted));
    assert!(matches!(
        vector.recv(),
        Err(VectorError::NotEnoughInFlight {
            batch_size: 2,
            in_flight: 0
        })
    ));
    vector.async_reset(Mode::Training).expect("reset");
    // Every environment is in flight (its reset): none can be sent.
    assert_eq!(
        vector.send(&[1], &[2]),
        Err(VectorError::AlreadySent { env_id: 2 })
    );
    vector.recv().expect("two resets");
    vector.recv().expect("two more");
    assert_eq!(vector.in_flight(), 0);
    assert!(matches!(
        vector.recv(),
        Err(VectorError::NotEnoughInFlight { in_flight: 0, .. })
    ));
    assert_eq!(
        vector.send(&[1, 0], &[0]),
        Err(VectorError::ActionCount {
            expected: 1,
            found: 2
        })
    );
    assert_eq!(
        vector.send(&[1, 0], &[1, 4]),
        Err(VectorError::EnvIdOutOfRange { env_id: 4, len: 4 })
    );
    assert_eq!(
        vector.send(&[1, 0], &[1, 1]),
        Err(VectorError::AlreadySent { env_id: 1 })
    );
    assert!(matches!(
        vector.send(&[1, 5], &[0, 3]),
        Err(VectorError::InvalidAction { index: 3, .. })
    ));
    assert_eq!(vector.in_flight(), 0, "nothing was sent");
    // One in flight: recv refuses to wait for two.
    vector.send(&[1], &[1]).expect("send");
    assert!(matches!(
        vector.recv(),
        Err(VectorError::NotEnoughInFlight {
            batch_size: 2,
            in_flight: 1
        })
    ));
    assert_eq!(
        vector.send(&[1, 0], &[0, 1]),
        Err(VectorError::AlreadySent { env_id: 1 })
    );
    // Environment 0 was not left marked by the refused send: it goes now.
    vector.send(&[0], &[0]).expect("send");
    vector.recv().expect("both");
    let mut received = vector.env_ids().to_vec();
    received.sort_unstable();
    assert_eq!(received, [0, 1]);
    // Options the asynchronous vector does not offer, and sizes it cannot take.
    let same_step = VectorOptions::new().with_autoreset(Autoreset::SameStep);
    assert!(matches!(
        make_async_vector::<i64, f32>(id, None, non_zero(4), 0, same_step, non_zero(2)),
        Err(VectorError::InvalidParameter {
            name: "options",
            ..
        })
    ));
    assert!(matches!(
        make_async_vector::<i64, f32>(id, None, non_zero(4), 0, VectorOptions::new(), non_zero(5)),
        Err(VectorError::InvalidParameter {
            name: "batch_size",
            ..
        })
    ));
    let five = VectorOptions::new().with_threads(non_zero(5));
    assert!(matches!(
        make_async_vector::<i64, f32>(id, None, non_zero(4), 0, five, non_zero(2)),
        Err(VectorError::InvalidParameter {
            name: "threads",
            ..
        })
    ));
}

#[test]
fn a_reset_discards_results_not_received_and_starts_over() {
    let id = corridor_id();
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector = make_async_vector::<i64, f32>(id, None, non_zero(4), 9, options, non_zero(2))
        .expect("registered");
    let mut fresh = make_async_vector::<i64, f32>(id, None, non_zero(4), 9, options, non_zero(4))
        .expect("registered");
    vector.async_reset(Mode::Training).expect("reset");
    vector.recv().expect("two");
    // Two resets and two steps in flight, none received: a reset waits for them and drops them.
    let ids = vector.env_ids().to_vec();
    vector.send(&[1, 1], &ids).expect("send");
    vector.seed(9).expect("reseed");
    assert_eq!(vector.in_flight(), 0);
    vector.async_reset(Mode::Training).expect("reset");
    fresh.async_reset(Mode::Training).expect("reset");
    fresh.recv().expect("four");
    for _ in 0..2 {
        vector.recv().expect("two");
        for (row, &env) in vector.env_ids().iter().enumerate() {
            assert_eq!(
                vector.observations().row(row),
                fresh.observations().row(env),
                "environment {env} restarted from its seed"
            );
        }
    }
}

#[test]
fn dropping_the_vector_with_work_in_flight_returns() {
    let id = corridor_id();
    let options = VectorOptions::new().with_threads(non_zero(2));
    for batch_size in [1, 3] {
        let mut vector =
            make_async_vector::<i64, f32>(id, None, non_zero(64), 0, options, non_zero(batch_size))
                .expect("registered");
        vector.async_reset(Mode::Training).expect("reset");
        drop(vector);
    }
}

#[test]
fn a_panic_inside_an_environment_reaches_the_recv_that_receives_it() {
    // A corridor whose step panics on the action `LEFT` (a bug in a domain).
    let fragile = CorridorWith {
        panics_on: Some(LEFT),
        ..CorridorWith::plain(Corridor::new(6, 0.0).expect("valid"))
    };
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector =
        AsyncSteppedVector::<_, f32>::from_kernel(fragile, non_zero(4), 0, options, non_zero(2))
            .expect("valid");
    vector.async_reset(Mode::Training).expect("reset");
    vector.recv().expect("two");
    vector.recv().expect("two more");
    vector.send(&[RIGHT, LEFT], &[0, 1]).expect("send");
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| vector.recv()));
    assert!(caught.is_err(), "the panic is passed on");
    // Both results were received; the vector refuses to step until it is reset.
    assert_eq!(vector.in_flight(), 0);
    assert_eq!(vector.send(&[RIGHT], &[2]), Err(VectorError::Interrupted));
    vector.async_reset(Mode::Training).expect("reset");
    vector.recv().expect("two");
    let ids = vector.env_ids().to_vec();
    vector.send(&[RIGHT, RIGHT], &ids).expect("send");
    vector.recv().expect("the other two resets");
    vector.recv().expect("the two steps");
}

/// EnvPool 1.2.5's synchronous mode (`batch_size == num_envs`), as its CartPole-v1 gives it:
/// `reset(env_id)` and a step of some environments return those environments' rows only, in
/// the order named, with `elapsed_step` counting each environment's own steps.
#[test]
fn with_every_environment_per_batch_some_environments_reset_and_step_on_their_own() {
    let id = corridor_id();
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector = make_async_vector::<i64, f32>(id, None, non_zero(4), 3, options, non_zero(4))
        .expect("registered");
    // Before any reset of all: the environments reset are the ones that may step.
    vector.reset(&[1]).expect("a reset of one");
    assert_eq!(vector.env_ids(), &[1]);
    assert_eq!(vector.observations().nrows(), 1);
    assert_eq!(vector.send(&[RIGHT], &[0]), Err(VectorError::NotStarted));
    vector
        .step(&[RIGHT], &[1])
        .expect("a step of the one reset");
    assert_eq!(vector.elapsed_steps(), &[1]);
    vector.async_reset(Mode::Training).expect("reset");
    vector.recv().expect("four resets");
    assert_eq!(vector.elapsed_steps(), &[0, 0, 0, 0]);
    vector.step(&[RIGHT; 4], &[0, 1, 2, 3]).expect("a step");
    assert_eq!(vector.elapsed_steps(), &[1, 1, 1, 1]);
    vector.reset(&[2, 0]).expect("a reset of two");
    assert_eq!(vector.env_ids(), &[2, 0]);
    assert_eq!(vector.elapsed_steps(), &[0, 0]);
    assert_eq!(vector.rewards(), &[0.0, 0.0]);
    vector.step(&[LEFT; 4], &[0, 1, 2, 3]).expect("a step");
    assert_eq!(vector.elapsed_steps(), &[1, 2, 1, 2]);
    vector.step(&[LEFT; 2], &[3, 1]).expect("a step of two");
    assert_eq!(vector.env_ids(), &[3, 1]);
    assert_eq!(vector.elapsed_steps(), &[3, 3]);
    assert_eq!(vector.observations().nrows(), 2);
    // Nothing in flight: a recv would wait forever.
    assert!(matches!(
        vector.recv(),
        Err(VectorError::NotEnoughInFlight { in_flight: 0, .. })
    ));
}

#[test]
fn a_reset_of_some_environments_refuses_bad_input_and_sends_nothing() {
    let id = corridor_id();
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector = make_async_vector::<i64, f32>(id, None, non_zero(4), 0, options, non_zero(2))
        .expect("registered");
    vector.async_reset(Mode::Training).expect("reset");
    vector.recv().expect("two resets");
    let idle = vector.env_ids().to_vec();
    let busy: Vec<usize> = (0..4).filter(|id| !idle.contains(id)).collect();
    // EnvPool leaves resetting an environment in flight undefined: refused.
    assert_eq!(
        vector.send_reset(&[idle[0], busy[0]]),
        Err(VectorError::AlreadySent { env_id: busy[0] })
    );
    assert_eq!(
        vector.send_reset(&[idle[0], idle[0]]),
        Err(VectorError::AlreadySent { env_id: idle[0] })
    );
    assert_eq!(
        vector.send_reset(&[4]),
        Err(VectorError::EnvIdOutOfRange { env_id: 4, len: 4 })
    );
    assert_eq!(vector.in_flight(), 2, "nothing was sent");
    // EnvPool's reset(env_id) in asynchronous mode: the next batch_size results, whichever
    // environments they are (here the two resets still in flight come first or not).
    vector.reset(&idle).expect("a reset of the two received");
    assert_eq!(vector.env_ids().len(), 2);
    assert_eq!(vector.elapsed_steps(), &[0, 0]);
    vector.recv().expect("the two others");
    assert_eq!(vector.in_flight(), 0);
    // One reset would leave a recv of two waiting forever: refused before it is sent.
    assert!(matches!(
        vector.reset(&[0]),
        Err(VectorError::NotEnoughInFlight {
            batch_size: 2,
            in_flight: 1
        })
    ));
    assert!(matches!(
        vector.step(&[RIGHT], &[0]),
        Err(VectorError::NotEnoughInFlight {
            batch_size: 2,
            in_flight: 1
        })
    ));
    assert_eq!(vector.in_flight(), 0, "nothing was sent");
}

#[test]
fn a_seed_of_any_size_reseeds_as_the_synchronous_vector_does() {
    let id = corridor_id();
    let seed = Seed::from_words(&[7, 0, 0, 1]); // 2^96 + 7
    let mut sync = make_vector::<i64, f32>(id, None, non_zero(4), 0, VectorOptions::new())
        .expect("registered");
    let options = VectorOptions::new().with_threads(non_zero(2));
    let mut vector = make_async_vector::<i64, f32>(id, None, non_zero(4), 0, options, non_zero(4))
        .expect("registered");
    sync.seed_from(&seed).expect("any seed");
    vector.seed_from(&seed).expect("any seed");
    let synchronous = sync_trajectories!(sync, 30, 2, never);
    let run = async_trajectories(&mut vector, 30, 2, never);
    assert_prefixes(&run.records, &synchronous, 30);
    // The seed matters: the vector seeded with 7 goes elsewhere.
    let mut other = make_vector::<i64, f32>(id, None, non_zero(4), 7, VectorOptions::new())
        .expect("registered");
    assert_ne!(sync_trajectories!(other, 30, 2, never), synchronous);
}
