//! The `params` of the JSON-RPC methods.

use serde::{Deserialize, Serialize};

use super::util::Object;
use super::{Message, PushNotificationConfig};
use crate::serde_util as su;

/// Options of a `message/send` or `message/stream` request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MessageSendConfiguration {
    /// The media types the client accepts in response parts (not written when empty).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub accepted_output_modes: Vec<String>,
    /// Wait for a terminal or interrupted state before answering. Absent means `true`, as
    /// the reference SDKs read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking: Option<bool>,
    /// At most this many recent messages of history in the returned task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<i32>,
    /// A webhook for the task's updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notification_config: Option<PushNotificationConfig>,
}

impl MessageSendConfiguration {
    /// Whether the request blocks: `blocking`, or `true` when absent.
    pub fn is_blocking(&self) -> bool {
        self.blocking.unwrap_or(true)
    }

    crate::v1::setters! {
        /// Sets the accepted output media types.
        with_accepted_output_modes(accepted_output_modes): list String;
        /// Sets `blocking`.
        with_blocking(blocking): opt bool;
        /// Sets the history length.
        with_history_length(history_length): opt i32;
        /// Sets the push notification configuration.
        with_push_notification_config(push_notification_config): opt PushNotificationConfig;
    }
}

/// The params of `message/send` and `message/stream`.
///
/// ```
/// use a2a_types::v0_3::MessageSendParams;
///
/// let params: MessageSendParams = serde_json::from_str(
///     r#"{"message":{"kind":"message","messageId":"m-1","role":"user",
///         "parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":false}}"#,
/// ).unwrap();
/// assert_eq!(params.message.text(), "hi");
/// assert!(!params.configuration.unwrap().is_blocking());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MessageSendParams {
    /// The message. Required.
    pub message: Message,
    /// Request options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<MessageSendConfiguration>,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl MessageSendParams {
    /// Params that send this message with default options.
    pub fn new(message: Message) -> Self {
        Self {
            message,
            configuration: None,
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the configuration.
        with_configuration(configuration): opt MessageSendConfiguration;
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

/// The params of `tasks/get`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskQueryParams {
    /// The task. Required.
    pub id: String,
    /// At most this many recent messages of history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_length: Option<i32>,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl TaskQueryParams {
    /// Params for this task.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the history length.
        with_history_length(history_length): opt i32;
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

/// The params of `tasks/cancel` and `tasks/resubscribe` (and of the `TaskIdParams` form of
/// `tasks/pushNotificationConfig/get`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaskIdParams {
    /// The task. Required.
    pub id: String,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl TaskIdParams {
    /// Params for this task.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

/// The params of `tasks/pushNotificationConfig/get`. Also reads the `TaskIdParams` form
/// (no `pushNotificationConfigId`), which `a2a.json` allows for that method.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetTaskPushNotificationConfigParams {
    /// The task. Required.
    pub id: String,
    /// The configuration; absent means the task's default (single) configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_notification_config_id: Option<String>,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl GetTaskPushNotificationConfigParams {
    /// Params for the default configuration of this task.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the configuration id.
        with_push_notification_config_id(push_notification_config_id): opt String;
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

impl From<TaskIdParams> for GetTaskPushNotificationConfigParams {
    fn from(params: TaskIdParams) -> Self {
        Self {
            id: params.id,
            push_notification_config_id: None,
            metadata: params.metadata,
        }
    }
}

/// The params of `tasks/pushNotificationConfig/list`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListTaskPushNotificationConfigParams {
    /// The task. Required.
    pub id: String,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl ListTaskPushNotificationConfigParams {
    /// Params for this task.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}

/// The params of `tasks/pushNotificationConfig/delete`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DeleteTaskPushNotificationConfigParams {
    /// The task. Required.
    pub id: String,
    /// The configuration. Required.
    pub push_notification_config_id: String,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Object>,
}

impl DeleteTaskPushNotificationConfigParams {
    /// Params for this configuration of this task.
    pub fn new(id: impl Into<String>, push_notification_config_id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            push_notification_config_id: push_notification_config_id.into(),
            metadata: None,
        }
    }

    crate::v1::setters! {
        /// Sets the metadata.
        with_metadata(metadata): opt Object;
    }
}
