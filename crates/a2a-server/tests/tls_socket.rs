//! `serve` terminating TLS, and mutual TLS (feature `tls`): the client certificate as the
//! principal (HTTP/1.1 and HTTP/2 by ALPN, JSON-RPC and HTTP+JSON), the refusals (no
//! certificate with `ClientAuth::Optional`: 401 with `WWW-Authenticate`; with `Required`, an
//! untrusted CA, an expired certificate: the handshake fails), tasks scoped by certificate, and
//! the bound on the handshake (a stalled or failed handshake frees its connection slot).

mod pki;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use a2a_server::ServeConfig;
use a2a_server::tls::{CaBundle, ClientAuth, TlsSettings};
use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use pki::{Ca, Identity, Names, mtls_service};
use pretty_assertions::assert_eq;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

/// The bound on every wait for something that must happen; never reached when the code works.
const GUARD: Duration = Duration::from_secs(10);

const ALICE: &str = "spiffe://a2a.test/alice";
const BOB: &str = "spiffe://a2a.test/bob";

/// The PKI of a test: the CA clients and the server are certified by, and another.
struct Pki {
    ca: Ca,
    other: Ca,
    server: Identity,
}

impl Pki {
    fn new() -> Self {
        let ca = Ca::new("a2a-rs test CA");
        let server = ca.server();
        Self {
            other: Ca::new("another CA"),
            ca,
            server,
        }
    }

    fn alice(&self) -> Identity {
        self.ca.client(Names::uri(ALICE))
    }

    fn settings(&self, client_auth: fn(CaBundle) -> ClientAuth) -> TlsSettings {
        TlsSettings::from_pem(&self.server.cert_pem, &self.server.key_pem)
            .unwrap()
            .with_client_auth(client_auth(CaBundle::from_pem(self.ca.pem()).unwrap()))
    }
}

/// Serves [`mtls_service`] over TLS with `config`; the address.
async fn start(config: ServeConfig) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(a2a_server::serve_with_shutdown(
        listener,
        mtls_service("https://127.0.0.1"),
        std::future::pending(),
        config,
    ));
    addr
}

/// A TLS connection trusting `pki`'s CA, presenting `identity`, offering `alpn`.
async fn connect(
    addr: SocketAddr,
    pki: &Pki,
    identity: Option<&Identity>,
    alpn: &[&[u8]],
) -> std::io::Result<TlsStream<TcpStream>> {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(pki.ca.pem().as_bytes()).unwrap())
        .unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots);
    let mut config = match identity {
        Some(identity) => builder
            .with_client_auth_cert(
                CertificateDer::pem_slice_iter(identity.cert_pem.as_bytes())
                    .collect::<Result<Vec<_>, _>>()
                    .unwrap(),
                PrivateKeyDer::from_pem_slice(identity.key_pem.as_bytes()).unwrap(),
            )
            .unwrap(),
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    let tcp = TcpStream::connect(addr).await?;
    let name = ServerName::IpAddress(addr.ip().into());
    TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
}

fn post(path: &str, body: &Value) -> Request<Full<Bytes>> {
    Request::post(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap()
}

fn get(path: &str) -> Request<Full<Bytes>> {
    Request::get(path)
        .header("host", "127.0.0.1")
        .header("a2a-version", "1.0")
        .body(Full::new(Bytes::new()))
        .unwrap()
}

/// One request over HTTP/1.1 on a new TLS connection: status, `WWW-Authenticate`, body JSON.
async fn call(
    addr: SocketAddr,
    pki: &Pki,
    identity: Option<&Identity>,
    request: Request<Full<Bytes>>,
) -> (StatusCode, Option<String>, Value) {
    let stream = connect(addr, pki, identity, &[b"http/1.1"]).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(conn);
    let response = sender.send_request(request).await.unwrap();
    answer(response).await
}

async fn answer(
    response: http::Response<hyper::body::Incoming>,
) -> (StatusCode, Option<String>, Value) {
    let (head, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    let challenge = head
        .headers
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned());
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (head.status, challenge, json)
}

fn send_message(text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {
        "messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": text}]}}})
}

