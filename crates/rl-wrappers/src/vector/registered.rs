//! Vectors built from a registered id ([`make_vector`]), Gymnasium's `make_vec`: the id's batch
//! kernel where its registration declared one, copies of its environment otherwise.

use std::num::NonZeroUsize;

use rl_core::registry::RegisteredDomain;
use rl_core::{BoxedBatchStates, BoxedEnvironment, CoreError, Environment, ErasedAction, Mode};
use rl_spaces::FlattenSpace;
use rl_spaces::{AnyElement, FiniteSpace};
use serde_json::Value;

use crate::error::VectorError;
use crate::vector::batch::sealed::Sealed as _;
use crate::vector::batch::{Failure, sealed};
use crate::vector::outputs::Rows;
use crate::vector::{Autoreset, EnvironmentBatch, KernelBatch, VectorEnvironment, VectorOptions};

/// A vector of the environments of a registered id, with `f32` observations: what
/// [`make_vector`] builds (actions are [`AnyElement`]s of the id's action space) and
/// [`make_discrete_vector`] builds (`A = i64`: integer actions of a
/// [`Discrete`](rl_spaces::Discrete) action space, read without the `AnyElement` round trip).
pub type RegisteredVector<A = AnyElement> = VectorEnvironment<RegisteredBatch<A>>;

/// The storage of a [`RegisteredVector`] (each thread's share): the columns of the domain's
/// batch kernel when its registration declared one
/// ([`Registration::with_kernel`](rl_core::registry::Registration::with_kernel)), copies of
/// its environment otherwise. Both give the same results bit for bit; the caller does not
/// choose. `A` is the actions' type ([`ErasedAction`]: [`AnyElement`] or `i64`).
pub enum RegisteredBatch<A: ErasedAction = AnyElement> {
    /// Copies of the id's environment, stepped one by one.
    Copies(Copies<A>),
    /// The id's batch kernel over columns of states.
    Kernel(KernelBatch<BoxedBatchStates<A>, f32>),
}

/// Copies of a registered id's environment with actions of type `A`: the environments read
/// [`AnyElement`]s, into which other actions are converted in a buffer kept between steps.
pub struct Copies<A: ErasedAction> {
    batch: EnvironmentBatch<BoxedEnvironment, f32>,
    action_space: A::Space,
    scratch: Vec<AnyElement>,
}

impl<A: ErasedAction> std::fmt::Debug for RegisteredBatch<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegisteredBatch::Copies(copies) => f
                .debug_struct("Copies")
                .field("first", &copies.batch.first())
                .field("len", &copies.batch.len())
                .finish(),
            RegisteredBatch::Kernel(batch) => f.debug_tuple("Kernel").field(batch).finish(),
        }
    }
}

/// Runs the same expression on either storage (the copies' environment batch or the kernel).
macro_rules! either {
    ($batch:expr, $inner:ident => $body:expr) => {
        match $batch {
            RegisteredBatch::Copies(copies) => {
                let $inner = &copies.batch;
                $body
            }
            RegisteredBatch::Kernel($inner) => $body,
        }
    };
}

/// [`either!`] with mutable access.
macro_rules! either_mut {
    ($batch:expr, $inner:ident => $body:expr) => {
        match $batch {
            RegisteredBatch::Copies(copies) => {
                let $inner = &mut copies.batch;
                $body
            }
            RegisteredBatch::Kernel($inner) => $body,
        }
    };
}

impl<A: ErasedAction> sealed::Sealed for RegisteredBatch<A> {
    type Action = A;
    type ActionSpace = A::Space;
    type Scalar = f32;

    fn len(&self) -> usize {
        either!(self, batch => batch.len())
    }

    fn first(&self) -> usize {
        either!(self, batch => batch.first())
    }

    fn action_space(&self) -> &A::Space {
        match self {
            RegisteredBatch::Copies(copies) => &copies.action_space,
            RegisteredBatch::Kernel(batch) => batch.action_space(),
        }
    }

    fn accepts_action(&self, action: &A) -> bool {
        match self {
            RegisteredBatch::Copies(copies) => {
                // Asked only for an action outside the space, so the conversion's buffer is
                // not on the path of a valid step.
                let mut scratch = Vec::new();
                A::as_any_elements(std::slice::from_ref(action), &mut scratch)
                    .first()
                    .is_some_and(|any| copies.batch.accepts_action(any))
            }
            RegisteredBatch::Kernel(batch) => batch.accepts_action(action),
        }
    }

    fn seed(&mut self, seeds: &[Option<u64>]) {
        either_mut!(self, batch => batch.seed(seeds))
    }

    fn reset(&mut self, mode: Mode, only_ended: bool, rows: Rows<'_, f32>) -> Result<(), Failure> {
        either_mut!(self, batch => batch.reset(mode, only_ended, rows))
    }

    fn action_mask(&self, i: usize, row: &mut [bool]) -> Result<(), CoreError>
    where
        A::Space: FiniteSpace,
    {
        either!(self, batch => batch.action_mask(i, row))
    }

    fn step(
        &mut self,
        actions: &[A],
        mode: Mode,
        autoreset: Autoreset,
        rows: Rows<'_, f32>,
    ) -> Result<(), Failure> {
        match self {
            RegisteredBatch::Copies(copies) => {
                let actions = A::as_any_elements(actions, &mut copies.scratch);
                copies.batch.step(actions, mode, autoreset, rows)
            }
            RegisteredBatch::Kernel(batch) => batch.step(actions, mode, autoreset, rows),
        }
    }
}

