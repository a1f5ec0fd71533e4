//! Registration: one process-wide table from ids (`CartPole-v1`, `GridWorld-4x5`, your own)
//! to domain constructors, read by everything keyed by id: [`make`] for a single environment,
//! [`build`] for the typed domain behind an id, the conformance checker and pictures through
//! [`RegisteredDomain`], vectors (`rl_wrappers::vector::make_vector`), the `rl` command line and
//! the Python package.
//!
//! The built-in domains of `rl-domains` register through the same public call a user makes,
//! [`Registration::register`] (call `rl_domains::register_builtins()` once, or use
//! `rl_domains::registry::make`, which does it for you).
//!
//! # Parameters
//!
//! A registration names a parameter type `P` (serde, [`Default`]): the JSON parameters given
//! by id are read over `P::default()` field by field (`None` and `null` mean the defaults),
//! and a value of the wrong type or an unknown field is an error that names its JSON path
//! ([`CoreError::InvalidParameters`]). The constructor's own rejections are
//! [`CoreError::InvalidDomain`].
//!
//! # Example
//!
//! ```
//! use rl_core::corridor::Corridor;
//! use rl_core::registry::{self, Registration};
//! use rl_core::{CheckConfig, Environment, Mode};
//! use serde::Deserialize;
//!
//! #[derive(Debug, Clone, Deserialize)]
//! #[serde(default, deny_unknown_fields)]
//! struct CorridorParams { length: u32, slip: f64 }
//!
//! impl Default for CorridorParams {
//!     fn default() -> Self { CorridorParams { length: 4, slip: 0.0 } }
//! }
//!
//! Registration::new("Corridor-doc-v0", "a corridor walked left or right", |p: CorridorParams| {
//!     Corridor::new(p.length, p.slip)
//! })
//! .with_render()
//! .with_frames()
//! .register()?;
//!
//! // Built by id with JSON parameters, then driven without knowing its type.
//! let mut env = registry::make("Corridor-doc-v0", Some(&serde_json::json!({"length": 6})))?;
//! env.seed(7);
//! env.reset(Mode::Training)?;
//! assert_eq!(env.observation_space().to_string(), "Discrete(6)");
//!
//! // Its parameters' names, read from `CorridorParams`.
//! let names = registry::describe("Corridor-doc-v0")?.parameters;
//! assert_eq!(names, Some(vec!["length".to_owned(), "slip".to_owned()]));
//!
//! // Checked and drawn by id.
//! let domain = registry::build("Corridor-doc-v0", None)?;
//! assert!(domain.check(&CheckConfig::default()).is_ok());
//! assert!(domain.picture(0, registry::PictureFormat::Text).is_some());
//! assert_eq!(domain.frame_size(), Some((32, 8))); // 4 cells of 8 pixels
//!
//! // Errors name what was wrong.
//! let error = registry::make("Corridor-doc-v0", Some(&serde_json::json!({"length": "six"})));
//! assert!(error.err().is_some_and(|e| e.to_string().contains("length")));
//! assert!(Registration::new("Corridor-doc-v0", "again", |p: CorridorParams| {
//!     Corridor::new(p.length, p.slip)
//! })
//! .register()
//! .is_err());
//! # Ok::<(), rl_core::CoreError>(())
//! ```

use std::any::Any;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};

use crate::NumpyGenerator;
use rand::SeedableRng;
use rl_spaces::{AnyElement, DynamicSpace, FlatScalar, FlattenSpace, RowLayout, TrySampleSpace};
use serde::Serialize;
use serde::de::{Deserialize, DeserializeOwned};
use serde_json::Value;

use crate::batch::AnyDomainStates;
pub use crate::documentation::{Documentation, DocumentationSection};
pub use crate::episode::{BoxedRegisteredEnvironment, RegisteredEnvironment};
use crate::episode::{DrawFns, Episode, EpisodeFns, PictureFn, StateFns};
pub use crate::run_settings::{PythonType, RunSettings, Success};
use crate::{
    BatchStep, BoxedBatchStates, BoxedEnvironment, BoxedFrameEnvironment, CheckConfig, CheckReport,
    ConstrainedDomain, ConstraintSet, CoreError, Domain, DomainStates, DynamicEnvironment,
    EnumerableTransitions, ErasedAction, Frame, InvalidExamples, Mode, Render, RenderFrame,
    SteppedStates, check_batch_step, check_constraints, check_domain, check_transitions,
};

/// The two kinds of picture a registered domain can draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PictureFormat {
    /// Text, one line per row ([`Render::render_text`]).
    Text,
    /// A self-contained SVG document ([`Render::render_svg`]).
    Svg,
}

/// The scalar of the observation rows of a vector built by id: `f32` (the default), `f64`
/// (exact for a float64 Box: Gymnasium's MuJoCo ids) or `u8` (observations whose every row
/// entry is a byte: MiniGrid's images). Sealed: these three are the only ones. With an
/// [`ErasedAction`], it picks the [`RegisteredDomain`] method that builds the batch
/// ([`batch_states_as`]).
pub trait RowScalar: FlatScalar + row_sealed::Sealed {
    /// `domain`'s states of `len` episodes with [`AnyElement`] actions and rows of this
    /// scalar in `layout`.
    fn any_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> BoxedBatchStates<AnyElement, Self>;

    /// `domain`'s states of `len` episodes with `i64` actions and rows of this scalar in
    /// `layout`; `None` when its action space is not [`Discrete`](rl_spaces::Discrete).
    fn discrete_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, Self>>;
}

mod row_sealed {
    /// Keeps [`RowScalar`](super::RowScalar) to the three types this crate implements it for.
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
    impl Sealed for u8 {}
}

impl RowScalar for f32 {
    fn any_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> BoxedBatchStates<AnyElement, f32> {
        domain.batch_states_in(len, layout)
    }

