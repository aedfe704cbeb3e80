//! The check can fail: edited copies of the spec make conformance report each edit.

use std::path::PathBuf;

use super::*;

/// A fresh copy of the spec files in a temporary folder.
struct SpecCopy(PathBuf);

impl SpecCopy {
    fn new(name: &str) -> Self {
        // The real spec files, or the one-line error saying where they were looked for.
        let source = SpecDir::locate(&crate::test_workspace().root)
            .unwrap_or_else(|e| panic!("{e}"))
            .path;
        let dir = std::env::temp_dir().join(format!("a2a-xtask-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for file in xtask::spec::FILES.iter().map(|f| f.path) {
            let to = dir.join(file);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(source.join(file), &to)
                .unwrap_or_else(|e| panic!("cannot copy {file} from {}: {e}", source.display()));
        }
        SpecCopy(dir)
    }

    fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.0.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.matches(from).count(),
            1,
            "`{from}` must occur once in {file}"
        );
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }

    fn options(&self) -> Options {
        Options {
            report: None,
            ..Options::new(&crate::test_workspace(), self.0.clone())
        }
    }

    fn run(&self) -> Report {
        run(&self.options()).unwrap()
    }
}

impl Drop for SpecCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn unexplained(report: &Report) -> Vec<(String, String, String)> {
    report
        .unexplained()
        .map(|d| (d.version.clone(), d.subject.clone(), d.kind.clone()))
        .collect()
}

/// The unexplained differences of the types (not of the fixtures).
fn type_differences(report: &Report) -> Vec<(String, String, String)> {
    unexplained(report)
        .into_iter()
        .filter(|(_, subject, _)| !subject.starts_with("tests/fixtures/"))
        .collect()
}

fn has(report: &Report, version: &str, subject: &str, kind: &str) -> bool {
    unexplained(report)
        .iter()
        .any(|(v, s, k)| v == version && s == subject && k == kind)
}

#[test]
fn proto_edits_are_reported() {
    let spec = SpecCopy::new("proto-edits");
    let baseline = type_differences(&spec.run());
    // Drop a REQUIRED field, rename an enum value, add a field.
    spec.edit(
        "v1.0/a2a.proto",
        "  string id = 1 [(google.api.field_behavior) = REQUIRED];\n  // Unique identifier (e.g. UUID) for the contextual collection",
        "  // Unique identifier (e.g. UUID) for the contextual collection",
    );
    spec.edit(
        "v1.0/a2a.proto",
        "TASK_STATE_REJECTED = 7;",
        "TASK_STATE_DECLINED = 7;",
    );
    spec.edit(
        "v1.0/a2a.proto",
        "message Message {\n",
        "message Message {\n  string priority = 99;\n",
    );
    let report = spec.run();
    assert!(
        has(&report, "1.0", "Task.id", "extra-property"),
        "{:#?}",
        unexplained(&report)
    );
    assert!(
        has(&report, "1.0", "TaskState", "enum"),
        "{:#?}",
        unexplained(&report)
    );
    assert!(
        has(&report, "1.0", "Message.priority", "missing-property"),
        "{:#?}",
        unexplained(&report)
    );
    assert_eq!(
        type_differences(&report).len(),
        baseline.len() + 3,
        "{:#?}",
        unexplained(&report)
    );
}

#[test]
fn proto_required_annotation_is_checked() {
    let spec = SpecCopy::new("proto-required");
    spec.edit(
        "v1.0/a2a.proto",
        "  bool return_immediately = 4;",
        "  bool return_immediately = 4 [(google.api.field_behavior) = REQUIRED];",
    );
    let report = spec.run();
    assert!(
        has(
            &report,
            "1.0",
            "SendMessageConfiguration.returnImmediately",
            "required"
        ),
        "{:#?}",
        unexplained(&report)
    );
}

#[test]
fn bundle_names_are_checked() {
    let spec = SpecCopy::new("bundle-names");
    spec.edit(
        "v1.0/a2a.json",
        "\"returnImmediately\": {",
        "\"returnImmediatly\": {",
    );
    let report = spec.run();
    assert!(has(
        &report,
        "1.0-json",
        "SendMessageConfiguration.returnImmediatly",
        "missing-property"
    ));
    assert!(has(
        &report,
        "1.0-json",
        "SendMessageConfiguration.returnImmediately",
        "extra-property"
    ));
}

