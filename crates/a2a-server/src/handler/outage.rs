//! Riding out a store that goes away for a while (its database restarts, the network drops),
//! and ending every task once it is back.
//!
//! * **Waiting, bounded.** A write an agent's [`EventSink`](crate::agent::EventSink) makes,
//!   the write that ends an agent's turn, and a stream's read of the log are tried again, with
//!   a backoff from 100 ms to 2 s, while the store fails transiently
//!   ([`StoreError::is_transient`]), for at most [`HandlerConfig::outage_tolerance`] from the
//!   first failure ([`Patience`]). The agent waits in its `sink` call meanwhile: nothing is
//!   acknowledged before it is stored, and each agent holds at most the one event it is
//!   emitting. A store back within the tolerance loses nothing and fails nothing.
//! * **Past the tolerance** the sink call fails (`SinkError::Store`, saying so), the task's
//!   outcome becomes a failure with that reason whatever the agent returns (events were lost),
//!   and a stream ends with the store's error (a retryable 503: resubscribe with
//!   `Last-Event-ID`).
//! * **The end of a turn that could not be written** is kept here, in memory
//!   ([`PendingOutcomes`], at most [`HandlerConfig::max_pending_outcomes`], the oldest given up
//!   beyond), and written by one background task, with a backoff up to 1 s, once the store is
//!   back: a task whose agent ended during an outage reaches its terminal state then, never
//!   lingers `WORKING`. One given up (a full queue, or a process that stops) is ended by the
//!   store's own rule when it has one (a SQL store's lease: the agent no longer runs, so the
//!   lease is not renewed).
//!
//! [`HandlerConfig::outage_tolerance`]: super::HandlerConfig::outage_tolerance
//! [`HandlerConfig::max_pending_outcomes`]: super::HandlerConfig::max_pending_outcomes

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use a2a_types::v1::{MessageId, Role, StreamResponse, Task, TaskId, TaskState, Timestamp};
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::expiry::duration_text;
use super::{Inner, RequestHandler, lifecycle, lock};
use crate::store::{Change, StoreError, TaskEdit, TaskStore};

/// The first wait after a transient store failure; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// The longest wait between two tries while the store fails.
const MAX_BACKOFF: Duration = Duration::from_secs(2);

/// The longest wait between two tries of a pending outcome: how late at most an outcome is
/// written once the store is back.
const MAX_PENDING_BACKOFF: Duration = Duration::from_secs(1);

/// How many of a task's last events are looked at to tell whether a write whose answer was
/// lost was made after all.
const LANDED_WINDOW: u64 = 8;

/// Tries again, with a backoff, for at most the outage tolerance from the first failure.
#[derive(Debug)]
pub(super) struct Patience {
    tolerance: Duration,
    first_failure: Option<Instant>,
    backoff: Duration,
}

impl Patience {
    /// Patience of `tolerance` from the first failure.
    pub(super) fn new(tolerance: Duration) -> Self {
        Self {
            tolerance,
            first_failure: None,
            backoff: FIRST_BACKOFF,
        }
    }

    /// After `err`: waits before the next try and returns `Ok`, or returns `Err` with the
    /// error to give up with (a failure that is not transient, the tolerance outlasted, or
    /// `stop` cancelled).
    pub(super) async fn wait(
        &mut self,
        err: StoreError,
        stop: &CancellationToken,
    ) -> Result<(), StoreError> {
        if !err.is_transient() {
            return Err(err);
        }
        let first = *self.first_failure.get_or_insert_with(Instant::now);
        let waited = first.elapsed();
        if waited >= self.tolerance || stop.is_cancelled() {
            return Err(outlasted(self.tolerance, &err));
        }
        let pause = self.backoff.min(self.tolerance - waited);
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
        tokio::select! {
            () = tokio::time::sleep(pause) => Ok(()),
            () = stop.cancelled() => Err(outlasted(self.tolerance, &err)),
        }
    }
}

/// The error of a store that stayed unavailable past the tolerance (still transient: the
/// client may try again later).
fn outlasted(tolerance: Duration, err: &StoreError) -> StoreError {
    let text = match err {
        StoreError::Unavailable(text) => text.clone(),
        other => other.to_string(),
    };
    StoreError::Unavailable(format!(
        "for longer than the outage tolerance of {} (outage_tolerance): {text}",
        duration_text(tolerance)
    ))
}

/// Whether `event` is the one `edit` logs (compared as written: a status with its timestamp
/// and message, an artifact chunk with its flags).
fn logs(event: &StreamResponse, edit: &TaskEdit) -> bool {
    match (event, edit) {
        (StreamResponse::StatusUpdate(update), TaskEdit::Status(status)) => {
            update.status == *status
        }
        (StreamResponse::StatusUpdate(update), TaskEdit::Restate(timestamp)) => {
            update.status.timestamp == Some(*timestamp)
        }
        (
            StreamResponse::ArtifactUpdate(update),
            TaskEdit::Artifact {
                artifact,
                append,
                last_chunk,
            },
        ) => {
            update.artifact == *artifact
                && update.append == *append
                && update.last_chunk == *last_chunk
        }
        _ => false,
    }
}

