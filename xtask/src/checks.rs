//! The checks of what the workspace offers users, each a `cargo xtask` task and a `ci` step:
//! every feature of every library alone (`features`), the docs with every feature and with
//! each library's defaults (`rustdoc`), the declared `rust-version` against the dependencies
//! (`msrv`), and the crates as `cargo package` makes them (`package`).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex, PoisonError};

use xtask::Workspace;
use xtask::json::{self, Value};

use crate::members::{self, Member};
use crate::run::{self, say};

/// The cargo-hack `features` installs (under the target directory) when it is missing.
pub(crate) const CARGO_HACK_VERSION: &str = "0.6.46";

/// `cargo xtask features`: `cargo hack check --each-feature --no-dev-deps` over the published
/// libraries: each library builds with no features, with its defaults, with all, and with
/// each feature alone, without a warning. cargo-hack is installed into `<target>/tools` first
/// when it is not there (`cargo install --locked`, from crates.io).
pub(crate) fn features(workspace: &Workspace) -> Result<(), String> {
    let libraries = members::libraries(workspace)?;
    let hack = cargo_hack(workspace)?;
    let mut command = workspace.command(&hack);
    command.args(["hack", "check", "--each-feature", "--no-dev-deps"]);
    for library in &libraries {
        command.args(["-p", &library.name]);
    }
    let warnings = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&warnings);
    let mut running = String::new();
    let status = run::with_lines(
        &mut command,
        move |line| {
            let _ = std::io::stdout().write_all(line);
            let text = String::from_utf8_lossy(line);
            if let Some(what) = text.strip_prefix("info: running ") {
                running = what.trim().replace('`', "");
            } else if is_warning_summary(&text) {
                seen.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(format!("{} ({running})", text.trim()));
            }
        },
        || {},
    )?;
    if !status.success() {
        return Err(format!("cargo hack check failed ({status})"));
    }
    let warnings = warnings.lock().unwrap_or_else(PoisonError::into_inner);
    if warnings.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "cargo hack check: warnings with some features: {}",
            warnings.join("; ")
        ))
    }
}

/// cargo's line after a workspace crate's warnings: ``warning: `a2a-sse` (lib) generated 1
/// warning``. (Dependencies' warnings are capped: they never print it.)
fn is_warning_summary(line: &str) -> bool {
    line.starts_with("warning: `") && line.contains(" generated ") && line.contains(" warning")
}

/// `<target>/tools/bin/cargo-hack`, installed first when missing or of another version.
fn cargo_hack(workspace: &Workspace) -> Result<PathBuf, String> {
    let root = workspace.target_dir.join("tools");
    let exe = root
        .join("bin")
        .join(format!("cargo-hack{}", std::env::consts::EXE_SUFFIX));
    let installed = Command::new(&exe)
        .args(["hack", "--version"])
        .output()
        .is_ok_and(|out| {
            String::from_utf8_lossy(&out.stdout).trim()
                == format!("cargo-hack {CARGO_HACK_VERSION}")
        });
    if installed {
        return Ok(exe);
    }
    say(format!(
        "installing cargo-hack {CARGO_HACK_VERSION} into {}",
        root.display()
    ));
    let status = Command::new(&workspace.cargo)
        .args(["install", "cargo-hack", "--locked", "--version"])
        .arg(CARGO_HACK_VERSION)
        .arg("--root")
        .arg(&root)
        // Built in a folder of its own (removed after), not among the workspace's builds.
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .map_err(|e| format!("cannot run cargo install: {e}"))?;
    if status.success() {
        Ok(exe)
    } else {
        Err(format!(
            "cargo install cargo-hack {CARGO_HACK_VERSION} failed ({status}); it needs \
             crates.io"
        ))
    }
}

/// `cargo xtask rustdoc`: the docs of the whole workspace with every feature, then of each
/// published library alone with its default features (what a user who adds the crate
/// sees), each without a warning (`RUSTDOCFLAGS=-D warnings`: broken links, bad HTML).
pub(crate) fn rustdoc(workspace: &Workspace) -> Result<(), String> {
    doc(workspace, &["--workspace", "--all-features"])?;
    for library in members::libraries(workspace)? {
        doc(workspace, &["-p", &library.name])?;
    }
    Ok(())
}

