//! The [`Event`] type and the encoder: events, comments and keep-alive frames to bytes.

use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};

use crate::error::InvalidFieldError;

/// The event type a client uses when a stream names none (`event` field absent or empty).
pub const DEFAULT_EVENT_TYPE: &str = "message";

/// One Server-Sent Event: what the encoder writes and what the decoder returns.
///
/// # Encoding
///
/// Build it with [`Event::new`] (or [`Event::default`] for a frame without data) and the
/// `with_*` setters, then write it with [`encode`](Event::encode) or
/// [`encode_to`](Event::encode_to). The setters for `id` and `event` validate their value and
/// return an [`InvalidFieldError`] for a line break (CR or LF), which would otherwise end the
/// field early, and for a NUL in `id`, which every conforming client ignores. So an `Event` is
/// always encodable and encoding itself cannot fail. `data` and `comment` accept any text: their
/// line breaks (LF, CR or CRLF) split them into several `data:` or `:` lines.
///
/// The fields are written in this order, each line ended by LF, the frame by a blank line:
/// comment lines, `event`, `retry`, `data` lines, `id`. `id` comes last so that a connection
/// cut inside the frame cannot advance the client's last event ID past an event it never
/// received, even with clients less careful than WHATWG's (which commit an ID only with the
/// blank line that completes its event, as [`Decoder`](crate::Decoder) does).
///
/// # Decoding
///
/// The [`Decoder`](crate::Decoder) returns events (inside [`Frame::Event`](crate::Frame::Event))
/// with:
///
/// * [`data`](Event::data) always `Some`: the data lines joined with LF;
/// * [`event`](Event::event) the `event` field, `None` when absent or empty (which means
///   [`DEFAULT_EVENT_TYPE`]; see [`event_type`](Event::event_type));
/// * [`id`](Event::id) the *last event ID* in force when the event was dispatched, as the
///   WHATWG `MessageEvent.lastEventId`: it persists from earlier events until an `id` field
///   changes it (`Some("")` after an empty `id` field reset it, `None` while the stream has sent
///   no `id` at all);
/// * [`retry`](Event::retry) the `retry` field of this event's lines, if one was valid (the
///   reconnection time in force is [`Decoder::retry`](crate::Decoder::retry));
/// * [`comment`](Event::comment) always `None` (comments are separate
///   [`Frame::Comment`](crate::Frame::Comment) items).
///
/// Re-encoding a decoded event therefore gives a frame that a client interprets the same way.
///
/// ```
/// use std::time::Duration;
/// use a2a_sse::Event;
///
/// let event = Event::new("{\"a\":1}\n{\"b\":2}")
///     .with_event("update")?
///     .with_id("42")?
///     .with_retry(Duration::from_secs(3));
/// assert_eq!(
///     &event.encode()[..],
///     b"event: update\nretry: 3000\ndata: {\"a\":1}\ndata: {\"b\":2}\nid: 42\n\n"
/// );
/// assert!(Event::new("x").with_id("1\n2").is_err());
/// # Ok::<(), a2a_sse::InvalidFieldError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Event {
    id: Option<String>,
    event: Option<String>,
    data: Option<String>,
    retry: Option<Duration>,
    comment: Option<String>,
}

impl Event {
    /// An event carrying `data` (which may contain line breaks), with every other field unset.
    #[must_use]
    pub fn new(data: impl Into<String>) -> Self {
        Self {
            data: Some(data.into()),
            ..Self::default()
        }
    }

    pub(crate) fn decoded(
        id: Option<String>,
        event: Option<String>,
        data: String,
        retry: Option<Duration>,
    ) -> Self {
        Self {
            id,
            event,
            data: Some(data),
            retry,
            comment: None,
        }
    }

    /// Sets the data; line breaks (LF, CR, CRLF) split it into several `data:` lines, which a
    /// client joins with LF. An empty string is still written (as one empty `data:` line) and is
    /// dispatched by the client as an event with empty data.
    #[must_use]
    pub fn with_data(mut self, data: impl Into<String>) -> Self {
        self.data = Some(data.into());
        self
    }

    /// Sets the event ID, which the client keeps as its last event ID (sent back in the
    /// `Last-Event-ID` header when it reconnects). An empty ID is written too: it resets the
    /// client's last event ID.
    ///
    /// # Errors
    ///
    /// [`InvalidFieldError`] if `id` contains CR, LF or NUL.
    pub fn with_id(mut self, id: impl Into<String>) -> Result<Self, InvalidFieldError> {
        let id = id.into();
        if let Some(pos) = memchr::memchr3(b'\r', b'\n', 0, id.as_bytes()) {
            return Err(InvalidFieldError::new("id", id.as_bytes()[pos], pos));
        }
        self.id = Some(id);
        Ok(self)
    }

