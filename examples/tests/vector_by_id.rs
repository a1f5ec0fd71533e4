//! Vectors built by id (`make_vector`) of the built-in domains: the structure-of-arrays kernel
//! where the registration declares one, the domain's step state by state otherwise, and either
//! way bit for bit the typed vector (of the typed domain's kernel, or of copies of its
//! simulator) and the vector of copies of the id's environment, on one to three threads, in
//! all three autoreset modes, across episode ends.
//! For every registered id, the vectors by id equal copies of its environment stepped by hand,
//! infos, final infos and action masks included. The vectors with integer actions
//! (`make_vector::<i64, f32>`) equal them for every id with a `Discrete` action space and refuse
//! the others. Action masks by id equal the environments' own masks.
//!
//! The tests over every id take a slice in a normal run (two GridWorld maps, ten MiniGrid ids,
//! three BabyAI levels) and every id with `RLRS_TEST_EVERY_ID=1`, as the Python tests do (the
//! full run before a release; all 76 MiniGrid ids and 96 BabyAI levels take minutes in a debug
//! build, so it runs in release):
//!
//! ```text
//! RLRS_TEST_EVERY_ID=1 cargo test --release -p rl-examples --test vector_by_id every_id
//! ```

use std::num::NonZeroUsize;

use ndarray::Array2;
use rand::SeedableRng;
use rl_core::NumpyGenerator;
use rl_core::registry;
use rl_core::{Domain, Environment, Mode, Simulator};
use rl_domains::{Acrobot, CartPole, MountainCar, MountainCarContinuous, Pendulum};
use rl_spaces::{AnyElement, Columns, DynamicSpace, FlattenSpace, RowLayout, TrySampleSpace};
use rl_wrappers::vector::{
    Autoreset, EnvironmentVector, KernelVector, RegisteredVector, VectorEnvironment, VectorOptions,
    make_vector,
};
use serde_json::json;

const COUNT: usize = 7;
const SEED: u64 = 2026;

fn count() -> NonZeroUsize {
    NonZeroUsize::new(COUNT).expect("non-zero")
}

fn options(threads: usize, autoreset: Autoreset) -> VectorOptions {
    VectorOptions::new()
        .with_threads(NonZeroUsize::new(threads).expect("non-zero"))
        .with_autoreset(autoreset)
}

/// Asserts that two vectors hold the same results, bit for bit.
fn assert_same<A, B>(a: &A, b: &B, context: &str)
where
    A: rl_wrappers::vector::VectorEnv<Scalar = f32>,
    B: rl_wrappers::vector::VectorEnv<Scalar = f32>,
{
    let bits = |array: &Array2<f32>| array.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    assert_eq!(bits(a.observations()), bits(b.observations()), "{context}");
    let reward_bits = |r: &[f64]| r.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();
    assert_eq!(
        reward_bits(a.rewards()),
        reward_bits(b.rewards()),
        "{context}"
    );
    assert_eq!(a.terminated(), b.terminated(), "{context}");
    assert_eq!(a.truncated(), b.truncated(), "{context}");
    assert_eq!(a.final_mask(), b.final_mask(), "{context}");
    // Only the marked rows of the final observations are meaningful.
    for (row, marked) in a.final_mask().iter().enumerate() {
        if *marked {
            assert_eq!(
                bits(
                    &a.final_observations()
                        .row(row)
                        .to_owned()
                        .insert_axis(ndarray::Axis(0))
                ),
                bits(
                    &b.final_observations()
                        .row(row)
                        .to_owned()
                        .insert_axis(ndarray::Axis(0))
                ),
                "{context}: final observation {row}"
            );
        }
    }
}

