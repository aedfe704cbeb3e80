//! Normalized shapes of JSON Schemas, and their comparison.
//!
//! Two schemas that differ only in spelling normalize to the same [`Shape`]:
//! `definitions` vs `$defs` refs, `Option<T>` as `["T","null"]` or `anyOf [T, null]`, a ref with
//! siblings wrapped in `allOf`, integer `format`s and bounds, enums split into `oneOf` of
//! `const`s by doc comments, `additionalProperties: {}` vs `true`, the order of `required`, of
//! enum values and of union variants, and annotations (`description`, `title`, `default`,
//! `examples`). Everything else is a difference.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value};

/// A schema reduced to what the wire cares about.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Shape {
    /// Any JSON value (`true`, `{}`).
    Any,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// An integer.
    Integer,
    /// Any number.
    Number,
    /// A string (any `format`, `pattern` or encoding).
    String,
    /// Exactly this value.
    Const(Value),
    /// One of these values (sorted, two or more).
    Enum(Vec<Value>),
    /// An array of this.
    Array(Box<Shape>),
    /// An object used as a map: any keys, values of this shape.
    Map(Box<Shape>),
    /// An object with named properties.
    Object(Object),
    /// A named definition.
    Ref(String),
    /// A ref whose object also pins some properties to constants (an internally tagged enum
    /// variant: `{"$ref": "TextPart", "properties": {"kind": {"const": "text"}}}`).
    Tagged {
        /// The referenced definition.
        target: String,
        /// The pinned properties.
        tags: BTreeMap<String, Value>,
    },
    /// Any of these (sorted, two or more).
    Union(Vec<Shape>),
    /// Something this normalizer does not understand, rendered compactly.
    Other(String),
}

/// The parts of an object schema that matter on the wire.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Object {
    /// Property names and their shapes.
    pub(crate) properties: BTreeMap<String, Shape>,
    /// Properties that must be present.
    pub(crate) required: BTreeSet<String>,
    /// Groups of properties of which exactly one must be present (a proto `oneof`, written as
    /// `"oneOf": [{"required": ["a"]}, {"required": ["b"]}]`).
    pub(crate) one_of: BTreeSet<BTreeSet<String>>,
}

const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contentEncoding",
    "contentMediaType",
    "propertyNames",
    "patternProperties",
];

/// The definition name a local `$ref` points at (`#/definitions/Task`, `#/$defs/Task`).
pub(crate) fn ref_name(reference: &str) -> String {
    let name = reference.rsplit('/').next().unwrap_or(reference);
    name.replace("~1", "/")
        .replace("~0", "~")
        .replace("%20", " ")
}

/// Normalizes one schema.
pub(crate) fn normalize(schema: &Value) -> Shape {
    match schema {
        Value::Bool(true) => Shape::Any,
        Value::Object(obj) => normalize_object(obj),
        other => Shape::Other(other.to_string()),
    }
}

fn normalize_object(obj: &Map<String, Value>) -> Shape {
    // A ref, possibly with siblings (2020-12) or wrapped in a one-element `allOf` (draft-07
    // output of schemars for a ref with siblings).
    let target = obj
        .get("$ref")
        .and_then(Value::as_str)
        .map(ref_name)
        .or_else(|| {
            match obj
                .get("allOf")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
            {
                Some([only]) => only.get("$ref").and_then(Value::as_str).map(ref_name),
                _ => None,
            }
        });
    if let Some(target) = target {
        let tags: BTreeMap<String, Value> = obj
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .filter_map(|(k, v)| match normalize(v) {
                        Shape::Const(c) => Some((k.clone(), c)),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        return if tags.is_empty() {
            Shape::Ref(target)
        } else {
            Shape::Tagged { target, tags }
        };
    }
    if let Some([only]) = obj
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        && !obj.contains_key("properties")
        && !obj.contains_key("type")
    {
        return normalize(only);
    }
    if let Some(value) = obj.get("const") {
        return Shape::Const(value.clone());
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        return enum_shape(values.iter().filter(|v| !v.is_null()).cloned().collect());
    }
    let has_properties = obj.contains_key("properties");
    if !has_properties {
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(variants)) = obj.get(key) {
                return union(variants.iter().map(normalize).collect());
            }
        }
    }
    let types: Vec<&str> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if has_properties => vec!["object"],
        _ => Vec::new(),
    };
    let non_null: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
    match non_null.as_slice() {
        [] if types.is_empty() => {
            let unknown: Vec<&String> = obj
                .keys()
                .filter(|k| !ANNOTATIONS.contains(&k.as_str()))
                .collect();
            if unknown.is_empty() {
                Shape::Any
            } else {
                Shape::Other(Value::Object(obj.clone()).to_string())
            }
        }
        [] => Shape::Null,
        [one] => typed(one, obj),
        many => union(many.iter().map(|t| typed(t, obj)).collect()),
    }
}

