//! A2A 1.1 (draft) task generations on the client: negotiated only when allowed and offered,
//! the fields on the wire of JSON-RPC and HTTP+JSON (asserted as sent), the long poll, the
//! `ifGenerationMatch` refusal typed, and the streams' gap check; against our own server where
//! it can show it, a scripted one where no correct server would (gaps, generation 0).

mod common;

use std::time::Duration;

use a2a_client::{A2aClient, Error, GenerationGap, TaskWait};
use a2a_server::A2aService;
use a2a_server::HandlerConfig;
use a2a_server::card::Versions;
use a2a_types::v1::{
    GetTaskRequest, Message, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, Task, TaskState,
};
use common::{Scripted, Seen, json, result, sse, start_with};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

/// The bindings, as `preferred_transports` names them.
const BINDINGS: [&str; 2] = ["JSONRPC", "HTTP+JSON"];

/// The test agent serving 1.0 and 1.1 (or 1.0 only), its long polls held at most `hold`.
async fn agent(v1_1: bool, hold: Duration) -> common::TestServer {
    start_with(move |url| {
        let versions = if v1_1 {
            Versions::v1_only().with_v1_1()
        } else {
            Versions::v1_only()
        };
        A2aService::builder(agent_fn(), common::card())
            .public_url(url)
            .versions(versions)
            .handler_config(HandlerConfig::default().with_long_poll_timeout(hold))
            .build()
    })
    .await
}

/// The common test agent's behaviour: `ask` asks for input (generation 2), anything else
/// works, answers with an artifact and completes.
fn agent_fn() -> impl a2a_server::agent::Agent {
    a2a_server::agent::agent_fn(|ctx, sink| async move {
        let text = ctx.text();
        if text == "ask" && ctx.task.is_none() {
            sink.input_required("which city?").await?;
        } else {
            sink.working(None).await?;
            sink.artifact(a2a_types::v1::Artifact::new(
                "echo",
                vec![a2a_types::v1::Part::text(text.clone())],
            ))
            .await?;
            sink.complete(None).await?;
        }
        Ok(())
    })
}

async fn client(url: &str, binding: &str, v1_1: bool) -> A2aClient {
    A2aClient::builder()
        .preferred_transports([binding])
        .allow_v1_1(v1_1)
        .connect(url)
        .await
        .unwrap()
}

/// Sends `ask`: a task waiting for input, at generation 2.
async fn ask(client: &A2aClient) -> Task {
    let sent = client
        .send_message(SendMessageRequest::new(Message::user_text("ask")))
        .await
        .unwrap();
    let SendMessageResponse::Task(task) = sent else {
        panic!("{sent:?}")
    };
    task
}

#[tokio::test]
async fn one_point_one_is_spoken_only_when_allowed_and_offered() {
    let both = agent(true, Duration::from_secs(30)).await;
    let old = agent(false, Duration::from_secs(30)).await;
    for binding in BINDINGS {
        let default = client(&both.url(), binding, false).await;
        assert_eq!(
            (
                default.protocol_version(),
                default.interface().protocol_version.as_str()
            ),
            ("1.0", "1.0"),
            "{binding}"
        );
        assert!(!default.speaks_generations());
        let allowed = client(&both.url(), binding, true).await;
        assert_eq!(
            (
                allowed.protocol_version(),
                allowed.interface().protocol_version.as_str(),
                allowed.interface().protocol_binding.as_str()
            ),
            ("1.1", "1.1", binding)
        );
        assert!(allowed.speaks_generations());
        let not_offered = client(&old.url(), binding, true).await;
        assert_eq!(not_offered.protocol_version(), "1.0", "{binding}");
        assert!(!not_offered.speaks_generations());
        // `protocol_version("1.1")` is the opt-in too.
        let exact = A2aClient::builder()
            .preferred_transports([binding])
            .protocol_version("1.1")
            .connect(&both.url())
            .await
            .unwrap();
        assert_eq!(exact.protocol_version(), "1.1");

        // Generations come back over 1.1; over 1.0 the server leaves them out.
        assert_eq!(ask(&allowed).await.generation, 2, "{binding}");
        assert_eq!(ask(&default).await.generation, 0, "{binding}");
        assert_eq!(ask(&not_offered).await.generation, 0, "{binding}");
    }
}