/// Steps the vector by id, the typed vector `typed` builds of the id's domain and the vector of
/// copies of the id's environment with the same random actions, and compares them after every
/// call; the vector by id reports infos unless the id has a kernel (the built-in kernels'
/// domains report none, so their kernels write none). Returns how many episodes ended.
fn compare<D, S>(
    id: &str,
    params: Option<&serde_json::Value>,
    steps: usize,
    kernel: bool,
    typed: impl Fn(D, VectorOptions) -> VectorEnvironment<S, f32>,
) -> usize
where
    D: Domain + Clone + 'static,
    D::ActionSpace: DynamicSpace,
    S: rl_core::SplitStates<f32, Action = D::Action>,
{
    rl_domains::register_builtins();
    let built = registry::build(id, params).expect("builds");
    let domain: D = built
        .as_any()
        .downcast_ref::<D>()
        .expect("the id builds this type")
        .clone();
    let mut ended = 0;
    for threads in 1..=3 {
        for autoreset in [
            Autoreset::NextStep,
            Autoreset::SameStep,
            Autoreset::Disabled,
        ] {
            let options = options(threads, autoreset);
            let context = format!("{id}, {threads} threads, {autoreset:?}");
            let mut by_id: RegisteredVector =
                make_vector::<AnyElement, f32>(id, params, count(), SEED, options).expect("by id");
            assert_eq!(
                by_id.reports_infos(),
                !kernel,
                "{context}: the built-in kernels write no infos, a domain's steps do"
            );
            // Integer actions where the action space is Discrete; an error naming the id
            // otherwise.
            let mut integers: Option<RegisteredVector<i64>> =
                match make_vector::<i64, f32>(id, params, count(), SEED, options) {
                    Ok(vector) => {
                        assert!(
                            matches!(by_id.action_space(), rl_spaces::AnySpace::Discrete(_)),
                            "{context}"
                        );
                        assert_eq!(vector.reports_infos(), !kernel, "{context}");
                        Some(vector)
                    }
                    Err(error) => {
                        assert!(
                            !matches!(by_id.action_space(), rl_spaces::AnySpace::Discrete(_)),
                            "{context}: {error}"
                        );
                        let text = error.to_string();
                        assert!(text.contains(id) && text.contains("Discrete"), "{text}");
                        None
                    }
                };
            let mut typed = typed(domain.clone(), options);
            let mut copies =
                EnvironmentVector::<_, f32>::from_environments(count(), SEED, options, |_| {
                    built.environment(0)
                })
                .expect("copies");
            by_id.reset(Mode::Training).expect("reset");
            typed.reset(Mode::Training).expect("reset");
            copies.reset(Mode::Training).expect("reset");
            assert_same(&by_id, &typed, &context);
            assert_same(&by_id, &copies, &context);
            if let Some(integers) = &mut integers {
                integers.reset(Mode::Training).expect("reset");
                assert_same(&by_id, integers, &context);
            }
            let mut rng = NumpyGenerator::seed_from_u64(threads as u64);
            let any_space = by_id.action_space().clone();
            for step in 0..steps {
                let any: Vec<AnyElement> = (0..COUNT)
                    .map(|_| any_space.try_sample(&mut rng).expect("not empty"))
                    .collect();
                let actions: Vec<D::Action> = any
                    .iter()
                    .map(|a| {
                        domain
                            .action_space()
                            .element_from_any(a)
                            .expect("in the space")
                    })
                    .collect();
                by_id.step(&any).expect("a step by id");
                typed.step(&actions).expect("a typed step");
                copies.step(&any).expect("a step of the copies");
                let context = format!("{context}, step {step}");
                assert_same(&by_id, &typed, &context);
                assert_same(&by_id, &copies, &context);
                if let Some(integers) = &mut integers {
                    let ints: Vec<i64> = any.iter().map(|a| a.as_int().expect("an int")).collect();
                    integers.step(&ints).expect("a step with integers");
                    assert_same(&by_id, integers, &context);
                }
                let ends = by_id
                    .terminated()
                    .iter()
                    .zip(by_id.truncated())
                    .filter(|(t, u)| **t || **u)
                    .count();
                ended += ends;
                if autoreset == Autoreset::Disabled && ends > 0 {
                    by_id.reset_ended().expect("reset ended");
                    typed.reset_ended().expect("reset ended");
                    copies.reset_ended().expect("reset ended");
                    assert_same(&by_id, &typed, &context);
                    assert_same(&by_id, &copies, &context);
                    if let Some(integers) = &mut integers {
                        integers.reset_ended().expect("reset ended");
                        assert_same(&by_id, integers, &context);
                    }
                }
            }
        }
    }
    ended
}

// Short episodes (a small cap or an easy goal) so that the comparison crosses episode ends
// and autoresets within a few hundred steps.

/// The typed vector of a domain's kernel.
fn typed_kernel<D>(domain: D, options: VectorOptions) -> KernelVector<D, f32>
where
    D: rl_core::BatchStep + Send + Sync + 'static,
    D::State: Send + 'static,
    D::Action: Send + Sync + 'static,
    D::ObservationSpace: FlattenSpace,
{
    KernelVector::from_kernel(domain, count(), SEED, options).expect("typed")
}

