//! Signed agent cards end to end: a2a-server signs the card it serves (`sign_card`), the client
//! checks it (`verify_card`, `check_card`), and a card that does not verify is refused with
//! the reason for each signature.

mod common;

use a2a_client::signature::{CardVerification, Outcome, TrustedKeys};
use a2a_client::{A2aClient, Error};
use a2a_jose::{Algorithm, Jwks, SigningKey};
use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_server::card::CardSigning;
use a2a_server::push::PushSettings;
use a2a_types::v1::{SecurityRequirement, SecurityScheme};
use common::{Scripted, Seen, TestServer, answer, start_with};
use pretty_assertions::assert_eq;

/// A key of `alg`: a new one, or for RS256 (ring does not generate RSA keys) the test key of
/// a2a-jose.
fn key(alg: Algorithm, kid: &str) -> SigningKey {
    match alg {
        Algorithm::Rs256 => SigningKey::from_pkcs8_pem(
            alg,
            include_str!("../../a2a-jose/tests/fixtures/rs256-test-key.pem"),
        )
        .unwrap()
        .with_kid(kid),
        _ => SigningKey::generate(alg).unwrap().with_kid(kid),
    }
}

/// The test card with a security scheme and push deliveries signed by `push_key`: the parts
/// of a card the served document carries in several versions' shapes.
async fn signed_agent(card_key: SigningKey, push_key: Option<SigningKey>) -> TestServer {
    start_with(move |url| {
        let agent = agent_fn(|_ctx, sink| async move {
            sink.reply("hi").await?;
            Ok(())
        });
        let scheme: SecurityScheme = serde_json::from_value(
            serde_json::json!({"httpAuthSecurityScheme": {"scheme": "Bearer"}}),
        )
        .unwrap();
        let requirement: SecurityRequirement =
            serde_json::from_value(serde_json::json!({"schemes": {"bearer": {"list": []}}}))
                .unwrap();
        let mut card = common::card().with_security_requirements([requirement]);
        card.security_schemes.insert("bearer".to_owned(), scheme);
        let mut push = PushSettings::default();
        if let Some(push_key) = push_key {
            push = push.sign_with(push_key);
        }
        A2aService::builder(agent, card)
            .public_url(url)
            .push(push)
            .sign_card(CardSigning::new(card_key))
            .build()
    })
    .await
}

async fn get_json(url: &str) -> serde_json::Value {
    let client = A2aClient::builder();
    let request = http::Request::get(url).body(bytes::Bytes::new()).unwrap();
    let (head, body) = client.send_http("test", request).await.unwrap();
    assert_eq!(head.status, 200, "{url}");
    serde_json::from_slice(&body).unwrap()
}

#[tokio::test]
async fn a_served_card_verifies_with_the_served_jwks() {
    for alg in [Algorithm::Es256, Algorithm::EdDsa, Algorithm::Rs256] {
        let server = signed_agent(key(alg, "card-1"), Some(key(Algorithm::Es256, "push-1"))).await;
        let url = server.url();
        let document = get_json(&format!("{url}/.well-known/agent-card.json")).await;
        let signatures = document["signatures"].as_array().unwrap();
        assert_eq!(signatures.len(), 1);
        let header = a2a_jose::card::Signature::new(
            signatures[0]["protected"].as_str().unwrap(),
            signatures[0]["signature"].as_str().unwrap(),
        )
        .header()
        .unwrap();
        assert_eq!(header.alg, alg.name());
        assert_eq!(header.kid.as_deref(), Some("card-1"));
        assert_eq!(header.typ.as_deref(), Some("JOSE"));
        assert_eq!(
            header.jku,
            Some(format!("{url}/.well-known/jwks.json")),
            "the jku names the service's JWKS"
        );
        // The JWKS lists the push key and the card key.
        let jwks: Jwks =
            serde_json::from_value(get_json(&format!("{url}/.well-known/jwks.json")).await)
                .unwrap();
        let kids: Vec<_> = jwks.keys.iter().map(|k| k.kid.clone().unwrap()).collect();
        assert_eq!(kids, ["push-1", "card-1"]);
        assert_eq!(
            a2a_client::signature::check(&document, &jwks),
            Outcome::Verified {
                signature: 0,
                kid: "card-1".to_owned()
            }
        );
        // The union document's legacy fields are not what is signed; the 1.0 card is.
        assert!(document.get("url").is_some() && document.get("security").is_some());
        let mut tampered = document.clone();
        tampered["skills"][0]["name"] = "Changed".into();
        assert_eq!(
            a2a_client::signature::check(&tampered, &jwks).to_string(),
            "unverifiable: signature 1 (kid `card-1`): the signature does not verify with key \
             `card-1`"
        );
    }
}

