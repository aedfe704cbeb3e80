//! `a2a inspect [-a AGENT] [--addr ADDR] [--open]`: a web inspector served from the binary.
//!
//! The page (`assets/`: plain HTML, CSS and a JavaScript module, embedded at build time) talks
//! to this backend only; the backend makes every call through a2a-client (so every binding and
//! protocol version the CLI speaks works, and the browser needs no CORS), and puts each call,
//! wire exchange (the [`session::Capture`] interceptor), stream event and push delivery into
//! the [`session::Session`], which the page follows over SSE.
//!
//! Security: the server listens on loopback unless `--addr` says otherwise; every path but the
//! push webhook is under `/<token>/`, a random token printed in the URL (anything else: 403);
//! a request whose `Origin` is not the inspector's own, or (on loopback) whose `Host` is not a
//! loopback name, gets 403. Credentials typed into the page live in the backend's memory for
//! the connection only, and are masked in the wire view.

mod session;

use std::collections::HashSet;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use a2a_client::push::{PushReceiver, Verifier, fetch_jwks, jwks_url};
use a2a_client::signature::{Outcome, TrustedKeys};
use a2a_client::{Interceptor, TaskStream};
use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest,
    SubscribeToTaskRequest, TaskPushNotificationConfig,
};
use bytes::Bytes;
use clap::Args;
use futures_util::StreamExt as _;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full, Limited, StreamBody};
use hyper::body::{Frame, Incoming};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{RwLock, Semaphore};

use self::session::{Capture, Session};
use crate::connect::{self, Agent, Trust};
use crate::diag::Diag;
use crate::error::{CliError, Code};
use crate::options::{Common, parse_transport};
use crate::output::Out;
use crate::validate::{Severity, validate};

/// The arguments of `a2a inspect`.
#[derive(Args, Debug, Clone)]
pub(crate) struct InspectArgs {
    /// The address to serve the inspector on; loopback by default (port 0 picks a free one). An
    /// address other machines can reach exposes it to them (the token still guards it).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub(crate) addr: String,
    /// Open the inspector's URL in the browser (xdg-open, open, start).
    #[arg(long)]
    pub(crate) open: bool,
    /// The most records (calls, wire exchanges, events, deliveries) the session keeps; the
    /// oldest go first, and the page says how many went.
    #[arg(long = "max-records", value_name = "N", default_value_t = 5000)]
    pub(crate) max_records: usize,
    /// The most streams (SendStreamingMessage, SubscribeToTask) followed at once.
    #[arg(long = "max-streams", value_name = "N", default_value_t = 16)]
    pub(crate) max_streams: usize,
    /// The largest request the page may send (a message with files), and the largest push
    /// delivery taken.
    #[arg(long = "max-body", value_name = "SIZE", default_value = "16MiB", value_parser = crate::options::parse_size)]
    pub(crate) max_body: usize,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The page's assets, embedded at build time.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

/// How often an idle event stream carries a comment (so that proxies and the page see it live).
const KEEPALIVE: Duration = Duration::from_secs(15);

/// The connection to the agent the page chose.
struct Conn {
    agent: Agent,
    /// What the card view shows (and the export carries).
    info: Value,
    /// The receiver of push deliveries for this agent.
    receiver: PushReceiver,
    /// The token its push configs carry.
    push_token: String,
}

/// The inspector: its session, its connection, its addresses.
struct Inspector {
    token: String,
    /// The origin the page is served from (`http://127.0.0.1:PORT`).
    origin: String,
    /// Host names accepted in `Host` (loopback, with the port), or `None` for any.
    hosts: Option<Vec<String>>,
    /// The path of the push webhook (`/push/<random>`).
    hook_path: String,
    session: Arc<Session>,
    conn: RwLock<Option<Arc<Conn>>>,
    /// Where the connection form starts, and the options a connection is built with.
    defaults: Common,
    streams: Arc<Semaphore>,
    max_streams: usize,
    max_body: usize,
    diag: Diag,
}

type Body = BoxBody<Bytes, Infallible>;
type Answer = Response<Body>;

fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).boxed()
}

