//! The client over HTTP+JSON against the real a2a-server on a socket: every operation, the
//! errors (each with its HTTP status and `ErrorInfo` reason), the tenant prefix, and streams that
//! resume through a proxy that cuts their connection (`resume.rs` does the same over JSON-RPC).
//! `rest.rs` holds the byte-level tests against a scripted server.
//!
//! Every client records the requests it sends ([`Wire`]), so that each test also shows that the
//! calls took the REST routes (a client would otherwise fall back to the card's JSON-RPC
//! interface without a word).

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_client::{A2aClient, CallInfo, ClientBuilder, Error, ErrorCode, Interceptor, RetryPolicy};
use a2a_server::A2aService;
use a2a_server::agent::agent_fn;
use a2a_types::v1::{
    AgentCapabilities, AgentCard, AgentInterface, CancelTaskRequest,
    DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, Part, Role, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
    TaskState, binding,
};
use bytes::Bytes;
use common::Proxy;
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use serde_json::json;
use tokio::sync::Semaphore;

/// Records `METHOD /path?query` of every call (not the card fetch), with ` after <id>` when the
/// request carries `Last-Event-ID`.
#[derive(Default)]
struct Wire(Mutex<Vec<String>>);

impl Interceptor for Wire {
    fn on_request(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        if call.method == CallInfo::AGENT_CARD {
            return;
        }
        let target = request
            .uri()
            .path_and_query()
            .map_or("", |p| p.as_str())
            .to_owned();
        let after = request
            .headers()
            .get("last-event-id")
            .map(|id| format!(" after {}", id.to_str().unwrap()))
            .unwrap_or_default();
        self.0
            .lock()
            .unwrap()
            .push(format!("{} {target}{after}", request.method()));
    }
}

impl Wire {
    /// The requests so far (and forgets them), each task id written `{name}` as `ids` names it.
    fn take(&self, ids: &[(&str, &str)]) -> Vec<String> {
        let lines = std::mem::take(&mut *self.0.lock().unwrap());
        lines
            .into_iter()
            .map(|line| {
                ids.iter().fold(line, |line, (name, id)| {
                    line.replace(id, &format!("{{{name}}}"))
                })
            })
            .collect()
    }
}

/// A client that prefers HTTP+JSON and retries fast, its requests recorded in `wire`.
fn builder(wire: &Arc<Wire>) -> ClientBuilder {
    A2aClient::builder()
        .preferred_transports([binding::HTTP_JSON])
        .interceptor(wire.clone())
        .retry(
            RetryPolicy::default()
                .with_initial_backoff(Duration::from_millis(10))
                .with_max_backoff(Duration::from_millis(50)),
        )
}

/// The test agent's card with one interface: HTTP+JSON at `url`, with `tenant`.
fn rest_card(url: &str, tenant: Option<&str>) -> AgentCard {
    let mut interface = AgentInterface::new(url, binding::HTTP_JSON, "1.0");
    if let Some(tenant) = tenant {
        interface = interface.with_tenant(tenant);
    }
    common::card().with_supported_interfaces([interface])
}

/// A client of [`rest_card`].
fn client_at(url: &str, tenant: Option<&str>, wire: &Arc<Wire>) -> A2aClient {
    builder(wire).from_card(rest_card(url, tenant)).unwrap()
}

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text(text))
}

fn send_and_return(text: &str) -> SendMessageRequest {
    send(text).with_configuration(SendMessageConfiguration::default().with_return_immediately(true))
}

fn task_of(response: SendMessageResponse) -> Task {
    match response {
        SendMessageResponse::Task(task) => task,
        other => panic!("expected a task, got {other:?}"),
    }
}

/// An event in a few words: `task submitted`, `statusUpdate completed`, `artifactUpdate c3 `.
fn summary(event: &StreamResponse) -> String {
    let value = serde_json::to_value(event).unwrap();
    let (kind, body) = value.as_object().unwrap().iter().next().unwrap();
    let what = match body["status"]["state"].as_str() {
        Some(state) => state.trim_start_matches("TASK_STATE_").to_ascii_lowercase(),
        None => body["artifact"]["parts"][0]["text"]
            .as_str()
            .or(body["parts"][0]["text"].as_str())
            .unwrap_or_default()
            .to_owned(),
    };
    format!("{kind} {what}")
}

