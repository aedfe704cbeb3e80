//! The mock agent (feature `mock`): rules, scripts of events, turns, protocol errors and the
//! record of what it received, served over a socket and called by the client and by raw JSON.

mod common;

use std::time::Duration;

use a2a_client::{A2aClient, Error};
use a2a_server::mock::{Match, MockAgent, Rule, Script, Step};
use a2a_types::v1::{
    CancelTaskRequest, Message, Part, Role, SendMessageRequest, SendMessageResponse,
    StreamResponse, Task, TaskState,
};
use common::{normalized, rpc, rpc_with, start};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use serde_json::json;

const SCRIPT: &str = r#"
rules:
  - name: weather
    match: { contains: weather }
    reply:
      - working: Looking outside
      - artifact: { name: forecast, text: "Sunny, 21 °C" }
  - name: order
    match: { regex: "(?i)^order \\d+$" }
    turns:
      - - inputRequired: Which size?
      - - complete: "Ordered {{text}}"
  - name: exact
    match: { text: ping }
    reply:
      - reply: pong
  - name: prefixed
    match: { messageIdPrefix: "test-" }
    reply:
      - complete: "prefixed {{messageId}}"
  - name: skill
    match: { skill: search_papers }
    reply:
      - artifact: { data: { papers: 2 } }
  - name: vip
    match: { metadata: { tier: gold } }
    reply:
      - complete: welcome
  - name: broken
    match: { text: break }
    reply:
      - error: { code: TaskNotFoundError, message: "no such thing" }
  - name: stream
    match: { text: stream }
    reply:
      - chunk: { id: story, text: "Once " }
      - delay: 10ms
      - chunk: { text: "upon", last: true }
      - complete: null
  - name: slow
    match: { text: slow }
    reply:
      - working: null
      - waitForCancel: true
"#;

fn mock() -> MockAgent {
    MockAgent::new(Script::from_yaml(SCRIPT).unwrap())
}

async fn client(mock: &MockAgent) -> (a2a_server::mock::MockServer, A2aClient) {
    let server = mock.serve().await.unwrap();
    let client = A2aClient::connect(server.url()).await.unwrap();
    (server, client)
}

fn user(id: &str, text: &str) -> Message {
    Message::new(id, Role::User, vec![Part::text(text)])
}

async fn task(client: &A2aClient, message: Message) -> Task {
    match client
        .send_message(SendMessageRequest::new(message))
        .await
        .unwrap()
    {
        SendMessageResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}

fn status_text(task: &Task) -> String {
    task.status
        .message
        .as_ref()
        .map(Message::text)
        .unwrap_or_default()
}

#[tokio::test]
async fn a_rule_answers_over_jsonrpc_with_its_steps() {
    let mock = mock();
    let server = start(mock.service()).await;
    let (status, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"how is the weather?"}]}}}"#,
    )
    .await;
    assert_eq!(status, 200);
    let mut value = normalized(&body);
    // The agent's status message has a generated id of its own.
    value["result"]["task"]["history"][1]["messageId"] = json!("<agent>");
    assert_eq!(
        value,
        json!({"jsonrpc":"2.0","id":1,"result":{"task":{
            "id":"<uuid>","contextId":"<uuid>",
            "status":{"state":"TASK_STATE_COMPLETED","timestamp":"<timestamp>"},
            "artifacts":[{"artifactId":"artifact-0","name":"forecast","parts":[{"text":"Sunny, 21 °C"}]}],
            "history":[
                {"messageId":"m-1","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_USER","parts":[{"text":"how is the weather?"}]},
                {"messageId":"<agent>","contextId":"<uuid>","taskId":"<uuid>","role":"ROLE_AGENT","parts":[{"text":"Looking outside"}]}
            ]
        }}})
    );
    let received = mock.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].rule.as_deref(), Some("weather"));
    assert_eq!(received[0].text(), "how is the weather?");
    assert!(!received[0].follow_up);
    mock.assert_rule_matched("weather", 1);
}

