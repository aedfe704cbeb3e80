//! The gRPC binding's client: a [`Transport`] of `a2a-client` for the `GRPC` interfaces of
//! protocol version 1.x, made by [`GrpcTransportFactory`].
//!
//! ```no_run
//! use a2a_client::A2aClient;
//! use a2a_grpc::client::GrpcTransportFactory;
//!
//! # async fn run() -> Result<(), a2a_client::Error> {
//! let client = A2aClient::builder()
//!     .transport(GrpcTransportFactory::new())
//!     // Prefer gRPC when the card offers it; else the card's order decides.
//!     .preferred_transports(["GRPC"])
//!     .connect("http://127.0.0.1:7420")
//!     .await?;
//! # let _ = client;
//! # Ok(())
//! # }
//! ```
//!
//! **Which interface.** [`ClientBuilder::connect`](a2a_client::ClientBuilder::connect) takes
//! the first interface, in the caller's preferred bindings' order and then in the card's order,
//! that one of its transports serves; added factories are asked first. So with this factory
//! added, a card that lists `GRPC` first is called over gRPC; one that lists JSON-RPC first is
//! called over JSON-RPC unless `GRPC` is preferred.
//!
//! **The URL.** A gRPC interface's URL is `host:port` (spec 1.0 §4); `http://host:port` and
//! `https://host:port` are taken too. A URL without a scheme is called over TLS when its port
//! is 443, in plaintext (HTTP/2 with prior knowledge) otherwise, unless
//! [`GrpcTransportFactory::tls`] says which; TLS is rustls with the ring provider and Mozilla's
//! roots (webpki), as the other transports, with the roots and the client certificate (mutual
//! TLS) of the client's builder
//! ([`add_root_certificate`](a2a_client::ClientBuilder::add_root_certificate),
//! [`client_identity`](a2a_client::ClientBuilder::client_identity)).
//!
//! **The A2A 1.1 draft** (task generations, `docs/versions.md`) is opt-in:
//! [`GrpcTransportFactory::v1_1`] makes a factory of protocol version `1.1`, which serves the
//! card's `GRPC` interfaces of 1.1 (a server that serves the draft lists them after its 1.0
//! ones). Its calls to such an interface send `a2a-version: 1.1` and the requests'
//! `current_generation` (long-poll `GetTask`) and `if_generation_match`, and read the
//! generations of tasks and events into `a2a_types::v1`; to a 1.0 interface (a client that
//! takes a 1.x factory for any 1.x interface may hand it one) they are 1.0 calls. Give the
//! client both factories to speak 1.1 where offered and 1.0 elsewhere; which interface the
//! client picks is `a2a-client`'s choice.
//!
//! ```
//! use a2a_client::transport::TransportFactory as _;
//! use a2a_grpc::client::GrpcTransportFactory;
//!
//! let draft = GrpcTransportFactory::new().v1_1(true);
//! assert_eq!(draft.protocol_version(), "1.1");
//! assert_eq!(GrpcTransportFactory::new().protocol_version(), "1.0");
//! ```
//!
//! **Each call** carries the metadata `a2a-version: 1.0` (`1.1` as above), `a2a-extensions` when extensions
//! are asked for, `traceparent` and `tracestate` inside `a2a_client::trace::scope`, and whatever the client's interceptors set: they see each call as an HTTP
//! request (`POST /lf.a2a.v1.A2AService/<rpc>`, the metadata as headers, the protobuf message
//! as the body) and each answer's head (its metadata as headers; no body).
//!
//! **Errors.** A status with an A2A error (an `ErrorInfo` of domain `a2a-protocol.org`, or a
//! code that names one error alone) is [`Error::Agent`]; `UNAVAILABLE` and `DEADLINE_EXCEEDED`
//! are transient (retried as the client's policy says); a status without an A2A error is
//! [`Error::Transport`] when the connection failed or [`Error::Protocol`] otherwise.
//!
//! **Streams** have no event ids: a dropped stream is resumed by the client with
//! `SubscribeToTask`, which answers with the task as it is, then its next events.

