//! Every fixture under `tests/fixtures/` against the spec schema of its version and ours
//! (the `jsonschema` crate, formats checked).
//!
//! * `tests/fixtures/v1/**` (and any `expected-v1/` folder) are 1.0 documents, `v0_3/**` 0.3
//!   (and 0.2 too when labelled `v0-2-*`), `v0_2/**` 0.2 and `v0_1/**` 0.1.
//! * A positive fixture is named `<Type>.<label>.json`, `<Type>` being the spec's name.
//! * A file under an `invalid/` folder is negative, a wrapper `{"type", "path", "message",
//!   "document"}` whose `document` must be rejected.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use jsonschema::Validator;
use serde_json::Value;

/// A schema document whose definitions fixtures are validated against.
pub(crate) struct SchemaSet {
    /// Shown in the report: `v0.3/a2a.json`, `ours (schema/a2a-v0.3.json)`.
    pub(crate) label: String,
    doc: Value,
    defs_key: String,
    /// Fixture type name → definition key, when they differ (the 1.0 bundle's titles).
    aliases: BTreeMap<String, String>,
    /// Why this set cannot validate anything, if it cannot.
    pub(crate) unavailable: Option<String>,
    cache: RefCell<HashMap<String, Result<std::rc::Rc<Validator>, String>>>,
}

/// The outcome of validating one document against one definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The document conforms.
    Valid,
    /// The document does not conform: the first errors, `instance path: message`.
    Invalid(Vec<String>),
    /// The schema has no definition of that name.
    UnknownType,
    /// The schema cannot be used (reason).
    Unavailable(String),
}

impl SchemaSet {
    /// A schema document with a `definitions` or `$defs` map.
    pub(crate) fn new(label: impl Into<String>, doc: Value) -> Self {
        let defs_key = if doc.get("definitions").is_some() {
            "definitions"
        } else {
            "$defs"
        };
        SchemaSet {
            label: label.into(),
            doc,
            defs_key: defs_key.to_owned(),
            aliases: BTreeMap::new(),
            unavailable: None,
            cache: RefCell::new(HashMap::new()),
        }
    }

    /// A set that validates nothing, for this reason.
    pub(crate) fn unavailable(label: impl Into<String>, reason: impl Into<String>) -> Self {
        let mut set = SchemaSet::new(label, Value::Null);
        set.unavailable = Some(reason.into());
        set
    }

    /// Looks fixture type `name` up as definition `key`.
    pub(crate) fn with_alias(mut self, name: &str, key: &str) -> Self {
        self.aliases.insert(name.to_owned(), key.to_owned());
        self
    }

    /// Validates `instance` against the definition for fixture type `name`.
    pub(crate) fn validate(&self, name: &str, instance: &Value) -> Verdict {
        if let Some(reason) = &self.unavailable {
            return Verdict::Unavailable(reason.clone());
        }
        let key = self.aliases.get(name).map_or(name, String::as_str);
        let defined = self
            .doc
            .get(&self.defs_key)
            .and_then(|d| d.get(key))
            .is_some();
        if !defined {
            return Verdict::UnknownType;
        }
        let validator = self
            .cache
            .borrow_mut()
            .entry(key.to_owned())
            .or_insert_with(|| self.build(key).map(std::rc::Rc::new))
            .clone();
        match validator {
            Err(e) => Verdict::Unavailable(e),
            Ok(validator) => {
                let errors: Vec<String> = validator
                    .iter_errors(instance)
                    .take(3)
                    .map(|e| {
                        let at = e.instance_path().to_string();
                        let mut text = e.to_string();
                        if text.chars().count() > 160 {
                            text = text.chars().take(160).collect::<String>() + "…";
                        }
                        format!("{}: {text}", if at.is_empty() { "/" } else { &at })
                    })
                    .collect();
                if errors.is_empty() {
                    Verdict::Valid
                } else {
                    Verdict::Invalid(errors)
                }
            }
        }
    }

    fn build(&self, key: &str) -> Result<Validator, String> {
        let mut wrapper = self.doc.clone();
        let pointer = format!("#/{}/{}", self.defs_key, pointer_segment(key));
        if let Some(obj) = wrapper.as_object_mut() {
            obj.insert(
                "allOf".to_owned(),
                Value::Array(vec![serde_json::json!({ "$ref": pointer })]),
            );
        }
        jsonschema::options()
            .should_validate_formats(true)
            .build(&wrapper)
            .map_err(|e| format!("{}: cannot compile `{key}`: {e}", self.label))
    }
}

