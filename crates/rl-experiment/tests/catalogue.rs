//! The environment catalogue, `docs/catalogue.md`, is generated from the registry and must be
//! current (issue 30): this test builds it from every registered id (family, spaces, episode
//! cap, what the registration declares, the learning defaults) and compares it with the
//! checked-in file. To write the file again after registering or changing an id:
//!
//! ```text
//! RL_WRITE_CATALOGUE=1 cargo test -p rl-experiment --test suite catalogue
//! ```

use std::fmt::Write as _;
use std::path::PathBuf;

use rl_core::{BatchStates, Environment};
use rl_experiment::builtins as registry;

/// A yes/no cell.
fn yes(flag: bool) -> &'static str {
    if flag { "yes" } else { "-" }
}

/// The catalogue's Markdown, from the registry.
fn catalogue() -> String {
    registry::register_builtins();
    let mut text = String::new();
    text.push_str(
        "# Environment catalogue\n\n\
         Every built-in id (registered by `rl-domains` and `rl-object-grid`), generated from the\n\
         registry by `RL_WRITE_CATALOGUE=1 cargo test -p rl-experiment --test suite catalogue`\n\
         (CI fails when this page differs from what that command writes). Each id is built with\n\
         its default parameters; its module's documentation in `rl-domains` or `rl-object-grid`\n\
         has the whole description (spaces, rewards, starting state, episode end, parameters,\n\
         reference, differences).\n\
         `state`, `text`, `frames`: the registration declares state access (Python's\n\
         `reset(options={\"state\": ...})`), text pictures (`render_mode=\"ansi\"`) and RGB\n\
         frames (`render_mode=\"rgb_array\"`, `rl render`); `kernel`: vectors by id step a\n\
         structure-of-arrays kernel (the others step the domain's step state by state);\n\
         `transitions`: the exact transition model\n\
         (`EnumerableTransitions`, for planners and the checker). `rl run` learns each id with\n\
         the agent and budget shown and must reach the threshold (the learning table,\n\
         `cargo test --release -p rl-experiment --test suite learning`); `null`: no learning\n\
         claim for the default agent; a fraction of the optimum: of the best expected return\n\
         within the episode cap, computed from the transition model (see the README).\n",
    );
    let mut current_family = String::new();
    for entry in registry::list() {
        let id = entry.id.as_str();
        if crate::TEST_IDS.contains(&id) {
            continue;
        }
        let domain = registry::build(id, None).unwrap_or_else(|error| panic!("{id}: {error}"));
        let env = domain.registered_environment(0);
        let this_family = rl_core::registry::family(id);
        if this_family != current_family {
            current_family = this_family.to_owned();
            let _ = write!(
                text,
                "\n## {this_family}\n\n\
                 | id | observation space | action space | episode cap | state | text | frames | kernel | transitions | `rl run` agent, budget | learning threshold |\n\
                 |---|---|---|---|---|---|---|---|---|---|---|\n"
            );
        }
        let settings = entry.settings.clone().unwrap_or_default();
        let setting = |key: &str| settings.get(key).map(ToString::to_string);
        let cap = domain
            .episode_cap()
            .map_or_else(|| "none".to_owned(), |cap| cap.to_string());
        let mut probe = domain.registered_environment(0);
        let has_state = probe.reset(rl_core::Mode::Training).is_ok() && probe.state().is_some();
        let has_text = probe.render_text().is_some();
        let agent = match (setting("agent"), setting("max_steps")) {
            (Some(agent), Some(steps)) => format!("{}, {steps} steps", agent.trim_matches('"')),
            _ => "-".to_owned(),
        };
        let _ = writeln!(
            text,
            "| `{id}` | `{}` | `{}` | {cap} | {} | {} | {} | {} | {} | {agent} | {} |",
            env.observation_space(),
            env.action_space(),
            yes(has_state),
            yes(has_text),
            yes(domain.frame_size().is_some()),
            // A structure-of-arrays kernel reports no infos; the domain's step state by state
            // reports them.
            yes(!domain.batch_states(1).reports_infos()),
            yes(has_transitions(id)),
            threshold(id, setting("learning_threshold")),
        );
        let _ = writeln!(
            text,
            "| | {} |||||||||",
            entry.description.replace('|', "\\|")
        );
    }
    text
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
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/catalogue.md");
    let generated = catalogue();
    if std::env::var_os("RL_WRITE_CATALOGUE").is_some() {
        std::fs::write(&path, &generated).expect("write docs/catalogue.md");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "docs/catalogue.md is not what the registry gives: run\n\
         RL_WRITE_CATALOGUE=1 cargo test -p rl-experiment --test suite catalogue"
    );
    for id in registry::ids()
        .into_iter()
        .filter(|id| !crate::TEST_IDS.contains(&id.as_str()))
    {
        assert!(
            generated.contains(&format!("`{id}`")),
            "{id} is in the catalogue"
        );
    }
}
