//! The small part of JOSE that A2A needs, on `ring`: JSON Web Keys and key sets (RFC 7517),
//! compact JSON Web Signatures (RFC 7515) with ES256 (ECDSA P-256, SHA-256), EdDSA
//! (Ed25519) and RS256 (RSASSA-PKCS1-v1_5 with SHA-256, 2048 to 8192 bits, the usual algorithm
//! of OpenID Connect issuers), base64url, and RFC 7638 key thumbprints.
//!
//! The server signs push deliveries with it and serves its public keys as a JWKS; the client
//! checks them (see `docs/push.md`). Signed agent cards (spec 1.0 §8.4) use the same pieces.
//! No encryption (JWE), no HMAC, no `alg: none`: a token in any other algorithm is refused.
//! RSA keys are read from PKCS#8 documents; ring does not generate them.
//!
//! ```
//! use a2a_jose::{Algorithm, Jwks, SigningKey, verify};
//!
//! let key = SigningKey::generate(Algorithm::Es256).unwrap();
//! let token = key.sign("JWT", br#"{"sub":"x"}"#);
//! let jwks = Jwks::new(vec![key.public_jwk()]);
//! let verified = verify(&token, &jwks).unwrap();
//! assert_eq!(verified.payload, br#"{"sub":"x"}"#);
//! assert_eq!(verified.header.kid.as_deref(), Some(key.kid()));
//! ```

use std::fmt;

use ring::rand::{SecureRandom as _, SystemRandom};
use ring::signature::{self, EcdsaKeyPair, Ed25519KeyPair, KeyPair as _, RsaKeyPair};
use serde::{Deserialize, Serialize};

pub mod b64;
pub mod card;
pub mod jcs;
pub mod push;

/// What went wrong with a key or a token. The text names the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The token is not a compact JWS: not three base64url parts, or a header that is not the
    /// JSON object it must be.
    #[error("malformed JWS: {0}")]
    Malformed(String),
    /// The token names a key the key set does not hold.
    #[error("unknown key: {0}")]
    UnknownKey(String),
    /// An algorithm this crate does not do (`none`, RSA, HMAC ...), or a key that does not
    /// fit the token's algorithm.
    #[error("unsupported algorithm: {0}")]
    Algorithm(String),
    /// The signature does not verify with the key.
    #[error("the signature does not verify with key `{0}`")]
    Signature(String),
    /// Key material that cannot be used (a bad PKCS#8 document, a JWK with wrong sizes).
    #[error("invalid key: {0}")]
    Key(String),
}

/// A signature algorithm: the JWS `alg` values this crate signs and verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algorithm {
    /// `ES256`: ECDSA on P-256 with SHA-256; 64-byte signatures (R || S).
    Es256,
    /// `EdDSA`: Ed25519.
    EdDsa,
    /// `RS256`: RSASSA-PKCS1-v1_5 with SHA-256, keys of 2048 to 8192 bits.
    Rs256,
}

impl Algorithm {
    /// The JWS `alg` name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Es256 => "ES256",
            Algorithm::EdDsa => "EdDSA",
            Algorithm::Rs256 => "RS256",
        }
    }

    /// The algorithm of a JWS `alg` name; `None` for any other.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "ES256" => Some(Algorithm::Es256),
            "EdDSA" => Some(Algorithm::EdDsa),
            "RS256" => Some(Algorithm::Rs256),
            _ => None,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A public JSON Web Key (RFC 7517): an EC P-256 key (`kty: EC`), an Ed25519 key
/// (`kty: OKP`) or an RSA key (`kty: RSA`). Keys of other types are read (a key set may hold
/// them) but verify nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Jwk {
    /// The key type: `EC` or `OKP`.
    pub kty: String,
    /// The key id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    /// What the key is for: `sig`.
    #[serde(default, rename = "use", skip_serializing_if = "Option::is_none")]
    pub use_: Option<String>,
    /// The algorithm the key is for: `ES256` or `EdDSA`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alg: Option<String>,
    /// The curve: `P-256` or `Ed25519`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crv: Option<String>,
    /// The x coordinate (EC), or the public key (OKP), base64url.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    /// The y coordinate (EC), base64url.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<String>,
    /// The modulus (RSA), base64url of its big-endian bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<String>,
    /// The public exponent (RSA), base64url of its big-endian bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e: Option<String>,
}