fn typed(name: &str, obj: &Map<String, Value>) -> Shape {
    match name {
        "string" => Shape::String,
        "integer" => Shape::Integer,
        "number" => Shape::Number,
        "boolean" => Shape::Boolean,
        "null" => Shape::Null,
        "array" => Shape::Array(Box::new(obj.get("items").map_or(Shape::Any, normalize))),
        "object" => match obj.get("properties") {
            Some(Value::Object(props)) => Shape::Object(object(obj, props)),
            _ => Shape::Map(Box::new(
                obj.get("additionalProperties")
                    .map_or(Shape::Any, normalize),
            )),
        },
        other => Shape::Other(format!("type {other}")),
    }
}

fn object(obj: &Map<String, Value>, props: &Map<String, Value>) -> Object {
    let properties = props
        .iter()
        .map(|(k, v)| (k.clone(), normalize(v)))
        .collect();
    let required = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    // `"oneOf": [{"required": ["a"]}, {"required": ["b"]}]`: one group of members.
    let mut one_of = BTreeSet::new();
    if let Some(Value::Array(variants)) = obj.get("oneOf") {
        let group: Option<BTreeSet<String>> = variants
            .iter()
            .map(
                |v| match v.as_object().map(|o| (o.len(), o.get("required"))) {
                    Some((1, Some(Value::Array(names)))) if names.len() == 1 => {
                        names[0].as_str().map(str::to_owned)
                    }
                    _ => None,
                },
            )
            .collect();
        if let Some(group) = group {
            one_of.insert(group);
        }
    }
    Object {
        properties,
        required,
        one_of,
    }
}

fn enum_shape(mut values: Vec<Value>) -> Shape {
    values.sort_by_key(Value::to_string);
    values.dedup();
    match values.len() {
        1 => Shape::Const(values.remove(0)),
        _ => Shape::Enum(values),
    }
}

/// Builds a union: drops `null` branches (an `Option`), folds constants into an enum (an enum
/// split by doc comments), unwraps a single variant and sorts the rest.
pub(crate) fn union(variants: Vec<Shape>) -> Shape {
    let mut variants: Vec<Shape> = variants.into_iter().filter(|v| *v != Shape::Null).collect();
    if variants.is_empty() {
        return Shape::Null;
    }
    if variants
        .iter()
        .all(|v| matches!(v, Shape::Const(_) | Shape::Enum(_)))
    {
        let mut values = Vec::new();
        for v in variants {
            match v {
                Shape::Const(c) => values.push(c),
                Shape::Enum(vs) => values.extend(vs),
                _ => unreachable!("filtered above"),
            }
        }
        return enum_shape(values);
    }
    if variants.len() == 1 {
        return variants.remove(0);
    }
    variants.sort_by_key(|v| v.to_string());
    variants.dedup();
    Shape::Union(variants)
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Any => f.write_str("any"),
            Shape::Null => f.write_str("null"),
            Shape::Boolean => f.write_str("boolean"),
            Shape::Integer => f.write_str("integer"),
            Shape::Number => f.write_str("number"),
            Shape::String => f.write_str("string"),
            Shape::Const(v) => write!(f, "const {v}"),
            Shape::Enum(vs) => {
                let vs: Vec<String> = vs.iter().map(Value::to_string).collect();
                write!(f, "enum [{}]", vs.join(", "))
            }
            Shape::Array(item) => write!(f, "array of {item}"),
            Shape::Map(value) => write!(f, "map of {value}"),
            Shape::Object(o) => {
                let names: Vec<&str> = o.properties.keys().map(String::as_str).collect();
                write!(f, "object {{{}}}", names.join(", "))
            }
            Shape::Ref(name) => write!(f, "`{name}`"),
            Shape::Tagged { target, tags } => {
                let tags: Vec<String> = tags.iter().map(|(k, v)| format!("{k}={v}")).collect();
                write!(f, "`{target}` ({})", tags.join(", "))
            }
            Shape::Union(vs) => {
                let vs: Vec<String> = vs.iter().map(Shape::to_string).collect();
                write!(f, "one of ({})", vs.join(" | "))
            }
            Shape::Other(text) => {
                let short: String = text.chars().take(80).collect();
                write!(f, "unrecognized schema {short}")
            }
        }
    }
}

