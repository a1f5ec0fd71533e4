//! The integration tests of rl-core in one test binary: each module is one file of this
//! directory (one binary links much faster than one per file). `cargo xtask tidy` checks that
//! every file of `tests/` is named here or declared in Cargo.toml.

mod allocation;
mod checker;
mod constraints_by_id;
mod invalid_action;
mod registered;
mod robustness;
mod simulator;
