//! Conversions between A2A 0.1 and the 1.0 core model ([`crate::v1`]).
//!
//! `From` where every 0.1 value has a 1.0 counterpart, and for most of the way back; `TryFrom`
//! (with [`ConversionError`]) where 1.0 may lack what 0.1 requires: a task id chosen by the
//! client, a task where 1.0 answers with a message, a JSON-RPC endpoint in a card. What each
//! direction loses is listed in the crate's `docs/versions.md` (section 0.1).

use std::fmt;

use serde_json::Value;

use super::*;
use crate::v1;

/// A 1.0 value that has no 0.1 form.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConversionError {
    /// 0.1 needs a task id the client chooses, and this 1.0 value has none.
    MissingTaskId {
        /// Where the id was looked for (`"message.taskId"`).
        field: &'static str,
    },
    /// A `SendMessage` answered with a message; a 0.1 `tasks/send` returns a task. A server
    /// adapter answers with the task under the id the client chose, the message as its status
    /// message ([`Task::from_v1_message`]).
    MessageResult,
    /// A message event in a stream; 0.1 streams carry only status and artifact updates.
    MessageEvent,
    /// The card lists no `JSONRPC` interface, and 0.1 peers speak only JSON-RPC.
    NoJsonRpcInterface,
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConversionError::MissingTaskId { field } => write!(
                f,
                "A2A 0.1 needs a client-chosen task id, but `{field}` is not set"
            ),
            ConversionError::MessageResult => f.write_str(
                "A2A 0.1 `tasks/send` returns a task, but the 1.0 result is a message",
            ),
            ConversionError::MessageEvent => f.write_str(
                "A2A 0.1 streams carry status and artifact updates only, but the 1.0 event is a message",
            ),
            ConversionError::NoJsonRpcInterface => f.write_str(
                "A2A 0.1 peers speak JSON-RPC only, but the card lists no JSONRPC interface",
            ),
        }
    }
}

impl std::error::Error for ConversionError {}

/// The `protocolVersion` of the 1.0 [`AgentInterface`](v1::AgentInterface) that a 0.1 card's
/// `url` becomes: `"0.1"` (1.0 writes versions as `Major.Minor`).
pub const PROTOCOL_VERSION: &str = "0.1";

// ------------------------------------------------------------------------------------------------
// Artifact ids

const ARTIFACT_ID_PREFIX: &str = "artifact-";

/// The 1.0 artifact id of the 0.1 artifact at `index`: `artifact-{index}`.
///
/// ```
/// use a2a_types::v0_1::{artifact_id_for_index, artifact_index_for_id};
///
/// assert_eq!(artifact_id_for_index(3), "artifact-3");
/// assert_eq!(artifact_index_for_id(&artifact_id_for_index(3)), 3);
/// ```
pub fn artifact_id_for_index(index: u32) -> v1::ArtifactId {
    v1::ArtifactId::new(format!("{ARTIFACT_ID_PREFIX}{index}"))
}

/// The 0.1 `index` of the 1.0 artifact with this id.
///
/// An id of the form `artifact-{n}` (`n` a canonical decimal `u32`, as
/// [`artifact_id_for_index`] writes it) gives `n`. Any other id gives a stable number derived
/// from the id (a 30-bit FNV-1a hash, plus 2³⁰), so every chunk and every snapshot of the same
/// 1.0 artifact gets the same 0.1 index without any state, and such indexes never collide with
/// the small ordinals 0.1 agents use.
///
/// ```
/// use a2a_types::v0_1::artifact_index_for_id;
/// use a2a_types::v1::ArtifactId;
///
/// let index = artifact_index_for_id(&ArtifactId::new("report"));
/// assert_eq!(index, artifact_index_for_id(&ArtifactId::new("report")));
/// assert!(index >= 1 << 30);
/// assert_ne!(artifact_index_for_id(&ArtifactId::new("artifact-07")), 7);
/// ```
pub fn artifact_index_for_id(id: &v1::ArtifactId) -> u32 {
    let id = id.as_str();
    if let Some(digits) = id.strip_prefix(ARTIFACT_ID_PREFIX) {
        let canonical = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        if let Some(index) = canonical.then(|| digits.parse::<u32>().ok()).flatten() {
            return index;
        }
    }
    let mut hash: u32 = 0x811c_9dc5;
    for byte in id.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    (hash & 0x3fff_ffff) | 0x4000_0000
}

// ------------------------------------------------------------------------------------------------
// Error codes

/// The 1.0 code for an error code a 0.1 peer sent.
///
/// | 0.1 code | meaning in 0.1 | 1.0 code |
/// |---|---|---|
/// | -32700, -32600 … -32603 | JSON-RPC | same |
/// | -32001 … -32004 | `a2a.json` 0.1 | same (same meaning in 1.0) |
/// | -32005 | content type not supported (spec text §8.2) | -32005 (same meaning) |
/// | -32006 | streaming not supported (0.1-era implementations) | -32004 `UnsupportedOperationError` |
/// | -32007 | authentication required (0.1-era) | -32600 `InvalidRequestError` |
/// | -32008 | authorization failed (0.1-era) | -32600 `InvalidRequestError` |
/// | -32009 | invalid task state (0.1-era) | -32004 `UnsupportedOperationError` |
/// | anything else (-32010, -32011, own codes) | | same |
///
/// -32006 to -32009 must not pass through: 1.0 gives them other meanings
/// (`InvalidAgentResponseError`, `ExtendedAgentCardNotConfiguredError`,
/// `ExtensionSupportRequiredError`, `VersionNotSupportedError`). -32010 and -32011 are
/// unassigned in 1.0, so they keep their code.
///
/// ```
/// use a2a_types::v0_1::error_code_to_v1;
///
/// assert_eq!(error_code_to_v1(-32001), -32001);
/// assert_eq!(error_code_to_v1(-32006), -32004);
/// ```
pub const fn error_code_to_v1(code: i32) -> i32 {
    match code {
        code::LEGACY_STREAMING_NOT_SUPPORTED | code::LEGACY_INVALID_TASK_STATE => {
            code::UNSUPPORTED_OPERATION
        }
        code::LEGACY_AUTHENTICATION_REQUIRED | code::LEGACY_AUTHORIZATION_FAILED => {
            code::INVALID_REQUEST
        }
        other => other,
    }
}

