//! Where the workspace is, found at run time.
//!
//! The xtask binary may have been built for another checkout (two checkouts sharing one
//! `CARGO_TARGET_DIR` share one `target/debug/xtask`), so nothing here comes from the compile-time
//! `CARGO_MANIFEST_DIR`: the root and the target directory are what `cargo metadata` says for the
//! current directory, and the cargo to run is `$CARGO` only while that file exists.

use std::ffi::{OsStr, OsString};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::json;

/// The workspace the xtask runs for.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Workspace {
    /// The workspace root (the folder of the root `Cargo.toml`), absolute.
    pub root: PathBuf,
    /// Cargo's target directory for this workspace (`CARGO_TARGET_DIR`, `build.target-dir` or
    /// `<root>/target`), absolute. Everything the xtask writes goes below it.
    pub target_dir: PathBuf,
    /// The cargo program to run.
    pub cargo: OsString,
}

impl Workspace {
    /// The workspace of the current directory, as `cargo metadata` reports it; outside any
    /// workspace, the one `cargo run` was invoked for (the runtime `CARGO_MANIFEST_DIR` it sets).
    pub fn discover() -> Result<Self, String> {
        let cargo = cargo_program(std::env::var_os("CARGO"));
        let here = std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?;
        match Self::metadata(&cargo, &here, None) {
            Ok(found) => Ok(found),
            Err(first) => match std::env::var_os("CARGO_MANIFEST_DIR") {
                Some(dir) => {
                    let manifest = PathBuf::from(dir).join("Cargo.toml");
                    Self::metadata(&cargo, &here, Some(&manifest))
                        .map_err(|e| format!("{first}; and for {}: {e}", manifest.display()))
                }
                None => Err(first),
            },
        }
    }

    /// Runs `cargo metadata --no-deps` in `dir` (for `manifest`, if given) and reads the
    /// workspace root and target directory from it.
    fn metadata(cargo: &OsString, dir: &Path, manifest: Option<&Path>) -> Result<Self, String> {
        let mut args: Vec<&OsStr> = vec!["--no-deps".as_ref(), "--offline".as_ref()];
        if let Some(manifest) = manifest {
            args.extend(["--manifest-path".as_ref(), manifest.as_os_str()]);
        }
        let text = cargo_metadata(cargo, dir, &args).map_err(|why| {
            format!(
                "no cargo workspace at {} (`cargo metadata` failed: {why})",
                dir.display()
            )
        })?;
        Self::from_metadata(&text, cargo.clone())
    }

    /// `cargo metadata --format-version 1 <args>` at the workspace root: its JSON, or why not.
    pub fn cargo_metadata(&self, args: &[&str]) -> Result<String, String> {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        cargo_metadata(&self.cargo, &self.root, &args)
            .map_err(|why| format!("`cargo metadata` failed: {why}"))
    }

    /// Reads `workspace_root` and `target_directory` from `cargo metadata` output.
    pub fn from_metadata(text: &str, cargo: OsString) -> Result<Self, String> {
        let doc = json::parse(text).map_err(|e| format!("`cargo metadata`: {e}"))?;
        let path = |key: &str| {
            doc.get(key)
                .and_then(json::Value::as_str)
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .ok_or_else(|| format!("`cargo metadata` gave no absolute `{key}`"))
        };
        Ok(Workspace {
            root: path("workspace_root")?,
            target_dir: path("target_directory")?,
            cargo,
        })
    }

    /// `cargo` at the workspace root, with `CARGO_TARGET_DIR` set to [`Self::target_dir`] (the
    /// same folder cargo would pick, spelled out for the tools it runs).
    pub fn cargo_command(&self) -> Command {
        self.command(&self.cargo)
    }

    /// `program` at the workspace root, with `CARGO_TARGET_DIR` set to [`Self::target_dir`] and
    /// `CARGO` to [`Self::cargo`].
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(program);
        command
            .current_dir(&self.root)
            .env("CARGO_TARGET_DIR", &self.target_dir)
            .env("CARGO", &self.cargo);
        command
    }
}

/// The `cargo` arguments with which xtask builds what it then runs (`xtask-spec`, the interop
/// binaries): the feature set of `cargo test --workspace --all-features`, the test step of
/// `cargo xtask ci`, so that these builds reuse that step's artifacts instead of building
/// `a2a-types` and everything above it again with other features. That takes every feature
/// (`--workspace --all-features`) and the dev-dependencies' features, which cargo adds only when
/// an example, test or bench is built: hence the empty example `dev_features` of `xtask-spec`.
/// Add the targets (`--bin NAME`, `--example NAME`) and read the executables with
/// [`built_executable`].
pub const BUILD_ARGS: &[&str] = &[
    "build",
    "--workspace",
    "--all-features",
    "--locked",
    "--message-format=json-render-diagnostics",
    "--example",
    "dev_features",
];

