//! [`RequestHandler`]: the eleven A2A 1.0 operations, on the core types, without any wire.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_types::protocol::ProtocolVersion;
use a2a_types::trace::TraceContext;
use a2a_types::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, Message, StreamResponse, Task, TaskId,
    TaskPushNotificationConfig, TaskState,
};
use futures_core::Stream;
use tokio_util::sync::CancellationToken;

use crate::agent::{Agent, DynAgent};
use crate::auth::{AccessPolicy, ExtendedCardFn, OperationScopes, Principal, SkillScopes};
use crate::error::A2aError;
#[cfg(feature = "push")]
use crate::push::{PushSettings, Pusher};
use crate::store::{ListQuery, Observer, Owner, PushStatus, StoreError, TaskStore};
use a2a_types::protocol::Operation;

mod call;
mod execution;
mod expiry;
pub(crate) mod lifecycle;
mod outage;
mod subscribe;
mod turns;

/// Who calls, and with which service parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallContext {
    /// The authenticated caller, if any.
    pub principal: Option<Principal>,
    /// The extension URIs the caller asked for (`A2A-Extensions`).
    pub extensions: Vec<String>,
    /// The tenant the call is addressed to (the REST path prefix `/{tenant}/...`, or the
    /// request's `tenant` field), if any.
    pub tenant: Option<String>,
    /// The protocol version the call speaks (the shape its results take); tasks it creates
    /// remember it.
    pub protocol_version: ProtocolVersion,
    /// Whether the caller chooses the ids of new tasks, as A2A 0.1 clients do
    /// (`TaskSendParams.id`): a message whose `taskId` names no task then starts a new task
    /// under that id, instead of failing with `TaskNotFoundError`. An id that is taken (by a
    /// task of another owner, or by a send of the same id still starting) is refused with
    /// `InvalidParamsError` (-32602) saying only that the id cannot be used for a new task, the
    /// same answer whoever holds it, so the refusal reveals no task's owner or content.
    pub client_task_ids: bool,
    /// The W3C trace context of the call: the caller's trace (`traceparent`) with this
    /// server's span, or a new trace when the caller sent none. Agent runs and push deliveries
    /// continue it (see `docs/tracing.md`).
    pub trace: Option<TraceContext>,
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

    /// Sets the tenant.
    #[must_use]
    pub fn with_tenant(mut self, tenant: Option<String>) -> Self {
        self.tenant = tenant;
        self
    }

    /// Sets the protocol version.
    #[must_use]
    pub fn with_protocol_version(mut self, protocol_version: ProtocolVersion) -> Self {
        self.protocol_version = protocol_version;
        self
    }

    /// Lets the caller choose the ids of new tasks (see [`client_task_ids`](Self::client_task_ids)).
    #[must_use]
    pub fn with_client_task_ids(mut self, on: bool) -> Self {
        self.client_task_ids = on;
        self
    }

    /// Whom the tasks of this call belong to: its principal (its subject, without the
    /// request's scopes and claims) under the tenant the call addresses, else the principal's
    /// own tenant (a principal with a tenant may address no other).
    pub fn owner(&self) -> Owner {
        let tenant = self.tenant.clone().filter(|t| !t.is_empty()).or_else(|| {
            self.principal
                .as_ref()
                .and_then(|p| p.tenant().map(str::to_owned))
        });
        Owner::new(self.principal.clone(), tenant)
    }

    /// Sets the trace context.
    #[must_use]
    pub fn with_trace(mut self, trace: Option<TraceContext>) -> Self {
        self.trace = trace;
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
///
/// The limits a client can run into (the store's own are on
/// [`RetentionPolicy`](crate::store::RetentionPolicy)); bytes are the store's estimate of the
/// memory a task's content takes (see the [store docs](crate::store#bytes)):
///
/// | limit | default | what a client sees when it is hit |
/// |---|---|---|
/// | `max_task_bytes` | 16 MiB | a `SendMessage` whose message alone is larger: `InvalidParamsError` (-32602) "the message takes N bytes, more than the M bytes a task may hold (max_task_bytes)"; a follow-up message that would take its task over: `UnsupportedOperationError` (-32004) "task T cannot take this message of N bytes: the task holds ..."; an agent event that would: refused to the agent with `SinkError::TooLarge`, the task unchanged (what the client then sees is up to the agent: by default its error fails the task) |
/// | `max_page_bytes` | 4 MiB | `ListTasks` ends the page early (at least one task) and returns `nextPageToken` for the rest |
/// | `max_page_size` | 100 | `ListTasks` with a `pageSize` outside `1..=max_page_size`: `InvalidParamsError` (-32602) "pageSize must be between 1 and 100, got N", with a `google.rpc.BadRequest` field violation naming `pageSize` (over HTTP+JSON a 400) |
/// | `cancel_grace` | 5 s | after it, `CancelTask` marks a task canceled whose agent ignores the cancel |
/// | `interrupted_ttl` | 24 h | a task left `TASK_STATE_INPUT_REQUIRED` or `TASK_STATE_AUTH_REQUIRED` this long (no follow-up, no agent running) ends `TASK_STATE_FAILED` with the agent message "The task waited longer than 24 h for input and was closed (interrupted_ttl); send a new message without taskId to start a new task."; open streams and waiting calls get that status, a follow-up gets `UnsupportedOperationError` (-32004) "task T is TASK_STATE_FAILED (a terminal state) ..." |
/// | `outage_tolerance` | 30 s | while the store fails transiently (its database away), an agent's `sink` call, the end of its turn and a stream's read wait for it; past it the sink call fails with `SinkError::Store` ("task store unavailable: for longer than the outage tolerance of 30 s (outage_tolerance): ..."), the task ends `TASK_STATE_FAILED` with "an event of the task could not be stored: ..." once the store is back, and a stream ends with the retryable 503 error |
/// | `long_poll_timeout` | 30 s | no error: a `GetTask` with `currentGeneration` (A2A 1.1) that the task has not passed is held this long at most, then answered with the task as it is |
/// | `max_long_polls` | 1 000 | a `GetTask` with `currentGeneration` that would be held beyond it: -32603 "the server holds 1000 long polls already (max_long_polls); poll again later" with HTTP `503` and `Retry-After: 1`, retryable (gRPC `UNAVAILABLE`) |
/// | `max_pending_outcomes` | 10 000 | no error: the ends of turns the store could not take wait in memory and are written once it is back; beyond it the oldest is given up (a SQL store's lease then ends its task) |
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HandlerConfig {
    /// How long a cancelled agent may take to end its task before the server marks it canceled.
    pub cancel_grace: Duration,
    /// `ListTasks` page size when the request sets none.
    pub default_page_size: usize,
    /// The largest `ListTasks` page size; a request for more (or for less than 1) is refused
    /// with `InvalidParamsError`.
    pub max_page_size: usize,
    /// The most bytes one task may hold: its history, artifacts and event log. Four times the
    /// default request body limit (4 MiB), so that a task can take a message of the largest
    /// size a request carries, an answer as large, and follow-ups.
    pub max_task_bytes: u64,
    /// The most bytes of tasks (their JSON as presented) one `ListTasks` page carries; the
    /// rest comes on the next page. A single larger task still comes, alone: its size is
    /// bounded by `max_task_bytes`.
    pub max_page_bytes: usize,
    /// How long a task may wait for the client in an interrupted state
    /// (`TASK_STATE_INPUT_REQUIRED`, `TASK_STATE_AUTH_REQUIRED`) once its agent's turn ended.
    /// Then it ends `TASK_STATE_FAILED`, with an agent status message that says it waited too
    /// long, logged like any event (streams and waiting calls see it); retention then treats
    /// it as any ended task. A follow-up message restarts the clock when its turn ends; a task
    /// whose agent still runs never expires. `None`: interrupted tasks wait for ever (and count
    /// against `RetentionPolicy::max_live_tasks` until they end).
    ///
    /// Counted from when this handler saw the turn end: tasks a persistent store held before
    /// the process started are not expired until their next turn.
    pub interrupted_ttl: Option<Duration>,
    /// The store is shared with other replicas (a SQL store several servers use): each running
    /// agent follows its task in the store, and is cancelled when the task ends there while it
    /// runs (a `CancelTask` answered by another replica marks the task canceled; this replica's
    /// agent then gets its cancellation). Costs one store reader per running agent. Default
    /// false.
    pub shared_store: bool,
    /// How long the handler waits for a store that fails transiently (its database is away)
    /// before it gives up: an agent's `sink` call waits meanwhile (nothing is acknowledged
    /// before it is stored), as do the write that ends an agent's turn and a stream's read.
    /// Past it the sink call fails with the store's error, and the task fails with it once
    /// the store is back; a stream ends with the error (a retryable 503). A store back within
    /// it loses nothing and fails nothing. Default 30 s.
    pub outage_tolerance: Duration,
    /// The most ends of agents' turns kept in memory while the store cannot take them (past
    /// `outage_tolerance`), written once it is back: each task then reaches its terminal
    /// state. Beyond it the oldest is given up (a SQL store's lease then ends its task).
    /// Default 10 000.
    pub max_pending_outcomes: usize,
    /// How long a `GetTask` with `currentGeneration` (A2A 1.1: a long poll) is held at most
    /// while the task has not passed that generation; then it is answered with the task as
    /// it is (the draft allows an earlier answer). Default 30 s.
    pub long_poll_timeout: Duration,
    /// The most long polls held at once; one more is refused with a retryable 503
    /// (`Retry-After: 1`). Default 1 000.
    pub max_long_polls: usize,
}

impl Default for HandlerConfig {
    fn default() -> Self {
        Self {
            cancel_grace: Duration::from_secs(5),
            default_page_size: 50,
            max_page_size: 100,
            max_task_bytes: 16 * 1024 * 1024,
            max_page_bytes: 4 * 1024 * 1024,
            interrupted_ttl: Some(Duration::from_secs(24 * 60 * 60)),
            shared_store: false,
            outage_tolerance: Duration::from_secs(30),
            max_pending_outcomes: 10_000,
            long_poll_timeout: Duration::from_secs(30),
            max_long_polls: 1_000,
        }
    }
}

impl HandlerConfig {
    /// Sets whether the store is shared with other replicas (see
    /// [`shared_store`](Self::shared_store)).
    #[must_use]
    pub fn with_shared_store(mut self, shared: bool) -> Self {
        self.shared_store = shared;
        self
    }

    /// Sets the longest hold of a long poll ([`long_poll_timeout`](Self::long_poll_timeout)).
    #[must_use]
    pub fn with_long_poll_timeout(mut self, timeout: Duration) -> Self {
        self.long_poll_timeout = timeout;
        self
    }

    /// Sets the most long polls held at once ([`max_long_polls`](Self::max_long_polls)).
    #[must_use]
    pub fn with_max_long_polls(mut self, polls: usize) -> Self {
        self.max_long_polls = polls;
        self
    }

    /// Sets the cancel grace period.
    #[must_use]
    pub fn with_cancel_grace(mut self, grace: Duration) -> Self {
        self.cancel_grace = grace;
        self
    }

    /// Sets the most bytes one task may hold.
    #[must_use]
    pub fn with_max_task_bytes(mut self, bytes: u64) -> Self {
        self.max_task_bytes = bytes;
        self
    }

    /// Sets the most bytes of tasks one `ListTasks` page carries.
    #[must_use]
    pub fn with_max_page_bytes(mut self, bytes: usize) -> Self {
        self.max_page_bytes = bytes;
        self
    }

    /// Sets how long the handler waits for a store that fails transiently (see
    /// [`outage_tolerance`](Self::outage_tolerance)).
    #[must_use]
    pub fn with_outage_tolerance(mut self, tolerance: Duration) -> Self {
        self.outage_tolerance = tolerance;
        self
    }

    /// Sets how many ends of turns are kept while the store cannot take them (see
    /// [`max_pending_outcomes`](Self::max_pending_outcomes)).
    #[must_use]
    pub fn with_max_pending_outcomes(mut self, max: usize) -> Self {
        self.max_pending_outcomes = max;
        self
    }

    /// Sets how long a task may wait for the client in an interrupted state (`None`: for
    /// ever).
    #[must_use]
    pub fn with_interrupted_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.interrupted_ttl = ttl;
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
    access: AccessPolicy,
    config: HandlerConfig,
    running: Running,
    /// Held around each update whose decision involves `running` (see [`turns`]).
    turns: Arc<turns::Turns>,
    next_execution: std::sync::atomic::AtomicU64,
    /// Blocking `SendMessage` calls under way (see `execution::CallerRun`).
    blocking_calls: Arc<std::sync::atomic::AtomicUsize>,
    shutdown: CancellationToken,
    /// The places of held long polls ([`HandlerConfig::max_long_polls`]).
    long_polls: Arc<tokio::sync::Semaphore>,
    /// The deadlines of interrupted tasks.
    expiry: Arc<expiry::Expiry>,
    /// The ends of turns the store could not take yet.
    pending: Arc<outage::PendingOutcomes>,
    /// Push delivery, when switched on.
    #[cfg(feature = "push")]
    push: Option<Arc<Pusher>>,
    /// Whether the push worker was started.
    #[cfg(feature = "push")]
    push_started: std::sync::atomic::AtomicBool,
}

impl Drop for Inner {
    /// The handler is gone: the push worker, which holds only the store, stops.
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

impl std::fmt::Debug for RequestHandler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestHandler")
            .field("card", &self.inner.card.name)
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

/// Builds a [`RequestHandler`]: the agent and its card, plus optional parts (the
/// [`ServiceBuilder`](crate::ServiceBuilder) sets them).
pub(crate) struct HandlerBuilder {
    agent: Arc<dyn DynAgent>,
    card: AgentCard,
    store: Option<Arc<dyn TaskStore>>,
    extended_card: Option<AgentCard>,
    access: AccessPolicy,
    config: HandlerConfig,
    /// Whether `card` came from [`crate::card::assemble`], push declared.
    card_assembled: bool,
    #[cfg(feature = "push")]
    push: Option<PushSettings>,
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
    pub(crate) fn store(mut self, store: impl TaskStore) -> Self {
        self.store = Some(Arc::new(store));
        self
    }

    /// Stores tasks in a store shared with other handlers.
    #[must_use]
    pub(crate) fn shared_store(mut self, store: Arc<dyn TaskStore>) -> Self {
        self.store = Some(store);
        self
    }

    /// The card `GetExtendedAgentCard` returns (the public card must declare
    /// `capabilities.extendedAgentCard`).
    #[must_use]
    pub(crate) fn extended_card(mut self, card: AgentCard) -> Self {
        self.extended_card = Some(card);
        self
    }

    /// The extended card for each authenticated caller: `None` answers
    /// `ExtendedAgentCardNotConfiguredError`. Takes precedence over
    /// [`extended_card`](Self::extended_card).
    #[must_use]
    pub(crate) fn extended_card_for(
        mut self,
        card_for: impl Fn(&Principal) -> Option<AgentCard> + Send + Sync + 'static,
    ) -> Self {
        self.access.extended_card_for = Some(Arc::new(card_for) as ExtendedCardFn);
        self
    }

    /// The scopes each operation needs (see [`OperationScopes`]); none by default.
    #[must_use]
    pub(crate) fn scopes(mut self, scopes: OperationScopes) -> Self {
        self.access.scopes = scopes;
        self
    }

    /// The scopes each skill needs (see [`SkillScopes`]): the skill a message asks for is
    /// checked before a task is created or the agent runs. The card's skills'
    /// `securityRequirements` are added when the handler is built, whatever is set here
    /// (default: [`SkillScopes::new`]).
    #[must_use]
    pub(crate) fn skill_scopes(mut self, skills: SkillScopes) -> Self {
        self.access.skills = skills;
        self
    }

    /// Whether `GetExtendedAgentCard` needs an authenticated caller (default: off for a bare
    /// handler; the [`A2aService`](crate::A2aService) turns it on when it has an
    /// authenticator). An anonymous caller is then refused with 401.
    #[must_use]
    pub(crate) fn extended_card_needs_principal(mut self, on: bool) -> Self {
        self.access.extended_card_needs_principal = on;
        self
    }

    /// Replaces the public card with the one [`crate::card::assemble`] made (push declared
    /// there): the handler then declares nothing itself.
    #[must_use]
    pub(crate) fn assembled_card(mut self, card: AgentCard) -> Self {
        self.card = card;
        self.card_assembled = true;
        self
    }

    /// Sets the tunables.
    #[must_use]
    pub(crate) fn config(mut self, config: HandlerConfig) -> Self {
        self.config = config;
        self
    }

    /// Switches push delivery on (see [`crate::push`]): the card declares
    /// `capabilities.pushNotifications`, and a worker delivers every task event to the task's
    /// push configs. Without it, a card that declares push notifications is corrected to false.
    #[cfg(feature = "push")]
    #[must_use]
    pub(crate) fn push(mut self, settings: PushSettings) -> Self {
        self.push = Some(settings);
        self
    }

    /// The handler. Inside a Tokio runtime, the push worker starts here; otherwise with the
    /// first request.
    pub(crate) fn build(mut self) -> RequestHandler {
        if !self.card_assembled {
            crate::card::declare(
                &mut self.card,
                #[cfg(feature = "push")]
                self.push.as_ref(),
            );
        }
        self.access.skills = std::mem::take(&mut self.access.skills).with_card(&self.card);
        let ttl = self.config.interrupted_ttl;
        let max_pending = self.config.max_pending_outcomes;
        let max_long_polls = self.config.max_long_polls;
        let shutdown = CancellationToken::new();
        let pending_stop = shutdown.clone();
        let handler = RequestHandler {
            inner: Arc::new_cyclic(|handler| Inner {
                agent: self.agent,
                store: self
                    .store
                    .unwrap_or_else(|| Arc::new(crate::store::InMemoryTaskStore::new())),
                card: self.card,
                extended_card: self.extended_card,
                access: self.access,
                config: self.config,
                running: Running::default(),
                turns: Arc::default(),
                next_execution: std::sync::atomic::AtomicU64::new(1),
                blocking_calls: Arc::default(),
                shutdown,
                long_polls: Arc::new(tokio::sync::Semaphore::new(max_long_polls)),
                expiry: Arc::new(expiry::Expiry::new(ttl, handler.clone())),
                pending: Arc::new(outage::PendingOutcomes::new(
                    max_pending,
                    handler.clone(),
                    pending_stop,
                )),
                #[cfg(feature = "push")]
                push: self.push.map(|settings| Arc::new(Pusher::new(settings))),
                #[cfg(feature = "push")]
                push_started: std::sync::atomic::AtomicBool::new(false),
            }),
        };
        handler.start_push();
        handler
    }
}

impl RequestHandler {
    /// A handler for this agent, store and card, with the default tunables.
    pub fn new(agent: impl Agent, store: impl TaskStore, card: AgentCard) -> Self {
        Self::builder(agent, card).store(store).build()
    }

    /// A builder for a handler of this agent and card.
    pub(crate) fn builder(agent: impl Agent, card: AgentCard) -> HandlerBuilder {
        HandlerBuilder {
            agent: Arc::new(agent),
            card,
            store: None,
            extended_card: None,
            access: AccessPolicy::default(),
            config: HandlerConfig::default(),
            card_assembled: false,
            #[cfg(feature = "push")]
            push: None,
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

    /// Asks every running agent to stop (their cancellation tokens fire), and stops the push
    /// worker.
    pub fn shutdown(&self) {
        self.inner.shutdown.cancel();
    }

    /// Starts the push worker, once, when push delivery is on, a Tokio runtime runs and the
    /// handler was not shut down. The service calls it on every request; cheap after the first.
    pub(crate) fn start_push(&self) {
        #[cfg(feature = "push")]
        {
            use std::sync::atomic::Ordering;
            let inner = &self.inner;
            let Some(pusher) = &inner.push else {
                return;
            };
            if inner.push_started.load(Ordering::Acquire) || inner.shutdown.is_cancelled() {
                return;
            }
            let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                return;
            };
            if inner.push_started.swap(true, Ordering::AcqRel) {
                return;
            }
            runtime.spawn(crate::push::run(
                inner.store.clone(),
                pusher.clone(),
                inner.shutdown.child_token(),
            ));
        }
    }

    /// The push settings, when push delivery is on.
    #[cfg(feature = "push")]
    pub(crate) fn pusher(&self) -> Option<&Arc<Pusher>> {
        self.inner.push.as_ref()
    }

    fn running(&self) -> std::sync::MutexGuard<'_, crate::hashing::IdMap<TaskId, Execution>> {
        lock(&self.inner.running)
    }

    async fn load_visible(&self, id: &TaskId, call: &CallContext) -> Result<Task, A2aError> {
        match self.inner.store.load(id).await? {
            Some(stored) if stored.owner == call.owner() => Ok(stored.task),
            _ => Err(A2aError::task_not_found(id.clone())),
        }
    }

    /// The protocol version a task the caller can see was created through (the shape a
    /// call that names no version renders it in); `None` when the caller cannot see such a
    /// task.
    pub async fn task_version(
        &self,
        id: &TaskId,
        call: &CallContext,
    ) -> Result<Option<ProtocolVersion>, A2aError> {
        Ok(match self.inner.store.load(id).await? {
            Some(stored) if stored.owner == call.owner() => Some(stored.protocol_version),
            _ => None,
        })
    }

    /// A task a message with a client-chosen id continues (`Some`), or `None` when the id is
    /// free for a new task; an id held by a task the caller cannot see is refused.
    async fn client_task(&self, id: &TaskId, call: &CallContext) -> Result<Option<Task>, A2aError> {
        match self.inner.store.load(id).await? {
            Some(stored) if stored.owner == call.owner() => Ok(Some(stored.task)),
            Some(_) => Err(task_id_unavailable(id)),
            None if id.is_empty() => Err(A2aError::invalid_params(
                "the task id must not be empty".to_owned(),
            )),
            None if id.as_str().len() > MAX_CLIENT_TASK_ID_BYTES => {
                Err(A2aError::invalid_params(format!(
                    "a task id chosen by the client may take at most {MAX_CLIENT_TASK_ID_BYTES} bytes, this one takes {}",
                    id.as_str().len()
                )))
            }
            None => Ok(None),
        }
    }

    fn check_extensions(&self, call: &CallContext) -> Result<(), A2aError> {
        for ext in &self.inner.card.capabilities.extensions {
            if let Some(uri) = ext.uri.as_deref().filter(|_| ext.required)
                && !call.extensions.iter().any(|e| e == uri)
            {
                return Err(A2aError::extension_support_required(uri.to_owned()));
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
                return Err(A2aError::content_type_not_supported(
                    media_type,
                    &accepted.join(", "),
                ));
            }
        }
        Ok(())
    }

    fn streaming_supported(&self) -> Result<(), A2aError> {
        if self.inner.card.capabilities.streaming == Some(true) {
            Ok(())
        } else {
            Err(A2aError::unsupported_operation(
                "streaming is not supported by this agent (capabilities.streaming is not true)"
                    .to_owned(),
            ))
        }
    }

    fn push_supported(&self) -> Result<(), A2aError> {
        if self.inner.card.capabilities.push_notifications == Some(true) {
            Ok(())
        } else {
            Err(A2aError::push_notification_not_supported())
        }
    }

    /// `GetTask`.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "GetTask", a2a.task_id = %req.id))]
    pub async fn get_task(
        &self,
        req: GetTaskRequest,
        call: &CallContext,
    ) -> Result<Task, A2aError> {
        self.authorize(Operation::GetTask, call)?;
        check_history_length(req.history_length, "historyLength")?;
        let mut task = self.load_visible(&req.id, call).await?;
        if let Some(seen) = req.current_generation
            && task.generation <= seen
        {
            self.long_poll(&req.id, seen).await?;
            task = self.load_visible(&req.id, call).await?;
        }
        Ok(lifecycle::present(task, req.history_length, true))
    }

    /// Holds a long poll (A2A 1.1 `currentGeneration`) until the task passes generation
    /// `seen` (the store's wake-up: another replica's commit too), the timeout, or shutdown;
    /// refused beyond `max_long_polls`.
    async fn long_poll(&self, id: &TaskId, seen: i64) -> Result<(), A2aError> {
        let Ok(_place) = self.inner.long_polls.clone().try_acquire_owned() else {
            return Err(A2aError::unavailable(
                format!(
                    "the server holds {} long polls already (max_long_polls); poll again later",
                    self.inner.config.max_long_polls
                ),
                Duration::from_secs(1),
            ));
        };
        let held = async {
            loop {
                let Some(progress) = self.inner.store.progress(id).await? else {
                    return Ok::<_, A2aError>(());
                };
                if crate::store::generation(progress.last_seq) > seen {
                    return Ok(());
                }
                self.inner.store.wait(id, progress.last_seq).await?;
            }
        };
        tokio::select! {
            held = held => held,
            () = tokio::time::sleep(self.inner.config.long_poll_timeout) => Ok(()),
            () = self.inner.shutdown.cancelled() => Ok(()),
        }
    }

    /// `ListTasks`: the caller's tasks, newest status first, one page at a time.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "ListTasks"))]
    pub async fn list_tasks(
        &self,
        req: ListTasksRequest,
        call: &CallContext,
    ) -> Result<ListTasksResponse, A2aError> {
        self.authorize(Operation::ListTasks, call)?;
        check_history_length(req.history_length, "historyLength")?;
        let max = self.inner.config.max_page_size;
        let page_size = match req.page_size {
            None => self.inner.config.default_page_size.min(max),
            Some(n) => match usize::try_from(n) {
                Ok(size) if (1..=max).contains(&size) => size,
                _ => {
                    // Refused, not cut down: the caller asked for a page the spec does not allow.
                    let why = format!("must be between 1 and {max}, got {n}");
                    return Err(A2aError::invalid_params(format!("pageSize {why}"))
                        .with_field_violation("pageSize", why));
                }
            },
        };
        let include_artifacts = req.include_artifacts.unwrap_or(false);
        let query = ListQuery {
            owner: call.owner(),
            context_id: req.context_id,
            state: (!req.status.is_unspecified()).then_some(req.status),
            status_after: req.status_timestamp_after,
            page_size,
            page_token: req.page_token,
            history_length: req.history_length.map(|n| usize::try_from(n).unwrap_or(0)),
            include_artifacts,
            max_bytes: Some(self.inner.config.max_page_bytes),
        };
        let page = match self.inner.store.list(&query).await {
            Ok(page) => page,
            Err(StoreError::InvalidPageToken(token)) => {
                return Err(A2aError::invalid_params(format!(
                    "pageToken `{token}` is not a token this server returned"
                )));
            }
            Err(err) => return Err(err.into()),
        };
        Ok(ListTasksResponse::new(
            page.tasks,
            page.next_page_token,
            i32::try_from(page_size).unwrap_or(i32::MAX),
            i32::try_from(page.total_size).unwrap_or(i32::MAX),
        ))
    }

    /// `CancelTask`: idempotent; a task in another terminal state is not cancelable.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "CancelTask", a2a.task_id = %req.id))]
    pub async fn cancel_task(
        &self,
        req: CancelTaskRequest,
        call: &CallContext,
    ) -> Result<Task, A2aError> {
        self.authorize(Operation::CancelTask, call)?;
        let task = self.load_visible(&req.id, call).await?;
        match task.status.state {
            TaskState::Canceled => return Ok(task),
            state if state.is_terminal() => {
                return Err(A2aError::task_not_cancelable(req.id, state));
            }
            _ => {}
        }
        // Kept while this call waits for the agent and answers.
        let _pin = self.inner.store.pin(&req.id).await?;
        let execution = self
            .running()
            .get(&req.id)
            .map(|e| (e.cancel.clone(), e.final_task.clone()));
        let final_task = execution.as_ref().map(|(_, slot)| slot.clone());
        if let Some((token, _)) = execution {
            token.cancel();
            let grace = self.inner.config.cancel_grace;
            let agent = self.inner.agent.clone();
            let wait_terminal = async {
                agent.cancel_boxed(&task).await;
                loop {
                    let Some(progress) = self.inner.store.progress(&req.id).await? else {
                        return Ok::<_, A2aError>(());
                    };
                    if progress.state.is_terminal() {
                        return Ok(());
                    }
                    self.inner.store.wait(&req.id, progress.last_seq).await?;
                }
            };
            // A timeout here is the agent ignoring the cancel: the server ends the task below.
            let _ = tokio::time::timeout(grace, wait_terminal).await;
        }
        let mut refused = None;
        let mut answer = None;
        // The canceled task is this call's answer, taken from the update that canceled it
        // (and any blocking `SendMessage` of the execution gets it too).
        let then: Observer<'_> = Box::new(|task: &Task| {
            if let Some(slot) = &final_task {
                deliver_final(slot, task);
            }
            answer = Some(task.clone());
        });
        let outcome = self
            .inner
            .store
            .update(
                &req.id,
                Box::new(|task: &Task, _room| {
                    refused = None;
                    if task.status.state.is_terminal() {
                        refused = Some(task.clone());
                        return None;
                    }
                    let message = lifecycle::agent_message(task, "The task was canceled.");
                    lifecycle::status_edit(task, TaskState::Canceled, Some(message)).ok()
                }),
                Some(then),
            )
            .await?;
        if answer.is_some() {
            self.inner.expiry.forget(&req.id);
        }
        if outcome.is_none() {
            return Err(A2aError::task_not_found(req.id));
        }
        match (answer, refused) {
            (Some(task), _) => Ok(task),
            (None, Some(task)) if task.status.state == TaskState::Canceled => Ok(task),
            (None, Some(task)) => Err(A2aError::task_not_cancelable(req.id, task.status.state)),
            (None, None) => Err(A2aError::internal(format!(
                "task {} could not be canceled",
                req.id
            ))),
        }
    }

    /// `CreateTaskPushNotificationConfig`: the config, checked (its URL by the SSRF guard),
    /// stored with the version the call speaks (the shape of its deliveries).
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "CreateTaskPushNotificationConfig"))]
    pub async fn create_push_config(
        &self,
        config: TaskPushNotificationConfig,
        call: &CallContext,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        self.authorize(Operation::CreateTaskPushNotificationConfig, call)?;
        self.push_supported()?;
        let task_id = config
            .task_id
            .clone()
            .ok_or_else(|| A2aError::invalid_params("taskId is required".to_owned()))?;
        self.load_visible(&task_id, call).await?;
        let config = self.checked_push_config(config, &task_id).await?;
        self.inner
            .store
            .put_push_config(config.clone(), call.protocol_version)
            .await?;
        Ok(config)
    }

    /// A push config for `task_id` a client gave, checked: its URL, headers and the task's
    /// limit of configs; its id assigned when it has none.
    pub(crate) async fn checked_push_config(
        &self,
        mut config: TaskPushNotificationConfig,
        task_id: &TaskId,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        if config.url.is_empty() {
            return Err(A2aError::invalid_params("url is required".to_owned()));
        }
        config.task_id = Some(task_id.clone());
        #[cfg(feature = "push")]
        if let Some(pusher) = self.pusher() {
            pusher.check_config(&config).await?;
            let max = pusher.settings.max_configs_per_task;
            let existing = self.inner.store.list_push_configs(task_id).await?;
            let replaces = config.id.is_some() && existing.iter().any(|c| c.id == config.id);
            if !replaces && existing.len() >= max {
                return Err(A2aError::unsupported_operation(format!(
                    "task {task_id} has {} push configs, its limit (max_configs_per_task); \
                     delete one first",
                    existing.len()
                )));
            }
        }
        if config.id.is_none() {
            config.id = Some(uuid_string());
        }
        Ok(config)
    }

    /// How deliveries to each push config of a task went: what was delivered and dropped, and
    /// the pending and dead deliveries with their last errors (the config's status, which the
    /// A2A wire has no field for). `TaskNotFoundError` for a task the caller cannot see.
    pub async fn push_status(
        &self,
        task_id: &TaskId,
        call: &CallContext,
    ) -> Result<Vec<PushStatus>, A2aError> {
        self.authorize(Operation::GetTaskPushNotificationConfig, call)?;
        self.push_supported()?;
        self.load_visible(task_id, call).await?;
        Ok(self.inner.store.push_status(task_id).await?)
    }

    /// `GetTaskPushNotificationConfig`.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "GetTaskPushNotificationConfig", a2a.task_id = %req.task_id))]
    pub async fn get_push_config(
        &self,
        req: GetTaskPushNotificationConfigRequest,
        call: &CallContext,
    ) -> Result<TaskPushNotificationConfig, A2aError> {
        self.authorize(Operation::GetTaskPushNotificationConfig, call)?;
        self.push_supported()?;
        self.load_visible(&req.task_id, call).await?;
        self.inner
            .store
            .get_push_config(&req.task_id, &req.id)
            .await?
            // "TaskNotFoundError: The push notification configuration does not exist" (spec
            // 1.0 §3.1.8).
            .ok_or_else(|| {
                A2aError::with_code_info(
                    a2a_jsonrpc::ErrorCode::TASK_NOT_FOUND,
                    format!("task {} has no push config `{}`", req.task_id, req.id),
                )
                .with_metadata("taskId", req.task_id.as_str())
                .with_metadata("configId", req.id.as_str())
            })
    }

    /// `ListTaskPushNotificationConfigs`.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "ListTaskPushNotificationConfigs", a2a.task_id = %req.task_id))]
    pub async fn list_push_configs(
        &self,
        req: ListTaskPushNotificationConfigsRequest,
        call: &CallContext,
    ) -> Result<ListTaskPushNotificationConfigsResponse, A2aError> {
        self.authorize(Operation::ListTaskPushNotificationConfigs, call)?;
        self.push_supported()?;
        self.load_visible(&req.task_id, call).await?;
        let configs = self.inner.store.list_push_configs(&req.task_id).await?;
        Ok(ListTaskPushNotificationConfigsResponse::new(configs, None))
    }

    /// `DeleteTaskPushNotificationConfig`.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "DeleteTaskPushNotificationConfig", a2a.task_id = %req.task_id))]
    pub async fn delete_push_config(
        &self,
        req: DeleteTaskPushNotificationConfigRequest,
        call: &CallContext,
    ) -> Result<(), A2aError> {
        self.authorize(Operation::DeleteTaskPushNotificationConfig, call)?;
        self.push_supported()?;
        self.load_visible(&req.task_id, call).await?;
        // Idempotent (spec 1.0 §3.1.10): deleting a config that is already gone succeeds; the
        // operation's only errors are PushNotificationNotSupported and TaskNotFound.
        self.inner
            .store
            .delete_push_config(&req.task_id, &req.id)
            .await?;
        Ok(())
    }

    /// `GetExtendedAgentCard`: for an authenticated caller (the service has an
    /// authenticator: [`ServiceBuilder::authenticator`](crate::ServiceBuilder::authenticator)),
    /// the card [`ServiceBuilder::extended_card_for`](crate::ServiceBuilder::extended_card_for)
    /// gives its principal, else the configured extended card. A caller of an older protocol version
    /// (0.3, 0.1: [`CallContext::protocol_version`]) gets the public card's interfaces in an
    /// extended card that lists none: its card names its endpoint in `url`.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "GetExtendedAgentCard"))]
    pub async fn get_extended_agent_card(
        &self,
        _req: GetExtendedAgentCardRequest,
        call: &CallContext,
    ) -> Result<AgentCard, A2aError> {
        self.authorize(Operation::GetExtendedAgentCard, call)?;
        if self.inner.card.capabilities.extended_agent_card != Some(true) {
            return Err(A2aError::unsupported_operation(
                "this agent has no extended agent card (capabilities.extendedAgentCard is not true)".to_owned(),
            ));
        }
        let access = &self.inner.access;
        if access.extended_card_needs_principal && call.principal.is_none() {
            return Err(A2aError::unauthenticated(
                "GetExtendedAgentCard needs an authenticated caller",
            ));
        }
        let mut card = match (&access.extended_card_for, &call.principal) {
            (Some(card_for), Some(principal)) => card_for(principal),
            _ => self.inner.extended_card.clone(),
        }
        .ok_or(A2aError::extended_agent_card_not_configured())?;
        if call.protocol_version != ProtocolVersion::V1 && card.supported_interfaces.is_empty() {
            card.supported_interfaces
                .clone_from(&self.inner.card.supported_interfaces);
        }
        Ok(card)
    }

    /// Whether the call may run the operation: the scopes it needs, the principal's tenant.
    pub(crate) fn authorize(
        &self,
        operation: Operation,
        call: &CallContext,
    ) -> Result<(), A2aError> {
        self.inner
            .access
            .check(operation, call.principal.as_ref(), call.tenant.as_deref())
    }

    /// Whether the call may run the skill its message asks for (see [`SkillScopes`]).
    pub(crate) fn authorize_skill(
        &self,
        req: &a2a_types::v1::SendMessageRequest,
        call: &CallContext,
    ) -> Result<(), A2aError> {
        self.inner
            .access
            .skills
            .check_request(req, call.principal.as_ref())
    }
}

