//! The one SSE writer: a stream of task events as `text/event-stream`, each event's `data:`
//! framed by the binding, `id: <seq>` for resumption, keep-alive comments while idle, and one
//! permit of the service's stream limit held for the stream's life.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use a2a_jsonrpc::A2aError;
use a2a_sse::KeepAlive;
use a2a_types::protocol::content_type;
use a2a_types::v1::StreamResponse;
use bytes::Bytes;
use http::{HeaderValue, StatusCode, header};
use http_body::Frame;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::body::A2aBody;
use crate::handler::EventStream;

/// How a binding writes the JSON of one SSE `data:` line. Compact JSON has no line breaks
/// (serde_json escapes them inside strings), so each event is a single `data:` line.
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

/// The service's limit on open streams.
#[derive(Clone, Debug)]
pub(crate) struct StreamPermits {
    semaphore: Arc<Semaphore>,
    max: usize,
}

/// One open stream's place under the service's limit on open streams
/// ([`Limits::max_streams`](crate::Limits::max_streams)), held for the stream's life: see
/// [`A2aService::stream_permit`](crate::A2aService::stream_permit).
#[derive(Debug)]
pub struct StreamPermit(#[expect(dead_code, reason = "held, never read")] OwnedSemaphorePermit);

impl StreamPermits {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            semaphore: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// A permit, or the 503 error to answer with when `max` streams are open. Taken before the
    /// operation starts, so a refused stream starts no task.
    pub(crate) fn try_acquire(&self) -> Result<StreamPermit, A2aError> {
        self.semaphore
            .clone()
            .try_acquire_owned()
            .map(StreamPermit)
            .map_err(|_| {
                A2aError::internal(format!(
                    "too many open streams (the limit is {}); try again later",
                    self.max
                ))
                .with_http_status(503)
            })
    }
}

/// The SSE response for `stream`, framed by `framing`; keep-alive comments after `keep_alive`
/// of silence.
pub(crate) fn response(
    stream: EventStream,
    framing: impl Framing,
    permit: StreamPermit,
    keep_alive: Duration,
) -> http::Response<A2aBody> {
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + keep_alive, keep_alive);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    struct State<F> {
        stream: EventStream,
        framing: F,
        ticker: tokio::time::Interval,
        interval: Duration,
        last_write: tokio::time::Instant,
        keep_alive: Bytes,
        done: bool,
        _permit: StreamPermit,
    }
    let state = State {
        stream,
        framing,
        ticker,
        interval: keep_alive,
        last_write: tokio::time::Instant::now(),
        keep_alive: KeepAlive::new().frame(),
        done: false,
        _permit: permit,
    };
    let frames = futures_util::stream::unfold(state, |mut st| async move {
        use futures_util::StreamExt as _;
        if st.done {
            return None;
        }
        let bytes = loop {
            tokio::select! {
                biased;
                next = st.stream.next() => break match next {
                    None => return None,
                    Some(Ok(event)) => {
                        st.last_write = tokio::time::Instant::now();
                        let mut buf = Vec::with_capacity(512);
                        buf.extend_from_slice(b"data: ");
                        st.framing.event(&event.event, &mut buf);
                        end_event(&mut buf, event.seq);
                        Bytes::from(buf)
                    }
                    Some(Err(err)) => {
                        // An error ends the stream: nothing may follow it.
                        st.done = true;
                        let mut buf = Vec::with_capacity(256);
                        if let Some(name) = st.framing.error_event() {
                            buf.extend_from_slice(b"event: ");
                            buf.extend_from_slice(name.as_bytes());
                            buf.push(b'\n');
                        }
                        buf.extend_from_slice(b"data: ");
                        st.framing.error(&err, &mut buf);
                        end_event(&mut buf, None);
                        Bytes::from(buf)
                    }
                },
                _ = st.ticker.tick() => {
                    // The ticker runs on a fixed period and is never reset per event: a tick
                    // soon after an event is skipped, so the stream is quiet for at most
                    // two periods before a keep-alive.
                    if st.last_write.elapsed() >= st.interval {
                        st.last_write = tokio::time::Instant::now();
                        break st.keep_alive.clone();
                    }
                }
            }
        };
        Some((Ok::<_, Infallible>(Frame::data(bytes)), st))
    });
    let mut response = http::Response::new(A2aBody::stream(frames));
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type::EVENT_STREAM),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Ends the `data:` line, adds `id: <seq>` when the event has one, and the blank line.
fn end_event(buf: &mut Vec<u8>, seq: Option<u64>) {
    use std::io::Write as _;
    buf.push(b'\n');
    if let Some(seq) = seq {
        writeln!(buf, "id: {seq}").expect("writing to a Vec cannot fail");
    }
    buf.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_end_with_their_id_and_a_blank_line() {
        let mut buf = b"data: {}".to_vec();
        end_event(&mut buf, Some(12));
        assert_eq!(buf, b"data: {}\nid: 12\n\n");
        let mut buf = b"data: {}".to_vec();
        end_event(&mut buf, None);
        assert_eq!(buf, b"data: {}\n\n");
    }
}
