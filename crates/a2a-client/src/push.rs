//! Push deliveries, as a webhook receives them: checking a signed delivery ([`verify`],
//! [`Verifier`]) and turning a delivery into its event ([`PushReceiver`]), for any HTTP
//! server (hyper, axum). `docs/push.md` describes what an a2a-rs agent sends.
//!
//! An agent that signs its deliveries (see [`a2a_jose::push`]) names its JWKS in its card
//! ([`jwks_url`]); [`fetch_jwks`] reads it. Each delivery then carries a JWT in
//! `A2A-Notification-Signature` over the SHA-256 of the body; [`Verifier::verify`] checks the
//! signature (the key by its `kid`: several keys in the JWKS allow rotation), that the body is
//! the one signed, that the token is recent (`iat` within [`Verifier::with_max_age`], 5 min by
//! default) and new (its `jti` not seen before), and optionally the audience (the webhook URL).
//!
//! ```
//! use a2a_client::push::{PushReceiver, Verifier, VerifyError};
//! use a2a_jose::{Algorithm, Jwks, SigningKey, push::Claims};
//! use a2a_types::v1::StreamResponse;
//! use http::HeaderMap;
//!
//! // What the agent does (a2a-server's push worker).
//! let key = SigningKey::generate(Algorithm::Es256).unwrap();
//! let body = br#"{"statusUpdate":{"taskId":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING"}}}"#;
//! let now = std::time::SystemTime::now();
//! let iat = now.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
//! let token = Claims::new(body, "t-1", "https://me.example/hook", iat).sign(&key);
//! let mut headers = HeaderMap::new();
//! headers.insert("a2a-notification-signature", token.parse().unwrap());
//! headers.insert("x-a2a-notification-token", "secret".parse().unwrap());
//!
//! // What the webhook does, with the agent's JWKS.
//! let receiver = PushReceiver::new()
//!     .verify_with(Verifier::new(Jwks::new(vec![key.public_jwk()])))
//!     .expect_token("secret");
//! let delivery = receiver.receive(&headers, body).unwrap();
//! assert!(matches!(delivery.event, StreamResponse::StatusUpdate(_)));
//! assert_eq!(delivery.claims.unwrap().task_id, "t-1");
//! // The same token again is a replay.
//! let again = receiver.receive(&headers, body).unwrap_err();
//! assert_eq!(again.status(), 401);
//! assert!(matches!(again, a2a_client::push::ReceiveError::Verify(VerifyError::Replayed { .. })));
//! ```

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use a2a_types::protocol::{content_type, headers};
use a2a_types::v1::{AgentCard, StreamResponse};
use bytes::Bytes;
use http::{HeaderMap, Method, StatusCode};

pub use a2a_jose::push::{Claims, EXTENSION_URI, JWKS_PATH, SIGNATURE_HEADER};
pub use a2a_jose::{Jwk, Jwks};

use crate::Error;
use crate::http::{HttpClient, parse_url};
use crate::interceptor::CallInfo;

/// Why a signed delivery was not accepted. The text names the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// No `A2A-Notification-Signature` header (or one that is not text).
    #[error("the delivery carries no A2A-Notification-Signature header")]
    Missing,
    /// The token is malformed, names an unknown key, or its signature does not verify.
    #[error("the delivery's signature is refused: {0}")]
    Signature(#[from] a2a_jose::Error),
    /// The token's payload is not the claims of a delivery.
    #[error("the delivery's token does not hold delivery claims: {0}")]
    Claims(String),
    /// The body is not the one signed.
    #[error("the body is not the one signed (its SHA-256 differs from request_body_sha256)")]
    BodyChanged,
    /// The token is older than the window allows.
    #[error("the delivery was signed {age} s ago, more than the {max_age} s allowed")]
    TooOld {
        /// Its age, in seconds.
        age: i64,
        /// The window, in seconds.
        max_age: u64,
    },
    /// The token claims to be signed in the future, beyond the clock skew allowed.
    #[error("the delivery claims to be signed {ahead} s in the future")]
    FromTheFuture {
        /// How far ahead, in seconds.
        ahead: i64,
    },
    /// The token was seen before.
    #[error("the delivery's token `{jti}` was seen before (a replay)")]
    Replayed {
        /// The token's id.
        jti: String,
    },
    /// The token was made for another webhook.
    #[error("the delivery was signed for `{got}`, not `{expected}`")]
    Audience {
        /// The URL this receiver expects.
        expected: String,
        /// The URL the token names (empty when it names none).
        got: String,
    },
}

