//! The workspace's documents as doctests: the README's quick start and the examples of
//! docs/constraints.md and docs/spaces.md compile and run as this unpublished package's
//! doctests, so that no published crate includes a file from outside its own directory.
//! (docs/custom-domain.md and docs/python-domain.md show the files of the crates
//! `examples/custom-domain` and `examples/python-domain`, workspace members, which CI builds
//! and tests; `tests/guides.rs` checks that the pages and the files agree.)

#[doc = include_str!("../README.md")]
pub mod readme {}

#[doc = include_str!("../docs/constraints.md")]
pub mod constraints {}

#[doc = include_str!("../docs/spaces.md")]
pub mod spaces {}
