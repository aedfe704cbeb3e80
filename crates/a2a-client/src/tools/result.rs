//! What a tool call gives back: the task's outcome and artifacts, as the result of each
//! tool-calling API.

use a2a_types::v1::{Artifact, Part, PartContent, TaskState};
use serde_json::{Value, json};

/// How a tool call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolOutcome {
    /// The task completed.
    Completed,
    /// The agent answered with a message instead of a task.
    Answered,
    /// The agent asks for more input: call the tool again with the result's `taskId`.
    InputRequired,
    /// The agent asks for authentication the tool cannot give.
    AuthRequired,
    /// The task failed.
    Failed,
    /// The agent refused the task.
    Rejected,
    /// The task was canceled (by the agent, or by the caller's cancel).
    Canceled,
    /// The call's time ran out; the task was asked to cancel.
    TimedOut,
    /// The call did not reach a task: bad arguments, or an error of the agent or the network.
    Error,
}

impl ToolOutcome {
    /// The outcome of a task that stopped in `state` (an unfinished state reads as
    /// [`Error`](Self::Error)).
    pub fn from_state(state: TaskState) -> Self {
        match state {
            TaskState::Completed => ToolOutcome::Completed,
            TaskState::InputRequired => ToolOutcome::InputRequired,
            TaskState::AuthRequired => ToolOutcome::AuthRequired,
            TaskState::Failed => ToolOutcome::Failed,
            TaskState::Rejected => ToolOutcome::Rejected,
            TaskState::Canceled => ToolOutcome::Canceled,
            _ => ToolOutcome::Error,
        }
    }

    /// The outcome's name in the structured result: `completed`, `answered`,
    /// `input-required`, `auth-required`, `failed`, `rejected`, `canceled`, `timed-out`,
    /// `error`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolOutcome::Completed => "completed",
            ToolOutcome::Answered => "answered",
            ToolOutcome::InputRequired => "input-required",
            ToolOutcome::AuthRequired => "auth-required",
            ToolOutcome::Failed => "failed",
            ToolOutcome::Rejected => "rejected",
            ToolOutcome::Canceled => "canceled",
            ToolOutcome::TimedOut => "timed-out",
            ToolOutcome::Error => "error",
        }
    }

    /// True for the outcomes a tool result reports as an error: all but completed, answered
    /// and input-required.
    pub const fn is_error(self) -> bool {
        !matches!(
            self,
            ToolOutcome::Completed | ToolOutcome::Answered | ToolOutcome::InputRequired
        )
    }
}

/// A file an artifact holds, passed on by reference rather than by content.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileRef {
    /// Where the file is, when the part is a URL.
    pub url: Option<String>,
    /// The file name, if given.
    pub name: Option<String>,
    /// The media type, if given.
    pub media_type: Option<String>,
    /// The size in bytes of a file sent inline (its bytes are not kept).
    pub size: Option<usize>,
    /// The artifact it is in.
    pub artifact_id: String,
}

/// One piece of a tool result.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ToolContent {
    /// Text, as the agent wrote it (streamed chunks joined).
    Text(String),
    /// Structured data, as JSON.
    Data(Value),
    /// A file, by reference.
    File(FileRef),
}

/// The result of a tool call: how it ended, the ids to continue the task with, what the agent
/// said about its state, and the task's artifacts (or the agent's direct answer).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ToolResult {
    /// How the call ended.
    pub outcome: ToolOutcome,
    /// The task's id, when there is a task.
    pub task_id: Option<String>,
    /// The task's (or answer's) context id.
    pub context_id: Option<String>,
    /// The text of the task's last status message (the agent's question when it asks for
    /// input, its reason when it fails), or the error of an [`Error`](ToolOutcome::Error).
    pub status_text: Option<String>,
    /// The artifacts' parts, in the order they came.
    pub content: Vec<ToolContent>,
    /// True when the content was cut at the call's
    /// [`max_result_bytes`](crate::tools::CallOptions::max_result_bytes).
    pub truncated: bool,
}

