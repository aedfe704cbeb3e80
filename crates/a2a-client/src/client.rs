//! [`A2aClient`]: the eleven A2A 1.0 operations over JSON-RPC.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use a2a_jsonrpc::{Id, Request, Response};
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, MessageId, Role, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};
use bytes::Bytes;
use http::{HeaderValue, Method, header};
use http_body_util::BodyExt as _;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::interceptor::{CallInfo, Interceptor};
use crate::stream::{SseBody, TaskStream};
use crate::transport::Http;
use crate::{Error, RetryPolicy, card};

/// The protocol version this client speaks, sent as `A2A-Version` with every request.
pub const PROTOCOL_VERSION: &str = "1.0";

/// The JSON-RPC method names of A2A 1.0.
pub(crate) mod method {
    pub(crate) const SEND_MESSAGE: &str = "SendMessage";
    pub(crate) const SEND_STREAMING_MESSAGE: &str = "SendStreamingMessage";
    pub(crate) const GET_TASK: &str = "GetTask";
    pub(crate) const LIST_TASKS: &str = "ListTasks";
    pub(crate) const CANCEL_TASK: &str = "CancelTask";
    pub(crate) const SUBSCRIBE_TO_TASK: &str = "SubscribeToTask";
    pub(crate) const CREATE_PUSH_CONFIG: &str = "CreateTaskPushNotificationConfig";
    pub(crate) const GET_PUSH_CONFIG: &str = "GetTaskPushNotificationConfig";
    pub(crate) const LIST_PUSH_CONFIGS: &str = "ListTaskPushNotificationConfigs";
    pub(crate) const DELETE_PUSH_CONFIG: &str = "DeleteTaskPushNotificationConfig";
    pub(crate) const GET_EXTENDED_AGENT_CARD: &str = "GetExtendedAgentCard";
}

/// Which failures a call may be retried on (see [`RetryPolicy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Retry {
    /// Idempotent: any transient failure.
    Idempotent,
    /// A send with a fixed `messageId`: any transient failure but a timeout of the call.
    Send,
    /// Only when the request never left (connection refused).
    ConnectOnly,
}

impl Retry {
    fn allows(self, error: &Error) -> bool {
        match self {
            Retry::Idempotent => error.is_transient(),
            Retry::Send => error.is_transient() && !matches!(error, Error::Timeout(_)),
            Retry::ConnectOnly => error.is_connect(),
        }
    }
}

/// What the builder settles.
pub(crate) struct Settings {
    pub(crate) connect_timeout: Option<Duration>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) retry: RetryPolicy,
    pub(crate) stream_reconnects: u32,
    pub(crate) stream_idle_timeout: Option<Duration>,
    pub(crate) interceptors: Vec<Arc<dyn Interceptor>>,
    pub(crate) extensions: Option<HeaderValue>,
}

impl Settings {
    fn before(&self, call: &CallInfo, request: &mut http::Request<Bytes>) {
        for interceptor in &self.interceptors {
            interceptor.on_request(call, request);
        }
    }

    fn after(&self, call: &CallInfo, head: &http::response::Parts, body: Option<&Bytes>) {
        for interceptor in &self.interceptors {
            interceptor.on_response(call, head, body);
        }
    }

    fn failed(&self, call: &CallInfo, error: &Error) {
        for interceptor in &self.interceptors {
            interceptor.on_error(call, error);
        }
    }

    /// Runs `attempt` until it succeeds, fails for good, or the retries are used up.
    async fn with_retries<T, F, Fut>(&self, retry: Retry, mut attempt: F) -> Result<T, Error>
    where
        F: FnMut(u32) -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        let mut n = 0;
        loop {
            match attempt(n).await {
                Err(error) if n < self.retry.max_retries && retry.allows(&error) => {
                    tokio::time::sleep(self.retry.backoff(n)).await;
                    n += 1;
                }
                outcome => return outcome,
            }
        }
    }

    /// Runs one attempt under the call timeout, telling the interceptors about a failure
    /// without a response.
    async fn attempt<T>(
        &self,
        call: &CallInfo,
        fut: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, Error> {
        let outcome = match self.timeout {
            Some(limit) => match tokio::time::timeout(limit, fut).await {
                Ok(outcome) => outcome,
                Err(_) => Err(Error::Timeout(limit)),
            },
            None => fut.await,
        };
        if let Err(error @ (Error::Transport(_) | Error::Timeout(_))) = &outcome {
            self.failed(call, error);
        }
        outcome
    }
}

