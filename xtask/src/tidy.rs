//! The tidy checks: every Rust source file opens with a `//!` line that says what it holds, no
//! library crate includes a file from outside its directory, every integration-test file
//! is compiled, and git tracks nothing at the top level but the project's own entries (a
//! fuzzed `--out` path once left stray files that were committed).

use std::fmt;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// The top-level entries the repository may track; anything else (a stray output of a tool
/// run in the checkout) is reported.
pub(crate) const TOP_LEVEL: &[&str] = &[
    ".cargo",
    ".ci",
    ".github",
    ".gitignore",
    "ARCHITECTURE.md",
    "Cargo.lock",
    "Cargo.toml",
    "README.md",
    "benches",
    "crates",
    "docs",
    "examples",
    "fuzz",
    "scripts",
    "support",
    "testdata",
    "xtask",
];

/// The tracked paths (as `git ls-files -z` lists them) whose top-level entry is not in
/// [`TOP_LEVEL`], sorted.
pub(crate) fn stray_tracked_paths(listing: &[u8]) -> Vec<String> {
    let mut stray: Vec<String> = listing
        .split(|byte| *byte == 0)
        .filter(|path| !path.is_empty())
        .map(|path| String::from_utf8_lossy(path).into_owned())
        .filter(|path| {
            let top = path.split('/').next().unwrap_or_default();
            !TOP_LEVEL.contains(&top)
        })
        .collect();
    stray.sort();
    stray
}

/// What the first line of every Rust file must begin with.
const MODULE_DOC_PREFIX: &[u8] = b"//!";

/// The outcome of a tidy run over a directory tree.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Report {
    /// How many `.rs` files were read.
    pub(crate) checked: usize,
    /// The files whose first line does not begin with `//!`, relative to the root, sorted.
    pub(crate) missing_module_doc: Vec<PathBuf>,
}

/// Checks every `.rs` file under `root`, skipping hidden directories and build output
/// (`target` and `target-*` directories).
pub(crate) fn check(root: &Path) -> io::Result<Report> {
    let mut files = Vec::new();
    collect_rust_files(root, &mut files)?;
    files.sort();
    let mut report = Report::default();
    for file in files {
        let contents = fs::read(&file)?;
        report.checked += 1;
        if !contents.starts_with(MODULE_DOC_PREFIX) {
            let relative = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
            report.missing_module_doc.push(relative);
        }
    }
    Ok(report)
}

/// Whether the walk skips the directory called `name`: build output (`target`, `target-*`)
/// and hidden directories (`.git`, `.cargo`, virtual environments) hold no sources of ours.
///
/// A source directory that merely starts with "target", such as `targets`, is still checked.
fn is_skipped_directory(name: &str) -> bool {
    name == "target" || name.starts_with("target-") || name.starts_with('.')
}

/// Appends the path of every `.rs` file under `directory` to `files`.
///
/// Symbolic links are not followed, so the walk stays inside the tree and always ends.
fn collect_rust_files(directory: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(directory)? {
        let entry = entry?;
        let file_type = entry.file_type()?;
        let path = entry.path();
        if file_type.is_dir() {
            let name = entry.file_name();
            if !is_skipped_directory(&name.to_string_lossy()) {
                collect_rust_files(&path, files)?;
            }
        } else if file_type.is_file() && path.extension().is_some_and(|extension| extension == "rs")
        {
            files.push(path);
        }
    }
    Ok(())
}

/// The macros and attributes that name a file at compile time, as they appear in source text.
const FILE_INCLUDES: [&str; 3] = ["include_str!(", "include_bytes!(", "#[path"];

/// The spelling of a path built from the crate's own directory, the one non-literal form of an
/// include that the check understands.
const MANIFEST_DIRECTORY_PREFIX: &str = "concat!(env!(\"CARGO_MANIFEST_DIR\"),";

/// A file included at compile time that the check rejects.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct OutsideInclude {
    /// The source file, relative to the workspace root.
    pub(crate) file: PathBuf,
    /// The line number, from 1.
    pub(crate) line: usize,
    /// The include as written, such as `include_str!("../../README.md")`.
    pub(crate) written: String,
    /// Why it is rejected.
    pub(crate) reason: &'static str,
}

