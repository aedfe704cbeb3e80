//! JSON Schema support (feature `schemars`): the transform that makes derived schemas describe
//! exactly what serde writes.

use schemars::Schema;
use serde_json::Value;

/// Applied to every derived wire struct: serde never writes `null` (absent fields are skipped),
/// so the `null` branch schemars adds for `Option<T>` goes; `default` annotations (an input
/// concern) go; and doc examples are cut from descriptions.
pub(crate) fn wire(schema: &mut Schema) {
    if let Some(obj) = schema.as_object_mut() {
        trim_description(obj);
        if let Some(Value::Object(props)) = obj.get_mut("properties") {
            for prop in props.values_mut() {
                if let Value::Object(prop) = prop {
                    strip_null(prop);
                    prop.remove("default");
                    trim_description(prop);
                }
            }
        }
    }
}

/// The schema of a ProtoJSON `int64` (A2A 1.1's generations): written as a decimal string,
/// read from a string or a number.
pub(crate) fn int64(_: &mut schemars::SchemaGenerator) -> Schema {
    schemars::json_schema!({"type": ["integer", "string"], "format": "int64"})
}

fn strip_null(prop: &mut serde_json::Map<String, Value>) {
    if let Some(Value::Array(types)) = prop.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            prop.insert("type".to_owned(), only);
        }
    }
    if let Some(Value::Array(branches)) = prop.get("anyOf") {
        let non_null: Vec<&Value> = branches
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if let (2, [Value::Object(only)]) = (branches.len(), non_null.as_slice()) {
            let only = only.clone();
            prop.remove("anyOf");
            for (k, v) in only {
                prop.entry(k).or_insert(v);
            }
        }
    }
}

fn trim_description(obj: &mut serde_json::Map<String, Value>) {
    if let Some(Value::String(description)) = obj.get_mut("description") {
        if let Some(i) = description.find("\n\n```") {
            description.truncate(i);
        }
        // Rustdoc links read badly in a schema: "[`Task`](super::Task)" becomes "`Task`".
        while let Some(start) = description.find("](") {
            match description[start..].find(')') {
                Some(end) => description.replace_range(start + 1..start + end + 1, ""),
                None => break,
            }
        }
        *description = description.replace("[`", "`").replace("`]", "`");
    }
}
