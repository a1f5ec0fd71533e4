//! The one error type of this crate, [`ExperimentError`].

use std::path::{Path, PathBuf};

use rl_core::CoreError;
use rl_spaces::SpaceError;

/// Everything that can go wrong when configuring or running an experiment.
///
/// Every message is one line that says what was wrong, so the command line can print it as is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExperimentError {
    /// The environment refused an operation.
    #[error("environment error: {0}")]
    Environment(CoreError),
    /// A space operation failed (for example an observation that is not in its space).
    #[error("space error: {0}")]
    Space(SpaceError),
    /// A domain id, or its parameters, could not be turned into an environment.
    #[error("{0}")]
    Domain(String),
    /// An experiment or agent setting is invalid.
    #[error("invalid {field}: {reason}")]
    InvalidConfig {
        /// The setting, such as `"max_steps"`.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// No agent has this name.
    #[error("unknown agent {name:?}; known agents: {}", .known.join(", "))]
    UnknownAgent {
        /// The name given.
        name: String,
        /// The names that exist (built-in and registered).
        known: Vec<String>,
    },
    /// An agent name is registered twice (or is a built-in's).
    #[error("agent {name:?} is already registered")]
    DuplicateAgent {
        /// The name.
        name: String,
    },
    /// The agent cannot work with the environment's spaces.
    #[error("agent {agent} cannot run here: {reason}")]
    IncompatibleAgent {
        /// The agent's name.
        agent: &'static str,
        /// Why not.
        reason: String,
    },
    /// An agent could not act (the BabyAI bot where minigrid's bot raises, with
    /// `"on_error": "fail"`).
    #[error("agent {agent} failed: {reason}")]
    AgentFailed {
        /// The agent's name.
        agent: &'static str,
        /// What happened, and where.
        reason: String,
    },
    /// Reading or writing a file failed.
    #[error("{}: {message}", .path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// A results file exists but does not hold what was expected.
    #[error("{}: not a valid results file: {reason}", .path.display())]
    CorruptResults {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The output directory holds results of a different experiment.
    #[error(
        "{} holds results of a different experiment ({differences}); \
         choose another --out or remove it",
        .directory.display()
    )]
    ConfigMismatch {
        /// The output directory.
        directory: PathBuf,
        /// Every difference, separated by `; `: the domain first when it differs, then its
        /// parameters, the agent, its parameters, the budget and the rest (`domain was
        /// "GridWorld-4x5", now "CartPole-v1"; agent was "q-learning", now "linear-sarsa"`).
        differences: String,
    },
    /// A sweep file is invalid: which file, where in it (a JSON path such as
    /// `domains[1].grid.noise`, empty for the file as a whole) and what is wrong.
    #[error("{file}: {}{reason}", if .location.is_empty() { String::new() } else { format!("{}: ", .location) })]
    InvalidSweep {
        /// The sweep file as named (or `sweep.json` of a results directory).
        file: String,
        /// The JSON path of the bad value.
        location: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Some runs of a sweep have no results yet, so it cannot be summarised.
    #[error(
        "{}: {missing} of {total} runs are not finished ({detail}); run the shards that own \
         them (`rl status` lists them)",
        .directory.display()
    )]
    IncompleteSweep {
        /// The sweep's results directory.
        directory: PathBuf,
        /// How many runs have no results file.
        missing: u64,
        /// How many runs the sweep has.
        total: u64,
        /// The first settings and runs missing.
        detail: String,
    },
    /// Another experiment (another `rl run`, or another
    /// [`run_experiment`](crate::run_experiment) call in this process) is running in the
    /// output directory: it holds the directory's lock file ([`crate::lock`]).
    #[error(
        "{}: an experiment is already running in this directory ({holder}); {}",
        .directory.display(),
        already_running_advice(*.checked, .lock)
    )]
    AlreadyRunning {
        /// The output directory.
        directory: PathBuf,
        /// Who holds the lock: the process id and host.
        holder: String,
        /// The lock file.
        lock: PathBuf,
        /// Whether this machine checked that the holder runs (false when the holder is on
        /// another machine, or the system cannot tell).
        checked: bool,
    },
    /// The experiment was stopped before all runs finished (finished runs are kept).
    #[error("the experiment was interrupted; run the same command again to resume")]
    Interrupted,
}

/// What to do about [`ExperimentError::AlreadyRunning`].
fn already_running_advice(checked: bool, lock: &Path) -> String {
    if checked {
        "wait for it to finish, or choose another --out".to_owned()
    } else {
        format!(
            "this machine cannot check whether that process still runs: if it does not, remove {} and run again",
            lock.display()
        )
    }
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

// Written by hand rather than with `#[from]`, which would also make the wrapped error the
// `source()`: these variants already print it, and have never reported it as a source.
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
