//! The MuJoCo ids against Gymnasium 1.4.0's recorded traces (`testdata/reference/`
//! `mujoco_v5.json` with mujoco 4.0.0 and `mujoco_v5_mujoco3.json` with mujoco 3.17.0, written
//! by `scripts/record_traces.py`; the file of the loaded library's version is used): every
//! reset (observation and info) and step (observation, reward, flags, infos) bit for bit,
//! through FNV-1a digests of 300 steps per seed and the first steps in full.
//!
//! The tests need the MuJoCo library: they find it as the crate does (`RL_MUJOCO_LIBRARY`,
//! `RL_MUJOCO_PYTHON`), else through the Python package's test venv
//! (`target/rl-python-venv`, which `crates/rl-python/venv.sh`, CI's step `venv`, makes with `mujoco` installed),
//! else through `python3`; without it they print why and pass without checking.

use std::path::{Path, PathBuf};

use ndarray::{ArrayD, IxDyn};
use rl_core::{Environment, InfoValue, Mode, Simulator, Value};
use rl_mujoco::library;
use rl_mujoco::tasks::ant::Ant;
use rl_mujoco::tasks::half_cheetah::HalfCheetah;
use rl_mujoco::tasks::hopper::Hopper;
use rl_mujoco::tasks::humanoid::Humanoid;
use rl_mujoco::tasks::humanoid_standup::HumanoidStandup;
use rl_mujoco::tasks::inverted_double_pendulum::InvertedDoublePendulum;
use rl_mujoco::tasks::inverted_pendulum::InvertedPendulum;
use rl_mujoco::tasks::pusher::Pusher;
use rl_mujoco::tasks::reacher::Reacher;
use rl_mujoco::tasks::swimmer::Swimmer;
use rl_mujoco::tasks::walker2d::Walker2d;
use rl_mujoco::{MujocoDomain, Task};
use rl_spaces::BoxSpace;
use serde_json::Value as Json;

/// The library, or `None` (after saying why) where none is found.
fn library_or_skip() -> Option<&'static library::Library> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match library::load(library::workspace_source(&workspace)) {
        Ok(library) => Some(library),
        Err(error) => {
            println!("skipping the MuJoCo traces: {error}");
            None
        }
    }
}

/// The recorded files, one per MuJoCo version they were recorded with.
const REFERENCE_FILES: [&str; 2] = ["mujoco_v5.json", "mujoco_v5_mujoco3.json"];

/// The traces recorded with the loaded library's version (or, failing that, its
/// `major.minor`), or `None` (after saying why) where none was.
fn reference(library: &library::Library) -> Option<Json> {
    let version = library.version_text();
    let minor = |text: &str| text.rsplit_once('.').map(|(head, _)| head.to_owned());
    let files: Vec<Json> = REFERENCE_FILES
        .iter()
        .map(|name| {
            let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../testdata/reference")
                .join(name);
            let text = std::fs::read_to_string(&path).expect("the MuJoCo reference traces");
            serde_json::from_str(&text).expect("valid JSON")
        })
        .collect();
    let recorded = |file: &Json| file["mujoco"].as_str().unwrap_or("").to_owned();
    let found = files
        .iter()
        .find(|file| recorded(file) == version)
        .or_else(|| {
            files
                .iter()
                .find(|file| minor(&recorded(file)) == minor(&version))
        });
    if found.is_none() {
        println!("skipping the MuJoCo traces: none was recorded with MuJoCo {version}");
    }
    found.cloned()
}

/// FNV-1a 64, as the recorder computes it.
struct Digest(u64);

impl Digest {
    fn add(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }

    fn floats(&mut self, values: impl IntoIterator<Item = f64>) {
        for value in values {
            self.add(&value.to_le_bytes());
        }
    }
}

/// The recorder's action at step `t`: a float32 sweep of the control ranges.
fn action(space: &BoxSpace<f32>, t: usize) -> ArrayD<f32> {
    let low = space.low().as_slice().expect("contiguous");
    let high = space.high().as_slice().expect("contiguous");
    let values: Vec<f32> = (0..low.len())
        .map(|j| {
            let fraction = (((t * 7 + j * 3) % 11) as f64 / 10.0) as f32;
            low[j] + (high[j] - low[j]) * fraction
        })
        .collect();
    ArrayD::from_shape_vec(IxDyn(&[values.len()]), values).expect("a vector")
}

/// An info value's floats: a number, or a list of numbers (the humanoids' tendons).
fn info_floats(value: &InfoValue) -> Vec<f64> {
    match value {
        InfoValue::Floats(list) => list.to_vec(),
        _ => vec![value.as_f64().expect("a number")],
    }
}

fn floats(values: &Json) -> Vec<f64> {
    values
        .as_array()
        .expect("an array")
        .iter()
        .map(|value| value.as_f64().expect("a number"))
        .collect()
}

/// Adds the reset info of the episode `env` just started to the digest, as the recorder
/// adds Gymnasium's.
fn reset_info_bytes<T: Task>(
    digest: &mut Digest,
    domain: &MujocoDomain<T>,
    env: &Simulator<MujocoDomain<T>>,
) {
    let info = rl_core::Domain::reset_info(domain, env.state().expect("a started episode"));
    let mut entries: Vec<(&str, &InfoValue)> = info.iter().collect();
    entries.sort_by_key(|(key, _)| *key);
    for (key, value) in entries {
        digest.add(key.as_bytes());
        digest.floats(info_floats(value));
    }
}

