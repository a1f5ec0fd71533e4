//! The batched paths of the vectors replay the reference files bit for bit: the block kernels
//! of CartPole and MountainCar (rl-core's `ByKernel`, the domain's `BatchStep`, whose blocks
//! are compiled for the widest instruction set the processor has) and the state-by-state path
//! of every other domain (`ByStep`, what `SteppedStates` and the vectors built by id step):
//! every recorded step of a file from its recorded state, all in one batch, and every trace as
//! one lane of a batch stepped from the traces' initial states.

use std::path::Path;

use rand::SeedableRng;
use rl_core::{ByKernel, ByStep, Domain, Mode, NumpyGenerator, Stepping};
use rl_domains::acrobot::{Acrobot, AcrobotState};
use rl_domains::cartpole::{CartPole, CartPoleState};
use rl_domains::mountain_car::{MountainCar, MountainCarState};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousState, StatePrecision,
};
use rl_domains::pendulum::{Pendulum, PendulumState};
use rl_reference::schema::{GymnasiumStep, GymnasiumTrace};
use rl_reference::{ReferenceContent, load_reference_file};
use rl_spaces::FlattenSpace;

fn load(name: &str) -> ReferenceContent {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference")
        .join(name);
    load_reference_file(&path)
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .content
}

/// One reference file replayed through one batched path: the domain, how the batch steps
/// (`S`), and the conversions between the file's arrays and the domain's states and actions.
struct Replay<'a, D: Domain, S> {
    name: &'a str,
    domain: D,
    stepping: S,
    /// The domain's state for a recorded array and the precision it is stored in.
    state_of: fn(&[f64], StatePrecision) -> D::State,
    /// The state's values as the file records them.
    values_of: fn(&D::State) -> Vec<f64>,
}

/// The results of one batch step, lane by lane.
struct Lanes<S> {
    states: Vec<S>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    observations: Vec<f32>,
    generators: Vec<NumpyGenerator>,
}

impl<D, S> Replay<'_, D, S>
where
    D: Domain,
    D::ObservationSpace: FlattenSpace,
    S: Stepping<D>,
{
    /// The width of an observation row.
    fn width(&self) -> usize {
        self.domain.observation_space().flat_dim()
    }

    /// Lanes holding `states`, with rewards and flags that a lane left unwritten shows.
    fn lanes(&self, states: Vec<D::State>) -> Lanes<D::State> {
        let count = states.len();
        Lanes {
            states,
            rewards: vec![f64::NAN; count],
            terminated: vec![true; count],
            observations: vec![f32::NAN; count * self.width()],
            generators: (0..count as u64)
                .map(NumpyGenerator::seed_from_u64)
                .collect(),
        }
    }

    /// Steps every lane with its action.
    fn step(&mut self, lanes: &mut Lanes<D::State>, actions: &[D::Action]) {
        self.stepping
            .step(
                &self.domain,
                &mut lanes.states,
                actions,
                Mode::Training,
                &mut lanes.generators,
                (
                    &mut lanes.rewards,
                    &mut lanes.terminated,
                    &mut lanes.observations,
                ),
                None,
                None,
            )
            .unwrap_or_else(|(lane, error)| panic!("{}: lane {lane}: {error}", self.name));
    }

    /// Compares lane `lane` with one recorded step, bit for bit.
    fn check_lane<St, A, O>(
        &self,
        place: &str,
        lanes: &Lanes<D::State>,
        lane: usize,
        step: &GymnasiumStep<St, A, O>,
    ) where
        St: AsRef<[f64]>,
        O: AsRef<[f64]>,
    {
        let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let width = self.width();
        let reached = (self.values_of)(&lanes.states[lane]);
        assert_eq!(
            bits(step.next_state.as_ref()),
            bits(&reached),
            "{place}: next_state"
        );
        let row = &lanes.observations[lane * width..(lane + 1) * width];
        let row: Vec<f64> = row.iter().map(|value| f64::from(*value)).collect();
        assert_eq!(bits(step.obs.as_ref()), bits(&row), "{place}: obs");
        let reward = lanes.rewards[lane];
        assert_eq!(step.reward.to_bits(), reward.to_bits(), "{place}: reward");
        assert_eq!(
            step.terminated, lanes.terminated[lane],
            "{place}: terminated"
        );
    }

    /// Steps every recorded step of `traces` from its recorded state, all in one batch, and
    /// compares each lane with its record; then steps every trace as a lane of one batch from
    /// the traces' initial states (a finished trace's lane keeps stepping with
    /// `idle_action`, no longer compared). Returns how many steps the first batch had.
    fn replay<St, A, O>(
        &mut self,
        traces: &[GymnasiumTrace<St, A, O>],
        action_of: fn(&A) -> D::Action,
        idle_action: D::Action,
    ) -> usize
    where
        St: AsRef<[f64]>,
        O: AsRef<[f64]>,
    {
        // Without a recorded dtype, a state is as reset left it at step 0 and float32
        // afterwards (only MountainCarContinuous's arithmetic tells the two apart).
        let precision_at = |trace: &GymnasiumTrace<St, A, O>, index: usize| match index {
            0 => trace.initial_state_dtype.unwrap_or(StatePrecision::Float64),
            _ => StatePrecision::Float32,
        };
        let steps: Vec<(StatePrecision, &GymnasiumStep<St, A, O>)> = traces
            .iter()
            .flat_map(|trace| {
                let precisions = (0..).map(move |index| precision_at(trace, index));
                precisions.zip(&trace.steps)
            })
            .map(|(precision, step)| (step.state_dtype.unwrap_or(precision), step))
            .collect();
        let states = steps
            .iter()
            .map(|(precision, step)| (self.state_of)(step.state.as_ref(), *precision))
            .collect();
        let actions: Vec<D::Action> = steps
            .iter()
            .map(|(_, step)| action_of(&step.action))
            .collect();
        let mut lanes = self.lanes(states);
        self.step(&mut lanes, &actions);
        for (lane, (_, step)) in steps.iter().enumerate() {
            self.check_lane(
                &format!("{} batch step {lane}", self.name),
                &lanes,
                lane,
                step,
            );
        }

        let initial = traces
            .iter()
            .map(|trace| (self.state_of)(trace.initial_state.as_ref(), precision_at(trace, 0)))
            .collect();
        let mut lanes = self.lanes(initial);
        let longest = traces
            .iter()
            .map(|trace| trace.steps.len())
            .max()
            .unwrap_or(0);
        for t in 0..longest {
            let actions: Vec<D::Action> = traces
                .iter()
                .map(|trace| trace.actions.get(t).map_or(idle_action.clone(), action_of))
                .collect();
            self.step(&mut lanes, &actions);
            for (lane, trace) in traces.iter().enumerate() {
                if let Some(step) = trace.steps.get(t) {
                    let place = format!("{} trace {} rollout step {t}", self.name, trace.id);
                    self.check_lane(&place, &lanes, lane, step);
                }
            }
        }
        steps.len()
    }
}

