//! Interrupted tasks that wait too long: [`HandlerConfig::interrupted_ttl`] after a task was
//! left in `TASK_STATE_INPUT_REQUIRED` or `TASK_STATE_AUTH_REQUIRED` with no agent running, it
//! ends `TASK_STATE_FAILED` with an agent message that says so; it is then an ended task like
//! any other, which retention may drop.
//!
//! Without this, interrupted tasks would never end, never be dropped, and could fill the
//! store's `max_live_tasks` for good.
//!
//! A task is scheduled when an agent's turn ends with it interrupted, and forgotten when a
//! follow-up message or a cancel takes it out of that state; both happen inside the store's
//! update of the task, so that their order is the order of the task's changes. One sweeper
//! task per handler, started by the first schedule, sleeps until the earliest deadline; it
//! holds the handler only weakly and stops when the handler is dropped.
//!
//! [`HandlerConfig::interrupted_ttl`]: super::HandlerConfig::interrupted_ttl

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use a2a_types::v1::{Task, TaskId, TaskState, Timestamp};
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::{Inner, RequestHandler, lifecycle, lock};
use crate::store::Change;

/// How soon an expiry the store could not make (its database away) is tried again.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The deadlines of the interrupted tasks of one handler.
pub(super) struct Expiry {
    ttl: Option<Duration>,
    queue: Mutex<Queue>,
    /// Wakes the sweeper when a deadline earlier than all others is added.
    wake: Arc<Notify>,
    /// The handler, for the sweeper (weak: the sweeper must not keep it alive).
    handler: Weak<Inner>,
    /// Cancelled when the handler (which owns this) is dropped: the sweeper then ends.
    stop: CancellationToken,
    _stop_on_drop: DropGuard,
    started: std::sync::Once,
}

#[derive(Default)]
struct Queue {
    /// Each scheduled task by its deadline (and a number that keeps keys unique).
    by_deadline: BTreeMap<(Instant, u64), TaskId>,
    /// Each scheduled task's key in `by_deadline`, and the status timestamp it was scheduled
    /// for: a task whose status changed since is not expired by this entry.
    scheduled: crate::hashing::IdMap<TaskId, ((Instant, u64), Option<Timestamp>)>,
    next: u64,
}

impl Expiry {
    pub(super) fn new(ttl: Option<Duration>, handler: Weak<Inner>) -> Self {
        let stop = CancellationToken::new();
        Self {
            ttl,
            queue: Mutex::default(),
            wake: Arc::new(Notify::new()),
            handler,
            _stop_on_drop: stop.clone().drop_guard(),
            stop,
            started: std::sync::Once::new(),
        }
    }

    /// Expires `task` (interrupted, with no agent running) after the TTL, unless its status
    /// (stamped `since`) changes before. Replaces an earlier schedule of the task. Called under
    /// the store's update of the task.
    pub(super) fn schedule(&self, task: &TaskId, since: Option<Timestamp>) {
        let Some(ttl) = self.ttl else { return };
        // A TTL too long to add to the clock never expires anything.
        let Some(deadline) = Instant::now().checked_add(ttl) else {
            return;
        };
        self.schedule_at(task, since, deadline);
    }

    /// Tries the expiry of `task` again soon: the store failed transiently (its database away)
    /// when it was due.
    fn retry(&self, task: &TaskId, since: Option<Timestamp>) {
        self.schedule_at(task, since, Instant::now() + RETRY_AFTER);
    }

    fn schedule_at(&self, task: &TaskId, since: Option<Timestamp>, deadline: Instant) {
        let first = {
            let mut queue = lock(&self.queue);
            let queue = &mut *queue;
            let key = (deadline, queue.next);
            queue.next += 1;
            if let Some((old, _)) = queue.scheduled.insert(task.clone(), (key, since)) {
                queue.by_deadline.remove(&old);
            }
            queue.by_deadline.insert(key, task.clone());
            queue.by_deadline.first_key_value().map(|(k, _)| *k) == Some(key)
        };
        self.start();
        if first {
            self.wake.notify_one();
        }
    }

    /// Forgets the schedule of `task`: it left its interrupted state. Called under the store's
    /// update of the task.
    pub(super) fn forget(&self, task: &TaskId) {
        if self.ttl.is_none() {
            return;
        }
        let mut queue = lock(&self.queue);
        if let Some((key, _)) = queue.scheduled.remove(task) {
            queue.by_deadline.remove(&key);
        }
    }

    /// Takes out the tasks due by `now`; else the next deadline, if any.
    fn due(&self, now: Instant) -> Result<Vec<(TaskId, Option<Timestamp>)>, Option<Instant>> {
        let mut queue = lock(&self.queue);
        let mut due = Vec::new();
        while let Some(entry) = queue.by_deadline.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let task = entry.remove();
            if let Some((_, since)) = queue.scheduled.remove(&task) {
                due.push((task, since));
            }
        }
        if due.is_empty() {
            Err(queue.by_deadline.first_key_value().map(|(k, _)| k.0))
        } else {
            Ok(due)
        }
    }

    /// Starts the sweeper, once, on the current runtime.
    fn start(&self) {
        self.started.call_once(|| {
            let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                tracing::warn!("no tokio runtime: interrupted tasks will not expire");
                return;
            };
            runtime.spawn(sweep(
                self.handler.clone(),
                self.wake.clone(),
                self.stop.clone(),
            ));
        });
    }
}