use std::sync::Arc;
use std::time::Duration;

use a2a_client::transport::{
    BoxFuture, EventStream, StreamFrame, Transport, TransportFactory, TransportTarget,
};
use a2a_client::{CallInfo, Error, Interceptor};
use a2a_types::protocol::generations::{self, VERSION_1_1};
use a2a_types::protocol::{
    Operation, Reply, Request, StreamRequest, VERSION_1_0, VersionNumber, headers,
};
use a2a_types::v1::{self as v1, binding};
use bytes::Bytes;
use futures_util::StreamExt as _;
use http::HeaderValue;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

use crate::proto::a2a_service_client::A2aServiceClient;
use crate::status::{code_name, from_status};
use crate::{InvalidMessage, proto};

/// Makes the gRPC [`Transport`] for a card's `GRPC` interface of protocol version 1.x: give it
/// to [`ClientBuilder::transport`](a2a_client::ClientBuilder::transport).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct GrpcTransportFactory {
    /// TLS for URLs without a scheme: `None` decides by the port (443: TLS).
    pub tls: Option<bool>,
    /// The largest message accepted from the agent. Default 32 MiB (the server's default
    /// encoding limit); a larger one fails the call.
    pub max_decoding_message_size: Option<usize>,
    /// Speaks the A2A 1.1 draft (protocol version `1.1`: task generations) to the `GRPC`
    /// interfaces of 1.1; default `false` (1.0).
    pub v1_1: bool,
}

impl GrpcTransportFactory {
    /// A factory with the defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls scheme-less `host:port` URLs over TLS (`true`) or in plaintext (`false`), whatever
    /// their port.
    #[must_use]
    pub fn tls(mut self, on: bool) -> Self {
        self.tls = Some(on);
        self
    }

    /// Sets [`max_decoding_message_size`](Self::max_decoding_message_size).
    #[must_use]
    pub fn max_decoding_message_size(mut self, bytes: usize) -> Self {
        self.max_decoding_message_size = Some(bytes);
        self
    }

    /// Speaks the A2A 1.1 draft ([`v1_1`](Self::v1_1)): the factory's protocol version is
    /// `1.1`, and its calls to a 1.1 interface carry the task generations.
    #[must_use]
    pub fn v1_1(mut self, on: bool) -> Self {
        self.v1_1 = on;
        self
    }
}

/// The default largest message accepted.
const DEFAULT_MAX_DECODING: usize = 32 * 1024 * 1024;

impl TransportFactory for GrpcTransportFactory {
    fn binding(&self) -> &str {
        binding::GRPC
    }

    fn protocol_version(&self) -> &str {
        if self.v1_1 { VERSION_1_1 } else { VERSION_1_0 }
    }

    fn build(&self, target: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
        let uri = target.endpoint;
        let authority = uri.authority().ok_or_else(|| {
            Error::Config(format!(
                "the gRPC interface URL `{}` names no host:port",
                target.interface.url
            ))
        })?;
        let tls = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            Some(other) => {
                return Err(Error::Config(format!(
                    "the gRPC interface URL `{}` has the scheme {other}; use host:port, \
                     http://host:port or https://host:port",
                    target.interface.url
                )));
            }
            None => self.tls.unwrap_or(authority.port_u16() == Some(443)),
        };
        let origin = format!("{}://{authority}", if tls { "https" } else { "http" });
        let mut endpoint = Endpoint::from_shared(origin.clone())
            .map_err(|e| Error::Config(format!("invalid gRPC URL `{origin}`: {e}")))?
            .tcp_nodelay(true)
            .http2_keep_alive_interval(Duration::from_secs(60))
            .keep_alive_while_idle(false);
        if let Some(timeout) = target.connect_timeout {
            endpoint = endpoint.connect_timeout(timeout);
        }
        if tls {
            let mut config = ClientTlsConfig::new()
                .with_webpki_roots()
                .domain_name(authority.host().trim_matches(['[', ']']));
            for pem in target.root_certificates_pem() {
                config = config.ca_certificate(Certificate::from_pem(pem));
            }
            if let Some((cert, key)) = target.client_identity_pem() {
                config = config.identity(Identity::from_pem(cert, key));
            }
            endpoint = endpoint
                .tls_config(config)
                .map_err(|e| Error::Config(format!("TLS for `{origin}`: {e}")))?;
        }
        let extensions = if target.extensions.is_empty() {
            None
        } else {
            let joined = target.extensions.join(", ");
            Some(HeaderValue::from_str(&joined).map_err(|_| {
                Error::Config(format!(
                    "the extension URIs `{joined}` cannot go into metadata"
                ))
            })?)
        };
        let client = A2aServiceClient::new(endpoint.connect_lazy()).max_decoding_message_size(
            self.max_decoding_message_size
                .unwrap_or(DEFAULT_MAX_DECODING),
        );
        // 1.1 only to an interface that offers it (1.1 or a later 1.x).
        let generations = self.v1_1
            && VersionNumber::parse(&target.interface.protocol_version)
                .is_some_and(|v| v.major == 1 && v.minor >= 1);
        Ok(Arc::new(GrpcTransport {
            client,
            origin,
            extensions,
            interceptors: target.interceptors.to_vec(),
            generations,
        }))
    }
}