impl ToolResult {
    /// A result of outcome [`Error`](ToolOutcome::Error) saying `message`.
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult {
            outcome: ToolOutcome::Error,
            task_id: None,
            context_id: None,
            status_text: Some(message.into()),
            content: Vec::new(),
            truncated: false,
        }
    }

    /// True when the result reports an error (see [`ToolOutcome::is_error`]).
    pub fn is_error(&self) -> bool {
        self.outcome.is_error()
    }

    /// The line that says how the call ended, when it did not simply complete; it tells the
    /// model how to continue a task that waits for input.
    pub fn lead(&self) -> Option<String> {
        let said = self
            .status_text
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let with = |prefix: &str| match said {
            Some(said) => format!("{prefix}: {said}"),
            None => format!("{prefix}."),
        };
        Some(match self.outcome {
            ToolOutcome::Completed | ToolOutcome::Answered => return None,
            ToolOutcome::InputRequired => {
                let mut text = with("The agent needs more input");
                if let Some(task) = &self.task_id {
                    text.push_str(&format!(
                        "\nTo answer, call this tool again with taskId \"{task}\""
                    ));
                    if let Some(context) = &self.context_id {
                        text.push_str(&format!(" and contextId \"{context}\""));
                    }
                    text.push('.');
                }
                text
            }
            ToolOutcome::AuthRequired => with("The agent needs authentication to go on"),
            ToolOutcome::Failed => with("The agent failed"),
            ToolOutcome::Rejected => with("The agent rejected the request"),
            ToolOutcome::Canceled => with("The task was canceled"),
            ToolOutcome::TimedOut => with("The agent did not finish in time"),
            ToolOutcome::Error => with("The call failed"),
        })
    }

    /// The result as one text, for APIs whose tool results are text: the lead line, then each
    /// piece of content (data as compact JSON, files as references), separated by blank
    /// lines.
    pub fn text(&self) -> String {
        let mut pieces: Vec<String> = self.lead().into_iter().collect();
        pieces.extend(self.content.iter().map(|c| self.content_text(c)));
        if self.truncated {
            pieces.push("[output cut: it was longer than the tool result may be]".to_owned());
        }
        if pieces.is_empty() {
            pieces.push("The agent finished without output.".to_owned());
        }
        pieces.join("\n\n")
    }

    fn content_text(&self, content: &ToolContent) -> String {
        match content {
            ToolContent::Text(text) => text.clone(),
            ToolContent::Data(value) => value.to_string(),
            ToolContent::File(file) => {
                let mut text = String::from("File");
                if let Some(name) = &file.name {
                    text.push_str(&format!(" {name}"));
                }
                let mut about: Vec<String> = file.media_type.iter().cloned().collect();
                if let Some(size) = file.size {
                    about.push(format!("{size} bytes"));
                }
                if !about.is_empty() {
                    text.push_str(&format!(" ({})", about.join(", ")));
                }
                match (&file.url, &self.task_id) {
                    (Some(url), _) => text.push_str(&format!(": {url}")),
                    (None, Some(task)) => {
                        let artifact = &file.artifact_id;
                        text.push_str(&format!(" in artifact {artifact} of task {task}"));
                    }
                    (None, None) => {
                        text.push_str(&format!(" in artifact {}", file.artifact_id));
                    }
                }
                text
            }
        }
    }

    /// The result as an OpenAI-compatible tool message: `{"role": "tool", "tool_call_id",
    /// "content"}` with [`text`](Self::text) as the content.
    pub fn to_openai(&self, tool_call_id: &str) -> Value {
        json!({"role": "tool", "tool_call_id": tool_call_id, "content": self.text()})
    }

    /// The result as an Anthropic-compatible `tool_result` content block, with
    /// [`text`](Self::text) as one text block and `is_error`.
    pub fn to_anthropic(&self, tool_use_id: &str) -> Value {
        json!({
            "type": "tool_result",
            "tool_use_id": tool_use_id,
            "content": [{"type": "text", "text": self.text()}],
            "is_error": self.is_error(),
        })
    }

    /// The result as an MCP `CallToolResult`: the lead line and each text or data piece as a
    /// text block, each file URL as a `resource_link`, an inline file as a text reference;
    /// `structuredContent` with the outcome and the ids (and the data, when the content is
    /// exactly one data piece); `isError`.
    pub fn to_mcp(&self) -> Value {
        let mut content: Vec<Value> = self
            .lead()
            .into_iter()
            .map(|text| json!({"type": "text", "text": text}))
            .collect();
        for piece in &self.content {
            content.push(match piece {
                ToolContent::File(FileRef {
                    url: Some(url),
                    name,
                    media_type,
                    ..
                }) => {
                    let mut link = json!({
                        "type": "resource_link",
                        "uri": url,
                        "name": name.clone().unwrap_or_else(|| url.clone()),
                    });
                    if let Some(media_type) = media_type {
                        link["mimeType"] = json!(media_type);
                    }
                    link
                }
                other => json!({"type": "text", "text": self.content_text(other)}),
            });
        }
        if self.truncated {
            content.push(json!({
                "type": "text",
                "text": "[output cut: it was longer than the tool result may be]"
            }));
        }
        let mut structured = json!({"outcome": self.outcome.as_str()});
        if let Some(task) = &self.task_id {
            structured["taskId"] = json!(task);
        }
        if let Some(context) = &self.context_id {
            structured["contextId"] = json!(context);
        }
        if let [ToolContent::Data(data)] = self.content.as_slice() {
            structured["data"] = data.clone();
        }
        json!({
            "content": content,
            "structuredContent": structured,
            "isError": self.is_error(),
        })
    }
}

