//! The operations on the core types, without a wire: lifecycle, blocking, streaming, cancel,
//! follow-ups, listing and ownership.

use std::time::Duration;

use a2a_server::agent::{AgentError, agent_fn};
use a2a_server::auth::Principal;
use a2a_server::handler::{CallContext, RequestHandler, StreamEvent};
use a2a_server::store::InMemoryTaskStore;
use a2a_server::{A2aError, HandlerConfig};
use a2a_types::v1::*;
use futures_util::StreamExt as _;
use pretty_assertions::assert_eq;

fn card() -> AgentCard {
    AgentCard::new("test", "test agent", "1.0.0")
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain"])
        .with_default_output_modes(["text/plain"])
}

fn send(text: &str) -> SendMessageRequest {
    SendMessageRequest::new(Message::new(
        MessageId::random(),
        Role::User,
        vec![Part::text(text)],
    ))
}

/// Echo: working, an artifact with the text, completed. "ask" asks for input first;
/// "hello" answers with a direct message; "boom" errors; "panic" panics; "slow" waits for cancel.
fn handler_with(config: HandlerConfig) -> RequestHandler {
    let agent = agent_fn(|ctx, sink| async move {
        let text = ctx.text();
        match text.as_str() {
            "hello" => {
                sink.reply(sink.message(vec![Part::text("hi!")])).await?;
                return Ok(());
            }
            "boom" => return Err(AgentError::new("boom went the agent")),
            "panic" => panic!("agent panic"),
            "ask" if ctx.task.is_none() => {
                sink.input_required("which city?").await?;
                return Ok(());
            }
            "ask-then-linger" if ctx.task.is_none() => {
                sink.input_required("which city?").await?;
                // Still running when the client answers.
                tokio::time::sleep(Duration::from_millis(200)).await;
                return Ok(());
            }
            "nothing" => return Ok(()),
            // Echo, after a pause before its first event.
            "late" => tokio::time::sleep(Duration::from_millis(100)).await,
            "slow" => {
                sink.working(None).await?;
                ctx.cancelled().await;
                return Ok(());
            }
            "stubborn" => {
                sink.working(None).await?;
                tokio::time::sleep(Duration::from_secs(3600)).await;
                return Ok(());
            }
            _ => {}
        }
        sink.working(None).await?;
        sink.artifact(Artifact::new("echo", vec![Part::text(text)]))
            .await?;
        sink.complete(None).await?;
        Ok(())
    });
    a2a_server::A2aService::builder(agent, card())
        .store(InMemoryTaskStore::new())
        .handler_config(config)
        .build()
        .handler()
        .clone()
}

fn handler() -> RequestHandler {
    handler_with(HandlerConfig::default().with_cancel_grace(Duration::from_millis(100)))
}

fn task_of(r: SendMessageResponse) -> Task {
    match r {
        SendMessageResponse::Task(t) => t,
        other => panic!("expected a task, got {other:?}"),
    }
}

#[tokio::test]
async fn blocking_send_returns_the_completed_task() {
    let h = handler();
    let task = task_of(
        h.send_message(send("ping"), &CallContext::new())
            .await
            .unwrap(),
    );
    assert_eq!(task.status.state, TaskState::Completed);
    assert_eq!(task.artifacts.len(), 1);
    assert_eq!(task.artifacts[0].text(), "ping");
    assert_eq!(task.history.len(), 1);
    assert_eq!(task.history[0].task_id.as_ref(), Some(&task.id));
    assert_eq!(task.history[0].context_id, task.context_id);
}

/// When a blocking call is dropped before its agent's first event (a timeout, a client gone),
/// the agent still runs to its end and its task is kept.
#[tokio::test]
async fn an_agent_outlives_its_blocking_call() {
    let h = handler();
    let call = CallContext::new();
    let gave_up = tokio::time::timeout(
        Duration::from_millis(10),
        h.send_message(send("late"), &call),
    )
    .await;
    assert!(
        gave_up.is_err(),
        "the call waits for the agent's first event"
    );
    let mut tasks = Vec::new();
    for _ in 0..200 {
        tasks = h
            .list_tasks(ListTasksRequest::new().with_include_artifacts(true), &call)
            .await
            .unwrap()
            .tasks;
        if tasks
            .first()
            .is_some_and(|t| t.status.state == TaskState::Completed)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0].status.state, TaskState::Completed);
    assert_eq!(tasks[0].artifacts[0].text(), "late");
}

