//! The batch kernels (`BlockStep`, so `BatchStep`) give, for every state of a batch split into
//! runs (blocks, partial blocks and batches small enough to be stepped one by one),
//! bit-identical next states, reward bits, termination flags and flattened observations to
//! `Domain::step` followed by `Domain::observe` and flattening.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rl_core::NumpyGenerator;
use rl_core::{BatchStep, Domain, KernelScratch, Mode};
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState, Integrator};
use rl_domains::cartpole_fast::{FastCartPole, FastCartPoleState};
use rl_domains::mountain_car::{MountainCar, MountainCarParams, MountainCarState};
use rl_spaces::{FlatScalar, FlattenSpace, SampleSpace};

/// Splits `states` at the given relative points (each in `0..=1000` per mille of what is
/// left), steps every part with the kernel, and returns nothing: the results land in the
/// slices, which are split alongside. Every other part, the last included, is stepped by
/// `step_batch_with` with one scratch kept across the parts, as a vector's share keeps it
/// between steps: lanes left from a longer part before a partial block change nothing.
#[allow(clippy::too_many_arguments)]
fn step_in_parts<D: BatchStep, T: FlatScalar>(
    domain: &D,
    mut states: &mut [D::State],
    mut actions: &[D::Action],
    mut rngs: &mut [NumpyGenerator],
    mut rewards: &mut [f64],
    mut terminated: &mut [bool],
    mut observations: &mut [T],
    width: usize,
    splits: &[u16],
) {
    let mut scratch = KernelScratch::default();
    for (k, split) in splits.iter().enumerate() {
        let mid = states.len() * usize::from(*split) / 1000;
        let (left, right) = states.split_at_mut(mid);
        let (left_actions, right_actions) = actions.split_at(mid);
        let (left_rngs, right_rngs) = rngs.split_at_mut(mid);
        let (left_rewards, right_rewards) = rewards.split_at_mut(mid);
        let (left_terminated, right_terminated) = terminated.split_at_mut(mid);
        let (left_observations, right_observations) = observations.split_at_mut(mid * width);
        if k % 2 == 0 {
            domain.step_batch_with(
                &mut scratch,
                left,
                left_actions,
                Mode::Training,
                left_rngs,
                left_rewards,
                left_terminated,
                left_observations,
            );
        } else {
            domain.step_batch(
                left,
                left_actions,
                Mode::Training,
                left_rngs,
                left_rewards,
                left_terminated,
                left_observations,
            );
        }
        states = right;
        actions = right_actions;
        rngs = right_rngs;
        rewards = right_rewards;
        terminated = right_terminated;
        observations = right_observations;
    }
    domain.step_batch_with(
        &mut scratch,
        states,
        actions,
        Mode::Training,
        rngs,
        rewards,
        terminated,
        observations,
    );
}

