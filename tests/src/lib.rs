//! Shared helpers of the workspace integration tests (fixture loading).

use std::path::{Path, PathBuf};

/// The folder that holds the golden fixtures, `tests/fixtures/`.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every `*.json` file directly under `tests/fixtures/<sub>/`, sorted by name.
///
/// # Panics
/// When the folder cannot be read: a test without its fixtures must fail loudly.
pub fn fixture_files(sub: &str) -> Vec<PathBuf> {
    let dir = fixtures_dir().join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read fixture folder {}: {e}", dir.display()))
        .map(|entry| entry.expect("fixture folder entry").path())
        .filter(|p| p.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}
