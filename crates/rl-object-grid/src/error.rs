//! The crate's error type: [`Error`].

/// An error from building a MiniGrid domain: a parameter it cannot work with, or an id it does
/// not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A parameter has a value the environment cannot work with.
    #[error("invalid parameter `{parameter}`: {reason}")]
    InvalidParameter {
        /// The parameter's name, with its environment's class for the environment's own
        /// (`door_key.size`, `agent_view_size`).
        parameter: String,
        /// Why the value was refused.
        reason: String,
    },
    /// The id is not one of minigrid's ids that this crate implements.
    #[error("unknown MiniGrid id `{id}` (see rl_object_grid::ids::IDS for the ids there are)")]
    UnknownId {
        /// The id asked for.
        id: String,
    },
    /// Parameters given as JSON could not be read. The message names the JSON path but not
    /// the id: the registry's error (`invalid parameters for ID: ...`) names it once.
    #[error("{}", json_message(path, reason))]
    InvalidJson {
        /// The id whose parameters were read.
        id: String,
        /// The JSON path of the value that did not read (`env.door_key.size`; empty for the
        /// whole object).
        path: String,
        /// What was wrong.
        reason: String,
    },
}

/// The message of [`Error::InvalidJson`]: the parameter's JSON path, when there is one, then
/// what was wrong.
fn json_message(path: &str, reason: &str) -> String {
    if path.is_empty() {
        reason.to_owned()
    } else {
        format!("parameter `{path}`: {reason}")
    }
}
