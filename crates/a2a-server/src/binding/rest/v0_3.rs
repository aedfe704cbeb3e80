//! A2A 0.3 over HTTP+JSON: the routes of the 0.3 proto's `google.api.http` options, under
//! `/v1/...`, with the ProtoJSON of the 0.3 proto (package `a2a.v1`): a message's parts are its
//! `content`, parts are `{"text"}`, `{"file": {"fileWithUri"|"fileWithBytes", "mimeType"}}` and
//! `{"data": {"data": {...}}}`, `TASK_STATE_CANCELLED`, status updates carry `final`, `blocking`
//! instead of `returnImmediately`, push configurations are `{"name":
//! "tasks/{id}/pushNotificationConfigs/{configId}", "pushNotificationConfig": {...}}` with
//! `authentication.schemes[]`. Requests are converted to the 1.0 request message and answered by
//! the 1.0 operations; results, events and errors are converted back.
//!
//! A `/v1/...` path is 0.3 unless `A2A-Version` names 1.x (then it is the 1.0 route under the
//! tenant `v1`). Errors are `{"code": <JSON-RPC code>, "type": "<ErrorName>", "message": …,
//! "data": [details]}` with the mapped HTTP status: the JS SDK's 0.3 REST client reads `code` and
//! `message`, the Python SDK's reads `type` and `message`.

use a2a_types::protocol::{Operation, ProtocolVersion};
use a2a_types::v1::TaskState;
use http::{Method, StatusCode};
use serde_json::{Map, Value, json};

use super::v1::{Request, Streaming, Unary};
use super::{Query, Route, percent_decode};
use crate::error::A2aError;
use crate::http::body::A2aBody;
use crate::http::head::RequestedVersion;
use crate::http::response;
use crate::http::sse::Framing;

/// The 0.3 route of a request, when it is one: `None` for a path outside `/v1/`, or a request
/// whose `A2A-Version` names 1.x. A `/v1/` path that is no 0.3 route is a 404 (405 with `Allow`
/// for a route that takes other methods), in the 0.3 error shape.
pub(super) fn resolve(
    head: &http::request::Parts,
) -> Option<Result<Route, Box<http::Response<A2aBody>>>> {
    let rest = head.uri.path().strip_prefix("/v1/")?;
    if RequestedVersion::of(head) == RequestedVersion::V1 {
        return None;
    }
    Some(route(&head.method, rest).map_err(|error| Box::new(error_response(&error))))
}

fn route(method: &Method, rest: &str) -> Result<Route, A2aError> {
    let decode = |segment: &str| {
        percent_decode(segment, false).map_err(|_| {
            A2aError::invalid_params(format!(
                "the path segment `{segment}` is not UTF-8 once percent-decoded"
            ))
            .with_http_status(400)
        })
    };
    let make = |operation, task: Option<&str>, config: Option<&str>| -> Result<Route, A2aError> {
        Ok(Route {
            operation,
            tenant: None,
            task_id: task.map(decode).transpose()?,
            config_id: config.map(decode).transpose()?,
            protocol_version: ProtocolVersion::V0_3,
        })
    };
    let allow = |allowed: &'static str| -> Result<Route, A2aError> {
        Err(
            A2aError::invalid_request(format!("/v1/{rest} takes {allowed}, not {method}"))
                .with_http_status(405),
        )
    };
    let segments: Vec<&str> = rest.split('/').collect();
    let post = *method == Method::POST;
    let get = *method == Method::GET;
    match segments.as_slice() {
        ["message:send"] if post => make(Operation::SendMessage, None, None),
        ["message:stream"] if post => make(Operation::SendStreamingMessage, None, None),
        ["message:send" | "message:stream"] => allow("POST"),
        ["card"] if get => make(Operation::GetExtendedAgentCard, None, None),
        ["card"] => allow("GET"),
        ["tasks", task] if !task.is_empty() => {
            if let Some(id) = task.strip_suffix(":cancel") {
                if post {
                    make(Operation::CancelTask, Some(id), None)
                } else {
                    allow("POST")
                }
            } else if let Some(id) = task.strip_suffix(":subscribe") {
                if post || get {
                    make(Operation::SubscribeToTask, Some(id), None)
                } else {
                    allow("GET, POST")
                }
            } else if get {
                make(Operation::GetTask, Some(task), None)
            } else {
                allow("GET")
            }
        }
        // `task/` is how the 0.3 proto spells the create route; the SDKs use `tasks/`.
        ["tasks" | "task", task, "pushNotificationConfigs"] if !task.is_empty() => {
            if post {
                make(
                    Operation::CreateTaskPushNotificationConfig,
                    Some(task),
                    None,
                )
            } else if get {
                make(Operation::ListTaskPushNotificationConfigs, Some(task), None)
            } else {
                allow("GET, POST")
            }
        }
        ["tasks", task, "pushNotificationConfigs", config]
            if !task.is_empty() && !config.is_empty() =>
        {
            if get {
                make(
                    Operation::GetTaskPushNotificationConfig,
                    Some(task),
                    Some(config),
                )
            } else if *method == Method::DELETE {
                make(
                    Operation::DeleteTaskPushNotificationConfig,
                    Some(task),
                    Some(config),
                )
            } else {
                allow("GET, DELETE")
            }
        }
        _ => Err(A2aError::method_not_found(format!(
            "no A2A 0.3 route is {method} /v1/{rest}; the 0.3 HTTP+JSON routes are \
             /v1/message:send, /v1/message:stream, /v1/tasks/{{id}}, /v1/tasks/{{id}}:cancel, \
             /v1/tasks/{{id}}:subscribe, /v1/tasks/{{id}}/pushNotificationConfigs[/{{configId}}] \
             and /v1/card (0.3 has no task list)"
        ))
        .with_http_status(404)),
    }
}

