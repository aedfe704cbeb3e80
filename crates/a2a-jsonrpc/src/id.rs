//! Request ids.

use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;

/// A JSON-RPC request id: a string, a number or `null` (JSON-RPC 2.0 §4).
///
/// A server must answer with exactly the id it received, so this type keeps what it read:
///
/// * **Strings** are kept as they are (after JSON unescaping), so `"abc"` and `"\u0061bc"` are
///   the same id and both are echoed as `"abc"`.
/// * **Numbers** keep the text the client wrote ([`IdNumber`]): `18446744073709551616` (2^64),
///   `12345678901234567890123`, `1.0`, `1e3`, `-0` and even `1e400` come back byte for byte.
///   The specification says ids SHOULD NOT have fractional parts, but rejecting them would give
///   the client an error with `"id": null` that it could not match to its call, so they are
///   accepted and echoed as written.
/// * **`null`** is a valid id for a request. A request *without* an `id` member is a notification,
///   which is a different thing: see [`Incoming`](crate::Incoming).
///
/// Two ids are equal when their JSON text is: `1` and `1.0` are different ids, as they are
/// different spellings a client would match on. `Display` prints the id as JSON (`"abc"`, `7`,
/// `null`).
///
/// Deserializing keeps the number's text with serde_json's deserializers (from a `str`, a slice,
/// a reader or a `Value`). Formats that cannot hand over raw JSON text, such as serde's buffered
/// content in untagged or flattened types, still read every id, but a number then keeps only its
/// decoded value (exact for integers in the `i64`/`u64` range).
///
/// ```
/// use a2a_jsonrpc::Id;
///
/// let id: Id = serde_json::from_str("18446744073709551616").unwrap();
/// assert_eq!(serde_json::to_string(&id).unwrap(), "18446744073709551616");
/// assert_eq!(id.as_u64(), None);
///
/// let id: Id = serde_json::from_str("18446744073709551615").unwrap();
/// assert_eq!(id.as_u64(), Some(u64::MAX));
///
/// assert_eq!(Id::from("req-1").to_string(), r#""req-1""#);
/// assert_eq!(Id::from(7).to_string(), "7");
/// assert_eq!(Id::number("1e3").unwrap().to_string(), "1e3");
/// assert_eq!(Id::Null.to_string(), "null");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[expect(
    clippy::exhaustive_enums,
    reason = "JSON-RPC 2.0 §4 allows exactly these three kinds of id"
)]
pub enum Id {
    /// `null`: the id of responses to unreadable requests, and a (discouraged) request id.
    #[default]
    Null,
    /// A number, as the JSON text the client wrote.
    Number(IdNumber),
    /// A string.
    String(String),
}

impl Id {
    /// A number id from its JSON text (`"7"`, `"1.5"`, `"18446744073709551616"`); `None` when
    /// `text` is not a JSON number (RFC 8259 §6: no `+`, no leading zeros, no bare `.5`, no
    /// surrounding whitespace).
    ///
    /// ```
    /// use a2a_jsonrpc::Id;
    ///
    /// assert_eq!(Id::number("12345678901234567890123").unwrap().to_string(), "12345678901234567890123");
    /// assert_eq!(Id::number("7"), Some(Id::from(7)));
    /// assert_eq!(Id::number("+7"), None);
    /// ```
    #[must_use]
    pub fn number(text: &str) -> Option<Self> {
        IdNumber::parse(text).map(Self::Number)
    }

    /// Whether this is [`Id::Null`].
    #[must_use]
    pub const fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// The string, if this is a string id.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is a number id written as an integer that fits an `i64`.
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(IdNumber::as_i64)
    }

    /// The number, if this is a number id written as an integer that fits a `u64`.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(IdNumber::as_u64)
    }

    /// The number, if this is a number id.
    #[must_use]
    pub const fn as_number(&self) -> Option<&IdNumber> {
        match self {
            Self::Number(n) => Some(n),
            _ => None,
        }
    }

    /// Reads an id from the JSON text of the `id` member: a string, a number or `null`.
    pub(crate) fn from_json(text: &str) -> Option<Self> {
        let text = text.trim_matches([' ', '\t', '\n', '\r']);
        match text.as_bytes().first()? {
            b'"' => serde_json::from_str::<String>(text).ok().map(Self::String),
            b'n' => (text == "null").then_some(Self::Null),
            _ => Self::number(text),
        }
    }
}