/// The 0.1 code for a 1.0 error code, to answer a 0.1 peer.
///
/// | 1.0 code | 1.0 meaning | 0.1 code |
/// |---|---|---|
/// | -32700, -32600 … -32603, -32001 … -32005 | | same |
/// | -32006 | `InvalidAgentResponseError` | -32603 `InternalError` |
/// | -32007 | `ExtendedAgentCardNotConfiguredError` | -32004 `UnsupportedOperationError` |
/// | -32008 | `ExtensionSupportRequiredError` | -32600 `InvalidRequestError` |
/// | -32009 | `VersionNotSupportedError` | -32600 `InvalidRequestError` |
/// | anything else | | same |
///
/// A 0.1-era peer may read -32006 to -32009 as streaming not supported, authentication
/// required, authorization failed and invalid task state; none of those is what 1.0 means.
///
/// ```
/// use a2a_types::v0_1::error_code_from_v1;
///
/// assert_eq!(error_code_from_v1(-32009), -32600);
/// assert_eq!(error_code_from_v1(-32002), -32002);
/// ```
pub const fn error_code_from_v1(code: i32) -> i32 {
    match code {
        -32006 => code::INTERNAL_ERROR,
        -32007 => code::UNSUPPORTED_OPERATION,
        -32008 | -32009 => code::INVALID_REQUEST,
        other => other,
    }
}

// ------------------------------------------------------------------------------------------------
// Enums

impl From<TaskState> for v1::TaskState {
    fn from(state: TaskState) -> Self {
        match state {
            TaskState::Submitted => v1::TaskState::Submitted,
            TaskState::Working => v1::TaskState::Working,
            TaskState::InputRequired => v1::TaskState::InputRequired,
            TaskState::Completed => v1::TaskState::Completed,
            TaskState::Canceled => v1::TaskState::Canceled,
            TaskState::Failed => v1::TaskState::Failed,
            TaskState::Unknown => v1::TaskState::Unspecified,
        }
    }
}

impl From<v1::TaskState> for TaskState {
    /// `REJECTED` becomes `failed` and `AUTH_REQUIRED` becomes `input-required`: 0.1 has neither.
    fn from(state: v1::TaskState) -> Self {
        match state {
            v1::TaskState::Unspecified => TaskState::Unknown,
            v1::TaskState::Submitted => TaskState::Submitted,
            v1::TaskState::Working => TaskState::Working,
            v1::TaskState::Completed => TaskState::Completed,
            v1::TaskState::Failed | v1::TaskState::Rejected => TaskState::Failed,
            v1::TaskState::Canceled => TaskState::Canceled,
            v1::TaskState::InputRequired | v1::TaskState::AuthRequired => TaskState::InputRequired,
        }
    }
}

impl From<Role> for v1::Role {
    fn from(role: Role) -> Self {
        match role {
            Role::User => v1::Role::User,
            Role::Agent => v1::Role::Agent,
        }
    }
}

