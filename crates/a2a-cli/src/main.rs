//! `a2a`: call Agent2Agent (A2A) agents from the command line, or serve one.
//!
//! ```text
//! a2a serve                                  # the echo agent on http://127.0.0.1:7420
//! a2a serve --exec 'tr a-z A-Z'              # a command as an agent
//! a2a stream http://127.0.0.1:7420 "hello"   # follow the answer as it comes
//! a2a send http://127.0.0.1:7420 "hello"     # wait for the answer
//! a2a card | get | list | cancel | subscribe ...
//! ```
//!
//! Every subcommand has `--help`. Errors print one line on stderr and exit with status 1.

mod print;
mod serve;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use a2a_client::{A2aClient, ClientBuilder, Error, TaskStream};
use a2a_types::v1::{
    CancelTaskRequest, ContextId, GetTaskRequest, ListTasksRequest, Message, Part,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse,
    SubscribeToTaskRequest, TaskId, TaskState, binding,
};
use clap::{Args, Parser, Subcommand};
use futures_util::StreamExt as _;

use crate::print::Printer;

const EXIT_STATUS: &str = "Exit status: 0 when the call succeeded; 1 on an error (one line on stderr); \
2 on a usage error; 3 when the task ended failed or rejected.";

#[derive(Parser, Debug)]
#[command(
    name = "a2a",
    version,
    about = "Call Agent2Agent (A2A) agents, or serve one",
    long_about = "Call Agent2Agent (A2A) agents, or serve one.\n\n\
        Start an agent with `a2a serve` (the echo agent) or `a2a serve --exec CMD` (a command \
        as an agent), then talk to it: `a2a stream http://127.0.0.1:7420 \"hello\"`.\n\n\
        URL is the agent's base URL: its card is read from URL/.well-known/agent-card.json \
        (or URL/.well-known/agent.json); without a scheme, http:// is assumed."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Show an agent's card (normalized to A2A 1.0).
    #[command(after_help = "The interface marked * is the one the other commands use.")]
    Card {
        #[command(flatten)]
        agent: AgentArgs,
        /// Print the card as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Send a message and wait for the answer (the task's final state and artifacts).
    #[command(after_help = EXIT_STATUS)]
    Send {
        #[command(flatten)]
        agent: AgentArgs,
        #[command(flatten)]
        message: MessageArgs,
        /// Return as soon as the task exists instead of waiting for it to finish.
        #[arg(long)]
        no_wait: bool,
        /// Print the answer as JSON (`{"task": …}` or `{"message": …}`).
        #[arg(long)]
        json: bool,
    },
    /// Send a message and print the task's status changes and artifact text as they arrive.
    #[command(after_help = EXIT_STATUS)]
    Stream {
        #[command(flatten)]
        agent: AgentArgs,
        #[command(flatten)]
        message: MessageArgs,
        /// Print each event as one line of JSON (the raw A2A StreamResponse).
        #[arg(long)]
        json: bool,
    },
    /// Show a task.
    #[command(after_help = EXIT_STATUS)]
    Get {
        #[command(flatten)]
        agent: AgentArgs,
        /// The task id.
        task_id: String,
        /// At most this many recent messages of history (with --json).
        #[arg(long, value_name = "N")]
        history: Option<i32>,
        /// Print the task as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List tasks, newest first.
    List {
        #[command(flatten)]
        agent: AgentArgs,
        /// Only the tasks of this context.
        #[arg(long, value_name = "ID")]
        context: Option<String>,
        /// Only tasks in this state (submitted, working, completed, failed, canceled,
        /// input-required, rejected, auth-required).
        #[arg(long, value_parser = parse_state)]
        state: Option<TaskState>,
        /// At most this many tasks (1 to 100).
        #[arg(long, value_name = "N")]
        page_size: Option<i32>,
        /// The page to show (printed at the end of the previous page).
        #[arg(long, value_name = "TOKEN")]
        page_token: Option<String>,
        /// Print the page as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Cancel a task.
    Cancel {
        #[command(flatten)]
        agent: AgentArgs,
        /// The task id.
        task_id: String,
        /// Print the task as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Follow a running task: print its status changes and artifact text as they arrive.
    #[command(after_help = EXIT_STATUS)]
    Subscribe {
        #[command(flatten)]
        agent: AgentArgs,
        /// The task id.
        task_id: String,
        /// Resume right after the event with this SSE id (as `Last-Event-ID`), instead of
        /// starting with the task as it is now.
        #[arg(long, value_name = "EVENT_ID")]
        after: Option<String>,
        /// Print each event as one line of JSON.
        #[arg(long)]
        json: bool,
    },
    /// Serve an agent: the echo agent, or a command wrapped as one.
    #[command(long_about = "Serve an agent over A2A 1.0 JSON-RPC (with its card at \
            /.well-known/agent-card.json) until interrupted.\n\n\
            --echo (the default) answers every message with an artifact holding its text.\n\n\
            --exec CMD runs `sh -c CMD` for each message: the message text goes to its stdin, \
            its stdout becomes the task's artifact (streamed line by line), and its exit \
            status decides the task's end: 0 is completed, anything else failed, with the last \
            lines of its stderr in the status message. Canceling the task kills the command.\n\n\
            The first line printed is `serving the <name> agent at <URL>`.")]
    Serve {
        /// The address to listen on; port 0 picks a free port.
        #[arg(long, default_value = "127.0.0.1:7420")]
        addr: String,
        /// Serve the echo agent (the default).
        #[arg(long, conflicts_with = "exec")]
        echo: bool,
        /// Serve this shell command as an agent.
        #[arg(long, value_name = "CMD")]
        exec: Option<String>,
        /// The agent's name on its card.
        #[arg(long)]
        name: Option<String>,
        /// Deliver push notifications (the card declares them): every task event goes to the
        /// task's push configs, retried with backoff; webhook URLs pass the SSRF guard.
        #[command(flatten)]
        push: serve::PushArgs,
    },
}

/// Which agent, and how to reach it.
#[derive(Args, Debug)]
struct AgentArgs {
    /// The agent's base URL, e.g. http://127.0.0.1:7420.
    url: String,
    /// A header for every request, `NAME: VALUE` (repeatable), e.g. an API key.
    #[arg(short = 'H', long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Send `Authorization: Bearer TOKEN`.
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// Ask for an A2A extension by URI (repeatable).
    #[arg(long = "extension", value_name = "URI")]
    extensions: Vec<String>,
    /// Seconds a call may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    timeout: u64,
    /// A transport to prefer over the card's order: JSONRPC, HTTP+JSON or GRPC, in any case
    /// (repeatable, most preferred first; a binding the card does not offer is skipped).
    #[arg(long = "transport", value_name = "BINDING", value_parser = parse_transport)]
    transports: Vec<String>,
}

/// The message to send.
#[derive(Args, Debug)]
struct MessageArgs {
    /// The message text; `-` reads it from stdin.
    text: String,
    /// Continue this context (conversation).
    #[arg(long, value_name = "ID")]
    context: Option<String>,
    /// Continue this task (answer its question).
    #[arg(long, value_name = "ID")]
    task: Option<String>,
    /// Attach a file (repeatable).
    #[arg(long, value_name = "PATH")]
    file: Vec<PathBuf>,
    /// Attach structured data: a JSON value (repeatable).
    #[arg(long, value_name = "JSON")]
    data: Vec<String>,
}

fn parse_state(text: &str) -> Result<TaskState, String> {
    let name = format!(
        "TASK_STATE_{}",
        text.trim_start_matches("TASK_STATE_")
            .to_ascii_uppercase()
            .replace('-', "_")
    );
    TaskState::from_name(&name)
        .filter(|s| *s != TaskState::Unspecified)
        .ok_or_else(|| {
            format!(
                "unknown task state `{text}`; one of submitted, working, completed, failed, \
                 canceled, input-required, rejected, auth-required"
            )
        })
}

/// A binding name of the A2A CLI specification's `--transport`, in its canonical spelling.
fn parse_transport(text: &str) -> Result<String, String> {
    [binding::JSONRPC, binding::HTTP_JSON, binding::GRPC]
        .into_iter()
        .find(|known| known.eq_ignore_ascii_case(text.trim()))
        .map(str::to_owned)
        .ok_or_else(|| format!("unknown transport `{text}`; one of JSONRPC, HTTP+JSON, GRPC"))
}

/// A failure of a command: printed as one line.
struct Failure(String);

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure(error.to_string())
    }
}

