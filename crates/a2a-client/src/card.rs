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

/// An agent, as a person names it: what [`A2aClient::connect`](crate::A2aClient::connect),
/// [`ClientBuilder::connect`](crate::ClientBuilder::connect) and the `a2a` command's `-a` take.
///
/// * A URL (`http://`, `https://`): an origin gets the well-known paths
///   (`/.well-known/agent-card.json`, then the legacy `/.well-known/agent.json`); a path that
///   ends in `.json` is the card's own URL; any other path is the base of an agent mounted
///   there (its well-known paths under it) or the card's own URL, tried in that order.
/// * A bare host (`127.0.0.1:7420`, `localhost:7420`, `agent.example.com`,
///   `agent.example.com/card.json`): the same, over `http` for a loopback host (`localhost`,
///   `127.x.x.x`, `[::1]`) and `https` for any other.
/// * A card file: `file://...`, or a path that exists, starts with `/`, `.` or `~`, or ends in
///   `.json` (and is no host with a path).
///
/// ```
/// use a2a_client::card::AgentRef;
///
/// assert_eq!(
///     AgentRef::parse("127.0.0.1:7420").unwrap(),
///     AgentRef::Urls(vec![
///         "http://127.0.0.1:7420/.well-known/agent-card.json".into(),
///         "http://127.0.0.1:7420/.well-known/agent.json".into(),
///     ])
/// );
/// assert_eq!(
///     AgentRef::parse("agent.example.com/card.json").unwrap(),
///     AgentRef::Urls(vec!["https://agent.example.com/card.json".into()])
/// );
/// assert_eq!(AgentRef::parse("./card.json").unwrap(), AgentRef::File("./card.json".into()));
/// assert!(AgentRef::parse("ftp://agent.example.com").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentRef {
    /// The URLs the card may be at, to try in order (the next one after a 404).
    Urls(Vec<String>),
    /// A card file.
    File(std::path::PathBuf),
}

impl AgentRef {
    /// Reads a reference (surrounding whitespace ignored).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] for an empty reference, and for a URL whose scheme is not `http`,
    /// `https` or `file`.
    pub fn parse(reference: &str) -> Result<Self, Error> {
        let text = reference.trim();
        if text.is_empty() {
            return Err(Error::Config(
                "no agent: name one by its URL, host:port or card file".to_owned(),
            ));
        }
        if let Some(rest) = text.strip_prefix("file://") {
            let path = rest.strip_prefix("localhost").unwrap_or(rest);
            return Ok(AgentRef::File(path.into()));
        }
        if let Some((scheme, rest)) = text.split_once("://") {
            if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
                return Err(Error::Config(format!(
                    "cannot fetch an agent card from `{text}`: the scheme must be http, https or \
                     file"
                )));
            }
            return Ok(AgentRef::Urls(locations(
                &scheme.to_ascii_lowercase(),
                rest,
            )));
        }
        let path = std::path::PathBuf::from(expand_home(text));
        if path.exists()
            || text.starts_with(['/', '.', '~'])
            || text.to_ascii_lowercase().ends_with(".json") && !looks_like_host(text)
        {
            return Ok(AgentRef::File(path));
        }
        let host = text.split(['/', '?', '#']).next().unwrap_or(text);
        let scheme = if is_loopback(host) { "http" } else { "https" };
        Ok(AgentRef::Urls(locations(scheme, text)))
    }

    /// The URLs of a reference to an agent on the network.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse), and [`Error::Config`] for a card file, which is read by the
    /// caller ([`a2a_types::card::parse_slice`]) and given to
    /// [`ClientBuilder::from_card`](crate::ClientBuilder::from_card).
    pub fn urls(reference: &str) -> Result<Vec<String>, Error> {
        match Self::parse(reference)? {
            AgentRef::Urls(urls) => Ok(urls),
            AgentRef::File(path) => Err(Error::Config(format!(
                "`{}` names a card file ({}): read it (a2a_types::card::parse_slice) and build \
                 the client with ClientBuilder::from_card",
                reference.trim(),
                path.display()
            ))),
        }
    }
}

