//! Which transport serves which interface of a card: the built-in transports (one per binding
//! and protocol version, each a codec of its wire over the shared HTTP plumbing), the caller's
//! factories, the version policy, and the choice of an interface.

use std::sync::Arc;

use a2a_types::protocol::generations::VERSION_1_1;
use a2a_types::protocol::{VERSION_0_1, VERSION_0_2, VERSION_0_3, VERSION_1_0, VersionNumber};
use a2a_types::v1::{AgentCard, AgentInterface, binding};

use super::jsonrpc::{JsonRpcTransport, RpcCodec};
use super::rest::{RestCodec, RestTransport};
use super::{Transport, TransportFactory, TransportTarget, jsonrpc, rest};
use crate::Error;
use crate::http::parse_url;

/// True when a transport that speaks version `speaks` serves an interface of `protocolVersion`
/// `offered`: from 1 on, the same major version and a minor version at least the one spoken
/// (`1.0` serves `1.0`, `1.1`, `1`; `1.1` serves `1.1`, `1.2`, not `1.0`: a later minor version
/// answers an earlier one's callers, not the other way round), before 1 the same `Major.Minor`
/// (`0.3` serves `0.3` and `0.3.0`, not `0.2`). An empty or malformed `offered` matches nothing.
///
/// ```
/// use a2a_client::transport::version_matches;
///
/// assert!(version_matches("1.0", "1.1"));
/// assert!(version_matches("1.1", "1.1"));
/// assert!(!version_matches("1.1", "1.0"));
/// assert!(version_matches("0.3", "0.3.0"));
/// assert!(!version_matches("0.3", "0.2.5"));
/// assert!(!version_matches("1.0", "0.3"));
/// assert!(!version_matches("1.0", ""));
/// ```
pub fn version_matches(speaks: &str, offered: &str) -> bool {
    match (VersionNumber::parse(speaks), VersionNumber::parse(offered)) {
        (Some(speaks), Some(offered)) => serves(speaks, offered),
        _ => false,
    }
}

/// [`version_matches`] on read version numbers.
fn serves(speaks: VersionNumber, offered: VersionNumber) -> bool {
    if speaks.is_legacy() {
        speaks == offered
    } else {
        speaks.major == offered.major && speaks.minor <= offered.minor
    }
}

/// `versions` (newest first) in runs that one choice of interface weighs together: the minor
/// versions of one major version from 1 on, each legacy version alone.
fn version_groups<'v>(versions: &[&'v str]) -> Vec<Vec<&'v str>> {
    let key = |v: &str| {
        VersionNumber::parse(v).map(|n| {
            if n.is_legacy() {
                (n.major, Some(n.minor))
            } else {
                (n.major, None)
            }
        })
    };
    let mut groups: Vec<Vec<&str>> = Vec::new();
    for version in versions {
        match groups.last_mut() {
            Some(group) if key(group[0]) == key(version) => group.push(version),
            _ => groups.push(vec![version]),
        }
    }
    groups
}

/// True for a version before 1.0 (0.3, 0.2, 0.1), or one that is no version number: a legacy
/// version, used only when allowed.
pub(crate) fn is_legacy(version: &str) -> bool {
    VersionNumber::parse(version).is_none_or(VersionNumber::is_legacy)
}

/// Which protocol versions a client may use: the builder's setting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum VersionPolicy {
    /// 1.x only (spec §3.6: no silent downgrade; the A2A CLI specification §13.2: never below
    /// 1.0 without an explicit opt-in).
    #[default]
    Current,
    /// The newest version the card offers, legacy ones included; a 1.0 call answered
    /// `VersionNotSupportedError` is retried once in 0.3.
    Negotiate,
    /// Exactly this version: a legacy one as it is; from 1 on, the newest version the client
    /// speaks of that major version up to that minor one (`1.1`: 1.1, else 1.0).
    Exactly(VersionNumber),
}

