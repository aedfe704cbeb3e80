//! Agent cards of every version, read into the 1.0 [`AgentCard`](crate::v1::AgentCard): the
//! one card normalizer of the workspace.
//!
//! Agents in the field serve four shapes of card: 1.0 (`supportedInterfaces`), 0.3 and 0.2
//! (`url`, `preferredTransport`, `additionalInterfaces`, `protocolVersion`, `security`), 0.1
//! (`url`, `authentication`), and the "union" cards of the Python and JS SDKs, which carry the
//! 1.0 and the 0.3 fields in one object. [`parse`] reads any of them; a card it cannot read is a
//! [`CardError`] that says which version it was read as and which field is wrong.
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
//! assert_eq!(a2a_types::card::version_of(&serde_json::from_str(v01).unwrap()),
//!            a2a_types::card::ProtocolVersion::V0_1);
//!
//! let broken = r#"{"name":"New","supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}"#;
//! assert_eq!(
//!     a2a_types::card::parse(broken).unwrap_err().to_string(),
//!     "not a valid A2A 1.0 card: supportedInterfaces[0].url: missing field"
//! );
//! ```

use std::fmt;

use serde_json::Value;

use crate::json::{self, DecodeError};
use crate::{v0_1, v0_3, v1};

/// The protocol version a card document was written for (see [`version_of`]).
pub use crate::protocol::ProtocolVersion;

fn interfaces(card: &Value) -> Option<&Value> {
    ["supportedInterfaces", "supported_interfaces"]
        .iter()
        .find_map(|key| card.get(*key).filter(|v| !v.is_null()))
}

fn lists_interfaces(card: &Value) -> bool {
    interfaces(card)
        .and_then(Value::as_array)
        .is_some_and(|list| !list.is_empty())
}

/// Which version a card document looks like.
///
/// * A non-empty `supportedInterfaces` makes a 1.0 card, even beside the 0.3 fields of a union
///   card (its interfaces are the ones to use). A `supportedInterfaces` that is empty (or not a
///   list) makes a 1.0 card too when there is no legacy `url` to fall back on.
/// * 0.1 and early 0.2 cards differ in one visible way: 0.1 describes authentication with
///   `authentication`, 0.2 and later with `securitySchemes`; 0.2.4 added `preferredTransport`
///   and 0.2.5 `protocolVersion`.
/// * Anything else is read as 0.2/0.3.
pub fn version_of(card: &Value) -> ProtocolVersion {
    let has = |key: &str| card.get(key).is_some_and(|v| !v.is_null());
    if lists_interfaces(card) || (interfaces(card).is_some() && !has("url")) {
        ProtocolVersion::V1
    } else if has("authentication")
        && !has("securitySchemes")
        && !has("protocolVersion")
        && !has("preferredTransport")
    {
        ProtocolVersion::V0_1
    } else {
        ProtocolVersion::V0_3
    }
}

/// Reads an agent card of any version as a 1.0 card.
///
/// # Errors
///
/// A [`CardError`]: the text is not JSON, not an object, or not a valid card of the version
/// it looks like.
pub fn parse(text: &str) -> Result<v1::AgentCard, CardError> {
    parse_slice(text.as_bytes())
}

/// Reads an agent card of any version, as bytes (an HTTP body), as a 1.0 card.
///
/// # Errors
///
/// As [`parse`].
pub fn parse_slice(bytes: &[u8]) -> Result<v1::AgentCard, CardError> {
    let value: Value = json::from_slice(bytes).map_err(|error| CardError {
        kind: Kind::NotJson(error),
    })?;
    parse_value(value)
}