/// Fetches and normalizes the card of the agent at `base_url`; returns it with the URL it was
/// found at.
pub(crate) async fn fetch_card(
    http: &Http,
    settings: &Settings,
    base_url: &str,
) -> Result<(AgentCard, http::Uri), Error> {
    crate::transport::parse_url(base_url)?;
    let urls = card::card_urls(base_url);
    let mut first_error = None;
    for url in &urls {
        let uri = crate::transport::parse_url(url)?;
        match fetch_card_at(http, settings, &uri).await {
            Ok(card) => return Ok((card, uri)),
            // Not there: try the next location.
            Err(error @ Error::Http { .. })
                if error.http_status() == Some(http::StatusCode::NOT_FOUND) =>
            {
                first_error.get_or_insert(error);
            }
            Err(error) => return Err(error),
        }
    }
    Err(match first_error {
        Some(Error::Http { status, .. }) => Error::Http {
            status,
            body: format!("no agent card at {}", urls.join(" or ")),
        },
        Some(other) => other,
        None => Error::Protocol("no agent card location to try".to_owned()),
    })
}

async fn fetch_card_at(
    http: &Http,
    settings: &Settings,
    uri: &http::Uri,
) -> Result<AgentCard, Error> {
    settings
        .with_retries(Retry::Idempotent, |attempt| async move {
            let call = CallInfo::new(CallInfo::AGENT_CARD, attempt);
            let mut request = http::Request::get(uri.clone())
                .header(header::ACCEPT, "application/json")
                .header("a2a-version", PROTOCOL_VERSION)
                .body(Bytes::new())
                .map_err(|err| Error::Config(format!("cannot build a request for {uri}: {err}")))?;
            settings.before(&call, &mut request);
            let fut = async {
                let (head, body) = http.send(request).await?.into_parts();
                let bytes = read_body(body).await?;
                settings.after(&call, &head, Some(&bytes));
                if !head.status.is_success() {
                    return Err(Error::http(head.status, &bytes));
                }
                let value: serde_json::Value = a2a_types::json::from_slice(&bytes)?;
                Ok(card::normalize(value)?)
            };
            settings.attempt(&call, fut).await
        })
        .await
}

async fn read_body(body: hyper::body::Incoming) -> Result<Bytes, Error> {
    body.collect()
        .await
        .map(|collected| collected.to_bytes())
        .map_err(|err| Error::transport("the answer was cut off", err))
}

/// A client of one A2A agent: the eleven A2A 1.0 operations over JSON-RPC, on the interface its
/// card prefers.
///
/// Cheap to clone: clones share the connection pool. Every request carries
/// `A2A-Version: 1.0`, the `A2A-Extensions` asked for, and the interface's `tenant` in its
/// params (unless the request sets one).
///
/// See the [crate docs](crate) for an example.
#[derive(Clone)]
pub struct A2aClient {
    inner: Arc<Inner>,
}

struct Inner {
    http: Http,
    settings: Settings,
    card: AgentCard,
    interface: AgentInterface,
    endpoint: http::Uri,
    next_id: AtomicU64,
}

impl fmt::Debug for A2aClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("A2aClient")
            .field("agent", &self.inner.card.name)
            .field("endpoint", &self.inner.endpoint)
            .field("tenant", &self.inner.interface.tenant)
            .finish_non_exhaustive()
    }
}

/// An event stream as first opened: the SSE body.
pub(crate) type Opened = SseBody;

impl A2aClient {
    /// A builder, for timeouts, retries, interceptors and extensions.
    pub fn builder() -> crate::ClientBuilder {
        crate::ClientBuilder::new()
    }

    /// Fetches the agent card from `base_url` and returns a client for its preferred 1.0
    /// JSON-RPC interface, with the default settings. See [`ClientBuilder::connect`](crate::ClientBuilder::connect).
    ///
    /// # Errors
    ///
    /// As [`ClientBuilder::connect`](crate::ClientBuilder::connect).
    pub async fn connect(base_url: &str) -> Result<Self, Error> {
        Self::builder().connect(base_url).await
    }

    /// A client for a card the caller already has, with the default settings.
    ///
    /// # Errors
    ///
    /// As [`ClientBuilder::from_card`](crate::ClientBuilder::from_card).
    pub fn from_card(card: AgentCard) -> Result<Self, Error> {
        Self::builder().from_card(card)
    }

