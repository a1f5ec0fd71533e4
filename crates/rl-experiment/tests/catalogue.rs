//! The environment catalogue is generated from the registry and must be current (issue 30):
//! `docs/catalogue.md`, an index of every registered id (family, spaces, episode cap, what the
//! registration declares, the learning defaults), and one page per family in
//! `docs/catalogue/FAMILY.md` (a GIF of an episode, then each id's spaces, episode end,
//! parameters, pictures, vectors, `rl run` defaults and the family's versions). This test
//! builds them from every registered id and compares them with the checked-in files, and
//! checks that every GIF a page shows exists (and that no other GIF lies there), and that the
//! `rl render --episode` command a page names writes its GIF byte for byte (for the smallest
//! GIF; drawing them all is for the write mode). To write the
//! pages and the GIFs again after registering or changing an id:
//!
//! ```text
//! RL_WRITE_CATALOGUE=1 cargo test -p rlrs-experiment --test suite catalogue
//! ```
//!
//! The GIFs are episodes of seeded random actions (`rl render --episode`, the command each
//! page names), so they are the same bytes on every run; CI draws only the smallest again.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rl_core::{BatchStates, Environment};
use rl_experiment::builtins as registry;

/// A yes/no cell.
fn yes(flag: bool) -> &'static str {
    if flag { "yes" } else { "-" }
}

/// The most steps of a family page's GIF episode.
const GIF_STEPS: u64 = 60;

/// The widest a family page's GIF is, in pixels (a domain's frames are scaled down to it).
const GIF_WIDTH: u32 = 160;

/// The GIFs' frame rate.
const GIF_FPS: u32 = 15;

/// The command that writes the catalogue again.
const WRITE_COMMAND: &str =
    "RL_WRITE_CATALOGUE=1 cargo test -p rlrs-experiment --test suite catalogue";

/// The GIF a family page shows: an episode of `id` drawn at `size`.
struct Gif {
    /// The id recorded.
    id: String,
    /// The frame size, width by height.
    size: (u32, u32),
}

impl Gif {
    /// The file's name, in `docs/catalogue/`.
    fn file_name(&self) -> String {
        format!("{}.gif", self.id)
    }

    /// The `rl` command line that writes it.
    fn command(&self) -> String {
        format!(
            "rl render --domain {} --episode --seed 0 --max-steps {GIF_STEPS} --size {}x{} --fps {GIF_FPS} --out docs/catalogue/{}",
            self.id,
            self.size.0,
            self.size.1,
            self.file_name()
        )
    }
}

/// One family's page.
struct Page {
    /// The family (the ids' common prefix, `rl_core::registry::family`).
    family: String,
    /// The page's Markdown.
    markdown: String,
    /// Its GIF, when the family's first id draws frames.
    gif: Option<Gif>,
}

/// What one id's row and section say.
struct IdFacts {
    id: String,
    description: String,
    observation_space: String,
    action_space: String,
    cap: String,
    discount: f64,
    has_state: bool,
    has_text: bool,
    frame_size: Option<(u32, u32)>,
    kernel: bool,
    transitions: bool,
    agent: String,
    threshold: String,
    play: String,
    parameters: Option<Vec<String>>,
}

/// The facts of every registered id but the tests' own, grouped by family in the order of each
/// family's first id.
fn families() -> Vec<(String, Vec<IdFacts>)> {
    registry::register_builtins();
    let mut families: Vec<(String, Vec<IdFacts>)> = Vec::new();
    for entry in registry::list() {
        let id = entry.id.as_str();
        if crate::TEST_IDS.contains(&id) {
            continue;
        }
        let domain = registry::build(id, None).unwrap_or_else(|error| panic!("{id}: {error}"));
        let env = domain.registered_environment(0);
        let settings = entry.settings.clone().unwrap_or_default();
        let setting = |key: &str| settings.get(key).map(ToString::to_string);
        let mut probe = domain.registered_environment(0);
        let has_state = probe.reset(rl_core::Mode::Training).is_ok() && probe.state().is_some();
        let has_text = probe.render_text().is_some();
        let facts = IdFacts {
            id: id.to_owned(),
            description: entry.description.replace('|', "\\|"),
            observation_space: env.observation_space().to_string(),
            action_space: env.action_space().to_string(),
            cap: domain
                .episode_cap()
                .map_or_else(|| "none".to_owned(), |cap| cap.to_string()),
            discount: domain.discount(),
            has_state,
            has_text,
            frame_size: domain.frame_size(),
            // A structure-of-arrays kernel reports no infos; the domain's step state by state
            // reports them.
            kernel: !domain.batch_states(1).reports_infos(),
            transitions: has_transitions(id),
            agent: match (setting("agent"), setting("max_steps")) {
                (Some(agent), Some(steps)) => {
                    format!("{}, {steps} steps", agent.trim_matches('"'))
                }
                _ => "-".to_owned(),
            },
            threshold: threshold(id, setting("learning_threshold")),
            play: random_play(domain.as_ref()),
            parameters: entry.parameters.clone(),
        };
        let family = rl_core::registry::family(id).to_owned();
        match families.iter_mut().find(|(name, _)| *name == family) {
            Some((_, ids)) => ids.push(facts),
            None => families.push((family, vec![facts])),
        }
    }
    families
}

