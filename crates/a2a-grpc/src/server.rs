//! The gRPC binding's server: `lf.a2a.v1.A2AService` over the [`RequestHandler`](a2a_server::handler::RequestHandler) of an
//! [`A2aService`], alone ([`GrpcService`], on a port of its own) or sharing one port with the
//! JSON-RPC and HTTP+JSON bindings ([`SharedPort`]).
//!
//! ```no_run
//! use a2a_grpc::server::{GrpcInterface as _, SharedPort};
//! use a2a_server::A2aService;
//! use a2a_server::card::InterfaceUrl;
//! use a2a_server::agent::agent_fn;
//! use a2a_types::v1::{AgentCapabilities, AgentCard, Part};
//!
//! # async fn run() -> std::io::Result<()> {
//! let agent = agent_fn(|ctx, sink| async move {
//!     sink.complete(Some(sink.message(vec![Part::text(ctx.text())]))).await?;
//!     Ok(())
//! });
//! let card = AgentCard::new("Echo", "Echoes text", "1.0.0")
//!     .with_capabilities(AgentCapabilities::default().with_streaming(true));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:7420").await?;
//! let service = A2aService::builder(agent, card)
//!     .public_url("http://127.0.0.1:7420")
//!     // The card lists `GRPC 1.0` at `127.0.0.1:7420` after JSON-RPC and HTTP+JSON.
//!     .grpc_interface(InterfaceUrl::Authority)
//!     .build();
//! let config = service.serve_config();
//! a2a_server::serve_with_shutdown(listener, SharedPort::new(service), std::future::pending(), config).await
//! # }
//! ```
//!
//! Every call goes through the same [`RequestHandler`](a2a_server::handler::RequestHandler) as the other bindings (a task created
//! over JSON-RPC is read over gRPC, and the reverse), with the same call context
//! ([`A2aService::call_context`]): the [`Authenticator`](a2a_server::auth::Authenticator) reads the
//! request's metadata as headers, `a2a-extensions` names the extensions asked for, and
//! `a2a-version` must be 1.x (a call without it is refused with `VersionNotSupportedError`,
//! `FAILED_PRECONDITION`). A request message's `tenant` scopes the call.
//!
//! * **Errors** are `google.rpc.Status` with an `ErrorInfo` (reason, domain
//!   `a2a-protocol.org`, metadata) in `grpc-status-details-bin`, and the gRPC codes of the
//!   catalogue ([`crate::status`]).
//! * **Streams** (`SendStreamingMessage`, `SubscribeToTask`) read the task's event log from
//!   their own cursor, as SSE streams do: a reader that does not read holds the stream back
//!   (HTTP/2 flow control) and loses nothing. Each holds a place under the service's
//!   [`Limits::max_streams`](a2a_server::Limits::max_streams), which SSE streams share;
//!   beyond it a stream is refused with `UNAVAILABLE` before anything starts. A dropped stream
//!   is picked up with `SubscribeToTask`: the task as it is now, then its next events.
//! * **Deadlines**: a call ends with `DEADLINE_EXCEEDED` at its `grpc-timeout` (a stream too),
//!   and a unary call at [`Limits::request_timeout`](a2a_server::Limits::request_timeout) at
//!   the latest. A task the call started goes on, and can be read with `GetTask`.
//! * **The A2A 1.1 draft** (task generations, `docs/versions.md`): a call with the metadata
//!   `a2a-version: 1.1` to a service that serves 1.1
//!   ([`Versions::with_v1_1`](a2a_server::card::Versions::with_v1_1)) is answered with
//!   `Task.generation` and the events' `generation`, and its `GetTaskRequest.current_generation`
//!   (long poll, held as over the other bindings: `HandlerConfig::long_poll_timeout`, at most
//!   `HandlerConfig::max_long_polls` at once, else `UNAVAILABLE`; shutdown ends it with the task
//!   as it is) and `SendMessageConfiguration.if_generation_match` (a mismatch is `ABORTED` with
//!   the `ErrorInfo` reason `TASK_GENERATION_MISMATCH` and metadata `taskId`,
//!   `expectedGeneration`, `currentGeneration`) are read. Every other caller gets 1.0's
//!   messages: the five fields are neither read nor written (protobuf leaves them out).
//! * **Cancellation**: a client that cancels a call or goes away drops the call's work at once
//!   (its stream and its place under the stream limit); a running agent is stopped only by
//!   `CancelTask`, as with the other bindings.
//!
//! | limit | default | what a client sees |
//! |---|---|---|
//! | [`GrpcConfig::max_decoding_message_size`] | 4 MiB | a larger request message: `OUT_OF_RANGE` |
//! | [`GrpcConfig::max_encoding_message_size`] | 32 MiB | a larger answer: `OUT_OF_RANGE` |
//! | [`Limits::max_streams`](a2a_server::Limits::max_streams) | 10 000, shared with SSE | `UNAVAILABLE`, "too many open streams" |
//! | [`Limits::request_timeout`](a2a_server::Limits::request_timeout) | 5 min | `DEADLINE_EXCEEDED` |
//! | HTTP/2 streams per connection, keep-alive pings, idle connections | [`ServeConfig`](a2a_server::ServeConfig) | as for the other bindings: the connection layer of [`serve`](a2a_server::serve) |

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_jsonrpc::A2aError;
use a2a_server::card::{Interface, InterfaceUrl};
use a2a_server::handler::CallContext;
use a2a_server::{A2aBody, A2aService, ServiceBuilder};
use a2a_types::protocol::generations::{self, VERSION_1_1};
use a2a_types::protocol::{self as a2a, Reply, StreamRequest, UnexpectedReply};
use a2a_types::protocol::{VERSION_1_0, content_type};
use a2a_types::v1::{self as v1, binding};
use bytes::Bytes;
use futures_util::StreamExt as _;
use http_body::Frame;
use tonic::{Request, Response, Status};
use tower_service::Service;

