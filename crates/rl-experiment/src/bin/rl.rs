//! The `rl` command line: `rl list`, `rl run`, `rl render`, `rl check`, `rl replay`.
//! See `rl --help` and `rl_experiment::cli`.

use std::process::ExitCode;

fn main() -> ExitCode {
    rl_experiment::cli::main_with_args(std::env::args_os())
}
