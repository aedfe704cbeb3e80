//! [`A2aService`]: the whole server as one `tower_service::Service`.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_jsonrpc::Id;
use a2a_types::protocol::{ProtocolVersion, VersionNumber, paths};
use a2a_types::trace::TraceContext;
use a2a_types::v1::{AgentCard, binding};
use http::header;
use tracing::Instrument as _;

use crate::agent::Agent;
use crate::auth::{Authenticator, OperationScopes, Principal, SkillScopes};
use crate::binding::jsonrpc::{self, JsonRpcBinding};
use crate::binding::rest;
use crate::card::{self, CardEndpoint, Interface, InterfaceUrl, Versions};
use crate::common::Settings;
use crate::common::body::A2aBody;
use crate::common::head::{self, Refused};
use crate::common::sse::{StreamPermit, StreamPermits};
use crate::error::A2aError;
use crate::handler::{CallContext, HandlerBuilder, HandlerConfig, RequestHandler};
use crate::span_hex::Hex;
use crate::store::TaskStore;

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
    /// The most calls a JSON-RPC batch may hold; a longer batch is answered with one -32600
    /// error naming the limit, and none of its calls runs. Default 100.
    pub max_batch_len: usize,
    /// The most calls of one JSON-RPC batch that run at once (the others wait, in order).
    /// Default 8.
    pub batch_concurrency: usize,
    /// The interval of keep-alive comments on idle SSE streams. Default 15 s.
    pub keep_alive: Duration,
    /// How long a request body may take to arrive in all (408 beyond). Default 60 s.
    pub body_read_timeout: Duration,
    /// How long a request body may stall between two chunks (408 beyond); this also ends an
    /// `Expect: 100-continue` request whose body never comes. Default 15 s.
    pub body_idle_timeout: Duration,
    /// `Cache-Control: max-age` of the agent card, in seconds. Default 300.
    pub card_max_age: u32,
    /// How many tasks started through the flat JSON-RPC dialect (`docs/versions.md`) are
    /// remembered, so that its `tasks/get` and `tasks/cancel` of them answer in its shapes; an
    /// older one is answered in 0.3's. Default 10 000 (a task id each).
    pub max_flat_tasks: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: 4 * 1024 * 1024,
            max_streams: 10_000,
            request_timeout: Duration::from_secs(300),
            max_batch_len: a2a_jsonrpc::Limits::DEFAULT_MAX_BATCH_LEN,
            batch_concurrency: a2a_jsonrpc::Limits::DEFAULT_BATCH_CONCURRENCY,
            keep_alive: Duration::from_secs(15),
            body_read_timeout: Duration::from_secs(60),
            body_idle_timeout: Duration::from_secs(15),
            card_max_age: 300,
            max_flat_tasks: 10_000,
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

    /// Sets the most calls a JSON-RPC batch may hold.
    #[must_use]
    pub fn with_max_batch_len(mut self, calls: usize) -> Self {
        self.max_batch_len = calls;
        self
    }

    /// Sets how many calls of one JSON-RPC batch run at once.
    #[must_use]
    pub fn with_batch_concurrency(mut self, calls: usize) -> Self {
        self.batch_concurrency = calls;
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

    /// Sets the total time a request body may take.
    #[must_use]
    pub fn with_body_read_timeout(mut self, timeout: Duration) -> Self {
        self.body_read_timeout = timeout;
        self
    }

    /// Sets the time a request body may stall between chunks.
    #[must_use]
    pub fn with_body_idle_timeout(mut self, timeout: Duration) -> Self {
        self.body_idle_timeout = timeout;
        self
    }

    /// Sets the `Cache-Control: max-age` of the agent card, in seconds.
    #[must_use]
    pub fn with_card_max_age(mut self, seconds: u32) -> Self {
        self.card_max_age = seconds;
        self
    }

    /// Sets how many tasks of the flat JSON-RPC dialect are remembered.
    #[must_use]
    pub fn with_max_flat_tasks(mut self, tasks: usize) -> Self {
        self.max_flat_tasks = tasks;
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
    jsonrpc: bool,
    rest: bool,
    versions: Versions,
    interfaces: Vec<Interface>,
    #[cfg(feature = "push")]
    push: Option<crate::push::PushSettings>,
    #[cfg(feature = "signing")]
    card_signing: Option<crate::card::CardSigning>,
}

impl std::fmt::Debug for ServiceBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceBuilder")
            .field("card", &self.card.name)
            .field("public_url", &self.public_url)
            .field("rpc_path", &self.rpc_path)
            .field("jsonrpc", &self.jsonrpc)
            .field("rest", &self.rest)
            .field("versions", &self.versions)
            .field("interfaces", &self.interfaces)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl ServiceBuilder {
    /// Announces one more interface in the card, after this service's own JSON-RPC and
    /// HTTP+JSON 1.0 ones: a binding served beside this service (gRPC, by `a2a-grpc`), on the
    /// same port or another. Its URL follows the service's URL as [`InterfaceUrl`] says.
    ///
    /// An interface of the A2A 1.1 draft comes after this service's own 1.1 interfaces, and is
    /// listed only when the service serves 1.1 ([`versions`](Self::versions)): the binding
    /// beside it answers through this service, in the versions it serves.
    ///
    /// ```
    /// use a2a_server::{A2aService, agent::agent_fn};
    /// use a2a_server::card::{Interface, InterfaceUrl};
    /// use a2a_types::v1::{AgentCard, binding};
    ///
    /// let agent = agent_fn(|_ctx, sink| async move { sink.complete(None).await.map_err(Into::into) });
    /// let service = A2aService::builder(agent, AgentCard::new("A", "An agent", "1.0.0"))
    ///     .public_url("http://127.0.0.1:7420")
    ///     .interface(Interface::new(binding::GRPC, "1.0", InterfaceUrl::Authority))
    ///     .build();
    /// let grpc = &service.card().supported_interfaces[2];
    /// assert_eq!((grpc.url.as_str(), grpc.protocol_binding.as_str()), ("127.0.0.1:7420", "GRPC"));
    /// ```
    #[must_use]
    pub fn interface(mut self, interface: Interface) -> Self {
        self.interfaces.push(interface);
        self
    }

    /// Stores tasks here (default: a new in-memory store).
    #[must_use]
    pub fn store(mut self, store: impl TaskStore) -> Self {
        self.handler = self.handler.store(store);
        self
    }

    /// Stores tasks in a store shared with others (another service, a test that reads it).
    #[must_use]
    pub fn shared_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.handler = self.handler.shared_store(store);
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

    /// Switches push delivery on (see [`crate::push`]): the card declares
    /// `capabilities.pushNotifications`, the push-config operations accept configs (each URL
    /// checked by the SSRF guard), and a worker delivers every task event to the task's
    /// configs. With a signing key, the service also serves its JWKS at
    /// `/.well-known/jwks.json` and the card names it. Without it, a card that declares push
    /// notifications is corrected to false.
    #[cfg(feature = "push")]
    #[must_use]
    pub fn push(mut self, settings: crate::push::PushSettings) -> Self {
        self.handler = self.handler.push(settings.clone());
        self.push = Some(settings);
        self
    }

    /// Signs the agent card (see [`CardSigning`](crate::card::CardSigning)): the card served at the
    /// [`public_url`](Self::public_url) carries this key's signature, and the service's JWKS
    /// at `/.well-known/jwks.json` (shared with signed push deliveries) lists its public key.
    /// Without a public URL the card is served unsigned.
    #[cfg(feature = "signing")]
    #[must_use]
    pub fn sign_card(mut self, signing: crate::card::CardSigning) -> Self {
        self.card_signing = Some(signing);
        self
    }

    /// The limits.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Names the caller of each request (see [`Authenticator`]); tasks then belong to their
    /// creator, and `GetExtendedAgentCard` needs an authenticated caller (an anonymous one gets
    /// 401).
    #[must_use]
    pub fn authenticator(mut self, authenticator: impl Authenticator) -> Self {
        self.authenticator = Some(Arc::new(authenticator));
        self.handler = self.handler.extended_card_needs_principal(true);
        self
    }

    /// The scopes each operation needs (see [`OperationScopes`]): a caller without them is
    /// refused with 403 (`PERMISSION_DENIED`). None by default.
    #[must_use]
    pub fn scopes(mut self, scopes: OperationScopes) -> Self {
        self.handler = self.handler.scopes(scopes);
        self
    }

    /// The scopes each skill needs (see [`SkillScopes`]), besides the `securityRequirements`
    /// of the card's skills, which are always enforced: a message asking for a skill its
    /// caller may not run is refused with 403 (`PERMISSION_DENIED`; 401 for an anonymous
    /// caller) before a task is created.
    #[must_use]
    pub fn skill_scopes(mut self, skills: SkillScopes) -> Self {
        self.handler = self.handler.skill_scopes(skills);
        self
    }

    /// The extended card `GetExtendedAgentCard` returns to each authenticated caller (`None`:
    /// `ExtendedAgentCardNotConfiguredError`); takes precedence over
    /// [`extended_card`](Self::extended_card). The public card must declare
    /// `capabilities.extendedAgentCard`.
    #[must_use]
    pub fn extended_card_for(
        mut self,
        card_for: impl Fn(&Principal) -> Option<AgentCard> + Send + Sync + 'static,
    ) -> Self {
        self.handler = self.handler.extended_card_for(card_for);
        self
    }

    /// The path of the JSON-RPC endpoint, relative to where the service is mounted. Default `/`.
    /// It answers with and without a trailing slash (`/jsonrpc` and `/jsonrpc/` alike).
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

    /// Serves the JSON-RPC binding at the [`rpc_path`](Self::rpc_path) (default: on).
    #[must_use]
    pub fn jsonrpc(mut self, on: bool) -> Self {
        self.jsonrpc = on;
        self
    }

    /// The protocol versions served on the JSON-RPC and HTTP+JSON bindings (see [`Versions`]):
    /// by default every one (1.0, 0.3 with 0.2, 0.1). A version left out is not in the card
    /// (with 1.0 alone, the card is a pure 1.0 card), and its methods and routes are answered
    /// with `VersionNotSupportedError`.
    ///
    /// ```
    /// use a2a_server::{A2aService, agent::agent_fn};
    /// use a2a_server::card::Versions;
    /// use a2a_types::v1::AgentCard;
    ///
    /// let agent = agent_fn(|_ctx, sink| async move { sink.complete(None).await.map_err(Into::into) });
    /// let service = A2aService::builder(agent, AgentCard::new("A", "An agent", "1.0.0"))
    ///     .public_url("http://127.0.0.1:7420")
    ///     .versions(Versions::v1_only())
    ///     .build();
    /// let versions: Vec<&str> = service.card().supported_interfaces.iter()
    ///     .map(|i| i.protocol_version.as_str()).collect();
    /// assert_eq!(versions, ["1.0", "1.0"]);
    /// ```
    #[must_use]
    pub fn versions(mut self, versions: Versions) -> Self {
        self.versions = versions;
        self
    }

    /// Serves the HTTP+JSON (REST) binding: its routes (`/message:send`, `/tasks/{id}`, ...,
    /// each also under a `/{tenant}` prefix) relative to where the service is mounted
    /// (default: on). The JSON-RPC path, when that binding is on, is answered by JSON-RPC.
    #[must_use]
    pub fn rest(mut self, on: bool) -> Self {
        self.rest = on;
        self
    }

    /// The URL clients reach the service at (`http://127.0.0.1:7420`): the card's
    /// `supportedInterfaces` lists the bindings this service serves there, ahead of any
    /// interface the card already lists: JSON-RPC 1.0 at the [`rpc_path`](Self::rpc_path)
    /// first, then HTTP+JSON 1.0 at the URL itself, then those added with
    /// [`interface`](Self::interface), then the legacy versions the same endpoints serve:
    /// JSON-RPC 0.3, HTTP+JSON 0.3 (under `/v1`) and JSON-RPC 0.1 (each only when its binding
    /// is switched on).
    /// The card as served also carries the fields 0.3 and 0.1 clients read (`url`,
    /// `protocolVersion`, ...; see `docs/versions.md`).
    ///
    /// Without it, each card request names the URL the client used: the request's scheme
    /// (`X-Forwarded-Proto`, else `http`) and host (`X-Forwarded-Host`, else `Host`). Set it
    /// when the service is mounted under a path prefix, which the service cannot see.
    #[must_use]
    pub fn public_url(mut self, url: impl Into<String>) -> Self {
        self.public_url = Some(url.into());
        self
    }

    /// The service.
    pub fn build(self) -> A2aService {
        let mut served = Vec::new();
        let versions = self.versions;
        let of = |all: &[&'static str]| -> Vec<&'static str> {
            all.iter()
                .copied()
                .filter(|v| versions.serves_name(v))
                .collect()
        };
        if self.jsonrpc {
            served.push(card::Served {
                binding: binding::JSONRPC,
                url: InterfaceUrl::Path(self.rpc_path.clone()),
                versions: of(jsonrpc::VERSIONS),
            });
        }
        if self.rest {
            served.push(card::Served {
                binding: binding::HTTP_JSON,
                url: InterfaceUrl::Path(String::new()),
                versions: of(rest::VERSIONS),
            });
        }
        let added = self
            .interfaces
            .into_iter()
            .filter(|i| {
                versions.serves_v1_1()
                    || VersionNumber::parse(&i.version) != Some(VersionNumber::new(1, 1))
            })
            .collect();
        let card = card::assemble(card::Parts {
            card: self.card,
            interfaces: card::interfaces(&served, added),
            public_url: self.public_url.as_deref(),
            versions,
            max_age: self.limits.card_max_age,
            #[cfg(feature = "push")]
            push: self.push.as_ref(),
            #[cfg(feature = "signing")]
            signing: self.card_signing,
        });
        let handler = self.handler.assembled_card(card.public).build();
        A2aService {
            inner: Arc::new(ServiceInner {
                handler,
                card: card.endpoint,
                jsonrpc: self
                    .jsonrpc
                    .then(|| JsonRpcBinding::new(self.limits.max_flat_tasks, versions)),
                rest: self.rest,
                versions,
                v0_2_extended_card_path: jsonrpc::v0_2_extended_card_path(&self.rpc_path),
                rpc_path: self.rpc_path,
                streams: StreamPermits::new(self.limits.max_streams),
                limits: self.limits,
                authenticator: self.authenticator,
                #[cfg(feature = "signing")]
                jwks: card.jwks,
            }),
        }
    }
}

/// The whole A2A server: the JSON-RPC endpoint, the HTTP+JSON (REST) routes and the agent card,
/// as one `tower_service::Service<http::Request<B>>` with `Error = Infallible`.
///
/// Mount it in axum with `Router::new().fallback_service(service)` (at the root) or
/// `nest_service("/a2a", service)`, serve it with hyper
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
/// let interfaces = &service.card().supported_interfaces;
/// assert_eq!((interfaces[0].url.as_str(), interfaces[0].protocol_binding.as_str()), ("http://127.0.0.1:7420/", "JSONRPC"));
/// assert_eq!((interfaces[1].url.as_str(), interfaces[1].protocol_binding.as_str()), ("http://127.0.0.1:7420", "HTTP+JSON"));
/// ```
#[derive(Clone)]
pub struct A2aService {
    inner: Arc<ServiceInner>,
}

struct ServiceInner {
    handler: RequestHandler,
    card: CardEndpoint,
    /// `None` when switched off.
    jsonrpc: Option<JsonRpcBinding>,
    rest: bool,
    /// The protocol versions served.
    versions: Versions,
    rpc_path: String,
    /// Where 0.2 clients read the extended card (beside the JSON-RPC endpoint).
    v0_2_extended_card_path: String,
    limits: Limits,
    streams: StreamPermits,
    authenticator: Option<Arc<dyn Authenticator>>,
    /// The JWKS at `/.well-known/jwks.json`: push-delivery and card keys.
    #[cfg(feature = "signing")]
    jwks: Option<bytes::Bytes>,
}

impl std::fmt::Debug for A2aService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("A2aService")
            .field("handler", &self.inner.handler)
            .field("rpc_path", &self.inner.rpc_path)
            .field("jsonrpc", &self.inner.jsonrpc)
            .field("rest", &self.inner.rest)
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
            jsonrpc: true,
            rest: true,
            versions: Versions::default(),
            interfaces: Vec::new(),
            #[cfg(feature = "push")]
            push: None,
            #[cfg(feature = "signing")]
            card_signing: None,
        }
    }

    /// The public agent card. With a [`public_url`](ServiceBuilder::public_url), the card as
    /// served; without one, the card without this service's interfaces (each request names its
    /// own URL).
    pub fn card(&self) -> &AgentCard {
        self.inner.handler.card()
    }

    /// The operations behind the service.
    pub fn handler(&self) -> &RequestHandler {
        &self.inner.handler
    }

    /// The [`ServeConfig`](crate::ServeConfig) defaults with a shutdown hook that stops this
    /// service's running agents (and its push worker): what [`serve_with_shutdown`](crate::serve_with_shutdown) of
    /// this service wants.
    ///
    /// ```
    /// # fn config(service: &a2a_server::A2aService) -> a2a_server::ServeConfig {
    /// service.serve_config().with_shutdown_deadline(std::time::Duration::from_secs(5))
    /// # }
    /// ```
    #[cfg(feature = "serve")]
    pub fn serve_config(&self) -> crate::ServeConfig {
        let handler = self.inner.handler.clone();
        crate::ServeConfig::default().on_shutdown(move || handler.shutdown())
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The protocol versions served ([`ServiceBuilder::versions`]).
    pub fn versions(&self) -> Versions {
        self.inner.versions
    }

    /// Whether a request with this head, of a binding outside this crate (the gRPC one of
    /// `a2a-grpc`), is answered in the A2A 1.1 draft, with task generations: it asks for
    /// `A2A-Version: 1.1` and the service serves 1.1 ([`Versions::with_v1_1`]). When not, its
    /// 1.1 fields are to be dropped (`Call::strip_generations`) and its answers written inside
    /// `a2a_types::protocol::generations::hidden`, as this crate's bindings do.
    pub fn generations(&self, head: &http::request::Parts) -> bool {
        self.inner.versions.serves_v1_1() && head::RequestedVersion::of(head).is_v1_1()
    }

    /// The call context of a request that a binding outside this crate answers (the gRPC one
    /// of `a2a-grpc`), from its head, as this service's bindings make it: the caller (the
    /// [`Authenticator`]; a refusal is the error, with its 401 or 403 status), the extensions
    /// it asks for (`A2A-Extensions`), and the version gate of the 1.0 methods (`A2A-Version`
    /// must be 1.x: a request without it speaks 0.3, and is refused with
    /// `VersionNotSupportedError`).
    ///
    /// # Errors
    ///
    /// The refusal of the [`Authenticator`], or `VersionNotSupportedError`.
    pub async fn call_context(&self, head: &http::request::Parts) -> Result<CallContext, A2aError> {
        let call = self
            .call(head, None)
            .await
            .map_err(|refused| refused.error)?;
        head::RequestedVersion::of(head).require_v1()?;
        Ok(call)
    }

    /// A place under the limit on open streams ([`Limits::max_streams`]), shared by every
    /// binding's streams (SSE, gRPC); held by the stream for its life.
    ///
    /// # Errors
    ///
    /// At the limit: an internal error with HTTP status 503 (gRPC `UNAVAILABLE`) naming it.
    pub fn stream_permit(&self) -> Result<StreamPermit, A2aError> {
        self.inner.streams.try_acquire()
    }

    /// Answers one request. Never fails: every error is an HTTP response.
    pub async fn handle<B>(&self, request: http::Request<B>) -> http::Response<A2aBody>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        // The caller's trace (W3C traceparent) continues here, in a span of this server's.
        let (trace, parent) = head::trace_context(request.headers());
        let span = tracing::info_span!(
            "a2a.request",
            method = %request.method(),
            path = %request.uri().path(),
            a2a.binding = tracing::field::Empty,
            trace_id = %Hex(Some(trace.trace_id())),
            span_id = %Hex(Some(trace.span_id())),
            parent_span_id = %Hex(parent.as_ref().map(TraceContext::span_id)),
        );
        // A service built outside a runtime starts its push worker here.
        self.inner.handler.start_push();
        self.route(request, trace).instrument(span).await
    }

    /// Which binding answers: the card at its well-known paths; JSON-RPC at its path (and at
    /// `/a2a`, the flat dialect's endpoint); the
    /// REST binding every other path (404 in its shape for a path that is no route). With REST
    /// off, any other path is a 404 in the JSON-RPC shape.
    async fn route<B>(
        &self,
        request: http::Request<B>,
        trace: TraceContext,
    ) -> http::Response<A2aBody>
    where
        B: http_body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<BoxError>,
    {
        let inner = &*self.inner;
        let (head, body) = request.into_parts();
        let path = head.uri.path();
        if path == paths::AGENT_CARD || path == paths::LEGACY_AGENT_CARD {
            return inner.card.respond(&head);
        }
        #[cfg(feature = "signing")]
        if path == a2a_jose::push::JWKS_PATH
            && let Some(jwks) = &inner.jwks
        {
            return card::jwks_response(&head, jwks, inner.limits.card_max_age);
        }
        if inner.jsonrpc.is_some()
            && inner.versions.serves(ProtocolVersion::V0_3)
            && path == inner.v0_2_extended_card_path
        {
            return match self.call(&head, Some(&trace)).await {
                Ok(call) => jsonrpc::v0_2_extended_card(&inner.handler, &head, call).await,
                Err(refused) => refuse(refused, |e| jsonrpc::error_response(Id::Null, e)),
            };
        }
        let settings = Settings::of(&inner.limits);
        // The JSON-RPC path, and `/a2a` where the flat dialect's clients post (it is no REST
        // route: a tenant with no route after it).
        if let Some(binding) = inner
            .jsonrpc
            .as_ref()
            .filter(|_| is_mount(path, &inner.rpc_path) || path == paths::FLAT_RPC)
        {
            tracing::Span::current().record("a2a.binding", binding::JSONRPC);
            let call = match self.call(&head, Some(&trace)).await {
                Ok(call) => call,
                Err(refused) => {
                    return refuse(refused, |e| jsonrpc::error_response(Id::Null, e));
                }
            };
            // Boxed, as the REST binding's below: this future holds only the binding that
            // answers, and is small to move (hyper's connection moves it by value).
            return Box::pin(binding.handle(
                &inner.handler,
                settings,
                &inner.streams,
                head,
                body,
                call,
            ))
            .await;
        }
        if !inner.rest {
            let error = A2aError::method_not_found(format!("no A2A endpoint at {path}"))
                .with_http_status(404);
            return jsonrpc::error_response(Id::Null, &error);
        }
        tracing::Span::current().record("a2a.binding", binding::HTTP_JSON);
        let route = match rest::resolve(&head, inner.versions) {
            Ok(route) => route,
            Err(response) => return *response,
        };
        let call = match self.call(&head, Some(&trace)).await {
            Ok(call) => call,
            Err(refused) => return refuse(refused, rest::v1_error_response),
        };
        Box::pin(rest::handle(
            &inner.handler,
            settings,
            &inner.streams,
            inner.versions,
            route,
            head,
            body,
            call,
        ))
        .await
    }

    /// The call context of a request: its caller (or the refusal), the extensions it asks
    /// for, and its trace context: the one `handle` made, or (for a binding outside this
    /// crate, gRPC) one read from the headers here.
    async fn call(
        &self,
        head: &http::request::Parts,
        trace: Option<&TraceContext>,
    ) -> Result<CallContext, Refused> {
        let principal = head::authenticate(self.inner.authenticator.as_deref(), head).await?;
        let trace = trace.map_or_else(|| head::trace_context(&head.headers).0, Clone::clone);
        Ok(CallContext::new()
            .with_principal(principal)
            .with_extensions(head::requested_extensions(head))
            .with_trace(Some(trace)))
    }
}