use crate::proto::a2a_service_server::{A2aService as Rpcs, A2aServiceServer};
use crate::status::to_status;
use crate::{InvalidMessage, proto};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The gRPC binding's own limits (the stream limit and the request timeout are the
/// [`A2aService`]'s [`Limits`](a2a_server::Limits); the connection's are the
/// [`ServeConfig`](a2a_server::ServeConfig)'s).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GrpcConfig {
    /// The largest request message accepted; a larger one is refused with `OUT_OF_RANGE`. Default 4 MiB, the HTTP bindings' body limit.
    pub max_decoding_message_size: usize,
    /// The largest message sent; a larger answer ends the call with `OUT_OF_RANGE`.
    /// Default 32 MiB: twice the most a task holds by default
    /// ([`HandlerConfig::max_task_bytes`](a2a_server::HandlerConfig::max_task_bytes)).
    pub max_encoding_message_size: usize,
}

impl Default for GrpcConfig {
    fn default() -> Self {
        Self {
            max_decoding_message_size: 4 * 1024 * 1024,
            max_encoding_message_size: 32 * 1024 * 1024,
        }
    }
}

impl GrpcConfig {
    /// Sets [`max_decoding_message_size`](Self::max_decoding_message_size).
    #[must_use]
    pub fn with_max_decoding_message_size(mut self, bytes: usize) -> Self {
        self.max_decoding_message_size = bytes;
        self
    }

    /// Sets [`max_encoding_message_size`](Self::max_encoding_message_size).
    #[must_use]
    pub fn with_max_encoding_message_size(mut self, bytes: usize) -> Self {
        self.max_encoding_message_size = bytes;
        self
    }
}

/// Announces the gRPC interface in the card of the service being built.
pub trait GrpcInterface {
    /// Lists `GRPC` `1.0` at `at` in the card (after the JSON-RPC and HTTP+JSON interfaces):
    /// [`InterfaceUrl::Authority`] when it shares the port ([`SharedPort`]),
    /// [`InterfaceUrl::Port`] when it has its own. When the service serves the A2A 1.1 draft
    /// ([`Versions::with_v1_1`](a2a_server::card::Versions::with_v1_1)), also `GRPC` `1.1` at
    /// the same place, after the JSON-RPC and HTTP+JSON 1.1 interfaces.
    #[must_use]
    fn grpc_interface(self, at: InterfaceUrl) -> Self;
}

impl GrpcInterface for ServiceBuilder {
    fn grpc_interface(self, at: InterfaceUrl) -> Self {
        // The 1.1 interface is dropped by the builder when the service does not serve 1.1.
        self.interface(Interface::new(binding::GRPC, VERSION_1_0, at.clone()))
            .interface(Interface::new(binding::GRPC, VERSION_1_1, at))
    }
}