#[tokio::test]
async fn context_id_is_kept_when_given() {
    let h = handler();
    let mut req = send("ping");
    req.message.context_id = Some("my-context".into());
    let task = task_of(h.send_message(req, &CallContext::new()).await.unwrap());
    assert_eq!(task.context_id.unwrap(), "my-context");
}

#[tokio::test]
async fn direct_reply_is_a_message_and_no_task() {
    let h = handler();
    match h
        .send_message(send("hello"), &CallContext::new())
        .await
        .unwrap()
    {
        SendMessageResponse::Message(m) => {
            assert_eq!(m.text(), "hi!");
            assert_eq!(m.role, Role::Agent);
        }
        other => panic!("expected a message, got {other:?}"),
    }
    let list = h
        .list_tasks(ListTasksRequest::new(), &CallContext::new())
        .await
        .unwrap();
    assert_eq!(list.total_size, 0);
}

#[tokio::test]
async fn agent_errors_and_panics_fail_the_task() {
    let h = handler();
    let task = task_of(
        h.send_message(send("boom"), &CallContext::new())
            .await
            .unwrap(),
    );
    assert_eq!(task.status.state, TaskState::Failed);
    assert_eq!(task.status.message.unwrap().text(), "boom went the agent");
    let task = task_of(
        h.send_message(send("panic"), &CallContext::new())
            .await
            .unwrap(),
    );
    assert_eq!(task.status.state, TaskState::Failed);
    assert_eq!(
        task.status.message.unwrap().text(),
        "the agent panicked: agent panic"
    );
    // Still serving.
    let task = task_of(
        h.send_message(send("ok"), &CallContext::new())
            .await
            .unwrap(),
    );
    assert_eq!(task.status.state, TaskState::Completed);
}

#[tokio::test]
async fn multi_turn_follow_up() {
    let h = handler();
    let call = CallContext::new();
    let task = task_of(h.send_message(send("ask"), &call).await.unwrap());
    assert_eq!(task.status.state, TaskState::InputRequired);
    assert_eq!(task.status.message.as_ref().unwrap().text(), "which city?");

    let mut follow = send("Paris");
    follow.message.task_id = Some(task.id.clone());
    let done = task_of(h.send_message(follow, &call).await.unwrap());
    assert_eq!(done.id, task.id);
    assert_eq!(done.status.state, TaskState::Completed);
    assert_eq!(done.artifacts[0].text(), "Paris");
    let texts: Vec<String> = done.history.iter().map(Message::text).collect();
    assert_eq!(texts, ["ask", "which city?", "Paris"]);

    // A message to a terminal task is UnsupportedOperation; to an unknown one TaskNotFound.
    let mut late = send("again");
    late.message.task_id = Some(task.id.clone());
    assert_eq!(
        h.send_message(late, &call).await.unwrap_err().code().code(),
        -32004
    );
    let mut unknown = send("x");
    unknown.message.task_id = Some("nope".into());
    assert_eq!(
        h.send_message(unknown, &call).await.unwrap_err(),
        A2aError::task_not_found("nope")
    );
}

#[tokio::test]
async fn a_follow_up_may_arrive_before_the_previous_turn_returned() {
    let h = handler();
    let call = CallContext::new();
    let task = task_of(
        h.send_message(send("ask-then-linger"), &call)
            .await
            .unwrap(),
    );
    assert_eq!(task.status.state, TaskState::InputRequired);
    let mut follow = send("Paris");
    follow.message.task_id = Some(task.id.clone());
    let done = task_of(h.send_message(follow, &call).await.unwrap());
    assert_eq!(done.status.state, TaskState::Completed);
    // The lingering first turn ends later and must not touch the task.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = h
        .get_task(GetTaskRequest::new(task.id.clone()), &call)
        .await
        .unwrap();
    assert_eq!(after.status, done.status);
}

