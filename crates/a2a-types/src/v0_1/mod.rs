//! A2A 0.1 as its JSON-RPC wire carries it: every definition of `a2a.json` 0.1 and of the 0.1
//! specification text, and conversions to and from the 1.0 core model ([`crate::v1`]).
//!
//! 0.1 is the version of `tasks/send`: the client chooses the task id, `sessionId` groups
//! tasks, parts are tagged by `type`, artifacts carry `index`/`append`/`lastChunk`, stream events
//! carry the task `id` and `final`, and the agent card (`/.well-known/agent.json`) has one `url`
//! and an `authentication` block.
//!
//! # The JSON
//!
//! * Field names are camelCase, as `a2a.json` writes them. Unknown fields are ignored.
//! * Optional fields are omitted when absent, and `null` reads as absent (the 0.1 examples write
//!   `"history": null`). `jsonrpc`, `Artifact.index` and `TaskStatusUpdateEvent.final` are always
//!   written, as the examples show; on input they default to `"2.0"`, `0` and `false`.
//! * `type`, `jsonrpc` and `method` are literal strings ([`tag`]); a wrong one is an error that
//!   names the expected value. A part without `type` is read by its content key.
//! * File `bytes` are base64 (decoded on input: invalid base64 is an error). Timestamps are RFC
//!   3339; a date-time without offset (`2025-04-02T16:59:25.331844`, as 0.1-era Python peers
//!   wrote) is read as UTC. Output is RFC 3339 UTC with `Z`.
//!
//! # Converting to and from 1.0
//!
//! `From` converts every 0.1 value to 1.0, and most 1.0 values back; `TryFrom` is used where
//! 1.0 may lack what 0.1 requires ([`ConversionError`]). The main rules:
//!
//! * `tasks/send` params ([`TaskSendParams`]) become a 1.0 [`SendMessageRequest`](crate::v1::SendMessageRequest):
//!   the client-chosen task `id` becomes `message.taskId` and `sessionId` `message.contextId`.
//!   0.1 clients name *new* tasks too, which 1.0 does not allow, so **a server adapter must create
//!   the task under that id when no task has it**. 0.1 messages have no id: the 1.0 message's
//!   `messageId` is empty (`"messageId": ""`) until someone assigns one, which a server adapter
//!   must do before a 1.0 handler sees the message.
//! * Artifact `index` `n` becomes the 1.0 `artifactId` `artifact-{n}` and back
//!   ([`artifact_id_for_index`], [`artifact_index_for_id`], which also gives other ids a stable
//!   index).
//! * `final` is dropped going to 1.0 and set from the state coming back: true in terminal and
//!   interrupted states.
//! * 1.0 `REJECTED` becomes `failed`, `AUTH_REQUIRED` `input-required`; 0.1 `unknown` is 1.0
//!   `TASK_STATE_UNSPECIFIED`.
//! * A 0.1 push configuration is the 1.0 configuration whose `id` is the task id; its
//!   `authentication.schemes[0]` is the 1.0 `scheme`.
//! * Agent cards: `url` becomes one `JSONRPC` interface of `protocolVersion` `"0.1"`;
//!   `authentication.schemes` become security schemes and requirements.
//! * Error codes: [`error_code_to_v1`] and [`error_code_from_v1`] keep -32006 to -32009, which
//!   0.1-era peers and 1.0 use with different meanings, from being misread.
//!
//! ```
//! use a2a_types::v0_1::{A2aRequest, TaskSendParams};
//! use a2a_types::v1::{SendMessageRequest, TaskState};
//!
//! // A 0.1 `tasks/send` request, as a 0.1 client writes it.
//! let request: A2aRequest = a2a_types::json::from_str(r#"{
//!     "jsonrpc": "2.0", "id": 1, "method": "tasks/send",
//!     "params": {
//!         "id": "task-1", "sessionId": "session-1",
//!         "message": {"role": "user", "parts": [{"type": "text", "text": "hello"}]},
//!         "historyLength": 5
//!     }
//! }"#).unwrap();
//! let A2aRequest::SendTask(send) = request else { panic!("not tasks/send") };
//!
//! // The same request in 1.0.
//! let v1 = SendMessageRequest::from(send.params.clone());
//! assert_eq!(
//!     serde_json::to_string(&v1).unwrap(),
//!     r#"{"message":{"messageId":"","contextId":"session-1","taskId":"task-1","role":"ROLE_USER","parts":[{"text":"hello"}]},"configuration":{"historyLength":5}}"#
//! );
//!
//! // And back: nothing is lost.
//! assert_eq!(TaskSendParams::try_from(v1).unwrap(), send.params);
//!
//! // States without a 0.1 counterpart map to the nearest one.
//! assert_eq!(a2a_types::v0_1::TaskState::from(TaskState::Rejected).as_str(), "failed");
//! ```
//!
//! # Definitions
//!
//! Every definition of `a2a.json` 0.1 has a type here, named like the definition except where
//! Rust's conventions differ (`JSONRPCError` is [`JsonRpcError`], `A2ARequest` is [`A2aRequest`],
//! `JSONParseError` is [`JsonParseError`]); with the `schemars` feature each describes itself
//! under the definition's name. The unnamed `result` union of `SendTaskStreamingResponse` is
//! [`StreamEvent`], and the inline `Message.role` enum is [`Role`].

mod card;
mod convert;
mod jsonrpc;
mod params;
mod part;
mod push;
pub mod tag;
mod task;
mod wire;

pub use card::{AgentAuthentication, AgentCapabilities, AgentCard, AgentProvider, AgentSkill};
pub use convert::{
    ConversionError, DATA_VALUE_KEY, PROTOCOL_VERSION, artifact_id_for_index,
    artifact_index_for_id, error_code_from_v1, error_code_to_v1,
};
pub use jsonrpc::{
    A2aRequest, CancelTaskRequest, CancelTaskResponse, ContentTypeNotSupportedError,
    GetTaskPushNotificationRequest, GetTaskPushNotificationResponse, GetTaskRequest,
    GetTaskResponse, InternalError, InvalidParamsError, InvalidRequestError, JsonParseError,
    JsonRpcError, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, MethodNotFoundError,
    PushNotificationNotSupportedError, RequestId, SendTaskRequest, SendTaskResponse,
    SendTaskStreamingRequest, SendTaskStreamingResponse, SetTaskPushNotificationRequest,
    SetTaskPushNotificationResponse, TaskNotCancelableError, TaskNotFoundError,
    TaskResubscriptionRequest, UnsupportedOperationError, code,
};
pub use params::{TaskIdParams, TaskQueryParams, TaskSendParams};
pub use part::{DataPart, FileContent, FilePart, Part, TextPart};
pub use push::{AuthenticationInfo, PushNotificationConfig, TaskPushNotificationConfig};
pub use task::{
    Artifact, Message, Role, StreamEvent, Task, TaskArtifactUpdateEvent, TaskState, TaskStatus,
    TaskStatusUpdateEvent,
};