#[tokio::test]
async fn each_condition_picks_its_rule() {
    let mock = mock();
    let (_server, client) = client(&mock).await;

    let pong = client
        .send_message(SendMessageRequest::new(user("m-ping", "ping")))
        .await
        .unwrap();
    match pong {
        SendMessageResponse::Message(message) => assert_eq!(message.text(), "pong"),
        other => panic!("expected a direct reply, got {other:?}"),
    }

    let prefixed = task(&client, user("test-42", "anything")).await;
    assert_eq!(status_text(&prefixed), "prefixed test-42");

    let mut asks_skill = user("m-skill", "find papers on ants");
    asks_skill.metadata = Some(
        json!({"skillId": "search_papers"})
            .as_object()
            .unwrap()
            .clone(),
    );
    let papers = task(&client, asks_skill).await;
    assert_eq!(
        papers.artifacts[0].parts,
        vec![Part::data(json!({"papers": 2}))]
    );

    // The metadata condition reads the request's metadata when the message has none.
    let mut request = SendMessageRequest::new(user("m-vip", "hello"));
    request.metadata = Some(json!({"tier": "gold"}).as_object().unwrap().clone());
    match client.send_message(request).await.unwrap() {
        SendMessageResponse::Task(task) => assert_eq!(status_text(&task), "welcome"),
        other => panic!("expected a task, got {other:?}"),
    }

    let rules: Vec<_> = mock.received().into_iter().map(|r| r.rule).collect();
    assert_eq!(
        rules,
        [Some("exact"), Some("prefixed"), Some("skill"), Some("vip")].map(|r| r.map(str::to_owned))
    );
    mock.assert_received(4);
    mock.assert_received_text("ping");
}

#[tokio::test]
async fn turns_follow_input_required() {
    let mock = mock();
    let (_server, client) = client(&mock).await;
    let asked = task(&client, user("m-1", "ORDER 66")).await;
    assert_eq!(asked.status.state, TaskState::InputRequired);
    assert_eq!(status_text(&asked), "Which size?");

    let mut answer = user("m-2", "large");
    answer.task_id = Some(asked.id.clone());
    let done = task(&client, answer).await;
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(status_text(&done), "Ordered large");

    let received = mock.received();
    assert_eq!(received.len(), 2);
    assert!(received[1].follow_up);
    assert_eq!(received[1].task_id, asked.id);
    mock.assert_rule_matched("order", 2);
}

#[tokio::test]
async fn chunks_stream_in_order_and_the_task_completes() {
    let mock = mock();
    let (_server, client) = client(&mock).await;
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(user("m-1", "stream")))
        .await
        .unwrap();
    let mut seen = Vec::new();
    while let Some(event) = stream.next().await {
        seen.push(match event.unwrap() {
            StreamResponse::Task(task) => format!("task {}", task.status.state),
            StreamResponse::StatusUpdate(update) => format!("status {}", update.status.state),
            StreamResponse::ArtifactUpdate(update) => format!(
                "artifact {} {:?} append={} last={}",
                update.artifact.artifact_id,
                update.artifact.text(),
                update.append,
                update.last_chunk
            ),
            other => format!("{other:?}"),
        });
    }
    assert_eq!(
        seen,
        [
            "task TASK_STATE_SUBMITTED",
            "artifact story \"Once \" append=false last=false",
            "artifact story \"upon\" append=true last=true",
            "status TASK_STATE_COMPLETED",
        ]
    );
}

