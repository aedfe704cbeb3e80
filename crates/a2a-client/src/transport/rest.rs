//! The HTTP+JSON (REST) binding of A2A 1.0 (spec §11, the `google.api.http` routes of
//! `a2a.proto`): one route per operation under the interface's URL, the tenant as a `/{tenant}`
//! path prefix, the ids in the path, the other fields in a ProtoJSON body (`POST`) or in the
//! query (`GET`); streams are SSE whose events are bare `StreamResponse`s; errors are
//! `google.rpc.Status` documents with the mapped HTTP status.

use a2a_jsonrpc::A2aError;
use a2a_types::protocol::{Operation, content_type, rest};
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};
use bytes::Bytes;
use http::{Method, header};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{BoxFuture, EventStream, Transport, boxed, sse};
use crate::Error;
use crate::http::{Dialect, HttpClient, Opened, content_type_of};
use crate::interceptor::CallInfo;

/// The `Accept` of a call answered with JSON: the 1.0.1 media type first, plain JSON too.
const ACCEPT_JSON: &str = "application/a2a+json, application/json";

/// HTTP under an interface URL, as both versions of the HTTP+JSON binding use it: routes
/// under the URL's path, the version's service-parameter headers and media types, errors
/// read by the version's rule, streams as SSE. The transports of each version put their
/// own routes and bodies on it.
pub(crate) struct RestWire {
    http: HttpClient,
    /// `scheme://authority`.
    origin: String,
    /// The interface URL's path, without a trailing `/`.
    base_path: String,
    /// The interface URL's query, kept before the call's own parameters.
    base_query: Option<String>,
    dialect: Dialect,
    /// The `Content-Type` of request bodies.
    body_type: &'static str,
    /// The `Accept` of calls answered with JSON.
    accept_json: &'static str,
    /// The error of a non-`2xx` answer.
    error_of: fn(http::StatusCode, &[u8]) -> Error,
}

/// One call on the wire: the method, the path under the interface URL, the query and the body.
pub(crate) struct Route {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) query: String,
    pub(crate) body: Option<Bytes>,
}

impl RestWire {
    pub(crate) fn new(
        http: HttpClient,
        endpoint: &http::Uri,
        dialect: Dialect,
        body_type: &'static str,
        accept_json: &'static str,
        error_of: fn(http::StatusCode, &[u8]) -> Error,
    ) -> Result<Self, Error> {
        let (Some(scheme), Some(authority)) = (endpoint.scheme_str(), endpoint.authority()) else {
            return Err(Error::Config(format!(
                "the HTTP+JSON interface URL `{endpoint}` is not absolute"
            )));
        };
        Ok(Self {
            http,
            origin: format!("{scheme}://{authority}"),
            base_path: endpoint.path().trim_end_matches('/').to_owned(),
            base_query: endpoint
                .query()
                .filter(|q| !q.is_empty())
                .map(str::to_owned),
            dialect,
            body_type,
            accept_json,
            error_of,
        })
    }

    fn request(
        &self,
        route: Route,
        accept: &'static str,
        last_event_id: Option<&str>,
    ) -> Result<http::Request<Bytes>, Error> {
        let mut url = format!("{}{}{}", self.origin, self.base_path, route.path);
        let query = [self.base_query.as_deref().unwrap_or(""), &route.query]
            .into_iter()
            .filter(|q| !q.is_empty())
            .collect::<Vec<_>>()
            .join("&");
        if !query.is_empty() {
            url.push('?');
            url.push_str(&query);
        }
        let uri: http::Uri = url
            .parse()
            .map_err(|err| Error::Config(format!("invalid request URL `{url}`: {err}")))?;
        let mut builder =
            self.http
                .request_in(self.dialect, route.method, uri, accept, last_event_id)?;
        if route.body.is_some() {
            builder = builder.header(header::CONTENT_TYPE, self.body_type);
        }
        builder
            .body(route.body.unwrap_or_default())
            .map_err(|err| Error::Config(format!("cannot build the request: {err}")))
    }

    /// Sends a call answered with JSON; returns the body of a `2xx` answer.
    pub(crate) async fn exchange(&self, call: CallInfo, route: Route) -> Result<Bytes, Error> {
        let request = self.request(route, self.accept_json, None)?;
        let (head, bytes) = self.http.exchange(&call, request).await?;
        if !head.status.is_success() {
            return Err((self.error_of)(head.status, &bytes));
        }
        Ok(bytes)
    }

