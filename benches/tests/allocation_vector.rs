//! Vector environments of rl-domains' batch kernels (CartPole, MountainCar and the
//! fast-precision CartPole, and every kernel id built by id with `make_vector`, and with
//! integer actions with `make_vector::<i64, f32>`), and vectors by id of domains without a
//! kernel, stepped state by state with their infos (MountainCarContinuous, Acrobot, Pendulum,
//! GridWorld, FrozenLake and Taxi, whose `prob` info is inline, and MiniGrid's DoorKey,
//! FourRooms and Dynamic-Obstacles, whose states own their grids: stepped, observed and
//! restarted in place),
//! allocate nothing per step after warm-up, on one and two threads, with next-step and
//! same-step autoreset; nor does the Python package's path for MiniGrid's pictures: the stack
//! over a vector by id with `u8` rows (`image="rgb_partial"`, Empty-5x5 crossing episode ends
//! and DoorKey-8x8, the benchmark's id); nor
//! do Gymnasium's MuJoCo ids by id (where the library is found), whose actions are arrays and
//! whose infos have several entries, nor such infos themselves. The
//! counter is global (it must see the worker thread), so this test runs without the test
//! harness, alone in its process. (It lives in rl-benches, which depends on both rl-domains and rl-wrappers,
//! so that rl-domains needs no rl-wrappers, not even for its tests.)

use counting_allocator::process_allocations as allocations;
use rl_spaces::AnyElement;

use std::num::NonZeroUsize;

use rl_core::{BatchStep, Mode};
use rl_domains::cartpole::{CartPole, CartPoleParams};
use rl_domains::cartpole_fast::FastCartPole;
use rl_domains::mountain_car::{MountainCar, MountainCarParams};
use rl_spaces::RowLayout;
use rl_wrappers::vector::{Autoreset, KernelVector, VectorEnv, VectorOptions, make_vector, stack};

/// Resets `vector`, steps it for a warm-up, then 300 steps with the rows of actions in turn;
/// returns the allocations of the 300 and the number of episode ends seen.
fn measure<V: VectorEnv>(vector: &mut V, rows: &[Vec<V::Action>]) -> (usize, usize) {
    measure_after(vector, rows, 50)
}

/// [`measure`] after a warm-up of `warm_up` steps.
fn measure_after<V: VectorEnv>(
    vector: &mut V,
    rows: &[Vec<V::Action>],
    warm_up: usize,
) -> (usize, usize) {
    vector.reset(Mode::Training).expect("reset");
    for i in 0..warm_up {
        vector.step(&rows[i % rows.len()]).expect("step");
    }
    let before = allocations();
    let mut ended = 0;
    for i in 0..300 {
        vector.step(&rows[i % rows.len()]).expect("step");
        ended += vector
            .terminated()
            .iter()
            .zip(vector.truncated())
            .filter(|(t, u)| **t || **u)
            .count();
    }
    (allocations() - before, ended)
}

/// Steps a kernel vector environment of `domain` for a warm-up, then 300 steps with actions
/// from `action`; returns the allocations of the 300 and the number of episode ends seen.
fn allocations_per_run<D>(
    domain: D,
    envs: usize,
    options: VectorOptions,
    action: impl Fn(usize) -> D::Action,
) -> (usize, usize)
where
    D: BatchStep + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ObservationSpace: rl_spaces::FlattenSpace,
{
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let mut vector = KernelVector::<_, f32>::from_kernel(domain, count, 3, options).expect("valid");
    let rows: Vec<Vec<D::Action>> = (0..7)
        .map(|k| (0..envs).map(|i| action(i * 7 + k)).collect())
        .collect();
    measure(&mut vector, &rows)
}

/// As [`allocations_per_run`], for the vector that `make_vector` builds from `id` (its
/// kernel, or its domain's step state by state: actions are `AnyElement`s, converted into the
/// domain's actions in a buffer kept between steps), with actions drawn from the id's action
/// space.
fn allocations_by_id(id: &str, envs: usize, options: VectorOptions) -> (usize, usize) {
    use rand::SeedableRng;
    use rl_spaces::TrySampleSpace;
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let mut vector = make_vector::<AnyElement, f32>(id, None, count, 3, options).expect("valid");
    let mut rng = rl_core::NumpyGenerator::seed_from_u64(5);
    let rows: Vec<Vec<rl_spaces::AnyElement>> = (0..7)
        .map(|_| {
            (0..envs)
                .map(|_| {
                    vector
                        .action_space()
                        .try_sample(&mut rng)
                        .expect("not empty")
                })
                .collect()
        })
        .collect();
    measure(&mut vector, &rows)
}

/// As [`allocations_by_id`], for the vector with integer actions that
/// `make_vector::<i64, f32>` builds from `id` (a `Discrete` action space), with the actions
/// `i % n` of a space of `n` actions.
fn allocations_by_id_with_integers(
    id: &str,
    envs: usize,
    options: VectorOptions,
) -> (usize, usize) {
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let mut vector = make_vector::<i64, f32>(id, None, count, 3, options).expect("valid");
    let n = vector.action_space().n() as i64;
    let rows: Vec<Vec<i64>> = (0..7)
        .map(|row| (0..envs).map(|i| (i as i64 + row) % n).collect())
        .collect();
    measure(&mut vector, &rows)
}

