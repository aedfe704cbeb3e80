//! [`A2aError`]: an error of the A2A catalogue, independent of the binding that carries it.

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::error::{BadRequest, ErrorInfo, is_error_info};
use crate::{ErrorCode, ErrorObject};

/// An A2A error as a server raises it and a client receives it, whatever the binding: a code of
/// the catalogue ([`ErrorCode`]: its name, `ErrorInfo` reason, HTTP status and gRPC status), a
/// message, and `google.rpc` details (an `ErrorInfo` with metadata, a `BadRequest`, ...).
///
/// Each binding renders it in its own shape: JSON-RPC as an [`ErrorObject`]
/// ([`to_error_object`](Self::to_error_object)), HTTP+JSON as a `google.rpc.Status` document
/// with the mapped HTTP status ([`to_status_json`](Self::to_status_json),
/// [`http_status`](Self::http_status)), gRPC as a status with [`grpc_code`](Self::grpc_code).
/// A client reads any of them back ([`From<ErrorObject>`](#impl-From<ErrorObject>-for-A2aError),
/// [`from_status_json`](Self::from_status_json)) and matches on [`code`](Self::code).
///
/// Transport-level failures that are not A2A errors (an unknown path, a body over the limit, a
/// missing credential) carry the HTTP status the binding answers with
/// ([`with_http_status`](Self::with_http_status)).
///
/// ```
/// use a2a_jsonrpc::{A2aError, ErrorCode};
///
/// let error = A2aError::task_not_found("t-1");
/// assert_eq!(error.code(), ErrorCode::TASK_NOT_FOUND);
/// assert_eq!(error.http_status(), 404);
/// assert_eq!(error.grpc_code(), 5);
/// assert_eq!(error.metadata("taskId"), Some("t-1"));
/// assert_eq!(
///     serde_json::to_value(error.to_error_object()).unwrap(),
///     serde_json::json!({
///         "code": -32001,
///         "message": "task t-1 not found",
///         "data": [{
///             "@type": "type.googleapis.com/google.rpc.ErrorInfo",
///             "reason": "TASK_NOT_FOUND",
///             "domain": "a2a-protocol.org",
///             "metadata": {"taskId": "t-1"}
///         }]
///     })
/// );
/// assert_eq!(
///     error.to_status_json(),
///     serde_json::json!({"error": {
///         "code": 404,
///         "status": "NOT_FOUND",
///         "message": "task t-1 not found",
///         "details": [{
///             "@type": "type.googleapis.com/google.rpc.ErrorInfo",
///             "reason": "TASK_NOT_FOUND",
///             "domain": "a2a-protocol.org",
///             "metadata": {"taskId": "t-1"}
///         }]
///     }})
/// );
/// let back = A2aError::from_status_json(&error.to_status_json()).unwrap();
/// assert_eq!(back, error);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct A2aError {
    code: ErrorCode,
    message: Cow<'static, str>,
    /// `data` as received or built: an array of details in 1.0, anything in 0.x.
    data: Option<Value>,
    http_status: Option<u16>,
}