/// The task id and the artifact's text of a `SendMessage` answer.
fn task_and_text(answer: &Value) -> (String, String) {
    let task = &answer["result"]["task"];
    (
        task["id"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"))
            .to_owned(),
        task["artifacts"][0]["parts"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned(),
    )
}

/// What the first read of a connection gives after a request was written: the answer's first
/// line, or the error.
async fn first_read(mut stream: TlsStream<TcpStream>) -> Result<String, String> {
    let request = b"GET /.well-known/agent-card.json HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n";
    stream.write_all(request).await.map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(GUARD, stream.read(&mut buf))
        .await
        .expect("an answer or an error")
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&buf[..n]).into_owned();
    Ok(text.lines().next().unwrap_or_default().to_owned())
}

/// Alice's message is answered: the server goes on serving good clients.
async fn alice_is_served(addr: SocketAddr, pki: &Pki) {
    let alice = pki.alice();
    let (status, _, answer) = call(addr, pki, Some(&alice), post("/", &send_message("hi"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(task_and_text(&answer).1, ALICE);
}

#[tokio::test]
async fn a_good_certificate_names_the_principal() {
    let pki = Pki::new();
    let addr = start(ServeConfig::default().with_tls(pki.settings(ClientAuth::Required))).await;
    let alice = pki.alice();
    let (status, _, answer) = call(addr, &pki, Some(&alice), post("/", &send_message("hi"))).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(task_and_text(&answer).1, ALICE);
    // A certificate with a DNS name only, and one with a CN only.
    for (names, subject) in [
        (
            Names {
                dns: Some("billing.a2a.test"),
                cn: Some("billing"),
                ..Names::default()
            },
            "billing.a2a.test",
        ),
        (
            Names {
                cn: Some("just-a-cn"),
                ..Names::default()
            },
            "just-a-cn",
        ),
    ] {
        let identity = pki.ca.client(names);
        let (_, _, answer) =
            call(addr, &pki, Some(&identity), post("/", &send_message("hi"))).await;
        assert_eq!(task_and_text(&answer).1, subject);
    }
    // The card is served to anyone with a certificate, and names the scheme.
    let (status, _, card) = call(
        addr,
        &pki,
        Some(&alice),
        get("/.well-known/agent-card.json"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The 1.0 member, and the 0.3 `type` merged in (docs/versions.md).
    assert_eq!(
        card["securitySchemes"],
        json!({"mtls": {"mtlsSecurityScheme": {}, "type": "mutualTLS"}})
    );
}

#[tokio::test]
async fn http2_by_alpn_carries_the_certificate_to_every_stream() {
    let pki = Pki::new();
    let addr = start(ServeConfig::default().with_tls(pki.settings(ClientAuth::Required))).await;
    let alice = pki.alice();
    let stream = connect(addr, &pki, Some(&alice), &[b"h2", b"http/1.1"])
        .await
        .unwrap();
    assert_eq!(stream.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
    let (sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(conn);
    // Two streams of one connection, at once.
    let (first, second) = tokio::join!(
        sender.clone().send_request(post("/", &send_message("one"))),
        sender.clone().send_request(post("/", &send_message("two"))),
    );
    for response in [first.unwrap(), second.unwrap()] {
        assert_eq!(response.version(), http::Version::HTTP_2);
        let (status, _, answer) = answer(response).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(task_and_text(&answer).1, ALICE);
    }
    // Without ALPN the connection is HTTP/1.1.
    let stream = connect(addr, &pki, Some(&alice), &[]).await.unwrap();
    assert_eq!(stream.get_ref().1.alpn_protocol(), None);
    assert_eq!(first_read(stream).await.unwrap(), "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn without_a_certificate_an_optional_client_is_refused_with_401() {
    let pki = Pki::new();
    let addr = start(ServeConfig::default().with_tls(pki.settings(ClientAuth::Optional))).await;
    let (status, challenge, answer) = call(addr, &pki, None, post("/", &send_message("hi"))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(challenge.as_deref(), Some("MutualTLS"));
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
            "message": "unauthenticated: a client certificate is required (mutual TLS)"}})
    );
    let (status, challenge, answer) = call(addr, &pki, None, get("/tasks/t-1")).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(challenge.as_deref(), Some("MutualTLS"));
    assert_eq!(
        answer,
        json!({"error": {"code": 401, "status": "UNAUTHENTICATED",
            "message": "unauthenticated: a client certificate is required (mutual TLS)",
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "INVALID_REQUEST", "domain": "a2a-protocol.org"}]}})
    );
    // The public card needs no credential; with a certificate the same server names the caller.
    let (status, _, _) = call(addr, &pki, None, get("/.well-known/agent-card.json")).await;
    assert_eq!(status, StatusCode::OK);
    let alice = pki.alice();
    let (_, _, answer) = call(addr, &pki, Some(&alice), post("/", &send_message("hi"))).await;
    assert_eq!(task_and_text(&answer).1, ALICE);
}

#[tokio::test]
async fn the_handshake_refuses_no_untrusted_and_expired_certificates() {
    let pki = Pki::new();
    let addr = start(ServeConfig::default().with_tls(pki.settings(ClientAuth::Required))).await;
    // TLS 1.3: the client's side of the handshake ends before the server has checked its
    // certificate, so the refusal is the alert its first read meets.
    let refused = |stream: std::io::Result<TlsStream<TcpStream>>| async move {
        match stream {
            Ok(stream) => first_read(stream).await.unwrap_err(),
            Err(err) => err.to_string(),
        }
    };
    let none = connect(addr, &pki, None, &[b"http/1.1"]).await;
    assert_eq!(
        refused(none).await,
        "received fatal alert: CertificateRequired"
    );
    let stranger = pki.other.client(Names::uri("spiffe://elsewhere/mallory"));
    let untrusted = connect(addr, &pki, Some(&stranger), &[b"http/1.1"]).await;
    assert_eq!(refused(untrusted).await, "received fatal alert: UnknownCA");
    let expired = pki.ca.expired_client(Names::uri(ALICE));
    let expired = connect(addr, &pki, Some(&expired), &[b"http/1.1"]).await;
    assert_eq!(
        refused(expired).await,
        "received fatal alert: CertificateExpired"
    );
    // The server goes on serving.
    alice_is_served(addr, &pki).await;
}

#[tokio::test]
async fn a_task_of_one_certificate_is_not_found_for_another() {
    let pki = Pki::new();
    let addr = start(ServeConfig::default().with_tls(pki.settings(ClientAuth::Required))).await;
    let (alice, bob) = (pki.alice(), pki.ca.client(Names::uri(BOB)));
    let (_, _, answer) = call(addr, &pki, Some(&alice), post("/", &send_message("mine"))).await;
    let (task, _) = task_and_text(&answer);
    let get_task = json!({"jsonrpc": "2.0", "id": 2, "method": "GetTask", "params": {"id": task}});
    // Alice reads her task, over JSON-RPC and HTTP+JSON.
    let (_, _, mine) = call(addr, &pki, Some(&alice), post("/", &get_task)).await;
    assert_eq!(mine["result"]["id"], task.as_str());
    let (status, _, mine) = call(addr, &pki, Some(&alice), get(&format!("/tasks/{task}"))).await;
    assert_eq!(
        (status, mine["id"].as_str()),
        (StatusCode::OK, Some(task.as_str()))
    );
    // Bob does not find it.
    let (status, _, theirs) = call(addr, &pki, Some(&bob), post("/", &get_task)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        theirs,
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32001,
            "message": format!("task {task} not found"),
            "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
                "metadata": {"taskId": task}}]}})
    );
    let (status, _, theirs) = call(addr, &pki, Some(&bob), get(&format!("/tasks/{task}"))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        theirs,
        json!({"error": {"code": 404, "status": "NOT_FOUND",
            "message": format!("task {task} not found"),
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
                "metadata": {"taskId": task}}]}})
    );
}

