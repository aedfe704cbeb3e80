//! Decoding an [`http_body::Body`] (feature `http-body`).

use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::{Buf, Bytes};
use futures_core::Stream;
use http_body::Body;

use crate::stream::EventStream;

pin_project_lite::pin_project! {
    /// The data frames of an [`http_body::Body`] as a [`Stream`] of [`Bytes`]; trailers and
    /// empty data frames are skipped. Built by [`EventStream::from_body`].
    #[derive(Debug)]
    pub struct BodyData<B> {
        #[pin]
        body: B,
    }
}

impl<B> BodyData<B> {
    /// Wraps `body`.
    pub fn new(body: B) -> Self {
        Self { body }
    }

    /// The body.
    pub fn get_ref(&self) -> &B {
        &self.body
    }
}

impl<B: Body> Stream for BodyData<B> {
    type Item = Result<Bytes, B::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let mut body = self.project().body;
        loop {
            match ready!(body.as_mut().poll_frame(cx)) {
                Some(Ok(frame)) => {
                    if let Ok(mut data) = frame.into_data() {
                        let len = data.remaining();
                        if len > 0 {
                            // Free for `Bytes` bodies; other buffers are copied once.
                            return Poll::Ready(Some(Ok(data.copy_to_bytes(len))));
                        }
                    }
                }
                Some(Err(e)) => return Poll::Ready(Some(Err(e))),
                None => return Poll::Ready(None),
            }
        }
    }
}

impl<B: Body> EventStream<BodyData<B>> {
    /// Decodes an HTTP body, such as the body of a `text/event-stream` response, with a
    /// default [`Decoder`](crate::Decoder) (see [`EventStream::with_decoder`] and
    /// [`BodyData::new`] for another one). Body errors come as
    /// [`StreamError::Source`](crate::StreamError::Source).
    pub fn from_body(body: B) -> Self {
        Self::new(BodyData::new(body))
    }
}
