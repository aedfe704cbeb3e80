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

/// The port an example listens on when given none: the `127.0.0.1:PORT` literal of its code
/// (its `//!` header only shows how to run it); `None` for one that takes a free port.
fn default_port(example: &str) -> Option<u16> {
    let ports: Vec<u16> = example
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| line.split("\"127.0.0.1:").skip(1))
        .filter_map(|rest| rest.split('"').next()?.parse().ok())
        .filter(|port| *port != 0)
        .collect();
    assert!(ports.len() <= 1, "more than one default port: {ports:?}");
    ports.first().copied()
}

#[test]
fn each_example_listens_on_a_port_of_its_own_that_the_readme_names() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = read(&crate_dir.join("../../README.md"));
    let mut taken = vec![("`a2a serve` and `a2a mock`".to_owned(), 7420)];
    for krate in ["a2a-server", "a2a-grpc", "a2a-otel"] {
        let dir = crate_dir.join("..").join(krate).join("examples");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "rs"))
            .collect();
        files.sort();
        for path in files {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let Some(port) = default_port(&read(&path)) else {
                continue;
            };
            if let Some((other, _)) = taken.iter().find(|(_, p)| *p == port) {
                panic!("the example {name} listens on {port}, as {other} does");
            }
            assert!(
                readme.contains(&format!("`{name}` {port}")),
                "README.md does not say that the example {name} listens on {port}"
            );
            taken.push((format!("the example {name}"), port));
        }
    }
    assert!(taken.len() > 5, "{taken:?}");
}
