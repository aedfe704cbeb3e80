//! HTTP+JSON (REST), written once for both protocol versions that have it: one route per
//! operation under the interface's URL (the interface URL's path and query kept in front), the
//! version's service-parameter headers and media types, errors read by the version's rule,
//! streams as SSE whose events are bare `StreamResponse`s. What differs between versions
//! (routes, bodies, answers, errors) is the version's [`RestCodec`]: [`v1`] (spec 1.0 §11) and
//! [`v0_3`] (the `/v1/...` routes of the 0.3 proto, also for 0.2).
//!
//! **`SubscribeToTask` by `POST`.** The proto's http rule subscribes with `GET` (what this
//! client sends), the spec text with `POST`. A peer that serves only `POST` answers the `GET`
//! 404 or 405 (the JS SDK's server reads `GET /tasks/{id}:subscribe` as `GetTask` of the id
//! `{id}:subscribe`): the subscription is then sent once more as a bodiless `POST`, and when that
//! opens the stream the transport subscribes to that agent by `POST` from then on (every clone
//! of the client shares the choice; logged at `info`). When the `POST` is answered 404 or 405
//! too, the `GET`'s error is the call's.

pub(crate) mod v0_3;
pub(crate) mod v0_3_proto;
pub(crate) mod v1;

use std::sync::atomic::{AtomicBool, Ordering};

use a2a_types::protocol::{Operation, Reply, Request, StreamRequest, content_type};
use bytes::Bytes;
use http::{Method, StatusCode, header};

use super::sse::{self, EventDecoder};
use super::{BoxFuture, EventStream, Transport, boxed};
use crate::Error;
use crate::http::{Dialect, HttpClient, Opened, content_type_of};
use crate::interceptor::CallInfo;

/// One protocol version's HTTP+JSON: how a call is routed and how its answers are read. The
/// operations a version lacks are [`Error::Unsupported`] from `route`, before anything is sent.
pub(crate) trait RestCodec: Send + Sync + 'static {
    /// The service parameters the version sends as headers.
    fn dialect(&self) -> Dialect;

    /// The `Content-Type` of request bodies.
    fn body_type(&self) -> &'static str;

    /// The `Accept` of calls answered with JSON.
    fn accept_json(&self) -> &'static str;

    /// The route of a unary call.
    fn route(&self, request: &Request) -> Result<Route, Error>;

    /// The route of a streaming call.
    fn stream_route(&self, request: &StreamRequest) -> Result<Route, Error>;

    /// The reply to `operation` from the body of a `2xx` answer.
    fn decode_reply(&self, operation: Operation, body: &[u8]) -> Result<Reply, Error>;

    /// How a stream's events are read: each SSE `data:` an event, or an error that ends it.
    fn decode_events(&self) -> EventDecoder;

    /// The error of a non-`2xx` answer.
    fn error(&self, status: StatusCode, body: &[u8]) -> Error;
}

/// One call on the wire: the method, the path under the interface URL, the query and the body.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Route {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) query: String,
    pub(crate) body: Option<Bytes>,
}

/// The HTTP+JSON transport of one protocol version: the wire written once, the version's
/// [`RestCodec`] for the rest.
pub(crate) struct RestTransport<C> {
    http: HttpClient,
    /// `scheme://authority`.
    origin: String,
    /// The interface URL's path, without a trailing `/`.
    base_path: String,
    /// The interface URL's query, kept before the call's own parameters.
    base_query: Option<String>,
    /// Set once the agent answered a `GET` subscription 404/405 and a `POST` one with a stream.
    subscribe_by_post: AtomicBool,
    codec: C,
}

/// What a request for a stream got: the stream, or an answer read whole.
enum Streamed {
    Events(EventStream),
    Answer(http::response::Parts, Bytes),
}

impl<C: RestCodec> RestTransport<C> {
    pub(crate) fn new(http: HttpClient, endpoint: &http::Uri, codec: C) -> Result<Self, Error> {
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
            subscribe_by_post: AtomicBool::new(false),
            codec,
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
        let dialect = self.codec.dialect();
        let mut builder =
            self.http
                .request_in(dialect, route.method, uri, accept, last_event_id)?;
        if route.body.is_some() {
            builder = builder.header(header::CONTENT_TYPE, self.codec.body_type());
        }
        builder
            .body(route.body.unwrap_or_default())
            .map_err(|err| Error::Config(format!("cannot build the request: {err}")))
    }

    async fn unary(&self, call: CallInfo, request: &Request) -> Result<Reply, Error> {
        let route = self.codec.route(request)?;
        let http_request = self.request(route, self.codec.accept_json(), None)?;
        let (head, bytes) = self.http.exchange(&call, http_request).await?;
        if !head.status.is_success() {
            return Err(self.codec.error(head.status, &bytes));
        }
        self.codec.decode_reply(request.operation(), &bytes)
    }

