//! A2A 1.0 over HTTP+JSON: each route's request message from its path, query and body (path
//! parameters win; a body field or query parameter contradicting one is a 400 naming it), and
//! each result as its ProtoJSON (`DeleteTaskPushNotificationConfig`: `{}`, the JSON of
//! `google.protobuf.Empty`).

use a2a_jsonrpc::{ErrorCode, ErrorInfo, RawValue, decode_params};
use a2a_types::protocol::{
    Call, Operation, ProtocolVersion, Reply, Request, StreamRequest, content_type, rest,
};
use a2a_types::v1::{
    CancelTaskRequest, ContextId, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, SendMessageRequest, StreamResponse,
    SubscribeToTaskRequest, TaskId, TaskPushNotificationConfig,
};
use serde::de::DeserializeOwned;

use super::{Codec, Query, Refused, Route, bad_param, percent_decode};
use crate::common::head::RequestedVersion;
use crate::error::A2aError;

/// The 1.x versions of the REST binding: the routes of `a2a.proto`, ProtoJSON in and out,
/// `google.rpc.Status` errors; successes as `application/a2a+json`, errors as
/// `application/json`; 1.0, and the 1.1 draft (1.0 with the task generations,
/// `?currentGeneration=N` on `GET /tasks/{id}`).
pub(super) struct V1 {
    /// 1.1: the generations are read and written.
    generations: bool,
}

/// 1.0.
pub(super) const V1_0: V1 = V1 { generations: false };
/// The 1.1 draft.
pub(super) const V1_1: V1 = V1 { generations: true };

impl Codec for V1 {
    fn generations(&self) -> bool {
        self.generations
    }

    fn protocol_version(&self) -> ProtocolVersion {
        ProtocolVersion::V1
    }

    /// Every path not another version's is 1.0's: a route, or a 404 or 405.
    fn resolve(&self, head: &http::request::Parts) -> Option<Result<Route, Refused>> {
        let path = head.uri.path();
        let matched = match rest::match_route(head.method.as_str(), path) {
            Ok(matched) => matched,
            Err(rest::Mismatch::MethodNotAllowed(allowed)) => {
                let error = A2aError::invalid_request(format!(
                    "{path} takes {}, not {}",
                    allowed.join(" or "),
                    head.method
                ))
                .with_http_status(405);
                let allow = Some(allowed.join(", "));
                return Some(Err(Refused { error, allow }));
            }
            Err(_) => return Some(Err(not_found(&head.method, path).into())),
        };
        let decode = |name: &str, value: Option<&str>| {
            value
                .map(|v| {
                    percent_decode(v, false).map_err(|_| {
                        let why = "is not UTF-8 once percent-decoded";
                        Refused::from(bad_param(name, "path segment", why))
                    })
                })
                .transpose()
        };
        let route = || {
            Ok(Route {
                operation: matched.operation,
                tenant: decode("tenant", matched.tenant)?,
                task_id: decode(task_field(matched.operation), matched.task_id)?,
                config_id: decode("id", matched.config_id)?,
                protocol_version: ProtocolVersion::V1,
            })
        };
        Some(route())
    }

    fn check_version(&self, requested: &RequestedVersion) -> Result<(), A2aError> {
        requested.require_v1()
    }

    fn decode(&self, route: &Route, query: &Query, body: &[u8]) -> Result<Call, A2aError> {
        decode(route, query, body)
    }

    /// The result's ProtoJSON (`DeleteTaskPushNotificationConfig`: `{}`).
    fn encode(&self, reply: Reply) -> Result<Vec<u8>, A2aError> {
        Ok(serde_json::to_vec(&reply).expect("results serialize"))
    }

    /// The bare `StreamResponse`.
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>) {
        serde_json::to_writer(out, event).expect("events serialize");
    }

    fn error(&self, error: &A2aError) -> serde_json::Value {
        status_document(error)
    }

    fn content_type(&self) -> &'static str {
        content_type::A2A_JSON
    }
}

/// The 404 of a path that is no route of this service.
pub(super) fn not_found(method: &http::Method, path: &str) -> A2aError {
    A2aError::with_code_info(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "no A2A route is {method} {path}; the HTTP+JSON routes are /message:send, \
             /message:stream, /tasks, /tasks/{{id}}, /tasks/{{id}}:cancel, \
             /tasks/{{id}}:subscribe, /tasks/{{taskId}}/pushNotificationConfigs[/{{id}}] and \
             /extendedAgentCard, each also under /{{tenant}}"
        ),
    )
    .with_http_status(404)
}

/// `{"error": {"code", "status", "message", "details"}}`, the details led by an `ErrorInfo`:
/// spec §11.6 makes it a MUST here (several errors share HTTP 400), so an error without one
/// (a transport failure: 404, 405, 413, ...) gets the one of its code.
pub(super) fn status_document(error: &A2aError) -> serde_json::Value {
    let code = error.code();
    if error.error_info().is_some() || code.reason().is_none() {
        return error.to_status_json();
    }
    let mut complete = A2aError::new(code, error.message().to_owned())
        .with_detail(ErrorInfo::for_code(code).to_value());
    for detail in error.details() {
        complete = complete.with_detail(detail.clone());
    }
    if let Some(status) = error.explicit_http_status() {
        complete = complete.with_http_status(status);
    }
    complete.to_status_json()
}

/// The request field the route's `{id}` or `{taskId}` fills: `id` of the task operations,
/// `taskId` of the push config ones (as the route's template names it).
fn task_field(operation: Operation) -> &'static str {
    if operation.rest_route().path.contains("{taskId}") {
        "taskId"
    } else {
        "id"
    }
}

