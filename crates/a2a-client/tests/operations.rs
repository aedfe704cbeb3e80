//! Every 1.0 operation against the real a2a-server over a socket, and what goes on the wire.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use a2a_client::{A2aClient, CallInfo, Error, ErrorCode, Interceptor, interceptor_fn};
use a2a_server::A2aService;
use a2a_server::auth::{AuthError, Principal};
use a2a_types::v1::{
    AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, SendMessageConfiguration,
    SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest,
    TaskPushNotificationConfig, TaskState, binding,
};
use bytes::Bytes;
use common::{Scripted, result, start, task_json};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;
use tokio::sync::Semaphore;

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text(text))
}

async fn collect(mut stream: a2a_client::TaskStream) -> Vec<StreamResponse> {
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(event.unwrap());
    }
    events
}

fn state_of(event: &StreamResponse) -> Option<TaskState> {
    match event {
        StreamResponse::Task(task) => Some(task.status.state),
        StreamResponse::StatusUpdate(update) => Some(update.status.state),
        _ => None,
    }
}

#[tokio::test]
async fn connect_reads_the_card_and_picks_the_jsonrpc_interface() {
    let server = start().await;
    let client = A2aClient::connect(&server.url()).await.unwrap();
    assert_eq!(client.card().name, "Test");
    assert_eq!(client.interface().protocol_binding, binding::JSONRPC);
    assert_eq!(client.interface().protocol_version, "1.0");
    assert_eq!(client.endpoint().to_string(), format!("{}/", server.url()));
    // A trailing slash and the card's own URL work too.
    let client = A2aClient::connect(&format!("{}/", server.url()))
        .await
        .unwrap();
    assert_eq!(client.card().name, "Test");
    let client = A2aClient::connect(&format!("{}/.well-known/agent-card.json", server.url()))
        .await
        .unwrap();
    assert_eq!(client.card().name, "Test");
    // As the `a2a` command takes them: host:port, over http for a loopback host.
    for reference in [
        server.addr.to_string(),
        format!("localhost:{}", server.addr.port()),
    ] {
        let client = A2aClient::connect(&reference).await.unwrap();
        assert_eq!(client.card().name, "Test", "{reference}");
    }
}

#[tokio::test]
async fn send_message_returns_the_task_or_the_reply() {
    let server = start().await;
    let client = A2aClient::connect(&server.url()).await.unwrap();

    let SendMessageResponse::Task(task) = client.send_message(send("ping")).await.unwrap() else {
        panic!("a task");
    };
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(task.artifacts[0].text(), "ping");

    let SendMessageResponse::Message(reply) = client.send_message(send("hello")).await.unwrap()
    else {
        panic!("a message");
    };
    assert_eq!(reply.text(), "hi!");

    // Multi-turn: the task pauses for input, the follow-up carries its ids.
    let SendMessageResponse::Task(asked) = client.send_message(send("ask")).await.unwrap() else {
        panic!("a task");
    };
    assert_eq!(asked.status.state, TaskState::InputRequired);
    let follow_up = Message::user_text("Paris")
        .with_task_id(asked.id.clone())
        .with_context_id(asked.context_id.clone().unwrap());
    let SendMessageResponse::Task(done) = client
        .send_message(SendMessageRequest::new(follow_up))
        .await
        .unwrap()
    else {
        panic!("a task");
    };
    assert_eq!(done.id, asked.id);
    assert_eq!(done.status.state, TaskState::Completed);

    // returnImmediately answers before the agent is done.
    let request = send("wait")
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    let SendMessageResponse::Task(waiting) = client.send_message(request).await.unwrap() else {
        panic!("a task");
    };
    assert!(!waiting.status.state.is_terminal());
}

