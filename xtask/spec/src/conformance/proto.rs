//! The 1.0 wire model read from `a2a.proto` with a real protobuf compiler (protox), as
//! [`Shape`]s that [`super::shape::Comparison`] holds our schema against.
//!
//! ProtoJSON rules applied: a field is written under its `json_name`; `repeated` is an array,
//! `map<K, V>` an object of V; enums are their value names; `int32` family a JSON number,
//! 64-bit integers a string or number; `bytes` a base64 string; `google.protobuf.Timestamp` a
//! string, `Struct` an object, `Value` anything, `Empty` an empty object. A field annotated
//! `(google.api.field_behavior) = REQUIRED` is required; each real (non-synthetic) `oneof` is
//! a group of members of which exactly one is present.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use protox::prost_reflect::{
    DescriptorPool, ExtensionDescriptor, FieldDescriptor, Kind as ProtoKind, Value as ProtoValue,
};
use serde_json::Value;

use super::shape::{Object, Shape};

/// `google.api.FieldBehavior.REQUIRED`.
const REQUIRED: i32 = 2;

/// What `a2a.proto` declares, as shapes by message or enum name.
#[derive(Debug, Default)]
pub(crate) struct ProtoModel {
    /// The proto package (`lf.a2a.v1`).
    pub(crate) package: String,
    /// Messages and enums of the package, by short name.
    pub(crate) shapes: BTreeMap<String, Shape>,
    /// Message names, in file order.
    pub(crate) messages: Vec<String>,
    /// Enum names, in file order.
    pub(crate) enums: Vec<String>,
    /// How many fields, REQUIRED fields, oneofs and enum values were read.
    pub(crate) fields: usize,
    pub(crate) required: usize,
    pub(crate) oneofs: usize,
    pub(crate) enum_values: usize,
}

/// Compiles `<spec_v1_dir>/a2a.proto` (google/api imports from the stubs in `xtask/spec/proto`).
pub(crate) fn load(spec_v1_dir: &Path, stubs_dir: &Path) -> Result<ProtoModel, String> {
    let file = spec_v1_dir.join("a2a.proto");
    if !file.is_file() {
        return Err(format!("{} not found", file.display()));
    }
    let mut compiler = protox::Compiler::new([spec_v1_dir, stubs_dir])
        .map_err(|e| format!("cannot set up the proto compiler: {e}"))?;
    compiler.include_imports(true);
    compiler
        .open_file("a2a.proto")
        .map_err(|e| format!("cannot compile {}: {e}", file.display()))?;
    let pool = compiler.descriptor_pool();
    let package = pool
        .files()
        .find(|f| f.name() == "a2a.proto")
        .map(|f| f.package_name().to_owned())
        .unwrap_or_default();
    let behavior = pool
        .get_extension_by_name("google.api.field_behavior")
        .ok_or("google.api.field_behavior is not defined (stub missing)")?;
    Ok(model(&pool, &package, &behavior))
}

fn model(pool: &DescriptorPool, package: &str, behavior: &ExtensionDescriptor) -> ProtoModel {
    let mut model = ProtoModel {
        package: package.to_owned(),
        ..ProtoModel::default()
    };
    for message in pool.all_messages() {
        if message.package_name() != package || message.is_map_entry() {
            continue;
        }
        let mut object = Object::default();
        let mut groups: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for field in message.fields() {
            model.fields += 1;
            let name = field.json_name().to_owned();
            if is_required(&field, behavior) {
                model.required += 1;
                object.required.insert(name.clone());
            }
            if let Some(oneof) = field.containing_oneof().filter(|o| !o.is_synthetic()) {
                groups
                    .entry(oneof.name().to_owned())
                    .or_default()
                    .insert(name.clone());
            }
            object.properties.insert(name, field_shape(&field, package));
        }
        model.oneofs += groups.len();
        object.one_of = groups.into_values().collect();
        let name = short_name(message.full_name(), package);
        model.messages.push(name.clone());
        model.shapes.insert(name, Shape::Object(object));
    }
    for en in pool.all_enums() {
        if en.package_name() != package {
            continue;
        }
        let values: Vec<Value> = en
            .values()
            .map(|v| Value::String(v.name().to_owned()))
            .collect();
        model.enum_values += values.len();
        let name = short_name(en.full_name(), package);
        model.enums.push(name.clone());
        model.shapes.insert(
            name,
            super::shape::union(values.into_iter().map(Shape::Const).collect()),
        );
    }
    model
}

