//! The batches a vector by id steps (`RegisteredDomain::batch_states_f64_in`, what rl-wrappers'
//! `make_vector::<AnyElement, f64>` and the Python `RustVectorEnv` build for the MuJoCo ids' float64 Box) give
//! each environment's float64 observations bit for bit, and its rewards, flags, step infos and
//! reset infos (`Domain::reset_info`: Gymnasium's `_get_reset_info`), against the single
//! environment by id seeded alike; `f32` rows are those observations rounded. The batches say
//! their steps are costly (`BatchStates::costly_steps`), so that vectors on several threads
//! hand out one environment at a time.
//!
//! The tests need the MuJoCo library, found as `tests/traces.rs` finds it; without it they
//! print why and pass without checking.

use std::path::Path;

use ndarray::{ArrayD, IxDyn};
use rand::SeedableRng;
use rl_core::registry::{self, RegisteredDomain};
use rl_core::{BatchStates, Environment, Info, Mode, NumpyGenerator};
use rl_mujoco::library;
use rl_spaces::{AnyArray, AnyElement, AnySpace, FlattenSpace, RowLayout};

/// The library, or `None` (after saying why) where none is found.
fn library_or_skip() -> Option<&'static library::Library> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match library::load(library::workspace_source(&workspace)) {
        Ok(library) => Some(library),
        Err(error) => {
            println!("skipping the MuJoCo batches: {error}");
            None
        }
    }
}

/// Environment `i`'s action at step `t`: a float32 sweep of the Box `space`'s bounds.
fn action(space: &AnySpace, i: usize, t: usize) -> AnyElement {
    let AnySpace::Box(space) = space else {
        panic!("a Box action space, not {space}");
    };
    let (low, high) = (space.low_f64(), space.high_f64());
    let values: Vec<f32> = low
        .iter()
        .zip(&high)
        .enumerate()
        .map(|(j, (low, high))| {
            let fraction = ((t * 7 + j * 3 + i * 5) % 11) as f64 / 10.0;
            (low + (high - low) * fraction) as f32
        })
        .collect();
    let array = ArrayD::from_shape_vec(IxDyn(&[values.len()]), values).expect("a vector");
    AnyElement::from(AnyArray::F32(array))
}

/// An observation of a single environment by id: its float64 entries.
fn floats(observation: &AnyElement) -> Vec<f64> {
    match observation.as_array() {
        Some(AnyArray::F64(array)) => array.iter().copied().collect(),
        other => panic!("a float64 array, not {other:?}"),
    }
}