    /// Sends a call answered with an event stream, each event's `data:` read by `decode`.
    pub(crate) async fn stream(
        &self,
        call: CallInfo,
        operation: Operation,
        route: Route,
        last_event_id: Option<&str>,
        decode: fn(&str) -> Result<StreamResponse, Error>,
    ) -> Result<EventStream, Error> {
        let request = self.request(route, content_type::EVENT_STREAM, last_event_id)?;
        match self.http.open(&call, request).await? {
            Opened::Events(body) => Ok(sse::events(body, decode)),
            Opened::Answer(head, bytes) if !head.status.is_success() => {
                Err((self.error_of)(head.status, &bytes))
            }
            Opened::Answer(head, _) => Err(Error::Protocol(format!(
                "{operation} answered with `{}` instead of an event stream",
                content_type_of(&head)
            ))),
        }
    }
}

/// HTTP+JSON, A2A 1.0.
pub(crate) struct RestTransport {
    wire: RestWire,
}

impl RestTransport {
    pub(crate) fn new(http: HttpClient, endpoint: &http::Uri) -> Result<Self, Error> {
        Ok(Self {
            wire: RestWire::new(
                http,
                endpoint,
                Dialect::V1_0,
                content_type::A2A_JSON,
                ACCEPT_JSON,
                error_of,
            )?,
        })
    }

    async fn call<R: DeserializeOwned>(&self, call: CallInfo, route: Route) -> Result<R, Error> {
        let bytes = self.wire.exchange(call, route).await?;
        Ok(a2a_types::json::from_slice(&bytes)?)
    }
}

/// The error of a non-`2xx` answer: the A2A error of its `google.rpc.Status` body, with the
/// HTTP status; any other body is an [`Error::Http`].
fn error_of(status: http::StatusCode, body: &[u8]) -> Error {
    serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|document| A2aError::from_status_json(&document))
        .map_or_else(
            || Error::http(status, body),
            |error| Error::Agent(error.with_http_status(status.as_u16())),
        )
}

/// One SSE event: a bare `StreamResponse`, or a `google.rpc.Status` error.
fn decode_event(data: &str) -> Result<StreamResponse, Error> {
    match a2a_types::json::from_str(data) {
        Ok(response) => Ok(response),
        Err(error) => Err(serde_json::from_str::<Value>(data)
            .ok()
            .and_then(|document| A2aError::from_status_json(&document))
            .map_or(Error::Decode(error), Error::Agent)),
    }
}

/// The ProtoJSON of `request` without the fields the path carries.
fn fields<T: Serialize>(
    operation: Operation,
    request: &T,
    in_path: &[&str],
) -> Result<serde_json::Map<String, Value>, Error> {
    let value = serde_json::to_value(request).map_err(|err| {
        Error::Config(format!("the {operation} request cannot be written: {err}"))
    })?;
    let Value::Object(mut object) = value else {
        return Ok(serde_json::Map::new());
    };
    for field in in_path {
        object.remove(*field);
    }
    Ok(object)
}

/// A `POST` body: the request's ProtoJSON without the members the path carries, the others as
/// they are and in their order.
fn body<T: Serialize>(operation: Operation, request: &T, in_path: &[&str]) -> Result<Bytes, Error> {
    let failed = |err: serde_json::Error| {
        Error::Config(format!("the {operation} request cannot be written: {err}"))
    };
    let whole = serde_json::to_vec(request).map_err(failed)?;
    let Members(members) = serde_json::from_slice(&whole).map_err(failed)?;
    let mut out = Vec::with_capacity(whole.len());
    out.push(b'{');
    for (name, value) in members
        .iter()
        .filter(|(name, _)| !in_path.contains(&name.as_str()))
    {
        if out.len() > 1 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, name).map_err(failed)?;
        out.push(b':');
        out.extend_from_slice(value.get().as_bytes());
    }
    out.push(b'}');
    Ok(Bytes::from(out))
}

/// The members of a JSON object, in their order, with their values as written.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Members<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visit<'a> {
            type Value = Members<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry::<String, &'de RawValue>()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// A query: the request's fields but the path's, by name (ProtoJSON names, enum names, RFC 3339
