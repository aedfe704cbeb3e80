//! `cargo xtask api`: no type of another crate in a library's public API but those it chose.
//!
//! What cargo-check-external-types does, on the stable toolchain. That tool needs one pinned
//! nightly; this task reads the same rustdoc JSON (`--output-format json`, unstable), which
//! the stable rustdoc writes when `RUSTC_BOOTSTRAP=1` is in its environment. The variable is
//! set for rustdoc alone, by running this binary as `RUSTDOC` (see [`wrap_rustdoc`]): set for
//! all of cargo, it would rebuild every crate whose build script watches it (proc-macro2,
//! thiserror, anyhow) and then everything above them.
//!
//! From each library's root, the task walks what users can reach (public modules, items,
//! fields, variants, their functions' signatures, generics and bounds, trait impls and their
//! items; not the impls rustdoc makes up: auto traits and blanket impls) and collects every
//! type or trait that belongs to another crate: not std, core or alloc, not a crate of this
//! workspace. Each must match the library's `allowed_external_types` (cargo-check-external-
//! types' table in `[package.metadata.cargo_check_external_types]`; `crate::path::Name`, or
//! `crate::*` for a whole crate, written as rustdoc names the item where it is defined). An
//! allowed entry that matches nothing fails too: the list says what the API shows, no more.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::OsStr;
use std::process::ExitCode;

use xtask::Workspace;
use xtask::json::{self, Value};

use crate::members::{self, Member};
use crate::run::say;

/// Set (to the real rustdoc) when this binary runs as cargo's `RUSTDOC`.
pub(crate) const RUSTDOC_ENV: &str = "A2A_XTASK_RUSTDOC";

/// Crates of the standard library: never "external".
const STD: &[&str] = &["std", "core", "alloc"];

/// Traits whose impls say nothing a user names (auto traits; pin-project-lite writes `Unpin`
/// impls with bounds on its private types).
const AUTO_TRAITS: &[&str] = &["Send", "Sync", "Unpin", "UnwindSafe", "RefUnwindSafe"];

/// `cargo xtask api`.
pub(crate) fn run(workspace: &Workspace) -> Result<(), String> {
    let members = members::members(workspace)?;
    let ours: HashSet<String> = members.iter().map(Member::crate_name).collect();
    let libraries: Vec<&Member> = members.iter().filter(|m| m.publish && m.lib).collect();
    write_json(workspace)?;
    let mut failures = Vec::new();
    for library in libraries {
        let path = workspace
            .target_dir
            .join("doc")
            .join(format!("{}.json", library.crate_name()));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let doc = json::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let found = external_types(&doc, &ours).map_err(|e| format!("{}: {e}", path.display()))?;
        let problems = check(&found, &library.allowed_external_types);
        say(format!(
            "{}: {} external types in the public API, {}",
            library.name,
            found.len(),
            if problems.is_empty() {
                "each allowed".to_owned()
            } else {
                format!("{} problem(s)", problems.len())
            }
        ));
        for problem in problems {
            say(format!("  {problem}"));
            failures.push(format!("{}: {problem}", library.name));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} external type problem(s); each library's allowed list is \
             [package.metadata.cargo_check_external_types] in its Cargo.toml",
            failures.len()
        ))
    }
}

/// `cargo doc --workspace --all-features` writing rustdoc JSON (`target/doc/<crate>.json`), with
/// the features of the rustdoc step (so the dependencies' metadata is reused).
fn write_json(workspace: &Workspace) -> Result<(), String> {
    let real = std::env::var_os("RUSTDOC").unwrap_or_else(|| "rustdoc".into());
    let me = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let status = workspace
        .cargo_command()
        .args([
            "doc",
            "--workspace",
            "--no-deps",
            "--all-features",
            "--locked",
        ])
        .env("RUSTDOC", me)
        .env(RUSTDOC_ENV, real)
        .env("RUSTDOCFLAGS", "-Z unstable-options --output-format json")
        .status()
        .map_err(|e| format!("cannot run cargo doc: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo doc (rustdoc JSON) failed ({status})"))
    }
}

/// This binary as cargo's `RUSTDOC`: runs `real` with the same arguments and
/// `RUSTC_BOOTSTRAP=1`, so that the stable rustdoc takes `-Z unstable-options`.
pub(crate) fn wrap_rustdoc(real: &OsStr) -> ExitCode {
    let status = std::process::Command::new(real)
        .args(std::env::args_os().skip(1))
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove(RUSTDOC_ENV)
        .status();
    match status {
        Ok(status) => match status.code() {
            Some(0) => ExitCode::SUCCESS,
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => ExitCode::FAILURE,
        },
        Err(e) => {
            eprintln!("xtask: cannot run {}: {e}", real.to_string_lossy());
            ExitCode::FAILURE
        }
    }
}