/// Steps `count` episodes of `id` in a batch with `f64` rows beside as many single
/// environments by id (seeded `seed + i`), each reset when its episode ends, and compares
/// everything bit for bit for `steps` steps.
///
/// Returns how many reset infos that were not empty it compared.
fn batch_is_the_single_environments(domain: &dyn RegisteredDomain, steps: usize) -> usize {
    const COUNT: usize = 3;
    const SEED: u64 = 21;
    let id = domain.id().to_owned();
    let mut batch = domain.batch_states_f64_in(COUNT, RowLayout::Flat);
    let mut narrow = domain.batch_states_in(COUNT, RowLayout::Flat);
    let mut singles: Vec<_> = (0..COUNT as u64)
        .map(|i| domain.registered_environment(SEED + i))
        .collect();
    let action_space = singles[0].action_space().clone();
    let dim = singles[0].observation_space().row_dim(RowLayout::Flat);
    let mut rngs: Vec<NumpyGenerator> = (0..COUNT as u64)
        .map(|i| NumpyGenerator::seed_from_u64(SEED + i))
        .collect();
    let mut narrow_rngs = rngs.clone();
    let mut rows = vec![0.0f64; COUNT * dim];
    let mut narrow_rows = vec![0.0f32; COUNT * dim];
    let (mut rewards, mut terminated) = ([0.0; COUNT], [false; COUNT]);
    let (mut narrow_rewards, mut narrow_terminated) = ([0.0; COUNT], [false; COUNT]);
    let mut infos = vec![Info::new(); COUNT];
    let mut narrow_infos = vec![Info::new(); COUNT];
    let mut steps_taken = [0u64; COUNT];
    let cap = domain.episode_cap().expect("a time limit");
    let (mut resets, mut reset_infos, mut rounded) = (0, 0, 0);
    // Resets episode `i` in both batches and its single environment, and compares.
    let mut reset = |i: usize,
                     batch: &mut rl_core::BoxedBatchStates<AnyElement, f64>,
                     narrow: &mut rl_core::BoxedBatchStates,
                     singles: &mut [rl_core::registry::BoxedRegisteredEnvironment],
                     rngs: &mut [NumpyGenerator],
                     narrow_rngs: &mut [NumpyGenerator],
                     rows: &mut [f64],
                     narrow_rows: &mut [f32]| {
        let row = &mut rows[i * dim..(i + 1) * dim];
        batch
            .reset_at(i, Mode::Training, &mut rngs[i], row)
            .expect("a reset");
        narrow
            .reset_at(
                i,
                Mode::Training,
                &mut narrow_rngs[i],
                &mut narrow_rows[i * dim..(i + 1) * dim],
            )
            .expect("a reset");
        let observation = singles[i].reset(Mode::Training).expect("a reset");
        let bits = |values: &[f64]| values.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(row), bits(&floats(&observation)), "{id}: reset {i}");
        let expected = singles[i].reset_info();
        assert_eq!(batch.reset_info(i), expected, "{id}: reset info {i}");
        assert_eq!(narrow.reset_info(i), expected, "{id}: reset info {i}");
        resets += 1;
        reset_infos += usize::from(!expected.is_empty());
    };
    for i in 0..COUNT {
        reset(
            i,
            &mut batch,
            &mut narrow,
            &mut singles,
            &mut rngs,
            &mut narrow_rngs,
            &mut rows,
            &mut narrow_rows,
        );
    }
    for t in 0..steps {
        let actions: Vec<AnyElement> = (0..COUNT).map(|i| action(&action_space, i, t)).collect();
        batch
            .step_with_infos(
                &actions,
                &[false; COUNT],
                Mode::Training,
                &mut rngs,
                &mut rewards,
                &mut terminated,
                &mut rows,
                &mut infos,
            )
            .map_err(|(_, error)| error)
            .expect("a step");
        narrow
            .step_with_infos(
                &actions,
                &[false; COUNT],
                Mode::Training,
                &mut narrow_rngs,
                &mut narrow_rewards,
                &mut narrow_terminated,
                &mut narrow_rows,
                &mut narrow_infos,
            )
            .map_err(|(_, error)| error)
            .expect("a step");
        for i in 0..COUNT {
            let context = format!("{id}: step {t}, environment {i}");
            let outcome = singles[i].step(&actions[i]).expect("a step");
            let expected = floats(&outcome.observation);
            let row = &rows[i * dim..(i + 1) * dim];
            let bits = |values: &[f64]| values.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(row), bits(&expected), "{context}");
            let narrow_row = &narrow_rows[i * dim..(i + 1) * dim];
            for (narrow, wide) in narrow_row.iter().zip(row) {
                assert_eq!(narrow.to_bits(), (*wide as f32).to_bits(), "{context}");
            }
            rounded += usize::from(row.iter().any(|x| f64::from(*x as f32) != *x));
            assert_eq!(
                rewards[i].to_bits(),
                outcome.reward().to_bits(),
                "{context}"
            );
            assert_eq!(
                narrow_rewards[i].to_bits(),
                rewards[i].to_bits(),
                "{context}"
            );
            assert_eq!(terminated[i], outcome.terminated, "{context}");
            assert_eq!(infos[i], outcome.info, "{context}");
            assert_eq!(narrow_infos[i], outcome.info, "{context}");
            steps_taken[i] += 1;
            let truncated = steps_taken[i] >= cap;
            assert_eq!(truncated, outcome.truncated, "{context}");
            if outcome.terminated || truncated {
                steps_taken[i] = 0;
                reset(
                    i,
                    &mut batch,
                    &mut narrow,
                    &mut singles,
                    &mut rngs,
                    &mut narrow_rngs,
                    &mut rows,
                    &mut narrow_rows,
                );
            }
        }
    }
    assert!(rounded > 0, "{id}: f32 rows would round the observations");
    assert!(resets > COUNT, "{id}: episodes ended and were reset");
    reset_infos
}

