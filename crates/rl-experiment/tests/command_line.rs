//! The `rl` command line in-process (`cli::run_with_args`): every rough edge a new user or a
//! fuzzer found gets one clear line with the one prefix `rl: error:`, a non-zero status, no
//! panic and no file; output cut short by a closed pipe ends quietly; the README says how to get
//! `rl` on the PATH.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rl_experiment::{
    CHECKS_PER_POLICY_LIMIT, ExperimentConfig, MAX_STEPS_LIMIT, POLICY_CHECKS_LIMIT, RUNS_LIMIT,
    Silent, run_experiment,
};

use crate::rl;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-command-line-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Asserts a failure: the status, one line on standard error with the prefix, containing every
/// one of `words`, and nothing on standard output.
fn assert_one_line(args: &[&str], status: u8, words: &[&str]) {
    let (code, out, err) = rl(args);
    assert_eq!(code, ExitCode::from(status), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?} printed:\n{err}");
    assert!(err.starts_with("rl: error: "), "{args:?}: {err}");
    assert!(!err.contains("panicked") && !err.contains("\n\n"), "{err}");
    for word in words {
        assert!(err.contains(word), "{args:?}: {word:?} missing from {err}");
    }
    assert!(out.is_empty(), "{args:?} printed to stdout: {out}");
}

