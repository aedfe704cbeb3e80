//! Serde helpers shared by the wire models: ProtoJSON's leniencies on input and its default
//! omission on output.

use std::fmt;

use base64::Engine as _;
use serde::de::{self, Deserialize, Deserializer, Visitor};

/// ProtoJSON accepts `null` for any field and reads it as the field's default.
pub(crate) fn nullable<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A string field without presence: `""` and `null` both read as `None`.
pub(crate) fn opt_string<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: From<String>,
{
    Ok(Option::<String>::deserialize(d)?
        .filter(|s| !s.is_empty())
        .map(T::from))
}

/// Skip predicate for string fields without presence: absent and `""` are both omitted.
pub(crate) fn none_or_empty<T: AsRef<str>>(value: &Option<T>) -> bool {
    value.as_ref().is_none_or(|v| v.as_ref().is_empty())
}

/// Skip predicate for `bool` fields without presence.
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
pub(crate) fn is_false(value: &bool) -> bool {
    !*value
}

/// Skip predicate for `int32` fields without presence.
#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if signature"
)]
pub(crate) fn is_zero(value: &i32) -> bool {
    *value == 0
}

struct I32Visitor;

impl Visitor<'_> for I32Visitor {
    type Value = i32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a 32-bit integer (a JSON number or a decimal string)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i32, E> {
        i32::try_from(v).map_err(|_| E::custom(format!("integer {v} is out of range for int32")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i32, E> {
        i32::try_from(v).map_err(|_| E::custom(format!("integer {v} is out of range for int32")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i32, E> {
        // ProtoJSON accepts `1.0` and `1e2` for integers when the value is integral.
        if v.fract() == 0.0 && v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX) {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "range and integrality checked above"
            )]
            Ok(v as i32)
        } else {
            Err(E::custom(format!("{v} is not a 32-bit integer")))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<i32, E> {
        v.trim()
            .parse::<i32>()
            .map_err(|_| E::custom(format!("\"{v}\" is not a 32-bit integer")))
    }
}

/// An `int32` as ProtoJSON reads it: a number or a decimal string.
pub(crate) fn int32<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    Ok(opt_int32(d)?.unwrap_or_default())
}

/// An `optional int32`: `null` is absent.
pub(crate) fn opt_int32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    struct Wrapper(i32);
    impl<'de> Deserialize<'de> for Wrapper {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(I32Visitor).map(Wrapper)
        }
    }
    Ok(Option::<Wrapper>::deserialize(d)?.map(|w| w.0))
}

struct I64Visitor;

impl Visitor<'_> for I64Visitor {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a 64-bit integer (a decimal string or a JSON number)")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        Ok(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::custom(format!("integer {v} is out of range for int64")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        // Integral values within the range a double holds exactly.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        if v.fract() == 0.0 && v.abs() <= EXACT {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "range and integrality checked above"
            )]
            Ok(v as i64)
        } else {
            Err(E::custom(format!("{v} is not a 64-bit integer")))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
        v.trim()
            .parse::<i64>()
            .map_err(|_| E::custom(format!("\"{v}\" is not a 64-bit integer")))
    }
}

/// An `int64` as ProtoJSON writes it (a decimal string) and reads it (a string or a number;
/// `null` is 0).
pub(crate) mod int64 {
    use super::*;

    /// Writes the decimal string.
    #[expect(
        clippy::trivially_copy_pass_by_ref,
        reason = "serde's serialize_with signature"
    )]
    pub(crate) fn serialize<S: serde::Serializer>(value: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Reads a string or a number.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        Ok(super::opt_int64::deserialize(d)?.unwrap_or_default())
    }
}

/// An `optional int64`: written as a decimal string, read from a string or a number; `null`
/// is absent.
pub(crate) mod opt_int64 {
    use super::*;

    /// Writes the decimal string (the field is skipped when absent).
    #[expect(clippy::ref_option, reason = "serde's serialize_with signature")]
    pub(crate) fn serialize<S: serde::Serializer>(
        value: &Option<i64>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(value) => s.collect_str(value),
            None => s.serialize_none(),
        }
    }

    /// Reads a string or a number.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        struct Wrapper(i64);
        impl<'de> Deserialize<'de> for Wrapper {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(I64Visitor).map(Wrapper)
            }
        }
        Ok(Option::<Wrapper>::deserialize(d)?.map(|w| w.0))
    }
}

/// Base64 as ProtoJSON writes it (standard alphabet, padded) and reads it (standard or
/// URL-safe alphabet, padded or not).
pub(crate) mod base64_bytes {
    use super::*;

    const STANDARD: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;
    const LENIENT: base64::engine::GeneralPurposeConfig =
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true);
    const STANDARD_LENIENT: base64::engine::GeneralPurpose =
        base64::engine::GeneralPurpose::new(&base64::alphabet::STANDARD, LENIENT);
    const URL_SAFE_LENIENT: base64::engine::GeneralPurpose =
        base64::engine::GeneralPurpose::new(&base64::alphabet::URL_SAFE, LENIENT);

    /// Encodes with the standard alphabet and padding.
    pub(crate) fn encode(bytes: &[u8]) -> String {
        STANDARD.encode(bytes)
    }

    /// Decodes the standard or the URL-safe alphabet, with or without padding.
    pub(crate) fn decode(text: &str) -> Result<Vec<u8>, String> {
        let url_safe = text.contains(['-', '_']);
        let engine = if url_safe {
            &URL_SAFE_LENIENT
        } else {
            &STANDARD_LENIENT
        };
        engine
            .decode(text)
            .map_err(|e| format!("invalid base64: {e}"))
    }
}
