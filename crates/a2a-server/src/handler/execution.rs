//! Running the agent: `SendMessage`, `SendStreamingMessage`, and the task writer behind an
//! [`EventSink`](crate::agent::EventSink).

use a2a_types::protocol::Operation;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_types::protocol::ProtocolVersion;
use a2a_types::trace::TraceContext;
use a2a_types::v1::{
    ContextId, Message, Role, SendMessageRequest, SendMessageResponse, StreamResponse, Task,
    TaskId, TaskPushNotificationConfig, TaskState, TaskStatus,
};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use super::expiry::Expiry;
use super::subscribe::log_stream;
use super::{
    CallContext, EventStream, Execution, FinalSlot, RequestHandler, Running, StreamEvent,
    check_history_length, final_observer, lifecycle, lock,
};
use crate::agent::{AgentEvent, EventSink, EventTarget, RequestContext, SinkError};
use crate::error::A2aError;
use crate::store::{Owner, TaskEdit, TaskPin, TaskStore, task_bytes};

/// How the first event of a new request went, for the caller waiting in `start`.
enum First {
    /// The agent answered with a direct message.
    Reply(Message),
    /// The task was created.
    Task,
    /// The store refused the task.
    Refused(A2aError),
}

/// The longest failure text the server writes into a task's status message.
const MAX_FAILURE_TEXT: usize = 4096;

impl RequestHandler {
    /// `SendMessage`: starts or continues a task and answers with the task (when it is
    /// terminal or interrupted, or at once with `returnImmediately`) or with a direct message.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, fields(a2a.method = "SendMessage", a2a.task_id = tracing::field::Empty, a2a.context_id = tracing::field::Empty))]
    pub async fn send_message(
        &self,
        req: SendMessageRequest,
        call: &CallContext,
    ) -> Result<SendMessageResponse, A2aError> {
        self.authorize(Operation::SendMessage, call)?;
        self.authorize_skill(&req, call)?;
        let history_length = req.configuration.as_ref().and_then(|c| c.history_length);
        let return_immediately = req
            .configuration
            .as_ref()
            .is_some_and(|c| c.return_immediately);
        let answer =
            |task: Task| SendMessageResponse::Task(lifecycle::present(task, history_length, true));
        // Boxed: `start`'s state is most of this call's, and the call's future is moved by value
        // a few times on its way into hyper's task (each move a copy of all of it).
        let started = Box::pin(self.start(req, call, !return_immediately)).await?;
        let (task_id, after, final_task) = match started {
            Started::Replied(message) => return Ok(SendMessageResponse::Message(message)),
            Started::Task {
                task_id,
                after,
                final_task,
            } => (task_id, after, final_task),
        };
        if return_immediately {
            let task = self.load_visible(&task_id, call).await?;
            return Ok(answer(task));
        }
        // Blocking: the update that makes the task final (terminal or interrupted) hands it
        // over, so the answer never depends on the task still being stored.
        let _pin = self.inner.store.pin(&task_id).await?;
        if let Some(final_task) = final_task
            && let Ok(task) = final_task.await
        {
            return Ok(answer(task));
        }
        // The execution ended without making the task final (a newer one took it over): wait
        // for a final state reached after this message, reading only the state meanwhile.
        let mut seen = after;
        loop {
            let progress = self
                .inner
                .store
                .progress(&task_id)
                .await?
                .ok_or_else(|| A2aError::task_not_found(task_id.clone()))?;
            if progress.last_seq > after && progress.state.is_final() {
                let task = self.load_visible(&task_id, call).await?;
                return Ok(answer(task));
            }
            seen = seen.max(progress.last_seq);
            self.inner.store.wait(&task_id, seen).await?;
        }
    }

