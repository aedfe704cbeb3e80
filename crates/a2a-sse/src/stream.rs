//! [`EventStream`]: a [`Decoder`] driven by an async byte stream.

use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use futures_core::{FusedStream, Stream};

use crate::decode::{Decoder, Frame};
use crate::error::StreamError;

pin_project_lite::pin_project! {
    /// A [`Stream`] of decoded [`Frame`]s over a stream of byte chunks.
    ///
    /// The source is any `Stream<Item = Result<B, E>>` whose chunks convert into [`Bytes`]
    /// (`Bytes`, `Vec<u8>`, `String`, `&'static [u8]`, ...); chunks are decoded in place, without
    /// copying, except for a line that spans chunks. With the `http-body` feature,
    /// [`EventStream::from_body`] decodes an `http_body::Body`.
    ///
    /// Items are `Ok(frame)` or a [`StreamError`]: a per-event decode error, after which decoding
    /// goes on, or an error of the source, after which the source is polled again. When the
    /// source ends, the decoder is [finished](Decoder::finish) (an incomplete last event is
    /// discarded) and the stream ends.
    ///
    /// ```
    /// use a2a_sse::{EventStream, Frame};
    /// use futures_util::StreamExt;
    ///
    /// let chunks = [&b"event: greet\ndata: hel"[..], b"lo\n\n"];
    /// let source = futures_util::stream::iter(chunks.map(Ok::<_, std::io::Error>));
    /// let mut events = EventStream::new(source);
    /// futures_executor::block_on(async {
    ///     let frame = events.next().await.unwrap()?;
    ///     let event = frame.as_event().unwrap();
    ///     assert_eq!((event.event(), event.data()), (Some("greet"), Some("hello")));
    ///     assert!(events.next().await.is_none());
    ///     Ok::<(), a2a_sse::StreamError<std::io::Error>>(())
    /// })?;
    /// # Ok::<(), a2a_sse::StreamError<std::io::Error>>(())
    /// ```
    #[derive(Debug)]
    pub struct EventStream<S> {
        #[pin]
        source: S,
        decoder: Decoder,
        chunk: Bytes,
        pos: usize,
        source_done: bool,
    }
}

impl<S> EventStream<S> {
    /// Decodes `source` with a default [`Decoder`].
    pub fn new(source: S) -> Self {
        Self::with_decoder(source, Decoder::new())
    }

    /// Decodes `source` with `decoder`: its limits and comment setting, and its last event ID
    /// (a decoder taken back with [`into_decoder`](EventStream::into_decoder) from the stream of
    /// an earlier connection carries it over).
    pub fn with_decoder(source: S, decoder: Decoder) -> Self {
        Self {
            source,
            decoder,
            chunk: Bytes::new(),
            pos: 0,
            source_done: false,
        }
    }

    /// The decoder, for [`last_event_id`](Decoder::last_event_id) and
    /// [`retry`](Decoder::retry).
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// The source stream.
    pub fn get_ref(&self) -> &S {
        &self.source
    }

    /// Takes the decoder back, [finished](Decoder::finish), for example to decode a
    /// reconnection's stream with the same last event ID.
    ///
    /// Bytes of the current chunk not decoded yet are dropped.
    pub fn into_decoder(self) -> Decoder {
        let mut decoder = self.decoder;
        decoder.finish();
        decoder
    }
}

impl<S, B, E> Stream for EventStream<S>
where
    S: Stream<Item = Result<B, E>>,
    B: Into<Bytes>,
{
    type Item = Result<Frame, StreamError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut this = self.project();
        loop {
            let mut rest = &this.chunk[*this.pos..];
            let item = this.decoder.next_frame(&mut rest);
            *this.pos = this.chunk.len() - rest.len();
            if let Some(item) = item {
                return Poll::Ready(Some(item.map_err(StreamError::Decode)));
            }
            if *this.source_done {
                return Poll::Ready(None);
            }
            match ready!(this.source.as_mut().poll_next(cx)) {
                Some(Ok(chunk)) => {
                    *this.chunk = chunk.into();
                    *this.pos = 0;
                }
                Some(Err(e)) => return Poll::Ready(Some(Err(StreamError::Source(e)))),
                None => {
                    *this.source_done = true;
                    *this.chunk = Bytes::new();
                    *this.pos = 0;
                    this.decoder.finish();
                }
            }
        }
    }
}

impl<S, B, E> FusedStream for EventStream<S>
where
    S: Stream<Item = Result<B, E>>,
    B: Into<Bytes>,
{
    fn is_terminated(&self) -> bool {
        self.source_done && !self.decoder.has_queued()
    }
}
