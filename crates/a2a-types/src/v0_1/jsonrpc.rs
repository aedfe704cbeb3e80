//! The JSON-RPC 2.0 envelopes of 0.1: one request and one response type per method, the generic
//! [`JsonRpcRequest`], [`JsonRpcResponse`] and [`JsonRpcMessage`], the [`A2aRequest`] union, and
//! [`JsonRpcError`] with the typed errors of the specification.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tag::{
    CancelTaskMethod, GetTaskMethod, GetTaskPushNotificationMethod, JsonRpcV2, SendTaskMethod,
    SendTaskStreamingMethod, SetTaskPushNotificationMethod, TaskResubscriptionMethod,
};
use super::{
    StreamEvent, Task, TaskIdParams, TaskPushNotificationConfig, TaskQueryParams, TaskSendParams,
    wire,
};

/// The id of a JSON-RPC request: a number or a string. An absent or `null` id is `None` where an
/// id is held (`Option<RequestId>`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
#[expect(
    clippy::exhaustive_enums,
    reason = "JSON-RPC 2.0 ids are numbers or strings, and that will not change"
)]
pub enum RequestId {
    /// A numeric id.
    Number(i64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => f.write_str(s),
        }
    }
}

impl From<i64> for RequestId {
    fn from(id: i64) -> Self {
        RequestId::Number(id)
    }
}

impl From<String> for RequestId {
    fn from(id: String) -> Self {
        RequestId::String(id)
    }
}

impl From<&str> for RequestId {
    fn from(id: &str) -> Self {
        RequestId::String(id.to_owned())
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for RequestId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RequestId".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_1::RequestId".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "anyOf": [{ "type": "integer" }, { "type": "string" }] })
    }
}

/// The members every JSON-RPC message has: `jsonrpc` and `id` (`JSONRPCMessage`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "JSONRPCMessage"))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[non_exhaustive]
pub struct JsonRpcMessage {
    /// Always `"2.0"`; written always, `"2.0"` when absent on input.
    #[serde(default, skip_serializing_if = "wire::never")]
    pub jsonrpc: JsonRpcV2,
    /// The request id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
}

/// Any JSON-RPC request, its method not yet known (`JSONRPCRequest`).
///
/// `params` is any JSON value: JSON-RPC allows objects and arrays (the 0.1 specification text
/// §6.11 says so; `a2a.json` narrows it to an object).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "JSONRPCRequest"))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[non_exhaustive]
pub struct JsonRpcRequest {
    /// Always `"2.0"`; written always, `"2.0"` when absent on input.
    #[serde(default, skip_serializing_if = "wire::never")]
    pub jsonrpc: JsonRpcV2,
    /// The request id; absent for a notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The method. Required.
    pub method: String,
    /// The params.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Value>,
}

impl JsonRpcRequest {
    /// A request for this method, without id or params.
    pub fn new(method: impl Into<String>) -> Self {
        Self {
            method: method.into(),
            ..Self::default()
        }
    }

    crate::v1::setters! {
        /// Sets the id.
        with_id(id): opt RequestId;
        /// Sets the params.
        with_params(params): opt Value;
    }
}

/// Any JSON-RPC response, its result not yet typed (`JSONRPCResponse`).
///
/// `result` is any JSON value (spec §6.11: "any JSON value, including null"; `a2a.json` narrows
/// it to an object).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "JSONRPCResponse"))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[non_exhaustive]
pub struct JsonRpcResponse {
    /// Always `"2.0"`; written always, `"2.0"` when absent on input.
    #[serde(default, skip_serializing_if = "wire::never")]
    pub jsonrpc: JsonRpcV2,
    /// The id of the request answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The result, on success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The error, on failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonRpcError>,
}

