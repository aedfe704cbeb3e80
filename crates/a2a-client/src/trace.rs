//! W3C Trace Context on outgoing calls: inside [`scope`], every HTTP request the client sends
//! carries a `traceparent` (a new span of the scope's trace) and the scope's `tracestate`, so
//! that the agent called continues the caller's trace. An agent that calls another agent
//! scopes its calls with the trace of its own run (`RequestContext::trace` in a2a-server), and
//! the chain is one trace (`docs/tracing.md`).
//!
//! ```
//! use a2a_types::trace::TraceContext;
//!
//! # async fn run() {
//! let ours = TraceContext::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", None).unwrap();
//! a2a_client::trace::scope(ours.clone(), async {
//!     let current = a2a_client::trace::current().unwrap();
//!     assert_eq!(current.trace_id(), ours.trace_id());
//!     // client.send_message(...).await: its requests carry `traceparent: 00-4bf9...-<new span>-01`.
//! })
//! .await;
//! assert!(a2a_client::trace::current().is_none());
//! # }
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(run());
//! ```

use std::future::Future;

use a2a_types::trace::TraceContext;

tokio::task_local! {
    static CURRENT: TraceContext;
}

/// Runs `future` with `trace` as the trace of every call the client makes in it.
pub async fn scope<F: Future>(trace: TraceContext, future: F) -> F::Output {
    CURRENT.scope(trace, future).await
}

/// The trace of the enclosing [`scope`], if any.
pub fn current() -> Option<TraceContext> {
    CURRENT.try_with(Clone::clone).ok()
}

/// The `traceparent` and `tracestate` values of one outgoing request: a new span in the
/// scope's trace.
pub(crate) fn outgoing() -> Option<(String, Option<String>)> {
    let span = current()?.child();
    Some((span.traceparent(), span.tracestate().map(str::to_owned)))
}
