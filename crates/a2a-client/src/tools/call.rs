//! Calling a tool: the arguments as an A2A message, the task followed to its end (streamed
//! when the agent can), under a timeout and a cancel.

use std::future::Future;
use std::pin::pin;
use std::time::Duration;

use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, Message, Part, SendMessageRequest, SendMessageResponse,
    StreamResponse, Task, TaskState,
};
use futures_util::StreamExt as _;
use futures_util::future::{Either, select};
use serde_json::Value;

use super::descriptor::{InputKinds, ToolDescriptor, descriptors};
use super::result::{Collector, ToolOutcome, ToolResult};
use crate::{A2aClient, Error, ErrorCode};

/// The limits of a tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallOptions {
    /// How long a call may take, from sending the message to the task's end or interruption
    /// (default 300 s); then the task is asked to cancel and the call ends
    /// [`TimedOut`](ToolOutcome::TimedOut). `None`: no limit.
    pub timeout: Option<Duration>,
    /// The most bytes of text, data and file references a result keeps (default 1 MiB); the
    /// rest is dropped and the result says it was cut.
    pub max_result_bytes: usize,
    /// Stream the task when the agent's card says it can (default true); else wait for the
    /// answer of `SendMessage`.
    pub streaming: bool,
    /// How often a task that `SendMessage` returned unfinished is polled (default 1 s).
    pub poll_interval: Duration,
}

impl Default for CallOptions {
    fn default() -> Self {
        CallOptions {
            timeout: Some(Duration::from_secs(300)),
            max_result_bytes: 1 << 20,
            streaming: true,
            poll_interval: Duration::from_secs(1),
        }
    }
}

impl CallOptions {
    /// Sets [`timeout`](Self::timeout).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets [`max_result_bytes`](Self::max_result_bytes).
    pub fn with_max_result_bytes(mut self, max: usize) -> Self {
        self.max_result_bytes = max;
        self
    }

    /// Sets [`streaming`](Self::streaming).
    pub fn with_streaming(mut self, streaming: bool) -> Self {
        self.streaming = streaming;
        self
    }
}

/// Why a tool call could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// No tool has this name.
    #[error("no tool is named `{0}`")]
    UnknownTool(String),
    /// The arguments do not fit the tool's input schema.
    #[error("invalid arguments: {0}")]
    InvalidArguments(String),
    /// The agent could not be reached or refused the message.
    #[error(transparent)]
    Client(#[from] Error),
}

impl ToolError {
    /// The error as a tool result of outcome [`Error`](ToolOutcome::Error), for a model to
    /// read.
    pub fn into_result(self) -> ToolResult {
        ToolResult::error(self.to_string())
    }
}

/// The arguments of a tool call, read from the JSON a model sends.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ToolInput {
    /// The message text.
    pub message: String,
    /// Files: parts with a URL or raw bytes.
    pub files: Vec<Part>,
    /// Structured data.
    pub data: Option<Value>,
    /// The task to continue.
    pub task_id: Option<String>,
    /// The context to continue.
    pub context_id: Option<String>,
}

impl ToolInput {
    /// Reads a tool's arguments: an object with `message` (a string) and, as `inputs` allow,
    /// `files` and `data`, and optional `taskId`/`contextId` (also as `task_id`/`context_id`).
    /// A bare string is taken as the message; `null` members count as absent.
    ///
    /// # Errors
    ///
    /// [`ToolError::InvalidArguments`] naming the member at fault.
    pub fn parse(arguments: &Value, inputs: InputKinds) -> Result<Self, ToolError> {
        let invalid = ToolError::InvalidArguments;
        let object = match arguments {
            Value::String(message) => {
                return Ok(ToolInput {
                    message: message.clone(),
                    ..ToolInput::default()
                });
            }
            Value::Object(object) => object,
            other => {
                return Err(invalid(format!(
                    "expected an object with `message`, got {}",
                    kind(other)
                )));
            }
        };
        let mut input = ToolInput::default();
        for (key, value) in object {
            if value.is_null() {
                continue;
            }
            match key.as_str() {
                "message" => input.message = string(value, "message")?,
                "taskId" | "task_id" => input.task_id = Some(string(value, key)?),
                "contextId" | "context_id" => input.context_id = Some(string(value, key)?),
                "data" if inputs.data => {
                    if !value.is_object() {
                        return Err(invalid(format!(
                            "`data` must be a JSON object, got {}",
                            kind(value)
                        )));
                    }
                    input.data = Some(value.clone());
                }
                "files" if inputs.files => {
                    let Value::Array(files) = value else {
                        return Err(invalid(format!(
                            "`files` must be an array, got {}",
                            kind(value)
                        )));
                    };
                    for (i, file) in files.iter().enumerate() {
                        input.files.push(file_part(file, i)?);
                    }
                }
                other => {
                    return Err(invalid(format!("this tool takes no `{other}`")));
                }
            }
        }
        if input.message.trim().is_empty() && input.files.is_empty() && input.data.is_none() {
            return Err(invalid(
                "`message` is required and must not be empty".into(),
            ));
        }
        Ok(input)
    }

