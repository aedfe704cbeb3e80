//! What the commands print: for a person, or with `--json` the raw JSON.

use std::io::{self, Write as _};

use a2a_types::v1::{
    AgentCard, AgentInterface, ListTasksResponse, Message, Part, PartContent, StreamResponse, Task,
    TaskState,
};

/// A task state as a person reads it: `completed`, `input-required`.
pub(crate) fn state(state: TaskState) -> String {
    state
        .as_str()
        .trim_start_matches("TASK_STATE_")
        .to_ascii_lowercase()
        .replace('_', "-")
}

/// The parts as a person reads them: text as it is, files and data as a short note.
pub(crate) fn parts(parts: &[Part]) -> String {
    let mut out = String::new();
    for part in parts {
        let shown = match &part.content {
            PartContent::Text(text) => text.clone(),
            PartContent::Raw(bytes) => format!(
                "[file {} ({}, {} bytes)]",
                part.filename.as_deref().unwrap_or("without name"),
                part.media_type.as_deref().unwrap_or("unknown type"),
                bytes.len()
            ),
            PartContent::Url(url) => format!("[file {url}]"),
            PartContent::Data(value) => format!("[data {value}]"),
            _ => "[part]".to_owned(),
        };
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&shown);
    }
    out
}

/// Writes to stdout; remembers whether the last text left a line open, so that status lines
/// always start on a line of their own. A closed pipe (`a2a stream … | head`) ends the program
/// quietly.
pub(crate) struct Printer {
    json: bool,
    open_line: bool,
}

impl Printer {
    pub(crate) fn new(json: bool) -> Self {
        Self {
            json,
            open_line: false,
        }
    }

    fn write(&mut self, text: &str) {
        let mut out = io::stdout().lock();
        let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        if let Err(err) = written {
            if err.kind() == io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("error: cannot write to stdout: {err}");
            std::process::exit(1);
        }
        if !text.is_empty() {
            self.open_line = !text.ends_with('\n');
        }
    }

    /// A line of its own.
    pub(crate) fn line(&mut self, text: &str) {
        if self.open_line {
            self.write("\n");
        }
        self.write(text);
        self.write("\n");
    }

    /// Text as it comes (artifact chunks).
    fn text(&mut self, text: &str) {
        self.write(text);
    }

    /// Ends an open line.
    pub(crate) fn end(&mut self) {
        if self.open_line {
            self.write("\n");
        }
    }

    pub(crate) fn json_value(&mut self, value: &impl serde::Serialize, pretty: bool) {
        let text = if pretty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        }
        .expect("A2A types serialize");
        self.line(&text);
    }

    /// One event of a stream.
    pub(crate) fn event(&mut self, event: &StreamResponse) {
        if self.json {
            self.json_value(event, false);
            return;
        }
        match event {
            StreamResponse::Task(task) => {
                self.line(&format!("[{}] task {}", state(task.status.state), task.id));
                if let Some(message) = &task.status.message {
                    self.message(message);
                }
            }
            StreamResponse::Message(message) => self.message(message),
            StreamResponse::StatusUpdate(update) => {
                let text = update
                    .status
                    .message
                    .as_ref()
                    .map(|m| parts(&m.parts))
                    .filter(|t| !t.is_empty());
                match text {
                    Some(text) => self.line(&format!("[{}] {text}", state(update.status.state))),
                    None => self.line(&format!("[{}]", state(update.status.state))),
                }
            }
            StreamResponse::ArtifactUpdate(update) => {
                if !update.append && self.open_line {
                    self.end();
                }
                self.text(&parts(&update.artifact.parts));
                if update.last_chunk {
                    self.end();
                }
            }
            _ => {}
        }
    }

    fn message(&mut self, message: &Message) {
        let text = parts(&message.parts);
        if !text.is_empty() {
            self.line(text.trim_end_matches('\n'));
        }
    }

    /// A task: its state, its status message, and its artifacts' text.
    pub(crate) fn task(&mut self, task: &Task) {
        if self.json {
            self.json_value(task, true);
            return;
        }
        self.line(&format!("[{}] task {}", state(task.status.state), task.id));
        if let Some(context) = &task.context_id {
            self.line(&format!("context {context}"));
        }
        if let Some(message) = &task.status.message {
            self.message(message);
        }
        for artifact in &task.artifacts {
            let text = parts(&artifact.parts);
            if !text.is_empty() {
                self.line(text.trim_end_matches('\n'));
            }
        }
    }

    /// A direct answer.
    pub(crate) fn reply(&mut self, message: &Message) {
        self.message(message);
    }

    pub(crate) fn tasks(&mut self, page: &ListTasksResponse) {
        if self.json {
            self.json_value(page, true);
            return;
        }
        if page.tasks.is_empty() {
            self.line("no tasks");
        }
        for task in &page.tasks {
            let when = task
                .status
                .timestamp
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            let context = task
                .context_id
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default();
            self.line(&format!(
                "{}  {:<14}  {when}  context {context}",
                task.id,
                state(task.status.state)
            ));
        }
        if !page.next_page_token.is_empty() {
            self.line(&format!(
                "{} of {} tasks; the next page: --page-token {}",
                page.tasks.len(),
                page.total_size,
                page.next_page_token
            ));
        }
    }

    pub(crate) fn card(&mut self, card: &AgentCard, chosen: Option<&AgentInterface>) {
        if self.json {
            self.json_value(card, true);
            return;
        }
        self.line(&format!("{} (version {})", card.name, card.version));
        if !card.description.is_empty() {
            self.line(&card.description);
        }
        self.line("interfaces:");
        for interface in &card.supported_interfaces {
            let mark = if Some(interface) == chosen { "*" } else { " " };
            let tenant = interface
                .tenant
                .as_deref()
                .map(|t| format!(" (tenant {t})"))
                .unwrap_or_default();
            self.line(&format!(
                "  {mark} {} {} {}{tenant}",
                interface.protocol_binding, interface.protocol_version, interface.url
            ));
        }
        let caps = &card.capabilities;
        let mut capabilities = Vec::new();
        if caps.streaming == Some(true) {
            capabilities.push("streaming");
        }
        if caps.push_notifications == Some(true) {
            capabilities.push("push notifications");
        }
        if caps.extended_agent_card == Some(true) {
            capabilities.push("extended card");
        }
        let capabilities = if capabilities.is_empty() {
            "none".to_owned()
        } else {
            capabilities.join(", ")
        };
        self.line(&format!("capabilities: {capabilities}"));
        for extension in &caps.extensions {
            let required = if extension.required {
                " (required)"
            } else {
                ""
            };
            self.line(&format!(
                "extension: {}{required}",
                extension.uri.as_deref().unwrap_or("?")
            ));
        }
        if !card.skills.is_empty() {
            self.line("skills:");
            for skill in &card.skills {
                self.line(&format!(
                    "  {}: {} - {}",
                    skill.id, skill.name, skill.description
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_read_well() {
        assert_eq!(state(TaskState::InputRequired), "input-required");
        assert_eq!(state(TaskState::Completed), "completed");
    }

    #[test]
    fn parts_read_well() {
        let shown = parts(&[
            Part::text("see"),
            Part::raw(vec![1, 2, 3])
                .with_filename("a.png")
                .with_media_type("image/png"),
            Part::url("https://example.com/b.pdf"),
            Part::data(serde_json::json!({"k": 1})),
        ]);
        assert_eq!(
            shown,
            "see\n[file a.png (image/png, 3 bytes)]\n[file https://example.com/b.pdf]\n[data {\"k\":1}]"
        );
    }
}
