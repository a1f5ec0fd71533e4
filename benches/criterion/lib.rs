//! The criterion benchmarks of the rl-* crates, as this package's bench targets (`spaces`,
//! `domains`, `simulator`, `wrappers`, `vector`, `frames`; their workloads are rl-benches'); the
//! library itself is empty. Run them with
//!
//! ```text
//! cargo bench -p rl-criterion
//! cargo bench -p rl-criterion --bench vector
//! ```
//!
//! (docs/PERFORMANCE.md has the results). The package exists so that criterion compiles only
//! for the benchmarks: see its Cargo.toml.
