//! The agent card as the service presents it, assembled in one place: the configured card with
//! push delivery declared (or corrected to false), this service's interfaces first (one per
//! binding and protocol version), the signed-delivery extension's `jwksUrl` made absolute, the
//! card's signature ([`CardSigning`]); the JWKS the service serves; and
//! the endpoints that serve them, one document for every protocol version.
//!
//! [`ServiceBuilder::build`](crate::ServiceBuilder::build) assembles the card once; the
//! handler gets the public card from there, the card endpoint the rest.

mod endpoint;
#[cfg(feature = "signing")]
mod signing;

use a2a_types::protocol::generations::VERSION_1_1;
use a2a_types::protocol::{
    ProtocolVersion, VERSION_0_1, VERSION_0_3, VERSION_1_0, VersionNumber, paths,
};
use a2a_types::v1::{AgentCard, AgentInterface};
#[cfg(feature = "signing")]
use bytes::Bytes;

#[cfg(feature = "signing")]
pub(crate) use endpoint::jwks_response;
pub(crate) use endpoint::{CardEndpoint, error_response, only_get, union_json};
#[cfg(feature = "signing")]
pub use signing::CardSigning;

/// The path of the agent card (A2A 0.3 and 1.0): [`a2a_types::protocol::paths::AGENT_CARD`].
pub const AGENT_CARD_PATH: &str = paths::AGENT_CARD;
/// The path of the agent card in A2A 0.1 and 0.2:
/// [`a2a_types::protocol::paths::LEGACY_AGENT_CARD`].
pub const LEGACY_AGENT_CARD_PATH: &str = paths::LEGACY_AGENT_CARD;

/// An interface the card announces: a protocol binding (`JSONRPC`, `HTTP+JSON`, `GRPC`, ...) in
/// a protocol version (`1.0`, `0.3`, ...), reached at a URL relative to the service's.
///
/// ```
/// use a2a_server::card::{Interface, InterfaceUrl};
///
/// let grpc = Interface::new("GRPC", "1.0", InterfaceUrl::Port(50051));
/// assert_eq!(grpc.url.url("http://agent.example:7420"), "agent.example:50051");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Interface {
    /// The protocol binding, as the card's `protocolBinding` names it
    /// ([`a2a_types::v1::binding`]).
    pub binding: String,
    /// The protocol version, as the card's `protocolVersion` names it (`1.0`, `0.3`, `0.1`).
    pub version: String,
    /// Where it is reached, relative to the service's URL.
    pub url: InterfaceUrl,
}

impl Interface {
    /// The interface of `binding` in `version`, reached at `url`.
    pub fn new(binding: impl Into<String>, version: impl Into<String>, url: InterfaceUrl) -> Self {
        Self {
            binding: binding.into(),
            version: version.into(),
            url,
        }
    }

    /// The card's entry for this interface when the service is reached at `base`.
    fn at(&self, base: &str) -> AgentInterface {
        AgentInterface::new(
            self.url.url(base),
            self.binding.as_str(),
            self.version.as_str(),
        )
    }
}

/// Where an interface the service announces in its card is reached, relative to the URL clients
/// reach the service at (the [`public_url`](crate::ServiceBuilder::public_url), or the URL of each
/// card request): see [`ServiceBuilder::interface`](crate::ServiceBuilder::interface).
///
/// ```
/// use a2a_server::card::InterfaceUrl;
///
/// let base = "https://agent.example.com/a2a";
/// assert_eq!(InterfaceUrl::Path("/rpc".into()).url(base), "https://agent.example.com/a2a/rpc");
/// assert_eq!(InterfaceUrl::Authority.url(base), "agent.example.com:443");
/// assert_eq!(InterfaceUrl::Port(50051).url("http://[::1]:7420"), "[::1]:50051");
/// assert_eq!(InterfaceUrl::Url("grpc.example.com:8443".into()).url(base), "grpc.example.com:8443");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InterfaceUrl {
    /// The base URL with this path appended (`""` for the base URL itself).
    Path(String),
    /// `host:port` of the base URL (the scheme's default port when it names none): the form of a
    /// gRPC interface's URL (spec 1.0 §4), for gRPC served on the same port.
    Authority,
    /// `host:port` with the base URL's host and this port: gRPC on a port of its own.
    Port(u16),
    /// This URL, as it is.
    Url(String),
}

