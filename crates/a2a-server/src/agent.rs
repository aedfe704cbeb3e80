//! The agent API: what a user implements, and what the server hands it.
//!
//! An agent is one trait method, [`Agent::execute`]: it receives a [`RequestContext`] (the
//! incoming message, the task and context ids, the existing task on follow-ups, the caller, the
//! requested extensions and a cancellation token) and an [`EventSink`] on which it reports
//! progress. Two styles are first class:
//!
//! * call helpers on the sink: [`working`](EventSink::working),
//!   [`artifact`](EventSink::artifact), [`input_required`](EventSink::input_required),
//!   [`complete`](EventSink::complete), [`reply`](EventSink::reply) ...;
//! * or return a `Stream` of [`AgentEvent`]s with [`from_stream`].
//!
//! Every event is checked against the task state machine before anyone sees it; a helper returns
//! a [`SinkError`] when the event is not allowed (a status after the task ended, say). When
//! `execute` returns `Ok` and the task has not reached a terminal or interrupted state, the server
//! completes it; when it returns `Err` or panics, the server fails the task with the error text.
//! Either way the server keeps serving.
//!
//! ```
//! use a2a_server::agent::{Agent, AgentError, EventSink, RequestContext};
//! use a2a_types::v1::{Artifact, Part};
//!
//! struct Upper;
//!
//! impl Agent for Upper {
//!     async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
//!         sink.working(None).await?;
//!         let text = ctx.text().to_uppercase();
//!         sink.artifact(Artifact::new("result", vec![Part::text(text)])).await?;
//!         sink.complete(None).await?;
//!         Ok(())
//!     }
//! }
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use a2a_types::v1::{
    Artifact, ContextId, Message, Part, Role, SendMessageConfiguration, Struct, Task, TaskId,
    TaskState,
};
use futures_core::Stream;
use tokio_util::sync::CancellationToken;

use crate::auth::Principal;

/// What an agent is asked to do: one incoming message, in a task and a context.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RequestContext {
    /// The message the client sent.
    pub message: Message,
    /// The task this execution works on (new, or the one the message continues).
    pub task_id: TaskId,
    /// The context of the task.
    pub context_id: ContextId,
    /// The task as it was before this message, on a follow-up to an existing task.
    pub task: Option<Task>,
    /// The authenticated caller, when the server has an authenticator.
    pub principal: Option<Principal>,
    /// The extension URIs the client asked for (`A2A-Extensions`).
    pub extensions: Vec<String>,
    /// The request's options (accepted output modes, history length ...).
    pub configuration: Option<SendMessageConfiguration>,
    /// The request's metadata.
    pub metadata: Option<Struct>,
    pub(crate) cancel: CancellationToken,
}

impl RequestContext {
    /// A context for this message, task and context, for tests of an agent outside a server.
    pub fn new(
        message: Message,
        task_id: impl Into<TaskId>,
        context_id: impl Into<ContextId>,
    ) -> Self {
        Self {
            message,
            task_id: task_id.into(),
            context_id: context_id.into(),
            task: None,
            principal: None,
            extensions: Vec::new(),
            configuration: None,
            metadata: None,
            cancel: CancellationToken::new(),
        }
    }

    /// The text parts of the incoming message, joined with newlines.
    pub fn text(&self) -> String {
        self.message.text()
    }

    /// The token that is cancelled when a client cancels the task (or the server shuts down).
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    /// True once the task has been asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Resolves when the task has been asked to stop.
    pub async fn cancelled(&self) {
        self.cancel.cancelled().await;
    }

    /// The media types the client accepts in response parts (empty: anything).
    pub fn accepted_output_modes(&self) -> &[String] {
        self.configuration
            .as_ref()
            .map_or(&[], |c| c.accepted_output_modes.as_slice())
    }
}

/// One thing an agent reports.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AgentEvent {
    /// A direct answer without a task. Allowed only as the first and only event of a new
    /// request; the client then receives this message instead of a task.
    Reply(Message),
    /// A new task state, with an optional message for the client.
    Status {
        /// The new state.
        state: TaskState,
        /// A message that goes with it (a question, an error text).
        message: Option<Message>,
    },
    /// An artifact, or one chunk of it.
    Artifact {
        /// The artifact (or this chunk's parts).
        artifact: Artifact,
        /// True when these parts extend an artifact of the same id sent before.
        append: bool,
        /// True on the last chunk.
        last_chunk: bool,
    },
}

