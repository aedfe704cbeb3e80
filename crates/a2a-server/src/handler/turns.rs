//! The handler's own serialization of the decisions it takes about a task's executions.
//!
//! A store's [`update`](crate::store::TaskStore::update) may run its change more than once (a
//! SQL store retries a transaction that lost a conflict), so the change decides on the stored
//! task alone and the handler's bookkeeping (which execution runs for a task, its interrupted
//! deadline) happens after the update, never inside it. What the bookkeeping must see
//! atomically with the update (a follow-up accepted while an earlier execution finishes its
//! turn) is kept in order by a [`Turns`] lock held around the update and the bookkeeping.

use a2a_types::v1::TaskId;
use tokio::sync::{Mutex, MutexGuard};

/// Striped locks, one stripe per task id's hash: the handler holds a task's stripe while it
/// decides on, updates and books an execution of that task. Stripes, not one lock per task:
/// the table is fixed, nothing to clean up, and two tasks sharing a stripe only wait for one
/// short update of each other.
#[derive(Debug)]
pub(crate) struct Turns {
    stripes: Box<[Mutex<()>]>,
}

/// How many stripes: enough that unrelated tasks seldom share one.
const STRIPES: usize = 64;

impl Default for Turns {
    fn default() -> Self {
        Self {
            stripes: (0..STRIPES).map(|_| Mutex::new(())).collect(),
        }
    }
}

impl Turns {
    /// Holds the stripe of `id` until the guard is dropped.
    pub(crate) async fn lock(&self, id: &TaskId) -> MutexGuard<'_, ()> {
        let stripe = (crate::hashing::stripe(id) % self.stripes.len() as u64) as usize;
        self.stripes[stripe].lock().await
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn one_task_waits_for_its_own_turn() {
        let turns = Turns::default();
        let id = TaskId::from("a");
        let held = turns.lock(&id).await;
        let second = tokio::time::timeout(Duration::from_millis(20), turns.lock(&id)).await;
        assert!(second.is_err(), "a second lock of one task waits");
        drop(held);
        let again = tokio::time::timeout(Duration::from_secs(5), turns.lock(&id)).await;
        assert!(again.is_ok(), "the lock is free once the guard is dropped");
    }
}