/// Whether `path` names the endpoint mounted at `mount`: the same path, or the same with or
/// without one trailing slash (`/jsonrpc` and `/jsonrpc/` alike; the root is `/` only).
fn is_mount(path: &str, mount: &str) -> bool {
    path == mount
        || (mount != "/"
            && path != "/"
            && (path.strip_suffix('/') == Some(mount) || mount.strip_suffix('/') == Some(path)))
}

/// A refused request (401 or 403), in the answering binding's error shape, with the
/// `WWW-Authenticate` challenge.
fn refuse(
    refused: Refused,
    render: impl FnOnce(&A2aError) -> http::Response<A2aBody>,
) -> http::Response<A2aBody> {
    let mut response = render(&refused.error);
    if let Some(challenge) = refused.challenge {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, challenge);
    }
    response
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
    use super::is_mount;

    #[test]
    fn a_mount_path_with_or_without_its_trailing_slash() {
        assert!(is_mount("/rpc", "/rpc") && is_mount("/rpc/", "/rpc"));
        assert!(is_mount("/rpc", "/rpc/") && is_mount("/rpc/", "/rpc/"));
        assert!(is_mount("/", "/"));
        assert!(!is_mount("//", "/") && !is_mount("/rpc//", "/rpc") && !is_mount("/rp", "/rpc"));
    }
}
