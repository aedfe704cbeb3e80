//! Push delivery over sockets: a real agent on 127.0.0.1 and real webhook receivers beside it.
//! Every event kind in order with its headers; retries; a receiver that hangs; the SSRF guard at
//! creation and at delivery; signed deliveries checked with the client's verifier; the body
//! shape of a config registered through 0.3; the bounds.
//!
//! Waits have a deadline only as a guard against a hang (the test then fails): no test asserts
//! how long anything took.

#![cfg(feature = "push")]

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use a2a_client::push::{PushReceiver, Verifier, VerifyError};
use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_server::handler::CallContext;
use a2a_server::push::{Algorithm, PushSettings, RetryPolicy, SigningKey};
use a2a_server::store::{DeliveryState, InMemoryTaskStore, OutboxLimits, PushStatus};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{
    AgentCapabilities, AgentCard, Artifact, Part, TaskId, TaskPushNotificationConfig,
};
use bytes::Bytes;
use common::{TestServer, normalized, rpc, rpc_with, start};
use http::{HeaderMap, Request, Response, StatusCode};
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::TokioIo;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// The longest any wait of these tests may take before the test fails (a guard, not a
/// measurement).
const DEADLINE: Duration = Duration::from_secs(30);

/// What a receiver answers to its `n`th request (from 0).
#[derive(Clone, Copy, Debug)]
enum Answer {
    Status(u16),
    /// Never answers.
    Hang,
}

/// One delivery as a receiver got it.
#[derive(Debug)]
struct Received {
    headers: HeaderMap,
    body: Bytes,
}

impl Received {
    fn json(&self) -> Value {
        normalized(std::str::from_utf8(&self.body).unwrap())
    }
}

/// A webhook on 127.0.0.1: reports each request, answers as its script says.
struct Receiver {
    addr: SocketAddr,
    got: mpsc::UnboundedReceiver<Received>,
}

impl Receiver {
    async fn start(script: impl Fn(usize) -> Answer + Send + Sync + 'static) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, got) = mpsc::unbounded_channel();
        let script = Arc::new(script);
        let count = Arc::new(AtomicUsize::new(0));
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (tx, script, count) = (tx.clone(), script.clone(), count.clone());
                let service =
                    hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                        let (tx, script, count) = (tx.clone(), script.clone(), count.clone());
                        async move {
                            let (head, body) = request.into_parts();
                            let body = body.collect().await.unwrap().to_bytes();
                            let n = count.fetch_add(1, Ordering::SeqCst);
                            let _ = tx.send(Received {
                                headers: head.headers,
                                body,
                            });
                            match script(n) {
                                Answer::Status(status) => Ok::<_, std::convert::Infallible>(
                                    Response::builder()
                                        .status(status)
                                        .body(Full::new(Bytes::from_static(b"")))
                                        .unwrap(),
                                ),
                                Answer::Hang => std::future::pending().await,
                            }
                        }
                    });
                tokio::spawn(async move {
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Self { addr, got }
    }

    /// Answers 200 to everything.
    async fn ok() -> Self {
        Self::start(|_| Answer::Status(200)).await
    }

    fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    async fn next(&mut self) -> Received {
        tokio::time::timeout(DEADLINE, self.got.recv())
            .await
            .expect("a delivery within the deadline")
            .expect("the receiver runs")
    }

    async fn take(&mut self, n: usize) -> Vec<Received> {
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(self.next().await);
        }
        out
    }
}

