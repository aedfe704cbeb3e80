//! The ACTS assertion language (ACTS §5): exact values, operator maps, nested partial
//! objects, positional arrays, and dot-paths with `[n]` and `[*]`.

use serde_json::Value;

/// The first difference between an assertion and a value: where (a JSON path such as
/// `$.task.status.state`), what was expected and what was there.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Mismatch {
    /// The JSON path of the value.
    pub path: String,
    /// The assertion (its literal ACTS form).
    pub expected: Value,
    /// The value found; `None` when the field is missing.
    pub got: Option<Value>,
    /// Why the value does not satisfy the assertion.
    pub why: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let got = self
            .got
            .as_ref()
            .map_or_else(|| "(missing)".to_owned(), compact);
        write!(
            f,
            "{}: {}; expected {}, got {}",
            self.path,
            self.why,
            compact(&self.expected),
            got
        )
    }
}

/// A value on one line, cut at 200 characters.
pub(crate) fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 200 {
        let cut: String = text.chars().take(200).collect();
        format!("{cut}...")
    } else {
        text
    }
}

const OPERATORS: [&str; 20] = [
    "type",
    "exists",
    "absent",
    "contains",
    "matches",
    "starts_with",
    "ends_with",
    "gte",
    "lte",
    "gt",
    "lt",
    "count",
    "count_gte",
    "count_lte",
    "one_of",
    "all_of",
    "any_of",
    "not",
    "equals",
    "items",
];

/// Whether `map` is an operator assertion (every key an operator) rather than a nested object.
fn is_operator_map(map: &serde_json::Map<String, Value>) -> bool {
    !map.is_empty() && map.keys().all(|k| OPERATORS.contains(&k.as_str()))
}

