//! Bodies: [`A2aBody`], the one response body type of the server, and reading a request body
//! within the size and time limits.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use std::time::Duration;

use a2a_jsonrpc::A2aError;
use bytes::{Buf as _, BufMut as _, Bytes, BytesMut};
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt as _;
use http_body_util::combinators::UnsyncBoxBody;

/// The body of every response the server writes: a complete JSON document, or an SSE stream.
///
/// It never fails (`Error = Infallible`): a failure inside a stream is written into the
/// stream as an event.
pub struct A2aBody(UnsyncBoxBody<Bytes, Infallible>);

impl std::fmt::Debug for A2aBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("A2aBody").finish_non_exhaustive()
    }
}

impl A2aBody {
    /// A body holding these bytes.
    pub fn full(bytes: impl Into<Bytes>) -> Self {
        Self(http_body_util::Full::new(bytes.into()).boxed_unsync())
    }

    /// An empty body.
    pub fn empty() -> Self {
        Self(http_body_util::Empty::new().boxed_unsync())
    }

    /// A streamed body.
    pub(crate) fn stream<S>(stream: S) -> Self
    where
        S: futures_core::Stream<Item = Result<Frame<Bytes>, Infallible>> + Send + 'static,
    {
        Self(http_body_util::StreamBody::new(stream).boxed_unsync())
    }
}

impl http_body::Body for A2aBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.get_mut().0).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.0.size_hint()
    }
}

/// The limits a request body is read within.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyLimits {
    /// The most bytes (413 beyond).
    pub(crate) max_bytes: usize,
    /// The longest the whole body may take to arrive (408 beyond).
    pub(crate) total: Duration,
    /// The longest the body may stall between two chunks (408 beyond).
    pub(crate) idle: Duration,
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Reads a whole request body, or says why it cannot be had: larger than the limit (413; a
/// declared `Content-Length` over it is refused before anything is read), too slow in total or
/// stalled between chunks (408; this also ends an `Expect: 100-continue` request whose body
/// never comes), or broken off (400).
pub(crate) async fn read_body<B>(
    head: &http::request::Parts,
    body: B,
    limits: BodyLimits,
) -> Result<Bytes, A2aError>
where
    B: http_body::Body,
    B::Error: Into<BoxError>,
{
    let too_large = || {
        A2aError::invalid_request(format!(
            "the request body is larger than the limit of {} bytes",
            limits.max_bytes
        ))
        .with_http_status(413)
    };
    let declared = head
        .headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.max_bytes as u64) {
        return Err(too_large());
    }
    let read = async {
        let mut body = std::pin::pin!(body);
        let mut buf = BytesMut::with_capacity(
            declared.map_or(0, |n| usize::try_from(n).unwrap_or(0).min(limits.max_bytes)),
        );
        loop {
            let frame = std::future::poll_fn(|cx| body.as_mut().poll_frame(cx));
            let Ok(frame) = tokio::time::timeout(limits.idle, frame).await else {
                return Err(A2aError::invalid_request(format!(
                    "the request body stalled: no data for {} ms",
                    limits.idle.as_millis()
                ))
                .with_http_status(408));
            };
            match frame {
                None => return Ok(buf.freeze()),
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        if buf.len() + data.remaining() > limits.max_bytes {
                            return Err(too_large());
                        }
                        buf.put(data);
                    }
                }
                Some(Err(err)) => {
                    let err: BoxError = err.into();
                    return Err(A2aError::parse_error(format!(
                        "the request body could not be read: {err}"
                    ))
                    .with_http_status(400));
                }
            }
        }
    };
    match tokio::time::timeout(limits.total, read).await {
        Ok(result) => result,
        Err(_) => Err(A2aError::invalid_request(format!(
            "the request body did not arrive within {} ms",
            limits.total.as_millis()
        ))
        .with_http_status(408)),
    }
}
