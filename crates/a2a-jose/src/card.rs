//! Signed agent cards (A2A 1.0 §8.4): a card's `signatures` hold JWS signatures (RFC 7515)
//! with a detached payload, the card itself.
//!
//! * The payload is the card without its `signatures` member, in the JSON Canonicalization
//!   Scheme ([`crate::jcs`], RFC 8785). The card is its 1.0 form (the ProtoJSON of the
//!   `AgentCard` message: optional members at their defaults left out, required ones kept);
//!   that is for the caller to produce, as this crate knows JSON, not cards.
//! * Each signature is `{"protected": <base64url header>, "signature": <base64url>}`; the
//!   protected header is `{"alg":..,"kid":..,"typ":"JOSE"}` (`alg`: ES256, EdDSA or RS256, as
//!   the key is), with `jku` (the URL of a JWKS
//!   holding the key) when the signer names one.
//! * Verifying: the signing input `protected || "." || BASE64URL(payload)` is rebuilt from the
//!   card as received and checked with the key the header's `kid` names.
//!
//! ```
//! use a2a_jose::{Algorithm, Jwks, SigningKey, card};
//!
//! let key = SigningKey::generate(Algorithm::Es256).unwrap().with_kid("card-key-1");
//! let mut document = serde_json::json!({"name": "Echo", "description": "Repeats", "version": "1.0.0"});
//! let signature = card::sign(&document, &key, Some("https://echo.example/jwks.json")).unwrap();
//! document["signatures"] = serde_json::json!([signature]);
//!
//! let payload = card::payload(&document).unwrap();
//! assert_eq!(payload, br#"{"description":"Repeats","name":"Echo","version":"1.0.0"}"#);
//! let keys = Jwks::new(vec![key.public_jwk()]);
//! let header = card::verify(&[&payload], &signature, &keys).unwrap();
//! assert_eq!(header.kid.as_deref(), Some("card-key-1"));
//! assert_eq!(header.jku.as_deref(), Some("https://echo.example/jwks.json"));
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Error, Header, Jwks, SigningKey, b64, jcs, verify as verify_compact};

/// The `typ` of a card signature's protected header.
pub const TOKEN_TYPE: &str = "JOSE";

/// The member of a card that holds its signatures, left out of what is signed.
pub const SIGNATURES: &str = "signatures";

/// One signature of a card: the wire shape of the 1.0 `AgentCardSignature`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Signature {
    /// The protected header, base64url JSON.
    pub protected: String,
    /// The signature, base64url.
    pub signature: String,
    /// The unprotected header, if any (not covered by the signature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<serde_json::Map<String, Value>>,
}

impl Signature {
    /// A signature of these two parts.
    pub fn new(protected: impl Into<String>, signature: impl Into<String>) -> Self {
        Self {
            protected: protected.into(),
            signature: signature.into(),
            header: None,
        }
    }

    /// The protected header, decoded.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when it is not base64url of a JSON object with an `alg`.
    pub fn header(&self) -> Result<Header, Error> {
        let bytes = b64::decode(&self.protected)
            .map_err(|e| Error::Malformed(format!("the protected header is not base64url: {e}")))?;
        serde_json::from_slice(&bytes).map_err(|e| {
            Error::Malformed(format!("the protected header is not a JOSE header: {e}"))
        })
    }
}

/// What is signed: the canonical (JCS) bytes of `card` without its `signatures`.
///
/// # Errors
///
/// [`Error::Malformed`] when `card` is not a JSON object.
pub fn payload(card: &Value) -> Result<Vec<u8>, Error> {
    let Value::Object(members) = card else {
        return Err(Error::Malformed(
            "an agent card is a JSON object".to_owned(),
        ));
    };
    let mut members = members.clone();
    members.remove(SIGNATURES);
    Ok(jcs::to_vec(&Value::Object(members)))
}