fn answer(status: StatusCode, content_type: &str, body: impl Into<Bytes>) -> Answer {
    let mut response = Response::new(full(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Ok(value) = http::HeaderValue::from_str(content_type) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        http::HeaderValue::from_static("no-store"),
    );
    headers.insert(
        "x-content-type-options",
        http::HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        "referrer-policy",
        http::HeaderValue::from_static("no-referrer"),
    );
    response
}

fn json_answer(status: StatusCode, value: &Value) -> Answer {
    answer(status, "application/json", value.to_string())
}

fn forbidden(why: &str) -> Answer {
    answer(
        StatusCode::FORBIDDEN,
        "text/plain; charset=utf-8",
        format!("forbidden: {why}\n"),
    )
}

/// What the connection form sends.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ConnectForm {
    agent: String,
    transport: String,
    version: String,
    bearer: String,
    api_key: String,
    /// `Name: value` lines.
    headers: String,
}

impl Inspector {
    /// Answers one request.
    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> Answer {
        let path = request.uri().path().to_owned();
        if path == self.hook_path {
            return self.push_delivery(request).await;
        }
        if let Some(hosts) = &self.hosts {
            let host = request
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("");
            if !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
                return forbidden("the Host is not the inspector's");
            }
        }
        if let Some(origin) = request.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let own = self.origin == origin
                || self
                    .hosts
                    .as_ref()
                    .is_some_and(|hosts| hosts.iter().any(|h| format!("http://{h}") == origin));
            if !own {
                return forbidden("a request from another origin");
            }
        }
        let Some(rest) = path
            .strip_prefix('/')
            .and_then(|p| p.strip_prefix(self.token.as_str()))
        else {
            return forbidden("the URL lacks the inspector's token (use the URL it printed)");
        };
        let route = match rest {
            "" => {
                let mut response = answer(StatusCode::FOUND, "text/plain", "");
                if let Ok(to) = http::HeaderValue::from_str(&format!("/{}/", self.token)) {
                    response.headers_mut().insert(header::LOCATION, to);
                }
                return response;
            }
            other => match other.strip_prefix('/') {
                Some(route) => route.to_owned(),
                None => return forbidden("the URL lacks the inspector's token"),
            },
        };
        let method = request.method().clone();
        match (method, route.as_str()) {
            (Method::GET, "") => {
                let mut response = answer(StatusCode::OK, "text/html; charset=utf-8", INDEX_HTML);
                response.headers_mut().insert(
                    "content-security-policy",
                    http::HeaderValue::from_static(
                        "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                         script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
                    ),
                );
                response
            }
            (Method::GET, "app.js") => {
                answer(StatusCode::OK, "text/javascript; charset=utf-8", APP_JS)
            }
            (Method::GET, "app.css") => answer(StatusCode::OK, "text/css; charset=utf-8", APP_CSS),
            (Method::GET, "events") => self.events(),
            (Method::GET, "api/state") => json_answer(StatusCode::OK, &self.state().await),
            (Method::GET, "export") => {
                let export = self.session.export(self.state().await);
                let mut response = answer(
                    StatusCode::OK,
                    "application/json",
                    serde_json::to_string_pretty(&export).unwrap_or_default(),
                );
                response.headers_mut().insert(
                    header::CONTENT_DISPOSITION,
                    http::HeaderValue::from_static(
                        "attachment; filename=\"a2a-inspect-session.json\"",
                    ),
                );
                response
            }
            (Method::POST, api) if api.starts_with("api/") => {
                let body = match self.read_json(request).await {
                    Ok(body) => body,
                    Err(error) => {
                        return json_answer(StatusCode::BAD_REQUEST, &json!({"error": error}));
                    }
                };
                let outcome = self.api(&api["api/".len()..], body).await;
                match outcome {
                    Ok(result) => json_answer(StatusCode::OK, &json!({"result": result})),
                    Err(error) => json_answer(StatusCode::OK, &json!({"error": error})),
                }
            }
            _ => answer(StatusCode::NOT_FOUND, "text/plain", "not found\n"),
        }
    }

    async fn read_json(&self, request: Request<Incoming>) -> Result<Value, String> {
        let body = Limited::new(request.into_body(), self.max_body)
            .collect()
            .await
            .map_err(|e| {
                format!(
                    "the request body cannot be read (at most {} bytes): {e}",
                    self.max_body
                )
            })?
            .to_bytes();
        if body.is_empty() {
            return Ok(json!({}));
        }
        serde_json::from_slice(&body).map_err(|e| format!("the request body is not JSON: {e}"))
    }

    /// The connection form's defaults, the webhook, the connection.
    async fn state(&self) -> Value {
        let conn = self.conn.read().await.clone();
        json!({
            "defaults": {
                "agent": self.defaults.agent_card.clone().unwrap_or_default(),
                "transport": self.defaults.transports.first().cloned().unwrap_or_default(),
                "version": self.defaults.a2a_version,
            },
            "webhook": format!("{}{}", self.origin, self.hook_path),
            "maxStreams": self.max_streams,
            "card": conn.map(|c| c.info.clone()),
        })
    }

    /// The SSE stream of the session: every record so far, then each new one.
    fn events(&self) -> Answer {
        let (records, dropped, mut receiver) = self.session.subscribe();
        let (sender, taken) = tokio::sync::mpsc::channel::<Bytes>(64);
        tokio::spawn(async move {
            let frame =
                |event: &str, data: &str| Bytes::from(format!("event: {event}\ndata: {data}\n\n"));
            let hello = json!({"dropped": dropped, "records": records.len()});
            if sender
                .send(frame("hello", &hello.to_string()))
                .await
                .is_err()
            {
                return;
            }
            for record in records {
                if sender
                    .send(frame("record", &record.to_string()))
                    .await
                    .is_err()
                {
                    return;
                }
            }
            loop {
                let next = tokio::time::timeout(KEEPALIVE, receiver.recv()).await;
                let bytes = match next {
                    Err(_) => Bytes::from_static(b": keepalive\n\n"),
                    Ok(Ok(text)) => frame("record", &text),
                    // Too far behind: the page reconnects and reads the session again.
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => {
                        let _ = sender.send(frame("resync", "{}")).await;
                        return;
                    }
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) => return,
                };
                if sender.send(bytes).await.is_err() {
                    return;
                }
            }
        });
        let stream = futures_util::stream::unfold(taken, |mut taken| async move {
            taken
                .recv()
                .await
                .map(|bytes| (Ok::<_, Infallible>(Frame::data(bytes)), taken))
        });
        let mut response = Response::new(http_body_util::BodyExt::boxed(StreamBody::new(stream)));
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            http::HeaderValue::from_static("text/event-stream"),
        );
        headers.insert(
            header::CACHE_CONTROL,
            http::HeaderValue::from_static("no-store"),
        );
        response
    }

    async fn api(self: &Arc<Self>, op: &str, body: Value) -> Result<Value, String> {
        match op {
            "connect" => {
                let form: ConnectForm = serde_json::from_value(body)
                    .map_err(|e| format!("the connection form: {e}"))?;
                self.connect(form).await
            }
            "push" => self.register_push(body).await,
            "conformance" => conformance_hook(self.connection().await?.as_ref()),
            op => self.call(op, body).await,
        }
    }

    async fn connection(&self) -> Result<Arc<Conn>, String> {
        self.conn
            .read()
            .await
            .clone()
            .ok_or_else(|| "not connected: connect to an agent first".to_owned())
    }

    /// Reads the card (its findings and signature shown even when it cannot be used), then
    /// builds the client with the wire capture.
    async fn connect(&self, form: ConnectForm) -> Result<Value, String> {
        let mut opts = self.defaults.clone();
        let agent = form.agent.trim();
        if agent.is_empty() {
            return Err("name the agent: a host, a card URL or a card file".to_owned());
        }
        opts.agent_card = Some(agent.to_owned());
        if !form.transport.trim().is_empty() {
            opts.transports = vec![parse_transport(&form.transport)?];
        }
        if !form.version.trim().is_empty() {
            opts.a2a_version = form.version.trim().to_owned();
        }
        let secret = |text: &str| (!text.trim().is_empty()).then(|| text.trim().to_owned());
        if let Some(bearer) = secret(&form.bearer) {
            opts.bearer = Some(bearer);
        }
        if let Some(key) = secret(&form.api_key) {
            opts.api_key = Some(key);
        }
        let mut secret_headers = HashSet::new();
        for line in form.headers.lines().filter(|l| !l.trim().is_empty()) {
            if let Some((name, _)) = line.split_once(':') {
                secret_headers.insert(name.trim().to_ascii_lowercase());
            }
            opts.headers.push(line.trim().to_owned());
        }
        // The command's own: `--debug` logs the inspector's calls on stderr too.
        let diag = self.diag.clone();
        for secret in [&opts.bearer, &opts.api_key].into_iter().flatten() {
            diag.secret(secret);
        }
        self.session.add(
            "connect",
            json!({"agent": agent, "transport": opts.transports, "version": opts.a2a_version}),
        );
        let raw = connect::read(&opts, &diag)
            .await
            .map_err(|e| self.failed("connect", &e))?;
        let findings: Vec<Value> = validate(&raw.bytes)
            .into_iter()
            .map(|p| {
                json!({
                    "severity": if p.severity == Severity::Error { "error" } else { "warning" },
                    "path": p.path,
                    "message": p.message,
                })
            })
            .collect();
        let signature = self.signature(&opts, &diag, &raw).await;
        let document: Value = serde_json::from_slice(&raw.bytes).unwrap_or(Value::Null);
        let mut info = json!({
            "source": raw.source,
            "url": raw.url,
            "document": document,
            "findings": findings,
            "signature": signature,
        });
        let capture = Arc::new(Capture {
            session: self.session.clone(),
            binding: std::sync::OnceLock::new(),
            version: opts.a2a_version.clone(),
            secret_headers,
        });
        let interceptor: Arc<dyn Interceptor> = capture.clone();
        let connected =
            connect::connect_with(&opts, &diag, Trust::Lenient, Some(interceptor)).await;
        let agent = match connected {
            Ok(agent) => agent,
            Err(error) => {
                info["error"] = json!(error_text(&error));
                self.session.add("card", info.clone());
                *self.conn.write().await = None;
                return Ok(info);
            }
        };
        let interface = agent.client.interface().clone();
        let _ = capture.binding.set(interface.protocol_binding.clone());
        info["card"] = serde_json::to_value(&agent.card.card).unwrap_or(Value::Null);
        info["interface"] = json!({
            "binding": interface.protocol_binding,
            "version": interface.protocol_version,
            "url": agent.client.endpoint().to_string(),
            "spoken": opts.a2a_version,
        });
        let push_token = a2a_jose::random_id();
        let mut receiver = PushReceiver::new().expect_token(push_token.clone());
        let hook = format!("{}{}", self.origin, self.hook_path);
        info["push"] = match jwks_url(&agent.card.card) {
            Some(url) => match fetch_jwks(url, opts.timeout).await {
                Ok(keys) => {
                    let count = keys.keys.len();
                    receiver =
                        receiver.verify_with(Verifier::new(keys).with_audience(hook.clone()));
                    json!({"webhook": hook, "signed": format!("deliveries must be signed by a key of {url} ({count} keys)")})
                }
                Err(error) => {
                    json!({"webhook": hook, "signed": format!("the card names the JWKS {url}, which cannot be read ({error}): deliveries are refused")})
                }
            },
            None => {
                json!({"webhook": hook, "signed": "the card names no JWKS: deliveries are checked by their token only"})
            }
        };
        self.session.add("card", info.clone());
        self.session.note(format!(
            "connected to {}: {} {} at {}",
            info["source"].as_str().unwrap_or(""),
            interface.protocol_binding,
            opts.a2a_version,
            info["interface"]["url"].as_str().unwrap_or("")
        ));
        *self.conn.write().await = Some(Arc::new(Conn {
            agent,
            info: info.clone(),
            receiver,
            push_token,
        }));
        Ok(info)
    }

    async fn signature(&self, opts: &Common, diag: &Diag, raw: &connect::Raw) -> String {
        let Ok(document) = serde_json::from_slice::<Value>(&raw.bytes) else {
            return "absent (the card is not JSON)".to_owned();
        };
        let builder = match connect::builder(opts, diag) {
            Ok(builder) => builder,
            Err(error) => return format!("unverifiable: {}", error_text(&error)),
        };
        match builder
            .check_card(&document, raw.url.as_deref(), &[TrustedKeys::SameOriginJku])
            .await
        {
            Ok((Outcome::Absent, _)) => "absent".to_owned(),
            Ok((outcome @ Outcome::Verified { .. }, _)) => outcome.to_string(),
            Ok((outcome, problems)) => {
                let mut text = outcome.to_string();
                for problem in problems {
                    text.push_str("; ");
                    text.push_str(&problem);
                }
                text
            }
            Err(error) => format!("unverifiable: {error}"),
        }
    }

    fn failed(&self, op: &str, error: &CliError) -> String {
        let text = error_text(error);
        self.session.add("call", json!({"op": op, "error": text}));
        text
    }

    /// One operation, by its 1.0 name, the request as its 1.0 JSON.
    async fn call(self: &Arc<Self>, op: &str, body: Value) -> Result<Value, String> {
        let conn = self.connection().await?;
        let client = &conn.agent.client;
        let started = Instant::now();
        let mut body = body;
        // `"pushToInspector": true` on a send: the task's updates are pushed to the webhook.
        if let Some(object) = body.as_object_mut()
            && object.remove("pushToInspector") == Some(Value::Bool(true))
        {
            let config = json!({
                "url": format!("{}{}", self.origin, self.hook_path),
                "token": conn.push_token,
            });
            let configuration = object.entry("configuration").or_insert_with(|| json!({}));
            if let Some(configuration) = configuration.as_object_mut() {
                configuration.insert("taskPushNotificationConfig".into(), config);
            }
        }
        let request = body.clone();
        if op == "SendMessage" || op == "SendStreamingMessage" {
            self.session
                .add("user", json!({"op": op, "message": body.get("message")}));
        }
        let parse = |what: &str| format!("the {what} request is not valid");
        let outcome: Result<Value, String> = match op {
            "SendMessage" => {
                let req: SendMessageRequest = serde_json::from_value(body)
                    .map_err(|e| format!("{}: {e}", parse("SendMessage")))?;
                match client.send_message(req).await {
                    Ok(response) => {
                        let value = serde_json::to_value(&response).unwrap_or(Value::Null);
                        self.event("response", &value, None, 0);
                        Ok(value)
                    }
                    Err(error) => Err(error.to_string()),
                }
            }
            "SendStreamingMessage" | "SubscribeToTask" => {
                let permit = self.streams.clone().try_acquire_owned().map_err(|_| {
                    format!(
                        "{} streams are followed already (--max-streams): wait for one to end",
                        self.max_streams
                    )
                })?;
                let opened = if op == "SendStreamingMessage" {
                    let req: SendMessageRequest =
                        serde_json::from_value(body).map_err(|e| format!("{}: {e}", parse(op)))?;
                    client.send_streaming_message(req).await
                } else {
                    let req: SubscribeToTaskRequest =
                        serde_json::from_value(body).map_err(|e| format!("{}: {e}", parse(op)))?;
                    client.subscribe_to_task(req).await
                };
                match opened {
                    Ok(stream) => {
                        let me = self.clone();
                        let via = if op == "SendStreamingMessage" {
                            "stream"
                        } else {
                            "subscribe"
                        };
                        tokio::spawn(async move {
                            me.follow(stream, via).await;
                            drop(permit);
                        });
                        Ok(json!({"streaming": true}))
                    }
                    Err(error) => Err(error.to_string()),
                }
            }
            "GetTask" => {
                let req: GetTaskRequest =
                    serde_json::from_value(body).map_err(|e| format!("{}: {e}", parse(op)))?;
                client
                    .get_task(req)
                    .await
                    .map(|t| json!(t))
                    .map_err(|e| e.to_string())
            }
            "ListTasks" => {
                let req: ListTasksRequest =
                    serde_json::from_value(body).map_err(|e| format!("{}: {e}", parse(op)))?;
                client
                    .list_tasks(req)
                    .await
                    .map(|t| json!(t))
                    .map_err(|e| e.to_string())
            }
            "CancelTask" => {
                let req: CancelTaskRequest =
                    serde_json::from_value(body).map_err(|e| format!("{}: {e}", parse(op)))?;
                match client.cancel_task(req).await {
                    Ok(task) => {
                        let value = json!({"task": task});
                        self.event("response", &value, None, 0);
                        Ok(value["task"].clone())
                    }
                    Err(error) => Err(error.to_string()),
                }
            }
            other => Err(format!(
                "no operation `{other}`: SendMessage, SendStreamingMessage, GetTask, ListTasks, \
                 CancelTask, SubscribeToTask"
            )),
        };
        let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        match &outcome {
            Ok(response) => self.session.add(
                "call",
                json!({"op": op, "request": request, "response": response, "ms": ms}),
            ),
            Err(error) => self.session.add(
                "call",
                json!({"op": op, "request": request, "error": error, "ms": ms}),
            ),
        };
        outcome
    }

    /// Puts an event in the session (the timeline's).
    fn event(&self, via: &str, event: &Value, event_id: Option<&str>, reconnects: u32) {
        self.session.add(
            "event",
            json!({"via": via, "event": event, "eventId": event_id, "reconnects": reconnects}),
        );
    }

    /// Follows a stream to its end, each event into the session, a resume noted as such.
    async fn follow(&self, mut stream: TaskStream, via: &str) {
        let mut reconnects = 0;
        while let Some(item) = stream.next().await {
            if stream.reconnects() != reconnects {
                reconnects = stream.reconnects();
                self.session.add(
                    "resume",
                    json!({
                        "via": via,
                        "taskId": stream.task_id().map(|t| t.as_str().to_owned()),
                        "reconnects": reconnects,
                        "text": "the stream dropped and was resumed (SubscribeToTask with Last-Event-ID)",
                    }),
                );
            }
            match item {
                Ok(event) => {
                    let value = serde_json::to_value(&event).unwrap_or(Value::Null);
                    self.event(via, &value, stream.last_event_id(), reconnects);
                }
                Err(error) => {
                    self.session.add(
                        "streamError",
                        json!({"via": via, "error": error.to_string()}),
                    );
                    break;
                }
            }
        }
        self.session.add(
            "streamEnd",
            json!({"via": via, "taskId": stream.task_id().map(|t| t.as_str().to_owned())}),
        );
    }

    /// Registers the inspector's webhook as a push config of the task `{"taskId": ...}`.
    async fn register_push(&self, body: Value) -> Result<Value, String> {
        let conn = self.connection().await?;
        let task = body
            .get("taskId")
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
            .ok_or("name the task (taskId) whose updates are to be pushed")?;
        let url = format!("{}{}", self.origin, self.hook_path);
        let config = TaskPushNotificationConfig::new(url)
            .with_task_id(a2a_types::v1::TaskId::new(task.trim()))
            .with_token(conn.push_token.clone());
        let request = serde_json::to_value(&config).unwrap_or(Value::Null);
        let outcome = conn
            .agent
            .client
            .create_task_push_notification_config(config)
            .await
            .map(|c| json!(c))
            .map_err(|e| e.to_string());
        match &outcome {
            Ok(response) => self.session.add(
                "call",
                json!({"op": "CreateTaskPushNotificationConfig", "request": request, "response": response}),
            ),
            Err(error) => self.session.add(
                "call",
                json!({"op": "CreateTaskPushNotificationConfig", "request": request, "error": error}),
            ),
        };
        outcome
    }

    /// A delivery at the webhook: checked (token, signature), listed with the outcome.
    async fn push_delivery(&self, request: Request<Incoming>) -> Answer {
        let text = |status: StatusCode, what: &str| {
            answer(status, "text/plain; charset=utf-8", format!("{what}\n"))
        };
        if request.method() != Method::POST {
            return text(StatusCode::METHOD_NOT_ALLOWED, "deliveries are POSTed");
        }
        let (head, body) = request.into_parts();
        let body = match tokio::time::timeout(
            Duration::from_secs(10),
            Limited::new(body, self.max_body).collect(),
        )
        .await
        {
            Ok(Ok(collected)) => collected.to_bytes(),
            _ => return text(StatusCode::BAD_REQUEST, "the body cannot be read"),
        };
        let headers = session::headers(&head.headers, &HashSet::new());
        let shown = session::body(&body, false);
        let Some(conn) = self.conn.read().await.clone() else {
            self.session.add("push", json!({"accepted": false, "check": "not connected to an agent", "headers": headers, "body": shown}));
            return text(
                StatusCode::SERVICE_UNAVAILABLE,
                "the inspector is not connected",
            );
        };
        match conn.receiver.receive(&head.headers, &body) {
            Ok(delivery) => {
                let check = match &delivery.claims {
                    Some(claims) => format!(
                        "signature verified (task {}, jti {})",
                        claims.task_id, claims.jti
                    ),
                    None => "token matched; unsigned (the card names no JWKS)".to_owned(),
                };
                let event = serde_json::to_value(&delivery.event).unwrap_or(Value::Null);
                self.session.add(
                    "push",
                    json!({"accepted": true, "check": check, "headers": headers, "body": shown, "event": event}),
                );
                self.event("push", &event, None, 0);
                text(StatusCode::OK, "taken")
            }
            Err(error) => {
                self.session.add(
                    "push",
                    json!({"accepted": false, "check": error.to_string(), "headers": headers, "body": shown}),
                );
                text(error.status(), &error.to_string())
            }
        }
    }
}

