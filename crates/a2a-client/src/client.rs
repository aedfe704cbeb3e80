//! [`A2aClient`]: the eleven A2A 1.0 operations over a [`Transport`](crate::transport::Transport),
//! with the tenant, retries and resumable streams.

use std::fmt;
use std::sync::Arc;

use a2a_types::protocol::{Reply, Request, StreamRequest, UnexpectedReply};
use a2a_types::v1::{
    AgentCard, AgentInterface, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, MessageId, Role, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskPushNotificationConfig,
};

use crate::call::{Core, expect};
use crate::{Error, TaskStream};

/// The protocol version this client speaks, sent as `A2A-Version` with every request
/// (= [`a2a_types::protocol::VERSION_1_0`]).
pub const PROTOCOL_VERSION: &str = a2a_types::protocol::VERSION_1_0;

/// A client of one A2A agent: the eleven A2A 1.0 operations over the interface chosen from its
/// card (JSON-RPC or HTTP+JSON; see [`ClientBuilder::connect`](crate::ClientBuilder::connect)).
///
/// Cheap to clone: clones share the connection pool (and the protocol version negotiated
/// with the agent). Every request carries `A2A-Version: 1.0` (`1.1` when the draft was
/// negotiated: [`protocol_version`](Self::protocol_version)), the `A2A-Extensions` asked for,
/// and the interface's `tenant` (unless the request sets one): in the params over JSON-RPC, as
/// the path prefix over HTTP+JSON. With an older version
/// ([`ClientBuilder::allow_legacy`](crate::ClientBuilder::allow_legacy)), requests and answers
/// are converted at the edge and carry that version's headers.
///
/// See the [crate docs](crate) for an example.
#[derive(Clone)]
pub struct A2aClient {
    core: Arc<Core>,
}

impl fmt::Debug for A2aClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("A2aClient")
            .field("agent", &self.core.card.name)
            .field("binding", &self.core.interface.protocol_binding)
            .field("endpoint", &self.core.endpoint)
            .field("tenant", &self.core.interface.tenant)
            .finish_non_exhaustive()
    }
}

impl A2aClient {
    /// The least time between two asks of [`wait_for_task`](Self::wait_for_task), for an agent
    /// that answers a long poll at once without a change (one that does not hold calls).
    pub const LONG_POLL_MIN_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

    /// A builder, for timeouts, retries, interceptors, extensions and transports.
    pub fn builder() -> crate::ClientBuilder {
        crate::ClientBuilder::new()
    }

    /// Fetches the card of the agent `agent` names (`http://127.0.0.1:7420`, `127.0.0.1:7420`,
    /// `agent.example.com`, a card's URL: see [`card::AgentRef`](crate::card::AgentRef)) and
    /// returns a client for the first interface of the card that it speaks, with the default
    /// settings. See [`ClientBuilder::connect`](crate::ClientBuilder::connect).
    ///
    /// # Errors
    ///
    /// As [`ClientBuilder::connect`](crate::ClientBuilder::connect).
    pub async fn connect(agent: &str) -> Result<Self, Error> {
        Self::builder().connect(agent).await
    }

    /// A client for a card the caller already has, with the default settings.
    ///
    /// # Errors
    ///
    /// As [`ClientBuilder::from_card`](crate::ClientBuilder::from_card).
    pub fn from_card(card: AgentCard) -> Result<Self, Error> {
        Self::builder().from_card(card)
    }

    pub(crate) fn new(core: Core) -> Self {
        Self {
            core: Arc::new(core),
        }
    }

    /// The agent card, normalized to the 1.0 model.
    pub fn card(&self) -> &AgentCard {
        &self.core.card
    }

    /// The interface the client talks to; its `protocolBinding` says which transport.
    pub fn interface(&self) -> &AgentInterface {
        &self.core.interface
    }

    /// The URL of that interface (resolved against the card's URL when it is a path).
    pub fn endpoint(&self) -> &http::Uri {
        &self.core.endpoint
    }

    /// The protocol version the client speaks to the agent, `Major.Minor` (`1.0`; `1.1` when
    /// the draft was allowed and the card offers it; a legacy version when allowed), as sent
    /// in `A2A-Version`.
    pub fn protocol_version(&self) -> &str {
        &self.core.speaks
    }

    /// True when the client uses the A2A 1.1 task generations with this agent: 1.1 was
    /// negotiated ([`ClientBuilder::allow_v1_1`](crate::ClientBuilder::allow_v1_1)) and the
    /// agent has not shown that it does not implement them (a task or event of generation 0,
    /// a repeated generation in a stream). Then [`wait_for_task`](Self::wait_for_task)
    /// long-polls, `ifGenerationMatch` is sent, and streams check their events' generations.
    pub fn speaks_generations(&self) -> bool {
        self.core.generations.on()
    }

