//! The crate's error type: [`Error`] for parameters, grid maps and pictures.

use std::path::PathBuf;

use rl_spaces::SpaceError;

/// An error from validating domain parameters, from reading a grid map, or from an argument
/// of a domain's method (such as the values given to a picture).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A parameter or argument has a value the domain cannot work with.
    #[error("invalid parameter `{parameter}`: {reason}")]
    InvalidParameter {
        /// The name of the parameter, as spelled in its parameter struct, or of the argument.
        parameter: &'static str,
        /// Why the value was rejected.
        reason: String,
    },
    /// A map token is not an integer.
    #[error(
        "map line {line}, column {column}: `{}` is not an integer cell code",
        escape_invisible(.token)
    )]
    InvalidMapToken {
        /// The 1-based line of the token.
        line: usize,
        /// The 1-based character column where the token starts.
        column: usize,
        /// The token as written.
        token: String,
    },
    /// A map token is an integer that is not a cell code (0 to 4).
    #[error(
        "map line {line}, column {column}: unknown cell code {code} \
         (expected 0 empty, 1 blocked, 2 start, 3 goal or 4 pit)"
    )]
    UnknownCellCode {
        /// The 1-based line of the token.
        line: usize,
        /// The 1-based character column where the token starts.
        column: usize,
        /// The code as written.
        code: i64,
    },
    /// A map contains the agent marker 5, which RLPy only uses for display.
    #[error(
        "map line {line}, column {column}: cell code 5 marks the agent for display \
         only and is not allowed in a map"
    )]
    AgentCellInMap {
        /// The 1-based line of the marker.
        line: usize,
        /// The 1-based character column of the marker.
        column: usize,
    },
    /// A map row has a different number of cells than the first row.
    #[error("map line {line}: row has {found} cells but the first row has {expected}")]
    RaggedMapRow {
        /// The 1-based line of the row.
        line: usize,
        /// The number of cells of the first row.
        expected: usize,
        /// The number of cells of this row.
        found: usize,
    },
    /// A map has more cells than [`MAX_MAP_CELLS`](crate::gridworld::MAX_MAP_CELLS).
    #[error(
        "map too large: {cells} cells or more, above the limit of {limit} \
         (rl_domains::gridworld::MAX_MAP_CELLS)"
    )]
    MapTooLarge {
        /// The number of cells asked for (saturating at `usize::MAX`); a parsed map stops at
        /// the first cell over the limit and reports `limit + 1`.
        cells: usize,
        /// The limit.
        limit: usize,
    },
    /// A map has no start cell (code 2).
    #[error("map has no start cell (code 2)")]
    MissingStartCell,
    /// A map has no cells at all.
    #[error("map has no cells")]
    EmptyMap,
    /// No map shipped with the crate has this name.
    #[error("no built-in grid map is named `{}`", escape_invisible(.name))]
    UnknownBuiltinMap {
        /// The name that was asked for.
        name: String,
    },
    /// A file could not be read.
    #[error("cannot read `{}`: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A space could not be built from the parameters (for example bounds that overflow `f32`
    /// to NaN).
    #[error("cannot build a space: {0}")]
    Space(#[from] SpaceError),
}

/// `text` with every character a reader could not see or tell apart escaped as Rust writes it
/// (`\u{feff}` for a byte-order mark, `\u{a0}` for a no-break space, `\t`, `\u{7}`);
/// printable characters, including the space and non-ASCII letters, are kept.
pub(crate) fn escape_invisible(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            // `escape_debug` would also escape these, which are visible.
            ' ' | '"' | '\'' => c.to_string(),
            _ => c.escape_debug().to_string(),
        })
        .collect()
}
