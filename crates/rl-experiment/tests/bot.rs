//! The agent `bot` (minigrid's BabyAI bot, `rl_experiment::agent::BabyAiBotAgent`) through the
//! harness and `rl run`: its actions are those of `BabyAiBot::replan` driven by hand on the same
//! episodes, it succeeds in every episode of small levels that minigrid's bot solves, its
//! results repeat, and it refuses the ids that are not BabyAI levels.

use std::sync::{Arc, Mutex};

use rl_core::{BoxedEnvironment, CoreError, Environment, Mode, Simulator, StepOutcome};
use rl_experiment::seeds::RunSeeds;
use rl_experiment::{CheckRecord, ExperimentConfig, ExperimentError, catalog, run_once};
use rl_object_grid::babyai::BabyAi;
use rl_object_grid::babyai::bot::BabyAiBot;
use rl_spaces::{AnyElement, AnySpace};

/// Small levels whose every seed minigrid's bot solves (the rates recorded in
/// `rl_object_grid::babyai::bot`): one room, a GoTo, a Pickup and a PutNext (which drops).
const LEVELS: [&str; 3] = [
    "BabyAI-GoToLocal-v0",
    "BabyAI-PickupLoc-v0",
    "BabyAI-PutNextLocal-v0",
];

/// The actions taken on one environment, in order, with the step at which each episode ended.
#[derive(Debug, Default, Clone, PartialEq)]
struct Log {
    actions: Vec<i64>,
    /// For each finished episode: (return, length, terminated).
    episodes: Vec<(f64, u64, bool)>,
}

/// An environment that passes everything on, its state and domain included, and writes the
/// actions taken and the episodes ended into a shared log.
struct Recorded {
    inner: BoxedEnvironment,
    log: Arc<Mutex<Log>>,
    episode: (f64, u64),
}

impl Environment for Recorded {
    type Observation = AnyElement;
    type Action = AnyElement;
    type ObservationSpace = AnySpace;
    type ActionSpace = AnySpace;

    fn observation_space(&self) -> &AnySpace {
        self.inner.observation_space()
    }
    fn action_space(&self) -> &AnySpace {
        self.inner.action_space()
    }
    fn reset(&mut self, mode: Mode) -> Result<AnyElement, CoreError> {
        self.episode = (0.0, 0);
        self.inner.reset(mode)
    }
    fn step(&mut self, action: &AnyElement) -> Result<StepOutcome<AnyElement>, CoreError> {
        let outcome = self.inner.step(action)?;
        self.episode.0 += outcome.reward();
        self.episode.1 += 1;
        let mut log = self.log.lock().expect("log");
        log.actions.push(action.as_int().expect("Discrete actions"));
        if outcome.is_done() {
            log.episodes
                .push((self.episode.0, self.episode.1, outcome.terminated));
        }
        Ok(outcome)
    }
    fn seed(&mut self, seed: u64) {
        self.inner.seed(seed);
    }
    fn mode(&self) -> Mode {
        self.inner.mode()
    }
    fn discount(&self) -> f64 {
        self.inner.discount()
    }
    fn state_any(&self) -> Option<&dyn std::any::Any> {
        self.inner.state_any()
    }
    fn domain_any(&self) -> Option<&dyn std::any::Any> {
        self.inner.domain_any()
    }
}

/// Drives minigrid's bot by hand (`BabyAiBot::new`, then `replan(state, action_taken)` at each
/// step) on the typed simulator of `id` seeded with `seed`: `episodes` whole episodes in
/// `mode`, and, when `max_steps` is given, no more steps than that in all (the last episode
/// then left unfinished, as the harness leaves it).
fn by_hand(id: &str, seed: u64, mode: Mode, episodes: usize, max_steps: Option<usize>) -> Log {
    let mut env = Simulator::new(BabyAi::for_id(id).expect("a BabyAI id"), seed);
    let mut log = Log::default();
    'episodes: for _ in 0..episodes {
        env.reset(mode).expect("reset");
        let domain = env.domain().clone();
        let mut bot = BabyAiBot::new(&domain, env.state().expect("reset"));
        let (mut taken, mut total, mut length) = (None, 0.0, 0);
        loop {
            if max_steps.is_some_and(|max| log.actions.len() >= max) {
                break 'episodes;
            }
            let action = bot
                .replan(env.state().expect("a running episode"), taken)
                .expect("minigrid's bot solves these levels");
            let outcome = env.step(&action).expect("step");
            log.actions.push(action);
            taken = Some(action);
            total += outcome.reward();
            length += 1;
            if outcome.is_done() {
                log.episodes.push((total, length, outcome.terminated));
                break;
            }
        }
    }
    log
}

