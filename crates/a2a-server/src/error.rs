//! The errors an operation answers with: the A2A error catalogue as the handler sees it.

use a2a_types::v1::{TaskId, TaskState};

/// Why an A2A operation failed. Each variant is one A2A or JSON-RPC error code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum A2aError {
    /// -32001: no such task, or not one the caller may see.
    #[error("task {0} not found")]
    TaskNotFound(TaskId),
    /// -32002: the task is in a terminal state other than canceled.
    #[error("task {task_id} is {state} and cannot be canceled")]
    TaskNotCancelable {
        /// The task.
        task_id: TaskId,
        /// Its state.
        state: TaskState,
    },
    /// -32003: the agent does not support push notifications.
    #[error("push notifications are not supported by this agent")]
    PushNotificationNotSupported,
    /// -32004: the operation is not supported (in this state, or by this agent).
    #[error("{0}")]
    UnsupportedOperation(String),
    /// -32005: a part's media type is outside the agent's input modes.
    #[error("media type `{media_type}` is not supported; the agent accepts {accepted}")]
    ContentTypeNotSupported {
        /// The rejected media type.
        media_type: String,
        /// The accepted media types, comma-separated.
        accepted: String,
    },
    /// -32006: the agent produced something the protocol does not allow.
    #[error("invalid agent response: {0}")]
    InvalidAgentResponse(String),
    /// -32007: the card declares an extended card, but none is configured.
    #[error("the extended agent card is not configured")]
    ExtendedAgentCardNotConfigured,
    /// -32008: the agent requires an extension the client did not ask for.
    #[error("the agent requires extension {0}; send it in the A2A-Extensions header")]
    ExtensionSupportRequired(String),
    /// -32009: the requested protocol version is not served here.
    #[error("{0}")]
    VersionNotSupported(String),
    /// -32602: the parameters are invalid.
    #[error("invalid params: {0}")]
    InvalidParams(String),
    /// -32603: something failed inside the server.
    #[error("internal error: {0}")]
    Internal(String),
}

impl A2aError {
    /// The JSON-RPC error code.
    pub fn code(&self) -> i32 {
        match self {
            A2aError::TaskNotFound(_) => -32001,
            A2aError::TaskNotCancelable { .. } => -32002,
            A2aError::PushNotificationNotSupported => -32003,
            A2aError::UnsupportedOperation(_) => -32004,
            A2aError::ContentTypeNotSupported { .. } => -32005,
            A2aError::InvalidAgentResponse(_) => -32006,
            A2aError::ExtendedAgentCardNotConfigured => -32007,
            A2aError::ExtensionSupportRequired(_) => -32008,
            A2aError::VersionNotSupported(_) => -32009,
            A2aError::InvalidParams(_) => -32602,
            A2aError::Internal(_) => -32603,
        }
    }

    /// Key/value details for the error's `google.rpc.ErrorInfo` metadata.
    pub fn metadata(&self) -> Vec<(&'static str, String)> {
        match self {
            A2aError::TaskNotFound(id) => vec![("taskId", id.to_string())],
            A2aError::TaskNotCancelable { task_id, state } => {
                vec![
                    ("taskId", task_id.to_string()),
                    ("state", state.to_string()),
                ]
            }
            A2aError::ContentTypeNotSupported { media_type, .. } => {
                vec![("mediaType", media_type.clone())]
            }
            A2aError::ExtensionSupportRequired(uri) => vec![("extension", uri.clone())],
            _ => Vec::new(),
        }
    }
}

impl From<crate::store::StoreError> for A2aError {
    fn from(err: crate::store::StoreError) -> Self {
        A2aError::Internal(err.to_string())
    }
}
