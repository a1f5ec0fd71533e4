//! The layering check: each library crate depends only on `rl-*` crates in layers below it.

use std::fmt;
use std::path::Path;

use crate::json::{self, Value};

/// The layered crates, lowest first: each may depend only on the `rl-*` crates before it here.
///
/// The rule covers normal, build and dev-dependencies alike, so a crate's tests cannot reach up
/// either; the one exception is a dev-dependency of a crate on itself, which tests use to turn
/// on the crate's own features and which reaches no other layer. Every crate under
/// [`LIBRARY_DIRECTORY`] must be listed here. Workspace crates elsewhere (examples, benches,
/// xtask) are unrestricted.
pub(crate) const LAYERS: [&str; 5] = [
    "rl-spaces",
    "rl-core",
    "rl-wrappers",
    "rl-domains",
    "rl-experiment",
];

/// The name prefix of our own crates: a layered crate may depend on one only if it is lower.
const OWN_CRATE_PREFIX: &str = "rl-";

/// The directory, relative to the workspace root, that holds the library crates; each crate in
/// it must have a place in [`LAYERS`].
const LIBRARY_DIRECTORY: &str = "crates";

/// The section of a manifest a dependency is declared in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum DependencyKind {
    /// `[dependencies]`, reported by `cargo metadata` with `"kind": null`.
    Normal,
    /// `[build-dependencies]`, `"kind": "build"`.
    Build,
    /// `[dev-dependencies]`, `"kind": "dev"`.
    Development,
}

/// One breach of the layer order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Violation {
    /// A layered crate depends on an `rl-*` crate that is not in a lower layer.
    DependsOnNonLowerCrate {
        /// The layered crate that declares the dependency.
        package: String,
        /// The crate it depends on.
        dependency: String,
        /// The manifest section the dependency is declared in.
        kind: DependencyKind,
    },
    /// A crate under [`LIBRARY_DIRECTORY`] has no place in [`LAYERS`].
    UnlistedCrate {
        /// The crate's name.
        package: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::DependsOnNonLowerCrate {
                package,
                dependency,
                kind,
            } => {
                let section = match kind {
                    DependencyKind::Normal => "",
                    DependencyKind::Build => " (as a build-dependency)",
                    DependencyKind::Development => " (as a dev-dependency)",
                };
                write!(
                    formatter,
                    "{package} depends on {dependency}{section}, which is not below it"
                )
            }
            Violation::UnlistedCrate { package } => write!(
                formatter,
                "{package} is a library crate (under {LIBRARY_DIRECTORY}/) without a layer; \
                 add it to LAYERS in xtask/src/layering.rs"
            ),
        }
    }
}

/// The position of `name` in [`LAYERS`], or `None` for a crate that is not layered.
fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| *layer == name)
}

/// Checks the output of `cargo metadata --format-version 1 --no-deps` and returns every
/// violation, sorted; an error means the text is not metadata this check understands.
pub(crate) fn check_metadata(metadata: &str) -> Result<Vec<Violation>, String> {
    let root = json::parse(metadata).map_err(|error| format!("cargo metadata output: {error}"))?;
    let packages = root
        .get("packages")
        .and_then(Value::as_array)
        .ok_or("cargo metadata output has no \"packages\" array")?;
    let workspace_root = root
        .get("workspace_root")
        .and_then(Value::as_str)
        .ok_or("cargo metadata output has no \"workspace_root\" string")?;
    let library_directory = Path::new(workspace_root).join(LIBRARY_DIRECTORY);
    let mut violations = Vec::new();
    for package in packages {
        let name = package
            .get("name")
            .and_then(Value::as_str)
            .ok_or("a package in cargo metadata output has no \"name\" string")?;
        let Some(layer) = layer_of(name) else {
            let manifest_path = package
                .get("manifest_path")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("package {name} has no \"manifest_path\" string"))?;
            if Path::new(manifest_path).starts_with(&library_directory) {
                violations.push(Violation::UnlistedCrate {
                    package: name.to_owned(),
                });
            }
            continue;
        };
        let dependencies = package
            .get("dependencies")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("package {name} has no \"dependencies\" array"))?;
        for dependency in dependencies {
            let dependency_name = dependency
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("a dependency of {name} has no \"name\" string"))?;
            let kind = match dependency.get("kind") {
                None | Some(Value::Null) => DependencyKind::Normal,
                Some(Value::String(kind)) if kind == "build" => DependencyKind::Build,
                Some(Value::String(kind)) if kind == "dev" => DependencyKind::Development,
                Some(other) => {
                    return Err(format!(
                        "dependency {dependency_name} of {name} has an unknown kind {other:?}"
                    ));
                }
            };
            let is_lower = layer_of(dependency_name).is_some_and(|other| other < layer);
            let is_own_tests = kind == DependencyKind::Development && dependency_name == name;
            if dependency_name.starts_with(OWN_CRATE_PREFIX) && !is_lower && !is_own_tests {
                violations.push(Violation::DependsOnNonLowerCrate {
                    package: name.to_owned(),
                    dependency: dependency_name.to_owned(),
                    kind,
                });
            }
        }
    }
    violations.sort();
    violations.dedup();
    Ok(violations)
}