fn doc(workspace: &Workspace, args: &[&str]) -> Result<(), String> {
    let shown = format!("cargo doc --no-deps --locked {}", args.join(" "));
    say(format!("$ RUSTDOCFLAGS='-D warnings' {shown}"));
    let status = workspace
        .cargo_command()
        .args(["doc", "--no-deps", "--locked"])
        .args(args)
        .env("RUSTDOCFLAGS", "-D warnings")
        .status()
        .map_err(|e| format!("cannot run cargo doc: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

/// `cargo xtask package`: `cargo package` of every published crate (the workspace's
/// dependencies among them packaged together, from a local registry), which builds each one
/// from its `.crate` file as a user would get it. `--allow-dirty`: it checks what is
/// packaged, not whether the checkout is committed. Without debug info (`CARGO_PROFILE_DEV_DEBUG=false`,
/// as the workspace builds its dependencies), so the dependencies' builds can be reused.
pub(crate) fn package(workspace: &Workspace) -> Result<(), String> {
    let published: Vec<Member> = members::members(workspace)?
        .into_iter()
        .filter(|m| m.publish)
        .collect();
    forget_unpacked(&published);
    // A target dir of its own, without our crates' builds of an earlier run: cargo takes a
    // registry crate's build as fresh whatever its source, and the crates verified here come
    // from a registry cargo makes of the just-packaged ones, at the same version each time.
    let target = workspace.target_dir.join("package-build");
    forget_builds(&target.join("debug"));
    let mut command = workspace.cargo_command();
    command
        .args(["package", "--locked", "--allow-dirty"])
        .env("CARGO_TARGET_DIR", &target);
    for member in &published {
        command.args(["-p", &member.name]);
    }
    let status = command
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .status()
        .map_err(|e| format!("cannot run cargo package: {e}"))?;
    if status.success() {
        let names: Vec<&str> = published.iter().map(|m| m.name.as_str()).collect();
        say(format!(
            "packaged and built from their .crate files: {}",
            names.join(", ")
        ));
        Ok(())
    } else {
        Err(format!("cargo package failed ({status})"))
    }
}

/// Removes what an earlier `cargo package` unpacked of our crates from its temporary registry
/// (`$CARGO_HOME/registry/src/-<hash>/<name>-<version>`): cargo unpacks a `.crate` there only
/// when the folder is absent, so a second run at the same version verified each crate against
/// its dependencies' sources of the first run (a module added since: "could not find ...").
fn forget_unpacked(published: &[Member]) {
    let home = std::env::var_os("CARGO_HOME").map_or_else(
        || std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cargo")),
        |h| Some(h.into()),
    );
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return;
    };
    let Ok(registries) = std::fs::read_dir(&src) else {
        return;
    };
    for registry in registries.flatten() {
        // Only the local registries cargo package makes; crates.io's is `index.crates.io-...`.
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        let Ok(unpacked) = std::fs::read_dir(registry.path()) else {
            continue;
        };
        for crate_dir in unpacked.flatten() {
            let name = crate_dir.file_name().to_string_lossy().into_owned();
            // `<name>-<version>`: the name, a dash, a digit.
            let ours = published.iter().any(|m| {
                name.strip_prefix(m.name.as_str())
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|version| version.starts_with(|c: char| c.is_ascii_digit()))
            });
            if ours {
                let _ = std::fs::remove_dir_all(crate_dir.path());
            }
        }
    }
}

/// Removes the builds of our crates (`a2a-*` fingerprints, `a2a_*` artifacts) from `profile`,
/// a profile folder of the package step's target dir; the dependencies' builds stay.
fn forget_builds(profile: &std::path::Path) {
    for (folder, prefixes) in [
        (".fingerprint", &["a2a-"][..]),
        ("deps", &["a2a_", "liba2a_"][..]),
    ] {
        let Ok(entries) = std::fs::read_dir(profile.join(folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if prefixes.iter().any(|p| name.starts_with(p)) {
                let path = entry.path();
                let _ = if path.is_dir() {
                    std::fs::remove_dir_all(path)
                } else {
                    std::fs::remove_file(path)
                };
            }
        }
    }
}

/// `cargo xtask msrv`: the workspace's `rust-version` holds for what it depends on: no
/// package in `Cargo.lock` declares a newer one. (The standard library's items newer than it
/// are clippy's `incompatible_msrv` lint, in the clippy step.)
pub(crate) fn msrv(workspace: &Workspace) -> Result<(), String> {
    let text = workspace.cargo_metadata(&["--locked"])?;
    let doc = json::parse(&text).map_err(|e| format!("`cargo metadata`: {e}"))?;
    let report = msrv_report(&doc)?;
    say(&report.summary);
    if report.newer.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "packages that need a newer Rust than the workspace's rust-version {}: {}",
            report.ours,
            report.newer.join(", ")
        ))
    }
}

