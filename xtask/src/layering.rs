//! The layering check: each library crate depends only on the `rl-*` crates its row of
//! [`LAYERS`] allows. The table names crates as the design does (`rl-core`); a package
//! published as `rlrs-core` is the crate `rl-core` ([`crate_name`]).

use std::fmt;
use std::path::Path;

use serde_json::Value;

use crate::package_names::crate_name;

/// What a workspace crate may depend on among our own crates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Allowed {
    /// A published library crate: exactly these `rl-*` crates, all of them in earlier rows.
    Only(&'static [&'static str]),
    /// An unpublished package (examples, benches): any of our crates.
    Anything,
}

/// The layer table: every crate of ours, lowest first, with the `rl-*` crates it may depend on.
///
/// The order is rl-spaces < rl-core < rl-wrappers < rl-domains, rl-object-grid, rl-mujoco <
/// rl-reference < rl-experiment < rl-python, and each crate may depend only on crates before
/// it, with these exceptions: rl-domains, rl-object-grid (grid worlds with objects, MiniGrid)
/// and rl-mujoco (MuJoCo), siblings at one level, depend on rl-spaces and rl-core only, never
/// on rl-wrappers nor on each other, so
/// that a planner that wants a domain does not pull in the vector runtime and a user who wants
/// only MiniGrid depends on rl-object-grid alone. The rule covers normal, build and
/// dev-dependencies alike, so a crate's tests cannot reach up either; a crate may also
/// dev-depend on itself (tests use that to turn on its own features). A crate under
/// [`LIBRARY_DIRECTORY`], or any workspace package or dependency named `rl-*`, that is not in
/// this table is an error until it is added here.
pub(crate) const LAYERS: [(&str, Allowed); 14] = [
    ("rl-spaces", Allowed::Only(&[])),
    ("rl-core", Allowed::Only(&["rl-spaces"])),
    ("rl-wrappers", Allowed::Only(&["rl-spaces", "rl-core"])),
    ("rl-domains", Allowed::Only(&["rl-spaces", "rl-core"])),
    ("rl-object-grid", Allowed::Only(&["rl-spaces", "rl-core"])),
    ("rl-mujoco", Allowed::Only(&["rl-spaces", "rl-core"])),
    (
        "rl-reference",
        Allowed::Only(&[
            "rl-spaces",
            "rl-core",
            "rl-wrappers",
            "rl-domains",
            "rl-object-grid",
            "rl-mujoco",
        ]),
    ),
    (
        "rl-experiment",
        Allowed::Only(&[
            "rl-spaces",
            "rl-core",
            "rl-wrappers",
            "rl-domains",
            "rl-object-grid",
            "rl-mujoco",
            "rl-reference",
        ]),
    ),
    (
        "rl-python",
        Allowed::Only(&[
            "rl-spaces",
            "rl-core",
            "rl-wrappers",
            "rl-domains",
            "rl-object-grid",
            "rl-mujoco",
            "rl-reference",
            "rl-experiment",
        ]),
    ),
    ("rl-examples", Allowed::Anything),
    // The example Python package of a domain author (examples/python-domain, `rlrs-nchain`).
    ("rl-nchain", Allowed::Anything),
    ("rl-benches", Allowed::Anything),
    ("rl-criterion", Allowed::Anything),
    ("rl-fuzz", Allowed::Anything),
];

/// Optional dependencies (behind a cargo feature that is off by default) that the table allows
/// besides its rows: `rl-domains`' `grid-image` feature adds GridWorld's grid image as an
/// `rl-wrappers` representation, while a default build of rl-domains (what `cargo tree -p
/// rl-domains` shows) depends on rl-spaces and rl-core only. Each is still a lower layer.
pub(crate) const OPTIONAL_EDGES: [(&str, &str); 1] = [("rl-domains", "rl-wrappers")];

/// The layer order as the messages and the help spell it, lowest first.
pub(crate) const LAYER_ORDER: &str = "rl-spaces < rl-core < rl-wrappers < rl-domains, rl-object-grid, rl-mujoco < rl-reference \
     < rl-experiment < rl-python";

/// The name prefix of our own crates: every package or dependency with it must be in [`LAYERS`].
const OWN_CRATE_PREFIX: &str = "rl-";

/// The directory, relative to the workspace root, that holds the library crates; each crate in
/// it must have a row in [`LAYERS`].
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

