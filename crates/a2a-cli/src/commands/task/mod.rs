//! `a2a task get|list|cancel|subscribe|push-config|download`: one module each.

pub(crate) mod cancel;
pub(crate) mod download;
pub(crate) mod get;
pub(crate) mod list;
pub(crate) mod push_config;
pub(crate) mod subscribe;

use clap::Subcommand;

use crate::diag::Diag;
use crate::error::CliError;
use crate::options::Common;

/// The `task` commands.
#[derive(Subcommand, Debug, Clone)]
pub(crate) enum TaskCommand {
    /// Show a task: its state, artifacts and (with --history) messages; --wait polls until it
    /// ends or needs the caller.
    Get(get::GetArgs),
    /// List the tasks the agent holds for you, newest first, a page at a time.
    List(list::ListArgs),
    /// Cancel a task; prints the state it is left in.
    Cancel(cancel::CancelArgs),
    /// Follow a task's events (again), from now or right after an event id (--after).
    Subscribe(subscribe::SubscribeArgs),
    /// Manage a task's push-notification configurations (webhooks).
    #[command(subcommand, name = "push-config")]
    PushConfig(push_config::PushCommand),
    /// Save a task's artifacts to files.
    Download(download::DownloadArgs),
}

impl TaskCommand {
    /// The shared options.
    pub(crate) fn common(&self) -> &Common {
        match self {
            TaskCommand::Get(a) => &a.common,
            TaskCommand::List(a) => &a.common,
            TaskCommand::Cancel(a) => &a.common,
            TaskCommand::Subscribe(a) => &a.common,
            TaskCommand::Download(a) => &a.common,
            TaskCommand::PushConfig(p) => p.common(),
        }
    }
}

/// Runs a `task` command.
pub(crate) async fn run(command: &TaskCommand, diag: &Diag) -> Result<(), CliError> {
    match command {
        TaskCommand::Get(args) => get::run(args, diag).await,
        TaskCommand::Cancel(args) => cancel::run(args, diag).await,
        TaskCommand::List(args) => list::run(args, diag).await,
        TaskCommand::Subscribe(args) => subscribe::run(args, diag).await,
        TaskCommand::PushConfig(push) => push_config::run(push, diag).await,
        TaskCommand::Download(args) => download::run(args, diag).await,
    }
}