/// The typed vector of copies of a domain's simulator.
fn typed_copies<D>(domain: D, options: VectorOptions) -> EnvironmentVector<Simulator<D>, f32>
where
    D: Domain + Clone + Send + 'static,
    D::State: Send,
    D::Action: Send + Sync,
    D::ActionSpace: Clone + PartialEq + Send,
    D::ObservationSpace: FlattenSpace,
{
    EnvironmentVector::from_environments(count(), SEED, options, |_| {
        Simulator::new(domain.clone(), 0)
    })
    .expect("typed copies")
}

#[test]
fn cartpole_by_id_is_the_typed_kernel() {
    assert!(compare::<CartPole, _>("CartPole-v1", None, 120, true, typed_kernel) > 0);
}

#[test]
fn mountain_car_by_id_is_the_typed_kernel() {
    let params = json!({"max_episode_steps": 30});
    assert!(compare::<MountainCar, _>("MountainCar-v0", Some(&params), 70, true, typed_kernel) > 0);
}

#[test]
fn mountain_car_continuous_by_id_is_the_typed_domain() {
    let params = json!({"max_episode_steps": 25});
    let id = "MountainCarContinuous-v0";
    assert!(compare::<MountainCarContinuous, _>(id, Some(&params), 60, false, typed_copies) > 0);
}

#[test]
fn acrobot_by_id_is_the_typed_domain() {
    let params = json!({"max_episode_steps": 20});
    assert!(compare::<Acrobot, _>("Acrobot-v1", Some(&params), 50, false, typed_copies) > 0);
}

#[test]
fn pendulum_by_id_is_the_typed_domain() {
    let params = json!({"max_episode_steps": 15});
    assert!(compare::<Pendulum, _>("Pendulum-v1", Some(&params), 40, false, typed_copies) > 0);
}

#[test]
fn gridworld_by_id_steps_its_domain_and_its_masks_are_the_environments() {
    rl_domains::register_builtins();
    let id = "GridWorld-4x5";
    for threads in 1..=3 {
        let mut vector = make_vector::<AnyElement, f32>(
            id,
            None,
            count(),
            SEED,
            options(threads, Autoreset::NextStep),
        )
        .expect("by id");
        assert!(
            vector.reports_infos(),
            "GridWorld has no kernel: its step serves"
        );
        vector.reset(Mode::Training).expect("reset");
        let mut masks = Array2::from_elem((COUNT, 4), false);
        vector.action_masks(&mut masks).expect("masks");
        // Integer actions: the same results and masks.
        let mut integers = make_vector::<i64, f32>(
            id,
            None,
            count(),
            SEED,
            options(threads, Autoreset::NextStep),
        )
        .expect("integers by id");
        assert!(integers.reports_infos(), "GridWorld has no kernel");
        integers.reset(Mode::Training).expect("reset");
        let mut integer_masks = Array2::from_elem((COUNT, 4), true);
        integers
            .action_masks(&mut integer_masks)
            .expect("masks with integers");
        assert_eq!(masks, integer_masks, "{threads} threads");
        let mut rng = NumpyGenerator::seed_from_u64(5);
        for step in 0..200 {
            let ints: Vec<i64> = (0..COUNT)
                .map(|_| rand::RngExt::random_range(&mut rng, 0..4))
                .collect();
            let any: Vec<AnyElement> = ints.iter().map(|a| AnyElement::Int(*a)).collect();
            vector.step(&any).expect("a step");
            integers.step(&ints).expect("a step with integers");
            assert_same(
                &vector,
                &integers,
                &format!("{threads} threads, step {step}"),
            );
        }
        vector.reset(Mode::Training).expect("reset");
        let built = registry::build(id, None).expect("builds");
        for i in 0..COUNT {
            let mut environment = built.environment(0);
            environment.seed(SEED + i as u64);
            environment.reset(Mode::Training).expect("reset");
            let mut own = [false; 4];
            environment.action_mask(&mut own).expect("a mask");
            assert_eq!(masks.row(i).to_vec(), own.to_vec(), "environment {i}");
        }
    }
}

