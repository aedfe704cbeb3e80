//! A scriptable agent for tests (feature `mock`): rules that match a message, scripts of
//! events that answer it, and a record of every message it received.
//!
//! ```
//! use a2a_server::mock::{Match, MockAgent, Rule, Script, Step};
//! use a2a_types::v1::TaskState;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let mock = MockAgent::new(
//!     Script::new()
//!         .rule(
//!             Rule::new(Match::contains("weather"), [Step::artifact_text("Sunny")]).named("weather"),
//!         )
//!         .fallback([Step::status(TaskState::Failed, "unexpected: {{text}}".to_owned())]),
//! );
//! let server = mock.serve().await?; // 127.0.0.1, a free port; stops when dropped
//!
//! let client = a2a_client::ClientBuilder::new().connect(server.url()).await?;
//! // ... the code under test calls the agent ...
//! # let _ = client;
//!
//! mock.assert_received(0);
//! # Ok(())
//! # }
//! ```
//!
//! The same script reads from JSON or YAML ([`Script::from_yaml`], [`Script::from_file`]);
//! `a2a mock SCRIPT` serves a script file over every binding (`docs/mock.md`).
//!
//! # How a message is answered
//!
//! * A follow-up on a task whose rule has turns left runs the rule's next turn.
//! * Otherwise the rules are tried in order; the first whose [`Match`] holds answers with its
//!   first turn. No rule: the script's `fallback`, else the message is refused with
//!   `UnsupportedOperationError` naming it (a follow-up: the task fails with that text).
//! * A turn's steps run in order; after the last one the task completes, unless a step left
//!   it in a final or interrupted state. A cancel ends the turn at once.
//!
//! Every message is recorded ([`MockAgent::received`]) before it is answered, up to
//! [`MockAgent::with_max_recorded`] messages (10 000 by default; older ones are dropped and
//! counted by [`MockAgent::dropped`]).

mod script;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use a2a_types::v1::{
    AgentCapabilities, AgentCard, AgentSkill, ContextId, Message, Struct, Task, TaskId,
};
use tokio::sync::Notify;

pub use script::{ArtifactStep, Match, Pattern, Rule, Script, ScriptError, Step};

use crate::agent::{Agent, AgentError, EventSink, RequestContext, StatusMessage};
use crate::error::A2aError;

/// The default bound of [`MockAgent::with_max_recorded`] (and of the tasks with turns left).
pub const DEFAULT_MAX_RECORDED: usize = 10_000;

/// One message the mock received.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Received {
    /// The message as the agent got it (role user, task and context ids filled in).
    pub message: Message,
    /// The task it started or continued.
    pub task_id: TaskId,
    /// The task's context.
    pub context_id: ContextId,
    /// True when it continued an existing task.
    pub follow_up: bool,
    /// The request's metadata.
    pub metadata: Option<Struct>,
    /// The extensions the client asked for (`A2A-Extensions`).
    pub extensions: Vec<String>,
    /// The rule that answered it (its name, else `#N`); `None`: the fallback or nothing.
    pub rule: Option<String>,
}

impl Received {
    /// The message's text parts, joined with newlines.
    pub fn text(&self) -> String {
        self.message.text()
    }
}

/// The scriptable agent. Cheap to clone: clones share the script and the record, so a test
/// keeps one clone and serves another.
#[derive(Clone)]
pub struct MockAgent {
    inner: Arc<Inner>,
}

struct Inner {
    script: Script,
    max_recorded: usize,
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Default)]
struct State {
    received: VecDeque<Received>,
    dropped: u64,
    cancelled: VecDeque<TaskId>,
    /// Tasks whose rule has turns left: the rule's index and the next turn.
    pending: HashMap<TaskId, (usize, usize)>,
    /// `pending`'s keys, oldest first, to keep it within the bound.
    pending_order: VecDeque<TaskId>,
}

impl std::fmt::Debug for MockAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockAgent")
            .field("rules", &self.inner.script.rules.len())
            .field("received", &self.lock().received.len())
            .finish_non_exhaustive()
    }
}

