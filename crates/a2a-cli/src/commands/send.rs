//! `a2a send`: a message to start or continue an interaction.

use std::io::Read as _;
use std::path::Path;

use a2a_types::v1::{
    ContextId, Message, Part, SendMessageConfiguration, SendMessageRequest, TaskId,
};
use clap::builder::BoolishValueParser;
use clap::parser::ValueSource;
use clap::{ArgMatches, Args};

use crate::connect::{self, Trust};
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::Common;
use crate::output::Out;
use crate::wait::Waiter;

/// The arguments of `send`.
#[derive(Args, Debug, Clone)]
pub(crate) struct SendArgs {
    /// The message text, sent as the first part; `-` reads it from stdin.
    #[arg(value_name = "TEXT")]
    pub(crate) message: Option<String>,

    /// A text part (repeatable; parts keep the order of the flags).
    #[arg(
        long = "text",
        visible_alias = "text-part",
        value_name = "TEXT",
        help_heading = "Message parts"
    )]
    pub(crate) texts: Vec<String>,

    /// A file part: a local file, sent inline (base64), or an http(s) URL the agent fetches
    /// (repeatable). Its media type is guessed from the name unless --media-type follows.
    #[arg(
        long = "file",
        visible_alias = "file-part",
        value_name = "PATH|URL",
        help_heading = "Message parts"
    )]
    pub(crate) files: Vec<String>,

    /// A data part: a JSON file, `-` for stdin, or JSON written inline (`{...}`, `[...]`)
    /// (repeatable).
    #[arg(
        long = "data",
        visible_alias = "data-part",
        value_name = "PATH|-|JSON",
        help_heading = "Message parts"
    )]
    pub(crate) datas: Vec<String>,

    /// The media type of the part given by the flag just before it
    /// (`--file report.bin --media-type application/pdf`).
    #[arg(
        long = "media-type",
        value_name = "TYPE",
        help_heading = "Message parts"
    )]
    pub(crate) media_types: Vec<String>,

    /// Continue this task (answer its question), as the server named it.
    #[arg(long = "task-id", env = "A2ACLI_TASK_ID", value_name = "ID")]
    pub(crate) task_id: Option<String>,

    /// Continue the task only if it is still at this generation (A2A 1.1 draft
    /// `ifGenerationMatch`, needs --task-id and --a2a-version 1.1): an agent whose task moved
    /// on refuses with TaskGenerationMismatchError and changes nothing. `task get` shows a
    /// task's generation. An extension beyond the A2A CLI specification.
    #[arg(long = "if-generation", value_name = "N", requires = "task_id")]
    pub(crate) if_generation: Option<i64>,

    /// Send within this context: a new task beside the earlier ones of the context.
    #[arg(long = "context-id", env = "A2ACLI_CONTEXT_ID", value_name = "ID")]
    pub(crate) context_id: Option<String>,

    /// Metadata for the request, a JSON object (`'{"k":"v"}'`); sent in the request body.
    #[arg(long, env = "A2ACLI_METADATA", value_name = "JSON")]
    pub(crate) metadata: Option<String>,

    /// Print each event as it arrives (with `-o json`, one JSON object per line) instead of
    /// waiting for the end. Never read from the environment or a file.
    #[arg(long)]
    pub(crate) stream: bool,

    /// Do not wait: print the task as soon as it exists (its id and context, to follow later).
    #[arg(long = "async", env = "A2ACLI_ASYNC", visible_aliases = ["return-immediately", "no-wait"], value_parser = BoolishValueParser::new())]
    pub(crate) r#async: bool,

    /// Wait until the task ends or needs the caller (the default; overrides A2ACLI_ASYNC).
    #[arg(long, env = "A2ACLI_WAIT", value_parser = BoolishValueParser::new())]
    pub(crate) wait: bool,

    /// The options shared by the agent commands.
    #[command(flatten)]
    pub(crate) common: Common,
}

/// How the message parts were given, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PartFlag {
    Text(String),
    File(String),
    Data(String),
    MediaType(String),
}

/// The part flags in the order they were given.
fn ordered(matches: &ArgMatches) -> Vec<PartFlag> {
    let mut flags: Vec<(usize, PartFlag)> = Vec::new();
    let mut take = |id: &str, make: fn(String) -> PartFlag| {
        if matches.value_source(id) != Some(ValueSource::CommandLine) {
            return;
        }
        if let (Some(indices), Some(values)) =
            (matches.indices_of(id), matches.get_many::<String>(id))
        {
            for (index, value) in indices.zip(values) {
                flags.push((index, make(value.clone())));
            }
        }
    };
    take("texts", PartFlag::Text);
    take("files", PartFlag::File);
    take("datas", PartFlag::Data);
    take("media_types", PartFlag::MediaType);
    flags.sort_by_key(|(index, _)| *index);
    flags.into_iter().map(|(_, flag)| flag).collect()
}

