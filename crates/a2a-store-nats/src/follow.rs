//! Following one task over NATS: an ordered, ephemeral consumer on its subject, the latest
//! events kept in memory, the wrapped store read for whatever NATS did not carry.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use a2a_server::store::{LogEntry, StoreError, TaskStore, UpdateOutcome};
use a2a_types::v1::{StreamResponse, TaskId, TaskState};
use async_nats::jetstream;
use async_nats::jetstream::consumer::DeliverPolicy;
use futures_util::StreamExt as _;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::{IN_STORE_HEADER, SEQ_HEADER, Shared, lock};

/// One followed task.
pub(crate) struct Follower {
    state: std::sync::Mutex<State>,
    notify: Notify,
    waiters: AtomicUsize,
}

struct State {
    /// `high` is known: every event up to it exists (in the wrapped store).
    ready: bool,
    /// The highest sequence number known to exist.
    high: u64,
    /// The task's state after event `high`.
    task_state: TaskState,
    /// The latest events, contiguous up to `high` (or empty).
    entries: BTreeMap<u64, StreamResponse>,
    /// The task no longer exists.
    gone: bool,
    /// The follower stopped: readers make a new one.
    dead: bool,
    /// Its consumer is connected: what it holds is at most a publish behind.
    live: bool,
    last_access: Instant,
}

impl Follower {
    fn new() -> Self {
        Self {
            state: std::sync::Mutex::new(State {
                ready: false,
                high: 0,
                task_state: TaskState::Unspecified,
                entries: BTreeMap::new(),
                gone: false,
                dead: false,
                live: false,
                last_access: Instant::now(),
            }),
            notify: Notify::new(),
            waiters: AtomicUsize::new(0),
        }
    }
}

fn state_after(before: TaskState, event: &StreamResponse) -> TaskState {
    match event {
        StreamResponse::Task(task) => task.status.state,
        StreamResponse::StatusUpdate(update) => update.status.state,
        _ => before,
    }
}

impl State {
    /// Adds event `seq` when it is the next one; false when it is not (a gap, or known).
    fn push(&mut self, seq: u64, event: StreamResponse, keep: usize) -> bool {
        if !self.ready || seq != self.high + 1 {
            return false;
        }
        self.task_state = state_after(self.task_state, &event);
        self.high = seq;
        self.entries.insert(seq, event);
        while self.entries.len() > keep {
            self.entries.pop_first();
        }
        true
    }
}

/// The follower of `id`, made (and its consumer started) when there is none; `None` when
/// this process follows as many tasks as it may.
fn follow<S: TaskStore>(shared: &Arc<Shared<S>>, id: &TaskId) -> Option<Arc<Follower>> {
    let mut followers = lock(&shared.followers);
    if let Some(follower) = followers.get(id) {
        lock(&follower.state).last_access = Instant::now();
        return Some(follower.clone());
    }
    if followers.len() >= shared.config.max_followers {
        return None;
    }
    let follower = Arc::new(Follower::new());
    followers.insert(id.clone(), follower.clone());
    tokio::spawn(run(Arc::downgrade(shared), id.clone(), follower.clone()));
    Some(follower)
}

/// Where a followed task stands, when its follower is connected.
pub(crate) fn progress<S>(shared: &Shared<S>, id: &TaskId) -> Option<UpdateOutcome> {
    let follower = lock(&shared.followers).get(id).cloned()?;
    let state = lock(&follower.state);
    (state.ready && state.live && !state.gone && !state.dead)
        .then(|| UpdateOutcome::new(state.high, state.task_state))
}

/// Event `seq` written by this process: readers here need not wait for NATS to bring it.
pub(crate) fn heard<S>(shared: &Shared<S>, id: &TaskId, seq: u64, event: StreamResponse) {
    let Some(follower) = lock(&shared.followers).get(id).cloned() else {
        return;
    };
    if lock(&follower.state).push(seq, event, shared.config.cache_per_task) {
        follower.notify.notify_waiters();
    }
}