impl InterfaceUrl {
    /// The interface's URL when the service is reached at `base` (`scheme://host[:port][/path]`).
    pub fn url(&self, base: &str) -> String {
        let base = base.trim_end_matches('/');
        let (scheme, rest) = base.split_once("://").unwrap_or(("http", base));
        let authority = rest.split('/').next().unwrap_or(rest);
        let (host, port) = match authority.rfind(':') {
            Some(i) if !authority[i..].contains(']') => {
                (&authority[..i], Some(&authority[i + 1..]))
            }
            _ => (authority, None),
        };
        match self {
            InterfaceUrl::Path(path) => format!("{base}{path}"),
            InterfaceUrl::Authority => {
                let default = if scheme.eq_ignore_ascii_case("https") {
                    "443"
                } else {
                    "80"
                };
                format!("{host}:{}", port.unwrap_or(default))
            }
            InterfaceUrl::Port(port) => format!("{host}:{port}"),
            InterfaceUrl::Url(url) => url.clone(),
        }
    }
}

/// The protocol versions a service serves on its JSON-RPC and HTTP+JSON bindings (and its
/// card announces): 1.0 always; 0.3 (with 0.2, and the flat dialect that shares 0.3's method
/// names) and 0.1 by choice, both by default
/// ([`ServiceBuilder::versions`](crate::ServiceBuilder::versions)); the A2A 1.1 draft (task
/// generations: `docs/versions.md`) only when
/// chosen ([`with_v1_1`](Self::with_v1_1), or `1.1` among the names given to
/// [`parse`](Self::parse)).
///
/// A version left out is not in the card (with only 1.0 served, the card is a pure 1.0 card:
/// no `url`, `preferredTransport`, `protocolVersion` nor `additionalInterfaces`), and its
/// methods and routes are answered with `VersionNotSupportedError` (-32009; HTTP 400).
///
/// ```
/// use a2a_server::card::Versions;
/// use a2a_types::protocol::ProtocolVersion;
///
/// let only_1_0 = Versions::parse(["1.0"]).unwrap();
/// assert_eq!(only_1_0, Versions::v1_only());
/// assert!(!only_1_0.serves(ProtocolVersion::V0_3));
/// assert_eq!(Versions::parse(["1", "0.2"]).unwrap().names(), ["1.0", "0.3"]);
/// assert_eq!(Versions::default().names(), ["1.0", "0.3", "0.1"]);
/// assert_eq!(Versions::parse(["1.0", "1.1"]).unwrap(), Versions::v1_only().with_v1_1());
/// assert_eq!(Versions::all().with_v1_1().names(), ["1.1", "1.0", "0.3", "0.1"]);
/// assert_eq!(
///     Versions::parse(["0.3"]).unwrap_err().to_string(),
///     "A2A 1.0 is always served: name it beside the older versions (1.0, 0.3)"
/// );
/// assert_eq!(
///     Versions::parse(["1.0", "2.0"]).unwrap_err().to_string(),
///     "A2A version `2.0` is not one this server can serve (1.1; 1.0; 0.3 and 0.2; 0.1)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versions {
    v1_1: bool,
    v0_3: bool,
    v0_1: bool,
}

impl Default for Versions {
    /// Every version: 1.0, 0.3 (with 0.2), 0.1.
    fn default() -> Self {
        Self::all()
    }
}

impl Versions {
    /// Every released version: 1.0, 0.3 (with 0.2), 0.1 (not the 1.1 draft).
    pub const fn all() -> Self {
        Self {
            v1_1: false,
            v0_3: true,
            v0_1: true,
        }
    }

    /// 1.0 alone.
    pub const fn v1_only() -> Self {
        Self {
            v1_1: false,
            v0_3: false,
            v0_1: false,
        }
    }

    /// These versions and `version` (1.0 is always served).
    #[must_use]
    pub fn with(mut self, version: ProtocolVersion) -> Self {
        match version {
            ProtocolVersion::V0_3 => self.v0_3 = true,
            ProtocolVersion::V0_1 => self.v0_1 = true,
            _ => {}
        }
        self
    }

