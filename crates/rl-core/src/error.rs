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
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CoreError {
    /// `step` was called when no episode is running; call `reset` first.
    #[error("{}", needs_reset_message(*.0))]
    NeedsReset(ResetReason),
    /// The action is not an element of the action space.
    #[error("invalid action {action}: not an element of the action space {space}")]
    InvalidAction {
        /// The action: a typed action printed with `Debug`, a dynamic
        /// [`AnyElement`](rl_spaces::AnyElement) with its `Display` (`[NaN]`, as a user writes it).
        action: String,
        /// The action space, printed with `Display`.
        space: String,
    },
    /// A parameter of an environment, a wrapper or a checker is invalid.
    #[error("invalid parameter `{name}`: {reason}")]
    InvalidParameter {
        /// The parameter's name.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The environment does not support this operation (for example saving the random state
    /// of a black-box simulator).
    #[error("this environment does not support `{operation}`")]
    Unsupported {
        /// The operation, such as `"random_state"`.
        operation: &'static str,
    },
    /// An error from a space (for example while converting an element).
    #[error("{0}")]
    Space(#[from] SpaceError),
    /// No domain is registered under the id.
    #[error("{}", unknown_id_message(.id, .known))]
    UnknownId {
        /// The id asked for.
        id: String,
        /// Every registered id.
        known: Vec<String>,
    },
    /// A domain is already registered under the id.
    #[error("id `{id}` is already registered")]
    DuplicateId {
        /// The id registered twice.
        id: String,
    },
    /// The JSON parameters given for an id do not read as its parameter type.
    #[error("{}", invalid_parameters_message(.id, .path, .reason))]
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
    #[error("could not write {target}: {reason}")]
    Output {
        /// What was being written, such as a file's path.
        target: String,
        /// The reason, such as the operating system's message.
        reason: String,
    },
    /// The registered constructor rejected the parameters.
    #[error("invalid parameters for `{id}`: {reason}")]
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

/// The message of [`CoreError::NeedsReset`], which depends on why a reset is needed.
fn needs_reset_message(reason: ResetReason) -> &'static str {
    match reason {
        ResetReason::NotStarted => "step called before the first reset: call reset first",
        ResetReason::EpisodeEnded => {
            "step called after the episode ended (terminated or truncated): call reset first"
        }
    }
}

/// The message of [`CoreError::UnknownId`]: the id, every registered id (or `none`) and where
/// the built-in domains are registered.
fn unknown_id_message(id: &str, known: &[String]) -> String {
    let known = if known.is_empty() {
        "none".to_owned()
    } else {
        known.join(", ")
    };
    format!(
        "unknown id `{id}`; registered ids: {known} \
         (the built-in domains are registered by rl_domains::register_builtins())"
    )
}

/// The message of [`CoreError::InvalidParameters`], which names the JSON path only when there
/// is one.
fn invalid_parameters_message(id: &str, path: &str, reason: &str) -> String {
    if path.is_empty() {
        format!("invalid parameters for `{id}`: {reason}")
    } else {
        format!("invalid parameters for `{id}` at `{path}`: {reason}")
    }
}
