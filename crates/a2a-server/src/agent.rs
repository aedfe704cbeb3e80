//! The agent API: what a user implements, and what the server hands it.
//!
//! An agent is one trait method, [`Agent::execute`]: it receives a [`RequestContext`] (the
//! incoming message, the task and context ids, the existing task on follow-ups, the caller, the
//! requested extensions and its [`Cancellation`]) and an [`EventSink`] on which it reports
//! progress. Three styles are first class:
//!
//! * implement [`Agent`] and call helpers on the sink: [`working`](EventSink::working),
//!   [`artifact`](EventSink::artifact), [`artifact_chunk`](EventSink::artifact_chunk),
//!   [`input_required`](EventSink::input_required), [`complete`](EventSink::complete),
//!   [`reply`](EventSink::reply) ...;
//! * write a closure with [`agent_fn`];
//! * or return a `Stream` of [`AgentEvent`]s with [`from_stream`].
//!
//! Every status helper (`working`, `complete`, `fail`, `reject`, `input_required`,
//! `auth_required`, `status`) takes the same kind of argument, a [`StatusMessage`]: text
//! (`&str`, `String`), a whole [`Message`], or nothing (`None` or `()`). Text becomes an agent
//! message with one text part; the sink fills in the role, the task and context ids and a message
//! id.
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
//!         let text = ctx.text();
//!         if text.is_empty() {
//!             sink.reject("send some text to upper-case").await?;
//!             return Ok(());
//!         }
//!         sink.working(None).await?;
//!         sink.artifact(Artifact::new("result", vec![Part::text(text.to_uppercase())])).await?;
//!         sink.complete(None).await?;
//!         Ok(())
//!     }
//! }
//! ```
//!
//! # Choosing an agent at run time
//!
//! [`Agent`] uses `async fn` and is not object-safe, so `dyn Agent` does not exist. Its boxed
//! form is [`DynAgent`] (implemented for every agent), and [`BoxAgent`] wraps an
//! `Arc<dyn DynAgent>` into an [`Agent`] again, so that one variable can hold whichever agent a
//! command-line flag names (`examples/pick_agent.rs`):
//!
//! ```
//! use a2a_server::agent::{BoxAgent, agent_fn};
//! use a2a_server::store::InMemoryTaskStore;
//! use a2a_server::handler::RequestHandler;
//! use a2a_types::v1::AgentCard;
//!
//! fn pick(name: &str) -> BoxAgent {
//!     match name {
//!         "upper" => BoxAgent::new(agent_fn(|ctx, sink| async move {
//!             sink.complete(ctx.text().to_uppercase()).await?;
//!             Ok(())
//!         })),
//!         _ => BoxAgent::new(agent_fn(|ctx, sink| async move {
//!             sink.complete(ctx.text()).await?;
//!             Ok(())
//!         })),
//!     }
//! }
//!
//! let card = AgentCard::new("Picked", "Whichever agent the flag names", "1.0.0");
//! let handler = RequestHandler::new(pick("upper"), InMemoryTaskStore::new(), card);
//! # let _ = handler;
//! ```
//!
//! A boxed agent costs one more allocation per execution than a concrete one.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use a2a_types::trace::TraceContext;
use a2a_types::v1::{
    Artifact, ContextId, Message, Part, Role, SendMessageConfiguration, Struct, Task, TaskId,
    TaskState,
};
use futures_core::Stream;
use tokio_util::sync::CancellationToken;

use crate::auth::Principal;

/// The cancellation of an agent run ([`RequestContext::cancellation`]): fires when a client
/// cancels the task or the server shuts down. Cheap to clone; every clone sees the same signal.
///
/// ```
/// # async fn run() {
/// use a2a_server::RequestContext;
/// use a2a_types::v1::{Message, Part, Role};
///
/// let ctx = RequestContext::new(Message::new("m-1", Role::User, vec![Part::text("hi")]), "t-1", "c-1");
/// let cancellation = ctx.cancellation();
/// assert!(!cancellation.is_cancelled());
/// cancellation.cancel();
/// ctx.cancelled().await;
/// assert!(ctx.is_cancelled());
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancellation(CancellationToken);