/// The version check of the 0.3 routes: no header, `0.2.x`/`0.3.x` (a `1.x` header never gets
/// here: its `/v1/...` is the 1.0 route under the tenant `v1`).
pub(super) fn check_version(head: &http::request::Parts) -> Result<(), A2aError> {
    let version = RequestedVersion::of(head);
    match crate::binding::jsonrpc::named_version(&version) {
        Ok(None | Some(ProtocolVersion::V0_3)) => Ok(()),
        _ => {
            let given = match &version {
                RequestedVersion::Other(v) => v.as_str(),
                _ => "",
            };
            Err(A2aError::version_not_supported(format!(
                "A2A version `{given}` is not supported under /v1/, the A2A 0.3 HTTP+JSON \
                 routes; send no A2A-Version (or 0.3), or use the 1.0 routes (without /v1) with \
                 `A2A-Version: 1.0`"
            )))
        }
    }
}

// ----- requests: 0.3 ProtoJSON -> the 1.0 request message --------------------------------------

/// The 1.0 request of a 0.3 route, from its path, query and body.
pub(super) fn decode(route: &Route, query: &Query, body: &[u8]) -> Result<Request, A2aError> {
    let task_id = || Value::String(route.task_id.clone().unwrap_or_default());
    let config_id = || Value::String(route.config_id.clone().unwrap_or_default());
    let request = match route.operation {
        Operation::SendMessage | Operation::SendStreamingMessage => {
            let send = send_request_to_v1(body_value(body)?)?;
            let send = typed(send)?;
            if route.operation == Operation::SendMessage {
                Request::Unary(Unary::SendMessage(Box::new(send)))
            } else {
                Request::Streaming(Streaming::SendStreamingMessage(Box::new(send)))
            }
        }
        Operation::GetTask => {
            let mut get = json!({"id": task_id()});
            // 0.3 reads 0 as "no limit".
            if let Some(n) = query.int("historyLength", 0..=i32::MAX)?.filter(|n| *n > 0) {
                get["historyLength"] = json!(n);
            }
            Request::Unary(Unary::GetTask(typed(get)?))
        }
        Operation::CancelTask => {
            Request::Unary(Unary::CancelTask(typed(json!({"id": task_id()}))?))
        }
        Operation::SubscribeToTask => {
            Request::Streaming(Streaming::SubscribeToTask(typed(json!({"id": task_id()}))?))
        }
        Operation::CreateTaskPushNotificationConfig => {
            let config = push_config_to_v1(body_value(body)?, route.task_id.as_deref())?;
            Request::Unary(Unary::CreatePushConfig(typed(config)?))
        }
        Operation::GetTaskPushNotificationConfig => Request::Unary(Unary::GetPushConfig(typed(
            json!({"taskId": task_id(), "id": config_id()}),
        )?)),
        Operation::ListTaskPushNotificationConfigs => {
            Request::Unary(Unary::ListPushConfigs(typed(json!({"taskId": task_id()}))?))
        }
        Operation::DeleteTaskPushNotificationConfig => Request::Unary(Unary::DeletePushConfig(
            typed(json!({"taskId": task_id(), "id": config_id()}))?,
        )),
        _ => Request::Unary(Unary::GetExtendedAgentCard(typed(json!({}))?)),
    };
    Ok(request)
}

