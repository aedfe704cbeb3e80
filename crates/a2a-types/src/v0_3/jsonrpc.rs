//! The JSON-RPC 2.0 envelopes of 0.3, typed per method, and the error objects.
//!
//! `a2a.json` defines one request, one success response and one response union per method
//! (`SendMessageRequest`, `SendMessageSuccessResponse`, `SendMessageResponse`, ...). Here they are
//! three generic types, [`JsonRpcRequest<M>`], [`JsonRpcSuccessResponse<M>`] and
//! [`JsonRpcResponse<M>`], over a method marker `M` from [`methods`] that fixes the `method`
//! string, the `params` type and the `result` type; the type aliases
//! ([`SendMessageRequest`](super::SendMessageRequest) and so on) carry the definition names, and
//! so does the JSON Schema of each instance.

use std::fmt;

use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::consts::{ErrorCodeConst, JsonRpcVersion};
use super::util::{self, Object};

/// A JSON-RPC request id: a string or an integer. A response to a request whose id could not
/// be read carries `null`, which is `Option::<JsonRpcId>::None`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[expect(
    clippy::exhaustive_enums,
    reason = "JSON-RPC 2.0 allows exactly these two non-null id types"
)]
pub enum JsonRpcId {
    /// A string id.
    String(String),
    /// An integer id.
    Number(i64),
}

impl fmt::Display for JsonRpcId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonRpcId::String(s) => f.write_str(s),
            JsonRpcId::Number(n) => write!(f, "{n}"),
        }
    }
}

impl From<String> for JsonRpcId {
    fn from(id: String) -> Self {
        JsonRpcId::String(id)
    }
}

impl From<&str> for JsonRpcId {
    fn from(id: &str) -> Self {
        JsonRpcId::String(id.to_owned())
    }
}

impl From<i64> for JsonRpcId {
    fn from(id: i64) -> Self {
        JsonRpcId::Number(id)
    }
}

impl Serialize for JsonRpcId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonRpcId::String(id) => s.serialize_str(id),
            JsonRpcId::Number(id) => s.serialize_i64(*id),
        }
    }
}