/// A JSON pointer segment inside a URI fragment.
fn pointer_segment(key: &str) -> String {
    key.replace('~', "~0")
        .replace('/', "~1")
        .replace('%', "%25")
        .replace(' ', "%20")
}

/// The published 1.0 `a2a.json` with its dangling refs repaired.
///
/// The bundle's `$ref`s name the per-message files the generator wrote
/// (`lf.a2a.v1.Task.jsonschema.json`), which the bundle does not contain; it holds the same
/// schemas under titles (`Task`, `Agent Card`). Each ref is pointed at the definition whose
/// title the generator gives that message. Returns the document, how many refs were repaired
/// and the refs that matched no definition.
pub(crate) fn repair_bundle(doc: &Value) -> (Value, usize, Vec<String>) {
    let titles: Vec<String> = doc
        .get("definitions")
        .and_then(Value::as_object)
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default();
    let mut repaired = 0;
    let mut dangling = Vec::new();
    let mut doc = doc.clone();
    fn walk(
        value: &mut Value,
        titles: &[String],
        repaired: &mut usize,
        dangling: &mut Vec<String>,
    ) {
        match value {
            Value::Object(obj) => {
                // A nested `$schema` makes some validators treat the definition as a resource
                // of its own; the bundle's are all the root's draft.
                obj.remove("$schema");
                if let Some(Value::String(reference)) = obj.get_mut("$ref")
                    && !reference.starts_with('#')
                {
                    let file = reference.trim_end_matches(".jsonschema.json");
                    let message = file.rsplit('.').next().unwrap_or(file);
                    let title = super::proto::bundle_title(message);
                    if titles.contains(&title) {
                        *reference = format!("#/definitions/{}", pointer_segment(&title));
                        *repaired += 1;
                    } else if !dangling.contains(reference) {
                        dangling.push(reference.clone());
                    }
                }
                obj.values_mut()
                    .for_each(|v| walk(v, titles, repaired, dangling));
            }
            Value::Array(items) => items
                .iter_mut()
                .for_each(|v| walk(v, titles, repaired, dangling)),
            _ => {}
        }
    }
    if let Some(obj) = doc.as_object_mut() {
        for (key, value) in obj.iter_mut() {
            if key == "definitions" {
                walk(value, &titles, &mut repaired, &mut dangling);
            }
        }
    }
    (doc, repaired, dangling)
}

/// One fixture file, classified.
#[derive(Clone, Debug)]
pub(crate) struct Fixture {
    /// Path relative to `tests/fixtures/`, with `/`.
    pub(crate) rel: String,
    /// The spec versions the document belongs to (`1.0`, `0.3`, `0.2`, `0.1`); empty when the
    /// folder says none.
    pub(crate) versions: Vec<&'static str>,
    /// True for a negative fixture (under `invalid/`).
    pub(crate) negative: bool,
    /// The spec type name of the document.
    pub(crate) type_name: String,
    /// For a document under `expected-v1/`, the 0.x definition its name gives.
    pub(crate) converted_from: Option<String>,
    /// The document, or why it could not be read.
    pub(crate) document: Result<Value, String>,
}

/// Top-level folders of `tests/fixtures/` that hold no protocol documents, with why.
const NOT_PROTOCOL: &[(&str, &str)] = &[(
    "tools",
    "the tool bridge's goldens (a2a-client feature `tools`): cards it reads and the tool \
     descriptors it writes, checked by crates/a2a-client/tests/tools.rs",
)];

/// Every `*.json` under `dir`, recursively, sorted; the folders of [`NOT_PROTOCOL`] left out.
pub(crate) fn discover(dir: &Path) -> Result<Vec<Fixture>, String> {
    let mut files = Vec::new();
    walk_dir(dir, &mut files)?;
    files.retain(|f| {
        let first = f.strip_prefix(dir).ok().and_then(|r| r.iter().next());
        !NOT_PROTOCOL
            .iter()
            .any(|(name, _)| first.is_some_and(|d| d == *name))
    });
    files.sort();
    Ok(files.iter().map(|f| classify(dir, f)).collect())
}

