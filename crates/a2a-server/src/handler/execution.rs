//! Running the agent: `SendMessage`, `SendStreamingMessage`, and the task writer behind an
//! [`EventSink`](crate::agent::EventSink).

use a2a_types::protocol::Operation;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_types::protocol::ProtocolVersion;
use a2a_types::trace::TraceContext;
use a2a_types::v1::{
    ContextId, Message, MessageId, Role, SendMessageConfiguration, SendMessageRequest,
    SendMessageResponse, StreamResponse, Struct, Task, TaskId, TaskPushNotificationConfig,
    TaskState, TaskStatus,
};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use super::expiry::Expiry;
use super::outage::{Patience, PendingOutcomes, TurnEnd, landed};
use super::subscribe::log_stream;
use super::{
    CallContext, EventStream, Execution, FinalSlot, RequestHandler, Running, StreamEvent,
    check_history_length, final_observer, lifecycle, lock,
};
use crate::agent::{AgentEvent, EventSink, EventTarget, RequestContext, SinkError};
use crate::error::A2aError;
use crate::span_hex::Hex;
use crate::store::{AgentRun, Change, Owner, StoreError, TaskEdit, TaskPin, TaskStore, task_bytes};

/// How the first event of a new request went, for the caller waiting in `start`.
enum First {
    /// The agent answered with a direct message.
    Reply(Message),
    /// The task was created: as it was created (event 1 of its log), when known.
    Task(Option<Box<Task>>),
    /// The store refused the task.
    Refused(A2aError),
}

