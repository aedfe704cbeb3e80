//! `a2a chat`: turns typed at a terminal, each sent as `send` would, the context (and the task,
//! while it waits for an answer) carried to the next turn.
//!
//! Interactive only at a terminal: with stdin and stdout both terminals it prompts on stderr
//! and prints the agent's replies as plain text. When stdout is not a terminal it degrades to
//! the `text` output of `send` (or JSON Lines with `-o json`), one answer per turn, reading the
//! turns from stdin only when stdin is not a terminal either: it never waits for typing that
//! nobody sees prompted. Lines starting with `/` that it knows stay local (never sent):
//! `/help` lists them, `/new` starts a new context, `/exit` (or the end of input) ends.

use std::io::{IsTerminal as _, Write as _};

use a2a_types::v1::{ContextId, Message, Part, SendMessageRequest, SendMessageResponse, TaskId};
use clap::Args;
use tokio::io::AsyncBufReadExt as _;

use crate::connect::{self, Trust};
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::Common;
use crate::output::{Out, parts_text};
use crate::show::print_answer;
use crate::wait::Waiter;

/// The arguments of `chat`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ChatArgs {
    /// Start in this context instead of a new one.
    #[arg(long = "context-id", value_name = "ID")]
    pub(crate) context_id: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// What `/help` says (on stderr: stdout has only the agent's answers).
const HELP: &str = "the chat's commands, never sent to the agent: /new starts a new context \
    (and forgets the task waiting for an answer), /exit or /quit (or the end of input) ends, \
    /help shows this; any other line is a turn sent to the agent";

/// Runs `chat`.
pub(crate) async fn run(args: &ChatArgs, diag: &Diag) -> Result<(), CliError> {
    let stdin_terminal = std::io::stdin().is_terminal();
    let stdout_terminal = std::io::stdout().is_terminal();
    if stdin_terminal && !stdout_terminal {
        return Err(CliError::usage(
            "chat is interactive, but stdout is not a terminal: it would wait for typing nobody is prompted for",
        )
        .hint("send each turn with `a2a send --context-id ID`, or pipe the turns into `a2a chat`"));
    }
    let interactive = stdin_terminal && stdout_terminal;
    let opts = &args.common;
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    let mut out = Out::new(opts.output, true, opts.verbose);
    let mut context = args.context_id.clone().map(ContextId::new);
    let mut waiting: Option<TaskId> = None;
    if interactive {
        diag.note(&format!(
            "chatting with {}; /help lists the chat's commands, /exit (or Ctrl-D) ends",
            agent.card.card.name
        ));
    }
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    loop {
        if interactive {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "> ");
            let _ = err.flush();
        }
        let line = lines
            .next_line()
            .await
            .map_err(|err| CliError::usage(format!("cannot read the next turn: {err}")))?;
        let Some(line) = line else { break };
        let text = line.trim();
        match text {
            "" => continue,
            "/exit" | "/quit" => break,
            "/help" => {
                diag.note(HELP);
                continue;
            }
            "/new" => {
                context = None;
                waiting = None;
                diag.note("a new context starts with the next turn");
                continue;
            }
            _ => {}
        }
        let mut message = Message::user(vec![Part::text(text)]);
        if let Some(context) = &context {
            message = message.with_context_id(context.clone());
        }
        if let Some(task) = &waiting {
            message = message.with_task_id(task.clone());
        }
        let waiter = Waiter::new(&agent, opts, diag);
        let answer = waiter.send(SendMessageRequest::new(message)).await?;
        match &answer {
            SendMessageResponse::Task(task) => {
                context.clone_from(&task.context_id);
                waiting = task.status.state.is_interrupted().then(|| task.id.clone());
            }
            SendMessageResponse::Message(message) => {
                if message.context_id.is_some() {
                    context.clone_from(&message.context_id);
                }
                waiting = None;
            }
            _ => {}
        }
        if interactive {
            reply(&mut out, &answer, opts.verbose);
        } else {
            print_answer(&mut out, diag, &agent, &answer, true);
            if !out.json() {
                out.gap();
            }
        }
    }
    Ok(())
}

/// The agent's answer as a person reads it at a terminal.
fn reply(out: &mut Out, answer: &SendMessageResponse, verbose: bool) {
    let text = match answer {
        SendMessageResponse::Message(message) => parts_text(&message.parts, verbose),
        SendMessageResponse::Task(task) => {
            let mut text = String::new();
            if let Some(message) = &task.status.message {
                text.push_str(&parts_text(&message.parts, verbose));
            }
            for artifact in &task.artifacts {
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&parts_text(&artifact.parts, verbose));
            }
            if task.status.state != a2a_types::v1::TaskState::Completed {
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&format!("[{}]", crate::output::state(task.status.state)));
            }
            text
        }
        _ => String::new(),
    };
    out.block("Reply", "", &text);
}