impl<'de> Deserialize<'de> for JsonRpcId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = JsonRpcId;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an integer")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<JsonRpcId, E> {
                Ok(JsonRpcId::String(v.to_owned()))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<JsonRpcId, E> {
                Ok(JsonRpcId::String(v))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<JsonRpcId, E> {
                Ok(JsonRpcId::Number(v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<JsonRpcId, E> {
                i64::try_from(v)
                    .map(JsonRpcId::Number)
                    .map_err(|_| E::custom(format_args!("id {v} is out of range")))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<JsonRpcId, E> {
                if v.fract() == 0.0 && v.abs() < 9.0e15 {
                    #[expect(
                        clippy::cast_possible_truncation,
                        reason = "integral and within the exact range of f64"
                    )]
                    Ok(JsonRpcId::Number(v as i64))
                } else {
                    Err(E::custom(format_args!("id {v} is not an integer")))
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for JsonRpcId {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "JsonRpcId".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["string", "integer"] })
    }
}

/// The `params` of a method that takes none (`agent/getAuthenticatedExtendedCard`): never
/// written; whatever a peer sends is ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[expect(clippy::exhaustive_structs, reason = "a unit marker")]
pub struct NoParams;

impl Serialize for NoParams {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

impl<'de> Deserialize<'de> for NoParams {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d).map(|_| NoParams)
    }
}

mod sealed {
    /// Keeps [`Method`](super::Method) to the markers of [`methods`](super::methods).
    pub trait Sealed {}
}

/// A JSON-RPC method of 0.3: its name, its `params` and `result` types, and the names of its
/// envelope definitions in `a2a.json`. Implemented by the markers in [`methods`] (and sealed:
/// the set of 0.3 methods is closed).
pub trait Method:
    sealed::Sealed
    + Copy
    + Default
    + fmt::Debug
    + PartialEq
    + Serialize
    + DeserializeOwned
    + Send
    + Sync
    + 'static
{
    /// The method name (`message/send`).
    const NAME: &'static str;
    /// The `a2a.json` name of the request (`SendMessageRequest`).
    const REQUEST: &'static str;
    /// The `a2a.json` name of the success response (`SendMessageSuccessResponse`).
    const SUCCESS_RESPONSE: &'static str;
    /// The `a2a.json` name of the response union (`SendMessageResponse`).
    const RESPONSE: &'static str;
    /// False for a method without `params`.
    const HAS_PARAMS: bool;
    /// The type of `params`.
    type Params: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;
    /// The type of `result`.
    type Result: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned;

    /// The JSON Schema of `params`, `None` without params.
    #[cfg(feature = "schemars")]
    fn params_schema(generator: &mut schemars::SchemaGenerator) -> Option<schemars::Schema>;

    /// The JSON Schema of `result`.
    #[cfg(feature = "schemars")]
    fn result_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema;
}

/// The method markers: one unit type per JSON-RPC method of 0.3, serialized as its name.
pub mod methods {
    use super::super::{
        AgentCard, DeleteTaskPushNotificationConfigParams, GetTaskPushNotificationConfigParams,
        ListTaskPushNotificationConfigParams, MessageSendParams, SendMessageResult,
        SendStreamingMessageResult, Task, TaskIdParams, TaskPushNotificationConfig,
        TaskQueryParams,
    };
    use super::{Method, NoParams};

    macro_rules! method {
        (
            $(#[$meta:meta])*
            $name:ident = $method:literal, $request:literal, $success:literal, $response:literal,
            params: $params:ident $(=> $params_schema:expr)?, result: $result:ty $(=> $result_schema:expr)?;
        ) => {
            crate::macros::const_str! {
                $(#[$meta])*
                $name = $method;
            }

            impl super::sealed::Sealed for $name {}

            impl Method for $name {
                const NAME: &'static str = $method;
                const REQUEST: &'static str = $request;
                const SUCCESS_RESPONSE: &'static str = $success;
                const RESPONSE: &'static str = $response;
                const HAS_PARAMS: bool = method!(@has $params);
                type Params = $params;
                type Result = $result;

                #[cfg(feature = "schemars")]
                fn params_schema(
                    generator: &mut schemars::SchemaGenerator,
                ) -> Option<schemars::Schema> {
                    method!(@params_schema generator, $params $(, $params_schema)?)
                }

                #[cfg(feature = "schemars")]
                fn result_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                    method!(@result_schema generator, $result $(, $result_schema)?)
                }
            }
        };
        (@has NoParams) => { false };
        (@has $t:ty) => { true };
        (@params_schema $g:ident, NoParams) => { { let _ = $g; None } };
        (@params_schema $g:ident, $t:ty, $custom:expr) => { Some($custom($g)) };
        (@params_schema $g:ident, $t:ty) => { Some($g.subschema_for::<$t>()) };
        (@result_schema $g:ident, $t:ty, $custom:expr) => { $custom($g) };
        (@result_schema $g:ident, $t:ty) => { $g.subschema_for::<$t>() };
    }

    method! {
        /// `message/send`: [`MessageSendParams`] in, a [`Task`] or a message out.
        SendMessage = "message/send", "SendMessageRequest", "SendMessageSuccessResponse",
            "SendMessageResponse", params: MessageSendParams, result: SendMessageResult;
    }
    method! {
        /// `message/stream`: [`MessageSendParams`] in, a stream of events out.
        SendStreamingMessage = "message/stream", "SendStreamingMessageRequest",
            "SendStreamingMessageSuccessResponse", "SendStreamingMessageResponse",
            params: MessageSendParams, result: SendStreamingMessageResult;
    }
    method! {
        /// `tasks/get`: [`TaskQueryParams`] in, a [`Task`] out.
        GetTask = "tasks/get", "GetTaskRequest", "GetTaskSuccessResponse", "GetTaskResponse",
            params: TaskQueryParams, result: Task;
    }
    method! {
        /// `tasks/cancel`: [`TaskIdParams`] in, a [`Task`] out.
        CancelTask = "tasks/cancel", "CancelTaskRequest", "CancelTaskSuccessResponse",
            "CancelTaskResponse", params: TaskIdParams, result: Task;
    }
    method! {
        /// `tasks/resubscribe`: [`TaskIdParams`] in, a stream of events out.
        TaskResubscription = "tasks/resubscribe", "TaskResubscriptionRequest",
            "SendStreamingMessageSuccessResponse", "SendStreamingMessageResponse",
            params: TaskIdParams, result: SendStreamingMessageResult;
    }
    method! {
        /// `tasks/pushNotificationConfig/set`: a [`TaskPushNotificationConfig`] in and out.
        SetTaskPushNotificationConfig = "tasks/pushNotificationConfig/set",
            "SetTaskPushNotificationConfigRequest", "SetTaskPushNotificationConfigSuccessResponse",
            "SetTaskPushNotificationConfigResponse",
            params: TaskPushNotificationConfig, result: TaskPushNotificationConfig;
    }
    method! {
        /// `tasks/pushNotificationConfig/get`: [`GetTaskPushNotificationConfigParams`] (or its
        /// `TaskIdParams` subset) in, a [`TaskPushNotificationConfig`] out.
        GetTaskPushNotificationConfig = "tasks/pushNotificationConfig/get",
            "GetTaskPushNotificationConfigRequest", "GetTaskPushNotificationConfigSuccessResponse",
            "GetTaskPushNotificationConfigResponse",
            params: GetTaskPushNotificationConfigParams => get_push_params_schema,
            result: TaskPushNotificationConfig;
    }
    method! {
        /// `tasks/pushNotificationConfig/list`: [`ListTaskPushNotificationConfigParams`] in, a
        /// list of [`TaskPushNotificationConfig`] out.
        ListTaskPushNotificationConfig = "tasks/pushNotificationConfig/list",
            "ListTaskPushNotificationConfigRequest", "ListTaskPushNotificationConfigSuccessResponse",
            "ListTaskPushNotificationConfigResponse",
            params: ListTaskPushNotificationConfigParams, result: Vec<TaskPushNotificationConfig>;
    }
    method! {
        /// `tasks/pushNotificationConfig/delete`: [`DeleteTaskPushNotificationConfigParams`] in,
        /// `null` out.
        DeleteTaskPushNotificationConfig = "tasks/pushNotificationConfig/delete",
            "DeleteTaskPushNotificationConfigRequest",
            "DeleteTaskPushNotificationConfigSuccessResponse",
            "DeleteTaskPushNotificationConfigResponse",
            params: DeleteTaskPushNotificationConfigParams, result: ();
    }
    method! {
        /// `agent/getAuthenticatedExtendedCard` (new in 0.3): no params, an [`AgentCard`] out.
        GetAuthenticatedExtendedCard = "agent/getAuthenticatedExtendedCard",
            "GetAuthenticatedExtendedCardRequest", "GetAuthenticatedExtendedCardSuccessResponse",
            "GetAuthenticatedExtendedCardResponse", params: NoParams, result: AgentCard;
    }

    #[cfg(feature = "schemars")]
    fn get_push_params_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                generator.subschema_for::<TaskIdParams>(),
                generator.subschema_for::<GetTaskPushNotificationConfigParams>(),
            ]
        })
    }
}

