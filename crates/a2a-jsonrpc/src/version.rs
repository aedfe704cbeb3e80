//! The `"jsonrpc": "2.0"` member.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

/// The JSON-RPC version tag, the member `"jsonrpc": "2.0"` of every request and response.
///
/// It serializes as the string `"2.0"` and deserializes from exactly that string; anything else
/// (`"1.0"`, `2.0`, `"2"`) is an error. A value of this type is therefore a proof that the tag was
/// right.
///
/// ```
/// use a2a_jsonrpc::JsonRpcVersion;
///
/// assert_eq!(serde_json::to_string(&JsonRpcVersion).unwrap(), r#""2.0""#);
/// assert!(serde_json::from_str::<JsonRpcVersion>(r#""2.0""#).is_ok());
/// assert!(serde_json::from_str::<JsonRpcVersion>(r#""1.0""#).is_err());
/// assert!(serde_json::from_str::<JsonRpcVersion>("2.0").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[expect(
    clippy::exhaustive_structs,
    reason = "a unit marker: JSON-RPC 2.0 has exactly one version string"
)]
pub struct JsonRpcVersion;

impl JsonRpcVersion {
    /// The only accepted value of the `jsonrpc` member.
    pub const AS_STR: &'static str = "2.0";

    /// Returns `"2.0"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        Self::AS_STR
    }
}

impl fmt::Display for JsonRpcVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::AS_STR)
    }
}

impl Serialize for JsonRpcVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(Self::AS_STR)
    }
}

impl<'de> Deserialize<'de> for JsonRpcVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TagVisitor;

        impl Visitor<'_> for TagVisitor {
            type Value = JsonRpcVersion;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"the string "2.0""#)
            }

            fn visit_str<E: de::Error>(self, value: &str) -> Result<JsonRpcVersion, E> {
                if value == JsonRpcVersion::AS_STR {
                    Ok(JsonRpcVersion)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(value), &self))
                }
            }
        }

        deserializer.deserialize_str(TagVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_only_two_point_zero() {
        assert_eq!(
            serde_json::from_str::<JsonRpcVersion>(r#""2.0""#).unwrap(),
            JsonRpcVersion
        );
        // An escaped spelling of the same string is the same string.
        assert!(serde_json::from_str::<JsonRpcVersion>(r#""\u0032.0""#).is_ok());
        for bad in [r#""1.0""#, r#""2.0 ""#, r#""2""#, "2.0", "2", "null", "[]"] {
            assert!(
                serde_json::from_str::<JsonRpcVersion>(bad).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn serializes_as_string() {
        assert_eq!(serde_json::to_string(&JsonRpcVersion).unwrap(), r#""2.0""#);
        assert_eq!(JsonRpcVersion.to_string(), "2.0");
        assert_eq!(JsonRpcVersion.as_str(), "2.0");
    }
}
