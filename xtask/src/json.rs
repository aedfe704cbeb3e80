//! A small JSON reader for what cargo prints (`cargo metadata`, `--message-format json`), so that
//! the xtask binary needs no dependency and builds in a second or two on a fresh clone.
//!
//! It reads RFC 8259 JSON into a [`Value`]: strings with every escape (surrogate pairs too),
//! numbers kept as their text, objects as ordered key/value lists. Nesting is capped at
//! [`MAX_DEPTH`], so hostile input gets an error, not a stack overflow.

/// How deep arrays and objects may nest.
pub const MAX_DEPTH: usize = 128;

/// A JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as it was written.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, its members in document order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object (the last one, as most readers do, when repeated).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|m| &m.1),
            _ => None,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Parses one JSON document; `Err` names what is wrong and the byte offset.
pub fn parse(text: &str) -> Result<Value, String> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
    };
    parser.whitespace();
    let value = parser.value(0)?;
    parser.whitespace();
    if parser.at != parser.bytes.len() {
        return Err(parser.error("trailing characters after the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("invalid JSON at byte {}: {what}", self.at)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{}`", char::from(byte))))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        match self.peek() {
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn nested(&self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            Err(self.error(&format!("nested deeper than {MAX_DEPTH}")))
        } else {
            Ok(())
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, String> {
        let mut members = Vec::new();
        self.items(depth, b'}', |parser| {
            if parser.peek() != Some(b'"') {
                return Err(parser.error("expected a member name"));
            }
            let key = parser.string()?;
            parser.whitespace();
            parser.expect(b':')?;
            parser.whitespace();
            members.push((key, parser.value(depth)?));
            Ok(())
        })?;
        Ok(Value::Object(members))
    }

    fn array(&mut self, depth: usize) -> Result<Value, String> {
        let mut items = Vec::new();
        self.items(depth, b']', |parser| {
            items.push(parser.value(depth)?);
            Ok(())
        })?;
        Ok(Value::Array(items))
    }

    /// The items of an array or object, its opening bracket at hand: `item` reads one (at its
    /// first character), until `close`.
    fn items(
        &mut self,
        depth: usize,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        self.nested(depth)?;
        self.at += 1;
        self.whitespace();
        if self.peek() == Some(close) {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.whitespace();
            item(self)?;
            self.whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(byte) if byte == close => {
                    self.at += 1;
                    return Ok(());
                }
                _ => {
                    return Err(self.error(&format!("expected `,` or `{}`", char::from(close))));
                }
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let first = self.peek();
        let int = self.digits();
        if int == 0 || (first == Some(b'0') && int > 1) {
            return Err(self.error("malformed number"));
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("malformed number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("malformed number"));
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).expect("ASCII digits");
        Ok(Value::Number(text.to_owned()))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let hex = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.error("`\\u` needs four hex digits"))?;
        self.at += 4;
        Ok(hex)
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.at;
            while !matches!(self.peek(), Some(b'"' | b'\\' | 0..=0x1f) | None) {
                self.at += 1;
            }
            // The input is a &str and we stop only at ASCII bytes, so this is whole UTF-8.
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).expect("UTF-8"));
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escape = self.peek().ok_or_else(|| self.error("unfinished escape"))?;
                    self.at += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => out.push(self.unicode_escape()?),
                        _ => return Err(self.error("unknown escape")),
                    }
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    /// The character of a `\uXXXX` escape (the `\u` read), joining a surrogate pair.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if !self.bytes[self.at..].starts_with(b"\\u") {
                return Err(self.error("a high surrogate must be followed by a low one"));
            }
            self.at += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("a high surrogate must be followed by a low one"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("a lone surrogate is not a character"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::String(text.to_owned())
    }

    #[test]
    fn reads_cargo_metadata_shapes() {
        let text = r#"{"packages":[{"name":"x","metadata":{"target_directory":"nope"}}],
            "target_directory":"/t/a b","version":1,"workspace_root":"/w\/r","metadata":null}"#;
        let doc = parse(text).unwrap();
        assert_eq!(doc.get("target_directory"), Some(&s("/t/a b")));
        assert_eq!(
            doc.get("workspace_root").and_then(Value::as_str),
            Some("/w/r")
        );
        assert_eq!(doc.get("version"), Some(&Value::Number("1".to_owned())));
        assert_eq!(doc.get("metadata"), Some(&Value::Null));
        assert_eq!(doc.get("missing"), None);
    }

    #[test]
    fn unescapes_strings() {
        assert_eq!(
            parse(r#""a\"b\\c\n\t\u00e9\ud83d\ude00é""#).unwrap(),
            s("a\"b\\c\n\té😀é")
        );
    }

    #[test]
    fn reads_every_kind_of_value() {
        assert_eq!(
            parse(" [true, false, null, -1.5e+3, 0, {}, []] ").unwrap(),
            Value::Array(vec![
                Value::Bool(true),
                Value::Bool(false),
                Value::Null,
                Value::Number("-1.5e+3".to_owned()),
                Value::Number("0".to_owned()),
                Value::Object(vec![]),
                Value::Array(vec![]),
            ])
        );
    }

    #[test]
    fn bad_input_gets_an_error_naming_the_problem() {
        for (text, error) in [
            ("", "invalid JSON at byte 0: unexpected end of input"),
            ("{\"a\" 1}", "invalid JSON at byte 5: expected `:`"),
            ("[1,]", "invalid JSON at byte 3: expected a value"),
            ("[1 2]", "invalid JSON at byte 3: expected `,` or `]`"),
            ("{1:2}", "invalid JSON at byte 1: expected a member name"),
            ("\"abc", "invalid JSON at byte 4: unterminated string"),
            (
                "\"a\nb\"",
                "invalid JSON at byte 2: control character in a string",
            ),
            ("\"\\x\"", "invalid JSON at byte 3: unknown escape"),
            (
                "\"\\u12\"",
                "invalid JSON at byte 3: `\\u` needs four hex digits",
            ),
            (
                "\"\\ud800x\"",
                "invalid JSON at byte 7: a high surrogate must be followed by a low one",
            ),
            (
                "\"\\udc00\"",
                "invalid JSON at byte 7: a lone surrogate is not a character",
            ),
            ("01", "invalid JSON at byte 2: malformed number"),
            ("1.", "invalid JSON at byte 2: malformed number"),
            ("-", "invalid JSON at byte 1: malformed number"),
            ("tru", "invalid JSON at byte 0: expected a value"),
            (
                "{} x",
                "invalid JSON at byte 3: trailing characters after the JSON value",
            ),
        ] {
            assert_eq!(parse(text), Err(error.to_owned()), "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let deep = "[".repeat(100_000);
        assert_eq!(
            parse(&deep),
            Err(format!(
                "invalid JSON at byte {MAX_DEPTH}: nested deeper than {MAX_DEPTH}"
            ))
        );
    }
}
