//! W3C Trace Context (<https://www.w3.org/TR/trace-context/>): the `traceparent` and
//! `tracestate` headers that make a chain of agents one trace. The server reads them from each
//! request, the client sends them with each call, and push deliveries carry them.
//!
//! ```
//! use a2a_types::trace::TraceContext;
//!
//! let incoming = TraceContext::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", Some("congo=t61rcWkgMzE")).unwrap();
//! assert_eq!(incoming.trace_id_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
//! assert!(incoming.sampled());
//! # #[cfg(feature = "uuid")] {
//! let ours = incoming.child();
//! assert_eq!(ours.trace_id(), incoming.trace_id());
//! assert_ne!(ours.span_id(), incoming.span_id());
//! assert_eq!(ours.tracestate(), Some("congo=t61rcWkgMzE"));
//! # }
//! assert_eq!(TraceContext::parse("00-00000000000000000000000000000000-00f067aa0ba902b7-01", None), None);
//! ```

use std::fmt;

/// The most of a `tracestate` kept: longer values are dropped (the W3C limit is 32 members of
/// at most 256 bytes each; 512 bytes is what a vendor must at least propagate).
pub const MAX_TRACESTATE_BYTES: usize = 512;

/// The span context of one hop: trace id, the id of the span that makes the next call (the
/// `parent-id` of the next `traceparent`), the flags, and the vendors' `tracestate`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TraceContext {
    trace_id: [u8; 16],
    span_id: [u8; 8],
    flags: u8,
    state: Option<String>,
}

impl fmt::Debug for TraceContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.traceparent())
    }
}

impl fmt::Display for TraceContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.traceparent())
    }
}

fn hex_into(text: &str, out: &mut [u8]) -> Option<()> {
    if text.len() != out.len() * 2 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[i * 2..i * 2 + 2], 16).ok()?;
    }
    Some(())
}

/// Lower-case hex, two digits a byte (one allocation; no formatter per byte).
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

impl TraceContext {
    /// The context of a `traceparent` header (and the `tracestate` beside it), or `None` when
    /// it is not a valid one (the W3C rule: an invalid `traceparent` is as if absent): version
    /// `ff`, ids of all zeros, wrong lengths. Hex in either case is read; a later version's
    /// extra fields are ignored. A `tracestate` longer than [`MAX_TRACESTATE_BYTES`], with
    /// more than 32 members or characters outside printable ASCII is dropped.
    pub fn parse(traceparent: &str, tracestate: Option<&str>) -> Option<Self> {
        let text = traceparent.trim();
        let mut fields = text.split('-');
        let version = fields.next()?;
        let (trace, span, flags) = (fields.next()?, fields.next()?, fields.next()?);
        let mut version_byte = [0u8; 1];
        hex_into(version, &mut version_byte)?;
        if version_byte[0] == 0xff || (version_byte[0] == 0 && fields.next().is_some()) {
            return None;
        }
        let mut context = Self {
            trace_id: [0; 16],
            span_id: [0; 8],
            flags: 0,
            state: None,
        };
        hex_into(trace, &mut context.trace_id)?;
        hex_into(span, &mut context.span_id)?;
        let mut flag_byte = [0u8; 1];
        hex_into(flags, &mut flag_byte)?;
        context.flags = flag_byte[0];
        if context.trace_id == [0; 16] || context.span_id == [0; 8] {
            return None;
        }
        context.state = tracestate
            .map(str::trim)
            .filter(|s| {
                !s.is_empty()
                    && s.len() <= MAX_TRACESTATE_BYTES
                    && s.split(',').count() <= 32
                    && s.bytes().all(|b| (0x20..0x7f).contains(&b))
            })
            .map(str::to_owned);
        Some(context)
    }

    /// A context of these ids and flags, without `tracestate`; `None` for ids of all zeros.
    pub fn from_parts(trace_id: [u8; 16], span_id: [u8; 8], flags: u8) -> Option<Self> {
        (trace_id != [0; 16] && span_id != [0; 8]).then_some(Self {
            trace_id,
            span_id,
            flags,
            state: None,
        })
    }