async fn summaries(mut stream: a2a_client::TaskStream) -> (Vec<String>, a2a_client::TaskStream) {
    let mut out = Vec::new();
    while let Some(event) = stream.next().await {
        out.push(summary(&event.unwrap()));
    }
    (out, stream)
}

/// The agent's error as the client read it: its code, HTTP status, `ErrorInfo` reason and
/// message.
fn agent_error(error: &Error) -> (i32, u16, String, String) {
    let agent = error
        .agent_error()
        .unwrap_or_else(|| panic!("not an agent error: {error:?}"));
    (
        agent.code().code(),
        error.http_status().map_or(0, |s| s.as_u16()),
        agent.reason().unwrap_or_default().to_owned(),
        agent.message().to_owned(),
    )
}

#[tokio::test]
async fn connect_picks_the_rest_interface_and_every_operation_answers() {
    let server = common::start().await;
    let wire = Arc::new(Wire::default());
    let client = builder(&wire).connect(&server.url()).await.unwrap();
    assert_eq!(client.interface().protocol_binding, binding::HTTP_JSON);
    assert_eq!(client.interface().url, server.url());

    // SendMessage: a task, a direct reply, and a second turn of a task that asked for input.
    let pinged = task_of(client.send_message(send("ping")).await.unwrap());
    assert_eq!(
        (pinged.status.state, pinged.artifacts[0].text()),
        (TaskState::Completed, "ping".to_owned())
    );
    match client.send_message(send("hello")).await.unwrap() {
        SendMessageResponse::Message(reply) => assert_eq!(reply.text(), "hi!"),
        other => panic!("expected a direct reply, got {other:?}"),
    }
    let asked = task_of(client.send_message(send("ask")).await.unwrap());
    assert_eq!(asked.status.state, TaskState::InputRequired);
    let answer = Message::user_text("Paris")
        .with_task_id(asked.id.clone())
        .with_context_id(asked.context_id.clone().unwrap());
    let answered = task_of(
        client
            .send_message(SendMessageRequest::new(answer))
            .await
            .unwrap(),
    );
    assert_eq!(
        (&answered.id, answered.status.state),
        (&asked.id, TaskState::Completed)
    );

    // GetTask with a history length.
    let got = client
        .get_task(GetTaskRequest::new(asked.id.clone()).with_history_length(1))
        .await
        .unwrap();
    assert_eq!(got.history.len(), 1);
    assert_eq!(got.history[0].text(), "Paris");

    // ListTasks: a status filter, pages of one, artifacts on request, newest first.
    let first = client
        .list_tasks(
            ListTasksRequest::new()
                .with_status(TaskState::Completed)
                .with_page_size(1)
                .with_include_artifacts(true),
        )
        .await
        .unwrap();
    assert_eq!(
        (first.tasks.len(), first.page_size, first.total_size),
        (1, 1, 2)
    );
    assert_eq!(first.tasks[0].id, asked.id);
    assert_eq!(first.tasks[0].artifacts[0].text(), "Paris");
    let second = client
        .list_tasks(
            ListTasksRequest::new()
                .with_status(TaskState::Completed)
                .with_page_size(1)
                .with_page_token(first.next_page_token.clone()),
        )
        .await
        .unwrap();
    assert_eq!(second.tasks[0].id, pinged.id);
    assert!(second.tasks[0].artifacts.is_empty());
    assert_eq!(second.next_page_token, "");

    // CancelTask.
    let running = task_of(client.send_message(send_and_return("wait")).await.unwrap());
    let canceled = client
        .cancel_task(CancelTaskRequest::new(running.id.clone()))
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);

    // The push config routes, and the extended card.
    let hook = TaskPushNotificationConfig::new("https://example.com/hook")
        .with_task_id(running.id.clone());
    let created = client
        .create_task_push_notification_config(hook)
        .await
        .unwrap();
    let config = created.id.clone().expect("the server names the config");
    let one = GetTaskPushNotificationConfigRequest::new(running.id.clone(), config.clone());
    let all = ListTaskPushNotificationConfigsRequest::new(running.id.clone());
    let gone = DeleteTaskPushNotificationConfigRequest::new(running.id.clone(), config.clone());
    assert_eq!(
        client.get_task_push_notification_config(one).await.unwrap(),
        created
    );
    let listed = client.list_task_push_notification_configs(all.clone());
    assert_eq!(listed.await.unwrap().configs, [created]);
    client
        .delete_task_push_notification_config(gone)
        .await
        .unwrap();
    let listed = client.list_task_push_notification_configs(all);
    assert_eq!(listed.await.unwrap().configs, []);
    let extended = client.get_extended_agent_card(GetExtendedAgentCardRequest::new());
    let extended = extended.await.unwrap();
    assert_eq!(
        (extended.name.as_str(), extended.icon_url.as_deref()),
        ("Test", Some("https://example.com/extended.png"))
    );

    // The page token (`t2:<time>:<n>`) goes into the query escaped.
    let token = first.next_page_token.replace(':', "%3A");
    let ids = [
        ("asked", asked.id.as_ref()),
        ("running", running.id.as_ref()),
        ("config", config.as_str()),
        ("token", token.as_str()),
    ];
    assert_eq!(
        wire.take(&ids),
        [
            "POST /message:send",
            "POST /message:send",
            "POST /message:send",
            "POST /message:send",
            "GET /tasks/{asked}?historyLength=1",
            "GET /tasks?includeArtifacts=true&pageSize=1&status=TASK_STATE_COMPLETED",
            "GET /tasks?pageSize=1&pageToken={token}&status=TASK_STATE_COMPLETED",
            "POST /message:send",
            "POST /tasks/{running}:cancel",
            "POST /tasks/{running}/pushNotificationConfigs",
            "GET /tasks/{running}/pushNotificationConfigs/{config}",
            "GET /tasks/{running}/pushNotificationConfigs",
            "DELETE /tasks/{running}/pushNotificationConfigs/{config}",
            "GET /tasks/{running}/pushNotificationConfigs",
            "GET /extendedAgentCard",
        ]
    );
}

