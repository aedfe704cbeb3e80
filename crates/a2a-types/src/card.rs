//! Agent cards of every generation, read into the 1.0 [`AgentCard`](crate::v1::AgentCard).
//!
//! Agents in the field serve four shapes of card: 1.0 (`supportedInterfaces`), 0.3 and 0.2
//! (`url`, `preferredTransport`, `additionalInterfaces`, `protocolVersion`, `security`), 0.1
//! (`url`, `authentication`), and the "union" cards of the Python and JS SDKs, which carry the
//! 1.0 and the 0.3 fields in one object. [`parse`] reads any of them.
//!
//! ```
//! let legacy = r#"{"name":"Old","description":"A 0.3 agent","url":"https://old.example.com/a2a",
//!     "version":"1","protocolVersion":"0.3.0","capabilities":{"streaming":true},
//!     "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}"#;
//! let card = a2a_types::card::parse(legacy).unwrap();
//! let iface = &card.supported_interfaces[0];
//! assert_eq!((iface.url.as_str(), iface.protocol_binding.as_str(), iface.protocol_version.as_str()),
//!            ("https://old.example.com/a2a", "JSONRPC", "0.3"));
//!
//! let v01 = r#"{"name":"Older","url":"https://older.example.com/","version":"1",
//!     "authentication":{"schemes":["Bearer"]},"capabilities":{},"skills":[]}"#;
//! assert_eq!(a2a_types::card::generation_of(&serde_json::from_str(v01).unwrap()),
//!            a2a_types::card::Generation::V0_1);
//! ```

use serde_json::Value;

use crate::json::{self, DecodeError};
use crate::{v0_1, v0_3, v1};

/// The protocol generation a card document was written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Generation {
    /// A 1.0 card: `supportedInterfaces` and no legacy `url`.
    V1,
    /// A 0.2 or 0.3 card, or a union card that also carries 1.0 fields.
    V0_3,
    /// A 0.1 card: `authentication`, and neither `securitySchemes` nor `protocolVersion`.
    V0_1,
}

/// Which generation a card document looks like.
///
/// 0.1 and early 0.2 cards differ in one visible way: 0.1 describes authentication with
/// `authentication`, 0.2 and later with `securitySchemes`, and 0.2.5 added `protocolVersion`.
pub fn generation_of(card: &Value) -> Generation {
    let has = |key: &str| card.get(key).is_some_and(|v| !v.is_null());
    if has("authentication")
        && !has("securitySchemes")
        && !has("protocolVersion")
        && !has("supportedInterfaces")
    {
        Generation::V0_1
    } else if has("supportedInterfaces") && !has("url") {
        Generation::V1
    } else {
        Generation::V0_3
    }
}

/// Reads an agent card of any generation as a 1.0 card.
pub fn parse(text: &str) -> Result<v1::AgentCard, DecodeError> {
    parse_value(json::from_str(text)?)
}

/// Reads an already parsed agent card of any generation as a 1.0 card.
pub fn parse_value(value: Value) -> Result<v1::AgentCard, DecodeError> {
    match generation_of(&value) {
        Generation::V1 => json::from_value(value),
        Generation::V0_1 => json::from_value::<v0_1::AgentCard>(value).map(Into::into),
        Generation::V0_3 => v0_3::AgentCard::from_value_lenient(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generations() {
        let v = |s: &str| serde_json::from_str::<Value>(s).unwrap();
        assert_eq!(
            generation_of(&v(r#"{"supportedInterfaces":[]}"#)),
            Generation::V1
        );
        assert_eq!(
            generation_of(&v(r#"{"supportedInterfaces":[],"url":"x"}"#)),
            Generation::V0_3
        );
        assert_eq!(generation_of(&v(r#"{"url":"x"}"#)), Generation::V0_3);
        assert_eq!(
            generation_of(&v(r#"{"url":"x","authentication":{}}"#)),
            Generation::V0_1
        );
        assert_eq!(
            generation_of(&v(
                r#"{"url":"x","authentication":{},"protocolVersion":"0.2.5"}"#
            )),
            Generation::V0_3
        );
    }

    #[test]
    fn a_1_0_card_reads_as_is_and_errors_name_the_field() {
        let card = parse(
            r#"{"name":"N","description":"D","version":"1","capabilities":{},
                "supportedInterfaces":[{"url":"http://x/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
                "defaultInputModes":[],"defaultOutputModes":[],"skills":[]}"#,
        )
        .unwrap();
        assert_eq!(card.supported_interfaces[0].protocol_version, "1.0");
        let err = parse(r#"{"name":"N","supportedInterfaces":[{"url":5}]}"#).unwrap_err();
        assert_eq!(err.path(), "supportedInterfaces[0].url");
    }

    #[test]
    fn a_0_1_card_reads_into_1_0() {
        let card = parse(
            r#"{"name":"Older","url":"https://older.example.com/","version":"1",
                "authentication":{"schemes":["Bearer"]},"capabilities":{"streaming":true},"skills":[]}"#,
        )
        .unwrap();
        assert_eq!(
            card.supported_interfaces[0].url,
            "https://older.example.com/"
        );
        assert_eq!(card.supported_interfaces[0].protocol_version, "0.1");
        assert_eq!(card.capabilities.streaming, Some(true));
    }
}
