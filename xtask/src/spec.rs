//! The A2A spec files the checks read, and where they are.
//!
//! They are not copied into the project: they are read from `A2A_SPEC_DIR`, by default
//! `../shared/spec` from the workspace root. [`SpecDir::locate`] resolves that to an absolute
//! folder and checks that every file in [`FILES`] is there; when one is not, its error is one
//! line that names the folder and says where the files come from.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::workspace::absolute;

/// The environment variable naming the spec folder.
pub const ENV: &str = "A2A_SPEC_DIR";

/// The default spec folder, relative to the workspace root.
pub const DEFAULT: &str = "../shared/spec";

/// One spec file a check reads.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct SpecFile {
    /// The path inside the spec folder.
    pub path: &'static str,
    /// Where it comes from in github.com/a2aproject/A2A.
    pub origin: &'static str,
}

/// Every file the checks read (`cargo xtask conformance`, the `a2a-tests` schema tests), from
/// the public repository github.com/a2aproject/A2A (`docs/conformance.md` has the commands).
pub const FILES: &[SpecFile] = &[
    SpecFile {
        path: "v1.0/a2a.proto",
        origin: "specification/a2a.proto at tag v1.0.1",
    },
    SpecFile {
        path: "v1.0/a2a.json",
        origin: "v1.0.1/spec/a2a.json on branch gh-pages",
    },
    SpecFile {
        path: "v0.3/a2a.json",
        origin: "specification/json/a2a.json at tag v0.3.0",
    },
    SpecFile {
        path: "v0.2/a2a.json",
        origin: "specification/json/a2a.json at tag v0.2.6",
    },
    SpecFile {
        path: "v0.1/a2a.json",
        origin: "specification/json/a2a.json at tag v0.1.0",
    },
];

/// Where the spec folder is, and how it was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpecDir {
    /// The folder, absolute.
    pub path: PathBuf,
    /// How it was chosen, for messages: `A2A_SPEC_DIR`, `--spec-dir`, or the default.
    pub source: Source,
}

/// How the spec folder was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// From `A2A_SPEC_DIR`.
    Env,
    /// From a command-line flag (`--spec-dir`).
    Flag,
    /// `../shared/spec` from the workspace root, `A2A_SPEC_DIR` being unset.
    Default,
}

impl SpecDir {
    /// The folder `A2A_SPEC_DIR` names (a relative one is taken from `cwd`), or `../shared/spec`
    /// from `root`; not checked.
    pub fn resolve(root: &Path, env: Option<OsString>, cwd: &Path) -> SpecDir {
        match env.filter(|v| !v.is_empty()) {
            Some(dir) => SpecDir::named(cwd, Path::new(&dir), Source::Env),
            None => SpecDir::named(root, Path::new(DEFAULT), Source::Default),
        }
    }

    /// The folder `path` (taken from `base` when relative), chosen by `source`; not checked.
    pub fn named(base: &Path, path: &Path, source: Source) -> SpecDir {
        SpecDir {
            path: absolute(base, path),
            source,
        }
    }

    /// [`Self::resolve`] from this process's environment and directory, then [`Self::check`].
    pub fn locate(root: &Path) -> Result<SpecDir, String> {
        let dir = SpecDir::locate_unchecked(root);
        dir.check()?;
        Ok(dir)
    }

    /// [`Self::resolve`] from this process's environment and directory.
    pub fn locate_unchecked(root: &Path) -> SpecDir {
        let cwd = std::env::current_dir().unwrap_or_else(|_| root.to_owned());
        SpecDir::resolve(root, std::env::var_os(ENV), &cwd)
    }

    /// `Ok` when every file in [`FILES`] is in the folder; else the one-line error.
    pub fn check(&self) -> Result<(), String> {
        let missing: Vec<&SpecFile> = FILES
            .iter()
            .filter(|f| !self.path.join(f.path).is_file())
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(self.missing(&missing))
        }
    }

    /// The path of the spec file `rel` (one of [`FILES`]) when it is there; else the one-line
    /// error for that file.
    pub fn file(&self, rel: &str) -> Result<PathBuf, String> {
        let Some(file) = FILES.iter().find(|f| f.path == rel) else {
            return Err(format!(
                "{rel} is not one of the spec files xtask checks: add it to xtask::spec::FILES"
            ));
        };
        let path = self.path.join(rel);
        if path.is_file() {
            Ok(path)
        } else {
            Err(self.missing(&[file]))
        }
    }

    /// The one-line error for the `missing` files: which, where, and where they come from.
    fn missing(&self, missing: &[&SpecFile]) -> String {
        let (source, setting) = match self.source {
            Source::Env => (ENV.to_owned(), ENV),
            Source::Flag => ("--spec-dir".to_owned(), "--spec-dir"),
            Source::Default => (
                format!("{ENV} unset, so {DEFAULT} from the workspace root"),
                ENV,
            ),
        };
        let names: Vec<&str> = missing.iter().map(|f| f.path).collect();
        let (what, them) = match missing.len() {
            n if n == FILES.len() => ("no A2A spec files".to_owned(), "them"),
            1 => (format!("A2A spec file {} missing", names[0]), "it"),
            _ => (
                format!("A2A spec files missing ({})", names.join(", ")),
                "them",
            ),
        };
        let fetch: Vec<String> = missing
            .iter()
            .map(|f| format!("{} into {}", f.origin, f.path))
            .collect();
        format!(
            "{what} in {} ({source}): point {setting} at a folder holding {them}, or get \
             {them} from github.com/a2aproject/A2A: {}; see docs/conformance.md",
            self.path.display(),
            fetch.join(", ")
        )
    }
}