#[tokio::test]
async fn streams_end_at_terminal_and_interrupted_states() {
    let gate = Arc::new(Semaphore::new(0));
    let server = common::start_gated(gate.clone()).await;
    let wire = Arc::new(Wire::default());
    let client = client_at(&server.url(), None, &wire);

    let (events, _) = summaries(
        client
            .send_streaming_message(send("echo me"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        events,
        [
            "task submitted",
            "statusUpdate working",
            "artifactUpdate echo me",
            "statusUpdate completed"
        ]
    );
    let (events, _) = summaries(client.send_streaming_message(send("hello")).await.unwrap()).await;
    assert_eq!(events, ["message hi!"]);
    let (events, stream) =
        summaries(client.send_streaming_message(send("ask")).await.unwrap()).await;
    assert_eq!(events, ["task submitted", "statusUpdate input_required"]);
    assert_eq!(stream.reconnects(), 0);

    // SubscribeToTask follows a running task to its end.
    let running = task_of(
        client
            .send_message(send_and_return("chunks 2"))
            .await
            .unwrap(),
    );
    let mut stream = client
        .subscribe_to_task(SubscribeToTaskRequest::new(running.id.clone()))
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    assert!(matches!(&first, StreamResponse::Task(t) if t.id == running.id));
    gate.add_permits(2);
    let (events, _) = summaries(stream).await;
    assert_eq!(
        events,
        [
            "artifactUpdate c0 ",
            "artifactUpdate c1 ",
            "statusUpdate completed"
        ]
    );

    // A finished task has nothing to follow.
    let error = client
        .subscribe_to_task(SubscribeToTaskRequest::new(running.id.clone()))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::UNSUPPORTED_OPERATION));
    assert_eq!(error.http_status(), Some(http::StatusCode::BAD_REQUEST));

    assert_eq!(
        wire.take(&[("running", running.id.as_ref())]),
        [
            "POST /message:stream",
            "POST /message:stream",
            "POST /message:stream",
            "POST /message:send",
            "GET /tasks/{running}:subscribe",
            "GET /tasks/{running}:subscribe",
        ]
    );
}