/// A request of method `M`: `{"jsonrpc": "2.0", "id": ..., "method": M::NAME, "params": ...}`.
///
/// Decoding checks the `method` (a request for another method is an error) and requires an
/// `id` (A2A has no notifications).
///
/// ```
/// use a2a_types::v0_3::{JsonRpcId, MessageSendParams, SendMessageRequest};
///
/// let req: SendMessageRequest = serde_json::from_str(r#"{"jsonrpc":"2.0","id":1,
///     "method":"message/send","params":{"message":{"kind":"message","messageId":"m-1",
///     "role":"user","parts":[{"kind":"text","text":"hi"}]}}}"#).unwrap();
/// assert_eq!(req.id, JsonRpcId::Number(1));
/// assert_eq!(req.params.message.text(), "hi");
///
/// let err = serde_json::from_str::<SendMessageRequest>(
///     r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t"}}"#,
/// ).unwrap_err();
/// assert!(err.to_string().starts_with(r#"expected "message/send", found "tasks/get""#));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct JsonRpcRequest<M: Method> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The request id.
    pub id: JsonRpcId,
    /// The method (a marker; it serializes as the method name).
    pub method: M,
    /// The params.
    pub params: M::Params,
}

impl<M: Method> JsonRpcRequest<M> {
    /// A request with this id and these params.
    pub fn new(id: impl Into<JsonRpcId>, params: M::Params) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id: id.into(),
            method: M::default(),
            params,
        }
    }
}

impl<M: Method> Serialize for JsonRpcRequest<M> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(if M::HAS_PARAMS { 4 } else { 3 }))?;
        map.serialize_entry("jsonrpc", &self.jsonrpc)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("method", &self.method)?;
        if M::HAS_PARAMS {
            map.serialize_entry("params", &self.params)?;
        }
        map.end()
    }
}

impl<'de, M: Method> Deserialize<'de> for JsonRpcRequest<M> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<M>(std::marker::PhantomData<M>);

        impl<'de, M: Method> Visitor<'de> for V<M> {
            type Value = JsonRpcRequest<M>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a JSON-RPC request of method `{}`", M::NAME)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut jsonrpc = None;
                let mut id = None;
                let mut method = None;
                let mut params = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "jsonrpc" => jsonrpc = Some(map.next_value::<JsonRpcVersion>()?),
                        "id" => id = Some(map.next_value::<JsonRpcId>()?),
                        "method" => method = Some(map.next_value::<M>()?),
                        "params" if M::HAS_PARAMS => {
                            params = Some(map.next_value::<M::Params>()?);
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let params = match params {
                    Some(params) => params,
                    None if !M::HAS_PARAMS => {
                        M::Params::deserialize(de::value::UnitDeserializer::new())?
                    }
                    None => return Err(de::Error::missing_field("params")),
                };
                Ok(JsonRpcRequest {
                    jsonrpc: jsonrpc.ok_or_else(|| de::Error::missing_field("jsonrpc"))?,
                    id: id.ok_or_else(|| de::Error::missing_field("id"))?,
                    method: method.ok_or_else(|| de::Error::missing_field("method"))?,
                    params,
                })
            }
        }

        d.deserialize_map(V(std::marker::PhantomData))
    }
}

#[cfg(feature = "schemars")]
impl<M: Method> schemars::JsonSchema for JsonRpcRequest<M> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        M::REQUEST.into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        format!("a2a_types::v0_3::{}", M::REQUEST).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut properties = serde_json::Map::new();
        properties.insert(
            "id".into(),
            serde_json::json!({"type": ["string", "integer"]}),
        );
        properties.insert(
            "jsonrpc".into(),
            serde_json::json!({"type": "string", "const": "2.0"}),
        );
        properties.insert(
            "method".into(),
            serde_json::json!({"type": "string", "const": M::NAME}),
        );
        let mut required = vec!["id", "jsonrpc", "method"];
        if let Some(params) = M::params_schema(generator) {
            properties.insert("params".into(), params.into());
            required.push("params");
        }
        schemars::json_schema!({
            "type": "object",
            "properties": properties,
            "required": required,
        })
    }
}

/// A successful response to a request of method `M`: `{"jsonrpc": "2.0", "id": ..., "result": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
#[non_exhaustive]
pub struct JsonRpcSuccessResponse<M: Method> {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The id of the request (`null` when it could not be read).
    pub id: Option<JsonRpcId>,
    /// The result.
    pub result: M::Result,
}

impl<M: Method> JsonRpcSuccessResponse<M> {
    /// A response to the request with this id.
    pub fn new(id: Option<JsonRpcId>, result: M::Result) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id,
            result,
        }
    }
}

#[cfg(feature = "schemars")]
fn response_id_schema() -> Value {
    serde_json::json!({"type": ["string", "integer", "null"]})
}

#[cfg(feature = "schemars")]
impl<M: Method> schemars::JsonSchema for JsonRpcSuccessResponse<M> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        M::SUCCESS_RESPONSE.into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        format!("a2a_types::v0_3::{}", M::SUCCESS_RESPONSE).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "properties": {
                "id": response_id_schema(),
                "jsonrpc": {"type": "string", "const": "2.0"},
                "result": M::result_schema(generator),
            },
            "required": ["id", "jsonrpc", "result"],
        })
    }
}

