//! Vectors by id with `f64` observation rows (`make_vector::<AnyElement, f64>`, what the Python package
//! builds for a float64 Box: MuJoCo's ids) give each environment's `f64` observations bit for
//! bit, and every vector by id reports the domain's reset infos (`Domain::reset_info`) as
//! Gymnasium's `SyncVectorEnv` does: at a reset, and for an autoreset environment in the
//! step's infos (next-step: instead of a step's info; same-step: beside the ended step's info,
//! which goes to the final infos). The reference is a `Simulator` per environment seeded
//! `seed + i`, driven as `SyncVectorEnv` drives its environments.

use std::num::NonZeroUsize;

use rand::{Rng, RngExt};
use rl_core::registry::Registration;
use rl_core::{Domain, Environment, Info, Mode, Simulator, TransitionOutcome, Value};
use rl_spaces::{AnyElement, ArrayBox, Discrete};
use rl_wrappers::vector::{
    Autoreset, VectorEnv, VectorOptions, make_vector, needs_f64_rows, stack,
};

use crate::common::NoParams;

/// A position pushed left, not at all or right with noise: its observation (the position and
/// its square, `f64` values that `f32` rounds), a step info (the speed) and a reset info of
/// two entries (the start and its side).
#[derive(Debug, Clone)]
struct Drift {
    actions: Discrete,
    observations: ArrayBox<f64, 2>,
}

impl Domain for Drift {
    type State = (f64, f64);
    type Observation = [f64; 2];
    type Action = i64;
    type ObservationSpace = ArrayBox<f64, 2>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f64, 2> {
        &self.observations
    }

    fn action_space(&self) -> &Discrete {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _: Mode, rng: &mut R) -> (f64, f64) {
        (rng.random::<f64>() - 0.5, 0.0)
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &(f64, f64),
        action: &i64,
        _: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<(f64, f64)> {
        let speed = 0.3 * (*action as f64 - 1.0) + 0.2 * (rng.random::<f64>() - 0.5);
        let next = state.0 + speed;
        let mut outcome = TransitionOutcome::new(
            (next, speed),
            Value::from_reward(-next.abs()),
            next.abs() > 1.0,
        );
        outcome.info.insert_static("speed", speed);
        outcome
    }

    fn observe(&self, state: &(f64, f64)) -> [f64; 2] {
        [state.0, state.0 * state.0]
    }

    fn is_terminal(&self, state: &(f64, f64)) -> bool {
        state.0.abs() > 1.0
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(7)
    }

    fn reset_info(&self, state: &(f64, f64)) -> Info {
        let mut info = Info::new();
        info.insert("start", state.0);
        info.insert("right", state.0 > 0.0);
        info
    }
}

const ID: &str = "Drift-f64-rows-v0";

fn register() {
    let _ = Registration::new(ID, "a drift with f64 observations", |_: NoParams| {
        Ok::<_, rl_spaces::SpaceError>(Drift {
            actions: Discrete::new(3)?,
            observations: ArrayBox::new([-3.0, 0.0], [3.0, 9.0])?,
        })
    })
    .register();
}

fn domain() -> Drift {
    Drift {
        actions: Discrete::new(3).expect("a space"),
        observations: ArrayBox::new([-3.0, 0.0], [3.0, 9.0]).expect("a space"),
    }
}

/// One environment as `SyncVectorEnv` drives it: its observation and info after the last call,
/// and, with same-step autoreset, its final observation and info.
struct Reference {
    simulator: Simulator<Drift>,
    observation: [f64; 2],
    info: Info,
    reward: f64,
    terminated: bool,
    truncated: bool,
    ended: bool,
    final_observation: Option<([f64; 2], Info)>,
}

impl Reference {
    fn new(seed: u64) -> Reference {
        let mut simulator = Simulator::new(domain(), seed);
        let observation = simulator.reset(Mode::Training).expect("a reset");
        let info = reset_info(&simulator);
        Reference {
            simulator,
            observation,
            info,
            reward: 0.0,
            terminated: false,
            truncated: false,
            ended: false,
            final_observation: None,
        }
    }

    fn reset(&mut self) {
        self.observation = self.simulator.reset(Mode::Training).expect("a reset");
        self.info = reset_info(&self.simulator);
    }