type Outcome = Result<ExitCode, Failure>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli.command)) {
        Ok(code) => code,
        Err(Failure(message)) => {
            // One line, whatever the message holds.
            eprintln!("error: {}", message.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command) -> Outcome {
    match command {
        Command::Card { agent, json } => card(agent, json).await,
        Command::Send {
            agent,
            message,
            no_wait,
            json,
        } => send(agent, message, no_wait, json).await,
        Command::Stream {
            agent,
            message,
            json,
        } => {
            let client = connect(&agent).await?;
            let request = SendMessageRequest::new(build_message(message)?);
            let stream = client.send_streaming_message(request).await?;
            follow(stream, json).await
        }
        Command::Get {
            agent,
            task_id,
            history,
            json,
        } => {
            let client = connect(&agent).await?;
            let mut request = GetTaskRequest::new(task_id);
            if let Some(n) = history {
                request = request.with_history_length(n);
            }
            let task = client.get_task(request).await?;
            Printer::new(json).task(&task);
            Ok(exit_for(task.status.state))
        }
        Command::List {
            agent,
            context,
            state,
            page_size,
            page_token,
            json,
        } => {
            let client = connect(&agent).await?;
            let mut request = ListTasksRequest::new();
            if let Some(context) = context {
                request = request.with_context_id(ContextId::new(context));
            }
            if let Some(state) = state {
                request = request.with_status(state);
            }
            if let Some(size) = page_size {
                request = request.with_page_size(size);
            }
            if let Some(token) = page_token {
                request = request.with_page_token(token);
            }
            let page = client.list_tasks(request).await?;
            Printer::new(json).tasks(&page);
            Ok(ExitCode::SUCCESS)
        }
        Command::Cancel {
            agent,
            task_id,
            json,
        } => {
            let client = connect(&agent).await?;
            let task = client.cancel_task(CancelTaskRequest::new(task_id)).await?;
            Printer::new(json).task(&task);
            Ok(ExitCode::SUCCESS)
        }
        Command::Subscribe {
            agent,
            task_id,
            after,
            json,
        } => {
            let client = connect(&agent).await?;
            let stream = client
                .subscribe_to_task_after(SubscribeToTaskRequest::new(TaskId::new(task_id)), after)
                .await?;
            follow(stream, json).await
        }
        Command::Serve {
            addr,
            echo: _,
            exec,
            name,
            push,
        } => serve(&addr, exec, name, push).await,
    }
}

/// A URL without a scheme is taken as http.
fn agent_url(url: &str) -> String {
    if url.contains("://") {
        url.to_owned()
    } else {
        format!("http://{url}")
    }
}

fn builder(agent: &AgentArgs) -> Result<ClientBuilder, Failure> {
    let mut builder = A2aClient::builder().timeout(Duration::from_secs(agent.timeout));
    for header in &agent.headers {
        let Some((name, value)) = header.split_once(':') else {
            return Err(Failure(format!(
                "--header `{header}` is not of the form `NAME: VALUE`"
            )));
        };
        builder = builder.header(name.trim(), value.trim());
    }
    if let Some(token) = &agent.token {
        builder = builder.bearer_auth(token);
    }
    for extension in &agent.extensions {
        builder = builder.extension(extension.clone());
    }
    Ok(builder.preferred_transports(agent.transports.iter().cloned()))
}

async fn connect(agent: &AgentArgs) -> Result<A2aClient, Failure> {
    Ok(builder(agent)?.connect(&agent_url(&agent.url)).await?)
}

async fn card(agent: AgentArgs, json: bool) -> Outcome {
    let builder = builder(&agent)?;
    let card = builder.fetch_card(&agent_url(&agent.url)).await?;
    let chosen = builder.select_interface(&card).ok().cloned();
    Printer::new(json).card(&card, chosen.as_ref());
    Ok(ExitCode::SUCCESS)
}

fn build_message(args: MessageArgs) -> Result<Message, Failure> {
    let text = if args.text == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|err| Failure(format!("cannot read the message from stdin: {err}")))?;
        text
    } else {
        args.text
    };
    let mut parts = vec![Part::text(text)];
    for path in &args.file {
        let bytes = std::fs::read(path)
            .map_err(|err| Failure(format!("cannot read {}: {err}", path.display())))?;
        let mut part = Part::raw(bytes).with_media_type(media_type(path));
        if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
            part = part.with_filename(name);
        }
        parts.push(part);
    }
    for data in &args.data {
        let value: serde_json::Value = serde_json::from_str(data)
            .map_err(|err| Failure(format!("--data is not JSON ({err}): {data}")))?;
        parts.push(Part::data(value).with_media_type("application/json"));
    }
    let mut message = Message::user(parts);
    if let Some(context) = args.context {
        message = message.with_context_id(ContextId::new(context));
    }
    if let Some(task) = args.task {
        message = message.with_task_id(TaskId::new(task));
    }
    Ok(message)
}