/// What is wrong with `found` (external path -> where it shows) against `allowed`: each
/// external type no entry allows, and each entry that allows nothing.
fn check(found: &BTreeMap<String, String>, allowed: &[String]) -> Vec<String> {
    let mut problems: Vec<String> = found
        .iter()
        .filter(|(path, _)| !allowed.iter().any(|pattern| matches(pattern, path)))
        .map(|(path, at)| format!("{path} (in {at}) is not in allowed_external_types"))
        .collect();
    problems.extend(
        allowed
            .iter()
            .filter(|pattern| !found.keys().any(|path| matches(pattern, path)))
            .map(|pattern| {
                format!(
                    "allowed_external_types lists `{pattern}`, which no public item shows: \
                     remove it"
                )
            }),
    );
    problems
}

/// `bytes::*` matches everything of `bytes`; anything else matches itself.
fn matches(pattern: &str, path: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => path.starts_with(prefix),
        None => pattern == path,
    }
}

/// Every external type or trait the public API of the crate in `doc` (rustdoc JSON) shows,
/// with the first place it shows up. `ours` are the workspace's crates (never external).
pub(crate) fn external_types(
    doc: &Value,
    ours: &HashSet<String>,
) -> Result<BTreeMap<String, String>, String> {
    let table = |key: &str| -> Result<HashMap<&str, &Value>, String> {
        match doc.get(key) {
            Some(Value::Object(members)) => {
                Ok(members.iter().map(|(k, v)| (k.as_str(), v)).collect())
            }
            _ => Err(format!("rustdoc JSON without `{key}`")),
        }
    };
    let crates = table("external_crates")?
        .into_iter()
        .filter_map(|(id, c)| Some((id, c.get("name")?.as_str()?)))
        .collect();
    let mut walk = Walk {
        index: table("index")?,
        paths: table("paths")?,
        crates,
        ours,
        seen: HashSet::new(),
        found: BTreeMap::new(),
    };
    let root = id_text(doc.get("root")).ok_or("rustdoc JSON without `root`")?;
    walk.item(root, "");
    if walk.seen.len() < 2 {
        return Err("rustdoc JSON whose root reaches nothing: has its format changed?".into());
    }
    Ok(walk.found)
}

/// An item id: a number (a string in older formats).
fn id_text(value: Option<&Value>) -> Option<&str> {
    match value? {
        Value::Number(n) | Value::String(n) => Some(n),
        _ => None,
    }
}

struct Walk<'a> {
    index: HashMap<&'a str, &'a Value>,
    paths: HashMap<&'a str, &'a Value>,
    /// External crate id -> its name.
    crates: HashMap<&'a str, &'a str>,
    ours: &'a HashSet<String>,
    seen: HashSet<&'a str>,
    /// External path -> the first place it shows.
    found: BTreeMap<String, String>,
}

impl<'a> Walk<'a> {
    /// Visits the item `id` (once), found under `parent`.
    fn item(&mut self, id: &'a str, parent: &str) {
        if !self.seen.insert(id) {
            return;
        }
        let Some(item) = self.index.get(id).copied() else {
            return;
        };
        if id_text(item.get("crate_id")) != Some("0") {
            return;
        }
        let Some(Value::Object(inner)) = item.get("inner") else {
            return;
        };
        let Some((kind, body)) = inner.first() else {
            return;
        };
        let at = match item.get("name").and_then(Value::as_str) {
            Some(name) if parent.is_empty() => name.to_owned(),
            Some(name) => format!("{parent}::{name}"),
            None => parent.to_owned(),
        };
        match kind.as_str() {
            "module" => self.children(body.get("items"), &at),
            "use" => self.reexport(body, parent, &at),
            "impl" => self.implementation(body, parent),
            _ => {
                self.scan(body, &at);
                for key in ["impls", "items", "variants", "fields"] {
                    self.children(body.get(key), &at);
                }
                // Struct and variant fields: `{"plain": {"fields": [..]}}`, `{"tuple": [..]}`,
                // `{"struct": {"fields": [..]}}`.
                if let Some(Value::Object(shape)) = body.get("kind") {
                    for (_, fields) in shape {
                        match fields {
                            Value::Array(_) => self.children(Some(fields), &at),
                            other => self.children(other.get("fields"), &at),
                        }
                    }
                }
            }
        }
    }

    fn children(&mut self, ids: Option<&'a Value>, parent: &str) {
        if let Some(Value::Array(ids)) = ids {
            for id in ids {
                if let Some(id) = id_text(Some(id)) {
                    self.item(id, parent);
                }
            }
        }
    }

