//! The BabyAI bot beside minigrid 3.2.0's `BabyAIBot`: the episodes of
//! `testdata/reference/seeded_babyai.json` were stepped by `scripts/babyai_traces.py` with
//! minigrid's bot choosing the actions (some replaced by random ones drawn from the script's
//! master generator, the bot told of the action taken, dropped once it raised or searched too
//! much). Replaying the script's loop with our bot and the same generator gives every recorded
//! action: the bot's own, and the random ones, which are drawn only where minigrid's bot
//! suggested an action (so our bot must suggest, raise and search exactly where minigrid's
//! did). With `RL_BABYAI_TRACES` naming a longer recording (see `tests/babyai.rs`), that
//! recording is replayed too.
//!
//! The bot also solves a sample of seeds of several level families on its own, and its
//! replans allocate nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rl_core::numpy_random::{NumpyGenerator, integers, random};
use rl_core::{Domain, Mode};
use rl_object_grid::babyai::bot::{BabyAiBot, BotError};
use rl_object_grid::babyai::{BabyAi, BabyAiState};
use serde::Deserialize;

#[derive(Deserialize)]
struct Traces {
    kind: String,
    generator: Generator,
    episodes: Vec<Episode>,
}

#[derive(Deserialize)]
struct Generator {
    argv: Vec<String>,
}

#[derive(Deserialize)]
struct Episode {
    env_id: String,
    seed: i64,
    actions: Vec<i64>,
}

/// The script's settings (its argparse defaults, overridden by the recorded command line).
struct Settings {
    seed: u64,
    episodes: usize,
    steps: usize,
    random: f64,
    random_episodes: usize,
}

impl Settings {
    fn from_argv(argv: &[String]) -> Settings {
        let mut settings = Settings {
            seed: 20261127,
            episodes: 3,
            steps: 80,
            random: 0.2,
            random_episodes: 1,
        };
        let mut words = argv.iter().flat_map(|word| {
            let mut parts = word.splitn(2, '=');
            [parts.next(), parts.next()].into_iter().flatten()
        });
        while let Some(word) = words.next() {
            let mut value = || words.next().expect("an option's value").to_owned();
            match word {
                "--seed" => settings.seed = value().parse().expect("a seed"),
                "--episodes" => settings.episodes = value().parse().expect("a count"),
                "--steps" => settings.steps = value().parse().expect("a count"),
                "--random" => settings.random = value().parse().expect("a share"),
                "--random-episodes" => settings.random_episodes = value().parse().expect("a count"),
                "--out" => {
                    value();
                }
                "--ids" => {}
                _ => {}
            }
        }
        settings
    }
}

/// The script's `BFS_BUDGET`: past this many search steps in an episode the bot is dropped.
const BFS_BUDGET: u64 = 200_000;

/// What a replay found.
#[derive(Default)]
struct Replay {
    /// The first difference (the generator's draws differ after it, so the replay stops).
    difference: Option<String>,
    /// Steps whose action was the bot's, and steps in all.
    bot_steps: usize,
    steps: usize,
    /// Episodes where the bot raised (by error) or was dropped for its searches.
    errors: BTreeMap<String, usize>,
    /// Episodes per id.
    episodes: BTreeMap<String, usize>,
}

