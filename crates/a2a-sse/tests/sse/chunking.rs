//! Every chunking of an input decodes like the whole input at once.

use a2a_sse::Decoder;

use crate::run;

/// Inputs covering line ends, BOM, multi-byte characters, comments, `retry`, `id` rules,
/// unfinished events and every error kind.
const INPUTS: &[&[u8]] = &[
    b"data: hello\n\n",
    b"data: a\r\ndata: b\r\n\r\nid: 1\rdata: c\r\rdata: d\n\r\n\r",
    b"\xEF\xBB\xBFdata: bom\r\n\r\n\xEF\xBB\xBFdata: not a bom\n\n",
    b"\xEF\xBB\xBF\r\n\r\ndata: x\n\n",
    "event: ünïcödé\ndata: 日本語\ndata: 😀😀\nid: ✓\n\n: 💬 comment\ndata: é\n\n".as_bytes(),
    b": comment\n:\n:  spaced\ndata: x\n: inside\n\n",
    b"retry: 1000\ndata: a\n\nretry: x\nretry: 25\nretry:\nretry: -1\ndata: b\n\nretry: 99999999999999999999999\n\n",
    b"id: 1\ndata: a\n\nid: a\0b\ndata: b\n\nid\ndata: c\n\nid: 4\n\nid: 5\ndata: d\n\nid: 6",
    b"event: x\nevent:\ndata\n\nevent: y\n\ndata:\n\ndata\ndata\n\nfoo: bar\nnocolon\ndata: a: b\n\n",
    b"data: \xFF\n\ndata: ok\n\nevent: \xC3\x28\ndata: z\n\nid: \xE2\x82\ndata: y\n\ndata: \xF0\x9F\x98\n\n",
    b"data: 0123456789abcdef\n\ndata: short\n\n: a comment line that is too long\ndata: x\n\ndata: ok\n\n",
    b"data: 0123456789\ndata: 0123456789\ndata: 0123456789\n\nevent: 0123456789012\ndata: 1\n\ndata: fits\n\n",
    b"data: one\n\ndata: unfinished\ndata: event",
    b"data: ends in CR\r\n\r",
    b"\r\n\r\n\n\r\r",
];

/// Decoders to run each input with: defaults, comments, small caps.
fn decoders() -> [Decoder; 3] {
    [
        Decoder::new(),
        Decoder::new().with_comments(true),
        Decoder::new()
            .with_comments(true)
            .with_max_line_length(20)
            .with_max_event_size(24),
    ]
}

#[test]
fn every_split_in_two_gives_the_same_result() {
    for input in INPUTS {
        for decoder in decoders() {
            let whole = run(decoder.clone(), [*input]);
            for i in 0..=input.len() {
                let (a, b) = input.split_at(i);
                let split = run(decoder.clone(), [a, b]);
                assert_eq!(split, whole, "input {input:?} split at {i}");
            }
        }
    }
}

#[test]
fn every_split_in_three_gives_the_same_result() {
    for input in INPUTS.iter().filter(|input| input.len() <= 120) {
        for decoder in decoders() {
            let whole = run(decoder.clone(), [*input]);
            for i in 0..=input.len() {
                for j in i..=input.len() {
                    let split = run(decoder.clone(), [&input[..i], &input[i..j], &input[j..]]);
                    assert_eq!(split, whole, "input {input:?} split at {i} and {j}");
                }
            }
        }
    }
}

#[test]
fn byte_by_byte_gives_the_same_result() {
    for input in INPUTS {
        for decoder in decoders() {
            let whole = run(decoder.clone(), [*input]);
            let bytes = run(decoder.clone(), input.chunks(1));
            assert_eq!(bytes, whole, "input {input:?} byte by byte");
        }
    }
}

#[test]
fn the_inputs_exercise_what_they_claim() {
    use a2a_sse::DecodeErrorKind::{EventTooLarge, InvalidUtf8, LineTooLong};
    let small = &decoders()[2];
    let kinds: Vec<_> = INPUTS
        .iter()
        .flat_map(|input| run(small.clone(), [*input]).items)
        .filter_map(|item| item.err().map(|e| e.kind()))
        .collect();
    assert!(kinds.contains(&InvalidUtf8));
    assert!(kinds.contains(&LineTooLong { limit: 20 }));
    assert!(kinds.contains(&EventTooLarge { limit: 24 }));
    let unicode = run(Decoder::new(), [INPUTS[4]]);
    assert_eq!(unicode.items.len(), 2);
    assert!(unicode.items.iter().all(Result::is_ok));
    assert!(run(Decoder::new(), [INPUTS[12]]).discarded);
}