impl Cancellation {
    /// True once the run has been asked to stop.
    pub fn is_cancelled(&self) -> bool {
        self.0.is_cancelled()
    }

    /// Resolves when the run has been asked to stop.
    pub async fn cancelled(&self) {
        self.0.cancelled().await;
    }

    /// Asks the run to stop (what a client's `CancelTask` does): for an agent tested outside
    /// a server.
    pub fn cancel(&self) {
        self.0.cancel();
    }
}

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
    /// The W3C trace context of this agent run: the caller's trace, with this run's span.
    /// Calls the agent makes to other agents continue it (`a2a_client::trace::scope`), so that
    /// a chain of agents is one trace (`docs/tracing.md`).
    pub trace: Option<TraceContext>,
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
            trace: None,
            cancel: CancellationToken::new(),
        }
    }

    /// The trace context of this run, if the server made one (it always does for a request
    /// it serves): see [`trace`](Self::trace).
    pub fn trace(&self) -> Option<&TraceContext> {
        self.trace.as_ref()
    }

    /// The text parts of the incoming message, joined with newlines.
    pub fn text(&self) -> String {
        self.message.text()
    }

    /// The signal that fires when a client cancels the task (or the server shuts down): a
    /// handle to keep (a clone sees the same signal), to hand to work the agent spawns.
    pub fn cancellation(&self) -> Cancellation {
        Cancellation(self.cancel.clone())
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
    /// A protocol error instead of a task: the call that sent the message fails with it (a
    /// JSON-RPC error object, a `google.rpc.Status`, a gRPC status). Allowed only as the first
    /// and only event of a new request, like [`Reply`](Self::Reply); no task is created.
    Error(crate::error::A2aError),
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
    /// A status event, with text, a message or nothing (see [`StatusMessage`]).
    pub fn status(state: TaskState, message: impl Into<StatusMessage>) -> Self {
        AgentEvent::Status {
            state,
            message: message.into().0,
        }
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
    /// An error answer ([`AgentEvent::Error`]) after the request already produced a task or a
    /// reply, or on a follow-up to a task: only a new request can be answered with an error.
    #[error("an error answer is only allowed as the first and only answer to a new request")]
    ErrorAfterAnswer,
    /// An event after the request was already answered with an error: it has no task.
    #[error("the request was answered with an error; it has no task to update")]
    AfterError,
    /// `reply` without a message (`None` or `()`): a direct reply must carry one.
    #[error("a direct reply needs a message: text or a Message, not nothing")]
    EmptyReply,
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
/// The status helpers take a [`StatusMessage`]: text, a [`Message`] or nothing.
///
/// ```
/// # use a2a_server::agent::{EventSink, SinkError};
/// # async fn run(sink: EventSink) -> Result<(), SinkError> {
/// sink.working(None).await?; // no status message
/// sink.working("reading the file").await?; // an agent message with one text part
/// sink.complete(sink.message(vec![a2a_types::v1::Part::text("done")])).await?; // a message
/// # Ok(())
/// # }
/// ```
///
/// Messages passed to the helpers are completed by the sink: role `ROLE_AGENT`, the task id
/// and the context id are filled in, and a message id is generated when empty. Fields the
/// message already has are kept.
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
        // A task the agent ends unsuccessfully is said in the server's log, with its reason.
        let ended = match &event {
            AgentEvent::Status {
                state: state @ (TaskState::Failed | TaskState::Rejected),
                message,
            } => Some((
                *state,
                message.as_ref().map(Message::text).unwrap_or_default(),
            )),
            _ => None,
        };
        self.target.emit(event).await?;
        if let Some((state, reason)) = ended {
            tracing::info!(a2a.task_id = %self.task_id, a2a.state = ?state, %reason, "the agent ended the task");
        }
        Ok(())
    }

    /// Answers with a message and no task. Only as the first and only event of a new request.
    ///
    /// Takes text or a [`Message`]; nothing (`None`, `()`) is [`SinkError::EmptyReply`].
    pub async fn reply(&self, message: impl Into<StatusMessage>) -> Result<(), SinkError> {
        let message = message.into().0.ok_or(SinkError::EmptyReply)?;
        self.send(AgentEvent::Reply(message)).await
    }

    /// Answers the request with a protocol error and no task. Only as the first and only event
    /// of a new request (see [`AgentEvent::Error`]); otherwise [`SinkError::ErrorAfterAnswer`].
    pub async fn error(&self, error: crate::error::A2aError) -> Result<(), SinkError> {
        self.send(AgentEvent::Error(error)).await
    }

    /// The agent is working on the task: `TASK_STATE_WORKING`.
    pub async fn working(&self, message: impl Into<StatusMessage>) -> Result<(), SinkError> {
        self.status(TaskState::Working, message).await
    }

    /// Any state change, with text, a message or nothing.
    pub async fn status(
        &self,
        state: TaskState,
        message: impl Into<StatusMessage>,
    ) -> Result<(), SinkError> {
        self.send(AgentEvent::status(state, message)).await
    }

    /// A whole artifact (replacing any earlier artifact with the same id).
    pub async fn artifact(&self, artifact: Artifact) -> Result<(), SinkError> {
        self.send(AgentEvent::artifact(artifact)).await
    }

    /// One chunk of an artifact: `append` extends an artifact of the same id sent before (its
    /// parts are added after the ones already there), `last_chunk` marks the end.
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
    pub async fn input_required(&self, message: impl Into<StatusMessage>) -> Result<(), SinkError> {
        self.status(TaskState::InputRequired, message).await
    }

    /// The agent needs the client to authenticate: `TASK_STATE_AUTH_REQUIRED`.
    pub async fn auth_required(&self, message: impl Into<StatusMessage>) -> Result<(), SinkError> {
        self.status(TaskState::AuthRequired, message).await
    }

    /// The task is done: `TASK_STATE_COMPLETED`.
    pub async fn complete(&self, message: impl Into<StatusMessage>) -> Result<(), SinkError> {
        self.status(TaskState::Completed, message).await
    }

    /// The task failed: `TASK_STATE_FAILED`.
    pub async fn fail(&self, message: impl Into<StatusMessage>) -> Result<(), SinkError> {
        self.status(TaskState::Failed, message).await
    }

    /// The agent will not do the task: `TASK_STATE_REJECTED`.
    pub async fn reject(&self, message: impl Into<StatusMessage>) -> Result<(), SinkError> {
        self.status(TaskState::Rejected, message).await
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

/// The message that goes with a status: text, a whole [`Message`], or nothing.
///
/// Every status helper of [`EventSink`] and [`AgentEvent::status`] takes `impl Into<StatusMessage>`:
///
/// | argument | status message |
/// |---|---|
/// | `"text"`, `String`, `&String` | an agent message with one text part |
/// | a [`Message`], `Some(message)` | that message |
/// | `None`, `()` | none |
///
/// The sink completes the message before it is recorded (role, task and context ids, message id;
/// see [`EventSink`]).
///
/// ```
/// use a2a_server::agent::StatusMessage;
/// use a2a_types::v1::Part;
///
/// let text = StatusMessage::from("Which city?").into_message().unwrap();
/// assert_eq!(text.parts, vec![Part::text("Which city?")]);
/// assert_eq!(StatusMessage::from(()), StatusMessage::none());
/// assert_eq!(StatusMessage::from(None).into_message(), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatusMessage(Option<Message>);

impl StatusMessage {
    /// No message.
    pub fn none() -> Self {
        Self(None)
    }

    /// The message, if there is one (not yet completed by a sink: text gives an empty id).
    pub fn into_message(self) -> Option<Message> {
        self.0
    }

    /// Borrows the message, if there is one.
    pub fn message(&self) -> Option<&Message> {
        self.0.as_ref()
    }

    fn text(text: String) -> Self {
        Self(Some(Message::new("", Role::Agent, vec![Part::text(text)])))
    }
}

impl From<()> for StatusMessage {
    fn from((): ()) -> Self {
        Self(None)
    }
}

impl From<Option<Message>> for StatusMessage {
    fn from(message: Option<Message>) -> Self {
        Self(message)
    }
}

impl From<Message> for StatusMessage {
    fn from(message: Message) -> Self {
        Self(Some(message))
    }
}

impl From<&str> for StatusMessage {
    fn from(text: &str) -> Self {
        Self::text(text.to_owned())
    }
}

impl From<String> for StatusMessage {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&String> for StatusMessage {
    fn from(text: &String) -> Self {
        Self::text(text.clone())
    }
}

/// An error from an agent. The task fails with its text as the status message.
///
/// Whatever converts into a `Box<dyn std::error::Error + Send + Sync>` converts into it, with
/// `?` or `from`: any `std::error::Error + Send + Sync + 'static`, and text (`&str`, `String`):
///
/// ```
/// use a2a_server::agent::AgentError;
///
/// assert_eq!(AgentError::from("no forecast for Atlantis").message(), "no forecast for Atlantis");
/// let io = std::io::Error::other("disk full");
/// assert_eq!(AgentError::from(io).message(), "disk full");
///
/// fn city(text: &str) -> Result<&str, AgentError> {
///     Ok(text.strip_prefix("weather in ").ok_or("ask for the weather in a city")?)
/// }
/// assert_eq!(city("hello").unwrap_err().message(), "ask for the weather in a city");
/// ```
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

    /// The error it was made from: `None` for [`AgentError::new`], the error for `from` (for
    /// text, the text as an error).
    pub fn source(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.source.as_deref()
    }
}

/// Errors and text: what `Box<dyn Error + Send + Sync>` takes (a blanket impl over
/// `E: std::error::Error` could not also take `&str`: std may implement `Error` for it).
impl<E: Into<Box<dyn std::error::Error + Send + Sync>>> From<E> for AgentError {
    fn from(err: E) -> Self {
        let source = err.into();
        Self {
            message: source.to_string(),
            source: Some(source),
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

    /// Called when a client cancels the task, after the context's [`Cancellation`] fired.
    ///
    /// The task ends `TASK_STATE_CANCELED` whatever this does: when the agent has not moved it
    /// to a terminal state within the server's cancel grace period, the server does.
    fn cancel(&self, task: &Task) -> impl Future<Output = ()> + Send {
        let _ = task;
        async {}
    }
}

/// A boxed future, as the object-safe agent interface [`DynAgent`] returns them.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The object-safe form of [`Agent`]: the same two methods, returning boxed futures.
///
/// Every [`Agent`] is a `DynAgent`; there is no need to implement it. Hold agents of different
/// types as `Arc<dyn DynAgent>` (or `Box<dyn DynAgent>`), and turn one back into an [`Agent`]
/// with [`BoxAgent`] to serve it.
pub trait DynAgent: Send + Sync + 'static {
    /// [`Agent::execute`], boxed.
    fn execute_boxed(
        &self,
        ctx: RequestContext,
        sink: EventSink,
    ) -> BoxFuture<'_, Result<(), AgentError>>;

    /// [`Agent::cancel`], boxed.
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

/// An agent of a type chosen at run time: an `Arc<dyn DynAgent>` that is an [`Agent`] again.
///
/// Cheap to clone. Build one with [`BoxAgent::new`], or from an `Arc<dyn DynAgent>` or a
/// `Box<dyn DynAgent>` with `From`; see the [module docs](self#choosing-an-agent-at-run-time).
#[derive(Clone)]
pub struct BoxAgent(Arc<dyn DynAgent>);

impl BoxAgent {
    /// Boxes an agent.
    pub fn new(agent: impl Agent) -> Self {
        Self(Arc::new(agent))
    }

    /// The shared agent inside.
    pub fn into_inner(self) -> Arc<dyn DynAgent> {
        self.0
    }
}

impl fmt::Debug for BoxAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoxAgent").finish_non_exhaustive()
    }
}

impl From<Arc<dyn DynAgent>> for BoxAgent {
    fn from(agent: Arc<dyn DynAgent>) -> Self {
        Self(agent)
    }
}

impl From<Box<dyn DynAgent>> for BoxAgent {
    fn from(agent: Box<dyn DynAgent>) -> Self {
        Self(Arc::from(agent))
    }
}

impl Agent for BoxAgent {
    fn execute(
        &self,
        ctx: RequestContext,
        sink: EventSink,
    ) -> impl Future<Output = Result<(), AgentError>> + Send {
        self.0.execute_boxed(ctx, sink)
    }

    async fn cancel(&self, task: &Task) {
        self.0.cancel_boxed(task).await;
    }
}

/// An agent written as a closure: `agent_fn(|ctx, sink| async move { ... })`.
///
/// ```
/// use a2a_server::agent::agent_fn;
///
/// let echo = agent_fn(|ctx, sink| async move {
///     sink.complete(ctx.text()).await?;
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
///     let words: Vec<String> = ctx.text().split_inclusive(' ').map(str::to_owned).collect();
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use a2a_types::v1::{
        AgentCapabilities, AgentCard, CancelTaskRequest, MessageId, SendMessageRequest,
        SendMessageResponse, StreamResponse,
    };
    use pretty_assertions::assert_eq;

    use super::*;
    use crate::HandlerConfig;
    use crate::handler::{CallContext, RequestHandler};
    use crate::store::InMemoryTaskStore;

    /// Records every event, accepting all of them (no state machine).
    #[derive(Default)]
    struct Recorder(Mutex<Vec<AgentEvent>>);

    impl EventTarget for Recorder {
        fn emit(
            &self,
            event: AgentEvent,
        ) -> Pin<Box<dyn Future<Output = Result<(), SinkError>> + Send + '_>> {
            self.0.lock().unwrap().push(event);
            Box::pin(async { Ok(()) })
        }
    }

    fn recording_sink() -> (Arc<Recorder>, EventSink) {
        let recorder = Arc::new(Recorder::default());
        let sink = EventSink {
            target: recorder.clone(),
            task_id: "t-1".into(),
            context_id: "c-1".into(),
        };
        (recorder, sink)
    }

    /// The message as JSON, with a generated message id (checked non-empty) shown as `<generated>`.
    fn message_json(message: &Message, generated: bool) -> String {
        let mut message = message.clone();
        if generated {
            assert!(!message.message_id.is_empty());
            message.message_id = MessageId::new("<generated>");
        }
        serde_json::to_string(&message).unwrap()
    }

    /// Each recorded status as `STATE message-json-or-none`.
    fn statuses(recorder: &Recorder, generated: bool) -> Vec<String> {
        recorder
            .0
            .lock()
            .unwrap()
            .iter()
            .map(|event| match event {
                AgentEvent::Status { state, message } => format!(
                    "{state} {}",
                    message
                        .as_ref()
                        .map_or("none".to_owned(), |m| message_json(m, generated))
                ),
                other => panic!("expected a status, got {other:?}"),
            })
            .collect()
    }

    /// Calls every status helper once with a clone of `arg`.
    async fn every_helper<M>(sink: &EventSink, arg: M)
    where
        M: Into<StatusMessage> + Clone,
    {
        sink.working(arg.clone()).await.unwrap();
        sink.input_required(arg.clone()).await.unwrap();
        sink.auth_required(arg.clone()).await.unwrap();
        sink.complete(arg.clone()).await.unwrap();
        sink.fail(arg.clone()).await.unwrap();
        sink.reject(arg.clone()).await.unwrap();
        sink.status(TaskState::Canceled, arg).await.unwrap();
    }

    const STATES: [&str; 7] = [
        "TASK_STATE_WORKING",
        "TASK_STATE_INPUT_REQUIRED",
        "TASK_STATE_AUTH_REQUIRED",
        "TASK_STATE_COMPLETED",
        "TASK_STATE_FAILED",
        "TASK_STATE_REJECTED",
        "TASK_STATE_CANCELED",
    ];

    #[tokio::test]
    async fn helpers_turn_text_into_an_agent_text_message() {
        let expected = r#"{"messageId":"<generated>","contextId":"c-1","taskId":"t-1","role":"ROLE_AGENT","parts":[{"text":"Which city?"}]}"#;
        let want: Vec<String> = STATES.iter().map(|s| format!("{s} {expected}")).collect();

        let (recorder, sink) = recording_sink();
        every_helper(&sink, "Which city?").await;
        assert_eq!(statuses(&recorder, true), want);

        let (recorder, sink) = recording_sink();
        every_helper(&sink, String::from("Which city?")).await;
        assert_eq!(statuses(&recorder, true), want);

        let (recorder, sink) = recording_sink();
        let owned = String::from("Which city?");
        every_helper(&sink, &owned).await;
        assert_eq!(statuses(&recorder, true), want);
    }

    #[tokio::test]
    async fn helpers_complete_a_message_and_keep_what_it_has() {
        // No role and no task id: filled in. Its own id and context id: kept.
        let message = Message::new("m-7", Role::Unspecified, vec![Part::text("done")])
            .with_context_id("c-other");
        let expected = r#"{"messageId":"m-7","contextId":"c-other","taskId":"t-1","role":"ROLE_AGENT","parts":[{"text":"done"}]}"#;
        let want: Vec<String> = STATES.iter().map(|s| format!("{s} {expected}")).collect();

        let (recorder, sink) = recording_sink();
        every_helper(&sink, message.clone()).await;
        assert_eq!(statuses(&recorder, false), want);

        let (recorder, sink) = recording_sink();
        every_helper(&sink, Some(message)).await;
        assert_eq!(statuses(&recorder, false), want);
    }

    #[tokio::test]
    async fn helpers_with_nothing_send_no_message() {
        let want: Vec<String> = STATES.iter().map(|s| format!("{s} none")).collect();

        let (recorder, sink) = recording_sink();
        every_helper(&sink, ()).await;
        assert_eq!(statuses(&recorder, false), want);

        let (recorder, sink) = recording_sink();
        every_helper(&sink, None::<Message>).await;
        assert_eq!(statuses(&recorder, false), want);

        // A bare `None` infers `Option<Message>`.
        let (recorder, sink) = recording_sink();
        sink.working(None).await.unwrap();
        sink.complete(None).await.unwrap();
        assert_eq!(
            statuses(&recorder, false),
            ["TASK_STATE_WORKING none", "TASK_STATE_COMPLETED none"]
        );
    }

    #[tokio::test]
    async fn reply_takes_text_or_a_message_but_not_nothing() {
        let (recorder, sink) = recording_sink();
        sink.reply("hi!").await.unwrap();
        sink.reply(Message::new("m-2", Role::Agent, vec![Part::text("again")]))
            .await
            .unwrap();
        assert_eq!(sink.reply(()).await, Err(SinkError::EmptyReply));
        assert_eq!(sink.reply(None).await, Err(SinkError::EmptyReply));
        assert_eq!(
            SinkError::EmptyReply.to_string(),
            "a direct reply needs a message: text or a Message, not nothing"
        );
        let replies: Vec<String> = recorder
            .0
            .lock()
            .unwrap()
            .iter()
            .map(|event| match event {
                AgentEvent::Reply(m) => message_json(m, m.message_id != "m-2"),
                other => panic!("expected a reply, got {other:?}"),
            })
            .collect();
        assert_eq!(
            replies,
            [
                r#"{"messageId":"<generated>","contextId":"c-1","taskId":"t-1","role":"ROLE_AGENT","parts":[{"text":"hi!"}]}"#,
                r#"{"messageId":"m-2","contextId":"c-1","taskId":"t-1","role":"ROLE_AGENT","parts":[{"text":"again"}]}"#,
            ]
        );
    }

    #[test]
    fn agent_event_status_takes_the_same_arguments() {
        assert_eq!(
            AgentEvent::status(TaskState::Working, ()),
            AgentEvent::Status {
                state: TaskState::Working,
                message: None
            }
        );
        assert_eq!(
            AgentEvent::status(TaskState::Failed, "disk full"),
            AgentEvent::Status {
                state: TaskState::Failed,
                message: Some(Message::new("", Role::Agent, vec![Part::text("disk full")]))
            }
        );
    }

    /// Waits for cancel; its cancel hook records that it ran.
    struct Waiter(Arc<AtomicBool>);

    impl Agent for Waiter {
        async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
            sink.working("waiting").await?;
            ctx.cancelled().await;
            Ok(())
        }

        async fn cancel(&self, _task: &Task) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// Picks an agent by name at run time, as a command-line flag would.
    fn pick(name: &str, cancelled: &Arc<AtomicBool>) -> Result<BoxAgent, String> {
        match name {
            "upper" => Ok(BoxAgent::new(agent_fn(|ctx, sink| async move {
                sink.artifact(Artifact::new(
                    "out",
                    vec![Part::text(ctx.text().to_uppercase())],
                ))
                .await?;
                sink.complete("upper-cased").await?;
                Ok(())
            }))),
            "wait" => {
                let agent: Arc<dyn DynAgent> = Arc::new(Waiter(cancelled.clone()));
                Ok(BoxAgent::from(agent))
            }
            other => Err(format!("unknown agent `{other}`")),
        }
    }

    fn handler(agent: BoxAgent) -> RequestHandler {
        let card = AgentCard::new("picked", "picked at run time", "1.0.0")
            .with_capabilities(AgentCapabilities::default().with_streaming(true));
        RequestHandler::builder(agent, card)
            .store(InMemoryTaskStore::new())
            .config(HandlerConfig::default().with_cancel_grace(Duration::from_millis(200)))
            .build()
    }

    fn send(text: &str) -> SendMessageRequest {
        SendMessageRequest::new(Message::new("m-1", Role::User, vec![Part::text(text)]))
    }

    #[tokio::test]
    async fn a_boxed_agent_picked_at_run_time_serves_a_request() {
        let unused = Arc::new(AtomicBool::new(false));
        assert_eq!(
            pick("nope", &unused).unwrap_err(),
            "unknown agent `nope`".to_owned()
        );
        let h = handler(pick("upper", &unused).unwrap());
        let SendMessageResponse::Task(task) = h
            .send_message(send("hello"), &CallContext::new())
            .await
            .unwrap()
        else {
            panic!("expected a task");
        };
        assert_eq!(task.status.state, TaskState::Completed);
        assert_eq!(task.artifacts.len(), 1);
        assert_eq!(
            serde_json::to_string(&task.artifacts[0]).unwrap(),
            r#"{"artifactId":"out","parts":[{"text":"HELLO"}]}"#
        );
        assert_eq!(task.status.message.unwrap().text(), "upper-cased");
    }

    #[tokio::test]
    async fn a_boxed_agent_forwards_cancel_to_the_agent_inside() {
        use futures_util::StreamExt as _;

        let cancelled = Arc::new(AtomicBool::new(false));
        let h = handler(pick("wait", &cancelled).unwrap());
        let mut events = h
            .send_streaming_message(send("wait"), &CallContext::new())
            .await
            .unwrap();
        let mut seen = Vec::new();
        let mut task_id = None;
        // Read until the agent reports working, then cancel, then read to the end.
        while let Some(event) = events.next().await {
            let line = match event.unwrap().event {
                StreamResponse::Task(t) => {
                    task_id = Some(t.id);
                    format!("task {}", t.status.state)
                }
                StreamResponse::StatusUpdate(u) => format!(
                    "status {} {}",
                    u.status.state,
                    u.status.message.map(|m| m.text()).unwrap_or_default()
                ),
                other => format!("other {other:?}"),
            };
            let working = line.starts_with("status TASK_STATE_WORKING");
            seen.push(line);
            if working {
                let id = task_id.clone().expect("the task came first");
                let canceled = h
                    .cancel_task(CancelTaskRequest::new(id), &CallContext::new())
                    .await
                    .unwrap();
                assert_eq!(canceled.status.state, TaskState::Canceled);
            }
        }
        assert_eq!(
            seen,
            [
                "task TASK_STATE_SUBMITTED",
                "status TASK_STATE_WORKING waiting",
                "status TASK_STATE_CANCELED ",
            ]
        );
        assert!(
            cancelled.load(Ordering::SeqCst),
            "the inner cancel hook ran"
        );
    }

    #[test]
    fn agent_errors_from_text_and_from_errors() {
        let owned = AgentError::from(String::from("no such city"));
        assert_eq!(owned.message(), "no such city");
        assert_eq!(
            owned.source().map(ToString::to_string).as_deref(),
            Some("no such city")
        );
        let text = AgentError::from("no such city");
        assert_eq!(text.to_string(), "no such city");
        let io = AgentError::from(std::io::Error::new(std::io::ErrorKind::NotFound, "gone"));
        assert_eq!(io.message(), "gone");
        let source = io.source().expect("the io error");
        assert_eq!(
            source
                .downcast_ref::<std::io::Error>()
                .map(std::io::Error::kind),
            Some(std::io::ErrorKind::NotFound)
        );
        assert!(AgentError::new("plain").source().is_none());
    }
}
