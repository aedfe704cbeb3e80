//! Request ids.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::Number;

/// A JSON-RPC request id: a string, a number or `null` (JSON-RPC 2.0 §4).
///
/// A server must answer with exactly the id it received, so this type keeps what it read:
///
/// * **Strings** are kept as they are (after JSON unescaping), so `"abc"` and `"\u0061bc"` are
///   the same id and both are echoed as `"abc"`.
/// * **Integers** are kept exactly over the whole `i64` and `u64` range:
///   `18446744073709551615` comes back as `18446744073709551615`, `-9223372036854775808` as
///   itself.
/// * **Numbers with a fraction or an exponent** (`1.5`, `1e3`) are accepted, although the
///   specification says ids SHOULD NOT have fractional parts, and so are integers outside the
///   `i64`/`u64` range. They are kept as an `f64` and echoed in its shortest round-trip form:
///   `1.5` stays `1.5`, but `1e3` is echoed as `1000.0`, `18446744073709551616` as
///   `1.8446744073709552e+19`, and a decimal with more digits than an `f64` holds loses them.
///   Rejecting such ids would give the client an error with `"id": null` that it could not match
///   to its call, so the lenient choice is the more useful one. A number beyond the `f64` range
///   (`1e400`) is not a usable id: the request is invalid and answered with id `null`.
/// * **`null`** is a valid id for a request. A request *without* an `id` member is a notification,
///   which is a different thing: see [`Incoming`](crate::Incoming).
///
/// `Display` prints the id as JSON (`"abc"`, `7`, `null`).
///
/// ```
/// use a2a_jsonrpc::Id;
///
/// let id: Id = serde_json::from_str("18446744073709551615").unwrap();
/// assert_eq!(id.as_u64(), Some(u64::MAX));
/// assert_eq!(serde_json::to_string(&id).unwrap(), "18446744073709551615");
///
/// assert_eq!(Id::from("req-1").to_string(), r#""req-1""#);
/// assert_eq!(Id::from(7).to_string(), "7");
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
    /// A number, kept exactly for integers in the `i64` and `u64` range.
    Number(Number),
    /// A string.
    String(String),
}

impl Id {
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

    /// The number, if this is a number id that fits an `i64`.
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Self::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    /// The number, if this is a number id that fits a `u64`.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Self::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// The number, if this is a number id.
    #[must_use]
    pub const fn as_number(&self) -> Option<&Number> {
        match self {
            Self::Number(n) => Some(n),
            _ => None,
        }
    }
}

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

impl From<Number> for Id {
    fn from(value: Number) -> Self {
        Self::Number(value)
    }
}

macro_rules! id_from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Id {
            fn from(value: $t) -> Self {
                Self::Number(Number::from(value))
            }
        }
    )*};
}

id_from_integer!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Null => serializer.serialize_unit(),
            Self::Number(n) => n.serialize(serializer),
            Self::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        impl<'de> Visitor<'de> for IdVisitor {
            type Value = Id;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string, a number or null")
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
                Ok(Id::Number(value.into()))
            }

            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Id, E> {
                Ok(Id::Number(value.into()))
            }

            fn visit_f64<E: de::Error>(self, value: f64) -> Result<Id, E> {
                Number::from_f64(value)
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

        deserializer.deserialize_any(IdVisitor)
    }
}

#[cfg(test)]
mod tests {
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
        }
        let id: Id = serde_json::from_str("18446744073709551615").unwrap();
        assert_eq!(id.as_u64(), Some(u64::MAX));
        assert_eq!(id.as_i64(), None);
        let id: Id = serde_json::from_str("-9223372036854775808").unwrap();
        assert_eq!(id.as_i64(), Some(i64::MIN));
    }

    #[test]
    fn fractions_are_kept_as_f64() {
        assert_eq!(round_trip("1.5"), "1.5");
        assert_eq!(round_trip("-0.25"), "-0.25");
        assert_eq!(round_trip("1e3"), "1000.0");
        // Beyond u64: an f64.
        assert_eq!(round_trip("18446744073709551616"), "1.8446744073709552e+19");
        assert!(serde_json::from_str::<Id>("1e400").is_err());
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
        for bad in ["true", "[]", "{}", "[1]"] {
            assert!(serde_json::from_str::<Id>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn display_is_json() {
        assert_eq!(Id::from("a\"b").to_string(), r#""a\"b""#);
        assert_eq!(Id::from(42_u64).to_string(), "42");
        assert_eq!(Id::from(-3).to_string(), "-3");
        assert_eq!(Id::Null.to_string(), "null");
    }

    #[test]
    fn string_and_number_ids_differ() {
        assert_ne!(Id::from("1"), Id::from(1));
        assert_eq!(Id::from(1_u8), Id::from(1_i64));
    }
}
