//! `a2a`: the A2A command-line client, as the A2A CLI specification (v0.2) defines it, and
//! `a2a serve` to run an agent.
//!
//! ```text
//! a2a serve                                      # the echo agent on http://127.0.0.1:7420
//! a2a card get -a 127.0.0.1:7420                 # who is it, what can it do
//! a2a send -a 127.0.0.1:7420 "hello"             # send, wait for the end, print the task
//! a2a send -a 127.0.0.1:7420 --stream "hello"    # print each event as it comes
//! a2a task get|list|cancel|subscribe|push-config|download ...
//! a2a auth login | chat | config show | completion SHELL | conformance
//! a2a tools 127.0.0.1:7420 --format mcp          # its skills as LLM tool descriptors
//! a2a mcp 127.0.0.1:7420                         # those tools served to an MCP client (stdio)
//! a2a mock [SCRIPT]                              # a scripted agent (the demo agent without one)
//! ```
//!
//! Every command has `--help`, which shows each option's default and `A2ACLI_*` variable.
//! Results go to stdout (`-o text` fields, or `-o json` the protocol's own types), diagnostics
//! to stderr. Exit status: 0 when the command did its job, whatever the task's outcome; 1 a
//! failure; 2 a usage error; 3 no agent or card; 4 authentication; 5 `--timeout`.

mod commands;
mod config;
mod connect;
mod diag;
mod error;
mod follow;
mod options;
mod otel;
mod output;
mod registry;
mod show;
mod tokens;
mod validate;
mod wait;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{
    Arg, ArgAction, ArgMatches, Args, CommandFactory as _, FromArgMatches as _, Parser, Subcommand,
};

use crate::commands::auth::AuthCommand;
use crate::commands::card::CardCommand;
use crate::commands::chat::ChatArgs;
use crate::commands::conformance::ConformanceArgs;
use crate::commands::send::SendArgs;
use crate::commands::task::TaskCommand;
use crate::commands::{auth, card, chat, conformance, mcp, mock, send, task, tools};
use crate::diag::Diag;
use crate::error::{CliError, Code};
use crate::options::{Common, Format};
use crate::output::Out;

const EXIT_STATUS: &str = "Exit status: 0 when the command did its job, whatever the task's outcome \
(a failed or waiting task is in the output); 1 a failure; 2 a usage error; 3 the agent or its card \
cannot be reached or found; 4 credentials missing or refused; 5 --timeout expired.\n\n\
Settings: a flag, else its A2ACLI_* variable, else a .env file (--config PATH, or the nearest \
.env up from the working directory, then ~/.config/a2a-cli/.env), else the default shown; \
`a2a config show` prints each value and its source.";

