//! The HTTP+JSON (REST) binding (spec 1.0 §11, the `google.api.http` options of `a2a.proto`):
//! one route per operation, each also under a `/{tenant}` prefix; ProtoJSON bodies and query
//! parameters in; ProtoJSON results, `google.rpc.Status` errors and SSE streams of bare
//! `StreamResponse`s out; successes as `application/a2a+json`, errors as `application/json`
//! (spec 1.0 §11.1, the §11.6 example).
//!
//! Each version is a [`Codec`]: its routes, how it decodes a request into a [`Call`], writes a
//! [`Reply`], frames a stream event and renders an error. This module holds what every version
//! shares: trying the versions' routes in turn, the version check, the query, the request
//! body, the call through the handler under the request timeout, the stream permit and the
//! SSE framing. `v1.rs` is the 1.0 version (routes without a version prefix). `v0_3.rs` is
//! the 0.3 version: the routes under `/v1/...` of a request whose `A2A-Version` does not name
//! 1.x, converted to the 1.0 requests and answered in the 0.3 proto's ProtoJSON.

mod v0_3;
mod v1;

use std::fmt;
use std::ops::RangeInclusive;

use a2a_types::protocol::generations::{self, VERSION_1_1};
use a2a_types::protocol::{
    Call, Operation, ProtocolVersion, Reply, StreamRequest, VERSION_0_3, VERSION_1_0, content_type,
    headers, rest,
};
use a2a_types::v1::{StreamResponse, TaskState, Timestamp};
use bytes::Bytes;
use http::{HeaderValue, Method, StatusCode, header};

use crate::binding::{Framing, sse_response};
use crate::card::Versions;
use crate::common::Settings;
use crate::common::body::{A2aBody, read_body};
use crate::common::head::{self, RequestedVersion};
use crate::common::response;
use crate::common::sse::StreamPermits;
use crate::error::A2aError;
use crate::handler::{CallContext, RequestHandler};

/// The protocol versions the routes serve, as the card's interfaces name them.
pub(crate) const VERSIONS: &[&str] = &[VERSION_1_1, VERSION_1_0, VERSION_0_3];

/// Every version's routes, in the order they are tried: 0.3 claims its `/v1/...` paths first.
const CODECS: [&dyn Codec; 2] = [&v0_3::V0_3, &v1::V1_0];

/// One protocol version of the REST binding: its routes, and the shapes of its requests,
/// results, stream events and errors. The binding does the rest once for every version: the
/// version check, the query, the body, the call through [`RequestHandler::call`] or
/// [`RequestHandler::open`], the request timeout, the stream permit.
pub(crate) trait Codec: Send + Sync + 'static {
    /// The protocol version calls of it speak ([`CallContext::protocol_version`]).
    fn protocol_version(&self) -> ProtocolVersion;

    /// The route of a request whose path is one of this version's; `None` when it is not
    /// (another version's, tried next). A path that is no route is a 404, a route that takes
    /// other methods a 405 (with the methods it takes, for `Allow`), a path parameter that is
    /// not UTF-8 once percent-decoded a 400.
    fn resolve(&self, head: &http::request::Parts) -> Option<Result<Route, Refused>>;

    /// Whether a request with this `A2A-Version` may call this version's routes.
    fn check_version(&self, requested: &RequestedVersion) -> Result<(), A2aError>;

    /// The call of `route` from its path parameters, query and body (empty for GET and
    /// DELETE routes).
    fn decode(&self, route: &Route, query: &Query, body: &[u8]) -> Result<Call, A2aError>;

    /// The body of a unary call's answer.
    fn encode(&self, reply: Reply) -> Result<Vec<u8>, A2aError>;

    /// Writes one stream event as this version's `data:`.
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>);

    /// The body of an error (an `event: error`'s data in a stream).
    fn error(&self, error: &A2aError) -> serde_json::Value;

    /// The media type of its bodies.
    fn content_type(&self) -> &'static str;

    /// Whether the version reads and writes task generations (the A2A 1.1 draft): when not,
    /// the 1.1 fields of a request are dropped and its answers are written without them.
    fn generations(&self) -> bool {
        false
    }
}

