//! `a2a conformance`: a smoke check of a live agent: the card, each operation the card
//! promises, and the errors A2A 1.0 names for the usual mistakes. A quick look before the full
//! A2A TCK (which this does not run), safe for an agent in use: it sends the message `ping`
//! (or `--message`), creates at most two tasks, and cancels nothing that is still running.
//!
//! Every check passes, fails (with what was seen) or is skipped (with why); the exit status is
//! 0 when the checks ran, whatever they found: the result is in the output.
//!
//! With `--suite DIR|FILE` it runs an ACTS suite instead (`conformance_acts.rs`).

use a2a_client::ErrorCode;
use a2a_types::v1::{
    CancelTaskRequest, GetExtendedAgentCardRequest, GetTaskRequest, ListTasksRequest, Message,
    SendMessageRequest, SendMessageResponse, StreamResponse, SubscribeToTaskRequest, Task,
    TaskPushNotificationConfig,
};
use clap::Args;
use futures_util::StreamExt as _;
use serde_json::json;

use crate::connect::{self, Agent, Trust};
use crate::diag::Diag;
use crate::error::CliError;
use crate::options::Common;
use crate::output::Out;
use crate::validate::{Severity, validate};

/// The arguments of `conformance`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ConformanceArgs {
    /// The text of the messages the checks send.
    #[arg(long, value_name = "TEXT", default_value = "ping")]
    pub(crate) message: String,
    /// Run an ACTS suite (the A2A Conformance Test Specification) instead of the smoke check: a
    /// directory (its suite.acts.yaml, e.g. $A2A_SPEC_DIR/acts) or one *.acts.yaml file.
    #[arg(long, value_name = "DIR|FILE")]
    pub(crate) suite: Option<std::path::PathBuf>,
    /// With --suite: the strictest level whose failures fail the run (must, should, may).
    #[arg(long, value_name = "LEVEL", default_value = "must", value_parser = super::conformance_acts::parse_level, requires = "suite")]
    pub(crate) level: a2a_acts::Level,
    /// With --suite: write the results as JUnit XML to FILE.
    #[arg(long, value_name = "FILE", requires = "suite")]
    pub(crate) junit: Option<std::path::PathBuf>,
    /// With --suite: known failures (a YAML list of id, bindings, reason, spec), reported as
    /// XFAIL (XPASS when they pass) and not failing the run.
    #[arg(long = "expect-fail", value_name = "FILE", requires = "suite")]
    pub(crate) expect_fail: Option<std::path::PathBuf>,
    /// With --suite: a variable for the suite, NAME=VALUE (webhookUrl, tokens); repeatable.
    #[arg(long = "var", value_name = "NAME=VALUE", requires = "suite")]
    pub(crate) vars: Vec<String>,
    /// With --suite: where the runner's webhook receiver listens (it receives the push
    /// deliveries the push tests check; not started when --var webhookUrl=... is given).
    #[arg(
        long = "webhook-addr",
        value_name = "ADDR",
        default_value = "127.0.0.1:0",
        requires = "suite"
    )]
    pub(crate) webhook_addr: std::net::SocketAddr,
    /// With --suite: the URL the agent is given for the runner's webhook receiver, when the
    /// agent is not on this host (e.g. http://203.0.113.5:9000, or a tunnel to --webhook-addr).
    /// Default: http://ADDR of --webhook-addr as bound.
    #[arg(long = "webhook-url", value_name = "URL", requires = "suite")]
    pub(crate) webhook_url: Option<String>,
    /// With --suite: how long a push test waits for its first delivery after its steps.
    #[arg(long = "webhook-wait", value_name = "DURATION", default_value = "10s", value_parser = crate::options::parse_duration, requires = "suite")]
    pub(crate) webhook_wait: std::time::Duration,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// How a check went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Pass,
    Fail,
    Skip,
}

struct Report {
    checks: Vec<(&'static str, Verdict, String)>,
}

impl Report {
    fn pass(&mut self, name: &'static str, detail: impl Into<String>) {
        self.checks.push((name, Verdict::Pass, detail.into()));
    }
    fn fail(&mut self, name: &'static str, detail: impl Into<String>) {
        self.checks.push((name, Verdict::Fail, detail.into()));
    }
    fn skip(&mut self, name: &'static str, detail: impl Into<String>) {
        self.checks.push((name, Verdict::Skip, detail.into()));
    }