#[derive(Parser, Debug)]
#[command(
    name = "a2a",
    version,
    disable_version_flag = true,
    about = "Call Agent2Agent (A2A) agents, or serve one",
    long_about = "Call Agent2Agent (A2A) agents, or serve one.\n\n\
        Start an agent with `a2a serve` (the echo agent) or `a2a serve --exec CMD` (a command \
        as an agent), then talk to it: `a2a send -a 127.0.0.1:7420 \"hello\"`.\n\n\
        -a/--agent-card names the agent: a host (the card is read from \
        /.well-known/agent-card.json), a card URL, or a card file.",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The agent's card: `card get`.
    #[command(subcommand)]
    Card(CardCommand),
    /// Send a message to start or continue an interaction; waits for the task's end (or a
    /// question) unless --async or --stream.
    #[command(after_help = EXIT_STATUS)]
    Send(SendArgs),
    /// Tasks: get, list, cancel, subscribe, push-config, download.
    #[command(subcommand)]
    Task(TaskCommand),
    /// OAuth 2 login for agents that declare it: `auth login`, `auth logout`.
    #[command(subcommand)]
    Auth(AuthCommand),
    /// Chat with the agent at a terminal: each line a turn, the context carried along.
    Chat(ChatArgs),
    /// The configuration: `config show`.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Print a completion script for a shell (`a2a completion bash > ~/.local/share/bash-completion/completions/a2a`).
    Completion {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Smoke-check a live agent: its card, the operations it offers, the errors it names.
    Conformance(ConformanceArgs),
    /// Print the tool descriptors of agents (one per skill) for a tool-calling API:
    /// `--format openai|anthropic|mcp`.
    #[command(after_help = EXIT_STATUS)]
    Tools(tools::ToolsArgs),
    /// Serve the skills of agents as tools to MCP clients, over stdio (or streamable HTTP with
    /// --http ADDR); each tool call is a message to its agent.
    #[command(
        long_about = "Serve the skills of A2A agents as tools to MCP clients (IDEs, desktop \
            assistants), over stdio (the default: configure the client to run `a2a mcp REF...`) \
            or MCP's streamable HTTP transport with --http ADDR.\n\n\
            Each tool is a skill of an agent (`a2a tools REF --format mcp` prints them). A call \
            sends its `message` (and `files`/`data` where the skill takes them) to the agent, \
            streamed when the agent can, and answers with the task's artifacts. An agent that \
            asks for more input gives a result naming the taskId to answer with. A call ends \
            after --timeout, or when the client cancels it; the task is then canceled too.\n\n\
            Cards are checked again (If-None-Match) when the tools are listed and the last \
            check is older than --refresh. Nothing but MCP goes to stdout; diagnostics go to \
            stderr.",
        after_help = EXIT_STATUS
    )]
    Mcp(mcp::McpArgs),
    /// Serve an agent: the echo agent, or a command wrapped as one.
    #[command(
        long_about = "Serve an agent over A2A 1.0 JSON-RPC, HTTP+JSON and gRPC, all on \
            one port (with its card at /.well-known/agent-card.json, listing the three) until \
            interrupted; --no-grpc leaves gRPC out.\n\n\
            --echo (the default) answers every message with an artifact holding its text.\n\n\
            --exec CMD runs `sh -c CMD` for each message: the message text goes to its stdin, \
            its stdout becomes the task's artifact (streamed line by line), and its exit \
            status decides the task's end: 0 is completed, anything else failed, with the last \
            lines of its stderr in the status message. Canceling the task kills the command.\n\n\
            --tls-cert and --tls-key serve HTTPS (the card's interfaces are https URLs); \
            --client-ca adds mutual TLS: clients present certificates of that CA, and each is \
            known by its certificate (--client-cert-required refuses the handshake of a client \
            without one).\n\n\
            Without --jwks, --oidc-issuer, --api-key or --client-ca there is no authentication: \
            every caller is anonymous, so tasks are not scoped by caller. ListTasks lists every caller's \
            tasks, and anyone who knows a task's id can read, follow and cancel it: a \
            single-tenant server, for one client or clients that trust each other (the default \
            address, 127.0.0.1, is reachable from this machine only). With them, the card \
            declares the schemes, a request without valid credentials gets 401 with \
            WWW-Authenticate, and each caller (the token's `sub`, the key's name, the \
            certificate's subject) sees only its own tasks.\n\n\
            The first line printed is `serving the <name> agent at <URL>`."
    )]
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
        /// Serve gRPC on the same port as JSON-RPC and HTTP+JSON (the default).
        #[arg(long, overrides_with = "no_grpc")]
        grpc: bool,
        /// Serve JSON-RPC and HTTP+JSON only.
        #[arg(long = "no-grpc")]
        no_grpc: bool,
        /// Deliver push notifications (the card declares them): every task event goes to the
        /// task's push configs, retried with backoff; webhook URLs pass the SSRF guard.
        #[command(flatten)]
        push: commands::serve::PushArgs,
        /// Where tasks live: `memory` (the default; lost when the server stops),
        /// `sqlite://PATH` (a file, created when missing), or `postgres://USER@HOST/DB` (several
        /// replicas of one agent may share it: docs/replicas.md).
        #[arg(long, value_name = "URL", default_value = "memory")]
        store: String,
        /// With a PostgreSQL store: the schema its tables live in (created when missing).
        #[arg(long, value_name = "NAME")]
        store_schema: Option<String>,
        /// With a SQLite or PostgreSQL store: how long a running task stays leased to this
        /// server without a renewal; when the server dies, its running tasks end FAILED once
        /// their lease ran out (docs/replicas.md).
        #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
        store_lease: f64,
        /// Sign the agent card (A2A 1.0 §8.4).
        #[command(flatten)]
        card_sign: commands::serve::CardSignArgs,
        /// Who may call: bearer JWTs (--jwks, --oidc-issuer), API keys (--api-key) and client
        /// certificates (--client-ca).
        #[command(flatten)]
        auth: commands::serve::AuthArgs,
        /// HTTPS (--tls-cert, --tls-key).
        #[command(flatten)]
        tls: commands::serve::TlsArgs,
        /// OTLP export of the server's spans (--otlp-endpoint).
        #[command(flatten)]
        otel: otel::OtelArgs,
    },
    /// Serve a scripted mock agent (the built-in demo agent without SCRIPT): the
    /// specification's demo-server.
    #[command(
        visible_alias = "demo-server",
        long_about = "Serve a scripted mock agent over A2A JSON-RPC and HTTP+JSON (1.0, 0.3 \
            and 0.1) and gRPC, all on one port, until interrupted; --no-grpc leaves gRPC out.\n\n\
            SCRIPT is a JSON or YAML file (docs/mock.md): the agent's card, rules that match a \
            message (text equals, contains or matches a regex; messageId prefix; skill; \
            metadata), each replying with steps (status updates, artifacts, chunks, delays, \
            input-required turns, failures, protocol errors), and a fallback. Without SCRIPT \
            the built-in demo agent answers (crates/a2a-cli/examples/mock.yaml): send it \
            \"help\" for its keywords.\n\n\
            No authentication: every caller is anonymous (as with `a2a serve`).\n\n\
            The first line printed is `serving the mock agent <name> at <URL>`."
    )]
    Mock {
        /// The script: a JSON (.json) or YAML file. Default: the built-in demo agent.
        #[arg(value_name = "SCRIPT")]
        script: Option<std::path::PathBuf>,
        /// The address to listen on; port 0 picks a free port.
        #[arg(long, default_value = "127.0.0.1:7420")]
        addr: String,
        /// Serve gRPC on the same port as JSON-RPC and HTTP+JSON (the default).
        #[arg(long, overrides_with = "no_grpc")]
        grpc: bool,
        /// Serve JSON-RPC and HTTP+JSON only.
        #[arg(long = "no-grpc")]
        no_grpc: bool,
    },
}