/// What [`msrv`] found.
#[derive(Debug, PartialEq, Eq)]
struct MsrvReport {
    /// The workspace's rust-version.
    ours: String,
    /// `name version (rust-version X)` of each package that needs a newer Rust.
    newer: Vec<String>,
    /// One line: how many packages were held against it.
    summary: String,
}

fn msrv_report(doc: &Value) -> Result<MsrvReport, String> {
    let Some(Value::Array(packages)) = doc.get("packages") else {
        return Err("`cargo metadata` gave no `packages`".to_owned());
    };
    let members: Vec<&str> = match doc.get("workspace_members") {
        Some(Value::Array(ids)) => ids.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let ours = packages
        .iter()
        .filter(|p| members.contains(&id(p)))
        .filter_map(|p| version_of(p))
        .map(str::to_owned)
        .max_by_key(|v| version_key(v))
        .ok_or("no workspace member declares a rust-version")?;
    let mut newer = Vec::new();
    let mut declared = 0;
    for package in packages.iter().filter(|p| !members.contains(&id(p))) {
        let Some(version) = version_of(package) else {
            continue;
        };
        declared += 1;
        if version_key(version) > version_key(&ours) {
            let name = package.get("name").and_then(Value::as_str).unwrap_or("?");
            let release = package
                .get("version")
                .and_then(Value::as_str)
                .unwrap_or("?");
            newer.push(format!("{name} {release} (rust-version {version})"));
        }
    }
    let dependencies = packages.len() - members.len();
    Ok(MsrvReport {
        summary: format!(
            "rust-version {ours}: {dependencies} dependencies in Cargo.lock, {declared} declare \
             a rust-version, {} of them newer",
            newer.len()
        ),
        ours,
        newer,
    })
}

/// A package's id in `cargo metadata`.
fn id(package: &Value) -> &str {
    package
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// A package's `rust-version`, if it declares one.
fn version_of(package: &Value) -> Option<&str> {
    package.get("rust_version").and_then(Value::as_str)
}

/// `1.88` -> (1, 88, 0).
fn version_key(version: &str) -> (u32, u32, u32) {
    let mut parts = version
        .split('.')
        .map(|p| p.trim().parse::<u32>().unwrap_or(0));
    (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warning_summaries_are_told_from_other_lines() {
        assert!(is_warning_summary(
            "warning: `a2a-store-sql` (lib) generated 1 warning\n"
        ));
        assert!(is_warning_summary(
            "warning: `a2a-sse` (lib) generated 2 warnings (run `cargo fix --lib -p a2a-sse` to apply 1 suggestion)\n"
        ));
        assert!(!is_warning_summary(
            "warning: methods `wake_all` and `on_payload` are never used\n"
        ));
        assert!(!is_warning_summary("    Checking a2a-sse v0.1.0\n"));
    }

    #[test]
    fn dependencies_newer_than_the_workspace_rust_version_are_named() {
        let doc = json::parse(
            r#"{"workspace_members":["path+file:///w#a2a-sse@0.1.0"],"packages":[
                {"id":"path+file:///w#a2a-sse@0.1.0","name":"a2a-sse","version":"0.1.0","rust_version":"1.88"},
                {"id":"registry+x#bytes@1.10.1","name":"bytes","version":"1.10.1","rust_version":"1.39"},
                {"id":"registry+x#memchr@2.7.5","name":"memchr","version":"2.7.5","rust_version":null},
                {"id":"registry+x#serde-saphyr@0.1.0","name":"serde-saphyr","version":"0.1.0","rust_version":"1.89.0"}
            ]}"#,
        )
        .unwrap();
        assert_eq!(
            msrv_report(&doc).unwrap(),
            MsrvReport {
                ours: "1.88".to_owned(),
                newer: vec!["serde-saphyr 0.1.0 (rust-version 1.89.0)".to_owned()],
                summary: "rust-version 1.88: 3 dependencies in Cargo.lock, 2 declare a \
                          rust-version, 1 of them newer"
                    .to_owned(),
            }
        );
        assert_eq!(version_key("1.88"), (1, 88, 0));
        assert!(version_key("1.88.1") > version_key("1.88"));
    }
}
