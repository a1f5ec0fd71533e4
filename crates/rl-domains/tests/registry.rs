//! The registry: ids and descriptions, JSON parameters over the defaults, typed errors, and
//! environments that behave like the typed simulator they wrap.

use rl_core::{CoreError, Domain, Environment, Mode, Simulator};
use rl_domains::cartpole::{CartPole, CartPoleParams, Integrator};
use rl_domains::gridworld::{ExpectedStepVariant, GridMap};
use rl_domains::mountain_car::MountainCar;
use rl_domains::registry;
use rl_spaces::{AnyArray, AnyElement, AnySpace, FiniteSpace};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The ids this crate registers that mirror no recorded reference (every other id has seeded
/// traces in `testdata/reference/`, which the list below is read from).
const IDS_WITHOUT_A_REFERENCE: [&str; 1] = ["FastCartPole-v1"];

/// Every `env_id` of the `seeded_single` and `seeded_vector` files of `testdata/reference/`:
/// rl-reference replays those kinds against this crate's registry alone, so each of their ids
/// is one of ours, and an id that went missing from the registry fails here.
fn recorded_ids() -> BTreeSet<String> {
    #[derive(Deserialize)]
    struct File {
        kind: String,
        #[serde(default)]
        traces: Vec<Trace>,
    }
    #[derive(Deserialize)]
    struct Trace {
        env_id: Option<String>,
    }
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/reference");
    let mut ids = BTreeSet::new();
    for entry in fs::read_dir(&directory).expect("testdata/reference") {
        let path = entry.expect("directory entry").path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        if !(name.starts_with("seeded_") && name.ends_with(".json")) {
            continue;
        }
        let text = fs::read_to_string(&path).expect("readable");
        let file: File = serde_json::from_str(&text).expect("a seeded trace file");
        if !matches!(file.kind.as_str(), "seeded_single" | "seeded_vector") {
            continue;
        }
        assert!(!file.traces.is_empty(), "{name} has no traces");
        for trace in file.traces {
            ids.insert(
                trace
                    .env_id
                    .unwrap_or_else(|| panic!("{name}: a trace without env_id")),
            );
        }
    }
    ids
}

#[test]
fn list_names_every_domain_once_with_a_description() {
    let entries = registry::list();
    let ids: Vec<&str> = entries.iter().map(|entry| entry.id.as_str()).collect();
    // The registry holds exactly the recorded ids, the GridWorld maps and the ids that mirror
    // no reference: a new domain's recorded traces are all this test needs.
    let mut expected = recorded_ids();
    expected.extend(IDS_WITHOUT_A_REFERENCE.iter().map(|id| (*id).to_owned()));
    expected.extend(
        GridMap::builtin_names()
            .iter()
            .map(|name| format!("GridWorld-{name}")),
    );
    let registered: BTreeSet<String> = ids.iter().map(|id| (*id).to_owned()).collect();
    assert_eq!(
        registered.difference(&expected).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "registered but neither recorded nor listed as without a reference"
    );
    assert_eq!(
        expected.difference(&registered).collect::<Vec<_>>(),
        Vec::<&String>::new(),
        "recorded or listed but not registered"
    );
    assert!(ids.contains(&"GridWorld-4x5") && ids.contains(&"GridWorld-10x10-12ftml"));
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len());
    for entry in &entries {
        assert!(!entry.description.is_empty() && !entry.description.contains('\n'));
    }
    let four_by_five = entries
        .iter()
        .find(|e| e.id == "GridWorld-4x5")
        .expect("listed");
    assert!(
        four_by_five
            .description
            .contains("4 by 5 cells, 1 goal, 2 pits"),
        "{}",
        four_by_five.description
    );
    assert_eq!(registry::ids(), ids);
}