#[tokio::test]
async fn a_follow_up_turn_that_reports_nothing_still_ends() {
    let h = handler();
    let call = CallContext::new();
    let task = task_of(h.send_message(send("ask"), &call).await.unwrap());
    let mut follow = send("nothing");
    follow.message.task_id = Some(task.id.clone());
    let again = task_of(h.send_message(follow, &call).await.unwrap());
    assert_eq!(again.status.state, TaskState::InputRequired);
    assert_eq!(again.history.len(), 3);
}

#[tokio::test]
async fn a_streamed_follow_up_runs_until_the_answer_ends() {
    let h = handler();
    let call = CallContext::new();
    let task = task_of(h.send_message(send("ask"), &call).await.unwrap());
    // A subscriber on the waiting task stays through the interrupted state.
    let subscription = h.subscribe_to_task(&task.id, None, &call).await.unwrap();
    let mut follow = send("Paris");
    follow.message.task_id = Some(task.id.clone());
    let streamed = collect(h.send_streaming_message(follow, &call).await.unwrap()).await;
    let states: Vec<String> = streamed
        .iter()
        .map(|e| match &e.event {
            StreamResponse::Task(t) => format!("task:{}", t.status.state),
            StreamResponse::StatusUpdate(u) => format!("status:{}", u.status.state),
            StreamResponse::ArtifactUpdate(_) => "artifact".to_owned(),
            StreamResponse::Message(_) => "message".to_owned(),
            _ => "other".to_owned(),
        })
        .collect();
    assert_eq!(
        states,
        [
            "task:TASK_STATE_INPUT_REQUIRED",
            "status:TASK_STATE_WORKING",
            "artifact",
            "status:TASK_STATE_COMPLETED"
        ]
    );
    let subscribed = collect(subscription).await;
    assert_eq!(subscribed.len(), 4);
    assert_eq!(subscribed[3].event, streamed[3].event);
}

#[tokio::test]
async fn mismatched_context_is_rejected() {
    let h = handler();
    let call = CallContext::new();
    let task = task_of(h.send_message(send("ask"), &call).await.unwrap());
    let mut follow = send("Paris");
    follow.message.task_id = Some(task.id.clone());
    follow.message.context_id = Some("other".into());
    let err = h.send_message(follow, &call).await.unwrap_err();
    assert_eq!(err.code().code(), -32602);
}

#[tokio::test]
async fn return_immediately_then_poll() {
    let h = handler();
    let call = CallContext::new();
    let mut req = send("slow");
    req.configuration = Some(SendMessageConfiguration::default().with_return_immediately(true));
    let task = task_of(h.send_message(req, &call).await.unwrap());
    assert!(!task.status.state.is_terminal());
    let canceled = h
        .cancel_task(CancelTaskRequest::new(task.id.clone()), &call)
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
    // Idempotent.
    let again = h
        .cancel_task(CancelTaskRequest::new(task.id.clone()), &call)
        .await
        .unwrap();
    assert_eq!(again.status.state, TaskState::Canceled);
}

#[tokio::test]
async fn cancel_ends_a_stubborn_agent_after_the_grace_period() {
    let h = handler();
    let call = CallContext::new();
    let mut req = send("stubborn");
    req.configuration = Some(SendMessageConfiguration::default().with_return_immediately(true));
    let task = task_of(h.send_message(req, &call).await.unwrap());
    let canceled = h
        .cancel_task(CancelTaskRequest::new(task.id.clone()), &call)
        .await
        .unwrap();
    assert_eq!(canceled.status.state, TaskState::Canceled);
}

#[tokio::test]
async fn completed_tasks_are_not_cancelable() {
    let h = handler();
    let call = CallContext::new();
    let task = task_of(h.send_message(send("x"), &call).await.unwrap());
    assert_eq!(
        h.cancel_task(CancelTaskRequest::new(task.id.clone()), &call)
            .await
            .unwrap_err(),
        A2aError::task_not_cancelable(task.id, TaskState::Completed)
    );
}

async fn collect(stream: a2a_server::handler::EventStream) -> Vec<StreamEvent> {
    stream.map(|r| r.unwrap()).collect().await
}