    fn discrete_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, f32>> {
        domain.discrete_batch_states_in(len, layout)
    }
}

impl RowScalar for f64 {
    fn any_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> BoxedBatchStates<AnyElement, f64> {
        domain.batch_states_f64_in(len, layout)
    }

    fn discrete_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, f64>> {
        domain.discrete_batch_states_f64_in(len, layout)
    }
}

impl RowScalar for u8 {
    fn any_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> BoxedBatchStates<AnyElement, u8> {
        domain.batch_states_u8_in(len, layout)
    }

    fn discrete_batch_states(
        domain: &dyn RegisteredDomain,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, u8>> {
        domain.discrete_batch_states_u8_in(len, layout)
    }
}

/// `domain`'s states of `len` episodes with actions of `A` ([`AnyElement`], or `i64` for a
/// [`Discrete`](rl_spaces::Discrete) action space) and observation rows of `T` written in
/// `layout`: the [`RegisteredDomain`] method of that pair
/// ([`batch_states_in`](RegisteredDomain::batch_states_in),
/// [`discrete_batch_states_f64_in`](RegisteredDomain::discrete_batch_states_f64_in), ...).
/// `None` when the action space has no form in `A`. rl-wrappers' `make_vector::<A, T>`
/// builds its batches with it.
///
/// ```
/// use rl_core::corridor::Corridor;
/// use rl_core::registry::{Registration, batch_states_as};
/// use rl_spaces::RowLayout;
///
/// #[derive(Default, serde::Deserialize)]
/// struct NoParams {}
///
/// Registration::new("Corridor-batch-as-doc-v0", "a corridor of 4 cells", |_: NoParams| {
///     Corridor::new(4, 0.0)
/// })
/// .register()?;
/// let domain = rl_core::registry::build("Corridor-batch-as-doc-v0", None)?;
/// let states = batch_states_as::<i64, f64>(domain.as_ref(), 3, RowLayout::Flat);
/// assert!(states.is_some()); // Discrete(2) actions: i64 works
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn batch_states_as<A: ErasedAction, T: RowScalar>(
    domain: &dyn RegisteredDomain,
    len: usize,
    layout: RowLayout,
) -> Option<BoxedBatchStates<A, T>> {
    A::batch_states(domain, len, layout)
}

/// A domain built from a registered id, behind an object-safe interface: what code keyed by id
/// needs from it. [`as_any`](Self::as_any) gives the typed domain back
/// (`domain.as_any().downcast_ref::<GridWorld>()`) for capabilities beyond these.
pub trait RegisteredDomain: fmt::Debug + Send + Sync {
    /// The id it was built from.
    fn id(&self) -> &str;

    /// A fresh environment of the domain (a [`Simulator`](crate::Simulator) behind [`DynamicEnvironment`])
    /// seeded with `seed`, which gives its current state and its domain
    /// ([`Environment::state_any`](crate::Environment::state_any),
    /// [`domain_any`](crate::Environment::domain_any)) to code that downcasts them.
    fn environment(&self, seed: u64) -> BoxedEnvironment;

    /// The conformance checker's report ([`check_domain`], [`check_transitions`] when the
    /// registration declared enumerable transitions, and [`check_constraints`] when it declared
    /// constraints).
    fn check(&self, config: &CheckConfig) -> CheckReport;

    /// A picture of the initial state drawn with `seed` in training mode, or `None` when the
    /// registration declared no pictures.
    fn picture(&self, seed: u64, format: PictureFormat) -> Option<String>;

    /// The natural size `(width, height)` of the domain's RGB frames, or `None` when the
    /// registration declared no frames ([`Registration::with_frames`]).
    fn frame_size(&self) -> Option<(u32, u32)> {
        None
    }

    /// Draws the initial state drawn with `seed` in training mode over the whole of `frame`,
    /// at the frame's size. Fails with [`CoreError::Unsupported`] when the registration
    /// declared no frames.
    fn draw_frame(&self, seed: u64, frame: &mut Frame) -> Result<(), CoreError> {
        let _ = (seed, frame);
        Err(CoreError::Unsupported {
            operation: "frames",
        })
    }

    /// Draws `state`, a state of this domain (as a batch hands it out:
    /// [`BatchStates::state_any`](crate::BatchStates::state_any)), over the whole of `frame`.
    /// Fails with [`CoreError::Unsupported`] when the registration declared no frames, and
    /// with [`CoreError::InvalidParameter`] when `state` is not a state of this domain.
    fn draw_state(&self, state: &dyn Any, frame: &mut Frame) -> Result<(), CoreError> {
        let _ = (state, frame);
        Err(CoreError::Unsupported {
            operation: "frames",
        })
    }

    /// A fresh environment of the domain that also draws its current state
    /// ([`FrameEnvironment`](crate::FrameEnvironment)), seeded with `seed`. Fails with
    /// [`CoreError::Unsupported`] when the registration declared no frames.
    fn frame_environment(&self, seed: u64) -> Result<BoxedFrameEnvironment, CoreError> {
        let _ = seed;
        Err(CoreError::Unsupported {
            operation: "frames",
        })
    }

    /// A fresh environment of the domain seeded with `seed`, with everything the registration
    /// declared beyond stepping: the state as JSON ([`Registration::with_state`]), text
    /// pictures ([`Registration::with_render`]) and frames ([`Registration::with_frames`]),
    /// each `None` or [`CoreError::Unsupported`] where it was not declared. Its steps are those
    /// of [`environment`](Self::environment).
    fn registered_environment(&self, seed: u64) -> BoxedRegisteredEnvironment;

    /// The states of `len` episodes of the domain, each a placeholder until its first reset,
    /// stepped in a batch ([`BatchStates`](crate::BatchStates)): by the structure-of-arrays
    /// kernel the registration declared ([`Registration::with_kernel`], a [`BatchStep`] over
    /// [`DomainStates`]), otherwise by [`Domain::step`] state by state, with the domain's
    /// infos ([`SteppedStates`]). rl-wrappers' `make_vector` builds one per thread; either
    /// gives what [`environment`](Self::environment)'s copies give, bit for bit.
    fn batch_states(&self, len: usize) -> BoxedBatchStates {
        self.batch_states_in(len, RowLayout::Flat)
    }

