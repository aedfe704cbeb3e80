//! `a2a task push-config receive`: the A2A CLI specification's push-notification webhook
//! receiver (Tier 3, §9.2).
//!
//! It listens on an address of this machine (`--listen`, `127.0.0.1:0` by default), registers a
//! push config for the task with its own URL and a random token, and takes the agent's
//! deliveries until the task ends or needs the caller, as `task subscribe` takes a stream's
//! events:
//!
//! * Each delivery must carry the config's token (`X-A2A-Notification-Token`) and, when the
//!   agent's card names a JWKS (docs/push.md, "Signed deliveries"), a signature that verifies
//!   with its keys for this webhook's URL, recent and not seen before
//!   ([`a2a_client::push::PushReceiver`]). A refused delivery is answered 401 (400 for a body
//!   that is no event of this task) and named on stderr; it is never printed.
//! * A delivery sent twice (the agent delivers at least once) is printed once: the receiver
//!   remembers the SHA-256 of each body it took.
//! * With `--stream` each delivery is printed as it arrives (JSON Lines with `-o json`: one
//!   `StreamResponse` per line); without it, the task as it stands at the end.
//! * At the end (or on `--timeout`, Ctrl-C, an error) the config is deleted again.
//!
//! | limit | default | when it is reached |
//! |---|---|---|
//! | `--max-body` | 4 MiB | the delivery is answered 413 and named on stderr |
//! | `--max-deliveries` | 10 000 | the receiver stops with `A2ACLI_ERR_INTERNAL` |
//! | `--timeout` | 5 min | the receiver stops with `A2ACLI_ERR_TIMEOUT` (exit 5) |
//! | a delivery's body | 10 s to arrive | the delivery is answered 408 |
//! | connections at once | 16 | further ones wait in the listen backlog |

use std::collections::HashSet;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use a2a_client::push::{PushReceiver, Verifier, fetch_jwks, jwks_url};
use a2a_types::v1::{
    DeleteTaskPushNotificationConfigRequest, GetTaskRequest, StreamResponse, TaskId,
    TaskPushNotificationConfig,
};
use bytes::Bytes;
use clap::Args;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use tokio::sync::mpsc;

use crate::connect::{self, Agent, Trust, push_supported};
use crate::diag::Diag;
use crate::error::{CliError, Code, quote};
use crate::options::{Common, TaskIdArg, parse_size, show_size, task_id};
use crate::output::Out;
use crate::show::print_task;
use crate::wait::Waiter;

/// How long a delivery's body may take to arrive.
const BODY_TIME: Duration = Duration::from_secs(10);
/// The most connections the receiver serves at once.
const MAX_CONNECTIONS: usize = 16;
/// Deliveries taken but not printed yet: beyond them, the next delivery waits for its answer.
const QUEUE: usize = 16;
/// How many refused deliveries are named on stderr; later ones are counted only.
const MAX_REFUSALS_SHOWN: usize = 20;
/// How long the config's deletion at the end may take.
const CLEANUP_TIME: Duration = Duration::from_secs(5);

/// The arguments of `task push-config receive`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ReceiveArgs {
    #[command(flatten)]
    pub(crate) id: TaskIdArg,
    /// The address to listen on (port 0: a free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub(crate) listen: String,
    /// The URL the agent posts to, when it reaches this receiver another way than at the
    /// address listened on (a tunnel, a proxy); default `http://<ADDR>/a2a-push/<random>`.
    #[arg(long, value_name = "URL")]
    pub(crate) url: Option<String>,
    /// The token the agent sends with each delivery (default: a random one).
    #[arg(long, value_name = "TOKEN")]
    pub(crate) token: Option<String>,
    /// The largest delivery body taken; a larger one is answered 413.
    #[arg(long = "max-body", value_name = "SIZE", default_value = "4MiB", value_parser = parse_size)]
    pub(crate) max_body: usize,
    /// Stop (with an error) after this many deliveries.
    #[arg(long = "max-deliveries", value_name = "N", default_value_t = 10_000)]
    pub(crate) max_deliveries: usize,
    /// Print each delivery as it arrives (with -o json, one StreamResponse per line) instead of
    /// the task at the end.
    #[arg(long)]
    pub(crate) stream: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// Runs `task push-config receive`: listen, register the config, take the deliveries until the
