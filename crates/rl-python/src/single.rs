//! One environment of a registered id behind Python: `rlrs._core.Environment`, which the
//! pure-Python `rlrs.RustEnv` (a `gymnasium.Env`) drives. Everything beyond stepping (the
//! state as JSON, text pictures, RGB frames) comes from the registry's
//! [`RegisteredEnvironment`](rl_core::registry::RegisteredEnvironment), as the id's
//! registration declared it: this crate keeps no table of domain types.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use numpy::{PyArray1, PyArray3};
use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rl_core::registry::BoxedRegisteredEnvironment;
use rl_core::{CoreError, Frame, Mode, RandomState};
use rl_spaces::{AnyElement, AnySpace};
use serde_json::Value;

use crate::convert::{element_from_python, element_to_python, info_to_python};
use crate::{build_domain, core_error};

/// The environment state behind the Python object.
pub(crate) struct Inner {
    pub(crate) environment: BoxedRegisteredEnvironment,
    observation_space: AnySpace,
    action_space: AnySpace,
    /// The frame `render_rgb` draws into, made on its first call.
    frame: Option<Frame>,
}

/// One environment of a registered id: `Environment(id, params_json=None, seed=0)`.
///
/// Observations are NumPy arrays of the space's dtype (integers for Discrete spaces); the
/// pure-Python `rlrs.RustEnv` wraps this in Gymnasium's API.
#[pyclass(module = "rlrs._core", name = "Environment")]
pub struct PyEnvironment {
    inner: Mutex<Inner>,
    id: String,
    /// The JSON parameters it was built with (for copies and pickles).
    params_json: Option<String>,
    /// Set by `close`: every later call but `close` is an error.
    closed: AtomicBool,
}

impl PyEnvironment {
    /// The environment, or an error if another Python thread is using it (conversions may
    /// run Python code, which can switch threads; waiting for the lock while holding the
    /// interpreter could deadlock).
    pub(crate) fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
        if self.closed.load(Ordering::Acquire) {
            return Err(PyRuntimeError::new_err(format!(
                "the {} environment is closed; make a new one",
                self.id
            )));
        }
        match self.inner.try_lock() {
            Ok(guard) => Ok(guard),
            Err(TryLockError::Poisoned(poisoned)) => Ok(PoisonError::into_inner(poisoned)),
            Err(TryLockError::WouldBlock) => Err(PyRuntimeError::new_err(
                "the environment is being used by another thread; an environment is driven by one thread at a time",
            )),
        }
    }
}

#[pymethods]
impl PyEnvironment {
    /// Builds the environment of `id` with the JSON parameters `params_json` (a string, or
    /// `None` for the defaults), seeded with `seed`.
    #[new]
    #[pyo3(signature = (id, params_json = None, seed = 0))]
    fn new(id: &str, params_json: Option<&str>, seed: u64) -> PyResult<Self> {
        let domain = build_domain(id, params_json)?;
        let environment = domain.registered_environment(seed);
        let observation_space = environment.observation_space().clone();
        let action_space = environment.action_space().clone();
        Ok(PyEnvironment {
            inner: Mutex::new(Inner {
                environment,
                observation_space,
                action_space,
                frame: None,
            }),
            id: id.to_owned(),
            params_json: params_json.map(str::to_owned),
            closed: AtomicBool::new(false),
        })
    }

    /// Reseeds the generator with the non-negative integer whose 32-bit words, least
    /// significant first, are `words`: numpy's `SeedSequence` of a Python integer of any size
    /// (`seed` takes those below 2**64).
    fn seed_words(&self, words: Vec<u32>) -> PyResult<()> {
        let generator = rl_core::NumpyGenerator::from_seed_words(&words);
        self.lock()?
            .environment
            .set_random_state(RandomState::new(generator))
            .map_err(core_error)
    }