/// Checks signed deliveries against an agent's JWKS, remembering the token ids it accepted (a
/// bounded cache) to refuse replays.
///
/// The cache holds the ids of tokens within the age window; at capacity it forgets the oldest,
/// and from then on refuses tokens signed no later than the oldest it forgot (they could be
/// replays it no longer recognizes). Give it room for the deliveries of one window.
#[derive(Debug)]
pub struct Verifier {
    jwks: Jwks,
    max_age: Duration,
    max_skew: Duration,
    audience: Option<String>,
    capacity: usize,
    seen: Mutex<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    by_time: BTreeSet<(i64, String)>,
    ids: HashSet<String>,
    /// The newest `iat` forgotten while still in the window.
    floor: Option<i64>,
}

impl Verifier {
    /// A verifier for the keys of `jwks`: a 5 min age window, 60 s of clock skew, room for
    /// 100 000 token ids, any audience.
    pub fn new(jwks: Jwks) -> Self {
        Self {
            jwks,
            max_age: Duration::from_secs(300),
            max_skew: Duration::from_secs(60),
            audience: None,
            capacity: 100_000,
            seen: Mutex::default(),
        }
    }

    /// Sets how old a token may be.
    #[must_use]
    pub fn with_max_age(mut self, max_age: Duration) -> Self {
        self.max_age = max_age;
        self
    }

    /// Sets how far in the future a token's `iat` may be (clocks differ).
    #[must_use]
    pub fn with_max_skew(mut self, skew: Duration) -> Self {
        self.max_skew = skew;
        self
    }

    /// Accepts only tokens made for this webhook URL (`aud`).
    #[must_use]
    pub fn with_audience(mut self, url: impl Into<String>) -> Self {
        self.audience = Some(url.into());
        self
    }

    /// Sets how many token ids the replay cache holds (at least 1).
    #[must_use]
    pub fn with_replay_capacity(mut self, ids: usize) -> Self {
        self.capacity = ids.max(1);
        self
    }

    /// Checks a delivery now: see [`verify_at`](Self::verify_at).
    pub fn verify(&self, headers: &HeaderMap, body: &[u8]) -> Result<Claims, VerifyError> {
        self.verify_at(headers, body, SystemTime::now())
    }

    /// Checks a delivery at `now`: its signature, its body, its age and that its token is new;
    /// returns its claims. An accepted token is remembered: the same one again is a replay.
    pub fn verify_at(
        &self,
        headers: &HeaderMap,
        body: &[u8],
        now: SystemTime,
    ) -> Result<Claims, VerifyError> {
        let token = headers
            .get(SIGNATURE_HEADER)
            .and_then(|v| v.to_str().ok())
            .ok_or(VerifyError::Missing)?;
        let verified = a2a_jose::verify(token, &self.jwks)?;
        let claims: Claims = serde_json::from_slice(&verified.payload)
            .map_err(|e| VerifyError::Claims(e.to_string()))?;
        if !claims.matches_body(body) {
            return Err(VerifyError::BodyChanged);
        }
        let now = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let age = now.saturating_sub(claims.iat);
        let max_age = self.max_age.as_secs();
        if age > i64::try_from(max_age).unwrap_or(i64::MAX) {
            return Err(VerifyError::TooOld { age, max_age });
        }
        if -age > i64::try_from(self.max_skew.as_secs()).unwrap_or(i64::MAX) {
            return Err(VerifyError::FromTheFuture { ahead: -age });
        }
        if let Some(expected) = &self.audience
            && claims.aud.as_deref() != Some(expected.as_str())
        {
            return Err(VerifyError::Audience {
                expected: expected.clone(),
                got: claims.aud.clone().unwrap_or_default(),
            });
        }
        self.remember(&claims, now)?;
        Ok(claims)
    }

