//! Vectors built from a registered id ([`make_vector`]), Gymnasium's `make_vec`: copies of the
//! id's environment stepped in lockstep.

use std::num::NonZeroUsize;

use rl_core::BoxedEnvironment;
use serde_json::Value;

use crate::error::VectorError;
use crate::vector::{EnvironmentBatch, VectorEnvironment, VectorOptions};

/// A vector of the environments of a registered id, with `f32` observations: what
/// [`make_vector`] builds.
pub type RegisteredVector = VectorEnvironment<EnvironmentBatch<BoxedEnvironment, f32>>;

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
    VectorEnvironment::from_environments(count, seed, options, |_| domain.environment(0))
}