/// Reads an already parsed agent card of any version as a 1.0 card.
///
/// * **1.0** ([`ProtocolVersion::V1`]): read as it is. Its security schemes may be in the 1.0 or
///   the 0.3 shape, and the 0.3 fields that the Python and JS SDKs put beside the 1.0 ones
///   ("union" cards) fill in what the 1.0 fields leave empty: `security` →
///   `securityRequirements`, `supportsAuthenticatedExtendedCard` →
///   `capabilities.extendedAgentCard`, per-skill `security` (see
///   [`v0_3::AgentCard::from_value_lenient`]). Every interface must have a `url` and a
///   `protocolBinding`; an empty `supportedInterfaces` is read (the card names no interface,
///   which its user has to report).
/// * **0.2/0.3**: `url` + `preferredTransport` (default `JSONRPC`) + `protocolVersion` (as
///   `Major.Minor`, default `0.3`) become the first interface and each of
///   `additionalInterfaces` one more; see `From<v0_3::AgentCard> for v1::AgentCard`. A card
///   that is not valid 0.3, has none of the fields 0.1 lacks (`protocolVersion`,
///   `additionalInterfaces`, `securitySchemes`, ...) and is valid 0.1 is read as 0.1;
///   otherwise the 0.3 error is reported.
/// * **0.1**: `url` becomes the only interface, `JSONRPC` `0.1`; see
///   `From<v0_1::AgentCard> for v1::AgentCard`.
/// * **No endpoint** (none of `url`, `supportedInterfaces`, `protocolVersion`,
///   `preferredTransport`, `additionalInterfaces`, nor 0.1's `authentication`): the
///   flat dialect's card (PromptKit's, [`crate::flat`]), read as a 1.0 card with one interface,
///   [`crate::flat::BINDING`] [`crate::flat::VERSION`] at the path `/a2a` (a client takes it on
///   the card's origin).
///
/// Unknown fields are ignored everywhere.
///
/// # Errors
///
/// As [`parse`].
pub fn parse_value(value: Value) -> Result<v1::AgentCard, CardError> {
    let protocol_version = match &value {
        Value::Object(_) => version_of(&value),
        other => {
            return Err(CardError {
                kind: Kind::NotObject(kind_of(other)),
            });
        }
    };
    // A card that names no endpoint at all (no `url`, no `supportedInterfaces`, no 0.3 field
    // about one) is the flat dialect's (PromptKit's): its JSON-RPC is at `/a2a` on the card's
    // origin.
    let (protocol_version, value) = match (protocol_version, value) {
        (ProtocolVersion::V0_3, mut value) if !has_any(&value, &NAMES_AN_ENDPOINT) => {
            let interface = serde_json::json!([{
                "url": crate::protocol::paths::FLAT_RPC,
                "protocolBinding": crate::flat::BINDING,
                "protocolVersion": crate::flat::VERSION,
            }]);
            if let Value::Object(card) = &mut value {
                card.insert("supportedInterfaces".to_owned(), interface);
            }
            (ProtocolVersion::V1, value)
        }
        other => other,
    };
    let invalid = |error: DecodeError| {
        let (field, message) = split(&error);
        CardError {
            kind: Kind::Invalid {
                protocol_version,
                field,
                message,
                error,
            },
        }
    };
    match protocol_version {
        ProtocolVersion::V1 => {
            let card = if lists_interfaces(&value) {
                v0_3::AgentCard::from_value_lenient(value)
            } else {
                json::from_value::<v1::AgentCard>(value)
            }
            .map_err(invalid)?;
            check_interfaces(&card)?;
            Ok(card)
        }
        ProtocolVersion::V0_1 => json::from_value::<v0_1::AgentCard>(value)
            .map(Into::into)
            .map_err(invalid),
        ProtocolVersion::V0_3 if !has_any(&value, &LATER_THAN_0_1) => {
            match v0_3::AgentCard::from_value_lenient(value.clone()) {
                Ok(card) => Ok(card),
                Err(error) => json::from_value::<v0_1::AgentCard>(value)
                    .map(Into::into)
                    .map_err(|_| invalid(error)),
            }
        }
        ProtocolVersion::V0_3 => v0_3::AgentCard::from_value_lenient(value).map_err(invalid),
    }
}

