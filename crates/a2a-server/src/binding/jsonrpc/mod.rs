//! The JSON-RPC binding: one POST endpoint serving every version the server speaks, routed
//! by method name first and then by `A2A-Version` (DESIGN §1); one JSON response per call (or
//! batch), SSE for the streaming methods, errors as JSON-RPC error objects.
//!
//! Each version is a [`RpcVersion`]: its version check, its method table (which knows the
//! streaming methods), how it writes a stream event and how it renders an error. 1.0 (`v1`)
//! runs the handler on its own types; 0.3 (`v0_3`, also serving 0.2) and 0.1 (`v0_1`) are edge
//! adapters (`legacy`): decode the version's params, convert them to 1.0, call the handler
//! with [`CallContext::version`] set, convert results, events and errors back. A method
//! several versions share (`tasks/get`, `tasks/cancel`, `tasks/resubscribe` of 0.1 and 0.3)
//! answers in the version `A2A-Version` names, else in the one its task was created through
//! (0.1 for a task a 0.1 method created, 0.3 for any other).
//!
//! The flat dialect (`flat`: 0.3's method names with 1.0's shapes and lowercase states, as
//! PromptKit speaks it) is a version of its own beside them; a call of a method it shares
//! with 0.3 goes to it when it claims the call by its shape (`flat::claims`).

mod flat;
mod legacy;
mod v0_1;
mod v0_3;
mod v1;

use std::time::Duration;

pub(crate) use legacy::named_version;

use a2a_jsonrpc::{Answer, ErrorObject, Id, Incoming, Limits, Methods, Payload, Response};
use a2a_types::protocol::{ProtocolVersion, content_type};
use a2a_types::v1::StreamResponse;
use futures_util::StreamExt as _;
use http::{HeaderValue, Method, StatusCode, header};

use crate::error::A2aError;
use crate::handler::{CallContext, EventStream, RequestHandler};
use crate::http::body::{A2aBody, BodyLimits, read_body};
use crate::http::head::{self, RequestedVersion};
use crate::http::response;
use crate::http::sse::{self, Framing, StreamPermits};

/// The per-call context every method gets.
#[derive(Clone)]
pub(crate) struct RpcContext {
    pub(crate) handler: RequestHandler,
    pub(crate) call: CallContext,
    /// `Last-Event-ID`, for the subscribe methods (an unreadable one is their error).
    pub(crate) last_event_id: Result<Option<u64>, A2aError>,
}

impl RpcContext {
    /// The call context of a call whose params name `tenant` (the 1.0 `tenant` field).
    pub(crate) fn call_in(&self, tenant: &Option<String>) -> CallContext {
        match tenant.as_deref().filter(|t| !t.is_empty()) {
            Some(tenant) => self.call.clone().with_tenant(Some(tenant.to_owned())),
            None => self.call.clone(),
        }
    }
}

/// A version's method table: unary methods answer JSON, streaming ones an [`EventStream`].
pub(crate) type Table = Methods<RpcContext, EventStream>;

/// One protocol version on the JSON-RPC endpoint.
pub(crate) struct RpcVersion {
    /// The version, as `A2A-Version` values name it (for logs).
    pub(crate) name: &'static str,
    /// The version: what calls of it set as [`CallContext::version`].
    pub(crate) protocol_version: ProtocolVersion,
    /// Whether a request with this `A2A-Version` may call this version's methods.
    pub(crate) check_version: fn(&RequestedVersion) -> Result<(), A2aError>,
    /// The methods.
    pub(crate) table: Table,
    /// Writes one stream event as this version's `result`.
    pub(crate) write_event: fn(&StreamResponse, &mut Vec<u8>),
    /// Renders an error object (the handler's, or the table's own) as this version's
    /// peers read it: its codes and its `data`.
    pub(crate) render_error: fn(ErrorObject) -> ErrorObject,
}

impl RpcVersion {
    /// A response of this version's table, its error rendered for this version.
    fn render(&self, mut response: Response) -> Response {
        response.result = response.result.map_err(self.render_error);
        response
    }
}

/// What the JSON-RPC binding needs from the service.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) body: BodyLimits,
    pub(crate) batch: Limits,
    pub(crate) request_timeout: Duration,
    pub(crate) keep_alive: Duration,
}

