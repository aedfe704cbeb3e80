//! `a2a task push-config create|get|list|delete|receive`: a task's push-notification
//! configurations (webhooks); `receive` is a webhook of its own.

pub(crate) mod receive;

use a2a_types::v1::{
    AuthenticationInfo, DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest,
    TaskPushNotificationConfig,
};
use clap::{Args, Subcommand};

use crate::connect::{self, Trust, push_supported};
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::{Common, TaskIdArg, task_id};
use crate::output::Out;
use crate::wait::Waiter;

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
    Receive(receive::ReceiveArgs),
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

impl PushCommand {
    /// The shared options.
    pub(crate) fn common(&self) -> &Common {
        match self {
            PushCommand::Create(a) => &a.common,
            PushCommand::Get(a) | PushCommand::Delete(a) => &a.common,
            PushCommand::List(a) => &a.common,
            PushCommand::Receive(a) => &a.common,
        }
    }
}

/// Runs a `task push-config` command.
pub(crate) async fn run(command: &PushCommand, diag: &Diag) -> Result<(), CliError> {
    let opts = match command {
        PushCommand::Create(a) => &a.common,
        PushCommand::Get(a) | PushCommand::Delete(a) => &a.common,
        PushCommand::List(a) => &a.common,
        PushCommand::Receive(a) => return receive::run(a, diag).await,
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