    /// The states of `len` episodes as [`batch_states`](Self::batch_states) builds them,
    /// their observations written in `layout` ([`Domain::observe_row_into`]): the kernel where
    /// it writes rows of that layout (a space whose batched rows are its flat rows,
    /// [`AnySpace::batched_is_flat`](rl_spaces::AnySpace::batched_is_flat)), the domain's step
    /// state by state otherwise.
    fn batch_states_in(&self, len: usize, layout: RowLayout) -> BoxedBatchStates;

    /// The states of `len` episodes with `i64` actions, as
    /// [`batch_states`](Self::batch_states) builds them, or `None` when the action space is
    /// not [`Discrete`](rl_spaces::Discrete). rl-wrappers' `make_vector::<i64, f32>` builds one
    /// per thread.
    fn discrete_batch_states(&self, len: usize) -> Option<BoxedBatchStates<i64>> {
        self.discrete_batch_states_in(len, RowLayout::Flat)
    }

    /// The states of `len` episodes with `i64` actions, their observations written in
    /// `layout`, as [`batch_states_in`](Self::batch_states_in) builds them; `None` when the
    /// action space is not [`Discrete`](rl_spaces::Discrete).
    fn discrete_batch_states_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64>>;

    /// The states of `len` episodes as [`batch_states_in`](Self::batch_states_in) builds
    /// them, their observation rows of `f64`: what rl-wrappers' `make_vector::<AnyElement, f64>` steps for
    /// an observation space with a float64 Box (MuJoCo's), whose values `f32` rows would
    /// round.
    fn batch_states_f64_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> BoxedBatchStates<AnyElement, f64>;

    /// The states of `len` episodes with `i64` actions and observation rows of `f64`, as
    /// [`discrete_batch_states_in`](Self::discrete_batch_states_in) builds them; `None` when
    /// the action space is not [`Discrete`](rl_spaces::Discrete).
    fn discrete_batch_states_f64_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, f64>>;

    /// The states of `len` episodes as [`batch_states_in`](Self::batch_states_in) builds
    /// them, their observation rows of `u8`: what rl-wrappers' `make_vector::<AnyElement, u8>` steps for an
    /// observation whose every row entry is a byte (a `uint8` image, a small `Discrete`, a
    /// Text's indices: MiniGrid's), written by the domain straight into bytes.
    fn batch_states_u8_in(&self, len: usize, layout: RowLayout)
    -> BoxedBatchStates<AnyElement, u8>;

    /// The states of `len` episodes with `i64` actions and observation rows of `u8`, as
    /// [`discrete_batch_states_in`](Self::discrete_batch_states_in) builds them; `None` when
    /// the action space is not [`Discrete`](rl_spaces::Discrete).
    fn discrete_batch_states_u8_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, u8>>;

    /// The names of the domain's declared constraints, in index order (the indices
    /// [`StepOutcome::violations`](crate::StepOutcome::violations) reports), or nothing when
    /// the registration declared none ([`Registration::with_constraints`]).
    fn constraint_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The domain's discount factor.
    fn discount(&self) -> f64;

    /// The domain's episode cap.
    fn episode_cap(&self) -> Option<u64>;