#[test]
fn kernel_masks_by_id_equal_the_copies_masks() {
    rl_domains::register_builtins();
    for id in ["CartPole-v1", "MountainCar-v0", "Acrobot-v1"] {
        let built = registry::build(id, None).expect("builds");
        let mut by_id = make_vector::<AnyElement, f32>(
            id,
            None,
            count(),
            SEED,
            options(2, Autoreset::NextStep),
        )
        .expect("by id");
        let mut copies = EnvironmentVector::<_, f32>::from_environments(
            count(),
            SEED,
            options(2, Autoreset::NextStep),
            |_| built.environment(0),
        )
        .expect("copies");
        by_id.reset(Mode::Training).expect("reset");
        copies.reset(Mode::Training).expect("reset");
        let actions = by_id.action_space().to_string();
        let n = match by_id.action_space() {
            rl_spaces::AnySpace::Discrete(d) => d.n() as usize,
            other => panic!("{id} has discrete actions, not {other}"),
        };
        let (mut a, mut b) = (
            Array2::from_elem((COUNT, n), false),
            Array2::from_elem((COUNT, n), true),
        );
        by_id.action_masks(&mut a).expect("masks by id");
        copies.action_masks(&mut b).expect("masks of the copies");
        assert_eq!(a, b, "{id} ({actions})");
        assert!(
            a.iter().all(|allowed| *allowed),
            "{id}: every action applies"
        );
    }
}

#[test]
fn a_wrong_action_by_id_is_an_error_before_anything_steps() {
    rl_domains::register_builtins();
    let mut vector = make_vector::<AnyElement, f32>(
        "CartPole-v1",
        None,
        count(),
        SEED,
        options(2, Autoreset::NextStep),
    )
    .expect("by id");
    vector.reset(Mode::Training).expect("reset");
    let before = vector.observations().clone();
    let mut actions = vec![AnyElement::Int(0); COUNT];
    actions[5] = AnyElement::Int(2);
    let error = vector.step(&actions).expect_err("2 is not in Discrete(2)");
    let text = error.to_string();
    assert!(text.contains('5') && text.contains("Discrete(2)"), "{text}");
    assert_eq!(vector.observations(), &before, "nothing stepped");
}

#[test]
fn a_wrong_integer_action_is_an_error_before_anything_steps() {
    rl_domains::register_builtins();
    for id in ["CartPole-v1", "GridWorld-4x5"] {
        let mut vector =
            make_vector::<i64, f32>(id, None, count(), SEED, options(2, Autoreset::NextStep))
                .expect("integers by id");
        vector.reset(Mode::Training).expect("reset");
        let before = vector.observations().clone();
        let mut actions = vec![0; COUNT];
        actions[6] = -1;
        let text = vector
            .step(&actions)
            .expect_err("-1 is in no action space here")
            .to_string();
        assert!(
            text.contains('6') && text.contains("Discrete"),
            "{id}: {text}"
        );
        let text = vector
            .step(&[0; COUNT - 1])
            .expect_err("one action short")
            .to_string();
        assert!(text.contains(&COUNT.to_string()), "{id}: {text}");
        assert_eq!(vector.observations(), &before, "{id}: nothing stepped");
    }
}

/// One environment of the id stepped by hand as a vector steps it, with the autoreset rule
/// written out here: its expected row of every output after each call.
struct ByHand {
    environment: rl_core::BoxedEnvironment,
    /// Next-step autoreset: whether the episode ended on the last call (reset on the next).
    pending: bool,
    observation: Vec<f32>,
    reward: f64,
    terminated: bool,
    truncated: bool,
    info: rl_core::Info,
    final_observation: Option<(Vec<f32>, rl_core::Info)>,
}

impl ByHand {
    fn new(built: &dyn registry::RegisteredDomain, seed: u64) -> Self {
        let mut environment = built.environment(0);
        environment.seed(seed);
        ByHand {
            environment,
            pending: false,
            observation: Vec::new(),
            reward: 0.0,
            terminated: false,
            truncated: false,
            info: rl_core::Info::new(),
            final_observation: None,
        }
    }

    fn flat(&self, observation: &AnyElement) -> Vec<f32> {
        self.environment
            .observation_space()
            .flatten::<f32>(observation)
            .expect("flattens")
    }

    /// A reset: the first observation, reward 0, no flag, the reset's info (Gymnasium's
    /// `{"prob": 1}` for the toy text, `Environment::reset_info`).
    fn reset(&mut self) {
        let first = self.environment.reset(Mode::Training).expect("reset");
        self.observation = self.flat(&first);
        (self.reward, self.terminated, self.truncated) = (0.0, false, false);
        self.info = self.environment.reset_info();
        self.pending = false;
    }

