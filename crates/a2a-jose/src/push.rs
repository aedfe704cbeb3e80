//! Signed push deliveries, as a2a-rs agents send them (none of the official SDKs signs
//! deliveries; this is the convention `docs/push.md` describes):
//!
//! * Each delivery carries a JWT in the header [`SIGNATURE_HEADER`]
//!   (`A2A-Notification-Signature`), since `Authorization` carries the push config's own
//!   credentials. It is signed ES256 or EdDSA, names its key with `kid`, and claims
//!   [`Claims`]: `iat`, a unique `jti`, `aud` (the webhook URL), `taskId` and
//!   `request_body_sha256`, the lowercase hex SHA-256 of the exact body bytes (the claim the
//!   A2A 0.1 samples used).
//! * The agent serves its public keys as a JWKS at [`JWKS_PATH`] (relative to where the
//!   service is mounted), and names it in its card: `capabilities.extensions` holds
//!   [`EXTENSION_URI`] with `params.jwksUrl`.
//!
//! ```
//! use a2a_jose::{Algorithm, Jwks, SigningKey, push::Claims};
//!
//! let key = SigningKey::generate(Algorithm::EdDsa).unwrap();
//! let body = br#"{"statusUpdate":{}}"#;
//! let token = Claims::new(body, "t-1", "https://hook.example/a2a", 1_700_000_000).sign(&key);
//! let verified = a2a_jose::verify(&token, &Jwks::new(vec![key.public_jwk()])).unwrap();
//! let claims: Claims = serde_json::from_slice(&verified.payload).unwrap();
//! assert_eq!(claims.task_id, "t-1");
//! assert!(claims.matches_body(body));
//! ```

use serde::{Deserialize, Serialize};

use crate::{SigningKey, hex, random_id, sha256};

/// The header that carries a delivery's JWT (lowercase, as `http` wants header names).
pub const SIGNATURE_HEADER: &str = "a2a-notification-signature";
/// Where an agent serves the JWKS of its delivery keys, relative to where its service is
/// mounted (the agent card's extension names the full URL).
pub const JWKS_PATH: &str = "/.well-known/jwks.json";
/// The URI of the card extension that announces signed deliveries; its `params.jwksUrl` is the
/// JWKS URL, `params.header` the header name and `params.algorithms` the algorithms in use.
pub const EXTENSION_URI: &str =
    "https://github.com/a2a-rs/a2a-rs/blob/main/docs/push.md#signed-deliveries";
/// The `typ` of a delivery's JWT.
pub const TOKEN_TYPE: &str = "JWT";

/// The claims of a delivery's JWT.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Claims {
    /// When it was signed, in seconds since the Unix epoch.
    pub iat: i64,
    /// A unique id of this token (a new one for every attempt), for replay detection.
    pub jti: String,
    /// The webhook URL it was sent to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aud: Option<String>,
    /// The task the delivery is about.
    #[serde(rename = "taskId", default)]
    pub task_id: String,
    /// The lowercase hex SHA-256 of the body.
    pub request_body_sha256: String,
}

impl Claims {
    /// The claims of a delivery of `body` about `task_id` to `aud`, signed at `iat`, with a new
    /// random `jti`.
    pub fn new(body: &[u8], task_id: &str, aud: &str, iat: i64) -> Self {
        Self {
            iat,
            jti: random_id(),
            aud: Some(aud.to_owned()),
            task_id: task_id.to_owned(),
            request_body_sha256: hex(&sha256(body)),
        }
    }

    /// The compact JWS of the claims, signed with `key`.
    pub fn sign(&self, key: &SigningKey) -> String {
        key.sign(
            TOKEN_TYPE,
            &serde_json::to_vec(self).expect("claims serialize"),
        )
    }

    /// True when `body` is the body the claims were made for.
    pub fn matches_body(&self, body: &[u8]) -> bool {
        self.request_body_sha256
            .eq_ignore_ascii_case(&hex(&sha256(body)))
    }
}