    /// The typed domain, to downcast.
    fn as_any(&self) -> &dyn Any;
}

/// Draws a state in one format.
type DrawFn<D> = PictureFn<D>;
/// Checks a domain's enumerable transitions.
type TransitionCheckFn<D> = fn(&D, &CheckConfig) -> CheckReport;
/// Gives a domain's declared constraints.
type ConstraintsFn<D> =
    fn(&D) -> Result<ConstraintSet<<D as Domain>::State, <D as Domain>::Action>, CoreError>;

/// What a registration with constraints keeps: the domain's constraints and their check.
struct ConstraintFns<D: Domain> {
    set: ConstraintsFn<D>,
    check: TransitionCheckFn<D>,
}

impl<D: Domain> Clone for ConstraintFns<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for ConstraintFns<D> {}
/// Builds the states of a batch of episodes (the domain's kernel, or its step state by
/// state) with observation rows of `T`, with [`AnyElement`] actions and with `i64` actions
/// (`None` for an action space other than [`Discrete`](rl_spaces::Discrete)).
struct KernelFns<D: Domain, T: FlatScalar> {
    any: fn(&D, usize, RowLayout) -> BoxedBatchStates<AnyElement, T>,
    discrete: fn(&D, usize, RowLayout) -> Option<BoxedBatchStates<i64, T>>,
}

impl<D: Domain, T: FlatScalar> Clone for KernelFns<D, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain, T: FlatScalar> Copy for KernelFns<D, T> {}

impl<D, T> KernelFns<D, T>
where
    D: Domain + Clone + fmt::Debug + Send + Sync + 'static,
    D::State: Send,
    D::Action: Send + Sync,
    D::ObservationSpace: DynamicSpace + FlattenSpace,
    D::ActionSpace: DynamicSpace + TrySampleSpace + InvalidExamples,
    T: FlatScalar,
{
    /// The domain's states stepped one by one by its step, with its infos
    /// ([`SteppedStates`]).
    fn stepped() -> Self {
        KernelFns {
            any: |domain, len, layout| {
                let states = SteppedStates::new(Arc::new(domain.clone()), len).with_layout(layout);
                Box::new(AnyDomainStates::<_, AnyElement, T>::any(states))
            },
            discrete: |domain, len, layout| {
                let states = SteppedStates::new(Arc::new(domain.clone()), len).with_layout(layout);
                Some(Box::new(AnyDomainStates::<_, i64, T>::new(states)?))
            },
        }
    }

    /// The domain's structure-of-arrays kernel where it writes rows of the layout
    /// ([`kernel_writes`]), its states stepped one by one otherwise.
    fn kernel() -> Self
    where
        D: BatchStep,
    {
        KernelFns {
            any: |domain, len, layout| {
                if kernel_writes(domain, layout) {
                    let states = DomainStates::<D>::new(Arc::new(domain.clone()), len);
                    Box::new(AnyDomainStates::<_, AnyElement, T>::any(states))
                } else {
                    (Self::stepped().any)(domain, len, layout)
                }
            },
            discrete: |domain, len, layout| {
                if kernel_writes(domain, layout) {
                    let states = DomainStates::<D>::new(Arc::new(domain.clone()), len);
                    Some(Box::new(AnyDomainStates::<_, i64, T>::new(states)?))
                } else {
                    (Self::stepped().discrete)(domain, len, layout)
                }
            },
        }
    }
}

/// How a domain's episodes are batched, with observation rows of `f32`, of `f64` and of `u8`.
struct Kernels<D: Domain> {
    f32: KernelFns<D, f32>,
    f64: KernelFns<D, f64>,
    u8: KernelFns<D, u8>,
}

impl<D: Domain> Clone for Kernels<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for Kernels<D> {}

/// What a registration with frames keeps: the domain's frame size and its drawing, of a
/// state and of a state after an action.
struct FrameFns<D: Domain> {
    size: fn(&D) -> (u32, u32),
    draw: fn(&D, &<D as Domain>::State, &mut Frame),
    draw_after: fn(&D, &<D as Domain>::State, Option<&<D as Domain>::Action>, &mut Frame),
}

impl<D: Domain> Clone for FrameFns<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for FrameFns<D> {}

/// The optional capabilities a registration declared, as function pointers built where the
/// bounds are known.
struct Capabilities<D: Domain> {
    draw: Option<DrawFn<D>>,
    transitions: Option<TransitionCheckFn<D>>,
    frames: Option<FrameFns<D>>,
    /// How the domain's episodes are batched: its kernel ([`Registration::with_kernel`]) or,
    /// by default, its step state by state.
    kernel: Kernels<D>,
    /// The check of the kernel against the domain's step ([`check_batch_step`]), with it.
    kernel_check: Option<TransitionCheckFn<D>>,
    state: Option<StateFns<D>>,
    constraints: Option<ConstraintFns<D>>,
}

impl<D: Domain> Capabilities<D> {
    /// What an [`Episode`] of the domain can do beyond stepping.
    fn episode(&self) -> EpisodeFns<D> {
        EpisodeFns {
            state: self.state,
            picture: self.draw,
            frames: self.frames.map(|frames| DrawFns {
                size: frames.size,
                draw_after: frames.draw_after,
            }),
        }
    }
}

impl<D: Domain> Clone for Capabilities<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for Capabilities<D> {}

/// A typed domain with its id, capabilities and declared constraints.
struct Built<D: Domain> {
    id: Arc<str>,
    domain: D,
    capabilities: Capabilities<D>,
    constraints: Option<ConstraintSet<D::State, D::Action>>,
}

impl<D> Built<D>
where
    D: Domain + Clone,
{
    /// An episode of the domain seeded with `seed`, with the capabilities `fns` and the
    /// declared constraints.
    fn episode(&self, seed: u64, fns: EpisodeFns<D>) -> Episode<D> {
        Episode::new(self.domain.clone(), seed, fns, self.constraints.clone())
    }
}

impl<D: Domain + fmt::Debug> fmt::Debug for Built<D> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("RegisteredDomain")
            .field("id", &self.id)
            .field("domain", &self.domain)
            .finish()
    }
}