/// The gRPC service `lf.a2a.v1.A2AService` over an [`A2aService`]'s handler, as a
/// `tower_service::Service` with `Error = Infallible`: serve it with
/// [`a2a_server::serve`] on a port of its own (HTTP/2), or beside the other bindings with
/// [`SharedPort`]. Cheap to clone.
#[derive(Clone)]
pub struct GrpcService {
    a2a: A2aService,
    server: A2aServiceServer<Calls>,
}

impl std::fmt::Debug for GrpcService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GrpcService")
            .field("a2a", &self.a2a)
            .finish_non_exhaustive()
    }
}

impl GrpcService {
    /// The gRPC service of `a2a`, with the default [`GrpcConfig`].
    pub fn new(a2a: A2aService) -> Self {
        Self::with_config(a2a, GrpcConfig::default())
    }

    /// The gRPC service of `a2a` with these limits.
    pub fn with_config(a2a: A2aService, config: GrpcConfig) -> Self {
        let server = A2aServiceServer::new(Calls { a2a: a2a.clone() })
            .max_decoding_message_size(config.max_decoding_message_size)
            .max_encoding_message_size(config.max_encoding_message_size);
        Self { a2a, server }
    }
}

/// The call context of a request, as [`GrpcService`] read it from the head, and whether it is
/// answered in the A2A 1.1 draft ([`A2aService::generations`]).
#[derive(Clone)]
struct Call(Result<CallContext, A2aError>, bool);

impl<B> Service<http::Request<B>> for GrpcService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError> + Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let a2a = self.a2a.clone();
        let mut server = self.server.clone();
        Box::pin(async move {
            let (mut head, body) = request.into_parts();
            let call = Call(a2a.call_context(&head).await, a2a.generations(&head));
            head.extensions.insert(call);
            server.call(http::Request::from_parts(head, body)).await
        })
    }
}

/// The JSON-RPC and HTTP+JSON bindings and gRPC on one port: HTTP/2 requests with a
/// `content-type` of `application/grpc` (or `application/grpc+proto`, ...) go to the
/// [`GrpcService`], every other request to the [`A2aService`]. Serve it with
/// [`a2a_server::serve`], which speaks HTTP/1.1 and HTTP/2 (with prior knowledge, as gRPC
/// clients connect) on the same port. Cheap to clone.
#[derive(Clone, Debug)]
pub struct SharedPort {
    a2a: A2aService,
    grpc: GrpcService,
}

impl SharedPort {
    /// `a2a`'s bindings and its gRPC service with the default [`GrpcConfig`].
    pub fn new(a2a: A2aService) -> Self {
        let grpc = GrpcService::new(a2a.clone());
        Self { a2a, grpc }
    }

    /// `a2a`'s bindings and this gRPC service (made with [`GrpcService::with_config`]).
    pub fn with_grpc(a2a: A2aService, grpc: GrpcService) -> Self {
        Self { a2a, grpc }
    }

    /// The service of the JSON-RPC and HTTP+JSON bindings.
    pub fn a2a(&self) -> &A2aService {
        &self.a2a
    }
}

/// True for a gRPC request: HTTP/2 and `application/grpc[+...]`.
fn is_grpc<B>(request: &http::Request<B>) -> bool {
    request.version() == http::Version::HTTP_2
        && request
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                let v = v.trim();
                v.len() >= content_type::GRPC.len()
                    && v[..content_type::GRPC.len()].eq_ignore_ascii_case(content_type::GRPC)
                    && matches!(
                        v.as_bytes().get(content_type::GRPC.len()),
                        None | Some(b'+' | b';')
                    )
            })
}

impl<B> Service<http::Request<B>> for SharedPort
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError> + Send + 'static,
{
    type Response = http::Response<SharedBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        if is_grpc(&request) {
            let answer = self.grpc.call(request);
            Box::pin(async move { Ok(answer.await?.map(SharedBody::Grpc)) })
        } else {
            let a2a = self.a2a.clone();
            Box::pin(async move { Ok(a2a.handle(request).await.map(SharedBody::A2a)) })
        }
    }
}

/// The response body of [`SharedPort`]: the [`A2aBody`] of the JSON bindings, or a gRPC body.
#[derive(Debug)]
#[non_exhaustive]
pub enum SharedBody {
    /// A JSON-RPC or HTTP+JSON response (or the card).
    A2a(A2aBody),
    /// A gRPC response.
    Grpc(tonic::body::Body),
}

