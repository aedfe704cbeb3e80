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

/// The served versions as a choice: with 1.0 alone, a pure 1.0 card and -32009 (HTTP 400 on
/// REST) for every older method and route; with 1.0 and 0.3, the 0.3 fields but not 0.1's.
#[tokio::test]
async fn served_versions_are_a_choice() {
    use a2a_server::card::Versions;
    use common::rpc_with;

    let plain = || {
        let mut card = card();
        card.security_schemes.clear();
        card.security_requirements.clear();
        card.capabilities.extended_agent_card = None;
        card
    };
    let only_1_0 = A2aService::builder(scripted_agent(Arc::new(Semaphore::new(10))), plain())
        .public_url("https://weather.example")
        .versions(Versions::v1_only())
        .build();
    let server = start(only_1_0).await;
    let (status, body) = get(server.addr, "/.well-known/agent-card.json", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({
            "name": "Weather",
            "description": "Forecasts",
            "supportedInterfaces": [
                {"url": "https://weather.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": "https://weather.example", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
            ],
            "version": "2.1.0",
            "capabilities": {"streaming": true},
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [{"id": "forecast", "name": "Forecast", "description": "Tells the weather", "tags": ["weather"]}]
        })
    );
    // 0.3's message/send (without a header, and with 0.3), 0.1's tasks/send, and the methods
    // 0.3 and 0.1 share: the version error, naming what is served.
    let refusal = |method: &str, version: &str| {
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32009, "message": format!(
            "{method} is a method of A2A {version}, which this endpoint does not serve; it \
             serves A2A 1.0 (send `A2A-Version: 1.0` with the 1.0 method names)"),
            "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "domain": "a2a-protocol.org", "reason": "VERSION_NOT_SUPPORTED"}]}})
    };
    let v0_3_send = r#"{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"}]}}}"#;
    for headers in [&[][..], &[("A2A-Version", "0.3")][..]] {
        let (status, _, body) = rpc_with(server.addr, v0_3_send, headers).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            refusal("message/send", "0.2/0.3")
        );
    }
    let v0_1_send = r#"{"jsonrpc":"2.0","id":1,"method":"tasks/send","params":{"id":"t-1","message":{"role":"user","parts":[{"type":"text","text":"hi"}]}}}"#;
    // 0.1 peers read the version error in 0.1's codes (-32600, the reason in `data`).
    let (_, _, body) = rpc_with(server.addr, v0_1_send, &[]).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message":
            "tasks/send is a method of A2A 0.1, which this endpoint does not serve; it serves \
             A2A 1.0 (send `A2A-Version: 1.0` with the 1.0 method names)",
            "data": {"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "domain": "a2a-protocol.org", "reason": "VERSION_NOT_SUPPORTED"}}})
    );
    let (_, _, body) = rpc_with(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t-1"}}"#,
        &[],
    )
    .await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        refusal("tasks/get", "0.2/0.3")
    );
    // The 1.0 method still answers.
    let (_, _, body) = rpc_with(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t-1"}}"#,
        &[("A2A-Version", "1.0")],
    )
    .await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["error"]["code"],
        -32001
    );
    // REST 0.3 under /v1 (no A2A-Version): a 1.0 route of tenant `v1`, refused for its version.
    let request = http::Request::post("/v1/message:send")
        .header("host", "t")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from_static(
            br#"{"message":{"messageId":"m","role":"user","parts":[{"text":"hi"}]}}"#,
        )))
        .unwrap();
    let response = send(server.addr, request).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap()["error"]["details"][0]["reason"],
        "VERSION_NOT_SUPPORTED"
    );
    // The 0.2 extended card is not served beside the endpoint.
    let (status, _) = get(server.addr, "/agent/authenticatedExtendedCard", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // 1.0 and 0.3: the 0.3 fields, not 0.1's; 0.1's methods refused.
    let with_0_3 = A2aService::builder(scripted_agent(Arc::new(Semaphore::new(10))), plain())
        .public_url("https://weather.example")
        .versions(Versions::parse(["1.0", "0.3"]).unwrap())
        .build();
    let server = start(with_0_3).await;
    let (_, body) = get(server.addr, "/.well-known/agent-card.json", &[]).await;
    let document: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(document["protocolVersion"], "0.3.0");
    assert_eq!(document["supportedInterfaces"].as_array().unwrap().len(), 4);
    assert_eq!(document.get("authentication"), None);
    let (_, _, body) = rpc_with(server.addr, v0_1_send, &[]).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message":
            "tasks/send is a method of A2A 0.1, which this endpoint does not serve; it serves \
             A2A 1.0, 0.3 (send `A2A-Version: 1.0` with the 1.0 method names)",
            "data": {"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "domain": "a2a-protocol.org", "reason": "VERSION_NOT_SUPPORTED"}}})
    );
}