impl fmt::Display for OutsideInclude {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{}:{}: {} {}",
            self.file.display(),
            self.line,
            self.written,
            self.reason
        )
    }
}

/// Removes `.` and `name/..` pairs from `path` without reading the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut normalized = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !normalized.pop() {
                    normalized.push("..");
                }
            }
            other => normalized.push(other),
        }
    }
    normalized
}

/// The string literal at the start of `text` (after blanks), without its quotes, or `None` when
/// `text` does not start with a plain one.
fn leading_literal(text: &str) -> Option<&str> {
    let text = text.trim_start().strip_prefix('"')?;
    let end = text.find('"')?;
    let literal = &text[..end];
    (!literal.contains('\\')).then_some(literal)
}

/// Checks one source file of the crate in `crate_directory` and appends every include that
/// reaches outside it; `display` is the file's name in messages.
fn check_includes_in(
    source: &str,
    file: &Path,
    crate_directory: &Path,
    display: &Path,
    found: &mut Vec<OutsideInclude>,
) {
    let file_directory = file.parent().unwrap_or(crate_directory);
    for (index, line) in source.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for include in FILE_INCLUDES {
            let mut rest = line;
            while let Some(start) = rest.find(include) {
                let after = &rest[start + include.len()..];
                rest = after;
                let argument = if include == "#[path" {
                    after.trim_start().strip_prefix('=')
                } else {
                    Some(after)
                };
                let target = argument.and_then(|argument| {
                    if let Some(relative) = leading_literal(argument) {
                        Some(file_directory.join(relative))
                    } else {
                        let from_manifest = argument
                            .trim_start()
                            .strip_prefix(MANIFEST_DIRECTORY_PREFIX)?;
                        let relative = leading_literal(from_manifest)?;
                        Some(crate_directory.join(relative.trim_start_matches('/')))
                    }
                });
                let reason = match target {
                    None => "names its file in a form tidy cannot check; write a string literal",
                    Some(target) if normalize(&target).starts_with(crate_directory) => continue,
                    Some(_) => {
                        "reaches outside its crate, which then cannot be packaged; move the file \
                         into the crate or include it from an unpublished package"
                    }
                };
                found.push(OutsideInclude {
                    file: display.to_path_buf(),
                    line: index + 1,
                    written: line.trim().to_owned(),
                    reason,
                });
            }
        }
    }
}

/// Every `include_str!`, `include_bytes!` and `#[path]` in a Rust file of a crate under
/// `root/crates` that names a file outside that crate's directory, sorted.
pub(crate) fn check_includes(root: &Path) -> io::Result<Vec<OutsideInclude>> {
    let mut found = Vec::new();
    let library_directory = root.join("crates");
    let mut crates: Vec<PathBuf> = fs::read_dir(&library_directory)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<io::Result<_>>()?;
    crates.sort();
    for crate_directory in crates.iter().filter(|path| path.is_dir()) {
        let crate_directory = normalize(crate_directory);
        let mut files = Vec::new();
        collect_rust_files(&crate_directory, &mut files)?;
        files.sort();
        for file in files {
            let source = fs::read_to_string(&file)?;
            let display = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
            check_includes_in(&source, &file, &crate_directory, &display, &mut found);
        }
    }
    found.sort();
    Ok(found)
}

/// A workspace package as far as the test-file check needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TestTargets {
    /// The package's directory (where its `Cargo.toml` is).
    pub(crate) directory: PathBuf,
    /// The source file of each of its `[[test]]` targets.
    pub(crate) test_files: Vec<PathBuf>,
    /// Its library and binary targets with `test = false`: each one's name and source file.
    pub(crate) untested: Vec<(String, PathBuf)>,
}