    /// The A2A message of these arguments: a text part, then the files, then the data.
    pub fn into_message(self) -> Message {
        let mut parts = Vec::new();
        if !self.message.is_empty() {
            parts.push(Part::text(self.message));
        }
        parts.extend(self.files);
        if let Some(data) = self.data {
            parts.push(Part::data(data));
        }
        let mut message = Message::user(parts);
        message.task_id = self.task_id.map(Into::into);
        message.context_id = self.context_id.map(Into::into);
        message
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn string(value: &Value, name: &str) -> Result<String, ToolError> {
    value.as_str().map(str::to_owned).ok_or_else(|| {
        ToolError::InvalidArguments(format!("`{name}` must be a string, got {}", kind(value)))
    })
}

/// One entry of `files`: `{url | bytes, name?, mediaType?}`.
fn file_part(file: &Value, index: usize) -> Result<Part, ToolError> {
    let invalid = |why: String| ToolError::InvalidArguments(format!("`files[{index}]`: {why}"));
    let Value::Object(file) = file else {
        return Err(invalid(format!("expected an object, got {}", kind(file))));
    };
    let mut wire = serde_json::Map::new();
    for (key, value) in file {
        if value.is_null() {
            continue;
        }
        let member = match key.as_str() {
            "url" | "uri" => "url",
            "bytes" | "raw" => "raw",
            "name" | "filename" => "filename",
            "mediaType" | "media_type" | "mimeType" => "mediaType",
            other => return Err(invalid(format!("unknown member `{other}`"))),
        };
        let Some(text) = value.as_str() else {
            return Err(invalid(format!(
                "`{key}` must be a string, got {}",
                kind(value)
            )));
        };
        wire.insert(member.to_owned(), Value::String(text.to_owned()));
    }
    match (wire.contains_key("url"), wire.contains_key("raw")) {
        (true, true) => return Err(invalid("give `url` or `bytes`, not both".into())),
        (false, false) => return Err(invalid("give `url` or `bytes`".into())),
        _ => {}
    }
    // The part decoder checks the base64.
    serde_json::from_value(Value::Object(wire)).map_err(|e| invalid(e.to_string()))
}

/// The tools of one agent: its descriptors, and calls that send the message and follow the
/// task.
///
/// ```
/// # use a2a_client::tools::{AgentTools, ToolOutcome};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let url = echo_agent().await?;
/// let tools = AgentTools::new(a2a_client::A2aClient::connect(&url).await?);
/// assert_eq!(tools.descriptors()[0].name, "echo");
/// let result = tools.call("echo", &serde_json::json!({"message": "hi"})).await?;
/// assert_eq!(result.outcome, ToolOutcome::Completed);
/// assert_eq!(result.text(), "hi");
/// # Ok(())
/// # }
/// # async fn echo_agent() -> std::io::Result<String> {
/// #     use a2a_server::{A2aService, agent::agent_fn};
/// #     use a2a_types::v1::{AgentCapabilities, AgentCard, AgentSkill, Artifact, Part};
/// #     let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// #     let url = format!("http://{}", listener.local_addr()?);
/// #     let agent = agent_fn(|ctx, sink| async move {
/// #         sink.artifact(Artifact::new("echo", vec![Part::text(ctx.text())])).await?;
/// #         sink.complete(None).await?;
/// #         Ok(())
/// #     });
/// #     let card = AgentCard::new("Echo", "Echoes", "1.0.0")
/// #         .with_capabilities(AgentCapabilities::default().with_streaming(true))
/// #         .with_skills([AgentSkill::new("echo", "Echo", "Repeats", ["echo"])]);
/// #     let service = A2aService::builder(agent, card).public_url(&url).build();
/// #     tokio::spawn(a2a_server::serve(listener, service));
/// #     Ok(url)
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct AgentTools {
    client: A2aClient,
    tools: Vec<ToolDescriptor>,
    options: CallOptions,
}

impl AgentTools {
    /// The tools of the client's agent (see [`descriptors`]), with the default
    /// [`CallOptions`].
    pub fn new(client: A2aClient) -> Self {
        let tools = descriptors(client.card());
        Self::with_descriptors(client, tools)
    }

    /// Tools with descriptors of the caller's (a registry's, whose names are unique across
    /// agents).
    pub(crate) fn with_descriptors(client: A2aClient, tools: Vec<ToolDescriptor>) -> Self {
        AgentTools {
            client,
            tools,
            options: CallOptions::default(),
        }
    }

    /// Sets the limits of every call.
    #[must_use]
    pub fn with_options(mut self, options: CallOptions) -> Self {
        self.options = options;
        self
    }

    /// The client the calls go through.
    pub fn client(&self) -> &A2aClient {
        &self.client
    }

    /// The tool descriptors, one per skill.
    pub fn descriptors(&self) -> &[ToolDescriptor] {
        &self.tools
    }

    /// The descriptor named `name`.
    pub fn descriptor(&self, name: &str) -> Option<&ToolDescriptor> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// Calls the tool `name` with the model's `arguments` (see [`ToolInput::parse`]).
    ///
    /// # Errors
    ///
    /// [`ToolError::UnknownTool`], [`ToolError::InvalidArguments`], or
    /// [`ToolError::Client`] when the message could not be sent. Whatever happens to the task
    /// after it started (failure, timeout, a question) is a [`ToolResult`].
    pub async fn call(&self, name: &str, arguments: &Value) -> Result<ToolResult, ToolError> {
        self.call_until(name, arguments, std::future::pending())
            .await
    }

    /// [`call`](Self::call), ended early when `cancel` completes (e.g. a
    /// `CancellationToken::cancelled()`): the task is asked to cancel and the result is
    /// [`Canceled`](ToolOutcome::Canceled), with what came so far. Dropping the call's future
    /// before its end cancels its task too (in the background, on the current tokio runtime),
    /// unless the task waits for input.
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call).
    pub async fn call_until(
        &self,
        name: &str,
        arguments: &Value,
        cancel: impl Future<Output = ()>,
    ) -> Result<ToolResult, ToolError> {
        let tool = self
            .descriptor(name)
            .ok_or_else(|| ToolError::UnknownTool(name.to_owned()))?;
        let input = ToolInput::parse(arguments, tool.inputs)?;
        self.send(input.into_message(), cancel).await
    }

    /// Sends `message` and follows its task to the end, under the call's limits.
    ///
    /// # Errors
    ///
    /// [`ToolError::Client`] when the message could not be sent.
    pub async fn send(
        &self,
        message: Message,
        cancel: impl Future<Output = ()>,
    ) -> Result<ToolResult, ToolError> {
        let mut run = Run::new(self.options.max_result_bytes, self.client.clone());
        let timeout = self.options.timeout;
        let stop = async move {
            match timeout {
                Some(limit) => tokio::time::sleep(limit).await,
                None => std::future::pending().await,
            }
        };
        let stopped = {
            let drive = pin!(self.drive(&mut run, message));
            let stop = pin!(stop);
            let cancel = pin!(cancel);
            match select(drive, select(stop, cancel)).await {
                Either::Left((outcome, _)) => {
                    outcome?;
                    None
                }
                Either::Right((Either::Left(_), _)) => Some(ToolOutcome::TimedOut),
                Either::Right((Either::Right(_), _)) => Some(ToolOutcome::Canceled),
            }
        };
        if let Some(outcome) = stopped {
            self.cancel(&run).await;
            let mut result = run.finish(outcome);
            if outcome == ToolOutcome::TimedOut
                && let Some(limit) = timeout
            {
                result.status_text = Some(format!(
                    "no end after {} s; the task was asked to cancel",
                    limit.as_secs_f64()
                ));
            }
            return Ok(result);
        }
        let outcome = match run.state {
            Some(state) => ToolOutcome::from_state(state),
            None => ToolOutcome::Answered,
        };
        Ok(run.finish(outcome))
    }

    /// Asks the agent to cancel the run's task, if it has one that has not ended; a refusal is
    /// fine (it may have just ended).
    async fn cancel(&self, run: &Run) {
        let Some(task) = &run.task_id else { return };
        if run.state.is_some_and(TaskState::is_terminal) {
            return;
        }
        let request = CancelTaskRequest::new(task.as_str());
        let _ = tokio::time::timeout(CANCEL_WAIT, self.client.cancel_task(request)).await;
    }

    async fn drive(&self, run: &mut Run, message: Message) -> Result<(), ToolError> {
        let request = SendMessageRequest::new(message);
        let streaming =
            self.options.streaming && self.client.card().capabilities.streaming == Some(true);
        if streaming {
            match self.client.send_streaming_message(request.clone()).await {
                Ok(mut events) => {
                    while let Some(event) = events.next().await {
                        let event = event?;
                        let last = event.is_final();
                        run.event(event);
                        if last {
                            break;
                        }
                    }
                    return Ok(());
                }
                // A card that says streaming but an interface that has none: wait instead.
                Err(error) if error.code() == Some(ErrorCode::UNSUPPORTED_OPERATION) => {}
                Err(error) => return Err(error.into()),
            }
        }
        match self.client.send_message(request).await? {
            SendMessageResponse::Message(message) => run.answer(&message),
            SendMessageResponse::Task(task) => {
                let mut task = task;
                loop {
                    let state = task.status.state;
                    run.task(&task);
                    if state.is_final() {
                        break;
                    }
                    tokio::time::sleep(self.options.poll_interval).await;
                    task = self
                        .client
                        .get_task(GetTaskRequest::new(task.id.as_str()))
                        .await?;
                }
            }
            // A payload of a kind this crate does not know yet.
            #[allow(unreachable_patterns)]
            _ => return Err(Error::Protocol("an answer of an unknown kind".into()).into()),
        }
        Ok(())
    }
}

/// What a call learned so far.
///
/// A call dropped before its end (its caller went away) leaves no task running: dropping a run
/// whose task has not reached a final state asks the agent to cancel it, in the background.
struct Run {
    task_id: Option<String>,
    context_id: Option<String>,
    state: Option<TaskState>,
    status_text: Option<String>,
    collector: Collector,
    /// The client to cancel the task through when the run is dropped unfinished; `None` once
    /// the run has a result.
    guard: Option<A2aClient>,
}

impl Drop for Run {
    fn drop(&mut self) {
        let Some(client) = self.guard.take() else {
            return;
        };
        if let Some(task) = self.task_id.take()
            && !self.state.is_some_and(TaskState::is_final)
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move {
                let request = CancelTaskRequest::new(task);
                let _ = tokio::time::timeout(CANCEL_WAIT, client.cancel_task(request)).await;
            });
        }
    }
}