/// An error response: `{"jsonrpc": "2.0", "id": ..., "error": {"code": ..., "message": ...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct JsonRpcErrorResponse {
    /// Always `"2.0"`.
    pub jsonrpc: JsonRpcVersion,
    /// The id of the request (`null` when it could not be read).
    pub id: Option<JsonRpcId>,
    /// The error.
    pub error: JsonRpcError,
}

impl JsonRpcErrorResponse {
    /// An error response to the request with this id.
    pub fn new(id: Option<JsonRpcId>, error: impl Into<JsonRpcError>) -> Self {
        Self {
            jsonrpc: JsonRpcVersion,
            id,
            error: error.into(),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for JsonRpcErrorResponse {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "JSONRPCErrorResponse".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_3::JSONRPCErrorResponse".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut any_of = vec![generator.subschema_for::<JsonRpcError>()];
        any_of.extend(A2AError::member_schemas(generator));
        schemars::json_schema!({
            "type": "object",
            "properties": {
                "error": {"anyOf": any_of},
                "id": response_id_schema(),
                "jsonrpc": {"type": "string", "const": "2.0"},
            },
            "required": ["error", "id", "jsonrpc"],
        })
    }
}

/// A response to a request of method `M`: a success or an error, told apart by which of
/// `result` and `error` it holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged, bound = "")]
#[non_exhaustive]
pub enum JsonRpcResponse<M: Method> {
    /// The call succeeded.
    Success(JsonRpcSuccessResponse<M>),
    /// The call failed.
    Error(JsonRpcErrorResponse),
}

impl<M: Method> JsonRpcResponse<M> {
    /// The result, or the error.
    pub fn into_result(self) -> Result<M::Result, JsonRpcError> {
        match self {
            JsonRpcResponse::Success(r) => Ok(r.result),
            JsonRpcResponse::Error(e) => Err(e.error),
        }
    }

    /// The id of the request this answers.
    pub fn id(&self) -> Option<&JsonRpcId> {
        match self {
            JsonRpcResponse::Success(r) => r.id.as_ref(),
            JsonRpcResponse::Error(e) => e.id.as_ref(),
        }
    }
}

impl<'de, M: Method> Deserialize<'de> for JsonRpcResponse<M> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let object = Object::deserialize(d)?;
        let is_error = object.get("error").is_some_and(|e| !e.is_null());
        let value = Value::Object(object);
        if is_error {
            util::from_value(value).map(JsonRpcResponse::Error)
        } else {
            util::from_value(value).map(JsonRpcResponse::Success)
        }
    }
}

#[cfg(feature = "schemars")]
impl<M: Method> schemars::JsonSchema for JsonRpcResponse<M> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        M::RESPONSE.into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        format!("a2a_types::v0_3::{}", M::RESPONSE).into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                generator.subschema_for::<JsonRpcErrorResponse>(),
                generator.subschema_for::<JsonRpcSuccessResponse<M>>(),
            ]
        })
    }
}

/// A JSON-RPC error object: `{"code": ..., "message": ..., "data": ...}` with free-form `data`.
///
/// The codes of 0.3 and 1.0 mean the same; only the names differ (-32007 is
/// `AuthenticatedExtendedCardNotConfiguredError` in 0.3 and `ExtendedAgentCardNotConfiguredError`
/// in 1.0), and 1.0 adds -32008 and -32009. [`name`](Self::name), [`v1_name`](Self::v1_name)
/// and [`v1_reason`](Self::v1_reason) tell them apart.
///
/// ```
/// use a2a_types::v0_3::{JsonRpcError, error_code};
///
/// let error = JsonRpcError::new(error_code::AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED, "no card");
/// assert_eq!(error.name(), Some("AuthenticatedExtendedCardNotConfiguredError"));
/// assert_eq!(error.v1_name(), Some("ExtendedAgentCardNotConfiguredError"));
/// assert_eq!(error.v1_reason(), Some("EXTENDED_AGENT_CARD_NOT_CONFIGURED"));
/// assert_eq!(JsonRpcError::from_v1_reason("EXTENDED_AGENT_CARD_NOT_CONFIGURED", "no card"), Some(error));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schemars",
    schemars(rename = "JSONRPCError", transform = crate::schema::wire)
)]
#[non_exhaustive]
pub struct JsonRpcError {
    /// The error code. Required.
    pub code: i32,
    /// A short description. Required.
    pub message: String,
    /// More about the error, any JSON value.
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

    /// An error with a code and its default message ([`default_message`](Self::default_message),
    /// or `"Error <code>"` for a code without one).
    pub fn from_code(code: i32) -> Self {
        let message = entry(code).map_or_else(|| format!("Error {code}"), |e| e.message.to_owned());
        Self::new(code, message)
    }

    crate::v1::setters! {
        /// Sets the data.
        with_data(data): opt Value;
    }