/// The codec of a protocol version the routes serve.
fn codec(protocol_version: ProtocolVersion) -> &'static dyn Codec {
    CODECS
        .into_iter()
        .find(|c| c.protocol_version() == protocol_version)
        .unwrap_or(&v1::V1_0)
}

/// A request resolved to its route: the operation and its path parameters, percent-decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    /// The operation the method and path name.
    pub(crate) operation: Operation,
    /// The `/{tenant}` prefix, if any.
    pub(crate) tenant: Option<String>,
    /// `{id}` or `{taskId}`.
    pub(crate) task_id: Option<String>,
    /// `{configId}` (the push config's `id`).
    pub(crate) config_id: Option<String>,
    /// The version whose routes these are: 1.0, or 0.3 under `/v1/...`.
    pub(crate) protocol_version: ProtocolVersion,
}

/// A request no route takes: the error, and for a 405 the methods the path takes.
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) error: A2aError,
    pub(crate) allow: Option<String>,
}

impl From<A2aError> for Refused {
    fn from(error: A2aError) -> Self {
        Self { error, allow: None }
    }
}

/// The route of a request, or the response refusing it in the shape of the version whose
/// path it is (see [`Codec::resolve`]).
pub(crate) fn resolve(
    head: &http::request::Parts,
    versions: Versions,
) -> Result<Route, Box<http::Response<A2aBody>>> {
    let (codec, resolved) = CODECS
        .into_iter()
        .filter(|codec| versions.serves(codec.protocol_version()))
        .find_map(|codec| Some((codec, codec.resolve(head)?)))
        .unwrap_or((
            &v1::V1_0,
            Err(A2aError::method_not_found("no route").into()),
        ));
    resolved.map_err(|refused| {
        let mut response = error_response(codec, &refused.error);
        if let Some(allow) = refused.allow.and_then(|a| HeaderValue::from_str(&a).ok()) {
            response.headers_mut().insert(header::ALLOW, allow);
        }
        Box::new(response)
    })
}

