//! An asynchronous vector of a registered id behind Python: `rlrs._core.AsyncVector`, which
//! the pure-Python `rlrs.EnvPool` (EnvPool's `send`/`recv` API) drives. Each environment is
//! stepped on its own by whichever worker thread is free
//! ([`AsyncVector`](rl_wrappers::vector::AsyncVector)); `recv` waits with the interpreter
//! released.

use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard};

use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rl_core::ErasedAction;
use rl_spaces::{AnyElement, AnySpace, FlatScalar, RowLayout};
use rl_wrappers::VectorError;
use rl_wrappers::vector::{
    RegisteredAsyncVector, VectorOptions, make_async_vector, needs_f64_rows,
};

use crate::convert::{
    array_action_form, element_from_python, readonly_array, with_array_number, write_action_row,
};
use crate::vector::{
    built_error, closed_error, info_columns, info_pairs, try_lock_vector, vector_error,
};

/// The asynchronous vector of an id: integer actions for a `Discrete` action space,
/// `AnyElement`s otherwise; rows of `f64` for an observation space with a float64 Box
/// (MuJoCo's), of `f32` otherwise.
enum Pool {
    DiscreteF32(RegisteredAsyncVector<i64, f32>),
    DiscreteF64(RegisteredAsyncVector<i64, f64>),
    AnyF32(RegisteredAsyncVector<AnyElement, f32>),
    AnyF64(RegisteredAsyncVector<AnyElement, f64>),
    /// Closed: the environments are dropped (their threads stopped); every call is an error.
    Closed,
}

/// Runs the same expression on the vector of a [`Pool`], whichever its actions and rows.
macro_rules! with_pool {
    ($pool:expr, $vector:ident => $body:expr) => {
        match $pool {
            Pool::DiscreteF32($vector) => $body,
            Pool::DiscreteF64($vector) => $body,
            Pool::AnyF32($vector) => $body,
            Pool::AnyF64($vector) => $body,
            Pool::Closed => return Err(closed_error()),
        }
    };
}

/// Runs the same expression on the vector of a [`Pool`] with `AnyElement` actions, or gives a
/// `TypeError` for a `Discrete` action space.
macro_rules! with_any_pool {
    ($pool:expr, $vector:ident => $body:expr) => {
        match $pool {
            Pool::AnyF32($vector) => $body,
            Pool::AnyF64($vector) => $body,
            Pool::DiscreteF32(_) | Pool::DiscreteF64(_) => {
                return Err(PyTypeError::new_err(
                    "the action space is Discrete: send with send_discrete",
                ));
            }
            Pool::Closed => return Err(closed_error()),
        }
    };
}

/// The error of an element sent as the action of a `Discrete` action space that is not an
/// integer.
fn not_an_integer(element: &AnyElement) -> VectorError {
    VectorError::InvalidParameter {
        name: "actions",
        reason: format!("{element} is not an integer action"),
    }
}

/// The environment ids of a call: each a non-negative integer (its range is the vector's
/// check).
fn read_ids(env_ids: &PyReadonlyArray1<'_, i64>) -> PyResult<Vec<usize>> {
    env_ids
        .as_array()
        .iter()
        .map(|&id| {
            usize::try_from(id).map_err(|_| {
                PyValueError::new_err(format!(
                    "environment id {id} is out of range: ids are from 0 to num_envs - 1"
                ))
            })
        })
        .collect()
}

/// `num_envs` environments of a registered id stepped asynchronously, EnvPool's asynchronous
/// mode: `AsyncVector(id, params_json, num_envs, batch_size, seed, threads)`, environment `i`
/// seeded with `seed + i`, `threads` worker threads, `batch_size` results per `recv`, next-step
/// autoreset. Observations are flat rows (`gymnasium.spaces.flatten`'s layout) of `float64`
/// for an observation space with a float64 Box (MuJoCo's), else of `float32`.
#[pyclass(module = "rlrs._core", name = "AsyncVector")]
pub struct PyAsyncVector {
    inner: Mutex<Pool>,
    count: usize,
    batch_size: usize,
    threads: usize,
    flat_dim: usize,
    action_space: AnySpace,
    observation_space: AnySpace,
}

