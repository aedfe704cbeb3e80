//! The transport seam: how an A2A call travels over one binding of one protocol version, and
//! which transport serves which interface of a card.
//!
//! [`A2aClient`](crate::A2aClient) is the operations over an `Arc<dyn` [`Transport`]`>`: the
//! retries, timeouts, tenant handling and resumable streams are written once above the
//! transports, and a transport only turns one attempt of one call into its wire and back. A
//! call is a value ([`Request`] for the nine unary operations, [`StreamRequest`] for the two
//! streaming ones, answered by a [`Reply`] or an [`EventStream`]), so a transport is two methods,
//! [`call`](Transport::call) and [`open`](Transport::open), whatever the number of operations.
//! A transport comes from a [`TransportFactory`], which says which `protocolBinding` and
//! `protocolVersion` it serves; [`ClientBuilder::connect`](crate::ClientBuilder::connect) picks
//! the card's interface and the factory for it.
//!
//! | binding | version | transport |
//! |---|---|---|
//! | `JSONRPC` | 1.x | JSON-RPC 2.0 over HTTP POST (spec 1.0 §9), built in |
//! | `HTTP+JSON` | 1.x | the REST routes of spec 1.0 §11, built in |
//! | `JSONRPC` | 0.3, 0.2 | `message/send` and the other 0.3 methods, `kind`-tagged JSON, built in (legacy) |
//! | `HTTP+JSON` | 0.3, 0.2 | the `/v1/...` routes of the 0.3 proto, its ProtoJSON, built in (legacy) |
//! | `JSONRPC` | 0.1 | `tasks/send` and the other 0.1 methods, built in (legacy) |
//! | `FLAT-JSONRPC` | 0.3 | PromptKit's dialect ([`a2a_types::flat`]) at `/a2a`, for cards that name no endpoint, built in (legacy) |
//! | anything else | | a [`TransportFactory`] given to [`ClientBuilder::transport`](crate::ClientBuilder::transport) |
//!
//! The built-in transports are two: one for JSON-RPC, one for HTTP+JSON, each written once over
//! a codec of its protocol version (how a call is written on that wire, and how its answers,
//! stream events and errors are read). The legacy versions (before 1.0) take and give the same
//! 1.0 values: their codecs convert requests to their version at the edge, answers and events
//! back. A client uses them only when the caller allows it
//! ([`ClientBuilder::allow_legacy`](crate::ClientBuilder::allow_legacy),
//! [`ClientBuilder::protocol_version`](crate::ClientBuilder::protocol_version)).
//!
//! A transport of your own implements [`Transport`] (see its docs for an example). The
//! transports written against the eleven-method trait of earlier releases keep working for one
//! release through the deprecated [`OperationTransport`].

#[cfg(test)]
mod fixtures;
mod jsonrpc;
mod negotiate;
mod operations;
mod rest;
mod select;
mod sse;

pub(crate) use negotiate::Negotiated;
#[allow(deprecated)]
pub use operations::OperationTransport;
pub use select::version_matches;
pub(crate) use select::{Transports, VersionPolicy, is_legacy};

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::protocol::{Reply, Request, StreamRequest};
use a2a_types::v1::{AgentInterface, SendMessageRequest, StreamResponse};
use futures_core::Stream;

use crate::Error;
use crate::http::HttpClient;
use crate::interceptor::{CallInfo, Interceptor};

/// A boxed future, as the [`Transport`] methods return them (so that the trait is object-safe).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub(crate) fn boxed<'a, T>(future: impl Future<Output = T> + Send + 'a) -> BoxFuture<'a, T> {
    Box::pin(future)
}

/// An open event stream, as a transport reads it: one item per event or sign of life.
///
/// An `Err` item that is [transient](Error::is_transient) (the connection broke) makes the
/// [`TaskStream`](crate::TaskStream) above resume; any other ends it. The end of the stream
/// before the task's final event counts as a broken connection.
pub type EventStream = Pin<Box<dyn Stream<Item = Result<StreamFrame, Error>> + Send>>;

/// One item of an [`EventStream`]: an event with its id, or a sign of life.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StreamFrame {
    /// The event's id (SSE `id:`), where a resumed stream picks up (`Last-Event-ID`).
    pub id: Option<String>,
    /// The event; `None` for a keep-alive (an SSE comment, an event without data).
    pub response: Option<StreamResponse>,
}

impl StreamFrame {
    /// An event.
    pub fn event(id: Option<String>, response: StreamResponse) -> Self {
        Self {
            id,
            response: Some(response),
        }
    }

    /// A sign of life without an event (it resets the stream's idle timeout).
    pub fn keep_alive(id: Option<String>) -> Self {
        Self { id, response: None }
    }
}