impl Jwk {
    /// The algorithm the key verifies: its `alg` when set, else the one its curve implies.
    pub fn algorithm(&self) -> Option<Algorithm> {
        match (self.kty.as_str(), self.crv.as_deref()) {
            ("EC", Some("P-256")) => Some(Algorithm::Es256),
            ("OKP", Some("Ed25519")) => Some(Algorithm::EdDsa),
            ("RSA", _) => Some(Algorithm::Rs256),
            _ => None,
        }
        .filter(|alg| self.alg.as_deref().is_none_or(|a| a == alg.name()))
    }

    /// The RFC 7638 thumbprint: base64url of the SHA-256 of the key's required members in
    /// lexicographic order. A stable key id.
    pub fn thumbprint(&self) -> Result<String, Error> {
        let member = |v: &Option<String>, name: &str| {
            v.clone()
                .ok_or_else(|| Error::Key(format!("the {} key has no `{name}`", self.kty)))
        };
        let canonical = match self.kty.as_str() {
            "EC" => serde_json::json!({
                "crv": member(&self.crv, "crv")?,
                "kty": "EC",
                "x": member(&self.x, "x")?,
                "y": member(&self.y, "y")?,
            }),
            "OKP" => serde_json::json!({
                "crv": member(&self.crv, "crv")?,
                "kty": "OKP",
                "x": member(&self.x, "x")?,
            }),
            "RSA" => serde_json::json!({
                "e": member(&self.e, "e")?,
                "kty": "RSA",
                "n": member(&self.n, "n")?,
            }),
            other => return Err(Error::Key(format!("no thumbprint for key type `{other}`"))),
        };
        // serde_json's map keeps keys sorted (no preserve_order), as RFC 7638 wants.
        let text = serde_json::to_vec(&canonical).expect("JSON serializes");
        Ok(b64::encode(sha256(&text)))
    }

    /// The public key bytes ring verifies with: `04 || x || y` for P-256, `x` for Ed25519.
    fn public_bytes(&self, alg: Algorithm) -> Result<Vec<u8>, Error> {
        let kid = self.kid.as_deref().unwrap_or("(no kid)");
        let coordinate = |v: &Option<String>, name: &str, len: usize| {
            let text = v
                .as_deref()
                .ok_or_else(|| Error::Key(format!("key `{kid}` has no `{name}`")))?;
            let bytes = b64::decode(text)
                .map_err(|e| Error::Key(format!("key `{kid}`: `{name}` is not base64url: {e}")))?;
            if bytes.len() != len {
                return Err(Error::Key(format!(
                    "key `{kid}`: `{name}` has {} bytes, not {len}",
                    bytes.len()
                )));
            }
            Ok(bytes)
        };
        match alg {
            Algorithm::Es256 => {
                let mut point = vec![4u8];
                point.extend(coordinate(&self.x, "x", 32)?);
                point.extend(coordinate(&self.y, "y", 32)?);
                Ok(point)
            }
            Algorithm::EdDsa => coordinate(&self.x, "x", 32),
            Algorithm::Rs256 => Err(Error::Key(format!(
                "key `{kid}` is an RSA key, verified from its components"
            ))),
        }
    }

    /// The RSA modulus and exponent, decoded.
    fn rsa_components(&self) -> Result<(Vec<u8>, Vec<u8>), Error> {
        let kid = self.kid.as_deref().unwrap_or("(no kid)");
        let member = |v: &Option<String>, name: &str| {
            let text = v
                .as_deref()
                .ok_or_else(|| Error::Key(format!("key `{kid}` has no `{name}`")))?;
            b64::decode(text)
                .map_err(|e| Error::Key(format!("key `{kid}`: `{name}` is not base64url: {e}")))
        };
        Ok((member(&self.n, "n")?, member(&self.e, "e")?))
    }
}

/// A JSON Web Key Set: `{"keys": [...]}`. Several keys serve key rotation: each token names
/// its key with `kid`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Jwks {
    /// The keys.
    #[serde(default)]
    pub keys: Vec<Jwk>,
}

impl Jwks {
    /// A set of these keys.
    pub fn new(keys: Vec<Jwk>) -> Self {
        Self { keys }
    }

    /// The key with this id.
    pub fn find(&self, kid: &str) -> Option<&Jwk> {
        self.keys.iter().find(|k| k.kid.as_deref() == Some(kid))
    }
}

