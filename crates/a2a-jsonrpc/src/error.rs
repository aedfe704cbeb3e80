//! The JSON-RPC error object and the `google.rpc` details A2A 1.0 puts in its `data`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::ErrorCode;

/// The `domain` of the `google.rpc.ErrorInfo` of A2A errors.
pub const A2A_ERROR_DOMAIN: &str = "a2a-protocol.org";

/// The `@type` of a `google.rpc.ErrorInfo` detail.
pub const ERROR_INFO_TYPE: &str = "type.googleapis.com/google.rpc.ErrorInfo";

/// The `@type` of a `google.rpc.BadRequest` detail.
pub const BAD_REQUEST_TYPE: &str = "type.googleapis.com/google.rpc.BadRequest";

/// The reason [`ErrorInfo::for_code`] uses for codes that have none.
const UNKNOWN_REASON: &str = "UNKNOWN";

/// A JSON-RPC error object: `{"code": …, "message": …, "data": …}`.
///
/// It serializes with its members in that order, and without `data` when that is `None`. The
/// objects inside `data` are `serde_json` values, so their members come out in `serde_json`'s map
/// order: sorted by name (`@type` first) unless some crate in the build turns on serde_json's
/// `preserve_order` feature, in which case they keep the order the builders write
/// (`@type`, `reason`, `domain`, `metadata`).
///
/// # What goes in `data`
///
/// * **A2A 1.0** makes `data` an **array** of ProtoJSON `google.protobuf.Any` objects, each with an
///   `@type`. A2A errors should carry a `google.rpc.ErrorInfo` ([`ErrorInfo`]) whose `reason` names
///   the error (`TASK_NOT_FOUND`) and whose `domain` is `a2a-protocol.org`, with string
///   `metadata`; validation errors may carry a `google.rpc.BadRequest` ([`BadRequest`]) listing
///   the bad fields. The builders [`a2a`](Self::a2a), [`with_metadata`](Self::with_metadata),
///   [`with_error_info`](Self::with_error_info),
///   [`with_field_violation`](Self::with_field_violation) and [`with_detail`](Self::with_detail)
///   write that shape, and [`error_info`](Self::error_info), [`bad_request`](Self::bad_request),
///   [`reason`](Self::reason) and [`reason_code`](Self::reason_code) read it back.
/// * **A2A 0.x** (and plain JSON-RPC) leave `data` free-form: any JSON value, set with
///   [`with_data`](Self::with_data) and read from the public field. The 1.0 builders replace a
///   `data` that is not an array.
///
/// ```
/// use a2a_jsonrpc::{A2aError, ErrorCode, ErrorObject};
///
/// let error = ErrorObject::from(A2aError::task_not_found("task-123"));
/// assert_eq!(
///     serde_json::to_value(&error).unwrap(),
///     serde_json::json!({
///         "code": -32001,
///         "message": "task task-123 not found",
///         "data": [{
///             "@type": "type.googleapis.com/google.rpc.ErrorInfo",
///             "reason": "TASK_NOT_FOUND",
///             "domain": "a2a-protocol.org",
///             "metadata": {"taskId": "task-123"}
///         }]
///     })
/// );
/// assert_eq!(error.reason_code(), Some(ErrorCode::TASK_NOT_FOUND));
/// assert_eq!(error.metadata("taskId"), Some("task-123"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ErrorObject {
    /// The error code.
    pub code: ErrorCode,
    /// A short description. A missing `message` deserializes as an empty string.
    #[serde(default)]
    pub message: Cow<'static, str>,
    /// Additional information: an array of `google.rpc` details in A2A 1.0, free-form in 0.x.
    /// `"data": null` deserializes as `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// An error with this code and message and no `data`.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// An error with the code's [default message](ErrorCode::default_message) (or `"Unknown error"`)
    /// and no `data`. The same as `ErrorObject::from(code)`.
    #[must_use]
    pub fn from_code(code: ErrorCode) -> Self {
        Self::new(code, code.default_message().unwrap_or("Unknown error"))
    }

    /// An A2A 1.0 error: this code and message, and `data` holding the code's
    /// [`ErrorInfo`] (reason from [`ErrorCode::reason`], domain `a2a-protocol.org`, no metadata).
    /// Codes without a reason get no `data`; add details with the `with_*` builders.
    ///
    /// ```
    /// use a2a_jsonrpc::{ErrorCode, ErrorObject};
    ///
    /// let error = ErrorObject::a2a(ErrorCode::TASK_NOT_CANCELABLE, "Task is completed")
    ///     .with_metadata("taskId", "t-1")
    ///     .with_metadata("state", "TASK_STATE_COMPLETED");
    /// let info = error.error_info().unwrap();
    /// assert_eq!(info.reason, "TASK_NOT_CANCELABLE");
    /// assert_eq!(info.metadata["state"], "TASK_STATE_COMPLETED");
    /// ```
    #[must_use]
    pub fn a2a(code: ErrorCode, message: impl Into<Cow<'static, str>>) -> Self {
        let error = Self::new(code, message);
        match code.reason() {
            Some(_) => error.with_error_info(ErrorInfo::for_code(code)),
            None => error,
        }
    }

    // ----- JSON-RPC errors -------------------------------------------------------------------

    /// -32700, as the dispatcher sends it: `"parse error: <detail>"`.
    #[must_use]
    pub fn parse_error(detail: impl fmt::Display) -> Self {
        Self::new(ErrorCode::PARSE_ERROR, format!("parse error: {detail}"))
    }

    /// -32600, as the dispatcher sends it: `"invalid request: <detail>"`.
    #[must_use]
    pub fn invalid_request(detail: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::INVALID_REQUEST,
            format!("invalid request: {detail}"),
        )
    }

    /// -32601 naming the method: `"method not found: <method>"`.
    #[must_use]
    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("method not found: {method}"),
        )
    }

    /// -32602 with a message: `"invalid params: <detail>"`, and no `data`.
    #[must_use]
    pub fn invalid_params(detail: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::INVALID_PARAMS,
            format!("invalid params: {detail}"),
        )
    }

    /// -32602 about one field: the message is `"invalid params: <field>: <description>"` (or
    /// without `<field>: ` when `field` is empty), and `data` holds a `google.rpc.BadRequest` with
    /// that field violation. `field` is a path such as `message.parts[0]`.
    ///
    /// ```
    /// use a2a_jsonrpc::ErrorObject;
    ///
    /// let error = ErrorObject::invalid_params_at("message.parts[0]", "a part needs content");
    /// assert_eq!(error.message, "invalid params: message.parts[0]: a part needs content");
    /// assert_eq!(
    ///     serde_json::to_value(&error.data).unwrap(),
    ///     serde_json::json!([{
    ///         "@type": "type.googleapis.com/google.rpc.BadRequest",
    ///         "fieldViolations": [
    ///             {"field": "message.parts[0]", "description": "a part needs content"}
    ///         ]
    ///     }])
    /// );
    /// ```
    #[must_use]
    pub fn invalid_params_at(field: impl Into<String>, description: impl Into<String>) -> Self {
        let field = field.into();
        let description = description.into();
        let message = if field.is_empty() {
            format!("invalid params: {description}")
        } else {
            format!("invalid params: {field}: {description}")
        };
        Self::new(ErrorCode::INVALID_PARAMS, message).with_field_violation(field, description)
    }

    /// -32603: `"internal error: <detail>"`, and no `data`.
    #[must_use]
    pub fn internal_error(detail: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::INTERNAL_ERROR,
            format!("internal error: {detail}"),
        )
    }

    // ----- builders --------------------------------------------------------------------------

    /// Replaces `data` with any value (the 0.x free-form style).
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// Runs `edit` on the 1.0 details array, making `data` one first if it is not an array.
    fn edit_details(mut self, edit: impl FnOnce(&mut Vec<Value>)) -> Self {
        let mut details = match self.data.take() {
            Some(Value::Array(details)) => details,
            _ => Vec::new(),
        };
        edit(&mut details);
        self.data = Some(Value::Array(details));
        self
    }

    /// Appends a detail (a JSON object that should carry an `@type`) to the 1.0 `data` array.
    /// A `data` that is not an array is replaced.
    #[must_use]
    pub fn with_detail(self, detail: Value) -> Self {
        self.edit_details(|details| details.push(detail))
    }

    /// Adds an [`ErrorInfo`] to the 1.0 `data` array, before any other detail.
    /// A `data` that is not an array is replaced.
    #[must_use]
    pub fn with_error_info(self, info: ErrorInfo) -> Self {
        self.edit_details(|details| details.insert(0, info.to_value()))
    }

    /// Sets `key` to `value` in the `metadata` of the first `ErrorInfo` in `data`.
    ///
    /// Without one, an [`ErrorInfo::for_code`] of this error's code is added first. A `data` that
    /// is not an array is replaced.
    #[must_use]
    pub fn with_metadata(self, key: impl Into<String>, value: impl Into<String>) -> Self {
        let code = self.code;
        let (key, value) = (key.into(), value.into());
        self.edit_details(|details| {
            let index = match details.iter().position(is_error_info) {
                Some(index) => index,
                None => {
                    details.insert(0, ErrorInfo::for_code(code).to_value());
                    0
                }
            };
            if let Some(Value::Object(info)) = details.get_mut(index) {
                let metadata = info
                    .entry("metadata")
                    .or_insert_with(|| Value::Object(Map::new()));
                if !metadata.is_object() {
                    *metadata = Value::Object(Map::new());
                }
                if let Value::Object(metadata) = metadata {
                    metadata.insert(key, Value::String(value));
                }
            }
        })
    }

    /// Adds a field violation to the first `google.rpc.BadRequest` in `data`, adding the
    /// `BadRequest` at the end if there is none. A `data` that is not an array is replaced.
    #[must_use]
    pub fn with_field_violation(
        self,
        field: impl Into<String>,
        description: impl Into<String>,
    ) -> Self {
        let violation = FieldViolation::new(field, description).to_value();
        self.edit_details(|details| {
            let index = match details.iter().position(is_bad_request) {
                Some(index) => index,
                None => {
                    details.push(BadRequest::default().to_value());
                    details.len() - 1
                }
            };
            if let Some(Value::Object(bad_request)) = details.get_mut(index) {
                let list = bad_request
                    .entry("fieldViolations")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if !list.is_array() {
                    *list = Value::Array(Vec::new());
                }
                if let Value::Array(list) = list {
                    list.push(violation);
                }
            }
        })
    }

    // ----- accessors -------------------------------------------------------------------------

    /// The 1.0 details: the elements of `data` if it is an array, else nothing.
    #[must_use]
    pub fn details(&self) -> &[Value] {
        match &self.data {
            Some(Value::Array(details)) => details,
            _ => &[],
        }
    }

    /// The first `google.rpc.ErrorInfo` in `data`, read leniently (missing members are empty,
    /// non-string metadata values are skipped).
    #[must_use]
    pub fn error_info(&self) -> Option<ErrorInfo> {
        self.details().iter().find_map(ErrorInfo::from_value)
    }

    /// The first `google.rpc.BadRequest` in `data`, read leniently.
    #[must_use]
    pub fn bad_request(&self) -> Option<BadRequest> {
        self.details().iter().find_map(BadRequest::from_value)
    }

    /// The `reason` of the first `ErrorInfo` in `data`.
    #[must_use]
    pub fn reason(&self) -> Option<&str> {
        self.first_error_info()?.get("reason")?.as_str()
    }

    /// A metadata value of the first `ErrorInfo` in `data`.
    #[must_use]
    pub fn metadata(&self, key: &str) -> Option<&str> {
        self.first_error_info()?.get("metadata")?.get(key)?.as_str()
    }

    /// The code named by the `reason` of the first `ErrorInfo` in `data` (see
    /// [`ErrorInfo::code`]). A client can compare it with [`code`](Self::code) or prefer it: in 1.0
    /// the reason is the more precise identification.
    #[must_use]
    pub fn reason_code(&self) -> Option<ErrorCode> {
        self.error_info()?.code()
    }

    fn first_error_info(&self) -> Option<&Map<String, Value>> {
        self.details()
            .iter()
            .find(|detail| is_error_info(detail))?
            .as_object()
    }
}

