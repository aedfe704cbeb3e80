//! The task state machine: which events a task accepts, and the edit each makes.

use a2a_types::v1::{
    Artifact, Message, MessageId, Part, Role, Task, TaskState, TaskStatus, Timestamp,
};

use crate::agent::SinkError;
use crate::store::{Room, TaskEdit};

/// Checks a new state against the current one. Terminal tasks accept nothing; no task goes
/// back to `SUBMITTED` or to `UNSPECIFIED`.
pub(crate) fn check_transition(task: &Task, to: TaskState) -> Result<(), SinkError> {
    let from = task.status.state;
    if from.is_terminal() {
        return Err(SinkError::TaskClosed {
            task_id: task.id.clone(),
            state: from,
        });
    }
    let allowed = match to {
        TaskState::Unspecified => false,
        TaskState::Submitted => from == TaskState::Submitted,
        _ => true,
    };
    if allowed {
        Ok(())
    } else {
        Err(SinkError::InvalidTransition {
            task_id: task.id.clone(),
            from,
            to,
        })
    }
}

/// A new status, stamped now; a status message also joins the history.
pub(crate) fn status_edit(
    task: &Task,
    state: TaskState,
    message: Option<Message>,
) -> Result<TaskEdit, SinkError> {
    check_transition(task, state)?;
    let mut status = TaskStatus::new(state).with_timestamp(Timestamp::now());
    status.message = message;
    Ok(TaskEdit::Status(status))
}

/// A message of the agent about `task` (the server speaking for it): one text part.
pub(crate) fn agent_message(task: &Task, text: impl Into<String>) -> Message {
    Message::new(MessageId::random(), Role::Agent, vec![Part::text(text)])
        .with_task_id(task.id.clone())
        .with_context_id(task.context_id.clone().unwrap_or_default())
}

/// The current status again with a fresh timestamp: the end of a turn that changed nothing
/// (a follow-up the agent left waiting for more input).
pub(crate) fn restate() -> TaskEdit {
    TaskEdit::Restate(Timestamp::now())
}

/// An artifact or a chunk of one.
pub(crate) fn artifact_edit(
    task: &Task,
    artifact: Artifact,
    append: bool,
    last_chunk: bool,
) -> Result<TaskEdit, SinkError> {
    if task.status.state.is_terminal() {
        return Err(SinkError::TaskClosed {
            task_id: task.id.clone(),
            state: task.status.state,
        });
    }
    if append
        && !task
            .artifacts
            .iter()
            .any(|a| a.artifact_id == artifact.artifact_id)
    {
        return Err(SinkError::UnknownArtifact {
            artifact_id: artifact.artifact_id.to_string(),
        });
    }
    Ok(TaskEdit::Artifact {
        artifact,
        append,
        last_chunk,
    })
}

/// Whether `bytes` more fit in a task that may hold `max_task_bytes` and in its store; when
/// not, which limit they would cross, as a sentence.
pub(crate) fn check_room(room: Room, bytes: u64, max_task_bytes: u64) -> Result<(), String> {
    let task_room = max_task_bytes.saturating_sub(room.task_bytes);
    if bytes > task_room {
        return Err(format!(
            "the task holds {} bytes, and {bytes} more would take it over the limit of \
             {max_task_bytes} bytes a task may hold (max_task_bytes)",
            room.task_bytes
        ));
    }
    if bytes > room.store_room {
        return Err(format!(
            "the task store has room for {} more bytes of unfinished tasks, not {bytes} \
             (max_total_bytes); try again later",
            room.store_room
        ));
    }
    Ok(())
}