/// The episodes of random actions each id's section describes.
const PLAY_EPISODES: u64 = 5;

/// The most steps of each of those episodes.
const PLAY_STEPS: u64 = 1000;

/// What [`PLAY_EPISODES`] episodes of uniform random actions give, environment `i` seeded with
/// `i` and its actions drawn with seed `1000 + i`, each until it ends or for [`PLAY_STEPS`]
/// steps: the rewards seen (each value when there are at most 5, else their range), the
/// episodes' lengths and how they ended.
fn random_play(domain: &dyn rl_core::registry::RegisteredDomain) -> String {
    use rand::SeedableRng as _;
    use rl_spaces::TrySampleSpace as _;
    let mut rewards: Vec<f64> = Vec::new();
    let (mut lengths, mut terminated, mut truncated, mut stopped) = (Vec::new(), 0, 0, 0);
    for episode in 0..PLAY_EPISODES {
        let mut env = domain.environment(episode);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1000 + episode);
        env.reset(rl_core::Mode::Training).expect("a reset");
        let mut length = 0_u64;
        loop {
            let action = env
                .action_space()
                .try_sample(&mut rng)
                .expect("a non-empty action space");
            let outcome = env.step(&action).expect("a valid step");
            length += 1;
            let reward = outcome.value.reward();
            if !rewards
                .iter()
                .any(|seen| seen.to_bits() == reward.to_bits())
            {
                rewards.push(reward);
            }
            if outcome.is_done() {
                terminated += u64::from(outcome.terminated);
                truncated += u64::from(outcome.truncated && !outcome.terminated);
                break;
            }
            if length == PLAY_STEPS {
                stopped += 1;
                break;
            }
        }
        lengths.push(length);
    }
    rewards.sort_by(f64::total_cmp);
    let rewards = if rewards.len() <= 5 {
        let values: Vec<String> = rewards.iter().map(ToString::to_string).collect();
        format!("rewards {}", values.join(", "))
    } else {
        format!(
            "rewards from {} to {} ({} values)",
            rewards[0],
            rewards[rewards.len() - 1],
            rewards.len()
        )
    };
    let (shortest, longest) = (
        lengths.iter().min().copied().unwrap_or(0),
        lengths.iter().max().copied().unwrap_or(0),
    );
    format!(
        "{rewards}; {shortest} to {longest} steps; {terminated} terminated, {truncated} \
         truncated, {stopped} stopped at {PLAY_STEPS} steps"
    )
}

/// The index, `docs/catalogue.md`.
/// The speeds of the last comparison run (`docs/measured-speeds.json`, written by
/// `benches/compare/run.sh` through `benches/compare/speeds.py`): the run's date, and per id
/// the best 1024-environment steps per second from Python and from Rust.
fn measured_speeds() -> (String, serde_json::Map<String, serde_json::Value>) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/measured-speeds.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let run = json["run"].as_str().expect("the run's date").to_owned();
    let speeds = json["speeds"].as_object().expect("speeds by id").clone();
    (run, speeds)
}

/// An id's measured-speed cell: `Python / Rust` in millions of steps per second (`-` for a
/// side not measured), or `-` for an id the comparison does not run.
fn speed_cell(speeds: &serde_json::Map<String, serde_json::Value>, id: &str) -> String {
    let Some(entry) = speeds.get(id) else {
        return "-".to_owned();
    };
    let side = |key: &str| {
        entry[key]
            .as_f64()
            .map_or_else(|| "-".to_owned(), |rate| format!("{:.1} M", rate / 1e6))
    };
    format!("{} / {}", side("python"), side("rust"))
}

