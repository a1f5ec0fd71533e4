//! The extension module `rlrs_nchain._core`: the [`NChain`](nchain::NChain) domain registered
//! in `rl-core`'s table under [`NCHAIN_ID`], and rlrs's Python classes over that table.
//!
//! This is the whole of what a domain author writes in Rust to reach Python: the domain
//! ([`nchain`]), its registration (with `with_state()` and `with_render()` for state access
//! and text pictures from Python), and a `#[pymodule]` that registers it and calls
//! [`rl_python::add_to_module`]. The Python package (`python/rlrs_nchain/__init__.py`) then
//! hands the module to `rlrs.register_envs`, and `gymnasium.make("nchain/NChain-v0")` works.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rl_core::CoreError;
use rl_core::registry::Registration;

pub mod nchain;

/// The id the chain is registered under (Gymnasium's `nchain/NChain-v0`).
pub const NCHAIN_ID: &str = "NChain-v0";

/// Registers the chain in this library's registry, once (a second call finds the id taken and
/// leaves the table as it is), with its state as JSON (`with_state`) and text pictures
/// (`with_render`), so that `reset(options={"state": s})`, `state()` and `render_mode="ansi"`
/// work for it from Python, and its constraint (`with_constraints`), whose violations reach
/// Python as `info["violations"]`.
///
/// # Errors
///
/// A registration refused for another reason than an id already taken (the message names it).
pub fn register() -> Result<(), CoreError> {
    let registration = Registration::new(
        NCHAIN_ID,
        "a slippery chain (5 states by default) where walking to the end pays (Strens 2000)",
        nchain::NChain::new,
    )
    .with_render()
    .with_state()
    .with_transitions()
    .with_constraints();
    match registration.register() {
        Ok(()) | Err(CoreError::DuplicateId { .. }) => Ok(()),
        Err(error) => Err(error),
    }
}

/// The extension module: the chain registered, and rlrs's `Environment`, `Vector`, `ids`,
/// `check` and the rest over this library's registry.
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    register().map_err(|error| PyRuntimeError::new_err(error.to_string()))?;
    rl_python::add_to_module(module)
}