    pub(crate) fn new(
        http: Http,
        settings: Settings,
        card: AgentCard,
        card_url: Option<http::Uri>,
    ) -> Result<Self, Error> {
        let interface = card::select_interface(&card)?.clone();
        let endpoint = card::resolve(&interface.url, card_url.as_ref())?;
        Ok(Self {
            inner: Arc::new(Inner {
                http,
                settings,
                card,
                interface,
                endpoint,
                next_id: AtomicU64::new(1),
            }),
        })
    }

    /// The agent card, normalized to the 1.0 model.
    pub fn card(&self) -> &AgentCard {
        &self.inner.card
    }

    /// The interface the client talks to.
    pub fn interface(&self) -> &AgentInterface {
        &self.inner.interface
    }

    /// The URL requests go to.
    pub fn endpoint(&self) -> &http::Uri {
        &self.inner.endpoint
    }

    pub(crate) fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    fn tenant(&self, tenant: &mut Option<String>) {
        if tenant.is_none() {
            tenant.clone_from(&self.inner.interface.tenant);
        }
    }

    // ----- the operations ------------------------------------------------------------------

    /// `SendMessage`: sends a message and returns the task it started or continued (when it is
    /// terminal or interrupted, or at once with `returnImmediately`), or the agent's direct
    /// answer.
    ///
    /// A message without a `messageId` gets a random one, and one without a role becomes a
    /// user message, so that a retry sends the same message.
    ///
    /// # Errors
    ///
    /// Any [`Error`]; [`Error::Rpc`] when the agent refuses the message.
    pub async fn send_message(
        &self,
        mut request: SendMessageRequest,
    ) -> Result<SendMessageResponse, Error> {
        self.prepare_send(&mut request);
        self.unary(method::SEND_MESSAGE, &request, Retry::Send)
            .await
    }

    /// `SendStreamingMessage`: sends a message and follows the task it starts as a stream of
    /// events, resuming after a dropped connection (see [`TaskStream`]).
    ///
    /// # Errors
    ///
    /// The errors before the stream starts; later ones come as items of the stream.
    pub async fn send_streaming_message(
        &self,
        mut request: SendMessageRequest,
    ) -> Result<TaskStream, Error> {
        self.prepare_send(&mut request);
        let body = self
            .open_stream(method::SEND_STREAMING_MESSAGE, &request, None, Retry::Send)
            .await?;
        Ok(TaskStream::new(self.clone(), body, None, None))
    }

    /// `GetTask`.
    ///
    /// # Errors
    ///
    /// Any [`Error`]; [`RpcErrorKind::TaskNotFound`](crate::RpcErrorKind::TaskNotFound) for an
    /// unknown task.
    pub async fn get_task(&self, mut request: GetTaskRequest) -> Result<Task, Error> {
        self.tenant(&mut request.tenant);
        self.unary(method::GET_TASK, &request, Retry::Idempotent)
            .await
    }

    /// `ListTasks`: one page of the caller's tasks, newest first.
    ///
    /// # Errors
    ///
    /// Any [`Error`].
    pub async fn list_tasks(
        &self,
        mut request: ListTasksRequest,
    ) -> Result<ListTasksResponse, Error> {
        self.tenant(&mut request.tenant);
        self.unary(method::LIST_TASKS, &request, Retry::Idempotent)
            .await
    }

    /// `CancelTask`: asks the agent to stop; returns the task as it stands then.
    ///
    /// # Errors
    ///
    /// Any [`Error`];
    /// [`RpcErrorKind::TaskNotCancelable`](crate::RpcErrorKind::TaskNotCancelable) for a task
    /// that already ended.
    pub async fn cancel_task(&self, mut request: CancelTaskRequest) -> Result<Task, Error> {
        self.tenant(&mut request.tenant);
        self.unary(method::CANCEL_TASK, &request, Retry::Idempotent)
            .await
    }

    /// `SubscribeToTask`: follows a task as a stream of events, starting with the task as it
    /// is now, resuming after a dropped connection (see [`TaskStream`]).
    ///
    /// # Errors
    ///
    /// The errors before the stream starts;
    /// [`RpcErrorKind::UnsupportedOperation`](crate::RpcErrorKind::UnsupportedOperation) for a
    /// task that already ended.
    pub async fn subscribe_to_task(
        &self,
        request: SubscribeToTaskRequest,
    ) -> Result<TaskStream, Error> {
        self.subscribe_to_task_after(request, None).await
    }

