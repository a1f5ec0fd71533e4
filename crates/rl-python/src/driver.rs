//! `rlrs._core.RustDriver`: the vector `rlrs.RustVectorEnv` steps for a `Discrete` action
//! space, stepped from Rust in a loop, so that a benchmark can time the Python vector and the
//! same vector driven from Rust in one process, in alternating runs
//! (`benches/compare/rlrs_bench.py`). Not part of the Gymnasium API (the private module
//! `rlrs._core` holds it): every build has it, the wheel users install included, so that the
//! wheel CI tests is the one the benchmarks time (a separate build with it cost CI 25 s).

use std::num::NonZeroUsize;
use std::sync::{Mutex, MutexGuard, TryLockError};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rl_core::Mode;
use rl_wrappers::VectorError;
use rl_wrappers::vector::{StackedVector, VectorEnv, VectorOptions, make_vector};

use crate::vector::{row_layout, stacked};

/// The vector, its action rows and the next row to use.
struct Driven {
    vector: StackedVector<i64>,
    rows: Vec<i64>,
    next: usize,
    actions: Vec<i64>,
}

/// `RustDriver(id, num_envs, seed, threads)`: `num_envs` environments of the registered id
/// (a `Discrete` action space), built as `rlrs.RustVectorEnv` builds them (the id's kernel
/// where it declares one, next-step autoreset, episode statistics) and reset; `set_rows` gives
/// it rows of actions and `run(steps)` steps it from Rust, each step's row copied into the
/// action buffer first, as the Python vector's binding copies its actions.
#[pyclass(module = "rlrs._core", name = "RustDriver")]
pub struct PyRustDriver {
    inner: Mutex<Driven>,
    count: usize,
}

/// A vector failure as a Python exception.
fn driver_error(error: VectorError) -> PyErr {
    PyRuntimeError::new_err(error.to_string())
}

impl PyRustDriver {
    /// The driven vector, or an error if another Python thread is using it: `run` steps with
    /// the interpreter released, so waiting for the lock while holding the interpreter would
    /// deadlock (a thread in `set_rows` waiting for the lock, `run` waiting for the
    /// interpreter to return).
    fn lock(&self) -> PyResult<MutexGuard<'_, Driven>> {
        match self.inner.try_lock() {
            Ok(guard) => Ok(guard),
            Err(TryLockError::Poisoned(_)) => {
                Err(PyRuntimeError::new_err("a previous call panicked"))
            }
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "the driver is being used by another thread; a driver is driven by one thread at a time",
            )),
        }
    }
}

#[pymethods]
impl PyRustDriver {
    /// Builds and resets the vector; environment `i` is seeded with `seed + i`
    /// (Gymnasium's rule).
    #[new]
    #[pyo3(signature = (id, num_envs, seed = 0, threads = 1))]
    fn new(id: &str, num_envs: usize, seed: u64, threads: usize) -> PyResult<Self> {
        let count = NonZeroUsize::new(num_envs)
            .ok_or_else(|| PyValueError::new_err("num_envs is 0; a vector needs at least 1"))?;
        let threads = NonZeroUsize::new(threads)
            .ok_or_else(|| PyValueError::new_err("threads is 0; at least 1 is needed"))?;
        // The layout of `rlrs.RustVectorEnv`.
        let mut probe = crate::build_domain(id, None)?.environment(0);
        let (layout, _) = row_layout(rl_core::Environment::observation_space(&probe));
        rl_core::Environment::close(&mut probe);
        let options = VectorOptions::new()
            .with_threads(threads)
            .with_layout(layout);
        let mut vector = stacked(make_vector::<i64, f32>(id, None, count, seed, options))?;
        vector.reset(Mode::Training).map_err(driver_error)?;
        Ok(PyRustDriver {
            inner: Mutex::new(Driven {
                vector,
                rows: Vec::new(),
                next: 0,
                actions: vec![0; num_envs],
            }),
            count: num_envs,
        })
    }

    /// Keeps a copy of `rows` (an `int64` array of shape `(k, num_envs)`, `k` at least 1), the
    /// actions `run` cycles through from the first row.
    fn set_rows(&self, rows: &Bound<'_, PyAny>) -> PyResult<()> {
        // C-contiguous, aligned int64 (an unaligned array panicked when read).
        let rows = rows
            .py()
            .import("numpy")?
            .call_method1("require", (rows, "int64", "CA"))?;
        let rows = rows
            .cast::<numpy::PyArray2<i64>>()?
            .try_readonly()
            .map_err(|error| PyValueError::new_err(format!("the rows cannot be read: {error}")))?;
        let rows = rows.as_array();
        let (k, width) = rows.dim();
        if k == 0 || width != self.count {
            return Err(PyValueError::new_err(format!(
                "the rows have shape ({k}, {width}); expected at least one row of {} actions",
                self.count
            )));
        }
        let mut inner = self.lock()?;
        inner.rows = rows.iter().copied().collect();
        inner.next = 0;
        Ok(())
    }

    /// Steps the vector `steps` times with the next rows, the interpreter released; returns
    /// the number of environment steps (`steps * num_envs`).
    fn run(&self, py: Python<'_>, steps: usize) -> PyResult<usize> {
        let mut inner = self.lock()?;
        if inner.rows.is_empty() {
            return Err(PyValueError::new_err("no rows: call set_rows first"));
        }
        let count = self.count;
        let Driven {
            vector,
            rows,
            next,
            actions,
        } = &mut *inner;
        py.detach(|| -> Result<(), VectorError> {
            let k = rows.len() / count;
            for _ in 0..steps {
                let start = *next * count;
                actions.copy_from_slice(&rows[start..start + count]);
                vector.step(actions)?;
                std::hint::black_box(vector.observations());
                *next = (*next + 1) % k;
            }
            Ok(())
        })
        .map_err(driver_error)?;
        Ok(steps * count)
    }

    /// The observations of the last step, one `float32` row per environment (in the batched
    /// layout where the observation space has columns, as `rlrs.RustVectorEnv` has them), as
    /// one array of `num_envs * row_dim` entries (a copy).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let inner = self.lock()?;
        let observations = inner.vector.observations();
        let flat = observations
            .as_slice()
            .ok_or_else(|| PyRuntimeError::new_err("the observation rows are not contiguous"))?;
        Ok(PyArray1::from_slice(py, flat))
    }
}
