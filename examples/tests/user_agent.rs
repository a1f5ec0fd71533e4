//! A user's agent, written here outside the library crates, registered by name, then run by the
//! experiment harness and the `rl` command line as a built-in is: it learns, its runs do not
//! depend on the number of threads, a removed run file is redone identically while the others
//! are kept, and the summary, learning curve and value picture are written. The agent of
//! `examples/custom_agent.rs` learns GridWorld through the same harness.

#[allow(dead_code, unreachable_pub)]
#[path = "../custom_agent.rs"]
mod custom_agent;

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Once;

use rand::SeedableRng;
use rl_core::corridor::Corridor;
use rl_core::rand::{Rng, RngExt};
use rl_core::{BoxedEnvironment, DynamicEnvironment, Simulator};
use rl_experiment::agent::{Agent, AgentContext, Experience, register_agent};
use rl_experiment::results::run_path;
use rl_experiment::{ExperimentConfig, ExperimentError, RunResult, Silent, run_experiment};
use rl_spaces::{AnyElement, AnySpace, FiniteSpace};

/// The test agent's name.
const NAME: &str = "optimistic-q";

/// Greedy Q-learning that explores through optimism: every value starts near 1 (above any
/// value reachable on the corridor and GridWorld), with a small random jitter drawn from the
/// construction seed so that ties break differently from run to run.
struct OptimisticQ {
    observation_space: AnySpace,
    actions: usize,
    discount: f64,
    values: Vec<f64>,
    /// The applicable actions last seen in each state (all until the state is visited).
    applicable: Vec<bool>,
}

impl OptimisticQ {
    fn new(context: &AgentContext<'_>) -> Result<Self, ExperimentError> {
        let AnySpace::Discrete(actions) = context.action_space else {
            return Err(ExperimentError::IncompatibleAgent {
                agent: NAME,
                reason: "it needs Discrete actions".to_owned(),
            });
        };
        let states = context.observation_space.cardinality().ok_or_else(|| {
            ExperimentError::IncompatibleAgent {
                agent: NAME,
                reason: "it needs finite observations".to_owned(),
            }
        })?;
        let actions = actions.n() as usize;
        let mut rng = rl_core::NumpyGenerator::seed_from_u64(context.seed);
        let values = (0..states * actions)
            .map(|_| 1.0 + 1e-3 * rng.random::<f64>())
            .collect();
        Ok(OptimisticQ {
            observation_space: context.observation_space.clone(),
            actions,
            discount: context.discount,
            values,
            applicable: vec![true; states * actions],
        })
    }

    fn index(&self, observation: &AnyElement) -> Result<usize, ExperimentError> {
        self.observation_space
            .index_of(observation)
            .ok_or_else(|| ExperimentError::invalid("observation", format!("{observation:?}")))
    }

    fn best(&self, state: usize, mask: Option<&[bool]>) -> Option<(usize, f64)> {
        (0..self.actions)
            .filter(|a| mask.is_none_or(|m| m[*a]))
            .map(|a| (a, self.values[state * self.actions + a]))
            .fold(None, |best, (a, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((a, v)),
            })
    }
}

impl Agent for OptimisticQ {
    fn name(&self) -> &'static str {
        NAME
    }

    fn act(
        &mut self,
        observation: &AnyElement,
        mask: Option<&[bool]>,
        _explore: bool,
        _rng: &mut dyn Rng,
    ) -> Result<AnyElement, ExperimentError> {
        let state = self.index(observation)?;
        if let Some(mask) = mask {
            self.applicable[state * self.actions..(state + 1) * self.actions].copy_from_slice(mask);
        }
        let (action, _) = self
            .best(state, mask)
            .ok_or_else(|| ExperimentError::invalid("action mask", "no applicable action"))?;
        Ok(AnyElement::Int(action as i64))
    }

    fn learn(&mut self, experience: &Experience<'_>) -> Result<(), ExperimentError> {
        let state = self.index(experience.observation)?;
        let action = experience.action.as_int().unwrap_or(0) as usize;
        let future = if experience.terminated {
            0.0
        } else {
            let next = self.index(experience.next_observation)?;
            self.best(next, experience.next_mask)
                .map_or(0.0, |(_, v)| v)
        };
        let slot = &mut self.values[state * self.actions + action];
        *slot += 0.5 * (experience.reward + self.discount * future - *slot);
        Ok(())
    }

    fn state_values(&self) -> Option<Vec<(f64, Option<usize>)>> {
        let states = self.values.len() / self.actions;
        Some(
            (0..states)
                .map(|s| {
                    let mask = &self.applicable[s * self.actions..(s + 1) * self.actions];
                    self.best(s, Some(mask))
                        .map_or((0.0, None), |(a, v)| (v, Some(a)))
                })
                .collect(),
        )
    }
}