/// task ends, delete the config, print the outcome.
pub(crate) async fn run(args: &ReceiveArgs, diag: &Diag) -> Result<(), CliError> {
    let opts = &args.common;
    let id = task_id(&args.id)?;
    if args.max_deliveries == 0 {
        return Err(CliError::usage("--max-deliveries must be at least 1"));
    }
    let agent = connect::connect(opts, diag, Trust::Lenient).await?;
    push_supported(&agent)?;
    let waiter = Waiter::new(&agent, opts, diag);
    waiter.seen.borrow_mut().task_id = Some(id.clone());

    let (listener, at) = crate::serving::listen("--listen", &args.listen, false).await?;
    let url = match &args.url {
        Some(url) => url.trim().to_owned(),
        None => format!("{at}/a2a-push/{}", a2a_jose::random_id()),
    };
    let path = webhook_path(&url)?;
    let token = args.token.clone().unwrap_or_else(a2a_jose::random_id);
    diag.secret(&token);
    diag.hide_header(a2a_types::protocol::headers::NOTIFICATION_TOKEN);
    let (receiver, signed) = checking_receiver(args, &agent, &waiter, &url, &token, diag).await?;

    let (deliveries, taken) = mpsc::channel(QUEUE);
    let hook = Hook(Arc::new(HookInner {
        path,
        task: id.clone(),
        receiver,
        max_body: args.max_body,
        max_seen: args.max_deliveries.saturating_add(QUEUE),
        seen: Mutex::new(HashSet::new()),
        deliveries,
        diag: diag.clone(),
        refusals: AtomicUsize::new(0),
    }));
    let server = Server::start(listener, hook);

    let push = TaskPushNotificationConfig::new(url.clone())
        .with_task_id(id.clone())
        .with_token(token);
    let created = match waiter
        .call(agent.client.create_task_push_notification_config(push))
        .await
    {
        Ok(created) => created,
        Err(error) => {
            server.stop().await;
            return Err(error);
        }
    };
    let config_id = created.id.clone().unwrap_or_default();
    diag.note(&format!(
        "receiving the push notifications of task {id} at {url} (push config {config_id}; {}) \
         until the task ends, --timeout or Ctrl-C",
        if signed {
            "each delivery signed"
        } else {
            "the agent's card names no JWKS: deliveries are checked by their token only"
        }
    ));

    let mut out = Out::new(opts.output, args.stream, opts.verbose);
    let outcome = take(args, &agent, &waiter, &id, taken, &mut out, diag).await;
    // `take` dropped the queue: deliveries from now on are answered 503 at once.
    delete(&agent, &id, &config_id, diag).await;
    server.stop().await;
    finish(args, &agent, &waiter, id, outcome?, &mut out, diag).await
}

/// The receiver that checks each delivery's token and, when the agent's card names a JWKS, its
/// signature; `true` when deliveries must be signed.
async fn checking_receiver(
    args: &ReceiveArgs,
    agent: &Agent,
    waiter: &Waiter<'_>,
    url: &str,
    token: &str,
    diag: &Diag,
) -> Result<(PushReceiver, bool), CliError> {
    let receiver = PushReceiver::new().expect_token(token.to_owned());
    let Some(jwks) = jwks_url(&agent.card.card) else {
        return Ok((receiver, false));
    };
    let timeout = args.common.timeout;
    let keys = waiter
        .bounded(async {
            fetch_jwks(jwks, timeout).await.map_err(|err| {
                CliError::new(
                    Code::Internal,
                    format!("cannot read the agent's JWKS at {jwks}: {err}"),
                )
                .hint("its card names it for its signed push deliveries (docs/push.md)")
            })
        })
        .await?;
    diag.debug(&format!(
        "deliveries must be signed with a key of {jwks} ({} keys)",
        keys.keys.len()
    ));
    let verifier = Verifier::new(keys)
        .with_audience(url.to_owned())
        .with_replay_capacity(args.max_deliveries.saturating_mul(2));
    Ok((receiver.verify_with(verifier), true))
}