impl From<v1::Role> for Role {
    /// `ROLE_UNSPECIFIED` becomes `agent`.
    fn from(role: v1::Role) -> Self {
        match role {
            v1::Role::User => Role::User,
            v1::Role::Agent | v1::Role::Unspecified => Role::Agent,
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Parts, messages, artifacts

/// The key under which a 1.0 `data` part that is not a JSON object is wrapped in 0.1, whose data
/// parts hold objects only: `{"value": <data>}`.
pub const DATA_VALUE_KEY: &str = "value";

impl From<Part> for v1::Part {
    /// A file with both `bytes` and `uri` keeps the bytes; a file with neither becomes empty
    /// `raw` bytes.
    fn from(part: Part) -> Self {
        match part {
            Part::Text(p) => v1::Part {
                content: v1::PartContent::Text(p.text),
                metadata: p.metadata,
                filename: None,
                media_type: None,
            },
            Part::File(p) => {
                let FileContent {
                    name,
                    mime_type,
                    bytes,
                    uri,
                } = p.file;
                let content = match (bytes, uri) {
                    (Some(bytes), _) => v1::PartContent::Raw(bytes),
                    (None, Some(uri)) => v1::PartContent::Url(uri),
                    (None, None) => v1::PartContent::Raw(Vec::new()),
                };
                v1::Part {
                    content,
                    metadata: p.metadata,
                    filename: name,
                    media_type: mime_type,
                }
            }
            Part::Data(p) => v1::Part {
                content: v1::PartContent::Data(Value::Object(p.data)),
                metadata: p.metadata,
                filename: None,
                media_type: None,
            },
        }
    }
}

impl From<v1::Part> for Part {
    /// `raw` and `url` become a file part (with `filename` and `mediaType` as its `name` and
    /// `mimeType`); the `filename` and `mediaType` of text and data parts are dropped; data that
    /// is not a JSON object is wrapped as `{"value": <data>}`.
    fn from(part: v1::Part) -> Self {
        let v1::Part {
            content,
            metadata,
            filename,
            media_type,
        } = part;
        match content {
            v1::PartContent::Text(text) => Part::Text(TextPart {
                r#type: tag::TextTag,
                text,
                metadata,
            }),
            v1::PartContent::Raw(bytes) => Part::File(FilePart {
                r#type: tag::FileTag,
                file: FileContent {
                    name: filename,
                    mime_type: media_type,
                    bytes: Some(bytes),
                    uri: None,
                },
                metadata,
            }),
            v1::PartContent::Url(uri) => Part::File(FilePart {
                r#type: tag::FileTag,
                file: FileContent {
                    name: filename,
                    mime_type: media_type,
                    bytes: None,
                    uri: Some(uri),
                },
                metadata,
            }),
            v1::PartContent::Data(data) => {
                let data = match data {
                    Value::Object(object) => object,
                    other => std::iter::once((DATA_VALUE_KEY.to_owned(), other)).collect(),
                };
                Part::Data(DataPart {
                    r#type: tag::DataTag,
                    data,
                    metadata,
                })
            }
        }
    }
}

fn parts_to_v1(parts: Vec<Part>) -> Vec<v1::Part> {
    parts.into_iter().map(Into::into).collect()
}

fn parts_from_v1(parts: Vec<v1::Part>) -> Vec<Part> {
    parts.into_iter().map(Into::into).collect()
}

impl From<Message> for v1::Message {
    /// 0.1 messages have no id: the 1.0 message has an empty `messageId` (written as
    /// `"messageId": ""`, since the field is `REQUIRED`), and no task or context id. Whoever hands
    /// it to 1.0 code that needs an id assigns one (`MessageId::random()`).
    fn from(message: Message) -> Self {
        message_to_v1(message, None, None)
    }
}

/// A 0.1 message as a 1.0 message of this task and context.
fn message_to_v1(
    message: Message,
    task_id: Option<&v1::TaskId>,
    context_id: Option<&v1::ContextId>,
) -> v1::Message {
    v1::Message {
        message_id: v1::MessageId::default(),
        context_id: context_id.cloned(),
        task_id: task_id.cloned(),
        role: message.role.into(),
        parts: parts_to_v1(message.parts),
        metadata: message.metadata,
        extensions: Vec::new(),
        reference_task_ids: Vec::new(),
    }
}

impl From<v1::Message> for Message {
    /// Drops `messageId`, `contextId`, `taskId`, `extensions` and `referenceTaskIds`, which 0.1
    /// messages do not have.
    fn from(message: v1::Message) -> Self {
        Message {
            role: message.role.into(),
            parts: parts_from_v1(message.parts),
            metadata: message.metadata,
        }
    }
}

impl From<Artifact> for v1::Artifact {
    /// The id is `artifact-{index}` ([`artifact_id_for_index`]). `append` and `lastChunk` belong
    /// to the 1.0 [`TaskArtifactUpdateEvent`](v1::TaskArtifactUpdateEvent), not the artifact: use
    /// the event conversion to keep them.
    fn from(artifact: Artifact) -> Self {
        v1::Artifact {
            artifact_id: artifact_id_for_index(artifact.index),
            name: artifact.name,
            description: artifact.description,
            parts: parts_to_v1(artifact.parts),
            metadata: artifact.metadata,
            extensions: Vec::new(),
        }
    }
}

impl From<v1::Artifact> for Artifact {
    /// The index comes from the id ([`artifact_index_for_id`]); `extensions` are dropped.
    fn from(artifact: v1::Artifact) -> Self {
        Artifact {
            name: artifact.name,
            description: artifact.description,
            parts: parts_from_v1(artifact.parts),
            index: artifact_index_for_id(&artifact.artifact_id),
            append: false,
            last_chunk: false,
            metadata: artifact.metadata,
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Tasks and events

/// A 0.1 status as a 1.0 status, its message tagged with the task and context.
fn status_to_v1(
    status: TaskStatus,
    task_id: Option<&v1::TaskId>,
    context_id: Option<&v1::ContextId>,
) -> v1::TaskStatus {
    v1::TaskStatus {
        state: status.state.into(),
        message: status
            .message
            .map(|m| message_to_v1(m, task_id, context_id)),
        timestamp: status.timestamp,
    }
}

impl From<TaskStatus> for v1::TaskStatus {
    fn from(status: TaskStatus) -> Self {
        status_to_v1(status, None, None)
    }
}

impl From<v1::TaskStatus> for TaskStatus {
    fn from(status: v1::TaskStatus) -> Self {
        TaskStatus {
            state: status.state.into(),
            message: status.message.map(Into::into),
            timestamp: status.timestamp,
        }
    }
}

impl From<Task> for v1::Task {
    /// `sessionId` becomes `contextId`; the messages of the status and the history are tagged
    /// with the task and context ids; each artifact's id comes from its index.
    fn from(task: Task) -> Self {
        let Task {
            id,
            session_id,
            status,
            artifacts,
            history,
            metadata,
        } = task;
        let status = status_to_v1(status, Some(&id), session_id.as_ref());
        let history = history
            .into_iter()
            .map(|m| message_to_v1(m, Some(&id), session_id.as_ref()))
            .collect();
        v1::Task {
            generation: 0,
            id,
            context_id: session_id,
            status,
            artifacts: artifacts.into_iter().map(Into::into).collect(),
            history,
            metadata,
        }
    }
}

impl From<v1::Task> for Task {
    /// `contextId` becomes `sessionId`; each artifact's index comes from its id.
    fn from(task: v1::Task) -> Self {
        Task {
            id: task.id,
            session_id: task.context_id,
            status: task.status.into(),
            artifacts: task.artifacts.into_iter().map(Into::into).collect(),
            history: task.history.into_iter().map(Into::into).collect(),
            metadata: task.metadata,
        }
    }
}

impl Task {
    /// The 0.1 answer to a `tasks/send` that a 1.0 agent answered with a message rather than a
    /// task: a completed task under the id the client chose, the message as its status message.
    pub fn from_v1_message(id: impl Into<v1::TaskId>, message: v1::Message) -> Self {
        let session_id = message.context_id.clone();
        Task {
            session_id,
            ..Task::new(
                id,
                TaskStatus::new(TaskState::Completed).with_message(Message::from(message)),
            )
        }
    }
}

impl From<Task> for v1::SendMessageResponse {
    fn from(task: Task) -> Self {
        v1::SendMessageResponse::Task(task.into())
    }
}

impl TryFrom<v1::SendMessageResponse> for Task {
    type Error = ConversionError;

    /// A task converts; a message is [`ConversionError::MessageResult`] (see
    /// [`Task::from_v1_message`]).
    fn try_from(response: v1::SendMessageResponse) -> Result<Self, Self::Error> {
        match response {
            v1::SendMessageResponse::Task(task) => Ok(task.into()),
            v1::SendMessageResponse::Message(_) => Err(ConversionError::MessageResult),
        }
    }
}

impl From<TaskStatusUpdateEvent> for v1::TaskStatusUpdateEvent {
    /// `final` is dropped (1.0 ends the stream instead). 0.1 events carry no session: the
    /// `contextId` is empty, for the caller to fill in from the task if it knows it.
    fn from(event: TaskStatusUpdateEvent) -> Self {
        v1::TaskStatusUpdateEvent {
            generation: 0,
            status: status_to_v1(event.status, Some(&event.id), None),
            task_id: event.id,
            context_id: v1::ContextId::default(),
            metadata: event.metadata,
        }
    }
}

impl From<v1::TaskStatusUpdateEvent> for TaskStatusUpdateEvent {
    /// `final` is true in terminal and interrupted states ([`v1::TaskState::is_final`]);
    /// `contextId` is dropped.
    fn from(event: v1::TaskStatusUpdateEvent) -> Self {
        TaskStatusUpdateEvent {
            id: event.task_id,
            is_final: event.status.state.is_final(),
            status: event.status.into(),
            metadata: event.metadata,
        }
    }
}

impl From<TaskArtifactUpdateEvent> for v1::TaskArtifactUpdateEvent {
    /// The artifact's `append` and `lastChunk` move to the event; its id comes from its index.
    /// The `contextId` is empty, as for status updates.
    fn from(event: TaskArtifactUpdateEvent) -> Self {
        let append = event.artifact.append;
        let last_chunk = event.artifact.last_chunk;
        v1::TaskArtifactUpdateEvent {
            generation: 0,
            task_id: event.id,
            context_id: v1::ContextId::default(),
            artifact: event.artifact.into(),
            append,
            last_chunk,
            metadata: event.metadata,
        }
    }
}

impl From<v1::TaskArtifactUpdateEvent> for TaskArtifactUpdateEvent {
    /// The event's `append` and `lastChunk` move into the artifact; its index comes from its id.
    fn from(event: v1::TaskArtifactUpdateEvent) -> Self {
        let mut artifact = Artifact::from(event.artifact);
        artifact.append = event.append;
        artifact.last_chunk = event.last_chunk;
        TaskArtifactUpdateEvent {
            id: event.task_id,
            artifact,
            metadata: event.metadata,
        }
    }
}

impl From<StreamEvent> for v1::StreamResponse {
    fn from(event: StreamEvent) -> Self {
        match event {
            StreamEvent::Status(e) => v1::StreamResponse::StatusUpdate(e.into()),
            StreamEvent::Artifact(e) => v1::StreamResponse::ArtifactUpdate(e.into()),
        }
    }
}

impl TryFrom<v1::StreamResponse> for StreamEvent {
    type Error = ConversionError;

    /// Status and artifact updates convert. A task (the first event of a 1.0 stream) becomes a
    /// status update with the task's status; its artifacts and history are not replayed. A
    /// message is [`ConversionError::MessageEvent`].
    fn try_from(event: v1::StreamResponse) -> Result<Self, Self::Error> {
        match event {
            v1::StreamResponse::StatusUpdate(e) => Ok(StreamEvent::Status(e.into())),
            v1::StreamResponse::ArtifactUpdate(e) => Ok(StreamEvent::Artifact(e.into())),
            v1::StreamResponse::Task(task) => Ok(StreamEvent::Status(
                v1::TaskStatusUpdateEvent {
                    generation: 0,
                    task_id: task.id,
                    context_id: task.context_id.unwrap_or_default(),
                    status: task.status,
                    metadata: None,
                }
                .into(),
            )),
            v1::StreamResponse::Message(_) => Err(ConversionError::MessageEvent),
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Push notifications

impl From<AuthenticationInfo> for v1::AuthenticationInfo {
    /// The first scheme becomes the 1.0 `scheme` (`""` when there is none); other schemes and
    /// additional properties are dropped.
    fn from(auth: AuthenticationInfo) -> Self {
        v1::AuthenticationInfo {
            scheme: auth.schemes.into_iter().next().unwrap_or_default(),
            credentials: auth.credentials,
        }
    }
}

impl From<v1::AuthenticationInfo> for AuthenticationInfo {
    /// The `scheme` becomes the only entry of `schemes` (none when it is empty).
    fn from(auth: v1::AuthenticationInfo) -> Self {
        AuthenticationInfo {
            schemes: Some(auth.scheme)
                .filter(|s| !s.is_empty())
                .into_iter()
                .collect(),
            credentials: auth.credentials,
            additional: v1::Struct::new(),
        }
    }
}

impl From<PushNotificationConfig> for v1::TaskPushNotificationConfig {
    /// Without task or configuration id (see [`TaskPushNotificationConfig`]'s conversion for
    /// those).
    fn from(config: PushNotificationConfig) -> Self {
        v1::TaskPushNotificationConfig {
            tenant: None,
            id: None,
            task_id: None,
            url: config.url,
            token: config.token,
            authentication: config.authentication.map(Into::into),
        }
    }
}

/// A 0.1 push configuration of this task as 1.0 sees it: its configuration id is the task id,
/// since a 0.1 task has at most one configuration and `tasks/pushNotification/get` names only
/// the task.
fn push_config_for_task(
    config: PushNotificationConfig,
    task_id: &v1::TaskId,
) -> v1::TaskPushNotificationConfig {
    v1::TaskPushNotificationConfig {
        id: Some(task_id.as_str().to_owned()),
        task_id: Some(task_id.clone()),
        ..config.into()
    }
}

impl From<v1::TaskPushNotificationConfig> for PushNotificationConfig {
    /// Drops `tenant`, `id` and `taskId`.
    fn from(config: v1::TaskPushNotificationConfig) -> Self {
        PushNotificationConfig {
            url: config.url,
            token: config.token,
            authentication: config.authentication.map(Into::into),
        }
    }
}

impl From<TaskPushNotificationConfig> for v1::TaskPushNotificationConfig {
    /// The params of `CreateTaskPushNotificationConfig` (and its result): `taskId` and the
    /// configuration `id` are both the 0.1 task id.
    fn from(config: TaskPushNotificationConfig) -> Self {
        push_config_for_task(config.push_notification_config, &config.id)
    }
}

impl TryFrom<v1::TaskPushNotificationConfig> for TaskPushNotificationConfig {
    type Error = ConversionError;

    /// Needs `taskId`; drops `tenant` and the configuration `id`.
    fn try_from(config: v1::TaskPushNotificationConfig) -> Result<Self, Self::Error> {
        let id = config
            .task_id
            .clone()
            .filter(|id| !id.is_empty())
            .ok_or(ConversionError::MissingTaskId { field: "taskId" })?;
        Ok(TaskPushNotificationConfig {
            id,
            push_notification_config: config.into(),
        })
    }
}

// ------------------------------------------------------------------------------------------------
// Params

impl From<TaskSendParams> for v1::SendMessageRequest {
    /// The params of `SendMessage` (and `SendStreamingMessage`).
    ///
    /// * The client-chosen task `id` becomes `message.taskId`, and `sessionId` `message.contextId`.
    ///   In 0.1 the client names a *new* task too, which 1.0 does not allow: a server adapter must
    ///   create the task under this id when no task has it (and continue it when one does).
    /// * `pushNotification` becomes `configuration.taskPushNotificationConfig`, with `taskId` and
    ///   configuration `id` both the task id (so that `tasks/pushNotification/get` finds it).
    /// * `historyLength` becomes `configuration.historyLength`. 0.1 `tasks/send` waits for the
    ///   task like a 1.0 blocking send, so `returnImmediately` stays false.
    /// * The message gets no `messageId` (0.1 has none); see [`Message`]'s conversion.
    fn from(params: TaskSendParams) -> Self {
        let TaskSendParams {
            id,
            session_id,
            message,
            push_notification,
            history_length,
            metadata,
        } = params;
        let configuration = (push_notification.is_some() || history_length.is_some()).then(|| {
            v1::SendMessageConfiguration {
                if_generation_match: None,
                accepted_output_modes: Vec::new(),
                task_push_notification_config: push_notification
                    .map(|config| push_config_for_task(config, &id)),
                history_length,
                return_immediately: false,
            }
        });
        v1::SendMessageRequest {
            tenant: None,
            message: message_to_v1(message, Some(&id), session_id.as_ref()),
            configuration,
            metadata,
        }
    }
}

impl TryFrom<v1::SendMessageRequest> for TaskSendParams {
    type Error = ConversionError;

    /// Needs `message.taskId`: a 0.1 client chooses the task id, also for a new task
    /// (`TaskId::random()`). Drops `tenant`, `acceptedOutputModes`, `returnImmediately`, the
    /// push configuration's ids and what 0.1 messages lack.
    fn try_from(request: v1::SendMessageRequest) -> Result<Self, Self::Error> {
        let id = request
            .message
            .task_id
            .clone()
            .filter(|id| !id.is_empty())
            .ok_or(ConversionError::MissingTaskId {
                field: "message.taskId",
            })?;
        let session_id = request.message.context_id.clone();
        let (push_notification, history_length) = match request.configuration {
            Some(c) => (
                c.task_push_notification_config.map(Into::into),
                c.history_length,
            ),
            None => (None, None),
        };
        Ok(TaskSendParams {
            id,
            session_id,
            message: request.message.into(),
            push_notification,
            history_length,
            metadata: request.metadata,
        })
    }
}

impl From<TaskQueryParams> for v1::GetTaskRequest {
    /// Drops `metadata`: 1.0 `GetTaskRequest` has none.
    fn from(params: TaskQueryParams) -> Self {
        v1::GetTaskRequest {
            current_generation: None,
            tenant: None,
            id: params.id,
            history_length: params.history_length,
        }
    }
}

impl From<v1::GetTaskRequest> for TaskQueryParams {
    /// Drops `tenant`.
    fn from(request: v1::GetTaskRequest) -> Self {
        TaskQueryParams {
            id: request.id,
            history_length: request.history_length,
            metadata: None,
        }
    }
}

impl From<TaskQueryParams> for v1::SubscribeToTaskRequest {
    /// The params of `tasks/resubscribe`. Drops `historyLength` and `metadata`.
    fn from(params: TaskQueryParams) -> Self {
        v1::SubscribeToTaskRequest {
            tenant: None,
            id: params.id,
        }
    }
}

impl From<v1::SubscribeToTaskRequest> for TaskQueryParams {
    /// Drops `tenant`.
    fn from(request: v1::SubscribeToTaskRequest) -> Self {
        TaskQueryParams::new(request.id)
    }
}

impl From<TaskIdParams> for v1::SubscribeToTaskRequest {
    /// Drops `metadata`.
    fn from(params: TaskIdParams) -> Self {
        v1::SubscribeToTaskRequest {
            tenant: None,
            id: params.id,
        }
    }
}

impl From<TaskIdParams> for v1::CancelTaskRequest {
    fn from(params: TaskIdParams) -> Self {
        v1::CancelTaskRequest {
            tenant: None,
            id: params.id,
            metadata: params.metadata,
        }
    }
}

impl From<v1::CancelTaskRequest> for TaskIdParams {
    /// Drops `tenant`.
    fn from(request: v1::CancelTaskRequest) -> Self {
        TaskIdParams {
            id: request.id,
            metadata: request.metadata,
        }
    }
}

impl From<TaskIdParams> for v1::GetTaskPushNotificationConfigRequest {
    /// The params of `tasks/pushNotification/get`: the configuration `id` is the task id (see
    /// [`TaskPushNotificationConfig`]'s conversion). Drops `metadata`.
    fn from(params: TaskIdParams) -> Self {
        v1::GetTaskPushNotificationConfigRequest {
            tenant: None,
            id: params.id.as_str().to_owned(),
            task_id: params.id,
        }
    }
}

impl From<v1::GetTaskPushNotificationConfigRequest> for TaskIdParams {
    /// Drops `tenant` and the configuration `id`: a 0.1 task has one configuration.
    fn from(request: v1::GetTaskPushNotificationConfigRequest) -> Self {
        TaskIdParams::new(request.task_id)
    }
}

// ------------------------------------------------------------------------------------------------
// Agent cards

/// The description of the 1.0 scheme a 0.1 `OAuth2` scheme becomes.
const OAUTH2_DESCRIPTION: &str =
    "OAuth 2.0 access token, sent as a bearer token (A2A 0.1 card scheme `OAuth2`)";

/// The 1.0 security scheme for a 0.1 authentication scheme name, or `None` for `public` and
/// `none`, which some 0.1 agents listed to say "no authentication".
///
/// HTTP authentication schemes (`Bearer`, `Basic`, ...) and unknown names become an HTTP
/// authentication scheme of that name; `OAuth2` (without the flows and URLs 1.0 requires) becomes
/// a bearer token, and `jwt` a bearer token of format JWT.
fn security_scheme_to_v1(name: &str) -> Option<v1::SecurityScheme> {
    let lower = name.to_ascii_lowercase();
    let scheme = match lower.as_str() {
        "" | "public" | "none" => return None,
        "oauth2" => v1::HttpAuthSecurityScheme::new("Bearer").with_description(OAUTH2_DESCRIPTION),
        "jwt" => v1::HttpAuthSecurityScheme::new("Bearer").with_bearer_format("JWT"),
        _ => v1::HttpAuthSecurityScheme::new(name),
    };
    Some(scheme.into())
}

/// The 0.1 scheme name for a 1.0 security scheme listed under `key`: the key itself when it is
/// the 0.1 name this scheme came from, else a name by kind (an HTTP scheme's own name,
/// `OAuth2`, `OpenIdConnect`, `ApiKey`, `mTLS`).
fn security_scheme_name_from_v1(key: &str, scheme: Option<&v1::SecurityScheme>) -> String {
    let Some(scheme) = scheme else {
        return key.to_owned();
    };
    if security_scheme_to_v1(key).as_ref() == Some(scheme) {
        return key.to_owned();
    }
    match scheme {
        v1::SecurityScheme::HttpAuth(http) => http.scheme.clone(),
        v1::SecurityScheme::ApiKey(_) => "ApiKey".to_owned(),
        v1::SecurityScheme::OAuth2(_) => "OAuth2".to_owned(),
        v1::SecurityScheme::OpenIdConnect(_) => "OpenIdConnect".to_owned(),
        v1::SecurityScheme::Mtls(_) => "mTLS".to_owned(),
    }
}

impl From<AgentProvider> for v1::AgentProvider {
    fn from(provider: AgentProvider) -> Self {
        v1::AgentProvider {
            url: provider.url.unwrap_or_default(),
            organization: provider.organization,
        }
    }
}

impl From<v1::AgentProvider> for AgentProvider {
    fn from(provider: v1::AgentProvider) -> Self {
        AgentProvider {
            organization: provider.organization,
            url: Some(provider.url).filter(|u| !u.is_empty()),
        }
    }
}

impl From<AgentCapabilities> for v1::AgentCapabilities {
    /// Drops `stateTransitionHistory`, which 1.0 removed.
    fn from(capabilities: AgentCapabilities) -> Self {
        v1::AgentCapabilities {
            streaming: capabilities.streaming,
            push_notifications: capabilities.push_notifications,
            extensions: Vec::new(),
            extended_agent_card: None,
        }
    }
}

impl From<v1::AgentCapabilities> for AgentCapabilities {
    /// Drops `extensions` and `extendedAgentCard`.
    fn from(capabilities: v1::AgentCapabilities) -> Self {
        AgentCapabilities {
            streaming: capabilities.streaming,
            push_notifications: capabilities.push_notifications,
            state_transition_history: None,
        }
    }
}

impl From<AgentSkill> for v1::AgentSkill {
    fn from(skill: AgentSkill) -> Self {
        v1::AgentSkill {
            id: skill.id,
            name: skill.name,
            description: skill.description.unwrap_or_default(),
            tags: skill.tags,
            examples: skill.examples,
            input_modes: skill.input_modes,
            output_modes: skill.output_modes,
            security_requirements: Vec::new(),
        }
    }
}

impl From<v1::AgentSkill> for AgentSkill {
    /// Drops `securityRequirements`; an empty description is absent.
    fn from(skill: v1::AgentSkill) -> Self {
        AgentSkill {
            id: skill.id,
            name: skill.name,
            description: Some(skill.description).filter(|d| !d.is_empty()),
            tags: skill.tags,
            examples: skill.examples,
            input_modes: skill.input_modes,
            output_modes: skill.output_modes,
        }
    }
}

impl From<AgentCard> for v1::AgentCard {
    /// * `url` becomes the only entry of `supportedInterfaces`: binding `JSONRPC`,
    ///   `protocolVersion` `"0.1"` ([`PROTOCOL_VERSION`]).
    /// * Each name in `authentication.schemes` becomes a security scheme of that name and a
    ///   security requirement of its own (any one of them suffices), except `public` and `none`.
    ///   HTTP scheme names (`Bearer`, `Basic`, ...) and unknown names become
    ///   `httpAuthSecurityScheme` with that scheme; `OAuth2` becomes a bearer token (1.0's
    ///   `oauth2SecurityScheme` needs flows and URLs the 0.1 card lacks); `jwt` a bearer token of
    ///   format `JWT`. Static `credentials` have no place in a 1.0 card and are dropped.
    /// * `capabilities.stateTransitionHistory` is dropped.
    /// * Absent `defaultInputModes`/`defaultOutputModes` become the 0.1 default `["text"]`.
    /// * An absent description becomes `""`.
    fn from(card: AgentCard) -> Self {
        let AgentCard {
            name,
            description,
            url,
            provider,
            version,
            documentation_url,
            capabilities,
            authentication,
            default_input_modes,
            default_output_modes,
            skills,
        } = card;
        let mut security_schemes = std::collections::BTreeMap::new();
        let mut security_requirements = Vec::new();
        for scheme_name in authentication.into_iter().flat_map(|a| a.schemes) {
            if security_schemes.contains_key(&scheme_name) {
                continue;
            }
            if let Some(scheme) = security_scheme_to_v1(&scheme_name) {
                security_requirements.push(
                    v1::SecurityRequirement::new()
                        .with_scheme(scheme_name.clone(), Vec::<String>::new()),
                );
                security_schemes.insert(scheme_name, scheme);
            }
        }
        let default_modes = || {
            AgentCard::DEFAULT_MODES
                .iter()
                .map(|m| (*m).to_owned())
                .collect()
        };
        v1::AgentCard {
            name,
            description: description.unwrap_or_default(),
            supported_interfaces: vec![v1::AgentInterface::new(
                url,
                v1::binding::JSONRPC,
                PROTOCOL_VERSION,
            )],
            provider: provider.map(Into::into),
            version,
            documentation_url,
            capabilities: capabilities.into(),
            security_schemes,
            security_requirements,
            default_input_modes: default_input_modes.unwrap_or_else(default_modes),
            default_output_modes: default_output_modes.unwrap_or_else(default_modes),
            skills: skills.into_iter().map(Into::into).collect(),
            signatures: Vec::new(),
            icon_url: None,
        }
    }
}

impl TryFrom<v1::AgentCard> for AgentCard {
    type Error = ConversionError;

    /// A 0.1 card for serving 0.1 peers.
    ///
    /// * `url` is the first `JSONRPC` interface with `protocolVersion` 0.1, else the first
    ///   `JSONRPC` interface (one endpoint serves every version); without one this is
    ///   [`ConversionError::NoJsonRpcInterface`].
    /// * `authentication.schemes` names the schemes of the security requirements, in order
    ///   (all declared schemes when there are no requirements): a scheme that came from a 0.1
    ///   name gets that name back; others are named by kind (an HTTP scheme's own name such as
    ///   `Bearer`, `OAuth2`, `OpenIdConnect`, `ApiKey`, `mTLS`). Scopes are dropped.
    /// * Dropped: other interfaces, `signatures`, `iconUrl`, capability `extensions` and
    ///   `extendedAgentCard`, skill `securityRequirements`. Empty strings are absent.
    fn try_from(card: v1::AgentCard) -> Result<Self, Self::Error> {
        let is_jsonrpc = |i: &&v1::AgentInterface| i.protocol_binding == v1::binding::JSONRPC;
        let is_v0_1 = |i: &&v1::AgentInterface| {
            i.protocol_version == PROTOCOL_VERSION
                || i.protocol_version.starts_with(concat!("0.1", "."))
        };
        let url = card
            .supported_interfaces
            .iter()
            .filter(is_jsonrpc)
            .find(is_v0_1)
            .or_else(|| card.supported_interfaces.iter().find(is_jsonrpc))
            .ok_or(ConversionError::NoJsonRpcInterface)?
            .url
            .clone();

        let mut names: Vec<String> = Vec::new();
        let mut push = |name: String| {
            if !names.contains(&name) {
                names.push(name);
            }
        };
        if card.security_requirements.is_empty() {
            for (key, scheme) in &card.security_schemes {
                push(security_scheme_name_from_v1(key, Some(scheme)));
            }
        } else {
            for requirement in &card.security_requirements {
                for key in requirement.schemes.keys() {
                    push(security_scheme_name_from_v1(
                        key,
                        card.security_schemes.get(key),
                    ));
                }
            }
        }
        let authentication = (!names.is_empty()).then(|| AgentAuthentication::new(names));

        Ok(AgentCard {
            name: card.name,
            description: Some(card.description).filter(|d| !d.is_empty()),
            url,
            provider: card.provider.map(Into::into),
            version: card.version,
            documentation_url: card.documentation_url,
            capabilities: card.capabilities.into(),
            authentication,
            default_input_modes: Some(card.default_input_modes),
            default_output_modes: Some(card.default_output_modes),
            skills: card.skills.into_iter().map(Into::into).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifact_ids_and_indexes() {
        for index in [0, 1, 42, u32::MAX] {
            assert_eq!(artifact_index_for_id(&artifact_id_for_index(index)), index);
        }
        for id in [
            "artifact-",
            "artifact-01",
            "artifact-+1",
            "artifact-4294967296",
            "x",
            "",
        ] {
            let index = artifact_index_for_id(&v1::ArtifactId::new(id));
            assert!((1 << 30..1 << 31).contains(&index), "{id}: {index}");
        }
        // FNV-1a of the empty string, masked.
        assert_eq!(
            artifact_index_for_id(&v1::ArtifactId::new("")),
            (0x811c_9dc5 & 0x3fff_ffff) | 0x4000_0000
        );
    }

    #[test]
    fn error_codes_never_change_meaning() {
        for code in [
            -32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32004, -32005,
        ] {
            assert_eq!(error_code_to_v1(code), code);
            assert_eq!(error_code_from_v1(code), code);
        }
        assert_eq!(error_code_to_v1(-32006), -32004);
        assert_eq!(error_code_to_v1(-32007), -32600);
        assert_eq!(error_code_to_v1(-32008), -32600);
        assert_eq!(error_code_to_v1(-32009), -32004);
        assert_eq!(error_code_to_v1(-32010), -32010);
        assert_eq!(error_code_from_v1(-32006), -32603);
        assert_eq!(error_code_from_v1(-32007), -32004);
        assert_eq!(error_code_from_v1(-32008), -32600);
        assert_eq!(error_code_from_v1(-32009), -32600);
        // No 0.1 code lands on a 1.0 code of another meaning, and no 1.0 code on a 0.1-era one.
        for code in -32011..=-32006 {
            assert!(!(-32009..=-32006).contains(&error_code_to_v1(code)));
            assert!(!(-32011..=-32006).contains(&error_code_from_v1(code)) || code <= -32010);
        }
    }

    #[test]
    fn states_both_ways() {
        for state in TaskState::ALL {
            assert_eq!(TaskState::from(v1::TaskState::from(*state)), *state);
        }
        assert_eq!(TaskState::from(v1::TaskState::Rejected), TaskState::Failed);
        assert_eq!(
            TaskState::from(v1::TaskState::AuthRequired),
            TaskState::InputRequired
        );
        assert_eq!(Role::from(v1::Role::Unspecified), Role::Agent);
    }

    #[test]
    fn security_scheme_names_round_trip() {
        for name in [
            "Bearer", "basic", "OAuth2", "oauth2", "jwt", "Digest", "api_key",
        ] {
            let scheme = security_scheme_to_v1(name).unwrap();
            assert_eq!(security_scheme_name_from_v1(name, Some(&scheme)), name);
        }
        assert_eq!(security_scheme_to_v1("public"), None);
        let oauth = v1::SecurityScheme::from(v1::OAuth2SecurityScheme::new(
            v1::ClientCredentialsOAuthFlow::new("https://t", v1::Scopes::new()),
        ));
        assert_eq!(
            security_scheme_name_from_v1("google", Some(&oauth)),
            "OAuth2"
        );
        let bearer = v1::SecurityScheme::from(v1::HttpAuthSecurityScheme::new("Bearer"));
        assert_eq!(
            security_scheme_name_from_v1("bearer_auth", Some(&bearer)),
            "Bearer"
        );
        assert_eq!(security_scheme_name_from_v1("dangling", None), "dangling");
    }
}
