//! The JSON-RPC binding: one POST endpoint serving every version the server speaks, routed
//! by method name first and then by `A2A-Version` (DESIGN §1); one JSON response per call (or
//! batch), SSE for the streaming methods, errors as JSON-RPC error objects.
//!
//! Each version is a [`Codec`]: its version check, its methods (each naming its operation),
//! how it decodes a call's params into a [`Call`], writes a [`Reply`] as its `result`, frames
//! a stream event and renders an error. The endpoint does the rest once for every version:
//! it routes a call to its codec, decodes it, runs it through [`RequestHandler::call`] or
//! [`RequestHandler::open`] and answers with the same codec. 1.0 (`v1`) is the operations'
//! own JSON; 0.3 (`v0_3`, also serving 0.2) and 0.1 (`v0_1`) convert their params to the 1.0
//! requests and the answers back; the calls they decode carry their version in
//! [`CallContext::protocol_version`]. A method several versions share (`tasks/get`,
//! `tasks/cancel`, `tasks/resubscribe` of 0.1 and 0.3) answers in the version `A2A-Version`
//! names, else in the one its task was created through (0.1 for a task a 0.1 method created,
//! 0.3 for any other).
//!
//! The flat dialect (`flat`: 0.3's method names with 1.0's shapes and lowercase states, as
//! PromptKit speaks it) is a codec of its own beside them; a call of a method it shares
//! with 0.3 goes to it when it claims the call by its shape (`flat::claims`).

mod flat;
mod legacy;
mod v0_1;
mod v0_3;
mod v1;

use std::sync::Arc;
use std::time::Duration;

use a2a_jsonrpc::{ErrorObject, Id, Incoming, Payload, RawValue, Response};
use a2a_types::protocol::generations::{self, VERSION_1_1};
use a2a_types::protocol::{
    Call, Operation, ProtocolVersion, Reply, StreamRequest, VERSION_0_1, VERSION_0_3, VERSION_1_0,
    content_type,
};
use a2a_types::v1::{StreamResponse, TaskId};
use futures_util::StreamExt as _;
use http::{HeaderValue, Method, StatusCode, header};
use serde::Serialize;

pub(crate) use v0_3::{
    extended_card as v0_2_extended_card, extended_card_path as v0_2_extended_card_path,
};

use crate::binding::{Framing, sse_response};
use crate::card::Versions;
use crate::common::Settings;
use crate::common::body::{A2aBody, read_body};
use crate::common::head::{self, RequestedVersion};
use crate::common::response;
use crate::common::sse::StreamPermits;
use crate::error::A2aError;
use crate::handler::{CallContext, EventStream, RequestHandler};

/// The protocol versions the endpoint serves, as the card's interfaces name them.
pub(crate) const VERSIONS: &[&str] = &[VERSION_1_1, VERSION_1_0, VERSION_0_3, VERSION_0_1];

/// What a JSON-RPC version is: its name, its protocol version, the `A2A-Version` values it
/// takes and its methods.
pub(crate) struct Version {
    /// The version, as `A2A-Version` values name it (for logs).
    pub(crate) name: &'static str,
    /// The protocol version calls of it speak ([`CallContext::protocol_version`]).
    pub(crate) protocol_version: ProtocolVersion,
    /// Whether a request with this `A2A-Version` may call this version's methods.
    pub(crate) check: fn(&RequestedVersion) -> Result<(), A2aError>,
    /// Its methods and the operations they call; `None` for the operations' own names (1.0).
    pub(crate) methods: Option<&'static [(&'static str, Operation)]>,
}

