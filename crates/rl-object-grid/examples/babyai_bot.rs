//! Measures the BabyAI bot's success rate: for every `BabyAI-*` id (or those whose name
//! contains one of the arguments after the count), the bot alone plays `EPISODES` episodes
//! (seeds 0 to `EPISODES - 1`) and the table says how many ended with a positive reward, how
//! many ran out of time or failed the instruction, and how many the bot gave up on (its
//! errors, which minigrid's bot raises there too), per id and per level family.
//!
//! ```text
//! cargo run --release -p rlrs-object-grid --example babyai_bot -- 100
//! cargo run --release -p rlrs-object-grid --example babyai_bot -- 1000 BossLevel KeyInBox
//! ```

use std::collections::BTreeMap;

use rand::SeedableRng;
use rl_core::{Domain, Mode, NumpyGenerator};
use rl_object_grid::babyai::bot::{BabyAiBot, BotError};
use rl_object_grid::babyai::{BabyAi, ids};

/// How an episode ended.
#[derive(Default, Clone, Copy)]
struct Tally {
    episodes: usize,
    successes: usize,
    failures: usize,
    truncations: usize,
    errors: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.episodes += other.episodes;
        self.successes += other.successes;
        self.failures += other.failures;
        self.truncations += other.truncations;
        self.errors += other.errors;
    }

    fn row(&self, name: &str) -> String {
        format!(
            "{name:<40} {:>6} {:>8.2}% {:>8} {:>8} {:>8}",
            self.episodes,
            100.0 * self.successes as f64 / self.episodes.max(1) as f64,
            self.failures,
            self.truncations,
            self.errors
        )
    }
}

/// The family of an id: its name without `BabyAI-`, the version and size suffixes.
fn family(id: &str) -> String {
    let name = id.trim_start_matches("BabyAI-").trim_end_matches("-v0");
    let name = name.trim_end_matches("Debug");
    let end = name
        .char_indices()
        .skip(1)
        .find(|&(i, c)| {
            (c == 'S' || c == 'N' || c == 'R')
                && name[i + 1..].starts_with(|d: char| d.is_ascii_digit())
        })
        .map_or(name.len(), |(i, _)| i);
    name[..end].to_owned()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let episodes: u64 = args
        .next()
        .map(|count| {
            count
                .parse()
                .expect("EPISODES: a number of episodes per id")
        })
        .unwrap_or(20);
    let filters: Vec<String> = args.collect();
    let mut families: BTreeMap<String, Tally> = BTreeMap::new();
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = Tally::default();
    println!(
        "{:<40} {:>6} {:>9} {:>8} {:>8} {:>8}",
        "id", "eps", "success", "failed", "timeout", "errors"
    );
    for id in ids::IDS {
        if !filters.is_empty() && !filters.iter().any(|filter| id.contains(filter.as_str())) {
            continue;
        }
        let domain = BabyAi::for_id(id).expect("a registered id");
        let mut tally = Tally::default();
        for seed in 0..episodes {
            tally.episodes += 1;
            let mut rng = NumpyGenerator::seed_from_u64(seed);
            let mut state = domain.initial_state(Mode::Training, &mut rng);
            let mut bot = BabyAiBot::new(&domain, &state);
            let mut taken = None;
            loop {
                let action = match bot.replan(&state, taken) {
                    Ok(action) => action,
                    Err(error) => {
                        tally.errors += 1;
                        let kind = match error {
                            BotError::Assertion(what) => format!("Assertion({what})"),
                            other => format!("{other:?}"),
                        };
                        *errors.entry(kind).or_insert(0) += 1;
                        break;
                    }
                };
                let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
                if outcome.terminated {
                    if outcome.value.reward() > 0.0 {
                        tally.successes += 1;
                    } else {
                        tally.failures += 1;
                    }
                    break;
                }
                if state.is_truncated() {
                    tally.truncations += 1;
                    break;
                }
                taken = Some(action);
            }
        }
        println!("{}", tally.row(id));
        families.entry(family(id)).or_default().add(tally);
        total.add(tally);
    }
    println!("\nper family:");
    for (name, tally) in &families {
        println!("{}", tally.row(name));
    }
    println!("{}", total.row("all"));
    if !errors.is_empty() {
        println!("\nerrors:");
        for (kind, count) in &errors {
            println!("{count:>8}  {kind}");
        }
    }
}
