//! Conversions between the generated protobuf messages ([`crate::proto`]) and the core types
//! of [`a2a_types::v1`], in both directions.
//!
//! * `v1 -> proto` is [`From`]: every value has its message.
//! * `proto -> v1` is [`TryFrom`] with [`InvalidMessage`], which names the message and field
//!   at fault: a message field the proto marks `REQUIRED` that is absent (`Task.status`,
//!   `SendMessageRequest.message`, ...), a oneof with no member (`Part.content`,
//!   `StreamResponse.payload`, ...), an enum number the proto does not define, a timestamp
//!   outside 0001-01-01..9999-12-31, a `double` that JSON cannot hold (NaN, infinity).
//!
//! **The A2A 1.1 draft's fields** (`Task.generation`, the events' `generation`,
//! `GetTaskRequest.current_generation`, `SendMessageConfiguration.if_generation_match`; see
//! `docs/versions.md`) are read always, and written as the serde forms write generations: not
//! inside [`a2a_types::protocol::generations::hidden`], the 1.0 wire, where they stay at their
//! defaults (0, absent), which protobuf does not encode: a 1.0 peer gets 1.0's bytes.
//!
//! ```
//! use a2a_grpc::proto;
//! use a2a_types::protocol::generations;
//! use a2a_types::v1::{Task, TaskState, TaskStatus};
//! use prost::Message as _;
//!
//! let mut task = Task::new("t-1", "c-1", TaskStatus::new(TaskState::Working));
//! task.generation = 3;
//! assert_eq!(proto::Task::from(task.clone()).generation, 3);
//! let v1_0 = generations::hidden(|| proto::Task::from(task.clone()));
//! assert_eq!(v1_0.generation, 0);
//! task.generation = 0;
//! assert_eq!(v1_0.encode_to_vec(), proto::Task::from(task).encode_to_vec());
//! ```
//!
//! The two are inverse: `v1 -> proto -> v1` gives the value back (the property tests of the
//! `a2a-tests` crate hold every message to it). As in ProtoJSON, an empty string and an absent
//! one are the same on the wire (`Option<String>` fields read `""` as `None`), and numbers in a
//! `google.protobuf.Struct` or `Value` are doubles: an integer comes back as the same integer
//! while it is exactly a double (up to 2^53), a non-integral number as the same `f64`.
//!
//! ```
//! use a2a_grpc::proto;
//! use a2a_types::v1::{Message, Part, Role};
//!
//! let message = Message::new("m-1", Role::User, vec![Part::text("hi")]);
//! let wire = proto::Message::from(message.clone());
//! assert_eq!(wire.role, proto::Role::User as i32);
//! assert_eq!(Message::try_from(wire).unwrap(), message);
//! ```

use std::collections::BTreeMap;
use std::fmt;

use a2a_types::protocol::generations;
use a2a_types::v1;
use prost_types::value::Kind;
use serde_json::{Map, Number, Value};

use crate::proto;

/// A protobuf message that has no `a2a_types::v1` value: what is wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidMessage {
    /// `Message.field` of the field at fault (`Task.status`, `Part.content`).
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

impl InvalidMessage {
    fn new(field: &'static str, problem: impl Into<String>) -> Self {
        Self {
            field,
            problem: problem.into(),
        }
    }

    /// A required message field that is absent.
    fn missing(field: &'static str) -> Self {
        Self::new(field, "is required but absent")
    }
}

impl fmt::Display for InvalidMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.field, self.problem)
    }
}

impl std::error::Error for InvalidMessage {}

type Result<T> = std::result::Result<T, InvalidMessage>;

// ----- helpers -----------------------------------------------------------------------------------

