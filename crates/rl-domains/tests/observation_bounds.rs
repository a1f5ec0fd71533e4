//! Regression tests (issue 17): registry parameters must not produce observations outside
//! the declared observation space. CartPole widens its space when its parameters leave
//! Gymnasium's dynamics; with Gymnasium's, the space stays Gymnasium's.

use rand::{RngExt, SeedableRng};
use rl_core::{Domain, Environment, Mode, Simulator};
use rl_domains::cartpole::{CartPole, CartPoleParams, Integrator};
use rl_spaces::Space;

/// Runs `episodes` episodes with a biased random policy per episode and returns the first
/// observation outside the declared space, if any.
fn first_observation_outside(params: CartPoleParams, episodes: usize) -> Option<[f32; 4]> {
    let domain = CartPole::new(params).expect("valid parameters");
    let space = *domain.observation_space();
    let mut env = Simulator::new(domain, 11);
    let mut rng = rl_core::NumpyGenerator::seed_from_u64(12);
    for episode in 0..episodes {
        let observation = env.reset(Mode::Training).expect("reset");
        if !space.contains(&observation) {
            return Some(observation);
        }
        let push_right = [0.0, 1.0, 0.5, 0.9][episode % 4];
        loop {
            let action = i64::from(rng.random::<f64>() < push_right);
            let outcome = env.step(&action).expect("step");
            if !space.contains(&outcome.observation) {
                return Some(outcome.observation);
            }
            if outcome.is_done() {
                break;
            }
        }
    }
    None
}

#[test]
fn a_long_time_step_stays_inside_the_widened_space() {
    // Issue 17: `tau` 0.37 gave cart positions 2.8 times past Gymnasium's bound.
    let params = CartPoleParams {
        tau: 0.37,
        ..CartPoleParams::default()
    };
    assert!(!params.has_gymnasium_dynamics());
    let domain = CartPole::new(params).expect("valid");
    assert_eq!(domain.observation_space().high(), &[f32::INFINITY; 4]);
    assert_eq!(first_observation_outside(params, 400), None);
}

#[test]
fn strong_forces_and_short_poles_stay_inside() {
    for params in [
        CartPoleParams {
            force_mag: 100.0,
            ..CartPoleParams::default()
        },
        CartPoleParams {
            masspole: 0.01,
            length: 0.05,
            ..CartPoleParams::default()
        },
        CartPoleParams {
            tau: 1.0,
            integrator: Integrator::SemiImplicitEuler,
            ..CartPoleParams::default()
        },
    ] {
        assert_eq!(first_observation_outside(params, 400), None, "{params:?}");
    }
}

#[test]
fn gymnasium_dynamics_keep_gymnasium_bounds() {
    for params in [
        CartPoleParams::default(),
        CartPoleParams {
            integrator: Integrator::SemiImplicitEuler,
            max_episode_steps: 2000,
            ..CartPoleParams::default()
        },
        CartPoleParams {
            reset_low: 0.0,
            reset_high: 0.01,
            ..CartPoleParams::default()
        },
    ] {
        assert!(params.has_gymnasium_dynamics());
        let domain = CartPole::new(params).expect("valid");
        let high = domain.observation_space().high();
        assert_eq!(high[0], 4.8);
        assert_eq!(high[1], f32::INFINITY); // Gymnasium 1.4.0's np.inf
        assert_eq!(high[2], (2.0 * params.theta_threshold_radians) as f32);
        assert_eq!(first_observation_outside(params, 400), None, "{params:?}");
    }
}

#[test]
fn subnormal_lengths_are_refused() {
    // Issue 17, found by rl-fuzz `registry-params` input 416701: `{"length": 1e-310}` divided
    // by a subnormal and gave the observation [inf, NaN, -inf, NaN], outside every Box.
    let params = CartPoleParams {
        length: 1e-310,
        ..CartPoleParams::default()
    };
    let error = CartPole::new(params).unwrap_err().to_string();
    assert!(error.contains("`length`"), "{error}");
    assert!(error.contains("[0.000001, 1000000]"), "{error}");
    let error =
        rl_domains::registry::make("CartPole-v1", Some(&serde_json::json!({"length": 1e-310})))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
    assert!(error.contains("length"), "{error}");
    // The extremes of the accepted ranges keep every observation a number.
    for params in [
        CartPoleParams {
            length: 1e-6,
            masspole: 1e6,
            force_mag: 1e6,
            tau: 1e6,
            ..CartPoleParams::default()
        },
        CartPoleParams {
            length: 1e-6,
            masspole: 1e-6,
            masscart: 1e-6,
            gravity: -1e6,
            theta_threshold_radians: 1e6,
            x_threshold: 1e6,
            max_episode_steps: 10_000,
            ..CartPoleParams::default()
        },
    ] {
        assert_eq!(first_observation_outside(params, 50), None, "{params:?}");
    }
}
