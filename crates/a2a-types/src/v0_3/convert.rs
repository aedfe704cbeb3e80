//! `From` conversions between 0.3 and the 1.0 core model, both ways, for everything that
//! crosses the wire.
//!
//! | 0.3 | 1.0 |
//! |---|---|
//! | [`Message`], [`Artifact`], [`Part`], [`Role`] | [`v1::Message`], [`v1::Artifact`], [`v1::Part`], [`v1::Role`] |
//! | [`Task`], [`TaskStatus`], [`TaskState`] | [`v1::Task`], [`v1::TaskStatus`], [`v1::TaskState`] |
//! | [`TaskStatusUpdateEvent`], [`TaskArtifactUpdateEvent`] | [`v1::TaskStatusUpdateEvent`], [`v1::TaskArtifactUpdateEvent`] |
//! | [`SendMessageResult`] (bare Task or Message) | [`v1::SendMessageResponse`] |
//! | [`SendStreamingMessageResult`] | [`v1::StreamResponse`] |
//! | [`MessageSendParams`], [`MessageSendConfiguration`] | [`v1::SendMessageRequest`], [`v1::SendMessageConfiguration`] |
//! | [`TaskQueryParams`] | [`v1::GetTaskRequest`] |
//! | [`TaskIdParams`] | [`v1::CancelTaskRequest`], [`v1::SubscribeToTaskRequest`] |
//! | [`TaskPushNotificationConfig`], [`PushNotificationConfig`] | [`v1::TaskPushNotificationConfig`] (flat) |
//! | [`PushNotificationAuthenticationInfo`] (`schemes[]`) | [`v1::AuthenticationInfo`] (`scheme`) |
//! | [`GetTaskPushNotificationConfigParams`] | [`v1::GetTaskPushNotificationConfigRequest`] |
//! | [`ListTaskPushNotificationConfigParams`] | [`v1::ListTaskPushNotificationConfigsRequest`] |
//! | [`DeleteTaskPushNotificationConfigParams`] | [`v1::DeleteTaskPushNotificationConfigRequest`] |
//! | `Vec<`[`TaskPushNotificationConfig`]`>` (list result) | [`v1::ListTaskPushNotificationConfigsResponse`] |
//! | [`AgentCard`] and its parts, [`SecurityScheme`], [`OAuthFlows`] | [`v1::AgentCard`] and its parts, [`v1::SecurityScheme`], [`v1::OAuthFlows`] |
//!
//! The rules (A2A 1.0 migration notes): `kind` goes; parts become flat (`file.bytes` → `raw`,
//! `file.uri` → `url`, `file.mimeType` → `mediaType`, `file.name` → `filename`, the data
//! object is no longer wrapped); `input-required` ↔ `TASK_STATE_INPUT_REQUIRED`, `unknown` ↔
//! `TASK_STATE_UNSPECIFIED`; `final` is dropped, and set from the state (terminal or
//! interrupted) on the way back; `blocking` = !`returnImmediately`; `schemes[0]` → `scheme`
//! and `scheme` → `[scheme]`; `pushNotificationConfig` → `taskPushNotificationConfig`.
//!
//! A 1.0 data part whose data is not an object becomes a 0.3 data part
//! `{"value": <data>}` with `metadata.data_part_compat = true`, and such a 0.3 part becomes
//! the bare value again, as the Python, JS and Go SDKs do. A 0.3 timestamp that is not RFC 3339
//! is read as UTC when it lacks an offset (`2025-04-02T16:59:25.331844`, as older Python
//! SDKs wrote) and dropped when it cannot be read at all. What else a direction loses is
//! listed in `docs/versions.md`.

use serde_json::Value;

use super::*;
use crate::v1;

/// The metadata flag of a 0.3 data part that wraps a non-object 1.0 value as `{"value": ...}`.
pub const DATA_PART_COMPAT: &str = "data_part_compat";

// ---------------------------------------------------------------------------------------------
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
            TaskState::Rejected => v1::TaskState::Rejected,
            TaskState::AuthRequired => v1::TaskState::AuthRequired,
            TaskState::Unknown => v1::TaskState::Unspecified,
        }
    }
}

