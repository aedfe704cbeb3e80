//! The incremental decoder: bytes in any chunking to [`Frame`]s, per the WHATWG HTML
//! "event stream interpretation".

use std::collections::VecDeque;
use std::mem;
use std::time::Duration;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::event::Event;

/// The default of [`Decoder::with_max_event_size`]: 1 MiB.
pub const DEFAULT_MAX_EVENT_SIZE: usize = 1 << 20;

/// The default of [`Decoder::with_max_line_length`]: 1 MiB.
pub const DEFAULT_MAX_LINE_LENGTH: usize = 1 << 20;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One decoded item of an event stream.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Frame {
    /// A dispatched event (see [`Event`] for what its fields hold after decoding).
    Event(Event),
    /// The text of one comment line (a line starting with `:`), without the colon and without
    /// one leading space. Only returned by a decoder built
    /// [`with_comments(true)`](Decoder::with_comments).
    Comment(String),
}

impl Frame {
    /// The event, if this is one.
    #[must_use]
    pub fn as_event(&self) -> Option<&Event> {
        match self {
            Self::Event(event) => Some(event),
            Self::Comment(_) => None,
        }
    }

    /// The event, if this is one.
    #[must_use]
    pub fn into_event(self) -> Option<Event> {
        match self {
            Self::Event(event) => Some(event),
            Self::Comment(_) => None,
        }
    }

    /// The comment text, if this is a comment.
    #[must_use]
    pub fn as_comment(&self) -> Option<&str> {
        match self {
            Self::Comment(text) => Some(text),
            Self::Event(_) => None,
        }
    }
}

