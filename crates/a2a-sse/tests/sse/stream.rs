//! The `Stream` adapters.

use std::convert::Infallible;
use std::pin::pin;

use a2a_sse::{DecodeErrorKind, Decoder, Event, EventStream, Frame, StreamError};
use bytes::Bytes;
use futures_executor::block_on;
use futures_util::stream::{self, StreamExt};

fn collect<S: futures_core::Stream + Unpin>(s: S) -> Vec<S::Item> {
    block_on(s.collect())
}

#[test]
fn decodes_a_chunked_byte_stream() {
    let chunks: Vec<Result<Bytes, Infallible>> = [
        &b"data: a\r"[..],
        b"\ndata: b\r\n",
        b"\r\n: c\n",
        b"data: unfinished",
    ]
    .into_iter()
    .map(|c| Ok(Bytes::from_static(c)))
    .collect();
    let frames = collect(EventStream::new(stream::iter(chunks)));
    assert_eq!(frames.len(), 1);
    assert_eq!(
        frames[0].as_ref().unwrap(),
        &Frame::Event(Event::new("a\nb"))
    );
}

#[test]
fn accepts_vec_and_string_chunks_and_surfaces_comments() {
    let chunks = vec![
        Ok::<_, Infallible>(b": hi\n".to_vec()),
        Ok(b"data: x\n\n".to_vec()),
    ];
    let decoder = Decoder::new().with_comments(true);
    let frames = collect(EventStream::with_decoder(stream::iter(chunks), decoder));
    assert_eq!(
        frames.into_iter().map(Result::unwrap).collect::<Vec<_>>(),
        [
            Frame::Comment("hi".to_owned()),
            Frame::Event(Event::new("x"))
        ]
    );
    let chunks = vec![Ok::<_, Infallible>(String::from("data: s\n\n"))];
    assert_eq!(collect(EventStream::new(stream::iter(chunks))).len(), 1);
}

#[test]
fn source_and_decode_errors_are_items_and_decoding_goes_on() {
    let chunks = vec![
        Ok(Bytes::from_static(b"data: 1\n\ndata: \xFF\n\n")),
        Err("connection reset"),
        Ok(Bytes::from_static(b"data: 2\n\n")),
    ];
    let items = collect(EventStream::new(stream::iter(chunks)));
    assert_eq!(items.len(), 4);
    assert!(matches!(&items[0], Ok(Frame::Event(e)) if e.data() == Some("1")));
    match &items[1] {
        Err(StreamError::Decode(e)) => assert_eq!(e.kind(), DecodeErrorKind::InvalidUtf8),
        other => panic!("expected a decode error, got {other:?}"),
    }
    assert!(matches!(
        &items[2],
        Err(StreamError::Source("connection reset"))
    ));
    assert!(matches!(&items[3], Ok(Frame::Event(e)) if e.data() == Some("2")));
}

#[test]
fn stream_error_display_and_source() {
    use std::error::Error;
    let io = std::io::Error::other("boom");
    let err: StreamError<std::io::Error> = StreamError::Source(io);
    assert_eq!(err.to_string(), "the SSE byte source failed");
    assert_eq!(err.source().unwrap().to_string(), "boom");
    let mut decoder = Decoder::new();
    let decode = decoder.decode(b"data: \xFF\n").next().unwrap().unwrap_err();
    let err: StreamError<std::io::Error> = decode.clone().into();
    assert_eq!(err.to_string(), decode.to_string());
    assert!(err.source().is_none());
}

#[test]
fn works_with_unpin_free_sources_and_keeps_the_decoder_state() {
    // `unfold` over an async block is `!Unpin`: the adapter pin-projects it.
    let source = stream::unfold(0, |n| async move {
        (n < 3).then(|| {
            (
                Ok::<_, Infallible>(format!("id: {n}\ndata: {n}\n\n")),
                n + 1,
            )
        })
    });
    let mut events = pin!(EventStream::new(source));
    let mut seen = Vec::new();
    block_on(async {
        while let Some(item) = events.next().await {
            seen.push(
                item.unwrap()
                    .into_event()
                    .unwrap()
                    .data()
                    .unwrap()
                    .to_owned(),
            );
        }
    });
    assert_eq!(seen, ["0", "1", "2"]);
    assert_eq!(events.decoder().last_event_id(), Some("2"));
    assert!(futures_core::FusedStream::is_terminated(&*events));
}

#[test]
fn into_decoder_carries_the_last_event_id_to_a_reconnection() {
    let first = stream::iter([Ok::<_, Infallible>(&b"id: 41\ndata: a\n\ndata: cut"[..])]);
    let mut events = EventStream::new(first);
    assert_eq!(collect(&mut events).len(), 1);
    assert_eq!(
        futures_core::Stream::size_hint(events.get_ref()),
        (0, Some(0))
    );
    let decoder = events.into_decoder();
    assert_eq!(decoder.last_event_id(), Some("41"));
    let second = stream::iter([Ok::<_, Infallible>(&b"data: b\n\n"[..])]);
    let frames = collect(EventStream::with_decoder(second, decoder));
    assert_eq!(
        frames[0].as_ref().unwrap().as_event().unwrap().id(),
        Some("41")
    );
}

#[cfg(feature = "http-body")]
mod body {
    use std::collections::VecDeque;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use a2a_sse::{BodyData, Event, EventStream, Frame, StreamError};
    use bytes::Bytes;
    use http_body::Body;

    /// A body that returns a fixed list of frames, one per poll.
    struct TestBody(VecDeque<Result<http_body::Frame<Bytes>, &'static str>>);

    impl Body for TestBody {
        type Data = Bytes;
        type Error = &'static str;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
            Poll::Ready(self.0.pop_front())
        }
    }

    #[test]
    fn decodes_a_body_skipping_trailers_and_empty_frames() {
        let body = TestBody(VecDeque::from([
            Ok(http_body::Frame::data(Bytes::from_static(b"data: he"))),
            Ok(http_body::Frame::data(Bytes::new())),
            Ok(http_body::Frame::data(Bytes::from_static(b"llo\n\n"))),
            Err("reset"),
            Ok(http_body::Frame::trailers(http::HeaderMap::new())),
            Ok(http_body::Frame::data(Bytes::from_static(b"data: 2\n\n"))),
        ]));
        let items = super::collect(EventStream::from_body(body));
        assert_eq!(items.len(), 3);
        assert_eq!(
            items[0].as_ref().unwrap(),
            &Frame::Event(Event::new("hello"))
        );
        assert!(matches!(items[1], Err(StreamError::Source("reset"))));
        assert_eq!(items[2].as_ref().unwrap(), &Frame::Event(Event::new("2")));
        let data = BodyData::new(TestBody(VecDeque::new()));
        assert!(data.get_ref().0.is_empty());
    }
}
