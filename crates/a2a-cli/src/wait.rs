//! Waiting for a task: by its event stream or by polling, always under `--timeout`, and
//! interruptible with Ctrl-C without losing the task's identifiers.
//!
//! * A wait ends on a terminal state (`COMPLETED`, `FAILED`, `CANCELED`, `REJECTED`) and stops at
//!   once on an interrupted one (`INPUT_REQUIRED`, `AUTH_REQUIRED`). `SUBMITTED`, `WORKING` and
//!   `UNSPECIFIED` keep it going.
//! * `send` without `--stream` prefers the stream when the card advertises streaming (the answer
//!   comes as soon as it exists), and falls back to polling `GetTask` every `--poll-interval`
//!   when the stream breaks; without streaming it sends with `returnImmediately` and polls (a
//!   reply to an interrupted task is sent blocking: until the agent's turn starts, a poll
//!   would read the state the reply answers).
//! * With A2A 1.1 (`--a2a-version 1.1` and a card that offers it), a poll is a long poll:
//!   `GetTask` with `currentGeneration`, which the agent holds until the task changes, asked
//!   again at once after each change (no `--poll-interval` between). An agent that does not
//!   speak 1.1, or answers without generations, is polled every `--poll-interval`.
//! * A poll that fails on the way (no connection, HTTP 503) is tried again after a pause that
//!   doubles, up to eight poll intervals (at most a minute), until the deadline.
//! * When `--timeout` expires or Ctrl-C comes, the error names the task, its context, the last
//!   state and the last event id seen, and the command that picks it up again.

use std::cell::RefCell;
use std::future::Future;
use std::time::Duration;

use a2a_client::{Error, TaskStream, TaskWait};
use a2a_types::v1::{
    ContextId, GetTaskRequest, SendMessageConfiguration, SendMessageRequest, SendMessageResponse,
    StreamResponse, Task, TaskId, TaskState,
};
use futures_util::StreamExt as _;
use tokio::time::Instant;

use crate::connect::Agent;
use crate::diag::Diag;
use crate::error::{CliError, Code, quote};
use crate::options::{Common, show_duration};
use crate::output::state;

/// The shortest poll interval.
const MIN_POLL: Duration = Duration::from_millis(10);

/// What a wait has seen so far: for the messages of a timeout or an interrupt.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seen {
    /// The task.
    pub(crate) task_id: Option<TaskId>,
    /// Its context.
    pub(crate) context_id: Option<ContextId>,
    /// Its last state.
    pub(crate) state: Option<TaskState>,
    /// The SSE id of the last event.
    pub(crate) event_id: Option<String>,
}

impl Seen {
    /// A task as read.
    pub(crate) fn task(&mut self, task: &Task) {
        self.task_id = Some(task.id.clone());
        if task.context_id.is_some() {
            self.context_id.clone_from(&task.context_id);
        }
        self.state = Some(task.status.state);
    }

    /// An event, with its SSE id when it has one.
    pub(crate) fn event(&mut self, event: &StreamResponse, id: Option<&str>) {
        match event {
            StreamResponse::Task(task) => self.task(task),
            StreamResponse::StatusUpdate(update) => {
                self.task_id = Some(update.task_id.clone());
                self.context_id = Some(update.context_id.clone());
                self.state = Some(update.status.state);
            }
            StreamResponse::ArtifactUpdate(update) => {
                self.task_id = Some(update.task_id.clone());
                self.context_id = Some(update.context_id.clone());
            }
            _ => {}
        }
        if let Some(id) = id {
            self.event_id = Some(id.to_owned());
        }
    }
}

/// A wait under `--timeout` and Ctrl-C.
pub(crate) struct Waiter<'a> {
    /// The agent.
    pub(crate) agent: &'a Agent,
    diag: &'a Diag,
    deadline: Instant,
    timeout: Duration,
    interval: Duration,
    /// What the wait has seen.
    pub(crate) seen: RefCell<Seen>,
}

impl<'a> Waiter<'a> {
    /// A wait that ends `--timeout` from now.
    pub(crate) fn new(agent: &'a Agent, opts: &Common, diag: &'a Diag) -> Self {
        Self {
            agent,
            diag,
            deadline: Instant::now() + opts.timeout,
            timeout: opts.timeout,
            interval: opts.poll_interval.max(MIN_POLL),
            seen: RefCell::new(Seen::default()),
        }
    }

    /// Runs `work` until it ends, the deadline passes, or Ctrl-C comes.
    pub(crate) async fn bounded<T>(
        &self,
        work: impl Future<Output = Result<T, CliError>>,
    ) -> Result<T, CliError> {
        tokio::select! {
            biased;
            outcome = work => outcome,
            () = tokio::time::sleep_until(self.deadline) => Err(self.stopped(Code::Timeout)),
            _ = tokio::signal::ctrl_c() => Err(self.stopped(Code::Internal)),
        }
    }

