//! Checking the signatures of an agent card (A2A 1.0 §8.4.3; feature `signing`, on by
//! default).
//!
//! A card's `signatures` are JWS signatures with a detached payload: the card without
//! `signatures`, canonicalized (RFC 8785). [`check`] verifies each against keys the caller
//! trusts until one verifies; [`CardVerification`] makes [`ClientBuilder::connect`] do so,
//! refusing the card ([`Error::CardSignature`]) or only warning when none verifies.
//!
//! The payload is rebuilt from the card as received, in the forms signers are known to use,
//! first the one the spec describes: (1) the 1.0 card as this crate reads the document (1.0
//! members only, optional members at their defaults left out), (2) the same with every empty
//! string, list and object left out (the Python SDK's form), (3) the document exactly as
//! received. A signature that verifies over any of them verifies the card's 1.0 content.
//!
//! ```
//! use a2a_client::signature::{self, Outcome};
//! use a2a_jose::{Algorithm, Jwks, SigningKey};
//!
//! let key = SigningKey::generate(Algorithm::EdDsa).unwrap().with_kid("k1");
//! let mut card = serde_json::json!({
//!     "name": "Echo", "description": "Repeats", "version": "1.0.0",
//!     "supportedInterfaces": [{"url": "https://echo.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
//!     "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []
//! });
//! let signed = a2a_jose::card::sign(&card, &key, None).unwrap();
//! card["signatures"] = serde_json::json!([signed]);
//! let keys = Jwks::new(vec![key.public_jwk()]);
//! assert!(matches!(signature::check(&card, &keys), Outcome::Verified { signature: 0, .. }));
//!
//! card["name"] = "Impostor".into();
//! let Outcome::Unverified(failures) = signature::check(&card, &keys) else { panic!() };
//! assert_eq!(failures[0].to_string(), "signature 1 (kid `k1`): the signature does not verify with key `k1`");
//! ```
//!
//! [`ClientBuilder::connect`]: crate::ClientBuilder::connect
//! [`Error::CardSignature`]: crate::Error::CardSignature

use std::fmt;

use a2a_jose::card::Signature;
use a2a_jose::{Jwks, card as jose_card};
use bytes::Bytes;
use http::{Method, StatusCode};
use serde_json::Value;

use crate::Error;
use crate::call::Policy;
use crate::http::{HttpClient, parse_url};
use crate::interceptor::CallInfo;

/// The most of a JWKS document the client reads.
pub const MAX_JWKS_BYTES: usize = 256 * 1024;

/// Where the keys that may sign a card come from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TrustedKeys {
    /// These keys.
    Keys(Jwks),
    /// The JWKS at this URL (fetched once per check).
    JwksUrl(String),
    /// The JWKS a signature's `jku` names, when it is on the card's own origin (same scheme,
    /// host and port as the URL the card was fetched from): whoever controls the origin
    /// vouches for the card, as TLS vouches for the origin. Weaker than pinned keys.
    SameOriginJku,
}

/// What [`ClientBuilder::verify_card`](crate::ClientBuilder::verify_card) checks when the
/// client fetches a card: which keys it trusts, and whether a card that does not verify (or
/// carries no signature) is refused or only warned about (`tracing::warn!`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardVerification {
    trusted: Vec<TrustedKeys>,
    required: bool,
}

impl CardVerification {
    /// Refuse a card unless one of its signatures verifies with one of these keys.
    pub fn require(trusted: impl IntoIterator<Item = TrustedKeys>) -> Self {
        Self {
            trusted: trusted.into_iter().collect(),
            required: true,
        }
    }

    /// Check the card's signatures and warn when none verifies; use the card all the same.
    pub fn warn(trusted: impl IntoIterator<Item = TrustedKeys>) -> Self {
        Self {
            trusted: trusted.into_iter().collect(),
            required: false,
        }
    }

