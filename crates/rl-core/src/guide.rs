//! Writing your own domain: the guide of `docs/custom-domain.md`, whose examples run as the
//! doctests of this module.
#![doc = include_str!("../../../docs/custom-domain.md")]
