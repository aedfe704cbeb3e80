//! The JSON-RPC binding: one POST endpoint serving every generation the server speaks, routed
//! by method name first and then by `A2A-Version` (DESIGN §1); one JSON response per call (or
//! batch), SSE for the streaming methods, errors as JSON-RPC error objects.
//!
//! Each generation is a [`RpcGeneration`]: its version check, its method table (which knows the
//! streaming methods) and how it writes a stream event. Only 1.0 is served today; 0.3 and 0.1
//! slot in as more generations.

mod v1;

use std::time::Duration;

use a2a_jsonrpc::{Answer, ErrorObject, Id, Incoming, Limits, Methods, Payload, Response};
use a2a_types::protocol::content_type;
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

/// A generation's method table: unary methods answer JSON, streaming ones an [`EventStream`].
pub(crate) type Table = Methods<RpcContext, EventStream>;

/// One protocol generation on the JSON-RPC endpoint.
pub(crate) struct RpcGeneration {
    /// The version, as `A2A-Version` values name it (for logs).
    pub(crate) name: &'static str,
    /// Whether a request with this `A2A-Version` may call this generation's methods.
    pub(crate) check_version: fn(&RequestedVersion) -> Result<(), A2aError>,
    /// The methods.
    pub(crate) table: Table,
    /// Writes one stream event as this generation's `result`.
    pub(crate) write_event: fn(&StreamResponse, &mut Vec<u8>),
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
    generations: Vec<RpcGeneration>,
}

impl std::fmt::Debug for JsonRpcBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.generations.iter().map(|g| g.name).collect();
        f.debug_struct("JsonRpcBinding")
            .field("generations", &names)
            .finish()
    }
}

impl JsonRpcBinding {
    /// The endpoint with every generation the server speaks.
    pub(crate) fn new() -> Self {
        Self {
            generations: vec![v1::generation()],
        }
    }

    fn generation_of(&self, method: &str) -> Option<&RpcGeneration> {
        self.generations.iter().find(|g| g.table.contains(method))
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
        if let Payload::Single(Incoming::Request(request)) = &payload
            && let Some(generation) = self.generation_of(&request.method)
            && generation.table.is_streaming(&request.method)
        {
            return stream(
                generation,
                &version,
                payload,
                cx,
                permits,
                settings.keep_alive,
            )
            .await;
        }
        let dispatched = tokio::time::timeout(
            settings.request_timeout,
            self.dispatch(payload, &version, cx, settings.batch.batch_concurrency),
        )
        .await;
        match dispatched {
            Ok(Some(bytes)) => json(StatusCode::OK, bytes),
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

    /// Answers the unary calls of a payload: each element goes to the generation its method
    /// belongs to, after that generation's version check; streaming methods in a batch, and
    /// unknown methods, are answered with an error.
    async fn dispatch(
        &self,
        payload: Payload,
        version: &RequestedVersion,
        cx: RpcContext,
        concurrency: usize,
    ) -> Option<Vec<u8>> {
        let route = |incoming: Incoming| -> Option<(&Table, Incoming)> {
            let fallback = &self.generations[0].table;
            let Some(method) = incoming.method() else {
                return Some((fallback, incoming));
            };
            // Unknown everywhere: a table answers -32601 naming the method.
            let Some(generation) = self.generation_of(method) else {
                return Some((fallback, incoming));
            };
            let refused = match (generation.check_version)(version) {
                Err(error) => Some(error),
                // Here, a streaming method is in a batch (or a notification).
                Ok(()) if generation.table.is_streaming(method) => Some(A2aError::invalid_request(
                    format!("{method} streams its answer and cannot be part of a batch"),
                )),
                Ok(()) => None,
            };
            match (refused, incoming) {
                (None, incoming) => Some((&generation.table, incoming)),
                (Some(error), Incoming::Request(request)) => Some((
                    fallback,
                    Incoming::Invalid {
                        id: request.id,
                        error: error.into(),
                    },
                )),
                // A notification that cannot run is dropped, as notifications are answered
                // with nothing.
                (Some(_), _) => None,
            }
        };
        let (batch, items) = match payload {
            Payload::Single(incoming) => (false, vec![incoming]),
            Payload::Batch(items) => (true, items),
        };
        let calls: Vec<_> = items
            .into_iter()
            .filter_map(route)
            .map(|(table, incoming)| table.handle(incoming, cx.clone()))
            .collect();
        let mut responses: Vec<Response> = futures_util::stream::iter(calls)
            .buffered(concurrency.max(1))
            .filter_map(std::future::ready)
            .collect()
            .await;
        if batch {
            (!responses.is_empty())
                .then(|| serde_json::to_vec(&responses).expect("responses serialize"))
        } else {
            responses.pop().map(|response| response.to_vec())
        }
    }
}

/// A streaming call: the version check, a stream permit (before anything starts), the stream
/// as SSE; an error before the stream starts is one JSON response with the request's id.
async fn stream(
    generation: &RpcGeneration,
    version: &RequestedVersion,
    payload: Payload,
    cx: RpcContext,
    permits: &StreamPermits,
    keep_alive: Duration,
) -> http::Response<A2aBody> {
    let id = payload_id(&payload);
    let answer_error = |id: Id, error: A2aError| {
        let status = response::status(error.explicit_http_status().unwrap_or(200));
        json(status, Response::error(id, error.into()).to_vec())
    };
    if let Err(error) = (generation.check_version)(version) {
        return answer_error(id, error);
    }
    let permit = match permits.try_acquire() {
        Ok(permit) => permit,
        Err(error) => return answer_error(id, error),
    };
    match generation.table.dispatch(payload, cx).await {
        Answer::Stream(id, events) => sse::response(
            events,
            JsonRpcFraming {
                id,
                write_event: generation.write_event,
            },
            permit,
            keep_alive,
        ),
        Answer::Reply(Some(reply)) => json(StatusCode::OK, reply.to_vec()),
        Answer::Reply(None) => response::empty(StatusCode::NO_CONTENT),
    }
}

fn payload_id(payload: &Payload) -> Id {
    match payload {
        Payload::Single(incoming) => incoming.id().cloned().unwrap_or(Id::Null),
        Payload::Batch(_) => Id::Null,
    }
}

/// Stream events as JSON-RPC responses to the streaming request.
struct JsonRpcFraming {
    id: Id,
    write_event: fn(&StreamResponse, &mut Vec<u8>),
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
        let response = Response::error(self.id.clone(), error.to_error_object());
        serde_json::to_writer(out, &response).expect("responses serialize");
    }
}

fn json(status: StatusCode, bytes: Vec<u8>) -> http::Response<A2aBody> {
    response::full(status, content_type::JSON, bytes)
}

/// A transport-level failure, in the JSON-RPC shape, with the error's HTTP status.
pub(crate) fn error_response(id: Id, error: &A2aError) -> http::Response<A2aBody> {
    json(
        response::status(error.http_status()),
        Response::error(id, ErrorObject::from(error.clone())).to_vec(),
    )
}
