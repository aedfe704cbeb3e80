//! The HTTP+JSON binding of A2A 0.3 (and 0.2): the `google.api.http` routes of the 0.3 proto
//! under the interface URL (`/v1/message:send`, `/v1/tasks/{id}`, ...), bodies in the 0.3
//! proto's ProtoJSON ([`super::v0_3_proto`]), `Content-Type: application/json`,
//! `A2A-Version: 0.3` and `X-A2A-Extensions`. Errors are the 0.3 bare `{code, message, data}`
//! (a `google.rpc.Status` is read too); stream events are bare `StreamResponse`s.
//! `ListTasks` is not in the 0.3 proto: it fails with [`Error::Unsupported`] before anything
//! is sent.

use a2a_jsonrpc::{A2aError, ErrorCode, ErrorObject};
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest, content_type, rest};
use a2a_types::v1::{StreamResponse, binding};
use bytes::Bytes;
use http::Method;
use serde_json::Value;

use super::{RestCodec, Route, v0_3_proto};
use crate::Error;
use crate::http::Dialect;
use crate::transport::sse::EventDecoder;

/// The path of the 0.3 extended card.
const CARD_PATH: &str = "/v1/card";

/// The 0.3 codec (also for 0.2 interfaces).
pub(crate) struct Codec {
    /// `0.3` or `0.2`, for messages.
    version: &'static str,
}

impl Codec {
    pub(crate) fn new(version: &'static str) -> Self {
        Self { version }
    }
}

impl RestCodec for Codec {
    fn dialect(&self) -> Dialect {
        Dialect::V0_3
    }

    fn body_type(&self) -> &'static str {
        content_type::JSON
    }

    fn accept_json(&self) -> &'static str {
        content_type::JSON
    }

    fn route(&self, request: &Request) -> Result<Route, Error> {
        let op = request.operation();
        Ok(match request {
            Request::SendMessage(r) => route(
                Method::POST,
                "/v1/message:send".to_owned(),
                Some(&v0_3_proto::send_request(r)?),
            ),
            Request::GetTask(r) => {
                let mut route = route(Method::GET, task_path(op, r.id.as_ref(), "")?, None);
                // 0 means "all" in 0.3: a 1.0 `historyLength: 0` cannot be said, and is left
                // out.
                if let Some(n) = r.history_length.filter(|n| *n > 0) {
                    route.query = format!("historyLength={n}");
                }
                route
            }
            // The body is the request but its path field: nothing.
            Request::CancelTask(r) => route(
                Method::POST,
                task_path(op, r.id.as_ref(), ":cancel")?,
                Some(&Value::Object(serde_json::Map::new())),
            ),
            Request::CreateTaskPushNotificationConfig(r) => {
                let task = r.task_id.as_ref().map_or("", AsRef::as_ref);
                let body = v0_3_proto::task_push_config(r);
                route(Method::POST, config_path(op, task, None)?, Some(&body))
            }
            Request::GetTaskPushNotificationConfig(r) => route(
                Method::GET,
                config_path(op, r.task_id.as_ref(), Some(&r.id))?,
                None,
            ),
            Request::ListTaskPushNotificationConfigs(r) => route(
                Method::GET,
                config_path(op, r.task_id.as_ref(), None)?,
                None,
            ),
            Request::DeleteTaskPushNotificationConfig(r) => route(
                Method::DELETE,
                config_path(op, r.task_id.as_ref(), Some(&r.id))?,
                None,
            ),
            Request::GetExtendedAgentCard(_) => route(Method::GET, CARD_PATH.to_owned(), None),
            _ => {
                return Err(Error::unsupported(
                    op.method(),
                    binding::HTTP_JSON,
                    self.version,
                ));
            }
        })
    }

    fn stream_route(&self, request: &StreamRequest) -> Result<Route, Error> {
        let op = request.operation();
        Ok(match request {
            StreamRequest::SendStreamingMessage(r) => route(
                Method::POST,
                "/v1/message:stream".to_owned(),
                Some(&v0_3_proto::send_request(r)?),
            ),
            StreamRequest::SubscribeToTask(r) => route(
                Method::GET,
                task_path(op, r.id.as_ref(), ":subscribe")?,
                None,
            ),
            _ => {
                return Err(Error::unsupported(
                    op.method(),
                    binding::HTTP_JSON,
                    self.version,
                ));
            }
        })
    }

    fn decode_reply(&self, operation: Operation, body: &[u8]) -> Result<Reply, Error> {
        Ok(match operation {
            Operation::SendMessage => v0_3_proto::send_response(body)?.into(),
            Operation::GetTask | Operation::CancelTask => v0_3_proto::task(body)?.into(),
            Operation::CreateTaskPushNotificationConfig
            | Operation::GetTaskPushNotificationConfig => v0_3_proto::push_config(body)?.into(),
            Operation::ListTaskPushNotificationConfigs => {
                v0_3_proto::push_config_list(body)?.into()
            }
            // The answer is empty or `{}`: both fine.
            Operation::DeleteTaskPushNotificationConfig => Reply::Empty,
            Operation::GetExtendedAgentCard => a2a_types::card::parse_slice(body)
                .map_err(|error| Error::Card {
                    url: CARD_PATH.to_owned(),
                    error,
                })?
                .into(),
            other => {
                return Err(Error::Protocol(format!(
                    "{other} has no reply in A2A {} HTTP+JSON",
                    self.version
                )));
            }
        })
    }

    fn decode_events(&self) -> EventDecoder {
        Box::new(decode_event)
    }

    fn error(&self, status: http::StatusCode, body: &[u8]) -> Error {
        error_of(status, body)
    }
}

