//! The batch kernels (`BatchStep::step_batch`) replay the reference files bit for bit: for
//! CartPole, MountainCar, Acrobot and Pendulum, every recorded step from its recorded state as
//! one batch (so that the kernel's blocks, compiled for the widest instruction set the
//! processor has, step them), and for Acrobot and Pendulum also every trace as one lane of a
//! batch rollout from its initial state.

use rl_core::BatchStep;
use std::path::Path;

use rand::SeedableRng;
use rl_core::Mode;
use rl_core::NumpyGenerator;
use rl_domains::acrobot::{Acrobot, AcrobotState};
use rl_domains::cartpole::{CartPole, CartPoleState};
use rl_domains::mountain_car::{MountainCar, MountainCarState};
use rl_domains::pendulum::{Pendulum, PendulumState};
use rl_reference::schema::GymnasiumStep;
use rl_reference::{ReferenceContent, load_reference_file};

fn load(name: &str) -> ReferenceContent {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference")
        .join(name);
    load_reference_file(&path)
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .content
}

/// Compares one recorded step with a batch lane's results, bit for bit.
fn check_lane(
    place: &str,
    expected: (&[f64], &[f64], f64, bool),
    actual: (&[f64], &[f32], f64, bool),
) {
    let (next_state, obs, reward, terminated) = expected;
    let (our_state, our_obs, our_reward, our_terminated) = actual;
    let bits = |values: &[f64]| {
        values
            .iter()
            .map(|value| value.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(next_state), bits(our_state), "{place}: next_state");
    let ours: Vec<f64> = our_obs.iter().map(|value| f64::from(*value)).collect();
    assert_eq!(bits(obs), bits(&ours), "{place}: obs");
    assert_eq!(reward.to_bits(), our_reward.to_bits(), "{place}: reward");
    assert_eq!(terminated, our_terminated, "{place}: terminated");
}

/// Steps every recorded step of `steps` from its recorded state, all in one batch of
/// `domain`'s kernel (observation rows of `width`), and compares each lane with the record.
/// Returns how many steps there were.
fn replay_steps_as_one_batch<D, S, A, O>(
    name: &str,
    domain: &D,
    steps: &[&GymnasiumStep<S, A, O>],
    width: usize,
    state_of: impl Fn(&S) -> D::State,
    action_of: impl Fn(&A) -> D::Action,
    values_of: impl Fn(&D::State) -> Vec<f64>,
) -> usize
where
    D: BatchStep,
    S: AsRef<[f64]>,
    O: AsRef<[f64]>,
{
    let count = steps.len();
    let mut states: Vec<D::State> = steps.iter().map(|step| state_of(&step.state)).collect();
    let actions: Vec<D::Action> = steps.iter().map(|step| action_of(&step.action)).collect();
    let mut rngs: Vec<NumpyGenerator> = (0..count as u64)
        .map(NumpyGenerator::seed_from_u64)
        .collect();
    // Flags start the other way round from most records, so that a lane left unwritten shows.
    let (mut rewards, mut terminated) = (vec![f64::NAN; count], vec![true; count]);
    let mut observations = vec![0.0f32; count * width];
    domain.step_batch(
        &mut states,
        &actions,
        Mode::Training,
        &mut rngs,
        &mut rewards,
        &mut terminated,
        &mut observations,
    );
    for (index, step) in steps.iter().enumerate() {
        check_lane(
            &format!("{name} batch step {index}"),
            (
                step.next_state.as_ref(),
                step.obs.as_ref(),
                step.reward,
                step.terminated,
            ),
            (
                &values_of(&states[index]),
                &observations[index * width..(index + 1) * width],
                rewards[index],
                terminated[index],
            ),
        );
    }
    count
}

#[test]
fn cartpole_batch_kernel_replays_every_step() {
    for name in [
        "cartpole_v1_sutton_barto.json",
        "cartpole_v1_euler.json",
        "cartpole_v1_semi_implicit.json",
    ] {
        let ReferenceContent::CartPole { params, traces } = load(name) else {
            panic!("{name} is not a CartPole file");
        };
        let domain = CartPole::new(params).expect("valid parameters");
        let steps: Vec<_> = traces.iter().flat_map(|trace| &trace.steps).collect();
        let count = replay_steps_as_one_batch(
            name,
            &domain,
            &steps,
            4,
            |state| CartPoleState::from_array(*state),
            |action| *action,
            |state| state.to_array().to_vec(),
        );
        // Several full blocks of the kernel (64 states each), not the one-by-one path.
        assert!(count >= 256, "{name}: {count} steps");
    }
}

#[test]
fn mountain_car_batch_kernel_replays_every_step() {
    let name = "mountaincar_v0.json";
    let ReferenceContent::MountainCar { params, traces } = load(name) else {
        panic!("{name} is not a MountainCar file");
    };
    let domain = MountainCar::new(params).expect("valid parameters");
    let steps: Vec<_> = traces.iter().flat_map(|trace| &trace.steps).collect();
    let count = replay_steps_as_one_batch(
        name,
        &domain,
        &steps,
        2,
        |[position, velocity]| MountainCarState {
            position: *position,
            velocity: *velocity,
        },
        |action| *action,
        |state| vec![state.position, state.velocity],
    );
    assert!(count > 1000, "{name}: {count} steps");
}

#[test]
fn acrobot_batch_kernel_replays_every_step_and_every_trace() {
    for name in ["acrobot_v1.json", "acrobot_v1_nips.json"] {
        let ReferenceContent::Acrobot { params, traces } = load(name) else {
            panic!("{name} is not an Acrobot file");
        };
        let domain = Acrobot::new(params).expect("valid parameters");

        // Every recorded step of the file, from its recorded state, as one batch.
        let steps: Vec<_> = traces.iter().flat_map(|trace| &trace.steps).collect();
        let count = replay_steps_as_one_batch(
            name,
            &domain,
            &steps,
            6,
            |state| AcrobotState::from_array(*state),
            |action| *action,
            |state| state.to_array().to_vec(),
        );
        assert!(count > 1000, "{name}: {count} steps");

        // Every trace as a lane of one batch, stepped together from the initial states.
        let lanes = traces.len();
        let mut states: Vec<AcrobotState> = traces
            .iter()
            .map(|trace| AcrobotState::from_array(trace.initial_state))
            .collect();
        let longest = traces
            .iter()
            .map(|trace| trace.steps.len())
            .max()
            .unwrap_or(0);
        let mut rngs: Vec<NumpyGenerator> = (0..lanes as u64)
            .map(NumpyGenerator::seed_from_u64)
            .collect();
        let (mut rewards, mut terminated) = (vec![0.0; lanes], vec![false; lanes]);
        let mut observations = vec![0.0f32; lanes * 6];
        for t in 0..longest {
            // A finished trace's lane keeps stepping with action 1; it is no longer compared.
            let actions: Vec<i64> = traces
                .iter()
                .map(|trace| trace.actions.get(t).copied().unwrap_or(1))
                .collect();
            domain.step_batch(
                &mut states,
                &actions,
                Mode::Training,
                &mut rngs,
                &mut rewards,
                &mut terminated,
                &mut observations,
            );
            for (lane, trace) in traces.iter().enumerate() {
                if let Some(step) = trace.steps.get(t) {
                    check_lane(
                        &format!("{name} trace {} rollout step {t}", trace.id),
                        (&step.next_state, &step.obs, step.reward, step.terminated),
                        (
                            &states[lane].to_array(),
                            &observations[lane * 6..lane * 6 + 6],
                            rewards[lane],
                            terminated[lane],
                        ),
                    );
                }
            }
        }
    }
}

#[test]
fn pendulum_batch_kernel_replays_every_step_and_every_trace() {
    for name in ["pendulum_v1.json", "pendulum_v1_g9_81.json"] {
        let ReferenceContent::Pendulum { params, traces } = load(name) else {
            panic!("{name} is not a Pendulum file");
        };
        let domain = Pendulum::new(params).expect("valid parameters");
        let state_of = |[theta, theta_dot]: [f64; 2]| PendulumState { theta, theta_dot };
        let array_of = |state: &PendulumState| [state.theta, state.theta_dot];

        let steps: Vec<_> = traces.iter().flat_map(|trace| &trace.steps).collect();
        let count = replay_steps_as_one_batch(
            name,
            &domain,
            &steps,
            3,
            |state| state_of(*state),
            |action| [action[0] as f32],
            |state| array_of(state).to_vec(),
        );
        assert!(count > 1000, "{name}: {count} steps");

        let lanes = traces.len();
        let mut states: Vec<PendulumState> = traces
            .iter()
            .map(|trace| state_of(trace.initial_state))
            .collect();
        let longest = traces
            .iter()
            .map(|trace| trace.steps.len())
            .max()
            .unwrap_or(0);
        let mut rngs: Vec<NumpyGenerator> = (0..lanes as u64)
            .map(NumpyGenerator::seed_from_u64)
            .collect();
        let (mut rewards, mut terminated) = (vec![0.0; lanes], vec![true; lanes]);
        let mut observations = vec![0.0f32; lanes * 3];
        for t in 0..longest {
            let actions: Vec<[f32; 1]> = traces
                .iter()
                .map(|trace| [trace.actions.get(t).map_or(0.0, |action| action[0] as f32)])
                .collect();
            domain.step_batch(
                &mut states,
                &actions,
                Mode::Training,
                &mut rngs,
                &mut rewards,
                &mut terminated,
                &mut observations,
            );
            for (lane, trace) in traces.iter().enumerate() {
                if let Some(step) = trace.steps.get(t) {
                    check_lane(
                        &format!("{name} trace {} rollout step {t}", trace.id),
                        (&step.next_state, &step.obs, step.reward, step.terminated),
                        (
                            &array_of(&states[lane]),
                            &observations[lane * 3..lane * 3 + 3],
                            rewards[lane],
                            terminated[lane],
                        ),
                    );
                }
            }
        }
    }
}
