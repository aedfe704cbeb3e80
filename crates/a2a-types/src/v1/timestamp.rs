//! `google.protobuf.Timestamp` as ProtoJSON writes it: RFC 3339 in UTC with a `Z`.

use std::fmt;

use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// A point in time, written as RFC 3339 UTC with a `Z` suffix.
///
/// Output always carries milliseconds (`2025-10-28T10:30:00.000Z`, the form the A2A spec
/// prefers), or 6 or 9 fractional digits when the value is finer than that. Input accepts any
/// RFC 3339 string, with any offset and any number of fractional digits, and converts it to UTC.
///
/// ```
/// use a2a_types::v1::Timestamp;
///
/// let t: Timestamp = "2025-10-28T12:30:00.5+02:00".parse().unwrap();
/// assert_eq!(t.to_string(), "2025-10-28T10:30:00.500Z");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(OffsetDateTime);

/// The earliest and latest instants ProtoJSON can write (years 0001 to 9999).
const MIN_YEAR: i32 = 1;
const MAX_YEAR: i32 = 9999;

impl Timestamp {
    /// The current time.
    pub fn now() -> Self {
        Self(OffsetDateTime::now_utc())
    }

    /// Seconds and nanoseconds since the Unix epoch, as `google.protobuf.Timestamp` holds them.
    ///
    /// Returns `None` outside the years 0001 to 9999 or when `nanos` is not below one second.
    pub fn from_unix(seconds: i64, nanos: u32) -> Option<Self> {
        if nanos >= 1_000_000_000 {
            return None;
        }
        let t = OffsetDateTime::from_unix_timestamp(seconds).ok()?;
        let t = t.replace_nanosecond(nanos).ok()?;
        Self::checked(t)
    }

    /// Seconds since the Unix epoch (negative before 1970).
    pub fn unix_seconds(&self) -> i64 {
        self.0.unix_timestamp()
    }

    /// Nanoseconds past [`unix_seconds`](Self::unix_seconds).
    pub fn subsec_nanos(&self) -> u32 {
        self.0.nanosecond()
    }

    /// The underlying `time` value, in UTC.
    pub fn as_offset_date_time(&self) -> OffsetDateTime {
        self.0
    }

    fn checked(t: OffsetDateTime) -> Option<Self> {
        let t = t.to_offset(UtcOffset::UTC);
        (MIN_YEAR..=MAX_YEAR).contains(&t.year()).then_some(Self(t))
    }
}

impl From<OffsetDateTime> for Timestamp {
    /// Converts to UTC. Years outside 0001..=9999 are clamped to the nearest representable instant.
    fn from(t: OffsetDateTime) -> Self {
        let t = t.to_offset(UtcOffset::UTC);
        if t.year() < MIN_YEAR {
            Self(time::macros::datetime!(0001-01-01 0:00 UTC))
        } else if t.year() > MAX_YEAR {
            Self(time::macros::datetime!(9999-12-31 23:59:59.999_999_999 UTC))
        } else {
            Self(t)
        }
    }
}

impl From<Timestamp> for OffsetDateTime {
    fn from(t: Timestamp) -> Self {
        t.0
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written digit by digit into a stack buffer: `write!` with padding costs several
        // times more, and every task event carries a timestamp.
        fn digits(buf: &mut [u8], mut value: u32) {
            for slot in buf.iter_mut().rev() {
                *slot = b'0' + (value % 10) as u8;
                value /= 10;
            }
        }
        let t = self.0;
        let mut buf = *b"0000-00-00T00:00:00.000000000Z";
        // The year is 1..=9999 (checked on construction).
        digits(&mut buf[0..4], t.year().unsigned_abs());
        digits(&mut buf[5..7], u32::from(u8::from(t.month())));
        digits(&mut buf[8..10], u32::from(t.day()));
        digits(&mut buf[11..13], u32::from(t.hour()));
        digits(&mut buf[14..16], u32::from(t.minute()));
        digits(&mut buf[17..19], u32::from(t.second()));
        let nanos = t.nanosecond();
        let len = if nanos.is_multiple_of(1_000_000) {
            digits(&mut buf[20..23], nanos / 1_000_000);
            23
        } else if nanos.is_multiple_of(1_000) {
            digits(&mut buf[20..26], nanos / 1_000);
            26
        } else {
            digits(&mut buf[20..29], nanos);
            29
        };
        buf[len] = b'Z';
        f.write_str(std::str::from_utf8(&buf[..=len]).expect("ASCII digits"))
    }
}