impl From<ErrorCode> for ErrorObject {
    fn from(code: ErrorCode) -> Self {
        Self::from_code(code)
    }
}

impl fmt::Display for ErrorObject {
    /// `<code>: <message>`, e.g. `TaskNotFoundError (-32001): Task not found: t-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ErrorObject {}

fn has_type(value: &Value, type_url: &str) -> bool {
    value.get("@type").and_then(Value::as_str) == Some(type_url)
}

pub(crate) fn is_error_info(value: &Value) -> bool {
    has_type(value, ERROR_INFO_TYPE)
}

fn is_bad_request(value: &Value) -> bool {
    has_type(value, BAD_REQUEST_TYPE)
}

fn string_member(object: &Map<String, Value>, key: &str) -> String {
    object
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// A `google.rpc.ErrorInfo`: why an error happened, as a machine-readable `reason` within a
/// `domain`, with string `metadata`.
///
/// Serialized it carries its `@type` first, and omits `metadata` when it is empty (as ProtoJSON
/// does):
///
/// ```
/// use a2a_jsonrpc::{ErrorCode, ErrorInfo};
///
/// let info = ErrorInfo::for_code(ErrorCode::TASK_NOT_FOUND).with_metadata("taskId", "t-1");
/// assert_eq!(
///     serde_json::to_string(&info).unwrap(),
///     concat!(
///         r#"{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","#,
///         r#""domain":"a2a-protocol.org","metadata":{"taskId":"t-1"}}"#,
///     )
/// );
/// assert_eq!(info.code(), Some(ErrorCode::TASK_NOT_FOUND));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct ErrorInfo {
    /// The reason, in `UPPER_SNAKE_CASE`, e.g. `TASK_NOT_FOUND`.
    pub reason: String,
    /// Where the reason is defined: `a2a-protocol.org` for A2A errors.
    pub domain: String,
    /// Details as string pairs. Keys are lowerCamelCase by convention (`taskId`).
    pub metadata: BTreeMap<String, String>,
}

impl ErrorInfo {
    /// An `ErrorInfo` with this reason and domain and no metadata.
    #[must_use]
    pub fn new(reason: impl Into<String>, domain: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
            domain: domain.into(),
            metadata: BTreeMap::new(),
        }
    }

