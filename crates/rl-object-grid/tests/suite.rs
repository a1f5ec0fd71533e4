//! The integration tests of rl-object-grid in one test binary: each module is one file of
//! this directory. `cargo xtask tidy` checks that every file of `tests/` is named here.

mod allocation;
mod babyai;
mod babyai_bot;
mod conformance;
mod images;
mod registry;
