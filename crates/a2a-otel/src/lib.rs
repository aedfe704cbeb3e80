//! OpenTelemetry for a2a-rs: its `tracing` spans (`a2a.request`, `a2a.call`, `a2a.agent`,
//! `a2a.send`) exported over OTLP/HTTP as spans of the traces their W3C `traceparent` headers
//! carry, so that a chain of agents (a client calls agent A, whose agent calls agent B) is one
//! trace in the collector (`docs/tracing.md`).
//!
//! This crate is the `opentelemetry` feature of a2a-rs: a2a-server and a2a-client depend on no
//! OpenTelemetry crate; they put the ids of each hop in their spans' fields (`trace_id`,
//! `span_id`, `parent_span_id`) and [`OtelLayer`] builds OpenTelemetry spans of those ids.
//! The `a2a` command line has it behind its `opentelemetry` feature (`a2a serve
//! --otlp-endpoint URL`).
//!
//! ```no_run
//! use tracing_subscriber::layer::SubscriberExt as _;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let otlp = a2a_otel::Otlp::start(&a2a_otel::OtlpConfig::new("http://127.0.0.1:4318", "my-agent"))?;
//! tracing::subscriber::set_global_default(tracing_subscriber::registry().with(otlp.layer()))?;
//! // ... serve agents, call agents ...
//! otlp.shutdown().await?; // exports what is left
//! # Ok(())
//! # }
//! ```
//!
//! Bounds: at most [`OtlpConfig::max_queue_size`] ended spans wait for export (2048 by
//! default; more are dropped), one export takes at most [`OtlpConfig::export_timeout`]
//! (10 s), and a collector's answer is read up to [`MAX_RESPONSE_BYTES`].
//!
//! Left out: HTTPS collectors (the exporter speaks plain HTTP: run a collector beside the
//! process), gRPC export, metrics and logs.

mod export;
mod layer;

use std::fmt;

pub use export::{
    DEFAULT_EXPORT_TIMEOUT, DEFAULT_MAX_EXPORT_BATCH_SIZE, DEFAULT_MAX_QUEUE_SIZE,
    DEFAULT_SCHEDULED_DELAY, ENDPOINT_ENV, MAX_RESPONSE_BYTES, Otlp, OtlpConfig,
};
pub use layer::{A2aIdGenerator, OtelLayer};

/// Why OTLP export could not start, flush or stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    fn new(message: String) -> Self {
        Self { message }
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