/// Reads until the server closes the connection; how long that took.
async fn closed_after(mut tcp: TcpStream) -> Duration {
    let started = Instant::now();
    let mut buf = [0u8; 256];
    loop {
        match tokio::time::timeout(GUARD, tcp.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return started.elapsed(),
            Ok(Ok(_)) => {}
            Err(_) => panic!("the connection was not closed within {GUARD:?}"),
        }
    }
}

#[tokio::test]
async fn a_client_that_never_completes_the_handshake_is_closed_within_the_timeout() {
    let pki = Pki::new();
    let timeout = Duration::from_millis(300);
    let config = ServeConfig::default()
        .with_tls(pki.settings(ClientAuth::Required))
        .with_tls_handshake_timeout(timeout)
        .with_max_connections(1);
    let addr = start(config).await;
    // Connects and sends nothing: closed after the timeout, not before.
    let silent = TcpStream::connect(addr).await.unwrap();
    let waited = closed_after(silent).await;
    assert!(waited >= timeout - Duration::from_millis(50), "{waited:?}");
    assert!(waited < timeout * 5, "{waited:?}");
    // Sends the first bytes of a ClientHello and stops: the same.
    let mut halfway = TcpStream::connect(addr).await.unwrap();
    halfway
        .write_all(&[0x16, 0x03, 0x01, 0x02, 0x00, 0x01])
        .await
        .unwrap();
    let waited = closed_after(halfway).await;
    assert!(waited < timeout * 5, "{waited:?}");
    // The one connection slot is free again: a good client is served.
    alice_is_served(addr, &pki).await;
}