/// The `config` commands.
#[derive(Subcommand, Debug)]
enum ConfigCommand {
    /// Print each setting's effective value and where it came from (a flag, the environment, a
    /// file, the default); changes nothing.
    Show(ConfigShowArgs),
}

/// The arguments of `config show`.
#[derive(Args, Debug)]
struct ConfigShowArgs {
    #[command(flatten)]
    common: Common,
}

/// The commands that were replaced, and their new spelling.
const REPLACED: [(&str, &str); 5] = [
    ("stream", "a2a send --stream -a URL TEXT"),
    ("get", "a2a task get -a URL TASK_ID"),
    ("list", "a2a task list -a URL"),
    ("cancel", "a2a task cancel -a URL TASK_ID"),
    ("subscribe", "a2a task subscribe -a URL TASK_ID"),
];

/// The `-o` the command line (or A2ACLI_OUTPUT) asks for, before it is parsed, for the report
/// of a usage error.
fn format_hint(args: &[OsString], settings: &config::Settings) -> Format {
    let mut iter = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = iter.next() {
        let value = match arg.as_str() {
            "-o" | "--output" => iter.next(),
            other => other
                .strip_prefix("--output=")
                .or_else(|| other.strip_prefix("-o"))
                .map(str::to_owned),
        };
        if let Some(value) = value {
            return if value.trim().eq_ignore_ascii_case("json") {
                Format::Json
            } else {
                Format::Text
            };
        }
    }
    let configured = std::env::var("A2ACLI_OUTPUT")
        .ok()
        .or_else(|| settings.values.get("A2ACLI_OUTPUT").map(|(v, _)| v.clone()));
    if configured.is_some_and(|v| v.trim().eq_ignore_ascii_case("json")) {
        Format::Json
    } else {
        Format::Text
    }
}