/// Fields of a 0.2/0.3 card about its endpoint: a card with none of them (and no
/// `supportedInterfaces`) is the flat dialect's.
const NAMES_AN_ENDPOINT: [&str; 4] = [
    "url",
    "protocolVersion",
    "preferredTransport",
    "additionalInterfaces",
];

/// Fields a 0.1 card does not have: a card with one of them that is not valid 0.3 is no 0.1 card.
const LATER_THAN_0_1: [&str; 6] = [
    "protocolVersion",
    "preferredTransport",
    "additionalInterfaces",
    "securitySchemes",
    "security",
    "supportsAuthenticatedExtendedCard",
];

fn has_any(card: &Value, keys: &[&str]) -> bool {
    keys.iter()
        .any(|key| card.get(*key).is_some_and(|v| !v.is_null()))
}

/// Every interface of a 1.0 card must say where (`url`) and how (`protocolBinding`).
fn check_interfaces(card: &v1::AgentCard) -> Result<(), CardError> {
    for (i, interface) in card.supported_interfaces.iter().enumerate() {
        let missing = if interface.url.trim().is_empty() {
            "url"
        } else if interface.protocol_binding.trim().is_empty() {
            "protocolBinding"
        } else {
            continue;
        };
        return Err(CardError {
            kind: Kind::Missing {
                protocol_version: ProtocolVersion::V1,
                field: format!("supportedInterfaces[{i}].{missing}"),
            },
        });
    }
    Ok(())
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A document that is not an agent card: not JSON, not an object, or not a valid card of the
/// version it looks like (with the path of the bad field).
///
/// It displays as a predicate, so that a caller can say where the card came from:
/// `format!("the agent card at {url} is {error}")`.
///
/// ```
/// use a2a_types::card::{ProtocolVersion, parse};
///
/// let error = parse(r#"{"name": "N", "description": "d", "url": "https://a.example"}"#).unwrap_err();
/// assert_eq!(error.to_string(), "not a valid A2A 0.2/0.3 card: version: missing field");
/// assert_eq!(error.protocol_version(), Some(ProtocolVersion::V0_3));
/// assert_eq!(error.field(), Some("version"));
///
/// let error = parse("<html>").unwrap_err();
/// assert!(error.is_syntax());
/// assert_eq!(error.to_string(), "not JSON: expected value");
/// assert_eq!(parse("[1]").unwrap_err().to_string(), "not a JSON object but an array");
/// ```
#[derive(Debug)]
pub struct CardError {
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    NotJson(DecodeError),
    NotObject(&'static str),
    Invalid {
        protocol_version: ProtocolVersion,
        /// The JSON path of the bad field, with a missing field's name.
        field: Option<String>,
        message: String,
        error: DecodeError,
    },
    Missing {
        protocol_version: ProtocolVersion,
        field: String,
    },
}

impl CardError {
    /// The version the card was read as; `None` when it is not a JSON object.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        match &self.kind {
            Kind::Invalid {
                protocol_version, ..
            }
            | Kind::Missing {
                protocol_version, ..
            } => Some(*protocol_version),
            Kind::NotJson(_) | Kind::NotObject(_) => None,
        }
    }

    /// The JSON path of the bad field (`supportedInterfaces[0].url`), when one is to blame.
    pub fn field(&self) -> Option<&str> {
        match &self.kind {
            Kind::Invalid { field, .. } => field.as_deref(),
            Kind::Missing { field, .. } => Some(field),
            Kind::NotJson(_) | Kind::NotObject(_) => None,
        }
    }

    /// True when the document is not JSON at all.
    pub fn is_syntax(&self) -> bool {
        matches!(self.kind, Kind::NotJson(_))
    }
}