    /// True when a card that does not verify is refused.
    pub fn is_required(&self) -> bool {
        self.required
    }

    /// The trusted key sources.
    pub fn trusted(&self) -> &[TrustedKeys] {
        &self.trusted
    }
}

/// What checking a card's signatures found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The card carries no signature.
    Absent,
    /// A signature verified.
    Verified {
        /// Its index in `signatures` (0-based).
        signature: usize,
        /// The `kid` of the key that verified it.
        kid: String,
    },
    /// The card is signed, but no signature verified with a trusted key: why, for each.
    Unverified(Vec<Failure>),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Absent => f.write_str("absent: the card carries no signature"),
            Outcome::Verified { signature, kid } => {
                write!(f, "verified: signature {} (kid `{kid}`)", signature + 1)
            }
            Outcome::Unverified(failures) => {
                f.write_str("unverifiable: ")?;
                for (i, failure) in failures.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{failure}")?;
                }
                Ok(())
            }
        }
    }
}

/// Why one signature did not verify.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Failure {
    /// Its index in `signatures` (0-based; shown 1-based).
    pub signature: usize,
    /// The `kid` its header names, if it could be read.
    pub kid: Option<String>,
    /// Why.
    pub reason: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "signature {}", self.signature + 1)?;
        if let Some(kid) = &self.kid {
            write!(f, " (kid `{kid}`)")?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// The signatures of a card document, as received (any that is not an object with string
/// `protected` and `signature` members is read as empty, and fails as malformed).
pub fn signatures(document: &Value) -> Vec<Signature> {
    document
        .get(jose_card::SIGNATURES)
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|item| serde_json::from_value(item.clone()).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}

/// The `jku` URLs the card's signatures name, each once.
pub fn jku_urls(document: &Value) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    for signature in signatures(document) {
        if let Some(jku) = signature.header().ok().and_then(|h| h.jku)
            && !urls.contains(&jku)
        {
            urls.push(jku);
        }
    }
    urls
}

/// The payloads a signature of `document` may have been made over, in the order tried.
fn payloads(document: &Value) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut push = |bytes: Result<Vec<u8>, a2a_jose::Error>| {
        if let Ok(bytes) = bytes
            && !out.contains(&bytes)
        {
            out.push(bytes);
        }
    };
    if let Ok(card) = a2a_types::card::parse_value(document.clone()) {
        let view = serde_json::to_value(&card).expect("an agent card serializes");
        push(jose_card::payload(&view));
        push(jose_card::payload(&jose_card::without_empty(&view)));
    }
    push(jose_card::payload(document));
    out
}

/// Checks the signatures of a card document against `keys`: the first that verifies, else
/// why each failed.
pub fn check(document: &Value, keys: &Jwks) -> Outcome {
    let signatures = signatures(document);
    if signatures.is_empty() {
        return Outcome::Absent;
    }
    let payloads = payloads(document);
    let payloads: Vec<&[u8]> = payloads.iter().map(Vec::as_slice).collect();
    let mut failures = Vec::new();
    for (index, signature) in signatures.iter().enumerate() {
        let kid = signature.header().ok().and_then(|h| h.kid);
        match jose_card::verify(&payloads, signature, keys) {
            Ok(header) => {
                return Outcome::Verified {
                    signature: index,
                    kid: header.kid.or(kid).unwrap_or_default(),
                };
            }
            Err(error) => failures.push(Failure {
                signature: index,
                kid,
                reason: error.to_string(),
            }),
        }
    }
    Outcome::Unverified(failures)
}