fn short_name(full: &str, package: &str) -> String {
    full.strip_prefix(package)
        .and_then(|s| s.strip_prefix('.'))
        .unwrap_or(full)
        .to_owned()
}

fn is_required(field: &FieldDescriptor, behavior: &ExtensionDescriptor) -> bool {
    let options = field.options();
    if !options.has_extension(behavior) {
        return false;
    }
    match options.get_extension(behavior).as_ref() {
        ProtoValue::List(values) => values
            .iter()
            .any(|v| matches!(v, ProtoValue::EnumNumber(REQUIRED))),
        ProtoValue::EnumNumber(n) => *n == REQUIRED,
        _ => false,
    }
}

fn field_shape(field: &FieldDescriptor, package: &str) -> Shape {
    if field.is_map() {
        let ProtoKind::Message(entry) = field.kind() else {
            unreachable!("a map field is a message field");
        };
        let value = entry.map_entry_value_field();
        return Shape::Map(Box::new(kind_shape(&value.kind(), package)));
    }
    let shape = kind_shape(&field.kind(), package);
    if field.is_list() {
        Shape::Array(Box::new(shape))
    } else {
        shape
    }
}

fn kind_shape(kind: &ProtoKind, package: &str) -> Shape {
    match kind {
        ProtoKind::Double | ProtoKind::Float => Shape::Number,
        ProtoKind::Int32
        | ProtoKind::Uint32
        | ProtoKind::Sint32
        | ProtoKind::Fixed32
        | ProtoKind::Sfixed32 => Shape::Integer,
        // ProtoJSON writes 64-bit integers as strings and reads strings or numbers.
        ProtoKind::Int64
        | ProtoKind::Uint64
        | ProtoKind::Sint64
        | ProtoKind::Fixed64
        | ProtoKind::Sfixed64 => Shape::Union(vec![Shape::Integer, Shape::String]),
        ProtoKind::Bool => Shape::Boolean,
        ProtoKind::String | ProtoKind::Bytes => Shape::String,
        ProtoKind::Enum(en) => Shape::Ref(short_name(en.full_name(), package)),
        ProtoKind::Message(message) => match message.full_name() {
            "google.protobuf.Timestamp"
            | "google.protobuf.Duration"
            | "google.protobuf.FieldMask" => Shape::String,
            "google.protobuf.Struct" => Shape::Map(Box::new(Shape::Any)),
            "google.protobuf.Value" => Shape::Any,
            "google.protobuf.ListValue" => Shape::Array(Box::new(Shape::Any)),
            "google.protobuf.Empty" => Shape::Object(Object::default()),
            full if message.package_name() == package => Shape::Ref(short_name(full, package)),
            full => Shape::Other(format!("message {full}")),
        },
    }
}

/// The title the published 1.0 `a2a.json` gives the definition of a message: bufbuild's
/// generator splits the name into words before each capital that starts a lowercase run
/// (`AuthorizationCodeOAuthFlow` → `Authorization CodeO Auth Flow`).
pub(crate) fn bundle_title(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let starts_word = i > 0
            && c.is_ascii_uppercase()
            && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
        if starts_word {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_titles_split_like_the_generator() {
        assert_eq!(bundle_title("Task"), "Task");
        assert_eq!(bundle_title("AgentCard"), "Agent Card");
        assert_eq!(
            bundle_title("APIKeySecurityScheme"),
            "API Key Security Scheme"
        );
        assert_eq!(
            bundle_title("HTTPAuthSecurityScheme"),
            "HTTP Auth Security Scheme"
        );
        assert_eq!(
            bundle_title("AuthorizationCodeOAuthFlow"),
            "Authorization CodeO Auth Flow"
        );
        assert_eq!(
            bundle_title("OAuth2SecurityScheme"),
            "O Auth2 Security Scheme"
        );
        assert_eq!(bundle_title("OAuthFlows"), "O Auth Flows");
        assert_eq!(bundle_title("ImplicitOAuthFlow"), "ImplicitO Auth Flow");
    }
}
