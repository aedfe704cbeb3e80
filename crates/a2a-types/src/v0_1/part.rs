//! [`Part`] and its three kinds: [`TextPart`], [`FilePart`] (with [`FileContent`]) and
//! [`DataPart`], told apart by their `type`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tag::{DataTag, FileTag, TextTag};
use super::wire;
use crate::v1::Struct;

/// A piece of text (`{"type": "text", "text": "..."}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextPart {
    /// Always `"text"`. Required.
    #[serde(rename = "type")]
    pub r#type: TextTag,
    /// The text. Required.
    pub text: String,
    /// Metadata about this part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl TextPart {
    /// A text part.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            r#type: TextTag,
            text: text.into(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The content of a [`FilePart`]: inline bytes or a URI, with an optional name and MIME type.
///
/// The specification asks for exactly one of `bytes` and `uri`, and permits (but discourages) an
/// empty object; this type reads all four combinations.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FileContent {
    /// The original file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The MIME type (`"image/png"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The file's content, base64 on the wire (standard alphabet on output; URL-safe and
    /// unpadded accepted on input).
    #[serde(
        default,
        with = "wire::opt_base64",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "schemars", schemars(with = "Option<String>"))]
    pub bytes: Option<Vec<u8>>,
    /// A URI that points at the file's content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

impl FileContent {
    /// A file given inline by its bytes.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            bytes: Some(bytes.into()),
            ..Self::default()
        }
    }

    /// A file given by a URI.
    pub fn from_uri(uri: impl Into<String>) -> Self {
        Self {
            uri: Some(uri.into()),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the file name.
        with_name(name): opt String;
        /// Sets the MIME type.
        with_mime_type(mime_type): opt String;
    }
}

/// A file, inline or by URI (`{"type": "file", "file": {...}}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FilePart {
    /// Always `"file"`. Required.
    #[serde(rename = "type")]
    pub r#type: FileTag,
    /// The file. Required.
    pub file: FileContent,
    /// Metadata about this part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl FilePart {
    /// A file part.
    pub fn new(file: FileContent) -> Self {
        Self {
            r#type: FileTag,
            file,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// Structured data, a JSON object (`{"type": "data", "data": {...}}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DataPart {
    /// Always `"data"`. Required.
    #[serde(rename = "type")]
    pub r#type: DataTag,
    /// The data. Required.
    pub data: Struct,
    /// Metadata about this part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl DataPart {
    /// A data part.
    pub fn new(data: Struct) -> Self {
        Self {
            r#type: DataTag,
            data,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// A piece of content of a [`Message`](super::Message) or an [`Artifact`](super::Artifact): text,
/// a file or structured data, told apart by `type`.
///
/// On input, a part without `type` is read by the one content key it holds (`text`, `file` or
/// `data`); an unknown `type` is an error.
///
/// ```
/// use a2a_types::v0_1::Part;
///
/// let part: Part = serde_json::from_str(r#"{"type":"file","file":{"uri":"https://x/a.pdf"}}"#).unwrap();
/// let Part::File(file) = &part else { panic!("not a file") };
/// assert_eq!(file.file.uri.as_deref(), Some("https://x/a.pdf"));
/// assert_eq!(serde_json::to_string(&Part::text("hi")).unwrap(), r#"{"type":"text","text":"hi"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Part {
    /// Text.
    Text(TextPart),
    /// A file.
    File(FilePart),
    /// Structured data.
    Data(DataPart),
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text(TextPart::new(text))
    }

    /// A file part.
    pub fn file(file: FileContent) -> Self {
        Part::File(FilePart::new(file))
    }

    /// A data part.
    pub fn data(data: Struct) -> Self {
        Part::Data(DataPart::new(data))
    }

    /// The `type` of this part: `"text"`, `"file"` or `"data"`.
    pub const fn type_name(&self) -> &'static str {
        match self {
            Part::Text(_) => TextTag::VALUE,
            Part::File(_) => FileTag::VALUE,
            Part::Data(_) => DataTag::VALUE,
        }
    }

    /// The metadata of this part.
    pub fn metadata(&self) -> Option<&Struct> {
        match self {
            Part::Text(p) => p.metadata.as_ref(),
            Part::File(p) => p.metadata.as_ref(),
            Part::Data(p) => p.metadata.as_ref(),
        }
    }

    /// The text, if this is a text part.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Part::Text(p) => Some(&p.text),
            _ => None,
        }
    }
}

