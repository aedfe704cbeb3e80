//! The request and response messages of the eleven operations.

use serde::{Deserialize, Serialize};

use super::{Message, Struct, Task, TaskId, TaskPushNotificationConfig, TaskState, Timestamp};
use crate::serde_util as su;

/// Options of a `SendMessage` or `SendStreamingMessage` request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SendMessageConfiguration {
    /// The media types the client accepts in response parts.
    #[serde(
        alias = "accepted_output_modes",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub accepted_output_modes: Vec<String>,
    /// A webhook for the task's updates.
    #[serde(
        alias = "task_push_notification_config",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub task_push_notification_config: Option<TaskPushNotificationConfig>,
    /// At most this many recent messages of history in the returned task (`0`: none).
    #[serde(
        alias = "history_length",
        default,
        deserialize_with = "su::opt_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Return as soon as the task exists instead of waiting for a terminal or interrupted state.
    #[serde(
        alias = "return_immediately",
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "su::is_false"
    )]
    pub return_immediately: bool,
    /// A2A 1.1 (draft): refuse the message with `TaskGenerationMismatchError` unless the task
    /// it continues is at this generation when the message is processed (ignored for a new
    /// task). ProtoJSON `int64`.
    #[serde(
        alias = "if_generation_match",
        default,
        with = "su::opt_int64",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "schemars", schemars(schema_with = "crate::schema::int64"))]
    pub if_generation_match: Option<i64>,
}

impl SendMessageConfiguration {
    super::setters! {
        /// Sets the accepted output media types.
        with_accepted_output_modes(accepted_output_modes): list String;
        /// Sets the push notification configuration.
        with_task_push_notification_config(task_push_notification_config): opt TaskPushNotificationConfig;
        /// Sets the history length.
        with_history_length(history_length): opt i32;
        /// Sets `returnImmediately`.
        with_return_immediately(return_immediately): val bool;
        /// Sets the generation the task must be at (A2A 1.1).
        with_if_generation_match(if_generation_match): opt i64;
    }
}

/// The request of `SendMessage` and `SendStreamingMessage`.
///
/// ```
/// use a2a_types::v1::{Message, MessageId, Part, Role, SendMessageRequest};
///
/// let req: SendMessageRequest = serde_json::from_str(
///     r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]},
///         "configuration":{"returnImmediately":true}}"#,
/// ).unwrap();
/// assert_eq!(req.message.text(), "hi");
/// assert!(req.configuration.unwrap().return_immediately);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SendMessageRequest {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// The message. Required.
    pub message: Message,
    /// Request options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub configuration: Option<SendMessageConfiguration>,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl SendMessageRequest {
    /// A request that sends this message with default options.
    pub fn new(message: Message) -> Self {
        Self {
            tenant: None,
            message,
            configuration: None,
            metadata: None,
        }
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
        /// Sets the configuration.
        with_configuration(configuration): opt SendMessageConfiguration;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The request of `GetTask`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetTaskRequest {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// The task. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub id: TaskId,
    /// At most this many recent messages of history (`0`: none; absent: the server's default).
    #[serde(
        alias = "history_length",
        default,
        deserialize_with = "su::opt_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// A2A 1.1 (draft): hold the call until the task's generation is past this one (a
    /// long poll); the server may answer earlier, on its timeout. ProtoJSON `int64`.
    #[serde(
        alias = "current_generation",
        default,
        with = "su::opt_int64",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "schemars", schemars(schema_with = "crate::schema::int64"))]
    pub current_generation: Option<i64>,
}

impl GetTaskRequest {
    /// A request for this task.
    pub fn new(id: impl Into<TaskId>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
        /// Sets the history length.
        with_history_length(history_length): opt i32;
        /// Sets the generation to wait past (A2A 1.1).
        with_current_generation(current_generation): opt i64;
    }
}

/// The request of `ListTasks`: filters and paging.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListTasksRequest {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// Only tasks of this context.
    #[serde(
        alias = "context_id",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub context_id: Option<super::ContextId>,
    /// Only tasks in this state (`TASK_STATE_UNSPECIFIED`: any).
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "TaskState::is_unspecified"
    )]
    pub status: TaskState,
    /// At most this many tasks (1 to 100; the server's default is 50).
    #[serde(
        alias = "page_size",
        default,
        deserialize_with = "su::opt_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub page_size: Option<i32>,
    /// The `nextPageToken` of the previous page.
    #[serde(
        alias = "page_token",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub page_token: Option<String>,
    /// At most this many recent messages of history per task.
    #[serde(
        alias = "history_length",
        default,
        deserialize_with = "su::opt_int32",
        skip_serializing_if = "Option::is_none"
    )]
    pub history_length: Option<i32>,
    /// Only tasks whose status timestamp is at or after this instant.
    #[serde(
        alias = "status_timestamp_after",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub status_timestamp_after: Option<Timestamp>,
    /// Include the artifacts of each task (default: false, and the key is then absent).
    #[serde(
        alias = "include_artifacts",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub include_artifacts: Option<bool>,
}

impl ListTasksRequest {
    /// A request with no filters.
    pub fn new() -> Self {
        Self::default()
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
        /// Sets the context filter.
        with_context_id(context_id): opt super::ContextId;
        /// Sets the state filter.
        with_status(status): val TaskState;
        /// Sets the page size.
        with_page_size(page_size): opt i32;
        /// Sets the page token.
        with_page_token(page_token): opt String;
        /// Sets the history length.
        with_history_length(history_length): opt i32;
        /// Sets the status timestamp filter.
        with_status_timestamp_after(status_timestamp_after): opt Timestamp;
        /// Sets `includeArtifacts`.
        with_include_artifacts(include_artifacts): opt bool;
    }
}