    /// One call of the client, bounded as [`bounded`](Self::bounded), its error as an envelope.
    pub(crate) async fn call<T>(
        &self,
        call: impl Future<Output = Result<T, Error>>,
    ) -> Result<T, CliError> {
        self.bounded(async { call.await.map_err(|e| self.error(&e)) })
            .await
    }

    /// The error for a wait stopped by the deadline (`Code::Timeout`) or by Ctrl-C.
    fn stopped(&self, code: Code) -> CliError {
        let seen = self.seen.borrow();
        let why = if code == Code::Timeout {
            format!("timed out after {}", show_duration(self.timeout))
        } else {
            "interrupted".to_owned()
        };
        let Some(task) = &seen.task_id else {
            return CliError::new(code, format!("{why} waiting for the agent's answer"))
                .hint("raise --timeout (or A2ACLI_TIMEOUT)");
        };
        let mut message = format!("{why} waiting for task {task}");
        if let Some(context) = &seen.context_id {
            message.push_str(&format!(" (context {context}"));
            if let Some(state) = seen.state {
                message.push_str(&format!(", last seen {}", crate::output::state(state)));
            }
            message.push(')');
        }
        message.push_str("; the task itself goes on");
        let reference = self.agent.reference();
        let mut hint = format!("follow it with `a2a task get -a {reference} --wait {task}`");
        if let Some(id) = &seen.event_id {
            hint.push_str(&format!(
                " or `a2a task subscribe -a {reference} {task} --after {}`",
                quote(id)
            ));
        }
        CliError::new(code, message).hint(hint)
    }

    /// The error of a call, as an envelope.
    pub(crate) fn error(&self, error: &Error) -> CliError {
        self.agent.error(error)
    }

    /// Polls `GetTask` until the task is terminal or interrupted: long polls past the task's
    /// generation when the client speaks A2A 1.1 with the agent, else every poll interval.
    pub(crate) async fn poll(&self, id: &TaskId, history: Option<i32>) -> Result<Task, CliError> {
        let client = &self.agent.client;
        self.bounded(async {
            let mut failures = 0u32;
            // The generation to wait past, once a task with one was read.
            let mut after: Option<i64> = None;
            loop {
                let mut request = GetTaskRequest::new(id.clone());
                if let Some(n) = history {
                    request = request.with_history_length(n);
                }
                let answer = match after.filter(|_| client.speaks_generations()) {
                    Some(generation) => {
                        let left = self.deadline.saturating_duration_since(Instant::now());
                        client
                            .wait_for_task(request, generation, left)
                            .await
                            .map(TaskWait::into_task)
                    }
                    None => client.get_task(request).await,
                };
                match answer {
                    Ok(task) => {
                        failures = 0;
                        self.seen.borrow_mut().task(&task);
                        if task.status.state.is_final() {
                            return Ok(task);
                        }
                        if client.speaks_generations() && task.generation > 0 {
                            self.diag.debug(&format!(
                                "task {id} is {} at generation {}; long-polling (A2A 1.1) for \
                                 a change",
                                state(task.status.state),
                                task.generation
                            ));
                            after = Some(task.generation);
                            continue;
                        }
                        self.diag.debug(&format!(
                            "task {id} is {}; asking again in {}",
                            state(task.status.state),
                            show_duration(self.interval)
                        ));
                        tokio::time::sleep(self.interval).await;
                    }
                    Err(error) if error.is_transient() => {
                        let pause = backoff(self.interval, failures);
                        failures += 1;
                        self.diag.warn(&format!(
                            "asking for task {id} failed ({error}); asking again in {}",
                            show_duration(pause)
                        ));
                        tokio::time::sleep(pause).await;
                    }
                    Err(error) => return Err(self.error(&error)),
                }
            }
        })
        .await
    }

    /// Reads a stream to its end, handing each event (with its SSE id) to `each`. `Ok(None)`
    /// when the stream ended without a final event; an error item is returned as `Err`, with
    /// the events seen before it kept in [`Self::seen`].
    pub(crate) async fn follow(
        &self,
        stream: &mut TaskStream,
        mut each: impl FnMut(&StreamResponse, Option<&str>),
    ) -> Result<Option<StreamResponse>, Error> {
        let mut last = None;
        let mut gaps = 0;
        while let Some(item) = stream.next().await {
            let event = item?;
            if let Some(gap) = stream.generation_gaps().get(gaps) {
                gaps += 1;
                self.diag.warn(&format!(
                    "events of task {} were missed (generation {} came after {}); the task as \
                     fetched again follows",
                    gap.task_id, gap.received, gap.after
                ));
            }
            let id = stream.last_event_id().map(str::to_owned);
            self.seen.borrow_mut().event(&event, id.as_deref());
            self.diag.debug(&format!(
                "event{}: {}",
                id.as_deref().map(|id| format!(" {id}")).unwrap_or_default(),
                serde_json::to_string(&event).unwrap_or_default()
            ));
            each(&event, id.as_deref());
            let done = event.is_final();
            last = Some(event);
            if done {
                break;
            }
        }
        Ok(last)
    }