impl http_body::Body for SharedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            SharedBody::A2a(body) => Pin::new(body)
                .poll_frame(cx)
                .map(|f| f.map(|f| f.map_err(|never| match never {}))),
            SharedBody::Grpc(body) => Pin::new(body)
                .poll_frame(cx)
                .map(|f| f.map(|f| f.map_err(Into::into))),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            SharedBody::A2a(body) => body.is_end_stream(),
            SharedBody::Grpc(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> http_body::SizeHint {
        match self {
            SharedBody::A2a(body) => body.size_hint(),
            SharedBody::Grpc(body) => body.size_hint(),
        }
    }
}

// ----- the rpcs ----------------------------------------------------------------------------------

/// The rpcs, each a [`RequestHandler::call`](a2a_server::handler::RequestHandler::call) or
/// [`open`](a2a_server::handler::RequestHandler::open).
struct Calls {
    a2a: A2aService,
}

/// A request message that has no v1 value: `INVALID_ARGUMENT`, naming the field.
fn invalid(error: InvalidMessage) -> Status {
    to_status(
        &A2aError::invalid_params(format!("{error}"))
            .with_field_violation(error.field, error.problem),
    )
}

/// The `grpc-timeout` of a request (`<digits><unit>`, unit one of `H M S m u n`), if it has a
/// readable one.
fn grpc_timeout(metadata: &tonic::metadata::MetadataMap) -> Option<Duration> {
    let value = metadata.get("grpc-timeout")?.to_str().ok()?;
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n.saturating_mul(3600)),
        "M" => Duration::from_secs(n.saturating_mul(60)),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

/// What a call is, before its message is read.
struct Head {
    /// Its context.
    call: CallContext,
    /// Its deadline: the `grpc-timeout`, if any.
    deadline: Option<Duration>,
    /// Whether it speaks the A2A 1.1 draft (`a2a-version: 1.1` to a service that serves 1.1):
    /// its 1.1 fields are read and the answers carry generations; else both are 1.0's.
    generations: bool,
}

impl Calls {
    /// The call context of `request`, its deadline and version, or the refusal. (The tenant
    /// its message names scopes the call in `RequestHandler::call`.)
    async fn call<T: Sync>(&self, request: &Request<T>) -> Result<Head, Status> {
        let (call, generations) = match request.extensions().get::<Call>() {
            Some(Call(Ok(call), generations)) => (call.clone(), *generations),
            Some(Call(Err(error), _)) => return Err(to_status(error)),
            None => {
                let head = head_of(request);
                let call = self
                    .a2a
                    .call_context(&head)
                    .await
                    .map_err(|e| to_status(&e))?;
                (call, self.a2a.generations(&head))
            }
        };
        Ok(Head {
            call,
            deadline: grpc_timeout(request.metadata()),
            generations,
        })
    }

    /// A unary rpc: its message read as the operation's request (`INVALID_ARGUMENT` naming
    /// the field it cannot read; the 1.1 fields dropped for a 1.0 call), run through
    /// `RequestHandler::call` within its deadline and the service's request timeout, the reply
    /// (`R`, the operation's result) as the rpc's message `P` (generations only for 1.1).
    /// A long-poll `GetTask` (1.1 `current_generation`) is held by the handler, under its
    /// bound (`HandlerConfig::max_long_polls`, `long_poll_timeout`; shutdown ends it).
    async fn unary<M, R, P>(
        &self,
        request: Request<M>,
        decode: fn(M) -> Result<a2a::Request, InvalidMessage>,
    ) -> Result<Response<P>, Status>
    where
        M: Sync,
        R: TryFrom<Reply, Error = UnexpectedReply>,
        P: From<R>,
    {
        let Head {
            call,
            deadline,
            generations,
        } = self.call(&request).await?;
        let mut request = decode(request.into_inner()).map_err(invalid)?;
        if !generations {
            request.strip_generations();
        }
        let limit = self.a2a.limits().request_timeout;
        let within = deadline.map_or(limit, |d| d.min(limit));
        let work = self.a2a.handler().call(request, &call);
        match tokio::time::timeout(within, work).await {
            Ok(Ok(reply)) => R::try_from(reply)
                .map(|result| Response::new(generations::written(generations, || P::from(result))))
                .map_err(|unexpected| to_status(&A2aError::internal(unexpected.to_string()))),
            Ok(Err(error)) => Err(to_status(&error)),
            Err(_) => Err(Status::deadline_exceeded(format!(
                "the call did not finish within {} ms; a task it started goes on and can be \
                 read with GetTask",
                within.as_millis()
            ))),
        }
    }