impl VersionPolicy {
    /// True when the client may use a factory that speaks `version`.
    fn allows(&self, version: &str) -> bool {
        match self {
            VersionPolicy::Current => !is_legacy(version),
            VersionPolicy::Negotiate => true,
            VersionPolicy::Exactly(wanted) if wanted.is_legacy() => VersionNumber::parse(version)
                .is_some_and(|version| serves(*wanted, version) && serves(version, *wanted)),
            VersionPolicy::Exactly(wanted) => {
                VersionNumber::parse(version).is_some_and(|version| serves(version, *wanted))
            }
        }
    }
}

/// How a built-in transport is made for a target, given the version it speaks.
type Build = fn(&TransportTarget<'_>, &'static str) -> Result<Arc<dyn Transport>, Error>;

/// A built-in transport: the binding and version it serves, and how it is made.
struct BuiltIn {
    binding: &'static str,
    version: &'static str,
    build: Build,
}

impl TransportFactory for BuiltIn {
    fn binding(&self) -> &str {
        self.binding
    }

    fn protocol_version(&self) -> &str {
        self.version
    }

    fn build(&self, target: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
        (self.build)(target, self.version)
    }
}

/// A JSON-RPC transport speaking `codec` to the target's URL.
fn over_jsonrpc<C: RpcCodec>(
    target: &TransportTarget<'_>,
    codec: impl FnOnce(&http::Uri) -> C,
) -> Result<Arc<dyn Transport>, Error> {
    let endpoint = parse_url(&target.endpoint.to_string())?;
    let codec = codec(&endpoint);
    Ok(Arc::new(JsonRpcTransport::new(
        target.http.clone(),
        endpoint,
        codec,
    )))
}

/// An HTTP+JSON transport speaking `codec` under the target's URL.
fn over_rest<C: RestCodec>(
    target: &TransportTarget<'_>,
    codec: C,
) -> Result<Arc<dyn Transport>, Error> {
    let endpoint = parse_url(&target.endpoint.to_string())?;
    Ok(Arc::new(RestTransport::new(
        target.http.clone(),
        &endpoint,
        codec,
    )?))
}

/// The built-in transports of the 1.1 draft (task generations), used only when the caller
/// allows 1.1 ([`ClientBuilder::allow_v1_1`](crate::ClientBuilder::allow_v1_1)).
fn built_in_v1_1() -> [BuiltIn; 2] {
    use binding::{HTTP_JSON, JSONRPC};
    [
        BuiltIn {
            binding: JSONRPC,
            version: VERSION_1_1,
            build: |t, _| over_jsonrpc(t, |_| jsonrpc::v1::Codec::V1_1),
        },
        BuiltIn {
            binding: HTTP_JSON,
            version: VERSION_1_1,
            build: |t, _| over_rest(t, rest::v1::Codec::V1_1),
        },
    ]
}

/// The built-in transports, in the order they are asked: 1.0, then the legacy versions.
fn built_in() -> [BuiltIn; 8] {
    use binding::{HTTP_JSON, JSONRPC};
    [
        BuiltIn {
            binding: JSONRPC,
            version: VERSION_1_0,
            build: |t, _| over_jsonrpc(t, |_| jsonrpc::v1::Codec::V1_0),
        },
        BuiltIn {
            binding: HTTP_JSON,
            version: VERSION_1_0,
            build: |t, _| over_rest(t, rest::v1::Codec::V1_0),
        },
        BuiltIn {
            binding: JSONRPC,
            version: VERSION_0_3,
            build: |t, v| over_jsonrpc(t, |url| jsonrpc::v0_3::Codec::new(v, url)),
        },
        BuiltIn {
            binding: HTTP_JSON,
            version: VERSION_0_3,
            build: |t, v| over_rest(t, rest::v0_3::Codec::new(v)),
        },
        BuiltIn {
            binding: JSONRPC,
            version: VERSION_0_2,
            build: |t, v| over_jsonrpc(t, |url| jsonrpc::v0_3::Codec::new(v, url)),
        },
        BuiltIn {
            binding: HTTP_JSON,
            version: VERSION_0_2,
            build: |t, v| over_rest(t, rest::v0_3::Codec::new(v)),
        },
        BuiltIn {
            binding: JSONRPC,
            version: VERSION_0_1,
            build: |t, _| over_jsonrpc(t, |_| jsonrpc::v0_1::Codec),
        },
        BuiltIn {
            binding: a2a_types::flat::BINDING,
            version: a2a_types::flat::VERSION,
            build: |t, _| over_jsonrpc(t, |_| jsonrpc::flat::Codec),
        },
    ]
}