/// The body as JSON (an empty body is `{}`).
fn body_value(body: &[u8]) -> Result<Value, A2aError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(body).map_err(|e| {
        A2aError::invalid_params(format!("the body is not JSON: {e}")).with_http_status(400)
    })
}

/// A 1.0 message from its JSON, errors naming the path of the bad field.
fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, A2aError> {
    a2a_types::json::from_value(value)
        .map_err(|e| A2aError::invalid_params(e).with_http_status(400))
}

/// `SendMessageRequest`: `message` (or the proto field name `request`) with its `content`,
/// and a configuration whose `blocking` (absent: false, as proto3 reads it) and
/// `pushNotification` become `returnImmediately` and `taskPushNotificationConfig`; without a
/// configuration the send blocks, as 0.3 servers answer it.
fn send_request_to_v1(mut body: Value) -> Result<Value, A2aError> {
    let Some(fields) = body.as_object_mut() else {
        return Err(
            A2aError::invalid_params("the body must be a SendMessageRequest object")
                .with_http_status(400),
        );
    };
    let message = fields
        .remove("message")
        .or_else(|| fields.remove("request"))
        .unwrap_or(Value::Null);
    let mut out = Map::new();
    out.insert("message".into(), message_to_v1(message));
    if let Some(config) = fields.remove("configuration").filter(Value::is_object) {
        let mut config = config;
        let c = config.as_object_mut().expect("an object");
        let blocking = c
            .remove("blocking")
            .and_then(|b| b.as_bool())
            .unwrap_or(false);
        c.insert("returnImmediately".into(), Value::Bool(!blocking));
        if let Some(push) = c
            .remove("pushNotification")
            .or_else(|| c.remove("push_notification"))
        {
            c.insert("taskPushNotificationConfig".into(), push_fields_to_v1(push));
        }
        // 0.3 reads a history length of 0 as "no limit".
        if c.get("historyLength").and_then(Value::as_i64) == Some(0) {
            c.remove("historyLength");
        }
        out.insert("configuration".into(), config);
    }
    if let Some(metadata) = fields.remove("metadata") {
        out.insert("metadata".into(), metadata);
    }
    Ok(Value::Object(out))
}

/// A 0.3 message: its parts are `content` (`parts` is read too).
fn message_to_v1(mut message: Value) -> Value {
    if let Some(fields) = message.as_object_mut()
        && let Some(content) = fields.remove("content").or_else(|| fields.remove("parts"))
    {
        let parts = match content {
            Value::Array(parts) => parts.into_iter().map(part_to_v1).collect(),
            other => other,
        };
        fields.insert("parts".into(), parts);
    }
    message
}

/// `{"file": {"fileWithUri"|"fileWithBytes", "mimeType"}}` -> `{"url"|"raw", "mediaType"}`;
/// `{"data": {"data": {...}}}` -> `{"data": {...}}`; text as it is.
fn part_to_v1(mut part: Value) -> Value {
    let Some(fields) = part.as_object_mut() else {
        return part;
    };
    if let Some(Value::Object(mut file)) = fields.remove("file") {
        let take = |file: &mut Map<String, Value>, camel: &str, snake: &str| {
            file.remove(camel).or_else(|| file.remove(snake))
        };
        if let Some(uri) = take(&mut file, "fileWithUri", "file_with_uri") {
            fields.insert("url".into(), uri);
        }
        if let Some(bytes) = take(&mut file, "fileWithBytes", "file_with_bytes") {
            fields.insert("raw".into(), bytes);
        }
        if let Some(mime) = take(&mut file, "mimeType", "mime_type") {
            fields.insert("mediaType".into(), mime);
        }
        if let Some(name) = file.remove("name") {
            fields.insert("filename".into(), name);
        }
    } else if let Some(Value::Object(mut data)) = fields.remove("data") {
        let inner = data.remove("data").unwrap_or(Value::Object(data));
        fields.insert("data".into(), inner);
    }
    part
}

