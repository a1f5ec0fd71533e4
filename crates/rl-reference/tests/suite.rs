//! The integration tests of rl-reference in one test binary: each module is one file of this
//! directory (one binary links much faster than one per file). `cargo xtask tidy` checks that
//! every file of `tests/` is named here or declared in Cargo.toml.

mod batch_kernels;
mod domain_paths;
mod replay;
mod robustness;
mod seeded;