    /// The name of the error in `a2a.json` of 0.3 (`TaskNotFoundError`), if the code has one.
    pub fn name(&self) -> Option<&'static str> {
        entry(self.code).and_then(|e| e.v0_3_name)
    }

    /// The name of the error in A2A 1.0 (`ExtendedAgentCardNotConfiguredError` for -32007).
    pub fn v1_name(&self) -> Option<&'static str> {
        entry(self.code).map(|e| e.v1_name)
    }

    /// The `google.rpc.ErrorInfo` reason A2A 1.0 gives the error (`TASK_NOT_FOUND`); `None` for
    /// the generic JSON-RPC codes.
    pub fn v1_reason(&self) -> Option<&'static str> {
        entry(self.code).and_then(|e| e.v1_reason)
    }

    /// The default message of the code (`Task not found`), as `a2a.json` gives it.
    pub fn default_message(&self) -> Option<&'static str> {
        entry(self.code).map(|e| e.message)
    }

    /// The error a 1.0 `ErrorInfo` reason stands for (`EXTENDED_AGENT_CARD_NOT_CONFIGURED` is
    /// -32007), with this message; `None` for an unknown reason.
    pub fn from_v1_reason(reason: &str, message: impl Into<String>) -> Option<Self> {
        CATALOGUE
            .iter()
            .find(|e| e.v1_reason == Some(reason))
            .map(|e| Self::new(e.code, message))
    }
}

impl fmt::Display for JsonRpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for JsonRpcError {}

/// The error codes of 0.3 (and the two 1.0 adds), by their 0.3 names.
pub mod error_code {
    /// -32700: the body is not JSON.
    pub const JSON_PARSE: i32 = -32700;
    /// -32600: not a valid JSON-RPC request.
    pub const INVALID_REQUEST: i32 = -32600;
    /// -32601: no such method.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// -32602: invalid params.
    pub const INVALID_PARAMS: i32 = -32602;
    /// -32603: internal error.
    pub const INTERNAL: i32 = -32603;
    /// -32001: no such task.
    pub const TASK_NOT_FOUND: i32 = -32001;
    /// -32002: the task cannot be canceled.
    pub const TASK_NOT_CANCELABLE: i32 = -32002;
    /// -32003: push notifications are not supported.
    pub const PUSH_NOTIFICATION_NOT_SUPPORTED: i32 = -32003;
    /// -32004: the operation is not supported.
    pub const UNSUPPORTED_OPERATION: i32 = -32004;
    /// -32005: a content type is not supported.
    pub const CONTENT_TYPE_NOT_SUPPORTED: i32 = -32005;
    /// -32006: the agent produced an invalid response.
    pub const INVALID_AGENT_RESPONSE: i32 = -32006;
    /// -32007: no authenticated extended card is configured (1.0:
    /// `ExtendedAgentCardNotConfiguredError`).
    pub const AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED: i32 = -32007;
    /// -32008: 1.0 only, `ExtensionSupportRequiredError`. (A 0.3-era draft of the specification
    /// text used -32008 for `MessageIdAlreadyExistsError`; `a2a.json` 0.3 has no -32008.)
    pub const EXTENSION_SUPPORT_REQUIRED: i32 = -32008;
    /// -32009: 1.0 only, `VersionNotSupportedError`.
    pub const VERSION_NOT_SUPPORTED: i32 = -32009;
}

struct Entry {
    code: i32,
    v0_3_name: Option<&'static str>,
    v1_name: &'static str,
    v1_reason: Option<&'static str>,
    message: &'static str,
}

const fn e(
    code: i32,
    v0_3_name: Option<&'static str>,
    v1_name: &'static str,
    v1_reason: Option<&'static str>,
    message: &'static str,
) -> Entry {
    Entry {
        code,
        v0_3_name,
        v1_name,
        v1_reason,
        message,
    }
}

use error_code as c;

const CATALOGUE: [Entry; 14] = [
    e(
        c::JSON_PARSE,
        Some("JSONParseError"),
        "JSONParseError",
        None,
        "Invalid JSON payload",
    ),
    e(
        c::INVALID_REQUEST,
        Some("InvalidRequestError"),
        "InvalidRequestError",
        None,
        "Request payload validation error",
    ),
    e(
        c::METHOD_NOT_FOUND,
        Some("MethodNotFoundError"),
        "MethodNotFoundError",
        None,
        "Method not found",
    ),
    e(
        c::INVALID_PARAMS,
        Some("InvalidParamsError"),
        "InvalidParamsError",
        None,
        "Invalid parameters",
    ),
    e(
        c::INTERNAL,
        Some("InternalError"),
        "InternalError",
        None,
        "Internal error",
    ),
    e(
        c::TASK_NOT_FOUND,
        Some("TaskNotFoundError"),
        "TaskNotFoundError",
        Some("TASK_NOT_FOUND"),
        "Task not found",
    ),
    e(
        c::TASK_NOT_CANCELABLE,
        Some("TaskNotCancelableError"),
        "TaskNotCancelableError",
        Some("TASK_NOT_CANCELABLE"),
        "Task cannot be canceled",
    ),
    e(
        c::PUSH_NOTIFICATION_NOT_SUPPORTED,
        Some("PushNotificationNotSupportedError"),
        "PushNotificationNotSupportedError",
        Some("PUSH_NOTIFICATION_NOT_SUPPORTED"),
        "Push Notification is not supported",
    ),
    e(
        c::UNSUPPORTED_OPERATION,
        Some("UnsupportedOperationError"),
        "UnsupportedOperationError",
        Some("UNSUPPORTED_OPERATION"),
        "This operation is not supported",
    ),
    e(
        c::CONTENT_TYPE_NOT_SUPPORTED,
        Some("ContentTypeNotSupportedError"),
        "ContentTypeNotSupportedError",
        Some("CONTENT_TYPE_NOT_SUPPORTED"),
        "Incompatible content types",
    ),
    e(
        c::INVALID_AGENT_RESPONSE,
        Some("InvalidAgentResponseError"),
        "InvalidAgentResponseError",
        Some("INVALID_AGENT_RESPONSE"),
        "Invalid agent response",
    ),
    e(
        c::AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED,
        Some("AuthenticatedExtendedCardNotConfiguredError"),
        "ExtendedAgentCardNotConfiguredError",
        Some("EXTENDED_AGENT_CARD_NOT_CONFIGURED"),
        "Authenticated Extended Card is not configured",
    ),
    e(
        c::EXTENSION_SUPPORT_REQUIRED,
        None,
        "ExtensionSupportRequiredError",
        Some("EXTENSION_SUPPORT_REQUIRED"),
        "Extension support required",
    ),
    e(
        c::VERSION_NOT_SUPPORTED,
        None,
        "VersionNotSupportedError",
        Some("VERSION_NOT_SUPPORTED"),
        "Version not supported",
    ),
];