/// The webhook server, running until [`Server::stop`].
struct Server {
    stop: tokio::sync::oneshot::Sender<()>,
    running: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Serves `hook` on `listener` with the receiver's bounds.
    fn start(listener: tokio::net::TcpListener, hook: Hook) -> Server {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let mut config = a2a_server::ServeConfig::default()
            .with_max_connections(MAX_CONNECTIONS)
            .with_idle_timeout(Duration::from_secs(30));
        config.header_read_timeout = BODY_TIME;
        config.shutdown_deadline = Duration::from_secs(1);
        let running = tokio::spawn(a2a_server::serve_with_shutdown(
            listener,
            hook,
            async {
                let _ = stopped.await;
            },
            config,
        ));
        Server { stop, running }
    }

    /// Stops serving, waiting at most 2 s for the connections to close.
    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = tokio::time::timeout(Duration::from_secs(2), self.running).await;
    }
}

/// Takes the deliveries (printing each with `--stream`) until one ends the task, the task had
/// ended already, or `--max-deliveries` is reached; `taken` is dropped on return.
async fn take(
    args: &ReceiveArgs,
    agent: &Agent,
    waiter: &Waiter<'_>,
    id: &TaskId,
    mut taken: mpsc::Receiver<StreamResponse>,
    out: &mut Out,
    diag: &Diag,
) -> Result<Ended, CliError> {
    let outcome = waiter
        .bounded(async {
            let now = agent
                .client
                .get_task(GetTaskRequest::new(id.clone()).with_history_length(0))
                .await
                .map_err(|e| waiter.error(&e))?;
            if now.status.state.is_terminal() {
                return Ok(Ended::Already(now));
            }
            waiter.seen.borrow_mut().task(&now);
            let mut count = 0usize;
            while let Some(event) = taken.recv().await {
                count += 1;
                waiter.seen.borrow_mut().event(&event, None);
                diag.debug(&format!(
                    "delivery {count}: {}",
                    serde_json::to_string(&event).unwrap_or_default()
                ));
                if args.stream {
                    out.event(&event, None);
                }
                if event.is_final() {
                    return Ok(Ended::Event(event));
                }
                if count >= args.max_deliveries {
                    return Err(too_many(count, agent, id));
                }
            }
            Err(CliError::new(
                Code::Internal,
                "the webhook receiver stopped",
            ))
        })
        .await;
    out.close();
    outcome
}

/// The error of `--max-deliveries` reached after `count` deliveries.
fn too_many(count: usize, agent: &Agent, id: &TaskId) -> CliError {
    let what = if count == 1 { "delivery" } else { "deliveries" };
    CliError::new(
        Code::Internal,
        format!(
            "stopped after {count} {what} for task {id}, the most --max-deliveries allows; the \
             task goes on"
        ),
    )
    .hint(format!(
        "raise --max-deliveries, or follow the task with `a2a task get -a {} --wait {}`",
        agent.reference(),
        quote(id.as_str())
    ))
}

