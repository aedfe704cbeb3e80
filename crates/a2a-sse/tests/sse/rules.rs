//! The WHATWG "event stream interpretation" rules, one by one.

use std::time::Duration;

use a2a_sse::{DecodeErrorKind, Decoder, Event, Frame};
use pretty_assertions::assert_eq;

use crate::{events, items, run};

fn ev(
    event: Option<&str>,
    data: &str,
    id: Option<&str>,
) -> (Option<String>, String, Option<String>) {
    (
        event.map(str::to_owned),
        data.to_owned(),
        id.map(str::to_owned),
    )
}

#[test]
fn data_lines_are_joined_with_lf_and_one_trailing_lf_is_removed() {
    assert_eq!(events(b"data: a\ndata: b\n\n"), [ev(None, "a\nb", None)]);
    assert_eq!(events(b"data\ndata\n\n"), [ev(None, "\n", None)]);
    assert_eq!(events(b"data:\n\n"), [ev(None, "", None)]);
    assert_eq!(events(b"data: a\ndata:\n\n"), [ev(None, "a\n", None)]);
}

#[test]
fn a_line_without_colon_is_a_field_with_empty_value() {
    assert_eq!(events(b"data\n\n"), [ev(None, "", None)]);
    assert_eq!(events(b"event\ndata\n\n"), [ev(None, "", None)]);
}

#[test]
fn value_splits_at_first_colon_and_loses_one_leading_space() {
    assert_eq!(events(b"data:x\n\n"), [ev(None, "x", None)]);
    assert_eq!(events(b"data: x\n\n"), [ev(None, "x", None)]);
    assert_eq!(events(b"data:  x \n\n"), [ev(None, " x ", None)]);
    assert_eq!(events(b"data: a: b:c\n\n"), [ev(None, "a: b:c", None)]);
    assert_eq!(events(b"data:\tx\n\n"), [ev(None, "\tx", None)]);
}

#[test]
fn field_names_are_exact_and_case_sensitive() {
    assert_eq!(events(b"Data: x\n\n"), []);
    assert_eq!(events(b"data : x\n\n"), []);
    assert_eq!(events(b" data: x\n\n"), []);
    assert_eq!(events(b"foo: bar\ndata: x\nbaz\n\n"), [ev(None, "x", None)]);
}

#[test]
fn empty_data_buffer_dispatches_nothing() {
    assert_eq!(events(b"\n\n\n"), []);
    assert_eq!(events(b"event: a\n\n"), []);
    assert_eq!(events(b"id: 1\nretry: 5\n\n"), []);
}

#[test]
fn event_sets_the_type_and_resets_after_each_block() {
    assert_eq!(
        events(b"event: a\ndata: 1\n\ndata: 2\n\nevent: b\n\ndata: 3\n\n"),
        [
            ev(Some("a"), "1", None),
            ev(None, "2", None),
            ev(None, "3", None)
        ]
    );
    assert_eq!(
        events(b"event: a\nevent: b\ndata\n\n"),
        [ev(Some("b"), "", None)]
    );
    // An empty type is the default type.
    assert_eq!(events(b"event: a\nevent:\ndata\n\n"), [ev(None, "", None)]);
    // "message" given explicitly is kept as given.
    assert_eq!(
        events(b"event: message\ndata\n\n"),
        [ev(Some("message"), "", None)]
    );
    let event = items(b"data\n\n").remove(0).unwrap().into_event().unwrap();
    assert_eq!(event.event_type(), "message");
}

#[test]
fn id_persists_until_changed_and_empty_id_resets() {
    assert_eq!(
        events(b"id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 2\ndata: d\n\n"),
        [
            ev(None, "a", Some("1")),
            ev(None, "b", Some("1")),
            ev(None, "c", Some("")),
            ev(None, "d", Some("2")),
        ]
    );
}