#[tokio::test]
async fn errors_have_their_http_status_reason_and_message() {
    let server = common::start().await;
    let wire = Arc::new(Wire::default());
    let client = client_at(&server.url(), None, &wire);
    let done = task_of(client.send_message(send("done")).await.unwrap());
    let id = done.id.as_ref().to_owned();
    let more = Message::user_text("more")
        .with_task_id(done.id.clone())
        .with_context_id(done.context_id.clone().unwrap());
    // The card accepts text/plain only.
    let picture = Message::new(
        "m-png",
        Role::User,
        vec![Part::raw(b"\x89PNG".to_vec()).with_media_type("image/png")],
    );

    let refused = [
        client
            .get_task(GetTaskRequest::new("no-such-task"))
            .await
            .unwrap_err(),
        client
            .cancel_task(CancelTaskRequest::new(done.id.clone()))
            .await
            .unwrap_err(),
        client
            .send_message(SendMessageRequest::new(more))
            .await
            .unwrap_err(),
        client
            .send_message(SendMessageRequest::new(picture))
            .await
            .unwrap_err(),
        // A page larger than the spec allows, a token the server never issued.
        client
            .list_tasks(ListTasksRequest::new().with_page_size(101))
            .await
            .unwrap_err(),
        client
            .list_tasks(ListTasksRequest::new().with_page_token("forged"))
            .await
            .unwrap_err(),
    ];
    let answers: Vec<_> = refused.iter().map(agent_error).collect();
    let expected = [
        (
            -32001,
            404,
            "TASK_NOT_FOUND",
            "task no-such-task not found".to_owned(),
        ),
        (
            -32002,
            400,
            "TASK_NOT_CANCELABLE",
            format!("task {id} is TASK_STATE_COMPLETED and cannot be canceled"),
        ),
        (
            -32004,
            400,
            "UNSUPPORTED_OPERATION",
            format!(
                "task {id} is TASK_STATE_COMPLETED (a terminal state) and accepts no more \
                 messages; send a new message without taskId to start a new task"
            ),
        ),
        (
            -32005,
            400,
            "CONTENT_TYPE_NOT_SUPPORTED",
            "media type `image/png` is not supported; the agent accepts text/plain".to_owned(),
        ),
        (
            -32602,
            400,
            "INVALID_PARAMS",
            "invalid params: pageSize must be between 1 and 100, got 101".to_owned(),
        ),
        (
            -32602,
            400,
            "INVALID_PARAMS",
            "invalid params: pageToken `forged` is not a token this server returned".to_owned(),
        ),
    ];
    let expected: Vec<_> = expected
        .into_iter()
        .map(|(code, http, reason, message)| (code, http, reason.to_owned(), message))
        .collect();
    assert_eq!(answers, expected);
    assert_eq!(
        refused[0].to_string(),
        "the agent answered TaskNotFoundError (-32001): task no-such-task not found"
    );
    assert_eq!(
        refused[0].agent_error().unwrap().metadata("taskId"),
        Some("no-such-task")
    );
    assert_eq!(
        refused[4].agent_error().unwrap().details()[1],
        json!({"@type": "type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations": [{"field": "pageSize", "description": "must be between 1 and 100, got 101"}]})
    );
    // An id the path cannot carry is refused before anything is sent.
    let error = client.get_task(GetTaskRequest::new("")).await.unwrap_err();
    assert!(matches!(error, Error::Config(_)), "{error:?}");
    assert_eq!(
        wire.take(&[("done", &id)]),
        [
            "POST /message:send",
            "GET /tasks/no-such-task",
            "POST /tasks/{done}:cancel",
            "POST /message:send",
            "POST /message:send",
            "GET /tasks?pageSize=101",
            "GET /tasks?pageToken=forged",
        ]
    );
}

