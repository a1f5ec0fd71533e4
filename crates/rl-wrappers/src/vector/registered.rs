//! Vectors built from a registered id ([`make_vector`]), Gymnasium's `make_vec`: every id
//! steps in a batch, its registration's structure-of-arrays kernel where it declared one, its
//! domain's step state by state otherwise.

use std::num::NonZeroUsize;

use rl_core::registry::{RegisteredDomain, RowScalar, batch_states_as};
use rl_core::{BatchStates, BoxedBatchStates, ErasedAction};

use rl_spaces::FlattenSpace;
use rl_spaces::{AnyElement, AnySpace, DType, FlatScalar, RowLayout};
use serde_json::Value;

use crate::error::VectorError;
use crate::vector::batch::{BOOKKEEPING_BYTES, Batch};
use crate::vector::environment::check_size;
use crate::vector::{
    AsyncVector, VectorEnv, VectorEnvironment, VectorEpisodeStatistics, VectorOptions,
};

/// A vector of the environments of a registered id, with actions of `A` ([`AnyElement`]s of
/// the id's action space by default, or `i64` for a [`Discrete`](rl_spaces::Discrete) one) and
/// observation rows of `T` (`f32` by default; `f64` for an observation space with a float64
/// Box, [`needs_f64_rows`]; `u8` for observations whose every row entry is a byte,
/// [`fits_u8_rows`]: MiniGrid's, its pictures included): what [`make_vector::<A, T>`](make_vector)
/// builds.
///
/// Its states are the id's [`RegisteredDomain::batch_states`]: the
/// columns of the domain's batch kernel when its registration declared one
/// ([`Registration::with_kernel`](rl_core::registry::Registration::with_kernel)), its states
/// stepped one by one by [`Domain::step`](rl_core::Domain::step) otherwise
/// ([`SteppedStates`](rl_core::SteppedStates), with the domain's infos). Both give what copies
/// of the id's environment give, bit for bit; the caller does not choose. A registration that
/// declared constraints
/// ([`Registration::with_constraints`](rl_core::registry::Registration::with_constraints)) is
/// stepped state by state with them evaluated, each violating step listing the violated
/// constraints' names in its info under [`VIOLATIONS_INFO_KEY`](rl_core::VIOLATIONS_INFO_KEY)
/// (`"violations"`), as the id's environments do.
pub type RegisteredVector<A = AnyElement, T = f32> = VectorEnvironment<BoxedBatchStates<A, T>, T>;

/// A vector with observation rows of `T` (`f32` by default) and actions of type `A` (an
/// [`ErasedAction`]: [`AnyElement`] or `i64`) behind the [`VectorEnv`] trait: a
/// [`RegisteredVector`] under any stack of wrappers, chosen at run time (the cost is one
/// dynamic call per call, not one per environment).
pub type DynVector<A = AnyElement, T = f32> =
    Box<dyn VectorEnv<Action = A, ActionSpace = <A as ErasedAction>::Space, Scalar = T> + Send>;

/// A vector of a registered id as [`stack`] wraps it: episode statistics over a [`DynVector`].
pub type StackedVector<A = AnyElement, T = f32> = VectorEpisodeStatistics<DynVector<A, T>>;

/// Whether observations of `space` need rows of `f64` to be exact: true when it has a Box
/// of dtype float64 (at any depth of a Tuple, Dict or OneOf), whose values `f32` rows would
/// round (Gymnasium's MuJoCo ids), false otherwise (every other built-in id: their
/// observations are exact in `f32` rows). A caller that builds vectors of any id chooses
/// rows of `f64` over rows of `f32` ([`make_vector`]) by it, as the Python package does.
///
/// ```
/// use rl_spaces::{AnySpace, ArrayBox, Discrete};
/// use rl_wrappers::vector::needs_f64_rows;
///
/// let float64 = ArrayBox::<f64, 3>::new([-1.0; 3], [1.0; 3])?;
/// assert!(needs_f64_rows(&AnySpace::from(float64)));
/// let float32 = ArrayBox::<f32, 3>::new([-1.0; 3], [1.0; 3])?;
/// assert!(!needs_f64_rows(&AnySpace::from(float32)));
/// assert!(!needs_f64_rows(&AnySpace::Discrete(Discrete::new(4)?)));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
pub fn needs_f64_rows(space: &AnySpace) -> bool {
    match space {
        AnySpace::Box(space) => space.dtype() == DType::F64,
        AnySpace::Tuple(tuple) => tuple.spaces().iter().any(needs_f64_rows),
        AnySpace::Dict(dict) => dict.spaces().values().any(needs_f64_rows),
        AnySpace::OneOf(one_of) => one_of.spaces().iter().any(needs_f64_rows),
        _ => false,
    }
}