impl RequestHandler {
    /// `SendMessage`: starts or continues a task and answers with the task (when it is
    /// terminal or interrupted, or at once with `returnImmediately`) or with a direct message.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "SendMessage", a2a.task_id = tracing::field::Empty, a2a.context_id = tracing::field::Empty))]
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
        let (task_id, after, final_task, created, mut run) = match started {
            Started::Replied(message) => return Ok(SendMessageResponse::Message(message)),
            Started::Task {
                task_id,
                after,
                final_task,
                created,
                run,
            } => (task_id, after, final_task, created, run),
        };
        if return_immediately {
            let task = match (self.load_visible(&task_id, call).await, created) {
                (Ok(task), _) => task,
                // The task exists and its agent runs: it is answered as created rather than
                // with an error, which would leave the caller without its id.
                (Err(err), Some(created)) if err.retry_after().is_some() => *created,
                (Err(err), _) => return Err(err),
            };
            return Ok(answer(task));
        }
        // Blocking: the update that makes the task final (terminal or interrupted) hands it
        // over, so the answer never depends on the task still being stored (nor on the pin of
        // a store away for a moment).
        // The agent runs in this call's task meanwhile (`CallerRun`).
        let _pin = match run.alongside(self.inner.store.pin(&task_id)).await {
            Ok(pin) => pin,
            Err(err) if err.is_transient() => None,
            Err(err) => return Err(err.into()),
        };
        if let Some(final_task) = final_task
            && let Ok(task) = run.alongside(final_task).await
        {
            run.settle();
            return Ok(answer(task));
        }
        // The execution ended without making the task final (a newer one took it over): wait
        // for a final state reached after this message, reading only the state meanwhile. An
        // agent still running goes to a task of its own first: what this call waits for may
        // be its doing.
        drop(run);
        let mut seen = after;
        let mut patience = Patience::new(self.inner.config.outage_tolerance);
        let never = CancellationToken::new();
        loop {
            let progress = match self.inner.store.progress(&task_id).await {
                Ok(progress) => progress,
                Err(err) => {
                    // A store away for a moment is waited for, within the tolerance.
                    patience.wait(err, &never).await?;
                    continue;
                }
            };
            let progress = progress.ok_or_else(|| A2aError::task_not_found(task_id.clone()))?;
            if progress.last_seq > after && progress.state.is_final() {
                let task = self.load_visible(&task_id, call).await?;
                return Ok(answer(task));
            }
            seen = seen.max(progress.last_seq);
            if let Err(err) = self.inner.store.wait(&task_id, seen).await {
                patience.wait(err, &never).await?;
            }
        }
    }

    /// `SendStreamingMessage`: the task first, then its events until a terminal or interrupted
    /// state; or a single message for a direct reply.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "SendStreamingMessage", a2a.task_id = tracing::field::Empty, a2a.context_id = tracing::field::Empty))]
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
            Started::Task {
                task_id,
                after,
                created,
                ..
            } => {
                let not_found = || A2aError::task_not_found(task_id.clone());
                // A store away for a moment: the stream starts unpinned (the task is
                // unfinished, no store drops it) rather than fail a task that runs.
                let pin = match self.inner.store.pin(&task_id).await {
                    Ok(pin) => pin.ok_or_else(not_found)?,
                    Err(err) if err.is_transient() && created.is_some() => TaskPin::none(),
                    Err(err) => return Err(err.into()),
                };
                // The first event is the task as it stood when this message was accepted (for
                // a new task, the first event of its log: the task as created); what happened
                // since then follows from the log.
                let first = if let Some(created) = created {
                    // The log's first event: generation 1 (A2A 1.1), as read back from the log.
                    let mut first = StreamResponse::Task(*created);
                    crate::store::stamp_generation(&mut first, 1);
                    first
                } else if after == 0 {
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
                    self.inner.config.outage_tolerance,
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
        let mut send = self.checked_send(req, call)?;
        let (execution, final_rx) = self.new_execution(blocking);
        let prepared = match self.continued_task(&send.message, call).await? {
            Some((task_id, task)) => {
                self.continue_task(task_id, task, &mut send, execution, call)
                    .await?
            }
            None => self.new_task(&mut send, execution, call).await?,
        };
        let (task_id, after, is_new) = (
            prepared.task_id.clone(),
            prepared.after,
            prepared.existing.is_none(),
        );
        let (first_rx, mut run) = self.launch_agent(prepared, send, call, blocking);
        if blocking {
            run.count_in(&self.inner.blocking_calls);
        }
        if !is_new {
            return Ok(Started::Task {
                task_id,
                after,
                final_task: final_rx,
                created: None,
                run,
            });
        }
        match run.alongside(first_rx).await {
            Ok(First::Reply(message)) => {
                run.settle();
                Ok(Started::Replied(message))
            }
            Ok(First::Task(created)) => Ok(Started::Task {
                task_id,
                after,
                final_task: final_rx,
                created,
                run,
            }),
            Ok(First::Refused(err)) => Err(err),
            Err(_) => Err(A2aError::internal(
                "the agent ended without a result".to_owned(),
            )),
        }
    }

    /// The checks of a send that need no store: the message, the configuration, the
    /// extensions and content types the card asks for.
    fn checked_send(
        &self,
        req: SendMessageRequest,
        call: &CallContext,
    ) -> Result<SendParts, A2aError> {
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
        Ok(SendParts {
            message,
            configuration,
            metadata,
            push_config,
        })
    }

    /// A new execution (not yet registered), and the receiver of its final task when the
    /// caller blocks.
    fn new_execution(&self, blocking: bool) -> (Execution, Option<oneshot::Receiver<Task>>) {
        let (final_tx, final_rx) = if blocking {
            let (tx, rx) = oneshot::channel();
            (Some(tx), Some(rx))
        } else {
            (None, None)
        };
        let execution = Execution {
            id: self
                .inner
                .next_execution
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            cancel: self.inner.shutdown.child_token(),
            final_task: Arc::new(Mutex::new(final_tx)),
        };
        (execution, final_rx)
    }

    /// The task a message continues, if any: by the id it names; with client-chosen ids (A2A
    /// 0.1), an id no task has starts a new task under it.
    async fn continued_task(
        &self,
        message: &Message,
        call: &CallContext,
    ) -> Result<Option<(TaskId, Task)>, A2aError> {
        Ok(match message.task_id.clone() {
            Some(task_id) if call.client_task_ids => self
                .client_task(&task_id, call)
                .await?
                .map(|task| (task_id, task)),
            Some(task_id) => {
                let task = self.load_visible(&task_id, call).await?;
                Some((task_id, task))
            }
            None => None,
        })
    }

    /// A follow-up to `task`: the message recorded in it and `execution` registered as the
    /// task's, under the task's turn lock (an earlier execution finishing its turn meanwhile
    /// then sees this one as current).
    async fn continue_task(
        &self,
        task_id: TaskId,
        task: Task,
        send: &mut SendParts,
        execution: Execution,
        call: &CallContext,
    ) -> Result<Prepared, A2aError> {
        let push_config = match send.push_config.take() {
            Some(config) => Some(self.checked_push_config(config, &task_id).await?),
            None => None,
        };
        let state = task.status.state;
        if state.is_terminal() {
            return Err(terminal_task(&task_id, state));
        }
        let context_id = task.context_id.clone().unwrap_or_default();
        if let Some(given) = &send.message.context_id
            && *given != context_id
        {
            return Err(A2aError::invalid_params(format!(
                "message.contextId `{given}` does not match the contextId `{context_id}` of task {task_id}"
            )));
        }
        send.message.context_id = Some(context_id.clone());
        let recorded = TaskEdit::Message(send.message.clone());
        let bytes = recorded.bytes();
        let max_task_bytes = self.inner.config.max_task_bytes;
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
        let turn = self.inner.turns.lock(&task_id).await;
        // A2A 1.1 ifGenerationMatch: compared in the store's update, with the message.
        let expected = send
            .configuration
            .as_ref()
            .and_then(|c| c.if_generation_match);
        let after = self
            .record_follow_up(&task_id, recorded, bytes, expected)
            .await?;
        let run = ExecutionRun::of(&execution);
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
        Ok(Prepared {
            task_id,
            context_id,
            existing: Some(task),
            after,
            pin: Some(pin),
            initial: None,
            run,
        })
    }

    /// Records a follow-up message in its task, unless the task ended, an agent still works on
    /// it, it has no room for the message, or (A2A 1.1 `ifGenerationMatch`) it is not at the
    /// `expected` generation: decided in the store's update; the sequence number of the task's
    /// last event.
    ///
    /// A follow-up that expects a generation and continues an interrupted task (input or auth
    /// required) also moves it to `WORKING` in the same update: a state transition, so one
    /// status event and one more generation (the draft's §3.2.7), with the message as the
    /// status message (in the history too, as a status message is). So of two follow-ups that
    /// expect the same generation exactly one is accepted, on any replica: the other finds the
    /// task one generation on. Without `expected`, the message alone is recorded, which is no
    /// mutation in the draft's sense (1.0's behaviour).
    async fn record_follow_up(
        &self,
        task_id: &TaskId,
        recorded: TaskEdit,
        bytes: u64,
        expected: Option<i64>,
    ) -> Result<u64, A2aError> {
        let max_task_bytes = self.inner.config.max_task_bytes;
        let busy = self.running().contains_key(task_id);
        let mut refused = None;
        let outcome = self
            .inner
            .store
            .update(
                task_id,
                Box::new(|task: &Task, room| {
                    refused = None;
                    if let Some(expected) = expected
                        && task.generation != expected
                    {
                        refused = Some(A2aError::task_generation_mismatch(
                            &task.id,
                            expected,
                            task.generation,
                        ));
                        return None;
                    }
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
                    let edit = match (&recorded, expected) {
                        (TaskEdit::Message(message), Some(_)) if state.is_interrupted() => {
                            TaskEdit::Status(
                                TaskStatus::now(TaskState::Working).with_message(message.clone()),
                            )
                        }
                        _ => recorded.clone(),
                    };
                    let bytes = edit.bytes().max(bytes);
                    if let Err(limit) = lifecycle::check_room(room, bytes, max_task_bytes) {
                        refused = Some(A2aError::unsupported_operation(format!(
                            "task {} cannot take this message of {bytes} bytes: {limit}",
                            task.id
                        )));
                        return None;
                    }
                    Some(edit)
                }),
                None,
            )
            .await?
            .ok_or_else(|| A2aError::task_not_found(task_id.clone()))?;
        match refused {
            Some(err) => Err(err),
            None => Ok(outcome.last_seq),
        }
    }

    /// A new task, not stored yet (its agent's first event creates it): its id and context,
    /// the room for it checked, `execution` registered under its id.
    async fn new_task(
        &self,
        send: &mut SendParts,
        execution: Execution,
        call: &CallContext,
    ) -> Result<Prepared, A2aError> {
        let message = &mut send.message;
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
        let max_task_bytes = self.inner.config.max_task_bytes;
        if bytes > max_task_bytes {
            return Err(message_too_large(bytes, max_task_bytes));
        }
        let push_config = match send.push_config.take() {
            Some(config) => Some(self.checked_push_config(config, &task_id).await?),
            None => None,
        };
        // Refused here, before the agent runs, when the store is full or away; `create` still
        // decides when the first event comes.
        self.inner.store.check_room(&call.owner(), bytes).await?;
        let run = ExecutionRun::of(&execution);
        {
            let mut running = self.running();
            // Only a client-chosen id can be taken: by a send of it still starting.
            if running.contains_key(&task_id) {
                return Err(super::task_id_unavailable(&task_id));
            }
            running.insert(task_id.clone(), execution);
        }
        Ok(Prepared {
            task_id,
            context_id,
            existing: None,
            after: 0,
            pin: None,
            initial: Some((Box::new(initial), push_config)),
            run,
        })
    }

    /// Builds the task writer and the agent's context, and starts the agent: in the calling
    /// task when the caller blocks on it (`in_call`, see [`CallerRun`]), else in a task of its
    /// own; the receiver of how its first event went (for a new task).
    fn launch_agent(
        &self,
        mut prepared: Prepared,
        send: SendParts,
        call: &CallContext,
        in_call: bool,
    ) -> (oneshot::Receiver<First>, CallerRun) {
        let (first_tx, first_rx) = oneshot::channel();
        let message_id = send.message.message_id.clone();
        let writer = Arc::new(self.task_writer(&mut prepared, call, first_tx, message_id));
        let (task_id, context_id) = (prepared.task_id, prepared.context_id);
        let cancel = writer.cancel.clone();
        let ctx = RequestContext {
            message: send.message,
            task_id: task_id.clone(),
            context_id: context_id.clone(),
            task: prepared.existing,
            principal: call.principal.clone(),
            extensions: call.extensions.clone(),
            configuration: send.configuration,
            metadata: send.metadata,
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
        let span = tracing::info_span!(
            "a2a.agent",
            a2a.task_id = %task_id,
            a2a.context_id = %context_id,
            trace_id = %Hex(trace.as_ref().map(TraceContext::trace_id)),
            span_id = %Hex(trace.as_ref().map(TraceContext::span_id)),
            a2a.state = tracing::field::Empty,
        );
        let sink = EventSink {
            target: writer.clone(),
            task_id: task_id.clone(),
            context_id,
        };
        let follow = self
            .inner
            .config
            .shared_store
            .then(|| follow_task(self.inner.store.clone(), task_id, cancel));
        let run = run_agent(self.clone(), writer, ctx, sink, follow).instrument(span);
        // Alone, the call runs its agent itself; beside other blocking calls, the agent gets a
        // task of its own (measured: see `CallerRun`).
        let in_call = in_call
            && self
                .inner
                .blocking_calls
                .load(std::sync::atomic::Ordering::Relaxed)
                == 0;
        let run = if in_call {
            CallerRun::new(Some(Box::pin(run)))
        } else {
            tokio::spawn(run);
            CallerRun::new(None)
        };
        (first_rx, run)
    }

    /// The writer behind the sink of a prepared execution of the turn of message `message_id`;
    /// it takes the execution's pin and, for a new task, the task to create.
    fn task_writer(
        &self,
        prepared: &mut Prepared,
        call: &CallContext,
        first: oneshot::Sender<First>,
        message_id: MessageId,
    ) -> TaskWriter {
        let inner = &self.inner;
        let run = &prepared.run;
        TaskWriter {
            store: inner.store.clone(),
            task_id: prepared.task_id.clone(),
            owner: call.owner(),
            protocol_version: call.protocol_version,
            phase: tokio::sync::Mutex::new(match prepared.initial.take() {
                Some(initial) => Phase::Pending(Some(initial)),
                None => Phase::Created,
            }),
            first: Mutex::new(Some(first)),
            cancel: run.cancel.clone(),
            running: inner.running.clone(),
            turns: inner.turns.clone(),
            execution_id: run.id,
            emitted: std::sync::atomic::AtomicUsize::new(0),
            max_task_bytes: inner.config.max_task_bytes,
            final_task: run.final_task.clone(),
            pin: Mutex::new(prepared.pin.take()),
            expiry: inner.expiry.clone(),
            tolerance: inner.config.outage_tolerance,
            shutdown: inner.shutdown.clone(),
            lost: Mutex::new(None),
            agent_run: Mutex::new(Some(inner.store.agent_running(&prepared.task_id))),
            pending: inner.pending.clone(),
            // No blocking caller waits for the final task.
            snapshot_first: lock(&run.final_task).is_none(),
            message_id,
        }
    }
}

/// Runs the agent of an execution to its end, then records the end of its turn. A panic in
/// the agent is caught here (a second task just to catch panics cost a spawn and a cross-task
/// wake per request).
async fn run_agent(
    handler: RequestHandler,
    writer: Arc<TaskWriter>,
    ctx: RequestContext,
    sink: EventSink,
    follow: Option<impl std::future::Future<Output = std::convert::Infallible>>,
) {
    let agent = handler.inner.agent.clone();
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
}

/// A send, checked: what starting it needs.
struct SendParts {
    message: Message,
    configuration: Option<SendMessageConfiguration>,
    metadata: Option<Struct>,
    /// The push config the request gave, not yet checked against the task.
    push_config: Option<TaskPushNotificationConfig>,
}

/// An execution about to start: its task, existing or to be created, and what the execution
/// holds.
struct Prepared {
    task_id: TaskId,
    context_id: ContextId,
    /// The task a follow-up continues.
    existing: Option<Task>,
    /// The last event before this message's turn.
    after: u64,
    /// Keeps a continued task stored while the agent runs.
    pin: Option<TaskPin>,
    /// A new task, created by the agent's first event, with the push config its request gave.
    initial: Option<(Box<Task>, Option<TaskPushNotificationConfig>)>,
    run: ExecutionRun,
}

/// What the writer keeps of its execution (the execution itself is in the running map).
struct ExecutionRun {
    id: u64,
    cancel: CancellationToken,
    final_task: FinalSlot,
}

impl ExecutionRun {
    fn of(execution: &Execution) -> Self {
        Self {
            id: execution.id,
            cancel: execution.cancel.clone(),
            final_task: execution.final_task.clone(),
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
        /// A new task as created (calls that do not block only): what they answer with when
        /// the store is away a moment just after.
        created: Option<Box<Task>>,
        /// The agent's run, when the caller blocks: polled by the caller while it waits.
        run: CallerRun,
    },
}

/// An agent's run that the blocking call which started it polls itself, while it waits for
/// the run's first event and the final task: one task instead of two, so no spawn and no
/// wake-up handed between workers for the call. Done only for a blocking call with no other
/// blocking call under way. Measured (docs/benchmarks.md, "Issue 33, continued"): with one
/// call at a time it took CPU per `SendMessage` from 2.12x to 1.71x of the JSON floor (median
/// of 5 alternating rounds); done for every blocking call, it cost more under concurrency
/// (1.21-1.27x to 1.36-1.43x at 16 calls at a time, more context switches per request: an
/// agent's task of its own lets a worker batch the connections' work), so beside another
/// blocking call the agent gets a task of its own as before (16 and 64 calls at a time:
/// unchanged within noise). The run must outlive its call (a client gone, a request timeout,
/// an answer given before the agent returned): whatever is left of it when this is dropped
/// goes on in a task of its own. Without a run when the agent was given a task of its own
/// from the start.
pub(super) struct CallerRun {
    run: Option<Pin<Box<dyn std::future::Future<Output = ()> + Send>>>,
    /// Counts the blocking call in while it lasts.
    counted: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

impl CallerRun {
    fn new(run: Option<Pin<Box<dyn std::future::Future<Output = ()> + Send>>>) -> Self {
        Self { run, counted: None }
    }

    /// Counts a blocking call in `calls` until this is dropped.
    fn count_in(&mut self, calls: &Arc<std::sync::atomic::AtomicUsize>) {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.counted = Some(calls.clone());
    }

    /// Waits for `other`, polling the run meanwhile. The run is polled first, so that what
    /// `other` waits for (mostly the run's doing) is usually ready by the time `other` is
    /// polled, before it registers this task's waker (no wake of this task from inside its own
    /// poll). Polling `other` first measured no different within noise.
    async fn alongside<T>(&mut self, other: impl std::future::Future<Output = T>) -> T {
        let mut other = std::pin::pin!(other);
        std::future::poll_fn(|cx| {
            if let Some(run) = self.run.as_mut()
                && run.as_mut().poll(cx).is_ready()
            {
                self.run = None;
            }
            other.as_mut().poll(cx)
        })
        .await
    }

    /// Gives the run one more poll now that the caller has its answer (the agent usually
    /// returns right after its final event); if it is still not done, dropping hands it on.
    fn settle(mut self) {
        if let Some(run) = self.run.as_mut()
            && futures_util::FutureExt::now_or_never(run.as_mut()).is_some()
        {
            self.run = None;
        }
    }
}

impl Drop for CallerRun {
    fn drop(&mut self) {
        if let Some(calls) = self.counted.take() {
            calls.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        }
        if let Some(run) = self.run.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => drop(runtime.spawn(run)),
                // No runtime left to run it on (the runtime itself is being dropped).
                Err(_) => tracing::debug!("an agent's run dropped with its runtime"),
            }
        }
    }
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
    /// How long a write waits for a store that fails transiently.
    tolerance: Duration,
    /// The handler's: a write stops waiting for the store when it shuts down.
    shutdown: CancellationToken,
    /// Why an event of this execution could not be stored, if one could not: the task then
    /// fails with it, whatever the agent returns.
    lost: Mutex<Option<String>>,
    /// Tells the store the agent runs here (a SQL store renews its lease meanwhile).
    agent_run: Mutex<Option<AgentRun>>,
    /// Where the end of a turn the store could not take waits for it.
    pending: Arc<PendingOutcomes>,
    /// The message whose turn this execution runs (see [`TurnEnd::message_id`]).
    message_id: MessageId,
    /// The caller does not block: it gets the task as created with the first signal.
    snapshot_first: bool,
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
                // Kept for a caller that does not block (see `Started::Task::created`).
                // The task as created is event 1 of its log: generation 1 (A2A 1.1), as the
                // store numbers it.
                let snapshot = self.snapshot_first.then(|| {
                    let mut created = task.clone();
                    created.generation = 1;
                    created
                });
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
                // The task exists: whatever comes next, this execution writes to it.
                *phase = Phase::Created;
                self.signal(First::Task(snapshot));
                // A new task is not terminal, so nothing drops it before the pin holds it. A
                // store that fails to pin now (its database away a moment) keeps the task
                // anyway: it is unfinished, and no store drops an unfinished task.
                match self.store.pin(&self.task_id).await {
                    Ok(pin) => *lock(&self.pin) = pin,
                    Err(err) => tracing::debug!(%err, "cannot pin a new task"),
                }
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
        // Waits, with the phase held (the agent's other sink calls wait too), while the store
        // fails transiently; a write whose answer was lost is looked for before it is tried
        // again, so that an event is stored once.
        let mut patience = Patience::new(self.tolerance);
        let mut attempted = None;
        loop {
            if let Some(edit) = attempted.take() {
                match landed(&*self.store, &self.task_id, &edit).await {
                    Ok(true) => {
                        self.emitted
                            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        return Ok(());
                    }
                    Ok(false) => {}
                    Err(err) => {
                        attempted = Some(edit);
                        self.wait_for_store(&mut patience, err).await?;
                        continue;
                    }
                }
            }
            match self.write(&event, &mut attempted).await {
                Ok(result) => return result,
                Err(err) => self.wait_for_store(&mut patience, err).await?,
            }
        }
    }

    /// One try of writing an agent event: `Err` when the store failed (`attempted` then holds
    /// the edit it decided, if it got that far), else what the agent is told.
    async fn write(
        &self,
        event: &AgentEvent,
        attempted: &mut Option<TaskEdit>,
    ) -> Result<Result<(), SinkError>, StoreError> {
        let then = match event {
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
                    *attempted = None;
                    // Cloned per call: the store may decide the change again on a retry.
                    let edit = match event {
                        AgentEvent::Status { state, message } => {
                            lifecycle::status_edit(task, *state, message.clone())
                        }
                        AgentEvent::Artifact {
                            artifact,
                            append,
                            last_chunk,
                        } => lifecycle::artifact_edit(task, artifact.clone(), *append, *last_chunk),
                        AgentEvent::Reply(_) | AgentEvent::Error(_) => {
                            unreachable!("handled by apply")
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
                    *attempted = checked.as_ref().ok().cloned();
                    checked.map_err(|e| result = Err(e)).ok()
                }),
                then,
            )
            .await?;
        if outcome.is_none() {
            *attempted = None;
            return Ok(Err(SinkError::Store(format!(
                "task {} is no longer stored",
                self.task_id
            ))));
        }
        *attempted = None;
        if result.is_ok() {
            self.emitted
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(result)
    }

    /// After a failed write: waits for the store (see [`Patience`]); `Err` when the write is
    /// given up, which loses the event: the task then fails with the reason.
    async fn wait_for_store(
        &self,
        patience: &mut Patience,
        err: StoreError,
    ) -> Result<(), SinkError> {
        let Err(err) = patience.wait(err, &self.cancel).await else {
            return Ok(());
        };
        let reason = format!("an event of the task could not be stored: {err}");
        lock(&self.lost).get_or_insert(reason);
        Err(SinkError::Store(err.to_string()))
    }

    /// Forgets this execution, if it is still the task's current one; true when it was.
    fn retire(&self, running: &mut crate::hashing::IdMap<TaskId, Execution>) -> bool {
        let current = running
            .get(&self.task_id)
            .is_some_and(|e| e.id == self.execution_id);
        if current {
            running.remove(&self.task_id);
        }
        current
    }

    /// After the agent returned: the end of its turn recorded (see [`TurnEnd`]; an execution
    /// that lost an event fails its task with the reason, whatever the agent returned). A
    /// newer execution of the same task (a follow-up accepted meanwhile) is left alone.
    async fn finish(&self, outcome: Result<(), String>) {
        let outcome = match lock(&self.lost).clone() {
            Some(reason) => Err(reason),
            None => outcome,
        };
        self.finish_turn(outcome).await;
        // A blocking caller still waiting learns that this execution will not make the task
        // final, and the task is free to go once nobody else holds it; the agent no longer
        // runs here.
        lock(&self.final_task).take();
        lock(&self.pin).take();
        lock(&self.agent_run).take();
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
            self.signal(First::Task(None));
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
        let end = TurnEnd {
            execution_id: self.execution_id,
            outcome,
            cancelled: self.cancel.is_cancelled(),
            emitted: self.emitted.load(std::sync::atomic::Ordering::Relaxed),
            message_id: self.message_id.clone(),
        };
        let mut patience = Patience::new(self.tolerance);
        let result = loop {
            // Where the turn leaves the task: interrupted (with its status timestamp) starts
            // the clock of its expiry.
            let mut waits = None;
            let change: Change<'_> = Box::new(|task: &Task, _room| {
                let (edit, interrupted) = end.edit(task);
                waits = interrupted;
                edit
            });
            let written = self
                .store
                .update(&self.task_id, change, final_observer(&self.final_task))
                .await;
            match written {
                Ok(written) => break Ok(written.map(|_| waits)),
                Err(err) => {
                    if let Err(err) = patience.wait(err, &self.shutdown).await {
                        break Err(err);
                    }
                }
            }
        };
        self.retire(&mut lock(&self.running));
        match result {
            Ok(Some(Some(stamped))) => self.expiry.schedule(&self.task_id, stamped),
            Ok(_) => {}
            Err(err) if err.is_transient() => {
                tracing::warn!(task.id = %self.task_id, %err, "the end of an agent's turn waits for the task store");
                self.pending.keep(self.task_id.clone(), end);
            }
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