/// Whether a write of `edit` to task `id`, whose answer was lost (the store failed after it
/// was decided), was made after all: its event is among the task's last ones.
pub(super) async fn landed(
    store: &dyn TaskStore,
    id: &TaskId,
    edit: &TaskEdit,
) -> Result<bool, StoreError> {
    let Some(progress) = store.progress(id).await? else {
        return Ok(false);
    };
    let from = progress.last_seq.saturating_sub(LANDED_WINDOW);
    let entries = store.read_log(id, from, LANDED_WINDOW as usize).await?;
    Ok(entries.iter().any(|entry| logs(&entry.event, edit)))
}

/// How an agent's turn ended, as the handler writes it into the task.
#[derive(Clone, Debug)]
pub(super) struct TurnEnd {
    /// The execution whose turn ended.
    pub(super) execution_id: u64,
    /// What the agent returned (an error's text), or why its events were lost.
    pub(super) outcome: Result<(), String>,
    /// The execution was asked to stop.
    pub(super) cancelled: bool,
    /// How many events the execution had stored.
    pub(super) emitted: usize,
    /// The message whose turn this was. When the task's last user message is another one, a
    /// follow-up was accepted since (on this server or on another replica of a shared store,
    /// which this server's running executions do not show) and the task is that turn's to end.
    pub(super) message_id: MessageId,
}

/// The longest failure text the server writes into a task's status message.
const MAX_FAILURE_TEXT: usize = 4096;

impl TurnEnd {
    /// The edit that ends the turn on `task` as it stands, and the status timestamp of an
    /// interrupted task it leaves (whose expiry then starts): a task that is not terminal or
    /// interrupted is completed (or failed, with the error; or canceled, when cancellation was
    /// asked for); a follow-up that produced nothing restates the task's status, so that
    /// waiting callers and streams see this turn end. These edits are the server's own and
    /// small: no byte limit refuses them, so that every task can end.
    pub(super) fn edit(&self, task: &Task) -> (Option<TaskEdit>, Option<Option<Timestamp>>) {
        if self.superseded(task) {
            return (None, None);
        }
        let state = task.status.state;
        let edit = match &self.outcome {
            _ if self.cancelled && !state.is_terminal() => {
                lifecycle::status_edit(task, TaskState::Canceled, None).ok()
            }
            Ok(()) if state.is_interrupted() && self.emitted == 0 => Some(lifecycle::restate()),
            Ok(()) if state.is_final() => None,
            Ok(()) => lifecycle::status_edit(task, TaskState::Completed, None).ok(),
            Err(_) if state.is_terminal() => None,
            Err(reason) => {
                let text = a2a_types::text::truncated(reason.clone(), MAX_FAILURE_TEXT, " ...");
                let message = lifecycle::agent_message(task, text);
                lifecycle::status_edit(task, TaskState::Failed, Some(message)).ok()
            }
        };
        let (after, stamped) = match &edit {
            Some(TaskEdit::Status(status)) => (status.state, status.timestamp),
            Some(TaskEdit::Restate(timestamp)) => (state, Some(*timestamp)),
            _ => (state, task.status.timestamp),
        };
        (edit, after.is_interrupted().then_some(stamped))
    }
}

impl TurnEnd {
    /// A newer turn owns the task: its last user message is not this turn's (a task whose
    /// history has no user message, or this one last, is this turn's).
    fn superseded(&self, task: &Task) -> bool {
        task.history
            .iter()
            .rev()
            .find(|message| message.role == Role::User)
            .is_some_and(|last| last.message_id != self.message_id)
    }
}

/// The ends of turns the store could not take, waiting to be written (see the
/// [module docs](self)).
pub(super) struct PendingOutcomes {
    max: usize,
    queue: Mutex<Queue>,
    /// Wakes the writer when an outcome is added.
    wake: Arc<Notify>,
    started: std::sync::Once,
    /// The handler, for the writer (weak: the writer must not keep it alive).
    handler: Weak<Inner>,
    /// Cancelled when the handler is dropped or shut down.
    stop: CancellationToken,
}

#[derive(Default)]
struct Queue {
    /// The tasks in the order their outcome came.
    order: VecDeque<TaskId>,
    /// Each task's outcome.
    outcomes: crate::hashing::IdMap<TaskId, TurnEnd>,
}