/// Whether every entry of a row of `space` in `layout` is a byte, so that rows of `u8`
/// ([`make_vector`] with `T = u8`) hold its observations exactly: true when each leaf (at any depth of a
/// Tuple or Dict) is a `uint8` Box, a MultiBinary, a Text of at most 255 characters (its
/// entries are character indices, padded with the charset's length), or a Discrete or
/// MultiDiscrete (one-hot entries in the flat layout; in the batched layout, indices from the
/// start: at most 256 values each). False for any other leaf (a float or wider integer Box, a
/// FiniteSet, OneOf, Sequence or Graph). A caller that builds vectors of any id chooses
/// rows of `u8` by it, as the Python package does for MiniGrid's and BabyAI's ids: their
/// images then go from the domain's drawing into the rows as bytes, with no float in between.
///
/// ```
/// use rl_spaces::{AnySpace, BoxSpace, DictSpace, Discrete, RowLayout};
/// use rl_wrappers::vector::fits_u8_rows;
///
/// let image = AnySpace::from(BoxSpace::<u8>::uniform(&[7, 7, 3], 0, 255)?);
/// let observation = AnySpace::Dict(DictSpace::new([
///     ("direction", AnySpace::Discrete(Discrete::new(4)?)),
///     ("image", image),
/// ])?);
/// assert!(fits_u8_rows(&observation, RowLayout::Batched));
/// // 500 states: one-hot entries fit a byte, their index does not.
/// let taxi = AnySpace::Discrete(Discrete::new(500)?);
/// assert!(fits_u8_rows(&taxi, RowLayout::Flat));
/// assert!(!fits_u8_rows(&taxi, RowLayout::Batched));
/// let floats = AnySpace::from(BoxSpace::<f32>::uniform(&[4], -1.0, 1.0)?);
/// assert!(!fits_u8_rows(&floats, RowLayout::Batched));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
pub fn fits_u8_rows(space: &AnySpace, layout: RowLayout) -> bool {
    let indices_fit = |n: u64| layout == RowLayout::Flat || n <= 256;
    match space {
        AnySpace::Box(space) => space.dtype() == DType::U8,
        AnySpace::MultiBinary(_) | AnySpace::Empty(_) => true,
        AnySpace::Text(text) => text.charset().len() <= 255,
        AnySpace::Discrete(discrete) => indices_fit(discrete.n()),
        AnySpace::MultiDiscrete(multi) => multi
            .nvec()
            .iter()
            .all(|&n| u64::try_from(n).is_ok_and(indices_fit)),
        AnySpace::Tuple(tuple) => tuple.spaces().iter().all(|s| fits_u8_rows(s, layout)),
        AnySpace::Dict(dict) => dict.spaces().values().all(|s| fits_u8_rows(s, layout)),
        AnySpace::FiniteSet(_)
        | AnySpace::Sequence(_)
        | AnySpace::Graph(_)
        | AnySpace::OneOf(_) => false,
    }
}

/// Wraps `vector` in the wrappers every vector built by id is stepped with, under its episode
/// statistics (Gymnasium's `RecordEpisodeStatistics`): the one place that lists them. The
/// Python package (`rlrs.RustVectorEnv`, and the benchmarks' driver) steps what this returns,
/// and a Rust caller gets the same stack. Adding a vector wrapper there is a line here; each
/// costs one dynamic call per call.
///
/// Errors as a wrapper's constructor does (none can fail today).
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::Corridor;
/// use rl_core::registry::Registration;
/// use rl_core::Mode;
/// use rl_wrappers::vector::{make_vector, stack, VectorEnv, VectorOptions};
///
/// #[derive(Default, serde::Deserialize)]
/// struct NoParams {}
///
/// Registration::new("Corridor-stack-doc-v0", "a corridor of 2 cells", |_: NoParams| {
///     Corridor::new(2, 0.0)
/// })
/// .register()?;
/// let count = NonZeroUsize::new(3).expect("non-zero");
/// let vector = make_vector::<i64, f32>("Corridor-stack-doc-v0", None, count, 7, VectorOptions::new())?;
/// let mut stacked = stack(vector)?;
/// stacked.reset(Mode::Training)?;
/// stacked.step(&[1, 0, 1])?; // environments 0 and 2 reach the end
/// assert_eq!(stacked.episode_ended(), &[true, false, true]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn stack<A: ErasedAction, T: FlatScalar>(
    vector: RegisteredVector<A, T>,
) -> Result<StackedVector<A, T>, VectorError> {
    // The wrappers below the statistics go here, innermost first, each over `vector`.
    let vector: DynVector<A, T> = Box::new(vector);
    Ok(VectorEpisodeStatistics::new(vector))
}