#[test]
fn unknown_ids_list_the_known_ones() {
    for id in [
        "CartPole-v0",
        "GridWorld-5x5",
        "GridWorld-",
        "",
        "gridworld-4x5",
    ] {
        let error = registry::make(id, None).err().expect("unknown");
        match &error {
            CoreError::UnknownId { id: asked, known } => {
                assert_eq!(asked, id);
                assert_eq!(known, &registry::ids());
            }
            other => panic!("{id}: {other:?}"),
        }
        let message = error.to_string();
        for known in registry::ids() {
            assert!(message.contains(&known), "{message}");
        }
    }
    assert!(matches!(
        registry::gridworld_from_id("CartPole-v1", None),
        Err(CoreError::UnknownId { .. })
    ));
}

#[test]
fn json_parameters_override_the_defaults_field_by_field() {
    let params = json!({"integrator": "semi-implicit", "sutton_barto_reward": true});
    let built = registry::build("CartPole-v1", Some(&params)).expect("valid");
    let domain: &CartPole = built.as_any().downcast_ref().expect("a CartPole");
    let expected = CartPoleParams {
        integrator: Integrator::SemiImplicitEuler,
        sutton_barto_reward: true,
        ..CartPoleParams::default()
    };
    assert_eq!(domain.params(), &expected);

    for defaults in [None, Some(&serde_json::Value::Null), Some(&json!({}))] {
        let built = registry::build("CartPole-v1", defaults).expect("valid");
        let domain: &CartPole = built.as_any().downcast_ref().expect("a CartPole");
        assert_eq!(domain.params(), &CartPoleParams::default());
    }

    let params = json!({"noise": 0.3, "expected_step": "corrected", "episode_cap": 50});
    let domain = registry::gridworld_from_id("GridWorld-3x5-Wall", Some(&params)).expect("valid");
    assert_eq!(domain.params().noise, 0.3);
    assert_eq!(
        domain.params().expected_step,
        ExpectedStepVariant::Corrected
    );
    assert_eq!(domain.params().discount_factor, 0.9);
    assert_eq!(domain.episode_cap(), Some(50));
    assert_eq!(
        domain.map(),
        &GridMap::builtin("3x5-Wall").expect("built in")
    );

    let built = registry::build(
        "MountainCar-v0",
        Some(&json!({"goal_reward": 0.0, "reset_low": -0.5, "reset_high": -0.5})),
    )
    .expect("valid");
    let domain: &MountainCar = built.as_any().downcast_ref().expect("a MountainCar");
    assert_eq!(
        domain.params(),
        &rl_domains::mountain_car::MountainCarParams::rlpy_style()
    );
}

#[test]
fn bad_parameters_are_typed_errors_naming_the_field() {
    // (id, parameters, JSON path of the bad value, a word of the reason)
    for (id, params, at, field) in [
        (
            "CartPole-v1",
            json!({"gravty": 9.8}),
            "gravty",
            "unknown field",
        ),
        (
            "MountainCar-v0",
            json!({"force": "strong"}),
            "force",
            "invalid type",
        ),
        (
            "MountainCarContinuous-v0",
            json!([1, 2]),
            "",
            "expected an object",
        ),
        (
            "GridWorld-4x5",
            json!({"map": "4x5"}),
            "map",
            "unknown field",
        ),
        (
            "GridWorld-4x5",
            json!({"expected_step": "fixed"}),
            "expected_step",
            "fixed",
        ),
        (
            "GridWorld-4x5",
            json!({"noise": [0.1]}),
            "noise",
            "invalid type",
        ),
    ] {
        let error = registry::make(id, Some(&params)).err().expect("invalid");
        match &error {
            CoreError::InvalidParameters {
                id: failed,
                path,
                reason,
            } => {
                assert_eq!((failed.as_str(), path.as_str()), (id, at), "{error}");
                assert!(reason.contains(field), "{id}: {error}");
            }
            other => panic!("{id}: {other:?}"),
        }
        if !at.is_empty() {
            assert!(error.to_string().contains(&format!("at `{at}`")), "{error}");
        }
    }
    for (id, params, field) in [
        ("CartPole-v1", json!({"tau": -0.02}), "tau"),
        ("CartPole-v1", json!({"reset_high": 1.0}), "reset_high"),
        (
            "MountainCar-v0",
            json!({"max_episode_steps": 0}),
            "max_episode_steps",
        ),
        (
            "MountainCarContinuous-v0",
            json!({"min_action": 2.0}),
            "min_action",
        ),
        ("GridWorld-1x2", json!({"noise": 1.5}), "noise"),
    ] {
        match registry::make(id, Some(&params)).err().expect("invalid") {
            CoreError::InvalidDomain { id: failed, reason } => {
                assert_eq!(failed, id);
                assert!(reason.contains(&format!("`{field}`")), "{id}: {reason}");
            }
            other => panic!("{id}: {other:?}"),
        }
    }
}