    /// Sends a request for an event stream.
    async fn send_stream(
        &self,
        call: &CallInfo,
        route: Route,
        last_event_id: Option<&str>,
    ) -> Result<Streamed, Error> {
        let request = self.request(route, content_type::EVENT_STREAM, last_event_id)?;
        Ok(match self.http.open(call, request).await? {
            Opened::Events(body) => Streamed::Events(sse::events(body, self.codec.decode_events())),
            Opened::Answer(head, bytes) => Streamed::Answer(head, bytes),
        })
    }

    /// The error of an answer that is no event stream.
    fn not_a_stream(
        &self,
        operation: Operation,
        head: &http::response::Parts,
        body: &[u8],
    ) -> Error {
        if head.status.is_success() {
            Error::Protocol(format!(
                "{operation} answered with `{}` instead of an event stream",
                content_type_of(head)
            ))
        } else {
            self.codec.error(head.status, body)
        }
    }

    async fn stream(
        &self,
        call: CallInfo,
        request: &StreamRequest,
        last_event_id: Option<&str>,
    ) -> Result<EventStream, Error> {
        let operation = request.operation();
        let mut route = self.codec.stream_route(request)?;
        let by_get = operation == Operation::SubscribeToTask && route.method == Method::GET;
        if by_get && self.subscribe_by_post.load(Ordering::Acquire) {
            route = by_post(route);
        }
        let (head, bytes) = match self
            .send_stream(&call, route.clone(), last_event_id)
            .await?
        {
            Streamed::Events(events) => return Ok(events),
            Streamed::Answer(head, bytes) => (head, bytes),
        };
        let refused = |status: StatusCode| {
            matches!(
                status,
                StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
            )
        };
        if route.method != Method::GET || !by_get || !refused(head.status) {
            return Err(self.not_a_stream(operation, &head, &bytes));
        }
        // A peer that subscribes by POST only (see the module docs).
        match self
            .send_stream(&call, by_post(route), last_event_id)
            .await?
        {
            Streamed::Events(events) => {
                if !self.subscribe_by_post.swap(true, Ordering::AcqRel) {
                    tracing::info!(
                        target: "a2a_client",
                        agent = %self.origin,
                        "SubscribeToTask by GET was answered HTTP {}; the agent subscribes by \
                         POST, which this client uses with it from now on",
                        head.status
                    );
                }
                Ok(events)
            }
            Streamed::Answer(post_head, _) if refused(post_head.status) => {
                Err(self.not_a_stream(operation, &head, &bytes))
            }
            Streamed::Answer(post_head, post_bytes) => {
                Err(self.not_a_stream(operation, &post_head, &post_bytes))
            }
        }
    }
}

/// `route` sent as a bodiless `POST`.
fn by_post(route: Route) -> Route {
    Route {
        method: Method::POST,
        body: None,
        ..route
    }
}

impl<C: RestCodec> Transport for RestTransport<C> {
    fn call<'a>(
        &'a self,
        call: CallInfo,
        request: &'a Request,
    ) -> BoxFuture<'a, Result<Reply, Error>> {
        boxed(self.unary(call, request))
    }

    fn open<'a>(
        &'a self,
        call: CallInfo,
        request: &'a StreamRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        boxed(self.stream(call, request, last_event_id))
    }
}

/// What a codec writes and reads, as text the tests compare with literal JSON.
#[cfg(test)]
pub(crate) mod seen {
    use a2a_types::protocol::Operation;

    use super::{RestCodec, Route};
    use crate::transport::fixtures;

    /// One line per operation (the unary ones, then the streaming ones): `METHOD path?query
    /// body` (`-` for no body), or the error.
    pub(crate) fn routed(codec: &dyn RestCodec) -> Vec<String> {
        let line = |route: Result<Route, crate::Error>| match route {
            Ok(route) => format!(
                "{} {}{}{} {}",
                route.method,
                route.path,
                if route.query.is_empty() { "" } else { "?" },
                route.query,
                route
                    .body
                    .as_deref()
                    .map_or("-".into(), String::from_utf8_lossy)
            ),
            Err(error) => format!("error: {error}"),
        };
        let unary = fixtures::requests()
            .into_iter()
            .map(|r| line(codec.route(&r)));
        let streams = fixtures::stream_requests()
            .into_iter()
            .map(|r| line(codec.stream_route(&r)));
        unary.chain(streams).collect()
    }

    /// The reply to `operation` read from `body`, as 1.0 JSON, or the error.
    pub(crate) fn reply(codec: &dyn RestCodec, operation: Operation, body: &str) -> String {
        match codec.decode_reply(operation, body.as_bytes()) {
            Ok(reply) => serde_json::to_string(&reply).unwrap(),
            Err(error) => format!("error: {error}"),
        }
    }

    /// The event read from the SSE `data`, as 1.0 JSON, or the error.
    pub(crate) fn event(codec: &dyn RestCodec, data: &str) -> String {
        match codec.decode_events()(data) {
            Ok(event) => serde_json::to_string(&event).unwrap(),
            Err(error) => format!("error: {error}"),
        }
    }
}