fn walk_dir(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            walk_dir(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

fn classify(root: &Path, path: &Path) -> Fixture {
    let rel_path = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel_path
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let rel = parts.join("/");
    let dirs = &parts[..parts.len().saturating_sub(1)];
    let file_name = parts.last().cloned().unwrap_or_default();
    let label = file_name.split('.').nth(1).unwrap_or_default();
    let versions = if dirs.iter().any(|d| d == "expected-v1") {
        vec!["1.0"]
    } else {
        match dirs.first().map(String::as_str) {
            Some("v1") => vec!["1.0"],
            // `v0_3/<Type>.v0-2-<...>.json` is a 0.2 document too (tests/fixtures/v0_3/README.md).
            Some("v0_3") if label.starts_with("v0-2-") => vec!["0.3", "0.2"],
            Some("v0_3") => vec!["0.3"],
            Some("v0_2") => vec!["0.2"],
            Some("v0_1") => vec!["0.1"],
            _ => Vec::new(),
        }
    };
    let negative = dirs.iter().any(|d| d == "invalid");
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"));
    let parsed =
        text.and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| format!("not JSON: {e}")));
    let (type_name, document) = if negative {
        match parsed {
            Ok(Value::Object(mut wrapper)) => {
                let type_name = wrapper
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                match wrapper.remove("document") {
                    Some(doc) if !type_name.is_empty() => (type_name, Ok(doc)),
                    _ => (
                        type_name,
                        Err("a negative fixture must be {\"type\", \"path\", \"message\", \"document\"}".to_owned()),
                    ),
                }
            }
            Ok(_) => (
                String::new(),
                Err("a negative fixture must be a JSON object".to_owned()),
            ),
            Err(e) => (String::new(), Err(e)),
        }
    } else {
        let type_name = file_name.split('.').next().unwrap_or_default().to_owned();
        (type_name, parsed)
    };
    let converted_from = dirs
        .iter()
        .any(|d| d == "expected-v1")
        .then(|| type_name.clone());
    Fixture {
        rel,
        versions,
        negative,
        type_name,
        converted_from,
        document,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn validates_against_a_named_definition() {
        let set = SchemaSet::new(
            "test",
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "definitions": {
                    "Task": {"type": "object", "properties": {"id": {"$ref": "#/definitions/Id"}}, "required": ["id"]},
                    "Id": {"type": "string"},
                    "When": {"type": "string", "format": "date-time"}
                }
            }),
        );
        assert_eq!(set.validate("Task", &json!({"id": "t"})), Verdict::Valid);
        assert!(
            matches!(set.validate("Task", &json!({"id": 5})), Verdict::Invalid(e) if e[0].starts_with("/id: "))
        );
        assert!(matches!(
            set.validate("Task", &json!({})),
            Verdict::Invalid(_)
        ));
        assert_eq!(set.validate("Nope", &json!({})), Verdict::UnknownType);
        assert!(matches!(
            set.validate("When", &json!("yesterday")),
            Verdict::Invalid(_)
        ));
        assert_eq!(
            set.validate("When", &json!("2025-10-28T10:30:00.000Z")),
            Verdict::Valid
        );
    }

    #[test]
    fn bundle_refs_are_repaired_by_title() {
        let bundle = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "definitions": {
                "Agent Card": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                    "properties": {"provider": {"$ref": "lf.a2a.v1.AgentProvider.jsonschema.json"},
                                   "x": {"$ref": "lf.a2a.v1.Missing.jsonschema.json"}}},
                "Agent Provider": {"type": "object", "properties": {"url": {"type": "string"}}, "additionalProperties": false}
            }
        });
        let (doc, repaired, dangling) = repair_bundle(&bundle);
        assert_eq!(repaired, 1);
        assert_eq!(dangling, ["lf.a2a.v1.Missing.jsonschema.json"]);
        assert_eq!(
            doc["definitions"]["Agent Card"]["properties"]["provider"]["$ref"],
            "#/definitions/Agent%20Provider"
        );
        // A dangling ref makes the definition unusable, as the unrepaired bundle is.
        let broken = SchemaSet::new("bundle", doc.clone()).with_alias("AgentCard", "Agent Card");
        assert!(matches!(
            broken.validate("AgentCard", &json!({})),
            Verdict::Unavailable(_)
        ));
        let mut doc = doc;
        doc["definitions"]["Agent Card"]["properties"]
            .as_object_mut()
            .unwrap()
            .remove("x");
        let set = SchemaSet::new("bundle", doc).with_alias("AgentCard", "Agent Card");
        assert_eq!(
            set.validate("AgentCard", &json!({"provider": {"url": "u"}})),
            Verdict::Valid
        );
        assert!(matches!(
            set.validate("AgentCard", &json!({"provider": {"url": "u", "other": 1}})),
            Verdict::Invalid(_)
        ));
    }
}