impl From<v1::TaskState> for TaskState {
    /// `TASK_STATE_UNSPECIFIED` becomes `unknown`.
    fn from(state: v1::TaskState) -> Self {
        match state {
            v1::TaskState::Submitted => TaskState::Submitted,
            v1::TaskState::Working => TaskState::Working,
            v1::TaskState::InputRequired => TaskState::InputRequired,
            v1::TaskState::Completed => TaskState::Completed,
            v1::TaskState::Canceled => TaskState::Canceled,
            v1::TaskState::Failed => TaskState::Failed,
            v1::TaskState::Rejected => TaskState::Rejected,
            v1::TaskState::AuthRequired => TaskState::AuthRequired,
            v1::TaskState::Unspecified => TaskState::Unknown,
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
    /// `ROLE_UNSPECIFIED` (which 0.3 cannot express) becomes `agent`; a message converted as
    /// part of a [`v1::SendMessageRequest`] becomes `user` instead.
    fn from(role: v1::Role) -> Self {
        role_or(role, Role::Agent)
    }
}

fn role_or(role: v1::Role, unspecified: Role) -> Role {
    match role {
        v1::Role::User => Role::User,
        v1::Role::Agent => Role::Agent,
        v1::Role::Unspecified => unspecified,
    }
}

// ---------------------------------------------------------------------------------------------
// Parts, messages, artifacts

impl From<Part> for v1::Part {
    fn from(part: Part) -> Self {
        match part {
            Part::Text(p) => v1::Part {
                content: v1::PartContent::Text(p.text),
                metadata: p.metadata,
                filename: None,
                media_type: None,
            },
            Part::File(p) => {
                let (content, filename, media_type) = match p.file {
                    FileContent::Bytes(f) => (v1::PartContent::Raw(f.bytes), f.name, f.mime_type),
                    FileContent::Uri(f) => (v1::PartContent::Url(f.uri), f.name, f.mime_type),
                };
                v1::Part {
                    content,
                    metadata: p.metadata,
                    filename,
                    media_type,
                }
            }
            Part::Data(p) => {
                let mut data = p.data;
                let mut metadata = p.metadata;
                let compat = metadata
                    .as_ref()
                    .and_then(|m| m.get(DATA_PART_COMPAT))
                    .is_some_and(|flag| *flag == Value::Bool(true));
                let content = if compat {
                    if let Some(m) = metadata.as_mut() {
                        m.remove(DATA_PART_COMPAT);
                        if m.is_empty() {
                            metadata = None;
                        }
                    }
                    data.remove("value").unwrap_or(Value::Null)
                } else {
                    Value::Object(data)
                };
                v1::Part {
                    content: v1::PartContent::Data(content),
                    metadata,
                    filename: None,
                    media_type: None,
                }
            }
        }
    }
}

impl From<v1::Part> for Part {
    /// A text or data part loses `filename` and `mediaType` (0.3 has them on files only).
    fn from(part: v1::Part) -> Self {
        let metadata = part.metadata;
        match part.content {
            v1::PartContent::Text(text) => Part::Text(TextPart {
                kind: TextKind,
                text,
                metadata,
            }),
            v1::PartContent::Raw(bytes) => Part::File(FilePart {
                kind: FileKind,
                file: FileContent::Bytes(FileWithBytes {
                    bytes,
                    mime_type: part.media_type,
                    name: part.filename,
                }),
                metadata,
            }),
            v1::PartContent::Url(uri) => Part::File(FilePart {
                kind: FileKind,
                file: FileContent::Uri(FileWithUri {
                    uri,
                    mime_type: part.media_type,
                    name: part.filename,
                }),
                metadata,
            }),
            v1::PartContent::Data(Value::Object(data)) => Part::Data(DataPart {
                kind: DataKind,
                data,
                metadata,
            }),
            v1::PartContent::Data(other) => {
                let mut data = serde_json::Map::new();
                data.insert("value".to_owned(), other);
                let mut metadata = metadata.unwrap_or_default();
                metadata.insert(DATA_PART_COMPAT.to_owned(), Value::Bool(true));
                Part::Data(DataPart {
                    kind: DataKind,
                    data,
                    metadata: Some(metadata),
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
    fn from(m: Message) -> Self {
        v1::Message {
            message_id: m.message_id.into(),
            context_id: m.context_id.map(Into::into),
            task_id: m.task_id.map(Into::into),
            role: m.role.into(),
            parts: parts_to_v1(m.parts),
            metadata: m.metadata,
            extensions: m.extensions,
            reference_task_ids: m.reference_task_ids.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<v1::Message> for Message {
    fn from(m: v1::Message) -> Self {
        message_from_v1(m, Role::Agent)
    }
}

fn message_from_v1(m: v1::Message, unspecified: Role) -> Message {
    Message {
        kind: MessageKind,
        message_id: m.message_id.into_string(),
        role: role_or(m.role, unspecified),
        parts: parts_from_v1(m.parts),
        context_id: m.context_id.map(String::from),
        task_id: m.task_id.map(String::from),
        reference_task_ids: m.reference_task_ids.into_iter().map(String::from).collect(),
        extensions: m.extensions,
        metadata: m.metadata,
    }
}

impl From<Artifact> for v1::Artifact {
    fn from(a: Artifact) -> Self {
        v1::Artifact {
            artifact_id: a.artifact_id.into(),
            name: a.name,
            description: a.description,
            parts: parts_to_v1(a.parts),
            metadata: a.metadata,
            extensions: a.extensions,
        }
    }
}

impl From<v1::Artifact> for Artifact {
    fn from(a: v1::Artifact) -> Self {
        Artifact {
            artifact_id: a.artifact_id.into_string(),
            name: a.name,
            description: a.description,
            parts: parts_from_v1(a.parts),
            extensions: a.extensions,
            metadata: a.metadata,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tasks and events

/// Reads a 0.3 timestamp: RFC 3339, or an ISO 8601 date-time without offset read as UTC.
pub(crate) fn parse_timestamp(text: &str) -> Option<v1::Timestamp> {
    text.parse().ok().or_else(|| {
        let text = text.trim();
        let has_offset = text
            .rfind(['T', 't', ' '])
            .is_some_and(|t| text[t..].contains(['Z', 'z', '+', '-']));
        if has_offset {
            None
        } else {
            format!("{}Z", text.replacen(' ', "T", 1)).parse().ok()
        }
    })
}

impl From<TaskStatus> for v1::TaskStatus {
    /// A timestamp that is not RFC 3339 is read as UTC when it has no offset, and dropped when
    /// it cannot be read.
    fn from(s: TaskStatus) -> Self {
        v1::TaskStatus {
            state: s.state.into(),
            message: s.message.map(Into::into),
            timestamp: s.timestamp.as_deref().and_then(parse_timestamp),
        }
    }
}

impl From<v1::TaskStatus> for TaskStatus {
    fn from(s: v1::TaskStatus) -> Self {
        TaskStatus {
            state: s.state.into(),
            message: s.message.map(Into::into),
            timestamp: s.timestamp.map(|t| t.to_string()),
        }
    }
}

fn non_empty<T: From<String>>(s: String) -> Option<T> {
    (!s.is_empty()).then(|| T::from(s))
}

impl From<Task> for v1::Task {
    fn from(t: Task) -> Self {
        v1::Task {
            generation: 0,
            id: t.id.into(),
            context_id: non_empty(t.context_id),
            status: t.status.into(),
            artifacts: t.artifacts.into_iter().map(Into::into).collect(),
            history: t.history.into_iter().map(Into::into).collect(),
            metadata: t.metadata,
        }
    }
}

impl From<v1::Task> for Task {
    fn from(t: v1::Task) -> Self {
        Task {
            kind: TaskKind,
            id: t.id.into_string(),
            context_id: t.context_id.map(String::from).unwrap_or_default(),
            status: t.status.into(),
            artifacts: t.artifacts.into_iter().map(Into::into).collect(),
            history: t.history.into_iter().map(Into::into).collect(),
            metadata: t.metadata,
        }
    }
}

impl From<TaskStatusUpdateEvent> for v1::TaskStatusUpdateEvent {
    /// `final` is dropped: a 1.0 stream ends when it closes.
    fn from(e: TaskStatusUpdateEvent) -> Self {
        v1::TaskStatusUpdateEvent {
            generation: 0,
            task_id: e.task_id.into(),
            context_id: e.context_id.into(),
            status: e.status.into(),
            metadata: e.metadata,
        }
    }
}

impl From<v1::TaskStatusUpdateEvent> for TaskStatusUpdateEvent {
    /// `final` is true in a terminal or interrupted state.
    fn from(e: v1::TaskStatusUpdateEvent) -> Self {
        TaskStatusUpdateEvent {
            kind: StatusUpdateKind,
            task_id: e.task_id.into_string(),
            context_id: e.context_id.into_string(),
            is_final: e.status.state.is_final(),
            status: e.status.into(),
            metadata: e.metadata,
        }
    }
}

impl From<TaskArtifactUpdateEvent> for v1::TaskArtifactUpdateEvent {
    fn from(e: TaskArtifactUpdateEvent) -> Self {
        v1::TaskArtifactUpdateEvent {
            generation: 0,
            task_id: e.task_id.into(),
            context_id: e.context_id.into(),
            artifact: e.artifact.into(),
            append: e.append,
            last_chunk: e.last_chunk,
            metadata: e.metadata,
        }
    }
}

impl From<v1::TaskArtifactUpdateEvent> for TaskArtifactUpdateEvent {
    fn from(e: v1::TaskArtifactUpdateEvent) -> Self {
        TaskArtifactUpdateEvent {
            kind: ArtifactUpdateKind,
            task_id: e.task_id.into_string(),
            context_id: e.context_id.into_string(),
            artifact: e.artifact.into(),
            append: e.append,
            last_chunk: e.last_chunk,
            metadata: e.metadata,
        }
    }
}

impl From<SendMessageResult> for v1::SendMessageResponse {
    fn from(r: SendMessageResult) -> Self {
        match r {
            SendMessageResult::Task(t) => v1::SendMessageResponse::Task(t.into()),
            SendMessageResult::Message(m) => v1::SendMessageResponse::Message(m.into()),
        }
    }
}

impl From<v1::SendMessageResponse> for SendMessageResult {
    fn from(r: v1::SendMessageResponse) -> Self {
        match r {
            v1::SendMessageResponse::Task(t) => SendMessageResult::Task(t.into()),
            v1::SendMessageResponse::Message(m) => SendMessageResult::Message(m.into()),
        }
    }
}

impl From<SendStreamingMessageResult> for v1::StreamResponse {
    fn from(r: SendStreamingMessageResult) -> Self {
        match r {
            SendStreamingMessageResult::Task(t) => v1::StreamResponse::Task(t.into()),
            SendStreamingMessageResult::Message(m) => v1::StreamResponse::Message(m.into()),
            SendStreamingMessageResult::StatusUpdate(e) => {
                v1::StreamResponse::StatusUpdate(e.into())
            }
            SendStreamingMessageResult::ArtifactUpdate(e) => {
                v1::StreamResponse::ArtifactUpdate(e.into())
            }
        }
    }
}

impl From<v1::StreamResponse> for SendStreamingMessageResult {
    fn from(r: v1::StreamResponse) -> Self {
        match r {
            v1::StreamResponse::Task(t) => SendStreamingMessageResult::Task(t.into()),
            v1::StreamResponse::Message(m) => SendStreamingMessageResult::Message(m.into()),
            v1::StreamResponse::StatusUpdate(e) => {
                SendStreamingMessageResult::StatusUpdate(e.into())
            }
            v1::StreamResponse::ArtifactUpdate(e) => {
                SendStreamingMessageResult::ArtifactUpdate(e.into())
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Push notification configuration

impl From<PushNotificationAuthenticationInfo> for v1::AuthenticationInfo {
    /// The first of `schemes` (`""` when there is none); the others are dropped.
    fn from(a: PushNotificationAuthenticationInfo) -> Self {
        v1::AuthenticationInfo {
            scheme: a.schemes.into_iter().next().unwrap_or_default(),
            credentials: a.credentials,
        }
    }
}

impl From<v1::AuthenticationInfo> for PushNotificationAuthenticationInfo {
    /// `scheme` becomes `[scheme]` (`[]` when it is empty).
    fn from(a: v1::AuthenticationInfo) -> Self {
        PushNotificationAuthenticationInfo {
            schemes: non_empty::<String>(a.scheme).into_iter().collect(),
            credentials: a.credentials,
        }
    }
}

impl From<PushNotificationConfig> for v1::TaskPushNotificationConfig {
    /// A configuration not yet bound to a task (as `message/send` carries it): no `taskId`.
    fn from(c: PushNotificationConfig) -> Self {
        v1::TaskPushNotificationConfig {
            tenant: None,
            id: c.id,
            task_id: None,
            url: c.url,
            token: c.token,
            authentication: c.authentication.map(Into::into),
        }
    }
}

impl From<v1::TaskPushNotificationConfig> for PushNotificationConfig {
    /// Drops `taskId` and `tenant`.
    fn from(c: v1::TaskPushNotificationConfig) -> Self {
        PushNotificationConfig {
            id: c.id,
            url: c.url,
            token: c.token,
            authentication: c.authentication.map(Into::into),
        }
    }
}

impl From<TaskPushNotificationConfig> for v1::TaskPushNotificationConfig {
    fn from(c: TaskPushNotificationConfig) -> Self {
        let mut config = v1::TaskPushNotificationConfig::from(c.push_notification_config);
        config.task_id = non_empty(c.task_id);
        config
    }
}

impl From<v1::TaskPushNotificationConfig> for TaskPushNotificationConfig {
    /// Drops `tenant`.
    fn from(c: v1::TaskPushNotificationConfig) -> Self {
        let task_id = c.task_id.clone().map(String::from).unwrap_or_default();
        TaskPushNotificationConfig {
            task_id,
            push_notification_config: c.into(),
        }
    }
}

impl From<Vec<TaskPushNotificationConfig>> for v1::ListTaskPushNotificationConfigsResponse {
    /// The result of `tasks/pushNotificationConfig/list`: one page, the last.
    fn from(configs: Vec<TaskPushNotificationConfig>) -> Self {
        v1::ListTaskPushNotificationConfigsResponse {
            configs: configs.into_iter().map(Into::into).collect(),
            next_page_token: None,
        }
    }
}

impl From<v1::ListTaskPushNotificationConfigsResponse> for Vec<TaskPushNotificationConfig> {
    /// Drops `nextPageToken` (0.3 has no paging).
    fn from(page: v1::ListTaskPushNotificationConfigsResponse) -> Self {
        page.configs.into_iter().map(Into::into).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Params

impl From<MessageSendConfiguration> for v1::SendMessageConfiguration {
    /// `blocking` (absent: `true`) becomes `returnImmediately = !blocking`.
    fn from(c: MessageSendConfiguration) -> Self {
        let return_immediately = !c.is_blocking();
        v1::SendMessageConfiguration {
            if_generation_match: None,
            accepted_output_modes: c.accepted_output_modes,
            return_immediately,
            history_length: c.history_length,
            task_push_notification_config: c.push_notification_config.map(Into::into),
        }
    }
}

impl From<v1::SendMessageConfiguration> for MessageSendConfiguration {
    /// `blocking` is always written (`!returnImmediately`).
    fn from(c: v1::SendMessageConfiguration) -> Self {
        MessageSendConfiguration {
            accepted_output_modes: c.accepted_output_modes,
            blocking: Some(!c.return_immediately),
            history_length: c.history_length,
            push_notification_config: c.task_push_notification_config.map(Into::into),
        }
    }
}

impl From<MessageSendParams> for v1::SendMessageRequest {
    fn from(p: MessageSendParams) -> Self {
        v1::SendMessageRequest {
            tenant: None,
            message: p.message.into(),
            configuration: p.configuration.map(Into::into),
            metadata: p.metadata,
        }
    }
}

impl From<v1::SendMessageRequest> for MessageSendParams {
    /// Drops `tenant`; a message with `ROLE_UNSPECIFIED` becomes a `user` message.
    fn from(r: v1::SendMessageRequest) -> Self {
        MessageSendParams {
            message: message_from_v1(r.message, Role::User),
            configuration: r.configuration.map(Into::into),
            metadata: r.metadata,
        }
    }
}

impl From<TaskQueryParams> for v1::GetTaskRequest {
    /// Drops `metadata` (1.0's `GetTaskRequest` has none).
    fn from(p: TaskQueryParams) -> Self {
        v1::GetTaskRequest {
            current_generation: None,
            tenant: None,
            id: p.id.into(),
            history_length: p.history_length,
        }
    }
}

impl From<v1::GetTaskRequest> for TaskQueryParams {
    /// Drops `tenant`.
    fn from(r: v1::GetTaskRequest) -> Self {
        TaskQueryParams {
            id: r.id.into_string(),
            history_length: r.history_length,
            metadata: None,
        }
    }
}

impl From<TaskIdParams> for v1::CancelTaskRequest {
    fn from(p: TaskIdParams) -> Self {
        v1::CancelTaskRequest {
            tenant: None,
            id: p.id.into(),
            metadata: p.metadata,
        }
    }
}

impl From<v1::CancelTaskRequest> for TaskIdParams {
    /// Drops `tenant`.
    fn from(r: v1::CancelTaskRequest) -> Self {
        TaskIdParams {
            id: r.id.into_string(),
            metadata: r.metadata,
        }
    }
}

impl From<TaskIdParams> for v1::SubscribeToTaskRequest {
    /// Drops `metadata` (1.0's `SubscribeToTaskRequest` has none).
    fn from(p: TaskIdParams) -> Self {
        v1::SubscribeToTaskRequest {
            tenant: None,
            id: p.id.into(),
        }
    }
}

impl From<v1::SubscribeToTaskRequest> for TaskIdParams {
    /// Drops `tenant`.
    fn from(r: v1::SubscribeToTaskRequest) -> Self {
        TaskIdParams {
            id: r.id.into_string(),
            metadata: None,
        }
    }
}

impl From<GetTaskPushNotificationConfigParams> for v1::GetTaskPushNotificationConfigRequest {
    /// Without `pushNotificationConfigId`, the 1.0 `id` is `""`: the task's default
    /// configuration (the Python SDK gives it the task's id).
    fn from(p: GetTaskPushNotificationConfigParams) -> Self {
        v1::GetTaskPushNotificationConfigRequest {
            tenant: None,
            task_id: p.id.into(),
            id: p.push_notification_config_id.unwrap_or_default(),
        }
    }
}

impl From<v1::GetTaskPushNotificationConfigRequest> for GetTaskPushNotificationConfigParams {
    /// Drops `tenant`; an empty `id` leaves `pushNotificationConfigId` out.
    fn from(r: v1::GetTaskPushNotificationConfigRequest) -> Self {
        GetTaskPushNotificationConfigParams {
            id: r.task_id.into_string(),
            push_notification_config_id: non_empty(r.id),
            metadata: None,
        }
    }
}

impl From<TaskIdParams> for v1::GetTaskPushNotificationConfigRequest {
    /// The `TaskIdParams` form of `tasks/pushNotificationConfig/get`: the task's default
    /// configuration (`id` is `""`).
    fn from(p: TaskIdParams) -> Self {
        GetTaskPushNotificationConfigParams::from(p).into()
    }
}

impl From<ListTaskPushNotificationConfigParams> for v1::ListTaskPushNotificationConfigsRequest {
    /// Drops `metadata`.
    fn from(p: ListTaskPushNotificationConfigParams) -> Self {
        v1::ListTaskPushNotificationConfigsRequest {
            tenant: None,
            task_id: p.id.into(),
            page_size: 0,
            page_token: None,
        }
    }
}

impl From<v1::ListTaskPushNotificationConfigsRequest> for ListTaskPushNotificationConfigParams {
    /// Drops `tenant`, `pageSize` and `pageToken` (0.3 has no paging).
    fn from(r: v1::ListTaskPushNotificationConfigsRequest) -> Self {
        ListTaskPushNotificationConfigParams {
            id: r.task_id.into_string(),
            metadata: None,
        }
    }
}

impl From<DeleteTaskPushNotificationConfigParams> for v1::DeleteTaskPushNotificationConfigRequest {
    /// Drops `metadata`.
    fn from(p: DeleteTaskPushNotificationConfigParams) -> Self {
        v1::DeleteTaskPushNotificationConfigRequest {
            tenant: None,
            task_id: p.id.into(),
            id: p.push_notification_config_id,
        }
    }
}

impl From<v1::DeleteTaskPushNotificationConfigRequest> for DeleteTaskPushNotificationConfigParams {
    /// Drops `tenant`.
    fn from(r: v1::DeleteTaskPushNotificationConfigRequest) -> Self {
        DeleteTaskPushNotificationConfigParams {
            id: r.task_id.into_string(),
            push_notification_config_id: r.id,
            metadata: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timestamps() {
        let t = |s: &str| parse_timestamp(s).map(|t| t.to_string());
        assert_eq!(
            t("2024-03-15T10:10:00Z").as_deref(),
            Some("2024-03-15T10:10:00.000Z")
        );
        assert_eq!(
            t("2025-04-02T16:59:25.331844").as_deref(),
            Some("2025-04-02T16:59:25.331844Z")
        );
        assert_eq!(
            t("2025-04-02T18:59:25+02:00").as_deref(),
            Some("2025-04-02T16:59:25.000Z")
        );
        assert_eq!(
            t("2025-04-02 16:59:25").as_deref(),
            Some("2025-04-02T16:59:25.000Z")
        );
        assert_eq!(t("yesterday"), None);
        assert_eq!(t("2025-04-02T16:59:25+0200"), None);
    }

    #[test]
    fn non_object_data_is_wrapped_and_unwrapped() {
        let v1_part = v1::Part::data(json!([1, 2]));
        let old = Part::from(v1_part.clone());
        assert_eq!(
            serde_json::to_value(&old).unwrap(),
            json!({"kind": "data", "data": {"value": [1, 2]}, "metadata": {"data_part_compat": true}})
        );
        assert_eq!(v1::Part::from(old), v1_part);
    }

    #[test]
    fn final_follows_the_state() {
        for state in v1::TaskState::ALL {
            let event = TaskStatusUpdateEvent::from(v1::TaskStatusUpdateEvent::new(
                "t",
                "c",
                v1::TaskStatus::new(*state),
            ));
            assert_eq!(event.is_final, state.is_final(), "{state}");
        }
    }

    #[test]
    fn blocking_is_not_return_immediately() {
        let absent = v1::SendMessageConfiguration::from(MessageSendConfiguration::default());
        assert!(!absent.return_immediately);
        let non_blocking = v1::SendMessageConfiguration::from(
            MessageSendConfiguration::default().with_blocking(false),
        );
        assert!(non_blocking.return_immediately);
        assert_eq!(
            MessageSendConfiguration::from(non_blocking).blocking,
            Some(false)
        );
    }

    #[test]
    fn push_schemes() {
        let auth = PushNotificationAuthenticationInfo::new(["Bearer", "Basic"]);
        let v1_auth = v1::AuthenticationInfo::from(auth);
        assert_eq!(v1_auth.scheme, "Bearer");
        assert_eq!(
            PushNotificationAuthenticationInfo::from(v1_auth).schemes,
            ["Bearer"]
        );
        assert!(
            PushNotificationAuthenticationInfo::from(v1::AuthenticationInfo::new(""))
                .schemes
                .is_empty()
        );
    }
}
