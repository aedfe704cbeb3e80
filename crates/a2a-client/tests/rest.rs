//! The HTTP+JSON transport against a scripted server: every route (method, path, query, headers,
//! body bytes), the tenant prefix, both JSON media types, every error shape, SSE framing, and
//! resumption.

mod common;

use std::time::Duration;

use a2a_client::{A2aClient, ClientBuilder, Error, ErrorCode, RetryPolicy, TaskStream};
use a2a_types::v1::{
    AgentCard, AgentInterface, AuthenticationInfo, CancelTaskRequest, ContextId,
    DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, Part, Role, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, SubscribeToTaskRequest, TaskPushNotificationConfig,
    TaskState, Timestamp, binding,
};
use common::{Answer, Scripted, Seen, answer, sse};
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;

const A2A_JSON: &str = "application/a2a+json";
const ACCEPT_JSON: &str = "application/a2a+json, application/json";
const TASK: &str = r#"{"id":"t-1","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}"#;
const CONFIG: &str = r#"{"id":"p-1","taskId":"t-1","url":"https://hook.example/a2a"}"#;

/// A client of the scripted server's HTTP+JSON interface at `/a2a/`.
fn client(server: &Scripted, tenant: Option<&str>, builder: ClientBuilder) -> A2aClient {
    let mut interface =
        AgentInterface::new(format!("{}/a2a/", server.url()), binding::HTTP_JSON, "1.0");
    if let Some(tenant) = tenant {
        interface = interface.with_tenant(tenant);
    }
    let card = AgentCard::new("S", "d", "1").with_supported_interfaces([interface]);
    builder.from_card(card).unwrap()
}

fn fast() -> ClientBuilder {
    A2aClient::builder().retry(
        RetryPolicy::default()
            .with_max_attempts(3)
            .with_initial_backoff(Duration::from_millis(10)),
    )
}

