//! `cargo xtask bench [OPTIONS]`: a2a-server against a raw hyper floor and the official SDKs.
//!
//! Builds the `a2a-bench` crate in release mode (its binaries: the floors, the bench server,
//! the load generator and the driver) with the workspace's release profile, what a user's
//! `cargo build --release` gives, and the `a2a` binary (`-p a2a-cli`) when its column
//! (`a2a-cli`) is selected, and runs the driver, which starts every server as its own
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
    let also: &[&[&str]] = if wants_cli(args) { &[&CLI_BUILD] } else { &[] };
    match build_and_run(workspace, "a2a-bench", &root, also)? {
        Some(0) => Ok(()),
        Some(2) => Err(
            "bench: a floor or one of our servers did not measure end to end (see above)".into(),
        ),
        _ => Err("bench: the driver failed (see above)".to_owned()),
    }
}

/// The build of the `a2a` binary, for the driver's `a2a-cli` column (next to the bench
/// binaries in the release folder, where the driver looks for it).
const CLI_BUILD: [&str; 6] = ["build", "--release", "-p", "a2a-cli", "--bin", "a2a"];

/// Whether the driver's arguments select the `a2a-cli` column: without `--only` every column
/// runs; with it (the last one counts, `--only LIST` or `--only=LIST`), when its list names
/// `a2a-cli`. `--scale-out` runs no column.
fn wants_cli(args: &[String]) -> bool {
    if args.iter().any(|a| a == "--scale-out") {
        return false;
    }
    let mut only = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--only" {
            only = it.next().map(String::as_str);
        } else if let Some(list) = arg.strip_prefix("--only=") {
            only = Some(list);
        }
    }
    only.is_none_or(|list| list.split(',').any(|name| name.trim() == "a2a-cli"))
}

/// Builds the `a2a-bench` binaries in release mode, then runs each of the cargo commands
/// `also` (further builds the driver needs), and runs `bin` with `args` (output inherited); its
/// exit code.
pub(crate) fn build_and_run(
    workspace: &Workspace,
    bin: &str,
    args: &[String],
    also: &[&[&str]],
) -> Result<Option<i32>, String> {
    let build: &[&str] = &["build", "--release", "-p", "a2a-bench", "--bins"];
    for build in std::iter::once(build).chain(also.iter().copied()) {
        eprintln!("==> cargo {}", build.join(" "));
        let status = status_of(workspace.cargo_command().args(build), workspace)?;
        if !status.success() {
            return Err(format!("`cargo {}` failed ({status})", build.join(" ")));
        }
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

#[cfg(test)]
mod tests {
    use super::wants_cli;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|a| (*a).to_owned()).collect()
    }

    #[test]
    fn the_a2a_binary_is_built_when_its_column_runs() {
        assert!(wants_cli(&args(&[])));
        assert!(wants_cli(&args(&["--duration", "2"])));
        assert!(wants_cli(&args(&["--only", "floor-json,a2a-cli"])));
        assert!(wants_cli(&args(&["--only=a2a-rs, a2a-cli"])));
        assert!(!wants_cli(&args(&["--only", "floor-json,a2a-rs,sqlite"])));
        // The last --only counts, as in the driver.
        assert!(!wants_cli(&args(&[
            "--only", "a2a-cli", "--only", "a2a-rs"
        ])));
        assert!(!wants_cli(&args(&["--scale-out", "--replicas", "1"])));
    }
}