/// `card` with every empty string, array and object left out, recursively (an object or array
/// that becomes empty goes too): the payload form the Python SDK (a2a-sdk 1.x) signs and
/// verifies, which also drops empty members the 1.0 card requires (`"skills": []`). A verifier
/// may try it after the 1.0 form.
///
/// ```
/// let card = serde_json::json!({"a": "", "b": [], "c": {"d": []}, "e": false, "f": [{"g": ""}, 1]});
/// assert_eq!(a2a_jose::card::without_empty(&card), serde_json::json!({"e": false, "f": [1]}));
/// ```
pub fn without_empty(card: &Value) -> Value {
    fn clean(value: &Value) -> Option<Value> {
        match value {
            Value::String(s) if s.is_empty() => None,
            Value::Array(items) => {
                let kept: Vec<Value> = items.iter().filter_map(clean).collect();
                (!kept.is_empty()).then_some(Value::Array(kept))
            }
            Value::Object(members) => {
                let kept: serde_json::Map<String, Value> = members
                    .iter()
                    .filter_map(|(k, v)| clean(v).map(|v| (k.clone(), v)))
                    .collect();
                (!kept.is_empty()).then_some(Value::Object(kept))
            }
            other => Some(other.clone()),
        }
    }
    clean(card).unwrap_or_else(|| Value::Object(serde_json::Map::new()))
}

/// Signs `card` (its [`payload`]) with `key`: a detached JWS whose protected header names the
/// key's `kid`, `typ: JOSE` and, when given, `jku`.
///
/// # Errors
///
/// [`Error::Malformed`] when `card` is not a JSON object.
pub fn sign(card: &Value, key: &SigningKey, jku: Option<&str>) -> Result<Signature, Error> {
    let payload = payload(card)?;
    let token = key.sign_with(TOKEN_TYPE, jku, &payload);
    let mut parts = token.split('.');
    let protected = parts.next().unwrap_or_default().to_owned();
    let signature = parts.nth(1).unwrap_or_default().to_owned();
    Ok(Signature::new(protected, signature))
}

