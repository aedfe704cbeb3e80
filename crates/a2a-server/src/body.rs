//! [`A2aBody`]: the one response body type of the server.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
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