/// The entries after `after` from memory, when this process follows the task and holds them.
pub(crate) fn cached<S>(
    shared: &Shared<S>,
    id: &TaskId,
    after: u64,
    limit: usize,
) -> Option<Vec<LogEntry>> {
    let follower = lock(&shared.followers).get(id).cloned()?;
    let mut state = lock(&follower.state);
    if !state.ready || !state.live || state.dead || state.gone {
        return None;
    }
    state.last_access = Instant::now();
    if after >= state.high {
        return Some(Vec::new());
    }
    if !state.entries.contains_key(&(after + 1)) {
        return None;
    }
    Some(
        state
            .entries
            .range(after + 1..)
            .take(limit)
            .map(|(seq, event)| LogEntry::new(*seq, event.clone()))
            .collect(),
    )
}

/// Counts a reader waiting on a follower.
struct Waiting<'a>(&'a Follower);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.waiters.fetch_sub(1, Ordering::SeqCst);
        lock(&self.0.state).last_access = Instant::now();
    }
}

/// Resolves once the task's log has an entry after `after`, or the task is gone.
pub(crate) async fn wait<S: TaskStore>(
    shared: &Arc<Shared<S>>,
    id: &TaskId,
    after: u64,
) -> Result<(), StoreError> {
    loop {
        let Some(follower) = follow(shared, id) else {
            return shared.store.wait(id, after).await;
        };
        follower.waiters.fetch_add(1, Ordering::SeqCst);
        let _waiting = Waiting(&follower);
        loop {
            let notified = follower.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let state = lock(&follower.state);
                if state.gone || (state.ready && state.high > after) {
                    return Ok(());
                }
                if state.dead {
                    break;
                }
            }
            notified.await;
        }
    }
}

type Messages = jetstream::consumer::pull::Ordered;

async fn consumer(stream: &jetstream::stream::Stream, subject: &str) -> Result<Messages, String> {
    let consumer = stream
        .create_consumer(jetstream::consumer::pull::OrderedConfig {
            filter_subject: subject.to_owned(),
            // The subject's last event and everything after: what came before is in SQL.
            deliver_policy: DeliverPolicy::LastPerSubject,
            ..Default::default()
        })
        .await
        .map_err(|err| err.to_string())?;
    consumer.messages().await.map_err(|err| err.to_string())
}

/// Reads from the wrapped store what NATS did not bring: the task's progress, and the events
/// after `high` (all of them when at most `cache_per_task`, else only the new `high`).
/// False when the task is gone.
async fn sync<S: TaskStore>(
    shared: &Shared<S>,
    id: &TaskId,
    follower: &Follower,
) -> Result<bool, StoreError> {
    let Some(progress) = shared.store.progress(id).await? else {
        return Ok(false);
    };
    let (ready, high) = {
        let state = lock(&follower.state);
        (state.ready, state.high)
    };
    let keep = shared.config.cache_per_task;
    if !ready || progress.last_seq.saturating_sub(high) > keep as u64 {
        let mut state = lock(&follower.state);
        if !state.ready || state.high < progress.last_seq {
            state.entries.clear();
            state.high = progress.last_seq;
            state.task_state = progress.state;
            state.ready = true;
        }
        return Ok(true);
    }
    let mut from = high;
    while from < progress.last_seq {
        let entries = shared.store.read_log(id, from, keep.max(1)).await?;
        if entries.is_empty() {
            break;
        }
        let mut state = lock(&follower.state);
        for entry in entries {
            from = entry.seq;
            state.push(entry.seq, entry.event, keep);
        }
    }
    Ok(true)
}