/// What an agent answers on each route; half of the answers say `application/json`, half
/// `application/a2a+json` (with a charset), as servers in the field do.
fn agent(seen: &Seen) -> Answer {
    let path = seen.path.as_str();
    let method = seen.method.as_str();
    let json = |body: &str| answer(200, Some("application/json"), body.as_bytes());
    let a2a = |body: &str| {
        answer(
            200,
            Some("application/a2a+json; charset=utf-8"),
            body.as_bytes(),
        )
    };
    let done = format!("data: {{\"task\":{TASK}}}\n\n");
    if path.ends_with("/message:send") {
        a2a(&format!(r#"{{"task":{TASK}}}"#))
    } else if path.ends_with("/message:stream") || path.ends_with(":subscribe") {
        sse(done.as_bytes())
    } else if path.ends_with(":cancel") || path.ends_with("/tasks/t-1") {
        json(TASK)
    } else if path.ends_with("/tasks") {
        a2a(&format!(
            r#"{{"tasks":[{TASK}],"nextPageToken":"","pageSize":50,"totalSize":1}}"#
        ))
    } else if path.ends_with("/pushNotificationConfigs") && method == "POST" {
        a2a(CONFIG)
    } else if path.ends_with("/pushNotificationConfigs") {
        json(&format!(r#"{{"configs":[{CONFIG}],"nextPageToken":"n"}}"#))
    } else if path.ends_with("/p-1") && method == "DELETE" {
        answer(200, None, b"")
    } else if path.ends_with("/p-1") {
        json(CONFIG)
    } else if path.ends_with("/extendedAgentCard") {
        a2a(
            r#"{"name":"Extended","description":"d","version":"2","supportedInterfaces":[
            {"url":"http://h/","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}"#,
        )
    } else {
        answer(404, Some("text/plain"), b"no route")
    }
}

/// (method, path and query, Content-Type, Accept, body) of a request.
fn line(seen: &Seen) -> (String, String, Option<String>, Option<String>, String) {
    let target = match &seen.query {
        Some(query) => format!("{}?{query}", seen.path),
        None => seen.path.clone(),
    };
    (
        seen.method.to_string(),
        target,
        seen.header("content-type").map(str::to_owned),
        seen.header("accept").map(str::to_owned),
        seen.body.clone(),
    )
}

fn expect(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    accept: &str,
    body: &str,
) -> (String, String, Option<String>, Option<String>, String) {
    (
        method.to_owned(),
        target.to_owned(),
        content_type.map(str::to_owned),
        Some(accept.to_owned()),
        body.to_owned(),
    )
}

async fn drain(mut stream: TaskStream) -> Vec<StreamResponse> {
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(event.unwrap());
    }
    events
}

#[tokio::test]
async fn every_route_on_the_wire() {
    let server = Scripted::start(|_, seen| Some(agent(seen))).await;
    let client = client(&server, None, A2aClient::builder().extension("urn:ext:a"));
    let message = Message::new("m-1", Role::User, vec![Part::text("hi")]);
    let configuration = SendMessageConfiguration::default().with_history_length(2);

    let SendMessageResponse::Task(task) = client
        .send_message(
            SendMessageRequest::new(message.clone()).with_configuration(configuration.clone()),
        )
        .await
        .unwrap()
    else {
        panic!("a task");
    };
    assert_eq!(task.status.state, TaskState::Completed);
    let events = drain(
        client
            .send_streaming_message(SendMessageRequest::new(message))
            .await
            .unwrap(),
    )
    .await;
    assert!(matches!(&events[..], [StreamResponse::Task(t)] if t.id.as_ref() == "t-1"));
    let task = client
        .get_task(GetTaskRequest::new("t-1").with_history_length(3))
        .await
        .unwrap();
    assert_eq!(task.id.as_ref(), "t-1");
    let after: Timestamp = serde_json::from_str(r#""2026-05-28T10:30:00.250Z""#).unwrap();
    let page = client
        .list_tasks(
            ListTasksRequest::new()
                .with_context_id(ContextId::new("c-1"))
                .with_status(TaskState::Working)
                .with_page_size(5)
                .with_page_token("next")
                .with_history_length(0)
                .with_status_timestamp_after(after)
                .with_include_artifacts(false),
        )
        .await
        .unwrap();
    assert_eq!((page.tasks.len(), page.total_size), (1, 1));
    let metadata = serde_json::json!({"why": "done"});
    client
        .cancel_task(
            CancelTaskRequest::new("t-1").with_metadata(metadata.as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    drain(
        client
            .subscribe_to_task(SubscribeToTaskRequest::new("t-1"))
            .await
            .unwrap(),
    )
    .await;
    let created = client
        .create_task_push_notification_config(
            TaskPushNotificationConfig::new("https://hook.example/a2a")
                .with_task_id("t-1")
                .with_token("tok")
                .with_authentication(AuthenticationInfo::bearer("s3cret")),
        )
        .await
        .unwrap();
    assert_eq!(created.id.as_deref(), Some("p-1"));
    let got = client
        .get_task_push_notification_config(GetTaskPushNotificationConfigRequest::new("t-1", "p-1"))
        .await
        .unwrap();
    assert_eq!(got.url, "https://hook.example/a2a");
    let listed = client
        .list_task_push_notification_configs(
            ListTaskPushNotificationConfigsRequest::new("t-1")
                .with_page_size(10)
                .with_page_token("pt"),
        )
        .await
        .unwrap();
    assert_eq!(listed.next_page_token.as_deref(), Some("n"));
    client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest::new(
            "t-1", "p-1",
        ))
        .await
        .unwrap();
    let card = client
        .get_extended_agent_card(GetExtendedAgentCardRequest::new())
        .await
        .unwrap();
    assert_eq!(card.name, "Extended");

    let seen = server.seen();
    let lines: Vec<_> = seen.iter().map(line).collect();
    let stream = "text/event-stream";
    assert_eq!(
        lines,
        [
            expect(
                "POST",
                "/a2a/message:send",
                Some(A2A_JSON),
                ACCEPT_JSON,
                r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"historyLength":2}}"#,
            ),
            expect(
                "POST",
                "/a2a/message:stream",
                Some(A2A_JSON),
                stream,
                r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#,
            ),
            expect(
                "GET",
                "/a2a/tasks/t-1?historyLength=3",
                None,
                ACCEPT_JSON,
                ""
            ),
            expect(
                "GET",
                "/a2a/tasks?contextId=c-1&historyLength=0&includeArtifacts=false&pageSize=5&\
                 pageToken=next&status=TASK_STATE_WORKING&\
                 statusTimestampAfter=2026-05-28T10%3A30%3A00.250Z",
                None,
                ACCEPT_JSON,
                "",
            ),
            expect(
                "POST",
                "/a2a/tasks/t-1:cancel",
                Some(A2A_JSON),
                ACCEPT_JSON,
                r#"{"metadata":{"why":"done"}}"#,
            ),
            expect("GET", "/a2a/tasks/t-1:subscribe", None, stream, ""),
            expect(
                "POST",
                "/a2a/tasks/t-1/pushNotificationConfigs",
                Some(A2A_JSON),
                ACCEPT_JSON,
                r#"{"url":"https://hook.example/a2a","token":"tok","authentication":{"scheme":"Bearer","credentials":"s3cret"}}"#,
            ),
            expect(
                "GET",
                "/a2a/tasks/t-1/pushNotificationConfigs/p-1",
                None,
                ACCEPT_JSON,
                "",
            ),
            expect(
                "GET",
                "/a2a/tasks/t-1/pushNotificationConfigs?pageSize=10&pageToken=pt",
                None,
                ACCEPT_JSON,
                "",
            ),
            expect(
                "DELETE",
                "/a2a/tasks/t-1/pushNotificationConfigs/p-1",
                None,
                ACCEPT_JSON,
                "",
            ),
            expect("GET", "/a2a/extendedAgentCard", None, ACCEPT_JSON, ""),
        ]
    );
    for request in &seen {
        assert_eq!(request.header("a2a-version"), Some("1.0"), "{request:?}");
        assert_eq!(request.header("a2a-extensions"), Some("urn:ext:a"));
        assert_eq!(request.header("last-event-id"), None);
    }
}

#[tokio::test]
async fn the_tenant_is_the_path_prefix() {
    let server = Scripted::start(|_, seen| Some(agent(seen))).await;
    let client = client(&server, Some("acme"), A2aClient::builder());
    client
        .send_message(SendMessageRequest::new(Message::new(
            "m-1",
            Role::User,
            vec![Part::text("hi")],
        )))
        .await
        .unwrap();
    client.get_task(GetTaskRequest::new("t-1")).await.unwrap();
    // A request's own tenant wins over the interface's.
    client
        .get_task(GetTaskRequest::new("t-1").with_tenant("other"))
        .await
        .unwrap();
    client
        .create_task_push_notification_config(
            TaskPushNotificationConfig::new("https://hook.example/a2a").with_task_id("t-1"),
        )
        .await
        .unwrap();
    client.list_tasks(ListTasksRequest::new()).await.unwrap();
    drain(
        client
            .subscribe_to_task(SubscribeToTaskRequest::new("t-1"))
            .await
            .unwrap(),
    )
    .await;
    // Ids are one path segment each, escaped.
    let error = client
        .get_task(GetTaskRequest::new("a b/c"))
        .await
        .unwrap_err();
    assert_eq!(error.http_status(), Some(http::StatusCode::NOT_FOUND));

    let lines: Vec<(String, String, String)> = server
        .seen()
        .iter()
        .map(|s| {
            let (method, target, _, _, body) = line(s);
            (method, target, body)
        })
        .collect();
    let l = |m: &str, t: &str, b: &str| (m.to_owned(), t.to_owned(), b.to_owned());
    assert_eq!(
        lines,
        [
            l(
                "POST",
                "/a2a/acme/message:send",
                r#"{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}}"#
            ),
            l("GET", "/a2a/acme/tasks/t-1", ""),
            l("GET", "/a2a/other/tasks/t-1", ""),
            l(
                "POST",
                "/a2a/acme/tasks/t-1/pushNotificationConfigs",
                r#"{"url":"https://hook.example/a2a"}"#
            ),
            l("GET", "/a2a/acme/tasks", ""),
            l("GET", "/a2a/acme/tasks/t-1:subscribe", ""),
            l("GET", "/a2a/acme/tasks/a%20b%2Fc", ""),
        ]
    );
}

#[tokio::test]
async fn a_path_needs_its_ids() {
    let server = Scripted::start(|_, seen| Some(agent(seen))).await;
    let client = client(&server, None, A2aClient::builder());
    let error = client.get_task(GetTaskRequest::new("")).await.unwrap_err();
    assert!(matches!(error, Error::Config(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "GetTask needs a `id` to put in its HTTP+JSON path"
    );
    let error = client
        .create_task_push_notification_config(TaskPushNotificationConfig::new("https://h/"))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "CreateTaskPushNotificationConfig needs a `taskId` to put in its HTTP+JSON path"
    );
    let error = client
        .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest::new(
            "t-1", "",
        ))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "DeleteTaskPushNotificationConfig needs a `id` to put in its HTTP+JSON path"
    );
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn delete_accepts_an_empty_body_braces_or_no_content() {
    for (status, body) in [(200, ""), (200, "{}"), (204, ""), (200, "null")] {
        let server =
            Scripted::start(move |_, _| Some(answer(status, Some(A2A_JSON), body.as_bytes())))
                .await;
        let client = client(&server, None, A2aClient::builder());
        client
            .delete_task_push_notification_config(DeleteTaskPushNotificationConfigRequest::new(
                "t-1", "p-1",
            ))
            .await
            .unwrap();
    }
}

/// A `google.rpc.Status` error body, as spec 1.0 §11.6 has it.
fn status(http: u16, status: &str, message: &str, reason: Option<&str>) -> String {
    let details = match reason {
        Some(reason) => serde_json::json!([{
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": reason, "domain": "a2a-protocol.org", "metadata": {"taskId": "t-9"}
        }]),
        None => serde_json::json!([]),
    };
    serde_json::json!({"error": {"code": http, "status": status, "message": message,
        "details": details}})
    .to_string()
}

#[tokio::test]
async fn status_errors_are_agent_errors_with_their_http_status() {
    let body = status(
        404,
        "NOT_FOUND",
        "task t-9 not found",
        Some("TASK_NOT_FOUND"),
    );
    let server =
        Scripted::start(move |_, _| Some(answer(404, Some("application/json"), body.as_bytes())))
            .await;
    let client = client(&server, None, fast());
    let error = client
        .get_task(GetTaskRequest::new("t-9"))
        .await
        .unwrap_err();
    common::assert_t9_not_found(&error, "task t-9 not found");
    assert_eq!(error.http_status(), Some(http::StatusCode::NOT_FOUND));
    // An answer: no retry.
    assert_eq!(server.seen().len(), 1);

    // Several errors share HTTP 400: the ErrorInfo reason tells them apart.
    let server = refusing("t-1 is done", "TASK_NOT_CANCELABLE").await;
    let error = client_of(&server)
        .cancel_task(CancelTaskRequest::new("t-1"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::TASK_NOT_CANCELABLE));
    assert_eq!(error.http_status(), Some(http::StatusCode::BAD_REQUEST));

    // Without ErrorInfo: the status and the HTTP code say what they can.
    let body = status(401, "UNAUTHENTICATED", "a bearer token is required", None);
    let server =
        Scripted::start(move |_, _| Some(answer(401, Some(A2A_JSON), body.as_bytes()))).await;
    let error = client_of(&server)
        .list_tasks(ListTasksRequest::new())
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::INVALID_REQUEST));
    assert_eq!(
        error.to_string(),
        "the agent answered InvalidRequestError (-32600): a bearer token is required \
         (HTTP 401 Unauthorized)"
    );
    assert!(!error.is_transient());
}

/// A server that answers everything with a 400 `FAILED_PRECONDITION` Status of `reason`.
async fn refusing(message: &'static str, reason: &'static str) -> Scripted {
    let body = status(400, "FAILED_PRECONDITION", message, Some(reason));
    Scripted::start(move |_, _| Some(answer(400, Some(A2A_JSON), body.as_bytes()))).await
}

fn client_of(server: &Scripted) -> A2aClient {
    client(server, None, fast())
}

#[tokio::test]
async fn unavailable_is_retried_other_bodies_are_http_errors() {
    // 503 with a Status body: transient, retried, then the last error.
    let body = status(503, "UNAVAILABLE", "overloaded", None);
    let server =
        Scripted::start(move |_, _| Some(answer(503, Some(A2A_JSON), body.as_bytes()))).await;
    let error = client_of(&server)
        .get_task(GetTaskRequest::new("t-1"))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Agent(_)), "{error:?}");
    assert!(error.is_transient());
    assert_eq!(server.seen().len(), 3);

    // A proxy's HTML page: an HTTP error, retried on 502, then an answer.
    let server = Scripted::start(|n, seen| {
        Some(match n {
            0 => answer(502, Some("text/html"), b"<html>bad gateway</html>"),
            _ => agent(seen),
        })
    })
    .await;
    let task = client_of(&server)
        .get_task(GetTaskRequest::new("t-1"))
        .await
        .unwrap();
    assert_eq!(task.id.as_ref(), "t-1");
    assert_eq!(server.seen().len(), 2);

    // JSON that is no Status (a framework's 404): an HTTP error with the body.
    let server = Scripted::start(|_, _| {
        Some(answer(
            404,
            Some("application/json"),
            br#"{"detail":"Not Found"}"#,
        ))
    })
    .await;
    let error = client_of(&server)
        .get_task(GetTaskRequest::new("t-1"))
        .await
        .unwrap_err();
    let Error::Http { status, body } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(*status, http::StatusCode::NOT_FOUND);
    assert_eq!(body, r#"{"detail":"Not Found"}"#);
}

#[tokio::test]
async fn decode_errors_name_the_field_without_an_envelope() {
    let server = Scripted::start(|_, _| {
        Some(answer(
            200,
            Some(A2A_JSON),
            br#"{"id":"t","status":{"state":"done"}}"#,
        ))
    })
    .await;
    let error = client_of(&server)
        .get_task(GetTaskRequest::new("t"))
        .await
        .unwrap_err();
    let Error::Decode(decode) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(decode.path(), "status.state");
}

#[tokio::test]
async fn sse_frames_are_bare_stream_responses() {
    let server = Scripted::start(|_, _| {
        Some(sse(concat!(
            ": ping\r\n\r\n",
            "id: 1\r\ndata: {\"task\":{\"id\":\"t-1\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\r\n\r\n",
            "id: 2\r\ndata: {\"artifactUpdate\":{\"taskId\":\"t-1\",\"contextId\":\"c\",\r\n",
            "data: \"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"hel\"}]}}}\r\n\r\n",
            "id: 3\ndata: {\"artifactUpdate\":{\"taskId\":\"t-1\",\"contextId\":\"c\",\"append\":true,\"lastChunk\":true,\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"lo\"}]}}}\n\n",
            "id: 4\ndata: {\"statusUpdate\":{\"taskId\":\"t-1\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}\n\n",
        ).as_bytes()))
    })
    .await;
    let client = client_of(&server);
    let mut stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    let mut seen = Vec::new();
    while let Some(event) = stream.next().await {
        seen.push(match event.unwrap() {
            StreamResponse::Task(task) => format!("task:{}", task.status.state),
            StreamResponse::ArtifactUpdate(update) => format!("chunk:{}", update.artifact.text()),
            StreamResponse::StatusUpdate(update) => format!("status:{}", update.status.state),
            other => format!("{other:?}"),
        });
    }
    assert_eq!(
        seen,
        [
            "task:TASK_STATE_WORKING",
            "chunk:hel",
            "chunk:lo",
            "status:TASK_STATE_COMPLETED"
        ]
    );
    assert_eq!(stream.last_event_id(), Some("4"));
    assert_eq!(stream.reconnects(), 0);
}

#[tokio::test]
async fn stream_errors_before_and_during_the_stream() {
    // Before: a Status body.
    let server = refusing("task t-1 is done", "UNSUPPORTED_OPERATION").await;
    let error = client_of(&server)
        .subscribe_to_task(SubscribeToTaskRequest::new("t-1"))
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::UNSUPPORTED_OPERATION));

    // JSON where a stream was due.
    let server = Scripted::start(|_, _| Some(answer(200, Some(A2A_JSON), TASK.as_bytes()))).await;
    let error = client_of(&server)
        .subscribe_to_task(SubscribeToTaskRequest::new("t-1"))
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Protocol(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "protocol error: SubscribeToTask answered with `application/a2a+json` instead of an \
         event stream"
    );

    // During: a Status as an event ends the stream with the agent's error.
    let server = Scripted::start(|_, _| {
        Some(sse(concat!(
            "id: 1\ndata: {\"task\":{\"id\":\"t-1\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n",
            "event: error\ndata: {\"error\":{\"code\":500,\"status\":\"INTERNAL\",\"message\":\"boom\"}}\n\n",
        ).as_bytes()))
    })
    .await;
    let mut stream = client_of(&server)
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    assert!(stream.next().await.unwrap().is_ok());
    let error = stream.next().await.unwrap().unwrap_err();
    assert_eq!(error.code(), Some(ErrorCode::INTERNAL_ERROR));
    assert_eq!(
        error.to_string(),
        "the agent answered InternalError (-32603): boom"
    );
    assert!(stream.next().await.is_none());

    // An event that is no StreamResponse: a decode error that ends the stream.
    let server = Scripted::start(|_, _| Some(sse(b"data: {\"task\":{\"id\":7}}\n\n"))).await;
    let mut stream = client_of(&server)
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    let error = stream.next().await.unwrap().unwrap_err();
    assert!(
        matches!(&error, Error::Decode(d) if d.path() == "task.id"),
        "{error:?}"
    );
    assert!(stream.next().await.is_none());
    assert_eq!(server.seen().len(), 1);
}

