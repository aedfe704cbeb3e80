//! Serve A2A agents: implement one trait, and one `tower` service answers every binding and
//! protocol version it speaks: JSON-RPC and HTTP+JSON (REST) in A2A 1.0 and 0.3 (with 0.2),
//! JSON-RPC 0.1, and gRPC beside them through the `a2a-grpc` crate, with streams (SSE), push
//! delivery, authentication and the agent card.
//!
//! ```
//! use a2a_server::A2aService;
//! use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
//! use a2a_types::v1::{AgentCapabilities, AgentCard, Artifact, Part};
//!
//! struct Echo;
//!
//! impl Agent for Echo {
//!     async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
//!         sink.working(None).await?;
//!         sink.artifact(Artifact::new("echo", vec![Part::text(ctx.text())])).await?;
//!         sink.complete(None).await?;
//!         Ok(())
//!     }
//! }
//!
//! # async fn run() -> std::io::Result<()> {
//! let card = AgentCard::new("Echo", "Echoes text", "1.0.0")
//!     .with_capabilities(AgentCapabilities::default().with_streaming(true))
//!     .with_default_input_modes(["text/plain"])
//!     .with_default_output_modes(["text/plain"]);
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let url = format!("http://{}", listener.local_addr()?);
//! let service = A2aService::builder(Echo, card).public_url(url).build();
//! a2a_server::serve(listener, service).await
//! # }
//! ```
//!
//! # How a request flows
//!
//! ```text
//! HTTP request
//!   -> A2aService            routes by path: the card, or a binding (docs/architecture.md)
//!   -> binding               its wire, one codec per protocol version: the call decoded
//!                            (JSON-RPC: method name, then A2A-Version; REST: the route)
//!   -> RequestHandler        call(Request) -> Reply, open(StreamRequest) -> events: the
//!                            eleven operations, capability checks, the task state machine
//!        -> TaskStore        tasks, one event log per task, push configurations
//!        -> Agent            your code, reporting through an EventSink
//!   <- the codec             the reply, each stream event (SSE) and each error in its wire
//! ```
//!
//! * Every event an agent reports is validated against the task state machine, applied to the
//!   task and appended to the task's log with a sequence number, in one atomic store update,
//!   before any reader sees it. Streams read the log from their own cursor, so a slow reader
//!   loses nothing and slows nobody; SSE events carry `id: <seq>`, and `SubscribeToTask` with
//!   `Last-Event-ID` resumes right after that event.
//! * Blocking `SendMessage` returns when the task reaches a terminal or interrupted state;
//!   `returnImmediately` returns at once. An agent's direct `reply` answers without a task.
//! * `CancelTask` fires the agent's cancellation token and [`Agent::cancel`]; the task ends
//!   `TASK_STATE_CANCELED` after [`HandlerConfig::cancel_grace`] at the latest.
//! * An agent that returns an error or panics fails its task; the server keeps serving.
//! * A task left waiting for the client (`TASK_STATE_INPUT_REQUIRED`, `AUTH_REQUIRED`) ends
//!   `TASK_STATE_FAILED` after [`HandlerConfig::interrupted_ttl`] (24 h) without a follow-up,
//!   so that such tasks cannot fill the store for good.
//!
//! # Writing the agent
//!
//! The [`agent`] module: implement [`Agent`] (or write a closure with
//! [`agent_fn`](agent::agent_fn), or a stream of events with
//! [`from_stream`](agent::from_stream)) and report through the [`EventSink`]. Its status helpers
//! (`working`, `complete`, `fail`, `reject`, `input_required`, `auth_required`, `status`) all
//! take text, a `Message` or nothing ([`StatusMessage`](agent::StatusMessage)). To choose the
//! agent at run time, box it: [`BoxAgent`](agent::BoxAgent).
//!
//! # Who sees which task
//!
//! Every task belongs to an owner: the principal that created it (named by the service's
//! [`Authenticator`](auth::Authenticator), if it has one) under the tenant it was created in. A call sees only the
//! tasks of its own owner: `GetTask`, `CancelTask`, `SubscribeToTask`, push configurations and
//! follow-up messages on another owner's task get `TaskNotFoundError` (-32001), and `ListTasks`
//! lists the caller's own tasks.
//!
//! **Without an authenticator every call is anonymous, so tasks are scoped by tenant alone:
//! `ListTasks` lists every caller's tasks**, and whoever knows a task's id can read, follow and
//! cancel it. That is the default, meant for a single-tenant server (one client, or clients
//! that trust each other; `a2a serve` is such a server). A server that several clients share
//! names its callers with [`ServiceBuilder::authenticator`]: `examples/scoped_tasks.rs` scopes
//! tasks by API key, and shows two callers that do not see each other's tasks.
//!
//! Ready-made authenticators ([`auth`]): [`ApiKeyAuthenticator`](auth::ApiKeyAuthenticator) (header, query or cookie),
//! `auth::jwt::JwtAuthenticator` (bearer JWTs against a JWKS URL or an OpenID Connect issuer;
//! feature `jwt`), and [`AnyOf`](auth::AnyOf), [`AllOf`](auth::AllOf) and [`SecurityRequirements`](auth::SecurityRequirements) (the card's
//! `securityRequirements`). [`ServiceBuilder::scopes`] sets the scopes each operation needs
//! ([`OperationScopes`](auth::OperationScopes)); with an authenticator, `GetExtendedAgentCard` needs an authenticated
//! caller, and [`ServiceBuilder::extended_card_for`] gives each its own card. Refusals are 401
//! with `WWW-Authenticate` or 403, in each binding's error shape (`docs/security.md`).
//!
//! # Mounting
//!
//! [`A2aService`] is a `tower_service::Service<http::Request<B>>` with `Error = Infallible`:
//! serve it with [`serve`] / [`serve_with_shutdown`], with hyper through
//! `hyper_util::service::TowerToHyperService`, or mount it in axum. The service answers its card
//! at [`card::AGENT_CARD_PATH`] (and [`card::LEGACY_AGENT_CARD_PATH`]) relative to where it is mounted, so
//! under `nest_service("/a2a", service)` the card is at `/a2a/.well-known/agent-card.json`,
//! where clients do not look; route [`card::AGENT_CARD_PATH`] at the root to a clone of the service
//! as well (`examples/axum.rs`, `docs/mount-in-axum.md`).
//!
//! # Limits and defaults
//!
//! Every resource a request can make the server hold is bounded, with a safe default. Each
//! limit is set on one of four things: [`ServeConfig`] (connections; [`serve_with_shutdown`]),
//! [`Limits`] ([`ServiceBuilder::limits`]), [`HandlerConfig`]
//! ([`ServiceBuilder::handler_config`]) and the default store's
//! [`RetentionPolicy`](store::RetentionPolicy) ([`ServiceBuilder::store`]). `docs/limits.md`
//! lists every limit with its default, what a client sees when it is hit (the HTTP status, the
//! error's code and message), how to change it and the test that hits it. Not limits, but
//! timers a client notices: SSE streams carry a keep-alive comment after
//! [`Limits::keep_alive`] (15 s) of silence, and the card is served with
//! `Cache-Control: max-age` [`Limits::card_max_age`] (300 s).
//!
//! ```
//! use std::time::Duration;
//! use a2a_server::store::{InMemoryTaskStore, RetentionPolicy};
//! use a2a_server::{A2aService, HandlerConfig, Limits};
//!
//! # async fn run(agent: impl a2a_server::Agent, card: a2a_types::v1::AgentCard) -> std::io::Result<()> {
//! let service = A2aService::builder(agent, card)
//!     .limits(Limits::default().with_max_body_bytes(1024 * 1024).with_max_streams(1000))
//!     .handler_config(
//!         HandlerConfig::default().with_interrupted_ttl(Some(Duration::from_secs(60 * 60))),
//!     )
//!     .store(InMemoryTaskStore::with_retention(
//!         RetentionPolicy::default().with_max_live_tasks(1000),
//!     ))
//!     .build();
//! let config = service.serve_config().with_max_connections(2000);
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:7420").await?;
//! a2a_server::serve_with_shutdown(listener, service, std::future::pending(), config).await
//! # }
//! ```
//!
//! # Examples
//!
//! Each runs with `cargo run -p a2a-server --example NAME`:
//!
//! | example | what it shows |
//! |---|---|
//! | `quickstart` | the README's program: an artifact streamed in two chunks, then completed |
//! | `echo` | the smallest [`Agent`] impl: an artifact with the message's text; graceful shutdown on Ctrl-C |
//! | `streaming` | [`from_stream`](agent::from_stream): a `Stream` of events, one artifact chunk per word |
//! | `multi_turn` | `input_required`, then a follow-up message on the same task |
//! | `pick_agent` | [`BoxAgent`](agent::BoxAgent): the agent named on the command line |
//! | `scoped_tasks` | an [`Authenticator`](auth::Authenticator) naming callers by API key: each caller sees only its own tasks |
//! | `axum` | the service under `/a2a` in an axum app, with the card at the root |
//! | `push` | an agent with signed push delivery and a webhook receiver in one program: the receiver verifies each delivery with `a2a_client::push` |
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `serve` | yes | [`serve`] and [`serve_with_shutdown`]: the hyper accept loop (HTTP/1.1 and HTTP/2) with graceful shutdown |
//! | `signing` | yes | signed agent cards ([`ServiceBuilder::sign_card`], [`card::CardSigning`]) and the JWKS endpoint (a2a-jose on ring) |
//! | `jwt` | yes | [`auth::jwt::JwtAuthenticator`]: bearer JWTs checked against a JWKS URL or an OpenID Connect issuer (the keys fetched over hyper-util and rustls, ring) |
//! | `mock` | no | [`mock`]: [`MockAgent`], a scriptable agent for tests (rules, scripts of events as Rust, JSON or YAML, a record of every message received) |
//! | `push` | yes | [`push`]: push delivery ([`ServiceBuilder::push`]): the worker, its HTTPS client (rustls, ring), the SSRF guard, signed deliveries and their JWKS |
//! | `tls` | no | `serve` terminating TLS ([`ServeConfig::with_tls`], the [`tls`] module: the certificate from PEM or a rustls `ServerConfig`, ALPN for HTTP/2 and HTTP/1.1, client certificates required or optional against a CA, the verified chain in each request's extensions) and the mutual-TLS principal ([`auth::mtls::MtlsAuthenticator`]); tokio-rustls with ring |
//! | `store-conformance` | no | [`store::conformance`]: the behaviour every [`TaskStore`](store::TaskStore) must show, as async test functions and the `store_conformance_tests!` macro, for stores outside this crate |
//!
//! Items of a feature that is off are not in this build of the documentation; their names in
//! the table lead back to it.
//!
// The links to items of features (the table's and the crate docs'), each to its item when the
// feature is on and back to the table when it is off, so that rustdoc has no broken link.
#![cfg_attr(
    feature = "serve",
    doc = "[`serve`]: serve()\n[`serve_with_shutdown`]: serve_with_shutdown\n[`ServeConfig`]: ServeConfig"
)]
#![cfg_attr(
    not(feature = "serve"),
    doc = "[`serve`]: crate#features\n[`serve_with_shutdown`]: crate#features\n[`ServeConfig`]: crate#features"
)]
#![cfg_attr(
    feature = "signing",
    doc = "[`ServiceBuilder::sign_card`]: ServiceBuilder::sign_card"
)]
#![cfg_attr(
    not(feature = "signing"),
    doc = "[`ServiceBuilder::sign_card`]: crate#features"
)]
#![cfg_attr(
    feature = "jwt",
    doc = "[`auth::jwt::JwtAuthenticator`]: auth::jwt::JwtAuthenticator"
)]
#![cfg_attr(
    not(feature = "jwt"),
    doc = "[`auth::jwt::JwtAuthenticator`]: crate#features"
)]
#![cfg_attr(
    feature = "mock",
    doc = "[`mock`]: mock\n[`MockAgent`]: mock::MockAgent"
)]
#![cfg_attr(
    not(feature = "mock"),
    doc = "[`mock`]: crate#features\n[`MockAgent`]: crate#features"
)]
#![cfg_attr(
    feature = "push",
    doc = "[`push`]: push\n[`ServiceBuilder::push`]: ServiceBuilder::push"
)]
#![cfg_attr(
    not(feature = "push"),
    doc = "[`push`]: crate#features\n[`ServiceBuilder::push`]: crate#features"
)]
#![cfg_attr(
    feature = "tls",
    doc = "[`tls`]: tls\n[`ServeConfig::with_tls`]: ServeConfig::with_tls\n[`auth::mtls::MtlsAuthenticator`]: auth::mtls::MtlsAuthenticator"
)]
#![cfg_attr(
    not(feature = "tls"),
    doc = "[`tls`]: crate#features\n[`ServeConfig::with_tls`]: crate#features\n[`auth::mtls::MtlsAuthenticator`]: crate#features"
)]
#![cfg_attr(
    feature = "store-conformance",
    doc = "[`store::conformance`]: store::conformance"
)]
#![cfg_attr(
    not(feature = "store-conformance"),
    doc = "[`store::conformance`]: crate#features"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
pub mod auth;
mod binding;
pub mod card;
mod common;
mod error;
pub mod handler;
mod hashing;

#[cfg(feature = "mock")]
pub mod mock;
#[cfg(feature = "push")]
pub mod push;
#[cfg(feature = "serve")]
mod serve;
mod service;
mod span_hex;
pub mod store;
#[cfg(feature = "tls")]
pub mod tls;

// What an agent writer names: the agent API, the service, its limits, serving it. Everything
// else lives in its module: `agent` (closures, streams, boxed agents, sink errors), `auth`
// (authenticators, principals, scopes), `card` (interfaces, the card's signing key), `handler`
// (the operations without HTTP, for integrators), `store`, `push`, `tls`, `mock`.
pub use agent::{Agent, AgentError, EventSink, RequestContext};
pub use common::body::A2aBody;
pub use common::sse::StreamPermit;
pub use error::A2aError;
pub use handler::HandlerConfig;
#[cfg(feature = "serve")]
pub use serve::{ServeConfig, serve, serve_per_core, serve_with_shutdown};
pub use service::{A2aService, Limits, ServiceBuilder};