    /// `pub use`: a local item is visited; another crate's item is itself a type shown.
    fn reexport(&mut self, body: &'a Value, parent: &str, at: &str) {
        let Some(target) = id_text(body.get("id")) else {
            return; // a glob of a module rustdoc did not document
        };
        let local = self
            .index
            .get(target)
            .is_some_and(|item| id_text(item.get("crate_id")) == Some("0"));
        if local {
            self.item(target, parent);
        } else if !self.reference(target, &format!("{at} (re-export)")) {
            let source = body.get("source").and_then(Value::as_str);
            if let Some(source) = source.filter(|s| !self.is_ours_or_std(s)) {
                self.found
                    .entry(source.to_owned())
                    .or_insert_with(|| format!("{at} (re-export)"));
            }
        }
    }

    /// An impl of a type of this crate: its trait (unless rustdoc made the impl up, or the
    /// trait is an auto trait), generics, and items.
    fn implementation(&mut self, body: &'a Value, parent: &str) {
        if matches!(body.get("is_synthetic"), Some(Value::Bool(true)))
            || !matches!(body.get("blanket_impl"), None | Some(Value::Null))
        {
            return;
        }
        let trait_path = body.get("trait").filter(|t| !matches!(t, Value::Null));
        let trait_name = trait_path
            .and_then(|t| t.get("path"))
            .and_then(Value::as_str)
            .map(|p| p.rsplit("::").next().unwrap_or(p));
        if trait_name.is_some_and(|name| AUTO_TRAITS.contains(&name)) {
            return;
        }
        let at = format!("{parent}::impl {}", trait_name.unwrap_or_default())
            .trim_end()
            .to_owned();
        if let Value::Object(members) = body {
            for (key, value) in members {
                if key != "items" {
                    self.scan(value, &at);
                }
            }
        }
        self.children(body.get("items"), &at);
    }

    /// Every path (`{"path": .., "id": ..}`: a type, a trait, a bound) inside `value`.
    fn scan(&mut self, value: &'a Value, at: &str) {
        match value {
            Value::Object(members) => {
                if let (Some(Value::String(_)), Some(id)) = (value.get("path"), value.get("id"))
                    && let Some(id) = id_text(Some(id))
                {
                    self.reference(id, at);
                }
                for (_, member) in members {
                    self.scan(member, at);
                }
            }
            Value::Array(items) => {
                for item in items {
                    self.scan(item, at);
                }
            }
            _ => {}
        }
    }

    /// Notes the item `id` when it belongs to an external crate; `false` when rustdoc does not
    /// know where it is from.
    fn reference(&mut self, id: &str, at: &str) -> bool {
        let Some(entry) = self.paths.get(id).copied() else {
            return false;
        };
        let Some(krate) = id_text(entry.get("crate_id")) else {
            return false;
        };
        if krate == "0" {
            return true;
        }
        let Some(Value::Array(segments)) = entry.get("path") else {
            return false;
        };
        let path: Vec<&str> = segments.iter().filter_map(Value::as_str).collect();
        let name = self.crates.get(krate).copied().unwrap_or_default();
        if !self.is_ours_or_std(name) {
            self.found
                .entry(path.join("::"))
                .or_insert_with(|| at.to_owned());
        }
        true
    }