/// The task as a client asked to see it: at most `history_length` recent messages, and
/// without artifacts unless `include_artifacts`.
pub(crate) fn present(
    mut task: Task,
    history_length: Option<i32>,
    include_artifacts: bool,
) -> Task {
    if let Some(n) = history_length {
        let keep = usize::try_from(n).unwrap_or(0);
        let len = task.history.len();
        if len > keep {
            task.history.drain(..len - keep);
        }
    }
    if !include_artifacts {
        task.artifacts.clear();
    }
    task
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::StreamResponse;

    use super::*;

    fn task(state: TaskState) -> Task {
        Task::new("t", "c", TaskStatus::new(state))
    }

    fn apply_status(
        t: &mut Task,
        state: TaskState,
        message: Option<Message>,
    ) -> Result<StreamResponse, SinkError> {
        Ok(status_edit(t, state, message)?
            .apply(t)
            .expect("a status is logged"))
    }

    fn apply_artifact(
        t: &mut Task,
        artifact: Artifact,
        append: bool,
        last_chunk: bool,
    ) -> Result<StreamResponse, SinkError> {
        Ok(artifact_edit(t, artifact, append, last_chunk)?
            .apply(t)
            .expect("an artifact is logged"))
    }

    #[test]
    fn terminal_tasks_accept_nothing() {
        for state in [
            TaskState::Completed,
            TaskState::Failed,
            TaskState::Canceled,
            TaskState::Rejected,
        ] {
            let mut t = task(state);
            assert_eq!(
                apply_status(&mut t, TaskState::Working, None)
                    .unwrap_err()
                    .to_string(),
                format!("task t is {state} and accepts no more events")
            );
            assert!(apply_artifact(&mut t, Artifact::new("a", vec![]), false, false).is_err());
        }
    }

    #[test]
    fn no_way_back_to_submitted() {
        let mut t = task(TaskState::Working);
        assert_eq!(
            apply_status(&mut t, TaskState::Submitted, None).unwrap_err(),
            SinkError::InvalidTransition {
                task_id: "t".into(),
                from: TaskState::Working,
                to: TaskState::Submitted
            }
        );
        assert!(apply_status(&mut t, TaskState::Unspecified, None).is_err());
        assert!(apply_status(&mut t, TaskState::InputRequired, None).is_ok());
        assert!(apply_status(&mut t, TaskState::Working, None).is_ok());
    }

    #[test]
    fn status_messages_join_the_history() {
        let mut t = task(TaskState::Submitted);
        let m = Message::new("m", Role::Agent, vec![Part::text("which city?")]);
        let event = apply_status(&mut t, TaskState::InputRequired, Some(m.clone())).unwrap();
        assert_eq!(t.history, vec![m]);
        assert!(t.status.timestamp.is_some());
        assert!(event.is_final());
    }

    #[test]
    fn chunks_append_to_their_artifact() {
        let mut t = task(TaskState::Working);
        apply_artifact(
            &mut t,
            Artifact::new("a", vec![Part::text("one ")]),
            false,
            false,
        )
        .unwrap();
        apply_artifact(
            &mut t,
            Artifact::new("a", vec![Part::text("two")]),
            true,
            true,
        )
        .unwrap();
        assert_eq!(t.artifacts.len(), 1);
        assert_eq!(t.artifacts[0].text(), "one two");
        assert_eq!(
            apply_artifact(&mut t, Artifact::new("b", vec![]), true, false).unwrap_err(),
            SinkError::UnknownArtifact {
                artifact_id: "b".into()
            }
        );
    }

    #[test]
    fn room_names_the_limit_it_would_cross() {
        assert_eq!(check_room(Room::new(900, 10_000), 100, 1000), Ok(()));
        assert_eq!(
            check_room(Room::new(900, 10_000), 101, 1000).unwrap_err(),
            "the task holds 900 bytes, and 101 more would take it over the limit of 1000 bytes \
             a task may hold (max_task_bytes)"
        );
        assert_eq!(
            check_room(Room::new(0, 50), 51, 1000).unwrap_err(),
            "the task store has room for 50 more bytes of unfinished tasks, not 51 \
             (max_total_bytes); try again later"
        );
    }

    #[test]
    fn present_trims_history_and_artifacts() {
        let mut t = task(TaskState::Completed);
        t.history = (0..5)
            .map(|i| Message::new(format!("m{i}"), Role::User, vec![]))
            .collect();
        t.artifacts.push(Artifact::new("a", vec![]));
        let shown = present(t.clone(), Some(2), false);
        assert_eq!(
            shown
                .history
                .iter()
                .map(|m| m.message_id.as_str())
                .collect::<Vec<_>>(),
            ["m3", "m4"]
        );
        assert!(shown.artifacts.is_empty());
        assert!(present(t.clone(), Some(0), true).history.is_empty());
        assert_eq!(present(t, None, true).history.len(), 5);
    }
}