/// A 0.3 `PushNotificationConfig`'s fields as the 1.0 `TaskPushNotificationConfig`'s:
/// `authentication.schemes[0]` is the `scheme`.
fn push_fields_to_v1(mut config: Value) -> Value {
    if let Some(auth) = config
        .get_mut("authentication")
        .and_then(Value::as_object_mut)
    {
        let scheme = auth
            .remove("schemes")
            .and_then(|s| s.as_array().and_then(|s| s.first().cloned()))
            .unwrap_or_else(|| json!(""));
        auth.insert("scheme".into(), scheme);
    }
    config
}

/// The body of the create route, a 0.3 `TaskPushNotificationConfig` (`{"name",
/// "pushNotificationConfig"}`; the request form `{"config": ...}` and a bare
/// `PushNotificationConfig` are read too), as the 1.0 configuration of the task in the path. A
/// configuration without id gets the task's, as the JSON-RPC 0.3 methods give it.
fn push_config_to_v1(body: Value, task_id: Option<&str>) -> Result<Value, A2aError> {
    let body = match body {
        Value::Object(mut fields) if fields.contains_key("config") => {
            fields.remove("config").unwrap_or_default()
        }
        other => other,
    };
    let mut config = match body {
        Value::Object(mut fields) if fields.contains_key("pushNotificationConfig") => {
            fields.remove("pushNotificationConfig").unwrap_or_default()
        }
        other => other,
    };
    let Some(fields) = config.as_object_mut() else {
        return Err(A2aError::invalid_params(
            "the body must be a TaskPushNotificationConfig object",
        )
        .with_http_status(400));
    };
    let task_id = task_id.unwrap_or_default();
    fields.insert("taskId".into(), json!(task_id));
    if fields
        .get("id")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        fields.insert("id".into(), json!(task_id));
    }
    Ok(push_fields_to_v1(config))
}

// ----- results: 1.0 ProtoJSON -> 0.3 ProtoJSON --------------------------------------------------

/// The 0.3 ProtoJSON of an operation's 1.0 result (its JSON as the 1.0 binding writes it).
pub(super) fn result(operation: Operation, v1: &[u8]) -> Vec<u8> {
    let value: Value = serde_json::from_slice(v1).expect("results are JSON");
    let out = match operation {
        Operation::SendMessage => stream_response(value),
        Operation::GetTask | Operation::CancelTask => task(value),
        Operation::CreateTaskPushNotificationConfig | Operation::GetTaskPushNotificationConfig => {
            push_config(value)
        }
        Operation::ListTaskPushNotificationConfigs => {
            let mut value = value;
            if let Some(configs) = value.get_mut("configs").and_then(Value::as_array_mut) {
                for config in configs.iter_mut() {
                    *config = push_config(std::mem::take(config));
                }
            }
            value
        }
        _ => value,
    };
    serde_json::to_vec(&out).expect("JSON serializes")
}

/// `{"task"|"message"|"statusUpdate"|"artifactUpdate": ...}` in the 0.3 shapes (the 0.3
/// `SendMessageResponse` and `StreamResponse` use the same keys).
fn stream_response(mut value: Value) -> Value {
    if let Some(fields) = value.as_object_mut() {
        for (key, inner) in fields.iter_mut() {
            let taken = std::mem::take(inner);
            *inner = match key.as_str() {
                "task" => task(taken),
                "message" => message(taken),
                "statusUpdate" => status_update(taken),
                "artifactUpdate" => artifact_update(taken),
                _ => taken,
            };
        }
    }
    value
}

fn task(mut value: Value) -> Value {
    if let Some(fields) = value.as_object_mut() {
        if let Some(status) = fields.get_mut("status") {
            *status = status_to_v0_3(std::mem::take(status));
        }
        map_list(fields, "artifacts", artifact);
        map_list(fields, "history", message);
    }
    value
}

fn map_list(fields: &mut Map<String, Value>, key: &str, f: fn(Value) -> Value) {
    if let Some(items) = fields.get_mut(key).and_then(Value::as_array_mut) {
        for item in items.iter_mut() {
            *item = f(std::mem::take(item));
        }
    }
}

/// A status: `TASK_STATE_CANCELED` is 0.3's `TASK_STATE_CANCELLED`; its message in the 0.3
/// shape.
fn status_to_v0_3(mut status: Value) -> Value {
    if let Some(fields) = status.as_object_mut() {
        if fields.get("state").and_then(Value::as_str) == Some("TASK_STATE_CANCELED") {
            fields.insert("state".into(), json!("TASK_STATE_CANCELLED"));
        }
        if let Some(message) = fields.get_mut("message") {
            *message = self::message(std::mem::take(message));
        }
    }
    status
}