/// A JSON-RPC error object (`JSONRPCError`): a code, a message and optional data.
///
/// `data` is any JSON value, as the specification text (§6.12) says; `a2a.json` narrows it to an
/// object. For the meaning of the codes across versions see [`error_code_to_v1`](super::error_code_to_v1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "JSONRPCError"))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[non_exhaustive]
pub struct JsonRpcError {
    /// The error code. Required.
    pub code: i32,
    /// A short description. Required.
    pub message: String,
    /// More about the error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl JsonRpcError {
    /// An error with a code and a message.
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The 0.1 error for a 1.0 error's code, message and data, its code mapped with
    /// [`error_code_from_v1`](super::error_code_from_v1) so that a 0.1-era peer cannot misread it.
    ///
    /// ```
    /// use a2a_types::v0_1::JsonRpcError;
    ///
    /// // 1.0 VersionNotSupportedError; a 0.1-era peer would read -32009 as "invalid task state".
    /// let err = JsonRpcError::from_v1(-32009, "version 2.0 is not supported", None);
    /// assert_eq!(err.code, -32600);
    /// assert_eq!(err.v1_code(), -32600);
    /// assert_eq!(JsonRpcError::new(-32006, "no streaming").v1_code(), -32004);
    /// ```
    pub fn from_v1(code: i32, message: impl Into<String>, data: Option<Value>) -> Self {
        Self {
            code: super::error_code_from_v1(code),
            message: message.into(),
            data,
        }
    }

    /// The 1.0 code of this error ([`error_code_to_v1`](super::error_code_to_v1)).
    pub const fn v1_code(&self) -> i32 {
        super::error_code_to_v1(self.code)
    }

    crate::v1::setters! {
        /// Sets the data.
        with_data(data): opt Value;
    }
}

impl fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for JsonRpcError {}

macro_rules! typed_error {
    ($( $(#[$meta:meta])* $name:ident $(as $schema:literal)? = ($code:literal, $message:literal); )+) => {
        $(
            $(#[$meta])*
            ///
            /// Written with its fixed `code` and `message`. On input the code must match; the
            /// message may be any string (it is not kept).
            #[derive(Clone, Debug, Default, PartialEq)]
            #[non_exhaustive]
            pub struct $name {
                /// More about the error.
                pub data: Option<Value>,
            }

            impl $name {
                /// The error code.
                pub const CODE: i32 = $code;
                /// The message the specification gives.
                pub const MESSAGE: &'static str = $message;

                /// The error without data.
                pub fn new() -> Self {
                    Self { data: None }
                }

                crate::v1::setters! {
                    /// Sets the data.
                    with_data(data): opt Value;
                }
            }

            impl From<$name> for JsonRpcError {
                fn from(error: $name) -> Self {
                    JsonRpcError {
                        code: $name::CODE,
                        message: $name::MESSAGE.to_owned(),
                        data: error.data,
                    }
                }
            }

            impl Serialize for $name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    JsonRpcError::from(self.clone()).serialize(s)
                }
            }

            impl<'de> Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    let error = JsonRpcError::deserialize(d)?;
                    if error.code != $name::CODE {
                        return Err(serde::de::Error::custom(format_args!(
                            "error code {} is not {} ({})",
                            error.code,
                            $name::CODE,
                            stringify!($name)
                        )));
                    }
                    Ok($name { data: error.data })
                }
            }

            #[cfg(feature = "schemars")]
            impl schemars::JsonSchema for $name {
                fn schema_name() -> std::borrow::Cow<'static, str> {
                    typed_error!(@name $name $($schema)?).into()
                }

                fn schema_id() -> std::borrow::Cow<'static, str> {
                    concat!("a2a_types::v0_1::", stringify!($name)).into()
                }

                fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                    schemars::json_schema!({
                        "type": "object",
                        "properties": {
                            "code": { "type": "integer", "const": $code },
                            "message": { "type": "string", "const": $message },
                            "data": {},
                        },
                        "required": ["code", "message"],
                    })
                }
            }
        )+
    };
    (@name $name:ident) => { stringify!($name) };
    (@name $name:ident $schema:literal) => { $schema };
}

typed_error! {
    /// -32700: the request was not valid JSON.
    JsonParseError as "JSONParseError" = (-32700, "Invalid JSON payload");
    /// -32600: valid JSON, but not a valid JSON-RPC request.
    InvalidRequestError = (-32600, "Request payload validation error");
    /// -32601: no such method.
    MethodNotFoundError = (-32601, "Method not found");
    /// -32602: the params are invalid or missing.
    InvalidParamsError = (-32602, "Invalid parameters");
    /// -32603: an unexpected error on the server.
    InternalError = (-32603, "Internal error");
    /// -32001: no task has the given id.
    TaskNotFoundError = (-32001, "Task not found");
    /// -32002: the task is in a terminal state and cannot be canceled.
    TaskNotCancelableError = (-32002, "Task cannot be canceled");
    /// -32003: the agent does not support push notifications.
    PushNotificationNotSupportedError = (-32003, "Push Notification is not supported");
    /// -32004: the agent does not support the operation.
    UnsupportedOperationError = (-32004, "This operation is not supported");
    /// -32005: a content type of the request is not supported (0.1 specification text §8.2; not
    /// in `a2a.json`; the same code and meaning as in 1.0).
    ContentTypeNotSupportedError = (-32005, "Incompatible content types");
}

