//! The operations as values: a call of a unary operation ([`Request`]), of a streaming one
//! ([`StreamRequest`]), either of them ([`Call`]), and what a unary operation answers
//! ([`Reply`]).
//!
//! Every seam that carries a call (a binding's codec, the server's handler, the client's
//! transport, an interceptor) passes these values, so that an operation is spelled out once per
//! wire rather than once per method of every seam. The request messages and results are the 1.0
//! types ([`crate::v1`]); the older protocol versions convert to them at the edge.
//!
//! ```
//! use a2a_types::protocol::{Operation, Reply, Request};
//! use a2a_types::v1::{GetTaskRequest, Task, TaskState, TaskStatus};
//!
//! let mut request = Request::from(GetTaskRequest::new("t-1"));
//! assert_eq!(request.operation(), Operation::GetTask);
//! assert_eq!(request.task_id().map(|id| id.as_str()), Some("t-1"));
//! request.set_tenant(Some("acme".to_owned()));
//! assert_eq!(request.tenant(), Some("acme"));
//!
//! let reply = Reply::from(Task::new("t-1", "c-1", TaskStatus::new(TaskState::Completed)));
//! assert_eq!(serde_json::to_string(&Reply::Empty).unwrap(), "{}");
//! let task = Task::try_from(reply).unwrap();
//! assert_eq!(task.id, "t-1");
//! ```

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Operation;
use crate::v1::{
    AgentCard, CancelTaskRequest, DeleteTaskPushNotificationConfigRequest,
    GetExtendedAgentCardRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
    ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
    ListTasksRequest, ListTasksResponse, SendMessageRequest, SendMessageResponse,
    SubscribeToTaskRequest, Task, TaskId, TaskPushNotificationConfig,
};

/// A call of one of the nine operations answered with one [`Reply`], with its request message.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Request {
    /// `SendMessage`.
    SendMessage(Box<SendMessageRequest>),
    /// `GetTask`.
    GetTask(GetTaskRequest),
    /// `ListTasks`.
    ListTasks(ListTasksRequest),
    /// `CancelTask`.
    CancelTask(CancelTaskRequest),
    /// `CreateTaskPushNotificationConfig`.
    CreateTaskPushNotificationConfig(TaskPushNotificationConfig),
    /// `GetTaskPushNotificationConfig`.
    GetTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest),
    /// `ListTaskPushNotificationConfigs`.
    ListTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest),
    /// `DeleteTaskPushNotificationConfig`.
    DeleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest),
    /// `GetExtendedAgentCard`.
    GetExtendedAgentCard(GetExtendedAgentCardRequest),
}

/// A call of one of the two operations answered with a stream of events.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StreamRequest {
    /// `SendStreamingMessage`.
    SendStreamingMessage(Box<SendMessageRequest>),
    /// `SubscribeToTask`.
    SubscribeToTask(SubscribeToTaskRequest),
}

/// A call of any operation: what a binding decodes before it knows whether to answer with one
/// document or a stream.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Call {
    /// A unary operation.
    Unary(Request),
    /// A streaming operation.
    Stream(StreamRequest),
}

/// What a unary operation answers.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Reply {
    /// `SendMessage`: the task, or a message.
    Sent(Box<SendMessageResponse>),
    /// `GetTask`, `CancelTask`: the task.
    Task(Box<Task>),
    /// `ListTasks`: a page of tasks.
    Tasks(ListTasksResponse),
    /// `CreateTaskPushNotificationConfig`, `GetTaskPushNotificationConfig`: the config.
    PushConfig(TaskPushNotificationConfig),
    /// `ListTaskPushNotificationConfigs`: a page of configs.
    PushConfigs(ListTaskPushNotificationConfigsResponse),
    /// `DeleteTaskPushNotificationConfig`: nothing (`google.protobuf.Empty`, `{}` in JSON).
    Empty,
    /// `GetExtendedAgentCard`: the card.
    Card(Box<AgentCard>),
}

/// Writes `set_tenant`, `tenant` and `operation` over the variants of a call enum, each variant
/// holding a message with a `tenant: Option<String>` field.
macro_rules! call_enum {
    ($name:ident { $($variant:ident),* $(,)? }) => {
        impl $name {
            /// The operation called.
            pub fn operation(&self) -> Operation {
                match self {
                    $($name::$variant(_) => Operation::$variant,)*
                }
            }

            /// The tenant the request names (its `tenant` field), if any; an empty one is none.
            pub fn tenant(&self) -> Option<&str> {
                let tenant = match self {
                    $($name::$variant(r) => &r.tenant,)*
                };
                tenant.as_deref().filter(|t| !t.is_empty())
            }

            /// Sets the request's `tenant` field.
            pub fn set_tenant(&mut self, tenant: Option<String>) {
                match self {
                    $($name::$variant(r) => r.tenant = tenant,)*
                }
            }
        }
    };
}

