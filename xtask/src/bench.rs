//! `cargo xtask bench [OPTIONS]`: a2a-server against a raw hyper floor and the official SDKs.
//!
//! Builds the `a2a-bench` crate in release mode (its binaries: the floors, the bench server,
//! the load generator and the driver) with the workspace's release profile, what a user's
//! `cargo build --release` gives, and runs the driver, which starts every server as its own
//! process on 127.0.0.1, one after another, and prints req/s, latency and server CPU per
//! request (JSON-RPC, HTTP+JSON, gRPC), instructions per request (callgrind), the SSE stream's
//! time and RSS figures with their ratios to the floor. Not part of `ci`: it
//! takes a few minutes and its figures depend on the machine. `cargo xtask bench --help` lists
//! the options; `docs/benchmarks.md` has the latest figures and the goals.

use std::process::Command;

use xtask::Workspace;

/// Builds and runs the bench driver with `args` (a leading `--` is dropped).
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result<(), String> {
    let args = match args.first().map(String::as_str) {
        Some("--") => &args[1..],
        _ => args,
    };
    if args.iter().any(|a| a == "--help" || a == "-h") {
        // The driver's own help text, read from its source tree: nothing is built.
        let usage = workspace.root.join("crates/a2a-bench/src/usage.txt");
        let text = std::fs::read_to_string(&usage)
            .map_err(|e| format!("bench --help: {}: {e}", usage.display()))?;
        eprintln!("{}", text.trim());
        return Ok(());
    }
    let mut root = vec!["--root".to_owned(), workspace.root.display().to_string()];
    root.extend_from_slice(args);
    match build_and_run(workspace, "a2a-bench", &root)? {
        Some(0) => Ok(()),
        Some(2) => Err("bench: the floor or a2a-rs did not measure end to end (see above)".into()),
        _ => Err("bench: the driver failed (see above)".to_owned()),
    }
}

/// Builds the `a2a-bench` binaries in release mode and runs `bin` with `args` (output
/// inherited); its exit code.
pub(crate) fn build_and_run(
    workspace: &Workspace,
    bin: &str,
    args: &[String],
) -> Result<Option<i32>, String> {
    let build = ["build", "--release", "-p", "a2a-bench", "--bins"];
    eprintln!("==> cargo {}", build.join(" "));
    let status = status_of(workspace.cargo_command().args(build), workspace)?;
    if !status.success() {
        return Err(format!("`cargo {}` failed ({status})", build.join(" ")));
    }
    // `cargo run` finds the binary wherever the target directory is; the drivers find the
    // other binaries next to themselves, and the SDK installs of `cargo xtask interop` where we
    // tell them.
    let mut run = workspace.cargo_command();
    run.args([
        "run",
        "--quiet",
        "--release",
        "-p",
        "a2a-bench",
        "--bin",
        bin,
        "--",
    ])
    .args(args);
    let interop = crate::interop::work_dir(workspace);
    for (var, dir) in [
        ("A2A_INTEROP_VENV", "venv"),
        ("A2A_INTEROP_NODE_MODULES", "node_modules"),
    ] {
        if std::env::var_os(var).is_none() {
            run.env(var, interop.join(dir));
        }
    }
    Ok(status_of(&mut run, workspace)?.code())
}

/// Runs `command` with inherited output.
fn status_of(
    command: &mut Command,
    workspace: &Workspace,
) -> Result<std::process::ExitStatus, String> {
    command.status().map_err(|e| {
        format!(
            "cannot start {}: {e}",
            std::path::Path::new(&workspace.cargo).display()
        )
    })
}
