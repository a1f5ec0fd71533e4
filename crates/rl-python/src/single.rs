//! One environment of a registered id behind Python: `rlrs._core.Environment`, which the
//! pure-Python `rlrs.RustEnv` (a `gymnasium.Env`) drives.

use std::any::TypeId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError, RwLock, TryLockError};

use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rl_core::registry::RegisteredDomain;
use rl_core::{BoxedEnvironment, Domain, DynamicEnvironment, Environment, Mode, Render, Simulator};
use rl_domains::{CartPole, GridWorld, MountainCar, MountainCarContinuous};
use rl_spaces::{AnyElement, AnySpace, DynamicSpace};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::convert::{element_from_python, element_to_python};
use crate::{build_domain, core_error};

/// An environment driven through [`AnyElement`]s, borrowed.
pub type DynamicEnvironmentObject = dyn Environment<
        Observation = AnyElement,
        Action = AnyElement,
        ObservationSpace = AnySpace,
        ActionSpace = AnySpace,
    > + Send;

/// What the Python environment needs beyond [`Environment`]: the state, where the domain's
/// type is known to this crate (setting it, reading it, drawing it).
pub trait PythonEnvironment: Send {
    /// The environment, driven through [`AnyElement`]s.
    fn environment(&mut self) -> &mut DynamicEnvironmentObject;

    /// Starts an episode in the state written as JSON (the domain's serde form), or says why
    /// it cannot.
    fn reset_to(&mut self, state: &Value) -> Result<AnyElement, String>;

    /// The current state as JSON, if the domain's type is known and an episode started.
    fn state(&self) -> Option<Value>;

    /// A text picture of the current state, if the domain draws its states and an episode
    /// started.
    fn render_text(&self) -> Option<String>;
}

/// An environment whose domain type is unknown here: no state access.
struct Opaque(BoxedEnvironment);

impl PythonEnvironment for Opaque {
    fn environment(&mut self) -> &mut DynamicEnvironmentObject {
        &mut *self.0
    }

    fn reset_to(&mut self, _state: &Value) -> Result<AnyElement, String> {
        Err(
            "this id's domain type is not known to the Python package, so its state cannot \
             be set (the built-in CartPole, MountainCar, MountainCarContinuous and GridWorld \
             ids support it, and the types declared by rl_python::register_typed_domain)"
                .to_owned(),
        )
    }

    fn state(&self) -> Option<Value> {
        None
    }

    fn render_text(&self) -> Option<String> {
        None
    }
}

/// An environment of a domain type known here: the same simulator the registry builds
/// (`DynamicEnvironment::new(Simulator::new(domain, seed))`), with the typed state within
/// reach.
struct Known<D: Domain> {
    environment: DynamicEnvironment<Simulator<D>>,
}

impl<D> Known<D>
where
    D: Domain,
    D::ObservationSpace: DynamicSpace,
    D::ActionSpace: DynamicSpace,
{
    fn new(domain: D, seed: u64) -> Self {
        Known {
            environment: DynamicEnvironment::new(Simulator::new(domain, seed)),
        }
    }
}

impl<D> PythonEnvironment for Known<D>
where
    D: Domain + Render + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    fn environment(&mut self) -> &mut DynamicEnvironmentObject {
        &mut self.environment
    }

    fn reset_to(&mut self, state: &Value) -> Result<AnyElement, String> {
        let state: D::State = serde_json::from_value(state.clone())
            .map_err(|error| format!("the state {state} is not one of this domain: {error}"))?;
        let simulator = self.environment.inner_mut();
        let observation = simulator.reset_to(state, Mode::Training);
        Ok(simulator.observation_space().element_to_any(&observation))
    }

    fn state(&self) -> Option<Value> {
        let state = self.environment.inner().state()?;
        serde_json::to_value(state).ok()
    }

    fn render_text(&self) -> Option<String> {
        let simulator = self.environment.inner();
        let state = simulator.state()?;
        Some(simulator.domain().render_text(state))
    }
}

/// Builds the Python-side environment of `domain` from its typed form: the constructor that
/// [`register_typed_domain`] stores for `D`.
fn typed_environment<D>(
    domain: &dyn RegisteredDomain,
    seed: u64,
) -> Option<Box<dyn PythonEnvironment>>
where
    D: Domain + Render + Clone + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    let typed = domain.as_any().downcast_ref::<D>()?;
    Some(Box::new(Known::new(typed.clone(), seed)))
}

/// A constructor of the Python-side environment of one domain type, `None` for other types.
type TypedConstructor = fn(&dyn RegisteredDomain, u64) -> Option<Box<dyn PythonEnvironment>>;