    /// Sets the event type. An empty type is the default type [`DEFAULT_EVENT_TYPE`] and unsets
    /// the field (nothing is written).
    ///
    /// # Errors
    ///
    /// [`InvalidFieldError`] if `event` contains CR or LF.
    pub fn with_event(mut self, event: impl Into<String>) -> Result<Self, InvalidFieldError> {
        let event = event.into();
        if let Some(pos) = memchr::memchr2(b'\r', b'\n', event.as_bytes()) {
            return Err(InvalidFieldError::new("event", event.as_bytes()[pos], pos));
        }
        self.event = if event.is_empty() { None } else { Some(event) };
        Ok(self)
    }

    /// Sets the client's reconnection time, written in whole milliseconds (sub-millisecond
    /// parts are dropped).
    #[must_use]
    pub fn with_retry(mut self, retry: Duration) -> Self {
        self.retry = Some(retry);
        self
    }

    /// Sets a comment, written before the fields as `:` lines (one per line of `comment`) that
    /// clients ignore.
    #[must_use]
    pub fn with_comment(mut self, comment: impl Into<String>) -> Self {
        self.comment = Some(comment.into());
        self
    }

    /// The `id` field (see the [type documentation](Event) for its meaning on decoded events).
    #[must_use]
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The `event` field: the event type, `None` for the default type.
    #[must_use]
    pub fn event(&self) -> Option<&str> {
        self.event.as_deref()
    }

    /// The event type a client dispatches this event as: [`event`](Event::event), or
    /// [`DEFAULT_EVENT_TYPE`] (`"message"`) when that is `None`.
    #[must_use]
    pub fn event_type(&self) -> &str {
        self.event.as_deref().unwrap_or(DEFAULT_EVENT_TYPE)
    }

    /// The data, `None` when the frame has no `data` line (always `Some` on decoded events).
    #[must_use]
    pub fn data(&self) -> Option<&str> {
        self.data.as_deref()
    }

    /// Takes the data out of the event.
    #[must_use]
    pub fn into_data(self) -> Option<String> {
        self.data
    }

    /// The reconnection time.
    #[must_use]
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// The comment (never set on decoded events).
    #[must_use]
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }

    /// Encodes the event into a new buffer.
    #[must_use]
    pub fn encode(&self) -> Bytes {
        let mut buf = BytesMut::new();
        self.encode_to(&mut buf);
        buf.freeze()
    }

    /// Appends the encoded event to `buf`: the only allocation is `buf` growing.
    pub fn encode_to(&self, buf: &mut BytesMut) {
        // Exact for single-line values; extra lines cost 7 bytes each and grow `buf` as needed.
        let len =
            |s: &Option<String>, overhead: usize| s.as_ref().map_or(0, |s| s.len() + overhead);
        buf.reserve(
            len(&self.comment, 3)
                + len(&self.event, 8)
                + len(&self.data, 7)
                + len(&self.id, 5)
                + if self.retry.is_some() { 48 } else { 0 }
                + 1,
        );
        if let Some(comment) = &self.comment {
            put_lines(buf, b":", comment.as_bytes());
        }
        if let Some(event) = &self.event {
            put_line(buf, b"event:", event.as_bytes());
        }
        if let Some(retry) = self.retry {
            buf.put_slice(b"retry: ");
            put_decimal(buf, retry.as_millis());
            buf.put_u8(b'\n');
        }
        if let Some(data) = &self.data {
            put_lines(buf, b"data:", data.as_bytes());
        }
        if let Some(id) = &self.id {
            put_line(buf, b"id:", id.as_bytes());
        }
        buf.put_u8(b'\n');
    }
}

/// The default text of a keep-alive comment: `": keep-alive\n\n"`.
pub const DEFAULT_KEEP_ALIVE_TEXT: &str = "keep-alive";

/// A pre-encoded keep-alive frame: a comment that clients ignore, sent to keep idle
/// connections (and proxies) from timing out.
///
/// Encoded once; [`frame`](KeepAlive::frame) is a cheap reference-counted clone.
///
/// ```
/// use a2a_sse::KeepAlive;
///
/// assert_eq!(&KeepAlive::new().frame()[..], b": keep-alive\n\n");
/// assert_eq!(&KeepAlive::with_text("ping\npong").frame()[..], b": ping\n: pong\n\n");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeepAlive {
    frame: Bytes,
}