/// As [`allocations_by_id_with_integers`], for the Python package's path for MiniGrid's
/// pictures: the stack over the vector with `u8` rows in the batched layout that
/// `make_vector::<i64, u8>` builds from `id` with `params`.
fn u8_allocations(
    id: &str,
    params: &serde_json::Value,
    envs: usize,
    options: VectorOptions,
) -> (usize, usize) {
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let options = options.with_layout(RowLayout::Batched);
    let mut vector =
        stack(make_vector::<i64, u8>(id, Some(params), count, 3, options).expect("a u8 vector"))
            .expect("stacked");
    let n = vector.action_space().n() as i64;
    let rows: Vec<Vec<i64>> = (0..7)
        .map(|row| (0..envs).map(|i| (i as i64 + row) % n).collect())
        .collect();
    measure(&mut vector, &rows)
}

/// As [`allocations_by_id_with_integers`], for an id with a Box action space and float64
/// rows (Gymnasium's MuJoCo ids, as the Python package steps them): each action a float32
/// array inside the bounds, converted into the last step's action at every step. The infos'
/// memory is reused once every environment has ended an episode (with same-step autoreset
/// each then keeps a final info too), so the warm-up is long: 400 steps.
fn allocations_by_id_with_box_actions(
    id: &str,
    envs: usize,
    options: VectorOptions,
) -> (usize, usize) {
    let count = NonZeroUsize::new(envs).expect("non-zero");
    let mut vector = make_vector::<AnyElement, f64>(id, None, count, 3, options).expect("valid");
    let rl_spaces::AnySpace::Box(space) = vector.action_space() else {
        panic!("{id} has a Box action space");
    };
    let shape = space.shape().to_vec();
    let rows: Vec<Vec<AnyElement>> = (0..7)
        .map(|row| {
            (0..envs)
                .map(|i| {
                    let value = ((i + row) % 5) as f32 * 0.1 - 0.2;
                    AnyElement::from(ndarray::ArrayD::from_elem(shape.clone(), value))
                })
                .collect()
        })
        .collect();
    measure_after(&mut vector, &rows, 400)
}

/// The MuJoCo library as rl-mujoco's tests find it (`RL_MUJOCO_LIBRARY`, else the Python
/// package's test venv, else `python3`), or `None` after saying why.
fn mujoco_or_skip() -> Option<&'static rl_mujoco::library::Library> {
    use rl_mujoco::library;
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match library::load(library::workspace_source(&workspace)) {
        Ok(library) => Some(library),
        Err(error) => {
            println!("skipping the MuJoCo ids: {error}");
            None
        }
    }
}

/// Infos of several entries under string literals (MuJoCo's reward terms and positions, and a
/// list of two floats as Humanoid's tendons), one per step, each replacing the last: once a
/// few infos were dropped, their lists are reused and a step's info allocates nothing, however
/// many entries it has (issue 44: a second scalar entry used to allocate a map at every step,
/// a list of floats its JSON array); a key is never copied, and one made at run time (a
/// `String`) is the one allocation it costs. Returns the failures.
fn info_failures() -> Vec<String> {
    let keys = [
        "x_position",
        "x_velocity",
        "z_distance_from_origin",
        "reward_forward",
        "reward_ctrl",
        "reward_survive",
        "reward_contact",
        "y_position",
        "y_velocity",
    ];
    let step_info = |step: usize, entries: usize| {
        let mut info = rl_core::Info::new();
        info.insert_static("prob", 1.0); // inline, beside the list
        for (i, key) in keys.iter().take(entries).enumerate() {
            info.insert(*key, (step * i) as f64);
        }
        let tendons = [step as f64, 0.5];
        info.insert("tendon_length", &tendons[..]);
        assert_eq!(info.len(), entries + 2);
        std::hint::black_box(info)
    };
    let mut failures = Vec::new();
    // The first infos make the lists the later ones reuse.
    let first = allocations();
    let warm: Vec<rl_core::Info> = (0..4).map(|step| step_info(step, keys.len())).collect();
    if allocations() == first {
        failures.push("the first infos' lists were not counted".to_owned());
    }
    drop(warm);
    for entries in [1, 2, keys.len()] {
        let before = allocations();
        let mut last = step_info(0, entries);
        for step in 1..1000 {
            last = step_info(step, entries);
        }
        drop(last);
        let allocated = allocations() - before;
        println!(
            "infos of {entries} literal keys, a list of two floats and an inline one: \
             {allocated} allocations in 1000"
        );
        if allocated != 0 {
            failures.push(format!(
                "infos of {entries} literal keys allocated {allocated} times"
            ));
        }
    }
    let before = allocations();
    let mut info = rl_core::Info::new();
    info.insert(String::from("made"), 1.0);
    info.insert("literal", 2.0);
    let allocated = allocations() - before;
    let keys: Vec<&str> = info.iter().map(|(key, _)| key).collect();
    if allocated != 1 || keys != ["literal", "made"] {
        failures.push(format!(
            "a key made at run time: {allocated} allocations (1 expected), keys {keys:?}"
        ));
    }
    failures
}