/// Runs one recorded seed and compares it.
fn check_run<T: Task>(id: &str, domain: &MujocoDomain<T>, steps: usize, run: &Json) {
    let seed = run["seed"].as_u64().expect("a seed");
    let mut env = Simulator::new(domain.clone(), seed);
    let space = domain.action_space_box();
    let mut digest = Digest(0xcbf2_9ce4_8422_2325);
    let observation = env.reset(Mode::Training).expect("reset");
    digest.floats(observation.iter().copied());
    reset_info_bytes(&mut digest, domain, &env);
    let first = run["first"].as_array().expect("the first steps");
    if let Some(reset) = first.first() {
        assert_eq!(
            observation.iter().copied().collect::<Vec<_>>(),
            floats(&reset["reset"]),
            "{id} seed {seed}: the reset observation"
        );
    }
    let mut episodes = 1;
    for t in 0..steps {
        let outcome = env.step(&action(space, t)).expect("step");
        digest.floats(outcome.observation.iter().copied());
        digest.floats([outcome.reward()]);
        digest.add(&[u8::from(outcome.terminated), u8::from(outcome.truncated)]);
        let mut entries: Vec<(&str, &InfoValue)> = outcome.info.iter().collect();
        entries.sort_by_key(|(key, _)| *key);
        for (key, value) in entries {
            digest.add(key.as_bytes());
            digest.floats(info_floats(value));
        }
        if let Some(expected) = first.get(t + 1) {
            let context = format!("{id} seed {seed} step {t}");
            assert_eq!(
                outcome.observation.iter().copied().collect::<Vec<_>>(),
                floats(&expected["observation"]),
                "{context}: observation"
            );
            assert_eq!(
                Value::from_reward(expected["reward"].as_f64().expect("reward")),
                outcome.value,
                "{context}: reward"
            );
            assert_eq!(outcome.terminated, expected["terminated"], "{context}");
            assert_eq!(outcome.truncated, expected["truncated"], "{context}");
            let info: serde_json::Map<String, Json> = outcome
                .info
                .iter()
                .map(|(key, value)| {
                    let value = match value {
                        InfoValue::Floats(_) => value.to_json(),
                        _ => Json::from(value.as_f64().expect("a number")),
                    };
                    (key.to_owned(), value)
                })
                .collect();
            assert_eq!(Json::Object(info), expected["info"], "{context}: info");
        }
        if outcome.is_done() {
            let observation = env.reset(Mode::Training).expect("reset");
            digest.floats(observation.iter().copied());
            reset_info_bytes(&mut digest, domain, &env);
            episodes += 1;
        }
    }
    assert_eq!(episodes, run["episodes"], "{id} seed {seed}: episodes");
    assert_eq!(
        format!("{:016x}", digest.0),
        run["digest"].as_str().expect("a digest"),
        "{id} seed {seed}: the digest of {steps} steps"
    );
}

fn check_id<T: Task>(reference: &Json, id: &str, domain: MujocoDomain<T>) {
    let steps = reference["steps"].as_u64().expect("steps") as usize;
    let runs = reference["ids"][id].as_array().expect("the id's runs");
    assert!(!runs.is_empty());
    for run in runs {
        check_run(id, &domain, steps, run);
    }
}

/// The action space as a Box, for the sweep.
trait ActionBox {
    fn action_space_box(&self) -> &BoxSpace<f32>;
}

impl<T: Task> ActionBox for MujocoDomain<T> {
    fn action_space_box(&self) -> &BoxSpace<f32> {
        rl_core::Domain::action_space(self)
    }
}

/// One test per id: its default parameters against the recorded runs.
macro_rules! matches_gymnasium {
    ($($test:ident: $id:literal => $task:ident;)*) => {$(
        #[test]
        fn $test() {
            let Some(reference) = library_or_skip().and_then(reference) else {
                return;
            };
            let domain = $task::domain(Default::default()).expect($id);
            check_id(&reference, $id, domain);
        }
    )*};
}

matches_gymnasium! {
    ant_matches_gymnasium: "Ant-v5" => Ant;
    half_cheetah_matches_gymnasium: "HalfCheetah-v5" => HalfCheetah;
    hopper_matches_gymnasium: "Hopper-v5" => Hopper;
    humanoid_matches_gymnasium: "Humanoid-v5" => Humanoid;
    humanoid_standup_matches_gymnasium: "HumanoidStandup-v5" => HumanoidStandup;
    inverted_double_pendulum_matches_gymnasium: "InvertedDoublePendulum-v5" => InvertedDoublePendulum;
    inverted_pendulum_matches_gymnasium: "InvertedPendulum-v5" => InvertedPendulum;
    pusher_matches_gymnasium: "Pusher-v5" => Pusher;
    reacher_matches_gymnasium: "Reacher-v5" => Reacher;
    swimmer_matches_gymnasium: "Swimmer-v5" => Swimmer;
    walker2d_matches_gymnasium: "Walker2d-v5" => Walker2d;
}

#[test]
fn every_id_is_recorded_and_registered() {
    rl_mujoco::register();
    for name in REFERENCE_FILES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/reference")
            .join(name);
        let text = std::fs::read_to_string(&path).expect("the MuJoCo reference traces");
        let reference: Json = serde_json::from_str(&text).expect("valid JSON");
        for id in rl_mujoco::registry::IDS {
            assert!(
                reference["ids"][id].is_array(),
                "{id} has no runs in {name}"
            );
        }
    }
    for id in rl_mujoco::registry::IDS {
        assert!(rl_core::registry::contains(id), "{id} is not registered");
    }
}
