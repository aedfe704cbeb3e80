//! What `a2a serve` and `a2a mock` say on stderr while they run: the request log, and the
//! server's own warnings.
//!
//! The log has one line per operation a request made (a JSON-RPC batch: one per call), one per
//! request that reached no operation (the card, a refused or unknown one), and one per task an
//! agent ended unsuccessfully, with its reason:
//!
//! ```text
//! 2026-12-03T10:15:02.123Z JSONRPC SendMessage 0f1c…-… 3.1ms ok
//! 2026-12-03T10:15:02.301Z HTTP+JSON GetTask nope 0.4ms error: task nope not found
//! 2026-12-03T10:15:02.350Z HTTP GET /.well-known/agent-card.json 0.2ms HTTP 200
//! 2026-12-03T10:15:03.002Z task 0f1c…-… FAILED: `make` exited with status 2
//! ```
//!
//! Time (UTC), binding (`JSONRPC`, `HTTP+JSON`, `GRPC`), operation, task id (`-` when the call
//! names none), the time to the answer's head (for a stream: until it starts), and the outcome:
//! `ok`, or the error the caller got. It is made of a2a-server's `tracing` spans, read by a
//! [`Layer`] here: `a2a.request` (its `a2a.binding`), `a2a.call` (`a2a.method`, `a2a.task_id`,
//! and the error event of a failed call), the agent's end (`reason`); [`Logged`] wraps the
//! served service in a span of its own per HTTP request, which says when the answer is ready.
//!
//! `-q` leaves the log out; `-v` adds the server's debug events (connections, push deliveries),
//! `-vv` everything down to trace; `RUST_LOG` (`target=level,...`) chooses those events itself.

use std::fmt::Write as _;
use std::future::Future;
use std::io::Write as _;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Instrument as _, Level, Subscriber};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::{Context as LayerContext, SubscriberExt as _};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{Layer, Registry};

use crate::error::{CliError, Code};

/// The target of the events and spans of [`Logged`].
const TARGET: &str = "a2a_cli::request_log";
/// The span [`Logged`] opens per HTTP request.
const REQUEST: &str = "a2a_cli.request";
/// The message of a2a-server's event when an agent ends its task failed or rejected.
const ENDED_BY_AGENT: &str = "the agent ended the task";
/// The message of a2a-server's event when an agent fails (an error, a panic): the task fails.
const AGENT_FAILED: &str = "agent failed";
/// The longest error or reason text a line keeps.
const MAX_TEXT: usize = 500;

/// How much `a2a serve` and `a2a mock` say on stderr.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct LogArgs {
    /// Print no request log on stderr (the banner and errors only).
    #[arg(short, long, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Also print the server's own events on stderr: -v its debug events (connections, push
    /// deliveries), -vv everything down to trace. RUST_LOG (`target=level,...`, e.g.
    /// `a2a_server=debug,warn`) chooses them instead.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub(crate) verbose: u8,
}

/// A layer to put under the log's, typed for the registry (the OTLP export's).
pub(crate) type Extra = Box<dyn Layer<Registry> + Send + Sync>;

/// Installs the global `tracing` subscriber of a server command: `extra` (the OTLP export's
/// layer) if any, the request log unless `-q`, and the server's own events on stderr (warnings
/// and errors; more with `-v` or `RUST_LOG`).
pub(crate) fn install(args: &LogArgs, extra: Option<Extra>) -> Result<(), CliError> {
    let events = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => {
            directives.parse::<Targets>().map_err(|err| {
                CliError::usage(format!("RUST_LOG `{directives}` is not understood: {err}"))
                    .hint("give targets and levels, e.g. RUST_LOG=a2a_server=debug,warn")
            })?
        }
        _ => events_by_default(args),
    }
    // The request log's own events are its lines, not events to show.
    .with_target(TARGET, LevelFilter::OFF);
    let log = (!args.quiet).then(|| {
        RequestLog::new(stderr_line).with_filter(
            Targets::new()
                .with_target("a2a_server", Level::INFO)
                .with_target("a2a_cli", Level::INFO),
        )
    });
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(events);
    let subscriber = tracing_subscriber::registry()
        .with(extra)
        .with(log)
        .with(fmt);
    tracing::subscriber::set_global_default(subscriber).map_err(|err| {
        CliError::new(
            Code::Internal,
            format!("cannot install the server's log: {err}"),
        )
    })
}

