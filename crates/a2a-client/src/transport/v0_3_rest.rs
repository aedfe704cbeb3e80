//! The HTTP+JSON binding of A2A 0.3 (and 0.2): the `google.api.http` routes of the 0.3 proto
//! under the interface URL (`/v1/message:send`, `/v1/tasks/{id}`, ...), bodies in the 0.3
//! proto's ProtoJSON ([`super::v0_3_proto`]), `Content-Type: application/json`,
//! `A2A-Version: 0.3` and `X-A2A-Extensions`. Errors are the 0.3 bare `{code, message, data}`
//! (a `google.rpc.Status` is read too); stream events are bare `StreamResponse`s.
//! `ListTasks` is not in the 0.3 proto: it fails with [`Error::Unsupported`] before anything
//! is sent.

use a2a_jsonrpc::{A2aError, ErrorCode, ErrorObject};
use a2a_types::protocol::{Operation, content_type, rest};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig, binding,
};
use bytes::Bytes;
use http::Method;
use serde_json::Value;

use super::rest::{RestWire, Route};
use super::{BoxFuture, EventStream, Transport, boxed, v0_3_proto};
use crate::Error;
use crate::http::{Dialect, HttpClient};
use crate::interceptor::CallInfo;

/// HTTP+JSON, A2A 0.3.
pub(crate) struct V03RestTransport {
    wire: RestWire,
    /// `0.3` or `0.2`, for messages.
    version: &'static str,
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

impl V03RestTransport {
    pub(crate) fn new(
        http: HttpClient,
        endpoint: &http::Uri,
        version: &'static str,
    ) -> Result<Self, Error> {
        Ok(Self {
            wire: RestWire::new(
                http,
                endpoint,
                Dialect::V0_3,
                content_type::JSON,
                content_type::JSON,
                error_of,
            )?,
            version,
        })
    }

    /// One call answered with a 0.3 body, read by `read`.
    async fn call<T>(
        &self,
        call: CallInfo,
        route: Route,
        read: fn(&[u8]) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let bytes = self.wire.exchange(call, route).await?;
        read(&bytes)
    }
}

impl Transport for V03RestTransport {
    fn send_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<SendMessageResponse, Error>> {
        boxed(async move {
            let body = v0_3_proto::send_request(request)?;
            let route = route(Method::POST, "/v1/message:send".to_owned(), Some(&body));
            self.call(call, route, v0_3_proto::send_response).await
        })
    }

    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(async move {
            let body = v0_3_proto::send_request(request)?;
            let route = route(Method::POST, "/v1/message:stream".to_owned(), Some(&body));
            let op = Operation::SendStreamingMessage;
            self.wire.stream(call, op, route, None, decode_event).await
        })
    }

    fn get_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>> {
        boxed(async move {
            let path = task_path(Operation::GetTask, request.id.as_ref(), "")?;
            let mut route = route(Method::GET, path, None);
            // 0 means "all" in 0.3: a 1.0 `historyLength: 0` cannot be said, and is left out.
            if let Some(n) = request.history_length.filter(|n| *n > 0) {
                route.query = format!("historyLength={n}");
            }
            self.call(call, route, v0_3_proto::task).await
        })
    }

    fn list_tasks<'a>(
        &'a self,
        _call: CallInfo,
        _request: &'a ListTasksRequest,
    ) -> BoxFuture<'a, Result<ListTasksResponse, Error>> {
        boxed(async move {
            Err(Error::unsupported(
                "ListTasks",
                binding::HTTP_JSON,
                self.version,
            ))
        })
    }

    fn cancel_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a CancelTaskRequest,
    ) -> BoxFuture<'a, Result<Task, Error>> {
        boxed(async move {
            let path = task_path(Operation::CancelTask, request.id.as_ref(), ":cancel")?;
            // The body is the request but its path field: nothing.
            let route = route(Method::POST, path, Some(&Value::Object(Default::default())));
            self.call(call, route, v0_3_proto::task).await
        })
    }

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(async move {
            let op = Operation::SubscribeToTask;
            let path = task_path(op, request.id.as_ref(), ":subscribe")?;
            let route = route(Method::GET, path, None);
            self.wire
                .stream(call, op, route, last_event_id, decode_event)
                .await
        })
    }

    fn create_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        config: &'a TaskPushNotificationConfig,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>> {
        boxed(async move {
            let task = config.task_id.as_ref().map_or("", AsRef::as_ref);
            let path = config_path(Operation::CreateTaskPushNotificationConfig, task, None)?;
            let body = v0_3_proto::task_push_config(config);
            let route = route(Method::POST, path, Some(&body));
            self.call(call, route, v0_3_proto::push_config).await
        })
    }

    fn get_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a GetTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<TaskPushNotificationConfig, Error>> {
        boxed(async move {
            let op = Operation::GetTaskPushNotificationConfig;
            let path = config_path(op, request.task_id.as_ref(), Some(&request.id))?;
            let route = route(Method::GET, path, None);
            self.call(call, route, v0_3_proto::push_config).await
        })
    }

    fn list_task_push_notification_configs<'a>(
        &'a self,
        call: CallInfo,
        request: &'a ListTaskPushNotificationConfigsRequest,
    ) -> BoxFuture<'a, Result<ListTaskPushNotificationConfigsResponse, Error>> {
        boxed(async move {
            let op = Operation::ListTaskPushNotificationConfigs;
            let path = config_path(op, request.task_id.as_ref(), None)?;
            let route = route(Method::GET, path, None);
            self.call(call, route, v0_3_proto::push_config_list).await
        })
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>> {
        boxed(async move {
            let op = Operation::DeleteTaskPushNotificationConfig;
            let path = config_path(op, request.task_id.as_ref(), Some(&request.id))?;
            let route = route(Method::DELETE, path, None);
            // The answer is empty or `{}`: both fine.
            self.wire.exchange(call, route).await.map(drop)
        })
    }

    fn get_extended_agent_card<'a>(
        &'a self,
        call: CallInfo,
        _request: &'a GetExtendedAgentCardRequest,
    ) -> BoxFuture<'a, Result<AgentCard, Error>> {
        boxed(async move {
            let route = route(Method::GET, "/v1/card".to_owned(), None);
            let bytes = self.wire.exchange(call, route).await?;
            a2a_types::card::parse_slice(&bytes).map_err(|error| Error::Card {
                url: "/v1/card".to_owned(),
                error,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

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