#[tokio::test]
async fn get_list_and_cancel() {
    let server = start().await;
    let client = A2aClient::connect(&server.url()).await.unwrap();
    let SendMessageResponse::Task(done) = client.send_message(send("one")).await.unwrap() else {
        panic!("a task");
    };
    let request = send("wait")
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    let SendMessageResponse::Task(running) = client.send_message(request).await.unwrap() else {
        panic!("a task");
    };

    let got = client
        .get_task(GetTaskRequest::new(done.id.clone()).with_history_length(0))
        .await
        .unwrap();
    assert_eq!(got.id, done.id);
    assert!(got.history.is_empty());

    let page = client
        .list_tasks(ListTasksRequest::new().with_page_size(10))
        .await
        .unwrap();
    assert_eq!(page.total_size, 2);
    assert_eq!(page.tasks.len(), 2);
    let completed = client
        .list_tasks(ListTasksRequest::new().with_status(TaskState::Completed))
        .await
        .unwrap();
    assert_eq!(completed.tasks.len(), 1);
    assert_eq!(completed.tasks[0].id, done.id);

    let canceled = client
        .cancel_task(CancelTaskRequest::new(running.id.clone()))
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);

    let error = client
        .cancel_task(CancelTaskRequest::new(done.id.clone()))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_CANCELABLE));
    let error = client
        .get_task(GetTaskRequest::new("no-such-task"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_FOUND));
    assert_eq!(
        error.agent_error().unwrap().metadata("taskId"),
        Some("no-such-task")
    );
}

#[tokio::test]
async fn streams_end_at_terminal_and_interrupted_states() {
    let server = start().await;
    let client = A2aClient::connect(&server.url()).await.unwrap();

    let stream = client
        .send_streaming_message(send("echo me"))
        .await
        .unwrap();
    let events = collect(stream).await;
    let states: Vec<_> = events.iter().filter_map(state_of).collect();
    assert_eq!(
        states,
        [
            TaskState::Submitted,
            TaskState::Working,
            TaskState::Completed
        ]
    );
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            StreamResponse::ArtifactUpdate(u) => Some(u.artifact.text()),
            _ => None,
        })
        .collect();
    assert_eq!(text, "echo me");

    // A direct reply is one message.
    let events = collect(client.send_streaming_message(send("hello")).await.unwrap()).await;
    assert!(matches!(&events[..], [StreamResponse::Message(m)] if m.text() == "hi!"));

    // input-required ends the stream too.
    let mut stream = client.send_streaming_message(send("ask")).await.unwrap();
    let mut last = None;
    while let Some(event) = stream.next().await {
        last = Some(event.unwrap());
    }
    assert_eq!(
        last.as_ref().and_then(state_of),
        Some(TaskState::InputRequired)
    );
    assert!(stream.task_id().is_some());
    assert!(stream.last_event_id().is_some());
    assert_eq!(stream.reconnects(), 0);
}

#[tokio::test]
async fn subscribe_follows_a_running_task() {
    let gate = Arc::new(Semaphore::new(0));
    let server = common::start_gated(gate.clone()).await;
    let client = A2aClient::connect(&server.url()).await.unwrap();
    let request = send("chunks 3")
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    let SendMessageResponse::Task(task) = client.send_message(request).await.unwrap() else {
        panic!("a task");
    };
    let mut stream = client
        .subscribe_to_task(SubscribeToTaskRequest::new(task.id.clone()))
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap();
    assert!(matches!(&first, StreamResponse::Task(t) if t.id == task.id));
    gate.add_permits(3);
    let rest = collect(stream).await;
    assert_eq!(rest.last().and_then(state_of), Some(TaskState::Completed));
    let chunks = rest
        .iter()
        .filter(|e| matches!(e, StreamResponse::ArtifactUpdate(_)))
        .count();
    assert_eq!(chunks, 3);

    // A finished task has nothing to subscribe to.
    let error = client
        .subscribe_to_task(SubscribeToTaskRequest::new(task.id.clone()))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::UNSUPPORTED_OPERATION));
}

#[tokio::test]
async fn push_configs_and_the_extended_card() {
    let server = start().await;
    let client = A2aClient::connect(&server.url()).await.unwrap();
    let request = send("wait")
        .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    let SendMessageResponse::Task(task) = client.send_message(request).await.unwrap() else {
        panic!("a task");
    };
    let created = client
        .create_task_push_notification_config(
            TaskPushNotificationConfig::new("https://example.com/hook")
                .with_task_id(task.id.clone()),
        )
        .await
        .unwrap();
    let id = created.id.clone().expect("a server-assigned id");
    let got = client
        .get_task_push_notification_config(GetTaskPushNotificationConfigRequest::new(
            task.id.clone(),
            id.clone(),
        ))
        .await
        .unwrap();
    assert_eq!(got.url, "https://example.com/hook");
    let listed = client
        .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest::new(
            task.id.clone(),
        ))
        .await
        .unwrap();
    assert_eq!(listed.configs.len(), 1);
    client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest::new(
            task.id.clone(),
            id.clone(),
        ))
        .await
        .unwrap();
    let listed = client
        .list_task_push_notification_configs(ListTaskPushNotificationConfigsRequest::new(
            task.id.clone(),
        ))
        .await
        .unwrap();
    assert!(listed.configs.is_empty());

    let extended = client
        .get_extended_agent_card(GetExtendedAgentCardRequest::new())
        .await
        .unwrap();
    assert_eq!(
        extended.icon_url.as_deref(),
        Some("https://example.com/extended.png")
    );
}