impl<D> RegisteredDomain for Built<D>
where
    D: Domain + Clone + fmt::Debug + Send + Sync + 'static,
    D::State: Send,
    D::Action: Send + Sync,
    D::ObservationSpace: DynamicSpace + FlattenSpace,
    D::ActionSpace: DynamicSpace + TrySampleSpace + InvalidExamples,
{
    fn id(&self) -> &str {
        &self.id
    }

    fn environment(&self, seed: u64) -> BoxedEnvironment {
        // An episode, not a bare simulator, so that the environment gives its state and domain
        // (`Environment::state_any`, `domain_any`) to agents that read them; its steps are the
        // simulator's.
        let fns = EpisodeFns {
            state: None,
            picture: None,
            frames: None,
        };
        DynamicEnvironment::new(self.episode(seed, fns)).boxed()
    }

    fn check(&self, config: &CheckConfig) -> CheckReport {
        let mut report = check_domain(&self.domain, config);
        if let Some(check) = self.capabilities.transitions {
            report.merge(check(&self.domain, config));
        }
        if let Some(constraints) = self.capabilities.constraints {
            report.merge((constraints.check)(&self.domain, config));
        }
        if let Some(check) = self.capabilities.kernel_check {
            report.merge(check(&self.domain, config));
        }
        report
    }

    fn picture(&self, seed: u64, format: PictureFormat) -> Option<String> {
        let draw = self.capabilities.draw?;
        let mut rng = NumpyGenerator::seed_from_u64(seed);
        let state = self.domain.initial_state(Mode::Training, &mut rng);
        Some(draw(&self.domain, &state, format))
    }

    fn frame_size(&self) -> Option<(u32, u32)> {
        self.capabilities
            .frames
            .map(|frames| (frames.size)(&self.domain))
    }

    fn draw_frame(&self, seed: u64, frame: &mut Frame) -> Result<(), CoreError> {
        let frames = self.capabilities.frames.ok_or(CoreError::Unsupported {
            operation: "frames",
        })?;
        let mut rng = NumpyGenerator::seed_from_u64(seed);
        let state = self.domain.initial_state(Mode::Training, &mut rng);
        (frames.draw)(&self.domain, &state, frame);
        Ok(())
    }

    fn draw_state(&self, state: &dyn Any, frame: &mut Frame) -> Result<(), CoreError> {
        let frames = self.capabilities.frames.ok_or(CoreError::Unsupported {
            operation: "frames",
        })?;
        let state =
            state
                .downcast_ref::<D::State>()
                .ok_or_else(|| CoreError::InvalidParameter {
                    name: "state",
                    reason: format!("is not a state of {}", self.id),
                })?;
        (frames.draw)(&self.domain, state, frame);
        Ok(())
    }

    fn frame_environment(&self, seed: u64) -> Result<BoxedFrameEnvironment, CoreError> {
        if self.capabilities.frames.is_none() {
            return Err(CoreError::Unsupported {
                operation: "frames",
            });
        }
        Ok(Box::new(DynamicEnvironment::new(
            self.episode(seed, self.capabilities.episode()),
        )))
    }

    fn registered_environment(&self, seed: u64) -> BoxedRegisteredEnvironment {
        Box::new(DynamicEnvironment::new(
            self.episode(seed, self.capabilities.episode()),
        ))
    }

    fn batch_states_in(&self, len: usize, layout: RowLayout) -> BoxedBatchStates {
        self.any_batch(len, layout, self.capabilities.kernel.f32)
    }

    fn discrete_batch_states_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64>> {
        self.discrete_batch(len, layout, self.capabilities.kernel.f32)
    }

    fn batch_states_f64_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> BoxedBatchStates<AnyElement, f64> {
        self.any_batch(len, layout, self.capabilities.kernel.f64)
    }

    fn discrete_batch_states_f64_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, f64>> {
        self.discrete_batch(len, layout, self.capabilities.kernel.f64)
    }

    fn batch_states_u8_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> BoxedBatchStates<AnyElement, u8> {
        self.any_batch(len, layout, self.capabilities.kernel.u8)
    }

    fn discrete_batch_states_u8_in(
        &self,
        len: usize,
        layout: RowLayout,
    ) -> Option<BoxedBatchStates<i64, u8>> {
        self.discrete_batch(len, layout, self.capabilities.kernel.u8)
    }

    fn constraint_names(&self) -> Vec<String> {
        self.constraints
            .iter()
            .flat_map(|constraints| constraints.names().map(str::to_owned))
            .collect()
    }

    fn discount(&self) -> f64 {
        self.domain.discount()
    }

    fn episode_cap(&self) -> Option<u64> {
        self.domain.episode_cap()
    }

    fn as_any(&self) -> &dyn Any {
        &self.domain
    }
}

/// Whether a structure-of-arrays kernel, which writes flat rows, writes rows of `layout` for
/// `domain`: always for the flat layout, and for the batched one when the observation space's
/// batched rows are its flat rows.
fn kernel_writes<D: Domain>(domain: &D, layout: RowLayout) -> bool
where
    D::ObservationSpace: DynamicSpace,
{
    layout == RowLayout::Flat || domain.observation_space().to_any_space().batched_is_flat()
}

impl<D> Built<D>
where
    D: Domain + Clone + fmt::Debug + Send + Sync + 'static,
    D::State: Send,
    D::Action: Send + Sync,
    D::ObservationSpace: DynamicSpace + FlattenSpace,
    D::ActionSpace: DynamicSpace + TrySampleSpace + InvalidExamples,
{
    /// The states of `len` episodes with [`AnyElement`] actions and rows of `T` in `layout`:
    /// stepped one by one with their declared constraints, else as `kernel` builds them.
    fn any_batch<T: FlatScalar>(
        &self,
        len: usize,
        layout: RowLayout,
        kernel: KernelFns<D, T>,
    ) -> BoxedBatchStates<AnyElement, T> {
        match &self.constraints {
            Some(constraints) => Box::new(AnyDomainStates::<_, AnyElement, T>::any(
                self.constrained(len, constraints).with_layout(layout),
            )),
            None => (kernel.any)(&self.domain, len, layout),
        }
    }

    /// The states of `len` episodes with `i64` actions, as [`any_batch`](Self::any_batch)
    /// builds them; `None` when the action space is not [`Discrete`](rl_spaces::Discrete).
    fn discrete_batch<T: FlatScalar>(
        &self,
        len: usize,
        layout: RowLayout,
        kernel: KernelFns<D, T>,
    ) -> Option<BoxedBatchStates<i64, T>> {
        match &self.constraints {
            Some(constraints) => Some(Box::new(AnyDomainStates::<_, i64, T>::new(
                self.constrained(len, constraints).with_layout(layout),
            )?)),
            None => (kernel.discrete)(&self.domain, len, layout),
        }
    }
}

impl<D: Domain + Clone> Built<D> {
    /// `len` states of the domain stepped one by one with their constraints evaluated
    /// ([`SteppedStates::with_constraints`]): a domain with declared constraints is batched so
    /// even when it has a kernel, which sees no states between steps.
    fn constrained(
        &self,
        len: usize,
        constraints: &ConstraintSet<D::State, D::Action>,
    ) -> SteppedStates<D> {
        SteppedStates::new(Arc::new(self.domain.clone()), len).with_constraints(constraints.clone())
    }
}

/// Builds a typed domain from JSON parameters.
type ConstructFn<D> = dyn Fn(Option<&Value>) -> Result<D, CoreError> + Send + Sync;

/// Builds a registered domain from JSON parameters.
type BuildFn =
    dyn Fn(&str, Option<&Value>) -> Result<Box<dyn RegisteredDomain>, CoreError> + Send + Sync;

/// One entry of the table: an id, its description, optional suggested settings and
/// documentation, its parameters' names, and its constructor.
#[derive(Clone)]
struct Entry {
    id: Arc<str>,
    description: String,
    settings: Option<Value>,
    documentation: Option<Documentation>,
    parameters: Option<Vec<&'static str>>,
    build: Arc<BuildFn>,
}