    /// `SendStreamingMessage`: the task first, then its events until a terminal or interrupted
    /// state; or a single message for a direct reply.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, fields(a2a.method = "SendStreamingMessage", a2a.task_id = tracing::field::Empty, a2a.context_id = tracing::field::Empty))]
    pub async fn send_streaming_message(
        &self,
        req: SendMessageRequest,
        call: &CallContext,
    ) -> Result<EventStream, A2aError> {
        self.authorize(Operation::SendStreamingMessage, call)?;
        self.streaming_supported()?;
        self.authorize_skill(&req, call)?;
        let history_length = req.configuration.as_ref().and_then(|c| c.history_length);
        match Box::pin(self.start(req, call, false)).await? {
            Started::Replied(message) => {
                let item = Ok(StreamEvent {
                    seq: None,
                    event: StreamResponse::Message(message),
                });
                Ok(Box::pin(futures_util::stream::iter([item])))
            }
            Started::Task { task_id, after, .. } => {
                let not_found = || A2aError::task_not_found(task_id.clone());
                let pin = self
                    .inner
                    .store
                    .pin(&task_id)
                    .await?
                    .ok_or_else(not_found)?;
                // The first event is the task as it stood when this message was accepted (for
                // a new task, the first event of its log); what happened since then follows
                // from the log.
                let first = if after == 0 {
                    self.inner
                        .store
                        .read_log(&task_id, 0, 1)
                        .await?
                        .pop()
                        .ok_or_else(not_found)?
                        .event
                } else {
                    let stored = self
                        .inner
                        .store
                        .load(&task_id)
                        .await?
                        .ok_or_else(not_found)?;
                    StreamResponse::Task(stored.task)
                };
                let first = match first {
                    StreamResponse::Task(task) => {
                        StreamResponse::Task(lifecycle::present(task, history_length, true))
                    }
                    other => other,
                };
                let snapshot_seq = after.max(1);
                Ok(log_stream(
                    self.inner.store.clone(),
                    task_id,
                    snapshot_seq,
                    Some(StreamEvent {
                        seq: Some(snapshot_seq),
                        event: first,
                    }),
                    pin,
                ))
            }
        }
    }