/// The check record the harness writes for these episodes (its mean, population standard
/// deviation and fractions, computed in the same order).
fn check_of(episodes: &[(f64, u64, bool)]) -> (f64, f64, f64, f64) {
    let n = episodes.len() as f64;
    let returns: Vec<f64> = episodes.iter().map(|e| e.0).collect();
    let mean = returns.iter().sum::<f64>() / n;
    let variance = returns.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / n;
    let steps = episodes.iter().map(|e| e.1 as f64).sum::<f64>() / n;
    let terminated = episodes.iter().filter(|e| e.2).count() as f64 / n;
    (mean, variance.sqrt(), steps, terminated)
}

fn config(id: &str) -> ExperimentConfig {
    ExperimentConfig {
        num_policy_checks: 1,
        checks_per_policy: 4,
        ..ExperimentConfig::new(id, "bot", 60)
    }
}

#[test]
fn the_bots_actions_through_the_harness_are_babyai_bot_replans() {
    for id in LEVELS {
        let config = config(id);
        let logs: Arc<Mutex<Vec<Arc<Mutex<Log>>>>> = Arc::default();
        let make_env = || -> Result<BoxedEnvironment, ExperimentError> {
            let log = Arc::new(Mutex::new(Log::default()));
            logs.lock().expect("logs").push(Arc::clone(&log));
            Ok(Box::new(Recorded {
                inner: catalog::make_for_experiment(&config)?,
                log,
                episode: (0.0, 0),
            }))
        };
        let run = 2;
        let result = run_once(&config, run, &make_env, &mut [], &|| false, &|_| {})
            .unwrap_or_else(|error| panic!("{id}: {error}"));
        let seeds = RunSeeds::new(config.seed, run);
        let logs = logs.lock().expect("logs");
        let (learning, evaluation) = (logs[0].lock().expect("log"), logs[1].lock().expect("log"));

        // Learning: the budget's 60 steps, every one the hand-driven bot's.
        let hand = by_hand(id, seeds.environment, Mode::Training, 100, Some(60));
        assert_eq!(learning.actions, hand.actions, "{id}: learning actions");
        assert_eq!(learning.episodes, hand.episodes, "{id}: learning episodes");
        assert!(
            !hand.episodes.is_empty(),
            "{id}: an episode ended in 60 steps"
        );
        let returns: Vec<f64> = result.episodes.iter().map(|e| e.episode_return).collect();
        let expected: Vec<f64> = hand.episodes.iter().map(|e| e.0).collect();
        assert_eq!(returns, expected, "{id}: the run file's learning episodes");

        // Evaluation: two checks of 4 episodes on the evaluation environment, in order.
        let hand = by_hand(id, seeds.evaluation, Mode::EVALUATION, 8, None);
        assert_eq!(evaluation.actions, hand.actions, "{id}: evaluation actions");
        assert_eq!(
            evaluation.episodes, hand.episodes,
            "{id}: evaluation episodes"
        );
        for (check, episodes) in result.checks.iter().zip(hand.episodes.chunks(4)) {
            assert!(
                episodes
                    .iter()
                    .all(|(ret, _, terminated)| *ret > 0.0 && *terminated),
                "{id}: minigrid's bot succeeds in every episode: {episodes:?}"
            );
            let CheckRecord {
                episode_return,
                return_std,
                steps,
                terminated,
                truncated,
                ..
            } = *check;
            assert_eq!(
                (episode_return, return_std, steps, terminated, truncated),
                {
                    let (mean, std, steps, terminated) = check_of(episodes);
                    (mean, std, steps, terminated, 0.0)
                },
                "{id}: check at {} steps",
                check.learning_steps
            );
        }
        assert_eq!(result.checks.len(), 2);
    }
}