#[test]
fn boxed_environments_speak_any_elements() {
    let mut cartpole = registry::make("CartPole-v1", None).expect("registered");
    assert!(matches!(cartpole.action_space(), AnySpace::Discrete(d) if d.n() == 2));
    cartpole.seed(1);
    let observation = cartpole.reset(Mode::Training).expect("reset");
    assert!(matches!(observation.as_array(), Some(AnyArray::F32(a)) if a.shape() == [4]));

    let mut continuous = registry::make("MountainCarContinuous-v0", None).expect("registered");
    continuous.reset(Mode::Training).expect("reset");
    let action = AnyElement::from(ndarray::arr1(&[0.5f32]).into_dyn());
    assert_eq!(continuous.step(&action).expect("a step").reward(), -0.025);

    let mut gridworld = registry::make("GridWorld-11x11-Rooms", None).expect("registered");
    assert!(matches!(
        gridworld.observation_space(),
        AnySpace::MultiDiscrete(_)
    ));
    assert_eq!(gridworld.discount(), 0.9);
    let start = gridworld.reset(Mode::Training).expect("reset");
    let map = GridMap::builtin("11x11-Rooms").expect("built in");
    let Some(AnyArray::I64(cell)) = start.as_array() else {
        panic!("an i64 array, got {start:?}");
    };
    assert_eq!(
        cell.as_slice(),
        Some(&[map.start().row as i64, map.start().col as i64][..])
    );
    assert_eq!(
        gridworld.observation_space().index_of(&start),
        Some(map.start().row * 11 + map.start().col)
    );
    let mut mask = [false; 4];
    gridworld.action_mask(&mut mask).expect("a mask");
    assert!(mask.iter().any(|allowed| *allowed));
}

#[test]
fn a_boxed_environment_follows_the_typed_simulator_bit_for_bit() {
    let domain = CartPole::new(CartPoleParams::default()).expect("valid");
    let mut typed = Simulator::new(domain, 0);
    typed.seed(99);
    let mut boxed = registry::make("CartPole-v1", None).expect("registered");
    boxed.seed(99);
    for episode in 0..3 {
        let first = typed.reset(Mode::Training).expect("reset");
        let any = boxed.reset(Mode::Training).expect("reset");
        assert_eq!(
            any,
            AnyElement::from(ndarray::arr1(&first).into_dyn()),
            "episode {episode}"
        );
        for step in 0.. {
            let action = (step % 3 == 0) as i64;
            let a = typed.step(&action).expect("a step");
            let b = boxed.step(&AnyElement::Int(action)).expect("a step");
            assert_eq!(
                b.observation,
                AnyElement::from(ndarray::arr1(&a.observation).into_dyn())
            );
            assert_eq!(a.reward().to_bits(), b.reward().to_bits());
            assert_eq!((a.terminated, a.truncated), (b.terminated, b.truncated));
            if a.is_done() {
                break;
            }
        }
    }
}