    /// A streaming rpc: its message read as the operation's request, a place under the stream
    /// limit taken first (a refused stream starts nothing), the stream of
    /// `RequestHandler::open` (a gRPC subscription does not resume: it has no
    /// `Last-Event-ID`), ended at its deadline.
    async fn open<M: Sync>(
        &self,
        request: Request<M>,
        decode: fn(M) -> Result<StreamRequest, InvalidMessage>,
    ) -> Result<Response<GrpcStream>, Status> {
        let Head {
            call,
            deadline,
            generations,
        } = self.call(&request).await?;
        let mut request = decode(request.into_inner()).map_err(invalid)?;
        if !generations {
            request.strip_generations();
        }
        let permit = self.a2a.stream_permit().map_err(|e| to_status(&e))?;
        let events = self
            .a2a
            .handler()
            .open(request, None, &call)
            .await
            .map_err(|e| to_status(&e))?;
        let deadline = deadline.map(|d| tokio::time::Instant::now() + d);
        let state = (events, permit, deadline, false);
        let stream = futures_util::stream::unfold(
            state,
            move |(mut events, permit, deadline, done)| async move {
                if done {
                    return None;
                }
                let next = match deadline {
                    Some(at) => match tokio::time::timeout_at(at, events.next()).await {
                        Ok(next) => next,
                        Err(_) => {
                            let status = Status::deadline_exceeded(
                                "the stream reached the deadline of the call (grpc-timeout)",
                            );
                            return Some((Err(status), (events, permit, deadline, true)));
                        }
                    },
                    None => events.next().await,
                };
                match next? {
                    Ok(event) => Some((
                        Ok(generations::written(generations, || {
                            proto::StreamResponse::from(event.event)
                        })),
                        (events, permit, deadline, false),
                    )),
                    Err(error) => Some((Err(to_status(&error)), (events, permit, deadline, true))),
                }
            },
        );
        Ok(Response::new(Box::pin(stream)))
    }
}

/// The head of a request as the [`Authenticator`](a2a_server::auth::Authenticator) reads it, from
/// its metadata (for calls that did not come through [`GrpcService`]).
fn head_of<T>(request: &Request<T>) -> http::request::Parts {
    let mut head = http::Request::new(()).into_parts().0;
    head.headers = request.metadata().clone().into_headers();
    head
}

/// The stream of a streaming rpc.
type GrpcStream =
    Pin<Box<dyn futures_core::Stream<Item = Result<proto::StreamResponse, Status>> + Send>>;

/// Each rpc: its message as the operation's request, its answer from the operation's result.
#[tonic::async_trait]
impl Rpcs for Calls {
    async fn send_message(
        &self,
        request: Request<proto::SendMessageRequest>,
    ) -> Result<Response<proto::SendMessageResponse>, Status> {
        self.unary::<_, v1::SendMessageResponse, _>(request, |m| {
            Ok(v1::SendMessageRequest::try_from(m)?.into())
        })
        .await
    }

    type SendStreamingMessageStream = GrpcStream;

    async fn send_streaming_message(
        &self,
        request: Request<proto::SendMessageRequest>,
    ) -> Result<Response<GrpcStream>, Status> {
        self.open(request, |m| Ok(v1::SendMessageRequest::try_from(m)?.into()))
            .await
    }

    async fn get_task(
        &self,
        request: Request<proto::GetTaskRequest>,
    ) -> Result<Response<proto::Task>, Status> {
        self.unary::<_, v1::Task, _>(request, |m| Ok(v1::GetTaskRequest::from(m).into()))
            .await
    }

    async fn list_tasks(
        &self,
        request: Request<proto::ListTasksRequest>,
    ) -> Result<Response<proto::ListTasksResponse>, Status> {
        self.unary::<_, v1::ListTasksResponse, _>(request, |m| {
            Ok(v1::ListTasksRequest::try_from(m)?.into())
        })
        .await
    }

