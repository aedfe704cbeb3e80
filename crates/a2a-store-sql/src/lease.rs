//! Leases of active tasks to the replica running their agent (see the
//! [crate docs](crate#replicas-that-stop)).

use std::time::Duration;

use a2a_server::store::TaskEdit;
use a2a_types::v1::{Message, MessageId, Part, Role, Task, TaskState, TaskStatus, Timestamp};

use crate::SqlStore;

/// The status message of a task whose replica stopped.
pub(crate) const FAILURE_TEXT: &str = "The replica running this task stopped before the task \
     ended (its lease ran out); send the message again to start a new task.";

/// Whether an agent runs for a task in `state` (it is leased).
pub(crate) fn is_active(state: TaskState) -> bool {
    matches!(state, TaskState::Submitted | TaskState::Working)
}

/// The edit that ends a task whose lease ran out.
pub(crate) fn failure(task: &Task) -> TaskEdit {
    let message = Message::new(
        MessageId::random(),
        Role::Agent,
        vec![Part::text(FAILURE_TEXT)],
    )
    .with_task_id(task.id.clone())
    .with_context_id(task.context_id.clone().unwrap_or_default());
    let mut status = TaskStatus::new(TaskState::Failed).with_timestamp(Timestamp::now());
    status.message = Some(message);
    TaskEdit::Status(status)
}

/// A name for this process's leases: its pid and start time, which no other live process
/// shares on one machine, and a random part for other machines.
pub(crate) fn replica_name() -> String {
    let random = MessageId::random().to_string();
    let short: String = random
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(12)
        .collect();
    format!("{}-{short}", std::process::id())
}

/// Renews this replica's leases and fails expired ones, every third of the lease and as soon
/// as the database is back after an outage, until the store is dropped or closed.
pub(crate) fn spawn_keeper(store: &SqlStore, mut stop: tokio::sync::watch::Receiver<bool>) {
    let Some(lease) = store.inner.config.lease else {
        return;
    };
    let every = (lease / 3).max(Duration::from_millis(50));
    let weak = std::sync::Arc::downgrade(&store.inner);
    tokio::spawn(async move {
        loop {
            let Some(health) = weak.upgrade().map(|inner| inner.health.clone()) else {
                return;
            };
            tokio::select! {
                _ = stop.changed() => return,
                () = tokio::time::sleep(every) => {}
                () = health.recovered() => {}
            }
            drop(health);
            let Some(inner) = weak.upgrade() else { return };
            if inner.health.is_down() {
                // Nothing to renew or judge: the probe tells when the database is back.
                continue;
            }
            let store = SqlStore { inner };
            if let Err(err) = store.check_leases().await {
                tracing::warn!(%err, "cannot renew or check task leases");
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_running_states_are_leased() {
        assert!(is_active(TaskState::Submitted));
        assert!(is_active(TaskState::Working));
        for state in [
            TaskState::InputRequired,
            TaskState::AuthRequired,
            TaskState::Completed,
            TaskState::Failed,
            TaskState::Canceled,
            TaskState::Rejected,
        ] {
            assert!(!is_active(state), "{state:?}");
        }
    }

    #[test]
    fn a_task_whose_replica_stopped_fails_saying_so() {
        let task = Task::new("t", "c", TaskStatus::now(TaskState::Working));
        let TaskEdit::Status(status) = failure(&task) else {
            panic!("a status edit");
        };
        assert_eq!(status.state, TaskState::Failed);
        let message = status.message.unwrap();
        assert_eq!(message.role, Role::Agent);
        assert_eq!(message.parts[0].as_text(), Some(FAILURE_TEXT));
        assert_eq!(message.task_id, Some("t".into()));
    }
}