#[test]
fn batches_by_id_give_the_environments_f64_observations_and_reset_infos() {
    if library_or_skip().is_none() {
        return;
    }
    rl_mujoco::register();
    // Hopper's episodes under this sweep end early, and its resets report infos (its x
    // position, ...); Reacher's time limit is 50 steps; InvertedPendulum's reset infos are
    // empty, as Gymnasium's.
    for (id, steps, reports) in [
        ("Hopper-v5", 150, true),
        ("Reacher-v5", 120, false),
        ("InvertedPendulum-v5", 60, false),
    ] {
        let domain = registry::build(id, None).expect("the id builds with the library");
        // Vectors on several threads cut these batches one environment per chunk.
        assert!(domain.batch_states(1).costly_steps(), "{id}: costly steps");
        let reset_infos = batch_is_the_single_environments(domain.as_ref(), steps);
        assert_eq!(reset_infos > 0, reports, "{id}: {reset_infos} reset infos");
    }
}

/// [`Data::copy_into_raw`](rl_mujoco::Data::copy_into_raw), what the Python package's frames
/// use: a state copied into an `mjData` made separately, for a model compiled again from the
/// same file, is the same state, the kinematics of the last `mj_step` included (which
/// `mj_forward` on the positions would not give back); a destination made for another model is
/// refused with an error and left as it was.
#[test]
fn states_copy_into_mjdata_made_elsewhere_and_other_models_are_refused() {
    use std::sync::Arc;

    use rl_mujoco::{Data, Setup};

    if library_or_skip().is_none() {
        return;
    }
    rl_mujoco::register();
    let hopper = registry::build("Hopper-v5", None).expect("Hopper-v5");
    let setup = rl_mujoco::registry::setup_of(hopper.as_any()).expect("a MuJoCo domain");
    assert!(rl_mujoco::registry::setup_of(&0_u8).is_none());
    let again = Setup::new(setup.xml_file(), setup.frame_skip()).expect("the same file");
    let mut source = Data::new(Arc::clone(setup.model())).expect("data");
    source.reset();
    for _ in 0..5 {
        setup.simulate(&mut source, &[0.9, -0.7, 0.4]);
    }
    let destination = Data::new(Arc::clone(again.model())).expect("data");
    // SAFETY: `destination` is a live mjData of the same library, used by nobody else.
    #[allow(unsafe_code)]
    unsafe { source.copy_into_raw(destination.as_ptr()) }.expect("same sizes");
    assert_eq!(destination.time(), source.time());
    assert_eq!(destination.qpos(), source.qpos());
    assert_eq!(destination.qvel(), source.qvel());
    assert_eq!(destination.xpos(), source.xpos());
    assert_eq!(destination.cfrc_ext(), source.cfrc_ext());
    // The positions of the bodies are those of the state before the last integration:
    // recomputing them from qpos gives other numbers.
    let mut forwarded = source.clone();
    forwarded.forward();
    assert_ne!(forwarded.xpos(), source.xpos());

    let ant = registry::build("Ant-v5", None).expect("Ant-v5");
    let ant_setup = rl_mujoco::registry::setup_of(ant.as_any()).expect("a MuJoCo domain");
    let ant_data = Data::new(Arc::clone(ant_setup.model())).expect("data");
    let before = ant_data.qpos().to_vec();
    // SAFETY: as above; the sizes differ, so nothing is written.
    #[allow(unsafe_code)]
    let error = unsafe { source.copy_into_raw(ant_data.as_ptr()) }.expect_err("another model");
    assert!(error.to_string().contains("another model"), "{error}");
    assert_eq!(ant_data.qpos(), before.as_slice());
}