/// timestamps, `true`/`false`), a list as the parameter repeated, an object's fields as
/// `name.field`.
fn query<T: Serialize>(
    operation: Operation,
    request: &T,
    in_path: &[&str],
) -> Result<String, Error> {
    fn push(out: &mut Vec<(String, String)>, name: &str, value: &Value) {
        match value {
            Value::Null => {}
            Value::Bool(b) => out.push((name.to_owned(), b.to_string())),
            Value::Number(n) => out.push((name.to_owned(), n.to_string())),
            Value::String(s) => out.push((name.to_owned(), s.clone())),
            Value::Array(items) => items.iter().for_each(|item| push(out, name, item)),
            Value::Object(fields) => fields
                .iter()
                .for_each(|(key, item)| push(out, &format!("{name}.{key}"), item)),
        }
    }
    let mut pairs = Vec::new();
    for (name, value) in &fields(operation, request, in_path)? {
        push(&mut pairs, name, value);
    }
    // Whatever order the JSON map keeps: one order, by name.
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (name, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        rest::encode_query_component(&name, &mut out);
        out.push('=');
        rest::encode_query_component(&value, &mut out);
    }
    Ok(out)
}

/// The route of a call: the tenant prefix and the ids (`(name, value)`: the task's, then the
/// configuration's) in the path, which must not be empty (an empty segment names another
/// route); the request's other fields in the body of a `POST`, in the query otherwise.
fn route<T: Serialize>(
    operation: Operation,
    request: &T,
    tenant: Option<&str>,
    ids: &[(&str, &str)],
) -> Result<Route, Error> {
    for (name, value) in ids {
        if value.is_empty() {
            return Err(Error::Config(format!(
                "{operation} needs a `{name}` to put in its HTTP+JSON path"
            )));
        }
    }
    let mut in_path = vec![TENANT];
    in_path.extend(ids.iter().map(|(name, _)| *name));
    let id = |i: usize| ids.get(i).map(|(_, value)| *value);
    let method = operation.rest_route().method;
    let (query, body) = if method == "POST" {
        (String::new(), Some(body(operation, request, &in_path)?))
    } else {
        (query(operation, request, &in_path)?, None)
    };
    Ok(Route {
        method: Method::from_bytes(method.as_bytes()).unwrap_or(Method::GET),
        path: rest::path(operation, tenant, id(0), id(1)),
        query,
        body,
    })
}

const TENANT: &str = "tenant";
const ID: &str = "id";
const TASK_ID: &str = "taskId";

/// A transport method that is one call answered with JSON: `$ids` names the request's ids that
/// go into the path, in the route's order.
macro_rules! unary {
    ($name:ident, $request:ty, $result:ty, $operation:ident, |$r:ident| $ids:expr) => {
        fn $name<'a>(
            &'a self,
            call: CallInfo,
            $r: &'a $request,
        ) -> BoxFuture<'a, Result<$result, Error>> {
            boxed(async move {
                let route = route(Operation::$operation, $r, $r.tenant.as_deref(), &$ids)?;
                self.call(call, route).await
            })
        }
    };
}

impl Transport for RestTransport {
    unary!(
        send_message,
        SendMessageRequest,
        SendMessageResponse,
        SendMessage,
        |r| []
    );
    unary!(get_task, GetTaskRequest, Task, GetTask, |r| [(
        ID,
        r.id.as_ref()
    )]);
    unary!(
        list_tasks,
        ListTasksRequest,
        ListTasksResponse,
        ListTasks,
        |r| []
    );
    unary!(cancel_task, CancelTaskRequest, Task, CancelTask, |r| [(
        ID,
        r.id.as_ref()
    )]);
    unary!(
        create_task_push_notification_config,
        TaskPushNotificationConfig,
        TaskPushNotificationConfig,
        CreateTaskPushNotificationConfig,
        |r| [(TASK_ID, r.task_id.as_ref().map_or("", AsRef::as_ref))]
    );
    unary!(
        get_task_push_notification_config,
        GetTaskPushNotificationConfigRequest,
        TaskPushNotificationConfig,
        GetTaskPushNotificationConfig,
        |r| [(TASK_ID, r.task_id.as_ref()), (ID, r.id.as_str())]
    );
    unary!(
        list_task_push_notification_configs,
        ListTaskPushNotificationConfigsRequest,
        ListTaskPushNotificationConfigsResponse,
        ListTaskPushNotificationConfigs,
        |r| [(TASK_ID, r.task_id.as_ref())]
    );
    unary!(
        get_extended_agent_card,
        GetExtendedAgentCardRequest,
        AgentCard,
        GetExtendedAgentCard,
        |r| []
    );