    /// These versions and the A2A 1.1 draft: a caller that sends `A2A-Version: 1.1` gets
    /// the task generations, and the card lists the 1.1 interfaces (after the 1.0 ones).
    #[must_use]
    pub const fn with_v1_1(mut self) -> Self {
        self.v1_1 = true;
        self
    }

    /// Whether the A2A 1.1 draft is served.
    pub const fn serves_v1_1(&self) -> bool {
        self.v1_1
    }

    /// Whether `version` is served.
    pub fn serves(&self, version: ProtocolVersion) -> bool {
        match version {
            ProtocolVersion::V0_3 => self.v0_3,
            ProtocolVersion::V0_1 => self.v0_1,
            _ => true,
        }
    }

    /// The versions named (`1.0`, `0.3`, `0.2`, `0.1`, as `A2A-Version` writes them; `0.2`
    /// stands for 0.3, which serves both). 1.0 must be among them.
    ///
    /// # Errors
    ///
    /// A name that is no version this server can serve, or a list without 1.0.
    pub fn parse<I, S>(names: I) -> Result<Self, InvalidVersions>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut versions = Self::v1_only();
        let mut v1 = false;
        for name in names {
            let name = name.as_ref();
            let number = VersionNumber::parse(name);
            match number.and_then(VersionNumber::protocol_version) {
                Some(ProtocolVersion::V1) if number == Some(VersionNumber::new(1, 0)) => v1 = true,
                Some(ProtocolVersion::V1) if number == Some(VersionNumber::new(1, 1)) => {
                    versions = versions.with_v1_1();
                }
                Some(version @ (ProtocolVersion::V0_3 | ProtocolVersion::V0_1)) => {
                    versions = versions.with(version);
                }
                _ => {
                    return Err(InvalidVersions(format!(
                        "A2A version `{}` is not one this server can serve (1.1; 1.0; 0.3 and 0.2; 0.1)",
                        name.trim()
                    )));
                }
            }
        }
        if !v1 {
            return Err(InvalidVersions(format!(
                "A2A 1.0 is always served: name it beside the older versions ({})",
                versions.names().join(", ")
            )));
        }
        Ok(versions)
    }

    /// The versions served, newest first, as a card's interfaces name them.
    pub fn names(&self) -> Vec<&'static str> {
        [
            (VERSION_1_1, self.v1_1),
            (VERSION_1_0, true),
            (VERSION_0_3, self.v0_3),
            (VERSION_0_1, self.v0_1),
        ]
        .into_iter()
        .filter_map(|(name, on)| on.then_some(name))
        .collect()
    }

    /// Whether a card interface's `version` is served.
    pub(crate) fn serves_name(&self, version: &str) -> bool {
        let number = VersionNumber::parse(version);
        if number == Some(VersionNumber::new(1, 1)) {
            return self.v1_1;
        }
        number
            .and_then(VersionNumber::protocol_version)
            .is_some_and(|v| self.serves(v))
    }
}

/// Version names that do not make a [`Versions`]: the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidVersions(String);

impl std::fmt::Display for InvalidVersions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidVersions {}

/// A binding this service serves itself: its name, where, and the protocol versions it speaks
/// there.
#[derive(Clone, Debug)]
pub(crate) struct Served {
    pub(crate) binding: &'static str,
    pub(crate) url: InterfaceUrl,
    pub(crate) versions: Vec<&'static str>,
}