/// How long a cancel of a stopped call's task may take.
const CANCEL_WAIT: Duration = Duration::from_secs(10);

impl Run {
    fn new(limit: usize, client: A2aClient) -> Self {
        Run {
            task_id: None,
            context_id: None,
            state: None,
            status_text: None,
            collector: Collector::new(limit),
            guard: Some(client),
        }
    }

    fn ids(&mut self, task: Option<&str>, context: Option<&str>) {
        if let Some(task) = task.filter(|t| !t.is_empty()) {
            self.task_id = Some(task.to_owned());
        }
        if let Some(context) = context.filter(|c| !c.is_empty()) {
            self.context_id = Some(context.to_owned());
        }
    }

    fn status(&mut self, state: TaskState, message: Option<&Message>) {
        self.state = Some(state);
        let text = message.map(Message::text).filter(|t| !t.trim().is_empty());
        if text.is_some() || state.is_final() {
            self.status_text = text;
        }
    }

    fn task(&mut self, task: &Task) {
        self.ids(
            Some(task.id.as_str()),
            task.context_id.as_ref().map(|c| c.as_str()),
        );
        self.status(task.status.state, task.status.message.as_ref());
        self.collector.clear();
        for artifact in &task.artifacts {
            self.collector.artifact(artifact, false);
        }
    }