/// The number of a number [`Id`], kept as the JSON text the client wrote.
///
/// Integers in the `u64` and `i64` range written the usual way (`7`, `-3`) are held as integers;
/// anything else (`1.0`, `1e3`, `-0`, `18446744073709551616`) as its text. Either way the id
/// serializes as the very text it was read from, compares and hashes by that text, and `Display`
/// prints it.
///
/// ```
/// use a2a_jsonrpc::{Id, IdNumber};
///
/// let n = IdNumber::parse("-0").unwrap();
/// assert_eq!(n.to_string(), "-0");
/// assert_eq!(n.as_i64(), None);
/// assert_eq!(n.as_f64(), Some(-0.0));
/// assert_ne!(n, IdNumber::from(0));
/// assert_eq!(serde_json::to_string(&Id::Number(n)).unwrap(), "-0");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IdNumber(Repr);

impl fmt::Debug for IdNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IdNumber({self})")
    }
}

/// Invariant: a `Text` is never the canonical spelling of a `u64` or a negative `i64`, so that
/// equal texts always have equal representations and the derived `Eq` and `Hash` go by text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Repr {
    U64(u64),
    /// Negative only.
    I64(i64),
    Text(Text),
}

/// Validated JSON number text.
#[derive(Debug, Clone)]
struct Text(Box<RawValue>);

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Eq for Text {}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.get().hash(state);
    }
}

impl IdNumber {
    /// The number of this JSON text (`"7"`, `"1.5"`, `"1e400"`); `None` when `text` is not a JSON
    /// number (RFC 8259 §6).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        if !is_json_number(text.as_bytes()) {
            return None;
        }
        if let Some(integer) = canonical_integer(text) {
            return Some(integer);
        }
        RawValue::from_string(text.to_owned())
            .ok()
            .map(|raw| Self(Repr::Text(Text(raw))))
    }

    /// The number of an `f64`, in its shortest round-trip spelling (`1.5`, `1e300`); `None` for
    /// NaN and the infinities, which JSON cannot spell.
    #[must_use]
    pub fn from_f64(value: f64) -> Option<Self> {
        serde_json::Number::from_f64(value).and_then(|n| Self::parse(&n.to_string()))
    }

    /// The value, if the number is written as an integer that fits an `i64`.
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            Repr::U64(n) => i64::try_from(n).ok(),
            Repr::I64(n) => Some(n),
            Repr::Text(_) => None,
        }
    }

    /// The value, if the number is written as an integer that fits a `u64`.
    #[must_use]
    pub const fn as_u64(&self) -> Option<u64> {
        match self.0 {
            Repr::U64(n) => Some(n),
            Repr::I64(_) | Repr::Text(_) => None,
        }
    }

    /// The nearest `f64`; `None` when the number is beyond the `f64` range (`1e400`).
    #[must_use]
    #[expect(
        clippy::cast_precision_loss,
        reason = "the nearest f64 is what this function promises"
    )]
    pub fn as_f64(&self) -> Option<f64> {
        match &self.0 {
            Repr::U64(n) => Some(*n as f64),
            Repr::I64(n) => Some(*n as f64),
            Repr::Text(text) => text.0.get().parse::<f64>().ok().filter(|f| f.is_finite()),
        }
    }

    /// Whether the number is written as an integer in the `u64` or `i64` range.
    #[must_use]
    pub const fn is_integer(&self) -> bool {
        !matches!(self.0, Repr::Text(_))
    }
}

/// The integer representation of `text` (a valid JSON number) when `text` is its canonical
/// spelling.
fn canonical_integer(text: &str) -> Option<IdNumber> {
    if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) || text == "-0" {
        return None;
    }
    // JSON has no `+` and no leading zeros, so a parsed integer prints back as `text`.
    if text.starts_with('-') {
        text.parse::<i64>().ok().map(|n| IdNumber(Repr::I64(n)))
    } else {
        text.parse::<u64>().ok().map(|n| IdNumber(Repr::U64(n)))
    }
}

/// Whether `bytes` is exactly a JSON number:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_json_number(bytes: &[u8]) -> bool {
    fn digits(bytes: &[u8], at: &mut usize) -> usize {
        let start = *at;
        while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    }
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => {
            digits(bytes, &mut at);
        }
        _ => return false,
    }
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        if digits(bytes, &mut at) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(bytes, &mut at) == 0 {
            return false;
        }
    }
    at == bytes.len()
}

impl fmt::Display for IdNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::U64(n) => fmt::Display::fmt(n, f),
            Repr::I64(n) => fmt::Display::fmt(n, f),
            Repr::Text(text) => f.write_str(text.0.get()),
        }
    }
}

