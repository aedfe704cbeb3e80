//! The flat dialect: 0.3's slash method names (`message/send`, `message/stream`, `tasks/get`,
//! `tasks/cancel`) plus `tasks/list` and `tasks/subscribe`, with the 1.0 JSON shapes (flat
//! parts, camelCase fields) but lowercase enum values (`"working"`, `"input_required"`,
//! `"user"`) and bare results (a `Task` or `Message`, not `{"task": …}`). This is the JSON-RPC
//! that PromptKit describes (issue 23's seed 003; `docs/versions.md`), served at the JSON-RPC
//! path and at `POST /a2a`.
//!
//! An edge adapter over the 1.0 types ([`a2a_types::flat`] rewrites the JSON): params get
//! their enum values renamed to 1.0's and are decoded as the 1.0 requests; results and events
//! are the 1.0 JSON with the oneof wrappers taken off and the enum values renamed back. Calls
//! run as 0.3 calls ([`ProtocolVersion::V0_3`]): the dialect is 0.3's method set in another spelling.
//!
//! Four of its methods are 0.3's too; the dialect claims a call of them by its shape
//! ([`claims`]): a `message/send` or `message/stream` whose message and parts carry no
//! `kind`, a `tasks/get` or `tasks/cancel` of a task this dialect started (the last
//! [`Limits::max_flat_tasks`](crate::Limits::max_flat_tasks) of them are remembered).

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use a2a_jsonrpc::{ErrorObject, Incoming};
use a2a_types::flat::{self, methods};
use a2a_types::protocol::ProtocolVersion;
use a2a_types::v1::{
    CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest, StreamResponse,
    SubscribeToTaskRequest,
};
use futures_util::StreamExt as _;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{RpcContext, RpcVersion, Table, legacy};
use crate::error::A2aError;
use crate::handler::EventStream;

/// The tasks the dialect started, newest last, at most `max`.
pub(crate) struct FlatTasks {
    max: usize,
    inner: Mutex<(HashSet<String>, VecDeque<String>)>,
}

impl FlatTasks {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            max,
            inner: Mutex::new((HashSet::new(), VecDeque::new())),
        }
    }

    fn remember(&self, id: &str) {
        if self.max == 0 {
            return;
        }
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (set, order) = &mut *guard;
        if !set.insert(id.to_owned()) {
            return;
        }
        order.push_back(id.to_owned());
        while order.len() > self.max {
            if let Some(oldest) = order.pop_front() {
                set.remove(&oldest);
            }
        }
    }

    fn contains(&self, id: &str) -> bool {
        let guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        guard.0.contains(id)
    }
}

/// Whether the flat dialect answers this call of a method it shares with 0.3 (see the module
/// docs); always for its own methods.
pub(super) fn claims(tasks: &FlatTasks, method: &str, incoming: &Incoming) -> bool {
    let params = match incoming {
        Incoming::Request(request) => request.params.as_deref(),
        Incoming::Notification(notification) => notification.params.as_deref(),
        Incoming::Invalid { .. } => None,
    };
    match method {
        methods::LIST | methods::SUBSCRIBE => true,
        methods::SEND | methods::STREAM => params
            .and_then(|p| serde_json::from_str::<Value>(p.get()).ok())
            .is_some_and(|p| flat::is_flat_message(&p)),
        methods::GET | methods::CANCEL => {
            legacy::task_id_param(incoming).is_some_and(|id| tasks.contains(id.as_str()))
        }
        _ => false,
    }
}

/// The flat version of the JSON-RPC endpoint; `tasks` remembers the tasks it started.
pub(super) fn protocol_version(tasks: Arc<FlatTasks>) -> RpcVersion {
    RpcVersion {
        name: "flat (0.3 names, 1.0 shapes)",
        protocol_version: ProtocolVersion::V0_3,
        check_version: legacy::check_v0_3,
        table: table(tasks),
        write_event,
        render_error: std::convert::identity,
    }
}

fn rpc<T>(result: Result<T, A2aError>) -> Result<T, ErrorObject> {
    result.map_err(ErrorObject::from)
}

fn table(tasks: Arc<FlatTasks>) -> Table {
    let sent = tasks.clone();
    let streamed = tasks;
    Table::streaming()
        .register_stream(
            methods::STREAM,
            move |p: In<SendMessageRequest>, cx: RpcContext| {
                let tasks = streamed.clone();
                async move {
                    let events = rpc(cx.handler.send_streaming_message(p.0, &cx.call).await)?;
                    Ok(remember_stream(events, tasks))
                }
            },
        )
        .register_stream(
            methods::SUBSCRIBE,
            |p: In<SubscribeToTaskRequest>, cx: RpcContext| async move {
                let last_event_id = rpc(cx.last_event_id)?;
                rpc(cx
                    .handler
                    .subscribe_to_task(&p.0.id, last_event_id, &cx.call)
                    .await)
            },
        )
        .register(
            methods::SEND,
            move |p: In<SendMessageRequest>, cx: RpcContext| {
                let tasks = sent.clone();
                async move {
                    let response = rpc(cx.handler.send_message(p.0, &cx.call).await)?;
                    let value = out(&response);
                    if let Some(id) = value.get("task").and_then(|t| t["id"].as_str()) {
                        tasks.remember(id);
                    }
                    Ok(flat::result_from_v1(value))
                }
            },
        )
        .register(
            methods::GET,
            |p: In<GetTaskRequest>, cx: RpcContext| async move {
                let task = rpc(cx.handler.get_task(p.0, &cx.call).await)?;
                Ok(flat::task_from_v1(out(&task)))
            },
        )
        .register(
            methods::CANCEL,
            |p: In<CancelTaskRequest>, cx: RpcContext| async move {
                let task = rpc(cx.handler.cancel_task(p.0, &cx.call).await)?;
                Ok(flat::task_from_v1(out(&task)))
            },
        )
        .register(
            methods::LIST,
            |p: In<ListTasksRequest>, cx: RpcContext| async move {
                let listed = rpc(cx.handler.list_tasks(p.0, &cx.call).await)?;
                Ok(flat::list_from_v1(out(&listed)))
            },
        )
}

/// The stream of `message/stream`, remembering the task of its first event.
fn remember_stream(events: EventStream, tasks: Arc<FlatTasks>) -> EventStream {
    let mut first = true;
    Box::pin(events.inspect(move |item| {
        if std::mem::take(&mut first)
            && let Ok(event) = item
            && let StreamResponse::Task(task) = &event.event
        {
            tasks.remember(task.id.as_str());
        }
    }))
}

/// A 1.0 request read from the dialect's params: enum values renamed to 1.0's, then decoded.
pub(super) struct In<T>(T);

impl<'de, T: DeserializeOwned> Deserialize<'de> for In<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut value = Value::deserialize(d)?;
        flat::params_to_v1(&mut value);
        serde_json::from_value(value)
            .map(In)
            .map_err(serde::de::Error::custom)
    }
}

fn out<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("results serialize")
}

/// A stream event: the bare task, message, status or artifact update.
fn write_event(event: &StreamResponse, out_bytes: &mut Vec<u8>) {
    let value = flat::result_from_v1(out(event));
    serde_json::to_writer(out_bytes, &value).expect("events serialize");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remembered_tasks_are_bounded() {
        let tasks = FlatTasks::new(2);
        for id in ["a", "b", "c", "c"] {
            tasks.remember(id);
        }
        assert!(!tasks.contains("a"));
        assert!(tasks.contains("b") && tasks.contains("c"));
    }
}