    fn answer(&mut self, message: &Message) {
        self.ids(
            message.task_id.as_ref().map(|t| t.as_str()),
            message.context_id.as_ref().map(|c| c.as_str()),
        );
        self.collector
            .parts(message.message_id.as_str(), &message.parts);
    }

    fn event(&mut self, event: StreamResponse) {
        match event {
            StreamResponse::Task(task) => self.task(&task),
            StreamResponse::Message(message) => self.answer(&message),
            StreamResponse::StatusUpdate(update) => {
                self.ids(
                    Some(update.task_id.as_str()),
                    Some(update.context_id.as_str()),
                );
                self.status(update.status.state, update.status.message.as_ref());
            }
            StreamResponse::ArtifactUpdate(update) => {
                self.ids(
                    Some(update.task_id.as_str()),
                    Some(update.context_id.as_str()),
                );
                self.collector.artifact(&update.artifact, update.append);
            }
            // An event of a kind this crate does not know yet.
            #[allow(unreachable_patterns)]
            _ => {}
        }
    }

    fn finish(mut self, outcome: ToolOutcome) -> ToolResult {
        self.guard = None;
        let collector = std::mem::replace(&mut self.collector, Collector::new(0));
        ToolResult {
            outcome,
            task_id: self.task_id.take(),
            context_id: self.context_id.take(),
            status_text: self.status_text.take(),
            truncated: collector.truncated,
            content: collector.into_content(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ALL: InputKinds = InputKinds {
        files: true,
        data: true,
    };

    #[test]
    fn arguments_become_a_message() {
        let input = ToolInput::parse(
            &json!({
                "message": "look",
                "files": [{"url": "https://f.example/a.png", "mediaType": "image/png"}, {"bytes": "aGk=", "name": "hi.txt"}],
                "data": {"k": 1},
                "taskId": "t1",
                "contextId": null
            }),
            ALL,
        )
        .unwrap();
        let message = serde_json::to_value(input.into_message()).unwrap();
        assert_eq!(message["taskId"], json!("t1"));
        assert_eq!(message.get("contextId"), None);
        assert_eq!(
            message["parts"],
            json!([
                {"text": "look"},
                {"url": "https://f.example/a.png", "mediaType": "image/png"},
                {"raw": "aGk=", "filename": "hi.txt"},
                {"data": {"k": 1}}
            ])
        );
    }

    #[test]
    fn bad_arguments_are_named() {
        let text_only = InputKinds::default();
        let error = |args: Value, inputs| ToolInput::parse(&args, inputs).unwrap_err().to_string();
        assert_eq!(
            error(json!(3), text_only),
            "invalid arguments: expected an object with `message`, got a number"
        );
        assert_eq!(
            error(json!({"message": 3}), text_only),
            "invalid arguments: `message` must be a string, got a number"
        );
        assert_eq!(
            error(json!({"message": "x", "data": {}}), text_only),
            "invalid arguments: this tool takes no `data`"
        );
        assert_eq!(
            error(json!({}), text_only),
            "invalid arguments: `message` is required and must not be empty"
        );
        assert_eq!(
            error(json!({"message": "x", "files": [{"name": "a"}]}), ALL),
            "invalid arguments: `files[0]`: give `url` or `bytes`"
        );
        assert!(
            error(json!({"message": "x", "files": [{"bytes": "%%%"}]}), ALL)
                .starts_with("invalid arguments: `files[0]`: ")
        );
        assert_eq!(
            ToolInput::parse(&json!("just text"), text_only)
                .unwrap()
                .message,
            "just text"
        );
    }
}