/// The field and the message of a decode error: a missing field is named in the path
/// (`supportedInterfaces[0].url: missing field`) rather than in serde's message
/// (``supportedInterfaces[0]: missing field `url` ``).
fn split(error: &DecodeError) -> (Option<String>, String) {
    let message = error.message();
    let path = Some(error.path()).filter(|p| *p != ".");
    if let Some(name) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        let field = match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_owned(),
        };
        return (Some(field), "missing field".to_owned());
    }
    (path.map(str::to_owned), message)
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::NotJson(error) => write!(f, "not JSON: {}", error.message()),
            Kind::NotObject(found) => write!(f, "not a JSON object but {found}"),
            Kind::Missing {
                protocol_version,
                field,
            } => {
                write!(
                    f,
                    "not a valid {protocol_version} card: {field}: missing field"
                )
            }
            Kind::Invalid {
                protocol_version,
                field,
                message,
                ..
            } => match field {
                Some(field) => write!(f, "not a valid {protocol_version} card: {field}: {message}"),
                None => write!(f, "not a valid {protocol_version} card: {message}"),
            },
        }
    }
}

impl std::error::Error for CardError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            Kind::NotJson(error) | Kind::Invalid { error, .. } => Some(error),
            Kind::NotObject(_) | Kind::Missing { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn base() -> Value {
        json!({"name": "A", "description": "d", "version": "1", "capabilities": {},
               "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []})
    }

    fn with(mut card: Value, extra: Value) -> Value {
        for (k, v) in extra.as_object().unwrap() {
            card[k] = v.clone();
        }
        card
    }

    fn offered(card: &v1::AgentCard) -> Vec<(&str, &str, &str)> {
        card.supported_interfaces
            .iter()
            .map(|i| {
                (
                    i.url.as_str(),
                    i.protocol_binding.as_str(),
                    i.protocol_version.as_str(),
                )
            })
            .collect()
    }

    fn error(card: Value) -> String {
        parse_value(card).unwrap_err().to_string()
    }

    #[test]
    fn versions() {
        let v = |s: &str| serde_json::from_str::<Value>(s).unwrap();
        assert_eq!(
            version_of(&v(r#"{"supportedInterfaces":[]}"#)),
            ProtocolVersion::V1
        );
        assert_eq!(
            version_of(&v(r#"{"supportedInterfaces":[],"url":"x"}"#)),
            ProtocolVersion::V0_3
        );
        // A union card: its 1.0 interfaces are the ones to read.
        assert_eq!(
            version_of(&v(r#"{"supportedInterfaces":[{"url":"x"}],"url":"x"}"#)),
            ProtocolVersion::V1
        );
        assert_eq!(version_of(&v(r#"{"url":"x"}"#)), ProtocolVersion::V0_3);
        assert_eq!(
            version_of(&v(r#"{"url":"x","authentication":{}}"#)),
            ProtocolVersion::V0_1
        );
        assert_eq!(
            version_of(&v(
                r#"{"url":"x","authentication":{},"protocolVersion":"0.2.5"}"#
            )),
            ProtocolVersion::V0_3
        );
        assert_eq!(
            version_of(&v(
                r#"{"url":"x","authentication":{},"preferredTransport":"JSONRPC"}"#
            )),
            ProtocolVersion::V0_3
        );
        assert_eq!(ProtocolVersion::V0_3.to_string(), "A2A 0.2/0.3");
    }

    #[test]
    fn a_1_0_card_is_read_as_it_is() {
        let card = parse_value(with(
            base(),
            json!({"supportedInterfaces": [
                {"url": "http://h/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "t1"},
                {"url": "http://h/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ], "someFutureField": 1}),
        ))
        .unwrap();
        assert_eq!(
            offered(&card),
            [
                ("http://h/rest", "HTTP+JSON", "1.0"),
                ("http://h/rpc", "JSONRPC", "1.0")
            ]
        );
        assert_eq!(card.supported_interfaces[0].tenant.as_deref(), Some("t1"));
        let card = parse(
            r#"{"name":"N","description":"D","version":"1","capabilities":{},
                "supportedInterfaces":[{"url":"http://x/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
                "defaultInputModes":[],"defaultOutputModes":[],"skills":[]}"#,
        )
        .unwrap();
        assert_eq!(card.supported_interfaces[0].protocol_version, "1.0");
    }

    #[test]
    fn a_1_0_card_without_interfaces_is_read_with_none() {
        let card = parse_value(with(base(), json!({"supportedInterfaces": []}))).unwrap();
        assert!(card.supported_interfaces.is_empty());
    }

    #[test]
    fn a_0_3_card_maps_url_transport_version_and_additional_interfaces() {
        let card = parse_value(with(
            base(),
            json!({"url": "http://h/rpc", "protocolVersion": "0.3.0",
                   "additionalInterfaces": [
                       {"url": "http://h/rpc", "transport": "JSONRPC"},
                       {"url": "http://h/grpc", "transport": "GRPC"}],
                   "supportsAuthenticatedExtendedCard": true}),
        ))
        .unwrap();
        assert_eq!(
            offered(&card),
            [
                ("http://h/rpc", "JSONRPC", "0.3"),
                ("http://h/grpc", "GRPC", "0.3")
            ]
        );
        assert_eq!(card.capabilities.extended_agent_card, Some(true));
    }

    #[test]
    fn a_0_2_card_without_version_defaults_to_jsonrpc_0_3() {
        let card = parse_value(with(base(), json!({"url": "http://h/"}))).unwrap();
        assert_eq!(offered(&card), [("http://h/", "JSONRPC", "0.3")]);
        let card = parse_value(with(
            base(),
            json!({"url": "http://h/", "preferredTransport": "HTTP+JSON", "protocolVersion": "0.2.5"}),
        ))
        .unwrap();
        assert_eq!(offered(&card), [("http://h/", "HTTP+JSON", "0.2")]);
    }

    #[test]
    fn a_0_1_card_is_jsonrpc_0_1() {
        let card = parse(
            r#"{"name":"Older","url":"https://older.example.com/","version":"1",
                "authentication":{"schemes":["Bearer"]},"capabilities":{"streaming":true},
                "skills":[{"id":"s","name":"S"}]}"#,
        )
        .unwrap();
        assert_eq!(
            offered(&card),
            [("https://older.example.com/", "JSONRPC", "0.1")]
        );
        assert_eq!(card.capabilities.streaming, Some(true));
        assert!(card.security_schemes.contains_key("Bearer"));
    }

    #[test]
    fn a_card_that_is_not_0_3_but_0_1_is_read_as_0_1() {
        // `securitySchemes: null` hides nothing; `description` missing is fine in 0.1 only.
        let card = parse_value(json!({"name": "Old", "url": "http://h/", "version": "1",
            "capabilities": {}, "skills": [], "protocolVersion": null}))
        .unwrap();
        assert_eq!(offered(&card), [("http://h/", "JSONRPC", "0.1")]);
    }

    #[test]
    fn a_union_card_prefers_its_1_0_interfaces_and_keeps_its_0_3_fields() {
        let card = parse_value(with(
            base(),
            json!({"supportedInterfaces": [
                       {"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
                       {"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
                   "url": "http://h/", "preferredTransport": "JSONRPC", "protocolVersion": "0.3",
                   "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
                   "security": [{"key": []}]}),
        ))
        .unwrap();
        assert_eq!(
            offered(&card),
            [
                ("http://h/", "JSONRPC", "0.3"),
                ("http://h/", "JSONRPC", "1.0")
            ]
        );
        assert_eq!(card.security_requirements.len(), 1);
        assert!(card.security_schemes.contains_key("key"));
    }

    #[test]
    fn bad_1_0_cards_name_the_field() {
        assert_eq!(
            error(with(base(), json!({"supportedInterfaces": [{"url": 7}]}))),
            "not a valid A2A 1.0 card: supportedInterfaces[0].url: invalid type: integer `7`, \
             expected a string"
        );
        let err = parse_value(with(
            base(),
            json!({"supportedInterfaces": [{"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]}),
        ))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "not a valid A2A 1.0 card: supportedInterfaces[0].url: missing field"
        );
        assert_eq!(err.field(), Some("supportedInterfaces[0].url"));
        assert_eq!(err.protocol_version(), Some(ProtocolVersion::V1));
        assert_eq!(
            error(with(
                base(),
                json!({"supportedInterfaces": [
                    {"url": "http://h/", "protocolBinding": "JSONRPC"},
                    {"url": "http://h/", "protocolVersion": "1.0"}]}),
            )),
            "not a valid A2A 1.0 card: supportedInterfaces[1].protocolBinding: missing field"
        );
        assert_eq!(
            error(with(base(), json!({"supportedInterfaces": "http://h/"}))),
            "not a valid A2A 1.0 card: supportedInterfaces: invalid type: string \"http://h/\", \
             expected a sequence"
        );
        assert_eq!(
            error(with(
                base(),
                json!({"supportedInterfaces": [{"url": "http://h/", "protocolBinding": "JSONRPC"}],
                       "capabilities": {"streaming": "yes"}}),
            )),
            "not a valid A2A 1.0 card: capabilities.streaming: invalid type: string \"yes\", \
             expected a boolean"
        );
    }

    #[test]
    fn cards_naming_no_endpoint_are_the_flat_dialects() {
        // No `url`, no `supportedInterfaces`: PromptKit's card, its JSON-RPC at /a2a.
        let card = parse_value(base()).unwrap();
        assert_eq!(offered(&card), [("/a2a", "FLAT-JSONRPC", "0.3")]);
        assert_eq!(card.name, "A");
        // A 0.3 card without its `url` is still a bad 0.3 card.
        assert_eq!(
            error(with(base(), json!({"protocolVersion": "0.3.0"}))),
            "not a valid A2A 0.2/0.3 card: url: missing field"
        );
        // An empty `supportedInterfaces` is a 1.0 card that names no interface, as before.
        let card = parse_value(with(base(), json!({"supportedInterfaces": []}))).unwrap();
        assert_eq!(offered(&card), []);
    }

    #[test]
    fn bad_0_3_cards_name_the_field() {
        assert_eq!(
            error(with(
                base(),
                json!({"url": "http://h/", "additionalInterfaces": [{"transport": "GRPC"}]})
            )),
            "not a valid A2A 0.2/0.3 card: additionalInterfaces[0].url: missing field"
        );
        // Neither valid 0.3 nor valid 0.1: the 0.3 error.
        assert_eq!(
            error(with(base(), json!({"url": 5}))),
            "not a valid A2A 0.2/0.3 card: url: invalid type: integer `5`, expected a string"
        );
    }

    #[test]
    fn bad_0_1_cards_name_the_field() {
        let err = parse(
            r#"{"name":"Older","url":"https://older.example.com/","version":"1",
                "authentication":{"schemes":"Bearer"},"capabilities":{},"skills":[]}"#,
        )
        .unwrap_err();
        assert_eq!(err.protocol_version(), Some(ProtocolVersion::V0_1));
        assert_eq!(
            err.to_string(),
            "not a valid A2A 0.1 card: authentication.schemes: invalid type: string \"Bearer\", \
             expected a sequence"
        );
        assert_eq!(
            error(
                json!({"name": "Older", "version": "1", "authentication": {"schemes": []},
                         "capabilities": {}, "skills": []})
            ),
            "not a valid A2A 0.1 card: url: missing field"
        );
    }

    #[test]
    fn documents_that_are_no_card() {
        let err = parse("<html>").unwrap_err();
        assert!(err.is_syntax());
        assert_eq!(err.protocol_version(), None);
        assert_eq!(err.to_string(), "not JSON: expected value");
        assert_eq!(
            parse(r#"{"name": "cut"#).unwrap_err().to_string(),
            "not JSON: EOF while parsing a string"
        );
        assert_eq!(
            parse(r#""card""#).unwrap_err().to_string(),
            "not a JSON object but a string"
        );
        assert_eq!(
            parse("null").unwrap_err().to_string(),
            "not a JSON object but null"
        );
        assert!(std::error::Error::source(&err).is_some());
    }
}