impl Serialize for IdNumber {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::U64(n) => serializer.serialize_u64(*n),
            Repr::I64(n) => serializer.serialize_i64(*n),
            // serde_json writes raw text as it is.
            Repr::Text(text) => text.0.serialize(serializer),
        }
    }
}

impl From<serde_json::Number> for IdNumber {
    fn from(value: serde_json::Number) -> Self {
        if let Some(n) = value.as_u64() {
            Self(Repr::U64(n))
        } else if let Some(n) = value.as_i64() {
            Self(Repr::I64(n))
        } else {
            // A `Number` that is not an integer is a finite `f64`, and its `Display` is valid JSON,
            // so the fallback is never taken; it keeps this conversion free of panics.
            Self::parse(&value.to_string()).unwrap_or(Self(Repr::U64(0)))
        }
    }
}

macro_rules! number_from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for IdNumber {
            fn from(value: $t) -> Self {
                match u64::try_from(value) {
                    Ok(n) => Self(Repr::U64(n)),
                    // Negative, so within i64 for every type listed.
                    Err(_) => Self(Repr::I64(i64::try_from(value).unwrap_or(i64::MIN))),
                }
            }
        }

        impl From<$t> for Id {
            fn from(value: $t) -> Self {
                Self::Number(IdNumber::from(value))
            }
        }
    )*};
}

number_from_integer!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Null => f.write_str("null"),
            Self::Number(n) => fmt::Display::fmt(n, f),
            // A string always serializes; the fallback only keeps this function panic-free.
            Self::String(s) => match serde_json::to_string(s) {
                Ok(quoted) => f.write_str(&quoted),
                Err(_) => write!(f, "{s:?}"),
            },
        }
    }
}

impl From<String> for Id {
    fn from(value: String) -> Self {
        Self::String(value)
    }
}

impl From<&str> for Id {
    fn from(value: &str) -> Self {
        Self::String(value.to_owned())
    }
}

impl From<IdNumber> for Id {
    fn from(value: IdNumber) -> Self {
        Self::Number(value)
    }
}

impl From<serde_json::Number> for Id {
    fn from(value: serde_json::Number) -> Self {
        Self::Number(value.into())
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => serializer.serialize_unit(),
            Self::Number(n) => n.serialize(serializer),
            Self::String(s) => serializer.serialize_str(s),
        }
    }
}

/// The name under which serde_json hands out a value's raw text: `Box<RawValue>` asks for it with
/// `deserialize_newtype_struct`, and serde_json answers with a one-entry map from this name to
/// the text. A test checks that serde_json still uses it.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";
/// The same for a number's text when serde_json's `arbitrary_precision` feature is on.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Deserializes an id keeping a number's text (see [`Id`]).
///
/// The id asks for its raw JSON text the way `Box<RawValue>` does. serde_json's deserializers
/// answer with the text; others call `visit_newtype_struct`, and the id is then read from the
/// decoded value.
impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, IdVisitor)
    }
}

struct IdVisitor;

const EXPECTED: &str = "a string, a number or null";