    /// Validates a send, records the message and starts the agent. With `blocking`, the
    /// update that makes the task final hands it to the returned receiver.
    async fn start(
        &self,
        req: SendMessageRequest,
        call: &CallContext,
        blocking: bool,
    ) -> Result<Started, A2aError> {
        let SendMessageRequest {
            mut message,
            configuration,
            metadata,
            ..
        } = req;
        if message.message_id.is_empty() {
            return Err(A2aError::invalid_params(
                "message.messageId is required".to_owned(),
            ));
        }
        if message.parts.is_empty() {
            return Err(A2aError::invalid_params(
                "message.parts must hold at least one part".to_owned(),
            ));
        }
        if message.role == Role::Agent {
            return Err(A2aError::invalid_params(
                "message.role must be ROLE_USER".to_owned(),
            ));
        }
        check_history_length(
            configuration.as_ref().and_then(|c| c.history_length),
            "configuration.historyLength",
        )?;
        let push_config = configuration
            .as_ref()
            .and_then(|c| c.task_push_notification_config.clone());
        if push_config.is_some() {
            self.push_supported()?;
        }
        self.check_extensions(call)?;
        self.check_content_types(&message)?;
        message.role = Role::User;

        let max_task_bytes = self.inner.config.max_task_bytes;
        let cancel = self.inner.shutdown.child_token();
        let (final_tx, final_rx) = if blocking {
            let (tx, rx) = oneshot::channel();
            (Some(tx), Some(rx))
        } else {
            (None, None)
        };
        let final_slot: FinalSlot = Arc::new(Mutex::new(final_tx));
        let execution = Execution {
            id: self
                .inner
                .next_execution
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            cancel: cancel.clone(),
            final_task: final_slot.clone(),
        };
        let execution_id = execution.id;
        // The task this message continues, if any: by the id it names; with client-chosen ids
        // (A2A 0.1), an id no task has starts a new task under it.
        let continued = match message.task_id.clone() {
            Some(task_id) if call.client_task_ids => self
                .client_task(&task_id, call)
                .await?
                .map(|task| (task_id, task)),
            Some(task_id) => {
                let task = self.load_visible(&task_id, call).await?;
                Some((task_id, task))
            }
            None => None,
        };
        let (task_id, context_id, existing, after, pin, initial) = match continued {
            Some((task_id, task)) => {
                let push_config = match push_config {
                    Some(config) => Some(self.checked_push_config(config, &task_id).await?),
                    None => None,
                };
                let state = task.status.state;
                if state.is_terminal() {
                    return Err(terminal_task(&task_id, state));
                }
                let context_id = task.context_id.clone().unwrap_or_default();
                if let Some(given) = &message.context_id
                    && *given != context_id
                {
                    return Err(A2aError::invalid_params(format!(
                        "message.contextId `{given}` does not match the contextId `{context_id}` of task {task_id}"
                    )));
                }
                message.context_id = Some(context_id.clone());
                let recorded = TaskEdit::Message(message.clone());
                let bytes = recorded.bytes();
                if bytes > max_task_bytes {
                    return Err(message_too_large(bytes, max_task_bytes));
                }
                // The execution holds the task from here on.
                let pin = self
                    .inner
                    .store
                    .pin(&task_id)
                    .await?
                    .ok_or_else(|| A2aError::task_not_found(task_id.clone()))?;
                // Held until the execution is registered: an earlier execution finishing its
                // turn meanwhile waits, so that it sees this one as the task's current one.
                let turn = self.inner.turns.lock(&task_id).await;
                let busy = self.running().contains_key(&task_id);
                let mut refused = None;
                let outcome = self
                    .inner
                    .store
                    .update(
                        &task_id,
                        Box::new(|task: &Task, room| {
                            refused = None;
                            let state = task.status.state;
                            if state.is_terminal() {
                                refused = Some(terminal_task(&task.id, state));
                                return None;
                            }
                            if !state.is_interrupted() && busy {
                                refused = Some(A2aError::unsupported_operation(format!(
                                    "task {} is still being worked on; wait until it asks for input, or cancel it",
                                    task.id
                                )));
                                return None;
                            }
                            if let Err(limit) = lifecycle::check_room(room, bytes, max_task_bytes)
                            {
                                refused = Some(A2aError::unsupported_operation(format!(
                                    "task {} cannot take this message of {bytes} bytes: {limit}",
                                    task.id
                                )));
                                return None;
                            }
                            Some(recorded.clone())
                        }),
                        None,
                    )
                    .await?
                    .ok_or_else(|| A2aError::task_not_found(task_id.clone()))?;
                if let Some(err) = refused {
                    return Err(err);
                }
                self.running().insert(task_id.clone(), execution);
                self.inner.expiry.forget(&task_id);
                drop(turn);
                // Registered with the message accepted: the events of this turn reach it.
                if let Some(config) = push_config {
                    self.inner
                        .store
                        .put_push_config(config, call.protocol_version)
                        .await?;
                }
                (
                    task_id,
                    context_id,
                    Some(task),
                    outcome.last_seq,
                    Some(pin),
                    None,
                )
            }
            None => {
                let task_id = message.task_id.clone().unwrap_or_else(TaskId::random);
                let context_id = message.context_id.clone().unwrap_or_else(ContextId::random);
                message.task_id = Some(task_id.clone());
                message.context_id = Some(context_id.clone());
                let initial = Task::new(
                    task_id.clone(),
                    context_id.clone(),
                    TaskStatus::now(TaskState::Submitted),
                )
                .with_history([message.clone()]);
                let bytes = task_bytes(&initial);
                if bytes > max_task_bytes {
                    return Err(message_too_large(bytes, max_task_bytes));
                }
                let push_config = match push_config {
                    Some(config) => Some(self.checked_push_config(config, &task_id).await?),
                    None => None,
                };
                // Refused here, before the agent runs, when the store is full; `create` still
                // decides when the first event comes.
                self.inner.store.check_room(&call.owner(), bytes).await?;
                {
                    let mut running = self.running();
                    // Only a client-chosen id can be taken: by a send of it still starting.
                    if running.contains_key(&task_id) {
                        return Err(super::task_id_unavailable(&task_id));
                    }
                    running.insert(task_id.clone(), execution);
                }
                (
                    task_id,
                    context_id,
                    None,
                    0,
                    None,
                    Some((Box::new(initial), push_config)),
                )
            }
        };

        let is_new = existing.is_none();
        let (first_tx, first_rx) = oneshot::channel();
        let writer = Arc::new(TaskWriter {
            store: self.inner.store.clone(),
            task_id: task_id.clone(),
            owner: call.owner(),
            protocol_version: call.protocol_version,
            phase: tokio::sync::Mutex::new(if is_new {
                Phase::Pending(initial)
            } else {
                Phase::Created
            }),
            first: Mutex::new(Some(first_tx)),
            cancel: cancel.clone(),
            running: self.inner.running.clone(),
            turns: self.inner.turns.clone(),
            execution_id,
            emitted: std::sync::atomic::AtomicUsize::new(0),
            max_task_bytes,
            final_task: final_slot,
            pin: Mutex::new(pin),
            expiry: self.inner.expiry.clone(),
        });
        let ctx = RequestContext {
            message,
            task_id: task_id.clone(),
            context_id: context_id.clone(),
            task: existing,
            principal: call.principal.clone(),
            extensions: call.extensions.clone(),
            configuration,
            metadata,
            cancel: cancel.clone(),
            trace: Some(match &call.trace {
                Some(trace) => trace.child(),
                None => TraceContext::new_root(),
            }),
        };
        // The calling operation's span names the task it started or continued.
        tracing::Span::current()
            .record("a2a.task_id", tracing::field::display(&task_id))
            .record("a2a.context_id", tracing::field::display(&context_id));
        let trace = ctx.trace.clone();
        #[cfg(feature = "push")]
        if let (Some(pusher), Some(trace)) = (self.pusher(), &trace) {
            pusher.remember_trace(&task_id, trace);
        }
        let sink = EventSink {
            target: writer.clone(),
            task_id: task_id.clone(),
            context_id,
        };
        let handler = self.clone();
        let span = tracing::info_span!(
            "a2a.agent",
            a2a.task_id = %task_id,
            a2a.context_id = %sink.context_id,
            trace_id = trace.as_ref().map(TraceContext::trace_id_hex).unwrap_or_default(),
            span_id = trace.as_ref().map(TraceContext::span_id_hex).unwrap_or_default(),
            a2a.state = tracing::field::Empty,
        );
        let follow = self
            .inner
            .config
            .shared_store
            .then(|| follow_task(self.inner.store.clone(), task_id.clone(), cancel));
        tokio::spawn(
            async move {
                let agent = handler.inner.agent.clone();
                // The agent runs in this task; a panic in it is caught here (a second task
                // just to catch panics cost a spawn and a cross-task wake per request).
                let run = std::panic::AssertUnwindSafe(agent.execute_boxed(ctx, sink));
                let run = futures_util::FutureExt::catch_unwind(run);
                let ran = match follow {
                    None => run.await,
                    Some(follow) => tokio::select! {
                        ran = run => ran,
                        never = follow => match never {},
                    },
                };
                let outcome = match ran {
                    Ok(Ok(())) => Ok(()),
                    Ok(Err(err)) => Err(err.message().to_owned()),
                    Err(payload) => Err(format!("the agent panicked: {}", panic_text(payload))),
                };
                if let Err(reason) = &outcome {
                    tracing::warn!(%reason, "agent failed");
                }
                writer.finish(outcome).await;
                let span = tracing::Span::current();
                if !span.is_disabled()
                    && let Ok(Some(progress)) = handler.inner.store.progress(&writer.task_id).await
                {
                    span.record("a2a.state", tracing::field::debug(progress.state));
                }
                drop(handler);
            }
            .instrument(span),
        );

        let started = Started::Task {
            task_id,
            after,
            final_task: final_rx,
        };
        if !is_new {
            return Ok(started);
        }
        match first_rx.await {
            Ok(First::Reply(message)) => Ok(Started::Replied(message)),
            Ok(First::Task) => Ok(started),
            Ok(First::Refused(err)) => Err(err),
            Err(_) => Err(A2aError::internal(
                "the agent ended without a result".to_owned(),
            )),
        }
    }
}