impl AgentEvent {
    /// A status event.
    pub fn status(state: TaskState, message: Option<Message>) -> Self {
        AgentEvent::Status { state, message }
    }

    /// A whole artifact.
    pub fn artifact(artifact: Artifact) -> Self {
        AgentEvent::Artifact {
            artifact,
            append: false,
            last_chunk: false,
        }
    }
}

/// An event the server refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SinkError {
    /// The task is in a terminal state and can change no more.
    #[error("task {task_id} is {state} and accepts no more events")]
    TaskClosed {
        /// The task.
        task_id: TaskId,
        /// Its terminal state.
        state: TaskState,
    },
    /// The state machine does not allow this transition.
    #[error("task {task_id} cannot move from {from} to {to}")]
    InvalidTransition {
        /// The task.
        task_id: TaskId,
        /// The current state.
        from: TaskState,
        /// The requested state.
        to: TaskState,
    },
    /// `reply` after the request already produced a task, or on a follow-up to a task.
    #[error("a direct reply is only allowed as the first and only answer to a new request")]
    ReplyAfterTask,
    /// A task event after the request was already answered with a direct reply.
    #[error("the request was answered with a direct reply; it has no task to update")]
    AfterReply,
    /// An artifact chunk with `append` for an artifact id the task does not have.
    #[error("cannot append to artifact `{artifact_id}`: the task has no artifact with that id")]
    UnknownArtifact {
        /// The artifact id.
        artifact_id: String,
    },
    /// The store failed to record the event.
    #[error("the task store failed: {0}")]
    Store(String),
    /// The event would take the task over the bytes a task may hold, or the store over its
    /// total; the task is unchanged, and a smaller event (a shorter chunk) may still fit.
    #[error("task {task_id} cannot take an event of {bytes} bytes: {limit}")]
    TooLarge {
        /// The task.
        task_id: TaskId,
        /// The bytes the event would add (see the store module's docs on bytes).
        bytes: u64,
        /// Which limit it would cross, and how much room is left.
        limit: String,
    },
}

/// Where an agent reports what it does. Cheap to clone; every clone writes to the same task.
///
/// Messages passed to the helpers are completed by the sink: role `ROLE_AGENT`, the task id
/// and the context id are filled in, and a message id is generated when empty.
#[derive(Clone)]
pub struct EventSink {
    pub(crate) target: Arc<dyn EventTarget>,
    pub(crate) task_id: TaskId,
    pub(crate) context_id: ContextId,
}

impl fmt::Debug for EventSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventSink")
            .field("task_id", &self.task_id)
            .field("context_id", &self.context_id)
            .finish_non_exhaustive()
    }
}

/// Receives the events of one execution (the server's task writer; a recorder in tests).
pub(crate) trait EventTarget: Send + Sync + 'static {
    fn emit(
        &self,
        event: AgentEvent,
    ) -> Pin<Box<dyn Future<Output = Result<(), SinkError>> + Send + '_>>;
}

impl EventSink {
    /// The task this sink writes to.
    pub fn task_id(&self) -> &TaskId {
        &self.task_id
    }

    /// The context of that task.
    pub fn context_id(&self) -> &ContextId {
        &self.context_id
    }

    /// Reports any event.
    pub async fn send(&self, event: AgentEvent) -> Result<(), SinkError> {
        let event = match event {
            AgentEvent::Reply(message) => AgentEvent::Reply(self.complete_message(message)),
            AgentEvent::Status { state, message } => AgentEvent::Status {
                state,
                message: message.map(|m| self.complete_message(m)),
            },
            other => other,
        };
        self.target.emit(event).await
    }

    /// Answers with a message and no task. Only as the first and only event of a new request.
    pub async fn reply(&self, message: impl Into<Reply>) -> Result<(), SinkError> {
        self.send(AgentEvent::Reply(message.into().0)).await
    }

    /// The agent is working on the task.
    pub async fn working(&self, message: Option<Message>) -> Result<(), SinkError> {
        self.status(TaskState::Working, message).await
    }