/// Prints a failure: the envelope on stdout with `-o json` (on one line with `--stream`), the
/// fields on stderr in text.
fn report(error: &CliError, format: Format, lines: bool, diag: &Diag) -> ExitCode {
    let mut error = error.clone();
    error.message = diag.redact(&error.message);
    error.hint = error.hint.as_deref().map(|h| diag.redact(h));
    if format == Format::Json {
        let mut out = Out::new(format, lines, false);
        out.value(&error.envelope());
    } else {
        let mut fields = vec![
            ("Error", error.message.clone()),
            ("Code", error.code.name().to_owned()),
        ];
        if let Some(code) = &error.a2a_code {
            fields.push(("A2A-Code", code.to_string()));
        }
        if let Some(hint) = &error.hint {
            fields.push(("Hint", hint.clone()));
        }
        diag.error_fields(&fields);
    }
    ExitCode::from(error.code.exit())
}

/// The command tree, with the `-v/--version` flag the specification spells.
fn cli_command() -> clap::Command {
    Cli::command().arg(
        Arg::new("version")
            .short('v')
            .long("version")
            .action(ArgAction::Version)
            .help("Print the version and exit"),
    )
}

/// A usage error of clap as an envelope.
fn usage_error(error: &clap::Error, args: &[OsString]) -> CliError {
    let rendered = error.render().to_string();
    let mut lines = rendered.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let message = first.trim_start_matches("error: ").to_owned();
    let tips: Vec<&str> = lines
        .filter(|l| l.trim_start().starts_with("tip:"))
        .map(|l| l.trim().trim_start_matches("tip:").trim())
        .collect();
    let first_arg = args
        .get(1)
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_default();
    let hint = if let Some((_, new)) = REPLACED.iter().find(|(old, _)| *old == first_arg) {
        format!("`a2a {first_arg}` is now `{new}` (see `a2a help`)")
    } else if first_arg == "card"
        && args
            .get(2)
            .is_some_and(|a| a.to_string_lossy().contains(['.', ':', '/']))
    {
        "`a2a card URL` is now `a2a card get -a URL`".to_owned()
    } else if !tips.is_empty() {
        tips.join("; ")
    } else {
        let path: Vec<String> = args
            .iter()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .take_while(|a| !a.starts_with('-'))
            .take(2)
            .collect();
        format!("see `a2a {} --help`", path.join(" ")).replace("a2a  --help", "a2a --help")
    };
    CliError::usage(message).hint(hint)
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let known = config::known_vars(&cli_command());
    let early = Diag::new(false);
    let settings = match config::load(&args, &known) {
        Ok(settings) => settings,
        Err(error) => {
            return report(
                &error,
                format_hint(&args, &config::Settings::default()),
                false,
                &early,
            );
        }
    };
    let matches = match config::apply(cli_command(), &settings).try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(error) => {
            use clap::error::ErrorKind;
            return match error.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = error.print();
                    ExitCode::SUCCESS
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = error.print();
                    ExitCode::from(2)
                }
                _ => report(
                    &usage_error(&error, &args),
                    format_hint(&args, &settings),
                    false,
                    &early,
                ),
            };
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => {
            return report(
                &usage_error(&error, &args),
                format_hint(&args, &settings),
                false,
                &early,
            );
        }
    };
    let (format, lines, debug) = match cli.command.common() {
        Some(common) => (common.output, cli.command.streams(), common.debug),
        None => (Format::Text, false, false),
    };
    let diag = Diag::new(debug);
    for warning in &settings.warnings {
        diag.warn(warning);
    }
    if let Some(common) = cli.command.common() {
        for secret in [&common.bearer, &common.api_key].into_iter().flatten() {
            diag.secret(secret);
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            let error = CliError::new(
                Code::Internal,
                format!("cannot start the async runtime: {err}"),
            );
            return report(&error, format, lines, &diag);
        }
    };
    match runtime.block_on(run(cli.command, &matches, &settings, &diag)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => report(&error, format, lines, &diag),
    }
}

impl Command {
    /// The shared options of an agent command.
    fn common(&self) -> Option<&Common> {
        Some(match self {
            Command::Card(CardCommand::Get(args)) => &args.common,
            Command::Send(args) => &args.common,
            Command::Task(task) => task.common(),
            Command::Auth(AuthCommand::Login(args)) => &args.common,
            Command::Auth(AuthCommand::Logout(args)) => &args.common,
            Command::Chat(args) => &args.common,
            Command::Config(ConfigCommand::Show(args)) => &args.common,
            Command::Conformance(args) => &args.common,
            Command::Tools(args) => &args.common,
            Command::Mcp(args) => &args.common,
            Command::Completion { .. } | Command::Serve { .. } | Command::Mock { .. } => {
                return None;
            }
        })
    }

