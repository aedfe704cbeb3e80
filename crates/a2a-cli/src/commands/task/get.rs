//! `a2a task get`: a task as it stands, or (`--wait`) once it ends or needs the caller.

use a2a_types::v1::GetTaskRequest;
use clap::Args;

use crate::connect::{self, Trust};
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::{Common, TaskIdArg, task_id};
use crate::output::Out;
use crate::show::print_task;
use crate::wait::Waiter;

/// The arguments of `task get`.
#[derive(Args, Debug, Clone)]
pub(crate) struct GetArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// At most this many of the latest messages of the task's history (0: none; default: the
    /// agent's choice). Shown in text as `History` blocks.
    #[arg(long, value_name = "N")]
    pub(crate) history: Option<i32>,
    /// Poll until the task ends or needs the caller (every --poll-interval, within --timeout).
    #[arg(long, visible_alias = "watch")]
    pub(crate) wait: bool,
    /// With -o json, print the task on one line.
    #[arg(long)]
    pub(crate) stream: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Runs `task get`.
pub(crate) async fn run(args: &GetArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let id = task_id(&args.id)?;
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    let mut out = Out::new(opts.output, args.stream, opts.verbose);
    let waiter = Waiter::new(&agent, opts, diag);
    let task = if args.wait {
        waiter.poll(&id, args.history).await?
    } else {
        let mut request = GetTaskRequest::new(id);
        if let Some(n) = args.history {
            request = request.with_history_length(n);
        }
        waiter.call(agent.client.get_task(request)).await?
    };
    print_task(
        &mut out,
        diag,
        &agent,
        &task,
        args.wait,
        args.history.is_some(),
    );
    Ok(())
}
