//! Every operation as a value, and a reply of each kind, for the codecs' tests.

use a2a_types::protocol::{Operation, Request, StreamRequest};
use a2a_types::v1::{
    CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, ListTaskPushNotificationConfigsRequest,
    ListTasksRequest, Message, Part, Role, SendMessageRequest, SubscribeToTaskRequest,
    TaskPushNotificationConfig,
};

/// The message every send carries.
pub(crate) fn message() -> Message {
    Message::new("m-1", Role::User, vec![Part::text("hi")]).with_context_id("c-1")
}

/// The nine unary operations, in the proto's order, each with the fields its wire moves about
/// (the tenant, ids in the path, fields in the query).
pub(crate) fn requests() -> Vec<Request> {
    vec![
        SendMessageRequest::new(message())
            .with_tenant("acme")
            .into(),
        GetTaskRequest::new("t-1").with_history_length(2).into(),
        ListTasksRequest::new().with_page_size(10).into(),
        CancelTaskRequest::new("t-1").into(),
        TaskPushNotificationConfig::new("https://hook.example/a2a")
            .with_task_id("t-1")
            .with_token("tok")
            .into(),
        GetTaskPushNotificationConfigRequest::new("t-1", "c-1").into(),
        ListTaskPushNotificationConfigsRequest::new("t-1").into(),
        GetExtendedAgentCardRequest::new().into(),
        DeleteTaskPushNotificationConfigRequest::new("t-1", "c-1").into(),
    ]
}

/// The two streaming operations.
pub(crate) fn stream_requests() -> Vec<StreamRequest> {
    vec![
        SendMessageRequest::new(message()).into(),
        SubscribeToTaskRequest::new("t-1").into(),
    ]
}

/// A task, as 1.0 JSON.
pub(crate) const TASK: &str =
    r#"{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}"#;

/// A push config, as 1.0 JSON.
pub(crate) const PUSH_CONFIG: &str =
    r#"{"id":"c-1","taskId":"t-1","url":"https://hook.example/a2a","token":"tok"}"#;

/// An agent's message, as 1.0 JSON.
pub(crate) const MESSAGE: &str =
    r#"{"messageId":"m-2","role":"ROLE_AGENT","parts":[{"text":"hi!"}]}"#;

/// `SendMessage`'s answer with the task.
pub(crate) fn sent_task() -> String {
    format!(r#"{{"task":{TASK}}}"#)
}

/// `SendMessage`'s answer with a message.
pub(crate) fn sent_message() -> String {
    format!(r#"{{"message":{MESSAGE}}}"#)
}

/// A page of push configs.
pub(crate) fn push_configs() -> String {
    format!(r#"{{"configs":[{PUSH_CONFIG}]}}"#)
}

/// A reply of every kind, each the 1.0 JSON it is written as (so that it reads back to the
/// same text), with the operation it answers.
pub(crate) fn replies() -> Vec<(Operation, String)> {
    let card = r#"{"name":"Extended","description":"d","supportedInterfaces":[{"url":"http://h/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}"#;
    let tasks = format!(r#"{{"tasks":[{TASK}],"nextPageToken":"n","pageSize":1,"totalSize":2}}"#);
    vec![
        (Operation::SendMessage, sent_task()),
        (Operation::SendMessage, sent_message()),
        (Operation::GetTask, TASK.to_owned()),
        (Operation::ListTasks, tasks),
        (Operation::CancelTask, TASK.to_owned()),
        (
            Operation::CreateTaskPushNotificationConfig,
            PUSH_CONFIG.to_owned(),
        ),
        (
            Operation::GetTaskPushNotificationConfig,
            PUSH_CONFIG.to_owned(),
        ),
        (Operation::ListTaskPushNotificationConfigs, push_configs()),
        (Operation::GetExtendedAgentCard, card.to_owned()),
        (Operation::DeleteTaskPushNotificationConfig, "{}".to_owned()),
    ]
}
