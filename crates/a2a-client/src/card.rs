//! Agent cards: where they are, and which of their interfaces this client uses. Cards of every
//! version are read into the 1.0 [`AgentCard`] by [`a2a_types::card::parse`], the one card
//! normalizer of the workspace.
//!
//! ```
//! use a2a_client::card;
//!
//! // A 0.3 card, as a 0.3 server serves it.
//! let legacy = r#"{
//!     "name": "Echo", "description": "Repeats", "version": "1.0.0",
//!     "url": "https://echo.example.com/a2a", "protocolVersion": "0.3.0",
//!     "capabilities": {"streaming": true},
//!     "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []
//! }"#;
//! let card = a2a_types::card::parse(legacy).unwrap();
//! let offered = &card.supported_interfaces[0];
//! assert_eq!((offered.protocol_binding.as_str(), offered.protocol_version.as_str()), ("JSONRPC", "0.3"));
//! // This client speaks 1.0 (JSON-RPC and HTTP+JSON), which the card does not offer, and 0.3
//! // only when the caller allows it.
//! assert!(matches!(card::select_interface(&card), Err(a2a_client::Error::LegacyOnly { .. })));
//! let legacy = a2a_client::A2aClient::builder().allow_legacy(true);
//! assert_eq!(legacy.select_interface(&card).unwrap().url, "https://echo.example.com/a2a");
//! ```

use a2a_types::protocol::{content_type, paths};
use a2a_types::v1::{AgentCard, AgentInterface};
use bytes::Bytes;
use http::{Method, StatusCode};

use crate::Error;
use crate::call::Policy;
use crate::http::{HttpClient, parse_url};
use crate::interceptor::CallInfo;
use crate::retry::Retry;
use crate::transport::{Transports, VersionPolicy, boxed};

/// The URLs to try for the card of the agent at `base_url`, in order.
///
/// A URL that already names a `.json` document is taken as the card's own URL; any other gets
/// [`paths::AGENT_CARD`] and then [`paths::LEGACY_AGENT_CARD`] appended to its path.
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
        format!("{base}{}", paths::AGENT_CARD),
        format!("{base}{}", paths::LEGACY_AGENT_CARD),
    ]
}

/// The interface a client with the default settings uses: the first interface, in the card's
/// order of preference, that a built-in transport serves (`JSONRPC` or `HTTP+JSON`, protocol
/// version `1.x`); failing that, the first one of those bindings without a `protocolVersion`.
///
/// # Errors
///
/// [`Error::NoSupportedInterface`], listing what the card offers and what the client speaks.
pub fn select_interface(card: &AgentCard) -> Result<&AgentInterface, Error> {
    select_interface_preferring::<&str>(card, &[])
}

/// As [`select_interface`], with the caller's order of bindings first (as
/// [`ClientBuilder::preferred_transports`](crate::ClientBuilder::preferred_transports) gives
/// it): the first interface of the first preferred binding the card offers in a version the
/// client speaks; the card's order when none of them is.
///
/// ```
/// use a2a_types::v1::{AgentCard, AgentInterface};
///
/// let card = AgentCard::new("A", "d", "1").with_supported_interfaces([
///     AgentInterface::new("http://h/rpc", "JSONRPC", "1.0"),
///     AgentInterface::new("http://h/rest", "HTTP+JSON", "1.0"),
/// ]);
/// let chosen = a2a_client::card::select_interface_preferring(&card, &["HTTP+JSON"]).unwrap();
/// assert_eq!(chosen.url, "http://h/rest");
/// ```
///
/// # Errors
///
/// As [`select_interface`].
pub fn select_interface_preferring<'c, S: AsRef<str>>(
    card: &'c AgentCard,
    preferred: &[S],
) -> Result<&'c AgentInterface, Error> {
    let preferred: Vec<String> = preferred.iter().map(|s| s.as_ref().to_owned()).collect();
    Transports::new(&[])
        .select(card, &preferred, &VersionPolicy::Current)
        .map(|(interface, _)| interface)
}