/// The sweeper: expires each task at its deadline, until the handler is dropped.
async fn sweep(handler: Weak<Inner>, wake: Arc<Notify>, stop: CancellationToken) {
    loop {
        let next = {
            let Some(inner) = handler.upgrade() else {
                return;
            };
            match inner.expiry.due(Instant::now()) {
                Ok(due) => {
                    let handler = RequestHandler { inner };
                    for (task, since) in due {
                        handler.expire(&task, since).await;
                    }
                    continue;
                }
                Err(next) => next,
            }
        };
        let sleep = async {
            match next {
                Some(deadline) => tokio::time::sleep_until(deadline).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = stop.cancelled() => return,
            () = wake.notified() => {}
            () = sleep => {}
        }
    }
}

impl RequestHandler {
    /// Ends an interrupted task that waited out the TTL: `TASK_STATE_FAILED`, with an agent
    /// message saying what it waited for and for how long. Nothing happens when its status
    /// changed since it was scheduled (`since`), or an agent runs for it.
    async fn expire(&self, id: &TaskId, since: Option<Timestamp>) {
        let Some(ttl) = self.inner.config.interrupted_ttl else {
            return;
        };
        // No follow-up can start an execution between the check and the update.
        let _turn = self.inner.turns.lock(id).await;
        if lock(&self.inner.running).contains_key(id) {
            return;
        }
        let mut expired = None;
        let change: Change<'_> = Box::new(|task: &Task, _room| {
            expired = None;
            let state = task.status.state;
            if !state.is_interrupted() || task.status.timestamp != since {
                return None;
            }
            expired = Some(state);
            let message = lifecycle::agent_message(task, expiry_text(state, ttl));
            lifecycle::status_edit(task, TaskState::Failed, Some(message)).ok()
        });
        let result = self.inner.store.update(id, change, None).await;
        match result {
            Ok(_) => {
                if let Some(state) = expired {
                    tracing::info!(
                        task.id = %id,
                        %state,
                        ttl = %duration_text(ttl),
                        "an interrupted task waited out interrupted_ttl: it is now failed"
                    );
                }
            }
            Err(err) if err.is_transient() => {
                tracing::debug!(task.id = %id, %err, "cannot expire an interrupted task yet; trying again soon");
                self.inner.expiry.retry(id, since);
            }
            Err(err) => tracing::error!(task.id = %id, %err, "cannot expire an interrupted task"),
        }
    }
}

/// The status message of an expired task.
pub(super) fn expiry_text(state: TaskState, ttl: Duration) -> String {
    let what = if state == TaskState::AuthRequired {
        "authorization"
    } else {
        "input"
    };
    format!(
        "The task waited longer than {} for {what} and was closed (interrupted_ttl); send a new \
         message without taskId to start a new task.",
        duration_text(ttl)
    )
}

/// `24 h`, `90 min`, `5 s` or `250 ms`: the largest unit that divides the duration.
pub(super) fn duration_text(d: Duration) -> String {
    let ms = d.as_millis();
    match ms {
        0 => "0 s".to_owned(),
        _ if !ms.is_multiple_of(1000) => format!("{ms} ms"),
        _ if ms.is_multiple_of(3_600_000) => format!("{} h", ms / 3_600_000),
        _ if ms.is_multiple_of(60_000) => format!("{} min", ms / 60_000),
        _ => format!("{} s", ms / 1000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_their_largest_whole_unit() {
        assert_eq!(duration_text(Duration::from_secs(86_400)), "24 h");
        assert_eq!(duration_text(Duration::from_secs(5400)), "90 min");
        assert_eq!(duration_text(Duration::from_secs(5)), "5 s");
        assert_eq!(duration_text(Duration::from_millis(1500)), "1500 ms");
        assert_eq!(duration_text(Duration::ZERO), "0 s");
    }

    #[test]
    fn a_task_is_due_once_at_its_last_schedule_unless_forgotten() {
        let expiry = Expiry::new(Some(Duration::ZERO), Weak::new());
        let (a, b) = (TaskId::from("a"), TaskId::from("b"));
        let stamp = Some(Timestamp::now());
        expiry.schedule(&a, None);
        expiry.schedule(&b, None);
        // A second schedule replaces the first: `a` is due once, with the newer timestamp.
        expiry.schedule(&a, stamp);
        expiry.forget(&b);
        let later = Instant::now() + Duration::from_secs(1);
        assert_eq!(expiry.due(later), Ok(vec![(a, stamp)]));
        assert_eq!(expiry.due(later), Err(None));
        let queue = lock(&expiry.queue);
        assert!(queue.by_deadline.is_empty() && queue.scheduled.is_empty());
    }

    #[test]
    fn without_a_ttl_nothing_is_scheduled() {
        let expiry = Expiry::new(None, Weak::new());
        expiry.schedule(&TaskId::from("a"), None);
        assert_eq!(
            expiry.due(Instant::now() + Duration::from_secs(1)),
            Err(None)
        );
    }

    #[test]
    fn the_message_names_what_the_task_waited_for() {
        assert_eq!(
            expiry_text(TaskState::InputRequired, Duration::from_secs(86_400)),
            "The task waited longer than 24 h for input and was closed (interrupted_ttl); send \
             a new message without taskId to start a new task."
        );
        assert_eq!(
            expiry_text(TaskState::AuthRequired, Duration::from_millis(50)),
            "The task waited longer than 50 ms for authorization and was closed \
             (interrupted_ttl); send a new message without taskId to start a new task."
        );
    }
}