/// Reads stdin once.
fn read_stdin(used: &mut bool, what: &str) -> Result<String, CliError> {
    if *used {
        return Err(CliError::usage(format!(
            "stdin can be read once only: {what} and another part both say `-`"
        )));
    }
    *used = true;
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|err| CliError::usage(format!("cannot read {what} from stdin: {err}")))?;
    Ok(text)
}

/// The parts of the message: the positional text, then the part flags in their order.
pub(crate) fn parts(args: &SendArgs, matches: &ArgMatches) -> Result<Vec<Part>, CliError> {
    let mut stdin_used = false;
    let mut parts = Vec::new();
    if let Some(text) = &args.message {
        let text = if text == "-" {
            read_stdin(&mut stdin_used, "the message text")?
        } else {
            text.clone()
        };
        parts.push(Part::text(text));
    }
    // Whether the last part came from a flag and has no media type set by --media-type yet.
    let mut bindable = false;
    for flag in ordered(matches) {
        match flag {
            PartFlag::Text(text) => {
                parts.push(Part::text(text));
                bindable = true;
            }
            PartFlag::File(file) => {
                parts.push(file_part(&file)?);
                bindable = true;
            }
            PartFlag::Data(data) => {
                parts.push(data_part(&data, &mut stdin_used)?);
                bindable = true;
            }
            PartFlag::MediaType(media) => {
                let last = parts.last_mut().filter(|_| bindable).ok_or_else(|| {
                    CliError::usage(format!(
                        "--media-type {media} has no part before it: it sets the media type of \
                         the --text, --file or --data just before it"
                    ))
                })?;
                if media.trim().is_empty() || !media.contains('/') {
                    return Err(CliError::usage(format!(
                        "--media-type `{media}` is not a media type such as text/plain"
                    )));
                }
                last.media_type = Some(media.trim().to_owned());
                bindable = false;
            }
        }
    }
    if parts.is_empty() {
        return Err(CliError::usage(
            "nothing to send: give the message text, or parts with --text, --file or --data",
        )
        .hint("e.g. `a2a send -a HOST \"hello\"`"));
    }
    Ok(parts)
}

fn file_part(file: &str) -> Result<Part, CliError> {
    let lower = file.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        let name = file
            .split(['?', '#'])
            .next()
            .and_then(|path| path.rsplit('/').next())
            .filter(|name| !name.is_empty() && name.contains('.'));
        let mut part = Part::url(file);
        if let Some(name) = name {
            part = part.with_filename(name);
            if let Some(media) = guess_media_type(Path::new(name)) {
                part = part.with_media_type(media);
            }
        }
        return Ok(part);
    }
    let path = Path::new(file);
    let bytes = std::fs::read(path)
        .map_err(|err| CliError::usage(format!("cannot read --file {file}: {err}")))?;
    let mut part = Part::raw(bytes);
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        part = part.with_filename(name);
    }
    Ok(part.with_media_type(guess_media_type(path).unwrap_or("application/octet-stream")))
}

fn data_part(data: &str, stdin_used: &mut bool) -> Result<Part, CliError> {
    let trimmed = data.trim_start();
    let (text, whence) = if data == "-" {
        (read_stdin(stdin_used, "--data")?, "stdin".to_owned())
    } else if trimmed.starts_with('{') || trimmed.starts_with('[') {
        (data.to_owned(), "the --data value".to_owned())
    } else {
        let text = std::fs::read_to_string(data)
            .map_err(|err| CliError::usage(format!("cannot read --data {data}: {err}")))?;
        (text, data.to_owned())
    };
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|err| CliError::usage(format!("--data: {whence} is not JSON ({err})")))?;
    Ok(Part::data(value).with_media_type("application/json"))
}

/// The media type of a file, by its extension.
pub(crate) fn guess_media_type(path: &Path) -> Option<&'static str> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match extension.as_str() {
        "txt" | "text" | "log" => "text/plain",
        "md" | "markdown" => "text/markdown",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "xml" => "application/xml",
        "yaml" | "yml" => "application/yaml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "mp4" => "video/mp4",
        _ => return None,
    })
}