/// Resolves an interface URL against the URL of the card it came from: an absolute URL stays
/// as it is, a path (`/a2a`) is taken on the card's origin.
pub(crate) fn resolve(url: &str, card_url: Option<&http::Uri>) -> Result<http::Uri, Error> {
    if url.starts_with('/')
        && !url.starts_with("//")
        && let Some(base) = card_url
        && let (Some(scheme), Some(authority)) = (base.scheme_str(), base.authority())
    {
        return parse_url(&format!("{scheme}://{authority}{url}"));
    }
    parse_url(url)
}

/// A card as fetched: read as 1.0, the document as received, and where it was found.
pub(crate) struct Fetched {
    pub(crate) card: AgentCard,
    #[cfg_attr(
        not(feature = "signing"),
        expect(dead_code, reason = "read by the signature checks only")
    )]
    pub(crate) document: serde_json::Value,
    pub(crate) url: http::Uri,
}

/// Fetches and normalizes the card of the agent at `base_url`; returns it with the document
/// and the URL it was found at.
pub(crate) async fn fetch(
    http: &HttpClient,
    policy: &Policy,
    base_url: &str,
) -> Result<Fetched, Error> {
    parse_url(base_url)?;
    let urls = card_urls(base_url);
    let mut first_error = None;
    for url in &urls {
        let uri = parse_url(url)?;
        let fetched = policy
            .run(
                CallInfo::new(CallInfo::AGENT_CARD, 0),
                Retry::Idempotent,
                |call| boxed(fetch_once(http, call, &uri)),
            )
            .await;
        match fetched {
            Ok((card, document)) => {
                return Ok(Fetched {
                    card,
                    document,
                    url: uri,
                });
            }
            // Not there: try the next location.
            Err(error @ Error::Http { .. })
                if error.http_status() == Some(StatusCode::NOT_FOUND) =>
            {
                first_error.get_or_insert(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(match first_error {
        Some(Error::Http { status, .. }) => Error::Http {
            status,
            body: format!("no agent card at {}", urls.join(" or ")),
        },
        Some(other) => other,
        None => Error::Protocol("no agent card location to try".to_owned()),
    })
}

async fn fetch_once(
    http: &HttpClient,
    call: CallInfo,
    uri: &http::Uri,
) -> Result<(AgentCard, serde_json::Value), Error> {
    // With `A2A-Version: 1.0`, so that servers that serve a card per version serve the 1.0 one.
    let request = http
        .request(Method::GET, uri.clone(), content_type::JSON, None)?
        .body(Bytes::new())
        .map_err(|err| Error::Config(format!("cannot build a request for {uri}: {err}")))?;
    let (head, bytes) = http.exchange(&call, request).await?;
    if !head.status.is_success() {
        return Err(Error::http(head.status, &bytes));
    }
    let card_error = |error| Error::Card {
        url: uri.to_string(),
        error,
    };
    // The document is kept for checking its signatures, which cover it as received.
    let document: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(document) => document,
        // Not JSON: the normalizer names the problem.
        Err(_) => {
            return Err(match a2a_types::card::parse_slice(&bytes) {
                Err(error) => card_error(error),
                Ok(_) => Error::Protocol(format!("the agent card at {uri} is not JSON")),
            });
        }
    };
    let card = a2a_types::card::parse_value(document.clone()).map_err(card_error)?;
    Ok((card, document))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_default_choice_is_the_cards_first_1_0_interface() {
        let card = AgentCard::new("A", "d", "1").with_supported_interfaces([
            AgentInterface::new("http://h/grpc", "GRPC", "1.0"),
            AgentInterface::new("http://h/rpc", "JSONRPC", "0.3"),
            AgentInterface::new("http://h/rest", "HTTP+JSON", "1.0"),
            AgentInterface::new("http://h/rpc1", "JSONRPC", "1.0"),
        ]);
        assert_eq!(select_interface(&card).unwrap().url, "http://h/rest");
        assert_eq!(
            select_interface_preferring(&card, &["JSONRPC"])
                .unwrap()
                .url,
            "http://h/rpc1"
        );
    }
}