/// A message: its parts are `content`.
fn message(mut value: Value) -> Value {
    if let Some(fields) = value.as_object_mut()
        && let Some(Value::Array(parts)) = fields.remove("parts")
    {
        let content = parts.into_iter().map(part).collect();
        fields.insert("content".into(), Value::Array(content));
    }
    value
}

fn artifact(mut value: Value) -> Value {
    if let Some(fields) = value.as_object_mut() {
        map_list(fields, "parts", part);
    }
    value
}

/// A part as the 0.3 proto has it: `text`, `file` (`fileWithUri` or `fileWithBytes`, `mimeType`
/// and the file's `name`) or `data` (`{"data": <object>}`; data that is not an object is
/// `{"value": <data>}`), with the part's `metadata` beside. The part's `metadata` and the file's
/// `name` are fields 4 of `Part` and `FilePart` in the 0.3 proto the SDKs ship (and in the 0.3
/// JSON schema), though not in the spec folder's earlier `a2a.proto` (docs/versions.md).
fn part(value: Value) -> Value {
    let Value::Object(mut fields) = value else {
        return value;
    };
    let mime = fields.remove("mediaType");
    let name = fields.remove("filename");
    let metadata = fields.remove("metadata");
    let with_metadata = |mut part: Value| {
        if let (Some(metadata), Some(fields)) = (&metadata, part.as_object_mut()) {
            fields.insert("metadata".into(), metadata.clone());
        }
        part
    };
    if let Some(text) = fields.remove("text") {
        return with_metadata(json!({"text": text}));
    }
    let file = |key: &str, content: Value| {
        let mut file = Map::new();
        file.insert(key.into(), content);
        if let Some(mime) = &mime {
            file.insert("mimeType".into(), mime.clone());
        }
        if let Some(name) = &name {
            file.insert("name".into(), name.clone());
        }
        with_metadata(json!({"file": file}))
    };
    if let Some(url) = fields.remove("url") {
        return file("fileWithUri", url);
    }
    if let Some(raw) = fields.remove("raw") {
        return file("fileWithBytes", raw);
    }
    match fields.remove("data") {
        Some(object @ Value::Object(_)) => with_metadata(json!({"data": {"data": object}})),
        Some(other) => with_metadata(json!({"data": {"data": {"value": other}}})),
        None => Value::Object(fields),
    }
}

fn status_update(mut value: Value) -> Value {
    if let Some(fields) = value.as_object_mut()
        && let Some(status) = fields.remove("status")
    {
        let state = status
            .get("state")
            .and_then(Value::as_str)
            .and_then(TaskState::from_name)
            .unwrap_or_default();
        fields.insert("status".into(), status_to_v0_3(status));
        // `final` as 0.3 has it (true in a terminal or interrupted state); ProtoJSON omits false.
        if state.is_final() {
            fields.insert("final".into(), Value::Bool(true));
        }
    }
    value
}

fn artifact_update(mut value: Value) -> Value {
    if let Some(fields) = value.as_object_mut()
        && let Some(inner) = fields.get_mut("artifact")
    {
        *inner = artifact(std::mem::take(inner));
    }
    value
}

/// `{"name": "tasks/{taskId}/pushNotificationConfigs/{id}", "pushNotificationConfig": {"id",
/// "url", "token", "authentication": {"schemes": [scheme], "credentials"}}}`.
fn push_config(value: Value) -> Value {
    let Value::Object(mut fields) = value else {
        return value;
    };
    let task_id = fields.remove("taskId").unwrap_or_default();
    let id = fields.get("id").cloned().unwrap_or_default();
    fields.remove("tenant");
    if let Some(auth) = fields
        .get_mut("authentication")
        .and_then(Value::as_object_mut)
        && let Some(scheme) = auth.remove("scheme")
    {
        let schemes = match scheme.as_str() {
            Some("") | None => json!([]),
            Some(_) => json!([scheme]),
        };
        auth.insert("schemes".into(), schemes);
    }
    let name = format!(
        "tasks/{}/pushNotificationConfigs/{}",
        task_id.as_str().unwrap_or_default(),
        id.as_str().unwrap_or_default()
    );
    json!({"name": name, "pushNotificationConfig": fields})
}

