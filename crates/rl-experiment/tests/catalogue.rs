//! The environment catalogue is generated from the registry and must be current (issue 30):
//! `docs/catalogue.md`, an index of every registered id (family, spaces, episode cap, what the
//! registration declares, the learning defaults), and one page per family in
//! `docs/catalogue/FAMILY.md`: a GIF of an episode, the family's documentation in the domain
//! documentation template (description, action space, observation space, rewards, starting
//! state, episode end, parameters, reference: the text its registrations carry,
//! `rl_core::registry::Documentation`, which the domain's rustdoc shows too), its versions, then
//! each id's spaces, episode end, parameters, pictures, vectors and `rl run` defaults. The
//! families are the registrations' (`RegistryEntry::family`): one page for CartPole, one for
//! each of minigrid's environment classes.
//!
//! This test builds them from every registered id and compares them with the checked-in
//! files, and checks that every GIF a page shows exists (and that no other GIF lies there), that
//! the GIFs stay within [`GIF_BUDGET`], and that the `rl render --episode` command a page names
//! writes its GIF byte for byte (for the smallest GIF; drawing them all is for the write mode).
//! Another checks that every page has the template's sections and no rustdoc syntax left. To
//! write the pages and the GIFs again after registering or changing an id:
//!
//! ```text
//! RL_WRITE_CATALOGUE=1 cargo test -p rlrs-experiment --test suite catalogue
//! ```
//!
//! The GIFs are episodes of seeded random actions (`rl render --episode`, the command each
//! page names), so they are the same bytes on every run; CI draws only the smallest again.
//!
//! The MuJoCo ids' facts need the MuJoCo library (`crate::mujoco_library`): where it is not
//! found, the test says so and checks every other page, but not the MuJoCo page nor the index
//! (which lists every id's facts).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rl_core::registry::Documentation;
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

/// The most bytes the GIFs of `docs/catalogue/` may take together (about 540 KiB today, one
/// for each of the 33 families).
const GIF_BUDGET: u64 = 600 * 1024;

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
    /// The family (its registrations', `RegistryEntry::family`).
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

/// A family of ids: its name, the documentation its registrations carry and its ids' facts.
struct Family {
    name: String,
    documentation: Option<Documentation>,
    ids: Vec<IdFacts>,
}

/// The facts of every registered id but the tests' own, grouped by family (the
/// registrations', `RegistryEntry::family`) in the order of each family's first id. The ids of
/// a family carry one documentation.
fn families() -> Vec<Family> {
    registry::register_builtins();
    let library = crate::mujoco_library();
    let mut families: Vec<Family> = Vec::new();
    for entry in registry::list() {
        let id = entry.id.as_str();
        if crate::TEST_IDS.contains(&id)
            || (library.is_err() && rl_mujoco::registry::IDS.contains(&id))
        {
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
        let name = entry.family();
        match families.iter_mut().find(|family| family.name == name) {
            Some(family) => {
                assert_eq!(
                    family.documentation, entry.documentation,
                    "{id} carries another documentation than the rest of {name}"
                );
                family.ids.push(facts);
            }
            None => families.push(Family {
                name: name.to_owned(),
                documentation: entry.documentation,
                ids: vec![facts],
            }),
        }
    }
    families
}

/// The catalogue as the registry gives it: the index and the family pages, built once for the
/// tests of this file (each id's random episodes take a while).
struct Catalogue {
    index: String,
    pages: Vec<Page>,
}

/// The catalogue, built on first use.
fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let families = families();
        Catalogue {
            index: index(&families),
            pages: families.iter().map(page).collect(),
        }
    })
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

