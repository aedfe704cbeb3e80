//! Mutual TLS from the client's side (feature `tls`): a client certificate
//! (`ClientBuilder::client_identity`) and a private CA (`ClientBuilder::add_root_certificate`)
//! reach an agent that requires one, over JSON-RPC and HTTP+JSON (HTTP/2 by ALPN); without
//! them the call fails with an error that says why; unreadable and mismatched PEM is named.

#[path = "../../a2a-server/tests/pki/mod.rs"]
mod pki;

use a2a_client::{A2aClient, ClientBuilder, Error};
use a2a_server::ServeConfig;
use a2a_server::tls::{CaBundle, ClientAuth, TlsSettings};
use a2a_types::v1::{Message, Part, Role, SendMessageRequest, SendMessageResponse};
use pki::{Ca, Identity, Names};
use pretty_assertions::assert_eq;

const ALICE: &str = "spiffe://a2a.test/alice";

/// Serves the agent that tells who called over TLS, client certificates as `client_auth`
/// says; its URL.
async fn start(ca: &Ca, client_auth: fn(CaBundle) -> ClientAuth) -> String {
    let server = ca.server();
    let tls = TlsSettings::from_pem(&server.cert_pem, &server.key_pem)
        .unwrap()
        .with_client_auth(client_auth(CaBundle::from_pem(ca.pem()).unwrap()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://{}", listener.local_addr().unwrap());
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        pki::mtls_service(&url),
        std::future::pending(),
        ServeConfig::default().with_tls(tls),
    ));
    url
}

/// The artifact text of a message's answer: who the agent says called.
async fn who(client: &A2aClient) -> Result<String, Error> {
    let message = Message::new("m-1", Role::User, vec![Part::text("who?")]);
    match client
        .send_message(SendMessageRequest::new(message))
        .await?
    {
        SendMessageResponse::Task(task) => {
            Ok(task.artifacts[0].parts[0].as_text().unwrap().to_owned())
        }
        other => panic!("not a task: {other:?}"),
    }
}

fn trusting(ca: &Ca, identity: Option<&Identity>) -> ClientBuilder {
    let builder = A2aClient::builder()
        .retry(a2a_client::RetryPolicy::none())
        .add_root_certificate(ca.pem());
    match identity {
        Some(identity) => builder.client_identity(&identity.cert_pem, &identity.key_pem),
        None => builder,
    }
}

#[tokio::test]
async fn a_client_certificate_and_a_private_ca_reach_an_mtls_agent() {
    let ca = Ca::new("a2a-rs test CA");
    let url = start(&ca, ClientAuth::Required).await;
    let alice = ca.client(Names::uri(ALICE));
    for binding in ["JSONRPC", "HTTP+JSON"] {
        let client = trusting(&ca, Some(&alice))
            .preferred_transports([binding])
            .connect(&url)
            .await
            .unwrap();
        assert_eq!(client.interface().protocol_binding, binding);
        assert_eq!(who(&client).await.unwrap(), ALICE);
    }
}

#[tokio::test]
async fn without_the_certificate_or_the_ca_the_call_fails_and_says_why() {
    let ca = Ca::new("a2a-rs test CA");
    // An agent that lets anonymous clients connect: its authenticator answers 401.
    let url = start(&ca, ClientAuth::Optional).await;
    let client = trusting(&ca, None).connect(&url).await.unwrap();
    let error = who(&client).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "HTTP 401 Unauthorized: unauthenticated: a client certificate is required (mutual TLS)"
    );
    // The webpki roots alone do not trust a private CA.
    let alice = ca.client(Names::uri(ALICE));
    let error = A2aClient::builder()
        .retry(a2a_client::RetryPolicy::none())
        .client_identity(&alice.cert_pem, &alice.key_pem)
        .connect(&url)
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error}");
    assert!(format!("{error:?}").contains("UnknownIssuer"), "{error:?}");
}

#[test]
fn unreadable_and_mismatched_pem_is_named() {
    let ca = Ca::new("a2a-rs test CA");
    let (alice, bob) = (ca.client(Names::uri(ALICE)), ca.client(Names::uri("b")));
    let config_error = |builder: ClientBuilder| {
        let card = a2a_types::v1::AgentCard::new("A", "a", "1").with_supported_interfaces([
            a2a_types::v1::AgentInterface::new("https://127.0.0.1:1", "JSONRPC", "1.0"),
        ]);
        builder.from_card(card).err().unwrap().to_string()
    };
    assert_eq!(
        config_error(A2aClient::builder().client_identity("not pem", &alice.key_pem)),
        "the client certificate: no `-----BEGIN CERTIFICATE-----` block"
    );
    assert_eq!(
        config_error(A2aClient::builder().client_identity(&alice.cert_pem, "no key")),
        "the client certificate's key: no PEM private key (PKCS#8, RSA \
         or EC): no items found"
    );
    assert_eq!(
        config_error(A2aClient::builder().client_identity(&alice.cert_pem, &bob.key_pem)),
        "the client certificate's key is not the key of the certificate \
         (the first of the chain)"
    );
    assert_eq!(
        config_error(A2aClient::builder().add_root_certificate("")),
        "the root certificate: no `-----BEGIN CERTIFICATE-----` block"
    );
}