/// Answers one request to a resolved route. `call` holds the caller (already authenticated)
/// and the `A2A-Extensions` headers. A 1.0 route called with `A2A-Version: 1.1` is answered by
/// the 1.1 draft's codec when `versions` serve it.
#[expect(
    clippy::too_many_arguments,
    reason = "the request, the versions served and what answers it"
)]
pub(crate) async fn handle<B>(
    handler: &RequestHandler,
    settings: Settings,
    permits: &StreamPermits,
    versions: Versions,
    route: Route,
    head: http::request::Parts,
    body: B,
    call: CallContext,
) -> http::Response<A2aBody>
where
    B: http_body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let codec = match codec(route.protocol_version) {
        c if c.protocol_version() == ProtocolVersion::V1
            && versions.serves_v1_1()
            && RequestedVersion::of(&head).is_v1_1() =>
        {
            &v1::V1_1
        }
        c => c,
    };
    match serve(codec, handler, settings, permits, route, head, body, call).await {
        Ok(response) => response,
        Err(error) => error_response(codec, &error),
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "the request, the codec that reads it and what answers it"
)]
async fn serve<B>(
    codec: &'static dyn Codec,
    handler: &RequestHandler,
    settings: Settings,
    permits: &StreamPermits,
    route: Route,
    head: http::request::Parts,
    body: B,
    call: CallContext,
) -> Result<http::Response<A2aBody>, A2aError>
where
    B: http_body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    codec.check_version(&RequestedVersion::of(&head))?;
    let query = Query::parse(head.uri.query())?;
    // Every POST route takes a body (`body: "*"` in a2a.proto; SubscribeToTask's POST form an
    // optional one); GET and DELETE routes take none, and a body sent with them is not read.
    let bytes = if head.method == Method::POST {
        if let Some(given) = head.headers.get(header::CONTENT_TYPE)
            && !given.to_str().is_ok_and(content_type::is_json)
        {
            return Err(A2aError::content_type_not_supported(
                String::from_utf8_lossy(given.as_bytes()),
                "application/a2a+json or application/json",
            )
            .with_http_status(415));
        }
        read_body(&head, body, settings.body).await?
    } else {
        Bytes::new()
    };
    let mut request = codec.decode(&route, &query, &bytes)?;
    if !codec.generations() {
        request.strip_generations();
    }
    let mut extensions = call.extensions.clone();
    extensions.extend(query.list(headers::A2A_EXTENSIONS));
    let call = call
        .with_extensions(extensions)
        .with_protocol_version(codec.protocol_version());
    match request {
        Call::Stream(request) => {
            // The permit first: a refused stream starts nothing.
            let permit = permits.try_acquire()?;
            // Only a subscription resumes; an unreadable Last-Event-ID is its error.
            let resume = match &request {
                StreamRequest::SubscribeToTask(_) => head::last_event_id(&head)?,
                _ => None,
            };
            let events = handler.open(request, resume, &call).await?;
            Ok(sse_response(
                events,
                RestFraming(codec),
                permit,
                settings.keep_alive,
            ))
        }
        Call::Unary(request) => {
            let answer = async {
                let reply = handler.call(request, &call).await?;
                generations::written(codec.generations(), || codec.encode(reply))
            };
            match tokio::time::timeout(settings.request_timeout, answer).await {
                Ok(body) => Ok(response::full(StatusCode::OK, codec.content_type(), body?)),
                Err(_) => Err(A2aError::internal(format!(
                    "the call did not finish within {} ms; a task it started goes on and can be \
                     read with GET /tasks/{{id}}",
                    settings.request_timeout.as_millis()
                ))
                .with_http_status(504)),
            }
        }
        other => Err(A2aError::unsupported_operation(format!(
            "{} has no HTTP+JSON route on this server",
            other.operation()
        ))),
    }
}

// ----- errors ----------------------------------------------------------------------------------

/// An error as `codec` answers it: its error body with the mapped HTTP status (and
/// `Retry-After` when the error says when to try again), as `application/json` in every
/// version (spec 1.0 §11.1 and the §11.6 example: a `google.rpc.Status` error is
/// `application/json`, though a 1.0 success is `application/a2a+json`).
fn error_response(codec: &dyn Codec, error: &A2aError) -> http::Response<A2aBody> {
    response::error(
        error,
        content_type::JSON,
        serde_json::to_vec(&codec.error(error)).expect("JSON serializes"),
    )
}

/// An error in the 1.0 shape (a `google.rpc.Status` document), for a refusal before the
/// request has a route's version (the caller's authentication).
pub(crate) fn v1_error_response(error: &A2aError) -> http::Response<A2aBody> {
    error_response(&v1::V1_0, error)
}

/// A bad query parameter or path segment: -32602 naming it in a `BadRequest` field violation.
fn bad_param(name: &str, kind: &str, why: impl fmt::Display) -> A2aError {
    let why = why.to_string();
    A2aError::invalid_params(format!("{kind} `{name}` {why}")).with_field_violation(name, why)
}

// ----- SSE -------------------------------------------------------------------------------------

/// Each event's `data:` is the version's `StreamResponse`. An error after the stream started
/// is an `event: error` whose data is the version's error body, as the Python and JS SDKs frame
/// it (their REST clients read `event: error` as the stream's failure).
struct RestFraming(&'static dyn Codec);

impl Framing for RestFraming {
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>) {
        generations::written(self.0.generations(), || self.0.event(event, out));
    }

    fn error(&self, error: &A2aError, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &self.0.error(error)).expect("JSON serializes");
    }

    fn error_event(&self) -> Option<&'static str> {
        Some("error")
    }
}