/// The JSON-RPC endpoint.
pub(crate) struct JsonRpcBinding {
    versions: Vec<RpcVersion>,
    /// The flat dialect, and the tasks it started.
    flat: RpcVersion,
    flat_tasks: std::sync::Arc<flat::FlatTasks>,
}

impl std::fmt::Debug for JsonRpcBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self
            .versions
            .iter()
            .chain([&self.flat])
            .map(|g| g.name)
            .collect();
        f.debug_struct("JsonRpcBinding")
            .field("versions", &names)
            .finish()
    }
}

impl JsonRpcBinding {
    /// The endpoint with every version the server speaks; the flat dialect remembers the
    /// last `max_flat_tasks` tasks it started.
    pub(crate) fn new(max_flat_tasks: usize) -> Self {
        let flat_tasks = std::sync::Arc::new(flat::FlatTasks::new(max_flat_tasks));
        Self {
            versions: vec![
                v1::protocol_version(),
                v0_3::protocol_version(),
                v0_1::protocol_version(),
            ],
            flat: flat::protocol_version(flat_tasks.clone()),
            flat_tasks,
        }
    }

    fn protocol_version(&self, protocol_version: ProtocolVersion) -> Option<&RpcVersion> {
        self.versions
            .iter()
            .find(|g| g.protocol_version == protocol_version)
    }