/// `""` is absent.
fn opt(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// Absent is `""`.
fn string<T: Into<String>>(s: Option<T>) -> String {
    s.map(Into::into).unwrap_or_default()
}

/// A generation as written here: 0 (not encoded) inside `generations::hidden`.
fn generation(g: i64) -> i64 {
    if generations::shown() { g } else { 0 }
}

/// A 1.1 request field as written here: absent inside `generations::hidden`.
fn generation_field(g: Option<i64>) -> Option<i64> {
    g.filter(|_| generations::shown())
}

fn required<T>(value: Option<T>, field: &'static str) -> Result<T> {
    value.ok_or_else(|| InvalidMessage::missing(field))
}

fn list<A, B: TryFrom<A, Error = InvalidMessage>>(items: Vec<A>) -> Result<Vec<B>> {
    items.into_iter().map(B::try_from).collect()
}

fn into_list<A, B: From<A>>(items: Vec<A>) -> Vec<B> {
    items.into_iter().map(B::from).collect()
}

fn task_state(number: i32, field: &'static str) -> Result<v1::TaskState> {
    v1::TaskState::from_number(number)
        .ok_or_else(|| InvalidMessage::new(field, format!("is {number}, not a TaskState")))
}

fn role(number: i32, field: &'static str) -> Result<v1::Role> {
    v1::Role::from_number(number)
        .ok_or_else(|| InvalidMessage::new(field, format!("is {number}, not a Role")))
}

// ----- google.protobuf.Struct, Value, Timestamp ---------------------------------------------------

/// A JSON value as a `google.protobuf.Value`.
pub fn value_to_proto(value: Value) -> prost_types::Value {
    let kind = match value {
        Value::Null => Kind::NullValue(prost_types::NullValue::NullValue as i32),
        Value::Bool(b) => Kind::BoolValue(b),
        Value::Number(n) => Kind::NumberValue(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Kind::StringValue(s),
        Value::Array(items) => Kind::ListValue(prost_types::ListValue {
            values: items.into_iter().map(value_to_proto).collect(),
        }),
        Value::Object(map) => Kind::StructValue(struct_to_proto(map)),
    };
    prost_types::Value { kind: Some(kind) }
}

/// A JSON object as a `google.protobuf.Struct`.
pub fn struct_to_proto(map: Map<String, Value>) -> prost_types::Struct {
    prost_types::Struct {
        fields: map
            .into_iter()
            .map(|(k, v)| (k, value_to_proto(v)))
            .collect(),
    }
}

/// The largest integer every smaller one of which a double holds exactly (2^53).
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// A `google.protobuf.Value` as JSON: an unset kind is `null`; an integral number within ±2^53
/// is a JSON integer, any other number a float; NaN and infinities have no JSON form.
pub fn value_from_proto(value: prost_types::Value) -> Result<Value> {
    Ok(match value.kind {
        None | Some(Kind::NullValue(_)) => Value::Null,
        Some(Kind::BoolValue(b)) => Value::Bool(b),
        Some(Kind::NumberValue(n)) => Value::Number(number(n)?),
        Some(Kind::StringValue(s)) => Value::String(s),
        Some(Kind::ListValue(l)) => Value::Array(
            l.values
                .into_iter()
                .map(value_from_proto)
                .collect::<Result<_>>()?,
        ),
        Some(Kind::StructValue(s)) => Value::Object(struct_from_proto(s)?),
    })
}

fn number(n: f64) -> Result<Number> {
    if n.fract() == 0.0 && n.abs() <= EXACT_INTEGERS {
        // Exact: the value is an integer within ±2^53.
        #[allow(clippy::cast_possible_truncation)]
        let i = n as i64;
        return Ok(if i >= 0 {
            Number::from(i.unsigned_abs())
        } else {
            Number::from(i)
        });
    }
    Number::from_f64(n).ok_or_else(|| {
        InvalidMessage::new(
            "Value.number_value",
            format!("is {n}, which JSON cannot hold"),
        )
    })
}

/// A `google.protobuf.Struct` as a JSON object.
pub fn struct_from_proto(s: prost_types::Struct) -> Result<Map<String, Value>> {
    s.fields
        .into_iter()
        .map(|(k, v)| Ok((k, value_from_proto(v)?)))
        .collect()
}

fn metadata_from(s: Option<prost_types::Struct>) -> Result<Option<v1::Struct>> {
    s.map(struct_from_proto).transpose()
}

fn metadata_to(s: Option<v1::Struct>) -> Option<prost_types::Struct> {
    s.map(struct_to_proto)
}

/// A timestamp as a `google.protobuf.Timestamp`.
pub fn timestamp_to_proto(t: v1::Timestamp) -> prost_types::Timestamp {
    prost_types::Timestamp {
        seconds: t.unix_seconds(),
        nanos: i32::try_from(t.subsec_nanos()).unwrap_or(0),
    }
}

/// A `google.protobuf.Timestamp` as a timestamp (normalized first: nanos outside 0..10^9 carry
/// into the seconds).
pub fn timestamp_from_proto(
    mut t: prost_types::Timestamp,
    field: &'static str,
) -> Result<v1::Timestamp> {
    t.normalize();
    let nanos = u32::try_from(t.nanos).unwrap_or(0);
    v1::Timestamp::from_unix(t.seconds, nanos).ok_or_else(|| {
        InvalidMessage::new(
            field,
            format!(
                "is {}s {}ns after 1970, outside 0001-01-01..9999-12-31",
                t.seconds, t.nanos
            ),
        )
    })
}

// ----- Part, Message, Artifact --------------------------------------------------------------------

impl From<v1::Part> for proto::Part {
    fn from(p: v1::Part) -> Self {
        use proto::part::Content;
        let content = match p.content {
            v1::PartContent::Text(t) => Some(Content::Text(t)),
            v1::PartContent::Raw(b) => Some(Content::Raw(b)),
            v1::PartContent::Url(u) => Some(Content::Url(u)),
            v1::PartContent::Data(d) => Some(Content::Data(value_to_proto(d))),
            // A member a later proto adds has no field here: the oneof is sent empty.
            _ => None,
        };
        Self {
            content,
            metadata: metadata_to(p.metadata),
            filename: string(p.filename),
            media_type: string(p.media_type),
        }
    }
}

impl TryFrom<proto::Part> for v1::Part {
    type Error = InvalidMessage;

    fn try_from(p: proto::Part) -> Result<Self> {
        use proto::part::Content;
        let content = match p.content {
            Some(Content::Text(t)) => v1::PartContent::Text(t),
            Some(Content::Raw(b)) => v1::PartContent::Raw(b),
            Some(Content::Url(u)) => v1::PartContent::Url(u),
            Some(Content::Data(d)) => v1::PartContent::Data(value_from_proto(d)?),
            None => {
                return Err(InvalidMessage::new(
                    "Part.content",
                    "has none of text, raw, url, data",
                ));
            }
        };
        let mut part = v1::Part::new(content);
        part.metadata = metadata_from(p.metadata)?;
        part.filename = opt(p.filename);
        part.media_type = opt(p.media_type);
        Ok(part)
    }
}

impl From<v1::Message> for proto::Message {
    fn from(m: v1::Message) -> Self {
        Self {
            message_id: m.message_id.into_string(),
            context_id: string(m.context_id),
            task_id: string(m.task_id),
            role: m.role.number(),
            parts: into_list(m.parts),
            metadata: metadata_to(m.metadata),
            extensions: m.extensions,
            reference_task_ids: m.reference_task_ids.into_iter().map(Into::into).collect(),
        }
    }
}

impl TryFrom<proto::Message> for v1::Message {
    type Error = InvalidMessage;

    fn try_from(m: proto::Message) -> Result<Self> {
        let mut message =
            v1::Message::new(m.message_id, role(m.role, "Message.role")?, list(m.parts)?);
        message.context_id = opt(m.context_id).map(Into::into);
        message.task_id = opt(m.task_id).map(Into::into);
        message.metadata = metadata_from(m.metadata)?;
        message.extensions = m.extensions;
        message.reference_task_ids = m.reference_task_ids.into_iter().map(Into::into).collect();
        Ok(message)
    }
}

impl From<v1::Artifact> for proto::Artifact {
    fn from(a: v1::Artifact) -> Self {
        Self {
            artifact_id: a.artifact_id.into_string(),
            name: string(a.name),
            description: string(a.description),
            parts: into_list(a.parts),
            metadata: metadata_to(a.metadata),
            extensions: a.extensions,
        }
    }
}

impl TryFrom<proto::Artifact> for v1::Artifact {
    type Error = InvalidMessage;

    fn try_from(a: proto::Artifact) -> Result<Self> {
        let mut artifact = v1::Artifact::new(a.artifact_id, list(a.parts)?);
        artifact.name = opt(a.name);
        artifact.description = opt(a.description);
        artifact.metadata = metadata_from(a.metadata)?;
        artifact.extensions = a.extensions;
        Ok(artifact)
    }
}

// ----- Task, its status and events ----------------------------------------------------------------

impl From<v1::TaskStatus> for proto::TaskStatus {
    fn from(s: v1::TaskStatus) -> Self {
        Self {
            state: s.state.number(),
            message: s.message.map(Into::into),
            timestamp: s.timestamp.map(timestamp_to_proto),
        }
    }
}

impl TryFrom<proto::TaskStatus> for v1::TaskStatus {
    type Error = InvalidMessage;

    fn try_from(s: proto::TaskStatus) -> Result<Self> {
        let mut status = v1::TaskStatus::new(task_state(s.state, "TaskStatus.state")?);
        status.message = s.message.map(TryInto::try_into).transpose()?;
        status.timestamp = s
            .timestamp
            .map(|t| timestamp_from_proto(t, "TaskStatus.timestamp"))
            .transpose()?;
        Ok(status)
    }
}

impl From<v1::Task> for proto::Task {
    fn from(t: v1::Task) -> Self {
        Self {
            id: t.id.into_string(),
            context_id: string(t.context_id),
            status: Some(t.status.into()),
            artifacts: into_list(t.artifacts),
            history: into_list(t.history),
            metadata: metadata_to(t.metadata),
            generation: generation(t.generation),
        }
    }
}

impl TryFrom<proto::Task> for v1::Task {
    type Error = InvalidMessage;

    fn try_from(t: proto::Task) -> Result<Self> {
        let status = required(t.status, "Task.status")?.try_into()?;
        let mut task = v1::Task::new(t.id, "", status);
        task.context_id = opt(t.context_id).map(Into::into);
        task.artifacts = list(t.artifacts)?;
        task.history = list(t.history)?;
        task.metadata = metadata_from(t.metadata)?;
        task.generation = t.generation;
        Ok(task)
    }
}

impl From<v1::TaskStatusUpdateEvent> for proto::TaskStatusUpdateEvent {
    fn from(e: v1::TaskStatusUpdateEvent) -> Self {
        Self {
            task_id: e.task_id.into_string(),
            context_id: e.context_id.into_string(),
            status: Some(e.status.into()),
            metadata: metadata_to(e.metadata),
            generation: generation(e.generation),
        }
    }
}

impl TryFrom<proto::TaskStatusUpdateEvent> for v1::TaskStatusUpdateEvent {
    type Error = InvalidMessage;

    fn try_from(e: proto::TaskStatusUpdateEvent) -> Result<Self> {
        let status = required(e.status, "TaskStatusUpdateEvent.status")?.try_into()?;
        let mut event = v1::TaskStatusUpdateEvent::new(e.task_id, e.context_id, status);
        event.metadata = metadata_from(e.metadata)?;
        event.generation = e.generation;
        Ok(event)
    }
}

impl From<v1::TaskArtifactUpdateEvent> for proto::TaskArtifactUpdateEvent {
    fn from(e: v1::TaskArtifactUpdateEvent) -> Self {
        Self {
            task_id: e.task_id.into_string(),
            context_id: e.context_id.into_string(),
            artifact: Some(e.artifact.into()),
            append: e.append,
            last_chunk: e.last_chunk,
            metadata: metadata_to(e.metadata),
            generation: generation(e.generation),
        }
    }
}

impl TryFrom<proto::TaskArtifactUpdateEvent> for v1::TaskArtifactUpdateEvent {
    type Error = InvalidMessage;

    fn try_from(e: proto::TaskArtifactUpdateEvent) -> Result<Self> {
        let artifact = required(e.artifact, "TaskArtifactUpdateEvent.artifact")?.try_into()?;
        let mut event = v1::TaskArtifactUpdateEvent::new(e.task_id, e.context_id, artifact)
            .with_append(e.append)
            .with_last_chunk(e.last_chunk);
        event.metadata = metadata_from(e.metadata)?;
        event.generation = e.generation;
        Ok(event)
    }
}

impl From<v1::SendMessageResponse> for proto::SendMessageResponse {
    fn from(r: v1::SendMessageResponse) -> Self {
        use proto::send_message_response::Payload;
        let payload = match r {
            v1::SendMessageResponse::Task(t) => Some(Payload::Task(t.into())),
            v1::SendMessageResponse::Message(m) => Some(Payload::Message(m.into())),
            _ => None,
        };
        Self { payload }
    }
}

impl TryFrom<proto::SendMessageResponse> for v1::SendMessageResponse {
    type Error = InvalidMessage;

    fn try_from(r: proto::SendMessageResponse) -> Result<Self> {
        use proto::send_message_response::Payload;
        match r.payload {
            Some(Payload::Task(t)) => Ok(Self::Task(t.try_into()?)),
            Some(Payload::Message(m)) => Ok(Self::Message(m.try_into()?)),
            None => Err(InvalidMessage::new(
                "SendMessageResponse.payload",
                "has neither task nor message",
            )),
        }
    }
}

impl From<v1::StreamResponse> for proto::StreamResponse {
    fn from(r: v1::StreamResponse) -> Self {
        use proto::stream_response::Payload;
        let payload = match r {
            v1::StreamResponse::Task(t) => Some(Payload::Task(t.into())),
            v1::StreamResponse::Message(m) => Some(Payload::Message(m.into())),
            v1::StreamResponse::StatusUpdate(e) => Some(Payload::StatusUpdate(e.into())),
            v1::StreamResponse::ArtifactUpdate(e) => Some(Payload::ArtifactUpdate(e.into())),
            _ => None,
        };
        Self { payload }
    }
}

impl TryFrom<proto::StreamResponse> for v1::StreamResponse {
    type Error = InvalidMessage;

    fn try_from(r: proto::StreamResponse) -> Result<Self> {
        use proto::stream_response::Payload;
        match r.payload {
            Some(Payload::Task(t)) => Ok(Self::Task(t.try_into()?)),
            Some(Payload::Message(m)) => Ok(Self::Message(m.try_into()?)),
            Some(Payload::StatusUpdate(e)) => Ok(Self::StatusUpdate(e.try_into()?)),
            Some(Payload::ArtifactUpdate(e)) => Ok(Self::ArtifactUpdate(e.try_into()?)),
            None => Err(InvalidMessage::new(
                "StreamResponse.payload",
                "has none of task, message, statusUpdate, artifactUpdate",
            )),
        }
    }
}

// ----- push notification configs ------------------------------------------------------------------

impl From<v1::AuthenticationInfo> for proto::AuthenticationInfo {
    fn from(a: v1::AuthenticationInfo) -> Self {
        Self {
            scheme: a.scheme,
            credentials: string(a.credentials),
        }
    }
}

impl From<proto::AuthenticationInfo> for v1::AuthenticationInfo {
    fn from(a: proto::AuthenticationInfo) -> Self {
        let mut info = v1::AuthenticationInfo::new(a.scheme);
        info.credentials = opt(a.credentials);
        info
    }
}

impl From<v1::TaskPushNotificationConfig> for proto::TaskPushNotificationConfig {
    fn from(c: v1::TaskPushNotificationConfig) -> Self {
        Self {
            tenant: string(c.tenant),
            id: string(c.id),
            task_id: string(c.task_id),
            url: c.url,
            token: string(c.token),
            authentication: c.authentication.map(Into::into),
        }
    }
}

impl From<proto::TaskPushNotificationConfig> for v1::TaskPushNotificationConfig {
    fn from(c: proto::TaskPushNotificationConfig) -> Self {
        let mut config = v1::TaskPushNotificationConfig::new(c.url);
        config.tenant = opt(c.tenant);
        config.id = opt(c.id);
        config.task_id = opt(c.task_id).map(Into::into);
        config.token = opt(c.token);
        config.authentication = c.authentication.map(Into::into);
        config
    }
}

// ----- requests and responses ---------------------------------------------------------------------

impl From<v1::SendMessageConfiguration> for proto::SendMessageConfiguration {
    fn from(c: v1::SendMessageConfiguration) -> Self {
        Self {
            accepted_output_modes: c.accepted_output_modes,
            task_push_notification_config: c.task_push_notification_config.map(Into::into),
            history_length: c.history_length,
            return_immediately: c.return_immediately,
            if_generation_match: generation_field(c.if_generation_match),
        }
    }
}

impl From<proto::SendMessageConfiguration> for v1::SendMessageConfiguration {
    fn from(c: proto::SendMessageConfiguration) -> Self {
        let mut config = v1::SendMessageConfiguration::default()
            .with_accepted_output_modes(c.accepted_output_modes)
            .with_return_immediately(c.return_immediately);
        config.task_push_notification_config = c.task_push_notification_config.map(Into::into);
        config.history_length = c.history_length;
        config.if_generation_match = c.if_generation_match;
        config
    }
}

impl From<v1::SendMessageRequest> for proto::SendMessageRequest {
    fn from(r: v1::SendMessageRequest) -> Self {
        Self {
            tenant: string(r.tenant),
            message: Some(r.message.into()),
            configuration: r.configuration.map(Into::into),
            metadata: metadata_to(r.metadata),
        }
    }
}

impl TryFrom<proto::SendMessageRequest> for v1::SendMessageRequest {
    type Error = InvalidMessage;

    fn try_from(r: proto::SendMessageRequest) -> Result<Self> {
        let message = required(r.message, "SendMessageRequest.message")?.try_into()?;
        let mut request = v1::SendMessageRequest::new(message);
        request.tenant = opt(r.tenant);
        request.configuration = r.configuration.map(Into::into);
        request.metadata = metadata_from(r.metadata)?;
        Ok(request)
    }
}

impl From<v1::GetTaskRequest> for proto::GetTaskRequest {
    fn from(r: v1::GetTaskRequest) -> Self {
        Self {
            tenant: string(r.tenant),
            id: r.id.into_string(),
            history_length: r.history_length,
            current_generation: generation_field(r.current_generation),
        }
    }
}

impl From<proto::GetTaskRequest> for v1::GetTaskRequest {
    fn from(r: proto::GetTaskRequest) -> Self {
        let mut request = v1::GetTaskRequest::new(r.id);
        request.tenant = opt(r.tenant);
        request.history_length = r.history_length;
        request.current_generation = r.current_generation;
        request
    }
}

impl From<v1::ListTasksRequest> for proto::ListTasksRequest {
    fn from(r: v1::ListTasksRequest) -> Self {
        Self {
            tenant: string(r.tenant),
            context_id: string(r.context_id),
            status: r.status.number(),
            page_size: r.page_size,
            page_token: string(r.page_token),
            history_length: r.history_length,
            status_timestamp_after: r.status_timestamp_after.map(timestamp_to_proto),
            include_artifacts: r.include_artifacts,
        }
    }
}

impl TryFrom<proto::ListTasksRequest> for v1::ListTasksRequest {
    type Error = InvalidMessage;

    fn try_from(r: proto::ListTasksRequest) -> Result<Self> {
        let mut request = v1::ListTasksRequest::new()
            .with_status(task_state(r.status, "ListTasksRequest.status")?);
        request.tenant = opt(r.tenant);
        request.context_id = opt(r.context_id).map(Into::into);
        request.page_size = r.page_size;
        request.page_token = opt(r.page_token);
        request.history_length = r.history_length;
        request.status_timestamp_after = r
            .status_timestamp_after
            .map(|t| timestamp_from_proto(t, "ListTasksRequest.status_timestamp_after"))
            .transpose()?;
        request.include_artifacts = r.include_artifacts;
        Ok(request)
    }
}

impl From<v1::ListTasksResponse> for proto::ListTasksResponse {
    fn from(r: v1::ListTasksResponse) -> Self {
        Self {
            tasks: into_list(r.tasks),
            next_page_token: r.next_page_token,
            page_size: r.page_size,
            total_size: r.total_size,
        }
    }
}

impl TryFrom<proto::ListTasksResponse> for v1::ListTasksResponse {
    type Error = InvalidMessage;

    fn try_from(r: proto::ListTasksResponse) -> Result<Self> {
        Ok(v1::ListTasksResponse::new(
            list(r.tasks)?,
            r.next_page_token,
            r.page_size,
            r.total_size,
        ))
    }
}

impl From<v1::CancelTaskRequest> for proto::CancelTaskRequest {
    fn from(r: v1::CancelTaskRequest) -> Self {
        Self {
            tenant: string(r.tenant),
            id: r.id.into_string(),
            metadata: metadata_to(r.metadata),
        }
    }
}

impl TryFrom<proto::CancelTaskRequest> for v1::CancelTaskRequest {
    type Error = InvalidMessage;

    fn try_from(r: proto::CancelTaskRequest) -> Result<Self> {
        let mut request = v1::CancelTaskRequest::new(r.id);
        request.tenant = opt(r.tenant);
        request.metadata = metadata_from(r.metadata)?;
        Ok(request)
    }
}

impl From<v1::SubscribeToTaskRequest> for proto::SubscribeToTaskRequest {
    fn from(r: v1::SubscribeToTaskRequest) -> Self {
        Self {
            tenant: string(r.tenant),
            id: r.id.into_string(),
        }
    }
}

impl From<proto::SubscribeToTaskRequest> for v1::SubscribeToTaskRequest {
    fn from(r: proto::SubscribeToTaskRequest) -> Self {
        let mut request = v1::SubscribeToTaskRequest::new(r.id);
        request.tenant = opt(r.tenant);
        request
    }
}

/// `GetTaskPushNotificationConfigRequest` and `DeleteTaskPushNotificationConfigRequest`: the same
/// three fields.
macro_rules! config_request {
    ($($name:ident),+) => {$(
        impl From<v1::$name> for proto::$name {
            fn from(r: v1::$name) -> Self {
                Self {
                    tenant: string(r.tenant),
                    task_id: r.task_id.into_string(),
                    id: r.id,
                }
            }
        }

        impl From<proto::$name> for v1::$name {
            fn from(r: proto::$name) -> Self {
                let mut request = v1::$name::new(r.task_id, r.id);
                request.tenant = opt(r.tenant);
                request
            }
        }
    )+};
}

config_request!(
    GetTaskPushNotificationConfigRequest,
    DeleteTaskPushNotificationConfigRequest
);

impl From<v1::ListTaskPushNotificationConfigsRequest>
    for proto::ListTaskPushNotificationConfigsRequest
{
    fn from(r: v1::ListTaskPushNotificationConfigsRequest) -> Self {
        Self {
            tenant: string(r.tenant),
            task_id: r.task_id.into_string(),
            page_size: r.page_size,
            page_token: string(r.page_token),
        }
    }
}

impl From<proto::ListTaskPushNotificationConfigsRequest>
    for v1::ListTaskPushNotificationConfigsRequest
{
    fn from(r: proto::ListTaskPushNotificationConfigsRequest) -> Self {
        let mut request = v1::ListTaskPushNotificationConfigsRequest::new(r.task_id);
        request.tenant = opt(r.tenant);
        request.page_size = r.page_size;
        request.page_token = opt(r.page_token);
        request
    }
}

impl From<v1::ListTaskPushNotificationConfigsResponse>
    for proto::ListTaskPushNotificationConfigsResponse
{
    fn from(r: v1::ListTaskPushNotificationConfigsResponse) -> Self {
        Self {
            configs: into_list(r.configs),
            next_page_token: string(r.next_page_token),
        }
    }
}

impl From<proto::ListTaskPushNotificationConfigsResponse>
    for v1::ListTaskPushNotificationConfigsResponse
{
    fn from(r: proto::ListTaskPushNotificationConfigsResponse) -> Self {
        v1::ListTaskPushNotificationConfigsResponse::new(
            into_list(r.configs),
            opt(r.next_page_token),
        )
    }
}

impl From<v1::GetExtendedAgentCardRequest> for proto::GetExtendedAgentCardRequest {
    fn from(r: v1::GetExtendedAgentCardRequest) -> Self {
        Self {
            tenant: string(r.tenant),
        }
    }
}

impl From<proto::GetExtendedAgentCardRequest> for v1::GetExtendedAgentCardRequest {
    fn from(r: proto::GetExtendedAgentCardRequest) -> Self {
        let mut request = v1::GetExtendedAgentCardRequest::new();
        request.tenant = opt(r.tenant);
        request
    }
}

// ----- the agent card -----------------------------------------------------------------------------

impl From<v1::AgentInterface> for proto::AgentInterface {
    fn from(i: v1::AgentInterface) -> Self {
        Self {
            url: i.url,
            protocol_binding: i.protocol_binding,
            tenant: string(i.tenant),
            protocol_version: i.protocol_version,
        }
    }
}

impl From<proto::AgentInterface> for v1::AgentInterface {
    fn from(i: proto::AgentInterface) -> Self {
        let mut interface = v1::AgentInterface::new(i.url, i.protocol_binding, i.protocol_version);
        interface.tenant = opt(i.tenant);
        interface
    }
}

impl From<v1::AgentProvider> for proto::AgentProvider {
    fn from(p: v1::AgentProvider) -> Self {
        Self {
            url: p.url,
            organization: p.organization,
        }
    }
}

impl From<proto::AgentProvider> for v1::AgentProvider {
    fn from(p: proto::AgentProvider) -> Self {
        v1::AgentProvider::new(p.organization, p.url)
    }
}

impl From<v1::AgentExtension> for proto::AgentExtension {
    fn from(e: v1::AgentExtension) -> Self {
        Self {
            uri: string(e.uri),
            description: string(e.description),
            required: e.required,
            params: metadata_to(e.params),
        }
    }
}

impl TryFrom<proto::AgentExtension> for v1::AgentExtension {
    type Error = InvalidMessage;

    fn try_from(e: proto::AgentExtension) -> Result<Self> {
        let mut extension = v1::AgentExtension::default();
        extension.uri = opt(e.uri);
        extension.description = opt(e.description);
        extension.required = e.required;
        extension.params = metadata_from(e.params)?;
        Ok(extension)
    }
}

impl From<v1::AgentCapabilities> for proto::AgentCapabilities {
    fn from(c: v1::AgentCapabilities) -> Self {
        Self {
            streaming: c.streaming,
            push_notifications: c.push_notifications,
            extensions: into_list(c.extensions),
            extended_agent_card: c.extended_agent_card,
        }
    }
}

impl TryFrom<proto::AgentCapabilities> for v1::AgentCapabilities {
    type Error = InvalidMessage;

    fn try_from(c: proto::AgentCapabilities) -> Result<Self> {
        let mut capabilities = v1::AgentCapabilities::default();
        capabilities.streaming = c.streaming;
        capabilities.push_notifications = c.push_notifications;
        capabilities.extensions = list(c.extensions)?;
        capabilities.extended_agent_card = c.extended_agent_card;
        Ok(capabilities)
    }
}

impl From<v1::StringList> for proto::StringList {
    fn from(l: v1::StringList) -> Self {
        Self { list: l.list }
    }
}

impl From<proto::StringList> for v1::StringList {
    fn from(l: proto::StringList) -> Self {
        let mut list = v1::StringList::default();
        list.list = l.list;
        list
    }
}

impl From<v1::SecurityRequirement> for proto::SecurityRequirement {
    fn from(r: v1::SecurityRequirement) -> Self {
        Self {
            schemes: r.schemes.into_iter().map(|(k, v)| (k, v.into())).collect(),
        }
    }
}

impl From<proto::SecurityRequirement> for v1::SecurityRequirement {
    fn from(r: proto::SecurityRequirement) -> Self {
        let mut requirement = v1::SecurityRequirement::new();
        requirement.schemes = r.schemes.into_iter().map(|(k, v)| (k, v.into())).collect();
        requirement
    }
}

impl From<v1::AgentSkill> for proto::AgentSkill {
    fn from(s: v1::AgentSkill) -> Self {
        Self {
            id: s.id,
            name: s.name,
            description: s.description,
            tags: s.tags,
            examples: s.examples,
            input_modes: s.input_modes,
            output_modes: s.output_modes,
            security_requirements: into_list(s.security_requirements),
        }
    }
}

impl From<proto::AgentSkill> for v1::AgentSkill {
    fn from(s: proto::AgentSkill) -> Self {
        let mut skill = v1::AgentSkill::new(s.id, s.name, s.description, s.tags);
        skill.examples = s.examples;
        skill.input_modes = s.input_modes;
        skill.output_modes = s.output_modes;
        skill.security_requirements = into_list(s.security_requirements);
        skill
    }
}

impl From<v1::AgentCardSignature> for proto::AgentCardSignature {
    fn from(s: v1::AgentCardSignature) -> Self {
        Self {
            protected: s.protected,
            signature: s.signature,
            header: metadata_to(s.header),
        }
    }
}

impl TryFrom<proto::AgentCardSignature> for v1::AgentCardSignature {
    type Error = InvalidMessage;

    fn try_from(s: proto::AgentCardSignature) -> Result<Self> {
        let mut signature = v1::AgentCardSignature::new(s.protected, s.signature);
        signature.header = metadata_from(s.header)?;
        Ok(signature)
    }
}

/// The OAuth flows' `scopes` maps (proto `map<string, string>`, generated as `BTreeMap`s as in
/// v1).
fn scopes_from(m: BTreeMap<String, String>) -> v1::Scopes {
    m
}

fn scopes_to(m: v1::Scopes) -> BTreeMap<String, String> {
    m
}

// The implicit and password flows are deprecated in the proto, and carried all the same.
#[allow(deprecated)]
impl From<v1::OAuthFlows> for proto::OAuthFlows {
    fn from(f: v1::OAuthFlows) -> Self {
        use proto::o_auth_flows::Flow;
        let flow = match f {
            v1::OAuthFlows::AuthorizationCode(f) => {
                Flow::AuthorizationCode(proto::AuthorizationCodeOAuthFlow {
                    authorization_url: f.authorization_url,
                    token_url: f.token_url,
                    refresh_url: string(f.refresh_url),
                    scopes: scopes_to(f.scopes),
                    pkce_required: f.pkce_required,
                })
            }
            v1::OAuthFlows::ClientCredentials(f) => {
                Flow::ClientCredentials(proto::ClientCredentialsOAuthFlow {
                    token_url: f.token_url,
                    refresh_url: string(f.refresh_url),
                    scopes: scopes_to(f.scopes),
                })
            }
            v1::OAuthFlows::Implicit(f) => Flow::Implicit(proto::ImplicitOAuthFlow {
                authorization_url: string(f.authorization_url),
                refresh_url: string(f.refresh_url),
                scopes: scopes_to(f.scopes),
            }),
            v1::OAuthFlows::Password(f) => Flow::Password(proto::PasswordOAuthFlow {
                token_url: string(f.token_url),
                refresh_url: string(f.refresh_url),
                scopes: scopes_to(f.scopes),
            }),
            v1::OAuthFlows::DeviceCode(f) => Flow::DeviceCode(proto::DeviceCodeOAuthFlow {
                device_authorization_url: f.device_authorization_url,
                token_url: f.token_url,
                refresh_url: string(f.refresh_url),
                scopes: scopes_to(f.scopes),
            }),
            _ => return Self { flow: None },
        };
        Self { flow: Some(flow) }
    }
}

#[allow(deprecated)]
impl TryFrom<proto::OAuthFlows> for v1::OAuthFlows {
    type Error = InvalidMessage;

    fn try_from(f: proto::OAuthFlows) -> Result<Self> {
        use proto::o_auth_flows::Flow;
        Ok(match f.flow {
            Some(Flow::AuthorizationCode(f)) => {
                let mut flow = v1::AuthorizationCodeOAuthFlow::new(
                    f.authorization_url,
                    f.token_url,
                    scopes_from(f.scopes),
                )
                .with_pkce_required(f.pkce_required);
                flow.refresh_url = opt(f.refresh_url);
                flow.into()
            }
            Some(Flow::ClientCredentials(f)) => {
                let mut flow =
                    v1::ClientCredentialsOAuthFlow::new(f.token_url, scopes_from(f.scopes));
                flow.refresh_url = opt(f.refresh_url);
                flow.into()
            }
            Some(Flow::Implicit(f)) => {
                let mut flow = v1::ImplicitOAuthFlow::new().with_scopes(scopes_from(f.scopes));
                flow.authorization_url = opt(f.authorization_url);
                flow.refresh_url = opt(f.refresh_url);
                flow.into()
            }
            Some(Flow::Password(f)) => {
                let mut flow = v1::PasswordOAuthFlow::new().with_scopes(scopes_from(f.scopes));
                flow.token_url = opt(f.token_url);
                flow.refresh_url = opt(f.refresh_url);
                flow.into()
            }
            Some(Flow::DeviceCode(f)) => {
                let mut flow = v1::DeviceCodeOAuthFlow::new(
                    f.device_authorization_url,
                    f.token_url,
                    scopes_from(f.scopes),
                );
                flow.refresh_url = opt(f.refresh_url);
                flow.into()
            }
            None => {
                return Err(InvalidMessage::new(
                    "OAuthFlows.flow",
                    "has none of authorizationCode, clientCredentials, implicit, password, deviceCode",
                ));
            }
        })
    }
}

impl From<v1::SecurityScheme> for proto::SecurityScheme {
    fn from(s: v1::SecurityScheme) -> Self {
        use proto::security_scheme::Scheme;
        let scheme = match s {
            v1::SecurityScheme::ApiKey(s) => {
                Scheme::ApiKeySecurityScheme(proto::ApiKeySecurityScheme {
                    description: string(s.description),
                    location: s.location,
                    name: s.name,
                })
            }
            v1::SecurityScheme::HttpAuth(s) => {
                Scheme::HttpAuthSecurityScheme(proto::HttpAuthSecurityScheme {
                    description: string(s.description),
                    scheme: s.scheme,
                    bearer_format: string(s.bearer_format),
                })
            }
            v1::SecurityScheme::OAuth2(s) => {
                Scheme::Oauth2SecurityScheme(proto::OAuth2SecurityScheme {
                    description: string(s.description),
                    flows: Some(s.flows.into()),
                    oauth2_metadata_url: string(s.oauth2_metadata_url),
                })
            }
            v1::SecurityScheme::OpenIdConnect(s) => {
                Scheme::OpenIdConnectSecurityScheme(proto::OpenIdConnectSecurityScheme {
                    description: string(s.description),
                    open_id_connect_url: s.open_id_connect_url,
                })
            }
            v1::SecurityScheme::Mtls(s) => {
                Scheme::MtlsSecurityScheme(proto::MutualTlsSecurityScheme {
                    description: string(s.description),
                })
            }
            _ => return Self { scheme: None },
        };
        Self {
            scheme: Some(scheme),
        }
    }
}

impl TryFrom<proto::SecurityScheme> for v1::SecurityScheme {
    type Error = InvalidMessage;

    fn try_from(s: proto::SecurityScheme) -> Result<Self> {
        use proto::security_scheme::Scheme;
        Ok(match s.scheme {
            Some(Scheme::ApiKeySecurityScheme(s)) => {
                let mut scheme = v1::ApiKeySecurityScheme::new(s.location, s.name);
                scheme.description = opt(s.description);
                scheme.into()
            }
            Some(Scheme::HttpAuthSecurityScheme(s)) => {
                let mut scheme = v1::HttpAuthSecurityScheme::new(s.scheme);
                scheme.description = opt(s.description);
                scheme.bearer_format = opt(s.bearer_format);
                scheme.into()
            }
            Some(Scheme::Oauth2SecurityScheme(s)) => {
                let flows = required(s.flows, "OAuth2SecurityScheme.flows")?;
                let mut scheme = v1::OAuth2SecurityScheme::new(v1::OAuthFlows::try_from(flows)?);
                scheme.description = opt(s.description);
                scheme.oauth2_metadata_url = opt(s.oauth2_metadata_url);
                scheme.into()
            }
            Some(Scheme::OpenIdConnectSecurityScheme(s)) => {
                let mut scheme = v1::OpenIdConnectSecurityScheme::new(s.open_id_connect_url);
                scheme.description = opt(s.description);
                scheme.into()
            }
            Some(Scheme::MtlsSecurityScheme(s)) => {
                let mut scheme = v1::MutualTlsSecurityScheme::new();
                scheme.description = opt(s.description);
                scheme.into()
            }
            None => {
                return Err(InvalidMessage::new(
                    "SecurityScheme.scheme",
                    "has no member (apiKeySecurityScheme, httpAuthSecurityScheme, \
                     oauth2SecurityScheme, openIdConnectSecurityScheme, mtlsSecurityScheme)",
                ));
            }
        })
    }
}

impl From<v1::AgentCard> for proto::AgentCard {
    fn from(c: v1::AgentCard) -> Self {
        Self {
            name: c.name,
            description: c.description,
            supported_interfaces: into_list(c.supported_interfaces),
            provider: c.provider.map(Into::into),
            version: c.version,
            documentation_url: c.documentation_url,
            capabilities: Some(c.capabilities.into()),
            security_schemes: c
                .security_schemes
                .into_iter()
                .map(|(k, v)| (k, v.into()))
                .collect(),
            security_requirements: into_list(c.security_requirements),
            default_input_modes: c.default_input_modes,
            default_output_modes: c.default_output_modes,
            skills: into_list(c.skills),
            signatures: into_list(c.signatures),
            icon_url: c.icon_url,
        }
    }
}

impl TryFrom<proto::AgentCard> for v1::AgentCard {
    type Error = InvalidMessage;

    fn try_from(c: proto::AgentCard) -> Result<Self> {
        let mut card = v1::AgentCard::new(c.name, c.description, c.version);
        card.supported_interfaces = into_list(c.supported_interfaces);
        card.provider = c.provider.map(Into::into);
        card.documentation_url = c.documentation_url;
        // An absent capabilities message declares nothing, as `{}` does.
        card.capabilities = c
            .capabilities
            .map(TryInto::try_into)
            .transpose()?
            .unwrap_or_default();
        card.security_schemes = c
            .security_schemes
            .into_iter()
            .map(|(k, v)| Ok((k, v.try_into()?)))
            .collect::<Result<_>>()?;
        card.security_requirements = into_list(c.security_requirements);
        card.default_input_modes = c.default_input_modes;
        card.default_output_modes = c.default_output_modes;
        card.skills = into_list(c.skills);
        card.signatures = list(c.signatures)?;
        card.icon_url = c.icon_url;
        Ok(card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[test]
    fn struct_numbers_are_doubles() {
        let value = json!({"i": 5, "n": -7, "f": 1.5, "big": 9_007_199_254_740_993_u64, "s": "x",
                           "l": [null, true], "o": {}});
        let back = value_from_proto(value_to_proto(value)).unwrap();
        // 2^53 + 1 is no double: it comes back as the nearest one, 2^53; 1e300 as a float.
        assert_eq!(
            back,
            json!({"i": 5, "n": -7, "f": 1.5, "big": 9_007_199_254_740_992_u64, "s": "x",
                   "l": [null, true], "o": {}})
        );
        let huge = value_from_proto(value_to_proto(json!(1e300))).unwrap();
        assert_eq!(huge, json!(1e300));
        assert!(huge.is_f64());
        let nan = prost_types::Value {
            kind: Some(Kind::NumberValue(f64::NAN)),
        };
        assert_eq!(
            value_from_proto(nan).unwrap_err().to_string(),
            "Value.number_value is NaN, which JSON cannot hold"
        );
        // An unset kind is null.
        assert_eq!(
            value_from_proto(prost_types::Value { kind: None }).unwrap(),
            Value::Null
        );
    }

    /// The 1.1 draft's fields on the wire: Task 7, TaskStatusUpdateEvent 5,
    /// TaskArtifactUpdateEvent 7, GetTaskRequest 4 and SendMessageConfiguration 5 (the two
    /// optional: 0 is written when set); none of them inside `generations::hidden`, which
    /// writes exactly what the 1.0 messages did; read back either way.
    #[test]
    fn generations_are_written_unless_hidden() {
        use prost::Message as _;
        let both = |encode: &dyn Fn() -> Vec<u8>| (encode(), generations::hidden(encode));

        let mut task = v1::Task::new("t", "c", v1::TaskStatus::new(v1::TaskState::Working));
        task.generation = 5;
        let (v1_1, v1_0) = both(&|| proto::Task::from(task.clone()).encode_to_vec());
        // id "t", contextId "c", status {state: WORKING (2)}, then generation (7) 5.
        let v1_0_bytes = [0x0a, 1, b't', 0x12, 1, b'c', 0x1a, 2, 0x08, 2];
        assert_eq!(v1_0, v1_0_bytes);
        assert_eq!(v1_1, [&v1_0_bytes[..], &[0x38, 5]].concat());
        let read = v1::Task::try_from(proto::Task::decode(&v1_1[..]).unwrap()).unwrap();
        assert_eq!(read, task);

        let status =
            v1::TaskStatusUpdateEvent::new("t", "c", v1::TaskStatus::new(v1::TaskState::Completed))
                .with_generation(300);
        let (v1_1, v1_0) =
            both(&|| proto::TaskStatusUpdateEvent::from(status.clone()).encode_to_vec());
        // taskId, contextId, status {state: COMPLETED (3)}, generation (5) 300 as a varint.
        let v1_0_bytes = [0x0a, 1, b't', 0x12, 1, b'c', 0x1a, 2, 0x08, 3];
        assert_eq!(v1_0, v1_0_bytes);
        assert_eq!(v1_1, [&v1_0_bytes[..], &[0x28, 0xac, 0x02]].concat());
        let read = proto::TaskStatusUpdateEvent::decode(&v1_1[..]).unwrap();
        assert_eq!(v1::TaskStatusUpdateEvent::try_from(read).unwrap(), status);

        let artifact = v1::TaskArtifactUpdateEvent::new("t", "c", v1::Artifact::new("a", vec![]))
            .with_generation(2);
        let (v1_1, v1_0) =
            both(&|| proto::TaskArtifactUpdateEvent::from(artifact.clone()).encode_to_vec());
        assert_eq!(&v1_1[..v1_0.len()], &v1_0[..]);
        assert_eq!(&v1_1[v1_0.len()..], [0x38, 2]);
        let read = proto::TaskArtifactUpdateEvent::decode(&v1_1[..]).unwrap();
        assert_eq!(
            v1::TaskArtifactUpdateEvent::try_from(read).unwrap(),
            artifact
        );

        // Optional: a generation of 0 is written when set.
        let get = v1::GetTaskRequest::new("t").with_current_generation(0);
        let (v1_1, v1_0) = both(&|| proto::GetTaskRequest::from(get.clone()).encode_to_vec());
        assert_eq!(v1_0, [0x12, 1, b't']);
        assert_eq!(v1_1, [0x12, 1, b't', 0x20, 0]);
        let read = proto::GetTaskRequest::decode(&v1_1[..]).unwrap();
        assert_eq!(v1::GetTaskRequest::from(read), get);

        let config = v1::SendMessageConfiguration::default().with_if_generation_match(2);
        let (v1_1, v1_0) =
            both(&|| proto::SendMessageConfiguration::from(config.clone()).encode_to_vec());
        assert_eq!(v1_0, [] as [u8; 0]);
        assert_eq!(v1_1, [0x28, 2]);
        let read = proto::SendMessageConfiguration::decode(&v1_1[..]).unwrap();
        assert_eq!(v1::SendMessageConfiguration::from(read), config);
    }

    #[test]
    fn invalid_messages_name_the_field() {
        let no_status = proto::Task {
            id: "t".into(),
            ..Default::default()
        };
        assert_eq!(
            v1::Task::try_from(no_status).unwrap_err().to_string(),
            "Task.status is required but absent"
        );
        let bad_state = proto::TaskStatus {
            state: 42,
            ..Default::default()
        };
        assert_eq!(
            v1::TaskStatus::try_from(bad_state).unwrap_err().to_string(),
            "TaskStatus.state is 42, not a TaskState"
        );
        assert_eq!(
            v1::Part::try_from(proto::Part::default())
                .unwrap_err()
                .to_string(),
            "Part.content has none of text, raw, url, data"
        );
        assert_eq!(
            v1::StreamResponse::try_from(proto::StreamResponse::default())
                .unwrap_err()
                .to_string(),
            "StreamResponse.payload has none of task, message, statusUpdate, artifactUpdate"
        );
        let far = proto::TaskStatus {
            state: 1,
            timestamp: Some(prost_types::Timestamp {
                seconds: 300_000_000_000,
                nanos: 0,
            }),
            ..Default::default()
        };
        assert_eq!(
            v1::TaskStatus::try_from(far).unwrap_err().to_string(),
            "TaskStatus.timestamp is 300000000000s 0ns after 1970, outside 0001-01-01..9999-12-31"
        );
        assert_eq!(
            v1::SendMessageRequest::try_from(proto::SendMessageRequest::default())
                .unwrap_err()
                .to_string(),
            "SendMessageRequest.message is required but absent"
        );
    }

    #[test]
    fn empty_strings_are_absent() {
        let wire = proto::Message {
            message_id: "m".into(),
            role: 1,
            context_id: String::new(),
            task_id: "t".into(),
            ..Default::default()
        };
        let message = v1::Message::try_from(wire).unwrap();
        assert_eq!(message.context_id, None);
        assert_eq!(message.task_id.unwrap(), "t");
        // An absent capabilities message is an empty one.
        let card = v1::AgentCard::try_from(proto::AgentCard::default()).unwrap();
        assert_eq!(card.capabilities, v1::AgentCapabilities::default());
    }
}
