//! The string enums of the 0.3 wire: lowercase, kebab-case values.

crate::macros::string_enum! {
    /// The lifecycle state of a [`Task`](super::Task) (`TaskState` in `a2a.json`).
    #[non_exhaustive]
    TaskState (inline: false) {
        /// Submitted and acknowledged.
        Submitted => "submitted",
        /// Being processed by the agent.
        Working => "working",
        /// The agent needs more input from the user (interrupted).
        InputRequired => "input-required",
        /// Finished successfully (terminal).
        Completed => "completed",
        /// Canceled before completion (terminal).
        Canceled => "canceled",
        /// Finished with an error (terminal).
        Failed => "failed",
        /// The agent decided not to perform the task (terminal).
        Rejected => "rejected",
        /// The agent needs the client to authenticate (interrupted).
        AuthRequired => "auth-required",
        /// Unknown or indeterminate.
        Unknown => "unknown",
    }
}

impl TaskState {
    /// Completed, canceled, failed or rejected: the task will never change again.
    pub const fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskState::Completed | TaskState::Canceled | TaskState::Failed | TaskState::Rejected
        )
    }

    /// Input required or auth required: the task waits for the client.
    pub const fn is_interrupted(self) -> bool {
        matches!(self, TaskState::InputRequired | TaskState::AuthRequired)
    }

    /// Terminal or interrupted: the value of `final` on a status update in this state.
    pub const fn is_final(self) -> bool {
        self.is_terminal() || self.is_interrupted()
    }
}

crate::macros::string_enum! {
    /// Who sent a [`Message`](super::Message) (the inline enum of `Message.role` in `a2a.json`).
    #[non_exhaustive]
    Role (inline: true) {
        /// From the agent to the client.
        Agent => "agent",
        /// From the client to the agent.
        User => "user",
    }
}

crate::macros::string_enum! {
    /// The transport protocols the specification defines (`TransportProtocol` in `a2a.json`).
    ///
    /// [`AgentCard::preferred_transport`](super::AgentCard::preferred_transport) and
    /// [`AgentInterface::transport`](super::AgentInterface::transport) are open strings (custom
    /// transports are allowed); this enum names the three core ones.
    #[non_exhaustive]
    TransportProtocol (inline: false) {
        /// JSON-RPC 2.0 over HTTP.
        JsonRpc => "JSONRPC",
        /// gRPC.
        Grpc => "GRPC",
        /// HTTP+JSON (REST).
        HttpJson => "HTTP+JSON",
    }
}

crate::macros::string_enum! {
    /// Where an API key goes (the inline enum of `APIKeySecurityScheme.in` in `a2a.json`).
    #[non_exhaustive]
    ApiKeyLocation (inline: true) {
        /// A cookie.
        Cookie => "cookie",
        /// A header.
        Header => "header",
        /// A query parameter.
        Query => "query",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_case_values() {
        assert_eq!(
            serde_json::to_string(&TaskState::InputRequired).unwrap(),
            r#""input-required""#
        );
        assert_eq!(
            serde_json::from_str::<TaskState>(r#""auth-required""#).unwrap(),
            TaskState::AuthRequired
        );
        let err = serde_json::from_str::<TaskState>(r#""TASK_STATE_WORKING""#).unwrap_err();
        assert!(
            err.to_string().starts_with(
                "unknown enum value `TASK_STATE_WORKING` for TaskState, expected one of submitted, "
            ),
            "{err}"
        );
        assert_eq!("user".parse::<Role>().unwrap(), Role::User);
        assert!("USER".parse::<Role>().is_err());
        assert_eq!(TransportProtocol::HttpJson.as_str(), "HTTP+JSON");
        for state in TaskState::ALL {
            assert_eq!(TaskState::from_name(state.as_str()), Some(*state));
        }
    }

    #[test]
    fn final_states() {
        let finals: Vec<_> = TaskState::ALL.iter().filter(|s| s.is_final()).collect();
        assert_eq!(
            finals,
            [
                &TaskState::InputRequired,
                &TaskState::Completed,
                &TaskState::Canceled,
                &TaskState::Failed,
                &TaskState::Rejected,
                &TaskState::AuthRequired
            ]
        );
    }
}