impl From<TextPart> for Part {
    fn from(part: TextPart) -> Self {
        Part::Text(part)
    }
}

impl From<FilePart> for Part {
    fn from(part: FilePart) -> Self {
        Part::File(part)
    }
}

impl From<DataPart> for Part {
    fn from(part: DataPart) -> Self {
        Part::Data(part)
    }
}

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;

        let mut object = serde_json::Map::<String, Value>::deserialize(d)?;
        let kind = match object.get("type") {
            Some(Value::String(kind)) => kind.clone(),
            Some(other) => {
                return Err(D::Error::custom(format_args!(
                    "part `type` must be a string, found {other}"
                )));
            }
            None => {
                let found: Vec<&str> = [TextTag::VALUE, FileTag::VALUE, DataTag::VALUE]
                    .into_iter()
                    .filter(|key| object.contains_key(*key))
                    .collect();
                let [only] = found.as_slice() else {
                    return Err(D::Error::custom(
                        "part has no `type` and not exactly one of `text`, `file`, `data`",
                    ));
                };
                let kind = (*only).to_owned();
                object.insert("type".to_owned(), Value::String(kind.clone()));
                kind
            }
        };
        let value = Value::Object(object);
        match kind.as_str() {
            "text" => inner(value).map(Part::Text),
            "file" => inner(value).map(Part::File),
            "data" => inner(value).map(Part::Data),
            other => Err(D::Error::custom(format_args!(
                "unknown part type `{other}`, expected one of text, file, data"
            ))),
        }
    }
}

/// Decodes one kind of part, keeping the path inside it in the message (`file.bytes: ...`).
pub(crate) fn inner<T: serde::de::DeserializeOwned, E: serde::de::Error>(
    value: Value,
) -> Result<T, E> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if path == "." {
            E::custom(inner)
        } else {
            E::custom(format_args!("{path}: {inner}"))
        }
    })
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Part {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Part".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_1::Part".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                generator.subschema_for::<TextPart>(),
                generator.subschema_for::<FilePart>(),
                generator.subschema_for::<DataPart>(),
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_by_type() {
        let part: Part =
            serde_json::from_str(r#"{"type":"data","data":{"k":1},"metadata":null}"#).unwrap();
        assert_eq!(part.type_name(), "data");
        assert_eq!(
            serde_json::to_string(&part).unwrap(),
            r#"{"type":"data","data":{"k":1}}"#
        );
        let part: Part = serde_json::from_str(
            r#"{"type":"file","file":{"bytes":"aGk=","mimeType":"text/plain","name":null}}"#,
        )
        .unwrap();
        let Part::File(file) = &part else {
            panic!("{part:?}")
        };
        assert_eq!(file.file.bytes.as_deref(), Some(&b"hi"[..]));
        assert_eq!(
            serde_json::to_string(&part).unwrap(),
            r#"{"type":"file","file":{"mimeType":"text/plain","bytes":"aGk="}}"#
        );
    }

    #[test]
    fn missing_type_is_inferred_from_the_content_key() {
        let part: Part = serde_json::from_str(r#"{"text":"hi"}"#).unwrap();
        assert_eq!(part, Part::text("hi"));
        assert!(serde_json::from_str::<Part>(r#"{"metadata":{}}"#).is_err());
        assert!(serde_json::from_str::<Part>(r#"{"text":"a","data":{}}"#).is_err());
    }

    #[test]
    fn errors_name_the_field_inside_the_part() {
        let err = serde_json::from_str::<Part>(r#"{"type":"file","file":{"bytes":"!!"}}"#)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("file.bytes: invalid base64"), "{err}");
        let err = serde_json::from_str::<Part>(r#"{"type":"video"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("unknown part type `video`"), "{err}");
        let err = serde_json::from_str::<Part>(r#"{"type":"text"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("missing field `text`"), "{err}");
    }
}
