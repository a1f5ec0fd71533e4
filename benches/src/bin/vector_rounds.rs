//! Steps a 1024-environment vector (one thread) a given number of rounds, and nothing else: a
//! fixed amount of work to count instructions with callgrind, the measure this noisy machine
//! gives reliably. The vectors: for Pendulum-v1 and Acrobot-v1, `typed` (the domain's own
//! actions, `SteppedVector`), `by_id` (`make_vector::<AnyElement, f32>`: the actions as
//! `AnyElement`s, checked against the action space and converted each step) and `raw` (the
//! hand-written structure-of-arrays loop); for CartPole-v1 and MountainCar-v0, `kernel` (the
//! structure-of-arrays kernel, `KernelVector`) and `typed` (the same domain stepped state by
//! state, `SteppedVector`), and for CartPole `plain` (a plain-loop kernel, no blocks) and
//! `copies` (`EnvironmentVector` of `Simulator`s);
//! for FrozenLake-v1 and Taxi-v4, `by_id` (`make_vector::<i64, f32>`, their `prob` infos; flat
//! rows: the observation one-hot) and `by_id_batched` (the same with batched rows: the index).
//!
//! ```text
//! cargo build --release -p rl-benches --bin vector_rounds
//! for rounds in 20 40; do
//!     valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$rounds \
//!         target/release/vector_rounds pendulum by_id $rounds
//! done
//! ```
//!
//! The difference of the two totals over 20 rounds of 1024 environments is the instructions of
//! one environment step, without the set-up (docs/PERFORMANCE.md, "Instructions per step").

use std::num::NonZeroUsize;
use std::process::ExitCode;

use rl_benches::raw::{RawAcrobotBatch, RawPendulumBatch};
use rl_benches::workloads::{
    ActionRows, ENVIRONMENT_SEED, acrobot, cartpole, discrete_actions, discrete_rows,
    kernel_vector, mountain_car, pendulum, run_raw_batch, run_vector, stepped_vector,
    torque_elements, torque_rows,
};
use rl_core::{Mode, Simulator};
use rl_spaces::{AnyElement, RowLayout};
use rl_wrappers::vector::{EnvironmentVector, VectorOptions, make_vector};

/// CartPole with a plain-loop kernel: each state stepped by `cartpole_step` in a loop over the
/// batch (no blocks, lanes or processor dispatch), its observation written as the block
/// kernel writes it; what the block scaffold's gain is measured against.
#[derive(Debug, Clone)]
struct PlainCartPole(rl_domains::cartpole::CartPole);

impl rl_core::Domain for PlainCartPole {
    type State = rl_domains::cartpole::CartPoleState;
    type Observation = [f32; 4];
    type Action = i64;
    type ObservationSpace = rl_spaces::ArrayBox<f32, 4>;
    type ActionSpace = rl_spaces::Discrete;
    fn observation_space(&self) -> &Self::ObservationSpace {
        self.0.observation_space()
    }
    fn action_space(&self) -> &Self::ActionSpace {
        self.0.action_space()
    }
    fn initial_state<R: rand::Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> Self::State {
        self.0.initial_state(mode, rng)
    }
    fn step<R: rand::Rng + ?Sized>(
        &self,
        state: &Self::State,
        action: &i64,
        mode: Mode,
        rng: &mut R,
    ) -> rl_core::TransitionOutcome<Self::State> {
        self.0.step(state, action, mode, rng)
    }
    fn observe(&self, state: &Self::State) -> [f32; 4] {
        self.0.observe(state)
    }
    fn is_terminal(&self, state: &Self::State) -> bool {
        self.0.is_terminal(state)
    }
    fn episode_cap(&self) -> Option<u64> {
        self.0.episode_cap()
    }
}

