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

use a2a_jsonrpc::{ErrorObject, Incoming, RawValue, decode_params};
use a2a_types::flat::{self, methods};
use a2a_types::protocol::{Call, Operation, ProtocolVersion, Reply, Request, StreamRequest};
use a2a_types::v1::StreamResponse;
use futures_util::StreamExt as _;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{Asked, Codec, Version, legacy, no_form, raw};
use crate::error::A2aError;
use crate::handler::{CallContext, EventStream};

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

/// The flat dialect's codec; it remembers the tasks it started.
pub(super) struct Flat {
    tasks: Arc<FlatTasks>,
}

impl Flat {
    pub(super) fn new(tasks: Arc<FlatTasks>) -> Self {
        Self { tasks }
    }
}

/// The dialect's methods and the operations they call.
const METHODS: [(&str, Operation); 6] = [
    (methods::SEND, Operation::SendMessage),
    (methods::STREAM, Operation::SendStreamingMessage),
    (methods::GET, Operation::GetTask),
    (methods::CANCEL, Operation::CancelTask),
    (methods::LIST, Operation::ListTasks),
    (methods::SUBSCRIBE, Operation::SubscribeToTask),
];

impl Codec for Flat {
    fn version(&self) -> &'static Version {
        &Version {
            name: "flat (0.3 names, 1.0 shapes)",
            protocol_version: ProtocolVersion::V0_3,
            check: legacy::check_v0_3,
            methods: Some(&METHODS),
        }
    }

    /// The params with their enum values renamed to 1.0's, read as the 1.0 request.
    fn decode(
        &self,
        operation: Operation,
        params: Option<&RawValue>,
        _call: &mut CallContext,
    ) -> Result<Call, ErrorObject> {
        let p = params;
        Ok(match operation {
            Operation::SendMessage => Request::SendMessage(Box::new(v1(p)?)).into(),
            Operation::SendStreamingMessage => {
                StreamRequest::SendStreamingMessage(Box::new(v1(p)?)).into()
            }
            Operation::GetTask => Request::GetTask(v1(p)?).into(),
            Operation::CancelTask => Request::CancelTask(v1(p)?).into(),
            Operation::ListTasks => Request::ListTasks(v1(p)?).into(),
            Operation::SubscribeToTask => StreamRequest::SubscribeToTask(v1(p)?).into(),
            other => return Err(ErrorObject::method_not_found(other.method())),
        })
    }

    /// The 1.0 result without its oneof wrapper, enum values renamed back; the task a send
    /// started is remembered.
    fn encode(&self, _asked: &Asked, reply: Reply) -> Result<Box<RawValue>, A2aError> {
        let result = match reply {
            Reply::Sent(response) => {
                let value = out(&response);
                if let Some(id) = value.get("task").and_then(|t| t["id"].as_str()) {
                    self.tasks.remember(id);
                }
                flat::result_from_v1(value)
            }
            Reply::Task(task) => flat::task_from_v1(out(&task)),
            Reply::Tasks(listed) => flat::list_from_v1(out(&listed)),
            other => return Err(no_form("the flat dialect", &other)),
        };
        raw(&result)
    }

    /// The stream of `message/stream` remembers the task of its first event.
    fn stream(&self, asked: &Asked, events: EventStream) -> EventStream {
        if asked.operation != Operation::SendStreamingMessage {
            return events;
        }
        let tasks = self.tasks.clone();
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

    /// A stream event: the bare task, message, status or artifact update.
    fn event(&self, event: &StreamResponse, out_bytes: &mut Vec<u8>) {
        let value = flat::result_from_v1(out(event));
        serde_json::to_writer(out_bytes, &value).expect("events serialize");
    }
}

/// The 1.0 request of the dialect's params.
fn v1<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    decode_params::<In<T>>(params).map(|p| p.0)
}

/// A 1.0 request read from the dialect's params: enum values renamed to 1.0's, then decoded.
struct In<T>(T);

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binding::jsonrpc::testing::{decoded, encoded, event, events, replies};
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn flat() -> Flat {
        Flat::new(Arc::new(FlatTasks::new(10)))
    }

    /// Each method's params (1.0 shapes, lowercase enum values) decode to the 1.0 request.
    #[test]
    fn every_method_decodes_to_the_1_0_request() {
        let send = r#"{"message":{"messageId":"m-1","role":"user","parts":[{"text":"hi"}]}}"#;
        let send_v1 =
            json!({"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"hi"}]}});
        let cases = [
            (
                "message/send",
                Some(send),
                Operation::SendMessage,
                send_v1.clone(),
            ),
            (
                "message/stream",
                Some(send),
                Operation::SendStreamingMessage,
                send_v1,
            ),
            (
                "tasks/get",
                Some(r#"{"id":"t-1"}"#),
                Operation::GetTask,
                json!({"id":"t-1"}),
            ),
            (
                "tasks/cancel",
                Some(r#"{"id":"t-1"}"#),
                Operation::CancelTask,
                json!({"id":"t-1"}),
            ),
            (
                "tasks/list",
                Some(r#"{"status":"working","pageSize":5}"#),
                Operation::ListTasks,
                json!({"status":"TASK_STATE_WORKING","pageSize":5}),
            ),
            (
                "tasks/subscribe",
                Some(r#"{"id":"t-1"}"#),
                Operation::SubscribeToTask,
                json!({"id":"t-1"}),
            ),
        ];
        let codec = flat();
        for (method, params, operation, expected) in cases {
            let (decoded_operation, json, _) = decoded(&codec, method, params);
            assert_eq!((decoded_operation, json), (operation, expected), "{method}");
        }
    }

    /// Results without their oneof wrapper, enum values lowercase; the task a send started
    /// is remembered (its `tasks/get` is then the dialect's).
    #[test]
    fn replies_are_bare_and_lowercase() {
        let codec = flat();
        let task = json!({"id":"t-1","contextId":"c-1","status":{"state":"completed"},
            "history":[{"messageId":"m-1","role":"user","parts":[{"text":"hi"}]}]});
        let mut written = Vec::new();
        for reply in replies() {
            let kind = reply.kind();
            match kind {
                "Sent" | "Task" | "Tasks" => {
                    written.push(encoded(&codec, Operation::SendMessage, None, reply));
                }
                _ => assert!(codec.encode(&asked(), reply).is_err(), "{kind}"),
            }
        }
        assert_eq!(written[..2], [task.clone(), task.clone()]);
        assert_eq!(written[2]["tasks"], json!([task]));
        assert!(codec.tasks.contains("t-1"));
    }

    fn asked() -> Asked {
        Asked {
            operation: Operation::GetTask,
            task_id: None,
        }
    }

    #[test]
    fn events_are_bare() {
        let written: Vec<serde_json::Value> = events().iter().map(|e| event(&flat(), e)).collect();
        assert_eq!(
            written[1],
            json!({"taskId":"t-1","contextId":"c-1","status":{"state":"completed"}})
        );
        assert_eq!(
            written[3],
            json!({"messageId":"m-1","role":"user","parts":[{"text":"hi"}]})
        );
    }

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