/// Follows the task until it has had no reader for a while, or is gone.
async fn run<S: TaskStore>(shared: Weak<Shared<S>>, id: TaskId, follower: Arc<Follower>) {
    let mut messages: Option<Messages> = None;
    let mut subject: Option<String> = None;
    let mut need_sync = true;
    // Said once per outage, not at every try.
    let mut warned = false;
    loop {
        let Some(sh) = shared.upgrade() else { return };
        let poll = sh.config.poll_interval;
        if subject.is_none() {
            match sh.subject_of(&id).await {
                Ok(Some(found)) => subject = Some(found),
                Ok(None) => break,
                Err(err) => tracing::debug!(%err, task = %id, "cannot follow the task yet"),
            }
        }
        if let (None, Some(subject)) = (&messages, &subject) {
            match consumer(&sh.stream, subject).await {
                Ok(started) => {
                    messages = Some(started);
                    need_sync = true;
                    warned = false;
                }
                Err(err) if !warned => {
                    warned = true;
                    tracing::warn!(%err, task = %id, "cannot follow the task over NATS; reading the store");
                }
                Err(err) => {
                    tracing::debug!(%err, task = %id, "cannot follow the task over NATS yet");
                }
            }
        }
        lock(&follower.state).live = messages.is_some();
        if need_sync {
            match sync(&sh, &id, &follower).await {
                Ok(true) => need_sync = false,
                Ok(false) => break,
                Err(err) => tracing::debug!(%err, task = %id, "cannot read the task's progress"),
            }
            follower.notify.notify_waiters();
        }
        if idle(&sh, &id, &follower, poll) {
            return;
        }
        drop(sh);
        let next = match messages.as_mut() {
            Some(messages) => tokio::time::timeout(poll, messages.next()).await.ok(),
            None => {
                tokio::time::sleep(poll).await;
                None
            }
        };
        let Some(sh) = shared.upgrade() else { return };
        match next {
            Some(Some(Ok(message))) => {
                let headers = message.headers.as_ref();
                let seq = headers
                    .and_then(|h| h.get(SEQ_HEADER))
                    .and_then(|v| v.as_str().parse::<u64>().ok());
                let in_store = headers.is_some_and(|h| h.get(IN_STORE_HEADER).is_some());
                let Some(seq) = seq else {
                    tracing::warn!(task = %id, "an event without its {SEQ_HEADER} header; ignored");
                    continue;
                };
                let event = if in_store {
                    None
                } else {
                    match serde_json::from_slice::<StreamResponse>(&message.payload) {
                        Ok(event) => Some(event),
                        Err(err) => {
                            tracing::warn!(%err, task = %id, seq, "an event that does not decode; reading the store");
                            None
                        }
                    }
                };
                let pushed = {
                    let mut state = lock(&follower.state);
                    match event {
                        _ if seq <= state.high => false,
                        Some(event) => {
                            let pushed = state.push(seq, event, sh.config.cache_per_task);
                            need_sync = !pushed;
                            pushed
                        }
                        None => {
                            need_sync = true;
                            false
                        }
                    }
                };
                if pushed {
                    follower.notify.notify_waiters();
                }
            }
            Some(Some(Err(err))) => {
                tracing::warn!(%err, task = %id, "the task's NATS consumer broke; reading the store until it is back");
                messages = None;
                need_sync = true;
            }
            Some(None) => {
                messages = None;
                need_sync = true;
            }
            // No event for a poll interval: look at the store.
            None => need_sync = true,
        }
    }
    // Gone.
    let mut state = lock(&follower.state);
    state.gone = true;
    drop(state);
    follower.notify.notify_waiters();
    if let Some(sh) = shared.upgrade() {
        remove(&sh, &id, &follower);
    }
}

/// Stops following when no reader came for five poll intervals (at least 5 s).
fn idle<S>(shared: &Shared<S>, id: &TaskId, follower: &Arc<Follower>, poll: Duration) -> bool {
    let quiet = (poll * 5).max(Duration::from_secs(5));
    let mut followers = lock(&shared.followers);
    let mut state = lock(&follower.state);
    if follower.waiters.load(Ordering::SeqCst) > 0 || state.last_access.elapsed() < quiet {
        return false;
    }
    state.dead = true;
    drop(state);
    if followers.get(id).is_some_and(|f| Arc::ptr_eq(f, follower)) {
        followers.remove(id);
    }
    follower.notify.notify_waiters();
    true
}

fn remove<S>(shared: &Shared<S>, id: &TaskId, follower: &Arc<Follower>) {
    let mut followers = lock(&shared.followers);
    lock(&follower.state).dead = true;
    if followers.get(id).is_some_and(|f| Arc::ptr_eq(f, follower)) {
        followers.remove(id);
    }
    follower.notify.notify_waiters();
}
