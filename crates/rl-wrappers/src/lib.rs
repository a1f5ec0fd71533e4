//! Wrappers around environments: numeric representations, history stacking, time limits,
//! encodings, normalisation, statistics, and vectorised stepping.
//!
//! So far this crate holds the batch-kernel capability ([`vector::BatchStep`]) that domains
//! implement; the wrappers themselves are being written.

pub mod vector;
