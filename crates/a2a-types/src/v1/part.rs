//! [`Part`]: one piece of message or artifact content.

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap as _;
use serde_json::Value;

use super::Struct;
use crate::serde_util::base64_bytes;

/// The content of a [`Part`]: the proto oneof `content`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PartContent {
    /// Text (`"text": "..."`).
    Text(String),
    /// Raw bytes of a file (`"raw": "<base64>"`).
    Raw(Vec<u8>),
    /// A URL that points at the content (`"url": "https://..."`).
    Url(String),
    /// Any JSON value (`"data": {...}`), including `null`.
    Data(Value),
}

impl PartContent {
    /// The JSON key of this member.
    pub const fn member_name(&self) -> &'static str {
        match self {
            PartContent::Text(_) => "text",
            PartContent::Raw(_) => "raw",
            PartContent::Url(_) => "url",
            PartContent::Data(_) => "data",
        }
    }
}

/// A piece of content in a [`Message`](super::Message) or an [`Artifact`](super::Artifact).
///
/// On the wire the content is flat: exactly one of `text`, `raw`, `url` or `data`, beside the
/// optional `metadata`, `filename` and `mediaType`.
///
/// ```
/// use a2a_types::v1::Part;
///
/// let part = Part::raw(b"\x89PNG".to_vec()).with_media_type("image/png").with_filename("a.png");
/// assert_eq!(
///     serde_json::to_string(&part).unwrap(),
///     r#"{"raw":"iVBORw==","filename":"a.png","mediaType":"image/png"}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Part {
    /// The content: text, raw bytes, a URL or structured data.
    pub content: PartContent,
    /// Metadata about this part.
    pub metadata: Option<Struct>,
    /// A file name for the content (`"document.pdf"`).
    pub filename: Option<String>,
    /// The media (MIME) type of the content (`"text/plain"`, `"image/png"`).
    pub media_type: Option<String>,
}