/// The card URLs for `scheme://rest`: see [`AgentRef`].
fn locations(scheme: &str, rest: &str) -> Vec<String> {
    let (authority, path) = match rest.find(['/', '?', '#']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let url = format!("{scheme}://{authority}{path}");
    let path = path.split(['?', '#']).next().unwrap_or(path);
    if path.to_ascii_lowercase().ends_with(".json") {
        return vec![url];
    }
    let base = format!("{scheme}://{authority}{}", path.trim_end_matches('/'));
    let mut urls = vec![
        format!("{base}{}", paths::AGENT_CARD),
        format!("{base}{}", paths::LEGACY_AGENT_CARD),
    ];
    if !path.trim_end_matches('/').is_empty() {
        urls.push(url);
    }
    urls
}

/// A bare host with a path to a `.json` card: `agent.example.com/card.json`.
fn looks_like_host(text: &str) -> bool {
    text.split_once('/')
        .is_some_and(|(host, _)| host.contains('.') || host.contains(':'))
}

/// `~/` as the home directory.
fn expand_home(text: &str) -> String {
    match (text.strip_prefix("~/"), std::env::var("HOME")) {
        (Some(rest), Ok(home)) => format!("{home}/{rest}"),
        _ => text.to_owned(),
    }
}

/// `localhost`, `127.x.x.x`, `[::1]`, with or without a port.
fn is_loopback(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or(rest)
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    name.eq_ignore_ascii_case("localhost")
        || name == "::1"
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The URLs to try for the card of the agent `reference` names, in order (see [`AgentRef`]);
/// none for a card file or a reference that is no agent.
///
/// ```
/// assert_eq!(
///     a2a_client::card::card_urls("http://127.0.0.1:7420/"),
///     ["http://127.0.0.1:7420/.well-known/agent-card.json", "http://127.0.0.1:7420/.well-known/agent.json"]
/// );
/// assert_eq!(a2a_client::card::card_urls("https://a.example/card.json"), ["https://a.example/card.json"]);
/// assert_eq!(
///     a2a_client::card::card_urls("https://a.example/agents/echo"),
///     [
///         "https://a.example/agents/echo/.well-known/agent-card.json",
///         "https://a.example/agents/echo/.well-known/agent.json",
///         "https://a.example/agents/echo",
///     ]
/// );
/// ```
pub fn card_urls(reference: &str) -> Vec<String> {
    AgentRef::urls(reference).unwrap_or_default()
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
    Transports::new(&[], false)
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

/// Fetches and normalizes the card of the agent `agent` names ([`AgentRef`]); returns it with
/// the document and the URL it was found at.
pub(crate) async fn fetch(
    http: &HttpClient,
    policy: &Policy,
    agent: &str,
) -> Result<Fetched, Error> {
    let urls = AgentRef::urls(agent)?;
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
    fn references_as_the_a2a_command_takes_them() {
        let urls = |r: &str| match AgentRef::parse(r).unwrap() {
            AgentRef::Urls(urls) => urls,
            other => panic!("{r}: {other:?}"),
        };
        assert_eq!(
            urls("127.0.0.1:7420"),
            [
                "http://127.0.0.1:7420/.well-known/agent-card.json",
                "http://127.0.0.1:7420/.well-known/agent.json",
            ]
        );
        assert_eq!(
            urls(" agent.example.com "),
            [
                "https://agent.example.com/.well-known/agent-card.json",
                "https://agent.example.com/.well-known/agent.json",
            ]
        );
        assert_eq!(
            urls("HTTP://localhost:9/"),
            [
                "http://localhost:9/.well-known/agent-card.json",
                "http://localhost:9/.well-known/agent.json",
            ]
        );
        assert_eq!(
            urls("https://a.example/cards/7?v=2"),
            [
                "https://a.example/cards/7/.well-known/agent-card.json",
                "https://a.example/cards/7/.well-known/agent.json",
                "https://a.example/cards/7?v=2",
            ]
        );
        assert_eq!(
            urls("agent.example.com/card.json"),
            ["https://agent.example.com/card.json"]
        );
        assert_eq!(
            urls("[::1]:8080/Card.JSON"),
            ["http://[::1]:8080/Card.JSON"]
        );
        let file = |r: &str| AgentRef::parse(r).unwrap();
        assert_eq!(
            file("file:///tmp/c.json"),
            AgentRef::File("/tmp/c.json".into())
        );
        assert_eq!(
            file("file://localhost/tmp/c.json"),
            AgentRef::File("/tmp/c.json".into())
        );
        assert_eq!(file("./card.json"), AgentRef::File("./card.json".into()));
        assert_eq!(file("card.json"), AgentRef::File("card.json".into()));
        assert_eq!(file("/etc/agent"), AgentRef::File("/etc/agent".into()));
        assert_eq!(
            AgentRef::parse("ftp://x").unwrap_err().to_string(),
            "cannot fetch an agent card from `ftp://x`: the scheme must be http, https or file"
        );
        assert!(AgentRef::parse(" ").is_err());
        assert_eq!(card_urls("card.json"), Vec::<String>::new());
    }

    #[test]
    fn loopback_hosts() {
        for host in [
            "localhost",
            "LOCALHOST:80",
            "127.0.0.1",
            "127.1.2.3:9",
            "[::1]:8080",
        ] {
            assert!(is_loopback(host), "{host}");
        }
        for host in ["example.com", "10.0.0.1:80", "[2001:db8::1]"] {
            assert!(!is_loopback(host), "{host}");
        }
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
