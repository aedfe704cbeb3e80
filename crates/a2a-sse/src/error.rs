//! Error types of the encoder, the decoder and the stream adapters.

use std::error::Error;
use std::fmt;

/// A field of an [`Event`](crate::Event) that the encoder cannot write as given.
///
/// Returned by the validating setters [`Event::with_id`](crate::Event::with_id) and
/// [`Event::with_event`](crate::Event::with_event): a line break would end the field early and
/// let the rest of the value be read as further fields, so it is refused instead of escaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidFieldError {
    field: &'static str,
    byte: u8,
    position: usize,
}

impl InvalidFieldError {
    pub(crate) fn new(field: &'static str, byte: u8, position: usize) -> Self {
        Self {
            field,
            byte,
            position,
        }
    }

    /// The field name: `"id"` or `"event"`.
    #[must_use]
    pub fn field(&self) -> &'static str {
        self.field
    }

    /// The refused byte: `b'\r'`, `b'\n'` or (in an `id`) `0`.
    #[must_use]
    pub fn byte(&self) -> u8 {
        self.byte
    }

    /// The byte offset of the refused byte inside the value.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }
}

impl fmt::Display for InvalidFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.byte {
            b'\r' => "a carriage return (CR)",
            b'\n' => "a line feed (LF)",
            0 => "a NUL character",
            _ => "a forbidden byte",
        };
        write!(
            f,
            "SSE field `{}` contains {what} at byte {}; line breaks are not allowed in `id` or `event`, \
             and a NUL makes clients ignore an `id`",
            self.field, self.position
        )
    }
}

impl Error for InvalidFieldError {}

/// What went wrong while decoding one event; see [`DecodeError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// A line that the decoder interprets (`data`, `event`, `id`, or a comment when comments are
    /// surfaced) is not valid UTF-8.
    InvalidUtf8,
    /// The event's buffered `data` and `event` values exceed
    /// [`Decoder::with_max_event_size`](crate::Decoder::with_max_event_size).
    EventTooLarge {
        /// The configured limit in bytes.
        limit: usize,
    },
    /// A single line exceeds
    /// [`Decoder::with_max_line_length`](crate::Decoder::with_max_line_length) (also when no line
    /// end has arrived yet).
    LineTooLong {
        /// The configured limit in bytes.
        limit: usize,
    },
}

/// An event of the stream could not be decoded.
///
/// Errors are per event, not fatal: the decoder reports the error as soon as it finds it, skips
/// the rest of that event (every line up to the next blank line, which ends the event, without
/// dispatching it), and then goes on with the next event. The skipped event is discarded like
/// an event cut off by the end of the stream: an `id` it had is not committed as the last event
/// ID. A consumer that wants fatal semantics stops at the first error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    offset: u64,
}

impl DecodeError {
    pub(crate) fn new(kind: DecodeErrorKind, offset: u64) -> Self {
        Self { kind, offset }
    }

    /// What went wrong.
    #[must_use]
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The byte offset, from the start of the stream (BOM included), of the start of the line
    /// that caused the error.
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DecodeErrorKind::InvalidUtf8 => write!(
                f,
                "invalid UTF-8 in the SSE line starting at byte {}; the event was skipped",
                self.offset
            ),
            DecodeErrorKind::EventTooLarge { limit } => write!(
                f,
                "SSE event at byte {} exceeds the limit of {limit} bytes; the event was skipped",
                self.offset
            ),
            DecodeErrorKind::LineTooLong { limit } => write!(
                f,
                "SSE line starting at byte {} exceeds the limit of {limit} bytes; the event was skipped",
                self.offset
            ),
        }
    }
}

impl Error for DecodeError {}

/// An item error of [`EventStream`](crate::EventStream): either the byte source failed or an
/// event could not be decoded.
///
/// Neither ends the stream by itself: after a [`Decode`](StreamError::Decode) error, decoding
/// resumes at the next event; after a [`Source`](StreamError::Source) error the adapter polls
/// the source again, which usually ends. Stop at the first error to make every error fatal.
#[derive(Debug)]
#[non_exhaustive]
pub enum StreamError<E> {
    /// The underlying byte stream or body returned an error.
    Source(E),
    /// The bytes could not be decoded as an event.
    Decode(DecodeError),
}

impl<E> fmt::Display for StreamError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The source error is reachable through `Error::source`, so it is not repeated here.
            Self::Source(_) => f.write_str("the SSE byte source failed"),
            Self::Decode(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl<E: Error + 'static> Error for StreamError<E> {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            Self::Source(e) => Some(e),
            // `Display` already shows the decode error itself (the variant is transparent).
            Self::Decode(_) => None,
        }
    }
}

impl<E> From<DecodeError> for StreamError<E> {
    fn from(e: DecodeError) -> Self {
        Self::Decode(e)
    }
}