/// An incremental Server-Sent Events decoder, independent of any I/O.
///
/// Feed it the bytes of a stream in chunks of any size, cut anywhere (inside a CRLF, inside a
/// UTF-8 character, inside the BOM): the result is the same as for the whole stream at once.
/// [`decode`](Decoder::decode) returns an iterator over the frames that a chunk completes;
/// [`next_frame`](Decoder::next_frame) is the step-by-step form for adapters. The
/// [`EventStream`](crate::EventStream) adapter drives a decoder over an async byte stream.
///
/// # Interpretation
///
/// Exactly the WHATWG HTML "event stream interpretation":
///
/// * lines end with LF, CR or CRLF; one UTF-8 BOM at the very start of the stream is skipped;
/// * a blank line dispatches the event being built; a line starting with `:` is a comment;
///   otherwise the field name is everything up to the first colon (the whole line if it has
///   none, the value then being empty) and one space after the colon is dropped from the value;
/// * `data` appends the value and a LF to the data buffer; at dispatch, one trailing LF is
///   removed, and an empty data buffer dispatches nothing (but the `id` and `retry` fields of
///   those lines have taken effect already);
/// * `event` sets the event type; an empty type is the default `"message"` and decodes to
///   [`Event::event`] `None`;
/// * `id` sets the last event ID buffer, unless the value contains NUL, in which case the field
///   is ignored; every blank line, whether it dispatches an event or not, commits that buffer as
///   the last event ID ([`last_event_id`](Decoder::last_event_id)), which persists across events
///   and is copied into every dispatched event (so an `id` only counts once its event is
///   complete);
/// * `retry` sets the reconnection time ([`retry`](Decoder::retry)) if the value is one or more
///   ASCII digits (in milliseconds, saturating at `u64::MAX`), and is otherwise ignored;
/// * any other field is ignored.
///
/// # Errors and limits
///
/// Errors are per event (see [`DecodeError`]): the decoder reports them as items, skips the
/// rest of the event (its `id` is not committed) and recovers at the next blank line.
///
/// * Invalid UTF-8 in a line the decoder interprets (`data`, `event`, `id`, and comments when
///   they are surfaced) is an error; bytes the decoder ignores (unknown fields, comments not
///   surfaced, an `id` with NUL, a `retry` that is not digits) are not checked. (A browser would
///   instead replace invalid sequences with U+FFFD; this decoder refuses to guess.)
/// * The event size (the bytes of the data buffer, one LF per `data` line included, plus the
///   event type) is capped by [`with_max_event_size`](Decoder::with_max_event_size), default
///   [`DEFAULT_MAX_EVENT_SIZE`] (1 MiB). Raise it for streams that carry large payloads, such
///   as inline files.
/// * The length of one line (without its line end) is capped by
///   [`with_max_line_length`](Decoder::with_max_line_length), default
///   [`DEFAULT_MAX_LINE_LENGTH`] (1 MiB), for every line including comments and unknown fields;
///   the error comes as soon as the partial line passes the cap, and the rest of the line is
///   dropped without being buffered.
///
/// So the memory a decoder holds stays below the two caps plus the frames not yet taken out.
///
/// # End of stream
///
/// [`finish`](Decoder::finish) ends a stream: as WHATWG says, an incomplete event (no blank
/// line after it) and an incomplete last line are discarded, not dispatched.
///
/// ```
/// use a2a_sse::{Decoder, Frame};
///
/// let mut decoder = Decoder::new();
/// let mut events = Vec::new();
/// for chunk in [&b"data: hel"[..], b"lo\r", b"\nid: 1\r\n\r\ndata: unfinished"] {
///     for frame in decoder.decode(chunk) {
///         if let Frame::Event(event) = frame? {
///             events.push(event);
///         }
///     }
/// }
/// assert!(decoder.finish()); // "data: unfinished" is discarded
/// assert_eq!(events.len(), 1);
/// assert_eq!(events[0].data(), Some("hello"));
/// assert_eq!(events[0].id(), Some("1"));
/// assert_eq!(decoder.last_event_id(), Some("1"));
/// # Ok::<(), a2a_sse::DecodeError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Decoder {
    max_event_size: usize,
    max_line_length: usize,
    comments: bool,

    // Kept across streams (the EventSource's state).
    /// The last event ID, committed at each blank line.
    last_event_id: Option<String>,
    retry: Option<Duration>,

    // Line state of the current stream.
    /// The start of a line whose end has not arrived yet.
    line: Vec<u8>,
    /// The current line passed the length cap: drop bytes up to its end.
    skip_line: bool,
    /// The last byte seen was a CR: an LF right after it belongs to that line end.
    after_cr: bool,
    /// No line has ended yet: the first line may start with a BOM.
    at_stream_start: bool,
    /// Bytes of the stream consumed so far.
    offset: u64,
    /// Stream offset of the start of the current line.
    line_start: u64,

    // Event state.
    /// The last event ID buffer: what `id` fields set, committed at the next blank line.
    id_buffer: Option<String>,
    data: String,
    event_type: String,
    event_retry: Option<Duration>,
    /// A line (not blank) has been seen since the last blank line.
    in_event: bool,
    /// The current event had an error: ignore its lines up to the next blank line.
    poisoned: bool,

    /// Items decoded ahead of being returned (when a [`Frames`] iterator is dropped early).
    queue: VecDeque<Result<Frame, DecodeError>>,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder with the default limits that does not surface comments.
    #[must_use]
    pub fn new() -> Self {
        Self {
            max_event_size: DEFAULT_MAX_EVENT_SIZE,
            max_line_length: DEFAULT_MAX_LINE_LENGTH,
            comments: false,
            last_event_id: None,
            retry: None,
            id_buffer: None,
            line: Vec::new(),
            skip_line: false,
            after_cr: false,
            at_stream_start: true,
            offset: 0,
            line_start: 0,
            data: String::new(),
            event_type: String::new(),
            event_retry: None,
            in_event: false,
            poisoned: false,
            queue: VecDeque::new(),
        }
    }

    /// Whether to return comment lines as [`Frame::Comment`] items (default `false`: a client
    /// ignores them, as WHATWG does; a test or a proxy may want to see them).
    #[must_use]
    pub fn with_comments(mut self, comments: bool) -> Self {
        self.comments = comments;
        self
    }

    /// Caps the bytes buffered for one event: the data buffer (the values of its `data` lines
    /// plus one LF each) plus the event type. Past the cap the event is skipped with
    /// [`DecodeErrorKind::EventTooLarge`]. Default [`DEFAULT_MAX_EVENT_SIZE`].
    #[must_use]
    pub fn with_max_event_size(mut self, bytes: usize) -> Self {
        self.max_event_size = bytes;
        self
    }

    /// Caps the length of one line, without its line end. Past the cap the event is skipped with
    /// [`DecodeErrorKind::LineTooLong`] and the rest of the line is dropped unbuffered. Default
    /// [`DEFAULT_MAX_LINE_LENGTH`].
    #[must_use]
    pub fn with_max_line_length(mut self, bytes: usize) -> Self {
        self.max_line_length = bytes;
        self
    }

    /// The last event ID: the value of the last `id` field (without NUL) of a complete event
    /// (one ended by its blank line, dispatched or not), `None` if there was none. `Some("")`
    /// means an empty `id` field reset it; a client sends the `Last-Event-ID` header on
    /// reconnection only when this is non-empty.
    ///
    /// It persists across events and across [`finish`](Decoder::finish), like an
    /// `EventSource`'s. An `id` in an event that is cut off by the end of the stream, or skipped
    /// after an error, is not committed.
    #[must_use]
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// The reconnection time the stream asked for with its last valid `retry` field, if any. It
    /// persists across [`finish`](Decoder::finish).
    #[must_use]
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// Decodes a chunk: an iterator over the frames (and per-event errors) that the chunk
    /// completes, in stream order. Bytes of an unfinished line are kept for the next call.
    ///
    /// Iterate it to the end. If it is dropped earlier, the rest of the chunk is decoded at
    /// once and its frames are kept: the next call (`decode(&[])` will do) returns them first.
    pub fn decode<'a>(&'a mut self, chunk: &'a [u8]) -> Frames<'a> {
        Frames {
            decoder: self,
            input: chunk,
        }
    }

    /// Decodes from the front of `input` until one item is complete, and advances `input` past
    /// the bytes it consumed. Returns `None` once `input` is empty (all of it consumed; an
    /// unfinished line is kept for the next call).
    ///
    /// This is the step-by-step form of [`decode`](Decoder::decode) for adapters that keep
    /// their chunk across calls.
    ///
    /// ```
    /// let mut decoder = a2a_sse::Decoder::new();
    /// let mut input = &b"data: a\n\ndata: b\n\ndata"[..];
    /// let first = decoder.next_frame(&mut input).unwrap()?;
    /// assert_eq!(first.as_event().and_then(|e| e.data()), Some("a"));
    /// assert_eq!(input, b"data: b\n\ndata");
    /// assert!(decoder.next_frame(&mut input).is_some());
    /// assert!(decoder.next_frame(&mut input).is_none());
    /// assert!(input.is_empty());
    /// # Ok::<(), a2a_sse::DecodeError>(())
    /// ```
    pub fn next_frame(&mut self, input: &mut &[u8]) -> Option<Result<Frame, DecodeError>> {
        if let Some(item) = self.queue.pop_front() {
            return Some(item);
        }
        self.step(input)
    }

    /// Ends the current stream. An unfinished line and an event without its closing blank line
    /// are discarded, as WHATWG says: its `id` is not committed as the last event ID (a `retry`
    /// it had took effect at once). Returns whether anything was discarded.
    ///
    /// The decoder is then ready for a new stream (a reconnection): a BOM is skipped again, and
    /// [`DecodeError::offset`] counts from the new start. [`last_event_id`](Decoder::last_event_id)
    /// and [`retry`](Decoder::retry) are kept, and so are items not yet taken out after a
    /// [`Frames`] iterator was dropped early.
    pub fn finish(&mut self) -> bool {
        let discarded = !self.line.is_empty() || self.skip_line || self.in_event;
        self.line.clear();
        self.skip_line = false;
        self.after_cr = false;
        self.at_stream_start = true;
        self.offset = 0;
        self.line_start = 0;
        self.id_buffer.clone_from(&self.last_event_id);
        self.reset_event();
        discarded
    }

    pub(crate) fn has_queued(&self) -> bool {
        !self.queue.is_empty()
    }

    fn reset_event(&mut self) {
        self.data.clear();
        self.event_type.clear();
        self.event_retry = None;
        self.in_event = false;
        self.poisoned = false;
    }

    /// The decoding loop: consumes lines from `input` until one yields an item.
    fn step(&mut self, input: &mut &[u8]) -> Option<Result<Frame, DecodeError>> {
        loop {
            let bytes: &[u8] = input;
            if bytes.is_empty() {
                return None;
            }
            if mem::take(&mut self.after_cr) && bytes[0] == b'\n' {
                *input = &bytes[1..];
                self.offset += 1;
                self.line_start = self.offset;
                continue;
            }
            let Some(end) = memchr::memchr2(b'\n', b'\r', bytes) else {
                // An unfinished line: keep it (or drop it if it is too long already).
                *input = &[];
                self.offset += bytes.len() as u64;
                if self.skip_line {
                    return None;
                }
                if self.line.len() + bytes.len() > self.max_line_length {
                    self.line.clear();
                    self.skip_line = true;
                    return self.fail(DecodeErrorKind::LineTooLong {
                        limit: self.max_line_length,
                    });
                }
                self.line.extend_from_slice(bytes);
                return None;
            };
            *input = &bytes[end + 1..];
            self.after_cr = bytes[end] == b'\r';
            let part = &bytes[..end];
            let strip_bom = mem::take(&mut self.at_stream_start);
            let item = if mem::take(&mut self.skip_line) {
                // The end of a line that was too long: it is dropped.
                None
            } else if self.line.len() + part.len() > self.max_line_length {
                self.line.clear();
                self.fail(DecodeErrorKind::LineTooLong {
                    limit: self.max_line_length,
                })
            } else if self.line.is_empty() {
                self.line_with_bom(part, strip_bom)
            } else {
                let mut line = mem::take(&mut self.line);
                line.extend_from_slice(part);
                let item = self.line_with_bom(&line, strip_bom);
                line.clear();
                self.line = line;
                item
            };
            self.offset += end as u64 + 1;
            self.line_start = self.offset;
            if item.is_some() {
                return item;
            }
        }
    }

    fn line_with_bom(
        &mut self,
        line: &[u8],
        strip_bom: bool,
    ) -> Option<Result<Frame, DecodeError>> {
        let line = if strip_bom {
            line.strip_prefix(BOM).unwrap_or(line)
        } else {
            line
        };
        self.process_line(line)
    }

    /// Interprets one complete line.
    fn process_line(&mut self, line: &[u8]) -> Option<Result<Frame, DecodeError>> {
        if line.is_empty() {
            return self.dispatch();
        }
        if self.poisoned {
            return None;
        }
        let (name, value) = match memchr::memchr(b':', line) {
            Some(0) => {
                if !self.comments {
                    return None;
                }
                let Ok(text) = std::str::from_utf8(strip_space(&line[1..])) else {
                    return self.fail(DecodeErrorKind::InvalidUtf8);
                };
                return Some(Ok(Frame::Comment(text.to_owned())));
            }
            Some(colon) => (&line[..colon], strip_space(&line[colon + 1..])),
            None => (line, &[][..]),
        };
        self.in_event = true;
        match name {
            b"data" => {
                let Ok(value) = std::str::from_utf8(value) else {
                    return self.fail(DecodeErrorKind::InvalidUtf8);
                };
                if self.data.len() + self.event_type.len() + value.len() + 1 > self.max_event_size {
                    return self.fail(DecodeErrorKind::EventTooLarge {
                        limit: self.max_event_size,
                    });
                }
                self.data.reserve(value.len() + 1);
                self.data.push_str(value);
                self.data.push('\n');
            }
            b"event" => {
                let Ok(value) = std::str::from_utf8(value) else {
                    return self.fail(DecodeErrorKind::InvalidUtf8);
                };
                if self.data.len() + value.len() > self.max_event_size {
                    return self.fail(DecodeErrorKind::EventTooLarge {
                        limit: self.max_event_size,
                    });
                }
                self.event_type.clear();
                self.event_type.push_str(value);
            }
            // An `id` with NUL is ignored.
            b"id" if memchr::memchr(0, value).is_none() => {
                let Ok(value) = std::str::from_utf8(value) else {
                    return self.fail(DecodeErrorKind::InvalidUtf8);
                };
                let id = self.id_buffer.get_or_insert_with(String::new);
                id.clear();
                id.push_str(value);
            }
            // A `retry` that is not all ASCII digits is ignored.
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                let millis = value.iter().fold(0_u64, |n, digit| {
                    n.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
                });
                let retry = Duration::from_millis(millis);
                self.retry = Some(retry);
                self.event_retry = Some(retry);
            }
            // Unknown fields, and the ignored `id` and `retry` above.
            _ => {}
        }
        None
    }

    /// A blank line: commits the last event ID and dispatches the event being built, if it has
    /// data.
    fn dispatch(&mut self) -> Option<Result<Frame, DecodeError>> {
        if self.poisoned {
            // The event is discarded whole, as if cut off: its `id` does not count.
            self.id_buffer.clone_from(&self.last_event_id);
            self.reset_event();
            return None;
        }
        self.last_event_id.clone_from(&self.id_buffer);
        if self.data.is_empty() {
            self.reset_event();
            return None;
        }
        self.data.pop(); // The LF that every `data` line appended.
        let data = mem::take(&mut self.data);
        let event = if self.event_type.is_empty() {
            None
        } else {
            Some(mem::take(&mut self.event_type))
        };
        let retry = self.event_retry.take();
        self.reset_event();
        Some(Ok(Frame::Event(Event::decoded(
            self.last_event_id.clone(),
            event,
            data,
            retry,
        ))))
    }

    /// Reports `kind` for the current event, unless it has failed already, and skips the rest
    /// of the event.
    fn fail(&mut self, kind: DecodeErrorKind) -> Option<Result<Frame, DecodeError>> {
        self.in_event = true;
        if self.poisoned {
            return None;
        }
        self.poisoned = true;
        self.data.clear();
        self.event_type.clear();
        Some(Err(DecodeError::new(kind, self.line_start)))
    }
}

/// Drops one leading space.
fn strip_space(value: &[u8]) -> &[u8] {
    value.strip_prefix(b" ").unwrap_or(value)
}

/// The iterator of [`Decoder::decode`]: the items one chunk completes.
///
/// If dropped before it returns `None`, it decodes the rest of the chunk into the decoder, whose
/// next call returns those items first.
#[derive(Debug)]
#[must_use = "the chunk is decoded as the iterator is advanced"]
pub struct Frames<'a> {
    decoder: &'a mut Decoder,
    input: &'a [u8],
}

impl Iterator for Frames<'_> {
    type Item = Result<Frame, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.decoder.next_frame(&mut self.input)
    }
}

impl std::iter::FusedIterator for Frames<'_> {}

impl Drop for Frames<'_> {
    fn drop(&mut self) {
        while let Some(item) = self.decoder.step(&mut self.input) {
            self.decoder.queue.push_back(item);
        }
    }
}