/// `count` environments of the domain registered under `id` in `rl-core`'s table
/// ([`rl_core::registry`]), built with the JSON `params` over its defaults, environment `i`
/// seeded with `seed + i` (past 2^64 too: numpy's generator of the integer), stepped with `options`
/// (autoreset mode, threads, row layout), with actions of type `A` and observations flattened
/// into one row of `T` per environment. The pairs:
///
/// - `A`: [`AnyElement`]s of the id's action space (any space), or `i64` for a
///   [`Discrete`](rl_spaces::Discrete) action space, read without the `AnyElement` round trip
///   and, where the domain's actions are integers of a `Discrete` space too, handed to it
///   without a conversion (what the Python package steps);
/// - `T`: `f32` (exact for every id whose observation space has no float64 Box:
///   [`needs_f64_rows`]), `f64` (written as the domain computes them, never through `f32`:
///   exact for a float64 Box, Gymnasium's MuJoCo ids) or `u8` (written by the domain straight
///   into bytes, for observations whose every row entry is a byte, [`fits_u8_rows`]: a
///   MiniGrid image goes from the tile drawing into the row with no float in between).
///
/// Every pair gives the same environments, seeds and results, bit for bit. The built-in
/// domains of `rl-domains` are in the table once `rl_domains::register_builtins()` has run.
///
/// Fails with [`VectorError::Registry`] for an unknown id (the error lists the registered
/// ones) or invalid parameters; with [`VectorError::InvalidParameter`] (naming `id`) for `i64`
/// actions of an action space that is not `Discrete`, and for `u8` rows of observations with
/// an entry that is not a byte (a float Box, a Discrete of more than 256 values in the batched
/// layout, ...); and as [`VectorEnvironment::from_environments`] does otherwise.
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
/// let id = "Corridor-vector-doc-v0";
/// let mut vector = make_vector::<AnyElement, f32>(id, None, count, 7, VectorOptions::new())?;
/// vector.reset(Mode::Training)?;
/// vector.step(&[AnyElement::Int(1), AnyElement::Int(0), AnyElement::Int(1)])?;
/// assert_eq!(vector.observations().shape(), &[3, 5]); // Discrete(5) flattens one-hot
///
/// // Integer actions, rows of f64 and of bytes: the same environments.
/// let mut integers = make_vector::<i64, f64>(id, None, count, 7, VectorOptions::new())?;
/// integers.reset(Mode::Training)?;
/// integers.step(&[1, 0, 1])?;
/// assert_eq!(integers.observations().row(0).to_vec(), [0.0f64, 1.0, 0.0, 0.0, 0.0]);
/// // An action outside Discrete(2) is refused before anything steps.
/// assert!(integers.step(&[1, 2, 1]).is_err());
/// let mut bytes = make_vector::<i64, u8>(id, None, count, 7, VectorOptions::new())?;
/// bytes.reset(Mode::Training)?;
/// assert_eq!(bytes.observations().row(0).to_vec(), [1u8, 0, 0, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn make_vector<A: ErasedAction, T: RowScalar>(
    id: &str,
    params: Option<&Value>,
    count: NonZeroUsize,
    seed: u64,
    options: VectorOptions,
) -> Result<RegisteredVector<A, T>, VectorError> {
    let (domain, dim, env_bytes, costly) = prepare::<A, T>(id, params, options)?;
    VectorEnvironment::from_batch(count, dim, env_bytes, costly, seed, options, |len| {
        Ok(Batch::new(batch(domain.as_ref(), id, len, options)?, 0))
    })
}

/// An asynchronous vector of a registered id ([`make_async_vector`]), with actions of type
/// `A` ([`AnyElement`] or `i64`) and observation rows of `T`: each environment the id's
/// states ([`RegisteredVector`]'s) of one episode.
pub type RegisteredAsyncVector<A = AnyElement, T = f32> = AsyncVector<BoxedBatchStates<A, T>, T>;

