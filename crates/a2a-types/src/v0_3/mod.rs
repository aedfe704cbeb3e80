//! A2A 0.3 (and 0.2.x) as the JSON-RPC wire carries it, and its conversions to and from the
//! 1.0 core model [`crate::v1`].
//!
//! Every definition of the 0.3 `a2a.json` has a type here, named like the definition (the
//! JSON Schema of the `schemars` feature carries the exact definition name where the Rust name
//! differs, such as `APIKeySecurityScheme` for [`ApiKeySecurityScheme`]). The wire is the
//! handwritten JSON of 0.2/0.3, not ProtoJSON:
//!
//! * objects carry a `kind` discriminator (`task`, `message`, `status-update`,
//!   `artifact-update`, `text`, `file`, `data`) and security schemes a `type`, as unit fields
//!   that write their constant ([`TaskKind`] and friends); a missing `kind` is read from the
//!   object's shape, as the reference SDKs do, but a wrong one is an error;
//! * enums are lowercase kebab-case (`input-required`, `user`);
//! * file parts are `{"kind": "file", "file": {"bytes"|"uri", "mimeType", "name"}}`, data parts
//!   wrap their object (`{"kind": "data", "data": {...}}`);
//! * `message/send` answers a bare [`Task`] or [`Message`] ([`SendMessageResult`]), streams
//!   carry [`SendStreamingMessageResult`], and status updates carry `final`;
//! * `blocking` (absent means `true`) instead of 1.0's `returnImmediately`, push configs nest
//!   a [`PushNotificationConfig`] with `authentication.schemes[]`;
//! * fields `a2a.json` requires are required on input, with two exceptions that keep older
//!   peers readable: `kind`/`type` (see above) and `AgentCard.protocolVersion` (absent before
//!   0.2.5, read as `"0.3.0"`); unknown fields are ignored;
//! * optional arrays, and the booleans 1.0 has without presence (`append`, `lastChunk`,
//!   `AgentExtension.required`), are not written when empty or `false`.
//!
//! # Conversions
//!
//! `From` goes both ways between each 0.3 type and its 1.0 counterpart, for everything that
//! crosses the wire: params and requests, results, events, agent cards, push configurations
//! ([`convert`] lists them). Every conversion is infallible; what a direction cannot carry is
//! listed in the crate's `docs/versions.md` (the 0.3 → 1.0 → 0.3 round trip is the identity
//! for all else). JSON-RPC envelopes stay 0.3 (the method decides the version); convert their
//! `params` and `result`.
//!
//! ```
//! use a2a_types::{v0_3, v1};
//!
//! // A 0.3 message, as a 0.3 client sends it in `message/send`.
//! let old: v0_3::Message = serde_json::from_str(r#"{
//!     "kind": "message", "messageId": "m-1", "role": "user", "contextId": "c-1",
//!     "parts": [
//!         {"kind": "text", "text": "What is in this picture?"},
//!         {"kind": "file", "file": {"bytes": "iVBORw==", "mimeType": "image/png", "name": "a.png"}},
//!         {"kind": "data", "data": {"detail": "high"}}
//!     ]
//! }"#).unwrap();
//!
//! let new = v1::Message::from(old.clone());
//! assert_eq!(new.role, v1::Role::User);
//! assert_eq!(
//!     serde_json::to_value(&new).unwrap(),
//!     serde_json::json!({
//!         "messageId": "m-1", "contextId": "c-1", "role": "ROLE_USER",
//!         "parts": [
//!             {"text": "What is in this picture?"},
//!             {"raw": "iVBORw==", "filename": "a.png", "mediaType": "image/png"},
//!             {"data": {"detail": "high"}}
//!         ]
//!     })
//! );
//!
//! // And back, for a 0.3 peer.
//! assert_eq!(v0_3::Message::from(new), old);
//! ```
//!
//! # 0.2.x
//!
//! The same types read 0.2.x documents (0.2.0 to 0.2.6): 0.3 only added fields and
//! definitions (`signatures`, `AgentSkill.security`, `oauth2MetadataUrl`, mutual TLS,
//! `agent/getAuthenticatedExtendedCard` and its error -32007), and 0.2.0 to 0.2.4 cards lack
//! `protocolVersion` (read as `"0.3.0"`), `preferredTransport` (`JSONRPC`) and
//! `additionalInterfaces`.