    /// `SubscribeToTask` with `Last-Event-ID`: follows a task from right after the event of
    /// that SSE id (as a [`TaskStream`] reports it in [`TaskStream::last_event_id`]), without
    /// the task snapshot; `None` is [`subscribe_to_task`](Self::subscribe_to_task).
    ///
    /// # Errors
    ///
    /// As [`subscribe_to_task`](Self::subscribe_to_task).
    pub async fn subscribe_to_task_after(
        &self,
        mut request: SubscribeToTaskRequest,
        last_event_id: Option<String>,
    ) -> Result<TaskStream, Error> {
        self.tenant(&mut request.tenant);
        let body = self
            .open_stream(
                method::SUBSCRIBE_TO_TASK,
                &request,
                last_event_id.as_deref(),
                Retry::Idempotent,
            )
            .await?;
        Ok(TaskStream::new(
            self.clone(),
            body,
            Some(request.id),
            last_event_id,
        ))
    }

    /// `CreateTaskPushNotificationConfig`: registers a webhook for a task's updates; returns
    /// it with its server-assigned `id`.
    ///
    /// # Errors
    ///
    /// Any [`Error`];
    /// [`RpcErrorKind::PushNotificationNotSupported`](crate::RpcErrorKind::PushNotificationNotSupported)
    /// when the agent has no push notifications.
    pub async fn create_task_push_notification_config(
        &self,
        mut config: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, Error> {
        self.tenant(&mut config.tenant);
        self.unary(method::CREATE_PUSH_CONFIG, &config, Retry::ConnectOnly)
            .await
    }

    /// `GetTaskPushNotificationConfig`.
    ///
    /// # Errors
    ///
    /// Any [`Error`].
    pub async fn get_task_push_notification_config(
        &self,
        mut request: GetTaskPushNotificationConfigRequest,
    ) -> Result<TaskPushNotificationConfig, Error> {
        self.tenant(&mut request.tenant);
        self.unary(method::GET_PUSH_CONFIG, &request, Retry::Idempotent)
            .await
    }

    /// `ListTaskPushNotificationConfigs`.
    ///
    /// # Errors
    ///
    /// Any [`Error`].
    pub async fn list_task_push_notification_configs(
        &self,
        mut request: ListTaskPushNotificationConfigsRequest,
    ) -> Result<ListTaskPushNotificationConfigsResponse, Error> {
        self.tenant(&mut request.tenant);
        self.unary(method::LIST_PUSH_CONFIGS, &request, Retry::Idempotent)
            .await
    }

    /// `DeleteTaskPushNotificationConfig`. The result may be `{}` or `null`; both are fine.
    ///
    /// # Errors
    ///
    /// Any [`Error`].
    pub async fn delete_task_push_notification_config(
        &self,
        mut request: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<(), Error> {
        self.tenant(&mut request.tenant);
        self.unary::<_, serde::de::IgnoredAny>(
            method::DELETE_PUSH_CONFIG,
            &request,
            Retry::Idempotent,
        )
        .await
        .map(|_| ())
    }

    /// `GetExtendedAgentCard`: the card an authenticated caller may see. Returned as sent
    /// (the 1.0 model); it does not change the interface this client uses.
    ///
    /// # Errors
    ///
    /// Any [`Error`];
    /// [`RpcErrorKind::UnsupportedOperation`](crate::RpcErrorKind::UnsupportedOperation) when
    /// the card does not declare one.
    pub async fn get_extended_agent_card(
        &self,
        mut request: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, Error> {
        self.tenant(&mut request.tenant);
        self.unary(method::GET_EXTENDED_AGENT_CARD, &request, Retry::Idempotent)
            .await
    }

    // ----- plumbing ------------------------------------------------------------------------

    fn prepare_send(&self, request: &mut SendMessageRequest) {
        self.tenant(&mut request.tenant);
        if request.message.message_id.is_empty() {
            request.message.message_id = MessageId::random();
        }
        if request.message.role == Role::Unspecified {
            request.message.role = Role::User;
        }
    }

    fn request_body<P: Serialize>(&self, method: &'static str, params: &P) -> (Id, Bytes) {
        let id = Id::from(self.inner.next_id.fetch_add(1, Ordering::Relaxed));
        let body = serde_json::to_vec(&Request::new(id.clone(), method, params))
            .expect("A2A requests serialize");
        (id, Bytes::from(body))
    }

    fn http_request(
        &self,
        body: Bytes,
        accept: &'static str,
        last_event_id: Option<&str>,
    ) -> Result<http::Request<Bytes>, Error> {
        let mut builder = http::Request::builder()
            .method(Method::POST)
            .uri(self.inner.endpoint.clone())
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, accept)
            .header("a2a-version", PROTOCOL_VERSION);
        if let Some(extensions) = &self.inner.settings.extensions {
            builder = builder.header("a2a-extensions", extensions.clone());
        }
        if let Some(id) = last_event_id {
            let value = HeaderValue::from_str(id).map_err(|_| {
                Error::Config(format!("the event id `{id}` cannot go into a header"))
            })?;
            builder = builder.header("last-event-id", value);
        }
        builder
            .body(body)
            .map_err(|err| Error::Config(format!("cannot build the request: {err}")))
    }

    async fn unary<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &'static str,
        params: &P,
        retry: Retry,
    ) -> Result<R, Error> {
        let (id, body) = self.request_body(method, params);
        let settings = &self.inner.settings;
        settings
            .with_retries(retry, |attempt| {
                let body = body.clone();
                let id = &id;
                async move {
                    let call = CallInfo::new(method, attempt);
                    let mut request = self.http_request(body, "application/json", None)?;
                    settings.before(&call, &mut request);
                    let fut = async {
                        let (head, body) = self.inner.http.send(request).await?.into_parts();
                        let bytes = read_body(body).await?;
                        settings.after(&call, &head, Some(&bytes));
                        if !head.status.is_success() {
                            return Err(Error::http(head.status, &bytes));
                        }
                        let response: Response<R> = a2a_types::json::from_slice(&bytes)?;
                        check_id(id, &response.id, response.result.is_ok())?;
                        response.result.map_err(Error::from)
                    };
                    settings.attempt(&call, fut).await
                }
            })
            .await
    }

    /// Opens an event stream, with retries.
    async fn open_stream<P: Serialize>(
        &self,
        method: &'static str,
        params: &P,
        last_event_id: Option<&str>,
        retry: Retry,
    ) -> Result<Opened, Error> {
        let (_, body) = self.request_body(method, params);
        self.inner
            .settings
            .with_retries(retry, |attempt| {
                self.open_stream_once(method, body.clone(), last_event_id, attempt)
            })
            .await
    }

    /// Opens an event stream once: the response head must say `text/event-stream`; a JSON
    /// answer is the error the call was refused with.
    pub(crate) async fn open_stream_once(
        &self,
        method: &'static str,
        body: Bytes,
        last_event_id: Option<&str>,
        attempt: u32,
    ) -> Result<Opened, Error> {
        let settings = &self.inner.settings;
        let call = CallInfo::new(method, attempt);
        let mut request = self.http_request(body, "text/event-stream", last_event_id)?;
        settings.before(&call, &mut request);
        let fut = async {
            let (head, body) = self.inner.http.send(request).await?.into_parts();
            let content_type = head
                .headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_ascii_lowercase();
            if head.status.is_success() && content_type.starts_with("text/event-stream") {
                settings.after(&call, &head, None);
                return Ok(crate::stream::sse_body(body));
            }
            let bytes = read_body(body).await?;
            settings.after(&call, &head, Some(&bytes));
            if !head.status.is_success() {
                return Err(Error::http(head.status, &bytes));
            }
            let response: Response<serde_json::Value> = a2a_types::json::from_slice(&bytes)?;
            match response.result {
                Err(error) => Err(Error::from(error)),
                Ok(_) => Err(Error::Protocol(format!(
                    "{method} answered with a JSON result instead of an event stream (Content-Type `{content_type}`)"
                ))),
            }
        };
        settings.attempt(&call, fut).await
    }

    /// Reopens the stream of a task after a dropped connection.
    pub(crate) async fn resubscribe(
        &self,
        task_id: a2a_types::v1::TaskId,
        last_event_id: Option<String>,
        attempt: u32,
    ) -> Result<Opened, Error> {
        let mut request = SubscribeToTaskRequest::new(task_id);
        self.tenant(&mut request.tenant);
        let (_, body) = self.request_body(method::SUBSCRIBE_TO_TASK, &request);
        self.open_stream_once(
            method::SUBSCRIBE_TO_TASK,
            body,
            last_event_id.as_deref(),
            attempt,
        )
        .await
    }
}

/// A successful answer must carry the id of its request (an error may carry `null`, when the
/// server could not read the id).
fn check_id(sent: &Id, received: &Id, ok: bool) -> Result<(), Error> {
    if sent == received || (!ok && received.is_null()) {
        Ok(())
    } else {
        Err(Error::Protocol(format!(
            "the answer is for request id {received}, not {sent}"
        )))
    }
}