    fn remember(&self, claims: &Claims, now: i64) -> Result<(), VerifyError> {
        let replayed = || VerifyError::Replayed {
            jti: claims.jti.clone(),
        };
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Ids out of the window are refused by age: no need to keep them.
        let oldest = now.saturating_sub(i64::try_from(self.max_age.as_secs()).unwrap_or(i64::MAX));
        while let Some(first) = seen.by_time.first().cloned()
            && first.0 < oldest
        {
            seen.by_time.pop_first();
            seen.ids.remove(&first.1);
        }
        if seen.floor.is_some_and(|floor| claims.iat <= floor) || seen.ids.contains(&claims.jti) {
            return Err(replayed());
        }
        while seen.ids.len() >= self.capacity {
            let Some(first) = seen.by_time.pop_first() else {
                break;
            };
            seen.ids.remove(&first.1);
            seen.floor = Some(seen.floor.map_or(first.0, |f| f.max(first.0)));
        }
        seen.by_time.insert((claims.iat, claims.jti.clone()));
        seen.ids.insert(claims.jti.clone());
        Ok(())
    }
}

/// Checks a signed delivery with `verifier`: [`Verifier::verify`].
pub fn verify(
    headers: &HeaderMap,
    body: &[u8],
    verifier: &Verifier,
) -> Result<Claims, VerifyError> {
    verifier.verify(headers, body)
}

/// Why a delivery was not accepted by a [`PushReceiver`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReceiveError {
    /// Its signature was refused.
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// It carries no `X-A2A-Notification-Token`, or another one than the config's.
    #[error("the delivery's X-A2A-Notification-Token is missing or wrong")]
    Token,
    /// Its body is not a push event of any version.
    #[error("the delivery's body is not a push event: {0}")]
    Body(String),
}

impl ReceiveError {
    /// The status to answer with: 401 for a delivery that is not the agent's (signature,
    /// token), 400 for a body that is no event.
    pub fn status(&self) -> StatusCode {
        match self {
            ReceiveError::Body(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::UNAUTHORIZED,
        }
    }
}

/// A delivery that was accepted.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Delivery {
    /// The event, as 1.0 types (a 0.3 body is converted).
    pub event: StreamResponse,
    /// The signature's claims, when the receiver verifies signatures.
    pub claims: Option<Claims>,
    /// The `X-A2A-Notification-Token` it carried.
    pub token: Option<String>,
}

/// The receiving end of a push config, for any HTTP server: checks a delivery (its signature
/// when it has a [`Verifier`], its token when it expects one) and reads its event. Answer `2xx`
/// to an accepted delivery and [`ReceiveError::status`] to a refused one.
#[derive(Debug, Default)]
pub struct PushReceiver {
    verifier: Option<Arc<Verifier>>,
    token: Option<String>,
}

impl PushReceiver {
    /// A receiver that accepts any delivery whose body is an event.
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks every delivery's signature with `verifier`.
    #[must_use]
    pub fn verify_with(mut self, verifier: Verifier) -> Self {
        self.verifier = Some(Arc::new(verifier));
        self
    }

    /// Accepts only deliveries carrying this `X-A2A-Notification-Token` (the config's token).
    #[must_use]
    pub fn expect_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Checks a delivery and reads its event: a 1.0 `StreamResponse`, or a bare 0.3 event
    /// (told by its `kind`).
    pub fn receive(&self, headers: &HeaderMap, body: &[u8]) -> Result<Delivery, ReceiveError> {
        let token = headers
            .get(headers::NOTIFICATION_TOKEN)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let Some(expected) = &self.token
            && token.as_deref() != Some(expected.as_str())
        {
            return Err(ReceiveError::Token);
        }
        let claims = match &self.verifier {
            Some(verifier) => Some(verifier.verify(headers, body)?),
            None => None,
        };
        Ok(Delivery {
            event: parse_event(body)?,
            claims,
            token,
        })
    }
}

