//! The workspace's documents as doctests: the README's quick start and the examples of
//! docs/custom-domain.md and docs/spaces.md compile and run as this unpublished package's
//! doctests, so that no
//! published crate includes a file from outside its own directory.

#[doc = include_str!("../README.md")]
pub mod readme {}

#[doc = include_str!("../docs/custom-domain.md")]
pub mod custom_domain {}

#[doc = include_str!("../docs/spaces.md")]
pub mod spaces {}
