//! A2A 1.0 over HTTP+JSON: each route's request message from its path, query and body (path
//! parameters win; a body field or query parameter contradicting one is a 400 naming it), and
//! each result as its ProtoJSON (`DeleteTaskPushNotificationConfig`: `{}`, the JSON of
//! `google.protobuf.Empty`).

use a2a_jsonrpc::{RawValue, decode_params};
use a2a_types::protocol::Operation;
use a2a_types::v1::{
    CancelTaskRequest, ContextId, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, SendMessageRequest,
    SubscribeToTaskRequest, TaskId, TaskPushNotificationConfig,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Query, Route};
use crate::error::A2aError;
use crate::handler::{CallContext, EventStream, RequestHandler};

/// A decoded request: answered with one JSON document, or with a stream.
#[derive(Debug)]
pub(super) enum Request {
    /// The nine operations answered with one JSON document.
    Unary(Unary),
    /// `SendStreamingMessage` and `SubscribeToTask`.
    Streaming(Streaming),
}

/// The operations answered with one JSON document, with their request messages.
#[derive(Debug)]
pub(super) enum Unary {
    SendMessage(Box<SendMessageRequest>),
    GetTask(GetTaskRequest),
    ListTasks(ListTasksRequest),
    CancelTask(CancelTaskRequest),
    CreatePushConfig(TaskPushNotificationConfig),
    GetPushConfig(GetTaskPushNotificationConfigRequest),
    ListPushConfigs(ListTaskPushNotificationConfigsRequest),
    DeletePushConfig(DeleteTaskPushNotificationConfigRequest),
    GetExtendedAgentCard(GetExtendedAgentCardRequest),
}

/// The operations answered with a stream.
#[derive(Debug)]
pub(super) enum Streaming {
    SendStreamingMessage(Box<SendMessageRequest>),
    SubscribeToTask(SubscribeToTaskRequest),
}

impl Request {
    /// The request's tenant (the path prefix, or the request's own field).
    pub(super) fn tenant(&self) -> Option<&str> {
        let tenant = match self {
            Request::Unary(Unary::SendMessage(r))
            | Request::Streaming(Streaming::SendStreamingMessage(r)) => &r.tenant,
            Request::Unary(Unary::GetTask(r)) => &r.tenant,
            Request::Unary(Unary::ListTasks(r)) => &r.tenant,
            Request::Unary(Unary::CancelTask(r)) => &r.tenant,
            Request::Unary(Unary::CreatePushConfig(r)) => &r.tenant,
            Request::Unary(Unary::GetPushConfig(r)) => &r.tenant,
            Request::Unary(Unary::ListPushConfigs(r)) => &r.tenant,
            Request::Unary(Unary::DeletePushConfig(r)) => &r.tenant,
            Request::Unary(Unary::GetExtendedAgentCard(r)) => &r.tenant,
            Request::Streaming(Streaming::SubscribeToTask(r)) => &r.tenant,
        };
        tenant.as_deref()
    }
}

/// The request field the route's `{id}` or `{taskId}` fills: `id` of the task operations,
/// `taskId` of the push config ones.
pub(super) fn task_field(operation: Operation) -> &'static str {
    match operation {
        Operation::CreateTaskPushNotificationConfig
        | Operation::GetTaskPushNotificationConfig
        | Operation::ListTaskPushNotificationConfigs
        | Operation::DeleteTaskPushNotificationConfig => "taskId",
        _ => "id",
    }
}