impl<A: ErasedAction> RegisteredVector<A> {
    /// Whether the vector steps the id's batch kernel (true) or copies of its environment.
    pub fn uses_kernel(&self) -> bool {
        matches!(self.main_batch(), RegisteredBatch::Kernel(_))
    }
}

/// `count` environments of the domain registered under `id` in `rl-core`'s table
/// ([`rl_core::registry`]), built with the JSON `params` over its defaults, environment `i`
/// seeded with `seed + i` (an error if that overflows `u64`), stepped with `options`
/// (autoreset mode, threads). Observations are flattened into one `f32` row per environment;
/// actions are [`AnyElement`](rl_spaces::AnyElement)s of the id's action space.
///
/// The built-in domains of `rl-domains` are in the table once `rl_domains::register_builtins()`
/// has run. Fails with [`VectorError::Registry`] for an unknown id (the error lists the
/// registered ones) or invalid parameters, and as
/// [`VectorEnvironment::from_environments`] does otherwise.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::Corridor;
/// use rl_core::registry::Registration;
/// use rl_core::Mode;
/// use rl_spaces::AnyElement;
/// use rl_wrappers::vector::{make_vector, VectorOptions};
///
/// #[derive(Default, serde::Deserialize)]
/// struct NoParams {}
///
/// Registration::new("Corridor-vector-doc-v0", "a corridor of 5 cells", |_: NoParams| {
///     Corridor::new(5, 0.0)
/// })
/// .register()?;
/// let count = NonZeroUsize::new(3).expect("non-zero");
/// let mut vector = make_vector("Corridor-vector-doc-v0", None, count, 7, VectorOptions::new())?;
/// vector.reset(Mode::Training)?;
/// vector.step(&[AnyElement::Int(1), AnyElement::Int(0), AnyElement::Int(1)])?;
/// assert_eq!(vector.observations().shape(), &[3, 5]); // Discrete(5) flattens one-hot
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn make_vector(
    id: &str,
    params: Option<&Value>,
    count: NonZeroUsize,
    seed: u64,
    options: VectorOptions,
) -> Result<RegisteredVector, VectorError> {
    build(id, params, count, seed, options, |domain, len| {
        domain.batch_states(len)
    })
}

/// [`make_vector`] for an id whose action space is [`Discrete`](rl_spaces::Discrete), with
/// `i64` actions: the same environments, seeds and results bit for bit, without converting
/// each action to and from an [`AnyElement`] (what the Python package steps). Fails with
/// [`VectorError::InvalidParameter`] (naming `id`) when the id's action space is not
/// `Discrete`, and as `make_vector` does otherwise.
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::Corridor;
/// use rl_core::registry::Registration;
/// use rl_core::Mode;
/// use rl_wrappers::vector::{make_discrete_vector, VectorOptions};
///
/// #[derive(Default, serde::Deserialize)]
/// struct NoParams {}
///
/// Registration::new("Corridor-discrete-doc-v0", "a corridor of 5 cells", |_: NoParams| {
///     Corridor::new(5, 0.0)
/// })
/// .register()?;
/// let count = NonZeroUsize::new(3).expect("non-zero");
/// let mut vector =
///     make_discrete_vector("Corridor-discrete-doc-v0", None, count, 7, VectorOptions::new())?;
/// vector.reset(Mode::Training)?;
/// vector.step(&[1, 0, 1])?;
/// assert_eq!(vector.observations().shape(), &[3, 5]);
/// // An action outside Discrete(2) is refused before anything steps.
/// assert!(vector.step(&[1, 2, 1]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn make_discrete_vector(
    id: &str,
    params: Option<&Value>,
    count: NonZeroUsize,
    seed: u64,
    options: VectorOptions,
) -> Result<RegisteredVector<i64>, VectorError> {
    build(id, params, count, seed, options, |domain, len| {
        domain.discrete_batch_states(len)
    })
}

/// Builds the vector of [`make_vector`] with actions of type `A`, each share's kernel states
/// built by `kernel` (`None`: copies of the environment).
fn build<A: ErasedAction>(
    id: &str,
    params: Option<&Value>,
    count: NonZeroUsize,
    seed: u64,
    options: VectorOptions,
    kernel: impl Fn(&dyn RegisteredDomain, usize) -> Option<BoxedBatchStates<A>>,
) -> Result<RegisteredVector<A>, VectorError> {
    let domain = rl_core::registry::build(id, params).map_err(VectorError::Registry)?;
    let probe = domain.environment(0);
    let any_space = probe.action_space().clone();
    let Some(action_space) = A::space(any_space.clone()) else {
        return Err(VectorError::invalid_parameter(
            "id",
            format!(
                "{id} has the action space {any_space}; integer actions need a Discrete one (use make_vector)"
            ),
        ));
    };
    let dim = probe.observation_space().flat_dim();
    // Environments stepped by a kernel are a few words of state each; copies of the
    // environment carry their own domain and spaces.
    let env_bytes = if kernel(domain.as_ref(), 1).is_some() {
        256
    } else {
        super::environment::COPY_BYTES
    };
    VectorEnvironment::from_shares(count, dim, env_bytes, seed, options, |first, len| {
        if let Some(states) = kernel(domain.as_ref(), len) {
            return Ok(RegisteredBatch::Kernel(KernelBatch::new(states, first)));
        }
        let copies = (0..len).map(|_| domain.environment(0)).collect();
        Ok(RegisteredBatch::Copies(Copies {
            batch: EnvironmentBatch::new(copies, first, any_space.clone()),
            action_space: action_space.clone(),
            scratch: Vec::with_capacity(len),
        }))
    })
}
