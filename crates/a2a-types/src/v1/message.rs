//! [`Message`] and [`Artifact`].

use serde::{Deserialize, Serialize};

use super::{ArtifactId, ContextId, MessageId, Part, Role, Struct, TaskId};
use crate::serde_util as su;

/// One unit of communication between a client and an agent.
///
/// ```
/// use a2a_types::v1::{Message, MessageId, Part, Role};
///
/// let msg = Message::new(MessageId::new("m-1"), Role::User, vec![Part::text("hi")]);
/// assert_eq!(
///     serde_json::to_string(&msg).unwrap(),
///     r#"{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Message {
    /// The id of the message, chosen by its creator. Required.
    #[serde(alias = "message_id", default, deserialize_with = "su::nullable")]
    pub message_id: MessageId,
    /// The context the message belongs to.
    #[serde(
        alias = "context_id",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub context_id: Option<ContextId>,
    /// The task the message belongs to.
    #[serde(
        alias = "task_id",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub task_id: Option<TaskId>,
    /// Who sent the message. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub role: Role,
    /// The content. Required (at least one part).
    #[serde(default, deserialize_with = "su::nullable")]
    pub parts: Vec<Part>,
    /// Metadata about the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
    /// URIs of the extensions present in or contributing to this message.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<String>,
    /// Tasks this message refers to for additional context.
    #[serde(
        alias = "reference_task_ids",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub reference_task_ids: Vec<TaskId>,
}

impl Message {
    /// A message with the required fields.
    pub fn new(message_id: impl Into<MessageId>, role: Role, parts: Vec<Part>) -> Self {
        Self {
            message_id: message_id.into(),
            role,
            parts,
            ..Self::default()
        }
    }

    /// A user message with a random id.
    #[cfg(feature = "uuid")]
    pub fn user(parts: Vec<Part>) -> Self {
        Self::new(MessageId::random(), Role::User, parts)
    }

    /// An agent message with a random id.
    #[cfg(feature = "uuid")]
    pub fn agent(parts: Vec<Part>) -> Self {
        Self::new(MessageId::random(), Role::Agent, parts)
    }

    /// A user message of one text part, with a random id.
    ///
    /// ```
    /// let msg = a2a_types::v1::Message::user_text("hi");
    /// assert_eq!(msg.text(), "hi");
    /// ```
    #[cfg(feature = "uuid")]
    pub fn user_text(text: impl Into<String>) -> Self {
        Self::user(vec![Part::text(text)])
    }

    /// An agent message of one text part, with a random id.
    #[cfg(feature = "uuid")]
    pub fn agent_text(text: impl Into<String>) -> Self {
        Self::agent(vec![Part::text(text)])
    }

    /// The text of the message's text parts, one line each: joined with `"\n"` between parts.
    ///
    /// Non-text parts are skipped. The parts of a message are separate pieces of one utterance
    /// (an instruction, then a quote), so they are kept apart, as the Python SDK's
    /// `get_message_text` does by default. [`Artifact::text`] differs: an artifact's parts are
    /// often the chunks of one streamed text, and are concatenated.
    ///
    /// ```
    /// use a2a_types::v1::{Message, Part, Role};
    ///
    /// let msg = Message::new("m-1", Role::User, vec![Part::text("Translate:"), Part::text("bonjour")]);
    /// assert_eq!(msg.text(), "Translate:\nbonjour");
    /// ```
    pub fn text(&self) -> String {
        let mut out = String::new();
        for text in self.parts.iter().filter_map(Part::as_text) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(text);
        }
        out
    }

    super::setters! {
        /// Sets the context id.
        with_context_id(context_id): opt ContextId;
        /// Sets the task id.
        with_task_id(task_id): opt TaskId;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
        /// Sets the extension URIs.
        with_extensions(extensions): list String;
        /// Sets the referenced task ids.
        with_reference_task_ids(reference_task_ids): list TaskId;
    }
}

/// An output of a task: a document, an image, a structured result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Artifact {
    /// The id of the artifact, unique within its task. Required.
    #[serde(alias = "artifact_id", default, deserialize_with = "su::nullable")]
    pub artifact_id: ArtifactId,
    /// A human-readable name.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub name: Option<String>,
    /// A human-readable description.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub description: Option<String>,
    /// The content. Required (at least one part).
    #[serde(default, deserialize_with = "su::nullable")]
    pub parts: Vec<Part>,
    /// Metadata about the artifact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
    /// URIs of the extensions present in or contributing to this artifact.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<String>,
}

impl Artifact {
    /// An artifact with the required fields.
    pub fn new(artifact_id: impl Into<ArtifactId>, parts: Vec<Part>) -> Self {
        Self {
            artifact_id: artifact_id.into(),
            parts,
            ..Self::default()
        }
    }

    /// The text of the artifact: its text parts concatenated as they are, with nothing between.
    ///
    /// Non-text parts are skipped. A streamed artifact grows by appending each chunk's parts
    /// (`append: true`), so after the chunks `"Hel"`, `"lo, "` and `"world"` this is
    /// `"Hello, world"`, the text the agent produced; an empty closing chunk adds nothing. An agent
    /// that wants lines puts the `"\n"` in its text. (The Python SDK's `get_artifact_text` joins
    /// with `"\n"` by default, which splits streamed words apart.)
    ///
    /// ```
    /// use a2a_types::v1::{Artifact, Part};
    ///
    /// let streamed = Artifact::new("a-1", vec![Part::text("Hel"), Part::text("lo, "), Part::text("world")]);
    /// assert_eq!(streamed.text(), "Hello, world");
    /// ```
    pub fn text(&self) -> String {
        self.parts.iter().filter_map(Part::as_text).collect()
    }

    super::setters! {
        /// Sets the name.
        with_name(name): opt String;
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
        /// Sets the extension URIs.
        with_extensions(extensions): list String;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifact_text_concatenates_streamed_chunks() {
        // Three chunks as a store appends them, then the empty closing chunk some SDKs send.
        let artifact = Artifact::new(
            "a-1",
            vec![
                Part::text("The quick "),
                Part::text("brown"),
                Part::text(" fox\njumps"),
                Part::text(""),
            ],
        );
        assert_eq!(artifact.text(), "The quick brown fox\njumps");
    }

    #[test]
    fn artifact_text_skips_non_text_parts() {
        let artifact = Artifact::new(
            "a-1",
            vec![
                Part::text("a"),
                Part::data(serde_json::json!({"k": 1})),
                Part::url("https://example.com/f.png"),
                Part::text("b"),
            ],
        );
        assert_eq!(artifact.text(), "ab");
        assert_eq!(Artifact::new("a-2", vec![Part::raw(*b"x")]).text(), "");
    }

    #[test]
    fn message_text_puts_each_text_part_on_its_own_line() {
        let message = Message::new(
            "m-1",
            Role::User,
            vec![
                Part::text("Translate:"),
                Part::data(serde_json::json!(null)),
                Part::text("bonjour"),
            ],
        );
        assert_eq!(message.text(), "Translate:\nbonjour");
        assert_eq!(
            Message::new("m-2", Role::User, vec![Part::text("one")]).text(),
            "one"
        );
        assert_eq!(Message::new("m-3", Role::User, vec![]).text(), "");
    }
}