/// The request message of `route` from its path parameters, query and body (empty for GET and
/// DELETE routes).
pub(super) fn decode(route: &Route, query: &Query, body: &[u8]) -> Result<Request, A2aError> {
    let tenant = |given: Option<String>| -> Result<Option<String>, A2aError> {
        let from_path = path_wins("tenant", route.tenant.as_deref(), given)?;
        path_wins("tenant", from_path.as_deref(), query.string("tenant")?)
    };
    let task_id = |given: String| -> Result<TaskId, A2aError> {
        let field = task_field(route.operation);
        Ok(TaskId::from(
            path_wins(field, route.task_id.as_deref(), Some(given))?.unwrap_or_default(),
        ))
    };
    let config_id = |given: String| -> Result<String, A2aError> {
        Ok(path_wins("id", route.config_id.as_deref(), Some(given))?.unwrap_or_default())
    };
    let request = match route.operation {
        Operation::SendMessage | Operation::SendStreamingMessage => {
            let mut req: SendMessageRequest = body_of(body)?;
            req.tenant = tenant(req.tenant.take())?;
            if route.operation == Operation::SendMessage {
                Request::Unary(Unary::SendMessage(Box::new(req)))
            } else {
                Request::Streaming(Streaming::SendStreamingMessage(Box::new(req)))
            }
        }
        Operation::GetTask => {
            let mut req = GetTaskRequest::new(task_id(String::new())?);
            req.history_length = query.int("historyLength", 0..=i32::MAX)?;
            req.tenant = tenant(None)?;
            Request::Unary(Unary::GetTask(req))
        }
        Operation::ListTasks => {
            let mut req = ListTasksRequest::new();
            req.context_id = query.string("contextId")?.map(ContextId::from);
            req.status = query.task_state("status")?;
            // Its range is the handler's to check (`HandlerConfig::max_page_size`), as over
            // JSON-RPC.
            req.page_size = query.int("pageSize", i32::MIN..=i32::MAX)?;
            req.page_token = query.string("pageToken")?;
            req.history_length = query.int("historyLength", 0..=i32::MAX)?;
            req.status_timestamp_after = query.timestamp("statusTimestampAfter")?;
            req.include_artifacts = query.boolean("includeArtifacts")?;
            req.tenant = tenant(None)?;
            Request::Unary(Unary::ListTasks(req))
        }
        Operation::CancelTask => {
            let mut req: CancelTaskRequest = body_of(body)?;
            req.id = task_id(req.id.into_string())?;
            req.tenant = tenant(req.tenant.take())?;
            Request::Unary(Unary::CancelTask(req))
        }
        Operation::SubscribeToTask => {
            let mut req: SubscribeToTaskRequest = body_of(body)?;
            req.id = task_id(req.id.into_string())?;
            req.tenant = tenant(req.tenant.take())?;
            Request::Streaming(Streaming::SubscribeToTask(req))
        }
        Operation::CreateTaskPushNotificationConfig => {
            let mut req: TaskPushNotificationConfig = body_of(body)?;
            let given = req.task_id.take().map(TaskId::into_string);
            req.task_id = Some(task_id(given.unwrap_or_default())?);
            req.tenant = tenant(req.tenant.take())?;
            Request::Unary(Unary::CreatePushConfig(req))
        }
        Operation::GetTaskPushNotificationConfig => {
            let mut req = GetTaskPushNotificationConfigRequest::new(
                task_id(String::new())?,
                config_id(String::new())?,
            );
            req.tenant = tenant(None)?;
            Request::Unary(Unary::GetPushConfig(req))
        }
        Operation::ListTaskPushNotificationConfigs => {
            let mut req = ListTaskPushNotificationConfigsRequest::new(task_id(String::new())?);
            req.page_size = query.int("pageSize", 0..=i32::MAX)?.unwrap_or(0);
            req.page_token = query.string("pageToken")?;
            req.tenant = tenant(None)?;
            Request::Unary(Unary::ListPushConfigs(req))
        }
        Operation::DeleteTaskPushNotificationConfig => {
            let mut req = DeleteTaskPushNotificationConfigRequest::new(
                task_id(String::new())?,
                config_id(String::new())?,
            );
            req.tenant = tenant(None)?;
            Request::Unary(Unary::DeletePushConfig(req))
        }
        Operation::GetExtendedAgentCard => {
            let mut req = GetExtendedAgentCardRequest::new();
            req.tenant = tenant(None)?;
            Request::Unary(Unary::GetExtendedAgentCard(req))
        }
        other => {
            return Err(A2aError::unsupported_operation(format!(
                "{other} has no HTTP+JSON route on this server"
            )));
        }
    };
    Ok(request)
}

/// The request message of a body: ProtoJSON, or nothing (decoded as `{}`).
fn body_of<T: DeserializeOwned>(body: &[u8]) -> Result<T, A2aError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return decode_params(None).map_err(A2aError::from);
    }
    let raw: Box<RawValue> = serde_json::from_slice(body).map_err(|error| {
        A2aError::parse_error(format!("the request body is not JSON: {error}"))
            .with_http_status(400)
    })?;
    decode_params(Some(&raw)).map_err(A2aError::from)
}

/// A field set by the path: the path's value when it has one, refusing a different value
/// `given` in the body or query; else `given` (an empty one is unset).
fn path_wins(
    field: &str,
    path: Option<&str>,
    given: Option<String>,
) -> Result<Option<String>, A2aError> {
    let given = given.filter(|g| !g.is_empty());
    match (path, given) {
        (Some(path), Some(given)) if given != path => {
            let why = format!("is `{given}`, but the path names `{path}`");
            Err(A2aError::invalid_params(format!("{field} {why}")).with_field_violation(field, why))
        }
        (Some(path), _) => Ok(Some(path.to_owned())),
        (None, given) => Ok(given),
    }
}