/// The server's events shown beside the request log: warnings and errors (the agent failures
/// the log says already left out), debug with `-v`, everything with `-vv`.
fn events_by_default(args: &LogArgs) -> Targets {
    let ours = [
        "a2a_server",
        "a2a_grpc",
        "a2a_store_sql",
        "a2a_otel",
        "a2a_cli",
    ];
    let (level, others) = match args.verbose {
        0 => (Level::WARN, Level::WARN),
        1 => (Level::DEBUG, Level::WARN),
        _ => (Level::TRACE, Level::DEBUG),
    };
    let mut targets = Targets::new().with_default(others);
    for target in ours {
        targets = targets.with_target(target, level);
    }
    if args.verbose == 0 && !args.quiet {
        // "agent failed": the log's task line says it.
        targets = targets.with_target("a2a_server::handler::execution", Level::ERROR);
    }
    targets
}

/// Writes one line of the log on stderr, whole.
fn stderr_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// The service a server command serves, wrapped: each HTTP request in a span of its own
/// (`a2a_cli.request`, with its method, path and whether it is gRPC), and an event in it when
/// the answer's head is ready, which ends the request's lines of the log.
#[derive(Clone, Debug)]
pub(crate) struct Logged<S>(pub(crate) S);

impl<S, B, R> tower_service::Service<http::Request<B>> for Logged<S>
where
    S: tower_service::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
{
    type Response = http::Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let grpc = request
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.get(..a2a_types::protocol::content_type::GRPC.len())
                    .is_some_and(|p| {
                        p.eq_ignore_ascii_case(a2a_types::protocol::content_type::GRPC)
                    })
            });
        let span = tracing::info_span!(
            target: TARGET,
            REQUEST,
            method = %request.method(),
            path = %request.uri().path(),
            grpc,
        );
        let answer = span.in_scope(|| self.0.call(request));
        Box::pin(async move {
            let response = answer.instrument(span.clone()).await?;
            tracing::info!(target: TARGET, parent: &span, status = response.status().as_u16(), "answered");
            Ok(response)
        })
    }
}

/// The request log: a [`Layer`] that writes its lines through `write`.
pub(crate) struct RequestLog<W> {
    write: W,
}

impl<W: Fn(&str)> RequestLog<W> {
    /// The log, each line handed to `write`.
    pub(crate) fn new(write: W) -> Self {
        Self { write }
    }
}

/// What the log keeps of one HTTP request (in its `a2a_cli.request` span).
#[derive(Debug)]
struct RequestRecord {
    started: Instant,
    method: String,
    path: String,
    grpc: bool,
    /// `JSONRPC` or `HTTP+JSON`, as the server's `a2a.request` span says.
    binding: Mutex<Option<String>>,
    calls: Mutex<Vec<Arc<Mutex<CallRecord>>>>,
}

/// What the log keeps of one operation (an `a2a.call` span).
#[derive(Debug, Default)]
struct CallRecord {
    operation: String,
    task: Option<String>,
    error: Option<String>,
}

/// The task of an `a2a.agent` span.
#[derive(Debug)]
struct AgentTask(String);

