//! The one error type of this crate, [`CoreError`].

use std::fmt;

use rl_spaces::SpaceError;

/// Why an environment needs a reset before it can step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetReason {
    /// `step` was called before the first `reset`.
    NotStarted,
    /// The episode ended (terminated or truncated) on an earlier step.
    EpisodeEnded,
}

/// Everything that can go wrong when stepping or configuring an environment.
///
/// Stepping never panics on bad input: an action outside the action space, a step before the
/// first reset or after the end of an episode each give one of these.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CoreError {
    /// `step` was called when no episode is running; call `reset` first.
    NeedsReset(ResetReason),
    /// The action is not an element of the action space.
    InvalidAction {
        /// The action: a typed action printed with `Debug`, a dynamic
        /// [`AnyElement`](rl_spaces::AnyElement) with its `Display` (`[NaN]`, as a user writes it).
        action: String,
        /// The action space, printed with `Display`.
        space: String,
    },
    /// A parameter of an environment, a wrapper or a checker is invalid.
    InvalidParameter {
        /// The parameter's name.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The environment does not support this operation (for example saving the random state
    /// of a black-box simulator).
    Unsupported {
        /// The operation, such as `"random_state"`.
        operation: &'static str,
    },
    /// An error from a space (for example while converting an element).
    Space(SpaceError),
    /// No domain is registered under the id.
    UnknownId {
        /// The id asked for.
        id: String,
        /// Every registered id.
        known: Vec<String>,
    },
    /// A domain is already registered under the id.
    DuplicateId {
        /// The id registered twice.
        id: String,
    },
    /// The JSON parameters given for an id do not read as its parameter type.
    InvalidParameters {
        /// The id.
        id: String,
        /// The JSON path of the bad value (`noise`, `links[1].mass`), empty for the whole
        /// object.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Writing an output (a video, a picture) failed.
    Output {
        /// What was being written, such as a file's path.
        target: String,
        /// The reason, such as the operating system's message.
        reason: String,
    },
    /// The registered constructor rejected the parameters.
    InvalidDomain {
        /// The id.
        id: String,
        /// The constructor's error.
        reason: String,
    },
}

impl CoreError {
    /// Builds [`CoreError::InvalidAction`] from an action and a space.
    pub fn invalid_action(action: &impl fmt::Debug, space: &impl fmt::Display) -> Self {
        CoreError::InvalidAction {
            action: format!("{action:?}"),
            space: space.to_string(),
        }
    }

    /// Builds [`CoreError::InvalidParameter`].
    pub fn invalid_parameter(name: &'static str, reason: impl Into<String>) -> Self {
        CoreError::InvalidParameter {
            name,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::NeedsReset(ResetReason::NotStarted) => {
                write!(f, "step called before the first reset: call reset first")
            }
            CoreError::NeedsReset(ResetReason::EpisodeEnded) => write!(
                f,
                "step called after the episode ended (terminated or truncated): call reset first"
            ),
            CoreError::InvalidAction { action, space } => {
                write!(
                    f,
                    "invalid action {action}: not an element of the action space {space}"
                )
            }
            CoreError::InvalidParameter { name, reason } => {
                write!(f, "invalid parameter `{name}`: {reason}")
            }
            CoreError::Output { target, reason } => {
                write!(f, "could not write {target}: {reason}")
            }
            CoreError::Unsupported { operation } => {
                write!(f, "this environment does not support `{operation}`")
            }
            CoreError::Space(e) => write!(f, "{e}"),
            CoreError::UnknownId { id, known } => {
                write!(f, "unknown id `{id}`; registered ids: ")?;
                if known.is_empty() {
                    write!(f, "none")?;
                } else {
                    write!(f, "{}", known.join(", "))?;
                }
                write!(
                    f,
                    " (the built-in domains are registered by rl_domains::register_builtins())"
                )
            }
            CoreError::DuplicateId { id } => write!(f, "id `{id}` is already registered"),
            CoreError::InvalidParameters { id, path, reason } if path.is_empty() => {
                write!(f, "invalid parameters for `{id}`: {reason}")
            }
            CoreError::InvalidParameters { id, path, reason } => {
                write!(f, "invalid parameters for `{id}` at `{path}`: {reason}")
            }
            CoreError::InvalidDomain { id, reason } => {
                write!(f, "invalid parameters for `{id}`: {reason}")
            }
        }
    }
}

impl std::error::Error for CoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CoreError::Space(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SpaceError> for CoreError {
    fn from(e: SpaceError) -> Self {
        CoreError::Space(e)
    }
}
