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