/// Gathers artifacts (whole, or streamed in chunks) into tool content within a byte budget.
#[derive(Debug)]
pub(crate) struct Collector {
    /// Per artifact, in the order they first came: its id and its pieces.
    artifacts: Vec<(String, Vec<ToolContent>)>,
    used: usize,
    limit: usize,
    pub(crate) truncated: bool,
}

impl Collector {
    pub(crate) fn new(limit: usize) -> Self {
        Collector {
            artifacts: Vec::new(),
            used: 0,
            limit,
            truncated: false,
        }
    }

    /// Forgets what was gathered (a task snapshot replaces it).
    pub(crate) fn clear(&mut self) {
        self.artifacts.clear();
        self.used = 0;
    }

    /// Adds an artifact: `append` adds its parts to the artifact of the same id (a text
    /// chunk joins the text before it); otherwise it replaces that artifact.
    pub(crate) fn artifact(&mut self, artifact: &Artifact, append: bool) {
        let id = artifact.artifact_id.as_str().to_owned();
        let index = match self.artifacts.iter().position(|(known, _)| *known == id) {
            Some(index) => {
                if !append {
                    self.artifacts[index].1.clear();
                }
                index
            }
            None => {
                self.artifacts.push((id.clone(), Vec::new()));
                self.artifacts.len() - 1
            }
        };
        for part in &artifact.parts {
            let Some(piece) = self.piece(part, &id) else {
                continue;
            };
            let pieces = &mut self.artifacts[index].1;
            match (pieces.last_mut(), piece) {
                (Some(ToolContent::Text(before)), ToolContent::Text(chunk)) if append => {
                    before.push_str(&chunk);
                }
                (_, piece) => pieces.push(piece),
            }
        }
    }

    /// The parts of a direct answer, as one artifact.
    pub(crate) fn parts(&mut self, id: &str, parts: &[Part]) {
        let pieces: Vec<ToolContent> = parts.iter().filter_map(|p| self.piece(p, id)).collect();
        self.artifacts.push((id.to_owned(), pieces));
    }

