//! The one error type of this crate, [`ExperimentError`].

use std::fmt;
use std::path::{Path, PathBuf};

use rl_core::CoreError;
use rl_spaces::SpaceError;

/// Everything that can go wrong when configuring or running an experiment.
///
/// Every message is one line that says what was wrong, so the command line can print it as is.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ExperimentError {
    /// The environment refused an operation.
    Environment(CoreError),
    /// A space operation failed (for example an observation that is not in its space).
    Space(SpaceError),
    /// A domain id, or its parameters, could not be turned into an environment.
    Domain(String),
    /// An experiment or agent setting is invalid.
    InvalidConfig {
        /// The setting, such as `"max_steps"`.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// No agent has this name.
    UnknownAgent {
        /// The name given.
        name: String,
        /// The names that exist (built-in and registered).
        known: Vec<String>,
    },
    /// An agent name is registered twice (or is a built-in's).
    DuplicateAgent {
        /// The name.
        name: String,
    },
    /// The agent cannot work with the environment's spaces.
    IncompatibleAgent {
        /// The agent's name.
        agent: &'static str,
        /// Why not.
        reason: String,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// A results file exists but does not hold what was expected.
    CorruptResults {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The output directory holds results of a different experiment.
    ConfigMismatch {
        /// The output directory.
        directory: PathBuf,
        /// The first difference found.
        difference: String,
    },
    /// The experiment was stopped before all runs finished (finished runs are kept).
    Interrupted,
}

impl ExperimentError {
    /// Builds [`ExperimentError::InvalidConfig`].
    pub fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        ExperimentError::InvalidConfig {
            field,
            reason: reason.into(),
        }
    }

    /// Builds [`ExperimentError::Io`] from an I/O error on `path`.
    pub fn io(path: &Path, error: &std::io::Error) -> Self {
        ExperimentError::Io {
            path: path.to_path_buf(),
            message: error.to_string(),
        }
    }
}

impl fmt::Display for ExperimentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExperimentError::Environment(e) => write!(f, "environment error: {e}"),
            ExperimentError::Space(e) => write!(f, "space error: {e}"),
            ExperimentError::Domain(message) => write!(f, "{message}"),
            ExperimentError::InvalidConfig { field, reason } => {
                write!(f, "invalid {field}: {reason}")
            }
            ExperimentError::UnknownAgent { name, known } => {
                write!(
                    f,
                    "unknown agent {name:?}; known agents: {}",
                    known.join(", ")
                )
            }
            ExperimentError::DuplicateAgent { name } => {
                write!(f, "agent {name:?} is already registered")
            }
            ExperimentError::IncompatibleAgent { agent, reason } => {
                write!(f, "agent {agent} cannot run here: {reason}")
            }
            ExperimentError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            ExperimentError::CorruptResults { path, reason } => {
                write!(f, "{}: not a valid results file: {reason}", path.display())
            }
            ExperimentError::ConfigMismatch {
                directory,
                difference,
            } => write!(
                f,
                "{} holds results of a different experiment ({difference}); choose another --out or remove it",
                directory.display()
            ),
            ExperimentError::Interrupted => {
                write!(
                    f,
                    "the experiment was interrupted; run the same command again to resume"
                )
            }
        }
    }
}

impl std::error::Error for ExperimentError {}

impl From<CoreError> for ExperimentError {
    fn from(e: CoreError) -> Self {
        ExperimentError::Environment(e)
    }
}

impl From<SpaceError> for ExperimentError {
    fn from(e: SpaceError) -> Self {
        ExperimentError::Space(e)
    }
}