/// Issue 33: a state set from outside that is not one of the domain's is refused, naming the
/// state, and the episode is left as it was: off the map, in a wall, or whose observation lies
/// outside the observation space (CartPole at 1e308, MountainCar at 1e308).
#[test]
fn states_set_from_outside_are_validated() {
    let refused = |id: &str, state: serde_json::Value, reason: &str| {
        let domain = registry::build(id, None).expect("registered");
        let mut env = domain.registered_environment(0);
        env.reset(Mode::Training).expect("reset");
        let before = env.state();
        let error = env
            .reset_to_state(&state, Mode::Training)
            .expect_err("an invalid state");
        assert!(
            matches!(error, CoreError::InvalidParameter { name: "state", .. }),
            "{id}: {error}"
        );
        assert!(error.to_string().contains(reason), "{id}: {error}");
        assert_eq!(env.state(), before, "{id}: the episode is left as it was");
    };
    refused(
        "GridWorld-4x5",
        json!({"row": 100, "col": 100}),
        "outside the 4 by 5 map",
    );
    let wall = GridMap::builtin("3x5-Wall").expect("built in");
    let blocked = (0..wall.rows())
        .flat_map(|row| (0..wall.cols()).map(move |col| (row, col)))
        .find(|&(row, col)| {
            wall.kind(rl_domains::gridworld::GridCell { row, col })
                == Some(rl_domains::gridworld::CellKind::Blocked)
        })
        .expect("the map has a wall");
    refused(
        "GridWorld-3x5-Wall",
        json!({"row": blocked.0, "col": blocked.1}),
        "blocked cell",
    );
    refused(
        "GridWorld-4x5",
        json!({"row": 9_223_372_036_854_775_807u64 * 2, "col": 0}),
        "not a state",
    );
    refused(
        "CartPole-v1",
        json!([1e308, 0.0, 0.0, 0.0]),
        "outside the observation space",
    );
    refused(
        "MountainCar-v0",
        json!({"position": 1e308, "velocity": 0.0}),
        "outside the observation space",
    );
    refused("FrozenLake-v1", json!(16), "outside the observation space");
    // Issue 40 item 7: Blackjack's `stuck` (the game over, the dealer's hand played out) was
    // accepted and ignored; a state to play from has not stuck.
    refused(
        "Blackjack-v1",
        json!({"player": [2, 3], "dealer": [4, 4], "dealer_top_card_suit": "H", "stuck": true}),
        "stuck",
    );
    // A valid state is taken.
    let domain = registry::build("GridWorld-4x5", None).expect("registered");
    let mut env = domain.registered_environment(0);
    env.reset_to_state(&json!({"row": 0, "col": 1}), Mode::Training)
        .expect("a free cell");
    assert_eq!(env.state(), Some(json!({"row": 0, "col": 1})));
}

/// The toy text's resets report Gymnasium's `{"prob": 1}` (Taxi's `1.0`), the info its
/// `reset` returns: by the environment by id (`Environment::reset_info`) and by the batches a
/// vector by id steps (`BatchStates::reset_info`, what it writes into its reset infos);
/// Blackjack's and CartPole's reset nothing.
#[test]
fn toy_text_resets_report_gymnasiums_prob() {
    use rand::SeedableRng;
    use rl_core::{InfoValue, NumpyGenerator};

    let cases = [
        ("FrozenLake-v1", Some(InfoValue::Int(1))),
        ("FrozenLake8x8-v1", Some(InfoValue::Int(1))),
        ("CliffWalking-v1", Some(InfoValue::Int(1))),
        ("CliffWalkingSlippery-v1", Some(InfoValue::Int(1))),
        ("Taxi-v4", Some(InfoValue::Float(1.0))),
        ("Blackjack-v1", None),
        ("CartPole-v1", None),
    ];
    for (id, prob) in cases {
        let built = registry::build(id, None).expect("registered");
        let mut env = built.registered_environment(3);
        assert!(env.reset_info().is_empty(), "{id}: before the first reset");
        env.reset(Mode::Training).expect("reset");
        let info = env.reset_info();
        assert_eq!(info.get("prob"), prob.as_ref(), "{id}");
        assert_eq!(info.iter().count(), usize::from(prob.is_some()), "{id}");
        let mut batch = built.batch_states(2);
        use rl_spaces::FlattenSpace;
        let mut row = vec![0.0f32; env.observation_space().flat_dim()];
        let mut rng = NumpyGenerator::seed_from_u64(1);
        batch
            .reset_at(1, Mode::Training, &mut rng, &mut row)
            .expect("reset");
        assert_eq!(
            batch.reset_info(1).get("prob"),
            prob.as_ref(),
            "{id}: batch"
        );
    }
}