impl KeepAlive {
    /// The keep-alive frame with [`DEFAULT_KEEP_ALIVE_TEXT`].
    #[must_use]
    pub fn new() -> Self {
        Self {
            frame: Bytes::from_static(b": keep-alive\n\n"),
        }
    }

    /// A keep-alive frame with its own comment text (line breaks split it into several `:`
    /// lines; an empty text gives `":\n\n"`).
    #[must_use]
    pub fn with_text(text: &str) -> Self {
        Self {
            frame: encode_comment(text),
        }
    }

    /// The encoded frame.
    #[must_use]
    pub fn frame(&self) -> Bytes {
        self.frame.clone()
    }
}

impl Default for KeepAlive {
    fn default() -> Self {
        Self::new()
    }
}

/// Encodes a comment-only frame: one `:` line per line of `text`, then a blank line.
///
/// ```
/// assert_eq!(&a2a_sse::encode_comment("a\r\nb")[..], b": a\n: b\n\n");
/// ```
#[must_use]
pub fn encode_comment(text: &str) -> Bytes {
    let mut buf = BytesMut::with_capacity(text.len() + 4);
    encode_comment_to(text, &mut buf);
    buf.freeze()
}

/// Appends a comment-only frame (see [`encode_comment`]) to `buf`.
pub fn encode_comment_to(text: &str, buf: &mut BytesMut) {
    buf.reserve(text.len() + 4);
    put_lines(buf, b":", text.as_bytes());
    buf.put_u8(b'\n');
}

/// Writes `prefix` (`name:`), then `" " value` unless `value` is empty, then LF.
///
/// The space is stripped again by the decoder, so a value starting with a space survives.
#[inline]
fn put_line(buf: &mut BytesMut, prefix: &[u8], value: &[u8]) {
    buf.put_slice(prefix);
    if !value.is_empty() {
        buf.put_u8(b' ');
        buf.put_slice(value);
    }
    buf.put_u8(b'\n');
}

/// Writes one [`put_line`] per line of `text`; LF, CR and CRLF all end a line.
fn put_lines(buf: &mut BytesMut, prefix: &[u8], text: &[u8]) {
    let mut start = 0;
    for pos in memchr::memchr2_iter(b'\r', b'\n', text) {
        if pos < start {
            // The LF of a CRLF, already consumed with its CR.
            continue;
        }
        put_line(buf, prefix, &text[start..pos]);
        start = pos + 1;
        if text[pos] == b'\r' && text.get(start) == Some(&b'\n') {
            start += 1;
        }
    }
    put_line(buf, prefix, &text[start..]);
}