/// What kind of difference a [`Finding`] is. The names are the `kind`s of the deviations file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    /// The spec defines it, we do not.
    MissingDefinition,
    /// The spec's object has the property, ours does not.
    MissingProperty,
    /// Ours has a property the spec's object does not.
    ExtraProperty,
    /// Required on one side only.
    Required,
    /// Incompatible types.
    Type,
    /// Different enum values.
    Enum,
    /// Different const values.
    Const,
    /// Different oneof groups.
    Oneof,
    /// Different union variants.
    Union,
}

impl Kind {
    /// The name used in reports and in the deviations file.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::MissingDefinition => "missing-definition",
            Kind::MissingProperty => "missing-property",
            Kind::ExtraProperty => "extra-property",
            Kind::Required => "required",
            Kind::Type => "type",
            Kind::Enum => "enum",
            Kind::Const => "const",
            Kind::Oneof => "oneof",
            Kind::Union => "union",
        }
    }
}

/// One difference between a spec definition and ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    /// `Definition` or `Definition.property` (`[]` for array items, `{}` for map values).
    pub(crate) subject: String,
    /// What differs.
    pub(crate) kind: Kind,
    /// A readable account.
    pub(crate) detail: String,
}

/// Two definition maps to compare: the spec's and ours.
pub(crate) struct Comparison<'a> {
    pub(crate) spec: &'a BTreeMap<String, Shape>,
    pub(crate) ours: &'a BTreeMap<String, Shape>,
}

/// How many aliases are followed before giving up (guards against ref cycles).
const MAX_DEPTH: usize = 16;