impl MockAgent {
    /// A mock that answers by `script`.
    pub fn new(script: Script) -> Self {
        Self::build(script, DEFAULT_MAX_RECORDED)
    }

    /// A mock of a JSON or YAML script file (see [`Script::from_file`]).
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Self, ScriptError> {
        Script::from_file(path).map(Self::new)
    }

    fn build(script: Script, max_recorded: usize) -> Self {
        Self {
            inner: Arc::new(Inner {
                script,
                max_recorded,
                state: Mutex::new(State::default()),
                changed: Notify::new(),
            }),
        }
    }

    /// The same script with another bound on the messages recorded (and on the tasks waiting
    /// for a next turn); at least 1. Call before serving: the record starts empty.
    #[must_use]
    pub fn with_max_recorded(self, max: usize) -> Self {
        Self::build(self.inner.script.clone(), max.max(1))
    }

    /// The script.
    pub fn script(&self) -> &Script {
        &self.inner.script
    }

    /// The card to serve: the script's, else [`default_card`](Self::default_card).
    pub fn card(&self) -> AgentCard {
        self.inner
            .script
            .card
            .clone()
            .unwrap_or_else(|| self.default_card())
    }

    /// The card of a script without one: "Mock agent", streaming, text and JSON in and out,
    /// one skill per skill a rule matches (or a single `mock` skill).
    pub fn default_card(&self) -> AgentCard {
        let mut skills: Vec<AgentSkill> = Vec::new();
        for rule in &self.inner.script.rules {
            if let Some(skill) = &rule.matcher.skill
                && !skills.iter().any(|s| s.id == *skill)
            {
                skills.push(AgentSkill::new(
                    skill.clone(),
                    skill.clone(),
                    format!("The scripted skill `{skill}`"),
                    ["mock"],
                ));
            }
        }
        if skills.is_empty() {
            skills.push(AgentSkill::new(
                "mock",
                "Mock",
                "Answers messages by the rules of its script",
                ["mock"],
            ));
        }
        AgentCard::new(
            "Mock agent",
            "A scripted A2A agent for tests (a2a_server::mock)",
            "1.0.0",
        )
        .with_capabilities(AgentCapabilities::default().with_streaming(true))
        .with_default_input_modes(["text/plain", "application/json"])
        .with_default_output_modes(["text/plain", "application/json"])
        .with_skills(skills)
    }

    /// The messages received so far, oldest first.
    pub fn received(&self) -> Vec<Received> {
        self.lock().received.iter().cloned().collect()
    }

    /// How many older messages were dropped from the record to keep it within its bound.
    pub fn dropped(&self) -> u64 {
        self.lock().dropped
    }

    /// The tasks canceled so far (as the server told the agent), oldest first.
    pub fn cancelled(&self) -> Vec<TaskId> {
        self.lock().cancelled.iter().cloned().collect()
    }

    /// Forgets what was received and canceled (the turns tasks have left are kept).
    pub fn clear(&self) {
        let mut state = self.lock();
        state.received.clear();
        state.cancelled.clear();
        state.dropped = 0;
    }