fn card() -> AgentCard {
    AgentCard::new("Pusher", "Pushes", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
}

/// Push settings that let receivers on 127.0.0.1 be called, and retry fast.
fn local() -> PushSettings {
    PushSettings::default()
        .allow("127.0.0.1".parse().unwrap())
        .with_retry(
            RetryPolicy::default()
                .with_initial_backoff(Duration::from_millis(10))
                .with_max_backoff(Duration::from_millis(50)),
        )
}

/// An agent that works, streams an artifact in two chunks, and completes; or, for `ask`, asks
/// for input (and completes the follow-up).
fn service(settings: PushSettings) -> A2aService {
    service_with(settings, InMemoryTaskStore::new())
}

fn service_with(settings: PushSettings, store: InMemoryTaskStore) -> A2aService {
    let agent = agent_fn(|ctx, sink| async move {
        if ctx.text() == "ask" && ctx.task.is_none() {
            sink.input_required("which city?").await?;
            return Ok(());
        }
        sink.working(None).await?;
        sink.artifact_chunk(Artifact::new("out", vec![Part::text("a")]), false, false)
            .await?;
        sink.artifact_chunk(Artifact::new("out", vec![Part::text("b")]), true, true)
            .await?;
        sink.complete(None).await?;
        Ok(())
    });
    A2aService::builder(agent, card())
        .store(store)
        .push(settings)
        .build()
}

fn send(text: &str, config: Option<Value>) -> String {
    let mut params =
        json!({"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": text}]}});
    if let Some(config) = config {
        params["configuration"] = json!({ "taskPushNotificationConfig": config });
    }
    json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": params}).to_string()
}

/// Sends `text` (blocking) and returns the task's id.
async fn run(server: &TestServer, text: &str, config: Option<Value>) -> String {
    let (status, _, body) = rpc(server.addr, &send(text, config)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    answer["result"]["task"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {body}"))
        .to_owned()
}

/// Sends a follow-up `text` to the task (blocking) and checks that it was taken.
async fn follow_up(server: &TestServer, task_id: &str, text: &str) {
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "SendMessage", "params": {
        "message": {"messageId": "m-2", "taskId": task_id, "role": "ROLE_USER", "parts": [{"text": text}]}}});
    let (status, _, answer) = rpc(server.addr, &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer.contains(r#""result":{"task""#), "{answer}");
}

/// Creates a push config through JSON-RPC; returns the answer (result or error).
async fn create_config(server: &TestServer, task_id: &str, config: Value) -> Value {
    let mut params = config;
    params["taskId"] = json!(task_id);
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "CreateTaskPushNotificationConfig", "params": params});
    let (_, _, answer) = rpc(server.addr, &body.to_string()).await;
    serde_json::from_str(&answer).unwrap()
}