/// One breach of the layer table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Violation {
    /// A crate depends on one of our crates that its row of [`LAYERS`] does not allow.
    ForbiddenDependency {
        /// The crate that declares the dependency.
        package: String,
        /// The crate it depends on.
        dependency: String,
        /// The manifest section the dependency is declared in.
        kind: DependencyKind,
    },
    /// A crate depends on an `rl-*` crate that has no row in [`LAYERS`].
    UnknownDependency {
        /// The crate that declares the dependency.
        package: String,
        /// The unknown crate it depends on.
        dependency: String,
    },
    /// A workspace crate under [`LIBRARY_DIRECTORY`] or named `rl-*` has no row in [`LAYERS`].
    UnlistedCrate {
        /// The crate's name.
        package: String,
    },
}

/// The crates `package` may depend on, for messages: "rl-spaces, rl-core only" or "no rl-* crate".
fn allowed_list(package: &str) -> String {
    match allowed_for(package) {
        Some(Allowed::Only([])) | None => "no rl-* crate".to_owned(),
        Some(Allowed::Only(names)) => format!("{} only", names.join(", ")),
        Some(Allowed::Anything) => "any rl-* crate".to_owned(),
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::ForbiddenDependency {
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
                    "{package} depends on {dependency}{section}, which the layer table does \
                     not allow: {package} may depend on {}",
                    allowed_list(package)
                )
            }
            Violation::UnknownDependency {
                package,
                dependency,
            } => write!(
                formatter,
                "{package} depends on {dependency}, which has no row in the layer table; add \
                 {dependency} to LAYERS in xtask/src/layering.rs"
            ),
            Violation::UnlistedCrate { package } => write!(
                formatter,
                "{package} is one of our crates without a row in the layer table; add it to \
                 LAYERS in xtask/src/layering.rs"
            ),
        }
    }
}

/// The row of `name` in [`LAYERS`], or `None` for a crate that has none.
fn allowed_for(name: &str) -> Option<Allowed> {
    LAYERS
        .iter()
        .find(|(layer, _)| *layer == name)
        .map(|(_, allowed)| *allowed)
}

/// A string field of a JSON object, or an error that names the field and what holds it.
fn string_field<'a>(object: &'a Value, field: &str, holder: &str) -> Result<&'a str, String> {
    object
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{holder} has no \"{field}\" string"))
}

