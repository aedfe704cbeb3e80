//! What the commands print on stdout.
//!
//! * `-o json`: the protocol's own JSON types, unmodified: one document per invocation, or with
//!   `--stream` one object per line (JSON Lines), flushed as produced.
//! * `-o text` (the default): one `Label: value` field per line, with the same labels every time,
//!   and **blocks** for content a line cannot hold: a `Label: ...` line, the content, then an
//!   empty line. No terminal control sequences: control characters an agent sends are shown
//!   escaped (`\x1b`).
//!
//! The labels: `Task-Id`, `Context-Id`, `State` (the state's short name: `COMPLETED`,
//! `INPUT_REQUIRED`, `UNSPECIFIED`...), `Generation` (A2A 1.1, when the agent sent one),
//! `Updated`, `Resume`, `Event-Id`, `Last-Event-Id`,
//! `Message-Id`, `Role`, `Next-Page-Token`, `Total`; the blocks `Status-Message`, `Message`,
//! `Artifact`, `History` (and `Reply`, at a `chat` terminal).

use std::io::{self, Write as _};

use a2a_types::v1::{
    AgentCard, AgentInterface, Artifact, ListTasksResponse, Message, Part, PartContent,
    SecurityScheme, StreamResponse, Task, TaskState,
};
use serde::Serialize;

use crate::options::Format;

/// A task state as the text output shows it: `COMPLETED`, `INPUT_REQUIRED`.
pub(crate) fn state(state: TaskState) -> &'static str {
    state.as_str().trim_start_matches("TASK_STATE_")
}

/// Text without control characters (but newlines and tabs): they are shown as `\xNN`.
pub(crate) fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// One line: newlines and tabs shown as `\n` and `\t`, control characters escaped.
fn one_line(text: &str) -> String {
    clean(text).replace('\n', "\\n").replace('\t', "\\t")
}

/// The content of parts, for a block.
///
/// Concise: text parts run together as the agent wrote them (a streamed artifact reads as one
/// text), a data part as indented JSON on lines of its own, a file as
/// `[file NAME, TYPE, N bytes]`. Verbose: a `[part N: kind, type]` line before each part.
pub(crate) fn parts_text(parts: &[Part], verbose: bool) -> String {
    let mut out = String::new();
    let mut after_text = false;
    for (i, part) in parts.iter().enumerate() {
        if verbose {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            let kind = part.content.member_name();
            match &part.media_type {
                Some(media) => {
                    out.push_str(&format!("[part {}: {kind}, {}]\n", i + 1, one_line(media)));
                }
                None => out.push_str(&format!("[part {}: {kind}]\n", i + 1)),
            }
            after_text = false;
        }
        let shown = match &part.content {
            PartContent::Text(text) => {
                out.push_str(&clean(text));
                after_text = true;
                continue;
            }
            PartContent::Data(value) => {
                serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
            }
            PartContent::Raw(bytes) => format!(
                "[file {}, {}, {} bytes]",
                part.filename
                    .as_deref()
                    .map_or("(no name)".to_owned(), one_line),
                part.media_type
                    .as_deref()
                    .map_or("(no media type)".to_owned(), one_line),
                bytes.len()
            ),
            PartContent::Url(url) => format!(
                "[file {}, {}{}]",
                one_line(url),
                part.media_type
                    .as_deref()
                    .map_or("(no media type)".to_owned(), one_line),
                part.filename
                    .as_deref()
                    .map(|f| format!(", named {}", one_line(f)))
                    .unwrap_or_default()
            ),
            _ => "[a part of an unknown kind]".to_owned(),
        };
        if after_text && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&clean(&shown));
        out.push('\n');
        after_text = false;
    }
    out
}

/// The name a block shows for an artifact: its name, and its id when they differ.
fn artifact_label(artifact: &Artifact) -> String {
    match artifact.name.as_deref() {
        Some(name) if name != artifact.artifact_id.as_str() => {
            format!(
                "{} ({})",
                one_line(name),
                one_line(artifact.artifact_id.as_str())
            )
        }
        _ => one_line(artifact.artifact_id.as_str()),
    }
}