fn error_name(error: &BotError) -> String {
    let text = format!("{error:?}");
    text.split(['(', ' ', '{'])
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Replays the recording at `path` as `scripts/babyai_traces.py` made it.
fn replay(path: &Path) -> Replay {
    let text = std::fs::read_to_string(path).expect("a readable trace file");
    let traces: Traces = serde_json::from_str(&text).expect("BabyAI traces");
    assert_eq!(traces.kind, "seeded_babyai");
    let settings = Settings::from_argv(&traces.generator.argv);
    let mut master = NumpyGenerator::seed_from_u64(settings.seed);
    let mut domains: BTreeMap<String, BabyAi> = BTreeMap::new();
    let mut result = Replay::default();
    for episode in &traces.episodes {
        let number = result.episodes.entry(episode.env_id.clone()).or_insert(0);
        let share = if *number >= settings.episodes - settings.random_episodes {
            1.0
        } else {
            settings.random
        };
        *number += 1;
        let seed = integers(&mut master, 0, 1 << 31).expect("a range");
        if seed != episode.seed {
            result.difference = Some(format!(
                "{}: the master generator drew seed {seed}, the recording has {}",
                episode.env_id, episode.seed
            ));
            return result;
        }
        let domain = domains
            .entry(episode.env_id.clone())
            .or_insert_with(|| BabyAi::for_id(&episode.env_id).expect("a registered id"));
        let mut rng = NumpyGenerator::seed_from_u64(seed as u64);
        let mut state = domain.initial_state(Mode::Training, &mut rng);
        let mut bot = Some(BabyAiBot::new(domain, &state));
        let mut taken = None;
        let mut step = 0;
        for _ in 0..settings.steps {
            let mut suggested = None;
            if let Some(live) = &mut bot {
                match live.replan(&state, taken) {
                    Ok(action) => suggested = Some(action),
                    Err(error) => {
                        *result.errors.entry(error_name(&error)).or_insert(0) += 1;
                        bot = None;
                    }
                }
                if bot
                    .as_ref()
                    .is_some_and(|live| live.bfs_steps() > BFS_BUDGET)
                {
                    *result.errors.entry("BfsBudget".to_owned()).or_insert(0) += 1;
                    bot = None;
                }
            }
            let action = match suggested {
                Some(action) if random(&mut master) >= share => {
                    result.bot_steps += 1;
                    action
                }
                _ => integers(&mut master, 0, 7).expect("a range"),
            };
            let recorded = episode.actions.get(step).copied();
            if recorded != Some(action) {
                result.difference = Some(format!(
                    "{} seed {seed} step {step}: action {action} (the bot suggested \
                     {suggested:?}, plan {:?}), minigrid's {recorded:?}",
                    episode.env_id,
                    bot.as_ref().map(BabyAiBot::plan)
                ));
                return result;
            }
            let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
            taken = Some(action);
            step += 1;
            result.steps += 1;
            if outcome.terminated || state.is_truncated() {
                break;
            }
        }
        if step != episode.actions.len() {
            result.difference = Some(format!(
                "{} seed {seed}: {step} steps replayed, {} recorded",
                episode.env_id,
                episode.actions.len()
            ));
            return result;
        }
    }
    result
}

fn reference(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/reference")
        .join(name)
}

#[test]
fn babyai_bot_gives_minigrids_actions_in_the_seeded_traces() {
    let replay = replay(&reference("seeded_babyai.json"));
    assert_eq!(replay.difference, None);
    assert_eq!(replay.episodes.len(), 96, "every BabyAI id replayed");
    // A third of the actions are the bot's: the last episode of each id takes random actions
    // only (and runs longest, often to its time limit), a fifth of the others are random, and
    // an episode goes on at random once its bot raised.
    assert!(
        replay.bot_steps * 4 > replay.steps,
        "{} of {} actions were the bot's",
        replay.bot_steps,
        replay.steps
    );
    eprintln!(
        "{} steps, {} of them the bot's; bots dropped: {:?}",
        replay.steps, replay.bot_steps, replay.errors
    );
}

/// The longer recording named by `RL_BABYAI_TRACES` (nothing to do when unset).
#[test]
fn babyai_bot_gives_minigrids_actions_in_the_long_traces() {
    let Some(path) = std::env::var_os("RL_BABYAI_TRACES") else {
        return;
    };
    let replay = replay(Path::new(&path));
    assert_eq!(replay.difference, None);
    eprintln!(
        "{} steps, {} of them the bot's; bots dropped: {:?}",
        replay.steps, replay.bot_steps, replay.errors
    );
}

/// Runs the bot alone on one episode: `Ok(true)` when it ends with a positive reward.
fn solve(domain: &BabyAi, seed: u64) -> Result<bool, BotError> {
    let mut rng = NumpyGenerator::seed_from_u64(seed);
    let mut state: BabyAiState = domain.initial_state(Mode::Training, &mut rng);
    let mut bot = BabyAiBot::new(domain, &state);
    let mut taken = None;
    loop {
        let action = bot.replan(&state, taken)?;
        let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
        if outcome.terminated {
            return Ok(outcome.value.reward() > 0.0);
        }
        if state.is_truncated() {
            return Ok(false);
        }
        taken = Some(action);
    }
}

/// Levels of every kind of instruction (go to, open, pick up, put next, unlocking, sequences,
/// the random grammar) solved by the bot alone, seed after seed.
#[test]
fn babyai_bot_solves_a_sample_of_levels() {
    for (id, seeds) in [
        ("BabyAI-GoToLocal-v0", 0..20),
        ("BabyAI-GoTo-v0", 0..10),
        ("BabyAI-PickupLoc-v0", 0..10),
        ("BabyAI-PutNextLocal-v0", 0..10),
        ("BabyAI-Open-v0", 0..10),
        ("BabyAI-UnlockPickup-v0", 0..10),
        ("BabyAI-KeyCorridorS3R3-v0", 0..10),
        ("BabyAI-GoToSeq-v0", 0..10),
        ("BabyAI-SynthLoc-v0", 0..10),
        ("BabyAI-BossLevel-v0", 0..5),
    ] {
        let domain = BabyAi::for_id(id).expect("a registered id");
        for seed in seeds {
            assert_eq!(solve(&domain, seed), Ok(true), "{id} seed {seed}");
        }
    }
}

/// minigrid's bot cannot solve KeyInBox (the key lies in a box, which the bot never opens):
/// it stops with the assertion minigrid's raises (no key of the door's colour in the grid).
#[test]
fn babyai_bot_stops_with_minigrids_error_in_key_in_box() {
    let domain = BabyAi::for_id("BabyAI-KeyInBox-v0").expect("a registered id");
    let result = solve(&domain, 1);
    assert!(matches!(result, Err(BotError::Assertion(_))), "{result:?}");
}

/// What minigrid's bot cannot read raises there (a toggle said taken before any replan: its
/// `prev_fwd_cell` is not set yet); a state of another episode's size is refused; after an
/// error the bot gives it again.
#[test]
fn babyai_bot_errors_name_the_problem_and_stay() {
    let domain = BabyAi::for_id("BabyAI-GoToLocal-v0").expect("a registered id");
    let mut rng = NumpyGenerator::seed_from_u64(2);
    let state = domain.initial_state(Mode::Training, &mut rng);
    let mut bot = BabyAiBot::new(&domain, &state);
    let error = bot.replan(&state, Some(rl_object_grid::TOGGLE));
    assert!(
        matches!(error, Err(BotError::MissingMemory(_))),
        "{error:?}"
    );
    assert_eq!(bot.replan(&state, None), error);
    let larger = BabyAi::for_id("BabyAI-GoTo-v0").expect("a registered id");
    let other = larger.initial_state(Mode::Training, &mut rng);
    let mut bot = BabyAiBot::new(&domain, &state);
    let error = bot.replan(&other, None).expect_err("another grid size");
    assert_eq!(
        error,
        BotError::WrongEpisode {
            expected: (8, 8),
            found: (22, 22)
        }
    );
    assert!(error.to_string().contains("22 by 22"), "{error}");
    assert!(bot.replan(&state, None).is_ok());
}
