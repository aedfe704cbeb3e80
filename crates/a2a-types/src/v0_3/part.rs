//! [`Part`]: `kind`-tagged text, file and data parts.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::consts::{DataKind, FileKind, TextKind};
use super::util::{self, Object};

/// A piece of content in a [`Message`](super::Message) or an [`Artifact`](super::Artifact): a
/// text, file or data part, told apart by `kind`.
///
/// A part without `kind` is read by its shape (`text`, `file` or `data`), as the reference SDKs
/// do; a part is always written with its `kind`.
///
/// ```
/// use a2a_types::v0_3::Part;
///
/// let part: Part = serde_json::from_str(
///     r#"{"kind":"file","file":{"uri":"https://example.com/a.pdf","mimeType":"application/pdf"}}"#,
/// ).unwrap();
/// assert!(matches!(part, Part::File(_)));
/// assert_eq!(
///     serde_json::to_string(&Part::text("hi")).unwrap(),
///     r#"{"kind":"text","text":"hi"}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Part {
    /// A text part (`"kind": "text"`).
    Text(TextPart),
    /// A file part (`"kind": "file"`).
    File(FilePart),
    /// A structured data part (`"kind": "data"`).
    Data(DataPart),
}

impl Part {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Part::Text(TextPart::new(text))
    }

    /// A file part that carries the file's bytes (base64 on the wire).
    pub fn file_bytes(bytes: impl Into<Vec<u8>>) -> Self {
        Part::File(FilePart::new(FileWithBytes::new(bytes)))
    }

    /// A file part that points at the file by URI.
    pub fn file_uri(uri: impl Into<String>) -> Self {
        Part::File(FilePart::new(FileWithUri::new(uri)))
    }

    /// A data part.
    pub fn data(data: serde_json::Map<String, Value>) -> Self {
        Part::Data(DataPart::new(data))
    }

    /// The `kind` of the part: `text`, `file` or `data`.
    pub const fn kind(&self) -> &'static str {
        match self {
            Part::Text(_) => TextKind::VALUE,
            Part::File(_) => FileKind::VALUE,
            Part::Data(_) => DataKind::VALUE,
        }
    }

    /// The metadata of the part, whatever its kind.
    pub fn metadata(&self) -> Option<&serde_json::Map<String, Value>> {
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
        let object = Object::deserialize(d)?;
        let kind = match util::tag(&object, "kind") {
            Some(kind) => kind.to_owned(),
            None if object.contains_key("text") => TextKind::VALUE.to_owned(),
            None if object.contains_key("file") => FileKind::VALUE.to_owned(),
            None if object.contains_key("data") => DataKind::VALUE.to_owned(),
            None => {
                return Err(serde::de::Error::custom(
                    "Part needs `kind` (\"text\", \"file\" or \"data\")",
                ));
            }
        };
        let value = Value::Object(object);
        match kind.as_str() {
            TextKind::VALUE => util::from_value(value).map(Part::Text),
            FileKind::VALUE => util::from_value(value).map(Part::File),
            DataKind::VALUE => util::from_value(value).map(Part::Data),
            other => Err(serde::de::Error::custom(format_args!(
                "unknown Part kind `{other}`, expected one of text, file, data"
            ))),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Part {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Part".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_3::Part".into()
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

/// A text part: `{"kind": "text", "text": "..."}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TextPart {
    /// Always `"text"` (read as such when absent).
    #[serde(default)]
    pub kind: TextKind,
    /// The text. Required.
    pub text: String,
    /// Metadata about the part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl TextPart {
    /// A text part.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            kind: TextKind,
            text: text.into(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

/// A file part: `{"kind": "file", "file": {"bytes"|"uri": ..., "mimeType": ..., "name": ...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FilePart {
    /// Always `"file"` (read as such when absent).
    #[serde(default)]
    pub kind: FileKind,
    /// The file: its bytes or its URI. Required.
    pub file: FileContent,
    /// Metadata about the part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl FilePart {
    /// A file part.
    pub fn new(file: impl Into<FileContent>) -> Self {
        Self {
            kind: FileKind,
            file: file.into(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

/// A data part: `{"kind": "data", "data": {...}}`. The data is a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DataPart {
    /// Always `"data"` (read as such when absent).
    #[serde(default)]
    pub kind: DataKind,
    /// The data. Required.
    pub data: Object,
    /// Metadata about the part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl DataPart {
    /// A data part.
    pub fn new(data: Object) -> Self {
        Self {
            kind: DataKind,
            data,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

/// The `file` of a [`FilePart`]: [`FileWithBytes`] or [`FileWithUri`], told apart by which of
/// `bytes` and `uri` it holds (exactly one).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum FileContent {
    /// The file's content, inline.
    Bytes(FileWithBytes),
    /// A URI that points at the file.
    Uri(FileWithUri),
}

impl FileContent {
    /// The media type of the file.
    pub fn mime_type(&self) -> Option<&str> {
        match self {
            FileContent::Bytes(f) => f.mime_type.as_deref(),
            FileContent::Uri(f) => f.mime_type.as_deref(),
        }
    }

    /// The name of the file.
    pub fn name(&self) -> Option<&str> {
        match self {
            FileContent::Bytes(f) => f.name.as_deref(),
            FileContent::Uri(f) => f.name.as_deref(),
        }
    }
}

impl From<FileWithBytes> for FileContent {
    fn from(file: FileWithBytes) -> Self {
        FileContent::Bytes(file)
    }
}

impl From<FileWithUri> for FileContent {
    fn from(file: FileWithUri) -> Self {
        FileContent::Uri(file)
    }
}

impl<'de> Deserialize<'de> for FileContent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let object = Object::deserialize(d)?;
        let bytes = object.get("bytes").is_some_and(|v| !v.is_null());
        let uri = object.get("uri").is_some_and(|v| !v.is_null());
        let value = Value::Object(object);
        match (bytes, uri) {
            (true, false) => util::from_value(value).map(FileContent::Bytes),
            (false, true) => util::from_value(value).map(FileContent::Uri),
            (true, true) => Err(serde::de::Error::custom(
                "file holds both `bytes` and `uri`, expected exactly one",
            )),
            (false, false) => Err(serde::de::Error::custom(
                "file needs `bytes` (FileWithBytes) or `uri` (FileWithUri)",
            )),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for FileContent {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FileContent".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                generator.subschema_for::<FileWithBytes>(),
                generator.subschema_for::<FileWithUri>(),
            ]
        })
    }
}

/// A file given by its content: `{"bytes": "<base64>", "mimeType": ..., "name": ...}`.
///
/// The bytes are decoded on input (standard or URL-safe base64, padded or not) and written
/// as standard padded base64.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FileWithBytes {
    /// The content of the file. Required.
    #[serde(with = "util::base64_field")]
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub bytes: Vec<u8>,
    /// The media (MIME) type of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The name of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl FileWithBytes {
    /// A file with this content.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            bytes: bytes.into(),
            mime_type: None,
            name: None,
        }
    }

    crate::v1::setters! {
        /// Sets the media type.
        with_mime_type(mime_type): opt String;
        /// Sets the file name.
        with_name(name): opt String;
    }
}

/// A file given by a URI: `{"uri": "...", "mimeType": ..., "name": ...}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FileWithUri {
    /// Where the file is. Required.
    pub uri: String,
    /// The media (MIME) type of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The name of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl FileWithUri {
    /// A file at this URI.
    pub fn new(uri: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            mime_type: None,
            name: None,
        }
    }

    crate::v1::setters! {
        /// Sets the media type.
        with_mime_type(mime_type): opt String;
        /// Sets the file name.
        with_name(name): opt String;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parts_by_kind_and_by_shape() {
        let text: Part = serde_json::from_value(json!({"kind": "text", "text": "hi"})).unwrap();
        assert_eq!(text, Part::text("hi"));
        let bare: Part = serde_json::from_value(json!({"text": "hi"})).unwrap();
        assert_eq!(bare, Part::text("hi"));
        let data: Part = serde_json::from_value(json!({"data": {"a": 1}})).unwrap();
        assert_eq!(
            serde_json::to_value(&data).unwrap(),
            json!({"kind": "data", "data": {"a": 1}})
        );
        let file: Part = serde_json::from_value(
            json!({"kind": "file", "file": {"bytes": "aGk=", "mimeType": "text/plain", "name": "a.txt"}}),
        )
        .unwrap();
        let Part::File(FilePart {
            file: FileContent::Bytes(bytes),
            ..
        }) = &file
        else {
            panic!("not a bytes file: {file:?}");
        };
        assert_eq!(bytes.bytes, b"hi");
        assert_eq!(
            serde_json::to_value(&file).unwrap(),
            json!({"kind": "file", "file": {"bytes": "aGk=", "mimeType": "text/plain", "name": "a.txt"}})
        );
    }

    #[test]
    fn bad_parts_are_named() {
        let err = serde_json::from_value::<Part>(json!({"kind": "image"})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown Part kind `image`, expected one of text, file, data"
        );
        let err = serde_json::from_value::<Part>(json!({"kind": "file", "file": {"name": "x"}}))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "file: file needs `bytes` (FileWithBytes) or `uri` (FileWithUri)"
        );
        let err = serde_json::from_value::<Part>(json!({"kind": "file", "file": {"bytes": "!!"}}))
            .unwrap_err();
        assert!(
            err.to_string().starts_with("file: bytes: invalid base64"),
            "{err}"
        );
        let err = serde_json::from_value::<Part>(json!({"kind": "text", "data": {}})).unwrap_err();
        assert_eq!(err.to_string(), "missing field `text`");
        let err = serde_json::from_value::<Part>(json!({"kind": "data", "data": [1]})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "data: invalid type: sequence, expected a map"
        );
    }
}