fn entry(code: i32) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|e| e.code == code)
}

/// The typed error definitions of `a2a.json` (`TaskNotFoundError` and so on): each a struct
/// whose `code` is a constant, and a variant of [`A2AError`].
macro_rules! typed_errors {
    ($( $(#[$meta:meta])* $name:ident = $code:literal, $schema:tt, $message:literal; )+) => {
        $(
            $(#[$meta])*
            #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
            #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
            #[cfg_attr(feature = "schemars", schemars(rename = $schema, transform = crate::schema::wire))]
            #[non_exhaustive]
            pub struct $name {
                #[doc = concat!("Always ", stringify!($code), ".")]
                pub code: ErrorCodeConst<$code>,
                #[doc = concat!("A short description (by default `", $message, "`). Required.")]
                pub message: String,
                /// More about the error, any JSON value.
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub data: Option<Value>,
            }

            impl $name {
                /// The error with its default message.
                pub fn new() -> Self {
                    Self { code: ErrorCodeConst, message: $message.to_owned(), data: None }
                }

                crate::v1::setters! {
                    /// Sets the message.
                    with_message(message): val String;
                    /// Sets the data.
                    with_data(data): opt Value;
                }
            }

            impl Default for $name {
                fn default() -> Self {
                    Self::new()
                }
            }

            impl From<$name> for JsonRpcError {
                fn from(error: $name) -> Self {
                    JsonRpcError { code: $code, message: error.message, data: error.data }
                }
            }

            impl From<$name> for A2AError {
                fn from(error: $name) -> Self {
                    A2AError::$name(error)
                }
            }
        )+

        /// One of the errors `a2a.json` defines with a constant code (`A2AError`), told apart
        /// by `code`.
        ///
        /// ```
        /// use a2a_types::v0_3::{A2AError, JsonRpcError, TaskNotFoundError};
        ///
        /// let error = JsonRpcError::from(TaskNotFoundError::new().with_data(serde_json::json!({"taskId": "t-1"})));
        /// assert_eq!(
        ///     serde_json::to_string(&error).unwrap(),
        ///     r#"{"code":-32001,"message":"Task not found","data":{"taskId":"t-1"}}"#
        /// );
        /// assert!(matches!(A2AError::try_from(error), Ok(A2AError::TaskNotFoundError(_))));
        /// ```
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(untagged)]
        #[non_exhaustive]
        pub enum A2AError {
            $(
                #[doc = concat!("`", $schema, "` (", stringify!($code), ").")]
                $name($name),
            )+
        }

        impl A2AError {
            /// The code.
            pub const fn code(&self) -> i32 {
                match self {
                    $( A2AError::$name(_) => $code, )+
                }
            }

            #[cfg(feature = "schemars")]
            fn member_schemas(generator: &mut schemars::SchemaGenerator) -> Vec<schemars::Schema> {
                vec![$( generator.subschema_for::<$name>(), )+]
            }
        }

        impl From<A2AError> for JsonRpcError {
            fn from(error: A2AError) -> Self {
                match error {
                    $( A2AError::$name(e) => e.into(), )+
                }
            }
        }

        impl TryFrom<JsonRpcError> for A2AError {
            type Error = JsonRpcError;

            /// The typed error of this code; the error itself back when its code has none.
            fn try_from(error: JsonRpcError) -> Result<Self, JsonRpcError> {
                match error.code {
                    $( $code => Ok(A2AError::$name($name {
                        code: ErrorCodeConst,
                        message: error.message,
                        data: error.data,
                    })), )+
                    _ => Err(error),
                }
            }
        }

        impl<'de> Deserialize<'de> for A2AError {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let error = JsonRpcError::deserialize(d)?;
                let code = error.code;
                A2AError::try_from(error).map_err(|_| {
                    de::Error::custom(format_args!("error code {code} is not one of the A2A errors"))
                })
            }
        }

        #[cfg(feature = "schemars")]
        impl schemars::JsonSchema for A2AError {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                "A2AError".into()
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                "a2a_types::v0_3::A2AError".into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "anyOf": A2AError::member_schemas(generator) })
            }
        }
    };
}