#[tokio::test]
async fn an_error_step_is_the_calls_error_in_every_version() {
    let mock = mock();
    let server = start(mock.service()).await;
    let (_, _, body) = rpc(
        server.addr,
        r#"{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"break"}]}}}"#,
    )
    .await;
    assert_eq!(
        normalized(&body),
        json!({"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"no such thing","data":[
            {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}
        ]}})
    );
    // 0.3 (message/send, kind-tagged parts): the same error, as 0.3 writes it.
    let (_, _, body) = rpc_with(
        server.addr,
        r#"{"jsonrpc":"2.0","id":8,"method":"message/send","params":{"message":{"kind":"message","messageId":"m-2","role":"user","parts":[{"kind":"text","text":"break"}]}}}"#,
        &[],
    )
    .await;
    let value = normalized(&body);
    assert_eq!(value["id"], json!(8));
    assert_eq!(value["error"]["code"], json!(-32001));
    assert_eq!(value["error"]["message"], json!("no such thing"));
    // HTTP+JSON: a google.rpc.Status with the code's HTTP status.
    let request = http::Request::post("/message:send")
        .header("content-type", "application/json")
        .header("host", "test")
        .header("A2A-Version", "1.0")
        .body(http_body_util::Full::new(bytes::Bytes::from_static(
            br#"{"message":{"messageId":"m-3","role":"ROLE_USER","parts":[{"text":"break"}]}}"#,
        )))
        .unwrap();
    let response = common::send(server.addr, request).await;
    assert_eq!(response.status(), 404);
    mock.assert_received(3);
}

#[tokio::test]
async fn a_message_no_rule_matches_is_refused_naming_it() {
    let mock = MockAgent::new(Script::new().rule(Rule::new(
        Match::text("only this"),
        [Step::artifact_text("ok")],
    )));
    let (_server, client) = client(&mock).await;
    let err = client
        .send_message(SendMessageRequest::new(user("m-9", "something else")))
        .await
        .unwrap_err();
    let Error::Agent(err) = err else {
        panic!("expected the agent's error, got {err:?}");
    };
    assert_eq!(err.code(), a2a_client::ErrorCode::UNSUPPORTED_OPERATION);
    assert_eq!(
        err.message(),
        "no rule of the mock agent's script matches this message (text \"something else\", \
         messageId m-9)"
    );
    assert_eq!(mock.received()[0].rule, None);
}

#[tokio::test]
async fn the_fallback_answers_what_no_rule_matches() {
    let mock = MockAgent::new(Script::new().fallback([Step::Reply("You said: {{text}}".into())]));
    let (_server, client) = client(&mock).await;
    match client
        .send_message(SendMessageRequest::new(user("m-1", "hi")))
        .await
        .unwrap()
    {
        SendMessageResponse::Message(message) => assert_eq!(message.text(), "You said: hi"),
        other => panic!("expected a reply, got {other:?}"),
    }
}

#[tokio::test]
async fn a_cancel_ends_the_turn_and_is_recorded() {
    let mock = mock();
    let (_server, client) = client(&mock).await;
    let mut request = SendMessageRequest::new(user("m-1", "slow"));
    request.configuration =
        Some(a2a_types::v1::SendMessageConfiguration::default().with_return_immediately(true));
    let SendMessageResponse::Task(started) = client.send_message(request).await.unwrap() else {
        panic!("expected a task");
    };
    let canceled = client
        .cancel_task(CancelTaskRequest::new(started.id.clone()))
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    assert_eq!(mock.cancelled(), vec![started.id]);
}

#[tokio::test]
async fn wait_for_received_names_what_came() {
    let mock = mock();
    let err = mock
        .wait_for_received(1, Duration::from_millis(20))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        "the mock received 0 message(s) within 20ms, not 1: nothing"
    );
    let (_server, client) = client(&mock).await;
    let waiter = mock.clone();
    let wait =
        tokio::spawn(async move { waiter.wait_for_received(1, Duration::from_secs(10)).await });
    task(&client, user("m-1", "weather?")).await;
    let received = wait.await.unwrap().unwrap();
    assert_eq!(received[0].message.message_id.as_str(), "m-1");
}

#[tokio::test]
async fn the_record_is_bounded() {
    let mock = mock().with_max_recorded(2);
    let (_server, client) = client(&mock).await;
    for i in 0..3 {
        task(&client, user(&format!("m-{i}"), "weather")).await;
    }
    let ids: Vec<_> = mock
        .received()
        .into_iter()
        .map(|r| r.message.message_id.as_str().to_owned())
        .collect();
    assert_eq!(ids, ["m-1", "m-2"]);
    assert_eq!(mock.dropped(), 1);
}

