//! [`A2aService`]: the whole server as one `tower_service::Service`.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_jsonrpc::{ErrorObject, Id, Methods, Payload, Response};
use a2a_sse::KeepAlive;
use a2a_types::v1::{AgentCard, AgentInterface, binding};
use bytes::Bytes;
use http::{HeaderValue, Method, StatusCode, header};
use http_body::Frame;
use http_body_util::BodyExt as _;
use tokio::sync::Semaphore;
use tracing::Instrument as _;

use crate::agent::Agent;
use crate::auth::Authenticator;
use crate::body::A2aBody;
use crate::handler::{CallContext, EventStream, HandlerBuilder, HandlerConfig, RequestHandler};
use crate::jsonrpc::{self, Dispatch, RpcContext};
use crate::store::TaskStore;

/// The path of the agent card (A2A 0.3 and 1.0).
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";
/// The path of the agent card in A2A 0.1 and 0.2.
pub const LEGACY_AGENT_CARD_PATH: &str = "/.well-known/agent.json";

/// Limits with safe defaults. Every one is configurable.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The largest request body accepted (413 beyond). Default 4 MiB.
    pub max_body_bytes: usize,
    /// The most SSE streams open at once (503 beyond). Default 10 000.
    pub max_streams: usize,
    /// How long a non-streaming call may take before it is answered with an error. Default 5 min.
    pub request_timeout: Duration,
    /// The interval of keep-alive comments on idle SSE streams. Default 15 s.
    pub keep_alive: Duration,
    /// How long a client may take to send the request head (used by [`serve`](crate::serve)). Default 30 s.
    pub header_read_timeout: Duration,
    /// `Cache-Control: max-age` of the agent card, in seconds. Default 300.
    pub card_max_age: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 4 * 1024 * 1024,
            max_streams: 10_000,
            request_timeout: Duration::from_secs(300),
            keep_alive: Duration::from_secs(15),
            header_read_timeout: Duration::from_secs(30),
            card_max_age: 300,
        }
    }
}

impl Limits {
    /// Sets the body size limit.
    #[must_use]
    pub fn with_max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Sets the stream limit.
    #[must_use]
    pub fn with_max_streams(mut self, streams: usize) -> Self {
        self.max_streams = streams;
        self
    }

    /// Sets the request timeout.
    #[must_use]
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// Sets the keep-alive interval.
    #[must_use]
    pub fn with_keep_alive(mut self, interval: Duration) -> Self {
        self.keep_alive = interval;
        self
    }

    /// Sets the header read timeout.
    #[must_use]
    pub fn with_header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }
}

/// Builds an [`A2aService`].
pub struct ServiceBuilder {
    handler: HandlerBuilder,
    card: AgentCard,
    public_url: Option<String>,
    rpc_path: String,
    limits: Limits,
    authenticator: Option<Arc<dyn Authenticator>>,
}

impl std::fmt::Debug for ServiceBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceBuilder")
            .field("card", &self.card.name)
            .field("public_url", &self.public_url)
            .field("rpc_path", &self.rpc_path)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl ServiceBuilder {
    /// Stores tasks here (default: a new in-memory store).
    #[must_use]
    pub fn store(mut self, store: impl TaskStore) -> Self {
        self.handler = self.handler.store(store);
        self
    }

    /// The card `GetExtendedAgentCard` returns.
    #[must_use]
    pub fn extended_card(mut self, card: AgentCard) -> Self {
        self.handler = self.handler.extended_card(card);
        self
    }

    /// The handler's tunables (cancel grace period, page sizes).
    #[must_use]
    pub fn handler_config(mut self, config: HandlerConfig) -> Self {
        self.handler = self.handler.config(config);
        self
    }

    /// The limits.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Names the caller of each request; tasks then belong to their creator.
    #[must_use]
    pub fn authenticator(mut self, authenticator: impl Authenticator) -> Self {
        self.authenticator = Some(Arc::new(authenticator));
        self
    }

    /// The path of the JSON-RPC endpoint, relative to where the service is mounted. Default `/`.
    #[must_use]
    pub fn rpc_path(mut self, path: impl Into<String>) -> Self {
        let path = path.into();
        self.rpc_path = if path.starts_with('/') {
            path
        } else {
            format!("/{path}")
        };
        self
    }

    /// The URL clients reach the service at (`http://127.0.0.1:7420`). When set, the card's
    /// `supportedInterfaces` lists the bindings this service serves there (JSON-RPC, 1.0).
    #[must_use]
    pub fn public_url(mut self, url: impl Into<String>) -> Self {
        self.public_url = Some(url.into());
        self
    }

    /// The service.
    pub fn build(self) -> A2aService {
        let mut card = self.card;
        if let Some(base) = &self.public_url {
            let url = format!("{}{}", base.trim_end_matches('/'), self.rpc_path);
            let ours = AgentInterface::new(url, binding::JSONRPC, "1.0");
            card.supported_interfaces.retain(|i| *i != ours);
            card.supported_interfaces.insert(0, ours);
        }
        let card_json = Bytes::from(serde_json::to_vec(&card).expect("an agent card serializes"));
        let etag = {
            use std::hash::{Hash as _, Hasher as _};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            card_json.hash(&mut hasher);
            HeaderValue::from_str(&format!("\"{:016x}\"", hasher.finish()))
                .expect("hex is a valid header")
        };
        let handler = self.handler.card(card).build();
        A2aService {
            inner: Arc::new(ServiceInner {
                handler,
                table: jsonrpc::method_table(),
                card_json,
                etag,
                rpc_path: self.rpc_path,
                streams: Arc::new(Semaphore::new(self.limits.max_streams)),
                limits: self.limits,
                authenticator: self.authenticator,
            }),
        }
    }
}