    fn step(&mut self, action: i64, autoreset: Autoreset) {
        self.final_observation = None;
        if autoreset == Autoreset::NextStep && self.ended {
            self.reset();
            (self.reward, self.terminated, self.truncated, self.ended) = (0.0, false, false, false);
            return;
        }
        let outcome = self.simulator.step(&action).expect("a step");
        (self.observation, self.info) = (outcome.observation, outcome.info);
        (self.reward, self.terminated, self.truncated) = (
            outcome.value.reward(),
            outcome.terminated,
            outcome.truncated,
        );
        self.ended = outcome.terminated || outcome.truncated;
        if autoreset == Autoreset::SameStep && self.ended {
            let last = (self.observation, std::mem::take(&mut self.info));
            self.final_observation = Some(last);
            self.reset();
            self.ended = false;
        }
    }
}

fn reset_info(simulator: &Simulator<Drift>) -> Info {
    simulator
        .domain()
        .reset_info(simulator.state().expect("a started episode"))
}

#[test]
fn f64_rows_and_reset_infos_are_the_environments_bit_for_bit() {
    register();
    let count = NonZeroUsize::new(5).expect("non-zero");
    for autoreset in [Autoreset::NextStep, Autoreset::SameStep] {
        for threads in [1, 2] {
            let options = VectorOptions::new()
                .with_autoreset(autoreset)
                .with_threads(NonZeroUsize::new(threads).expect("non-zero"));
            // The stack the Python package steps, over `f64` rows.
            let mut vector =
                stack(make_vector::<i64, f64>(ID, None, count, 40, options).expect("by id"))
                    .expect("stacked");
            let mut references: Vec<Reference> = (0..5).map(|i| Reference::new(40 + i)).collect();
            vector.reset(Mode::Training).expect("a reset");
            let (mut rounded, mut autoresets) = (0, 0);
            for step in 0..60 {
                let context = format!("{autoreset:?}, {threads} threads, step {step}");
                let rows = vector.observations();
                for (i, reference) in references.iter().enumerate() {
                    let row: Vec<u64> = rows.row(i).iter().map(|x| x.to_bits()).collect();
                    let expected: Vec<u64> = reference.observation.map(f64::to_bits).to_vec();
                    assert_eq!(row, expected, "{context}: environment {i}");
                    rounded += usize::from(
                        reference
                            .observation
                            .iter()
                            .any(|x| f64::from(*x as f32) != *x),
                    );
                    assert_eq!(vector.infos()[i], reference.info, "{context}: info {i}");
                    assert_eq!(
                        vector.rewards()[i].to_bits(),
                        reference.reward.to_bits(),
                        "{context}: reward {i}"
                    );
                    assert_eq!(vector.terminated()[i], reference.terminated, "{context}");
                    assert_eq!(vector.truncated()[i], reference.truncated, "{context}");
                    let kept = vector.final_mask()[i];
                    assert_eq!(kept, reference.final_observation.is_some(), "{context}");
                    if let Some((observation, info)) = &reference.final_observation {
                        let row: Vec<u64> = vector
                            .final_observations()
                            .row(i)
                            .iter()
                            .map(|x| x.to_bits())
                            .collect();
                        assert_eq!(row, observation.map(f64::to_bits).to_vec(), "{context}");
                        assert_eq!(&vector.final_infos()[i], info, "{context}: final info");
                    }
                    autoresets += usize::from(reference.info.get("start").is_some() && step > 0);
                }
                let actions: Vec<i64> = (0..5).map(|i| ((step * 7 + i * 3) % 3) as i64).collect();
                vector.step(&actions).expect("a step");
                for (reference, action) in references.iter_mut().zip(&actions) {
                    reference.step(*action, autoreset);
                }
            }
            assert!(rounded > 0, "the observations are not all exact in f32");
            assert!(
                autoresets > 0,
                "{autoreset:?}: autoresets reported reset infos"
            );
        }
    }
}

#[test]
fn f32_rows_round_what_f64_rows_keep() {
    register();
    let count = NonZeroUsize::new(3).expect("non-zero");
    let options = VectorOptions::new();
    let mut wide = make_vector::<AnyElement, f64>(ID, None, count, 9, options).expect("by id");
    let mut narrow = make_vector::<i64, f32>(ID, None, count, 9, options).expect("by id");
    wide.reset(Mode::Training).expect("a reset");
    narrow.reset(Mode::Training).expect("a reset");
    for step in 0..20 {
        for (wide, narrow) in wide.observations().iter().zip(narrow.observations()) {
            assert_eq!(*narrow, *wide as f32, "step {step}");
        }
        // The reset infos of the `f32` vector are the same as those of the `f64` one.
        assert_eq!(wide.infos(), narrow.infos(), "step {step}");
        wide.step(&[AnyElement::Int(2), AnyElement::Int(0), AnyElement::Int(1)])
            .expect("a step");
        narrow.step(&[2, 0, 1]).expect("a step");
    }
    let space = rl_core::registry::build(ID, None)
        .expect("registered")
        .environment(0)
        .observation_space()
        .clone();
    assert!(needs_f64_rows(&space));
}