impl PendingOutcomes {
    /// At most `max` outcomes of the handler's executions.
    pub(super) fn new(max: usize, handler: Weak<Inner>, stop: CancellationToken) -> Self {
        Self {
            max,
            queue: Mutex::default(),
            wake: Arc::new(Notify::new()),
            started: std::sync::Once::new(),
            handler,
            stop,
        }
    }

    /// Keeps the end of a turn of `task` to write once the store is back; beyond the bound,
    /// the oldest is given up.
    pub(super) fn keep(&self, task: TaskId, end: TurnEnd) {
        let given_up = {
            let mut queue = lock(&self.queue);
            if queue.outcomes.insert(task.clone(), end).is_none() {
                queue.order.push_back(task);
            }
            let mut given_up = Vec::new();
            while queue.outcomes.len() > self.max {
                let Some(oldest) = queue.order.pop_front() else {
                    break;
                };
                queue.outcomes.remove(&oldest);
                given_up.push(oldest);
            }
            given_up
        };
        for task in given_up {
            tracing::warn!(task.id = %task, max = self.max, "more task outcomes wait for the store than max_pending_outcomes: the oldest is given up (the store's own rule ends its task)");
        }
        self.start();
        self.wake.notify_one();
    }

    /// How many outcomes wait.
    pub(super) fn len(&self) -> usize {
        lock(&self.queue).outcomes.len()
    }

    /// The next outcome to write.
    fn next(&self) -> Option<(TaskId, TurnEnd)> {
        let queue = lock(&self.queue);
        let task = queue.order.front()?.clone();
        let end = queue.outcomes.get(&task)?.clone();
        Some((task, end))
    }

    /// Forgets the outcome of `task` of execution `execution_id` (written, or overtaken).
    fn done(&self, task: &TaskId, execution_id: u64) {
        let mut queue = lock(&self.queue);
        if queue
            .outcomes
            .get(task)
            .is_some_and(|end| end.execution_id == execution_id)
        {
            queue.outcomes.remove(task);
            queue.order.retain(|t| t != task);
        }
    }

    /// Puts the first outcome last (it could not be written yet).
    fn rotate(&self) {
        let mut queue = lock(&self.queue);
        if let Some(first) = queue.order.pop_front() {
            queue.order.push_back(first);
        }
    }

    /// Starts the writer, once, on the current runtime.
    fn start(&self) {
        self.started.call_once(|| {
            let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                tracing::warn!("no tokio runtime: task outcomes the store missed stay unwritten");
                return;
            };
            runtime.spawn(write_pending(
                self.handler.clone(),
                self.wake.clone(),
                self.stop.clone(),
            ));
        });
    }
}

/// The writer of pending outcomes: writes them one at a time, oldest first, waiting with a
/// backoff while the store fails, until the handler is dropped.
async fn write_pending(handler: Weak<Inner>, wake: Arc<Notify>, stop: CancellationToken) {
    let mut backoff = FIRST_BACKOFF;
    loop {
        let next = {
            let Some(inner) = handler.upgrade() else {
                return;
            };
            let pending = inner.pending.next();
            match pending {
                Some((task, end)) => {
                    let handler = RequestHandler { inner };
                    match handler.write_turn_end(&task, &end).await {
                        Ok(()) => {
                            handler.inner.pending.done(&task, end.execution_id);
                            backoff = FIRST_BACKOFF;
                            continue;
                        }
                        Err(err) if err.is_transient() => {
                            handler.inner.pending.rotate();
                            Some(backoff)
                        }
                        Err(err) => {
                            tracing::error!(task.id = %task, %err, "cannot record the end of an agent's turn; given up");
                            handler.inner.pending.done(&task, end.execution_id);
                            continue;
                        }
                    }
                }
                None => None,
            }
        };
        if let Some(pause) = next {
            backoff = (backoff * 2).min(MAX_PENDING_BACKOFF);
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(pause) => {}
            }
        } else {
            tokio::select! {
                () = stop.cancelled() => return,
                () = wake.notified() => {}
            }
        }
    }
}

