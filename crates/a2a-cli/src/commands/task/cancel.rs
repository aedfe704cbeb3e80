//! `a2a task cancel`: cancels a task and prints the state it is left in.

use a2a_types::v1::CancelTaskRequest;
use clap::Args;

use crate::connect::{self, Trust};
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::{Common, TaskIdArg, task_id};
use crate::output::Out;
use crate::show::print_task;
use crate::wait::Waiter;

/// The arguments of `task cancel`.
#[derive(Args, Debug, Clone)]
pub(crate) struct CancelArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// With -o json, print the task on one line.
    #[arg(long)]
    pub(crate) stream: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Runs `task cancel`.
pub(crate) async fn run(args: &CancelArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let id = task_id(&args.id)?;
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    let mut out = Out::new(opts.output, args.stream, opts.verbose);
    let waiter = Waiter::new(&agent, opts, diag);
    let task = waiter
        .call(agent.client.cancel_task(CancelTaskRequest::new(id)))
        .await?;
    print_task(&mut out, diag, &agent, &task, false, false);
    Ok(())
}