/// The source files of a target whose root file is `source`: for a root in a `src/bin/`
/// directory, the file and the directory of its own name beside it, if any; for a root in a
/// `src/` directory, every `.rs` file under `src/` but those of `src/bin/` (other targets);
/// else the root file alone (a library at the package's top, as rl-examples' `lib.rs`).
fn target_sources(source: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = vec![source.to_path_buf()];
    let Some(directory) = source.parent() else {
        return Ok(files);
    };
    let mut walk = Vec::new();
    match directory.file_name().and_then(|name| name.to_str()) {
        Some("bin") => {
            if let Some(stem) = source.file_stem() {
                walk.push(directory.join(stem));
            }
        }
        Some("src") => walk.push(directory.to_path_buf()),
        _ => {}
    }
    while let Some(next) = walk.pop() {
        if !next.is_dir() {
            continue;
        }
        for entry in fs::read_dir(&next)? {
            let path = entry?.path();
            if path.is_dir() {
                if path != directory.join("bin") {
                    walk.push(path);
                }
            } else if path.extension().is_some_and(|extension| extension == "rs") && path != source
            {
                files.push(path);
            }
        }
    }
    Ok(files)
}

/// Every source file of a target with `test = false` in `packages` that holds a unit test
/// (`#[test]` or `#[cfg(test)]`), which `cargo test` would then never build: the file, relative
/// to `root`, and the target's name, sorted.
pub(crate) fn check_untested_targets(
    root: &Path,
    packages: &[TestTargets],
) -> io::Result<Vec<(PathBuf, String)>> {
    let mut found = Vec::new();
    for (target, source) in packages.iter().flat_map(|package| &package.untested) {
        for file in target_sources(source)? {
            let text = fs::read_to_string(&file)?;
            if text.contains("#[test]") || text.contains("#[cfg(test)]") {
                let relative = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
                found.push((relative, target.clone()));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The module names a test target's source declares as files next to it: `mod NAME;` lines.
fn declared_modules(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("pub ").unwrap_or(line);
            let name = line.strip_prefix("mod ")?.strip_suffix(';')?.trim();
            name.chars()
                .all(|character| character.is_alphanumeric() || character == '_')
                .then(|| name.to_owned())
        })
        .collect()
}

/// Every `tests/*.rs` file of `packages` that no test target compiles: it is neither a test
/// target's own file nor declared with `mod NAME;` in a test target's file in the same
/// directory. Such a file is silently skipped by `cargo test` when a crate sets
/// `autotests = false`. Paths are relative to `root`, sorted.
pub(crate) fn check_test_files(root: &Path, packages: &[TestTargets]) -> io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    for package in packages {
        let tests_directory = package.directory.join("tests");
        if !tests_directory.is_dir() {
            continue;
        }
        let mut compiled: Vec<PathBuf> = package
            .test_files
            .iter()
            .map(|file| normalize(file))
            .collect();
        for test_file in &package.test_files {
            let Ok(source) = fs::read_to_string(test_file) else {
                continue;
            };
            let directory = test_file.parent().unwrap_or(&tests_directory);
            compiled.extend(
                declared_modules(&source)
                    .into_iter()
                    .map(|name| normalize(&directory.join(format!("{name}.rs")))),
            );
        }
        for entry in fs::read_dir(&tests_directory)? {
            let path = entry?.path();
            let is_rust = path.extension().is_some_and(|extension| extension == "rs");
            if path.is_file() && is_rust && !compiled.contains(&normalize(&path)) {
                missing.push(path.strip_prefix(root).unwrap_or(&path).to_path_buf());
            }
        }
    }
    missing.sort();
    Ok(missing)
}

#[cfg(test)]
mod tests {

    #[test]
    fn stray_top_level_paths_are_reported() {
        let listing =
            b"Cargo.toml\0crates/rl-core/src/lib.rs\0tmp/rl-fuzz-1/picture.svg\0\xe2\x80\xae\0";
        assert_eq!(
            super::stray_tracked_paths(listing),
            vec![
                "tmp/rl-fuzz-1/picture.svg".to_owned(),
                "\u{202e}".to_owned()
            ]
        );
        assert!(super::stray_tracked_paths(b"README.md\0docs/a.md\0").is_empty());
    }

    use super::{
        Report, TestTargets, check, check_includes, check_test_files, check_untested_targets,
        is_skipped_directory,
    };
    use std::fs;
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A directory under the system's temporary directory, removed when dropped.
    struct TemporaryDirectory {
        /// Where the directory is.
        path: PathBuf,
    }

    impl TemporaryDirectory {
        /// Creates an empty directory with a name unique to this process and call.
        fn new() -> Self {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let path = std::env::temp_dir().join(format!(
                "xtask-tidy-test-{}-{}",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            fs::create_dir_all(&path).expect("can create a temporary directory");
            Self { path }
        }

        /// Writes `contents` to `relative` inside the directory, creating parents as needed.
        fn write(&self, relative: &str, contents: &str) {
            let path = self.path.join(relative);
            let parent = path
                .parent()
                .expect("a file inside the directory has a parent");
            fs::create_dir_all(parent).expect("can create parent directories");
            fs::write(path, contents).expect("can write a test file");
        }
    }

    impl Drop for TemporaryDirectory {
        fn drop(&mut self) {
            // A leftover directory in the temporary directory is harmless, so errors are ignored.
            let _ = fs::remove_dir_all(&self.path);
        }
    }

    #[test]
    fn reports_files_without_a_module_doc_line() {
        let directory = TemporaryDirectory::new();
        directory.write("good.rs", "//! A good file.\nfn main() {}\n");
        directory.write("src/nested/also_good.rs", "//!\n");
        directory.write("src/empty.rs", "");
        directory.write("src/outer_doc.rs", "/// An outer doc comment.\nfn f() {}\n");
        directory.write("src/late.rs", "\n//! Too late: the first line is blank.\n");
        directory.write("src/indented.rs", " //! Indented.\n");
        directory.write("src/attribute_first.rs", "#![allow(dead_code)]\n//! Doc.\n");
        directory.write("notes.txt", "not Rust");
        let report = check(&directory.path).expect("the walk succeeds");
        let expected: Vec<PathBuf> = [
            "src/attribute_first.rs",
            "src/empty.rs",
            "src/indented.rs",
            "src/late.rs",
            "src/outer_doc.rs",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(
            report,
            Report {
                checked: 7,
                missing_module_doc: expected
            }
        );
    }

    #[test]
    fn skips_build_output_and_hidden_directories() {
        let directory = TemporaryDirectory::new();
        directory.write("src/lib.rs", "//! Library.\n");
        directory.write("target/debug/build/out.rs", "generated\n");
        directory.write("target-xtask/debug/out.rs", "generated\n");
        directory.write(".git/hooks/hook.rs", "hidden\n");
        directory.write("benches/compare/.venv/lib/site.rs", "hidden\n");
        let report = check(&directory.path).expect("the walk succeeds");
        assert_eq!(
            report,
            Report {
                checked: 1,
                missing_module_doc: Vec::new()
            }
        );
    }

    #[test]
    fn skipped_directory_names() {
        for name in ["target", "target-xtask", ".git", ".cargo", ".venv"] {
            assert!(is_skipped_directory(name), "{name}");
        }
        for name in ["src", "crates", "xtask", "tests", "benches", "targets"] {
            assert!(!is_skipped_directory(name), "{name}");
        }
    }

    #[test]
    fn reports_includes_that_leave_their_crate() {
        let directory = TemporaryDirectory::new();
        directory.write(
            "crates/a/src/lib.rs",
            "//! A.\n\
             #![doc = include_str!(\"../../../README.md\")]\n\
             const MAP: &str = include_str!(\"../maps/one.txt\");\n\
             // include_str!(\"../../../in/a/comment.txt\")\n\
             const BYTES: &[u8] = include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/data.bin\"));\n\
             const UP: &[u8] = include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/../b/x\"));\n\
             const ODD: &str = include_str!(env!(\"SOMEWHERE\"));\n",
        );
        directory.write(
            "crates/a/tests/allocation.rs",
            "//! T.\n#[path = \"support/counting_allocator.rs\"]\nmod counting_allocator;\n\
             #[path = \"../../../support/shared.rs\"] mod shared;\n",
        );
        directory.write(
            "examples/lib.rs",
            "#[doc = include_str!(\"../README.md\")]\n",
        );
        let found = check_includes(&directory.path).expect("the walk succeeds");
        let places: Vec<String> = found
            .iter()
            .map(|include| format!("{}:{}", include.file.display(), include.line))
            .collect();
        assert_eq!(
            places,
            [
                "crates/a/src/lib.rs:2",
                "crates/a/src/lib.rs:6",
                "crates/a/src/lib.rs:7",
                "crates/a/tests/allocation.rs:4",
            ]
        );
        assert!(
            found[0].to_string().contains("reaches outside its crate"),
            "{}",
            found[0]
        );
        assert!(
            found[2].to_string().contains("string literal"),
            "{}",
            found[2]
        );
    }

    #[test]
    fn reports_test_files_that_no_target_compiles() {
        let directory = TemporaryDirectory::new();
        directory.write(
            "crates/a/tests/suite.rs",
            "//! S.\nmod common;\nmod one;\npub mod two;\n",
        );
        directory.write("crates/a/tests/common/mod.rs", "//! C.\n");
        directory.write("crates/a/tests/one.rs", "//! 1.\n");
        directory.write("crates/a/tests/two.rs", "//! 2.\n");
        directory.write("crates/a/tests/alone.rs", "//! Harness-free.\n");
        directory.write("crates/a/tests/forgotten.rs", "//! Never compiled.\n");
        directory.write("crates/a/tests/notes.txt", "not Rust");
        directory.write("crates/b/src/lib.rs", "//! No tests.\n");
        let tests = directory.path.join("crates/a/tests");
        let packages = [
            TestTargets {
                directory: directory.path.join("crates/a"),
                test_files: vec![tests.join("suite.rs"), tests.join("alone.rs")],
                untested: Vec::new(),
            },
            TestTargets {
                directory: directory.path.join("crates/b"),
                test_files: Vec::new(),
                untested: Vec::new(),
            },
        ];
        assert_eq!(
            check_test_files(&directory.path, &packages).expect("the walk succeeds"),
            [PathBuf::from("crates/a/tests/forgotten.rs")]
        );
    }

    #[test]
    fn reports_unit_tests_in_targets_with_test_false() {
        let directory = TemporaryDirectory::new();
        directory.write("crates/a/src/lib.rs", "//! A.\nmod inner;\n");
        directory.write(
            "crates/a/src/inner/deep.rs",
            "//! D.\n#[cfg(test)]\nmod tests {}\n",
        );
        directory.write("crates/a/src/bin/tool.rs", "//! T.\n#[test]\nfn t() {}\n");
        directory.write("crates/a/src/bin/quiet.rs", "//! Q.\n");
        directory.write(
            "crates/a/src/bin/quiet/part.rs",
            "//! P.\n#[test]\nfn p() {}\n",
        );
        directory.write("crates/b/lib.rs", "//! B.\n");
        directory.write("crates/b/tests/suite.rs", "//! S.\n#[test]\nfn s() {}\n");
        let a = directory.path.join("crates/a/src");
        let packages = [
            TestTargets {
                directory: directory.path.join("crates/a"),
                test_files: Vec::new(),
                untested: vec![
                    ("a".to_owned(), a.join("lib.rs")),
                    ("quiet".to_owned(), a.join("bin/quiet.rs")),
                ],
            },
            TestTargets {
                directory: directory.path.join("crates/b"),
                test_files: Vec::new(),
                untested: vec![("b".to_owned(), directory.path.join("crates/b/lib.rs"))],
            },
        ];
        // The library's walk leaves out src/bin (the tool binary is tested); a binary's own
        // directory is searched; a top-level lib.rs is alone (not the tests beside it).
        assert_eq!(
            check_untested_targets(&directory.path, &packages).expect("the walk succeeds"),
            [
                (
                    PathBuf::from("crates/a/src/bin/quiet/part.rs"),
                    "quiet".to_owned()
                ),
                (PathBuf::from("crates/a/src/inner/deep.rs"), "a".to_owned()),
            ]
        );
    }

    #[test]
    fn the_workspace_includes_nothing_from_outside_its_crates() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask is inside the workspace");
        let found = check_includes(root).expect("the walk succeeds");
        let messages: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(messages, Vec::<String>::new());
    }

    #[test]
    fn this_crate_is_tidy() {
        let report = check(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("the walk succeeds");
        assert!(report.checked >= 1);
        assert_eq!(report.missing_module_doc, Vec::<PathBuf>::new());
    }
}
