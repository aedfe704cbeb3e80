//! The layout of `src/` stays as docs/architecture.md describes it: one file per command under
//! `src/commands/`, and no command importing another, nor a shared module importing a command
//! (so no module circle can form between them).

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn commands_import_no_command_and_shared_modules_import_none() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let commands = src.join("commands");
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let relative = file.strip_prefix(&src).unwrap().display().to_string();
        if file.starts_with(&commands) {
            // A command reaches the shared modules by `crate::`, its own children by name.
            for forbidden in ["crate::commands", "super::super::"] {
                if text.contains(forbidden) {
                    wrong.push(format!("{relative} names {forbidden}"));
                }
            }
        } else if relative != "main.rs" && text.contains("crate::commands") {
            wrong.push(format!("{relative} (shared) names crate::commands"));
        }
    }
    assert!(files.len() > 30, "{files:?}");
    assert!(wrong.is_empty(), "{wrong:#?}");
}
