//! [`RequestHandler`]: the eleven A2A 1.0 operations, on the core types, without any wire.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_types::v1::{
    AgentCard, CancelTaskRequest, ContextId, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, Message, Part, Role, SendMessageRequest,
    SendMessageResponse, StreamResponse, Task, TaskId, TaskPushNotificationConfig, TaskState,
    TaskStatus,
};
use futures_core::Stream;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tracing::Instrument as _;

use crate::agent::{
    Agent, AgentEvent, DynAgent, EventSink, EventTarget, RequestContext, SinkError,
};
use crate::auth::Principal;
use crate::error::A2aError;
use crate::lifecycle;
use crate::store::{ListQuery, StoreError, TaskStore};

/// Who calls, and with which service parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallContext {
    /// The authenticated caller, if any.
    pub principal: Option<Principal>,
    /// The extension URIs the caller asked for (`A2A-Extensions`).
    pub extensions: Vec<String>,
}

impl CallContext {
    /// An anonymous call without extensions.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the principal.
    #[must_use]
    pub fn with_principal(mut self, principal: Option<Principal>) -> Self {
        self.principal = principal;
        self
    }

    /// Sets the requested extensions.
    #[must_use]
    pub fn with_extensions(mut self, extensions: Vec<String>) -> Self {
        self.extensions = extensions;
        self
    }
}

/// One event of a stream, with its log sequence number (`None` for a direct message reply,
/// which is not logged).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct StreamEvent {
    /// The sequence number in the task's event log: the SSE `id`.
    pub seq: Option<u64>,
    /// The event.
    pub event: StreamResponse,
}

/// A stream of task events, ending after a terminal or interrupted state (or a message).
pub type EventStream = Pin<Box<dyn Stream<Item = Result<StreamEvent, A2aError>> + Send>>;

/// Tunables of the [`RequestHandler`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HandlerConfig {
    /// How long a cancelled agent may take to end its task before the server marks it canceled.
    pub cancel_grace: Duration,
    /// `ListTasks` page size when the request sets none.
    pub default_page_size: usize,
    /// The largest `ListTasks` page size; larger requests are clamped.
    pub max_page_size: usize,
}

impl Default for HandlerConfig {
    fn default() -> Self {
        Self {
            cancel_grace: Duration::from_secs(5),
            default_page_size: 50,
            max_page_size: 100,
        }
    }
}

impl HandlerConfig {
    /// Sets the cancel grace period.
    #[must_use]
    pub fn with_cancel_grace(mut self, grace: Duration) -> Self {
        self.cancel_grace = grace;
        self
    }
}

/// The eleven operations of A2A 1.0 over a [`TaskStore`] and an [`Agent`].
///
/// Bindings (JSON-RPC, REST) decode a request, call one method here and encode the result;
/// the methods take and return the `a2a_types::v1` types. Cheap to clone.
#[derive(Clone)]
pub struct RequestHandler {
    inner: Arc<Inner>,
}

struct Inner {
    agent: Arc<dyn DynAgent>,
    store: Arc<dyn TaskStore>,
    card: AgentCard,
    extended_card: Option<AgentCard>,
    config: HandlerConfig,
    running: Running,
    next_execution: std::sync::atomic::AtomicU64,
    shutdown: CancellationToken,
}

impl std::fmt::Debug for RequestHandler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestHandler")
            .field("card", &self.inner.card.name)
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

enum First {
    Reply(Message),
    Task,
}

/// Builds a [`RequestHandler`]: the agent and its card, plus optional parts.
pub struct HandlerBuilder {
    agent: Arc<dyn DynAgent>,
    card: AgentCard,
    store: Option<Arc<dyn TaskStore>>,
    extended_card: Option<AgentCard>,
    config: HandlerConfig,
}