fn index(families: &[(String, Vec<IdFacts>)]) -> String {
    let (run, speeds) = measured_speeds();
    let mut text = String::new();
    let _ = write!(
        text,
        "# Environment catalogue\n\n\
         Every built-in id (registered by `rl-domains` and `rl-object-grid`), generated from the\n\
         registry by `{WRITE_COMMAND}`\n\
         (CI fails when this page or a family's page differs from what that command writes).\n\
         Each family has a page, linked from its heading, with a GIF of an episode and each id's\n\
         details. Each id is built with\n\
         its default parameters; its module's documentation in `rl-domains` or `rl-object-grid`\n\
         has the whole description (spaces, rewards, starting state, episode end, parameters,\n\
         reference, differences).\n\
         `state`, `text`, `frames`: the registration declares state access (Python's\n\
         `reset(options={{\"state\": ...}})`), text pictures (`render_mode=\"ansi\"`) and RGB\n\
         frames (`render_mode=\"rgb_array\"`, `rl render`); `kernel`: vectors by id step a\n\
         structure-of-arrays kernel (the others step the domain's step state by state);\n\
         `transitions`: the exact transition model\n\
         (`EnumerableTransitions`, for planners and the checker). `rl run` learns each id with\n\
         the agent and budget shown and must reach the threshold (the learning table,\n\
         `cargo test --release -p rlrs-experiment --test suite learning`); `null`: no learning\n\
         claim for the default agent; a fraction of the optimum: of the best expected return\n\
         within the episode cap, computed from the transition model (see the README).\n\
         `speed`: environment steps per second of a 1024-environment vector, from Python\n\
         (`rlrs.RustVectorEnv`) / from Rust, the better of one and two threads, measured by the\n\
         comparison run of {run} (`benches/compare/run.sh`, which writes\n\
         `docs/measured-speeds.json`; docs/PERFORMANCE.md has the run); `-` where it does not\n\
         measure the id.\n"
    );
    for (family, ids) in families {
        let _ = write!(
            text,
            "\n## [{family}](catalogue/{family}.md)\n\n\
             | id | observation space | action space | episode cap | state | text | frames | kernel | transitions | `rl run` agent, budget | learning threshold | speed |\n\
             |---|---|---|---|---|---|---|---|---|---|---|---|\n"
        );
        for facts in ids {
            let _ = writeln!(
                text,
                "| `{}` | `{}` | `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                facts.id,
                facts.observation_space,
                facts.action_space,
                facts.cap,
                yes(facts.has_state),
                yes(facts.has_text),
                yes(facts.frame_size.is_some()),
                yes(facts.kernel),
                yes(facts.transitions),
                facts.agent,
                facts.threshold,
                speed_cell(&speeds, &facts.id),
            );
            let _ = writeln!(text, "| | {} ||||||||||", facts.description);
        }
    }
    text
}

/// The arguments row: the JSON parameters the id reads (their meaning and defaults are in the
/// module documentation), and how to give them.
fn arguments(facts: &IdFacts) -> String {
    let Some(parameters) = &facts.parameters else {
        return "a JSON object read by the constructor itself (`rl ... --params '{...}'`, Python \
                keyword arguments); the module documentation lists what it takes"
            .to_owned();
    };
    if parameters.is_empty() {
        return "none".to_owned();
    }
    let names: Vec<String> = parameters.iter().map(|name| format!("`{name}`")).collect();
    format!(
        "{}: JSON parameters over the defaults (`rl ... --params '{{...}}'`, \
         `registry::make(\"{}\", Some(&json))`, Python keyword arguments); another name is an \
         error",
        names.join(", "),
        facts.id
    )
}

/// A domain's frame size scaled down to at most [`GIF_WIDTH`] pixels wide.
fn gif_size((width, height): (u32, u32)) -> (u32, u32) {
    if width <= GIF_WIDTH {
        return (width, height);
    }
    let scaled =
        (u64::from(height) * u64::from(GIF_WIDTH) + u64::from(width) / 2) / u64::from(width);
    (
        GIF_WIDTH,
        u32::try_from(scaled.max(1)).expect("smaller than the height"),
    )
}