    /// Where a call goes: the version that answers it (with the call's context for that
    /// version), or the refusal in that version's shape. A method no version has goes
    /// to the first, whose table answers -32601 naming it.
    /// `single`: the payload is this one call (only a single request can stream).
    async fn route(
        &self,
        incoming: Incoming,
        single: bool,
        version: &RequestedVersion,
        cx: &RpcContext,
    ) -> Routed<'_> {
        let fallback = &self.versions[0];
        let Some(method) = incoming.method() else {
            return Some((fallback, incoming, cx.clone()));
        };
        let chosen = if self.flat.table.contains(method)
            && flat::claims(&self.flat_tasks, method, &incoming)
        {
            (self.flat.check_version)(version)
                .map(|()| &self.flat)
                .map_err(|error| (&self.flat, error))
        } else {
            let mut owners = self.versions.iter().filter(|g| g.table.contains(method));
            let Some(first) = owners.next() else {
                return Some((fallback, incoming, cx.clone()));
            };
            match owners.next() {
                None => (first.check_version)(version)
                    .map(|()| first)
                    .map_err(|error| (first, error)),
                Some(_) => self.shared(method, &incoming, version, cx).await,
            }
        };
        let streams = single && matches!(incoming, Incoming::Request(_));
        let (protocol_version, refused) = match chosen {
            // Here, a streaming method is in a batch (or a notification).
            Ok(protocol_version) if protocol_version.table.is_streaming(method) && !streams => (
                protocol_version,
                Some(A2aError::invalid_request(format!(
                    "{method} streams its answer and cannot be part of a batch"
                ))),
            ),
            Ok(protocol_version) => (protocol_version, None),
            Err((protocol_version, error)) => (protocol_version, Some(error)),
        };
        match (refused, incoming) {
            (None, incoming) => {
                let mut cx = cx.clone();
                cx.call.protocol_version = protocol_version.protocol_version;
                Some((protocol_version, incoming, cx))
            }
            (Some(error), Incoming::Request(request)) => Some((
                protocol_version,
                Incoming::Invalid {
                    id: request.id,
                    error: error.into(),
                },
                cx.clone(),
            )),
            // A notification that cannot run is dropped, as notifications are answered
            // with nothing.
            (Some(_), _) => None,
        }
    }

    /// The version of a method several versions share: the one `A2A-Version` names,
    /// else the one the task (`params.id`) was created through: 0.1 for a task created through
    /// a 0.1 method, 0.3 for any other (and when there is no such task).
    async fn shared<'a>(
        &'a self,
        method: &str,
        incoming: &Incoming,
        version: &RequestedVersion,
        cx: &RpcContext,
    ) -> Result<&'a RpcVersion, (&'a RpcVersion, A2aError)> {
        let default = self
            .protocol_version(ProtocolVersion::V0_3)
            .expect("the 0.3 version is served");
        let Ok(named) = legacy::named_version(version) else {
            return Err((default, legacy::unsupported_version(method, version)));
        };
        let wanted = match named {
            Some(protocol_version) => protocol_version,
            None => {
                let task = legacy::task_id_param(incoming);
                let created = match task {
                    Some(id) => cx.handler.task_version(&id, &cx.call).await.ok().flatten(),
                    None => None,
                };
                match created {
                    Some(ProtocolVersion::V0_1) => ProtocolVersion::V0_1,
                    _ => ProtocolVersion::V0_3,
                }
            }
        };
        self.protocol_version(wanted)
            .filter(|g| g.table.contains(method))
            .ok_or_else(|| (default, legacy::unsupported_version(method, version)))
    }

    /// Answers one request to the endpoint. `call` is the call context read from the head
    /// (the caller is already authenticated).
    pub(crate) async fn handle<B>(
        &self,
        handler: &RequestHandler,
        settings: Settings,
        permits: &StreamPermits,
        head: http::request::Parts,
        body: B,
        call: CallContext,
    ) -> http::Response<A2aBody>
    where
        B: http_body::Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        if head.method != Method::POST {
            let error = A2aError::invalid_request(format!(
                "the JSON-RPC endpoint takes POST, not {}",
                head.method
            ))
            .with_http_status(405);
            let mut response = error_response(Id::Null, &error);
            response
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("POST"));
            return response;
        }
        if let Some(given) = head.headers.get(header::CONTENT_TYPE)
            && !given.to_str().is_ok_and(content_type::is_json)
        {
            let error = A2aError::content_type_not_supported(
                String::from_utf8_lossy(given.as_bytes()),
                "application/json",
            )
            .with_http_status(415);
            return error_response(Id::Null, &error);
        }
        let bytes = match read_body(&head, body, settings.body).await {
            Ok(bytes) => bytes,
            Err(error) => return error_response(Id::Null, &error),
        };
        let payload = match Payload::parse_with(&bytes, &settings.batch) {
            Ok(payload) => payload,
            Err(error) => {
                return json(StatusCode::OK, Response::error(Id::Null, error).to_vec());
            }
        };
        let version = RequestedVersion::of(&head);
        let cx = RpcContext {
            handler: handler.clone(),
            call,
            last_event_id: head::last_event_id(&head),
        };
        let payload = match payload {
            Payload::Single(incoming) => match self.route(incoming, true, &version, &cx).await {
                Some((protocol_version, Incoming::Request(request), cx))
                    if protocol_version.table.is_streaming(&request.method) =>
                {
                    return stream(protocol_version, request, cx, permits, settings.keep_alive)
                        .await;
                }
                routed => Routes::Single(Box::new(routed)),
            },
            Payload::Batch(items) => Routes::Batch(items),
        };
        let dispatched = tokio::time::timeout(
            settings.request_timeout,
            self.dispatch(payload, &version, cx, settings.batch.batch_concurrency),
        )
        .await;
        match dispatched {
            Ok(Some(answer)) => answer,
            Ok(None) => response::empty(StatusCode::NO_CONTENT),
            Err(_) => error_response(
                Id::Null,
                &A2aError::internal(format!(
                    "the call did not finish within {} ms; a task it started goes on and can be polled with GetTask",
                    settings.request_timeout.as_millis()
                ))
                .with_http_status(504),
            ),
        }
    }

    /// Answers the unary calls of a payload: each element goes to the version its method
    /// belongs to, after that version's version check; streaming methods in a batch, and
    /// unknown methods, are answered with an error.
    async fn dispatch(
        &self,
        payload: Routes<'_>,
        version: &RequestedVersion,
        cx: RpcContext,
        concurrency: usize,
    ) -> Option<http::Response<A2aBody>> {
        let items = match payload {
            // One call: no batch machinery (a `FuturesOrdered` and its lists, seven allocations).
            Routes::Single(routed) => {
                let (protocol_version, incoming, cx) = (*routed)?;
                let response = protocol_version.table.handle(incoming, cx).await?;
                return Some(single(protocol_version, response));
            }
            Routes::Batch(items) => items,
        };
        let mut routed = Vec::with_capacity(items.len());
        for incoming in items {
            routed.push(self.route(incoming, false, version, &cx).await);
        }
        let calls: Vec<_> = routed
            .into_iter()
            .flatten()
            .map(|(protocol_version, incoming, cx)| {
                let call = protocol_version.table.handle(incoming, cx);
                async move { call.await.map(|r| protocol_version.render(r)) }
            })
            .collect();
        let responses: Vec<Response> = futures_util::stream::iter(calls)
            .buffered(concurrency.max(1))
            .filter_map(std::future::ready)
            .collect()
            .await;
        (!responses.is_empty()).then(|| {
            json(
                StatusCode::OK,
                serde_json::to_vec(&responses).expect("responses serialize"),
            )
        })
    }
}

