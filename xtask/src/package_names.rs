//! The names the library crates are published under: the crate `crates/rl-NAME` is the package
//! `rlrs-NAME` with the library `rl_NAME` (ARCHITECTURE.md, "Package names"), and the check of
//! that scheme that `cargo xtask package` runs before `cargo package`.

use std::borrow::Cow;
use std::path::Path;

use serde_json::Value;

/// The prefix of every library crate's directory (and of its name in the design and the layer
/// table): `crates/rl-core`.
pub(crate) const CRATE_PREFIX: &str = "rl-";

/// The prefix of the package names the library crates are published under: `rlrs-core`. The
/// names with the crate prefix are taken on crates.io (`rl-core` is an unrelated crate);
/// `rlrs` is the Python package's name, and no `rlrs-*` crate was published when we chose it.
pub(crate) const PACKAGE_PREFIX: &str = "rlrs-";

/// The directory, relative to the workspace root, that holds the library crates.
pub(crate) const LIBRARY_DIRECTORY: &str = "crates";

/// The crate name a package name stands for: `rlrs-core` is `rl-core`; any other name is
/// itself (`rl-examples`, `xtask`).
pub(crate) fn crate_name(package: &str) -> Cow<'_, str> {
    match package.strip_prefix(PACKAGE_PREFIX) {
        Some(rest) => Cow::Owned(format!("{CRATE_PREFIX}{rest}")),
        None => Cow::Borrowed(package),
    }
}

/// A string field of a JSON object, or an error that names the field and what holds it.
fn string_field<'a>(object: &'a Value, field: &str, holder: &str) -> Result<&'a str, String> {
    object
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{holder} has no \"{field}\" string"))
}