/// What every version's tests share: a request decoded by its version, a reply encoded.
#[cfg(test)]
pub(super) mod testing {
    use super::*;

    /// The operation and the 1.0 JSON of the request `method path?query` with `body`.
    pub(crate) fn decoded(
        method: &str,
        path_and_query: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (Operation, serde_json::Value) {
        let mut request = http::Request::builder().method(method).uri(path_and_query);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let head = request.body(()).unwrap().into_parts().0;
        let route = resolve(&head, crate::card::Versions::all())
            .unwrap_or_else(|_| panic!("{method} {path_and_query}"));
        let codec = codec(route.protocol_version);
        let query = Query::parse(head.uri.query()).unwrap();
        let call = codec
            .decode(&route, &query, body.as_bytes())
            .unwrap_or_else(|e| panic!("{method} {path_and_query}: {e}"));
        assert_eq!(call.operation(), route.operation);
        let json = match &call {
            Call::Unary(request) => serde_json::to_value(request).unwrap(),
            Call::Stream(request) => serde_json::to_value(request).unwrap(),
            other => panic!("{other:?}"),
        };
        (call.operation(), json)
    }

    /// The operations of `(method, path?query, body, expected 1.0 JSON)` cases, each decoded
    /// to its expected request.
    pub(crate) fn decoded_all(cases: &[(&str, &str, &str, serde_json::Value)]) -> Vec<Operation> {
        cases
            .iter()
            .map(|(method, path, body, expected)| {
                let (operation, json) = decoded(method, path, &[], body);
                assert_eq!(&json, expected, "{method} {path}");
                operation
            })
            .collect()
    }

    /// The body `codec` writes for `reply`.
    pub(crate) fn encoded(codec: &dyn Codec, reply: Reply) -> serde_json::Value {
        serde_json::from_slice(&codec.encode(reply).unwrap()).unwrap()
    }
}

// ----- query -----------------------------------------------------------------------------------

/// The query string, percent-decoded (`+` is a space, as HTML forms and the SDKs' HTTP clients
/// write it). Parameters are camelCase, with their proto snake_case spelling accepted too;
/// unknown parameters are ignored.
#[derive(Debug, Default)]
pub(crate) struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Reads a query string; a name or value that is not UTF-8 once decoded is a 400.
    pub(crate) fn parse(raw: Option<&str>) -> Result<Self, A2aError> {
        let mut pairs = Vec::new();
        for pair in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = percent_decode(name, true).map_err(|_| {
                A2aError::invalid_params(format!(
                    "a query parameter name is not UTF-8 once percent-decoded: `{name}`"
                ))
            })?;
            let value = percent_decode(value, true).map_err(|_| {
                bad_param(
                    &name,
                    "query parameter",
                    "is not UTF-8 once percent-decoded",
                )
            })?;
            pairs.push((name, value));
        }
        Ok(Self { pairs })
    }

    /// The value of a parameter that takes one: `None` when absent or empty; a 400 when given
    /// twice. `name` is camelCase; its snake_case spelling is accepted too.
    fn one(&self, name: &str) -> Result<Option<(&str, &str)>, A2aError> {
        let snake = snake_case(name);
        let mut given = self.pairs.iter().filter(|(k, _)| *k == name || *k == snake);
        let first = given.next();
        if let Some((k, _)) = first
            && given.next().is_some()
        {
            return Err(bad_param(
                k,
                "query parameter",
                "is given more than once; it takes one value",
            ));
        }
        Ok(first
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.as_str(), v.as_str())))
    }

    /// A string parameter.
    pub(crate) fn string(&self, name: &str) -> Result<Option<String>, A2aError> {
        Ok(self.one(name)?.map(|(_, v)| v.to_owned()))
    }

    /// An integer parameter within `range`.
    pub(crate) fn int(
        &self,
        name: &str,
        range: RangeInclusive<i32>,
    ) -> Result<Option<i32>, A2aError> {
        let Some((given, value)) = self.one(name)? else {
            return Ok(None);
        };
        let out_of_range = |n: &dyn fmt::Display| {
            let why = if range == (i32::MIN..=i32::MAX) {
                format!("must be a 32-bit integer, got {n}")
            } else if *range.end() == i32::MAX {
                format!("must not be less than {}, got {n}", range.start())
            } else {
                format!(
                    "must be between {} and {}, got {n}",
                    range.start(),
                    range.end()
                )
            };
            bad_param(given, "query parameter", why)
        };
        match value.parse::<i64>() {
            Ok(n) => i32::try_from(n)
                .ok()
                .filter(|n| range.contains(n))
                .map(Some)
                .ok_or_else(|| out_of_range(&n)),
            Err(_) => Err(bad_param(
                given,
                "query parameter",
                format!("must be an integer, got `{value}`"),
            )),
        }
    }

    /// A non-negative 64-bit integer parameter (a generation of the A2A 1.1 draft).
    pub(crate) fn int64(&self, name: &str) -> Result<Option<i64>, A2aError> {
        let Some((given, value)) = self.one(name)? else {
            return Ok(None);
        };
        match value.parse::<i64>() {
            Ok(n) if n >= 0 => Ok(Some(n)),
            _ => Err(bad_param(
                given,
                "query parameter",
                format!("must be a non-negative 64-bit integer, got `{value}`"),
            )),
        }
    }

    /// A boolean parameter: `true` or `false`.
    pub(crate) fn boolean(&self, name: &str) -> Result<Option<bool>, A2aError> {
        match self.one(name)? {
            None => Ok(None),
            Some((_, "true")) => Ok(Some(true)),
            Some((_, "false")) => Ok(Some(false)),
            Some((given, value)) => Err(bad_param(
                given,
                "query parameter",
                format!("must be true or false, got `{value}`"),
            )),
        }
    }

    /// A `TaskState` parameter: its full name or its number (`TASK_STATE_UNSPECIFIED` when
    /// absent).
    pub(crate) fn task_state(&self, name: &str) -> Result<TaskState, A2aError> {
        let Some((given, value)) = self.one(name)? else {
            return Ok(TaskState::default());
        };
        TaskState::from_name(value)
            .or_else(|| value.parse().ok().and_then(TaskState::from_number))
            .ok_or_else(|| {
                bad_param(
                    given,
                    "query parameter",
                    format!(
                        "must be a TaskState name (such as TASK_STATE_WORKING) or number, got \
                         `{value}`"
                    ),
                )
            })
    }

    /// An RFC 3339 timestamp parameter. A space where the offset's `+` belongs is read as `+`
    /// (an unencoded `+` arrives as a space).
    pub(crate) fn timestamp(&self, name: &str) -> Result<Option<Timestamp>, A2aError> {
        let Some((given, value)) = self.one(name)? else {
            return Ok(None);
        };
        value
            .parse::<Timestamp>()
            .or_else(|error| match value.rsplit_once(' ') {
                Some((time, offset)) if time.contains('T') || time.contains('t') => {
                    format!("{time}+{offset}").parse().map_err(|_| error)
                }
                _ => Err(error),
            })
            .map(Some)
            .map_err(|error| {
                bad_param(
                    given,
                    "query parameter",
                    format!(
                        "must be an RFC 3339 timestamp such as 2025-10-28T10:30:00.000Z, got \
                         `{value}` ({})",
                        error.reason
                    ),
                )
            })
    }

    /// A list parameter: repeated (`?a=x&a=y`), comma-separated (`?a=x,y`) or both; the name is
    /// matched ignoring case (service parameters such as `A2A-Extensions` are header names).
    pub(crate) fn list(&self, name: &str) -> Vec<String> {
        self.pairs
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .flat_map(|(_, v)| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .collect()
    }
}