call_enum!(Request {
    SendMessage,
    GetTask,
    ListTasks,
    CancelTask,
    CreateTaskPushNotificationConfig,
    GetTaskPushNotificationConfig,
    ListTaskPushNotificationConfigs,
    DeleteTaskPushNotificationConfig,
    GetExtendedAgentCard,
});

call_enum!(StreamRequest {
    SendStreamingMessage,
    SubscribeToTask,
});

impl Request {
    /// The task the request names: the task of a follow-up message, the task of the task and
    /// push config operations; `None` for a new task, `ListTasks` and `GetExtendedAgentCard`.
    pub fn task_id(&self) -> Option<&TaskId> {
        match self {
            Request::SendMessage(r) => r.message.task_id.as_ref(),
            Request::GetTask(r) => Some(&r.id),
            Request::CancelTask(r) => Some(&r.id),
            Request::CreateTaskPushNotificationConfig(r) => r.task_id.as_ref(),
            Request::GetTaskPushNotificationConfig(r) => Some(&r.task_id),
            Request::ListTaskPushNotificationConfigs(r) => Some(&r.task_id),
            Request::DeleteTaskPushNotificationConfig(r) => Some(&r.task_id),
            Request::ListTasks(_) | Request::GetExtendedAgentCard(_) => None,
        }
    }

    /// The request message of `operation`, read from its JSON (`params` over JSON-RPC, the
    /// body over HTTP+JSON) by `deserializer`; `Err` names a streaming operation as not unary.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        operation: Operation,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        match Call::deserialize(operation, deserializer)? {
            Call::Unary(request) => Ok(request),
            Call::Stream(_) => Err(serde::de::Error::custom(format_args!(
                "{operation} is answered with a stream"
            ))),
        }
    }
}

impl StreamRequest {
    /// The task the request names: the task of `SubscribeToTask` or of a follow-up message.
    pub fn task_id(&self) -> Option<&TaskId> {
        match self {
            StreamRequest::SendStreamingMessage(r) => r.message.task_id.as_ref(),
            StreamRequest::SubscribeToTask(r) => Some(&r.id),
        }
    }
}

impl Call {
    /// The operation called.
    pub fn operation(&self) -> Operation {
        match self {
            Call::Unary(r) => r.operation(),
            Call::Stream(r) => r.operation(),
        }
    }

    /// The tenant the request names, if any.
    pub fn tenant(&self) -> Option<&str> {
        match self {
            Call::Unary(r) => r.tenant(),
            Call::Stream(r) => r.tenant(),
        }
    }

    /// Sets the request's `tenant` field.
    pub fn set_tenant(&mut self, tenant: Option<String>) {
        match self {
            Call::Unary(r) => r.set_tenant(tenant),
            Call::Stream(r) => r.set_tenant(tenant),
        }
    }

    /// The task the request names, if any.
    pub fn task_id(&self) -> Option<&TaskId> {
        match self {
            Call::Unary(r) => r.task_id(),
            Call::Stream(r) => r.task_id(),
        }
    }