mod card;
mod card_convert;
pub mod consts;
pub mod convert;
mod enums;
mod jsonrpc;
mod message;
mod params;
mod part;
mod push;
mod security;
mod task;
mod util;

pub use card::{
    AgentCapabilities, AgentCard, AgentCardSignature, AgentExtension, AgentInterface,
    AgentProvider, AgentSkill, SecurityRequirement,
};
pub use consts::{
    ApiKeyType, ArtifactUpdateKind, DataKind, ErrorCodeConst, FileKind, HttpType, JsonRpcVersion,
    MessageKind, MutualTlsType, OAuth2Type, OpenIdConnectType, StatusUpdateKind, TaskKind,
    TextKind,
};
pub use enums::{ApiKeyLocation, Role, TaskState, TransportProtocol};
pub use jsonrpc::{
    A2AError, A2ARequest, AuthenticatedExtendedCardNotConfiguredError,
    ContentTypeNotSupportedError, InternalError, InvalidAgentResponseError, InvalidParamsError,
    InvalidRequestError, JsonParseError, JsonRpcError, JsonRpcErrorResponse, JsonRpcId,
    JsonRpcRequest, JsonRpcResponse, JsonRpcSuccessResponse, Method, MethodNotFoundError, NoParams,
    PushNotificationNotSupportedError, TaskNotCancelableError, TaskNotFoundError,
    UnsupportedOperationError, error_code, methods,
};
pub use message::{Artifact, Message};
pub use params::{
    DeleteTaskPushNotificationConfigParams, GetTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams, MessageSendConfiguration, MessageSendParams,
    TaskIdParams, TaskQueryParams,
};
pub use part::{DataPart, FileContent, FilePart, FileWithBytes, FileWithUri, Part, TextPart};
pub use push::{
    PushNotificationAuthenticationInfo, PushNotificationConfig, TaskPushNotificationConfig,
};
pub use security::{
    ApiKeySecurityScheme, AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow,
    HttpAuthSecurityScheme, ImplicitOAuthFlow, MutualTlsSecurityScheme, OAuth2SecurityScheme,
    OAuthFlows, OpenIdConnectSecurityScheme, PasswordOAuthFlow, Scopes, SecurityScheme,
};
pub use task::{
    SendMessageResult, SendStreamingMessageResult, Task, TaskArtifactUpdateEvent, TaskStatus,
    TaskStatusUpdateEvent,
};

/// The `protocolVersion` of a card that has none, and of [`AgentCard::new`].
pub const DEFAULT_PROTOCOL_VERSION: &str = "0.3.0";

/// `message/send` request (`SendMessageRequest`).
pub type SendMessageRequest = JsonRpcRequest<methods::SendMessage>;
/// `message/send` success (`SendMessageSuccessResponse`).
pub type SendMessageSuccessResponse = JsonRpcSuccessResponse<methods::SendMessage>;
/// `message/send` response (`SendMessageResponse`).
pub type SendMessageResponse = JsonRpcResponse<methods::SendMessage>;
/// `message/stream` request (`SendStreamingMessageRequest`).
pub type SendStreamingMessageRequest = JsonRpcRequest<methods::SendStreamingMessage>;
/// One event of a `message/stream` or `tasks/resubscribe` stream
/// (`SendStreamingMessageSuccessResponse`).
pub type SendStreamingMessageSuccessResponse =
    JsonRpcSuccessResponse<methods::SendStreamingMessage>;