    /// `SendMessage` and wait for the task's end (see the module docs).
    pub(crate) async fn send(
        &self,
        request: SendMessageRequest,
    ) -> Result<SendMessageResponse, CliError> {
        let client = &self.agent.client;
        if self.agent.card.card.capabilities.streaming == Some(true) {
            let mut stream = self.call(client.send_streaming_message(request)).await?;
            let followed = self
                .bounded(async { Ok(self.follow(&mut stream, |_, _| {}).await) })
                .await?;
            match followed {
                Ok(Some(StreamResponse::Message(message))) => {
                    return Ok(SendMessageResponse::Message(message));
                }
                Ok(_) => {}
                Err(error) => {
                    if self.seen.borrow().task_id.is_none() {
                        return Err(self.error(&error));
                    }
                    self.diag.warn(&format!(
                        "the task's event stream broke ({error}); polling the task instead"
                    ));
                }
            }
            let id = self.seen.borrow().task_id.clone();
            let Some(id) = id else {
                return Err(CliError::new(
                    Code::Internal,
                    "the agent's event stream ended without naming a task",
                ));
            };
            let task = self.poll(&id, None).await?;
            return Ok(SendMessageResponse::Task(task));
        }
        // A new task is sent with `returnImmediately` and polled. A follow-up to an interrupted
        // task is not: until the agent takes its turn, the task still reads as it was
        // (`INPUT_REQUIRED`), so neither the immediate answer nor a poll could tell the state
        // before the reply from the state after it. The blocking call returns once the turn
        // the reply started has ended; a task still running then (the agent's own limit on
        // blocking calls) is polled as above.
        let continuing = request.message.task_id.is_some();
        let mut request = request;
        if !continuing {
            request
                .configuration
                .get_or_insert_with(SendMessageConfiguration::default)
                .return_immediately = true;
        }
        let answer = self.call(client.send_message(request)).await?;
        match answer {
            SendMessageResponse::Task(task) if !task.status.state.is_final() => {
                self.seen.borrow_mut().task(&task);
                let task = self.poll(&task.id, None).await?;
                Ok(SendMessageResponse::Task(task))
            }
            other => Ok(other),
        }
    }
}

/// The pause after `failures` failed polls in a row: doubling, at most eight intervals and at
/// most a minute.
fn backoff(interval: Duration, failures: u32) -> Duration {
    let cap = (interval * 8).min(Duration::from_secs(60)).max(interval);
    interval
        .saturating_mul(1u32.checked_shl(failures.min(16)).unwrap_or(u32::MAX))
        .min(cap)
}

/// The command that continues a task that is not over: the reply to an interrupted one, the
/// wait for a running one.
pub(crate) fn resume(agent: &Agent, task: &Task) -> Option<String> {
    let reference = agent.reference();
    let id = quote(task.id.as_str());
    let state = task.status.state;
    if state.is_interrupted() {
        Some(format!(
            "a2a send -a {reference} --task-id {id} \"<reply>\""
        ))
    } else if state.is_terminal() {
        None
    } else {
        Some(format!("a2a task get -a {reference} --wait {id}"))
    }
}

/// Says on stderr how the task turned out when it did not complete: the exit status stays 0
/// (the tool did its job), the outcome is the task's state.
pub(crate) fn outcome(diag: &Diag, agent: &Agent, task: &Task) {
    let task_state = task.status.state;
    match task_state {
        TaskState::Failed | TaskState::Rejected | TaskState::Canceled => {
            diag.warn(&format!("task {} ended {}", task.id, state(task_state)));
        }
        TaskState::InputRequired | TaskState::AuthRequired => {
            if let Some(resume) = resume(agent, task) {
                diag.note(&format!(
                    "task {} waits for the caller ({}); continue it with: {resume}",
                    task.id,
                    state(task_state)
                ));
            }
        }
        TaskState::Completed => {}
        _ => {
            if let Some(resume) = resume(agent, task) {
                diag.note(&format!(
                    "task {} is {}; follow it with: {resume}",
                    task.id,
                    state(task_state)
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_eight_intervals() {
        let second = Duration::from_secs(1);
        assert_eq!(backoff(second, 0), second);
        assert_eq!(backoff(second, 2), second * 4);
        assert_eq!(backoff(second, 9), second * 8);
        assert_eq!(backoff(Duration::from_secs(30), 5), Duration::from_secs(60));
        assert_eq!(backoff(Duration::from_secs(90), 5), Duration::from_secs(90));
    }
}
