//! `a2a task subscribe`: follows a task's events again, from now or right after an event id.

use a2a_types::v1::{GetTaskRequest, SubscribeToTaskRequest};
use clap::Args;

use crate::connect::{self, Trust};
use crate::diag::Diag;
use crate::error::{CliError, Code, quote};
use crate::options::{Common, TaskIdArg, task_id};
use crate::output::Out;
use crate::show::print_task;
use crate::wait::Waiter;

/// The arguments of `task subscribe`.
#[derive(Args, Debug, Clone)]
pub(crate) struct SubscribeArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// Pick up right after the event of this id (an `Event-Id` an earlier stream printed)
    /// instead of starting with the task as it is now.
    #[arg(long, value_name = "EVENT_ID")]
    pub(crate) after: Option<String>,
    /// Print each event as it arrives (with -o json, one per line) instead of the task at the
    /// end.
    #[arg(long)]
    pub(crate) stream: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Runs `task subscribe`.
pub(crate) async fn run(args: &SubscribeArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let id = task_id(&args.id)?;
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    if args.after.is_some()
        && agent.client.interface().protocol_binding == a2a_types::v1::binding::GRPC
    {
        return Err(CliError::usage(
            "--after needs the event ids of an SSE stream, which gRPC streams do not carry",
        )
        .hint("pick up the task with --transport JSONRPC or HTTP+JSON, or without --after"));
    }
    if !agent.may_stream() {
        return Err(CliError::new(
            Code::Protocol("UnsupportedOperationError"),
            "the agent's card does not advertise streaming, which task subscribe needs",
        )
        .hint(format!(
            "poll instead: `a2a task get -a {} --wait {}`",
            agent.reference(),
            quote(id.as_str())
        )));
    }
    let mut out = Out::new(opts.output, args.stream, opts.verbose);
    let waiter = Waiter::new(&agent, opts, diag);
    waiter.seen.borrow_mut().task_id = Some(id.clone());
    let after = args.after.clone();
    let mut stream = waiter
        .call(
            agent
                .client
                .subscribe_to_task_after(SubscribeToTaskRequest::new(id.clone()), after),
        )
        .await?;
    if args.stream {
        return crate::follow::follow_printing(&waiter, &mut out, &mut stream, diag).await;
    }
    let followed = waiter
        .bounded(async { Ok(waiter.follow(&mut stream, |_, _| {}).await) })
        .await?;
    if let Err(error) = followed {
        return Err(waiter.error(&error));
    }
    // The task as it stands at the end, whole.
    let task = waiter
        .call(agent.client.get_task(GetTaskRequest::new(id)))
        .await?;
    print_task(&mut out, diag, &agent, &task, true, false);
    Ok(())
}