/// `historyLength` -> `history_length`.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` percent-decoded ([`rest::percent_decode`], `+` a space when `plus_is_space`), as UTF-8.
fn percent_decode(s: &str, plus_is_space: bool) -> Result<String, std::string::FromUtf8Error> {
    String::from_utf8(rest::percent_decode(s, plus_is_space).into_owned())
}

#[cfg(test)]
mod tests {
    use super::v1::{not_found, status_document};
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn field_violation(error: &A2aError) -> serde_json::Value {
        status_document(error)["error"]["details"][1]["fieldViolations"].clone()
    }

    #[test]
    fn query_values() {
        let q = Query::parse(Some(
            "contextId=c%201&status=TASK_STATE_WORKING&page_size=7&includeArtifacts=true\
             &statusTimestampAfter=2025-01-01T01:00:00%2B01:00&unknown=%FF%FE&pageToken=",
        ))
        .unwrap_err();
        // A value that is not UTF-8 is refused even for an unknown parameter: it cannot be read.
        assert_eq!(
            q.message(),
            "invalid params: query parameter `unknown` is not UTF-8 once percent-decoded"
        );
        let q = Query::parse(Some(
            "contextId=c%201+2&status=3&page_size=7&includeArtifacts=true\
             &statusTimestampAfter=2025-01-01T01:00:00+01:00&other=x&pageToken=",
        ))
        .unwrap();
        assert_eq!(q.string("contextId").unwrap().as_deref(), Some("c 1 2"));
        assert_eq!(q.task_state("status").unwrap(), TaskState::Completed);
        assert_eq!(q.int("pageSize", 1..=100).unwrap(), Some(7));
        assert_eq!(q.boolean("includeArtifacts").unwrap(), Some(true));
        // `+` arrived as a space; the offset is read all the same.
        assert_eq!(
            q.timestamp("statusTimestampAfter")
                .unwrap()
                .unwrap()
                .to_string(),
            "2025-01-01T00:00:00.000Z"
        );
        assert_eq!(q.string("pageToken").unwrap(), None);
        assert_eq!(q.string("absent").unwrap(), None);
        assert_eq!(q.task_state("absent").unwrap(), TaskState::Unspecified);
    }