impl<'de> Visitor<'de> for IdVisitor {
    type Value = Id;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Id, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Id, A::Error> {
        match map.next_key::<TokenKey>()? {
            Some(TokenKey::Raw) => map.next_value_seed(TextSeed(Id::from_json)),
            Some(TokenKey::Number) => map.next_value_seed(TextSeed(Id::number)),
            Some(TokenKey::Other) | None => {
                Err(de::Error::invalid_type(de::Unexpected::Map, &self))
            }
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<Id, E> {
        Ok(Id::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Id, E> {
        Ok(Id::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Id, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Id, E> {
        Ok(Id::from(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Id, E> {
        Ok(Id::from(value))
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Id, E> {
        Id::number(&value.to_string()).ok_or_else(|| E::custom("unreachable: u128 text"))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Id, E> {
        Id::number(&value.to_string()).ok_or_else(|| E::custom("unreachable: i128 text"))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Id, E> {
        IdNumber::from_f64(value)
            .map(Id::Number)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Float(value), &self))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Id, E> {
        Ok(Id::String(value.to_owned()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Id, E> {
        Ok(Id::String(value))
    }
}

/// The key of serde_json's raw-text map.
enum TokenKey {
    Raw,
    Number,
    Other,
}

impl<'de> Deserialize<'de> for TokenKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl Visitor<'_> for KeyVisitor {
            type Value = TokenKey;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<TokenKey, E> {
                Ok(match key {
                    RAW_VALUE_TOKEN => TokenKey::Raw,
                    NUMBER_TOKEN => TokenKey::Number,
                    _ => TokenKey::Other,
                })
            }
        }

        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// Reads the text of serde_json's raw-text map with `read`.
struct TextSeed(fn(&str) -> Option<Id>);

impl<'de> DeserializeSeed<'de> for TextSeed {
    type Value = Id;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Id, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for TextSeed {
    type Value = Id;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON text")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Id, E> {
        (self.0)(text).ok_or_else(|| E::invalid_type(unexpected(text), &IdVisitor))
    }
}

/// What a JSON text that is not an id is, for the error message.
fn unexpected(text: &str) -> de::Unexpected<'static> {
    match text.trim_start().as_bytes().first() {
        Some(b'{') => de::Unexpected::Map,
        Some(b'[') => de::Unexpected::Seq,
        Some(b't' | b'f') => de::Unexpected::Other("a boolean"),
        _ => de::Unexpected::Other("other JSON"),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use serde::de::value::{Error as ValueError, MapDeserializer};
    use serde::forward_to_deserialize_any;

    use super::*;

    fn round_trip(json: &str) -> String {
        let id: Id = serde_json::from_str(json).unwrap();
        serde_json::to_string(&id).unwrap()
    }

    #[test]
    fn integers_are_exact() {
        for json in [
            "0",
            "1",
            "-1",
            "9007199254740993", // 2^53 + 1: not representable as f64
            "18446744073709551615",
            "-9223372036854775808",
            "9223372036854775807",
        ] {
            assert_eq!(round_trip(json), json);
            assert!(Id::number(json).unwrap().as_number().unwrap().is_integer());
        }
        let id: Id = serde_json::from_str("18446744073709551615").unwrap();
        assert_eq!(id.as_u64(), Some(u64::MAX));
        assert_eq!(id.as_i64(), None);
        let id: Id = serde_json::from_str("-9223372036854775808").unwrap();
        assert_eq!(id.as_i64(), Some(i64::MIN));
        assert_eq!(id.as_u64(), None);
    }

    #[test]
    fn every_number_keeps_its_text() {
        for json in [
            "18446744073709551616",
            "12345678901234567890123",
            "-9223372036854775809",
            "1.0",
            "1e3",
            "1E3",
            "1e+3",
            "1.5e-7",
            "-0",
            "-0.0",
            "0.10",
            "1e400",
            "-1e-400",
        ] {
            assert_eq!(round_trip(json), json);
            assert_eq!(round_trip(&format!(" {json}\n")), json);
            let id = Id::number(json).unwrap();
            assert_eq!(id.to_string(), json);
            assert_eq!(serde_json::to_string(&id).unwrap(), json);
            assert!(!id.as_number().unwrap().is_integer(), "{json}");
            assert_eq!(id.as_u64(), None);
            assert_eq!(id.as_i64(), None);
        }
    }

    #[test]
    fn number_grammar() {
        for bad in [
            "", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "1.e3", " 1", "1 ", "0x10", "NaN",
            "Infinity", "1_000", "١",
        ] {
            assert_eq!(IdNumber::parse(bad), None, "{bad:?}");
        }
        for good in ["0", "-0", "0.0", "0e0", "10", "-10.25E-02"] {
            assert!(IdNumber::parse(good).is_some(), "{good:?}");
        }
    }

    #[test]
    fn numbers_as_f64() {
        assert_eq!(IdNumber::parse("1e3").unwrap().as_f64(), Some(1000.0));
        assert_eq!(IdNumber::parse("-2").unwrap().as_f64(), Some(-2.0));
        assert_eq!(IdNumber::parse("7").unwrap().as_f64(), Some(7.0));
        assert_eq!(IdNumber::parse("1e400").unwrap().as_f64(), None);
        assert_eq!(IdNumber::from_f64(1.5).unwrap().to_string(), "1.5");
        assert_eq!(IdNumber::from_f64(f64::NAN), None);
        assert_eq!(IdNumber::from_f64(f64::INFINITY), None);
    }

    #[test]
    fn equality_and_hash_go_by_text() {
        let set: HashSet<Id> = ["1", "1.0", "1e0", "-0", "0", "18446744073709551616"]
            .into_iter()
            .map(|t| Id::number(t).unwrap())
            .collect();
        assert_eq!(set.len(), 6);
        assert_eq!(Id::number("7"), Some(Id::from(7_u8)));
        assert_eq!(Id::number("-7"), Some(Id::from(-7_i64)));
        assert_eq!(Id::from(1_u8), Id::from(1_i64));
        assert_ne!(Id::from("1"), Id::from(1));
        assert_eq!(
            Id::from(serde_json::Number::from_f64(0.5).unwrap()),
            Id::number("0.5").unwrap()
        );
        assert_eq!(Id::from(serde_json::Number::from(-3)), Id::from(-3));
    }

    #[test]
    fn strings_and_null() {
        assert_eq!(round_trip(r#""abc""#), r#""abc""#);
        assert_eq!(round_trip(r#""\u0061bc""#), r#""abc""#);
        assert_eq!(round_trip(r#""""#), r#""""#);
        assert_eq!(round_trip("null"), "null");
        let id: Id = serde_json::from_str(r#""x""#).unwrap();
        assert_eq!(id.as_str(), Some("x"));
        assert!(Id::Null.is_null());
    }

    #[test]
    fn other_types_are_rejected() {
        for (bad, message) in [
            (
                "true",
                "invalid type: a boolean, expected a string, a number or null",
            ),
            (
                "[]",
                "invalid type: sequence, expected a string, a number or null",
            ),
            (
                "{}",
                "invalid type: map, expected a string, a number or null",
            ),
            (
                "[1]",
                "invalid type: sequence, expected a string, a number or null",
            ),
        ] {
            let error = serde_json::from_str::<Id>(bad).unwrap_err();
            assert!(error.to_string().starts_with(message), "{bad}: {error}");
        }
    }

    #[test]
    fn from_reader_and_value_keep_the_text() {
        let id: Id = serde_json::from_reader(&b"1.50"[..]).unwrap();
        assert_eq!(id.to_string(), "1.50");
        let id: Id = serde_json::from_value(serde_json::json!(u64::MAX)).unwrap();
        assert_eq!(id.as_u64(), Some(u64::MAX));
        let id: Id = serde_json::from_value(serde_json::json!("s")).unwrap();
        assert_eq!(id, Id::from("s"));
    }

    #[test]
    fn untagged_content_reads_the_value() {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Either {
            Call { id: Id },
        }
        let Either::Call { id } = serde_json::from_str(r#"{"id":7}"#).unwrap();
        assert_eq!(id, Id::from(7));
        let Either::Call { id } = serde_json::from_str(r#"{"id":"s"}"#).unwrap();
        assert_eq!(id, Id::from("s"));
        let Either::Call { id } = serde_json::from_str(r#"{"id":null}"#).unwrap();
        assert_eq!(id, Id::Null);
        let Either::Call { id } = serde_json::from_str(r#"{"id":1.5}"#).unwrap();
        assert_eq!(id.to_string(), "1.5");
        assert!(serde_json::from_str::<Either>(r#"{"id":{}}"#).is_err());
    }

    #[test]
    fn token_maps_from_other_deserializers() {
        let read = |key: &'static str, value: &'static str| {
            let map = MapDeserializer::<_, ValueError>::new([(key, value)].into_iter());
            Id::deserialize(map)
        };
        assert_eq!(read(RAW_VALUE_TOKEN, "1e3").unwrap().to_string(), "1e3");
        assert_eq!(read(RAW_VALUE_TOKEN, r#""s""#).unwrap(), Id::from("s"));
        assert!(read(RAW_VALUE_TOKEN, "true").is_err());
        assert_eq!(read(NUMBER_TOKEN, "1e3").unwrap().to_string(), "1e3");
        assert!(read(NUMBER_TOKEN, r#""s""#).is_err());
        assert!(read("other", "1").is_err());
    }

    /// Records the name `Box<RawValue>` passes to `deserialize_newtype_struct`.
    struct NameRecorder<'a>(&'a mut Option<&'static str>);

    impl<'de> Deserializer<'de> for NameRecorder<'_> {
        type Error = ValueError;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ValueError> {
            Err(de::Error::custom("not recorded"))
        }

        fn deserialize_newtype_struct<V: Visitor<'de>>(
            self,
            name: &'static str,
            _: V,
        ) -> Result<V::Value, ValueError> {
            *self.0 = Some(name);
            Err(de::Error::custom("recorded"))
        }

        forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
        }
    }

    #[test]
    fn serde_json_still_uses_the_raw_value_token() {
        let mut name = None;
        assert!(Box::<RawValue>::deserialize(NameRecorder(&mut name)).is_err());
        assert_eq!(name, Some(RAW_VALUE_TOKEN));
    }

    #[test]
    fn display_is_json() {
        assert_eq!(Id::from("a\"b").to_string(), r#""a\"b""#);
        assert_eq!(Id::from(42_u64).to_string(), "42");
        assert_eq!(Id::from(-3).to_string(), "-3");
        assert_eq!(Id::from(i64::MIN).to_string(), "-9223372036854775808");
        assert_eq!(Id::Null.to_string(), "null");
    }
}
