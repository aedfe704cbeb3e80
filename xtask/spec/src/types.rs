//! The root types of each version: every type registered here (and everything it refers
//! to) lands in that version's definitions map.

use schemars::generate::SchemaGenerator;

macro_rules! register {
    ($generator:ident: $($ty:ty),+ $(,)?) => {
        $( let _ = $generator.subschema_for::<$ty>(); )+
    };
}

/// Every message, enum and oneof of `lf.a2a.v1`. Their schema names are the proto names.
pub(crate) fn v1(generator: &mut SchemaGenerator) {
    use a2a_types::v1::*;
    register!(generator:
        SendMessageConfiguration, Task, TaskState, TaskStatus, Part, Role, Message, Artifact,
        TaskStatusUpdateEvent, TaskArtifactUpdateEvent, AuthenticationInfo, AgentInterface,
        AgentCard, AgentProvider, AgentCapabilities, AgentExtension, AgentSkill,
        AgentCardSignature, TaskPushNotificationConfig, StringList, SecurityRequirement,
        SecurityScheme, ApiKeySecurityScheme, HttpAuthSecurityScheme, OAuth2SecurityScheme,
        OpenIdConnectSecurityScheme, MutualTlsSecurityScheme, OAuthFlows,
        AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow, ImplicitOAuthFlow,
        PasswordOAuthFlow, DeviceCodeOAuthFlow, SendMessageRequest, GetTaskRequest,
        ListTasksRequest, ListTasksResponse, CancelTaskRequest,
        GetTaskPushNotificationConfigRequest, DeleteTaskPushNotificationConfigRequest,
        SubscribeToTaskRequest, ListTaskPushNotificationConfigsRequest,
        GetExtendedAgentCardRequest, SendMessageResponse, StreamResponse,
        ListTaskPushNotificationConfigsResponse,
    );
}

/// The 0.3 (and 0.2.x) JSON-RPC model: every definition of `v0.3/a2a.json` that has a type.
/// Schema names are the `a2a.json` names (`ApiKeySecurityScheme` is `APIKeySecurityScheme`).
pub(crate) fn v0_3(generator: &mut SchemaGenerator) {
    use a2a_types::v0_3::*;
    register!(generator:
        A2AError, A2ARequest, AgentCard, AgentCapabilities, AgentCardSignature, AgentExtension,
        AgentInterface, AgentProvider, AgentSkill, ApiKeySecurityScheme, Artifact,
        AuthenticatedExtendedCardNotConfiguredError, AuthorizationCodeOAuthFlow,
        CancelTaskRequest, CancelTaskResponse, CancelTaskSuccessResponse,
        ClientCredentialsOAuthFlow, ContentTypeNotSupportedError, DataPart,
        DeleteTaskPushNotificationConfigParams, DeleteTaskPushNotificationConfigRequest,
        DeleteTaskPushNotificationConfigResponse, DeleteTaskPushNotificationConfigSuccessResponse,
        FilePart, FileWithBytes, FileWithUri, GetAuthenticatedExtendedCardRequest,
        GetAuthenticatedExtendedCardResponse, GetAuthenticatedExtendedCardSuccessResponse,
        GetTaskPushNotificationConfigParams, GetTaskPushNotificationConfigRequest,
        GetTaskPushNotificationConfigResponse, GetTaskPushNotificationConfigSuccessResponse,
        GetTaskRequest, GetTaskResponse, GetTaskSuccessResponse, HttpAuthSecurityScheme,
        ImplicitOAuthFlow, InternalError, InvalidAgentResponseError, InvalidParamsError,
        InvalidRequestError, JsonParseError, JsonRpcError, JsonRpcErrorResponse,
        ListTaskPushNotificationConfigParams, ListTaskPushNotificationConfigRequest,
        ListTaskPushNotificationConfigResponse, ListTaskPushNotificationConfigSuccessResponse,
        Message, MessageSendConfiguration, MessageSendParams, MethodNotFoundError,
        MutualTlsSecurityScheme, OAuth2SecurityScheme, OAuthFlows, OpenIdConnectSecurityScheme,
        Part, PasswordOAuthFlow, PushNotificationAuthenticationInfo, PushNotificationConfig,
        PushNotificationNotSupportedError, SecurityScheme, SendMessageRequest,
        SendMessageResponse, SendMessageSuccessResponse, SendStreamingMessageRequest,
        SendStreamingMessageResponse, SendStreamingMessageSuccessResponse,
        SetTaskPushNotificationConfigRequest, SetTaskPushNotificationConfigResponse,
        SetTaskPushNotificationConfigSuccessResponse, Task, TaskArtifactUpdateEvent,
        TaskIdParams, TaskNotCancelableError, TaskNotFoundError, TaskPushNotificationConfig,
        TaskQueryParams, TaskResubscriptionRequest, TaskState, TaskStatus,
        TaskStatusUpdateEvent, TextPart, TransportProtocol, UnsupportedOperationError,
    );
}

