//! Tile-coding SARSA learns MountainCar-v0: with the command line's default budget (60 000
//! steps) and seed 1, run 0's greedy policy reaches the goal faster than the 200-step limit.

use std::num::NonZeroUsize;

use rl_experiment::{ExperimentConfig, Silent, catalog, run_experiment};

#[test]
fn linear_sarsa_beats_the_time_limit_on_mountain_car() {
    let budget = catalog::default_max_steps("MountainCar-v0");
    assert_eq!(budget, 60_000, "the documented budget");
    let config = ExperimentConfig {
        runs: 1,
        seed: 1,
        ..ExperimentConfig::new(
            "MountainCar-v0",
            catalog::default_agent("MountainCar-v0"),
            budget,
        )
    };
    assert_eq!(config.agent, "linear-sarsa");
    let dir = std::env::temp_dir().join(format!("rl-mountain-car-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let make_env = || catalog::make("MountainCar-v0", None);
    let outcome = run_experiment(
        &config,
        &dir,
        &make_env,
        NonZeroUsize::MIN,
        &|| false,
        &Silent,
    )
    .expect("experiment");
    let checks = &outcome.results[0].checks;
    assert_eq!(
        checks[0].episode_return, -200.0,
        "before learning, every episode times out"
    );
    let last = checks.last().expect("checks");
    assert!(
        last.episode_return > -200.0,
        "after {budget} steps: {last:?}"
    );
    assert!(
        last.terminated > 0.5,
        "most evaluation episodes reach the goal: {last:?}"
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