/// The whole A2A server: the JSON-RPC endpoint and the agent card, as one
/// `tower_service::Service<http::Request<B>>` with `Error = Infallible`.
///
/// Mount it in axum with `Router::new().nest_service("/", service)`, serve it with hyper
/// through `hyper_util::service::TowerToHyperService`, or use [`serve`](crate::serve).
///
/// ```
/// use a2a_server::A2aService;
/// use a2a_server::agent::agent_fn;
/// use a2a_types::v1::{AgentCapabilities, AgentCard};
///
/// let card = AgentCard::new("Echo", "Echoes text", "1.0.0")
///     .with_capabilities(AgentCapabilities::default().with_streaming(true))
///     .with_default_input_modes(["text/plain"])
///     .with_default_output_modes(["text/plain"]);
/// let agent = agent_fn(|ctx, sink| async move {
///     sink.complete(Some(sink.message(vec![a2a_types::v1::Part::text(ctx.text())]))).await?;
///     Ok(())
/// });
/// let service = A2aService::builder(agent, card).public_url("http://127.0.0.1:7420").build();
/// assert_eq!(service.card().supported_interfaces[0].url, "http://127.0.0.1:7420/");
/// ```
#[derive(Clone)]
pub struct A2aService {
    inner: Arc<ServiceInner>,
}

struct ServiceInner {
    handler: RequestHandler,
    table: Methods<RpcContext>,
    card_json: Bytes,
    etag: HeaderValue,
    rpc_path: String,
    limits: Limits,
    streams: Arc<Semaphore>,
    authenticator: Option<Arc<dyn Authenticator>>,
}