#[test]
fn id_without_data_still_updates_the_last_event_id() {
    let out = run(Decoder::new(), [&b"id: 7\n\ndata: x\n\nid: 8\n\n"[..]]);
    assert_eq!(out.items.len(), 1);
    let event = out.items[0].clone().unwrap().into_event().unwrap();
    assert_eq!(event.id(), Some("7"));
    assert_eq!(out.last_event_id.as_deref(), Some("8"));
}

#[test]
fn id_with_nul_is_ignored() {
    let out = run(Decoder::new(), [&b"id: 1\n\nid: a\0b\ndata: x\n\n"[..]]);
    assert_eq!(out.last_event_id.as_deref(), Some("1"));
    assert_eq!(
        events(b"id: 1\n\nid: a\0b\ndata: x\n\n"),
        [ev(None, "x", Some("1"))]
    );
    // NUL elsewhere is data like any other character.
    assert_eq!(events(b"data: a\0b\n\n"), [ev(None, "a\0b", None)]);
}

#[test]
fn id_is_applied_even_when_it_comes_after_the_data() {
    assert_eq!(events(b"data: x\nid: 3\n\n"), [ev(None, "x", Some("3"))]);
}

#[test]
fn retry_only_if_all_ascii_digits() {
    let retry = |input: &[u8]| run(Decoder::new(), [input]).retry;
    assert_eq!(retry(b"retry: 1500\n"), Some(Duration::from_millis(1500)));
    assert_eq!(retry(b"retry:0\n"), Some(Duration::ZERO));
    assert_eq!(retry(b"retry: 007\n"), Some(Duration::from_millis(7)));
    assert_eq!(retry(b"retry: 10a\n"), None);
    assert_eq!(retry(b"retry: -1\n"), None);
    assert_eq!(retry(b"retry: 1.5\n"), None);
    assert_eq!(retry(b"retry:  5\n"), None);
    assert_eq!(retry(b"retry: 5 \n"), None);
    assert_eq!(retry(b"retry:\n"), None);
    assert_eq!(retry(b"retry\n"), None);
    assert_eq!(retry("retry: \u{661}\n".as_bytes()), None); // Arabic-Indic digit one
    assert_eq!(
        retry(b"retry: 99999999999999999999999999\n"),
        Some(Duration::from_millis(u64::MAX))
    );
    // A later invalid value leaves the earlier one.
    assert_eq!(
        retry(b"retry: 5\nretry: x\n"),
        Some(Duration::from_millis(5))
    );
}

#[test]
fn retry_is_reported_on_the_event_of_its_block() {
    let out = items(b"retry: 10\ndata: a\n\ndata: b\n\n");
    let retries: Vec<_> = out
        .into_iter()
        .map(|item| item.unwrap().into_event().unwrap().retry())
        .collect();
    assert_eq!(retries, [Some(Duration::from_millis(10)), None]);
}

#[test]
fn comments_are_skipped_unless_asked_for() {
    let input = b": hello\ndata: x\n:\n:  two spaces\n\n";
    assert_eq!(events(input), [ev(None, "x", None)]);
    let out = run(Decoder::new().with_comments(true), [&input[..]]).items;
    assert_eq!(
        out,
        [
            Ok(Frame::Comment("hello".to_owned())),
            Ok(Frame::Comment(String::new())),
            Ok(Frame::Comment(" two spaces".to_owned())),
            Ok(Frame::Event(Event::new("x"))),
        ]
    );
    assert_eq!(out[0].as_ref().unwrap().as_comment(), Some("hello"));
    assert_eq!(out[0].as_ref().unwrap().as_event(), None);
    assert_eq!(out[3].as_ref().unwrap().as_comment(), None);
}

#[test]
fn line_ends_lf_cr_crlf() {
    let expected = [ev(Some("t"), "a\nb\nc", None), ev(None, "d", None)];
    assert_eq!(
        events(b"event: t\ndata: a\ndata: b\ndata: c\n\ndata: d\n\n"),
        expected
    );
    assert_eq!(
        events(b"event: t\rdata: a\rdata: b\rdata: c\r\rdata: d\r\r"),
        expected
    );
    assert_eq!(
        events(b"event: t\r\ndata: a\r\ndata: b\r\ndata: c\r\n\r\ndata: d\r\n\r\n"),
        expected
    );
    assert_eq!(
        events(b"event: t\r\ndata: a\rdata: b\ndata: c\n\r\ndata: d\r\r\n"),
        expected
    );
    // "\n\r" is two line ends, so it ends the event.
    assert_eq!(
        events(b"data: a\n\rdata: b\n\n"),
        [ev(None, "a", None), ev(None, "b", None)]
    );
}