#[test]
fn snapshots_continue_bit_for_bit_and_what_is_no_state_is_refused() {
    use rl_mujoco::tasks::hopper::Hopper;

    if library_or_skip().is_none() {
        return;
    }
    rl_mujoco::register();
    // Humanoid's reward reads `xipos` before stepping and its observation `cinert`, `cvel` and
    // `cfrc_ext`: what the last step derived, not recomputable from the positions.
    let humanoid = registry::build("Humanoid-v5", None).expect("Humanoid-v5");
    let mut env = humanoid.registered_environment(3);
    let space = env.action_space().clone();
    env.reset(Mode::Training).expect("reset");
    for t in 0..7 {
        env.step(&action(&space, 0, t)).expect("step");
    }
    let text = serde_json::to_string(&env.snapshot().expect("a snapshot")).expect("JSON");
    let mut restored = humanoid.registered_environment(99);
    restored
        .restore(&serde_json::from_str(&text).expect("JSON"))
        .expect("a snapshot of the same id");
    assert_eq!(restored.state(), env.state());
    for t in 7..60 {
        let (a, b) = (action(&space, 0, t), action(&space, 0, t));
        let (mine, theirs) = (env.step(&a), restored.step(&b));
        let (mine, theirs) = (mine.expect("step"), theirs.expect("step"));
        assert_eq!(mine.observation, theirs.observation, "step {t}");
        assert_eq!(mine.value, theirs.value, "step {t}");
        assert_eq!(
            (mine.terminated, mine.truncated),
            (theirs.terminated, theirs.truncated)
        );
        assert_eq!(
            format!("{:?}", mine.info),
            format!("{:?}", theirs.info),
            "step {t}"
        );
        if mine.terminated || mine.truncated {
            assert_eq!(
                env.reset(Mode::Training).expect("reset"),
                restored.reset(Mode::Training).expect("reset")
            );
        }
    }
    // What is not a state of Hopper's model is refused with the reason, never a panic.
    let hopper = Hopper::domain(Default::default()).expect("Hopper-v5");
    let state = env.state().expect("a JSON state");
    let version = state["mujoco"].clone();
    let digits = state["bytes"].as_str().expect("hexadecimal").to_owned();
    let cases = [
        (serde_json::json!({}), "no `mujoco` version"),
        (
            serde_json::json!({"mujoco": "1.0.0", "bytes": ""}),
            "MuJoCo 1.0.0",
        ),
        (
            serde_json::json!({"mujoco": version, "bytes": 3}),
            "not a string",
        ),
        (
            serde_json::json!({"mujoco": version, "bytes": digits}),
            "hexadecimal digits",
        ),
    ];
    for (value, reason) in cases {
        let error = hopper
            .state_from_json(&value)
            .expect_err("not a Hopper state");
        assert!(error.contains(reason), "{value:.80}: {error}");
    }
    let mut own = Hopper::domain(Default::default())
        .expect("Hopper-v5")
        .state_to_json(&rl_core::Domain::initial_state(
            &hopper,
            Mode::Training,
            &mut NumpyGenerator::seed_from_u64(1),
        ))
        .expect("a JSON state");
    let mut text = own["bytes"].as_str().expect("hexadecimal").to_owned();
    text.replace_range(10..11, "g");
    own["bytes"] = text.into();
    let error = hopper.state_from_json(&own).expect_err("not hexadecimal");
    assert!(error.contains("not hexadecimal at character 10"), "{error}");
}

#[test]
fn clones_reuse_the_mjdata_of_dropped_states_and_step_as_the_original() {
    use rl_core::Domain;
    use rl_mujoco::tasks::walker2d::Walker2d;

    if library_or_skip().is_none() {
        return;
    }
    // `Domain::step` (not in place) clones the state on every step: the clone takes the mjData
    // of the state dropped before it (kept by the model) instead of a new one and its arena.
    let domain = Walker2d::domain(Default::default()).expect("Walker2d-v5");
    let mut rng = NumpyGenerator::seed_from_u64(4);
    let mut in_place = domain.initial_state(Mode::Training, &mut rng);
    let mut state = in_place.clone();
    let first = state.clone();
    let reused = first.as_ptr();
    drop(first);
    let made = state.model().data_made();
    let mut seen = std::collections::HashSet::new();
    for t in 0..40 {
        let values: Vec<f32> = (0..6)
            .map(|j| ((t * 5 + j * 3) % 9) as f32 / 4.0 - 1.0)
            .collect();
        let action = ArrayD::from_shape_vec(IxDyn(&[6]), values).expect("an action");
        let outcome = domain.step(&state, &action, Mode::Training, &mut rng);
        let expected = domain.step_in_place(&mut in_place, &action, Mode::Training, &mut rng);
        assert_eq!(outcome.value, expected.value, "step {t}");
        assert_eq!(outcome.next_state.qpos(), in_place.qpos(), "step {t}");
        assert_eq!(outcome.next_state.xipos(), in_place.xipos(), "step {t}");
        seen.insert(outcome.next_state.as_ptr());
        // The state stepped from is dropped here: its mjData serves the next step's clone.
        state = outcome.next_state;
        if expected.terminated {
            break;
        }
    }
    assert!(
        seen.contains(&reused),
        "no clone took the dropped state's mjData"
    );
    assert_eq!(state.model().data_made(), made, "a step made a new mjData");
    assert!(
        seen.len() <= 2,
        "{} mjData for one chain of steps",
        seen.len()
    );
}