/// Writes to stdout. A closed pipe (`a2a ... | head`) ends the program quietly.
pub(crate) struct Out {
    format: Format,
    lines: bool,
    verbose: bool,
    /// The artifact whose streamed block is open (text arriving chunk by chunk).
    open: Option<String>,
    /// The open block's content does not end with a newline.
    open_line: bool,
}

impl Out {
    /// A printer: `lines` makes JSON one object per line (`--stream`).
    pub(crate) fn new(format: Format, lines: bool, verbose: bool) -> Self {
        Self {
            format,
            lines,
            verbose,
            open: None,
            open_line: false,
        }
    }

    /// `-o json`.
    pub(crate) fn json(&self) -> bool {
        self.format == Format::Json
    }

    fn write(&mut self, text: &str) {
        let mut out = io::stdout().lock();
        let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        if let Err(err) = written {
            if err.kind() == io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            let _ = writeln!(io::stderr(), "Error: cannot write to stdout: {err}");
            std::process::exit(1);
        }
    }

    /// A JSON value: a pretty document, or one line with `--stream`.
    pub(crate) fn value(&mut self, value: &impl Serialize) {
        let text = if self.lines {
            serde_json::to_string(value)
        } else {
            serde_json::to_string_pretty(value)
        }
        .expect("the protocol types serialize");
        self.write(&format!("{text}\n"));
    }

    /// A JSON value on one line, whatever the mode.
    pub(crate) fn line(&mut self, value: &impl Serialize) {
        let text = serde_json::to_string(value).expect("the protocol types serialize");
        self.write(&format!("{text}\n"));
    }

    /// Closes a streamed block left open.
    pub(crate) fn close(&mut self) {
        if self.open.take().is_some() {
            let end = if self.open_line { "\n\n" } else { "\n" };
            self.open_line = false;
            self.write(end);
        }
    }

    /// The fields that name a task: `Task-Id`, `Context-Id`, `State`, `Generation` when the
    /// agent sent one (A2A 1.1), and `Updated` when the status has a timestamp.
    pub(crate) fn task_head(&mut self, task: &Task) {
        self.field("Task-Id", task.id.as_str());
        self.field(
            "Context-Id",
            task.context_id.as_ref().map_or("", |c| c.as_str()),
        );
        self.field("State", state(task.status.state));
        if task.generation > 0 {
            self.field("Generation", &task.generation.to_string());
        }
        if let Some(at) = &task.status.timestamp {
            self.field("Updated", &at.to_string());
        }
    }

    /// A line as it is (`a2a serve`'s messages).
    pub(crate) fn raw_line(&mut self, text: &str) {
        self.close();
        self.write(&format!("{text}\n"));
    }

    /// An empty line, between records.
    pub(crate) fn gap(&mut self) {
        self.close();
        self.write("\n");
    }

    /// `Label: value`, on one line.
    pub(crate) fn field(&mut self, label: &str, value: &str) {
        self.close();
        self.write(&format!("{label}: {}\n", one_line(value)));
    }

    /// A block: `Label: head`, the content, an empty line.
    pub(crate) fn block(&mut self, label: &str, head: &str, content: &str) {
        self.close();
        let mut text = if head.is_empty() {
            format!("{label}:\n")
        } else {
            format!("{label}: {}\n", one_line(head))
        };
        text.push_str(content);
        if !content.is_empty() && !content.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
        self.write(&text);
    }

    /// Fields and blocks of a task. `resume` is the command that continues it, when it waits.
    /// The history is shown with `--verbose`, or when `history` (`task get --history N`).
    pub(crate) fn task(&mut self, task: &Task, resume: Option<&str>, history: bool) {
        self.task_head(task);
        if let Some(resume) = resume {
            self.field("Resume", resume);
        }
        if let Some(message) = &task.status.message {
            self.block(
                "Status-Message",
                "",
                &parts_text(&message.parts, self.verbose),
            );
        }
        for artifact in &task.artifacts {
            let content = parts_text(&artifact.parts, self.verbose);
            self.block("Artifact", &artifact_label(artifact), &content);
        }
        let history = if history || self.verbose {
            task.history.as_slice()
        } else {
            &[]
        };
        for message in history {
            let head = format!(
                "{} {}",
                message.role.as_str().trim_start_matches("ROLE_"),
                message.message_id
            );
            self.block("History", &head, &parts_text(&message.parts, self.verbose));
        }
    }