/// A family's page, `docs/catalogue/FAMILY.md`, in the domain documentation's template.
fn page(family: &str, ids: &[IdFacts]) -> Page {
    let mut text = String::new();
    let _ = write!(
        text,
        "# {family}\n\n\
         Part of the [environment catalogue](../catalogue.md), generated from the registry by\n\
         `{WRITE_COMMAND}`.\n\
         The module documentation of `rl-domains` or `rl-object-grid` has the family's whole\n\
         description (rewards, starting state, each condition of the episode's end, parameters,\n\
         reference). Each id's last row is measured: {PLAY_EPISODES} episodes of uniform random\n\
         actions (environment `i` seeded with `i`, its actions drawn with seed `1000 + i`), each\n\
         until it ends or for {PLAY_STEPS} steps, with the rewards they saw (every value, or the\n\
         range when there are more than 5), their lengths and how they ended (a step that both\n\
         terminates and reaches the episode cap counts as terminated).\n"
    );
    let gif = ids[0].frame_size.map(|size| Gif {
        id: ids[0].id.clone(),
        size: gif_size(size),
    });
    match &gif {
        Some(gif) => {
            let _ = write!(
                text,
                "\n![An episode of {id}]({file})\n\n\
                 An episode of `{id}` with seeded random actions (at most {GIF_STEPS} steps), made by\n\
                 `{command}`.\n",
                id = gif.id,
                file = gif.file_name(),
                command = gif.command(),
            );
        }
        None => {
            let _ = write!(
                text,
                "\n`{}` draws no frames, so this page has no video.\n",
                ids[0].id
            );
        }
    }
    let versions: Vec<String> = ids.iter().map(|facts| format!("`{}`", facts.id)).collect();
    let _ = write!(
        text,
        "\n## Versions\n\n\
         The registered ids of the family: {}. Each id's description names the reference\n\
         version it reproduces, where it has one.\n",
        versions.join(", ")
    );
    for facts in ids {
        let frames = facts.frame_size.map_or_else(
            || "no".to_owned(),
            |(width, height)| format!("RGB frames of {width} x {height} pixels (`rl render --episode`, `render_mode=\"rgb_array\"`)"),
        );
        let vectors = if facts.kernel {
            "a structure-of-arrays kernel"
        } else {
            "the domain's step, state by state (with its infos)"
        };
        let _ = write!(
            text,
            "\n## `{id}`\n\n{description}\n\n\
             | | |\n|---|---|\n\
             | Action space | `{action}` |\n\
             | Observation space | `{observation}` |\n\
             | Episode end | termination as the domain's terminal test says; truncation at the episode cap, {cap} steps |\n\
             | Discount | {discount} |\n\
             | Arguments | {arguments} |\n\
             | Pictures | text: {text_picture}; {frames} |\n\
             | State access | {state} |\n\
             | Transitions | {transitions} |\n\
             | Vectors by id step | {vectors} |\n\
             | `rl run` default agent, budget | {agent} |\n\
             | Learning threshold | {threshold} |\n\
             | {PLAY_EPISODES} episodes of random actions | {play} |\n",
            id = facts.id,
            description = facts.description,
            action = facts.action_space,
            observation = facts.observation_space,
            cap = facts.cap,
            discount = facts.discount,
            text_picture = if facts.has_text { "yes" } else { "no" },
            state = if facts.has_state {
                "yes (`reset(options={\"state\": ...})`)"
            } else {
                "no"
            },
            transitions = if facts.transitions {
                "enumerable (exact, for planners and the checker)"
            } else {
                "sampled only"
            },
            agent = facts.agent,
            threshold = facts.threshold,
            play = facts.play,
            arguments = arguments(facts),
        );
    }
    Page {
        family: family.to_owned(),
        markdown: text,
        gif,
    }
}

/// Writes the GIF of `gif` to `path` with the library call behind `rl render --episode`.
fn write_gif(gif: &Gif, path: &Path) {
    let mut video = rl_experiment::video::EpisodeVideo::new(gif.id.clone());
    video.seed = 0;
    video.max_steps = Some(GIF_STEPS);
    video.frame_size = Some(gif.size);
    video.frames_per_second = GIF_FPS;
    rl_experiment::video::record_episode(&video, path)
        .unwrap_or_else(|error| panic!("{}: {error}", gif.id));
}