impl Part {
    /// A part with this content and nothing else.
    pub fn new(content: PartContent) -> Self {
        Self {
            content,
            metadata: None,
            filename: None,
            media_type: None,
        }
    }

    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(PartContent::Text(text.into()))
    }

    /// A part that carries raw file bytes (base64 on the wire).
    pub fn raw(bytes: impl Into<Vec<u8>>) -> Self {
        Self::new(PartContent::Raw(bytes.into()))
    }

    /// A part that points at its content by URL.
    pub fn url(url: impl Into<String>) -> Self {
        Self::new(PartContent::Url(url.into()))
    }

    /// A structured data part.
    pub fn data(data: impl Into<Value>) -> Self {
        Self::new(PartContent::Data(data.into()))
    }

    /// Sets the media type.
    #[must_use]
    pub fn with_media_type(mut self, media_type: impl Into<String>) -> Self {
        self.media_type = Some(media_type.into());
        self
    }

    /// Sets the file name.
    #[must_use]
    pub fn with_filename(mut self, filename: impl Into<String>) -> Self {
        self.filename = Some(filename.into());
        self
    }

    /// Sets the metadata.
    #[must_use]
    pub fn with_metadata(mut self, metadata: Struct) -> Self {
        self.metadata = Some(metadata);
        self
    }

    /// The text, if this is a text part.
    pub fn as_text(&self) -> Option<&str> {
        match &self.content {
            PartContent::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The bytes, if this is a raw part.
    pub fn as_raw(&self) -> Option<&[u8]> {
        match &self.content {
            PartContent::Raw(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// The URL, if this is a URL part.
    pub fn as_url(&self) -> Option<&str> {
        match &self.content {
            PartContent::Url(url) => Some(url),
            _ => None,
        }
    }

    /// The data, if this is a data part.
    pub fn as_data(&self) -> Option<&Value> {
        match &self.content {
            PartContent::Data(data) => Some(data),
            _ => None,
        }
    }
}

impl serde::Serialize for Part {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let filename = self.filename.as_deref().filter(|f| !f.is_empty());
        let media_type = self.media_type.as_deref().filter(|m| !m.is_empty());
        let len = 1
            + usize::from(self.metadata.is_some())
            + usize::from(filename.is_some())
            + usize::from(media_type.is_some());
        let mut map = s.serialize_map(Some(len))?;
        match &self.content {
            PartContent::Text(text) => map.serialize_entry("text", text)?,
            PartContent::Raw(bytes) => map.serialize_entry("raw", &base64_bytes::encode(bytes))?,
            PartContent::Url(url) => map.serialize_entry("url", url)?,
            PartContent::Data(data) => map.serialize_entry("data", data)?,
        }
        if let Some(metadata) = &self.metadata {
            map.serialize_entry("metadata", metadata)?;
        }
        if let Some(filename) = filename {
            map.serialize_entry("filename", filename)?;
        }
        if let Some(media_type) = media_type {
            map.serialize_entry("mediaType", media_type)?;
        }
        map.end()
    }
}

enum Field {
    Text,
    Raw,
    Url,
    Data,
    Metadata,
    Filename,
    MediaType,
    Other,
}

impl<'de> serde::Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                Ok(match v {
                    "text" => Field::Text,
                    "raw" => Field::Raw,
                    "url" => Field::Url,
                    "data" => Field::Data,
                    "metadata" => Field::Metadata,
                    "filename" => Field::Filename,
                    "mediaType" | "media_type" => Field::MediaType,
                    _ => Field::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// Reads a base64 string into bytes.
struct Base64(Vec<u8>);

impl<'de> serde::Deserialize<'de> for Base64 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Base64;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a base64 string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Base64, E> {
                base64_bytes::decode(v).map(Base64).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

/// `data` keeps `null` (a `google.protobuf.Value` null), unlike the other members.
struct DataValue(Value);

impl<'de> serde::Deserialize<'de> for DataValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(DataValue)
    }
}

impl<'de> serde::Deserialize<'de> for Part {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Part;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a Part object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Part, A::Error> {
                let mut content: Option<PartContent> = None;
                let mut metadata = None;
                let mut filename = None;
                let mut media_type = None;
                let set = |content: &mut Option<PartContent>, new: PartContent| {
                    if let Some(prev) = content {
                        return Err(super::oneof::two_members::<A::Error>(
                            "Part",
                            "content",
                            prev.member_name(),
                            new.member_name(),
                        ));
                    }
                    *content = Some(new);
                    Ok(())
                };
                while let Some(field) = map.next_key::<Field>()? {
                    match field {
                        Field::Text => {
                            if let Some(text) = map.next_value::<Option<String>>()? {
                                set(&mut content, PartContent::Text(text))?;
                            }
                        }
                        Field::Raw => {
                            if let Some(Base64(bytes)) = map.next_value::<Option<Base64>>()? {
                                set(&mut content, PartContent::Raw(bytes))?;
                            }
                        }
                        Field::Url => {
                            if let Some(url) = map.next_value::<Option<String>>()? {
                                set(&mut content, PartContent::Url(url))?;
                            }
                        }
                        Field::Data => {
                            let DataValue(data) = map.next_value()?;
                            set(&mut content, PartContent::Data(data))?;
                        }
                        Field::Metadata => metadata = map.next_value::<Option<Struct>>()?,
                        Field::Filename => {
                            filename = map
                                .next_value::<Option<String>>()?
                                .filter(|s| !s.is_empty());
                        }
                        Field::MediaType => {
                            media_type = map
                                .next_value::<Option<String>>()?
                                .filter(|s| !s.is_empty());
                        }
                        Field::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let content = content.ok_or_else(|| {
                    super::oneof::no_member::<A::Error>(
                        "Part",
                        "content",
                        &["text", "raw", "url", "data"],
                    )
                })?;
                Ok(Part {
                    content,
                    metadata,
                    filename,
                    media_type,
                })
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Part {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Part".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v1::Part".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        super::oneof::schema(
            vec![
                ("text", schemars::json_schema!({ "type": "string" })),
                (
                    "raw",
                    schemars::json_schema!({
                        "type": "string",
                        "contentEncoding": "base64",
                        "pattern": "^[A-Za-z0-9+/_-]*={0,2}$"
                    }),
                ),
                ("url", schemars::json_schema!({ "type": "string" })),
                ("data", schemars::json_schema!(true)),
            ],
            vec![
                ("metadata", generator.subschema_for::<Struct>()),
                ("filename", schemars::json_schema!({ "type": "string" })),
                ("mediaType", schemars::json_schema!({ "type": "string" })),
            ],
        )
    }
}
