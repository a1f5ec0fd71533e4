//! The crate's error type: [`Error`] for parameters, grid maps and pictures.

use std::fmt;
use std::path::PathBuf;

use rl_spaces::SpaceError;

/// An error from validating domain parameters, from reading a grid map, or from an argument
/// of a domain's method (such as the values given to a picture).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A parameter or argument has a value the domain cannot work with.
    InvalidParameter {
        /// The name of the parameter, as spelled in its parameter struct, or of the argument.
        parameter: &'static str,
        /// Why the value was rejected.
        reason: String,
    },
    /// A map token is not an integer.
    InvalidMapToken {
        /// The 1-based line of the token.
        line: usize,
        /// The 1-based character column where the token starts.
        column: usize,
        /// The token as written.
        token: String,
    },
    /// A map token is an integer that is not a cell code (0 to 4).
    UnknownCellCode {
        /// The 1-based line of the token.
        line: usize,
        /// The 1-based character column where the token starts.
        column: usize,
        /// The code as written.
        code: i64,
    },
    /// A map contains the agent marker 5, which RLPy only uses for display.
    AgentCellInMap {
        /// The 1-based line of the marker.
        line: usize,
        /// The 1-based character column of the marker.
        column: usize,
    },
    /// A map row has a different number of cells than the first row.
    RaggedMapRow {
        /// The 1-based line of the row.
        line: usize,
        /// The number of cells of the first row.
        expected: usize,
        /// The number of cells of this row.
        found: usize,
    },
    /// A map has more cells than [`MAX_MAP_CELLS`](crate::gridworld::MAX_MAP_CELLS).
    MapTooLarge {
        /// The number of cells asked for (saturating at `usize::MAX`); a parsed map stops at
        /// the first cell over the limit and reports `limit + 1`.
        cells: usize,
        /// The limit.
        limit: usize,
    },
    /// A map has no start cell (code 2).
    MissingStartCell,
    /// A map has no cells at all.
    EmptyMap,
    /// No map shipped with the crate has this name.
    UnknownBuiltinMap {
        /// The name that was asked for.
        name: String,
    },
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A space could not be built from the parameters (for example bounds that overflow `f32`
    /// to NaN).
    Space(SpaceError),
}

impl From<SpaceError> for Error {
    fn from(error: SpaceError) -> Self {
        Error::Space(error)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter { parameter, reason } => {
                write!(formatter, "invalid parameter `{parameter}`: {reason}")
            }
            Error::InvalidMapToken {
                line,
                column,
                token,
            } => write!(
                formatter,
                "map line {line}, column {column}: `{}` is not an integer cell code",
                escape_invisible(token)
            ),
            Error::UnknownCellCode { line, column, code } => write!(
                formatter,
                "map line {line}, column {column}: unknown cell code {code} \
                 (expected 0 empty, 1 blocked, 2 start, 3 goal or 4 pit)"
            ),
            Error::AgentCellInMap { line, column } => write!(
                formatter,
                "map line {line}, column {column}: cell code 5 marks the agent for display \
                 only and is not allowed in a map"
            ),
            Error::RaggedMapRow {
                line,
                expected,
                found,
            } => write!(
                formatter,
                "map line {line}: row has {found} cells but the first row has {expected}"
            ),
            Error::MapTooLarge { cells, limit } => write!(
                formatter,
                "map too large: {cells} cells or more, above the limit of {limit} \
                 (rl_domains::gridworld::MAX_MAP_CELLS)"
            ),
            Error::MissingStartCell => write!(formatter, "map has no start cell (code 2)"),
            Error::EmptyMap => write!(formatter, "map has no cells"),
            Error::UnknownBuiltinMap { name } => {
                write!(
                    formatter,
                    "no built-in grid map is named `{}`",
                    escape_invisible(name)
                )
            }
            Error::Io { path, source } => {
                write!(formatter, "cannot read `{}`: {source}", path.display())
            }
            Error::Space(error) => write!(formatter, "cannot build a space: {error}"),
        }
    }
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

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Space(error) => Some(error),
            _ => None,
        }
    }
}