/// One protocol version on the JSON-RPC endpoint: its methods ([`Version`]) and the shapes of
/// its calls, results, stream events and errors.
pub(crate) trait Codec: Send + Sync + 'static {
    /// What the version is.
    fn version(&self) -> &'static Version;

    /// The version's name.
    fn name(&self) -> &'static str {
        self.version().name
    }

    /// The protocol version calls of it speak.
    fn protocol_version(&self) -> ProtocolVersion {
        self.version().protocol_version
    }

    /// Whether a request with this `A2A-Version` may call this version's methods.
    fn check_version(&self, requested: &RequestedVersion) -> Result<(), A2aError> {
        (self.version().check)(requested)
    }

    /// The operation `method` calls in this version; `None` when it has no such method.
    fn operation(&self, method: &str) -> Option<Operation> {
        match self.version().methods {
            Some(methods) => methods
                .iter()
                .find(|(m, _)| *m == method)
                .map(|(_, op)| *op),
            None => Operation::from_method(method),
        }
    }

    /// The call of `operation` (one of this version's) from its params. A version may adjust
    /// the call's context (0.1: the client chooses the ids of new tasks).
    fn decode(
        &self,
        operation: Operation,
        params: Option<&RawValue>,
        call: &mut CallContext,
    ) -> Result<Call, ErrorObject>;

    /// The `result` of a unary call: its [`Reply`] in this version's shape (a reply the
    /// version cannot express is the call's error, never a silent loss).
    fn encode(&self, asked: &Asked, reply: Reply) -> Result<Box<RawValue>, A2aError>;

    /// Whether the version reads and writes task generations (the A2A 1.1 draft): when not,
    /// the 1.1 fields of a request are dropped and its answers are written without them
    /// (`a2a_types::protocol::generations`).
    fn generations(&self) -> bool {
        false
    }

    /// The stream of a streaming call as this version sends it (by default, as it is).
    fn stream(&self, asked: &Asked, events: EventStream) -> EventStream {
        let _ = asked;
        events
    }

    /// Writes one stream event as this version's `result`.
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>);

    /// Whether an error before a streaming call's stream starts is answered as a stream: 200,
    /// `text/event-stream`, one event whose data is the JSON-RPC error response (by default,
    /// no: one JSON response).
    fn opening_error_in_stream(&self) -> bool {
        false
    }

    /// An error object (the handler's, or the endpoint's own) as this version's peers read it:
    /// its codes and its `data` (by default, as it is).
    fn error(&self, error: ErrorObject) -> ErrorObject {
        error
    }
}

/// What encoding an answer knows of its call: the operation, and the task the request named.
#[derive(Clone, Debug)]
pub(crate) struct Asked {
    /// The operation called.
    pub(crate) operation: Operation,
    /// The task the request named ([`Call::task_id`]), if any.
    pub(crate) task_id: Option<TaskId>,
}

impl Asked {
    fn new(operation: Operation, task_id: Option<&TaskId>) -> Self {
        Self {
            operation,
            task_id: task_id.cloned(),
        }
    }
}

/// A result as a `result`: its JSON, or an internal error when it does not serialize.
pub(crate) fn raw<T: Serialize + ?Sized>(result: &T) -> Result<Box<RawValue>, A2aError> {
    serde_json::value::to_raw_value(result)
        .map_err(|error| A2aError::internal(format!("cannot serialize the result: {error}")))
}

/// The answer a version cannot express in its shapes.
pub(crate) fn no_form(version: &str, reply: &Reply) -> A2aError {
    A2aError::internal(format!(
        "the answer ({}) has no {version} form",
        reply.kind()
    ))
}

/// The per-call context every call gets.
#[derive(Clone)]
pub(crate) struct RpcContext {
    pub(crate) handler: RequestHandler,
    pub(crate) call: CallContext,
    /// `Last-Event-ID`, for the subscribe methods (an unreadable one is their error).
    pub(crate) last_event_id: Result<Option<u64>, A2aError>,
}

