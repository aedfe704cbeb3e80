//! The documents an outside user reads first stay whole: every Rust snippet of `docs/` and of the
//! crates' READMEs is compiled as a doc test (`src/lib.rs` includes the page), the README's
//! example table lists every example, its dependency block names crates that exist, and every
//! published crate carries its README and docs.rs settings.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The files directly in `dir` (relative to the root), sorted.
fn files(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot read {dir}: {e}"))
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    out.sort();
    out
}

/// The crates under `crates/` (their folders), sorted.
fn crate_dirs() -> Vec<PathBuf> {
    files("crates").into_iter().filter(|p| p.is_dir()).collect()
}

#[test]
fn every_page_with_a_rust_snippet_is_a_doc_test() {
    let lib = read(&root().join("tests/src/lib.rs"));
    let mut pages: Vec<PathBuf> = files("docs")
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.extend(crate_dirs().into_iter().map(|dir| dir.join("README.md")));
    let mut checked = 0;
    for page in pages.iter().filter(|p| p.exists()) {
        let text = read(page);
        if !text.contains("```rust") {
            continue;
        }
        checked += 1;
        let relative = page.strip_prefix(root()).unwrap().display().to_string();
        assert!(
            lib.contains(&format!("include_str!(\"../../{relative}\")")),
            "{relative} has a Rust snippet: include it in tests/src/lib.rs as a doc test"
        );
        // `ignore` hides a snippet from the compiler: give it hidden `# ` lines instead.
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.trim_start().starts_with("```rust,ignore"),
                "{relative}:{}: an ignored snippet; make it compile (hidden `# ` lines)",
                n + 1
            );
        }
    }
    assert!(checked >= 20, "only {checked} pages with Rust snippets");
}

#[test]
fn the_readme_lists_every_example() {
    let readme = read(&root().join("README.md"));
    let (_, table) = readme
        .split_once("### Examples\n")
        .expect("README.md has an `### Examples` section");
    let table = table.split("\n## ").next().unwrap_or_default();
    let mut examples = 0;
    for dir in crate_dirs() {
        let Ok(entries) = std::fs::read_dir(dir.join("examples")) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            examples += 1;
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let relative = path.strip_prefix(root()).unwrap().display().to_string();
            assert!(
                table.contains(&format!("| [`{name}`]({relative})")),
                "README.md's example table misses `{name}` ({relative})"
            );
        }
    }
    assert!(examples >= 10, "only {examples} examples found");
}

/// `a2a-server = { git = "https://github.com/a2a-rs/a2a-rs" }` and `# a2a-server = { path =
/// "../a2a-rs/crates/a2a-server" }`: each names a crate of this workspace, the git URL is the
/// workspace's repository, and the path ends in the crate's folder.
#[test]
fn the_readme_dependency_block_names_real_crates() {
    let readme = read(&root().join("README.md"));
    let manifest = read(&root().join("Cargo.toml"));
    let repository = manifest
        .lines()
        .find_map(|l| l.strip_prefix("repository = "))
        .expect("the workspace names its repository")
        .trim_matches('"');
    let (_, rest) = readme
        .split_once("```toml\n[dependencies]\n")
        .expect("README.md has a ```toml [dependencies] block");
    let (block, _) = rest.split_once("```").unwrap();
    let mut git = 0;
    let mut path = 0;
    for line in block.lines() {
        let line = line.trim_start_matches("# ");
        let Some((name, spec)) = line.split_once(" = ") else {
            continue;
        };
        if !name.starts_with("a2a-") {
            continue;
        }
        let dir = root().join("crates").join(name);
        assert!(
            dir.join("Cargo.toml").exists(),
            "the dependency block names {name}, which is not a crate here"
        );
        if spec.contains("git = ") {
            git += 1;
            assert_eq!(spec, format!("{{ git = \"{repository}\" }}"), "{line}");
        } else {
            path += 1;
            assert_eq!(
                spec,
                format!("{{ path = \"../a2a-rs/crates/{name}\" }}"),
                "{line}"
            );
        }
    }
    assert_eq!((git, path), (2, 2), "{block}");
}

/// Every crate a user can depend on has a README of its own (what crates.io shows), and
/// docs.rs builds its docs with every feature, each item marked with the features it needs.
#[test]
fn published_crates_have_a_readme_and_docs_rs_settings() {
    for dir in crate_dirs() {
        let manifest = read(&dir.join("Cargo.toml"));
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if manifest.contains("\npublish = false\n") {
            continue;
        }
        assert!(
            manifest.contains("\nreadme = \"README.md\"\n") && dir.join("README.md").exists(),
            "{name}: a README.md and `readme = \"README.md\"`"
        );
        if !dir.join("src/lib.rs").exists() {
            continue;
        }
        assert!(
            manifest.contains(
                "[package.metadata.docs.rs]\n# Every feature's items, each marked with the \
                 features it needs (`doc_cfg`, enabled under\n# `--cfg docsrs` only: nightly \
                 rustdoc, as docs.rs runs it).\nall-features = true\nrustdoc-args = \
                 [\"--cfg\", \"docsrs\"]\n"
            ),
            "{name}: docs.rs settings"
        );
        let lib = read(&dir.join("src/lib.rs"));
        let has_features = manifest.contains("\n[features]\n");
        assert_eq!(
            lib.contains("\n#![cfg_attr(docsrs, feature(doc_cfg))]\n"),
            has_features,
            "{name}: #![cfg_attr(docsrs, feature(doc_cfg))] marks feature-gated items, in \
             crates with features"
        );
    }
}