impl PyAsyncVector {
    /// The vector, or an error if another Python thread is using it (`recv` waits with the
    /// interpreter released, so waiting for the lock while holding it could deadlock).
    fn lock(&self) -> PyResult<MutexGuard<'_, Pool>> {
        let guard = try_lock_vector(&self.inner, "a vector is driven by one thread at a time")?;
        if matches!(*guard, Pool::Closed) {
            return Err(closed_error());
        }
        Ok(guard)
    }
}

/// What `recv` (and `reset`) return: observations `(rows, flat_dim)`, rewards, terminated,
/// truncated, the environment ids (`int32`), their episodes' elapsed steps (`int32`, EnvPool's
/// `elapsed_step`), and whether some environment reported an info.
type Received<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray1<i32>>,
    bool,
);

/// A count or an id as EnvPool's `int32` (never more than `MAX_ENVS` in practice; saturated
/// otherwise).
fn as_i32<X: Copy + TryInto<i32>>(values: &[X]) -> Vec<i32> {
    values
        .iter()
        .map(|&value| value.try_into().unwrap_or(i32::MAX))
        .collect()
}

/// The results of the last `recv` of `vector` as new NumPy arrays ([`Received`]).
fn results<'py, A: ErasedAction, T: FlatScalar + numpy::Element>(
    py: Python<'py>,
    vector: &RegisteredAsyncVector<A, T>,
) -> Received<'py> {
    (
        PyArray2::from_array(py, &vector.observations()).into_any(),
        PyArray1::from_slice(py, vector.rewards()),
        PyArray1::from_slice(py, vector.terminated()),
        PyArray1::from_slice(py, vector.truncated()),
        PyArray1::from_vec(py, as_i32(vector.env_ids())),
        PyArray1::from_vec(py, as_i32(vector.elapsed_steps())),
        vector.infos().iter().any(|info| !info.is_empty()),
    )
}

#[pymethods]
impl PyAsyncVector {
    /// Builds `num_envs` environments of `id` with the JSON parameters `params_json`,
    /// environment `i` seeded with `seed + i`, stepped on `threads` worker threads,
    /// `batch_size` results per `recv`.
    #[new]
    #[pyo3(signature = (id, params_json = None, num_envs = 1, batch_size = 1, seed = 0, threads = 1))]
    fn new(
        id: &str,
        params_json: Option<&str>,
        num_envs: usize,
        batch_size: usize,
        seed: u64,
        threads: usize,
    ) -> PyResult<Self> {
        let count = NonZeroUsize::new(num_envs)
            .ok_or_else(|| PyValueError::new_err("num_envs is 0; a vector needs at least 1"))?;
        let batch = NonZeroUsize::new(batch_size)
            .ok_or_else(|| PyValueError::new_err("batch_size is 0; at least 1 is needed"))?;
        let workers = NonZeroUsize::new(threads)
            .ok_or_else(|| PyValueError::new_err("num_threads is 0; at least 1 is needed"))?;
        let params = crate::parse_params(params_json)?;
        let domain = crate::build_domain(id, params_json)?;
        let mut probe = domain.environment(0);
        let observation_space = rl_core::Environment::observation_space(&probe).clone();
        let action_space = rl_core::Environment::action_space(&probe).clone();
        rl_core::Environment::close(&mut probe);
        let options = VectorOptions::new()
            .with_threads(workers)
            .with_layout(RowLayout::Flat);
        let params = params.as_ref();
        let f64_rows = needs_f64_rows(&observation_space);
        let discrete = matches!(action_space, AnySpace::Discrete(_));
        let pool = match (discrete, f64_rows) {
            (true, false) => Pool::DiscreteF32(
                make_async_vector::<i64, f32>(id, params, count, seed, options, batch)
                    .map_err(built_error)?,
            ),
            (true, true) => Pool::DiscreteF64(
                make_async_vector::<i64, f64>(id, params, count, seed, options, batch)
                    .map_err(built_error)?,
            ),
            (false, false) => Pool::AnyF32(
                make_async_vector::<AnyElement, f32>(id, params, count, seed, options, batch)
                    .map_err(built_error)?,
            ),
            (false, true) => Pool::AnyF64(
                make_async_vector::<AnyElement, f64>(id, params, count, seed, options, batch)
                    .map_err(built_error)?,
            ),
        };
        let flat_dim = with_pool!(&pool, vector => vector.flat_dim());
        Ok(PyAsyncVector {
            inner: Mutex::new(pool),
            count: num_envs,
            batch_size,
            threads,
            flat_dim,
            action_space,
            observation_space,
        })
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.count
    }