/// The execution of each task's running agent, shared with the task writers.
type Running = Arc<Mutex<crate::hashing::IdMap<TaskId, Execution>>>;

/// One run of the agent for a task.
struct Execution {
    id: u64,
    cancel: CancellationToken,
    /// Where the update that makes the task final leaves it for a blocking `SendMessage`.
    final_task: FinalSlot,
}

/// Holds the sender of a blocking `SendMessage` waiting for its task to become final.
type FinalSlot = Arc<Mutex<Option<tokio::sync::oneshot::Sender<Task>>>>;

/// Hands `task` to the caller waiting in `slot`, if it is final and someone waits.
fn deliver_final(slot: &FinalSlot, task: &Task) {
    if task.status.state.is_final()
        && let Some(tx) = lock(slot).take()
    {
        // The caller may have gone away.
        let _ = tx.send(task.clone());
    }
}

/// An observer for an update that may make the task final: `None` when nobody waits.
fn final_observer(slot: &FinalSlot) -> Option<Observer<'static>> {
    if lock(slot).is_none() {
        return None;
    }
    let slot = slot.clone();
    Some(Box::new(move |task: &Task| deliver_final(&slot, task)))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The guarded maps are consistent between statements, so a poisoned lock is still usable.
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn check_history_length(n: Option<i32>, field: &str) -> Result<(), A2aError> {
    match n {
        Some(n) if n < 0 => Err(A2aError::invalid_params(format!(
            "{field} must not be negative, got {n}"
        ))),
        _ => Ok(()),
    }
}

/// The longest task id a client may choose (A2A 0.1 `tasks/send`).
pub(crate) const MAX_CLIENT_TASK_ID_BYTES: usize = 256;

/// The refusal of a client-chosen task id that is taken: the same whoever holds it.
pub(crate) fn task_id_unavailable(id: &TaskId) -> A2aError {
    A2aError::invalid_params(format!(
        "task id `{id}` cannot be used for a new task; choose another (a random UUID is safe)"
    ))
}

fn uuid_string() -> String {
    TaskId::random().into_string()
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