    fn send_streaming_message<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SendMessageRequest,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        let op = Operation::SendStreamingMessage;
        boxed(async move {
            let route = route(op, request, request.tenant.as_deref(), &[])?;
            self.wire.stream(call, op, route, None, decode_event).await
        })
    }

    fn subscribe_to_task<'a>(
        &'a self,
        call: CallInfo,
        request: &'a SubscribeToTaskRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        let op = Operation::SubscribeToTask;
        let ids = [(ID, request.id.as_ref())];
        boxed(async move {
            let route = route(op, request, request.tenant.as_deref(), &ids)?;
            self.wire
                .stream(call, op, route, last_event_id, decode_event)
                .await
        })
    }

    fn delete_task_push_notification_config<'a>(
        &'a self,
        call: CallInfo,
        request: &'a DeleteTaskPushNotificationConfigRequest,
    ) -> BoxFuture<'a, Result<(), Error>> {
        let op = Operation::DeleteTaskPushNotificationConfig;
        let ids = [
            (TASK_ID, request.task_id.as_ref()),
            (ID, request.id.as_str()),
        ];
        boxed(async move {
            let route = route(op, request, request.tenant.as_deref(), &ids)?;
            // The answer is empty, `{}` (ProtoJSON of Empty) or anything else: all fine.
            self.wire.exchange(call, route).await.map(drop)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_types::v1::{ContextId, TaskState, Timestamp};
    use pretty_assertions::assert_eq;

    #[test]
    fn queries_are_protojson_names_sorted_and_escaped() {
        let request = ListTasksRequest::new()
            .with_context_id(ContextId::new("c 1&2"))
            .with_status(TaskState::Working)
            .with_page_size(10)
            .with_page_token("p+q=")
            .with_history_length(0)
            .with_status_timestamp_after(
                serde_json::from_str::<Timestamp>(r#""2026-01-02T03:04:05.678Z""#).unwrap(),
            )
            .with_include_artifacts(true)
            .with_tenant("acme");
        assert_eq!(
            query(Operation::ListTasks, &request, &[TENANT]).unwrap(),
            "contextId=c%201%262&historyLength=0&includeArtifacts=true&pageSize=10&\
             pageToken=p%2Bq%3D&status=TASK_STATE_WORKING&\
             statusTimestampAfter=2026-01-02T03%3A04%3A05.678Z"
        );
        assert_eq!(
            query(Operation::ListTasks, &ListTasksRequest::new(), &[TENANT]).unwrap(),
            ""
        );
    }

    #[test]
    fn lists_repeat_and_objects_nest() {
        let value = serde_json::json!({"a": [1, 2], "o": {"x": true, "y": null}, "tenant": "t"});
        assert_eq!(
            query(Operation::GetTask, &value, &[TENANT]).unwrap(),
            "a=1&a=2&o.x=true"
        );
    }

    #[test]
    fn bodies_leave_out_what_the_path_carries() {
        let request = CancelTaskRequest::new("t-1").with_tenant("acme");
        assert_eq!(
            body(Operation::CancelTask, &request, &[TENANT, ID]).unwrap(),
            "{}"
        );
        // The other members as they were written, in their order (not sorted).
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Sample {
            tenant: &'static str,
            zeta: Vec<f64>,
            task_id: &'static str,
            alpha: serde_json::Value,
        }
        let sample = Sample {
            tenant: "acme",
            zeta: vec![1.5, 2.0],
            task_id: "t-1",
            alpha: serde_json::json!({"y": ["a\"b", null]}),
        };
        assert_eq!(
            body(
                Operation::CreateTaskPushNotificationConfig,
                &sample,
                &[TENANT, TASK_ID]
            )
            .unwrap(),
            r#"{"zeta":[1.5,2.0],"alpha":{"y":["a\"b",null]}}"#
        );
        assert!(body(Operation::CancelTask, &"not an object", &[]).is_err());
    }

    #[test]
    fn status_bodies_are_agent_errors_with_their_status() {
        let body = br#"{"error":{"code":404,"status":"NOT_FOUND","message":"task t-9 not found",
            "details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND",
            "domain":"a2a-protocol.org","metadata":{"taskId":"t-9"}}]}}"#;
        let error = error_of(http::StatusCode::NOT_FOUND, body);
        assert_eq!(error.code(), Some(a2a_jsonrpc::ErrorCode::TASK_NOT_FOUND));
        assert_eq!(error.http_status(), Some(http::StatusCode::NOT_FOUND));
        assert_eq!(
            error.to_string(),
            "the agent answered TaskNotFoundError (-32001): task t-9 not found"
        );
        let error = error_of(http::StatusCode::BAD_GATEWAY, b"<html>bad gateway</html>");
        assert!(matches!(error, Error::Http { .. }), "{error:?}");
        assert!(error.is_transient());
    }
}
