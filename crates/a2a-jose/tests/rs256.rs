//! RS256: tokens signed with a PKCS#8 RSA key round-trip, tampering is caught, and a token
//! signed by OpenSSL (an implementation other than ring) verifies with the JWK of its key.

use a2a_jose::{Algorithm, Error, Jwks, SigningKey, b64, verify};
use pretty_assertions::assert_eq;

const PEM: &str = include_str!("fixtures/rs256-test-key.pem");

#[test]
fn rs256_round_trip_and_tamper() {
    let key = SigningKey::from_pkcs8_pem(Algorithm::Rs256, PEM)
        .unwrap()
        .with_kid("rsa-1");
    assert_eq!(key.algorithm(), Algorithm::Rs256);
    let jwk = key.public_jwk();
    assert_eq!(
        (jwk.kty.as_str(), jwk.alg.as_deref(), jwk.e.as_deref()),
        ("RSA", Some("RS256"), Some("AQAB"))
    );
    let jwks = Jwks::new(vec![jwk]);
    let token = key.sign("JWT", br#"{"sub":"alice"}"#);
    let verified = verify(&token, &jwks).unwrap();
    assert_eq!(verified.payload, br#"{"sub":"alice"}"#);
    assert_eq!(verified.header.alg, "RS256");
    // Another payload under the same signature.
    let parts: Vec<&str> = token.split('.').collect();
    let forged = format!(
        "{}.{}.{}",
        parts[0],
        b64::encode(br#"{"sub":"mallory"}"#),
        parts[2]
    );
    assert_eq!(
        verify(&forged, &jwks).unwrap_err(),
        Error::Signature("rsa-1".to_owned())
    );
    assert_eq!(
        SigningKey::generate(Algorithm::Rs256).unwrap_err(),
        Error::Algorithm(
            "RS256 keys cannot be generated here; read one from PKCS#8 \
             (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`)"
                .to_owned()
        )
    );
}

#[test]
fn a_token_signed_by_openssl_verifies() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/rs256-openssl.json")).unwrap();
    let jwks: Jwks = serde_json::from_value(fixture["jwks"].clone()).unwrap();
    let token = fixture["token"].as_str().unwrap();
    let verified = verify(token, &jwks).unwrap();
    assert_eq!(verified.payload, br#"{"sub":"alice","exp":4102444800}"#);
    assert_eq!(verified.header.kid.as_deref(), Some("openssl-1"));
    // An RSA key does not verify an ES256 token that names it.
    let es = SigningKey::generate(Algorithm::Es256)
        .unwrap()
        .with_kid("openssl-1");
    assert_eq!(
        verify(&es.sign("JWT", b"{}"), &jwks).unwrap_err(),
        Error::Algorithm("the token is signed ES256, but key `openssl-1` is a RSA key".to_owned())
    );
}
