//! The integration tests of rl-experiment in one test binary: each module is one file of this
//! directory (one binary links much faster than one per file). `cargo xtask tidy` checks that
//! every file of `tests/` is named here or declared in Cargo.toml.

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
