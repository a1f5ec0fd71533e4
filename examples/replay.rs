//! Replays reference trace files against `rl-domains` with the `rl-reference` engine and reports every difference.
//!
//! ```text
//! cargo run --release --example replay -- testdata/reference/*.json
//! ```
//!
//! For each file it prints `NAME: N steps checked, M mismatches` (`N entries checked` for a
//! GridWorld transition table), then the first mismatches with the field and both values.
//! The exit code is 0 when every file replays without a mismatch, 1 when any file has a
//! mismatch or cannot be read, parsed or resolved (an unknown domain or variant), and 2
//! when no file is given.

use std::process::ExitCode;

use rl_reference::replay_files_report;

/// How many mismatches are printed per file.
const SHOWN_MISMATCHES: usize = 10;

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() || files.iter().any(|file| file == "--help" || file == "-h") {
        eprintln!("usage: cargo run --release --example replay -- FILE...");
        eprintln!("replays reference trace files (testdata/reference/README.md gives the schema)");
        return ExitCode::from(2);
    }
    let (text, all_match) = replay_files_report(&files, SHOWN_MISMATCHES);
    print!("{text}");
    if all_match {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