/// The event of a delivery body: 1.0 first, then 0.3.
fn parse_event(body: &[u8]) -> Result<StreamResponse, ReceiveError> {
    match serde_json::from_slice::<StreamResponse>(body) {
        Ok(event) => Ok(event),
        Err(v1) => serde_json::from_slice::<a2a_types::v0_3::SendStreamingMessageResult>(body)
            .map(StreamResponse::from)
            .map_err(|_| ReceiveError::Body(v1.to_string())),
    }
}

/// The JWKS URL an agent's card names for its signed deliveries (the extension
/// [`EXTENSION_URI`], `params.jwksUrl`); `None` when it signs none.
pub fn jwks_url(card: &AgentCard) -> Option<&str> {
    card.capabilities
        .extensions
        .iter()
        .find(|e| e.uri.as_deref() == Some(EXTENSION_URI))
        .and_then(|e| e.params.as_ref())
        .and_then(|params| params.get("jwksUrl"))
        .and_then(|url| url.as_str())
}

/// Fetches a JWKS (`GET url`), within `timeout`.
///
/// # Errors
///
/// [`Error::Config`] for a URL that is not http(s), the transport's errors,
/// [`Error::Http`] for an answer other than 2xx, [`Error::Protocol`] for a body that is no
/// JWKS, [`Error::Timeout`].
pub async fn fetch_jwks(url: &str, timeout: Duration) -> Result<Jwks, Error> {
    let uri = parse_url(url)?;
    let http = HttpClient::new(
        Some(timeout),
        Arc::new([]),
        None,
        &crate::http::TlsOptions::default(),
    )?;
    let request = http
        .request(Method::GET, uri, content_type::JSON, None)?
        .body(Bytes::new())
        .map_err(|err| Error::Config(format!("cannot build a request for {url}: {err}")))?;
    let call = CallInfo::new("GetJwks", 0);
    let (head, bytes) = tokio::time::timeout(timeout, http.exchange(&call, request))
        .await
        .map_err(|_| Error::Timeout(timeout))??;
    if !head.status.is_success() {
        return Err(Error::http(head.status, &bytes));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| Error::Protocol(format!("the document at {url} is not a JWKS: {e}")))
}

#[cfg(test)]
mod tests {
    use a2a_jose::{Algorithm, SigningKey};

    use super::*;

    const BODY: &[u8] = br#"{"task":{"id":"t-1","status":{"state":"TASK_STATE_SUBMITTED"}}}"#;
    const T0: i64 = 1_800_000_000;