    /// The A2A `ErrorInfo` of a code: its [`reason`](ErrorCode::reason) (or `UNKNOWN` for codes
    /// without one) and domain `a2a-protocol.org`.
    #[must_use]
    pub fn for_code(code: ErrorCode) -> Self {
        Self::new(code.reason().unwrap_or(UNKNOWN_REASON), A2A_ERROR_DOMAIN)
    }

    /// Adds a metadata entry.
    #[must_use]
    pub fn with_metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }

    /// The A2A code this reason names, when the domain is `a2a-protocol.org` (or empty) and the
    /// reason is one of [`ErrorCode::reason`]'s.
    #[must_use]
    pub fn code(&self) -> Option<ErrorCode> {
        if self.domain == A2A_ERROR_DOMAIN || self.domain.is_empty() {
            ErrorCode::from_reason(&self.reason)
        } else {
            None
        }
    }

    /// Reads an `ErrorInfo` from a detail object, if its `@type` says it is one. Missing members
    /// read as empty, and metadata values that are not strings are skipped.
    #[must_use]
    pub fn from_value(value: &Value) -> Option<Self> {
        if !is_error_info(value) {
            return None;
        }
        let object = value.as_object()?;
        let metadata = object
            .get("metadata")
            .and_then(Value::as_object)
            .map(|metadata| {
                metadata
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                    .collect()
            })
            .unwrap_or_default();
        Some(Self {
            reason: string_member(object, "reason"),
            domain: string_member(object, "domain"),
            metadata,
        })
    }

    /// The detail object, with its `@type`.
    #[must_use]
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("@type".to_owned(), Value::from(ERROR_INFO_TYPE));
        object.insert("reason".to_owned(), Value::from(self.reason.as_str()));
        object.insert("domain".to_owned(), Value::from(self.domain.as_str()));
        if !self.metadata.is_empty() {
            let metadata = self
                .metadata
                .iter()
                .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                .collect();
            object.insert("metadata".to_owned(), Value::Object(metadata));
        }
        Value::Object(object)
    }
}

