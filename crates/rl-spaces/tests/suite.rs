//! The integration tests of rl-spaces in one test binary: each module is one file of this
//! directory (one binary links much faster than one per file). `cargo xtask tidy` checks that
//! every file of `tests/` is named here or declared in Cargo.toml.

mod columns;
mod conformance;
mod definitions;
mod distributions;
mod golden;
mod gymnasium;
mod limits;
mod masks;
mod numpy_generator;
mod numpy_ziggurat;
mod robustness;