    /// The request message of `operation`, read from its 1.0 JSON by `deserializer`.
    ///
    /// ```
    /// use a2a_types::protocol::{Call, Operation, Request};
    ///
    /// let json = r#"{"id":"t-1","historyLength":2}"#;
    /// let call = Call::deserialize(Operation::GetTask, &mut serde_json::Deserializer::from_str(json)).unwrap();
    /// let Call::Unary(Request::GetTask(request)) = call else { panic!() };
    /// assert_eq!(request.history_length, Some(2));
    /// ```
    pub fn deserialize<'de, D: Deserializer<'de>>(
        operation: Operation,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let d = deserializer;
        Ok(match operation {
            Operation::SendMessage => {
                Call::Unary(Request::SendMessage(Box::new(Deserialize::deserialize(d)?)))
            }
            Operation::SendStreamingMessage => Call::Stream(StreamRequest::SendStreamingMessage(
                Box::new(Deserialize::deserialize(d)?),
            )),
            Operation::GetTask => Call::Unary(Request::GetTask(Deserialize::deserialize(d)?)),
            Operation::ListTasks => Call::Unary(Request::ListTasks(Deserialize::deserialize(d)?)),
            Operation::CancelTask => Call::Unary(Request::CancelTask(Deserialize::deserialize(d)?)),
            Operation::SubscribeToTask => {
                Call::Stream(StreamRequest::SubscribeToTask(Deserialize::deserialize(d)?))
            }
            Operation::CreateTaskPushNotificationConfig => Call::Unary(
                Request::CreateTaskPushNotificationConfig(Deserialize::deserialize(d)?),
            ),
            Operation::GetTaskPushNotificationConfig => Call::Unary(
                Request::GetTaskPushNotificationConfig(Deserialize::deserialize(d)?),
            ),
            Operation::ListTaskPushNotificationConfigs => Call::Unary(
                Request::ListTaskPushNotificationConfigs(Deserialize::deserialize(d)?),
            ),
            Operation::DeleteTaskPushNotificationConfig => Call::Unary(
                Request::DeleteTaskPushNotificationConfig(Deserialize::deserialize(d)?),
            ),
            Operation::GetExtendedAgentCard => {
                Call::Unary(Request::GetExtendedAgentCard(Deserialize::deserialize(d)?))
            }
        })
    }
}

impl Serialize for Request {
    /// The request message's 1.0 JSON (what JSON-RPC sends as `params`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Request::SendMessage(r) => r.serialize(serializer),
            Request::GetTask(r) => r.serialize(serializer),
            Request::ListTasks(r) => r.serialize(serializer),
            Request::CancelTask(r) => r.serialize(serializer),
            Request::CreateTaskPushNotificationConfig(r) => r.serialize(serializer),
            Request::GetTaskPushNotificationConfig(r) => r.serialize(serializer),
            Request::ListTaskPushNotificationConfigs(r) => r.serialize(serializer),
            Request::DeleteTaskPushNotificationConfig(r) => r.serialize(serializer),
            Request::GetExtendedAgentCard(r) => r.serialize(serializer),
        }
    }
}

impl Serialize for StreamRequest {
    /// The request message's 1.0 JSON.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            StreamRequest::SendStreamingMessage(r) => r.serialize(serializer),
            StreamRequest::SubscribeToTask(r) => r.serialize(serializer),
        }
    }
}

impl Reply {
    /// The variant's name, for messages: `Sent`, `Task`, `Tasks`, `PushConfig`, `PushConfigs`,
    /// `Empty`, `Card`.
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::Sent(_) => "Sent",
            Reply::Task(_) => "Task",
            Reply::Tasks(_) => "Tasks",
            Reply::PushConfig(_) => "PushConfig",
            Reply::PushConfigs(_) => "PushConfigs",
            Reply::Empty => "Empty",
            Reply::Card(_) => "Card",
        }
    }

    /// The reply `operation` answers with, read from its 1.0 JSON (a JSON-RPC `result`, an
    /// HTTP+JSON body) by `deserializer`. `DeleteTaskPushNotificationConfig` reads any JSON as
    /// [`Reply::Empty`]; a streaming operation is an error.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        operation: Operation,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        let d = deserializer;
        Ok(match operation {
            Operation::SendMessage => Reply::Sent(Box::new(Deserialize::deserialize(d)?)),
            Operation::GetTask | Operation::CancelTask => {
                Reply::Task(Box::new(Deserialize::deserialize(d)?))
            }
            Operation::ListTasks => Reply::Tasks(Deserialize::deserialize(d)?),
            Operation::CreateTaskPushNotificationConfig
            | Operation::GetTaskPushNotificationConfig => {
                Reply::PushConfig(Deserialize::deserialize(d)?)
            }
            Operation::ListTaskPushNotificationConfigs => {
                Reply::PushConfigs(Deserialize::deserialize(d)?)
            }
            Operation::DeleteTaskPushNotificationConfig => {
                serde::de::IgnoredAny::deserialize(d)?;
                Reply::Empty
            }
            Operation::GetExtendedAgentCard => Reply::Card(Box::new(Deserialize::deserialize(d)?)),
            Operation::SendStreamingMessage | Operation::SubscribeToTask => {
                return Err(serde::de::Error::custom(format_args!(
                    "{operation} is answered with a stream"
                )));
            }
        })
    }
}