    /// A new trace: a random trace id and span id, sampled.
    #[cfg(feature = "uuid")]
    pub fn new_root() -> Self {
        Self {
            trace_id: random_nonzero(),
            span_id: random_nonzero(),
            flags: 1,
            state: None,
        }
    }

    /// The context of a new span in the same trace (this one its parent): a new random span id,
    /// the same trace id, flags and `tracestate`.
    #[cfg(feature = "uuid")]
    #[must_use]
    pub fn child(&self) -> Self {
        Self {
            span_id: random_nonzero(),
            ..self.clone()
        }
    }

    /// The trace id.
    pub fn trace_id(&self) -> [u8; 16] {
        self.trace_id
    }

    /// The trace id as 32 lowercase hex digits.
    pub fn trace_id_hex(&self) -> String {
        hex(&self.trace_id)
    }

    /// The span id.
    pub fn span_id(&self) -> [u8; 8] {
        self.span_id
    }

    /// The span id as 16 lowercase hex digits.
    pub fn span_id_hex(&self) -> String {
        hex(&self.span_id)
    }

    /// The trace flags.
    pub fn flags(&self) -> u8 {
        self.flags
    }

    /// True when the caller records this trace (flag `01`).
    pub fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }

    /// The vendors' `tracestate`, as received.
    pub fn tracestate(&self) -> Option<&str> {
        self.state.as_deref()
    }

    /// The `traceparent` header of a call made in this span: `00-<trace id>-<span id>-<flags>`.
    pub fn traceparent(&self) -> String {
        format!(
            "00-{}-{}-{:02x}",
            hex(&self.trace_id),
            hex(&self.span_id),
            self.flags
        )
    }
}

/// A random trace or span id: W3C Trace Context forbids the all-zero id.
#[cfg(feature = "uuid")]
fn random_nonzero<const N: usize>() -> [u8; N] {
    loop {
        let id = crate::random::bytes::<N>();
        if id != [0; N] {
            return id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn traceparent_round_trips_exactly() {
        let text = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        let context = TraceContext::parse(text, None).unwrap();
        assert_eq!(context.traceparent(), text);
        assert_eq!(context.span_id_hex(), "b7ad6b7169203331");
        assert_eq!(context.flags(), 1);
        // Upper case is read, lower case written; a later version's extra field is ignored.
        let upper = TraceContext::parse(
            "01-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-00-extra",
            None,
        )
        .unwrap();
        assert_eq!(
            upper.traceparent(),
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"
        );
        assert!(!upper.sampled());
    }

    #[test]
    fn invalid_traceparents_are_absent() {
        for bad in [
            "",
            "00",
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
            "00-0af7651916cd43dd8448eb211c80319-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1",
        ] {
            assert_eq!(TraceContext::parse(bad, None), None, "{bad}");
        }
    }

    #[test]
    fn tracestate_is_kept_within_bounds() {
        let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        let kept = TraceContext::parse(parent, Some(" rojo=00f067aa0ba902b7,congo=t61 ")).unwrap();
        assert_eq!(kept.tracestate(), Some("rojo=00f067aa0ba902b7,congo=t61"));
        let long = "a=".to_owned() + &"b".repeat(MAX_TRACESTATE_BYTES);
        assert_eq!(
            TraceContext::parse(parent, Some(&long))
                .unwrap()
                .tracestate(),
            None
        );
        let many = vec!["k=v"; 33].join(",");
        assert_eq!(
            TraceContext::parse(parent, Some(&many))
                .unwrap()
                .tracestate(),
            None
        );
        assert_eq!(
            TraceContext::parse(parent, Some("k=\u{e9}"))
                .unwrap()
                .tracestate(),
            None
        );
    }

    #[cfg(feature = "uuid")]
    #[test]
    fn roots_and_children() {
        let root = TraceContext::new_root();
        assert!(root.sampled());
        assert_ne!(root.trace_id(), [0; 16]);
        let child = root.child();
        assert_eq!(child.trace_id_hex(), root.trace_id_hex());
        assert_ne!(child.span_id(), root.span_id());
        assert_eq!(
            TraceContext::parse(&child.traceparent(), None),
            Some(child.clone())
        );
    }
}
