//! Shared workloads of the criterion benchmarks and of the `throughput` binary: hand-written
//! loops of the exact dynamics ([`raw`]), the loops that drive the library through its public
//! API ([`workloads`]), and the warm-up, repeated runs and medians of the binary ([`timing`]).
//!
//! Everything here exists to be measured; nothing in the libraries depends on it. The tests
//! of this crate check that each hand-written loop computes, bit for bit, what the library
//! computes, so that comparing their speeds compares the same work.

pub mod raw;
pub mod timing;
pub mod workloads;
