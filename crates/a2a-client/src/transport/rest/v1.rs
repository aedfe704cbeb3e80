//! The HTTP+JSON (REST) binding of A2A 1.0 (spec §11, the `google.api.http` routes of
//! `a2a.proto`): each operation's route ([`Operation::rest_route`]) under the interface's URL,
//! the tenant as a `/{tenant}` path prefix, the ids the route's template names in the path, the
//! other fields in a ProtoJSON body (`POST`) or in the query (`GET`, `DELETE`); answers are the
//! result's ProtoJSON, stream events bare `StreamResponse`s, errors `google.rpc.Status` documents
//! with the mapped HTTP status. Nothing here names an operation: a new one needs only its route.

use a2a_jsonrpc::A2aError;
use a2a_types::protocol::{Operation, Reply, Request, StreamRequest, content_type, rest};
use a2a_types::v1::StreamResponse;
use bytes::Bytes;
use http::Method;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{RestCodec, Route};
use crate::Error;
use crate::http::Dialect;
use crate::transport::jsonrpc::v1::{ReplyTo, stream_for, unary_for};
use crate::transport::sse::EventDecoder;

/// The `Accept` of a call answered with JSON: the 1.0.1 media type first, plain JSON too.
const ACCEPT_JSON: &str = "application/a2a+json, application/json";

/// The request member the tenant prefix carries.
const TENANT: &str = "tenant";

/// The 1.x codec: 1.0, or the 1.1 draft, which sends `A2A-Version: 1.1` and the requests'
/// generations (`?currentGeneration=N` on `GET /tasks/{id}`, `ifGenerationMatch` in the send's
/// configuration); the 1.0 codec leaves those out.
pub(crate) struct Codec {
    generations: bool,
}

impl Codec {
    /// A2A 1.0.
    pub(crate) const V1_0: Codec = Codec { generations: false };
    /// A2A 1.1 (draft): 1.0 with the task generations.
    pub(crate) const V1_1: Codec = Codec { generations: true };
}

impl RestCodec for Codec {
    fn dialect(&self) -> Dialect {
        if self.generations {
            Dialect::V1_1
        } else {
            Dialect::V1_0
        }
    }

    fn body_type(&self) -> &'static str {
        content_type::A2A_JSON
    }

    fn accept_json(&self) -> &'static str {
        ACCEPT_JSON
    }

    fn route(&self, request: &Request) -> Result<Route, Error> {
        let request = unary_for(self.generations, request);
        route(request.operation(), &*request, request.tenant())
    }

    fn stream_route(&self, request: &StreamRequest) -> Result<Route, Error> {
        let request = stream_for(self.generations, request);
        route(request.operation(), &*request, request.tenant())
    }

    fn decode_reply(&self, operation: Operation, body: &[u8]) -> Result<Reply, Error> {
        if operation == Operation::DeleteTaskPushNotificationConfig {
            // The answer is empty, `{}` (ProtoJSON of Empty) or anything else: all fine.
            return Ok(Reply::Empty);
        }
        Ok(a2a_types::json::from_slice_seed(ReplyTo(operation), body)?)
    }

    fn decode_events(&self) -> EventDecoder {
        Box::new(decode_event)
    }

    fn error(&self, status: http::StatusCode, body: &[u8]) -> Error {
        error_of(status, body)
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

impl Members<'_> {
    /// The members but those named in `left_out`.
    fn except<'m>(
        &'m self,
        left_out: &'m [&str],
    ) -> impl Iterator<Item = (&'m str, &'m RawValue)> + 'm {
        self.0
            .iter()
            .filter(move |(name, _)| !left_out.contains(&name.as_str()))
            .map(|(name, value)| (name.as_str(), *value))
    }

    /// The string member `name`, `""` when it is absent or no string.
    fn text(&self, name: &str) -> String {
        self.0
            .iter()
            .find(|(member, _)| member == name)
            .and_then(|(_, value)| serde_json::from_str::<String>(value.get()).ok())
            .unwrap_or_default()
    }
}

/// A `POST` body: the request's members but those the path carries, as they were written and in
/// their order.
fn body(members: &Members<'_>, in_path: &[&str]) -> Bytes {
    let mut out = Vec::new();
    out.push(b'{');
    for (name, value) in members.except(in_path) {
        if out.len() > 1 {
            out.push(b',');
        }
        out.extend_from_slice(Value::from(name).to_string().as_bytes());
        out.push(b':');
        out.extend_from_slice(value.get().as_bytes());
    }
    out.push(b'}');
    Bytes::from(out)
}