#[tokio::test]
async fn from_card_uses_the_card_as_given() {
    let server = start().await;
    let card = common::card().with_supported_interfaces([
        AgentInterface::new(format!("{}/grpc", server.url()), binding::GRPC, "1.0"),
        AgentInterface::new(format!("{}/", server.url()), binding::JSONRPC, "1.0"),
    ]);
    let client = A2aClient::from_card(card).unwrap();
    assert_eq!(client.interface().protocol_binding, "JSONRPC");
    let SendMessageResponse::Task(task) = client.send_message(send("x")).await.unwrap() else {
        panic!("a task");
    };
    assert_eq!(task.status.state, TaskState::Completed);
}

#[tokio::test]
async fn interceptors_authenticate_and_observe() {
    let server = common::start_with(|url| {
        A2aService::builder(
            a2a_server::agent::agent_fn(|ctx, sink| async move {
                let who = ctx.principal.map(|p| p.id().to_owned()).unwrap_or_default();
                sink.reply(sink.message(vec![a2a_types::v1::Part::text(who)]))
                    .await?;
                Ok(())
            }),
            common::card(),
        )
        .public_url(url)
        .authenticator(|head: &http::request::Parts| {
            match head
                .headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
            {
                Some("Bearer s3cret") => Ok(Some(Principal::new("alice"))),
                _ => Err(AuthError::unauthorized(
                    "a bearer token is required",
                    "Bearer",
                )),
            }
        })
        .build()
    })
    .await;

    #[derive(Default)]
    struct Observe {
        requests: AtomicU32,
        responses: AtomicU32,
        methods: std::sync::Mutex<Vec<(&'static str, u16)>>,
    }
    impl Interceptor for Observe {
        fn on_request(&self, _call: &CallInfo, _request: &mut http::Request<Bytes>) {
            self.requests.fetch_add(1, Ordering::SeqCst);
        }
        fn on_response(
            &self,
            call: &CallInfo,
            response: &http::response::Parts,
            body: Option<&Bytes>,
        ) {
            assert!(body.is_some());
            self.responses.fetch_add(1, Ordering::SeqCst);
            self.methods
                .lock()
                .unwrap()
                .push((call.method, response.status.as_u16()));
        }
    }
    let observe = Arc::new(Observe::default());
    let client = A2aClient::builder()
        .bearer_auth("s3cret")
        .interceptor(observe.clone())
        .connect(&server.url())
        .await
        .unwrap();
    let SendMessageResponse::Message(reply) = client.send_message(send("who")).await.unwrap()
    else {
        panic!("a message");
    };
    assert_eq!(reply.text(), "alice");
    assert_eq!(observe.requests.load(Ordering::SeqCst), 2);
    assert_eq!(observe.responses.load(Ordering::SeqCst), 2);
    assert_eq!(
        *observe.methods.lock().unwrap(),
        [(CallInfo::AGENT_CARD, 200), ("SendMessage", 200)]
    );

    // Without the token: HTTP 401 with the server's message.
    let anonymous = A2aClient::connect(&server.url()).await.unwrap();
    let error = anonymous.send_message(send("who")).await.unwrap_err();
    assert_eq!(error.http_status(), Some(http::StatusCode::UNAUTHORIZED));
    assert_eq!(
        error.to_string(),
        "HTTP 401 Unauthorized: unauthenticated: a bearer token is required"
    );

    // A closure interceptor works as well.
    let client = A2aClient::builder()
        .interceptor(interceptor_fn(|_, request| {
            request.headers_mut().insert(
                "authorization",
                http::HeaderValue::from_static("Bearer s3cret"),
            );
        }))
        .connect(&server.url())
        .await
        .unwrap();
    assert!(client.send_message(send("who")).await.is_ok());
}

#[tokio::test]
async fn every_request_carries_version_extensions_and_tenant() {
    let server = Scripted::start(|n, seen| {
        Some(match n {
            0 => common::json(200, &tenant_card(seen.header("host").unwrap_or_default())),
            _ => result(seen, serde_json::json!({"task": task_json("t-1")})),
        })
    })
    .await;
    let client = A2aClient::builder()
        .extension("https://example.com/ext/a")
        .extension("https://example.com/ext/b")
        .header("x-api-key", "k-123")
        .connect(&server.url())
        .await
        .unwrap();
    assert_eq!(client.interface().tenant.as_deref(), Some("acme"));
    client.send_message(send("hi")).await.unwrap();
    // An explicit tenant wins over the interface's.
    client
        .send_message(send("hi").with_tenant("other"))
        .await
        .unwrap();

    let seen = server.seen();
    assert_eq!(seen[0].method, http::Method::GET);
    assert_eq!(seen[0].path, "/.well-known/agent-card.json");
    assert_eq!(seen[0].header("a2a-version"), Some("1.0"));
    let rpc = &seen[1];
    assert_eq!(rpc.method, http::Method::POST);
    assert_eq!(rpc.path, "/rpc");
    assert_eq!(rpc.header("a2a-version"), Some("1.0"));
    assert_eq!(
        rpc.header("a2a-extensions"),
        Some("https://example.com/ext/a, https://example.com/ext/b")
    );
    assert_eq!(rpc.header("x-api-key"), Some("k-123"));
    assert_eq!(rpc.header("content-type"), Some("application/json"));
    let body = rpc.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["method"], "SendMessage");
    assert_eq!(body["params"]["tenant"], "acme");
    assert_eq!(body["params"]["message"]["role"], "ROLE_USER");
    assert_eq!(seen[2].json()["params"]["tenant"], "other");
}

