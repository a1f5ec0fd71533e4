//! The integration tests of rl-experiment in one test binary: each module is one file of this
//! directory (one binary links much faster than one per file). `cargo xtask tidy` checks that
//! every file of `tests/` is named here or declared in Cargo.toml.

mod bot;
mod catalogue;
mod cli;
mod command_line;
mod constraints;
mod learning;
mod mountain_car;
mod plot;
mod runs;
mod sweep;
mod video;

/// The ids this test binary's own tests register beside the built-ins (the registry is one
/// table per process, and tests run in parallel): the catalogue, which lists the built-in ids,
/// leaves them out.
pub const TEST_IDS: &[&str] = &[constraints::ID];

/// Opens the MuJoCo library for the tests of the MuJoCo ids, as rl-mujoco's tests find it: the
/// `mujoco` package of the developers' virtualenv (`target/rl-python-venv`, which
/// `crates/rl-python/venv.sh`, CI's step `venv`, makes), unless `RL_MUJOCO_LIBRARY` or `RL_MUJOCO_PYTHON` name
/// another, else the Python on `PATH`. Returns why not where none is found (the tests that need
/// it then say so and check the rest).
pub fn mujoco_library() -> Result<(), String> {
    use rl_mujoco::library;
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    library::load(library::workspace_source(&workspace))
        .map(|_| ())
        .map_err(|error| error.to_string())
}

/// Runs the `rl` command line in-process with `args` (the words after `rl`): its exit status,
/// standard output and standard error.
pub fn rl(args: &[&str]) -> (std::process::ExitCode, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rl_experiment::cli::run_with_args(
        std::iter::once("rl").chain(args.iter().copied()),
        &mut out,
        &mut err,
    );
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("utf-8");
    (code, text(out), text(err))
}
