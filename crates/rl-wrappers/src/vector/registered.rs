//! Vectors built from a registered id ([`make_vector`]), Gymnasium's `make_vec`: the id's batch
//! kernel where its registration declared one, copies of its environment otherwise.

use std::num::NonZeroUsize;

use rl_core::{BoxedBatchStates, BoxedEnvironment, CoreError, Environment, Mode};
use rl_spaces::FlattenSpace;
use rl_spaces::{AnyElement, AnySpace, FiniteSpace};
use serde_json::Value;

use crate::error::VectorError;
use crate::vector::batch::sealed::Sealed as _;
use crate::vector::batch::{Failure, sealed};
use crate::vector::outputs::Rows;
use crate::vector::{Autoreset, EnvironmentBatch, KernelBatch, VectorEnvironment, VectorOptions};

/// A vector of the environments of a registered id, with `f32` observations: what
/// [`make_vector`] builds. Its actions are [`AnyElement`]s of the id's action space.
pub type RegisteredVector = VectorEnvironment<RegisteredBatch>;

/// The storage of a [`RegisteredVector`] (each thread's share): the columns of the domain's
/// batch kernel when its registration declared one
/// ([`Registration::with_kernel`](rl_core::registry::Registration::with_kernel)), copies of
/// its environment otherwise. Both give the same results bit for bit; the caller does not
/// choose.
pub enum RegisteredBatch {
    /// Copies of the id's environment, stepped one by one.
    Copies(EnvironmentBatch<BoxedEnvironment, f32>),
    /// The id's batch kernel over columns of states.
    Kernel(KernelBatch<BoxedBatchStates, f32>),
}

impl std::fmt::Debug for RegisteredBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegisteredBatch::Copies(batch) => f
                .debug_struct("Copies")
                .field("first", &batch.first())
                .field("len", &batch.len())
                .finish(),
            RegisteredBatch::Kernel(batch) => f.debug_tuple("Kernel").field(batch).finish(),
        }
    }
}

/// Runs the same expression on either storage.
macro_rules! either {
    ($batch:expr, $inner:ident => $body:expr) => {
        match $batch {
            RegisteredBatch::Copies($inner) => $body,
            RegisteredBatch::Kernel($inner) => $body,
        }
    };
}

impl sealed::Sealed for RegisteredBatch {
    type Action = AnyElement;
    type ActionSpace = AnySpace;
    type Scalar = f32;

    fn len(&self) -> usize {
        either!(self, batch => batch.len())
    }

    fn first(&self) -> usize {
        either!(self, batch => batch.first())
    }

    fn action_space(&self) -> &AnySpace {
        either!(self, batch => batch.action_space())
    }

    fn has_infos(&self) -> bool {
        either!(self, batch => batch.has_infos())
    }

    fn seed(&mut self, seed: u64) {
        either!(self, batch => batch.seed(seed))
    }

    fn reset(&mut self, mode: Mode, only_ended: bool, rows: Rows<'_, f32>) -> Result<(), Failure> {
        either!(self, batch => batch.reset(mode, only_ended, rows))
    }

    fn action_mask(&self, i: usize, row: &mut [bool]) -> Result<(), CoreError>
    where
        AnySpace: FiniteSpace,
    {
        either!(self, batch => batch.action_mask(i, row))
    }

    fn step(
        &mut self,
        actions: &[AnyElement],
        mode: Mode,
        autoreset: Autoreset,
        rows: Rows<'_, f32>,
    ) -> Result<(), Failure> {
        either!(self, batch => batch.step(actions, mode, autoreset, rows))
    }
}

impl RegisteredVector {
    /// Whether the vector steps the id's batch kernel (true) or copies of its environment.
    pub fn uses_kernel(&self) -> bool {
        matches!(self.main_batch(), RegisteredBatch::Kernel(_))
    }
}

/// `count` environments of the domain registered under `id` in `rl-core`'s table
/// ([`rl_core::registry`]), built with the JSON `params` over its defaults, environment `i`
/// seeded with [`derive_seed(seed, i)`](crate::derive_seed), stepped with `options`
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
    let domain = rl_core::registry::build(id, params).map_err(VectorError::Registry)?;
    let probe = domain.environment(0);
    let action_space = probe.action_space().clone();
    let dim = probe.observation_space().flat_dim();
    VectorEnvironment::from_shares(count, dim, seed, options, |first, len| {
        if let Some(states) = domain.batch_states(len) {
            return Ok(RegisteredBatch::Kernel(KernelBatch::new(states, first)));
        }
        let copies = (0..len).map(|_| domain.environment(0)).collect();
        Ok(RegisteredBatch::Copies(EnvironmentBatch::new(
            copies,
            first,
            action_space.clone(),
        )))
    })
}
