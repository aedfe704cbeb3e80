//! [`TaskStream`]: the events of a task, resumed after dropped connections.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use a2a_jsonrpc::ErrorCode;
use a2a_types::v1::{GetTaskRequest, StreamResponse, SubscribeToTaskRequest, Task, TaskId};
use futures_core::{FusedStream, Stream};

use crate::call::Core;
use crate::generation::{Checked, Tracker};
use crate::transport::{EventStream, StreamFrame};
use crate::{Error, GenerationGap};

type Reconnect = Pin<Box<dyn Future<Output = Result<Resumed, Error>> + Send>>;

/// The fetch of the task after a gap in the generations, with the gap.
type Refetch = Pin<Box<dyn Future<Output = (GenerationGap, Result<Task, Error>)> + Send>>;

enum Resumed {
    /// A new connection, reading on after the last event received.
    Stream(EventStream),
    /// The task ended and the server cannot replay its events: its final state.
    Final(Box<StreamResponse>),
}

/// The events of a task (`SendStreamingMessage`, `SubscribeToTask`), as a
/// `futures_core::Stream` of [`StreamResponse`]s.
///
/// * **Ends** after the final event: a message, a status update in a terminal or interrupted
///   state, or a task in a terminal state ([`StreamResponse::is_final`]; a task snapshot in an
///   interrupted state opens a stream on a waiting task and does not end it). An [`Error`] item
///   ends it too.
/// * **Resumes by itself**, over whichever transport the client uses: when the connection drops
///   (or, with [`stream_idle_timeout`](crate::ClientBuilder::stream_idle_timeout), goes quiet)
///   before the final event, the stream reconnects with `SubscribeToTask` (with the tenant of
///   the request that opened it) and `Last-Event-ID: <the SSE id of the last event received>`, so the server sends exactly the events that were missed: no
///   duplicates (an event whose numeric id is not above the last one is dropped, should a
///   server repeat one), no gaps. If the task ended meanwhile and the server cannot replay it,
///   the stream ends with the task as `GetTask` returns it. Reconnections wait as the
///   [`RetryPolicy`](crate::RetryPolicy) backs off, and after
///   [`stream_reconnects`](crate::ClientBuilder::stream_reconnects) failures in a row the
///   stream ends with the last error.
/// * A stream cut before its first event cannot be resumed (the task id is not known yet): it
///   ends with the error.
/// * **Checks the task generations** (A2A 1.1, when the client
///   [speaks generations](crate::A2aClient::speaks_generations)): each status and artifact
///   update carries the task's generation after it, one more than the event before. An event
///   that skips some (a gap: events were missed) is delivered, then the stream fetches the task
///   (`GetTask`, as the draft advises) and delivers it as a [`StreamResponse::Task`], and
///   records the gap in [`generation_gaps`](Self::generation_gaps) (logged at `info` too). A
///   task snapshot sets where the stream stands; events it already holds may follow it. An
///   event of generation 0, or two events in a row with the same generation, mean the agent
///   does not implement generations: the stream stops checking, and the client stops using
///   them ([`speaks_generations`](crate::A2aClient::speaks_generations) turns false).
///
/// ```no_run
/// use a2a_types::v1::{Message, SendMessageRequest, StreamResponse};
/// use futures_util::StreamExt as _;
///
/// # async fn run(client: a2a_client::A2aClient) -> Result<(), a2a_client::Error> {
/// let mut events = client
///     .send_streaming_message(SendMessageRequest::new(Message::user_text("hello")))
///     .await?;
/// while let Some(event) = events.next().await {
///     match event? {
///         StreamResponse::StatusUpdate(update) => println!("{}", update.status.state),
///         StreamResponse::ArtifactUpdate(update) => print!("{}", update.artifact.text()),
///         _ => {}
///     }
/// }
/// # Ok(())
/// # }
/// ```
#[must_use = "streams do nothing unless polled"]
pub struct TaskStream {
    core: Arc<Core>,
    body: Option<EventStream>,
    reconnect: Option<Reconnect>,
    idle: Option<Pin<Box<tokio::time::Sleep>>>,
    task_id: Option<TaskId>,
    tenant: Option<String>,
    last_event_id: Option<String>,
    /// Reconnections since the last event.
    failures: u32,
    reconnects: u32,
    done: bool,
    /// The generation check, while the client uses generations.
    tracker: Option<Tracker>,
    refetch: Option<Refetch>,
    gaps: Vec<GenerationGap>,
}

