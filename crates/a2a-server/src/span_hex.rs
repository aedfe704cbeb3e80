//! Trace and span ids in span fields as lower-case hex, written only when a subscriber
//! records the field.
//!
//! A `String` made for a span field is made on every request even when nothing records it:
//! with tracing's `log` feature on (a dependency may turn it on, as sqlx does) and no
//! subscriber set, each span's field values are still evaluated for the `log` fallback. Two
//! spans a request, each with two ids, cost ~1,500 instructions that way (callgrind,
//! docs/benchmarks.md); this wrapper costs nothing until it is formatted.

use std::fmt;

/// `bytes` as lower-case hex when formatted (`{}`, as `%` in a span field), two digits a byte;
/// nothing for `None` (as the empty string the fields had before).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hex<const N: usize>(pub(crate) Option<[u8; N]>);

impl<const N: usize> fmt::Display for Hex<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let Some(bytes) = &self.0 else {
            return Ok(());
        };
        // 16 bytes a chunk: the ids of W3C trace context are 16 and 8 bytes, one write each.
        for chunk in bytes.chunks(16) {
            let mut text = [0u8; 32];
            for (pair, byte) in text.chunks_exact_mut(2).zip(chunk) {
                pair[0] = DIGITS[usize::from(byte >> 4)];
                pair[1] = DIGITS[usize::from(byte & 0x0f)];
            }
            let text = std::str::from_utf8(&text[..chunk.len() * 2]).map_err(|_| fmt::Error)?;
            f.write_str(text)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Hex;
    use a2a_types::trace::TraceContext;

    #[test]
    fn formats_as_the_traceparent_writes_the_ids() {
        let trace = TraceContext::parse(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            None,
        )
        .unwrap();
        assert_eq!(
            Hex(Some(trace.trace_id())).to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        assert_eq!(Hex(Some(trace.span_id())).to_string(), "00f067aa0ba902b7");
        assert_eq!(Hex::<8>(None).to_string(), "");
        assert_eq!(Hex(Some([0xff_u8; 20])).to_string(), "ff".repeat(20));
    }
}