impl Comparison<'_> {
    /// Compares every spec definition with ours of the same name.
    pub(crate) fn run(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        for (name, spec) in self.spec {
            match self.ours.get(name) {
                None => out.push(Finding {
                    subject: name.clone(),
                    kind: Kind::MissingDefinition,
                    detail: format!(
                        "the spec defines `{name}` ({spec}); ours has no such definition"
                    ),
                }),
                Some(ours) => self.compare(name, spec, ours, 0, &mut out),
            }
        }
        out
    }

    /// Compares two shapes found at `path`.
    pub(crate) fn compare(
        &self,
        path: &str,
        spec: &Shape,
        ours: &Shape,
        depth: usize,
        out: &mut Vec<Finding>,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let finding = |kind: Kind, detail: String| Finding {
            subject: path.to_owned(),
            kind,
            detail,
        };
        // Refs: equal names match; otherwise follow the side whose ref the other lacks.
        if let Some(target) = ref_target(ours) {
            if ref_target(spec) == Some(target) {
                return;
            }
            let spec_has_it = self.spec.contains_key(target);
            if !spec_has_it || ref_target(spec).is_none() {
                if let Some(resolved) = self.ours.get(target) {
                    return self.compare(path, spec, resolved, depth + 1, out);
                }
                return out.push(finding(
                    Kind::Type,
                    format!("ours refers to `{target}`, which ours does not define"),
                ));
            }
        }
        if let Some(target) = ref_target(spec) {
            if let Some(resolved) = self.spec.get(target)
                && ref_target(ours).is_none()
            {
                return self.compare(path, resolved, ours, depth + 1, out);
            }
            return out.push(finding(
                Kind::Type,
                format!("the spec has {spec}, ours has {ours}"),
            ));
        }
        match (spec, ours) {
            (Shape::Object(s), Shape::Object(o)) => self.compare_objects(path, s, o, depth, out),
            (Shape::Object(s), Shape::Map(v)) | (Shape::Map(v), Shape::Object(s))
                if s.properties.is_empty() && s.required.is_empty() && **v == Shape::Any => {}
            (Shape::Map(s), Shape::Map(o)) => {
                self.compare(&format!("{path}{{}}"), s, o, depth + 1, out);
            }
            (Shape::Array(s), Shape::Array(o)) => {
                self.compare(&format!("{path}[]"), s, o, depth + 1, out);
            }
            (Shape::Enum(s), Shape::Enum(o)) if s != o => {
                out.push(finding(Kind::Enum, set_delta(s, o)));
            }
            (Shape::Const(s), Shape::Const(o)) if s != o => {
                out.push(finding(
                    Kind::Const,
                    format!("the spec has const {s}, ours has const {o}"),
                ));
            }
            (Shape::Union(s), Shape::Union(o)) => {
                let missing: Vec<String> = s
                    .iter()
                    .filter(|v| !o.iter().any(|w| self.equivalent(v, w)))
                    .map(Shape::to_string)
                    .collect();
                let extra: Vec<String> = o
                    .iter()
                    .filter(|w| !s.iter().any(|v| self.equivalent(v, w)))
                    .map(Shape::to_string)
                    .collect();
                if !missing.is_empty() || !extra.is_empty() {
                    out.push(finding(
                        Kind::Union,
                        format!(
                            "variants only in the spec: [{}]; only in ours: [{}]",
                            missing.join(", "),
                            extra.join(", ")
                        ),
                    ));
                }
            }
            (s, o) if s == o => {}
            (Shape::Enum(_), Shape::Enum(_)) | (Shape::Const(_), Shape::Const(_)) => {}
            (s, o) => out.push(finding(
                Kind::Type,
                format!("the spec has {s}, ours has {o}"),
            )),
        }
    }

    fn compare_objects(
        &self,
        path: &str,
        spec: &Object,
        ours: &Object,
        depth: usize,
        out: &mut Vec<Finding>,
    ) {
        for (name, s) in &spec.properties {
            let sub = format!("{path}.{name}");
            match ours.properties.get(name) {
                None => out.push(Finding {
                    subject: sub,
                    kind: Kind::MissingProperty,
                    detail: format!(
                        "the spec has property `{name}` ({s}{}); ours does not",
                        if spec.required.contains(name) {
                            ", required"
                        } else {
                            ""
                        }
                    ),
                }),
                Some(o) => self.compare(&sub, s, o, depth + 1, out),
            }
        }
        for (name, o) in &ours.properties {
            if !spec.properties.contains_key(name) {
                out.push(Finding {
                    subject: format!("{path}.{name}"),
                    kind: Kind::ExtraProperty,
                    detail: format!("ours has property `{name}` ({o}); the spec does not"),
                });
            }
        }
        for name in spec.required.symmetric_difference(&ours.required) {
            // A property one side lacks is reported as missing or extra already.
            if !(spec.properties.contains_key(name) && ours.properties.contains_key(name)) {
                continue;
            }
            let detail = if spec.required.contains(name) {
                format!("`{name}` is required in the spec, optional in ours")
            } else {
                format!("`{name}` is required in ours, optional in the spec")
            };
            out.push(Finding {
                subject: format!("{path}.{name}"),
                kind: Kind::Required,
                detail,
            });
        }
        if spec.one_of != ours.one_of {
            let render = |groups: &BTreeSet<BTreeSet<String>>| {
                let groups: Vec<String> = groups
                    .iter()
                    .map(|g| g.iter().cloned().collect::<Vec<_>>().join(" | "))
                    .collect();
                if groups.is_empty() {
                    "none".to_owned()
                } else {
                    groups.join("; ")
                }
            };
            out.push(Finding {
                subject: path.to_owned(),
                kind: Kind::Oneof,
                detail: format!(
                    "exactly-one-of groups: the spec has {}, ours has {}",
                    render(&spec.one_of),
                    render(&ours.one_of)
                ),
            });
        }
    }

    /// True when comparing `spec` with `ours` finds nothing.
    fn equivalent(&self, spec: &Shape, ours: &Shape) -> bool {
        let mut out = Vec::new();
        self.compare("", spec, ours, 0, &mut out);
        out.is_empty()
    }
}

