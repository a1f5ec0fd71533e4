//! The integration tests of rl-wrappers in one test binary: each module is one file of this
//! directory (one binary links much faster than one per file). `cargo xtask tidy` checks that
//! every file of `tests/` is named here or declared in Cargo.toml.

mod common;

mod allocation;
mod allocation_pictures;
mod async_vector;
mod conformance;
mod constraints_by_id;
mod f64_rows;
mod history;
mod infos;
mod kernel;
mod modes;
mod normalize;
mod outer;
mod pictures;
mod robustness;
mod statistics;
mod stepped_by_id;
mod time_limit;
mod transforms;
mod vector;
mod vector_stack;
mod vector_threads;
mod vector_wrappers;
mod wrappers_by_id;