    /// Any state change.
    pub async fn status(
        &self,
        state: TaskState,
        message: Option<Message>,
    ) -> Result<(), SinkError> {
        self.send(AgentEvent::Status { state, message }).await
    }

    /// A whole artifact (replacing any earlier artifact with the same id).
    pub async fn artifact(&self, artifact: Artifact) -> Result<(), SinkError> {
        self.send(AgentEvent::artifact(artifact)).await
    }

    /// One chunk of an artifact: `append` extends an artifact of the same id sent before,
    /// `last_chunk` marks the end.
    pub async fn artifact_chunk(
        &self,
        artifact: Artifact,
        append: bool,
        last_chunk: bool,
    ) -> Result<(), SinkError> {
        self.send(AgentEvent::Artifact {
            artifact,
            append,
            last_chunk,
        })
        .await
    }

    /// The agent needs more input: the task pauses in `TASK_STATE_INPUT_REQUIRED`.
    pub async fn input_required(&self, message: impl Into<Reply>) -> Result<(), SinkError> {
        self.status(TaskState::InputRequired, Some(message.into().0))
            .await
    }

    /// The agent needs the client to authenticate: `TASK_STATE_AUTH_REQUIRED`.
    pub async fn auth_required(&self, message: impl Into<Reply>) -> Result<(), SinkError> {
        self.status(TaskState::AuthRequired, Some(message.into().0))
            .await
    }

    /// The task is done: `TASK_STATE_COMPLETED`.
    pub async fn complete(&self, message: Option<Message>) -> Result<(), SinkError> {
        self.status(TaskState::Completed, message).await
    }

    /// The task failed: `TASK_STATE_FAILED`.
    pub async fn fail(&self, message: impl Into<Reply>) -> Result<(), SinkError> {
        self.status(TaskState::Failed, Some(message.into().0)).await
    }

    /// The agent will not do the task: `TASK_STATE_REJECTED`.
    pub async fn reject(&self, message: impl Into<Reply>) -> Result<(), SinkError> {
        self.status(TaskState::Rejected, Some(message.into().0))
            .await
    }

    /// An agent message for this task: role agent, this task and context, a new message id.
    pub fn message(&self, parts: Vec<Part>) -> Message {
        self.complete_message(Message::new("", Role::Agent, parts))
    }

    fn complete_message(&self, mut message: Message) -> Message {
        if message.message_id.is_empty() {
            message.message_id = a2a_types::v1::MessageId::random();
        }
        if message.role == Role::Unspecified {
            message.role = Role::Agent;
        }
        if message.task_id.is_none() {
            message.task_id = Some(self.task_id.clone());
        }
        if message.context_id.is_none() {
            message.context_id = Some(self.context_id.clone());
        }
        message
    }
}

/// A message argument: a [`Message`], or text (`&str`, `String`) that becomes an agent text message.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply(Message);

impl From<Message> for Reply {
    fn from(message: Message) -> Self {
        Reply(message)
    }
}

impl From<&str> for Reply {
    fn from(text: &str) -> Self {
        Reply(Message::new("", Role::Agent, vec![Part::text(text)]))
    }
}

impl From<String> for Reply {
    fn from(text: String) -> Self {
        Reply(Message::new("", Role::Agent, vec![Part::text(text)]))
    }
}

/// An error from an agent. The task fails with its text as the status message.
///
/// Any `std::error::Error` converts into it with `?`.
pub struct AgentError {
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl AgentError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            source: None,
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The underlying error, if any.
    pub fn source(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.source.as_deref()
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for AgentError {
    fn from(err: E) -> Self {
        Self {
            message: err.to_string(),
            source: Some(Box::new(err)),
        }
    }
}

impl fmt::Debug for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentError")
            .field("message", &self.message)
            .field("source", &self.source)
            .finish()
    }
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// An A2A agent.
///
/// Implement [`execute`](Agent::execute); optionally [`cancel`](Agent::cancel). See the
/// [module docs](self) for the rules the server applies around them.
pub trait Agent: Send + Sync + 'static {
    /// Works on one incoming message, reporting through `sink`.
    fn execute(
        &self,
        ctx: RequestContext,
        sink: EventSink,
    ) -> impl Future<Output = Result<(), AgentError>> + Send;