impl rl_core::BatchStep for PlainCartPole {
    fn step_batch<T: rl_spaces::FlatScalar>(
        &self,
        states: &mut [Self::State],
        actions: &[i64],
        _mode: Mode,
        _rngs: &mut [rl_core::NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) {
        let params = self.0.params();
        let rows = observations.chunks_exact_mut(4);
        let outputs = rewards.iter_mut().zip(terminated.iter_mut()).zip(rows);
        for ((state, action), ((reward, ended), row)) in states.iter_mut().zip(actions).zip(outputs)
        {
            let outcome = rl_domains::cartpole::cartpole_step(params, state, *action == 1);
            *state = outcome.next_state;
            *reward = outcome.value.reward();
            *ended = outcome.terminated;
            for (entry, value) in row.iter_mut().zip(state.to_observation()) {
                *entry = T::from_f64(f64::from(value));
            }
        }
    }
}

/// The environments of each vector.
const ENVS: usize = 1024;

/// Steps the `vector` of `domain` `rounds` times.
fn run(domain: &str, vector: &str, rounds: usize) -> Result<(), Box<dyn std::error::Error>> {
    let count = NonZeroUsize::new(ENVS).ok_or("no environments")?;
    let one = VectorOptions::new().with_threads(NonZeroUsize::MIN);
    match (domain, vector) {
        ("pendulum", "typed") => {
            let mut vector = stepped_vector(pendulum()?, ENVS, 1)?;
            run_vector(&mut vector, &mut torque_rows(ENVS), rounds)?;
        }
        ("acrobot", "typed") => {
            let mut vector = stepped_vector(acrobot()?, ENVS, 1)?;
            run_vector(&mut vector, &mut discrete_rows(3, ENVS), rounds)?;
        }
        ("pendulum" | "acrobot", "by_id") => {
            rl_domains::register_builtins();
            let id = if domain == "pendulum" {
                "Pendulum-v1"
            } else {
                "Acrobot-v1"
            };
            let mut vector =
                make_vector::<AnyElement, f32>(id, None, count, ENVIRONMENT_SEED, one)?;
            vector.reset(Mode::Training)?;
            let mut actions = if domain == "pendulum" {
                torque_elements(ENVS)?
            } else {
                let actions = discrete_actions(3, ENVS * 64);
                ActionRows::new(actions.into_iter().map(AnyElement::Int).collect(), ENVS)
            };
            run_vector(&mut vector, &mut actions, rounds)?;
        }
        ("cartpole" | "mountaincar", "kernel" | "typed") | ("cartpole", "plain") => {
            let actions = if domain == "cartpole" { 2 } else { 3 };
            let mut rows = discrete_rows(actions, ENVS);
            match (domain, vector) {
                ("cartpole", "plain") => {
                    let plain = PlainCartPole(cartpole()?);
                    // The plain loop gives the domain's step bit for bit, or nothing is counted.
                    let report =
                        rl_core::check_batch_step(&plain, &rl_core::CheckConfig::default());
                    if !report.is_ok() {
                        return Err(format!("the plain kernel disagrees: {report:?}").into());
                    }
                    run_vector(&mut kernel_vector(plain, ENVS, 1)?, &mut rows, rounds)?;
                }
                ("cartpole", "kernel") => {
                    run_vector(&mut kernel_vector(cartpole()?, ENVS, 1)?, &mut rows, rounds)?;
                }
                ("cartpole", _) => {
                    run_vector(
                        &mut stepped_vector(cartpole()?, ENVS, 1)?,
                        &mut rows,
                        rounds,
                    )?;
                }
                (_, "kernel") => {
                    run_vector(
                        &mut kernel_vector(mountain_car()?, ENVS, 1)?,
                        &mut rows,
                        rounds,
                    )?;
                }
                _ => {
                    run_vector(
                        &mut stepped_vector(mountain_car()?, ENVS, 1)?,
                        &mut rows,
                        rounds,
                    )?;
                }
            }
        }
        ("cartpole", "copies") => {
            let domain = cartpole()?;
            let mut copies = EnvironmentVector::<_, f32>::from_environments(
                count,
                ENVIRONMENT_SEED,
                one,
                |_| Simulator::new(domain.clone(), 0),
            )?;
            copies.reset(Mode::Training)?;
            run_vector(&mut copies, &mut discrete_rows(2, ENVS), rounds)?;
        }
        ("frozenlake" | "taxi", "by_id" | "by_id_batched") => {
            rl_domains::register_builtins();
            let (id, actions) = if domain == "frozenlake" {
                ("FrozenLake-v1", 4)
            } else {
                ("Taxi-v4", 6)
            };
            // Flat rows are the observation one-hot (Taxi's 500 entries a row); batched rows
            // its index, as the Python package lays them out.
            let options = if vector == "by_id" {
                one
            } else {
                one.with_layout(RowLayout::Batched)
            };
            let mut vector = make_vector::<i64, f32>(id, None, count, ENVIRONMENT_SEED, options)?;
            vector.reset(Mode::Training)?;
            run_vector(&mut vector, &mut discrete_rows(actions, ENVS), rounds)?;
        }
        ("pendulum", "raw") => {
            let mut batch = RawPendulumBatch::new(ENVS, ENVIRONMENT_SEED);
            run_raw_batch(&mut batch, &mut torque_rows(ENVS), rounds);
        }
        ("acrobot", "raw") => {
            let mut batch = RawAcrobotBatch::new(ENVS, ENVIRONMENT_SEED);
            run_raw_batch(&mut batch, &mut discrete_rows(3, ENVS), rounds);
        }
        _ => return Err(format!("unknown domain {domain:?} or vector {vector:?}").into()),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: vector_rounds pendulum|acrobot typed|by_id|raw ROUNDS, or \
                 vector_rounds cartpole|mountaincar kernel|typed ROUNDS, or \
                 vector_rounds cartpole plain|copies ROUNDS, or \
                 vector_rounds frozenlake|taxi by_id|by_id_batched ROUNDS";
    let [domain, vector, rounds] = args.as_slice() else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let Ok(rounds) = rounds.parse::<usize>() else {
        eprintln!("{rounds:?} is not a number of rounds; {usage}");
        return ExitCode::FAILURE;
    };
    match run(domain, vector, rounds) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("vector_rounds: {message}");
            ExitCode::FAILURE
        }
    }
}