impl std::fmt::Debug for HandlerBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandlerBuilder")
            .field("card", &self.card.name)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl HandlerBuilder {
    /// Stores tasks here (default: a new [`InMemoryTaskStore`](crate::store::InMemoryTaskStore)).
    #[must_use]
    pub fn store(mut self, store: impl TaskStore) -> Self {
        self.store = Some(Arc::new(store));
        self
    }

    /// Stores tasks in a store shared with other handlers.
    #[must_use]
    pub fn shared_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.store = Some(store);
        self
    }

    /// The card `GetExtendedAgentCard` returns (the public card must declare
    /// `capabilities.extendedAgentCard`).
    #[must_use]
    pub fn extended_card(mut self, card: AgentCard) -> Self {
        self.extended_card = Some(card);
        self
    }

    /// Replaces the public card.
    #[must_use]
    pub fn card(mut self, card: AgentCard) -> Self {
        self.card = card;
        self
    }

    /// Sets the tunables.
    #[must_use]
    pub fn config(mut self, config: HandlerConfig) -> Self {
        self.config = config;
        self
    }

    /// The handler.
    pub fn build(self) -> RequestHandler {
        RequestHandler {
            inner: Arc::new(Inner {
                agent: self.agent,
                store: self
                    .store
                    .unwrap_or_else(|| Arc::new(crate::store::InMemoryTaskStore::new())),
                card: self.card,
                extended_card: self.extended_card,
                config: self.config,
                running: Running::default(),
                next_execution: std::sync::atomic::AtomicU64::new(1),
                shutdown: CancellationToken::new(),
            }),
        }
    }
}

impl RequestHandler {
    /// A handler for this agent, store and card, with the default tunables.
    pub fn new(agent: impl Agent, store: impl TaskStore, card: AgentCard) -> Self {
        Self::builder(agent, card).store(store).build()
    }

    /// A builder for a handler of this agent and card.
    pub fn builder(agent: impl Agent, card: AgentCard) -> HandlerBuilder {
        HandlerBuilder {
            agent: Arc::new(agent),
            card,
            store: None,
            extended_card: None,
            config: HandlerConfig::default(),
        }
    }

