//! Following a task: a stream's events printed as they come, then the lines that restate the
//! task (its context, state, last event id and the command that continues it). `send --stream`,
//! `task subscribe --stream` and `task push-config receive` print what they follow through it.

use a2a_types::v1::StreamResponse;

use crate::diag::Diag;
use crate::error::CliError;
use crate::output::Out;
use crate::wait::{self, Waiter};

/// Prints a stream's events to its end, then (text) restates the task; errors end it with the
/// error (the caller prints it as the last line).
pub(crate) async fn follow_printing(
    waiter: &Waiter<'_>,
    out: &mut Out,
    stream: &mut a2a_client::TaskStream,
    diag: &Diag,
) -> Result<(), CliError> {
    let followed = {
        let out = &mut *out;
        waiter
            .bounded(async {
                Ok(waiter
                    .follow(stream, |event, id| out.event(event, id))
                    .await)
            })
            .await
    };
    out.close();
    let last = match followed {
        Ok(Ok(last)) => last,
        Ok(Err(error)) => return Err(waiter.error(&error)),
        Err(error) => return Err(error),
    };
    restate(waiter, out, last.as_ref(), diag);
    if last.is_none() {
        diag.warn("the event stream ended before the task reached a terminal or interrupted state");
    }
    Ok(())
}

/// After the events of a task (a stream's, or push deliveries), the last lines in text name the
/// task, its context and its state (the last event does when it is a status, the task or a
/// message; after an artifact they are said again), with the last event id and the command that
/// continues the task; stderr says how it turned out.
pub(crate) fn restate(
    waiter: &Waiter<'_>,
    out: &mut Out,
    last: Option<&StreamResponse>,
    diag: &Diag,
) {
    let seen = waiter.seen.borrow().clone();
    // The last lines name the task, its context and state: the last event does when it is a
    // status (or the task); after an artifact, they are said again.
    let restated = matches!(
        last,
        Some(
            StreamResponse::StatusUpdate(_) | StreamResponse::Task(_) | StreamResponse::Message(_)
        )
    );
    if !out.json()
        && let Some(task) = &seen.task_id
    {
        if !restated {
            out.field("Task-Id", task.as_str());
            out.field(
                "Context-Id",
                seen.context_id.as_ref().map_or("", |c| c.as_str()),
            );
            if let Some(state) = seen.state {
                out.field("State", crate::output::state(state));
            }
        }
        if let Some(id) = &seen.event_id {
            out.field("Last-Event-Id", id);
        }
    }
    if let (Some(task), Some(state)) = (&seen.task_id, seen.state) {
        let mut shown = a2a_types::v1::Task::new(
            task.clone(),
            seen.context_id.clone().unwrap_or_default(),
            a2a_types::v1::TaskStatus::new(state),
        );
        shown.context_id.clone_from(&seen.context_id);
        if !out.json()
            && let Some(resume) = wait::resume(waiter.agent, &shown)
        {
            out.field("Resume", &resume);
        }
        wait::outcome(diag, waiter.agent, &shown);
    }
}