fn index(families: &[Family]) -> String {
    let (run, speeds) = measured_speeds();
    let mut text = String::new();
    let _ = write!(
        text,
        "# Environment catalogue\n\n\
         Every built-in id (registered by `rl-domains` and `rl-object-grid`), generated from the\n\
         registry by `{WRITE_COMMAND}`\n\
         (CI fails when this page or a family's page differs from what that command writes).\n\
         Each family (as its registrations name it: one for CartPole, one for each of minigrid's\n\
         environment classes) has a page, linked from its heading, in the domain documentation\n\
         template (description, action and observation spaces, rewards, starting state, episode\n\
         end, parameters, reference: the text its registrations carry, which the domain's\n\
         rustdoc shows too), with a GIF of an episode, its versions and each id's details.\n\
         Each id is built with its default parameters.\n\
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
    for Family { name, ids, .. } in families {
        let _ = write!(
            text,
            "\n## [{name}](catalogue/{name}.md)\n\n\
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
/// family's Parameters section), and how to give them.
fn arguments(facts: &IdFacts) -> String {
    let Some(parameters) = &facts.parameters else {
        return "a JSON object read by the constructor itself (`rl ... --params '{...}'`, Python \
                keyword arguments); the family's Parameters section lists what it takes"
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

/// A family's page, `docs/catalogue/FAMILY.md`: its GIF, its documentation in the domain
/// documentation template, its versions and each id's facts.
fn page(family: &Family) -> Page {
    let Family {
        name,
        documentation,
        ids,
    } = family;
    let mut text = String::new();
    let _ = write!(
        text,
        "# {name}\n\n\
         Part of the [environment catalogue](../catalogue.md), generated from the registry by\n\
         `{WRITE_COMMAND}`.\n\
         Below: the family's documentation (the text its registrations carry, which the domain's\n\
         rustdoc shows too), its versions, then each id's facts.\n"
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
    match documentation {
        Some(documentation) => text.push_str(&documentation_markdown(documentation)),
        None => text.push_str("\nThe family's registrations carry no documentation.\n"),
    }
    let versions: Vec<String> = ids.iter().map(|facts| format!("`{}`", facts.id)).collect();
    let _ = write!(
        text,
        "\n## Versions\n\n\
         The registered ids of the family: {}. Each id's description names the reference\n\
         version it reproduces, where it has one. Each id's last row below is measured:\n\
         {PLAY_EPISODES} episodes of uniform random actions (environment `i` seeded with `i`, its\n\
         actions drawn with seed `1000 + i`), each until it ends or for {PLAY_STEPS} steps, with the\n\
         rewards they saw (every value, or the range when there are more than 5), their lengths and\n\
         how they ended (a step that both terminates and reaches the episode cap counts as\n\
         terminated).\n",
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
             | Episode end | termination as the family's Episode end says; truncation at the episode cap, {cap} steps |\n\
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
        family: name.clone(),
        markdown: text,
        gif,
    }
}

/// A family's documentation as the sections of its page: each section of the template (and any
/// other the text has) under a `##` heading, its sub-headings one level deeper, the text made
/// plain Markdown ([`plain_markdown`]).
fn documentation_markdown(documentation: &Documentation) -> String {
    let mut text = String::new();
    for section in documentation.sections() {
        let body = deeper_headings(&plain_markdown(&section.body));
        if section.heading.is_empty() {
            let _ = write!(text, "\n{body}\n");
        } else {
            let _ = write!(text, "\n## {}\n\n{body}\n", section.heading);
        }
    }
    text
}

/// Whether `line` opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("```") || line.starts_with("~~~")
}

/// `text` with every heading outside code blocks one level deeper (`## Detail` becomes
/// `### Detail`).
fn deeper_headings(text: &str) -> String {
    let mut in_code = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if is_fence(line) {
                in_code = !in_code;
            } else if !in_code {
                let marks = line.bytes().take_while(|byte| *byte == b'#').count();
                if (1..6).contains(&marks) && line[marks..].starts_with(' ') {
                    return format!("#{line}");
                }
            }
            line.to_owned()
        })
        .collect();
    lines.join("\n")
}

/// Whether a link's target is a web page (kept on the page) rather than a rustdoc path.
fn is_web(target: &str) -> bool {
    target.starts_with("https://") || target.starts_with("http://")
}

/// A reference definition line, `[label]: target`, as its label and target.
fn definition(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('[')?;
    let (label, target) = rest.split_once("]:")?;
    Some((label, target.trim()))
}

/// The end of the code span that starts at `start` (a run of backticks): the index after its
/// closing run, or `None` when it is not closed on the line.
fn code_span_end(line: &str, start: usize) -> Option<usize> {
    let run = line[start..]
        .bytes()
        .take_while(|byte| *byte == b'`')
        .count();
    let fence = &line[start..start + run];
    let mut from = start + run;
    while let Some(found) = line[from..].find(fence) {
        let at = from + found;
        let length = line[at..].bytes().take_while(|byte| *byte == b'`').count();
        if length == run {
            return Some(at + run);
        }
        from = at + length;
    }
    None
}

/// The index of the `]` that closes the `[` at `start`, code spans and nested brackets
/// skipped, or `None`.
fn label_end(line: &str, start: usize) -> Option<usize> {
    let mut depth = 0;
    let mut index = start;
    while index < line.len() {
        match line.as_bytes()[index] {
            b'`' => {
                index = code_span_end(line, index)?;
                continue;
            }
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(index);
                }
            }
            _ => {}
        }
        index += 1;
    }
    None
}

/// Whether a link's label names an item as rustdoc resolves it: one code span, or a path.
fn is_item(label: &str) -> bool {
    let code = label.len() > 2
        && label.starts_with('`')
        && label.ends_with('`')
        && !label[1..label.len() - 1].contains('`');
    let path = !label.is_empty()
        && label
            .chars()
            .all(|character| character.is_alphanumeric() || "_:<>".contains(character));
    code || path
}

/// A link's label as text: a path loses its `crate::`, `self::` or `super::` prefix, which
/// means nothing outside the crate.
fn label_text(label: &str) -> String {
    let mut text = label.to_owned();
    for prefix in ["crate::", "self::", "super::"] {
        text = text.replace(prefix, "");
    }
    text
}

/// One line of text (outside code blocks) with its rustdoc links made plain (see
/// [`plain_markdown`]); `web_labels` are the labels of reference definitions to web pages.
fn plain_line(line: &str, web_labels: &[&str]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut index = 0;
    while index < line.len() {
        let rest = &line[index..];
        if rest.starts_with('`') {
            let end = code_span_end(line, index).unwrap_or(line.len());
            out.push_str(&line[index..end]);
            index = end;
            continue;
        }
        let close = if rest.starts_with('[') {
            label_end(line, index)
        } else {
            None
        };
        if let Some(close) = close {
            let label = &line[index + 1..close];
            let after = &line[close + 1..];
            // An inline link, `[label](target)`.
            if let Some(target) = after
                .strip_prefix('(')
                .and_then(|target| target.split_once(')'))
                .map(|(target, _)| target)
            {
                let end = close + 1 + target.len() + 2;
                if is_web(target) {
                    out.push_str(&line[index..end]);
                } else {
                    out.push_str(&label_text(label));
                }
                index = end;
                continue;
            }
            // A reference link, `[label][reference]`.
            if let Some(reference) = after
                .strip_prefix('[')
                .and_then(|reference| reference.split_once(']'))
                .map(|(reference, _)| reference)
            {
                let end = close + 1 + reference.len() + 2;
                let reference = if reference.is_empty() {
                    label
                } else {
                    reference
                };
                if web_labels.contains(&reference) {
                    out.push_str(&line[index..end]);
                } else {
                    out.push_str(&label_text(label));
                }
                index = end;
                continue;
            }
            // A shortcut link, `[label]`: an item (or a label defined as a web page).
            if !web_labels.contains(&label) && is_item(label) {
                out.push_str(&label_text(label));
                index = close + 1;
                continue;
            }
        }
        let character = rest.chars().next().expect("not at the end");
        out.push(character);
        index += character.len_utf8();
    }
    out
}

/// Rustdoc Markdown made plain Markdown for a page outside rustdoc: intra-doc links become
/// their text (`` [`PUSH_LEFT`] `` becomes `` `PUSH_LEFT` ``, `` [`Simulator`](rl_core::Simulator) ``
/// becomes `` `Simulator` ``, a `crate::` path loses the prefix), their reference definitions
/// go; links to web pages stay, and code is left as written.
fn plain_markdown(text: &str) -> String {
    let web_labels: Vec<&str> = text
        .lines()
        .filter_map(definition)
        .filter(|(_, target)| is_web(target))
        .map(|(label, _)| label)
        .collect();
    let mut in_code = false;
    let mut lines: Vec<String> = Vec::new();
    for line in text.lines() {
        if is_fence(line) {
            in_code = !in_code;
        } else if !in_code {
            if let Some((_, target)) = definition(line) {
                if is_web(target) {
                    lines.push(line.to_owned());
                }
                continue;
            }
            lines.push(plain_line(line, &web_labels));
            continue;
        }
        lines.push(line.to_owned());
    }
    // A definition removed from the end leaves blank lines behind.
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    lines.join("\n")
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
/// enumerable transitions). The smallest run that shows them: one episode of one step, one
/// pair, one sample (the default run, five episodes of up to 1,000 steps with every state
/// compared by its debug form, took most of this suite's time in a debug build).
fn has_transitions(id: &str) -> bool {
    let domain = registry::build(id, None).expect("registered");
    let report = domain.check(&rl_core::CheckConfig {
        episodes: 1,
        max_steps: 1,
        frequency_samples: 1,
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
    let Catalogue { index, pages } = catalogue();
    let directory = docs.join("catalogue");
    // Without the MuJoCo library, the MuJoCo page and the index (which lists every id's facts)
    // cannot be made: every other page is checked, and the MuJoCo page is left as it is.
    let without_mujoco = crate::mujoco_library().err();
    let mut expected: Vec<(PathBuf, String)> = Vec::new();
    let mut left_as_they_are = Vec::new();
    match &without_mujoco {
        None => expected.push((docs.join("catalogue.md"), index.clone())),
        Some(reason) => {
            assert!(
                !write,
                "writing the catalogue needs the MuJoCo library: {reason}"
            );
            println!("checking the catalogue without its index and MuJoCo page: {reason}");
            left_as_they_are.push(directory.join(format!(
                "{}.md",
                rl_mujoco::registry::DOCUMENTATION.family()
            )));
        }
    }
    if write {
        std::fs::create_dir_all(&directory).expect("create docs/catalogue");
    }
    let mut gifs = Vec::new();
    for page in pages {
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
    let listing = || {
        let mut listed: Vec<PathBuf> = std::fs::read_dir(&directory)
            .expect("docs/catalogue exists")
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        listed.sort();
        listed
    };
    let mut known: Vec<PathBuf> = expected
        .iter()
        .filter(|(path, _)| *path != docs.join("catalogue.md"))
        .map(|(path, _)| path.clone())
        .chain(gifs.iter().cloned())
        .chain(left_as_they_are)
        .collect();
    known.sort();
    if write {
        // The pages and GIFs of families that are gone (or renamed) go too.
        for stale in listing().iter().filter(|path| !known.contains(path)) {
            std::fs::remove_file(stale).expect("remove a stale catalogue file");
        }
    }
    let listed = listing();
    let name = |path: &&PathBuf| {
        path.file_name()
            .map(|name| name.to_string_lossy().into_owned())
    };
    let unknown: Vec<String> = listed
        .iter()
        .filter(|path| !known.contains(path))
        .filter_map(|path| name(&path))
        .collect();
    let missing: Vec<String> = known
        .iter()
        .filter(|path| !listed.contains(path))
        .filter_map(|path| name(&path))
        .collect();
    assert!(
        unknown.is_empty() && missing.is_empty(),
        "docs/catalogue/ holds exactly the pages and their GIFs (not {unknown:?}; missing \
         {missing:?}): run\n{WRITE_COMMAND}"
    );
    // The GIFs stay small enough to check in.
    let total: u64 = gifs
        .iter()
        .map(|path| std::fs::metadata(path).map_or(0, |metadata| metadata.len()))
        .sum();
    assert!(
        total <= GIF_BUDGET,
        "the catalogue's GIFs take {total} bytes, more than the {GIF_BUDGET} they may"
    );
    if without_mujoco.is_some() {
        return;
    }
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

/// The text of the section of a page under `## heading`, up to the next `##` heading.
fn section_text<'a>(markdown: &'a str, heading: &str) -> &'a str {
    let start = markdown
        .find(&format!("\n## {heading}\n"))
        .map_or(markdown.len(), |start| start + heading.len() + 5);
    let end = markdown[start..]
        .find("\n## ")
        .map_or(markdown.len(), |end| start + end);
    &markdown[start..end]
}

#[test]
fn every_family_page_has_the_template_sections_and_no_rustdoc_syntax() {
    let sections: Vec<&str> = Documentation::TEMPLATE
        .iter()
        .copied()
        .chain(["Versions"])
        .collect();
    for Page {
        family, markdown, ..
    } in &catalogue().pages
    {
        // Every section of the template, in its order, then the versions (Gymnasium's version
        // history).
        let headings: Vec<&str> = markdown
            .lines()
            .filter_map(|line| line.strip_prefix("## "))
            .collect();
        let positions: Vec<usize> = sections
            .iter()
            .map(|section| {
                headings
                    .iter()
                    .position(|heading| heading == section)
                    .unwrap_or_else(|| panic!("{family}'s page has no {section} section"))
            })
            .collect();
        assert!(
            positions.is_sorted(),
            "{family}'s sections are out of order: {headings:?}"
        );
        // Each condition of the episode's end is marked termination or truncation.
        let episode_end = section_text(markdown, "Episode end");
        assert!(
            episode_end.contains("**Termination**") && episode_end.contains("**Truncation**"),
            "{family}'s Episode end marks no termination or no truncation:\n{episode_end}"
        );
        // No rustdoc syntax is left: links to items, their definitions, the crate's paths.
        for line in markdown.lines() {
            assert!(!line.contains("[`"), "{family}: a link to an item: {line}");
            for prefix in ["crate::", "self::", "super::"] {
                assert!(
                    !line.contains(prefix),
                    "{family}: a path of the crate: {line}"
                );
            }
            assert!(
                definition(line).is_none_or(|(_, target)| is_web(target)),
                "{family}: a link definition: {line}"
            );
            for (_, rest) in line
                .match_indices("](")
                .map(|(at, _)| line.split_at(at + 2))
            {
                let target = rest.split(')').next().unwrap_or_default();
                assert!(
                    is_web(target) || target.ends_with(".md") || target.ends_with(".gif"),
                    "{family}: a link to `{target}`: {line}"
                );
            }
        }
    }
}

#[test]
fn rustdoc_links_become_plain_markdown() {
    let rustdoc = "0 ([`PUSH_LEFT`]) pushes; see [`Simulator`](rl_core::Simulator), the \
                   [module documentation](self), [`Grid`](crate::grid::Grid), \
                   [`crate::grid::Grid`], [`Simulator::reset_to`], [Default], the \
                   [AI safety gridworlds](https://github.com/deepmind/ai-safety-gridworlds), \
                   `[1, 1]`, ``a [`b`] c``, [0, 1] and [0, 1).\n\
                   \n\
                   ```text\n\
                   [`kept`] in code\n\
                   ```\n\
                   \n\
                   [`Simulator::reset_to`]: rl_core::Simulator::reset_to\n";
    assert_eq!(
        plain_markdown(rustdoc),
        "0 (`PUSH_LEFT`) pushes; see `Simulator`, the module documentation, `Grid`, \
         `grid::Grid`, `Simulator::reset_to`, Default, the \
         [AI safety gridworlds](https://github.com/deepmind/ai-safety-gridworlds), `[1, 1]`, \
         ``a [`b`] c``, [0, 1] and [0, 1).\n\
         \n\
         ```text\n\
         [`kept`] in code\n\
         ```"
    );
    assert_eq!(
        deeper_headings("## Detail\n\n```\n# a comment\n```\n#hashtag"),
        "### Detail\n\n```\n# a comment\n```\n#hashtag"
    );
}

/// The one table of the docs written by hand that names the families, README.md's table of
/// crates, names every family the registry holds (a minigrid class by its name without the
/// `MiniGrid-` prefix), so that a new family cannot be left out of it.
#[test]
fn the_readmes_crate_table_names_every_family() {
    registry::register_builtins();
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    let table: String = readme
        .lines()
        .filter(|line| line.starts_with("| [`rl-"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        table.contains("rl-domains"),
        "README.md's crate table moved"
    );
    let mut missing = Vec::new();
    for entry in registry::list() {
        if crate::TEST_IDS.contains(&entry.id.as_str()) {
            continue;
        }
        let family = entry.family();
        let name = family.strip_prefix("MiniGrid-").unwrap_or(family);
        if !table.contains(name) && !missing.contains(&name.to_owned()) {
            missing.push(name.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "README.md's table of crates does not name the families {missing:?}"
    );
}
