//! [`VectorError`]: what can go wrong when building or stepping a vector environment.

use rl_core::CoreError;

/// Everything that can go wrong when building or stepping a
/// [`VectorEnvironment`](crate::vector::VectorEnvironment).
///
/// Single-environment wrappers report [`CoreError`], the error of the
/// [`Environment`](rl_core::Environment) trait they implement; this error adds what only a
/// batch has: the index of the environment at fault. Errors found while checking the input
/// (action count, invalid actions, ended episodes) are reported before anything steps.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VectorError {
    /// `step` or `reset_ended` was called before the first `reset` (or an
    /// [`AsyncVector`](crate::vector::AsyncVector) was sent an environment never reset).
    #[error("the vector environment was never reset: call reset first")]
    NotStarted,
    /// A panic interrupted the vector's last call: some environments may have stepped and
    /// others not, so it refuses to step until it is reset.
    #[error(
        "a panic interrupted the vector's last call, which may have left its environments at \
         different steps: reset it before stepping"
    )]
    Interrupted,
    /// The number of actions is not the number of environments.
    #[error("{found} actions given to {expected} environments: give one action each")]
    ActionCount {
        /// The number of environments.
        expected: usize,
        /// The number of actions given.
        found: usize,
    },
    /// An action is not an element of the action space.
    #[error(
        "invalid action {action} for environment {index}: not an element of the action space {space}"
    )]
    InvalidAction {
        /// The index of the environment (and of the action).
        index: usize,
        /// The action, printed with `Debug`.
        action: String,
        /// The action space, printed with `Display`.
        space: String,
    },
    /// With [`Autoreset::Disabled`](crate::vector::Autoreset::Disabled), an environment whose
    /// episode ended was given an action: reset it first (`reset_ended` or `reset`).
    #[error("the episode of environment {index} ended and autoreset is disabled: reset it first")]
    EpisodeEnded {
        /// The index of the environment.
        index: usize,
    },
    /// An environment failed to reset or step, or its observation could not be flattened
    /// (a broken environment contract: valid input never causes it). The environments before
    /// it in its chunk (all of them, on one thread) may have stepped.
    #[error("environment {index} failed: {source}")]
    Environment {
        /// The index of the environment.
        index: usize,
        /// What the environment reported.
        source: CoreError,
    },
    /// A parameter of the vector environment is invalid.
    #[error("invalid parameter `{name}`: {reason}")]
    InvalidParameter {
        /// The parameter's name.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The id given to [`make_vector`](crate::vector::make_vector) could not be built (an
    /// unknown id or invalid parameters).
    #[error("{0}")]
    Registry(#[source] CoreError),
    /// The vector does not offer the operation: action masks through a wrapper that changes
    /// the actions, or of a vector that computes none.
    #[error("this vector does not support `{operation}`")]
    Unsupported {
        /// The operation, such as `"action masks"`.
        operation: &'static str,
    },
    /// An [`AsyncVector`](crate::vector::AsyncVector) was sent an environment id it does not
    /// have.
    #[error("environment id {env_id} is out of range: the vector has {len} environments")]
    EnvIdOutOfRange {
        /// The id given.
        env_id: usize,
        /// The number of environments.
        len: usize,
    },
    /// An [`AsyncVector`](crate::vector::AsyncVector) was sent an environment whose last
    /// action (or reset) has not been received yet, or the same environment twice in one
    /// call.
    #[error(
        "environment {env_id} is in flight: its result was not received yet (recv it before sending it again; name it once per send)"
    )]
    AlreadySent {
        /// The environment's id.
        env_id: usize,
    },
    /// [`AsyncVector::recv`](crate::vector::AsyncVector::recv) waits for `batch_size` results
    /// but fewer environments are in flight (or, with `batch_size` equal to the number of
    /// environments, none): waiting would never end.
    #[error(
        "recv waits for {batch_size} results but only {in_flight} environments are in flight: send more first"
    )]
    NotEnoughInFlight {
        /// The results each `recv` returns.
        batch_size: usize,
        /// The environments sent (or reset) and not received yet.
        in_flight: usize,
    },
    /// A worker thread could not be started.
    #[error("could not start a worker thread: {reason}")]
    ThreadSpawn {
        /// The operating system's reason.
        reason: String,
    },
}

impl VectorError {
    /// Builds [`VectorError::InvalidParameter`].
    pub(crate) fn invalid_parameter(name: &'static str, reason: impl Into<String>) -> Self {
        VectorError::InvalidParameter {
            name,
            reason: reason.into(),
        }
    }
}