/// The A2A 1.1 draft is served only when chosen: its interfaces come after the 1.0 ones (a
/// 1.0 client keeps picking 1.0), the older versions after them.
#[tokio::test]
async fn the_1_1_draft_is_opt_in() {
    use a2a_server::card::Versions;

    let with_1_1 = A2aService::builder(scripted_agent(Arc::new(Semaphore::new(10))), card())
        .public_url("https://weather.example")
        .versions(Versions::parse(["1.0", "1.1"]).unwrap())
        .build();
    let server = start(with_1_1).await;
    let (_, body) = get(server.addr, "/.well-known/agent-card.json", &[]).await;
    let document: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        document["supportedInterfaces"],
        json!([
            {"url": "https://weather.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "https://weather.example", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            {"url": "https://weather.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.1"},
            {"url": "https://weather.example", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.1"}
        ])
    );
    assert_eq!(document.get("protocolVersion"), None);

    // A 1.1 caller reads the generations: 1 at creation, +1 per event (working, the artifact,
    // completed); a 1.0 caller the same task without them, as 1.0 writes it.
    let send = r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"echo me"}]}}}"#;
    let (_, _, body) = common::rpc_with(server.addr, send, &[("A2A-Version", "1.1")]).await;
    let sent: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(sent["result"]["task"]["generation"], "4", "{body}");
    assert_eq!(
        sent["result"]["task"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    let id = sent["result"]["task"]["id"].as_str().unwrap().to_owned();
    let get_task = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{{"id":"{id}","historyLength":0,"currentGeneration":"1"}}}}"#
    );
    let (_, _, v1_1) = common::rpc_with(server.addr, &get_task, &[("A2A-Version", "1.1")]).await;
    let (_, _, v1_0) = common::rpc_with(server.addr, &get_task, &[("A2A-Version", "1.0")]).await;
    let v1_1: Value = serde_json::from_str(&v1_1).unwrap();
    let mut v1_0: Value = serde_json::from_str(&v1_0).unwrap();
    assert_eq!(v1_1["result"]["generation"], "4");
    assert_eq!(v1_0["result"].get("generation"), None, "{v1_0}");
    v1_0["result"]["generation"] = json!("4");
    assert_eq!(v1_0, v1_1, "the same task, but for the generation");

    // The default serves no 1.1 interface.
    let (_, body) = get(
        start(service("/")).await.addr,
        "/.well-known/agent-card.json",
        &[],
    )
    .await;
    assert!(!body.contains("\"1.1\""), "{body}");
}

/// Long-poll `GetTask` (A2A 1.1 `currentGeneration`): at once when the task is past it; held
/// until the task changes (a cancel, here); answered as it is on the timeout; and bounded.
#[tokio::test]
async fn long_polls_wait_for_a_change_time_out_and_are_bounded() {
    use a2a_server::HandlerConfig;
    use a2a_server::card::Versions;
    use common::rpc_with;

    let v1_1 = [("A2A-Version", "1.1")];
    let serve = |config: HandlerConfig| {
        let service = A2aService::builder(scripted_agent(Arc::new(Semaphore::new(10))), card())
            .versions(Versions::all().with_v1_1())
            .handler_config(config)
            .build();
        start(service)
    };
    let call = |addr, body: String| async move {
        let (status, _, body) = rpc_with(addr, &body, &v1_1).await;
        (status, serde_json::from_str::<Value>(&body).unwrap())
    };
    let get = |id: &str, seen: i64| {
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{{"id":"{id}","historyLength":0,"currentGeneration":"{seen}"}}}}"#
        )
    };
    let wait = r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"wait"}]},"configuration":{"returnImmediately":true}}}"#;

    let server = serve(HandlerConfig::default().with_max_long_polls(1)).await;
    let addr = server.addr;
    let (_, sent) = call(addr, wait.to_owned()).await;
    let id = sent["result"]["task"]["id"].as_str().unwrap().to_owned();
    // The task is at generation 2 (created, working) once its agent runs.
    let mut at = 0;
    while at < 2 {
        let (_, got) = call(addr, get(&id, 0)).await;
        at = got["result"]["generation"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
    }
    assert_eq!(at, 2);
    // Past the generation asked: at once.
    let (_, got) = call(addr, get(&id, 1)).await;
    assert_eq!(got["result"]["generation"], "2");
    // Two polls at generation 2 with room for one: one is held, the other refused.
    let first = tokio::spawn(call(addr, get(&id, 2)));
    let second = tokio::spawn(call(addr, get(&id, 2)));
    let (done, held) = match futures_util::future::select(first, second).await {
        futures_util::future::Either::Left(pair) | futures_util::future::Either::Right(pair) => {
            pair
        }
    };
    let (status, refused) = done.unwrap();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused["error"]["code"], -32603);
    assert_eq!(
        refused["error"]["message"],
        "the server holds 1 long polls already (max_long_polls); poll again later"
    );
    // The held poll answers once the task changes: canceled, generation 3.
    let cancel =
        format!(r#"{{"jsonrpc":"2.0","id":3,"method":"CancelTask","params":{{"id":"{id}"}}}}"#);
    let (_, canceled) = call(addr, cancel).await;
    assert_eq!(canceled["result"]["status"]["state"], "TASK_STATE_CANCELED");
    let (status, woken) = held.await.unwrap();
    assert_eq!(status, StatusCode::OK);
    assert_eq!(woken["result"]["generation"], "3");
    assert_eq!(woken["result"]["status"]["state"], "TASK_STATE_CANCELED");

    // On the timeout: the task as it is.
    let server = serve(
        HandlerConfig::default().with_long_poll_timeout(std::time::Duration::from_millis(50)),
    )
    .await;
    let (_, sent) = call(server.addr, wait.to_owned()).await;
    let id = sent["result"]["task"]["id"].as_str().unwrap().to_owned();
    let (_, got) = call(server.addr, get(&id, 99)).await;
    assert_eq!(got["result"]["id"], id.as_str());
    assert_eq!(got["result"]["status"]["state"], "TASK_STATE_WORKING");
}

