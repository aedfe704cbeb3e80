//! SSE throughput: decoding 1000 events of ~200-byte JSON data in one chunk and in 4 KiB
//! chunks, encoding them, and as the floor a plain `memchr` line scan over the same bytes.
//!
//! Run with `cargo bench -p a2a-sse`; `cargo test --all-targets` runs each benchmark once.

use std::hint::black_box;
use std::sync::LazyLock;

use a2a_sse::{Decoder, Event, Frame};
use bytes::BytesMut;
use divan::Bencher;
use divan::counter::BytesCount;

fn main() {
    // Sanity: every event decodes, whatever the chunking.
    let data: usize = EVENT_LIST
        .iter()
        .map(|e| e.data().map_or(0, str::len))
        .sum();
    assert_eq!(decode_chunks(WIRE.chunks(WIRE.len())), data);
    assert_eq!(decode_chunks(WIRE.chunks(CHUNK)), data);
    divan::main();
}

const EVENTS: usize = 1000;
const CHUNK: usize = 4096;

/// 1000 events shaped like A2A streaming responses (~200 bytes of JSON each).
static EVENT_LIST: LazyLock<Vec<Event>> = LazyLock::new(|| {
    (0..EVENTS)
        .map(|i| {
            Event::new(format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{i},\"result\":{{\"kind\":\"status-update\",\
                 \"taskId\":\"3f1c2a9e-7b4d-4e21-9a5f-{i:012}\",\"contextId\":\"ctx-{i:06}\",\
                 \"status\":{{\"state\":\"working\",\"timestamp\":\"2025-06-01T12:00:00.000Z\"}},\
                 \"final\":false}}}}"
            ))
        })
        .collect()
});

/// The encoded stream of [`EVENT_LIST`].
static WIRE: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let mut buf = BytesMut::new();
    for event in EVENT_LIST.iter() {
        event.encode_to(&mut buf);
    }
    buf.to_vec()
});

fn decode_chunks(chunks: std::slice::Chunks<'_, u8>) -> usize {
    let mut decoder = Decoder::new();
    let mut bytes = 0;
    for chunk in chunks {
        for frame in decoder.decode(chunk) {
            if let Ok(Frame::Event(event)) = frame {
                bytes += event.data().map_or(0, str::len);
            }
        }
    }
    decoder.finish();
    bytes
}

#[divan::bench]
fn decode_one_chunk(bencher: Bencher<'_, '_>) {
    let wire: &[u8] = &WIRE;
    bencher
        .counter(BytesCount::new(wire.len()))
        .bench(|| decode_chunks(black_box(wire).chunks(wire.len())));
}

#[divan::bench]
fn decode_4k_chunks(bencher: Bencher<'_, '_>) {
    let wire: &[u8] = &WIRE;
    bencher
        .counter(BytesCount::new(wire.len()))
        .bench(|| decode_chunks(black_box(wire).chunks(CHUNK)));
}

#[divan::bench]
fn encode(bencher: Bencher<'_, '_>) {
    let events: &[Event] = &EVENT_LIST;
    let mut buf = BytesMut::with_capacity(WIRE.len());
    bencher
        .counter(BytesCount::new(WIRE.len()))
        .bench_local(|| {
            buf.clear();
            for event in black_box(events) {
                event.encode_to(&mut buf);
            }
            buf.len()
        });
}

/// The floor: find every line end (CR or LF, as the decoder must) and nothing else.
#[divan::bench]
fn baseline_memchr_line_scan(bencher: Bencher<'_, '_>) {
    let wire: &[u8] = &WIRE;
    bencher
        .counter(BytesCount::new(wire.len()))
        .bench(|| memchr::memchr2_iter(b'\r', b'\n', black_box(wire)).count());
}

/// A second floor: UTF-8 validation of the whole stream, which the decoder also does.
#[divan::bench]
fn baseline_utf8_validation(bencher: Bencher<'_, '_>) {
    let wire: &[u8] = &WIRE;
    bencher
        .counter(BytesCount::new(wire.len()))
        .bench(|| std::str::from_utf8(black_box(wire)).is_ok());
}
