//! The HTTP layer every binding shares: the call context read from a request head (the
//! protocol version it asks for among it), request bodies within their limits, plain
//! responses, and the one SSE writer (the binding frames each event). Nothing here knows a
//! binding's wire or the handler.

pub(crate) mod body;
pub(crate) mod head;
pub(crate) mod response;
pub(crate) mod sse;

use std::time::Duration;

/// What the HTTP bindings take from the service's [`Limits`](crate::Limits).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// The limits a request body is read within.
    pub(crate) body: body::BodyLimits,
    /// The limits on JSON-RPC batches.
    pub(crate) batch: a2a_jsonrpc::Limits,
    /// How long a unary call may take (504 beyond).
    pub(crate) request_timeout: Duration,
    /// The interval of SSE keep-alive comments.
    pub(crate) keep_alive: Duration,
}

impl Settings {
    /// The settings of these limits.
    pub(crate) fn of(limits: &crate::Limits) -> Self {
        Self {
            body: body::BodyLimits {
                max_bytes: limits.max_body_bytes,
                total: limits.body_read_timeout,
                idle: limits.body_idle_timeout,
            },
            batch: a2a_jsonrpc::Limits::default()
                .with_max_batch_len(limits.max_batch_len)
                .with_batch_concurrency(limits.batch_concurrency),
            request_timeout: limits.request_timeout,
            keep_alive: limits.keep_alive,
        }
    }
}