/// The protected header of a compact JWS, as read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Header {
    /// The algorithm.
    pub alg: String,
    /// The key id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    /// The media type of the whole token (`JWT`; `JOSE` for a card signature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typ: Option<String>,
    /// The URL of a JWKS that holds the key (RFC 7515 §4.1.2), as a signed agent card may name
    /// it. A verifier fetches it only when it trusts the URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jku: Option<String>,
    /// Extensions the token says must be understood (RFC 7515 §4.1.11); this crate
    /// understands none, so a token with `crit` is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crit: Option<serde_json::Value>,
}

/// A token that verified: its header and its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verified {
    /// The protected header.
    pub header: Header,
    /// The payload bytes (for a JWT, the claims as JSON).
    pub payload: Vec<u8>,
}

/// A private key that signs: ES256, EdDSA or RS256, with its key id (by default its RFC 7638
/// thumbprint). Its `Debug` shows the id, never the key.
pub struct SigningKey {
    kid: String,
    pair: Pair,
}

enum Pair {
    Es256(EcdsaKeyPair),
    EdDsa(Ed25519KeyPair),
    Rs256(RsaKeyPair),
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("alg", &self.algorithm())
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// A new random key.
    pub fn generate(alg: Algorithm) -> Result<Self, Error> {
        Self::from_pkcs8(alg, &Self::generate_pkcs8(alg)?)
    }

    /// A new random key as a PKCS#8 v2 document (DER), for keeping it.
    pub fn generate_pkcs8(alg: Algorithm) -> Result<Vec<u8>, Error> {
        let rng = SystemRandom::new();
        let doc = match alg {
            Algorithm::Es256 => {
                EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &rng)
            }
            Algorithm::EdDsa => Ed25519KeyPair::generate_pkcs8(&rng),
            Algorithm::Rs256 => {
                return Err(Error::Algorithm(
                    "RS256 keys cannot be generated here; read one from PKCS#8 \
                     (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`)"
                        .to_owned(),
                ));
            }
        }
        .map_err(|_| Error::Key("the system random source failed".to_owned()))?;
        Ok(doc.as_ref().to_vec())
    }

    /// The key in a PKCS#8 document (DER): a P-256 key for ES256, an Ed25519 key (v1 or v2)
    /// for EdDSA.
    pub fn from_pkcs8(alg: Algorithm, der: &[u8]) -> Result<Self, Error> {
        let pair = match alg {
            Algorithm::Es256 => EcdsaKeyPair::from_pkcs8(
                &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
                der,
                &SystemRandom::new(),
            )
            .map(Pair::Es256),
            Algorithm::EdDsa => Ed25519KeyPair::from_pkcs8_maybe_unchecked(der).map(Pair::EdDsa),
            Algorithm::Rs256 => RsaKeyPair::from_pkcs8(der).map(Pair::Rs256),
        }
        .map_err(|e| Error::Key(format!("not a PKCS#8 {alg} private key: {e}")))?;
        let mut key = Self {
            kid: String::new(),
            pair,
        };
        key.kid = key.public_jwk_without_kid().thumbprint()?;
        Ok(key)
    }

    /// The key in a PEM `PRIVATE KEY` block (PKCS#8), as `openssl genpkey` writes it.
    pub fn from_pkcs8_pem(alg: Algorithm, pem: &str) -> Result<Self, Error> {
        Self::from_pkcs8(alg, &pem_decode(pem)?)
    }

    /// Sets the key id.
    #[must_use]
    pub fn with_kid(mut self, kid: impl Into<String>) -> Self {
        self.kid = kid.into();
        self
    }

    /// The key id.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        match self.pair {
            Pair::Es256(_) => Algorithm::Es256,
            Pair::EdDsa(_) => Algorithm::EdDsa,
            Pair::Rs256(_) => Algorithm::Rs256,
        }
    }

    /// The public half as a JWK, with `kid`, `alg` and `use: sig`.
    pub fn public_jwk(&self) -> Jwk {
        let mut jwk = self.public_jwk_without_kid();
        jwk.kid = Some(self.kid.clone());
        jwk.alg = Some(self.algorithm().name().to_owned());
        jwk.use_ = Some("sig".to_owned());
        jwk
    }

    fn public_jwk_without_kid(&self) -> Jwk {
        match &self.pair {
            Pair::Es256(pair) => {
                // Uncompressed point: 04 || x || y.
                let point = pair.public_key().as_ref();
                Jwk {
                    kty: "EC".to_owned(),
                    crv: Some("P-256".to_owned()),
                    x: Some(b64::encode(&point[1..33])),
                    y: Some(b64::encode(&point[33..65])),
                    ..Jwk::default()
                }
            }
            Pair::EdDsa(pair) => Jwk {
                kty: "OKP".to_owned(),
                crv: Some("Ed25519".to_owned()),
                x: Some(b64::encode(pair.public_key().as_ref())),
                ..Jwk::default()
            },
            Pair::Rs256(pair) => {
                let components = signature::RsaPublicKeyComponents::<Vec<u8>>::from(pair.public());
                Jwk {
                    kty: "RSA".to_owned(),
                    n: Some(b64::encode(&components.n)),
                    e: Some(b64::encode(&components.e)),
                    ..Jwk::default()
                }
            }
        }
    }

    /// A compact JWS of `payload`: the header `{"alg":..,"kid":..,"typ":typ}`, the payload and
    /// the signature, each base64url, joined by dots.
    pub fn sign(&self, typ: &str, payload: &[u8]) -> String {
        self.sign_with(typ, None, payload)
    }

    /// As [`sign`](Self::sign), with a `jku` in the header after `kid` when given:
    /// `{"alg":..,"kid":..,"typ":typ,"jku":..}`.
    pub fn sign_with(&self, typ: &str, jku: Option<&str>, payload: &[u8]) -> String {
        let header = Header {
            alg: self.algorithm().name().to_owned(),
            kid: Some(self.kid.clone()),
            typ: Some(typ.to_owned()),
            jku: jku.map(str::to_owned),
            crit: None,
        };
        let header = serde_json::to_vec(&header).expect("a header serializes");
        let mut token = b64::encode(header);
        token.push('.');
        token.push_str(&b64::encode(payload));
        let signature = match &self.pair {
            Pair::Es256(pair) => pair
                .sign(&SystemRandom::new(), token.as_bytes())
                .expect("ECDSA signing with the system random source")
                .as_ref()
                .to_vec(),
            Pair::EdDsa(pair) => pair.sign(token.as_bytes()).as_ref().to_vec(),
            Pair::Rs256(pair) => {
                let mut signature = vec![0u8; pair.public().modulus_len()];
                pair.sign(
                    &signature::RSA_PKCS1_SHA256,
                    &SystemRandom::new(),
                    token.as_bytes(),
                    &mut signature,
                )
                .expect("RSA signing into a buffer of the modulus' length");
                signature
            }
        };
        token.push('.');
        token.push_str(&b64::encode(signature));
        token
    }
}