/// Whether to wait: `--async` and `--wait` on the command line win over the environment and the
/// files; both on the command line is a usage error.
fn waits(args: &SendArgs, matches: &ArgMatches) -> Result<bool, CliError> {
    let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    match (given("async") && args.r#async, given("wait") && args.wait) {
        (true, true) => Err(CliError::usage("--async and --wait contradict each other")),
        (true, false) => Ok(false),
        (false, true) => Ok(true),
        (false, false) => Ok(!args.r#async || args.wait),
    }
}

/// The request the arguments describe.
pub(crate) fn request(
    args: &SendArgs,
    matches: &ArgMatches,
) -> Result<SendMessageRequest, CliError> {
    let mut message = Message::user(parts(args, matches)?);
    if let Some(task) = args.task_id.as_deref().filter(|t| !t.trim().is_empty()) {
        message = message.with_task_id(TaskId::new(task.trim()));
    }
    if let Some(context) = args.context_id.as_deref().filter(|c| !c.trim().is_empty()) {
        message = message.with_context_id(ContextId::new(context.trim()));
    }
    let mut request = SendMessageRequest::new(message);
    if let Some(metadata) = &args.metadata {
        let value: serde_json::Value = serde_json::from_str(metadata)
            .map_err(|err| CliError::usage(format!("--metadata is not JSON ({err})")))?;
        let serde_json::Value::Object(map) = value else {
            return Err(CliError::usage(
                "--metadata must be a JSON object, such as '{\"k\":\"v\"}'",
            ));
        };
        request.metadata = Some(map);
    }
    if let Some(generation) = args.if_generation {
        request = request.with_configuration(
            SendMessageConfiguration::default().with_if_generation_match(generation),
        );
    }
    Ok(request)
}

/// Runs `send`.
pub(crate) async fn run(
    args: &SendArgs,
    matches: &ArgMatches,
    diag: &Diag,
) -> Result<(), CliError> {
    let wait = waits(args, matches)?;
    if args.stream && !wait {
        return Err(CliError::usage(
            "--stream and --async contradict each other",
        ));
    }
    let request = request(args, matches)?;
    let opts = &args.common;
    let mut out = Out::new(opts.output, args.stream, opts.verbose);
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    let waiter = Waiter::new(&agent, opts, diag);
    let continuing = request.message.task_id.is_some();

    let answer = if args.stream {
        if agent.may_stream() {
            return stream(&waiter, &mut out, request, diag).await;
        }
        diag.warn("the agent's card does not advertise streaming: waiting for the answer instead, printed as one event");
        waiter.send(request).await
    } else if wait {
        waiter.send(request).await
    } else {
        let mut request = request;
        request
            .configuration
            .get_or_insert_with(SendMessageConfiguration::default)
            .return_immediately = true;
        waiter.call(agent.client.send_message(request)).await
    };
    let answer = answer.map_err(|error| rejected(error, continuing))?;
    crate::show::print_answer(&mut out, diag, &agent, &answer, args.stream);
    Ok(())
}

/// A refused `--task-id` is an error to read, never a reason to start another task.
fn rejected(error: CliError, continuing: bool) -> CliError {
    if continuing && error.hint.as_deref().is_none_or(|h| !h.contains("--debug")) {
        let hint = error.hint.clone().unwrap_or_default();
        return error.hint(format!(
            "{hint}{}the agent refused to continue the task (no new task was started); run with --debug to see the exchange",
            if hint.is_empty() { "" } else { "; " }
        ));
    }
    error
}

/// `send --stream`: every event as it comes; the last lines restate the task.
async fn stream(
    waiter: &Waiter<'_>,
    out: &mut Out,
    request: SendMessageRequest,
    diag: &Diag,
) -> Result<(), CliError> {
    let agent = waiter.agent;
    let continuing = request.message.task_id.is_some();
    let mut stream = waiter
        .call(agent.client.send_streaming_message(request))
        .await
        .map_err(|e| rejected(e, continuing))?;
    crate::follow::follow_printing(waiter, out, &mut stream, diag).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_by_extension() {
        assert_eq!(guess_media_type(Path::new("a.PNG")), Some("image/png"));
        assert_eq!(guess_media_type(Path::new("notes.txt")), Some("text/plain"));
        assert_eq!(guess_media_type(Path::new("blob")), None);
        assert_eq!(guess_media_type(Path::new("x.unknown")), None);
    }

    #[test]
    fn inline_data() {
        let mut used = false;
        let part = data_part(r#"{"k":1}"#, &mut used).unwrap();
        assert_eq!(
            serde_json::to_value(&part).unwrap(),
            serde_json::json!({"data": {"k": 1}, "mediaType": "application/json"})
        );
        assert!(data_part("{not json", &mut used).is_err());
        assert!(!used);
    }

    #[test]
    fn url_files_are_references() {
        let part = file_part("https://example.com/docs/report.pdf?x=1").unwrap();
        assert_eq!(
            serde_json::to_value(&part).unwrap(),
            serde_json::json!({"url": "https://example.com/docs/report.pdf?x=1",
                "filename": "report.pdf", "mediaType": "application/pdf"})
        );
    }
}