/// The number of environments of the larger vectors.
const MANY: usize = 128;

fn main() {
    rl_domains::register_builtins();
    rl_object_grid::register();
    let mujoco = mujoco_or_skip().is_some();
    rl_mujoco::register();
    let mut failures = info_failures();
    let mut check = |name: &str, (allocated, ended): (usize, usize)| {
        println!("{name}: {allocated} allocations in 300 steps, {ended} episode ends");

        if allocated != 0 {
            failures.push(format!("{name} allocated {allocated} times"));
        }
    };
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        // 128 environments on two threads are cut into the same kind of chunks as 1024 (several
        // environments each, more chunks than threads) and cross hundreds of episode ends in
        // the 300 steps; 1024 took this debug-built test 2.5 minutes of CI's time. One thread
        // steps its one chunk on the calling thread whatever the count, so one environment
        // covers that path (128 on one thread took another 9 s of CI's time).
        for (envs, threads) in [(1, 1), (MANY, 2)] {
            let threads_count = NonZeroUsize::new(threads).expect("non-zero");
            let options = VectorOptions::new()
                .with_autoreset(autoreset)
                .with_threads(threads_count);
            let label =
                |domain: &str| format!("{domain}, {envs} envs, {threads} threads, {autoreset:?}");
            let cartpole = CartPole::new(CartPoleParams::default()).expect("valid");
            check(
                &label("CartPole"),
                allocations_per_run(cartpole, envs, options, |i| (i % 2) as i64),
            );
            let fast = FastCartPole::new(CartPoleParams::default()).expect("valid");
            check(
                &label("FastCartPole"),
                allocations_per_run(fast, envs, options, |i| (i % 2) as i64),
            );
            let car = MountainCar::new(MountainCarParams::default()).expect("valid");
            check(
                &label("MountainCar"),
                allocations_per_run(car, envs, options, |i| (i % 3) as i64),
            );
            // The kernel ids (CartPole, MountainCar), then ids without a kernel (their
            // domain's step serves, with FrozenLake's and Taxi's `prob` info).
            for id in [
                "CartPole-v1",
                "MountainCar-v0",
                "MountainCarContinuous-v0",
                "Acrobot-v1",
                "Pendulum-v1",
                "GridWorld-4x5",
                "FrozenLake-v1",
                "Taxi-v4",
                "MiniGrid-DoorKey-8x8-v0",
                "MiniGrid-FourRooms-v0",
                "MiniGrid-Dynamic-Obstacles-8x8-v0",
            ] {
                check(
                    &label(&format!("{id} by id")),
                    allocations_by_id(id, envs, options),
                );
            }
            for id in [
                "CartPole-v1",
                "MountainCar-v0",
                "Acrobot-v1",
                "GridWorld-4x5",
                "FrozenLake-v1",
                "Taxi-v4",
                "MiniGrid-DoorKey-8x8-v0",
                "MiniGrid-FourRooms-v0",
                "MiniGrid-Dynamic-Obstacles-8x8-v0",
            ] {
                check(
                    &label(&format!("{id} by id, integer actions")),
                    allocations_by_id_with_integers(id, envs, options),
                );
            }
            // MuJoCo's ids: their actions are arrays, their infos several float entries
            // (Humanoid's also two lists of two floats, the tendons). Fewer environments, for
            // the test profile's time.
            if mujoco {
                let envs = envs.min(8);
                for id in ["Hopper-v5", "InvertedDoublePendulum-v5", "Humanoid-v5"] {
                    check(
                        &format!("{id} by id, {envs} envs, {threads} threads, {autoreset:?}"),
                        allocations_by_id_with_box_actions(id, envs, options),
                    );
                }
            }
            // Pictures in u8 rows; fewer environments (the test profile draws
            // slowly), Empty-5x5's episodes truncated at 100 steps.
            let pictures = serde_json::json!({"image": "rgb_partial"});
            let envs = envs.min(16);
            let label =
                |domain: &str| format!("{domain}, {envs} envs, {threads} threads, {autoreset:?}");
            let (allocated, ended) =
                u8_allocations("MiniGrid-Empty-5x5-v0", &pictures, envs, options);
            assert!(ended >= envs, "the loop crosses episode ends ({ended})");
            check(
                &label("MiniGrid-Empty-5x5-v0 rgb_partial, u8 rows"),
                (allocated, ended),
            );
            check(
                &label("MiniGrid-DoorKey-8x8-v0 rgb_partial, u8 rows"),
                u8_allocations("MiniGrid-DoorKey-8x8-v0", &pictures, envs, options),
            );
        }
    }
    if !failures.is_empty() {
        eprintln!("stepping a vector environment allocated: {failures:?}");
        std::process::exit(1);
    }
    println!(
        "test result: ok. vector stepping of every batch kernel, and by id of domains without \
         one, allocates nothing per step"
    );
}