/// Checks a compact JWS against a key set: the key its `kid` names (or, without a `kid`, the
/// set's only key for its algorithm), its algorithm, its signature. Returns the header and the
/// payload; what the payload claims is the caller's to check.
pub fn verify(token: &str, jwks: &Jwks) -> Result<Verified, Error> {
    let mut parts = token.trim().split('.');
    let (Some(header_b64), Some(payload_b64), Some(signature_b64), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Error::Malformed(
            "a compact JWS has three parts separated by dots".to_owned(),
        ));
    };
    let part = |text: &str, name: &str| {
        b64::decode(text).map_err(|e| Error::Malformed(format!("the {name} is not base64url: {e}")))
    };
    let header: Header = serde_json::from_slice(&part(header_b64, "header")?)
        .map_err(|e| Error::Malformed(format!("the header is not a JOSE header: {e}")))?;
    if header.crit.is_some() {
        return Err(Error::Malformed(
            "the header has `crit` extensions, which this verifier does not understand".to_owned(),
        ));
    }
    let alg = Algorithm::from_name(&header.alg).ok_or_else(|| {
        Error::Algorithm(format!(
            "`{}` (only ES256, EdDSA and RS256 are accepted)",
            header.alg
        ))
    })?;
    let key = match header.kid.as_deref() {
        Some(kid) => jwks
            .find(kid)
            .ok_or_else(|| Error::UnknownKey(format!("`{kid}` is not in the key set")))?,
        None => {
            let mut candidates = jwks.keys.iter().filter(|k| k.algorithm() == Some(alg));
            match (candidates.next(), candidates.next()) {
                (Some(key), None) => key,
                _ => {
                    return Err(Error::UnknownKey(format!(
                        "the token names no key (`kid`), and the key set does not hold exactly \
                         one {alg} key"
                    )));
                }
            }
        }
    };
    let kid = key.kid.clone().unwrap_or_default();
    if key.algorithm() != Some(alg) {
        let kind = match key.crv.as_deref() {
            Some(crv) => format!("{} {crv}", key.kty),
            None => key.kty.clone(),
        };
        return Err(Error::Algorithm(format!(
            "the token is signed {alg}, but key `{kid}` is a {kind} key"
        )));
    }
    let signature = part(signature_b64, "signature")?;
    let signing_input = &token.trim()[..header_b64.len() + 1 + payload_b64.len()];
    let checked = if alg == Algorithm::Rs256 {
        let (n, e) = key.rsa_components()?;
        signature::RsaPublicKeyComponents { n, e }.verify(
            &signature::RSA_PKCS1_2048_8192_SHA256,
            signing_input.as_bytes(),
            &signature,
        )
    } else {
        let public = key.public_bytes(alg)?;
        let algorithm: &dyn signature::VerificationAlgorithm = match alg {
            Algorithm::Es256 => &signature::ECDSA_P256_SHA256_FIXED,
            _ => &signature::ED25519,
        };
        signature::UnparsedPublicKey::new(algorithm, public)
            .verify(signing_input.as_bytes(), &signature)
    };
    checked.map_err(|_| Error::Signature(kid))?;
    Ok(Verified {
        header,
        payload: part(payload_b64, "payload")?,
    })
}

