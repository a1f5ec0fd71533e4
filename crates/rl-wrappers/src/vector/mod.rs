//! Vectorised stepping: many environments in lockstep, in structure-of-arrays buffers
//! ([`VectorEnvironment`]), built from copies of any environment or from a domain's
//! structure-of-arrays kernel ([`BatchStep`]).

mod autoreset;
mod balance;
mod batch;
mod copies;
mod environment;
mod kernel;
mod kernel_batch;
mod options;
mod outputs;
mod pool;
mod registered;
mod wrappers;

pub use autoreset::Autoreset;
pub use batch::Batch;
pub use copies::EnvironmentBatch;
pub use environment::{EnvironmentVector, KernelVector, VectorEnvironment};
pub use kernel::{BatchStep, ColumnChunk, StateColumns};
pub use kernel_batch::KernelBatch;
pub use options::VectorOptions;
pub use registered::{RegisteredVector, make_vector};
pub(crate) use wrappers::discrete_table;
pub use wrappers::{
    MAX_DISCRETE_ACTIONS, VectorClipAction, VectorDiscretizeAction, VectorEnv,
    VectorEpisodeStatistics, VectorHistoryStack, VectorNormalizeObservation, VectorNormalizeReward,
    VectorRescaleAction,
};