/// A string that is not an RFC 3339 timestamp ProtoJSON can carry.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InvalidTimestamp {
    /// The rejected text.
    pub text: String,
    /// Why it was rejected.
    pub reason: String,
}

impl fmt::Display for InvalidTimestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid RFC 3339 timestamp \"{}\" ({}), expected a form like 2025-10-28T10:30:00.000Z",
            self.text, self.reason
        )
    }
}

impl std::error::Error for InvalidTimestamp {}

impl std::str::FromStr for Timestamp {
    type Err = InvalidTimestamp;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| InvalidTimestamp {
            text: s.to_owned(),
            reason,
        };
        // RFC 3339 allows lowercase `t` and `z`; the `time` parser wants them uppercase.
        let parsed = if s.bytes().any(|b| b == b't' || b == b'z') {
            OffsetDateTime::parse(&s.to_ascii_uppercase(), &Rfc3339)
        } else {
            OffsetDateTime::parse(s, &Rfc3339)
        }
        .map_err(|e| err(e.to_string()))?;
        Self::checked(parsed).ok_or_else(|| err("outside the years 0001 to 9999".to_owned()))
    }
}

impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Timestamp;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 timestamp string")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Timestamp, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Timestamp {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Timestamp".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "google.protobuf.Timestamp".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "format": "date-time" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(input: &str) -> String {
        input.parse::<Timestamp>().unwrap().to_string()
    }

    #[test]
    fn output_is_utc_with_z_and_at_least_millis() {
        assert_eq!(
            roundtrip("2023-10-27T10:00:00Z"),
            "2023-10-27T10:00:00.000Z"
        );
        assert_eq!(
            roundtrip("2023-10-27T10:00:00.1Z"),
            "2023-10-27T10:00:00.100Z"
        );
        assert_eq!(
            roundtrip("2023-10-27T10:00:00.123456Z"),
            "2023-10-27T10:00:00.123456Z"
        );
        assert_eq!(
            roundtrip("2023-10-27T10:00:00.1234567Z"),
            "2023-10-27T10:00:00.123456700Z"
        );
        assert_eq!(
            roundtrip("2023-10-27T12:00:00+02:00"),
            "2023-10-27T10:00:00.000Z"
        );
        assert_eq!(
            roundtrip("2023-10-27t10:00:00z"),
            "2023-10-27T10:00:00.000Z"
        );
        assert_eq!(
            roundtrip("0001-01-01T00:00:00Z"),
            "0001-01-01T00:00:00.000Z"
        );
    }

    #[test]
    fn bad_timestamps_are_named() {
        let err = "2023-10-27 10:00".parse::<Timestamp>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid RFC 3339 timestamp \"2023-10-27 10:00\" (a character literal was not valid), \
             expected a form like 2025-10-28T10:30:00.000Z"
        );
        assert!("yesterday".parse::<Timestamp>().is_err());
        assert!("2023-13-01T00:00:00Z".parse::<Timestamp>().is_err());
        let json_err = serde_json::from_str::<Timestamp>("12").unwrap_err();
        assert!(
            json_err
                .to_string()
                .contains("expected an RFC 3339 timestamp string")
        );
    }

    #[test]
    fn unix_round_trip() {
        let t = Timestamp::from_unix(1_698_400_800, 5_000_000).unwrap();
        assert_eq!(t.to_string(), "2023-10-27T10:00:00.005Z");
        assert_eq!(t.unix_seconds(), 1_698_400_800);
        assert_eq!(t.subsec_nanos(), 5_000_000);
        assert_eq!(Timestamp::from_unix(0, 1_000_000_000), None);
    }
}
