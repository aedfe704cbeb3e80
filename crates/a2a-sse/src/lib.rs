//! Server-Sent Events (SSE): an encoder and an incremental decoder.
//!
//! The framing of the `text/event-stream` format as the WHATWG HTML standard defines it, and
//! nothing else: no HTTP, no A2A knowledge, no runtime. The Agent2Agent crates of this workspace
//! stream their JSON-RPC responses with it, but it stands alone.
//!
//! * **Encoding**: build an [`Event`] (its `id` and `event` setters refuse line breaks with an
//!   [`InvalidFieldError`], so encoding never fails) and write it with [`Event::encode`] or
//!   [`Event::encode_to`]; multi-line data becomes several `data:` lines. [`KeepAlive`] and
//!   [`encode_comment`] make comment frames. Output lines end with LF.
//! * **Decoding**: a [`Decoder`] takes the bytes in chunks cut anywhere and returns [`Frame`]s
//!   (events, and comments if asked for), following the WHATWG "event stream interpretation"
//!   to the letter, with a cap on event and line size and per-event errors ([`DecodeError`]).
//! * **Streams**: [`EventStream`] decodes any `Stream` of byte chunks, or with the `http-body`
//!   feature an `http_body::Body`, into a `futures_core::Stream` of frames.
//!
//! # Example
//!
//! ```
//! use a2a_sse::{Decoder, Event, Frame, KeepAlive};
//! use bytes::BytesMut;
//!
//! // A server writes two events and a keep-alive.
//! let mut wire = BytesMut::new();
//! Event::new("{\"state\":\"working\"}")
//!     .with_event("status")?
//!     .with_id("1")?
//!     .encode_to(&mut wire);
//! wire.extend_from_slice(&KeepAlive::new().frame());
//! Event::new("line one\nline two").with_id("2")?.encode_to(&mut wire);
//! assert_eq!(
//!     &wire[..],
//!     b"event: status\ndata: {\"state\":\"working\"}\nid: 1\n\n\
//!       : keep-alive\n\n\
//!       data: line one\ndata: line two\nid: 2\n\n"
//! );
//!
//! // A client decodes them, here from chunks of 5 bytes.
//! let mut decoder = Decoder::new();
//! let mut events = Vec::new();
//! for chunk in wire.chunks(5) {
//!     for frame in decoder.decode(chunk) {
//!         if let Frame::Event(event) = frame? {
//!             events.push(event);
//!         }
//!     }
//! }
//! decoder.finish();
//! assert_eq!(events.len(), 2);
//! assert_eq!(events[0].event_type(), "status");
//! assert_eq!(events[0].data(), Some("{\"state\":\"working\"}"));
//! assert_eq!(events[1].event_type(), "message");
//! assert_eq!(events[1].data(), Some("line one\nline two"));
//! assert_eq!(decoder.last_event_id(), Some("2"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! | Feature     | Default | Adds                                                                    |
//! |-------------|---------|-------------------------------------------------------------------------|
//! | `http-body` | no      | `EventStream::from_body` and `BodyData`: decode an `http_body::Body` 1.x |
//!
//! # Fuzzing
//!
//! The decoder's `cargo fuzz` target is `sse_decode` in the workspace's `fuzz/` crate; from
//! `fuzz/`, run `RUSTC_BOOTSTRAP=1 cargo fuzz run -O sse_decode` (see `docs/fuzzing.md`).
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "http-body")]
mod body;
mod decode;
mod error;
mod event;
mod stream;

#[cfg(feature = "http-body")]
pub use body::BodyData;
pub use decode::{DEFAULT_MAX_EVENT_SIZE, DEFAULT_MAX_LINE_LENGTH, Decoder, Frame, Frames};
pub use error::{DecodeError, DecodeErrorKind, InvalidFieldError, StreamError};
pub use event::{
    DEFAULT_EVENT_TYPE, DEFAULT_KEEP_ALIVE_TEXT, Event, KeepAlive, encode_comment,
    encode_comment_to,
};
pub use stream::EventStream;