/// `/v1/tasks/{id}` and what follows it, the id percent-encoded; an empty id is an
/// [`Error::Config`] (an empty segment would name another route).
fn task_path(operation: Operation, id: &str, rest_of_path: &str) -> Result<String, Error> {
    if id.is_empty() {
        return Err(Error::Config(format!(
            "{operation} needs a task id to put in its HTTP+JSON path"
        )));
    }
    let mut path = String::from("/v1/tasks/");
    rest::encode_segment(id, &mut path);
    path.push_str(rest_of_path);
    Ok(path)
}

/// `/v1/tasks/{taskId}/pushNotificationConfigs[/{id}]`.
fn config_path(operation: Operation, task: &str, id: Option<&str>) -> Result<String, Error> {
    let mut path = task_path(operation, task, "/pushNotificationConfigs")?;
    if let Some(id) = id {
        if id.is_empty() {
            return Err(Error::Config(format!(
                "{operation} needs a configuration id to put in its HTTP+JSON path"
            )));
        }
        path.push('/');
        rest::encode_segment(id, &mut path);
    }
    Ok(path)
}

fn route(method: Method, path: String, body: Option<&Value>) -> Route {
    Route {
        method,
        path,
        query: String::new(),
        body: body.map(|body| Bytes::from(body.to_string())),
    }
}

/// The error of a non-`2xx` answer: the 0.3 bare `{code, message, data}` (or a 1.0
/// `google.rpc.Status`), with the HTTP status; any other body is an [`Error::Http`].
fn error_of(status: http::StatusCode, body: &[u8]) -> Error {
    let Ok(document) = serde_json::from_slice::<Value>(body) else {
        return Error::http(status, body);
    };
    match bare_error(&document).or_else(|| A2aError::from_status_json(&document)) {
        Some(error) => Error::Agent(error.with_http_status(status.as_u16())),
        None => Error::http(status, body),
    }
}

/// `{"code": -32001, "message": "…", "data": …}`, as 0.3 servers answer errors.
fn bare_error(document: &Value) -> Option<A2aError> {
    let code = i32::try_from(document.get("code")?.as_i64()?).ok()?;
    let message = document.get("message")?.as_str()?.to_owned();
    let mut error = ErrorObject::new(ErrorCode(code), message);
    error.data = document.get("data").cloned().filter(|d| !d.is_null());
    Some(A2aError::from(error))
}

