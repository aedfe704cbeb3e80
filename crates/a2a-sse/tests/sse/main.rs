//! Integration tests of a2a-sse: the WHATWG decoding rules, every chunking of many inputs,
//! the encode/decode round trip (proptest) and the stream adapters.

mod chunking;
mod roundtrip;
mod rules;
mod stream;

use a2a_sse::{DecodeError, Decoder, Frame};

/// Everything a decoder run produces: the items, then the state after `finish`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) items: Vec<Result<Frame, DecodeError>>,
    pub(crate) last_event_id: Option<String>,
    pub(crate) retry: Option<std::time::Duration>,
    pub(crate) discarded: bool,
}

/// Decodes `chunks` one after another with `decoder`, then finishes.
pub(crate) fn run<'a>(mut decoder: Decoder, chunks: impl IntoIterator<Item = &'a [u8]>) -> Run {
    let mut items = Vec::new();
    for chunk in chunks {
        items.extend(decoder.decode(chunk));
    }
    let discarded = decoder.finish();
    Run {
        items,
        last_event_id: decoder.last_event_id().map(str::to_owned),
        retry: decoder.retry(),
        discarded,
    }
}

/// Decodes `input` in one chunk with a default decoder and returns the items.
pub(crate) fn items(input: &[u8]) -> Vec<Result<Frame, DecodeError>> {
    run(Decoder::new(), [input]).items
}

/// The dispatched events of `input` as `(event, data, id)`; panics on an error.
pub(crate) fn events(input: &[u8]) -> Vec<(Option<String>, String, Option<String>)> {
    items(input)
        .into_iter()
        .map(|item| {
            let event = item
                .expect("no decode error")
                .into_event()
                .expect("an event");
            (
                event.event().map(str::to_owned),
                event.data().expect("decoded events have data").to_owned(),
                event.id().map(str::to_owned),
            )
        })
        .collect()
}

#[test]
fn public_types_are_send_sync_and_static() {
    fn check<T: Send + Sync + 'static>() {}
    check::<a2a_sse::Event>();
    check::<Frame>();
    check::<Decoder>();
    check::<DecodeError>();
    check::<a2a_sse::InvalidFieldError>();
    check::<a2a_sse::KeepAlive>();
    check::<a2a_sse::StreamError<std::io::Error>>();
    check::<a2a_sse::EventStream<futures_util::stream::Empty<Result<bytes::Bytes, std::io::Error>>>>(
    );
    fn error<T: std::error::Error + Send + Sync + 'static>() {}
    error::<DecodeError>();
    error::<a2a_sse::InvalidFieldError>();
    error::<a2a_sse::StreamError<std::io::Error>>();
}
