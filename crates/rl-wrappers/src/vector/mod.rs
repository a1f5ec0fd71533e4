//! Vectorised stepping: many environments in lockstep, in structure-of-arrays buffers.

mod kernel;

pub use kernel::{BatchStep, ColumnChunk, StateColumns};