/// SHA-256 of `data`.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    let digest = ring::digest::digest(&ring::digest::SHA256, data);
    let mut out = [0u8; 32];
    out.copy_from_slice(digest.as_ref());
    out
}

/// Lowercase hex of `bytes` (the form of the `request_body_sha256` claim).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// 128 random bits from the system's source, base64url: a token id (`jti`).
pub fn random_id() -> String {
    let mut bytes = [0u8; 16];
    SystemRandom::new()
        .fill(&mut bytes)
        .expect("the system random source works");
    b64::encode(bytes)
}

/// The DER inside a PEM `PRIVATE KEY` block.
fn pem_decode(pem: &str) -> Result<Vec<u8>, Error> {
    const BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
    const END: &str = "-----END PRIVATE KEY-----";
    let start = pem
        .find(BEGIN)
        .ok_or_else(|| Error::Key(format!("no `{BEGIN}` line (a PKCS#8 PEM file)")))?;
    let rest = &pem[start + BEGIN.len()..];
    let end = rest
        .find(END)
        .ok_or_else(|| Error::Key(format!("no `{END}` line")))?;
    let text: String = rest[..end].chars().filter(|c| !c.is_whitespace()).collect();
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| Error::Key(format!("the PEM block is not base64: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn tamper(token: &str, part: usize) -> String {
        let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
        let mut bytes = b64::decode(&parts[part]).unwrap();
        bytes[0] ^= 1;
        parts[part] = b64::encode(bytes);
        parts.join(".")
    }

    #[test]
    fn both_algorithms_sign_and_verify() {
        for alg in [Algorithm::Es256, Algorithm::EdDsa] {
            let key = SigningKey::generate(alg).unwrap();
            let token = key.sign("JWT", b"{\"a\":1}");
            let jwks = Jwks::new(vec![key.public_jwk()]);
            let verified = verify(&token, &jwks).unwrap();
            assert_eq!(verified.payload, b"{\"a\":1}");
            assert_eq!(verified.header.alg, alg.name());
            assert_eq!(verified.header.typ.as_deref(), Some("JWT"));
            // A changed payload or signature is refused.
            assert_eq!(
                verify(&tamper(&token, 1), &jwks),
                Err(Error::Signature(key.kid().to_owned()))
            );
            assert_eq!(
                verify(&tamper(&token, 2), &jwks),
                Err(Error::Signature(key.kid().to_owned()))
            );
        }
    }

    #[test]
    fn the_header_is_exact() {
        let key = SigningKey::generate(Algorithm::EdDsa)
            .unwrap()
            .with_kid("k1");
        let token = key.sign("JWT", b"{}");
        let header = token.split('.').next().unwrap();
        assert_eq!(
            String::from_utf8(b64::decode(header).unwrap()).unwrap(),
            r#"{"alg":"EdDSA","kid":"k1","typ":"JWT"}"#
        );
        assert_eq!(token.split('.').nth(1), Some("e30"));
    }

    #[test]
    fn rotation_picks_the_key_by_kid() {
        let old = SigningKey::generate(Algorithm::Es256)
            .unwrap()
            .with_kid("old");
        let new = SigningKey::generate(Algorithm::EdDsa)
            .unwrap()
            .with_kid("new");
        let jwks = Jwks::new(vec![old.public_jwk(), new.public_jwk()]);
        assert!(verify(&old.sign("JWT", b"1"), &jwks).is_ok());
        assert!(verify(&new.sign("JWT", b"2"), &jwks).is_ok());
        let stranger = SigningKey::generate(Algorithm::Es256)
            .unwrap()
            .with_kid("stranger");
        assert_eq!(
            verify(&stranger.sign("JWT", b"3"), &jwks),
            Err(Error::UnknownKey(
                "`stranger` is not in the key set".to_owned()
            ))
        );
        // A key under the right kid but of another algorithm.
        let impostor = SigningKey::generate(Algorithm::Es256)
            .unwrap()
            .with_kid("new");
        assert_eq!(
            verify(&impostor.sign("JWT", b"4"), &jwks),
            Err(Error::Algorithm(
                "the token is signed ES256, but key `new` is a OKP Ed25519 key".to_owned()
            ))
        );
    }

    #[test]
    fn bad_tokens_are_named() {
        let jwks = Jwks::default();
        assert_eq!(
            verify("a.b", &jwks),
            Err(Error::Malformed(
                "a compact JWS has three parts separated by dots".to_owned()
            ))
        );
        let none = format!(
            "{}.{}.",
            b64::encode(r#"{"alg":"none"}"#),
            b64::encode("{}")
        );
        assert_eq!(
            verify(&none, &jwks),
            Err(Error::Algorithm(
                "`none` (only ES256, EdDSA and RS256 are accepted)".to_owned()
            ))
        );
        let crit = format!(
            "{}.{}.AA",
            b64::encode(r#"{"alg":"ES256","crit":["x"]}"#),
            b64::encode("{}")
        );
        assert!(matches!(verify(&crit, &jwks), Err(Error::Malformed(_))));
        assert!(matches!(
            verify("!!.e30.AA", &jwks),
            Err(Error::Malformed(_))
        ));
    }

    #[test]
    fn keys_round_trip_through_pkcs8_and_pem() {
        let der = SigningKey::generate_pkcs8(Algorithm::Es256).unwrap();
        let a = SigningKey::from_pkcs8(Algorithm::Es256, &der).unwrap();
        use base64::Engine as _;
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            base64::engine::general_purpose::STANDARD.encode(&der)
        );
        let b = SigningKey::from_pkcs8_pem(Algorithm::Es256, &pem).unwrap();
        assert_eq!(a.public_jwk(), b.public_jwk());
        assert_eq!(a.kid(), a.public_jwk().thumbprint().unwrap());
        assert!(matches!(
            SigningKey::from_pkcs8(Algorithm::EdDsa, &der),
            Err(Error::Key(_))
        ));
        assert!(matches!(
            SigningKey::from_pkcs8_pem(Algorithm::Es256, "nothing"),
            Err(Error::Key(_))
        ));
    }

    #[test]
    fn rfc7638_thumbprint_example() {
        // RFC 7638 §3.1 uses an RSA key; this is RFC 8037 §A.3's Ed25519 example.
        let jwk: Jwk = serde_json::from_str(
            r#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,
        )
        .unwrap();
        assert_eq!(
            jwk.thumbprint().unwrap(),
            "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
        );
    }

    #[test]
    fn jwks_json_is_exact_and_lenient() {
        let jwks: Jwks = serde_json::from_str(
            r#"{"keys":[{"kty":"RSA","n":"x","e":"AQAB","kid":"r"},{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"e","use":"sig"}]}"#,
        )
        .unwrap();
        assert_eq!(jwks.keys[0].algorithm(), Some(Algorithm::Rs256));
        assert_eq!(
            serde_json::to_string(&jwks.keys[0]).unwrap(),
            r#"{"kty":"RSA","kid":"r","n":"x","e":"AQAB"}"#
        );
        assert_eq!(jwks.keys[1].algorithm(), Some(Algorithm::EdDsa));
        let hmac: Jwk = serde_json::from_str(r#"{"kty":"oct","k":"c2VjcmV0"}"#).unwrap();
        assert_eq!(hmac.algorithm(), None);
        assert_eq!(
            serde_json::to_string(&jwks.keys[1]).unwrap(),
            r#"{"kty":"OKP","kid":"e","use":"sig","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#
        );
    }

    #[test]
    fn hex_is_lowercase() {
        assert_eq!(hex(&[0, 15, 16, 255]), "000f10ff");
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