/// gRPC, A2A 1.0 (or the 1.1 draft).
struct GrpcTransport {
    client: A2aServiceClient<Channel>,
    /// `http[s]://host:port`, for the interceptors' view of a call.
    origin: String,
    /// `a2a-extensions`, when asked for.
    extensions: Option<HeaderValue>,
    interceptors: Vec<Arc<dyn Interceptor>>,
    /// The 1.1 draft: `a2a-version: 1.1`, and the requests' generations written.
    generations: bool,
}

impl GrpcTransport {
    /// The `a2a-version` of the calls.
    fn version(&self) -> &'static str {
        if self.generations {
            VERSION_1_1
        } else {
            VERSION_1_0
        }
    }

    /// The protobuf message of `request`: the 1.1 fields only when 1.1 is spoken.
    fn message<R: Clone + Into<M>, M>(&self, request: &R) -> M {
        generations::written(self.generations, || request.clone().into())
    }

    /// The tonic request of `message`: its metadata, as the interceptors leave it.
    fn request<M: prost::Message>(
        &self,
        call: &CallInfo,
        message: M,
    ) -> Result<tonic::Request<M>, Error> {
        let mut headers = http::HeaderMap::new();
        headers.insert(
            headers::A2A_VERSION,
            HeaderValue::from_static(self.version()),
        );
        if let Some(extensions) = &self.extensions {
            headers.insert(headers::A2A_EXTENSIONS, extensions.clone());
        }
        // Inside `a2a_client::trace::scope`: a new span of the scope's trace, as over HTTP.
        if let Some(span) = a2a_client::trace::current().map(|trace| trace.child()) {
            if let Ok(parent) = HeaderValue::from_str(&span.traceparent()) {
                headers.insert(headers::TRACEPARENT, parent);
            }
            if let Some(state) = span
                .tracestate()
                .and_then(|s| HeaderValue::from_str(s).ok())
            {
                headers.insert(headers::TRACESTATE, state);
            }
        }
        if !self.interceptors.is_empty() {
            let uri = format!("{}/lf.a2a.v1.A2AService/{}", self.origin, call.method);
            let mut http = http::Request::post(uri)
                .body(Bytes::from(message.encode_to_vec()))
                .map_err(|e| Error::Config(format!("cannot describe the call: {e}")))?;
            *http.headers_mut() = headers;
            for interceptor in &self.interceptors {
                interceptor.on_request(call, &mut http);
            }
            headers = std::mem::take(http.headers_mut());
        }
        let mut request = tonic::Request::new(message);
        *request.metadata_mut() = tonic::metadata::MetadataMap::from_headers(headers);
        Ok(request)
    }

    /// Hands the answer's head to the interceptors.
    fn answered(&self, call: &CallInfo, metadata: &tonic::metadata::MetadataMap) {
        if self.interceptors.is_empty() {
            return;
        }
        let mut head = http::Response::new(()).into_parts().0;
        head.headers = metadata.clone().into_headers();
        for interceptor in &self.interceptors {
            interceptor.on_response(call, &head, None);
        }
    }

    /// The error of a failed call, after the interceptors saw it.
    fn failed(&self, call: &CallInfo, status: &tonic::Status) -> Error {
        let error = error_of(status);
        match &error {
            Error::Transport(_) => {
                for interceptor in &self.interceptors {
                    interceptor.on_error(call, &error);
                }
            }
            _ => self.answered(call, status.metadata()),
        }
        error
    }

    /// One unary call: `rpc` on the request made of `message`, the answer read into `T`.
    async fn unary<M, P, T, F, Fut>(&self, call: CallInfo, message: M, rpc: F) -> Result<T, Error>
    where
        M: prost::Message,
        F: FnOnce(A2aServiceClient<Channel>, tonic::Request<M>) -> Fut,
        Fut: std::future::Future<Output = Result<tonic::Response<P>, tonic::Status>>,
        T: TryFrom<P>,
        <T as TryFrom<P>>::Error: Into<InvalidMessage>,
    {
        let request = self.request(&call, message)?;
        match rpc(self.client.clone(), request).await {
            Ok(response) => {
                self.answered(&call, response.metadata());
                T::try_from(response.into_inner()).map_err(|e| invalid_answer(e.into()))
            }
            Err(status) => Err(self.failed(&call, &status)),
        }
    }

    /// One streaming call.
    async fn stream<M, F, Fut>(
        &self,
        call: CallInfo,
        message: M,
        rpc: F,
    ) -> Result<EventStream, Error>
    where
        M: prost::Message,
        F: FnOnce(A2aServiceClient<Channel>, tonic::Request<M>) -> Fut,
        Fut: std::future::Future<
                Output = Result<
                    tonic::Response<tonic::Streaming<proto::StreamResponse>>,
                    tonic::Status,
                >,
            >,
    {
        let request = self.request(&call, message)?;
        match rpc(self.client.clone(), request).await {
            Ok(response) => {
                self.answered(&call, response.metadata());
                let events = response.into_inner().map(|item| match item {
                    Ok(event) => v1::StreamResponse::try_from(event)
                        .map(|event| StreamFrame::event(None, event))
                        .map_err(invalid_answer),
                    Err(status) => Err(error_of(&status)),
                });
                Ok(Box::pin(events))
            }
            Err(status) => Err(self.failed(&call, &status)),
        }
    }
}

