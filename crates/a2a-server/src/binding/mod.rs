//! The bindings: each turns HTTP requests into [`RequestHandler`](crate::handler::RequestHandler)
//! calls and their results back into HTTP, in its own wire shape. Nothing outside a binding
//! knows its wire.

pub(crate) mod jsonrpc;
pub(crate) mod rest;

use std::time::Duration;

use a2a_types::v1::StreamResponse;
use futures_util::StreamExt as _;

use crate::common::body::A2aBody;
use crate::common::sse::{self, StreamPermit};
use crate::error::A2aError;
use crate::handler::EventStream;

/// How a binding writes the JSON of one SSE `data:` line.
pub(crate) trait Framing: Send + 'static {
    /// Writes the JSON for one event.
    fn event(&self, event: &StreamResponse, out: &mut Vec<u8>);
    /// Writes the JSON for an error that ends the stream.
    fn error(&self, error: &A2aError, out: &mut Vec<u8>);
    /// The SSE `event:` type of that error event, if the binding names one (default: none, a
    /// plain `message` event).
    fn error_event(&self) -> Option<&'static str> {
        None
    }
}

/// The SSE response of a handler's event stream, each event framed by `framing` with its log
/// sequence number as its `id`; `permit` held for the stream's life.
pub(crate) fn sse_response(
    events: EventStream,
    framing: impl Framing,
    permit: StreamPermit,
    keep_alive: Duration,
) -> http::Response<A2aBody> {
    let frames = events.map(move |item| match item {
        Ok(logged) => Ok(sse::event(None, logged.seq, |out| {
            framing.event(&logged.event, out);
        })),
        Err(error) => Err(sse::event(framing.error_event(), None, |out| {
            framing.error(&error, out);
        })),
    });
    sse::response(frames, permit, keep_alive)
}
