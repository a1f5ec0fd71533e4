//! `rlrs`: every environment registered in `rl-core`'s table as a Gymnasium environment and
//! vector in Python (this crate is the Rust core, `rlrs._core`, of the Python package whose
//! pure-Python part is in `python/rlrs/`).
//!
//! The extension module exposes:
//!
//! - `ids()` and `entries()`: the registered ids, in registration order,
//! - `Environment(id, params_json=None, seed=0)`: one environment ([`single`]),
//! - `Vector(id, params_json=None, num_envs=1, seed=0, autoreset="next_step", threads=1)`: a
//!   vector with episode statistics whose outputs are NumPy arrays written in place
//!   ([`vector`]),
//! - `AsyncVector(id, params_json=None, num_envs=1, batch_size=1, seed=0, threads=1)`: an
//!   asynchronous vector, EnvPool's `send`/`recv` (`async_reset`, `send_discrete`,
//!   `send_array`, `send_elements`, `recv`), which `rlrs.EnvPool` drives ([`pool`]),
//! - `RustDriver(id, num_envs, seed=0, threads=1)`: the vector `Vector` steps for a `Discrete`
//!   action space, stepped from Rust in a loop, for benchmarks that time both in one process
//!   ([`driver`]; not part of the Gymnasium API),
//! - `check(id, params_json=None, seed=0)`: the conformance checker's verdict and report,
//! - `domain_info`, `settings` and `space_definition`, which the Python classes use, and
//!   `space_samples_jsonable`, `space_jsonable_round_trip`, `space_samples` and
//!   `space_contains`, which the side-by-side tests of elements against Gymnasium use,
//! - `toy_text_kind`, `toy_text_tables`, `taxi_locations` and `frozen_lake_random_map`:
//!   Gymnasium's toy-text internals for `rlrs.toy_text` ([`toy_text`]).
//! - `is_minigrid`, `minigrid_domain`, `minigrid_state`, `minigrid_frame` and `minigrid_view`:
//!   what `rlrs.minigrid.MiniGridEnv` reads for minigrid's attributes (`src/minigrid.rs`).
//! - `BabyAiBot(env)` and `DisappearedBoxError`: minigrid's BabyAI bot over an environment of
//!   a `BabyAI-*` id, which `rlrs.BabyAIBot` wraps (`src/babyai.rs`).
//!
//! # Exposing a domain of your own
//!
//! A crate outside this workspace (a `cdylib` built with maturin) depends on this one, registers
//! its domains in `rl-core`'s table (`rl_core::registry::Registration::register`) when its own
//! extension module is initialised, and calls [`add_to_module`] there: its `#[pymodule]`
//! function registers the domains (their registrations' `with_state()`, `with_render()` and
//! `with_frames()` give `reset(options={"state": ...})` and `state()`, the `"ansi"` and the
//! `"rgb_array"` render modes from Python; each optional), and calls
//! `rl_python::add_to_module(module)` (and `rl_domains::register_builtins()` and
//! `rl_object_grid::register()` too if it wants the built-in ids). (A code block here could not run as a doctest: a
//! doctest binary that calls PyO3 needs libpython at link time, which an extension module
//! build does without.)
//!
//! In Python, `rlrs.register_envs(core_module="my_package._core", namespace="mine")` then
//! registers its ids with Gymnasium, driven by the same `rlrs.RustEnv` and `rlrs.RustVectorEnv`
//! as the built-ins. The extension module links its own copy of the registry, so it holds
//! exactly the ids its initialisation registered. `examples/python-domain/` in the repository
//! is a complete example crate, and `crates/rl-python/README.md` walks through it.
//!
//! # Features
//!
//! - `rlrs-module`: builds the extension module `rlrs._core` itself (its `PyInit__core`, which
//!   registers the built-in domains). Only the `rlrs` package turns it on (`pyproject.toml`): a
//!   crate that depends on this one leaves it off, so that its library holds one exported
//!   module entry point, its own. (With it on, an author's module also called `_core` would be a
//!   second `PyInit__core`: a debug build of the example links, the linker leaving out the
//!   object that holds rlrs's, but whether it does depends on how the code falls into object
//!   files, so nothing relies on it.)
//! - `extension-module`: PyO3's, set by maturin (links without libpython).