macro_rules! request_response {
    ($(
        $(#[$rmeta:meta])* $request:ident($method:ident, $params:ty);
        $(#[$smeta:meta])* $response:ident($result:ty);
    )+) => {
        $(
            $(#[$rmeta])*
            #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
            #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
            #[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
            #[non_exhaustive]
            pub struct $request {
                /// Always `"2.0"`; written always, `"2.0"` when absent on input.
                #[serde(default, skip_serializing_if = "wire::never")]
                pub jsonrpc: JsonRpcV2,
                /// The request id.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub id: Option<RequestId>,
                /// The method. Required.
                pub method: $method,
                /// The params. Required.
                pub params: $params,
            }

            impl $request {
                /// A request with this id and these params.
                pub fn new(id: impl Into<RequestId>, params: $params) -> Self {
                    Self {
                        jsonrpc: JsonRpcV2,
                        id: Some(id.into()),
                        method: $method,
                        params,
                    }
                }
            }

            $(#[$smeta])*
            #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
            #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
            #[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
            #[non_exhaustive]
            pub struct $response {
                /// Always `"2.0"`; written always, `"2.0"` when absent on input.
                #[serde(default, skip_serializing_if = "wire::never")]
                pub jsonrpc: JsonRpcV2,
                /// The id of the request answered.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub id: Option<RequestId>,
                /// The result, on success.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub result: Option<$result>,
                /// The error, on failure.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub error: Option<JsonRpcError>,
            }

            impl $response {
                /// A successful response.
                pub fn success(id: Option<RequestId>, result: $result) -> Self {
                    Self {
                        jsonrpc: JsonRpcV2,
                        id,
                        result: Some(result),
                        error: None,
                    }
                }

                /// An error response.
                pub fn error(id: Option<RequestId>, error: impl Into<JsonRpcError>) -> Self {
                    Self {
                        jsonrpc: JsonRpcV2,
                        id,
                        result: None,
                        error: Some(error.into()),
                    }
                }
            }
        )+
    };
}

request_response! {
    /// `tasks/send`: send a message to a task (created under the client's id when new).
    SendTaskRequest(SendTaskMethod, TaskSendParams);
    /// The response of `tasks/send`: the task after the message was processed.
    SendTaskResponse(Task);

    /// `tasks/sendSubscribe`: send a message and follow the task on a Server-Sent Events stream.
    SendTaskStreamingRequest(SendTaskStreamingMethod, TaskSendParams);
    /// One event of a `tasks/sendSubscribe` or `tasks/resubscribe` stream (the `data` of one SSE
    /// event).
    SendTaskStreamingResponse(StreamEvent);

    /// `tasks/get`: read a task.
    GetTaskRequest(GetTaskMethod, TaskQueryParams);
    /// The response of `tasks/get`.
    GetTaskResponse(Task);

    /// `tasks/cancel`: cancel a task.
    CancelTaskRequest(CancelTaskMethod, TaskIdParams);
    /// The response of `tasks/cancel`: the task after the cancellation.
    CancelTaskResponse(Task);

    /// `tasks/pushNotification/set`: set the webhook of a task.
    SetTaskPushNotificationRequest(SetTaskPushNotificationMethod, TaskPushNotificationConfig);
    /// The response of `tasks/pushNotification/set`: the configuration as set.
    SetTaskPushNotificationResponse(TaskPushNotificationConfig);

    /// `tasks/pushNotification/get`: read the webhook of a task.
    GetTaskPushNotificationRequest(GetTaskPushNotificationMethod, TaskIdParams);
    /// The response of `tasks/pushNotification/get`.
    GetTaskPushNotificationResponse(TaskPushNotificationConfig);
}

/// `tasks/resubscribe`: follow a task's stream again after a disconnection. Answered by a stream
/// of [`SendTaskStreamingResponse`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(transform = crate::schema::wire))]
#[non_exhaustive]
pub struct TaskResubscriptionRequest {
    /// Always `"2.0"`; written always, `"2.0"` when absent on input.
    #[serde(default, skip_serializing_if = "wire::never")]
    pub jsonrpc: JsonRpcV2,
    /// The request id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The method. Required.
    pub method: TaskResubscriptionMethod,
    /// The params. Required.
    pub params: TaskQueryParams,
}

impl TaskResubscriptionRequest {
    /// A request with this id and these params.
    pub fn new(id: impl Into<RequestId>, params: TaskQueryParams) -> Self {
        Self {
            jsonrpc: JsonRpcV2,
            id: Some(id.into()),
            method: TaskResubscriptionMethod,
            params,
        }
    }
}

/// Any 0.1 request, told apart by its `method` (`A2ARequest`).
///
/// Beside the six requests `a2a.json` lists in `A2ARequest`, this union also holds
/// `tasks/sendSubscribe` ([`SendTaskStreamingRequest`]), which `a2a.json` defines but leaves out
/// of the union; a dispatcher needs it.
///
/// ```
/// use a2a_types::v0_1::A2aRequest;
///
/// let req: A2aRequest = serde_json::from_str(
///     r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t-1","historyLength":2}}"#,
/// ).unwrap();
/// let A2aRequest::GetTask(get) = &req else { panic!("not tasks/get") };
/// assert_eq!(get.params.history_length, Some(2));
/// assert_eq!(req.method(), "tasks/get");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum A2aRequest {
    /// `tasks/send`.
    SendTask(SendTaskRequest),
    /// `tasks/get`.
    GetTask(GetTaskRequest),
    /// `tasks/cancel`.
    CancelTask(CancelTaskRequest),
    /// `tasks/pushNotification/set`.
    SetTaskPushNotification(SetTaskPushNotificationRequest),
    /// `tasks/pushNotification/get`.
    GetTaskPushNotification(GetTaskPushNotificationRequest),
    /// `tasks/resubscribe`.
    TaskResubscription(TaskResubscriptionRequest),
    /// `tasks/sendSubscribe`.
    SendTaskStreaming(SendTaskStreamingRequest),
}

impl A2aRequest {
    /// The methods of 0.1, in the order of the variants.
    pub const METHODS: &'static [&'static str] = &[
        SendTaskMethod::VALUE,
        GetTaskMethod::VALUE,
        CancelTaskMethod::VALUE,
        SetTaskPushNotificationMethod::VALUE,
        GetTaskPushNotificationMethod::VALUE,
        TaskResubscriptionMethod::VALUE,
        SendTaskStreamingMethod::VALUE,
    ];

    /// The method of this request.
    pub const fn method(&self) -> &'static str {
        match self {
            A2aRequest::SendTask(_) => SendTaskMethod::VALUE,
            A2aRequest::GetTask(_) => GetTaskMethod::VALUE,
            A2aRequest::CancelTask(_) => CancelTaskMethod::VALUE,
            A2aRequest::SetTaskPushNotification(_) => SetTaskPushNotificationMethod::VALUE,
            A2aRequest::GetTaskPushNotification(_) => GetTaskPushNotificationMethod::VALUE,
            A2aRequest::TaskResubscription(_) => TaskResubscriptionMethod::VALUE,
            A2aRequest::SendTaskStreaming(_) => SendTaskStreamingMethod::VALUE,
        }
    }

    /// The id of this request.
    pub fn id(&self) -> Option<&RequestId> {
        match self {
            A2aRequest::SendTask(r) => r.id.as_ref(),
            A2aRequest::GetTask(r) => r.id.as_ref(),
            A2aRequest::CancelTask(r) => r.id.as_ref(),
            A2aRequest::SetTaskPushNotification(r) => r.id.as_ref(),
            A2aRequest::GetTaskPushNotification(r) => r.id.as_ref(),
            A2aRequest::TaskResubscription(r) => r.id.as_ref(),
            A2aRequest::SendTaskStreaming(r) => r.id.as_ref(),
        }
    }

    /// True for `method` names of 0.1 (`tasks/send`, ...), to route a request by its method.
    pub fn is_v0_1_method(method: &str) -> bool {
        Self::METHODS.contains(&method)
    }
}

impl<'de> Deserialize<'de> for A2aRequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;

        let object = serde_json::Map::<String, Value>::deserialize(d)?;
        let method = match object.get("method") {
            Some(Value::String(method)) => method.clone(),
            Some(_) => return Err(D::Error::custom("`method` must be a string")),
            None => return Err(D::Error::missing_field("method")),
        };
        let value = Value::Object(object);
        use super::part::inner;
        match method.as_str() {
            "tasks/send" => inner(value).map(A2aRequest::SendTask),
            "tasks/get" => inner(value).map(A2aRequest::GetTask),
            "tasks/cancel" => inner(value).map(A2aRequest::CancelTask),
            "tasks/pushNotification/set" => inner(value).map(A2aRequest::SetTaskPushNotification),
            "tasks/pushNotification/get" => inner(value).map(A2aRequest::GetTaskPushNotification),
            "tasks/resubscribe" => inner(value).map(A2aRequest::TaskResubscription),
            "tasks/sendSubscribe" => inner(value).map(A2aRequest::SendTaskStreaming),
            other => Err(D::Error::custom(format_args!(
                "unknown A2A 0.1 method `{other}`, expected one of {}",
                Self::METHODS.join(", ")
            ))),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for A2aRequest {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "A2ARequest".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_1::A2aRequest".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "oneOf": [
                generator.subschema_for::<SendTaskRequest>(),
                generator.subschema_for::<GetTaskRequest>(),
                generator.subschema_for::<CancelTaskRequest>(),
                generator.subschema_for::<SetTaskPushNotificationRequest>(),
                generator.subschema_for::<GetTaskPushNotificationRequest>(),
                generator.subschema_for::<TaskResubscriptionRequest>(),
                generator.subschema_for::<SendTaskStreamingRequest>(),
            ]
        })
    }
}

