//! The crate's error type, [`ReferenceError`]: a reference file that cannot be read, is not
//! of the schema, or describes something the replay cannot build.

use std::fmt;
use std::path::PathBuf;

/// An error from loading a reference file or from preparing its replay.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReferenceError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not valid JSON or does not follow the reference schema.
    Json {
        /// The file's name, or the name given to [`parse_reference`](crate::parse_reference).
        file: String,
        /// The JSON path of the bad value, for example `traces[3].steps[17].obs`, or `.`
        /// for the whole document.
        json_path: String,
        /// The underlying error.
        source: serde_json::Error,
    },
    /// The file is JSON of another kind (such as `gymnasium_spaces.json`): it has neither a
    /// `domain` nor `traces` or `entries`.
    NotATrace {
        /// The file's name.
        file: String,
    },
    /// The file's `schema_version` is not one this crate understands.
    UnsupportedSchemaVersion {
        /// The version found in the file.
        version: u64,
    },
    /// The file's `domain` is not one this crate implements.
    UnknownDomain {
        /// The domain found in the file.
        domain: String,
    },
    /// The file's `variant` is not known for its domain.
    UnknownVariant {
        /// The file's domain.
        domain: String,
        /// The variant found in the file.
        variant: String,
    },
    /// A `make_kwargs` or `unwrapped_overrides` entry cannot be mapped onto the domain's parameters.
    UnsupportedOverride {
        /// Where the entry was found: `make_kwargs` or `unwrapped_overrides`.
        section: &'static str,
        /// The key of the entry.
        key: String,
        /// The value of the entry, as JSON.
        value: String,
    },
    /// The parameters built from the file are invalid.
    InvalidParameters(rl_domains::Error),
    /// A grid map recorded in the file, or named by it, cannot be used.
    Map {
        /// The name of the map.
        name: String,
        /// The underlying error.
        source: rl_domains::Error,
    },
    /// A field the replay needs is missing or has the wrong shape.
    MissingField {
        /// A description of the field and where it was expected.
        field: String,
    },
}

impl fmt::Display for ReferenceError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReferenceError::Io { path, source } => {
                write!(formatter, "cannot read `{}`: {source}", path.display())
            }
            ReferenceError::Json {
                file,
                json_path,
                source,
            } => {
                write!(formatter, "`{file}` is not a valid reference file: ")?;
                if json_path != "." {
                    write!(formatter, "at `{json_path}`: ")?;
                }
                write!(formatter, "{source}")
            }
            ReferenceError::NotATrace { file } => {
                write!(formatter, "`{file}` is not a transition trace")
            }
            ReferenceError::UnsupportedSchemaVersion { version } => write!(
                formatter,
                "unsupported reference schema version {version} (this crate reads version 1)"
            ),
            ReferenceError::UnknownDomain { domain } => {
                write!(formatter, "unknown reference domain `{domain}`")
            }
            ReferenceError::UnknownVariant { domain, variant } => {
                write!(
                    formatter,
                    "unknown variant `{variant}` for domain `{domain}`"
                )
            }
            ReferenceError::UnsupportedOverride {
                section,
                key,
                value,
            } => write!(
                formatter,
                "cannot apply `{section}` entry `{key}` = {value} to the domain parameters"
            ),
            ReferenceError::InvalidParameters(error) => {
                write!(
                    formatter,
                    "the reference file describes invalid parameters: {error}"
                )
            }
            ReferenceError::Map { name, source } => {
                write!(formatter, "grid map `{name}`: {source}")
            }
            ReferenceError::MissingField { field } => {
                write!(formatter, "reference file lacks {field}")
            }
        }
    }
}

impl std::error::Error for ReferenceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReferenceError::Io { source, .. } => Some(source),
            ReferenceError::Json { source, .. } => Some(source),
            ReferenceError::InvalidParameters(error) => Some(error),
            ReferenceError::Map { source, .. } => Some(source),
            _ => None,
        }
    }
}
