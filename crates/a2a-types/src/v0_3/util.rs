//! Helpers of the 0.3 serde code: unions decoded from a buffered object, base64 fields.

use serde::de::{self, DeserializeOwned};
use serde_json::{Map, Value};

/// A JSON object, as `metadata`, `params` and `DataPart.data` carry it.
pub(crate) type Object = Map<String, Value>;

/// Decodes `T` from a buffered value; an error inside it names the inner path
/// (`file.bytes: invalid base64 ...`), since the outer path stops at the buffered value.
pub(crate) fn from_value<T: DeserializeOwned, E: de::Error>(value: Value) -> Result<T, E> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if path == "." {
            E::custom(inner)
        } else {
            E::custom(format_args!("{path}: {inner}"))
        }
    })
}

/// The `kind` (or `type`) tag of a buffered union member, if it has a string one.
pub(crate) fn tag<'a>(object: &'a Object, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

/// Base64 fields (`FileWithBytes.bytes`): standard alphabet with padding out; standard or
/// URL-safe, padded or not, in.
pub(crate) mod base64_field {
    use serde::Serializer;
    use serde::de::{self, Deserialize as _, Deserializer};

    use crate::serde_util::base64_bytes;

    pub(crate) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64_bytes::encode(bytes))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        base64_bytes::decode(&text).map_err(de::Error::custom)
    }
}

/// The default of `AgentCard.protocolVersion` when a (0.2.0 to 0.2.4) card has none.
pub(crate) fn default_protocol_version() -> String {
    super::DEFAULT_PROTOCOL_VERSION.to_owned()
}