/// Checks every package under [`LIBRARY_DIRECTORY`] in the output of `cargo metadata
/// --format-version 1 --no-deps`: the crate in `crates/rl-NAME` is the package `rlrs-NAME`,
/// its library is `rl_NAME`, and a publishable one has the description and licence crates.io
/// requires. Returns one message per problem; an error means the text is not metadata this
/// check understands.
pub(crate) fn check_metadata(metadata: &str) -> Result<Vec<String>, String> {
    let root: Value = serde_json::from_str(metadata)
        .map_err(|error| format!("cargo metadata output is not JSON: {error}"))?;
    let packages = root
        .get("packages")
        .and_then(Value::as_array)
        .ok_or("cargo metadata output has no \"packages\" array")?;
    let workspace_root = string_field(&root, "workspace_root", "cargo metadata output")?;
    let library_directory = Path::new(workspace_root).join(LIBRARY_DIRECTORY);
    let mut problems = Vec::new();
    for package in packages {
        let name = string_field(package, "name", "a package in cargo metadata output")?;
        let holder = format!("package {name}");
        let manifest_path = Path::new(string_field(package, "manifest_path", &holder)?);
        let Some(directory) = manifest_path
            .parent()
            .filter(|directory| directory.parent() == Some(library_directory.as_path()))
            .and_then(Path::file_name)
            .and_then(|directory| directory.to_str())
        else {
            continue;
        };
        let Some(suffix) = directory.strip_prefix(CRATE_PREFIX) else {
            problems.push(format!(
                "{LIBRARY_DIRECTORY}/{directory}: a library crate's directory is named \
                 {CRATE_PREFIX}NAME"
            ));
            continue;
        };
        let expected_package = format!("{PACKAGE_PREFIX}{suffix}");
        if name != expected_package {
            problems.push(format!(
                "{LIBRARY_DIRECTORY}/{directory}: the package is named {name}; name it \
                 {expected_package} (`name` in its Cargo.toml, and `package = \
                 \"{expected_package}\"` in the workspace's dependency table)"
            ));
        }
        let expected_library = directory.replace('-', "_");
        let libraries: Vec<&str> = package
            .get("targets")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{holder} has no \"targets\" array"))?
            .iter()
            .filter(|target| {
                target
                    .get("kind")
                    .and_then(Value::as_array)
                    .is_some_and(|kinds| kinds.iter().any(|kind| kind == "lib" || kind == "rlib"))
            })
            .filter_map(|target| target.get("name").and_then(Value::as_str))
            .collect();
        if libraries != [expected_library.as_str()] {
            problems.push(format!(
                "{LIBRARY_DIRECTORY}/{directory}: the library is {libraries:?}; give the package \
                 one library named {expected_library} (`[lib] name = \"{expected_library}\"`), \
                 so that code says `use {expected_library}::...`"
            ));
        }
        let publishable = !matches!(package.get("publish"), Some(Value::Array(registries)) if registries.is_empty());
        if publishable {
            for field in ["description", "license"] {
                if package.get(field).and_then(Value::as_str).is_none() {
                    problems.push(format!(
                        "{LIBRARY_DIRECTORY}/{directory}: no `{field}`, which crates.io requires"
                    ));
                }
            }
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::{check_metadata, crate_name};

    /// A package entry as `cargo metadata` writes it (some fields left out).
    fn package(directory: &str, name: &str, library: &str, publish: &str) -> String {
        format!(
            r#"{{"name": "{name}", "manifest_path": "/w/{directory}/Cargo.toml",
                "description": "d", "license": "MIT", "publish": {publish},
                "targets": [{{"kind": ["lib"], "name": "{library}"}},
                            {{"kind": ["test"], "name": "suite"}}]}}"#
        )
    }

    /// The problems found in a workspace at `/w` of `packages`.
    fn problems(packages: &[String]) -> Vec<String> {
        let metadata = format!(
            r#"{{"workspace_root": "/w", "packages": [{}]}}"#,
            packages.join(",")
        );
        check_metadata(&metadata).expect("the metadata is valid")
    }

    #[test]
    fn package_names_map_to_crate_names() {
        assert_eq!(crate_name("rlrs-object-grid"), "rl-object-grid");
        assert_eq!(crate_name("rl-examples"), "rl-examples");
        assert_eq!(crate_name("xtask"), "xtask");
    }

    #[test]
    fn accepts_the_scheme() {
        assert!(
            problems(&[
                package("crates/rl-core", "rlrs-core", "rl_core", "null"),
                package("crates/rl-python", "rlrs-python", "rl_python", "[]"),
                // Outside crates/, anything goes.
                package("examples", "rl-examples", "rl_examples", "[]"),
            ])
            .is_empty()
        );
    }

    #[test]
    fn reports_every_departure_from_the_scheme() {
        let mut undescribed = package("crates/rl-wrappers", "rlrs-wrappers", "rl_wrappers", "null");
        undescribed = undescribed.replace(r#""description": "d", "#, "");
        assert_eq!(
            problems(&[
                package("crates/rl-core", "rl-core", "rl_core", "null"),
                package("crates/rl-spaces", "rlrs-spaces", "rlrs_spaces", "null"),
                package("crates/gridworlds", "gridworlds", "gridworlds", "null"),
                undescribed,
            ]),
            [
                "crates/rl-core: the package is named rl-core; name it rlrs-core (`name` in its \
                 Cargo.toml, and `package = \"rlrs-core\"` in the workspace's dependency table)",
                "crates/rl-spaces: the library is [\"rlrs_spaces\"]; give the package one library \
                 named rl_spaces (`[lib] name = \"rl_spaces\"`), so that code says `use \
                 rl_spaces::...`",
                "crates/gridworlds: a library crate's directory is named rl-NAME",
                "crates/rl-wrappers: no `description`, which crates.io requires",
            ]
        );
        // An unpublished crate needs no description.
        let unpublished = package("crates/rl-python", "rlrs-python", "rl_python", "[]")
            .replace(r#""description": "d", "#, "");
        assert!(problems(&[unpublished]).is_empty());
    }

    #[test]
    fn rejects_malformed_metadata() {
        assert!(check_metadata("not json").is_err());
        assert!(check_metadata(r#"{"packages": []}"#).is_err());
        assert!(check_metadata(r#"{"workspace_root": "/w", "packages": [{}]}"#).is_err());
    }
}