    /// An independent copy (`copy.deepcopy`): the same state, step count, last action and
    /// generator state, so that it continues exactly as this one would. A `TypeError` for an
    /// environment that cannot be copied.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<PyEnvironment> {
        let inner = self.lock()?;
        let environment = inner.environment.try_clone().ok_or_else(|| {
            PyTypeError::new_err(format!("the {} environment cannot be copied", self.id))
        })?;
        Ok(PyEnvironment {
            inner: Mutex::new(Inner {
                environment,
                observation_space: inner.observation_space.clone(),
                action_space: inner.action_space.clone(),
                frame: None,
            }),
            id: self.id.clone(),
            params_json: self.params_json.clone(),
            closed: AtomicBool::new(false),
        })
    }

    /// `pickle`'s arguments for `Environment(...)`: the id and the parameters.
    fn __getnewargs__(&self) -> (String, Option<String>, u64) {
        (self.id.clone(), self.params_json.clone(), 0)
    }

    /// `pickle`'s state: the episode as JSON text (its state, step count, mode and generator
    /// state; `RegisteredEnvironment::snapshot`). A `TypeError` for an id whose registration
    /// declares no state access.
    fn __getstate__(&self) -> PyResult<String> {
        let snapshot = self.lock()?.environment.snapshot().map_err(|error| match error {
            CoreError::Unsupported { .. } => PyTypeError::new_err(format!(
                "the {} environment cannot be pickled: its registration declares no with_state()",
                self.id
            )),
            other => core_error(other),
        })?;
        Ok(snapshot.to_string())
    }

    /// Continues the episode of a `__getstate__` snapshot.
    fn __setstate__(&self, state: &str) -> PyResult<()> {
        let snapshot: Value = serde_json::from_str(state).map_err(|error| {
            PyValueError::new_err(format!("the pickled state is not valid JSON: {error}"))
        })?;
        self.lock()?
            .environment
            .restore(&snapshot)
            .map_err(core_error)
    }

    /// The id it was built from.
    #[getter]
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// The observation space's definition, as a JSON string (`rl-spaces`' format).
    fn observation_space_json(&self) -> PyResult<String> {
        Ok(self.lock()?.observation_space.to_definition().to_string())
    }

    /// The action space's definition, as a JSON string (`rl-spaces`' format).
    fn action_space_json(&self) -> PyResult<String> {
        Ok(self.lock()?.action_space.to_definition().to_string())
    }

    /// Reseeds the generator: the next episodes depend only on `seed` and the actions.
    fn seed(&self, seed: u64) -> PyResult<()> {
        self.lock()?.environment.seed(seed);
        Ok(())
    }

    /// The info of the reset that started the current episode (the domain's reset info, e.g.
    /// the MuJoCo ids' `x_position`; empty for most domains), as a `dict`.
    fn reset_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = self.lock()?.environment.reset_info();
        info_to_python(py, &info)
    }

    /// Starts an episode and returns its first observation.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let observation = self
            .lock()?
            .environment
            .reset(Mode::Training)
            .map_err(core_error)?;
        element_to_python(py, &observation)
    }

    /// Takes one step: `(observation, reward, terminated, truncated, info)`, `info` the
    /// domain's info of the step as a `dict` (empty for a domain that reports none).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, f64, bool, bool, Bound<'py, PyDict>)> {
        let mut inner = self.lock()?;
        let action = element_from_python(&inner.action_space, action)?;
        let outcome = inner.environment.step(&action).map_err(core_error)?;
        Ok((
            element_to_python(py, &outcome.observation)?,
            outcome.reward(),
            outcome.terminated,
            outcome.truncated,
            info_to_python(py, &outcome.info)?,
        ))
    }

    /// Starts an episode in `state` (JSON text of the domain's state, for example
    /// `[x, x_dot, theta, theta_dot]` for CartPole) and returns its observation: a
    /// `ValueError` naming the state when it is not one of the domain's, a
    /// `NotImplementedError` for an id whose registration declares no `with_state()`.
    fn reset_to_state<'py>(
        &self,
        py: Python<'py>,
        state_json: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let state: Value = serde_json::from_str(state_json).map_err(|error| {
            PyValueError::new_err(format!("the state is not valid JSON: {error}"))
        })?;
        let observation = self
            .lock()?
            .environment
            .reset_to_state(&state, Mode::Training)
            .map_err(|error| match error {
                CoreError::Unsupported { .. } => PyNotImplementedError::new_err(format!(
                    "{}: the state cannot be set: its registration declares no with_state()",
                    self.id
                )),
                other => core_error(other),
            })?;
        element_to_python(py, &observation)
    }

    /// The current state as JSON text, or `None` (unknown domain type, or no episode yet).
    fn state_json(&self) -> PyResult<Option<String>> {
        Ok(self
            .lock()?
            .environment
            .state()
            .map(|state| state.to_string()))
    }

    /// A text picture of the current state, or `None` (no pictures, or no episode yet).
    fn render_text(&self) -> PyResult<Option<String>> {
        Ok(self.lock()?.environment.render_text())
    }

    /// The action mask of the current state for a `Discrete` action space: an `int8` array
    /// with 1 for each action applicable in the state (`Domain::is_applicable`: an action that
    /// changes something, for Taxi, as Gymnasium's `action_mask`), 0 elsewhere (all 0 before
    /// the first reset); `None` for another action space, or a Discrete too large to list
    /// (more than `rl_spaces::MAX_FLAT_LEN` actions).
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray1<i8>>>> {
        let inner = self.lock()?;
        let AnySpace::Discrete(space) = &inner.action_space else {
            return Ok(None);
        };
        if rl_spaces::FiniteSpace::cardinality(space).is_none() {
            // Too many actions to list (more than rl_spaces::MAX_FLAT_LEN).
            return Ok(None);
        }
        let mask: Vec<i8> = (0..space.n())
            .map(|offset| {
                let action = AnyElement::Int(space.start().saturating_add_unsigned(offset));
                i8::from(inner.environment.is_applicable(&action))
            })
            .collect();
        Ok(Some(PyArray1::from_vec(py, mask)))
    }

    /// The natural size `(width, height)` of the RGB frames, or `None` when the id draws
    /// none.
    fn frame_size(&self) -> PyResult<Option<(u32, u32)>> {
        Ok(self.lock()?.environment.frame_size())
    }

    /// The current state drawn as an RGB frame: a new `uint8` array of shape
    /// `(height, width, 3)`, as Gymnasium's `render()` returns with `render_mode="rgb_array"`;
    /// `None` before the first reset. A `ValueError` when the id draws no frames.
    fn render_rgb<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray3<u8>>>> {
        let mut guard = self.lock()?;
        let inner = &mut *guard;
        let Some((width, height)) = inner.environment.frame_size() else {
            return Err(PyValueError::new_err(format!(
                "{} draws no RGB frames",
                self.id
            )));
        };
        let frame = match &mut inner.frame {
            Some(frame) => frame,
            empty => empty.insert(Frame::new(width, height).map_err(core_error)?),
        };
        match inner.environment.render_frame(frame) {
            Ok(()) => Ok(Some(PyArray3::from_array(py, &frame.as_array()))),
            Err(CoreError::NeedsReset(_)) => Ok(None),
            Err(error) => Err(core_error(error)),
        }
    }

    /// Releases the environment's resources; every later call but `close` is a
    /// `RuntimeError`. Idempotent, and never fails: called from another thread while a call is
    /// in progress, that call finishes first.
    fn close(&self) -> PyResult<()> {
        if self.closed.swap(true, Ordering::AcqRel) {
            return Ok(());
        }
        // Closing never fails: from another thread while a call is in progress, that call
        // finishes, every later one raises "closed", and the environment is released when
        // the object is.
        match self.inner.try_lock() {
            Ok(mut inner) => inner.environment.close(),
            Err(TryLockError::Poisoned(poisoned)) => {
                PoisonError::into_inner(poisoned).environment.close();
            }
            Err(TryLockError::WouldBlock) => {}
        }
        Ok(())
    }
}