fn tenant_card(host: &str) -> String {
    serde_json::json!({
        "name": "Tenanted", "description": "d", "version": "1",
        "supportedInterfaces": [
            {"url": format!("http://{host}/grpc"), "protocolBinding": "GRPC", "protocolVersion": "1.0"},
            {"url": "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "acme"}
        ],
        "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []
    })
    .to_string()
}

#[tokio::test]
async fn a_card_without_a_1_0_interface_is_refused_with_the_offer_and_the_fix() {
    let server = Scripted::start(|_, _| {
        Some(common::json(
            200,
            r#"{"name":"Old","description":"d","version":"1","url":"http://h/a2a","protocolVersion":"0.3.0",
                "additionalInterfaces":[{"url":"http://h/a2a","transport":"JSONRPC"},{"url":"http://h/rest","transport":"HTTP+JSON"}],
                "capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}"#,
        ))
    })
    .await;
    let error = A2aClient::connect(&server.url()).await.unwrap_err();
    let Error::LegacyOnly { offered } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(offered.len(), 2);
    assert_eq!(
        error.to_string(),
        "the agent card offers A2A 0.3 but no A2A 1.0 interface this client speaks (it offers: \
         JSONRPC 0.3 http://h/a2a, HTTP+JSON 0.3 http://h/rest); versions before 1.0 are used \
         only when allowed: ClientBuilder::allow_legacy(true) or protocol_version(\"0.3\"), \
         `--a2a-version 0.3` with the a2a command"
    );
    // The card itself can still be read.
    let card = A2aClient::builder()
        .fetch_card(&server.url())
        .await
        .unwrap();
    assert_eq!(card.name, "Old");
}

#[tokio::test]
async fn the_legacy_card_path_is_tried_second() {
    let server = Scripted::start(|_, seen| {
        Some(match seen.path.as_str() {
            "/.well-known/agent.json" => common::json(
                200,
                r#"{"name":"Legacy","url":"http://h/","version":"0.1","capabilities":{},
                    "authentication":{"schemes":["Bearer"]},"skills":[]}"#,
            ),
            _ => common::json(404, r#"{"error":"not found"}"#),
        })
    })
    .await;
    let card = A2aClient::builder()
        .fetch_card(&server.url())
        .await
        .unwrap();
    assert_eq!(card.name, "Legacy");
    assert_eq!(card.supported_interfaces[0].protocol_version, "0.1");
    let paths: Vec<String> = server.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(
        paths,
        ["/.well-known/agent-card.json", "/.well-known/agent.json"]
    );

    // Neither: one 404 naming both places.
    let nothing = Scripted::start(|_, _| Some(common::json(404, ""))).await;
    let error = A2aClient::connect(&nothing.url()).await.unwrap_err();
    assert_eq!(error.http_status(), Some(http::StatusCode::NOT_FOUND));
    assert!(error.to_string().contains("no agent card at"), "{error}");
}