    /// `--stream`: errors too go out as one line.
    fn streams(&self) -> bool {
        match self {
            Command::Send(args) => args.stream,
            Command::Card(CardCommand::Get(args)) => args.stream,
            Command::Task(TaskCommand::Get(args)) => args.stream,
            Command::Task(TaskCommand::Cancel(args)) => args.stream,
            Command::Task(TaskCommand::List(args)) => args.stream,
            Command::Task(TaskCommand::Subscribe(args)) => args.stream,
            Command::Task(TaskCommand::PushConfig(task::push_config::PushCommand::Receive(
                args,
            ))) => args.stream,
            Command::Chat(_) => true,
            _ => false,
        }
    }
}

/// The matches of the innermost subcommand.
fn innermost(matches: &ArgMatches) -> &ArgMatches {
    let mut current = matches;
    while let Some((_, sub)) = current.subcommand() {
        current = sub;
    }
    current
}

async fn run(
    command: Command,
    matches: &ArgMatches,
    settings: &config::Settings,
    diag: &Diag,
) -> Result<(), CliError> {
    match command {
        Command::Card(CardCommand::Get(args)) => card::run(&args, diag).await,
        Command::Send(args) => send::run(&args, innermost(matches), diag).await,
        Command::Task(task) => task::run(&task, diag).await,
        Command::Auth(auth) => auth::run(&auth, diag).await,
        Command::Chat(args) => chat::run(&args, diag).await,
        Command::Config(ConfigCommand::Show(args)) => {
            let shown = config::effective(&cli_command(), innermost(matches), settings);
            let tokens = tokens::store_path();
            let mut out = Out::new(args.common.output, false, false);
            if out.json() {
                out.value(&config::to_json(&shown, settings, &tokens));
            } else {
                config::print_text(&mut out, &shown, settings, &tokens);
            }
            Ok(())
        }
        Command::Completion { shell } => {
            let mut cmd = cli_command();
            clap_complete::generate(shell, &mut cmd, "a2a", &mut std::io::stdout());
            Ok(())
        }
        Command::Conformance(args) => conformance::run(&args, diag).await,
        Command::Tools(args) => tools::run(&args, diag).await,
        Command::Mcp(args) => mcp::run(&args, diag).await,
        Command::Serve {
            addr,
            echo: _,
            exec,
            name,
            grpc: _,
            no_grpc,
            push,
            store,
            store_schema,
            store_lease,
            card_sign,
            auth,
            tls,
            otel,
        } => {
            let store = commands::serve::StoreArgs {
                url: store,
                schema: store_schema,
                lease: store_lease,
            };
            let export = otel.start(diag)?;
            let served = serve(
                &addr, exec, name, !no_grpc, push, store, card_sign, &auth, &tls,
            )
            .await;
            otel::finish(export, diag).await;
            served
        }
        Command::Mock {
            script,
            addr,
            grpc: _,
            no_grpc,
        } => serve_mock(script.as_deref(), &addr, !no_grpc).await,
    }
}

async fn serve_mock(
    script: Option<&std::path::Path>,
    addr: &str,
    grpc: bool,
) -> Result<(), CliError> {
    let agent = mock::agent(script).map_err(CliError::usage)?;
    let (listener, url) = listen(addr, false).await?;
    let service = mock::service(&agent, &url, grpc);
    let mut printer = Out::new(Format::Text, false, false);
    printer.raw_line(&format!(
        "serving the mock agent {} at {url}",
        agent.card().name
    ));
    let rules = mock::rule_names(&agent);
    if !rules.is_empty() {
        printer.raw_line(&format!("rules: {}", rules.join(", ")));
    }
    printer.raw_line(&format!(
        "card: {url}/.well-known/agent-card.json; try: a2a send -a {url} \"help\"; Ctrl-C stops"
    ));
    serve_on(listener, service, grpc, None).await
}