typed_errors! {
    /// -32700: the body is not JSON.
    JsonParseError = -32700, "JSONParseError", "Invalid JSON payload";
    /// -32600: not a valid JSON-RPC request.
    InvalidRequestError = -32600, "InvalidRequestError", "Request payload validation error";
    /// -32601: no such method.
    MethodNotFoundError = -32601, "MethodNotFoundError", "Method not found";
    /// -32602: invalid params.
    InvalidParamsError = -32602, "InvalidParamsError", "Invalid parameters";
    /// -32603: internal error.
    InternalError = -32603, "InternalError", "Internal error";
    /// -32001: no such task.
    TaskNotFoundError = -32001, "TaskNotFoundError", "Task not found";
    /// -32002: the task cannot be canceled.
    TaskNotCancelableError = -32002, "TaskNotCancelableError", "Task cannot be canceled";
    /// -32003: push notifications are not supported.
    PushNotificationNotSupportedError = -32003, "PushNotificationNotSupportedError", "Push Notification is not supported";
    /// -32004: the operation is not supported.
    UnsupportedOperationError = -32004, "UnsupportedOperationError", "This operation is not supported";
    /// -32005: a content type is not supported.
    ContentTypeNotSupportedError = -32005, "ContentTypeNotSupportedError", "Incompatible content types";
    /// -32006: the agent produced an invalid response.
    InvalidAgentResponseError = -32006, "InvalidAgentResponseError", "Invalid agent response";
    /// -32007: no authenticated extended card is configured (1.0:
    /// `ExtendedAgentCardNotConfiguredError`).
    AuthenticatedExtendedCardNotConfiguredError = -32007, "AuthenticatedExtendedCardNotConfiguredError", "Authenticated Extended Card is not configured";
}

/// Any request of 0.3, told apart by `method`: the `A2ARequest` union of `a2a.json`.
///
/// ```
/// use a2a_types::v0_3::A2ARequest;
///
/// let req: A2ARequest = serde_json::from_str(
///     r#"{"jsonrpc":"2.0","id":"r1","method":"tasks/get","params":{"id":"t-1","historyLength":2}}"#,
/// ).unwrap();
/// assert_eq!(req.method(), "tasks/get");
/// let A2ARequest::GetTask(get) = req else { panic!() };
/// assert_eq!(get.params.history_length, Some(2));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum A2ARequest {
    /// `message/send`.
    SendMessage(JsonRpcRequest<methods::SendMessage>),
    /// `message/stream`.
    SendStreamingMessage(JsonRpcRequest<methods::SendStreamingMessage>),
    /// `tasks/get`.
    GetTask(JsonRpcRequest<methods::GetTask>),
    /// `tasks/cancel`.
    CancelTask(JsonRpcRequest<methods::CancelTask>),
    /// `tasks/pushNotificationConfig/set`.
    SetTaskPushNotificationConfig(JsonRpcRequest<methods::SetTaskPushNotificationConfig>),
    /// `tasks/pushNotificationConfig/get`.
    GetTaskPushNotificationConfig(JsonRpcRequest<methods::GetTaskPushNotificationConfig>),
    /// `tasks/resubscribe`.
    TaskResubscription(JsonRpcRequest<methods::TaskResubscription>),
    /// `tasks/pushNotificationConfig/list`.
    ListTaskPushNotificationConfig(JsonRpcRequest<methods::ListTaskPushNotificationConfig>),
    /// `tasks/pushNotificationConfig/delete`.
    DeleteTaskPushNotificationConfig(JsonRpcRequest<methods::DeleteTaskPushNotificationConfig>),
    /// `agent/getAuthenticatedExtendedCard`.
    GetAuthenticatedExtendedCard(JsonRpcRequest<methods::GetAuthenticatedExtendedCard>),
}

macro_rules! each_request {
    ($self:ident, $r:ident => $e:expr) => {
        match $self {
            A2ARequest::SendMessage($r) => $e,
            A2ARequest::SendStreamingMessage($r) => $e,
            A2ARequest::GetTask($r) => $e,
            A2ARequest::CancelTask($r) => $e,
            A2ARequest::SetTaskPushNotificationConfig($r) => $e,
            A2ARequest::GetTaskPushNotificationConfig($r) => $e,
            A2ARequest::TaskResubscription($r) => $e,
            A2ARequest::ListTaskPushNotificationConfig($r) => $e,
            A2ARequest::DeleteTaskPushNotificationConfig($r) => $e,
            A2ARequest::GetAuthenticatedExtendedCard($r) => $e,
        }
    };
}

impl A2ARequest {
    /// The method names of 0.3, in the order of `a2a.json`.
    pub const METHODS: &'static [&'static str] = &[
        <methods::SendMessage as Method>::NAME,
        <methods::SendStreamingMessage as Method>::NAME,
        <methods::GetTask as Method>::NAME,
        <methods::CancelTask as Method>::NAME,
        <methods::SetTaskPushNotificationConfig as Method>::NAME,
        <methods::GetTaskPushNotificationConfig as Method>::NAME,
        <methods::TaskResubscription as Method>::NAME,
        <methods::ListTaskPushNotificationConfig as Method>::NAME,
        <methods::DeleteTaskPushNotificationConfig as Method>::NAME,
        <methods::GetAuthenticatedExtendedCard as Method>::NAME,
    ];

    /// The method name.
    pub fn method(&self) -> &'static str {
        fn name<M: Method>(_: &JsonRpcRequest<M>) -> &'static str {
            M::NAME
        }
        each_request!(self, r => name(r))
    }

    /// The request id.
    pub fn id(&self) -> &JsonRpcId {
        each_request!(self, r => &r.id)
    }
}