#[test]
fn a_missing_spec_folder_is_one_clear_error() {
    let options = Options {
        report: None,
        ..Options::new(&crate::test_workspace(), "/nonexistent/a2a-spec".into())
    };
    let err = run(&options).unwrap_err();
    assert!(
        err.starts_with("spec folder /nonexistent/a2a-spec not found"),
        "{err}"
    );
}

impl SpecCopy {
    fn edit_json(&self, file: &str, edit: impl FnOnce(&mut Value)) {
        let path = self.0.join(file);
        let mut doc: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut doc);
        std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    }
}

#[test]
fn json_schema_edits_are_reported() {
    let spec = SpecCopy::new("json-edits");
    let baseline = type_differences(&spec.run());
    spec.edit_json("v0.3/a2a.json", |doc| {
        let defs = &mut doc["definitions"];
        // Drop a required property.
        defs["AgentCard"]["properties"]
            .as_object_mut()
            .unwrap()
            .remove("name");
        let required = defs["AgentCard"]["required"].as_array_mut().unwrap();
        required.retain(|r| r != "name");
        // Rename an enum value.
        for value in defs["TaskState"]["enum"].as_array_mut().unwrap() {
            if value == "rejected" {
                *value = "declined".into();
            }
        }
        // Add a field.
        defs["Message"]["properties"]["priority"] = serde_json::json!({"type": "integer"});
        // Make an optional field required.
        defs["Task"]["required"]
            .as_array_mut()
            .unwrap()
            .push("history".into());
    });
    let report = spec.run();
    let found = unexplained(&report);
    assert!(
        has(&report, "0.3", "AgentCard.name", "extra-property"),
        "{found:#?}"
    );
    assert!(has(&report, "0.3", "TaskState", "enum"), "{found:#?}");
    assert!(
        has(&report, "0.3", "Message.priority", "missing-property"),
        "{found:#?}"
    );
    assert!(
        has(&report, "0.3", "Task.history", "required"),
        "{found:#?}"
    );
    assert_eq!(
        type_differences(&report).len(),
        baseline.len() + 4,
        "{found:#?}"
    );
    // The fixtures are validated against the edited copy too: a 0.3 task without `history`
    // no longer passes the spec schema.
    assert!(
        found.iter().any(|(v, s, k)| v == "0.3"
            && s.starts_with("tests/fixtures/v0_3/")
            && k == "fixture-rejected-by-spec"),
        "{found:#?}"
    );
}

#[test]
fn a_removed_property_fails_the_command() {
    // The acceptance test of the issue: one property removed from a spec copy, non-zero exit.
    let spec = SpecCopy::new("one-property");
    spec.edit_json("v0.1/a2a.json", |doc| {
        let key = if doc.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        let defs = &mut doc[key];
        defs["Artifact"]["properties"]
            .as_object_mut()
            .unwrap()
            .remove("description");
    });
    let err = main_with(&spec.options(), &mut Vec::new()).unwrap_err();
    assert!(
        err.starts_with("conformance: 1 unexplained difference between"),
        "{err}"
    );
    let report = spec.run();
    assert!(has(
        &report,
        "0.1",
        "Artifact.description",
        "extra-property"
    ));
}

#[test]
fn a_spec_folder_without_the_1_1_draft_is_checked_without_it() {
    // SpecCopy copies the released files only: no unreleased-dev-1.1/ folder.
    let spec = SpecCopy::new("no-draft");
    let report = spec.run();
    assert!(
        report.notes.iter().any(|n| n
            == "1.1-draft: not checked: no unreleased-dev-1.1/a2a.proto in the spec folder \
                (specification/a2a.proto on branch dev-1.1 of a2aproject/A2A)"),
        "{:#?}",
        report.notes
    );
    assert!(!report.rows.iter().any(|r| r.version == "1.1-draft"));
    assert!(
        !report.differences.iter().any(|d| d.version == "1.1-draft"),
        "{:#?}",
        report.differences
    );
}
