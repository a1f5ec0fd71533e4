//! Vectorised stepping: many environments in lockstep, in structure-of-arrays buffers
//! ([`VectorEnvironment`]), over the states of any [`BatchStates`](rl_core::BatchStates): a
//! domain's states stepped by its [`BatchStep`] kernel or by its step state by state (what a
//! vector built by id steps), or copies of any environment ([`EnvironmentStates`]), all kept
//! in one storage; or each environment stepped on its own by whichever worker is free,
//! EnvPool's asynchronous mode ([`AsyncVector`]).

mod asynchronous;
mod autoreset;
mod batch;
mod copies;
mod environment;
mod options;
mod outputs;
mod registered;
mod threads;
mod wrappers;

pub use asynchronous::{AsyncKernelVector, AsyncSteppedVector, AsyncVector};
pub use autoreset::Autoreset;
pub use copies::EnvironmentStates;
pub use environment::{
    EnvironmentVector, KernelVector, MAX_ENVS, SteppedVector, VectorEnvironment,
};
pub use options::VectorOptions;
pub use registered::{
    DynVector, RegisteredAsyncVector, RegisteredVector, StackedVector, fits_u8_rows,
    make_async_vector, make_vector, needs_f64_rows, stack,
};
/// The batch-stepping capability of a domain, defined in rl-core (re-exported here, where
/// the vector environments use it).
pub use rl_core::BatchStep;
pub(crate) use wrappers::discrete_table;
pub use wrappers::{
    MAX_DISCRETE_ACTIONS, VectorClipAction, VectorDiscretizeAction, VectorEnv,
    VectorEpisodeStatistics, VectorHistoryStack, VectorNormalizeObservation, VectorNormalizeReward,
    VectorRescaleAction,
};