    fn tenant(&self, tenant: &mut Option<String>) {
        self.core.tenant(tenant);
    }

    /// One unary operation, its reply as the result type `T` the operation answers with.
    async fn unary<T>(&self, request: impl Into<Request>) -> Result<T, Error>
    where
        T: TryFrom<Reply, Error = UnexpectedReply>,
    {
        expect(self.core.call(request.into()).await?)
    }

    /// One streaming operation as a [`TaskStream`] that resumes with `tenant`.
    async fn stream(
        &self,
        request: StreamRequest,
        tenant: Option<String>,
        last_event_id: Option<String>,
    ) -> Result<TaskStream, Error> {
        let task = match &request {
            StreamRequest::SubscribeToTask(subscribe) => Some(subscribe.id.clone()),
            _ => None,
        };
        let body = self.core.open(request, last_event_id.as_deref()).await?;
        Ok(TaskStream::new(
            self.core.clone(),
            body,
            task,
            tenant,
            last_event_id,
        ))
    }

    // ----- the operations as values ---------------------------------------------------------

    /// Any unary operation, as a value: what the typed methods below do, for a caller that
    /// holds the operation as a [`Request`] (a proxy, a tool bridge, a test that walks every
    /// operation). A request without a tenant (or with an empty one) gets the interface's; a
    /// `SendMessage` is prepared as [`send_message`](Self::send_message) prepares it. The
    /// reply is the one the operation answers with ([`Reply::Task`] for `GetTask`, ...). The
    /// A2A 1.1 fields are handled as by the typed methods (`currentGeneration` dropped and
    /// `ifGenerationMatch` refused where the client does not speak generations).
    ///
    /// ```no_run
    /// use a2a_types::protocol::{Reply, Request};
    /// use a2a_types::v1::GetTaskRequest;
    ///
    /// # async fn run(client: a2a_client::A2aClient) -> Result<(), a2a_client::Error> {
    /// let reply = client.call(Request::from(GetTaskRequest::new("t-1"))).await?;
    /// if let Reply::Task(task) = reply {
    ///     println!("{}", task.status.state);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As the operation's typed method.
    pub async fn call(&self, mut request: Request) -> Result<Reply, Error> {
        if request.tenant().is_none() {
            request.set_tenant(self.core.interface.tenant.clone());
        }
        match &mut request {
            Request::SendMessage(send) => {
                self.check_generations(send)?;
                self.prepare_send(send);
            }
            Request::GetTask(get) if !self.speaks_generations() => get.current_generation = None,
            _ => {}
        }
        self.core.call(request).await
    }

    /// Any streaming operation, as a value, as a [`TaskStream`] (see [`call`](Self::call));
    /// `last_event_id` resumes a `SubscribeToTask` after that event, as
    /// [`subscribe_to_task_after`](Self::subscribe_to_task_after).
    ///
    /// # Errors
    ///
    /// As the operation's typed method.
    pub async fn open(
        &self,
        mut request: StreamRequest,
        last_event_id: Option<String>,
    ) -> Result<TaskStream, Error> {
        if request.tenant().is_none() {
            request.set_tenant(self.core.interface.tenant.clone());
        }
        if let StreamRequest::SendStreamingMessage(send) = &mut request {
            self.check_generations(send)?;
            self.prepare_send(send);
        }
        let tenant = request.tenant().map(str::to_owned);
        self.stream(request, tenant, last_event_id).await
    }

    // ----- the operations ------------------------------------------------------------------

    /// `SendMessage`: sends a message and returns the task it started or continued (when it is
    /// terminal or interrupted, or at once with `returnImmediately`), or the agent's direct
    /// answer.
    ///
    /// A message without a `messageId` gets a random one, and one without a role becomes a
    /// user message, so that a retry sends the same message.
    ///
    /// **A2A 1.1:** a configuration's `ifGenerationMatch`
    /// ([`SendMessageConfiguration::with_if_generation_match`](a2a_types::v1::SendMessageConfiguration::with_if_generation_match))
    /// makes the agent refuse the message unless the task it continues is at that generation;
    /// the refusal is [`Error::generation_mismatch`]. Sent only when the client
    /// [speaks generations](Self::speaks_generations) with the agent; otherwise the call fails
    /// with [`Error::NoGenerations`] before anything is sent (the check would be dropped).
    ///
    /// ```no_run
    /// use a2a_types::v1::{Message, SendMessageConfiguration, SendMessageRequest};
    ///
    /// # async fn run(client: a2a_client::A2aClient) -> Result<(), a2a_client::Error> {
    /// let reply = Message::user_text("yes, book it").with_task_id("t-1");
    /// let request = SendMessageRequest::new(reply)
    ///     .with_configuration(SendMessageConfiguration::default().with_if_generation_match(4));
    /// match client.send_message(request).await {
    ///     Err(error) if error.generation_mismatch().is_some() => {
    ///         // The task moved on since generation 4: look again before answering.
    ///     }
    ///     other => drop(other?),
    /// }
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// Any [`Error`]; [`Error::Agent`] when the agent refuses the message.
    pub async fn send_message(
        &self,
        mut request: SendMessageRequest,
    ) -> Result<SendMessageResponse, Error> {
        self.check_generations(&request)?;
        self.prepare_send(&mut request);
        self.unary(request).await
    }

