//! Serve A2A agents: implement one trait, get the whole A2A 1.0 JSON-RPC binding.
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
//!   -> binding               its wire: JSON-RPC (method name, then A2A-Version), limits, SSE
//!   -> RequestHandler        the eleven operations, capability checks, the task state machine
//!        -> TaskStore        tasks, one event log per task, push configurations
//!        -> Agent            your code, reporting through an EventSink
//!   <- event log -> SSE      every subscriber reads the log from its own cursor
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
//! take text, a `Message` or nothing ([`StatusMessage`]). To choose the
//! agent at run time, box it: [`BoxAgent`].
//!
//! # Who sees which task
//!
//! Every task belongs to an owner: the principal that created it (named by the service's
//! [`Authenticator`], if it has one) under the tenant it was created in. A call sees only the
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
//! Ready-made authenticators ([`auth`]): [`ApiKeyAuthenticator`] (header, query or cookie),
//! `auth::jwt::JwtAuthenticator` (bearer JWTs against a JWKS URL or an OpenID Connect issuer;
//! feature `jwt`), and [`AnyOf`], [`AllOf`] and [`SecurityRequirements`] (the card's
//! `securityRequirements`). [`ServiceBuilder::scopes`] sets the scopes each operation needs
//! ([`OperationScopes`]); with an authenticator, `GetExtendedAgentCard` needs an authenticated
//! caller, and [`ServiceBuilder::extended_card_for`] gives each its own card. Refusals are 401
//! with `WWW-Authenticate` or 403, in each binding's error shape (`docs/security.md`).
//!
//! # Mounting
//!
//! [`A2aService`] is a `tower_service::Service<http::Request<B>>` with `Error = Infallible`:
//! serve it with [`serve`] / [`serve_with_shutdown`], with hyper through
//! `hyper_util::service::TowerToHyperService`, or mount it in axum. The service answers its card
//! at [`AGENT_CARD_PATH`] (and [`LEGACY_AGENT_CARD_PATH`]) relative to where it is mounted, so
//! under `nest_service("/a2a", service)` the card is at `/a2a/.well-known/agent-card.json`,
//! where clients do not look; route [`AGENT_CARD_PATH`] at the root to a clone of the service
//! as well (`examples/axum.rs`, `docs/mount-in-axum.md`).
//!
//! # Limits and defaults
//!
//! Every resource a request can make the server hold is bounded, with a safe default. Each
//! limit is set on one of four things: [`ServeConfig`] (connections; [`serve_with_shutdown`]),
//! [`Limits`] ([`ServiceBuilder::limits`]), [`HandlerConfig`]
//! ([`ServiceBuilder::handler_config`]) and the default store's
//! [`RetentionPolicy`](store::RetentionPolicy) ([`ServiceBuilder::store`]). Errors are shown
//! as the JSON-RPC binding answers them (HTTP status, then code and message); the REST binding
//! answers the same message in a `google.rpc.Status` with the same HTTP status. The same table,
//! with how to change each limit and what bounds the memory of one answer, is
//! `docs/limits.md`.
//!
//! | limit | default | what a client sees when it is hit |
//! |---|---|---|
//! | `ServeConfig::max_connections` | 10 000 | no error: at the cap the server stops accepting, a new connection waits in the kernel's listen backlog and is served once another one closes (its connect times out when the backlog is full too); out of file descriptors, accepting pauses 50 ms at a time and goes on |
//! | `ServeConfig::header_read_timeout` | 30 s | a connection without a complete request head in time (counted from the accept, or from the first byte of a kept-alive connection's next request) is closed without a response |
//! | `ServeConfig::idle_timeout` | 60 s | a connection without an open request is closed (HTTP/2: after a `GOAWAY` with `NO_ERROR`, and a peer that does not close its end then, nor answer pings, is disconnected `http2_keep_alive_timeout` later: an idle HTTP/2 connection lasts at most `idle_timeout` + `http2_keep_alive_timeout`, 80 s by default); an open SSE stream is an open request, so its connection is never idle |
//! | `ServeConfig::http2_keep_alive_interval` | 60 s | an HTTP/2 connection on which nothing was read this long is pinged |
//! | `ServeConfig::http2_keep_alive_timeout` | 20 s | an HTTP/2 peer that leaves a ping unanswered this long is disconnected, with all its streams |
//! | `ServeConfig::http2_max_concurrent_streams` | 200 | announced in `SETTINGS`; a stream opened beyond it is reset with `REFUSED_STREAM` |
//! | `ServeConfig::shutdown_deadline` | 10 s | after the shutdown signal, a connection still open at the deadline (a stream still being read) is closed |
//! | `ServeConfig::tls_handshake_timeout` | 10 s | with TLS (feature `tls`): a connection whose TLS handshake is not complete in time (counted from the accept) is closed without an alert; a failed handshake (no valid client certificate where one is required) is closed at once, with rustls' alert; either frees its connection slot, and the first request head is then due within `header_read_timeout` |
//! | HTTP/1.1 request head (hyper's, fixed) | 100 headers, 408 KiB | `431 Request Header Fields Too Large`, and the connection is closed (the size is checked between reads: a head a little larger may still pass) |
//! | HTTP/2 header list (hyper's, fixed) | 16 KiB | `431 Request Header Fields Too Large` on that stream |
//! | `Limits::max_body_bytes` | 4 MiB | `413`, -32600 "invalid request: the request body is larger than the limit of 4194304 bytes" (id `null`); a declared `Content-Length` over the limit is refused before anything is read |
//! | `Limits::body_read_timeout` | 60 s | `408`, -32600 "invalid request: the request body did not arrive within 60000 ms" |
//! | `Limits::body_idle_timeout` | 15 s | `408`, -32600 "invalid request: the request body stalled: no data for 15000 ms"; also ends an `Expect: 100-continue` request whose body never comes |
//! | `Limits::request_timeout` | 5 min | `504`, -32603 "internal error: the call did not finish within 300000 ms; a task it started goes on and can be polled with GetTask" (REST: "... can be read with GET /tasks/{id}"); streams are not timed |
//! | `Limits::max_streams` | 10 000 | a stream (`SendStreamingMessage`, `SubscribeToTask`, either binding) while this many are open: `503`, -32603 "internal error: too many open streams (the limit is 10000); try again later", with the call's id; nothing starts |
//! | `Limits::max_batch_len` | 100 | a longer JSON-RPC batch: `200` with one -32600 "invalid request: a batch may hold at most 100 calls; this one holds N" (id `null`); none of its calls runs |
//! | `Limits::batch_concurrency` | 8 | no error: a batch's further calls wait for a running one to finish; the answers keep the batch's order |
//! | `Limits::max_flat_tasks` | 10 000 | no error: the flat dialect's `tasks/get` and `tasks/cancel` of an older task it started answer in 0.3's shapes (`kind` tags, `input-required`) |
//! | `HandlerConfig::max_task_bytes` | 16 MiB | a message that alone is larger: -32602 "invalid params: the message takes N bytes, more than the 16777216 bytes a task may hold (max_task_bytes)"; a follow-up that would take its task over: -32004 "task T cannot take this message of N bytes: the task holds ..."; an agent event that would: refused to the agent (`SinkError::TooLarge`), the task unchanged |
//! | `HandlerConfig::max_page_bytes` | 4 MiB | `ListTasks` ends its page early (with at least one task) and returns the `nextPageToken` of the rest |
//! | `HandlerConfig::max_page_size` | 100 | a `pageSize` outside 1..=100: `-32602` "invalid params: pageSize must be between 1 and 100, got N" with a `google.rpc.BadRequest` naming `pageSize` (REST: `400`, the same document) |
//! | `HandlerConfig::default_page_size` | 50 | the size of a `ListTasks` page that names no `pageSize` |
//! | `HandlerConfig::cancel_grace` | 5 s | `CancelTask` answers after it at the latest: the task ends `TASK_STATE_CANCELED` whatever its agent does |
//! | `HandlerConfig::interrupted_ttl` | 24 h | a task left `TASK_STATE_INPUT_REQUIRED` or `TASK_STATE_AUTH_REQUIRED` this long (no follow-up, no agent running) ends `TASK_STATE_FAILED` with the agent message "The task waited longer than 24 h for input and was closed (interrupted_ttl); send a new message without taskId to start a new task.", which open streams and waiting calls receive; a late answer: -32004 "task T is TASK_STATE_FAILED (a terminal state) and accepts no more messages; ..." |
//! | `HandlerConfig::outage_tolerance` | 30 s | while the task store fails transiently (its database away): an agent's `sink` call, the end of its turn and a stream's read wait for it, nothing acknowledged before it is stored; past the tolerance the sink call fails (`SinkError::Store`, "task store unavailable: for longer than the outage tolerance of 30 s (outage_tolerance): ..."), the task ends `TASK_STATE_FAILED` with "an event of the task could not be stored: ..." once the store is back, and a stream ends with the retryable `503` error; a call that needs the store meanwhile: `503` with `Retry-After: 1`, -32603 "task store unavailable: ...", retryable (gRPC `UNAVAILABLE`); see "When the task store goes away" |
//! | `HandlerConfig::max_pending_outcomes` | 10 000 | no error: the ends of agents' turns the store could not take (past `outage_tolerance`) wait in memory and are written once it is back, one a second at most while it is not; beyond the limit the oldest is given up, and a SQL store's lease then ends its task ("The replica running this task stopped ...") |
//! | `RetentionPolicy::max_tasks` | 10 000 | ended tasks beyond it are dropped, oldest first: -32001 "task T not found" |
//! | `RetentionPolicy::max_live_tasks` | 10 000 | a message that would start a task while this many are unfinished (an ended task never counts, read by a stream or not): `503` with `Retry-After: 1`, -32603 "the task store holds its limit of 10000 unfinished tasks (max_live_tasks); try again later", retryable (gRPC `UNAVAILABLE`); the agent does not run |
//! | `RetentionPolicy::max_live_tasks_per_principal` | 2 500 | with an authenticator, a message that would start a task of a principal that has this many unfinished: the same `503`, "the caller holds its share of 2500 unfinished tasks (max_live_tasks_per_principal); try again once one of them ends"; calls without a principal share `max_live_tasks` alone |
//! | `RetentionPolicy::max_total_bytes` | 256 MiB | ended tasks are dropped, oldest first, to stay within it; when unfinished and pinned tasks fill it, a new task gets the retryable `503` "the task store is full: ...", and a follow-up or an agent event that does not fit is refused (-32004, `SinkError::TooLarge`) |
//! | `RetentionPolicy::terminal_ttl` | 1 h | ended tasks whose final status is older are dropped at the store's next change: -32001 "task T not found" |
//!
//! Not limits, but timers a client notices: SSE streams carry a keep-alive comment after
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
//! | `pick_agent` | [`BoxAgent`]: the agent named on the command line |
//! | `scoped_tasks` | an [`Authenticator`] naming callers by API key: each caller sees only its own tasks |
//! | `axum` | the service under `/a2a` in an axum app, with the card at the root |
//! | `push` | an agent with signed push delivery and a webhook receiver in one program: the receiver verifies each delivery with `a2a_client::push` |
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `serve` | yes | [`serve`] and [`serve_with_shutdown`]: the hyper accept loop (HTTP/1.1 and HTTP/2) with graceful shutdown |
//! | `signing` | yes | signed agent cards ([`ServiceBuilder::sign_card`], the [`signing`] module) and the JWKS endpoint (a2a-jose on ring) |
//! | `jwt` | yes | [`auth::jwt::JwtAuthenticator`]: bearer JWTs checked against a JWKS URL or an OpenID Connect issuer (the keys fetched over hyper-util and rustls, ring) |
//! | `mock` | no | [`mock`]: [`MockAgent`](mock::MockAgent), a scriptable agent for tests (rules, scripts of events as Rust, JSON or YAML, a record of every message received) |
//! | `push` | yes | [`push`]: push delivery ([`ServiceBuilder::push`]): the worker, its HTTPS client (rustls, ring), the SSRF guard, signed deliveries and their JWKS |
//! | `tls` | no | `serve` terminating TLS ([`ServeConfig::with_tls`], the [`tls`] module: the certificate from PEM or a rustls `ServerConfig`, ALPN for HTTP/2 and HTTP/1.1, client certificates required or optional against a CA, the verified chain in each request's extensions) and the mutual-TLS principal ([`auth::mtls::MtlsAuthenticator`]); tokio-rustls with ring |
//! | `store-conformance` | no | [`store::conformance`]: the behaviour every [`TaskStore`](store::TaskStore) must show, as async test functions and the `store_conformance_tests!` macro, for stores outside this crate |
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
pub mod auth;
mod binding;
mod error;
mod handler;
mod http;

#[cfg(feature = "mock")]
pub mod mock;
#[cfg(feature = "push")]
pub mod push;
#[cfg(feature = "serve")]
mod serve;
mod service;
#[cfg(feature = "signing")]
pub mod signing;
pub mod store;
#[cfg(feature = "tls")]
pub mod tls;

pub use agent::{
    Agent, AgentError, AgentEvent, BoxAgent, DynAgent, EventSink, RequestContext, SinkError,
    StatusMessage,
};
pub use auth::{
    AllOf, AnyOf, ApiKeyAuthenticator, ApiKeyLocation, AuthError, AuthFuture, AuthResult,
    Authenticator, OperationScopes, Principal, SecurityRequirements, SkillScopes,
};
pub use error::A2aError;
pub use handler::{
    CallContext, EventStream, HandlerBuilder, HandlerConfig, RequestHandler, StreamEvent,
};
pub use http::body::A2aBody;
pub use http::sse::StreamPermit;
#[cfg(feature = "serve")]
pub use serve::{ServeConfig, serve, serve_with_shutdown};
pub use service::{
    A2aService, AGENT_CARD_PATH, InterfaceUrl, LEGACY_AGENT_CARD_PATH, Limits, ServiceBuilder,
};