    /// Fields and the content of a message (a direct answer).
    pub(crate) fn message(&mut self, message: &Message) {
        self.field("Message-Id", message.message_id.as_str());
        self.field("Role", message.role.as_str().trim_start_matches("ROLE_"));
        if let Some(context) = &message.context_id {
            self.field("Context-Id", context.as_str());
        }
        if let Some(task) = &message.task_id {
            self.field("Task-Id", task.as_str());
        }
        self.block("Message", "", &parts_text(&message.parts, self.verbose));
    }

    /// One event of a stream, with its SSE id.
    pub(crate) fn event(&mut self, event: &StreamResponse, id: Option<&str>) {
        if self.json() {
            self.line(event);
            return;
        }
        match event {
            StreamResponse::Task(task) => {
                if let Some(id) = id {
                    self.field("Event-Id", id);
                }
                self.task(task, None, false);
            }
            StreamResponse::Message(message) => {
                if let Some(id) = id {
                    self.field("Event-Id", id);
                }
                self.message(message);
            }
            StreamResponse::StatusUpdate(update) => {
                if let Some(id) = id {
                    self.field("Event-Id", id);
                }
                self.field("Task-Id", update.task_id.as_str());
                self.field("Context-Id", update.context_id.as_str());
                self.field("State", state(update.status.state));
                if update.generation > 0 {
                    self.field("Generation", &update.generation.to_string());
                }
                if let Some(message) = &update.status.message {
                    self.block(
                        "Status-Message",
                        "",
                        &parts_text(&message.parts, self.verbose),
                    );
                }
            }
            StreamResponse::ArtifactUpdate(update) => {
                let artifact = &update.artifact;
                let key = artifact.artifact_id.as_str().to_owned();
                let continues = update.append && self.open.as_deref() == Some(key.as_str());
                if !continues {
                    self.close();
                    if let Some(id) = id {
                        self.field("Event-Id", id);
                    }
                    let head = artifact_label(artifact);
                    self.write(&format!("Artifact: {head}\n"));
                    self.open = Some(key);
                    self.open_line = false;
                }
                let content = parts_text(&artifact.parts, self.verbose);
                if !content.is_empty() {
                    self.open_line = !content.ends_with('\n');
                    self.write(&content);
                }
                if update.last_chunk {
                    self.close();
                }
            }
            _ => {}
        }
    }

    /// A card: who the agent is, what it can do, how to reach it (`chosen` is the interface the
    /// other commands would use).
    pub(crate) fn card(&mut self, card: &AgentCard, chosen: Option<&AgentInterface>) {
        self.field("Name", &card.name);
        self.field("Description", &card.description);
        self.field("Version", &card.version);
        if let Some(provider) = &card.provider {
            self.field(
                "Provider",
                &format!("{} ({})", provider.organization, provider.url),
            );
        }
        if let Some(url) = &card.documentation_url {
            self.field("Documentation", url);
        }
        for interface in &card.supported_interfaces {
            let mut text = format!(
                "{} {} {}",
                interface.protocol_binding, interface.protocol_version, interface.url
            );
            if let Some(tenant) = &interface.tenant {
                text.push_str(&format!(" tenant={tenant}"));
            }
            if Some(interface) == chosen {
                text.push_str(" (selected)");
            }
            self.field("Interface", &text);
        }
        let caps = &card.capabilities;
        let yes = |v: Option<bool>| if v == Some(true) { "yes" } else { "no" };
        self.field("Streaming", yes(caps.streaming));
        self.field("Push-Notifications", yes(caps.push_notifications));
        self.field("Extended-Card", yes(caps.extended_agent_card));
        for extension in &caps.extensions {
            let uri = extension.uri.as_deref().unwrap_or("");
            let required = if extension.required {
                " (required)"
            } else {
                ""
            };
            self.field("Extension", &format!("{uri}{required}"));
        }
        for (name, scheme) in &card.security_schemes {
            self.field(
                "Security-Scheme",
                &format!("{name}: {}", scheme_text(scheme)),
            );
        }
        for requirement in &card.security_requirements {
            let names: Vec<String> = requirement
                .schemes
                .iter()
                .map(|(name, scopes)| {
                    if scopes.list.is_empty() {
                        name.clone()
                    } else {
                        format!("{name} [{}]", scopes.list.join(" "))
                    }
                })
                .collect();
            self.field("Security-Requirement", &names.join(" + "));
        }
        self.field("Input-Modes", &card.default_input_modes.join(", "));
        self.field("Output-Modes", &card.default_output_modes.join(", "));
        for skill in &card.skills {
            let mut text = format!("{}: {}", skill.id, skill.name);
            if self.verbose && !skill.description.is_empty() {
                text.push_str(&format!(" - {}", skill.description));
            }
            self.field("Skill", &text);
        }
    }

