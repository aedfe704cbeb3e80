//! [`Task`], its status and state, [`Message`], [`Artifact`] and the two streaming events.

use serde::{Deserialize, Serialize};

use super::{Part, wire};
use crate::serde_util as su;
use crate::v1::{ContextId, Struct, TaskId, Timestamp};

crate::macros::string_enum! {
    /// The lifecycle state of a [`Task`].
    #[expect(
        clippy::exhaustive_enums,
        reason = "A2A 0.1 is a released, frozen version: its enums will not grow"
    )]
    TaskState (inline: false) {
        /// Received, not yet started (`submitted`).
        Submitted => "submitted",
        /// Being processed (`working`).
        Working => "working",
        /// The agent needs more input (`input-required`).
        InputRequired => "input-required",
        /// Finished successfully (`completed`).
        Completed => "completed",
        /// Canceled (`canceled`).
        Canceled => "canceled",
        /// Finished with an error (`failed`).
        Failed => "failed",
        /// Cannot be determined (`unknown`).
        Unknown => "unknown",
    }
}

impl TaskState {
    /// Completed, canceled or failed: the task will not change again.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Canceled | TaskState::Failed
        )
    }

    /// Terminal or input required: where a `tasks/sendSubscribe` stream ends with `final: true`.
    pub const fn is_final(self) -> bool {
        self.is_terminal() || matches!(self, TaskState::InputRequired)
    }
}

crate::macros::string_enum! {
    /// Who sent a [`Message`]. `a2a.json` declares it inline in `Message.role`, not as a definition.
    #[expect(
        clippy::exhaustive_enums,
        reason = "A2A 0.1 is a released, frozen version: its enums will not grow"
    )]
    Role (inline: true) {
        /// The client (`user`).
        User => "user",
        /// The agent (`agent`).
        Agent => "agent",
    }
}

/// One turn of communication within a task. 0.1 messages have no id.
///
/// ```
/// use a2a_types::v0_1::{Message, Part, Role};
///
/// let msg = Message::new(Role::User, vec![Part::text("hi")]);
/// assert_eq!(
///     serde_json::to_string(&msg).unwrap(),
///     r#"{"role":"user","parts":[{"type":"text","text":"hi"}]}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Message {
    /// Who sent the message. Required.
    pub role: Role,
    /// The content. Required.
    pub parts: Vec<Part>,
    /// Metadata about the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl Message {
    /// A message with the required fields.
    pub fn new(role: Role, parts: Vec<Part>) -> Self {
        Self {
            role,
            parts,
            metadata: None,
        }
    }

    /// A user message of one text part.
    pub fn user_text(text: impl Into<String>) -> Self {
        Self::new(Role::User, vec![Part::text(text)])
    }

    /// An agent message of one text part.
    pub fn agent_text(text: impl Into<String>) -> Self {
        Self::new(Role::Agent, vec![Part::text(text)])
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The status of a task: its state, an optional message and when it was recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskStatus {
    /// The state. Required.
    pub state: TaskState,
    /// A message that goes with the status (a question, a progress note, an error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// When the status was recorded. Read from RFC 3339 or from a date-time without offset
    /// (taken as UTC, as 0.1-era Python peers wrote it); written as RFC 3339 UTC.
    #[serde(
        default,
        deserialize_with = "wire::opt_timestamp",
        skip_serializing_if = "Option::is_none"
    )]
    pub timestamp: Option<Timestamp>,
}

impl TaskStatus {
    /// A status with this state, no message and no timestamp.
    pub fn new(state: TaskState) -> Self {
        Self {
            state,
            message: None,
            timestamp: None,
        }
    }

    crate::v1::setters! {
        /// Sets the message.
        with_message(message): opt Message;
        /// Sets the timestamp.
        with_timestamp(timestamp): opt Timestamp;
    }
}