/// The domain types whose state the Python environment reaches, each with its constructor:
/// the built-in ones first, then those of [`register_typed_domain`].
static TYPED_DOMAINS: LazyLock<RwLock<Vec<(TypeId, TypedConstructor)>>> = LazyLock::new(|| {
    RwLock::new(vec![
        typed_entry::<CartPole>(),
        typed_entry::<MountainCar>(),
        typed_entry::<MountainCarContinuous>(),
        typed_entry::<GridWorld>(),
    ])
});

/// The table entry of the domain type `D`.
fn typed_entry<D>() -> (TypeId, TypedConstructor)
where
    D: Domain + Render + Clone + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    (TypeId::of::<D>(), typed_environment::<D>)
}

/// Declares the domain type `D` to the Python environment, as the built-in CartPole,
/// MountainCar, MountainCarContinuous and GridWorld are: every id whose registration builds a
/// `D` then supports `reset(options={"state": ...})` (the state in `D::State`'s serde form),
/// `RustEnv.state()` and the `"ansi"` render mode (`D`'s [`Render::render_text`]). Ids of a type
/// not declared run all the same, without those three. Idempotent; call it where the domain is
/// registered, before its environments are built.
pub fn register_typed_domain<D>()
where
    D: Domain + Render + Clone + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    let mut table = TYPED_DOMAINS
        .write()
        .unwrap_or_else(PoisonError::into_inner);
    if !table
        .iter()
        .any(|(type_id, _)| *type_id == TypeId::of::<D>())
    {
        table.push(typed_entry::<D>());
    }
}

/// Builds the Python-side environment of a registered domain: typed (state access, text
/// pictures) for the built-in domain types and those of [`register_typed_domain`], opaque
/// otherwise.
pub(crate) fn python_environment(
    domain: &dyn RegisteredDomain,
    seed: u64,
) -> Box<dyn PythonEnvironment> {
    let table = TYPED_DOMAINS.read().unwrap_or_else(PoisonError::into_inner);
    table
        .iter()
        .find_map(|(_, constructor)| constructor(domain, seed))
        .unwrap_or_else(|| Box::new(Opaque(domain.environment(seed))))
}

/// The environment state behind the Python object.
struct Inner {
    environment: Box<dyn PythonEnvironment>,
    observation_space: AnySpace,
    action_space: AnySpace,
}

/// One environment of a registered id: `Environment(id, params_json=None, seed=0)`.
///
/// Observations are NumPy arrays of the space's dtype (integers for Discrete spaces); the
/// pure-Python `rlrs.RustEnv` wraps this in Gymnasium's API.
#[pyclass(module = "rlrs._core", name = "Environment")]
pub struct PyEnvironment {
    inner: Mutex<Inner>,
    id: String,
    /// Set by `close`: every later call but `close` is an error.
    closed: AtomicBool,
}

impl PyEnvironment {
    /// The environment, or an error if another Python thread is using it (conversions may
    /// run Python code, which can switch threads; waiting for the lock while holding the
    /// interpreter could deadlock).
    fn lock(&self) -> PyResult<MutexGuard<'_, Inner>> {
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
        let mut environment = python_environment(domain.as_ref(), seed);
        let observation_space = environment.environment().observation_space().clone();
        let action_space = environment.environment().action_space().clone();
        Ok(PyEnvironment {
            inner: Mutex::new(Inner {
                environment,
                observation_space,
                action_space,
            }),
            id: id.to_owned(),
            closed: AtomicBool::new(false),
        })
    }

    /// The id it was built from.
    #[getter]
    fn id(&self) -> &str {
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
        self.lock()?.environment.environment().seed(seed);
        Ok(())
    }

    /// Starts an episode and returns its first observation.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let observation = self
            .lock()?
            .environment
            .environment()
            .reset(Mode::Training)
            .map_err(core_error)?;
        element_to_python(py, &observation)
    }

    /// Takes one step: `(observation, reward, terminated, truncated)`.
    fn step<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, f64, bool, bool)> {
        let mut inner = self.lock()?;
        let action = element_from_python(&inner.action_space, action)?;
        let outcome = inner
            .environment
            .environment()
            .step(&action)
            .map_err(core_error)?;
        Ok((
            element_to_python(py, &outcome.observation)?,
            outcome.reward(),
            outcome.terminated,
            outcome.truncated,
        ))
    }

    /// Starts an episode in `state` (JSON text of the domain's state, for example
    /// `[x, x_dot, theta, theta_dot]` for CartPole) and returns its observation. Only the
    /// built-in domain types support it.
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
            .reset_to(&state)
            .map_err(|reason| PyNotImplementedError::new_err(format!("{}: {reason}", self.id)))?;
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

    /// Releases the environment's resources; every later call but `close` is a
    /// `RuntimeError`. Idempotent.
    fn close(&self) -> PyResult<()> {
        if self.closed.load(Ordering::Acquire) {
            return Ok(());
        }
        self.lock()?.environment.environment().close();
        self.closed.store(true, Ordering::Release);
        Ok(())
    }
}