/// One registered id as [`list`] shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryEntry {
    /// The id, for example `CartPole-v1`.
    pub id: String,
    /// What the id builds, in one line.
    pub description: String,
    /// Settings the registration suggests to higher layers (for example `rl-experiment`'s
    /// default agent and budget, see [`Registration::with_settings`]), as JSON, or `None`;
    /// [`run_settings`](Self::run_settings) reads them typed.
    pub settings: Option<Value>,
    /// The names of the JSON parameters the id reads: the fields of its registration's
    /// parameter type in declaration order, as JSON spells them (read from the type's
    /// `Deserialize` implementation); `None` when that type is not a struct (a JSON value the
    /// constructor reads itself), so the names are not known here.
    pub parameters: Option<Vec<String>>,
    /// The documentation of the id's family ([`Registration::with_documentation`]), or `None`
    /// when the registration declared none.
    pub documentation: Option<Documentation>,
}

impl RegistryEntry {
    /// The id's family: its documentation's ([`Documentation::family`], which the environment
    /// catalogue's pages follow), or the id's [`id_prefix`] when it has no documentation.
    pub fn family(&self) -> &str {
        match &self.documentation {
            Some(documentation) => documentation.family(),
            None => id_prefix(&self.id),
        }
    }

    /// The settings, typed (the default when the registration has none). They were checked
    /// when the id registered, so reading them cannot fail.
    pub fn run_settings(&self) -> RunSettings {
        self.settings
            .as_ref()
            .and_then(|settings| RunSettings::from_json(settings).ok())
            .unwrap_or_default()
    }
}

/// A domain type being registered under an id: made by [`Registration::new`], given its
/// optional capabilities with the `with_*` methods, and entered into the table by
/// [`register`](Self::register).
pub struct Registration<D: Domain> {
    id: String,
    description: String,
    parameters: Option<Vec<&'static str>>,
    settings: Option<Value>,
    documentation: Option<Documentation>,
    construct: Arc<ConstructFn<D>>,
    capabilities: Capabilities<D>,
}

impl<D: Domain> fmt::Debug for Registration<D> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Registration")
            .field("id", &self.id)
            .field("description", &self.description)
            .field("settings", &self.settings)
            .field("documentation", &self.documentation.map(|d| d.family()))
            .finish_non_exhaustive()
    }
}