/// The 0.1 JSON-RPC model: every definition of `v0.1/a2a.json`. Schema names are the
/// `a2a.json` names (`JsonRpcError` is `JSONRPCError`).
pub(crate) fn v0_1(generator: &mut SchemaGenerator) {
    use a2a_types::v0_1::*;
    register!(generator:
        A2aRequest, AgentAuthentication, AgentCapabilities, AgentCard, AgentProvider,
        AgentSkill, Artifact, AuthenticationInfo, CancelTaskRequest, CancelTaskResponse,
        ContentTypeNotSupportedError, DataPart, FileContent, FilePart,
        GetTaskPushNotificationRequest, GetTaskPushNotificationResponse, GetTaskRequest,
        GetTaskResponse, InternalError, InvalidParamsError, InvalidRequestError,
        JsonParseError, JsonRpcError, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, Message,
        MethodNotFoundError, Part, PushNotificationConfig, PushNotificationNotSupportedError,
        SendTaskRequest, SendTaskResponse, SendTaskStreamingRequest, SendTaskStreamingResponse,
        SetTaskPushNotificationRequest, SetTaskPushNotificationResponse, Task,
        TaskArtifactUpdateEvent, TaskIdParams, TaskNotCancelableError, TaskNotFoundError,
        TaskPushNotificationConfig, TaskQueryParams, TaskResubscriptionRequest, TaskSendParams,
        TaskState, TaskStatus, TaskStatusUpdateEvent, TextPart, UnsupportedOperationError,
    );
}

/// The `lf.a2a.v1` message an `expected-v1/` fixture holds. Such fixtures are named after the
/// 0.x definition they were converted from (`v0_1/expected-v1/SendTaskRequest.x.json` holds
/// the 1.0 `SendMessageRequest` of that request's params); the payload types follow the
/// conversions of `a2a_types::v0_1` and `a2a_types::v0_3` (and `tests/tests/v0_*_fixtures.rs`).
///
/// `Err` gives the reason a payload has no `lf.a2a.v1` message to validate against.
pub(crate) fn expected_v1_type(definition: &str) -> Result<&str, &'static str> {
    Ok(match definition {
        // 0.1
        "SendTaskRequest" | "SendTaskStreamingRequest" => "SendMessageRequest",
        "SendTaskResponse" => "SendMessageResponse",
        "GetTaskResponse" | "CancelTaskResponse" => "Task",
        "TaskResubscriptionRequest" => "SubscribeToTaskRequest",
        "GetTaskPushNotificationRequest" => "GetTaskPushNotificationConfigRequest",
        "SetTaskPushNotificationRequest"
        | "SetTaskPushNotificationResponse"
        | "GetTaskPushNotificationResponse" => "TaskPushNotificationConfig",
        "SendTaskStreamingResponse" => "StreamResponse",
        // 0.3 (and 0.2)
        "GetAuthenticatedExtendedCardSuccessResponse" => "AgentCard",
        "GetTaskSuccessResponse" | "CancelTaskSuccessResponse" => "Task",
        "SendStreamingMessageRequest" => "SendMessageRequest",
        "SetTaskPushNotificationConfigRequest"
        | "SetTaskPushNotificationConfigSuccessResponse"
        | "GetTaskPushNotificationConfigSuccessResponse" => "TaskPushNotificationConfig",
        "ListTaskPushNotificationConfigRequest" => "ListTaskPushNotificationConfigsRequest",
        "ListTaskPushNotificationConfigSuccessResponse" => {
            "ListTaskPushNotificationConfigsResponse"
        }
        "SendMessageSuccessResponse" => "SendMessageResponse",
        "SendStreamingMessageSuccessResponse" => "StreamResponse",
        "GetAuthenticatedExtendedCardRequest" => "GetExtendedAgentCardRequest",
        "JSONRPCErrorResponse" => {
            return Err("a JSON-RPC error object (a2a-jsonrpc), not an lf.a2a.v1 message");
        }
        "DeleteTaskPushNotificationConfigSuccessResponse" => {
            return Err("google.protobuf.Empty, not an lf.a2a.v1 message");
        }
        // Same name in both (AgentCard, Task, Message, GetTaskRequest, CancelTaskRequest,
        // SendMessageRequest, ...).
        same => same,
    })
}