impl fmt::Debug for TaskStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskStream")
            .field("task_id", &self.task_id)
            .field("last_event_id", &self.last_event_id)
            .field("reconnects", &self.reconnects)
            .field("done", &self.done)
            .field("generation_gaps", &self.gaps)
            .finish_non_exhaustive()
    }
}

impl TaskStream {
    /// A stream over `body`; `tenant` is the one of the request that opened it, for the
    /// reconnections.
    pub(crate) fn new(
        core: Arc<Core>,
        body: EventStream,
        task_id: Option<TaskId>,
        tenant: Option<String>,
        last_event_id: Option<String>,
    ) -> Self {
        let idle = core
            .policy
            .stream_idle_timeout
            .map(|limit| Box::pin(tokio::time::sleep(limit)));
        let tracker = core.generations.on().then(Tracker::default);
        Self {
            core,
            body: Some(body),
            reconnect: None,
            idle,
            task_id,
            tenant,
            last_event_id,
            failures: 0,
            reconnects: 0,
            done: false,
            tracker,
            refetch: None,
            gaps: Vec::new(),
        }
    }

    /// The gaps found in the generations of the events so far (A2A 1.1), in order; empty when
    /// none were, or when the client does not check them (see the type's docs). After each,
    /// the stream delivered the task as fetched then.
    pub fn generation_gaps(&self) -> &[GenerationGap] {
        &self.gaps
    }

    /// True while the stream checks the generations of its events (A2A 1.1 negotiated, and
    /// the agent has not shown that it does not implement them).
    pub fn checks_generations(&self) -> bool {
        self.tracker.is_some() && self.core.generations.on()
    }

    /// Runs the gap check on `event`: plans the fetch of the task after a gap, stops checking
    /// when the agent shows it has no generations.
    fn check_generation(&mut self, event: &StreamResponse) {
        let Some(tracker) = &mut self.tracker else {
            return;
        };
        if !self.core.generations.on() {
            self.tracker = None;
            return;
        }
        match tracker.check(event) {
            Checked::InOrder => {}
            Checked::Unsupported(why) => {
                self.core.generations.disprove(&why);
                self.tracker = None;
            }
            Checked::Gap { after, received } => {
                let Some(task_id) = event.task_id().or(self.task_id.as_ref()).cloned() else {
                    return;
                };
                tracing::info!(
                    target: "a2a_client",
                    task = %task_id,
                    "an event of generation {received} came after generation {after}: events \
                     were missed; fetching the task"
                );
                let gap = GenerationGap {
                    task_id: task_id.clone(),
                    after,
                    received,
                    refetched: None,
                };
                let core = self.core.clone();
                let mut get = GetTaskRequest::new(task_id);
                get.tenant = self.tenant.clone();
                self.refetch = Some(Box::pin(async move { (gap, core.get_task(get).await) }));
            }
        }
    }

    /// The task the events belong to, once known (from the first event).
    pub fn task_id(&self) -> Option<&TaskId> {
        self.task_id.as_ref()
    }

    /// The SSE id of the last event received: where a later
    /// [`subscribe_to_task_after`](crate::A2aClient::subscribe_to_task_after) would pick up.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// How many times the stream has reconnected.
    pub fn reconnects(&self) -> u32 {
        self.reconnects
    }

    fn touch(&mut self) {
        if let (Some(idle), Some(limit)) = (&mut self.idle, self.core.policy.stream_idle_timeout) {
            idle.as_mut().reset(tokio::time::Instant::now() + limit);
        }
    }

    /// The connection is gone before the final event: plans a reconnection, or gives up with
    /// `cause` (returned to be yielded).
    fn connection_lost(&mut self, cause: Error) -> Option<Error> {
        self.body = None;
        let policy = &self.core.policy;
        let Some(task_id) = self.task_id.clone() else {
            self.done = true;
            return Some(cause);
        };
        if self.failures >= policy.stream_reconnects {
            self.done = true;
            return Some(cause);
        }
        self.failures += 1;
        let wait = policy.retry.jittered(self.failures);
        self.reconnects += 1;
        let attempt = self.reconnects;
        let core = self.core.clone();
        let last_event_id = self.last_event_id.clone();
        let tenant = self.tenant.clone();
        self.reconnect = Some(Box::pin(async move {
            tokio::time::sleep(wait).await;
            let mut request = SubscribeToTaskRequest::new(task_id.clone());
            request.tenant = tenant.clone();
            match core
                .reopen(request.into(), last_event_id.as_deref(), attempt)
                .await
            {
                Ok(body) => Ok(Resumed::Stream(body)),
                // The task ended and there is nothing the server can replay.
                Err(error) if error.code() == Some(ErrorCode::UNSUPPORTED_OPERATION) => {
                    let mut get = GetTaskRequest::new(task_id);
                    get.tenant = tenant;
                    let task = core.get_task(get).await?;
                    Ok(Resumed::Final(Box::new(StreamResponse::Task(task))))
                }
                Err(error) => Err(error),
            }
        }));
        None
    }

