//! One environment of a registered id behind Python: `rlrs._core.Environment`, which the
//! pure-Python `rlrs.RustEnv` (a `gymnasium.Env`) drives.

use std::any::TypeId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError, RwLock, TryLockError};

use numpy::PyArray3;
use pyo3::exceptions::{PyNotImplementedError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rl_core::registry::RegisteredDomain;
use rl_core::{
    BoxedEnvironment, BoxedFrameEnvironment, CoreError, Domain, DynamicEnvironment, Environment,
    Frame, Mode, Render, RenderFrame, ResetReason, Simulator,
};
use rl_domains::cartpole_fast::FastCartPole;
use rl_domains::{Acrobot, CartPole, GridWorld, MountainCar, MountainCarContinuous, Pendulum};
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

    /// The natural size `(width, height)` of the RGB frames, or `None` when the id draws none.
    fn frame_size(&self) -> Option<(u32, u32)>;

    /// Draws the current state over `frame` (at its size); `None` when the id draws no
    /// frames, an error before the first reset.
    fn render_frame(&self, frame: &mut Frame) -> Option<Result<(), CoreError>>;
}

/// An environment whose domain type is unknown here: no state access, and RGB frames where
/// the registration declared them (the registry's frame environment).
enum Opaque {
    /// An id without frames.
    Plain(BoxedEnvironment),
    /// An id with frames.
    Frames(BoxedFrameEnvironment),
}

impl Opaque {
    /// The environment of `domain` seeded with `seed`, with frames if it has them.
    fn new(domain: &dyn RegisteredDomain, seed: u64) -> Self {
        match domain.frame_environment(seed) {
            Ok(environment) => Opaque::Frames(environment),
            Err(_) => Opaque::Plain(domain.environment(seed)),
        }
    }
}

impl PythonEnvironment for Opaque {
    fn environment(&mut self) -> &mut DynamicEnvironmentObject {
        match self {
            Opaque::Plain(environment) => &mut **environment,
            Opaque::Frames(environment) => &mut **environment,
        }
    }

    fn reset_to(&mut self, _state: &Value) -> Result<AnyElement, String> {
        Err(
            "this id's domain type is not known to the Python package, so its state cannot \
             be set (the built-in ids support it, and the types declared by \
             rl_python::register_typed_domain)"
                .to_owned(),
        )
    }

    fn state(&self) -> Option<Value> {
        None
    }

    fn render_text(&self) -> Option<String> {
        None
    }

    fn frame_size(&self) -> Option<(u32, u32)> {
        match self {
            Opaque::Plain(_) => None,
            Opaque::Frames(environment) => Some(environment.frame_size()),
        }
    }

    fn render_frame(&self, frame: &mut Frame) -> Option<Result<(), CoreError>> {
        match self {
            Opaque::Plain(_) => None,
            Opaque::Frames(environment) => Some(environment.render_frame(frame)),
        }
    }
}

/// How a domain type draws RGB frames ([`RenderFrame`]'s functions), for the types declared
/// with frames.
struct FrameFunctions<D: Domain> {
    size: fn(&D) -> (u32, u32),
    draw: fn(&D, &D::State, &mut Frame),
}

impl<D: Domain> Clone for FrameFunctions<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for FrameFunctions<D> {}

impl<D: RenderFrame> FrameFunctions<D> {
    /// `D`'s own.
    fn of() -> Self {
        FrameFunctions {
            size: <D as RenderFrame>::frame_size,
            draw: <D as RenderFrame>::draw_frame,
        }
    }
}

/// An environment of a domain type known here: the same simulator the registry builds
/// (`DynamicEnvironment::new(Simulator::new(domain, seed))`), with the typed state within
/// reach.
struct Known<D: Domain> {
    environment: DynamicEnvironment<Simulator<D>>,
    frames: Option<FrameFunctions<D>>,
}