/// Checks `got` (None: missing) against the assertion `expected` at `path`.
///
/// ```
/// use a2a_acts::matcher::check;
/// use serde_json::json;
///
/// let got = json!({"task": {"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}}});
/// let assertion = json!({"task": {"id": {"type": "string"}, "status": {"state": "TASK_STATE_COMPLETED"}}});
/// assert!(check(&assertion, Some(&got), "$").is_ok());
/// let wrong = check(&json!({"task": {"status": {"state": "TASK_STATE_FAILED"}}}), Some(&got), "$");
/// assert_eq!(wrong.unwrap_err().path, "$.task.status.state");
/// ```
pub fn check(expected: &Value, got: Option<&Value>, path: &str) -> Result<(), Mismatch> {
    let fail = |why: &str| Mismatch {
        path: path.to_owned(),
        expected: expected.clone(),
        got: got.cloned(),
        why: why.to_owned(),
    };
    match expected {
        Value::Object(map) if is_operator_map(map) => {
            for (op, arg) in map {
                operator(op, arg, got, path).map_err(|why| Mismatch {
                    path: path.to_owned(),
                    expected: expected.clone(),
                    got: got.cloned(),
                    why,
                })?;
            }
            Ok(())
        }
        Value::Object(map) => {
            let Some(got) = got else {
                return Err(fail("missing"));
            };
            let Some(object) = got.as_object() else {
                return Err(fail("not an object"));
            };
            for (key, assertion) in map {
                check(assertion, object.get(key), &format!("{path}.{key}"))?;
            }
            Ok(())
        }
        Value::Array(items) => {
            let Some(got) = got else {
                return Err(fail("missing"));
            };
            let Some(array) = got.as_array() else {
                return Err(fail("not an array"));
            };
            if array.len() < items.len() {
                return Err(fail(&format!(
                    "{} elements, the assertion names {}",
                    array.len(),
                    items.len()
                )));
            }
            for (i, assertion) in items.iter().enumerate() {
                check(assertion, array.get(i), &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        scalar => match got {
            None => Err(fail("missing")),
            Some(got) if same(scalar, got) => Ok(()),
            Some(_) => Err(fail("not equal")),
        },
    }
}

/// Scalar equality; numbers by value (`1` equals `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn number(arg: &Value, op: &str) -> Result<f64, String> {
    arg.as_f64()
        .ok_or_else(|| format!("`{op}` takes a number, the test gives {arg}"))
}

fn operator(op: &str, arg: &Value, got: Option<&Value>, path: &str) -> Result<(), String> {
    let text = || got.and_then(Value::as_str);
    let needs_text = |what: &str| format!("{what}: not a string");
    match op {
        "exists" => match (arg.as_bool(), got) {
            (Some(true), None) => Err("missing".into()),
            (Some(false), Some(_)) => Err("present".into()),
            _ => Ok(()),
        },
        "absent" => match (arg.as_bool(), got) {
            (Some(true), Some(v)) if !v.is_null() => Err("present".into()),
            (Some(false), None) => Err("missing".into()),
            _ => Ok(()),
        },
        "type" => {
            let Some(got) = got else {
                return Err("missing".into());
            };
            let actual = match got {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Array(_) => "array",
                Value::Object(_) => "object",
            };
            let wanted = arg.as_str().unwrap_or_default();
            let ok = match wanted {
                "integer" => got.is_i64() || got.is_u64(),
                _ => wanted == actual,
            };
            if ok {
                Ok(())
            } else {
                Err(format!("a {actual}, not a {wanted}"))
            }
        }
        "contains" => {
            let needle = arg.as_str().unwrap_or_default();
            match got {
                Some(Value::String(s)) if s.contains(needle) => Ok(()),
                Some(Value::Array(items)) if items.iter().any(|i| same(i, arg)) => Ok(()),
                Some(Value::String(_)) | Some(Value::Array(_)) => {
                    Err(format!("does not contain {arg}"))
                }
                _ => Err(needs_text("contains")),
            }
        }
        "starts_with" => match text() {
            Some(s) if s.starts_with(arg.as_str().unwrap_or_default()) => Ok(()),
            Some(_) => Err(format!("does not start with {arg}")),
            None => Err(needs_text("starts_with")),
        },
        "ends_with" => match text() {
            Some(s) if s.ends_with(arg.as_str().unwrap_or_default()) => Ok(()),
            Some(_) => Err(format!("does not end with {arg}")),
            None => Err(needs_text("ends_with")),
        },
        "matches" => {
            let pattern = arg.as_str().unwrap_or_default();
            let regex = regex_lite::Regex::new(pattern)
                .map_err(|e| format!("the test's pattern {pattern:?} is invalid: {e}"))?;
            match text() {
                Some(s) if regex.is_match(s) => Ok(()),
                Some(_) => Err(format!("does not match {pattern:?}")),
                None => Err(needs_text("matches")),
            }
        }
        "gte" | "lte" | "gt" | "lt" => {
            let bound = number(arg, op)?;
            let Some(value) = got.and_then(Value::as_f64) else {
                return Err("not a number".into());
            };
            let ok = match op {
                "gte" => value >= bound,
                "lte" => value <= bound,
                "gt" => value > bound,
                _ => value < bound,
            };
            if ok {
                Ok(())
            } else {
                Err(format!("{value} is not {op} {bound}"))
            }
        }
        "count" | "count_gte" | "count_lte" => {
            let bound = number(arg, op)? as usize;
            let Some(len) = got.and_then(Value::as_array).map(Vec::len) else {
                return Err("not an array".into());
            };
            let ok = match op {
                "count" => len == bound,
                "count_gte" => len >= bound,
                _ => len <= bound,
            };
            if ok {
                Ok(())
            } else {
                Err(format!("{len} elements, not {op} {bound}"))
            }
        }
        "items" => {
            let Some(array) = got.and_then(Value::as_array) else {
                return Err("not an array".into());
            };
            match arg {
                // A list: positional, as a nested array is.
                Value::Array(_) => check(arg, got, path).map_err(|m| m.to_string()),
                // One assertion: every element.
                each => {
                    for (i, item) in array.iter().enumerate() {
                        check(each, Some(item), &format!("{path}[{i}]"))
                            .map_err(|m| m.to_string())?;
                    }
                    Ok(())
                }
            }
        }
        "equals" => match got {
            Some(v) if v == arg => Ok(()),
            _ => Err("not equal".into()),
        },
        "one_of" | "any_of" => {
            let options = arg.as_array().cloned().unwrap_or_default();
            if options.iter().any(|o| check(o, got, path).is_ok()) {
                Ok(())
            } else {
                Err(format!("none of the {} alternatives", options.len()))
            }
        }
        "all_of" => {
            for o in arg.as_array().into_iter().flatten() {
                check(o, got, path).map_err(|m| m.why)?;
            }
            Ok(())
        }
        "not" => match check(arg, got, path) {
            Ok(()) => Err(format!("matches {arg}, which it must not")),
            Err(_) => Ok(()),
        },
        other => Err(format!("unknown operator `{other}`")),
    }
}

/// One step of a dot-path: a field, an index, or every element.
#[derive(Clone, Debug, PartialEq)]
enum Segment {
    Field(String),
    Index(usize),
    Every,
}

fn segments(path: &str) -> Result<Vec<Segment>, String> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            out.push(Segment::Field(name.to_owned()));
        }
        while let Some(stripped) = rest.strip_prefix('[') {
            let end = stripped
                .find(']')
                .ok_or_else(|| format!("unclosed `[` in the path `{path}`"))?;
            let index = &stripped[..end];
            out.push(if index == "*" {
                Segment::Every
            } else {
                Segment::Index(
                    index
                        .parse()
                        .map_err(|_| format!("`[{index}]` in the path `{path}` is no index"))?,
                )
            });
            rest = &stripped[end + 1..];
        }
    }
    Ok(out)
}

