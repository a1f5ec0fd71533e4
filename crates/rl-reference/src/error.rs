//! The crate's error type, [`ReferenceError`]: a reference file that cannot be read, is not
//! of the schema, or describes something the replay cannot build.

use std::path::PathBuf;

/// An error from loading a reference file or from preparing its replay.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReferenceError {
    /// The file could not be read.
    #[error("cannot read `{}`: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The file is not valid JSON or does not follow the reference schema.
    #[error("{}", json_message(.file, .json_path, .source))]
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
    #[error("`{file}` is not a transition trace")]
    NotATrace {
        /// The file's name.
        file: String,
    },
    /// The file's `schema_version` is not one this crate understands.
    #[error("unsupported reference schema version {version} (this crate reads version 1)")]
    UnsupportedSchemaVersion {
        /// The version found in the file.
        version: u64,
    },
    /// The file's `domain` is not one this crate implements.
    #[error("unknown reference domain `{domain}`")]
    UnknownDomain {
        /// The domain found in the file.
        domain: String,
    },
    /// The file's `variant` is not known for its domain.
    #[error("unknown variant `{variant}` for domain `{domain}`")]
    UnknownVariant {
        /// The file's domain.
        domain: String,
        /// The variant found in the file.
        variant: String,
    },
    /// A `make_kwargs` or `unwrapped_overrides` entry cannot be mapped onto the domain's parameters.
    #[error("cannot apply `{section}` entry `{key}` = {value} to the domain parameters")]
    UnsupportedOverride {
        /// Where the entry was found: `make_kwargs` or `unwrapped_overrides`.
        section: &'static str,
        /// The key of the entry.
        key: String,
        /// The value of the entry, as JSON.
        value: String,
    },
    /// The parameters built from the file are invalid.
    #[error("the reference file describes invalid parameters: {0}")]
    InvalidParameters(#[source] rl_domains::Error),
    /// A grid map recorded in the file, or named by it, cannot be used.
    #[error("grid map `{name}`: {source}")]
    Map {
        /// The name of the map.
        name: String,
        /// The underlying error.
        source: rl_domains::Error,
    },
    /// A field the replay needs is missing or has the wrong shape.
    #[error("reference file lacks {field}")]
    MissingField {
        /// A description of the field and where it was expected.
        field: String,
    },
}

/// The message of [`ReferenceError::Json`], which names the JSON path only when the error is
/// not about the whole document (`.`).
fn json_message(file: &str, json_path: &str, source: &serde_json::Error) -> String {
    if json_path == "." {
        format!("`{file}` is not a valid reference file: {source}")
    } else {
        format!("`{file}` is not a valid reference file: at `{json_path}`: {source}")
    }
}
