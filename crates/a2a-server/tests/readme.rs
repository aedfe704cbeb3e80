//! The README's "Write an agent" program is `examples/quickstart.rs`, which `cargo test` and
//! `cargo build --examples` compile; this keeps the README's copy the same as that file.

use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn the_readme_program_is_the_quickstart_example() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = read(&crate_dir.join("../../README.md"));
    let example = read(&crate_dir.join("examples/quickstart.rs"));

    let (_, section) = readme
        .split_once("\n## Write an agent\n")
        .expect("README.md has a `## Write an agent` section");
    let (_, block) = section
        .split_once("```rust,ignore\n")
        .expect("the section has a ```rust,ignore block");
    let (program, _) = block.split_once("```").expect("the block is closed");

    // The example without its `//!` header and the blank line after it.
    let body: String = example
        .lines()
        .skip_while(|line| line.starts_with("//!"))
        .skip_while(|line| line.is_empty())
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(body.contains("impl Agent for Hello"), "{body}");
    assert_eq!(
        program, body,
        "README.md's `Write an agent` program differs from examples/quickstart.rs"
    );
}
