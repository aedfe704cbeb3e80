//! `a2a task get|list|cancel|subscribe|push-config|download`.

pub(crate) mod download;
pub(crate) mod receive;

use a2a_types::v1::{
    AuthenticationInfo, CancelTaskRequest, ContextId, DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, SubscribeToTaskRequest, TaskPushNotificationConfig, TaskState,
};
use clap::{Args, Subcommand};

use crate::connect::{self, Trust, push_supported};
use crate::diag::Diag;
use crate::error::{CliError, Code, quote};
use crate::options::{Common, TaskIdArg, parse_state, task_id};
use crate::output::Out;
use crate::show::print_task;
use crate::wait::Waiter;

/// The `task` commands.
#[derive(Subcommand, Debug, Clone)]
pub(crate) enum TaskCommand {
    /// Show a task: its state, artifacts and (with --history) messages; --wait polls until it
    /// ends or needs the caller.
    Get(GetArgs),
    /// List the tasks the agent holds for you, newest first, a page at a time.
    List(ListArgs),
    /// Cancel a task; prints the state it is left in.
    Cancel(IdArgs),
    /// Follow a task's events (again), from now or right after an event id (--after).
    Subscribe(SubscribeArgs),
    /// Manage a task's push-notification configurations (webhooks).
    #[command(subcommand, name = "push-config")]
    PushConfig(PushCommand),
    /// Save a task's artifacts to files.
    Download(crate::commands::task::download::DownloadArgs),
}

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

/// The arguments of `task cancel`.
#[derive(Args, Debug, Clone)]
pub(crate) struct IdArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// With -o json, print the task on one line.
    #[arg(long)]
    pub(crate) stream: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

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

/// The `task push-config` commands.
#[derive(Subcommand, Debug, Clone)]
pub(crate) enum PushCommand {
    /// Register a webhook for a task's updates; prints it with the id the agent gave it.
    Create(PushCreateArgs),
    /// Show one configuration.
    Get(PushRefArgs),
    /// List a task's configurations.
    List(PushListArgs),
    /// Delete a configuration.
    Delete(PushRefArgs),
    /// Receive a task's push notifications: listen on this machine, register a config with its
    /// URL and a random token, check each delivery (the token; the signature with the keys of
    /// the JWKS the card names) until the task ends, then delete the config.
    Receive(crate::commands::task::receive::ReceiveArgs),
}

/// The arguments of `task push-config create`.
#[derive(Args, Debug, Clone)]
pub(crate) struct PushCreateArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// The webhook URL the agent posts the task's updates to.
    #[arg(long, value_name = "URL")]
    pub(crate) url: String,
    /// A token the agent sends back with each notification, for the webhook to check.
    #[arg(long, value_name = "TOKEN")]
    pub(crate) token: Option<String>,
    /// The HTTP authentication scheme the agent uses toward the webhook (`Bearer`, `Basic`).
    #[arg(
        long = "auth-scheme",
        value_name = "SCHEME",
        requires = "auth_credentials"
    )]
    pub(crate) auth_scheme: Option<String>,
    /// The credentials for --auth-scheme.
    #[arg(
        long = "auth-credentials",
        value_name = "CREDENTIALS",
        requires = "auth_scheme"
    )]
    pub(crate) auth_credentials: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// A configuration of a task.
#[derive(Args, Debug, Clone)]
pub(crate) struct PushRefArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// The configuration's id.
    #[arg(value_name = "CONFIG_ID")]
    pub(crate) config_id: String,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The arguments of `task push-config list`.
#[derive(Args, Debug, Clone)]
pub(crate) struct PushListArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// At most this many configurations.
    #[arg(long = "page-size", value_name = "N")]
    pub(crate) page_size: Option<i32>,
    /// The page to show.
    #[arg(long = "page-token", value_name = "TOKEN")]
    pub(crate) page_token: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
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
            TaskCommand::PushConfig(p) => match p {
                PushCommand::Create(a) => &a.common,
                PushCommand::Get(a) | PushCommand::Delete(a) => &a.common,
                PushCommand::List(a) => &a.common,
                PushCommand::Receive(a) => &a.common,
            },
        }
    }
}