#[tokio::test]
async fn streaming_sends_the_task_then_its_events() {
    let h = handler();
    let events = collect(
        h.send_streaming_message(send("ping"), &CallContext::new())
            .await
            .unwrap(),
    )
    .await;
    let kinds: Vec<(Option<u64>, &str)> = events
        .iter()
        .map(|e| {
            let kind = match &e.event {
                StreamResponse::Task(t) => match t.status.state {
                    TaskState::Submitted => "task:submitted",
                    _ => "task:other",
                },
                StreamResponse::StatusUpdate(u) => match u.status.state {
                    TaskState::Working => "status:working",
                    TaskState::Completed => "status:completed",
                    _ => "status:other",
                },
                StreamResponse::ArtifactUpdate(_) => "artifact",
                _ => "message",
            };
            (e.seq, kind)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (Some(1), "task:submitted"),
            (Some(2), "status:working"),
            (Some(3), "artifact"),
            (Some(4), "status:completed")
        ]
    );
}

#[tokio::test]
async fn streaming_a_direct_reply_is_one_message() {
    let h = handler();
    let events = collect(
        h.send_streaming_message(send("hello"), &CallContext::new())
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(events.len(), 1);
    assert!(matches!(events[0].event, StreamResponse::Message(_)));
    assert_eq!(events[0].seq, None);
}

#[tokio::test]
async fn subscribe_resumes_after_last_event_id() {
    let h = handler();
    let call = CallContext::new();
    let task = task_of(h.send_message(send("ping"), &call).await.unwrap());
    // Terminal: a fresh subscription is refused...
    let Err(err) = h.subscribe_to_task(&task.id, None, &call).await else {
        panic!("subscribing to a terminal task must fail")
    };
    assert_eq!(err.code().code(), -32004);
    // ...but a resume that missed events gets exactly those.
    let events = collect(h.subscribe_to_task(&task.id, Some(2), &call).await.unwrap()).await;
    assert_eq!(
        events.iter().map(|e| e.seq.unwrap()).collect::<Vec<_>>(),
        [3, 4]
    );
}

#[tokio::test]
async fn tasks_belong_to_their_principal() {
    let h = handler();
    let alice = CallContext::new().with_principal(Some(Principal::new("alice")));
    let bob = CallContext::new().with_principal(Some(Principal::new("bob")));
    let task = task_of(h.send_message(send("x"), &alice).await.unwrap());
    assert_eq!(
        h.get_task(GetTaskRequest::new(task.id.clone()), &bob)
            .await
            .unwrap_err(),
        A2aError::task_not_found(task.id.clone())
    );
    assert_eq!(
        h.list_tasks(ListTasksRequest::new(), &bob)
            .await
            .unwrap()
            .total_size,
        0
    );
    assert_eq!(
        h.list_tasks(ListTasksRequest::new(), &alice)
            .await
            .unwrap()
            .total_size,
        1
    );
}

#[tokio::test]
async fn list_pages_newest_first_and_stays_correct_during_inserts() {
    let h = handler();
    let call = CallContext::new();
    let mut ids = Vec::new();
    for i in 0..5 {
        ids.push(task_of(h.send_message(send(&format!("t{i}")), &call).await.unwrap()).id);
    }
    let page1 = h
        .list_tasks(ListTasksRequest::new().with_page_size(2), &call)
        .await
        .unwrap();
    assert_eq!(
        page1.tasks.iter().map(|t| t.id.clone()).collect::<Vec<_>>(),
        [ids[4].clone(), ids[3].clone()]
    );
    assert_eq!((page1.page_size, page1.total_size), (2, 5));
    assert!(page1.tasks.iter().all(|t| t.artifacts.is_empty()));
    // A task inserted between pages does not shift the next page.
    h.send_message(send("new"), &call).await.unwrap();
    let page2 = h
        .list_tasks(
            ListTasksRequest::new()
                .with_page_size(2)
                .with_page_token(page1.next_page_token.clone()),
            &call,
        )
        .await
        .unwrap();
    assert_eq!(
        page2.tasks.iter().map(|t| t.id.clone()).collect::<Vec<_>>(),
        [ids[2].clone(), ids[1].clone()]
    );
    let page3 = h
        .list_tasks(
            ListTasksRequest::new()
                .with_page_size(2)
                .with_page_token(page2.next_page_token.clone())
                .with_include_artifacts(true),
            &call,
        )
        .await
        .unwrap();
    assert_eq!(
        page3.tasks.iter().map(|t| t.id.clone()).collect::<Vec<_>>(),
        [ids[0].clone()]
    );
    assert_eq!(page3.next_page_token, "");
    assert_eq!(page3.tasks[0].artifacts.len(), 1);
    let err = h
        .list_tasks(ListTasksRequest::new().with_page_token("garbage"), &call)
        .await
        .unwrap_err();
    assert_eq!(err.code().code(), -32602);
    let err = h
        .list_tasks(ListTasksRequest::new().with_page_size(0), &call)
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid params: pageSize must be between 1 and 100, got 0"
    );
}

