//! The integration tests of rl-domains in one test binary: each module is one file of this
//! directory (one binary links much faster than one per file). `cargo xtask tidy` checks that
//! every file of `tests/` is named here or declared in Cargo.toml.

mod allocation;
mod batch;
mod conformance;
mod domains;
mod frames;
mod gridworld_map;
mod gridworld_space;
mod observation_bounds;
mod registry;
mod render;
mod robustness;
mod toy_text_frames;
