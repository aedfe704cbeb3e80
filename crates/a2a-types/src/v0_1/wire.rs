//! Serde helpers of the 0.1 wire models (beside the shared ones in `crate::serde_util`).

use serde::{Deserialize, Deserializer, Serializer};

use crate::serde_util::base64_bytes;
use crate::v1::Timestamp;

/// A `skip_serializing_if` that never skips.
///
/// For fields that `a2a.json` lists as optional (they have a default) but that this crate always
/// writes, because the 0.1 examples always show them and 0.1 peers index by them (`jsonrpc`,
/// `Artifact.index`, `TaskStatusUpdateEvent.final`). With it, the generated schema keeps the
/// field out of `required`, as `a2a.json` does, while the value is still always written.
pub(crate) fn never<T>(_: &T) -> bool {
    false
}

/// `Option<Vec<u8>>` as a base64 string: written with the standard alphabet and padding, read in
/// the standard or URL-safe alphabet, padded or not. `null` is absent.
pub(crate) mod opt_base64 {
    use super::*;

    #[expect(
        clippy::ref_option,
        reason = "serde's serialize_with signature takes &Option<T>"
    )]
    pub(crate) fn serialize<S: Serializer>(
        bytes: &Option<Vec<u8>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(bytes) => s.serialize_str(&base64_bytes::encode(bytes)),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<u8>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| base64_bytes::decode(&text).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// An optional timestamp as 0.1 peers write it: RFC 3339, or (as the Python samples of the 0.1
/// era did, with `datetime.now().isoformat()`) an ISO 8601 date-time without an offset, which is
/// read as UTC. Written as `crate::v1::Timestamp` writes it (`2025-04-02T16:59:25.331Z`).
pub(crate) fn opt_timestamp<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Timestamp>, D::Error> {
    Option::<String>::deserialize(d)?
        .map(|text| parse_timestamp(&text).map_err(serde::de::Error::custom))
        .transpose()
}

/// Parses RFC 3339, or a date-time without offset as UTC.
pub(crate) fn parse_timestamp(text: &str) -> Result<Timestamp, crate::v1::InvalidTimestamp> {
    text.parse::<Timestamp>().or_else(|err| {
        // `2025-04-02T16:59:25.331844`: a date, a `T` and a time, but no zone.
        let has_time = text.len() > 10 && matches!(text.as_bytes()[10], b'T' | b't' | b' ');
        let has_zone = text.ends_with(['Z', 'z'])
            || text.get(11..).is_some_and(|time| time.contains(['+', '-']));
        if has_time && !has_zone {
            let mut utc = text.to_owned();
            utc.replace_range(10..11, "T");
            utc.push('Z');
            utc.parse::<Timestamp>().map_err(|_| err)
        } else {
            Err(err)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naive_timestamps_are_utc() {
        assert_eq!(
            parse_timestamp("2025-04-02T16:59:25.331844")
                .unwrap()
                .to_string(),
            "2025-04-02T16:59:25.331844Z"
        );
        assert_eq!(
            parse_timestamp("2025-04-02 16:59:25").unwrap().to_string(),
            "2025-04-02T16:59:25.000Z"
        );
        assert_eq!(
            parse_timestamp("2024-10-27T10:00:00Z").unwrap().to_string(),
            "2024-10-27T10:00:00.000Z"
        );
        assert_eq!(
            parse_timestamp("2024-10-27T12:00:00+02:00")
                .unwrap()
                .to_string(),
            "2024-10-27T10:00:00.000Z"
        );
        assert!(parse_timestamp("2024-10-27").is_err());
        assert!(parse_timestamp("2024-10-27T25:00:00").is_err());
        assert!(parse_timestamp("yesterday").is_err());
        let err = parse_timestamp("2024-10-27T10:00:00+2").unwrap_err();
        assert_eq!(err.text, "2024-10-27T10:00:00+2");
    }
}
