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
//! | `axum` | the service under `/a2a` in an axum app, with the card at the root |
//! | `interop_agent` | the agent the Python and JS SDK interop suite drives (replies, chunks, cancel, failure) |
//! | `push` | an agent with signed push delivery and a webhook receiver in one program: the receiver verifies each delivery with `a2a_client::push` |
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `serve` | yes | [`serve`] and [`serve_with_shutdown`]: the hyper accept loop (HTTP/1.1 and HTTP/2) with graceful shutdown |
//! | `push` | yes | [`push`]: push delivery ([`ServiceBuilder::push`]): the worker, its HTTPS client (rustls, ring), the SSRF guard, signed deliveries and their JWKS |
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
mod auth;
mod binding;
mod error;
mod handler;
mod http;

#[cfg(feature = "push")]
pub mod push;
#[cfg(feature = "serve")]
mod serve;
mod service;
pub mod store;

pub use agent::{
    Agent, AgentError, AgentEvent, BoxAgent, DynAgent, EventSink, RequestContext, SinkError,
    StatusMessage,
};
pub use auth::{AuthError, Authenticator, Principal};
pub use error::A2aError;
pub use handler::{
    CallContext, EventStream, HandlerBuilder, HandlerConfig, RequestHandler, StreamEvent,
};
pub use http::body::A2aBody;
#[cfg(feature = "serve")]
pub use serve::{ServeConfig, serve, serve_with_shutdown};
pub use service::{A2aService, AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, Limits, ServiceBuilder};