/// Prints how the receiving ended: the task (or, with `--stream`, what the caller should know
/// after the last event).
async fn finish(
    args: &ReceiveArgs,
    agent: &Agent,
    waiter: &Waiter<'_>,
    id: TaskId,
    ended: Ended,
    out: &mut Out,
    diag: &Diag,
) -> Result<(), CliError> {
    match ended {
        Ended::Already(task) => {
            diag.note(&format!(
                "task {id} had ended ({}) when the push config was registered: no delivery to \
                 wait for",
                crate::output::state(task.status.state)
            ));
            if args.stream {
                let event = StreamResponse::Task(task);
                waiter.seen.borrow_mut().event(&event, None);
                out.event(&event, None);
                out.close();
                crate::follow::restate(waiter, out, Some(&event), diag);
            } else {
                print_task(out, diag, agent, &task, true, false);
            }
        }
        Ended::Event(last) => {
            if args.stream {
                crate::follow::restate(waiter, out, Some(&last), diag);
            } else {
                let task = waiter
                    .call(agent.client.get_task(GetTaskRequest::new(id)))
                    .await?;
                print_task(out, diag, agent, &task, true, false);
            }
        }
    }
    Ok(())
}

/// How the receiving ended.
enum Ended {
    /// The task had ended before the config was registered.
    Already(a2a_types::v1::Task),
    /// A delivery ended it: a terminal or interrupted status.
    Event(StreamResponse),
}

/// Deletes the receiver's config (the agent would post to a URL nobody listens on), within
/// [`CLEANUP_TIME`]; a failure is a warning.
async fn delete(agent: &Agent, task: &TaskId, config: &str, diag: &Diag) {
    if config.is_empty() {
        return;
    }
    let request = DeleteTaskPushNotificationConfigRequest::new(task.clone(), config);
    let deleted = tokio::time::timeout(
        CLEANUP_TIME,
        agent.client.delete_task_push_notification_config(request),
    )
    .await;
    let problem = match deleted {
        Ok(Ok(())) => {
            diag.debug(&format!("push config {config} of task {task} deleted"));
            return;
        }
        Ok(Err(error)) => error.to_string(),
        Err(_) => format!("no answer within {} s", CLEANUP_TIME.as_secs()),
    };
    diag.warn(&format!(
        "cannot delete push config {config} of task {task} ({problem}); delete it with `a2a task \
         push-config delete -a {} {} {}`",
        agent.reference(),
        quote(task.as_str()),
        quote(config)
    ));
}

/// The path of the webhook URL, which deliveries must be posted to.
fn webhook_path(url: &str) -> Result<String, CliError> {
    let uri: http::Uri = url
        .parse()
        .map_err(|err| CliError::usage(format!("--url `{url}` is not a URL: {err}")))?;
    match uri.scheme_str() {
        Some("http" | "https") if uri.host().is_some() => Ok(uri.path().to_owned()),
        _ => Err(CliError::usage(format!(
            "--url `{url}` is not an absolute http or https URL"
        ))),
    }
}

/// The task an event is about.
fn task_of(event: &StreamResponse) -> Option<&TaskId> {
    match event {
        StreamResponse::Task(task) => Some(&task.id),
        StreamResponse::StatusUpdate(update) => Some(&update.task_id),
        StreamResponse::ArtifactUpdate(update) => Some(&update.task_id),
        StreamResponse::Message(message) => message.task_id.as_ref(),
        _ => None,
    }
}

/// The webhook: a tower service of hyper's requests for `a2a_server::serve_with_shutdown`.
#[derive(Clone)]
struct Hook(Arc<HookInner>);

struct HookInner {
    /// The only path deliveries are taken at.
    path: String,
    /// The task whose deliveries are taken.
    task: TaskId,
    receiver: PushReceiver,
    max_body: usize,
    /// The most bodies remembered (the deliveries allowed, and those queued).
    max_seen: usize,
    /// The SHA-256 of each body taken.
    seen: Mutex<HashSet<[u8; 32]>>,
    deliveries: mpsc::Sender<StreamResponse>,
    diag: Diag,
    refusals: AtomicUsize,
}

type Answer = Response<Full<Bytes>>;

