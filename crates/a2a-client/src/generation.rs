//! The A2A 1.1 draft's task generations on the client side (spec `dev-1.1` §3.2.7, §3.2.2):
//! whether the client may rely on them with this agent, the long poll's outcome
//! ([`TaskWait`]), the typed `TaskGenerationMismatchError` ([`GenerationMismatch`]), and the
//! gap check of a stream ([`GenerationGap`]).
//!
//! Generations are used only when 1.1 was negotiated
//! ([`ClientBuilder::allow_v1_1`](crate::ClientBuilder::allow_v1_1) and a card that offers a 1.1
//! interface). A task or an event of generation 0 from such an agent, or two events of a stream
//! in a row with the same generation, mean the agent does not implement them (the draft: the
//! client "MUST NOT use generation for ordering, long-polling, or precondition checks for the
//! remainder of that interaction"): from then on the client, its clones and its streams use no
//! generations; the switch is logged at `info` (target `a2a_client`).

use std::sync::atomic::{AtomicBool, Ordering};

use a2a_jsonrpc::ErrorCode;
use a2a_types::protocol::Reply;
use a2a_types::v1::{SendMessageResponse, StreamResponse, Task, TaskId};

use crate::Error;

/// Whether a client uses generations with its agent: on when 1.1 was negotiated, off for good
/// once the agent showed it does not implement them.
#[derive(Debug)]
pub(crate) struct Support {
    on: AtomicBool,
}

impl Support {
    pub(crate) fn new(negotiated: bool) -> Self {
        Self {
            on: AtomicBool::new(negotiated),
        }
    }

    /// True while the client uses generations.
    pub(crate) fn on(&self) -> bool {
        self.on.load(Ordering::Acquire)
    }

    /// The agent does not implement generations (`why`): stop using them, and say so once.
    pub(crate) fn disprove(&self, why: &str) {
        if self.on.swap(false, Ordering::AcqRel) {
            tracing::info!(
                target: "a2a_client",
                "the agent speaks A2A 1.1 but {why}: it does not implement task generations; \
                 this client no longer uses them with it"
            );
        }
    }

    /// Checks the generation of a task the agent answered with.
    pub(crate) fn observe_task(&self, task: &Task) {
        if task.generation <= 0 && self.on() {
            self.disprove(&format!("answered task {} with generation 0", task.id));
        }
    }

    /// Checks the tasks of a reply.
    pub(crate) fn observe_reply(&self, reply: &Reply) {
        match reply {
            Reply::Task(task) => self.observe_task(task),
            Reply::Sent(sent) => {
                if let SendMessageResponse::Task(task) = &**sent {
                    self.observe_task(task);
                }
            }
            _ => {}
        }
    }
}

/// A `TaskGenerationMismatchError` (-32010, HTTP 409, gRPC `ABORTED`) as its fields: the
/// message's `ifGenerationMatch` was not the task's generation, and nothing changed. The draft
/// advises re-fetching the task before deciding whether to send again.
///
/// ```
/// use a2a_client::{A2aError, Error};
///
/// let error = Error::from(A2aError::task_generation_mismatch("t-1", 3, 5));
/// let mismatch = error.generation_mismatch().unwrap();
/// assert_eq!((mismatch.task_id.as_str(), mismatch.expected, mismatch.current), ("t-1", Some(3), Some(5)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GenerationMismatch {
    /// The task (metadata `taskId`; empty when the agent left it out).
    pub task_id: String,
    /// The generation the message expected (metadata `expectedGeneration`), when given.
    pub expected: Option<i64>,
    /// The task's generation then (metadata `currentGeneration`), when given.
    pub current: Option<i64>,
}

