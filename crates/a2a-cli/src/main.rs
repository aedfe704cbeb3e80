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
//! a2a inspect -a 127.0.0.1:7420 [--open]          # a web inspector in the browser
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
mod exit;
mod follow;
mod options;
mod otel;
mod output;
mod registry;
mod request_log;
mod serving;
mod show;
mod tokens;
mod validate;
mod wait;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{
    Arg, ArgAction, ArgMatches, CommandFactory as _, FromArgMatches as _, Parser, Subcommand,
};

use crate::commands::auth::AuthCommand;
use crate::commands::card::CardCommand;
use crate::commands::chat::ChatArgs;
use crate::commands::config::ConfigCommand;
use crate::commands::conformance::ConformanceArgs;
use crate::commands::send::SendArgs;
use crate::commands::task::TaskCommand;
use crate::commands::{
    auth, card, chat, completion, conformance, inspect, mcp, mock, send, serve, task, tools,
};
use crate::diag::Diag;
use crate::error::{CliError, Code};
use crate::exit::{format_hint, report, usage_error};
use crate::options::{Common, Format};

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
    Completion(completion::CompletionArgs),
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
            lines of its stderr in the status message. Canceling the task, or stopping the \
            server, ends the command and what it started (its process group: SIGTERM, then \
            SIGKILL after 5 s).\n\n\
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
            The first line printed is `serving the <name> agent at <URL>`, the second names \
            the store, push delivery, authentication and TLS. While it runs, each call is \
            logged on stderr (time, binding, operation, task, duration, outcome), and each task \
            its agent failed or rejected with the reason; -q leaves the log out, -v adds the \
            server's own events (RUST_LOG chooses them)."
    )]
    Serve(serve::ServeArgs),
    /// Serve a scripted mock agent (the built-in demo agent without SCRIPT): the
    /// specification's demo-server.
    #[command(
        visible_aliases = ["demo-server", "server"],
        long_about = "Serve a scripted mock agent over A2A JSON-RPC and HTTP+JSON (1.0, 0.3 \
            and 0.1) and gRPC, all on one port, until interrupted; --no-grpc leaves gRPC out.\n\n\
            SCRIPT is a JSON or YAML file (docs/mock.md): the agent's card, rules that match a \
            message (text equals, contains or matches a regex; messageId prefix; skill; \
            metadata), each replying with steps (status updates, artifacts, chunks, delays, \
            input-required turns, failures, protocol errors), and a fallback. Without SCRIPT \
            the built-in demo agent answers (crates/a2a-cli/examples/mock.yaml): send it \
            \"help\" for its keywords.\n\n\
            No authentication: every caller is anonymous (as with `a2a serve`).\n\n\
            The first line printed is `serving the mock agent <name> at <URL>`. Each call is \
            logged on stderr as with `a2a serve` (-q, -v)."
    )]
    Mock(mock::MockArgs),
    /// A web inspector of agents in the browser: card, chat, timeline, wire, tasks, push
    /// (docs/inspect.md); prints the URL to open (with its token).
    Inspect(inspect::InspectArgs),
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

/// mimalloc as the global allocator of `a2a` (the library crates leave the allocator to the
/// binary): with glibc's malloc, memory freed on another runtime worker than the one that
/// allocated it cost `a2a serve` 10-18% more CPU per `SendMessage` at 16 and 64 connections
/// (docs/benchmarks.md, "Issue 33").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
            Command::Inspect(args) => &args.common,
            Command::Completion(_) | Command::Serve(_) | Command::Mock(_) => {
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
            commands::config::run(&args, &cli_command(), innermost(matches), settings)
        }
        Command::Completion(args) => completion::run(&args, &mut cli_command()),
        Command::Conformance(args) => conformance::run(&args, diag).await,
        Command::Tools(args) => tools::run(&args, diag).await,
        Command::Mcp(args) => mcp::run(&args, diag).await,
        Command::Serve(args) => serve::run(args, diag).await,
        Command::Mock(args) => mock::run(&args).await,
        Command::Inspect(args) => inspect::run(&args, diag).await,
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
