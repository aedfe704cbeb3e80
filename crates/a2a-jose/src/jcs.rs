//! The JSON Canonicalization Scheme (JCS, RFC 8785): one exact text for a JSON value, so that a
//! signer and a verifier that parse and re-serialize a document with different JSON libraries
//! still sign and check the same bytes.
//!
//! * No whitespace; object members sorted by their names as UTF-16 code units (§3.2.3).
//! * Strings: only `"`, `\` and the control characters below U+0020 are escaped (`\b`, `\t`,
//!   `\n`, `\f`, `\r`, else `\u00xx` in lowercase hex); everything else is written as its UTF-8.
//! * Numbers: the IEEE 754 double the number denotes, written as ECMAScript's
//!   `Number.prototype.toString` writes it (§3.2.2.3): the shortest digits that round-trip,
//!   exponent form from `1e+21` up and below `1e-6`, `-0` as `0`. An integer beyond 2^53 is
//!   rounded to its double, as the RFC prescribes.
//!
//! ```
//! let value: serde_json::Value = serde_json::from_str(r#"{"b": [1.50, 1e30], "a": "é"}"#).unwrap();
//! assert_eq!(a2a_jose::jcs::to_vec(&value), "{\"a\":\"é\",\"b\":[1.5,1e+30]}".as_bytes());
//! ```

use serde_json::Value;

/// The canonical UTF-8 bytes of `value`.
pub fn to_vec(value: &Value) -> Vec<u8> {
    let mut out = String::new();
    write_value(&mut out, value);
    out.into_bytes()
}

/// The canonical text of `value`.
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// A number as ECMAScript writes it (RFC 8785 §3.2.2.3). `None` for NaN and the infinities,
/// which JSON cannot carry.
///
/// ```
/// assert_eq!(a2a_jose::jcs::number(1e21).as_deref(), Some("1e+21"));
/// assert_eq!(a2a_jose::jcs::number(0.000001).as_deref(), Some("0.000001"));
/// assert_eq!(a2a_jose::jcs::number(-0.0).as_deref(), Some("0"));
/// assert_eq!(a2a_jose::jcs::number(f64::NAN), None);
/// ```
pub fn number(value: f64) -> Option<String> {
    if !value.is_finite() {
        return None;
    }
    if value == 0.0 {
        return Some("0".to_owned());
    }
    // Rust's `{:e}` writes the shortest digits that round-trip: `d[.ddd]e[-]x`.
    let scientific = format!("{:e}", value.abs());
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always writes an exponent");
    let mut digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i32 = exponent.parse().expect("`{:e}` writes an integer exponent");
    if let Some(even) = even_tie(value.abs(), &digits, exponent) {
        digits = even;
    }
    let k = i32::try_from(digits.len()).expect("a double has at most 17 digits");
    // ECMAScript's n: the value is digits × 10^(n − k).
    let n = exponent + 1;
    let mut out = String::with_capacity(32);
    if value < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if n - 1 < 0 { '-' } else { '+' });
        out.push_str(&(n - 1).abs().to_string());
    }
    Some(out)
}

/// ECMAScript's tie rule: when the double lies exactly halfway between two shortest digit
/// strings that both read back as it, the even one is written (`1424953923781206.25` is
/// `1424953923781206.2`); Rust's formatter rounds such a tie up. `None` when there is no tie,
/// or Rust already chose the even one.
fn even_tie(value: f64, digits: &str, exponent: i32) -> Option<String> {
    // Every double has a finite decimal expansion of at most 767 significant digits; 800
    // digits after the point of `{:e}` are exact.
    let exact = format!("{value:.800e}");
    let (mantissa, exact_exponent) = exact.split_once('e')?;
    if exact_exponent.parse::<i32>().ok()? != exponent {
        return None;
    }
    let exact_digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len();
    let rest = exact_digits.get(k..)?;
    if !(rest.starts_with('5') && rest[1..].bytes().all(|b| b == b'0')) {
        return None;
    }
    let lower = &exact_digits[..k];
    let upper = increment(lower)?;
    let even = if lower.bytes().last()? % 2 == 0 {
        lower.to_owned()
    } else {
        upper
    };
    let reads_back = format!("{}.{}e{exponent}", &even[..1], &even[1..])
        .parse::<f64>()
        .is_ok_and(|v| v == value);
    (even != digits && reads_back).then_some(even)
}