/// Fetches the JWKS at `url`.
pub(crate) async fn fetch_jwks(
    http: &HttpClient,
    policy: &Policy,
    url: &str,
) -> Result<Jwks, Error> {
    let uri = parse_url(url)?;
    let call = CallInfo::new(CallInfo::JWKS, 0);
    let request = http
        .request(Method::GET, uri.clone(), "application/json", None)?
        .body(Bytes::new())
        .map_err(|err| Error::Config(format!("cannot build a request for {uri}: {err}")))?;
    let exchange = http.exchange_bounded(&call, request, MAX_JWKS_BYTES);
    let (head, body) = policy.attempt(&call, exchange).await?;
    if head.status != StatusCode::OK {
        return Err(Error::http(head.status, &body));
    }
    serde_json::from_slice(&body)
        .map_err(|e| Error::Protocol(format!("the JWKS at {url} is not a JSON Web Key Set: {e}")))
}

/// True when `url` has the scheme, host and port of `card_url`.
pub fn same_origin(url: &str, card_url: &http::Uri) -> bool {
    let Ok(uri) = url.parse::<http::Uri>() else {
        return false;
    };
    let port = |u: &http::Uri| {
        u.port_u16().or(match u.scheme_str() {
            Some("https") => Some(443),
            Some("http") => Some(80),
            _ => None,
        })
    };
    uri.scheme_str().is_some()
        && uri.scheme_str() == card_url.scheme_str()
        && uri.host().map(str::to_ascii_lowercase) == card_url.host().map(str::to_ascii_lowercase)
        && port(&uri) == port(card_url)
}

/// The keys `trusted` names for `document` fetched from `card_url` (`None`: read from a
/// file), gathered into one set (a
/// source that cannot be read is reported, and the others still count).
pub(crate) async fn gather_keys(
    http: &HttpClient,
    policy: &Policy,
    trusted: &[TrustedKeys],
    document: &Value,
    card_url: Option<&http::Uri>,
) -> (Jwks, Vec<String>) {
    let mut keys = Jwks::default();
    let mut problems = Vec::new();
    let mut urls: Vec<String> = Vec::new();
    for source in trusted {
        match source {
            TrustedKeys::Keys(set) => keys.keys.extend(set.keys.iter().cloned()),
            TrustedKeys::JwksUrl(url) => urls.push(url.clone()),
            TrustedKeys::SameOriginJku => {
                for jku in jku_urls(document) {
                    let Some(card_url) = card_url else {
                        problems.push(format!(
                            "the jku {jku} is not trusted: the card was read from a file, so it \
                             has no origin"
                        ));
                        continue;
                    };
                    if same_origin(&jku, card_url) {
                        urls.push(jku);
                    } else {
                        problems.push(format!(
                            "the jku {jku} is not on the card's origin, so it is not trusted"
                        ));
                    }
                }
            }
        }
    }
    urls.dedup();
    for url in urls {
        match fetch_jwks(http, policy, &url).await {
            Ok(set) => keys.keys.extend(set.keys),
            Err(error) => problems.push(format!("cannot read the JWKS at {url}: {error}")),
        }
    }
    (keys, problems)
}