#[tokio::test]
async fn content_types_outside_the_input_modes_are_refused() {
    let h = handler();
    let mut req = send("x");
    req.message
        .parts
        .push(Part::raw(vec![1, 2]).with_media_type("image/png"));
    let err = h.send_message(req, &CallContext::new()).await.unwrap_err();
    assert_eq!(err.code().code(), -32005);
    assert_eq!(
        err.to_string(),
        "media type `image/png` is not supported; the agent accepts text/plain"
    );
}

#[tokio::test]
async fn push_and_extended_card_are_off() {
    let h = handler();
    let call = CallContext::new();
    let err = h
        .create_push_config(
            TaskPushNotificationConfig::new("https://x").with_task_id("t"),
            &call,
        )
        .await
        .unwrap_err();
    assert_eq!(err, A2aError::push_notification_not_supported());
    let err = h
        .get_extended_agent_card(GetExtendedAgentCardRequest::new(), &call)
        .await
        .unwrap_err();
    assert_eq!(err.code().code(), -32004);
}

/// `call` and `open` run the operations as values; the tenant a request names scopes its call
/// (and only then: a request without one keeps the call context's).
#[tokio::test]
async fn operations_as_values_scoped_by_the_tenant_they_name() {
    use a2a_types::protocol::{Reply, Request, StreamRequest};

    let h = handler();
    let anonymous = CallContext::new();
    let sent = h
        .call(Request::from(send("ping").with_tenant("acme")), &anonymous)
        .await
        .unwrap();
    let task = task_of(SendMessageResponse::try_from(sent).unwrap());
    // Read in its tenant: by the request's field, or by the call context's.
    let get = |tenant: Option<&str>| {
        let mut request = GetTaskRequest::new(task.id.clone());
        request.tenant = tenant.map(str::to_owned);
        Request::from(request)
    };
    let found = h.call(get(Some("acme")), &anonymous).await.unwrap();
    assert_eq!(Task::try_from(found).unwrap().id, task.id);
    let in_acme = CallContext::new().with_tenant(Some("acme".to_owned()));
    assert!(matches!(
        h.call(get(None), &in_acme).await.unwrap(),
        Reply::Task(_)
    ));
    // Outside it, the task does not exist.
    let error = h.call(get(None), &anonymous).await.unwrap_err();
    assert_eq!(error.message(), format!("task {} not found", task.id));
    let error = h.call(get(Some("beta")), &in_acme).await.unwrap_err();
    assert_eq!(error.message(), format!("task {} not found", task.id));
    // A stream, resumed after the task's first event: the events after it, to the end.
    let mut subscribe = SubscribeToTaskRequest::new(task.id.clone());
    subscribe.tenant = Some("acme".to_owned());
    let events: Vec<StreamEvent> = h
        .open(StreamRequest::from(subscribe), Some(1), &anonymous)
        .await
        .unwrap()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(events.first().and_then(|e| e.seq), Some(2));
    assert!(matches!(
        events.last().map(|e| &e.event),
        Some(StreamResponse::StatusUpdate(update)) if update.status.state == TaskState::Completed
    ));
    let refused = h
        .open(
            StreamRequest::from(SubscribeToTaskRequest::new(task.id.clone())),
            None,
            &anonymous,
        )
        .await;
    assert!(refused.is_err(), "another tenant's task");
}
