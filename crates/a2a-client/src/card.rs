//! Agent cards: where they are, how any generation of them becomes the 1.0 [`AgentCard`], and
//! which of their interfaces this client uses.
//!
//! ```
//! use a2a_client::card;
//!
//! // A 0.3 card, as a 0.3 server serves it.
//! let legacy = serde_json::json!({
//!     "name": "Echo", "description": "Repeats", "version": "1.0.0",
//!     "url": "https://echo.example.com/a2a", "protocolVersion": "0.3.0",
//!     "capabilities": {"streaming": true},
//!     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []
//! });
//! let card = card::normalize(legacy).unwrap();
//! let offered = &card.supported_interfaces[0];
//! assert_eq!((offered.protocol_binding.as_str(), offered.protocol_version.as_str()), ("JSONRPC", "0.3"));
//! // This client speaks 1.0 JSON-RPC, which the card does not offer.
//! assert_eq!(
//!     card::select_interface(&card).unwrap_err().to_string(),
//!     "the agent card offers no interface this client speaks (JSONRPC 1.0); it offers: \
//!      JSONRPC 0.3 https://echo.example.com/a2a"
//! );
//! ```

use a2a_types::json::DecodeError;
use a2a_types::v1::{AgentCard, AgentInterface, binding};
use serde_json::Value;

use crate::Error;

/// Where A2A 0.3 and 1.0 agents serve their card, relative to the agent's base URL.
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";
/// Where A2A 0.1 and 0.2 agents serve their card; tried when [`AGENT_CARD_PATH`] is not found.
pub const LEGACY_AGENT_CARD_PATH: &str = "/.well-known/agent.json";

/// The URLs to try for the card of the agent at `base_url`, in order.
///
/// A URL that already names a `.json` document is taken as the card's own URL; any other gets
/// [`AGENT_CARD_PATH`] and then [`LEGACY_AGENT_CARD_PATH`] appended to its path.
///
/// ```
/// assert_eq!(
///     a2a_client::card::card_urls("http://127.0.0.1:7420/"),
///     ["http://127.0.0.1:7420/.well-known/agent-card.json", "http://127.0.0.1:7420/.well-known/agent.json"]
/// );
/// assert_eq!(a2a_client::card::card_urls("https://a.example/card.json"), ["https://a.example/card.json"]);
/// ```
pub fn card_urls(base_url: &str) -> Vec<String> {
    let path = base_url.split(['?', '#']).next().unwrap_or(base_url);
    if path.ends_with(".json") {
        return vec![base_url.to_owned()];
    }
    let base = path.trim_end_matches('/');
    vec![
        format!("{base}{AGENT_CARD_PATH}"),
        format!("{base}{LEGACY_AGENT_CARD_PATH}"),
    ]
}

/// Reads an agent card of any generation into the 1.0 model.
///
/// * A card with a non-empty `supportedInterfaces` is a 1.0 card. Its security schemes may be
///   in the 1.0 or the 0.3 shape, and the 0.3 fields that the Python and JS SDKs put beside the
///   1.0 ones ("union" cards) fill in what the 1.0 fields leave empty.
/// * A 0.1 card (with `authentication` and without `securitySchemes`, `protocolVersion` or
///   `preferredTransport`) becomes a card whose only interface is its `url`, `JSONRPC`, `0.1`.
/// * Any other card is read as 0.2/0.3: `url` + `preferredTransport` (default `JSONRPC`) +
///   `protocolVersion` (as `Major.Minor`, default `0.3`) become the first interface and each of
///   `additionalInterfaces` (`url`, `transport`) one more with the same version;
///   `supportsAuthenticatedExtendedCard` becomes `capabilities.extendedAgentCard` and
///   `security` becomes `securityRequirements`. A card that is neither valid 0.3 nor valid 0.1
///   is reported with the 0.3 error.
///
/// The conversions are those of `a2a_types::v0_3` and `a2a_types::v0_1`. Unknown fields are
/// ignored.
///
/// # Errors
///
/// The decode error of the first bad field, with its JSON path.
pub fn normalize(card: Value) -> Result<AgentCard, DecodeError> {
    let Some(object) = card.as_object() else {
        return a2a_types::json::from_value(card);
    };
    let has = |key: &str| object.get(key).is_some_and(|v| !v.is_null());
    let has_interfaces = ["supportedInterfaces", "supported_interfaces"]
        .iter()
        .any(|k| {
            object
                .get(*k)
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
        });
    let looks_0_1 = !has_interfaces
        && has("authentication")
        && !has("securitySchemes")
        && !has("protocolVersion")
        && !has("preferredTransport");
    if looks_0_1 {
        return a2a_types::json::from_value::<a2a_types::v0_1::AgentCard>(card).map(Into::into);
    }
    match a2a_types::v0_3::AgentCard::from_value_lenient(card.clone()) {
        Ok(card) => Ok(card),
        Err(error) if !has_interfaces => {
            a2a_types::json::from_value::<a2a_types::v0_1::AgentCard>(card)
                .map(Into::into)
                .map_err(|_| error)
        }
        Err(error) => Err(error),
    }
}