impl<D> Registration<D>
where
    D: Domain + Clone + fmt::Debug + Send + Sync + 'static,
    D::State: Send,
    D::Action: Send + Sync,
    D::ObservationSpace: DynamicSpace + FlattenSpace,
    D::ActionSpace: DynamicSpace + TrySampleSpace + InvalidExamples,
{
    /// A registration of the domains `constructor` builds from parameters `P`, under `id`
    /// with a one-line `description`. `P` is read from the JSON parameters given by id over
    /// `P::default()` (see the [module documentation](self)).
    ///
    /// Vectors built from the id step the domain's states in a batch, each with
    /// [`Domain::step`] and with its infos ([`SteppedStates`]), unless the registration
    /// declares a structure-of-arrays kernel ([`with_kernel`](Self::with_kernel)).
    pub fn new<P, E, F>(
        id: impl Into<String>,
        description: impl Into<String>,
        constructor: F,
    ) -> Self
    where
        P: DeserializeOwned + Default,
        E: fmt::Display,
        F: Fn(P) -> Result<D, E> + Send + Sync + 'static,
    {
        let id = id.into();
        let owned_id = id.clone();
        let construct = move |params: Option<&Value>| {
            let params = read_parameters::<P>(&owned_id, params)?;
            constructor(params).map_err(|error| CoreError::InvalidDomain {
                id: owned_id.clone(),
                reason: error.to_string(),
            })
        };
        Registration {
            id,
            description: description.into(),
            parameters: crate::parameter_names::parameter_names::<P>(),
            settings: None,
            documentation: None,
            construct: Arc::new(construct),
            capabilities: Capabilities {
                draw: None,
                transitions: None,
                frames: None,
                kernel: Kernels {
                    f32: KernelFns::stepped(),
                    f64: KernelFns::stepped(),
                    u8: KernelFns::stepped(),
                },
                kernel_check: None,
                state: None,
                constraints: None,
            },
        }
    }

    /// Declares that the domain draws its states ([`Render`]), so that pictures work by id.
    pub fn with_render(mut self) -> Self
    where
        D: Render,
    {
        self.capabilities.draw = Some(|domain, state, format| match format {
            PictureFormat::Text => domain.render_text(state),
            PictureFormat::Svg => domain.render_svg(state),
        });
        self
    }

    /// Declares that the domain draws RGB frames ([`RenderFrame`]), so that frames and
    /// environments with frames work by id ([`RegisteredDomain::draw_frame`],
    /// [`RegisteredDomain::frame_environment`], [`RegisteredDomain::registered_environment`]);
    /// environments draw with [`RenderFrame::draw_frame_after`], so that a domain whose frames
    /// show the last action (Pendulum's torque arrow) shows it by id too.
    pub fn with_frames(mut self) -> Self
    where
        D: RenderFrame,
    {
        self.capabilities.frames = Some(FrameFns {
            size: |domain| domain.frame_size(),
            draw: |domain, state, frame| domain.draw_frame(state, frame),
            draw_after: |domain, state, action, frame| {
                domain.draw_frame_after(state, action, frame)
            },
        });
        self
    }

    /// Declares that the domain's states read and write as JSON (their serde form), so that
    /// environments built by id can be read and started in any state
    /// ([`RegisteredEnvironment::state`], [`RegisteredEnvironment::reset_to_state`]): what the
    /// Python package's `reset(options={"state": ...})` and `state()` use.
    pub fn with_state(mut self) -> Self
    where
        D::State: Serialize + DeserializeOwned,
    {
        self.capabilities.state = Some(StateFns {
            to_json: |_, state| serde_json::to_value(state).ok(),
            from_json: |_, value| D::State::deserialize(value).map_err(|error| error.to_string()),
        });
        self
    }

    /// Declares, as [`with_state`](Self::with_state) does, that the domain's states read and
    /// write as JSON, through the domain's own functions rather than their serde form: for
    /// states that need the domain to be read back (MuJoCo's `mjData`, made for the domain's
    /// compiled model). `to_json` gives `None` for a state with no JSON form; `from_json`
    /// says why a value is not a state of the domain.
    pub fn with_state_json(
        mut self,
        to_json: fn(&D, &D::State) -> Option<Value>,
        from_json: fn(&D, &Value) -> Result<D::State, String>,
    ) -> Self {
        self.capabilities.state = Some(StateFns { to_json, from_json });
        self
    }

    /// Declares that the domain's constraints ([`ConstrainedDomain`]) are evaluated on every
    /// step of what is built by id, as [`Simulator::with_constraints`](crate::Simulator::with_constraints) evaluates them: the
    /// environments of [`make`] and [`RegisteredDomain::environment`] report them in
    /// [`StepOutcome::violations`](crate::StepOutcome::violations) (named by
    /// [`Environment::constraint_name`](crate::Environment::constraint_name) and
    /// [`RegisteredDomain::constraint_names`]), and they, the registered environments and the
    /// vectors built by id list the violated ones' names in the step's info under
    /// [`VIOLATIONS_INFO_KEY`](crate::VIOLATIONS_INFO_KEY) (`"violations"`, written by
    /// [`ConstraintSet::write_info`]). Vectors built by id then step the domain state
    /// by state ([`SteppedStates::with_constraints`]), even when it declared a kernel.
    ///
    /// The checker by id ([`RegisteredDomain::check`], `rl check`) also runs
    /// [`check_constraints`]. Building by id fails with [`CoreError::InvalidParameter`] when
    /// the domain declares more than
    /// [`Violations::MAX_CONSTRAINTS`](crate::Violations::MAX_CONSTRAINTS).
    pub fn with_constraints(mut self) -> Self
    where
        D: ConstrainedDomain,
    {
        self.capabilities.constraints = Some(ConstraintFns {
            set: |domain| ConstraintSet::of(domain),
            check: |domain, config| check_constraints(domain, config),
        });
        self
    }

    /// Declares that the domain enumerates its transitions ([`EnumerableTransitions`]), so
    /// that the checker by id also runs [`check_transitions`].
    pub fn with_transitions(mut self) -> Self
    where
        D: EnumerableTransitions,
        D::State: PartialEq,
    {
        self.capabilities.transitions = Some(|domain, config| check_transitions(domain, config));
        self
    }

    /// Declares that the domain steps batches of states at once with a structure-of-arrays
    /// kernel ([`BatchStep`]), so that vectors built by id (rl-wrappers' `make_vector`) run it
    /// ([`RegisteredDomain::batch_states`]) rather than the domain's step state by state
    /// ([`SteppedStates`], what every registration gets without this). The kernel gives, bit
    /// for bit, what the step gives, infos included (a kernel writes them with
    /// [`BatchStep::write_infos`]). The checker by id ([`RegisteredDomain::check`], `rl
    /// check`) verifies both ([`check_batch_step`]).
    pub fn with_kernel(mut self) -> Self
    where
        D: BatchStep,
    {
        self.capabilities.kernel_check = Some(|domain, config| check_batch_step(domain, config));
        // The kernel writes flat rows: a layout whose rows differ (a Discrete leaf in the
        // batched layout) steps the domain state by state instead.
        self.capabilities.kernel = Kernels {
            f32: KernelFns::kernel(),
            f64: KernelFns::kernel(),
            u8: KernelFns::kernel(),
        };
        self
    }

    /// Attaches settings that higher layers read and `rl-core` never acts on: a JSON object
    /// of [`RunSettings`]' keys, for example `{"agent": "q-learning", "max_steps": 20000}`.
    /// [`register`](Self::register) checks them: an unknown key or a value of the wrong type
    /// is an error naming it.
    pub fn with_settings(mut self, settings: Value) -> Self {
        self.settings = Some(settings);
        self
    }

    /// Attaches the documentation of the id's family ([`Documentation`]: the family's name and
    /// its text in the domain documentation template, the file the domain type's rustdoc
    /// includes), which `rl-core` never reads: the environment catalogue (rl-experiment) makes
    /// a page of it for each family, with the family's ids ([`RegistryEntry::documentation`]).
    pub fn with_documentation(mut self, documentation: Documentation) -> Self {
        self.documentation = Some(documentation);
        self
    }

    /// Enters the registration into the process-wide table.
    ///
    /// Fails with [`CoreError::DuplicateId`] if the id is already registered, and with
    /// [`CoreError::InvalidParameter`] for an empty id or one with whitespace, or settings
    /// that are not [`RunSettings`] (naming the unknown key or the mistyped one).
    pub fn register(self) -> Result<(), CoreError> {
        if self.id.is_empty() || self.id.chars().any(char::is_whitespace) {
            return Err(CoreError::invalid_parameter(
                "id",
                format!(
                    "{:?} is not a registrable id: ids are non-empty and have no whitespace",
                    self.id
                ),
            ));
        }
        if let Some(settings) = &self.settings {
            RunSettings::deserialize(settings).map_err(|error| {
                CoreError::invalid_parameter("settings", format!("of {}: {error}", self.id))
            })?;
        }
        let Registration {
            id,
            description,
            parameters,
            settings,
            documentation,
            construct,
            capabilities,
        } = self;
        let build = move |id: &str, params: Option<&Value>| {
            let domain = construct(params)?;
            let constraints = capabilities
                .constraints
                .map(|constraints| (constraints.set)(&domain))
                .transpose()?;
            Ok(Box::new(Built {
                id: Arc::from(id),
                domain,
                capabilities,
                constraints,
            }) as Box<dyn RegisteredDomain>)
        };
        let entry = Entry {
            id: Arc::from(id.as_str()),
            description,
            settings,
            documentation,
            parameters,
            build: Arc::new(build),
        };
        let mut table = TABLE.write().unwrap_or_else(PoisonError::into_inner);
        if table.iter().any(|existing| *existing.id == *id) {
            return Err(CoreError::DuplicateId { id });
        }
        table.push(entry);
        Ok(())
    }
}

