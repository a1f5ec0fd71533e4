//! The guides show the files of example crates, and those crates are what CI builds and tests
//! (`examples/custom-domain` in the test step; `examples/python-domain`, built by maturin, in
//! `crates/rl-python/ci.sh`; both workspace members), so a guide's code is tested as written
//! only if its code blocks are those files. This test checks it, and that the workspace's
//! features cannot hide from the custom-domain crate what a user's crate would miss.
//!
//! A code block preceded by the line `<!-- file: PATH -->` is (a part of) the file PATH, from
//! the repository's root: the blocks marked with one path, in the page's order and joined by
//! one empty line, are the whole file. A block preceded by `<!-- excerpt: PATH -->` appears in
//! the file PATH word for word. Every `rs`, `rust`, `toml` and `python` block of the guides
//! carries one of the two marks. To write a page's files from its blocks after editing the
//! page (the files marked `file` only):
//!
//! ```text
//! RL_WRITE_GUIDES=1 cargo test -p rl-examples --test guides
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The guides whose code blocks are files of the example crates.
const GUIDES: [&str; 2] = ["docs/custom-domain.md", "docs/python-domain.md"];

/// The languages of code blocks that must be marked.
const MARKED_LANGUAGES: [&str; 4] = ["rs", "rust", "toml", "python"];

/// How a block relates to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// The block is a part of the whole file.
    File,
    /// The block appears in the file.
    Excerpt,
}

/// A marked code block of a guide.
#[derive(Debug)]
struct Block {
    /// The page's line of the opening fence, from 1.
    line: usize,
    /// Its mark and file, if marked.
    mark: Option<(Mark, String)>,
    /// The info string after the fence.
    language: String,
    /// The text between the fences, with a final newline.
    text: String,
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("examples/ has a parent")
        .to_path_buf()
}

/// The fenced code blocks of `page`, with the mark of the line before each.
fn blocks(page: &str) -> Vec<Block> {
    let lines: Vec<&str> = page.lines().collect();
    let mut blocks = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some(language) = lines[index].strip_prefix("```") else {
            index += 1;
            continue;
        };
        let mark = index
            .checked_sub(1)
            .map(|before| lines[before].trim())
            .and_then(|before| before.strip_prefix("<!-- "))
            .and_then(|before| before.strip_suffix(" -->"))
            .and_then(|mark| {
                if let Some(path) = mark.strip_prefix("file: ") {
                    Some((Mark::File, path.to_owned()))
                } else {
                    mark.strip_prefix("excerpt: ")
                        .map(|path| (Mark::Excerpt, path.to_owned()))
                }
            });
        let start = index + 1;
        let end = (start..lines.len())
            .find(|&line| lines[line] == "```")
            .unwrap_or_else(|| panic!("the code block at line {} is not closed", index + 1));
        let mut text = lines[start..end].join("\n");
        text.push('\n');
        blocks.push(Block {
            line: index + 1,
            mark,
            language: language.trim().to_owned(),
            text,
        });
        index = end + 1;
    }
    blocks
}

#[test]
fn the_guides_show_the_files_that_ci_builds() {
    let write = std::env::var_os("RL_WRITE_GUIDES").is_some();
    let mut problems = Vec::new();
    for guide in GUIDES {
        let page = std::fs::read_to_string(root().join(guide))
            .unwrap_or_else(|error| panic!("{guide}: {error}"));
        let mut files: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut marked = 0;
        for block in blocks(&page) {
            let Some((mark, path)) = block.mark else {
                if MARKED_LANGUAGES.contains(&block.language.as_str()) {
                    problems.push(format!(
                        "{guide}:{}: a {} block without a `<!-- file: PATH -->` or \
                         `<!-- excerpt: PATH -->` line before it",
                        block.line, block.language
                    ));
                }
                continue;
            };
            marked += 1;
            match mark {
                Mark::File => files.entry(path).or_default().push(block.text),
                Mark::Excerpt => {
                    let file = std::fs::read_to_string(root().join(&path)).unwrap_or_default();
                    if !file.contains(&block.text) {
                        problems.push(format!(
                            "{guide}:{}: this excerpt is not in {path} word for word",
                            block.line
                        ));
                    }
                }
            }
        }
        assert!(marked > 0, "{guide} has no marked code block");
        for (path, parts) in files {
            let expected = parts.join("\n");
            let file = root().join(&path);
            if write {
                std::fs::write(&file, &expected).unwrap_or_else(|error| panic!("{path}: {error}"));
            }
            let actual = std::fs::read_to_string(&file).unwrap_or_default();
            if actual != expected {
                let line = actual
                    .lines()
                    .zip(expected.lines())
                    .position(|(left, right)| left != right)
                    .map_or_else(
                        || actual.lines().count().min(expected.lines().count()) + 1,
                        |index| index + 1,
                    );
                problems.push(format!(
                    "{path} differs from its blocks in {guide} (first at line {line} of the \
                     file); edit both, or the page and then RL_WRITE_GUIDES=1 cargo test -p \
                     rl-examples --test guides"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The custom-domain crate is a workspace member, so `cargo test --workspace --all-features`
/// builds it with the features the other members turn on (rl-spaces' `testing`, rl-domains'
/// `grid-image`). A user's crate has them only if it asks: the crate must not use what they
/// gate, nor ask for them, or CI would pass a guide that fails as written.
#[test]
fn the_custom_domain_crate_uses_no_optional_feature_of_the_rl_crates() {
    let crate_dir = root().join("examples/custom-domain");
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).expect("its Cargo.toml");
    for line in manifest.lines().filter(|line| line.starts_with("rlrs-")) {
        assert!(
            !line.contains("features"),
            "examples/custom-domain/Cargo.toml asks an rl-* crate for features: {line}"
        );
    }
    let mut sources = Vec::new();
    let mut directories = vec![crate_dir.join("src"), crate_dir.join("tests")];
    while let Some(directory) = directories.pop() {
        for entry in std::fs::read_dir(&directory).expect("a directory of the crate") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                directories.push(path);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                sources.push(path);
            }
        }
    }
    assert!(sources.len() >= 3, "the crate's sources: {sources:?}");
    // What the features gate: `rl_spaces::testing` and rl-domains' `GridImage`.
    for path in &sources {
        let text = std::fs::read_to_string(path).expect("a source file");
        for gated in ["testing::", "GridImage"] {
            assert!(
                !text.contains(gated),
                "{} uses `{gated}`, which an optional feature gates",
                path.display()
            );
        }
    }
}

#[test]
fn blocks_and_marks_are_read_as_documented() {
    let page = "text\n<!-- file: a/b.rs -->\n```rs\nfn main() {}\n```\n\
                <!-- excerpt: c.toml -->\n```toml\n[x]\n```\n```sh\nls\n```\n";
    let found = blocks(page);
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].mark, Some((Mark::File, "a/b.rs".to_owned())));
    assert_eq!(found[0].text, "fn main() {}\n");
    assert_eq!(found[0].line, 3);
    assert_eq!(found[1].mark, Some((Mark::Excerpt, "c.toml".to_owned())));
    assert_eq!(
        (found[2].mark.as_ref(), found[2].language.as_str()),
        (None, "sh")
    );
}