/// The table of transports a client can use, in the order they are asked.
#[derive(Clone)]
pub(crate) struct Transports {
    factories: Vec<Arc<dyn TransportFactory>>,
}

impl Transports {
    /// The caller's factories, then the built-in ones (1.1 when `v1_1` allows the draft, 1.0,
    /// then the legacy versions).
    pub(crate) fn new(extra: &[Arc<dyn TransportFactory>], v1_1: bool) -> Self {
        let mut factories = extra.to_vec();
        if v1_1 {
            for factory in built_in_v1_1() {
                factories.push(Arc::new(factory));
            }
        }
        for factory in built_in() {
            factories.push(Arc::new(factory));
        }
        Self { factories }
    }

    /// The first factory of version `version` that serves `interface` (an interface without a
    /// version taken as `offered`, when given).
    fn find(
        &self,
        interface: &AgentInterface,
        version: &str,
        offered: Option<&str>,
    ) -> Option<&Arc<dyn TransportFactory>> {
        let offered = match interface.protocol_version.trim() {
            "" => offered.unwrap_or(""),
            declared => declared,
        };
        self.factories.iter().find(|factory| {
            factory.protocol_version() == version
                && factory
                    .binding()
                    .eq_ignore_ascii_case(interface.protocol_binding.trim())
                && version_matches(factory.protocol_version(), offered)
        })
    }

    /// The versions of the factories `policy` allows, newest first, each once.
    fn versions(&self, policy: &VersionPolicy) -> Vec<&str> {
        let mut versions: Vec<&str> = Vec::new();
        for factory in &self.factories {
            let version = factory.protocol_version();
            if policy.allows(version) && !versions.contains(&version) {
                versions.push(version);
            }
        }
        versions.sort_by_key(|v| std::cmp::Reverse(VersionNumber::parse(v)));
        versions
    }