/// Writes `n` in base ten.
fn put_decimal(buf: &mut BytesMut, mut n: u128) {
    // u128::MAX has 39 digits.
    let mut digits = [0_u8; 39];
    let mut i = digits.len();
    loop {
        i -= 1;
        // Truncation is exact: `n % 10` is below 10.
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.put_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn enc(event: &Event) -> Vec<u8> {
        event.encode().to_vec()
    }

    #[test]
    fn data_only() {
        assert_eq!(enc(&Event::new("hello")), b"data: hello\n\n");
    }

    #[test]
    fn empty_data_is_one_empty_data_line() {
        assert_eq!(enc(&Event::new("")), b"data:\n\n");
    }

    #[test]
    fn no_fields_is_a_blank_line() {
        assert_eq!(enc(&Event::default()), b"\n");
    }

    #[test]
    fn multi_line_data_splits_on_lf_cr_and_crlf() {
        assert_eq!(
            enc(&Event::new("a\nb\rc\r\nd")),
            b"data: a\ndata: b\ndata: c\ndata: d\n\n"
        );
    }

    #[test]
    fn trailing_and_consecutive_line_breaks_give_empty_data_lines() {
        assert_eq!(enc(&Event::new("a\n")), b"data: a\ndata:\n\n");
        assert_eq!(enc(&Event::new("\n")), b"data:\ndata:\n\n");
        assert_eq!(
            enc(&Event::new("\r\r\n\n")),
            b"data:\ndata:\ndata:\ndata:\n\n"
        );
        assert_eq!(enc(&Event::new("\n\r")), b"data:\ndata:\ndata:\n\n");
    }

    #[test]
    fn leading_space_is_kept_by_the_separator_space() {
        assert_eq!(enc(&Event::new(" x")), b"data:  x\n\n");
    }

    #[test]
    fn all_fields_in_order() {
        let event = Event::new("{\"k\":\"v\"}")
            .with_id("evt-1")
            .unwrap()
            .with_event("status-update")
            .unwrap()
            .with_retry(Duration::from_millis(1500))
            .with_comment("hello\nworld");
        assert_eq!(
            enc(&event),
            b": hello\n: world\nevent: status-update\nretry: 1500\ndata: {\"k\":\"v\"}\nid: evt-1\n\n"
        );
    }

    #[test]
    fn empty_id_is_written_to_reset_the_last_event_id() {
        assert_eq!(
            enc(&Event::new("x").with_id("").unwrap()),
            b"data: x\nid:\n\n"
        );
    }

    #[test]
    fn empty_event_type_is_not_written() {
        let event = Event::new("x").with_event("").unwrap();
        assert_eq!(event.event(), None);
        assert_eq!(event.event_type(), "message");
        assert_eq!(enc(&event), b"data: x\n\n");
    }

    #[test]
    fn frame_without_data() {
        let event = Event::default()
            .with_retry(Duration::from_secs(10))
            .with_id("7")
            .unwrap();
        assert_eq!(enc(&event), b"retry: 10000\nid: 7\n\n");
    }

    #[test]
    fn retry_edge_values() {
        let zero = Event::default().with_retry(Duration::ZERO);
        assert_eq!(enc(&zero), b"retry: 0\n\n");
        let sub_ms = Event::default().with_retry(Duration::from_micros(2999));
        assert_eq!(enc(&sub_ms), b"retry: 2\n\n");
        let max = Event::default().with_retry(Duration::MAX);
        assert_eq!(enc(&max), b"retry: 18446744073709551615999\n\n");
    }

    #[test]
    fn line_breaks_in_id_and_event_are_errors() {
        let err = Event::new("x").with_id("a\nb").unwrap_err();
        assert_eq!((err.field(), err.byte(), err.position()), ("id", b'\n', 1));
        let err = Event::new("x").with_id("ab\r").unwrap_err();
        assert_eq!((err.field(), err.byte(), err.position()), ("id", b'\r', 2));
        let err = Event::new("x").with_id("a\0").unwrap_err();
        assert_eq!((err.field(), err.byte(), err.position()), ("id", 0, 1));
        let err = Event::new("x").with_event("\r\nx").unwrap_err();
        assert_eq!(
            (err.field(), err.byte(), err.position()),
            ("event", b'\r', 0)
        );
        assert!(Event::new("x").with_event("a\nb").is_err());
        // NUL is fine in an event type.
        assert!(Event::new("x").with_event("a\0b").is_ok());
        assert_eq!(
            err.to_string(),
            "SSE field `event` contains a carriage return (CR) at byte 0; line breaks are not \
             allowed in `id` or `event`, and a NUL makes clients ignore an `id`"
        );
    }

    #[test]
    fn comments_and_keep_alive() {
        assert_eq!(&encode_comment("")[..], b":\n\n");
        assert_eq!(&encode_comment("x")[..], b": x\n\n");
        assert_eq!(
            &encode_comment("a\nb\r\nc\rd")[..],
            b": a\n: b\n: c\n: d\n\n"
        );
        assert_eq!(&KeepAlive::new().frame()[..], b": keep-alive\n\n");
        assert_eq!(&KeepAlive::default().frame()[..], b": keep-alive\n\n");
        assert_eq!(&KeepAlive::with_text("").frame()[..], b":\n\n");
        assert_eq!(&KeepAlive::with_text("ping").frame()[..], b": ping\n\n");
        assert_eq!(
            KeepAlive::with_text(DEFAULT_KEEP_ALIVE_TEXT),
            KeepAlive::new()
        );
    }

    #[test]
    fn encode_to_appends() {
        let mut buf = BytesMut::from(&b"x"[..]);
        Event::new("1").encode_to(&mut buf);
        encode_comment_to("c", &mut buf);
        Event::new("2").encode_to(&mut buf);
        assert_eq!(&buf[..], b"xdata: 1\n\n: c\n\ndata: 2\n\n");
    }

    #[test]
    fn accessors() {
        let event = Event::new("d")
            .with_id("i")
            .unwrap()
            .with_event("e")
            .unwrap()
            .with_retry(Duration::from_secs(1))
            .with_comment("c");
        assert_eq!(event.id(), Some("i"));
        assert_eq!(event.event(), Some("e"));
        assert_eq!(event.event_type(), "e");
        assert_eq!(event.data(), Some("d"));
        assert_eq!(event.retry(), Some(Duration::from_secs(1)));
        assert_eq!(event.comment(), Some("c"));
        assert_eq!(
            event.clone().with_data("z").into_data().as_deref(),
            Some("z")
        );
        assert_eq!(Event::default().data(), None);
    }
}