#[test]
fn json_and_yaml_scripts_read_alike() {
    let json = Script::from_json(
        r#"{"rules":[{"name":"a","match":{"contains":"x"},"reply":[{"status":"input-required","text":"more?"},{"delay":"1.5s"},{"error":{"code":-32004}}]}]}"#,
    )
    .unwrap();
    let yaml = Script::from_yaml(
        "rules:\n  - name: a\n    match: { contains: x }\n    reply:\n      - inputRequired: more?\n      - delay: 1500\n      - error: { code: UnsupportedOperationError }\n",
    )
    .unwrap();
    assert_eq!(json.rules[0].turns, yaml.rules[0].turns);
    assert_eq!(
        json.rules[0].turns[0][..2],
        [
            Step::status(TaskState::InputRequired, "more?".to_owned()),
            Step::Delay(Duration::from_millis(1500)),
        ]
    );
}

#[test]
fn bad_scripts_are_errors_that_say_what_is_wrong() {
    let cases = [
        (
            "rules:\n  - match: { text: a }\n",
            "YAML script: rules: a rule needs `reply` or `turns` at line 2 column 3",
        ),
        (
            "rules:\n  - reply: [ { complete: ok, fail: no } ]\n",
            "YAML script: rules[0].reply: a step does one thing: write each as its own list item at line 2 column 12",
        ),
        (
            "rules:\n  - match: { regex: \"(\" }\n    reply: [ { complete: ok } ]\n",
            "YAML script: rules[0].match: invalid regex `(`: found open group without closing ')' at line 2 column 12",
        ),
        (
            "rules:\n  - reply: [ { status: sleeping } ]\n",
            "YAML script: rules[0].reply: status `sleeping` is not a task state (working, input-required, completed, failed, canceled, rejected, auth-required, submitted) at line 2 column 12",
        ),
        (
            "rules:\n  - reply: [ { delay: soon } ]\n",
            "YAML script: rules[0].reply: delay `soon`: write milliseconds (250) or 250ms, 2s, 1.5s, 1m at line 2 column 12",
        ),
        (
            "rulez: []\n",
            "YAML script: unknown field `rulez`, expected one of `card`, `rules`, `fallback`",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, expected) in cases {
        let err = Script::from_yaml(text).unwrap_err().to_string();
        if err != expected {
            wrong.push(format!(
                "{text:?}\n  got:      {err}\n  expected: {expected}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A streamed follow-up to a task that waits for input: the stream goes on to the new turn's
/// events, though the agent reports only after a while (the waiting state of the turn before
/// must not end it).
#[tokio::test]
async fn a_streamed_follow_up_waits_for_the_turn() {
    let mock = MockAgent::new(
        Script::from_yaml(
            "rules:\n  - turns:\n      - [ { inputRequired: Which? } ]\n      - [ { delay: 50ms }, { complete: \"got {{text}}\" } ]\n",
        )
        .unwrap(),
    );
    let (_server, client) = client(&mock).await;
    let asked = task(&client, user("m-1", "start")).await;
    assert_eq!(asked.status.state, TaskState::InputRequired);
    let mut answer = user("m-2", "this one");
    answer.task_id = Some(asked.id.clone());
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(answer))
        .await
        .unwrap();
    let mut seen = Vec::new();
    while let Some(event) = stream.next().await {
        seen.push(match event.unwrap() {
            StreamResponse::Task(task) => format!("task {}", task.status.state),
            StreamResponse::StatusUpdate(update) => format!(
                "status {} {:?}",
                update.status.state,
                update.status.message.map(|m| m.text())
            ),
            other => format!("{other:?}"),
        });
    }
    assert_eq!(
        seen,
        [
            // The task as it stood when the answer was accepted, then the new turn.
            "task TASK_STATE_INPUT_REQUIRED",
            "status TASK_STATE_COMPLETED Some(\"got this one\")"
        ]
    );
}