/// The interfaces the card lists first, in the order of preference: 1.0 of each binding the
/// service serves (in the order of `served`), then `added` (bindings served beside it, such
/// as gRPC), then the other versions, newest first (the 1.1 draft, which only a client that
/// opts in looks for, then the older ones). An added interface of a version `served` lists
/// (the 1.1 draft's gRPC) comes after the served ones of that version; every other added
/// interface after the 1.0 ones.
pub(crate) fn interfaces(served: &[Served], added: Vec<Interface>) -> Vec<Interface> {
    let mut versions: Vec<&str> = served
        .iter()
        .flat_map(|s| s.versions.iter().copied())
        .collect();
    versions.sort_by_key(|v| {
        let number = VersionNumber::parse(v);
        (
            number != Some(VersionNumber::new(1, 0)),
            std::cmp::Reverse(number),
        )
    });
    versions.dedup();
    let same = |a: &str, b: &str| {
        a.trim() == b.trim()
            || VersionNumber::parse(a).is_some_and(|n| VersionNumber::parse(b) == Some(n))
    };
    // Added interfaces of a later group (a served version other than 1.0), by group.
    let (mut later, mut first): (Vec<Interface>, Vec<Interface>) =
        added.into_iter().partition(|i| {
            versions.iter().any(|v| {
                same(v, &i.version) && VersionNumber::parse(v) != Some(VersionNumber::new(1, 0))
            })
        });
    let mut out = Vec::new();
    for version in versions {
        for binding in served.iter().filter(|s| s.versions.contains(&version)) {
            out.push(Interface::new(
                binding.binding,
                version,
                binding.url.clone(),
            ));
        }
        out.append(&mut first);
        let (here, rest): (Vec<Interface>, Vec<Interface>) =
            later.into_iter().partition(|i| same(version, &i.version));
        out.extend(here);
        later = rest;
    }
    out.append(&mut first);
    out.extend(later);
    out
}

/// What the card is assembled from.
pub(crate) struct Parts<'a> {
    /// The card as configured.
    pub(crate) card: AgentCard,
    /// The interfaces this service announces first ([`interfaces`]).
    pub(crate) interfaces: Vec<Interface>,
    /// Where clients reach the service, when configured.
    pub(crate) public_url: Option<&'a str>,
    /// The protocol versions served: the older versions' fields are in the card only when
    /// served.
    pub(crate) versions: Versions,
    /// `Cache-Control: max-age` of the card and the JWKS, in seconds.
    pub(crate) max_age: u32,
    /// Push delivery, when on.
    #[cfg(feature = "push")]
    pub(crate) push: Option<&'a crate::push::PushSettings>,
    /// How the card is signed, when it is.
    #[cfg(feature = "signing")]
    pub(crate) signing: Option<CardSigning>,
}

/// The card, assembled: what the handler holds as the public card, what the card endpoint
/// serves, and the JWKS.
#[derive(Debug)]
pub(crate) struct Assembled {
    /// The public card: as served at the public URL, or, without one, with this service's
    /// interfaces relative to no base.
    pub(crate) public: AgentCard,
    /// The card at its well-known paths.
    pub(crate) endpoint: CardEndpoint,
    /// The JWKS at `/.well-known/jwks.json`: the keys of signed push deliveries, then the card's
    /// key; `None` when nothing is signed.
    #[cfg(feature = "signing")]
    pub(crate) jwks: Option<Bytes>,
}

/// Assembles the card: push declared (once), the interfaces, the signature, the JWKS.
pub(crate) fn assemble(parts: Parts<'_>) -> Assembled {
    let mut card = parts.card;
    declare(
        &mut card,
        #[cfg(feature = "push")]
        parts.push,
    );
    #[cfg(feature = "signing")]
    let jwks = served_jwks(
        #[cfg(feature = "push")]
        parts.push,
        parts.signing.as_ref(),
    );
    let endpoint = CardEndpoint::new(
        card,
        parts.interfaces,
        parts.public_url,
        parts.versions,
        parts.max_age,
        #[cfg(feature = "signing")]
        parts.signing,
    );
    let public = endpoint
        .public_card()
        .cloned()
        .unwrap_or_else(|| endpoint.card_at(""));
    Assembled {
        public,
        endpoint,
        #[cfg(feature = "signing")]
        jwks,
    }
}

/// Declares push delivery in `card` ([`crate::push`]'s declaration when the feature is on); a
/// build without the `push` feature corrects a card that declares it to false.
pub(crate) fn declare(
    card: &mut AgentCard,
    #[cfg(feature = "push")] push: Option<&crate::push::PushSettings>,
) {
    #[cfg(feature = "push")]
    crate::push::declare(card, push);
    #[cfg(not(feature = "push"))]
    if card.capabilities.push_notifications == Some(true) {
        tracing::warn!(
            "the card declares capabilities.pushNotifications, but this build of a2a-server \
             has no `push` feature: it is declared false"
        );
        card.capabilities.push_notifications = Some(false);
    }
}