    /// Passes when `outcome` is the A2A error `code`.
    fn expect_error<T>(
        &mut self,
        name: &'static str,
        outcome: Result<T, a2a_client::Error>,
        codes: &[ErrorCode],
    ) {
        let names: Vec<String> = codes.iter().map(ToString::to_string).collect();
        match outcome {
            Err(error) if error.code().is_some_and(|c| codes.contains(&c)) => {
                self.pass(name, format!("answered {}", error.code().expect("checked")));
            }
            Err(error) => self.fail(
                name,
                format!("expected {}, got: {error}", names.join(" or ")),
            ),
            Ok(_) => self.fail(
                name,
                format!("expected {}, the call succeeded", names.join(" or ")),
            ),
        }
    }
}

/// Runs `conformance`.
pub(crate) async fn run(args: &ConformanceArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    if let Some(suite) = &args.suite {
        let acts = super::conformance_acts::ActsArgs {
            suite,
            level: args.level,
            junit: args.junit.as_ref(),
            expect_fail: args.expect_fail.as_ref(),
            vars: &args.vars,
            webhook: a2a_acts::WebhookOptions::default()
                .with_addr(args.webhook_addr)
                .with_wait(args.webhook_wait),
            webhook_url: args.webhook_url.as_deref(),
        };
        return super::conformance_acts::run(acts, opts, diag).await;
    }
    let mut report = Report { checks: Vec::new() };
    let card = connect::resolve(opts, diag).await?;
    let errors: Vec<String> = validate(&card.raw)
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| p.to_string())
        .collect();
    if errors.is_empty() {
        report.pass(
            "card-schema",
            format!("the card at {} follows the 1.0 schema", card.source),
        );
    } else {
        report.fail("card-schema", errors.join("; "));
    }
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    let interface = agent.client.interface();
    report.pass(
        "interface",
        format!(
            "{} {} at {}",
            interface.protocol_binding,
            interface.protocol_version,
            agent.client.endpoint()
        ),
    );
    let task = send_checks(&mut report, &agent, &args.message).await;
    error_checks(&mut report, &agent, task.as_ref()).await;
    print(opts, &report, &agent, diag);
    Ok(())
}

async fn send_checks(report: &mut Report, agent: &Agent, text: &str) -> Option<Task> {
    let client = &agent.client;
    let mut task = None;
    match client
        .send_message(SendMessageRequest::new(Message::user_text(text)))
        .await
    {
        Ok(SendMessageResponse::Task(t)) => {
            if t.id.is_empty() || t.context_id.is_none() {
                report.fail("send-message", "the task has no id or no contextId");
            } else {
                report.pass(
                    "send-message",
                    format!("task {} is {}", t.id, crate::output::state(t.status.state)),
                );
            }
            task = Some(t);
        }
        Ok(SendMessageResponse::Message(m)) => {
            report.pass("send-message", format!("a direct message {}", m.message_id));
        }
        Ok(_) => report.fail("send-message", "an answer of an unknown kind"),
        Err(error) => report.fail("send-message", error.to_string()),
    }
    match &task {
        Some(t) => match client.get_task(GetTaskRequest::new(t.id.clone())).await {
            Ok(got) if got.id == t.id => report.pass(
                "get-task",
                format!(
                    "task {} is {}",
                    got.id,
                    crate::output::state(got.status.state)
                ),
            ),
            Ok(got) => report.fail("get-task", format!("asked for {}, got {}", t.id, got.id)),
            Err(error) => report.fail("get-task", error.to_string()),
        },
        None => report.skip("get-task", "the agent answered with a message, not a task"),
    }
    match client
        .list_tasks(ListTasksRequest::new().with_page_size(1))
        .await
    {
        Ok(page) => report.pass("list-tasks", format!("{} task(s) in all", page.total_size)),
        Err(error) => report.fail("list-tasks", error.to_string()),
    }
    if agent.card.card.capabilities.streaming == Some(true) {
        match client
            .send_streaming_message(SendMessageRequest::new(Message::user_text(text)))
            .await
        {
            Ok(mut stream) => {
                let mut first = None;
                let mut last = None;
                let mut failure = None;
                while let Some(item) = stream.next().await {
                    match item {
                        Ok(event) => {
                            if first.is_none() {
                                first = Some(event.clone());
                            }
                            last = Some(event);
                        }
                        Err(error) => {
                            failure = Some(error);
                            break;
                        }
                    }
                }
                match (first, last, failure) {
                    (_, _, Some(error)) => report.fail("send-streaming-message", error.to_string()),
                    (Some(StreamResponse::Task(_) | StreamResponse::Message(_)), Some(last), None) if last.is_final() => {
                        report.pass("send-streaming-message", "the first event is the task (or the message), the last is final");
                    }
                    (Some(_), _, None) => report.fail(
                        "send-streaming-message",
                        "the first event must be the Task (or a Message), and the stream must end on a final event",
                    ),
                    (None, _, None) => report.fail("send-streaming-message", "the stream had no event"),
                }
            }
            Err(error) => report.fail("send-streaming-message", error.to_string()),
        }
    } else {
        report.skip(
            "send-streaming-message",
            "the card does not advertise streaming",
        );
    }
    task
}