/// Runs a unary operation and writes its result.
pub(super) async fn answer(
    request: Unary,
    handler: &RequestHandler,
    call: &CallContext,
) -> Result<Vec<u8>, A2aError> {
    fn json<T: Serialize>(value: &T) -> Vec<u8> {
        serde_json::to_vec(value).expect("results serialize")
    }
    Ok(match request {
        Unary::SendMessage(r) => json(&handler.send_message(*r, call).await?),
        Unary::GetTask(r) => json(&handler.get_task(r, call).await?),
        Unary::ListTasks(r) => json(&handler.list_tasks(r, call).await?),
        Unary::CancelTask(r) => json(&handler.cancel_task(r, call).await?),
        Unary::CreatePushConfig(r) => json(&handler.create_push_config(r, call).await?),
        Unary::GetPushConfig(r) => json(&handler.get_push_config(r, call).await?),
        Unary::ListPushConfigs(r) => json(&handler.list_push_configs(r, call).await?),
        Unary::DeletePushConfig(r) => {
            handler.delete_push_config(r, call).await?;
            b"{}".to_vec()
        }
        Unary::GetExtendedAgentCard(r) => json(&handler.get_extended_agent_card(r, call).await?),
    })
}

/// Starts a streaming operation. `last_event_id` is the request's `Last-Event-ID` (an
/// unreadable one is `SubscribeToTask`'s error).
pub(super) async fn open(
    request: Streaming,
    handler: &RequestHandler,
    last_event_id: Result<Option<u64>, A2aError>,
    call: &CallContext,
) -> Result<EventStream, A2aError> {
    match request {
        Streaming::SendStreamingMessage(r) => handler.send_streaming_message(*r, call).await,
        Streaming::SubscribeToTask(r) => {
            handler.subscribe_to_task(&r.id, last_event_id?, call).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(method: &str, path: &str) -> Route {
        let head = http::Request::builder()
            .method(method)
            .uri(path)
            .body(())
            .unwrap()
            .into_parts()
            .0;
        super::super::resolve(&head).unwrap()
    }

    fn query(raw: &str) -> Query {
        Query::parse(Some(raw)).unwrap()
    }

    #[test]
    fn the_tenant_prefix_reaches_the_request() {
        let request = decode(
            &route("GET", "/acme%20co/tasks/t%2F1"),
            &query("historyLength=2"),
            b"",
        )
        .unwrap();
        assert_eq!(request.tenant(), Some("acme co"));
        let Request::Unary(Unary::GetTask(req)) = request else {
            panic!("not GetTask: {request:?}");
        };
        assert_eq!(req.id, "t/1");
        assert_eq!(req.history_length, Some(2));
        assert_eq!(req.tenant.as_deref(), Some("acme co"));

        let body = br#"{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}"#;
        let request = decode(&route("POST", "/acme/message:send"), &query(""), body).unwrap();
        assert_eq!(request.tenant(), Some("acme"));
        // Without a prefix, the body's own field stands.
        let body = br#"{"tenant":"beta","message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}"#;
        let request = decode(&route("POST", "/message:stream"), &query(""), body).unwrap();
        assert!(matches!(
            request,
            Request::Streaming(Streaming::SendStreamingMessage(_))
        ));
        assert_eq!(request.tenant(), Some("beta"));
        // The query form, for routes without a body.
        let request = decode(&route("GET", "/tasks"), &query("tenant=gamma"), b"").unwrap();
        assert_eq!(request.tenant(), Some("gamma"));
    }

    #[test]
    fn path_parameters_win_and_contradictions_are_refused() {
        let request = decode(
            &route("POST", "/tasks/t-1/pushNotificationConfigs"),
            &query(""),
            br#"{"url":"https://hook","taskId":"t-1"}"#,
        )
        .unwrap();
        let Request::Unary(Unary::CreatePushConfig(config)) = request else {
            panic!("not CreatePushConfig: {request:?}");
        };
        assert_eq!(config.task_id.as_ref().unwrap(), "t-1");
        assert_eq!(config.url, "https://hook");

        let error = decode(
            &route("POST", "/tasks/t-1/pushNotificationConfigs"),
            &query(""),
            br#"{"url":"https://hook","taskId":"t-2"}"#,
        )
        .unwrap_err();
        assert_eq!(
            error.to_status_json()["error"]["details"][1],
            serde_json::json!({"@type":"type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations":[{"field":"taskId","description":"is `t-2`, but the path names `t-1`"}]})
        );
        let error = decode(
            &route("POST", "/acme/tasks/t-1:cancel"),
            &query(""),
            br#"{"tenant":"other"}"#,
        )
        .unwrap_err();
        assert_eq!(
            error.message(),
            "invalid params: tenant is `other`, but the path names `acme`"
        );
        let error = decode(&route("GET", "/acme/tasks"), &query("tenant=x"), b"").unwrap_err();
        assert_eq!(
            error.message(),
            "invalid params: tenant is `x`, but the path names `acme`"
        );
        // A body that agrees with the path, or leaves the field out, is fine.
        for body in [&b""[..], b"{}", b"{\"id\":\"t-1\"}", b" \n"] {
            let request = decode(&route("POST", "/tasks/t-1:cancel"), &query(""), body).unwrap();
            let Request::Unary(Unary::CancelTask(req)) = request else {
                panic!("not CancelTask: {request:?}");
            };
            assert_eq!(req.id, "t-1");
        }
    }
}