    /// The public agent card.
    pub fn card(&self) -> &AgentCard {
        &self.inner.card
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn TaskStore> {
        &self.inner.store
    }

    /// Asks every running agent to stop (their cancellation tokens fire).
    pub fn shutdown(&self) {
        self.inner.shutdown.cancel();
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<TaskId, Execution>> {
        lock(&self.inner.running)
    }

    async fn load_visible(&self, id: &TaskId, call: &CallContext) -> Result<Task, A2aError> {
        match self.inner.store.load(id).await? {
            Some(stored) if stored.owner == call.principal => Ok(stored.task),
            _ => Err(A2aError::TaskNotFound(id.clone())),
        }
    }

    fn check_extensions(&self, call: &CallContext) -> Result<(), A2aError> {
        for ext in &self.inner.card.capabilities.extensions {
            if let Some(uri) = ext.uri.as_deref().filter(|_| ext.required)
                && !call.extensions.iter().any(|e| e == uri)
            {
                return Err(A2aError::ExtensionSupportRequired(uri.to_owned()));
            }
        }
        Ok(())
    }

    fn check_content_types(&self, message: &Message) -> Result<(), A2aError> {
        let card = &self.inner.card;
        let mut accepted: Vec<&str> = card
            .default_input_modes
            .iter()
            .map(String::as_str)
            .collect();
        for skill in &card.skills {
            accepted.extend(skill.input_modes.iter().map(String::as_str));
        }
        if accepted.is_empty() {
            return Ok(());
        }
        for part in &message.parts {
            if let Some(media_type) = part.media_type.as_deref()
                && !accepted.iter().any(|a| media_type_matches(a, media_type))
            {
                return Err(A2aError::ContentTypeNotSupported {
                    media_type: media_type.to_owned(),
                    accepted: accepted.join(", "),
                });
            }
        }
        Ok(())
    }

    fn streaming_supported(&self) -> Result<(), A2aError> {
        if self.inner.card.capabilities.streaming == Some(true) {
            Ok(())
        } else {
            Err(A2aError::UnsupportedOperation(
                "streaming is not supported by this agent (capabilities.streaming is not true)"
                    .to_owned(),
            ))
        }
    }

    fn push_supported(&self) -> Result<(), A2aError> {
        if self.inner.card.capabilities.push_notifications == Some(true) {
            Ok(())
        } else {
            Err(A2aError::PushNotificationNotSupported)
        }
    }

    /// `SendMessage`: starts or continues a task and answers with the task (when it is
    /// terminal or interrupted, or at once with `returnImmediately`) or with a direct message.
    pub async fn send_message(
        &self,
        req: SendMessageRequest,
        call: &CallContext,
    ) -> Result<SendMessageResponse, A2aError> {
        let history_length = req.configuration.as_ref().and_then(|c| c.history_length);
        let return_immediately = req
            .configuration
            .as_ref()
            .is_some_and(|c| c.return_immediately);
        let started = self.start(req, call).await?;
        let (task_id, after) = match started {
            Started::Replied(message) => return Ok(SendMessageResponse::Message(message)),
            Started::Task { task_id, after } => (task_id, after),
        };
        if return_immediately {
            let task = self.load_visible(&task_id, call).await?;
            return Ok(SendMessageResponse::Task(lifecycle::present(
                task,
                history_length,
                true,
            )));
        }
        // Blocking: wait for a terminal or interrupted state reached after this message.
        // Only the state is read while waiting; the task is copied once, at the end.
        let mut seen = after;
        loop {
            let progress = self
                .inner
                .store
                .progress(&task_id)
                .await?
                .ok_or_else(|| A2aError::TaskNotFound(task_id.clone()))?;
            if progress.last_seq > after && progress.state.is_final() {
                let task = self.load_visible(&task_id, call).await?;
                return Ok(SendMessageResponse::Task(lifecycle::present(
                    task,
                    history_length,
                    true,
                )));
            }
            seen = seen.max(progress.last_seq);
            self.inner.store.wait(&task_id, seen).await?;
        }
    }

    /// `SendStreamingMessage`: the task first, then its events until a terminal or interrupted
    /// state; or a single message for a direct reply.
    pub async fn send_streaming_message(
        &self,
        req: SendMessageRequest,
        call: &CallContext,
    ) -> Result<EventStream, A2aError> {
        self.streaming_supported()?;
        let history_length = req.configuration.as_ref().and_then(|c| c.history_length);
        match self.start(req, call).await? {
            Started::Replied(message) => {
                let item = Ok(StreamEvent {
                    seq: None,
                    event: StreamResponse::Message(message),
                });
                Ok(Box::pin(futures_util::stream::iter([item])))
            }
            Started::Task { task_id, after } => {
                let stored = self
                    .inner
                    .store
                    .load(&task_id)
                    .await?
                    .ok_or_else(|| A2aError::TaskNotFound(task_id.clone()))?;
                // The first event is the task as it stood when this message was accepted;
                // what happened since then follows from the log.
                let snapshot_seq = if after == 0 { 1 } else { after };
                let first = match self
                    .inner
                    .store
                    .read_log(&task_id, snapshot_seq - 1, 1)
                    .await?
                    .pop()
                {
                    Some(entry) if after == 0 => entry.event,
                    _ => {
                        StreamResponse::Task(lifecycle::present(stored.task, history_length, true))
                    }
                };
                let first = match first {
                    StreamResponse::Task(task) => {
                        StreamResponse::Task(lifecycle::present(task, history_length, true))
                    }
                    other => other,
                };
                Ok(log_stream(
                    self.inner.store.clone(),
                    task_id,
                    snapshot_seq,
                    Some(StreamEvent {
                        seq: Some(snapshot_seq),
                        event: first,
                    }),
                ))
            }
        }
    }

    /// `SubscribeToTask`: the current task first, then its events. With `last_event_id`
    /// (the SSE `Last-Event-ID`), resumes right after that event instead, without the task.
    pub async fn subscribe_to_task(
        &self,
        id: &TaskId,
        last_event_id: Option<u64>,
        call: &CallContext,
    ) -> Result<EventStream, A2aError> {
        self.streaming_supported()?;
        let stored = match self.inner.store.load(id).await? {
            Some(stored) if stored.owner == call.principal => stored,
            _ => return Err(A2aError::TaskNotFound(id.clone())),
        };
        if let Some(last) = last_event_id.filter(|last| *last > stored.last_seq) {
            return Err(A2aError::InvalidParams(format!(
                "Last-Event-ID {last} is beyond the last event ({}) of task {id}",
                stored.last_seq
            )));
        }
        if let Some(last) = last_event_id
            && (last < stored.last_seq || !stored.task.status.state.is_terminal())
        {
            return Ok(log_stream(self.inner.store.clone(), id.clone(), last, None));
        }
        if stored.task.status.state.is_terminal() {
            return Err(A2aError::UnsupportedOperation(format!(
                "task {id} is {} (a terminal state); there is nothing to subscribe to",
                stored.task.status.state
            )));
        }
        let first = StreamEvent {
            seq: Some(stored.last_seq),
            event: StreamResponse::Task(stored.task),
        };
        Ok(log_stream(
            self.inner.store.clone(),
            id.clone(),
            stored.last_seq,
            Some(first),
        ))
    }

    /// `GetTask`.
    pub async fn get_task(
        &self,
        req: GetTaskRequest,
        call: &CallContext,
    ) -> Result<Task, A2aError> {
        check_history_length(req.history_length, "historyLength")?;
        let task = self.load_visible(&req.id, call).await?;
        Ok(lifecycle::present(task, req.history_length, true))
    }

    /// `ListTasks`: the caller's tasks, newest status first, one page at a time.
    pub async fn list_tasks(
        &self,
        req: ListTasksRequest,
        call: &CallContext,
    ) -> Result<ListTasksResponse, A2aError> {
        check_history_length(req.history_length, "historyLength")?;
        let page_size = match req.page_size {
            None => self.inner.config.default_page_size,
            Some(n) if n < 1 => {
                return Err(A2aError::InvalidParams(format!(
                    "pageSize must be between 1 and {}, got {n}",
                    self.inner.config.max_page_size
                )));
            }
            Some(n) => usize::try_from(n)
                .unwrap_or(usize::MAX)
                .min(self.inner.config.max_page_size),
        };
        let mut query = ListQuery {
            owner: call.principal.clone(),
            context_id: req.context_id,
            state: (!req.status.is_unspecified()).then_some(req.status),
            status_after: req.status_timestamp_after,
            page_size,
            page_token: req.page_token,
        };
        let page = match self.inner.store.list(&query).await {
            Ok(page) => page,
            Err(StoreError::Backend(msg)) if msg == crate::store::INVALID_PAGE_TOKEN => {
                let token = query.page_token.take().unwrap_or_default();
                return Err(A2aError::InvalidParams(format!(
                    "pageToken `{token}` is not a token this server returned"
                )));
            }
            Err(err) => return Err(err.into()),
        };
        let include_artifacts = req.include_artifacts.unwrap_or(false);
        let tasks = page
            .tasks
            .into_iter()
            .map(|t| lifecycle::present(t, req.history_length, include_artifacts))
            .collect();
        Ok(ListTasksResponse::new(
            tasks,
            page.next_page_token,
            i32::try_from(page_size).unwrap_or(i32::MAX),
            i32::try_from(page.total_size).unwrap_or(i32::MAX),
        ))
    }

    /// `CancelTask`: idempotent; a task in another terminal state is not cancelable.
    pub async fn cancel_task(
        &self,
        req: CancelTaskRequest,
        call: &CallContext,
    ) -> Result<Task, A2aError> {
        let task = self.load_visible(&req.id, call).await?;
        match task.status.state {
            TaskState::Canceled => return Ok(task),
            state if state.is_terminal() => {
                return Err(A2aError::TaskNotCancelable {
                    task_id: req.id,
                    state,
                });
            }
            _ => {}
        }
        let token = self.running().get(&req.id).map(|e| e.cancel.clone());
        if let Some(token) = token {
            token.cancel();
            let grace = self.inner.config.cancel_grace;
            let agent = self.inner.agent.clone();
            let wait_terminal = async {
                agent.cancel_boxed(&task).await;
                loop {
                    let Some(stored) = self.inner.store.load(&req.id).await? else {
                        return Ok::<_, A2aError>(());
                    };
                    if stored.task.status.state.is_terminal() {
                        return Ok(());
                    }
                    self.inner.store.wait(&req.id, stored.last_seq).await?;
                }
            };
            // A timeout here is the agent ignoring the cancel: the server ends the task below.
            let _ = tokio::time::timeout(grace, wait_terminal).await;
        }
        let mut refused = None;
        let outcome = self
            .inner
            .store
            .update(
                &req.id,
                Box::new(|task: &mut Task| {
                    if task.status.state.is_terminal() {
                        refused = Some(task.status.state);
                        return None;
                    }
                    let message = Message::new(
                        a2a_types::v1::MessageId::random(),
                        Role::Agent,
                        vec![Part::text("The task was canceled.")],
                    )
                    .with_task_id(task.id.clone())
                    .with_context_id(task.context_id.clone().unwrap_or_default());
                    lifecycle::apply_status(task, TaskState::Canceled, Some(message)).ok()
                }),
            )
            .await?;
        if outcome.is_none() {
            return Err(A2aError::TaskNotFound(req.id));
        }
        if let Some(state) = refused.filter(|s| *s != TaskState::Canceled) {
            return Err(A2aError::TaskNotCancelable {
                task_id: req.id,
                state,
            });
        }
        self.load_visible(&req.id, call).await
    }

    /// `CreateTaskPushNotificationConfig`.
    pub async fn create_push_config(
        &self,
        mut config: TaskPushNotificationConfig,
        call: &CallContext,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        self.push_supported()?;
        let task_id = config
            .task_id
            .clone()
            .ok_or_else(|| A2aError::InvalidParams("taskId is required".to_owned()))?;
        self.load_visible(&task_id, call).await?;
        if config.url.is_empty() {
            return Err(A2aError::InvalidParams("url is required".to_owned()));
        }
        if config.id.is_none() {
            config.id = Some(uuid_string());
        }
        self.inner.store.put_push_config(config.clone()).await?;
        Ok(config)
    }

    /// `GetTaskPushNotificationConfig`.
    pub async fn get_push_config(
        &self,
        req: GetTaskPushNotificationConfigRequest,
        call: &CallContext,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        self.push_supported()?;
        self.load_visible(&req.task_id, call).await?;
        self.inner
            .store
            .get_push_config(&req.task_id, &req.id)
            .await?
            .ok_or_else(|| {
                A2aError::InvalidParams(format!(
                    "task {} has no push config `{}`",
                    req.task_id, req.id
                ))
            })
    }

    /// `ListTaskPushNotificationConfigs`.
    pub async fn list_push_configs(
        &self,
        req: ListTaskPushNotificationConfigsRequest,
        call: &CallContext,
    ) -> Result<ListTaskPushNotificationConfigsResponse, A2aError> {
        self.push_supported()?;
        self.load_visible(&req.task_id, call).await?;
        let configs = self.inner.store.list_push_configs(&req.task_id).await?;
        Ok(ListTaskPushNotificationConfigsResponse::new(configs, None))
    }

    /// `DeleteTaskPushNotificationConfig`.
    pub async fn delete_push_config(
        &self,
        req: DeleteTaskPushNotificationConfigRequest,
        call: &CallContext,
    ) -> Result<(), A2aError> {
        self.push_supported()?;
        self.load_visible(&req.task_id, call).await?;
        if self
            .inner
            .store
            .delete_push_config(&req.task_id, &req.id)
            .await?
        {
            Ok(())
        } else {
            Err(A2aError::InvalidParams(format!(
                "task {} has no push config `{}`",
                req.task_id, req.id
            )))
        }
    }

    /// `GetExtendedAgentCard`.
    pub async fn get_extended_agent_card(
        &self,
        _req: GetExtendedAgentCardRequest,
        _call: &CallContext,
    ) -> Result<AgentCard, A2aError> {
        if self.inner.card.capabilities.extended_agent_card != Some(true) {
            return Err(A2aError::UnsupportedOperation(
                "this agent has no extended agent card (capabilities.extendedAgentCard is not true)".to_owned(),
            ));
        }
        self.inner
            .extended_card
            .clone()
            .ok_or(A2aError::ExtendedAgentCardNotConfigured)
    }

    /// Validates a send, records the message and starts the agent.
    async fn start(
        &self,
        req: SendMessageRequest,
        call: &CallContext,
    ) -> Result<Started, A2aError> {
        let SendMessageRequest {
            mut message,
            configuration,
            metadata,
            ..
        } = req;
        if message.message_id.is_empty() {
            return Err(A2aError::InvalidParams(
                "message.messageId is required".to_owned(),
            ));
        }
        if message.parts.is_empty() {
            return Err(A2aError::InvalidParams(
                "message.parts must hold at least one part".to_owned(),
            ));
        }
        if message.role == Role::Agent {
            return Err(A2aError::InvalidParams(
                "message.role must be ROLE_USER".to_owned(),
            ));
        }
        check_history_length(
            configuration.as_ref().and_then(|c| c.history_length),
            "configuration.historyLength",
        )?;
        if configuration
            .as_ref()
            .is_some_and(|c| c.task_push_notification_config.is_some())
        {
            self.push_supported()?;
        }
        self.check_extensions(call)?;
        self.check_content_types(&message)?;
        message.role = Role::User;

        let cancel = self.inner.shutdown.child_token();
        let execution_id = self
            .inner
            .next_execution
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (task_id, context_id, existing, after) = match message.task_id.clone() {
            Some(task_id) => {
                let task = self.load_visible(&task_id, call).await?;
                let state = task.status.state;
                if state.is_terminal() {
                    return Err(terminal_task(&task_id, state));
                }
                let context_id = task.context_id.clone().unwrap_or_default();
                if let Some(given) = &message.context_id
                    && *given != context_id
                {
                    return Err(A2aError::InvalidParams(format!(
                        "message.contextId `{given}` does not match the contextId `{context_id}` of task {task_id}"
                    )));
                }
                message.context_id = Some(context_id.clone());
                let recorded = message.clone();
                let running = &self.inner.running;
                let execution = Execution {
                    id: execution_id,
                    cancel: cancel.clone(),
                };
                let mut refused = None;
                // Accepting the message and registering its execution happen under the store's
                // lock of the task, so that a finishing earlier execution cannot interleave.
                let outcome = self
                    .inner
                    .store
                    .update(
                        &task_id,
                        Box::new(|task: &mut Task| {
                            let state = task.status.state;
                            let mut running = lock(running);
                            if state.is_terminal() {
                                refused = Some(terminal_task(&task.id, state));
                                return None;
                            }
                            if !state.is_interrupted() && running.contains_key(&task.id) {
                                refused = Some(A2aError::UnsupportedOperation(format!(
                                    "task {} is still being worked on; wait until it asks for input, or cancel it",
                                    task.id
                                )));
                                return None;
                            }
                            running.insert(task.id.clone(), execution);
                            task.history.push(recorded);
                            None
                        }),
                    )
                    .await?
                    .ok_or_else(|| A2aError::TaskNotFound(task_id.clone()))?;
                if let Some(err) = refused {
                    return Err(err);
                }
                (task_id, context_id, Some(task), outcome.last_seq)
            }
            None => {
                let task_id = TaskId::random();
                let context_id = message.context_id.clone().unwrap_or_else(ContextId::random);
                message.task_id = Some(task_id.clone());
                message.context_id = Some(context_id.clone());
                self.running().insert(
                    task_id.clone(),
                    Execution {
                        id: execution_id,
                        cancel: cancel.clone(),
                    },
                );
                (task_id, context_id, None, 0)
            }
        };

        let is_new = existing.is_none();
        let (first_tx, first_rx) = oneshot::channel();
        let initial = is_new.then(|| {
            Box::new(
                Task::new(
                    task_id.clone(),
                    context_id.clone(),
                    TaskStatus::now(TaskState::Submitted),
                )
                .with_history([message.clone()]),
            )
        });
        let writer = Arc::new(TaskWriter {
            store: self.inner.store.clone(),
            task_id: task_id.clone(),
            owner: call.principal.clone(),
            phase: tokio::sync::Mutex::new(if is_new {
                Phase::Pending(initial)
            } else {
                Phase::Created
            }),
            first: Mutex::new(Some(first_tx)),
            cancel: cancel.clone(),
            running: self.inner.running.clone(),
            execution_id,
            emitted: std::sync::atomic::AtomicUsize::new(0),
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
            cancel,
        };
        let sink = EventSink {
            target: writer.clone(),
            task_id: task_id.clone(),
            context_id,
        };
        let handler = self.clone();
        let span = tracing::info_span!("a2a.task", task.id = %task_id);
        tokio::spawn(
            async move {
                let agent = handler.inner.agent.clone();
                // The agent runs in this task; a panic in it is caught here (a second task
                // just to catch panics cost a spawn and a cross-task wake per request).
                let run = std::panic::AssertUnwindSafe(agent.execute_boxed(ctx, sink));
                let outcome = match futures_util::FutureExt::catch_unwind(run).await {
                    Ok(Ok(())) => Ok(()),
                    Ok(Err(err)) => Err(err.message().to_owned()),
                    Err(payload) => Err(format!("the agent panicked: {}", panic_text(payload))),
                };
                if let Err(reason) = &outcome {
                    tracing::warn!(%reason, "agent failed");
                }
                writer.finish(outcome).await;
                drop(handler);
            }
            .instrument(span),
        );

        if !is_new {
            return Ok(Started::Task { task_id, after });
        }
        match first_rx.await {
            Ok(First::Reply(message)) => Ok(Started::Replied(message)),
            Ok(First::Task) => Ok(Started::Task { task_id, after: 0 }),
            Err(_) => Err(A2aError::Internal(
                "the agent ended without a result".to_owned(),
            )),
        }
    }
}

enum Started {
    Replied(Message),
    Task { task_id: TaskId, after: u64 },
}

/// The execution of each task's running agent, shared with the task writers.
type Running = Arc<Mutex<HashMap<TaskId, Execution>>>;

/// One run of the agent for a task.
struct Execution {
    id: u64,
    cancel: CancellationToken,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The guarded maps are consistent between statements, so a poisoned lock is still usable.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn terminal_task(task_id: &TaskId, state: TaskState) -> A2aError {
    A2aError::UnsupportedOperation(format!(
        "task {task_id} is {state} (a terminal state) and accepts no more messages; \
         send a new message without taskId to start a new task"
    ))
}

fn check_history_length(n: Option<i32>, field: &str) -> Result<(), A2aError> {
    match n {
        Some(n) if n < 0 => Err(A2aError::InvalidParams(format!(
            "{field} must not be negative, got {n}"
        ))),
        _ => Ok(()),
    }
}

fn uuid_string() -> String {
    TaskId::random().into_string()
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

/// `type/subtype` matching with `*` wildcards, ignoring case and parameters.
fn media_type_matches(accepted: &str, given: &str) -> bool {
    let essence = |s: &str| {
        s.split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    };
    let (a, g) = (essence(accepted), essence(given));
    if a == "*/*" || a == g {
        return true;
    }
    match (a.split_once('/'), g.split_once('/')) {
        (Some((at, "*")), Some((gt, _))) => at == gt,
        _ => false,
    }
}

enum Phase {
    /// A new task not yet created: created by the first task event.
    Pending(Option<Box<Task>>),
    /// The task exists in the store.
    Created,
    /// Answered with a direct message: no task.
    Replied,
}

/// The server side of an [`EventSink`]: validates, applies and logs an execution's events.
struct TaskWriter {
    store: Arc<dyn TaskStore>,
    task_id: TaskId,
    owner: Option<Principal>,
    phase: tokio::sync::Mutex<Phase>,
    first: Mutex<Option<oneshot::Sender<First>>>,
    cancel: CancellationToken,
    running: Running,
    execution_id: u64,
    /// Events this execution had accepted.
    emitted: std::sync::atomic::AtomicUsize,
}

impl TaskWriter {
    fn signal(&self, first: First) {
        let tx = self
            .first
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(tx) = tx {
            // The caller may have gone away; the task goes on regardless.
            let _ = tx.send(first);
        }
    }

    async fn ensure_created(&self, phase: &mut Phase) -> Result<(), SinkError> {
        match phase {
            Phase::Pending(initial) => {
                let task = initial.take().expect("a pending task is created once");
                self.store
                    .create(*task, self.owner.clone())
                    .await
                    .map_err(|e| SinkError::Store(e.to_string()))?;
                *phase = Phase::Created;
                self.signal(First::Task);
                Ok(())
            }
            Phase::Created => Ok(()),
            Phase::Replied => Err(SinkError::AfterReply),
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
                _ => Err(SinkError::ReplyAfterTask),
            };
        }
        self.ensure_created(&mut phase).await?;
        let mut result = Ok(());
        let outcome = self
            .store
            .update(
                &self.task_id,
                Box::new(|task: &mut Task| {
                    let applied = match event {
                        AgentEvent::Status { state, message } => {
                            lifecycle::apply_status(task, state, message)
                        }
                        AgentEvent::Artifact {
                            artifact,
                            append,
                            last_chunk,
                        } => lifecycle::apply_artifact(task, artifact, append, last_chunk),
                        AgentEvent::Reply(_) => unreachable!("handled above"),
                    };
                    applied.map_err(|e| result = Err(e)).ok()
                }),
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
    /// of the same task (a follow-up accepted meanwhile) is left alone.
    async fn finish(&self, outcome: Result<(), String>) {
        let mut phase = self.phase.lock().await;
        if matches!(*phase, Phase::Replied) {
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
        let cancelled = self.cancel.is_cancelled();
        let emitted = self.emitted.load(std::sync::atomic::Ordering::Relaxed);
        let result = self
            .store
            .update(
                &self.task_id,
                Box::new(move |task: &mut Task| {
                    if !self.retire(&mut lock(&self.running)) {
                        return None;
                    }
                    let state = task.status.state;
                    match outcome {
                        _ if cancelled && !state.is_terminal() => {
                            lifecycle::apply_status(task, TaskState::Canceled, None).ok()
                        }
                        Ok(()) if state.is_interrupted() && emitted == 0 => {
                            Some(lifecycle::restate(task))
                        }
                        Ok(()) if state.is_final() => None,
                        Ok(()) => lifecycle::apply_status(task, TaskState::Completed, None).ok(),
                        Err(_) if state.is_terminal() => None,
                        Err(reason) => {
                            let message = Message::new(
                                a2a_types::v1::MessageId::random(),
                                Role::Agent,
                                vec![Part::text(reason)],
                            )
                            .with_task_id(task.id.clone())
                            .with_context_id(task.context_id.clone().unwrap_or_default());
                            lifecycle::apply_status(task, TaskState::Failed, Some(message)).ok()
                        }
                    }
                }),
            )
            .await;
        if let Err(err) = result {
            tracing::error!(%err, "cannot record the end of an agent's turn");
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

/// Reads a task's log from `after` on, yielding events until a final one.
fn log_stream(
    store: Arc<dyn TaskStore>,
    task_id: TaskId,
    after: u64,
    first: Option<StreamEvent>,
) -> EventStream {
    struct State {
        store: Arc<dyn TaskStore>,
        task_id: TaskId,
        after: u64,
        buffer: std::collections::VecDeque<StreamEvent>,
        done: bool,
        /// The last read found nothing new after a `wait` returned: only then is the task
        /// loaded to tell whether it is gone. Loading it on every empty read cloned the whole
        /// task (all its artifact chunks so far) for every event a fast reader waited for.
        waited: bool,
    }
    let done = first.as_ref().is_some_and(|f| f.event.is_final());
    let state = State {
        store,
        task_id,
        after,
        buffer: first.into_iter().collect(),
        done: false,
        waited: false,
    };
    let stream = futures_util::stream::unfold(state, move |mut st| async move {
        loop {
            if let Some(item) = st.buffer.pop_front() {
                if item.event.is_final() {
                    st.done = true;
                    st.buffer.clear();
                }
                return Some((Ok(item), st));
            }
            if st.done || done {
                return None;
            }
            let entries = match st.store.read_log(&st.task_id, st.after, 64).await {
                Ok(entries) => entries,
                Err(err) => {
                    st.done = true;
                    return Some((Err(A2aError::from(err)), st));
                }
            };
            if entries.is_empty() {
                // `wait` returns at once when the task is gone or has logged more; the load
                // tells which, and is needed only when the read after a wait found nothing.
                if st.waited {
                    match st.store.load(&st.task_id).await {
                        Ok(Some(stored)) if stored.last_seq > st.after => continue,
                        Ok(Some(_)) => {}
                        Ok(None) => return None,
                        Err(err) => {
                            st.done = true;
                            return Some((Err(A2aError::from(err)), st));
                        }
                    }
                }
                if let Err(err) = st.store.wait(&st.task_id, st.after).await {
                    st.done = true;
                    return Some((Err(A2aError::from(err)), st));
                }
                st.waited = true;
                continue;
            }
            st.waited = false;
            for entry in entries {
                st.after = entry.seq;
                st.buffer.push_back(StreamEvent {
                    seq: Some(entry.seq),
                    event: entry.event,
                });
            }
        }
    });
    Box::pin(stream)
}