#[test]
fn bom_is_skipped_only_at_stream_start() {
    assert_eq!(events(b"\xEF\xBB\xBFdata: x\n\n"), [ev(None, "x", None)]);
    // A second BOM is part of the field name, which is then unknown.
    assert_eq!(events(b"\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\n"), []);
    assert_eq!(events(b"\n\xEF\xBB\xBFdata: x\n\n"), []);
    assert_eq!(
        events(b"data: x\n\n\xEF\xBB\xBFdata: y\n\n"),
        [ev(None, "x", None)]
    );
    // A BOM alone on the first line leaves an empty line: a blank line.
    assert_eq!(events(b"\xEF\xBB\xBF\ndata: x\n\n"), [ev(None, "x", None)]);
}

#[test]
fn multibyte_utf8_is_kept() {
    assert_eq!(
        events("event: ünï\ndata: 日本語 😀\nid: ✓\n\n".as_bytes()),
        [ev(Some("ünï"), "日本語 😀", Some("✓"))]
    );
}

#[test]
fn incomplete_event_at_end_of_stream_is_discarded() {
    let out = run(Decoder::new(), [&b"data: a\n\ndata: b\n"[..]]);
    assert_eq!(out.items.len(), 1);
    assert!(out.discarded);
    // An unfinished last line is not interpreted at all, not even an `id`.
    let out = run(Decoder::new(), [&b"data: a\n\nid: 5"[..]]);
    assert_eq!(
        (out.items.len(), out.last_event_id, out.discarded),
        (1, None, true)
    );
    // Nor is a complete `id` line of an unfinished event: only a blank line commits it.
    let out = run(Decoder::new(), [&b"id: 4\n\nid: 5\n"[..]]);
    assert_eq!(
        (out.last_event_id.as_deref(), out.discarded),
        (Some("4"), true)
    );
    // `retry` takes effect at once, though.
    let out = run(Decoder::new(), [&b"retry: 9\n"[..]]);
    assert_eq!(
        (out.retry, out.discarded),
        (Some(Duration::from_millis(9)), true)
    );
    let out = run(Decoder::new(), [&b"data: a\n\n"[..]]);
    assert!(!out.discarded);
    // Comments and line-end residue are not an unfinished event.
    let out = run(Decoder::new(), [&b"data: a\r\n\r\n: ping\n"[..]]);
    assert!(!out.discarded);
}

#[test]
fn finish_prepares_for_the_next_stream_and_keeps_id_and_retry() {
    let mut decoder = Decoder::new();
    assert_eq!(
        decoder
            .decode(b"id: 1\n\nretry: 100\nid: 2\ndata: a")
            .count(),
        0
    );
    assert!(decoder.finish());
    assert!(!decoder.finish());
    assert_eq!(decoder.last_event_id(), Some("1"));
    let next: Vec<_> = decoder.decode(b"\xEF\xBB\xBFdata: b\n\n").collect();
    let event = next[0].clone().unwrap().into_event().unwrap();
    // The uncommitted `id: 2` of the cut-off event is gone; the committed one stays.
    assert_eq!((event.data(), event.id()), (Some("b"), Some("1")));
    assert_eq!(decoder.retry(), Some(Duration::from_millis(100)));
    // A CR at the end of the old stream does not swallow an LF starting the new one.
    let mut decoder = Decoder::new();
    assert_eq!(decoder.decode(b"data: a\r").count(), 0);
    decoder.finish();
    assert_eq!(decoder.decode(b"\ndata: b\n\n").count(), 1);
}

