//! The `rl` command line with the thermostat among its ids: `rl list`, `rl check`, `rl render`,
//! `rl run` (`cargo run -- check --domain Thermostat-v0`).

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Err(error) = thermostat::register() {
        eprintln!("thermostat: {error}");
        return ExitCode::FAILURE;
    }
    rl_experiment::cli::main_with_args(std::env::args_os())
}