/// Applies `verification` to the card `document` fetched from `card_url`.
pub(crate) async fn enforce(
    http: &HttpClient,
    policy: &Policy,
    verification: &CardVerification,
    document: &Value,
    card_url: &http::Uri,
) -> Result<(), Error> {
    let (keys, problems) = gather_keys(
        http,
        policy,
        &verification.trusted,
        document,
        Some(card_url),
    )
    .await;
    let outcome = check(document, &keys);
    if matches!(outcome, Outcome::Verified { .. }) {
        tracing::debug!(card = %card_url, "agent card signature {outcome}");
        return Ok(());
    }
    let mut reason = outcome.to_string();
    for problem in problems {
        reason.push_str("; ");
        reason.push_str(&problem);
    }
    if verification.required {
        Err(Error::CardSignature {
            url: card_url.to_string(),
            reason,
        })
    } else {
        tracing::warn!(card = %card_url, "agent card signature {reason}");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2a_jose::{Algorithm, SigningKey, b64};
    use pretty_assertions::assert_eq;

    fn document() -> Value {
        serde_json::json!({
            "name": "Echo", "description": "Repeats", "version": "1.0.0",
            "supportedInterfaces": [{"url": "https://echo.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": true},
            "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "echo", "name": "Echo", "description": "Echoes", "tags": ["echo"]}],
            // A legacy member a union card carries: not part of the 1.0 card.
            "url": "https://echo.example/"
        })
    }

    fn signed(key: &SigningKey, over: &Value) -> Value {
        let mut document = document();
        let signature = jose_card::sign(over, key, None).unwrap();
        document["signatures"] = serde_json::json!([signature]);
        document
    }

    #[test]
    fn each_payload_form_verifies() {
        let key = SigningKey::generate(Algorithm::Es256)
            .unwrap()
            .with_kid("k");
        let keys = Jwks::new(vec![key.public_jwk()]);
        let card = a2a_types::card::parse_value(document()).unwrap();
        let view = serde_json::to_value(&card).unwrap();
        for over in [view.clone(), jose_card::without_empty(&view), document()] {
            assert_eq!(
                check(&signed(&key, &over), &keys),
                Outcome::Verified {
                    signature: 0,
                    kid: "k".to_owned()
                }
            );
        }
    }

    #[test]
    fn failures_name_the_signature_and_why() {
        let key = SigningKey::generate(Algorithm::EdDsa)
            .unwrap()
            .with_kid("k");
        let mut document = signed(&key, &document());
        document["signatures"].as_array_mut().unwrap().push(
            serde_json::json!({"protected": b64::encode(r#"{"alg":"none"}"#), "signature": ""}),
        );
        document["signatures"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"protected": 7}));
        document["description"] = "Changed".into();
        let keys = Jwks::new(vec![key.public_jwk()]);
        let outcome = check(&document, &keys);
        assert_eq!(
            outcome.to_string(),
            "unverifiable: signature 1 (kid `k`): the signature does not verify with key `k`; \
             signature 2: unsupported algorithm: `none` (only ES256, EdDSA and RS256 are accepted); \
             signature 3: malformed JWS: the protected header is not a JOSE header: EOF while \
             parsing a value at line 1 column 0"
        );
        let strangers = Jwks::new(vec![
            SigningKey::generate(Algorithm::EdDsa)
                .unwrap()
                .with_kid("other")
                .public_jwk(),
        ]);
        assert_eq!(
            check(&signed(&key, &document), &strangers),
            Outcome::Unverified(vec![Failure {
                signature: 0,
                kid: Some("k".to_owned()),
                reason: "unknown key: `k` is not in the key set".to_owned()
            }])
        );
        let mut unsigned = document.clone();
        unsigned.as_object_mut().unwrap().remove("signatures");
        assert_eq!(check(&unsigned, &keys), Outcome::Absent);
        assert_eq!(
            Outcome::Absent.to_string(),
            "absent: the card carries no signature"
        );
    }

    #[test]
    fn jku_urls_and_origins() {
        let key = SigningKey::generate(Algorithm::EdDsa)
            .unwrap()
            .with_kid("k");
        let mut document = document();
        let a = jose_card::sign(&document, &key, Some("https://echo.example/jwks.json")).unwrap();
        let b = jose_card::sign(&document, &key, Some("https://echo.example/jwks.json")).unwrap();
        document["signatures"] = serde_json::json!([a, b]);
        assert_eq!(jku_urls(&document), ["https://echo.example/jwks.json"]);
        let card: http::Uri = "https://echo.example/.well-known/agent-card.json"
            .parse()
            .unwrap();
        assert!(same_origin("https://echo.example:443/k.json", &card));
        assert!(same_origin("https://ECHO.example/k.json", &card));
        assert!(!same_origin("http://echo.example/k.json", &card));
        assert!(!same_origin("https://echo.example:8443/k.json", &card));
        assert!(!same_origin("https://evil.example/k.json", &card));
        assert!(!same_origin("/k.json", &card));
    }
}
