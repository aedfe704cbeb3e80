//! A2A 1.0: every message, enum and oneof of package `lf.a2a.v1` (`a2a.proto`), as ProtoJSON.
//!
//! The JSON these types read and write follows spec 1.0 §5.5:
//!
//! * field names are lowerCamelCase; the proto's snake_case names are accepted on input;
//! * enums are written as their full names (`TASK_STATE_COMPLETED`); names and numbers are
//!   accepted on input, and an unknown name is an error (see [`crate::json`] for its path);
//! * fields without presence are omitted when they hold their default (`""`, `0`, `false`,
//!   `[]`, `*_UNSPECIFIED`) and read back as the default when absent or `null`; fields the proto
//!   marks `REQUIRED` are always written; fields declared `optional` keep their presence
//!   (`Option<T>`: `historyLength: 0` is written when set);
//! * oneofs are flat ([`Part`], [`SendMessageResponse`], [`StreamResponse`], [`SecurityScheme`],
//!   [`OAuthFlows`]): exactly one member key, none or two is an error;
//! * `bytes` are base64 (standard alphabet on output; URL-safe and unpadded accepted), a
//!   `Timestamp` is RFC 3339 UTC with `Z`, `Struct` and `Value` are plain JSON;
//! * unknown fields are ignored.
//!
//! Message-typed fields the proto marks `REQUIRED` (`Task.status`, `SendMessageRequest.message`,
//! the events' `status` and `artifact`, `OAuth2SecurityScheme.flows`) must be present on input;
//! a decode without them fails with `missing field`, which is the clearest answer to a peer.
//!
//! ```
//! use a2a_types::v1::{Part, StreamResponse, TaskState};
//!
//! let event: StreamResponse = serde_json::from_str(r#"{"statusUpdate":{
//!     "taskId":"t-1","contextId":"c-1",
//!     "status":{"state":"TASK_STATE_INPUT_REQUIRED","timestamp":"2025-10-28T10:30:00Z"}}}"#).unwrap();
//! let StreamResponse::StatusUpdate(update) = &event else { panic!("not a status update") };
//! assert_eq!(update.status.state, TaskState::InputRequired);
//! assert!(event.is_final());
//! assert_eq!(
//!     serde_json::to_string(&event).unwrap(),
//!     r#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_INPUT_REQUIRED","timestamp":"2025-10-28T10:30:00.000Z"}}}"#
//! );
//! ```

/// `with_*` setters for the optional fields of a wire struct.
macro_rules! setters {
    ($( $(#[$m:meta])* $fn:ident($field:ident): $kind:ident $t:ty; )*) => {
        $( $crate::v1::setters!(@one $(#[$m])* $fn $field $kind $t); )*
    };
    (@one $(#[$m:meta])* $fn:ident $field:ident opt $t:ty) => {
        $(#[$m])*
        #[must_use]
        pub fn $fn(mut self, value: impl Into<$t>) -> Self {
            self.$field = Some(value.into());
            self
        }
    };
    (@one $(#[$m:meta])* $fn:ident $field:ident val $t:ty) => {
        $(#[$m])*
        #[must_use]
        pub fn $fn(mut self, value: impl Into<$t>) -> Self {
            self.$field = value.into();
            self
        }
    };
    (@one $(#[$m:meta])* $fn:ident $field:ident list $t:ty) => {
        $(#[$m])*
        #[must_use]
        pub fn $fn<I>(mut self, values: I) -> Self
        where
            I: IntoIterator,
            I::Item: Into<$t>,
        {
            self.$field = values.into_iter().map(Into::into).collect();
            self
        }
    };
}
pub(crate) use setters;

#[macro_use]
mod enums;
mod card;
mod ids;
mod message;
pub(crate) mod oneof;
mod part;
mod push;
mod requests;
mod security;
mod task;
mod timestamp;

pub use card::{
    AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension, AgentInterface,
    AgentProvider, AgentSkill, binding,
};
pub use enums::{Role, TaskState, UnknownEnumValue};
pub use ids::{ArtifactId, ContextId, MessageId, TaskId};
pub use message::{Artifact, Message};
pub use part::{Part, PartContent};
pub use push::{AuthenticationInfo, TaskPushNotificationConfig};
pub use requests::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse,
    SendMessageConfiguration, SendMessageRequest, SubscribeToTaskRequest,
};
pub use security::{
    ApiKeySecurityScheme, AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow,
    DeviceCodeOAuthFlow, HttpAuthSecurityScheme, ImplicitOAuthFlow, MutualTlsSecurityScheme,
    OAuth2SecurityScheme, OAuthFlows, OpenIdConnectSecurityScheme, PasswordOAuthFlow, Scopes,
    SecurityRequirement, SecurityScheme, StringList,
};
pub use task::{
    SendMessageResponse, StreamResponse, Task, TaskArtifactUpdateEvent, TaskStatus,
    TaskStatusUpdateEvent,
};
pub use timestamp::{InvalidTimestamp, Timestamp};

/// `google.protobuf.Struct`: a JSON object.
pub type Struct = serde_json::Map<String, serde_json::Value>;