/// One SSE event: a bare 0.3 `StreamResponse`, or an error object.
fn decode_event(data: &str) -> Result<StreamResponse, Error> {
    v0_3_proto::stream_response(data).map_err(|decode| {
        serde_json::from_str::<Value>(data)
            .ok()
            .and_then(|document| {
                bare_error(&document)
                    .or_else(|| bare_error(document.get("error")?))
                    .or_else(|| A2aError::from_status_json(&document))
            })
            .map_or(decode, Error::Agent)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::fixtures;
    use crate::transport::rest::seen;
    use pretty_assertions::assert_eq;

    const TASK: &str =
        r#"{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_CANCELLED"}}"#;
    const CONFIG: &str = r#"{"name":"tasks/t-1/pushNotificationConfigs/c-1","pushNotificationConfig":{"id":"c-1","url":"https://hook.example/a2a","token":"tok"}}"#;

    #[test]
    fn every_operation_is_its_0_3_route_with_a_0_3_body() {
        assert_eq!(
            seen::routed(&Codec::new("0.3")),
            [
                r#"POST /v1/message:send {"configuration":{"blocking":true},"message":{"content":[{"text":"hi"}],"contextId":"c-1","messageId":"m-1","role":"ROLE_USER"}}"#,
                r#"GET /v1/tasks/t-1?historyLength=2 -"#,
                r#"error: ListTasks does not exist in A2A 0.3 over HTTP+JSON, the interface this client uses; it needs an A2A 1.0 interface"#,
                r#"POST /v1/tasks/t-1:cancel {}"#,
                r#"POST /v1/tasks/t-1/pushNotificationConfigs {"name":"tasks/t-1/pushNotificationConfigs/","pushNotificationConfig":{"token":"tok","url":"https://hook.example/a2a"}}"#,
                r#"GET /v1/tasks/t-1/pushNotificationConfigs/c-1 -"#,
                r#"GET /v1/tasks/t-1/pushNotificationConfigs -"#,
                r#"GET /v1/card -"#,
                r#"DELETE /v1/tasks/t-1/pushNotificationConfigs/c-1 -"#,
                r#"POST /v1/message:stream {"configuration":{"blocking":true},"message":{"content":[{"text":"hi"}],"contextId":"c-1","messageId":"m-1","role":"ROLE_USER"}}"#,
                r#"GET /v1/tasks/t-1:subscribe -"#,
            ]
        );
    }

    #[test]
    fn every_0_3_reply_is_read_as_its_1_0_result() {
        let codec = Codec::new("0.3");
        let read = |op, json: &str| seen::reply(&codec, op, json);
        let card = r#"{"name":"Extended","description":"d","version":"1","url":"http://h/",
            "preferredTransport":"HTTP+JSON","protocolVersion":"0.3.0","capabilities":{},
            "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}"#;
        let replies = [
            read(Operation::SendMessage, &format!(r#"{{"task":{TASK}}}"#)),
            read(
                Operation::SendMessage,
                r#"{"msg":{"messageId":"m-2","role":"ROLE_AGENT","content":[{"text":"hi!"}]}}"#,
            ),
            read(Operation::GetTask, TASK),
            read(Operation::CancelTask, TASK),
            read(Operation::CreateTaskPushNotificationConfig, CONFIG),
            read(Operation::GetTaskPushNotificationConfig, CONFIG),
            read(
                Operation::ListTaskPushNotificationConfigs,
                &format!("[{CONFIG}]"),
            ),
            read(Operation::DeleteTaskPushNotificationConfig, ""),
            read(Operation::GetExtendedAgentCard, card),
            read(Operation::ListTasks, "{}"),
        ];
        assert_eq!(
            replies.to_vec(),
            [
                r#"{"task":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_CANCELED"}}}"#,
                fixtures::sent_message().as_str(),
                r#"{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_CANCELED"}}"#,
                r#"{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_CANCELED"}}"#,
                fixtures::PUSH_CONFIG,
                fixtures::PUSH_CONFIG,
                fixtures::push_configs().as_str(),
                r#"{}"#,
                r#"{"name":"Extended","description":"d","supportedInterfaces":[{"url":"http://h/","protocolBinding":"HTTP+JSON","protocolVersion":"0.3"}],"version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}"#,
                r#"error: protocol error: ListTasks has no reply in A2A 0.3 HTTP+JSON"#,
            ]
        );
    }

    #[test]
    fn bare_and_status_errors_are_agent_errors() {
        let error = error_of(
            http::StatusCode::NOT_FOUND,
            br#"{"code": -32001, "message": "Task not found", "data": {"taskId": "t-9"}}"#,
        );
        assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
        assert_eq!(
            error.to_string(),
            "the agent answered TaskNotFoundError (-32001): Task not found"
        );
        let error = error_of(http::StatusCode::BAD_GATEWAY, b"<html>");
        assert!(matches!(error, Error::Http { .. }), "{error:?}");
        let event = decode_event(r#"{"code": -32004, "message": "nope"}"#).unwrap_err();
        assert_eq!(event.code(), Some(ErrorCode::UNSUPPORTED_OPERATION));
        assert!(matches!(
            decode_event(r#"{"surprise": 1}"#),
            Err(Error::Decode(_))
        ));
    }

    #[test]
    fn paths_encode_ids_and_refuse_empty_ones() {
        assert_eq!(
            config_path(Operation::GetTaskPushNotificationConfig, "t 1", Some("c/2")).unwrap(),
            "/v1/tasks/t%201/pushNotificationConfigs/c%2F2"
        );
        assert_eq!(
            task_path(Operation::GetTask, "", "")
                .unwrap_err()
                .to_string(),
            "GetTask needs a task id to put in its HTTP+JSON path"
        );
    }
}