#[tokio::test]
async fn if_generation_match_is_sent_and_a_mismatch_is_typed() {
    let server = agent(true, Duration::from_secs(30)).await;
    for binding in BINDINGS {
        let client = client(&server.url(), binding, true).await;
        let task = ask(&client).await;
        let follow_up = |expected: i64| {
            SendMessageRequest::new(Message::user_text("Paris").with_task_id(task.id.clone()))
                .with_configuration(
                    SendMessageConfiguration::default().with_if_generation_match(expected),
                )
        };
        let error = client.send_message(follow_up(1)).await.unwrap_err();
        let mismatch = error.generation_mismatch().expect("a mismatch");
        assert_eq!(
            (
                mismatch.task_id.as_str(),
                mismatch.expected,
                mismatch.current
            ),
            (task.id.as_str(), Some(1), Some(2)),
            "{binding}"
        );
        assert_eq!(
            error.to_string(),
            "the agent answered TaskGenerationMismatchError (-32010): Task generation mismatch: \
             expected 1 but current generation is 2",
            "{binding}"
        );
        if binding == "HTTP+JSON" {
            assert_eq!(error.http_status().map(|s| s.as_u16()), Some(409));
        }
        // The task's generation: the follow-up goes on.
        let sent = client.send_message(follow_up(2)).await.unwrap();
        let SendMessageResponse::Task(done) = sent else {
            panic!("{sent:?}")
        };
        assert_eq!(done.status.state, TaskState::Completed, "{binding}");
        assert!(done.generation > 2);

        // A client that speaks 1.0 refuses to send the check: it would be dropped.
        let plain = self::client(&server.url(), binding, false).await;
        let task = ask(&plain).await;
        let request = SendMessageRequest::new(Message::user_text("x").with_task_id(task.id))
            .with_configuration(SendMessageConfiguration::default().with_if_generation_match(2));
        // Also as a value.
        let as_value = plain
            .call(a2a_types::protocol::Request::from(request.clone()))
            .await
            .unwrap_err();
        assert!(
            matches!(as_value, Error::NoGenerations { .. }),
            "{as_value:?}"
        );
        let refused = plain.send_message(request).await.unwrap_err();
        assert!(
            matches!(refused, Error::NoGenerations { .. }),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            "ifGenerationMatch needs A2A 1.1 task generations, which this client does not use \
             with the agent (it speaks A2A 1.0); nothing was sent"
        );
        assert_eq!(refused.generation_mismatch(), None);
    }
}

#[tokio::test]
async fn wait_for_task_long_polls_past_a_generation() {
    let server = agent(true, Duration::from_secs(30)).await;
    for binding in BINDINGS {
        let client = client(&server.url(), binding, true).await;
        let task = ask(&client).await;
        let waiting = {
            let client = client.clone();
            let id = task.id.clone();
            tokio::spawn(async move {
                client
                    .wait_for_task(GetTaskRequest::new(id), 2, Duration::from_secs(60))
                    .await
            })
        };
        // Answer the question: the task moves past generation 2 (before or while the poll is
        // held; either way the poll answers with the change).
        client
            .send_message(SendMessageRequest::new(
                Message::user_text("Paris").with_task_id(task.id.clone()),
            ))
            .await
            .unwrap();
        let waited = waiting.await.unwrap().unwrap();
        let TaskWait::Changed(changed) = &waited else {
            panic!("{waited:?}")
        };
        assert!(changed.generation > 2, "{binding}: {changed:?}");
        // Already past: at once.
        let at_once = client
            .wait_for_task(
                GetTaskRequest::new(task.id.clone()),
                1,
                Duration::from_secs(60),
            )
            .await
            .unwrap();
        assert!(matches!(at_once, TaskWait::Changed(_)), "{at_once:?}");
    }
}