/// The interface this client uses: the first `JSONRPC` interface of protocol version `1.x`, in
/// the card's order of preference; failing that, the first `JSONRPC` one without a version.
///
/// # Errors
///
/// [`Error::NoSupportedInterface`], listing what the card offers.
pub fn select_interface(card: &AgentCard) -> Result<&AgentInterface, Error> {
    let jsonrpc = |i: &&AgentInterface| i.protocol_binding.eq_ignore_ascii_case(binding::JSONRPC);
    let interfaces = &card.supported_interfaces;
    interfaces
        .iter()
        .filter(jsonrpc)
        .find(|i| is_v1(&i.protocol_version))
        .or_else(|| {
            interfaces
                .iter()
                .filter(jsonrpc)
                .find(|i| i.protocol_version.trim().is_empty())
        })
        .ok_or_else(|| Error::NoSupportedInterface {
            offered: interfaces.clone(),
        })
}

fn is_v1(version: &str) -> bool {
    let version = version.trim();
    version == "1" || version.starts_with("1.")
}

/// Resolves an interface URL against the URL of the card it came from: an absolute URL stays
/// as it is, a path (`/a2a`) is taken on the card's origin.
pub(crate) fn resolve(url: &str, card_url: Option<&http::Uri>) -> Result<http::Uri, Error> {
    if url.starts_with('/')
        && !url.starts_with("//")
        && let Some(base) = card_url
        && let (Some(scheme), Some(authority)) = (base.scheme_str(), base.authority())
    {
        return crate::transport::parse_url(&format!("{scheme}://{authority}{url}"));
    }
    crate::transport::parse_url(url)
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

    fn offered(card: &AgentCard) -> Vec<(String, String, String)> {
        card.supported_interfaces
            .iter()
            .map(|i| {
                (
                    i.url.clone(),
                    i.protocol_binding.clone(),
                    i.protocol_version.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn a_1_0_card_is_read_as_it_is() {
        let card = normalize(with(
            base(),
            json!({"supportedInterfaces": [
                {"url": "http://h/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "t1"},
                {"url": "http://h/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "t2"}
            ], "someFutureField": 1}),
        ))
        .unwrap();
        let chosen = select_interface(&card).unwrap();
        assert_eq!(chosen.url, "http://h/rpc");
        assert_eq!(chosen.tenant.as_deref(), Some("t2"));
    }

    #[test]
    fn a_0_3_card_maps_url_transport_version_and_additional_interfaces() {
        let card = normalize(with(
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
                ("http://h/rpc".into(), "JSONRPC".into(), "0.3".into()),
                ("http://h/grpc".into(), "GRPC".into(), "0.3".into()),
            ]
        );
        assert_eq!(card.capabilities.extended_agent_card, Some(true));
        assert!(matches!(
            select_interface(&card),
            Err(Error::NoSupportedInterface { .. })
        ));
    }

    #[test]
    fn a_0_2_card_without_version_defaults_to_jsonrpc_0_3() {
        let card = normalize(with(base(), json!({"url": "http://h/"}))).unwrap();
        assert_eq!(
            offered(&card),
            [("http://h/".into(), "JSONRPC".into(), "0.3".into())]
        );
        let card = normalize(with(
            base(),
            json!({"url": "http://h/", "preferredTransport": "HTTP+JSON", "protocolVersion": "0.2.5"}),
        ))
        .unwrap();
        assert_eq!(
            offered(&card),
            [("http://h/".into(), "HTTP+JSON".into(), "0.2".into())]
        );
    }

    #[test]
    fn a_0_1_card_is_jsonrpc_0_1() {
        let card = normalize(json!({"name": "Old", "url": "http://h/", "version": "0.1",
            "capabilities": {"streaming": true}, "authentication": {"schemes": ["Bearer"]},
            "skills": [{"id": "s", "name": "S"}]}))
        .unwrap();
        assert_eq!(
            offered(&card),
            [("http://h/".into(), "JSONRPC".into(), "0.1".into())]
        );
        assert!(card.security_schemes.contains_key("Bearer"));
    }

    #[test]
    fn a_union_card_prefers_its_1_0_interface() {
        let card = normalize(with(
            base(),
            json!({"supportedInterfaces": [
                       {"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
                       {"url": "http://h/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
                   "url": "http://h/", "preferredTransport": "JSONRPC", "protocolVersion": "0.3",
                   "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}},
                   "security": [{"key": []}]}),
        ))
        .unwrap();
        assert_eq!(select_interface(&card).unwrap().protocol_version, "1.0");
        assert_eq!(card.security_requirements.len(), 1);
    }

    #[test]
    fn bad_cards_name_the_field() {
        let error =
            normalize(with(base(), json!({"supportedInterfaces": [{"url": 7}]}))).unwrap_err();
        assert_eq!(error.path(), "supportedInterfaces[0].url");
    }

    #[test]
    fn interface_urls_resolve_against_the_card() {
        let card_url: http::Uri = "https://h.example:8443/.well-known/agent-card.json"
            .parse()
            .unwrap();
        assert_eq!(
            resolve("/a2a/v1", Some(&card_url)).unwrap().to_string(),
            "https://h.example:8443/a2a/v1"
        );
        assert_eq!(
            resolve("http://other/x", Some(&card_url))
                .unwrap()
                .to_string(),
            "http://other/x"
        );
        assert!(resolve("/a2a", None).is_err());
    }
}