impl A2aError {
    /// An error with this code and message, and no details.
    pub fn new(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
            http_status: None,
        }
    }

    /// An error with this code and message and the code's `ErrorInfo` (reason from
    /// [`ErrorCode::reason`], domain `a2a-protocol.org`) when the code has a reason.
    pub fn with_code_info(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        let error = Self::new(code, message);
        match code.reason() {
            Some(_) => error.with_detail(ErrorInfo::for_code(code).to_value()),
            None => error,
        }
    }

    // ----- the catalogue ---------------------------------------------------------------------

    /// -32700: the body is not JSON (`"parse error: <detail>"`).
    pub fn parse_error(detail: impl fmt::Display) -> Self {
        Self::new(ErrorCode::PARSE_ERROR, format!("parse error: {detail}"))
    }

    /// -32600: the request is not a valid call (`"invalid request: <detail>"`).
    pub fn invalid_request(detail: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::INVALID_REQUEST,
            format!("invalid request: {detail}"),
        )
    }

    /// -32600 answered with HTTP 401 (gRPC `UNAUTHENTICATED`): the request carries no
    /// credentials, or none that hold (`"unauthenticated: <detail>"`). The binding adds the
    /// `WWW-Authenticate` challenge.
    ///
    /// ```
    /// use a2a_jsonrpc::A2aError;
    ///
    /// let error = A2aError::unauthenticated("a bearer token is required");
    /// assert_eq!(error.message(), "unauthenticated: a bearer token is required");
    /// assert_eq!((error.http_status(), error.grpc_status()), (401, "UNAUTHENTICATED"));
    /// ```
    pub fn unauthenticated(detail: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::INVALID_REQUEST,
            format!("unauthenticated: {detail}"),
        )
        .with_http_status(401)
    }

    /// -32600 answered with HTTP 403 (gRPC `PERMISSION_DENIED`): the caller is known but may
    /// not do this (`"permission denied: <detail>"`), such as a token without the scope an
    /// operation needs.
    ///
    /// ```
    /// use a2a_jsonrpc::A2aError;
    ///
    /// let error = A2aError::permission_denied("GetTask needs the scope `tasks:read`");
    /// assert_eq!(error.message(), "permission denied: GetTask needs the scope `tasks:read`");
    /// assert_eq!((error.http_status(), error.grpc_status()), (403, "PERMISSION_DENIED"));
    /// ```
    pub fn permission_denied(detail: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::INVALID_REQUEST,
            format!("permission denied: {detail}"),
        )
        .with_http_status(403)
    }

    /// -32601: no such method (`"method not found: <method>"`).
    pub fn method_not_found(method: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
        )
    }

    /// -32602: the parameters are invalid (`"invalid params: <detail>"`), with `ErrorInfo`.
    pub fn invalid_params(detail: impl fmt::Display) -> Self {
        Self::with_code_info(
            ErrorCode::INVALID_PARAMS,
            format!("invalid params: {detail}"),
        )
    }

    /// -32603: something failed inside the server (`"internal error: <detail>"`), with
    /// `ErrorInfo`.
    pub fn internal(detail: impl fmt::Display) -> Self {
        Self::with_code_info(
            ErrorCode::INTERNAL_ERROR,
            format!("internal error: {detail}"),
        )
    }

    /// -32001: no such task, or not one the caller may see; metadata `taskId`.
    pub fn task_not_found(task_id: impl fmt::Display) -> Self {
        let task_id = task_id.to_string();
        Self::with_code_info(
            ErrorCode::TASK_NOT_FOUND,
            format!("task {task_id} not found"),
        )
        .with_metadata("taskId", task_id)
    }

    /// -32002: the task is in a terminal state other than canceled; metadata `taskId`, `state`.
    pub fn task_not_cancelable(task_id: impl fmt::Display, state: impl fmt::Display) -> Self {
        let (task_id, state) = (task_id.to_string(), state.to_string());
        Self::with_code_info(
            ErrorCode::TASK_NOT_CANCELABLE,
            format!("task {task_id} is {state} and cannot be canceled"),
        )
        .with_metadata("taskId", task_id)
        .with_metadata("state", state)
    }

    /// -32003: the agent does not support push notifications.
    pub fn push_notification_not_supported() -> Self {
        Self::with_code_info(
            ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED,
            "push notifications are not supported by this agent",
        )
    }

    /// -32004: the operation is not supported (by this agent, or in this state).
    pub fn unsupported_operation(message: impl Into<Cow<'static, str>>) -> Self {
        Self::with_code_info(ErrorCode::UNSUPPORTED_OPERATION, message)
    }

    /// -32005: a media type outside the agent's input modes; metadata `mediaType`.
    pub fn content_type_not_supported(media_type: impl fmt::Display, accepted: &str) -> Self {
        let media_type = media_type.to_string();
        Self::with_code_info(
            ErrorCode::CONTENT_TYPE_NOT_SUPPORTED,
            format!("media type `{media_type}` is not supported; the agent accepts {accepted}"),
        )
        .with_metadata("mediaType", media_type)
    }

    /// -32006: the agent produced something the protocol does not allow.
    pub fn invalid_agent_response(detail: impl fmt::Display) -> Self {
        Self::with_code_info(
            ErrorCode::INVALID_AGENT_RESPONSE,
            format!("invalid agent response: {detail}"),
        )
    }

    /// -32007: the card declares an extended card, but none is configured.
    pub fn extended_agent_card_not_configured() -> Self {
        Self::with_code_info(
            ErrorCode::EXTENDED_AGENT_CARD_NOT_CONFIGURED,
            "the extended agent card is not configured",
        )
    }

    /// -32008: the agent requires an extension the client did not ask for; metadata
    /// `extension`.
    pub fn extension_support_required(uri: impl fmt::Display) -> Self {
        let uri = uri.to_string();
        Self::with_code_info(
            ErrorCode::EXTENSION_SUPPORT_REQUIRED,
            format!("the agent requires extension {uri}; send it in the A2A-Extensions header"),
        )
        .with_metadata("extension", uri)
    }

    /// -32009: the requested protocol version is not served here (the message says which
    /// versions are).
    pub fn version_not_supported(message: impl Into<Cow<'static, str>>) -> Self {
        Self::with_code_info(ErrorCode::VERSION_NOT_SUPPORTED, message)
    }

    /// -32010 (A2A 1.1 draft): the message's `ifGenerationMatch` is not the task's generation;
    /// metadata `taskId`, `expectedGeneration`, `currentGeneration` (decimal strings). HTTP
    /// 409, gRPC `ABORTED`.
    ///
    /// ```
    /// use a2a_jsonrpc::A2aError;
    ///
    /// let error = A2aError::task_generation_mismatch("t-1", 3, 5);
    /// assert_eq!((error.code().code(), error.http_status(), error.grpc_status()), (-32010, 409, "ABORTED"));
    /// assert_eq!(error.message(), "Task generation mismatch: expected 3 but current generation is 5");
    /// assert_eq!(error.metadata("currentGeneration"), Some("5"));
    /// ```
    pub fn task_generation_mismatch(
        task_id: impl fmt::Display,
        expected: i64,
        current: i64,
    ) -> Self {
        Self::with_code_info(
            ErrorCode::TASK_GENERATION_MISMATCH,
            format!(
                "Task generation mismatch: expected {expected} but current generation is {current}"
            ),
        )
        .with_metadata("taskId", task_id.to_string())
        .with_metadata("expectedGeneration", expected.to_string())
        .with_metadata("currentGeneration", current.to_string())
    }

    /// -32603 answered with HTTP 503 (gRPC `UNAVAILABLE`): the server cannot answer now, and
    /// the same call may succeed after `retry_after` (its task store cannot reach its
    /// database, or holds as many tasks as it may). The message is given whole. The details
    /// say the call is retryable: the `ErrorInfo` carries `retryable: "true"`, and a
    /// `google.rpc.RetryInfo` the delay, which the HTTP bindings also send as `Retry-After`
    /// (whole seconds, at least 1).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// use a2a_jsonrpc::A2aError;
    ///
    /// let error = A2aError::unavailable("task store unavailable: no database", Duration::from_secs(2));
    /// assert_eq!((error.http_status(), error.grpc_status()), (503, "UNAVAILABLE"));
    /// assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
    /// assert_eq!(
    ///     serde_json::to_value(error.to_error_object()).unwrap(),
    ///     serde_json::json!({
    ///         "code": -32603,
    ///         "message": "task store unavailable: no database",
    ///         "data": [
    ///             {
    ///                 "@type": "type.googleapis.com/google.rpc.ErrorInfo",
    ///                 "reason": "INTERNAL",
    ///                 "domain": "a2a-protocol.org",
    ///                 "metadata": {"retryable": "true"}
    ///             },
    ///             {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2s"}
    ///         ]
    ///     })
    /// );
    /// ```
    pub fn unavailable(message: impl Into<Cow<'static, str>>, retry_after: Duration) -> Self {
        Self::with_code_info(ErrorCode::INTERNAL_ERROR, message)
            .with_http_status(503)
            .with_retry_after(retry_after)
    }

    // ----- builders --------------------------------------------------------------------------

    /// Adds a metadata entry to the error's `ErrorInfo` (creating one with the code's reason,
    /// or `UNKNOWN`, if there is none).
    #[must_use]
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        let code = self.code;
        let details = self.details_mut();
        let index = match details.iter().position(is_error_info) {
            Some(index) => index,
            None => {
                details.push(ErrorInfo::for_code(code).to_value());
                details.len() - 1
            }
        };
        if let Some(info) = details[index].as_object_mut() {
            let metadata = info
                .entry("metadata")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(metadata) = metadata.as_object_mut() {
                metadata.insert(key.into(), Value::String(value.into()));
            }
        }
        self
    }

    /// Marks the error retryable after `delay` (at least 1 s, in whole seconds): metadata
    /// `retryable: "true"` in its `ErrorInfo`, and a `google.rpc.RetryInfo` detail with the
    /// delay (replacing one it has). The HTTP bindings send the delay as `Retry-After`.
    #[must_use]
    pub fn with_retry_after(self, delay: Duration) -> Self {
        let seconds = retry_seconds(delay);
        let mut error = self.with_metadata("retryable", "true");
        let details = error.details_mut();
        details.retain(|d| d.get("@type").and_then(Value::as_str) != Some(RETRY_INFO));
        details.push(json!({"@type": RETRY_INFO, "retryDelay": format!("{seconds}s")}));
        error
    }

    /// Adds a `google.rpc` detail (a JSON object with an `@type`).
    #[must_use]
    pub fn with_detail(mut self, detail: Value) -> Self {
        self.details_mut().push(detail);
        self
    }

    /// Adds a `google.rpc.BadRequest` field violation: `field` is a path such as
    /// `message.parts[0]` or a query parameter's name.
    #[must_use]
    pub fn with_field_violation(
        mut self,
        field: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        let (field, description) = (field.into(), description.into());
        let details = self.details_mut();
        let existing = details
            .iter_mut()
            .find_map(|d| BadRequest::from_value(d).map(|bad| (d, bad)));
        match existing {
            Some((slot, bad)) => {
                *slot = bad
                    .with_violation(crate::FieldViolation::new(field, description))
                    .to_value();
            }
            None => details.push(
                BadRequest::new()
                    .with_violation(crate::FieldViolation::new(field, description))
                    .to_value(),
            ),
        }
        self
    }

    /// Sets the HTTP status a binding answers with, for failures outside the catalogue's
    /// mapping (404 unknown path, 405, 413, 415, 401, 403, 503, 504, ...).
    #[must_use]
    pub fn with_http_status(mut self, status: u16) -> Self {
        self.http_status = Some(status);
        self
    }

    fn details_mut(&mut self) -> &mut Vec<Value> {
        if !matches!(self.data, Some(Value::Array(_))) {
            self.data = Some(Value::Array(Vec::new()));
        }
        match &mut self.data {
            Some(Value::Array(details)) => details,
            _ => unreachable!("just made an array"),
        }
    }

    // ----- accessors -------------------------------------------------------------------------

    /// The code. For an error received from a peer, the code its `ErrorInfo` reason names wins
    /// over the numeric code (in 1.0 the reason is the more precise identification).
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `google.rpc` details (empty when `data` is not an array, as in 0.x).
    pub fn details(&self) -> &[Value] {
        match &self.data {
            Some(Value::Array(details)) => details,
            _ => &[],
        }
    }

    /// `data` as carried: the details array in 1.0, free-form in 0.x.
    pub fn data(&self) -> Option<&Value> {
        self.data.as_ref()
    }

    /// The first `ErrorInfo` of the details.
    pub fn error_info(&self) -> Option<ErrorInfo> {
        self.details().iter().find_map(ErrorInfo::from_value)
    }

    /// The `reason` of the first `ErrorInfo`, else the code's catalogue reason.
    pub fn reason(&self) -> Option<&str> {
        self.details()
            .iter()
            .find(|d| is_error_info(d))
            .and_then(|d| d.get("reason")?.as_str())
            .or_else(|| self.code.reason())
    }

    /// A metadata value of the first `ErrorInfo`.
    pub fn metadata(&self, key: &str) -> Option<&str> {
        self.details()
            .iter()
            .find(|d| is_error_info(d))?
            .get("metadata")?
            .get(key)?
            .as_str()
    }

    /// The delay after which the call may be tried again, from the error's
    /// `google.rpc.RetryInfo` (`retryDelay`, ProtoJSON `Duration`: seconds with an `s`);
    /// `None` when it has none, which says nothing about whether a retry may succeed.
    pub fn retry_after(&self) -> Option<Duration> {
        let delay = self
            .details()
            .iter()
            .find(|d| d.get("@type").and_then(Value::as_str) == Some(RETRY_INFO))?
            .get("retryDelay")?
            .as_str()?
            .strip_suffix('s')?;
        let seconds: f64 = delay.parse().ok()?;
        (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
    }

    /// The value of the `Retry-After` header an HTTP binding answers this error with: the
    /// [`retry_after`](Self::retry_after) delay in whole seconds, at least 1.
    pub fn retry_after_header(&self) -> Option<String> {
        self.retry_after().map(|d| retry_seconds(d).to_string())
    }

    /// The HTTP status of the error: the one set with
    /// [`with_http_status`](Self::with_http_status), else the catalogue's (spec 1.0.1 §5.4),
    /// else 400 for the JSON-RPC request errors, 404 for an unknown method, 500 otherwise.
    pub fn http_status(&self) -> u16 {
        self.http_status
            .or_else(|| self.code.http_status())
            .unwrap_or(match self.code {
                ErrorCode::PARSE_ERROR | ErrorCode::INVALID_REQUEST => 400,
                ErrorCode::METHOD_NOT_FOUND => 404,
                _ => 500,
            })
    }

    /// The HTTP status set explicitly, if any.
    pub fn explicit_http_status(&self) -> Option<u16> {
        self.http_status
    }

    /// The gRPC status code (`google.rpc.Code`): the catalogue's when no HTTP status was set,
    /// else the one the HTTP status maps to.
    pub fn grpc_code(&self) -> i32 {
        self.grpc().0
    }

    /// The canonical name of [`grpc_code`](Self::grpc_code), e.g. `NOT_FOUND`.
    pub fn grpc_status(&self) -> &'static str {
        self.grpc().1
    }

    fn grpc(&self) -> (i32, &'static str) {
        if self.http_status.is_none()
            && let (Some(code), Some(name)) = (self.code.grpc_code(), self.code.grpc_status())
        {
            return (code, name);
        }
        grpc_for_http(self.http_status())
    }

    // ----- renderings ------------------------------------------------------------------------

    /// The JSON-RPC error object: code, message, and the details as `data`.
    pub fn to_error_object(&self) -> ErrorObject {
        let mut object = ErrorObject::new(self.code, self.message.clone());
        object.data.clone_from(&self.data);
        object
    }

    /// The HTTP+JSON binding's error document, a `google.rpc.Status` in JSON:
    /// `{"error": {"code": <HTTP status>, "status": "<gRPC status>", "message": …, "details": […]}}`.
    pub fn to_status_json(&self) -> Value {
        json!({"error": {
            "code": self.http_status(),
            "status": self.grpc_status(),
            "message": self.message,
            "details": self.details(),
        }})
    }

    /// Reads a `google.rpc.Status` document (the HTTP+JSON binding's error shape, with or
    /// without the `error` wrapper). The code is the one the first `ErrorInfo`'s reason names,
    /// else the one the gRPC status (or HTTP status) maps to; the HTTP code is kept.
    pub fn from_status_json(document: &Value) -> Option<Self> {
        let status = document.get("error").unwrap_or(document);
        let object = status.as_object()?;
        let message = object
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let details = object
            .get("details")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let http = object
            .get("code")
            .and_then(Value::as_u64)
            .and_then(|c| u16::try_from(c).ok());
        let by_reason = details
            .iter()
            .find_map(ErrorInfo::from_value)
            .and_then(|info| info.code());
        let by_status = object
            .get("status")
            .and_then(Value::as_str)
            .and_then(code_for_grpc_status);
        let code = by_reason
            .or(by_status)
            .or_else(|| http.map(code_for_http))?;
        let mut error = Self::new(code, message);
        if !details.is_empty() {
            error.data = Some(Value::Array(details));
        }
        if http.is_some_and(|h| Some(h) != code.http_status()) {
            error.http_status = http;
        }
        Some(error)
    }
}

