//! The crate's error type, [`MujocoError`].

use std::path::PathBuf;

/// What can go wrong when finding MuJoCo, loading a model or building an environment.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MujocoError {
    /// No libmujoco was found.
    #[error("the MuJoCo library was not found: {how} (tried {tried})", how = crate::library::HOW_TO_GET)]
    NotFound {
        /// Where it was looked for, and why each place failed.
        tried: String,
    },
    /// A libmujoco file could not be used.
    #[error("the MuJoCo library {path} cannot be used: {reason}")]
    Library {
        /// The file.
        path: PathBuf,
        /// Why not.
        reason: String,
    },
    /// A model could not be loaded or compiled.
    #[error("the MuJoCo model {model} cannot be loaded: {reason}")]
    Model {
        /// The model's file or name.
        model: String,
        /// MuJoCo's message.
        reason: String,
    },
    /// The memory for a simulation state (`mjData`) could not be allocated.
    #[error("out of memory: a state of the MuJoCo model {model} needs {bytes} bytes")]
    OutOfMemory {
        /// The model's file or name.
        model: String,
        /// The bytes one state takes, at most (`Sizes::data_bytes`: `narena + nbuffer +
        /// sizeof(mjData)`, the model's `nbuffer`).
        bytes: usize,
    },
    /// A state could not be copied into an `mjData` made elsewhere ([`Data::copy_into_raw`](crate::Data::copy_into_raw)),
    /// or read back from bytes ([`Data::set_bytes`](crate::Data::set_bytes)).
    #[error("a state of the MuJoCo model {model} cannot be copied there: {reason}")]
    Copy {
        /// The model's file or name.
        model: String,
        /// Why not.
        reason: String,
    },
    /// A parameter is invalid.
    #[error("invalid parameter `{name}`: {reason}")]
    Parameter {
        /// The parameter's name.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A space could not be built.
    #[error(transparent)]
    Space(#[from] rl_spaces::SpaceError),
}