/// The fields of a span or an event the log reads.
#[derive(Debug, Default)]
struct Fields {
    method: Option<String>,
    path: Option<String>,
    grpc: Option<bool>,
    binding: Option<String>,
    operation: Option<String>,
    task: Option<String>,
    state: Option<String>,
    error: Option<String>,
    reason: Option<String>,
    message: Option<String>,
    status: Option<u64>,
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.set(field, value.to_owned());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        if field.name() == "grpc" {
            self.grpc = Some(value);
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "status" {
            self.status = Some(value);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.set(field, format!("{value:?}"));
    }
}

impl Fields {
    fn set(&mut self, field: &Field, value: String) {
        let slot = match field.name() {
            "method" => &mut self.method,
            "path" => &mut self.path,
            "a2a.binding" => &mut self.binding,
            "a2a.method" => &mut self.operation,
            "a2a.task_id" => &mut self.task,
            "a2a.state" => &mut self.state,
            "error" => &mut self.error,
            "reason" => &mut self.reason,
            "message" => &mut self.message,
            _ => return,
        };
        *slot = Some(value);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<S, W> Layer<S> for RequestLog<W>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    W: Fn(&str) + Send + Sync + 'static,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: LayerContext<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        match span.name() {
            REQUEST => {
                span.extensions_mut().insert(RequestRecord {
                    started: Instant::now(),
                    method: fields.method.unwrap_or_default(),
                    path: fields.path.unwrap_or_default(),
                    grpc: fields.grpc.unwrap_or(false),
                    binding: Mutex::new(None),
                    calls: Mutex::new(Vec::new()),
                });
            }
            "a2a.call" => {
                let call = Arc::new(Mutex::new(CallRecord {
                    operation: fields.operation.unwrap_or_default(),
                    task: fields.task,
                    error: None,
                }));
                // The request it belongs to: a binding's calls are under its `a2a.request`, the
                // gRPC ones straight under the request of `Logged`.
                if let Some(request) = span.scope().skip(1).find(|s| s.name() == REQUEST)
                    && let Some(record) = request.extensions().get::<RequestRecord>()
                {
                    lock(&record.calls).push(call.clone());
                }
                span.extensions_mut().insert(call);
            }
            "a2a.agent" => {
                if let Some(task) = fields.task {
                    span.extensions_mut().insert(AgentTask(task));
                }
            }
            _ => {}
        }
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: LayerContext<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut fields = Fields::default();
        values.record(&mut fields);
        match span.name() {
            "a2a.request" => {
                if let Some(binding) = fields.binding
                    && let Some(request) = span.scope().skip(1).find(|s| s.name() == REQUEST)
                    && let Some(record) = request.extensions().get::<RequestRecord>()
                {
                    *lock(&record.binding) = Some(binding);
                }
            }
            "a2a.call" => {
                if let Some(task) = fields.task
                    && let Some(call) = span.extensions().get::<Arc<Mutex<CallRecord>>>()
                {
                    lock(call).task = Some(task);
                }
            }
            _ => {}
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: LayerContext<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        let span = ctx.event_span(event);
        if let Some(span) = &span {
            // The answer of a request is ready: its lines.
            if span.name() == REQUEST && event.metadata().target() == TARGET {
                if let Some(record) = span.extensions().get::<RequestRecord>() {
                    for line in request_lines(record, fields.status, SystemTime::now()) {
                        (self.write)(&line);
                    }
                }
                return;
            }
            // The error a call answers with (its `err` event).
            if span.name() == "a2a.call" && fields.error.is_some() {
                if let Some(call) = span.extensions().get::<Arc<Mutex<CallRecord>>>() {
                    lock(call).error = fields.error;
                }
                return;
            }
        }
        // A task the agent ended unsuccessfully (the sink's event, which names the task), or an
        // agent that failed (its error, or a panic: in the agent's span).
        let ended = event.metadata().target().starts_with("a2a_server")
            && matches!(
                fields.message.as_deref(),
                Some(ENDED_BY_AGENT | AGENT_FAILED)
            );
        if !ended {
            return;
        }
        let task = fields.task.or_else(|| {
            span?
                .scope()
                .find_map(|s| s.extensions().get::<AgentTask>().map(|t| t.0.clone()))
        });
        let (Some(task), Some(reason)) = (task, fields.reason) else {
            return;
        };
        let state = fields
            .state
            .as_deref()
            .map_or("FAILED".to_owned(), state_name);
        (self.write)(&format!(
            "{} task {task} {state}: {}",
            utc(SystemTime::now()),
            clean(&reason)
        ));
    }
}

/// The lines of an answered request: one per call; a request that made none, one of its own.
fn request_lines(record: &RequestRecord, status: Option<u64>, now: SystemTime) -> Vec<String> {
    let time = utc(now);
    let took = took(record.started.elapsed());
    let binding = lock(&record.binding)
        .clone()
        .unwrap_or_else(|| if record.grpc { "GRPC" } else { "HTTP" }.to_owned());
    let calls = lock(&record.calls);
    if calls.is_empty() {
        let status = status.map_or_else(|| "-".to_owned(), |s| s.to_string());
        return vec![format!(
            "{time} {binding} {} {} {took} HTTP {status}",
            record.method, record.path
        )];
    }
    calls
        .iter()
        .map(|call| {
            let call = lock(call);
            let outcome = match &call.error {
                None => "ok".to_owned(),
                Some(error) => format!("error: {}", clean(error)),
            };
            format!(
                "{time} {binding} {} {} {took} {outcome}",
                call.operation,
                call.task.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

/// `TASK_STATE_FAILED` for the state as a2a-server's spans debug-print it (`Failed`,
/// `InputRequired`).
fn state_name(debug: &str) -> String {
    let mut name = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            name.push('_');
        }
        name.push(c.to_ascii_uppercase());
    }
    name
}

/// A duration as the log shows it: milliseconds with one decimal.
fn took(duration: Duration) -> String {
    format!("{:.1}ms", duration.as_secs_f64() * 1000.0)
}

/// Text from a caller or an agent on one line: control characters escaped (`\n`), at most
/// [`MAX_TEXT`] characters.
fn clean(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX_TEXT {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `2026-12-03T10:15:02.123Z`.
fn utc(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil(i64::try_from(days).unwrap_or(0));
    let mut out = String::new();
    let _ = write!(
        out,
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    );
    out
}

/// The date of a day counted from 1970-01-01 (the proleptic Gregorian calendar; the
/// days-to-civil algorithm of Howard Hinnant's `chrono`-compatible date library).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_utc_with_milliseconds() {
        let at = |secs: u64, millis: u64| {
            utc(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(1_796_294_102, 123), "2026-12-03T10:35:02.123Z");
        assert_eq!(at(4_107_542_399, 999), "2100-02-28T23:59:59.999Z");
    }

    #[test]
    fn states_and_texts_read_on_one_line() {
        assert_eq!(state_name("Failed"), "FAILED");
        assert_eq!(state_name("InputRequired"), "INPUT_REQUIRED");
        assert_eq!(clean("exited 3:\nbroke\u{1b}"), "exited 3:\\nbroke\\u{1b}");
        assert_eq!(clean(&"x".repeat(600)).chars().count(), MAX_TEXT + 1);
        assert_eq!(took(Duration::from_micros(3_140)), "3.1ms");
    }

    /// The lines the layer writes for spans shaped as a2a-server's, without a server.
    #[test]
    fn calls_requests_and_failed_tasks_make_lines() {
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let kept = lines.clone();
        let log = RequestLog::new(move |line: &str| lock(&kept).push(line.to_owned()));
        let subscriber = tracing_subscriber::registry().with(log);
        tracing::subscriber::with_default(subscriber, || {
            // A JSON-RPC batch of two calls, one failing.
            let request = tracing::info_span!(target: TARGET, REQUEST, method = "POST", path = "/", grpc = false);
            request.in_scope(|| {
                let server =
                    tracing::info_span!("a2a.request", a2a.binding = tracing::field::Empty);
                server.in_scope(|| {
                    tracing::Span::current().record("a2a.binding", "JSONRPC");
                    let send = tracing::info_span!(
                        "a2a.call",
                        a2a.method = "SendMessage",
                        a2a.task_id = tracing::field::Empty
                    );
                    send.in_scope(|| {
                        tracing::Span::current().record("a2a.task_id", "t-1");
                        let agent = tracing::info_span!("a2a.agent", a2a.task_id = "t-1");
                        agent.in_scope(|| {
                            tracing::warn!(
                                target: "a2a_server::handler::execution",
                                reason = "the agent panicked: boom",
                                "agent failed"
                            );
                        });
                    });
                    let get = tracing::info_span!(
                        "a2a.call",
                        a2a.method = "GetTask",
                        a2a.task_id = "nope"
                    );
                    get.in_scope(|| tracing::info!(error = "task nope not found"));
                });
            });
            tracing::info!(target: TARGET, parent: &request, status = 200u64, "answered");
            // gRPC: the call straight under the request.
            let request = tracing::info_span!(target: TARGET, REQUEST, method = "POST", path = "/lf.a2a.v1.A2AService/CancelTask", grpc = true);
            request.in_scope(|| {
                let _call =
                    tracing::info_span!("a2a.call", a2a.method = "CancelTask", a2a.task_id = "t-2")
                        .entered();
            });
            tracing::info!(target: TARGET, parent: &request, status = 200u64, "answered");
            // No operation: the card.
            let request = tracing::info_span!(target: TARGET, REQUEST, method = "GET", path = "/.well-known/agent-card.json", grpc = false);
            tracing::info!(target: TARGET, parent: &request, status = 200u64, "answered");
            // The sink's event of a task the agent rejected, outside any span.
            tracing::info!(target: "a2a_server::agent", reason = "not for me", a2a.task_id = "t-3", a2a.state = ?a2a_types::v1::TaskState::Rejected, "the agent ended the task");
            // Another event with a reason is no task's end.
            tracing::warn!(target: "a2a_server::store::outbox", reason = "gone", a2a.task_id = "t-3", "push delivery dropped");
        });
        let lines: Vec<String> = lock(&lines)
            .iter()
            .map(|line| {
                // The time (first word) and the duration (`N.Nms`) vary.
                let mut words: Vec<&str> = line.split(' ').collect();
                words[0] = "TIME";
                for word in &mut words {
                    if word.ends_with("ms") && word[..word.len() - 2].parse::<f64>().is_ok() {
                        *word = "D";
                    }
                }
                words.join(" ")
            })
            .collect();
        assert_eq!(
            lines,
            [
                "TIME task t-1 FAILED: the agent panicked: boom",
                "TIME JSONRPC SendMessage t-1 D ok",
                "TIME JSONRPC GetTask nope D error: task nope not found",
                "TIME GRPC CancelTask t-2 D ok",
                "TIME HTTP GET /.well-known/agent-card.json D HTTP 200",
                "TIME task t-3 REJECTED: not for me",
            ]
        );
    }
}