#[tokio::test]
async fn wait_for_task_ends_at_its_deadline_and_falls_back_without_1_1() {
    // The server holds a poll 50 ms; the client asks again until its deadline.
    let server = agent(true, Duration::from_millis(50)).await;
    for binding in BINDINGS {
        let client = client(&server.url(), binding, true).await;
        let task = ask(&client).await;
        let waited = client
            .wait_for_task(
                GetTaskRequest::new(task.id.clone()),
                2,
                Duration::from_millis(300),
            )
            .await
            .unwrap();
        let TaskWait::Unchanged(same) = &waited else {
            panic!("{waited:?}")
        };
        assert_eq!(
            (same.generation, same.status.state),
            (2, TaskState::InputRequired)
        );

        let plain = self::client(&server.url(), binding, false).await;
        let waited = plain
            .wait_for_task(
                GetTaskRequest::new(task.id.clone()),
                2,
                Duration::from_secs(60),
            )
            .await
            .unwrap();
        let TaskWait::Unsupported(now) = &waited else {
            panic!("{waited:?}")
        };
        assert_eq!(now.status.state, TaskState::InputRequired, "{binding}");
    }
}

#[tokio::test]
async fn streams_check_generations_in_order() {
    let server = agent(true, Duration::from_secs(30)).await;
    for binding in BINDINGS {
        let client = client(&server.url(), binding, true).await;
        let mut stream = client
            .send_streaming_message(SendMessageRequest::new(Message::user_text("go")))
            .await
            .unwrap();
        let mut generations = Vec::new();
        while let Some(event) = stream.next().await {
            generations.push(match event.unwrap() {
                StreamResponse::Task(t) => t.generation,
                StreamResponse::StatusUpdate(u) => u.generation,
                StreamResponse::ArtifactUpdate(u) => u.generation,
                other => panic!("{other:?}"),
            });
        }
        assert_eq!(generations, [1, 2, 3, 4], "{binding}");
        assert!(stream.checks_generations());
        assert_eq!(stream.generation_gaps(), &[]);
    }
}

// ----- what a correct server never does: a scripted one ---------------------------------------

