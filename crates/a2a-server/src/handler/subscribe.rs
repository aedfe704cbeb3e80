//! Following a task: `SubscribeToTask` and the log stream every event stream reads.

use a2a_types::protocol::Operation;
use std::sync::Arc;
use std::time::Duration;

use a2a_types::v1::{StreamResponse, TaskId};
use tokio_util::sync::CancellationToken;

use super::outage::Patience;
use super::{CallContext, EventStream, RequestHandler, StreamEvent};
use crate::error::A2aError;
use crate::store::{TaskPin, TaskStore};

impl RequestHandler {
    /// `SubscribeToTask`: the current task first, then its events. With `last_event_id`
    /// (the SSE `Last-Event-ID`), resumes right after that event instead, without the task.
    #[tracing::instrument(name = "a2a.call", level = "info", skip_all, err(level = "info"), fields(a2a.method = "SubscribeToTask", a2a.task_id = %id))]
    pub async fn subscribe_to_task(
        &self,
        id: &TaskId,
        last_event_id: Option<u64>,
        call: &CallContext,
    ) -> Result<EventStream, A2aError> {
        self.authorize(Operation::SubscribeToTask, call)?;
        self.streaming_supported()?;
        let stored = match self.inner.store.load(id).await? {
            Some(stored) if stored.owner == call.owner() => stored,
            _ => return Err(A2aError::task_not_found(id.clone())),
        };
        if let Some(last) = last_event_id.filter(|last| *last > stored.last_seq) {
            return Err(A2aError::invalid_params(format!(
                "Last-Event-ID {last} is beyond the last event ({}) of task {id}",
                stored.last_seq
            )));
        }
        let pin = self
            .inner
            .store
            .pin(id)
            .await?
            .ok_or_else(|| A2aError::task_not_found(id.clone()))?;
        if let Some(last) = last_event_id
            && (last < stored.last_seq || !stored.task.status.state.is_terminal())
        {
            return Ok(log_stream(
                self.inner.store.clone(),
                id.clone(),
                last,
                None,
                pin,
                self.inner.config.outage_tolerance,
            ));
        }
        if stored.task.status.state.is_terminal() {
            return Err(A2aError::unsupported_operation(format!(
                "task {id} is {} (a terminal state); there is nothing to subscribe to",
                stored.task.status.state
            )));
        }
        let first = StreamEvent {
            seq: Some(stored.last_seq),
            event: StreamResponse::Task(stored.task),
        };
        Ok(log_stream(
            self.inner.store.clone(),
            id.clone(),
            stored.last_seq,
            Some(first),
            pin,
            self.inner.config.outage_tolerance,
        ))
    }
}

/// Reads a task's log from `after` on, yielding events until a final one, while `pin` keeps
/// the task stored. A task that goes anyway (a store that cannot pin) ends the stream with an
/// error that says so, never quietly. A store that fails transiently is waited for, at most
/// `tolerance` (see [`Patience`]); then the stream ends with its error.
pub(super) fn log_stream(
    store: Arc<dyn TaskStore>,
    task_id: TaskId,
    after: u64,
    first: Option<StreamEvent>,
    pin: TaskPin,
    tolerance: Duration,
) -> EventStream {
    struct State {
        store: Arc<dyn TaskStore>,
        task_id: TaskId,
        after: u64,
        buffer: std::collections::VecDeque<StreamEvent>,
        done: bool,
        /// The last read found nothing new after a `wait` returned: only then does the
        /// stream ask whether the task is gone.
        waited: bool,
        /// Waits out a store that fails transiently; renewed after each read that works.
        patience: Patience,
        tolerance: Duration,
        _pin: TaskPin,
    }
    let done = first.as_ref().is_some_and(|f| f.event.is_final());
    let state = State {
        store,
        task_id,
        after,
        buffer: first.into_iter().collect(),
        done: false,
        waited: false,
        patience: Patience::new(tolerance),
        tolerance,
        _pin: pin,
    };
    // Nothing stops the wait but the tolerance: a stream nobody reads is dropped with it.
    let never = CancellationToken::new();
    let stream = futures_util::stream::unfold(state, move |mut st| {
        let never = never.clone();
        async move {
            loop {
                if let Some(item) = st.buffer.pop_front() {
                    if item.event.is_final() {
                        st.done = true;
                        st.buffer.clear();
                    }
                    return Some((Ok(item), st));
                }
                if st.done || done {
                    return None;
                }
                let entries = match st.store.read_log(&st.task_id, st.after, 64).await {
                    Ok(entries) => {
                        st.patience = Patience::new(st.tolerance);
                        entries
                    }
                    Err(err) => match st.patience.wait(err, &never).await {
                        Ok(()) => continue,
                        Err(err) => {
                            st.done = true;
                            return Some((Err(A2aError::from(err)), st));
                        }
                    },
                };
                if entries.is_empty() {
                    // `wait` returns at once when the task is gone or has logged more; its
                    // progress tells which, and is needed only when the read after a wait found
                    // nothing.
                    if st.waited {
                        match st.store.progress(&st.task_id).await {
                            Ok(Some(progress)) if progress.last_seq > st.after => continue,
                            Ok(Some(_)) => {}
                            Ok(None) => {
                                st.done = true;
                                let gone = A2aError::internal(format!(
                                    "task {} was evicted from the store while this stream was \
                                 reading it (after event {})",
                                    st.task_id, st.after
                                ));
                                return Some((Err(gone), st));
                            }
                            Err(err) => match st.patience.wait(err, &never).await {
                                Ok(()) => continue,
                                Err(err) => {
                                    st.done = true;
                                    return Some((Err(A2aError::from(err)), st));
                                }
                            },
                        }
                    }
                    if let Err(err) = st.store.wait(&st.task_id, st.after).await {
                        match st.patience.wait(err, &never).await {
                            Ok(()) => continue,
                            Err(err) => {
                                st.done = true;
                                return Some((Err(A2aError::from(err)), st));
                            }
                        }
                    }
                    st.waited = true;
                    continue;
                }
                st.waited = false;
                for entry in entries {
                    st.after = entry.seq;
                    st.buffer.push_back(StreamEvent {
                        seq: Some(entry.seq),
                        event: entry.event,
                    });
                }
            }
        }
    });
    Box::pin(stream)
}