    /// One frame of the stream: `None` to skip it.
    fn on_frame(&mut self, frame: StreamFrame) -> Option<StreamResponse> {
        if let Some(id) = frame.id.filter(|id| !id.is_empty()) {
            let seen = self
                .last_event_id
                .as_deref()
                .and_then(|last| last.parse::<u64>().ok());
            if let (Some(seen), Ok(number)) = (seen, id.parse::<u64>())
                && number <= seen
            {
                // A repeat of an event already delivered.
                return None;
            }
            self.last_event_id = Some(id);
        }
        let event = frame.response?;
        self.failures = 0;
        if self.task_id.is_none() {
            self.task_id = event.task_id().cloned();
        }
        self.check_generation(&event);
        if event.is_final() {
            self.done = true;
            self.body = None;
        }
        Some(event)
    }

    fn finish(&mut self, error: Error) -> Error {
        self.done = true;
        self.body = None;
        self.reconnect = None;
        error
    }
}

impl Stream for TaskStream {
    type Item = Result<StreamResponse, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(refetch) = &mut this.refetch {
                let (mut gap, outcome) = match refetch.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(outcome) => outcome,
                };
                this.refetch = None;
                match outcome {
                    Ok(task) => {
                        gap.refetched = Some(task.generation);
                        this.gaps.push(gap);
                        if let Some(tracker) = &mut this.tracker {
                            tracker.refetched(&task);
                        }
                        let event = StreamResponse::Task(task);
                        if event.is_final() {
                            this.done = true;
                            this.body = None;
                        }
                        return Poll::Ready(Some(Ok(event)));
                    }
                    Err(error) => {
                        tracing::info!(
                            target: "a2a_client",
                            task = %gap.task_id,
                            "the task could not be fetched after a gap in its generations: {error}"
                        );
                        this.gaps.push(gap);
                    }
                }
                continue;
            }
            if this.done {
                return Poll::Ready(None);
            }
            if let Some(reconnect) = &mut this.reconnect {
                let outcome = match reconnect.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(outcome) => outcome,
                };
                this.reconnect = None;
                match outcome {
                    Ok(Resumed::Stream(body)) => {
                        this.body = Some(body);
                        this.touch();
                    }
                    Ok(Resumed::Final(event)) => {
                        this.done = true;
                        return Poll::Ready(Some(Ok(*event)));
                    }
                    Err(error) if error.is_transient() => {
                        if let Some(error) = this.connection_lost(error) {
                            return Poll::Ready(Some(Err(error)));
                        }
                    }
                    Err(error) => return Poll::Ready(Some(Err(this.finish(error)))),
                }
                continue;
            }
            let Some(body) = &mut this.body else {
                let cause = Error::Protocol("the event stream is closed".to_owned());
                if let Some(error) = this.connection_lost(cause) {
                    return Poll::Ready(Some(Err(error)));
                }
                continue;
            };
            let lost = match body.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(frame))) => {
                    this.touch();
                    match this.on_frame(frame) {
                        Some(event) => return Poll::Ready(Some(Ok(event))),
                        None => continue,
                    }
                }
                // The connection broke: resume.
                Poll::Ready(Some(Err(error))) if error.is_transient() => error,
                // A broken frame, an undecodable event, an error event: the end.
                Poll::Ready(Some(Err(error))) => {
                    return Poll::Ready(Some(Err(this.finish(error))));
                }
                Poll::Ready(None) => Error::Protocol(
                    "the event stream ended before the task reached a terminal or interrupted state"
                        .to_owned(),
                ),
                Poll::Pending => {
                    let limit = this.core.policy.stream_idle_timeout;
                    let idle = this.idle.as_mut().map(|idle| idle.as_mut().poll(cx));
                    match (idle, limit) {
                        (Some(Poll::Ready(())), Some(limit)) => Error::Timeout(limit),
                        _ => return Poll::Pending,
                    }
                }
            };
            if let Some(error) = this.connection_lost(lost) {
                return Poll::Ready(Some(Err(error)));
            }
        }
    }
}

impl FusedStream for TaskStream {
    fn is_terminated(&self) -> bool {
        self.done && self.refetch.is_none()
    }
}