    fn step(&mut self, action: &AnyElement, autoreset: Autoreset) {
        self.final_observation = None;
        if self.pending {
            assert_eq!(autoreset, Autoreset::NextStep);
            self.reset();
            return;
        }
        let outcome = self.environment.step(action).expect("a step");
        let observation = self.flat(&outcome.observation);
        let done = outcome.is_done();
        (self.reward, self.terminated, self.truncated) =
            (outcome.reward(), outcome.terminated, outcome.truncated);
        if done && autoreset == Autoreset::SameStep {
            self.final_observation = Some((observation, outcome.info));
            let first = self.environment.reset(Mode::Training).expect("reset");
            self.observation = self.flat(&first);
            self.info = self.environment.reset_info();
        } else {
            self.observation = observation;
            self.info = outcome.info;
            self.pending = done;
        }
    }
}

/// Asserts that `vector` holds what the environments stepped by hand hold: observations,
/// reward bits, flags, infos, final observations and final infos (same-step autoreset), and
/// the action masks of a finite action space.
fn assert_by_hand<A: rl_core::ErasedAction>(
    vector: &RegisteredVector<A>,
    by_hand: &[ByHand],
    context: &str,
) {
    for (i, expected) in by_hand.iter().enumerate() {
        let row = vector.observations().row(i).to_vec();
        let bits = |values: &[f32]| values.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
        assert_eq!(
            bits(&row),
            bits(&expected.observation),
            "{context}: observation {i}"
        );
        assert_eq!(
            vector.rewards()[i].to_bits(),
            expected.reward.to_bits(),
            "{context}: reward {i}"
        );
        assert_eq!(
            (vector.terminated()[i], vector.truncated()[i]),
            (expected.terminated, expected.truncated),
            "{context}: flags {i}"
        );
        assert_eq!(vector.infos()[i], expected.info, "{context}: info {i}");
        assert_eq!(
            vector.final_mask()[i],
            expected.final_observation.is_some(),
            "{context}: final mask {i}"
        );
        if let Some((observation, info)) = &expected.final_observation {
            let row = vector.final_observations().row(i).to_vec();
            assert_eq!(
                bits(&row),
                bits(observation),
                "{context}: final observation {i}"
            );
            assert_eq!(&vector.final_infos()[i], info, "{context}: final info {i}");
        }
    }
}

/// Asserts that the action masks of `vector` are those of the environments stepped by hand
/// (for a finite action space).
fn assert_masks<A: rl_core::ErasedAction>(
    vector: &RegisteredVector<A>,
    by_hand: &[ByHand],
    actions: usize,
    context: &str,
) where
    A::Space: rl_spaces::FiniteSpace,
{
    let mut masks = Array2::from_elem((by_hand.len(), actions), false);
    vector.action_masks(&mut masks).expect("masks");
    for (i, expected) in by_hand.iter().enumerate() {
        let mut own = vec![false; actions];
        expected.environment.action_mask(&mut own).expect("a mask");
        assert_eq!(masks.row(i).to_vec(), own, "{context}: mask {i}");
    }
}

/// The MiniGrid ids compared with their environments stepped by hand (all 76 would take
/// minutes in a debug build): one of each family of rules (plain, Unlock, marked pick-up,
/// Dynamic-Obstacles' draws and penalty, Memory, Fetch, GoTo, PutNear, RedBlueDoors), with
/// episodes ending by the goal, by lava and by the cap, missions that change every episode,
/// and views with and without visibility propagation (see-through walls).
const MINIGRID_IDS: [&str; 10] = [
    "MiniGrid-DoorKey-5x5-v0",
    "MiniGrid-FourRooms-v0",
    "MiniGrid-Unlock-v0",
    "MiniGrid-KeyCorridorS3R1-v0",
    "MiniGrid-Dynamic-Obstacles-5x5-v0",
    "MiniGrid-MemoryS7-v0",
    "MiniGrid-Fetch-5x5-N2-v0",
    "MiniGrid-GoToDoor-5x5-v0",
    "MiniGrid-PutNear-6x6-N2-v0",
    "MiniGrid-LavaGapS5-v0",
];