    /// Whether the path or crate name `name` is of std, core, alloc or this workspace.
    fn is_ours_or_std(&self, name: &str) -> bool {
        let krate = name.split("::").next().unwrap_or(name);
        STD.contains(&krate) || self.ours.contains(krate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rustdoc JSON document (format 57) of a crate `demo`: a struct with a `bytes::Bytes`
    /// field and an impl of `From<hyper::Error>`, a derived `Unpin` impl and a blanket impl
    /// that must not count, a re-export of `http::Request`, and a function returning
    /// `Option<a2a_types::Task>` (std and a crate of ours: not external).
    const DOC: &str = r#"{
      "root": 0, "format_version": 57,
      "index": {
        "0": {"id": 0, "crate_id": 0, "name": "demo", "inner": {"module": {"is_crate": true, "items": [1, 5, 6]}}},
        "1": {"id": 1, "crate_id": 0, "name": "Frame", "inner": {"struct": {
              "kind": {"plain": {"fields": [2], "has_stripped_fields": false}},
              "generics": {"params": [], "where_predicates": []}, "impls": [3, 4, 7, 8]}}},
        "2": {"id": 2, "crate_id": 0, "name": "data", "inner": {"struct_field": {"resolved_path": {"path": "Bytes", "id": 100, "args": null}}}},
        "3": {"id": 3, "crate_id": 0, "name": null, "inner": {"impl": {
              "is_synthetic": false, "blanket_impl": null,
              "trait": {"path": "From", "id": 101, "args": {"angle_bracketed": {"args": [{"type": {"resolved_path": {"path": "hyper::Error", "id": 102, "args": null}}}], "constraints": []}}},
              "for": {"resolved_path": {"path": "Frame", "id": 1, "args": null}}, "items": []}}},
        "4": {"id": 4, "crate_id": 0, "name": null, "inner": {"impl": {
              "is_synthetic": false, "blanket_impl": null,
              "trait": {"path": "Unpin", "id": 103, "args": null},
              "generics": {"where_predicates": [{"bound_predicate": {"type": {"resolved_path": {"path": "PinnedFieldsOf", "id": 104, "args": null}}}}]},
              "for": {"resolved_path": {"path": "Frame", "id": 1, "args": null}}, "items": []}}},
        "5": {"id": 5, "crate_id": 0, "name": "Request", "inner": {"use": {"source": "http::Request", "name": "Request", "id": 105, "is_glob": false}}},
        "6": {"id": 6, "crate_id": 0, "name": "task", "inner": {"function": {"sig": {"inputs": [],
              "output": {"resolved_path": {"path": "Option", "id": 106, "args": {"angle_bracketed": {"args": [{"type": {"resolved_path": {"path": "a2a_types::Task", "id": 107, "args": null}}}], "constraints": []}}}}}}}},
        "7": {"id": 7, "crate_id": 0, "name": null, "inner": {"impl": {
              "is_synthetic": false, "blanket_impl": {"generic": "T"},
              "trait": {"path": "Into", "id": 108, "args": null}, "items": []}}},
        "8": {"id": 8, "crate_id": 0, "name": null, "inner": {"impl": {
              "is_synthetic": true, "blanket_impl": null,
              "trait": {"path": "Send", "id": 109, "args": null}, "items": []}}}
      },
      "paths": {
        "1": {"crate_id": 0, "path": ["demo", "Frame"], "kind": "struct"},
        "100": {"crate_id": 20, "path": ["bytes", "bytes", "Bytes"], "kind": "struct"},
        "101": {"crate_id": 2, "path": ["core", "convert", "From"], "kind": "trait"},
        "102": {"crate_id": 21, "path": ["hyper", "error", "Error"], "kind": "struct"},
        "103": {"crate_id": 2, "path": ["core", "marker", "Unpin"], "kind": "trait"},
        "104": {"crate_id": 22, "path": ["pin_project_lite", "__private", "PinnedFieldsOf"], "kind": "type_alias"},
        "105": {"crate_id": 23, "path": ["http", "request", "Request"], "kind": "struct"},
        "106": {"crate_id": 2, "path": ["core", "option", "Option"], "kind": "enum"},
        "107": {"crate_id": 24, "path": ["a2a_types", "v1", "Task"], "kind": "struct"}
      },
      "external_crates": {
        "2": {"name": "core"}, "20": {"name": "bytes"}, "21": {"name": "hyper"},
        "22": {"name": "pin_project_lite"}, "23": {"name": "http"}, "24": {"name": "a2a_types"}
      }
    }"#;

    fn found() -> BTreeMap<String, String> {
        let ours = HashSet::from(["demo".to_owned(), "a2a_types".to_owned()]);
        external_types(&json::parse(DOC).unwrap(), &ours).unwrap()
    }

    #[test]
    fn fields_trait_impls_and_reexports_show_external_types() {
        let found = found();
        let found: Vec<(&str, &str)> = found
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("bytes::bytes::Bytes", "demo::Frame::data"),
                ("http::request::Request", "demo::Request (re-export)"),
                ("hyper::error::Error", "demo::Frame::impl From"),
            ]
        );
    }

    #[test]
    fn each_found_type_must_be_allowed_and_each_entry_used() {
        let allowed = ["bytes::*".to_owned(), "http::request::Request".to_owned()];
        assert_eq!(
            check(&found(), &allowed),
            ["hyper::error::Error (in demo::Frame::impl From) is not in allowed_external_types"]
        );
        let too_many = [
            "bytes::*".to_owned(),
            "http::*".to_owned(),
            "hyper::*".to_owned(),
            "tokio::*".to_owned(),
        ];
        assert_eq!(
            check(&found(), &too_many),
            ["allowed_external_types lists `tokio::*`, which no public item shows: remove it"]
        );
    }

    #[test]
    fn a_document_that_reaches_nothing_is_an_error() {
        let doc =
            json::parse(r#"{"root": 0, "index": {}, "paths": {}, "external_crates": {}}"#).unwrap();
        assert_eq!(
            external_types(&doc, &HashSet::new()).unwrap_err(),
            "rustdoc JSON whose root reaches nothing: has its format changed?"
        );
    }
}