impl Error {
    /// The agent's `TaskGenerationMismatchError`, with its generations; `None` for any other
    /// error. Metadata that is missing or no number is `None` in its field.
    pub fn generation_mismatch(&self) -> Option<GenerationMismatch> {
        let error = self.agent_error()?;
        if error.code() != ErrorCode::TASK_GENERATION_MISMATCH {
            return None;
        }
        let number = |key: &str| error.metadata(key).and_then(|v| v.trim().parse().ok());
        Some(GenerationMismatch {
            task_id: error.metadata("taskId").unwrap_or_default().to_owned(),
            expected: number("expectedGeneration"),
            current: number("currentGeneration"),
        })
    }
}

/// What [`A2aClient::wait_for_task`](crate::A2aClient::wait_for_task) found.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TaskWait {
    /// The task's generation passed the one waited past: the task as it is now.
    Changed(Task),
    /// The deadline came first: the task as it is now (its generation not past the one waited
    /// past).
    Unchanged(Task),
    /// The client does not use generations with this agent (it does not speak A2A 1.1, or
    /// showed it does not implement them): the task as it is now, fetched at once. Whether it
    /// changed is for the caller to judge (by its state or artifacts), polling again later.
    Unsupported(Task),
}

impl TaskWait {
    /// The task, whatever the outcome.
    pub fn task(&self) -> &Task {
        match self {
            TaskWait::Changed(task) | TaskWait::Unchanged(task) | TaskWait::Unsupported(task) => {
                task
            }
        }
    }

    /// The task, whatever the outcome.
    pub fn into_task(self) -> Task {
        match self {
            TaskWait::Changed(task) | TaskWait::Unchanged(task) | TaskWait::Unsupported(task) => {
                task
            }
        }
    }
}

/// A gap a [`TaskStream`](crate::TaskStream) found in the generations of its events: an event
/// of generation `received` came after `after`, so at least one event was not delivered. The
/// stream delivered that event, then fetched the task (`GetTask`) and delivered it as a
/// [`StreamResponse::Task`]; see [`TaskStream::generation_gaps`](crate::TaskStream::generation_gaps).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GenerationGap {
    /// The task.
    pub task_id: TaskId,
    /// The generation last seen.
    pub after: i64,
    /// The generation of the event that came next.
    pub received: i64,
    /// The generation of the task as fetched after the gap; `None` when the fetch failed
    /// (the stream goes on without it).
    pub refetched: Option<i64>,
}

/// What the gap check makes of one event.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Checked {
    /// In order (or not checked).
    InOrder,
    /// After a gap: deliver it, then fetch the task.
    Gap {
        /// The generation seen before.
        after: i64,
        /// The event's.
        received: i64,
    },
    /// The agent does not implement generations (the reason): stop checking.
    Unsupported(String),
}

/// A stream's gap check: the generation it is at, and whether that came from an event (two
/// events in a row with the same generation say the agent does not implement them) or from a
/// task snapshot (the events the snapshot already holds may follow it).
#[derive(Debug, Default)]
pub(crate) struct Tracker {
    last: Option<i64>,
    last_was_event: bool,
}

impl Tracker {
    /// Checks `event` against the generations seen so far.
    pub(crate) fn check(&mut self, event: &StreamResponse) -> Checked {
        let (generation, is_event) = match event {
            StreamResponse::Task(task) => (task.generation, false),
            StreamResponse::StatusUpdate(update) => (update.generation, true),
            StreamResponse::ArtifactUpdate(update) => (update.generation, true),
            _ => return Checked::InOrder,
        };
        if generation <= 0 {
            return Checked::Unsupported(format!(
                "sent an event of task {} with generation 0",
                event.task_id().map_or("?", |id| id.as_str())
            ));
        }
        let Some(last) = self.last else {
            self.seen(generation, is_event);
            return Checked::InOrder;
        };
        if !is_event {
            // A snapshot: where the stream stands from now on.
            self.seen(generation.max(last), false);
            return Checked::InOrder;
        }
        if generation <= last {
            if self.last_was_event {
                return Checked::Unsupported(format!(
                    "sent an event of generation {generation} right after one of generation {last}"
                ));
            }
            // An event the snapshot before it already holds.
            return Checked::InOrder;
        }
        self.seen(generation, true);
        if generation > last + 1 {
            Checked::Gap {
                after: last,
                received: generation,
            }
        } else {
            Checked::InOrder
        }
    }