/// Registers the built-in domains and the agent once for the whole test binary.
fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        rl_domains::register_builtins();
        register_agent(
            NAME,
            "greedy Q-learning from optimistic values",
            |context| Ok(Box::new(OptimisticQ::new(context)?) as Box<dyn Agent>),
        )
        .expect("the agent registers once");
        custom_agent::register().expect("the example's agent registers once");
    });
}

fn corridor() -> Result<BoxedEnvironment, ExperimentError> {
    Ok(DynamicEnvironment::new(Simulator::new(Corridor::new(8, 0.1)?, 0)).boxed())
}

fn config() -> ExperimentConfig {
    ExperimentConfig {
        num_policy_checks: 5,
        checks_per_policy: 5,
        runs: 3,
        seed: 5,
        ..ExperimentConfig::new("corridor", NAME, 3_000)
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-user-agent-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn threads(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).expect("positive")
}

fn comparable(results: &[RunResult]) -> Vec<RunResult> {
    results.iter().map(RunResult::without_timings).collect()
}

fn modified(path: &Path) -> std::time::SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("a modification time")
}

#[test]
fn the_user_agent_learns_resumes_and_plots_through_the_harness() {
    setup();
    let dir = scratch("harness");
    let outcome = run_experiment(&config(), &dir, &corridor, threads(2), &|| false, &Silent)
        .expect("the experiment runs");
    assert!(outcome.resumed.is_empty());
    assert_eq!(outcome.results.len(), 3);
    for result in &outcome.results {
        assert_eq!(result.config.agent, NAME);
        let (first, last) = (&result.checks[0], &result.checks[5]);
        assert_eq!(
            last.terminated, 1.0,
            "run {} learned to reach the end",
            result.run
        );
        assert!(
            last.episode_return > first.episode_return,
            "run {}: {} then {}",
            result.run,
            first.episode_return,
            last.episode_return
        );
        assert!(result.state_values.is_some());
    }
    // The construction seed differs from run to run, so the runs differ.
    assert_ne!(outcome.results[0].episodes, outcome.results[1].episodes);

    // The results JSON, the summary CSV and the learning curve, as for a built-in.
    let saved: RunResult =
        serde_json::from_str(&std::fs::read_to_string(run_path(&dir, 1)).expect("run file"))
            .expect("run JSON");
    assert_eq!(saved, outcome.results[1]);
    let csv = std::fs::read_to_string(dir.join("summary.csv")).expect("summary");
    assert_eq!(csv.lines().count(), 1 + 6, "{csv}");
    assert!(
        csv.lines()
            .nth(6)
            .expect("last check")
            .starts_with("5,3000,3,"),
        "{csv}"
    );
    let curve = std::fs::read_to_string(dir.join("learning_curve.svg")).expect("curve");
    assert!(
        curve.contains("optimistic-q on corridor (3 runs)"),
        "{curve}"
    );
    assert_eq!(curve.matches(r#"class="check""#).count(), 6);

    // One thread gives the same results.
    let single = scratch("single-thread");
    let again = run_experiment(
        &config(),
        &single,
        &corridor,
        threads(1),
        &|| false,
        &Silent,
    )
    .expect("the experiment runs");
    assert_eq!(comparable(&again.results), comparable(&outcome.results));

    // A removed run is redone identically; the others are read, not rewritten.
    let kept = modified(&run_path(&dir, 0));
    std::fs::remove_file(run_path(&dir, 1)).expect("remove a run");
    let resumed = run_experiment(&config(), &dir, &corridor, threads(2), &|| false, &Silent)
        .expect("the experiment resumes");
    assert_eq!(resumed.resumed, [0, 2]);
    assert_eq!(comparable(&resumed.results), comparable(&outcome.results));
    assert_eq!(
        kept,
        modified(&run_path(&dir, 0)),
        "a finished run is not rewritten"
    );
    assert!(run_path(&dir, 1).is_file());

    std::fs::remove_dir_all(&dir).expect("cleanup");
    std::fs::remove_dir_all(&single).expect("cleanup");
}

/// Runs the `rl` command line in-process: (exit status, standard output, standard error).
fn rl(args: &[&str]) -> (ExitCode, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut words = vec!["rl"];
    words.extend_from_slice(args);
    let code = rl_experiment::cli::run_with_args(words, &mut out, &mut err);
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("utf-8");
    (code, text(out), text(err))
}

#[test]
fn the_command_line_lists_and_runs_the_user_agent_by_name() {
    setup();
    let (code, out, _) = rl(&["list"]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        out.contains(NAME) && out.contains("greedy Q-learning from optimistic values"),
        "{out}"
    );
    let (code, _, err) = rl(&["run", "--agent", "no-such-agent"]);
    assert_eq!(code, ExitCode::from(1));
    assert!(
        err.starts_with("rl: error: unknown agent") && err.contains(NAME),
        "{err}"
    );

    let dir = scratch("command-line");
    let out_arg = dir.to_str().expect("utf-8 path");
    let run = [
        "run",
        "--domain",
        "GridWorld-4x5",
        "--agent",
        NAME,
        "--max-steps",
        "6000",
        "--runs",
        "2",
        "--out",
        out_arg,
    ];
    let (code, out, err) = rl(&run);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(
        out.starts_with("optimistic-q on GridWorld-4x5: 2 runs of 6000 steps"),
        "{out}"
    );
    assert!(
        out.contains("greedy policy from the start follows value iteration's in 2 of 2 runs"),
        "{out}"
    );
    for file in [
        "summary.csv",
        "learning_curve.svg",
        "value_function.svg",
        "run-001.json",
    ] {
        assert!(dir.join(file).is_file(), "{file} missing after:\n{out}");
    }
    let log = std::fs::read_to_string(dir.join("run-000.log")).expect("log");
    assert!(log.starts_with("run 0 starts"), "{log}");
    assert_eq!(
        log.matches("compared with value iteration: the greedy path from the start")
            .count(),
        1,
        "{log}"
    );

    // Rerunning resumes, and the comparison is not repeated in the log.
    let (code, _, err) = rl(&run);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let again = std::fs::read_to_string(dir.join("run-000.log")).expect("log");
    assert_eq!(log, again);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn the_example_agent_learns_gridworld_through_the_harness() {
    setup();
    let config = ExperimentConfig {
        num_policy_checks: 4,
        ..ExperimentConfig::new("GridWorld-4x5", custom_agent::AGENT_NAME, 20_000)
    };
    let make_env = || rl_experiment::catalog::make("GridWorld-4x5", None);
    let result =
        rl_experiment::run_once(&config, 0, &make_env, &mut [], &|| false, &|_| {}).expect("a run");
    let (first, last) = (&result.checks[0], &result.checks[4]);
    assert!(first.episode_return < 0.0, "{first:?}");
    assert!(
        last.episode_return > 0.5 && last.terminated == 1.0,
        "the greedy policy reaches the goal: {last:?}"
    );
    let error = rl_experiment::agent::make_agent(
        custom_agent::AGENT_NAME,
        Some(&serde_json::json!({"epsilon": 2.0})),
        &rl_spaces::AnySpace::from(rl_spaces::Discrete::new(3).expect("a space")),
        &rl_spaces::AnySpace::from(rl_spaces::Discrete::new(2).expect("a space")),
        0.9,
    )
    .err()
    .expect("epsilon 2 is refused");
    assert!(error.to_string().contains("epsilon"), "{error}");
}
