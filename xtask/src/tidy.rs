//! The tidy check: every Rust source file opens with a `//!` line that says what it holds.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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

#[cfg(test)]
mod tests {
    use super::{Report, check, is_skipped_directory};
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
    fn this_crate_is_tidy() {
        let report = check(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("the walk succeeds");
        assert!(report.checked >= 1);
        assert_eq!(report.missing_module_doc, Vec::<PathBuf>::new());
    }
}