use pyo3::exceptions::{PyKeyError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rl_core::CoreError;
use rl_core::registry::RegisteredDomain;
use serde_json::Value;

mod babyai;
mod convert;
pub mod driver;
mod minigrid;
mod mujoco;
pub mod pool;
pub mod single;
pub mod toy_text;
pub mod vector;

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
    let params = parse_params(params_json)?;
    rl_core::registry::build(id, params.as_ref()).map_err(core_error)
}

/// Every registered id, in registration order.
#[pyfunction]
fn ids() -> Vec<String> {
    rl_core::registry::ids()
}

/// Every registered id with its one-line description: a list of `(id, description)`.
#[pyfunction]
fn entries() -> Vec<(String, String)> {
    rl_core::registry::list()
        .into_iter()
        .map(|entry| (entry.id, entry.description))
        .collect()
}

/// The settings the registration of `id` attaches for higher layers, as JSON text (`None`
/// when it attaches none): the Python classes read `reset_info` (the info a reset returns,
/// Gymnasium's `{"prob": 1}` for FrozenLake), `info_action_mask` (whether each step's and
/// reset's info carries the action mask, as Gymnasium's Taxi's does) and `gymnasium_kwargs`
/// (the keyword arguments minigrid registers the id with, which its spec carries).
#[pyfunction]
fn settings(id: &str) -> PyResult<Option<String>> {
    let entry = rl_core::registry::describe(id)
        .map_err(|_| PyKeyError::new_err(format!("{id} is not a registered id")))?;
    Ok(entry.settings.map(|settings| settings.to_string()))
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
    Ok(read_space(definition_json)?.to_definition().to_string())
}

/// Reads a space definition (a document or the bare definition), naming what was wrong.
fn read_space(definition_json: &str) -> PyResult<rl_spaces::AnySpace> {
    rl_spaces::AnySpace::from_definition_str(definition_json).or_else(|_| {
        let value: Value = serde_json::from_str(definition_json).map_err(|error| {
            PyValueError::new_err(format!("the definition is not valid JSON: {error}"))
        })?;
        rl_spaces::AnySpace::from_definition(&value)
            .map_err(|error| PyValueError::new_err(format!("{error}")))
    })
}

/// The most samples [`space_samples`] and [`space_samples_jsonable`] draw in one call: a larger
/// `count` is a `ValueError` before anything is allocated.
const SAMPLES_LIMIT: usize = 1 << 20;

/// The most samples of a space that does not flatten (Sequence, Text, Graph) those functions
/// draw in one call.
const UNFLATTENABLE_SAMPLES_LIMIT: usize = 1 << 6;

/// The most numbers (samples times the space's flat length) those functions draw in one call:
/// 2^22: as JSON text and its parsed tree, a few hundred MiB.
const SAMPLE_ENTRIES_LIMIT: usize = 1 << 22;

/// Draws `count` samples of `space` (numpy's generator seeded with `seed`) into a vector
/// reserved fallibly: a `count` over [`SAMPLES_LIMIT`], or samples holding more than
/// [`SAMPLE_ENTRIES_LIMIT`] numbers in all, is a `ValueError`, memory that cannot be
/// had a `MemoryError`, never an abort of the Python process.
fn draw_samples(
    space: &rl_spaces::AnySpace,
    seed: u64,
    count: u64,
) -> PyResult<Vec<rl_spaces::AnyElement>> {
    use rl_core::rand::SeedableRng;
    use rl_spaces::TrySampleSpace;
    let count = usize::try_from(count)
        .ok()
        .filter(|&count| count <= SAMPLES_LIMIT)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "count is {count}; at most {SAMPLES_LIMIT} samples are drawn in one call"
            ))
        })?;
    // A space that does not flatten (a Sequence, Text or Graph) has elements of random size
    // (a Sequence nested six deep holds 4096 items on average): at most 2^10 of them a call.
    if !rl_spaces::FlattenSpace::is_flattenable(space) && count > UNFLATTENABLE_SAMPLES_LIMIT {
        return Err(PyValueError::new_err(format!(
            "count is {count}; at most {UNFLATTENABLE_SAMPLES_LIMIT} samples of {space}, whose \
             elements have no fixed size, are drawn in one call"
        )));
    }
    let entries = count.saturating_mul(rl_spaces::FlattenSpace::flat_dim(space).max(1));
    if entries > SAMPLE_ENTRIES_LIMIT {
        return Err(PyValueError::new_err(format!(
            "{count} samples of {space} hold {entries} numbers; at most {SAMPLE_ENTRIES_LIMIT} \
             are drawn in one call"
        )));
    }
    let mut batch = Vec::new();
    batch.try_reserve_exact(count).map_err(|error| {
        pyo3::exceptions::PyMemoryError::new_err(format!("{count} samples: {error}"))
    })?;
    let mut rng = rl_spaces::NumpyGenerator::seed_from_u64(seed);
    batch.extend((0..count).map_while(|_| space.try_sample(&mut rng)));
    Ok(batch)
}