fn ref_target(shape: &Shape) -> Option<&str> {
    match shape {
        Shape::Ref(name) | Shape::Tagged { target: name, .. } => Some(name),
        _ => None,
    }
}

fn set_delta(spec: &[Value], ours: &[Value]) -> String {
    let only_spec: Vec<String> = spec
        .iter()
        .filter(|v| !ours.contains(v))
        .map(Value::to_string)
        .collect();
    let only_ours: Vec<String> = ours
        .iter()
        .filter(|v| !spec.contains(v))
        .map(Value::to_string)
        .collect();
    format!(
        "values only in the spec: [{}]; only in ours: [{}]",
        only_spec.join(", "),
        only_ours.join(", ")
    )
}

/// Normalizes every definition of a schema document (`definitions` or `$defs`).
pub(crate) fn definitions(doc: &Value) -> BTreeMap<String, Shape> {
    let defs = doc
        .get("definitions")
        .or_else(|| doc.get("$defs"))
        .and_then(Value::as_object);
    let mut shapes: BTreeMap<String, Shape> = defs
        .map(|defs| {
            defs.iter()
                .map(|(k, v)| (k.clone(), normalize(v)))
                .collect()
        })
        .unwrap_or_default();
    lift_tags(&mut shapes);
    shapes
}

/// An internally tagged enum (`#[serde(tag = "kind")]`) writes its tag beside the variant's
/// fields, so the variant struct's own schema lacks it. Add each pinned tag to the referenced
/// object, as the spec's self-describing variants (`TextPart.kind`) carry it.
fn lift_tags(shapes: &mut BTreeMap<String, Shape>) {
    fn collect(shape: &Shape, out: &mut Vec<(String, BTreeMap<String, Value>)>) {
        match shape {
            Shape::Tagged { target, tags } => out.push((target.clone(), tags.clone())),
            Shape::Array(inner) | Shape::Map(inner) => collect(inner, out),
            Shape::Union(vs) => vs.iter().for_each(|v| collect(v, out)),
            Shape::Object(o) => o.properties.values().for_each(|v| collect(v, out)),
            _ => {}
        }
    }
    let mut tagged = Vec::new();
    shapes.values().for_each(|s| collect(s, &mut tagged));
    for (target, tags) in tagged {
        if let Some(Shape::Object(object)) = shapes.get_mut(&target) {
            for (name, value) in tags {
                if !object.properties.contains_key(&name) {
                    object.properties.insert(name.clone(), Shape::Const(value));
                    object.required.insert(name);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn findings(spec: Value, ours: Value) -> Vec<(String, &'static str)> {
        let spec = definitions(&spec);
        let ours = definitions(&ours);
        Comparison {
            spec: &spec,
            ours: &ours,
        }
        .run()
        .into_iter()
        .map(|f| (f.subject, f.kind.as_str()))
        .collect()
    }

    #[test]
    fn spelling_differences_normalize_away() {
        let spec = json!({"definitions": {
            "Task": {
                "type": "object",
                "description": "A task.",
                "properties": {
                    "id": {"type": "string", "description": "The id."},
                    "state": {"$ref": "#/definitions/TaskState"},
                    "history": {"type": "array", "items": {"$ref": "#/definitions/Message"}},
                    "metadata": {"type": "object", "additionalProperties": {}},
                    "count": {"type": "integer"},
                    "kind": {"const": "task", "type": "string"}
                },
                "required": ["kind", "id"]
            },
            "TaskState": {"type": "string", "enum": ["working", "completed"]},
            "Message": {"type": "object", "properties": {"text": {"type": "string"}}}
        }});
        let ours = json!({"$defs": {
            "Task": {
                "type": "object",
                "properties": {
                    "id": {"$ref": "#/$defs/TaskId"},
                    "state": {"allOf": [{"$ref": "#/$defs/TaskState"}], "description": "x"},
                    "history": {"type": ["array", "null"], "items": {"$ref": "#/$defs/Message"}},
                    "metadata": {"type": "object", "additionalProperties": true},
                    "count": {"type": "integer", "format": "int32", "minimum": 0},
                    "kind": {"type": "string", "enum": ["task"]}
                },
                "required": ["id", "kind"]
            },
            "TaskId": {"type": "string"},
            "TaskState": {"oneOf": [
                {"const": "completed", "description": "Done."},
                {"type": "string", "const": "working", "description": "Busy."}
            ]},
            "Message": {"type": "object", "properties": {"text": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
        }});
        assert_eq!(findings(spec, ours), vec![]);
    }

    #[test]
    fn real_differences_are_found() {
        let spec = json!({"definitions": {
            "Task": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "status": {"type": "string"},
                    "count": {"type": "integer"},
                    "kind": {"const": "task"}
                },
                "required": ["id", "status"]
            },
            "TaskState": {"type": "string", "enum": ["working", "completed"]},
            "Gone": {"type": "object", "properties": {}}
        }});
        let ours = json!({"definitions": {
            "Task": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "count": {"type": "number"},
                    "kind": {"const": "Task"},
                    "extra": {"type": "boolean"}
                },
                "required": []
            },
            "TaskState": {"type": "string", "enum": ["working", "done"]}
        }});
        assert_eq!(
            findings(spec, ours),
            vec![
                ("Gone".to_owned(), "missing-definition"),
                ("Task.count".to_owned(), "type"),
                ("Task.kind".to_owned(), "const"),
                ("Task.status".to_owned(), "missing-property"),
                ("Task.extra".to_owned(), "extra-property"),
                ("Task.id".to_owned(), "required"),
                ("TaskState".to_owned(), "enum"),
            ]
        );
    }

    #[test]
    fn unions_compare_as_sets_of_variants() {
        let spec = json!({"definitions": {
            "Part": {"anyOf": [{"$ref": "#/definitions/TextPart"}, {"$ref": "#/definitions/DataPart"}]},
            "TextPart": {"type": "object", "properties": {"kind": {"const": "text"}, "text": {"type": "string"}}, "required": ["kind", "text"]},
            "DataPart": {"type": "object", "properties": {"kind": {"const": "data"}, "data": {"type": "object"}}, "required": ["kind", "data"]},
            "Id": {"type": ["string", "integer", "null"]}
        }});
        // Ours: an internally tagged enum; the tag lives in the enum, not in the variant structs.
        let ours = json!({"definitions": {
            "Part": {"oneOf": [
                {"allOf": [{"$ref": "#/definitions/DataPart"}], "type": "object", "properties": {"kind": {"type": "string", "const": "data"}}, "required": ["kind"]},
                {"allOf": [{"$ref": "#/definitions/TextPart"}], "type": "object", "properties": {"kind": {"type": "string", "const": "text"}}, "required": ["kind"]}
            ]},
            "TextPart": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            "DataPart": {"type": "object", "properties": {"data": {"type": "object", "additionalProperties": true}}, "required": ["data"]},
            "Id": {"anyOf": [{"type": "integer"}, {"type": "string"}]}
        }});
        assert_eq!(findings(spec.clone(), ours), vec![]);
        let fewer = json!({"definitions": {
            "Part": {"anyOf": [{"$ref": "#/definitions/TextPart"}]},
            "TextPart": {"type": "object", "properties": {"kind": {"const": "text"}, "text": {"type": "string"}}, "required": ["kind", "text"]},
            "DataPart": {"type": "object", "properties": {"kind": {"const": "data"}, "data": {"type": "object"}}, "required": ["kind", "data"]},
            "Id": {"type": "string"}
        }});
        assert_eq!(
            findings(spec, fewer),
            vec![("Id".to_owned(), "type"), ("Part".to_owned(), "type")]
        );
    }

    #[test]
    fn oneof_groups_compare() {
        let spec = json!({"definitions": {"P": {"type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}}});
        let ours = json!({"definitions": {"P": {"type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}}});
        assert_eq!(findings(spec, ours), vec![("P".to_owned(), "oneof")]);
    }
}