/// The card of `card` served at `base`: `interfaces` first (an entry the card already lists is
/// not repeated), the signed-delivery JWKS URL made absolute.
fn card_at(card: &AgentCard, interfaces: &[Interface], base: &str) -> AgentCard {
    let mut card = card.clone();
    let base = base.trim_end_matches('/');
    let ours: Vec<AgentInterface> = interfaces.iter().map(|i| i.at(base)).collect();
    card.supported_interfaces.retain(|i| !ours.contains(i));
    card.supported_interfaces.splice(0..0, ours);
    #[cfg(feature = "push")]
    crate::push::locate_jwks(&mut card, base);
    card
}

/// The JWKS the service serves at `/.well-known/jwks.json`: the keys of signed push deliveries,
/// then the card's key; `None` when nothing is signed.
#[cfg(feature = "signing")]
fn served_jwks(
    #[cfg(feature = "push")] push: Option<&crate::push::PushSettings>,
    card: Option<&CardSigning>,
) -> Option<Bytes> {
    let mut keys: Vec<a2a_jose::Jwk> = Vec::new();
    #[cfg(feature = "push")]
    if let Some(push) = push {
        keys.extend(push.jwks().keys);
    }
    if let Some(card) = card {
        let jwk = card.public_jwk();
        if !keys.iter().any(|k| k.kid == jwk.kid) {
            keys.push(jwk);
        }
    }
    (!keys.is_empty()).then(|| {
        Bytes::from(serde_json::to_vec(&a2a_jose::Jwks::new(keys)).expect("a JWKS serializes"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_versions_first_then_the_added_then_the_older() {
        let served = [
            Served {
                binding: "JSONRPC",
                url: InterfaceUrl::Path("/rpc".into()),
                versions: vec!["1.0", "0.3", "0.1"],
            },
            Served {
                binding: "HTTP+JSON",
                url: InterfaceUrl::Path(String::new()),
                versions: vec!["1.0", "0.3"],
            },
        ];
        let grpc = Interface::new("GRPC", "1.0", InterfaceUrl::Authority);
        let listed: Vec<(String, String)> = interfaces(&served, vec![grpc.clone()])
            .into_iter()
            .map(|i| (i.binding, i.version))
            .collect();
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter()
                .map(|(b, v)| ((*b).to_owned(), (*v).to_owned()))
                .collect()
        };
        assert_eq!(
            listed,
            pairs(&[
                ("JSONRPC", "1.0"),
                ("HTTP+JSON", "1.0"),
                ("GRPC", "1.0"),
                ("JSONRPC", "0.3"),
                ("HTTP+JSON", "0.3"),
                ("JSONRPC", "0.1"),
            ])
        );
        // Nothing served here: the added interfaces alone.
        assert_eq!(interfaces(&[], vec![grpc.clone()]), vec![grpc.clone()]);

        // With the 1.1 draft: an added 1.1 interface after the served 1.1 ones; an added
        // interface of a version not served here after the 1.0 ones.
        let with_draft = [
            Served {
                binding: "JSONRPC",
                url: InterfaceUrl::Path("/rpc".into()),
                versions: vec!["1.1", "1.0", "0.3"],
            },
            Served {
                binding: "HTTP+JSON",
                url: InterfaceUrl::Path(String::new()),
                versions: vec!["1.1", "1.0"],
            },
        ];
        let grpc_1_1 = Interface::new("GRPC", "1.1", InterfaceUrl::Authority);
        let other = Interface::new("GRPC", "0.2", InterfaceUrl::Port(9));
        let listed: Vec<(String, String)> =
            interfaces(&with_draft, vec![grpc.clone(), grpc_1_1.clone(), other])
                .into_iter()
                .map(|i| (i.binding, i.version))
                .collect();
        assert_eq!(
            listed,
            pairs(&[
                ("JSONRPC", "1.0"),
                ("HTTP+JSON", "1.0"),
                ("GRPC", "1.0"),
                ("GRPC", "0.2"),
                ("JSONRPC", "1.1"),
                ("HTTP+JSON", "1.1"),
                ("GRPC", "1.1"),
                ("JSONRPC", "0.3"),
            ])
        );
        assert_eq!(
            interfaces(&[], vec![grpc.clone(), grpc_1_1.clone()]),
            vec![grpc, grpc_1_1]
        );
    }
}
