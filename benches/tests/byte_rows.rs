//! Vectors by id with `u8` observation rows (`make_vector::<i64, u8>`, what the Python
//! package builds for MiniGrid's and BabyAI's ids, whose every row entry is a byte): each row
//! is, byte for byte, the observation of a single environment of the id seeded `seed + i` and
//! driven as Gymnasium's `SyncVectorEnv` drives its environments (both autoreset modes, one and
//! two threads: all four combinations where episodes end), for RGB pictures of the view and of
//! the whole grid, the encoded view and a BabyAI level; the image column holds the
//! observation's image bytes themselves. Ids whose rows are not bytes are refused, not
//! rounded. (In rl-benches, which depends on rl-wrappers and rl-object-grid.)

use std::num::NonZeroUsize;

use rl_core::registry::RegisteredDomain;
use rl_core::{BoxedEnvironment, Mode};
use rl_spaces::{AnyArray, AnyElement, AnySpace, ColumnKey, Columns, FlattenSpace, RowLayout};
use rl_wrappers::VectorError;
use rl_wrappers::vector::{Autoreset, VectorEnv, VectorOptions, fits_u8_rows, make_vector, stack};
use serde_json::{Value, json};

const ENVS: usize = 4;
const STEPS: usize = 130;
const SEED: u64 = 17;

/// One environment as `SyncVectorEnv` drives it: its observation after the last call and,
/// with same-step autoreset, the final observation of an episode that ended on it.
struct Reference {
    environment: BoxedEnvironment,
    observation: AnyElement,
    ended: bool,
    final_observation: Option<AnyElement>,
}

impl Reference {
    fn new(domain: &dyn RegisteredDomain, seed: u64) -> Reference {
        let mut environment = domain.environment(seed);
        let observation = environment.reset(Mode::Training).expect("a reset");
        Reference {
            environment,
            observation,
            ended: false,
            final_observation: None,
        }
    }

    /// Steps with `action` as `SyncVectorEnv` does in `autoreset` mode; returns whether the
    /// episode ended on this step.
    fn step(&mut self, action: i64, autoreset: Autoreset) -> bool {
        self.final_observation = None;
        if autoreset == Autoreset::NextStep && self.ended {
            self.observation = self.environment.reset(Mode::Training).expect("a reset");
            self.ended = false;
            return false;
        }
        let outcome = self
            .environment
            .step(&AnyElement::Int(action))
            .expect("a step");
        self.observation = outcome.observation;
        self.ended = outcome.terminated || outcome.truncated;
        if autoreset == Autoreset::SameStep && self.ended {
            let reset = self.environment.reset(Mode::Training).expect("a reset");
            self.final_observation = Some(std::mem::replace(&mut self.observation, reset));
            self.ended = false;
            return true;
        }
        self.ended
    }
}

/// The bytes of `observation` as a batched row of `space` (rl-spaces' own writer of the
/// element, not the domain's row writer that the vector runs).
fn expected_row(space: &AnySpace, observation: &AnyElement) -> Vec<u8> {
    let mut row = vec![0u8; space.row_dim(RowLayout::Batched)];
    space
        .write_row(RowLayout::Batched, observation, &mut row)
        .expect("an observation of the space");
    // The same row in f64, so that no entry was saturated into a byte.
    let mut wide = vec![0.0f64; row.len()];
    space
        .write_row(RowLayout::Batched, observation, &mut wide)
        .expect("an observation of the space");
    assert!(
        row.iter().zip(&wide).all(|(b, w)| f64::from(*b) == *w),
        "every entry of the row is a byte"
    );
    row
}

/// The image bytes of a MiniGrid observation (its `image` entry).
fn image_bytes(observation: &AnyElement) -> Vec<u8> {
    let AnyElement::Dict(entries) = observation else {
        panic!("a MiniGrid observation is a Dict, not {observation}");
    };
    match entries.get("image").and_then(AnyElement::as_array) {
        Some(AnyArray::U8(image)) => image.iter().copied().collect(),
        other => panic!("the image is a uint8 array, not {other:?}"),
    }
}

