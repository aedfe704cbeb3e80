//! Serve A2A agents.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agent;
mod auth;
mod body;
mod error;
mod handler;
pub mod jsonrpc;
mod lifecycle;
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
pub use serve::{ShutdownConfig, serve, serve_with_shutdown};
pub use service::{A2aService, AGENT_CARD_PATH, LEGACY_AGENT_CARD_PATH, Limits, ServiceBuilder};