/// The JSON-RPC endpoint.
pub(crate) struct JsonRpcBinding {
    versions: Vec<Arc<dyn Codec>>,
    /// The 1.1 draft's codec: 1.0's methods for a caller that asks for 1.1, when served.
    v1_1: Option<Arc<dyn Codec>>,
    /// Which of them are served: a call of another is refused with -32009.
    served: Versions,
    /// The flat dialect, and the tasks it started.
    flat: Arc<dyn Codec>,
    flat_tasks: Arc<flat::FlatTasks>,
}

impl std::fmt::Debug for JsonRpcBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self
            .versions
            .iter()
            .map(|g| g.name())
            .chain([self.flat.name()])
            .collect();
        f.debug_struct("JsonRpcBinding")
            .field("versions", &names)
            .finish()
    }
}

/// Where one call of a payload goes: to this codec, with the call's context (or as the refusal
/// to send); `None` for a notification that cannot run.
type Routed<'a> = Option<(&'a Arc<dyn Codec>, Incoming, RpcContext)>;

impl JsonRpcBinding {
    /// The endpoint with every version the server speaks, of which `served` are served (the
    /// flat dialect with 0.3); the flat dialect remembers the last `max_flat_tasks` tasks it
    /// started.
    pub(crate) fn new(max_flat_tasks: usize, served: Versions) -> Self {
        let flat_tasks = Arc::new(flat::FlatTasks::new(max_flat_tasks));
        Self {
            versions: vec![
                Arc::new(v1::V1_0),
                Arc::new(v0_3::V0_3),
                Arc::new(v0_1::V0_1),
            ],
            v1_1: served
                .serves_v1_1()
                .then(|| Arc::new(v1::V1_1) as Arc<dyn Codec>),
            served,
            flat: Arc::new(flat::Flat::new(flat_tasks.clone())),
            flat_tasks,
        }
    }

    fn version(&self, protocol_version: ProtocolVersion) -> Option<&Arc<dyn Codec>> {
        self.versions
            .iter()
            .find(|g| g.protocol_version() == protocol_version)
    }

