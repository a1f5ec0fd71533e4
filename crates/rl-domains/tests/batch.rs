//! The vector kernels (`BatchStep`) give, for every state of a batch split into chunks,
//! bit-identical next states, reward bits, termination flags and flattened observations to
//! `Domain::step` followed by `Domain::observe` and flattening.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use rl_core::{Domain, Mode};
use rl_domains::batch::ColumnState;
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState, Integrator};
use rl_domains::cartpole_fast::{FastCartPole, FastCartPoleState};
use rl_domains::mountain_car::{MountainCar, MountainCarParams, MountainCarState};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousParams, MountainCarContinuousState, StatePrecision,
};
use rl_spaces::{FlatScalar, FlattenSpace, SampleSpace};
use rl_wrappers::vector::{BatchStep, ColumnChunk, StateColumns};

/// Splits `chunk` at the given relative points (each in `0..=1000` per mille of what is
/// left), steps every part with the kernel, and returns nothing: the results land in the
/// slices, which are split alongside.
#[allow(clippy::too_many_arguments)]
fn step_in_parts<D: BatchStep, T: FlatScalar>(
    domain: &D,
    mut chunk: <D::Columns as StateColumns>::Chunk<'_>,
    mut actions: &[D::Action],
    mut rngs: &mut [Pcg64],
    mut rewards: &mut [f64],
    mut terminated: &mut [bool],
    mut observations: &mut [T],
    width: usize,
    splits: &[u16],
) {
    for split in splits {
        let mid = chunk.len() * usize::from(*split) / 1000;
        let (left, right) = chunk.split_at(mid);
        let (left_actions, right_actions) = actions.split_at(mid);
        let (left_rngs, right_rngs) = rngs.split_at_mut(mid);
        let (left_rewards, right_rewards) = rewards.split_at_mut(mid);
        let (left_terminated, right_terminated) = terminated.split_at_mut(mid);
        let (left_observations, right_observations) = observations.split_at_mut(mid * width);
        domain.step_batch(
            left,
            left_actions,
            Mode::Training,
            left_rngs,
            left_rewards,
            left_terminated,
            left_observations,
        );
        chunk = right;
        actions = right_actions;
        rngs = right_rngs;
        rewards = right_rewards;
        terminated = right_terminated;
        observations = right_observations;
    }
    domain.step_batch(
        chunk,
        actions,
        Mode::Training,
        rngs,
        rewards,
        terminated,
        observations,
    );
}

/// Steps `states` with `actions` both ways and compares every result bit for bit.
fn check_kernel<D, T, const N: usize>(
    domain: &D,
    states: &[D::State],
    actions: &[D::Action],
    splits: &[u16],
) where
    D: BatchStep,
    D::State: ColumnState<N>,
    D::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    let width = domain.observation_space().flat_dim();
    let len = states.len();
    let mut columns = D::Columns::filled(len, &D::State::default());
    for (index, state) in states.iter().enumerate() {
        columns.set(index, state);
    }
    let mut rngs: Vec<Pcg64> = (0..len as u64).map(Pcg64::seed_from_u64).collect();
    let mut rewards = vec![f64::NAN; len];
    let mut terminated = vec![false; len];
    let mut observations = vec![T::ZERO; len * width];
    step_in_parts(
        domain,
        columns.as_chunk(),
        actions,
        &mut rngs,
        &mut rewards,
        &mut terminated,
        &mut observations,
        width,
        splits,
    );

    let mut rng = Pcg64::seed_from_u64(0);
    let mut expected_row = vec![T::ZERO; width];
    for (index, (state, action)) in states.iter().zip(actions).enumerate() {
        let outcome = domain.step(state, action, Mode::Training, &mut rng);
        let expected = outcome.next_state.to_columns().map(f64::to_bits);
        assert_eq!(
            columns.get(index).to_columns().map(f64::to_bits),
            expected,
            "state {index}"
        );
        assert_eq!(
            rewards[index].to_bits(),
            outcome.value.reward().to_bits(),
            "reward {index}"
        );
        assert_eq!(terminated[index], outcome.terminated, "terminated {index}");
        let observation = domain.observe(&outcome.next_state);
        domain
            .observation_space()
            .flatten_into(&observation, &mut expected_row)
            .expect("an observation flattens");
        let row = &observations[index * width..(index + 1) * width];
        let bits = |values: &[T]| {
            values
                .iter()
                .map(|v| v.to_f64().to_bits())
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(row), bits(&expected_row), "observation {index}");
    }
}