    /// The number of results each `recv` returns.
    #[getter]
    fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// The number of worker threads.
    #[getter]
    fn num_threads(&self) -> usize {
        self.threads
    }

    /// The length of an observation row.
    #[getter]
    fn flat_dim(&self) -> usize {
        self.flat_dim
    }

    /// One environment's observation space, as a JSON definition string.
    fn observation_space_json(&self) -> String {
        self.observation_space.to_definition().to_string()
    }

    /// One environment's action space, as a JSON definition string.
    fn action_space_json(&self) -> String {
        self.action_space.to_definition().to_string()
    }

    /// Resets every environment (after the jobs running end; results not received are
    /// discarded): their first observations are the next results of `recv`.
    fn async_reset(&self, py: Python<'_>) -> PyResult<()> {
        let mut pool = self.lock()?;
        with_pool!(&mut *pool, vector => py.detach(|| vector.async_reset(rl_core::Mode::Training)))
            .map_err(vector_error)
    }

    /// Sends one integer action per id of `env_ids` (both one-dimensional `int64` arrays of
    /// the same length), for a `Discrete` action space; returns at once.
    fn send_discrete(
        &self,
        actions: PyReadonlyArray1<'_, i64>,
        env_ids: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let ids = read_ids(&env_ids)?;
        let actions = actions.as_array();
        if actions.len() != ids.len() {
            return Err(vector_error(VectorError::ActionCount {
                expected: ids.len(),
                found: actions.len(),
            }));
        }
        let mut pool = self.lock()?;
        let write = |k: usize, slot: &mut Option<i64>| {
            *slot = Some(actions[k]);
            Ok(())
        };
        match &mut *pool {
            Pool::DiscreteF32(vector) => vector.send_with(&ids, write),
            Pool::DiscreteF64(vector) => vector.send_with(&ids, write),
            Pool::AnyF32(_) | Pool::AnyF64(_) => {
                return Err(PyTypeError::new_err(format!(
                    "the action space is {}: send with send_array or send_elements",
                    self.action_space
                )));
            }
            Pool::Closed => return Err(closed_error()),
        }
        .map_err(vector_error)
    }

    /// Sends one row of `actions` (shape `(len(env_ids), *action_shape)`, converted to the
    /// action space's dtype) per id of `env_ids`, for a Box, MultiDiscrete or MultiBinary
    /// action space; returns at once.
    fn send_array(
        &self,
        actions: &Bound<'_, PyAny>,
        env_ids: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let ids = read_ids(&env_ids)?;
        let (dtype, shape) = array_action_form(&self.action_space, "send_array")?;
        let width: usize = shape.iter().product();
        let mut pool = self.lock()?;
        with_array_number!(dtype, X => {
            let batch = readonly_array::<X>(actions, dtype.name())?;
            if batch.shape().split_first() != Some((&ids.len(), shape)) {
                let rows_shape: Vec<usize> = std::iter::once(ids.len()).chain(shape.to_vec()).collect();
                return Err(PyValueError::new_err(format!(
                    "the actions have shape {:?}; expected {rows_shape:?}: one action of shape \
                     {shape:?} per environment id",
                    batch.shape()
                )));
            }
            let values = batch.as_slice()?;
            with_any_pool!(&mut *pool, vector => vector.send_with(&ids, |k, slot| {
                let row = &values[k * width..(k + 1) * width];
                write_action_row(row, shape, slot.get_or_insert(AnyElement::Int(0)));
                Ok(())
            }))
            .map_err(vector_error)
        })
    }

    /// Sends a list of one action per id of `env_ids`, each converted as a single
    /// environment's action is (any action space); returns at once.
    fn send_elements(
        &self,
        actions: &Bound<'_, PyList>,
        env_ids: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let ids = read_ids(&env_ids)?;
        if actions.len() != ids.len() {
            return Err(vector_error(VectorError::ActionCount {
                expected: ids.len(),
                found: actions.len(),
            }));
        }
        let elements = actions
            .iter()
            .map(|action| element_from_python(&self.action_space, &action))
            .collect::<PyResult<Vec<_>>>()?;
        let mut pool = self.lock()?;
        match &mut *pool {
            Pool::DiscreteF32(vector) => vector.send_with(&ids, |k, slot| {
                *slot = Some(
                    elements[k]
                        .as_int()
                        .ok_or_else(|| not_an_integer(&elements[k]))?,
                );
                Ok(())
            }),
            Pool::DiscreteF64(vector) => vector.send_with(&ids, |k, slot| {
                *slot = Some(
                    elements[k]
                        .as_int()
                        .ok_or_else(|| not_an_integer(&elements[k]))?,
                );
                Ok(())
            }),
            Pool::AnyF32(vector) => vector.send(&elements, &ids),
            Pool::AnyF64(vector) => vector.send(&elements, &ids),
            Pool::Closed => return Err(closed_error()),
        }
        .map_err(vector_error)
    }