/// A peer that serves `:subscribe` by `POST` only (the JS SDK's server reads
/// `GET /tasks/{id}:subscribe` as `GetTask` of the id `{id}:subscribe`): the `GET` answered 404
/// is sent once more as a bodiless `POST`, and the client subscribes to that agent by `POST`
/// from then on, every clone with it.
#[tokio::test]
async fn a_peer_that_subscribes_by_post_only() {
    let server = Scripted::start(|_, seen| {
        Some(match (seen.method.as_str(), seen.header("last-event-id")) {
            ("POST", None) => sse(format!("id: 3\ndata: {{\"task\":{TASK}}}\n\n").as_bytes()),
            ("POST", Some(_)) => sse(concat!(
                "id: 4\ndata: {\"statusUpdate\":{\"taskId\":\"t-1\",\"contextId\":\"c\",",
                "\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}\n\n"
            ).as_bytes()),
            _ => answer(
                404,
                Some("application/json"),
                br#"{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found: t-1:subscribe"}}"#,
            ),
        })
    })
    .await;
    let client = client_of(&server);
    let events = drain(
        client
            .subscribe_to_task(SubscribeToTaskRequest::new("t-1"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(events.len(), 1);
    let again = client.clone();
    let events = drain(
        again
            .subscribe_to_task_after(SubscribeToTaskRequest::new("t-1"), Some("3".into()))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(events.len(), 1);
    let seen: Vec<String> = server
        .seen()
        .iter()
        .map(|s| {
            format!(
                "{} {} body={:?} content-type={:?} last-event-id={:?}",
                s.method,
                s.path,
                s.body,
                s.header("content-type"),
                s.header("last-event-id")
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            r#"GET /a2a/tasks/t-1:subscribe body="" content-type=None last-event-id=None"#,
            r#"POST /a2a/tasks/t-1:subscribe body="" content-type=None last-event-id=None"#,
            r#"POST /a2a/tasks/t-1:subscribe body="" content-type=None last-event-id=Some("3")"#,
        ]
    );
}

/// A `GET` subscription answered 404, and the `POST` too: the call fails with the `GET`'s
/// error, and the client keeps subscribing by `GET`.
#[tokio::test]
async fn a_subscription_refused_both_ways_fails_with_the_get_s_error() {
    let server = Scripted::start(|_, seen| {
        Some(match seen.method.as_str() {
            "POST" => answer(405, None, b""),
            _ => answer(
                404,
                Some("application/json"),
                br#"{"error":{"code":404,"status":"NOT_FOUND","message":"task t-9 not found",
                "details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND",
                "domain":"a2a-protocol.org","metadata":{"taskId":"t-9"}}]}}"#,
            ),
        })
    })
    .await;
    let client = client_of(&server);
    for _ in 0..2 {
        let error = client
            .subscribe_to_task(SubscribeToTaskRequest::new("t-9"))
            .await
            .unwrap_err();
        common::assert_t9_not_found(&error, "task t-9 not found");
    }
    let methods: Vec<String> = server.seen().iter().map(|s| s.method.to_string()).collect();
    assert_eq!(methods, ["GET", "POST", "GET", "POST"]);
}

/// The first stream ends before the task's final event: the resumption is
/// `GET …/tasks/{id}:subscribe` with `Last-Event-ID`, under the tenant; a repeat is dropped.
#[tokio::test]
async fn resumption_over_rest_sends_last_event_id() {
    let server = Scripted::start(|n, seen| {
        Some(match n {
            0 => sse(concat!(
                "id: 1\ndata: {\"task\":{\"id\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}\n\n",
                "id: 2\ndata: {\"statusUpdate\":{\"taskId\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n",
            ).as_bytes()),
            _ => {
                assert_eq!(seen.header("last-event-id"), Some("2"));
                sse(concat!(
                    "id: 2\ndata: {\"statusUpdate\":{\"taskId\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n",
                    "id: 3\ndata: {\"statusUpdate\":{\"taskId\":\"t-7\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}\n\n",
                ).as_bytes())
            }
        })
    })
    .await;
    let client = client(&server, Some("acme"), fast());
    let stream = client
        .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
        .await
        .unwrap();
    let events = drain(stream).await;
    let states: Vec<String> = events
        .iter()
        .map(|e| match e {
            StreamResponse::Task(t) => format!("task:{}", t.status.state),
            StreamResponse::StatusUpdate(u) => format!("status:{}", u.status.state),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        states,
        [
            "task:TASK_STATE_SUBMITTED",
            "status:TASK_STATE_WORKING",
            "status:TASK_STATE_COMPLETED"
        ]
    );
    let seen = server.seen();
    assert_eq!(seen.len(), 2);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].path.as_str()),
        ("POST", "/a2a/acme/message:stream")
    );
    assert_eq!(
        line(&seen[1]),
        expect(
            "GET",
            "/a2a/acme/tasks/t-7:subscribe",
            None,
            "text/event-stream",
            ""
        )
    );
}