    /// Waits until at least `count` messages were received, for up to `timeout`; the messages
    /// then, or an error naming how many came.
    pub async fn wait_for_received(
        &self,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<Received>, String> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let changed = self.inner.changed.notified();
            let received = self.received();
            if received.len() >= count {
                return Ok(received);
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return Err(format!(
                    "the mock received {} message(s) within {timeout:?}, not {count}: {}",
                    received.len(),
                    describe(&received)
                ));
            }
        }
    }

    /// Panics unless exactly `count` messages were received, listing them.
    #[track_caller]
    pub fn assert_received(&self, count: usize) {
        let received = self.received();
        assert!(
            received.len() == count,
            "expected the mock to receive {count} message(s), it received {}: {}",
            received.len(),
            describe(&received)
        );
    }

    /// Panics unless some received message's text equals `text`, listing them.
    #[track_caller]
    pub fn assert_received_text(&self, text: &str) {
        let received = self.received();
        assert!(
            received.iter().any(|r| r.text() == text),
            "expected the mock to receive a message with the text {text:?}, it received: {}",
            describe(&received)
        );
    }

    /// Panics unless the rule named `rule` (or `#N`) answered exactly `times` messages.
    #[track_caller]
    pub fn assert_rule_matched(&self, rule: &str, times: usize) {
        let received = self.received();
        let matched = received
            .iter()
            .filter(|r| r.rule.as_deref() == Some(rule))
            .count();
        assert!(
            matched == times,
            "expected rule {rule:?} to answer {times} message(s), it answered {matched}; \
             received: {}",
            describe(&received)
        );
    }

    /// A service of this mock with its [`card`](Self::card): JSON-RPC (1.0, 0.3, 0.1) at `/`
    /// and HTTP+JSON (1.0, 0.3). Add settings with [`crate::ServiceBuilder`] through
    /// `A2aService::builder(mock.clone(), mock.card())`; gRPC through `a2a_grpc::server`.
    pub fn service(&self) -> crate::A2aService {
        crate::A2aService::builder(self.clone(), self.card()).build()
    }

    /// Serves the mock on 127.0.0.1 at a free port until the returned server is dropped.
    pub async fn serve(&self) -> std::io::Result<MockServer> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}", listener.local_addr()?);
        let service = crate::A2aService::builder(self.clone(), self.card())
            .public_url(url.clone())
            .build();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let config = service.serve_config();
        let task = tokio::spawn(async move {
            let signal = async move {
                let _ = stopped.await;
            };
            if let Err(err) = crate::serve_with_shutdown(listener, service, signal, config).await {
                tracing::error!(%err, "the mock server failed");
            }
        });
        Ok(MockServer {
            url,
            stop: Some(stop),
            task,
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records the message, then picks its turn: the rule's index (None: the fallback) and the
    /// turn's index, or None when nothing answers.
    fn choose(&self, ctx: &RequestContext) -> Option<(Option<usize>, usize)> {
        let script = &self.inner.script;
        let mut state = self.lock();
        let follow_up = ctx.task.is_some();
        let continued = if follow_up {
            state.pending.remove(&ctx.task_id)
        } else {
            None
        };
        let chosen = match continued {
            Some((rule, turn)) => Some((Some(rule), turn)),
            None => script
                .rules
                .iter()
                .position(|rule| rule.matcher.matches(&ctx.message, ctx.metadata.as_ref()))
                .map(|rule| (Some(rule), 0))
                .or_else(|| script.fallback.as_ref().map(|_| (None, 0))),
        };
        if let Some((Some(rule), turn)) = chosen
            && turn + 1 < script.rules[rule].turns.len()
        {
            if state.pending.len() >= self.inner.max_recorded
                && let Some(oldest) = state.pending_order.pop_front()
            {
                state.pending.remove(&oldest);
            }
            state.pending.insert(ctx.task_id.clone(), (rule, turn + 1));
            state.pending_order.push_back(ctx.task_id.clone());
        }
        let rule_name = chosen.and_then(|(rule, _)| rule).map(|index| {
            script.rules[index]
                .name
                .clone()
                .unwrap_or_else(|| format!("#{index}"))
        });
        if state.received.len() >= self.inner.max_recorded {
            state.received.pop_front();
            state.dropped += 1;
        }
        state.received.push_back(Received {
            message: ctx.message.clone(),
            task_id: ctx.task_id.clone(),
            context_id: ctx.context_id.clone(),
            follow_up,
            metadata: ctx.metadata.clone(),
            extensions: ctx.extensions.clone(),
            rule: rule_name,
        });
        drop(state);
        self.inner.changed.notify_waiters();
        chosen
    }
}

fn describe(received: &[Received]) -> String {
    if received.is_empty() {
        return "nothing".to_owned();
    }
    received
        .iter()
        .map(|r| format!("{:?} (messageId {})", r.text(), r.message.message_id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fills `{{text}}`, `{{messageId}}`, `{{taskId}}`, `{{contextId}}` and `{{skill}}` in.
fn render(template: &str, ctx: &RequestContext) -> String {
    if !template.contains("{{") {
        return template.to_owned();
    }
    template
        .replace("{{text}}", &ctx.message.text())
        .replace("{{messageId}}", ctx.message.message_id.as_str())
        .replace("{{taskId}}", ctx.task_id.as_str())
        .replace("{{contextId}}", ctx.context_id.as_str())
        .replace(
            "{{skill}}",
            script::skill_of(&ctx.message, ctx.metadata.as_ref()).unwrap_or(""),
        )
}

impl Agent for MockAgent {
    async fn execute(&self, ctx: RequestContext, sink: EventSink) -> Result<(), AgentError> {
        let script = &self.inner.script;
        let steps = match self.choose(&ctx) {
            Some((Some(rule), turn)) => &script.rules[rule].turns[turn],
            Some((None, _)) => script.fallback.as_deref().unwrap_or_default(),
            None => {
                let text = format!(
                    "no rule of the mock agent's script matches this message (text {:?}, \
                     messageId {})",
                    ctx.message.text(),
                    ctx.message.message_id
                );
                if ctx.task.is_some() {
                    return Err(AgentError::new(text));
                }
                sink.error(A2aError::unsupported_operation(text)).await?;
                return Ok(());
            }
        };
        let fill = |text: &str| render(text, &ctx);
        let mut artifacts = 0usize;
        let mut chunked: Vec<String> = Vec::new();
        for step in steps {
            if ctx.is_cancelled() {
                break;
            }
            match step {
                Step::Status { state, text } => {
                    let message = match text {
                        Some(text) => StatusMessage::from(fill(text)),
                        None => StatusMessage::none(),
                    };
                    sink.status(*state, message).await?;
                }
                Step::Artifact(artifact) => {
                    let id = artifact
                        .id
                        .clone()
                        .unwrap_or_else(|| format!("artifact-{artifacts}"));
                    artifacts += 1;
                    sink.artifact(artifact.build(id, &fill)).await?;
                }
                Step::Chunk(chunk) => {
                    let id = match (&chunk.id, chunked.last()) {
                        (Some(id), _) => id.clone(),
                        (None, Some(last)) => last.clone(),
                        (None, None) => {
                            artifacts += 1;
                            format!("artifact-{}", artifacts - 1)
                        }
                    };
                    let append = chunked.contains(&id);
                    if !append {
                        chunked.push(id.clone());
                    }
                    sink.artifact_chunk(chunk.build(id, &fill), append, chunk.last)
                        .await?;
                }
                Step::Delay(delay) => {
                    tokio::select! {
                        () = tokio::time::sleep(*delay) => {}
                        () = ctx.cancelled() => break,
                    }
                }
                Step::Reply(text) => sink.reply(fill(text)).await?,
                Step::Error(error) => sink.error(error.clone()).await?,
                Step::WaitForCancel => ctx.cancelled().await,
            }
        }
        Ok(())
    }

    async fn cancel(&self, task: &Task) {
        let mut state = self.lock();
        if state.cancelled.len() >= self.inner.max_recorded {
            state.cancelled.pop_front();
        }
        state.cancelled.push_back(task.id.clone());
        state.pending.remove(&task.id);
        drop(state);
        self.inner.changed.notify_waiters();
    }
}

/// A mock being served (see [`MockAgent::serve`]); stops serving when dropped.
#[derive(Debug)]
pub struct MockServer {
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl MockServer {
    /// The server's URL (`http://127.0.0.1:PORT`): its card is at
    /// `/.well-known/agent-card.json`, JSON-RPC at the URL itself.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops serving and waits for open connections to close (within the serve config's
    /// shutdown deadline).
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
