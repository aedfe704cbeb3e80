//! `a2a task list`: the tasks the agent holds for the caller, a page at a time.

use a2a_types::v1::{ContextId, ListTasksRequest, TaskState};
use clap::Args;

use crate::connect::{self, Trust};
use crate::diag::Diag;
use crate::error::{CliError, quote};
use crate::options::{Common, parse_state};
use crate::output::Out;
use crate::wait::Waiter;

/// The arguments of `task list`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ListArgs {
    /// Only the tasks of this context.
    #[arg(long = "context-id", env = "A2ACLI_CONTEXT_ID", value_name = "ID")]
    pub(crate) context_id: Option<String>,
    /// Only the tasks in this state (submitted, working, completed, failed, canceled,
    /// input-required, rejected, auth-required).
    #[arg(long, value_name = "STATE", value_parser = parse_state)]
    pub(crate) status: Option<TaskState>,
    /// At most this many tasks per page (1 to 100; default: the agent's, 50 in the spec).
    #[arg(long = "page-size", value_name = "N")]
    pub(crate) page_size: Option<i32>,
    /// The page to show: the Next-Page-Token of the previous one.
    #[arg(long = "page-token", value_name = "TOKEN")]
    pub(crate) page_token: Option<String>,
    /// At most this many of the latest messages of each task's history.
    #[arg(long, value_name = "N")]
    pub(crate) history: Option<i32>,
    /// Include each task's artifacts.
    #[arg(long = "include-artifacts")]
    pub(crate) include_artifacts: bool,
    /// With -o json, one task per line instead of the ListTasksResponse.
    #[arg(long)]
    pub(crate) stream: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Runs `task list`.
pub(crate) async fn run(args: &ListArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let mut request = ListTasksRequest::new();
    if let Some(context) = args.context_id.as_deref().filter(|c| !c.trim().is_empty()) {
        request = request.with_context_id(ContextId::new(context.trim()));
    }
    if let Some(state) = args.status {
        request = request.with_status(state);
    }
    if let Some(size) = args.page_size {
        request = request.with_page_size(size);
    }
    if let Some(token) = &args.page_token {
        request = request.with_page_token(token.clone());
    }
    if let Some(n) = args.history {
        request = request.with_history_length(n);
    }
    if args.include_artifacts {
        request = request.with_include_artifacts(true);
    }
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    let waiter = Waiter::new(&agent, opts, diag);
    let page = waiter.call(agent.client.list_tasks(request)).await?;
    let mut out = Out::new(opts.output, args.stream, opts.verbose);
    if out.json() {
        if args.stream {
            for task in &page.tasks {
                out.line(task);
            }
        } else {
            out.value(&page);
        }
        return Ok(());
    }
    let next = (!page.next_page_token.is_empty()).then(|| {
        let mut command = format!("a2a task list -a {}", agent.reference());
        if let Some(context) = &args.context_id {
            command.push_str(&format!(" --context-id {}", quote(context)));
        }
        if let Some(state) = args.status {
            command.push_str(&format!(
                " --status {}",
                crate::output::state(state)
                    .to_ascii_lowercase()
                    .replace('_', "-")
            ));
        }
        if let Some(size) = args.page_size {
            command.push_str(&format!(" --page-size {size}"));
        }
        command.push_str(&format!(" --page-token {}", quote(&page.next_page_token)));
        command
    });
    out.tasks(&page, next.as_deref());
    Ok(())
}
