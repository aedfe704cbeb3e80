//! Property: encode, cut into random chunks, decode: the events come back.

use std::time::Duration;

use a2a_sse::{Decoder, Event, Frame};
use bytes::BytesMut;
use proptest::prelude::*;

/// Text rich in the characters that matter to the format.
fn text() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        4 => any::<char>(),
        2 => Just('\n'),
        2 => Just('\r'),
        1 => Just(' '),
        1 => Just(':'),
        1 => Just('\0'),
        1 => Just('\u{feff}'),
        1 => Just('é'),
    ];
    proptest::collection::vec(ch, 0..24).prop_map(|chars| chars.into_iter().collect())
}

/// Text without CR and LF (and NUL for `id`), as the setters require.
fn field(nul: bool) -> impl Strategy<Value = String> {
    text().prop_map(move |s| {
        s.chars()
            .filter(|c| !matches!(c, '\r' | '\n') && (nul || *c != '\0'))
            .collect()
    })
}

fn event() -> impl Strategy<Value = Event> {
    (
        proptest::option::of(text()),
        proptest::option::of(field(false)),
        proptest::option::of(field(true)),
        proptest::option::of(any::<u64>()),
        proptest::option::of(text()),
    )
        .prop_map(|(data, id, event_type, retry, comment)| {
            let mut event = Event::default();
            if let Some(data) = data {
                event = event.with_data(data);
            }
            if let Some(id) = id {
                event = event.with_id(id).expect("no CR, LF or NUL");
            }
            if let Some(event_type) = event_type {
                event = event.with_event(event_type).expect("no CR or LF");
            }
            if let Some(retry) = retry {
                event = event.with_retry(Duration::from_millis(retry));
            }
            if let Some(comment) = comment {
                event = event.with_comment(comment);
            }
            event
        })
}

/// LF, CR and CRLF all become LF.
fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// What a WHATWG client makes of `events`: the frames and the final last event ID and retry.
fn model(events: &[Event]) -> (Vec<Frame>, Option<String>, Option<Duration>) {
    let mut frames = Vec::new();
    let mut last_id = None;
    let mut last_retry = None;
    for event in events {
        if let Some(comment) = event.comment() {
            frames.extend(
                normalize(comment)
                    .split('\n')
                    .map(|line| Frame::Comment(line.to_owned())),
            );
        }
        if let Some(id) = event.id() {
            last_id = Some(id.to_owned());
        }
        if event.retry().is_some() {
            last_retry = event.retry();
        }
        if let Some(data) = event.data() {
            let mut expected = Event::new(normalize(data));
            if let Some(id) = &last_id {
                expected = expected.with_id(id.clone()).unwrap();
            }
            if let Some(event_type) = event.event() {
                expected = expected.with_event(event_type).unwrap();
            }
            if let Some(retry) = event.retry() {
                expected = expected.with_retry(retry);
            }
            frames.push(Frame::Event(expected));
        }
    }
    (frames, last_id, last_retry)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn encode_chunk_decode_round_trips(
        events in proptest::collection::vec(event(), 0..8),
        bom in any::<bool>(),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let mut wire = BytesMut::new();
        if bom {
            wire.extend_from_slice(b"\xEF\xBB\xBF");
        }
        for event in &events {
            event.encode_to(&mut wire);
        }
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(wire.len() + 1)).collect();
        cuts.sort_unstable();

        let mut decoder = Decoder::new().with_comments(true);
        let mut frames = Vec::new();
        let mut start = 0;
        for end in cuts.into_iter().chain([wire.len()]) {
            for item in decoder.decode(&wire[start..end]) {
                frames.push(item.expect("encoded events decode without error"));
            }
            start = end;
        }
        // Every frame is complete (a BOM alone is an unfinished line).
        prop_assert_eq!(decoder.finish(), bom && events.is_empty());

        let (expected, last_id, retry) = model(&events);
        prop_assert_eq!(frames, expected);
        prop_assert_eq!(decoder.last_event_id(), last_id.as_deref());
        prop_assert_eq!(decoder.retry(), retry);
    }

    #[test]
    fn arbitrary_bytes_decode_the_same_in_any_chunking(
        input in proptest::collection::vec(
            prop_oneof![
                4 => any::<u8>(),
                2 => prop::sample::select(b"\r\n: datidevntry".to_vec()),
            ],
            0..200,
        ),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let decoder = Decoder::new().with_comments(true).with_max_line_length(24).with_max_event_size(32);
        let whole = crate::run(decoder.clone(), [&input[..]]);
        let mut cuts: Vec<usize> = cuts.iter().map(|i| i.index(input.len() + 1)).collect();
        cuts.sort_unstable();
        let mut chunks = Vec::new();
        let mut start = 0;
        for end in cuts.into_iter().chain([input.len()]) {
            chunks.push(&input[start..end]);
            start = end;
        }
        prop_assert_eq!(crate::run(decoder, chunks), whole);
    }
}