/// A server that cannot replay a finished task answers the resumption with
/// UnsupportedOperation: the stream ends with the task as GetTask returns it.
#[tokio::test]
async fn a_finished_task_without_replay_ends_with_its_final_state_over_rest() {
    let server = Scripted::start(|n, seen| {
        Some(match n {
            0 => sse(
                b"data: {\"task\":{\"id\":\"t-8\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n",
            ),
            1 => {
                assert_eq!(seen.header("last-event-id"), None);
                assert_eq!(seen.path, "/a2a/tasks/t-8:subscribe");
                answer(
                    400,
                    Some(A2A_JSON),
                    status(400, "FAILED_PRECONDITION", "t-8 is done", Some("UNSUPPORTED_OPERATION"))
                        .as_bytes(),
                )
            }
            _ => {
                assert_eq!((seen.method.as_str(), seen.path.as_str()), ("GET", "/a2a/tasks/t-8"));
                answer(
                    200,
                    Some(A2A_JSON),
                    br#"{"id":"t-8","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}"#,
                )
            }
        })
    })
    .await;
    let events = drain(
        client_of(&server)
            .send_streaming_message(SendMessageRequest::new(Message::user_text("x")))
            .await
            .unwrap(),
    )
    .await;
    let states: Vec<TaskState> = events
        .iter()
        .map(|e| match e {
            StreamResponse::Task(t) => t.status.state,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(states, [TaskState::Working, TaskState::Completed]);
    assert_eq!(server.seen().len(), 3);
}
