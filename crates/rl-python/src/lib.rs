//! `rlrs`: every environment registered in `rl-core`'s table as a Gymnasium environment and
//! vector in Python (this crate is the Rust core, `rlrs._core`, of the Python package whose
//! pure-Python part is in `python/rlrs/`).
//!
//! The extension module exposes:
//!
//! - `ids()` and `entries()`: the registered ids (built-ins registered first),
//! - `Environment(id, params_json=None, seed=0)`: one environment ([`single`]),
//! - `Vector(id, params_json=None, num_envs=1, seed=0, autoreset="next_step", threads=1)`: a
//!   vector with episode statistics whose outputs are NumPy arrays written in place
//!   ([`vector`]).
//!
//! # Exposing a domain of your own
//!
//! A crate outside this workspace registers its domain in the same table
//! (`rl_core::registry::Registration::register`) and builds an extension module of its own
//! that calls [`add_to_module`] after registering: its ids then work through `rlrs` like the
//! built-in ones (see the package README).

use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rl_core::CoreError;
use rl_core::registry::RegisteredDomain;
use serde_json::Value;

mod convert;
pub mod single;
pub mod vector;

/// Registers the built-in domains (idempotent).
pub(crate) fn register() {
    rl_domains::register_builtins();
}

/// A registry failure as a Python exception: unknown ids are `KeyError`s, bad parameters and
/// actions `ValueError`s, the rest `RuntimeError`s.
pub(crate) fn core_error(error: CoreError) -> PyErr {
    match error {
        CoreError::UnknownId { .. } => PyKeyError::new_err(error.to_string()),
        CoreError::InvalidParameters { .. }
        | CoreError::InvalidParameter { .. }
        | CoreError::InvalidDomain { .. }
        | CoreError::InvalidAction { .. } => PyValueError::new_err(error.to_string()),
        other => PyRuntimeError::new_err(other.to_string()),
    }
}

/// The JSON parameters given as text (`None` for the defaults).
pub(crate) fn parse_params(params_json: Option<&str>) -> PyResult<Option<Value>> {
    params_json
        .map(|text| {
            serde_json::from_str(text).map_err(|error| {
                PyValueError::new_err(format!("the parameters are not valid JSON: {error}"))
            })
        })
        .transpose()
}

/// The domain registered under `id`, built with the JSON parameters `params_json`.
pub(crate) fn build_domain(
    id: &str,
    params_json: Option<&str>,
) -> PyResult<Box<dyn RegisteredDomain>> {
    register();
    let params = parse_params(params_json)?;
    rl_core::registry::build(id, params.as_ref()).map_err(core_error)
}

/// Every registered id, in registration order.
#[pyfunction]
fn ids() -> Vec<String> {
    register();
    rl_core::registry::ids()
}

/// Every registered id with its one-line description: a list of `(id, description)`.
#[pyfunction]
fn entries() -> Vec<(String, String)> {
    register();
    rl_core::registry::list()
        .into_iter()
        .map(|entry| (entry.id, entry.description))
        .collect()
}

/// The domain's discount factor and episode cap (`None` when uncapped) for `id` built with
/// `params_json`.
#[pyfunction]
#[pyo3(signature = (id, params_json = None))]
fn domain_info(id: &str, params_json: Option<&str>) -> PyResult<(f64, Option<u64>)> {
    let domain = build_domain(id, params_json)?;
    Ok((domain.discount(), domain.episode_cap()))
}

/// The definition of the space defined by `definition_json`, as the Rust core writes it (the
/// explicit form: flat lists, every optional field present); errors name what was wrong.
#[pyfunction]
fn space_definition(definition_json: &str) -> PyResult<String> {
    let space = rl_spaces::AnySpace::from_definition_str(definition_json).or_else(|_| {
        let value: Value = serde_json::from_str(definition_json).map_err(|error| {
            PyValueError::new_err(format!("the definition is not valid JSON: {error}"))
        })?;
        rl_spaces::AnySpace::from_definition(&value)
            .map_err(|error| PyValueError::new_err(format!("{error}")))
    })?;
    Ok(space.to_definition().to_string())
}

/// The seed of environment `index` of a vector seeded with `seed`
/// (`rl_wrappers::derive_seed`): a single environment seeded with it starts like that one.
#[pyfunction]
fn derive_seed(seed: u64, index: u64) -> u64 {
    rl_wrappers::derive_seed(seed, index)
}

/// Adds the classes and functions of `rlrs._core` to `module`: what a domain author's own
/// extension module calls after registering its domains, so that the same Python classes
/// drive them.
pub fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<single::PyEnvironment>()?;
    module.add_class::<vector::PyVector>()?;
    module.add_function(wrap_pyfunction!(ids, module)?)?;
    module.add_function(wrap_pyfunction!(entries, module)?)?;
    module.add_function(wrap_pyfunction!(domain_info, module)?)?;
    module.add_function(wrap_pyfunction!(space_definition, module)?)?;
    module.add_function(wrap_pyfunction!(derive_seed, module)?)?;
    Ok(())
}

/// The extension module `rlrs._core`.
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    register();
    add_to_module(module)
}