impl From<ErrorObject> for A2aError {
    /// Keeps code, message and `data`; a reason naming a known code decides the code.
    fn from(object: ErrorObject) -> Self {
        let code = object.reason_code().unwrap_or(object.code);
        Self {
            code,
            message: object.message,
            data: object.data,
            http_status: None,
        }
    }
}

impl From<A2aError> for ErrorObject {
    fn from(error: A2aError) -> Self {
        let mut object = ErrorObject::new(error.code, error.message);
        object.data = error.data;
        object
    }
}

impl fmt::Display for A2aError {
    /// The message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for A2aError {}

/// The `@type` of a `google.rpc.RetryInfo` detail in JSON.
const RETRY_INFO: &str = "type.googleapis.com/google.rpc.RetryInfo";

/// A retry delay in whole seconds, rounded up, at least 1.
fn retry_seconds(delay: Duration) -> u64 {
    let whole = delay.as_secs() + u64::from(delay.subsec_nanos() > 0);
    whole.max(1)
}

/// The gRPC status an HTTP status maps to (the `google.rpc.Code` table's HTTP mapping).
fn grpc_for_http(status: u16) -> (i32, &'static str) {
    match status {
        200..=299 => (0, "OK"),
        400 | 405 | 411 | 413 | 414 | 415 | 422 => (3, "INVALID_ARGUMENT"),
        401 => (16, "UNAUTHENTICATED"),
        403 => (7, "PERMISSION_DENIED"),
        404 => (5, "NOT_FOUND"),
        408 | 504 => (4, "DEADLINE_EXCEEDED"),
        409 => (10, "ABORTED"),
        412 => (9, "FAILED_PRECONDITION"),
        429 => (8, "RESOURCE_EXHAUSTED"),
        499 => (1, "CANCELLED"),
        501 => (12, "UNIMPLEMENTED"),
        503 => (14, "UNAVAILABLE"),
        500..=599 => (13, "INTERNAL"),
        _ => (2, "UNKNOWN"),
    }
}

/// The catalogue code of a gRPC status name, for statuses that name one code alone.
fn code_for_grpc_status(status: &str) -> Option<ErrorCode> {
    match status {
        "NOT_FOUND" => Some(ErrorCode::TASK_NOT_FOUND),
        "INVALID_ARGUMENT" => Some(ErrorCode::INVALID_PARAMS),
        "INTERNAL" => Some(ErrorCode::INTERNAL_ERROR),
        "UNIMPLEMENTED" => Some(ErrorCode::UNSUPPORTED_OPERATION),
        _ => None,
    }
}

/// The code an HTTP status alone stands for.
fn code_for_http(status: u16) -> ErrorCode {
    match status {
        404 => ErrorCode::TASK_NOT_FOUND,
        400..=499 => ErrorCode::INVALID_REQUEST,
        _ => ErrorCode::INTERNAL_ERROR,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(error: &A2aError) -> Value {
        serde_json::to_value(error.to_error_object()).unwrap()
    }

    /// Every catalogue constructor: code, message, metadata and the three renderings.
    #[test]
    fn the_catalogue() {
        let info = |reason: &str, metadata: Value| {
            let mut info = json!({
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": reason,
                "domain": "a2a-protocol.org",
            });
            if metadata != json!({}) {
                info["metadata"] = metadata;
            }
            info
        };
        let cases = [
            (
                A2aError::task_not_found("t-1"),
                -32001,
                "task t-1 not found",
                Some(info("TASK_NOT_FOUND", json!({"taskId": "t-1"}))),
                404,
                "NOT_FOUND",
            ),
            (
                A2aError::task_not_cancelable("t-1", "TASK_STATE_COMPLETED"),
                -32002,
                "task t-1 is TASK_STATE_COMPLETED and cannot be canceled",
                Some(info(
                    "TASK_NOT_CANCELABLE",
                    json!({"taskId": "t-1", "state": "TASK_STATE_COMPLETED"}),
                )),
                400,
                "FAILED_PRECONDITION",
            ),
            (
                A2aError::push_notification_not_supported(),
                -32003,
                "push notifications are not supported by this agent",
                Some(info("PUSH_NOTIFICATION_NOT_SUPPORTED", json!({}))),
                400,
                "FAILED_PRECONDITION",
            ),
            (
                A2aError::unsupported_operation("no"),
                -32004,
                "no",
                Some(info("UNSUPPORTED_OPERATION", json!({}))),
                400,
                "FAILED_PRECONDITION",
            ),
            (
                A2aError::content_type_not_supported("image/gif", "text/plain"),
                -32005,
                "media type `image/gif` is not supported; the agent accepts text/plain",
                Some(info(
                    "CONTENT_TYPE_NOT_SUPPORTED",
                    json!({"mediaType": "image/gif"}),
                )),
                400,
                "INVALID_ARGUMENT",
            ),
            (
                A2aError::invalid_agent_response("x"),
                -32006,
                "invalid agent response: x",
                Some(info("INVALID_AGENT_RESPONSE", json!({}))),
                500,
                "INTERNAL",
            ),
            (
                A2aError::extended_agent_card_not_configured(),
                -32007,
                "the extended agent card is not configured",
                Some(info("EXTENDED_AGENT_CARD_NOT_CONFIGURED", json!({}))),
                400,
                "FAILED_PRECONDITION",
            ),
            (
                A2aError::extension_support_required("urn:x"),
                -32008,
                "the agent requires extension urn:x; send it in the A2A-Extensions header",
                Some(info(
                    "EXTENSION_SUPPORT_REQUIRED",
                    json!({"extension": "urn:x"}),
                )),
                400,
                "FAILED_PRECONDITION",
            ),
            (
                A2aError::version_not_supported("send 1.0"),
                -32009,
                "send 1.0",
                Some(info("VERSION_NOT_SUPPORTED", json!({}))),
                400,
                "FAILED_PRECONDITION",
            ),
            (
                A2aError::invalid_params("id is required"),
                -32602,
                "invalid params: id is required",
                Some(info("INVALID_PARAMS", json!({}))),
                400,
                "INVALID_ARGUMENT",
            ),
            (
                A2aError::internal("boom"),
                -32603,
                "internal error: boom",
                Some(info("INTERNAL", json!({}))),
                500,
                "INTERNAL",
            ),
            (
                A2aError::parse_error("eof"),
                -32700,
                "parse error: eof",
                None,
                400,
                "INVALID_ARGUMENT",
            ),
            (
                A2aError::invalid_request("no method"),
                -32600,
                "invalid request: no method",
                None,
                400,
                "INVALID_ARGUMENT",
            ),
            (
                A2aError::method_not_found("Nope"),
                -32601,
                "method not found: Nope",
                None,
                404,
                "NOT_FOUND",
            ),
        ];
        for (error, code, message, detail, http, grpc) in cases {
            let mut expected = json!({"code": code, "message": message});
            if let Some(detail) = &detail {
                expected["data"] = json!([detail]);
            }
            assert_eq!(object(&error), expected, "{message}");
            assert_eq!(error.http_status(), http, "{message}");
            assert_eq!(error.grpc_status(), grpc, "{message}");
            assert_eq!(
                error.to_status_json(),
                json!({"error": {
                    "code": http,
                    "status": grpc,
                    "message": message,
                    "details": detail.map_or_else(Vec::new, |d| vec![d]),
                }}),
                "{message}"
            );
            // What a client reads back is what was sent.
            let received = A2aError::from(error.to_error_object());
            assert_eq!(received.code(), error.code(), "{message}");
            assert_eq!(received.to_error_object(), error.to_error_object());
        }
    }

    /// An outage or overload: 503 / UNAVAILABLE, retryable, the delay in whole seconds.
    #[test]
    fn unavailable_errors_say_when_to_retry() {
        let error = A2aError::unavailable("the store is busy", Duration::from_millis(1500));
        assert_eq!(
            error.to_status_json(),
            json!({"error": {
                "code": 503,
                "status": "UNAVAILABLE",
                "message": "the store is busy",
                "details": [
                    {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INTERNAL",
                     "domain": "a2a-protocol.org", "metadata": {"retryable": "true"}},
                    {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2s"}
                ]
            }})
        );
        assert_eq!(error.grpc_code(), 14);
        assert_eq!(error.retry_after(), Some(Duration::from_secs(2)));
        assert_eq!(error.retry_after_header().as_deref(), Some("2"));
        // A delay under a second is still one: Retry-After has no fractions.
        let soon = A2aError::unavailable("x", Duration::ZERO);
        assert_eq!(soon.retry_after_header().as_deref(), Some("1"));
        // A second delay replaces the first.
        let again = soon.with_retry_after(Duration::from_secs(7));
        assert_eq!(again.details().len(), 2);
        assert_eq!(again.retry_after(), Some(Duration::from_secs(7)));
        // What a client reads back keeps the delay, over either rendering.
        let received = A2aError::from(error.to_error_object());
        assert_eq!(received.retry_after(), Some(Duration::from_secs(2)));
        let read = A2aError::from_status_json(&error.to_status_json()).unwrap();
        assert_eq!(
            (read.http_status(), read.retry_after()),
            (503, Some(Duration::from_secs(2)))
        );
        assert_eq!(A2aError::internal("boom").retry_after(), None);
    }

    #[test]
    fn transport_failures_carry_their_status() {
        let error =
            A2aError::invalid_request("the request body is larger than the limit of 10 bytes")
                .with_http_status(413);
        assert_eq!(error.http_status(), 413);
        assert_eq!(error.grpc_status(), "INVALID_ARGUMENT");
        let error = A2aError::new(ErrorCode::INVALID_REQUEST, "who are you?").with_http_status(401);
        assert_eq!(
            (error.grpc_code(), error.grpc_status()),
            (16, "UNAUTHENTICATED")
        );
        let back = A2aError::from_status_json(&error.to_status_json()).unwrap();
        assert_eq!(back.http_status(), 401);
        assert_eq!(back.code(), ErrorCode::INVALID_REQUEST);
    }

    #[test]
    fn received_status_documents() {
        // Python's REST handler: reason decides the code.
        let doc = json!({"error": {"code": 400, "status": "FAILED_PRECONDITION", "message": "nope",
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_CANCELABLE", "domain": "a2a-protocol.org",
                "metadata": {"taskId": "t"}}]}});
        let error = A2aError::from_status_json(&doc).unwrap();
        assert_eq!(error.code(), ErrorCode::TASK_NOT_CANCELABLE);
        assert_eq!(error.metadata("taskId"), Some("t"));
        assert_eq!(error.message(), "nope");
        // No details: the status, else the HTTP code.
        let bare = json!({"code": 404, "status": "NOT_FOUND", "message": "gone"});
        assert_eq!(
            A2aError::from_status_json(&bare).unwrap().code(),
            ErrorCode::TASK_NOT_FOUND
        );
        let http_only = json!({"error": {"code": 503, "message": "later"}});
        let error = A2aError::from_status_json(&http_only).unwrap();
        assert_eq!(
            (error.code(), error.http_status()),
            (ErrorCode::INTERNAL_ERROR, 503)
        );
        assert_eq!(A2aError::from_status_json(&json!("text")), None);
        assert_eq!(
            A2aError::from_status_json(&json!({"error": {"message": "?"}})),
            None
        );
    }

    #[test]
    fn builders() {
        let error = A2aError::invalid_params("bad")
            .with_field_violation("pageSize", "must be between 1 and 100")
            .with_field_violation("status", "unknown state")
            .with_metadata("parameter", "pageSize");
        assert_eq!(
            object(&error)["data"],
            json!([
                {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INVALID_PARAMS",
                 "domain": "a2a-protocol.org", "metadata": {"parameter": "pageSize"}},
                {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [
                    {"field": "pageSize", "description": "must be between 1 and 100"},
                    {"field": "status", "description": "unknown state"}]}
            ])
        );
        // A free-form 0.x `data` is kept as received.
        let legacy = A2aError::from(
            ErrorObject::new(ErrorCode::TASK_NOT_FOUND, "x").with_data(json!("t-1")),
        );
        assert_eq!(legacy.data(), Some(&json!("t-1")));
        assert!(legacy.details().is_empty());
        assert_eq!(legacy.reason(), Some("TASK_NOT_FOUND"));
    }
}