    fn at(secs: i64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(secs).unwrap())
    }

    fn signed(key: &SigningKey, body: &[u8], iat: i64) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let token = Claims::new(body, "t-1", "https://hook.example/a2a", iat).sign(key);
        headers.insert(SIGNATURE_HEADER, token.parse().unwrap());
        headers
    }

    fn keys() -> (SigningKey, Verifier) {
        let key = SigningKey::generate(Algorithm::Es256).unwrap();
        let verifier = Verifier::new(Jwks::new(vec![key.public_jwk()]));
        (key, verifier)
    }

    #[test]
    fn good_deliveries_pass_and_each_refusal_is_named() {
        let (key, verifier) = keys();
        let claims = verifier
            .verify_at(&signed(&key, BODY, T0), BODY, at(T0 + 3))
            .unwrap();
        assert_eq!((claims.task_id.as_str(), claims.iat), ("t-1", T0));

        // A changed body.
        let changed = br#"{"task":{"id":"t-2","status":{"state":"TASK_STATE_SUBMITTED"}}}"#;
        assert_eq!(
            verifier.verify_at(&signed(&key, BODY, T0), changed, at(T0)),
            Err(VerifyError::BodyChanged)
        );
        // An old iat.
        assert_eq!(
            verifier.verify_at(&signed(&key, BODY, T0 - 301), BODY, at(T0)),
            Err(VerifyError::TooOld {
                age: 301,
                max_age: 300
            })
        );
        // From the future.
        assert_eq!(
            verifier.verify_at(&signed(&key, BODY, T0 + 61), BODY, at(T0)),
            Err(VerifyError::FromTheFuture { ahead: 61 })
        );
        // A replayed jti.
        let headers = signed(&key, BODY, T0);
        verifier.verify_at(&headers, BODY, at(T0)).unwrap();
        assert!(matches!(
            verifier.verify_at(&headers, BODY, at(T0 + 1)),
            Err(VerifyError::Replayed { .. })
        ));
        // An unknown kid.
        let stranger = SigningKey::generate(Algorithm::Es256)
            .unwrap()
            .with_kid("stranger");
        assert_eq!(
            verifier
                .verify_at(&signed(&stranger, BODY, T0), BODY, at(T0))
                .unwrap_err()
                .to_string(),
            "the delivery's signature is refused: unknown key: `stranger` is not in the key set"
        );
        // No signature at all.
        assert_eq!(
            verifier.verify_at(&HeaderMap::new(), BODY, at(T0)),
            Err(VerifyError::Missing)
        );
    }

    #[test]
    fn the_audience_is_checked_when_asked_for() {
        let (key, verifier) = keys();
        let verifier = verifier.with_audience("https://me.example/hook");
        assert_eq!(
            verifier.verify_at(&signed(&key, BODY, T0), BODY, at(T0)),
            Err(VerifyError::Audience {
                expected: "https://me.example/hook".to_owned(),
                got: "https://hook.example/a2a".to_owned()
            })
        );
    }

    #[test]
    fn a_full_replay_cache_refuses_what_it_forgot() {
        let (key, verifier) = keys();
        let verifier = verifier.with_replay_capacity(2);
        let first = signed(&key, BODY, T0);
        verifier.verify_at(&first, BODY, at(T0)).unwrap();
        verifier
            .verify_at(&signed(&key, BODY, T0 + 1), BODY, at(T0 + 1))
            .unwrap();
        // A third pushes out the first; the first again is still refused (by the floor).
        verifier
            .verify_at(&signed(&key, BODY, T0 + 2), BODY, at(T0 + 2))
            .unwrap();
        assert!(matches!(
            verifier.verify_at(&first, BODY, at(T0 + 3)),
            Err(VerifyError::Replayed { .. })
        ));
        // Newer tokens still pass.
        verifier
            .verify_at(&signed(&key, BODY, T0 + 3), BODY, at(T0 + 3))
            .unwrap();
    }

    #[test]
    fn receivers_check_the_token_and_read_both_versions() {
        let receiver = PushReceiver::new().expect_token("s3cret");
        let mut headers = HeaderMap::new();
        assert_eq!(receiver.receive(&headers, BODY), Err(ReceiveError::Token));
        headers.insert(headers::NOTIFICATION_TOKEN, "s3cret".parse().unwrap());
        let delivery = receiver.receive(&headers, BODY).unwrap();
        assert!(matches!(delivery.event, StreamResponse::Task(_)));
        assert_eq!(delivery.token.as_deref(), Some("s3cret"));
        let v03 = br#"{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"working"},"final":false}"#;
        let event = receiver.receive(&headers, v03).unwrap().event;
        assert!(
            matches!(event, StreamResponse::StatusUpdate(u) if u.status.state == a2a_types::v1::TaskState::Working)
        );
        let bad = receiver.receive(&headers, b"[]").unwrap_err();
        assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn the_card_names_the_jwks() {
        let mut params = a2a_types::v1::Struct::new();
        params.insert(
            "jwksUrl".into(),
            "https://a.example/.well-known/jwks.json".into(),
        );
        let card = AgentCard::new("A", "d", "1").with_capabilities(
            a2a_types::v1::AgentCapabilities::default().with_extensions([
                a2a_types::v1::AgentExtension::new(EXTENSION_URI).with_params(params),
            ]),
        );
        assert_eq!(
            jwks_url(&card),
            Some("https://a.example/.well-known/jwks.json")
        );
        assert_eq!(jwks_url(&AgentCard::new("A", "d", "1")), None);
    }
}