/// The result of `ListTasks`. All four fields are always written.
///
/// ```
/// use a2a_types::v1::ListTasksResponse;
///
/// let empty = ListTasksResponse::new(vec![], "", 50, 0);
/// assert_eq!(
///     serde_json::to_string(&empty).unwrap(),
///     r#"{"tasks":[],"nextPageToken":"","pageSize":50,"totalSize":0}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListTasksResponse {
    /// The tasks of this page. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub tasks: Vec<Task>,
    /// The token of the next page; `""` on the last page. Required.
    #[serde(alias = "next_page_token", default, deserialize_with = "su::nullable")]
    pub next_page_token: String,
    /// The page size used. Required.
    #[serde(alias = "page_size", default, deserialize_with = "su::int32")]
    pub page_size: i32,
    /// The number of matching tasks across all pages. Required.
    #[serde(alias = "total_size", default, deserialize_with = "su::int32")]
    pub total_size: i32,
}

impl ListTasksResponse {
    /// A page of tasks.
    pub fn new(
        tasks: Vec<Task>,
        next_page_token: impl Into<String>,
        page_size: i32,
        total_size: i32,
    ) -> Self {
        Self {
            tasks,
            next_page_token: next_page_token.into(),
            page_size,
            total_size,
        }
    }
}

/// The request of `CancelTask`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CancelTaskRequest {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// The task. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub id: TaskId,
    /// Metadata for the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
}

impl CancelTaskRequest {
    /// A request to cancel this task.
    pub fn new(id: impl Into<TaskId>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
        /// Sets the metadata.
        with_metadata(metadata): opt Struct;
    }
}

/// The request of `SubscribeToTask`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscribeToTaskRequest {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// The task. Required.
    #[serde(default, deserialize_with = "su::nullable")]
    pub id: TaskId,
}

impl SubscribeToTaskRequest {
    /// A request to follow this task.
    pub fn new(id: impl Into<TaskId>) -> Self {
        Self {
            tenant: None,
            id: id.into(),
        }
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
    }
}

macro_rules! push_config_ref_request {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
        #[serde(rename_all = "camelCase")]
        #[non_exhaustive]
        pub struct $name {
            /// The tenant, copied from the chosen interface.
            #[serde(default, deserialize_with = "su::opt_string", skip_serializing_if = "su::none_or_empty")]
            pub tenant: Option<String>,
            /// The task. Required.
            #[serde(alias = "task_id", default, deserialize_with = "su::nullable")]
            pub task_id: TaskId,
            /// The configuration. Required.
            #[serde(default, deserialize_with = "su::nullable")]
            pub id: String,
        }

        impl $name {
            /// A request for this configuration of this task.
            pub fn new(task_id: impl Into<TaskId>, id: impl Into<String>) -> Self {
                Self {
                    tenant: None,
                    task_id: task_id.into(),
                    id: id.into(),
                }
            }

            super::setters! {
                /// Sets the tenant.
                with_tenant(tenant): opt String;
            }
        }
    };
}

push_config_ref_request!(
    /// The request of `GetTaskPushNotificationConfig`.
    GetTaskPushNotificationConfigRequest
);
push_config_ref_request!(
    /// The request of `DeleteTaskPushNotificationConfig`.
    DeleteTaskPushNotificationConfigRequest
);

/// The request of `ListTaskPushNotificationConfigs`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListTaskPushNotificationConfigsRequest {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
    /// The task. Required.
    #[serde(alias = "task_id", default, deserialize_with = "su::nullable")]
    pub task_id: TaskId,
    /// At most this many configurations (`0`: the server's default).
    #[serde(
        alias = "page_size",
        default,
        deserialize_with = "su::int32",
        skip_serializing_if = "su::is_zero"
    )]
    pub page_size: i32,
    /// The `nextPageToken` of the previous page.
    #[serde(
        alias = "page_token",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub page_token: Option<String>,
}

impl ListTaskPushNotificationConfigsRequest {
    /// A request for the configurations of this task.
    pub fn new(task_id: impl Into<TaskId>) -> Self {
        Self {
            task_id: task_id.into(),
            ..Self::default()
        }
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
        /// Sets the page size.
        with_page_size(page_size): val i32;
        /// Sets the page token.
        with_page_token(page_token): opt String;
    }
}

/// The result of `ListTaskPushNotificationConfigs`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ListTaskPushNotificationConfigsResponse {
    /// The configurations of this page.
    #[serde(
        default,
        deserialize_with = "su::nullable",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub configs: Vec<TaskPushNotificationConfig>,
    /// The token of the next page; absent on the last page.
    #[serde(
        alias = "next_page_token",
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub next_page_token: Option<String>,
}

impl ListTaskPushNotificationConfigsResponse {
    /// A page of configurations.
    pub fn new(configs: Vec<TaskPushNotificationConfig>, next_page_token: Option<String>) -> Self {
        Self {
            configs,
            next_page_token,
        }
    }
}

/// The request of `GetExtendedAgentCard`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GetExtendedAgentCardRequest {
    /// The tenant, copied from the chosen interface.
    #[serde(
        default,
        deserialize_with = "su::opt_string",
        skip_serializing_if = "su::none_or_empty"
    )]
    pub tenant: Option<String>,
}

impl GetExtendedAgentCardRequest {
    /// A request without tenant.
    pub fn new() -> Self {
        Self::default()
    }

    super::setters! {
        /// Sets the tenant.
        with_tenant(tenant): opt String;
    }
}