    /// `SendStreamingMessage`: sends a message and follows the task it starts as a stream of
    /// events, resuming after a dropped connection (see [`TaskStream`]).
    ///
    /// `ifGenerationMatch` as with [`send_message`](Self::send_message).
    ///
    /// # Errors
    ///
    /// The errors before the stream starts; later ones come as items of the stream.
    pub async fn send_streaming_message(
        &self,
        mut request: SendMessageRequest,
    ) -> Result<TaskStream, Error> {
        self.check_generations(&request)?;
        self.prepare_send(&mut request);
        let tenant = request.tenant.clone();
        self.stream(request.into(), tenant, None).await
    }

    /// `GetTask`. A `currentGeneration` (A2A 1.1) is sent only when the client
    /// [speaks generations](Self::speaks_generations) (the agent then holds the call until the
    /// task passes it); otherwise it is dropped and the task comes at once. See
    /// [`wait_for_task`](Self::wait_for_task) for a long poll with a deadline.
    ///
    /// # Errors
    ///
    /// Any [`Error`]; [`ErrorCode::TASK_NOT_FOUND`](crate::ErrorCode::TASK_NOT_FOUND) for an
    /// unknown task.
    pub async fn get_task(&self, mut request: GetTaskRequest) -> Result<Task, Error> {
        self.tenant(&mut request.tenant);
        if !self.speaks_generations() {
            request.current_generation = None;
        }
        self.core.get_task(request).await
    }