/// The BabyAI ids the every-id tests step (all 96 would take long): a time limit per
/// instruction short enough to truncate within the test's steps (GoToObjS4's 16), a start
/// carrying an object (applied before the first step) and the random grammar.
const BABYAI_IDS: [&str; 3] = [
    "BabyAI-GoToObjS4-v0",
    "BabyAI-PutNextS5N2Carrying-v0",
    "BabyAI-BossLevel-v0",
];

/// The GridWorld maps the every-id tests step in a normal run (all 14 share one domain and
/// differ in their maps, whose cells rl-domains' own tests check): one with pits, whose
/// episodes end there, and the smallest, whose episodes end within a few steps.
const GRIDWORLD_IDS: [&str; 2] = ["GridWorld-4x5", "GridWorld-1x2"];

/// Whether the tests over every id take every registered id (`RLRS_TEST_EVERY_ID=1`, the
/// variable the Python tests read) rather than the slice.
fn every_id() -> bool {
    std::env::var_os("RLRS_TEST_EVERY_ID").is_some_and(|value| value == "1")
}

/// Whether the every-id tests leave `id` out: the MuJoCo ids, which need the MuJoCo library at
/// run time (this test does not load it) and whose vectors by id are rl-mujoco's own
/// `tests/batch.rs` (against single environments, f64 and f32 rows, both autoreset modes,
/// reset infos; it loads the library from `target/rl-python-venv`, which CI's step `venv`
/// makes, and skips with a reason without it); and, unless [`every_id`], the GridWorld,
/// MiniGrid and BabyAI ids outside their lists.
fn left_out(id: &str) -> bool {
    if registry::describe(id).is_ok_and(|entry| entry.family() == "MuJoCo") {
        return true;
    }
    !every_id()
        && ((id.starts_with("GridWorld-") && !GRIDWORLD_IDS.contains(&id))
            || (id.starts_with("MiniGrid-") && !MINIGRID_IDS.contains(&id))
            || (id.starts_with("BabyAI-") && !BABYAI_IDS.contains(&id)))
}

/// Every registered id (iterating the registry): the vector by id (`make_vector`, on two
/// threads) and, for a `Discrete` action space, the vector with integer actions
/// (`make_vector::<i64, f32>`), equal copies of the id's environment stepped by hand, bit for
/// bit, infos and masks included, in next-step and same-step autoreset, over a few hundred
/// steps of random actions (past the episode cap where it is at most 600 steps). Of
/// minigrid's ids (stepped, observed and restarted in place by their domain, their rows
/// written straight from the state), those of [`MINIGRID_IDS`]; of BabyAI's, [`BABYAI_IDS`]; of
/// the GridWorld maps, [`GRIDWORLD_IDS`] (every id with `RLRS_TEST_EVERY_ID=1`).
#[test]
fn every_id_by_id_equals_its_environments_stepped_by_hand() {
    rl_experiment::builtins::register_builtins();
    let mut infos_seen = 0;
    let ids = registry::ids();
    for list in [&MINIGRID_IDS[..], &BABYAI_IDS, &GRIDWORLD_IDS] {
        for id in list {
            assert!(ids.iter().any(|known| known == id), "{id} is registered");
        }
    }
    for id in ids {
        if left_out(&id) {
            continue;
        }
        let built = registry::build(&id, None).expect("builds");
        let cap = built.episode_cap();
        let steps = cap.map_or(300, |cap| (cap as usize + 5).clamp(300, 605));
        for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
            let context = format!("{id}, {autoreset:?}");
            let mut by_id =
                make_vector::<AnyElement, f32>(&id, None, count(), SEED, options(2, autoreset))
                    .expect("by id");
            let mut integers =
                make_vector::<i64, f32>(&id, None, count(), SEED, options(1, autoreset)).ok();
            let mut by_hand: Vec<ByHand> = (0..COUNT)
                .map(|i| ByHand::new(built.as_ref(), SEED + i as u64))
                .collect();
            let actions =
                rl_spaces::FiniteSpace::cardinality(by_id.action_space()).filter(|n| *n <= 64);
            by_id.reset(Mode::Training).expect("reset");
            if let Some(integers) = &mut integers {
                integers.reset(Mode::Training).expect("reset");
            }
            by_hand.iter_mut().for_each(ByHand::reset);
            let mut rng = NumpyGenerator::seed_from_u64(11);
            let mut ends = 0;
            for step in 0..=steps {
                let context = format!("{context}, step {step}");
                assert_by_hand(&by_id, &by_hand, &context);
                if let Some(integers) = &integers {
                    assert_by_hand(integers, &by_hand, &format!("{context}, integers"));
                }
                if let Some(n) = actions {
                    assert_masks(&by_id, &by_hand, n, &context);
                    if let Some(integers) = &integers {
                        assert_masks(integers, &by_hand, n, &format!("{context}, integers"));
                    }
                }
                infos_seen += by_hand.iter().filter(|e| !e.info.is_empty()).count();
                if step == steps {
                    break;
                }
                let any: Vec<AnyElement> = (0..COUNT)
                    .map(|_| {
                        by_id
                            .action_space()
                            .try_sample(&mut rng)
                            .expect("not empty")
                    })
                    .collect();
                by_id.step(&any).expect("a step by id");
                if let Some(integers) = &mut integers {
                    let ints: Vec<i64> = any.iter().map(|a| a.as_int().expect("an int")).collect();
                    integers.step(&ints).expect("a step with integers");
                }
                for (environment, action) in by_hand.iter_mut().zip(&any) {
                    environment.step(action, autoreset);
                }
                ends += by_id
                    .terminated()
                    .iter()
                    .zip(by_id.truncated())
                    .filter(|(t, u)| **t || **u)
                    .count();
            }
            if cap.is_some_and(|cap| cap as usize <= steps) {
                assert!(ends > 0, "{context}: the episodes crossed their cap");
            }
        }
    }
    assert!(infos_seen > 0, "some registered domain reports infos");
}