#[test]
fn invalid_utf8_is_a_per_event_error() {
    let out = items(b"data: a\n\ndata: \xFF\ndata: more\n\ndata: c\n\n");
    assert_eq!(out.len(), 3);
    let err = out[1].clone().unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidUtf8);
    assert_eq!(err.offset(), 9);
    assert_eq!(
        err.to_string(),
        "invalid UTF-8 in the SSE line starting at byte 9; the event was skipped"
    );
    assert_eq!(
        out[2].clone().unwrap().into_event().unwrap().data(),
        Some("c")
    );
    // A truncated multi-byte character.
    assert!(items(b"data: \xC3\n\n")[0].is_err());
}

#[test]
fn invalid_utf8_in_event_and_id_is_an_error_and_skips_the_event() {
    for input in [
        &b"event: \xC3\x28\ndata: x\n\n"[..],
        b"data: x\nid: \xFF\n\n",
    ] {
        let out = run(Decoder::new(), [input]);
        assert_eq!(out.items.len(), 1, "{input:?}");
        assert_eq!(
            out.items[0].clone().unwrap_err().kind(),
            DecodeErrorKind::InvalidUtf8
        );
        assert_eq!(out.last_event_id, None);
    }
}

#[test]
fn invalid_utf8_in_ignored_lines_is_not_checked() {
    assert_eq!(
        events(b"x\xFF: y\nfoo: \xFF\nretry: \xFF\nid: \0\xFF\n: \xFF\ndata: ok\n\n"),
        [ev(None, "ok", None)]
    );
    // Surfaced comments are checked.
    let out = run(
        Decoder::new().with_comments(true),
        [&b": \xFF\ndata: x\n\n"[..]],
    )
    .items;
    assert_eq!(out.len(), 1);
    assert_eq!(
        out[0].clone().unwrap_err().kind(),
        DecodeErrorKind::InvalidUtf8
    );
}

#[test]
fn an_error_skips_the_rest_of_the_event_and_is_reported_once() {
    let decoder = Decoder::new().with_comments(true);
    let out = run(
        decoder,
        [&b"id: 1\n\nid: 8\ndata: a\ndata: \xFF\ndata: \xFE\n: c\nid: 9\nevent: e\n\ndata: b\n\n"[..]],
    );
    assert_eq!(out.items.len(), 2);
    assert!(out.items[0].is_err());
    let event = out.items[1].clone().unwrap().into_event().unwrap();
    assert_eq!(
        (event.data(), event.event(), event.id()),
        (Some("b"), None, Some("1"))
    );
    // Neither the `id` before the error nor the one after it counts.
    assert_eq!(out.last_event_id.as_deref(), Some("1"));
}

#[test]
fn event_size_cap() {
    let decoder = || Decoder::new().with_max_event_size(10);
    // 9 bytes of data plus one LF: exactly at the cap.
    let out = run(decoder(), [&b"data: 123456789\n\n"[..]]);
    assert_eq!(out.items, [Ok(Frame::Event(Event::new("123456789")))]);
    let out = run(decoder(), [&b"data: 1234\ndata: 6789\n\n"[..]]);
    assert_eq!(out.items, [Ok(Frame::Event(Event::new("1234\n6789")))]);
    // One more byte is too many.
    let out = run(
        decoder(),
        [&b"data: 1\n\ndata: 12345\ndata: 67890\ndata: more\n\ndata: ok\n\n"[..]],
    );
    assert_eq!(out.items.len(), 3);
    let err = out.items[1].clone().unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::EventTooLarge { limit: 10 });
    assert_eq!(err.offset(), 21);
    assert_eq!(
        err.to_string(),
        "SSE event at byte 21 exceeds the limit of 10 bytes; the event was skipped"
    );
    assert_eq!(out.items[2], Ok(Frame::Event(Event::new("ok"))));
    // The event type counts too.
    let out = run(decoder(), [&b"event: 123456\ndata: 1234\n\n"[..]]);
    assert_eq!(
        out.items[0].clone().unwrap_err().kind(),
        DecodeErrorKind::EventTooLarge { limit: 10 }
    );
    let out = run(decoder(), [&b"data: 1234\nevent: 1234567\n\n"[..]]);
    assert!(out.items[0].is_err());
}