/// Parameter names as [`RegistryEntry::parameters`] holds them.
fn owned_names(names: Option<&[&'static str]>) -> Option<Vec<String>> {
    names.map(|names| names.iter().map(|name| (*name).to_owned()).collect())
}

/// The table, in registration order.
static TABLE: RwLock<Vec<Entry>> = RwLock::new(Vec::new());

/// The entry of `id`, cloned out of the table so that no lock is held while it builds.
fn entry(id: &str) -> Result<Entry, CoreError> {
    let table = TABLE.read().unwrap_or_else(PoisonError::into_inner);
    table
        .iter()
        .find(|entry| &*entry.id == id)
        .cloned()
        .ok_or_else(|| CoreError::UnknownId {
            id: id.to_owned(),
            known: table.iter().map(|entry| entry.id.to_string()).collect(),
        })
}

/// Every registered id with its description and settings, in registration order.
pub fn list() -> Vec<RegistryEntry> {
    let table = TABLE.read().unwrap_or_else(PoisonError::into_inner);
    table
        .iter()
        .map(|entry| RegistryEntry {
            id: entry.id.to_string(),
            description: entry.description.clone(),
            settings: entry.settings.clone(),
            parameters: owned_names(entry.parameters.as_deref()),
            documentation: entry.documentation,
        })
        .collect()
}

/// Every registered id, in registration order.
pub fn ids() -> Vec<String> {
    let table = TABLE.read().unwrap_or_else(PoisonError::into_inner);
    table.iter().map(|entry| entry.id.to_string()).collect()
}

/// The prefix of an id: the part before its first `-` (`CartPole` for `CartPole-v1`,
/// `GridWorld` for `GridWorld-4x5`, `MiniGrid` for `MiniGrid-Empty-5x5-v0`), or the whole id
/// when it has none. The message of [`CoreError::UnknownId`] groups ids by it (a short,
/// coarse view). It is not the id's family: a registration's [`Documentation`] names that (the
/// family of its catalogue page and of `rl list`), which may be finer (`MiniGrid-DoorKey`) or
/// join ids of other prefixes (`FrozenLake8x8-v1` on FrozenLake's page):
/// [`RegistryEntry::family`], which falls back on the prefix for an id without documentation.
///
/// ```
/// use rl_core::registry::id_prefix;
/// assert_eq!(id_prefix("CartPole-v1"), "CartPole");
/// assert_eq!(id_prefix("GridWorld-11x11-Rooms"), "GridWorld");
/// assert_eq!(id_prefix("Corridor"), "Corridor");
/// ```
pub fn id_prefix(id: &str) -> &str {
    id.split_once('-').map_or(id, |(prefix, _)| prefix)
}

/// Whether `id` is registered.
pub fn contains(id: &str) -> bool {
    let table = TABLE.read().unwrap_or_else(PoisonError::into_inner);
    table.iter().any(|entry| &*entry.id == id)
}

/// The entry of `id` as [`list`] shows it.
pub fn describe(id: &str) -> Result<RegistryEntry, CoreError> {
    entry(id).map(|entry| RegistryEntry {
        id: entry.id.to_string(),
        description: entry.description,
        settings: entry.settings,
        parameters: owned_names(entry.parameters.as_deref()),
        documentation: entry.documentation,
    })
}

/// The domain registered under `id`, built with `params` over its defaults.
///
/// Fails with [`CoreError::UnknownId`] (whose message suggests the closest registered id and
/// lists the registered ids) for an unknown id, [`CoreError::InvalidParameters`] for parameters
/// that do not read, and [`CoreError::InvalidDomain`] for parameters the domain rejects.
///
/// The built-in domains of `rl-domains` are in the table only once
/// `rl_domains::register_builtins()` has run (`rl_domains::registry::make` and `build` call it
/// first); until then their ids are unknown here.
pub fn build(id: &str, params: Option<&Value>) -> Result<Box<dyn RegisteredDomain>, CoreError> {
    let entry = entry(id)?;
    (entry.build)(id, params)
}

/// The environment registered under `id`, built with `params` over its defaults, seeded with
/// 0 (call [`Environment::seed`](crate::Environment::seed) before the first reset). Fails as
/// [`build`] does (a built-in id, too, until `rl_domains::register_builtins()` has run).
pub fn make(id: &str, params: Option<&Value>) -> Result<BoxedEnvironment, CoreError> {
    build(id, params).map(|domain| domain.environment(0))
}

/// Reads parameters from a JSON object over the defaults; `None` and `null` give the
/// defaults. Anything but an object is an error (serde would read a list positionally).
fn read_parameters<P: DeserializeOwned + Default>(
    id: &str,
    params: Option<&Value>,
) -> Result<P, CoreError> {
    let invalid = |path: String, reason: String| CoreError::InvalidParameters {
        id: id.to_owned(),
        path,
        reason,
    };
    match params {
        None | Some(Value::Null) => Ok(P::default()),
        Some(value @ Value::Object(_)) => {
            serde_path_to_error::deserialize(value).map_err(|error| {
                let path = error.path().to_string();
                let reason = error.into_inner().to_string();
                invalid(if path == "." { String::new() } else { path }, reason)
            })
        }
        Some(other) => Err(invalid(
            String::new(),
            format!("expected an object of parameter fields, found {other}"),
        )),
    }
}
