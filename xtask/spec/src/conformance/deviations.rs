//! The deviations file (`schema/deviations.json`): deliberate differences, each with a reason.
//!
//! ```json
//! {
//!   "deviations": [
//!     {
//!       "version": "0.2",
//!       "subject": "AgentCard.signatures",
//!       "kind": "extra-property",
//!       "reason": "a2a_types::v0_3 models 0.3, a superset of 0.2.6: ..."
//!     }
//!   ]
//! }
//! ```
//!
//! `version`, `subject` and `kind` are each a string or a list of strings: the entry explains
//! every combination. `subject` and `kind` are what the report prints for the difference. A
//! difference is explained only by an entry with the same version, subject and kind.

use std::path::Path;

use serde_json::Value;

/// One deliberate difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Deviation {
    /// The versions it applies to.
    pub(crate) versions: Vec<String>,
    /// `Definition.property`s or fixture paths.
    pub(crate) subjects: Vec<String>,
    /// Difference kinds (`extra-property`, `required`, `negative-accepted-by-spec`, ...).
    pub(crate) kinds: Vec<String>,
    /// Why the difference is deliberate.
    pub(crate) reason: String,
}

impl Deviation {
    /// True when this entry explains that difference.
    pub(crate) fn matches(&self, version: &str, subject: &str, kind: &str) -> bool {
        self.kinds.iter().any(|k| k == kind)
            && self.subjects.iter().any(|s| s == subject)
            && self.versions.iter().any(|v| v == version)
    }

    /// Every (version, subject, kind) this entry explains.
    pub(crate) fn combinations(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.versions.iter().flat_map(move |v| {
            self.subjects.iter().flat_map(move |s| {
                self.kinds
                    .iter()
                    .map(move |k| (v.as_str(), s.as_str(), k.as_str()))
            })
        })
    }
}

/// Reads the deviations file; a missing file is an empty list.
pub(crate) fn load(path: &Path) -> Result<Vec<Deviation>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of a deviations file.
pub(crate) fn parse(text: &str) -> Result<Vec<Deviation>, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let entries = doc
        .get("deviations")
        .and_then(Value::as_array)
        .ok_or("expected an object with a `deviations` array")?;
    entries
        .iter()
        .enumerate()
        .map(|(i, entry)| entry_of(entry).map_err(|e| format!("deviation #{}: {e}", i + 1)))
        .collect()
}

fn entry_of(entry: &Value) -> Result<Deviation, String> {
    let obj = entry.as_object().ok_or("not an object")?;
    for key in obj.keys() {
        if !["version", "subject", "kind", "reason"].contains(&key.as_str()) {
            return Err(format!(
                "unknown key `{key}` (expected version, subject, kind, reason)"
            ));
        }
    }
    let reason = match obj.get("reason") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        _ => return Err("`reason` must be a non-empty string".to_owned()),
    };
    Ok(Deviation {
        versions: strings(obj.get("version"), "version")?,
        subjects: strings(obj.get("subject"), "subject")?,
        kinds: strings(obj.get("kind"), "kind")?,
        reason,
    })
}

/// A non-empty string, or a non-empty list of them.
fn strings(value: Option<&Value>, key: &str) -> Result<Vec<String>, String> {
    let error = || format!("`{key}` must be a non-empty string or a list of them");
    let list = match value {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(error)?,
        _ => return Err(error()),
    };
    if list.iter().any(|s| s.trim().is_empty()) {
        return Err(error());
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_need_every_field_and_a_reason() {
        let ok = parse(
            r#"{"deviations": [
                {"version": ["0.2", "0.3"], "subject": "A.b", "kind": "extra-property", "reason": "why"},
                {"version": "0.1", "subject": ["x", "y"], "kind": ["k1", "k2"], "reason": "why"}
            ]}"#,
        )
        .unwrap();
        assert!(ok[0].matches("0.3", "A.b", "extra-property"));
        assert!(!ok[0].matches("0.1", "A.b", "extra-property"));
        assert!(!ok[0].matches("0.3", "A.b", "required"));
        assert!(ok[1].matches("0.1", "y", "k1"));
        assert_eq!(ok[1].combinations().count(), 4);
        let no_reason =
            parse(r#"{"deviations": [{"version": "0.2", "subject": "A", "kind": "type", "reason": " "}]}"#)
                .unwrap_err();
        assert_eq!(
            no_reason,
            "deviation #1: `reason` must be a non-empty string"
        );
        let typo = parse(
            r#"{"deviations": [{"version": "0.2", "subject": "A", "kind": "type", "reason": "r", "note": "x"}]}"#,
        )
        .unwrap_err();
        assert!(typo.contains("unknown key `note`"), "{typo}");
    }
}