    #[test]
    fn bad_query_values_name_the_parameter() {
        let cases = [
            (
                "status=WORKING",
                "status",
                "must be a TaskState name (such as TASK_STATE_WORKING) or number, got `WORKING`",
            ),
            (
                "status=99",
                "status",
                "must be a TaskState name (such as TASK_STATE_WORKING) or number, got `99`",
            ),
            ("pageSize=0", "pageSize", "must be between 1 and 100, got 0"),
            (
                "pageSize=101",
                "pageSize",
                "must be between 1 and 100, got 101",
            ),
            (
                "pageSize=99999999999",
                "pageSize",
                "must be between 1 and 100, got 99999999999",
            ),
            ("pageSize=1.5", "pageSize", "must be an integer, got `1.5`"),
            ("page_size=x", "page_size", "must be an integer, got `x`"),
            (
                "historyLength=-1",
                "historyLength",
                "must not be less than 0, got -1",
            ),
            (
                "includeArtifacts=yes",
                "includeArtifacts",
                "must be true or false, got `yes`",
            ),
            (
                "pageSize=1&pageSize=2",
                "pageSize",
                "is given more than once; it takes one value",
            ),
            (
                "pageSize=1&page_size=1",
                "pageSize",
                "is given more than once; it takes one value",
            ),
            (
                "statusTimestampAfter=yesterday",
                "statusTimestampAfter",
                "must be an RFC 3339 timestamp such as 2025-10-28T10:30:00.000Z, got `yesterday` (the 'year' component could not be parsed)",
            ),
        ];
        for (raw, name, why) in cases {
            let q = Query::parse(Some(raw)).unwrap();
            let error = match name {
                "status" => q.task_state(name).unwrap_err(),
                "includeArtifacts" => q.boolean(name).unwrap_err(),
                "statusTimestampAfter" => q.timestamp(name).unwrap_err(),
                "historyLength" => q.int(name, 0..=i32::MAX).unwrap_err(),
                _ => q.int("pageSize", 1..=100).unwrap_err(),
            };
            assert_eq!(
                error.message(),
                format!("invalid params: query parameter `{name}` {why}"),
                "{raw}"
            );
            assert_eq!(
                field_violation(&error),
                json!([{"field": name, "description": why}]),
                "{raw}"
            );
            assert_eq!(error.http_status(), 400);
            assert_eq!(error.reason(), Some("INVALID_PARAMS"));
        }
        // Any 32-bit integer, for fields whose range the handler checks.
        let q = Query::parse(Some("pageSize=-2147483648&historyLength=2147483648")).unwrap();
        assert_eq!(
            q.int("pageSize", i32::MIN..=i32::MAX).unwrap(),
            Some(i32::MIN)
        );
        let error = q.int("historyLength", i32::MIN..=i32::MAX).unwrap_err();
        assert_eq!(
            field_violation(&error),
            json!([{"field": "historyLength", "description": "must be a 32-bit integer, got 2147483648"}])
        );
    }