/// Steps a `u8`-row vector of `id` with `params` (the Python package's stack) beside a single
/// environment per slot, checking every row, final row and image byte; returns how many
/// episodes ended.
fn check(id: &str, params: &Value, autoreset: Autoreset, threads: usize) -> usize {
    let domain = rl_core::registry::build(id, Some(params)).expect("a registered id");
    let space = domain.environment(0).observation_space().clone();
    assert!(
        fits_u8_rows(&space, RowLayout::Batched),
        "{id}: rows of bytes"
    );
    let columns = Columns::of(&space).expect("columns");
    let image = columns
        .columns()
        .iter()
        .find(|column| column.path == [ColumnKey::Key("image".to_owned())])
        .expect("an image column")
        .clone();
    let options = VectorOptions::new()
        .with_autoreset(autoreset)
        .with_threads(NonZeroUsize::new(threads).expect("non-zero"))
        .with_layout(RowLayout::Batched);
    let count = NonZeroUsize::new(ENVS).expect("non-zero");
    let mut vector =
        stack(make_vector::<i64, u8>(id, Some(params), count, SEED, options).expect("a u8 vector"))
            .expect("stacked");
    let n = vector.action_space().n() as i64;
    let mut references: Vec<Reference> = (0..ENVS)
        .map(|i| Reference::new(domain.as_ref(), SEED + i as u64))
        .collect();
    vector.reset(Mode::Training).expect("a reset");
    let mut ended = 0;
    for step in 0..=STEPS {
        let context = format!("{id} {params}, {autoreset:?}, {threads} threads, step {step}");
        for (i, reference) in references.iter().enumerate() {
            let row = vector.observations().row(i).to_vec();
            assert_eq!(
                row,
                expected_row(&space, &reference.observation),
                "{context}: environment {i}"
            );
            assert_eq!(
                row[image.offset..image.offset + image.width],
                image_bytes(&reference.observation)[..],
                "{context}: environment {i}'s image"
            );
            assert_eq!(
                vector.final_mask()[i],
                reference.final_observation.is_some(),
                "{context}: final mask {i}"
            );
            if let Some(last) = &reference.final_observation {
                assert_eq!(
                    vector.final_observations().row(i).to_vec(),
                    expected_row(&space, last),
                    "{context}: final observation {i}"
                );
            }
        }
        let actions: Vec<i64> = (0..ENVS)
            .map(|i| ((step * 5 + i * 3 + step / 7) as i64) % n)
            .collect();
        vector.step(&actions).expect("a step");
        for (i, (reference, action)) in references.iter_mut().zip(&actions).enumerate() {
            let ended_here = reference.step(*action, autoreset);
            ended += usize::from(ended_here);
            let done = vector.terminated()[i] || vector.truncated()[i];
            assert_eq!(
                done, ended_here,
                "{id}: environment {i} ends with its reference"
            );
        }
    }
    ended
}

#[test]
fn u8_rows_are_the_single_environments_observations_byte_for_byte() {
    rl_object_grid::register();
    let cases = [
        // Truncated at 100 steps: autoresets are crossed.
        ("MiniGrid-Empty-5x5-v0", json!({"image": "rgb_partial"})),
        ("MiniGrid-DoorKey-8x8-v0", json!({"image": "rgb_partial"})),
        (
            "MiniGrid-DoorKey-5x5-v0",
            json!({"image": "rgb_full", "image_tile_size": 5}),
        ),
        ("MiniGrid-FourRooms-v0", json!({})),
        ("BabyAI-GoToRedBallNoDists-v0", json!({})),
    ];
    for (id, params) in &cases {
        let crossing = *id == "MiniGrid-Empty-5x5-v0";
        for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
            for threads in [1, 2] {
                // Every combination where episodes end; one of each mode elsewhere (the test
                // profile draws slowly).
                if !crossing && (threads == 2) == (autoreset == Autoreset::NextStep) {
                    continue;
                }
                let ended = check(id, params, autoreset, threads);
                if crossing {
                    assert!(ended >= ENVS, "{id}: every episode ended at least once");
                }
            }
        }
    }
}

#[test]
fn u8_rows_equal_f32_rows() {
    rl_object_grid::register();
    let params = json!({"image": "rgb_partial"});
    let id = "MiniGrid-Empty-5x5-v0";
    let count = NonZeroUsize::new(3).expect("non-zero");
    let options = VectorOptions::new().with_layout(RowLayout::Batched);
    let mut bytes = make_vector::<i64, u8>(id, Some(&params), count, 3, options).expect("u8");
    let mut floats = make_vector::<i64, f32>(id, Some(&params), count, 3, options).expect("f32");
    bytes.reset(Mode::Training).expect("a reset");
    floats.reset(Mode::Training).expect("a reset");
    for step in 0..120 {
        let same = bytes
            .observations()
            .iter()
            .zip(floats.observations())
            .all(|(b, f)| f32::from(*b) == *f);
        assert!(same, "step {step}");
        let actions = [step % 3, (step + 1) % 3, 2];
        bytes.step(&actions).expect("a step");
        floats.step(&actions).expect("a step");
    }
}

#[test]
fn ids_whose_rows_are_not_bytes_are_refused() {
    rl_domains::register_builtins();
    let count = NonZeroUsize::new(2).expect("non-zero");
    let batched = VectorOptions::new().with_layout(RowLayout::Batched);
    // CartPole's floats, and Taxi's 500 states as one index each.
    for (id, options) in [("CartPole-v1", VectorOptions::new()), ("Taxi-v4", batched)] {
        match make_vector::<AnyElement, u8>(id, None, count, 0, options) {
            Err(VectorError::InvalidParameter { reason, .. }) => {
                assert!(reason.contains("not bytes"), "{id}: {reason}");
            }
            other => panic!("{id}: expected a refusal, got {:?}", other.map(|_| ())),
        }
    }
    // Taxi's one-hot rows are bytes.
    assert!(make_vector::<AnyElement, u8>("Taxi-v4", None, count, 0, VectorOptions::new()).is_ok());
}