impl Serialize for Reply {
    /// The result's 1.0 JSON (ProtoJSON): a JSON-RPC `result`, an HTTP+JSON body; [`Reply::Empty`]
    /// is `{}`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Reply::Sent(r) => r.serialize(serializer),
            Reply::Task(r) => r.serialize(serializer),
            Reply::Tasks(r) => r.serialize(serializer),
            Reply::PushConfig(r) => r.serialize(serializer),
            Reply::PushConfigs(r) => r.serialize(serializer),
            Reply::Empty => serde_json::Map::new().serialize(serializer),
            Reply::Card(r) => r.serialize(serializer),
        }
    }
}

/// A [`Reply`] of another kind than the operation answers with: what converting it to the
/// expected result type gives back.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct UnexpectedReply {
    /// The kind expected ([`Reply::kind`]).
    pub expected: &'static str,
    /// The reply.
    pub reply: Reply,
}

impl fmt::Display for UnexpectedReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a reply of kind {}, got one of kind {}",
            self.expected,
            self.reply.kind()
        )
    }
}

impl std::error::Error for UnexpectedReply {}

/// `From` each request message into its call, and `TryFrom<Reply>` into each result type.
macro_rules! conversions {
    ($($message:ty => $enum:ident :: $variant:ident $(boxed $boxed:tt)?;)*) => {$(
        impl From<$message> for $enum {
            fn from(message: $message) -> Self {
                $enum::$variant(conversions!(@wrap message $($boxed)?))
            }
        }
    )*};
    (@wrap $e:ident) => { $e };
    (@wrap $e:ident box) => { Box::new($e) };
}

conversions! {
    SendMessageRequest => Request::SendMessage boxed box;
    GetTaskRequest => Request::GetTask;
    ListTasksRequest => Request::ListTasks;
    CancelTaskRequest => Request::CancelTask;
    TaskPushNotificationConfig => Request::CreateTaskPushNotificationConfig;
    GetTaskPushNotificationConfigRequest => Request::GetTaskPushNotificationConfig;
    ListTaskPushNotificationConfigsRequest => Request::ListTaskPushNotificationConfigs;
    DeleteTaskPushNotificationConfigRequest => Request::DeleteTaskPushNotificationConfig;
    GetExtendedAgentCardRequest => Request::GetExtendedAgentCard;
    SubscribeToTaskRequest => StreamRequest::SubscribeToTask;
}

impl From<SendMessageRequest> for StreamRequest {
    fn from(message: SendMessageRequest) -> Self {
        StreamRequest::SendStreamingMessage(Box::new(message))
    }
}

impl From<Request> for Call {
    fn from(request: Request) -> Self {
        Call::Unary(request)
    }
}

impl From<StreamRequest> for Call {
    fn from(request: StreamRequest) -> Self {
        Call::Stream(request)
    }
}

/// `From` each result into its [`Reply`], `TryFrom<Reply>` back.
macro_rules! results {
    ($($result:ty => $variant:ident $(boxed $boxed:tt)?;)*) => {$(
        impl From<$result> for Reply {
            fn from(result: $result) -> Self {
                Reply::$variant(results!(@wrap result $($boxed)?))
            }
        }

        impl TryFrom<Reply> for $result {
            type Error = UnexpectedReply;

            fn try_from(reply: Reply) -> Result<Self, UnexpectedReply> {
                match reply {
                    Reply::$variant(result) => Ok(results!(@unwrap result $($boxed)?)),
                    reply => Err(UnexpectedReply { expected: stringify!($variant), reply }),
                }
            }
        }
    )*};
    (@wrap $e:ident) => { $e };
    (@wrap $e:ident box) => { Box::new($e) };
    (@unwrap $e:ident) => { $e };
    (@unwrap $e:ident box) => { *$e };
}

results! {
    SendMessageResponse => Sent boxed box;
    Task => Task boxed box;
    ListTasksResponse => Tasks;
    TaskPushNotificationConfig => PushConfig;
    ListTaskPushNotificationConfigsResponse => PushConfigs;
    AgentCard => Card boxed box;
}

impl From<()> for Reply {
    fn from((): ()) -> Self {
        Reply::Empty
    }
}

impl TryFrom<Reply> for () {
    type Error = UnexpectedReply;