    /// A page of tasks: each task's fields, a blank line between tasks, then the paging.
    pub(crate) fn tasks(&mut self, page: &ListTasksResponse, next: Option<&str>) {
        for (i, task) in page.tasks.iter().enumerate() {
            if i > 0 {
                self.gap();
            }
            self.task_head(task);
        }
        if !page.tasks.is_empty() {
            self.gap();
        }
        self.field("Total", &page.total_size.to_string());
        if !page.next_page_token.is_empty() {
            self.field("Next-Page-Token", &page.next_page_token);
            if let Some(next) = next {
                self.field("Next-Page", next);
            }
        }
    }
}

/// A security scheme in a few words.
pub(crate) fn scheme_text(scheme: &SecurityScheme) -> String {
    match scheme {
        SecurityScheme::ApiKey(key) => format!("API key in {} `{}`", key.location, key.name),
        SecurityScheme::HttpAuth(http) => match &http.bearer_format {
            Some(format) => format!("HTTP {} ({format})", http.scheme),
            None => format!("HTTP {}", http.scheme),
        },
        SecurityScheme::OAuth2(oauth) => {
            let flow = match &oauth.flows {
                a2a_types::v1::OAuthFlows::AuthorizationCode(_) => "authorization code",
                a2a_types::v1::OAuthFlows::ClientCredentials(_) => "client credentials",
                a2a_types::v1::OAuthFlows::Implicit(_) => "implicit",
                a2a_types::v1::OAuthFlows::Password(_) => "password",
                a2a_types::v1::OAuthFlows::DeviceCode(_) => "device code",
                _ => "another flow",
            };
            format!("OAuth 2 ({flow})")
        }
        SecurityScheme::OpenIdConnect(oidc) => {
            format!("OpenID Connect {}", oidc.open_id_connect_url)
        }
        SecurityScheme::Mtls(_) => "mutual TLS".to_owned(),
        _ => "a scheme of another kind".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_short_names() {
        assert_eq!(state(TaskState::InputRequired), "INPUT_REQUIRED");
        assert_eq!(state(TaskState::Unspecified), "UNSPECIFIED");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            clean("red \u{1b}[31mtext\u{7}\n"),
            "red \\x1b[31mtext\\x07\n"
        );
        assert_eq!(one_line("a\nb\tc"), "a\\nb\\tc");
    }

    #[test]
    fn parts_read_well() {
        let shown = parts_text(
            &[
                Part::text("Hel"),
                Part::text("lo"),
                Part::raw(vec![1, 2, 3])
                    .with_filename("a.png")
                    .with_media_type("image/png"),
                Part::url("https://example.com/b.pdf").with_media_type("application/pdf"),
                Part::data(serde_json::json!({"k": 1})),
                Part::text("end"),
            ],
            false,
        );
        assert_eq!(
            shown,
            "Hello\n[file a.png, image/png, 3 bytes]\n[file https://example.com/b.pdf, application/pdf]\n{\n  \"k\": 1\n}\nend"
        );
        let verbose = parts_text(&[Part::text("hi"), Part::data(serde_json::json!(1))], true);
        assert_eq!(verbose, "[part 1: text]\nhi\n[part 2: data]\n1\n");
    }
}