#[test]
fn line_length_cap() {
    let decoder = || Decoder::new().with_max_line_length(8);
    let out = run(decoder(), [&b"data: 12\n\n"[..]]);
    assert_eq!(out.items, [Ok(Frame::Event(Event::new("12")))]);
    let out = run(decoder(), [&b"data: 123\ndata: 1\n\ndata: 2\n\n"[..]]);
    assert_eq!(out.items.len(), 2);
    let err = out.items[0].clone().unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::LineTooLong { limit: 8 });
    assert_eq!(err.offset(), 0);
    assert_eq!(
        err.to_string(),
        "SSE line starting at byte 0 exceeds the limit of 8 bytes; the event was skipped"
    );
    assert_eq!(out.items[1], Ok(Frame::Event(Event::new("2"))));
    // Comments and unknown fields are lines too.
    let out = run(decoder(), [&b": a long comment\ndata: 1\n\n"[..]]);
    assert_eq!(out.items.len(), 1);
    assert!(out.items[0].is_err());
}

#[test]
fn line_length_cap_applies_before_the_line_ends() {
    let mut decoder = Decoder::new().with_max_line_length(16);
    let mut out: Vec<_> = decoder.decode(b"data: ok\n\ndata: ").collect();
    assert_eq!(out.len(), 1);
    for _ in 0..1000 {
        out.extend(decoder.decode(&[b'x'; 1000]));
    }
    // Reported once, as soon as the line passed the cap, and nothing was buffered.
    assert_eq!(out.len(), 2);
    let err = out[1].clone().unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::LineTooLong { limit: 16 }, 10)
    );
    // The lines after it, up to the blank line, belong to the skipped event.
    out.extend(decoder.decode(b"x\ndata: skipped\n\ndata: next\n\n"));
    assert_eq!(out.len(), 3);
    assert_eq!(out[2], Ok(Frame::Event(Event::new("next"))));
}

#[test]
fn dropping_the_iterator_early_keeps_the_rest() {
    let mut decoder = Decoder::new();
    {
        let mut frames = decoder.decode(b"data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4");
        assert_eq!(frames.next(), Some(Ok(Frame::Event(Event::new("1")))));
    }
    let rest: Vec<_> = decoder.decode(b"\n\n").collect();
    assert_eq!(
        rest,
        [
            Ok(Frame::Event(Event::new("2"))),
            Ok(Frame::Event(Event::new("3"))),
            Ok(Frame::Event(Event::new("4"))),
        ]
    );
}

#[test]
fn next_frame_steps_through_the_input() {
    let mut decoder = Decoder::default();
    let mut input = &b"data: 1\n\n: c\ndata: 2\n\ndata: 3"[..];
    assert!(decoder.next_frame(&mut input).is_some());
    assert_eq!(input, b": c\ndata: 2\n\ndata: 3");
    assert!(decoder.next_frame(&mut input).is_some());
    assert_eq!(input, b"data: 3");
    assert_eq!(decoder.next_frame(&mut input), None);
    assert_eq!(input, b"");
    let mut end = &b"\n\n"[..];
    assert_eq!(
        decoder.next_frame(&mut end),
        Some(Ok(Frame::Event(Event::new("3"))))
    );
}

#[test]
fn decoded_events_re_encode_to_equivalent_frames() {
    let input = b"retry: 5\nevent: e\ndata: a\ndata: b\nid: 1\n\ndata: c\n\n";
    let first = items(input);
    let mut wire = Vec::new();
    for item in &first {
        wire.extend_from_slice(&item.clone().unwrap().into_event().unwrap().encode());
    }
    assert_eq!(
        wire,
        b"event: e\nretry: 5\ndata: a\ndata: b\nid: 1\n\ndata: c\nid: 1\n\n"
    );
    assert_eq!(items(&wire), first);
}