#[test]
fn huge_counts_are_refused_up_front_with_their_limit() {
    let dir = scratch("huge");
    let out = |name: &str| dir.join(name).display().to_string();
    let (a, b, c, d) = (out("a"), out("b"), out("c"), out("d"));
    let max_steps = MAX_STEPS_LIMIT.to_string();
    let runs = RUNS_LIMIT.to_string();
    let per_policy = CHECKS_PER_POLICY_LIMIT.to_string();
    let checks = POLICY_CHECKS_LIMIT.to_string();
    let huge = "1000000000000000000";
    // The three inputs of the issue: a capacity overflow, an 8 EB allocation, a hang.
    assert_one_line(
        &[
            "run",
            "--max-steps",
            huge,
            "--checks",
            huge,
            "--runs",
            "1",
            "--out",
            &a,
        ],
        2,
        &["--max-steps", "too large", &max_steps],
    );
    assert_one_line(
        &["run", "--checks-per-policy", huge, "--out", &b],
        2,
        &["--checks-per-policy", "too large", &per_policy],
    );
    assert_one_line(
        &[
            "run",
            "--runs",
            "1000000000000",
            "--max-steps",
            "1",
            "--out",
            &c,
        ],
        2,
        &["--runs", "too large", &runs],
    );
    assert_one_line(
        &["run", "--checks", huge, "--out", &d],
        2,
        &["--checks", "too large", &checks],
    );
    assert_one_line(
        &[
            "run",
            "--max-steps",
            "99999999999999999999999999999",
            "--out",
            &d,
        ],
        2,
        &["--max-steps", "too large"],
    );
    assert_one_line(
        &["run", "--max-steps", "1e5", "--out", &d],
        2,
        &["--max-steps", "not a whole number"],
    );
    // Within each limit but inconsistent: still refused before anything is written.
    assert_one_line(
        &["run", "--max-steps", "10", "--checks", "20", "--out", &d],
        1,
        &["20 policy checks for 10 steps"],
    );
    assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn the_library_refuses_the_same_counts_before_writing() {
    let dir = scratch("library");
    let out = dir.join("results");
    let make_env = || rl_experiment::catalog::make("GridWorld-4x5", None);
    let base = ExperimentConfig::new("GridWorld-4x5", "q-learning", 100);
    for config in [
        ExperimentConfig {
            max_steps: u64::MAX,
            num_policy_checks: u64::MAX,
            ..base.clone()
        },
        ExperimentConfig {
            checks_per_policy: u64::MAX,
            ..base.clone()
        },
        ExperimentConfig {
            runs: 1_000_000_000_000,
            ..base.clone()
        },
        ExperimentConfig {
            evaluation_step_limit: u64::MAX,
            ..base.clone()
        },
    ] {
        let threads = std::num::NonZeroUsize::MIN;
        let error = run_experiment(&config, &out, &make_env, threads, &|| false, &Silent)
            .expect_err("refused");
        assert!(
            error.to_string().contains("give a whole number from 1 to"),
            "{error}"
        );
        assert!(!out.exists(), "nothing is written for {config:?}");
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn negative_counts_and_missing_arguments_are_named() {
    assert_one_line(
        &["run", "--runs", "-3"],
        2,
        &["--runs", "-3 is less than 1", "from 1 to"],
    );
    assert_one_line(
        &["run", "--checks", "0"],
        2,
        &["--checks", "0 is less than 1"],
    );
    assert_one_line(&["run", "--threads", "-1"], 2, &["--threads", "-1"]);
    assert_one_line(
        &["run", "--threads", "5000"],
        2,
        &["--threads", "from 1 to 4096"],
    );
    assert_one_line(&["run", "--seed", "-1"], 2, &["--seed", "'-1'"]);
    assert_one_line(&["render"], 2, &["required", "--out"]);
    assert_one_line(&["replay"], 2, &["required", "<FILES>"]);
    assert_one_line(
        &["frobnicate"],
        2,
        &["unrecognized subcommand", "frobnicate"],
    );
    assert_one_line(
        &["run", "--agent", "dqn"],
        1,
        &["unknown agent \"dqn\"", "q-learning"],
    );
}

#[test]
fn an_output_path_that_is_a_file_is_explained() {
    let dir = scratch("out-file");
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a directory").expect("write");
    let file_arg = file.display().to_string();
    assert_one_line(
        &["run", "--out", &file_arg],
        1,
        &[&file_arg, "is a file", "choose another --out"],
    );
    let inside = file.join("results").display().to_string();
    assert_one_line(
        &["run", "--out", &inside],
        1,
        &[&file_arg, "is a file", "choose another --out"],
    );
    assert_eq!(entries(&dir), ["a-file"]);
    assert_eq!(std::fs::read(&file).expect("read"), b"not a directory");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

/// A standard output whose reader went away.
struct ClosedPipe;

impl Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A standard output that fails otherwise.
struct FullDisk;

impl Write for FullDisk {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("no space left"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_closed_pipe_ends_quietly_and_other_write_errors_do_not() {
    let mut err = Vec::new();
    let code = rl_experiment::cli::run_with_args(["rl", "list"], &mut ClosedPipe, &mut err);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));

    let mut err = Vec::new();
    let code = rl_experiment::cli::run_with_args(["rl", "list"], &mut FullDisk, &mut err);
    assert_eq!(code, ExitCode::from(1));
    let err = String::from_utf8(err).expect("utf-8");
    assert!(
        err.starts_with("rl: error: cannot write to standard output: no space left"),
        "{err}"
    );
}

#[test]
fn help_opens_with_the_command_line_and_every_error_has_one_prefix() {
    let (code, out, _) = rl(&["--help"]);
    assert_eq!(code, ExitCode::SUCCESS);
    let first = out.lines().next().expect("a first line");
    assert!(
        first.starts_with(
            "rl: list the reinforcement-learning domains and agents, run resumable experiments"
        ),
        "{out}"
    );
    assert!(
        !out.contains("Episode runner"),
        "the library's description: {out}"
    );
    for args in [
        &["run", "--max-steps", "x"][..],
        &["run", "--domain", "Nope-v0"],
        &["check", "--domain", "Nope-v0"],
        &["render", "--domain", "Nope-v0", "--out", "x.svg"],
        &["run", "--unknown-flag"],
    ] {
        let (code, _, err) = rl(args);
        assert_ne!(code, ExitCode::SUCCESS, "{args:?}");
        assert!(err.starts_with("rl: error: "), "{args:?}: {err}");
        assert_eq!(err.matches("rl:").count(), 1, "{err}");
    }
}

#[test]
fn an_unknown_id_suggests_the_closest_and_lists_the_ids_by_prefix() {
    let dir = scratch("unknown-id");
    let out = dir.join("results").display().to_string();
    let picture = dir.join("picture.svg").display().to_string();
    for args in [
        &["run", "--domain", "cartpole-v1", "--out", &out][..],
        &["check", "--domain", "cartpole-v1"],
        &["render", "--domain", "cartpole-v1", "--out", &picture],
    ] {
        let (code, stdout, err) = rl(args);
        assert_eq!(code, ExitCode::from(1), "{args:?}: {err}");
        assert!(stdout.is_empty(), "{args:?} printed to stdout: {stdout}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(
            lines[0], "rl: error: unknown id `cartpole-v1`; did you mean `CartPole-v1`?",
            "{args:?}: {err}"
        );
        assert_eq!(lines[1], "registered ids, by prefix:", "{err}");
        assert!(
            lines.len() <= 32,
            "at most 30 lines of ids: {} lines\n{err}",
            lines.len()
        );
        // One id per line, the family named on the first line of each.
        let families: Vec<&str> = lines[2..]
            .iter()
            .filter_map(|line| line.trim_start().split_once(':').map(|(family, _)| family))
            .collect();
        for family in ["CartPole", "MountainCar", "Acrobot", "GridWorld"] {
            assert_eq!(
                families.iter().filter(|name| **name == family).count(),
                1,
                "{family} is not one heading: {err}"
            );
        }
        let grid_line = lines
            .iter()
            .position(|line| line.trim_start().starts_with("GridWorld:"))
            .expect("a GridWorld line");
        assert!(
            lines[grid_line].ends_with(" GridWorld-10x10-12ftml"),
            "{err}"
        );
        assert!(
            lines[grid_line + 1].trim() == "GridWorld-10x7-ACC2011",
            "{err}"
        );
        // More ids than lines (MiniGrid's 76 among them): every family shows, and the last
        // line says how many are left out.
        assert!(
            lines
                .iter()
                .any(|line| line.trim_start().starts_with("MiniGrid:")),
            "{err}"
        );
        assert!(
            lines
                .last()
                .is_some_and(|line| line.trim_start().starts_with("and ")
                    && line.ends_with("more: `rl list` shows them all")),
            "{err}"
        );
        assert!(
            !err.contains("register_builtins") && !err.contains("rl_domains"),
            "a hint for library developers: {err}"
        );
        assert_eq!(err.matches("rl:").count(), 1, "{err}");
    }
    // An id nothing is close to gets no guess.
    let (_, _, err) = rl(&["run", "--domain", "Zeppelin-v9", "--out", &out]);
    assert_eq!(
        err.lines().next(),
        Some("rl: error: unknown id `Zeppelin-v9`"),
        "{err}"
    );
    assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn list_shows_the_ids_one_per_line_under_their_family() {
    let (code, out, err) = rl(&["list"]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "domains:");
    let agents = lines
        .iter()
        .position(|line| *line == "agents:")
        .expect("an agents heading");
    let mut heading = None;
    let mut listed = Vec::new();
    for line in &lines[1..agents] {
        if let Some(family) = line.strip_prefix("  ").and_then(|l| l.strip_suffix(':')) {
            assert!(!family.starts_with(' '), "{line:?}");
            heading = Some(family);
            continue;
        }
        let entry = line.strip_prefix("    ").expect("an id under a heading");
        let (id, description) = entry.split_once(' ').expect("an id and a description");
        let family = heading.expect("a family heading before the first id");
        // The family is the catalogue's: the one its documentation names (its page is
        // docs/catalogue/FAMILY.md), or the id's prefix.
        let entry = rl_core::registry::describe(id).expect("a listed id is registered");
        assert_eq!(entry.family(), family, "{id} under {family}");
        assert!(!description.trim().is_empty(), "{id} has no description");
        listed.push(id.to_owned());
    }
    // Every domain once, with the description `rl list` always showed.
    let domains = rl_experiment::catalog::domains();
    let ids: Vec<String> = domains.iter().map(|(id, _)| id.clone()).collect();
    let mut sorted_listed = listed.clone();
    let mut sorted_ids = ids.clone();
    sorted_listed.sort();
    sorted_ids.sort();
    assert_eq!(sorted_listed, sorted_ids);
    for (id, description) in &domains {
        assert!(
            lines
                .iter()
                .any(|line| line.trim_start().starts_with(&format!("{id} "))
                    && line.ends_with(description.as_str())),
            "{id}: {description}"
        );
    }
    // The GridWorld maps share one heading.
    let grid_headings = lines.iter().filter(|line| **line == "  GridWorld:").count();
    assert_eq!(grid_headings, 1, "{out}");
    assert!(lines.contains(&"  CartPole:"), "{out}");
    assert!(
        lines[agents + 1..]
            .iter()
            .any(|line| line.trim_start().starts_with("q-learning ")),
        "{out}"
    );
}

#[test]
fn an_output_extension_that_is_not_the_format_written_is_an_error() {
    let dir = scratch("extension");
    let path = |name: &str| dir.join(name).display().to_string();
    let (gif, svg, png, upper) = (path("x.gif"), path("x.svg"), path("x.png"), path("X.SVG"));
    assert_one_line(
        &["render", "--out", &gif],
        1,
        &[
            "invalid --out",
            &gif,
            "ends in .gif",
            "without --episode writes an SVG picture",
            "name a .svg file",
            "add --episode",
        ],
    );
    assert_one_line(
        &["render", "--episode", "--out", &svg],
        1,
        &[
            "invalid --out",
            "ends in .svg",
            "`rl render --episode` writes an animated GIF",
            "name a .gif file",
        ],
    );
    assert_one_line(
        &[
            "render",
            "--episode",
            "--run",
            &path("missing"),
            "--out",
            &png,
        ],
        1,
        &["ends in .png", "animated GIF"],
    );
    let results = dir.join("results").display().to_string();
    let (code, _, err) = rl(&[
        "run",
        "--domain",
        "GridWorld-1x3",
        "--max-steps",
        "20",
        "--checks",
        "1",
        "--checks-per-policy",
        "1",
        "--runs",
        "1",
        "--out",
        &results,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert_one_line(
        &["plot", &results, "--out", &png],
        1,
        &[
            "invalid --out",
            "ends in .png",
            "`rl plot` writes an SVG picture",
            "name a .svg file",
        ],
    );
    assert_eq!(entries(&dir), ["results"], "nothing is written");
    // The extension that matches, in any case, is taken.
    let (code, _, err) = rl(&["render", "--out", &upper]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let (code, _, err) = rl(&["plot", &results, "--out", &svg]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn a_directory_of_another_domain_names_the_domain_first() {
    let dir = scratch("another-domain");
    let out = dir.join("results").display().to_string();
    let small = |domain: &'static str| {
        [
            "run",
            "--domain",
            domain,
            "--max-steps",
            "20",
            "--checks",
            "1",
            "--checks-per-policy",
            "1",
            "--runs",
            "1",
            "--out",
        ]
    };
    let mut first = small("GridWorld-1x3").to_vec();
    first.push(&out);
    let (code, _, err) = rl(&first);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let before = std::fs::read(dir.join("results/experiment.json")).expect("experiment.json");
    // CartPole's default agent and its parameters differ too (the agent parameters used to be
    // reported instead of the domain): they follow the domain.
    let mut second = small("CartPole-v1").to_vec();
    second.push(&out);
    assert_one_line(
        &second,
        1,
        &[
            "holds results of a different experiment (domain was \"GridWorld-1x3\", now \"CartPole-v1\"; agent was \"q-learning\", now \"linear-sarsa\"; agent_params was null, now {",
            "choose another --out or remove it",
        ],
    );
    // Without a change of domain, the differences start with what did change.
    let mut third = small("GridWorld-1x3").to_vec();
    third.extend([out.as_str(), "--agent", "sarsa", "--seed", "5"]);
    assert_one_line(
        &third,
        1,
        &["(agent was \"q-learning\", now \"sarsa\"; seed was 1, now 5)"],
    );
    let after = std::fs::read(dir.join("results/experiment.json")).expect("experiment.json");
    assert_eq!(before, after, "the directory is unchanged");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn the_readme_says_how_to_get_rl_on_the_path() {
    // The README's install command names this package, whose binary is `rl`.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).expect("the README");
    assert!(
        readme.contains("`cargo install --path crates/rl-experiment`"),
        "the README says how to install `rl`"
    );
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the manifest");
    assert!(
        manifest.contains("[[bin]]\nname = \"rl\"\n"),
        "crates/rl-experiment builds the `rl` binary"
    );
}

/// The MuJoCo ids are listed, and `rl run` runs one with its default agent (InvertedPendulum's
/// `linear-sarsa` over tile-coding ranges its registration gives; the other ids' `random`)
/// where the library is found; a bad
/// parameter is an error naming it. Without the library, the test says so (making an id then
/// says how to get it: rl-mujoco's doctests).
#[test]
fn mujoco_ids_are_listed_and_run_with_their_default_agent() {
    let (code, out, err) = rl(&["list"]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(out.lines().any(|line| line.trim() == "MuJoCo:"), "{out}");
    assert!(out.contains("InvertedPendulum-v5"), "{out}");
    if let Err(reason) = crate::mujoco_library() {
        println!("skipping the MuJoCo run: {reason}");
        return;
    }
    let dir = scratch("mujoco");
    let results = dir.join("results");
    let results_text = results.display().to_string();
    let (code, out, err) = rl(&[
        "run",
        "--domain",
        "InvertedPendulum-v5",
        "--max-steps",
        "300",
        "--checks",
        "2",
        "--runs",
        "2",
        "--out",
        &results_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(
        out.starts_with("linear-sarsa on InvertedPendulum-v5"),
        "{out}"
    );
    assert!(
        results.join("summary.csv").is_file(),
        "{:?}",
        entries(&results)
    );
    let (code, _, err) = rl(&[
        "run",
        "--domain",
        "Hopper-v5",
        "--params",
        r#"{"frame_skip": 0}"#,
        "--out",
        &results_text,
    ]);
    assert_ne!(code, ExitCode::SUCCESS);
    assert!(err.contains("frame_skip"), "{err}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
