//! The `params` of the 0.1 methods: [`TaskSendParams`], [`TaskQueryParams`] and [`TaskIdParams`].

use serde::{Deserialize, Serialize};

use super::{Message, PushNotificationConfig};
use crate::serde_util as su;
use crate::v1::{ContextId, Struct, TaskId};

/// The params of `tasks/send` and `tasks/sendSubscribe`: a message for a task whose id the
/// client chooses. When no task has that id, the server creates one under it.
///
/// ```
/// use a2a_types::v0_1::{Message, TaskSendParams};
///
/// let params = TaskSendParams::new("task-1", Message::user_text("hi")).with_session_id("s-1");
/// assert_eq!(
///     serde_json::to_string(&params).unwrap(),
///     r#"{"id":"task-1","sessionId":"s-1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskSendParams {
    /// The task to send the message to (created under this id when new). Required.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub id: TaskId,
    /// The session to group the task in (1.0's `contextId`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schemars", schemars(with = "Option<String>"))]
    pub session_id: Option<ContextId>,
    /// The message. Required.
    pub message: Message,
    /// A webhook for the task's updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notification: Option<PushNotificationConfig>,
    /// At most this many recent messages in the returned task's `history`.
    #[serde(
        default,
        deserialize_with = "su::opt_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Metadata for this request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl TaskSendParams {
    /// Params that send this message to this task.
    pub fn new(id: impl Into<TaskId>, message: Message) -> Self {
        Self {
            id: id.into(),
            session_id: None,
            message,
            push_notification: None,
            history_length: None,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the session id.
        with_session_id(session_id): opt ContextId;
        /// Sets the push notification configuration.
        with_push_notification(push_notification): opt PushNotificationConfig;
        /// Sets the history length.
        with_history_length(history_length): opt i32;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The params of `tasks/get` and `tasks/resubscribe`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskQueryParams {
    /// The task. Required.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub id: TaskId,
    /// At most this many recent messages in the task's `history`.
    #[serde(
        default,
        deserialize_with = "su::opt_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Metadata for this request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl TaskQueryParams {
    /// Params that name this task.
    pub fn new(id: impl Into<TaskId>) -> Self {
        Self {
            id: id.into(),
            history_length: None,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the history length.
        with_history_length(history_length): opt i32;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The params of `tasks/cancel` and `tasks/pushNotification/get`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskIdParams {
    /// The task. Required.
    #[cfg_attr(feature = "schemars", schemars(with = "String"))]
    pub id: TaskId,
    /// Metadata for this request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl TaskIdParams {
    /// Params that name this task.
    pub fn new(id: impl Into<TaskId>) -> Self {
        Self {
            id: id.into(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}