impl Serialize for ErrorInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = if self.metadata.is_empty() { 3 } else { 4 };
        let mut s = serializer.serialize_struct("ErrorInfo", len)?;
        s.serialize_field("@type", ERROR_INFO_TYPE)?;
        s.serialize_field("reason", &self.reason)?;
        s.serialize_field("domain", &self.domain)?;
        if !self.metadata.is_empty() {
            s.serialize_field("metadata", &self.metadata)?;
        }
        s.end()
    }
}

/// A `google.rpc.BadRequest`: the fields of a request that were wrong.
///
/// ```
/// use a2a_jsonrpc::{BadRequest, FieldViolation};
///
/// let bad = BadRequest::new().with_violation(FieldViolation::new("id", "must not be empty"));
/// assert_eq!(
///     serde_json::to_string(&bad).unwrap(),
///     concat!(
///         r#"{"@type":"type.googleapis.com/google.rpc.BadRequest","#,
///         r#""fieldViolations":[{"field":"id","description":"must not be empty"}]}"#,
///     )
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct BadRequest {
    /// One entry per bad field.
    pub field_violations: Vec<FieldViolation>,
}

impl BadRequest {
    /// An empty `BadRequest`.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a field violation.
    #[must_use]
    pub fn with_violation(mut self, violation: FieldViolation) -> Self {
        self.field_violations.push(violation);
        self
    }