/// Every registered id (but [`left_out`]'s): the vector by id with its
/// rows in the batched layout (`RowLayout::Batched`, what the Python package steps: one entry
/// per `Discrete`, written by the domain's `observe_row_into`) gives, row by row, the flat
/// vector's observation written in that layout, with the same rewards, flags and infos, and its
/// rows are as wide as the observation space's columns say (`Columns`), on two threads, in
/// next-step and same-step autoreset.
#[test]
fn every_id_batched_rows_are_its_flat_rows_in_the_batched_layout() {
    rl_experiment::builtins::register_builtins();
    for id in registry::ids() {
        if left_out(&id) {
            continue;
        }
        let built = registry::build(&id, None).expect("builds");
        let space = built.environment(0).observation_space().clone();
        for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
            let context = format!("{id}, {autoreset:?}");
            let mut flat =
                make_vector::<AnyElement, f32>(&id, None, count(), SEED, options(2, autoreset))
                    .expect("flat");
            let batched_options = options(2, autoreset).with_layout(RowLayout::Batched);
            let mut batched =
                make_vector::<AnyElement, f32>(&id, None, count(), SEED, batched_options)
                    .expect("batched");
            let width = space.batched_dim();
            assert_eq!(batched.flat_dim(), width, "{context}");
            if let Ok(columns) = Columns::of(&space) {
                assert_eq!(columns.width(), width, "{context}: the columns' width");
            }
            flat.reset(Mode::Training).expect("reset");
            batched.reset(Mode::Training).expect("reset");
            let mut rng = NumpyGenerator::seed_from_u64(5);
            let mut row = vec![0.0f32; width];
            for step in 0..=200 {
                let context = format!("{context}, step {step}");
                for i in 0..COUNT {
                    let flat_row = flat.observations().row(i).to_vec();
                    let element = space.unflatten(&flat_row).expect("a flat row unflattens");
                    space.batched_into(&element, &mut row).expect("writes");
                    assert_eq!(
                        batched.observations().row(i).to_vec(),
                        row,
                        "{context}: row {i}"
                    );
                }
                assert_eq!(flat.rewards(), batched.rewards(), "{context}");
                assert_eq!(flat.terminated(), batched.terminated(), "{context}");
                assert_eq!(flat.truncated(), batched.truncated(), "{context}");
                assert_eq!(flat.infos(), batched.infos(), "{context}");
                assert_eq!(flat.final_mask(), batched.final_mask(), "{context}");
                if step == 200 {
                    break;
                }
                let any: Vec<AnyElement> = (0..COUNT)
                    .map(|_| flat.action_space().try_sample(&mut rng).expect("not empty"))
                    .collect();
                flat.step(&any).expect("a flat step");
                batched.step(&any).expect("a batched step");
            }
        }
    }
}