/// `count` samples of the space defined by `definition_json`, drawn with numpy's generator
/// seeded with `seed`, written as a batch in Gymnasium's `to_jsonable` layout (JSON text): what
/// the side-by-side tests hand to Gymnasium's `from_jsonable`. At most 2^20 samples (a larger
/// `count` is a `ValueError`).
#[pyfunction]
fn space_samples_jsonable(definition_json: &str, seed: u64, count: u64) -> PyResult<String> {
    use rl_spaces::JsonSpace;
    let space = read_space(definition_json)?;
    let batch = draw_samples(&space, seed, count)?;
    let json = space
        .batch_to_jsonable(&batch)
        .map_err(|error| PyValueError::new_err(format!("{error}")))?;
    Ok(json.to_string())
}

/// `count` samples of the space defined by `definition_json` (numpy's generator seeded with
/// `seed`) as the Python values the package hands to Gymnasium code (see `convert.rs`). At
/// most 2^20 samples (a larger `count` is a `ValueError`).
#[pyfunction]
fn space_samples<'py>(
    py: Python<'py>,
    definition_json: &str,
    seed: u64,
    count: u64,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let space = read_space(definition_json)?;
    draw_samples(&space, seed, count)?
        .iter()
        .map(|element| convert::element_to_python(py, element))
        .collect()
}

/// Whether `object`, read as an element of the space defined by `definition_json` the way
/// actions are read, is an element of it. Like Gymnasium's `Space.contains`, an object that
/// cannot be read as an element at all (a string for a Discrete space, an array of the wrong
/// shape) is `False`, not an error; only an invalid definition raises.
#[pyfunction]
fn space_contains(definition_json: &str, object: &Bound<'_, PyAny>) -> PyResult<bool> {
    use rl_spaces::Space;
    let space = read_space(definition_json)?;
    Ok(convert::element_from_python(&space, object).is_ok_and(|element| space.contains(&element)))
}

/// Reads a batch written in Gymnasium's `to_jsonable` layout (JSON text) as elements of the
/// space defined by `definition_json`, checking each, and writes it back: the batch as this
/// crate writes it, or a `ValueError` naming what was wrong.
#[pyfunction]
fn space_jsonable_round_trip(definition_json: &str, jsonable_json: &str) -> PyResult<String> {
    use rl_spaces::JsonSpace;
    let space = read_space(definition_json)?;
    let value: Value = serde_json::from_str(jsonable_json)
        .map_err(|error| PyValueError::new_err(format!("the batch is not valid JSON: {error}")))?;
    let batch = space
        .batch_from_jsonable(&value)
        .map_err(|error| PyValueError::new_err(format!("{error}")))?;
    let json = space
        .batch_to_jsonable(&batch)
        .map_err(|error| PyValueError::new_err(format!("{error}")))?;
    Ok(json.to_string())
}

/// The most episodes, and steps an episode, of a [`check`] run (the checker keeps every
/// trajectory it compares: 10^7 steps in all at most).
const CHECK_LIMITS: (usize, usize) = (1_000, 10_000);