#[test]
fn rl_run_with_the_bot_succeeds_every_episode_and_repeats() {
    let dir = std::env::temp_dir().join(format!("rl-bot-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for id in ["BabyAI-GoToLocal-v0", "BabyAI-PickupLoc-v0"] {
        let mut files = Vec::new();
        for attempt in ["a", "b"] {
            let out = dir.join(format!("{id}-{attempt}"));
            let (code, stdout, stderr) = crate::rl(&[
                "run",
                "--domain",
                id,
                "--agent",
                "bot",
                "--max-steps",
                "40",
                "--checks",
                "1",
                "--checks-per-policy",
                "5",
                "--runs",
                "2",
                "--threads",
                "1",
                "--out",
                out.to_str().expect("utf-8 path"),
            ]);
            assert_eq!(code, std::process::ExitCode::SUCCESS, "{stdout}\n{stderr}");
            assert!(
                stdout.starts_with(&format!("bot on {id}: 2 runs of 40 steps")),
                "{stdout}"
            );
            assert!(
                stdout.contains("reaches the goal in 100% of evaluation episodes"),
                "{stdout}"
            );
            let runs: Vec<rl_experiment::RunResult> = (0..2)
                .map(|run| {
                    let text = std::fs::read_to_string(out.join(format!("run-{run:03}.json")))
                        .expect("a run file");
                    serde_json::from_str::<rl_experiment::RunResult>(&text)
                        .expect("a run")
                        .without_timings()
                })
                .collect();
            for run in &runs {
                for check in &run.checks {
                    assert_eq!(
                        (check.terminated, check.truncated),
                        (1.0, 0.0),
                        "{id}: {check:?}"
                    );
                    assert!(check.episode_return > 0.0, "{id}: {check:?}");
                }
                assert!(
                    run.episodes
                        .iter()
                        .all(|e| e.terminated && e.episode_return > 0.0),
                    "{id}: every learning episode succeeds: {:?}",
                    run.episodes
                );
            }
            files.push(runs);
        }
        assert_eq!(files[0], files[1], "{id}: the same results twice");
        assert_ne!(
            files[0][0].checks, files[0][1].checks,
            "{id}: two runs play other episodes"
        );
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn the_bot_refuses_ids_that_are_not_babyai_levels() {
    for id in ["CartPole-v1", "MiniGrid-Empty-5x5-v0", "GridWorld-4x5"] {
        let out = std::env::temp_dir().join(format!("rl-bot-refused-{}", std::process::id()));
        let (code, stdout, stderr) = crate::rl(&[
            "run",
            "--domain",
            id,
            "--agent",
            "bot",
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        assert_ne!(code, std::process::ExitCode::SUCCESS, "{stdout}");
        assert!(
            stderr.contains("agent bot cannot run here")
                && stderr.contains(&format!(
                    "BabyAI levels only (the BabyAI-* ids of `rl list`), not {id}"
                )),
            "{id}: {stderr}"
        );
        assert!(stdout.is_empty(), "{id}: nothing is run: {stdout}");
        assert!(!out.exists(), "{id}: nothing is written");
    }
    // Through the library too, before any environment is stepped.
    let env = catalog::make("CartPole-v1", None).expect("CartPole");
    let error = rl_experiment::agent::make_agent_for("bot", None, &env, "CartPole-v1")
        .err()
        .expect("refused");
    assert!(matches!(
        error,
        ExperimentError::IncompatibleAgent { agent: "bot", .. }
    ));
    // A BabyAI level's environment that does not pass its state on: the harness says so.
    let config = config("BabyAI-GoToLocal-v0");
    let hidden = || -> Result<BoxedEnvironment, ExperimentError> {
        Ok(Box::new(Hidden(catalog::make_for_experiment(&config)?)))
    };
    let error = run_once(&config, 0, &hidden, &mut [], &|| false, &|_| {}).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("state, which this environment does not give"),
        "{error}"
    );
}

#[test]
fn where_minigrids_bot_raises_the_bot_gives_up_the_episode_or_fails_the_run() {
    // KeyInBox: its key lies in a box, and minigrid's bot fails an assertion in every episode.
    let id = "BabyAI-KeyInBox-v0";
    let config = ExperimentConfig {
        checks_per_policy: 2,
        ..config(id)
    };
    let make_env = || catalog::make_for_experiment(&config);
    let result = run_once(&config, 0, &make_env, &mut [], &|| false, &|_| {}).expect("given up");
    for check in &result.checks {
        assert_eq!(
            (check.episode_return, check.terminated, check.truncated),
            (0.0, 0.0, 1.0),
            "given up episodes end at the time limit, failed: {check:?}"
        );
    }
    let failing = ExperimentConfig {
        agent_params: Some(serde_json::json!({"on_error": "fail"})),
        ..config.clone()
    };
    let make_env = || catalog::make_for_experiment(&failing);
    let error = run_once(&failing, 0, &make_env, &mut [], &|| false, &|_| {}).unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, ExperimentError::AgentFailed { agent: "bot", .. })
            && message.contains("evaluation episode of BabyAI-KeyInBox-v0")
            && message.contains("the bot's assertion failed"),
        "{message}"
    );
    let unknown = ExperimentConfig {
        agent_params: Some(serde_json::json!({"on_eror": "fail"})),
        ..config.clone()
    };
    let make_env = || catalog::make_for_experiment(&unknown);
    let error = run_once(&unknown, 0, &make_env, &mut [], &|| false, &|_| {}).unwrap_err();
    assert!(error.to_string().contains("on_eror"), "{error}");
}

/// A wrapper that hides the state (as a wrapper that does not pass `state_any` on does).
struct Hidden(BoxedEnvironment);

impl Environment for Hidden {
    type Observation = AnyElement;
    type Action = AnyElement;
    type ObservationSpace = AnySpace;
    type ActionSpace = AnySpace;

    fn observation_space(&self) -> &AnySpace {
        self.0.observation_space()
    }
    fn action_space(&self) -> &AnySpace {
        self.0.action_space()
    }
    fn reset(&mut self, mode: Mode) -> Result<AnyElement, CoreError> {
        self.0.reset(mode)
    }
    fn step(&mut self, action: &AnyElement) -> Result<StepOutcome<AnyElement>, CoreError> {
        self.0.step(action)
    }
    fn seed(&mut self, seed: u64) {
        self.0.seed(seed);
    }
    fn mode(&self) -> Mode {
        self.0.mode()
    }
    fn domain_any(&self) -> Option<&dyn std::any::Any> {
        self.0.domain_any()
    }
}

#[test]
fn rl_render_records_an_episode_of_the_bot() {
    let dir = std::env::temp_dir().join(format!("rl-bot-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let gif = dir.join("bot.gif");
    let (code, stdout, stderr) = crate::rl(&[
        "render",
        "--domain",
        "BabyAI-GoToLocal-v0",
        "--episode",
        "--agent",
        "bot",
        "--seed",
        "3",
        "--out",
        gif.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(code, std::process::ExitCode::SUCCESS, "{stdout}\n{stderr}");
    // The same episode by hand: the environment built by id, seeded with 3, in training mode.
    let hand = by_hand("BabyAI-GoToLocal-v0", 3, Mode::Training, 1, None);
    let (ret, length, _) = hand.episodes[0];
    assert!(ret > 0.0);
    assert!(
        stdout.contains(&format!(
            "{} steps of BabyAI-GoToLocal-v0 with the bot agent, return {ret}",
            length
        )),
        "{stdout}"
    );
    assert!(std::fs::metadata(&gif).expect("the GIF").len() > 0);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