    /// Called when a client cancels the task, after the context's cancellation token fired.
    ///
    /// The task ends `TASK_STATE_CANCELED` whatever this does: when the agent has not moved it
    /// to a terminal state within the server's cancel grace period, the server does.
    fn cancel(&self, task: &Task) -> impl Future<Output = ()> + Send {
        let _ = task;
        async {}
    }
}

/// A boxed future, as the object-safe agent interface returns them.
pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The object-safe form of [`Agent`], so that the server can hold `Arc<dyn DynAgent>`.
pub(crate) trait DynAgent: Send + Sync + 'static {
    fn execute_boxed(
        &self,
        ctx: RequestContext,
        sink: EventSink,
    ) -> BoxFuture<'_, Result<(), AgentError>>;
    fn cancel_boxed<'a>(&'a self, task: &'a Task) -> BoxFuture<'a, ()>;
}

impl<A: Agent> DynAgent for A {
    fn execute_boxed(
        &self,
        ctx: RequestContext,
        sink: EventSink,
    ) -> BoxFuture<'_, Result<(), AgentError>> {
        Box::pin(self.execute(ctx, sink))
    }

    fn cancel_boxed<'a>(&'a self, task: &'a Task) -> BoxFuture<'a, ()> {
        Box::pin(self.cancel(task))
    }
}

/// An agent written as a closure: `agent_fn(|ctx, sink| async move { ... })`.
///
/// ```
/// use a2a_server::agent::agent_fn;
///
/// let echo = agent_fn(|ctx, sink| async move {
///     sink.complete(Some(sink.message(vec![a2a_types::v1::Part::text(ctx.text())]))).await?;
///     Ok(())
/// });
/// # let _ = echo;
/// ```
pub fn agent_fn<F, Fut>(f: F) -> FnAgent<F>
where
    F: Fn(RequestContext, EventSink) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), AgentError>> + Send + 'static,
{
    FnAgent(f)
}

/// The agent [`agent_fn`] makes.
#[derive(Clone, Debug)]
pub struct FnAgent<F>(F);

impl<F, Fut> Agent for FnAgent<F>
where
    F: Fn(RequestContext, EventSink) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), AgentError>> + Send + 'static,
{
    fn execute(
        &self,
        ctx: RequestContext,
        sink: EventSink,
    ) -> impl Future<Output = Result<(), AgentError>> + Send {
        (self.0)(ctx, sink)
    }
}

/// An agent written as a function from the request to a `Stream` of events.
///
/// The server forwards each event to the task, in order, and stops polling the stream when the
/// task is cancelled. An `Err` item fails the task.
///
/// ```
/// use a2a_server::agent::{AgentEvent, from_stream};
/// use a2a_types::v1::{Artifact, Part, TaskState};
///
/// let agent = from_stream(|ctx| {
///     let words: Vec<String> = ctx.text().split_whitespace().map(str::to_owned).collect();
///     futures_util::stream::iter(words.into_iter().enumerate().map(|(i, word)| {
///         Ok(AgentEvent::Artifact {
///             artifact: Artifact::new("words", vec![Part::text(word)]),
///             append: i > 0,
///             last_chunk: false,
///         })
///     }))
/// });
/// # let _ = agent;
/// ```
pub fn from_stream<F, S>(f: F) -> StreamAgent<F>
where
    F: Fn(RequestContext) -> S + Send + Sync + 'static,
    S: Stream<Item = Result<AgentEvent, AgentError>> + Send + 'static,
{
    StreamAgent(f)
}

/// The agent [`from_stream`] makes.
#[derive(Clone, Debug)]
pub struct StreamAgent<F>(F);

impl<F, S> Agent for StreamAgent<F>
where
    F: Fn(RequestContext) -> S + Send + Sync + 'static,
    S: Stream<Item = Result<AgentEvent, AgentError>> + Send + 'static,
{
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        use futures_util::StreamExt as _;
        let cancel = ctx.cancel.clone();
        let stream = (self.0)(ctx);
        let mut stream = std::pin::pin!(stream);
        loop {
            let next = tokio::select! {
                biased;
                () = cancel.cancelled() => return Ok(()),
                next = stream.next() => next,
            };
            match next {
                Some(Ok(event)) => sink.send(event).await?,
                Some(Err(err)) => return Err(err),
                None => return Ok(()),
            }
        }
    }
}