fn cartpole_states(rng: &mut Pcg64, len: usize) -> Vec<CartPoleState> {
    (0..len)
        .map(|_| {
            CartPoleState::from_array([
                rng.random_range(-2.45..2.45),
                rng.random_range(-3.0..3.0),
                rng.random_range(-0.22..0.22),
                rng.random_range(-3.0..3.0),
            ])
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn cartpole_kernel_matches_step(seed in any::<u64>(), len in 0usize..200, splits in prop::collection::vec(0u16..=1000, 0..5), semi_implicit in any::<bool>()) {
        let params = CartPoleParams {
            integrator: if semi_implicit { Integrator::SemiImplicitEuler } else { Integrator::Euler },
            sutton_barto_reward: semi_implicit,
            ..CartPoleParams::default()
        };
        let domain = CartPole::new(params).expect("valid");
        let mut rng = Pcg64::seed_from_u64(seed);
        let states = cartpole_states(&mut rng, len);
        let actions: Vec<i64> = (0..len).map(|_| domain.action_space().sample(&mut rng)).collect();
        check_kernel::<_, f32, 4>(&domain, &states, &actions, &splits);
        check_kernel::<_, f64, 4>(&domain, &states, &actions, &splits);
    }

    #[test]
    fn fast_cartpole_kernel_matches_its_own_step(seed in any::<u64>(), len in 0usize..200, splits in prop::collection::vec(0u16..=1000, 0..5), semi_implicit in any::<bool>()) {
        let params = CartPoleParams {
            integrator: if semi_implicit { Integrator::SemiImplicitEuler } else { Integrator::Euler },
            sutton_barto_reward: semi_implicit,
            ..CartPoleParams::default()
        };
        let domain = FastCartPole::new(params).expect("valid");
        let mut rng = Pcg64::seed_from_u64(seed);
        let states: Vec<FastCartPoleState> = cartpole_states(&mut rng, len)
            .iter()
            .map(|state| FastCartPoleState::from_columns(state.to_array()))
            .collect();
        let actions: Vec<i64> = (0..len).map(|_| domain.action_space().sample(&mut rng)).collect();
        check_kernel::<_, f32, 4>(&domain, &states, &actions, &splits);
        check_kernel::<_, f64, 4>(&domain, &states, &actions, &splits);
    }

    #[test]
    fn mountain_car_kernel_matches_step(seed in any::<u64>(), len in 0usize..200, splits in prop::collection::vec(0u16..=1000, 0..5)) {
        let domain = MountainCar::new(MountainCarParams::rlpy_style()).expect("valid");
        let mut rng = Pcg64::seed_from_u64(seed);
        let states: Vec<MountainCarState> = (0..len)
            .map(|_| MountainCarState {
                position: rng.random_range(-1.2..=0.6),
                velocity: rng.random_range(-0.07..=0.07),
            })
            .collect();
        let actions: Vec<i64> = (0..len).map(|_| domain.action_space().sample(&mut rng)).collect();
        check_kernel::<_, f32, 2>(&domain, &states, &actions, &splits);
        check_kernel::<_, f64, 2>(&domain, &states, &actions, &splits);
    }

    #[test]
    fn mountain_car_continuous_kernel_matches_step(seed in any::<u64>(), len in 0usize..80, splits in prop::collection::vec(0u16..=1000, 0..5)) {
        let domain = MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
        let mut rng = Pcg64::seed_from_u64(seed);
        let states: Vec<MountainCarContinuousState> = (0..len)
            .map(|_| {
                let (position, velocity) = (rng.random_range(-1.2..=0.6), rng.random_range(-0.07..=0.07));
                if rng.random::<bool>() {
                    MountainCarContinuousState::float32(position as f32, velocity as f32)
                } else {
                    MountainCarContinuousState::float64(position, velocity)
                }
            })
            .collect();
        let actions: Vec<[f32; 1]> = (0..len).map(|_| domain.action_space().sample(&mut rng)).collect();
        check_kernel::<_, f32, 3>(&domain, &states, &actions, &splits);
        check_kernel::<_, f64, 3>(&domain, &states, &actions, &splits);
    }
}

#[test]
fn columns_store_read_and_split_states() {
    let state = CartPoleState::from_array([1.0, 2.0, 3.0, 4.0]);
    let mut columns = <CartPole as BatchStep>::Columns::filled(5, &state);
    assert_eq!(columns.len(), 5);
    assert_eq!(columns.get(4), state);
    let other = CartPoleState::from_array([-1.0, -2.0, -3.0, -4.0]);
    columns.set(2, &other);
    assert_eq!(columns.get(2), other);
    assert_eq!(columns.columns()[3], [4.0, 4.0, -4.0, 4.0, 4.0]);
    // Out of range: read as the default state, never written, never a panic.
    assert_eq!(columns.get(5), CartPoleState::default());
    columns.set(9, &other);
    assert_eq!(columns.len(), 5);
    let chunk = columns.as_chunk();
    assert_eq!(chunk.len(), 5);
    let (left, right) = chunk.split_at(2);
    assert_eq!((left.len(), right.len()), (2, 3));
    let (all, none) = right.split_at(10);
    assert_eq!((all.len(), none.len()), (3, 0));
    assert!(none.is_empty());

    let precise = MountainCarContinuousState::float32(-0.5, 0.01);
    let columns = <MountainCarContinuous as BatchStep>::Columns::filled(2, &precise);
    assert_eq!(columns.get(1), precise);
    assert_eq!(columns.get(1).precision, StatePrecision::Float32);
    let empty = <MountainCar as BatchStep>::Columns::filled(0, &MountainCarState::default());
    assert!(empty.is_empty());
}

#[test]
fn short_slices_leave_the_rest_alone() {
    // A caller breaking the equal-length rule gets no panic: the kernel stops at the
    // shortest slice.
    let domain = CartPole::new(CartPoleParams::default()).expect("valid");
    let state = CartPoleState::from_array([0.0, 0.0, 0.01, 0.0]);
    let mut columns = <CartPole as BatchStep>::Columns::filled(4, &state);
    let mut rewards = [0.0; 4];
    let mut terminated = [false; 4];
    let mut observations = [0.0f32; 16];
    domain.step_batch(
        columns.as_chunk(),
        &[1, 1],
        Mode::Training,
        &mut [],
        &mut rewards,
        &mut terminated,
        &mut observations,
    );
    assert_eq!(rewards, [1.0, 1.0, 0.0, 0.0]);
    assert_ne!(columns.get(1), state);
    assert_eq!(columns.get(2), state);
    assert_eq!(observations[8..], [0.0; 8]);
}