/// The media type of a file, by its extension.
fn media_type(path: &std::path::Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match extension.as_str() {
        "txt" | "text" | "log" => "text/plain",
        "md" | "markdown" => "text/markdown",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        _ => "application/octet-stream",
    }
}

async fn send(agent: AgentArgs, message: MessageArgs, no_wait: bool, json: bool) -> Outcome {
    let client = connect(&agent).await?;
    let mut request = SendMessageRequest::new(build_message(message)?);
    if no_wait {
        request = request
            .with_configuration(SendMessageConfiguration::default().with_return_immediately(true));
    }
    let mut printer = Printer::new(json);
    let response = client.send_message(request).await?;
    if json {
        // The answer as sent: `{"task": …}` or `{"message": …}`.
        printer.json_value(&response, true);
    }
    match response {
        SendMessageResponse::Task(task) if json => Ok(exit_for(task.status.state)),
        SendMessageResponse::Task(task) => {
            printer.task(&task);
            Ok(exit_for(task.status.state))
        }
        SendMessageResponse::Message(message) => {
            if !json {
                printer.reply(&message);
            }
            Ok(ExitCode::SUCCESS)
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Prints a stream until it ends.
async fn follow(mut stream: TaskStream, json: bool) -> Outcome {
    let mut printer = Printer::new(json);
    let mut last = None;
    while let Some(event) = stream.next().await {
        let event = match event {
            Ok(event) => event,
            Err(error) => {
                printer.end();
                return Err(error.into());
            }
        };
        printer.event(&event);
        match &event {
            StreamResponse::Task(task) => last = Some(task.status.state),
            StreamResponse::StatusUpdate(update) => last = Some(update.status.state),
            _ => {}
        }
    }
    printer.end();
    Ok(last.map_or(ExitCode::SUCCESS, exit_for))
}

fn exit_for(state: TaskState) -> ExitCode {
    match state {
        TaskState::Failed | TaskState::Rejected => ExitCode::from(3),
        _ => ExitCode::SUCCESS,
    }
}

async fn serve(
    addr: &str,
    exec: Option<String>,
    name: Option<String>,
    push: serve::PushArgs,
) -> Outcome {
    let push = push.settings().map_err(Failure)?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|err| Failure(format!("cannot listen on {addr}: {err}")))?;
    let bound = listener
        .local_addr()
        .map_err(|err| Failure(format!("cannot read the address listened on: {err}")))?;
    let url = format!("http://{bound}");
    let what = match &exec {
        Some(command) => format!("`{command}` as an"),
        None => "the echo".to_owned(),
    };
    let service = serve::service(exec, name, &url, push);
    let mut printer = Printer::new(false);
    printer.line(&format!("serving {what} agent at {url}"));
    printer.line(&format!(
        "card: {url}/.well-known/agent-card.json; try: a2a stream {url} \"hello\"; Ctrl-C stops"
    ));
    // Shutdown tells the running agents to stop, as before the serve loop became generic.
    let config = service.serve_config();
    a2a_server::serve_with_shutdown(listener, service, shutdown_signal(), config)
        .await
        .map_err(|err| Failure(format!("the server failed: {err}")))?;
    Ok(ExitCode::SUCCESS)
}

/// Ctrl-C, or SIGTERM on Unix.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let terminate = tokio::signal::unix::SignalKind::terminate();
        let Ok(mut term) = tokio::signal::unix::signal(terminate) else {
            let _ = tokio::signal::ctrl_c().await;
            return;
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn states_parse_in_any_spelling() {
        assert_eq!(parse_state("input-required"), Ok(TaskState::InputRequired));
        assert_eq!(parse_state("COMPLETED"), Ok(TaskState::Completed));
        assert_eq!(parse_state("TASK_STATE_WORKING"), Ok(TaskState::Working));
        assert!(parse_state("done").is_err());
        assert!(parse_state("unspecified").is_err());
    }

    #[test]
    fn transports_parse_in_any_case_and_keep_their_order() {
        assert_eq!(parse_transport("http+json").as_deref(), Ok("HTTP+JSON"));
        assert_eq!(parse_transport("JsonRpc").as_deref(), Ok("JSONRPC"));
        assert_eq!(parse_transport("grpc").as_deref(), Ok("GRPC"));
        assert_eq!(
            parse_transport("rest"),
            Err("unknown transport `rest`; one of JSONRPC, HTTP+JSON, GRPC".to_owned())
        );
        let cli = Cli::try_parse_from([
            "a2a",
            "get",
            "http://h",
            "t-1",
            "--transport",
            "http+json",
            "--transport",
            "jsonrpc",
        ])
        .unwrap();
        let Command::Get { agent, .. } = cli.command else {
            panic!("get");
        };
        assert_eq!(agent.transports, ["HTTP+JSON", "JSONRPC"]);
    }

    #[test]
    fn urls_without_scheme_are_http() {
        assert_eq!(agent_url("127.0.0.1:7420"), "http://127.0.0.1:7420");
        assert_eq!(agent_url("https://a.example"), "https://a.example");
    }
}