    async fn cancel_task(
        &self,
        request: Request<proto::CancelTaskRequest>,
    ) -> Result<Response<proto::Task>, Status> {
        self.unary::<_, v1::Task, _>(request, |m| Ok(v1::CancelTaskRequest::try_from(m)?.into()))
            .await
    }

    type SubscribeToTaskStream = GrpcStream;

    async fn subscribe_to_task(
        &self,
        request: Request<proto::SubscribeToTaskRequest>,
    ) -> Result<Response<GrpcStream>, Status> {
        self.open(request, |m| Ok(v1::SubscribeToTaskRequest::from(m).into()))
            .await
    }

    async fn create_task_push_notification_config(
        &self,
        request: Request<proto::TaskPushNotificationConfig>,
    ) -> Result<Response<proto::TaskPushNotificationConfig>, Status> {
        self.unary::<_, v1::TaskPushNotificationConfig, _>(request, |m| {
            Ok(v1::TaskPushNotificationConfig::from(m).into())
        })
        .await
    }

    async fn get_task_push_notification_config(
        &self,
        request: Request<proto::GetTaskPushNotificationConfigRequest>,
    ) -> Result<Response<proto::TaskPushNotificationConfig>, Status> {
        self.unary::<_, v1::TaskPushNotificationConfig, _>(request, |m| {
            Ok(v1::GetTaskPushNotificationConfigRequest::from(m).into())
        })
        .await
    }

    async fn list_task_push_notification_configs(
        &self,
        request: Request<proto::ListTaskPushNotificationConfigsRequest>,
    ) -> Result<Response<proto::ListTaskPushNotificationConfigsResponse>, Status> {
        self.unary::<_, v1::ListTaskPushNotificationConfigsResponse, _>(request, |m| {
            Ok(v1::ListTaskPushNotificationConfigsRequest::from(m).into())
        })
        .await
    }

    async fn get_extended_agent_card(
        &self,
        request: Request<proto::GetExtendedAgentCardRequest>,
    ) -> Result<Response<proto::AgentCard>, Status> {
        self.unary::<_, v1::AgentCard, _>(request, |m| {
            Ok(v1::GetExtendedAgentCardRequest::from(m).into())
        })
        .await
    }

    async fn delete_task_push_notification_config(
        &self,
        request: Request<proto::DeleteTaskPushNotificationConfigRequest>,
    ) -> Result<Response<()>, Status> {
        self.unary::<_, (), _>(request, |m| {
            Ok(v1::DeleteTaskPushNotificationConfigRequest::from(m).into())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeouts() {
        let mut metadata = tonic::metadata::MetadataMap::new();
        assert_eq!(grpc_timeout(&metadata), None);
        for (value, expected) in [
            ("2H", Duration::from_secs(7200)),
            ("3M", Duration::from_secs(180)),
            ("5S", Duration::from_secs(5)),
            ("250m", Duration::from_millis(250)),
            ("7u", Duration::from_micros(7)),
            ("9n", Duration::from_nanos(9)),
        ] {
            metadata.insert("grpc-timeout", value.parse().unwrap());
            assert_eq!(grpc_timeout(&metadata), Some(expected), "{value}");
        }
        for bad in ["", "5", "S", "5x", "-5S"] {
            metadata.insert("grpc-timeout", bad.parse().unwrap());
            assert_eq!(grpc_timeout(&metadata), None, "{bad}");
        }
    }

    #[test]
    fn grpc_requests_are_told_apart() {
        let request = |version, content_type: Option<&str>| {
            let mut builder = http::Request::builder().version(version);
            if let Some(ct) = content_type {
                builder = builder.header("content-type", ct);
            }
            builder.body(()).unwrap()
        };
        use http::Version;
        assert!(is_grpc(&request(Version::HTTP_2, Some("application/grpc"))));
        assert!(is_grpc(&request(
            Version::HTTP_2,
            Some("Application/GRPC+proto")
        )));
        assert!(is_grpc(&request(
            Version::HTTP_2,
            Some("application/grpc; x=y")
        )));
        assert!(!is_grpc(&request(
            Version::HTTP_2,
            Some("application/grpc-web")
        )));
        assert!(!is_grpc(&request(
            Version::HTTP_2,
            Some("application/json")
        )));
        assert!(!is_grpc(&request(Version::HTTP_2, None)));
        assert!(!is_grpc(&request(
            Version::HTTP_11,
            Some("application/grpc")
        )));
    }
}