    /// What the client speaks under `policy`, `binding version`, each once.
    pub(crate) fn supported(&self, policy: &VersionPolicy) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for version in self.versions(policy) {
            for factory in &self.factories {
                let entry = format!("{} {}", factory.binding(), factory.protocol_version());
                if factory.protocol_version() == version && !out.contains(&entry) {
                    out.push(entry);
                }
            }
        }
        out
    }

    /// The interface to use and its factory, under `policy`: for each version the client may
    /// speak, newest first, the first interface in the caller's order of bindings
    /// (`preferred`) and then in the card's order that a factory of that version serves.
    /// Failing that, the first one that has no `protocolVersion` at all (a 1.0 card that left
    /// out the required field), taken for 1.0; and with [`VersionPolicy::Exactly`], the first
    /// interface of a binding the client speaks in that version, whatever the card says its
    /// version is (the caller said which version the agent speaks).
    pub(crate) fn select<'c>(
        &self,
        card: &'c AgentCard,
        preferred: &[String],
        policy: &VersionPolicy,
    ) -> Result<(&'c AgentInterface, Arc<dyn TransportFactory>), Error> {
        let interfaces = &card.supported_interfaces;
        let by_preference = preferred.iter().flat_map(|binding| {
            interfaces.iter().filter(move |i| {
                i.protocol_binding
                    .trim()
                    .eq_ignore_ascii_case(binding.trim())
            })
        });
        let order: Vec<&AgentInterface> = by_preference.chain(interfaces.iter()).collect();
        let versions = self.versions(policy);
        let found = |i: &&'c AgentInterface, version: &str, offered: Option<&str>| {
            self.find(i, version, offered).map(|f| (*i, f.clone()))
        };
        // Interfaces whose declared version the client speaks, newest version first; among
        // the minor versions of one 1.x, the caller's bindings come first (the 1.1 draft does
        // not override `--transport`), then the newest version.
        let declared = version_groups(&versions).iter().find_map(|group| {
            let of = |binding: &str| {
                let binding = binding.trim().to_owned();
                interfaces
                    .iter()
                    .filter(move |i| i.protocol_binding.trim().eq_ignore_ascii_case(&binding))
            };
            preferred
                .iter()
                .find_map(|b| {
                    group
                        .iter()
                        .find_map(|v| of(b).find_map(|i| found(&i, v, None)))
                })
                .or_else(|| {
                    group
                        .iter()
                        .find_map(|v| interfaces.iter().find_map(|i| found(&i, v, None)))
                })
        });
        let chosen = declared
            .or_else(|| {
                // Interfaces without a version, taken for 1.0.
                let unversioned = |i: &&&AgentInterface| i.protocol_version.trim().is_empty();
                versions.iter().find_map(|v| {
                    order
                        .iter()
                        .filter(unversioned)
                        .find_map(|i| found(i, v, Some(VERSION_1_0)))
                })
            })
            .or_else(|| match policy {
                // Any interface of a binding the client speaks in that version.
                VersionPolicy::Exactly(_) => versions.iter().find_map(|v| {
                    order.iter().find_map(|i| {
                        let mut probe = (*i).clone();
                        probe.protocol_version = (*v).to_owned();
                        self.find(&probe, v, None).map(|f| (*i, f.clone()))
                    })
                }),
                _ => None,
            });
        chosen.ok_or_else(|| {
            let offered = interfaces.clone();
            let legacy_fits = *policy == VersionPolicy::Current
                && self
                    .select(card, preferred, &VersionPolicy::Negotiate)
                    .is_ok_and(|(i, _)| is_legacy(&i.protocol_version));
            if legacy_fits {
                Error::LegacyOnly { offered }
            } else {
                Error::NoSupportedInterface {
                    offered,
                    supported: self.supported(policy),
                }
            }
        })
    }

    /// The 0.3 transport factory to fall back to when `interface` (1.x) answers
    /// `VersionNotSupportedError`: the card's first 0.3 interface of the same binding, else the
    /// same interface addressed in 0.3.
    pub(crate) fn fallback<'c>(
        &self,
        card: &'c AgentCard,
        interface: &'c AgentInterface,
    ) -> Option<(&'c AgentInterface, Arc<dyn TransportFactory>)> {
        let binding = interface.protocol_binding.trim();
        let same_binding =
            |i: &&AgentInterface| i.protocol_binding.trim().eq_ignore_ascii_case(binding);
        let declared = card
            .supported_interfaces
            .iter()
            .filter(same_binding)
            .find_map(|i| self.find(i, VERSION_0_3, None).map(|f| (i, f.clone())));
        declared.or_else(|| {
            let mut probe = interface.clone();
            probe.protocol_version = VERSION_0_3.to_owned();
            self.find(&probe, VERSION_0_3, None)
                .map(|f| (interface, f.clone()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn card(interfaces: &[(&str, &str, &str)]) -> AgentCard {
        AgentCard::new("A", "d", "1").with_supported_interfaces(
            interfaces
                .iter()
                .map(|(url, binding, version)| AgentInterface::new(*url, *binding, *version)),
        )
    }

    fn chosen(card: &AgentCard, preferred: &[&str]) -> Result<String, String> {
        chosen_under(card, preferred, &VersionPolicy::Current)
    }

    fn chosen_under(
        card: &AgentCard,
        preferred: &[&str],
        policy: &VersionPolicy,
    ) -> Result<String, String> {
        let preferred: Vec<String> = preferred.iter().map(|s| (*s).to_owned()).collect();
        Transports::new(&[], false)
            .select(card, &preferred, policy)
            .map(|(i, f)| {
                format!(
                    "{} {} via {} {}",
                    i.url,
                    i.protocol_version,
                    f.binding(),
                    f.protocol_version()
                )
            })
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_card_order_decides_without_a_preference() {
        let both = card(&[
            ("http://h/grpc", "GRPC", "1.0"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
            ("http://h/rpc", "JSONRPC", "1.0"),
        ]);
        assert_eq!(
            chosen(&both, &[]).unwrap(),
            "http://h/rest 1.0 via HTTP+JSON 1.0"
        );
        let rpc_first = card(&[
            ("http://h/rpc3", "JSONRPC", "0.3"),
            ("http://h/rpc", "jsonrpc", "1.1"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
        ]);
        assert_eq!(
            chosen(&rpc_first, &[]).unwrap(),
            "http://h/rpc 1.1 via JSONRPC 1.0"
        );
    }

    #[test]
    fn the_callers_preference_comes_first_then_the_card_order() {
        let both = card(&[
            ("http://h/rpc", "JSONRPC", "1.0"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
        ]);
        assert_eq!(
            chosen(&both, &["http+json"]).unwrap(),
            "http://h/rest 1.0 via HTTP+JSON 1.0"
        );
        assert_eq!(
            chosen(&both, &["GRPC", "JSONRPC", "HTTP+JSON"]).unwrap(),
            "http://h/rpc 1.0 via JSONRPC 1.0"
        );
        // A preferred binding the card does not offer is skipped: the card's order decides.
        let rpc_only = card(&[("http://h/rpc", "JSONRPC", "1.0")]);
        assert_eq!(
            chosen(&rpc_only, &["HTTP+JSON"]).unwrap(),
            "http://h/rpc 1.0 via JSONRPC 1.0"
        );
        // A preferred binding offered only in a version the client does not speak, too.
        let old_rest = card(&[
            ("http://h/rest", "HTTP+JSON", "0.3"),
            ("http://h/rpc", "JSONRPC", "1.0"),
        ]);
        assert_eq!(
            chosen(&old_rest, &["HTTP+JSON"]).unwrap(),
            "http://h/rpc 1.0 via JSONRPC 1.0"
        );
    }

    #[test]
    fn an_interface_without_version_is_the_last_resort() {
        let card = card(&[
            ("http://h/a", "JSONRPC", ""),
            ("http://h/b", "HTTP+JSON", "1.0"),
        ]);
        assert_eq!(
            chosen(&card, &[]).unwrap(),
            "http://h/b 1.0 via HTTP+JSON 1.0"
        );
        let only = super::tests::card(&[("http://h/a", "JSONRPC", " ")]);
        assert_eq!(chosen(&only, &[]).unwrap(), "http://h/a   via JSONRPC 1.0");
    }

    #[test]
    fn nothing_fits() {
        let grpc = card(&[
            ("http://h/grpc", "GRPC", "1.0"),
            ("http://h/x", "SOAP", "0.3"),
        ]);
        assert_eq!(
            chosen(&grpc, &["JSONRPC"]).unwrap_err(),
            "the agent card offers no interface this client speaks (JSONRPC 1.0, HTTP+JSON 1.0); \
             it offers: GRPC 1.0 http://h/grpc, SOAP 0.3 http://h/x"
        );
        assert_eq!(
            chosen_under(&grpc, &[], &VersionPolicy::Negotiate).unwrap_err(),
            "the agent card offers no interface this client speaks (JSONRPC 1.0, HTTP+JSON 1.0, \
             JSONRPC 0.3, HTTP+JSON 0.3, FLAT-JSONRPC 0.3, JSONRPC 0.2, HTTP+JSON 0.2, \
             JSONRPC 0.1); it offers: GRPC 1.0 http://h/grpc, SOAP 0.3 http://h/x"
        );
        assert_eq!(
            chosen(&card(&[]), &[]).unwrap_err(),
            "the agent card names no interface (its supportedInterfaces is empty); this client \
             speaks JSONRPC 1.0, HTTP+JSON 1.0"
        );
    }

    #[test]
    fn legacy_interfaces_need_the_callers_consent() {
        let old = card(&[
            ("http://h/a2a", "JSONRPC", "0.3"),
            ("http://h/grpc", "GRPC", "1.0"),
        ]);
        assert_eq!(
            chosen(&old, &["JSONRPC"]).unwrap_err(),
            "the agent card offers A2A 0.3 but no A2A 1.0 interface this client speaks (it \
             offers: JSONRPC 0.3 http://h/a2a, GRPC 1.0 http://h/grpc); versions before 1.0 are \
             used only when allowed: ClientBuilder::allow_legacy(true) or \
             protocol_version(\"0.3\"), `--a2a-version 0.3` with the a2a command"
        );
        assert_eq!(
            chosen_under(&old, &[], &VersionPolicy::Negotiate).unwrap(),
            "http://h/a2a 0.3 via JSONRPC 0.3"
        );
        let ancient = card(&[("http://h/", "JSONRPC", "0.1")]);
        assert!(
            chosen(&ancient, &[])
                .unwrap_err()
                .contains("offers A2A 0.1 but")
        );
        assert_eq!(
            chosen_under(&ancient, &[], &VersionPolicy::Negotiate).unwrap(),
            "http://h/ 0.1 via JSONRPC 0.1"
        );
    }

    #[test]
    fn negotiation_takes_the_newest_version_then_the_order() {
        let all = card(&[
            ("http://h/v01", "JSONRPC", "0.1"),
            ("http://h/v03rest", "HTTP+JSON", "0.3"),
            ("http://h/v02", "JSONRPC", "0.2"),
            ("http://h/v03", "JSONRPC", "0.3"),
            ("http://h/v1", "JSONRPC", "1.0"),
        ]);
        let negotiate = VersionPolicy::Negotiate;
        assert_eq!(
            chosen_under(&all, &[], &negotiate).unwrap(),
            "http://h/v1 1.0 via JSONRPC 1.0"
        );
        let mut legacy = all.clone();
        legacy.supported_interfaces.pop();
        assert_eq!(
            chosen_under(&legacy, &[], &negotiate).unwrap(),
            "http://h/v03rest 0.3 via HTTP+JSON 0.3"
        );
        assert_eq!(
            chosen_under(&legacy, &["JSONRPC"], &negotiate).unwrap(),
            "http://h/v03 0.3 via JSONRPC 0.3"
        );
        legacy
            .supported_interfaces
            .retain(|i| !i.url.contains("v03"));
        assert_eq!(
            chosen_under(&legacy, &[], &negotiate).unwrap(),
            "http://h/v02 0.2 via JSONRPC 0.2"
        );
    }

    #[test]
    fn an_exact_version_is_spoken_even_where_the_card_says_another() {
        let both = card(&[
            ("http://h/v1", "JSONRPC", "1.0"),
            ("http://h/v03", "JSONRPC", "0.3"),
        ]);
        let exactly = |v: &str| VersionPolicy::Exactly(VersionNumber::parse(v).unwrap());
        assert_eq!(
            chosen_under(&both, &[], &exactly("0.3")).unwrap(),
            "http://h/v03 0.3 via JSONRPC 0.3"
        );
        assert_eq!(
            chosen_under(&both, &[], &exactly("1.0")).unwrap(),
            "http://h/v1 1.0 via JSONRPC 1.0"
        );
        // A card that claims only 1.0: the caller said the agent speaks 0.1.
        let new = card(&[("http://h/v1", "JSONRPC", "1.0")]);
        assert_eq!(
            chosen_under(&new, &[], &exactly("0.1")).unwrap(),
            "http://h/v1 1.0 via JSONRPC 0.1"
        );
        let grpc = card(&[("h:1", "GRPC", "1.0")]);
        assert_eq!(
            chosen_under(&grpc, &[], &exactly("0.1")).unwrap_err(),
            "the agent card offers no interface this client speaks (JSONRPC 0.1); it offers: \
             GRPC 1.0 h:1"
        );
    }

    #[test]
    fn the_fallback_is_the_cards_0_3_interface_of_the_binding_or_the_same_url() {
        let transports = Transports::new(&[], false);
        let both = card(&[
            ("http://h/v1", "JSONRPC", "1.0"),
            ("http://h/rest03", "HTTP+JSON", "0.3"),
            ("http://h/v03", "JSONRPC", "0.3"),
        ]);
        let (interface, factory) = transports
            .fallback(&both, &both.supported_interfaces[0])
            .unwrap();
        assert_eq!(
            (
                interface.url.as_str(),
                factory.binding(),
                factory.protocol_version()
            ),
            ("http://h/v03", "JSONRPC", "0.3")
        );
        let only = card(&[("http://h/rest", "HTTP+JSON", "1.0")]);
        let (interface, factory) = transports
            .fallback(&only, &only.supported_interfaces[0])
            .unwrap();
        assert_eq!(
            (
                interface.url.as_str(),
                factory.binding(),
                factory.protocol_version()
            ),
            ("http://h/rest", "HTTP+JSON", "0.3")
        );
    }

    #[test]
    fn the_1_1_draft_is_spoken_only_when_allowed_and_offered() {
        // As `a2a serve --a2a-version 1.0 --a2a-version 1.1` lists them: 1.0 first.
        let both = card(&[
            ("http://h/rpc", "JSONRPC", "1.0"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
            ("http://h/rpc", "JSONRPC", "1.1"),
            ("http://h/rest", "HTTP+JSON", "1.1"),
        ]);
        fn chosen_by(
            transports: &Transports,
            card: &AgentCard,
            preferred: &[&str],
            policy: &VersionPolicy,
        ) -> Result<String, String> {
            let preferred: Vec<String> = preferred.iter().map(|s| (*s).to_owned()).collect();
            transports
                .select(card, &preferred, policy)
                .map(|(i, f)| {
                    format!(
                        "{} {} via {}",
                        i.url,
                        i.protocol_version,
                        f.protocol_version()
                    )
                })
                .map_err(|e| e.to_string())
        }
        let plain = Transports::new(&[], false);
        let draft = Transports::new(&[], true);
        let current = VersionPolicy::Current;
        assert_eq!(
            chosen_by(&plain, &both, &[], &current).unwrap(),
            "http://h/rpc 1.0 via 1.0"
        );
        assert_eq!(
            chosen_by(&draft, &both, &[], &current).unwrap(),
            "http://h/rpc 1.1 via 1.1"
        );
        assert_eq!(
            chosen_by(&draft, &both, &["HTTP+JSON"], &current).unwrap(),
            "http://h/rest 1.1 via 1.1"
        );
        // A card without 1.1 interfaces: 1.0, also when 1.1 is allowed.
        let old = card(&[("http://h/rpc", "JSONRPC", "1.0")]);
        assert_eq!(
            chosen_by(&draft, &old, &[], &current).unwrap(),
            "http://h/rpc 1.0 via 1.0"
        );
        // Exactly 1.1: 1.1, else 1.0; exactly 1.0: never 1.1.
        let exactly = |v: &str| VersionPolicy::Exactly(VersionNumber::parse(v).unwrap());
        assert_eq!(
            chosen_by(&draft, &both, &[], &exactly("1.1")).unwrap(),
            "http://h/rpc 1.1 via 1.1"
        );
        assert_eq!(
            chosen_by(&draft, &old, &[], &exactly("1.1")).unwrap(),
            "http://h/rpc 1.0 via 1.0"
        );
        assert_eq!(
            chosen_by(&draft, &both, &[], &exactly("1.0")).unwrap(),
            "http://h/rpc 1.0 via 1.0"
        );
        assert_eq!(
            draft.supported(&current),
            [
                "JSONRPC 1.1",
                "HTTP+JSON 1.1",
                "JSONRPC 1.0",
                "HTTP+JSON 1.0"
            ]
        );
        // The caller's binding beats the draft: a binding offered in 1.0 only stays chosen.
        let rest_old = card(&[
            ("http://h/rpc", "JSONRPC", "1.0"),
            ("http://h/rest", "HTTP+JSON", "1.0"),
            ("http://h/rpc", "JSONRPC", "1.1"),
        ]);
        assert_eq!(
            chosen_by(&draft, &rest_old, &["HTTP+JSON"], &current).unwrap(),
            "http://h/rest 1.0 via 1.0"
        );
        // A transport of 1.0 (a2a-grpc's) is spoken in 1.0 when preferred, 1.1 allowed or not.
        struct Grpc;
        impl TransportFactory for Grpc {
            fn binding(&self) -> &str {
                "GRPC"
            }
            fn protocol_version(&self) -> &str {
                "1.0"
            }
            fn build(&self, _: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
                Err(Error::Config("not here".into()))
            }
        }
        let with_grpc = Transports::new(&[Arc::new(Grpc)], true);
        let mut grpc_card = both.clone();
        grpc_card
            .supported_interfaces
            .push(AgentInterface::new("h:50051", "GRPC", "1.0"));
        assert_eq!(
            chosen_by(&with_grpc, &grpc_card, &["GRPC"], &current).unwrap(),
            "h:50051 1.0 via 1.0"
        );
        assert_eq!(
            chosen_by(&with_grpc, &grpc_card, &[], &current).unwrap(),
            "http://h/rpc 1.1 via 1.1"
        );
    }

    #[test]
    fn legacy_versions() {
        assert!(is_legacy("0.3") && is_legacy("0.1") && is_legacy("0.2.6"));
        assert!(!is_legacy("1.1") && !is_legacy("1"));
        assert!(is_legacy("x"), "no version number is no 1.x");
    }

    #[test]
    fn a_callers_factory_is_asked_first() {
        struct Grpc;
        impl TransportFactory for Grpc {
            fn binding(&self) -> &str {
                "GRPC"
            }
            fn protocol_version(&self) -> &str {
                "1.0"
            }
            fn build(&self, _: &TransportTarget<'_>) -> Result<Arc<dyn Transport>, Error> {
                Err(Error::Config("not here".into()))
            }
        }
        let transports = Transports::new(&[Arc::new(Grpc)], false);
        assert_eq!(
            transports.supported(&VersionPolicy::Current),
            ["GRPC 1.0", "JSONRPC 1.0", "HTTP+JSON 1.0"]
        );
        let card = card(&[("h:443", "GRPC", "1.0"), ("http://h/", "JSONRPC", "1.0")]);
        let (interface, factory) = transports
            .select(&card, &[], &VersionPolicy::Current)
            .unwrap();
        assert_eq!(
            (interface.url.as_str(), factory.binding()),
            ("h:443", "GRPC")
        );
    }

    #[test]
    fn versions() {
        assert!(version_matches("1.0", "1"));
        assert!(version_matches("1.0", " 1.0 "));
        assert!(!version_matches("1.0", "2.0"));
        assert!(!version_matches("1.0", "v1"));
        assert!(version_matches("0.1", "0.1"));
        assert!(!version_matches("0.3", "0.1"));
        assert!(!version_matches("", "1.0"));
    }
}