/// The learning threshold's cell: the setting as written, and for a fraction of the optimum
/// the optimum and the threshold it gives (`rl_experiment::criterion`).
fn threshold(id: &str, setting: Option<String>) -> String {
    let Some(setting) = setting else {
        return "-".to_owned();
    };
    match rl_experiment::criterion::criterion(id) {
        Ok(Some(rl_experiment::criterion::Criterion {
            threshold,
            relative: Some((optimum, fraction)),
        })) => format!("{threshold:.4} ({fraction} of the optimum {optimum:.4})"),
        _ => setting,
    }
}

/// Whether the id's checker report includes the transition checks (the registration declared
/// enumerable transitions).
fn has_transitions(id: &str) -> bool {
    let domain = registry::build(id, None).expect("registered");
    let report = domain.check(&rl_core::CheckConfig {
        transition_pairs: 1,
        ..rl_core::CheckConfig::default()
    });
    report
        .passed
        .iter()
        .chain(report.findings.iter().map(|finding| &finding.check))
        .any(|check| check.starts_with("enumerated"))
}

#[test]
fn the_catalogue_is_generated_from_the_registry_and_current() {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let write = std::env::var_os("RL_WRITE_CATALOGUE").is_some();
    let families = families();
    let mut expected: Vec<(PathBuf, String)> = vec![(docs.join("catalogue.md"), index(&families))];
    let pages: Vec<Page> = families
        .iter()
        .map(|(family, ids)| page(family, ids))
        .collect();
    let directory = docs.join("catalogue");
    if write {
        std::fs::create_dir_all(&directory).expect("create docs/catalogue");
    }
    let mut gifs = Vec::new();
    for page in &pages {
        expected.push((
            directory.join(format!("{}.md", page.family)),
            page.markdown.clone(),
        ));
        if let Some(gif) = &page.gif {
            let path = directory.join(gif.file_name());
            if write {
                write_gif(gif, &path);
            }
            gifs.push(path);
        }
    }
    let mut stale = Vec::new();
    for (path, generated) in &expected {
        if write {
            std::fs::write(path, generated).expect("write a catalogue page");
        }
        if std::fs::read_to_string(path).unwrap_or_default() != *generated {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "{} not what the registry gives: run\n{WRITE_COMMAND}",
        stale.join(", ")
    );
    // Every GIF a page shows is there, and is a GIF; nothing else lies in docs/catalogue/.
    for path in &gifs {
        let bytes = std::fs::read(path).unwrap_or_default();
        assert!(
            bytes.starts_with(b"GIF89a"),
            "{} is missing or not a GIF: run\n{WRITE_COMMAND}",
            path.display()
        );
    }
    // The command a page names makes its GIF: checked on the smallest GIF (drawing them all
    // again is for RL_WRITE_CATALOGUE), through the `rl` command line itself.
    let smallest = pages
        .iter()
        .filter_map(|page| page.gif.as_ref())
        .min_by_key(|gif| {
            std::fs::metadata(directory.join(gif.file_name())).map_or(u64::MAX, |m| m.len())
        })
        .expect("a family draws frames");
    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("catalogue-gif");
    std::fs::create_dir_all(&scratch).expect("a scratch directory");
    let remade = scratch.join(smallest.file_name());
    let command = smallest.command();
    let mut words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
    *words.last_mut().expect("an --out path") = remade.display().to_string();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rl_experiment::cli::run_with_args(&words, &mut out, &mut err);
    assert_eq!(
        code,
        std::process::ExitCode::SUCCESS,
        "{command}: {}",
        String::from_utf8_lossy(&err)
    );
    assert!(
        std::fs::read(&remade).ok() == std::fs::read(directory.join(smallest.file_name())).ok(),
        "`{command}` does not write the checked-in GIF: run\n{WRITE_COMMAND}"
    );
    let mut listed: Vec<PathBuf> = std::fs::read_dir(&directory)
        .expect("docs/catalogue exists")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    listed.sort();
    let mut known: Vec<PathBuf> = expected
        .iter()
        .skip(1)
        .map(|(path, _)| path.clone())
        .chain(gifs)
        .collect();
    known.sort();
    assert_eq!(
        listed, known,
        "docs/catalogue/ holds exactly the pages and their GIFs"
    );
    let index_text = &expected[0].1;
    for id in registry::ids()
        .into_iter()
        .filter(|id| !crate::TEST_IDS.contains(&id.as_str()))
    {
        assert!(
            index_text.contains(&format!("`{id}`")),
            "{id} is in the catalogue"
        );
    }
}