/// The executable of the target `name`, from the output of `cargo build --message-format json`.
pub fn built_executable(stdout: &str, name: &str) -> Result<PathBuf, String> {
    stdout
        .lines()
        .filter_map(|line| json::parse(line).ok())
        .filter(|msg| {
            let reason = msg.get("reason").and_then(json::Value::as_str);
            let target = msg.get("target").and_then(|t| t.get("name"));
            reason == Some("compiler-artifact")
                && target.and_then(json::Value::as_str) == Some(name)
        })
        .find_map(|msg| msg.get("executable")?.as_str().map(PathBuf::from))
        .ok_or_else(|| format!("cargo build did not report the {name} executable"))
}

/// Runs `cargo metadata --format-version 1 <args>` in `dir`: its output, or the first line of
/// its error.
fn cargo_metadata(cargo: &OsStr, dir: &Path, args: &[&OsStr]) -> Result<String, String> {
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| {
            format!(
                "cannot start {}: {e} (is cargo on PATH?)",
                Path::new(cargo).display()
            )
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let why = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        return Err(why.trim().to_owned());
    }
    String::from_utf8(output.stdout)
        .map_err(|_| "`cargo metadata` printed something that is not UTF-8".to_owned())
}

/// The cargo to run: `$CARGO` (the cargo that started us) when that file exists, else `cargo`
/// from PATH (a toolchain update or a moved checkout can leave `$CARGO` pointing nowhere).
pub fn cargo_program(from_env: Option<OsString>) -> OsString {
    from_env
        .filter(|path| !path.is_empty() && Path::new(path).is_file())
        .unwrap_or_else(|| OsString::from("cargo"))
}

/// `path` made absolute (against `base` when relative), with `.` and `..` resolved: through the
/// file system when the path exists, textually when it does not.
pub fn absolute(base: &Path, path: &Path) -> PathBuf {
    let joined = base.join(path);
    if let Ok(real) = joined.canonicalize() {
        return real;
    }
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_cargo_path_falls_back_to_cargo_on_path() {
        assert_eq!(
            cargo_program(Some("/nonexistent/bin/cargo".into())),
            OsString::from("cargo")
        );
        assert_eq!(cargo_program(Some("".into())), OsString::from("cargo"));
        assert_eq!(cargo_program(None), OsString::from("cargo"));
        // A directory is not a program either.
        let dir = std::env::temp_dir().into_os_string();
        assert_eq!(cargo_program(Some(dir)), OsString::from("cargo"));
    }

    #[test]
    fn an_existing_cargo_path_is_kept() {
        let exe = std::env::current_exe().unwrap().into_os_string();
        assert_eq!(cargo_program(Some(exe.clone())), exe);
    }

    #[test]
    fn root_and_target_dir_come_from_metadata() {
        let text = r#"{"packages":[],"target_directory":"/elsewhere/target","workspace_root":"/w/repo","version":1}"#;
        let ws = Workspace::from_metadata(text, "cargo".into()).unwrap();
        assert_eq!(ws.root, Path::new("/w/repo"));
        assert_eq!(ws.target_dir, Path::new("/elsewhere/target"));
        assert_eq!(
            Workspace::from_metadata(r#"{"workspace_root":"rel"}"#, "cargo".into()).unwrap_err(),
            "`cargo metadata` gave no absolute `workspace_root`"
        );
        assert_eq!(
            Workspace::from_metadata("{", "cargo".into()).unwrap_err(),
            "`cargo metadata`: invalid JSON at byte 1: expected a member name"
        );
    }

    #[test]
    fn executables_are_read_from_cargo_messages() {
        let stdout = concat!(
            r#"{"reason":"compiler-artifact","target":{"name":"a2a-types","kind":["lib"]},"executable":null}"#,
            "\n",
            r#"{"reason":"compiler-artifact","target":{"name":"xtask-spec","kind":["bin"]},"executable":"/t/debug/xtask-spec"}"#,
            "\nnot json\n",
            r#"{"reason":"build-finished","success":true}"#,
            "\n"
        );
        assert_eq!(
            built_executable(stdout, "xtask-spec"),
            Ok(PathBuf::from("/t/debug/xtask-spec"))
        );
        assert_eq!(
            built_executable(stdout, "a2a-types"),
            Err("cargo build did not report the a2a-types executable".to_owned())
        );
    }

    /// The test runs in `xtask/` (cargo sets the directory): the root is its parent, at run time.
    #[test]
    fn discovers_the_workspace_of_the_current_directory() {
        let ws = Workspace::discover().unwrap();
        let here = std::env::current_dir().unwrap().canonicalize().unwrap();
        assert_eq!(ws.root.canonicalize().unwrap(), here.parent().unwrap());
        assert!(ws.target_dir.is_absolute());
    }

    #[test]
    fn absolute_resolves_dot_dot_even_for_missing_folders() {
        assert_eq!(
            absolute(
                Path::new("/nonexistent/a/repo"),
                Path::new("../shared/./spec")
            ),
            Path::new("/nonexistent/a/shared/spec")
        );
        assert_eq!(
            absolute(Path::new("/x"), Path::new("/nonexistent/spec")),
            Path::new("/nonexistent/spec")
        );
    }
}
