//! minigrid's BabyAI bot as the agent `bot`, two ways: through the experiment harness (what
//! `rl run --agent bot` does), then by hand on an environment built by id, writing
//! demonstrations for imitation learning: one JSON line per step with the observation (image,
//! direction, mission) and the bot's action. Run it with
//! `cargo run --release -p rl-examples --example babyai_demonstrations -- [ID] [EPISODES] [FILE.jsonl]`
//! (by default BabyAI-GoToLocal-v0, 20 episodes, demonstrations.jsonl in the current
//! directory).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use rand::SeedableRng;
use rl_core::{Environment, Mode, NumpyGenerator};
use rl_experiment::agent::{EnvironmentState, make_agent_for};
use rl_experiment::{ExperimentConfig, catalog, run_once};
use rl_spaces::JsonSpace;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("babyai_demonstrations: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let id = args
        .next()
        .unwrap_or_else(|| "BabyAI-GoToLocal-v0".to_owned());
    let episodes: u64 = args.next().map_or(Ok(20), |n| n.parse())?;
    let path = args
        .next()
        .unwrap_or_else(|| "demonstrations.jsonl".to_owned());

    // 1. Through the harness, as `rl run --domain ID --agent bot --max-steps 1 --checks 1
    //    --checks-per-policy EPISODES --runs 1` does: two policy checks of EPISODES episodes.
    let config = ExperimentConfig {
        num_policy_checks: 1,
        checks_per_policy: episodes.max(1),
        ..ExperimentConfig::new(id.as_str(), "bot", 1)
    };
    let make_env = || catalog::make_for_experiment(&config);
    let result = run_once(&config, 0, &make_env, &mut [], &|| false, &|_| {})?;
    for check in &result.checks {
        println!(
            "{id}, check at step {}: mean return {:.4} over {} episodes, {:.1}% ended, {:.1} steps",
            check.learning_steps,
            check.episode_return,
            config.checks_per_policy,
            100.0 * check.terminated,
            check.steps
        );
    }

    // 2. By hand: the same agent, given the environment's state before each action, and one
    //    JSON line per step (seed 0 for the environment; the bot draws nothing).
    let mut env = catalog::make(&id, None)?;
    env.seed(0);
    let mut agent = make_agent_for("bot", None, &env, &id)?;
    let mut rng = NumpyGenerator::seed_from_u64(0);
    let mut out = BufWriter::new(std::fs::File::create(&path)?);
    let (mut successes, mut steps_written) = (0u64, 0u64);
    for episode in 0..episodes {
        let mut observation = env.reset(Mode::Training)?;
        for step in 0.. {
            let state =
                EnvironmentState::of(&env, step).ok_or("the environment hides its state")?;
            let action = agent.act_on_state(&observation, state, None, false, &mut rng)?;
            let line = serde_json::json!({
                "episode": episode,
                "step": step,
                "observation": env.observation_space().element_to_json(&observation)?,
                "action": action.as_int(),
            });
            writeln!(out, "{line}")?;
            steps_written += 1;
            let outcome = env.step(&action)?;
            if outcome.is_done() {
                successes += u64::from(outcome.reward() > 0.0);
                break;
            }
            observation = outcome.observation;
        }
    }
    out.flush()?;
    println!(
        "wrote {path}: {steps_written} steps of {episodes} episodes of {id}, {successes} of them successes"
    );
    Ok(())
}