/// A2A 1.1 `ifGenerationMatch`: a follow-up expecting another generation is refused with
/// `TaskGenerationMismatchError` (-32010; HTTP 409 `ABORTED` on REST) naming both, and changes
/// nothing; one expecting the task's generation goes on; a 1.0 caller's is ignored.
#[tokio::test]
async fn if_generation_match_refuses_a_stale_follow_up() {
    use a2a_server::card::Versions;
    use common::rpc_with;

    let service = A2aService::builder(scripted_agent(Arc::new(Semaphore::new(10))), card())
        .versions(Versions::all().with_v1_1())
        .build();
    let server = start(service).await;
    let v1_1 = [("A2A-Version", "1.1")];
    let ask = r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"ask"}]}}}"#;
    let (_, _, body) = rpc_with(server.addr, ask, &v1_1).await;
    let asked: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        asked["result"]["task"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    assert_eq!(asked["result"]["task"]["generation"], "2");
    let id = asked["result"]["task"]["id"].as_str().unwrap().to_owned();
    let follow_up = |expected: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{{"message":{{"messageId":"m-{expected}","taskId":"{id}","role":"ROLE_USER","parts":[{{"text":"Paris"}}]}},"configuration":{{"ifGenerationMatch":"{expected}","returnImmediately":true}}}}}}"#
        )
    };
    let (status, _, body) = rpc_with(server.addr, &follow_up("1"), &v1_1).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32010,
            "message": "Task generation mismatch: expected 1 but current generation is 2",
            "data": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_GENERATION_MISMATCH", "domain": "a2a-protocol.org",
                "metadata": {"taskId": id, "expectedGeneration": "1", "currentGeneration": "2"}}]}})
    );
    // REST: 409, google.rpc.Status ABORTED.
    let body = follow_up("7");
    let params = serde_json::from_str::<Value>(&body).unwrap()["params"].to_string();
    let request = http::Request::post("/message:send")
        .header("host", "t")
        .header("content-type", "application/json")
        .header("A2A-Version", "1.1")
        .body(Full::new(Bytes::from(params.clone())))
        .unwrap();
    let response = send(server.addr, request).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let rest: Value =
        serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(rest["error"]["code"], 409);
    assert_eq!(rest["error"]["status"], "ABORTED");
    assert_eq!(
        rest["error"]["details"][0]["metadata"]["currentGeneration"],
        "2"
    );
    // Nothing changed: the history has the first message only.
    let get = format!(r#"{{"jsonrpc":"2.0","id":3,"method":"GetTask","params":{{"id":"{id}"}}}}"#);
    let (_, _, body) = rpc_with(server.addr, &get, &v1_1).await;
    let task: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(task["result"]["generation"], "2");
    assert_eq!(
        task["result"]["history"].as_array().unwrap().len(),
        2,
        "{task}"
    );
    // A 1.0 caller's ifGenerationMatch is not 1.0's: ignored (the follow-up goes on).
    let (_, _, body) = rpc_with(server.addr, &follow_up("1"), &[("A2A-Version", "1.0")]).await;
    let went_on: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(went_on["result"]["task"]["id"], id.as_str(), "{went_on}");
}