/// An answer that has no v1 value.
fn invalid_answer(error: InvalidMessage) -> Error {
    Error::Protocol(format!("the agent's gRPC answer is invalid: {error}"))
}

/// The client's error for a status.
fn error_of(status: &tonic::Status) -> Error {
    use tonic::Code;
    let transient_http = match status.code() {
        Code::Unavailable => Some(503),
        Code::DeadlineExceeded => Some(504),
        _ => None,
    };
    // A status the transport made (no connection, a reset) has a source and no details.
    let from_transport = status.details().is_empty() && std::error::Error::source(status).is_some();
    match from_status(status).filter(|_| !from_transport) {
        Some(error) => Error::Agent(match transient_http {
            Some(http) => error.with_http_status(http),
            None => error,
        }),
        None if transient_http.is_some() || from_transport => {
            Error::Transport(Box::new(GrpcFailure(format!(
                "gRPC {}: {}",
                code_name(status.code()),
                status.message()
            ))))
        }
        None => Error::Protocol(format!(
            "gRPC {}: {}",
            code_name(status.code()),
            status.message()
        )),
    }
}

/// A call that failed below the A2A level.
#[derive(Debug)]
struct GrpcFailure(String);

impl std::fmt::Display for GrpcFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GrpcFailure {}

impl From<std::convert::Infallible> for InvalidMessage {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

/// One unary rpc: `$rpc` of the generated client on the protobuf message of the request
/// message `$request`, its answer read into the 1.0 result type `$result`, as a [`Reply`].
macro_rules! unary {
    ($self:ident, $call:ident, $request:expr, $rpc:ident, $result:ty) => {{
        let message = $self.message($request);
        $self
            .unary::<_, _, $result, _, _>($call, message, |mut c, r| async move { c.$rpc(r).await })
            .await
            .map(Reply::from)
    }};
}

impl Transport for GrpcTransport {
    fn call<'a>(
        &'a self,
        call: CallInfo,
        request: &'a Request,
    ) -> BoxFuture<'a, Result<Reply, Error>> {
        Box::pin(async move {
            match request {
                Request::SendMessage(r) => {
                    unary!(
                        self,
                        call,
                        r.as_ref(),
                        send_message,
                        v1::SendMessageResponse
                    )
                }
                Request::GetTask(r) => unary!(self, call, r, get_task, v1::Task),
                Request::ListTasks(r) => unary!(self, call, r, list_tasks, v1::ListTasksResponse),
                Request::CancelTask(r) => unary!(self, call, r, cancel_task, v1::Task),
                Request::CreateTaskPushNotificationConfig(r) => unary!(
                    self,
                    call,
                    r,
                    create_task_push_notification_config,
                    v1::TaskPushNotificationConfig
                ),
                Request::GetTaskPushNotificationConfig(r) => unary!(
                    self,
                    call,
                    r,
                    get_task_push_notification_config,
                    v1::TaskPushNotificationConfig
                ),
                Request::ListTaskPushNotificationConfigs(r) => unary!(
                    self,
                    call,
                    r,
                    list_task_push_notification_configs,
                    v1::ListTaskPushNotificationConfigsResponse
                ),
                Request::DeleteTaskPushNotificationConfig(r) => {
                    unary!(self, call, r, delete_task_push_notification_config, ())
                }
                Request::GetExtendedAgentCard(r) => {
                    unary!(self, call, r, get_extended_agent_card, v1::AgentCard)
                }
                other => Err(unknown(other.operation())),
            }
        })
    }

    fn open<'a>(
        &'a self,
        call: CallInfo,
        request: &'a StreamRequest,
        _last_event_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<EventStream, Error>> {
        // gRPC events have no ids: a subscription starts with the task as it is now.
        Box::pin(async move {
            match request {
                StreamRequest::SendStreamingMessage(r) => {
                    let message: proto::SendMessageRequest = self.message(r.as_ref());
                    self.stream(call, message, |mut c, r| async move {
                        c.send_streaming_message(r).await
                    })
                    .await
                }
                StreamRequest::SubscribeToTask(r) => {
                    let message: proto::SubscribeToTaskRequest = self.message(r);
                    self.stream(call, message, |mut c, r| async move {
                        c.subscribe_to_task(r).await
                    })
                    .await
                }
                other => Err(unknown(other.operation())),
            }
        })
    }
}

/// An operation newer than the `lf.a2a.v1` service this client knows.
fn unknown(operation: Operation) -> Error {
    Error::Config(format!(
        "{operation} is not an rpc of lf.a2a.v1.A2AService as this client knows it"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_jsonrpc::A2aError;

    #[test]
    fn statuses_become_client_errors() {
        let agent = error_of(&crate::status::to_status(&A2aError::task_not_found("t")));
        assert_eq!(agent.code(), Some(a2a_jsonrpc::ErrorCode::TASK_NOT_FOUND));
        assert!(!agent.is_transient());
        let busy = error_of(&crate::status::to_status(
            &A2aError::internal("too many open streams").with_http_status(503),
        ));
        assert!(busy.is_transient(), "{busy}");
        let down = error_of(&tonic::Status::unavailable("connection refused"));
        assert!(matches!(down, Error::Transport(_)), "{down:?}");
        assert!(down.is_transient());
        let odd = error_of(&tonic::Status::aborted("no"));
        assert_eq!(odd.to_string(), "protocol error: gRPC ABORTED: no");
    }
}