/// Where one call of a payload goes: to this version's table, with the call's context (or
/// as the refusal to send); `None` for a notification that cannot run.
type Routed<'a> = Option<(&'a RpcVersion, Incoming, RpcContext)>;

/// A payload whose single call is already routed.
enum Routes<'a> {
    Single(Box<Routed<'a>>),
    Batch(Vec<Incoming>),
}

/// A streaming call, its version chosen: a stream permit (before anything starts), the
/// stream as SSE; an error before the stream starts is one JSON response with the request's id.
async fn stream(
    protocol_version: &RpcVersion,
    request: a2a_jsonrpc::Request,
    cx: RpcContext,
    permits: &StreamPermits,
    keep_alive: Duration,
) -> http::Response<A2aBody> {
    let permit = match permits.try_acquire() {
        Ok(permit) => permit,
        Err(error) => {
            let status = response::status(error.explicit_http_status().unwrap_or(200));
            let error = (protocol_version.render_error)(error.into());
            return json(status, Response::error(request.id, error).to_vec());
        }
    };
    let payload = Payload::Single(Incoming::Request(request));
    match protocol_version.table.dispatch(payload, cx).await {
        Answer::Stream(id, events) => sse::response(
            events,
            JsonRpcFraming {
                id,
                write_event: protocol_version.write_event,
                render_error: protocol_version.render_error,
            },
            permit,
            keep_alive,
        ),
        Answer::Reply(Some(a2a_jsonrpc::Reply::Single(reply))) => single(protocol_version, reply),
        Answer::Reply(Some(reply)) => json(StatusCode::OK, reply.to_vec()),
        Answer::Reply(None) => response::empty(StatusCode::NO_CONTENT),
    }
}

/// Stream events as JSON-RPC responses to the streaming request.
struct JsonRpcFraming {
    id: Id,
    write_event: fn(&StreamResponse, &mut Vec<u8>),
    render_error: fn(ErrorObject) -> ErrorObject,
}

impl Framing for JsonRpcFraming {
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        serde_json::to_writer(&mut *out, &self.id).expect("ids serialize");
        out.extend_from_slice(b",\"result\":");
        (self.write_event)(event, out);
        out.push(b'}');
    }

    fn error(&self, error: &A2aError, out: &mut Vec<u8>) {
        let object = (self.render_error)(error.to_error_object());
        let response = Response::error(self.id.clone(), object);
        serde_json::to_writer(out, &response).expect("responses serialize");
    }
}

fn json(status: StatusCode, bytes: Vec<u8>) -> http::Response<A2aBody> {
    response::full(status, content_type::JSON, bytes)
}

/// A transport-level failure, in the JSON-RPC shape, with the error's HTTP status.
pub(crate) fn error_response(id: Id, error: &A2aError) -> http::Response<A2aBody> {
    response::error(
        error,
        content_type::JSON,
        Response::error(id, ErrorObject::from(error.clone())).to_vec(),
    )
}

/// The answer to a single call: 200, or, for an error that says when the call may be tried
/// again (the task store is unavailable or full), 503 with `Retry-After`, so that HTTP
/// clients, proxies and load balancers see an outage as one.
fn single(protocol_version: &RpcVersion, reply: Response) -> http::Response<A2aBody> {
    let retryable = reply
        .error_object()
        .map(|object| A2aError::from(object.clone()).with_http_status(503))
        .filter(|error| error.retry_after().is_some());
    let bytes = protocol_version.render(reply).to_vec();
    match retryable {
        Some(error) => response::error(&error, content_type::JSON, bytes),
        None => json(StatusCode::OK, bytes),
    }
}