#[test]
fn cartpole_kernel_replays_every_step_and_every_trace() {
    for name in [
        "cartpole_v1_sutton_barto.json",
        "cartpole_v1_euler.json",
        "cartpole_v1_semi_implicit.json",
    ] {
        let ReferenceContent::CartPole { params, traces } = load(name) else {
            panic!("{name} is not a CartPole file");
        };
        let mut replay = Replay {
            name,
            domain: CartPole::new(params).expect("valid parameters"),
            stepping: ByKernel::default(),
            state_of: |state, _| CartPoleState::from_array(state.try_into().expect("4 values")),
            values_of: |state| state.to_array().to_vec(),
        };
        let count = replay.replay(&traces, |action| *action, 1);
        // Several full blocks of the kernel (64 states each), not the one-by-one path.
        assert!(count >= 256, "{name}: {count} steps");
    }
}

#[test]
fn mountain_car_kernel_replays_every_step_and_every_trace() {
    let name = "mountaincar_v0.json";
    let ReferenceContent::MountainCar { params, traces } = load(name) else {
        panic!("{name} is not a MountainCar file");
    };
    let mut replay = Replay {
        name,
        domain: MountainCar::new(params).expect("valid parameters"),
        stepping: ByKernel::default(),
        state_of: |state, _| MountainCarState {
            position: state[0],
            velocity: state[1],
        },
        values_of: |state| vec![state.position, state.velocity],
    };
    let count = replay.replay(&traces, |action| *action, 1);
    assert!(count > 1000, "{name}: {count} steps");
}

#[test]
fn mountain_car_continuous_steps_replay_every_step_and_every_trace() {
    let name = "mountaincar_continuous_v0.json";
    let ReferenceContent::MountainCarContinuous { params, traces } = load(name) else {
        panic!("{name} is not a MountainCarContinuous file");
    };
    let mut replay = Replay {
        name,
        domain: MountainCarContinuous::new(params).expect("valid parameters"),
        stepping: ByStep::default(),
        state_of: |state, precision| MountainCarContinuousState {
            position: state[0],
            velocity: state[1],
            precision,
        },
        values_of: |state| vec![state.position, state.velocity],
    };
    let count = replay.replay(&traces, |action| [action[0] as f32], [0.0]);
    assert!(count > 1000, "{name}: {count} steps");
}

#[test]
fn acrobot_steps_replay_every_step_and_every_trace() {
    for name in ["acrobot_v1.json", "acrobot_v1_nips.json"] {
        let ReferenceContent::Acrobot { params, traces } = load(name) else {
            panic!("{name} is not an Acrobot file");
        };
        let mut replay = Replay {
            name,
            domain: Acrobot::new(params).expect("valid parameters"),
            stepping: ByStep::default(),
            state_of: |state, precision| AcrobotState {
                precision,
                ..AcrobotState::from_array(state.try_into().expect("4 values"))
            },
            values_of: |state| state.to_array().to_vec(),
        };
        let count = replay.replay(&traces, |action| *action, 1);
        assert!(count > 1000, "{name}: {count} steps");
    }
}

#[test]
fn pendulum_steps_replay_every_step_and_every_trace() {
    for name in ["pendulum_v1.json", "pendulum_v1_g9_81.json"] {
        let ReferenceContent::Pendulum { params, traces } = load(name) else {
            panic!("{name} is not a Pendulum file");
        };
        let mut replay = Replay {
            name,
            domain: Pendulum::new(params).expect("valid parameters"),
            stepping: ByStep::default(),
            state_of: |state, _| PendulumState {
                theta: state[0],
                theta_dot: state[1],
            },
            values_of: |state| vec![state.theta, state.theta_dot],
        };
        let count = replay.replay(&traces, |action| [action[0] as f32], [0.0]);
        assert!(count > 1000, "{name}: {count} steps");
    }
}