    /// The task was fetched after a gap: the stream stands at its generation.
    pub(crate) fn refetched(&mut self, task: &Task) {
        if task.generation > 0 {
            let at = self
                .last
                .map_or(task.generation, |last| last.max(task.generation));
            self.seen(at, false);
        }
    }

    fn seen(&mut self, generation: i64, is_event: bool) {
        self.last = Some(generation);
        self.last_was_event = is_event;
    }
}

#[cfg(test)]
mod tests {
    use a2a_types::v1::{
        Artifact, Part, TaskArtifactUpdateEvent, TaskState, TaskStatus, TaskStatusUpdateEvent,
    };

    use super::*;

    fn task(generation: i64) -> StreamResponse {
        let mut task = Task::new("t", "c", TaskStatus::new(TaskState::Working));
        task.generation = generation;
        StreamResponse::Task(task)
    }

    fn status(generation: i64) -> StreamResponse {
        StreamResponse::StatusUpdate(
            TaskStatusUpdateEvent::new("t", "c", TaskStatus::new(TaskState::Working))
                .with_generation(generation),
        )
    }

    fn artifact(generation: i64) -> StreamResponse {
        StreamResponse::ArtifactUpdate(
            TaskArtifactUpdateEvent::new("t", "c", Artifact::new("a", vec![Part::text("x")]))
                .with_generation(generation),
        )
    }

    fn run(events: &[StreamResponse]) -> Vec<String> {
        let mut tracker = Tracker::default();
        events
            .iter()
            .map(|e| match tracker.check(e) {
                Checked::InOrder => "ok".to_owned(),
                Checked::Gap { after, received } => format!("gap {after}->{received}"),
                Checked::Unsupported(why) => format!("unsupported: {why}"),
            })
            .collect()
    }

    #[test]
    fn in_order_streams_pass() {
        assert_eq!(
            run(&[task(1), status(2), artifact(3), status(4)]),
            ["ok", "ok", "ok", "ok"]
        );
        // Events the snapshot holds may follow it.
        assert_eq!(run(&[task(3), status(3), status(4)]), ["ok", "ok", "ok"]);
    }

    #[test]
    fn a_gap_is_reported_and_the_check_goes_on_from_the_event() {
        assert_eq!(
            run(&[task(1), status(2), artifact(5), status(6), status(8)]),
            ["ok", "ok", "gap 2->5", "ok", "gap 6->8"]
        );
        let mut tracker = Tracker::default();
        assert_eq!(tracker.check(&status(2)), Checked::InOrder);
        assert_eq!(
            tracker.check(&status(4)),
            Checked::Gap {
                after: 2,
                received: 4
            }
        );
        let StreamResponse::Task(fetched) = task(6) else {
            unreachable!()
        };
        tracker.refetched(&fetched);
        assert_eq!(tracker.check(&status(5)), Checked::InOrder);
        assert_eq!(tracker.check(&status(7)), Checked::InOrder);
    }

    #[test]
    fn zero_or_a_repeat_means_no_generations() {
        assert_eq!(
            run(&[task(0)]),
            ["unsupported: sent an event of task t with generation 0"]
        );
        assert_eq!(
            run(&[status(2), status(2)]),
            [
                "ok",
                "unsupported: sent an event of generation 2 right after one of generation 2"
            ]
        );
        assert_eq!(
            run(&[status(3), artifact(1)])[1],
            "unsupported: sent an event of generation 1 right after one of generation 3"
        );
    }

    #[test]
    fn support_is_lost_on_generation_zero() {
        let support = Support::new(true);
        let StreamResponse::Task(mut fetched) = task(2) else {
            unreachable!()
        };
        support.observe_task(&fetched);
        assert!(support.on());
        fetched.generation = 0;
        support.observe_reply(&Reply::Task(Box::new(fetched)));
        assert!(!support.on());
    }
}
