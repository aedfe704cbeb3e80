//! [`Message`] and [`Artifact`].

use serde::{Deserialize, Serialize};

use super::Part;
use super::Role;
use super::consts::MessageKind;
use super::util::Object;
use crate::serde_util as su;

/// One unit of communication between a client and an agent (`"kind": "message"`).
///
/// ```
/// use a2a_types::v0_3::{Message, Part, Role};
///
/// let msg = Message::new("m-1", Role::User, vec![Part::text("hi")]);
/// assert_eq!(
///     serde_json::to_string(&msg).unwrap(),
///     r#"{"kind":"message","messageId":"m-1","role":"user","parts":[{"kind":"text","text":"hi"}]}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Message {
    /// Always `"message"` (read as such when absent).
    #[serde(default)]
    pub kind: MessageKind,
    /// The id of the message, chosen by its creator. Required.
    pub message_id: String,
    /// Who sent the message. Required.
    pub role: Role,
    /// The content. Required.
    pub parts: Vec<Part>,
    /// The context the message belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_id: Option<String>,
    /// The task the message belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
    /// Tasks this message refers to for additional context (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub reference_task_ids: Vec<String>,
    /// URIs of the extensions present in or contributing to this message (not written when
    /// empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<String>,
    /// Metadata about the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl Message {
    /// A message with the required fields.
    pub fn new(message_id: impl Into<String>, role: Role, parts: Vec<Part>) -> Self {
        Self {
            kind: MessageKind,
            message_id: message_id.into(),
            role,
            parts,
            context_id: None,
            task_id: None,
            reference_task_ids: Vec::new(),
            extensions: Vec::new(),
            metadata: None,
        }
    }

    /// The text of all text parts, joined with newlines.
    pub fn text(&self) -> String {
        join_text(&self.parts)
    }

    crate::v1::setters! {
        /// Sets the context id.
        with_context_id(context_id): opt String;
        /// Sets the task id.
        with_task_id(task_id): opt String;
        /// Sets the referenced task ids.
        with_reference_task_ids(reference_task_ids): list String;
        /// Sets the extension URIs.
        with_extensions(extensions): list String;
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

fn join_text(parts: &[Part]) -> String {
    let mut out = String::new();
    for text in parts.iter().filter_map(Part::as_text) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(text);
    }
    out
}

/// An output of a task: a document, an image, a structured result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Artifact {
    /// The id of the artifact, unique within its task. Required.
    pub artifact_id: String,
    /// A human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The content. Required.
    pub parts: Vec<Part>,
    /// URIs of the extensions present in or contributing to this artifact (not written when
    /// empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<String>,
    /// Metadata about the artifact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl Artifact {
    /// An artifact with the required fields.
    pub fn new(artifact_id: impl Into<String>, parts: Vec<Part>) -> Self {
        Self {
            artifact_id: artifact_id.into(),
            parts,
            ..Self::default()
        }
    }

    /// The text of all text parts, joined with newlines.
    pub fn text(&self) -> String {
        join_text(&self.parts)
    }

    crate::v1::setters! {
        /// Sets the name.
        with_name(name): opt String;
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the extension URIs.
        with_extensions(extensions): list String;
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}