/// An output of a task, or (in a [`TaskArtifactUpdateEvent`]) one chunk of it.
///
/// `index` identifies the artifact within its task: a chunk with `append: true` extends the
/// artifact of the same index. It is always written (`0` when not set), as the 0.1 examples show.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Artifact {
    /// A human-readable name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A human-readable description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The content. Required.
    pub parts: Vec<Part>,
    /// The position of the artifact within its task (default `0`).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "wire::never"
    )]
    pub index: u32,
    /// True when the parts extend the artifact of the same index sent before (streaming).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "su::is_false"
    )]
    pub append: bool,
    /// True on the last chunk of the artifact (streaming).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "su::is_false"
    )]
    pub last_chunk: bool,
    /// Metadata about the artifact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl Artifact {
    /// An artifact with index 0.
    pub fn new(parts: Vec<Part>) -> Self {
        Self {
            parts,
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the name.
        with_name(name): opt String;
        /// Sets the description.
        with_description(description): opt String;
        /// Sets the index.
        with_index(index): val u32;
        /// Sets `append`.
        with_append(append): val bool;
        /// Sets `lastChunk`.
        with_last_chunk(last_chunk): val bool;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The unit of work. In 0.1 the client chooses its id.
///
/// ```
/// use a2a_types::v0_1::{Task, TaskState, TaskStatus};
///
/// let task: Task = serde_json::from_str(
///     r#"{"id":"t-1","sessionId":"s-1","status":{"state":"completed"},"history":null}"#,
/// ).unwrap();
/// assert_eq!(task.status.state, TaskState::Completed);
/// assert_eq!(
///     serde_json::to_string(&task).unwrap(),
///     r#"{"id":"t-1","sessionId":"s-1","status":{"state":"completed"}}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Task {
    /// The id of the task, chosen by the client. Required.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub id: TaskId,
    /// The session the task belongs to (1.0's `contextId`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(with = "Option<String>"))]
    pub session_id: Option<ContextId>,
    /// The current status. Required.
    pub status: TaskStatus,
    /// The outputs produced so far.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub artifacts: Vec<Artifact>,
    /// Recent messages, oldest first, when requested with `historyLength`.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub history: Vec<Message>,
    /// Metadata about the task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl Task {
    /// A task with an id and a status.
    pub fn new(id: impl Into<TaskId>, status: TaskStatus) -> Self {
        Self {
            id: id.into(),
            session_id: None,
            status,
            artifacts: Vec::new(),
            history: Vec::new(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the session id.
        with_session_id(session_id): opt ContextId;
        /// Sets the artifacts.
        with_artifacts(artifacts): list Artifact;
        /// Sets the history.
        with_history(history): list Message;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// A change of a task's status, sent on a `tasks/sendSubscribe` or `tasks/resubscribe` stream.
///
/// `final` is always written; it is `true` on the last event of the stream (a terminal state or
/// `input-required`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskStatusUpdateEvent {
    /// The task that changed. Required.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub id: TaskId,
    /// The new status. Required.
    pub status: TaskStatus,
    /// True on the last event of the stream.
    #[serde(
        rename = "final",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "wire::never"
    )]
    pub is_final: bool,
    /// Metadata about the update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl TaskStatusUpdateEvent {
    /// An event with `final` set from the state ([`TaskState::is_final`]).
    pub fn new(id: impl Into<TaskId>, status: TaskStatus) -> Self {
        let is_final = status.state.is_final();
        Self {
            id: id.into(),
            status,
            is_final,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets `final`.
        with_final(is_final): val bool;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// A new or updated artifact, possibly one chunk of it, sent on a stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskArtifactUpdateEvent {
    /// The task the artifact belongs to. Required.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub id: TaskId,
    /// The artifact or chunk, with its `index`, `append` and `lastChunk`. Required.
    pub artifact: Artifact,
    /// Metadata about the update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl TaskArtifactUpdateEvent {
    /// An event with the required fields.
    pub fn new(id: impl Into<TaskId>, artifact: Artifact) -> Self {
        Self {
            id: id.into(),
            artifact,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The `result` of a [`SendTaskStreamingResponse`](super::SendTaskStreamingResponse): a status or
/// an artifact update. On input the two are told apart by their `status` or `artifact` key.
///
/// `a2a.json` writes this union inline (`anyOf`) and gives it no name.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum StreamEvent {
    /// A status change.
    Status(TaskStatusUpdateEvent),
    /// An artifact or a chunk of one.
    Artifact(TaskArtifactUpdateEvent),
}

impl StreamEvent {
    /// The id of the task.
    pub fn task_id(&self) -> &TaskId {
        match self {
            StreamEvent::Status(e) => &e.id,
            StreamEvent::Artifact(e) => &e.id,
        }
    }

    /// True on a status update with `final: true`.
    pub fn is_final(&self) -> bool {
        matches!(self, StreamEvent::Status(e) if e.is_final)
    }
}

impl From<TaskStatusUpdateEvent> for StreamEvent {
    fn from(event: TaskStatusUpdateEvent) -> Self {
        StreamEvent::Status(event)
    }
}

impl From<TaskArtifactUpdateEvent> for StreamEvent {
    fn from(event: TaskArtifactUpdateEvent) -> Self {
        StreamEvent::Artifact(event)
    }
}

impl<'de> Deserialize<'de> for StreamEvent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;

        let object = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        match (
            object.contains_key("status"),
            object.contains_key("artifact"),
        ) {
            (true, false) => super::part::inner(object.into()).map(StreamEvent::Status),
            (false, true) => super::part::inner(object.into()).map(StreamEvent::Artifact),
            _ => Err(D::Error::custom(
                "a 0.1 stream event holds exactly one of `status` (TaskStatusUpdateEvent) and `artifact` (TaskArtifactUpdateEvent)",
            )),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for StreamEvent {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StreamEvent".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_1::StreamEvent".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                generator.subschema_for::<TaskStatusUpdateEvent>(),
                generator.subschema_for::<TaskArtifactUpdateEvent>(),
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_kebab_case() {
        assert_eq!(
            serde_json::to_string(&TaskState::InputRequired).unwrap(),
            r#""input-required""#
        );
        let err = serde_json::from_str::<TaskState>(r#""rejected""#)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("unknown enum value `rejected` for TaskState, expected one of submitted, working, input-required, completed, canceled, failed, unknown"),
            "{err}"
        );
        for state in TaskState::ALL {
            assert_eq!(TaskState::from_name(state.as_str()), Some(*state));
        }
        let finals: Vec<_> = TaskState::ALL.iter().filter(|s| s.is_final()).collect();
        assert_eq!(
            finals,
            [
                &TaskState::InputRequired,
                &TaskState::Completed,
                &TaskState::Canceled,
                &TaskState::Failed
            ]
        );
    }

    #[test]
    fn nulls_read_as_absent_and_defaults_are_written() {
        let event: StreamEvent = serde_json::from_str(
            r#"{"id":"t","artifact":{"name":null,"description":null,"parts":[{"type":"text","text":"a","metadata":null}],"index":null,"append":null,"lastChunk":false,"metadata":null},"metadata":null}"#,
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&event).unwrap(),
            r#"{"id":"t","artifact":{"parts":[{"type":"text","text":"a"}],"index":0}}"#
        );
        let event: StreamEvent = serde_json::from_str(
            r#"{"id":"t","status":{"state":"working","timestamp":"2025-04-02T16:59:25.331844"}}"#,
        )
        .unwrap();
        assert_eq!(
            serde_json::to_string(&event).unwrap(),
            r#"{"id":"t","status":{"state":"working","timestamp":"2025-04-02T16:59:25.331844Z"},"final":false}"#
        );
        assert!(!event.is_final());
        assert!(serde_json::from_str::<StreamEvent>(r#"{"id":"t"}"#).is_err());
    }
}