/// `message/stream` response (`SendStreamingMessageResponse`).
pub type SendStreamingMessageResponse = JsonRpcResponse<methods::SendStreamingMessage>;
/// `tasks/get` request (`GetTaskRequest`).
pub type GetTaskRequest = JsonRpcRequest<methods::GetTask>;
/// `tasks/get` success (`GetTaskSuccessResponse`).
pub type GetTaskSuccessResponse = JsonRpcSuccessResponse<methods::GetTask>;
/// `tasks/get` response (`GetTaskResponse`).
pub type GetTaskResponse = JsonRpcResponse<methods::GetTask>;
/// `tasks/cancel` request (`CancelTaskRequest`).
pub type CancelTaskRequest = JsonRpcRequest<methods::CancelTask>;
/// `tasks/cancel` success (`CancelTaskSuccessResponse`).
pub type CancelTaskSuccessResponse = JsonRpcSuccessResponse<methods::CancelTask>;
/// `tasks/cancel` response (`CancelTaskResponse`).
pub type CancelTaskResponse = JsonRpcResponse<methods::CancelTask>;
/// `tasks/resubscribe` request (`TaskResubscriptionRequest`); its events are
/// [`SendStreamingMessageSuccessResponse`]s.
pub type TaskResubscriptionRequest = JsonRpcRequest<methods::TaskResubscription>;
/// `tasks/pushNotificationConfig/set` request (`SetTaskPushNotificationConfigRequest`).
pub type SetTaskPushNotificationConfigRequest =
    JsonRpcRequest<methods::SetTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/set` success (`SetTaskPushNotificationConfigSuccessResponse`).
pub type SetTaskPushNotificationConfigSuccessResponse =
    JsonRpcSuccessResponse<methods::SetTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/set` response (`SetTaskPushNotificationConfigResponse`).
pub type SetTaskPushNotificationConfigResponse =
    JsonRpcResponse<methods::SetTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/get` request (`GetTaskPushNotificationConfigRequest`).
pub type GetTaskPushNotificationConfigRequest =
    JsonRpcRequest<methods::GetTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/get` success (`GetTaskPushNotificationConfigSuccessResponse`).
pub type GetTaskPushNotificationConfigSuccessResponse =
    JsonRpcSuccessResponse<methods::GetTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/get` response (`GetTaskPushNotificationConfigResponse`).
pub type GetTaskPushNotificationConfigResponse =
    JsonRpcResponse<methods::GetTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/list` request (`ListTaskPushNotificationConfigRequest`).
pub type ListTaskPushNotificationConfigRequest =
    JsonRpcRequest<methods::ListTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/list` success (`ListTaskPushNotificationConfigSuccessResponse`).
pub type ListTaskPushNotificationConfigSuccessResponse =
    JsonRpcSuccessResponse<methods::ListTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/list` response (`ListTaskPushNotificationConfigResponse`).
pub type ListTaskPushNotificationConfigResponse =
    JsonRpcResponse<methods::ListTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/delete` request (`DeleteTaskPushNotificationConfigRequest`).
pub type DeleteTaskPushNotificationConfigRequest =
    JsonRpcRequest<methods::DeleteTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/delete` success
/// (`DeleteTaskPushNotificationConfigSuccessResponse`).
pub type DeleteTaskPushNotificationConfigSuccessResponse =
    JsonRpcSuccessResponse<methods::DeleteTaskPushNotificationConfig>;
/// `tasks/pushNotificationConfig/delete` response (`DeleteTaskPushNotificationConfigResponse`).
pub type DeleteTaskPushNotificationConfigResponse =
    JsonRpcResponse<methods::DeleteTaskPushNotificationConfig>;
/// `agent/getAuthenticatedExtendedCard` request (`GetAuthenticatedExtendedCardRequest`).
pub type GetAuthenticatedExtendedCardRequest =
    JsonRpcRequest<methods::GetAuthenticatedExtendedCard>;
/// `agent/getAuthenticatedExtendedCard` success
/// (`GetAuthenticatedExtendedCardSuccessResponse`).
pub type GetAuthenticatedExtendedCardSuccessResponse =
    JsonRpcSuccessResponse<methods::GetAuthenticatedExtendedCard>;
/// `agent/getAuthenticatedExtendedCard` response (`GetAuthenticatedExtendedCardResponse`).
pub type GetAuthenticatedExtendedCardResponse =
    JsonRpcResponse<methods::GetAuthenticatedExtendedCard>;