impl<D> Known<D>
where
    D: Domain,
    D::ObservationSpace: DynamicSpace,
    D::ActionSpace: DynamicSpace,
{
    fn new(domain: D, seed: u64, frames: Option<FrameFunctions<D>>) -> Self {
        Known {
            environment: DynamicEnvironment::new(Simulator::new(domain, seed)),
            frames,
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

    fn frame_size(&self) -> Option<(u32, u32)> {
        let frames = self.frames?;
        Some((frames.size)(self.environment.inner().domain()))
    }

    fn render_frame(&self, frame: &mut Frame) -> Option<Result<(), CoreError>> {
        let frames = self.frames?;
        let simulator = self.environment.inner();
        Some(match simulator.state() {
            Some(state) => {
                (frames.draw)(simulator.domain(), state, frame);
                Ok(())
            }
            None => Err(CoreError::NeedsReset(ResetReason::NotStarted)),
        })
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
    Some(Box::new(Known::new(typed.clone(), seed, None)))
}

/// [`typed_environment`] for a domain type that draws RGB frames.
fn typed_environment_with_frames<D>(
    domain: &dyn RegisteredDomain,
    seed: u64,
) -> Option<Box<dyn PythonEnvironment>>
where
    D: Domain + Render + RenderFrame + Clone + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    let typed = domain.as_any().downcast_ref::<D>()?;
    Some(Box::new(Known::new(
        typed.clone(),
        seed,
        Some(FrameFunctions::of()),
    )))
}

/// A constructor of the Python-side environment of one domain type, `None` for other types.
type TypedConstructor = fn(&dyn RegisteredDomain, u64) -> Option<Box<dyn PythonEnvironment>>;

/// The domain types whose state the Python environment reaches, each with its constructor:
/// the built-in ones first, then those of [`register_typed_domain`].
static TYPED_DOMAINS: LazyLock<RwLock<Vec<(TypeId, TypedConstructor)>>> = LazyLock::new(|| {
    RwLock::new(vec![
        typed_entry_with_frames::<CartPole>(),
        typed_entry_with_frames::<FastCartPole>(),
        typed_entry_with_frames::<MountainCar>(),
        typed_entry_with_frames::<MountainCarContinuous>(),
        typed_entry_with_frames::<Acrobot>(),
        typed_entry_with_frames::<Pendulum>(),
        typed_entry_with_frames::<GridWorld>(),
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

/// The table entry of the domain type `D`, which draws RGB frames.
fn typed_entry_with_frames<D>() -> (TypeId, TypedConstructor)
where
    D: Domain + Render + RenderFrame + Clone + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    (TypeId::of::<D>(), typed_environment_with_frames::<D>)
}

/// Declares the domain type `D` to the Python environment, as the built-in domain types are:
/// every id whose registration builds a `D` then supports `reset(options={"state": ...})` (the
/// state in `D::State`'s serde form), `RustEnv.state()` and the `"ansi"` render mode (`D`'s
/// [`Render::render_text`]). Ids of a type not declared run all the same, without those three
/// (with `"rgb_array"` frames where the registration declared them). Idempotent; call it where
/// the domain is registered, before its environments are built.
/// [`register_typed_domain_with_frames`] also draws `"rgb_array"` frames.
pub fn register_typed_domain<D>()
where
    D: Domain + Render + Clone + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    add_typed_entry(typed_entry::<D>());
}

/// [`register_typed_domain`] for a domain type that also draws RGB frames ([`RenderFrame`]):
/// its ids support `render_mode="rgb_array"` too, with the state access.
pub fn register_typed_domain_with_frames<D>()
where
    D: Domain + Render + RenderFrame + Clone + Send + 'static,
    D::State: Serialize + DeserializeOwned + Send,
    D::ObservationSpace: DynamicSpace + Send,
    D::ActionSpace: DynamicSpace + Send,
    DynamicEnvironment<Simulator<D>>: Send,
{
    add_typed_entry(typed_entry_with_frames::<D>());
}

/// Adds `entry` to the table unless its type is there already (the first declaration stays).
fn add_typed_entry(entry: (TypeId, TypedConstructor)) {
    let mut table = TYPED_DOMAINS
        .write()
        .unwrap_or_else(PoisonError::into_inner);
    if !table.iter().any(|(type_id, _)| *type_id == entry.0) {
        table.push(entry);
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
        .unwrap_or_else(|| Box::new(Opaque::new(domain, seed)))
}

/// The environment state behind the Python object.
struct Inner {
    environment: Box<dyn PythonEnvironment>,
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
                frame: None,
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
            Some(Ok(())) => Ok(Some(PyArray3::from_array(py, &frame.as_array()))),
            Some(Err(CoreError::NeedsReset(_))) => Ok(None),
            Some(Err(error)) => Err(core_error(error)),
            None => Err(PyValueError::new_err(format!(
                "{} draws no RGB frames",
                self.id
            ))),
        }
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