enum Started {
    Replied(Message),
    Task {
        task_id: TaskId,
        /// The last event before this message's turn.
        after: u64,
        /// Receives the task from the update that makes it final (blocking calls only).
        final_task: Option<oneshot::Receiver<Task>>,
    },
}

fn terminal_task(task_id: &TaskId, state: TaskState) -> A2aError {
    A2aError::unsupported_operation(format!(
        "task {task_id} is {state} (a terminal state) and accepts no more messages; \
         send a new message without taskId to start a new task"
    ))
}

fn message_too_large(bytes: u64, max_task_bytes: u64) -> A2aError {
    A2aError::invalid_params(format!(
        "the message takes {bytes} bytes, more than the {max_task_bytes} bytes a task may hold \
         (max_task_bytes)"
    ))
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-text panic payload".to_owned()
    }
}

/// `text`, cut to at most `max` bytes at a character boundary.
fn truncated(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str(" ...");
    }
    text
}

enum Phase {
    /// A new task not yet created: created by the first task event, with the push config its
    /// request gave, if any.
    Pending(Option<(Box<Task>, Option<TaskPushNotificationConfig>)>),
    /// The task exists in the store.
    Created,
    /// Answered with a direct message: no task.
    Replied,
    /// The store refused to create the task.
    Refused(SinkError),
    /// The agent answered with an error ([`AgentEvent::Error`]): no task.
    Errored,
}

