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
//!   -> A2aService            card, limits, authentication, A2A-Version, JSON-RPC envelope
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
//!
//! # Mounting
//!
//! [`A2aService`] is a `tower_service::Service<http::Request<B>>` with `Error = Infallible`:
//! mount it in axum with `nest_service` (see `examples/axum.rs`), serve it with hyper through
//! `hyper_util::service::TowerToHyperService`, or call [`serve`] / [`serve_with_shutdown`].
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `serve` | yes | [`serve`] and [`serve_with_shutdown`]: the hyper accept loop (HTTP/1.1 and HTTP/2) with graceful shutdown |
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
mod auth;
mod body;
mod error;
mod handler;
pub mod jsonrpc;

#[cfg(feature = "serve")]
mod serve;
mod service;
pub mod store;

pub use agent::{Agent, AgentError, AgentEvent, EventSink, RequestContext, SinkError};
pub use auth::{AuthError, Authenticator, Principal};
pub use body::A2aBody;
pub use error::A2aError;
pub use handler::{
    CallContext, EventStream, HandlerBuilder, HandlerConfig, RequestHandler, StreamEvent,
};
#[cfg(feature = "serve")]
pub use serve::{ServeConfig, serve, serve_with_shutdown};
pub use service::{A2aService, AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, Limits, ServiceBuilder};