// ----- events and errors --------------------------------------------------------------------------

/// Each SSE event's `data:` is the 0.3 `StreamResponse`; an error after the stream started is an
/// `event: error` with the 0.3 error body.
pub(super) struct Framing03;

impl Framing for Framing03 {
    fn event(&self, event: &a2a_types::v1::StreamResponse, out: &mut Vec<u8>) {
        let value = serde_json::to_value(event).expect("events serialize");
        serde_json::to_writer(out, &stream_response(value)).expect("JSON serializes");
    }

    fn error(&self, error: &A2aError, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &error_body(error)).expect("JSON serializes");
    }

    fn error_event(&self) -> Option<&'static str> {
        Some("error")
    }
}

/// `{"code": <JSON-RPC code>, "type": "<ErrorName>", "message": …, "data": [details]}`.
fn error_body(error: &A2aError) -> Value {
    let code = error.code();
    let mut body = json!({"code": code.code(), "message": error.message()});
    if let Some(name) = code.name() {
        body["type"] = json!(name);
    }
    if !error.details().is_empty() {
        body["data"] = Value::Array(error.details().to_vec());
    }
    body
}

/// An error as the 0.3 routes answer it: the 0.3 error body with the mapped HTTP status, as
/// `application/json`.
pub(super) fn error_response(error: &A2aError) -> http::Response<A2aBody> {
    response::error(
        error,
        a2a_types::protocol::content_type::JSON,
        serde_json::to_vec(&error_body(error)).expect("JSON serializes"),
    )
}

/// A 0.3 result, as `application/json`.
pub(super) fn json_response(bytes: Vec<u8>) -> http::Response<A2aBody> {
    response::full(
        StatusCode::OK,
        a2a_types::protocol::content_type::JSON,
        bytes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn parts_both_ways() {
        let v03 = json!({"messageId": "m", "role": "ROLE_USER", "content": [
            {"text": "hi", "metadata": {"note": "kept"}},
            {"file": {"fileWithUri": "https://x/a.pdf", "mimeType": "application/pdf", "name": "a.pdf"}},
            {"file": {"fileWithBytes": "iVBO", "mimeType": "image/png"}},
            {"data": {"data": {"k": 1}}}
        ]});
        let v1 = message_to_v1(v03.clone());
        assert_eq!(
            v1,
            json!({"messageId": "m", "role": "ROLE_USER", "parts": [
                {"text": "hi", "metadata": {"note": "kept"}},
                {"url": "https://x/a.pdf", "mediaType": "application/pdf", "filename": "a.pdf"},
                {"raw": "iVBO", "mediaType": "image/png"},
                {"data": {"k": 1}}
            ]})
        );
        assert_eq!(message(v1), v03);
        // A data part has no file name in 0.3; its metadata stays.
        assert_eq!(
            part(json!({"data": [1, 2], "filename": "x", "metadata": {"a": 1}})),
            json!({"data": {"data": {"value": [1, 2]}}, "metadata": {"a": 1}})
        );
    }

    #[test]
    fn routes() {
        let r = |method: Method, path: &str| route(&method, path);
        assert_eq!(
            r(Method::GET, "tasks/t%201").unwrap().task_id.as_deref(),
            Some("t 1")
        );
        assert_eq!(
            r(Method::GET, "tasks/t-1:subscribe").unwrap().operation,
            Operation::SubscribeToTask
        );
        assert_eq!(
            r(Method::DELETE, "tasks/t/pushNotificationConfigs/c")
                .unwrap()
                .config_id
                .as_deref(),
            Some("c")
        );
        assert_eq!(
            r(Method::POST, "task/t/pushNotificationConfigs")
                .unwrap()
                .operation,
            Operation::CreateTaskPushNotificationConfig
        );
        assert_eq!(
            r(Method::GET, "message:send").unwrap_err().http_status(),
            405
        );
        assert_eq!(r(Method::GET, "tasks").unwrap_err().http_status(), 404);
    }

    #[test]
    fn errors_carry_code_and_type() {
        assert_eq!(
            error_body(&A2aError::task_not_found("t")),
            json!({"code": -32001, "type": "TaskNotFoundError", "message": "task t not found",
                "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
                    "metadata": {"taskId": "t"}}]})
        );
    }
}