/// One binding of one protocol version: one attempt of one call, unary ([`call`](Self::call)) or
/// streaming ([`open`](Self::open)).
///
/// Requests come as the caller gave them, with the interface's `tenant` already filled in; the
/// transport puts each field where its binding wants it (JSON-RPC: everything in `params`;
/// HTTP+JSON: the tenant and ids in the path; gRPC: the protobuf message). The [`CallInfo`]
/// names the operation and the attempt, for the [`Interceptor`]s the transport calls around
/// each request it sends. Errors are the client's [`Error`]: the agent's A2A errors as
/// [`Error::Agent`] whatever their wire shape, an operation the transport's version lacks as
/// [`Error::Unsupported`] (before anything is sent).
///
/// Implementations do not retry, time out or resume: the client does that above them.
///
/// ```
/// use a2a_client::transport::{BoxFuture, EventStream, Transport};
/// use a2a_client::{CallInfo, Error};
/// use a2a_types::protocol::{Reply, Request, StreamRequest};
/// use a2a_types::v1::{Task, TaskState, TaskStatus};
///
/// /// Answers `GetTask` from memory, and nothing else.
/// struct InMemory;
///
/// impl Transport for InMemory {
///     fn call<'a>(&'a self, _call: CallInfo, request: &'a Request) -> BoxFuture<'a, Result<Reply, Error>> {
///         Box::pin(async move {
///             match request {
///                 Request::GetTask(get) => {
///                     let status = TaskStatus::new(TaskState::Completed);
///                     Ok(Reply::from(Task::new(get.id.clone(), "c-1", status)))
///                 }
///                 other => Err(Error::Config(format!("{} is not served here", other.operation()))),
///             }
///         })
///     }
///
///     fn open<'a>(
///         &'a self,
///         _call: CallInfo,
///         request: &'a StreamRequest,
///         _last_event_id: Option<&'a str>,
///     ) -> BoxFuture<'a, Result<EventStream, Error>> {
///         Box::pin(async move { Err(Error::Config(format!("{} is not served here", request.operation()))) })
///     }
/// }
/// ```
pub trait Transport: Send + Sync + 'static {
    /// Fills in, once before the first attempt of `SendMessage` or `SendStreamingMessage`, what
    /// this binding needs the client to choose, so that every attempt sends the same request.
    /// The default does nothing; the A2A 0.1 transport gives a message without `taskId` a random
    /// one (0.1 clients name their tasks).
    fn prepare_send(&self, request: &mut SendMessageRequest) {
        let _ = request;
    }

    /// One attempt of a unary operation; the [`Reply`] is the one the operation answers with
    /// ([`Reply::Sent`] for `SendMessage`, [`Reply::Task`] for `GetTask`, ...).
    fn call<'a>(
        &'a self,
        call: CallInfo,
        request: &'a Request,
    ) -> BoxFuture<'a, Result<Reply, Error>>;

    /// One attempt of a streaming operation: resolves when the stream is open (its head has
    /// arrived). `last_event_id` resumes a `SubscribeToTask` after that event
    /// (`Last-Event-ID`), where the binding has event ids.
    fn open<'a>(
        &'a self,
        call: CallInfo,
        request: &'a StreamRequest,
        last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>>;
}

/// What a [`TransportFactory`] builds a transport for: the chosen interface and the client's
/// settings.
#[non_exhaustive]
pub struct TransportTarget<'a> {
    /// The interface of the card.
    pub interface: &'a AgentInterface,
    /// Its URL, resolved against the card's URL when it is a path.
    pub endpoint: &'a http::Uri,
    /// The extension URIs to ask for in every request (`A2A-Extensions`).
    pub extensions: &'a [String],
    /// How long to wait for a connection.
    pub connect_timeout: Option<Duration>,
    /// The interceptors, to call around each request.
    pub interceptors: &'a [Arc<dyn Interceptor>],
    pub(crate) http: &'a HttpClient,
}

impl TransportTarget<'_> {
    /// The CA certificates trusted besides the webpki roots
    /// ([`ClientBuilder::add_root_certificate`](crate::ClientBuilder::add_root_certificate)),
    /// each PEM document as it was given: for a transport that makes its own TLS connections.
    /// Feature `tls`.
    #[cfg(feature = "tls")]
    pub fn root_certificates_pem(&self) -> Vec<&[u8]> {
        self.http
            .tls_material()
            .roots_pem
            .iter()
            .map(|pem| &pem[..])
            .collect()
    }

    /// The client certificate chain and its key to present for mutual TLS
    /// ([`ClientBuilder::client_identity`](crate::ClientBuilder::client_identity)), as PEM;
    /// `None` without one. Feature `tls`.
    #[cfg(feature = "tls")]
    pub fn client_identity_pem(&self) -> Option<(&[u8], &[u8])> {
        self.http
            .tls_material()
            .identity
            .as_ref()
            .map(|identity| (&identity.cert_pem[..], &identity.key_pem[..]))
    }
}

impl fmt::Debug for TransportTarget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TransportTarget")
            .field("interface", self.interface)
            .field("endpoint", self.endpoint)
            .field("extensions", &self.extensions)
            .field("connect_timeout", &self.connect_timeout)
            .field("interceptors", &self.interceptors.len())
            .finish_non_exhaustive()
    }
}

/// Makes the [`Transport`] for an interface of one `protocolBinding` and protocol version.
///
/// The client keeps a table of factories: its own (JSON-RPC and HTTP+JSON, 1.x) and those given
/// to [`ClientBuilder::transport`](crate::ClientBuilder::transport), which are asked first.
pub trait TransportFactory: Send + Sync + 'static {
    /// The `protocolBinding` served (`JSONRPC`, `HTTP+JSON`, `GRPC` or a URI); compared without
    /// regard to case.
    fn binding(&self) -> &str;

    /// The protocol version spoken, `Major.Minor` (`1.0`, `0.3`): it serves the interfaces of
    /// the same major version from 1 on, of the same `Major.Minor` before 1 (see
    /// [`version_matches`]).
    fn protocol_version(&self) -> &str;

    /// A transport for `target`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] when the interface cannot be served (a URL of the wrong form, ...).
    fn build(&self, target: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error>;
}