#[tokio::test]
async fn an_agent_without_push_or_an_extended_card_refuses_them() {
    let server = common::start_with(|url| {
        let card = AgentCard::new("Plain", "No push, no extended card", "1.0.0")
            .with_capabilities(AgentCapabilities::default().with_streaming(true))
            .with_default_input_modes(["text/plain"])
            .with_default_output_modes(["text/plain"]);
        A2aService::builder(
            agent_fn(|_, sink| async move {
                sink.reply(sink.message(vec![Part::text("hi")])).await?;
                Ok(())
            }),
            card,
        )
        .public_url(url)
        .build()
    })
    .await;
    let wire = Arc::new(Wire::default());
    let client = builder(&wire).connect(&server.url()).await.unwrap();
    assert_eq!(client.interface().protocol_binding, binding::HTTP_JSON);
    let push = client
        .create_task_push_notification_config(
            TaskPushNotificationConfig::new("https://example.com/hook").with_task_id("t-1"),
        )
        .await
        .unwrap_err();
    let card = client
        .get_extended_agent_card(GetExtendedAgentCardRequest::new())
        .await
        .unwrap_err();
    let reasons = [&push, &card].map(|e| {
        let (code, http, reason, _) = agent_error(e);
        (code, http, reason)
    });
    assert_eq!(
        reasons,
        [
            (-32003, 400, "PUSH_NOTIFICATION_NOT_SUPPORTED".to_owned()),
            (-32004, 400, "UNSUPPORTED_OPERATION".to_owned()),
        ]
    );
    assert_eq!(
        wire.take(&[]),
        [
            "POST /tasks/t-1/pushNotificationConfigs",
            "GET /extendedAgentCard"
        ]
    );
}