/// Steps `states` with `actions` both ways and compares every result bit for bit.
fn check_kernel<D, T>(domain: &D, states: &[D::State], actions: &[D::Action], splits: &[u16])
where
    D: BatchStep,
    D::ObservationSpace: FlattenSpace,
    T: FlatScalar,
{
    let width = domain.observation_space().flat_dim();
    let len = states.len();
    let mut stepped = states.to_vec();
    let mut rngs: Vec<NumpyGenerator> =
        (0..len as u64).map(NumpyGenerator::seed_from_u64).collect();
    let mut rewards = vec![f64::NAN; len];
    let mut terminated = vec![false; len];
    let mut observations = vec![T::ZERO; len * width];
    step_in_parts(
        domain,
        &mut stepped,
        actions,
        &mut rngs,
        &mut rewards,
        &mut terminated,
        &mut observations,
        width,
        splits,
    );

    let mut rng = NumpyGenerator::seed_from_u64(0);
    let mut expected_row = vec![T::ZERO; width];
    for (index, (state, action)) in states.iter().zip(actions).enumerate() {
        let outcome = domain.step(state, action, Mode::Training, &mut rng);
        // The debug form of a float is exact (it reads back to the same bits).
        assert_eq!(
            format!("{:?}", stepped[index]),
            format!("{:?}", outcome.next_state),
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

fn cartpole_states(rng: &mut NumpyGenerator, len: usize) -> Vec<CartPoleState> {
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
        let mut rng = NumpyGenerator::seed_from_u64(seed);
        let states = cartpole_states(&mut rng, len);
        let actions: Vec<i64> = (0..len).map(|_| domain.action_space().sample(&mut rng)).collect();
        check_kernel::<_, f32>(&domain, &states, &actions, &splits);
        check_kernel::<_, f64>(&domain, &states, &actions, &splits);
    }

    #[test]
    fn fast_cartpole_kernel_matches_its_own_step(seed in any::<u64>(), len in 0usize..200, splits in prop::collection::vec(0u16..=1000, 0..5), semi_implicit in any::<bool>()) {
        let params = CartPoleParams {
            integrator: if semi_implicit { Integrator::SemiImplicitEuler } else { Integrator::Euler },
            sutton_barto_reward: semi_implicit,
            ..CartPoleParams::default()
        };
        let domain = FastCartPole::new(params).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(seed);
        let states: Vec<FastCartPoleState> = cartpole_states(&mut rng, len)
            .iter()
            .map(|state| {
                let [x, x_dot, theta, theta_dot] = state.to_array().map(|value| value as f32);
                FastCartPoleState { x, x_dot, theta, theta_dot }
            })
            .collect();
        let actions: Vec<i64> = (0..len).map(|_| domain.action_space().sample(&mut rng)).collect();
        check_kernel::<_, f32>(&domain, &states, &actions, &splits);
        check_kernel::<_, f64>(&domain, &states, &actions, &splits);
    }

    #[test]
    fn mountain_car_kernel_matches_step(seed in any::<u64>(), len in 0usize..200, splits in prop::collection::vec(0u16..=1000, 0..5)) {
        let domain = MountainCar::new(MountainCarParams::rlpy_style()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(seed);
        let states: Vec<MountainCarState> = (0..len)
            .map(|_| MountainCarState {
                position: rng.random_range(-1.2..=0.6),
                velocity: rng.random_range(-0.07..=0.07),
            })
            .collect();
        let actions: Vec<i64> = (0..len).map(|_| domain.action_space().sample(&mut rng)).collect();
        check_kernel::<_, f32>(&domain, &states, &actions, &splits);
        check_kernel::<_, f64>(&domain, &states, &actions, &splits);
    }
}

#[test]
fn slices_of_different_lengths_panic_with_their_lengths() {
    // Issue 32: a caller breaking the equal-length rule used to get some states stepped and
    // the others silently left alone; it is a bug of the caller, reported with the lengths.
    fn message(call: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let payload = std::panic::catch_unwind(call).expect_err("mismatched slices must panic");
        payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default()
    }
    let cartpole = CartPole::new(CartPoleParams::default()).expect("valid");
    let text = message(move || {
        let mut states = [CartPoleState::from_array([0.0, 0.0, 0.01, 0.0]); 4];
        cartpole.step_batch(
            &mut states,
            &[1, 1],
            Mode::Training,
            &mut [],
            &mut [0.0; 4],
            &mut [false; 4],
            &mut [0.0f32; 16],
        );
    });
    assert!(text.contains("4 states, 2 actions"), "{text}");
    // Enough states for blocks: the lengths are checked before the blocks are cut.
    let car = MountainCar::new(MountainCarParams::default()).expect("valid");
    let text = message(move || {
        let mut states = [MountainCarState::default(); 100];
        car.step_batch(
            &mut states,
            &[1; 100],
            Mode::Training,
            &mut [],
            &mut [0.0; 100],
            &mut [false; 100],
            &mut [0.0f32; 300],
        );
    });
    assert!(
        text.contains("300 observation entries (rows of 2)"),
        "{text}"
    );
}