#[tokio::test]
async fn a_failed_handshake_frees_its_slot_and_the_loop_goes_on() {
    let pki = Pki::new();
    let config = ServeConfig::default()
        .with_tls(pki.settings(ClientAuth::Required))
        .with_max_connections(1);
    let addr = start(config).await;
    // Plaintext HTTP on the TLS port: not a ClientHello, closed at once.
    let mut plain = TcpStream::connect(addr).await.unwrap();
    plain
        .write_all(b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    assert!(closed_after(plain).await < GUARD);
    // A refused certificate, then a good client, on the one slot.
    let stranger = pki.other.client(Names::uri("spiffe://elsewhere/mallory"));
    let refused = connect(addr, &pki, Some(&stranger), &[b"http/1.1"])
        .await
        .unwrap();
    assert!(first_read(refused).await.is_err());
    alice_is_served(addr, &pki).await;
}

#[tokio::test]
async fn bad_tls_material_is_named() {
    let pki = Pki::new();
    let other = pki.ca.server();
    let error = TlsSettings::from_pem(&pki.server.cert_pem, &other.key_pem).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the private key is not the key of the certificate (the first of the chain)"
    );
    let error = TlsSettings::from_pem(&pki.server.cert_pem, "no key").unwrap_err();
    assert_eq!(
        error.to_string(),
        "the private key: no PEM private key (PKCS#8, RSA or EC): no items found"
    );
    // A ready rustls config keeps its own verifier: with_client_auth too is refused at start.
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(
        vec![CertificateDer::from_pem_slice(pki.server.cert_pem.as_bytes()).unwrap()],
        PrivateKeyDer::from_pem_slice(pki.server.key_pem.as_bytes()).unwrap(),
    )
    .unwrap();
    let tls = TlsSettings::from_config(config).with_client_auth(ClientAuth::Required(
        CaBundle::from_pem(pki.ca.pem()).unwrap(),
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let error = a2a_server::serve_with_shutdown(
        listener,
        mtls_service("https://127.0.0.1"),
        std::future::pending(),
        ServeConfig::default().with_tls(tls),
    )
    .await
    .unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    assert_eq!(
        error.to_string(),
        "TlsSettings::with_client_auth was given for a ready rustls ServerConfig; set its client \
         certificate verifier instead"
    );
}

/// The chain of a PEM identity, as the handshake hands it to the requests.
fn peer(identity: &Identity) -> a2a_server::tls::PeerCertificates {
    let chain = CertificateDer::pem_slice_iter(identity.cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    a2a_server::tls::PeerCertificates::new(chain).unwrap()
}

#[test]
fn the_principal_follows_the_configured_subject_tenant_and_scopes() {
    use a2a_server::auth::mtls::{MtlsAuthenticator, SubjectName};
    let pki = Pki::new();
    let alice = peer(&pki.ca.client(Names {
        uri: Some(ALICE),
        dns: Some("alice.a2a.test"),
        cn: Some("Alice"),
    }));
    let mtls = MtlsAuthenticator::new()
        .tenant(ALICE, "acme")
        .scopes(ALICE, ["tasks:read"])
        .scopes(ALICE, ["tasks:write"]);
    let principal = mtls.principal(&alice).unwrap();
    assert_eq!(
        (principal.subject(), principal.tenant()),
        (ALICE, Some("acme"))
    );
    assert!(principal.has_scope("tasks:read") && principal.has_scope("tasks:write"));
    assert_eq!(
        Value::Object(principal.claims().clone()),
        json!({"subject_name": "uri", "uris": [ALICE], "dns_names": ["alice.a2a.test"],
            "common_name": "Alice"})
    );
    // Another source of the subject; nothing configured for it.
    let by_cn = MtlsAuthenticator::new().with_subject_name(SubjectName::CommonName);
    let principal = by_cn.principal(&alice).unwrap();
    assert_eq!((principal.subject(), principal.tenant()), ("Alice", None));
    assert!(principal.scopes().is_empty());
    // Unknown subjects refused; a certificate without the name asked for.
    let refused = by_cn
        .clone()
        .refuse_unknown(true)
        .principal(&alice)
        .unwrap_err();
    assert_eq!(
        (refused.status, refused.message.as_str()),
        (
            StatusCode::FORBIDDEN,
            "the client certificate of `Alice` is not one this agent accepts"
        )
    );
    let cn_only = peer(&pki.ca.client(Names {
        cn: Some("just-a-cn"),
        ..Names::default()
    }));
    let refused = MtlsAuthenticator::new()
        .with_subject_name(SubjectName::Uri)
        .principal(&cn_only)
        .unwrap_err();
    assert_eq!(
        (
            refused.status,
            refused.message.as_str(),
            refused.challenge.as_deref()
        ),
        (
            StatusCode::UNAUTHORIZED,
            "the client certificate has no URI subject alternative name to name the caller by",
            Some("MutualTLS")
        )
    );
}