    fn try_from(reply: Reply) -> Result<Self, UnexpectedReply> {
        match reply {
            Reply::Empty => Ok(()),
            reply => Err(UnexpectedReply {
                expected: "Empty",
                reply,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1::{Message, Part, Role, TaskState, TaskStatus};

    fn message() -> Message {
        Message::new("m-1", Role::User, vec![Part::text("hi")])
    }

    /// Every operation, each with a request message of it.
    fn every_call() -> Vec<Call> {
        vec![
            Request::from(SendMessageRequest::new(message())).into(),
            StreamRequest::from(SendMessageRequest::new(message())).into(),
            Request::from(GetTaskRequest::new("t")).into(),
            Request::from(ListTasksRequest::new()).into(),
            Request::from(CancelTaskRequest::new("t")).into(),
            StreamRequest::from(SubscribeToTaskRequest::new("t")).into(),
            Request::from(TaskPushNotificationConfig::new("https://hook")).into(),
            Request::from(GetTaskPushNotificationConfigRequest::new("t", "c")).into(),
            Request::from(ListTaskPushNotificationConfigsRequest::new("t")).into(),
            Request::from(GetExtendedAgentCardRequest::new()).into(),
            Request::from(DeleteTaskPushNotificationConfigRequest::new("t", "c")).into(),
        ]
    }

    #[test]
    fn each_call_names_its_operation_in_the_protos_order() {
        let operations: Vec<Operation> = every_call().iter().map(Call::operation).collect();
        assert_eq!(operations, Operation::ALL);
        for call in every_call() {
            assert_eq!(
                matches!(call, Call::Stream(_)),
                call.operation().is_streaming()
            );
        }
    }

    #[test]
    fn the_tenant_is_set_and_read_on_every_operation() {
        for mut call in every_call() {
            assert_eq!(call.tenant(), None);
            call.set_tenant(Some("acme".to_owned()));
            assert_eq!(call.tenant(), Some("acme"), "{}", call.operation());
            call.set_tenant(Some(String::new()));
            assert_eq!(call.tenant(), None, "an empty tenant is none");
        }
    }

    #[test]
    fn calls_read_back_from_their_json() {
        for call in every_call() {
            let json = match &call {
                Call::Unary(r) => serde_json::to_string(r).unwrap(),
                Call::Stream(r) => serde_json::to_string(r).unwrap(),
            };
            let back = Call::deserialize(
                call.operation(),
                &mut serde_json::Deserializer::from_str(&json),
            )
            .unwrap();
            assert_eq!(back, call, "{json}");
        }
        assert_eq!(
            serde_json::to_string(&Request::from(GetTaskPushNotificationConfigRequest::new(
                "t", "c"
            )))
            .unwrap(),
            r#"{"taskId":"t","id":"c"}"#
        );
        let error = Request::deserialize(
            Operation::SubscribeToTask,
            &mut serde_json::Deserializer::from_str(r#"{"id":"t"}"#),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "SubscribeToTask is answered with a stream"
        );
    }

    #[test]
    fn the_task_of_a_call() {
        let calls = every_call();
        let ids: Vec<Option<&str>> = calls
            .iter()
            .map(|c| c.task_id().map(TaskId::as_str))
            .collect();
        assert_eq!(
            ids,
            [
                None,
                None,
                Some("t"),
                None,
                Some("t"),
                Some("t"),
                None,
                Some("t"),
                Some("t"),
                None,
                Some("t")
            ]
        );
    }

    #[test]
    fn replies_are_their_results_json_and_convert_back() {
        let task = Task::new("t-1", "c-1", TaskStatus::new(TaskState::Working));
        let reply = Reply::from(task.clone());
        assert_eq!(
            serde_json::to_string(&reply).unwrap(),
            serde_json::to_string(&task).unwrap()
        );
        let back = Reply::deserialize(
            Operation::CancelTask,
            &mut serde_json::Deserializer::from_str(&serde_json::to_string(&task).unwrap()),
        )
        .unwrap();
        assert_eq!(Task::try_from(back).unwrap(), task);
        assert_eq!(serde_json::to_string(&Reply::from(())).unwrap(), "{}");
        let empty = Reply::deserialize(
            Operation::DeleteTaskPushNotificationConfig,
            &mut serde_json::Deserializer::from_str("{}"),
        )
        .unwrap();
        assert_eq!(empty, Reply::Empty);
        let wrong = ListTasksResponse::try_from(reply).unwrap_err();
        assert_eq!(
            wrong.to_string(),
            "expected a reply of kind Tasks, got one of kind Task"
        );
    }
}