/// A card offering JSON-RPC 1.0 and 1.1 at `{base}/rpc`.
fn card_1_1(base: &str) -> String {
    json!({
        "name": "Scripted", "description": "d", "version": "1",
        "supportedInterfaces": [
            {"url": format!("{base}/rpc"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": format!("{base}/rpc"), "protocolBinding": "JSONRPC", "protocolVersion": "1.1"}
        ],
        "capabilities": {"streaming": true},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []
    })
    .to_string()
}

fn event(generation: i64, state: &str) -> Value {
    json!({"statusUpdate": {"taskId": "t-1", "contextId": "c",
        "status": {"state": state}, "generation": generation.to_string()}})
}

/// An SSE body of JSON-RPC responses to request `id`, one per event.
fn sse_of(id: &Value, events: &[Value]) -> Vec<u8> {
    let mut body = String::new();
    for (n, event) in events.iter().enumerate() {
        let response = json!({"jsonrpc": "2.0", "id": id, "result": event});
        body.push_str(&format!("id: {}\ndata: {response}\n\n", n + 1));
    }
    body.into_bytes()
}

/// A scripted 1.1 agent: `SendStreamingMessage` streams `events`, `GetTask` answers `task`.
async fn scripted(events: Vec<Value>, task: Value) -> Scripted {
    Scripted::start(move |_, seen: &Seen| {
        Some(if seen.method == "GET" {
            let base = format!("http://{}", seen.header("host").unwrap_or("?"));
            json(200, &card_1_1(&base))
        } else {
            match seen.json()["method"].as_str().unwrap_or("") {
                "SendStreamingMessage" => sse(&sse_of(&seen.json()["id"], &events)),
                _ => result(seen, task.clone()),
            }
        })
    })
    .await
}

fn working_task(generation: i64) -> Value {
    json!({"id": "t-1", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"},
        "generation": generation.to_string()})
}

#[tokio::test]
async fn the_wire_of_1_1_is_as_the_draft_writes_it() {
    let server = scripted(Vec::new(), working_task(5)).await;
    let client = A2aClient::builder()
        .allow_v1_1(true)
        .connect(&server.url())
        .await
        .unwrap();
    let task = client
        .get_task(GetTaskRequest::new("t-1").with_current_generation(4))
        .await
        .unwrap();
    assert_eq!(task.generation, 5);
    let seen = server.seen();
    let call = seen.last().unwrap();
    assert_eq!(call.header("a2a-version"), Some("1.1"));
    assert_eq!(
        call.json(),
        json!({"jsonrpc": "2.0", "id": call.json()["id"], "method": "GetTask",
            "params": {"id": "t-1", "currentGeneration": "4"}})
    );
    // The same client without the opt-in: 1.0, no currentGeneration.
    let plain = A2aClient::connect(&server.url()).await.unwrap();
    plain
        .get_task(GetTaskRequest::new("t-1").with_current_generation(4))
        .await
        .unwrap();
    let seen = server.seen();
    let call = seen.last().unwrap();
    assert_eq!(call.header("a2a-version"), Some("1.0"));
    assert_eq!(call.json()["params"], json!({"id": "t-1"}));
}

#[tokio::test]
async fn the_rest_wire_of_1_1_is_as_the_draft_writes_it() {
    let server = Scripted::start(|_, seen: &Seen| {
        Some(if seen.path.starts_with("/.well-known") {
            let base = format!("http://{}", seen.header("host").unwrap_or("?"));
            json(
                200,
                &card_1_1(&base)
                    .replace("JSONRPC", "HTTP+JSON")
                    .replace("/rpc", "/rest"),
            )
        } else if seen.path == "/rest/message:send" {
            common::answer(
                409,
                Some("application/json"),
                br#"{"error":{"code":409,"status":"ABORTED","message":"Task generation mismatch: expected 3 but current generation is 5","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_GENERATION_MISMATCH","domain":"a2a-protocol.org","metadata":{"taskId":"t-1","expectedGeneration":"3","currentGeneration":"5"}}]}}"#,
            )
        } else {
            json(200, &working_task(5).to_string())
        })
    })
    .await;
    let client = A2aClient::builder()
        .allow_v1_1(true)
        .connect(&server.url())
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), "1.1");
    let task = client
        .get_task(GetTaskRequest::new("t-1").with_current_generation(4))
        .await
        .unwrap();
    assert_eq!(task.generation, 5);
    let request = SendMessageRequest::new(
        Message::new(
            "m-1",
            a2a_types::v1::Role::User,
            vec![a2a_types::v1::Part::text("x")],
        )
        .with_task_id("t-1"),
    )
    .with_configuration(SendMessageConfiguration::default().with_if_generation_match(3));
    let error = client.send_message(request).await.unwrap_err();
    let mismatch = error.generation_mismatch().unwrap();
    assert_eq!((mismatch.expected, mismatch.current), (Some(3), Some(5)));
    let seen = server.seen();
    let get = &seen[seen.len() - 2];
    assert_eq!(
        (
            get.method.as_str(),
            get.path.as_str(),
            get.query.as_deref(),
            get.header("a2a-version")
        ),
        (
            "GET",
            "/rest/tasks/t-1",
            Some("currentGeneration=4"),
            Some("1.1")
        )
    );
    let send = &seen[seen.len() - 1];
    assert_eq!(send.header("a2a-version"), Some("1.1"));
    assert_eq!(
        send.json(),
        json!({"message": {"messageId": "m-1", "taskId": "t-1", "role": "ROLE_USER",
            "parts": [{"text": "x"}]}, "configuration": {"ifGenerationMatch": "3"}})
    );
}