impl std::fmt::Debug for A2aService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("A2aService")
            .field("handler", &self.inner.handler)
            .field("rpc_path", &self.inner.rpc_path)
            .field("limits", &self.inner.limits)
            .finish_non_exhaustive()
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl A2aService {
    /// A builder for a service of this agent, described by this card.
    pub fn builder(agent: impl Agent, card: AgentCard) -> ServiceBuilder {
        ServiceBuilder {
            handler: RequestHandler::builder(agent, card.clone()),
            card,
            public_url: None,
            rpc_path: "/".to_owned(),
            limits: Limits::default(),
            authenticator: None,
        }
    }

    /// The public agent card, as served.
    pub fn card(&self) -> &AgentCard {
        self.inner.handler.card()
    }

    /// The operations behind the service.
    pub fn handler(&self) -> &RequestHandler {
        &self.inner.handler
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// Answers one request. Never fails: every error is an HTTP response.
    pub async fn handle<B>(&self, request: http::Request<B>) -> http::Response<A2aBody>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let span = tracing::info_span!("a2a.request", method = %request.method(), path = %request.uri().path());
        self.route(request).instrument(span).await
    }

    async fn route<B>(&self, request: http::Request<B>) -> http::Response<A2aBody>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let path = request.uri().path();
        if path == AGENT_CARD_PATH || path == LEGACY_AGENT_CARD_PATH {
            return self.card_response(&request);
        }
        if path != self.inner.rpc_path {
            return json_error(
                StatusCode::NOT_FOUND,
                ErrorObject::method_not_found(&format!("no A2A endpoint at {path}")),
            );
        }
        if request.method() != Method::POST {
            let mut response = json_error(
                StatusCode::METHOD_NOT_ALLOWED,
                ErrorObject::invalid_request(format!(
                    "the JSON-RPC endpoint takes POST, not {}",
                    request.method()
                )),
            );
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("POST"));
            return response;
        }
        let (head, body) = request.into_parts();
        let principal = match &self.inner.authenticator {
            None => None,
            Some(auth) => match auth.authenticate(&head) {
                Ok(principal) => principal,
                Err(err) => {
                    let mut response =
                        json_error(err.status, ErrorObject::invalid_request(&err.message));
                    if let Some(challenge) = err
                        .challenge
                        .as_deref()
                        .and_then(|c| HeaderValue::from_str(c).ok())
                    {
                        response
                            .headers_mut()
                            .insert(header::WWW_AUTHENTICATE, challenge);
                    }
                    return response;
                }
            },
        };
        let limit = self.inner.limits.max_body_bytes;
        let declared = head
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limit as u64) {
            return too_large(limit);
        }
        let bytes = match http_body_util::Limited::new(body, limit).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(err)
                if err
                    .downcast_ref::<http_body_util::LengthLimitError>()
                    .is_some() =>
            {
                return too_large(limit);
            }
            Err(err) => {
                return json_error(
                    StatusCode::BAD_REQUEST,
                    ErrorObject::parse_error(format!("the request body could not be read: {err}")),
                );
            }
        };
        let payload = match Payload::parse(&bytes) {
            Ok(payload) => payload,
            Err(error) => {
                return json_response(StatusCode::OK, Response::error(Id::Null, error).to_vec());
            }
        };
        let version = jsonrpc::check_version(service_parameter(&head, "a2a-version").as_deref());
        let extensions = requested_extensions(&head);
        let last_event_id = head
            .headers
            .get("last-event-id")
            .and_then(|v| v.to_str().ok());
        let cx = RpcContext {
            handler: self.inner.handler.clone(),
            call: CallContext::new()
                .with_principal(principal)
                .with_extensions(extensions),
        };
        let dispatched = tokio::time::timeout(
            self.inner.limits.request_timeout,
            jsonrpc::dispatch(&self.inner.table, cx, payload, version, last_event_id),
        )
        .await;
        match dispatched {
            Ok(Dispatch::Json(Some(bytes))) => json_response(StatusCode::OK, bytes),
            Ok(Dispatch::Json(None)) => http::Response::builder()
                .status(StatusCode::NO_CONTENT)
                .body(A2aBody::empty())
                .expect("a valid response"),
            Ok(Dispatch::Stream(id, stream)) => self.sse_response(id, stream),
            Err(_) => json_error(
                StatusCode::GATEWAY_TIMEOUT,
                ErrorObject::internal_error(format!(
                    "the call did not finish within {} s; a task it started goes on and can be polled with GetTask",
                    self.inner.limits.request_timeout.as_secs()
                )),
            ),
        }
    }

    fn card_response<B>(&self, request: &http::Request<B>) -> http::Response<A2aBody> {
        if request.method() != Method::GET && request.method() != Method::HEAD {
            return json_error(
                StatusCode::METHOD_NOT_ALLOWED,
                ErrorObject::invalid_request("the agent card is read with GET"),
            );
        }
        let cache = HeaderValue::from_str(&format!(
            "public, max-age={}",
            self.inner.limits.card_max_age
        ))
        .expect("a valid header");
        let not_modified = request
            .headers()
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| {
                let tag = tag.trim();
                tag == "*"
                    || tag.trim_start_matches("W/") == self.inner.etag.to_str().unwrap_or_default()
            });
        let builder = http::Response::builder()
            .header(header::ETAG, self.inner.etag.clone())
            .header(header::CACHE_CONTROL, cache);
        let response = if not_modified {
            builder
                .status(StatusCode::NOT_MODIFIED)
                .body(A2aBody::empty())
        } else {
            let body = if request.method() == Method::HEAD {
                A2aBody::empty()
            } else {
                A2aBody::full(self.inner.card_json.clone())
            };
            builder
                .status(StatusCode::OK)
                .header(header::CONTENT_TYPE, "application/json")
                .body(body)
        };
        response.expect("a valid response")
    }

    fn sse_response(&self, id: Id, stream: EventStream) -> http::Response<A2aBody> {
        let Ok(permit) = self.inner.streams.clone().try_acquire_owned() else {
            return json_error(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorObject::internal_error(format!(
                    "too many open streams (the limit is {}); try again later",
                    self.inner.limits.max_streams
                )),
            );
        };
        let keep_alive = KeepAlive::new().frame();
        let interval = self.inner.limits.keep_alive;
        let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        struct State {
            stream: EventStream,
            ticker: tokio::time::Interval,
            interval: std::time::Duration,
            last_write: tokio::time::Instant,
            id: Id,
            keep_alive: Bytes,
            _permit: tokio::sync::OwnedSemaphorePermit,
        }
        let state = State {
            stream,
            ticker,
            interval,
            last_write: tokio::time::Instant::now(),
            id,
            keep_alive,
            _permit: permit,
        };
        let frames = futures_util::stream::unfold(state, |mut st| async move {
            use futures_util::StreamExt as _;
            let bytes = loop {
                tokio::select! {
                    biased;
                    next = st.stream.next() => break match next {
                        None => return None,
                        Some(Ok(event)) => {
                            st.last_write = tokio::time::Instant::now();
                            encode_event(&Response::ok(st.id.clone(), &event.event), event.seq)
                        }
                        Some(Err(err)) => {
                            encode_event(&Response::error(st.id.clone(), jsonrpc::to_error_object(&err)), None)
                        }
                    },
                    _ = st.ticker.tick() => {
                        // The ticker runs on a fixed period and is never reset per event: a tick
                        // soon after an event is skipped, so the stream is quiet for at most
                        // two periods before a keep-alive.
                        if st.last_write.elapsed() >= st.interval {
                            st.last_write = tokio::time::Instant::now();
                            break st.keep_alive.clone();
                        }
                    }
                }
            };
            Some((Ok::<_, Infallible>(Frame::data(bytes)), st))
        });
        http::Response::builder()
            .status(StatusCode::OK)
            .header(header::CONTENT_TYPE, "text/event-stream")
            .header(header::CACHE_CONTROL, "no-cache")
            .body(A2aBody::stream(frames))
            .expect("a valid response")
    }
}

