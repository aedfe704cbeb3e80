//! Bearer JWTs against a JWKS served by a local key server (OpenID Connect discovery, then the
//! JWKS): good tokens, expired ones, the wrong audience or issuer, an unknown key then its
//! rotation in, a tampered signature, `alg: none`, algorithms outside the allow list, and the
//! bounds of key fetches. Then the same authenticator in front of a service: 401 with
//! `WWW-Authenticate: Bearer ...`.

#![cfg(feature = "jwt")]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use a2a_jose::{Algorithm, Jwks, SigningKey, b64};
use a2a_server::A2aService;
use a2a_server::auth::jwt::{JwtAuthenticator, JwtConfig, KeySource};
use a2a_server::auth::{AuthError, Authenticator, Principal};
use a2a_types::v1::AgentCard;
use axum::Router;
use axum::routing::get;
use common::{normalized, rpc_with, start};
use http::StatusCode;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// The key server: its OpenID configuration and its JWKS (which the test changes), counting
/// JWKS fetches.
struct KeyServer {
    base: String,
    jwks: Arc<Mutex<Value>>,
    fetches: Arc<AtomicUsize>,
}

async fn key_server(jwks: Value) -> KeyServer {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let shared = Arc::new(Mutex::new(jwks));
    let fetches = Arc::new(AtomicUsize::new(0));
    let discovery = json!({"issuer": base, "jwks_uri": format!("{base}/jwks")}).to_string();
    let (keys, count) = (shared.clone(), fetches.clone());
    let app = Router::new()
        .route(
            "/.well-known/openid-configuration",
            get(move || std::future::ready(discovery.clone())),
        )
        .route(
            "/jwks",
            get(move || {
                count.fetch_add(1, Ordering::SeqCst);
                std::future::ready(keys.lock().unwrap().to_string())
            }),
        )
        .route("/huge", get(|| std::future::ready("x".repeat(100_000))))
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(10)).await;
                "{}"
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    KeyServer {
        base,
        jwks: shared,
        fetches,
    }
}

fn key(kid: &str) -> SigningKey {
    SigningKey::generate(Algorithm::Es256)
        .unwrap()
        .with_kid(kid)
}

fn jwks(keys: &[&SigningKey]) -> Value {
    serde_json::to_value(Jwks::new(keys.iter().map(|k| k.public_jwk()).collect())).unwrap()
}

fn now() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    )
    .unwrap()
}

/// Good claims for the server at `iss`, with `extra` merged in.
fn claims(iss: &str, extra: Value) -> Vec<u8> {
    let mut claims = json!({"iss": iss, "aud": "agent", "sub": "alice", "exp": now() + 300,
        "scope": "tasks:read tasks:write", "tenant": "acme"});
    for (k, v) in extra.as_object().unwrap() {
        if v.is_null() {
            claims.as_object_mut().unwrap().remove(k);
        } else {
            claims[k] = v.clone();
        }
    }
    serde_json::to_vec(&claims).unwrap()
}

fn head(token: &str) -> http::request::Parts {
    http::Request::post("/")
        .header("authorization", format!("Bearer {token}"))
        .body(())
        .unwrap()
        .into_parts()
        .0
}

async fn check(auth: &JwtAuthenticator, token: &str) -> Result<Option<Principal>, AuthError> {
    auth.authenticate(&head(token)).await
}

async fn refusal(auth: &JwtAuthenticator, token: &str) -> String {
    let error = check(auth, token).await.unwrap_err();
    assert_eq!(error.status, StatusCode::UNAUTHORIZED);
    assert!(
        error
            .challenge
            .as_deref()
            .unwrap()
            .starts_with("Bearer error=\"invalid_token\", error_description=\""),
        "{error:?}"
    );
    error.message
}

fn oidc(server: &KeyServer, config: JwtConfig) -> JwtAuthenticator {
    JwtAuthenticator::new(
        KeySource::OidcIssuer(server.base.clone()),
        config.with_audience("agent"),
    )
    .unwrap()
}

