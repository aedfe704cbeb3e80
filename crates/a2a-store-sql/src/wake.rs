//! Waking readers: in this process directly, on other replicas by PostgreSQL `NOTIFY`.
//!
//! The payload of a notification on the store's channel is `l:<task id>` (the task's log grew)
//! or `o:` (deliveries were enqueued). A cancel on another replica reaches the agent's replica
//! this way too: it is an event of the task's log (its CANCELED status). A
//! listener that reconnects wakes every local waiter, which then re-reads: a notification lost
//! while it was away costs latency, never events.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

/// The waiters of this process, per task.
#[derive(Debug, Default)]
pub(crate) struct Waiters {
    tasks: Mutex<HashMap<String, Arc<Notify>>>,
    /// Wakes the push worker.
    pub(crate) outbox: Notify,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A registration of a waiter on one task: the entry goes when its last waiter does.
pub(crate) struct Waiting<'a> {
    waiters: &'a Waiters,
    id: String,
    pub(crate) notify: Arc<Notify>,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut tasks = lock(&self.waiters.tasks);
        // The map's reference and this one: nobody else waits.
        if Arc::strong_count(&self.notify) == 2 {
            tasks.remove(&self.id);
        }
    }
}

impl Waiters {
    /// Registers a waiter on `id`.
    pub(crate) fn register(&self, id: &str) -> Waiting<'_> {
        let notify = lock(&self.tasks)
            .entry(id.to_owned())
            .or_insert_with(|| Arc::new(Notify::new()))
            .clone();
        Waiting {
            waiters: self,
            id: id.to_owned(),
            notify,
        }
    }

    /// Wakes the waiters of one task.
    pub(crate) fn wake(&self, id: &str) {
        if let Some(notify) = lock(&self.tasks).get(id) {
            notify.notify_waiters();
        }
    }

    /// Wakes every waiter (a listener reconnected, or the database is reachable again: what was
    /// missed is unknown).
    pub(crate) fn wake_all(&self) {
        for notify in lock(&self.tasks).values() {
            notify.notify_waiters();
        }
        self.outbox.notify_one();
    }

    /// Acts on one notification payload.
    #[cfg_attr(
        not(feature = "postgres"),
        allow(dead_code, reason = "only PostgreSQL notifies (the tests call it too)")
    )]
    pub(crate) fn on_payload(&self, payload: &str) {
        match payload.split_once(':') {
            Some(("l", id)) => self.wake(id),
            Some(("o", _)) => self.outbox.notify_one(),
            _ => tracing::debug!(payload, "unknown a2a store notification"),
        }
    }
}

/// Listens on the store's PostgreSQL channel until the store is dropped.
#[cfg(feature = "postgres")]
pub(crate) async fn listen(url: String, channel: String, waiters: std::sync::Weak<Waiters>) {
    use std::time::Duration;

    use sqlx::postgres::PgListener;

    let mut backoff = Duration::from_millis(100);
    loop {
        if waiters.strong_count() == 0 {
            return;
        }
        let mut listener = match PgListener::connect(&url).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::warn!(%err, "cannot LISTEN for a2a store notifications; retrying");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        if let Err(err) = listener.listen(&channel).await {
            tracing::warn!(%err, "LISTEN failed; retrying");
            tokio::time::sleep(backoff).await;
            continue;
        }
        backoff = Duration::from_millis(100);
        // Connected (again): whatever was missed is re-read.
        match waiters.upgrade() {
            Some(w) => w.wake_all(),
            None => return,
        }
        loop {
            // Wakes now and then to notice a dropped store.
            let next = tokio::time::timeout(Duration::from_secs(5), listener.try_recv()).await;
            let Some(w) = waiters.upgrade() else { return };
            match next {
                Err(_) => continue,
                Ok(Ok(Some(notification))) => w.on_payload(notification.payload()),
                Ok(Ok(None)) => {
                    // The connection was lost; try_recv reconnects on the next call.
                    w.wake_all();
                }
                Ok(Err(err)) => {
                    tracing::warn!(%err, "a2a store notifications interrupted; reconnecting");
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_go_with_their_last_waiter() {
        let waiters = Waiters::default();
        let a = waiters.register("t");
        let b = waiters.register("t");
        drop(a);
        assert_eq!(lock(&waiters.tasks).len(), 1);
        drop(b);
        assert!(lock(&waiters.tasks).is_empty());
    }

    #[cfg(feature = "postgres")]
    #[tokio::test]
    async fn payloads_name_what_to_wake() {
        let waiters = Waiters::default();
        let waiting = waiters.register("t-1");
        let woken = waiting.notify.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        waiters.on_payload("l:t-2");
        assert!(futures_poll(woken.as_mut()).is_none(), "another task's log");
        waiters.on_payload("l:t-1");
        assert!(futures_poll(woken.as_mut()).is_some());
        waiters.on_payload("o:");
        tokio::time::timeout(std::time::Duration::from_secs(1), waiters.outbox.notified())
            .await
            .expect("the outbox was notified");
    }

    #[cfg(feature = "postgres")]
    fn futures_poll<F: std::future::Future>(f: std::pin::Pin<&mut F>) -> Option<F::Output> {
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        match f.poll(&mut cx) {
            std::task::Poll::Ready(out) => Some(out),
            std::task::Poll::Pending => None,
        }
    }
}