/// The push status of a task once `done` holds for it (polled; the deadline fails the test).
async fn status_when(
    service: &A2aService,
    task_id: &str,
    done: impl Fn(&[PushStatus]) -> bool,
) -> Vec<PushStatus> {
    let id = TaskId::from(task_id);
    let wait = async {
        loop {
            let status = service
                .handler()
                .push_status(&id, &CallContext::new())
                .await
                .unwrap();
            if done(&status) {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(DEADLINE, wait)
        .await
        .expect("the push status within the deadline")
}

/// The five events of the agent's run, as 1.0 push bodies.
fn five_events() -> Vec<Value> {
    vec![
        json!({"task": {"id": "<uuid>", "contextId": "<uuid>",
            "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": "<timestamp>"},
            "history": [{"messageId": "m-1", "contextId": "<uuid>", "taskId": "<uuid>",
                "role": "ROLE_USER", "parts": [{"text": "go"}]}]}}),
        json!({"statusUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
            "status": {"state": "TASK_STATE_WORKING", "timestamp": "<timestamp>"}}}),
        json!({"artifactUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
            "artifact": {"artifactId": "out", "parts": [{"text": "a"}]}}}),
        json!({"artifactUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
            "artifact": {"artifactId": "out", "parts": [{"text": "b"}]}, "append": true, "lastChunk": true}}),
        json!({"statusUpdate": {"taskId": "<uuid>", "contextId": "<uuid>",
            "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "<timestamp>"}}}),
    ]
}

#[tokio::test]
async fn every_event_kind_arrives_in_order_with_its_headers() {
    let mut hook = Receiver::ok().await;
    let service = service(local());
    let server = start(service.clone()).await;
    let config = json!({"url": hook.url(), "token": "tok-1",
        "authentication": {"scheme": "Bearer", "credentials": "cred-1"}});
    let task_id = run(&server, "go", Some(config)).await;
    let got = hook.take(5).await;
    assert_eq!(
        got.iter().map(Received::json).collect::<Vec<_>>(),
        five_events()
    );
    for delivery in &got {
        let h = &delivery.headers;
        assert_eq!(h["content-type"], "application/a2a+json");
        assert_eq!(h["authorization"], "Bearer cred-1");
        assert_eq!(h["x-a2a-notification-token"], "tok-1");
        assert!(h.get("a2a-notification-signature").is_none());
    }
    // Every body names this task.
    let first: Value = serde_json::from_slice(&got[0].body).unwrap();
    assert_eq!(first["task"]["id"], task_id.as_str());
    let status = status_when(&service, &task_id, |s| s[0].delivered == 5).await;
    assert_eq!((status[0].dropped, status[0].deliveries.len()), (0, 0));
}

#[tokio::test]
async fn a_config_created_later_gets_the_events_after_it() {
    let mut hook = Receiver::ok().await;
    let service = service(local());
    let server = start(service.clone()).await;
    // Waits for input: no event after this until the follow-up.
    let task_id = run(&server, "ask", None).await;
    let created = create_config(&server, &task_id, json!({"id": "c-1", "url": hook.url()})).await;
    assert_eq!(
        created["result"],
        json!({"id": "c-1", "taskId": task_id, "url": hook.url()})
    );
    follow_up(&server, &task_id, "Paris").await;
    let states: Vec<Value> = hook
        .take(4)
        .await
        .iter()
        .map(|r| r.json()["statusUpdate"]["status"]["state"].clone())
        .collect();
    assert_eq!(
        states,
        [
            json!("TASK_STATE_WORKING"),
            Value::Null,
            Value::Null,
            json!("TASK_STATE_COMPLETED")
        ]
    );
}

#[tokio::test]
async fn a_failing_receiver_is_retried_until_it_accepts() {
    // 503 twice, then 200.
    let mut hook = Receiver::start(|n| Answer::Status(if n < 2 { 503 } else { 200 })).await;
    let service = service(local());
    let server = start(service.clone()).await;
    let task_id = run(&server, "go", Some(json!({"url": hook.url()}))).await;
    let got = hook.take(7).await;
    // The first event three times, the same bytes each time; then each of the others once.
    assert_eq!(got[0].body, got[1].body);
    assert_eq!(got[1].body, got[2].body);
    assert_eq!(
        got[2..].iter().map(Received::json).collect::<Vec<_>>(),
        five_events()
    );
    let status = status_when(&service, &task_id, |s| s[0].delivered == 5).await;
    assert_eq!((status[0].dropped, status[0].deliveries.len()), (0, 0));
    assert_eq!(
        status[0].last_error.as_deref(),
        Some("the webhook answered 503 Service Unavailable")
    );
}

#[tokio::test]
async fn a_refusing_receiver_kills_the_delivery_and_the_next_event_goes_on() {
    // 404 to the first request (dead at once, no retry), 200 after.
    let mut hook = Receiver::start(|n| Answer::Status(if n == 0 { 404 } else { 200 })).await;
    let service = service(local());
    let server = start(service.clone()).await;
    let task_id = run(&server, "go", Some(json!({"url": hook.url()}))).await;
    let got = hook.take(5).await;
    assert_eq!(
        got.iter().map(Received::json).collect::<Vec<_>>(),
        five_events()
    );
    let status = status_when(&service, &task_id, |s| s[0].delivered == 4).await;
    let dead = &status[0].deliveries;
    assert_eq!(dead.len(), 1);
    assert_eq!(
        (dead[0].seq, dead[0].state, dead[0].attempts),
        (1, DeliveryState::Dead, 1)
    );
    assert_eq!(
        dead[0].last_error.as_deref(),
        Some("the webhook answered 404 Not Found")
    );
}

#[tokio::test]
async fn a_hanging_receiver_delays_nobody_else() {
    let mut stuck = Receiver::start(|_| Answer::Hang).await;
    let mut good = Receiver::ok().await;
    // A timeout far longer than this test may take: only the good receiver can end it.
    let service = service(local().with_timeout(Duration::from_secs(3600)));
    let server = start(service.clone()).await;
    let task_id = run(
        &server,
        "ask",
        Some(json!({"id": "stuck", "url": stuck.url()})),
    )
    .await;
    let created = create_config(&server, &task_id, json!({"id": "good", "url": good.url()})).await;
    assert_eq!(created["result"]["id"], "good");
    // The stuck receiver holds the task's first event ...
    let first = stuck.next().await;
    assert_eq!(
        first.json()["task"]["status"]["state"],
        "TASK_STATE_SUBMITTED"
    );
    // ... while the other config gets every event of the follow-up.
    follow_up(&server, &task_id, "go").await;
    let got = good.take(4).await;
    assert_eq!(
        got.last().unwrap().json()["statusUpdate"]["status"]["state"],
        "TASK_STATE_COMPLETED"
    );
    let status = service
        .handler()
        .push_status(&TaskId::from(task_id.as_str()), &CallContext::new())
        .await
        .unwrap();
    // The stuck config's deliveries wait in order behind the one in flight.
    assert_eq!(status[0].config_id, "stuck");
    let states: Vec<_> = status[0].deliveries.iter().map(|d| d.state).collect();
    assert_eq!(states[0], DeliveryState::InFlight);
    assert!(states[1..].iter().all(|s| *s == DeliveryState::Pending));
    assert!(
        stuck.got.try_recv().is_err(),
        "one request at a time per config"
    );
}

#[tokio::test]
async fn a_receiver_that_does_not_answer_in_time_fails_the_attempt() {
    let mut stuck = Receiver::start(|_| Answer::Hang).await;
    let settings = local()
        .with_timeout(Duration::from_millis(100))
        .with_retry(RetryPolicy::default().with_max_attempts(1));
    let service = service(settings);
    let server = start(service.clone()).await;
    let task_id = run(&server, "ask", Some(json!({"url": stuck.url()}))).await;
    stuck.next().await;
    let status = status_when(&service, &task_id, |s| {
        s[0].deliveries
            .first()
            .is_some_and(|d| d.state == DeliveryState::Dead)
    })
    .await;
    assert_eq!(
        status[0].deliveries[0].last_error.as_deref(),
        Some("gave up after 1 attempt: the webhook did not answer within 100 ms")
    );
}

/// The error of a JSON-RPC answer: (code, message).
fn error_of(answer: &Value) -> (i64, String) {
    (
        answer["error"]["code"].as_i64().unwrap_or_default(),
        answer["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

#[tokio::test]
async fn the_ssrf_guard_refuses_each_address_class_at_creation() {
    let service = service(PushSettings::default());
    let server = start(service.clone()).await;
    let task_id = run(&server, "ask", None).await;
    let guard = |ip: &str, class: &str| {
        format!(
            "{ip} is a {class} address, which the SSRF guard refuses (allow it with \
             PushSettings::allow)"
        )
    };
    for (url, why) in [
        ("http://127.0.0.1:9/hook", guard("127.0.0.1", "loopback")),
        ("http://10.1.2.3/hook", guard("10.1.2.3", "private")),
        ("http://192.168.0.10/hook", guard("192.168.0.10", "private")),
        (
            "http://169.254.169.254/latest",
            guard("169.254.169.254", "link-local"),
        ),
        ("http://224.0.0.1/hook", guard("224.0.0.1", "multicast")),
        ("http://0.0.0.0/hook", guard("0.0.0.0", "unspecified")),
        ("http://[::1]/hook", guard("::1", "loopback")),
        ("http://[fd00::1]/hook", guard("fd00::1", "private")),
        ("http://[fe80::1]/hook", guard("fe80::1", "link-local")),
        ("http://[ff02::1]/hook", guard("ff02::1", "multicast")),
        ("http://[::]/hook", guard("::", "unspecified")),
        (
            "http://[::ffff:127.0.0.1]/hook",
            guard("::ffff:127.0.0.1", "loopback"),
        ),
        (
            "ftp://hook.example/x",
            "the scheme must be http or https, not ftp".to_owned(),
        ),
        (
            "http://user:pw@hook.example/x",
            "user info in the URL is not sent; give credentials in `authentication`".to_owned(),
        ),
    ] {
        let answer = create_config(&server, &task_id, json!({"url": url})).await;
        assert_eq!(
            error_of(&answer),
            (
                -32602,
                format!("invalid params: push config url `{url}` is refused: {why}")
            ),
            "{url}"
        );
    }
    // A name that resolves to loopback.
    let answer = create_config(&server, &task_id, json!({"url": "http://localhost:9/hook"})).await;
    let (code, message) = error_of(&answer);
    assert_eq!(code, -32602);
    assert!(
        message.starts_with(
            "invalid params: push config url `http://localhost:9/hook` is refused: `localhost` resolves to "
        ) && message.contains("is a loopback address, which the SSRF guard refuses"),
        "{message}"
    );
    // Nothing was stored.
    let list = json!({"jsonrpc": "2.0", "id": 4, "method": "ListTaskPushNotificationConfigs",
        "params": {"taskId": task_id}});
    let (_, _, body) = rpc(server.addr, &list.to_string()).await;
    assert_eq!(normalized(&body)["result"], json!({}));
    // SendMessage's config is checked the same way, before anything runs.
    let (_, _, body) = rpc(
        server.addr,
        &send("go", Some(json!({"url": "http://10.0.0.1/hook"}))),
    )
    .await;
    assert_eq!(
        error_of(&serde_json::from_str(&body).unwrap()),
        (
            -32602,
            format!(
                "invalid params: push config url `http://10.0.0.1/hook` is refused: {}",
                guard("10.0.0.1", "private")
            )
        )
    );
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused_at_delivery() {
    // Stored behind the creation check's back, as a name that resolved to a public address
    // then and resolves to loopback now (DNS rebinding) would be.
    let mut hook = Receiver::ok().await;
    let service = service(PushSettings::default());
    let server = start(service.clone()).await;
    let task_id = run(&server, "ask", None).await;
    let url = format!("http://localhost:{}/hook", hook.addr.port());
    let config = TaskPushNotificationConfig::new(url)
        .with_task_id(task_id.as_str())
        .with_id("rebound");
    service
        .handler()
        .store()
        .put_push_config(config, ProtocolVersion::V1)
        .await
        .unwrap();
    follow_up(&server, &task_id, "go").await;
    let status = status_when(&service, &task_id, |s| {
        s[0].deliveries.len() == 4
            && s[0]
                .deliveries
                .iter()
                .all(|d| d.state == DeliveryState::Dead)
    })
    .await;
    let error = status[0].deliveries[0].last_error.clone().unwrap();
    assert!(
        error.starts_with("`localhost` resolves to ")
            && error.contains("is a loopback address, which the SSRF guard refuses"),
        "{error}"
    );
    assert_eq!(
        status[0].deliveries[0].attempts, 1,
        "refused at once, no retry"
    );
    assert!(hook.got.try_recv().is_err(), "nothing reached the receiver");
}

#[tokio::test]
async fn signed_deliveries_verify_with_the_jwks_the_card_names() {
    let mut hook = Receiver::ok().await;
    let key = SigningKey::generate(Algorithm::EdDsa).unwrap();
    let kid = key.kid().to_owned();
    let service = service(local().sign_with(key));
    let server = start(service.clone()).await;
    let base = format!("http://{}", server.addr);
    let card = a2a_client::ClientBuilder::new()
        .fetch_card(&base)
        .await
        .unwrap();
    assert_eq!(card.capabilities.push_notifications, Some(true));
    let jwks_url = a2a_client::push::jwks_url(&card).unwrap().to_owned();
    assert_eq!(jwks_url, format!("{base}/.well-known/jwks.json"));
    let jwks = a2a_client::push::fetch_jwks(&jwks_url, DEADLINE)
        .await
        .unwrap();
    assert_eq!(jwks.keys.len(), 1);
    assert_eq!(jwks.keys[0].kid.as_deref(), Some(kid.as_str()));
    assert_eq!(jwks.keys[0].alg.as_deref(), Some("EdDSA"));

    let task_id = run(
        &server,
        "go",
        Some(json!({"url": hook.url(), "token": "t"})),
    )
    .await;
    let got = hook.take(5).await;
    let receiver = PushReceiver::new()
        .verify_with(Verifier::new(jwks.clone()).with_audience(hook.url()))
        .expect_token("t");
    for delivery in &got {
        let accepted = receiver.receive(&delivery.headers, &delivery.body).unwrap();
        let claims = accepted.claims.unwrap();
        assert_eq!(claims.task_id, task_id);
    }
    let one = &got[0];
    // A replayed delivery.
    assert!(matches!(
        receiver.receive(&one.headers, &one.body),
        Err(a2a_client::push::ReceiveError::Verify(
            VerifyError::Replayed { .. }
        ))
    ));
    let fresh = || Verifier::new(jwks.clone());
    // A changed body.
    let mut changed = one.body.to_vec();
    changed.push(b' ');
    assert_eq!(
        fresh().verify(&one.headers, &changed),
        Err(VerifyError::BodyChanged)
    );
    // An old one: checked ten minutes later.
    let later = std::time::SystemTime::now() + Duration::from_secs(600);
    assert!(matches!(
        fresh().verify_at(&one.headers, &one.body, later),
        Err(VerifyError::TooOld { .. })
    ));
    // Keys of another agent.
    let other = SigningKey::generate(Algorithm::EdDsa)
        .unwrap()
        .with_kid("other");
    let stranger = Verifier::new(a2a_client::push::Jwks::new(vec![other.public_jwk()]));
    assert_eq!(
        stranger
            .verify(&one.headers, &one.body)
            .unwrap_err()
            .to_string(),
        format!("the delivery's signature is refused: unknown key: `{kid}` is not in the key set")
    );
}

#[tokio::test]
async fn without_signing_there_is_no_jwks_and_without_push_no_capability() {
    let server = start(service(local())).await;
    let (status, _, _) = get(server.addr, "/.well-known/jwks.json").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, _, card) = get(server.addr, "/.well-known/agent-card.json").await;
    let card: Value = serde_json::from_str(&card).unwrap();
    assert_eq!(
        card["capabilities"],
        json!({"streaming": true, "pushNotifications": true})
    );

    // A card that declares push notifications without delivery is corrected.
    let declared = card_declaring_push();
    let agent = agent_fn(|_ctx, sink| async move { Ok(sink.complete(None).await?) });
    let plain = A2aService::builder(agent, declared).build();
    assert_eq!(plain.card().capabilities.push_notifications, Some(false));
    let server = start(plain).await;
    let task_id = run(&server, "go", None).await;
    let answer = create_config(&server, &task_id, json!({"url": "https://hook.example/a"})).await;
    assert_eq!(
        error_of(&answer),
        (
            -32003,
            "push notifications are not supported by this agent".to_owned()
        )
    );
}

fn card_declaring_push() -> AgentCard {
    AgentCard::new("Liar", "Declares push", "1.0.0").with_capabilities(
        AgentCapabilities::default()
            .with_streaming(true)
            .with_push_notifications(true),
    )
}

async fn get(addr: SocketAddr, path: &str) -> (StatusCode, HeaderMap, String) {
    let request = Request::get(path)
        .header("host", "test")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let (head, body) = common::send(addr, request).await.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    (
        head.status,
        head.headers,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

#[tokio::test]
async fn a_config_registered_through_0_3_gets_0_3_bodies() {
    let mut hook = Receiver::ok().await;
    let service = service(local());
    let server = start(service.clone()).await;
    let task_id = run(&server, "ask", None).await;
    // What the 0.3 binding does: the same operation, its call speaking 0.3.
    let call = CallContext::new().with_protocol_version(ProtocolVersion::V0_3);
    service
        .handler()
        .create_push_config(
            TaskPushNotificationConfig::new(hook.url()).with_task_id(task_id.as_str()),
            &call,
        )
        .await
        .unwrap();
    follow_up(&server, &task_id, "go").await;
    let got = hook.take(4).await;
    assert_eq!(got[0].headers["content-type"], "application/json");
    assert_eq!(
        got.iter().map(Received::json).collect::<Vec<_>>(),
        [
            json!({"kind": "status-update", "taskId": "<uuid>", "contextId": "<uuid>",
                "status": {"state": "working", "timestamp": "<timestamp>"}, "final": false}),
            json!({"kind": "artifact-update", "taskId": "<uuid>", "contextId": "<uuid>",
                "artifact": {"artifactId": "out", "parts": [{"kind": "text", "text": "a"}]}}),
            json!({"kind": "artifact-update", "taskId": "<uuid>", "contextId": "<uuid>",
                "artifact": {"artifactId": "out", "parts": [{"kind": "text", "text": "b"}]},
                "append": true, "lastChunk": true}),
            json!({"kind": "status-update", "taskId": "<uuid>", "contextId": "<uuid>",
                "status": {"state": "completed", "timestamp": "<timestamp>"}, "final": true}),
        ]
    );
}

#[tokio::test]
async fn configs_per_task_and_url_lengths_are_bounded() {
    let service = service(local().with_max_configs_per_task(2).with_max_url_len(64));
    let server = start(service.clone()).await;
    let task_id = run(&server, "ask", None).await;
    for id in ["a", "b"] {
        let answer = create_config(
            &server,
            &task_id,
            json!({"id": id, "url": "http://127.0.0.1:9/h"}),
        )
        .await;
        assert_eq!(answer["result"]["id"], id);
    }
    // Replacing one is fine; a third is not.
    let answer = create_config(
        &server,
        &task_id,
        json!({"id": "b", "url": "http://127.0.0.1:9/i"}),
    )
    .await;
    assert_eq!(answer["result"]["url"], "http://127.0.0.1:9/i");
    let answer = create_config(
        &server,
        &task_id,
        json!({"id": "c", "url": "http://127.0.0.1:9/h"}),
    )
    .await;
    assert_eq!(
        error_of(&answer),
        (
            -32004,
            format!(
                "task {task_id} has 2 push configs, its limit (max_configs_per_task); delete one first"
            )
        )
    );
    let long = format!("http://127.0.0.1:9/{}", "x".repeat(60));
    let answer = create_config(&server, &task_id, json!({"id": "a", "url": long})).await;
    assert_eq!(
        error_of(&answer),
        (
            -32602,
            "invalid params: push config url is 79 bytes long, more than the 64 bytes allowed (max_url_len)".to_owned()
        )
    );
    let answer = create_config(
        &server,
        &task_id,
        json!({"id": "a", "url": "http://127.0.0.1:9/h", "token": "bad\nline"}),
    )
    .await;
    assert_eq!(
        error_of(&answer),
        (
            -32602,
            "invalid params: push config token cannot be sent in an HTTP header (it holds a control character or non-ASCII text)".to_owned()
        )
    );
}

#[tokio::test]
async fn a_full_outbox_drops_events_and_says_so() {
    // One delivery waits per config at most; the receiver holds the first.
    let mut stuck = Receiver::start(|_| Answer::Hang).await;
    let store =
        InMemoryTaskStore::new().with_outbox_limits(OutboxLimits::default().with_max_per_config(1));
    let service = service_with(local().with_timeout(Duration::from_secs(3600)), store);
    let server = start(service.clone()).await;
    let task_id = run(&server, "go", Some(json!({"id": "c", "url": stuck.url()}))).await;
    stuck.next().await;
    // The task ran to its end regardless.
    let status = status_when(&service, &task_id, |s| s[0].dropped == 4).await;
    assert_eq!(status[0].deliveries.len(), 1);
    assert_eq!(
        status[0].last_error.as_deref(),
        Some(
            format!(
                "the outbox holds 1 deliveries for push config `c` of task {task_id}, its limit \
                 (max_per_config): event 5 was dropped"
            )
            .as_str()
        )
    );
}

#[tokio::test]
async fn deliveries_continue_the_trace_of_the_request() {
    let mut hook = Receiver::ok().await;
    let server = start(service(local())).await;
    let config = json!({"url": hook.url()});
    let caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let (status, _, body) = rpc_with(
        server.addr,
        &send("go", Some(config)),
        &[
            ("A2A-Version", "1.0"),
            ("traceparent", caller),
            ("tracestate", "rojo=00f067aa0ba902b7"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mut spans = Vec::new();
    for delivery in hook.take(5).await {
        let parent = delivery.headers["traceparent"].to_str().unwrap().to_owned();
        let fields: Vec<&str> = parent.split('-').collect();
        assert_eq!(
            (fields[0], fields[1], fields[3]),
            ("00", "4bf92f3577b34da6a3ce929d0e0e4736", "01"),
            "{parent}"
        );
        assert_ne!(
            fields[2], "00f067aa0ba902b7",
            "each delivery is a span of its own"
        );
        assert_eq!(delivery.headers["tracestate"], "rojo=00f067aa0ba902b7");
        spans.push(fields[2].to_owned());
    }
    spans.sort();
    spans.dedup();
    assert_eq!(spans.len(), 5, "a new span per delivery");
}