/// Follows a task in a store other replicas share: when it ends there while its agent still
/// runs here (a `CancelTask` that reached another replica), the agent is told to stop.
/// Never returns; dropped when the agent returns.
async fn follow_task(
    store: Arc<dyn TaskStore>,
    id: TaskId,
    cancel: CancellationToken,
) -> std::convert::Infallible {
    let mut seen = None;
    loop {
        match store.progress(&id).await {
            Ok(Some(progress)) if progress.state.is_terminal() => break,
            Ok(Some(progress)) => seen = Some(progress.last_seq),
            // Gone after it existed: nothing left to work on.
            Ok(None) if seen.is_some() => break,
            // Not created yet (a new task is stored with the agent's first event), or the
            // store failed for a moment: look again soon.
            Ok(None) | Err(_) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        }
        if store.wait(&id, seen.unwrap_or(0)).await.is_err() {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    cancel.cancel();
    std::future::pending().await
}

/// The server side of an [`EventSink`]: validates, applies and logs an execution's events.
struct TaskWriter {
    store: Arc<dyn TaskStore>,
    task_id: TaskId,
    owner: Owner,
    protocol_version: ProtocolVersion,
    phase: tokio::sync::Mutex<Phase>,
    first: Mutex<Option<oneshot::Sender<First>>>,
    cancel: CancellationToken,
    running: Running,
    /// Held while a turn ends (see [`super::turns`]).
    turns: Arc<super::turns::Turns>,
    execution_id: u64,
    /// Events this execution had accepted.
    emitted: std::sync::atomic::AtomicUsize,
    /// The most bytes the task may hold.
    max_task_bytes: u64,
    /// Where the update that makes the task final leaves it for a blocking caller.
    final_task: FinalSlot,
    /// Keeps the task stored while the agent runs.
    pin: Mutex<Option<TaskPin>>,
    /// Where a turn that leaves the task interrupted schedules its expiry.
    expiry: Arc<Expiry>,
}

impl TaskWriter {
    fn signal(&self, first: First) {
        let tx = lock(&self.first).take();
        if let Some(tx) = tx {
            // The caller may have gone away; the task goes on regardless.
            let _ = tx.send(first);
        }
    }

    async fn ensure_created(&self, phase: &mut Phase) -> Result<(), SinkError> {
        match phase {
            Phase::Pending(initial) => {
                let (task, push_config) = initial.take().expect("a pending task is created once");
                // Stored first, so that `create` delivers the task's first event to it.
                let push_config_id = push_config.as_ref().and_then(|c| c.id.clone());
                let stored = match push_config {
                    Some(config) => {
                        self.store
                            .put_push_config(config, self.protocol_version)
                            .await
                    }
                    None => Ok(()),
                };
                let created = match stored {
                    Ok(()) => {
                        self.store
                            .create(*task, self.owner.clone(), self.protocol_version)
                            .await
                    }
                    Err(err) => Err(err),
                };
                if let Err(err) = created {
                    if let Some(id) = push_config_id {
                        // Nothing will be delivered to it: no task came to be.
                        let _ = self.store.delete_push_config(&self.task_id, &id).await;
                    }
                    let refused = SinkError::Store(err.to_string());
                    *phase = Phase::Refused(refused.clone());
                    self.signal(First::Refused(err.into()));
                    return Err(refused);
                }
                // A new task is not terminal, so nothing drops it before the pin holds it.
                let pin = self
                    .store
                    .pin(&self.task_id)
                    .await
                    .map_err(|e| SinkError::Store(e.to_string()))?;
                *lock(&self.pin) = pin;
                *phase = Phase::Created;
                self.signal(First::Task);
                Ok(())
            }
            Phase::Created => Ok(()),
            Phase::Replied => Err(SinkError::AfterReply),
            Phase::Refused(err) => Err(err.clone()),
            Phase::Errored => Err(SinkError::AfterError),
        }
    }

    async fn apply(&self, event: AgentEvent) -> Result<(), SinkError> {
        let mut phase = self.phase.lock().await;
        if let AgentEvent::Reply(mut message) = event {
            return match &*phase {
                Phase::Pending(_) => {
                    // No task will exist: the reply must not point at one.
                    if message.task_id.as_ref() == Some(&self.task_id) {
                        message.task_id = None;
                    }
                    *phase = Phase::Replied;
                    self.signal(First::Reply(message));
                    Ok(())
                }
                Phase::Errored => Err(SinkError::AfterError),
                _ => Err(SinkError::ReplyAfterTask),
            };
        }
        if let AgentEvent::Error(error) = event {
            return match &*phase {
                Phase::Pending(_) => {
                    *phase = Phase::Errored;
                    self.signal(First::Refused(error));
                    Ok(())
                }
                Phase::Errored => Err(SinkError::AfterError),
                _ => Err(SinkError::ErrorAfterAnswer),
            };
        }
        self.ensure_created(&mut phase).await?;
        let then = match &event {
            AgentEvent::Status { .. } => final_observer(&self.final_task),
            _ => None,
        };
        let max_task_bytes = self.max_task_bytes;
        let mut result = Ok(());
        let outcome = self
            .store
            .update(
                &self.task_id,
                Box::new(|task: &Task, room| {
                    result = Ok(());
                    // Cloned per call: the store may decide the change again on a retry.
                    let edit = match &event {
                        AgentEvent::Status { state, message } => {
                            lifecycle::status_edit(task, *state, message.clone())
                        }
                        AgentEvent::Artifact {
                            artifact,
                            append,
                            last_chunk,
                        } => lifecycle::artifact_edit(task, artifact.clone(), *append, *last_chunk),
                        AgentEvent::Reply(_) | AgentEvent::Error(_) => {
                            unreachable!("handled above")
                        }
                    };
                    let checked = edit.and_then(|edit| {
                        let bytes = edit.bytes();
                        lifecycle::check_room(room, bytes, max_task_bytes)
                            .map(|()| edit)
                            .map_err(|limit| SinkError::TooLarge {
                                task_id: task.id.clone(),
                                bytes,
                                limit,
                            })
                    });
                    checked.map_err(|e| result = Err(e)).ok()
                }),
                then,
            )
            .await
            .map_err(|e| SinkError::Store(e.to_string()))?;
        if outcome.is_none() {
            return Err(SinkError::Store(format!(
                "task {} is no longer stored",
                self.task_id
            )));
        }
        if result.is_ok() {
            self.emitted
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        result
    }

    /// Forgets this execution, if it is still the task's current one; true when it was.
    fn retire(&self, running: &mut HashMap<TaskId, Execution>) -> bool {
        let current = running
            .get(&self.task_id)
            .is_some_and(|e| e.id == self.execution_id);
        if current {
            running.remove(&self.task_id);
        }
        current
    }

    /// After the agent returned: a task that is not terminal or interrupted is completed (or
    /// failed, with the error; or canceled, when cancellation was asked for); a request that
    /// produced nothing gets a completed task; a follow-up that produced nothing restates the
    /// task's status, so that waiting callers and streams see this turn end. A newer execution
    /// of the same task (a follow-up accepted meanwhile) is left alone. These edits are the
    /// server's own and small: no byte limit refuses them, so that every task can end.
    async fn finish(&self, outcome: Result<(), String>) {
        self.finish_turn(outcome).await;
        // A blocking caller still waiting learns that this execution will not make the task
        // final, and the task is free to go once nobody else holds it.
        lock(&self.final_task).take();
        lock(&self.pin).take();
    }

    async fn finish_turn(&self, outcome: Result<(), String>) {
        let mut phase = self.phase.lock().await;
        if matches!(*phase, Phase::Replied | Phase::Refused(_) | Phase::Errored) {
            self.retire(&mut lock(&self.running));
            return;
        }
        if let Err(err) = self.ensure_created(&mut phase).await {
            tracing::error!(%err, "cannot record the task of a finished agent");
            self.retire(&mut lock(&self.running));
            self.signal(First::Task);
            return;
        }
        drop(phase);
        // No follow-up registers a newer execution between the check and the retirement.
        let _turn = self.turns.lock(&self.task_id).await;
        let current = lock(&self.running)
            .get(&self.task_id)
            .is_some_and(|e| e.id == self.execution_id);
        if !current {
            return;
        }
        let cancelled = self.cancel.is_cancelled();
        let emitted = self.emitted.load(std::sync::atomic::Ordering::Relaxed);
        // Where the turn leaves the task: interrupted (with its status timestamp) starts the
        // clock of its expiry.
        let mut waits = None;
        let result = self
            .store
            .update(
                &self.task_id,
                Box::new(|task: &Task, _room| {
                    let state = task.status.state;
                    let edit = match &outcome {
                        _ if cancelled && !state.is_terminal() => {
                            lifecycle::status_edit(task, TaskState::Canceled, None).ok()
                        }
                        Ok(()) if state.is_interrupted() && emitted == 0 => {
                            Some(lifecycle::restate())
                        }
                        Ok(()) if state.is_final() => None,
                        Ok(()) => lifecycle::status_edit(task, TaskState::Completed, None).ok(),
                        Err(_) if state.is_terminal() => None,
                        Err(reason) => {
                            let text = truncated(reason.clone(), MAX_FAILURE_TEXT);
                            let message = lifecycle::agent_message(task, text);
                            lifecycle::status_edit(task, TaskState::Failed, Some(message)).ok()
                        }
                    };
                    let (after, stamped) = match &edit {
                        Some(TaskEdit::Status(status)) => (status.state, status.timestamp),
                        Some(TaskEdit::Restate(timestamp)) => (state, Some(*timestamp)),
                        _ => (state, task.status.timestamp),
                    };
                    waits = after.is_interrupted().then_some(stamped);
                    edit
                }),
                final_observer(&self.final_task),
            )
            .await;
        self.retire(&mut lock(&self.running));
        match result {
            Ok(Some(_)) => {
                if let Some(stamped) = waits {
                    self.expiry.schedule(&self.task_id, stamped);
                }
            }
            Ok(None) => {}
            Err(err) => tracing::error!(%err, "cannot record the end of an agent's turn"),
        }
    }
}

impl EventTarget for TaskWriter {
    fn emit(
        &self,
        event: AgentEvent,
    ) -> Pin<Box<dyn std::future::Future<Output = Result<(), SinkError>> + Send + '_>> {
        Box::pin(self.apply(event))
    }
}

#[cfg(test)]
mod tests {
    use super::truncated;

    #[test]
    fn failure_texts_are_cut_at_a_character_boundary() {
        assert_eq!(truncated("short".to_owned(), 10), "short");
        assert_eq!(truncated("ééé".to_owned(), 3), "é ...");
    }
}