#[tokio::test]
async fn good_and_bad_tokens() {
    let k1 = key("k1");
    let server = key_server(jwks(&[&k1])).await;
    let auth = oidc(&server, JwtConfig::new().with_tenant_claim("tenant"));
    let iss = server.base.as_str();

    let principal = check(&auth, &k1.sign("JWT", &claims(iss, json!({}))))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (principal.subject(), principal.tenant()),
        ("alice", Some("acme"))
    );
    assert!(principal.has_scope("tasks:read") && principal.has_scope("tasks:write"));
    assert_eq!(principal.claims()["aud"], "agent");

    let cases = [
        (
            json!({"exp": now() - 120}),
            "invalid bearer token: the token expired",
        ),
        (
            json!({"exp": null}),
            "invalid bearer token: the token has no `exp` claim",
        ),
        (
            json!({"nbf": now() + 600}),
            "invalid bearer token: the token is not valid yet (`nbf`)",
        ),
        (
            json!({"aud": ["other", "more"]}),
            r#"invalid bearer token: the token is not meant for this server (aud ["other", "more"], expected one of ["agent"])"#,
        ),
        (
            json!({"sub": ""}),
            "invalid bearer token: the token has no `sub` claim",
        ),
        (
            json!({"exp": "soon"}),
            "invalid bearer token: the claim `exp` is not a number",
        ),
    ];
    for (extra, expected) in cases {
        assert_eq!(
            refusal(&auth, &k1.sign("JWT", &claims(iss, extra.clone()))).await,
            expected,
            "{extra}"
        );
    }
    let wrong_iss = claims("https://evil.example", json!({}));
    assert_eq!(
        refusal(&auth, &k1.sign("JWT", &wrong_iss)).await,
        format!("invalid bearer token: the token's issuer `https://evil.example` is not `{iss}`")
    );
    // Within the leeway (60 s), an expired token still passes.
    assert!(
        check(
            &auth,
            &k1.sign("JWT", &claims(iss, json!({"exp": now() - 30})))
        )
        .await
        .is_ok()
    );

    // Tampered: the payload changed after signing.
    let token = k1.sign("JWT", &claims(iss, json!({})));
    let parts: Vec<&str> = token.split('.').collect();
    let forged = b64::encode(claims(iss, json!({"sub": "mallory"})));
    assert_eq!(
        refusal(&auth, &format!("{}.{forged}.{}", parts[0], parts[2])).await,
        "invalid bearer token: the signature does not verify with key `k1`"
    );
    // alg none, and an algorithm outside the allow list.
    let none = format!(
        "{}.{}.",
        b64::encode(br#"{"alg":"none","kid":"k1"}"#),
        b64::encode(claims(iss, json!({})))
    );
    assert_eq!(
        refusal(&auth, &none).await,
        "invalid bearer token: `alg: none` tokens are refused"
    );
    let hs = format!("{}.{}.c2ln", b64::encode(br#"{"alg":"HS256"}"#), parts[1]);
    assert_eq!(
        refusal(&auth, &hs).await,
        "invalid bearer token: the token is signed `HS256`; accepted are ES256, EdDSA, RS256"
    );
    assert_eq!(
        refusal(&auth, "not-a-jwt").await,
        "invalid bearer token: the token's header is not base64url: Invalid input length: 9"
    );
    // No token at all: the bare challenge.
    let bare = http::Request::post("/").body(()).unwrap().into_parts().0;
    let error = auth.authenticate(&bare).await.unwrap_err();
    assert_eq!(
        (error.message.as_str(), error.challenge.as_deref()),
        ("a bearer token is required", Some("Bearer"))
    );
    // One discovery, one JWKS fetch for all of that.
    assert_eq!(server.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_unknown_key_is_fetched_once_rotated_in() {
    let (k1, k2) = (key("k1"), key("k2"));
    let server = key_server(jwks(&[&k1])).await;
    let auth = oidc(
        &server,
        JwtConfig::new().with_min_refresh_interval(Duration::ZERO),
    );
    let iss = server.base.clone();
    assert!(
        check(&auth, &k1.sign("JWT", &claims(&iss, json!({}))))
            .await
            .is_ok()
    );
    let rotated = k2.sign("JWT", &claims(&iss, json!({})));
    assert_eq!(
        refusal(&auth, &rotated).await,
        "invalid bearer token: unknown key: `k2` is not in the key set"
    );
    // The key server rotates k2 in: the next token signed with it makes the cache fetch again.
    *server.jwks.lock().unwrap() = jwks(&[&k1, &k2]);
    let principal = check(&auth, &rotated).await.unwrap().unwrap();
    assert_eq!(principal.subject(), "alice");
    assert_eq!(server.fetches.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn unknown_keys_do_not_cause_a_fetch_storm() {
    let k1 = key("k1");
    let server = key_server(jwks(&[&k1])).await;
    let auth = oidc(&server, JwtConfig::new());
    let iss = server.base.clone();
    assert!(
        check(&auth, &k1.sign("JWT", &claims(&iss, json!({}))))
            .await
            .is_ok()
    );
    for i in 0..5 {
        let stranger = key(&format!("x{i}"));
        refusal(&auth, &stranger.sign("JWT", &claims(&iss, json!({})))).await;
    }
    // The first unknown kid may fetch; the next ones within min_refresh_interval (30 s) do not.
    assert!(
        server.fetches.load(Ordering::SeqCst) <= 2,
        "{:?}",
        server.fetches
    );
}

#[tokio::test]
async fn key_fetches_are_bounded() {
    let k1 = key("k1");
    let server = key_server(jwks(&[&k1])).await;
    let token = k1.sign("JWT", &claims(&server.base, json!({})));
    let huge = JwtAuthenticator::new(
        KeySource::JwksUrl(format!("{}/huge", server.base)),
        JwtConfig::new().with_max_jwks_bytes(1024),
    )
    .unwrap();
    let message = refusal(&huge, &token).await;
    assert!(message.ends_with("(the limit is 1024 bytes)"), "{message}");
    let slow = JwtAuthenticator::new(
        KeySource::JwksUrl(format!("{}/slow", server.base)),
        JwtConfig::new().with_fetch_timeout(Duration::from_millis(200)),
    )
    .unwrap();
    assert_eq!(
        refusal(&slow, &token).await,
        format!(
            "invalid bearer token: the signing keys could not be fetched: GET {}/slow did not answer within 200 ms",
            server.base
        )
    );
    // Static keys need no fetch.
    let fixed = JwtAuthenticator::new(
        KeySource::Static(Jwks::new(vec![k1.public_jwk()])),
        JwtConfig::new(),
    )
    .unwrap();
    assert!(check(&fixed, &token).await.unwrap().is_some());
}

#[tokio::test]
async fn a_service_behind_jwt_answers_401_with_the_challenge() {
    let k1 = key("k1");
    let keys = key_server(jwks(&[&k1])).await;
    let agent = common::scripted_agent(Arc::new(tokio::sync::Semaphore::new(10)));
    let service = A2aService::builder(agent, AgentCard::new("J", "JWT", "1.0.0"))
        .authenticator(oidc(&keys, JwtConfig::new()))
        .build();
    let server = start(service).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}"#;
    let (status, headers, text) = rpc_with(server.addr, body, &[("A2A-Version", "1.0")]).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(headers["www-authenticate"], "Bearer");
    assert_eq!(
        normalized(&text),
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
            "message": "unauthenticated: a bearer token is required"}})
    );
    let expired = k1.sign("JWT", &claims(&keys.base, json!({"exp": now() - 3600})));
    let bearer = format!("Bearer {expired}");
    let (status, headers, _) = rpc_with(
        server.addr,
        body,
        &[("A2A-Version", "1.0"), ("authorization", &bearer)],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        headers["www-authenticate"],
        r#"Bearer error="invalid_token", error_description="the token expired""#
    );
    let good = format!("Bearer {}", k1.sign("JWT", &claims(&keys.base, json!({}))));
    let (status, _, text) = rpc_with(
        server.addr,
        body,
        &[("A2A-Version", "1.0"), ("authorization", &good)],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
}
