//! Fuzzes the SSE decoder: arbitrary bytes in arbitrary chunks, under several configurations.
//!
//! Input layout: `[config, cut count, cut lengths..., stream bytes...]`.
//!
//! Checked, besides the absence of panics:
//! * any chunking, and dropping the `decode` iterator after one item, give the same items and
//!   end state as the stream in one chunk;
//! * decoded events respect the encoder's rules (no CR/LF in `id` and `event`, no NUL in `id`,
//!   no CR in `data`) and the configured size caps;
//! * error offsets lie inside the stream;
//! * re-encoding the decoded frames and decoding them again gives the same frames.

#![no_main]

use a2a_sse::{DecodeError, Decoder, Frame, encode_comment};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, PartialEq)]
struct Run {
    items: Vec<Result<Frame, DecodeError>>,
    last_event_id: Option<String>,
    retry: Option<std::time::Duration>,
    discarded: bool,
}

fn finish(mut decoder: Decoder, items: Vec<Result<Frame, DecodeError>>) -> Run {
    let discarded = decoder.finish();
    Run {
        items,
        last_event_id: decoder.last_event_id().map(str::to_owned),
        retry: decoder.retry(),
        discarded,
    }
}

fn run(mut decoder: Decoder, chunks: &[&[u8]]) -> Run {
    let mut items = Vec::new();
    for chunk in chunks {
        items.extend(decoder.decode(chunk));
    }
    finish(decoder, items)
}

/// Takes at most one item per `decode` call and drops the iterator: the rest is queued.
fn run_dropping(mut decoder: Decoder, chunks: &[&[u8]]) -> Run {
    let mut items = Vec::new();
    for chunk in chunks {
        items.extend(decoder.decode(chunk).next());
    }
    items.extend(decoder.decode(&[]));
    finish(decoder, items)
}

fuzz_target!(|input: &[u8]| {
    let Some((&config, rest)) = input.split_first() else {
        return;
    };
    let Some((&cuts, rest)) = rest.split_first() else {
        return;
    };
    let (cuts, stream) = rest.split_at(usize::from(cuts % 16).min(rest.len()));

    let comments = config & 1 != 0;
    let (max_line, max_event) = match (config >> 1) & 3 {
        0 => (
            a2a_sse::DEFAULT_MAX_LINE_LENGTH,
            a2a_sse::DEFAULT_MAX_EVENT_SIZE,
        ),
        1 => (16, 32),
        2 => (64, 24),
        _ => (1, 1),
    };
    let decoder = Decoder::new()
        .with_comments(comments)
        .with_max_line_length(max_line)
        .with_max_event_size(max_event);

    let mut chunks = Vec::new();
    let mut start = 0;
    for &len in cuts {
        let end = (start + usize::from(len)).min(stream.len());
        chunks.push(&stream[start..end]);
        start = end;
    }
    chunks.push(&stream[start..]);

    let whole = run(decoder.clone(), &[stream]);
    assert_eq!(run(decoder.clone(), &chunks), whole, "chunked");
    assert_eq!(
        run_dropping(decoder.clone(), &chunks),
        whole,
        "iterator dropped early"
    );

    let mut ok = true;
    for item in &whole.items {
        match item {
            Ok(Frame::Event(event)) => {
                let data = event.data().expect("decoded events have data");
                assert!(!data.contains('\r'));
                assert!(data.len() < max_event);
                let id = event.id().unwrap_or_default();
                assert!(!id.contains(['\r', '\n', '\0']));
                let event_type = event.event().unwrap_or("message");
                assert!(!event_type.is_empty() && !event_type.contains(['\r', '\n']));
                assert!(data.len() + event.event().map_or(0, str::len) < max_event);
                assert!(event.comment().is_none());
            }
            Ok(Frame::Comment(text)) => {
                assert!(comments);
                assert!(!text.contains(['\r', '\n']));
                assert!(text.len() < max_line);
            }
            Ok(_) => {}
            Err(e) => {
                ok = false;
                assert!(e.offset() < stream.len() as u64);
            }
        }
    }

    // Re-encode what was decoded: a conforming client reads the same frames from it.
    if ok {
        let mut wire = Vec::new();
        for item in &whole.items {
            match item {
                Ok(Frame::Event(event)) => {
                    let event = event.clone();
                    // The decoder only produces values the setters accept.
                    let rebuilt = a2a_sse::Event::new(event.data().unwrap_or_default());
                    let rebuilt = match event.id() {
                        Some(id) => rebuilt.with_id(id).expect("valid id"),
                        None => rebuilt,
                    };
                    let rebuilt = rebuilt
                        .with_event(event.event().unwrap_or_default())
                        .expect("valid event");
                    let rebuilt = match event.retry() {
                        Some(retry) => rebuilt.with_retry(retry),
                        None => rebuilt,
                    };
                    assert_eq!(rebuilt, event);
                    wire.extend_from_slice(&event.encode());
                }
                Ok(Frame::Comment(text)) => wire.extend_from_slice(&encode_comment(text)),
                _ => {}
            }
        }
        let again = run(Decoder::new().with_comments(comments), &[&wire]);
        assert!(!again.discarded);
        assert_eq!(again.items, whole.items, "re-encoded");
    }
});