impl RequestHandler {
    /// Writes the end of a turn of `task` that the store missed, unless a newer execution took
    /// the task over meanwhile. Holds the task's turn lock, as the writer's own end does.
    async fn write_turn_end(&self, task: &TaskId, end: &TurnEnd) -> Result<(), StoreError> {
        let _turn = self.inner.turns.lock(task).await;
        if lock(&self.inner.running).contains_key(task) {
            // A follow-up runs a newer execution: the task is its to end.
            return Ok(());
        }
        let mut waits = None;
        let change: Change<'_> = Box::new(|current: &Task, _room| {
            let (edit, interrupted) = end.edit(current);
            waits = interrupted;
            edit
        });
        let written = self.inner.store.update(task, change, None).await?;
        if written.is_some() {
            tracing::info!(task.id = %task, "the end of an agent's turn, kept while the task store was away, is recorded");
            if let Some(stamped) = waits {
                self.inner.expiry.schedule(task, stamped);
            }
        }
        Ok(())
    }

    /// How many ends of agents' turns wait for the store to take them (see
    /// [`HandlerConfig::max_pending_outcomes`](super::HandlerConfig::max_pending_outcomes)).
    pub fn pending_outcomes(&self) -> usize {
        self.inner.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{Artifact, Message, Part, TaskStatus};

    use super::*;

    #[tokio::test]
    async fn patience_waits_out_transient_failures_only_within_the_tolerance() {
        let stop = CancellationToken::new();
        let down = || StoreError::Unavailable("no database".to_owned());
        let mut patience = Patience::new(Duration::from_millis(150));
        let started = Instant::now();
        let mut tries = 0;
        let given_up = loop {
            tries += 1;
            if let Err(err) = patience.wait(down(), &stop).await {
                break err;
            }
        };
        // 100 ms, then what is left of the tolerance, then over.
        assert!(tries >= 2, "{tries}");
        assert!(started.elapsed() >= Duration::from_millis(150));
        assert_eq!(
            given_up,
            StoreError::Unavailable(
                "for longer than the outage tolerance of 150 ms (outage_tolerance): no database"
                    .to_owned()
            )
        );
        assert_eq!(
            given_up.to_string(),
            "task store unavailable: for longer than the outage tolerance of 150 ms \
             (outage_tolerance): no database"
        );
        // Not transient: given up at once, as it is.
        let corrupt = StoreError::Corrupt("a bad row".to_owned());
        let mut patience = Patience::new(Duration::from_secs(1));
        assert_eq!(patience.wait(corrupt.clone(), &stop).await, Err(corrupt));
    }

    #[test]
    fn an_edit_is_found_by_the_event_it_logged() {
        let status = TaskStatus::now(TaskState::Working);
        let mut task = Task::new("t", "c", TaskStatus::now(TaskState::Submitted));
        let edit = TaskEdit::Status(status.clone());
        let event = edit.clone().apply(&mut task).unwrap();
        assert!(logs(&event, &edit));
        // The same state stamped at another time is another event.
        let later = TaskEdit::Status(TaskStatus::new(TaskState::Working).with_timestamp(
            Timestamp::from_unix(status.timestamp.unwrap().unix_seconds() + 1, 0).unwrap(),
        ));
        assert!(!logs(&event, &later));
        let chunk = TaskEdit::Artifact {
            artifact: Artifact::new("a", vec![Part::text("x")]),
            append: false,
            last_chunk: true,
        };
        let logged = chunk.clone().apply(&mut task).unwrap();
        assert!(logs(&logged, &chunk));
        let appended = TaskEdit::Artifact {
            artifact: Artifact::new("a", vec![Part::text("x")]),
            append: true,
            last_chunk: true,
        };
        assert!(!logs(&logged, &appended));
    }

    #[test]
    fn the_end_of_a_turn_fails_a_running_task_with_the_reason() {
        let task = Task::new("t", "c", TaskStatus::now(TaskState::Working));
        let end = TurnEnd {
            execution_id: 1,
            outcome: Err("the store went away".to_owned()),
            cancelled: false,
            emitted: 1,
            message_id: MessageId::new("m-1"),
        };
        let (Some(TaskEdit::Status(status)), None) = end.edit(&task) else {
            panic!("a status edit");
        };
        assert_eq!(status.state, TaskState::Failed);
        let text = status.message.unwrap().parts[0]
            .as_text()
            .unwrap()
            .to_owned();
        assert_eq!(text, "the store went away");
        // An ended task stays as it is.
        let ended = Task::new("t", "c", TaskStatus::now(TaskState::Completed));
        assert!(end.edit(&ended).0.is_none());
    }

    /// Two replicas of one store: the turn of m-1 ended on one while a follow-up (m-2) had
    /// started on the other. Its end must not complete the follow-up's running turn.
    #[test]
    fn the_end_of_a_turn_leaves_a_newer_turn_alone() {
        let end = TurnEnd {
            execution_id: 1,
            outcome: Ok(()),
            cancelled: false,
            emitted: 1,
            message_id: MessageId::new("m-1"),
        };
        let user = |id: &str| Message::new(MessageId::new(id), Role::User, vec![Part::text("go")]);
        let agent = Message::new(MessageId::new("a-1"), Role::Agent, vec![Part::text("ok")]);
        let mut task = Task::new("t", "c", TaskStatus::now(TaskState::Working));
        task.history = vec![user("m-1"), agent.clone()];
        let (Some(TaskEdit::Status(status)), None) = end.edit(&task) else {
            panic!("its own turn: completed");
        };
        assert_eq!(status.state, TaskState::Completed);
        task.history = vec![user("m-1"), agent, user("m-2")];
        assert_eq!(end.edit(&task), (None, None), "a newer turn's");
    }
}