    /// Reads a `BadRequest` from a detail object, if its `@type` says it is one, leniently:
    /// violations that are not objects are skipped and missing members read as empty.
    #[must_use]
    pub fn from_value(value: &Value) -> Option<Self> {
        if !is_bad_request(value) {
            return None;
        }
        let field_violations = value
            .get("fieldViolations")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_object)
                    .map(|v| FieldViolation {
                        field: string_member(v, "field"),
                        description: string_member(v, "description"),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(Self { field_violations })
    }

    /// The detail object, with its `@type`.
    #[must_use]
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("@type".to_owned(), Value::from(BAD_REQUEST_TYPE));
        let list = self
            .field_violations
            .iter()
            .map(FieldViolation::to_value)
            .collect();
        object.insert("fieldViolations".to_owned(), Value::Array(list));
        Value::Object(object)
    }
}

impl Serialize for BadRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("BadRequest", 2)?;
        s.serialize_field("@type", BAD_REQUEST_TYPE)?;
        s.serialize_field("fieldViolations", &self.field_violations)?;
        s.end()
    }
}

/// One entry of a [`BadRequest`]: a field path (`message.parts[0]`) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct FieldViolation {
    /// The path of the field, dot-separated with `[i]` for list elements.
    pub field: String,
    /// What is wrong with it.
    pub description: String,
}