fn answer(status: StatusCode, text: &str) -> Answer {
    let mut response = Response::new(Full::new(Bytes::from(format!("{text}\n"))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

impl HookInner {
    /// A refused delivery: named on stderr (the first [`MAX_REFUSALS_SHOWN`]), answered with
    /// `status`.
    fn refuse(&self, status: StatusCode, why: &str) -> Answer {
        let n = self.refusals.fetch_add(1, Ordering::Relaxed) + 1;
        if n <= MAX_REFUSALS_SHOWN {
            self.diag.warn(&format!(
                "a delivery was refused ({}): {why}",
                status.as_u16()
            ));
        }
        if n == MAX_REFUSALS_SHOWN {
            self.diag
                .warn("further refused deliveries are not named (--debug shows them)");
        } else if n > MAX_REFUSALS_SHOWN {
            self.diag.debug(&format!(
                "a delivery was refused ({}): {why}",
                status.as_u16()
            ));
        }
        answer(status, why)
    }

    async fn handle(&self, request: Request<Incoming>) -> Answer {
        let (head, body) = request.into_parts();
        if head.uri.path() != self.path {
            return answer(StatusCode::NOT_FOUND, "no webhook here");
        }
        if head.method != Method::POST {
            return answer(StatusCode::METHOD_NOT_ALLOWED, "deliveries are POSTed");
        }
        let read = tokio::time::timeout(BODY_TIME, Limited::new(body, self.max_body).collect());
        let body = match read.await {
            Err(_) => {
                return self.refuse(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!("its body did not arrive within {} s", BODY_TIME.as_secs()),
                );
            }
            Ok(Err(err)) if err.downcast_ref::<LengthLimitError>().is_some() => {
                return self.refuse(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &format!(
                        "its body is larger than {} (--max-body)",
                        show_size(self.max_body)
                    ),
                );
            }
            Ok(Err(err)) => {
                return self.refuse(
                    StatusCode::BAD_REQUEST,
                    &format!("its body cannot be read: {err}"),
                );
            }
            Ok(Ok(collected)) => collected.to_bytes(),
        };
        self.diag.inbound("push delivery", &head, &body);
        let delivery = match self.receiver.receive(&head.headers, &body) {
            Ok(delivery) => delivery,
            Err(err) => return self.refuse(err.status(), &err.to_string()),
        };
        match task_of(&delivery.event) {
            Some(task) if *task == self.task => {}
            other => {
                let about = other.map_or_else(|| "no task".to_owned(), |t| format!("task {t}"));
                return self.refuse(
                    StatusCode::BAD_REQUEST,
                    &format!("it is about {about}, not task {}", self.task),
                );
            }
        }
        {
            let mut seen = self
                .seen
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if seen.len() >= self.max_seen {
                return answer(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the receiver took as many deliveries as it takes",
                );
            }
            if !seen.insert(a2a_jose::sha256(&body)) {
                self.diag
                    .debug("a delivery came again (the agent delivers at least once): shown once");
                return answer(StatusCode::OK, "taken before");
            }
        }
        if self.deliveries.send(delivery.event).await.is_err() {
            return answer(StatusCode::SERVICE_UNAVAILABLE, "the receiver is stopping");
        }
        answer(StatusCode::OK, "taken")
    }
}

impl tower_service::Service<Request<Incoming>> for Hook {
    type Response = Answer;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Answer, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Incoming>) -> Self::Future {
        let inner = self.0.clone();
        Box::pin(async move { Ok(inner.handle(request).await) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhook_urls() {
        assert_eq!(
            webhook_path("http://127.0.0.1:9/a2a-push/x").unwrap(),
            "/a2a-push/x"
        );
        assert_eq!(webhook_path("https://hook.example").unwrap(), "/");
        assert_eq!(
            webhook_path("ftp://h/x").unwrap_err().message,
            "--url `ftp://h/x` is not an absolute http or https URL"
        );
        assert_eq!(webhook_path("/x").unwrap_err().code, Code::Usage);
    }
}