/// Checks one signature of a card against `keys`, over the first of `payloads` it verifies
/// with (the 1.0 form first; others a signer may have used after it). Returns the protected
/// header.
///
/// # Errors
///
/// The header cannot be read ([`Error::Malformed`]), its algorithm is not one this crate
/// verifies ([`Error::Algorithm`]), `keys` lacks its `kid` ([`Error::UnknownKey`]), or the
/// signature verifies over none of `payloads` ([`Error::Signature`], or the error of the
/// first payload).
pub fn verify(payloads: &[&[u8]], signature: &Signature, keys: &Jwks) -> Result<Header, Error> {
    signature.header()?;
    let mut first_error = None;
    for payload in payloads {
        let token = format!(
            "{}.{}.{}",
            signature.protected,
            b64::encode(payload),
            signature.signature
        );
        match verify_compact(&token, keys) {
            Ok(verified) => return Ok(verified.header),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| {
        Error::Malformed("there is no payload to check the signature over".to_owned())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Algorithm;
    use pretty_assertions::assert_eq;

    fn card() -> Value {
        serde_json::json!({
            "name": "Echo",
            "description": "Repeats",
            "version": "1.0.0",
            "capabilities": {"streaming": true},
            "skills": [{"id": "echo", "name": "Echo", "description": "Echoes", "tags": ["echo"]}],
            "signatures": [{"protected": "x", "signature": "y"}]
        })
    }

    #[test]
    fn the_payload_leaves_out_signatures_and_is_canonical() {
        assert_eq!(
            String::from_utf8(payload(&card()).unwrap()).unwrap(),
            r#"{"capabilities":{"streaming":true},"description":"Repeats","name":"Echo","skills":[{"description":"Echoes","id":"echo","name":"Echo","tags":["echo"]}],"version":"1.0.0"}"#
        );
        assert_eq!(
            payload(&serde_json::json!([1])),
            Err(Error::Malformed(
                "an agent card is a JSON object".to_owned()
            ))
        );
    }

    #[test]
    fn the_protected_header_is_exact() {
        let key = SigningKey::generate(Algorithm::EdDsa)
            .unwrap()
            .with_kid("k1");
        let signature = sign(&card(), &key, Some("https://a.example/jwks.json")).unwrap();
        assert_eq!(
            String::from_utf8(b64::decode(&signature.protected).unwrap()).unwrap(),
            r#"{"alg":"EdDSA","kid":"k1","typ":"JOSE","jku":"https://a.example/jwks.json"}"#
        );
        assert_eq!(
            serde_json::to_value(&signature).unwrap()["protected"],
            signature.protected
        );
        // Ed25519 is deterministic: the same card, the same signature.
        assert_eq!(
            sign(&card(), &key, Some("https://a.example/jwks.json")).unwrap(),
            signature
        );
        let without_jku = sign(&card(), &key, None).unwrap();
        assert_eq!(
            String::from_utf8(b64::decode(&without_jku.protected).unwrap()).unwrap(),
            r#"{"alg":"EdDSA","kid":"k1","typ":"JOSE"}"#
        );
    }

    /// A new key of `alg`; RS256 keys (which ring does not generate) from the test PEM.
    fn new_key(alg: Algorithm) -> SigningKey {
        match alg {
            Algorithm::Rs256 => SigningKey::from_pkcs8_pem(
                alg,
                include_str!("../tests/fixtures/rs256-test-key.pem"),
            )
            .unwrap(),
            _ => SigningKey::generate(alg).unwrap(),
        }
    }

    #[test]
    fn round_trip_and_tampering() {
        for alg in [Algorithm::Es256, Algorithm::EdDsa, Algorithm::Rs256] {
            let key = new_key(alg);
            let keys = Jwks::new(vec![key.public_jwk()]);
            let signature = sign(&card(), &key, None).unwrap();
            let signed = payload(&card()).unwrap();
            assert_eq!(
                verify(&[&signed], &signature, &keys)
                    .unwrap()
                    .kid
                    .as_deref(),
                Some(key.kid())
            );
            // Member order and whitespace do not matter; content does.
            let reordered: Value = serde_json::from_str(
                r#"{ "version": "1.0.0", "skills": [{"tags": ["echo"], "name": "Echo", "id": "echo", "description": "Echoes"}],
                     "name": "Echo", "description": "Repeats", "capabilities": {"streaming": true} }"#,
            )
            .unwrap();
            let reordered = payload(&reordered).unwrap();
            assert!(verify(&[&reordered], &signature, &keys).is_ok());
            let mut tampered = card();
            tampered["capabilities"]["streaming"] = Value::Bool(false);
            let tampered = payload(&tampered).unwrap();
            assert_eq!(
                verify(&[&tampered], &signature, &keys),
                Err(Error::Signature(key.kid().to_owned()))
            );
            // A second candidate payload is tried after the first.
            assert!(verify(&[&tampered, &signed], &signature, &keys).is_ok());
            let other = Jwks::new(vec![new_key(alg).with_kid("other").public_jwk()]);
            assert_eq!(
                verify(&[&signed], &signature, &other),
                Err(Error::UnknownKey(format!(
                    "`{}` is not in the key set",
                    key.kid()
                )))
            );
        }
    }

    #[test]
    fn rs256_signatures_are_exact() {
        let key = new_key(Algorithm::Rs256).with_kid("rsa-card");
        let signature = sign(&card(), &key, None).unwrap();
        assert_eq!(
            String::from_utf8(b64::decode(&signature.protected).unwrap()).unwrap(),
            r#"{"alg":"RS256","kid":"rsa-card","typ":"JOSE"}"#
        );
        // RSASSA-PKCS1-v1_5 is deterministic, and the signature is as long as the modulus
        // (2048 bits).
        assert_eq!(sign(&card(), &key, None).unwrap(), signature);
        assert_eq!(b64::decode(&signature.signature).unwrap().len(), 256);
        // An RS256 signature does not verify with an EC key under the same kid.
        let impostor = Jwks::new(vec![
            SigningKey::generate(Algorithm::Es256)
                .unwrap()
                .with_kid("rsa-card")
                .public_jwk(),
        ]);
        assert_eq!(
            verify(&[&payload(&card()).unwrap()], &signature, &impostor),
            Err(Error::Algorithm(
                "the token is signed RS256, but key `rsa-card` is a EC P-256 key".to_owned()
            ))
        );
    }

    #[test]
    fn bad_signatures_are_named() {
        let keys = Jwks::default();
        let signed = payload(&card()).unwrap();
        assert_eq!(
            verify(&[&signed], &Signature::new("!!", "AA"), &keys),
            Err(Error::Malformed(
                "the protected header is not base64url: Invalid symbol 33, offset 0.".to_owned()
            ))
        );
        let none = Signature::new(b64::encode(r#"{"alg":"none","kid":"k"}"#), "");
        assert_eq!(
            verify(&[&signed], &none, &keys),
            Err(Error::Algorithm(
                "`none` (only ES256, EdDSA and RS256 are accepted)".to_owned()
            ))
        );
        let hs256 = Signature::new(b64::encode(r#"{"alg":"HS256","kid":"k"}"#), "AA");
        assert_eq!(
            verify(&[&signed], &hs256, &keys),
            Err(Error::Algorithm(
                "`HS256` (only ES256, EdDSA and RS256 are accepted)".to_owned()
            ))
        );
    }
}