impl<'de> Deserialize<'de> for A2ARequest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let object = Object::deserialize(d)?;
        let method = util::tag(&object, "method")
            .ok_or_else(|| de::Error::missing_field("method"))?
            .to_owned();
        let value = Value::Object(object);
        fn go<M: Method, E: de::Error>(
            value: Value,
            wrap: fn(JsonRpcRequest<M>) -> A2ARequest,
        ) -> Result<A2ARequest, E> {
            util::from_value(value).map(wrap)
        }
        match method.as_str() {
            "message/send" => go(value, A2ARequest::SendMessage),
            "message/stream" => go(value, A2ARequest::SendStreamingMessage),
            "tasks/get" => go(value, A2ARequest::GetTask),
            "tasks/cancel" => go(value, A2ARequest::CancelTask),
            "tasks/pushNotificationConfig/set" => {
                go(value, A2ARequest::SetTaskPushNotificationConfig)
            }
            "tasks/pushNotificationConfig/get" => {
                go(value, A2ARequest::GetTaskPushNotificationConfig)
            }
            "tasks/resubscribe" => go(value, A2ARequest::TaskResubscription),
            "tasks/pushNotificationConfig/list" => {
                go(value, A2ARequest::ListTaskPushNotificationConfig)
            }
            "tasks/pushNotificationConfig/delete" => {
                go(value, A2ARequest::DeleteTaskPushNotificationConfig)
            }
            "agent/getAuthenticatedExtendedCard" => {
                go(value, A2ARequest::GetAuthenticatedExtendedCard)
            }
            other => Err(de::Error::custom(format_args!(
                "unknown method `{other}`, expected one of {}",
                A2ARequest::METHODS.join(", ")
            ))),
        }
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for A2ARequest {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "A2ARequest".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "a2a_types::v0_3::A2ARequest".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                generator.subschema_for::<JsonRpcRequest<methods::SendMessage>>(),
                generator.subschema_for::<JsonRpcRequest<methods::SendStreamingMessage>>(),
                generator.subschema_for::<JsonRpcRequest<methods::GetTask>>(),
                generator.subschema_for::<JsonRpcRequest<methods::CancelTask>>(),
                generator.subschema_for::<JsonRpcRequest<methods::SetTaskPushNotificationConfig>>(),
                generator.subschema_for::<JsonRpcRequest<methods::GetTaskPushNotificationConfig>>(),
                generator.subschema_for::<JsonRpcRequest<methods::TaskResubscription>>(),
                generator.subschema_for::<JsonRpcRequest<methods::ListTaskPushNotificationConfig>>(),
                generator.subschema_for::<JsonRpcRequest<methods::DeleteTaskPushNotificationConfig>>(),
                generator.subschema_for::<JsonRpcRequest<methods::GetAuthenticatedExtendedCard>>(),
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn requests_check_their_method_and_need_an_id() {
        let ok: JsonRpcRequest<methods::GetAuthenticatedExtendedCard> = serde_json::from_value(
            json!({"jsonrpc": "2.0", "id": 1, "method": "agent/getAuthenticatedExtendedCard"}),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(&ok).unwrap(),
            json!({"jsonrpc": "2.0", "id": 1, "method": "agent/getAuthenticatedExtendedCard"})
        );
        let err = serde_json::from_value::<JsonRpcRequest<methods::GetTask>>(
            json!({"jsonrpc": "2.0", "method": "tasks/get", "params": {"id": "t"}}),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "missing field `id`");
        let err = serde_json::from_value::<JsonRpcRequest<methods::GetTask>>(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/get"}),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "missing field `params`");
        let err = serde_json::from_value::<JsonRpcRequest<methods::GetTask>>(
            json!({"jsonrpc": "1.0", "id": 1, "method": "tasks/get", "params": {"id": "t"}}),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), r#"expected "2.0", found "1.0""#);
        let err = serde_json::from_value::<A2ARequest>(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/list", "params": {}}),
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with("unknown method `tasks/list`"),
            "{err}"
        );
    }

    #[test]
    fn responses_by_result_or_error() {
        let ok: JsonRpcResponse<methods::DeleteTaskPushNotificationConfig> =
            serde_json::from_value(json!({"jsonrpc": "2.0", "id": "x", "result": null})).unwrap();
        assert_eq!(ok.clone().into_result(), Ok(()));
        assert_eq!(
            serde_json::to_value(&ok).unwrap(),
            json!({"jsonrpc": "2.0", "id": "x", "result": null})
        );
        let err: JsonRpcResponse<methods::GetTask> = serde_json::from_value(
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32001, "message": "Task not found"}}),
        )
        .unwrap();
        assert_eq!(err.id(), None);
        let error = err.into_result().unwrap_err();
        assert_eq!(error.name(), Some("TaskNotFoundError"));
        assert_eq!(error.v1_reason(), Some("TASK_NOT_FOUND"));
    }

    #[test]
    fn ids() {
        assert_eq!(
            serde_json::from_value::<JsonRpcId>(json!(7)).unwrap(),
            JsonRpcId::Number(7)
        );
        assert_eq!(
            serde_json::from_value::<JsonRpcId>(json!(7.0)).unwrap(),
            JsonRpcId::Number(7)
        );
        assert!(serde_json::from_value::<JsonRpcId>(json!(7.5)).is_err());
        assert!(serde_json::from_value::<JsonRpcId>(json!(null)).is_err());
        assert!(serde_json::from_value::<JsonRpcId>(json!([1])).is_err());
    }

    #[test]
    fn error_names_across_versions() {
        let error = JsonRpcError::from_code(error_code::VERSION_NOT_SUPPORTED);
        assert_eq!(error.name(), None);
        assert_eq!(error.v1_name(), Some("VersionNotSupportedError"));
        assert_eq!(JsonRpcError::from_code(-32050).message, "Error -32050");
        assert!(A2AError::try_from(JsonRpcError::new(-32050, "x")).is_err());
        let typed: A2AError =
            serde_json::from_value(json!({"code": -32007, "message": "none"})).unwrap();
        assert_eq!(typed.code(), -32007);
        assert!(serde_json::from_value::<A2AError>(json!({"code": 1, "message": "x"})).is_err());
    }
}