    /// Waits until the task's generation passes `after` (A2A 1.1 long poll), or until
    /// `deadline` has passed, whichever comes first.
    ///
    /// When the client [speaks generations](Self::speaks_generations), this is `GetTask` with
    /// `currentGeneration: after`, which the agent holds until the task changes; an agent that
    /// answers earlier (its own timeout) is asked again, no sooner than
    /// [`LONG_POLL_MIN_INTERVAL`](Self::LONG_POLL_MIN_INTERVAL) after the previous ask, until
    /// the deadline; at the deadline the task is fetched once more without waiting, for
    /// [`TaskWait::Unchanged`](crate::TaskWait::Unchanged). Each ask is one call under the client's call timeout and
    /// retries (keep the [`timeout`](crate::ClientBuilder::timeout) above the agent's hold).
    ///
    /// Otherwise (an agent that speaks 1.0, or one that answered generation 0) the task is
    /// fetched at once and returned as [`TaskWait::Unsupported`](crate::TaskWait::Unsupported): polling on is the caller's
    /// choice, and the caller sees that it must be.
    ///
    /// `request` names the task (and `historyLength`, `tenant`); its `currentGeneration` is
    /// replaced by `after`.
    ///
    /// ```no_run
    /// use std::time::Duration;
    ///
    /// use a2a_client::TaskWait;
    /// use a2a_types::v1::GetTaskRequest;
    ///
    /// # async fn run(client: a2a_client::A2aClient) -> Result<(), a2a_client::Error> {
    /// let task = client.get_task(GetTaskRequest::new("t-1")).await?;
    /// match client.wait_for_task(GetTaskRequest::new("t-1"), task.generation, Duration::from_secs(60)).await? {
    ///     TaskWait::Changed(task) => println!("now {} (generation {})", task.status.state, task.generation),
    ///     TaskWait::Unchanged(_) => println!("no change within a minute"),
    ///     other => println!("no long poll here; the task is {}", other.task().status.state),
    /// }
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`get_task`](Self::get_task).
    pub async fn wait_for_task(
        &self,
        mut request: GetTaskRequest,
        after: i64,
        deadline: std::time::Duration,
    ) -> Result<crate::TaskWait, Error> {
        use crate::TaskWait;
        use tokio::time::Instant;

        self.tenant(&mut request.tenant);
        request.current_generation = None;
        let until = Instant::now() + deadline;
        while self.speaks_generations() {
            let started = Instant::now();
            let remaining = until.saturating_duration_since(started);
            if remaining.is_zero() {
                break;
            }
            let mut poll = request.clone();
            poll.current_generation = Some(after);
            let Ok(answer) = tokio::time::timeout(remaining, self.core.get_task(poll)).await else {
                break;
            };
            let task = answer?;
            if !self.speaks_generations() {
                return Ok(TaskWait::Unsupported(task));
            }
            if task.generation > after {
                return Ok(TaskWait::Changed(task));
            }
            let next = started + Self::LONG_POLL_MIN_INTERVAL;
            if next >= until {
                return Ok(TaskWait::Unchanged(task));
            }
            tokio::time::sleep_until(next).await;
        }
        let task = self.core.get_task(request).await?;
        Ok(if !self.speaks_generations() {
            TaskWait::Unsupported(task)
        } else if task.generation > after {
            TaskWait::Changed(task)
        } else {
            TaskWait::Unchanged(task)
        })
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
        self.unary(request).await
    }

    /// `CancelTask`: asks the agent to stop; returns the task as it stands then.
    ///
    /// # Errors
    ///
    /// Any [`Error`];
    /// [`ErrorCode::TASK_NOT_CANCELABLE`](crate::ErrorCode::TASK_NOT_CANCELABLE) for a task
    /// that already ended.
    pub async fn cancel_task(&self, mut request: CancelTaskRequest) -> Result<Task, Error> {
        self.tenant(&mut request.tenant);
        self.unary(request).await
    }

    /// `SubscribeToTask`: follows a task as a stream of events, starting with the task as it
    /// is now, resuming after a dropped connection (see [`TaskStream`]).
    ///
    /// # Errors
    ///
    /// The errors before the stream starts;
    /// [`ErrorCode::UNSUPPORTED_OPERATION`](crate::ErrorCode::UNSUPPORTED_OPERATION) for a task
    /// that already ended.
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
        let tenant = request.tenant.clone();
        self.stream(request.into(), tenant, last_event_id).await
    }

    /// `CreateTaskPushNotificationConfig`: registers a webhook for a task's updates; returns
    /// it with its server-assigned `id`.
    ///
    /// # Errors
    ///
    /// Any [`Error`];
    /// [`ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED`](crate::ErrorCode::PUSH_NOTIFICATION_NOT_SUPPORTED)
    /// when the agent has no push notifications.
    pub async fn create_task_push_notification_config(
        &self,
        mut config: TaskPushNotificationConfig,
    ) -> Result<TaskPushNotificationConfig, Error> {
        self.tenant(&mut config.tenant);
        self.unary(config).await
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
        self.unary(request).await
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
        self.unary(request).await
    }

    /// `DeleteTaskPushNotificationConfig`. The answer may be `{}`, `null` (JSON-RPC) or empty
    /// (HTTP+JSON); all are fine.
    ///
    /// # Errors
    ///
    /// Any [`Error`].
    pub async fn delete_task_push_notification_config(
        &self,
        mut request: DeleteTaskPushNotificationConfigRequest,
    ) -> Result<(), Error> {
        self.tenant(&mut request.tenant);
        self.unary(request).await
    }

    /// `GetExtendedAgentCard`: the card an authenticated caller may see. Returned as sent
    /// (the 1.0 model); it does not change the interface this client uses.
    ///
    /// # Errors
    ///
    /// Any [`Error`];
    /// [`ErrorCode::UNSUPPORTED_OPERATION`](crate::ErrorCode::UNSUPPORTED_OPERATION) when the
    /// card does not declare one.
    pub async fn get_extended_agent_card(
        &self,
        mut request: GetExtendedAgentCardRequest,
    ) -> Result<AgentCard, Error> {
        self.tenant(&mut request.tenant);
        self.unary(request).await
    }

    // ----- plumbing ------------------------------------------------------------------------

    /// Refuses a send whose `ifGenerationMatch` the client would not send.
    fn check_generations(&self, request: &SendMessageRequest) -> Result<(), Error> {
        let asks = request
            .configuration
            .as_ref()
            .is_some_and(|c| c.if_generation_match.is_some());
        if asks && !self.speaks_generations() {
            return Err(Error::NoGenerations {
                field: "ifGenerationMatch",
                version: self.core.speaks.clone(),
            });
        }
        Ok(())
    }

    fn prepare_send(&self, request: &mut SendMessageRequest) {
        self.tenant(&mut request.tenant);
        if request.message.message_id.is_empty() {
            request.message.message_id = MessageId::random();
        }
        if request.message.role == Role::Unspecified {
            request.message.role = Role::User;
        }
        self.core.transport.prepare_send(request);
    }
}