/// The values at a dot-path (`task.artifacts[0].parts[*]`): one for a plain path (none when it
/// is missing), every match of the `[*]` wildcards.
pub fn select<'a>(root: &'a Value, path: &str) -> Result<Vec<&'a Value>, String> {
    let mut current = vec![root];
    for segment in segments(path)? {
        let mut next = Vec::new();
        for value in current {
            match &segment {
                Segment::Field(name) => next.extend(value.get(name)),
                Segment::Index(i) => next.extend(value.get(*i)),
                Segment::Every => next.extend(value.as_array().into_iter().flatten()),
            }
        }
        current = next;
    }
    Ok(current)
}

/// The single value at a plain dot-path, if present.
pub fn lookup<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
    select(root, path).ok()?.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn yaml(text: &str) -> Value {
        yaml_serde::from_str(text).unwrap()
    }

    #[test]
    fn operators_from_literal_acts_snippets() {
        let task = json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "history": [1, 2, 3], "n": 5});
        for (assertion, ok) in [
            ("id: {type: string}", true),
            ("id: {type: number}", false),
            (
                "status:\n  state: {one_of: [TASK_STATE_SUBMITTED, TASK_STATE_WORKING]}",
                true,
            ),
            ("history: {type: array, count_gte: 1}", true),
            ("history: {count: 2}", false),
            ("artifacts: {absent: true}", true),
            ("id: {absent: true}", false),
            ("id: {exists: true}", true),
            ("n: {gte: 5, lt: 6}", true),
            ("n: {gt: 5}", false),
            ("id: {matches: '^t$'}", true),
            ("id: {not: {contains: t}}", false),
            (
                "status: {any_of: [{state: TASK_STATE_FAILED}, {state: TASK_STATE_WORKING}]}",
                true,
            ),
            ("missing: {type: string}", false),
            (
                "history: {type: array, items: {type: number, gte: 1}}",
                true,
            ),
            ("history: {items: [{equals: 1}, {equals: 2}]}", true),
            ("history: {items: {lt: 3}}", false),
        ] {
            assert_eq!(
                check(&yaml(assertion), Some(&task), "$").is_ok(),
                ok,
                "{assertion}"
            );
        }
    }

    #[test]
    fn the_first_mismatch_names_its_path_expected_and_got() {
        let got = json!({"task": {"artifacts": [{"parts": [{"text": "a"}]}]}});
        let assertion = yaml("task:\n  artifacts:\n    - parts:\n        - text: b\n");
        assert_eq!(
            check(&assertion, Some(&got), "$").unwrap_err(),
            Mismatch {
                path: "$.task.artifacts[0].parts[0].text".into(),
                expected: json!("b"),
                got: Some(json!("a")),
                why: "not equal".into(),
            }
        );
        assert_eq!(
            check(&assertion, Some(&got), "$").unwrap_err().to_string(),
            r#"$.task.artifacts[0].parts[0].text: not equal; expected "b", got "a""#
        );
    }

    #[test]
    fn dot_paths_with_indexes_and_wildcards() {
        let v = json!({"history": [{"parts": [{"text": "x"}, {"text": "y"}]}, {"parts": [{"text": "z"}]}]});
        assert_eq!(
            select(&v, "history[*].parts[*].text").unwrap(),
            [&json!("x"), &json!("y"), &json!("z")]
        );
        assert_eq!(lookup(&v, "history[1].parts[0].text"), Some(&json!("z")));
        assert_eq!(lookup(&v, "history[2]"), None);
        assert!(select(&v, "history[x]").is_err());
    }
}
