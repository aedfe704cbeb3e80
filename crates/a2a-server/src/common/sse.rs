//! The one SSE writer: a stream of events the binding framed ([`event`]) as
//! `text/event-stream`, keep-alive comments while idle, and one permit of the service's stream
//! limit held for the stream's life. It knows neither the handler nor any binding's wire.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use a2a_jsonrpc::A2aError;
use a2a_sse::KeepAlive;
use a2a_types::protocol::content_type;
use bytes::Bytes;
use futures_core::Stream;
use http::{HeaderValue, StatusCode, header};
use http_body::Frame;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::body::A2aBody;

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

/// One SSE event: `event: <name>` when it has one, `data: ` and what `data` writes (compact
/// JSON, which has no line breaks: serde_json escapes them inside strings, so the event is a
/// single `data:` line), `id: <id>` when it has one, and the blank line that ends it.
pub(crate) fn event(name: Option<&str>, id: Option<u64>, data: impl FnOnce(&mut Vec<u8>)) -> Bytes {
    use std::io::Write as _;
    let mut buf = Vec::with_capacity(512);
    if let Some(name) = name {
        buf.extend_from_slice(b"event: ");
        buf.extend_from_slice(name.as_bytes());
        buf.push(b'\n');
    }
    buf.extend_from_slice(b"data: ");
    data(&mut buf);
    buf.push(b'\n');
    if let Some(id) = id {
        writeln!(buf, "id: {id}").expect("writing to a Vec cannot fail");
    }
    buf.push(b'\n');
    Bytes::from(buf)
}

/// The SSE response of `events`, each made by [`event`]: `Ok` for an event, `Err` for the last
/// one (an error), after which the stream ends; keep-alive comments after `keep_alive` of
/// silence; `permit` held until the stream ends.
pub(crate) fn response<S>(
    events: S,
    permit: StreamPermit,
    keep_alive: Duration,
) -> http::Response<A2aBody>
where
    S: Stream<Item = Result<Bytes, Bytes>> + Send + 'static,
{
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + keep_alive, keep_alive);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    struct State<S> {
        events: std::pin::Pin<Box<S>>,
        ticker: tokio::time::Interval,
        interval: Duration,
        last_write: tokio::time::Instant,
        keep_alive: Bytes,
        done: bool,
        _permit: StreamPermit,
    }
    let state = State {
        events: Box::pin(events),
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
                next = st.events.next() => break match next? {
                    Ok(event) => {
                        st.last_write = tokio::time::Instant::now();
                        event
                    }
                    Err(last) => {
                        // An error ends the stream: nothing may follow it.
                        st.done = true;
                        last
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_end_with_their_id_and_a_blank_line() {
        let data = |out: &mut Vec<u8>| out.extend_from_slice(b"{}");
        assert_eq!(event(None, Some(12), data), "data: {}\nid: 12\n\n");
        assert_eq!(event(None, None, data), "data: {}\n\n");
        assert_eq!(
            event(Some("error"), None, data),
            "event: error\ndata: {}\n\n"
        );
    }
}
