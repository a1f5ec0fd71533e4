//! `rl plot`: two experiments run in-process overlaid in one SVG with a line, band and legend
//! entry each, and every bad input one line on standard error, a failure status and no file;
//! the README's example, run as written, compares two settings whose curves differ.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rl_experiment::plot::{CURVE_COLOURS, PLOT_DIRECTORIES_LIMIT};

use crate::rl;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-plot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs a small GridWorld experiment with `agent` and `checks` policy checks into `directory`.
fn small_experiment(agent: &str, checks: &str, directory: &Path) {
    let out = directory.display().to_string();
    let (code, stdout, stderr) = rl(&[
        "run",
        "--domain",
        "GridWorld-4x5",
        "--agent",
        agent,
        "--max-steps",
        "300",
        "--checks",
        checks,
        "--checks-per-policy",
        "2",
        "--runs",
        "2",
        "--threads",
        "1",
        "--seed",
        "5",
        "--out",
        &out,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{stdout}\n{stderr}");
    assert!(directory.join("summary.csv").is_file());
}

/// The `<g class="series">` groups of a plot, in order.
fn series(svg: &str) -> Vec<&str> {
    svg.split(r#"<g class="series">"#)
        .skip(1)
        .map(|group| &group[..group.find("</g>").expect("a closed group")])
        .collect()
}

/// Asserts that `args` fail with one `rl: error:` line containing `expected` and write nothing
/// at `out`.
fn assert_fails(args: &[&str], expected: &str, out: &Path) {
    let (code, _, stderr) = rl(args);
    assert_ne!(code, ExitCode::SUCCESS, "{args:?} succeeded");
    assert!(
        stderr.starts_with("rl: error: ") && stderr.lines().count() == 1,
        "{args:?}: {stderr}"
    );
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
    assert!(!out.exists(), "{args:?} wrote {}", out.display());
}

#[test]
fn two_experiments_overlay_with_a_series_and_a_legend_entry_each() {
    let dir = scratch("overlay");
    let learner = dir.join("q-learning-results");
    let random = dir.join("random-results");
    small_experiment("q-learning", "4", &learner);
    small_experiment("random", "2", &random);
    let out = dir.join("pictures").join("compare.svg");
    let (learner_text, random_text, out_text) = (
        learner.display().to_string(),
        random.display().to_string(),
        out.display().to_string(),
    );
    let (code, stdout, stderr) = rl(&["plot", &learner_text, &random_text, "--out", &out_text]);
    assert_eq!(code, ExitCode::SUCCESS, "{stdout}\n{stderr}");
    assert_eq!(stdout, format!("wrote {out_text}\n"));
    assert!(stderr.is_empty(), "{stderr}");

    let svg = std::fs::read_to_string(&out).expect("the plot");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("<title>evaluation return on GridWorld-4x5</title>"));
    // One series per directory, in order, with a marker per check (check 0 included) and
    // its own colour for the line and the band.
    let groups = series(&svg);
    assert_eq!(groups.len(), 2, "{svg}");
    assert_eq!(groups[0].matches(r#"class="check""#).count(), 5);
    assert_eq!(groups[1].matches(r#"class="check""#).count(), 3);
    assert_eq!(svg.matches(r#"class="band""#).count(), 2);
    let bands = &svg[svg.find(r#"<g class="bands">"#).expect("the bands")..];
    let bands: Vec<&str> = bands[..bands.find("</g>").expect("a closed group")]
        .split(r#"class="band""#)
        .skip(1)
        .collect();
    assert_eq!(bands.len(), 2);
    for ((group, band), colour) in groups.iter().zip(&bands).zip(CURVE_COLOURS) {
        assert!(group.contains(&format!(r#"stroke="{colour}""#)), "{group}");
        assert!(band.contains(&format!(r#"fill="{colour}""#)), "{band}");
    }
    // The legend names each directory with its agent, domain and number of runs.
    assert_eq!(svg.matches(r#"class="legend-entry""#).count(), 2);
    for expected in [
        format!(">{learner_text}: q-learning on GridWorld-4x5, 2 runs</text>"),
        format!(">{random_text}: random on GridWorld-4x5, 2 runs</text>"),
    ] {
        assert!(svg.contains(&expected), "{expected} missing from {svg}");
    }
    // The shared horizontal axis ends at the budget, labelled as the single-run plot labels it.
    assert!(svg.contains(">300</text>"), "{svg}");

    // A directory without experiment.json is named by its path alone; --title replaces the
    // title.
    std::fs::remove_file(random.join("experiment.json")).expect("remove experiment.json");
    let (code, _, stderr) = rl(&[
        "plot",
        &random_text,
        "--out",
        &out_text,
        "--title",
        "random alone",
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{stderr}");
    let svg = std::fs::read_to_string(&out).expect("the plot");
    assert!(svg.contains(&format!(">{random_text}</text>")), "{svg}");
    assert!(svg.contains("<title>random alone</title>"));
    assert_eq!(series(&svg).len(), 1);
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn bad_directories_are_one_line_errors_that_write_nothing() {
    let dir = scratch("errors");
    let out = dir.join("plot.svg");
    let out_text = out.display().to_string();

    // No directory at all: the parser names the missing argument.
    assert_fails(&["plot", "--out", &out_text], "<DIR>", &out);

    // A path that does not exist, and a directory without summary.csv, are named.
    let missing = dir.join("no-such-results").display().to_string();
    assert_fails(
        &["plot", &missing, "--out", &out_text],
        &format!("{missing}: no such directory"),
        &out,
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("empty directory");
    let empty_text = empty.display().to_string();
    assert_fails(
        &["plot", &empty_text, "--out", &out_text],
        &format!("{empty_text}: no summary.csv in this directory"),
        &out,
    );

    // A summary.csv that does not parse: the file and the line are named, even when the
    // directory before it reads well.
    let good = dir.join("good");
    std::fs::create_dir_all(&good).expect("good directory");
    std::fs::write(
        good.join("summary.csv"),
        format!(
            "{}\n0,0,1,-1,0,-1,10,1,0\n1,100,1,0.5,0,0.5,3,1,0\n",
            rl_experiment::results::SUMMARY_HEADER
        ),
    )
    .expect("a summary");
    let bad = dir.join("bad");
    std::fs::create_dir_all(&bad).expect("bad directory");
    std::fs::write(
        bad.join("summary.csv"),
        format!(
            "{}\n0,0,1,-1,0,-1,10,1,0\n1,100,1,oops,0,0.5,3,1,0\n",
            rl_experiment::results::SUMMARY_HEADER
        ),
    )
    .expect("a summary");
    let (good_text, bad_text) = (good.display().to_string(), bad.display().to_string());
    assert_fails(
        &["plot", &good_text, &bad_text, "--out", &out_text],
        &format!(
            "{}: not a valid results file: line 3: return_mean is not a number: \"oops\"",
            bad.join("summary.csv").display()
        ),
        &out,
    );

    // More directories than the limit, checked before any is read.
    let too_many: Vec<String> = (0..=PLOT_DIRECTORIES_LIMIT)
        .map(|_| good_text.clone())
        .collect();
    let mut args = vec!["plot"];
    args.extend(too_many.iter().map(String::as_str));
    args.extend(["--out", &out_text]);
    assert_fails(
        &args,
        &format!(
            "{} given, but one plot overlays at most {PLOT_DIRECTORIES_LIMIT}",
            PLOT_DIRECTORIES_LIMIT + 1
        ),
        &out,
    );

    // The limit itself is fine: sixteen curves in sixteen colours.
    let mut args = vec!["plot"];
    args.extend(
        too_many[..PLOT_DIRECTORIES_LIMIT]
            .iter()
            .map(String::as_str),
    );
    args.extend(["--out", &out_text]);
    let (code, _, stderr) = rl(&args);
    assert_eq!(code, ExitCode::SUCCESS, "{stderr}");
    let svg = std::fs::read_to_string(&out).expect("the plot");
    assert_eq!(series(&svg).len(), PLOT_DIRECTORIES_LIMIT);
    for colour in CURVE_COLOURS {
        assert!(svg.contains(&format!(r#"stroke="{colour}""#)), "{colour}");
    }
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[test]
fn the_help_describes_the_command() {
    let (code, stdout, _) = rl(&["plot", "--help"]);
    assert_eq!(code, ExitCode::SUCCESS);
    for expected in ["summary.csv", "At most 16 directories", "--out", "--title"] {
        assert!(
            stdout.contains(expected),
            "{expected} missing from {stdout}"
        );
    }
}

/// The words of a shell command line as the README writes them: split at blanks, a
/// single-quoted word taken as written without its quotes.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for character in line.chars() {
        match character {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            other => word.push(other),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// `words` of an `rl` command with each path (an `--out` value or a positional argument after
/// the subcommand) moved into `directory`.
fn in_directory(words: &[String], directory: &Path) -> Vec<String> {
    let mut moved = Vec::with_capacity(words.len());
    for (index, word) in words.iter().enumerate() {
        let previous = if index > 0 {
            words[index - 1].as_str()
        } else {
            ""
        };
        let is_value = previous.starts_with("--") && previous != "--out";
        let is_path = index > 1 && !word.starts_with('-') && !is_value;
        moved.push(if is_path {
            directory.join(word).display().to_string()
        } else {
            word.clone()
        });
    }
    moved
}

#[test]
fn the_readme_plot_example_compares_two_settings_that_differ() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("the README");
    let lines: Vec<&str> = readme.lines().collect();
    // The README's first command, `cargo run --release --bin rl -- run`, writes `results`.
    let first = lines
        .iter()
        .find_map(|line| line.split_once("--bin rl -- "))
        .map(|(_, command)| command.split('#').next().unwrap_or_default())
        .expect("the README's first command");
    let mut commands = vec![shell_words(&format!("{} --out results", first.trim()))];
    // Then the block of the `rl plot` example.
    let plot = lines
        .iter()
        .position(|line| line.starts_with("rl plot "))
        .expect("an `rl plot` example");
    let start = lines[..plot]
        .iter()
        .rposition(|line| line.starts_with("```"))
        .expect("the example's block");
    commands.extend(
        lines[start + 1..=plot]
            .iter()
            .filter_map(|line| line.strip_prefix("rl "))
            .map(shell_words),
    );
    assert_eq!(
        commands
            .iter()
            .map(|words| words[0].as_str())
            .collect::<Vec<_>>(),
        ["run", "run", "plot"],
        "{commands:?}"
    );
    let dir = scratch("readme");
    for words in &commands {
        let words = in_directory(
            &std::iter::once("rl".to_owned())
                .chain(words.iter().cloned())
                .collect::<Vec<_>>(),
            &dir,
        );
        let words: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
        let (code, stdout, stderr) = rl(&words);
        assert_eq!(code, ExitCode::SUCCESS, "{words:?}: {stdout}\n{stderr}");
    }
    // Two settings that differ: the two curves end apart, as the README says (about 0.9 and
    // about 0.5; the runs are seeded, so these are the same numbers on every machine).
    let last = |name: &str| {
        rl_experiment::results::read_summary(&dir.join(name))
            .expect("a summary")
            .last()
            .expect("a check")
            .return_mean
    };
    let (plain, noisy) = (last("results"), last("results-noisy"));
    assert!(
        (0.85..=0.95).contains(&plain) && (0.45..=0.6).contains(&noisy),
        "the README's curves end at {plain} and {noisy}"
    );
    let svg = std::fs::read_to_string(dir.join("compare.svg")).expect("the plot");
    assert_eq!(series(&svg).len(), 2, "{svg}");
    std::fs::remove_dir_all(&dir).expect("cleanup");
}