#[tokio::test]
async fn a_gap_in_a_stream_fetches_the_task_and_is_reported() {
    let events = vec![
        json!({"task": working_task(1)}),
        event(2, "TASK_STATE_WORKING"),
        event(4, "TASK_STATE_WORKING"),
        event(5, "TASK_STATE_COMPLETED"),
    ];
    let server = scripted(events, working_task(4)).await;
    let client = A2aClient::builder()
        .allow_v1_1(true)
        .connect(&server.url())
        .await
        .unwrap();
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("go")))
        .await
        .unwrap();
    let mut seen = Vec::new();
    while let Some(event) = stream.next().await {
        seen.push(match event.unwrap() {
            StreamResponse::Task(t) => format!("task {}", t.generation),
            StreamResponse::StatusUpdate(u) => format!("status {}", u.generation),
            other => panic!("{other:?}"),
        });
    }
    assert_eq!(
        seen,
        ["task 1", "status 2", "status 4", "task 4", "status 5"]
    );
    let gap = &stream.generation_gaps()[0];
    assert_eq!(stream.generation_gaps().len(), 1);
    assert_eq!(
        (gap.task_id.as_str(), gap.after, gap.received, gap.refetched),
        ("t-1", 2, 4, Some(4))
    );
    let _: &GenerationGap = gap;
    // The re-fetch was a plain GetTask.
    let calls = server.seen();
    let get = calls.iter().find(|s| s.body.contains("GetTask")).unwrap();
    assert_eq!(get.json()["params"], json!({"id": "t-1"}));
    assert!(client.speaks_generations());
}

#[tokio::test]
async fn generation_zero_or_a_repeat_means_the_agent_has_none() {
    // A repeat: two events in a row with generation 2.
    let repeat = vec![
        event(2, "TASK_STATE_WORKING"),
        event(2, "TASK_STATE_WORKING"),
        event(4, "TASK_STATE_COMPLETED"),
    ];
    let server = scripted(repeat, working_task(4)).await;
    let client = A2aClient::builder()
        .allow_v1_1(true)
        .connect(&server.url())
        .await
        .unwrap();
    assert!(client.speaks_generations());
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("go")))
        .await
        .unwrap();
    let mut n = 0;
    while let Some(event) = stream.next().await {
        event.unwrap();
        n += 1;
    }
    // No gap reported for 2 → 4: the check stopped at the repeat.
    assert_eq!((n, stream.generation_gaps().len()), (3, 0));
    assert!(!stream.checks_generations());
    assert!(!client.speaks_generations());
    // From then on: no long poll, no ifGenerationMatch.
    let waited = client
        .wait_for_task(GetTaskRequest::new("t-1"), 9, Duration::from_secs(60))
        .await
        .unwrap();
    assert!(matches!(waited, TaskWait::Unsupported(_)), "{waited:?}");
    let request = SendMessageRequest::new(Message::user_text("x").with_task_id("t-1"))
        .with_configuration(SendMessageConfiguration::default().with_if_generation_match(4));
    let refused = client.send_message(request).await.unwrap_err();
    assert_eq!(
        refused.to_string(),
        "ifGenerationMatch needs A2A 1.1 task generations, which this client does not use with \
         the agent (it speaks A2A 1.1, and the agent answered without generations); nothing was \
         sent"
    );

    // Generation 0 on a task answered to GetTask.
    let zero = scripted(
        Vec::new(),
        json!({"id": "t-1", "contextId": "c",
        "status": {"state": "TASK_STATE_WORKING"}}),
    )
    .await;
    let client = A2aClient::builder()
        .allow_v1_1(true)
        .connect(&zero.url())
        .await
        .unwrap();
    let waited = client
        .wait_for_task(GetTaskRequest::new("t-1"), 0, Duration::from_secs(60))
        .await
        .unwrap();
    assert!(matches!(waited, TaskWait::Unsupported(_)), "{waited:?}");
    assert!(!client.speaks_generations());
}