/// Runs a `task` command.
pub(crate) async fn run(command: &TaskCommand, diag: &Diag) -> Result<(), CliError> {
    let opts = command.common();
    match command {
        TaskCommand::Get(args) => {
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
        TaskCommand::Cancel(args) => {
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
        TaskCommand::List(args) => list(args, diag).await,
        TaskCommand::Subscribe(args) => subscribe(args, diag).await,
        TaskCommand::PushConfig(push) => push_config(push, diag).await,
        TaskCommand::Download(args) => crate::commands::task::download::run(args, diag).await,
    }
}

async fn list(args: &ListArgs, diag: &Diag) -> Result<(), CliError> {
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

async fn subscribe(args: &SubscribeArgs, diag: &Diag) -> Result<(), CliError> {
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
    if agent.card.card.capabilities.streaming != Some(true) {
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

async fn push_config(command: &PushCommand, diag: &Diag) -> Result<(), CliError> {
    let opts = match command {
        PushCommand::Create(a) => &a.common,
        PushCommand::Get(a) | PushCommand::Delete(a) => &a.common,
        PushCommand::List(a) => &a.common,
        PushCommand::Receive(a) => return crate::commands::task::receive::receive(a, diag).await,
    };
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    push_supported(&agent)?;
    let waiter = Waiter::new(&agent, opts, diag);
    let client = &agent.client;
    let mut out = Out::new(opts.output, false, opts.verbose);
    match command {
        PushCommand::Create(args) => {
            let mut config =
                TaskPushNotificationConfig::new(args.url.clone()).with_task_id(task_id(&args.id)?);
            if let Some(token) = &args.token {
                diag.secret(token);
                config = config.with_token(token.clone());
            }
            if let (Some(scheme), Some(credentials)) = (&args.auth_scheme, &args.auth_credentials) {
                diag.secret(credentials);
                let mut info = AuthenticationInfo::new(scheme.clone());
                info.credentials = Some(credentials.clone());
                config = config.with_authentication(info);
            }
            let created = waiter
                .call(client.create_task_push_notification_config(config))
                .await?;
            print_push(&mut out, &created);
        }
        PushCommand::Get(args) => {
            let request = GetTaskPushNotificationConfigRequest::new(
                task_id(&args.id)?,
                args.config_id.clone(),
            );
            let config = waiter
                .call(client.get_task_push_notification_config(request))
                .await?;
            print_push(&mut out, &config);
        }
        PushCommand::List(args) => {
            let mut request = ListTaskPushNotificationConfigsRequest::new(task_id(&args.id)?);
            if let Some(size) = args.page_size {
                request = request.with_page_size(size);
            }
            if let Some(token) = &args.page_token {
                request = request.with_page_token(token.clone());
            }
            let page = waiter
                .call(client.list_task_push_notification_configs(request))
                .await?;
            if out.json() {
                out.value(&page);
            } else {
                for (i, config) in page.configs.iter().enumerate() {
                    if i > 0 {
                        out.gap();
                    }
                    print_push(&mut out, config);
                }
                out.field("Total", &page.configs.len().to_string());
                if let Some(token) = page.next_page_token.as_deref().filter(|t| !t.is_empty()) {
                    out.field("Next-Page-Token", token);
                }
            }
        }
        PushCommand::Delete(args) => {
            let request = DeleteTaskPushNotificationConfigRequest::new(
                task_id(&args.id)?,
                args.config_id.clone(),
            );
            waiter
                .call(client.delete_task_push_notification_config(request))
                .await?;
            if out.json() {
                // DeleteTaskPushNotificationConfig answers google.protobuf.Empty.
                out.value(&serde_json::json!({}));
            } else {
                out.field("Deleted", &args.config_id);
                out.field("Task-Id", &args.id.task_id);
            }
        }
        PushCommand::Receive(_) => {}
    }
    Ok(())
}

fn print_push(out: &mut Out, config: &TaskPushNotificationConfig) {
    if out.json() {
        out.value(config);
        return;
    }
    out.field("Config-Id", config.id.as_deref().unwrap_or(""));
    out.field(
        "Task-Id",
        config.task_id.as_ref().map_or("", |t| t.as_str()),
    );
    out.field("Url", &config.url);
    if config.token.is_some() {
        out.field("Token", "[set]");
    }
    if let Some(auth) = &config.authentication {
        out.field("Auth-Scheme", &auth.scheme);
    }
}