    /// A part as a piece, if the budget has room for it.
    fn piece(&mut self, part: &Part, artifact_id: &str) -> Option<ToolContent> {
        let (piece, cost) = match &part.content {
            PartContent::Text(text) => (ToolContent::Text(text.clone()), text.len()),
            PartContent::Data(value) => (ToolContent::Data(value.clone()), value.to_string().len()),
            PartContent::Url(url) => (
                ToolContent::File(FileRef {
                    url: Some(url.clone()),
                    name: part.filename.clone(),
                    media_type: part.media_type.clone(),
                    size: None,
                    artifact_id: artifact_id.to_owned(),
                }),
                url.len(),
            ),
            PartContent::Raw(bytes) => (
                ToolContent::File(FileRef {
                    url: None,
                    name: part.filename.clone(),
                    media_type: part.media_type.clone(),
                    size: Some(bytes.len()),
                    artifact_id: artifact_id.to_owned(),
                }),
                64,
            ),
            // A part of a kind this crate does not know yet: nothing to pass on.
            #[allow(unreachable_patterns)]
            _ => return None,
        };
        if self.used.saturating_add(cost) > self.limit {
            self.truncated = true;
            return None;
        }
        self.used += cost;
        Some(piece)
    }

    /// The pieces gathered, artifact by artifact.
    pub(crate) fn into_content(self) -> Vec<ToolContent> {
        self.artifacts.into_iter().flat_map(|(_, p)| p).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn chunks_join_and_the_budget_cuts() {
        let mut collector = Collector::new(10);
        collector.artifact(&Artifact::new("a", vec![Part::text("hello ")]), false);
        collector.artifact(&Artifact::new("a", vec![Part::text("you")]), true);
        collector.artifact(&Artifact::new("b", vec![Part::text("too long")]), false);
        assert!(collector.truncated);
        assert_eq!(
            collector.into_content(),
            [ToolContent::Text("hello you".into())]
        );
    }

    #[test]
    fn input_required_says_how_to_continue() {
        let result = ToolResult {
            outcome: ToolOutcome::InputRequired,
            task_id: Some("t1".into()),
            context_id: Some("c1".into()),
            status_text: Some("Which city?".into()),
            content: vec![],
            truncated: false,
        };
        assert_eq!(
            result.to_mcp(),
            json!({
                "content": [{
                    "type": "text",
                    "text": "The agent needs more input: Which city?\nTo answer, call this tool again with taskId \"t1\" and contextId \"c1\"."
                }],
                "structuredContent": {"outcome": "input-required", "taskId": "t1", "contextId": "c1"},
                "isError": false
            })
        );
    }

    #[test]
    fn files_are_references() {
        let result = ToolResult {
            outcome: ToolOutcome::Completed,
            task_id: Some("t1".into()),
            context_id: None,
            status_text: None,
            content: vec![
                ToolContent::File(FileRef {
                    url: Some("https://files.example/a.png".into()),
                    name: Some("a.png".into()),
                    media_type: Some("image/png".into()),
                    size: None,
                    artifact_id: "art".into(),
                }),
                ToolContent::File(FileRef {
                    url: None,
                    name: None,
                    media_type: Some("application/pdf".into()),
                    size: Some(3),
                    artifact_id: "art".into(),
                }),
                ToolContent::Data(json!({"k": 1})),
            ],
            truncated: false,
        };
        assert_eq!(
            result.text(),
            "File a.png (image/png): https://files.example/a.png\n\n\
             File (application/pdf, 3 bytes) in artifact art of task t1\n\n{\"k\":1}"
        );
        assert_eq!(
            result.to_anthropic("tu_1"),
            json!({
                "type": "tool_result",
                "tool_use_id": "tu_1",
                "content": [{"type": "text", "text": result.text()}],
                "is_error": false
            })
        );
        assert_eq!(
            result.to_mcp()["content"],
            json!([
                {"type": "resource_link", "uri": "https://files.example/a.png", "name": "a.png", "mimeType": "image/png"},
                {"type": "text", "text": "File (application/pdf, 3 bytes) in artifact art of task t1"},
                {"type": "text", "text": "{\"k\":1}"}
            ])
        );
    }
}