/// `count` environments of the id, as [`make_vector`] builds them (the same parameters, seeds
/// `seed + i`, actions of `A`, rows of `T`, layouts and results bit for bit, environment by
/// environment), stepped asynchronously on `options.threads()` worker threads with
/// `batch_size` results per [`recv`](AsyncVector::recv): EnvPool's asynchronous mode
/// ([`AsyncVector`]).
///
/// Fails as [`make_vector`] does, if `batch_size` or the thread count is more than `count`,
/// or if the options' autoreset mode is not [`Autoreset::NextStep`](crate::vector::Autoreset).
///
/// ```
/// use std::num::NonZeroUsize;
/// use rl_core::corridor::Corridor;
/// use rl_core::registry::Registration;
/// use rl_core::Mode;
/// use rl_spaces::AnyElement;
/// use rl_wrappers::vector::{make_async_vector, VectorOptions};
///
/// #[derive(Default, serde::Deserialize)]
/// struct NoParams {}
///
/// Registration::new("Corridor-async-doc-v0", "a corridor of 5 cells", |_: NoParams| {
///     Corridor::new(5, 0.0)
/// })
/// .register()?;
/// let count = NonZeroUsize::new(3).expect("non-zero");
/// let all = NonZeroUsize::new(3).expect("non-zero");
/// let id = "Corridor-async-doc-v0";
/// let mut vector = make_async_vector::<AnyElement, f32>(id, None, count, 7, VectorOptions::new(), all)?;
/// vector.async_reset(Mode::Training)?;
/// vector.recv()?;
/// vector.step(&[AnyElement::Int(1), AnyElement::Int(0), AnyElement::Int(1)], &[0, 1, 2])?;
/// assert_eq!(vector.env_ids(), &[0, 1, 2]); // every environment: in the order sent
/// assert_eq!(vector.observations().shape(), &[3, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn make_async_vector<A: ErasedAction, T: RowScalar>(
    id: &str,
    params: Option<&Value>,
    count: NonZeroUsize,
    seed: u64,
    options: VectorOptions,
    batch_size: NonZeroUsize,
) -> Result<RegisteredAsyncVector<A, T>, VectorError> {
    // One environment per batch whatever the cost of a step: each is its own task.
    let (domain, dim, env_bytes, _costly) = prepare::<A, T>(id, params, options)?;
    check_size(count.get(), dim, env_bytes)?;
    let batches = (0..count.get())
        .map(|i| Ok(Batch::new(batch(domain.as_ref(), id, 1, options)?, i)))
        .collect::<Result<Vec<_>, VectorError>>()?;
    AsyncVector::from_batches(batches, dim, seed, options, batch_size)
}

/// The states of `len` episodes of `domain` (of `id`) with actions of `A` and rows of `T` in
/// `options`' layout; [`prepare`] checked that the action space has a form in `A`.
fn batch<A: ErasedAction, T: RowScalar>(
    domain: &dyn RegisteredDomain,
    id: &str,
    len: usize,
    options: VectorOptions,
) -> Result<BoxedBatchStates<A, T>, VectorError> {
    batch_states_as::<A, T>(domain, len, options.layout()).ok_or_else(|| {
        VectorError::invalid_parameter("id", format!("{id}: no batch of its episodes"))
    })
}

/// The domain of `id` built with `params`, its observation rows' length in `options`' layout,
/// the bytes of one episode and whether its steps are costly
/// ([`BatchStates::costly_steps`](rl_core::BatchStates::costly_steps)), checked as every vector of the id needs: the action space
/// has a form in `A` (`batch` gives a batch) and rows of `u8` hold the observations.
fn prepare<A: ErasedAction, T: RowScalar>(
    id: &str,
    params: Option<&Value>,
    options: VectorOptions,
) -> Result<(Box<dyn RegisteredDomain>, usize, usize, bool), VectorError> {
    let domain = rl_core::registry::build(id, params).map_err(VectorError::Registry)?;
    let environment = domain.environment(0);
    let Some(probe) = batch_states_as::<A, T>(domain.as_ref(), 1, options.layout()) else {
        return Err(VectorError::invalid_parameter(
            "id",
            format!(
                "{id} has the action space {}; integer actions need a Discrete one (use AnyElement actions: make_vector::<AnyElement, _>)",
                environment.action_space()
            ),
        ));
    };
    let space = environment.observation_space();
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<u8>()
        && !fits_u8_rows(space, options.layout())
    {
        return Err(VectorError::invalid_parameter(
            "id",
            format!(
                "{id}'s observations ({space}) have row entries that are not bytes; rows of u8 \
                 hold only uint8 Boxes, MultiBinary, Texts and small Discretes (use rows of f32 or f64)"
            ),
        ));
    }
    let dim = space.row_dim(options.layout());
    let env_bytes = probe.episode_bytes() + BOOKKEEPING_BYTES;
    Ok((domain, dim, env_bytes, probe.costly_steps()))
}