/// The conformance view's hook: the ACTS runner (`a2a conformance` on the branch `acts`) is
/// to be called here with the connection's client, its results returned per test and
/// binding. Until that runner lands, the view says so.
fn conformance_hook(conn: &Conn) -> Result<Value, String> {
    let _ = &conn.agent;
    Err(
        "the ACTS conformance runner is not part of this build yet: the inspector calls it \
         through `conformance_hook` (crates/a2a-cli/src/commands/inspect/mod.rs) once it has \
         landed; meanwhile run `a2a conformance -a AGENT`"
            .to_owned(),
    )
}

fn error_text(error: &CliError) -> String {
    match &error.hint {
        Some(hint) => format!("{} (hint: {hint})", error.message),
        None => error.message.clone(),
    }
}

/// The tower service of the inspector.
#[derive(Clone)]
struct Service(Arc<Inspector>);

impl tower_service::Service<Request<Incoming>> for Service {
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

/// Runs `a2a inspect`: serves the inspector until interrupted.
pub(crate) async fn run(args: &InspectArgs, diag: &Diag) -> Result<(), CliError> {
    if args.max_records == 0 || args.max_streams == 0 {
        return Err(CliError::usage(
            "--max-records and --max-streams must be at least 1",
        ));
    }
    let (listener, at) = crate::serving::listen("--addr", &args.addr, false).await?;
    let bound = listener
        .local_addr()
        .map_err(|e| CliError::new(Code::Internal, format!("the address listened on: {e}")))?;
    let hosts = if bound.ip().is_loopback() {
        let port = bound.port();
        Some(vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
            bound.to_string(),
        ])
    } else {
        diag.warn(&format!(
            "the inspector listens on {bound}, which other machines may reach: only its token guards it"
        ));
        None
    };
    let token = a2a_jose::random_id();
    let inspector = Arc::new(Inspector {
        token: token.clone(),
        origin: at.clone(),
        hosts,
        hook_path: format!("/push/{}", a2a_jose::random_id()),
        session: Arc::new(Session::new(args.max_records)),
        conn: RwLock::new(None),
        defaults: args.common.clone(),
        streams: Arc::new(Semaphore::new(args.max_streams)),
        max_streams: args.max_streams,
        max_body: args.max_body,
        diag: diag.clone(),
    });
    let url = format!("{at}/{token}/");
    let mut printer = Out::new(crate::options::Format::Text, false, false);
    printer.raw_line(&format!("inspecting at {url} ; Ctrl-C stops"));
    if let Some(agent) = &args.common.agent_card {
        let form = ConnectForm {
            agent: agent.clone(),
            ..ConnectForm::default()
        };
        match inspector.connect(form).await {
            Ok(info) => {
                if let Some(error) = info.get("error").and_then(Value::as_str) {
                    diag.warn(&format!("cannot use the agent {agent}: {error}"));
                }
            }
            Err(error) => diag.warn(&format!("cannot connect to {agent}: {error}")),
        }
    }
    if args.open {
        open_browser(&url, diag);
    }
    let mut config = a2a_server::ServeConfig::default();
    config.shutdown_deadline = Duration::from_secs(1);
    a2a_server::serve_with_shutdown(
        listener,
        Service(inspector),
        crate::serving::shutdown_signal(),
        config,
    )
    .await
    .map_err(|err| CliError::new(Code::Internal, format!("the server failed: {err}")))
}

/// Opens `url` in the desktop's browser; a failure is a warning (the URL is printed).
fn open_browser(url: &str, diag: &Diag) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if let Err(error) = command.spawn() {
        diag.warn(&format!(
            "cannot open a browser ({error}): open the URL above yourself"
        ));
    }
}