    #[test]
    fn lists_are_repeated_or_comma_separated() {
        let q = Query::parse(Some(
            "A2A-Extensions=urn%3Aa,%20urn:b&a2a-extensions=urn:c&A2A-Extensions=,",
        ))
        .unwrap();
        assert_eq!(q.list(headers::A2A_EXTENSIONS), ["urn:a", "urn:b", "urn:c"]);
        assert!(q.list("absent").is_empty());
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b%2Fc", false).unwrap(), "a b/c");
        assert_eq!(percent_decode("a+b", false).unwrap(), "a+b");
        assert_eq!(percent_decode("a+b", true).unwrap(), "a b");
        assert_eq!(percent_decode("%e2%82%AC", false).unwrap(), "\u{20ac}");
        // Malformed escapes stay as they are.
        assert_eq!(percent_decode("100%", false).unwrap(), "100%");
        assert_eq!(percent_decode("%zz%4", false).unwrap(), "%zz%4");
        assert!(percent_decode("%FF", false).is_err());
        assert_eq!(snake_case("statusTimestampAfter"), "status_timestamp_after");
    }

    /// Every error of the catalogue, as this binding renders it: the HTTP status, the gRPC
    /// status and an `ErrorInfo` (added for the errors that have none of their own).
    #[test]
    fn every_error_has_its_status_and_error_info() {
        let cases = [
            (
                A2aError::task_not_found("t"),
                404,
                "NOT_FOUND",
                "TASK_NOT_FOUND",
            ),
            (
                A2aError::task_not_cancelable("t", "TASK_STATE_COMPLETED"),
                400,
                "FAILED_PRECONDITION",
                "TASK_NOT_CANCELABLE",
            ),
            (
                A2aError::push_notification_not_supported(),
                400,
                "FAILED_PRECONDITION",
                "PUSH_NOTIFICATION_NOT_SUPPORTED",
            ),
            (
                A2aError::unsupported_operation("no"),
                400,
                "FAILED_PRECONDITION",
                "UNSUPPORTED_OPERATION",
            ),
            (
                A2aError::content_type_not_supported("a/b", "c/d"),
                400,
                "INVALID_ARGUMENT",
                "CONTENT_TYPE_NOT_SUPPORTED",
            ),
            (
                A2aError::invalid_agent_response("x"),
                500,
                "INTERNAL",
                "INVALID_AGENT_RESPONSE",
            ),
            (
                A2aError::extended_agent_card_not_configured(),
                400,
                "FAILED_PRECONDITION",
                "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
            ),
            (
                A2aError::extension_support_required("urn:x"),
                400,
                "FAILED_PRECONDITION",
                "EXTENSION_SUPPORT_REQUIRED",
            ),
            (
                A2aError::version_not_supported("v"),
                400,
                "FAILED_PRECONDITION",
                "VERSION_NOT_SUPPORTED",
            ),
            (
                A2aError::invalid_params("p"),
                400,
                "INVALID_ARGUMENT",
                "INVALID_PARAMS",
            ),
            (A2aError::internal("i"), 500, "INTERNAL", "INTERNAL"),
            (
                A2aError::parse_error("e"),
                400,
                "INVALID_ARGUMENT",
                "PARSE_ERROR",
            ),
            (
                A2aError::invalid_request("r"),
                400,
                "INVALID_ARGUMENT",
                "INVALID_REQUEST",
            ),
            (
                A2aError::invalid_request("big").with_http_status(413),
                413,
                "INVALID_ARGUMENT",
                "INVALID_REQUEST",
            ),
            (
                A2aError::invalid_request("who").with_http_status(401),
                401,
                "UNAUTHENTICATED",
                "INVALID_REQUEST",
            ),
            (
                A2aError::internal("later").with_http_status(503),
                503,
                "UNAVAILABLE",
                "INTERNAL",
            ),
            (
                not_found(&Method::GET, "/nope"),
                404,
                "NOT_FOUND",
                "METHOD_NOT_FOUND",
            ),
        ];
        for (error, http, grpc, reason) in cases {
            let document = status_document(&error);
            let status = &document["error"];
            assert_eq!(status["code"], http, "{error}");
            assert_eq!(status["status"], grpc, "{error}");
            assert_eq!(status["message"], error.message(), "{error}");
            assert_eq!(
                status["details"][0]["@type"],
                "type.googleapis.com/google.rpc.ErrorInfo"
            );
            assert_eq!(status["details"][0]["reason"], reason, "{error}");
            assert_eq!(status["details"][0]["domain"], "a2a-protocol.org");
            // What a client reads back is the same error.
            let back = A2aError::from_status_json(&document).unwrap();
            assert_eq!(back.code(), error.code(), "{error}");
            assert_eq!(back.http_status(), http, "{error}");
        }
        // The ErrorInfo is added first, before the details the error has.
        let error = A2aError::parse_error("x").with_field_violation("message", "bad");
        assert_eq!(
            status_document(&error)["error"]["details"],
            json!([
                {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"PARSE_ERROR","domain":"a2a-protocol.org"},
                {"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message","description":"bad"}]}
            ])
        );
    }

    /// Events are bare `StreamResponse`s with their ids; an error after the stream started is
    /// an `event: error` carrying the `google.rpc.Status` document, and ends the stream.
    #[tokio::test]
    async fn stream_framing_and_a_mid_stream_error() {
        use a2a_types::v1::{Message, MessageId, Part, Role};
        use http_body_util::BodyExt as _;

        use crate::handler::{EventStream, StreamEvent};

        let event = StreamEvent {
            seq: Some(1),
            event: StreamResponse::Message(Message::new(
                MessageId::new("m-1"),
                Role::Agent,
                vec![Part::text("hi")],
            )),
        };
        let events: EventStream = Box::pin(futures_util::stream::iter(vec![
            Ok(event.clone()),
            Err(A2aError::internal("the store failed")),
            Ok(event),
        ]));
        let permits = StreamPermits::new(1);
        let response = sse_response(
            events,
            RestFraming(&v1::V1_0),
            permits.try_acquire().unwrap(),
            std::time::Duration::from_secs(60),
        );
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = std::str::from_utf8(&bytes).unwrap();
        let (first, error) = text.split_at(text.find("event: error").unwrap());
        assert_eq!(
            first,
            "data: {\"message\":{\"messageId\":\"m-1\",\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":\"hi\"}]}}\nid: 1\n\n"
        );
        let data = error
            .strip_prefix("event: error\ndata: ")
            .and_then(|rest| rest.strip_suffix("\n\n"))
            .unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(data).unwrap(),
            json!({"error":{"code":500,"status":"INTERNAL","message":"internal error: the store failed",
                "details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INTERNAL","domain":"a2a-protocol.org"}]}})
        );
        // The permit went with the stream.
        assert!(permits.try_acquire().is_ok());
    }
}