/// The conformance checker's verdict and report for the domain registered under `id` (built
/// with `params_json`, its environment seeded with `seed`), over `episodes` episodes of at
/// most `max_steps` steps (the checker's defaults, 5 and 1,000; a quick check of an expensive
/// domain such as `HumanoidStandup-v5`, whose episodes never end early, takes fewer):
/// `(ok, report)`, where `report` is the text `rl_core::CheckReport` prints. Transitions are
/// checked too where the registration declared them.
#[pyfunction]
#[pyo3(signature = (id, params_json = None, seed = 0, episodes = 5, max_steps = 1_000))]
fn check(
    id: &str,
    params_json: Option<&str>,
    seed: u64,
    episodes: usize,
    max_steps: usize,
) -> PyResult<(bool, String)> {
    let (most_episodes, most_steps) = CHECK_LIMITS;
    if !(1..=most_episodes).contains(&episodes) {
        return Err(PyValueError::new_err(format!(
            "episodes must be between 1 and {most_episodes}, got {episodes}"
        )));
    }
    if !(1..=most_steps).contains(&max_steps) {
        return Err(PyValueError::new_err(format!(
            "max_steps must be between 1 and {most_steps}, got {max_steps}"
        )));
    }
    let domain = build_domain(id, params_json)?;
    let config = rl_core::CheckConfig {
        seed,
        episodes,
        max_steps,
        ..rl_core::CheckConfig::default()
    };
    let report = domain.check(&config);
    Ok((report.is_ok(), report.to_string()))
}

/// Adds the classes and functions of `rlrs._core` (`Environment`, `Vector`, `ids`, `entries`,
/// `check`, `domain_info`, `settings`, `space_definition`, `space_samples_jsonable`,
/// `space_jsonable_round_trip`, `space_samples`, `space_contains`, and the toy-text functions
/// of [`toy_text`]) to `module`: what a domain
/// author's own extension module calls, after registering its domains, so that the Python
/// classes `rlrs.RustEnv` and `rlrs.RustVectorEnv` drive them (see the [crate
/// documentation](crate)). It registers nothing itself: the module serves the ids in the
/// registry of the library it is linked into.
///
/// # Errors
///
/// The `PyErr` PyO3 gives when a class or function cannot be added to `module`.
pub fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<single::PyEnvironment>()?;
    module.add_class::<vector::PyVector>()?;
    module.add_class::<driver::PyRustDriver>()?;
    module.add_function(wrap_pyfunction!(ids, module)?)?;
    module.add_function(wrap_pyfunction!(entries, module)?)?;
    module.add_function(wrap_pyfunction!(settings, module)?)?;
    module.add_function(wrap_pyfunction!(check, module)?)?;
    module.add_function(wrap_pyfunction!(domain_info, module)?)?;
    module.add_function(wrap_pyfunction!(space_definition, module)?)?;
    module.add_function(wrap_pyfunction!(space_samples_jsonable, module)?)?;
    module.add_function(wrap_pyfunction!(space_jsonable_round_trip, module)?)?;
    module.add_function(wrap_pyfunction!(space_samples, module)?)?;
    module.add_function(wrap_pyfunction!(space_contains, module)?)?;
    // Gymnasium's toy-text internals (rlrs.toy_text).
    module.add_function(wrap_pyfunction!(toy_text::toy_text_kind, module)?)?;
    module.add_function(wrap_pyfunction!(toy_text::toy_text_tables, module)?)?;
    module.add_function(wrap_pyfunction!(toy_text::taxi_locations, module)?)?;
    module.add_function(wrap_pyfunction!(toy_text::frozen_lake_random_map, module)?)?;
    minigrid::add_to_module(module)?;
    babyai::add_to_module(module)?;
    mujoco::add_to_module(module)?;
    pool::add_to_module(module)?;
    Ok(())
}

/// The extension module `rlrs._core`: the built-in domains of `rl-domains`,
/// `rl-object-grid` and `rl-mujoco` (registered on import; idempotent),
/// the package's `__version__` and the classes of [`add_to_module`].
#[cfg(feature = "rlrs-module")]
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    rl_domains::register_builtins();
    rl_object_grid::register();
    rl_mujoco::register();
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    add_to_module(module)
}