    /// Waits (the interpreter released) until `batch_size` environments have finished (with
    /// `batch_size == num_envs`, every environment in flight) and returns their results as
    /// new arrays, in the order they finished (in the order sent when `batch_size ==
    /// num_envs`): `(observations, rewards, terminated, truncated, env_ids, elapsed_steps,
    /// has_infos)`, observations `(rows, flat_dim)`, `env_ids` and `elapsed_steps` `int32`,
    /// `has_infos` whether some environment reported an info (`info_columns` and `infos` then
    /// read them).
    fn recv<'py>(&self, py: Python<'py>) -> PyResult<Received<'py>> {
        let mut pool = self.lock()?;
        with_pool!(&mut *pool, vector => {
            py.detach(|| vector.recv()).map_err(vector_error)?;
            Ok(results(py, vector))
        })
    }

    /// Resets the environments `env_ids` (a one-dimensional `int64` array) and returns at
    /// once: their first observations are results of `recv`. A `ValueError`, with nothing
    /// sent, for an id out of range or an environment in flight or named twice.
    fn send_reset(&self, env_ids: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let ids = read_ids(&env_ids)?;
        let mut pool = self.lock()?;
        with_pool!(&mut *pool, vector => vector.send_reset(&ids)).map_err(vector_error)
    }

    /// Resets the environments `env_ids` (a one-dimensional `int64` array) and receives, as
    /// `recv` does: EnvPool's `reset(env_id)`. With nothing sent, a `ValueError` for an id
    /// out of range or an environment in flight or named twice, a `RuntimeError` if the
    /// `recv` could never end.
    fn reset<'py>(
        &self,
        py: Python<'py>,
        env_ids: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Received<'py>> {
        let ids = read_ids(&env_ids)?;
        let mut pool = self.lock()?;
        with_pool!(&mut *pool, vector => {
            py.detach(|| vector.reset(&ids)).map_err(vector_error)?;
            Ok(results(py, vector))
        })
    }

    /// Reseeds environment `i` with `seed + i` (later draws come from the new generators);
    /// results not received are discarded, after the jobs running end: reset next.
    fn seed(&self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let mut pool = self.lock()?;
        with_pool!(&mut *pool, vector => py.detach(|| vector.seed(seed))).map_err(vector_error)
    }

    /// [`seed`](Self::seed) with the non-negative integer of any size whose 32-bit words,
    /// least significant first, are `words` (numpy's `SeedSequence` of a Python integer).
    fn seed_words(&self, py: Python<'_>, words: Vec<u32>) -> PyResult<()> {
        let seed = rl_core::Seed::from_words(&words);
        let mut pool = self.lock()?;
        with_pool!(&mut *pool, vector => py.detach(|| vector.seed_from(&seed)))
            .map_err(vector_error)
    }

    /// The infos of the last `recv` as columns, `{key: (values, mask)}` (one entry per row),
    /// when every value is a boolean or a number; else `None` (read them with `infos`).
    fn info_columns<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let pool = self.lock()?;
        with_pool!(&*pool, vector => info_columns(py, vector.infos(), None))
    }

    /// The infos of the last `recv` that are not empty, as `(row, dict)` pairs.
    fn infos<'py>(&self, py: Python<'py>) -> PyResult<Vec<(usize, Bound<'py, PyDict>)>> {
        let pool = self.lock()?;
        with_pool!(&*pool, vector => info_pairs(py, vector.infos(), None))
    }

    /// Drops the environments and stops their worker threads (after the jobs running end);
    /// later calls raise `RuntimeError`. Closing twice does nothing.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let mut pool = try_lock_vector(&self.inner, "close it when that call returns")?;
        let old = std::mem::replace(&mut *pool, Pool::Closed);
        py.detach(move || drop(old));
        Ok(())
    }
}

/// Adds `AsyncVector` to `module`.
pub(crate) fn add_to_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyAsyncVector>()
}