/// For tests that read the spec: the spec file `rel` (one of [`FILES`]) of the workspace cargo
/// runs the test in, from `A2A_SPEC_DIR` or the default folder.
///
/// # Panics
/// When the file is not there, with the one-line message of [`SpecDir::file`]: a test without
/// its spec input fails, it never skips.
pub fn test_file(rel: &str) -> PathBuf {
    let root = crate::Workspace::discover()
        .unwrap_or_else(|e| panic!("{e}"))
        .root;
    SpecDir::locate_unchecked(&root)
        .file(rel)
        .unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder holding `files` (empty ones), removed on drop.
    struct Folder(PathBuf);

    impl Folder {
        fn new(name: &str, files: &[&str]) -> Self {
            let dir =
                std::env::temp_dir().join(format!("xtask-spec-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            for file in files {
                let path = dir.join(file);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, "").unwrap();
            }
            Folder(dir)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn the_default_is_shared_spec_beside_the_workspace() {
        let dir = SpecDir::resolve(Path::new("/nonexistent/x/repo"), None, Path::new("/cwd"));
        assert_eq!(
            dir,
            SpecDir {
                path: PathBuf::from("/nonexistent/x/shared/spec"),
                source: Source::Default,
            }
        );
        // An empty variable counts as unset.
        let empty = SpecDir::resolve(
            Path::new("/nonexistent/x/repo"),
            Some("".into()),
            Path::new("/cwd"),
        );
        assert_eq!(empty, dir);
    }

    #[test]
    fn a_relative_a2a_spec_dir_is_taken_from_the_current_directory() {
        let dir = SpecDir::resolve(
            Path::new("/nonexistent/repo"),
            Some("../spec".into()),
            Path::new("/nonexistent/cwd/sub"),
        );
        assert_eq!(dir.path, Path::new("/nonexistent/cwd/spec"));
        assert_eq!(dir.source, Source::Env);
    }

    #[test]
    fn a_missing_folder_is_one_line_naming_it_and_the_sources() {
        let dir = SpecDir::resolve(Path::new("/nonexistent/x/repo"), None, Path::new("/"));
        assert_eq!(
            dir.check().unwrap_err(),
            "no A2A spec files in /nonexistent/x/shared/spec (A2A_SPEC_DIR unset, so \
             ../shared/spec from the workspace root): point A2A_SPEC_DIR at a folder holding \
             them, or get them from github.com/a2aproject/A2A: specification/a2a.proto at tag v1.0.1 \
             into v1.0/a2a.proto, v1.0.1/spec/a2a.json on branch gh-pages into v1.0/a2a.json, \
             specification/json/a2a.json at tag v0.3.0 into v0.3/a2a.json, \
             specification/json/a2a.json at tag v0.2.6 into v0.2/a2a.json, \
             specification/json/a2a.json at tag v0.1.0 into v0.1/a2a.json; see docs/conformance.md"
        );
        let named = SpecDir::resolve(Path::new("/r"), Some("/nonexistent".into()), Path::new("/"));
        let message = named.check().unwrap_err();
        assert!(
            message.starts_with("no A2A spec files in /nonexistent (A2A_SPEC_DIR): "),
            "{message}"
        );
        assert!(!message.contains('\n'), "{message}");
        let flag = SpecDir::named(Path::new("/"), Path::new("/nonexistent"), Source::Flag);
        let message = flag.check().unwrap_err();
        assert!(
            message.starts_with(
                "no A2A spec files in /nonexistent (--spec-dir): point --spec-dir at a folder"
            ),
            "{message}"
        );
    }

    /// The folder alone is not enough: each file is checked.
    #[test]
    fn each_missing_file_is_named() {
        let folder = Folder::new(
            "partial",
            &["v1.0/a2a.proto", "v1.0/a2a.json", "v0.3/a2a.json"],
        );
        let dir = SpecDir::resolve(
            Path::new("/"),
            Some(folder.0.clone().into()),
            Path::new("/"),
        );
        assert_eq!(
            dir.check().unwrap_err(),
            format!(
                "A2A spec files missing (v0.2/a2a.json, v0.1/a2a.json) in {} (A2A_SPEC_DIR): \
                 point A2A_SPEC_DIR at a folder holding them, or get them from \
                 github.com/a2aproject/A2A: specification/json/a2a.json at tag v0.2.6 into \
                 v0.2/a2a.json, specification/json/a2a.json at tag v0.1.0 into v0.1/a2a.json; \
                 see docs/conformance.md",
                folder.0.canonicalize().unwrap().display()
            )
        );
        assert_eq!(
            dir.file("v0.3/a2a.json"),
            Ok(folder.0.canonicalize().unwrap().join("v0.3/a2a.json"))
        );
        assert_eq!(
            dir.file("v0.1/a2a.json").unwrap_err(),
            format!(
                "A2A spec file v0.1/a2a.json missing in {} (A2A_SPEC_DIR): point A2A_SPEC_DIR \
                 at a folder holding it, or get it from github.com/a2aproject/A2A: \
                 specification/json/a2a.json at tag v0.1.0 into v0.1/a2a.json; see \
                 docs/conformance.md",
                folder.0.canonicalize().unwrap().display()
            )
        );
        assert_eq!(
            dir.file("v9/a2a.json").unwrap_err(),
            "v9/a2a.json is not one of the spec files xtask checks: add it to xtask::spec::FILES"
        );
        let full = Folder::new("full", &FILES.iter().map(|f| f.path).collect::<Vec<_>>());
        let dir = SpecDir::resolve(Path::new("/"), Some(full.0.clone().into()), Path::new("/"));
        assert_eq!(dir.check(), Ok(()));
    }
}