    /// Where a call goes: the codec that answers it (with the call's context for that
    /// version), or the refusal in that version's shape. A method no version has goes
    /// to the first, which answers -32601 naming it.
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
        let flat = &self.flat;
        let chosen = if self.served.serves(ProtocolVersion::V0_3)
            && flat.operation(method).is_some()
            && flat::claims(&self.flat_tasks, method, &incoming)
        {
            flat.check_version(version)
                .map(|()| flat)
                .map_err(|error| (flat, error))
        } else {
            let mut owners = self
                .versions
                .iter()
                .filter(|g| g.operation(method).is_some());
            let Some(first) = owners.next() else {
                return Some((fallback, incoming, cx.clone()));
            };
            match owners.next() {
                None => first
                    .check_version(version)
                    .map(|()| first)
                    .map_err(|error| (first, error)),
                Some(_) => self.shared(method, &incoming, version, cx).await,
            }
        };
        let chosen = chosen.and_then(|codec| {
            if codec.protocol_version() == ProtocolVersion::V1
                && version.is_v1_1()
                && let Some(v1_1) = &self.v1_1
            {
                Ok(v1_1)
            } else if self.served.serves(codec.protocol_version()) {
                Ok(codec)
            } else {
                Err((codec, self.unserved(method, codec.protocol_version())))
            }
        });
        let streams = single && matches!(incoming, Incoming::Request(_));
        let (codec, refused) = match chosen {
            // Here, a streaming method is in a batch (or a notification).
            Ok(codec)
                if codec.operation(method).is_some_and(Operation::is_streaming) && !streams =>
            {
                (
                    codec,
                    Some(A2aError::invalid_request(format!(
                        "{method} streams its answer and cannot be part of a batch"
                    ))),
                )
            }
            Ok(codec) => (codec, None),
            Err((codec, error)) => (codec, Some(error)),
        };
        match (refused, incoming) {
            (None, incoming) => {
                let mut cx = cx.clone();
                cx.call.protocol_version = codec.protocol_version();
                Some((codec, incoming, cx))
            }
            (Some(error), Incoming::Request(request)) => Some((
                codec,
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
}

impl JsonRpcBinding {
    /// -32009 for a method of a version this endpoint does not serve.
    fn unserved(&self, method: &str, version: ProtocolVersion) -> A2aError {
        A2aError::version_not_supported(format!(
            "{method} is a method of {version}, which this endpoint does not serve; it serves \
             A2A {} (send `A2A-Version: 1.0` with the 1.0 method names)",
            self.served.names().join(", ")
        ))
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
    ) -> Result<&'a Arc<dyn Codec>, (&'a Arc<dyn Codec>, A2aError)> {
        let default = self
            .version(ProtocolVersion::V0_3)
            .expect("the 0.3 version is served");
        let Ok(named) = version.legacy() else {
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
        self.version(wanted)
            .filter(|g| g.operation(method).is_some())
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
                Some((codec, Incoming::Request(request), cx))
                    if codec
                        .operation(&request.method)
                        .is_some_and(Operation::is_streaming) =>
                {
                    return stream(codec, request, cx, permits, settings.keep_alive).await;
                }
                routed => Routes::Single(Box::new(routed)),
            },
            Payload::Batch(items) => Routes::Batch(items),
        };
        // A single call's timeout answers to its id (a batch's, and a notification's, to none).
        let id = match &payload {
            Routes::Single(routed) => routed
                .as_ref()
                .as_ref()
                .and_then(|(_, incoming, _)| incoming.id().cloned()),
            Routes::Batch(_) => None,
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
                id.unwrap_or(Id::Null),
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
            // One call: no batch machinery.
            Routes::Single(routed) => {
                let (codec, incoming, cx) = (*routed)?;
                return answer(codec.clone(), incoming, cx).await.map(single);
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
            .map(|(codec, incoming, cx)| answer(codec.clone(), incoming, cx))
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

/// A payload whose single call is already routed.
enum Routes<'a> {
    Single(Box<Routed<'a>>),
    Batch(Vec<Incoming>),
}

/// Answers one element of a payload with `codec`: the response (its error rendered for the
/// version), or `None` for a notification.
async fn answer(codec: Arc<dyn Codec>, incoming: Incoming, cx: RpcContext) -> Option<Response> {
    let (id, method, params) = match incoming {
        Incoming::Request(request) => (Some(request.id), request.method, request.params),
        Incoming::Notification(notification) => (None, notification.method, notification.params),
        Incoming::Invalid { id, error } => return Some(Response::error(id, codec.error(error))),
    };
    let Some(operation) = codec.operation(&method) else {
        // A notification of an unknown method is answered with nothing.
        return id
            .map(|id| Response::error(id, codec.error(ErrorObject::method_not_found(&method))));
    };
    let outcome = async {
        let mut call = cx.call;
        let mut decoded = codec.decode(operation, params.as_deref(), &mut call)?;
        if !codec.generations() {
            decoded.strip_generations();
        }
        let Call::Unary(request) = decoded else {
            return Err(ErrorObject::invalid_request(format_args!(
                "{method} streams its answer and cannot be answered with a single JSON \
                 response here"
            )));
        };
        let asked = Asked::new(request.operation(), request.task_id());
        let reply = cx.handler.call(request, &call).await?;
        Ok(generations::written(codec.generations(), || {
            codec.encode(&asked, reply)
        })?)
    };
    let outcome = outcome.await.map_err(|error| codec.error(error));
    id.map(|id| Response::new(id, outcome))
}

/// A streaming call, its version chosen: a stream permit (before anything starts), the
/// stream as SSE; an error before the stream starts is one JSON response with the request's id.
async fn stream(
    codec: &Arc<dyn Codec>,
    request: a2a_jsonrpc::Request,
    cx: RpcContext,
    permits: &StreamPermits,
    keep_alive: Duration,
) -> http::Response<A2aBody> {
    let permit = match permits.try_acquire() {
        Ok(permit) => permit,
        Err(error) => {
            let status = response::status(error.explicit_http_status().unwrap_or(200));
            let error = codec.error(error.into());
            return json(status, Response::error(request.id, error).to_vec());
        }
    };
    let opened = async {
        let operation = codec
            .operation(&request.method)
            .ok_or_else(|| ErrorObject::method_not_found(&request.method))?;
        let mut call = cx.call;
        let mut decoded = codec.decode(operation, request.params.as_deref(), &mut call)?;
        if !codec.generations() {
            decoded.strip_generations();
        }
        let Call::Stream(stream_request) = decoded else {
            return Err(ErrorObject::internal_error(
                "a streaming method decoded a unary call",
            ));
        };
        // Only a subscription resumes; an unreadable Last-Event-ID is its error.
        let resume = match &stream_request {
            StreamRequest::SubscribeToTask(_) => cx.last_event_id?,
            _ => None,
        };
        let asked = Asked::new(stream_request.operation(), stream_request.task_id());
        let events = cx.handler.open(stream_request, resume, &call).await?;
        Ok(codec.stream(&asked, events))
    };
    match opened.await {
        Ok(events) => sse_response(
            events,
            JsonRpcFraming {
                id: request.id,
                codec: codec.clone(),
            },
            permit,
            keep_alive,
        ),
        Err(error) if codec.opening_error_in_stream() => sse_response(
            Box::pin(futures_util::stream::once(std::future::ready(Err(
                A2aError::from(error),
            )))),
            JsonRpcFraming {
                id: request.id,
                codec: codec.clone(),
            },
            permit,
            keep_alive,
        ),
        Err(error) => single(Response::error(request.id, codec.error(error))),
    }
}

/// Stream events as JSON-RPC responses to the streaming request, in its version's shapes.
struct JsonRpcFraming {
    id: Id,
    codec: Arc<dyn Codec>,
}

impl Framing for JsonRpcFraming {
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        serde_json::to_writer(&mut *out, &self.id).expect("ids serialize");
        out.extend_from_slice(b",\"result\":");
        generations::written(self.codec.generations(), || self.codec.event(event, out));
        out.push(b'}');
    }

    fn error(&self, error: &A2aError, out: &mut Vec<u8>) {
        let object = self.codec.error(error.to_error_object());
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
fn single(reply: Response) -> http::Response<A2aBody> {
    let retryable = reply
        .error_object()
        .map(|object| A2aError::from(object.clone()).with_http_status(503))
        .filter(|error| error.retry_after().is_some());
    let bytes = reply.to_vec();
    match retryable {
        Some(error) => response::error(&error, content_type::JSON, bytes),
        None => json(StatusCode::OK, bytes),
    }
}

/// What every codec's tests share: decoding literal params, encoding replies, the values
/// they use.
#[cfg(test)]
pub(super) mod testing {
    use super::*;
    use a2a_types::v1::{
        AgentCard, ListTaskPushNotificationConfigsResponse, ListTasksResponse, Message, Part, Role,
        SendMessageResponse, Task, TaskPushNotificationConfig, TaskState, TaskStatus,
    };
    use serde_json::Value;

    /// What `codec` decodes from `params` of `method`: the operation, the 1.0 JSON of its
    /// request message, and whether the call lets the client choose task ids.
    pub(crate) fn decoded(
        codec: &dyn Codec,
        method: &str,
        params: Option<&str>,
    ) -> (Operation, Value, bool) {
        let operation = codec
            .operation(method)
            .unwrap_or_else(|| panic!("{} has no method {method}", codec.name()));
        let raw = params.map(|p| RawValue::from_string(p.to_owned()).unwrap());
        let mut call = CallContext::new();
        let decoded = codec
            .decode(operation, raw.as_deref(), &mut call)
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        assert_eq!(decoded.operation(), operation, "{method}");
        let json = match &decoded {
            Call::Unary(request) => serde_json::to_value(request).unwrap(),
            Call::Stream(request) => serde_json::to_value(request).unwrap(),
            other => panic!("{other:?}"),
        };
        (operation, json, call.client_task_ids)
    }

    /// The `result` `codec` writes for `reply` to a call of `operation` naming `task`.
    pub(crate) fn encoded(
        codec: &dyn Codec,
        operation: Operation,
        task: Option<&str>,
        reply: Reply,
    ) -> Value {
        let asked = Asked {
            operation,
            task_id: task.map(TaskId::from),
        };
        let raw = codec.encode(&asked, reply).unwrap();
        serde_json::from_str(raw.get()).unwrap()
    }

    /// A completed task with one message in its history.
    pub(crate) fn task() -> Task {
        let mut task = Task::new("t-1", "c-1", TaskStatus::new(TaskState::Completed));
        task.history.push(message());
        task
    }

    /// A user message of one text part.
    pub(crate) fn message() -> Message {
        Message::new("m-1", Role::User, vec![Part::text("hi")])
    }

    /// A push configuration of task `t-1`.
    pub(crate) fn push_config() -> TaskPushNotificationConfig {
        TaskPushNotificationConfig::new("https://hook.example/a2a")
            .with_id("c-1")
            .with_task_id("t-1")
    }

    /// Every reply, in the order of [`Reply`]'s variants.
    pub(crate) fn replies() -> Vec<Reply> {
        vec![
            Reply::from(SendMessageResponse::Task(task())),
            Reply::from(task()),
            Reply::from(ListTasksResponse::new(vec![task()], "", 50, 1)),
            Reply::from(push_config()),
            Reply::from(ListTaskPushNotificationConfigsResponse::new(
                vec![push_config()],
                None,
            )),
            Reply::Empty,
            Reply::from(AgentCard::new("A", "An agent", "1.0.0")),
        ]
    }

    /// The 1.0 JSON (ProtoJSON) of each of [`replies`]: the send result wrapped, `{}` for a
    /// deletion.
    pub(crate) fn replies_json() -> Vec<Value> {
        let task = serde_json::json!({"id":"t-1","contextId":"c-1",
            "status":{"state":"TASK_STATE_COMPLETED"},
            "history":[{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}]});
        let config =
            serde_json::json!({"id":"c-1","taskId":"t-1","url":"https://hook.example/a2a"});
        vec![
            serde_json::json!({"task": task}),
            task.clone(),
            serde_json::json!({"tasks":[task],"nextPageToken":"","pageSize":50,"totalSize":1}),
            config.clone(),
            serde_json::json!({"configs":[config]}),
            serde_json::json!({}),
            serde_json::json!({"name":"A","description":"An agent","version":"1.0.0",
                "capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[],
                "supportedInterfaces":[]}),
        ]
    }

    /// Each streaming event kind: the task, a status update, an artifact update, a message.
    pub(crate) fn events() -> Vec<StreamResponse> {
        use a2a_types::v1::{Artifact, TaskArtifactUpdateEvent, TaskStatusUpdateEvent};
        vec![
            StreamResponse::Task(task()),
            StreamResponse::StatusUpdate(TaskStatusUpdateEvent::new(
                "t-1",
                "c-1",
                TaskStatus::new(TaskState::Completed),
            )),
            StreamResponse::ArtifactUpdate(TaskArtifactUpdateEvent::new(
                "t-1",
                "c-1",
                Artifact::new("a-1", vec![Part::text("x")]),
            )),
            StreamResponse::Message(message()),
        ]
    }

    /// The JSON `codec` writes for `event`.
    pub(crate) fn event(codec: &dyn Codec, event: &StreamResponse) -> Value {
        let mut out = Vec::new();
        codec.event(event, &mut out);
        serde_json::from_slice(&out).unwrap()
    }
}