/// Checks the output of `cargo metadata --format-version 1 --no-deps` and returns every
/// violation, sorted; an error means the text is not metadata this check understands.
pub(crate) fn check_metadata(metadata: &str) -> Result<Vec<Violation>, String> {
    let root: Value = serde_json::from_str(metadata)
        .map_err(|error| format!("cargo metadata output is not JSON: {error}"))?;
    let packages = root
        .get("packages")
        .and_then(Value::as_array)
        .ok_or("cargo metadata output has no \"packages\" array")?;
    let workspace_root = string_field(&root, "workspace_root", "cargo metadata output")?;
    let library_directory = Path::new(workspace_root).join(LIBRARY_DIRECTORY);
    let mut violations = Vec::new();
    for package in packages {
        let name = crate_name(string_field(
            package,
            "name",
            "a package in cargo metadata output",
        )?);
        let name = &*name;
        let holder = format!("package {name}");
        let Some(allowed) = allowed_for(name) else {
            let manifest_path = string_field(package, "manifest_path", &holder)?;
            if name.starts_with(OWN_CRATE_PREFIX)
                || Path::new(manifest_path).starts_with(&library_directory)
            {
                violations.push(Violation::UnlistedCrate {
                    package: name.to_owned(),
                });
            }
            continue;
        };
        let dependencies = package
            .get("dependencies")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{holder} has no \"dependencies\" array"))?;
        for dependency in dependencies {
            let dependency_name = crate_name(string_field(
                dependency,
                "name",
                &format!("a dependency of {name}"),
            )?);
            let dependency_name = &*dependency_name;
            let kind = match dependency.get("kind") {
                None | Some(Value::Null) => DependencyKind::Normal,
                Some(Value::String(kind)) if kind == "build" => DependencyKind::Build,
                Some(Value::String(kind)) if kind == "dev" => DependencyKind::Development,
                Some(other) => {
                    return Err(format!(
                        "dependency {dependency_name} of {name} has an unknown kind {other}"
                    ));
                }
            };
            if !dependency_name.starts_with(OWN_CRATE_PREFIX) {
                continue;
            }
            if allowed_for(dependency_name).is_none() {
                violations.push(Violation::UnknownDependency {
                    package: name.to_owned(),
                    dependency: dependency_name.to_owned(),
                });
                continue;
            }
            let is_own_tests = kind == DependencyKind::Development && dependency_name == name;
            let optional = dependency.get("optional") == Some(&Value::Bool(true));
            let is_optional_edge = optional
                && kind == DependencyKind::Normal
                && OPTIONAL_EDGES.contains(&(name, dependency_name));
            let is_allowed = is_optional_edge
                || match allowed {
                    Allowed::Anything => true,
                    Allowed::Only(names) => names.contains(&dependency_name),
                };
            if !is_allowed && !is_own_tests {
                violations.push(Violation::ForbiddenDependency {
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
    use super::{Allowed, DependencyKind, LAYER_ORDER, LAYERS, Violation, check_metadata};

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

    /// The messages of the violations found in a workspace of `packages`.
    fn messages(packages: &[String]) -> Vec<String> {
        check_metadata(&metadata(packages))
            .expect("the metadata is valid")
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// A workspace that keeps the table, including unrestricted crates that depend on everything.
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
                    dependency("rl-spaces", "\"build\""),
                ],
            ),
            package(
                "rl-reference",
                &[
                    dependency("rl-domains", "null"),
                    dependency("rl-wrappers", "\"dev\""),
                ],
            ),
            package(
                "rl-experiment",
                &[
                    dependency("rl-domains", "null"),
                    dependency("rl-reference", "null"),
                    dependency("rl-spaces", "null"),
                ],
            ),
            package(
                "rl-python",
                &[
                    dependency("rl-experiment", "null"),
                    dependency("rl-wrappers", "null"),
                ],
            ),
            package_in(
                "examples",
                "rl-examples",
                &[
                    dependency("rl-experiment", "null"),
                    dependency("rl-python", "null"),
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
    fn accepts_a_workspace_that_keeps_the_table() {
        assert_eq!(messages(&layered_workspace()), Vec::<String>::new());
    }

    #[test]
    fn published_package_names_are_checked_as_their_crates() {
        // The workspace's packages are named rlrs-*, and so are their dependencies in metadata.
        let published: Vec<String> = layered_workspace()
            .iter()
            .map(|package| {
                package
                    .replace("\"rl-", "\"rlrs-")
                    .replace("\"rlrs-examples", "\"rl-examples")
                    .replace("\"rlrs-benches", "\"rl-benches")
            })
            .collect();
        assert!(published[1].contains("\"name\": \"rlrs-core\""));
        assert_eq!(messages(&published), Vec::<String>::new());
        let mut upward = published;
        upward[1] = package("rlrs-core", &[dependency("rlrs-domains", "null")]);
        assert_eq!(
            messages(&upward),
            [
                "rl-core depends on rl-domains, which the layer table does not allow: rl-core \
                 may depend on rl-spaces only"
            ]
        );
    }

    #[test]
    fn the_table_is_the_layer_order_with_domains_free_of_wrappers() {
        let published: Vec<&str> = LAYERS
            .iter()
            .filter(|(_, allowed)| *allowed != Allowed::Anything)
            .map(|(name, _)| *name)
            .collect();
        // rl-object-grid and rl-mujoco sit beside rl-domains, at one level.
        let order = published
            .join(" < ")
            .replace(" < rl-object-grid", ", rl-object-grid")
            .replace(" < rl-mujoco", ", rl-mujoco");
        assert_eq!(order, LAYER_ORDER);
        for (index, (name, allowed)) in LAYERS.iter().enumerate() {
            let Allowed::Only(names) = allowed else {
                continue;
            };
            // Every allowed crate is in an earlier row, so the table has no cycle.
            for allowed_name in *names {
                assert!(
                    LAYERS[..index]
                        .iter()
                        .any(|(lower, _)| lower == allowed_name),
                    "{name} may depend on {allowed_name}, which is not below it"
                );
            }
            // Every earlier published crate is allowed, except rl-wrappers for rl-domains,
            // rl-object-grid and rl-mujoco, and the siblings for each other.
            let domain_level = ["rl-domains", "rl-object-grid", "rl-mujoco"];
            let expected: Vec<&str> = published[..index]
                .iter()
                .copied()
                .filter(|lower| {
                    !(domain_level.contains(name)
                        && (*lower == "rl-wrappers" || domain_level.contains(lower)))
                })
                .collect();
            assert_eq!(*names, expected.as_slice(), "{name}");
        }
    }

    #[test]
    fn domains_may_not_depend_on_wrappers() {
        let mut packages = layered_workspace();
        packages[3] = package(
            "rl-domains",
            &[
                dependency("rl-core", "null"),
                dependency("rl-wrappers", "null"),
            ],
        );
        assert_eq!(
            messages(&packages),
            [
                "rl-domains depends on rl-wrappers, which the layer table does not allow: \
                 rl-domains may depend on rl-spaces, rl-core only"
            ]
        );
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
                "rl-core depends on rl-domains, which the layer table does not allow: rl-core \
                 may depend on rl-spaces only",
                "rl-core depends on rl-wrappers (as a build-dependency), which the layer table \
                 does not allow: rl-core may depend on rl-spaces only",
                "rl-core depends on rl-plugins, which has no row in the layer table; add \
                 rl-plugins to LAYERS in xtask/src/layering.rs",
            ]
        );
        assert!(violations.contains(&Violation::ForbiddenDependency {
            package: "rl-core".to_owned(),
            dependency: "rl-wrappers".to_owned(),
            kind: DependencyKind::Build,
        }));
    }

    #[test]
    fn only_the_listed_optional_edge_is_allowed_and_only_when_optional() {
        let optional = dependency("rl-wrappers", "null")
            .replace(r#""optional": false"#, r#""optional": true"#);
        let mut packages = layered_workspace();
        packages[3] = package(
            "rl-domains",
            &[dependency("rl-core", "null"), optional.clone()],
        );
        assert!(messages(&packages).is_empty(), "{:?}", messages(&packages));
        packages[3] = package("rl-domains", &[dependency("rl-wrappers", "null")]);
        assert_eq!(
            messages(&packages).len(),
            1,
            "a required rl-wrappers is refused"
        );
        let mut packages = layered_workspace();
        packages[1] = package("rl-core", &[optional]);
        assert_eq!(messages(&packages).len(), 1, "the edge is rl-domains' only");
    }

    #[test]
    fn dev_dependencies_obey_the_same_rule() {
        let packages = vec![package(
            "rl-spaces",
            &[dependency("rl-experiment", "\"dev\"")],
        )];
        assert_eq!(
            messages(&packages),
            [
                "rl-spaces depends on rl-experiment (as a dev-dependency), which the layer \
                 table does not allow: rl-spaces may depend on no rl-* crate"
            ]
        );
    }

    #[test]
    fn reports_crates_missing_from_the_table() {
        let packages = vec![
            package("rl-plugins", &[dependency("rl-experiment", "null")]),
            package("gridworld-maps", &[]),
            package_in("examples", "rl-examples", &[]),
            package_in("tools/rl-profiler", "rl-profiler", &[]),
            package_in("tools/profiler", "profiler", &[]),
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
                Violation::UnlistedCrate {
                    package: "rl-profiler".to_owned()
                },
            ])
        );
    }

    #[test]
    fn unrestricted_crates_still_name_only_known_crates() {
        let packages = vec![package_in(
            "examples",
            "rl-examples",
            &[
                dependency("rl-python", "null"),
                dependency("rl-gpu", "\"dev\""),
            ],
        )];
        assert_eq!(
            messages(&packages),
            [
                "rl-examples depends on rl-gpu, which has no row in the layer table; add rl-gpu \
                 to LAYERS in xtask/src/layering.rs"
            ]
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
        assert_eq!(
            messages(&packages),
            [
                "rl-core depends on rl-core (as a build-dependency), which the layer table does \
                 not allow: rl-core may depend on rl-spaces only"
            ]
        );
    }

    #[test]
    fn rejects_malformed_metadata() {
        assert!(check_metadata("not json").is_err());
        assert!(check_metadata("{}").is_err());
        assert!(check_metadata(r#"{"packages": [{"dependencies": []}]}"#).is_err());
        assert!(
            check_metadata(r#"{"workspace_root": "/w", "packages": [{"name": "rl-core"}]}"#)
                .is_err()
        );
        let unknown_kind = metadata(&[package(
            "rl-core",
            &[dependency("rl-spaces", "\"proc-macro\"")],
        )]);
        assert!(check_metadata(&unknown_kind).is_err());
    }
}