/// A query: the request's members but the path's, by name (ProtoJSON names, enum names,
/// RFC 3339 timestamps, `true`/`false`), a list as the parameter repeated, an object's fields as
/// `name.field`, sorted by name.
fn query(members: &Members<'_>, in_path: &[&str]) -> String {
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
    for (name, raw) in members.except(in_path) {
        if let Ok(value) = serde_json::from_str::<Value>(raw.get()) {
            push(&mut pairs, name, &value);
        }
    }
    // One order, by name (a list keeps its order).
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
    out
}

/// The request members a route's path template carries, in order: `{id}` and `{taskId}` name
/// the task (the members `id` and `taskId`), `{configId}` a push config (its member `id`).
fn path_members(template: &'static str) -> Vec<&'static str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        names.push(match &rest[start + 1..start + len] {
            "configId" => "id",
            name => name,
        });
        rest = &rest[start + len + 1..];
    }
    names
}

/// The route of a call of `operation` with the request message `request`: the tenant prefix and
/// the ids in the path, which must not be empty (an empty segment names another route); the
/// request's other members in the body of a `POST`, in the query otherwise.
fn route<R: Serialize>(
    operation: Operation,
    request: &R,
    tenant: Option<&str>,
) -> Result<Route, Error> {
    let failed = |err: serde_json::Error| {
        Error::Config(format!("the {operation} request cannot be written: {err}"))
    };
    let whole = serde_json::to_vec(request).map_err(failed)?;
    let members: Members<'_> = serde_json::from_slice(&whole).map_err(failed)?;
    let template = operation.rest_route();
    let names = path_members(template.path);
    let ids: Vec<String> = names.iter().map(|name| members.text(name)).collect();
    if let Some((name, _)) = names.iter().zip(&ids).find(|(_, id)| id.is_empty()) {
        return Err(Error::Config(format!(
            "{operation} needs a `{name}` to put in its HTTP+JSON path"
        )));
    }
    let mut in_path = vec![TENANT];
    in_path.extend(&names);
    let id = |i: usize| ids.get(i).map(String::as_str);
    let method = Method::from_bytes(template.method.as_bytes()).unwrap_or(Method::GET);
    let (query, body) = if method == Method::POST {
        (String::new(), Some(body(&members, &in_path)))
    } else {
        (query(&members, &in_path), None)
    };
    Ok(Route {
        method,
        path: rest::path(operation, tenant, id(0), id(1)),
        query,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    const V1: &Codec = &Codec::V1_0;
    use crate::transport::fixtures::{self, TASK, replies};
    use crate::transport::rest::seen;
    use pretty_assertions::assert_eq;

    #[test]
    fn every_operation_is_its_route_with_ids_in_the_path() {
        assert_eq!(
            seen::routed(V1),
            [
                r#"POST /acme/message:send {"message":{"messageId":"m-1","contextId":"c-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#,
                r#"GET /tasks/t-1?historyLength=2 -"#,
                r#"GET /tasks?pageSize=10 -"#,
                r#"POST /tasks/t-1:cancel {}"#,
                r#"POST /tasks/t-1/pushNotificationConfigs {"url":"https://hook.example/a2a","token":"tok"}"#,
                r#"GET /tasks/t-1/pushNotificationConfigs/c-1 -"#,
                r#"GET /tasks/t-1/pushNotificationConfigs -"#,
                r#"GET /extendedAgentCard -"#,
                r#"DELETE /tasks/t-1/pushNotificationConfigs/c-1 -"#,
                r#"POST /message:stream {"message":{"messageId":"m-1","contextId":"c-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#,
                r#"GET /tasks/t-1:subscribe -"#,
            ]
        );
    }

    #[test]
    fn the_1_1_codec_carries_the_generations_and_1_0_leaves_them_out() {
        use a2a_types::v1::{GetTaskRequest, SendMessageConfiguration, SendMessageRequest};
        let get = Request::from(GetTaskRequest::new("t-1").with_current_generation(3));
        let send = SendMessageRequest::new(fixtures::message().with_task_id("t-1"))
            .with_configuration(SendMessageConfiguration::default().with_if_generation_match(2));
        let line = |codec: &Codec, request: &Request| {
            let route = codec.route(request).unwrap();
            format!(
                "{} {}{} {}",
                route.method,
                route.path,
                if route.query.is_empty() {
                    String::new()
                } else {
                    format!("?{}", route.query)
                },
                route
                    .body
                    .as_deref()
                    .map_or("-".into(), |b| String::from_utf8_lossy(b).into_owned())
            )
        };
        let v1_1 = &Codec::V1_1;
        assert_eq!(line(v1_1, &get), "GET /tasks/t-1?currentGeneration=3 -");
        assert_eq!(line(V1, &get), "GET /tasks/t-1 -");
        assert_eq!(
            line(v1_1, &send.clone().into()),
            r#"POST /message:send {"message":{"messageId":"m-1","contextId":"c-1","taskId":"t-1","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"ifGenerationMatch":"2"}}"#
        );
        assert_eq!(
            line(V1, &send.into()),
            r#"POST /message:send {"message":{"messageId":"m-1","contextId":"c-1","taskId":"t-1","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{}}"#
        );
        assert_eq!(v1_1.dialect().version, Some("1.1"));
        assert_eq!(V1.dialect().version, Some("1.0"));
    }

    #[test]
    fn ids_the_path_needs_must_be_there() {
        let request = Request::from(a2a_types::v1::GetTaskPushNotificationConfigRequest::new(
            "t-1", "",
        ));
        assert_eq!(
            V1.route(&request).unwrap_err().to_string(),
            "GetTaskPushNotificationConfig needs a `id` to put in its HTTP+JSON path"
        );
        let create = Request::from(a2a_types::v1::TaskPushNotificationConfig::new("https://h"));
        assert_eq!(
            V1.route(&create).unwrap_err().to_string(),
            "CreateTaskPushNotificationConfig needs a `taskId` to put in its HTTP+JSON path"
        );
    }

    #[test]
    fn every_reply_is_read_from_its_body() {
        for (operation, json) in replies() {
            assert_eq!(seen::reply(V1, operation, &json), json, "{operation}");
        }
        let read = |op, json: &str| seen::reply(V1, op, json);
        assert_eq!(read(Operation::DeleteTaskPushNotificationConfig, ""), "{}");
        assert_eq!(
            read(Operation::GetTask, r#"{"id":["t-1"]}"#),
            "error: cannot decode the answer: id: invalid type: sequence, expected a string"
        );
    }

    #[test]
    fn events_are_bare_stream_responses_or_statuses() {
        let events = [
            seen::event(V1, &format!(r#"{{"task":{TASK}}}"#)),
            seen::event(
                V1,
                r#"{"error":{"code":404,"status":"NOT_FOUND","message":"gone"}}"#,
            ),
            seen::event(V1, r#"{"surprise":1}"#),
        ];
        assert_eq!(
            events.to_vec(),
            [
                fixtures::sent_task().as_str(),
                r#"error: the agent answered TaskNotFoundError (-32001): gone"#,
                r#"error: cannot decode the answer: .: StreamResponse needs exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate` (oneof `payload`), found none"#,
            ]
        );
    }

    fn members(json: &str) -> Members<'_> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn queries_are_protojson_names_sorted_and_escaped() {
        let json = r#"{"tenant":"acme","contextId":"c 1&2","status":"TASK_STATE_WORKING",
            "pageSize":10,"pageToken":"p+q=","historyLength":0,
            "statusTimestampAfter":"2026-01-02T03:04:05.678Z","includeArtifacts":true}"#;
        assert_eq!(
            query(&members(json), &[TENANT]),
            "contextId=c%201%262&historyLength=0&includeArtifacts=true&pageSize=10&\
             pageToken=p%2Bq%3D&status=TASK_STATE_WORKING&\
             statusTimestampAfter=2026-01-02T03%3A04%3A05.678Z"
        );
        assert_eq!(query(&members("{}"), &[TENANT]), "");
    }

    #[test]
    fn lists_repeat_and_objects_nest() {
        let json = r#"{"a": [1, 2], "o": {"x": true, "y": null}, "tenant": "t"}"#;
        assert_eq!(query(&members(json), &[TENANT]), "a=1&a=2&o.x=true");
    }

    #[test]
    fn bodies_leave_out_what_the_path_carries() {
        assert_eq!(
            body(&members(r#"{"tenant":"acme","id":"t-1"}"#), &[TENANT, "id"]),
            "{}"
        );
        // The other members as they were written, in their order (not sorted).
        let json = r#"{"tenant":"acme","zeta":[1.5,2.0],"taskId":"t-1","alpha":{"y":["a\"b",null]},"q\"":1}"#;
        assert_eq!(
            body(&members(json), &[TENANT, "taskId"]),
            r#"{"zeta":[1.5,2.0],"alpha":{"y":["a\"b",null]},"q\"":1}"#
        );
        assert!(route(Operation::CancelTask, &"not an object", None).is_err());
    }

    #[test]
    fn templates_name_the_members_of_the_path() {
        let names: Vec<Vec<&str>> = Operation::ALL
            .iter()
            .map(|op| path_members(op.rest_route().path))
            .collect();
        assert_eq!(
            names,
            [
                vec![],
                vec![],
                vec!["id"],
                vec![],
                vec!["id"],
                vec!["id"],
                vec!["taskId"],
                vec!["taskId", "id"],
                vec!["taskId"],
                vec![],
                vec!["taskId", "id"],
            ]
        );
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