async fn error_checks(report: &mut Report, agent: &Agent, task: Option<&Task>) {
    let client = &agent.client;
    let missing = format!(
        "a2a-conformance-missing-{}",
        a2a_types::v1::TaskId::random()
    );
    report.expect_error(
        "task-not-found",
        client.get_task(GetTaskRequest::new(missing.as_str())).await,
        &[ErrorCode::TASK_NOT_FOUND],
    );
    match task {
        Some(t) if t.status.state.is_terminal() => {
            report.expect_error(
                "task-not-cancelable",
                client
                    .cancel_task(CancelTaskRequest::new(t.id.clone()))
                    .await,
                &[ErrorCode::TASK_NOT_CANCELABLE],
            );
            if agent.card.card.capabilities.streaming == Some(true) {
                report.expect_error(
                    "subscribe-ended-task",
                    client
                        .subscribe_to_task(SubscribeToTaskRequest::new(t.id.clone()))
                        .await,
                    &[ErrorCode::UNSUPPORTED_OPERATION],
                );
            } else {
                report.skip(
                    "subscribe-ended-task",
                    "the card does not advertise streaming",
                );
            }
        }
        _ => {
            report.skip("task-not-cancelable", "no task that ended to try it on");
            report.skip("subscribe-ended-task", "no task that ended to try it on");
        }
    }
    if agent.card.card.capabilities.push_notifications == Some(true) {
        report.skip(
            "push-not-supported",
            "the card advertises push notifications",
        );
    } else {
        let config = TaskPushNotificationConfig::new("https://example.com/webhook")
            .with_task_id(task.map_or_else(|| missing.as_str().into(), |t| t.id.clone()));
        report.expect_error(
            "push-not-supported",
            client.create_task_push_notification_config(config).await,
            &[ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED],
        );
    }
    if agent.card.card.capabilities.extended_agent_card == Some(true) {
        report.skip(
            "extended-card-unsupported",
            "the card advertises an extended card",
        );
    } else {
        report.expect_error(
            "extended-card-unsupported",
            client
                .get_extended_agent_card(GetExtendedAgentCardRequest::new())
                .await,
            &[
                ErrorCode::UNSUPPORTED_OPERATION,
                ErrorCode::EXTENDED_AGENT_CARD_NOT_CONFIGURED,
            ],
        );
    }
}

fn print(opts: &Common, report: &Report, agent: &Agent, diag: &Diag) {
    let count = |r: Verdict| report.checks.iter().filter(|c| c.1 == r).count();
    let (passed, failed, skipped) = (
        count(Verdict::Pass),
        count(Verdict::Fail),
        count(Verdict::Skip),
    );
    let mut out = Out::new(opts.output, false, opts.verbose);
    if out.json() {
        let checks: Vec<_> = report
            .checks
            .iter()
            .map(|(name, result, detail)| {
                let result = match result {
                    Verdict::Pass => "pass",
                    Verdict::Fail => "fail",
                    Verdict::Skip => "skip",
                };
                json!({"name": name, "result": result, "detail": detail})
            })
            .collect();
        out.value(&json!({
            "agent": agent.ctx.agent, "checks": checks,
            "passed": passed, "failed": failed, "skipped": skipped,
        }));
    } else {
        for (name, result, detail) in &report.checks {
            let label = match result {
                Verdict::Pass => "Pass",
                Verdict::Fail => "Fail",
                Verdict::Skip => "Skip",
            };
            out.field(label, &format!("{name}: {detail}"));
        }
        out.field(
            "Summary",
            &format!("{passed} passed, {failed} failed, {skipped} skipped"),
        );
    }
    if failed > 0 {
        diag.warn(&format!("{failed} conformance check(s) failed"));
    }
}
