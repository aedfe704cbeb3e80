//! gRPC behind mutual TLS: `SharedPort` served by `serve` with TLS, the client certificate
//! verified in the handshake, and the principal it names reaching `A2aService::call_context`
//! (the agent sees it), through the gRPC transport of a2a-client with the builder's client
//! certificate and private CA.

#[path = "../../a2a-server/tests/pki/mod.rs"]
mod pki;

use a2a_client::A2aClient;
use a2a_grpc::client::GrpcTransportFactory;
use a2a_grpc::server::{GrpcInterface as _, SharedPort};
use a2a_server::ServeConfig;
use a2a_server::card::InterfaceUrl;
use a2a_server::tls::{CaBundle, ClientAuth, TlsSettings};
use a2a_types::v1::{Message, Part, Role, SendMessageRequest, SendMessageResponse};
use pki::{Ca, Names};
use pretty_assertions::assert_eq;

#[tokio::test]
async fn the_certificate_names_the_grpc_caller() {
    let ca = Ca::new("a2a-rs test CA");
    let server = ca.server();
    let tls = TlsSettings::from_pem(&server.cert_pem, &server.key_pem)
        .unwrap()
        .with_client_auth(ClientAuth::Required(CaBundle::from_pem(ca.pem()).unwrap()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://{}", listener.local_addr().unwrap());
    let service = pki::mtls_builder(&url)
        .grpc_interface(InterfaceUrl::Url(url.clone()))
        .build();
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        SharedPort::new(service),
        std::future::pending(),
        ServeConfig::default().with_tls(tls),
    ));

    let alice = ca.client(Names::uri("spiffe://a2a.test/alice"));
    let client = A2aClient::builder()
        .transport(GrpcTransportFactory::new())
        .preferred_transports(["GRPC"])
        .add_root_certificate(ca.pem())
        .client_identity(&alice.cert_pem, &alice.key_pem)
        .connect(&url)
        .await
        .unwrap();
    assert_eq!(client.interface().protocol_binding, "GRPC");
    let message = Message::new("m-1", Role::User, vec![Part::text("who?")]);
    let SendMessageResponse::Task(task) = client
        .send_message(SendMessageRequest::new(message))
        .await
        .unwrap()
    else {
        panic!("not a task");
    };
    assert_eq!(
        task.artifacts[0].parts[0].as_text(),
        Some("spiffe://a2a.test/alice")
    );

    // Without a client certificate the handshake is refused: the call never reaches the agent.
    let anonymous = A2aClient::builder()
        .transport(GrpcTransportFactory::new())
        .preferred_transports(["GRPC"])
        .add_root_certificate(ca.pem())
        .retry(a2a_client::RetryPolicy::none())
        .from_card(client.card().clone())
        .unwrap();
    let message = Message::new("m-2", Role::User, vec![Part::text("who?")]);
    let error = anonymous
        .send_message(SendMessageRequest::new(message))
        .await
        .unwrap_err();
    // tonic reports the alert as a bare transport error.
    assert!(
        matches!(error, a2a_client::Error::Transport(_)),
        "{error:?}"
    );
    assert_eq!(error.to_string(), "gRPC UNKNOWN: transport error");
}