#[cfg(test)]
mod tests {
    use super::{DependencyKind, LAYERS, Violation, check_metadata};

    /// A dependency entry as `cargo metadata` writes it; `kind` is already JSON (`null`, `"dev"`).
    fn dependency(name: &str, kind: &str) -> String {
        format!(
            r#"{{"name": "{name}", "source": null, "req": "^0.1.0", "kind": {kind},
                "rename": null, "optional": false, "uses_default_features": true,
                "features": [], "target": null, "registry": null,
                "path": "/work/main/crates/{name}"}}"#
        )
    }

    /// A library crate's package entry, in `crates/{name}`.
    fn package(name: &str, dependencies: &[String]) -> String {
        package_in(&format!("crates/{name}"), name, dependencies)
    }

    /// A package entry as `cargo metadata` writes it, with some fields left out, for a crate in
    /// `directory` under the workspace root.
    fn package_in(directory: &str, name: &str, dependencies: &[String]) -> String {
        format!(
            r#"{{"name": "{name}", "version": "0.1.0",
                "id": "path+file:///work/main/{directory}#{name}@0.1.0",
                "license": "MIT OR Apache-2.0", "source": null,
                "dependencies": [{}], "targets": [], "features": {{}},
                "manifest_path": "/work/main/{directory}/Cargo.toml",
                "metadata": null, "publish": null, "authors": [], "edition": "2024"}}"#,
            dependencies.join(",")
        )
    }

    /// A whole `cargo metadata --format-version 1 --no-deps` document for `packages`.
    fn metadata(packages: &[String]) -> String {
        format!(
            r#"{{"packages": [{}], "workspace_members": [], "workspace_default_members": [],
                "resolve": null, "target_directory": "/work/main/target", "version": 1,
                "workspace_root": "/work/main", "metadata": null}}"#,
            packages.join(",")
        )
    }

    /// A well-layered workspace, including unrestricted crates that depend on everything.
    fn layered_workspace() -> Vec<String> {
        vec![
            package(
                "rl-spaces",
                &[
                    dependency("rand", "null"),
                    dependency("proptest", "\"dev\""),
                    dependency("rl-spaces", "\"dev\""),
                ],
            ),
            package(
                "rl-core",
                &[dependency("rl-spaces", "null"), dependency("serde", "null")],
            ),
            package("rl-wrappers", &[dependency("rl-core", "null")]),
            package(
                "rl-domains",
                &[
                    dependency("rl-core", "null"),
                    dependency("rl-wrappers", "\"dev\""),
                    dependency("rl-spaces", "\"build\""),
                ],
            ),
            package(
                "rl-experiment",
                &[
                    dependency("rl-domains", "null"),
                    dependency("rl-spaces", "null"),
                ],
            ),
            package_in(
                "examples",
                "rl-examples",
                &[
                    dependency("rl-experiment", "null"),
                    dependency("rl-spaces", "null"),
                ],
            ),
            package_in(
                "benches",
                "rl-benches",
                &[dependency("rl-domains", "\"dev\"")],
            ),
            package_in("xtask", "xtask", &[]),
        ]
    }

    #[test]
    fn accepts_a_well_layered_workspace() {
        let text = metadata(&layered_workspace());
        assert_eq!(check_metadata(&text), Ok(Vec::new()));
    }

    #[test]
    fn reports_upward_and_sideways_dependencies_of_every_kind() {
        let mut packages = layered_workspace();
        packages[1] = package(
            "rl-core",
            &[
                dependency("rl-spaces", "null"),
                dependency("rl-domains", "null"),
                dependency("rl-core", "\"dev\""),
                dependency("rl-wrappers", "\"build\""),
                dependency("rl-plugins", "null"),
            ],
        );
        let violations = check_metadata(&metadata(&packages)).expect("the metadata is valid");
        let messages: Vec<String> = violations.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "rl-core depends on rl-domains, which is not below it",
                "rl-core depends on rl-plugins, which is not below it",
                "rl-core depends on rl-wrappers (as a build-dependency), which is not below it",
            ]
        );
        assert!(violations.contains(&Violation::DependsOnNonLowerCrate {
            package: "rl-core".to_owned(),
            dependency: "rl-wrappers".to_owned(),
            kind: DependencyKind::Build,
        }));
    }

    #[test]
    fn dev_dependencies_obey_the_same_rule() {
        let packages = vec![package(
            "rl-spaces",
            &[dependency("rl-experiment", "\"dev\"")],
        )];
        let messages: Vec<String> = check_metadata(&metadata(&packages))
            .expect("the metadata is valid")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            messages,
            ["rl-spaces depends on rl-experiment (as a dev-dependency), which is not below it"]
        );
    }

    #[test]
    fn reports_library_crates_missing_from_the_layer_order() {
        let packages = vec![
            package("rl-plugins", &[dependency("rl-experiment", "null")]),
            package("gridworld-maps", &[]),
            package_in("examples", "rl-examples", &[]),
            package_in("tools/rl-profiler", "rl-profiler", &[]),
        ];
        assert_eq!(
            check_metadata(&metadata(&packages)),
            Ok(vec![
                Violation::UnlistedCrate {
                    package: "gridworld-maps".to_owned()
                },
                Violation::UnlistedCrate {
                    package: "rl-plugins".to_owned()
                },
            ])
        );
    }

    #[test]
    fn a_crate_may_dev_depend_on_itself_only() {
        let packages = vec![package(
            "rl-core",
            &[
                dependency("rl-core", "\"dev\""),
                dependency("rl-core", "\"build\""),
            ],
        )];
        let messages: Vec<String> = check_metadata(&metadata(&packages))
            .expect("the metadata is valid")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            messages,
            ["rl-core depends on rl-core (as a build-dependency), which is not below it"]
        );
    }

    #[test]
    fn every_layer_may_depend_on_every_lower_layer_only() {
        for (layer, name) in LAYERS.iter().enumerate() {
            let dependencies: Vec<String> = LAYERS
                .iter()
                .map(|other| dependency(other, "null"))
                .collect();
            let violations =
                check_metadata(&metadata(&[package(name, &dependencies)])).expect("valid");
            let reported: Vec<&str> = violations
                .iter()
                .map(|violation| match violation {
                    Violation::DependsOnNonLowerCrate { dependency, .. } => dependency.as_str(),
                    Violation::UnlistedCrate { package } => package.as_str(),
                })
                .collect();
            let mut expected = LAYERS[layer..].to_vec();
            expected.sort_unstable();
            assert_eq!(reported, expected, "{name}");
        }
    }

    #[test]
    fn rejects_malformed_metadata() {
        assert!(check_metadata("not json").is_err());
        assert!(check_metadata("{}").is_err());
        assert!(check_metadata(r#"{"packages": [{"dependencies": []}]}"#).is_err());
        assert!(check_metadata(r#"{"packages": [{"name": "rl-core"}]}"#).is_err());
        let unknown_kind = metadata(&[package(
            "rl-core",
            &[dependency("rl-spaces", "\"proc-macro\"")],
        )]);
        assert!(check_metadata(&unknown_kind).is_err());
    }
}
