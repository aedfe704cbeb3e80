//! The agent card as every version reads it, over real sockets: one document at both
//! well-known paths (the 1.0 card, with the 0.3 and 0.1 fields merged in), and the 0.2
//! authenticated extended card beside the JSON-RPC endpoint.

mod common;

use std::sync::Arc;

use a2a_server::A2aService;
use a2a_server::auth::{AuthError, Principal};
use a2a_types::v1::AgentCard;
use bytes::Bytes;
use common::{scripted_agent, send, start};
use http::StatusCode;
use http_body_util::{BodyExt as _, Full};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

fn card() -> AgentCard {
    serde_json::from_value(json!({
        "name": "Weather",
        "description": "Forecasts",
        "version": "2.1.0",
        "capabilities": {"streaming": true, "extendedAgentCard": true},
        "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}}},
        "securityRequirements": [{"schemes": {"bearer": {"list": []}}}],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "forecast", "name": "Forecast", "description": "Tells the weather", "tags": ["weather"]}]
    }))
    .unwrap()
}

fn service(rpc_path: &str) -> A2aService {
    let authenticator = |head: &http::request::Parts| match head
        .headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
    {
        Some("Bearer alice") => Ok(Some(Principal::new("alice"))),
        Some(_) => Err(AuthError::forbidden("unknown token")),
        None => Err(AuthError::unauthorized(
            "a bearer token is required",
            "Bearer",
        )),
    };
    let mut extended = card();
    extended.description = "Forecasts, with the paid skills".to_owned();
    A2aService::builder(scripted_agent(Arc::new(Semaphore::new(10))), card())
        .public_url("https://weather.example")
        .rpc_path(rpc_path)
        .extended_card(extended)
        .authenticator(authenticator)
        .build()
}

async fn get(
    addr: std::net::SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, String) {
    let mut request = http::Request::get(path).header("host", "t");
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = send(addr, request.body(Full::new(Bytes::new())).unwrap()).await;
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

/// The card as served: every 1.0 field as 1.0 writes it, plus `url`, `preferredTransport`,
/// `protocolVersion`, `additionalInterfaces` (the 0.x endpoints), the 0.3 shape of each
/// security scheme beside the 1.0 one, `security`, `supportsAuthenticatedExtendedCard` and
/// 0.1's `authentication`.
fn expected() -> Value {
    json!({
        "name": "Weather",
        "description": "Forecasts",
        "supportedInterfaces": [
            {"url": "https://weather.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "https://weather.example", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            {"url": "https://weather.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
            {"url": "https://weather.example", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
            {"url": "https://weather.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "0.1"}
        ],
        "version": "2.1.0",
        "capabilities": {"streaming": true, "extendedAgentCard": true},
        "securitySchemes": {"bearer": {
            "httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"},
            "type": "http", "scheme": "Bearer", "bearerFormat": "JWT"
        }},
        "securityRequirements": [{"schemes": {"bearer": {}}}],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "forecast", "name": "Forecast", "description": "Tells the weather", "tags": ["weather"]}],
        "protocolVersion": "0.3.0",
        "url": "https://weather.example/a2a",
        "preferredTransport": "JSONRPC",
        "additionalInterfaces": [
            {"url": "https://weather.example/a2a", "transport": "JSONRPC"},
            {"url": "https://weather.example", "transport": "HTTP+JSON"}
        ],
        "security": [{"bearer": []}],
        "supportsAuthenticatedExtendedCard": true,
        "authentication": {"schemes": ["Bearer"]}
    })
}

#[tokio::test]
async fn one_card_for_every_version_at_both_paths() {
    let server = start(service("/a2a")).await;
    for path in ["/.well-known/agent-card.json", "/.well-known/agent.json"] {
        let (status, body) = get(server.addr, path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        let document: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(document, expected(), "{path}");

        // Each version's reader finds its card in it.
        let v1: AgentCard = serde_json::from_str(&body).unwrap();
        assert_eq!(v1.supported_interfaces[0].protocol_version, "1.0");
        assert_eq!(a2a_types::card::parse(&body).unwrap(), v1);
        let v0_3: a2a_types::v0_3::AgentCard = serde_json::from_str(&body).unwrap();
        assert_eq!(
            (v0_3.url.as_str(), v0_3.protocol_version.as_str()),
            ("https://weather.example/a2a", "0.3.0")
        );
        assert_eq!(
            serde_json::to_value(&v0_3.security_schemes).unwrap(),
            json!({"bearer": {"type": "http", "scheme": "Bearer", "bearerFormat": "JWT"}})
        );
        let v0_1: a2a_types::v0_1::AgentCard = serde_json::from_str(&body).unwrap();
        assert_eq!(v0_1.url, "https://weather.example/a2a");
        assert_eq!(
            serde_json::to_value(&v0_1.authentication).unwrap(),
            json!({"schemes": ["Bearer"]})
        );
    }
}

/// 0.2: `GET {url}/../agent/authenticatedExtendedCard`, for an authenticated caller.
#[tokio::test]
async fn the_0_2_authenticated_extended_card() {
    for (rpc_path, card_path) in [
        ("/a2a", "/agent/authenticatedExtendedCard"),
        ("/", "/agent/authenticatedExtendedCard"),
        ("/api/a2a", "/api/agent/authenticatedExtendedCard"),
    ] {
        let server = start(service(rpc_path)).await;
        let (status, body) =
            get(server.addr, card_path, &[("authorization", "Bearer alice")]).await;
        assert_eq!(status, StatusCode::OK, "{card_path}: {body}");
        let document: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(document["description"], "Forecasts, with the paid skills");
        let legacy: a2a_types::v0_3::AgentCard = serde_json::from_str(&body).unwrap();
        assert_eq!(legacy.url, format!("https://weather.example{rpc_path}"));

        let (status, body) = get(server.addr, card_path, &[]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    }
    // Without an extended card configured: the refusal, as a google.rpc.Status.
    let plain = A2aService::builder(scripted_agent(Arc::new(Semaphore::new(1))), card())
        .public_url("https://weather.example")
        .build();
    let server = start(plain).await;
    let (status, body) = get(server.addr, "/agent/authenticatedExtendedCard", &[]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["error"]["details"][0]["reason"],
        "EXTENDED_AGENT_CARD_NOT_CONFIGURED"
    );
}
