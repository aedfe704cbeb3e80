//! The workspace's packages, as `cargo metadata --no-deps` lists them: which are published,
//! which are libraries, and which external types each library's API may show.

use xtask::Workspace;
use xtask::json::{self, Value};

/// One package of the workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Member {
    /// Its name (`a2a-server`).
    pub(crate) name: String,
    /// `false` when its manifest says `publish = false` (the bench, xtask, tests).
    pub(crate) publish: bool,
    /// Whether it has a library target.
    pub(crate) lib: bool,
    /// The external types its public API may show (`bytes::*`, `http::request::Request`), from
    /// `[package.metadata.cargo_check_external_types] allowed_external_types`, the table
    /// cargo-check-external-types reads.
    pub(crate) allowed_external_types: Vec<String>,
}

impl Member {
    /// The name of its library crate (`a2a_server`).
    pub(crate) fn crate_name(&self) -> String {
        self.name.replace('-', "_")
    }
}

/// The published libraries of the workspace: what users depend on, what `cargo xtask features`,
/// `api` and `rustdoc` check one by one.
pub(crate) fn libraries(workspace: &Workspace) -> Result<Vec<Member>, String> {
    Ok(members(workspace)?
        .into_iter()
        .filter(|m| m.publish && m.lib)
        .collect())
}

/// Every package of the workspace, in `cargo metadata` order.
pub(crate) fn members(workspace: &Workspace) -> Result<Vec<Member>, String> {
    from_metadata(&workspace.cargo_metadata(&["--no-deps", "--offline"])?)
}

/// Reads the packages from `cargo metadata --no-deps` output.
pub(crate) fn from_metadata(text: &str) -> Result<Vec<Member>, String> {
    let doc = json::parse(text).map_err(|e| format!("`cargo metadata`: {e}"))?;
    let Some(Value::Array(packages)) = doc.get("packages") else {
        return Err("`cargo metadata` gave no `packages`".to_owned());
    };
    packages.iter().map(member).collect()
}

fn member(package: &Value) -> Result<Member, String> {
    let name = package
        .get("name")
        .and_then(Value::as_str)
        .ok_or("`cargo metadata`: a package without a name")?
        .to_owned();
    // `null`: any registry; `[]`: `publish = false`.
    let publish = !matches!(package.get("publish"), Some(Value::Array(r)) if r.is_empty());
    let lib = has_lib(package);
    let allowed_external_types = strings(
        package
            .get("metadata")
            .and_then(|m| m.get("cargo_check_external_types"))
            .and_then(|m| m.get("allowed_external_types")),
    );
    Ok(Member {
        name,
        publish,
        lib,
        allowed_external_types,
    })
}

/// Whether one of the package's targets is a library (`lib`, `rlib`, ...; not `proc-macro`).
fn has_lib(package: &Value) -> bool {
    let Some(Value::Array(targets)) = package.get("targets") else {
        return false;
    };
    targets.iter().any(|target| {
        strings(target.get("kind"))
            .iter()
            .any(|kind| matches!(kind.as_str(), "lib" | "rlib" | "dylib"))
    })
}

/// The strings of a JSON array (nothing for anything else).
fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_lib_and_allowed_types_come_from_metadata() {
        let text = r#"{"packages":[
            {"name":"a2a-sse","publish":null,"targets":[{"kind":["lib"]},{"kind":["test"]}],
             "metadata":{"cargo_check_external_types":{"allowed_external_types":["bytes::*"]}}},
            {"name":"a2a-cli","publish":null,"targets":[{"kind":["bin"]}],"metadata":null},
            {"name":"xtask","publish":[],"targets":[{"kind":["lib"]},{"kind":["bin"]}],"metadata":null}
        ]}"#;
        let members = from_metadata(text).unwrap();
        assert_eq!(
            members,
            [
                Member {
                    name: "a2a-sse".to_owned(),
                    publish: true,
                    lib: true,
                    allowed_external_types: vec!["bytes::*".to_owned()],
                },
                Member {
                    name: "a2a-cli".to_owned(),
                    publish: true,
                    lib: false,
                    allowed_external_types: Vec::new(),
                },
                Member {
                    name: "xtask".to_owned(),
                    publish: false,
                    lib: true,
                    allowed_external_types: Vec::new(),
                },
            ]
        );
        assert_eq!(members[0].crate_name(), "a2a_sse");
    }

    /// The real workspace: every internal package says `publish = false`, every other one is a
    /// library but the command line.
    #[test]
    fn internal_packages_are_not_published() {
        let workspace = Workspace::discover().unwrap();
        let members = members(&workspace).unwrap();
        let unpublished: Vec<&str> = members
            .iter()
            .filter(|m| !m.publish)
            .map(|m| m.name.as_str())
            .collect();
        assert_eq!(
            unpublished,
            [
                "a2a-faults",
                "a2a-bench",
                "xtask",
                "xtask-spec",
                "a2a-tests"
            ]
        );
        let libraries: Vec<String> = libraries(&workspace)
            .unwrap()
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(
            libraries,
            [
                "a2a-types",
                "a2a-jsonrpc",
                "a2a-sse",
                "a2a-jose",
                "a2a-server",
                "a2a-client",
                "a2a-store-sql",
                "a2a-grpc",
                "a2a-acts",
                "a2a-otel",
                "a2a-store-nats"
            ]
        );
    }
}
