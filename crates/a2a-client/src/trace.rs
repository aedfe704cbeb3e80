//! W3C Trace Context on outgoing calls: inside [`scope`], every HTTP request the client sends
//! carries a `traceparent` (a new span of the scope's trace) and the scope's `tracestate`, so
//! that the agent called continues the caller's trace. An agent that calls another agent
//! scopes its calls with the trace of its own run (`RequestContext::trace` in a2a-server), and
//! the chain is one trace (`docs/tracing.md`).
//!
//! Each request sent inside a scope is also a `tracing` span, `a2a.send`, whose `span_id`
//! field is the span id of that request's `traceparent` (and `parent_span_id` the scope's):
//! a `tracing` layer that exports spans (a2a-otel) makes it the parent of the called agent's
//! `a2a.request` span.
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

/// The `a2a.send` span of one outgoing request: the trace and span ids of its `traceparent`
/// header and the scope's span id as its parent; disabled (no span) when the request carries
/// no valid `traceparent` (outside a [`scope`]).
pub(crate) fn send_span(
    call: &crate::interceptor::CallInfo,
    method: &http::Method,
    uri: &http::Uri,
    headers: &http::HeaderMap,
) -> tracing::Span {
    let sent = headers
        .get(a2a_types::protocol::headers::TRACEPARENT)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| TraceContext::parse(value, None));
    let Some(sent) = sent else {
        return tracing::Span::none();
    };
    tracing::info_span!(
        "a2a.send",
        a2a.method = call.method,
        http.request.method = %method,
        // Host, port and path only: a query or user info may hold a credential.
        server.address = uri.host().unwrap_or_default(),
        server.port = uri
            .port_u16()
            .unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 }),
        url.path = uri.path(),
        trace_id = %sent.trace_id_hex(),
        span_id = %sent.span_id_hex(),
        parent_span_id = current().map(|scope| scope.span_id_hex()).unwrap_or_default(),
    )
}