impl FieldViolation {
    /// A violation of `field`.
    #[must_use]
    pub fn new(field: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            description: description.into(),
        }
    }

    fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("field".to_owned(), Value::from(self.field.as_str()));
        object.insert(
            "description".to_owned(),
            Value::from(self.description.as_str()),
        );
        Value::Object(object)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::A2aError;

    fn to_string(error: &ErrorObject) -> String {
        serde_json::to_string(error).unwrap()
    }

    #[test]
    fn member_order_and_no_data() {
        let error = ErrorObject::method_not_found("Foo");
        assert_eq!(
            to_string(&error),
            r#"{"code":-32601,"message":"method not found: Foo"}"#
        );
        assert_eq!(
            to_string(&ErrorObject::from(ErrorCode::INTERNAL_ERROR)),
            r#"{"code":-32603,"message":"Internal error"}"#
        );
        assert_eq!(
            to_string(&ErrorObject::from(ErrorCode(7))),
            r#"{"code":7,"message":"Unknown error"}"#
        );
    }

    #[test]
    fn literal_bytes_of_task_not_found() {
        let text = to_string(&ErrorObject::from(A2aError::task_not_found("task-123")));
        // code, message, data in that order; inside data, serde_json's map order.
        assert!(
            text.starts_with(
                r#"{"code":-32001,"message":"task task-123 not found","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","#
            ),
            "{text}"
        );
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            json!({"code": -32001, "message": "task task-123 not found", "data": [{
                "@type": ERROR_INFO_TYPE,
                "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org",
                "metadata": {"taskId": "task-123"}
            }]})
        );
    }

    #[test]
    fn invalid_params_at_shape() {
        let error = ErrorObject::invalid_params_at("message.role", "unknown variant `x`");
        let text = to_string(&error);
        assert!(
            text.starts_with(
                r#"{"code":-32602,"message":"invalid params: message.role: unknown variant `x`","data":[{"@type":"type.googleapis.com/google.rpc.BadRequest","#
            ),
            "{text}"
        );
        assert_eq!(
            serde_json::to_value(&error.data).unwrap(),
            json!([{
                "@type": BAD_REQUEST_TYPE,
                "fieldViolations": [{"field": "message.role", "description": "unknown variant `x`"}]
            }])
        );
        let bad = error.bad_request().unwrap();
        assert_eq!(bad.field_violations.len(), 1);
        assert_eq!(bad.field_violations[0].field, "message.role");
        assert_eq!(error.error_info(), None);
        assert_eq!(error.reason_code(), None);

        let root = ErrorObject::invalid_params_at("", "expected an object");
        assert_eq!(root.message, "invalid params: expected an object");
        let more = root.with_field_violation("id", "missing");
        assert_eq!(more.bad_request().unwrap().field_violations.len(), 2);
    }

    #[test]
    fn builders_compose() {
        let error = ErrorObject::invalid_params_at("id", "empty")
            .with_metadata("k", "v")
            .with_detail(json!({"@type": "type.googleapis.com/google.rpc.RetryInfo"}));
        let details = error.details();
        assert_eq!(details.len(), 3);
        // The ErrorInfo went first, with the reason of the error's own code.
        assert_eq!(details[0]["reason"], "INVALID_PARAMS");
        assert_eq!(details[0]["metadata"]["k"], "v");
        assert_eq!(details[1]["@type"], BAD_REQUEST_TYPE);
        assert_eq!(error.metadata("k"), Some("v"));
        assert_eq!(error.metadata("nope"), None);
        assert_eq!(error.reason_code(), Some(ErrorCode::INVALID_PARAMS));

        // Metadata on a custom code without a reason.
        let custom = ErrorObject::new(ErrorCode(-32050), "custom").with_metadata("a", "b");
        assert_eq!(custom.reason(), Some("UNKNOWN"));
        assert_eq!(custom.reason_code(), None);

        // a2a() on an unknown code adds no data.
        assert_eq!(ErrorObject::a2a(ErrorCode(-32050), "x").data, None);
    }

    #[test]
    fn free_form_data_is_replaced_by_the_1_0_builders() {
        let error = ErrorObject::new(ErrorCode::INTERNAL_ERROR, "boom").with_data(json!("trace"));
        assert_eq!(error.details(), &[] as &[Value]);
        assert_eq!(error.error_info(), None);
        let error = error.with_metadata("a", "b");
        assert_eq!(error.details().len(), 1);
    }

    #[test]
    fn lenient_reading() {
        let error: ErrorObject = serde_json::from_value(json!({
            "code": -32001,
            "message": "gone",
            "data": [
                "not an object",
                {"@type": ERROR_INFO_TYPE, "reason": "TASK_NOT_FOUND",
                 "metadata": {"taskId": "t", "n": 1}},
                {"@type": BAD_REQUEST_TYPE, "fieldViolations": [1, {"field": "x"}]}
            ]
        }))
        .unwrap();
        let info = error.error_info().unwrap();
        assert_eq!(info.domain, "");
        assert_eq!(info.metadata.len(), 1);
        assert_eq!(info.code(), Some(ErrorCode::TASK_NOT_FOUND));
        let bad = error.bad_request().unwrap();
        assert_eq!(bad.field_violations, vec![FieldViolation::new("x", "")]);

        let other_domain = ErrorInfo::new("TASK_NOT_FOUND", "example.com");
        assert_eq!(other_domain.code(), None);
    }

    #[test]
    fn deserialize_error_object() {
        let error: ErrorObject =
            serde_json::from_str(r#"{"code":-32601,"message":"nope","data":null,"extra":1}"#)
                .unwrap();
        assert_eq!(error, ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, "nope"));
        let error: ErrorObject = serde_json::from_str(r#"{"code":5}"#).unwrap();
        assert_eq!(error.message, "");
        assert!(serde_json::from_str::<ErrorObject>(r#"{"message":"x"}"#).is_err());
        assert!(serde_json::from_str::<ErrorObject>(r#"{"code":1.5,"message":"x"}"#).is_err());
    }

    #[test]
    fn display_and_error_trait() {
        let error = ErrorObject::from(A2aError::task_not_found("t-1"));
        assert_eq!(
            error.to_string(),
            "TaskNotFoundError (-32001): task t-1 not found"
        );
        let boxed: Box<dyn std::error::Error> = Box::new(error);
        assert!(boxed.to_string().contains("t-1"));
        assert_eq!(ErrorObject::new(ErrorCode(12), "x").to_string(), "12: x");
    }

    #[test]
    fn detail_types_round_trip() {
        let info = ErrorInfo::new("R", "d").with_metadata("k", "v");
        let value = serde_json::to_value(&info).unwrap();
        assert_eq!(value, info.to_value());
        assert_eq!(ErrorInfo::from_value(&value), Some(info.clone()));
        assert_eq!(serde_json::from_value::<ErrorInfo>(value).unwrap(), info);

        let bad = BadRequest::new().with_violation(FieldViolation::new("a", "b"));
        let value = serde_json::to_value(&bad).unwrap();
        assert_eq!(value, bad.to_value());
        assert_eq!(BadRequest::from_value(&value), Some(bad.clone()));
        assert_eq!(serde_json::from_value::<BadRequest>(value).unwrap(), bad);
        assert_eq!(BadRequest::from_value(&json!({"@type": "x"})), None);
        assert_eq!(
            serde_json::to_string(&ErrorInfo::new("R", "d")).unwrap(),
            r#"{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"R","domain":"d"}"#
        );
    }
}
