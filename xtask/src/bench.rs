//! `cargo xtask bench [OPTIONS]`: a2a-server against a raw hyper floor and the official SDKs.
//!
//! Builds the `a2a-bench` crate in release mode (its binaries: the floor server, the bench
//! server, the load generator and the driver) and runs the driver, which starts every server as
//! its own process on 127.0.0.1, one after another, and prints req/s, latency, server CPU per
//! request, SSE events/s and RSS figures with their ratios to the floor. Not part of `ci`: it
//! takes a few minutes and its figures depend on the machine. `cargo xtask bench --help` lists
//! the options; `docs/benchmarks.md` has the latest figures and the goals.

use std::process::Command;

/// Builds and runs the bench driver with `args` (a leading `--` is dropped).
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let args = match args.first().map(String::as_str) {
        Some("--") => &args[1..],
        _ => args,
    };
    let root = crate::project_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let build = ["build", "--release", "-p", "a2a-bench", "--bins"];
    eprintln!("==> cargo {}", build.join(" "));
    let status = Command::new(&cargo)
        .args(build)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot start {cargo}: {e}"))?;
    if !status.success() {
        return Err(format!("`cargo {}` failed ({status})", build.join(" ")));
    }
    // `cargo run` finds the binary wherever the target directory is; the driver finds the other
    // binaries next to itself.
    let status = Command::new(&cargo)
        .args([
            "run",
            "--quiet",
            "--release",
            "-p",
            "a2a-bench",
            "--bin",
            "a2a-bench",
            "--",
            "--root",
        ])
        .arg(&root)
        .args(args)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot start {cargo}: {e}"))?;
    match status.code() {
        Some(0) => Ok(()),
        Some(2) => Err("bench: the floor or a2a-rs did not measure end to end (see above)".into()),
        _ => Err(format!("bench: the driver failed ({status})")),
    }
}