/// The request message of `route` from its path parameters, query and body (empty for GET and
/// DELETE routes).
fn decode(route: &Route, query: &Query, body: &[u8]) -> Result<Call, A2aError> {
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
                Request::SendMessage(Box::new(req)).into()
            } else {
                StreamRequest::SendStreamingMessage(Box::new(req)).into()
            }
        }
        Operation::GetTask => {
            let mut req = GetTaskRequest::new(task_id(String::new())?);
            req.history_length = query.int("historyLength", 0..=i32::MAX)?;
            req.current_generation = query.int64("currentGeneration")?;
            req.tenant = tenant(None)?;
            Request::GetTask(req).into()
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
            Request::ListTasks(req).into()
        }
        Operation::CancelTask => {
            let mut req: CancelTaskRequest = body_of(body)?;
            req.id = task_id(req.id.into_string())?;
            req.tenant = tenant(req.tenant.take())?;
            Request::CancelTask(req).into()
        }
        Operation::SubscribeToTask => {
            let mut req: SubscribeToTaskRequest = body_of(body)?;
            req.id = task_id(req.id.into_string())?;
            req.tenant = tenant(req.tenant.take())?;
            StreamRequest::SubscribeToTask(req).into()
        }
        Operation::CreateTaskPushNotificationConfig => {
            let mut req: TaskPushNotificationConfig = body_of(body)?;
            let given = req.task_id.take().map(TaskId::into_string);
            req.task_id = Some(task_id(given.unwrap_or_default())?);
            req.tenant = tenant(req.tenant.take())?;
            Request::CreateTaskPushNotificationConfig(req).into()
        }
        Operation::GetTaskPushNotificationConfig => {
            let mut req = GetTaskPushNotificationConfigRequest::new(
                task_id(String::new())?,
                config_id(String::new())?,
            );
            req.tenant = tenant(None)?;
            Request::GetTaskPushNotificationConfig(req).into()
        }
        Operation::ListTaskPushNotificationConfigs => {
            let mut req = ListTaskPushNotificationConfigsRequest::new(task_id(String::new())?);
            req.page_size = query.int("pageSize", 0..=i32::MAX)?.unwrap_or(0);
            req.page_token = query.string("pageToken")?;
            req.tenant = tenant(None)?;
            Request::ListTaskPushNotificationConfigs(req).into()
        }
        Operation::DeleteTaskPushNotificationConfig => {
            let mut req = DeleteTaskPushNotificationConfigRequest::new(
                task_id(String::new())?,
                config_id(String::new())?,
            );
            req.tenant = tenant(None)?;
            Request::DeleteTaskPushNotificationConfig(req).into()
        }
        Operation::GetExtendedAgentCard => {
            let mut req = GetExtendedAgentCardRequest::new();
            req.tenant = tenant(None)?;
            Request::GetExtendedAgentCard(req).into()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binding::jsonrpc::testing::{replies, replies_json};
    use crate::binding::rest::testing::{decoded_all, encoded};
    use serde_json::json;

    /// Each route decodes to its operation's request from path, query and body.
    #[test]
    fn every_route_decodes_to_its_request() {
        let send = r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#;
        let send_v1 = json!({"tenant":"acme","message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}});
        let cases = [
            ("POST", "/acme/message:send", send, send_v1.clone()),
            ("POST", "/acme/message:stream", send, send_v1),
            (
                "GET",
                "/tasks/t-1?historyLength=2",
                "",
                json!({"id":"t-1","historyLength":2}),
            ),
            (
                "GET",
                "/tasks?contextId=c-1&status=TASK_STATE_WORKING&pageSize=10&includeArtifacts=true",
                "",
                json!({"contextId":"c-1","status":"TASK_STATE_WORKING","pageSize":10,"includeArtifacts":true}),
            ),
            ("POST", "/tasks/t-1:cancel", "", json!({"id":"t-1"})),
            ("GET", "/tasks/t-1:subscribe", "", json!({"id":"t-1"})),
            (
                "POST",
                "/tasks/t-1/pushNotificationConfigs",
                r#"{"id":"c-1","url":"https://hook.example/a2a"}"#,
                json!({"id":"c-1","taskId":"t-1","url":"https://hook.example/a2a"}),
            ),
            (
                "GET",
                "/tasks/t-1/pushNotificationConfigs/c-1",
                "",
                json!({"taskId":"t-1","id":"c-1"}),
            ),
            (
                "GET",
                "/tasks/t-1/pushNotificationConfigs?pageSize=5",
                "",
                json!({"taskId":"t-1","pageSize":5}),
            ),
            ("GET", "/extendedAgentCard", "", json!({})),
            (
                "DELETE",
                "/tasks/t-1/pushNotificationConfigs/c-1",
                "",
                json!({"taskId":"t-1","id":"c-1"}),
            ),
        ];
        assert_eq!(decoded_all(&cases), Operation::ALL);
    }

    /// Each reply is its ProtoJSON; a deletion `{}`.
    #[test]
    fn every_reply_is_its_proto_json() {
        let written: Vec<serde_json::Value> =
            replies().into_iter().map(|r| encoded(&V1_0, r)).collect();
        assert_eq!(written, replies_json());
    }

    fn route(method: &str, path: &str) -> Route {
        let head = http::Request::builder()
            .method(method)
            .uri(path)
            .body(())
            .unwrap()
            .into_parts()
            .0;
        super::super::resolve(&head, crate::card::Versions::all()).unwrap()
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
        let Call::Unary(Request::GetTask(req)) = request else {
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
            Call::Stream(StreamRequest::SendStreamingMessage(_))
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
        let Call::Unary(Request::CreateTaskPushNotificationConfig(config)) = request else {
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
            let Call::Unary(Request::CancelTask(req)) = request else {
                panic!("not CancelTask: {request:?}");
            };
            assert_eq!(req.id, "t-1");
        }
    }
}