#[tokio::test]
async fn the_tenant_prefix_scopes_every_call() {
    let server = common::start().await;
    let wire = Arc::new(Wire::default());
    let acme = client_at(&server.url(), Some("acme co"), &wire);
    let nobody = client_at(&server.url(), None, &wire);

    let task = task_of(acme.send_message(send("ping")).await.unwrap());
    assert_eq!(
        acme.get_task(GetTaskRequest::new(task.id.clone()))
            .await
            .unwrap()
            .status
            .state,
        TaskState::Completed
    );
    let listed = acme.list_tasks(ListTasksRequest::new()).await.unwrap();
    assert_eq!(
        listed.tasks.iter().map(|t| &t.id).collect::<Vec<_>>(),
        [&task.id]
    );

    // Without the tenant, or under another, the task is not there.
    let error = nobody
        .get_task(GetTaskRequest::new(task.id.clone()))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
    assert_eq!(error.http_status(), Some(http::StatusCode::NOT_FOUND));
    assert!(
        nobody
            .list_tasks(ListTasksRequest::new())
            .await
            .unwrap()
            .tasks
            .is_empty()
    );
    let error = nobody
        .cancel_task(CancelTaskRequest::new(task.id.clone()).with_tenant("beta"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
    // A request's own tenant is the prefix too.
    let got = nobody
        .get_task(GetTaskRequest::new(task.id.clone()).with_tenant("acme co"))
        .await
        .unwrap();
    assert_eq!(got.id, task.id);

    assert_eq!(
        wire.take(&[("task", task.id.as_ref())]),
        [
            "POST /acme%20co/message:send",
            "GET /acme%20co/tasks/{task}",
            "GET /acme%20co/tasks",
            "GET /tasks/{task}",
            "GET /tasks",
            "POST /beta/tasks/{task}:cancel",
            "GET /acme%20co/tasks/{task}",
        ]
    );
}

/// The gated test agent behind a proxy that can cut connections, and a client of its HTTP+JSON
/// interface through the proxy with `reconnects` stream reconnections.
async fn behind_a_proxy(
    wire: &Arc<Wire>,
    reconnects: u32,
) -> (common::TestServer, Proxy, Arc<Semaphore>, A2aClient) {
    let gate = Arc::new(Semaphore::new(0));
    let server = common::start_gated(gate.clone()).await;
    let proxy = Proxy::start(server.addr).await;
    let client = builder(wire)
        .stream_reconnects(reconnects)
        .from_card(rest_card(&proxy.url(), None))
        .unwrap();
    (server, proxy, gate, client)
}

/// Reads events until the artifact chunk `c1`.
async fn through_c1(stream: &mut a2a_client::TaskStream) -> Vec<String> {
    let mut seen = Vec::new();
    while seen.last().map(String::as_str) != Some("artifactUpdate c1 ") {
        seen.push(summary(&stream.next().await.unwrap().unwrap()));
    }
    seen
}

const AFTER_C1: [&str; 5] = [
    "artifactUpdate c2 ",
    "artifactUpdate c3 ",
    "artifactUpdate c4 ",
    "artifactUpdate c5 ",
    "statusUpdate completed",
];

#[tokio::test]
async fn a_cut_stream_resumes_with_last_event_id_while_the_task_runs() {
    let wire = Arc::new(Wire::default());
    let (_server, proxy, gate, client) = behind_a_proxy(&wire, 5).await;
    let mut stream = client
        .send_streaming_message(send("chunks 6"))
        .await
        .unwrap();
    gate.add_permits(2);
    assert_eq!(
        through_c1(&mut stream).await,
        [
            "task submitted",
            "statusUpdate working",
            "artifactUpdate c0 ",
            "artifactUpdate c1 "
        ]
    );
    let task = stream.task_id().unwrap().clone();
    let last = stream.last_event_id().unwrap().to_owned();

    let before = proxy.connections();
    proxy.cut();
    // The client notices on its next read and subscribes again after the last event it saw;
    // the agent goes on once the client is back, and nothing is lost or repeated.
    let reader = tokio::spawn(summaries(stream));
    for _ in 0..500 {
        if proxy.connections() > before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(proxy.connections() > before, "the client did not come back");
    gate.add_permits(4);
    let (events, stream) = reader.await.unwrap();
    assert_eq!(events, AFTER_C1);
    assert_eq!(stream.reconnects(), 1);
    assert_eq!(
        wire.take(&[("task", task.as_ref())]),
        [
            "POST /message:stream".to_owned(),
            format!("GET /tasks/{{task}}:subscribe after {last}"),
        ]
    );
}

#[tokio::test]
async fn a_subscription_cut_while_the_task_ends_replays_what_it_missed() {
    let wire = Arc::new(Wire::default());
    let (server, proxy, gate, client) = behind_a_proxy(&wire, 5).await;
    let task = task_of(
        client
            .send_message(send_and_return("chunks 6"))
            .await
            .unwrap(),
    );
    let mut stream = client
        .subscribe_to_task(SubscribeToTaskRequest::new(task.id.clone()))
        .await
        .unwrap();
    gate.add_permits(2);
    let seen = through_c1(&mut stream).await;
    assert_eq!(seen[0], "task working");
    let last = stream.last_event_id().unwrap().to_owned();

    proxy.cut();
    // The task runs to its end (seen from a client that does not go through the proxy) before
    // the subscriber reads again.
    gate.add_permits(4);
    let direct = client_at(&format!("http://{}", server.addr), None, &Arc::default());
    let mut state = TaskState::Working;
    for _ in 0..500 {
        state = direct
            .get_task(GetTaskRequest::new(task.id.clone()))
            .await
            .unwrap()
            .status
            .state;
        if state.is_terminal() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(state, TaskState::Completed);
    let (events, stream) = summaries(stream).await;
    assert_eq!(events, AFTER_C1);
    assert_eq!(stream.reconnects(), 1);
    assert_eq!(
        wire.take(&[("task", task.id.as_ref())]),
        [
            "POST /message:send".to_owned(),
            "GET /tasks/{task}:subscribe".to_owned(),
            format!("GET /tasks/{{task}}:subscribe after {last}"),
        ]
    );
}

#[tokio::test]
async fn reconnections_are_bounded() {
    let wire = Arc::new(Wire::default());
    let (_server, proxy, _gate, client) = behind_a_proxy(&wire, 2).await;
    let mut stream = client
        .send_streaming_message(send("chunks 2"))
        .await
        .unwrap();
    assert_eq!(
        summary(&stream.next().await.unwrap().unwrap()),
        "task submitted"
    );
    assert_eq!(
        summary(&stream.next().await.unwrap().unwrap()),
        "statusUpdate working"
    );
    let task = stream.task_id().unwrap().clone();
    let last = stream.last_event_id().unwrap().to_owned();
    // The way to the agent is gone for good.
    drop(proxy);
    let error = stream.next().await.unwrap().unwrap_err();
    assert!(error.is_connect(), "{error:?}");
    assert_eq!(stream.reconnects(), 2);
    assert!(stream.next().await.is_none());
    let lines = wire.take(&[("task", task.as_ref())]);
    assert_eq!(lines[0], "POST /message:stream");
    let again = format!("GET /tasks/{{task}}:subscribe after {last}");
    assert!(lines.len() > 2, "{lines:?}");
    assert!(lines[1..].iter().all(|line| *line == again), "{lines:?}");
}