/// One SSE event, written straight into one buffer: `data: <JSON>\n`, `id: <seq>\n` and the
/// blank line. Compact JSON has no line breaks (serde_json escapes them inside strings), so
/// the response is one `data:` line.
fn encode_event<T: serde::Serialize>(response: &Response<T>, seq: Option<u64>) -> Bytes {
    let mut buf = Vec::with_capacity(512);
    buf.extend_from_slice(b"data: ");
    serde_json::to_writer(&mut buf, response).expect("events serialize");
    buf.push(b'\n');
    if let Some(seq) = seq {
        use std::io::Write as _;
        writeln!(buf, "id: {seq}").expect("writing to a Vec cannot fail");
    }
    buf.push(b'\n');
    Bytes::from(buf)
}

/// A service parameter: the header, or the query parameter of the same name (spec §3.6.1).
fn service_parameter(head: &http::request::Parts, name: &str) -> Option<String> {
    if let Some(value) = head.headers.get(name).and_then(|v| v.to_str().ok()) {
        return Some(value.to_owned());
    }
    head.uri.query()?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        k.eq_ignore_ascii_case(name).then(|| v.to_owned())
    })
}

/// `A2A-Extensions` (and the 0.3 `X-A2A-Extensions`), comma-separated, possibly repeated.
fn requested_extensions(head: &http::request::Parts) -> Vec<String> {
    ["a2a-extensions", "x-a2a-extensions"]
        .iter()
        .flat_map(|name| head.headers.get_all(*name).iter())
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn json_response(status: StatusCode, bytes: Vec<u8>) -> http::Response<A2aBody> {
    http::Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .body(A2aBody::full(bytes))
        .expect("a valid response")
}

fn json_error(status: StatusCode, error: ErrorObject) -> http::Response<A2aBody> {
    json_response(status, Response::error(Id::Null, error).to_vec())
}

fn too_large(limit: usize) -> http::Response<A2aBody> {
    json_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorObject::invalid_request(format!(
            "the request body is larger than the limit of {limit} bytes"
        )),
    )
}

impl<B> tower_service::Service<http::Request<B>> for A2aService
where
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<BoxError>,
{
    type Response = http::Response<A2aBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_one_data_line_and_an_id() {
        let response = Response::ok(Id::Number(7.into()), serde_json::json!({"text": "a\nb"}));
        assert_eq!(
            &encode_event(&response, Some(12))[..],
            b"data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"a\\nb\"}}\nid: 12\n\n"
        );
        let error = Response::error(Id::Null, ErrorObject::internal_error("x"));
        assert_eq!(
            &encode_event(&error, None)[..],
            b"data: {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"internal error: x\"}}\n\n"
        );
    }
}