/// The 0.1 error codes, and the codes of the same range that 0.1-era implementations used.
///
/// `a2a.json` 0.1 defines -32001 to -32004; the specification text adds -32005. The other
/// constants here are *not* in the 0.1 specification: they are the meanings some 0.1-era
/// implementations gave to -32006 to -32011, which 1.0 reuses for other errors (see
/// [`error_code_to_v1`](super::error_code_to_v1)).
pub mod code {
    /// -32700, `JSONParseError`.
    pub const JSON_PARSE_ERROR: i32 = -32700;
    /// -32600, `InvalidRequestError`.
    pub const INVALID_REQUEST: i32 = -32600;
    /// -32601, `MethodNotFoundError`.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// -32602, `InvalidParamsError`.
    pub const INVALID_PARAMS: i32 = -32602;
    /// -32603, `InternalError`.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// -32000, the start of JSON-RPC's range for implementation-defined server errors.
    pub const SERVER_ERROR: i32 = -32000;
    /// -32001, `TaskNotFoundError`.
    pub const TASK_NOT_FOUND: i32 = -32001;
    /// -32002, `TaskNotCancelableError`.
    pub const TASK_NOT_CANCELABLE: i32 = -32002;
    /// -32003, `PushNotificationNotSupportedError`.
    pub const PUSH_NOTIFICATION_NOT_SUPPORTED: i32 = -32003;
    /// -32004, `UnsupportedOperationError`.
    pub const UNSUPPORTED_OPERATION: i32 = -32004;
    /// -32005, `ContentTypeNotSupportedError` (0.1 specification text §8.2).
    pub const CONTENT_TYPE_NOT_SUPPORTED: i32 = -32005;
    /// -32006 as 0.1-era implementations used it: streaming not supported. (1.0: `InvalidAgentResponseError`.)
    pub const LEGACY_STREAMING_NOT_SUPPORTED: i32 = -32006;
    /// -32007 as 0.1-era implementations used it: authentication required. (1.0: `ExtendedAgentCardNotConfiguredError`.)
    pub const LEGACY_AUTHENTICATION_REQUIRED: i32 = -32007;
    /// -32008 as 0.1-era implementations used it: authorization failed. (1.0: `ExtensionSupportRequiredError`.)
    pub const LEGACY_AUTHORIZATION_FAILED: i32 = -32008;
    /// -32009 as 0.1-era implementations used it: invalid task state. (1.0: `VersionNotSupportedError`.)
    pub const LEGACY_INVALID_TASK_STATE: i32 = -32009;
    /// -32010 as 0.1-era implementations used it: rate limit exceeded. (Unassigned in 1.0.)
    pub const LEGACY_RATE_LIMIT_EXCEEDED: i32 = -32010;
    /// -32011 as 0.1-era implementations used it: resource unavailable. (Unassigned in 1.0.)
    pub const LEGACY_RESOURCE_UNAVAILABLE: i32 = -32011;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_errors_write_their_constants() {
        let err = TaskNotFoundError::new().with_data(serde_json::json!({"id": "t"}));
        assert_eq!(
            serde_json::to_string(&err).unwrap(),
            r#"{"code":-32001,"message":"Task not found","data":{"id":"t"}}"#
        );
        let back: TaskNotFoundError =
            serde_json::from_str(r#"{"code":-32001,"message":"no such task"}"#).unwrap();
        assert_eq!(back, TaskNotFoundError::new());
        let wrong = serde_json::from_str::<TaskNotFoundError>(r#"{"code":-32002,"message":"x"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            wrong.starts_with("error code -32002 is not -32001 (TaskNotFoundError)"),
            "{wrong}"
        );
        let generic = JsonRpcError::from(JsonParseError::new());
        assert_eq!(generic.to_string(), "Invalid JSON payload (-32700)");
    }

    #[test]
    fn envelopes_default_jsonrpc_and_keep_ids() {
        let req: SendTaskStreamingRequest = serde_json::from_str(
            r#"{"method":"tasks/sendSubscribe","params":{"id":"t","message":{"role":"user","parts":[]}}}"#,
        )
        .unwrap();
        assert_eq!(req.id, None);
        assert_eq!(
            serde_json::to_string(&req).unwrap(),
            r#"{"jsonrpc":"2.0","method":"tasks/sendSubscribe","params":{"id":"t","message":{"role":"user","parts":[]}}}"#
        );
        let res = GetTaskResponse::error(Some(RequestId::from("a")), TaskNotFoundError::new());
        assert_eq!(
            serde_json::to_string(&res).unwrap(),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32001,"message":"Task not found"}}"#
        );
        let wrong = serde_json::from_str::<GetTaskRequest>(
            r#"{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{"id":"t"}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            wrong.contains(r#"expected "tasks/get", found "tasks/send""#),
            "{wrong}"
        );
    }

    #[test]
    fn a2a_request_dispatches_on_method() {
        for (method, params) in [
            (
                "tasks/send",
                r#"{"id":"t","message":{"role":"user","parts":[]}}"#,
            ),
            (
                "tasks/sendSubscribe",
                r#"{"id":"t","message":{"role":"user","parts":[]}}"#,
            ),
            ("tasks/get", r#"{"id":"t"}"#),
            ("tasks/cancel", r#"{"id":"t"}"#),
            (
                "tasks/pushNotification/set",
                r#"{"id":"t","pushNotificationConfig":{"url":"u"}}"#,
            ),
            ("tasks/pushNotification/get", r#"{"id":"t"}"#),
            ("tasks/resubscribe", r#"{"id":"t"}"#),
        ] {
            let text =
                format!(r#"{{"jsonrpc":"2.0","id":7,"method":"{method}","params":{params}}}"#);
            let req: A2aRequest = serde_json::from_str(&text).unwrap();
            assert_eq!(req.method(), method);
            assert_eq!(req.id(), Some(&RequestId::Number(7)));
            assert!(A2aRequest::is_v0_1_method(method));
            assert_eq!(serde_json::to_string(&req).unwrap(), text);
        }
        let err = serde_json::from_str::<A2aRequest>(r#"{"method":"message/send","params":{}}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("unknown A2A 0.1 method `message/send`"),
            "{err}"
        );
        let err = serde_json::from_str::<A2aRequest>(
            r#"{"method":"tasks/send","params":{"id":"t","message":{"role":"robot","parts":[]}}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("params.message.role: unknown enum value `robot`"),
            "{err}"
        );
    }
}