#[tokio::test]
async fn connect_checks_the_card_when_asked() {
    let server = signed_agent(key(Algorithm::Es256, "card-1"), None).await;
    let url = server.url();
    // The card's own jku, on its origin.
    let client = A2aClient::builder()
        .verify_card(CardVerification::require([TrustedKeys::SameOriginJku]))
        .connect(&url)
        .await
        .unwrap();
    assert_eq!(client.card().signatures.len(), 1);
    // A JWKS URL.
    A2aClient::builder()
        .verify_card(CardVerification::require([TrustedKeys::JwksUrl(format!(
            "{url}/.well-known/jwks.json"
        ))]))
        .connect(&url)
        .await
        .unwrap();
    // Keys that did not sign it: refused, or only warned about.
    let strangers = Jwks::new(vec![key(Algorithm::Es256, "other").public_jwk()]);
    let error = A2aClient::builder()
        .verify_card(CardVerification::require([TrustedKeys::Keys(
            strangers.clone(),
        )]))
        .connect(&url)
        .await
        .unwrap_err();
    assert!(matches!(error, Error::CardSignature { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        format!(
            "the agent card at {url}/.well-known/agent-card.json is refused: its signature is \
             unverifiable: signature 1 (kid `card-1`): unknown key: `card-1` is not in the key set"
        )
    );
    A2aClient::builder()
        .verify_card(CardVerification::warn([TrustedKeys::Keys(strangers)]))
        .connect(&url)
        .await
        .unwrap();
}

#[tokio::test]
async fn unsigned_cards_and_foreign_jkus() {
    // An unsigned card: refused when a signature is required.
    let unsigned = common::start().await;
    let error = A2aClient::builder()
        .verify_card(CardVerification::require([TrustedKeys::SameOriginJku]))
        .fetch_card(&unsigned.url())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the agent card at {}/.well-known/agent-card.json is refused: its signature is \
             absent: the card carries no signature",
            unsigned.url()
        )
    );
    // A card whose jku points at another origin: that JWKS is not fetched.
    let signer = key(Algorithm::EdDsa, "k");
    let mut document = serde_json::to_value(common::card()).unwrap();
    let signature =
        a2a_jose::card::sign(&document, &signer, Some("http://127.0.0.1:9/jwks.json")).unwrap();
    document["signatures"] = serde_json::json!([signature]);
    let body = serde_json::to_vec(&document).unwrap();
    let server = Scripted::start(move |_, seen: &Seen| {
        (seen.path == "/.well-known/agent-card.json")
            .then(|| answer(200, Some("application/json"), &body))
    })
    .await;
    let card_url = format!("{}/.well-known/agent-card.json", server.url());
    let (outcome, problems) = A2aClient::builder()
        .check_card(&document, Some(&card_url), &[TrustedKeys::SameOriginJku])
        .await
        .unwrap();
    assert_eq!(
        outcome.to_string(),
        "unverifiable: signature 1 (kid `k`): unknown key: `k` is not in the key set"
    );
    assert_eq!(
        problems,
        ["the jku http://127.0.0.1:9/jwks.json is not on the card's origin, so it is not trusted"]
    );
    // The same card read from a file: no origin at all.
    let (_, problems) = A2aClient::builder()
        .check_card(&document, None, &[TrustedKeys::SameOriginJku])
        .await
        .unwrap();
    assert_eq!(
        problems,
        [
            "the jku http://127.0.0.1:9/jwks.json is not trusted: the card was read from a file, \
             so it has no origin"
        ]
    );
    // Pinned keys verify it wherever it came from.
    let (outcome, _) = A2aClient::builder()
        .check_card(
            &document,
            None,
            &[TrustedKeys::Keys(Jwks::new(vec![signer.public_jwk()]))],
        )
        .await
        .unwrap();
    assert_eq!(
        outcome,
        Outcome::Verified {
            signature: 0,
            kid: "k".to_owned()
        }
    );
}

#[tokio::test]
async fn a_service_without_a_public_url_serves_its_card_unsigned() {
    let server = start_with(|_url| {
        let agent = agent_fn(|_ctx, sink| async move {
            sink.reply("hi").await?;
            Ok(())
        });
        A2aService::builder(agent, common::card())
            .sign_card(CardSigning::new(key(Algorithm::Es256, "k")))
            .build()
    })
    .await;
    let document = get_json(&format!("{}/.well-known/agent-card.json", server.url())).await;
    assert_eq!(document.get("signatures"), None);
}