/// Listens on `addr`; the listener and the URL it is reached at (`https` with `tls`).
async fn listen(addr: &str, tls: bool) -> Result<(tokio::net::TcpListener, String), CliError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|err| CliError::new(Code::Internal, format!("cannot listen on {addr}: {err}")))?;
    let bound = listener.local_addr().map_err(|err| {
        CliError::new(
            Code::Internal,
            format!("cannot read the address listened on: {err}"),
        )
    })?;
    let scheme = if tls { "https" } else { "http" };
    Ok((listener, format!("{scheme}://{bound}")))
}

/// Serves `service` (with gRPC beside it; over TLS with `tls`) until Ctrl-C or SIGTERM.
async fn serve_on(
    listener: tokio::net::TcpListener,
    service: a2a_server::A2aService,
    grpc: bool,
    tls: Option<a2a_server::tls::TlsSettings>,
) -> Result<(), CliError> {
    // Shutdown tells the running agents to stop, as before the serve loop became generic.
    let config = service.serve_config();
    let config = match tls {
        Some(tls) => config.with_tls(tls),
        None => config,
    };
    let served = if grpc {
        let shared = a2a_grpc::server::SharedPort::new(service);
        a2a_server::serve_with_shutdown(listener, shared, shutdown_signal(), config).await
    } else {
        a2a_server::serve_with_shutdown(listener, service, shutdown_signal(), config).await
    };
    served.map_err(|err| CliError::new(Code::Internal, format!("the server failed: {err}")))?;
    Ok(())
}

// One argument per `a2a serve` option group; a struct would only rename them.
#[allow(clippy::too_many_arguments)]
async fn serve(
    addr: &str,
    exec: Option<String>,
    name: Option<String>,
    grpc: bool,
    push: commands::serve::PushArgs,
    store: commands::serve::StoreArgs,
    card_sign: commands::serve::CardSignArgs,
    auth: &commands::serve::AuthArgs,
    tls: &commands::serve::TlsArgs,
) -> Result<(), CliError> {
    let push = push.settings().map_err(CliError::usage)?;
    let signing = card_sign.signing().map_err(CliError::usage)?;
    let tls = tls
        .settings(auth.client_auth().map_err(CliError::usage)?)
        .map_err(CliError::usage)?;
    let store = store.open().await?;
    let (listener, url) = listen(addr, tls.is_some()).await?;
    let what = match &exec {
        Some(command) => format!("`{command}` as an"),
        None => "the echo".to_owned(),
    };
    let service = commands::serve::service(exec, name, &url, grpc, push, store, signing, auth)
        .map_err(CliError::usage)?;
    let mut printer = Out::new(Format::Text, false, false);
    printer.raw_line(&format!("serving {what} agent at {url}"));
    printer.raw_line(&format!(
        "card: {url}/.well-known/agent-card.json; try: a2a send -a {url} \"hello\"; Ctrl-C stops"
    ));
    serve_on(listener, service, grpc, tls).await
}

/// Ctrl-C, or SIGTERM on Unix.
pub(crate) async fn shutdown_signal() {
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

    #[test]
    fn the_command_line_is_well_formed() {
        cli_command().debug_assert();
    }

    #[test]
    fn transports_keep_their_order() {
        let matches = cli_command()
            .try_get_matches_from([
                "a2a",
                "task",
                "get",
                "t-1",
                "-a",
                "http://h",
                "--transport",
                "http+json",
                "--transport",
                "jsonrpc",
            ])
            .unwrap();
        let cli = Cli::from_arg_matches(&matches).unwrap();
        let Command::Task(TaskCommand::Get(args)) = cli.command else {
            panic!("task get");
        };
        assert_eq!(args.common.transports, ["HTTP+JSON", "JSONRPC"]);
    }

    #[test]
    fn old_commands_point_to_their_new_spelling() {
        let args: Vec<OsString> = ["a2a", "stream", "http://h", "hi"]
            .map(OsString::from)
            .to_vec();
        let error = cli_command().try_get_matches_from(&args).unwrap_err();
        let error = usage_error(&error, &args);
        assert_eq!(error.code, Code::Usage);
        assert_eq!(
            error.hint.as_deref(),
            Some("`a2a stream` is now `a2a send --stream -a URL TEXT` (see `a2a help`)")
        );
    }
}