/// `digits` + 1 in its last place, of the same length; `None` when it would carry out.
fn increment(digits: &str) -> Option<String> {
    let mut bytes = digits.as_bytes().to_vec();
    for byte in bytes.iter_mut().rev() {
        if *byte == b'9' {
            *byte = b'0';
        } else {
            *byte += 1;
            return String::from_utf8(bytes).ok();
        }
    }
    None
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => {
            // Every serde_json number is finite; integers beyond 2^53 round to their double.
            let double = n.as_f64().unwrap_or_default();
            out.push_str(&number(double).unwrap_or_else(|| "0".to_owned()));
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
            sorted.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, (name, item)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, name);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if u32::from(c) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    /// RFC 8785 Appendix B: IEEE 754 doubles (as bit patterns) and their canonical text.
    #[test]
    fn rfc8785_appendix_b_numbers() {
        let vectors: [(u64, Option<&str>); 26] = [
            (0x0000000000000000, Some("0")),
            (0x8000000000000000, Some("0")),
            (0x0000000000000001, Some("5e-324")),
            (0x8000000000000001, Some("-5e-324")),
            (0x7fefffffffffffff, Some("1.7976931348623157e+308")),
            (0xffefffffffffffff, Some("-1.7976931348623157e+308")),
            (0x4340000000000000, Some("9007199254740992")),
            (0xc340000000000000, Some("-9007199254740992")),
            (0x4430000000000000, Some("295147905179352830000")),
            (0x7fffffffffffffff, None),
            (0x7ff0000000000000, None),
            (0x44b52d02c7e14af5, Some("9.999999999999997e+22")),
            (0x44b52d02c7e14af6, Some("1e+23")),
            (0x44b52d02c7e14af7, Some("1.0000000000000001e+23")),
            (0x444b1ae4d6e2ef4e, Some("999999999999999700000")),
            (0x444b1ae4d6e2ef4f, Some("999999999999999900000")),
            (0x444b1ae4d6e2ef50, Some("1e+21")),
            (0x3eb0c6f7a0b5ed8c, Some("9.999999999999997e-7")),
            (0x3eb0c6f7a0b5ed8d, Some("0.000001")),
            (0x41b3de4355555553, Some("333333333.3333332")),
            (0x41b3de4355555554, Some("333333333.33333325")),
            (0x41b3de4355555555, Some("333333333.3333333")),
            (0x41b3de4355555556, Some("333333333.3333334")),
            (0x41b3de4355555557, Some("333333333.33333343")),
            (0xbecbf647612f3696, Some("-0.0000033333333333333333")),
            (0x43143ff3c1cb0959, Some("1424953923781206.2")),
        ];
        for (bits, expected) in vectors {
            assert_eq!(
                number(f64::from_bits(bits)).as_deref(),
                expected,
                "{bits:#018x}"
            );
        }
    }

    /// RFC 8785 §3.2.2 (input) and §3.2.4 (its canonical UTF-8 bytes).
    #[test]
    fn rfc8785_main_example() {
        let input = r#"{
          "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
          "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
          "literals": [null, true, false]
        }"#;
        let value: Value = serde_json::from_str(input).unwrap();
        let expected: &[u8] = &[
            0x7b, 0x22, 0x6c, 0x69, 0x74, 0x65, 0x72, 0x61, 0x6c, 0x73, 0x22, 0x3a, 0x5b, 0x6e,
            0x75, 0x6c, 0x6c, 0x2c, 0x74, 0x72, 0x75, 0x65, 0x2c, 0x66, 0x61, 0x6c, 0x73, 0x65,
            0x5d, 0x2c, 0x22, 0x6e, 0x75, 0x6d, 0x62, 0x65, 0x72, 0x73, 0x22, 0x3a, 0x5b, 0x33,
            0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x2e, 0x33, 0x33, 0x33, 0x33, 0x33,
            0x33, 0x33, 0x2c, 0x31, 0x65, 0x2b, 0x33, 0x30, 0x2c, 0x34, 0x2e, 0x35, 0x2c, 0x30,
            0x2e, 0x30, 0x30, 0x32, 0x2c, 0x31, 0x65, 0x2d, 0x32, 0x37, 0x5d, 0x2c, 0x22, 0x73,
            0x74, 0x72, 0x69, 0x6e, 0x67, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0xac, 0x24, 0x5c, 0x75,
            0x30, 0x30, 0x30, 0x66, 0x5c, 0x6e, 0x41, 0x27, 0x42, 0x5c, 0x22, 0x5c, 0x5c, 0x5c,
            0x5c, 0x5c, 0x22, 0x2f, 0x22, 0x7d,
        ];
        assert_eq!(to_vec(&value), expected);
        assert_eq!(
            to_string(&value),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    /// RFC 8785 §3.2.3: members sorted by UTF-16 code units (the emoji's surrogates sort
    /// before U+FB33, although its code point is larger).
    #[test]
    fn rfc8785_sorting_example() {
        let input = r#"{
          "\u20ac": "Euro Sign",
          "\r": "Carriage Return",
          "\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\ud83d\ude00": "Emoji: Grinning Face",
          "\u0080": "Control",
          "\u00f6": "Latin Small Letter O With Diaeresis"
        }"#;
        let value: Value = serde_json::from_str(input).unwrap();
        assert_eq!(
            to_string(&value),
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
             \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
             \"\u{1f600}\":\"Emoji: Grinning Face\",\
             \"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
        );
    }

    #[test]
    fn unicode_is_written_as_utf8_and_controls_escaped() {
        let value = serde_json::json!({"s": "\u{0}\u{1f}\u{7f}\u{2028}/é😀\u{8}\u{c}\t"});
        assert_eq!(
            to_vec(&value),
            b"{\"s\":\"\\u0000\\u001f\x7f\xe2\x80\xa8/\xc3\xa9\xf0\x9f\x98\x80\\b\\f\\t\"}"
        );
    }

    #[test]
    fn integers_and_nesting() {
        let value: Value = serde_json::from_str(
            r#"{"z": {"b": [], "a": {}}, "n": [-1, 0, 10, 100000000000000000000000, 18446744073709551615, -9223372036854775808]}"#,
        )
        .unwrap();
        assert_eq!(
            to_string(&value),
            r#"{"n":[-1,0,10,1e+23,18446744073709552000,-9223372036854776000],"z":{"a":{},"b":[]}}"#
        );
    }
}
